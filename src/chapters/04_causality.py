# §4 Causality over the whole computation: structural argument, future-perturbation
# test, negative control, and a leak that the attention weights do not show.

md(
    zh=r"""
# 4 因果性必须覆盖整个计算

第一节里，我们先规定许可集合，再在许可集合上做 softmax，于是每个查询只读取自己和之前的位置。但注意力权重只是模型中的一步：输入怎样构造、多头怎样拆分与合并、注意力之后还有哪些层，任何一步都可能把未来的信息带回过去。

本节回答两个问题：

1. **为什么整个模型是因果的？** 这是一条沿着架构逐层展开的推理。
2. **怎样在具体代码上发现错误？** 这要靠未来扰动检验，而且检验必须带上阴性对照，否则它可能在什么也没检查的情况下“通过”。

贯穿全节的约定：所有结论都针对**一次前向传播、参数固定不变**的情形。
""",
    en=r"""
# 4 Causality over the whole computation

In §1 we built the allowed set first and took the softmax over it, so every query reads only its own position and earlier ones. But the attention weights are a single step of the model. How the input is built, how the heads are split and merged, which layers come after attention: any of these steps could carry information from the future back into the past.

This section answers two questions:

1. **Why is the whole model causal?** This is an argument that walks through the architecture layer by layer.
2. **How do we catch a mistake in actual code?** This is the job of the future-perturbation test, and the test must come with a negative control; without one it can "pass" while checking nothing at all.

One convention holds throughout: every statement is about **one forward pass with fixed parameters**.
""",
    ru=r"""
# 4 Причинность на всём пути вычисления

В §1 мы сначала строили множество разрешённых позиций и только потом брали softmax по нему, поэтому каждый запрос читает лишь свою позицию и предыдущие. Но веса внимания — всего один шаг модели. Как собирается вход, как головы разбиваются и склеиваются, какие слои стоят после внимания — на любом из этих шагов информация из будущего может просочиться в прошлое.

В этом разделе два вопроса:

1. **Почему причинна вся модель целиком?** Ответ — рассуждение, которое проходит по архитектуре слой за слоем.
2. **Как поймать ошибку в конкретном коде?** Для этого служит проверка возмущением будущего, причём обязательно вместе с отрицательным контролем: без него проверка может «пройти», ничего на самом деле не проверив.

Договорённость на весь раздел: все утверждения относятся к **одному прямому проходу при фиксированных параметрах**.
""",
)

md(
    zh=r"""
## 本章的手设模型

全节都使用同一个小模型：词表 `<unk> <bos> <eos> 春 雨 风`（编号 0…5），宽度 $D=4$，头数 $H=2$，每头宽度 $d=2$，查询、键、值三个投影都是单位矩阵。词元嵌入表 $E$、位置表 $P$ 和输出投影 $W_O$ 的数值都是手工设定的，只为便于手算和检查，不是训练的结果。`lib.checks.chapter_model()` 按这些数值构造一个 `AttentionModel`。

有两处设计请留意：`<unk>` 那一行故意取得很大，一旦它从未来泄漏进来，结果会非常醒目；`<bos>` 与 `风` 两行完全相同，这是后面要用到的一个陷阱。
""",
    en=r"""
## The chapter's hand-set model

The whole section uses one small model: vocabulary `<unk> <bos> <eos> 春 雨 风` (ids 0…5), width $D=4$, $H=2$ heads of width $d=2$, and identity matrices for the query, key and value projections. The token embedding table $E$, the position table $P$ and the output projection $W_O$ are set by hand so that everything can be computed and checked on paper; nothing here was trained. `lib.checks.chapter_model()` builds an `AttentionModel` from these numbers.

Two details matter later. The `<unk>` row is deliberately large, so that if it ever leaks in from the future the effect is impossible to miss. The rows of `<bos>` and `风` are identical, which is a trap we will walk into on purpose.
""",
    ru=r"""
## Модель раздела с заданными вручную параметрами

Во всём разделе используется одна маленькая модель: словарь `<unk> <bos> <eos> 春 雨 风` (номера 0…5), ширина $D=4$, $H=2$ головы ширины $d=2$, проекции запросов, ключей и значений — единичные матрицы. Таблица эмбеддингов токенов $E$, таблица позиций $P$ и выходная проекция $W_O$ заданы вручную, чтобы всё можно было пересчитать на бумаге; ничего здесь не обучалось. Функция `lib.checks.chapter_model()` собирает из этих чисел `AttentionModel`.

Обратите внимание на две детали. Строка `<unk>` нарочно сделана большой: если она когда-нибудь просочится из будущего, это сразу бросится в глаза. Строки `<bos>` и `风` совпадают — в эту ловушку мы позже попадём намеренно.
""",
)

