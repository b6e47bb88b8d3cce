# Chapter 03 (§3): learned absolute positions.
# Trilingual source: see tools/nbsource.py and CONTRIBUTING.md.

md(
    zh=r"""
# 3 可学习的绝对位置

注意力本身只会比较向量：除了借助掩码以外，它不知道哪个向量在前、哪个在后。本课程用最直接的办法把位置送进模型——一张可学习的表。除了词元嵌入表 E（形状 V×D）之外，模型还有一张位置表 P（形状 C×D），C 是模型能表示的最大位置数。序列 b 中位置 t 上的词元（token）$x_{b,t}$，其输入向量为

$$X_{b,t} = E[x_{b,t}] + P[o + t],$$

其中偏移量 o 是这段输入之前已有的有效位置数：整段输入时 o = 0；逐个词元生成时，o 等于缓存的长度（见 05 节）。两行的宽度都是 D，才能相加。位置向量会参与学习，但“第 7 个位置”不是词元：它不在词表里，也从来不是预测目标。

本节内容：

1. 前向：在 E 和 P 中查行，再相加；
2. 反向：梯度以散射累加（scatter-add）的方式流回两张表，并用有限差分验证；
3. 超出 C 的位置：为什么要拒绝，而不是取模或截断；以及训练从未用到的那些行；
4. 算例二：交换两个词元——没有位置时，一层注意力在最后一行上看不出区别，加上位置就能看出；
5. 对照阅读：RoPE。
""",
    en=r"""
# 3 Learned absolute positions

Attention by itself only compares vectors: apart from what the mask tells it, it does not know which vector came first. In this course positions enter the model in the most direct way, through a learned table. Besides the token embedding table E (shape V×D) the model keeps a position table P (shape C×D), where C is the largest number of positions the model can represent. The input vector of the token $x_{b,t}$ at position t of sequence b is

$$X_{b,t} = E[x_{b,t}] + P[o + t],$$

where the offset o is the number of valid positions that come before this input: o = 0 for a whole sequence, and o = the length of the cache when tokens are generated one at a time (see 05). Both rows have width D, otherwise they could not be added. The position vectors are learned, but "position 7" is not a token: it is not in the vocabulary and never a prediction target.

In this notebook:

1. the forward pass: look up rows of E and P and add them;
2. the backward pass: the gradient flows back into both tables as a scatter-add, checked against finite differences;
3. positions beyond C: why they are rejected rather than wrapped or clamped, and the rows that training never reaches;
4. Example 2: swapping two tokens, which one attention layer cannot see in its last row without positions, but can with them;
5. a comparison reading: RoPE.
""",
    ru=r"""
# 3 Обучаемые абсолютные позиции

Само по себе внимание лишь сравнивает векторы: кроме того, что сообщает маска, оно не знает, какой вектор шёл раньше. В этом курсе позиции попадают в модель самым прямым путём — через обучаемую таблицу. Помимо таблицы эмбеддингов токенов E (размер V×D), модель хранит таблицу позиций P (размер C×D), где C — наибольшее число позиций, которое модель умеет представить. Входной вектор токена $x_{b,t}$ в позиции t последовательности b равен

$$X_{b,t} = E[x_{b,t}] + P[o + t],$$

где смещение (offset) o — число действительных позиций перед этим входом: o = 0 для целой последовательности и o = длина кэша, когда токены порождаются по одному (см. 05). Обе строки имеют ширину D, иначе их нельзя было бы сложить. Векторы позиций обучаются, но «позиция 7» — не токен: её нет в словаре, и модель никогда её не предсказывает.

В этом блокноте:

1. прямой проход: берём строки E и P и складываем;
2. обратный проход: градиент возвращается в обе таблицы накоплением по индексам (scatter-add); проверяем конечными разностями;
3. позиции за пределами C: почему их отвергают, а не заворачивают по модулю и не обрезают, и строки, до которых обучение так и не дошло;
4. пример 2: перестановка двух токенов — без позиций один слой внимания не видит её в последней строке, с позициями видит;
5. для сравнения: RoPE.
""",
)

code(r"""
import matplotlib.pyplot as plt
import numpy as np

from lib import plots
from lib.attention import masked_softmax, multi_head_attention, split_heads
from lib.data import BOS, build_vocab, encode
from lib.model import AttentionModel
from lib.positions import embed, embed_backward


def r(x, digits=6):
    # rounded copy for printing; adding 0.0 turns -0.0 into 0.0
    return np.round(np.asarray(x, dtype=float), digits) + 0.0


vocab = build_vocab(["春雨风"])
E = np.array([[40., -30., 20., -10.],           # <unk>
              [1., 0., 0., 1.],                 # <bos>
              [.2, .1, .3, -.1],                # <eos>
              [0., 1., 1., 0.],                 # 春
              [.5, .5, -.5, .5],                # 雨
              [1., 0., 0., 1.]])                # 风
t = np.arange(8)
P = np.stack([0.1 * (t + 1), 0.03 * t, 0.07 * (t % 2), -0.02 * t], axis=1)    # (C, D) = (8, 4)
print(vocab)
print(E.shape, P.shape)
""")

