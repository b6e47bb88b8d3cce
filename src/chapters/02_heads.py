# §2 Multiple heads change subspaces, not time order.
# Trilingual source: see tools/nbsource.py and CONTRIBUTING.md.

md(zh=r"""
# 2 多头改变的是子空间，而不是时间顺序

在 §1 中，一个注意力头读取每个许可位置的全部 D 维特征。多头注意力把宽度分成 H 段，每段宽 d = D/H，每一段在**同一个**许可集合上各自做一次注意力。时间轴保持原样：第 h 个头在位置 t 上仍然只读位置 0～t。变化的只是拿哪些坐标去比较、拿哪些坐标去加权混合。

为什么要这样做？一次 softmax 给每个查询的权重总和是 1。一个头可以把几乎全部权重放在一个键上；可如果查询需要从两个不同的位置各取一样东西，一次 softmax 只能把权重一分为二，交回的是两个值的混合。H 个头给每个查询 H 次 softmax，它就能同时集中读取 H 个位置。§2.7 用一个小例子把这一点算出来。

本节内容：

* §2.1 先把多头注意力写成 H 个独立的头：各自投影、各自读取，拼接后乘 $W_O$；它与 `lib` 中的拆分写法结果相同；
* §2.2 从 $B \times T \times D$ 拆分到 $B \times H \times T \times d$，以及一种形状正确、内容却错误的 `reshape`；
* §2.3 每个头按自己的 $\sqrt d$ 缩放，并各自归一化；
* §2.4 合并头与输出投影 $W_O$，以及它为什么不是可有可无的装饰；
* §2.5 例 1：两头注意力，先手算，再用 `lib` 算；
* §2.6 固定 D 时头数 H 的代价：参数量、注意力表的内存、运算量；
* §2.7 两个头能做到、一个头做不到的事：一个头读前一个词元，另一个头读 `<bos>`；
* §2.8 头多了，并不等于每个头都有说得出名字的分工。

记号：B 为批量大小，T 为位置数，D 为模型宽度，H 为头数，d = D/H 为每个头的宽度（D 必须能被 H 整除）。采用行向量约定：线性映射写作 `x @ W`，其中 `W` 的形状是（输入宽度，输出宽度）。
""", en=r"""
# 2 Multiple heads change subspaces, not time order

In §1 a single attention head read all D features of every allowed position. Multi-head attention divides the width into H slices of width d = D/H, and each slice computes its own attention over the **same** allowed set. The time axis stays as it is: head h at position t still reads only positions 0 to t. What changes is which coordinates are compared and which coordinates are mixed.

Why do it? A softmax gives each query a total weight of 1. One head can put nearly all of it on one key; but if a query needs one thing from each of two positions, a single softmax can only split its weight between them and hand back a blend of the two values. H heads give each query H softmaxes, so it can read H positions sharply at once. §2.7 computes this on a small example.

In this section:

* §2.1 builds multi-head attention first as H independent heads, each with its own projections, whose outputs are concatenated and multiplied by $W_O$; the result equals that of the split form used in `lib`;
* §2.2 splits $B \times T \times D$ into $B \times H \times T \times d$ and shows a `reshape` that has the right shape and the wrong contents;
* §2.3 explains why every head scales by its own $\sqrt d$ and normalises on its own;
* §2.4 merges the heads and shows why the output projection $W_O$ is not decoration;
* §2.5 works through Example 1, a two-head computation, by hand and with `lib`;
* §2.6 counts what the number of heads H costs at fixed D: parameters, attention-table memory, operations;
* §2.7 shows what two heads can do and one cannot: one head reads the previous token, the other reads `<bos>`;
* §2.8 explains why more heads do not give each head a nameable role.

Notation: B is the batch size, T the number of positions, D the model width, H the number of heads and d = D/H the head width (D must be divisible by H). Vectors are rows: a linear map is written `x @ W`, with `W` of shape (input width, output width).
""", ru=r"""
# 2 Несколько голов меняют подпространства, а не порядок во времени

В §1 одна голова внимания читала все D признаков каждой разрешённой позиции. Многоголовое внимание делит ширину на H частей шириной d = D/H, и в каждой части вычисляется своё внимание по **тому же самому** множеству разрешённых позиций. Ось времени остаётся нетронутой: голова h в позиции t по-прежнему читает только позиции от 0 до t. Меняется лишь то, какие координаты сравниваются и какие смешиваются.

Зачем это нужно? Softmax выдаёт каждому запросу суммарный вес 1. Одна голова может отдать почти весь вес одному ключу; но если запросу нужно взять по одной вещи из двух разных позиций, единственный softmax может лишь поделить вес между ними и вернуть смесь двух значений. H голов дают каждому запросу H отдельных softmax, и он может чётко читать H позиций сразу. В §2.7 это посчитано на маленьком примере.

В этом разделе:

* §2.1 — сначала многоголовое внимание как H независимых голов: у каждой свои проекции, выходы склеиваются и умножаются на $W_O$; результат совпадает с тем, что даёт запись через разбиение, принятая в `lib`;
* §2.2 — разбиение $B \times T \times D$ → $B \times H \times T \times d$ и `reshape`, после которого форма правильная, а содержимое — нет;
* §2.3 — почему каждая голова делит оценки на свой $\sqrt d$ и нормализует их отдельно;
* §2.4 — склейка голов и выходная проекция $W_O$; почему эта проекция — не украшение;
* §2.5 — пример 1: двухголовое внимание вручную и через `lib`;
* §2.6 — во что обходится число голов H при фиксированном D: параметры, память под таблицы внимания, число операций;
* §2.7 — что могут две головы и не может одна: одна голова читает предыдущий токен, другая — `<bos>`;
* §2.8 — почему от увеличения числа голов у каждой из них не появляется роль, которую можно назвать.

Обозначения: B — размер батча, T — число позиций, D — ширина модели, H — число голов, d = D/H — ширина одной головы (D должен делиться на H). Векторы записываются строками: линейное отображение имеет вид `x @ W`, где `W` имеет форму (входная ширина, выходная ширина).
""")

code(r"""
import itertools

import matplotlib.pyplot as plt
import numpy as np

from figures import plots
from lib.attention import (causal_attention, causal_future, masked_softmax,
                           merge_heads, multi_head_attention, split_heads)
from lib.costs import head_costs


def r(x, digits=6):
    #zh 用于打印的舍入副本；加上 0.0 可把 -0.0 变成 0.0
    #en rounded copy for printing; adding 0.0 turns -0.0 into 0.0
    #ru округлённая копия для печати; прибавление нуля превращает −0 в 0
    return np.round(np.asarray(x, dtype=float), digits) + 0.0
""")

md(zh=r"""
## 2.1 H 个独立的头：各自读取，拼接后乘 $W_O$

构造多头注意力最直接的办法，是把单头注意力（§0.2 有它的示意图）原样用上 H 次，每次都带上 §1 的掩码。第 h 个头有自己的三个投影矩阵，形状都是 $D \times d$：它把输入投影成自己的查询、键和值（宽度都是 d），在它们上面做 §1 的因果注意力，得到 $T \times d$ 的输出。H 个头的输出按头的顺序拼接成 $T \times D$，最后再乘输出投影 $W_O$（$D \times D$）。

每个头的三个 $D \times d$ 矩阵不必分开存放。把 H 个头的矩阵并排放在一起，就得到三个 $D \times D$ 矩阵 $W_Q$、$W_K$、$W_V$，第 h 个头用的是其中的第 $h \cdot d$～$h \cdot d + d - 1$ 列。下面用一个小的随机例子（T = 5、D = 8、H = 2，于是 d = 4）逐头计算，只用到 §1 的 `causal_attention`；再把结果与 `lib.attention.multi_head_attention` 比较，后者用的是 §2.2 要讲的拆分写法。
""", en=r"""
## 2.1 H independent heads, concatenated, then multiplied by $W_O$

The most direct way to build multi-head attention is to use single-head attention (pictured in §0.2), with the mask of §1, H times. Head h has three projection matrices of its own, each of shape $D \times d$: it projects the input to its own queries, keys and values of width d, runs the causal attention of §1 on them and returns a $T \times d$ output. The outputs of the H heads are concatenated in head order into a $T \times D$ array, which is then multiplied by the output projection $W_O$ ($D \times D$).

The three $D \times d$ matrices of each head need not be stored separately. Placed side by side, the matrices of all H heads form three $D \times D$ matrices $W_Q$, $W_K$ and $W_V$, and head h uses columns $h \cdot d$ to $h \cdot d + d - 1$ of each. Below, a small random example (T = 5, D = 8, H = 2, so d = 4) is computed head by head with nothing but §1's `causal_attention`, and the result is compared with `lib.attention.multi_head_attention`, which uses the split taught in §2.2.
""", ru=r"""
## 2.1 H независимых голов: склейка и умножение на $W_O$

Самый прямой способ построить многоголовое внимание — применить одноголовое внимание (его схема — в §0.2) с маской из §1 H раз. У головы h три собственные матрицы проекций размера $D \times d$: она проецирует вход в свои запросы, ключи и значения ширины d, выполняет над ними причинное внимание из §1 и возвращает выход размера $T \times d$. Выходы H голов склеиваются по порядку голов в массив $T \times D$, который затем умножается на выходную проекцию $W_O$ ($D \times D$).

Хранить три матрицы $D \times d$ каждой головы по отдельности не нужно. Если поставить матрицы всех H голов рядом, получатся три матрицы $D \times D$ — $W_Q$, $W_K$ и $W_V$, и голова h берёт из каждой столбцы с $h \cdot d$ по $h \cdot d + d - 1$. Ниже небольшой случайный пример (T = 5, D = 8, H = 2, то есть d = 4) считается голова за головой с помощью одной лишь `causal_attention` из §1, а результат сравнивается с `lib.attention.multi_head_attention`, которая использует разбиение на головы из §2.2.
""")

code(r"""
rng = np.random.default_rng(2)
T5, D, H = 5, 8, 2
d = D // H
xs = rng.normal(size=(1, T5, D))                              # (1, T, D)
w_q, w_k, w_v, w_o = rng.normal(size=(4, D, D)) / np.sqrt(D)  # (D, D) ×4

outputs_by_head = []
for h_ in range(H):
    #zh 第 h 个头的列：h·d ～ h·d + d − 1
    #en columns of head h: h·d to h·d + d − 1
    #ru столбцы головы h: с h·d по h·d + d − 1
    cols = slice(h_ * d, (h_ + 1) * d)
    q_h = xs @ w_q[:, cols]                                  # (1, T, d)
    k_h = xs @ w_k[:, cols]                                  # (1, T, d)
    v_h = xs @ w_v[:, cols]                                  # (1, T, d)
    outputs_by_head.append(causal_attention(q_h, k_h, v_h))  # (1, T, d)
one_by_one = np.concatenate(outputs_by_head, axis=-1) @ w_o  # (1, T, D)
# (1, T, D)
with_split = multi_head_attention(xs, w_q, w_k, w_v, w_o, n_heads=H)
gap = np.abs(one_by_one - with_split).max()
print(one_by_one.shape, with_split.shape)
print("max|Δ| < 1e-14:", gap < 1e-14)
assert one_by_one.shape == with_split.shape == (1, T5, D)
assert gap < 1e-14
""")

