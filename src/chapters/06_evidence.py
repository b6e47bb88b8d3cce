# §6 Four kinds of evidence: six numbers of §1-§5 recomputed with lib, each with the reasoning
# it illustrates; an independent pure-Python check on the page; what the checks do not prove;
# what a whole model adds (§7).

md(
    zh=r"""
# 6 四类证据

本节把 §1～§5 的论证收拢起来。前几节算出的数里，有六个最能说明问题，它们分属四类证据，每一类回答的问题不同。§6.1～§6.5 用前几节讲过的 `AttentionModel`、`lib.data` 和 `lib.checks` 把这六个数逐一重算；§6.6 再做一次页面上的独立核对：一段只用列表和 `math`、不用 NumPy 的纯 Python 程序，把其中的浮点数重新算一遍，与 `lib` 的结果并排打印，两者的相对差小于 $10^{-14}$。

| 编号 | 检查内容 | 值 | 证据类型 |
| --- | --- | --- | --- |
| 1 | 两头手算输出的第 1 行 | $[1, 1, a-b, b-a]$，$a \approx 0.330238$ | 手算 |
| 2 | 未来扰动：前两行的变化 | 0.0 | 带对照的扰动检验 |
| 3 | 同一检验关掉掩码（阴性对照） | 39.772020613422825 | 带对照的扰动检验 |
| 4 | 右填充：真实位置与计分目标 | [True, True, False]，[4, 2] | 结构论证 |
| 5 | 交换前两个词元后最后一行的差异：无位置 / 有位置 | 0 / 0.047053077502492324 | 结构论证 |
| 6 | 缓存与完整前向传播之差 / 位置归零后的误差 | 0 / 0.08753403247684122 | 等价检验 |

四类证据各有所长：**手算**确认一个小例子里每一步都算对了；**结构论证**从架构推出对所有输入都成立的结论，再用具体数值印证；**带对照的扰动检验**在真实代码上寻找泄漏，并证明检验本身看得见泄漏；**等价检验**确认两种本应相同的计算路径确实给出相同结果。这六个数只是例证，各自只覆盖一个小例子。
""",
    en=r"""
# 6 Four kinds of evidence

This section brings the arguments of §1–§5 together. Six of the numbers computed so far are the most telling; they illustrate four kinds of evidence, and each kind answers a different question. §6.1–§6.5 recompute the six one by one with the `AttentionModel`, `lib.data` and `lib.checks` of the previous sections. §6.6 then runs an independent check on the page: a short pure-Python program, with lists and `math` only and no NumPy, computes the floating-point numbers again and prints them next to the values from `lib`; the two agree to a relative difference below $10^{-14}$.

| no. | what is checked | value | kind of evidence |
| --- | --- | --- | --- |
| 1 | row 1 of the two-head output computed by hand | $[1, 1, a-b, b-a]$, $a \approx 0.330238$ | hand computation |
| 2 | future perturbation: change of the first two rows | 0.0 | perturbation test with a control |
| 3 | the same test with the mask off (negative control) | 39.772020613422825 | perturbation test with a control |
| 4 | right padding: real positions and scored targets | [True, True, False], [4, 2] | structural argument |
| 5 | last-row difference after swapping the first two tokens, without / with positions | 0 / 0.047053077502492324 | structural argument |
| 6 | cache vs. the full forward pass / error after resetting the position to 0 | 0 / 0.08753403247684122 | equivalence test |

Each kind does something the others cannot. **Hand computation** confirms that every step of a small example is right. A **structural argument** derives from the architecture a statement that holds for every input, and a concrete number then illustrates it. A **perturbation test with a control** looks for leaks in real code and shows that the test itself can see one. An **equivalence test** confirms that two computations that should agree really do. The six numbers are illustrations; each covers one small example only.
""",
    ru=r"""
# 6 Четыре вида свидетельств

В этом разделе сводятся вместе рассуждения из §1–§5. Из вычисленных до сих пор чисел шесть самые показательные; они иллюстрируют четыре вида свидетельств, и каждый вид отвечает на свой вопрос. В §6.1–§6.5 эти шесть чисел по очереди пересчитываются с помощью `AttentionModel`, `lib.data` и `lib.checks` из предыдущих разделов. Затем в §6.6 прямо на странице проводится независимая проверка: короткая программа на чистом Python — только списки и `math`, без NumPy — заново вычисляет числа с плавающей точкой и печатает их рядом со значениями `lib`; их относительная разность меньше $10^{-14}$.

| № | что проверяется | значение | вид свидетельства |
| --- | --- | --- | --- |
| 1 | строка 1 выхода двух голов, посчитанного вручную | $[1, 1, a-b, b-a]$, $a \approx 0{,}330238$ | ручной расчёт |
| 2 | возмущение будущего: изменение первых двух строк | 0,0 | проверка возмущением с контролем |
| 3 | та же проверка без маски (отрицательный контроль) | 39,772020613422825 | проверка возмущением с контролем |
| 4 | дополнение справа: настоящие позиции и учитываемые целевые метки | [True, True, False], [4, 2] | структурное рассуждение |
| 5 | разность последней строки после перестановки первых двух токенов, без позиций / с позициями | 0 / 0,047053077502492324 | структурное рассуждение |
| 6 | расхождение кэша и полного прохода / ошибка при сбросе позиции в 0 | 0 / 0,08753403247684122 | проверка эквивалентности |

Каждый вид делает то, чего не могут остальные. **Ручной расчёт** подтверждает, что в маленьком примере верен каждый шаг. **Структурное рассуждение** выводит из устройства модели утверждение, верное для любого входа, а конкретное число его иллюстрирует. **Проверка возмущением с контролем** ищет утечки в настоящем коде и показывает, что сама проверка способна утечку увидеть. **Проверка эквивалентности** подтверждает, что два вычисления, которые обязаны совпадать, действительно совпадают. Шесть чисел — лишь примеры, и каждое относится только к одному маленькому случаю.
""",
)