md(
    zh=r"""
## 1. 前向：查表再相加

词表是 `<unk>`、`<bos>`、`<eos>` 三个特殊词元，加上按 Unicode 码位排序的 春、雨、风，共 V = 6 个。上面的 E 和 P 是本章手工设定的小数值表（D = 4，C = 8），只用来核对下标和加法，**没有经过训练**。

同样的词元序列 `<bos> 春 雨`，偏移量 o = 0 时用 P 的第 0–2 行，o = 2 时用第 2–4 行。两次结果只差在位置那一项：
""",
    en=r"""
## 1. Forward: look up, then add

The vocabulary is the three special tokens `<unk>`, `<bos>`, `<eos>` followed by 春, 雨, 风 sorted by code point: V = 6. The E and P above are this chapter's small hand-set tables (D = 4, C = 8). They exist to check indices and additions; **nobody trained them**.

The same token sequence `<bos> 春 雨` uses rows 0–2 of P at offset o = 0 and rows 2–4 at o = 2. The two results differ only in the position term:
""",
    ru=r"""
## 1. Прямой проход: найти строки и сложить

Словарь — это три служебных токена `<unk>`, `<bos>`, `<eos>`, за которыми идут 春, 雨, 风 в порядке кодовых точек: V = 6. Таблицы E и P выше — небольшие таблицы этой главы, заданные вручную (D = 4, C = 8). Они нужны, чтобы проверять индексы и сложение; **их никто не обучал**.

Одна и та же последовательность токенов `<bos> 春 雨` при смещении o = 0 использует строки 0–2 таблицы P, а при o = 2 — строки 2–4. Результаты различаются только позиционным слагаемым:
""",
)

code(r"""
ids = np.array([BOS] + encode("春雨", vocab))             # (T,) = [1, 3, 4]
X0 = embed(ids, E, P)                                     # positions 0, 1, 2
X2 = embed(ids, E, P, offset=2)                           # positions 2, 3, 4
print(ids)
print(r(X0))
print(r(X2))
print(r(X2 - X0))                                         # = P[2:5] - P[0:3]
assert ids.tolist() == [1, 3, 4]
assert np.array_equal(X0, E[ids] + P[0:3]) and np.array_equal(X2, E[ids] + P[2:5])
assert np.allclose(X2 - X0, P[2:5] - P[0:3])
""")

md(
    zh=r"""
下面是本章的位置表 P：第 0 列随 t 增长，第 1 列增长得慢一些，第 2 列在 0 和 0.07 之间交替（偶数、奇数位置），第 3 列逐渐减小。每一行都不相同，这一点后面会用到。
""",
    en=r"""
This is the chapter's position table P: column 0 grows with t, column 1 grows more slowly, column 2 alternates between 0 and 0.07 (even and odd positions), column 3 decreases. Every row is different, which we shall use later.
""",
    ru=r"""
Вот таблица позиций P этой главы: столбец 0 растёт с t, столбец 1 растёт медленнее, столбец 2 чередует 0 и 0,07 (чётные и нечётные позиции), столбец 3 убывает. Все строки разные — это пригодится дальше.
""",
)

code(r"""
plots.position_table_heatmap(P)
plt.show()
""")

md(
    zh=r"""
## 2. 反向：对两张表做散射累加

前向是一次“按下标取行”：读出 E 的第 $x_{b,t}$ 行和 P 的第 o + t 行，再相加。所以反向时，上游梯度 $G_{b,t} = \partial L / \partial X_{b,t}$ 原样送回这两行；若有多个 (b, t) 读的是同一行，它们的梯度就累加起来：

$$\frac{\partial L}{\partial E[v]} = \sum_{(b,t):\ x_{b,t} = v} G_{b,t}, \qquad \frac{\partial L}{\partial P[p]} = \sum_{(b,t):\ o + t = p} G_{b,t}.$$

注意这是两条**不同**的下标规则：E 的行按**词元编号**收集梯度，P 的行按**绝对位置**收集梯度。一个批次里的每条序列都用 P[o]，所以即使词元各不相同，位置行也在整个批次中共享。

例子（D = 2）：两条序列“春雨”和“风雨”，首位置的上游梯度分别是 [1, 2] 和 [−3, 1]，第二个位置分别是 [0.5, 0] 和 [1, −1]。于是 P 的第 0 行收到 [1, 2] + [−3, 1] = [−2, 3]；两条序列的首字不同，E[春] 只收到 [1, 2]，E[风] 只收到 [−3, 1]。“雨”在两条序列里都出现在位置 1，所以 E[雨] 和 P[1] 都收到 [1.5, −1]。
""",
    en=r"""
## 2. Backward: a scatter-add into both tables

The forward pass is a lookup: read row $x_{b,t}$ of E and row o + t of P, then add. So the backward pass sends the upstream gradient $G_{b,t} = \partial L / \partial X_{b,t}$ back to those two rows unchanged, and where several (b, t) read the same row, their gradients add up:

$$\frac{\partial L}{\partial E[v]} = \sum_{(b,t):\ x_{b,t} = v} G_{b,t}, \qquad \frac{\partial L}{\partial P[p]} = \sum_{(b,t):\ o + t = p} G_{b,t}.$$

These are two **different** index rules: the rows of E collect gradient by **token id**, the rows of P by **absolute position**. Every sequence in a batch uses P[o], so position rows are shared across the whole batch even when the tokens differ.

Example (D = 2): the sequences 春雨 and 风雨, with upstream gradients [1, 2] and [−3, 1] at the first position and [0.5, 0] and [1, −1] at the second. Row 0 of P receives [1, 2] + [−3, 1] = [−2, 3]. The first tokens differ, so E[春] receives only [1, 2] and E[风] only [−3, 1]. 雨 sits at position 1 in both sequences, so E[雨] and P[1] both receive [1.5, −1].
""",
    ru=r"""
## 2. Обратный проход: накопление по индексам в обе таблицы

Прямой проход — это выборка: берём строку $x_{b,t}$ таблицы E и строку o + t таблицы P и складываем. Поэтому обратный проход отправляет пришедший сверху градиент $G_{b,t} = \partial L / \partial X_{b,t}$ в эти две строки без изменений, а если одну и ту же строку читают несколько пар (b, t), их градиенты складываются:

$$\frac{\partial L}{\partial E[v]} = \sum_{(b,t):\ x_{b,t} = v} G_{b,t}, \qquad \frac{\partial L}{\partial P[p]} = \sum_{(b,t):\ o + t = p} G_{b,t}.$$

Это два **разных** правила индексации: строки E собирают градиент по **номеру токена**, строки P — по **абсолютной позиции**. Строку P[o] использует каждая последовательность батча, так что строки позиций общие для всего батча, даже если токены разные.

Пример (D = 2): последовательности 春雨 и 风雨 с градиентами [1, 2] и [−3, 1] в первой позиции и [0,5, 0] и [1, −1] во второй. Строка 0 таблицы P получает [1, 2] + [−3, 1] = [−2, 3]. Первые токены разные, поэтому E[春] получает только [1, 2], а E[风] — только [−3, 1]. Токен 雨 стоит в позиции 1 в обеих последовательностях, так что и E[雨], и P[1] получают [1,5, −1].
""",
)

