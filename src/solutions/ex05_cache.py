# Exercise set 5 (§5, the KV cache and its position offset).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import setup_cell  # the first code cell, shared by every exercise notebook

md(zh="# 练习 5：KV 缓存与位置偏移量", en="# Exercise set 5: the KV cache and the position offset", ru="# Упражнения к разделу 5: KV-кэш и смещение позиции",
   tags=("exercise",))

md(zh="# 练习 5 参考解答：KV 缓存与位置偏移量", en="# Solutions to exercise set 5: the KV cache and the position offset", ru="# Решения упражнений к разделу 5: KV-кэш и смещение позиции",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §5，做法与前几份练习相同：把 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行下面的 `check(...)`。

逐词元生成时，模型把每个头已有位置的键和值存进 KV 缓存，新词元只计算自己的查询、键和值。你要确定缓存步骤中新词元的位置，不借助现成函数写出完整的一步，再写一个检验，确认缓存与完整前向传播给出相同的输出。
""",
    en="""
This notebook goes with §5 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

When generating token by token, the model keeps the keys and values of the positions already seen, per head, in a KV cache, and a new token computes only its own query, key and value. You will work out the position of the new token in a cached step, write a whole cached step from scratch, and write a test that checks whether the cache agrees with the full forward pass.
""",
    ru="""
Этот блокнот относится к §5 и устроен так же, как предыдущие: замените строку `raise NotImplementedError  # TODO` своим кодом и запустите `check(...)` под ней.

При пошаговой генерации модель хранит в KV-кэше ключи и значения уже увиденных позиций для каждой головы, а новый токен вычисляет только свои запрос, ключ и значение. Вам предстоит определить позицию нового токена при шаге с кэшем, самостоятельно запрограммировать такой шаг целиком и написать проверку того, что кэш даёт те же выходы, что и полный прямой проход.
""",
)

code(setup_cell("""
import numpy as np

from grading import check
from grading.models import buggy_step, random_model
""", after="""
model = random_model(7)                 # V=7, C=8, D=8, H=2
ids = np.array([1, 3, 5, 6, 2])
"""))

md(
    zh="""
## cache-1：缓存步骤的位置（1 分）

`model.step(token, cache, position=p)` 把词元嵌入到位置 `p`（加上位置表第 `p` 行），把它的键和值存进 `cache`，并返回它的输出，形状为 `(D,)`。`len(cache)` 是缓存中已有的位置数。

写出 `step(model, token, cache)`：只需补上新词元的位置。缓存里已有三个词元时，新词元的位置是多少？
""",
    en="""
## cache-1: the position of a cached step (1 point)

`model.step(token, cache, position=p)` embeds the token at position `p` (adding row `p` of the position table), stores its key and value in `cache` and returns its output, of shape `(D,)`. `len(cache)` is the number of positions the cache already holds.

Write `step(model, token, cache)`; only the position of the new token is missing. When the cache holds three tokens, where does the new one go?
""",
    ru="""
## cache-1: позиция нового токена при шаге с кэшем (1 балл)

`model.step(token, cache, position=p)` помещает токен в позицию `p` (прибавляя строку `p` таблицы позиций), сохраняет его ключ и значение в `cache` и возвращает его выход формы `(D,)`. `len(cache)` — число позиций, уже хранящихся в кэше.

Напишите `step(model, token, cache)`: не хватает только позиции нового токена. Если в кэше уже три токена, в какую позицию встаёт новый?
""",
)

code("""
def step(model, token, cache):
    # BEGIN SOLUTION
    position = len(cache)                  #zh 新词元紧接在已存位置之后 #en the new token comes right after the stored ones #ru новый токен встаёт сразу после сохранённых
    # END SOLUTION
    return model.step(token, cache, position=position)
""")

code("""
check("cache-1", step)
""")

code("""
cache = model.new_cache()
incremental = np.stack([step(model, int(token), cache) for token in ids])     # (T, D)
full = model.forward(ids)                                                       # (T, D)
print(len(cache), np.abs(incremental - full).max() < 1e-12)
""")

md(
    zh="""
**解答说明。** 缓存中已有 `len(cache)` 个位置 `0 … len(cache)−1`，新词元就在 `len(cache)`。若每一步都从 0 开始，每个新词元都会加上位置表第 0 行：数组长度都对，位置含义却全错，第一个词元之后的输出都会偏离完整前向传播。缓存满了以后（长度等于位置表的行数 `C`），`model.step` 会抛出 `ValueError`，而不是取模回绕或截断到最后一行。
""",
    en="""
**About the solution.** The cache holds `len(cache)` positions, `0 … len(cache)−1`, so the new token is at `len(cache)`. Restarting at 0 on every step would add row 0 of the position table to every new token: the array lengths all look right, the positions mean the wrong thing, and every output after the first token drifts from the full forward pass. Once the cache is full (its length equals `C`, the number of rows of the position table), `model.step` raises `ValueError` instead of wrapping the position around or clamping it to the last row.
""",
    ru="""
**О решении.** В кэше `len(cache)` позиций, `0 … len(cache)−1`, значит, новый токен встаёт в позицию `len(cache)`. Если на каждом шаге начинать с 0, каждому новому токену прибавится строка 0 таблицы позиций: длины массивов выглядят правильно, смысл позиций неверен, и все выходы после первого токена расходятся с полным проходом. Когда кэш заполнен (его длина равна `C`, числу строк таблицы позиций), `model.step` выбрасывает `ValueError`, а не берёт позицию по модулю и не прижимает её к последней строке.
""",
    tags=("solution",),
)

md(
    zh="""
## cache-2：从零写一个缓存步骤（2 分）

现在不用 `model.step`，只用数组写出一步。`attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`：

* `x`：新词元的输入向量，形状 `(D,)`，位置已经加好；
* `keys`、`values`：之前 `n` 个位置的键和值，形状 `(H, n, d)`，`n` 可以是 0；
* 返回 `(output, keys, values)`：输出形状 `(D,)`，以及加上新位置后的 `(H, n+1, d)` 键和值。

步骤：投影得到查询、键、值并拆成 `H` 个头；把新的键和值接到缓存末尾；每个头用 `1/√d` 缩放的点积分数，在全部 `n+1` 个位置上做 softmax；合并各头，乘 `w_o`。缓存里都是过去和当前的位置，所以这里不需要施加因果掩码。
""",
    en="""
## cache-2: a cached step from scratch (2 points)

Now write one step with arrays only, without `model.step`. `attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`:

* `x`: the input vector of the new token, shape `(D,)`, position already added;
* `keys`, `values`: keys and values of the `n` earlier positions, shape `(H, n, d)`; `n` may be 0;
* returns `(output, keys, values)`: the output of shape `(D,)` and the keys and values with the new position appended, `(H, n+1, d)`.

Steps: project to query, key and value and split them into `H` heads; append the new key and value at the end of the cache; in every head, take a softmax of the dot-product scores scaled by `1/√d` over all `n+1` positions; merge the heads and multiply by `w_o`. Everything in the cache is past or present, so no causal mask needs to be applied here.
""",
    ru="""
## cache-2: шаг с кэшем без готовых функций (2 балла)

Теперь напишите один шаг только на массивах, без `model.step`. `attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`:

* `x` — входной вектор нового токена формы `(D,)`, позиция уже прибавлена;
* `keys`, `values` — ключи и значения `n` предыдущих позиций формы `(H, n, d)`; `n` может быть 0;
* возвращает `(output, keys, values)`: выход формы `(D,)` и ключи и значения с добавленной новой позицией, `(H, n+1, d)`.

Шаги: вычислите проекции в запрос, ключ и значение и разбейте их на `H` голов; допишите новые ключ и значение в конец кэша; в каждой голове возьмите softmax по всем `n+1` позициям от оценок — скалярных произведений, умноженных на `1/√d`; склейте головы и умножьте результат на `w_o`. В кэше только прошлые и текущая позиции, поэтому причинную маску здесь применять не нужно.
""",
)

code("""
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    # BEGIN SOLUTION
    H = n_heads
    d = x.shape[-1] // H
    #zh (H, 1, d)：只有一个位置，reshape 就是拆分
    #en (H, 1, d): one position, so reshape is a split
    #ru (H, 1, d): позиция одна, поэтому `reshape` и есть разбиение
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)                 # (H, n+1, d)
    values = np.concatenate([values, v], axis=1)             # (H, n+1, d)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)    # (H, 1, n+1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values                                 # (H, 1, d)
    return heads.reshape(-1) @ w_o, keys, values             # (D,), (H, n+1, d), (H, n+1, d)
    # END SOLUTION
