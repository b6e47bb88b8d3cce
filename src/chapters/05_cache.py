# §5 The KV cache needs a position offset: per-head K/V reuse, equivalence with the
# full forward, the reset-to-zero bug, the end of the position table, memory, timing.

md(
    zh=r"""
# 5 缓存需要位置偏移量

生成文本时，模型每次只新增一个词元。最朴素的做法是：每来一个新词元，就把整段序列重新前向一遍，只取最后一行输出。可是前面各位置的计算每次都在重复。

上一节的结论让我们可以省掉这些重复：在参数固定的因果模型里，后面追加的词元不会改变前面位置的表示。于是旧位置的**键和值**算过一次就可以保存下来，这就是 **KV 缓存**。新词元只需算出自己的查询、键和值，再读取缓存中的全部历史。

本节要说明：缓存按头保存什么；新词元为什么必须放在位置 `len(cache)` 上；如何用“逐词元与整段前向逐项比较”来检错；以及缓存的适用边界和它省下的时间。
""",
    en=r"""
# 5 The cache needs a position offset

When a model generates text, it adds one token at a time. The naive way is to run the whole sequence through the forward pass again for every new token and keep only the last output row. All the work for the earlier positions is repeated each time.

The previous section lets us skip that repetition: in a causal model with fixed parameters, tokens appended later do not change the representations of earlier positions. So the **keys and values** of old positions can be computed once and stored. That store is the **KV cache**. A new token needs only its own query, key and value, and then reads the whole stored history.

This section covers what the cache stores per head; why the new token must sit at position `len(cache)`; how comparing token-by-token output with the full forward catches mistakes; where the cache stops being valid; and how much time it saves.
""",
    ru=r"""
# 5 Кэшу нужно смещение позиции

При генерации текста модель добавляет по одному токену. Самый простой способ — для каждого нового токена заново прогонять через прямой проход всю последовательность и брать только последнюю строку выхода. Но тогда вся работа по предыдущим позициям каждый раз повторяется.

Вывод предыдущего раздела позволяет этого избежать: в причинной модели с фиксированными параметрами токены, добавленные позже, не меняют представлений более ранних позиций. Значит, **ключи и значения** старых позиций можно вычислить один раз и сохранить. Такое хранилище и называется **KV-кэшем**. Новому токену нужно вычислить только свои запрос, ключ и значение, а затем прочитать всю сохранённую историю.

В этом разделе: что кэш хранит для каждой головы; почему новый токен должен стоять на позиции `len(cache)`; как сравнение пошагового вывода с полным прямым проходом ловит ошибки; где кэш перестаёт быть применим; и сколько времени он экономит.
""",
)