code(r"""
ids2 = np.array([encode("春雨", vocab), encode("风雨", vocab)])   # (B, T) = (2, 2)
G = np.array([[[1., 2.], [0.5, 0.]],
              [[-3., 1.], [1., -1.]]])                           # (B, T, D) = (2, 2, 2)
dE, dP = embed_backward(G, ids2, vocab_size=len(vocab), context_size=8)
print(r(dE))
print(r(dP[:3]))
chun, yu, feng = encode("春雨风", vocab)
assert np.array_equal(dP[0], [-2., 3.]) and np.array_equal(dP[1], [1.5, -1.]) and not dP[2:].any()
assert np.array_equal(dE[chun], [1., 2.]) and np.array_equal(dE[feng], [-3., 1.])
assert np.array_equal(dE[yu], [1.5, -1.]) and not dE[:3].any()

naive = np.zeros_like(dE)
naive[ids2.reshape(-1)] += G.reshape(-1, 2)       # fancy-index "+=" keeps one of the repeated rows
print(r(naive[yu]))
assert np.array_equal(naive[yu], [1., -1.]) and not np.array_equal(naive[yu], dE[yu])
""")

md(
    zh=r"""
最后两行是一个常见的坑：用花式索引写 `dE[ids] += G`，重复出现的编号只会保留其中一次写入（这里 E[雨] 只得到了 [1, −1]，丢了 [0.5, 0]）。真正的散射累加要用 `np.add.at` 之类的操作，`lib.positions.embed_backward` 就是这样做的。

### 用有限差分验证反向

这类错误很隐蔽，所以我们用有限差分核对 `embed_backward`。取一个非线性的损失 $L = \sum R \odot \sin(X)$，其中 $X = E[\text{ids}] + P[o + t]$，R 是固定的随机数组；于是 $\partial L / \partial X = R \odot \cos(X)$，`embed_backward` 应把它变成 E 和 P 的梯度。我们对两张表的**每一个**元素做中心差分 $(L(\theta + \varepsilon) - L(\theta - \varepsilon)) / 2\varepsilon$ 来比较。批次中有重复的词元，偏移量 o = 1，所以 P 的第 0 行和最后一行不会被读到，它们的梯度应当恰好为 0。
""",
    en=r"""
The last lines show a common trap: with fancy indexing, `dE[ids] += G` keeps only one of the writes to a repeated id (here E[雨] gets only [1, −1] and loses [0.5, 0]). A real scatter-add needs an operation such as `np.add.at`, which is what `lib.positions.embed_backward` uses.

### Checking the backward pass with finite differences

Mistakes of this kind are quiet, so we check `embed_backward` against finite differences. Take a nonlinear loss $L = \sum R \odot \sin(X)$ with $X = E[\text{ids}] + P[o + t]$ and a fixed random array R. Then $\partial L / \partial X = R \odot \cos(X)$, and `embed_backward` should turn this into the gradients of E and P. We compare with the central difference $(L(\theta + \varepsilon) - L(\theta - \varepsilon)) / 2\varepsilon$ for **every** entry of both tables. The batch contains repeated tokens and the offset is o = 1, so the first and the last row of P are never read and their gradient must be exactly 0.
""",
    ru=r"""
Последние строки показывают частую ловушку: при расширенной (fancy) индексации `dE[ids] += G` из нескольких записей в повторяющийся номер остаётся только одна (здесь E[雨] получает лишь [1, −1] и теряет [0,5, 0]). Настоящее накопление по индексам требует операции вроде `np.add.at` — её и использует `lib.positions.embed_backward`.

### Проверка обратного прохода конечными разностями

Такие ошибки ничем себя не выдают, поэтому сверим `embed_backward` с конечными разностями. Возьмём нелинейную функцию потерь $L = \sum R \odot \sin(X)$, где $X = E[\text{ids}] + P[o + t]$, а R — фиксированный случайный массив. Тогда $\partial L / \partial X = R \odot \cos(X)$, и `embed_backward` должна превратить это в градиенты E и P. Сравним с центральной разностью $(L(\theta + \varepsilon) - L(\theta - \varepsilon)) / 2\varepsilon$ для **каждого** элемента обеих таблиц. В батче есть повторяющиеся токены, а смещение o = 1, поэтому первая и последняя строки P не читаются, и их градиент должен быть ровно 0.
""",
)

