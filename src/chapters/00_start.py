# §0 Start here: what the chapter builds, one head recapped, map, prerequisites, notation, how to run, lib, glossary.
# Trilingual source: see tools/nbsource.py.

md(r"""
# 0 Start here

A language model writes text one token at a time: at each position it predicts the next token from the tokens before it. The operation that lets one position gather information from the others is attention. To train attention on next-token prediction, a decoder needs three more things, and this chapter builds them one by one:

1. a rule for which positions each query may read, applied **before** softmax (the causal mask). Without it, position t can simply read the token it is asked to predict;
2. several attention heads in place of one, merged back through the output projection $W_O$;
3. learned absolute positions, with the backward pass of the position table.

We then check that causality holds across the whole computation, and that computing token by token with a KV cache gives the same numbers as one full forward pass. Sections §1–§6 test these parts one at a time, with hand-chosen parameters. §7 assembles them, together with layer normalisation, a position-wise MLP and an optimiser, into a small decoder trained in NumPy, so you can see what the mask decides: with it the model learns to predict; without it the model learns to copy the answer from its input.

The chapter has eight sections, §0–§7, and each section is one notebook (one `.ipynb` file). This section lists what you should know, recaps single-head attention, maps the chapter, and then covers notation and how to run the notebooks.

## 0.1 What you should already know

* matrix indexing, slicing and broadcasting in NumPy;
* softmax and its numerically stable form (subtract each row's maximum first);
* the local backward pass: given the upstream gradient, compute the gradient of one operation with respect to its inputs and parameters;
* the basic ideas of the cross-entropy loss and of gradient descent (used in §7).

Attention itself is not a prerequisite: §0.2 recaps the part we need in a few lines and one small example.
""")

md(r"""
## 0.2 One attention head: a recap

Everything after this section builds on single-head attention, so here it is in a few lines. Position t has an input vector $x_t$ of width D. Three learned matrices turn it into a **query** $q_t = x_t W_Q$, a **key** $k_t = x_t W_K$ and a **value** $v_t = x_t W_V$, each of width d. Query i meets every key j in a **score**

$$s_{ij} = \frac{q_i \cdot k_j}{\sqrt d},$$

and a softmax over the keys turns row i of the scores into **attention weights** $a_{ij}$, which are positive and sum to 1. The output at position i is the weighted sum of the values, $y_i = \sum_j a_{ij} v_j$. In matrix form, $Y = \mathrm{softmax}(QK^\top/\sqrt d)\,V$.

![The path through one head: the input X (T × D) is multiplied by W_Q, W_K and W_V into Q, K and V (T × d); Q times K transposed, divided by √d, gives the T × T scores S; the masked softmax normalises each row over j ≤ i only, giving lower-triangular weights A; A times V is the head's output Y (T × d).](figures/one_head.svg)

The figure already shows the mask that §1 introduces: the weights A are lower-triangular. Without a mask the softmax runs over all keys. A small example with three positions, width 2 and $W_Q = W_K = W_V = I$ (so q, k and v all equal x) shows what that means:
""")

code("""
import numpy as np

from lib.attention import (
    attention_scores,
    masked_softmax,
    unmasked_attention,
)

x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])        # (T, d) = (3, 2)
scores = attention_scores(x, x)  #en q_i · k_j / √d, shape (T, T)
#en every key may be read
weights = masked_softmax(scores, np.ones((3, 3), dtype=bool))
y = weights @ x                                            # (T, d)
print(np.round(scores, 3))
print(np.round(weights, 3))
print(np.round(y, 3))
assert (np.allclose(scores, x @ x.T / np.sqrt(2))
        and np.allclose(weights.sum(axis=1), 1))
assert np.allclose(y, unmasked_attention(x, x, x))
#en every query gives some weight to the keys after it
assert ((weights[np.triu_indices(3, k=1)] > 0.1).all()
        and weights[0, 1:].sum() > 0.5)
""")

md(r"""
Every row is a probability distribution, but none of the weights above the diagonal is 0: position 0 gives most of its weight to positions 1 and 2, which come after it. If the model must predict at position t the token that sits at position t + 1, such attention hands it the answer. §1 removes those keys before the softmax.
""")

