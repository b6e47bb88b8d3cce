# §5 The KV cache needs a position offset: per-head K/V reuse, equivalence with the
# full forward pass, the reset-to-zero bug, the end of the position table, a cache per
# layer (two-layer demonstration), memory, the single unpadded stream, timing, and the
# work the causal mask saves (future key blocks never computed).

md(
    zh=r"""
# 5 缓存需要位置偏移量

生成文本时，模型每次只新增一个词元。最朴素的做法是：每来一个新词元，就把整段序列重新做一遍前向传播，只取最后一行输出。可是前面各位置的计算每次都在重复。

§4 的结论让我们可以省掉这些重复：在参数固定的因果模型里，后面追加的词元不会改变前面位置的表示。于是旧位置的**键和值**算过一次就可以保存下来，这就是 **KV 缓存**。新词元只需算出自己的查询、键和值，再读取缓存中的全部历史。

本节依次讨论：

* §5.1 缓存按头保存什么，以及一次送入几个新词元时掩码为什么要右下对齐；
* §5.2～§5.4 新词元为什么必须放在位置 `len(cache)` 上，怎样用逐词元输出与完整前向传播的逐项比较来检错，位置表用完时又会怎样；
* §5.5 多层模型为什么每层都要有自己的缓存；
* §5.6～§5.7 缓存占多少内存，它在哪里不再适用；
* §5.8～§5.9 它省下多少时间，以及因果掩码本身省下的那一半计算。
""",
    en=r"""
# 5 The cache needs a position offset

When a model generates text, it adds one token at a time. The naive way is to run the whole sequence through the forward pass again for every new token and keep only the last output row. All the work for the earlier positions is repeated each time.

§4 lets us skip that repetition: in a causal model with fixed parameters, tokens appended later do not change the representations of earlier positions. So the **keys and values** of old positions can be computed once and stored. That store is the **KV cache**. A new token needs only its own query, key and value, and then reads the whole stored history.

This section covers, in order:

* §5.1 what the cache stores per head, and why several new tokens in one step need a mask aligned bottom-right;
* §5.2–§5.4 why the new token must sit at position `len(cache)`, how comparing the token-by-token outputs with the full forward pass catches mistakes, and what happens at the end of the position table;
* §5.5 why every layer of a multi-layer model needs a cache of its own;
* §5.6–§5.7 how much memory the cache takes and where it stops being valid;
* §5.8–§5.9 how much time it saves, and the half of the work that the causal mask itself saves.
""",
    ru=r"""
# 5 Кэшу нужно смещение позиции

При генерации текста модель добавляет токены по одному. Самый простой способ — для каждого нового токена заново прогонять через прямой проход всю последовательность и брать только последнюю строку выхода. Но тогда вся работа по предыдущим позициям каждый раз повторяется.

Результат §4 позволяет этого избежать: в причинной модели с фиксированными параметрами токены, добавленные позже, не меняют представлений более ранних позиций. Значит, **ключи и значения** старых позиций можно вычислить один раз и сохранить. Такое хранилище и называется **KV-кэшем**. Новому токену нужно вычислить только свои запрос, ключ и значение, а затем прочитать всю сохранённую историю.

В этом разделе по порядку:

* §5.1 — что кэш хранит для каждой головы и почему, когда за один шаг приходит несколько новых токенов, маску выравнивают по правому нижнему углу;
* §5.2–§5.4 — почему новый токен должен стоять в позиции `len(cache)`, как сравнение пошаговых выходов с полным прямым проходом ловит ошибки и что происходит, когда таблица позиций кончается;
* §5.5 — почему в многослойной модели каждому слою нужен свой кэш;
* §5.6–§5.7 — сколько памяти занимает кэш и где он перестаёт быть применимым;
* §5.8–§5.9 — сколько времени он экономит и какую половину работы экономит сама причинная маска.
""",
)

md(
    zh=r"""
## 5.1 按头保存键和值

我们继续使用 §4.1 那个手工设定参数的模型（$D=4$，$H=2$，$d=2$，位置表 8 行）。`model.new_cache()` 创建一个空缓存，它的容量就是位置表的行数。`model.step(token, cache)` 处理一个新词元：

1. 新词元的位置是 $t = $ `len(cache)`，输入向量为 $E[x] + P[t]$；
2. 计算它的查询、键、值，拆分到各个头；
3. 把每个头的键和值追加进缓存；
4. 用新查询读取缓存中**全部**已存位置（包括它自己）。

![KV 缓存逐步增长：第 0、1、2 步依次送入 BOS、春、雨；每一步新词元放在位置 len(cache)，它的键和值追加到缓存末尾，新查询读取缓存中的全部位置，包括它自己。](figures/cache.svg)

缓存中的位置都不晚于新词元，所以这一步不需要施加因果掩码：查询只有一个时，`causal_attention` 把它对齐到最后一个位置（右下对齐，本小节末尾会讲一步送入几个词元的一般情形），本来就允许它读取所有键（下面打印的 `causal_future(1, 3)` 全为 `False`）。旧位置的查询不必保存：输出只需要新词元自己的查询。

下面依次送入 `<bos> 春 雨`，观察缓存的长度和形状 $(H, n, d)$。
""",
    en=r"""
## 5.1 Keys and values, stored per head

We keep the model with hand-chosen parameters from §4.1 ($D=4$, $H=2$, $d=2$, a position table of 8 rows). `model.new_cache()` creates an empty cache whose capacity is the number of rows of the position table. `model.step(token, cache)` handles one new token:

1. the new token takes position $t = $ `len(cache)`, and its input vector is $E[x] + P[t]$;
2. its query, key and value are computed and split into heads;
3. every head's key and value are appended to the cache;
4. the new query reads **every** stored position, its own included.

![The KV cache growing step by step: steps 0, 1 and 2 feed BOS, 春 and 雨; at each step the new token goes to position len(cache), its key and value are appended to the cache, and the new query reads every stored position, its own included.](figures/cache.svg)

All stored positions come no later than the new token, so no causal mask needs to be applied in this step: `causal_attention` aligns a single query with the last position (the bottom-right alignment; the end of this subsection treats several tokens in one step) and so lets it read every key anyway (`causal_future(1, 3)`, printed below, is all `False`). Queries of old positions are not stored: the output needs only the new token's own query.

Below we feed `<bos> 春 雨` and watch the cache's length and its shape $(H, n, d)$.
""",
    ru=r"""
## 5.1 Ключи и значения хранятся по головам

Продолжаем работать с моделью из §4.1, параметры которой заданы вручную ($D=4$, $H=2$, $d=2$, таблица позиций из 8 строк). `model.new_cache()` создаёт пустой кэш, ёмкость которого равна числу строк таблицы позиций. `model.step(token, cache)` обрабатывает один новый токен:

1. новый токен получает позицию $t = $ `len(cache)`, его входной вектор равен $E[x] + P[t]$;
2. вычисляются его запрос, ключ и значение и разбиваются по головам;
3. ключ и значение каждой головы дописываются в кэш;
4. новый запрос читает **все** сохранённые позиции, включая собственную.

![KV-кэш растёт шаг за шагом: на шагах 0, 1 и 2 подаются BOS, 春 и 雨; на каждом шаге новый токен встаёт в позицию len(cache), его ключ и значение дописываются в кэш, а новый запрос читает все сохранённые позиции, включая свою.](figures/cache.svg)

Ни одна сохранённая позиция не стоит позже нового токена, поэтому на этом шаге причинную маску применять не нужно. `causal_attention` выравнивает единственный запрос по правому нижнему углу, то есть ставит его в последнюю позицию (общий случай, несколько токенов за шаг, разобран в конце этого подраздела), так что ему и без того разрешено читать все ключи (напечатанная ниже маска `causal_future(1, 3)` целиком состоит из `False`). Запросы старых позиций не хранятся: для выхода нужен только запрос нового токена.

Подадим по очереди `<bos> 春 雨` и посмотрим на длину кэша и его форму $(H, n, d)$.
""",
)