md(
    zh=r"""
## 按头保存键和值

我们继续使用上一节的手设模型（$D=4$，$H=2$，$d=2$，位置表 8 行）。`model.new_cache()` 创建一个空缓存，它的容量就是位置表的行数。`model.step(token, cache)` 处理一个新词元：

1. 新词元的位置是 $t = $ `len(cache)`，输入向量为 $E[x] + P[t]$；
2. 计算它的查询、键、值，拆分到各个头；
3. 把每个头的键和值追加进缓存；
4. 用新查询读取缓存中**全部**已存位置（包括它自己）。

![KV 缓存逐步增长：第 0、1、2 步依次送入 <bos>、春、雨；每一步新词元放在位置 len(cache)，它的键和值追加到缓存末尾，新查询读取缓存中的全部位置，包括它自己。](figures/cache.svg)

缓存中的位置都不晚于新词元，所以这一步不需要再挡住什么；`causal_attention` 在查询只有一个时，本来就允许它读取所有键。旧位置的查询不必保存：输出只需要新词元自己的查询。

下面依次送入 `<bos> 春 雨`，观察缓存的长度和形状 $(H, n, d)$。
""",
    en=r"""
## Keys and values, stored per head

We keep the hand-set model of the previous section ($D=4$, $H=2$, $d=2$, a position table of 8 rows). `model.new_cache()` creates an empty cache whose capacity is the number of rows of the position table. `model.step(token, cache)` handles one new token:

1. the new token takes position $t = $ `len(cache)`, and its input vector is $E[x] + P[t]$;
2. its query, key and value are computed and split into heads;
3. every head's key and value are appended to the cache;
4. the new query reads **every** stored position, its own included.

![The KV cache growing step by step: steps 0, 1 and 2 feed <bos>, 春 and 雨; at each step the new token goes to position len(cache), its key and value are appended to the cache, and the new query reads every stored position, its own included.](figures/cache.svg)

All stored positions come no later than the new token, so nothing needs to be masked in this step: with a single query, `causal_attention` allows every key anyway. Queries of old positions are not stored: the output needs only the new token's own query.

Below we feed `<bos> 春 雨` and watch the cache's length and its shape $(H, n, d)$.
""",
    ru=r"""
## Ключи и значения хранятся по головам

Продолжаем работать с моделью из предыдущего раздела ($D=4$, $H=2$, $d=2$, таблица позиций из 8 строк). `model.new_cache()` создаёт пустой кэш, ёмкость которого равна числу строк таблицы позиций. `model.step(token, cache)` обрабатывает один новый токен:

1. новый токен получает позицию $t = $ `len(cache)`, его входной вектор равен $E[x] + P[t]$;
2. вычисляются его запрос, ключ и значение и разбиваются по головам;
3. ключ и значение каждой головы дописываются в кэш;
4. новый запрос читает **все** сохранённые позиции, включая собственную.

![KV-кэш растёт шаг за шагом: на шагах 0, 1 и 2 подаются <bos>, 春 и 雨; на каждом шаге новый токен встаёт в позицию len(cache), его ключ и значение дописываются в кэш, а новый запрос читает все сохранённые позиции, включая свою.](figures/cache.svg)

Все сохранённые позиции не позже нового токена, поэтому на этом шаге ничего маскировать не нужно: при единственном запросе `causal_attention` и так разрешает читать все ключи. Запросы старых позиций не хранятся: для выхода нужен только запрос нового токена.

Подадим по очереди `<bos> 春 雨` и посмотрим на длину кэша и его форму $(H, n, d)$.
""",
)

code(r"""
import copy
import time

import numpy as np
import matplotlib.pyplot as plt

from lib import checks, plots
from lib.data import BOS, EOS, IGNORE, build_vocab, collate, decode

vocab = build_vocab(["春雨风"])
model = checks.chapter_model()
ids = np.array([BOS, 3, 4])          # <bos> 春 雨

cache = model.new_cache()
print(cache)
for token in ids:
    position = len(cache)
    model.step(int(token), cache)
    print(decode([token], vocab), position, cache.keys.shape, cache.values.shape)
assert len(cache) == 3 and cache.keys.shape == (2, 3, 2) and cache.capacity == 8
""")

md(
    zh=r"""
第三个词元 `雨` 进入时缓存里已有 2 个位置，所以它的输入是 $E[\text{雨}] + P[2]$。本模型的 $W_K$ 是单位矩阵，刚存进去的键就是这个向量按头切开的两段。
""",
    en=r"""
When the third token `雨` arrived, the cache already held 2 positions, so its input was $E[\text{雨}] + P[2]$. In this model $W_K$ is the identity, so the key just stored is that vector cut into its two head pieces.
""",
    ru=r"""
Когда пришёл третий токен `雨`, в кэше уже было 2 позиции, поэтому его вход равен $E[\text{雨}] + P[2]$. В нашей модели $W_K$ — единичная матрица, так что только что сохранённый ключ — это тот же вектор, разрезанный на две части по головам.
""",
)

code(r"""
x_new = model.token_table[4] + model.position_table[2]     # E[雨] + P[len(cache) before the step]
print(np.round(x_new, 12))
print(np.round(cache.keys[:, 2], 12))                      # (H, d): the key stored for position 2
assert np.array_equal(cache.keys[:, 2], (x_new @ model.w_k).reshape(model.n_heads, -1))
""")

