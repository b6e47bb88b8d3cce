# §1 The allowed set before softmax.  Trilingual source: see tools/nbsource.py.

md(zh=r"""
# 1 先定许可集合，再做 softmax

在 §0.2 的例子里，每个查询都读到了全部位置，包括它的未来。对一个要学“预测下一个词元”的模型来说，这是致命的：位置 t 的答案就放在位置 t + 1，查询如果能读到它，照抄即可，根本不必学会预测。

本节规定每个查询能读哪些位置，也就是**许可集合**，并说明为什么这个限制必须放在 softmax 之前，而不是之后。顺带把本章依赖的数据协议定下来：文本怎样变成编号，批量怎样补齐，以及哪些输出参与计分。最后的 §1.10 是进阶内容（浮点下溢、填充编号、左填充），初读时可以跳过。
""", en=r"""
# 1 The allowed set comes before softmax

In the example of §0.2 every query read every position, its future included. For a model trained to predict the next token that is fatal: the answer for position t sits at position t + 1, and a query that can read it will copy it instead of learning to predict it.

This section fixes what each query may read, the **allowed set**, and shows why the restriction has to be applied before softmax rather than after it. Along the way we settle the data protocol the whole chapter relies on: how texts become ids, how a batch is padded, and which outputs are scored. The last part, §1.10, goes deeper (floating-point underflow, padding indices, left padding) and can be skipped on a first reading.
""", ru=r"""
# 1 Сначала множество разрешённых позиций, потом softmax

В примере из §0.2 каждый запрос читал все позиции, включая своё будущее. Для модели, которую учат предсказывать следующий токен, это губительно: ответ для позиции t лежит в позиции t + 1, и запрос, которому он виден, просто скопирует его, вместо того чтобы научиться предсказывать.

В этом разделе мы определим, что может читать каждый запрос, — **множество разрешённых позиций** — и покажем, почему это ограничение накладывается до softmax, а не после. Попутно зафиксируем протокол данных, на который опирается вся глава: как тексты превращаются в номера токенов, как дополняется батч и какие выходы учитываются в функции потерь. Последняя часть, §1.10, идёт глубже (исчезновение порядка, индексы дополнения, дополнение слева); при первом чтении её можно пропустить.
""")

md(zh=r"""
## 1.1 三个位置、分数全为零

先看最简单的例子：三个位置，所有分数 S 都是 0。查询 i 可以读取键 $j \le i$，包括它自己的位置（为什么读自己是安全的，见 §1.3）。在这个许可集合上做 softmax：

$$
A_{ij} =
\begin{cases}
\dfrac{\exp S_{ij}}{\sum_{r \le i} \exp S_{ir}}, & j \le i,\\[2ex]
0, & j > i.
\end{cases}
$$

第 i 行只在 i + 1 个可读位置上分配权重，分数都一样，于是平分：
""", en=r"""
## 1.1 Three positions, all scores zero

Start with the simplest case: three positions and all scores S equal to 0. Query i may read the keys $j \le i$, its own position included (§1.3 shows why reading itself is safe). Softmax over this allowed set is

$$
A_{ij} =
\begin{cases}
\dfrac{\exp S_{ij}}{\sum_{r \le i} \exp S_{ir}}, & j \le i,\\[2ex]
0, & j > i.
\end{cases}
$$

Row i spreads its weight over its i + 1 readable positions; the scores are equal, so they share it equally:
""", ru=r"""
## 1.1 Три позиции, все оценки нулевые

Начнём с простейшего случая: три позиции, все оценки S равны 0. Запрос i может читать ключи $j \le i$, включая собственную позицию (почему читать себя безопасно, показано в §1.3). Softmax по этому множеству разрешённых позиций выглядит так:

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
import numpy as np
import matplotlib.pyplot as plt
from fractions import Fraction

from figures import plots
from lib.attention import (attention_scores, causal_attention,
                           causal_future, masked_softmax,
                           unmasked_attention)
from lib.data import BOS, EOS, IGNORE, UNK, build_vocab, collate, decode

def as_fractions(w):
    return [[str(Fraction(float(x)).limit_denominator(100)) for x in row]
            for row in np.atleast_2d(w)]

#zh 真 = 禁止读取：键 j 在查询 i 之后
#en True = forbidden: key j comes after query i
#ru True — читать нельзя: ключ j стоит после запроса i
future = causal_future(3, 3)
allowed = ~future  #zh 真 = 允许读取：j ≤ i #en True = may read: j ≤ i #ru True — читать можно: j ≤ i
S = np.zeros((3, 3))
weights = masked_softmax(S, allowed)
print(as_fractions(weights))
assert np.allclose(weights, [[1, 0, 0], [1/2, 1/2, 0], [1/3, 1/3, 1/3]])
assert (weights[future] == 0.0).all()
assert np.allclose(weights.sum(axis=1), 1.0)
""")

md(zh=r"""
第 0 行只有一个可读的键，权重是 [1, 0, 0]；第 1 行是 [1/2, 1/2, 0]；第 2 行三个位置都可读，各得 1/3。被禁止的项严格等于 0，每一行的和都是 1。（反过来，权重恰好为 0 是否说明那个键被禁止了？不一定，§1.10 会说明浮点数里什么时候会出现这种情况。）
""", en=r"""
Row 0 has a single readable key and gets the weights [1, 0, 0]; row 1 gets [1/2, 1/2, 0]; row 2 may read all three positions and gives each 1/3. Forbidden entries are exactly 0 and every row sums to 1. (The converse, that a weight of exactly 0 means a forbidden key, does not hold in floating point; §1.10 shows when it fails.)
""", ru=r"""
У строки 0 только один доступный ключ, её веса — [1, 0, 0]; у строки 1 — [1/2, 1/2, 0]; строка 2 может читать все три позиции и отдаёт каждой по 1/3. Запрещённые элементы в точности равны 0, сумма каждой строки равна 1. (Обратное — что вес, равный ровно 0, означает запрещённый ключ, — в арифметике с плавающей точкой неверно; когда именно, показано в §1.10.)
""")

md(zh=r"""
## 1.2 数据协议

本章凡是涉及文本的例子，都遵循同一个数据协议，也就是 `lib/data.py` 中实现的那一套：

* 三个特殊词元占据最前面的编号：`<unk>` = 0（词表外的字符），`<bos>` = 1（序列开始），`<eos>` = 2（序列结束）；
* 其余词元是训练文本中出现过的字符，去重后按 Unicode 码位从小到大排序，依次编号；
* 没有单独的 PAD 编号。同一批量中较短的文本在右侧补齐：输入补 EOS，目标补 −100。

用“春”“雨”“风”三个字构造词表：
""", en=r"""
## 1.2 The data protocol

Every example with text in this chapter follows one data protocol, the one implemented in `lib/data.py`:

* three special tokens take the first ids: `<unk>` = 0 (a character outside the vocabulary), `<bos>` = 1 (beginning of sequence), `<eos>` = 2 (end of sequence);
* the remaining tokens are the distinct characters of the training texts, sorted by Unicode code point and numbered in that order;
* there is no separate PAD id. Shorter texts in a batch are padded on the right: inputs with EOS, targets with −100.

Here is the vocabulary built from the three characters 春 (spring), 雨 (rain) and 风 (wind):
""", ru=r"""
## 1.2 Протокол данных

Все примеры главы, где есть текст, следуют одному протоколу данных — тому, который реализован в `lib/data.py`:

* три специальных токена занимают первые номера: `<unk>` = 0 (символ вне словаря), `<bos>` = 1 (начало последовательности), `<eos>` = 2 (конец последовательности);
* остальные токены — различные символы обучающих текстов, упорядоченные по возрастанию кодовой позиции Unicode и пронумерованные в этом порядке;
* отдельного номера PAD нет. Более короткие тексты в батче дополняются справа: входы — токеном EOS, целевые метки — числом −100.

Построим словарь из трёх иероглифов 春 («весна»), 雨 («дождь») и 风 («ветер»):
""")

code("""
vocab = build_vocab(["春雨", "风"])
print(vocab)
print([f"U+{ord(ch):04X}" for ch in vocab[3:]])
assert (UNK, BOS, EOS, IGNORE) == (0, 1, 2, -100)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
""")

md(zh=r"""
三个字的码位依次增大，所以“春”“雨”“风”的编号分别是 3、4、5。

`lib.data.collate` 把一组文本整理成一个批量。每一行的输入以 BOS 开头，后面跟着文本的字符；目标则是文本的字符后面再跟一个 EOS。批量的长度 T 等于最长文本的长度加一。以 ["春雨", "雨"] 为例：
""", en=r"""
The code points increase in that order, so 春, 雨 and 风 get the ids 3, 4 and 5.

`lib.data.collate` turns a list of texts into a batch. Each row of inputs starts with BOS and continues with the characters of the text; the targets are the characters of the text followed by one EOS. The batch length T is one more than the length of the longest text. For ["春雨", "雨"]:
""", ru=r"""
Кодовые позиции возрастают именно в этом порядке, поэтому 春, 雨 и 风 получают номера 3, 4 и 5.

Функция `lib.data.collate` собирает из списка текстов батч. Каждая строка входов начинается с BOS, за которым идут символы текста; целевые метки — это символы текста, за которыми следует один EOS. Длина батча T на единицу больше длины самого длинного текста. Для ["春雨", "雨"]:
""")