code(r"""
import math

import numpy as np

from lib import checks
from lib.data import (
    BOS,
    EOS,
    IGNORE,
    UNK,
    build_vocab,
    collate,
    decode,
    encode,
)
from lib.model import AttentionModel

vocab = build_vocab(["春雨风"])
#zh §4.1 的模型：手工设定的 E、P、W_O，单位 Q/K/V，D=4，H=2
#en the model of §4.1: hand-chosen E, P, W_O; identity Q/K/V; D=4, H=2
#ru модель из §4.1: E, P, W_O заданы вручную, Q/K/V единичные, D=4, H=2
model = checks.chapter_model()
print(vocab, model.width, model.n_heads, model.context_size)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
""")

md(
    zh=r"""
## 6.1 手算：两个头与输出投影（编号 1）

§2.5 已经手算过这个例子，这里只保留结果和它说明的事。关掉位置项后，`<bos> 春` 的两行输入是 $[1,0,0,1]$ 和 $[0,1,1,0]$。第 1 行在两个头里给两个位置的权重都是 $a = 1/(1+e^{1/\sqrt2}) \approx 0.330238$ 和 $b = 1-a$，合并两个头得到 $[a, b, b, a]$，仍是值向量的加权平均。$W_O$ 把它变成 $[1, 1, a-b, b-a]$，其中 $a-b \approx -0.339523$ 是负数：这些值全都非负，它们的加权平均不可能为负。第 0 行只读自己，变成 $[1, 1, 1, -1]$。下面的单元格把模型输出的两行与这两个公式逐项比较，误差在 $10^{-12}$ 以内。
""",
    en=r"""
## 6.1 Hand computation: two heads and the output projection (no. 1)

§2.5 worked this example by hand; here we keep the result and what it shows. With positions off, `<bos> 春` enters as the rows $[1,0,0,1]$ and $[0,1,1,0]$. In both heads, row 1 gives the two positions the weights $a = 1/(1+e^{1/\sqrt2}) \approx 0.330238$ and $b = 1-a$, and merging the heads gives $[a, b, b, a]$, still a weighted mean of value vectors. $W_O$ turns it into $[1, 1, a-b, b-a]$ with $a-b \approx -0.339523$, a negative number: no weighted mean of these non-negative values can be negative. Row 0 reads only itself and becomes $[1, 1, 1, -1]$. The cell below compares both rows of the model's output with these formulas, entry by entry, to within $10^{-12}$.
""",
    ru=r"""
## 6.1 Ручной расчёт: две головы и выходная проекция (№ 1)

Этот пример мы посчитали вручную в §2.5; здесь остаются результат и то, что он показывает. При отключённых позициях входом для `<bos> 春` служат строки $[1,0,0,1]$ и $[0,1,1,0]$. В обеих головах строка 1 назначает двум позициям веса $a = 1/(1+e^{1/\sqrt2}) \approx 0{,}330238$ и $b = 1-a$, и склейка голов даёт $[a, b, b, a]$ — всё ещё взвешенное среднее векторов значений. $W_O$ превращает его в $[1, 1, a-b, b-a]$, где $a-b \approx -0{,}339523$ — отрицательное число, а взвешенное среднее этих неотрицательных значений отрицательным быть не может. Строка 0 читает только себя и становится $[1, 1, 1, -1]$. Ячейка ниже поэлементно сверяет обе строки выхода модели с этими формулами с точностью до $10^{-12}$.
""",
)

code(r"""
a = 1 / (1 + np.exp(1 / np.sqrt(2)))
b = 1 - a
manual = np.array([[1, 1, 1, -1], [1, 1, a - b, b - a]])
#zh <bos> 春，关掉位置项
#en <bos> 春 with positions off
#ru <bos> 春 без позиций
two_heads = model.forward(np.array([BOS, 3]), use_positions=False)
print(round(a, 6), round(a - b, 6))
print(np.round(two_heads, 6))
assert round(a, 6) == 0.330238 and round(a - b, 6) == -0.339523
assert np.abs(two_heads - manual).max() < 1e-12
""")

md(
    zh=r"""
## 6.2 带阴性对照的未来扰动检验（编号 2、3）

§4.3 和 §4.4 已经详细讨论过这一对数。`<bos> 春 雨` 与 `<bos> 春 <unk>` 只在最后一个位置不同：带掩码的模型前两行变化为 0.0；关掉掩码的阴性对照变化约 39.7720206134，说明这个检验确实看得见泄漏。两个数必须一起报告，只报告第一个数没有意义。
""",
    en=r"""
## 6.2 The future-perturbation test with its negative control (nos. 2 and 3)

§4.3 and §4.4 discussed this pair in detail. `<bos> 春 雨` and `<bos> 春 <unk>` differ only at the last position: the masked model's first two rows change by 0.0, and the negative control with the mask off changes by about 39.7720206134, which shows that the test can see a leak. The two numbers belong together; the first alone means nothing.
""",
    ru=r"""
## 6.2 Проверка возмущением будущего с отрицательным контролем (№ 2 и 3)

Эту пару чисел мы подробно разобрали в §4.3 и §4.4. `<bos> 春 雨` и `<bos> 春 <unk>` различаются только последней позицией: у модели с маской первые две строки меняются на 0,0, а у отрицательного контроля без маски — примерно на 39,7720206134, то есть проверка действительно способна увидеть утечку. Эти числа имеют смысл только вместе: первое само по себе ничего не значит.
""",
)