md(
    zh=r"""
## 等价检验：逐词元输出必须等于整段前向

缓存只是计算上的复用，它不能改变模型算出的结果。检验办法是：同一序列先整段前向一次，再从空缓存出发逐个词元送入，逐位置比较两组输出。对 `<bos> 春 雨`，最大差异恰好是 `0.0`。
""",
    en=r"""
## The equivalence test: token by token must equal the full forward

The cache reuses computation; it must not change what the model computes. The check: run the full forward on a sequence once, then feed the same sequence token by token from an empty cache, and compare the two sets of outputs position by position. For `<bos> 春 雨` the largest difference is exactly `0.0`.
""",
    ru=r"""
## Проверка эквивалентности: пошаговый вывод должен совпасть с полным проходом

Кэш лишь повторно использует вычисления и не должен менять результат модели. Проверка: сначала один раз делаем полный прямой проход по последовательности, затем подаём её же по одному токену, начиная с пустого кэша, и сравниваем выходы позиция за позицией. Для `<bos> 春 雨` наибольшее расхождение в точности равно `0.0`.
""",
)

code(r"""
full = model.forward(ids)                                  # (T, D)
incremental = checks.incremental_forward(model, ids)       # (T, D), one step per token
error = float(np.abs(incremental - full).max())
print(error)
assert error == 0.0
""")

md(
    zh=r"""
一个例子不够。下面随机生成几个不同宽度和头数的模型，每个模型的位置表有 $C$ 行，并取一条长度恰好为 $C$ 的随机序列，把位置表用满。逐词元与整段前向的矩阵乘法形状不同，结果在最后几位可能有舍入差异，所以这里使用 $10^{-12}$ 的容差。每行输出依次是 $C, D, H$ 以及误差是否在容差之内。
""",
    en=r"""
One example is not enough. Below we draw a few random models with different widths and head counts, each with a position table of $C$ rows, and a random sequence of exactly $C$ tokens, so that the whole table is used. The step-by-step and the full forward multiply matrices of different shapes, so the results may differ by rounding in the last digits; we use a tolerance of $10^{-12}$. Each printed row is $C, D, H$ and whether the error is within tolerance.
""",
    ru=r"""
Одного примера мало. Ниже мы берём несколько случайных моделей с разной шириной и числом голов; у каждой таблица позиций из $C$ строк, и к ней — случайная последовательность ровно из $C$ токенов, чтобы таблица использовалась целиком. Пошаговый и полный проходы перемножают матрицы разной формы, поэтому результаты могут расходиться в последних знаках из-за округления; берём допуск $10^{-12}$. Каждая напечатанная строка: $C, D, H$ и то, укладывается ли ошибка в допуск.
""",
)

code(r"""
rng = np.random.default_rng(5)
for trial in range(4):
    n_heads = int(rng.integers(1, 5))
    width = n_heads * int(rng.integers(1, 9))
    C = int(rng.integers(32, 129))
    random_model = checks.random_model(rng, vocab_size=50, context_size=C, width=width, n_heads=n_heads)
    stream = rng.integers(0, 50, size=C)                   # uses every row of the position table
    err = checks.cache_error(random_model, stream)
    print(C, width, n_heads, err < 1e-12)
    assert err < 1e-12
""")

md(
    zh=r"""
## 位置归零的错误

一个很自然的错误写法是：既然每次只送入一个词元，就把它当成一段长度为 1 的序列，于是它的位置总是 0。数组形状处处都对得上，程序不会报错，但新词元拿到了错误的位置向量。

我们让前两个词元正常进入缓存，第三个词元 `雨` 却用位置 0（`position=0` 这个参数只为演示这个错误而存在）。与整段前向的第三行相比，最大误差约为 0.0875340324768。原章节的程序给出 0.08753403247684122，两者在最后一两位上可能略有不同，这只是浮点运算次序不同造成的。
""",
    en=r"""
## The reset-to-zero bug

A natural mistake: since each step feeds a single token, treat it as a sequence of length 1, so that its position is always 0. Every array shape still matches and nothing raises an error, but the new token receives the wrong position vector.

We let the first two tokens enter the cache correctly and give the third token `雨` position 0 (the `position=0` argument exists only to show this bug). Compared with the third row of the full forward, the largest error is about 0.0875340324768. The chapter's original program printed 0.08753403247684122; the last digit or two may differ, which only reflects a different order of floating-point operations.
""",
    ru=r"""
## Ошибка со сбросом позиции в ноль

Естественная ошибка: раз на каждом шаге подаётся один токен, считать его последовательностью длины 1, так что его позиция всегда 0. Все формы массивов по-прежнему согласованы, ничего не падает, но новый токен получает чужой вектор позиции.

Пусть первые два токена попадут в кэш правильно, а третий, `雨`, получит позицию 0 (аргумент `position=0` существует только для демонстрации этой ошибки). По сравнению с третьей строкой полного прохода наибольшая ошибка — около 0.0875340324768. Программа из исходной главы печатала 0.08753403247684122; последние один-два знака могут отличаться — это лишь следствие другого порядка операций с плавающей точкой.
""",
)

