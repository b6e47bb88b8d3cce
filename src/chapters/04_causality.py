# §4 Causality must cover the whole computation: structural argument, future-perturbation
# test, negative control, false passes and false alarms (NaN), a leak the attention weights
# do not show, dropout and fixed seeds.

md(
    zh=r"""
# 4 因果性必须覆盖整条计算链

§1 先规定许可集合，再在许可集合上做 softmax，于是每个查询只读取自己和之前的位置。但注意力权重只是模型中的一步：输入怎样构造、多头怎样拆分与合并、注意力之后还有哪些层，任何一步都可能把未来的信息带回过去。

本节回答两个问题：

1. **为什么整个模型是因果的？** 答案是一条沿着架构逐层展开的论证。
2. **怎样在具体代码上发现错误？** 这要靠未来扰动检验，而且检验必须带上阴性对照，否则它可能在什么也没检查的情况下“通过”。

贯穿本节的约定：所有结论都针对**参数固定的一次前向传播**。§4.8 说明这条约定对 dropout、随机种子和训练更新意味着什么。
""",
    en=r"""
# 4 Causality must cover the whole computation

In §1 we built the allowed set first and took the softmax over it, so every query reads only its own position and earlier ones. But the attention weights are only one step of the model. How the input is built, how the heads are split and merged, which layers come after attention: any of these steps could carry information from the future back into the past.

This section answers two questions:

1. **Why is the whole model causal?** The answer is an argument that walks through the architecture layer by layer.
2. **How do we catch a mistake in actual code?** This is the job of the future-perturbation test, and the test must come with a negative control; without one it can "pass" while checking nothing at all.

One convention holds throughout: every statement is about **one forward pass with fixed parameters**. §4.8 explains what this means for dropout, random seeds and training updates.
""",
    ru=r"""
# 4 Причинность должна охватывать всю цепочку вычислений

В §1 мы сначала строили множество разрешённых позиций и только потом брали softmax по нему, поэтому каждый запрос читает лишь свою позицию и предыдущие. Но веса внимания — всего один шаг модели. Как собирается вход, как головы разбиваются и склеиваются, какие слои стоят после внимания: на любом из этих шагов информация из будущего может попасть в прошлое.

Этот раздел отвечает на два вопроса:

1. **Почему причинна вся модель целиком?** Ответ — рассуждение, которое проходит по архитектуре слой за слоем.
2. **Как поймать ошибку в конкретном коде?** Для этого служит проверка возмущением будущего, причём обязательно вместе с отрицательным контролем: без него проверка может «пройти», ничего на самом деле не проверив.

Соглашение, действующее во всём разделе: все утверждения относятся к **одному прямому проходу при фиксированных параметрах**. Что это значит для dropout, seed генератора случайных чисел и шагов обучения, объясняет §4.8.
""",
)

md(
    zh=r"""
## 4.1 手工设定参数的小模型

本节始终使用同一个小模型，§5 和 §6 也沿用它：词表 `<unk> <bos> <eos> 春 雨 风`（编号 0～5），宽度 $D=4$，头数 $H=2$，每头宽度 $d=2$，查询、键、值三个投影都是单位矩阵。词元嵌入表 $E$、位置表 $P$ 和输出投影 $W_O$ 都是手工设定的参数，只为便于手算和检查，并非训练所得。`lib.checks.chapter_model()` 按这些数值构造一个 `AttentionModel`。

有两处设计请留意：`<unk>` 那一行故意取得很大，一旦它从未来泄漏进来，结果会非常醒目；`<bos>` 与 `风` 两行完全相同，这是 §4.5 里我们要故意踩进去的一个陷阱。
""",
    en=r"""
## 4.1 A small model with hand-chosen parameters

This section uses one small model throughout, and §5 and §6 keep it: vocabulary `<unk> <bos> <eos> 春 雨 风` (ids 0–5), width $D=4$, $H=2$ heads of width $d=2$, and identity matrices for the query, key and value projections. The token embedding table $E$, the position table $P$ and the output projection $W_O$ are hand-chosen so that everything can be computed and checked on paper; nothing here was trained. `lib.checks.chapter_model()` builds an `AttentionModel` from these numbers.

Two details matter later. The `<unk>` row is deliberately large, so that if it ever leaks in from the future the effect is impossible to miss. The rows of `<bos>` and `风` are identical, a trap we will walk into on purpose in §4.5.
""",
    ru=r"""
## 4.1 Небольшая модель с параметрами, заданными вручную

Во всём разделе используется одна маленькая модель, и §5 и §6 работают с ней же: словарь `<unk> <bos> <eos> 春 雨 风` (номера 0–5), ширина $D=4$, $H=2$ головы ширины $d=2$, проекции запросов, ключей и значений — единичные матрицы. Таблица эмбеддингов токенов $E$, таблица позиций $P$ и выходная проекция $W_O$ заданы вручную, чтобы всё можно было пересчитать на бумаге; ничего здесь не обучалось. Функция `lib.checks.chapter_model()` собирает из этих чисел `AttentionModel`.

Обратите внимание на две детали. Строка `<unk>` нарочно сделана большой: если она когда-нибудь просочится из будущего, это сразу бросится в глаза. Строки `<bos>` и `风` совпадают — в эту ловушку мы намеренно попадём в §4.5.
""",
)

code(r"""
import numpy as np
import matplotlib.pyplot as plt

from figures import plots
from lib import checks
from lib.attention import (
    attention_scores,
    causal_attention,
    causal_future,
    masked_softmax,
    merge_heads,
    split_heads,
)
from lib.data import BOS, EOS, UNK, build_vocab, decode
from lib.model import AttentionModel

vocab = build_vocab(["春雨风"])
model = checks.chapter_model()
print(vocab)
print(model.token_table)
#zh 加上 `0.0`，把 `-0.0` 变成 `0.0`
#en adding `0.0` turns `-0.0` into `0.0`
#ru прибавление `0.0` превращает `-0.0` в `0.0`
print(np.round(model.position_table, 6) + 0.0)
print(model.w_o)
print(model.n_heads, model.width, model.context_size)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
assert (model.n_heads, model.width, model.context_size) == (2, 4, 8)
assert np.array_equal(model.token_table[BOS],
                      model.token_table[vocab.index("风")])
""")