code("""
inputs, targets = collate(["春雨", "雨"], vocab)
print(inputs)
print(targets)
assert inputs.tolist() == [[1, 3, 4], [1, 4, 2]]
assert targets.tolist() == [[3, 4, 2], [4, 2, -100]]
""")

md(zh=r"""
第 0 行“春雨”正好占满 T = 3，不需要补齐。第 1 行“雨”只有一个字：输入末尾补了一个 EOS（编号 2），目标末尾补了 −100。注意这一行里两个 2 的身份完全不同：目标第 1 位的 2 是“雨”这段文本真正的结尾，模型必须学会预测它；输入第 2 位的 2 只是占位用的填充。

## 1.3 为什么位置 i 可以读取它自己

把输入和目标逐位对齐来看。位置 t 的输入是已经看到的第 t 个词元，位置 t 的输出用来预测目标 t，也就是紧接着的下一个词元：
""", en=r"""
Row 0, 春雨, fills T = 3 and needs no padding. Row 1, 雨, has a single character: its inputs end with one EOS (id 2) and its targets end with −100. Note that the two 2s in this row play entirely different roles. The 2 at target position 1 is the real end of the text 雨, and the model must learn to predict it; the 2 at input position 2 is only filler.

## 1.3 Why position i may read itself

Line the inputs up with the targets. The input at position t is token t, which has already been seen; the output at position t is used to predict target t, the token that comes next:
""", ru=r"""
Строка 0 (春雨) занимает ровно T = 3 позиции, и дополнять её не нужно. В строке 1 (雨) всего один символ: в конец входов добавлен один EOS (номер 2), в конец целевых меток — число −100. Обратите внимание, что две двойки в этой строке играют совершенно разные роли. Двойка в позиции 1 целевых меток — настоящий конец текста 雨, и модель должна научиться её предсказывать; двойка в позиции 2 входов — всего лишь заполнитель.

## 1.3 Почему позиции i можно читать саму себя

Поставим входы и целевые метки друг под другом. Вход в позиции t — это уже увиденный токен t; выход в позиции t служит для предсказания целевой метки t, то есть следующего токена:
""")

code("""
for b in range(len(inputs)):
    pairs = [
        f"{decode([x], vocab)}→{decode([y], vocab) if y != IGNORE else y}"
        for x, y in zip(inputs[b], targets[b])]
    print("  ".join(pairs))

scored = targets != IGNORE
for b, t in zip(*np.nonzero(scored[:, :-1])):
    #zh 查询 t 的答案就是位置 t + 1 上的输入
    #en the answer of query t is the input at position t + 1
    #ru ответ запроса t — это вход в позиции t + 1
    assert targets[b, t] == inputs[b, t + 1]
""")

md(zh=r"""
这里能读出两件事。第一，目标 t 恰好是输入 t + 1（代码对每个计分位置都核对了这一点）：答案总在下一个位置，所以查询 i 读取键 $j \le i$ 看不到自己的答案，而键 i + 1 正是第一个必须禁止的位置。第二，位置 i 读取它自己是安全的，因为输入 i 是已经看到的词元，不是答案。位置 0 也是如此：那里放的是 BOS，它在任何字符出现之前就已确定，读它不会泄漏第一个字；“春”只出现在目标里。所以许可集合是 $j \le i$，包括对角线在内。

下图上半部分画的就是五个位置时的情形。下半部分是 KV 缓存的情形：几个新查询面对的键比查询多，§5 会回到它。

![两个网格。上图：5 个位置 BOS 春 风 春 雨，查询 i 为行、键 j 为列，j ≤ i 的格子（对角线及其左下方）允许读取，右上方的未来格子禁止读取；每行的目标，即输入 i + 1，正是这一行第一个被禁止的格子。下图：缓存了 3 个位置之后，2 个新查询读 5 个键，查询 i 位于位置 3 + i；允许的格子是上图三角形的右下角，即它的最后两行。](figures/allowed_pairs.svg)

## 1.4 因果掩码的两个名字：`allowed` 与 `future`

同一个因果约束可以写成两种布尔数组。本章给它们起了不同的名字，而且从不混用：

* `allowed[i, j]` 为真，表示查询 i **允许读取**键 j。它是 `lib.attention.masked_softmax(scores, allowed)` 的参数。
* `future[i, j]` 为真，表示键 j 位于查询 i 的**未来**，**禁止读取**。它由 `lib.attention.causal_future(tq, tk)` 生成。

两者互为补集：`allowed == ~future`。
""", en=r"""
Two things follow. First, target t is input t + 1 (the code checks this at every scored position). The answer always sits at the next position, so a query i that reads keys $j \le i$ never sees its own answer, and key i + 1 is precisely the first key that must be forbidden. Second, reading itself is safe for position i, because input i is a token already seen, not the answer. Position 0 is no exception: it holds BOS, which is fixed before any character appears, so reading it reveals nothing about the first character; 春 appears only among the targets. The allowed set is therefore $j \le i$, diagonal included.

The upper grid of the figure draws this for five positions. The lower grid is the case of a KV cache, where a few new queries face more keys than there are queries; §5 returns to it.

![Two grids. Top: five positions BOS 春 风 春 雨, queries i as rows and keys j as columns; the cells with j ≤ i (the diagonal and below) are allowed, the future cells above it are forbidden, and each row's target, input i + 1, is the row's first forbidden cell. Bottom: after a cache of 3 positions, 2 new queries read 5 keys and query i stands at position 3 + i; the allowed cells are the bottom-right corner of the triangle above, its last two rows.](figures/allowed_pairs.svg)

## 1.4 One constraint, two names: `allowed` and `future`

The same causal constraint can be written as two different boolean arrays. The course gives them different names and never mixes them up:

* `allowed[i, j]` is True when query i **may read** key j. This is the argument of `lib.attention.masked_softmax(scores, allowed)`.
* `future[i, j]` is True when key j lies in the **future** of query i, so reading it is **forbidden**. It is built by `lib.attention.causal_future(tq, tk)`.

They are complements: `allowed == ~future`.
""", ru=r"""
Отсюда следуют две вещи. Во-первых, целевая метка t в точности равна входу t + 1 (код проверяет это во всех учитываемых позициях): ответ всегда находится в следующей позиции, поэтому запрос i, читающий ключи $j \le i$, своего ответа не видит, а ключ i + 1 — как раз первый ключ, который нужно запретить. Во-вторых, позиции i безопасно читать саму себя: вход i — уже увиденный токен, а не ответ. Это верно и для позиции 0: там стоит BOS, известный ещё до появления любого символа, так что, читая его, запрос ничего не узнаёт о первом символе; 春 есть только среди целевых меток. Итак, множество разрешённых позиций — это $j \le i$, включая диагональ.

Верхняя сетка рисунка показывает это для пяти позиций. Нижняя — случай KV-кэша, когда у нескольких новых запросов ключей больше, чем самих запросов; к нему мы вернёмся в §5.

![Две сетки. Сверху: пять позиций BOS 春 风 春 雨, запросы i — строки, ключи j — столбцы; клетки с j ≤ i (диагональ и ниже) разрешены, клетки будущего выше неё запрещены, а целевая метка строки, вход i + 1, — первая запрещённая клетка строки. Снизу: после кэша из 3 позиций 2 новых запроса читают 5 ключей, запрос i стоит в позиции 3 + i; разрешённые клетки — правый нижний угол треугольника сверху, его две последние строки.](figures/allowed_pairs.svg)

## 1.4 Одно ограничение, два имени: `allowed` и `future`

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

def refusal(function, *args):
    #zh function(*args) 必须抛出 ValueError；返回这个错误
    #en function(*args) must raise a ValueError; return it
    #ru function(*args) обязана выбросить ValueError; вернуть его
    try:
        function(*args)
    except ValueError as err:
        return err
    raise AssertionError(f"{function.__name__} accepted its arguments")

#zh 故意传错数组
#en the wrong array, passed on purpose
#ru нарочно передан не тот массив
err = refusal(masked_softmax, np.zeros((3, 3)), future)
print(type(err).__name__, np.flatnonzero(~future.any(axis=1)))
assert "row (2,)" in str(err)
""")

