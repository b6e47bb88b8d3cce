# §1 The allowed set before softmax.  Trilingual source: see tools/nbsource.py.

md(zh=r"""
# 1 先定许可集合，再做 softmax

上一章的注意力允许每个查询读取全部位置。描述一整句话时这没有问题，可一旦用来训练「预测下一个词元」的模型，麻烦就来了：位置 t 的答案就放在位置 t + 1，查询如果能读到它，直接照抄就行，根本不必学会预测。

本节规定每个查询能读哪些位置，也就是**许可集合**，并说明为什么这个限制必须放在 softmax 之前，而不是之后。顺带把全章依赖的数据协议定下来：文本怎样变成编号，批量怎样补齐，以及哪些输出参与计分。
""", en=r"""
# 1 The allowed set comes before softmax

In the previous chapter every query could read every position. That is harmless when we only want to describe a whole sentence, but it breaks a model trained to predict the next token: the answer for position t sits at position t + 1, and a query that can read it will simply copy it instead of learning to predict it.

This section fixes what each query may read, the **allowed set**, and shows why the restriction has to be applied before softmax rather than after it. Along the way we settle the data protocol the whole chapter relies on: how texts become ids, how a batch is padded, and which outputs are scored.
""", ru=r"""
# 1 Сначала множество разрешённых позиций, потом softmax

В предыдущей главе каждый запрос мог читать все позиции. Пока мы просто описываем предложение целиком, это безобидно, но модели, которую учат предсказывать следующий токен, это всё портит: ответ для позиции t лежит в позиции t + 1, и запрос, которому он доступен, просто его скопирует, вместо того чтобы научиться предсказывать.

В этом разделе мы определим, что именно может читать каждый запрос, — **множество разрешённых позиций** — и покажем, почему это ограничение накладывается до softmax, а не после. Попутно зафиксируем протокол данных, на который опирается вся глава: как тексты превращаются в номера токенов, как дополняется батч и какие выходы учитываются в функции потерь.
""")

md(zh=r"""
## 1.1 数据协议

本章所有例子都遵循同一个数据协议，它就是 `lib/data.py` 中实现的那一套：

* 三个特殊词元占据最前面的编号：`<unk>` = 0（词表外的字符），`<bos>` = 1（序列开始），`<eos>` = 2（序列结束）；
* 其余词元是训练文本中出现过的字符，去重后按 Unicode 码位从小到大排序，依次编号；
* 没有单独的 PAD 编号。同一批量中较短的文本在右侧补齐：输入补 EOS，目标补 −100。

用「春」「雨」「风」三个字构造词表：
""", en=r"""
## 1.1 The data protocol

Every example in this chapter follows one data protocol, the one implemented in `lib/data.py`:

* three special tokens take the first ids: `<unk>` = 0 (a character outside the vocabulary), `<bos>` = 1 (beginning of sequence), `<eos>` = 2 (end of sequence);
* the remaining tokens are the distinct characters of the training texts, sorted by Unicode code point and numbered in that order;
* there is no separate PAD id. Shorter texts in a batch are padded on the right: inputs with EOS, targets with −100.

Here is the vocabulary built from the three characters 春 (spring), 雨 (rain) and 风 (wind):
""", ru=r"""
## 1.1 Протокол данных

Все примеры главы следуют одному протоколу данных — тому, что реализован в `lib/data.py`:

* три специальных токена занимают первые номера: `<unk>` = 0 (символ вне словаря), `<bos>` = 1 (начало последовательности), `<eos>` = 2 (конец последовательности);
* остальные токены — различные символы обучающих текстов, упорядоченные по кодовой позиции Unicode и пронумерованные в этом порядке;
* отдельного номера PAD нет. Короткие тексты в батче дополняются справа: входы — токеном EOS, целевые метки — числом −100.

Построим словарь из трёх иероглифов 春 («весна»), 雨 («дождь») и 风 («ветер»):
""")

code("""
import numpy as np
import matplotlib.pyplot as plt

from lib import plots
from lib.attention import causal_attention, causal_future, masked_softmax, unmasked_attention
from lib.data import BOS, EOS, IGNORE, UNK, build_vocab, collate, decode

vocab = build_vocab(["春雨", "风"])
print(vocab)
print([f"U+{ord(ch):04X}" for ch in vocab[3:]])
assert (UNK, BOS, EOS, IGNORE) == (0, 1, 2, -100)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
""")

md(zh=r"""
三个字的码位依次增大，所以「春」「雨」「风」的编号分别是 3、4、5。

`lib.data.collate` 把一组文本整理成一个批量。每一行的输入以 BOS 开头，后面跟着文本的字符；目标则是文本的字符后面再跟一个 EOS。批量的长度 T 等于最长文本的长度加一。以 ["春雨", "雨"] 为例：
""", en=r"""
The code points increase in that order, so 春, 雨 and 风 get the ids 3, 4 and 5.

`lib.data.collate` turns a list of texts into a batch. Each row of inputs starts with BOS and continues with the characters of the text; the targets are the characters of the text followed by one EOS. The batch length T is one more than the longest text. For ["春雨", "雨"]:
""", ru=r"""
Кодовые позиции возрастают именно в этом порядке, поэтому 春, 雨 и 风 получают номера 3, 4 и 5.

Функция `lib.data.collate` собирает из списка текстов батч. Каждая строка входов начинается с BOS, за которым идут символы текста; целевые метки — это символы текста и следом один EOS. Длина батча T на единицу больше длины самого длинного текста. Для ["春雨", "雨"]:
""")