md(
    zh=r"""
## 4.2 结构论证：逐层追踪每一行读了什么

设输入序列为 $x_0,\dots,x_{T-1}$。我们要证明：输出第 $i$ 行只依赖 $x_0,\dots,x_i$。沿着模型的计算顺序逐层检查：

1. **输入。** $X_i = E[x_i] + P[i]$，只依赖位置 $i$ 上的词元和位置编号 $i$ 本身。
2. **查询、键、值投影。** $Q=XW_Q$、$K=XW_K$、$V=XW_V$ 都是逐行相乘，第 $i$ 行只用到 $X_i$。
3. **拆分头。** 只是把同一位置的 $D$ 个特征分成 $H$ 段，时间轴原封不动。
4. **因果注意力。** 第 $i$ 行输出为 $\sum_{j\le i}\alpha_{ij}V_j$，权重 $\alpha_{ij}$ 只由 $q_i$ 和 $k_0,\dots,k_i$ 算出，因此只读取输入的第 $0$ 到第 $i$ 行。
5. **合并头与输出投影 $W_O$。** 合并是拆分的逆操作；$W_O$ 只在同一位置内部混合各头的特征，不会新增任何跨时间的路径。
6. **注意力之后的层。** 在每个位置内部做的归一化（例如层归一化）、逐位置 MLP 和残差连接 $y_i = x_i + f(x_i)$，只要都不跨时间读取，第 $i$ 行就只用到第 $i$ 行。

再对层数做数学归纳：若第 $\ell$ 层输出的第 $i$ 行只依赖 $x_0,\dots,x_i$，那么第 $\ell+1$ 层的第 $i$ 行读取的是第 $\ell$ 层的第 $0$ 到 $i$ 行（注意力）或仅第 $i$ 行（其余各层），它们都只依赖 $x_0,\dots,x_i$。第 1 步给出归纳起点，于是任意多层的模型都保持因果性。

下图以两层模型的第 $i = 2$ 行为例画出这条归纳。从上往下看：第 2 层的第 2 行经由注意力读取第 1 层的第 0～2 行；这几行又各自只读取输入中不晚于自己的行；输入的第 $t$ 行只来自词元 $t$。所以在它下面的每一层里，第 $i$ 行可能依赖的都是同一组行，即第 $0$～$i$ 行。这个“锥”只向左张开，叠多少层都不会越过第 $i$ 列；第 2 行的未来（第 3、4 行）在每一层都落在锥外。

![结构论证的示意图：5 个位置 BOS 春 风 春 雨，自下而上依次是词元、输入 X = E 加 P、第 1 层、第 2 层。第 2 层的第 2 行经由注意力读取第 1 层的第 0～2 行，这些行又读取输入的第 0～2 行；于是它下面的每一层里只有第 0～2 行在它的锥内，第 3、4 行是它的未来，哪一层都不读。](figures/cone.svg)

这条论证讲的是**架构**：每个组件按设计应该读哪些行。它对所有输入都成立，却无法保证代码真的照此实现。转置错了的掩码、写错的 `axis`、在时间轴上求的统计量，都会让代码背离设计。这类错误要由**未来扰动检验**来发现：它在一份具体实现上，用具体输入去检错。结构论证与扰动检验是两种不同的证据，彼此支持，却不能互相替代。
""",
    en=r"""
## 4.2 The structural argument: what each row reads, layer by layer

Let the input be $x_0,\dots,x_{T-1}$. We want to show that output row $i$ depends only on $x_0,\dots,x_i$. Follow the computation in order:

1. **Input.** $X_i = E[x_i] + P[i]$ depends only on the token at position $i$ and on the position $i$ itself.
2. **Query, key and value projections.** $Q=XW_Q$, $K=XW_K$, $V=XW_V$ multiply row by row, so row $i$ uses only $X_i$.
3. **Splitting heads.** This cuts the $D$ features of one position into $H$ pieces; the time axis is not touched.
4. **Causal attention.** Output row $i$ is $\sum_{j\le i}\alpha_{ij}V_j$, and the weights $\alpha_{ij}$ are computed from $q_i$ and $k_0,\dots,k_i$ only. Row $i$ therefore reads input rows $0$ to $i$.
5. **Merging heads and the output projection $W_O$.** Merging undoes the split; $W_O$ mixes the heads' features within one position and adds no path across time.
6. **Layers after attention.** A normalisation within each position (such as layer normalisation), a position-wise MLP and a residual connection $y_i = x_i + f(x_i)$ use only row $i$ for row $i$, as long as none of them reads across time.

Now induct over layers. If row $i$ of layer $\ell$'s output depends only on $x_0,\dots,x_i$, then row $i$ of layer $\ell+1$ reads rows $0$ to $i$ of layer $\ell$ (attention) or row $i$ alone (every other layer), and all of these depend only on $x_0,\dots,x_i$. Step 1 is the base case, so a model with any number of layers stays causal.

The picture follows this induction for row $i = 2$ of a two-layer model. Read it from the top: row 2 of layer 2 reads rows 0 to 2 of layer 1 through attention; each of those reads only the input rows at or before its own position; and input row $t$ comes from token $t$ alone. In every layer below it, row $i$ can therefore depend on the same rows, $0$ to $i$. This cone opens only to the left: however many layers are stacked, it never reaches past column $i$, and the future of row 2 (rows 3 and 4) stays outside it at every layer.

![The structural argument as a picture: five positions BOS 春 风 春 雨, from bottom to top the tokens, the input X = E plus P, layer 1 and layer 2. Row 2 of layer 2 reads rows 0 to 2 of layer 1 through attention, and these read rows 0 to 2 of the input; so in every layer below it only rows 0 to 2 lie in its cone, while rows 3 and 4 are its future and are read at no layer.](figures/cone.svg)

This argument is about the **architecture**: which rows each component is designed to read. It holds for every input, but it cannot promise that the code does what the design says. A transposed mask, a wrong `axis`, a statistic taken over the time axis: each makes the code depart from the design. Such mistakes are caught by the **future-perturbation test**, an error detector that runs a concrete implementation on concrete inputs. The structural argument and the perturbation test are two different kinds of evidence; they support each other, and neither replaces the other.
""",
    ru=r"""
## 4.2 Структурное рассуждение: что читает каждая строка, слой за слоем

Пусть на входе последовательность $x_0,\dots,x_{T-1}$. Покажем, что строка $i$ выхода зависит только от $x_0,\dots,x_i$. Пройдём по вычислению шаг за шагом:

1. **Вход.** $X_i = E[x_i] + P[i]$ зависит только от токена в позиции $i$ и от самого номера позиции $i$.
2. **Проекции запросов, ключей и значений.** $Q=XW_Q$, $K=XW_K$, $V=XW_V$ — построчные умножения, так что строка $i$ использует только $X_i$.
3. **Разбиение на головы.** Признаки одной позиции делятся на $H$ частей; ось времени не затрагивается.
4. **Причинное внимание.** Строка $i$ выхода равна $\sum_{j\le i}\alpha_{ij}V_j$, а веса $\alpha_{ij}$ вычисляются только из $q_i$ и $k_0,\dots,k_i$. Значит, строка $i$ читает входные строки с $0$ по $i$.
5. **Склейка голов и выходная проекция $W_O$.** Склейка — операция, обратная разбиению; $W_O$ смешивает признаки голов внутри одной позиции и не добавляет никаких путей между моментами времени.
6. **Слои после внимания.** Нормализация внутри каждой позиции (например, нормализация слоя), позиционный MLP (он применяется к каждой позиции отдельно) и остаточная связь $y_i = x_i + f(x_i)$ для строки $i$ используют только строку $i$ — если ни один из них не читает вдоль оси времени.

Теперь проведём индукцию по слоям. Если строка $i$ выхода слоя $\ell$ зависит только от $x_0,\dots,x_i$, то строка $i$ слоя $\ell+1$ читает строки с $0$ по $i$ слоя $\ell$ (внимание) или только строку $i$ (все остальные слои), а они зависят лишь от $x_0,\dots,x_i$. Шаг 1 даёт базу индукции, поэтому модель с любым числом слоёв остаётся причинной.

Рисунок показывает эту индукцию для строки $i = 2$ двухслойной модели. Читаем сверху вниз: строка 2 слоя 2 через внимание читает строки 0–2 слоя 1; каждая из них читает только строки входа, стоящие не позже её самой; а строка $t$ входа получается из одного токена $t$. Значит, в каждом слое ниже строка $i$ может зависеть от одних и тех же строк — с $0$ по $i$. Этот конус раскрывается только влево: сколько бы слоёв ни стояло друг над другом, он не заходит правее столбца $i$, а будущее строки 2 (строки 3 и 4) в каждом слое остаётся вне его.

![Структурное рассуждение на рисунке: пять позиций BOS 春 风 春 雨, снизу вверх — токены, вход X = E плюс P, слой 1 и слой 2. Строка 2 слоя 2 через внимание читает строки 0–2 слоя 1, а те читают строки 0–2 входа; поэтому в каждом слое ниже в её конус попадают только строки 0–2, а строки 3 и 4 — её будущее и не читаются ни в одном слое.](figures/cone.svg)

Это рассуждение об **архитектуре**: какие строки каждый компонент должен читать по замыслу. Оно верно для любого входа, но не гарантирует, что код делает то, что задумано. Транспонированная маска, не тот `axis`, статистика, посчитанная вдоль оси времени, — всё это уводит код от замысла. Такие ошибки ловит **проверка возмущением будущего**: она запускает конкретную реализацию на конкретных входах и ищет ошибку. Структурное рассуждение и проверка возмущением — два разных вида свидетельств: они поддерживают друг друга, но друг друга не заменяют.
""",
)