md(r"""
## 0.3 Map of the chapter

| section | notebook | what it covers | exercises |
| --- | --- | --- | --- |
| §0 | `00_start` | this section: prerequisites, one head recapped, notation, how to run the notebooks, glossary | — |
| §1 | `01_allowed_set` | the allowed set comes before softmax; the data protocol and right padding; which outputs are scored | `ex01_allowed_set` |
| §2 | `02_heads` | why several heads; splitting and merging heads, the output projection $W_O$; what the number of heads changes and what it does not | `ex02_heads` |
| §3 | `03_positions` | a swap that one layer cannot see without positions; learned absolute positions $E[x] + P[o + t]$; the backward pass into both tables (scatter-add) | `ex03_positions` |
| §4 | `04_causality` | causality must hold across the whole computation; the future-perturbation test and its negative control | `ex04_causality` |
| §5 | `05_cache` | the KV cache and the position offset: a new token's position is the length of the cache, not 0; the bottom-right alignment when there are fewer queries than keys | `ex05_cache` |
| §6 | `06_evidence` | an independent checking program that keeps the different kinds of evidence apart | `ex06_evidence` |
| §7 | `07_decoder` | the components assembled into a small decoder trained in NumPy: with the mask it learns to predict; without the mask it copies the answer it can read, and once the future is hidden its loss is worse than uniform guessing ($\ln 10$) | `ex07_decoder` |

The exercise notebooks are in `exercises/en/`. Every exercise is followed by a one-line `check(...)` that tells you at once what is right and what is wrong. Worked solutions are in `solutions/en/`. Read a section first, then do its exercises.
""")

md(r"""
## 0.4 Notation

| symbol | meaning |
| --- | --- |
| B | batch size |
| T | number of positions in a sequence |
| D | model width |
| H | number of heads |
| d = D / H | width of one head; D must be divisible by H |
| V | vocabulary size |
| C | number of rows of the position table P, the largest number of positions it can represent |

Positions are counted from 0, and "row t of P" means the row with index t. Linear maps act on row vectors: $xW$ (in code `x @ W`), with W of shape (input width, output width). The input at position t is token t, which has already been seen; the output at position t is used to predict the next token.

Causality in this chapter is a property of **one forward pass with the parameters held fixed**. A training step changes the parameters, so the next forward pass computes a different function and its outputs differ; that is a different matter from future information flowing through the computation graph.

The code below checks the environment and ties the notation to array shapes:
""")

code("""
import sys

import lib
from grading.exercises import check
from lib.attention import causal_future, split_heads

assert sys.version_info >= (3, 11)
assert (callable(masked_softmax) and callable(causal_future)
        and callable(check))

B, T, D, H = 2, 3, 4, 2
assert D % H == 0
d = D // H
x = np.zeros((B, T, D))
print(x.shape, split_heads(x, H).shape, np.arange(T))
assert split_heads(x, H).shape == (B, H, T, d)
""")

md(r"""
## 0.5 How to read and run the notebooks

**On the website.** The website shows each notebook with the outputs saved when it was executed; reading it runs no code. The chapter has two interactive figures: the experiment at the end of §1 (change only the last row of the input and see which outputs follow) and the cost table of §2 (change the number of heads). Both respond on the website too, with no kernel behind them: the numbers shown for every state were computed by `lib` when the notebook was executed. In Jupyter the same cells are live widgets.

**A notebook downloaded from the website.** The download menu in the header of every notebook page offers two files: the notebook (`.ipynb`) and the course's package (`.whl`). The package holds the code the notebooks import: `lib`, the shared library this chapter teaches; `figures`, which draws the figures; and `grading`, which provides the `check(...)` after every exercise. Save both files in one folder and run, in that folder, with Python 3.11 or newer:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install "./{{course_wheel}}[learner]" jupyterlab
jupyter lab
```

`[learner]` adds what the notebooks use besides NumPy: Matplotlib and ipywidgets. Then open the notebook in JupyterLab to run and change it.

**In a copy of the repository.** With the course's repository on your computer (a clone, say), run the same commands at its root, with `pip install -r requirements.txt` in place of the `pip install` line. `requirements.txt` lists the packages the notebooks need (NumPy, Matplotlib, ipywidgets, JupyterLab and a few more). Its last line, `-e .`, makes `pip install -r` also install the course's own packages in editable mode, so `import lib` works no matter which folder a notebook sits in, and a change to `lib` takes effect once the kernel is restarted. Then open `chapters/en/00_start.ipynb` in JupyterLab.

## 0.6 The shared library `lib`

All the code the chapter teaches lives in one small NumPy package, `lib`. Each function is written once, and the notebooks import it instead of retyping it. Every docstring begins with the section that teaches the function (for example "§1."). The code below lists the public functions and classes of the teaching modules of `lib` (`lib.__all__`) together with their sections:
""")

