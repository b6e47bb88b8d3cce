# §6 Four kinds of evidence: the chapter's checking program redone with lib, its six
# printed figures with the reasoning each supports, what it does not prove, what comes next.

md(
    zh=r"""
# 6 四类证据

原章节以一段独立的检查程序收尾：它打印六个数，每个数背后是一种不同的论证方式。这里用 `lib` 重做这段程序：不再另写一套参考实现，而是直接调用前几节讲过的 `AttentionModel`、`lib.data` 和 `lib.checks`。六个数分别支持四类证据：

| 编号 | 检查内容 | 原程序打印的值 | 证据类型 |
| --- | --- | --- | --- |
| 1 | 两头手算输出的第 1 行 | $[1, 1, a-b, b-a]$ | 手算 |
| 2 | 未来扰动：前两行的变化 | 0.0 | 带对照的扰动检验 |
| 3 | 同一检验关掉掩码（阴性对照） | 39.772020613422825 | 带对照的扰动检验 |
| 4 | 右填充：有效位置与计分目标 | [True, True, False]，[4, 2] | 结构推理 |
| 5 | 交换前两个词元后最后一行的差异：无位置 / 有位置 | 0 / 0.047053077502492324 | 结构推理 |
| 6 | 缓存与整段前向之差 / 位置归零后的误差 | 0 / 0.08753403247684122 | 等价检验 |

四类证据各有所长：**手算**确认一个小例子里每一步都算对了；**结构推理**从架构推出对所有输入都成立的结论，再用具体数值印证；**带对照的扰动检验**在真实代码上寻找泄漏，并证明检验本身看得见泄漏；**等价检验**确认两种本应相同的计算路径确实给出相同结果。
""",
    en=r"""
# 6 Four kinds of evidence

The original chapter ends with an independent checking program that prints six figures, each backed by a different way of reasoning. Here we redo that program with `lib`: instead of writing a second reference implementation, we call the `AttentionModel`, `lib.data` and `lib.checks` of the previous sections. The six figures support four kinds of evidence:

| no. | what is checked | printed by the original program | kind of evidence |
| --- | --- | --- | --- |
| 1 | row 1 of the two-head output computed by hand | $[1, 1, a-b, b-a]$ | hand computation |
| 2 | future perturbation: change of the first two rows | 0.0 | perturbation test with control |
| 3 | the same test with the mask off (negative control) | 39.772020613422825 | perturbation test with control |
| 4 | right padding: valid positions and scored targets | [True, True, False], [4, 2] | structural reasoning |
| 5 | last-row difference after swapping the first two tokens, without / with positions | 0 / 0.047053077502492324 | structural reasoning |
| 6 | cache vs full forward / error after resetting the position to 0 | 0 / 0.08753403247684122 | equivalence test |

Each kind does something the others cannot. **Hand computation** confirms that every step of a small example is right. **Structural reasoning** derives from the architecture a statement that holds for every input, and a concrete number then illustrates it. A **perturbation test with a control** looks for leaks in real code and shows that the test itself can see one. An **equivalence test** confirms that two computations that should agree really do.
""",
    ru=r"""
# 6 Четыре вида доказательств

Исходная глава завершается независимой проверочной программой, которая печатает шесть чисел, и за каждым стоит свой способ рассуждения. Здесь мы повторяем эту программу средствами `lib`: вместо второй эталонной реализации вызываем `AttentionModel`, `lib.data` и `lib.checks` из предыдущих разделов. Шесть чисел подкрепляют четыре вида доказательств:

| № | что проверяется | что печатала исходная программа | вид доказательства |
| --- | --- | --- | --- |
| 1 | строка 1 выхода двух голов, посчитанного вручную | $[1, 1, a-b, b-a]$ | ручной расчёт |
| 2 | возмущение будущего: изменение первых двух строк | 0.0 | проверка возмущением с контролем |
| 3 | та же проверка без маски (отрицательный контроль) | 39.772020613422825 | проверка возмущением с контролем |
| 4 | дополнение справа: допустимые позиции и учитываемые цели | [True, True, False], [4, 2] | структурное рассуждение |
| 5 | разница последней строки после перестановки первых двух токенов, без позиций / с позициями | 0 / 0.047053077502492324 | структурное рассуждение |
| 6 | кэш против полного прохода / ошибка при сбросе позиции в 0 | 0 / 0.08753403247684122 | проверка эквивалентности |

Каждый вид делает то, чего не могут остальные. **Ручной расчёт** подтверждает, что в маленьком примере верен каждый шаг. **Структурное рассуждение** выводит из архитектуры утверждение, верное для любого входа, а конкретное число его иллюстрирует. **Проверка возмущением с контролем** ищет утечки в настоящем коде и показывает, что сама проверка способна утечку увидеть. **Проверка эквивалентности** подтверждает, что два вычисления, которые обязаны совпадать, действительно совпадают.
""",
)