md(
    zh=r"""
## 4.3 未来扰动检验

检验分三步。先准备两条等长的序列：前 $p$ 个位置一模一样，这是共同的前缀；前缀之后的每个位置都放上**截然不同**的词元，也可以直接改输入向量。然后两条序列各做一次前向传播。最后逐个比较前缀位置上的输出。实现若是因果的，这些输出最多相差浮点舍入，没有一个真正改变。

我们用 `<bos> 春 雨` 和 `<bos> 春 <unk>`：前两个位置相同，第三个位置从 `雨` 换成数值很大的 `<unk>`。先看输入 $X$ 本身：只有第 2 行变了，与 §4.2 第 1 步一致。再看整个模型的输出：前两行的最大变化是 `0.0`，不是“很小”，而是零。
""",
    en=r"""
## 4.3 The future-perturbation test

The test has three steps. Build two sequences of the same length that agree on their first $p$ positions, the prefix, and hold **clearly different** tokens at every position after it (or, directly, different input vectors). Run the forward pass on each. Compare the outputs at every prefix position. If the implementation is causal, none of them moves by more than floating-point rounding.

We take `<bos> 春 雨` and `<bos> 春 <unk>`: the first two positions agree, and the third changes from `雨` to the large `<unk>`. First we look at the input $X$ itself: only its row 2 changes, as step 1 of §4.2 says. Then we look at the model's output: the largest change over the first two rows is `0.0`, not merely small.
""",
    ru=r"""
## 4.3 Проверка возмущением будущего

Проверка состоит из трёх шагов. Строим две последовательности одной длины: первые $p$ позиций (префикс) у них одинаковы, а во всех позициях после префикса стоят **явно разные** токены (или сразу разные входные векторы). Прогоняем каждую через прямой проход. Сравниваем выходы во всех позициях префикса. Если реализация причинна, ни один из них не изменится больше чем на ошибку округления.

Возьмём `<bos> 春 雨` и `<bos> 春 <unk>`: первые две позиции совпадают, третья меняется с `雨` на большой `<unk>`. Сначала посмотрим на сам вход $X$: меняется только его строка 2, как и говорит шаг 1 из §4.2. Затем — на выход модели: наибольшее изменение первых двух строк равно `0.0` — не просто мало, а ноль.
""",
)

code(r"""
ids = np.array([BOS, 3, 4])
perturbed = np.array([BOS, 3, UNK])
print(decode(ids, vocab), "|", decode(perturbed, vocab))

#zh (T,)：X 每一行的变化
#en (T,): the change of each row of X
#ru (T,): изменение каждой строки X
input_rows = checks.row_changes(model.embed, ids, perturbed)
print(np.round(input_rows, 12))
assert input_rows[0] == 0.0 and input_rows[1] == 0.0 and input_rows[2] > 1

change = checks.future_change(model.forward, ids, perturbed,
                              prefix_length=2)
print(change)
assert change == 0.0
""")

md(
    zh=r"""
## 4.4 阴性对照：先证明检验看得见泄漏

“变化为 0”本身说明不了什么：也许模型确实是因果的，也许检验根本无法察觉任何变化。所以要用**同一个检验**，去测一个我们**明知会泄漏**的版本：把因果掩码关掉（`causal=False`），让每个查询都能读全部位置。此时检验必须报告前缀发生了变化；如果它仍然报告 0，那坏掉的是检验，而不是模型。

关掉掩码后，前两行的最大变化约为 39.7720206134。§6.6 会用一段不依赖 NumPy 的纯 Python 程序把这个数独立地再算一遍。`check_causality` 把被测实现和阴性对照放在一起运行：只有被测实现的变化不超过容差、**并且**对照的变化超过容差，检验才算通过。
""",
    en=r"""
## 4.4 The negative control: first show that the test can see a leak

A change of 0 proves nothing by itself: perhaps the model is causal, perhaps the test cannot see any change at all. So we run **the same test** on a version that we **know** leaks: switch the causal mask off (`causal=False`) so that every query reads every position. Now the test must report a change in the prefix. If it still reports 0, it is the test that is broken, not the model.

With the mask off, the largest change over the first two rows is about 39.7720206134. §6.6 computes this number again, independently, with a short pure-Python program that does not use NumPy. `check_causality` runs the implementation under test and its negative control together: the check passes only if the implementation's change is within tolerance **and** the control's change is above it.
""",
    ru=r"""
## 4.4 Отрицательный контроль: сначала убедиться, что проверка видит утечку

Само по себе «изменение равно 0» ничего не доказывает: может быть, модель причинна, а может быть, проверка вообще не способна заметить изменение. Поэтому **ту же самую проверку** запускаем на версии, которая **заведомо** допускает утечку: отключаем причинную маску (`causal=False`), и каждый запрос читает все позиции. Теперь проверка обязана увидеть изменение префикса. Если она по-прежнему показывает 0, сломана проверка, а не модель.

С отключённой маской наибольшее изменение первых двух строк — около 39,7720206134. В §6.6 это число заново и независимо вычисляет короткая программа на чистом Python, без NumPy. Функция `check_causality` запускает проверяемую реализацию и её отрицательный контроль вместе: проверка пройдена, только если изменение у реализации не превышает допуска **и** изменение у контроля его превышает.
""",
)