code(r"""
import numpy as np
import matplotlib.pyplot as plt

from lib import checks, plots
from lib.data import BOS, EOS, UNK, build_vocab, decode

vocab = build_vocab(["春雨风"])
model = checks.chapter_model()
print(vocab)
print(model.token_table)
print(np.round(model.position_table, 6) + 0.0)   # + 0.0 turns -0.0 into 0.0
print(model.w_o)
print(model.n_heads, model.width, model.context_size)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
assert (model.n_heads, model.width, model.context_size) == (2, 4, 8)
assert np.array_equal(model.token_table[BOS], model.token_table[vocab.index("风")])
""")

md(
    zh=r"""
## 结构论证：逐层追踪每一行读了什么

设输入序列为 $x_0,\dots,x_{T-1}$。我们要证明：输出第 $i$ 行只依赖 $x_0,\dots,x_i$。沿着模型的计算顺序逐层检查：

1. **输入。** $X_i = E[x_i] + P[i]$，只依赖位置 $i$ 上的词元和位置编号 $i$ 本身。
2. **查询、键、值投影。** $Q=XW_Q$、$K=XW_K$、$V=XW_V$ 都是逐行相乘，第 $i$ 行只用到 $X_i$。
3. **拆分头。** 只是把同一位置的 $D$ 个特征分成 $H$ 段，时间轴原封不动。
4. **因果注意力。** 第 $i$ 行输出为 $\sum_{j\le i}\alpha_{ij}V_j$，权重 $\alpha_{ij}$ 只由 $q_i$ 和 $k_0,\dots,k_i$ 算出，因此只读取输入的第 $0$ 到第 $i$ 行。
5. **合并头与输出投影 $W_O$。** 合并是拆分的逆操作；$W_O$ 只在同一位置内部混合各头的特征，不会新增任何跨时间的路径。
6. **注意力之后的层。** 逐位置的归一化（例如层归一化）、前馈网络和残差连接 $y_i = x_i + f(x_i)$，只要都不跨时间读取，第 $i$ 行就只用到第 $i$ 行。

再对层数做数学归纳：若第 $\ell$ 层输出的第 $i$ 行只依赖 $x_0,\dots,x_i$，那么第 $\ell+1$ 层的第 $i$ 行读取的是第 $\ell$ 层的第 $0$ 到 $i$ 行（注意力）或仅第 $i$ 行（其余各层），它们都只依赖 $x_0,\dots,x_i$。第 1 步给出归纳起点，于是任意多层的模型都保持因果性。

这条论证讲的是**架构**：每个组件按设计应该读哪些行。它对所有输入都成立，却无法保证代码真的照此实现——转置错了的掩码、写错的 `axis`、在时间轴上求的统计量，都会让代码背离设计。这类错误要由**未来扰动检验**来发现：它在一份具体实现上，用具体输入去检错。结构论证与扰动检验是两种不同的证据，彼此支持，却不能互相替代。
""",
    en=r"""
## The structural argument: what each row reads, layer by layer

Let the input be $x_0,\dots,x_{T-1}$. We want to show that output row $i$ depends only on $x_0,\dots,x_i$. Follow the computation in order:

1. **Input.** $X_i = E[x_i] + P[i]$ depends only on the token at position $i$ and on the position $i$ itself.
2. **Query, key and value projections.** $Q=XW_Q$, $K=XW_K$, $V=XW_V$ multiply row by row, so row $i$ uses only $X_i$.
3. **Splitting heads.** This cuts the $D$ features of one position into $H$ pieces; the time axis is not touched.
4. **Causal attention.** Output row $i$ is $\sum_{j\le i}\alpha_{ij}V_j$, and the weights $\alpha_{ij}$ are computed from $q_i$ and $k_0,\dots,k_i$ only. Row $i$ therefore reads input rows $0$ to $i$.
5. **Merging heads and the output projection $W_O$.** Merging undoes the split; $W_O$ mixes the heads' features within one position and adds no path across time.
6. **Layers after attention.** A per-position normalisation (such as layer normalisation), a feed-forward network and a residual connection $y_i = x_i + f(x_i)$ use only row $i$ for row $i$, as long as none of them reads across time.

Now induct over layers. If row $i$ of layer $\ell$'s output depends only on $x_0,\dots,x_i$, then row $i$ of layer $\ell+1$ reads rows $0$ to $i$ of layer $\ell$ (attention) or row $i$ alone (every other layer), and all of these depend only on $x_0,\dots,x_i$. Step 1 is the base case, so a model with any number of layers stays causal.

This argument is about the **architecture**: which rows each component is designed to read. It holds for every input, but it cannot promise that the code does what the design says. A transposed mask, a wrong `axis`, a statistic taken over the time axis: each makes the code depart from the design. Such mistakes are caught by the **future-perturbation test**, an error detector that runs a concrete implementation on concrete inputs. The structural argument and the perturbation test are two different kinds of evidence; they support each other, and neither replaces the other.
""",
    ru=r"""
## Структурное рассуждение: что читает каждая строка, слой за слоем

Пусть на входе последовательность $x_0,\dots,x_{T-1}$. Покажем, что строка $i$ выхода зависит только от $x_0,\dots,x_i$. Пройдём по вычислению по порядку:

1. **Вход.** $X_i = E[x_i] + P[i]$ зависит только от токена на позиции $i$ и от самого номера позиции $i$.
2. **Проекции запросов, ключей и значений.** $Q=XW_Q$, $K=XW_K$, $V=XW_V$ умножаются построчно, так что строка $i$ использует только $X_i$.
3. **Разбиение на головы.** Признаки одной позиции режутся на $H$ частей; ось времени не затрагивается.
4. **Причинное внимание.** Строка $i$ выхода равна $\sum_{j\le i}\alpha_{ij}V_j$, а веса $\alpha_{ij}$ вычисляются только из $q_i$ и $k_0,\dots,k_i$. Значит, строка $i$ читает входные строки с $0$ по $i$.
5. **Склейка голов и выходная проекция $W_O$.** Склейка обращает разбиение; $W_O$ смешивает признаки голов внутри одной позиции и не добавляет путей по времени.
6. **Слои после внимания.** Нормализация по каждой позиции отдельно (например, layer normalization), полносвязный блок (feed-forward) и остаточная связь $y_i = x_i + f(x_i)$ для строки $i$ используют только строку $i$ — если ни один из них не читает вдоль оси времени.

Теперь индукция по слоям. Если строка $i$ выхода слоя $\ell$ зависит только от $x_0,\dots,x_i$, то строка $i$ слоя $\ell+1$ читает строки с $0$ по $i$ слоя $\ell$ (внимание) или только строку $i$ (все остальные слои), а они зависят лишь от $x_0,\dots,x_i$. Шаг 1 даёт базу индукции, поэтому модель с любым числом слоёв остаётся причинной.

Это рассуждение об **архитектуре**: какие строки каждый компонент должен читать по замыслу. Оно верно для любого входа, но не гарантирует, что код делает то, что задумано. Транспонированная маска, не тот `axis`, статистика, посчитанная вдоль оси времени, — всё это уводит код от замысла. Такие ошибки ловит **проверка возмущением будущего** — детектор ошибок, который запускает конкретную реализацию на конкретных входах. Структурное рассуждение и проверка возмущением — два разных вида доказательств: они поддерживают друг друга, но не заменяют.
""",
)

