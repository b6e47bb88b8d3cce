# §3 Learned absolute positions.
# Trilingual source: see tools/nbsource.py and CONTRIBUTING.md.

md(zh=r"""
# 3 可学习的绝对位置

因果掩码告诉每个查询哪些键在它之前，可它并没有告诉模型这些键的先后顺序。本节一开始就会看到后果：把一句话的前两个词元对调，一层没有位置信息的注意力在最后一个位置上给出完全相同的输出。所以位置必须明确地交给模型。

本章用的是最直接的办法：一张可学习的表。除了词元嵌入表 E（形状 $V \times D$）之外，模型还有一张位置表 P（形状 $C \times D$），C 是模型能表示的最大位置数。序列 b 中位置 t 上的词元 $x_{b,t}$，其输入向量为

$$X_{b,t} = E[x_{b,t}] + P[o + t],$$

其中偏移量 o 是这段输入之前已有的真实位置数：整段输入时 o = 0；逐个词元生成时，o 等于缓存的长度（见 §5）。一般说来，每条序列可以有自己的偏移量 $o_b$；`lib` 的 `embed` 对整个批量只接受一个整数 o。两行的宽度都必须是 D，才能相加。位置向量会参与学习，但“第 7 个位置”不是词元：它不在词表里，也从来不是预测目标。

![可学习的绝对位置：词元 BOS、春、雨（编号 1、3、4）在 t = 0, 1, 2，偏移量 o = 2；每个输入向量是词元嵌入表 E 中按编号取的一行（第 1、3、4 行）加上位置表 P 中按位置 o + t 取的一行（第 2、3、4 行）。](figures/positions.svg)

本节内容：

* 开头：没有位置时，一层注意力看不出的交换；
* §3.1 前向传播：在 E 和 P 中查行，再相加；
* §3.2 反向传播：梯度以散射累加（scatter-add）的方式流回两张表，并用有限差分验证；
* §3.3 超出 C 的位置：为什么要拒绝，而不是取模回绕或截断到最后一行；以及训练从未用到的那些行；
* §3.4 例 2：回到开头的交换，加上位置之后就能看出区别；
* §3.5 作为对照：RoPE。
""", en=r"""
# 3 Learned absolute positions

The causal mask tells each query which keys come before it, but not in what order they came. The opening example of this section shows the consequence: swap the first two tokens of a text, and one attention layer without positions gives the same output at the last position. Positions have to be given to the model explicitly.

This chapter does so in the most direct way, through a learned table. Besides the token embedding table E (shape $V \times D$) the model keeps a position table P (shape $C \times D$), where C is the largest number of positions the model can represent. The input vector of the token $x_{b,t}$ at position t of sequence b is

$$X_{b,t} = E[x_{b,t}] + P[o + t],$$

where the offset o is the number of real positions that come before this input: o = 0 for a whole sequence, and o equals the length of the cache when tokens are generated one at a time (see §5). In general every sequence may have its own offset $o_b$; `lib`'s `embed` takes a single int o for the whole batch. Both rows have width D, otherwise they could not be added. The position vectors are learned, but "position 7" is not a token: it is not in the vocabulary and is never a prediction target.

![Learned absolute positions: the tokens BOS, 春 and 雨 (ids 1, 3, 4) at t = 0, 1, 2 with offset o = 2; each input vector is the row of the token embedding table E picked by the id (rows 1, 3, 4) plus the row of the position table P picked by the position o + t (rows 2, 3, 4).](figures/positions.svg)

In this section:

* the opening example: a swap that one attention layer without positions cannot see;
* §3.1 covers the forward pass: look up rows of E and P and add them;
* §3.2 derives the backward pass: the gradient flows back into both tables as a scatter-add, checked against finite differences;
* §3.3 deals with positions beyond C, which are rejected rather than wrapped around or clamped to the last row, and with the rows that training never reaches;
* §3.4 returns to the swap of the opening as Example 2: with positions, the last row tells the two inputs apart;
* §3.5 describes RoPE, for comparison.
""", ru=r"""
# 3 Обучаемые абсолютные позиции

Причинная маска сообщает каждому запросу, какие ключи стоят раньше него, но не в каком порядке они шли. Пример в начале раздела показывает, к чему это ведёт: если переставить первые два токена текста, один слой внимания без позиций даёт в последней позиции тот же выход. Значит, позиции нужно ввести в модель явно.

В этой главе это сделано самым прямым путём — через обучаемую таблицу. Помимо таблицы эмбеддингов токенов E (размер $V \times D$), модель хранит таблицу позиций P (размер $C \times D$), где C — наибольшее число позиций, которое модель умеет представить. Входной вектор токена $x_{b,t}$ в позиции t последовательности b равен

$$X_{b,t} = E[x_{b,t}] + P[o + t],$$

где смещение (offset) o — число настоящих позиций перед этим входом: o = 0 для целой последовательности и o = длина кэша, когда токены порождаются по одному (см. §5). В общем случае у каждой последовательности может быть своё смещение $o_b$; функция `embed` из `lib` принимает одно целое o на весь батч. Обе строки имеют ширину D, иначе их нельзя было бы сложить. Векторы позиций обучаются, но «позиция 7» — не токен: её нет в словаре, и модель никогда её не предсказывает.

![Обучаемые абсолютные позиции: токены BOS, 春 и 雨 (номера 1, 3, 4) при t = 0, 1, 2 со смещением o = 2; каждый вход — строка таблицы эмбеддингов токенов E, выбранная по номеру (строки 1, 3, 4), плюс строка таблицы позиций P, выбранная по позиции o + t (строки 2, 3, 4).](figures/positions.svg)

В этом разделе:

* вступительный пример: перестановка, которую один слой внимания без позиций не видит;
* §3.1 — прямой проход: берём строки E и P и складываем;
* §3.2 — обратный проход: градиент возвращается в обе таблицы накоплением по индексам (scatter-add); проверка конечными разностями;
* §3.3 — позиции за пределами C: почему их отвергают, а не берут по модулю и не прижимают к последней строке; и строки, до которых обучение так и не дошло;
* §3.4 — пример 2: возвращаемся к перестановке из начала раздела; с позициями последняя строка различает два входа;
* §3.5 — для сравнения: RoPE.
""")

code(r"""
import matplotlib.pyplot as plt
import numpy as np

from figures import plots
from lib.attention import masked_softmax, multi_head_attention, split_heads
from lib.data import BOS, UNK, build_vocab, encode
from lib.model import AttentionModel
from lib.positions import embed, embed_backward


def r(x, digits=6):
    #zh 用于打印的舍入副本；加上 0.0 可把 -0.0 变成 0.0
    #en rounded copy for printing; adding 0.0 turns -0.0 into 0.0
    #ru округлённая копия для печати; прибавление нуля превращает −0 в 0
    return np.round(np.asarray(x, dtype=float), digits) + 0.0


vocab = build_vocab(["春雨风"])
E = np.array([[40., -30., 20., -10.],           # <unk>
              [1., 0., 0., 1.],                 # <bos>
              [.2, .1, .3, -.1],                # <eos>
              [0., 1., 1., 0.],                 #zh 春 #en 春 (spring) #ru 春 (весна)
              [.5, .5, -.5, .5],                #zh 雨 #en 雨 (rain) #ru 雨 (дождь)
              [1., 0., 0., 1.]])                #zh 风 #en 风 (wind) #ru 风 (ветер)
t = np.arange(8)
# (C, D) = (8, 4)
P = np.stack([0.1 * (t + 1), 0.03 * t, 0.07 * (t % 2), -0.02 * t], axis=1)
chun, yu, feng = encode("春雨风", vocab)
print(vocab)
print(E.shape, P.shape)
""")