code("""
inputs, targets = collate(["春雨", "雨"], vocab)
print(inputs)
print(targets)
assert inputs.tolist() == [[1, 3, 4], [1, 4, 2]]
assert targets.tolist() == [[3, 4, 2], [4, 2, -100]]
""")

md(zh=r"""
第 0 行「春雨」正好占满 T = 3，不需要补齐。第 1 行「雨」只有一个字：输入末尾补了一个 EOS（编号 2），目标末尾补了 −100。注意这一行里两个 2 的身份完全不同：目标第 1 位的 2 是「雨」这段文本真正的结尾，模型必须学会预测它；输入第 2 位的 2 只是占位用的填充。

## 1.2 为什么位置 i 可以读取它自己

把输入和目标逐位对齐来看。位置 t 的输入是已经看到的第 t 个词元，位置 t 的输出用来预测目标 t，也就是紧接着的下一个词元：
""", en=r"""
Row 0, 春雨, fills T = 3 exactly and needs no padding. Row 1, 雨, has a single character: its inputs end with one EOS (id 2) and its targets end with −100. Note that the two 2s in this row play entirely different roles. The 2 at target position 1 is the real end of the text 雨, and the model must learn to predict it; the 2 at input position 2 is only filler.

## 1.2 Why position i may read itself

Line the inputs up with the targets. The input at position t is the t-th token already seen; the output at position t is used to predict target t, which is the token that comes next:
""", ru=r"""
Строка 0, 春雨, ровно заполняет T = 3, дополнять её не нужно. В строке 1, 雨, всего один символ: в конец входов добавлен один EOS (номер 2), в конец целевых меток — число −100. Обратите внимание, что две двойки в этой строке играют совершенно разные роли. Двойка в позиции 1 целевых меток — настоящий конец текста 雨, и модель должна научиться её предсказывать; двойка в позиции 2 входов — всего лишь заполнитель.

## 1.2 Почему позиции i можно читать саму себя

Поставим входы и целевые метки друг под другом. Вход в позиции t — это уже увиденный t-й токен; выход в позиции t служит для предсказания целевой метки t, то есть следующего токена:
""")

code("""
for b in range(len(inputs)):
    pairs = [f"{decode([x], vocab)}→{decode([y], vocab) if y != IGNORE else y}" for x, y in zip(inputs[b], targets[b])]
    print("  ".join(pairs))

scored = targets != IGNORE
for b, t in zip(*np.nonzero(scored[:, :-1])):
    assert targets[b, t] == inputs[b, t + 1]      # the answer of query t is the input at t + 1
""")

md(zh=r"""
这里能读出两件事。第一，目标 t 恰好是输入 t + 1（代码对每个计分位置都核对了这一点）：答案总在下一个位置，所以查询 i 读取键 j ≤ i 看不到自己的答案，而键 i + 1 正是第一个必须禁止的位置。第二，位置 i 读取它自己是安全的，因为输入 i 是已经看到的词元，不是答案。位置 0 放的是 BOS，它在任何字符出现之前就已经确定；第一个字「春」只出现在目标里。所以许可集合是 j ≤ i，包括对角线在内。

## 1.3 同一个约束的两种写法：`allowed` 与 `future`

同一个因果约束可以写成两种布尔数组。本课程给它们起了不同的名字，而且从不混用：

* `allowed[i, j]` 为真，表示查询 i **允许读取**键 j。它是 `lib.attention.masked_softmax(scores, allowed)` 的参数。
* `future[i, j]` 为真，表示键 j 位于查询 i 的**未来**，**禁止读取**。它由 `lib.attention.causal_future(tq, tk)` 生成。

两者互为补集：`allowed == ~future`。
""", en=r"""
Two things follow. First, target t is exactly input t + 1 (the code checks this at every scored position): the answer always sits at the next position, so a query i that reads keys j ≤ i never sees its own answer, and key i + 1 is precisely the first key that must be forbidden. Second, reading itself is safe for position i, because input i is a token already seen, not the answer. Position 0 holds BOS, which is known before any character appears; the first character, 春, exists only among the targets. The allowed set is therefore j ≤ i, diagonal included.

## 1.3 One constraint, two names: `allowed` and `future`

The same causal constraint can be written as two different boolean arrays. The course gives them different names and never mixes them up:

* `allowed[i, j]` is True when query i **may read** key j. This is the argument of `lib.attention.masked_softmax(scores, allowed)`.
* `future[i, j]` is True when key j lies in the **future** of query i, so reading it is **forbidden**. It is built by `lib.attention.causal_future(tq, tk)`.

They are complements: `allowed == ~future`.
""", ru=r"""
Отсюда следуют две вещи. Во-первых, целевая метка t в точности равна входу t + 1 (код проверяет это во всех учитываемых позициях): ответ всегда находится в следующей позиции, поэтому запрос i, читающий ключи j ≤ i, своего ответа не видит, а ключ i + 1 — как раз первый ключ, который нужно запретить. Во-вторых, позиции i безопасно читать саму себя: вход i — уже увиденный токен, а не ответ. В позиции 0 стоит BOS, известный ещё до появления любого символа; первый символ, 春, есть только среди целевых меток. Итак, множество разрешённых позиций — это j ≤ i, включая диагональ.

## 1.3 Одно ограничение, два имени: `allowed` и `future`

Одно и то же причинное ограничение можно записать двумя разными булевыми массивами. В курсе у них разные имена, и они никогда не подменяют друг друга:

* `allowed[i, j]` равно True, если запросу i **можно читать** ключ j. Это аргумент `lib.attention.masked_softmax(scores, allowed)`.
* `future[i, j]` равно True, если ключ j лежит в **будущем** запроса i и читать его **нельзя**. Такой массив строит `lib.attention.causal_future(tq, tk)`.

Они дополняют друг друга: `allowed == ~future`.
""")