md(zh=r"""
两种算法给出同一个输出：最大差异小于 $10^{-14}$，只是舍入误差的量级。

既然如此，为什么还要换一种写法？上面的循环做了 3H 次窄的矩阵乘法（每次只算 d 列），还调用了 H 次注意力。可是第 h 个头的投影，恰好就是全宽投影的一个列块：`(x @ W_Q)[..., h*d:(h+1)*d]` 等于 `x @ W_Q[:, h*d:(h+1)*d]`。所以 `x @ W_Q`、`x @ W_K`、`x @ W_V` 三次全宽乘法，就一次算出了所有头的查询、键和值；剩下的只是把 D 列重新分组成 H 个头，让“头”成为又一条批量轴，这样一次注意力调用就能处理所有的头。这种重新分组就是 §2.2 的拆分。

输出一侧也有类似的等式：拼接后乘 $W_O$，等于让每个头用 $W_O$ 中属于自己的 d 行去乘自己的输出，再把 H 个结果相加。由此已经可以看出，$W_O$ 是各个头汇合的地方（§2.4）。下面的单元格核对这两个等式。
""", en=r"""
Both computations give the same output: the largest difference is below $10^{-14}$, the size of rounding error.

Why, then, write it a second way? The loop performs 3H narrow matrix products, d columns at a time, and calls attention H times. But the projection of head h is just a block of columns of the full-width projection: `(x @ W_Q)[..., h*d:(h+1)*d]` equals `x @ W_Q[:, h*d:(h+1)*d]`. The three full-width products `x @ W_Q`, `x @ W_K` and `x @ W_V` therefore compute the queries, keys and values of every head at once. All that is left is to regroup the D columns into H heads and make the head one more batch axis, so that a single attention call handles every head. That regrouping is the split of §2.2.

The output side has a similar identity: concatenating and multiplying by $W_O$ is the same as letting each head multiply its output by its own block of d rows of $W_O$ and adding up the H results. This already shows that $W_O$ is where the heads meet (§2.4). The cell below checks both identities.
""", ru=r"""
Оба вычисления дают один и тот же выход: наибольшая разность меньше $10^{-14}$, то есть того же порядка, что и ошибка округления.

Зачем же тогда другой способ записи? Цикл выполняет 3H узких матричных умножений, по d столбцов за раз, и H раз вызывает внимание. Но проекция головы h — это просто блок столбцов проекции на полную ширину: `(x @ W_Q)[..., h*d:(h+1)*d]` равно `x @ W_Q[:, h*d:(h+1)*d]`. Поэтому три умножения на полную ширину — `x @ W_Q`, `x @ W_K` и `x @ W_V` — сразу дают запросы, ключи и значения всех голов. Остаётся перегруппировать D столбцов в H голов и сделать голову ещё одной осью батча, чтобы один вызов внимания обработал все головы. Эта перегруппировка и есть разбиение из §2.2.

На стороне выхода есть похожее тождество: склеить выходы голов и умножить на $W_O$ — всё равно что умножить выход каждой головы на её собственный блок из d строк $W_O$ и сложить H результатов. Уже отсюда видно, что $W_O$ — то место, где головы встречаются (§2.4). Ячейка ниже проверяет оба тождества.
""")

code(r"""
#zh 投影：第 h 个头的窄乘积，就是全宽乘积的第 h 个列块
#en projections: the narrow product of head h is column block h of the
#en full-width product
#ru проекции: узкое произведение головы h — это блок столбцов h произведения
#ru на полную ширину
blocks_match = all(
    np.allclose((xs @ w_)[..., h_ * d:(h_ + 1) * d],
                xs @ w_[:, h_ * d:(h_ + 1) * d], rtol=0, atol=1e-14)
    for w_ in (w_q, w_k, w_v) for h_ in range(H))
#zh 输出：拼接后乘 W_O，等于每个头乘 W_O 中自己的 d 行，再相加
#en output: concatenate, then W_O, equals each head times its own d rows of
#en W_O, summed over heads
#ru выход: склейка и W_O — то же, что выход каждой головы на её d строк W_O,
#ru сложенный по головам
# (1, T, D)
by_rows_of_w_o = sum(outputs_by_head[h_] @ w_o[h_ * d:(h_ + 1) * d]
                     for h_ in range(H))
rows_match = np.allclose(by_rows_of_w_o, one_by_one, rtol=0, atol=1e-14)
print(blocks_match, rows_match)
assert blocks_match and rows_match
""")

md(zh=r"""
## 2.2 拆分：第 h 个头的第 a 个坐标就是第 $h \cdot d + a$ 号特征

Q、K、V 的投影输出形状都是 $B \times T \times D$。拆分要一次完成 §2.1 中逐头截取列块的工作：先把最后一维切成 H 段连续的 d 维，再把“头”这一轴移到时间轴前面：

(B, T, D) → `reshape` → (B, T, H, d) → 交换轴 → (B, H, T, d)。

只需要记住一条规则：**第 h 个头在位置 t 的第 a 个坐标，就是同一位置 t 的第 $h \cdot d + a$ 号特征。** `lib.attention.split_heads` 正是这样拆分的，`merge_heads` 再把它原样拼回去。

![拆分与合并头：一个位置的 8 个特征中，特征 0～3 进入头 0，特征 4～7 进入头 1，头 h 的坐标 a 就是特征 h·d + a（d = 4）；两个头在同一个许可集合上各自做注意力；输出按头的顺序拼接回 8 个特征，再乘以 W_O，每个输出特征都混合了两个头。](figures/heads.svg)

为了逐项核对这条规则，我们构造一个“每个元素都写着自己地址”的输入：`x = np.arange(B*T*D).reshape(B, T, D)`。元素的值就是它在 (b, t, f) 中的扁平编号，看一眼数值就知道它从哪里来。下面取 B = 2、T = 3、D = 8、H = 2，于是 d = 4，一共 48 个元素。
""", en=r"""
## 2.2 Splitting: coordinate a of head h is feature $h \cdot d + a$

The Q, K and V projections all produce $B \times T \times D$ arrays. The split does in one step what the loop of §2.1 did head by head by slicing out blocks of columns: it cuts the last axis into H consecutive blocks of d features and then moves the head axis in front of the time axis:

(B, T, D) → `reshape` → (B, T, H, d) → swap axes → (B, H, T, d).

There is one rule to remember: **coordinate a of head h at position t is feature $h \cdot d + a$ at the same position t.** `lib.attention.split_heads` splits like this, and `merge_heads` puts everything back.

![Splitting and merging heads: of the 8 features of one position, features 0 to 3 go to head 0 and 4 to 7 to head 1, so coordinate a of head h is feature h·d + a (d = 4); both heads attend over the same allowed set, each with its own softmax; their outputs are concatenated back in head order into 8 features and multiplied by W_O, so every output feature mixes both heads.](figures/heads.svg)

To check the rule entry by entry we build an input in which every entry carries its own address: `x = np.arange(B*T*D).reshape(B, T, D)`. The value of an entry is its flat index in (b, t, f), so one glance at a value tells where it came from. We take B = 2, T = 3, D = 8 and H = 2, hence d = 4 and 48 entries in all.
""", ru=r"""
## 2.2 Разбиение: координата a головы h — это признак $h \cdot d + a$

Проекции Q, K и V выдают массивы $B \times T \times D$. Разбиение должно за один раз сделать то, что цикл из §2.1 делал голова за головой, вырезая блоки столбцов: последнюю ось режут на H идущих подряд блоков по d признаков, а затем ось голов переставляют перед осью времени:

(B, T, D) → `reshape` → (B, T, H, d) → перестановка осей → (B, H, T, d).

Запомнить нужно одно правило: **координата a головы h в позиции t — это признак $h \cdot d + a$ в той же позиции t.** Именно так разбивает `lib.attention.split_heads`, а `merge_heads` собирает всё обратно.

![Разбиение и склейка голов: из 8 признаков одной позиции признаки 0–3 идут в голову 0, а 4–7 — в голову 1, то есть координата a головы h — это признак h·d + a (d = 4); обе головы работают по одному множеству разрешённых позиций, каждая со своим softmax; их выходы склеиваются обратно в 8 признаков по порядку голов и умножаются на W_O, так что каждый признак выхода смешивает обе головы.](figures/heads.svg)

Чтобы проверить правило поэлементно, построим вход, в котором каждый элемент хранит собственный адрес: `x = np.arange(B*T*D).reshape(B, T, D)`. Значение элемента — его сквозной номер в (b, t, f), так что по значению сразу видно, откуда он взялся. Возьмём B = 2, T = 3, D = 8, H = 2; тогда d = 4, а всего элементов 48.
""")

code(r"""
B, T, D, H = 2, 3, 8, 2
d = D // H
#zh x[b, t, f] = (b, t, f) 的扁平编号
#en x[b, t, f] = flat index of (b, t, f)
#ru x[b, t, f] = сквозной номер элемента (b, t, f)
x = np.arange(B * T * D).reshape(B, T, D)


def origin(value):
    #zh 存有这个值的 x 元素的 (b, t, f)
    #en (b, t, f) of the entry of x that holds this value
    #ru (b, t, f) того элемента x, в котором хранится это значение
    return tuple(int(i) for i in np.unravel_index(value, x.shape))


def mismatches(split):
    #zh 所有不等于 x 在 (b, t) 处第 h*d + a 号特征的 (b, h, t, a)
    #en every (b, h, t, a) whose entry is not feature h*d + a of x at (b, t)
    #ru все (b, h, t, a), где стоит не признак h*d + a элемента x в (b, t)
    return [(b, h, t, a)
            for b, h, t, a in itertools.product(
                range(B), range(H), range(T), range(d))
            if split[b, h, t, a] != x[b, t, h * d + a]]


heads = split_heads(x, H)                       # (B, H, T, d)
print(x.shape, "->", heads.shape)
print(len(mismatches(heads)), "/", heads.size)
#zh 第 0 条序列、第 1 个头：t = 0、1、2 时的第 4～7 号特征
#en sequence 0, head 1: features 4 to 7 at t = 0, 1, 2
#ru последовательность 0, голова 1: признаки 4–7 при t = 0, 1, 2
print(heads[0, 1])
assert (heads.shape == (B, H, T, d) and heads.size == 48
        and mismatches(heads) == [])
assert ([origin(v)[1:] for v in heads[0, 1, :, 0]]
        == [(0, 4), (1, 4), (2, 4)])
""")