code(r"""
ids = np.array([BOS, 3, 4])
perturbed = np.array([BOS, 3, UNK])
print(decode(ids, vocab), "|", decode(perturbed, vocab))
perturbation = checks.check_causality(
    model.forward, lambda x: model.forward(x, causal=False), ids, perturbed,
    prefix_length=2)
print(perturbation.change, f"{perturbation.control_change:.12g}")
assert perturbation.passed and perturbation.change == 0.0
assert abs(perturbation.control_change - 39.772020613422825) < 1e-9
""")

md(
    zh=r"""
## 6.3 结构论证：右填充为什么无害（编号 4）

本章只用右填充。若一条文本的真实长度为 $\ell$，真实位置上的查询满足 $i < \ell$，而填充键满足 $j \ge \ell > i$，于是每个填充键都在每个真实查询的未来，因果掩码已经把它们排除在外。这就是为什么模型的前向传播不需要单独的填充掩码。

`collate(["雨", "春雨"])` 把较短的文本 `雨` 补成输入 `<bos> 雨 <eos>`、目标 `雨 <eos> −100`。哪些位置是真实位置，由目标是否等于 −100 决定，得到 `[True, True, False]`，计分目标为 `[4, 2]`。注意第 1 个位置的目标是真正的 `<eos>`（编号 2），它必须计分；输入末尾的 `<eos>` 只是填充角色，不能按它的值去屏蔽任何东西。填充位置的查询照常产生输出，只是不计分。

由这个论证可以得到一个能用代码核对的结论：带填充的输入在真实位置上的输出，与去掉填充的输入完全相同，也与把填充换成别的词元时完全相同。两个差异都是 0.0。
""",
    en=r"""
## 6.3 Structural argument: why right padding is harmless (no. 4)

The chapter pads on the right only. If a text has real length $\ell$, the queries at real positions are $i < \ell$ and the padding keys are $j \ge \ell > i$: every padding key lies in the future of every real query, and the causal mask already excludes it. That is why the forward pass needs no separate padding mask.

`collate(["雨", "春雨"])` pads the short text `雨` to the input `<bos> 雨 <eos>` with targets `雨 <eos> −100`. Which positions are real is decided by whether their target differs from −100, which gives `[True, True, False]` and the scored targets `[4, 2]`. Note that the target at position 1 is a real `<eos>` (id 2) and must be scored; the `<eos>` at the end of the input only plays the role of padding, and nothing may be masked because of its value. The padded query still produces an output; it is just not scored.

The argument makes a testable prediction: at the real positions, the output for the padded input equals the output for the input without padding, and equals it again when the padding is replaced by another token. Both differences are 0.0.
""",
    ru=r"""
## 6.3 Структурное рассуждение: почему дополнение справа безвредно (№ 4)

В этой главе используется только дополнение справа. Если настоящая длина текста равна $\ell$, запросы в настоящих позициях — это $i < \ell$, а ключи дополнения — $j \ge \ell > i$: каждый ключ дополнения лежит в будущем каждого настоящего запроса, и причинная маска его уже исключает. Поэтому прямому проходу не нужна отдельная маска дополнения.

`collate(["雨", "春雨"])` дополняет короткий текст `雨` до входа `<bos> 雨 <eos>` с целевыми метками `雨 <eos> −100`. Какие позиции настоящие, определяет целевая метка: позиция настоящая, если её метка не равна −100. Получаем `[True, True, False]` и учитываемые целевые метки `[4, 2]`. Заметьте: целевая метка в позиции 1 — настоящий `<eos>` (номер 2), и её нужно учитывать; `<eos>` в конце входа лишь играет роль дополнения, и ничего нельзя маскировать по его значению. Запрос в позиции дополнения по-прежнему даёт выход — он просто не входит в функцию потерь.

Рассуждение даёт проверяемое предсказание: в настоящих позициях выход для дополненного входа совпадает с выходом для входа без дополнения и не меняется, если заменить дополнение другим токеном. Обе разности равны 0,0.
""",
)

code(r"""
inputs, targets = collate(["雨", "春雨"], vocab)
short_inputs, short_targets = inputs[0], targets[0]
real = short_targets != IGNORE
scored = short_targets[real]
print(decode(short_inputs, vocab), short_targets.tolist())
print(real.tolist(), scored.tolist())
assert real.tolist() == [True, True, False] and scored.tolist() == [4, EOS]

#zh (3, D)：填充位置的查询同样有输出
#en (3, D): the padded query has an output too
#ru (3, D): у запроса в позиции дополнения тоже есть выход
padded_out = model.forward(short_inputs)
unpadded = np.abs(padded_out[:2] - model.forward(short_inputs[:2])).max()
replaced = np.abs(padded_out[:2]
                  - model.forward(np.array([BOS, 4, UNK]))[:2]).max()
print(len(padded_out), round(unpadded, 12), round(replaced, 12))
assert len(padded_out) == 3 and unpadded < 1e-12 and replaced < 1e-12
""")