md(
    zh=r"""
## 未来扰动检验

做法很直接：固定长度和前缀，只把前缀之后的位置换成**明显不同**的词元（或连续向量），再比较所有前缀位置的输出。正确的实现应当在浮点容差内完全不变。

我们用 `<bos> 春 雨` 和 `<bos> 春 <unk>`：前两个位置相同，第三个位置从 `雨` 换成数值很大的 `<unk>`。下面先看输入 $X$ 本身：它只有第 2 行变了，这正是结构论证第 1 步所说的。再看整个模型的输出：前两行的最大变化恰好是 `0.0`。
""",
    en=r"""
## The future-perturbation test

The recipe is simple: fix the length and the prefix, replace every position after the prefix by **clearly different** tokens (or vectors), and compare the outputs at all prefix positions. A correct implementation leaves them unchanged up to floating-point tolerance.

We take `<bos> 春 雨` and `<bos> 春 <unk>`: the first two positions agree, and the third changes from `雨` to the large `<unk>`. First we look at the input $X$ itself: only its row 2 changes, exactly as step 1 of the argument says. Then we look at the model's output: the largest change over the first two rows is exactly `0.0`.
""",
    ru=r"""
## Проверка возмущением будущего

Рецепт простой: фиксируем длину и префикс, заменяем все позиции после префикса **явно другими** токенами (или векторами) и сравниваем выходы на всех позициях префикса. Правильная реализация оставляет их неизменными с точностью до погрешности вычислений с плавающей точкой.

Возьмём `<bos> 春 雨` и `<bos> 春 <unk>`: первые две позиции совпадают, третья меняется с `雨` на большой `<unk>`. Сначала посмотрим на сам вход $X$: меняется только его строка 2, ровно как говорит шаг 1 рассуждения. Затем на выход модели: наибольшее изменение первых двух строк равно в точности `0.0`.
""",
)