code("""
future = causal_future(3, 3)
allowed = ~future
print(future.astype(int))
print(allowed.astype(int))
assert (allowed == np.tril(np.ones((3, 3), dtype=bool))).all()
assert not (allowed & future).any() and (allowed | future).all()

try:
    masked_softmax(np.zeros((3, 3)), future)      # the wrong array passed on purpose
except ValueError as err:
    print(type(err).__name__, np.flatnonzero(~future.any(axis=1)))
    assert "row (2,)" in str(err)
else:
    raise AssertionError("passing future as allowed must not go unnoticed here")
""")

md(zh=r"""
如果把 `future` 当成 `allowed` 传进去，每个查询读到的恰好是它不该读的位置。在方阵里，`future` 的最后一行全为假，于是第 2 行没有任何可读的键，库会报错，我们才侥幸发现传错了。别指望每次都这么幸运：写代码时按名字传参，`allowed` 就是允许，`future` 就是禁止。

## 1.4 三个位置、分数全为零

先看最简单的例子：三个位置，所有分数 S 都是 0。在许可集合上做 softmax：

$$
A_{ij} =
\begin{cases}
\dfrac{\exp S_{ij}}{\sum_{r \le i} \exp S_{ir}}, & j \le i,\\[2ex]
0, & j > i.
\end{cases}
$$

第 i 行只在 i + 1 个可读位置上分配权重，分数都一样，于是平分：
""", en=r"""
If `future` is passed where `allowed` belongs, every query reads exactly the keys it must not read. In a square mask the last row of `future` is all False, so row 2 has no key to read and the library raises an error; that is the only reason the mistake is caught here. Do not count on such luck: pass masks by name, `allowed` for what may be read, `future` for what may not.

## 1.4 Three positions, all scores zero

Start with the simplest case: three positions and all scores S equal to 0. Softmax over the allowed set is

$$
A_{ij} =
\begin{cases}
\dfrac{\exp S_{ij}}{\sum_{r \le i} \exp S_{ir}}, & j \le i,\\[2ex]
0, & j > i.
\end{cases}
$$

Row i spreads its weight over its i + 1 readable positions; the scores are equal, so they share it equally:
""", ru=r"""
Если подать `future` туда, где ожидается `allowed`, каждый запрос будет читать ровно те ключи, которые ему читать нельзя. В квадратной маске последняя строка `future` целиком состоит из False, поэтому у строки 2 не остаётся ни одного ключа, и библиотека выдаёт ошибку — только благодаря этому путаница здесь и обнаружилась. Не стоит рассчитывать на такую удачу: передавайте маски по имени, `allowed` — что читать можно, `future` — что нельзя.

## 1.4 Три позиции, все оценки нулевые

Начнём с простейшего случая: три позиции, все оценки S равны 0. Softmax по множеству разрешённых позиций выглядит так:

$$
A_{ij} =
\begin{cases}
\dfrac{\exp S_{ij}}{\sum_{r \le i} \exp S_{ir}}, & j \le i,\\[2ex]
0, & j > i.
\end{cases}
$$

Строка i распределяет вес по своим i + 1 доступным позициям; оценки одинаковы, поэтому вес делится поровну:
""")

code("""
from fractions import Fraction

def as_fractions(w):
    return [[str(Fraction(float(x)).limit_denominator(100)) for x in row] for row in np.atleast_2d(w)]

S = np.zeros((3, 3))
weights = masked_softmax(S, allowed)
print(as_fractions(weights))
assert np.allclose(weights, [[1, 0, 0], [1/2, 1/2, 0], [1/3, 1/3, 1/3]])
assert (weights[future] == 0.0).all()
assert np.allclose(weights.sum(axis=1), 1.0)
""")

md(zh=r"""
第 0 行只有一个可读的键，权重是 [1, 0, 0]；第 1 行是 [1/2, 1/2, 0]；第 2 行三个位置都可读，各得 1/3。被禁止的项严格等于 0，每一行的和都是 1。

## 1.5 错误的顺序：先 softmax，后清零

一个常见的错误是先对全部位置做普通的 softmax，再把未来位置的权重清零。同样的例子里，softmax 先把每一行都变成 [1/3, 1/3, 1/3]，清零之后：
""", en=r"""
Row 0 has a single readable key and gets the weights [1, 0, 0]; row 1 gets [1/2, 1/2, 0]; row 2 may read all three positions and gives each 1/3. Forbidden entries are exactly 0 and every row sums to 1.

## 1.5 The wrong order: softmax first, zero the future afterwards

A common mistake is to apply an ordinary softmax over all positions and only then set the future weights to zero. In the same example softmax first turns every row into [1/3, 1/3, 1/3]; after zeroing:
""", ru=r"""
У строки 0 только один доступный ключ, её веса — [1, 0, 0]; у строки 1 — [1/2, 1/2, 0]; строка 2 может читать все три позиции и отдаёт каждой по 1/3. Запрещённые элементы в точности равны 0, сумма каждой строки равна 1.

## 1.5 Неправильный порядок: сначала softmax, потом обнуление будущего

Частая ошибка — применить обычный softmax ко всем позициям и лишь затем обнулить веса будущих позиций. В том же примере softmax сначала превращает каждую строку в [1/3, 1/3, 1/3], а после обнуления получается:
""")