md(
    zh=r"""
## 6.4 结构论证：有掩码不等于看得见顺序（编号 5）

这个数 §3 已经解释过。简单地说：对 `春 风 雨` 与 `风 春 雨` 的最后一个查询而言，没有位置项时交换前两个词元，只是把成对的键和值一起调换了次序，而加权求和与各项的次序无关，所以两个最后一行在舍入误差内相同。有了位置项，`春` 和 `风` 在两种顺序下加上的是不同的 $P$ 行，最后一行便相差约 0.0470530775025。

这个数没有说的是：它只关乎一层里的一行。即使没有位置项，第 0 行也分得清两种顺序，因为它读的就是自己那个不同的词元（下面打印的第三行）；第二层还可以把这种差别带到最后一行（§3.4 在两层上量过）。这里的结论仅仅是：因果掩码本身不会告诉模型它读到的内容是什么顺序。
""",
    en=r"""
## 6.4 Structural argument: a mask does not make order visible (no. 5)

§3 explained this number. In short: for the last query of `春 风 雨` and `风 春 雨`, swapping the first two tokens without positions only reorders key–value pairs that move together, and a weighted sum does not depend on the order of its terms, so the two last rows agree up to rounding. With positions, `春` and `风` receive different rows of $P$ in the two orders, and the last rows then differ by about 0.0470530775025.

What the number does not say: it concerns one row of one layer. Even without positions, row 0 tells the two orders apart, since it reads its own token, which differs (the third printed line); and a second layer can carry that difference on to the last row (§3.4 measures this on two layers). The claim is only that a causal mask by itself does not tell a model in which order it read things.
""",
    ru=r"""
## 6.4 Структурное рассуждение: маска ещё не делает порядок видимым (№ 5)

Это число уже объяснено в §3. Коротко: для последнего запроса `春 风 雨` и `风 春 雨` без позиций перестановка первых двух токенов лишь меняет порядок пар «ключ — значение», которые переставляются вместе, а взвешенная сумма от порядка слагаемых не зависит, поэтому последние строки совпадают с точностью до округления. С позициями к `春` и `风` при двух порядках прибавляются разные строки $P$, и последние строки различаются примерно на 0,0470530775025.

Чего это число не утверждает: речь идёт об одной строке одного слоя. Даже без позиций строка 0 различает два порядка, ведь она читает собственный токен, а он разный (третья напечатанная строка); второй же слой может донести это различие до последней строки (в §3.4 это измерено на двух слоях). Утверждается лишь одно: причинная маска сама по себе не сообщает модели, в каком порядке она прочитала входы.
""",
)

code(r"""
order_a, order_b = np.array([3, 5, 4]), np.array([5, 3, 4])
print(decode(order_a, vocab), "|", decode(order_b, vocab))
rows_no_pos = np.abs(
    model.forward(order_a, use_positions=False)
    - model.forward(order_b, use_positions=False)).max(axis=1)
no_positions = float(rows_no_pos[-1])
with_positions = float(np.abs(model.forward(order_a)[-1]
                              - model.forward(order_b)[-1]).max())
print(round(no_positions, 12), f"{with_positions:.12g}")
print(np.round(rows_no_pos, 6))  #zh 即使没有位置项，第 0 行也不同 #en row 0 differs even without positions #ru строка 0 различается даже без позиций
assert (no_positions < 1e-12
        and abs(with_positions - 0.047053077502492324) < 1e-12)
assert rows_no_pos[0] > 1
""")

md(
    zh=r"""
## 6.5 等价检验：缓存与完整前向传播（编号 6）

§5.2 和 §5.3 给出了两个数：逐词元经过缓存的输出与完整前向传播之差为 0.0；第三个词元的位置被错误地归零时，误差约为 0.0875340324768。第一个数说明缓存实现与完整前向传播等价，第二个数说明这个检验对位置错误足够敏感，它在这里起着类似阴性对照的作用。
""",
    en=r"""
## 6.5 Equivalence test: the cache and the full forward pass (no. 6)

§5.2 and §5.3 gave two numbers: the token-by-token output through the cache differs from the full forward pass by 0.0, and with the third token's position wrongly reset to 0 the error is about 0.0875340324768. The first shows that the cache is equivalent to the full forward pass; the second shows that the test is sensitive enough to catch a position mistake, so it plays a role much like a negative control.
""",
    ru=r"""
## 6.5 Проверка эквивалентности: кэш и полный проход (№ 6)

Два числа из §5.2 и §5.3: пошаговый выход через кэш отличается от полного прохода на 0,0; если позицию третьего токена ошибочно сбросить в 0, ошибка составит около 0,0875340324768. Первое число показывает, что кэш эквивалентен полному проходу, второе — что проверка достаточно чувствительна, чтобы поймать ошибку в позиции; здесь оно играет роль, близкую к отрицательному контролю.
""",
)

code(r"""
cache_difference = checks.cache_error(model, ids)
#zh 错误所在：第三个词元放在位置 0
#en the bug: the third token at position 0
#ru ошибка: третий токен в позиции 0
reset = checks.incremental_forward(model, ids, positions=[0, 1, 0])
reset_error = float(np.abs(reset[-1] - model.forward(ids)[-1]).max())
print(round(cache_difference, 12), f"{reset_error:.12g}")
assert (cache_difference < 1e-12
        and abs(reset_error - 0.08753403247684122) < 1e-12)
""")

