# §0 Start here: what the chapter builds, one head recapped, map, prerequisites, notation, how to run, lib, glossary.
# Trilingual source: see tools/nbsource.py.

md(zh=r"""
# 0 从这里开始

语言模型一次写一个词元：在每个位置上，它根据前面已有的词元预测下一个词元。让一个位置从其他位置收集信息的运算，叫作注意力。要用“预测下一个词元”来训练注意力，解码器还缺三样东西，本章逐一补上：

1. 规定每个查询能读取哪些位置，并在 softmax **之前**施加这个限制（因果掩码）。没有它，位置 t 可以直接读到它要预测的那个词元；
2. 用多个注意力头代替一个头，再通过输出投影 $W_O$ 把它们合并起来；
3. 可学习的绝对位置，以及位置表的反向传播。

接着检查因果性是否贯穿整条计算链，并确认借助 KV 缓存逐个词元计算，与一次完整前向传播得到的数相同。§1～§6 用手工设定的参数逐个检验这些构件；§7 把它们与层归一化、逐位置 MLP 和优化器组装成一个小型解码器，用 NumPy 训练，亲眼看看掩码决定了什么：有掩码，模型学会预测；去掉掩码，它学会从输入里抄答案。

本章共八节（§0～§7），每节是一个笔记本（一个 `.ipynb` 文件）。本节先列出预备知识，简要回顾单头注意力，给出全章地图，再介绍记号和运行方式。

## 0.1 预备知识

* NumPy 的矩阵索引、切片和广播；
* softmax 及其数值稳定的写法（先减去每行的最大值）；
* 局部反向传播：已知上游梯度，求一个运算对其输入和参数的梯度；
* 交叉熵损失和梯度下降的基本概念（§7 会用到）。

注意力本身不算预备知识：§0.2 用几行文字和一个小例子把要用到的部分讲清楚。
""", en=r"""
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
""", ru=r"""
# 0 С чего начать

Языковая модель пишет текст по одному токену: в каждой позиции она предсказывает следующий токен по тем, что стоят перед ним. Операция, которая позволяет позиции собрать сведения из других позиций, называется вниманием. Чтобы обучать внимание предсказанию следующего токена, декодеру нужны ещё три вещи, и эта глава строит их по очереди:

1. правило, определяющее, какие позиции может читать каждый запрос; оно применяется **до** softmax (причинная маска). Без него позиция t может просто прочитать тот токен, который ей нужно предсказать;
2. несколько голов внимания вместо одной и их склейка обратно через выходную проекцию $W_O$;
3. обучаемые абсолютные позиции вместе с обратным проходом для таблицы позиций.

Затем мы проверим, что причинность соблюдается во всей цепочке вычислений и что пошаговое вычисление с KV-кэшем даёт те же числа, что и один полный прямой проход. В §1–§6 эти составные части проверяются по одной, с параметрами, заданными вручную. В §7 они вместе с нормализацией слоя, позиционным MLP и оптимизатором собираются в небольшой декодер, обучаемый на NumPy, и вы сами увидите, что решает маска: с ней модель учится предсказывать, без неё — списывать ответ со своего входа.

Глава состоит из восьми разделов, §0–§7, и каждый раздел — это один блокнот (один файл `.ipynb`). В этом разделе — что нужно знать заранее, краткое напоминание об одной голове внимания, карта главы, обозначения и способы запуска блокнотов.

## 0.1 Что нужно знать заранее

* индексацию, срезы и трансляцию (broadcasting) массивов в NumPy;
* softmax и его численно устойчивую запись (сначала из каждой строки вычитается её максимум);
* локальный обратный проход: зная градиент по выходу, найти градиенты одной операции по её входам и параметрам;
* перекрёстную энтропию как функцию потерь и идею градиентного спуска (они понадобятся в §7).

Само внимание знать заранее не обязательно: в §0.2 нужная его часть изложена в нескольких строках и на одном маленьком примере.
""")