md(zh=r"""
**开头的例子：没有位置时，一层注意力看不出的交换**

为什么需要位置？因果掩码已经告诉每个查询哪些键在它前面了。取单层模型 `lib.model.AttentionModel`，用上面的两张小表 E 和 P（§3.1 会细看它们），$W_Q$、$W_K$、$W_V$ 都是单位矩阵，$W_O$ 取 §2.5 的那个矩阵，H = 2，并且先把位置关掉。给它两个输入 [春, 风, 雨] 和 [风, 春, 雨]：前两个词元对调，最后一个词元相同。输出的最后一行是唯一读到全部三个位置的一行，我们比较两个输入在这一行上的差别。先核对模型：关掉位置后，`<bos> 春` 应当重现 §2.5 例 1 的输出。
""", en=r"""
**The opening example: a swap that one layer cannot see without positions**

Why positions, when the causal mask already tells each query which keys come before it? Take the one-layer model `lib.model.AttentionModel` with the two small tables E and P above (§3.1 looks at them closely), identity $W_Q$, $W_K$ and $W_V$, the $W_O$ of §2.5 and H = 2, and switch its positions off. Give it the inputs [春, 风, 雨] and [风, 春, 雨]: the first two tokens are swapped and the last one is the same. The last row of the output is the only one that reads all three positions, and we compare it between the two inputs. First a check of the model: with positions off, `<bos> 春` must reproduce the output of Example 1 in §2.5.
""", ru=r"""
**Вступительный пример: перестановка, которую один слой без позиций не видит**

Зачем позиции, если причинная маска и так сообщает каждому запросу, какие ключи стоят раньше? Возьмём однослойную модель `lib.model.AttentionModel` с двумя небольшими таблицами E и P, заданными выше (подробно они разобраны в §3.1), единичными $W_Q$, $W_K$ и $W_V$, матрицей $W_O$ из §2.5 и H = 2 и отключим в ней позиции. Подадим ей входы [春, 风, 雨] и [风, 春, 雨]: первые два токена переставлены, последний тот же. Последняя строка выхода — единственная, которая читает все три позиции; её мы и сравним для двух входов. Сначала сверим модель: при отключённых позициях `<bos> 春` должна дать выход примера 1 из §2.5.
""")

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
assert np.allclose(
    example_1, [[1, 1, 1, -1], [1, 1, a - b, b - a]], rtol=0, atol=1e-12)


first = np.array(encode("春风雨", vocab))                  # [3, 5, 4]
second = np.array(encode("风春雨", vocab))                 # [5, 3, 4]


def last_row_difference(use_positions):
    out_first = model.forward(first, use_positions=use_positions)  # (T, D)
    out_second = model.forward(second, use_positions=use_positions)
    return float(np.abs(out_first[-1] - out_second[-1]).max())


without_positions = last_row_difference(False)
print("max|Δ| < 1e-12:", without_positions < 1e-12)
assert first.tolist() == [3, 5, 4] and second.tolist() == [5, 3, 4]
assert without_positions < 1e-12
""")

md(zh=r"""
**为什么差别是 0**

对最后一个查询来说，两个输入只差在键 0 和键 1 的顺序上。查询本身（末尾的“雨”）相同；因果掩码在两种情况下都允许读全部三个键；而没有位置时，一个位置的键和值只取决于它的词元。所以交换两个词元，就是把键和值**一起**交换：分数被置换，softmax 以同样的方式置换权重，加权和 $\sum_j w_j v_j$ 只是换了个顺序把同样的几项加起来。用置换 π 写出来就是 $\sum_j w_{\pi(j)} v_{\pi(j)} = \sum_j w_j v_j$。

所以对这一层来说，在最后一个位置上，“春风雨”和“风春雨”是同一段文本。本节接下来给每个位置配上一个自己的向量，§3.4 再打开位置，回到这个交换。
""", en=r"""
**Why the difference is 0**

For the last query the two inputs differ only in the order of keys 0 and 1. The query itself (雨 at the end) is the same; the causal mask allows all three keys in both cases; and without positions the key and the value of a position depend only on its token. So swapping the two tokens swaps keys and values **together**: the scores are permuted, the softmax permutes the weights in the same way, and the weighted sum $\sum_j w_j v_j$ adds up the same terms in a different order. Written with a permutation π, this is $\sum_j w_{\pi(j)} v_{\pi(j)} = \sum_j w_j v_j$.

To this layer, at its last position, 春风雨 and 风春雨 are the same text. The rest of the section gives every position a vector of its own, and §3.4 comes back to this swap with positions switched on.
""", ru=r"""
**Почему разность равна нулю**

Для последнего запроса два входа различаются только порядком ключей 0 и 1. Сам запрос (雨 в конце) одинаков; причинная маска в обоих случаях разрешает все три ключа; а без позиций ключ и значение позиции зависят только от её токена. Поэтому перестановка двух токенов переставляет ключи и значения **вместе**: оценки переставляются, softmax так же переставляет веса, а взвешенная сумма $\sum_j w_j v_j$ складывает те же слагаемые в другом порядке. Если записать это через перестановку π: $\sum_j w_{\pi(j)} v_{\pi(j)} = \sum_j w_j v_j$.

Для этого слоя в последней позиции 春风雨 и 风春雨 — один и тот же текст. Дальше в разделе каждая позиция получает собственный вектор, а §3.4 возвращается к этой перестановке уже с включёнными позициями.
""")

md(zh=r"""
## 3.1 前向传播：查表再相加

词表是 `<unk>`、`<bos>`、`<eos>` 三个特殊词元，加上按 Unicode 码位排序的 春、雨、风，共 V = 6 个。上面的 E 和 P 是本章手工设定的两张小表（D = 4，C = 8），只用来核对下标和加法，**没有经过训练**。

E 中有两行是特意这样设定的，后面会用到：

* `<unk>` 的嵌入 [40, −30, 20, −10] 比其他各行大得多。§4 用它替换未来位置上的词元：一旦它泄漏进更早的位置，结果会非常醒目。
* `<bos>` 和 风 的嵌入完全相同，都是 [1, 0, 0, 1]。编号不同、向量相同，§4 用这一点演示扰动检验怎样“假通过”。

此外，`<bos>`（风 的向量与它相同）和 春 这两行，正是 §2.5 例 1 手算时用的两个向量，所以本节开头可以直接拿例 1 的结果来核对模型。
""", en=r"""
## 3.1 Forward: look up, then add

The vocabulary is the three special tokens `<unk>`, `<bos>`, `<eos>` followed by 春, 雨, 风 sorted by code point: V = 6. The E and P above are small tables chosen by hand for this chapter (D = 4, C = 8). They exist to check indices and additions; **nobody trained them**.

Two rows of E are chosen deliberately, for later use:

* The embedding of `<unk>`, [40, −30, 20, −10], is far larger than every other row. §4 puts it in place of a future token: if it ever leaked into an earlier position, the effect would be impossible to miss.
* `<bos>` and 风 have identical embeddings, [1, 0, 0, 1]. Different ids with the same vector let §4 show how a perturbation test can pass for the wrong reason.