md(
    zh=r"""
## 6.6 页面上的独立核对：用纯 Python 重算

上面的数都来自 `lib`。如果 `lib` 里有一个错误，比如头拆错了、缩放因子写错了、$W_O$ 转置了，前面的断言仍可能一起通过，因为它们常常是拿 `lib` 的一种用法去比另一种用法。所以最后换一条与 `lib` 的 NumPy 实现不共用任何代码的路径。

§3.4 已经用 `lib/plain_python.py` 算过这一层的最后一行。这个模块除了 `math` 什么都不导入（`tests/test_plain_python.py` 检查这一点，并在随机模型上把它与 `AttentionModel` 比较）：`input_rows` 把词元行和位置行相加，`read` 做一个查询要做的事，即每个头的缩放点积、减去最大分数后的 softmax、加权求和，再把各头拼起来乘 $W_O$。整层的输出不需要新的算术。按 §4.2，因果层的第 $i$ 行就是查询 $i$ 从第 $0$～$i$ 行读到的东西；阴性对照里，查询 $i$ 读全部行。下面的 `layer_py` 就是这两句话。它的 `positions` 参数可以直接写出位置归零的错误：位置 0 上的第三个词元读取位置 0、1 的键和值以及它自己放错了位置的那一行，这正是 §5.3 里那次错误的缓存步骤读到的内容。

这些表取自模型本身，转换成列表：两条路径共用数据，不共用代码。
""",
    en=r"""
## 6.6 An independent check on the page: the same numbers in plain Python

All the numbers above come from `lib`. If `lib` had a bug, say a wrong head split, a wrong scale factor or a transposed $W_O$, the assertions so far could still pass together, since many of them compare one use of `lib` with another. So we finish along a route that shares no code with `lib`'s NumPy implementation.

§3.4 computed the last row of the layer with `lib/plain_python.py`, a module of lists, loops and the `math` module that imports nothing but `math` (`tests/test_plain_python.py` checks this, and compares it with `AttentionModel` on random models): `input_rows` adds the token and position rows, and `read` does what one query does, that is, the scaled dot products of each head, a softmax with the largest score subtracted, the weighted sum, and the heads joined and multiplied by $W_O$. The whole layer needs no new arithmetic. By §4.2, row $i$ of the causal layer is what query $i$ reads from rows $0$ to $i$; in the negative control, query $i$ reads every row. `layer_py` below says just that. Its `positions` argument writes the reset bug directly: the third token, placed at position 0, reads the keys and values of positions 0 and 1 and its own wrongly placed row, which is what the faulty cached step of §5.3 reads.

The tables are the model's own, turned into lists: the two routes share the data, not the code.
""",
    ru=r"""
## 6.6 Независимая проверка на странице: те же числа на чистом Python

Все числа выше получены с помощью `lib`. Будь в `lib` ошибка — скажем, неверное разбиение на головы, не тот масштабный множитель или транспонированная $W_O$, — все прежние проверки всё равно могли бы пройти, ведь многие из них сравнивают один способ вызвать `lib` с другим. Поэтому напоследок пойдём путём, у которого нет общего кода с реализацией `lib` на NumPy.

В §3.4 последняя строка слоя уже вычислялась с помощью `lib/plain_python.py` — модуля из списков, циклов и функций `math`, который не импортирует ничего, кроме `math` (это проверяет `tests/test_plain_python.py`; там же он сверяется с `AttentionModel` на случайных моделях): `input_rows` складывает строки токенов и позиций, а `read` делает то, что делает один запрос: масштабированные скалярные произведения в каждой голове, softmax с вычитанием наибольшей оценки, взвешенную сумму, склейку голов и умножение на $W_O$. Для всего слоя новая арифметика не нужна. По §4.2 строка $i$ причинного слоя — это то, что запрос $i$ читает из строк с $0$ по $i$; в отрицательном контроле запрос $i$ читает все строки. Функция `layer_py` ниже ровно это и записывает. Её аргумент `positions` позволяет прямо записать ошибку со сбросом позиции: третий токен, поставленный в позицию 0, читает ключи и значения позиций 0 и 1 и собственную строку, оказавшуюся не на своём месте, — то же, что читает ошибочный шаг с кэшем из §5.3.

Таблицы взяты у самой модели и превращены в списки: у двух путей общие данные, но не код.
""",
)

code(r"""
from lib import plain_python

E_rows, P_rows, W_O_rows = (
    table.tolist()
    for table in (model.token_table, model.position_table, model.w_o))
#zh §6.1 手算用的两行
#en the two rows of the hand computation in §6.1
#ru две строки ручного расчёта из §6.1
assert (E_rows[BOS] == [1.0, 0.0, 0.0, 1.0]
        and E_rows[3] == [0.0, 1.0, 1.0, 0.0])


def layer_py(tokens, positions=None, use_positions=True, causal=True):
    #zh 查询 i 读取第 0～i 行（因果），或读取全部行（阴性对照）
    #en query i reads rows 0..i (causal), or every row (the negative control)
    #ru запрос i читает строки 0..i (причинно) или все строки (отрицательный
    #ru контроль)
    rows = plain_python.input_rows(
        tokens, E_rows, P_rows, positions, use_positions)
    return [plain_python.read(row, rows[:i + 1] if causal else rows,
                              model.n_heads, W_O_rows) for i,
            row in enumerate(rows)]


def largest_difference(rows, other_rows):
    largest = 0.0
    for row, other in zip(rows, other_rows, strict=True):
        largest = max(largest,
                      max(abs(u - w) for u,
                          w in zip(row, other, strict=True)))
    return largest


clean, perturbed = [BOS, 3, 4], [BOS, 3, UNK]
py = {
    1: layer_py([BOS, 3], use_positions=False)[1][2],
    2: largest_difference(layer_py(clean)[:2], layer_py(perturbed)[:2]),
    3: largest_difference(layer_py(clean, causal=False)[:2],
                          layer_py(perturbed, causal=False)[:2]),
    5: largest_difference(layer_py([3, 5, 4])[-1:],
                          layer_py([5, 3, 4])[-1:]),
    6: largest_difference(layer_py(clean, positions=[0, 1, 0])[-1:],
                          layer_py(clean)[-1:]),
}
#zh 打印 15 位有效数字：libm 不同，最后一位可能不同
#en 15 significant digits: another libm may differ in the last bit
#ru 15 значащих цифр: с другой libm последний бит может отличаться
for number, value in py.items():
    print(number, f"{value:.15g}")
source_figures = {1: -0.33952309865331376, 3: 39.772020613422825,
                  5: 0.047053077502492324, 6: 0.08753403247684122}
assert all(abs(py[n] - source_figures[n]) <= 1e-14 * abs(source_figures[n])
           for n in source_figures)
a_py = 1 / (1 + math.exp(1 / math.sqrt(2)))
print(round(a_py, 6))
# a - b = 2a - 1
assert round(a_py, 6) == 0.330238 and abs(py[1] - (2 * a_py - 1)) < 1e-15
assert py[2] == 0.0
""")