md(zh=r"""
## 0.2 一个注意力头：简要回顾

后面各节都建立在单头注意力之上，这里用几行话把它说清楚。位置 t 有一个宽度为 D 的输入向量 $x_t$。三个可学习的矩阵把它变成宽度为 d 的**查询** $q_t = x_t W_Q$、**键** $k_t = x_t W_K$ 和**值** $v_t = x_t W_V$。查询 i 与每个键 j 算一个**分数**

$$s_{ij} = \frac{q_i \cdot k_j}{\sqrt d},$$

对第 i 行的分数沿键的方向做 softmax，得到**注意力权重** $a_{ij}$：它们都是正数，和为 1。位置 i 的输出是值的加权和 $y_i = \sum_j a_{ij} v_j$。写成矩阵就是 $Y = \mathrm{softmax}(QK^\top/\sqrt d)\,V$。

![一个头的计算流程：输入 X（T × D）分别乘以 W_Q、W_K、W_V，得到 Q、K、V（T × d）；Q 与 K 的转置相乘再除以 √d，得到 T × T 的分数 S；掩码 softmax 只在 j ≤ i 上归一化，得到下三角的权重 A；A 乘以 V 得到这个头的输出 Y（T × d）。](figures/one_head.svg)

图里已经画上了 §1 要讲的掩码：权重 A 是下三角的。没有掩码时，softmax 在全部键上进行。下面用三个位置、宽度 2、$W_Q = W_K = W_V = I$（于是 q、k、v 都等于 x）的小例子看看这意味着什么：
""", en=r"""
## 0.2 One attention head: a recap

Everything after this section builds on single-head attention, so here it is in a few lines. Position t has an input vector $x_t$ of width D. Three learned matrices turn it into a **query** $q_t = x_t W_Q$, a **key** $k_t = x_t W_K$ and a **value** $v_t = x_t W_V$, each of width d. Query i meets every key j in a **score**

$$s_{ij} = \frac{q_i \cdot k_j}{\sqrt d},$$

and a softmax over the keys turns row i of the scores into **attention weights** $a_{ij}$, which are positive and sum to 1. The output at position i is the weighted sum of the values, $y_i = \sum_j a_{ij} v_j$. In matrix form, $Y = \mathrm{softmax}(QK^\top/\sqrt d)\,V$.

![The path through one head: the input X (T × D) is multiplied by W_Q, W_K and W_V into Q, K and V (T × d); Q times K transposed, divided by √d, gives the T × T scores S; the masked softmax normalises each row over j ≤ i only, giving lower-triangular weights A; A times V is the head's output Y (T × d).](figures/one_head.svg)

The figure already shows the mask that §1 introduces: the weights A are lower-triangular. Without a mask the softmax runs over all keys. A small example with three positions, width 2 and $W_Q = W_K = W_V = I$ (so q, k and v all equal x) shows what that means:
""", ru=r"""
## 0.2 Одна голова внимания: краткое напоминание

Всё, что идёт после этого раздела, опирается на одноголовое внимание, поэтому напомним его в нескольких строках. У позиции t есть входной вектор $x_t$ ширины D. Три обучаемые матрицы превращают его в **запрос** $q_t = x_t W_Q$, **ключ** $k_t = x_t W_K$ и **значение** $v_t = x_t W_V$, каждый ширины d. Запрос i сравнивается с каждым ключом j через **оценку**

$$s_{ij} = \frac{q_i \cdot k_j}{\sqrt d},$$

а softmax по ключам превращает строку i оценок в **веса внимания** $a_{ij}$: они положительны и в сумме дают 1. Выход в позиции i — взвешенная сумма значений, $y_i = \sum_j a_{ij} v_j$. В матричной записи $Y = \mathrm{softmax}(QK^\top/\sqrt d)\,V$.

![Путь через одну голову: вход X (T × D) умножается на W_Q, W_K и W_V и даёт Q, K и V (T × d); Q, умноженное на транспонированное K и делённое на √d, даёт оценки S размера T × T; softmax по маске нормирует каждую строку только по j ≤ i и даёт нижнетреугольные веса A; A, умноженное на V, — выход головы Y (T × d).](figures/one_head.svg)

На рисунке уже есть маска, о которой пойдёт речь в §1: веса A нижнетреугольные. Без маски softmax берётся по всем ключам. Что это значит, покажет маленький пример: три позиции, ширина 2 и $W_Q = W_K = W_V = I$ (так что q, k и v совпадают с x):
""")