code(r"""
import copy
import time

import numpy as np
import matplotlib.pyplot as plt
from threadpoolctl import threadpool_limits

from figures import plots
from lib import checks
from lib.attention import (attention_scores, causal_attention,
                           causal_future, masked_softmax, merge_heads,
                           multi_head_attention, split_heads)
from lib.data import BOS, EOS, IGNORE, build_vocab, collate, decode

vocab = build_vocab(["春雨风"])
model = checks.chapter_model()
ids = np.array([BOS, 3, 4])
print(decode(ids, vocab))
print(causal_future(1, 3))
assert not causal_future(1, 3).any()

cache = model.new_cache()
print(cache)
for token in ids:
    position = len(cache)
    model.step(int(token), cache)
    print(decode([token], vocab), position, cache.keys.shape,
          cache.values.shape)
assert (len(cache) == 3 and cache.keys.shape == (2, 3, 2)
        and cache.capacity == 8)
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
#zh E[雨] + P[len(cache)]，len 取这一步之前的值
#en E[雨] + P[len(cache) before the step]
#ru E[雨] + P[len(cache) до этого шага]
x_new = model.token_table[4] + model.position_table[2]
print(np.round(x_new, 12))
#zh (H, d)：为位置 2 存下的键
#en (H, d): the key stored for position 2
#ru (H, d): ключ, сохранённый для позиции 2
print(np.round(cache.keys[:, 2], 12))
assert np.array_equal(cache.keys[:, 2],
                      (x_new @ model.w_k).reshape(model.n_heads, -1))
""")

md(
    zh=r"""
### 一步送入几个词元：右下对齐

缓存不一定每次只长一个位置。例如，在已存的内容之后，一段提示词（prompt）可以一步送进去，这时查询就比键少：$t_q$ 个新查询要读 $t_k$ = 已存位置数 + $t_q$ 个键。这正是 `causal_future(tq, tk)` 接收两个长度的原因。这 $t_q$ 个查询是全部 $t_k$ 个位置中的最后 $t_q$ 个，查询 $i$ 位于绝对位置 $t_k - t_q + i$，可以读取位置不晚于它的键。画成矩阵，许可的格子是方阵掩码里那个三角形的右下角，即它的最后 $t_q$ 行，所以叫**右下对齐**；§1.3 那张图的下半部分画的正是下面这个例子。

缓存里已有 `<bos> 春 风`（3 个位置），这一步送入 `春 雨`（$t_q = 2$，$t_k = 5$）。`model.step` 一次只收一个词元，所以单元格自己把这一步算出来：位置 3 和 4 上的新查询、键和值，新键值接在已存的键值之后，再对全部 5 个键做 `causal_attention`。
""",
    en=r"""
### Several tokens in one step: the bottom-right alignment

A cache need not grow one position at a time. A prompt, for instance, can enter in a single step after what is already stored, and then there are fewer queries than keys: $t_q$ new queries read $t_k$ = (stored positions) + $t_q$ keys. This is why `causal_future(tq, tk)` takes two lengths, not one. The $t_q$ queries are the last $t_q$ of the $t_k$ positions, so query $i$ stands at absolute position $t_k - t_q + i$ and may read the keys at or before it. Drawn as a matrix, the allowed cells are the bottom-right corner of the square mask's triangle, its last $t_q$ rows, hence the name **bottom-right alignment**; the lower grid of the figure in §1.3 draws the example below.

The cache holds `<bos> 春 风` (3 positions), and one step feeds `春 雨` ($t_q = 2$, $t_k = 5$). `model.step` takes one token at a time, so the cell works the step out itself: the new queries, keys and values at positions 3 and 4, the new keys and values placed after the stored ones, and `causal_attention` over all five keys.
""",
    ru=r"""
### Несколько токенов за один шаг: выравнивание по правому нижнему углу

Кэш не обязан расти по одной позиции. Например, начальный текст (промпт) можно подать за один шаг вслед за тем, что уже сохранено, и тогда запросов меньше, чем ключей: $t_q$ новых запросов читают $t_k$ = (число сохранённых позиций) + $t_q$ ключей. Именно поэтому `causal_future(tq, tk)` принимает две длины, а не одну. Эти $t_q$ запросов — последние $t_q$ из $t_k$ позиций, так что запрос $i$ стоит в абсолютной позиции $t_k - t_q + i$ и может читать ключи, стоящие не позже него. На рисунке матрицы разрешённые клетки — правый нижний угол треугольника квадратной маски, его последние $t_q$ строк; отсюда и название: **выравнивание по правому нижнему углу**. Нижняя сетка рисунка в §1.3 изображает как раз пример ниже.

В кэше уже `<bos> 春 风` (3 позиции), и за один шаг подаются `春 雨` ($t_q = 2$, $t_k = 5$). `model.step` принимает по одному токену, поэтому ячейка выполняет этот шаг сама: новые запросы, ключи и значения в позициях 3 и 4, новые ключи и значения вслед за сохранёнными и `causal_attention` по всем пяти ключам.
""",
)

code(r"""
prompt = np.array([BOS, 3, 5, 3, 4])
print(decode(prompt, vocab))
chunk_cache = model.new_cache()
for token in prompt[:3]:
    model.step(int(token), chunk_cache)
tq, tk = 2, len(chunk_cache) + 2
print(causal_future(tq, tk).astype(int))
#zh 两个新查询的绝对位置 tk − tq + i
#en absolute positions tk − tq + i of the new queries
#ru абсолютные позиции tk − tq + i новых запросов
print(np.arange(tk - tq, tk))
assert (causal_future(tq, tk) == causal_future(tk, tk)[tk - tq:]).all()

x_step = model.embed(prompt[3:], offset=len(chunk_cache))  # (tq, D)
# (H, tq, d)
q_step, k_step, v_step = (split_heads((x_step @ w)[None], model.n_heads)[0]
                          for w in (model.w_q, model.w_k, model.w_v))
keys = np.concatenate([chunk_cache.keys, k_step], axis=1)      # (H, tk, d)
values = np.concatenate([chunk_cache.values, v_step], axis=1)  # (H, tk, d)
heads_out = causal_attention(q_step, keys, values)          # (H, tq, d)
two_at_once = merge_heads(heads_out[None])[0] @ model.w_o  # (tq, D)
full5 = model.forward(prompt)  # (tk, D)
step_gap = float(np.abs(two_at_once - full5[tk - tq:]).max())
print("max|Δ| < 1e-12:", step_gap < 1e-12)
assert step_gap < 1e-12
""")

md(
    zh=r"""
第一个新查询位于位置 3，它的未来只有键 4；第二个位于位置 4，五个键都能读。这两行正是 $5 \times 5$ 掩码的最后两行，所以这一步给出的正是完整前向传播的最后两行（差小于 $10^{-12}$）。每步只送一个词元时 $t_q = 1$：唯一的查询位于最后一个位置，缓存里的键全都能读，上面逐词元的每一步都是这样。

一个常见的错误是沿用方阵的习惯，从左上角画三角形，例如 `np.tril(np.ones((tq, tk)))`。这样查询 $i$ 只能读到键 $0$～$i$，丢掉了本该读到的历史。它不会泄漏未来，但输出是错的：
""",
    en=r"""
The first new query stands at position 3, and only key 4 lies in its future; the second stands at position 4 and reads all five keys. These are the last two rows of the $5 \times 5$ mask, so the step gives the last two rows of the full forward pass (they differ by less than $10^{-12}$). With one token per step, $t_q = 1$: the single query stands at the last position and reads every stored key, as in each step above.

A common mistake carries over the habit of square masks and starts the triangle in the top-left corner, as `np.tril(np.ones((tq, tk)))` does. Query $i$ then reads only keys $0$ to $i$ and loses history it is entitled to. Nothing leaks from the future, but the outputs are wrong:
""",
    ru=r"""
Первый новый запрос стоит в позиции 3, и в его будущем только ключ 4; второй стоит в позиции 4 и читает все пять ключей. Это две последние строки маски $5 \times 5$, поэтому шаг даёт две последние строки полного прямого прохода (расхождение меньше $10^{-12}$). Когда за шаг подаётся один токен, $t_q = 1$: единственный запрос стоит в последней позиции и читает все ключи кэша — так было на каждом шаге выше.

Частая ошибка — перенести сюда привычку квадратных масок и строить треугольник от левого верхнего угла, как это делает `np.tril(np.ones((tq, tk)))`. Тогда запрос $i$ читает только ключи с $0$ по $i$ и теряет историю, которую ему читать можно. Утечки из будущего нет, но выходы неверны:
""",
)