code(r"""
ids = np.array([BOS, 3, 4])          # <bos> 春 雨
perturbed = np.array([BOS, 3, UNK])  # <bos> 春 <unk>
print(decode(ids, vocab), "|", decode(perturbed, vocab))

input_rows = checks.row_changes(model.embed, ids, perturbed)    # (T,): change of X per row
print(np.round(input_rows, 12))
assert input_rows[0] == 0.0 and input_rows[1] == 0.0 and input_rows[2] > 1

change = checks.future_change(model.forward, ids, perturbed, prefix_length=2)
print(change)
assert change == 0.0
""")

md(
    zh=r"""
## 阴性对照：先证明检验看得见泄漏

“变化为 0”本身说明不了什么，也许模型确实是因果的，也许检验根本无法察觉任何变化。所以要用**同一个检验**，去测一个我们**明知会泄漏**的版本：把因果掩码关掉（`causal=False`），让每个查询都能读全部位置。此时检验必须报告前缀发生了变化；如果它仍然报告 0，那坏掉的是检验，而不是模型。

关掉掩码后，前两行的最大变化约为 39.7720206134（原章节的程序给出 39.772020613422825，二者在浮点精度内一致）。`check_causality` 把被测实现和阴性对照放在一起运行：只有被测实现的变化不超过容差、**并且**对照的变化超过容差，检验才算通过。
""",
    en=r"""
## The negative control: first show that the test can see a leak

A change of 0 proves nothing by itself: perhaps the model is causal, perhaps the test cannot see any change at all. So we run **the same test** on a version that we **know** leaks: switch the causal mask off (`causal=False`) so that every query reads every position. Now the test must report a change in the prefix. If it still reports 0, it is the test that is broken, not the model.

With the mask off, the largest change over the first two rows is about 39.7720206134 (the chapter's original program printed 39.772020613422825; the two agree to floating-point precision). `check_causality` runs the implementation under test and its negative control together: the check passes only if the implementation's change is within tolerance **and** the control's change is above it.
""",
    ru=r"""
## Отрицательный контроль: сначала убедиться, что проверка видит утечку

Само по себе «изменение равно 0» ничего не доказывает: может быть, модель причинна, а может быть, проверка вообще не способна заметить изменение. Поэтому **ту же самую проверку** запускаем на версии, которая **заведомо** допускает утечку: отключаем причинную маску (`causal=False`), и каждый запрос читает все позиции. Теперь проверка обязана увидеть изменение префикса. Если она по-прежнему показывает 0, сломана проверка, а не модель.

С отключённой маской наибольшее изменение первых двух строк — около 39.7720206134 (программа из исходной главы печатала 39.772020613422825; значения совпадают в пределах точности вычислений). Функция `check_causality` запускает проверяемую реализацию и её отрицательный контроль вместе: проверка пройдена, только если изменение у реализации не превышает допуска **и** изменение у контроля его превышает.
""",
)

code(r"""
def control(x):
    return model.forward(x, causal=False)    # negative control: every query reads every key

control_change = checks.future_change(control, ids, perturbed, prefix_length=2)
print(f"{control_change:.12g}")
assert abs(control_change - 39.772020613422825) < 1e-9

result = checks.check_causality(model.forward, control, ids, perturbed, prefix_length=2)
print(result.causal, result.control_saw_change, result.passed)
assert result.passed
""")

