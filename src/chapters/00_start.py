# Start here: scope, prerequisites, notation, how to run, lib, glossary, map.
# Trilingual source: see tools/nbsource.py.

md(zh=r"""
# 从这里开始

上一章的注意力让每个查询都能读取全部位置。如果拿它来训练「预测下一个词元」的模型，就等于提前把答案交给了模型。本章在同一条计算链上补上三样东西：

1. 规定每个查询能读取哪些位置，并且在 softmax **之前**施加这个限制（因果掩码）；
2. 把一个注意力头拆成多个头，再通过输出投影 W_O 合并回来；
3. 加入可学习的绝对位置，并推导位置表的反向传播。

随后我们检查因果性是否覆盖了整条计算链，并比较整段前向计算与逐词元使用 KV 缓存的结果。本章搭建的是构件，不是一个完整的可训练模型：层归一化、前馈网络和优化器都不在本章范围之内。

## 预备知识

* NumPy 的矩阵索引、切片和广播；
* softmax 及其数值稳定的写法（先减去每行的最大值）；
* 上一章的局部反向传播：已知上游梯度，求一个运算对其输入和参数的梯度。
""", en=r"""
# Start here

In the previous chapter attention let every query read every position. Train a next-token predictor with it and you hand the model its answers in advance. This chapter adds three things to the same chain of computation:

1. a rule for which positions each query may read, applied **before** softmax (the causal mask);
2. splitting one attention head into several and merging them back through the output projection W_O;
3. learned absolute positions, including the backward pass of the position table.

We then check that causality holds across the whole computation, and compare a full forward pass with a token-by-token pass that uses a KV cache. The chapter builds components, not a complete trainable model: layer normalisation, the feed-forward network and the optimiser are out of scope.

## What you should already know

* matrix indexing, slicing and broadcasting in NumPy;
* softmax and its numerically stable form (subtract each row's maximum first);
* the local backward pass of the previous chapter: given the upstream gradient, compute the gradient of one operation with respect to its inputs and parameters.
""", ru=r"""
# С чего начать

В предыдущей главе внимание позволяло каждому запросу читать все позиции. Если обучать на этом модель, предсказывающую следующий токен, она заранее получит ответы. В этой главе к той же цепочке вычислений добавляются три вещи:

1. правило, какие позиции может читать каждый запрос, причём применяемое **до** softmax (причинная маска);
2. разбиение одной головы внимания на несколько и их склейка обратно через выходную проекцию W_O;
3. обучаемые абсолютные позиции вместе с обратным проходом для таблицы позиций.

Затем мы проверим, что причинность соблюдается во всей цепочке вычислений, и сравним полный прямой проход с пошаговым, использующим KV-кэш. Глава строит составные части, а не готовую обучаемую модель: нормализация слоя, полносвязный блок и оптимизатор остаются за её рамками.

## Что нужно знать заранее

* индексацию, срезы и трансляцию (broadcasting) массивов в NumPy;
* softmax и его численно устойчивую запись (сначала вычесть максимум строки);
* локальный обратный проход из предыдущей главы: по градиенту, пришедшему сверху, найти градиент одной операции по её входам и параметрам.
""")