code(r"""
#zh 错误：三角形贴在左上角
#en wrong: the triangle aligned to the top-left corner
#ru ошибка: треугольник прижат к левому верхнему углу
top_left = np.tril(np.ones((tq, tk), dtype=bool))
print(top_left.astype(int))
# (H, tq, tk)
weights_top_left = masked_softmax(attention_scores(q_step, keys), top_left)
# (tq, D)
wrong_step = merge_heads((weights_top_left @ values)[None])[0] @ model.w_o
gap_top_left = np.abs(wrong_step - full5[tk - tq:]).max(axis=1)  # (tq,)
print(np.round(gap_top_left, 6))
assert np.round(gap_top_left, 3).tolist() == [1.417, 0.371]
""")

md(
    zh=r"""
两个新行都错了，最大差分别约为 1.417 和 0.371。所以只要查询比键少，就先弄清楚掩码是按哪个角对齐的。`causal_future` 和 `causal_attention` 一律右下对齐，练习 mask-1 要求的也是这种对齐。
""",
    en=r"""
Both new rows are wrong, by up to about 1.417 and 0.371. So whenever there are fewer queries than keys, find out first which corner a mask is aligned to. `causal_future` and `causal_attention` always align bottom-right, and exercise mask-1 asks for the same.
""",
    ru=r"""
Обе новые строки неверны: наибольшие отклонения — около 1,417 и 0,371. Поэтому, если запросов меньше, чем ключей, сначала выясните, к какому углу выровнена маска. `causal_future` и `causal_attention` всегда выравнивают по правому нижнему углу; того же требует и упражнение mask-1.
""",
)

md(
    zh=r"""
## 5.2 等价检验：逐词元输出必须等于完整前向传播

缓存只是计算上的复用，它不能改变模型算出的结果。检验办法是：同一序列先做一次完整前向传播，再从空缓存出发逐个词元送入，逐位置比较两组输出。对 `<bos> 春 雨`，最大差异是 `0.0`。
""",
    en=r"""
## 5.2 The equivalence test: token by token must equal the full forward pass

The cache reuses computation; it must not change what the model computes. To check this, run the full forward pass on a sequence once, then feed the same sequence token by token from an empty cache, and compare the two sets of outputs position by position. For `<bos> 春 雨` the largest difference is `0.0`.
""",
    ru=r"""
## 5.2 Проверка эквивалентности: пошаговые выходы должны совпасть с полным проходом

Кэш лишь повторно использует вычисления и не должен менять результат модели. Проверка: сначала один раз делаем полный прямой проход по последовательности, затем подаём её же по одному токену, начиная с пустого кэша, и сравниваем выходы позиция за позицией. Для `<bos> 春 雨` наибольшее расхождение равно `0.0`.
""",
)

code(r"""
full = model.forward(ids)  # (T, D)
#zh (T, D)，每个词元一步
#en (T, D), one step per token
#ru (T, D), по шагу на токен
incremental = checks.incremental_forward(model, ids)
error = float(np.abs(incremental - full).max())
#zh 一步的乘积与整段的乘积可能由不同的 BLAS 内核计算：这里只可能差舍入误差
#en a step's products and the whole sequence's may run in different BLAS
#en kernels: only rounding can differ
#ru произведения одного шага и всей последовательности могут считать разные
#ru ядра BLAS: разниться может лишь округление
print(round(error, 12))
assert error < 1e-12
""")

md(
    zh=r"""
一个例子不够。下面随机生成几个不同宽度和头数的模型，每个模型的位置表有 $C$ 行，并取一条长度恰好为 $C$ 的随机序列，把位置表用满。逐词元计算与完整前向传播做的矩阵乘法形状不同，结果在最后几位可能有舍入差异，所以这里使用 $10^{-12}$ 的容差。每行输出依次是 $C, D, H$ 以及误差是否在容差之内。
""",
    en=r"""
One example is not enough. Below we draw a few random models with different widths and head counts, each with a position table of $C$ rows, and a random sequence of $C$ tokens, so that the whole table is used. The step-by-step computation and the full forward pass multiply matrices of different shapes, so the results may differ by rounding in the last digits; we use a tolerance of $10^{-12}$. Each printed row is $C, D, H$ and whether the error is within tolerance.
""",
    ru=r"""
Одного примера мало. Ниже мы берём несколько случайных моделей с разной шириной и числом голов; у каждой таблица позиций из $C$ строк, и к ней — случайная последовательность ровно из $C$ токенов, чтобы таблица использовалась целиком. Пошаговое вычисление и полный проход перемножают матрицы разной формы, поэтому результаты могут расходиться в последних знаках из-за округления; берём допуск $10^{-12}$. Каждая напечатанная строка: $C, D, H$ и то, укладывается ли ошибка в допуск.
""",
)

code(r"""
rng = np.random.default_rng(5)
for trial in range(4):
    n_heads = int(rng.integers(1, 5))
    width = n_heads * int(rng.integers(1, 9))
    C = int(rng.integers(32, 129))
    random_model = checks.random_model(
        rng, vocab_size=50, context_size=C, width=width, n_heads=n_heads)
    #zh 用满位置表的每一行
    #en uses every row of the position table
    #ru задействует каждую строку таблицы позиций
    stream = rng.integers(0, 50, size=C)
    err = checks.cache_error(random_model, stream)
    print(C, width, n_heads, err < 1e-12)
    assert err < 1e-12
""")

md(
    zh=r"""
## 5.3 位置归零的错误

一个很自然的错误写法是：既然每次只送入一个词元，就把它当成一段长度为 1 的序列，于是它的位置总是 0。数组形状处处都对得上，程序不会报错，但新词元拿到了错误的位置向量。

我们让前两个词元正常进入缓存，第三个词元 `雨` 却用位置 0（`position=0` 这个参数只为演示这个错误而存在）。与完整前向传播的第三行相比，最大误差约为 0.0875340324768。§6.6 会用一段纯 Python 程序独立地重算这个数。
""",
    en=r"""
## 5.3 The reset-to-zero bug

A natural mistake is to treat the single token of each step as a sequence of length 1, so that its position is always 0. Every array shape still matches and nothing raises an error, but the new token receives the wrong position vector.

We let the first two tokens enter the cache correctly and give the third token `雨` position 0 (the `position=0` argument exists only to show this bug). Compared with the third row of the full forward pass, the largest error is about 0.0875340324768. §6.6 recomputes this number independently with a short pure-Python program.
""",
    ru=r"""
## 5.3 Ошибка со сбросом позиции в ноль

Естественная ошибка: раз на каждом шаге подаётся один токен, считать его последовательностью длины 1, так что его позиция всегда 0. Все формы массивов по-прежнему согласованы, никакой ошибки не возникает, но новый токен получает чужой вектор позиции.

Пусть первые два токена попадут в кэш правильно, а третий, `雨`, получит позицию 0 (аргумент `position=0` существует только для демонстрации этой ошибки). По сравнению с третьей строкой полного прохода наибольшая ошибка — около 0,0875340324768. В §6.6 это число независимо пересчитывает короткая программа на чистом Python.
""",
)