md(
    zh=r"""
48 个元素全部对上。第 0 条序列的第 1 个头里，三行分别是 t = 0、1、2 时刻的第 4～7 号特征：每一行仍然对应一个时刻，只是换成了另一组坐标。

### 形状合法、内容错误的 `reshape`

一个诱人的捷径是直接写 `x.reshape(B, H, T, d)`：形状恰好是想要的，也从不报错。可是 `reshape` 只会按内存顺序重新读取数据，而内存里 T 行、每行 D 个特征是一行接一行排列的。把这串数切成 $H\cdot T$ 段、每段长 d，就会把**不同时刻**的片段放进同一个头。同一个逐项检查就能抓住它：
""",
    en=r"""
All 48 entries agree. In head 1 of sequence 0 the three rows are features 4 to 7 at t = 0, 1, 2: each row still belongs to one time step; it just holds a different group of coordinates.

### A `reshape` with the right shape and the wrong contents

A tempting shortcut is `x.reshape(B, H, T, d)`: the shape is the one we want, and it never raises an error. But `reshape` only re-reads memory in order, and in memory the T rows of D features lie one after another. Cutting that stream into $H\cdot T$ pieces of length d puts pieces from **different time steps** into one head. The same entry-by-entry check catches it:
""",
    ru=r"""
Все 48 элементов совпали. В голове 1 последовательности 0 три строки — это признаки 4–7 в моменты t = 0, 1, 2: каждая строка по-прежнему относится к одному моменту времени, просто содержит другую группу координат.

### Один `reshape`: форма верна, содержимое — нет

Соблазнительно написать просто `x.reshape(B, H, T, d)`: форма получается ровно та, что нужна, и никакой ошибки не возникает. Но `reshape` лишь перечитывает память по порядку, а в памяти T строк по D признаков лежат одна за другой. Если нарезать этот поток на $H\cdot T$ кусков длины d, в одну голову попадут куски из **разных моментов времени**. Та же поэлементная проверка это обнаруживает:
""",
)

code(r"""
wrong = x.reshape(B, H, T, d)  #zh 形状相同，但没有交换轴 #en same shape, no axis swap #ru та же форма, без перестановки осей
bad = mismatches(wrong)
print(wrong.shape == heads.shape)
print(len(bad), "/", wrong.size)
b, h, t, a = bad[0]
#zh 槽位、它装的内容、它应装的内容
#en slot, what it holds, what it should hold
#ru место, что в нём лежит, что там должно быть
print((b, h, t, a), origin(wrong[b, h, t, a]), (b, t, h * d + a))
#zh 两种往返都能还原
#en both round trips pass
#ru оба пути «туда и обратно» проходят
print(np.array_equal(wrong.reshape(B, T, D), x),
      np.array_equal(merge_heads(heads), x))
assert wrong.shape == heads.shape and len(bad) == 32
assert ((b, h, t, a) == (0, 0, 1, 0)
        and origin(wrong[0, 0, 1, 0]) == (0, 0, 4))
assert np.array_equal(wrong.reshape(B, T, D), x)
""")

md(
    zh=r"""
形状检查通过了，48 个元素里却有 32 个放错了位置。第一个错处：第 0 个头在 t = 1 这一行的第 0 个坐标，本该是时刻 1 的第 0 号特征，实际装的却是**时刻 0** 的第 4 号特征。

还要注意，有一种检查**抓不住**这个错误：用 `wrong.reshape(B, T, D)` 变回去，得到的 `x` 分毫不差，所以“往返一次能还原”的测试同样会通过。只有把每个下标和规则 $h \cdot d + a$ 逐项对照的检查，才能发现问题。

接下来看看时间被打乱成了什么样子。下面两个数组列出每个头的每一行实际来自哪个时刻，先是正确的拆分，再是只用 `reshape` 的拆分：
""",
    en=r"""
The shape test passes, yet 32 of the 48 entries are in the wrong place. The first one: coordinate 0 of head 0 in the row for t = 1 should be feature 0 of time 1, but it holds feature 4 of **time 0**.

Notice also what does **not** catch the bug: reshaping back with `wrong.reshape(B, T, D)` gives `x` exactly, so a round-trip test passes as well. Only a check that compares individual indices with the rule $h \cdot d + a$ finds the problem.

Now let us see what happened to time. The two arrays below give, for every row of every head, the time step its contents came from, first for the correct split and then for the reshape-only one:
""",
    ru=r"""
Проверка формы проходит, а 32 элемента из 48 стоят не на своих местах. Первый из них: координата 0 головы 0 в строке t = 1 должна быть признаком 0 момента 1, а содержит признак 4 **момента 0**.

Обратите внимание и на то, что эту ошибку **не** обнаруживает: обратное преобразование `wrong.reshape(B, T, D)` возвращает ровно `x`, так что тест «туда и обратно» тоже проходит. Найти ошибку может только проверка, которая сверяет отдельные индексы с правилом $h \cdot d + a$.

Посмотрим теперь, что стало со временем. Два массива ниже показывают для каждой строки каждой головы, из какого момента времени взято её содержимое: сначала при правильном разбиении, затем при разбиении одним `reshape`:
""",
)

code(r"""
#zh (H, T)：第 0 条序列每一行背后的时刻
#en (H, T): the time behind each row, sequence 0
#ru (H, T): момент времени за каждой строкой, последовательность 0
time_right = np.unravel_index(heads[0], x.shape)[1][:, :, 0]
time_wrong = np.unravel_index(wrong[0], x.shape)[1][:, :, 0]  # (H, T)
print(time_right)
print(time_wrong)
assert np.array_equal(time_right, [[0, 1, 2], [0, 1, 2]])
assert np.array_equal(time_wrong, [[0, 0, 1], [1, 2, 2]])

rng = np.random.default_rng(0)
xf = rng.normal(size=(B, T, D))
#zh 单位 Q/K/V，正确拆分
#en identity Q/K/V, correct split
#ru единичные Q/K/V, правильное разбиение
right_out = merge_heads(causal_attention(*[split_heads(xf, H)] * 3))
w = xf.reshape(B, H, T, d)
#zh 同上，但只用 reshape 拆分
#en the same with the reshape-only split
#ru то же при разбиении одним reshape
wrong_out = causal_attention(w, w, w).reshape(B, T, D)
print(r(np.abs(right_out - wrong_out).max(), 3))
assert np.abs(right_out - wrong_out).max() > 0.1
""")

md(
    zh=r"""
正确拆分时，每个头的第 t 行都来自时刻 t。只用 `reshape` 而不交换轴时，第 0 个头中被当作 t = 1 的那一行来自时刻 0，第 1 个头中被当作 t = 0 的那一行来自时刻 1。因果掩码仍然按行号工作，可行号已经不再代表时间。把这种拆分送进注意力，程序照样运行、照样输出，只是结果和正确拆分不同（上面最后一个数）。不会有任何报错提醒你。

下图画出第 0 条序列的两种布局：每个格子是一个槽位 (h, t, a)，颜色表示里面的值来自哪个时刻，文字写着时刻 t 和特征编号 f。左图每个头的每一行只有一种颜色，且与行号 t 一致；右图同一个头里的颜色是混杂的。
""",
    en=r"""
With the correct split, row t of every head comes from time t. With the reshape-only split, the row that head 0 treats as t = 1 comes from time 0, and the row that head 1 treats as t = 0 comes from time 1. The causal mask still works on row numbers, but row numbers no longer mean time. Fed into attention, such a split runs and produces output; the output just differs from the correct one (the last number above). No error message warns you.

The figure below shows both layouts for sequence 0. Each cell is a slot (h, t, a); its colour is the time step its value came from, and its label gives that time t and the feature number f. On the left every row of every head has a single colour, matching its row number t; on the right the colours are mixed up inside a head.
""",
    ru=r"""
При правильном разбиении строка t каждой головы берётся из момента t. При разбиении одним `reshape` строка, которую голова 0 считает моментом t = 1, взята из момента 0, а строка, которую голова 1 считает моментом t = 0, — из момента 1. Причинная маска по-прежнему работает с номерами строк, но номера строк больше не означают время. Если подать такое разбиение во внимание, программа спокойно отработает и выдаст результат — только не тот, что при правильном разбиении (последнее число выше). Никакого сообщения об ошибке не появится.

На рисунке показаны обе раскладки для последовательности 0. Каждая клетка — место (h, t, a) в массиве голов; её цвет показывает, из какого момента времени взято значение, а подпись — этот момент t и номер признака f. Слева каждая строка каждой головы одного цвета, и он совпадает с номером строки t; справа цвета внутри одной головы перемешаны.
""",
)

code(r"""
plots.head_layout_picture({"split_heads(x, H)": heads[0],
                           "x.reshape(B, H, T, d)": wrong[0]}, width=D)
plt.show()
""", alt=dict(
    zh="第 0 条序列的两种布局，每格是槽位 (h, t, a)，颜色表示值来自哪个时刻。左图 split_heads：每个头的每一行只有一种颜色，与 t 一致；右图只用 reshape：同一个头里颜色混杂。",
    en="Two layouts of sequence 0, each cell a slot (h, t, a) coloured by the time its value came from. Left, split_heads: every row of a head has one colour, equal to t. Right, reshape only: colours mixed within a head.",
    ru="Две раскладки последовательности 0: клетки (h, t, a), цвет — момент, из которого взято значение. Слева split_heads: каждая строка головы одного цвета, равного t. Справа один reshape: цвета внутри головы смешаны.",
))

md(
    zh=r"""
## 2.3 每个头按 $\sqrt d$ 缩放，并各自归一化

在第 h 个头里，查询 i 与键 j 的分数是两个 d 维向量的点积，再除以 $\sqrt d$——这里的 d 是**这个头**的宽度，而不是 D：

$$s^{(h)}_{ij} = \frac{q^{(h)}_i \cdot k^{(h)}_j}{\sqrt d}.$$

为什么是 $\sqrt d$？若各坐标相互独立、均值为 0、方差为 1，那么 d 个乘积之和的标准差是 $\sqrt d$，除以 $\sqrt d$ 正好把分数拉回到 1 的量级。如果改除以 $\sqrt D$，每个头的分数会再缩小 $\sqrt H$ 倍，softmax 就比设计的更“平”。下面用 d = 4、D = 8 做一个模拟：不缩放时标准差约为 2，除以 $\sqrt d$ 后约为 1，除以 $\sqrt D$ 后只剩约 0.7（理论值 $1/\sqrt 2 \approx 0.707$）。
""",
    en=r"""
## 2.3 Every head scales by $\sqrt d$ and normalises on its own

Inside head h the score of query i and key j is the dot product of two d-dimensional vectors divided by $\sqrt d$, where d is the width of **this head**, not D:

$$s^{(h)}_{ij} = \frac{q^{(h)}_i \cdot k^{(h)}_j}{\sqrt d}.$$

Why $\sqrt d$? If the coordinates are independent with mean 0 and variance 1, a sum of d products has standard deviation $\sqrt d$, and dividing by $\sqrt d$ brings the scores back to scale 1. Dividing by $\sqrt D$ instead would shrink every head's scores by a further factor of $\sqrt H$ and make its softmax flatter than intended. A simulation with d = 4 and D = 8 shows this: the standard deviation of the scores is about 2 without scaling, about 1 after division by $\sqrt d$, and only about 0.7 after division by $\sqrt D$ (in theory $1/\sqrt 2 \approx 0.707$).
""",
    ru=r"""
## 2.3 Каждая голова делит оценки на свой $\sqrt d$ и нормализует их сама

Внутри головы h оценка запроса i и ключа j — это скалярное произведение двух d-мерных векторов, делённое на $\sqrt d$, где d — ширина **этой головы**, а не D:

$$s^{(h)}_{ij} = \frac{q^{(h)}_i \cdot k^{(h)}_j}{\sqrt d}.$$

Почему $\sqrt d$? Если координаты независимы, со средним 0 и дисперсией 1, то стандартное отклонение суммы d произведений равно $\sqrt d$, и деление на $\sqrt d$ возвращает оценки к масштабу 1. Деление на $\sqrt D$ уменьшило бы оценки каждой головы ещё в $\sqrt H$ раз, и softmax получился бы более плоским, чем задумано. Моделирование при d = 4 и D = 8 это подтверждает: без масштабирования стандартное отклонение около 2, после деления на $\sqrt d$ — около 1, после деления на $\sqrt D$ — всего около 0,7 (теоретически $1/\sqrt 2 \approx 0{,}707$).
""",
)