In addition, the rows of `<bos>` (风 has the same vector) and 春 are the two vectors of Example 1 in §2.5, which is how the opening of this section could check the model against Example 1.
""", ru=r"""
## 3.1 Прямой проход: найти строки и сложить

Словарь — это три специальных токена `<unk>`, `<bos>`, `<eos>`, за которыми идут 春, 雨, 风 в порядке кодовых позиций Unicode: V = 6. Таблицы E и P выше — небольшие таблицы этой главы, заданные вручную (D = 4, C = 8). Они нужны, чтобы проверять индексы и сложение; **их никто не обучал**.

Две строки E заданы так нарочно: они понадобятся позже.

* Эмбеддинг `<unk>`, [40, −30, 20, −10], намного больше всех остальных строк. В §4 он подставляется вместо будущего токена: если он когда-нибудь просочится в более раннюю позицию, это сразу бросится в глаза;
* У `<bos>` и 风 эмбеддинги совпадают — [1, 0, 0, 1]. Разные номера при одинаковом векторе позволяют в §4 показать, как проверка возмущением даёт ложное «прохождение».

Кроме того, строки `<bos>` (у 风 тот же вектор) и 春 — те два вектора, которые мы считали вручную в примере 1 из §2.5; поэтому в начале раздела модель и удалось сверить с примером 1.
""")

code(r"""
others = np.delete(E, UNK, axis=0)  #zh 除 <unk> 外的各行 #en every row except <unk> #ru все строки, кроме <unk>
#zh <unk> 最小的坐标与其余各行最大的坐标
#en smallest coordinate of <unk>, largest of the rest
#ru наименьшая координата <unk> и наибольшая у остальных
print(np.abs(E[UNK]).min(), np.abs(others).max())
print(np.array_equal(E[BOS], E[feng]), E[BOS].tolist(), E[chun].tolist())
assert np.abs(E[UNK]).min() >= 10 * np.abs(others).max()
assert (np.array_equal(E[BOS], E[feng]) and E[BOS].tolist() == [1, 0, 0, 1]
        and E[chun].tolist() == [0, 1, 1, 0])
""")

md(
    zh=r"""
同样的词元序列 `<bos> 春 雨`，偏移量 o = 0 时用 P 的第 0～2 行，o = 2 时用第 2～4 行。两次结果只差在位置那一项：
""",
    en=r"""
The same token sequence `<bos> 春 雨` uses rows 0–2 of P at offset o = 0 and rows 2–4 at o = 2. The two results differ only in the position term:
""",
    ru=r"""
Одна и та же последовательность токенов `<bos> 春 雨` при смещении o = 0 использует строки 0–2 таблицы P, а при o = 2 — строки 2–4. Результаты различаются только позиционным слагаемым:
""",
)

code(r"""
ids = np.array([BOS] + encode("春雨", vocab))             # (T,) = [1, 3, 4]
X0 = embed(ids, E, P)            #zh 位置 0、1、2 #en positions 0, 1, 2 #ru позиции 0, 1, 2
X2 = embed(ids, E, P, offset=2)  #zh 位置 2、3、4 #en positions 2, 3, 4 #ru позиции 2, 3, 4
print(ids)
print(r(X0))
print(r(X2))
print(r(X2 - X0))  # = P[2:5] - P[0:3]
assert ids.tolist() == [1, 3, 4]
assert (np.array_equal(X0, E[ids] + P[0:3])
        and np.array_equal(X2, E[ids] + P[2:5]))
assert np.allclose(X2 - X0, P[2:5] - P[0:3])
""")

md(
    zh=r"""
下面是本章的位置表 P：第 0 列随 t 增长，第 1 列增长得慢一些，第 2 列在 0 和 0.07 之间交替（偶数、奇数位置），第 3 列逐渐减小。每一行都不相同，这一点后面会用到。
""",
    en=r"""
This is the chapter's position table P: column 0 grows with t, column 1 grows more slowly, column 2 alternates between 0 and 0.07 (even and odd positions), and column 3 decreases. No two rows are equal, a fact we will use later.
""",
    ru=r"""
Вот таблица позиций P этой главы: столбец 0 растёт с t, столбец 1 растёт медленнее, столбец 2 чередует 0 и 0,07 (чётные и нечётные позиции), столбец 3 убывает. Одинаковых строк нет — это пригодится дальше.
""",
)

code(r"""
plots.position_table_heatmap(P)
plt.show()
""", alt=dict(
    zh="位置表 P 的热图：行 t = 0～7，列 c = 0～3，格中写着数值。第 0 列随 t 增长，第 1 列增长较慢，第 2 列在 0 与 0.07 之间交替，第 3 列递减；任意两行都不相同。",
    en="Heatmap of the position table P: rows t = 0 to 7, columns c = 0 to 3, each cell labelled. Column 0 grows with t, column 1 more slowly, column 2 alternates 0 and 0.07, column 3 falls; no two rows are equal.",
    ru="Тепловая карта таблицы позиций P: строки t = 0–7, столбцы c = 0–3, в клетках значения. Столбец 0 растёт с t, столбец 1 медленнее, столбец 2 чередует 0 и 0,07, столбец 3 убывает; одинаковых строк нет.",
))

md(
    zh=r"""
## 3.2 反向传播：对两张表做散射累加

前向传播是一次“按下标取行”：读出 E 的第 $x_{b,t}$ 行和 P 的第 o + t 行，再相加。所以反向传播时，上游梯度 $G_{b,t} = \partial L / \partial X_{b,t}$ 原样送回这两行；若有多个 (b, t) 读的是同一行，它们的梯度就累加起来：

$$\frac{\partial L}{\partial E[v]} = \sum_{(b,t):\ x_{b,t} = v} G_{b,t}, \qquad \frac{\partial L}{\partial P[p]} = \sum_{(b,t):\ o + t = p} G_{b,t}.$$

注意这是两条**不同**的下标规则：E 的行按**词元编号**收集梯度，P 的行按**绝对位置**收集梯度。一个批量里的每条序列都用 $P[o]$，所以即使词元各不相同，位置行也在整个批量中共享。

例子（D = 2）：两条序列“春雨”和“风雨”，首位置的上游梯度分别是 [1, 2] 和 [−3, 1]，第二个位置分别是 [0.5, 0] 和 [1, −1]。于是 P 的第 0 行收到 [1, 2] + [−3, 1] = [−2, 3]；两条序列的首字不同，$E[\text{春}]$ 只收到 [1, 2]，$E[\text{风}]$ 只收到 [−3, 1]。“雨”在两条序列里都出现在位置 1，所以 $E[\text{雨}]$ 和 $P[1]$ 都收到 [1.5, −1]。
""",
    en=r"""
## 3.2 Backward: a scatter-add into both tables

The forward pass is a lookup: read row $x_{b,t}$ of E and row o + t of P, then add. So the backward pass sends the upstream gradient $G_{b,t} = \partial L / \partial X_{b,t}$ back to those two rows unchanged, and where several (b, t) read the same row, their gradients add up:

$$\frac{\partial L}{\partial E[v]} = \sum_{(b,t):\ x_{b,t} = v} G_{b,t}, \qquad \frac{\partial L}{\partial P[p]} = \sum_{(b,t):\ o + t = p} G_{b,t}.$$

