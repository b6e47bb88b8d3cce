# §0 Start here: scope, prerequisites, notation, how to run, lib, glossary, map.
# Trilingual source: see tools/nbsource.py.

md(zh=r"""
# 0 从这里开始

上一章的注意力让每个查询都能读取全部位置。如果拿它来训练“预测下一个词元”的模型，就等于提前把答案交给了模型。本章在同一条计算链上补上三样东西：

1. 规定每个查询能读取哪些位置，并且在 softmax **之前**施加这个限制（因果掩码）；
2. 把一个注意力头拆成多个头，再通过输出投影 W_O 合并回来；
3. 加入可学习的绝对位置，并推导位置表的反向传播。

随后检查因果性是否覆盖了整条计算链，并比较完整前向传播与逐词元使用 KV 缓存的结果。§1～§6 用手工设定的参数逐个检验这些构件；§7 再把它们和层归一化、逐位置 MLP、优化器一起装配成一个小型解码器，用 NumPy 训练，让你亲眼看到：有没有掩码，决定了模型是在学习预测，还是在照抄答案。

本章由 §0～§7 共八节组成，每一节是一个笔记本（一个 `.ipynb` 文件）。本节介绍预备知识、记号和运行方式，最后给出全章的地图。

## 0.1 预备知识

* NumPy 的矩阵索引、切片和广播；
* softmax 及其数值稳定的写法（先减去每行的最大值）；
* 上一章的局部反向传播：已知上游梯度，求一个运算对其输入和参数的梯度；
* 交叉熵损失和梯度下降的基本概念（§7 会用到）。
""", en=r"""
# 0 Start here

In the previous chapter attention let every query read every position. Train a next-token predictor with it and you hand the model its answers in advance. This chapter adds three things to the same chain of computation:

1. a rule for which positions each query may read, applied **before** softmax (the causal mask);
2. splitting one attention head into several and merging them back through the output projection W_O;
3. learned absolute positions, including the backward pass of the position table.

We then check that causality holds across the whole computation, and compare a full forward pass with a token-by-token pass that uses a KV cache. Sections §1–§6 check these components one at a time, with hand-chosen parameters. §7 assembles them, together with layer normalisation, a position-wise MLP and an optimiser, into a small decoder trained in NumPy, and lets you see for yourself that the mask decides whether the model learns to predict or simply copies the answer.

The chapter has eight sections, §0–§7, and each section is one notebook (one `.ipynb` file). This section covers the prerequisites, the notation and how to run the notebooks, and ends with a map of the chapter.

## 0.1 What you should already know

* matrix indexing, slicing and broadcasting in NumPy;
* softmax and its numerically stable form (subtract each row's maximum first);
* the local backward pass of the previous chapter: given the upstream gradient, compute the gradient of one operation with respect to its inputs and parameters;
* the basic ideas of the cross-entropy loss and of gradient descent (used in §7).
""", ru=r"""
# 0 С чего начать

В предыдущей главе внимание позволяло каждому запросу читать все позиции. Модель, которую с таким вниманием учат предсказывать следующий токен, заранее получает ответы. В этой главе к той же цепочке вычислений добавляются три вещи:

1. правило, определяющее, какие позиции может читать каждый запрос; оно применяется **до** softmax (причинная маска);
2. разбиение одной головы внимания на несколько и их склейка обратно через выходную проекцию W_O;
3. обучаемые абсолютные позиции вместе с обратным проходом для таблицы позиций.

Затем мы проверим, что причинность соблюдается во всей цепочке вычислений, и сравним полный прямой проход с пошаговым, использующим KV-кэш. В §1–§6 эти составные части проверяются по одной, с параметрами, заданными вручную. В §7 они вместе с нормализацией слоя, позиционным MLP и оптимизатором собираются в небольшой декодер, обучаемый на NumPy. Там вы сами увидите, что именно от маски зависит, научится ли модель предсказывать или будет просто списывать ответ.

Глава состоит из восьми разделов, §0–§7, и каждый раздел — это один блокнот (один файл `.ipynb`). В этом разделе — что нужно знать заранее, обозначения и способы запуска блокнотов, а в конце — карта главы.

## 0.1 Что нужно знать заранее

* индексацию, срезы и трансляцию (broadcasting) массивов в NumPy;
* softmax и его численно устойчивую запись (сначала из каждой строки вычитается её максимум);
* локальный обратный проход из предыдущей главы: зная градиент по выходу, найти градиенты одной операции по её входам и параметрам;
* перекрёстную энтропию как функцию потерь и идею градиентного спуска (они понадобятся в §7).
""")