code(r"""
bad_cache = model.new_cache()
model.step(BOS, bad_cache)
model.step(3, bad_cache)
#zh 错误所在：第三个词元被放在位置 0
#en the bug: the third token at position 0
#ru ошибка: третий токен в позиции 0
wrong = model.step(4, bad_cache, position=0)
reset_error = float(np.abs(wrong - full[2]).max())
print(f"{reset_error:.12g}")
assert abs(reset_error - 0.08753403247684122) < 1e-12
""")

md(
    zh=r"""
如果每一步都把位置归零，误差会出现在除第 0 个之外的每个位置上（第 0 个位置本来就是 0，所以碰巧正确）。下面用 8 个词元、把位置表用满来看每个位置的误差。这种错误只能通过与完整前向传播逐项比较来发现，光检查形状是发现不了的。
""",
    en=r"""
If every step resets the position to 0, the error appears at every position except position 0, which happens to be right because its position is 0 anyway. Below, 8 tokens fill the position table and we look at the error at every position. Only an entry-by-entry comparison with the full forward pass reveals this bug; checking shapes never will.
""",
    ru=r"""
Если сбрасывать позицию в ноль на каждом шаге, ошибка появится во всех позициях, кроме нулевой: в ней результат случайно верен, потому что её позиция и так равна 0. Ниже 8 токенов заполняют всю таблицу позиций, и мы смотрим на ошибку в каждой позиции. Такую ошибку выявляет только поэлементное сравнение с полным проходом; проверка форм её никогда не обнаружит.
""",
)

code(r"""
seq8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])
print(decode(seq8, vocab))
always_zero = checks.incremental_forward(model, seq8, positions=[0] * 8)
# (T,)
per_position_error = np.abs(always_zero - model.forward(seq8)).max(axis=1)
print(np.round(per_position_error, 6))
assert (per_position_error[0] < 1e-12
        and np.all(per_position_error[1:] > 1e-3))
""")

md(
    zh=r"""
## 5.4 超出位置表：报错，且缓存保持原样

可学习的绝对位置表只有 $C$ 行，位置 $C$ 根本没有定义。缓存装满 8 个位置后再走一步，`step` 会抛出 `ValueError`，而不是悄悄取模回绕或截断到最后一行。同样重要的是：失败的一步**不会**改动缓存，长度仍是 8，已存的键和值一个比特也没变。这样调用者捕获异常之后，缓存依然可用。
""",
    en=r"""
## 5.4 Past the position table: an error, and the cache left as it was

A learned absolute position table has only $C$ rows; position $C$ is simply undefined. Once the cache holds 8 positions, one more call to `step` raises a `ValueError` instead of quietly wrapping around or clamping to the last row. Just as important, the failed step does **not** touch the cache: its length is still 8 and the stored keys and values have not changed by a single bit. A caller that catches the error still has a usable cache.
""",
    ru=r"""
## 5.4 За пределами таблицы позиций: ошибка, а кэш остаётся прежним

В обучаемой таблице абсолютных позиций всего $C$ строк; позиция $C$ просто не определена. Когда в кэше уже 8 позиций, следующий вызов `step` выбрасывает `ValueError`, а не берёт позицию по модулю и не прижимает её к последней строке. Не менее важно, что неудачный шаг **не** трогает кэш: длина остаётся 8, а сохранённые ключи и значения не меняются ни на бит. Перехватив исключение, вызывающий код по-прежнему может пользоваться кэшем.
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
print(len(cache8), np.array_equal(cache8.keys, keys_before),
      np.array_equal(cache8.values, values_before))
assert raised and len(cache8) == 8
assert (np.array_equal(cache8.keys, keys_before)
        and np.array_equal(cache8.values, values_before))
""")

md(
    zh=r"""
## 5.5 多层模型：每一层都要有自己的缓存

§4～§6 的模型只有一层。在 $L$ 层的模型里，第 $\ell$ 层旧位置的键和值由第 $\ell-1$ 层在这些位置上的输出算出；由因果性，这些输出不会因新词元而改变，所以每一层的键和值都可以缓存，也**必须**各自缓存。只缓存第一层是不够的：新词元到达第二层时，它的查询要读取所有旧位置在第二层的键和值，而这些键和值来自第一层的输出，第一层的缓存里并没有它们。不缓存第二层，就只能在每一步重算所有旧位置的第一层输出，那正是缓存想要省掉的完整前向传播。

下面在一个两层模型上测量这一点。模型在单元格里由 `lib.attention` 的函数拼成（只作演示，不进入 `lib`）：输入 $h^{(0)}_t = E[x_t] + P[t]$，每层 $h^{(\ell)} = h^{(\ell-1)} + \mathrm{MHA}_\ell\big(h^{(\ell-1)}\big)$，即因果多头注意力加残差连接，参数随机。逐词元版本让指定的层各自保存键和值；没有缓存的层在新词元这一步只能读到新词元自己。与完整前向传播相比：

* 两层都缓存：最大误差只有舍入量级（小于 $10^{-12}$）；
* 只缓存第一层：除第 0 个位置外，每个位置都有明显误差（都大于 0.1）。第 0 个位置碰巧正确，因为它本来就只读自己。

§7 会在一个训练过的多层解码器上做同样的检验。
""",
    en=r"""
## 5.5 A multi-layer model: every layer needs its own cache

The model of §4–§6 has one layer. In a model with $L$ layers, the keys and values of old positions in layer $\ell$ are computed from the outputs of layer $\ell-1$ at those positions. By causality those outputs do not change when a new token arrives, so every layer's keys and values can be cached, and each layer **must** have its own cache. Caching the first layer alone is not enough: when the new token reaches layer 2, its query must read layer 2's keys and values of all old positions, which come from layer 1's outputs, and layer 1's cache does not hold them. Without a cache for layer 2, the only correct option is to recompute layer 1's outputs for every old position at every step, which is the very full forward pass the cache is meant to avoid.

Below we measure this on a two-layer model. The cell assembles the model from functions of `lib.attention` (a demonstration, not part of `lib`): the input is $h^{(0)}_t = E[x_t] + P[t]$, and each layer computes $h^{(\ell)} = h^{(\ell-1)} + \mathrm{MHA}_\ell\big(h^{(\ell-1)}\big)$, causal multi-head attention plus a residual connection; the parameters are random. The token-by-token version gives each chosen layer a cache of its own; a layer without a cache can read only the new token itself at that step. Compared with the full forward pass:

* both layers cached: the largest error is rounding error (below $10^{-12}$);
* only layer 1 cached: every position except position 0 has a clear error (each above 0.1). Position 0 happens to be right because it reads only itself anyway.

§7 runs the same check on a trained multi-layer decoder.
""",
    ru=r"""
## 5.5 Многослойная модель: каждому слою нужен свой кэш

У модели из §4–§6 один слой. В модели из $L$ слоёв ключи и значения старых позиций в слое $\ell$ вычисляются из выходов слоя $\ell-1$ в тех же позициях; в силу причинности эти выходы не меняются с приходом нового токена, поэтому ключи и значения каждого слоя можно кэшировать — и у каждого слоя **должен** быть свой кэш. Одного кэша первого слоя недостаточно: когда новый токен доходит до второго слоя, его запрос должен прочитать ключи и значения второго слоя для всех старых позиций, а они получаются из выходов первого слоя, которых в кэше первого слоя нет. Без кэша второго слоя единственный правильный способ — на каждом шаге заново вычислять выходы первого слоя для всех старых позиций, то есть тот самый полный прямой проход, от которого кэш должен избавить.

Ниже измерим это на двухслойной модели. Она собрана прямо в ячейке из функций `lib.attention` (только для демонстрации, в `lib` её нет): вход $h^{(0)}_t = E[x_t] + P[t]$, каждый слой вычисляет $h^{(\ell)} = h^{(\ell-1)} + \mathrm{MHA}_\ell\big(h^{(\ell-1)}\big)$ — причинное многоголовое внимание с остаточной связью, параметры случайные. В пошаговой версии выбранные слои хранят собственные ключи и значения; слой без кэша на шаге нового токена видит только сам этот токен. По сравнению с полным прямым проходом:

* кэшированы оба слоя: наибольшая ошибка — на уровне округления (меньше $10^{-12}$);
* кэширован только первый слой: во всех позициях, кроме нулевой, ошибка заметна (везде больше 0,1). В нулевой позиции результат случайно верен, потому что она и так читает только себя.

В §7 та же проверка проводится на обученном многослойном декодере.
""",
)