md(zh=r"""
如果把 `future` 当成 `allowed` 传进去，每个查询读到的恰好是它不该读的位置。在方阵里，`future` 的最后一行全为假，于是第 2 行没有任何可读的键，库会报错，我们才侥幸发现传错了。别的掩码错误未必会这样自己暴露出来。稳妥的做法是按名字传参：`allowed` 表示允许，`future` 表示禁止，两者从不互换。
""", en=r"""
If `future` is passed where `allowed` belongs, every query reads the very keys it must not read. In a square mask the last row of `future` is all False, so row 2 has no key to read and the library raises an error; that is the only reason the mistake is caught here. Do not count on such luck: pass masks by name, `allowed` for what may be read, `future` for what may not.
""", ru=r"""
Если подать `future` туда, где ожидается `allowed`, каждый запрос будет читать ровно те ключи, которые ему читать нельзя. В квадратной маске последняя строка `future` целиком состоит из False, поэтому у строки 2 не остаётся ни одного ключа, и библиотека выдаёт ошибку — только благодаря этому путаница здесь и обнаружилась. Не стоит рассчитывать на такую удачу. Передавайте маски по имени: `allowed` — то, что читать можно, `future` — то, что нельзя.
""")

md(zh=r"""
## 1.5 分数为 0 并不等于禁止

一个很自然的误解是：把禁止位置的分数置为 0（例如写成 `scores * allowed`，或者 `np.where(allowed, scores, 0)`），这些键就被禁止了。可是 0 只是一个普通的分数，softmax 给它的是 $\exp(0) = 1$，与一个分数同样为 0 的许可键毫无差别。在分数全为零的例子里，禁止位置的分数本来就是 0，把它们“清零”什么也没改变：
""", en=r"""
## 1.5 A score of 0 forbids nothing

A natural misconception is that setting the forbidden scores to 0 (say with `scores * allowed`, or `np.where(allowed, scores, 0)`) hides those keys. But 0 is just an ordinary score: softmax gives it $\exp(0) = 1$, the same as an allowed key with score 0. In the all-zero example the forbidden scores are 0 already, so "zeroing" them changes nothing:
""", ru=r"""
## 1.5 Нулевая оценка ничего не запрещает

Напрашивается ошибочная мысль: если заменить оценки запрещённых ключей нулём (например, `scores * allowed` или `np.where(allowed, scores, 0)`), эти ключи будут скрыты. Но 0 — обычная оценка: softmax даёт ей $\exp(0) = 1$, ровно столько же, сколько разрешённому ключу с нулевой оценкой. В примере с нулевыми оценками запрещённые оценки и так равны 0, и их «обнуление» ничего не меняет:
""")

code("""
def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

#zh 错误：禁止位置的分数置 0，而不是排除在外
#en wrong: forbidden scores set to 0 instead of being excluded
#ru ошибка: запрещённые оценки заменены нулём, а не исключены
zero_scores = softmax(np.where(allowed, S, 0.0))
print(as_fractions(zero_scores))
print(np.exp(0.0))
assert np.allclose(zero_scores, 1/3) and (zero_scores[future] > 0).all()

#zh 加性掩码：许可位置加 0，禁止位置加 −∞
#en additive mask: 0 where allowed, −∞ where forbidden
#ru аддитивная маска: 0 там, где можно, −∞ там, где нельзя
additive = softmax(S + np.where(allowed, 0.0, -np.inf))
assert np.allclose(additive, weights) and (additive[future] == 0.0).all()
""")

md(zh=r"""
三行都变成了 [1/3, 1/3, 1/3]：查询 0 把三分之二的权重给了它的未来，查询 1 也把三分之一给了未来。要禁止一个键，就得把它排除在归一化之外：在 `masked_softmax` 中它根本不进入分母；在常见的加性掩码中，禁止位置的分数加上 $-\infty$，因为只有 $\exp(-\infty)$ 才等于 0。代码也核对了，加性掩码得到的权重与 `masked_softmax` 相同。

## 1.6 错误的顺序：先 softmax，后清零

另一个常见的错误是清零的对象对了，时机却错了：先对全部位置做普通的 softmax，再把未来位置的**权重**清零。同样的例子里，softmax 先把每一行都变成 [1/3, 1/3, 1/3]，清零之后：
""", en=r"""
All three rows become [1/3, 1/3, 1/3]: query 0 gives two thirds of its weight to its future, and query 1 gives it one third. Forbidding a key means excluding it from the normalisation: in `masked_softmax` it never enters the denominator, and in the familiar additive mask its score gets $-\infty$ added, because only $\exp(-\infty)$ equals 0. The code also checks that the additive mask gives the same weights as `masked_softmax`.

## 1.6 The wrong order: softmax first, zero the future afterwards

Another common mistake zeroes the right thing at the wrong time: it applies an ordinary softmax over all positions and only then sets the future **weights** to zero. In the same example softmax first turns every row into [1/3, 1/3, 1/3]; after zeroing:
""", ru=r"""
Все три строки становятся [1/3, 1/3, 1/3]: запрос 0 отдаёт своему будущему две трети веса, запрос 1 — треть. Запретить ключ — значит исключить его из нормализации: в `masked_softmax` он вообще не входит в знаменатель, а в привычной аддитивной маске к его оценке прибавляют $-\infty$, потому что в 0 обращается только $\exp(-\infty)$. Код заодно проверяет, что аддитивная маска даёт те же веса, что и `masked_softmax`.

## 1.6 Неправильный порядок: сначала softmax, потом обнуление будущего

Другая частая ошибка — обнулить то, что нужно, но не в тот момент: сначала применить обычный softmax ко всем позициям и лишь затем обнулить **веса** будущих позиций. В том же примере softmax сначала превращает каждую строку в [1/3, 1/3, 1/3], а после обнуления получается:
""")

code("""
#zh 先在所有键上归一化，再把未来清零
#en normalise over every key, then zero the future
#ru нормализация по всем ключам, затем обнуление будущего
wrong = softmax(S) * allowed
print(as_fractions(wrong))
print(as_fractions(wrong.sum(axis=1)))
assert np.allclose(wrong, [[1/3, 0, 0], [1/3, 1/3, 0], [1/3, 1/3, 1/3]])
assert np.allclose(wrong.sum(axis=1), [1/3, 2/3, 1])

renormalised = wrong / wrong.sum(axis=1, keepdims=True)
assert np.allclose(renormalised, weights)
""")

md(zh=r"""
第 0 行变成 [1/3, 0, 0]，和为 1/3；第 1 行变成 [1/3, 1/3, 0]，和为 2/3；只有没有未来位置的第 2 行保持 [1/3, 1/3, 1/3]，和为 1。前两行已经不是概率分布了。清零之后再按行重新归一化，可以恢复正确的权重（代码里核对过），但这不过是“在许可集合上归一化”的另一种写法。

下图把正确的做法与两种错误并排画出：左边是 `masked_softmax`，中间是把禁止分数置 0（§1.5），右边是先 softmax 后清零；每行右侧标出了行和：
""", en=r"""
Row 0 becomes [1/3, 0, 0] and sums to 1/3; row 1 becomes [1/3, 1/3, 0] and sums to 2/3; only row 2, which has no future, keeps [1/3, 1/3, 1/3] and sums to 1. The first two rows are no longer probability distributions. Renormalising each row after zeroing does recover the correct weights (the code checks it), but that is just another way of writing "normalise over the allowed set".

The figure puts the right way next to the two wrong ones: on the left `masked_softmax`, in the middle forbidden scores set to 0 (§1.5), on the right softmax first and zeroing afterwards. Each row's sum is written to its right:
""", ru=r"""
Строка 0 превращается в [1/3, 0, 0] с суммой 1/3; строка 1 — в [1/3, 1/3, 0] с суммой 2/3; лишь строка 2, у которой нет будущего, остаётся [1/3, 1/3, 1/3] с суммой 1. Первые две строки больше не являются распределениями вероятностей. Если после обнуления заново нормализовать каждую строку, правильные веса восстанавливаются (код это проверяет), но это лишь другая запись того же правила: нормализовать по множеству разрешённых позиций.

На рисунке правильный способ стоит рядом с двумя неправильными: слева `masked_softmax`, в середине запрещённые оценки заменены нулём (§1.5), справа сначала softmax, потом обнуление. Справа от каждой строки подписана её сумма:
""")

code("""
plots.heatmaps(
    [weights, zero_scores, wrong],
    ["masked_softmax(S, allowed)", "softmax(where(allowed, S, 0))",
     "softmax(S) * allowed"],
    labels=[as_fractions(weights), as_fractions(zero_scores),
            as_fractions(wrong)],
    row_sums=True,
)
plt.show()
""", alt=dict(
    zh="三张 3×3 热力图，行 i 为查询，列 j 为键。左：masked_softmax，右上三角为 0，行和都是 1。中：禁止分数置 0，每格都是 1/3，未来被读到。右：先 softmax 后清零，行和为 1/3、2/3、1。",
    en="Three 3×3 heatmaps, rows i are queries, columns j keys. Left, masked_softmax: zeros above the diagonal, every row sums to 1. Middle, forbidden scores set to 0: 1/3 everywhere, the future is read. Right, softmax then zeroing: row sums 1/3, 2/3, 1.",
    ru="Три тепловые карты 3×3: строки i — запросы, столбцы j — ключи. Слева masked_softmax: над диагональю нули, суммы строк равны 1. В центре запрещённые оценки заменены нулём: везде 1/3, будущее читается. Справа softmax, затем обнуление: суммы 1/3, 2/3, 1.",
))