These are two **different** index rules: the rows of E collect gradient by **token id**, the rows of P by **absolute position**. Every sequence in a batch uses $P[o]$, so position rows are shared across the whole batch even when the tokens differ.

An example with D = 2: the sequences 春雨 and 风雨 have upstream gradients [1, 2] and [−3, 1] at the first position and [0.5, 0] and [1, −1] at the second. Row 0 of P receives [1, 2] + [−3, 1] = [−2, 3]. The first tokens differ, so $E[\text{春}]$ receives only [1, 2] and $E[\text{风}]$ only [−3, 1]. 雨 sits at position 1 in both sequences, so $E[\text{雨}]$ and $P[1]$ both receive [1.5, −1].
""",
    ru=r"""
## 3.2 Обратный проход: накопление по индексам в обе таблицы

Прямой проход — это выборка: берём строку $x_{b,t}$ таблицы E и строку o + t таблицы P и складываем. Поэтому обратный проход отправляет градиент по выходу $G_{b,t} = \partial L / \partial X_{b,t}$ в эти две строки без изменений, а если одну и ту же строку читают несколько пар (b, t), их градиенты складываются:

$$\frac{\partial L}{\partial E[v]} = \sum_{(b,t):\ x_{b,t} = v} G_{b,t}, \qquad \frac{\partial L}{\partial P[p]} = \sum_{(b,t):\ o + t = p} G_{b,t}.$$

Это два **разных** правила индексации: строки E собирают градиент по **номеру токена**, строки P — по **абсолютной позиции**. Строку $P[o]$ использует каждая последовательность батча, так что строки позиций общие для всего батча, даже если токены разные.

Пример при D = 2 (координаты векторов разделены точкой с запятой, как принято при десятичной запятой): у последовательностей 春雨 и 风雨 градиенты по выходу в первой позиции равны [1; 2] и [−3; 1], а во второй — [0,5; 0] и [1; −1]. Строка 0 таблицы P получает [1; 2] + [−3; 1] = [−2; 3]. Первые токены разные, поэтому $E[\text{春}]$ получает только [1; 2], а $E[\text{风}]$ — только [−3; 1]. Токен 雨 стоит в позиции 1 в обеих последовательностях, так что и $E[\text{雨}]$, и $P[1]$ получают [1,5; −1].
""",
)

code(r"""
# (B, T) = (2, 2)
ids2 = np.array([encode("春雨", vocab), encode("风雨", vocab)])
G = np.array([[[1., 2.], [0.5, 0.]],
              [[-3., 1.], [1., -1.]]])  # (B, T, D) = (2, 2, 2)
dE, dP = embed_backward(G, ids2, vocab_size=len(vocab), context_size=8)
print(r(dE))
print(r(dP[:3]))
assert (np.array_equal(dP[0], [-2., 3.])
        and np.array_equal(dP[1], [1.5, -1.]) and not dP[2:].any())
assert (np.array_equal(dE[chun], [1., 2.])
        and np.array_equal(dE[feng], [-3., 1.]))
assert np.array_equal(dE[yu], [1.5, -1.]) and not dE[:3].any()

naive = np.zeros_like(dE)
#zh 花式索引的“+=”对重复的行只保留一次写入
#en fancy-index "+=" keeps one write per repeated row
#ru «+=» с расширенной индексацией сохраняет одну запись на повторяющуюся
#ru строку
naive[ids2.reshape(-1)] += G.reshape(-1, 2)
print(r(naive[yu]))
assert (np.array_equal(naive[yu], [1., -1.])
        and not np.array_equal(naive[yu], dE[yu]))
""")

md(
    zh=r"""
最后几行是一个常见的坑：用花式索引写 `dE[ids] += G`，重复出现的编号只会保留其中一次写入（这里 $E[\text{雨}]$ 只得到了 [1, −1]，丢了 [0.5, 0]）。真正的散射累加要用 `np.add.at` 之类的操作，`lib.positions.embed_backward` 就是这样做的。

### 用有限差分验证反向传播

这类错误不会有任何报错，所以我们用有限差分核对 `embed_backward`。取一个非线性的损失 $L = \sum R \odot \sin(X)$，其中 $X = E[\text{ids}] + P[o + t]$，R 是固定的随机数组；于是 $\partial L / \partial X = R \odot \cos(X)$，`embed_backward` 应把它变成 E 和 P 的梯度。我们对两张表的**每一个**元素做中心差分 $(L(\theta + \varepsilon) - L(\theta - \varepsilon)) / 2\varepsilon$ 来比较。批量中有重复的词元，偏移量 o = 1，所以 P 的第 0 行和最后一行不会被读到，它们的梯度应当恰好为 0。
""",
    en=r"""
The last lines show a common trap: with fancy indexing, `dE[ids] += G` keeps only one of the writes to a repeated id (here $E[\text{雨}]$ gets only [1, −1] and loses [0.5, 0]). A real scatter-add needs an operation such as `np.add.at`, which is what `lib.positions.embed_backward` uses.

### Checking the backward pass with finite differences

Mistakes of this kind are silent, so we check `embed_backward` against finite differences. Take a nonlinear loss $L = \sum R \odot \sin(X)$ with $X = E[\text{ids}] + P[o + t]$ and a fixed random array R. Then $\partial L / \partial X = R \odot \cos(X)$, and `embed_backward` should turn this into the gradients of E and P. We compare with the central difference $(L(\theta + \varepsilon) - L(\theta - \varepsilon)) / 2\varepsilon$ for **every** entry of both tables. The batch contains repeated tokens and the offset is o = 1, so the first and the last row of P are never read and their gradient must be exactly 0.
""",
    ru=r"""
Последние строки кода показывают частую ловушку: при расширенной (fancy) индексации `dE[ids] += G` из нескольких записей в повторяющийся номер остаётся только одна (здесь $E[\text{雨}]$ получает лишь [1; −1] и теряет [0,5; 0]). Настоящее накопление по индексам требует операции вроде `np.add.at` — её и использует `lib.positions.embed_backward`.

### Проверка обратного прохода конечными разностями

Такие ошибки ничем себя не выдают, поэтому сверим `embed_backward` с конечными разностями. Возьмём нелинейную функцию потерь $L = \sum R \odot \sin(X)$, где $X = E[\text{ids}] + P[o + t]$, а R — фиксированный случайный массив. Тогда $\partial L / \partial X = R \odot \cos(X)$, и `embed_backward` должна превратить это в градиенты E и P. Сравним с центральной разностью $(L(\theta + \varepsilon) - L(\theta - \varepsilon)) / 2\varepsilon$ для **каждого** элемента обеих таблиц. В батче есть повторяющиеся токены, а смещение o = 1, поэтому первая и последняя строки P не читаются, и их градиент должен быть ровно 0.
""",
)

code(r"""
rng = np.random.default_rng(0)
V_fd, C_fd, D_fd, offset = 6, 5, 3, 1
E_fd = rng.normal(size=(V_fd, D_fd))
P_fd = rng.normal(size=(C_fd, D_fd))
#zh <bos> 两次、雨三次；位置 1、2、3
#en <bos> twice, 雨 three times; positions 1, 2, 3
#ru <bos> дважды, 雨 трижды; позиции 1, 2, 3
ids_fd = np.array([[1, 3, 4], [1, 4, 4]])
R = rng.normal(size=ids_fd.shape + (D_fd,))  # (B, T, D)