code("""
import importlib
import inspect
import re

for module_name in lib.__all__:
    module = importlib.import_module(f"lib.{module_name}")
    for name, obj in vars(module).items():
        kind_taught = inspect.isfunction(obj) or inspect.isclass(obj)
        if name.startswith("_") or not kind_taught:
            continue
        if obj.__module__ != module.__name__:
            #en imported from another module and listed there
            continue
        section = re.match(r"§\\d+(?:\\s*[-,]\\s*§\\d+)*", inspect.getdoc(obj))
        assert section, f"{module_name}.{name}"
        print(f"{section.group():<11} {module_name}.{name}")
""")

md(r"""
For the full description of a function, run `help(lib.attention.masked_softmax)` in a notebook. The notebooks' figures are drawn by a separate package, `figures`, which is not part of what the chapter teaches and so is not in `lib`. The automatic checks of the exercises and the grader are not in `lib` at all; they live in the separate package `grading`.

## 0.7 Glossary

The text uses the terms of this table in all three languages.

| English | 中文 | Русский |
| --- | --- | --- |
| chapter (the whole book) / section (§N) / notebook (a file) | 本章 / 节（§N）/ 笔记本 | глава / раздел (§N) / блокнот |
| mask | 掩码 | маска |
| causal mask | 因果掩码 | причинная маска |
| allowed set (`allowed`, True = may read) | 许可集合（`allowed`，真 = 允许读取） | множество разрешённых позиций (`allowed`, True — читать можно) |
| future positions (`future`, True = forbidden) | 未来位置（`future`，真 = 禁止读取） | будущие позиции (`future`, True — читать нельзя) |
| bottom-right alignment | 右下对齐 | выравнивание по правому нижнему углу |
| empty row (a query with no key to read) | 空行（没有可读键的查询） | пустая строка (запрос, которому нечего читать) |
| scored / an unscored output | 计分 / 不计分的输出 | учитывается в функции потерь / неучитываемый выход |
| query / key / value | 查询 / 键 / 值 | запрос / ключ / значение |
| score | 分数 | оценка (score) |
| attention weights | 注意力权重 | веса внимания |
| head, multi-head attention | 头，多头注意力 | голова, многоголовое внимание |
| split / merge heads | 拆分 / 合并头 | разбиение / склейка голов |
| output projection $W_O$ | 输出投影 $W_O$ | выходная проекция $W_O$ |
| bias | 偏置 | свободный член (bias) |
| subspace | 子空间 | подпространство |
| token | 词元（token） | токен |
| special tokens | 特殊词元 | специальные токены |
| code point | 码位 | кодовая позиция Unicode |
| vocabulary | 词表 | словарь |
| batch | 批量 | батч |
| targets | 目标 | целевые метки |
| real (non-padding) positions | 真实位置 | настоящие позиции |
| right padding | 右填充 | дополнение справа |
| token embedding table E | 词元嵌入表 E | таблица эмбеддингов токенов E |
| learned absolute positions, position table P | 可学习绝对位置，位置表 P | обучаемые абсолютные позиции, таблица позиций P |
| offset | 偏移量 | смещение (offset) |
| wrap around (modulo) / clamp | 取模回绕 / 截断到最后一行 | брать по модулю / прижимать к последней строке |
| scatter-add | 散射累加（scatter-add） | накопление по индексам (scatter-add) |
| upstream gradient | 上游梯度 | градиент по выходу |
| forward pass / full forward pass | 前向传播 / 完整前向传播 | прямой проход / полный прямой проход |
| layer normalisation | 层归一化 | нормализация слоя |
| position-wise MLP | 逐位置 MLP | позиционный MLP |
| KV cache | KV 缓存 | KV-кэш |
| future-perturbation test | 未来扰动检验 | проверка возмущением будущего |
| negative control | 阴性对照 | отрицательный контроль |
| leak (of future information) | （未来信息）泄漏 | утечка (информации из будущего) |
| evidence | 证据 | свидетельство |
| hand-chosen parameters | 手工设定的参数 | параметры, заданные вручную |
""")