code(r"""
import numpy as np

from lib import checks
from lib.data import BOS, EOS, IGNORE, UNK, build_vocab, collate, decode, encode
from lib.model import AttentionModel

vocab = build_vocab(["春雨风"])
model = checks.chapter_model()        # E, P, W_O set by hand; identity Q/K/V; D=4, H=2
print(vocab, model.width, model.n_heads, model.context_size)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
""")

md(
    zh=r"""
## 1. 手算：两个头与输出投影

关掉位置项，输入 `<bos> 春`，两行嵌入分别是 $[1,0,0,1]$ 和 $[0,1,1,0]$。第一个头读前两维，第二个头读后两维，每头宽度 $d=2$。

* 第 0 行只能读自己，拼接后仍是 $[1,0,0,1]$。
* 第 1 行在两个头里的分数都是 $[0, 1/\sqrt2]$，权重为 $a = 1/(1+e^{1/\sqrt2})$ 和 $b = 1-a$。第一个头的值是 $[1,0]$ 和 $[0,1]$，输出 $[a,b]$；第二个头的值是 $[0,1]$ 和 $[1,0]$，输出 $[b,a]$。拼接得到 $[a,b,b,a]$。

两个头的权重在这里碰巧相同，但读取的值坐标不同。$W_O$ 把 $[c_0,c_1,c_2,c_3]$ 变成 $[c_0+c_2,\ c_1+c_3,\ c_0-c_2,\ c_1-c_3]$，于是第 0 行输出 $[1,1,1,-1]$，第 1 行输出 $[1,1,a-b,b-a]$，其中 $a \approx 0.330238$，$a-b \approx -0.339523$。经过 $W_O$ 后出现了负数，输出已不再是若干值向量的凸组合；这个数值同时证明了拼接的轴和输出投影确实被用上了。
""",
    en=r"""
## 1. Hand computation: two heads and the output projection

Switch the positions off and feed `<bos> 春`; the two embedding rows are $[1,0,0,1]$ and $[0,1,1,0]$. The first head reads the first two features, the second head the last two; each head has width $d=2$.

* Row 0 can read only itself, so the concatenation is still $[1,0,0,1]$.
* In both heads, row 1 has scores $[0, 1/\sqrt2]$ and weights $a = 1/(1+e^{1/\sqrt2})$ and $b = 1-a$. The first head's values are $[1,0]$ and $[0,1]$, giving $[a,b]$; the second head's values are $[0,1]$ and $[1,0]$, giving $[b,a]$. The concatenation is $[a,b,b,a]$.

The two heads happen to have equal weights here, but they read different value coordinates. $W_O$ maps $[c_0,c_1,c_2,c_3]$ to $[c_0+c_2,\ c_1+c_3,\ c_0-c_2,\ c_1-c_3]$, so row 0 becomes $[1,1,1,-1]$ and row 1 becomes $[1,1,a-b,b-a]$, with $a \approx 0.330238$ and $a-b \approx -0.339523$. After $W_O$ negative numbers appear: the output is no longer a convex combination of value vectors. The figure also proves that the concatenation axis and the output projection are really used.
""",
    ru=r"""
## 1. Ручной расчёт: две головы и выходная проекция

Отключим позиции и подадим `<bos> 春`; строки эмбеддингов — $[1,0,0,1]$ и $[0,1,1,0]$. Первая голова читает первые два признака, вторая — последние два; ширина каждой головы $d=2$.

* Строка 0 может читать только себя, поэтому после склейки остаётся $[1,0,0,1]$.
* В обеих головах у строки 1 оценки $[0, 1/\sqrt2]$ и веса $a = 1/(1+e^{1/\sqrt2})$ и $b = 1-a$. Значения первой головы — $[1,0]$ и $[0,1]$, её выход $[a,b]$; значения второй — $[0,1]$ и $[1,0]$, выход $[b,a]$. После склейки получаем $[a,b,b,a]$.

Веса у двух голов здесь случайно совпали, но читают они разные координаты значений. $W_O$ переводит $[c_0,c_1,c_2,c_3]$ в $[c_0+c_2,\ c_1+c_3,\ c_0-c_2,\ c_1-c_3]$, поэтому строка 0 становится $[1,1,1,-1]$, а строка 1 — $[1,1,a-b,b-a]$, где $a \approx 0.330238$ и $a-b \approx -0.339523$. После $W_O$ появляются отрицательные числа: выход уже не выпуклая комбинация векторов значений. Заодно это число доказывает, что ось склейки и выходная проекция действительно используются.
""",
)