md(
    zh=r"""
下面把纯 Python 的结果与 `lib` 的结果并排打印：编号、`lib` 的值、纯 Python 的值，最后一列回答“两者的相对差是否小于 $10^{-14}$”。编号 1 比较的是 $a-b$（第 1 行输出的第 3 个分量）；编号 4 只涉及整数和布尔值，不在此列。两条路径做的运算相同，只是次序可能不同（`lib` 用 NumPy 的矩阵乘法，纯 Python 逐项求和），所以最后一两位可能不同。差本身只有舍入误差的量级：它在这台机器上可能恰好为 0，在另一种 CPU 上可能是 $10^{-16}$，所以这里不打印它，只打印它是否低于界限。值本身舍入到 12 位有效数字打印，在任何机器上都一样。
""",
    en=r"""
Below, the pure-Python results are printed next to those of `lib`: the number, the value from `lib`, the pure-Python value, and in the last column whether the two agree to a relative difference below $10^{-14}$. Number 1 compares $a-b$ (the third component of output row 1); number 4 involves only integers and booleans and is left out. Both routes perform the same operations, possibly in a different order (`lib` uses NumPy matrix products, the pure-Python code sums term by term), so the last digit or two may differ. The difference itself is rounding error: exactly 0 on one CPU, $10^{-16}$ on another. So the cell does not print it; it prints whether it stays below the bound. The values are printed rounded to 12 significant digits, which every machine prints alike.
""",
    ru=r"""
Ниже результаты на чистом Python напечатаны рядом с результатами `lib`: номер, значение `lib`, значение, полученное на чистом Python, а в последнем столбце — меньше ли их относительная разность, чем $10^{-14}$. Под номером 1 сравнивается $a-b$ (третья компонента строки 1 выхода); номер 4 касается только целых чисел и логических значений и здесь не участвует. Оба пути выполняют одни и те же операции, но, возможно, в другом порядке (`lib` использует матричные произведения NumPy, программа на чистом Python суммирует слагаемые по одному), поэтому последние один-два знака могут различаться. Сама разность — это ошибка округления: на одном процессоре она в точности равна нулю, на другом составляет $10^{-16}$. Поэтому ячейка печатает не её, а то, остаётся ли она ниже границы. Значения печатаются округлёнными до 12 значащих цифр, и так они выглядят на любой машине.
""",
)

code(r"""
ours = {1: float(two_heads[1, 2]), 2: perturbation.change,
        3: perturbation.control_change, 5: with_positions, 6: reset_error}
differences = {n: abs(ours[n] - py[n]) for n in ours}
within_bound = {n: differences[n] <= 1e-14 * abs(py[n]) for n in ours}
for n in ours:
    print(n, f"{ours[n]:.12g}", f"{py[n]:.12g}", within_bound[n])
assert all(within_bound.values())
assert max(differences.values()) < 1e-13
""")

md(
    zh=r"""
## 6.7 这些检查没有证明什么

* **没有训练。** 这里从不更新位置表、投影或词表；没有损失，没有梯度。检查的是算子的结构，而不是模型能学到什么。
* **单位投影只为手算。** $W_Q$、$W_K$、$W_V$ 都取单位矩阵，手算才变得可行，但也因此掩盖了一类错误：例如把 $W_Q$ 和 $W_K$ 用反了。在 §4.1 的模型上这种错误造成的差异是 0.0，而在随机参数的模型上立刻显现。这正是 §4 和 §5 还要在随机模型上重复检验的原因。
* **只有一层。** 没有归一化、逐位置 MLP 或残差连接；多层的因果性由 §4.2 的归纳论证给出，§5.5 在一个随机参数的两层模型上检验了缓存，但完整的多层模型要到 §7 才在代码上检验。
""",
    en=r"""
## 6.7 What these checks do not prove

* **No training.** Nothing here updates the position table, the projections or the vocabulary; there is no loss and no gradient. The checks concern the structure of the operators, not what a model can learn.
* **Identity projections are for hand computation only.** With $W_Q$, $W_K$, $W_V$ all identity matrices the arithmetic can be done by hand, but a whole class of mistakes becomes invisible, for instance using $W_Q$ where $W_K$ belongs. On the model of §4.1 such a swap changes the output by 0.0; on a model with random parameters it shows at once. That is why §4 and §5 repeat their checks on random models.
* **One layer only.** There is no normalisation, position-wise MLP or residual connection. Causality over many layers follows from the induction argument of §4.2, and §5.5 checked the cache on a two-layer model with random parameters, but a complete multi-layer model is tested in code only in §7.
""",
    ru=r"""
## 6.7 Чего эти проверки не доказывают

* **Никакого обучения.** Здесь не обновляются ни таблица позиций, ни проекции, ни словарь; нет ни функции потерь, ни градиентов. Проверяется устройство операций, а не то, чему модель способна научиться.
* **Единичные проекции — только ради ручного счёта.** Когда $W_Q$, $W_K$ и $W_V$ — единичные матрицы, всё можно посчитать вручную, но целый класс ошибок становится невидимым, например перепутанные $W_Q$ и $W_K$. На модели из §4.1 такая перестановка меняет выход на 0,0, а на модели со случайными параметрами сразу проявляется. Поэтому в §4 и §5 проверки повторяются на случайных моделях.
* **Всего один слой.** Нет ни нормализации, ни позиционного MLP, ни остаточных связей. Причинность многослойной модели следует из индукции в §4.2, а в §5.5 кэш проверен на двухслойной модели со случайными параметрами, но полная многослойная модель проверяется в коде только в §7.
""",
)