code(r"""
bad_cache = model.new_cache()
model.step(BOS, bad_cache)
model.step(3, bad_cache)
wrong = model.step(4, bad_cache, position=0)               # the bug: the third token at position 0
reset_error = float(np.abs(wrong - full[2]).max())
print(f"{reset_error:.12g}")
assert abs(reset_error - 0.08753403247684122) < 1e-12
""")

md(
    zh=r"""
如果每一步都把位置归零，误差会出现在除第 0 个之外的每个位置上（第 0 个位置本来就是 0，所以碰巧正确）。下面用 8 个词元、把位置表用满来看每个位置的误差。这种错误只能通过与整段前向逐项比较发现，光检查形状是发现不了的。
""",
    en=r"""
If every step resets the position to 0, the error appears at every position except position 0, which happens to be right because its position is 0 anyway. Below, 8 tokens fill the position table and we look at the error at every position. Only an item-by-item comparison with the full forward reveals this bug; checking shapes never will.
""",
    ru=r"""
Если сбрасывать позицию в ноль на каждом шаге, ошибка появится на всех позициях, кроме нулевой: та случайно верна, потому что её позиция и так 0. Ниже 8 токенов заполняют всю таблицу позиций, и мы смотрим на ошибку в каждой позиции. Такую ошибку выявляет только поэлементное сравнение с полным проходом; проверка форм её не увидит никогда.
""",
)

code(r"""
seq8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])                # <bos> 春 雨 风 春 雨 风 雨
always_zero = checks.incremental_forward(model, seq8, positions=[0] * 8)
per_position_error = np.abs(always_zero - model.forward(seq8)).max(axis=1)   # (T,)
print(np.round(per_position_error, 6))
assert per_position_error[0] == 0.0 and np.all(per_position_error[1:] > 1e-3)
""")

md(
    zh=r"""
## 超出位置表：报错，且缓存保持原样

可学习的绝对位置表只有 $C$ 行，位置 $C$ 根本没有定义。缓存装满 8 个位置后再走一步，`step` 会抛出 `ValueError`，而不是悄悄取模或截断到最后一行。同样重要的是：失败的一步**不会**改动缓存，长度仍是 8，已存的键和值一个字节也没变。这样调用者捕获异常之后，缓存依然可用。
""",
    en=r"""
## Past the position table: an error, and the cache left as it was

A learned absolute position table has only $C$ rows; position $C$ is simply undefined. Once the cache holds 8 positions, one more step makes `step` raise `ValueError` instead of quietly wrapping around or clamping to the last row. Just as important, the failed step does **not** touch the cache: its length is still 8 and the stored keys and values have not changed by a single bit. A caller that catches the error still has a usable cache.
""",
    ru=r"""
## За пределами таблицы позиций: ошибка, а кэш остаётся прежним

В обучаемой таблице абсолютных позиций всего $C$ строк; позиция $C$ просто не определена. Когда в кэше уже 8 позиций, следующий вызов `step` выбрасывает `ValueError`, а не заворачивает позицию по модулю и не прижимает её к последней строке. Не менее важно, что неудачный шаг **не** трогает кэш: длина остаётся 8, а сохранённые ключи и значения не меняются ни на бит. Перехватив исключение, вызывающий код по-прежнему может пользоваться кэшем.
""",
)