code(r"""
a = 1 / (1 + np.exp(1 / np.sqrt(2)))
b = 1 - a
manual = np.array([[1, 1, 1, -1], [1, 1, a - b, b - a]])
two_heads = model.forward(np.array([BOS, 3]), use_positions=False)   # <bos> 春, positions off
print(round(a, 6), round(a - b, 6))
print(np.round(two_heads, 6))
assert round(a, 6) == 0.330238 and round(a - b, 6) == -0.339523
assert np.abs(two_heads - manual).max() < 1e-12
""")

md(
    zh=r"""
## 2 和 3. 带阴性对照的未来扰动检验

第四节已经详细讨论过这一对数字。`<bos> 春 雨` 与 `<bos> 春 <unk>` 只在最后一个位置不同：带掩码的模型前两行变化为 0.0；关掉掩码的阴性对照变化约 39.7720206134，说明这个检验确实看得见泄漏。两个数必须一起报告，只报告第一个数没有意义。
""",
    en=r"""
## 2 and 3. The future-perturbation test with its negative control

§4 discussed this pair in detail. `<bos> 春 雨` and `<bos> 春 <unk>` differ only at the last position: the masked model's first two rows change by 0.0, and the negative control with the mask off changes by about 39.7720206134, which shows that the test can see a leak. The two numbers belong together; the first alone means nothing.
""",
    ru=r"""
## 2 и 3. Проверка возмущением будущего с отрицательным контролем

Эту пару чисел мы подробно разобрали в §4. `<bos> 春 雨` и `<bos> 春 <unk>` различаются только последней позицией: у модели с маской первые две строки меняются на 0.0, а у отрицательного контроля без маски — примерно на 39.7720206134, то есть проверка действительно способна увидеть утечку. Эти числа сообщают только вместе: первое само по себе ничего не значит.
""",
)

code(r"""
ids = np.array([BOS, 3, 4])            # <bos> 春 雨
perturbed = np.array([BOS, 3, UNK])    # <bos> 春 <unk>
perturbation = checks.check_causality(model.forward, lambda x: model.forward(x, causal=False),
                                      ids, perturbed, prefix_length=2)
print(perturbation.change, f"{perturbation.control_change:.12g}")
assert perturbation.passed and perturbation.change == 0.0
assert abs(perturbation.control_change - 39.772020613422825) < 1e-9
""")

