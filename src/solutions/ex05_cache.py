# Exercise set 5 (§5, the KV cache and its position offset).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 5：KV 缓存与位置偏移量", en="# Exercise set 5: the KV cache and the position offset", ru="# Упражнения к разделу 5: KV-кэш и смещение позиции",
   tags=("exercise",))

md(zh="# 练习 5 参考解答：KV 缓存与位置偏移量", en="# Solutions to exercise set 5: the KV cache and the position offset", ru="# Решения упражнений к разделу 5: KV-кэш и смещение позиции",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §5，做法与前几份练习相同：把 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行下面的 `check(...)`。

逐词元生成时，模型把每个头已有位置的键和值存进 KV 缓存，新词元只计算自己的查询、键和值。你要用缓存续写一个右填充的批量，让每一行的新词元落在正确的位置上；再不借助现成函数写出完整的一步，再写一个检验，确认缓存与完整前向传播给出相同的输出。

计分方法与练习 1 相同：一道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数。
""",
    en="""
This notebook goes with §5 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

When generating token by token, the model keeps the keys and values of the positions already seen, per head, in a KV cache, and a new token computes only its own query, key and value. You will continue a right-padded batch through the cache, with every row's new token at the right position, write a whole cached step from scratch, and write a test that checks whether the cache agrees with the full forward pass.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass.
""",
    ru="""
Этот блокнот относится к §5 и устроен так же, как предыдущие: замените строку `raise NotImplementedError  # TODO` своим кодом и запустите `check(...)` под ней.

При пошаговой генерации модель хранит в KV-кэше ключи и значения уже увиденных позиций для каждой головы, а новый токен вычисляет только свои запрос, ключ и значение. Вам предстоит продолжить через кэш батч с дополнением справа так, чтобы новый токен каждой строки встал в правильную позицию, самостоятельно запрограммировать шаг с кэшем целиком и написать проверку того, что кэш даёт те же выходы, что и полный прямой проход.

Баллы начисляются так же, как в упражнениях к разделу 1: упражнение получает свои баллы, когда пройдены все его тесты, открытые и скрытые.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 5 的参考解答页，对应的练习页是 `exercises/zh/ex05_cache.ipynb`。先在那里自己做，再来这里对照。

每道题给出满分答案、答案下方 `check(...)` 的输出（公开测试全部通过）和一段 **关于解答**。这些题练的是 §5：按头存储键和值、用位置偏移量完成一个缓存步（§5.1），逐个词元的结果必须与完整前向传播一致（§5.2），以及右侧填充的批量如何按每行的真实前缀继续生成（§5.7、§1.8）。

笔记本可以直接从头运行。要检验自己的代码，请在练习页运行 `check(...)`；评分时的隐藏测试，这里的答案也都能通过。
""",
    en="""
This page holds the solutions to exercise set 5; the exercises are on `exercises/en/ex05_cache.ipynb`. Try them there first, then compare here.

For every exercise you find an answer that earns full points, the output of the `check(...)` cell below it (every public test passes) and an **About the solution** note. The set practises §5: keys and values stored per head and a cached step at its position offset (§5.1), token-by-token results that must equal the full forward pass (§5.2), and how a right-padded batch continues from each row's real prefix (§5.7, §1.8).

The notebook runs from top to bottom as it is. To test your own code, run `check(...)` on the exercise page; these answers also pass the hidden tests the grader adds.
""",
    ru="""
На этой странице — решения упражнений к разделу 5; сами упражнения — в `exercises/ru/ex05_cache.ipynb`. Сначала решите их там, потом сверьтесь здесь.

Для каждого упражнения здесь есть ответ на полный балл, результат ячейки `check(...)` под ним (все открытые тесты пройдены) и заметка **О решении**. Упражнения отрабатывают §5: ключи и значения, хранимые по головам, и шаг с кэшем в позиции со смещением (§5.1), совпадение генерации по одному токену с полным прямым проходом (§5.2) и продолжение батча с дополнением справа от настоящего префикса каждой строки (§5.7, §1.8).

Блокнот выполняется целиком, как есть. Чтобы проверить свой код, запустите `check(...)` в блокноте с упражнениями; скрытые тесты, которые добавляются при оценивании, эти ответы тоже проходят.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from grading.models import buggy_step, random_model
from lib.data import BOS, IGNORE, build_vocab, collate, encode
"""), tags=("hide-input",))

code("""
model = random_model(7)                 # V=7, C=8, D=8, H=2
ids = np.array([1, 3, 5, 6, 2])
""")

md(
    zh="""
## cache-1：续写右填充的批量（2 分）

`model.new_cache()` 创建一个空缓存；`model.step(token, cache)` 把词元放在位置 `len(cache)`，把它的键和值存进 `cache`，返回它的输出，形状为 `(D,)`。位置表满了（`len(cache)` 等于行数 `C`）时，`model.step` 抛出 `ValueError`，缓存保持原样。

训练用的批量由 `collate` 做右填充：较短的文本后面补上输入 `<eos>`、目标 −100。写出 `continue_padded(model, inputs, targets, tokens)`：`inputs`、`targets` 是 `collate` 返回的 `(B, T)` 数组，`tokens` 的形状为 `(B,)`，`tokens[b]` 是接在第 `b` 行文本后面的词元。对每一行，把这一行的文本送进缓存，再让 `tokens[b]` 走一步；返回这些输出堆成的 `(B, D)` 数组。

哪些位置属于文本，由目标决定：目标不是 −100 的位置（§1.8）。不许调用 `model.forward`：这一题要的是缓存。
""",
    en="""
## cache-1: continuing a right-padded batch (2 points)

`model.new_cache()` creates an empty cache; `model.step(token, cache)` puts the token at position `len(cache)`, stores its key and value in `cache` and returns its output, of shape `(D,)`. When the position table is full (`len(cache)` equals its number of rows `C`), `model.step` raises `ValueError` and leaves the cache as it was.

A training batch is right-padded by `collate`: a shorter text is followed by input `<eos>` with target −100. Write `continue_padded(model, inputs, targets, tokens)`: `inputs` and `targets` are the `(B, T)` arrays `collate` returns, `tokens` has shape `(B,)`, and `tokens[b]` is the token that follows the text of row `b`. For every row, feed that row's text into a cache and then take one step with `tokens[b]`; return the outputs stacked into a `(B, D)` array.

The targets decide which positions belong to the text: those whose target is not −100 (§1.8). Do not call `model.forward`: this exercise is about the cache.
""",
    ru="""
## cache-1: продолжение батча с дополнением справа (2 балла)

`model.new_cache()` создаёт пустой кэш; `model.step(token, cache)` ставит токен в позицию `len(cache)`, сохраняет его ключ и значение в `cache` и возвращает его выход формы `(D,)`. Когда таблица позиций заполнена (`len(cache)` равно числу её строк `C`), `model.step` выбрасывает `ValueError` и оставляет кэш как был.

Обучающий батч `collate` дополняет справа: за коротким текстом идут вход `<eos>` и целевая метка −100. Напишите `continue_padded(model, inputs, targets, tokens)`: `inputs` и `targets` — массивы `(B, T)`, которые возвращает `collate`, `tokens` имеет форму `(B,)`, а `tokens[b]` — токен, который следует за текстом строки `b`. Для каждой строки отправьте её текст в кэш и сделайте один шаг с `tokens[b]`; верните выходы, собранные в массив `(B, D)`.

Какие позиции относятся к тексту, решают целевые метки: это позиции, где метка не равна −100 (§1.8). Вызывать `model.forward` нельзя: упражнение — про кэш.
""",
)

code(reference_cell("continue_padded"))

code("""
check("cache-1", continue_padded)
""")

md(
    zh="""
下面的单元格用 §5.7 的例子对照：第 0 行是填充过的 `雨`，第 1 行是 `春雨`，两行后面都接 `风`。每一行的输出与对“文本加新词元”做完整前向传播的最后一行相比；把整行（连同填充）送进缓存时，第 0 行的误差不为 0。
""",
    en="""
The cell below checks the example of §5.7: row 0 is the padded `雨`, row 1 is `春雨`, and 风 follows both. Each row's output is compared with the last row of a full forward pass over the text followed by the new token; feeding the whole row, padding included, into the cache gives row 0 a nonzero error.
""",
    ru="""
Ячейка ниже проверяет пример из §5.7: строка 0 — дополненный `雨`, строка 1 — `春雨`, и за обеими следует 风. Выход каждой строки сравнивается с последней строкой полного прохода по тексту с новым токеном; если отправить в кэш всю строку вместе с дополнением, у строки 0 появляется ненулевая ошибка.
""",
)

code("""
vocab = build_vocab(["春雨风"])
inputs, targets = collate(["雨", "春雨"], vocab)
wind = vocab.index("风")
ours = continue_padded(model, inputs, targets, np.array([wind, wind]))
full = [model.forward(np.array([BOS, *encode(text, vocab), wind]))[-1]
        for text in ("雨", "春雨")]
whole_row = model.new_cache()
for token in inputs[0]:
    model.step(int(token), whole_row)
padded_error = float(np.abs(model.step(wind, whole_row) - full[0]).max())
print(inputs.tolist(), targets.tolist())
print([float(np.abs(ours[b] - full[b]).max()) < 1e-12 for b in range(2)],
      padded_error > 1e-3)
assert (
    np.allclose(ours, np.stack(full), atol=1e-12) and padded_error > 1e-3
), needs_exercise("cache-1")
""")

md(
    zh="""
**解答说明。** 关键在于每一行的真实长度 `n` 不同：第 `b` 行的文本占位置 `0 … n−1`，`n` 是目标不为 −100 的个数，新词元必须落在位置 `n`，而不是批量长度 `T`。把整行送进缓存，短文本的新词元就会落在 `T`，还会读到填充的 `<eos>`：长度都对，输出却错了。每一行都要有自己的缓存，因为缓存记的是一条序列的历史；所有行共用一个缓存，后面的行会读到前面各行的键和值。最后一种情况：真实前缀已经有 `C` 个位置时，位置表里没有新词元的那一行，`model.step` 抛出 `ValueError`，我们的函数也原样抛出，不悄悄截断。
""",
    en="""
**About the solution.** The point is that every row has its own real length `n`: the text of row `b` occupies positions `0 … n−1`, where `n` is the number of targets that are not −100, so the new token must land at position `n`, not at the batch length `T`. Feeding the whole row into the cache puts a short text's new token at `T` and lets it read the padding `<eos>`: every length is right and the output is wrong. Each row needs a cache of its own, because a cache holds the history of one sequence; with one cache shared by all rows, later rows would read the keys and values of earlier ones. Finally, when the real prefix already has `C` positions, the position table has no row for the new token: `model.step` raises `ValueError`, and our function passes it on instead of truncating anything silently.
""",
    ru="""
**О решении.** Главное — у каждой строки своя настоящая длина `n`: текст строки `b` занимает позиции `0 … n−1`, где `n` — число целевых меток, не равных −100, и новый токен должен встать в позицию `n`, а не в позицию, равную длине батча `T`. Если отправить в кэш всю строку, новый токен короткого текста окажется в позиции `T` и прочитает `<eos>` дополнения: все длины правильные, а выход неверный. Каждой строке нужен свой кэш, потому что кэш хранит историю одной последовательности; с одним кэшем на все строки следующие строки читали бы ключи и значения предыдущих. Наконец, если настоящий префикс уже занимает `C` позиций, в таблице позиций нет строки для нового токена: `model.step` выбрасывает `ValueError`, и наша функция передаёт эту ошибку дальше, ничего молча не обрезая.
""",
    tags=("solution",),
)

md(
    zh="""
## cache-2：从零写一个缓存步骤（3 分）

现在不用 `model.step`，只用数组写出一步。`attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`：

* `x`：新词元的输入向量，形状 `(D,)`，位置已经加好；
* `keys`、`values`：之前 `n` 个位置的键和值，形状 `(H, n, d)`，`n` 可以是 0；
* 返回 `(output, keys, values)`：输出形状 `(D,)`，以及加上新位置后的 `(H, n+1, d)` 键和值。

步骤：投影得到查询、键、值并拆成 `H` 个头；把新的键和值接到缓存末尾；每个头用 `1/√d` 缩放的点积分数，在全部 `n+1` 个位置上做 softmax；合并各头，乘 `w_o`。缓存里都是过去和当前的位置，所以这里不需要施加因果掩码。
""",
    en="""
## cache-2: a cached step from scratch (3 points)

Now write one step with arrays only, without `model.step`. `attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`:

* `x`: the input vector of the new token, shape `(D,)`, position already added;
* `keys`, `values`: keys and values of the `n` earlier positions, shape `(H, n, d)`; `n` may be 0;
* returns `(output, keys, values)`: the output of shape `(D,)` and the keys and values with the new position appended, `(H, n+1, d)`.

Steps: project to query, key and value and split them into `H` heads; append the new key and value at the end of the cache; in every head, take a softmax of the dot-product scores scaled by `1/√d` over all `n+1` positions; merge the heads and multiply by `w_o`. Everything in the cache is past or present, so no causal mask needs to be applied here.
""",
    ru="""
## cache-2: шаг с кэшем без готовых функций (3 балла)

Теперь напишите один шаг только на массивах, без `model.step`. `attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`:

* `x` — входной вектор нового токена формы `(D,)`, позиция уже прибавлена;
* `keys`, `values` — ключи и значения `n` предыдущих позиций формы `(H, n, d)`; `n` может быть 0;
* возвращает `(output, keys, values)`: выход формы `(D,)` и ключи и значения с добавленной новой позицией, `(H, n+1, d)`.

Шаги: вычислите проекции в запрос, ключ и значение и разбейте их на `H` голов; допишите новые ключ и значение в конец кэша; в каждой голове возьмите softmax по всем `n+1` позициям от оценок — скалярных произведений, умноженных на `1/√d`; склейте головы и умножьте результат на `w_o`. В кэше только прошлые и текущая позиции, поэтому причинную маску здесь применять не нужно.
""",
)

code(reference_cell("attention_step"))

code("""
check("cache-2", attention_step)
""")

code("""
H, d = model.n_heads, model.width // model.n_heads
keys = values = np.zeros((H, 0, d))
outputs = []
for t, token in enumerate(ids):
    x = model.embed(np.array([token]), offset=t)[0]  #zh (D,)，位于位置 t #en (D,) at position t #ru (D,) в позиции t
    out, keys, values = attention_step(
        x, keys, values, model.w_q, model.w_k, model.w_v, model.w_o, H)
    outputs.append(out)
print(keys.shape,
      np.abs(np.stack(outputs) - model.forward(ids)).max() < 1e-12)
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
## cache-3：缓存与完整前向传播的等价检验（2 分）

写出 `cache_error(forward, step, new_cache, ids)`：

* `forward(ids)` 一次算出全部输出 `(T, D)`；
* `new_cache()` 返回一个空缓存；`step(token, cache)` 处理一个词元（`int`）并返回它的输出 `(D,)`；
* 从一个新的空缓存开始，逐个词元调用 `step`，把输出叠成 `(T, D)` 的数组，返回它与完整输出之差的最大绝对值，类型为 `float`。

正确的缓存得到舍入误差量级的数。下面的单元格还会用一个位置总被重置为 0 的步骤来做阴性对照：检验必须能看出它错了。想一想：为什么只有一个词元的序列看不出这个错误？
""",
    en="""
## cache-3: the cache and the full forward pass (2 points)

Write `cache_error(forward, step, new_cache, ids)`:

* `forward(ids)` computes all outputs at once, `(T, D)`;
* `new_cache()` returns an empty cache; `step(token, cache)` takes one token (an `int`) and returns its output `(D,)`;
* starting from a fresh empty cache, call `step` token by token, stack the outputs into an array `(T, D)` and return the largest absolute difference from the full outputs, as a `float`.

A correct cache gives a number of the size of rounding error. The cell below also runs a step whose position is always reset to 0, as a negative control: the test has to see that it is wrong. Think about it: why can a sequence of a single token not reveal this bug?
""",
    ru="""
## cache-3: кэш и полный проход (2 балла)

Напишите `cache_error(forward, step, new_cache, ids)`:

* `forward(ids)` вычисляет все выходы сразу, `(T, D)`;
* `new_cache()` возвращает пустой кэш; `step(token, cache)` обрабатывает один токен (`int`) и возвращает его выход `(D,)`;
* начиная со свежего пустого кэша, вызовите `step` для токенов по очереди, соберите выходы в массив `(T, D)` и верните наибольшее абсолютное отличие от полного прохода в виде `float`.

Правильный кэш даёт число порядка ошибки округления. Ячейка ниже прогоняет ещё и шаг, у которого позиция всегда сбрасывается в 0, — это отрицательный контроль: проверка обязана заметить ошибку. Подумайте, почему последовательность из одного токена эту ошибку не выявит.
""",
)

code(reference_cell("cache_error"))

code("""
check("cache-3", cache_error)
""")

code("""
right = cache_error(model.forward, model.step, model.new_cache, ids)
reset = cache_error(model.forward, buggy_step(model, "reset"),
                    model.new_cache, ids)
reset_one_token = cache_error(model.forward, buggy_step(model, "reset"),
                              model.new_cache, ids[:1])
print(right < 1e-12, round(reset, 6), reset_one_token)
assert right < 1e-12 < reset and reset_one_token == 0.0, needs_exercise(
    "cache-3")
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