code(r"""
rng = np.random.default_rng(0)
V_fd, C_fd, D_fd, offset = 6, 5, 3, 1
E_fd = rng.normal(size=(V_fd, D_fd))
P_fd = rng.normal(size=(C_fd, D_fd))
ids_fd = np.array([[1, 3, 4], [1, 4, 4]])          # <bos> twice, 雨 three times; positions 1, 2, 3
R = rng.normal(size=ids_fd.shape + (D_fd,))        # (B, T, D)


def loss():
    return float((R * np.sin(embed(ids_fd, E_fd, P_fd, offset))).sum())


def central_difference(table, eps=1e-6):
    grad = np.zeros_like(table)
    for index in np.ndindex(table.shape):          # every single entry
        saved = table[index]
        table[index] = saved + eps
        up = loss()
        table[index] = saved - eps
        down = loss()
        table[index] = saved
        grad[index] = (up - down) / (2 * eps)
    return grad


X_fd = embed(ids_fd, E_fd, P_fd, offset)
dE_fd, dP_fd = embed_backward(R * np.cos(X_fd), ids_fd, V_fd, C_fd, offset)
error_E = np.abs(dE_fd - central_difference(E_fd)).max()
error_P = np.abs(dP_fd - central_difference(P_fd)).max()
print(error_E < 1e-8, error_P < 1e-8)
print(r(dP_fd[[0, C_fd - 1]]))
assert error_E < 1e-8 and error_P < 1e-8
assert not dP_fd[[0, C_fd - 1]].any()
""")

md(
    zh=r"""
两张表的解析梯度与数值梯度在 1e-8 以内一致，未被读到的位置行梯度恰好为 0。

## 3. 超出 C 的位置

位置表只有第 0..C−1 行，别无其他。大于等于 C 的位置没有向量：`embed` 不会凭空造一个，而是抛出 `ValueError`。这里 C = 8；一条 6 个词元的输入若从偏移量 3 开始，就需要第 3..8 行：
""",
    en=r"""
Analytic and numerical gradients agree to within 1e-8 for both tables, and the position rows that are never read get exactly 0.

## 3. Positions beyond C

The table has rows 0..C−1 and nothing else. A position ≥ C has no vector, and `embed` does not invent one: it raises a `ValueError`. Here C = 8; an input of 6 tokens at offset 3 would need rows 3..8:
""",
    ru=r"""
Аналитические и численные градиенты обеих таблиц совпадают с точностью 1e-8, а строки позиций, которые не читались, получают ровно 0.

## 3. Позиции за пределами C

В таблице есть строки 0..C−1 и больше ничего. У позиции ≥ C нет вектора, и `embed` не выдумывает его, а выбрасывает `ValueError`. Здесь C = 8; входу из 6 токенов со смещением 3 понадобились бы строки 3..8:
""",
)

code(r"""
try:
    embed(np.full(6, BOS), E, P, offset=3)
    raise AssertionError("positions beyond C were accepted")
except ValueError as error:
    message = str(error)
    print(f"ValueError: {message}")
assert "3..8" in message and "C=8" in message
""")

md(
    zh=r"""
有两种“修补”办法很容易想到：取模（用第 (o + t) mod C 行）或者截断（用第 min(o + t, C − 1) 行）。两者都会悄悄地改变模型。看一条 9 个词元的输入，位置 0..8，比 C = 8 多一个：

* 取模让位置 8 使用 P[0]：位置 8 上的“雨”，得到的向量与位置 0 上的“雨”（也就是一段文本的开头）一模一样；
* 截断让位置 7 和位置 8 共用 P[7]：位置 8 上的“雨”与位置 7 上的“雨”得到同一个向量，两个不同的位置再也区分不开。

任何合法的输入都不会是这个样子：合法输入中每个位置都有自己的一行 P，而这张表的 C 行两两不同（下面最后一个数是任意两行之间的最小差距，为 0.1）。于是模型收到的是它从未定义过的那类输入。要扩展位置表，必须另行明确声明扩展策略，而不是在下标上悄悄做手脚。
""",
    en=r"""
Two "fixes" come to mind: wrap around (use row (o + t) mod C) or clamp (use row min(o + t, C − 1)). Both quietly change the model. Take a 9-token input at positions 0..8, one more than C = 8:

* wrapping gives position 8 the row P[0]: 雨 at position 8 gets exactly the vector of 雨 at position 0, the start of a text;
* clamping gives positions 7 and 8 the same row P[7]: 雨 at position 8 gets the same vector as 雨 at position 7, and two different positions can no longer be told apart.

No legal input looks like this: in a legal input every position has its own row of P, and the C rows of this table are all different (the last number below is the smallest gap between any two rows, 0.1). The model is therefore fed a kind of input it was never defined on. Extending a position table is a separate decision that has to be declared explicitly, not an index trick done quietly.
""",
    ru=r"""
Напрашиваются два «исправления»: завернуть по модулю (взять строку (o + t) mod C) или обрезать (взять строку min(o + t, C − 1)). Оба незаметно меняют модель. Возьмём вход из 9 токенов в позициях 0..8 — на одну больше, чем C = 8:

* при заворачивании позиция 8 получает строку P[0]: токен 雨 в позиции 8 получает в точности вектор 雨 в позиции 0, то есть в начале текста;
* при обрезании позиции 7 и 8 получают одну и ту же строку P[7]: 雨 в позиции 8 получает тот же вектор, что 雨 в позиции 7, и две разные позиции больше не различимы.

Ни один допустимый вход так не выглядит: в допустимом входе у каждой позиции своя строка P, а все C строк этой таблицы различны (последнее число ниже — наименьшее расстояние между двумя строками, 0,1). Значит, модель получает вход такого вида, для которого она вообще не определена. Расширение таблицы позиций — отдельное решение, которое нужно явно объявить, а не тихий трюк с индексами.
""",
)