md(
    zh=r"""
## 4. 结构推理：右填充为什么无害

本项目只做右填充。若一条文本的有效长度为 $\ell$，有效查询满足 $i < \ell$，而填充键满足 $j \ge \ell > i$，于是每个填充键都在每个有效查询的未来，因果掩码已经把它们排除在外。这就是为什么模型的前向不需要单独的填充掩码。

`collate(["雨", "春雨"])` 把短文 `雨` 补成输入 `<bos> 雨 <eos>`、目标 `雨 <eos> −100`。哪些位置有效由目标是否等于 −100 决定，得到 `[True, True, False]`，计分目标为 `[4, 2]`。注意第 1 个位置的目标是真正的 `<eos>`（编号 2），它必须计分；输入末尾的 `<eos>` 只是填充角色，不能按它的值去屏蔽任何东西。填充位置的查询照常产生输出，只是不计分。

推理给出的可检验结论是：带填充的输入在有效位置上的输出，与去掉填充的输入完全相同，也与把填充换成别的词元时完全相同。两个差异都是 0.0。
""",
    en=r"""
## 4. Structural reasoning: why right padding is harmless

This project pads on the right only. If a text has valid length $\ell$, the valid queries are $i < \ell$ and the padding keys are $j \ge \ell > i$: every padding key lies in the future of every valid query, and the causal mask already excludes it. That is why the forward pass needs no separate padding mask.

`collate(["雨", "春雨"])` pads the short text `雨` to the input `<bos> 雨 <eos>` with targets `雨 <eos> −100`. Whether a position is valid is decided by its target being different from −100, which gives `[True, True, False]` and the scored targets `[4, 2]`. Note that the target at position 1 is a real `<eos>` (id 2) and must be scored; the `<eos>` at the end of the input only plays the role of padding, and nothing may be masked because of its value. The padded query still produces an output; it is just not scored.

The argument makes a testable prediction: on the valid positions, the output for the padded input equals the output for the input without padding, and equals it again when the padding is replaced by another token. Both differences are 0.0.
""",
    ru=r"""
## 4. Структурное рассуждение: почему дополнение справа безвредно

В проекте используется только дополнение справа. Если настоящая длина текста равна $\ell$, допустимые запросы — это $i < \ell$, а ключи дополнения — $j \ge \ell > i$: каждый ключ дополнения лежит в будущем каждого допустимого запроса, и причинная маска его уже исключает. Поэтому прямому проходу не нужна отдельная маска дополнения.

`collate(["雨", "春雨"])` дополняет короткий текст `雨` до входа `<bos> 雨 <eos>` с целями `雨 <eos> −100`. Допустима ли позиция, решает её цель: она не должна быть равна −100. Получаем `[True, True, False]` и учитываемые цели `[4, 2]`. Заметьте: цель на позиции 1 — настоящий `<eos>` (номер 2), и её нужно учитывать; `<eos>` в конце входа лишь играет роль дополнения, и ничего нельзя маскировать по его значению. Запрос на позиции дополнения по-прежнему даёт выход — он просто не входит в функцию потерь.

Рассуждение даёт проверяемое предсказание: на допустимых позициях выход для дополненного входа совпадает с выходом для входа без дополнения и не меняется, если заменить дополнение другим токеном. Обе разницы равны 0.0.
""",
)

code(r"""
inputs, targets = collate(["雨", "春雨"], vocab)
short_inputs, short_targets = inputs[0], targets[0]
valid = short_targets != IGNORE
scored = short_targets[valid]
print(decode(short_inputs, vocab), short_targets.tolist())
print(valid.tolist(), scored.tolist())
assert valid.tolist() == [True, True, False] and scored.tolist() == [4, EOS]

padded_out = model.forward(short_inputs)                                # (3, D): the padded query has an output too
unpadded = np.abs(padded_out[:2] - model.forward(short_inputs[:2])).max()
replaced = np.abs(padded_out[:2] - model.forward(np.array([BOS, 4, UNK]))[:2]).max()
print(len(padded_out), unpadded, replaced)
assert len(padded_out) == 3 and unpadded == 0.0 and replaced == 0.0
""")