md(zh=r"""
## 记号

| 记号 | 含义 |
| --- | --- |
| B | 批量大小 |
| T | 序列的位置数 |
| D | 模型宽度 |
| H | 头数 |
| d = D / H | 每个头的宽度，要求 D 能被 H 整除 |
| V | 词表大小 |
| C | 位置表 P 的行数，即最多能表示的位置数 |

位置从 0 开始计数，「P 的第 t 行」指索引为 t 的那一行。线性映射按行向量书写：x @ W，W 的形状为 (D_in, D_out)。位置 t 的输入是已经看到的第 t 个词元，它的输出用来预测下一个词元。

书中关于因果性的结论，说的都是**参数固定时的一次前向计算**。训练更新了共享参数之后，下一次前向计算的结果当然会变，那不是未来信息沿计算图的泄漏。

下面的代码检查环境，并把这些记号与形状对应起来：
""", en=r"""
## Notation

| symbol | meaning |
| --- | --- |
| B | batch size |
| T | number of positions in a sequence |
| D | model width |
| H | number of heads |
| d = D / H | width of one head; D must be divisible by H |
| V | vocabulary size |
| C | number of rows of the position table P, the largest number of positions it can represent |

Positions are counted from 0, and "row t of P" means the row with index t. Linear maps act on row vectors: x @ W, with W of shape (D_in, D_out). The input at position t is the t-th token already seen, and its output is used to predict the next token.

Every statement about causality in this book concerns **one forward pass with fixed parameters**. Once training has updated the shared parameters, a later forward pass may of course give different results; that is not future information leaking through the computation graph.

The code below checks the environment and ties the notation to array shapes:
""", ru=r"""
## Обозначения

| символ | смысл |
| --- | --- |
| B | размер батча |
| T | число позиций в последовательности |
| D | ширина модели |
| H | число голов |
| d = D / H | ширина одной головы; D должно делиться на H |
| V | размер словаря |
| C | число строк таблицы позиций P, то есть наибольшее число позиций, которое она может представить |

Позиции нумеруются с нуля, и «строка t таблицы P» — это строка с индексом t. Линейные отображения действуют на векторы-строки: x @ W, где W имеет форму (D_in, D_out). Вход в позиции t — это уже увиденный t-й токен, а его выход служит для предсказания следующего токена.

Все утверждения о причинности в этой книге относятся к **одному прямому проходу при фиксированных параметрах**. Когда обучение обновило общие параметры, следующий прямой проход, конечно, может дать другой результат; это не утечка информации из будущего по графу вычислений.

Код ниже проверяет окружение и связывает обозначения с формами массивов:
""")

code("""
import sys

import numpy as np

import lib
from lib.attention import causal_future, masked_softmax, split_heads

assert sys.version_info >= (3, 11)
assert callable(masked_softmax) and callable(causal_future)

B, T, D, H = 2, 3, 4, 2
assert D % H == 0
d = D // H
x = np.zeros((B, T, D))
print(x.shape, split_heads(x, H).shape, np.arange(T))
assert split_heads(x, H).shape == (B, H, T, d)
""")