code(r"""
def control(x):
    #zh 阴性对照：每个查询读取全部键
    #en negative control: every query reads every key
    #ru отрицательный контроль: каждый запрос читает все ключи
    return model.forward(x, causal=False)

control_change = checks.future_change(
    control, ids, perturbed, prefix_length=2)
print(f"{control_change:.12g}")
assert abs(control_change - 39.772020613422825) < 1e-9

result = checks.check_causality(
    model.forward, control, ids, perturbed, prefix_length=2)
print(result.causal, result.control_saw_change, result.passed)
assert result.passed
""")

md(
    zh=r"""
## 4.5 没有对照的检验会怎样“空转”

下面是三种常见的“假通过”。每一种里，被测模型的前缀变化都是 0，但阴性对照同样是 0，于是 `check_causality` 正确地判定检验无效。

**输入退化。** 换上的词元编号不同，向量却相同。我们把末位的 `<bos>` 换成 `风`：编号从 1 变成 5，但这两行嵌入完全一样，位置也没变，于是模型看到的输入根本没有变化。
""",
    en=r"""
## 4.5 How a test without a control passes vacuously

Here are three common ways to "pass" without testing anything. In each, the model under test shows a prefix change of 0, but so does the negative control, and `check_causality` correctly reports that the test is void.

**Degenerate input.** The replacement token has a different id but the same vector. We replace a final `<bos>` by `风`: the id goes from 1 to 5, but the two embedding rows are identical and the position is the same, so the model sees no change in its input at all.
""",
    ru=r"""
## 4.5 Как проверка без контроля проходит вхолостую

Вот три типичных способа «пройти» проверку, ничего не проверив. В каждом из них изменение префикса у проверяемой модели равно 0 — но и у отрицательного контроля тоже 0, и `check_causality` справедливо признаёт проверку несостоятельной.

**Вырожденный вход.** У заменяющего токена другой номер, но тот же вектор. Заменим последний `<bos>` на `风`: номер меняется с 1 на 5, но строки эмбеддингов одинаковы, позиция та же, так что модель вообще не видит изменения входа.
""",
)

code(r"""
same_prefix_a = np.array([BOS, 3, BOS])
same_prefix_b = np.array([BOS, 3, 5])
print(decode(same_prefix_a, vocab), "|", decode(same_prefix_b, vocab))
degenerate = checks.check_causality(
    model.forward, control, same_prefix_a, same_prefix_b, prefix_length=2)
print(degenerate.change, degenerate.control_change, degenerate.passed)
assert (degenerate.change == 0.0 and degenerate.control_change == 0.0
        and not degenerate.passed)
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
    #zh 错误所在：计算结果根本没有返回给调用者
    #en the bug: the result never reaches the caller
    #ru ошибка: результат так и не доходит до вызывающего кода
    return np.zeros_like(out)

constant = checks.check_causality(
    buggy_forward, lambda x: buggy_forward(x, causal=False), ids, perturbed,
    prefix_length=2)
print(constant.change, constant.control_change, constant.passed)
assert (constant.change == 0.0 and constant.control_change == 0.0
        and not constant.passed)
""")

md(
    zh=r"""
**检查了错误的位置。** 如果前缀长度算错成 0，比较的就是一个空切片。`np.allclose` 对两个空数组返回 `True`，哪怕比较的是明显泄漏的无掩码模型。`future_change` 直接拒绝这种情况：前缀长度 $p$ 须满足 $1 \le p < T$，这样至少有一个前缀输出可比，也至少有一个未来位置被改动。
""",
    en=r"""
**Wrong positions checked.** If the prefix length is miscomputed as 0, the comparison runs over an empty slice. `np.allclose` returns `True` for two empty arrays, even for the unmasked model that plainly leaks. `future_change` refuses this case outright: the prefix length $p$ must satisfy $1 \le p < T$, so that at least one prefix output is compared and at least one future position is changed.
""",
    ru=r"""
**Проверены не те позиции.** Если длина префикса по ошибке вычислена как 0, сравнивается пустой срез. `np.allclose` для двух пустых массивов возвращает `True` — даже для модели без маски, где утечка очевидна. `future_change` такой случай просто отвергает: длина префикса $p$ должна удовлетворять условию $1 \le p < T$, чтобы сравнивался хотя бы один выход префикса и менялась хотя бы одна будущая позиция.
""",
)