code(r"""
def with_query_and_key_swapped(m):
    return AttentionModel(m.token_table, m.position_table, m.w_k, m.w_q,
                          m.w_v, m.w_o, m.n_heads)

hand_chosen_swap = np.abs(with_query_and_key_swapped(model).forward(ids)
                          - model.forward(ids)).max()
random_params = checks.random_model(
    0, vocab_size=6, context_size=8, width=4, n_heads=2)
random_swap = np.abs(with_query_and_key_swapped(random_params).forward(ids)
                     - random_params.forward(ids)).max()
print(hand_chosen_swap, round(float(random_swap), 6))
assert hand_chosen_swap == 0.0 and random_swap > 0.1
""")

md(
    zh=r"""
## 6.8 完整的模型还要加上什么

实际的项目会训练一个手写的、只含解码器（decoder-only）的模型，比如用 PyTorch 写、不借助 `nn.Transformer`：它由前置层归一化（pre-LN）的残差块、带偏置和 GELU 的逐位置 MLP 以及可学习的绝对位置组成，全部参数用交叉熵联合训练。§7 用 NumPy 搭一个同类的小模型并训练它。到那时有两件事要做到：

* **因果检查要在整个模型上重跑。** 单层模型过了关，不代表后来加上的归一化层、把数据切成窗口的管线或缓存代码同样干净：§4.7 的时间轴归一化就在注意力完全正确的情况下泄漏了未来。`lib.checks.check_causality` 接受任意前向函数，整个模型可以原样套用。
* **位置表长度、头数和词表要与参数一起保存。** 参数只有配上它们才有意义：单独改动其中一个，同样的数就表示另一个函数，甚至根本跑不起来。下面三个小例子。用 `春雨风雪` 建的词表按码位排序，`雪` 排在 `风` 前面，于是 `雪` 拿到编号 5，`风` 挪到编号 6。旧模型里编号 5 指的是 `风`（它的第 5 行就是 `风` 的向量），新词表却把 5 读成 `雪`：用新词表编码的文本会让 `雪` 拿到 `风` 的向量；`风` 的新编号 6 则超出了旧表的 6 行。同一组矩阵按 1 个头而不是 2 个头切分，算出的输出就不同。8 行的位置表也接不下第 9 个词元。
""",
    en=r"""
## 6.8 What a whole model adds

A real project would train a decoder-only model written by hand, say in PyTorch and without `nn.Transformer`: pre-LN residual blocks (layer normalisation before each sublayer), a position-wise MLP with biases and GELU, and learned absolute positions, with all parameters trained together on cross-entropy. §7 builds a small model of this kind in NumPy and trains it. Two things then matter:

* **Run the causality checks again on the whole model.** A check that one layer passed says nothing about code added later: a normalisation layer, the pipeline that cuts the data into windows, the cache. The time-axis normalisation of §4.7 leaks while the attention itself is correct. `lib.checks.check_causality` takes any forward function, so it applies to the whole model unchanged.
* **Keep the length of the position table, the head count and the vocabulary with the parameters.** The parameters mean something only together with them: change one alone, and the same numbers describe a different function, or one that cannot run. Three small examples follow. A vocabulary built from `春雨风雪` is sorted by code point, so `雪` comes before `风`: `雪` takes id 5 and `风` moves to id 6. In the old model id 5 stands for `风` (its row 5 is the vector of `风`), but the new vocabulary reads 5 as `雪`: text encoded with it gives `雪` the vector of `风`, and the new id of `风`, 6, lies outside the old table of 6 rows. The same matrices cut into 1 head instead of 2 compute a different output. A position table of 8 rows cannot take a 9th token.
""",
    ru=r"""
## 6.8 Что добавляет полная модель

Настоящий проект обучал бы написанную вручную модель, состоящую только из декодера (decoder-only), — скажем, на PyTorch и без готового `nn.Transformer`: остаточные блоки с предварительной нормализацией слоя (pre-LN), позиционный MLP со свободными членами (bias) и активацией GELU, обучаемые абсолютные позиции; все параметры обучаются совместно по перекрёстной энтропии. В §7 небольшая модель того же рода строится на NumPy и обучается. Тогда важны две вещи:

* **Проверки причинности нужно заново провести на модели целиком.** То, что один слой прошёл проверку, ничего не говорит о коде, добавленном позже: о нормализации, о нарезке данных на окна, о кэше. Нормализация вдоль оси времени из §4.7 допускает утечку при совершенно правильном внимании. `lib.checks.check_causality` принимает любую функцию прямого прохода и применяется ко всей модели без изменений.
* **Длину таблицы позиций, число голов и словарь нужно хранить вместе с параметрами.** Только вместе с ними параметры что-то значат: стоит изменить что-то одно, и те же числа задают уже другую функцию, а то и такую, что вовсе не запускается. Три небольших примера. Словарь, построенный по `春雨风雪`, упорядочен по кодовым позициям Unicode, и `雪` идёт раньше `风`: `雪` получает номер 5, а `风` переходит на номер 6. В старой модели номер 5 означает `风` (её строка 5 — вектор `风`), а новый словарь читает 5 как `雪`: в тексте, закодированном новым словарём, `雪` получит вектор `风`, а новый номер `风`, 6, лежит за пределами старой таблицы из 6 строк. Те же матрицы, разрезанные на 1 голову вместо 2, вычисляют другой выход. Таблица позиций из 8 строк не примет девятый токен.
""",
)