code(r"""
cache8 = model.new_cache()
checks.incremental_forward(model, seq8, cache=cache8)
keys_before, values_before = cache8.keys.copy(), cache8.values.copy()
print(len(cache8), cache8.capacity)
raised = False
try:
    model.step(3, cache8)
except ValueError as err:
    raised = True
    print(type(err).__name__)
print(len(cache8), np.array_equal(cache8.keys, keys_before), np.array_equal(cache8.values, values_before))
assert raised and len(cache8) == 8
assert np.array_equal(cache8.keys, keys_before) and np.array_equal(cache8.values, values_before)
""")

md(
    zh=r"""
## 多层模型要存什么

本章的模型只有一层。在 $L$ 层的模型里，第 $\ell$ 层旧位置的键和值由第 $\ell-1$ 层旧位置的输出算出；由因果性，这些输出不会因新词元而改变，所以每一层的键和值都可以缓存，也**必须**各自缓存：只存第一层是不够的。对每条序列，缓存占用

$$
\text{bytes} = 2 \cdot L \cdot H \cdot T \cdot d \cdot \text{itemsize} = 2 \cdot L \cdot T \cdot D \cdot \text{itemsize},
$$

其中 2 代表键和值两份，$T$ 是已存位置数，itemsize 是每个数的字节数（float32 为 4，float64 为 8）。批量为 $B$ 时再乘以 $B$。

先用本章的模型核对公式：一层、2 个头、每头宽 2、8 个位置、float64，公式给出 512 字节，与缓存数组的实际大小一致。再看一个更接近实际的配置：12 层、$D=768$、1024 个位置、float32，每条序列约 72 MiB。注意头数不影响结果：在 $D$ 固定时 $H \cdot d = D$，头数只决定怎样切分，总量不变。
""",
    en=r"""
## What a multi-layer model must store

This chapter's model has one layer. In a model with $L$ layers, the keys and values of old positions in layer $\ell$ are computed from the outputs of layer $\ell-1$ at those positions; by causality those outputs do not change when a new token arrives, so every layer's keys and values can be cached, and each layer **must** have its own: storing the first layer alone is not enough. Per sequence, the cache takes

$$
\text{bytes} = 2 \cdot L \cdot H \cdot T \cdot d \cdot \text{itemsize} = 2 \cdot L \cdot T \cdot D \cdot \text{itemsize},
$$

where the 2 counts keys and values, $T$ is the number of stored positions and itemsize is the number of bytes per number (4 for float32, 8 for float64). For a batch of $B$ sequences, multiply by $B$.

First we check the formula against our model: one layer, 2 heads of width 2, 8 positions, float64 gives 512 bytes, the actual size of the cache arrays. Then a more realistic configuration: 12 layers, $D=768$, 1024 positions, float32 gives about 72 MiB per sequence. The head count does not matter: at fixed $D$, $H \cdot d = D$, so the heads only decide how the same total is cut.
""",
    ru=r"""
## Что должна хранить многослойная модель

В модели этой главы один слой. В модели из $L$ слоёв ключи и значения старых позиций в слое $\ell$ вычисляются из выходов слоя $\ell-1$ на тех же позициях; по причинности эти выходы не меняются с приходом нового токена, поэтому ключи и значения каждого слоя можно кэшировать — и **нужно** кэшировать для каждого слоя отдельно: одного первого слоя недостаточно. На одну последовательность кэш занимает

$$
\text{bytes} = 2 \cdot L \cdot H \cdot T \cdot d \cdot \text{itemsize} = 2 \cdot L \cdot T \cdot D \cdot \text{itemsize},
$$

где 2 — это ключи и значения, $T$ — число сохранённых позиций, itemsize — число байт на одно число (4 для float32, 8 для float64). Для пакета из $B$ последовательностей результат умножается на $B$.

Сначала сверим формулу с нашей моделью: один слой, 2 головы ширины 2, 8 позиций, float64 — получается 512 байт, ровно размер массивов кэша. Затем конфигурация ближе к реальной: 12 слоёв, $D=768$, 1024 позиции, float32 — около 72 МиБ на последовательность. Число голов роли не играет: при фиксированном $D$ выполняется $H \cdot d = D$, и головы лишь определяют, как поделить тот же объём.
""",
)