code(r"""
rng = np.random.default_rng(1)
q_sample, k_sample = rng.normal(size=(2, 200_000, d))
#zh 200000 个宽度为 d = 4 的点积
#en 200000 dot products of width d = 4
#ru 200000 скалярных произведений ширины d = 4
dots = (q_sample * k_sample).sum(axis=-1)
spread = [dots.std(), (dots / np.sqrt(d)).std(), (dots / np.sqrt(D)).std()]
print(r(spread, 3))
assert (abs(spread[0] - 2) < 0.03 and abs(spread[1] - 1) < 0.015
        and abs(spread[2] - 1 / np.sqrt(2)) < 0.01)
""")

md(
    zh=r"""
缩放之后，softmax 也是**每个头单独**做的：对每个头、每个查询 i，都在同一个许可集合（键 0～i）上归一化，权重之和为 1，未来位置上的权重恰好为 0。

我们沿用 §2.1 的随机例子（T = 5、D = 8、H = 2）。先把投影后的 q、k、v 拆分成头，用 `masked_softmax` 算出每个头的权重，再核对两件事：每行之和为 1、未来位置上为 0；以及“权重乘值”与 `lib.attention.causal_attention` 的结果一致。
""",
    en=r"""
After scaling, the softmax also runs **per head**: for every head and every query i it normalises over the same allowed set (keys 0 to i), the weights sum to 1, and the weights on future positions are exactly 0.

We keep the random example of §2.1 (T = 5, D = 8, H = 2). We split the projected q, k and v into heads, compute each head's weights with `masked_softmax` and check two things: every row sums to 1 with zeros on the future, and weights times values equal what `lib.attention.causal_attention` returns.
""",
    ru=r"""
После масштабирования softmax тоже считается **в каждой голове отдельно**: для каждой головы и каждого запроса i нормализация идёт по одному и тому же множеству разрешённых позиций (ключи от 0 до i), веса в сумме дают 1, а на будущих позициях равны ровно 0.

Возьмём тот же случайный пример, что и в §2.1 (T = 5, D = 8, H = 2). Разобьём спроецированные q, k и v на головы, вычислим веса каждой головы через `masked_softmax` и проверим две вещи: каждая строка в сумме даёт 1 и содержит нули на будущих позициях, а произведение весов на значения совпадает с тем, что возвращает `lib.attention.causal_attention`.
""",
)

code(r"""
# (1, H, T, d) ×3
q, k, v = (split_heads(xs @ w_, H) for w_ in (w_q, w_k, w_v))
future = causal_future(T5, T5)                #zh (T, T)，真 = 禁止读取 #en (T, T), True = forbidden #ru (T, T), True — читать нельзя
#zh (1, H, T, T)，每个头一张表
#en (1, H, T, T), one table per head
#ru (1, H, T, T), по таблице на голову
scores = q @ k.swapaxes(-1, -2) / np.sqrt(d)
weights = masked_softmax(scores, ~future)     # (1, H, T, T)
print(weights.shape)
print(r(weights.sum(axis=-1)))     #zh 每个头、每个查询一个和 #en one sum per head and query #ru по сумме на каждую голову и запрос
print(weights[..., future].max())  #zh 未来键上的最大权重 #en the largest weight on a future key #ru наибольший вес на будущем ключе
head_gap = np.abs(weights[0, 0] - weights[0, 1]).max()
print(r(head_gap, 3))  #zh 两个头的权重分配不同 #en the two heads weigh keys differently #ru головы распределяют веса по-разному
assert (np.allclose(weights.sum(axis=-1), 1)
        and (weights[..., future] == 0).all())
assert np.allclose(weights @ v, causal_attention(q, k, v))
assert head_gap > 0.1
""")

md(
    zh=r"""
两个头看的是同样的位置、用的是同一个掩码，分配注意力的方式却不同，因为它们比较的是不同的坐标。下图是两个头的注意力权重（行 i 为查询，列 j 为键）：两张图右上角都是 0，每行之和都是 1。
""",
    en=r"""
The two heads look at the same positions under the same mask, yet they distribute their attention differently, because each compares different coordinates. The figure shows both heads' attention weights (row i = query, column j = key): in both the upper-right triangle is 0 and every row sums to 1.
""",
    ru=r"""
Обе головы смотрят на одни и те же позиции под одной и той же маской, но распределяют внимание по-разному, потому что сравнивают разные координаты. На рисунке веса внимания обеих голов (строка i — запрос, столбец j — ключ): в обеих правый верхний треугольник нулевой, а каждая строка в сумме даёт 1.
""",
)

code(r"""
maps = [weights[0, h_] for h_ in range(H)]
labels = [[[f"{value:.2f}" for value in row] for row in m] for m in maps]
plots.heatmaps(maps, [f"h = {h_}" for h_ in range(H)], labels=labels,
               row_sums=True, cell_size=0.8)
plt.show()
""", alt=dict(
    zh="两张 5×5 热图（h = 0 和 h = 1）：行 i 为查询，列 j 为键，格中写着权重。对角线以上全为 0，每行之和为 1，两个头的权重分布不同。",
    en="Two 5×5 heatmaps, h = 0 and h = 1: weight of query i (row) on key j (column), each cell labelled. Above the diagonal all 0, every row sums to 1, and the two heads weigh keys differently.",
    ru="Две тепловые карты 5×5 (h = 0 и h = 1): вес, который запрос i (строка) отдаёт ключу j (столбец), подписан в клетке. Выше диагонали нули, каждая строка в сумме даёт 1, головы распределяют веса по-разному.",
))

md(zh=r"""
## 2.4 合并头，以及 $W_O$ 为什么不是装饰

注意力之后，各个头给出 $B \times H \times T \times d$ 的结果。`merge_heads` 把头轴移回时间轴之后，按头的顺序拼接成 $B \times T \times D$，仍然满足“第 $h \cdot d + a$ 号特征 = 第 h 个头的第 a 个坐标”。接着是输出投影：一个不带偏置的 $D \times D$ 矩阵 $W_O$，计算 `merged @ W_O`。

如果没有 $W_O$，拼接只是把各个头并排摆放：输出的第 $h \cdot d$～$h \cdot d + d - 1$ 号特征完全由第 h 个头算出，在这一层里，没有任何一个输出坐标会把两个头的结果结合起来。$W_O$ 正是它们汇合的地方；写成公式，就是 §2.1 核对过的按行分块的等式：

$$\text{out}_j = \sum_h \sum_a \text{head}^{(h)}_a \, W_O[h\cdot d + a,\ j].$$

下面的实验只改动第 1 个头的值 v，观察输出如何变化：一次取 $W_O = I$（单位矩阵，相当于没有 $W_O$），一次取随机的 $W_O$。打印的两个数分别是输出前 d 个坐标（第 0 个头那一段）和后 d 个坐标的最大变化。
""", en=r"""
## 2.4 Merging the heads, and why $W_O$ is not decoration

After attention the heads return $B \times H \times T \times d$. `merge_heads` moves the head axis back behind the time axis and concatenates the heads in their order into $B \times T \times D$, again with feature $h \cdot d + a$ = coordinate a of head h. Then comes the output projection, a $D \times D$ matrix $W_O$ without bias: `merged @ W_O`.

Without $W_O$ the concatenation only places the heads side by side: output features $h \cdot d$ to $h \cdot d + d - 1$ would be computed by head h alone, and within this layer no output coordinate would ever combine what two heads found. $W_O$ is where they meet; written out, this is the identity over blocks of rows checked in §2.1:

$$\text{out}_j = \sum_h \sum_a \text{head}^{(h)}_a \, W_O[h\cdot d + a,\ j].$$

The experiment below changes only head 1's values v and watches the output: once with $W_O = I$ (the identity, i.e. no $W_O$) and once with a random $W_O$. The two printed numbers are the largest change in the first d output coordinates (head 0's block) and in the last d.
""", ru=r"""
## 2.4 Склейка голов и почему $W_O$ — не украшение

После внимания головы выдают массив $B \times H \times T \times d$. `merge_heads` возвращает ось голов за ось времени и склеивает головы по порядку в $B \times T \times D$, снова так, что признак $h \cdot d + a$ — это координата a головы h. Затем идёт выходная проекция — матрица $W_O$ размера $D \times D$ без свободного члена: `merged @ W_O`.

Без $W_O$ склейка лишь ставит головы рядом: выходные признаки с $h \cdot d$ по $h \cdot d + d - 1$ вычисляла бы одна голова h, и в пределах этого слоя ни одна выходная координата не соединила бы то, что нашли разные головы. Именно в $W_O$ они встречаются; в формулах это то самое тождество по блокам строк, которое мы проверили в §2.1:

$$\text{out}_j = \sum_h \sum_a \text{head}^{(h)}_a \, W_O[h\cdot d + a,\ j].$$

В эксперименте ниже меняются только значения v головы 1, а мы смотрим на выход: один раз при $W_O = I$ (единичная матрица, то есть $W_O$ нет), другой раз при случайной $W_O$. Два напечатанных числа — наибольшее изменение первых d выходных координат (блок головы 0) и последних d.
""")

code(r"""
per_head = causal_attention(q, k, v)  # (1, H, T, d)
merged = merge_heads(per_head)        # (1, T, D)
assert all(merged[0, t_, h_ * d + a_] == per_head[0, h_, t_, a_] for h_, t_,
           a_ in itertools.product(range(H), range(T5), range(d)))

v_changed = v.copy()
v_changed[:, 1] += 1.0  #zh 只有第 1 个头读到的值变了 #en only head 1 reads different values #ru другие значения читает только голова 1
merged_changed = merge_heads(causal_attention(q, k, v_changed))  # (1, T, D)
changes = {}
for name, w_out in (("I", np.eye(D)), ("W_O", w_o)):
    change = np.abs(merged_changed @ w_out - merged @ w_out)[0]  # (T, D)
    changes[name] = (change[:, :d].max(), change[:, d:].max())
    print(name, r(changes[name], 3))
assert changes["I"][0] == 0 and changes["I"][1] > 0.5
assert min(changes["W_O"]) > 0.1
assert np.allclose(
    multi_head_attention(xs, w_q, w_k, w_v, w_o, H), merged @ w_o)
""")