def loss():
    return float((R * np.sin(embed(ids_fd, E_fd, P_fd, offset))).sum())


def central_difference(table, eps=1e-6):
    grad = np.zeros_like(table)
    for index in np.ndindex(table.shape):  #zh 逐个元素 #en every single entry #ru каждый элемент по отдельности
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

md(zh=r"""
两张表的解析梯度与数值梯度在 $10^{-8}$ 以内一致，未被读到的位置行梯度恰好为 0。

## 3.3 超出 C 的位置

位置表只有第 0～$C-1$ 行，别无其他。大于等于 C 的位置没有向量：`embed` 不会凭空造一个，而是抛出 `ValueError`。这里 C = 8；一条 6 个词元的输入若从偏移量 3 开始，就需要第 3～8 行：
""", en=r"""
Analytic and numerical gradients agree to within $10^{-8}$ for both tables, and the position rows that are never read get exactly 0.

## 3.3 Positions beyond C

The table has rows 0 to $C-1$ and nothing else. A position $\ge C$ has no vector, and `embed` does not invent one: it raises a `ValueError`. Here C = 8; an input of 6 tokens at offset 3 would need rows 3 to 8:
""", ru=r"""
Аналитические и численные градиенты обеих таблиц совпадают с точностью до $10^{-8}$, а строки позиций, которые не читались, получают ровно 0.

## 3.3 Позиции за пределами C

В таблице есть строки от 0 до $C-1$ и больше ничего. У позиции $\ge C$ нет вектора, и `embed` не выдумывает его, а выбрасывает `ValueError`. Здесь C = 8; входу из 6 токенов при смещении o = 3 понадобились бы строки с 3 по 8:
""")

code(r"""
try:
    embed(np.full(6, BOS), E, P, offset=3)
    raise AssertionError("positions beyond C were accepted")
except ValueError as error:
    message = str(error)
    print(f"ValueError: {message}")
assert "3..8" in message and "C=8" in message
""")

md(zh=r"""
错误信息（来自 `lib`，是英文）指出了哪些位置落在表外（`3..8`），以及 C = 8。

有两种“修补”办法很容易想到：取模回绕（用第 $(o + t) \bmod C$ 行），或者截断到最后一行（用第 $\min(o + t, C - 1)$ 行）。两者都会悄悄地改变模型。看一条 9 个词元的输入，位置 0～8，比 C = 8 多一个：

* 取模让位置 8 使用 $P[0]$：位置 8 上的“雨”得到的向量，与位置 0 上的“雨”（也就是文本开头）一模一样；
* 截断让位置 7 和位置 8 共用 $P[7]$：位置 8 上的“雨”与位置 7 上的“雨”得到同一个向量，两个不同的位置再也区分不开。

在合法的输入中，每个位置都有 P 中独有的一行，而这张表的 C 行两两不同（下面最后一个数是任意两行之间的最小差距，为 0.1）。取模或截断之后，两个不同的位置共用同一行：模型从没有给位置 8 定义过向量，现在却借用了位置 0 或位置 7 的，算的已经不是原来那个模型。要扩展位置表，就得另行明确声明扩展办法，而不是在下标上悄悄做手脚。
""", en=r"""
The message names the positions that fall outside the table (`3..8`) and the value of C.

Two "fixes" come to mind: wrap around (use row $(o + t) \bmod C$) or clamp to the last row (use row $\min(o + t, C - 1)$). Both quietly change the model. Take a 9-token input at positions 0 to 8, one more than C = 8:

* wrapping gives position 8 the row $P[0]$: 雨 at position 8 gets the vector of 雨 at position 0, the start of a text;
* clamping gives positions 7 and 8 the same row $P[7]$: 雨 at position 8 gets the same vector as 雨 at position 7, and two different positions can no longer be told apart.

In a valid input every position has a row of P of its own, and the C rows of this table are all different (the last number below is the smallest gap between any two rows, 0.1). After wrapping or clamping, two different positions share one row: the model never defined a vector for position 8, and borrowing the row of position 0 or 7 computes a different model. Extending a position table is a separate decision that has to be declared explicitly, not an index trick done quietly.
""", ru=r"""
Сообщение (его выдаёт `lib`, поэтому оно на английском) называет позиции, которые не помещаются в таблицу (`3..8`), и значение C = 8.

Напрашиваются два «исправления»: брать позицию по модулю (строка $(o + t) \bmod C$) или прижимать её к последней строке (строка $\min(o + t, C - 1)$). Оба незаметно меняют модель. Возьмём вход из 9 токенов в позициях от 0 до 8 — на одну больше, чем C = 8:

* если брать по модулю, позиции 8 достаётся строка $P[0]$: токен 雨 в позиции 8 получает в точности тот же вектор, что 雨 в позиции 0, то есть в начале текста;
* если прижимать к последней строке, позициям 7 и 8 достаётся одна и та же строка $P[7]$: 雨 в позиции 8 получает тот же вектор, что 雨 в позиции 7, и две разные позиции становятся неразличимы.

Во входе, который укладывается в таблицу, у каждой позиции своя строка P, а все C строк этой таблицы различны (последнее число ниже — наименьшее расстояние между двумя строками, 0,1). После взятия по модулю или прижимания две разные позиции делят одну строку: вектора для позиции 8 модель никогда не определяла, а взяв строку позиции 0 или 7, мы вычисляем уже другую модель. Расширение таблицы позиций — отдельное решение, которое нужно объявить явно, а не незаметная подмена индексов.
""")

code(r"""
#zh 9 个词元，位置 0～8
#en 9 tokens, positions 0 to 8
#ru 9 токенов, позиции 0–8
ids9 = np.array([BOS] + encode("春雨风春雨风春雨", vocab))
positions = np.arange(len(ids9))
C = len(P)
wrap_rows = positions % C  #zh 取模：每个位置使用的行 #en wrapping: the row each position uses #ru по модулю: строка, которую берёт каждая позиция
clamp_rows = np.minimum(positions, C - 1)  #zh 截断到最后一行 #en clamping to the last row #ru прижимание к последней строке
X_wrap, X_clamp = E[ids9] + P[wrap_rows], E[ids9] + P[clamp_rows]
print(wrap_rows, clamp_rows)
#zh 位置 8 的雨 = 位置 0 的雨
#en 雨 at 8 = 雨 at 0
#ru 雨 в позиции 8 = 雨 в позиции 0
same_as_position_0 = np.array_equal(
    X_wrap[8], embed(ids9[8:9], E, P, offset=0)[0])
#zh 位置 8 的雨 = 位置 7 的雨
#en 雨 at 8 = 雨 at 7
#ru 雨 в позиции 8 = 雨 в позиции 7
same_as_position_7 = np.array_equal(
    X_clamp[8], embed(ids9[8:9], E, P, offset=7)[0])
row_gaps = np.abs(P[:, None, :]
                  - P[None, :, :]).max(axis=-1)[~np.eye(C, dtype=bool)]
print(len(ids9), same_as_position_0, same_as_position_7, r(row_gaps.min()))
assert len(ids9) == C + 1 and ids9[8] == yu
assert wrap_rows[8] == 0 and clamp_rows[7] == clamp_rows[8] == 7
assert (same_as_position_0 and same_as_position_7
        and round(row_gaps.min(), 6) == 0.1)
""")