md(zh=r"""
错误顺序的毛病不只是行和不为 1。它的分母里含有未来键的分数，未来会通过分母漏进来。只改动查询 0 对未来键 2 的分数，把它从 0 改成 2：
""", en=r"""
The wrong order does more damage than rows that fail to sum to 1. Its denominator contains the scores of future keys, so the future leaks in through the denominator. Change only the score of query 0 against its future key 2, from 0 to 2:
""", ru=r"""
Вред неправильного порядка не сводится к тому, что суммы строк не равны 1. В знаменатель здесь входят оценки будущих ключей, и через него информация из будущего утекает в результат. Изменим только оценку запроса 0 для будущего ключа 2 — с 0 на 2:
""")

code("""
S_changed = S.copy()
#zh 查询 0 对它的未来键 2 的分数
#en query 0 against its future key 2
#ru оценка запроса 0 для его будущего ключа 2
S_changed[0, 2] = 2.0
right_row = masked_softmax(S_changed, allowed)[0]
wrong_row = (softmax(S_changed) * allowed)[0]
print(np.round(right_row, 6), np.round(wrong_row, 6))
assert np.array_equal(right_row, weights[0])
assert (np.isclose(wrong_row[0], 1 / (2 + np.exp(2.0)))
        and round(float(wrong_row[0]), 6) == 0.106507)
""")

md(zh=r"""
正确的权重纹丝不动，仍是 [1, 0, 0]；错误顺序下，查询 0 分给自己位置的权重从 1/3 变成了 $1/(2 + e^2) \approx 0.106507$。一个它本不该看到的分数，改变了它的输出。

## 1.7 把 `≤` 写成 `<`：无键可读的行

如果把条件 $j \le i$ 误写成 $j < i$，位置就不能读取自己了：
""", en=r"""
The correct weights do not move at all and stay [1, 0, 0]. In the wrong order, the weight query 0 gives to its own position drops from 1/3 to $1/(2 + e^2) \approx 0.106507$: a score the query was never supposed to see has changed its output.

## 1.7 `<` instead of `≤`: a row with nothing to read

Suppose the condition $j \le i$ is mistyped as $j < i$, so that a position may no longer read itself:
""", ru=r"""
Правильные веса не меняются вовсе и остаются [1, 0, 0]. При неправильном порядке вес, который запрос 0 отдаёт собственной позиции, падает с 1/3 до $1/(2 + e^2) \approx 0{,}106507$: оценка, которую запрос вообще не должен был видеть, изменила его выход.

## 1.7 `<` вместо `≤`: строке нечего читать

Допустим, условие $j \le i$ по ошибке записано как $j < i$, и позиция больше не может читать саму себя:
""")

code("""
strict = np.tril(np.ones((3, 3), dtype=bool), k=-1)      # j < i
print(strict.astype(int))
err = refusal(masked_softmax, S, strict)
print(type(err).__name__, np.flatnonzero(~strict.any(axis=1)))
assert "row (0,)" in str(err)
""")

md(zh=r"""
第 0 行没有任何可读的键，softmax 的分母无从谈起。`masked_softmax` 遇到这种情况会抛出 `ValueError`，并在错误信息中指出是哪一行（这里是第 0 行）。位置 0 上的 BOS 在这里帮不上忙：第 0 行根本不允许读取位置 0，那里放的是什么词元都一样。保证每个查询至少有一个可读键的，是条件 $j \le i$ 中的对角线 j = i；BOS 只是让读取位置 0 变得无害。

为什么要报错，而不是随便算出点什么？换一组不全为零的分数，看看两种朴素写法会得到什么。第一种给禁止位置填 $-\infty$；第二种填一个很大的有限负数，许多代码用 $-10^9$，d2l 的 `masked_softmax` 用 $-10^6$：
""", en=r"""
Row 0 has no readable key, so its softmax has no denominator. In that case `masked_softmax` raises a `ValueError` whose message names the row (here row 0). The BOS at position 0 does not help here: row 0 is not allowed to read position 0 at all, so it does not matter which token stands there. What guarantees every query at least one readable key is the diagonal j = i of the condition $j \le i$; BOS only makes reading position 0 harmless.

Why raise an error instead of returning something? Take scores that are not all zero and look at what two naive implementations produce. The first puts $-\infty$ on the forbidden entries; the second puts a large finite negative number there, $-10^9$ in many implementations, $-10^6$ in d2l's `masked_softmax`:
""", ru=r"""
У строки 0 нет ни одного доступного ключа, и знаменателя у её softmax просто нет. В такой ситуации `masked_softmax` выбрасывает `ValueError`, а в сообщении об ошибке указывает номер строки (здесь это строка 0). BOS в позиции 0 здесь не помогает: строке 0 вообще нельзя читать позицию 0, и неважно, какой токен там стоит. То, что у каждого запроса есть хотя бы один доступный ключ, гарантирует диагональ j = i в условии $j \le i$; BOS лишь делает чтение позиции 0 безвредным.

Почему выбрасывается ошибка, а не возвращается хоть какой-то результат? Возьмём оценки, не все равные нулю, и посмотрим, что дают две наивные реализации. Первая ставит на запрещённые позиции $-\infty$, вторая — большое конечное отрицательное число: во многих реализациях $-10^9$, в `masked_softmax` из d2l — $-10^6$:
""")

code("""
scores = np.random.default_rng(3).normal(size=(3, 3)).round(1)
with np.errstate(invalid="ignore"):
    with_inf = softmax(np.where(strict, scores, -np.inf))
print(with_inf[0])
assert np.isnan(with_inf[0]).all()

for big_negative in (-1e6, -1e9):
    with_big = softmax(np.where(strict, scores, big_negative))
    print(big_negative, np.round(with_big, 6).tolist())
    #zh 第 1、2 行还有可读的键：与 masked_softmax 完全相同
    #en rows 1 and 2 keep a readable key: the same as masked_softmax
    #ru у строк 1 и 2 остался доступный ключ: результат тот же, что у
    #ru masked_softmax
    assert np.array_equal(with_big[1:],
                          masked_softmax(scores[1:], strict[1:]))
    #zh 第 0 行的键全部被禁止：悄悄变成均匀分布
    #en row 0 is fully masked: it quietly turns uniform
    #ru строка 0 замаскирована целиком: незаметно становится равномерной
    assert np.allclose(with_big[0], 1/3)

err = refusal(masked_softmax, scores[:1], strict[:1])
print(type(err).__name__)
assert "row (0,)" in str(err)
""")

md(zh=r"""
用 $-\infty$ 填充时，第 0 行算的是 $\exp(-\infty - (-\infty))$，结果是 NaN，它会悄无声息地传遍后面所有的计算。用很大的有限负数代替 $-\infty$ 就更隐蔽了。在第 1、2 行，它确实管用：这两行还有可读的键，$\exp(-10^9 - m)$（m 是这一行许可分数中的最大值）下溢为 0，权重与 `masked_softmax` 分毫不差。可在所有键都被禁止的第 0 行，每个分数都被换成了同一个常数，softmax 给出均匀的 [1/3, 1/3, 1/3]：查询 0 读到了位置 0、1、2，包括它的未来，而且没有任何提示。对同一行，`masked_softmax` 直接拒绝，并指出是哪一行。

所以本章的约定是：没有可读键的行（空行）是错误，必须报错，既不能变成 NaN，也不能悄悄变成均匀分布。本章里不存在有意为之的空行：条件是 $j \le i$，并且查询不多于键（查询较少时，例如 §5 的缓存，它们就是最后那几个位置），每个查询至少能读自己的键。正因为如此，`causal_future` 拒绝查询多于键的情形，否则最前面的查询就没有属于自己的键了：
""", en=r"""
With $-\infty$, row 0 computes $\exp(-\infty - (-\infty))$, which is NaN, and NaN silently spreads through every later computation. A large finite negative number in place of $-\infty$ is even sneakier. In rows 1 and 2 it does work: those rows still have a readable key, so $\exp(-10^9 - m)$, where m is the row's largest allowed score, underflows to exactly 0 and the weights match those of `masked_softmax` to the last bit. But in row 0, where everything is masked, every score was replaced by the same constant, and softmax returns the uniform [1/3, 1/3, 1/3]: query 0 reads positions 0, 1 and 2, its future included, without any warning. For the same row, `masked_softmax` refuses and names the row.

Hence the rule of this course: a row with no readable key (an empty row) is an error and raises an exception; it never becomes NaN and never quietly turns into a uniform row. No row in this course is empty on purpose: the condition is $j \le i$ and there are never more queries than keys (when there are fewer, as with the cache of §5, the queries are the last positions), so every query may at least read its own key. That is why `causal_future` refuses more queries than keys; otherwise the first queries would have no key of their own:
""", ru=r"""
При $-\infty$ в строке 0 вычисляется $\exp(-\infty - (-\infty))$, то есть NaN, и этот NaN незаметно расползается по всем дальнейшим вычислениям. Большое конечное отрицательное число вместо $-\infty$ ещё коварнее. В строках 1 и 2 оно действительно работает: у этих строк остался доступный ключ, $\exp(-10^9 - m)$, где m — наибольшая разрешённая оценка строки, обращается ровно в 0, и веса до последнего бита совпадают с весами `masked_softmax`. Но в целиком замаскированной строке 0 все оценки заменены одной и той же константой, и softmax возвращает равномерное [1/3, 1/3, 1/3]: запрос 0 читает позиции 0, 1 и 2, включая своё будущее, и никакого предупреждения нет. Ту же строку `masked_softmax` отвергает и называет её номер.

Отсюда правило курса: строка, которой нечего читать (пустая строка), — это ошибка, о ней сообщает исключение; она никогда не превращается в NaN и не подменяется незаметно равномерным распределением. Намеренно пустых строк в этом курсе нет: условие — $j \le i$, а запросов никогда не больше, чем ключей (если запросов меньше, как при кэше в §5, это последние позиции), поэтому каждый запрос может читать хотя бы свой собственный ключ. Именно поэтому `causal_future` отказывается работать, если запросов больше, чем ключей: иначе первым запросам не досталось бы своего ключа:
""")

