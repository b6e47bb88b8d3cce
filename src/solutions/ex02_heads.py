# Exercise set 2 (§2, heads).  See src/solutions/ex01_allowed_set.py for the format.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 2：多头", en="# Exercise set 2: heads", ru="# Упражнения к разделу 2: головы",
   tags=("exercise",))

md(zh="# 练习 2 参考解答：多头", en="# Solutions to exercise set 2: heads", ru="# Решения упражнений к разделу 2: головы",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §2，做法与练习 1 相同：把函数中 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行它下面的 `check(...)` 单元格；反馈使用本笔记本的语言。评分时还会加上随机生成数据的隐藏测试用例。拆分头、合并头和多头注意力都要亲手写出，不要调用 `lib.attention` 中的同名函数；§1 的 `causal_attention` 可以直接使用。

计分方法与练习 1 相同：一道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数。
""",
    en="""
This notebook goes with §2 and works like exercise set 1: replace the line `raise NotImplementedError  # TODO` in a function with your code and run the `check(...)` cell below it. The feedback comes in this notebook's language, and grading adds hidden test cases with random data. Write splitting, merging and multi-head attention yourself rather than calling the functions of the same names in `lib.attention`; `causal_attention` from §1 is yours to use.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass.
""",
    ru="""
Этот блокнот относится к §2 и устроен так же, как упражнения к разделу 1: замените в функции строку `raise NotImplementedError  # TODO` своим кодом и запустите ячейку `check(...)` под ней. Сообщения проверки написаны на языке блокнота, а при оценивании добавляются скрытые тесты со случайными данными. Разбиение на головы, склейку и многоголовое внимание напишите сами, не вызывая одноимённые функции из `lib.attention`; `causal_attention` из §1 использовать можно.

Баллы начисляются так же, как в упражнениях к разделу 1: упражнение получает свои баллы, когда пройдены все его тесты, открытые и скрытые.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 2 的参考解答页，对应的练习页是 `exercises/zh/ex02_heads.ipynb`。先在那里自己动手，再来这里对照。

页面先复现那个只用 `reshape` 拆分头的错误，然后逐题给出满分答案、答案下方 `check(...)` 的输出（公开测试全部通过）和一段 **关于解答**。这些题练的是 §2：把宽度拆成多个头再合并回来（§2.2、§2.4），用拆分、§1 的因果注意力、合并和 `w_o` 组装因果多头注意力（§2.1、§2.5），以及头数在固定宽度下的代价和 KV 缓存的字节数（§2.6、§5.6）。

笔记本可以直接从头运行。要检验自己的代码，请在练习页运行 `check(...)`；评分时的隐藏测试，这里的答案也都能通过。
""",
    en="""
This page holds the solutions to exercise set 2; the exercises are on `exercises/en/ex02_heads.ipynb`. Work through them there first, then compare here.

The page first reproduces the bug of a split done by `reshape` alone, then gives, for every exercise, an answer that earns full points, the output of the `check(...)` cell below it (every public test passes) and an **About the solution** note. The set practises §2: splitting the width into heads and merging them back (§2.2, §2.4), causal multi-head attention assembled from the projections, the split, §1's causal attention, the merge and `w_o` (§2.1, §2.5), and what the number of heads costs at a fixed width, with the bytes of a KV cache (§2.6, §5.6).

The notebook runs from top to bottom as it is. To test your own code, run `check(...)` on the exercise page; these answers also pass the hidden tests the grader adds.
""",
    ru="""
На этой странице — решения упражнений к разделу 2; сами упражнения — в `exercises/ru/ex02_heads.ipynb`. Сначала решите их там, потом сверьтесь здесь.

Сначала страница воспроизводит ошибку разбиения на головы одним `reshape`, затем для каждого упражнения даёт ответ на полный балл, результат ячейки `check(...)` под ним (все открытые тесты пройдены) и заметку **О решении**. Упражнения отрабатывают §2: разбиение ширины на головы и обратную склейку (§2.2, §2.4), причинное многоголовое внимание, собранное из проекций, разбиения, причинного внимания из §1, склейки и `w_o` (§2.1, §2.5), а также цену числа голов при фиксированной ширине и объём KV-кэша в байтах (§2.6, §5.6).

Блокнот выполняется целиком, как есть. Чтобы проверить свой код, запустите `check(...)` в блокноте с упражнениями; скрытые тесты, которые добавляются при оценивании, эти ответы тоже проходят.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from lib.attention import causal_attention
"""), tags=("hide-input",))

md(
    zh="""
## 先找出错误：只用 `reshape` 的拆分

把 `(B, T, D)` 直接 `reshape` 成 `(B, H, T, d)`，形状是对的，数值却不对。为了看清每个数来自哪里，给每个元素贴上标签：位置 `t`、特征 `f` 处的值就是 `D·t + f`，于是 `值 // D` 就是它原来的时间位置。下面的单元格对只用 `reshape` 得到的每个头，打印出每一行的数据原本来自哪个位置。
""",
    en="""
## First find the bug: a split by `reshape` alone

Reshaping `(B, T, D)` straight into `(B, H, T, d)` gives the right shape and the wrong numbers. To see where each number comes from, label every entry: the value at position `t`, feature `f` is `D·t + f`, so `value // D` is the position it came from. The cell below prints, for every head of the reshape-only split, the position that each row's data came from.
""",
    ru="""
## Сначала найдём ошибку: разбиение одним `reshape`

Если сразу сделать `reshape` из `(B, T, D)` в `(B, H, T, d)`, форма выйдет правильной, а числа — нет. Чтобы увидеть, откуда взялось каждое число, пометим элементы: элемент в позиции `t` с признаком `f` равен `D·t + f`, так что `значение // D` — это исходная позиция. Ячейка ниже печатает для каждой головы разбиения одним `reshape`, из какой позиции на самом деле пришли данные каждой строки.
""",
)

code("""
B, T, D, H = 1, 3, 4, 2
d = D // H
x = np.arange(B * T * D).reshape(B, T, D)        #zh 值 = D * t + f #en value = D * t + f #ru значение = D * t + f
wrong = x.reshape(B, H, T, d)                     #zh 只用 reshape #en reshape alone #ru только reshape
print(x[0])
print(wrong[0] // D)  #zh 每个元素原来的位置，按头列出 #en the source position of every entry, head by head #ru исходная позиция каждого элемента, по головам
#zh 第 1 个头：第 0、1 行装的是位置 1 和 2
#en head 1: rows 0 and 1 hold positions 1 and 2
#ru голова 1: в строках 0 и 1 лежат позиции 1 и 2
assert (wrong[0, 1, :2] // D == [[1, 1], [2, 2]]).all()
""")

md(
    zh="""
第 1 个头的第 0 行装的是位置 1 的特征，第 1 行装的是位置 2 的特征。因果掩码只保证第 0 行读取“第 0 行”，可这一行里已经是未来的数据：形状合法、掩码正确，信息照样泄漏。错误在于 `reshape` 按内存顺序切块，时间轴和头轴被混在一起。正确做法是先把最后一维拆成 `(H, d)`，得到 `(B, T, H, d)`，再把头轴换到时间轴前面。

## heads-1：修好拆分（1 分）

`split_heads(x, n_heads)` 把 `(..., T, D)` 变成 `(..., H, T, d)`，使第 `h` 个头的第 `a` 个坐标对应原特征 `h·d + a`。检查 `D` 能否被 `H` 整除的代码和 `reshape` 那一行已经给出；补上交换轴的那一行。
""",
    en="""
Row 0 of head 1 holds features of position 1, and its row 1 features of position 2. The causal mask only makes row 0 read "row 0", but that row already carries future data: the shape is valid, the mask is right, and information leaks all the same. `reshape` cuts blocks in memory order, so it mixes the time axis with the head axis. The right way is to split the last axis into `(H, d)` first, which gives `(B, T, H, d)`, and then move the head axis in front of the time axis.

## heads-1: fix the split (1 point)

`split_heads(x, n_heads)` turns `(..., T, D)` into `(..., H, T, d)` so that coordinate `a` of head `h` is the original feature `h·d + a`. The check that `H` divides `D` and the `reshape` line are given; write the line that swaps the axes.
""",
    ru="""
Строка 0 головы 1 содержит признаки позиции 1, а строка 1 — признаки позиции 2. Причинная маска лишь заставляет строку 0 читать «строку 0», но в этой строке уже лежат данные из будущего: форма допустима, маска верна, а утечка всё равно есть. Ошибка в том, что `reshape` нарезает память по порядку и смешивает ось времени с осью голов. Правильно сначала разбить последнюю ось на `(H, d)`, получив `(B, T, H, d)`, а затем переставить ось голов перед осью времени.

## heads-1: исправьте разбиение (1 балл)

`split_heads(x, n_heads)` превращает `(..., T, D)` в `(..., H, T, d)` так, что координата `a` головы `h` — это исходный признак `h·d + a`. Проверка делимости `D` на `H` и сам `reshape` уже написаны; допишите строку, которая переставляет оси.
""",
)

code("""
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # BEGIN SOLUTION
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)
    # END SOLUTION
""")

code("""
check("heads-1", split_heads)
""")

code("""
right = split_heads(x, H)
print(right[0] // D)  #zh 现在每一行都来自它自己的位置 #en every row now comes from its own position #ru теперь каждая строка взята из своей позиции
assert (right[0] // D
        == np.arange(T)[None, :, None]).all(), needs_exercise("heads-1")
""")

md(
    zh="""
**解答说明。** `np.swapaxes(heads, -3, -2)` 交换的是时间轴 `T` 和头轴 `H`，写成负轴号后，有没有批量轴都能用。结果是一个视图，不复制数据。标签检验比任何随机数检验都直接：每个头的每一行都只含本位置的数据。注意 `T = 1` 或 `H = 1` 时只用 `reshape` 恰好也对，所以测试必须同时用 `T > 1` 和 `H > 1`。
""",
    en="""
**About the solution.** `np.swapaxes(heads, -3, -2)` swaps the time axis `T` with the head axis `H`; with negative axis numbers it works with or without a batch axis. The result is a view, nothing is copied. The label test is more direct than any random test: every row of every head holds data of its own position only. Note that with `T = 1` or `H = 1`, `reshape` alone happens to be right, so a test must use `T > 1` and `H > 1` together.
""",
    ru="""
**О решении.** `np.swapaxes(heads, -3, -2)` меняет местами ось времени `T` и ось голов `H`; с отрицательными номерами осей это работает и с осью батча, и без неё. Результат — представление (view), данные не копируются. Проверка на таких элементах-адресах нагляднее любой проверки на случайных данных: каждая строка каждой головы содержит данные только своей позиции. Заметьте, что при `T = 1` или `H = 1` один `reshape` случайно оказывается верным, поэтому тест должен брать одновременно `T > 1` и `H > 1`.
""",
    tags=("solution",),
)

md(
    zh="""
## heads-2：合并头（2 分）

写出 `merge_heads(x)`：把 `(..., H, T, d)` 变回 `(..., T, H·d)`，它必须是 `split_heads` 的精确逆运算，各头按原顺序拼接。输入少于三维时抛出 `ValueError`。
""",
    en="""
## heads-2: merge the heads (2 points)

Write `merge_heads(x)`: it turns `(..., H, T, d)` back into `(..., T, H·d)`, the exact inverse of `split_heads`, with the heads concatenated in their original order. An input with fewer than three axes raises `ValueError`.
""",
    ru="""
## heads-2: склейте головы (2 балла)

Напишите `merge_heads(x)`: эта функция превращает `(..., H, T, d)` обратно в `(..., T, H·d)` и должна быть операцией, точно обратной к `split_heads`, то есть склеивать головы в исходном порядке. Для входа, у которого меньше трёх осей, она выбрасывает `ValueError`.
""",
)

code("""
def merge_heads(x):
    x = np.asarray(x)
    # BEGIN SOLUTION
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
    # END SOLUTION
""")

code("""
check("heads-2", merge_heads)
""")

code("""
print(np.array_equal(merge_heads(split_heads(x, H)), x))
""")

md(
    zh="""
**解答说明。** 合并是拆分的逆序：先把头轴换回时间轴之后，再把最后两维 `(H, d)` 压成一维。如果先 `reshape` 再换轴，就会犯与只用 `reshape` 的拆分同样的错误。往返检验 `merge_heads(split_heads(x)) == x` 用整数标签做，可以精确比较，不依赖容差。
""",
    en="""
**About the solution.** Merging undoes the split in reverse order: first move the head axis back behind the time axis, then flatten the last two axes `(H, d)` into one. Reshaping before swapping would repeat the mistake of the reshape-only split. The round trip `merge_heads(split_heads(x)) == x` on integer labels compares exactly, with no tolerance.
""",
    ru=r"""
**О решении.** Склейка отменяет разбиение в обратном порядке: сначала ось голов возвращается за ось времени, затем последние две оси `(H, d)` сливаются в одну. Если сделать `reshape` до перестановки осей, получится та же ошибка, что и при разбиении одним `reshape`. Проверка «туда и обратно» `merge_heads(split_heads(x)) == x` на массиве целочисленных адресов сравнивает точно, без допуска.
""",
    tags=("solution",),
)

md(
    zh=r"""
## heads-3：因果多头注意力（3 分）

写出 `multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)`，约定与本章一致：行向量、无偏置，`x` 形状为 `(B, T, D)`，四个矩阵都是 `(D, D)`。步骤：

1. 全宽投影 `x @ w_q`、`x @ w_k`、`x @ w_v`，再用你的 `split_heads` 拆成 `(B, H, T, d)`；
2. 每个头做因果注意力（可以直接用 `causal_attention(q, k, v)`，它按每个头的宽度 `d` 把分数除以 $\sqrt d$）；
3. 用你的 `merge_heads` 合并成 `(B, T, D)`，最后乘 `w_o`。

`D` 不能被 `H` 整除时应抛出 `ValueError`（你的 `split_heads` 已经会这样做）。
""",
    en=r"""
## heads-3: causal multi-head attention (3 points)

Write `multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)` in the course's conventions: row vectors, no biases, `x` of shape `(B, T, D)` and all four matrices `(D, D)`. Steps:

1. project at full width, `x @ w_q`, `x @ w_k`, `x @ w_v`, and split each into `(B, H, T, d)` with your `split_heads`;
2. run causal attention in every head (`causal_attention(q, k, v)` will do; it divides the scores by $\sqrt d$, where `d` is the head width);
3. merge back to `(B, T, D)` with your `merge_heads` and multiply by `w_o`.

When `H` does not divide `D` the function raises `ValueError` (your `split_heads` already does).
""",
    ru=r"""
## heads-3: причинное многоголовое внимание (3 балла)

Напишите `multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)` в соглашениях курса: векторы-строки, без свободных членов, `x` формы `(B, T, D)`, все четыре матрицы `(D, D)`. Шаги:

1. проекции на полную ширину `x @ w_q`, `x @ w_k`, `x @ w_v`, затем разбиение каждой на `(B, H, T, d)` вашей функцией `split_heads`;
2. причинное внимание в каждой голове (подойдёт `causal_attention(q, k, v)`: она делит оценки на $\sqrt d$, где `d` — ширина головы);
3. склейка обратно в `(B, T, D)` вашей функцией `merge_heads` и умножение на `w_o`.

Если `D` не делится на `H`, функция выбрасывает `ValueError` (ваша `split_heads` уже это делает).
""",
)

code("""
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # BEGIN SOLUTION
    q = split_heads(x @ w_q, n_heads)                 # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                 # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)                 # (B, H, T, d)
    heads = causal_attention(q, k, v)                 # (B, H, T, d)
    return merge_heads(heads) @ w_o                   # (B, T, D)
    # END SOLUTION
""")

code("""
check("heads-3", multi_head_attention)
""")

md(
    zh="""
用 §2.5 的例 1 核对：BOS 与“春”的向量分别是 `[1, 0, 0, 1]` 和 `[0, 1, 1, 0]`，三个投影都是单位矩阵，`H = 2`。第 1 个输出应为 `[1, 1, a−b, b−a]`，其中 `a = 1/(1+exp(1/√2))`，`b = 1−a`。
""",
    en="""
Check against Example 1 of §2.5: BOS and 春 are `[1, 0, 0, 1]` and `[0, 1, 1, 0]`, all three projections are the identity, `H = 2`. Output 1 should be `[1, 1, a−b, b−a]` with `a = 1/(1+exp(1/√2))` and `b = 1−a`.
""",
    ru="""
Сверим с примером 1 из §2.5: BOS и 春 — это `[1, 0, 0, 1]` и `[0, 1, 1, 0]`, все три проекции единичные, `H = 2`. Выход 1 должен быть `[1, 1, a−b, b−a]`, где `a = 1/(1+exp(1/√2))`, `b = 1−a`.
""",
)

code("""
a = 1 / (1 + np.exp(1 / np.sqrt(2)))
b = 1 - a
# (B=1, T=2, D=4)
tokens = np.array([[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]])
w_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
eye = np.eye(4)
out = multi_head_attention(tokens, eye, eye, eye, w_o, 2)
print(np.round(out[0], 6))
assert np.allclose(out[0],
                   [[1, 1, 1, -1],
                    [1, 1, a - b, b - a]]), needs_exercise("heads-3")
""")

md(
    zh="""
**解答说明。** 三个投影都是全宽的 `(D, D)` 矩阵，拆分发生在投影之后；每个头在自己的 `d` 维子空间里归一化。`w_o` 不可省略：它把各头拼接的结果混合起来，所以输出可以有负数，不再是概率向量。例子的第 1 行 `[1, 1, −0.339523, 0.339523]` 既检验了拆分与合并的顺序，也检验了 `w_o` 确实被用上。
""",
    en="""
**About the solution.** The three projections are full-width `(D, D)` matrices and the split comes after them; every head normalises in its own `d`-dimensional subspace. `w_o` cannot be skipped: it mixes the concatenated heads, which is why the output may be negative and is no longer a probability vector. Row 1 of the example, `[1, 1, −0.339523, 0.339523]`, checks at once the order of splitting and merging and that `w_o` is applied.
""",
    ru="""
**О решении.** Все три проекции — матрицы полной ширины `(D, D)`, а разбиение идёт после них; каждая голова нормализует веса внутри своего `d`-мерного подпространства. Без `w_o` обойтись нельзя: она смешивает склеенные головы, поэтому выход может быть отрицательным и уже не является вектором вероятностей. Строка 1 примера, `[1, 1, −0.339523, 0.339523]`, проверяет сразу и порядок разбиения и склейки, и то, что `w_o` действительно применяется.
""",
    tags=("solution",),
)

md(
    zh="""
## cost-1：参数与 KV 缓存的字节数（2 分）

写出 `attention_costs(batch, length, width, n_heads, n_layers, dtype)`，返回一个二元组 `(parameters, kv_cache_bytes)`，两个都是整数：

* `parameters`：`n_layers` 个注意力层的参数个数。每层有 $W_Q$、$W_K$、$W_V$、$W_O$ 四个 `(D, D)` 矩阵，没有偏置（与 `lib.attention.multi_head_attention` 相同，§2.6）。
* `kv_cache_bytes`：批量为 `batch` 条序列、每条已存 `length` 个位置时 KV 缓存的字节数。每一层、每个头、每个位置、每条序列都存一个键和一个值，各是 `d = D / H` 个数（§5.6）。
* `dtype` 是 `"float16"`、`"float32"` 或 `"float64"`，每个数占的字节数是 `np.dtype(dtype).itemsize`（2、4 或 8）。
* `width` 不能被 `n_heads` 整除时抛出 `ValueError`；层数至少为 1，否则同样抛出 `ValueError`。

先想一想：在 `D` 固定时，头数 `H` 会改变哪一个结果？
""",
    en="""
## cost-1: parameters and KV-cache bytes (2 points)

Write `attention_costs(batch, length, width, n_heads, n_layers, dtype)`, which returns a pair of ints `(parameters, kv_cache_bytes)`:

* `parameters`: the number of parameters of `n_layers` attention layers. Each layer has four `(D, D)` matrices, $W_Q$, $W_K$, $W_V$ and $W_O$, and no biases (as in `lib.attention.multi_head_attention`, §2.6).
* `kv_cache_bytes`: the size in bytes of the KV cache of a batch of `batch` sequences, each with `length` stored positions. Every layer, head, position and sequence stores one key and one value of `d = D / H` numbers each (§5.6).
* `dtype` is `"float16"`, `"float32"` or `"float64"`; one number takes `np.dtype(dtype).itemsize` bytes (2, 4 or 8).
* A `width` that `n_heads` does not divide raises `ValueError`, and so does a number of layers below 1.

Think first: at fixed `D`, which of the two results does the number of heads `H` change?
""",
    ru="""
## cost-1: параметры и байты KV-кэша (2 балла)

Напишите `attention_costs(batch, length, width, n_heads, n_layers, dtype)`, которая возвращает пару целых чисел `(parameters, kv_cache_bytes)`:

* `parameters` — число параметров `n_layers` слоёв внимания. В каждом слое четыре матрицы `(D, D)`: $W_Q$, $W_K$, $W_V$ и $W_O$, свободных членов нет (как в `lib.attention.multi_head_attention`, §2.6).
* `kv_cache_bytes` — размер KV-кэша в байтах для батча из `batch` последовательностей, в каждой из которых сохранено `length` позиций. Для каждого слоя, головы, позиции и последовательности хранятся один ключ и одно значение, по `d = D / H` чисел каждый (§5.6).
* `dtype` — это `"float16"`, `"float32"` или `"float64"`; одно число занимает `np.dtype(dtype).itemsize` байт (2, 4 или 8).
* Если `width` не делится на `n_heads`, выбрасывается `ValueError`; то же при числе слоёв меньше 1.

Сначала подумайте: какой из двух результатов меняется от числа голов `H` при фиксированном `D`?
""",
)

code(reference_cell("attention_costs"))

code("""
check("cost-1", attention_costs)
""")

md(
    zh="""
下面取 §5.6 的配置（12 层，D = 768，T = 1024，B = 1），让头数从 1 变到 12，并把 float32 换成 float16：每一行依次是 H、dtype、参数个数、缓存的 MiB 数。
""",
    en="""
Below, the configuration of §5.6 (12 layers, D = 768, T = 1024, B = 1) runs with 1 to 12 heads, in float32 and in float16; each row gives H, the dtype, the number of parameters and the cache size in MiB.
""",
    ru="""
Ниже конфигурация из §5.6 (12 слоёв, D = 768, T = 1024, B = 1) считается для числа голов от 1 до 12 во float32 и во float16; в каждой строке — H, dtype, число параметров и размер кэша в МиБ.
""",
)

code("""
for dtype in ("float32", "float16"):
    for n_heads in (1, 4, 12):
        parameters, kv_bytes = attention_costs(
            1, 1024, 768, n_heads, 12, dtype)
        print(n_heads, dtype, parameters, kv_bytes / 2**20)
assert attention_costs(1, 1024, 768, 12, 12, "float32") == (
    28_311_552, 75_497_472), needs_exercise("cost-1")
assert attention_costs(1, 1024, 768, 1, 12, "float16") == (
    28_311_552, 75_497_472 // 2), needs_exercise("cost-1")
""")

md(
    zh=r"""
**解答说明。** 两个结果都与头数无关：参数是每层 $4D^2$，缓存每个位置每层存 $2 \cdot H \cdot d = 2D$ 个数，`H` 只决定这些数怎样分组。真正起作用的是层数、宽度、已存位置数、批量和 dtype：参数个数随层数和 $D^2$ 增长，缓存随层数、批量、位置数和 D 线性增长，换成 float16 就减半。常见的错误是漏掉因子 2（只算了键，没算值），或者忘了乘层数；在 §5.6 的例子里，正确答案是 28,311,552 个参数和每条序列 72 MiB 的缓存（float32）。宽度不能被头数整除时，拆分头本身就不成立，所以要报错，而不是把 `D // H` 向下取整后继续计算。
""",
    en=r"""
**About the solution.** Neither result depends on the number of heads: the parameters are $4D^2$ per layer, and per position and layer the cache stores $2 \cdot H \cdot d = 2D$ numbers; `H` only decides how they are grouped. What matters is the number of layers, the width, the stored positions, the batch and the dtype: the parameters grow with the layers and with $D^2$, the cache grows linearly with the layers, the batch, the positions and D, and float16 halves it. The usual mistakes are dropping the factor 2 (keys counted, values forgotten) and forgetting to multiply by the number of layers; for the example of §5.6 the right answer is 28,311,552 parameters and a 72 MiB cache per sequence in float32. A width that the heads do not divide cannot be split at all, so it raises instead of rounding `D // H` down and carrying on.
""",
    ru=r"""
**О решении.** Ни один из результатов не зависит от числа голов: параметров $4D^2$ на слой, а кэш на каждую позицию и слой хранит $2 \cdot H \cdot d = 2D$ чисел; `H` лишь определяет, как они сгруппированы. Важны число слоёв, ширина, число сохранённых позиций, батч и dtype: параметры растут с числом слоёв и с $D^2$, кэш растёт линейно с числом слоёв, размером батча, числом позиций и D, а во float16 вдвое меньше. Типичные ошибки — потерять множитель 2 (посчитаны ключи, забыты значения) и забыть умножить на число слоёв; для примера из §5.6 правильный ответ — 28 311 552 параметра и кэш 72 МиБ на последовательность во float32. Если ширина не делится на число голов, разбить её на головы нельзя вовсе, поэтому функция выбрасывает ошибку, а не округляет `D // H` вниз и не считает дальше.
""",
    tags=("solution",),
)