md(zh=r"""
### 训练从未用到的那些行

一张有 C 行的表，并不意味着模型学会了 C 个位置。只有当某个训练输入真的用到了某个位置，那一行才会得到梯度（上面的散射累加不会往别处写任何东西）。如果训练文本都很短，更靠后的那些行就得不到梯度：用普通的 SGD 或不带权重衰减的 Adam，它们一直停留在随机初始值上；带权重衰减（例如 AdamW）时，它们只会被慢慢压向 0。无论哪种情况，它们都没有学到关于这些位置的任何东西。一个 C = 8、却只见过长度不超过 5 的输入的模型，并没有“学会长上下文”——它的第 5～7 行仍然是噪声。

下面做个模拟：随机初始化 P，用随机的上游梯度对长度为 1～5 的输入做 200 步 SGD，然后看哪些行变了。
""", en=r"""
### Rows that training never reaches

A table with C rows does not mean the model has learned C positions. A row receives gradient only when some training input actually uses that position (the scatter-add above writes nothing anywhere else). If every training text is short, the rows further on get no gradient: under plain SGD, or Adam without weight decay, they keep their random initial values, and with weight decay (as in AdamW) they only shrink toward 0. Either way they learn nothing about those positions. A model with C = 8 that has only ever seen inputs of length at most 5 has not "learned long context": its rows 5 to 7 are still noise.

In a simulation we initialise P at random, run 200 SGD steps with random upstream gradients for inputs of length 1 to 5, and see which rows changed.
""", ru=r"""
### Строки, до которых обучение так и не дошло

Таблица из C строк ещё не означает, что модель выучила C позиций. Строка получает градиент, только если какой-нибудь обучающий вход действительно использует эту позицию (накопление по индексам выше больше никуда не пишет). Если все обучающие тексты короткие, дальние строки не получают градиента: при обычном SGD или Adam без затухания весов они остаются со случайными начальными значениями, а с затуханием весов (как в AdamW) лишь постепенно стягиваются к нулю. В обоих случаях ничего об этих позициях они не узнают. Модель с C = 8, которая видела только входы длиной не больше 5, «длинный контекст» не выучила: её строки 5–7 — по-прежнему шум.

Смоделируем это: инициализируем P случайно, сделаем 200 шагов SGD со случайными градиентами по выходу для входов длиной от 1 до 5 и посмотрим, какие строки изменились.
""")

code(r"""
rng = np.random.default_rng(3)
P_init = rng.normal(scale=0.02, size=P.shape)                  # (C, D)
P_trained = P_init.copy()
for step in range(200):
    #zh 训练输入有 1～5 个位置
    #en training inputs have 1 to 5 positions
    #ru у обучающих входов от 1 до 5 позиций
    length = int(rng.integers(1, 6))
    batch_ids = rng.integers(0, len(vocab), size=(4, length))  # (B, T)
    #zh 代替 dL/dX，(B, T, D)
    #en stands in for dL/dX, (B, T, D)
    #ru заменяет dL/dX, (B, T, D)
    upstream = rng.normal(size=(4, length, P.shape[1]))
    _, dP_step = embed_backward(upstream, batch_ids, len(vocab), C)
    P_trained -= 0.01 * dP_step
changed = np.abs(P_trained - P_init).max(axis=1) > 0
print(changed)
assert changed[:5].all() and not changed[5:].any()
assert np.array_equal(P_trained[5:], P_init[5:])
""")

md(zh=r"""
第 0～4 行变了，第 5～7 行与初始值逐位相同。本章使用可学习的绝对位置：它简单、容易检查，但只对训练中真正见过的位置有意义。

## 3.4 例 2：加上位置，交换就看得出来了

回到本节开头的交换，这次打开位置。两个输入仍然只差在“春”和“风”的顺序上，我们仍然比较输出的最后一行：加上位置后，各坐标之差的最大绝对值约为 0.047053077502，不再是 0。
""", en=r"""
Rows 0 to 4 have changed; rows 5 to 7 are identical to their initial values, bit for bit. This chapter uses learned absolute positions: they are simple and easy to check, but meaningful only for positions that training has actually seen.

## 3.4 Example 2: with positions the swap shows

Back to the swap of the opening, now with positions switched on. The two inputs still differ only in the order of 春 and 风, and we compare the last row of the output again: with positions, the largest absolute difference of its coordinates is about 0.047053077502 instead of 0.
""", ru=r"""
Строки 0–4 изменились, строки 5–7 совпадают с начальными значениями до последнего бита. В этой главе используются обучаемые абсолютные позиции: они просты и легко проверяются, но осмысленны только для тех позиций, которые обучение действительно видело.

## 3.4 Пример 2: с позициями перестановка видна

Вернёмся к перестановке из начала раздела, теперь с включёнными позициями. Входы по-прежнему различаются только порядком 春 и 风, и мы снова сравниваем последнюю строку выхода: с позициями наибольшая по модулю разность её координат равна примерно 0,047053077502, а не нулю.
""")

code(r"""
with_positions = last_row_difference(True)
print(round(with_positions, 12))
assert round(with_positions, 12) == 0.047053077502
""")

md(zh=r"""
这个数也可以走一条与 NumPy 模型不共享任何代码的路线算出来。`lib/plain_python.py` 只用 Python 列表、循环和 `math` 模块完成这一层的运算，既不导入 NumPy，也不导入 `lib` 的其他部分（有测试检查这一点）。`input_rows` 把每个位置行加到对应的词元嵌入上。Q、K、V 取单位矩阵，查询、键、值就是输入向量本身，所以 `read` 只需要查询和它可以读的那些行：每个头在自己的两个坐标上算缩放点积，对全部三个键做 softmax（最后一个查询本来就可以读所有的键，所以这里不需要掩码），再加权求和；最后把各头拼起来乘 $W_O$。两种算法的结果之差小于 $10^{-15}$。
""", en=r"""
This number can also be computed by a route that shares no code with the NumPy model. `lib/plain_python.py` does the layer's arithmetic with Python lists, loops and the `math` module only; it imports neither NumPy nor the rest of `lib` (a test checks this). `input_rows` adds each position row to its token embedding. With identity Q, K and V, the query, key and value are the input vector itself, so `read` needs only the query and the rows it may read: for each head it takes the scaled dot products on the head's two coordinates, a softmax over all three keys (the last query may read every key anyway, so no mask is needed here) and the weighted sum; then it joins the heads and multiplies by $W_O$. The two computations differ by less than $10^{-15}$.
""", ru=r"""
Это число можно получить и путём, у которого с моделью на NumPy нет ни одной общей строчки кода. `lib/plain_python.py` выполняет арифметику слоя только на списках и циклах Python и модуле `math`; он не импортирует ни NumPy, ни остальной `lib` (это проверяет тест). `input_rows` прибавляет к эмбеддингу каждого токена строку его позиции. Q, K и V единичные, поэтому запрос, ключ и значение — это сам входной вектор, и функции `read` нужны только запрос и строки, которые ему разрешено читать: в каждой голове она берёт масштабированные скалярные произведения на двух координатах этой головы, softmax по всем трём ключам (последнему запросу и так разрешены все ключи, поэтому маска здесь не нужна) и взвешенную сумму, а затем склеивает головы и умножает на $W_O$. Два вычисления расходятся меньше чем на $10^{-15}$.
""")