md(zh=r"""
$W_O = I$ 时，输出的前 d 个坐标完全不变：它们只属于第 0 个头。换成一般的 $W_O$，每个输出坐标都会对第 1 个头的变化作出反应。（在更深的模型里，下一层的投影矩阵也会混合坐标；但在一层注意力之内，$W_O$ 是各个头唯一汇合的地方。）最后一个断言还确认了：`lib.attention.multi_head_attention` 做的正是“投影 → 拆分 → 逐头注意力 → 合并 → 乘 $W_O$”。

## 2.5 例 1：两头注意力的完整手算

为了便于手算，暂时关闭位置项。D = 4，H = 2，d = 2，Q、K、V 三个投影都取 $4 \times 4$ 单位矩阵，于是每个位置的查询、键和值就是它的输入向量本身。输入是序列 `<bos> 春`，嵌入是手工设定的：

`E[<bos>] = [1, 0, 0, 1]`，`E[春] = [0, 1, 1, 0]`。

这些向量只为方便手算，不是训练得到的嵌入。第 0 个头读坐标 0～1，第 1 个头读坐标 2～3。

* 查询 0 只能读它自己，所以每个头都原样返回自己的值，拼接结果是 [1, 0, 0, 1]。
* 查询 1 读键 0 和键 1。第 0 个头中查询是 [0, 1]，两个键是 [1, 0] 和 [0, 1]，分数为 [0, $1/\sqrt 2$]。第 1 个头中查询是 [1, 0]，两个键是 [0, 1] 和 [1, 0]，分数同样是 [0, $1/\sqrt 2$]。记 $a = 1/(1 + e^{1/\sqrt 2})$、$b = 1 - a$，两个头的权重都是 [a, b]。
* 第 0 个头的值是 [1, 0] 和 [0, 1]，输出 [a, b]；第 1 个头的值是 [0, 1] 和 [1, 0]，输出 [b, a]。拼接得 [a, b, b, a]。

数值上 $a \approx 0.330238$，$b \approx 0.669762$。

输出投影把 $[c_0, c_1, c_2, c_3]$ 变成 $[c_0 + c_2, c_1 + c_3, c_0 - c_2, c_1 - c_3]$。按行向量约定 `c @ W_O`，它的矩阵是（第 i 行对应输入坐标 $c_i$，第 j 列对应输出坐标）：

$$W_O = \begin{pmatrix} 1&0&1&0\\ 0&1&0&1\\ 1&0&-1&0\\ 0&1&0&-1 \end{pmatrix}.$$

于是第 0 个输出是 [1, 1, 1, −1]，第 1 个输出是 [a + b, b + a, a − b, b − a] = [1, 1, a − b, b − a]，其中 $a - b \approx -0.339523$。先用一个容易辨认的向量核对 $W_O$ 的写法，再算 a 和 b：
""", en=r"""
With $W_O = I$ the first d output coordinates do not change at all: they belong to head 0 alone. With a generic $W_O$ every output coordinate reacts to the change in head 1. (In a deeper model the next layer's projections mix coordinates too; but inside one attention layer, $W_O$ is the only place where the heads meet.) The last assertion also confirms that `lib.attention.multi_head_attention` is "project → split → attention per head → merge → multiply by $W_O$".

## 2.5 Example 1: two heads, computed in full by hand

To keep the arithmetic small, positions are switched off for now. D = 4, H = 2, d = 2, and the three projections Q, K, V are the $4 \times 4$ identity, so the query, key and value of a position are just its input vector. The input is the sequence `<bos> 春` with embeddings chosen by hand:

`E[<bos>] = [1, 0, 0, 1]`,  `E[春] = [0, 1, 1, 0]`.

These vectors are chosen to make the arithmetic easy; they are not embeddings of a trained model. Head 0 reads coordinates 0–1, head 1 reads coordinates 2–3.

* Query 0 may read only itself, so each head returns its own value unchanged: the concatenation is [1, 0, 0, 1].
* Query 1 reads keys 0 and 1. In head 0 the query is [0, 1] and the keys are [1, 0] and [0, 1], so the scores are [0, $1/\sqrt 2$]. In head 1 the query is [1, 0] and the keys are [0, 1] and [1, 0], so the scores are again [0, $1/\sqrt 2$]. With $a = 1/(1 + e^{1/\sqrt 2})$ and $b = 1 - a$, both heads get the weights [a, b].
* Head 0's values are [1, 0] and [0, 1], so it returns [a, b]; head 1's values are [0, 1] and [1, 0], so it returns [b, a]. The concatenation is [a, b, b, a].

Numerically $a \approx 0.330238$ and $b \approx 0.669762$.

The output projection maps $[c_0, c_1, c_2, c_3]$ to $[c_0 + c_2, c_1 + c_3, c_0 - c_2, c_1 - c_3]$. In the row-vector convention `c @ W_O` its matrix is (row i = input coordinate $c_i$, column j = output coordinate):

$$W_O = \begin{pmatrix} 1&0&1&0\\ 0&1&0&1\\ 1&0&-1&0\\ 0&1&0&-1 \end{pmatrix}.$$

So output 0 is [1, 1, 1, −1] and output 1 is [a + b, b + a, a − b, b − a] = [1, 1, a − b, b − a], with $a - b \approx -0.339523$. First we check, on a vector that is easy to recognise, that $W_O$ is written down correctly, and then we compute a and b:
""", ru=r"""
При $W_O = I$ первые d выходных координат не меняются вовсе: они принадлежат только голове 0. При произвольной $W_O$ на изменение в голове 1 откликается каждая выходная координата. (В глубокой модели координаты смешивают и проекции следующего слоя; но внутри одного слоя внимания $W_O$ — единственное место, где головы встречаются.) Последняя проверка заодно подтверждает, что `lib.attention.multi_head_attention` — это ровно «проекции → разбиение → внимание в каждой голове → склейка → умножение на $W_O$».

## 2.5 Пример 1: две головы, полностью вручную

Чтобы арифметика оставалась простой, позиции пока отключены. D = 4, H = 2, d = 2, а все три проекции Q, K, V — единичные матрицы $4 \times 4$, так что запрос, ключ и значение позиции совпадают с её входным вектором. На входе последовательность `<bos> 春` с эмбеддингами, заданными вручную:

`E[<bos>] = [1, 0, 0, 1]`,  `E[春] = [0, 1, 1, 0]`.

Эти векторы подобраны ради удобного счёта; это не эмбеддинги обученной модели. Голова 0 читает координаты 0–1, голова 1 — координаты 2–3.

* Запрос 0 может читать только себя, поэтому каждая голова возвращает собственное значение без изменений: склейка равна [1, 0, 0, 1].
* Запрос 1 читает ключи 0 и 1. В голове 0 запрос равен [0, 1], ключи — [1, 0] и [0, 1], поэтому оценки равны [0, $1/\sqrt 2$]. В голове 1 запрос равен [1, 0], ключи — [0, 1] и [1, 0], и оценки снова [0, $1/\sqrt 2$]. Обозначим $a = 1/(1 + e^{1/\sqrt 2})$ и b = 1 − a; обе головы получают веса [a, b].
* Значения головы 0 — [1, 0] и [0, 1], она возвращает [a, b]; значения головы 1 — [0, 1] и [1, 0], она возвращает [b, a]. Склейка: [a, b, b, a].

Численно $a \approx 0{,}330238$, $b \approx 0{,}669762$.

Выходная проекция переводит $[c_0, c_1, c_2, c_3]$ в $[c_0 + c_2, c_1 + c_3, c_0 - c_2, c_1 - c_3]$. В соглашении о векторах-строках `c @ W_O` её матрица такова (строка i — входная координата $c_i$, столбец j — выходная координата):

$$W_O = \begin{pmatrix} 1&0&1&0\\ 0&1&0&1\\ 1&0&-1&0\\ 0&1&0&-1 \end{pmatrix}.$$

Значит, выход 0 равен [1, 1, 1, −1], а выход 1 — [a + b, b + a, a − b, b − a] = [1, 1, a − b, b − a], где $a - b \approx -0{,}339523$. Сначала проверим запись $W_O$ на легко узнаваемом векторе, затем вычислим a и b:
""")

code(r"""
W_O = np.array([[1., 0., 1., 0.],
                [0., 1., 0., 1.],
                [1., 0., -1., 0.],
                [0., 1., 0., -1.]])
c = np.array([10., 20., 30., 40.])
print(c @ W_O)  # [c0+c2, c1+c3, c0-c2, c1-c3]
a = 1 / (1 + np.exp(1 / np.sqrt(2)))
b = 1 - a
print(round(a, 6), round(b, 6), round(a - b, 6))
assert np.array_equal(c @ W_O, [40., 60., -20., -20.])
assert (round(a, 6) == 0.330238 and round(b, 6) == 0.669762
        and round(a - b, 6) == -0.339523)
""")

md(
    zh=r"""
现在照着上面的步骤，一个头一个头地手算（不调用 `lib`），再把同样的输入交给 `lib.attention.multi_head_attention`，两边的结果应当一致：
""",
    en=r"""
Now we compute by hand, head by head, following the steps above (without `lib`), and then pass the same input through `lib.attention.multi_head_attention`. Both must agree:
""",
    ru=r"""
Теперь посчитаем вручную, голова за головой, по шагам выше (без `lib`), а затем пропустим тот же вход через `lib.attention.multi_head_attention`. Результаты должны совпасть:
""",
)

code(r"""
x1 = np.array([[1., 0., 0., 1.],                 #zh 位置 0 上的 E[<bos>] #en E[<bos>] at position 0 #ru E[<bos>] в позиции 0
               [0., 1., 1., 0.]])                #zh 位置 1 上的 E[春] #en E[春] at position 1 #ru E[春] в позиции 1
d1 = 2
concat = np.zeros((2, 4))
for t_ in range(2):  #zh 查询位置 #en query position #ru позиция запроса
    for h_ in range(2):  #zh 第 h 个头读坐标 2h 和 2h+1 #en head h reads coordinates 2h, 2h+1 #ru голова h читает координаты 2h и 2h+1
        #zh 键 = 值 = 这个头的许可行 0～t
        #en keys = values = allowed rows 0 to t of this head
        #ru ключи = значения = разрешённые строки от 0 до t этой головы
        block = x1[: t_ + 1, 2 * h_: 2 * h_ + 2]
        s = block @ x1[t_, 2 * h_: 2 * h_ + 2] / np.sqrt(d1)
        p = np.exp(s) / np.exp(s).sum()
        concat[t_, 2 * h_: 2 * h_ + 2] = p @ block
out_hand = concat @ W_O
out_lib = multi_head_attention(
    x1[None], np.eye(4), np.eye(4), np.eye(4), W_O, n_heads=2)[0]
print(r(concat))
print(r(out_hand))
print(np.abs(out_hand - out_lib).max() < 1e-12)
assert np.allclose(concat, [[1, 0, 0, 1], [a, b, b, a]], rtol=0, atol=1e-12)
assert np.allclose(
    out_lib, [[1, 1, 1, -1], [1, 1, a - b, b - a]], rtol=0, atol=1e-12)
assert np.abs(out_hand - out_lib).max() < 1e-12
""")