md(
    zh=r"""
## 没有对照的检验会怎样“空转”

下面是三种常见的“假通过”。每一种里，被测模型的前缀变化都是 0，但阴性对照同样是 0，于是 `check_causality` 正确地判定检验无效。

**输入退化。** 换掉的词元编号不同，向量却相同。我们把末位的 `<bos>` 换成 `风`：编号从 1 变成 5，但这两行嵌入完全一样，而位置也没变，于是模型看到的输入根本没有变化。
""",
    en=r"""
## How a test without a control passes vacuously

Here are three common ways to "pass" without testing anything. In each, the model under test shows a prefix change of 0, but so does the negative control, and `check_causality` correctly reports that the test is void.

**Degenerate input.** The replacement token has a different id but the same vector. We replace a final `<bos>` by `风`: the id goes from 1 to 5, but the two embedding rows are identical and the position is the same, so the model sees no change in its input at all.
""",
    ru=r"""
## Как проверка без контроля проходит вхолостую

Вот три типичных способа «пройти» проверку, ничего не проверив. В каждом из них изменение префикса у проверяемой модели равно 0 — но и у отрицательного контроля тоже 0, и `check_causality` справедливо признаёт проверку несостоятельной.

**Вырожденный вход.** У заменяющего токена другой номер, но тот же вектор. Заменим последний `<bos>` на `风`: номер меняется с 1 на 5, но строки эмбеддингов одинаковы, позиция та же, так что модель вообще не видит изменения входа.
""",
)

code(r"""
same_prefix_a = np.array([BOS, 3, BOS])   # <bos> 春 <bos>
same_prefix_b = np.array([BOS, 3, 5])     # <bos> 春 风
degenerate = checks.check_causality(model.forward, control, same_prefix_a, same_prefix_b, prefix_length=2)
print(degenerate.change, degenerate.control_change, degenerate.passed)
assert degenerate.change == 0.0 and degenerate.control_change == 0.0 and not degenerate.passed
""")

md(
    zh=r"""
**输出被常量覆盖。** 设想一个 bug：前向函数算完之后，返回的却是一块新建的全零缓冲区。这样的实现“当然”通过了扰动检验；但用同一份代码关掉掩码做对照，变化依旧是 0，问题随即暴露。
""",
    en=r"""
**Output overwritten by a constant.** Imagine a bug in which the forward function computes everything and then returns a freshly allocated buffer of zeros. Such an implementation "passes" the perturbation test, of course. The same code with the mask off also shows 0, and the problem is exposed.
""",
    ru=r"""
**Выход затёрт константой.** Представим ошибку: прямой проход всё вычисляет, а возвращает только что выделенный буфер из нулей. Такая реализация, конечно, «проходит» проверку возмущением. Но тот же код с отключённой маской тоже даёт 0 — и ошибка обнаружена.
""",
)

code(r"""
def buggy_forward(x, causal=True):
    out = model.forward(x, causal=causal)
    return np.zeros_like(out)                 # the bug: the result never reaches the caller

constant = checks.check_causality(buggy_forward, lambda x: buggy_forward(x, causal=False),
                                  ids, perturbed, prefix_length=2)
print(constant.change, constant.control_change, constant.passed)
assert constant.change == 0.0 and constant.control_change == 0.0 and not constant.passed
""")

md(
    zh=r"""
**检查了错误的位置。** 如果前缀长度算错成 0，比较的就是一个空切片。`np.allclose` 对两个空数组返回 `True`，哪怕比较的是明显泄漏的无掩码模型。`future_change` 直接拒绝这种情况，因为它要求 $1 \le$ 前缀长度 $< T$：至少有一个前缀输出可比，也至少有一个未来位置被改动。
""",
    en=r"""
**Wrong positions checked.** If the prefix length is miscomputed as 0, the comparison runs over an empty slice. `np.allclose` returns `True` for two empty arrays, even for the unmasked model that plainly leaks. `future_change` refuses this case outright: it requires $1 \le$ prefix length $< T$, so that at least one prefix output is compared and at least one future position is changed.
""",
    ru=r"""
**Проверены не те позиции.** Если длина префикса по ошибке вычислена как 0, сравнивается пустой срез. `np.allclose` для двух пустых массивов возвращает `True` — даже для модели без маски, где утечка очевидна. `future_change` такой случай просто отвергает: длина префикса должна удовлетворять $1 \le p < T$, чтобы сравнивался хотя бы один выход префикса и менялась хотя бы одна будущая позиция.
""",
)