code(r"""
ours = checks.kv_cache_bytes(n_layers=1, n_heads=2, head_width=2, length=8, itemsize=8)
print(ours, cache8.keys.nbytes + cache8.values.nbytes)
assert ours == cache8.keys.nbytes + cache8.values.nbytes == 512

for n_heads in (1, 4, 12):
    size = checks.kv_cache_bytes(n_layers=12, n_heads=n_heads, head_width=768 // n_heads, length=1024, itemsize=4)
    print(n_heads, size, size / 2**20)
    assert size == 75497472 and size / 2**20 == 72.0
""")

md(
    zh=r"""
## 缓存只处理一条无填充的输入流

缓存的长度就是下一个词元的位置，这是它唯一的“偏移量”。这意味着：

* **不支持左填充。** 缓存没有按样本跳过填充位置的接口。若在真实内容前面垫上填充词元，这些填充位于过去，会被读取，真实词元的位置也全部后移。
* **右填充的训练样本不是可续写的前缀。** 训练时短文本被右填充，例如 `collate` 把 `雨` 变成输入 `<bos> 雨 <eos>`、目标 `雨 <eos> −100`。目标为 −100 的最后一个输入只是填充。若把整行送进缓存再续写，新词元会落在位置 3，并读到一个并不属于文本的位置。真正该续写的前缀只有目标不为 −100 的那几个位置，这里是 `<bos> 雨`，长度为 2。

下面分别测量这两种误用与正确做法的差异，两者都不为零。
""",
    en=r"""
## The cache handles one unpadded stream

The cache's length is the position of the next token; that is its only offset. This means:

* **No left padding.** The cache has no way to skip padding positions per example. Padding tokens placed before the real content lie in the past, so they are read, and every real token's position is shifted.
* **A right-padded training row is not a prefix to continue.** In training, short texts are padded on the right: `collate` turns `雨` into the input `<bos> 雨 <eos>` with targets `雨 <eos> −100`. The last input, whose target is −100, is only padding. If the whole row goes into the cache and generation continues, the new token lands at position 3 and reads a position that is not part of the text. The prefix to continue consists only of the positions whose target is not −100; here that is `<bos> 雨`, of length 2.

Below we measure how far each misuse is from the correct computation; neither difference is zero.
""",
    ru=r"""
## Кэш обслуживает один поток без дополнения

Длина кэша — это позиция следующего токена; другого смещения у него нет. Отсюда:

* **Дополнение слева не поддерживается.** У кэша нет способа пропускать позиции дополнения для отдельного примера. Токены дополнения перед настоящим текстом оказываются в прошлом, поэтому читаются, а позиции всех настоящих токенов сдвигаются.
* **Строка обучающего пакета с дополнением справа — не префикс для продолжения.** При обучении короткие тексты дополняются справа: `collate` превращает `雨` во вход `<bos> 雨 <eos>` с целями `雨 <eos> −100`. Последний вход, чья цель равна −100, — просто дополнение. Если отправить в кэш всю строку и продолжить генерацию, новый токен окажется на позиции 3 и прочитает позицию, которая к тексту не относится. Продолжать нужно префикс из позиций, чья цель не равна −100; здесь это `<bos> 雨` длины 2.

Ниже измерим, насколько каждое из этих неправильных применений отличается от правильного вычисления; оба расхождения ненулевые.
""",
)