code("""
import numpy as np

from lib.attention import (
    attention_scores,
    masked_softmax,
    unmasked_attention,
)

x = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])        # (T, d) = (3, 2)
scores = attention_scores(x, x)  #zh q_i · k_j / √d，形状 (T, T) #en q_i · k_j / √d, shape (T, T) #ru q_i · k_j / √d, форма (T, T)
#zh 每个键都可以读
#en every key may be read
#ru читать можно любой ключ
weights = masked_softmax(scores, np.ones((3, 3), dtype=bool))
y = weights @ x                                            # (T, d)
print(np.round(scores, 3))
print(np.round(weights, 3))
print(np.round(y, 3))
assert (np.allclose(scores, x @ x.T / np.sqrt(2))
        and np.allclose(weights.sum(axis=1), 1))
assert np.allclose(y, unmasked_attention(x, x, x))
#zh 每个查询都把一部分权重给了排在它后面的键
#en every query gives some weight to the keys after it
#ru каждый запрос отдаёт часть веса ключам, стоящим после него
assert ((weights[np.triu_indices(3, k=1)] > 0.1).all()
        and weights[0, 1:].sum() > 0.5)
""")

md(zh=r"""
每一行都是一个概率分布，可是对角线右上方的权重都不为 0：位置 0 把一大半权重给了位置 1 和 2，而这两个位置在它之后。如果模型要在位置 t 预测下一个词元，而那个词元正放在位置 t + 1，这样的注意力就等于把答案直接递给了它。§1 的任务就是在 softmax 之前把这些键排除掉。
""", en=r"""
Every row is a probability distribution, but none of the weights above the diagonal is 0: position 0 gives most of its weight to positions 1 and 2, which come after it. If the model must predict at position t the token that sits at position t + 1, such attention hands it the answer. §1 removes those keys before the softmax.
""", ru=r"""
Каждая строка — распределение вероятностей, но ни один вес выше диагонали не равен 0: позиция 0 отдаёт большую часть веса позициям 1 и 2, которые идут после неё. Если в позиции t модель должна предсказать токен, стоящий в позиции t + 1, такое внимание просто вручает ей ответ. §1 убирает эти ключи ещё до softmax.
""")

md(zh=r"""
## 0.3 本章地图

| 节 | 笔记本 | 内容 | 练习 |
| --- | --- | --- | --- |
| §0 | `00_start` | 本节：预备知识、单头注意力回顾、记号、运行方式、术语表 | — |
| §1 | `01_allowed_set` | 先定许可集合，再做 softmax；数据协议与右填充；哪些输出参与计分 | `ex01_allowed_set` |
| §2 | `02_heads` | 为什么要多个头；拆分与合并头，输出投影 $W_O$；头数改变什么、不改变什么 | `ex02_heads` |
| §3 | `03_positions` | 没有位置时一层注意力看不出的交换；可学习绝对位置 $E[x] + P[o + t]$；两张表的反向传播（散射累加） | `ex03_positions` |
| §4 | `04_causality` | 因果性要覆盖整条计算链；未来扰动检验及其阴性对照 | `ex04_causality` |
| §5 | `05_cache` | KV 缓存与位置偏移量：新词元的位置是已缓存的长度，而不是 0；查询少于键时的右下对齐 | `ex05_cache` |
| §6 | `06_evidence` | 一个独立的检查程序，把不同种类的证据分开 | `ex06_evidence` |
| §7 | `07_decoder` | 把各个构件装配成小型解码器，用 NumPy 训练：有掩码时它学会预测；去掉掩码，它照抄输入里读得到的答案，一旦把未来藏起来，它的损失比均匀瞎猜（$\ln 10$）还高 | `ex07_decoder` |

练习笔记本在 `exercises/zh/`，每道题后面都有一行 `check(...)`，运行它就能立刻知道哪里对、哪里错；参考解答在 `solutions/zh/`。建议先读完一节，再做对应的练习。
""", en=r"""
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
""", ru=r"""
## 0.3 Карта главы

| раздел | блокнот | о чём | упражнения |
| --- | --- | --- | --- |
| §0 | `00_start` | этот раздел: что нужно знать заранее, напоминание об одной голове, обозначения, как запускать блокноты, словарь терминов | — |
| §1 | `01_allowed_set` | множество разрешённых позиций задаётся до softmax; протокол данных и дополнение справа; какие выходы учитываются в функции потерь | `ex01_allowed_set` |
| §2 | `02_heads` | зачем нужно несколько голов; разбиение и склейка голов, выходная проекция $W_O$; что меняет число голов, а что нет | `ex02_heads` |
| §3 | `03_positions` | перестановка, которую один слой без позиций не видит; обучаемые абсолютные позиции $E[x] + P[o + t]$; обратный проход в обе таблицы (накопление по индексам) | `ex03_positions` |
| §4 | `04_causality` | причинность должна соблюдаться во всей цепочке вычислений; проверка возмущением будущего и её отрицательный контроль | `ex04_causality` |
| §5 | `05_cache` | KV-кэш и смещение позиции: позиция нового токена — это длина кэша, а не 0; выравнивание по правому нижнему углу, когда запросов меньше, чем ключей | `ex05_cache` |
| §6 | `06_evidence` | независимая проверочная программа, в которой разные виды свидетельств не смешиваются | `ex06_evidence` |
| §7 | `07_decoder` | составные части собраны в небольшой декодер, обученный на NumPy: с маской он учится предсказывать; без маски списывает ответ, который ему виден, а стоит скрыть от него будущее — его потери оказываются выше, чем при равномерном угадывании ($\ln 10$) | `ex07_decoder` |

Блокноты с упражнениями лежат в `exercises/ru/`. После каждого упражнения стоит однострочная проверка `check(...)`, которая сразу говорит, что верно, а что нет. Разобранные решения — в `solutions/ru/`. Сначала прочитайте раздел, затем решайте упражнения к нему.
""")