code(r"""
prefix_length = 0  #zh 算错了的前缀长度 #en a miscomputed prefix length #ru ошибочно вычисленная длина префикса
print(np.allclose(control(ids)[:prefix_length],
                  control(perturbed)[:prefix_length]))
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
## 4.6 扰动必须用有限值：NaN 会谎报泄漏

上面三种情形是“假通过”；反过来，检验也可能“假报警”。把未来的某个值换成 NaN 或无穷大，看上去是最彻底的扰动，其实却让检验失效。原因在浮点算术本身：$0 \cdot \text{NaN} = \text{NaN}$，$0 \cdot \infty = \text{NaN}$。注意力输出是权重矩阵与全部值 $V$ 的乘积，第 0、1 行对位置 2 的权重虽然**恰好是 0**，乘上 NaN 仍得 NaN，于是这两行整行变成 NaN，检验报告“前缀变了”，而模型完全是因果的。只要加权求和把未来的值也乘了进去（矩阵乘积正是这样做的），任何实现都会如此，这不是哪个库的缺陷。

下面沿用 §4.3 的 `<bos> 春 雨`，在两个头里只把位置 2 的**值**向量换掉，查询和键保持不变。输出按 §1 的定义算出：注意力权重乘以全部的值，即 `weights @ v`。

* 换成 NaN 或 inf：第 0、1 行对位置 2 的权重精确为 0，输出却全是 NaN，变化也是 NaN；
* 换成一个有限但很大的扰动（每个分量加 1000）：第 0、1 行与原来完全相等，变化为 `0.0`。

`lib` 的 `causal_attention` 对 q、k、v 中任何位置上的 NaN 或 inf 都抛出 `ValueError`，未来位置也不例外，错误信息里说明了 $0 \cdot \text{NaN}$ 的问题；有限的扰动则照常计算，前缀逐位不变（输出 `True`）。为什么连未来位置也要拒绝？§5.9 会讲到，同样的数也可以按块计算（`lib.blocked`），那时完全处在未来的键根本不会被读取。如果不拒绝，未来位置上的 NaN 会不会污染前面的行，就取决于用的是哪种算法、它又恰好落在哪一块里。与其留下这样一条隐蔽的规则，不如统一拒绝。

所以未来扰动检验只能使用有限值。NaN 和 inf 要另行测试（例如检查它们是否被明确拒绝），不能拿来充当扰动。
""",
    en=r"""
## 4.6 Perturb with finite values: a NaN reports a leak that is not there

The three cases above are false passes; a test can also raise a false alarm. Replacing a future value by NaN or infinity looks like the most drastic perturbation, yet it defeats the test. The reason is floating-point arithmetic itself: $0 \cdot \text{NaN} = \text{NaN}$ and $0 \cdot \infty = \text{NaN}$. The attention output is the product of the weight matrix with all of the values $V$. The weights of rows 0 and 1 on position 2 are **exactly 0**, but 0 times NaN is still NaN, so both rows become NaN throughout, and the test reports that the prefix changed although the model is perfectly causal. Any implementation whose weighted sum includes the future values, as a matrix product does, behaves this way; it is not a flaw of one library.

Below we keep `<bos> 春 雨` from §4.3 and, in both heads, replace only the **value** vector of position 2, leaving queries and keys as they are. The outputs are computed as §1 defines them: the attention weights times all of the values, `weights @ v`.

* replaced by NaN or inf: the weights of rows 0 and 1 on position 2 are 0, yet their outputs are all NaN, and so is the change;
* replaced by a finite but large perturbation (1000 added to every component): rows 0 and 1 equal the original to the last bit, a change of `0.0`.

`lib`'s `causal_attention` raises a `ValueError` for a NaN or inf anywhere in q, k or v, future positions included, and its message explains the $0 \cdot \text{NaN}$ problem; a finite perturbation is computed as usual, and the prefix stays the same bit for bit (the `True`). Why refuse even at future positions? As §5.9 shows, the same numbers can be computed in blocks (`lib.blocked`), and then keys lying entirely in the future are never read. Without the refusal, whether a future NaN contaminated earlier rows would depend on which algorithm ran and which block it happened to fall into. One plain refusal is better than such a hidden rule.

So the future-perturbation test must use finite values. NaN and inf need tests of their own (for instance, that they are refused with a clear error); they cannot serve as a perturbation.
""",
    ru=r"""
## 4.6 Возмущать только конечными значениями: NaN сообщает об утечке, которой нет

Три ситуации выше — ложные «прохождения»; бывает и наоборот, ложная тревога. Замена будущего значения на NaN или бесконечность кажется самым сильным возмущением, но как раз она лишает проверку смысла. Причина в самой арифметике с плавающей точкой: $0 \cdot \text{NaN} = \text{NaN}$ и $0 \cdot \infty = \text{NaN}$. Выход внимания — произведение матрицы весов на все значения $V$. Веса, с которыми строки 0 и 1 читают позицию 2, равны **в точности 0**, но ноль, умноженный на NaN, всё равно NaN, поэтому обе строки целиком становятся NaN, и проверка сообщает, что префикс изменился, хотя модель безупречно причинна. Так ведёт себя любая реализация, в которой взвешенная сумма включает будущие значения (а матричное произведение включает их все); это не недостаток какой-то одной библиотеки.

Ниже берём `<bos> 春 雨` из §4.3 и в обеих головах заменяем только вектор **значения** в позиции 2, оставляя запросы и ключи прежними. Выходы вычисляются так, как их определяет §1: веса внимания, умноженные на все значения, `weights @ v`.

* значение заменено на NaN или inf: веса, с которыми строки 0 и 1 читают позицию 2, равны 0, а выходы этих строк целиком состоят из NaN, и изменение тоже NaN;
* значение изменено на конечную, но большую величину (к каждой компоненте прибавлено 1000): строки 0 и 1 совпадают с исходными до последнего бита, изменение равно `0.0`.

`causal_attention` из `lib` выбрасывает `ValueError`, если NaN или inf встречается где угодно в q, k или v, в том числе в будущих позициях, и в сообщении объясняет, в чём беда с $0 \cdot \text{NaN}$. Конечное возмущение вычисляется как обычно, и префикс не меняется ни в одном бите (результат `True`). Зачем отвергать и будущие позиции? Как покажет §5.9, те же числа можно вычислять блоками (`lib.blocked`), и тогда ключи, целиком лежащие в будущем, вообще не читаются. Без такого запрета то, испортит ли NaN из будущего более ранние строки, зависело бы от того, какой алгоритм работал и в какой блок NaN случайно попал. Лучше один понятный отказ, чем такое скрытое правило.

Поэтому проверка возмущением будущего должна использовать только конечные значения. NaN и inf требуют отдельных тестов (например, что они отвергаются с понятной ошибкой), а в качестве возмущения не годятся.
""",
)

code(r"""
x = model.embed(ids)[None]  # (1, T, D)
# (1, H, T, d)
q, k, v = (split_heads(x @ w, model.n_heads)
           for w in (model.w_q, model.w_k, model.w_v))
# (1, H, T, T)
weights = masked_softmax(attention_scores(q, k), ~causal_future(3, 3))
print(weights[0, :, :2, 2])  # (H, 2)
print(0.0 * np.nan, 0.0 * np.inf)
assert np.all(weights[0, :, :2, 2] == 0.0)

original = weights @ v  #zh 加权求和，与 causal_attention 相同 #en the weighted sum, as causal_attention computes it #ru взвешенная сумма, как в causal_attention
assert np.allclose(original, causal_attention(q, k, v), rtol=0, atol=1e-12)
value_changes = {}
for name, new_value in (("nan", np.nan), ("inf", np.inf),
                        ("+1000", v[:, :, 2] + 1000.0)):
    v_new = v.copy()
    #zh 只改未来位置 2 的值
    #en only the future value at position 2 changes
    #ru меняется только будущее значение в позиции 2
    v_new[:, :, 2] = new_value
    #zh 0·NaN 与 0·inf 在意料之中，不让 NumPy 发出警告
    #en 0·NaN and 0·inf are expected here: silence NumPy's warning
    #ru 0·NaN и 0·inf здесь ожидаемы: предупреждение NumPy не нужно
    with np.errstate(invalid="ignore"):
        prefix = (weights @ v_new)[:, :, :2]  # (1, H, 2, d)
        value_changes[name] = float(
            np.abs(prefix - original[:, :, :2]).max())
    print(name, np.isnan(prefix).all(), value_changes[name])
    try:
        causal_attention(q, k, v_new)
    except ValueError as err:
        print(type(err).__name__)
        assert "v holds" in str(err) and "0 * nan = nan" in str(err)
    else:
        print(np.array_equal(causal_attention(q, k, v_new)[:, :, :2],
                             causal_attention(q, k, v)[:, :, :2]))
assert np.isnan(value_changes["nan"]) and np.isnan(value_changes["inf"])
assert value_changes["+1000"] == 0.0
""")