code(r"""
prefix_length = 0                                   # a miscomputed prefix
print(np.allclose(control(ids)[:prefix_length], control(perturbed)[:prefix_length]))
try:
    checks.future_change(control, ids, perturbed, prefix_length)
except ValueError as err:
    print(type(err).__name__)
    assert "prefix_length" in str(err)
else:
    raise AssertionError("an empty comparison must be refused")
""")

md(
    zh=r"""
## 权重右上角为零，并不等于没有泄漏

一种常见的简化检查是：把注意力权重矩阵打印出来，确认对角线右上方全是零。这只检查了我们放掩码的那一处。泄漏完全可以来自别的地方。

`lib.checks.leaky_time_normalization` 是一个**故意写错的反例**：它对每个特征**沿时间轴**求均值和方差再做标准化，于是第 0 行的结果已经依赖最后一行。它与逐位置的归一化 `feature_normalization` 只差一个 `axis`，在实际代码中很容易写错。把它放在一个掩码完全正确的注意力之前或之后：

* 注意力权重的右上角仍然**精确为零**，简化检查照样通过；
* 未来扰动检验却发现前缀输出变了。

作为对比，把逐位置的归一化放在注意力的前后，前缀变化仍然是 `0.0`，这正是结构论证第 6 步的结论。这里用更长的序列：前 4 个位置相同，后 4 个位置全部不同。
""",
    en=r"""
## Zero weights above the diagonal do not mean no leak

A common shortcut is to print the attention weights and confirm that everything above the diagonal is zero. That checks only the one place where we put the mask. A leak can come from anywhere else.

`lib.checks.leaky_time_normalization` is a **deliberate counter-example**: it normalises every feature by its mean and variance **over the time axis**, so row 0 of its output already depends on the last row. It differs from the per-position `feature_normalization` by a single `axis`, an easy slip in real code. Put it before or after an attention whose mask is perfectly correct:

* the attention weights above the diagonal are still **exactly zero**, so the shortcut passes;
* the future-perturbation test sees the prefix outputs move.

For contrast, a per-position normalisation before and after attention keeps the prefix change at `0.0`, as step 6 of the argument predicts. We use a longer sequence here: the first 4 positions agree, the last 4 all differ.
""",
    ru=r"""
## Нули над диагональю ещё не означают отсутствия утечки

Частый короткий путь — напечатать матрицу весов внимания и убедиться, что над диагональю одни нули. Так проверяется лишь то место, где стоит маска. Утечка же может возникнуть где угодно ещё.

`lib.checks.leaky_time_normalization` — **намеренный контрпример**: она нормализует каждый признак по среднему и дисперсии **вдоль оси времени**, так что строка 0 её выхода уже зависит от последней строки. От нормализации по позициям `feature_normalization` она отличается одним `axis` — в настоящем коде такую ошибку допустить легко. Поставим её до или после внимания с совершенно правильной маской:

* веса внимания над диагональю по-прежнему **в точности равны нулю** — короткая проверка проходит;
* проверка возмущением будущего видит, что выходы префикса сдвинулись.

Для сравнения: нормализация по позициям до и после внимания оставляет изменение префикса равным `0.0`, как и предсказывает шаг 6 рассуждения. Здесь берём последовательность подлиннее: первые 4 позиции совпадают, последние 4 все различны.
""",
)

code(r"""
ids8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])      # <bos> 春 雨 风 春 雨 风 雨
other8 = np.array([BOS, 3, 4, 5, 5, 3, 4, EOS])  # same prefix of 4, a different future
print(decode(ids8, vocab), "|", decode(other8, vocab))

x = checks.leaky_time_normalization(model.embed(ids8)[None])                  # (1, T, D)
weights = checks.attention_weights(x, model.w_q, model.w_k, model.n_heads)    # (1, H, T, T)
print(weights.shape, checks.upper_right_is_zero(weights))
assert checks.upper_right_is_zero(weights)

def leaky_before(t):
    return checks.forward_with(model, t, before=checks.leaky_time_normalization)

def leaky_after(t):
    return checks.forward_with(model, t, after=checks.leaky_time_normalization)

def per_position(t):
    return checks.forward_with(model, t, before=checks.feature_normalization,
                               after=checks.feature_normalization)

changes = {f.__name__: checks.future_change(f, ids8, other8, prefix_length=4)
           for f in (model.forward, per_position, leaky_before, leaky_after)}
for name, value in changes.items():
    print(name, round(value, 6))
assert changes["forward"] == 0.0 and changes["per_position"] == 0.0
assert changes["leaky_before"] > 0.1 and changes["leaky_after"] > 0.1
""")