md(zh=r"""
### 经过 $W_O$ 之后，输出不再是概率向量

每个头的输出是其值向量的加权平均，所以落在这些值向量的凸包之内：本例中，每个头输出的坐标都在 [0, 1] 之间，而且加起来等于 1。经过 $W_O$ 之后，这个性质就没有了：第 1 个输出出现了负数 $a - b \approx -0.339523$，四个坐标之和是 2。多头注意力层的输出是特征空间中的向量，不是概率向量。这个例子同时也检验了各个环节是否接对：如果拼接用错了轴，或者漏掉了 $W_O$，最后两个坐标就不会是 a − b 和 b − a。
""", en=r"""
### After $W_O$ the output is no longer a probability vector

Each head's output is a weighted average of its values, so it stays inside their convex hull: here every head's output has coordinates in [0, 1] that add up to 1. After $W_O$ this is gone: output 1 has the negative entry $a - b \approx -0.339523$, and its four coordinates add up to 2. The output of a multi-head layer is a vector in feature space, not a probability vector. The example also checks the plumbing: had the concatenation used the wrong axis, or had $W_O$ been left out, the last two coordinates would not be a − b and b − a.
""", ru=r"""
### После $W_O$ выход уже не вектор вероятностей

Выход каждой головы — взвешенное среднее её значений, поэтому он остаётся внутри их выпуклой оболочки: здесь координаты выхода каждой головы лежат в [0, 1] и в сумме дают 1. После $W_O$ этого уже нет: у выхода 1 есть отрицательная координата $a - b \approx -0{,}339523$, а сумма четырёх координат равна 2. Выход многоголового слоя — вектор в пространстве признаков, а не вектор вероятностей. Заодно пример проверяет, правильно ли всё соединено: если бы склейка шла не по той оси или $W_O$ пропустили, последние две координаты не были бы равны a − b и b − a.
""")

code(r"""
head_outputs = concat.reshape(2, 2, 2)  # (T, H, d)
print(r(head_outputs.sum(axis=-1)))  #zh 每个头的输出之和都是 1 #en every head's output sums to 1 #ru выход каждой головы в сумме даёт 1
#zh 经过 W_O 后：出现负数，行和为 2
#en after W_O: a negative entry, row sums 2
#ru после W_O: отрицательная координата, суммы строк 2
print(r(out_lib.min(axis=-1)), r(out_lib.sum(axis=-1)))
assert (((head_outputs >= 0) & (head_outputs <= 1)).all()
        and np.allclose(head_outputs.sum(axis=-1), 1))
assert (out_lib[1].min() < 0 and np.isclose(out_lib[1].min(), a - b)
        and np.allclose(out_lib.sum(axis=-1), 2))
""")

md(zh=r"""
### 权重相同，读的值坐标不同

这个例子还有一个细节。对查询 1，两个头算出的权重都是 [a, b]；两个头的权重相同，纯属本例的巧合：它们的 Q/K/V 分块恰好都取了单位矩阵。多头结构并不要求这样：训练好的模型里，每个头在 $W_Q$、$W_K$、$W_V$ 中都有自己的分块。而且即使权重完全相同，两个头也不重复：它们读的值坐标不同，分别返回 [a, b] 和 [b, a]。
""", en=r"""
### Same weights, different value coordinates

One more detail of this example. For query 1 both heads compute the weights [a, b], and their Q/K/V blocks are all identity matrices: in this example the two heads **happen** to share their weights. Multi-head attention does not require that; in a trained model every head has its own blocks of $W_Q$, $W_K$ and $W_V$. And even with identical weights the heads are not redundant: they read different value coordinates and return [a, b] and [b, a].
""", ru=r"""
### Одинаковые веса, разные координаты значений

Ещё одна деталь этого примера. Для запроса 1 обе головы получают веса [a, b], а их блоки Q/K/V — единичные матрицы: в этом примере у двух голов **случайно** одинаковые веса. Многоголовое внимание этого не требует; в обученной модели у каждой головы свои блоки в $W_Q$, $W_K$ и $W_V$. И даже при совершенно одинаковых весах головы не дублируют друг друга: они читают разные координаты значений и возвращают [a, b] и [b, a].
""")

code(r"""
for h_ in range(2):
    #zh 第 h 个头的键 = 值，行 t = 0、1
    #en keys = values of head h, rows t = 0, 1
    #ru ключи = значения головы h, строки t = 0, 1
    block = x1[:, 2 * h_: 2 * h_ + 2]
    weights_1 = masked_softmax(block @ block[1] / np.sqrt(d1),
                               np.array([True, True]))
    print(h_, r(weights_1), block.tolist(), r(weights_1 @ block))
weights_h0 = masked_softmax(x1[:, :2] @ x1[1, :2] / np.sqrt(d1),
                            np.array([True, True]))
weights_h1 = masked_softmax(x1[:, 2:] @ x1[1, 2:] / np.sqrt(d1),
                            np.array([True, True]))
assert np.allclose(weights_h0, [a, b]) and np.allclose(weights_h1, [a, b])
assert (np.allclose(weights_h0 @ x1[:, :2], [a, b])
        and np.allclose(weights_h1 @ x1[:, 2:], [b, a]))
""")

md(zh=r"""
## 2.6 固定宽度时，头数的代价

人们很容易这样想：“头越多，模型越大，跑得越慢。”在 D 固定时，每一项都得分开记账：

* **参数量。** 无论 H 是多少，$W_Q$、$W_K$、$W_V$、$W_O$ 都是 $D \times D$，一共 $4D^2$ 个参数。头数只决定这些列如何分组。
* **矩阵乘法。** 四个投影的计算量与 H 无关。每条序列上，算分数要 $H\cdot(T^2 d) = T^2 D$ 次乘加，加权求和也一样：总量不变。
* **注意力表。** 每个头都有自己的一张 $T \times T$ 权重表。如果把它们保存下来（反向传播需要它们，或者想查看它们），内存是 $B\cdot H\cdot T^2$ 个数，随 H 线性增长。softmax 要归一化的元素也是这么多。

`lib.costs.head_costs` 把这些换算成数字（按 `lib` 的实现计算完整的 $T \times T$ 表；一次乘加算 2 次浮点运算；softmax 的每个元素按 5 次运算计）。下表取 D = 512、T = 1024、B = 1，数值为 float32。
""", en=r"""
## 2.6 What the number of heads costs at fixed width

It is easy to think "more heads, bigger model, slower model". At fixed D these costs do not move together, so count each one separately:

* **Parameters.** Whatever H is, $W_Q$, $W_K$, $W_V$ and $W_O$ are $D \times D$ each: $4D^2$ parameters. The heads only decide how the columns are grouped.
* **Matrix products.** The four projections do not see H at all. Per sequence the scores take $H\cdot(T^2 d) = T^2 D$ multiply-adds and the weighted sum as many: the total does not change.
* **Attention tables.** Every head has its own $T \times T$ table of weights. If they are kept (the backward pass needs them, or you want to look at them), they take $B\cdot H\cdot T^2$ numbers, growing linearly with H. The softmax has as many entries to normalise.

`lib.costs.head_costs` turns this into numbers (full $T \times T$ tables, as `lib` computes them; a multiply-add counts as 2 FLOPs; a softmax entry as 5 operations). The table below is for D = 512, T = 1024, B = 1 and float32 numbers.
""", ru=r"""
## 2.6 Во что обходится число голов при фиксированной ширине

Легко решить: «больше голов — больше модель — медленнее работа». При фиксированном D эти затраты ведут себя по-разному, поэтому каждую статью нужно считать отдельно:

* **Параметры.** При любом H матрицы $W_Q$, $W_K$, $W_V$ и $W_O$ имеют размер $D \times D$: всего $4D^2$ параметров. Число голов лишь определяет, как сгруппированы столбцы.
* **Матричные умножения.** Четыре проекции вообще не зависят от H. На одну последовательность оценки требуют $H\cdot(T^2 d) = T^2 D$ умножений-сложений, взвешенная сумма — столько же: итог не меняется.
* **Таблицы внимания.** У каждой головы своя таблица весов $T \times T$. Если их хранить (они нужны для обратного прохода, или на них хочется посмотреть), они занимают $B\cdot H\cdot T^2$ чисел, и этот объём растёт линейно с H. Столько же элементов нормализует softmax.

`lib.costs.head_costs` переводит это в числа (полные таблицы $T \times T$, как их считает `lib`; умножение со сложением считается за 2 FLOP, элемент softmax — за 5 операций). Таблица ниже построена для D = 512, T = 1024, B = 1 и чисел float32.
""")

code(r"""
head_counts = np.array([1, 2, 4, 8, 16])
D_big, T_big = 512, 1024
#zh 批量 1，每个数 4 字节
#en batch 1, 4 bytes per number
#ru батч 1, 4 байта на число
cost = head_costs(head_counts, width=D_big, length=T_big)
print(
    f"{'H':>3} {'d':>4} {'4*D^2':>9} {'B*H*T^2':>10} {'MiB':>4} "
    f"{'GFLOP mm':>9} {'Mop sm':>7}"
)
for i, h_ in enumerate(head_counts):
    print(
        f"{h_:>3} {cost['head_width'][i]:>4} {cost['parameters'][i]:>9,} "
        f"{cost['attention_entries'][i]:>10,} "
        f"{cost['attention_bytes'][i] / 2**20:>4.0f} "
        f"{cost['matmul_flops'][i] / 1e9:>9.2f} "
        f"{cost['softmax_ops'][i] / 1e6:>7.1f}"
    )
assert (cost["parameters"] == 4 * D_big**2).all()
assert ((cost["matmul_flops"] == cost["matmul_flops"][0]).all()
        and round(cost["matmul_flops"][0] / 1e9, 2) == 4.29)
assert (cost["attention_bytes"][0] == 4 * 2**20
        and cost["attention_bytes"][-1] == 64 * 2**20)
assert (cost["attention_entries"] == head_counts * T_big**2).all()
assert cost["softmax_ops"][-1] == 16 * cost["softmax_ops"][0]

#zh 同样的规律在下面交互表格的每一种选择下都成立
#en the same rules hold for every choice offered by the interactive table
#en below
#ru те же закономерности верны для каждого выбора в интерактивной таблице ниже
h_options = [1, 2, 4, 8, 16, 32]
d_options = [128, 256, 512, 1024]
t_options = [128, 256, 512, 1024, 2048, 4096]
rules_hold = True
for D_, T_ in itertools.product(d_options, t_options):
    c_h = head_costs(np.array(h_options), width=D_, length=T_)
    c_2t = head_costs(np.array(h_options), width=D_, length=2 * T_)
    rules_hold &= bool((c_h["parameters"] == 4 * D_**2).all()
                       and (c_h["matmul_flops"]
                            == c_h["matmul_flops"][0]).all()
                       and (c_h["attention_entries"]
                            == np.array(h_options) * T_**2).all()
                       and (c_2t["attention_entries"]
                            == 4 * c_h["attention_entries"]).all())
print(rules_hold)
assert rules_hold
""")