md(
    zh=r"""
## 4.7 权重右上角为零，并不等于没有泄漏

一种常见的简化检查是：把注意力权重矩阵打印出来，确认对角线右上方全是零。这只检查了我们放掩码的那一处，泄漏完全可以来自别的地方。

`lib.checks.leaky_time_normalization` 是一个**故意写错的反例**：它对每个特征**沿时间轴**求均值和方差再做标准化，于是第 0 行的结果已经依赖最后一行。它与在每个位置内部（按特征）归一化的 `feature_normalization` 只差一个 `axis`，在实际代码中很容易写错。把它放在一个掩码完全正确的注意力之前或之后：

* 注意力权重的右上角仍然**精确为零**，简化检查照样通过；
* 未来扰动检验却发现前缀输出变了。

作为对比，把按特征的归一化放在注意力的前后，前缀变化仍然是 `0.0`，这正是 §4.2 第 6 步的结论。这里用更长的序列：前 4 个位置相同，后 4 个位置全部不同。
""",
    en=r"""
## 4.7 Zero weights above the diagonal do not mean no leak

A common shortcut is to print the attention weights and confirm that everything above the diagonal is zero. That checks only the one place where we put the mask; a leak can come from anywhere else.

`lib.checks.leaky_time_normalization` is a **deliberate counter-example**: it normalises every feature by its mean and variance **over the time axis**, so row 0 of its output already depends on the last row. It differs from `feature_normalization`, which normalises within each position (over the features), by a single `axis`, an easy slip in real code. Put it before or after an attention layer whose mask is perfectly correct:

* the attention weights above the diagonal are still **exactly zero**, so the shortcut passes;
* the future-perturbation test sees the prefix outputs change.

For contrast, a normalisation over the features before and after attention keeps the prefix change at `0.0`, as step 6 of §4.2 predicts. We use a longer sequence here: the first 4 positions agree, the last 4 all differ.
""",
    ru=r"""
## 4.7 Нули над диагональю ещё не означают отсутствия утечки

Распространённая упрощённая проверка — напечатать матрицу весов внимания и убедиться, что над диагональю одни нули. Так проверяется лишь то место, где стоит маска; утечка же может возникнуть где угодно ещё.

`lib.checks.leaky_time_normalization` — **намеренно ошибочный контрпример**: эта функция нормализует каждый признак по среднему и дисперсии **вдоль оси времени**, так что строка 0 её выхода уже зависит от последней строки. От `feature_normalization` — нормализации внутри каждой позиции (по признакам) — она отличается одним `axis`, и в настоящем коде такую ошибку допустить легко. Поставим её до или после слоя внимания с совершенно правильной маской:

* веса внимания над диагональю по-прежнему **в точности равны нулю** — упрощённая проверка проходит;
* проверка возмущением будущего видит, что выходы префикса изменились.

Для сравнения: нормализация по признакам до и после внимания оставляет изменение префикса равным `0.0`, как и предсказывает шаг 6 из §4.2. Здесь берём последовательность подлиннее: первые 4 позиции совпадают, последние 4 все различны.
""",
)

code(r"""
ids8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])
#zh 前 4 个位置相同，未来不同
#en the same prefix of 4, a different future
#ru тот же префикс из 4 позиций, другое будущее
other8 = np.array([BOS, 3, 4, 5, 5, 3, 4, EOS])
print(decode(ids8, vocab), "|", decode(other8, vocab))

x = checks.leaky_time_normalization(model.embed(ids8)[None])  # (1, T, D)
# (1, H, T, T)
weights = checks.attention_weights(x, model.w_q, model.w_k, model.n_heads)
print(weights.shape, checks.upper_right_is_zero(weights))
assert checks.upper_right_is_zero(weights)

def leaky_before(t):
    return checks.forward_with(model, t,
                               before=checks.leaky_time_normalization)

def leaky_after(t):
    return checks.forward_with(model, t,
                               after=checks.leaky_time_normalization)

def per_position(t):
    return checks.forward_with(model, t,
                               before=checks.feature_normalization,
                               after=checks.feature_normalization)

changes = {
    f.__name__: checks.future_change(f, ids8, other8, prefix_length=4)
    for f in (model.forward, per_position, leaky_before, leaky_after)}
for name, value in changes.items():
    print(name, round(value, 6))
assert changes["forward"] == 0.0 and changes["per_position"] == 0.0
assert changes["leaky_before"] > 0.1 and changes["leaky_after"] > 0.1
""")