md(
    zh=r"""
## 参数固定：训练改变参数不是泄漏

因果性说的是：在**同一组参数**下的一次前向传播里，未来输入不能沿计算图影响过去的输出。训练时，一次梯度更新会修改共享参数，下一次前向中前缀的输出自然会变，但这不是未来信息的泄漏，而是换了一个模型。

因此，扰动检验中的两次前向必须使用完全相同的参数和相同的随机性：不能在两次前向之间做优化器更新，dropout 之类的随机层要么关闭，要么固定随机种子，否则检验会把随机噪声误报为泄漏。

## 在随机模型上反复检验

手设模型只有一种尺寸。下面随机抽取词表大小 $V$、长度 $T$、宽度 $D$、头数 $H$ 和前缀长度 $p$，每次都用随机参数的模型跑完整的检验（含阴性对照）。每行输出依次是 $V, T, D, H, p$、前缀变化、对照是否看到了变化。
""",
    en=r"""
## Fixed parameters: training that changes them is not a leak

Causality is a statement about one forward pass with **one set of parameters**: future inputs must not reach past outputs along the computation graph. During training, a gradient step changes the shared parameters, and in the next forward pass the prefix outputs naturally differ. That is not a leak of future information; it is a different model.

So the two forward passes of a perturbation test must use exactly the same parameters and the same randomness. There must be no optimiser step between them, and random layers such as dropout must be switched off or run with a fixed seed; otherwise the test reports random noise as a leak.

## Repeating the check on random models

The hand-set model has a single size. Below we draw a vocabulary size $V$, a length $T$, a width $D$, a head count $H$ and a prefix length $p$ at random, and each time run the full check, control included, on a model with random parameters. Each printed row is $V, T, D, H, p$, the prefix change, and whether the control saw a change.
""",
    ru=r"""
## Параметры фиксированы: обучение, меняющее их, — не утечка

Причинность — это утверждение об одном прямом проходе при **одном наборе параметров**: будущие входы не должны по графу вычислений влиять на прошлые выходы. При обучении шаг градиентного спуска меняет общие параметры, и при следующем проходе выходы префикса, естественно, будут другими. Это не утечка информации из будущего — это просто другая модель.

Поэтому оба прямых прохода в проверке возмущением должны идти с одними и теми же параметрами и одной и той же случайностью: никаких шагов оптимизатора между ними, а случайные слои вроде dropout нужно отключить или зафиксировать им зерно. Иначе проверка примет случайный шум за утечку.

## Повторяем проверку на случайных моделях

Модель с ручными параметрами существует в одном размере. Ниже мы случайно выбираем размер словаря $V$, длину $T$, ширину $D$, число голов $H$ и длину префикса $p$ и каждый раз запускаем полную проверку вместе с контролем на модели со случайными параметрами. Каждая напечатанная строка: $V, T, D, H, p$, изменение префикса и то, увидел ли контроль изменение.
""",
)

code(r"""
rng = np.random.default_rng(4)
for trial in range(6):
    n_heads = int(rng.integers(1, 5))
    width = n_heads * int(rng.integers(1, 9))
    T = int(rng.integers(2, 33))
    V = int(rng.integers(2, 50))
    p = int(rng.integers(1, T))
    random_model = checks.random_model(rng, vocab_size=V, context_size=T, width=width, n_heads=n_heads)
    ids_r = rng.integers(0, V, size=T)
    perturbed_r = checks.perturb_future(ids_r, p, rng, vocab_size=V)
    r = checks.check_causality(random_model.forward, lambda t: random_model.forward(t, causal=False),
                               ids_r, perturbed_r, p)
    print(V, T, width, n_heads, p, r.change, r.control_saw_change)
    assert r.passed and r.change == 0.0
""")