md(
    zh=r"""
从 H = 1 到 H = 16，参数量始终是 1,048,576，矩阵乘法始终约 4.29 GFLOP；注意力表却从 4 MiB 涨到 64 MiB，softmax 的工作量涨了 16 倍。注意这些是**计数**，不是计时：实际运行时间还取决于硬件处理大量 d 维小矩阵乘法的效率，而这张表并不测量这一点。

下图画出同样的计数，每一项都除以它在 H = 1 时的值：
""",
    en=r"""
From H = 1 to H = 16 the parameters stay at 1,048,576 and the matrix products at about 4.29 GFLOP, while the attention tables grow from 4 MiB to 64 MiB and the softmax work grows 16-fold. These are **counts**, not timings: real running time also depends on how efficiently the hardware handles many small d-wide products, which this table does not measure.

The figure shows the same counts, each divided by its value at H = 1:
""",
    ru=r"""
От H = 1 до H = 16 число параметров остаётся равным 1 048 576, а матричные умножения — около 4,29 GFLOP, тогда как таблицы внимания растут с 4 до 64 МиБ, а работа softmax — в 16 раз. Это **подсчёты**, а не замеры времени: реальное время зависит ещё и от того, насколько хорошо оборудование справляется со множеством маленьких умножений ширины d, а этого таблица не измеряет.

На графике те же подсчёты, каждый поделён на своё значение при H = 1:
""",
)

code(r"""
plots.head_cost_chart(head_counts, cost,
                      keys=["parameters", "matmul_flops",
                            "attention_entries", "softmax_ops"],
                      labels=["4·D²", "FLOP (matmul)", "B·H·T²", "softmax"])
plt.show()
""", alt=dict(
    zh="对数坐标折线图，横轴 H = 1、2、4、8、16，纵轴为相对 H = 1 的倍数：4·D² 和矩阵乘法的 FLOP 保持为 1，B·H·T² 和 softmax 运算量升到 16。",
    en="Log-log lines over H = 1, 2, 4, 8, 16, each count divided by its value at H = 1: 4·D² and matmul FLOP stay at 1, while B·H·T² and the softmax work rise to 16.",
    ru="Логарифмический график по H = 1, 2, 4, 8, 16, каждая величина поделена на её значение при H = 1: 4·D² и FLOP умножений остаются равны 1, B·H·T² и работа softmax растут до 16.",
))

md(zh=r"""
### 其他 H、D、T 下的代价

下面的表格对 H、D、T 的其他取值给出同样的计数（B = 1，float32），初始取值为 H = 8、D = 512、T = 1024。无论取哪一种组合，上面的规律都不变（上面的计数单元格已经核对了所有组合）：D 固定时，H 从 1 变到 32，只有每个头的宽度 d、注意力表和 softmax 的工作量随之改变，参数量和矩阵乘法的 FLOP 保持不变；H 固定时，T 翻一倍，注意力表就变成原来的 4 倍，因为每个头的表有 $T^2$ 个元素。

用表格上方的按钮选取数值。在网页上，按钮直接就能用：每一种组合的表格都是运行这本笔记本时由 `lib.costs.head_costs` 算好的。在 Jupyter 中，先从头运行各个单元格。
""", en=r"""
### The same counts for other H, D and T

The table below gives the same counts for other values of H, D and T (B = 1, float32), starting from H = 8, D = 512 and T = 1024. Whatever the combination, the rules above hold (the counting cell above checks every combination). At fixed D, going from H = 1 to H = 32 changes only the head width d, the attention tables and the softmax work, while the parameters and the matrix-product FLOPs stay the same. At fixed H, doubling T makes the attention tables four times larger, because each head's table has $T^2$ entries.

Pick the values with the buttons above the table. On the website they work as they are: the table for every combination was computed by `lib.costs.head_costs` when this notebook ran. In Jupyter, run the cells from the top first.
""", ru=r"""
### Те же подсчёты для других H, D и T

Таблица ниже даёт те же подсчёты для других значений H, D и T (B = 1, float32); начальные значения — H = 8, D = 512, T = 1024. Какое сочетание ни взять, закономерности остаются прежними (ячейка с подсчётами выше проверила все сочетания). При фиксированном D переход от H = 1 к H = 32 меняет только ширину головы d, таблицы внимания и работу softmax, а параметры и FLOP матричных умножений не меняются. При фиксированном H удвоение T увеличивает таблицы внимания в 4 раза, потому что в таблице каждой головы $T^2$ элементов.

Значения выбираются кнопками над таблицей. На сайте кнопки работают сразу: таблица для каждого сочетания посчитана `lib.costs.head_costs` при выполнении этого блокнота. В Jupyter сначала выполните по порядку все ячейки выше.
""")

code(r"""
from figures.interactive import head_cost_table

head_cost_table(H=[1, 2, 4, 8, 16, 32], D=[128, 256, 512, 1024],
                T=[128, 256, 512, 1024, 2048, 4096], start=(8, 512, 1024))
""")

md(zh=r"""
## 2.7 两个头能做到、一个头做不到的事

一次 softmax 给每个查询的权重总和是 1。如果一个查询要从两个位置各取一样东西，一个头只能把权重对半分，交回两个值的平均；两个头则各有一次 softmax，可以各自把权重几乎全部放在自己的键上，再把读到的东西写进各自的坐标块。

下面手工搭一个小例子。四个位置上是 `<bos> 雨 春 风`，输入宽度 D = 8：坐标 0～3 是位置 t 的独热编码（§3 讲模型怎样得到这种位置信息），坐标 4～7 是词元的独热编码。我们希望每个位置读两样东西：前一个词元，以及开头的 `<bos>`。取 H = 2、d = 4，权重按下面的办法手工设定：

* 第 0 个头：位置 t 的查询是位置 t − 1 的编码乘以 c = 20，键是位置编码，值是词元编码。于是查询 t 只与键 t − 1 对得上；
* 第 1 个头：每个查询都是位置 0 的编码乘以 c，键和值同上，于是每个查询都只与键 0 对得上。

取 $W_O = I$，输出就是两个头的结果并排放在一起。作为对比，再用一个头（H = 1、d = 8）同时去找这两个位置：它的查询是两个编码之和乘以 c。
""", en=r"""
## 2.7 What two heads can do and one cannot

A softmax gives each query a total weight of 1. If a query needs one thing from each of two positions, one head can only split its weight in half and return the average of the two values. Two heads have a softmax each: each can put nearly all its weight on its own key and write what it read into its own block of coordinates.

Here is a small example built by hand. Four positions hold `<bos> 雨 春 风`, and the inputs have width D = 8: coordinates 0–3 are a one-hot code of the position t (§3 shows how a model gets such position information), coordinates 4–7 a one-hot code of the token. Every position should read two things: the previous token, and the `<bos>` at the start. With H = 2 and d = 4 the weights are chosen by hand:

* head 0: the query of position t is the code of position t − 1 times c = 20, its keys are the position codes, its values the token codes. Query t therefore matches key t − 1 alone;
* head 1: every query is the code of position 0 times c, with the same keys and values, so every query matches key 0 alone.

With $W_O = I$ the output shows the two heads side by side. For comparison, a single head (H = 1, d = 8) looks for both positions at once: its query is c times the sum of the two codes.
""", ru=r"""
## 2.7 Что могут две головы и не может одна

Softmax выдаёт каждому запросу суммарный вес 1. Если запросу нужно взять по одной вещи из двух позиций, одна голова может лишь поделить вес пополам и вернуть среднее двух значений. У каждой из двух голов свой softmax, и каждая может отдать почти весь вес своему ключу и записать прочитанное в свой блок координат.

Вот маленький пример, собранный вручную. В четырёх позициях стоят `<bos> 雨 春 风`, ширина входа D = 8: координаты 0–3 — унитарный (one-hot) код позиции t (как модель получает такие сведения о позиции, показано в §3), координаты 4–7 — унитарный код токена. Каждая позиция должна прочитать две вещи: предыдущий токен и `<bos>` в начале. При H = 2 и d = 4 веса заданы вручную так:

* голова 0: запрос позиции t — код позиции t − 1, умноженный на c = 20, ключи — коды позиций, значения — коды токенов. Поэтому запрос t совпадает только с ключом t − 1;
* голова 1: каждый запрос — код позиции 0, умноженный на c, ключи и значения те же, так что каждый запрос совпадает только с ключом 0.

При $W_O = I$ в выходе две головы просто стоят рядом. Для сравнения одна голова (H = 1, d = 8) ищет обе позиции сразу: её запрос — сумма двух кодов, умноженная на c.
""")