code("""
print(type(refusal(causal_future, 4, 3)).__name__)
""")

md(zh=r"""
## 1.8 填充位置的查询：照常计算，但不计分

回到批量 ["春雨", "雨"]。第 1 行位置 2 的输入是补上的 EOS。前向传播并不特殊对待它：它是一个普通的查询，照样读取位置 0～2 并得到输出，这个输出也不会被强行置零。为了演示，取一张随机的小词元嵌入表 E（位置要到 §3 才加入），令 $X = E[\mathrm{inputs}]$，并直接用 q = k = v = X。这里还没有投影矩阵 $W_Q$、$W_K$、$W_V$（它们在 §2 出现），这样一来，例子里唯一起作用的就是每个查询能读哪些键：
""", en=r"""
## 1.8 Padded queries are computed but not scored

Back to the batch ["春雨", "雨"]. In row 1 the input at position 2 is the padding EOS. The forward pass does not treat it specially: it is an ordinary query, it reads positions 0–2 and produces an output, and that output is not forced to zero. To see this, take a small random token embedding table E (positions arrive only in §3), set $X = E[\mathrm{inputs}]$ and use q = k = v = X directly. There are no projections $W_Q$, $W_K$, $W_V$ yet (they come in §2), so the only thing that matters in the example is which keys each query may read:
""", ru=r"""
## 1.8 Запросы в позициях дополнения вычисляются, но не учитываются

Вернёмся к батчу ["春雨", "雨"]. В строке 1 вход в позиции 2 — это EOS, добавленный при дополнении. Прямой проход никак не выделяет его: это обычный запрос, он читает позиции 0–2 и получает выход, и этот выход никто не обнуляет принудительно. Чтобы увидеть это, возьмём маленькую случайную таблицу эмбеддингов токенов E (позиции появятся только в §3), положим $X = E[\mathrm{inputs}]$ и будем использовать прямо q = k = v = X. Проекций $W_Q$, $W_K$, $W_V$ пока нет (они появятся в §2), так что в примере важно только то, какие ключи может читать каждый запрос:
""")

code("""
rng = np.random.default_rng(0)
#zh 随机的小词元嵌入表
#en a small random token embedding table
#ru маленькая случайная таблица эмбеддингов токенов
E = rng.normal(size=(len(vocab), 4)).round(2)    # (V, D)
X = E[inputs]                                    # (B, T, D)
#zh 每个查询都有输出
#en every query gets an output
#ru выход есть у каждого запроса
Y = causal_attention(X, X, X)                    # (B, T, D)
print(Y.shape, np.round(Y[1, 2], 3))
assert (Y.shape == (2, 3, 4) and np.isfinite(Y).all()
        and np.abs(Y[1, 2]).max() > 0)
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
#zh “雨”真正的结尾要计分
#en the real end of 雨 is scored
#ru настоящий конец 雨 учитывается
assert scored[1, 1] and targets[1, 1] == EOS
assert int((targets[scored] == EOS).sum()) == 2

#zh 错误：把 EOS 当成填充
#en wrong: EOS treated as padding
#ru ошибка: EOS принят за дополнение
eos_dropped = scored & (targets != EOS)
print(int(eos_dropped.sum()))
assert int(scored.sum()) == 5 and int(eos_dropped.sum()) == 3
#zh 对 collate 的排布成立，但计分只看目标
#en holds for collate's layout, yet only the targets decide
#ru верно для раскладки collate, но решают только целевые метки
assert ((inputs == EOS) == ~scored).all()
""")

md(zh=r"""
一共 5 个位置计分，其中有两个 EOS 目标：“春雨”的第 2 位和“雨”的第 1 位。它们是文本真正的结尾，模型要学会在这里预测 EOS。如果把 EOS 当成填充忽略掉（比如在损失里丢弃 `targets == EOS` 的位置），计分位置就只剩 3 个，模型永远学不会在哪里结束。

按照 `collate` 的构造，输入为 EOS 的位置恰好就是目标为 −100 的位置；即便如此，判断是否计分也只看目标。前向传播不接收任何填充掩码，也不会根据输入的数值屏蔽任何位置：输入里的 EOS 对它来说就是一个普通的词元编号。（为什么 EOS 也不能登记成“填充编号”，见 §1.10。）
""", en=r"""
Five positions are scored, and two of their targets are EOS: position 2 of 春雨 and position 1 of 雨. They are the real ends of the texts, and the model has to learn to predict EOS there. Treat EOS as padding and ignore it (say, by dropping the positions where `targets == EOS` from the loss) and only 3 scored positions remain; the model never learns where a text ends.

Because of the way `collate` lays out a batch, the positions whose input is EOS are the positions whose target is −100. Even so, only the targets decide what is scored. The forward pass receives no padding mask and masks nothing because of the value of an input: to it, an input EOS is an ordinary token id. (Why EOS must not be declared a padding index either is explained in §1.10.)
""", ru=r"""
Учитываются пять позиций, и в двух из них целевая метка — EOS: позиция 2 в 春雨 и позиция 1 в 雨. Это настоящие концы текстов, и модель должна научиться предсказывать там EOS. Если считать EOS дополнением и игнорировать его (например, выбрасывать из функции потерь позиции, где `targets == EOS`), останутся только 3 учитываемые позиции, и модель так и не узнает, где заканчивается текст.

По построению `collate` позиции, где на входе стоит EOS, — это ровно те позиции, где целевая метка равна −100. И всё же, что учитывать, решают только целевые метки. Прямой проход не получает никакой маски дополнения и ничего не маскирует в зависимости от значения входа: для него EOS на входе — обычный номер токена. (Почему EOS нельзя объявлять и индексом дополнения, объяснено в §1.10.)
""")

md(zh=r"""
这里要分清两件不同的事。填充位置的查询是一个**不计分的输出**：它有可读的键（至少有它自己），照常算出输出，只是目标为 −100，不进入损失。**空行**则是一个没有任何可读键的查询：它的 softmax 没有分母，根本算不出输出，必须报错（§1.7）。前者由目标决定，后者由掩码决定。把空行当成“反正不计分的填充”悄悄放过，或者把填充查询当成空行去报错、把它的输出置零，都是错的。下面逐个位置列出可读键的个数，以及是否计分：
""", en=r"""
Two different things must be kept apart here. The query at a padded position is an **unscored output**: it has keys to read (at least itself), it computes an output as usual, and only its target, −100, keeps it out of the loss. An **empty row** is a query with no key to read at all: its softmax has no denominator, there is no output to compute, and it must raise (§1.7). The targets decide the first, the mask decides the second. Letting an empty row pass as "padding, unscored anyway" is a mistake, and so is raising on a padded query or zeroing its output as if its row were empty. For every position of the batch, here is the number of keys it may read and whether it is scored:
""", ru=r"""
Здесь важно не смешать две разные вещи. Запрос в позиции дополнения — это **неучитываемый выход**: ему есть что читать (как минимум себя самого), выход вычисляется как обычно, и только целевая метка −100 не пускает его в функцию потерь. **Пустая строка** — это запрос, которому читать нечего вовсе: у его softmax нет знаменателя, выход вычислить нельзя, и нужно выбросить исключение (§1.7). Первое определяют целевые метки, второе — маска. Ошибочно пропускать пустую строку под видом «дополнения, которое всё равно не учитывается»; так же ошибочно выбрасывать исключение из-за запроса дополнения или обнулять его выход, как будто его строка пуста. Для каждой позиции батча ниже указано, сколько ключей она может читать и учитывается ли она:
""")