code(r"""
inputs, targets = collate(["雨", "春雨"], vocab)
print(inputs)
print(targets)
valid = int((targets[0] != IGNORE).sum())                  # 2: <bos> 雨 is the real prefix
print(decode(inputs[0], vocab), valid)
assert valid == 2

true_cache = model.new_cache()
checks.incremental_forward(model, inputs[0, :valid], cache=true_cache)
padded_cache = model.new_cache()
checks.incremental_forward(model, inputs[0], cache=padded_cache)       # misuse: padding kept
print(len(true_cache), len(padded_cache))                 # the next token's position: 2, or 3 after padding
next_true, next_padded = model.step(3, true_cache), model.step(3, padded_cache)
print(round(float(np.abs(next_padded - next_true).max()), 6))
assert np.abs(next_padded - next_true).max() > 1e-3

left_padded = np.array([EOS, BOS, 4])                      # misuse: padding placed before the text
shifted = checks.incremental_forward(model, left_padded)[-1]
print(round(float(np.abs(shifted - model.forward(inputs[0, :valid])[-1]).max()), 6))
assert np.abs(shifted - model.forward(inputs[0, :valid])[-1]).max() > 1e-3
""")

md(
    zh=r"""
## 缓存省下了多少时间

最后实际测一测。用一个随机参数的较大模型（$D=64$，$H=4$，位置表 512 行），对不同的前缀长度 $T$ 比较两种得到“下一个词元输出”的方式：

* 不用缓存：把 $T+1$ 个词元整段前向，取最后一行；
* 用缓存：缓存里已有 $T$ 个位置，只调用一次 `step`。

每个点重复测量若干次取中位数。前者每次都要重算全部投影和一张 $(T+1)\times(T+1)$ 的注意力表，后者只算一个新位置并读取 $T+1$ 个键，因此随着 $T$ 增长，两条曲线的差距越拉越大。计时结果依赖机器，所以这一格的输出不参与比对；但它断言在最长的前缀上缓存更快，并顺带核对缓存给出的输出与整段前向一致。
""",
    en=r"""
## How much time the cache saves

Finally, a measurement. Take a larger model with random parameters ($D=64$, $H=4$, a position table of 512 rows) and, for several prefix lengths $T$, compare two ways of getting the output for the next token:

* without the cache: run the full forward on $T+1$ tokens and keep the last row;
* with the cache: the cache already holds $T$ positions; call `step` once.

Each point is the median of a few repeated measurements. The first way recomputes every projection and a $(T+1)\times(T+1)$ attention table each time; the second computes one new position and reads $T+1$ keys. The gap between the two curves therefore widens as $T$ grows. Timings depend on the machine, so this cell's output is not compared; the cell still asserts that the cache is faster at the longest prefix, and checks that the cache's output agrees with the full forward.
""",
    ru=r"""
## Сколько времени экономит кэш

Напоследок измерим. Возьмём модель побольше со случайными параметрами ($D=64$, $H=4$, таблица позиций из 512 строк) и для нескольких длин префикса $T$ сравним два способа получить выход для следующего токена:

* без кэша: полный прямой проход по $T+1$ токенам и последняя строка результата;
* с кэшем: в кэше уже $T$ позиций, один вызов `step`.

Каждая точка — медиана нескольких повторных замеров. Первый способ каждый раз заново вычисляет все проекции и таблицу внимания $(T+1)\times(T+1)$; второй вычисляет одну новую позицию и читает $T+1$ ключей. Поэтому с ростом $T$ разрыв между кривыми увеличивается. Время зависит от машины, поэтому вывод этой ячейки не сравнивается; но ячейка всё равно проверяет, что на самом длинном префиксе кэш быстрее, и что выход с кэшем совпадает с полным проходом.
""",
)