""")

code("""
check("cache-2", attention_step)
""")

code("""
H, d = model.n_heads, model.width // model.n_heads
keys = values = np.zeros((H, 0, d))
outputs = []
for t, token in enumerate(ids):
    x = model.embed(np.array([token]), offset=t)[0]          #zh (D,)，位于位置 t #en (D,) at position t #ru (D,) в позиции t
    out, keys, values = attention_step(x, keys, values, model.w_q, model.w_k, model.w_v, model.w_o, H)
    outputs.append(out)
print(keys.shape, np.abs(np.stack(outputs) - model.forward(ids)).max() < 1e-12)
""")

md(
    zh="""
**解答说明。** 只有一个位置时，把 `(D,)` 直接 `reshape` 成 `(H, 1, d)` 就是正确的拆分：练习 2 里的那个错误只在 `T > 1` 时出现。合并也一样，`(H, 1, d)` 展平后正是按头顺序拼接的 `(D,)`。新的键和值必须先接到缓存里再计算分数，因为新查询也要读取自己。上面的循环把每一步的输出与完整前向传播比较，误差在 1e-12 以内；cache-3 要做的，正是把这一点写成检验。
""",
    en="""
**About the solution.** With a single position, a plain `reshape` of `(D,)` into `(H, 1, d)` is a correct split: the mistake of exercise set 2 only appears when `T > 1`. Merging is the same: flattening `(H, 1, d)` gives `(D,)` with the heads concatenated in order. The new key and value go into the cache before the scores are computed, because the new query reads itself too. The loop above compares every step with the full forward pass, within 1e-12; cache-3 turns exactly this into a test.
""",
    ru="""