code("""
keys_readable = np.broadcast_to(allowed.sum(axis=1), scored.shape)  # (B, T)
print(keys_readable)
print(scored.astype(int))
#zh 填充查询：可读 3 个键，不计分
#en the padded query: 3 readable keys, not scored
#ru запрос дополнения: 3 доступных ключа, не учитывается
assert keys_readable[1, 2] == 3 and not scored[1, 2]
#zh 批量里没有空行
#en no empty row in the batch
#ru пустых строк в батче нет
assert (keys_readable >= 1).all()
""")

md(zh=r"""
右填充之所以无害，还有一个原因：真实查询读不到填充。一般的序列系统会把许可集合取为两个条件的交集：$j \le i$，并且键 j 是真实位置（不是填充）。本章只做右填充。设一行的真实长度为 $\ell$（“雨”这一行 $\ell = 2$：BOS 和“雨”）。真实查询满足 $i < \ell$，填充键满足 $j \ge \ell > i$，所以每个填充键本来就落在每个真实查询的未来里，已经被因果条件排除了。加不加“键 j 是真实位置”这个条件，真实查询的许可集合都一样，单靠因果掩码就够了；两者只在填充查询的行里有区别，而这些行不计分。这也是本章的前向传播不接收填充掩码的原因：
""", en=r"""
There is one more reason why right padding is harmless: real queries cannot read it. A model that allows padding anywhere takes the allowed set to be the intersection of two conditions: $j \le i$, and key j is a real position (not padding). This course pads on the right only. Let a row have real length $\ell$ ($\ell = 2$ for the row of 雨: BOS and 雨). A real query has $i < \ell$ and a padding key has $j \ge \ell > i$, so every padding key already lies in the future of every real query, and the causal condition has excluded it. With or without the condition "key j is real", the real queries have the same allowed sets, and the causal mask alone suffices; the two differ only in the rows of padded queries, which are not scored. That is why the forward pass of this course takes no padding mask:
""", ru=r"""
Есть и ещё одна причина, по которой дополнение справа безвредно: настоящие запросы его не видят. Модель, которая допускает дополнение где угодно, задаёт множество разрешённых позиций двумя условиями сразу: $j \le i$ и «ключ j — настоящая позиция, а не дополнение». В этом курсе дополнение бывает только справа. Пусть настоящая длина строки равна $\ell$ (для строки 雨 $\ell = 2$: BOS и 雨). У настоящего запроса $i < \ell$, у ключа дополнения $j \ge \ell > i$, так что каждый ключ дополнения уже лежит в будущем каждого настоящего запроса и исключён причинным условием. С условием «ключ j настоящий» и без него множества разрешённых позиций настоящих запросов одинаковы, и одной причинной маски достаточно; различаются лишь строки запросов дополнения, а они не учитываются. Поэтому прямой проход в этом курсе не принимает маску дополнения:
""")

code("""
#zh 真实长度 ℓ：BOS 加上文本
#en real length ℓ: BOS plus the text
#ru настоящая длина ℓ: BOS и текст
lengths = np.array([len(text) + 1 for text in ["春雨", "雨"]])
key_real = np.arange(3)[None, :] < lengths[:, None]            # (B, T)
general = allowed[None] & key_real[:, None, :]                 # (B, T, T)
print(lengths)
print(general[1].astype(int))
for b, length in enumerate(lengths):
    #zh 真实查询的行与因果掩码相同
    #en the rows of real queries equal the causal mask
    #ru строки настоящих запросов совпадают с причинной маской
    assert (general[b, :length] == allowed[:length]).all()
#zh 只有填充查询的行不同
#en only the padded query's row differs
#ru отличается только строка запроса дополнения
assert not (general[1, 2] == allowed[2]).all()
""")

md(zh=r"""
数值上也是如此：把“雨”不加填充单独计算（T = 2），得到的两个输出与批量中这一行的前两个输出一致：
""", en=r"""
The numbers agree: computing 雨 alone without padding (T = 2) gives the same two outputs as the first two outputs of its row in the batch:
""", ru=r"""
Числа это подтверждают: если посчитать 雨 отдельно, без дополнения (T = 2), то оба его выхода совпадут с первыми двумя выходами его строки в батче:
""")

code("""
#zh 不加填充的“雨”，T = 2
#en 雨 without padding, T = 2
#ru 雨 без дополнения, T = 2
alone = E[[BOS, 4]]
Y_alone = causal_attention(alone, alone, alone)
gap = float(np.abs(Y[1, :2] - Y_alone).max())
print("max|Δ| < 1e-12:", gap < 1e-12)
assert gap < 1e-12
""")

md(zh=r"""
两者之差小于 $10^{-12}$，也就是只剩舍入误差。
""", en=r"""
The two differ by less than $10^{-12}$, that is, by rounding error at most.
""", ru=r"""
Они отличаются меньше чем на $10^{-12}$, то есть не больше чем на ошибку округления.
""")

md(zh=r"""
## 1.9 实验：只改最后一行

最后用一个实验把前面的结论串起来。取三个位置、宽度为 4 的输入 X（仍令 q = k = v = X），只改变最后一行 $X[2]$，看输出 Y 的哪些行会跟着变。有因果掩码时，第 0 行和第 1 行根本读不到位置 2，必须分毫不差；去掉掩码（`unmasked_attention`，它在 §4 中充当阴性对照）之后，未来就会漏进前面的行。

先用一个固定的改动算一次：把 $X[2]$ 换成 [2, −2, 2, −2]，对每一行打印 $\max_j \lvert\Delta Y[i, j]\rvert$：
""", en=r"""
## 1.9 Experiment: change only the last row

A last experiment ties the section together. Take an input X with three positions and width 4 (again q = k = v = X), change only its last row $X[2]$, and see which rows of the output Y change. With the causal mask, rows 0 and 1 cannot read position 2 at all and must stay exactly the same. Without the mask (`unmasked_attention`, which serves as the negative control in §4) the future leaks into the earlier rows.

Start with one fixed change: replace $X[2]$ by [2, −2, 2, −2] and print $\max_j \lvert\Delta Y[i, j]\rvert$ for every row:
""", ru=r"""
## 1.9 Эксперимент: меняем только последнюю строку

Свяжем всё сказанное одним экспериментом. Возьмём вход X из трёх позиций и ширины 4 (снова q = k = v = X), изменим только его последнюю строку $X[2]$ и посмотрим, какие строки выхода Y изменятся. С причинной маской строки 0 и 1 вообще не видят позицию 2 и обязаны остаться в точности прежними. Без маски (`unmasked_attention`, в §4 она служит отрицательным контролем) будущее просачивается в более ранние строки.

Сначала одно фиксированное изменение: заменим $X[2]$ на [2, −2, 2, −2] и напечатаем $\max_j \lvert\Delta Y[i, j]\rvert$ для каждой строки:
""")

code("""
X = np.random.default_rng(1).normal(size=(3, 4)).round(1)
X_new = X.copy()
#zh 只改最后一行
#en only the last row changes
#ru меняется только последняя строка
X_new[2] = [2.0, -2.0, 2.0, -2.0]

change = {}
for name, attend in [("causal", causal_attention),
                     ("unmasked", unmasked_attention)]:
    # (T, D)
    change[name] = np.abs(attend(X_new, X_new, X_new) - attend(X, X, X))
    print(name, np.round(change[name].max(axis=1), 6))
assert change["causal"][:2].max() == 0.0
assert (change["causal"][2].max() > 0
        and change["unmasked"][:2].max(axis=1).min() > 0)
""")

md(zh=r"""
有掩码时，第 0 行和第 1 行的最大变化恰好是 0.0，变的只有第 2 行；去掉掩码后，三行都变了。下面的热力图画出每个元素的 |ΔY[i, j]|（横轴 j 这里是特征维度）：
""", en=r"""
With the mask the largest change in rows 0 and 1 is 0.0 and only row 2 changes; without it all three rows change. The heatmaps show |ΔY[i, j]| for every entry (here the axis j runs over features):
""", ru=r"""
С маской наибольшее изменение строк 0 и 1 равно ровно нулю, меняется только строка 2; без маски меняются все три строки. Тепловые карты показывают |ΔY[i, j]| для каждого элемента (ось j здесь пробегает признаки):
""")

code("""
top = max(float(m.max()) for m in change.values())
plots.heatmaps(
    [change["causal"], change["unmasked"]],
    ["|ΔY|  causal_attention", "|ΔY|  unmasked_attention"],
    labels=[[[f"{v:.2f}" for v in row] for row in m]
            for m in change.values()],
    cmap="Reds", vmax=top,
)
plt.show()
""", alt=dict(
    zh="两张 3×4 热力图，行 i 为位置，列 j 为特征，颜色表示只改 X[2] 后的 |ΔY|。左：causal_attention，第 0、1 行全是 0.00，只有第 2 行有颜色。右：unmasked_attention，三行都有变化。",
    en="Two 3×4 heatmaps, rows i are positions, columns j features, colour is |ΔY| after changing only X[2]. Left, causal_attention: rows 0 and 1 are all 0.00, only row 2 is coloured. Right, unmasked_attention: all three rows change.",
    ru="Две тепловые карты 3×4: строки i — позиции, столбцы j — признаки, цвет — |ΔY| после изменения только X[2]. Слева causal_attention: строки 0 и 1 целиком 0,00, окрашена только строка 2. Справа unmasked_attention: меняются все три строки.",
))