code(r"""
rng = np.random.default_rng(0)
big = checks.random_model(rng, vocab_size=100, context_size=512, width=64, n_heads=4)
stream = rng.integers(0, 100, size=512)
lengths = [8, 16, 32, 64, 128, 256, 511]

snapshots, growing = {}, big.new_cache()                   # the cache as it stands after T tokens
for token in stream[:max(lengths)]:
    big.step(int(token), growing)
    if len(growing) in lengths:
        snapshots[len(growing)] = copy.deepcopy(growing)

def median_seconds(run, prepare, repeats=7):
    times = []
    for _ in range(repeats):
        state = prepare()                                  # untimed: a fresh copy of the cache
        start = time.perf_counter()
        run(state)
        times.append(time.perf_counter() - start)
    return float(np.median(times))

full_seconds = [median_seconds(lambda _: big.forward(stream[:T + 1]), lambda: None) for T in lengths]
step_seconds = [median_seconds(lambda c: big.step(int(stream[T]), c), lambda: copy.deepcopy(snapshots[T]))
                for T in lengths]
for T, f, s in zip(lengths, full_seconds, step_seconds):
    print(T, f"{f:.2e}", f"{s:.2e}", round(f / s, 1))

last = max(lengths)
check = copy.deepcopy(snapshots[last])
assert np.abs(big.step(int(stream[last]), check) - big.forward(stream[:last + 1])[-1]).max() < 1e-12
assert step_seconds[-1] < full_seconds[-1]
plots.timing_lines(lengths, [full_seconds, step_seconds], ["forward(ids[:T+1])[-1]", "step(ids[T], cache)"])
plt.show()
""", tags=("nbval-ignore-output",))

md(
    zh=r"""
## 小结

* KV 缓存按头保存每个已见位置的键和值，形状为 $(H, n, d)$；多层模型每层各存一份，占用 $2 \cdot L \cdot T \cdot D \cdot \text{itemsize}$ 字节，与头数无关。
* 新词元位于位置 `len(cache)`，输入为 $E[x] + P[\texttt{len(cache)}]$。把位置归零不会报错，只能靠与整段前向逐项比较才能发现。
* 逐词元输出与整段前向的一致性是检错的标准做法：手设模型上差异为 `0.0`，随机模型和用满位置表的长序列上都在 $10^{-12}$ 以内。
* 超出位置表的一步会报错，并且不改动缓存。
* 缓存只处理一条无填充的输入流：不支持左填充，训练中右填充的行也要先截到有效长度才能续写。
* 缓存的正确性依赖上一节的因果性：只要模型某处读取了未来，旧位置的键和值就不再固定，缓存也就不再成立。
""",
    en=r"""
## Summary

* The KV cache stores, per head, the key and value of every position seen so far, with shape $(H, n, d)$; a multi-layer model stores one such pair per layer, $2 \cdot L \cdot T \cdot D \cdot \text{itemsize}$ bytes whatever the head count.
* The new token sits at position `len(cache)` with input $E[x] + P[\texttt{len(cache)}]$. Resetting the position to 0 raises no error; only an item-by-item comparison with the full forward finds it.
* Agreement of the token-by-token output with the full forward is the standard check: `0.0` on the hand-set model, within $10^{-12}$ on random models and on long sequences that fill the position table.
* A step past the position table raises an error and leaves the cache unchanged.
* The cache handles one unpadded stream: no left padding, and a right-padded training row must be cut to its valid length before it can be continued.
* The cache is correct only because of the previous section's causality: if any part of the model read the future, old keys and values would no longer be fixed, and the cache would be wrong.
""",
    ru=r"""
## Итоги

* KV-кэш хранит для каждой головы ключ и значение каждой уже увиденной позиции, форма $(H, n, d)$; многослойная модель хранит такую пару для каждого слоя — $2 \cdot L \cdot T \cdot D \cdot \text{itemsize}$ байт независимо от числа голов.
* Новый токен стоит на позиции `len(cache)`, его вход — $E[x] + P[\texttt{len(cache)}]$. Сброс позиции в ноль не вызывает ошибки; найти его можно только поэлементным сравнением с полным проходом.
* Совпадение пошагового вывода с полным проходом — стандартная проверка: `0.0` на модели с ручными параметрами и в пределах $10^{-12}$ на случайных моделях и длинных последовательностях, заполняющих таблицу позиций.
* Шаг за пределы таблицы позиций вызывает ошибку и не меняет кэш.
* Кэш обслуживает один поток без дополнения: дополнение слева не поддерживается, а строку обучающего пакета с дополнением справа перед продолжением нужно обрезать до её настоящей длины.
* Кэш корректен только благодаря причинности из предыдущего раздела: если бы какая-то часть модели читала будущее, старые ключи и значения перестали бы быть неизменными, и кэш давал бы неверный результат.
""",
)