code(r"""
from lib import plain_python

#zh 同样的表，换成 Python 列表
#en the same tables as Python lists
#ru те же таблицы в виде списков Python
E_rows, P_rows, W_O_rows = E.tolist(), P.tolist(), W_O.tolist()


def plain_last_row(tokens):
    rows = plain_python.input_rows(tokens, E_rows, P_rows)
    return plain_python.read(rows[-1], rows, 2, W_O_rows)


plain = max(abs(u - w) for u,
            w in zip(plain_last_row(first.tolist()),
                     plain_last_row(second.tolist())))
print(round(plain, 12), abs(plain - with_positions) < 1e-15)
assert abs(plain - with_positions) < 1e-15
""")

md(zh=r"""
加上位置之后，位置 0 上的“春”和位置 1 上的“春”带着不同的 P 行，键和值都不同，第二个输入就不再是第一个输入的简单置换了。下面直接看最后一个查询在两个头中的权重：
""", en=r"""
With positions, 春 at position 0 and 春 at position 1 carry different rows of P, so their keys and values differ, and the second input is no longer a mere permutation of the first. Here are the last query's weights in both heads:
""", ru=r"""
Если позиции учитываются, 春 в позиции 0 и 春 в позиции 1 получают разные строки P, их ключи и значения различаются, и второй вход уже не просто перестановка первого. Вот веса последнего запроса в обеих головах:
""")

code(r"""
def last_query_weights(ids, use_positions):
    x = model.embed(ids, use_positions)[None]  # (1, T, D)
    q = split_heads(x @ model.w_q, model.n_heads)  # (1, H, T, d)
    k = split_heads(x @ model.w_k, model.n_heads)  # (1, H, T, d)
    # (1, H, 1, T)
    scores = q[:, :, -1:] @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    # (H, T)
    return masked_softmax(scores, np.ones(len(ids), dtype=bool))[0, :, 0]


swap = [1, 0, 2]
for use_positions in (False, True):
    w_first = last_query_weights(first, use_positions)
    w_second = last_query_weights(second, use_positions)
    print(use_positions, r(w_first, 4).tolist(), r(w_second, 4).tolist(),
          np.allclose(w_second, w_first[:, swap]))
assert np.allclose(last_query_weights(second, False),
                   last_query_weights(first, False)[:, swap])
assert not np.allclose(last_query_weights(second, True),
                       last_query_weights(first, True)[:, swap])
""")

md(
    zh=r"""
不加位置时，第二个输入的权重正好是第一个输入的权重交换前两项（第一行末尾的 `True`）；加上位置后就不是了。

### 这个反例**不能**证明什么

如果由此得出“有掩码、无位置的模型完全看不见顺序”，那就错了。这里看不见顺序的只有最后一行。因果掩码本身是不对称的：第 0 行只读第一个词元，所以它的输出取决于哪个词元排在最前；第 1 行虽然读的是同样两个词元，查询却是第二个词元，交换也改变了它。所以两个输出的前两行都不相同——而第二层注意力的最后一个查询恰恰要读这些行，它收到的两组向量也就不再只是彼此的置换。下面的单元格同时检查这两点：前两行不同；把同一个注意力层直接叠两次（仍然不加位置，为简洁起见也不加残差），最后一行也不同了。

准确的说法要窄得多：**这一个单层**在最后一个位置上区分不了这两种前缀。正因为如此，我们给模型一个明确的、效果可以检验的位置表示，而不是寄希望于三角掩码能提供任务所需的全部顺序信息。
""",
    en=r"""
Without positions the second input's weights are exactly the first input's weights with the first two entries swapped (the `True` at the end of the first line); with positions they are not.

### What this counter-example does **not** prove

It would be wrong to conclude that "a model with a mask and no positions cannot see order at all". Only the last row is blind to the order here. The causal mask itself is asymmetric: row 0 reads only the first token, so its output depends on which token comes first; row 1 reads the same two tokens in both inputs, but its query is the second token, which the swap changes too. So the first two rows of the two outputs differ, and the last query of a second attention layer reads those very rows: the two sets of vectors it receives are no longer mere permutations of each other. The cell below checks both: the first two rows differ, and stacking the same attention layer twice (still without positions, and without residual connections for brevity) makes the last row differ as well.

The accurate statement is much narrower: **this single layer**, at its last position, cannot tell the two prefixes apart. That is why we give the model an explicit position representation whose effect can be tested, instead of hoping that the triangular mask supplies all the order information a task needs.
""",
    ru=r"""
Без позиций веса второго входа — это в точности веса первого с переставленными первыми двумя элементами (`True` в конце первой строки); с позициями это уже не так.

### Чего этот контрпример **не** доказывает

Было бы ошибкой заключить, что «модель с маской и без позиций вообще не видит порядка». Здесь порядка не видит только последняя строка. Сама причинная маска несимметрична: строка 0 читает только первый токен, поэтому её выход зависит от того, какой токен стоит первым; строка 1 в обоих входах читает те же два токена, но её запрос — второй токен, а он при перестановке тоже меняется. Поэтому первые две строки двух выходов различаются, а последний запрос второго слоя внимания читает именно эти строки: два набора векторов, которые он получает, уже не сводятся к перестановке друг друга. Ячейка ниже проверяет оба факта: первые две строки различаются, а если применить тот же слой внимания дважды подряд (по-прежнему без позиций и, для краткости, без остаточных связей), различается и последняя строка.

Точное утверждение гораздо уже: **этот один слой** в последней позиции не различает два префикса. Поэтому мы и даём модели явное представление позиций, действие которого можно проверить, а не надеемся, что треугольная маска сама доставит всю информацию о порядке, нужную задаче.
""",
)

code(r"""
out_first = model.forward(first, use_positions=False)  # (T, D)
out_second = model.forward(second, use_positions=False)
row_differences = np.abs(out_first - out_second).max(axis=1)          # (T,)
print(r(row_differences))


def second_layer(out):
    return multi_head_attention(out[None], I4, I4, I4, W_O, n_heads=2)[0]


two_layers = float(np.abs(second_layer(out_first)[-1]
                          - second_layer(out_second)[-1]).max())
print(round(two_layers, 6))
assert (row_differences[:2] > 0.5).all() and row_differences[2] < 1e-12
assert two_layers > 0.1
""")