code(r"""
rng = np.random.default_rng(8)
V2, C2, D2, H2 = 6, 8, 8, 2
E2 = rng.standard_normal((V2, D2))  # (V, D)
P2 = rng.standard_normal((C2, D2))  # (C, D)
# 2 x (w_q, w_k, w_v, w_o)
layers = [[rng.standard_normal((D2, D2)) / np.sqrt(D2) for _ in range(4)]
          for _ in range(2)]

def two_layer_forward(ids):
    h = E2[ids] + P2[:len(ids)]  # (T, D)
    for w_q, w_k, w_v, w_o in layers:
        #zh 残差连接
        #en residual connection
        #ru остаточная связь
        h = h + multi_head_attention(h[None], w_q, w_k, w_v, w_o, H2)[0]
    return h  # (T, D)

def two_layer_steps(ids, cached_layers):
    #zh 每层已存位置的 (k, v)
    #en (k, v) of the stored positions, per layer
    #ru (k, v) сохранённых позиций, для каждого слоя
    stored = [[] for _ in layers]
    outputs = []
    for t, token in enumerate(ids):
        h = (E2[token] + P2[t])[None]  # (1, D)
        for n, (w_q, w_k, w_v, w_o) in enumerate(layers):
            # (H, 1, d)
            q, k, v = (split_heads((h @ w)[None], H2)[0]
                       for w in (w_q, w_k, w_v))
            if n in cached_layers:
                stored[n].append((k, v))
                # (H, t+1, d)
                k = np.concatenate([key for key, _ in stored[n]], axis=1)
                # (H, t+1, d)
                v = np.concatenate(
                    [value for _, value in stored[n]], axis=1)
            heads = causal_attention(q, k, v)  # (H, 1, d)
            h = h + merge_heads(heads[None])[0] @ w_o  # (1, D)
        outputs.append(h[0])
    return np.stack(outputs)  # (T, D)

ids2 = rng.integers(0, V2, size=C2)
full2 = two_layer_forward(ids2)
both_cached = float(np.abs(two_layer_steps(ids2, cached_layers={0, 1})
                           - full2).max())
# (T,)
first_only = np.abs(two_layer_steps(ids2, cached_layers={0})
                    - full2).max(axis=1)
#zh 舍入量级的误差：只打印结论
#en a rounding-level error: only the claim is printed
#ru ошибка на уровне округления: печатается только утверждение
print("max|Δ| < 1e-12:", both_cached < 1e-12)
print(np.round(first_only, 6))
assert both_cached < 1e-12
assert first_only[0] < 1e-12 and np.all(first_only[1:] > 0.1)
""")

md(
    zh=r"""
## 5.6 缓存占多少内存

每一层、每个头、每个已存位置都要保存一个键和一个值。对每条序列，缓存占用

$$
\text{bytes} = 2 \cdot L \cdot H \cdot T \cdot d \cdot \text{itemsize} = 2 \cdot L \cdot T \cdot D \cdot \text{itemsize},
$$

其中 2 代表键和值两份，$T$ 是已存位置数，itemsize 是每个数的字节数（float32 为 4，float64 为 8）。批量为 $B$ 时再乘以 $B$。

先用我们的模型核对公式：一层、2 个头、每头宽 2、8 个位置、float64，公式给出 512 字节，与缓存数组的实际大小一致。再看一个更接近实际的配置：12 层、$D=768$、1024 个位置、float32，每条序列约 72 MiB。注意头数不影响结果：在 $D$ 固定时 $H \cdot d = D$，头数只决定怎样切分，总量不变。
""",
    en=r"""
## 5.6 How much memory the cache takes

Every layer, every head and every stored position keeps one key and one value. Per sequence, the cache takes

$$
\text{bytes} = 2 \cdot L \cdot H \cdot T \cdot d \cdot \text{itemsize} = 2 \cdot L \cdot T \cdot D \cdot \text{itemsize},
$$

where the 2 counts keys and values, $T$ is the number of stored positions and itemsize is the number of bytes per number (4 for float32, 8 for float64). For a batch of $B$ sequences, multiply by $B$.

First we check the formula against our model: for one layer, 2 heads of width 2, 8 positions and float64 it gives 512 bytes, the actual size of the cache arrays. For a more realistic configuration, 12 layers, $D=768$, 1024 positions and float32, it gives about 72 MiB per sequence. The head count does not matter: at fixed $D$, $H \cdot d = D$, so the heads only decide how the same total is cut.
""",
    ru=r"""
## 5.6 Сколько памяти занимает кэш

Для каждого слоя, каждой головы и каждой сохранённой позиции хранятся один ключ и одно значение. На одну последовательность кэш занимает

$$
\text{bytes} = 2 \cdot L \cdot H \cdot T \cdot d \cdot \text{itemsize} = 2 \cdot L \cdot T \cdot D \cdot \text{itemsize},
$$

где множитель 2 отвечает за ключи и значения, $T$ — число сохранённых позиций, itemsize — число байт на одно число (4 для float32, 8 для float64). Для батча из $B$ последовательностей результат умножается на $B$.

Сначала сверим формулу с нашей моделью: один слой, 2 головы ширины 2, 8 позиций, float64 — получается 512 байт, ровно размер массивов кэша. Затем возьмём конфигурацию, более близкую к реальной: 12 слоёв, $D=768$, 1024 позиции, float32 — около 72 МиБ на последовательность. Число голов роли не играет: при фиксированном $D$ выполняется $H \cdot d = D$, и число голов лишь определяет, как поделить тот же объём.
""",
)

code(r"""
ours = checks.kv_cache_bytes(
    n_layers=1, n_heads=2, head_width=2, length=8, itemsize=8)
print(ours, cache8.keys.nbytes + cache8.values.nbytes)
assert ours == cache8.keys.nbytes + cache8.values.nbytes == 512

for n_heads in (1, 4, 12):
    size = checks.kv_cache_bytes(
        n_layers=12, n_heads=n_heads, head_width=768 // n_heads,
        length=1024, itemsize=4)
    print(n_heads, size, size / 2**20)
    assert size == 75497472 and size / 2**20 == 72.0
""")