code("""
def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

wrong = softmax(S) * allowed                  # normalise over every key, then zero the future
print(as_fractions(wrong))
print(as_fractions(wrong.sum(axis=1)))
assert np.allclose(wrong, [[1/3, 0, 0], [1/3, 1/3, 0], [1/3, 1/3, 1/3]])
assert np.allclose(wrong.sum(axis=1), [1/3, 2/3, 1])

renormalised = wrong / wrong.sum(axis=1, keepdims=True)
additive = softmax(S + np.where(allowed, 0.0, -np.inf))   # 0 where allowed, -inf where forbidden
assert np.allclose(renormalised, weights) and np.allclose(additive, weights)
""")

md(zh=r"""
第 0 行变成 [1/3, 0, 0]，和为 1/3；第 1 行变成 [1/3, 1/3, 0]，和为 2/3；只有没有未来位置的第 2 行保持 [1/3, 1/3, 1/3]，和为 1。前两行已经不是概率分布了。

清零之后再按行重新归一化，可以恢复正确的权重（代码里核对过），但这不过是「在许可集合上归一化」的另一种写法。常见的加性掩码也是如此：给禁止位置的分数加上 −∞ 再做普通 softmax，由于 exp(−∞) = 0，结果与 `masked_softmax` 相同。

下图从左到右依次是许可集合、正确顺序得到的权重和错误顺序得到的权重，每行右侧标出了行和：
""", en=r"""
Row 0 becomes [1/3, 0, 0] and sums to 1/3; row 1 becomes [1/3, 1/3, 0] and sums to 2/3; only row 2, which has no future, keeps [1/3, 1/3, 1/3] and sums to 1. The first two rows are no longer probability distributions.

Renormalising each row after zeroing does recover the correct weights (the code checks it), but that is just another way of normalising over the allowed set. So is the familiar additive mask: add −∞ to the forbidden scores and apply an ordinary softmax; since exp(−∞) = 0, the result equals `masked_softmax`.

The figure shows, from left to right, the allowed set, the weights in the right order and the weights in the wrong order, with each row's sum written to its right:
""", ru=r"""
Строка 0 превращается в [1/3, 0, 0] с суммой 1/3; строка 1 — в [1/3, 1/3, 0] с суммой 2/3; лишь строка 2, у которой нет будущего, остаётся [1/3, 1/3, 1/3] с суммой 1. Первые две строки больше не являются распределениями вероятностей.

Если после обнуления заново нормировать каждую строку, правильные веса восстанавливаются (код это проверяет), но это лишь другая запись той же нормировки по множеству разрешённых позиций. То же относится к привычной аддитивной маске: к запрещённым оценкам прибавляют −∞ и применяют обычный softmax; поскольку exp(−∞) = 0, результат совпадает с `masked_softmax`.

На рисунке слева направо: множество разрешённых позиций, веса при правильном порядке и веса при неправильном; справа от каждой строки подписана её сумма:
""")

code("""
plots.heatmaps(
    [allowed, weights, wrong],
    ["allowed = ~future", "masked_softmax(S, allowed)", "softmax(S) * allowed"],
    labels=[allowed.astype(int).astype(str), as_fractions(weights), as_fractions(wrong)],
    row_sums=[False, True, True],
)
plt.show()
""")

md(zh=r"""
错误顺序的毛病不只是行和不为 1。它的分母里含有未来键的分数，未来会通过分母漏进来。只改动查询 0 对未来键 2 的分数，把它从 0 改成 2：
""", en=r"""
The wrong order does more damage than rows that fail to sum to 1. Its denominator contains the scores of future keys, so the future leaks in through the denominator. Change only the score of query 0 against its future key 2, from 0 to 2:
""", ru=r"""
Вред неправильного порядка не сводится к тому, что суммы строк не равны 1. В его знаменатель входят оценки будущих ключей, и через знаменатель будущее просачивается внутрь. Изменим только оценку запроса 0 для будущего ключа 2 — с 0 на 2:
""")

code("""
S_changed = S.copy()
S_changed[0, 2] = 2.0                          # query 0 against its future key 2
right_row = masked_softmax(S_changed, allowed)[0]
wrong_row = (softmax(S_changed) * allowed)[0]
print(np.round(right_row, 6), np.round(wrong_row, 6))
assert np.array_equal(right_row, weights[0])
assert np.isclose(wrong_row[0], 1 / (2 + np.exp(2.0))) and round(float(wrong_row[0]), 6) == 0.106507
""")

md(zh=r"""
正确的权重纹丝不动，仍是 [1, 0, 0]；错误顺序下，查询 0 分给自己位置的权重从 1/3 变成了 1/(2 + e²) ≈ 0.106507。一个它本不该看到的分数，改变了它的输出。

## 1.6 把 ≤ 写成 <：无键可读的行

如果把条件 j ≤ i 误写成 j < i，位置就不能读取自己了：
""", en=r"""
The correct weights do not move at all and stay [1, 0, 0]. In the wrong order, the weight query 0 gives to its own position drops from 1/3 to 1/(2 + e²) ≈ 0.106507: a score the query was never supposed to see has changed its output.

## 1.6 `<` instead of `≤`: a row with nothing to read

Suppose the condition j ≤ i is mistyped as j < i, so that a position may no longer read itself:
""", ru=r"""
Правильные веса не меняются вовсе и остаются [1, 0, 0]. При неправильном порядке вес, который запрос 0 отдаёт собственной позиции, падает с 1/3 до 1/(2 + e²) ≈ 0,106507: оценка, которую запрос вообще не должен был видеть, изменила его выход.

## 1.6 `<` вместо `≤`: строке нечего читать

Допустим, условие j ≤ i по ошибке записано как j < i, и позиция больше не может читать саму себя:
""")

code("""
strict = np.tril(np.ones((3, 3), dtype=bool), k=-1)      # j < i
print(strict.astype(int))
try:
    masked_softmax(S, strict)
except ValueError as err:
    print(type(err).__name__, np.flatnonzero(~strict.any(axis=1)))
    assert "row (0,)" in str(err)
else:
    raise AssertionError("an empty row must be refused")
""")