md(zh=r"""
## 怎样运行这些笔记本

**在本地运行。** 在仓库根目录下执行：

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows：.venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

然后在 JupyterLab 中打开 `chapters/zh/` 下的笔记本。`requirements.txt` 的最后一行 `-e .` 会把共享库 `lib` 安装进当前环境，所以无论笔记本放在哪个目录，`import lib` 都能直接使用。

**在 Binder 中运行。** 不想在本地安装时，点击网页顶部的火箭图标（启动按钮），选择 Binder，就能在浏览器里打开同一本笔记本。Binder 会按照 `requirements.txt` 自动准备环境，第一次启动可能要等几分钟。

网页上显示的是事先执行好的输出。交互控件（比如 §1 末尾的滑块）只有在运行着的内核里才会响应；在静态网页上，§1 的控件旁边配有静态的图和表，展示同样的结论。

## 共享库 `lib`

课程里的代码都集中在一个 NumPy 包 `lib` 中。每个函数只实现一次，各节笔记本直接导入使用，不会把代码重抄一遍。每个函数的文档字符串都以讲解它的小节开头（例如「§1.」）。下面的代码把主要模块中的公开函数和类连同它们的小节列出来：
""", en=r"""
## How to run the notebooks

**Locally.** From the root of the repository:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

Then open the notebooks in `chapters/en/` in JupyterLab. The last line of `requirements.txt`, `-e .`, installs the shared library `lib` into the environment, so `import lib` works no matter which folder a notebook sits in.

**On Binder.** If you would rather not install anything, click the rocket icon (the launch button) at the top of a page and choose Binder: the same notebook opens in your browser. Binder prepares the environment from `requirements.txt` by itself; the first start can take a few minutes.

The website shows outputs computed in advance. Interactive widgets (such as the sliders at the end of §1) respond only when a kernel is running; on the static website the widget of §1 has a static figure and table next to it that show the same result.

## The shared library `lib`

All the code of the course lives in one NumPy package, `lib`. Each function is written once and the notebooks import it instead of retyping it. Every docstring begins with the section that teaches the function (for example "§1."). The code below lists the public functions and classes of the main modules together with their sections:
""", ru=r"""
## Как запускать блокноты

**На своём компьютере.** В корне репозитория выполните:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

Затем откройте в JupyterLab блокноты из `chapters/ru/`. Последняя строка `requirements.txt`, `-e .`, устанавливает в окружение общую библиотеку `lib`, поэтому `import lib` работает, в какой бы папке ни лежал блокнот.

**В Binder.** Если ничего устанавливать не хочется, нажмите значок ракеты (кнопку запуска) вверху страницы и выберите Binder: тот же блокнот откроется в браузере. Binder сам подготовит окружение по `requirements.txt`; первый запуск может занять несколько минут.

На сайте показаны заранее вычисленные выходы. Интерактивные виджеты (например, ползунки в конце §1) откликаются только при работающем ядре; на статическом сайте рядом с виджетом из §1 есть статические рисунок и таблица, показывающие тот же результат.

## Общая библиотека `lib`

Весь код курса собран в одном пакете на NumPy — `lib`. Каждая функция написана один раз, и блокноты импортируют её, а не переписывают заново. Строка документации каждой функции начинается с раздела, где она разбирается (например, «§1.»). Код ниже перечисляет открытые функции и классы основных модулей вместе с их разделами:
""")

code("""
import importlib
import inspect
import re

for module_name in ["data", "attention", "positions", "model", "checks"]:
    module = importlib.import_module(f"lib.{module_name}")
    for name, obj in vars(module).items():
        if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if obj.__module__ != module.__name__:
            continue                                  # imported from elsewhere, listed there
        section = re.match(r"§\\d+(?:\\s*[-,]\\s*§\\d+)*", inspect.getdoc(obj))
        assert section, f"{module_name}.{name}"
        print(f"{section.group():<11} {module_name}.{name}")
""")