**О решении.** Для одной позиции простой `reshape` из `(D,)` в `(H, 1, d)` — правильное разбиение: ошибка из упражнений к разделу 2 появляется только при `T > 1`. Со склейкой так же: развёртка `(H, 1, d)` даёт `(D,)` с головами по порядку. Новые ключ и значение попадают в кэш до вычисления оценок, потому что новый запрос читает и самого себя. Цикл выше сравнивает каждый шаг с полным проходом, расхождение меньше `1e-12`; именно это cache-3 превращает в проверку.
""",
    tags=("solution",),
)

md(
    zh="""
## cache-3：缓存与完整前向传播的等价检验（3 分）

写出 `cache_error(forward, step, new_cache, ids)`：

* `forward(ids)` 一次算出全部输出 `(T, D)`；
* `new_cache()` 返回一个空缓存；`step(token, cache)` 处理一个词元（`int`）并返回它的输出 `(D,)`；
* 从一个新的空缓存开始，逐个词元调用 `step`，把输出叠成 `(T, D)` 的数组，返回它与完整输出之差的最大绝对值，类型为 `float`。

正确的缓存得到舍入误差量级的数。下面的单元格还会用一个位置总被重置为 0 的步骤来做阴性对照：检验必须能看出它错了。想一想：为什么只有一个词元的序列看不出这个错误？
""",
    en="""
## cache-3: the cache and the full forward pass (3 points)