md(zh=r"""
## 0.4 记号

| 记号 | 含义 |
| --- | --- |
| B | 批量大小 |
| T | 序列的位置数 |
| D | 模型宽度 |
| H | 头数 |
| d = D / H | 每个头的宽度，要求 D 能被 H 整除 |
| V | 词表大小 |
| C | 位置表 P 的行数，即最多能表示的位置数 |

位置从 0 开始计数，“P 的第 t 行”指索引为 t 的那一行。线性映射按行向量书写：$xW$（代码里是 `x @ W`），W 的形状为（输入宽度，输出宽度）。位置 t 的输入是已经看到的词元 t，它的输出用来预测下一个词元。

本章说的因果性，是**参数固定时的一次前向传播**所具有的性质。训练走一步就改动了参数，下一次前向传播算的已是另一个函数，输出自然不同；这和未来信息沿计算图泄漏是两回事。

下面的代码检查环境，并把这些记号与数组的形状对应起来：
""", en=r"""
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
""", ru=r"""
## 0.4 Обозначения

| обозначение | смысл |
| --- | --- |
| B | размер батча |
| T | число позиций в последовательности |
| D | ширина модели |
| H | число голов |
| d = D / H | ширина одной головы; D должен делиться на H |
| V | размер словаря |
| C | число строк таблицы позиций P, то есть наибольшее число позиций, которое она может представить |

Позиции нумеруются с нуля, и «строка t таблицы P» — это строка с индексом t. Линейные отображения действуют на векторы-строки: $xW$ (в коде `x @ W`), где W имеет форму (входная ширина, выходная ширина). Вход в позиции t — это уже увиденный токен t, а выход в этой позиции служит для предсказания следующего токена.

Причинность в этой главе — свойство **одного прямого прохода при фиксированных параметрах**. Шаг обучения меняет параметры, и следующий прямой проход вычисляет уже другую функцию, так что и выходы у него другие; с утечкой информации из будущего по графу вычислений это не имеет ничего общего.

Код ниже проверяет окружение и связывает обозначения с формами массивов:
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

md(zh=r"""
## 0.5 怎样阅读和运行这些笔记本

**在网页上阅读。** 网页上显示的是每个笔记本执行后保存下来的输出，阅读时不需要运行任何代码。本章有两张交互图：§1 末尾的实验（只改动输入的最后一行，看哪些输出跟着变）和 §2 的头数成本表。它们在网页上也能直接操作，不需要内核：每一种状态下显示的数字，都是在执行笔记本时用 `lib` 算好的。在 Jupyter 里，同样的单元格是实时运行的控件。

**在本地运行。** 在仓库根目录下执行：

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows：.venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

`requirements.txt` 列出笔记本需要的软件包（NumPy、Matplotlib、ipywidgets、JupyterLab 等）。`pip install -r` 还会执行它的最后一行 `-e .`，把本课程自己的两个包以可编辑模式装进当前环境：`lib`（本章讲解的共享库）和 `grading`（每道练习后面的 `check(...)`，以及教师用的批量评分程序）。所以无论笔记本放在哪个目录，`import lib` 都能直接使用。装好之后，在 JupyterLab 中打开 `chapters/zh/00_start.ipynb`。

**从网页下载。** 每个笔记本页面的页眉里都有下载菜单，选 `.ipynb` 就能把笔记本下载下来；在上面准备好的环境里用 Jupyter 打开，就能运行和修改。如果想什么都不装、直接在 Binder 上运行，做法见仓库的 README：Binder 会按照 `requirements.txt` 准备环境，第一次启动可能要等几分钟。

## 0.6 共享库 `lib`

本章讲解的代码都集中在一个小型 NumPy 包 `lib` 中。每个函数只实现一次，各节笔记本直接导入使用，不会把代码重抄一遍。每个函数的文档字符串都以讲解它的那一节开头（例如“§1.”）。下面的代码列出 `lib` 中各个讲解模块（`lib.__all__`）的公开函数和类，以及讲解它们的节：
""", en=r"""
## 0.5 How to read and run the notebooks

**On the website.** The website shows each notebook with the outputs saved when it was executed; reading it runs no code. The chapter has two interactive figures: the experiment at the end of §1 (change only the last row of the input and see which outputs follow) and the cost table of §2 (change the number of heads). Both respond on the website too, with no kernel behind them: the numbers shown for every state were computed by `lib` when the notebook was executed. In Jupyter the same cells are live widgets.

**Locally.** From the root of the repository:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

`requirements.txt` lists the packages the notebooks need (NumPy, Matplotlib, ipywidgets, JupyterLab and a few more). Its last line, `-e .`, makes `pip install -r` also install the course's own two packages in editable mode: `lib`, the shared library this chapter teaches, and `grading`, which provides the `check(...)` after every exercise and the instructors' batch grader. So `import lib` works no matter which folder a notebook sits in. Then open `chapters/en/00_start.ipynb` in JupyterLab.

**Downloading from the website.** Each notebook page has a download menu in its header: choose `.ipynb` there, then open the file in Jupyter, in the environment set up above, to run and change it. To run the notebooks on Binder with nothing to install, follow the repository's README. Binder prepares the environment from `requirements.txt`, and the first start can take a few minutes.

## 0.6 The shared library `lib`

All the code the chapter teaches lives in one small NumPy package, `lib`. Each function is written once, and the notebooks import it instead of retyping it. Every docstring begins with the section that teaches the function (for example "§1."). The code below lists the public functions and classes of the teaching modules of `lib` (`lib.__all__`) together with their sections:
""", ru=r"""
## 0.5 Как читать и запускать блокноты

**На сайте.** Сайт показывает каждый блокнот с результатами ячеек, сохранёнными при его выполнении; при чтении никакой код не запускается. В главе два интерактивных рисунка: эксперимент в конце §1 (меняем только последнюю строку входа и смотрим, какие выходы меняются вслед за ней) и таблица затрат в §2 (меняем число голов). Оба откликаются и на сайте, без всякого ядра: числа для каждого состояния вычислены библиотекой `lib` при выполнении блокнота. В Jupyter те же ячейки работают как обычные интерактивные виджеты и пересчитывают всё на лету.

**На своём компьютере.** В корне репозитория выполните:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

В `requirements.txt` перечислено всё, что нужно блокнотам (NumPy, Matplotlib, ipywidgets, JupyterLab и ещё несколько библиотек). Благодаря его последней строке, `-e .`, команда `pip install -r` устанавливает ещё и два собственных пакета курса, в режиме редактирования: `lib` — общую библиотеку, которую разбирает глава, и `grading`, где находятся проверка `check(...)` после каждого упражнения и система оценивания для преподавателей. Поэтому `import lib` работает, в какой бы папке ни лежал блокнот. После установки откройте в JupyterLab `chapters/ru/00_start.ipynb`.

**Блокнот, скачанный с сайта.** В шапке каждой страницы с блокнотом есть меню скачивания: выберите в нём `.ipynb` и откройте файл в Jupyter в окружении, подготовленном выше, — тогда блокнот можно запускать и менять. Как запустить блокноты в Binder, ничего не устанавливая, написано в README репозитория. Binder сам подготовит окружение по `requirements.txt`; первый запуск может занять несколько минут.

## 0.6 Общая библиотека `lib`

Весь код, который разбирает глава, собран в одной небольшой библиотеке на NumPy — `lib`. Каждая функция написана один раз, и блокноты импортируют её, а не переписывают заново. Строка документации каждой функции начинается с номера раздела, где она разбирается (например, «§1.»). Код ниже перечисляет открытые функции и классы учебных модулей `lib` (`lib.__all__`) вместе с их разделами:
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
            #zh 从别的模块导入，在那个模块下列出
            #en imported from another module and listed there
            #ru импортирован из другого модуля и указан там
            continue
        section = re.match(r"§\\d+(?:\\s*[-,]\\s*§\\d+)*", inspect.getdoc(obj))
        assert section, f"{module_name}.{name}"
        print(f"{section.group():<11} {module_name}.{name}")
""")

md(zh=r"""
想看某个函数的完整说明，在笔记本里运行 `help(lib.attention.masked_softmax)` 即可。笔记本里的图由单独的 `figures` 包绘制，它不属于讲解内容，所以不在 `lib` 里。练习的自动检查和评分程序不在 `lib` 里，而是在单独的 `grading` 包中。

## 0.7 术语表

三种语言的正文都使用下表中的术语。

| 中文 | English | Русский |
| --- | --- | --- |
| 本章 / 节（§N）/ 笔记本 | chapter (the whole book) / section (§N) / notebook (a file) | глава / раздел (§N) / блокнот |
| 掩码 | mask | маска |
| 因果掩码 | causal mask | причинная маска |
| 许可集合（`allowed`，真 = 允许读取） | allowed set (`allowed`, True = may read) | множество разрешённых позиций (`allowed`, True — читать можно) |
| 未来位置（`future`，真 = 禁止读取） | future positions (`future`, True = forbidden) | будущие позиции (`future`, True — читать нельзя) |
| 右下对齐 | bottom-right alignment | выравнивание по правому нижнему углу |
| 空行（没有可读键的查询） | empty row (a query with no key to read) | пустая строка (запрос, которому нечего читать) |
| 计分 / 不计分的输出 | scored / an unscored output | учитывается в функции потерь / неучитываемый выход |
| 查询 / 键 / 值 | query / key / value | запрос / ключ / значение |
| 分数 | score | оценка (score) |
| 注意力权重 | attention weights | веса внимания |
| 头，多头注意力 | head, multi-head attention | голова, многоголовое внимание |
| 拆分 / 合并头 | split / merge heads | разбиение / склейка голов |
| 输出投影 $W_O$ | output projection $W_O$ | выходная проекция $W_O$ |
| 偏置 | bias | свободный член (bias) |
| 子空间 | subspace | подпространство |
| 词元（token） | token | токен |
| 特殊词元 | special tokens | специальные токены |
| 码位 | code point | кодовая позиция Unicode |
| 词表 | vocabulary | словарь |
| 批量 | batch | батч |
| 目标 | targets | целевые метки |
| 真实位置 | real (non-padding) positions | настоящие позиции |
| 右填充 | right padding | дополнение справа |
| 词元嵌入表 E | token embedding table E | таблица эмбеддингов токенов E |
| 可学习绝对位置，位置表 P | learned absolute positions, position table P | обучаемые абсолютные позиции, таблица позиций P |
| 偏移量 | offset | смещение (offset) |
| 取模回绕 / 截断到最后一行 | wrap around (modulo) / clamp | брать по модулю / прижимать к последней строке |
| 散射累加（scatter-add） | scatter-add | накопление по индексам (scatter-add) |
| 上游梯度 | upstream gradient | градиент по выходу |
| 前向传播 / 完整前向传播 | forward pass / full forward pass | прямой проход / полный прямой проход |
| 层归一化 | layer normalisation | нормализация слоя |
| 逐位置 MLP | position-wise MLP | позиционный MLP |
| KV 缓存 | KV cache | KV-кэш |
| 未来扰动检验 | future-perturbation test | проверка возмущением будущего |
| 阴性对照 | negative control | отрицательный контроль |
| （未来信息）泄漏 | leak (of future information) | утечка (информации из будущего) |
| 证据 | evidence | свидетельство |
| 手工设定的参数 | hand-chosen parameters | параметры, заданные вручную |
""", en=r"""
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
""", ru=r"""
Чтобы увидеть полное описание функции, выполните в блокноте `help(lib.attention.masked_softmax)`. Графики в блокнотах рисует отдельный пакет `figures`: к самому предмету он не относится, поэтому его нет в `lib`. Автоматическая проверка упражнений и система оценивания лежат вовсе не в `lib`: они вынесены в отдельный пакет `grading`.

## 0.7 Словарь терминов

Во всех трёх языковых версиях главы термины взяты из этой таблицы.

| Русский | English | 中文 |
| --- | --- | --- |
| глава / раздел (§N) / блокнот | chapter (the whole book) / section (§N) / notebook (a file) | 本章 / 节（§N）/ 笔记本 |
| маска | mask | 掩码 |
| причинная маска | causal mask | 因果掩码 |
| множество разрешённых позиций (`allowed`, True — читать можно) | allowed set (`allowed`, True = may read) | 许可集合（`allowed`，真 = 允许读取） |
| будущие позиции (`future`, True — читать нельзя) | future positions (`future`, True = forbidden) | 未来位置（`future`，真 = 禁止读取） |
| выравнивание по правому нижнему углу | bottom-right alignment | 右下对齐 |
| пустая строка (запрос, которому нечего читать) | empty row (a query with no key to read) | 空行（没有可读键的查询） |
| учитывается в функции потерь / неучитываемый выход | scored / an unscored output | 计分 / 不计分的输出 |
| запрос / ключ / значение | query / key / value | 查询 / 键 / 值 |
| оценка (score) | score | 分数 |
| веса внимания | attention weights | 注意力权重 |
| голова, многоголовое внимание | head, multi-head attention | 头，多头注意力 |
| разбиение / склейка голов | split / merge heads | 拆分 / 合并头 |
| выходная проекция $W_O$ | output projection $W_O$ | 输出投影 $W_O$ |
| свободный член (bias) | bias | 偏置 |
| подпространство | subspace | 子空间 |
| токен | token | 词元（token） |
| специальные токены | special tokens | 特殊词元 |
| кодовая позиция Unicode | code point | 码位 |
| словарь | vocabulary | 词表 |
| батч | batch | 批量 |
| целевые метки | targets | 目标 |
| настоящие позиции | real (non-padding) positions | 真实位置 |
| дополнение справа | right padding | 右填充 |
| таблица эмбеддингов токенов E | token embedding table E | 词元嵌入表 E |
| обучаемые абсолютные позиции, таблица позиций P | learned absolute positions, position table P | 可学习绝对位置，位置表 P |
| смещение (offset) | offset | 偏移量 |
| брать по модулю / прижимать к последней строке | wrap around (modulo) / clamp | 取模回绕 / 截断到最后一行 |
| накопление по индексам (scatter-add) | scatter-add | 散射累加（scatter-add） |
| градиент по выходу | upstream gradient | 上游梯度 |
| прямой проход / полный прямой проход | forward pass / full forward pass | 前向传播 / 完整前向传播 |
| нормализация слоя | layer normalisation | 层归一化 |
| позиционный MLP | position-wise MLP | 逐位置 MLP |
| KV-кэш | KV cache | KV 缓存 |
| проверка возмущением будущего | future-perturbation test | 未来扰动检验 |
| отрицательный контроль | negative control | 阴性对照 |
| утечка (информации из будущего) | leak (of future information) | （未来信息）泄漏 |
| свидетельство | evidence | 证据 |
| параметры, заданные вручную | hand-chosen parameters | 手工设定的参数 |
""")