md(
    zh=r"""
## 5. 结构推理：有掩码不等于看得见顺序

比较 `春 风 雨` 与 `风 春 雨` 的最后一行。没有位置项时，两者最后的查询相同（都是 `雨`），它的许可集合包含全部三个位置；交换前两个词元，只是把前两对键和值一起换了顺序。softmax 的权重随键一起交换，再乘以同样交换过的值求和，结果不变，差异为 0。这个单层结构在最后一行上分辨不出前两个词元的顺序，尽管它严格遵守因果性。

加入位置表后，`春` 和 `风` 交换位置也就换了各自加上的 $P$ 行，键和值不再只是换序，最后一行的差异约为 0.0470530775025。

不要把这个反例推广成“凡是有掩码、无位置的模型都看不见顺序”。因果许可集合本身就不对称：同样没有位置项，第 0 行只读自己，在两种顺序下就不同；多层模型还能把这类差异一层层传下去。这里要说明的只是：有了三角掩码，并不等于序列结构已经被完整表示。
""",
    en=r"""
## 5. Structural reasoning: a mask does not make order visible

Compare the last rows for `春 风 雨` and `风 春 雨`. Without positions, both last queries are the same (`雨`), and its allowed set contains all three positions; swapping the first two tokens merely swaps the first two key–value pairs together. The softmax weights are swapped along with the keys, multiplied by the values swapped the same way, and summed: the result is unchanged, a difference of 0. In its last row this one-layer structure cannot tell the order of the first two tokens, although it is strictly causal.

With the position table, swapping `春` and `风` also swaps the $P$ rows added to them, so the keys and values are no longer merely reordered, and the last rows differ by about 0.0470530775025.

Do not stretch this counter-example into "every masked model without positions is blind to order". The causal allowed set is itself asymmetric: even without positions, row 0 reads only itself and differs between the two orders, and a multi-layer model can pass such differences on. The point is narrower: a triangular mask does not mean that the structure of the sequence is fully represented.
""",
    ru=r"""
## 5. Структурное рассуждение: маска ещё не делает порядок видимым

Сравним последние строки для `春 风 雨` и `风 春 雨`. Без позиций последний запрос в обоих случаях один и тот же (`雨`), и его множество разрешённых позиций содержит все три; перестановка первых двух токенов лишь меняет местами первые две пары «ключ — значение». Веса softmax переставляются вместе с ключами, умножаются на так же переставленные значения и суммируются: результат не меняется, разница 0. В последней строке эта однослойная конструкция не различает порядок первых двух токенов, хотя она строго причинна.

С таблицей позиций перестановка `春` и `风` меняет и прибавленные к ним строки $P$, так что ключи и значения уже не просто переставлены, и последние строки различаются примерно на 0.0470530775025.

Не стоит раздувать этот контрпример до «любая модель с маской и без позиций слепа к порядку». Множество разрешённых позиций само несимметрично: даже без позиций строка 0 читает только себя и в двух порядках различается, а многослойная модель может передавать такие различия дальше. Вывод скромнее: треугольная маска ещё не означает, что структура последовательности представлена полностью.
""",
)

code(r"""
order_a, order_b = np.array([3, 5, 4]), np.array([5, 3, 4])          # 春 风 雨 / 风 春 雨
rows_no_pos = np.abs(model.forward(order_a, use_positions=False) - model.forward(order_b, use_positions=False)).max(axis=1)
no_positions = float(rows_no_pos[-1])
with_positions = float(np.abs(model.forward(order_a)[-1] - model.forward(order_b)[-1]).max())
print(no_positions, f"{with_positions:.12g}")
print(np.round(rows_no_pos, 6))                                       # row 0 differs even without positions
assert no_positions < 1e-12 and abs(with_positions - 0.047053077502492324) < 1e-12
assert rows_no_pos[0] > 1
""")

md(
    zh=r"""
## 6. 等价检验：缓存与整段前向

第五节的两个数：逐词元经过缓存的输出与整段前向之差为 0.0；第三个词元的位置被错误地归零时，误差约为 0.0875340324768。第一个数说明缓存实现与整段前向等价，第二个数说明这个检验对位置错误足够敏感，它在这里起着类似阴性对照的作用。
""",
    en=r"""
## 6. Equivalence test: the cache against the full forward

The two figures of §5: the token-by-token output through the cache differs from the full forward by 0.0; with the third token's position wrongly reset to 0 the error is about 0.0875340324768. The first shows that the cache is equivalent to the full forward; the second shows that the test is sensitive enough to catch a position mistake, so it plays a role much like a negative control.
""",
    ru=r"""
## 6. Проверка эквивалентности: кэш против полного прохода

Два числа из §5: пошаговый вывод через кэш отличается от полного прохода на 0.0; если позицию третьего токена ошибочно сбросить в 0, ошибка составит около 0.0875340324768. Первое число показывает, что кэш эквивалентен полному проходу, второе — что проверка достаточно чувствительна, чтобы поймать ошибку в позиции; здесь оно играет роль, близкую к отрицательному контролю.
""",
)