md(zh=r"""
## 3.5 作为对照：RoPE

旋转位置编码（RoPE）是另一种设计。它不往输入上加任何东西，而是在每一层注意力内部，把位置 t 的查询和键**旋转**：把坐标两两配对，每一对按角度 $t\theta_k$ 旋转，不同的坐标对用不同的频率 $\theta_k$。对给定的查询向量和键向量，把查询按 $m\theta$ 旋转、键按 $n\theta$ 旋转后再做点积，结果只通过 $(n - m)\theta$ 依赖于两个位置，所以分数只取决于两个位置的**相对**距离；值向量不旋转。具体细节——哪些坐标配成一对、频率怎么选、相对点积如何推导——是另一个专题。

本章只用一种位置方案，即可学习的位置表，RoPE 不在 `lib` 里。哪种方案更好，要在相同训练条件下做受控的对比实验才能回答，论文里的结果代替不了对手头这个模型的测量。

下面是一个独立的小演示，只有一对坐标，$\theta = 0.5$。位置对 (2, 5) 和 (0, 3) 的距离相同，分数也相同；(0, 5) 的距离不同，分数也不同。
""", en=r"""
## 3.5 For comparison: RoPE

Rotary position embedding (RoPE) is a different design. Nothing is added to the input; instead, inside every attention layer, the query and the key of position t are **rotated**: the coordinates are grouped in pairs and each pair is turned by the angle $t\theta_k$, with a different frequency $\theta_k$ for each pair. For a given query vector and key vector, rotating the query by $m\theta$ and the key by $n\theta$ gives a dot product that depends on the two positions only through $(n - m)\theta$, so the score depends on their **relative** distance; the values are not rotated. The details (which coordinates are paired, how the frequencies are chosen, how the relative dot product is derived) are a topic of their own.

This chapter uses one position scheme, the learned table, and RoPE is not part of `lib`. Which scheme is better is a question for a controlled comparison under equal training conditions; published results cannot stand in for measurements on the model at hand.

The tiny example below stands on its own: a single pair of coordinates, $\theta = 0.5$. The position pairs (2, 5) and (0, 3) are the same distance apart and get the same score; the pair (0, 5) is a different distance apart and gets a different score.
""", ru=r"""
## 3.5 Для сравнения: RoPE

Поворотное позиционное кодирование (rotary position embedding, RoPE) устроено иначе. Ко входу ничего не прибавляется; вместо этого внутри каждого слоя внимания запрос и ключ позиции t **поворачиваются**: координаты разбиваются на пары, и каждая пара поворачивается на угол $t\theta_k$, со своей частотой $\theta_k$ для каждой пары. Если для заданных векторов запроса и ключа повернуть запрос на $m\theta$, а ключ на $n\theta$, их скалярное произведение зависит от позиций только через $(n - m)\theta$, так что оценка зависит от **относительного** расстояния между ними; значения не поворачиваются. Подробности (какие координаты объединяются в пары, как выбираются частоты, как получается относительное скалярное произведение) — отдельная тема.

В этой главе одна схема позиций — обучаемая таблица, и RoPE в `lib` нет. Какая схема лучше, решает только контролируемое сравнение в одинаковых условиях обучения; результаты из статей не заменят измерений на той модели, с которой вы работаете.

Крошечный пример ниже самостоятельный: одна пара координат, $\theta = 0{,}5$. Позиции в парах (2, 5) и (0, 3) разнесены на одно и то же расстояние, и оценки у пар одинаковые; у (0, 5) расстояние другое, и оценка тоже другая.
""")

code(r"""
#zh 仅作演示，课程模型不使用
#en an illustration only; the course model does not use it
#ru только иллюстрация; модель курса её не использует
def rotate(pair, position, theta=0.5):
    c, s = np.cos(position * theta), np.sin(position * theta)
    return np.array([c * pair[0] - s * pair[1], s * pair[0] + c * pair[1]])


q_pair, k_pair = np.array([1.0, 0.5]), np.array([0.3, -0.8])


def rotated_score(m, n):
    #zh 同一对 q、k，查询在位置 m，键在位置 n
    #en the same q and k, query at position m, key at position n
    #ru те же q и k: запрос в позиции m, ключ в позиции n
    return float(rotate(q_pair, m) @ rotate(k_pair, n))


print(round(rotated_score(2, 5), 6), round(rotated_score(0, 3), 6),
      round(rotated_score(0, 5), 6))
assert abs(rotated_score(2, 5) - rotated_score(0, 3)) < 1e-12
assert abs(rotated_score(2, 5) - rotated_score(0, 5)) > 0.1
""")

md(zh=r"""
## 3.6 小结

* 没有位置时，这个单层模型的最后一行看不出前两个词元的交换（键和值一起被置换）；加上位置后差约为 0.047053077502，一段不依赖 `lib` 的纯 Python 计算给出同一个数。但这只是关于一层、一行的结论：因果掩码本身不对称，叠上第二层，差别就会传到最后一行。
* 输入向量是 $E[x_{b,t}] + P[o + t]$：词元嵌入表按词元编号查行，位置表按绝对位置 o + t 查行；偏移量 o 是此前已有的真实位置数。
* 反向传播是对两张表的散射累加：E 的行按词元编号累加，P 的行按绝对位置累加，整个批量共享位置行。要用 `np.add.at` 这类操作，而不是花式索引的 `+=`；并用有限差分核对。
* 超出 C 的位置会被拒绝。取模回绕和截断到最后一行都会让两个不同的位置共用 P 的同一行，造出模型定义里不存在的（词元，位置）组合；训练从未用到的行得不到梯度（不计权重衰减时停留在初始值），不代表“学会了长上下文”。
* RoPE 通过旋转查询和键来编码相对位置；这里只作为对照介绍。

接下来，§4 说明因果性为什么必须覆盖整条计算链。
""", en=r"""
## 3.6 Summary

* Without positions, the last row of this one-layer model cannot see the swap of the first two tokens (keys and values are permuted together); with positions the difference is about 0.047053077502, and a plain-Python computation that does not use `lib` gives the same number. But this is a statement about one layer and one row: the causal mask itself is asymmetric, and a second layer carries the difference into the last row.
* The input vector is $E[x_{b,t}] + P[o + t]$: the token embedding table is indexed by token id, the position table by the absolute position o + t; the offset o is the number of real positions before this input.
* The backward pass is a scatter-add into both tables: rows of E accumulate by token id, rows of P by absolute position, and the whole batch shares the position rows. Use an operation like `np.add.at`, not fancy-index `+=`, and check against finite differences.
* Positions beyond C are rejected. Wrapping around and clamping to the last row both make two different positions share one row of P, producing (token, position) pairs that do not exist in the model's definition; rows that training never reached get no gradient (without weight decay they keep their initial values) and are not "learned long context".
* RoPE encodes relative position by rotating queries and keys; it appears here for comparison only.

Next, §4 explains why causality has to cover the whole computation.
""", ru=r"""
## 3.6 Итоги

* Без позиций последняя строка этой однослойной модели не видит перестановки первых двух токенов (ключи и значения переставляются вместе); с позициями разность около 0,047053077502, и вычисление на чистом Python без `lib` даёт то же число. Но это утверждение об одном слое и одной строке: сама причинная маска несимметрична, и второй слой доносит различие до последней строки.
* Входной вектор равен $E[x_{b,t}] + P[o + t]$: таблица эмбеддингов токенов индексируется номером токена, таблица позиций — абсолютной позицией o + t; смещение o — число настоящих позиций перед этим входом.
* Обратный проход — накопление по индексам в обе таблицы: строки E накапливают градиент по номеру токена, строки P — по абсолютной позиции, и строки позиций общие для всего батча. Используйте операцию вроде `np.add.at`, а не `+=` с расширенной (fancy) индексацией, и сверяйтесь с конечными разностями.
* Позиции за пределами C отвергаются. И взятие по модулю, и прижимание к последней строке дают двум разным позициям одну строку P, то есть создают пары (токен, позиция), которых в определении модели нет; строки, до которых обучение не дошло, не получают градиента (без затухания весов остаются с начальными значениями), и это не «выученный длинный контекст».
* RoPE кодирует относительную позицию поворотом запросов и ключей; здесь эта схема приведена только для сравнения.

Далее, в §4, — почему причинность должна соблюдаться во всей цепочке вычислений.
""")