md(zh=r"""
在下面的交互图里，你可以亲手改动 $X[2]$ 的四个分量 $X[2, 0], \dots, X[2, 3]$，每个滑块的步长是 0.5。表格对两种计算分别列出每行输出与原始输出之间的最大差 $\max\lvert\Delta Y[i]\rvert$。拖动任意一个滑块，比较左右两列：有因果掩码时，第 0 行和第 1 行的差始终恰好是 0，只有第 2 行跟着变；去掉掩码后，三行都会变。

在网页上，滑块直接就能拖动：每一种设置的结果都是运行这本笔记本时由 `lib` 算好的。在 Jupyter 中，先运行这个单元格。
""", en=r"""
In the interactive figure below you change the four entries $X[2, 0], \dots, X[2, 3]$ of the last row yourself, in steps of 0.5. For both computations the table lists the largest difference of every output row from the original output, $\max\lvert\Delta Y[i]\rvert$. Drag any slider and compare the two columns: with the causal mask the differences of rows 0 and 1 stay exactly 0 and only row 2 changes; without the mask all three rows change.

On the website the sliders work as they are: the result of every setting was computed by `lib` when this notebook ran. In Jupyter, run the cell first.
""", ru=r"""
В интерактивном рисунке ниже вы сами меняете четыре элемента $X[2, 0], \dots, X[2, 3]$ последней строки, с шагом 0,5. В таблице для обоих вычислений показано наибольшее отклонение каждой строки выхода от исходного выхода, $\max\lvert\Delta Y[i]\rvert$. Передвиньте любой ползунок и сравните оба столбца: с причинной маской отклонения строк 0 и 1 остаются ровно нулевыми и меняется только строка 2; без маски меняются все три строки.

На сайте ползунки работают сразу: результат для каждого положения посчитан библиотекой `lib` при выполнении этого блокнота. В Jupyter сначала выполните ячейку.
""")

code("""
from figures.interactive import last_row_experiment

figure = last_row_experiment(X, [causal_attention, unmasked_attention])
#zh (设置数, 2)
#en (settings, 2)
#ru (число положений, 2)
rows_01 = {name: change[:, :2] for name, change in figure.changes.items()}
#zh 每一种设置下：有掩码时恰好为 0；无掩码时，除了 X 未改动的那一种，都不为 0
#en every setting: exactly 0 with the mask; without it nonzero, except for X
#en unchanged
#ru при любом положении: с маской ровно 0; без маски не 0, кроме положения с
#ru исходным X
assert (rows_01["causal_attention"] == 0).all()
assert ((rows_01["unmasked_attention"] > 0).sum()
        == 2 * (len(figure.states) - 1))
figure
""")

md(zh=r"""
## 1.10 进阶（选读）

下面三个话题让前面的图景更完整，但本章其余部分用不到它们：权重恰好为 0 为什么不能说明键被禁止了；EOS 为什么不能当填充编号；本章为什么只做右填充。

### 权重为 0，不等于键被禁止

§1.1 里被禁止的项严格等于 0。反过来却不成立：权重恰好为 0，并不说明那个键被禁止了。在精确算术中，有限分数的 exp 总是正数，所以每个许可位置的权重都大于 0；可在浮点数里，一个分数只要比本行最大值低得足够多（float64 中大约低 745 以上），exp 就会下溢成 0：
""", en=r"""
## 1.10 Going deeper (optional)

Three topics round off the picture; the rest of the chapter does not need them. Why a zero weight does not prove that a key was forbidden; why EOS must not be a padding index; and why this chapter pads on the right only.

### A zero weight is not a forbidden key

In §1.1 the forbidden entries were exactly 0. The converse does not hold: a weight of exactly 0 does not mean that the key was forbidden. In exact arithmetic the exp of a finite score is positive, so every allowed weight is greater than 0; in floating point, however, exp underflows to 0 once a score lies far enough below the row's maximum (by more than about 745 in float64):
""", ru=r"""
## 1.10 Глубже (по желанию)

Три темы дополняют картину, но остальной главе не нужны: почему вес, равный ровно 0, ещё не доказывает, что ключ был запрещён; почему EOS нельзя делать индексом дополнения; и почему в этой главе дополняют только справа.

### Нулевой вес — ещё не запрещённый ключ

В §1.1 запрещённые элементы были равны ровно 0. Обратное неверно: вес, в точности равный 0, ещё не означает, что ключ был запрещён. В точной арифметике экспонента конечной оценки положительна, так что каждый разрешённый вес больше 0; но в арифметике с плавающей точкой exp обращается в 0 (происходит исчезновение порядка), как только оценка оказывается меньше максимума строки на достаточно большую величину (в float64 — примерно на 745 и больше):
""")

code("""
underflow = masked_softmax(np.array([0.0, -800.0]), np.array([True, True]))
print(underflow, np.exp(-745.0) > 0, np.exp(-746.0) == 0)
assert np.exp(-745.0) > 0 and np.exp(-746.0) == 0
#zh 两个键都允许读取，第二个的权重却恰好是 0
#en both keys are allowed, yet the second weight is exactly 0
#ru оба ключа разрешены, но второй вес равен ровно 0
assert underflow[1] == 0.0 and underflow[0] == 1.0
""")

md(zh=r"""
所以，看权重里的零分辨不出哪些键被禁止，只有掩码本身说得清。

### EOS 不是填充编号

§1.8 说过，前向传播不接收填充掩码，输入里的 EOS 只是一个普通的词元编号。同样的道理说明了 EOS 为什么不能当“填充编号”（例如 PyTorch 中 `nn.Embedding` 的 `padding_idx`，或损失函数的 `ignore_index`）：EOS 是真实的词元，作为目标要被预测，作为输入有自己的嵌入向量，把它登记为填充，就等于把一个真实的词元当成了“什么都不是”。填充这个角色由两样东西分担：输入里用一个普通的 EOS 占位，它的查询不计分；目标里用 −100，它根本不是词元编号，`decode` 会直接拒绝它：
""", en=r"""
A zero weight therefore cannot tell which keys were forbidden; only the mask can.

### EOS is not a padding index

§1.8 said that the forward pass takes no padding mask and that an input EOS is an ordinary token id. For the same reason, EOS must not be declared a padding index (such as `padding_idx` of PyTorch's `nn.Embedding`, or the `ignore_index` of a loss). EOS is a real token: it is predicted as a target and has its own embedding vector as an input, so registering it as padding turns a real token into nothing. The padding role is split between two things instead: an ordinary EOS as filler in the inputs, whose query is not scored, and −100 in the targets, which is not a token id at all; `decode` refuses it outright:
""", ru=r"""
Поэтому по нулевым весам нельзя понять, какие ключи были запрещены; это знает только маска.

### EOS — не индекс дополнения

В §1.8 говорилось, что прямой проход не получает маски дополнения и что EOS на входе — обычный номер токена. По той же причине EOS нельзя объявлять индексом дополнения (например, `padding_idx` у `nn.Embedding` в PyTorch или `ignore_index` у функции потерь): EOS — настоящий токен, его предсказывают как целевую метку, а на входе у него есть собственный вектор эмбеддинга; объявить его дополнением — значит превратить настоящий токен в ничто. Роль дополнения поделена между двумя вещами: во входах это обычный EOS-заполнитель, запрос которого не учитывается, а в целевых метках — число −100, которое вообще не является номером токена; `decode` его попросту отвергает:
""")

code("""
print(type(refusal(decode, [IGNORE], vocab)).__name__, IGNORE)
""")

md(zh=r"""
### 为什么不用左填充

如果改成左填充，把“雨”写成 [EOS, BOS, 雨]，§1.8 的论证就不再成立。填充跑到了真实位置的左边，而左边恰好是因果掩码允许读取的区域：
""", en=r"""
### Why not left padding

Pad 雨 on the left instead, as [EOS, BOS, 雨], and the argument of §1.8 falls apart. The padding now lies to the left of the real positions, which is where the causal mask allows reading:
""", ru=r"""
### Почему не дополнять слева

Если дополнить 雨 слева, то есть записать [EOS, BOS, 雨], рассуждение из §1.8 перестаёт работать. Теперь дополнение стоит левее настоящих позиций — как раз там, где причинная маска чтение разрешает:
""")