code(r"""
ids9 = np.array([BOS] + encode("春雨风春雨风春雨", vocab))     # 9 tokens, positions 0..8
positions = np.arange(len(ids9))
C = len(P)
wrap_rows = positions % C                                      # wrapping: row used by each position
clamp_rows = np.minimum(positions, C - 1)                      # clamping
X_wrap, X_clamp = E[ids9] + P[wrap_rows], E[ids9] + P[clamp_rows]
print(wrap_rows, clamp_rows)
same_as_position_0 = np.array_equal(X_wrap[8], embed(ids9[8:9], E, P, offset=0)[0])    # 雨 at 8 = 雨 at 0
same_as_position_7 = np.array_equal(X_clamp[8], embed(ids9[8:9], E, P, offset=7)[0])   # 雨 at 8 = 雨 at 7
row_gaps = np.abs(P[:, None, :] - P[None, :, :]).max(axis=-1)[~np.eye(C, dtype=bool)]
print(len(ids9), same_as_position_0, same_as_position_7, r(row_gaps.min()))
assert len(ids9) == C + 1 and ids9[8] == yu
assert wrap_rows[8] == 0 and clamp_rows[7] == clamp_rows[8] == 7
assert same_as_position_0 and same_as_position_7 and round(row_gaps.min(), 6) == 0.1
""")

md(
    zh=r"""
### 训练从未用到的那些行

一张有 C 行的表，并不意味着模型学会了 C 个位置。只有当某个训练输入真的用到了某个位置，那一行才会得到梯度（上面的散射累加不会往别处写任何东西）。如果训练文本都很短，更靠后的那些行就永远不会变：它们停留在随机初始值上。一个 C = 8、却只见过长度不超过 5 的输入的模型，并没有“学会长上下文”——它的第 5..7 行仍然是噪声。

下面做个模拟：随机初始化 P，用随机的上游梯度对长度 1..5 的输入做 200 步 SGD，然后看哪些行变了。
""",
    en=r"""
### Rows that training never reaches

A table with C rows does not mean the model has learned C positions. A row receives gradient only when some training input actually uses that position (the scatter-add above writes nothing anywhere else). If every training text is short, the rows further on never change: they keep their random initial values. A model with C = 8 that has only ever seen inputs of length at most 5 has not "learned long context": its rows 5..7 are still noise.

A simulation: initialise P at random, run 200 SGD steps with random upstream gradients for inputs of length 1..5, and see which rows changed.
""",
    ru=r"""
### Строки, до которых обучение так и не дошло

Таблица из C строк ещё не означает, что модель выучила C позиций. Строка получает градиент, только если какой-нибудь обучающий вход действительно использует эту позицию (накопление по индексам выше больше никуда не пишет). Если все обучающие тексты короткие, дальние строки не меняются никогда и остаются со случайными начальными значениями. Модель с C = 8, которая видела входы длиной не больше 5, «длинный контекст» не выучила: её строки 5..7 — по-прежнему шум.

Моделирование: инициализируем P случайно, делаем 200 шагов SGD со случайными приходящими сверху градиентами для входов длиной 1..5 и смотрим, какие строки изменились.
""",
)

code(r"""
rng = np.random.default_rng(3)
P_init = rng.normal(scale=0.02, size=P.shape)                  # (C, D)
P_trained = P_init.copy()
for step in range(200):
    length = int(rng.integers(1, 6))                           # training inputs have 1..5 positions
    batch_ids = rng.integers(0, len(vocab), size=(4, length))  # (B, T)
    upstream = rng.normal(size=(4, length, P.shape[1]))        # stand-in for dL/dX, (B, T, D)
    _, dP_step = embed_backward(upstream, batch_ids, len(vocab), C)
    P_trained -= 0.01 * dP_step
changed = np.abs(P_trained - P_init).max(axis=1) > 0
print(changed)
assert changed[:5].all() and not changed[5:].any()
assert np.array_equal(P_trained[5:], P_init[5:])
""")

md(
    zh=r"""
第 0..4 行变了，第 5..7 行与初始值逐位相同。可学习的绝对位置是本项目的一个选择：它简单、容易检查，但只对训练中真正见过的位置有意义。这并不是说相对位置方法永远更好或更差。

## 4. 算例二：没有位置时，一层注意力看不出的交换

现在用完整的单层模型 `lib.model.AttentionModel`：E 和 P 如上，Q、K、V 都是单位矩阵，W_O 取 02 节的那个矩阵，H = 2。先做个健全性检查：关闭位置后，`<bos> 春` 应当重现算例一。
""",
    en=r"""
Rows 0..4 have changed; rows 5..7 are identical to their initial values, bit for bit. Learned absolute positions are a choice this project makes: simple and easy to check, but meaningful only for positions that training has actually seen. This is not a claim that relative-position methods are always better or always worse.

## 4. Example 2: a swap that one layer cannot see without positions

Now the whole one-layer model `lib.model.AttentionModel`: E and P as above, identity Q, K and V, the W_O of notebook 02, H = 2. First a sanity check: with positions switched off, `<bos> 春` must reproduce Example 1.
""",
    ru=r"""
Строки 0..4 изменились, строки 5..7 совпадают с начальными значениями до последнего бита. Обучаемые абсолютные позиции — выбор этого проекта: простой и легко проверяемый, но осмысленный только для позиций, которые обучение действительно видело. Это не утверждение, что методы относительных позиций всегда лучше или всегда хуже.

## 4. Пример 2: перестановка, которую один слой без позиций не видит

Теперь вся однослойная модель `lib.model.AttentionModel`: E и P как выше, единичные Q, K и V, матрица W_O из блокнота 02, H = 2. Сначала проверка здравого смысла: при отключённых позициях `<bos> 春` должна воспроизвести пример 1.
""",
)