md(zh=r"""
想看某个函数的完整说明，在笔记本里运行 `help(lib.attention.masked_softmax)` 即可。`lib` 里另有几个辅助模块（作图、练习的自动检查与反馈），它们只为笔记本服务，不属于讲解内容，所以没有列出。

## 术语表

三种语言的正文都使用下表中的术语。

| 中文 | English | Русский |
| --- | --- | --- |
| 掩码 | mask | маска |
| 因果掩码 | causal mask | причинная (каузальная) маска |
| 许可集合（`allowed`，真 = 允许读取） | allowed set (`allowed`, True = may read) | множество разрешённых позиций (`allowed`, True — читать можно) |
| 未来位置（`future`，真 = 禁止读取） | future positions (`future`, True = forbidden) | будущие позиции (`future`, True — читать нельзя) |
| 查询 / 键 / 值 | query / key / value | запрос / ключ / значение |
| 注意力权重 | attention weights | веса внимания |
| 头，多头注意力 | head, multi-head attention | голова, многоголовое внимание |
| 拆分 / 合并头 | split / merge heads | разбиение / склейка голов |
| 输出投影 W_O | output projection W_O | выходная проекция W_O |
| 子空间 | subspace | подпространство |
| 词元（token） | token | токен |
| 词表 | vocabulary | словарь |
| 词元嵌入表 E | token embedding table E | таблица эмбеддингов токенов E |
| 可学习绝对位置，位置表 P | learned absolute positions, position table P | обучаемые абсолютные позиции, таблица позиций P |
| 偏移量 | offset | смещение (offset) |
| 散射累加（scatter-add） | scatter-add | накопление по индексам (scatter-add) |
| 右填充 | right padding | дополнение справа |
| KV 缓存 | KV cache | KV-кэш |
| 未来扰动检验 | future-perturbation test | проверка возмущением будущего |
| 阴性对照 | negative control | отрицательный контроль |
| （未来信息）泄漏 | leak (of future information) | утечка (информации из будущего) |
""", en=r"""
For the full description of a function, run `help(lib.attention.masked_softmax)` in a notebook. `lib` also contains a few helper modules (plotting, automatic checking of exercises and its feedback); they serve the notebooks rather than the subject, so they are not listed.

## Glossary

The text uses the terms of this table in all three languages.

| English | 中文 | Русский |
| --- | --- | --- |
| mask | 掩码 | маска |
| causal mask | 因果掩码 | причинная (каузальная) маска |
| allowed set (`allowed`, True = may read) | 许可集合（`allowed`，真 = 允许读取） | множество разрешённых позиций (`allowed`, True — читать можно) |
| future positions (`future`, True = forbidden) | 未来位置（`future`，真 = 禁止读取） | будущие позиции (`future`, True — читать нельзя) |
| query / key / value | 查询 / 键 / 值 | запрос / ключ / значение |
| attention weights | 注意力权重 | веса внимания |
| head, multi-head attention | 头，多头注意力 | голова, многоголовое внимание |
| split / merge heads | 拆分 / 合并头 | разбиение / склейка голов |
| output projection W_O | 输出投影 W_O | выходная проекция W_O |
| subspace | 子空间 | подпространство |
| token | 词元（token） | токен |
| vocabulary | 词表 | словарь |
| token embedding table E | 词元嵌入表 E | таблица эмбеддингов токенов E |
| learned absolute positions, position table P | 可学习绝对位置，位置表 P | обучаемые абсолютные позиции, таблица позиций P |
| offset | 偏移量 | смещение (offset) |
| scatter-add | 散射累加（scatter-add） | накопление по индексам (scatter-add) |
| right padding | 右填充 | дополнение справа |
| KV cache | KV 缓存 | KV-кэш |
| future-perturbation test | 未来扰动检验 | проверка возмущением будущего |
| negative control | 阴性对照 | отрицательный контроль |
| leak (of future information) | （未来信息）泄漏 | утечка (информации из будущего) |
""", ru=r"""
Полное описание функции выдаст `help(lib.attention.masked_softmax)`, выполненный в блокноте. Кроме того, в `lib` есть несколько вспомогательных модулей (графики, автоматическая проверка упражнений и сообщения о её результатах); они обслуживают блокноты, а не сам предмет, поэтому в списке их нет.

## Словарь терминов

Во всех трёх языках текст пользуется терминами из этой таблицы.

| Русский | English | 中文 |
| --- | --- | --- |
| маска | mask | 掩码 |
| причинная (каузальная) маска | causal mask | 因果掩码 |
| множество разрешённых позиций (`allowed`, True — читать можно) | allowed set (`allowed`, True = may read) | 许可集合（`allowed`，真 = 允许读取） |
| будущие позиции (`future`, True — читать нельзя) | future positions (`future`, True = forbidden) | 未来位置（`future`，真 = 禁止读取） |
| запрос / ключ / значение | query / key / value | 查询 / 键 / 值 |
| веса внимания | attention weights | 注意力权重 |
| голова, многоголовое внимание | head, multi-head attention | 头，多头注意力 |
| разбиение / склейка голов | split / merge heads | 拆分 / 合并头 |
| выходная проекция W_O | output projection W_O | 输出投影 W_O |
| подпространство | subspace | 子空间 |
| токен | token | 词元（token） |
| словарь | vocabulary | 词表 |
| таблица эмбеддингов токенов E | token embedding table E | 词元嵌入表 E |
| обучаемые абсолютные позиции, таблица позиций P | learned absolute positions, position table P | 可学习绝对位置，位置表 P |
| смещение (offset) | offset | 偏移量 |
| накопление по индексам (scatter-add) | scatter-add | 散射累加（scatter-add） |
| дополнение справа | right padding | 右填充 |
| KV-кэш | KV cache | KV 缓存 |
| проверка возмущением будущего | future-perturbation test | 未来扰动检验 |
| отрицательный контроль | negative control | 阴性对照 |
| утечка (информации из будущего) | leak (of future information) | （未来信息）泄漏 |
""")