code("""
#zh 左填充的“雨”
#en 雨 padded on the left
#ru 雨 с дополнением слева
left = E[[EOS, BOS, 4]]
Y_left = causal_attention(left, left, left)
#zh 真实查询 1 和 2 能读键 0 吗？
#en may the real queries 1 and 2 read key 0?
#ru могут ли настоящие запросы 1 и 2 читать ключ 0?
print(allowed[1:, 0])
gap_left = float(np.abs(Y_left[1:] - Y_alone).max())
print(round(gap_left, 6))
assert allowed[1:, 0].all() and round(gap_left, 2) == 0.33
""")

md(zh=r"""
真实查询 1 和 2 都能读到填充键 0，输出与不填充时相比，最大绝对差约为 0.33。要支持左填充，需要两处改动。第一处是 §1.8 中的条件“键 j 是真实位置”。它修好了真实查询，却让位置 0 上的填充查询一个可读的键也没有了：它唯一能读的键是它自己，而它自己就是填充。于是出现了空行。在这样的系统里，空行是设计使然：必须专门挑出这些行来处理，而且永远不计分。`masked_softmax` 仍然拒绝这一行，因为在本章里，空行只可能是错误：
""", en=r"""
The real queries 1 and 2 can both read the padding key 0, and their outputs differ from the unpadded ones by about 0.33 (largest absolute difference). Supporting left padding needs two changes. The first is the condition "key j is real" of §1.8. It repairs the real queries, but it leaves the padded query at position 0 with no key it may read: an empty row. In such a system empty rows arise by design; they have to be singled out and handled explicitly, and never scored. `masked_softmax` still refuses the row, because in this course an empty row can only be a mistake:
""", ru=r"""
Настоящие запросы 1 и 2 оба видят ключ дополнения 0, и их выходы отличаются от выходов без дополнения примерно на 0,33 (наибольшая абсолютная разница). Чтобы поддержать дополнение слева, нужны два изменения. Первое — условие «ключ j настоящий» из §1.8. Оно исправляет настоящие запросы, но у запроса дополнения в позиции 0 не остаётся ни одного ключа, который ему можно читать: получается пустая строка. В такой системе пустые строки возникают намеренно; их нужно отдельно выделять и обрабатывать и никогда не учитывать. `masked_softmax` такую строку по-прежнему отвергает, потому что в этом курсе пустая строка может быть только ошибкой:
""")

code("""
#zh 左填充：位置 0 是填充
#en left padding: position 0 is padding
#ru дополнение слева: позиция 0 — дополнение
key_real_left = np.array([False, True, True])
allowed_left = allowed & key_real_left[None, :]                 # (T, T)
print(allowed_left.astype(int))
Y_left_real = masked_softmax(attention_scores(left[1:], left),
                             allowed_left[1:]) @ left
gap_repaired = float(np.abs(Y_left_real - Y_alone).max())
print("max|Δ| < 1e-12:", gap_repaired < 1e-12)
assert gap_repaired < 1e-12
err = refusal(masked_softmax, attention_scores(left, left), allowed_left)
print(type(err).__name__, np.flatnonzero(~allowed_left.any(axis=1)))
assert "row (0,)" in str(err)
""")

md(zh=r"""
加上这个条件后，真实查询的输出与不填充时的差小于 $10^{-12}$，而第 0 行成了空行。第二处改动在位置上：BOS 不再位于位置 0，§3 中按位置编号加上去的位置向量也要随之重新编号。所以左填充改变的是掩码与位置之间的整套约定，本章的前向传播不支持它。
""", en=r"""
With this condition the outputs of the real queries differ from the unpadded ones by less than $10^{-12}$, and row 0 has become an empty row. The second change concerns positions: BOS would no longer sit at position 0, so the position vectors of §3, added by position index, would have to be renumbered as well. Left padding therefore changes how masks and positions fit together, and this chapter's forward pass does not support it.
""", ru=r"""
С этим условием выходы настоящих запросов отличаются от выходов без дополнения меньше чем на $10^{-12}$, а строка 0 стала пустой. Второе изменение касается позиций: BOS оказался бы не в позиции 0, и векторы позиций из §3, прибавляемые по номеру позиции, пришлось бы перенумеровать. Значит, дополнение слева меняет то, как согласованы маски и позиции, и прямой проход этой главы его не поддерживает.
""")

md(zh=r"""
## 1.11 小结

* 先确定许可集合 $j \le i$，再在它上面归一化。禁止的键必须排除在归一化之外：把分数置 0 不算禁止（$\exp(0) = 1$）；先 softmax 后清零，不但行和不为 1，未来还会经由分母漏进来。
* 位置 i 可以读取自己：输入 i 是已经看到的词元，答案在位置 i + 1。每个查询至少有一个可读的键，这是由对角线 j = i 保证的；位置 0 上的 BOS 只是让读取位置 0 无害。把 $\le$ 写成 $<$ 时，不管位置 0 上放的是什么，第 0 行都是空的。
* `allowed`（真 = 允许读取）和 `future`（真 = 禁止读取）互为补集，按名字传参，绝不互换。
* 空行（没有可读键的查询）是错误，必须报错：$-\infty$ 会把它变成 NaN，$-10^9$ 之类的有限负数会把它悄悄变成均匀分布，连未来一起读进来。
* 填充位置的查询照常计算，是否计分只看目标是否为 −100：这是不计分的输出，不是空行。真实的 EOS 目标必须计分，EOS 不是填充编号。
* 允许任意填充的模型，许可集合是 $j \le i$ 与“键 j 是真实位置”的交集；只做右填充时，填充键已经落在每个真实查询的未来里，单靠因果掩码就够了。左填充会改变掩码与位置之间的约定（§1.10），本章不支持。

本节的练习在 `exercises/zh/ex01_allowed_set.ipynb`。下一节（§2）把一个头拆成多个头。
""", en=r"""
## 1.11 Summary

* Fix the allowed set $j \le i$ first, then normalise over it. Forbidden keys have to be excluded from the normalisation: a score of 0 forbids nothing ($\exp(0) = 1$), and applying softmax first and zeroing afterwards not only breaks the row sums but also lets the future in through the denominator.
* Position i may read itself: input i is a token already seen, and the answer sits at position i + 1. Every query has at least one readable key thanks to the diagonal j = i; BOS at position 0 only makes reading position 0 harmless. With `<` instead of `≤`, row 0 is empty whatever token stands at position 0.
* `allowed` (True = may read) and `future` (True = forbidden) are complements; pass them by name and never one for the other.
* An empty row (a query with no key to read) is an error and raises an exception: $-\infty$ turns it into NaN, and a finite constant such as $-10^9$ quietly turns it into a uniform row that reads the future as well.
* Queries at right-padded positions are computed as usual; whether they are scored depends only on whether the target is −100. Such a query is an unscored output, not an empty row. Real EOS targets must be scored, and EOS is not a padding index.
* A model that allows padding anywhere intersects $j \le i$ with "key j is a real position"; with right padding only, the padding keys already lie in the future of every real query, so the causal mask alone suffices. Left padding would change how masks and positions fit together (§1.10), and this chapter does not support it.

The exercises for this section are in `exercises/en/ex01_allowed_set.ipynb`. The next section (§2) splits one head into several.
""", ru=r"""
## 1.11 Итоги

* Сначала фиксируем множество разрешённых позиций $j \le i$, затем нормализуем по нему. Запрещённые ключи нужно исключить из нормализации: нулевая оценка ничего не запрещает ($\exp(0) = 1$), а если сначала применить softmax и лишь потом обнулить будущее, то не только нарушаются суммы строк, но и будущее просачивается через знаменатель.
* Позиции i можно читать саму себя: вход i — уже увиденный токен, а ответ лежит в позиции i + 1. Хотя бы один доступный ключ у каждого запроса есть благодаря диагонали j = i; BOS в позиции 0 лишь делает чтение позиции 0 безвредным. Если написать `<` вместо `≤`, строка 0 пуста, какой бы токен ни стоял в позиции 0.
* `allowed` (True — читать можно) и `future` (True — читать нельзя) дополняют друг друга; передавайте их по имени и никогда не подставляйте одну вместо другой.
* Пустая строка (запрос, которому нечего читать) — ошибка, о которой сообщает исключение: $-\infty$ превращает её в NaN, а конечная константа вроде $-10^9$ незаметно делает её равномерной, и запрос читает в том числе будущее.
* Запросы в позициях дополнения справа вычисляются как обычно; учитываются ли они, зависит только от того, равна ли целевая метка −100. Такой запрос — неучитываемый выход, а не пустая строка. Настоящие целевые метки EOS обязательно учитываются, и EOS — не индекс дополнения.
* Если дополнение может стоять где угодно, множество разрешённых позиций — пересечение условия $j \le i$ и условия «ключ j — настоящая позиция»; при дополнении только справа ключи дополнения и так лежат в будущем каждого настоящего запроса, поэтому одной причинной маски достаточно. Дополнение слева изменило бы то, как согласованы маски и позиции (§1.10); эта глава его не поддерживает.

Упражнения к разделу — в `exercises/ru/ex01_allowed_set.ipynb`. В следующем разделе (§2) одна голова разбивается на несколько.
""")