md(
    zh=r"""
## 5.7 缓存只处理一条无填充的输入流

缓存的长度就是下一个词元的位置，这是它唯一的偏移量。这意味着：

* **不支持左填充。** 缓存没有按样本跳过填充位置的接口。若在真实内容前面垫上填充词元，这些填充位于过去，会被读取，所有真实词元的位置也都被推后。
* **右填充的训练样本不是可续写的前缀。** 训练时短文本被右填充，例如 `collate` 把 `雨` 变成输入 `<bos> 雨 <eos>`、目标 `雨 <eos> −100`。目标为 −100 的最后一个输入只是填充。若把整行送进缓存再续写，新词元会落在位置 3，并读到一个并不属于文本的位置。真正该续写的前缀只有目标不为 −100 的那几个位置，这里是 `<bos> 雨`，长度为 2。

下面分别测量这两种误用与正确做法的差异，两者都不为零。
""",
    en=r"""
## 5.7 The cache handles one unpadded stream

The cache's length is the position of the next token; that is its only offset. This means:

* **No left padding.** The cache has no way to skip padding positions per example. Padding tokens placed before the real content lie in the past, so they are read, and every real token's position is pushed back.
* **A right-padded training row is not a prefix to continue.** In training, short texts are padded on the right: `collate` turns `雨` into the input `<bos> 雨 <eos>` with targets `雨 <eos> −100`. The last input, whose target is −100, is only padding. If the whole row goes into the cache and generation continues, the new token lands at position 3 and reads a position that is not part of the text. The prefix to continue consists only of the positions whose target is not −100; here that is `<bos> 雨`, of length 2.

Below we measure how far each misuse is from the correct computation; neither difference is zero.
""",
    ru=r"""
## 5.7 Кэш обслуживает один поток без дополнения

Длина кэша — это позиция следующего токена; другого смещения у него нет. Отсюда следует:

* **Дополнение слева не поддерживается.** У кэша нет способа пропускать позиции дополнения для отдельного примера. Токены дополнения перед настоящим текстом оказываются в прошлом, поэтому их читают запросы, а номера позиций всех настоящих токенов увеличиваются.
* **Строка обучающего батча с дополнением справа — не префикс для продолжения.** При обучении короткие тексты дополняются справа: `collate` превращает `雨` во вход `<bos> 雨 <eos>` с целевыми метками `雨 <eos> −100`. Последний вход, чья целевая метка равна −100, — просто дополнение. Если отправить в кэш всю строку и продолжить генерацию, новый токен окажется в позиции 3 и прочитает позицию, которая к тексту не относится. Продолжать нужно префикс из позиций, чья целевая метка не равна −100; здесь это `<bos> 雨` длины 2.

Ниже измерим, насколько каждое из этих неправильных применений отличается от правильного вычисления; оба расхождения ненулевые.
""",
)

code(r"""
inputs, targets = collate(["雨", "春雨"], vocab)
print(inputs)
print(targets)
valid = int((targets[0] != IGNORE).sum())  #zh 2：真实前缀是 <bos> 雨 #en 2: the real prefix is <bos> 雨 #ru 2: настоящий префикс — <bos> 雨
print(decode(inputs[0], vocab), valid)
assert valid == 2

true_cache = model.new_cache()
checks.incremental_forward(model, inputs[0, :valid], cache=true_cache)
padded_cache = model.new_cache()
#zh 误用：连填充一起送进缓存
#en misuse: the padding goes into the cache too
#ru неправильно: в кэш попадает и дополнение
checks.incremental_forward(model, inputs[0], cache=padded_cache)
#zh 下一个词元的位置：2，带着填充则是 3
#en the next token's position: 2, or 3 with the padding
#ru позиция следующего токена: 2, а с дополнением 3
print(len(true_cache), len(padded_cache))
next_true, next_padded = (model.step(3, true_cache),
                          model.step(3, padded_cache))
print(round(float(np.abs(next_padded - next_true).max()), 6))
assert np.abs(next_padded - next_true).max() > 1e-3

#zh 误用：填充放在文本之前
#en misuse: padding placed before the text
#ru неправильно: дополнение стоит перед текстом
left_padded = np.array([EOS, BOS, 4])
shifted = checks.incremental_forward(model, left_padded)[-1]
print(round(float(np.abs(shifted
                         - model.forward(inputs[0, :valid])[-1]).max()), 6))
assert np.abs(shifted - model.forward(inputs[0, :valid])[-1]).max() > 1e-3
""")

md(
    zh=r"""
## 5.8 缓存省下了多少时间

最后实际测一测。用一个随机参数的较大模型（$D=64$，$H=4$，位置表 512 行），对不同的前缀长度 $T$ 比较两种得到“下一个词元的输出”的方式：

* 不用缓存：对 $T+1$ 个词元做完整前向传播，取最后一行；
* 用缓存：缓存里已有 $T$ 个位置，只调用一次 `step`。

前者每次都要重算全部投影和一张 $(T+1)\times(T+1)$ 的注意力表，后者只算一个新位置并读取 $T+1$ 个键。每种情形重复几次，取最短的时间；为什么这样计时，以及 `make bench` 怎样测得更仔细，写在 `bench/attention_cache.py` 的说明里。

表中各列依次为 $T$、两种方式的时间（毫秒）和二者之比。绝对时间取决于机器和它当时的负载。任何一台正常的机器上都应成立的只有两点，单元格也只检查这两点：在最长的前缀上，缓存至少快 10 倍；并且这个倍数在最长前缀上比在最短前缀上大，即差距随 $T$ 增大。至于曲线的具体形状（例如在哪个 $T$ 上开始变陡），不同机器会有差别。缓存给出的输出也顺带与完整前向传播核对。
""",
    en=r"""
## 5.8 How much time the cache saves

Finally, let us measure it. Take a larger model with random parameters ($D=64$, $H=4$, a position table of 512 rows) and, for several prefix lengths $T$, compare two ways of getting the output for the next token:

* without the cache: run the full forward pass on $T+1$ tokens and keep the last row;
* with the cache: the cache already holds $T$ positions; call `step` once.

The first way recomputes every projection and a $(T+1)\times(T+1)$ attention table each time; the second computes one new position and reads $T+1$ keys. Each case runs several times and the shortest time is kept; why it is timed this way, and how `make bench` measures more carefully, is written in the documentation of `bench/attention_cache.py`.

The columns are $T$, the time of each way in milliseconds, and their ratio. Absolute times depend on the machine and its load. Only two things should hold on any reasonable machine, and the cell checks only those: at the longest prefix the cache is at least 10 times faster, and that ratio is larger at the longest prefix than at the shortest, so the gap widens as $T$ grows. The exact shape of the curves (for instance, at which $T$ they steepen) differs from machine to machine. The cell also checks that the cache's output agrees with the full forward pass.
""",
    ru=r"""
## 5.8 Сколько времени экономит кэш

Напоследок проведём замер. Возьмём модель побольше со случайными параметрами ($D=64$, $H=4$, таблица позиций из 512 строк) и для нескольких длин префикса $T$ сравним два способа получить выход для следующего токена:

* без кэша: полный прямой проход по $T+1$ токенам и последняя строка результата;
* с кэшем: в кэше уже $T$ позиций, один вызов `step`.

Первый способ каждый раз заново вычисляет все проекции и таблицу внимания $(T+1)\times(T+1)$; второй вычисляет одну новую позицию и читает $T+1$ ключей. Каждый вариант запускается несколько раз, и берётся наименьшее время; почему замер устроен так и как `make bench` измеряет тщательнее, описано в документации `bench/attention_cache.py`.

Столбцы таблицы: $T$, время каждого способа в миллисекундах и их отношение. Абсолютное время зависит от машины и её загрузки. На любой нормальной машине должны выполняться лишь два утверждения, и ячейка проверяет только их: на самом длинном префиксе кэш быстрее как минимум в 10 раз, и это отношение на самом длинном префиксе больше, чем на самом коротком, то есть разрыв растёт с $T$. Точная форма кривых (например, при каком $T$ они становятся круче) на разных машинах разная. Заодно ячейка проверяет, что выход с кэшем совпадает с полным прямым проходом.
""",
)