code(r"""
cache_difference = checks.cache_error(model, ids)
reset = checks.incremental_forward(model, ids, positions=[0, 1, 0])   # the third token at position 0: the bug
reset_error = float(np.abs(reset[-1] - model.forward(ids)[-1]).max())
print(cache_difference, f"{reset_error:.12g}")
assert cache_difference == 0.0 and abs(reset_error - 0.08753403247684122) < 1e-12
""")

md(
    zh=r"""
## 六个数放在一起

下面按编号把六个数再打印一遍，并与原程序打印的值比较。凡是非零的浮点数，两边都在约 15 位有效数字上一致（相对差小于 $10^{-13}$，实际约为 $10^{-15}$）；剩下的一点差别只来自运算次序：原程序用纯 Python 逐项求和，`lib` 用 NumPy 的矩阵乘法。为了让输出与 BLAS 线程数无关，这里打印的是舍入到 12 位有效数字的值。
""",
    en=r"""
## The six figures together

Below, the six figures are printed again by number and compared with the values printed by the original program. Every non-zero float agrees to about 15 significant digits (relative difference below $10^{-13}$, in fact around $10^{-15}$); the small remaining discrepancy comes only from the order of operations, since the original program sums term by term in pure Python while `lib` uses NumPy matrix products. To keep the output independent of the number of BLAS threads, the values are printed rounded to 12 significant digits.
""",
    ru=r"""
## Все шесть чисел вместе

Ниже шесть чисел напечатаны ещё раз по номерам и сравнены со значениями исходной программы. Все ненулевые числа с плавающей точкой совпадают примерно в 15 значащих цифрах (относительная разница меньше $10^{-13}$, на деле порядка $10^{-15}$); оставшееся крошечное расхождение вызвано лишь порядком операций: исходная программа суммирует поэлементно на чистом Python, а `lib` использует матричные произведения NumPy. Чтобы вывод не зависел от числа потоков BLAS, значения печатаются округлёнными до 12 значащих цифр.
""",
)

code(r"""
print(1, np.round(two_heads[1], 6).tolist())
print(2, perturbation.change)
print(3, f"{perturbation.control_change:.12g}")
print(4, valid.tolist(), scored.tolist())
print(5, round(no_positions, 12), f"{with_positions:.12g}")
print(6, cache_difference, f"{reset_error:.12g}")

printed_by_the_original = {3: 39.772020613422825, 5: 0.047053077502492324, 6: 0.08753403247684122}
ours = {3: perturbation.control_change, 5: with_positions, 6: reset_error}
relative = {k: abs(ours[k] - v) / v for k, v in printed_by_the_original.items()}
print(all(r < 1e-13 for r in relative.values()))
assert all(r < 1e-13 for r in relative.values())
""")