Write `cache_error(forward, step, new_cache, ids)`:

* `forward(ids)` computes all outputs at once, `(T, D)`;
* `new_cache()` returns an empty cache; `step(token, cache)` takes one token (an `int`) and returns its output `(D,)`;
* starting from a fresh empty cache, call `step` token by token, stack the outputs into an array `(T, D)` and return the largest absolute difference from the full outputs, as a `float`.

A correct cache gives a number of the size of rounding error. The cell below also runs a step whose position is always reset to 0, as a negative control: the test has to see that it is wrong. Think about it: why can a sequence of a single token not reveal this bug?
""",
    ru="""
## cache-3: кэш и полный проход (3 балла)

Напишите `cache_error(forward, step, new_cache, ids)`:

* `forward(ids)` вычисляет все выходы сразу, `(T, D)`;
* `new_cache()` возвращает пустой кэш; `step(token, cache)` обрабатывает один токен (`int`) и возвращает его выход `(D,)`;
* начиная со свежего пустого кэша, вызовите `step` для токенов по очереди, соберите выходы в массив `(T, D)` и верните наибольшее абсолютное отличие от полного прохода в виде `float`.

Правильный кэш даёт число порядка ошибки округления. Ячейка ниже прогоняет ещё и шаг, у которого позиция всегда сбрасывается в 0, — это отрицательный контроль: проверка обязана заметить ошибку. Подумайте, почему последовательность из одного токена эту ошибку не выявит.
""",
)

code("""
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    # BEGIN SOLUTION
    full = np.asarray(forward(ids))                                        # (T, D)
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])     # (T, D)
    return float(np.max(np.abs(full - incremental)))
    # END SOLUTION
""")

code("""
check("cache-3", cache_error)
""")

code("""
def my_step(token, cache):
    return step(model, token, cache)

right = cache_error(model.forward, my_step, model.new_cache, ids)
reset = cache_error(model.forward, buggy_step(model, "reset"), model.new_cache, ids)
reset_one_token = cache_error(model.forward, buggy_step(model, "reset"), model.new_cache, ids[:1])
print(right < 1e-12, round(reset, 6), reset_one_token)
assert right < 1e-12 < reset and reset_one_token == 0.0
""")

md(
    zh="""
**解答说明。** 每次检验都要用新的空缓存：沿用旧缓存，新词元会排在旧序列之后，位置全部错开。重置到 0 的步骤在第一个词元上恰好正确，因为第一个词元的位置本来就是 0，所以只有一个词元的序列看不出错误。这正是阴性对照的意义：先确认检验能在这组输入上抓住已知的错误，才能相信它对正确缓存给出的小误差。比较时用容差而不是精确相等：逐步计算与完整前向传播的求和顺序不同，可能相差几个 1e-16。
""",
    en="""
**About the solution.** Every run needs a fresh empty cache: reusing an old one would put the new tokens after the old sequence and shift every position. The reset-to-0 step happens to be right on the first token, whose position is 0 anyway, which is why a single-token sequence cannot reveal the bug. That is the point of the negative control: first make sure the test catches a known bug on these inputs, then trust the small error it reports for the correct cache. Compare with a tolerance rather than exact equality: the step-by-step and the full computation sum in different orders and may differ by a few 1e-16.
""",
    ru="""
**О решении.** Каждому прогону нужен свежий пустой кэш: со старым кэшем новые токены встанут после старой последовательности, и все их позиции окажутся неверными. Шаг со сбросом в 0 случайно верен на первом токене, позиция которого и так 0, — поэтому последовательность из одного токена ошибку не выявляет. В этом и смысл отрицательного контроля: сначала убедиться, что проверка на этих входах ловит известную ошибку, а уже потом доверять маленькому расхождению, которое она показывает для правильного кэша. Сравнивайте с допуском, а не на точное равенство: пошаговое и полное вычисления суммируют в разном порядке и могут отличаться на несколько 1e-16.
""",
    tags=("solution",),
)