code(r"""
rng = np.random.default_rng(0)
big = checks.random_model(
    rng, vocab_size=100, context_size=512, width=64, n_heads=4)
stream = rng.integers(0, 100, size=512)
lengths = [8, 16, 32, 64, 128, 256, 511]

snapshots, growing = {}, big.new_cache()  #zh 读入 T 个词元后的缓存 #en the cache after T tokens #ru кэш после T токенов
for token in stream[:max(lengths)]:
    big.step(int(token), growing)
    if len(growing) in lengths:
        snapshots[len(growing)] = copy.deepcopy(growing)

def best_seconds(run, prepare, repeats=7):
    run(prepare())                                         #zh 预热 #en warm-up #ru прогрев
    times = []
    for _ in range(repeats):
        state = prepare()  #zh 不计时：一份新的缓存副本 #en not timed: a fresh copy of the cache #ru не входит в замер: свежая копия кэша
        start = time.perf_counter()
        run(state)
        times.append(time.perf_counter() - start)
    return min(times)

with threadpool_limits(limits=1, user_api="blas"):
    full_seconds = [best_seconds(lambda _: big.forward(stream[:T + 1]),
                                 lambda: None) for T in lengths]
    step_seconds = [best_seconds(lambda c: big.step(int(stream[T]), c),
                                 lambda: copy.deepcopy(snapshots[T]))
                    for T in lengths]
ratios = [f / s for f, s in zip(full_seconds, step_seconds)]
print(f"{'T':>4} {'t_full [ms]':>12} {'t_cache [ms]':>13} {'ratio':>7}")
for T, f, s, r in zip(lengths, full_seconds, step_seconds, ratios):
    print(f"{T:>4} {f * 1e3:>12.3f} {s * 1e3:>13.3f} {r:>7.1f}")

last = max(lengths)
cached_last = big.step(int(stream[last]), copy.deepcopy(snapshots[last]))
assert np.abs(cached_last
              - big.forward(stream[:last + 1])[-1]).max() < 1e-12
assert ratios[-1] >= 10 and ratios[-1] > ratios[0]
plots.timing_lines(lengths, [full_seconds, step_seconds],
                   ["forward(ids[:T+1])[-1]", "step(ids[T], cache)"])
plt.show()
""", tags=("nbval-ignore-output",), alt=dict(
    zh="双对数坐标图：横轴为前缀长度 T，纵轴为得到一个新词元输出所需的时间（秒）。完整前向传播的曲线随 T 陡峭上升，"
       "带缓存的 step 曲线几乎持平，两条曲线之间的差距随 T 增大。",
    en="Log-log plot of the time to get one new token's output (seconds) against the prefix length T. The full forward pass "
       "rises steeply with T while the cached step stays almost flat, so the gap between the curves widens as T grows.",
    ru="График в двойном логарифмическом масштабе: время получения выхода для одного нового токена (секунды) в зависимости от "
       "длины префикса T. Полный прямой проход круто растёт с T, шаг с кэшем почти не меняется, разрыв между кривыми растёт.",
))

md(
    zh=r"""
## 5.9 掩码还省下一半的计算

因果掩码规定了哪些位置不许读取，它同时也意味着注意力表里大约一半的数根本不必计算。§1 的定义 `causal_attention` 先算出整张 $(T, T)$ 分数表，再把右上角禁止掉。模块 `lib.blocked` 里的 `blocked_causal_attention` 按块计算同样的数：查询每 64 个（`BLOCK`）一块。第 $i$ 个查询块（位置 $64i$～$64i+63$）正是 §5.1 末尾和本节的情形：64 个查询排在 $64i$ 个更早的键之后，右下对齐。块里最后一个查询也只能读到第 $64i+63$ 个键，所以这一块只和键 $0$～$64i+63$ 计算分数；之后的键对块里的每个查询都处在未来，它们的分数一个也不用算。只有最后 64 列（对角线上的方块）里有被禁止的位置，仍然用 §1 的掩码处理。

下面单元格的输出先打印这个函数本身：整个算法就是一个对查询块的循环，循环体里是 §1 的三步（打分、带掩码的 softmax、对值加权求和），只是键被截短了。接下来 8 行画出 $T = 512$ 时的分块情形：第 $i$ 行是第 $i$ 个查询块，每个 `#` 代表计算的 64 个键，每个 `.` 代表跳过的 64 个键。再下一行对应 $T = 1024$：16 个查询块共计算 $64 \cdot 64 \cdot (1 + 2 + \cdots + 16) = 557056$ 个分数，而不是 1048576 个，占 53.1%；许可集合本身有 524800 个元素，占 50.05%，多出的部分只是对角线方块里被掩码禁止的那一半。最后一行检查按块计算的结果与定义一致（float32，在舍入误差范围内）。

同一个模块里还有 `fast_causal_attention`：它计算的数相同，但把查询块分给处理器的各个核心，并做了几处进一步的节省（模块里的注释逐条说明）。`make bench` 用它与 PyTorch 比较速度，也测量跳过未来的键能省下多少时间；计时方法写在 `bench/attention_cache.py` 的说明里。这部分是选读内容，理解本节只需要上面这个函数。
""",
    en=r"""
## 5.9 The mask also saves half of the work

The causal mask says which positions may not be read; it also means that about half of the attention table never needs to be computed. The definition of §1, `causal_attention`, computes the whole $(T, T)$ table of scores and then forbids its upper right. `blocked_causal_attention`, in the module `lib.blocked`, computes the same numbers in blocks of 64 queries (`BLOCK`). Query block $i$ (positions $64i$ to $64i+63$) is exactly the situation of the end of §5.1 and of this section: 64 queries after $64i$ earlier keys, aligned bottom-right. Even its last query reads no key after $64i+63$, so the block computes its scores against keys $0$ to $64i+63$ only; every later key lies in the future of every query in the block, and not one of its scores is computed. Only the last 64 columns, the square on the diagonal, hold forbidden entries, and the mask of §1 handles them as before.

The cell's output first prints the function itself: the whole algorithm is a loop over the query blocks whose body is the three steps of §1 (scores, masked softmax, weighted sum of the values) with the keys cut short. The next 8 lines draw the blocks for $T = 512$: line $i$ is query block $i$, each `#` stands for 64 keys that are computed and each `.` for 64 keys that are skipped. The line after that is for $T = 1024$: the 16 query blocks compute $64 \cdot 64 \cdot (1 + 2 + \cdots + 16) = 557056$ scores instead of 1048576, or 53.1 %. The allowed set itself has 524800 entries (50.05 %); the difference is the forbidden half of each diagonal square. The last line checks that the blocked computation gives the numbers of the definition (float32, up to rounding).

The same module also holds `fast_causal_attention`. It computes the same numbers, but shares the query blocks out among the processor cores and makes a few further savings, each explained in the module's comments. `make bench` compares it with PyTorch and measures how much time skipping the future keys saves; how it times is written in the documentation of `bench/attention_cache.py`. That part is optional reading: this section needs only the function above.
""",
    ru=r"""
## 5.9 Маска экономит ещё и половину вычислений

Причинная маска говорит, какие позиции читать нельзя; но из неё же следует, что примерно половину таблицы внимания вообще не нужно вычислять. Определение из §1, `causal_attention`, вычисляет всю таблицу оценок $(T, T)$ и лишь затем запрещает её правый верхний угол. Функция `blocked_causal_attention` из модуля `lib.blocked` вычисляет те же числа блоками по 64 запроса (`BLOCK`). Блок запросов $i$ (позиции от $64i$ до $64i+63$) — это в точности случай из конца §5.1 и из этого раздела: 64 запроса после $64i$ более ранних ключей с выравниванием по правому нижнему углу. Даже последний запрос блока не читает ключей после $64i+63$, поэтому блок вычисляет оценки только для ключей с $0$ по $64i+63$; все более поздние ключи лежат в будущем для каждого запроса блока, и ни одна их оценка не вычисляется. Запрещённые элементы есть только в последних 64 столбцах, в квадрате на диагонали, и с ними, как и прежде, справляется маска из §1.

Сначала ячейка печатает саму функцию: весь алгоритм — это цикл по блокам запросов, а в теле цикла стоят три шага из §1 (оценки, softmax с маской, взвешенная сумма значений), только ключи обрезаны. Следующие 8 строк показывают блоки для $T = 512$: строка $i$ — блок запросов $i$, каждый `#` означает 64 вычисляемых ключа, каждая `.` — 64 пропущенных. Строка после них относится к $T = 1024$: 16 блоков запросов вычисляют $64 \cdot 64 \cdot (1 + 2 + \cdots + 16) = 557056$ оценок вместо 1048576, то есть 53,1 %. В самом множестве разрешённых позиций 524800 элементов (50,05 %); разница — запрещённая половина каждого диагонального квадрата. Последняя строка проверяет, что вычисление блоками даёт числа из определения (float32, с точностью до округления).

В том же модуле есть и `fast_causal_attention`. Она вычисляет те же числа, но распределяет блоки запросов по ядрам процессора и экономит ещё в нескольких местах; каждое из них объяснено в комментариях модуля. С ней `make bench` сравнивает скорость PyTorch и измеряет, сколько времени экономит пропуск будущих ключей; как устроен замер, описано в документации `bench/attention_cache.py`. Эта часть — для желающих: для раздела достаточно функции выше.
""",
)