md(zh=r"""
## 0.2 记号

| 记号 | 含义 |
| --- | --- |
| B | 批量大小 |
| T | 序列的位置数 |
| D | 模型宽度 |
| H | 头数 |
| d = D / H | 每个头的宽度，要求 D 能被 H 整除 |
| V | 词表大小 |
| C | 位置表 P 的行数，即最多能表示的位置数 |

位置从 0 开始计数，“P 的第 t 行”指索引为 t 的那一行。线性映射按行向量书写：x @ W，W 的形状为 (D_in, D_out)。位置 t 的输入是已经看到的第 t 个词元，它的输出用来预测下一个词元。

本章关于因果性的结论，说的都是**参数固定时的一次前向传播**。训练更新了共享参数之后，下一次前向传播的结果当然会变，那不是未来信息沿计算图的泄漏。

下面的代码检查环境，并把这些记号与数组的形状对应起来：
""", en=r"""
## 0.2 Notation

| symbol | meaning |
| --- | --- |
| B | batch size |
| T | number of positions in a sequence |
| D | model width |
| H | number of heads |
| d = D / H | width of one head; D must be divisible by H |
| V | vocabulary size |
| C | number of rows of the position table P, the largest number of positions it can represent |

Positions are counted from 0, and "row t of P" means the row with index t. Linear maps act on row vectors: x @ W, with W of shape (D_in, D_out). The input at position t is token t, which has already been seen; the output at position t is used to predict the next token.

Every statement about causality in this chapter concerns **one forward pass with fixed parameters**. Once training has updated the shared parameters, a later forward pass may of course give different results; that is not future information leaking through the computation graph.

The code below checks the environment and ties the notation to array shapes:
""", ru=r"""
## 0.2 Обозначения

| обозначение | смысл |
| --- | --- |
| B | размер батча |
| T | число позиций в последовательности |
| D | ширина модели |
| H | число голов |
| d = D / H | ширина одной головы; D должен делиться на H |
| V | размер словаря |
| C | число строк таблицы позиций P, то есть наибольшее число позиций, которое она может представить |

Позиции нумеруются с нуля, и «строка t таблицы P» — это строка с индексом t. Линейные отображения действуют на векторы-строки: x @ W, где W имеет форму (D_in, D_out). Вход в позиции t — это уже увиденный токен t, а выход в этой позиции служит для предсказания следующего токена.

Все утверждения о причинности в этой главе относятся к **одному прямому проходу при фиксированных параметрах**. После того как обучение обновит общие параметры, следующий прямой проход, конечно, может дать другой результат, но это не утечка информации из будущего по графу вычислений.

Код ниже проверяет окружение и связывает обозначения с формами массивов:
""")

code("""
import sys

import numpy as np

import lib
from grading.exercises import check
from lib.attention import causal_future, masked_softmax, split_heads

assert sys.version_info >= (3, 11)
assert callable(masked_softmax) and callable(causal_future) and callable(check)

B, T, D, H = 2, 3, 4, 2
assert D % H == 0
d = D // H
x = np.zeros((B, T, D))
print(x.shape, split_heads(x, H).shape, np.arange(T))
assert split_heads(x, H).shape == (B, H, T, d)
""")