md(
    zh=r"""
## 一张图看清三种情形

对同一对序列（前缀 4 个位置相同），画出每个输出行 $i$ 的最大变化：带掩码的模型（`causal=True`）、关掉掩码的阴性对照（`causal=False`），以及在注意力前加了时间轴归一化的泄漏版本。虚线左侧是前缀。带掩码的模型在前缀上没有柱子（变化精确为 0），另外两者在前缀上都有变化。纵轴在 $10^{-3}$ 以下是线性的，以上是对数的。
""",
    en=r"""
## One picture of the three cases

For the same pair of sequences (a prefix of 4 equal positions) we plot the largest change of every output row $i$: the masked model (`causal=True`), the negative control with the mask off (`causal=False`), and the leaky version with a time-axis normalisation before attention. The prefix lies left of the dashed line. The masked model has no bars there (the change is exactly 0); the other two change in the prefix. The vertical axis is linear below $10^{-3}$ and logarithmic above.
""",
    ru=r"""
## Три случая на одном рисунке

Для той же пары последовательностей (префикс из 4 совпадающих позиций) построим наибольшее изменение каждой строки выхода $i$: модель с маской (`causal=True`), отрицательный контроль без маски (`causal=False`) и версия с утечкой, где перед вниманием стоит нормализация вдоль оси времени. Префикс — слева от пунктирной линии. У модели с маской там нет столбиков (изменение в точности 0), у двух других префикс меняется. Вертикальная ось линейна ниже $10^{-3}$ и логарифмична выше.
""",
)

code(r"""
rows = [checks.row_changes(f, ids8, other8) for f in (model.forward, control, leaky_before)]
for r in rows:
    print(np.round(r, 6))
assert np.all(rows[0][:4] == 0.0) and np.all(rows[0][4:] > 0)
assert np.all(rows[1][:4] > 0) and np.all(rows[2][:4] > 0)
plots.row_change_bars(rows, ["causal=True", "causal=False", "leaky_time_normalization"], prefix_length=4)
plt.show()
""")

md(
    zh=r"""
## 小结

* **结构论证**说明：只要每一层要么逐位置计算、要么只读取 $j \le i$，整个模型就是因果的。它覆盖所有输入，但只针对设计本身。
* **未来扰动检验**在具体代码上检错：固定前缀、改动全部未来位置、比较全部前缀输出。它覆盖真实代码，但只覆盖试过的输入。
* 检验必须与**阴性对照**一起运行：关掉掩码后必须看到变化，否则退化输入、常量输出或空比较都会让检验空转。
* 只看注意力权重的右上角不够，沿时间轴的归一化可以在权重完全正确时泄漏未来信息。
* 一切都针对参数固定的一次前向；训练改变参数不是泄漏。

下一节的 KV 缓存正依赖本节的结论：未来词元不会改变旧位置的表示，所以旧位置的键和值可以直接复用。
""",
    en=r"""
## Summary

* The **structural argument** shows that a model is causal whenever each layer either works position by position or reads only $j \le i$. It covers every input, but only the design.
* The **future-perturbation test** detects errors in actual code: fix the prefix, change every future position, compare all prefix outputs. It covers the real code, but only the inputs tried.
* The test must run with its **negative control**: with the mask off it has to see a change, or else a degenerate input, a constant output or an empty comparison lets it pass vacuously.
* Looking at the attention weights above the diagonal is not enough: a normalisation over the time axis leaks the future while the weights are perfectly correct.
* Everything concerns one forward pass with fixed parameters; training that changes them is not a leak.

The KV cache of the next section rests on this result: future tokens do not change the representations of old positions, so their keys and values can be reused as they are.
""",
    ru=r"""
## Итоги

* **Структурное рассуждение** показывает: модель причинна, если каждый слой либо работает позиция за позицией, либо читает только $j \le i$. Оно охватывает все входы, но только сам замысел.
* **Проверка возмущением будущего** ловит ошибки в настоящем коде: фиксируем префикс, меняем все будущие позиции, сравниваем все выходы префикса. Она охватывает реальный код, но только опробованные входы.
* Проверку нужно запускать вместе с **отрицательным контролем**: без маски она обязана увидеть изменение, иначе вырожденный вход, постоянный выход или пустое сравнение позволят ей пройти вхолостую.
* Смотреть только на веса внимания над диагональю недостаточно: нормализация вдоль оси времени допускает утечку будущего при безупречных весах.
* Всё это относится к одному прямому проходу при фиксированных параметрах; обучение, которое их меняет, утечкой не является.

На этом выводе держится KV-кэш из следующего раздела: будущие токены не меняют представлений старых позиций, поэтому их ключи и значения можно использовать повторно без пересчёта.
""",
)