code(r"""
vocab_v2 = build_vocab(["春雨风雪"])
print(vocab_v2, encode("风", vocab), encode("风", vocab_v2),
      encode("雪", vocab_v2))
assert (encode("风", vocab) == [5] and encode("风", vocab_v2) == [6]
        and encode("雪", vocab_v2) == [5])
#zh 旧模型的编号 5 是 风；新词表把它读成 雪
#en the old model's id 5 is 风; the new vocabulary reads it as 雪
#ru номер 5 старой модели — это 风; новый словарь читает его как 雪
print(decode([5], vocab), decode([5], vocab_v2))
assert decode([5], vocab) == "风" and decode([5], vocab_v2) == "雪"

one_head = AttentionModel(
    model.token_table, model.position_table, model.w_q, model.w_k,
    model.w_v, model.w_o, n_heads=1)
head_difference = float(
    np.abs(one_head.forward(ids) - model.forward(ids)).max())
print(round(head_difference, 6))
assert head_difference > 0.01

failures = []
#zh 两个不合规的输入：编号 6，以及 9 个词元
#en two inputs the model cannot take: id 6, and 9 tokens
#ru два входа, которые модель принять не может: номер 6 и 9 токенов
for bad_input in (np.array(encode("风", vocab_v2)),
                  np.array([BOS] + [3] * 8)):
    try:
        model.forward(bad_input)
    except ValueError as err:
        failures.append(type(err).__name__)
print(failures)
assert failures == ["ValueError", "ValueError"]
""")

md(
    zh=r"""
## 6.9 小结

§1～§5 的每个结论都至少有一种证据支撑，而且证据的类型各不相同：

* **手算**确认了多头拆分、拼接和 $W_O$ 的每一步（编号 1）；
* **结构论证**说明右填充为何无害（编号 4），以及为什么单层无位置的模型在最后一行分不清前面词元的顺序（编号 5），并由具体数值印证；
* **带对照的扰动检验**在代码上寻找泄漏，同时证明检验本身有效（编号 2、3）；
* **等价检验**确认缓存与完整前向传播一致，并对位置错误敏感（编号 6）。

§6.6 的纯 Python 程序沿一条与 `lib` 的 NumPy 实现不共用代码的路径重算了其中的浮点数，与 `lib` 的相对差小于 $10^{-14}$。所有这些都只针对一个参数固定、手工设定的单层模型。模型一旦变深、开始训练，这些检验都要在完整模型上重新运行，§7 正是这样做的。

本节的练习在 `exercises/zh/ex06_evidence.ipynb`：不借助 NumPy 和 `lib`，用纯 Python 写出多头注意力，再用它重算本节的编号 2 和编号 3。
""",
    en=r"""
## 6.9 Summary

Every conclusion of §1–§5 rests on at least one piece of evidence, and the kinds differ:

* **hand computation** confirms every step of splitting heads, concatenating them and applying $W_O$ (no. 1);
* **structural arguments** explain why right padding is harmless (no. 4) and why, in its last row, a one-layer model without positions cannot tell the order of the preceding tokens (no. 5), and concrete numbers illustrate it;
* **perturbation tests with controls** look for leaks in the code and show that the test itself works (nos. 2 and 3);
* **equivalence tests** confirm that the cache agrees with the full forward pass and is sensitive to position mistakes (no. 6).

The pure-Python program of §6.6 recomputed the floating-point numbers along a route that shares no code with `lib`'s NumPy implementation, and agreed with `lib` to a relative difference below $10^{-14}$. All of this concerns a single layer with hand-chosen, fixed parameters. Once the model gets deeper and is trained, every one of these checks must be run again on the whole model, which is what §7 does.

The exercise for this section is in `exercises/en/ex06_evidence.ipynb`: write multi-head attention in plain Python, with neither NumPy nor `lib`, and recompute numbers 2 and 3 of this section with it.
""",
    ru=r"""
## 6.9 Итоги

Каждое утверждение из §1–§5 опирается хотя бы на одно свидетельство, и свидетельства эти разного рода:

* **ручной расчёт** подтверждает каждый шаг разбиения на головы, склейки и применения $W_O$ (№ 1);
* **структурное рассуждение** объясняет, почему дополнение справа безвредно (№ 4) и почему однослойная модель без позиций в последней строке не различает порядок предшествующих токенов (№ 5), а конкретные числа это иллюстрируют;
* **проверки возмущением с контролем** ищут утечки в коде и показывают, что сама проверка работает (№ 2 и 3);
* **проверки эквивалентности** подтверждают, что кэш совпадает с полным проходом и чувствителен к ошибкам в позициях (№ 6).

Программа на чистом Python из §6.6 пересчитала числа с плавающей точкой путём, у которого нет общего кода с реализацией `lib` на NumPy, и её результаты совпали с результатами `lib` с относительной разностью меньше $10^{-14}$. Всё это относится к одному слою с фиксированными параметрами, заданными вручную. Как только модель станет глубже и начнёт обучаться, каждую из этих проверок нужно будет повторить на модели целиком — именно это делается в §7.

Упражнение к разделу — в `exercises/ru/ex06_evidence.ipynb`: написать многоголовое внимание на чистом Python, без NumPy и `lib`, и пересчитать с его помощью числа № 2 и № 3 этого раздела.
""",
)