code(r"""
I4 = np.eye(4)
W_O = np.array([[1., 0., 1., 0.],
                [0., 1., 0., 1.],
                [1., 0., -1., 0.],
                [0., 1., 0., -1.]])
model = AttentionModel(E, P, I4, I4, I4, W_O, n_heads=2)
a = 1 / (1 + np.exp(1 / np.sqrt(2)))
b = 1 - a
example_1 = model.forward(np.array([BOS, chun]), use_positions=False)
print(r(example_1))
assert np.allclose(example_1, [[1, 1, 1, -1], [1, 1, a - b, b - a]], rtol=0, atol=1e-12)
""")

md(
    zh=r"""
然后比较输入 [春, 风, 雨] 和 [风, 春, 雨]：前两个词元互换，最后一个词元相同。我们看输出的最后一行——只有它读到了全部三个位置——并取各坐标差的最大绝对值。

结果：不加位置时差为 0；加上位置后约为 0.047053077502。（本章原始校验程序打印的是 0.047053077502492324；这里浮点加法的顺序不同，最后几位会不一样，所以在 1e-12 的容差内比较。）
""",
    en=r"""
Then compare the inputs [春, 风, 雨] and [风, 春, 雨]: the first two tokens swapped, the last one the same. We look at the last row of the output, the only one that reads all three positions, and take the largest absolute difference of its coordinates.

Result: without positions the difference is 0; with positions it is about 0.047053077502. (The chapter's original checking program prints 0.047053077502492324; our floating-point additions run in a different order, which changes the last digits, so we compare within a tolerance of 1e-12.)
""",
    ru=r"""
Теперь сравним входы [春, 风, 雨] и [风, 春, 雨]: первые два токена переставлены, последний тот же. Смотрим на последнюю строку выхода — единственную, которая читает все три позиции, — и берём наибольшую по модулю разность её координат.

Результат: без позиций разность равна 0; с позициями — около 0,047053077502. (Исходная проверочная программа главы печатает 0.047053077502492324; у нас сложения с плавающей точкой идут в другом порядке, и последние цифры меняются, поэтому сравниваем с допуском 1e-12.)
""",
)

code(r"""
first = np.array(encode("春风雨", vocab))                  # [3, 5, 4]
second = np.array(encode("风春雨", vocab))                 # [5, 3, 4]


def last_row_difference(use_positions):
    out_first = model.forward(first, use_positions=use_positions)    # (T, D)
    out_second = model.forward(second, use_positions=use_positions)
    return float(np.abs(out_first[-1] - out_second[-1]).max())


without_positions = last_row_difference(False)
with_positions = last_row_difference(True)
print(round(without_positions, 12), round(with_positions, 12))
assert first.tolist() == [3, 5, 4] and second.tolist() == [5, 3, 4]
assert without_positions < 1e-12
assert abs(with_positions - 0.047053077502492324) < 1e-12
""")

md(
    zh=r"""
### 为什么恰好是 0

对最后一个查询来说，两个输入只差在键 0 和键 1 的顺序上。查询本身（末尾的“雨”）相同；因果掩码在两种情况下都允许读全部三个键；而没有位置时，一个位置的键和值只取决于它的词元。所以交换两个词元，就是把键和值**一起**交换：分数被置换，softmax 以同样的方式置换权重，加权和 $\sum_j w_j v_j$ 只是换了个顺序把同样的几项加起来。用置换 π 写出来就是 $\sum_j w_{\pi(j)} v_{\pi(j)} = \sum_j w_j v_j$。

加上位置之后，位置 0 上的“春”和位置 1 上的“春”带着不同的 P 行，键和值都不同，第二个输入就不再是第一个输入的简单置换了。下面直接看最后一个查询在两个头中的权重：
""",
    en=r"""
### Why exactly 0

For the last query the two inputs differ only in the order of keys 0 and 1. The query itself (雨 at the end) is the same; the causal mask allows all three keys in both cases; and without positions the key and the value of a position depend only on its token. So swapping the two tokens swaps keys and values **together**: the scores are permuted, the softmax permutes the weights in the same way, and the weighted sum $\sum_j w_j v_j$ adds up the same terms in a different order. With a permutation π: $\sum_j w_{\pi(j)} v_{\pi(j)} = \sum_j w_j v_j$.

With positions, 春 at position 0 and 春 at position 1 carry different rows of P, so their keys and values differ, and the second input is no longer a mere permutation of the first. Here are the last query's weights in both heads:
""",
    ru=r"""
### Почему ровно 0

Для последнего запроса два входа различаются только порядком ключей 0 и 1. Сам запрос (雨 в конце) одинаков; причинная маска в обоих случаях разрешает все три ключа; а без позиций ключ и значение позиции зависят только от её токена. Поэтому перестановка двух токенов переставляет ключи и значения **вместе**: оценки переставляются, softmax так же переставляет веса, а взвешенная сумма $\sum_j w_j v_j$ складывает те же слагаемые в другом порядке. С перестановкой π: $\sum_j w_{\pi(j)} v_{\pi(j)} = \sum_j w_j v_j$.

С позициями 春 в позиции 0 и 春 в позиции 1 несут разные строки P, их ключи и значения различаются, и второй вход уже не просто перестановка первого. Вот веса последнего запроса в обеих головах:
""",
)

code(r"""
def last_query_weights(ids, use_positions):
    x = model.embed(ids, use_positions)[None]                          # (1, T, D)
    q = split_heads(x @ model.w_q, model.n_heads)                      # (1, H, T, d)
    k = split_heads(x @ model.w_k, model.n_heads)                      # (1, H, T, d)
    scores = q[:, :, -1:] @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])  # (1, H, 1, T)
    return masked_softmax(scores, np.ones(len(ids), dtype=bool))[0, :, 0]   # (H, T)


swap = [1, 0, 2]
for use_positions in (False, True):
    w_first = last_query_weights(first, use_positions)
    w_second = last_query_weights(second, use_positions)
    print(use_positions, r(w_first, 4).tolist(), r(w_second, 4).tolist(), np.allclose(w_second, w_first[:, swap]))
assert np.allclose(last_query_weights(second, False), last_query_weights(first, False)[:, swap])
assert not np.allclose(last_query_weights(second, True), last_query_weights(first, True)[:, swap])
""")