md(
    zh=r"""
## 4.8 参数固定：dropout、随机种子与训练更新

因果性说的是：在**同一组参数**下的一次前向传播里，未来输入不能沿计算图影响过去的输出。扰动检验比较两次前向传播，所以这两次必须是**同一个确定的函数**：

* **训练模式下的 dropout** 每次调用都重新抽取随机掩码。同一个输入连算两次，前缀的输出就已经不同。这种变化与未来无关，不是泄漏，检验却会把它报告成泄漏。
* **固定随机种子**（两次前向传播用同样的随机数），或者在**评估模式**下关闭 dropout，两次前向传播又成了同一个函数，检验重新有意义：带掩码的模型变化为 `0.0`，阴性对照仍然看得见变化。
* **训练更新**会改变共享参数，即使输入完全相同，下一次前向传播中前缀的输出也会变。这同样不是泄漏，而是换了一个模型；两次前向传播之间不能做优化器更新。

下面在注意力权重上加 dropout 来演示（丢弃率 0.5，保留下来的权重乘以 2；`rate=0` 即评估模式）。它在单元格里由 `lib.attention` 的函数拼成，`lib` 里没有 dropout。最后一行输出是把 $W_O$ 放大 1% 之后、同一输入的前缀变化。
""",
    en=r"""
## 4.8 Fixed parameters: dropout, random seeds and training updates

Causality is a statement about one forward pass with **one set of parameters**: future inputs must not reach past outputs along the computation graph. A perturbation test compares two forward passes, so the two must be **the same deterministic function**:

* **Dropout in training mode** draws a fresh random mask on every call. Run the same input twice and the prefix outputs already differ. That change has nothing to do with the future and is not a leak, yet the test reports it as one.
* With a **fixed random seed** (the same random numbers in both passes), or with dropout switched off in **evaluation mode**, the two passes are one function again and the test is meaningful once more. The masked model then changes by `0.0`, and the negative control still sees a change.
* A **training update** changes the shared parameters, so the prefix outputs of the next pass differ even for the same input. That is not a leak either; it is a different model. There must be no optimiser step between the two passes.

Below we demonstrate this with dropout on the attention weights (rate 0.5, the kept weights multiplied by 2; `rate=0` is evaluation mode). The cell assembles it from functions of `lib.attention`; `lib` itself has no dropout. The last printed line is the prefix change for the same input after $W_O$ has been scaled up by 1%.
""",
    ru=r"""
## 4.8 Параметры фиксированы: dropout, seed и шаги обучения

Причинность — это утверждение об одном прямом проходе при **одном наборе параметров**: будущие входы не должны по графу вычислений влиять на прошлые выходы. Проверка возмущением сравнивает два прямых прохода, поэтому оба должны быть **одной и той же детерминированной функцией**:

* **Dropout в режиме обучения** при каждом вызове заново выбирает случайную маску. Если дважды прогнать один и тот же вход, выходы префикса уже будут разными. Это изменение никак не связано с будущим и утечкой не является, но проверка примет его за утечку.
* Если **зафиксировать seed** (в обоих проходах одни и те же случайные числа) или выключить dropout в **режиме инференса (eval)**, оба прохода опять становятся одной функцией, и проверка вновь имеет смысл: у модели с маской изменение равно `0.0`, а отрицательный контроль по-прежнему видит изменение.
* **Шаг обучения** меняет общие параметры, поэтому выходы префикса при следующем проходе будут другими даже для того же самого входа. Это тоже не утечка, а просто другая модель. Между двумя проходами не должно быть шагов оптимизатора.

Ниже покажем это на примере dropout, применённого к весам внимания (вероятность отбрасывания 0,5, оставшиеся веса умножаются на 2; `rate=0` — режим инференса). Dropout собран прямо в ячейке из функций `lib.attention`; в самой `lib` его нет. Последняя напечатанная строка — изменение префикса для того же входа после того, как $W_O$ увеличили на 1 %.
""",
)

code(r"""
def dropout_forward(ids, rng, rate=0.5, causal=True):
    #zh 即 model.forward，只是在注意力权重上加了 dropout
    #en model.forward with dropout on the attention weights
    #ru model.forward с dropout на весах внимания
    x = model.embed(ids)[None]  # (1, T, D)
    # (1, H, T, d)
    q, k, v = (split_heads(x @ w, model.n_heads)
               for w in (model.w_q, model.w_k, model.w_v))
    T = len(ids)
    everything = np.ones((T, T), dtype=bool)
    allowed = ~causal_future(T, T) if causal else everything
    # (1, H, T, T)
    weights = masked_softmax(attention_scores(q, k), allowed)
    keep = rng.random(weights.shape) >= rate  # (1, H, T, T)
    weights = weights * keep / (1 - rate)
    return (merge_heads(weights @ v) @ model.w_o)[0]  # (T, D)

#zh 一个生成器，每次调用抽取新的掩码
#en one generator: a fresh mask on every call
#ru один генератор: на каждый вызов новая маска
fresh = np.random.default_rng(0)
same_input = float(np.abs(dropout_forward(ids, fresh)
                          - dropout_forward(ids, fresh))[:2].max())
fresh_masks = checks.future_change(
    lambda t: dropout_forward(t, fresh), ids, perturbed, prefix_length=2)
print(round(same_input, 6), round(fresh_masks, 6))
assert same_input > 0.1 and fresh_masks > 0.1

def seeded(causal):
    #zh 每次调用都用同一个种子
    #en the same seed on every call
    #ru один и тот же seed при каждом вызове
    return lambda t: dropout_forward(
        t, np.random.default_rng(1), causal=causal)

def evaluation(causal):
    return lambda t: dropout_forward(t, fresh, rate=0.0, causal=causal)

for name, make in (("seed", seeded), ("eval", evaluation)):
    r = checks.check_causality(make(True), make(False), ids, perturbed,
                               prefix_length=2)
    print(name, r.change, r.control_saw_change, r.passed)
    assert r.passed and r.change == 0.0
assert np.abs(evaluation(True)(ids) - model.forward(ids)).max() < 1e-12

#zh 一次“训练更新”：W_O 放大 1%
#en a "training update": W_O scaled by 1%
#ru «шаг обучения»: W_O увеличена на 1 %
updated = AttentionModel(model.token_table, model.position_table, model.w_q,
                         model.w_k, model.w_v, 1.01 * model.w_o,
                         model.n_heads)
after_update = float(np.abs(updated.forward(ids)
                            - model.forward(ids))[:2].max())
print(round(after_update, 6))
assert after_update > 1e-3
""")

md(
    zh=r"""
## 4.9 在随机模型上反复检验

§4.1 的模型只有一种尺寸。下面随机抽取词表大小 $V$、长度 $T$、宽度 $D$、头数 $H$ 和前缀长度 $p$，每次都用随机参数的模型跑完整的检验（含阴性对照）。每行输出依次是 $V, T, D, H, p$、前缀变化、对照是否看到了变化。
""",
    en=r"""
## 4.9 Repeating the check on random models

The model of §4.1 has a single size. Below we draw a vocabulary size $V$, a length $T$, a width $D$, a head count $H$ and a prefix length $p$ at random, and each time run the full check, control included, on a model with random parameters. Each printed row is $V, T, D, H, p$, the prefix change, and whether the control saw a change.
""",
    ru=r"""
## 4.9 Повторяем проверку на случайных моделях

Модель из §4.1 — всего одного размера. Ниже мы случайно выбираем размер словаря $V$, длину $T$, ширину $D$, число голов $H$ и длину префикса $p$ и каждый раз запускаем полную проверку вместе с контролем на модели со случайными параметрами. Каждая напечатанная строка: $V, T, D, H, p$, изменение префикса и то, увидел ли контроль изменение.
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
    random_model = checks.random_model(
        rng, vocab_size=V, context_size=T, width=width, n_heads=n_heads)
    ids_r = rng.integers(0, V, size=T)
    perturbed_r = checks.perturb_future(ids_r, p, rng, vocab_size=V)
    r = checks.check_causality(
        random_model.forward,
        lambda t: random_model.forward(t, causal=False), ids_r, perturbed_r,
        p)
    print(V, T, width, n_heads, p, r.change, r.control_saw_change)
    assert r.passed and r.change == 0.0
""")