md(zh=r"""
## 0.3 怎样阅读和运行这些笔记本

**在网页上阅读。** 网页上显示的是每个笔记本执行后保存下来的输出，阅读时不需要运行任何代码。本章有两张交互图：§1 末尾的实验（只改动输入的最后一行，看哪些输出跟着变）和 §2 的头数成本表。它们在网页上也能直接操作，不需要内核：每一种状态下显示的数字，都是在执行笔记本时由 `lib` 算好的。在 Jupyter 里，同样的单元格是实时运行的控件。

**在本地运行。** 在仓库根目录下执行：

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows：.venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

`requirements.txt` 安装笔记本需要的软件包（NumPy、Matplotlib、ipywidgets、JupyterLab 等）；它的最后一行 `-e .` 再把本课程自己的两个包以可编辑模式装进当前环境：`lib`（本章讲解的共享库）和 `grading`（每道练习后面的 `check(...)`，以及教师用的批量评分程序）。所以无论笔记本放在哪个目录，`import lib` 都能直接使用。装好之后，在 JupyterLab 中打开 `chapters/zh/00_start.ipynb`。

**从网页下载。** 每个笔记本页面的页眉里都有下载菜单，选 `.ipynb` 就能把笔记本下载下来；在上面准备好的环境里用 Jupyter 打开，就能运行和修改。如果想什么都不装、直接在 Binder 上运行，做法见仓库的 README：Binder 会按照 `requirements.txt` 准备环境，第一次启动可能要等几分钟。

## 0.4 共享库 `lib`

本章讲解的代码都集中在一个小型 NumPy 包 `lib` 中。每个函数只实现一次，各节笔记本直接导入使用，不会把代码重抄一遍。每个函数的文档字符串都以讲解它的那一节开头（例如“§1.”）。下面的代码列出 `lib` 中各个讲解模块（`lib.__all__`）的公开函数和类，以及讲解它们的节：
""", en=r"""
## 0.3 How to read and run the notebooks

**On the website.** The website shows each notebook with the outputs saved when it was executed; reading it runs no code. The chapter has two interactive figures: the experiment at the end of §1 (change only the last row of the input and see which outputs follow) and the cost table of §2 (change the number of heads). Both respond on the website too, with no kernel behind them: the numbers shown for every state were computed by `lib` when the notebook was executed. In Jupyter the same cells are live widgets.

**Locally.** From the root of the repository:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

`requirements.txt` installs the packages the notebooks need (NumPy, Matplotlib, ipywidgets, JupyterLab and a few more). Its last line, `-e .`, then installs the course's own two packages in editable mode: `lib`, the shared library this chapter teaches, and `grading`, which provides the `check(...)` after every exercise and the instructors' batch grader. So `import lib` works no matter which folder a notebook sits in. Then open `chapters/en/00_start.ipynb` in JupyterLab.

**Downloading from the website.** Each notebook page has a download menu in its header: choose `.ipynb` there, then open the file in Jupyter, in the environment set up above, to run and change it. To run the notebooks on Binder with nothing to install, follow the repository's README. Binder prepares the environment from `requirements.txt`, and the first start can take a few minutes.

## 0.4 The shared library `lib`

All the code the chapter teaches lives in one small NumPy package, `lib`. Each function is written once, and the notebooks import it instead of retyping it. Every docstring begins with the section that teaches the function (for example "§1."). The code below lists the public functions and classes of the teaching modules of `lib` (`lib.__all__`) together with their sections:
""", ru=r"""
## 0.3 Как читать и запускать блокноты

**На сайте.** Сайт показывает каждый блокнот с результатами ячеек, сохранёнными при его выполнении; при чтении никакой код не запускается. В главе два интерактивных рисунка: эксперимент в конце §1 (меняем только последнюю строку входа и смотрим, какие выходы меняются вслед за ней) и таблица затрат в §2 (меняем число голов). Оба откликаются и на сайте, без всякого ядра: числа для каждого состояния вычислены `lib` при выполнении блокнота. В Jupyter те же ячейки работают как обычные интерактивные виджеты и пересчитывают всё на лету.

**На своём компьютере.** В корне репозитория выполните:

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install -r requirements.txt
jupyter lab
```

`requirements.txt` устанавливает всё, что нужно блокнотам (NumPy, Matplotlib, ipywidgets, JupyterLab и ещё несколько библиотек). Его последняя строка, `-e .`, затем устанавливает в режиме редактирования два собственных пакета курса: `lib` — общую библиотеку, которую разбирает глава, и `grading`, где находятся проверка `check(...)` после каждого упражнения и система оценивания для преподавателей. Поэтому `import lib` работает, в какой бы папке ни лежал блокнот. После установки откройте в JupyterLab `chapters/ru/00_start.ipynb`.

**Блокнот, скачанный с сайта.** В шапке каждой страницы с блокнотом есть меню скачивания: выберите в нём `.ipynb` и откройте файл в Jupyter в окружении, подготовленном выше, — тогда блокнот можно запускать и менять. Как запустить блокноты в Binder, ничего не устанавливая, написано в README репозитория. Binder сам подготовит окружение по `requirements.txt`; первый запуск может занять несколько минут.

## 0.4 Общая библиотека `lib`

Весь код, который разбирает глава, собран в одной небольшой библиотеке на NumPy — `lib`. Каждая функция написана один раз, и блокноты импортируют её, а не переписывают заново. Строка документации каждой функции начинается с номера раздела, где она разбирается (например, «§1.»). Код ниже перечисляет открытые функции и классы учебных модулей `lib` (`lib.__all__`) вместе с их разделами:
""")