md(
    zh=r"""
不加位置时，第二个输入的权重正好是第一个输入的权重交换前两项（末尾的 `True`）；加上位置后就不是了。

### 这个反例**不能**证明什么

如果由此得出“有掩码、无位置的模型完全看不见顺序”，那就错了。这里看不见顺序的只有最后一行。因果掩码本身是不对称的：第 0 行只读第一个词元，第 1 行读前两个。所以两个输出的前几行是不同的——而第二层注意力的最后一个查询恰恰要读这些行，它收到的是两组不同的向量。下面的单元同时检查这两点：前两行不同；把同一个注意力层直接叠两次（仍然不加位置，为简洁起见也不加残差），最后一行也不同了。

准确的说法要窄得多：**这一个单层**在最后一个位置上区分不了这两种前缀。正因为如此，我们给模型一个明确的、效果可以检验的位置表示，而不是寄希望于三角掩码能提供任务所需的全部顺序信息。
""",
    en=r"""
Without positions the second input's weights are exactly the first input's weights with the first two entries swapped (the `True` at the end); with positions they are not.

### What this counter-example does **not** prove

It would be wrong to conclude that "a model with a mask and no positions cannot see order at all". Only the last row is blind to the order here. The causal mask itself is asymmetric: row 0 reads only the first token, row 1 reads the first two. So the earlier rows of the two outputs differ, and the last query of a second attention layer reads exactly those rows: it receives two different sets of vectors. The cell below checks both: the first two rows differ, and stacking the same attention layer twice (still without positions, and without residual connections for brevity) makes the last row differ as well.

The accurate statement is much narrower: **this single layer**, at its last position, cannot tell the two prefixes apart. That is why we give the model an explicit position representation whose effect can be tested, instead of hoping that the triangular mask supplies all the order information a task needs.
""",
    ru=r"""
Без позиций веса второго входа — это в точности веса первого с переставленными первыми двумя элементами (`True` в конце строки); с позициями это уже не так.

### Чего этот контрпример **не** доказывает

Было бы ошибкой заключить, что «модель с маской и без позиций вообще не видит порядка». Здесь порядка не видит только последняя строка. Сама причинная маска несимметрична: строка 0 читает только первый токен, строка 1 — первые два. Поэтому первые строки двух выходов различаются, а последний запрос второго слоя внимания читает именно эти строки и получает два разных набора векторов. Ячейка ниже проверяет оба факта: первые две строки различаются, а если применить тот же слой внимания дважды подряд (по-прежнему без позиций и, для краткости, без остаточных связей), различается и последняя строка.

Точное утверждение гораздо уже: **этот один слой** в последней позиции не различает два префикса. Поэтому мы и даём модели явное представление позиций, действие которого можно проверить, а не надеемся, что треугольная маска сама доставит всю информацию о порядке, нужную задаче.
""",
)

code(r"""
out_first = model.forward(first, use_positions=False)                 # (T, D)
out_second = model.forward(second, use_positions=False)
row_differences = np.abs(out_first - out_second).max(axis=1)          # (T,)
print(r(row_differences))


def second_layer(out):
    return multi_head_attention(out[None], I4, I4, I4, W_O, n_heads=2)[0]


two_layers = float(np.abs(second_layer(out_first)[-1] - second_layer(out_second)[-1]).max())
print(round(two_layers, 6))
assert (row_differences[:2] > 0.5).all() and row_differences[2] < 1e-12
assert two_layers > 0.1
""")

md(
    zh=r"""
## 5. 对照阅读：RoPE

旋转位置编码（RoPE）是另一种设计。它不往输入上加任何东西，而是在每一层注意力内部，把位置 t 的查询和键**旋转**：把坐标两两配对，每一对按角度 t·θ_k 旋转，不同的坐标对用不同的频率 θ_k。把按 mθ 旋转的向量与按 nθ 旋转的向量做点积，结果只取决于 (n − m)θ，所以分数只取决于两个位置的**相对**距离；值向量不旋转。具体细节——哪些坐标配成一对、频率怎么选、相对点积如何推导——是另一个专题。

本课程只保留一种位置方案，即可学习的位置表；RoPE 不在 `lib` 里。这里也不评判哪种方案更好：那需要在相同训练条件下做受控的对比实验，不能用论文里的结果代替本项目的实测。

下面这个小例子是独立的演示，**不属于 `lib`**，课程模型也不会用到它：只有一对坐标，θ = 0.5。位置对 (2, 5) 和 (0, 3) 的距离相同，分数也相同；(0, 5) 的距离不同，分数也不同。
""",
    en=r"""
## 5. Comparison reading: RoPE

Rotary position embedding (RoPE) is a different design. Nothing is added to the input; instead, inside every attention layer, the query and the key of position t are **rotated**: the coordinates are grouped in pairs and each pair is turned by the angle t·θ_k, with a different frequency θ_k for each pair. A dot product of a vector rotated by mθ with a vector rotated by nθ depends only on (n − m)θ, so the score depends on the **relative** distance of the two positions; the values are not rotated. The details (which coordinates are paired, how the frequencies are chosen, how the relative dot product is derived) are a topic of their own.

This course keeps one position scheme, the learned table; RoPE is not part of `lib`. Nor does this say which scheme is better: that would take a controlled comparison under equal training conditions, and results from papers are no substitute for measuring this project.

The tiny example below is a standalone illustration, **not part of `lib`** and not used by the course model: a single pair of coordinates, θ = 0.5. The position pairs (2, 5) and (0, 3) are the same distance apart and get the same score; (0, 5) is a different distance and gets a different score.
""",
    ru=r"""
## 5. Для сравнения: RoPE

Поворотное позиционное кодирование (rotary position embedding, RoPE) устроено иначе. Ко входу ничего не прибавляется; вместо этого внутри каждого слоя внимания запрос и ключ позиции t **поворачиваются**: координаты разбиваются на пары, и каждая пара поворачивается на угол t·θ_k, со своей частотой θ_k для каждой пары. Скалярное произведение вектора, повёрнутого на mθ, и вектора, повёрнутого на nθ, зависит только от (n − m)θ, так что оценка зависит от **относительного** расстояния между позициями; значения не поворачиваются. Подробности (какие координаты объединяются в пары, как выбираются частоты, как выводится относительное скалярное произведение) — отдельная тема.

В этом курсе одна схема позиций — обучаемая таблица; RoPE в `lib` нет. Здесь не утверждается и то, какая схема лучше: для этого нужно контролируемое сравнение в одинаковых условиях обучения, а результаты из статей не заменяют измерений в этом проекте.

Крошечный пример ниже — самостоятельная иллюстрация, **не часть `lib`**, и модель курса её не использует: одна пара координат, θ = 0,5. Пары позиций (2, 5) и (0, 3) находятся на одном расстоянии и получают одинаковую оценку; у (0, 5) расстояние другое, и оценка другая.
""",
)