code(r"""
from lib.checks import attention_weights

T4, D8, c = 4, 8, 20.0
token_code = {"<bos>": 0, "春": 1, "雨": 2, "风": 3}
x4 = np.zeros((1, T4, D8))  # (1, T, D)
for t_, token in enumerate(["<bos>", "雨", "春", "风"]):
    x4[0, t_, t_] = 1  #zh 坐标 0～3：位置编码 #en coordinates 0–3: the position code #ru координаты 0–3: код позиции
    x4[0, t_, 4 + token_code[token]] = 1  #zh 坐标 4～7：词元编码 #en coordinates 4–7: the token code #ru координаты 4–7: код токена
#zh 每个位置要读的前一个位置（位置 0 只能读自己）
#en the previous position each position should read (0 can only read itself)
#ru предыдущая позиция для каждой позиции (позиция 0 может читать только себя)
previous = np.maximum(np.arange(T4) - 1, 0)

#zh 两个头：第 0 个头用第 0～3 列，第 1 个头用第 4～7 列
#en two heads: head 0 owns columns 0–3, head 1 columns 4–7
#ru две головы: голове 0 принадлежат столбцы 0–3, голове 1 — столбцы 4–7
w_q2, w_k2, w_v2 = np.zeros((3, D8, D8))
w_q2[np.arange(T4), previous] = c  #zh 第 0 个头：查询 t = c · 编码(t − 1) #en head 0: query t = c · code(t − 1) #ru голова 0: запрос t = c · код(t − 1)
w_q2[np.arange(T4), 4] = c         #zh 第 1 个头：查询 = c · 编码(0) #en head 1: query = c · code(0) #ru голова 1: запрос = c · код(0)
#zh 两个头的键：位置编码
#en keys of both heads: the position code
#ru ключи обеих голов: код позиции
w_k2[np.arange(T4), np.arange(T4)] = 1
w_k2[np.arange(T4), 4 + np.arange(T4)] = 1
#zh 两个头的值：词元编码
#en values of both heads: the token code
#ru значения обеих голов: код токена
w_v2[4 + np.arange(4), np.arange(4)] = 1
w_v2[4 + np.arange(4), 4 + np.arange(4)] = 1
# (T, D)
two_heads = multi_head_attention(
    x4, w_q2, w_k2, w_v2, np.eye(D8), n_heads=2)[0]
w2 = attention_weights(x4, w_q2, w_k2, n_heads=2)[0]  # (H, T, T)

#zh 一个头（d = 8）同时找两个位置
#en one head (d = 8) looking for both positions at once
#ru одна голова (d = 8) ищет обе позиции сразу
w_q1, w_k1, w_v1 = np.zeros((3, D8, D8))
#zh 查询 = c · (编码(t − 1) + 编码(0))
#en query = c · (code(t − 1) + code(0))
#ru запрос = c · (код(t − 1) + код(0))
np.add.at(w_q1, (np.arange(T4), previous), c)
w_q1[np.arange(T4), 0] += c
w_k1[np.arange(T4), np.arange(T4)] = 1
w_v1[4 + np.arange(4), np.arange(4)] = 1
# (T, D)
one_head = multi_head_attention(
    x4, w_q1, w_k1, w_v1, np.eye(D8), n_heads=1)[0]
w1 = attention_weights(x4, w_q1, w_k1, n_heads=1)[0, 0]  # (T, T)

print(np.round(w2, 3))
print(np.round(w1, 3))
print(np.round(two_heads[3], 3), np.round(one_head[3, :4], 3))
#zh 两个头：每个头几乎把全部权重给了自己的键
#en two heads: each puts nearly all its weight on its own key
#ru две головы: каждая отдаёт почти весь вес своему ключу
assert ((w2[0, np.arange(T4), previous] > 0.999).all()
        and (w2[1, :, 0] > 0.999).all())
#zh 输出的两个块：前一个词元的编码和 <bos> 的编码
#en the two blocks of the output: the code of the previous token and the code
#en of <bos>
#ru два блока выхода: код предыдущего токена и код <bos>
assert np.allclose(two_heads[:, :4], x4[0, previous, 4:], atol=1e-3)
assert np.allclose(two_heads[:, 4:], x4[0, [0] * T4, 4:], atol=1e-3)
#zh 一个头：t ≥ 2 时权重对半分，输出是两个编码的平均
#en one head: for t ≥ 2 the weight is split in half and the output is the
#en average of the two codes
#ru одна голова: при t ≥ 2 вес делится пополам, а выход — среднее двух кодов
assert (np.allclose(w1[2:, 0], 0.5, atol=1e-3)
        and np.allclose(w1[np.arange(2, T4), previous[2:]], 0.5, atol=1e-3))
assert np.allclose(one_head[2:, :4],
                   (x4[0, previous[2:], 4:] + x4[0, 0, 4:]) / 2, atol=1e-3)
""")

code(r"""
maps = [w2[0], w2[1], w1]
plots.heatmaps(maps, ["h = 0", "h = 1", "H = 1"],
               labels=[[[f"{value:.2f}" for value in row] for row in m]
                       for m in maps], cell_size=0.8)
plt.show()
""", alt=dict(
    zh="三张 4×4 热图，行 t 为查询，列 j 为键，格中写着权重。h = 0：每行的权重几乎全在 j = t − 1 上（第 0 行在 j = 0）。h = 1：每行的权重几乎全在 j = 0 上。H = 1（一个头）：从第 2 行起，权重在 j = 0 和 j = t − 1 上各约 0.5。",
    en="Three 4×4 heatmaps, rows t are queries, columns j keys, each cell labelled with its weight. h = 0: nearly all of each row's weight on j = t − 1 (row 0 on j = 0). h = 1: nearly all of each row's weight on j = 0. H = 1 (one head): from row 2 on, about 0.5 on j = 0 and 0.5 on j = t − 1.",
    ru="Три тепловые карты 4×4: строки t — запросы, столбцы j — ключи, в клетках веса. h = 0: почти весь вес строки на j = t − 1 (строка 0 — на j = 0). h = 1: почти весь вес строки на j = 0. H = 1 (одна голова): начиная со строки 2, примерно по 0,5 на j = 0 и на j = t − 1.",
))

md(zh=r"""
第 0 个头把至少 0.999 的权重放在前一个词元上，第 1 个头放在 `<bos>` 上，输出同时带着两样东西，各占四个坐标：位置 3（风）的第一块是“春”的编码，第二块是 `<bos>` 的编码。只有一个头时，它要同时找两个键，只好各给约 1/2，交回的是两个编码的平均，放在同一块坐标里：位置 3 得到 [0.5, 0.5, 0, 0]，从中已经看不出哪个词元是前一个。

这就是多头带来的东西：每个位置可以同时集中读取几个位置，读到的内容各自分开，直到 $W_O$ 把它们组合起来。这里的分工是手工设定的；训练好的模型里，头未必有这样清楚的分工（§2.8）。
""", en=r"""
Head 0 puts at least 0.999 of its weight on the previous token, head 1 on `<bos>`, and the output carries both, each in four coordinates of its own: at position 3 (风) the first block is the code of 春 and the second the code of `<bos>`. A single head has to look for both keys at once, gives each about 1/2 and returns the average of the two codes in one block: [0.5, 0.5, 0, 0] at position 3, from which one can no longer tell which token came just before.

This is what heads buy: each position can read several positions sharply at once and keep what it read apart until $W_O$ combines it. The roles here were set by hand; a trained model's heads need not divide the work so cleanly (§2.8).
""", ru=r"""
Голова 0 отдаёт не меньше 0,999 веса предыдущему токену, голова 1 — токену `<bos>`, и в выходе есть и то и другое, каждое в своих четырёх координатах: в позиции 3 (风) первый блок — код 春, второй — код `<bos>`. Одной голове приходится искать оба ключа сразу; она даёт каждому примерно 1/2 и возвращает среднее двух кодов в одном блоке: в позиции 3 получается [0,5; 0,5; 0; 0], и по нему уже не понять, какой токен стоял непосредственно перед ней.

Вот что дают несколько голов: каждая позиция может чётко читать несколько позиций сразу и хранить прочитанное раздельно, пока $W_O$ не соединит его. Роли здесь заданы вручную; у голов обученной модели такого чёткого разделения может и не быть (§2.8).
""")

md(zh=r"""
## 2.8 头多了，并不等于每个头都有说得出名字的分工

人们常说“这个头负责句法，那个头负责前一个词”。拆分本身并不保证任何这样的事。拆分只是给每个头一个自己的子空间、一次自己的 softmax；一个头最终做什么由训练决定，几个头也可能学得差不多，或者学到的东西根本说不出名字。某个头有没有某种分工，是需要观察和实验（例如关掉它，再测量效果）来检验的论断，不能从 H 的大小推出来。

## 2.9 小结

* 多头注意力就是 H 个独立的单头注意力，各自用 $W_Q$、$W_K$、$W_V$ 的一个列块，输出拼接后乘 $W_O$；拆分写法只是把同样的计算合并成几次全宽乘法和一次注意力调用，结果在舍入误差内相同。
* `split_heads`：第 h 个头在位置 t 的第 a 个坐标，是位置 t 的第 $h \cdot d + a$ 号特征。要逐个下标核对布局：形状检查和往返还原检查都发现不了漏掉的轴交换。
* 每个头按自己的 $\sqrt d$ 缩放，在同一个许可集合上各自归一化；时间顺序和因果掩码对所有头都一样。
* `merge_heads` 按头的顺序拼接；$W_O$（$D \times D$，无偏置）是各个头汇合的地方，经过它之后输出不再是凸组合。
* 一次 softmax 只能把权重分给几个键；H 个头给每个查询 H 次 softmax，可以同时集中读取 H 个位置，各自写进自己的坐标块（§2.7）。
* D 固定时，H 只是改变代价落在哪里：参数量和矩阵乘法不变，注意力表的内存和 softmax 的工作量随 H 线性增长。

接下来，§3 讨论可学习的绝对位置。
""", en=r"""
## 2.8 More heads do not give each head a nameable role

People like to say "this head tracks syntax, that one the previous word". Nothing in the split guarantees anything of the kind. The split only gives each head its own subspace and its own softmax; what a head ends up doing is decided by training, and several heads may learn much the same thing, or something that has no name at all. Whether a head has a role is a claim to be checked by observation and experiment (for example by switching the head off and measuring the effect); it does not follow from the value of H.

## 2.9 Summary

* Multi-head attention is H independent single-head computations, each using a block of columns of $W_Q$, $W_K$ and $W_V$, with the outputs concatenated and multiplied by $W_O$. The split form only gathers the same computation into a few full-width products and one attention call; the results agree to rounding error.
* `split_heads`: coordinate a of head h at position t is feature $h \cdot d + a$ at position t. Check layouts index by index: neither a shape test nor a round-trip test finds a missing axis swap.
* Every head scales by its own $\sqrt d$ and normalises over the same allowed set; time order and the causal mask are the same for all heads.
* `merge_heads` concatenates in head order; $W_O$ ($D \times D$, no bias) is where the heads meet, and after it the output is no longer a convex combination.
* One softmax can only share its weight among keys; H heads give each query H softmaxes, so it can read H positions sharply at once, each into its own block of coordinates (§2.7).
* At fixed D, H only moves cost around: parameters and matrix products stay the same, while attention-table memory and softmax work grow linearly with H.

Next, §3 turns to learned absolute positions.
""", ru=r"""
## 2.8 Больше голов — ещё не значит, что у каждой есть понятная роль

Часто говорят: «эта голова отвечает за синтаксис, а та — за предыдущее слово». Само разбиение ничего подобного не гарантирует. Оно лишь даёт каждой голове своё подпространство и свой softmax; чем голова в итоге занимается, решает обучение, и несколько голов вполне могут выучить почти одно и то же или нечто, чему нет названия. Есть ли у головы роль — это утверждение, которое проверяют наблюдением и экспериментом (например, отключают голову и измеряют эффект); из величины H оно не следует.

## 2.9 Итоги

* Многоголовое внимание — это H независимых одноголовых вычислений, каждое со своим блоком столбцов $W_Q$, $W_K$ и $W_V$; их выходы склеиваются и умножаются на $W_O$. Запись через разбиение лишь собирает то же вычисление в несколько умножений на полную ширину и один вызов внимания; результаты совпадают с точностью до ошибки округления.
* `split_heads`: координата a головы h в позиции t — это признак $h \cdot d + a$ в позиции t. Раскладку проверяйте индекс за индексом: ни проверка формы, ни проверка «туда и обратно» не находят пропущенную перестановку осей.
* Каждая голова делит оценки на свой $\sqrt d$ и нормализует их по тому же множеству разрешённых позиций; порядок во времени и причинная маска у всех голов общие.
* `merge_heads` склеивает головы по порядку; $W_O$ ($D \times D$, без свободного члена) — место, где головы встречаются, и после неё выход уже не выпуклая комбинация.
* Один softmax может лишь делить вес между ключами; H голов дают каждому запросу H отдельных softmax, и он может чётко читать H позиций сразу, каждую — в свой блок координат (§2.7).
* При фиксированном D число голов лишь перераспределяет затраты: параметры и матричные умножения не меняются, а память под таблицы внимания и работа softmax растут линейно с H.

Далее, в §3, — обучаемые абсолютные позиции.
""")