md(
    zh=r"""
## 这段程序没有证明什么

* **没有训练。** 程序从不更新位置表、投影或词表；没有损失，没有梯度。它检查的是算子的结构，而不是模型能学到什么。
* **单位投影只为手算。** $W_Q$、$W_K$、$W_V$ 都取单位矩阵，手算才变得可行，但也因此掩盖了一类错误：例如把 $W_Q$ 和 $W_K$ 用反了。在手设模型上这种错误的差异恰好是 0.0，而在随机参数的模型上立刻显现。这正是第四、五节还要在随机模型上重复检验的原因。
* **只有一层。** 没有归一化、前馈网络或残差连接；多层的因果性由第四节的归纳论证给出，但还没有在代码上检验。
""",
    en=r"""
## What this program does not prove

* **No training.** The program never updates the position table, the projections or the vocabulary; there is no loss and no gradient. It checks the structure of the operators, not what a model can learn.
* **Identity projections are for hand computation only.** With $W_Q$, $W_K$, $W_V$ all identity matrices the arithmetic can be done by hand, but a whole class of mistakes becomes invisible, for instance using $W_Q$ where $W_K$ belongs. On the hand-set model such a swap changes the output by exactly 0.0; on a model with random parameters it shows at once. That is why §4 and §5 repeat their checks on random models.
* **One layer only.** There is no normalisation, feed-forward network or residual connection. Causality over many layers follows from the induction argument of §4, but has not yet been tested in code.
""",
    ru=r"""
## Чего эта программа не доказывает

* **Никакого обучения.** Программа не обновляет ни таблицу позиций, ни проекции, ни словарь; нет ни функции потерь, ни градиентов. Проверяется устройство операций, а не то, чему модель способна научиться.
* **Единичные проекции — только ради ручного счёта.** Когда $W_Q$, $W_K$ и $W_V$ — единичные матрицы, всё можно посчитать вручную, но целый класс ошибок становится невидимым, например перепутанные $W_Q$ и $W_K$. На модели с ручными параметрами такая перестановка меняет выход ровно на 0.0, а на модели со случайными параметрами сразу проявляется. Поэтому в §4 и §5 проверки повторяются на случайных моделях.
* **Всего один слой.** Нет ни нормализации, ни полносвязного блока, ни остаточных связей. Причинность многослойной модели следует из индукции в §4, но в коде ещё не проверена.
""",
)

code(r"""
def with_query_and_key_swapped(m):
    return AttentionModel(m.token_table, m.position_table, m.w_k, m.w_q, m.w_v, m.w_o, m.n_heads)

hand_set_swap = np.abs(with_query_and_key_swapped(model).forward(ids) - model.forward(ids)).max()
random_params = checks.random_model(0, vocab_size=6, context_size=8, width=4, n_heads=2)
random_swap = np.abs(with_query_and_key_swapped(random_params).forward(ids) - random_params.forward(ids)).max()
print(hand_set_swap, round(float(random_swap), 6))
assert hand_set_swap == 0.0 and random_swap > 0.1
""")

md(
    zh=r"""
## 后续章节要补上的内容

接下来的章节会把同样的算子放进**前置层归一化（pre-LN）的残差块**，加上**带偏置的 GELU 前馈网络**，并让交叉熵的梯度流入全部参数。到那时：

* **整个模型必须重新跑一遍因果检查。** 单层通过并不保证后来新加的归一化、数据切窗或缓存代码没有引入泄漏；上一节的时间轴归一化就是例子。`lib.checks.check_causality` 接受任意前向函数，可以原样用在整个模型上。
* **位置表长度、头数和词表版本必须一起保存。** 它们任何一个单独改变，同一组参数就表示另一个函数，甚至根本无法运行。下面用三个小例子说明：给词表添一个字 `雪`，`风` 的编号就从 5 变成 6（旧模型的表只有 6 行，编号 6 直接越界，而编号 5 会被读成 `雪`）；同一组矩阵按 1 个头而不是 2 个头切分，输出就变了；8 行的位置表无法处理 9 个词元。
""",
    en=r"""
## What the next chapters add

The next chapters put the same operators into **pre-LN residual blocks**, add a **feed-forward network with biases and GELU**, and let the cross-entropy gradient flow into every parameter. Then:

* **The whole model must re-run the causality checks.** Passing for one layer does not guarantee that a newly added normalisation, data windowing or cache code introduced no leak; the time-axis normalisation of §4 is an example. `lib.checks.check_causality` accepts any forward function and applies unchanged to the whole model.
* **The position table length, the head count and the vocabulary version must be saved together.** Change any one of them alone, and the same parameters describe a different function, or cannot run at all. Three small examples below: adding the character `雪` to the vocabulary moves `风` from id 5 to id 6 (the old table has only 6 rows, so id 6 is out of range, while id 5 would now be read as `雪`); the same matrices cut into 1 head instead of 2 give a different output; a position table of 8 rows cannot take 9 tokens.
""",
    ru=r"""
## Что добавят следующие главы

В следующих главах те же операции войдут в **остаточные блоки с предварительной нормализацией (pre-LN)**, к ним добавится **полносвязный блок со смещениями и активацией GELU**, а градиент перекрёстной энтропии потечёт во все параметры. Тогда:

* **Всю модель нужно заново прогнать через проверки причинности.** То, что один слой прошёл проверку, не гарантирует, что новая нормализация, нарезка данных на окна или код кэша не внесли утечку; нормализация вдоль оси времени из §4 — тому пример. `lib.checks.check_causality` принимает любую функцию прямого прохода и без изменений применима ко всей модели.
* **Длину таблицы позиций, число голов и версию словаря нужно сохранять вместе.** Стоит изменить что-то одно, и те же параметры описывают уже другую функцию или вовсе не запускаются. Три небольших примера ниже: если добавить в словарь иероглиф `雪`, номер `风` сменится с 5 на 6 (в старой таблице всего 6 строк, так что номер 6 выходит за её пределы, а номер 5 теперь прочитается как `雪`); те же матрицы, разрезанные на 1 голову вместо 2, дают другой выход; таблица позиций из 8 строк не примет 9 токенов.
""",
)