code(r"""
# Illustration only: not part of lib, not used by the course model.
def rotate(pair, position, theta=0.5):
    c, s = np.cos(position * theta), np.sin(position * theta)
    return np.array([c * pair[0] - s * pair[1], s * pair[0] + c * pair[1]])


q_pair, k_pair = np.array([1.0, 0.5]), np.array([0.3, -0.8])


def rotated_score(m, n):
    return float(rotate(q_pair, m) @ rotate(k_pair, n))       # query at position m, key at position n


print(round(rotated_score(2, 5), 6), round(rotated_score(0, 3), 6), round(rotated_score(0, 5), 6))
assert abs(rotated_score(2, 5) - rotated_score(0, 3)) < 1e-12
assert abs(rotated_score(2, 5) - rotated_score(0, 5)) > 0.1
""")

md(
    zh=r"""
## 小结

* 输入向量是 $E[x_{b,t}] + P[o + t]$：词元嵌入表按词元编号查行，位置表按绝对位置 o + t 查行；偏移量 o 是此前已有的有效位置数。
* 反向是对两张表的散射累加：E 的行按词元编号累加，P 的行按绝对位置累加，整个批次共享位置行。用 `np.add.at` 这类操作，而不是花式索引的 `+=`；用有限差分核对。
* 超出 C 的位置会被拒绝。取模和截断都会造出任何合法输入都不会出现的向量组合；训练从未用到的行仍停留在初始值，不代表“学会了长上下文”。
* 没有位置时，这个单层模型的最后一行看不出前两个词元的交换（键和值一起被置换）；加上位置后差为 ≈ 0.047053077502。但这只是关于一层、一行的结论：因果掩码本身不对称，叠上第二层，差别就会传到最后一行。
* RoPE 通过旋转查询和键来编码相对位置，只作对照阅读，不进入 `lib`。

下一节（04）：因果性必须覆盖整条计算链。
""",
    en=r"""
## Summary

* The input vector is $E[x_{b,t}] + P[o + t]$: the token embedding table is indexed by token id, the position table by the absolute position o + t; the offset o is the number of valid positions before this input.
* The backward pass is a scatter-add into both tables: rows of E accumulate by token id, rows of P by absolute position, and the whole batch shares the position rows. Use an operation like `np.add.at`, not fancy-index `+=`, and check against finite differences.
* Positions beyond C are rejected. Wrapping and clamping produce combinations of vectors that no legal input produces; rows that training never reached keep their initial values and are not "learned long context".
* Without positions, the last row of this one-layer model cannot see the swap of the first two tokens (keys and values are permuted together); with positions the difference is ≈ 0.047053077502. But this is a statement about one layer and one row: the causal mask itself is asymmetric, and a second layer carries the difference into the last row.
* RoPE encodes relative position by rotating queries and keys; it is a comparison reading only and stays out of `lib`.

Next (04): causality has to cover the whole computation.
""",
    ru=r"""
## Итоги

* Входной вектор равен $E[x_{b,t}] + P[o + t]$: таблица эмбеддингов токенов индексируется номером токена, таблица позиций — абсолютной позицией o + t; смещение o — число действительных позиций перед этим входом.
* Обратный проход — накопление по индексам в обе таблицы: строки E накапливают по номеру токена, строки P — по абсолютной позиции, и строки позиций общие для всего батча. Используйте операцию вроде `np.add.at`, а не `+=` с расширенной (fancy) индексацией, и сверяйтесь с конечными разностями.
* Позиции за пределами C отвергаются. Заворачивание и обрезание дают такие сочетания векторов, каких не даёт ни один допустимый вход; строки, до которых обучение не дошло, остаются с начальными значениями, и это не «выученный длинный контекст».
* Без позиций последняя строка этой однослойной модели не видит перестановки первых двух токенов (ключи и значения переставляются вместе); с позициями разность ≈ 0,047053077502. Но это утверждение об одном слое и одной строке: сама причинная маска несимметрична, и второй слой доносит различие до последней строки.
* RoPE кодирует относительную позицию поворотом запросов и ключей; она дана только для сравнения и в `lib` не входит.

Дальше (04): причинность должна охватывать всё вычисление.
""",
)