code("""
import importlib
import inspect
import re

for module_name in lib.__all__:
    module = importlib.import_module(f"lib.{module_name}")
    for name, obj in vars(module).items():
        if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
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

## 0.5 术语表

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
| 输出投影 W_O | output projection W_O | выходная проекция W_O |
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

## 0.5 Glossary

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
| output projection W_O | 输出投影 W_O | выходная проекция W_O |
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

## 0.5 Словарь терминов

Текст на всех трёх языках пользуется терминами из этой таблицы.

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
| выходная проекция W_O | output projection W_O | 输出投影 W_O |
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

md(zh=r"""
## 0.6 本章地图

| 节 | 笔记本 | 内容 | 练习 |
| --- | --- | --- | --- |
| §0 | `00_start` | 本节：预备知识、记号、运行方式、术语表 | — |
| §1 | `01_allowed_set` | 数据协议与右填充；先定许可集合，再做 softmax；查询少于键时的右下对齐；哪些输出参与计分 | `ex01_allowed_set` |
| §2 | `02_heads` | 拆分与合并头，输出投影 W_O；头数改变的是什么，不改变的是什么 | `ex02_heads` |
| §3 | `03_positions` | 可学习绝对位置 E[x] + P[o + t]；两张表的反向传播（散射累加）；没有位置时的排列反例 | `ex03_positions` |
| §4 | `04_causality` | 因果性要覆盖整条计算链；未来扰动检验及其阴性对照 | `ex04_causality` |
| §5 | `05_cache` | KV 缓存与位置偏移量：新词元的位置是已缓存的长度，而不是 0 | `ex05_cache` |
| §6 | `06_evidence` | 一个独立的检查程序，把不同种类的证据分开 | `ex06_evidence` |
| §7 | `07_decoder` | 把各个构件装配成小型解码器，用 NumPy 训练：有掩码时它学会预测，去掉掩码它就照抄读得到的答案，一旦看不到未来，就只能靠猜 | `ex07_decoder` |

练习笔记本在 `exercises/zh/`，每道题后面都有一行 `check(...)`，运行它就能立刻知道哪里对、哪里错；参考解答在 `solutions/zh/`。建议先读完一节，再做对应的练习。
""", en=r"""
## 0.6 Map of the chapter

| section | notebook | what it covers | exercises |
| --- | --- | --- | --- |
| §0 | `00_start` | this section: prerequisites, notation, how to run the notebooks, glossary | — |
| §1 | `01_allowed_set` | the data protocol and right padding; the allowed set comes before softmax; the bottom-right alignment when there are fewer queries than keys; which outputs are scored | `ex01_allowed_set` |
| §2 | `02_heads` | splitting and merging heads, the output projection W_O; what the number of heads changes and what it does not | `ex02_heads` |
| §3 | `03_positions` | learned absolute positions E[x] + P[o + t]; the backward pass into both tables (scatter-add); the permutation counter-example without positions | `ex03_positions` |
| §4 | `04_causality` | causality must hold across the whole computation; the future-perturbation test and its negative control | `ex04_causality` |
| §5 | `05_cache` | the KV cache and the position offset: a new token's position is the length of the cache, not 0 | `ex05_cache` |
| §6 | `06_evidence` | an independent checking program that keeps the different kinds of evidence apart | `ex06_evidence` |
| §7 | `07_decoder` | the components assembled into a small decoder trained in NumPy: with the mask it learns to predict; without the mask it copies the answer it can read, and does no better than chance once the future is hidden | `ex07_decoder` |

The exercise notebooks are in `exercises/en/`. Every exercise is followed by a one-line `check(...)` that tells you at once what is right and what is wrong. Worked solutions are in `solutions/en/`. Read a section first, then do its exercises.
""", ru=r"""
## 0.6 Карта главы

| раздел | блокнот | о чём | упражнения |
| --- | --- | --- | --- |
| §0 | `00_start` | этот раздел: что нужно знать заранее, обозначения, как запускать блокноты, словарь терминов | — |
| §1 | `01_allowed_set` | протокол данных и дополнение справа; множество разрешённых позиций задаётся до softmax; выравнивание по правому нижнему углу, когда запросов меньше, чем ключей; какие выходы учитываются в функции потерь | `ex01_allowed_set` |
| §2 | `02_heads` | разбиение и склейка голов, выходная проекция W_O; что меняет число голов, а что нет | `ex02_heads` |
| §3 | `03_positions` | обучаемые абсолютные позиции E[x] + P[o + t]; обратный проход в обе таблицы (накопление по индексам); контрпример с перестановкой без позиций | `ex03_positions` |
| §4 | `04_causality` | причинность должна соблюдаться во всей цепочке вычислений; проверка возмущением будущего и её отрицательный контроль | `ex04_causality` |
| §5 | `05_cache` | KV-кэш и смещение позиции: позиция нового токена — это длина кэша, а не 0 | `ex05_cache` |
| §6 | `06_evidence` | независимая проверочная программа, в которой разные виды свидетельств не смешиваются | `ex06_evidence` |
| §7 | `07_decoder` | составные части собраны в небольшой декодер, обученный на NumPy: с маской он учится предсказывать; без маски списывает ответ, который ему виден, а стоит скрыть от него будущее — угадывает не лучше случайного выбора | `ex07_decoder` |

Блокноты с упражнениями лежат в `exercises/ru/`. После каждого упражнения стоит однострочная проверка `check(...)`, которая сразу говорит, что верно, а что нет. Разобранные решения — в `solutions/ru/`. Сначала прочитайте раздел, затем решайте упражнения к нему.
""")