md(zh=r"""
第 0 行没有任何可读的键，softmax 的分母无从谈起。`masked_softmax` 遇到这种情况会抛出 `ValueError`，并在错误信息中指出是哪一行（这里是第 0 行）。

为什么要报错，而不是随便算出点什么？看看两种朴素写法在同一行上会得到什么：
""", en=r"""
Row 0 has no readable key, so its softmax has no denominator. In that case `masked_softmax` raises a `ValueError` whose message names the row (here row 0).

Why raise an error instead of returning something? Look at what two naive implementations produce for the same row:
""", ru=r"""
У строки 0 нет ни одного доступного ключа, и у её softmax просто нет знаменателя. В такой ситуации `masked_softmax` выбрасывает `ValueError`, а в сообщении об ошибке указывает номер строки (здесь это строка 0).

Почему ошибка, а не какое-нибудь число? Посмотрим, что дают в той же строке две наивные реализации:
""")

code("""
with np.errstate(invalid="ignore"):
    with_inf = softmax(np.where(strict, S, -np.inf))     # forbidden scores set to -inf
with_big_negative = softmax(np.where(strict, S, -1e9))   # forbidden scores set to a large finite number
print(with_inf[0], np.round(with_big_negative[0], 6))
assert np.isnan(with_inf[0]).all()
assert np.allclose(with_big_negative[0], 1/3)
""")

md(zh=r"""
用 −∞ 填充时，这一行算的是 exp(−∞ − (−∞))，结果是 NaN，它会悄无声息地传遍后面所有的计算。用一个很大的有限负数（比如 −10⁹）代替 −∞ 就更隐蔽了：整行分数都一样，softmax 给出均匀的 [1/3, 1/3, 1/3]，查询 0 读到了位置 1 和位置 2，而那正是它的未来。

所以本课程的约定是：全部被遮住的行是错误，必须报错，既不能变成 NaN，也不能悄悄变成均匀分布。在正确的因果掩码下，每个查询至少能读自己，这样的行根本不会出现。

## 1.7 填充位置的查询：照常计算，但不计分

回到批量 ["春雨", "雨"]。第 1 行位置 2 的输入是补上的 EOS。前向计算并不特殊对待它：它是一个普通的查询，照样读取位置 0–2 并得到输出，这个输出也不会被强行置零。为了演示，取一张随机的小词元嵌入表 E（位置要到 §3 才加入），令 X = E[inputs]，并直接用 q = k = v = X：
""", en=r"""
With −∞ the row computes exp(−∞ − (−∞)), which is NaN, and NaN silently spreads through every later computation. A large finite negative number such as −10⁹ in place of −∞ is even sneakier: all scores in the row become equal, softmax returns the uniform [1/3, 1/3, 1/3], and query 0 reads positions 1 and 2, which are exactly its future.

Hence the rule of this course: a row in which everything is masked is an error and must raise; it never becomes NaN and never quietly turns into a uniform row. With a correct causal mask every query may at least read itself, so such a row cannot occur.

## 1.7 Padded queries are computed but not scored

Back to the batch ["春雨", "雨"]. In row 1 the input at position 2 is the padding EOS. The forward pass does not treat it specially: it is an ordinary query, it reads positions 0–2 and produces an output, and that output is not forced to zero. To see this, take a small random token embedding table E (positions arrive only in §3), set X = E[inputs] and use q = k = v = X directly:
""", ru=r"""
С −∞ строка вычисляет exp(−∞ − (−∞)), то есть NaN, и этот NaN незаметно расползается по всем дальнейшим вычислениям. Большое конечное отрицательное число вроде −10⁹ вместо −∞ ещё коварнее: все оценки в строке становятся одинаковыми, softmax возвращает равномерное [1/3, 1/3, 1/3], и запрос 0 читает позиции 1 и 2 — то есть своё будущее.

Отсюда правило курса: строка, в которой замаскировано всё, — это ошибка, и о ней нужно сообщать исключением; она никогда не превращается в NaN и не подменяется втихую равномерным распределением. При правильной причинной маске каждый запрос может читать хотя бы самого себя, так что такой строки не бывает.

## 1.7 Запросы в позициях дополнения вычисляются, но не учитываются

Вернёмся к батчу ["春雨", "雨"]. В строке 1 вход в позиции 2 — это EOS, добавленный при дополнении. Прямой проход не выделяет его особо: это обычный запрос, он читает позиции 0–2 и получает выход, и этот выход никто не обнуляет принудительно. Чтобы увидеть это, возьмём маленькую случайную таблицу эмбеддингов токенов E (позиции появятся только в §3), положим X = E[inputs] и используем прямо q = k = v = X:
""")

code("""
rng = np.random.default_rng(0)
E = rng.normal(size=(len(vocab), 4)).round(2)    # toy token embedding table (V, D)
X = E[inputs]                                    # (B, T, D)
Y = causal_attention(X, X, X)                    # (B, T, D): every query gets an output
print(Y.shape, np.round(Y[1, 2], 3))
assert Y.shape == (2, 3, 4) and np.isfinite(Y).all() and np.abs(Y[1, 2]).max() > 0
""")

md(zh=r"""
这个输出确实存在，但它不进入损失。哪些位置计分由目标决定：目标不等于 −100 的位置计分。
""", en=r"""
The output is there, but it does not enter the loss. The targets decide which positions are scored: a position is scored when its target is not −100.
""", ru=r"""
Выход существует, но в функцию потерь не попадает. Какие позиции учитываются, решают целевые метки: позиция учитывается, если её метка не равна −100.
""")