code(r"""
import inspect

from lib.blocked import BLOCK, attention_work, blocked_causal_attention

print(inspect.getsource(blocked_causal_attention))

#zh 第 i 个查询块：64 个查询排在 64·i 个更早的键之后（右下对齐）
#en query block i: 64 queries after 64·i earlier keys (bottom-right alignment)
#ru блок запросов i: 64 запроса после 64·i более ранних ключей (выравнивание
#ru по правому нижнему углу)
n_blocks = 512 // BLOCK
computed = [attention_work(BLOCK, BLOCK * (i + 1)).computed // BLOCK**2
            for i in range(n_blocks)]
for i, n in enumerate(computed):
    print(i, "#" * n + "." * (n_blocks - n))
assert computed == list(range(1, n_blocks + 1))
assert sum(computed) * BLOCK**2 == attention_work(512, 512).computed

work = attention_work(1024, 1024)
everything = attention_work(1024, 1024, skip_future=False)
print(work.computed, everything.computed, f"{work.fraction:.3f}",
      work.allowed, f"{work.allowed / work.total:.4f}")
assert (BLOCK == 64
        and work.computed == BLOCK**2 * sum(range(1, 17)) == 557056)
assert (everything.computed == work.total == 1024**2
        and work.allowed == 1024 * 1025 // 2)

rng = np.random.default_rng(0)
q, k, v = (rng.standard_normal((1, 8, 1024, 64), dtype=np.float32)
           for _ in range(3))
out = blocked_causal_attention(q, k, v)  # (1, 8, 1024, 64)
print(out.dtype,
      np.allclose(out, causal_attention(q, k, v), rtol=1e-5, atol=1e-5))
assert out.dtype == np.float32
assert np.allclose(out, causal_attention(q, k, v), rtol=1e-5, atol=1e-5)
""")

md(
    zh=r"""
## 5.10 小结

* KV 缓存按头保存每个已见位置的键和值，形状为 $(H, n, d)$；多层模型每层各存一份，只缓存第一层会让第 0 个位置之后的每个位置都出错。缓存总共占用 $2 \cdot L \cdot T \cdot D \cdot \text{itemsize}$ 字节，与头数无关。
* 一步送入 $t_q$ 个词元时，查询比键少（$t_q < t_k$）：查询 $i$ 位于绝对位置 $t_k - t_q + i$，掩码右下对齐；从左上角对齐会丢掉历史，输出出错。
* 新词元位于位置 `len(cache)`，输入为 $E[x] + P[\texttt{len(cache)}]$。把位置归零不会报错，只能靠与完整前向传播逐项比较才能发现。
* 逐词元输出与完整前向传播的一致性是检错的标准做法：在 §4.1 的模型上差异为 `0.0`，在随机模型和用满位置表的长序列上都在 $10^{-12}$ 以内。
* 超出位置表的一步会报错，并且不改动缓存。
* 缓存只处理一条无填充的输入流：不支持左填充，训练中右填充的行也要先截到真实长度才能续写。
* 缓存的正确性依赖 §4 的因果性：只要模型某处读取了未来，旧位置的键和值就不再固定，缓存也就不再成立。
* 因果掩码还省下计算：查询未来的分数根本用不上，所以注意力表大约一半不必计算（§5.9），结果仍与定义一致。
""",
    en=r"""
## 5.10 Summary

* The KV cache stores, per head, the key and value of every position seen so far, with shape $(H, n, d)$. A multi-layer model keeps one such cache per layer; caching only the first layer makes every position after position 0 wrong. The whole cache takes $2 \cdot L \cdot T \cdot D \cdot \text{itemsize}$ bytes, whatever the head count.
* A step that feeds $t_q$ tokens has fewer queries than keys ($t_q < t_k$): query $i$ stands at absolute position $t_k - t_q + i$, and the mask is aligned bottom-right; a mask aligned top-left loses history and gives wrong outputs.
* The new token sits at position `len(cache)` with input $E[x] + P[\texttt{len(cache)}]$. Resetting the position to 0 raises no error; only an entry-by-entry comparison with the full forward pass finds it.
* Agreement of the token-by-token outputs with the full forward pass is the standard check: `0.0` on the model of §4.1, within $10^{-12}$ on random models and on long sequences that fill the position table.
* A step past the position table raises an error and leaves the cache unchanged.
* The cache handles one unpadded stream: no left padding, and a right-padded training row must be cut to its real length before it can be continued.
* The cache is correct only because of the causality of §4: if any part of the model read the future, old keys and values would no longer be fixed, and the cache would be wrong.
* The causal mask also saves work: no score in a query's future is ever needed, so about half of the attention table need not be computed (§5.9), and the outputs still equal those of the definition.
""",
    ru=r"""
## 5.10 Итоги

* KV-кэш хранит для каждой головы ключ и значение каждой уже увиденной позиции в массивах формы $(H, n, d)$. В многослойной модели такой кэш есть у каждого слоя; если кэшировать только первый слой, выходы во всех позициях, кроме нулевой, получаются неверными. Весь кэш занимает $2 \cdot L \cdot T \cdot D \cdot \text{itemsize}$ байт независимо от числа голов.
* Когда за шаг подаётся $t_q$ токенов, запросов меньше, чем ключей ($t_q < t_k$): запрос $i$ стоит в абсолютной позиции $t_k - t_q + i$, и маска выровнена по правому нижнему углу; маска, выровненная по левому верхнему углу, теряет историю и даёт неверные выходы.
* Новый токен стоит в позиции `len(cache)`, его вход — $E[x] + P[\texttt{len(cache)}]$. Сброс позиции в ноль не вызывает ошибки; заметить его можно только поэлементным сравнением с полным прямым проходом.
* Совпадение пошаговых выходов с полным проходом — стандартная проверка: `0.0` на модели из §4.1 и в пределах $10^{-12}$ на случайных моделях и длинных последовательностях, заполняющих таблицу позиций.
* Шаг за пределы таблицы позиций вызывает ошибку и не меняет кэш.
* Кэш обслуживает один поток без дополнения: дополнение слева не поддерживается, а строку обучающего батча с дополнением справа перед продолжением нужно обрезать до её настоящей длины.
* Кэш корректен только благодаря причинности из §4: если бы какая-то часть модели читала будущее, старые ключи и значения перестали бы быть неизменными, и кэш давал бы неверный результат.
* Причинная маска ещё и экономит вычисления: оценки из будущего запроса никогда не нужны, поэтому примерно половину таблицы внимания можно не вычислять (§5.9), а выходы всё равно совпадают с определением.
""",
)