md(
    zh=r"""
## 4.10 一张图看清三种情形

对 §4.7 的同一对序列（前缀 4 个位置相同），画出每个输出行 $i$ 的最大变化：带掩码的模型（`causal=True`）、关掉掩码的阴性对照（`causal=False`），以及在注意力前加了时间轴归一化的泄漏版本。虚线左侧是前缀。带掩码的模型在前缀上没有柱子（变化精确为 0），另外两者在前缀上都有变化。纵轴在 $10^{-3}$ 以下是线性的，以上是对数的。
""",
    en=r"""
## 4.10 One picture of the three cases

For the same pair of sequences as in §4.7 (a prefix of 4 equal positions) we plot the largest change of every output row $i$: the masked model (`causal=True`), the negative control with the mask off (`causal=False`), and the leaky version with a time-axis normalisation before attention. The prefix lies left of the dashed line. The masked model has no bars there (its change is 0); the other two change in the prefix. The vertical axis is linear below $10^{-3}$ and logarithmic above.
""",
    ru=r"""
## 4.10 Три варианта на одном рисунке

Для той же пары последовательностей, что и в §4.7 (префикс из 4 совпадающих позиций), построим график наибольшего изменения каждой строки $i$ выхода: модель с маской (`causal=True`), отрицательный контроль без маски (`causal=False`) и версия с утечкой, где перед вниманием стоит нормализация вдоль оси времени. Префикс — слева от пунктирной линии. У модели с маской там нет столбиков (её изменение равно 0), у двух других префикс меняется. Вертикальная ось линейна ниже $10^{-3}$ и логарифмична выше.
""",
)

code(r"""
rows = [checks.row_changes(f, ids8, other8)
        for f in (model.forward, control, leaky_before)]
for r in rows:
    print(np.round(r, 6))
assert np.all(rows[0][:4] == 0.0) and np.all(rows[0][4:] > 0)
assert np.all(rows[1][:4] > 0) and np.all(rows[2][:4] > 0)
plots.row_change_bars(rows,
                      ["causal=True", "causal=False",
                       "leaky_time_normalization"], prefix_length=4)
plt.show()
""", alt=dict(
    zh="柱状图：横轴为输出行 i（0～7），纵轴为该行的最大变化。虚线左侧的前缀里，causal=True 没有柱子，"
       "causal=False 和 leaky_time_normalization 都有明显的柱子；虚线右侧三者都有变化。",
    en="Bar chart of the largest change of each output row i (0 to 7). Left of the dashed line, in the prefix, "
       "causal=True has no bars while causal=False and leaky_time_normalization have clear bars; right of it all three change.",
    ru="Столбчатая диаграмма наибольшего изменения каждой строки выхода i (от 0 до 7). Слева от пунктира, в префиксе, "
       "у causal=True столбиков нет, у causal=False и leaky_time_normalization они заметны; справа меняются все три.",
))

md(
    zh=r"""
## 4.11 小结

* **结构论证**说明：只要每一层要么逐位置计算、要么只读取 $j \le i$，整个模型就是因果的。它覆盖所有输入，但只针对设计本身。
* **未来扰动检验**在具体代码上检错：固定前缀、改动全部未来位置、比较全部前缀输出。它覆盖真实代码，但只覆盖试过的输入。
* 检验必须与**阴性对照**一起运行：关掉掩码后必须看到变化，否则退化输入、常量输出或空比较都会让检验空转。
* 扰动只能用有限值：未来位置上的 NaN 或 inf 会经由 $0 \cdot \text{NaN} = \text{NaN}$ 污染前缀，让完全因果的模型也“泄漏”。
* 只看注意力权重的右上角是不够的：即使权重完全正确，沿时间轴的归一化照样可以泄漏未来信息。
* 一切都针对参数固定的一次前向传播：dropout 要关闭或固定随机种子；训练改变参数不是泄漏。

§5 的 KV 缓存正依赖本节的结论：未来词元不会改变旧位置的表示，所以旧位置的键和值可以直接复用。
""",
    en=r"""
## 4.11 Summary

* The **structural argument** shows that a model is causal whenever each layer either works position by position or reads only $j \le i$. It covers every input, but only the design.
* The **future-perturbation test** detects errors in actual code: fix the prefix, change every future position, compare all prefix outputs. It covers the real code, but only the inputs tried.
* The test must run with its **negative control**: with the mask off it has to see a change, or else a degenerate input, a constant output or an empty comparison lets it pass vacuously.
* Perturb with finite values only: a NaN or inf at a future position contaminates the prefix through $0 \cdot \text{NaN} = \text{NaN}$, and a perfectly causal model appears to leak.
* Looking at the attention weights above the diagonal is not enough: a normalisation over the time axis leaks the future while the weights are perfectly correct.
* Everything concerns one forward pass with fixed parameters: dropout must be off or run with a fixed seed, and training that changes the parameters is not a leak.

The KV cache of §5 rests on this result: future tokens do not change the representations of old positions, so their keys and values can be reused as they are.
""",
    ru=r"""
## 4.11 Итоги

* **Структурное рассуждение** показывает: модель причинна, если каждый слой либо работает позиция за позицией, либо читает только $j \le i$. Оно охватывает все входы, но только сам замысел.
* **Проверка возмущением будущего** ловит ошибки в настоящем коде: фиксируем префикс, меняем все будущие позиции, сравниваем все выходы префикса. Она охватывает реальный код, но только опробованные входы.
* Проверку нужно запускать вместе с **отрицательным контролем**: без маски она обязана увидеть изменение, иначе вырожденный вход, постоянный выход или пустое сравнение позволят ей пройти вхолостую.
* Возмущать можно только конечными значениями: NaN или inf в будущей позиции через $0 \cdot \text{NaN} = \text{NaN}$ портит префикс, и безупречно причинная модель выглядит так, будто в ней есть утечка.
* Смотреть только на веса внимания над диагональю недостаточно: нормализация вдоль оси времени допускает утечку будущего при безупречных весах.
* Всё это относится к одному прямому проходу при фиксированных параметрах: dropout нужно выключить или зафиксировать seed, а обучение, которое меняет параметры, утечкой не является.

На этом результате держится KV-кэш из §5: будущие токены не меняют представлений старых позиций, поэтому их ключи и значения можно использовать повторно без пересчёта.
""",
)