code("""
scored = targets != IGNORE
print(scored.astype(int))
print(targets[scored], int(scored.sum()))
assert scored.tolist() == [[True, True, True], [True, True, False]]
assert scored[1, 1] and targets[1, 1] == EOS            # the real end of 雨 is scored
assert int((targets[scored] == EOS).sum()) == 2

eos_dropped = scored & (targets != EOS)                 # wrong: EOS treated as padding
print(int(eos_dropped.sum()))
assert int(scored.sum()) == 5 and int(eos_dropped.sum()) == 3
""")

md(zh=r"""
一共 5 个位置计分，其中有两个 EOS 目标：「春雨」的第 2 位和「雨」的第 1 位。它们是文本真正的结尾，模型要学会在这里预测 EOS。如果把 EOS 当成填充忽略掉（比如在损失里丢弃 `targets == EOS` 的位置），计分位置就只剩 3 个，模型永远学不会在哪里结束。

按照 `collate` 的构造，输入为 EOS 的位置恰好就是目标为 −100 的位置；即便如此，判断是否计分也只看目标。前向计算不接收任何填充掩码，也不根据输入的数值去遮挡什么：输入里的 EOS 对它来说就是一个普通的词元编号。

这也说明了 EOS 为什么不能当「填充编号」（例如 PyTorch 中 `nn.Embedding` 的 `padding_idx`，或损失函数的 `ignore_index`）：EOS 是真实的词元，作为目标要被预测，作为输入有自己的嵌入向量，把它登记为填充就等于把一个真实的词元当成了「什么都不是」。填充这个角色由两样东西分担：输入里用一个普通的 EOS 占位，它的查询不计分；目标里用 −100，它根本不是词元编号，`decode` 会直接拒绝它：
""", en=r"""
Five positions are scored, and two of their targets are EOS: position 2 of 春雨 and position 1 of 雨. They are the real ends of the texts, and the model has to learn to predict EOS there. Treat EOS as padding and ignore it (say, by dropping the positions where `targets == EOS` from the loss) and only 3 scored positions remain; the model never learns where a text ends.

Because of the way `collate` lays out a batch, the positions whose input is EOS are exactly the positions whose target is −100. Even so, only the targets decide what is scored. The forward pass receives no padding mask and hides nothing because of the value of an input: to it, an input EOS is an ordinary token id.

This is also why EOS must not be declared a padding index (such as `padding_idx` of PyTorch's `nn.Embedding`, or the `ignore_index` of a loss): EOS is a real token, predicted as a target and given its own embedding vector as an input, and registering it as padding turns a real token into nothing. The padding role is split between two things instead: an ordinary EOS as filler in the inputs, whose query is not scored, and −100 in the targets, which is not a token id at all; `decode` refuses it outright:
""", ru=r"""
Учитываются пять позиций, и в двух из них целевая метка — EOS: позиция 2 в 春雨 и позиция 1 в 雨. Это настоящие концы текстов, и модель должна научиться предсказывать там EOS. Если считать EOS дополнением и игнорировать его (например, выбрасывать из функции потерь позиции, где `targets == EOS`), останется только 3 учитываемые позиции, и модель так и не узнает, где заканчивается текст.

Из-за того, как `collate` собирает батч, позиции со входом EOS — это ровно позиции с меткой −100. И всё же, что учитывать, решают только целевые метки. Прямой проход не получает никакой маски дополнения и ничего не скрывает в зависимости от значения входа: для него EOS на входе — обычный номер токена.

Поэтому же EOS нельзя объявлять индексом дополнения (например, `padding_idx` у `nn.Embedding` в PyTorch или `ignore_index` у функции потерь): EOS — настоящий токен, его предсказывают как целевую метку, а на входе у него есть собственный вектор эмбеддинга; объявить его дополнением значит превратить настоящий токен в ничто. Роль дополнения разделена между двумя вещами: обычный EOS как заполнитель во входах, чей запрос не учитывается, и −100 в целевых метках, которое вообще не номер токена — `decode` его попросту отвергает:
""")

code("""
assert ((inputs == EOS) == ~scored).all()        # true for collate's layout, yet only targets decide
try:
    decode([IGNORE], vocab)
except ValueError as err:
    print(type(err).__name__, IGNORE)
else:
    raise AssertionError("-100 is not a token id")
""")

md(zh=r"""
右填充之所以无害，还有一个原因：有效查询读不到填充。填充总在有效位置的右边，而对有效查询 i 而言，右边全是未来。把「雨」不加填充单独计算（T = 2），得到的两个输出与批量中的前两个输出一致：
""", en=r"""
There is one more reason why right padding is harmless: valid queries cannot read it. Padding always lies to the right of the valid positions, and for a valid query i everything to the right is future. Computing 雨 alone without padding (T = 2) gives the same two outputs as the first two outputs of its row in the batch:
""", ru=r"""
Есть и ещё одна причина, по которой дополнение справа безвредно: его не видят настоящие запросы, то есть запросы в позициях самого текста. Дополнение всегда стоит правее настоящих позиций, а для настоящего запроса i всё, что правее, — будущее. Если посчитать 雨 отдельно, без дополнения (T = 2), получатся те же два выхода, что и первые два выхода его строки в батче:
""")

code("""
alone = E[[BOS, 4]]                              # 雨 without padding, T = 2
Y_alone = causal_attention(alone, alone, alone)
gap = float(np.abs(Y[1, :2] - Y_alone).max())
print(round(gap, 12))
assert gap < 1e-12
""")