md(zh=r"""
## 本章地图

| 小节 | 笔记本 | 内容 | 练习 |
| --- | --- | --- | --- |
| §1 | `01_allowed_set` | 数据协议与右填充；先定许可集合，再做 softmax；哪些输出参与计分 | `ex01_allowed_set` |
| §2 | `02_heads` | 拆分与合并头，输出投影 W_O；头数改变的是什么，不改变的是什么 | `ex02_heads` |
| §3 | `03_positions` | 可学习绝对位置 E[x] + P[o + t]；两张表的反向传播（散射累加）；没有位置时的排列反例 | `ex03_positions` |
| §4 | `04_causality` | 因果性要覆盖整条计算链；未来扰动检验及其阴性对照 | `ex04_causality` |
| §5 | `05_cache` | KV 缓存与位置偏移量：新词元的位置是已缓存的长度，而不是 0 | `ex05_cache` |
| §6 | `06_evidence` | 一个独立的检查程序，把不同种类的证据分开 | — |

练习笔记本在 `exercises/zh/`，每道题后面都有一行 `check(...)` 用来自动检查；参考解答在 `solutions/zh/`。建议先读完一节，再做对应的练习。
""", en=r"""
## Map of the chapter

| section | notebook | what it covers | exercises |
| --- | --- | --- | --- |
| §1 | `01_allowed_set` | the data protocol and right padding; the allowed set comes before softmax; which outputs are scored | `ex01_allowed_set` |
| §2 | `02_heads` | splitting and merging heads, the output projection W_O; what the number of heads changes and what it does not | `ex02_heads` |
| §3 | `03_positions` | learned absolute positions E[x] + P[o + t]; the backward pass into both tables (scatter-add); the permutation counter-example without positions | `ex03_positions` |
| §4 | `04_causality` | causality must hold across the whole computation; the future-perturbation test and its negative control | `ex04_causality` |
| §5 | `05_cache` | the KV cache and the position offset: a new token's position is the length of the cache, not 0 | `ex05_cache` |
| §6 | `06_evidence` | an independent checking program that keeps the different kinds of evidence apart | — |

The exercise notebooks are in `exercises/en/`; every exercise is followed by a one-line `check(...)` that checks it automatically. Worked solutions are in `solutions/en/`. Read a section first, then do its exercises.
""", ru=r"""
## Карта главы

| раздел | блокнот | о чём | упражнения |
| --- | --- | --- | --- |
| §1 | `01_allowed_set` | протокол данных и дополнение справа; множество разрешённых позиций задаётся до softmax; какие выходы учитываются в функции потерь | `ex01_allowed_set` |
| §2 | `02_heads` | разбиение и склейка голов, выходная проекция W_O; что меняет число голов, а что нет | `ex02_heads` |
| §3 | `03_positions` | обучаемые абсолютные позиции E[x] + P[o + t]; обратный проход в обе таблицы (накопление по индексам); контрпример с перестановкой без позиций | `ex03_positions` |
| §4 | `04_causality` | причинность должна соблюдаться во всей цепочке вычислений; проверка возмущением будущего и её отрицательный контроль | `ex04_causality` |
| §5 | `05_cache` | KV-кэш и смещение позиции: позиция нового токена — это длина кэша, а не 0 | `ex05_cache` |
| §6 | `06_evidence` | независимая проверочная программа, в которой разные виды доказательств не смешиваются | — |

Блокноты с упражнениями лежат в `exercises/ru/`; после каждого упражнения стоит однострочная проверка `check(...)`. Разобранные решения — в `solutions/ru/`. Сначала прочитайте раздел, затем решайте его упражнения.
""")