code(r"""
vocab_v2 = build_vocab(["春雨风雪"])
print(vocab_v2, encode("风", vocab), encode("风", vocab_v2), encode("雪", vocab_v2))
assert encode("风", vocab) == [5] and encode("风", vocab_v2) == [6] and encode("雪", vocab_v2) == [5]

one_head = AttentionModel(model.token_table, model.position_table, model.w_q, model.w_k, model.w_v, model.w_o, n_heads=1)
head_difference = float(np.abs(one_head.forward(ids) - model.forward(ids)).max())
print(round(head_difference, 6))
assert head_difference > 0.01

failures = []
for bad_input in (np.array(encode("风", vocab_v2)), np.array([BOS] + [3] * 8)):   # id 6; 9 tokens
    try:
        model.forward(bad_input)
    except ValueError as err:
        failures.append(type(err).__name__)
print(failures)
assert failures == ["ValueError", "ValueError"]
""")

md(
    zh=r"""
## 小结

本章的每个结论都至少有一种证据支撑，而且证据的类型各不相同：

* **手算**确认了多头拆分、拼接和 $W_O$ 的每一步（编号 1）；
* **结构推理**说明右填充为何无害、单层无位置模型为何分不清最后一行前面的顺序（编号 4、5），并由具体数值印证；
* **带对照的扰动检验**在代码上寻找泄漏，同时证明检验本身有效（编号 2、3）；
* **等价检验**确认缓存与整段前向一致，并对位置错误敏感（编号 6）。

它们都只针对一个参数固定、手工设定的单层模型。模型一旦变深、开始训练，这些检验都要在完整模型上重新运行。
""",
    en=r"""
## Summary

Every conclusion of this chapter rests on at least one piece of evidence, and the kinds differ:

* **hand computation** confirms every step of splitting heads, concatenating them and applying $W_O$ (figure 1);
* **structural reasoning** explains why right padding is harmless and why a one-layer model without positions cannot tell the order before its last row (figures 4 and 5), and concrete numbers illustrate it;
* **perturbation tests with controls** look for leaks in the code and show that the test itself works (figures 2 and 3);
* **equivalence tests** confirm that the cache agrees with the full forward and is sensitive to position mistakes (figure 6).

All of them concern a single hand-set layer with fixed parameters. Once the model gets deeper and is trained, every one of these checks must be run again on the whole model.
""",
    ru=r"""
## Итоги

Каждый вывод этой главы опирается хотя бы на одно доказательство, и доказательства эти разного рода:

* **ручной расчёт** подтверждает каждый шаг разбиения на головы, склейки и применения $W_O$ (число 1);
* **структурное рассуждение** объясняет, почему дополнение справа безвредно и почему однослойная модель без позиций не различает порядок токенов перед последней строкой (числа 4 и 5), а конкретные числа это иллюстрируют;
* **проверки возмущением с контролем** ищут утечки в коде и показывают, что сама проверка работает (числа 2 и 3);
* **проверки эквивалентности** подтверждают, что кэш совпадает с полным проходом и чувствителен к ошибкам в позициях (число 6).

Всё это относится к одному слою с заданными вручную фиксированными параметрами. Как только модель станет глубже и начнёт обучаться, каждую из этих проверок нужно будет повторить на модели целиком.
""",
)