md(zh=r"""
两者之差为 0.0（保留 12 位小数）。

## 1.8 为什么不用左填充

如果改成左填充，把「雨」写成 [EOS, BOS, 雨]，上面的推理就不再成立。填充跑到了有效位置的左边，而左边恰好是因果掩码允许读取的区域：
""", en=r"""
The difference is 0.0 (to 12 decimals).

## 1.8 Why not left padding

Pad 雨 on the left instead, as [EOS, BOS, 雨], and the argument above falls apart. The padding now lies to the left of the valid positions, which is exactly where the causal mask allows reading:
""", ru=r"""
Разница равна нулю (с точностью до 12 знаков после запятой).

## 1.8 Почему не дополнение слева

Если дополнить 雨 слева, как [EOS, BOS, 雨], рассуждение выше рушится. Теперь дополнение стоит левее настоящих позиций — как раз там, где причинная маска чтение разрешает:
""")

code("""
left = E[[EOS, BOS, 4]]                          # 雨 padded on the left
Y_left = causal_attention(left, left, left)
print(allowed[1:, 0])                            # may the valid queries 1 and 2 read key 0?
gap_left = float(np.abs(Y_left[1:] - Y_alone).max())
print(round(gap_left, 6))
assert allowed[1:, 0].all() and round(gap_left, 2) == 0.33
""")

md(zh=r"""
有效查询 1 和 2 都能读到填充键 0，输出与不填充时相比，最大绝对差约为 0.33。要支持左填充，就得为每个样本另加一个屏蔽填充键的掩码；而且 BOS 不再位于位置 0，§3 中按位置编号加上去的位置向量也要随之平移。这是一套新的掩码与位置契约，本课程的前向计算不支持它，也不声称支持。

## 1.9 实验：只改最后一行

最后用一个实验把前面的结论串起来。取三个位置、宽度为 4 的输入 X（仍令 q = k = v = X），只改变最后一行 X[2]，看输出 Y 的哪些行会跟着变。有因果掩码时，第 0 行和第 1 行根本读不到位置 2，必须分毫不差；去掉掩码（`unmasked_attention`，它在 §4 中充当阴性对照）之后，未来就会漏进前面的行。

先用一个固定的改动算一次：把 X[2] 换成 [2, −2, 2, −2]，对每一行打印 max_j |ΔY[i, j]|：
""", en=r"""
The valid queries 1 and 2 can both read the padding key 0, and their outputs differ from the unpadded ones by about 0.33 (largest absolute difference). Supporting left padding would need an extra per-example mask that hides padding keys; moreover BOS would no longer sit at position 0, so the position vectors of §3, added by position index, would have to shift as well. That is a new mask and position contract; the forward pass of this course does not support it and does not claim to.

## 1.9 Experiment: change only the last row

A last experiment ties the section together. Take an input X with three positions and width 4 (again q = k = v = X), change only its last row X[2], and see which rows of the output Y move. With the causal mask, rows 0 and 1 cannot read position 2 at all and must stay exactly the same. Without the mask (`unmasked_attention`, which serves as the negative control in §4) the future leaks into the earlier rows.

First a fixed change, computed once: replace X[2] by [2, −2, 2, −2] and print max_j |ΔY[i, j]| for every row:
""", ru=r"""
Настоящие запросы 1 и 2 оба видят ключ дополнения 0, и их выходы отличаются от выходов без дополнения примерно на 0,33 (наибольшая абсолютная разница). Чтобы поддержать дополнение слева, понадобилась бы ещё одна маска для каждого примера, скрывающая ключи дополнения; к тому же BOS оказался бы не в позиции 0, и векторы позиций из §3, прибавляемые по номеру позиции, тоже пришлось бы сдвигать. Это уже новый договор о масках и позициях; прямой проход этого курса его не поддерживает и не делает вид, что поддерживает.

## 1.9 Эксперимент: меняем только последнюю строку

Свяжем всё сказанное одним экспериментом. Возьмём вход X из трёх позиций ширины 4 (снова q = k = v = X), изменим только его последнюю строку X[2] и посмотрим, какие строки выхода Y сдвинутся. С причинной маской строки 0 и 1 вообще не видят позицию 2 и обязаны остаться в точности прежними. Без маски (`unmasked_attention`, в §4 она служит отрицательным контролем) будущее просачивается в более ранние строки.

Сначала одно фиксированное изменение: заменим X[2] на [2, −2, 2, −2] и напечатаем max_j |ΔY[i, j]| для каждой строки:
""")

code("""
X = np.random.default_rng(1).normal(size=(3, 4)).round(1)
X_new = X.copy()
X_new[2] = [2.0, -2.0, 2.0, -2.0]                # only the last row changes

change = {}
for name, attend in [("causal", causal_attention), ("unmasked", unmasked_attention)]:
    change[name] = np.abs(attend(X_new, X_new, X_new) - attend(X, X, X))   # (T, D)
    print(name, np.round(change[name].max(axis=1), 6))
assert change["causal"][:2].max() == 0.0
assert change["causal"][2].max() > 0 and change["unmasked"][:2].max(axis=1).min() > 0
""")

md(zh=r"""
有掩码时，第 0 行和第 1 行的最大变化恰好是 0.0，变的只有第 2 行；去掉掩码后，三行都变了。下面的热力图画出每个元素的 |ΔY[i, j]|（横轴 j 这里是特征维度）：
""", en=r"""
With the mask the largest change in rows 0 and 1 is exactly 0.0 and only row 2 moves; without it all three rows move. The heatmaps show |ΔY[i, j]| for every entry (here the axis j runs over features):
""", ru=r"""
С маской наибольшее изменение строк 0 и 1 равно ровно нулю, сдвигается только строка 2; без маски сдвигаются все три строки. Тепловые карты показывают |ΔY[i, j]| для каждого элемента (ось j здесь пробегает признаки):
""")

code("""
top = max(float(m.max()) for m in change.values())
plots.heatmaps(
    [change["causal"], change["unmasked"]],
    ["|ΔY|  causal_attention", "|ΔY|  unmasked_attention"],
    labels=[[[f"{v:.2f}" for v in row] for row in m] for m in change.values()],
    cmap="Reds", vmax=top,
)
plt.show()
""")

md(zh=r"""
现在亲手改动 X[2]。每个滑块以 0.5 为步长改变 X[2] 的一个分量；表格对两种计算分别列出每行输出与 X 未改动时相比的最大变化 max|ΔY[i]|。无论滑块怎么放，`causal_attention` 的第 0、1 行始终恰好是 0，`unmasked_attention` 的三行却都跟着变。

在网页上，滑块直接就能拖动：每一种设置的结果都是运行这本笔记本时由 `lib` 算好的。在 Jupyter 中，先运行这个单元格。
""", en=r"""
Now change X[2] yourself. Each slider moves one entry of X[2] in steps of 0.5; for both computations the table lists the largest change of every output row from the output for the unchanged X, max|ΔY[i]|. Wherever the sliders are, rows 0 and 1 of `causal_attention` stay exactly 0, while all three rows of `unmasked_attention` move.

On the website the sliders work as they are: the result of every setting was computed by `lib` when this notebook ran. In Jupyter, run the cell first.
""", ru=r"""
Теперь измените X[2] сами. Каждый ползунок меняет один элемент X[2] с шагом 0,5; в таблице для обоих вычислений показано наибольшее изменение каждой строки выхода по сравнению с выходом для исходного X, max|ΔY[i]|. Где бы ни стояли ползунки, строки 0 и 1 у `causal_attention` остаются ровно нулевыми, а у `unmasked_attention` меняются все три строки.

На сайте ползунки работают сразу: результат для каждого положения посчитан `lib` при выполнении этого блокнота. В Jupyter сначала выполните ячейку.
""")

code("""
from lib.interactive import last_row_experiment

figure = last_row_experiment(X, [causal_attention, unmasked_attention])
rows_01 = {name: change[:, :2] for name, change in figure.changes.items()}    # (states, 2)
#zh 每一种设置下：有掩码时恰好为 0；无掩码时，除了 X 未改动的那一种，都不为 0
#en every setting: exactly 0 with the mask; without it nonzero, except for X unchanged
#ru при любом положении: с маской ровно 0; без маски не 0, кроме положения с исходным X
assert (rows_01["causal_attention"] == 0).all()
assert (rows_01["unmasked_attention"] > 0).sum() == 2 * (len(figure.states) - 1)
figure
""")

md(zh=r"""
## 小结

* 先确定许可集合 j ≤ i，再在它上面归一化。先 softmax 后清零，不但行和不为 1，未来还会经由分母漏进来。
* 位置 i 可以读取自己：输入 i 是已经看到的词元，答案在位置 i + 1。位置 0 上的 BOS 保证每个查询至少有一个可读的键。
* `allowed`（真 = 允许读取）和 `future`（真 = 禁止读取）互为补集，按名字传参，绝不互换。
* 全部被遮住的行是错误，必须报错，既不是 NaN，也不是均匀分布。
* 右填充位置的查询照常计算，是否计分只看目标是否为 −100；真实的 EOS 目标必须计分，EOS 不是填充编号。
* 左填充需要一套新的掩码与位置契约，本课程不支持。

本节的练习在 `exercises/zh/ex01_allowed_set.ipynb`。下一节（§2）把一个头拆成多个头。
""", en=r"""
## Summary

* Fix the allowed set j ≤ i first, then normalise over it. Softmax first and zeroing afterwards not only breaks the row sums, it also lets the future in through the denominator.
* Position i may read itself: input i is a token already seen, and the answer sits at position i + 1. BOS at position 0 guarantees every query at least one readable key.
* `allowed` (True = may read) and `future` (True = forbidden) are complements; pass them by name and never one for the other.
* A fully masked row is an error that must raise; it is neither NaN nor a uniform row.
* Queries at right-padded positions are computed as usual; whether they are scored depends only on whether the target is −100. Real EOS targets must be scored, and EOS is not a padding index.
* Left padding would need a new mask and position contract, which this course does not support.

The exercises for this section are in `exercises/en/ex01_allowed_set.ipynb`. The next section (§2) splits one head into several.
""", ru=r"""
## Итоги

* Сначала фиксируем множество разрешённых позиций j ≤ i, затем нормируем по нему. Если сначала применить softmax, а потом обнулить будущее, нарушаются не только суммы строк: будущее просачивается через знаменатель.
* Позиции i можно читать саму себя: вход i — уже увиденный токен, а ответ лежит в позиции i + 1. BOS в позиции 0 гарантирует каждому запросу хотя бы один доступный ключ.
* `allowed` (True — читать можно) и `future` (True — читать нельзя) дополняют друг друга; передавайте их по имени и никогда не подставляйте одну вместо другой.
* Полностью замаскированная строка — ошибка, о которой сообщает исключение; это не NaN и не равномерное распределение.
* Запросы в позициях дополнения справа вычисляются как обычно; учитываются ли они, зависит только от того, равна ли целевая метка −100. Настоящие целевые метки EOS обязательно учитываются, и EOS — не индекс дополнения.
* Дополнение слева потребовало бы нового договора о масках и позициях; этот курс его не поддерживает.

Упражнения к разделу — в `exercises/ru/ex01_allowed_set.ipynb`. В следующем разделе (§2) одна голова превращается в несколько.
""")
