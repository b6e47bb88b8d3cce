# Exercise set 7 (§7, the small decoder trained in NumPy).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md(zh="# 练习 7：反向传播、逐层缓存与泄漏诊断", en="# Exercise set 7: backward passes, the per-layer cache and a leak diagnosis",
   ru="# Упражнения к разделу 7: обратные проходы, послойный кэш и диагностика утечки",
   tags=("exercise",))

md(zh="# 练习 7 参考解答：反向传播、逐层缓存与泄漏诊断",
   en="# Solutions to exercise set 7: backward passes, the per-layer cache and a leak diagnosis",
   ru="# Решения упражнений к разделу 7: обратные проходы, послойный кэш и диагностика утечки",
   tags=("solution",))

md(
    zh="""
本笔记本配合 §7，做法与前面的练习相同：把 `raise NotImplementedError  # TODO` 那一行换成你的代码，再运行它下面的 `check(...)`。共四题：掩码 softmax 的反向传播、层归一化的反向传播（并用中心差分检验它）、解码器带逐层 KV 缓存的一步，以及诊断一个交到你手里的模型是否泄漏未来信息。

`lib.layers` 里的 `masked_softmax_backward`、`layer_norm_backward`，以及解码器的 `model.step`、`model.block_step`，都是参考实现，请不要直接调用它们；§7.1 和前几节的其他构件，例如 `layer_norm_forward`、`mlp_forward`、`causal_attention`，都可以用。

计分方法与练习 1 相同：一道题的全部测试（公开测试和隐藏测试）都通过，才得到这道题的分数。
""",
    en="""
This notebook goes with §7 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` below it. There are four exercises: the backward pass of the masked softmax, the backward pass of layer normalisation (checked with central differences), one step of the decoder with a KV cache in every layer, and the diagnosis of a model handed over to you that may leak the future.

`masked_softmax_backward` and `layer_norm_backward` in `lib.layers`, and the decoder's `model.step` and `model.block_step`, are the reference versions; do not call them. The other building blocks of §7.1 and the earlier sections, such as `layer_norm_forward`, `mlp_forward` and `causal_attention`, are yours to use.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass.
""",
    ru="""
Этот блокнот относится к §7 и устроен как упражнения к предыдущим разделам: замените строку `raise NotImplementedError  # TODO` своим кодом и запустите `check(...)` под ней. Упражнений четыре: обратный проход маскированного softmax, обратный проход нормализации слоя (с проверкой центральными разностями), один шаг декодера с KV-кэшем в каждом слое и диагностика переданной вам модели, в которой, возможно, есть утечка информации из будущего.

`masked_softmax_backward` и `layer_norm_backward` из `lib.layers`, а также методы декодера `model.step` и `model.block_step` — эталонные версии; не вызывайте их. Остальные составные части из §7.1 и предыдущих разделов, например `layer_norm_forward`, `mlp_forward` и `causal_attention`, использовать можно.

Баллы начисляются так же, как в упражнениях к разделу 1: упражнение получает свои баллы, когда пройдены все его тесты, открытые и скрытые.
""",
    tags=("exercise",),
)

# The solved notebook's introduction: what the page shows and where the exercises are.
md(
    zh="""
这是练习 7 的参考解答页，对应的练习页是 `exercises/zh/ex07_decoder.ipynb`。先在那里自己做，再来这里对照。

四道题各给出满分答案、答案下方 `check(...)` 的输出（公开测试全部通过）和一段 **关于解答**。这些题练的是 §7：掩码 softmax 和层归一化的反向传播，以及用中心差分做的梯度检验（§7.1），解码器每一层各有一个 KV 缓存时的一步生成（§7.5），以及用 §4 的扰动检验和阴性对照，诊断一个只拿到权重的模型是否泄漏未来（§7.3）。

笔记本可以直接从头运行。要检验自己的代码，请在练习页运行 `check(...)`；评分时的隐藏测试，这里的答案也都能通过。
""",
    en="""
This page holds the solutions to exercise set 7; the exercises are on `exercises/en/ex07_decoder.ipynb`. Try them there first, then compare here.

For each of the four exercises you find an answer that earns full points, the output of the `check(...)` cell below it (every public test passes) and an **About the solution** note. The set practises §7: the backward passes of the masked softmax and of layer normalisation, with a gradient check by central differences (§7.1), one generation step of the decoder with a KV cache in every layer (§7.5), and the diagnosis of a model handed over as weights, with §4's perturbation test and its negative control (§7.3).

The notebook runs from top to bottom as it is. To test your own code, run `check(...)` on the exercise page; these answers also pass the hidden tests the grader adds.
""",
    ru="""
На этой странице — решения упражнений к разделу 7; сами упражнения — в `exercises/ru/ex07_decoder.ipynb`. Сначала решите их там, потом сверьтесь здесь.

Для каждого из четырёх упражнений здесь есть ответ на полный балл, результат ячейки `check(...)` под ним (все открытые тесты пройдены) и заметка **О решении**. Упражнения отрабатывают §7: обратные проходы маскированного softmax и нормализации слоя с проверкой градиента центральными разностями (§7.1), один шаг генерации декодера с KV-кэшем в каждом слое (§7.5) и диагностику модели, от которой есть только веса, с помощью проверки возмущением из §4 и её отрицательного контроля (§7.3).

Блокнот выполняется целиком, как есть. Чтобы проверить свой код, запустите `check(...)` в блокноте с упражнениями; скрытые тесты, которые добавляются при оценивании, эти ответы тоже проходят.
""",
    tags=("solution",),
)

md(**INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check
from grading import models as m
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
from lib.data import build_vocab, collate, decode
from lib.layers import numerical_gradient, relative_error
"""), tags=("hide-input",))

md(
    zh="""
## dec-1：掩码 softmax 的反向传播（1 分）

`weights = masked_softmax(scores, allowed)` 在最后一个轴上、只在许可集合里做 softmax。已知上游梯度 `d_weights`（损失对 `weights` 的梯度）和 `weights` 本身，写出 `masked_softmax_backward(d_weights, weights)`，返回损失对 `scores` 的梯度，形状与 `weights` 相同，dtype 也相同。

对每一行，$\\partial f/\\partial s_j = w_j\\,\\big(g_j - \\sum_k w_k g_k\\big)$。不需要 `allowed`：被禁止的位置 $w_j = 0$，它们的梯度自然是 0，而且必须**恰好**是 0。两个数组形状不同时抛出 `ValueError`。
""",
    en="""
## dec-1: the backward pass of the masked softmax (1 point)

`weights = masked_softmax(scores, allowed)` takes the softmax along the last axis over the allowed set only. Given the upstream gradient `d_weights` (the gradient of the loss with respect to `weights`) and `weights` itself, write `masked_softmax_backward(d_weights, weights)`, returning the gradient of the loss with respect to `scores`, of the shape and dtype of `weights`.

For each row, $\\partial f/\\partial s_j = w_j\\,\\big(g_j - \\sum_k w_k g_k\\big)$. `allowed` is not needed: a forbidden entry has $w_j = 0$, so its gradient comes out 0, and it must be **exactly** 0. Raise `ValueError` when the two arrays differ in shape.
""",
    ru="""
## dec-1: обратный проход маскированного softmax (1 балл)

`weights = masked_softmax(scores, allowed)` берёт softmax по последней оси только по множеству разрешённых позиций. Зная градиент по выходу `d_weights` (градиент функции потерь по `weights`) и сами `weights`, напишите `masked_softmax_backward(d_weights, weights)`, которая возвращает градиент функции потерь по `scores` той же формы и того же dtype, что и `weights`.

Для каждой строки $\\partial f/\\partial s_j = w_j\\,\\big(g_j - \\sum_k w_k g_k\\big)$. `allowed` не нужен: у запрещённой позиции $w_j = 0$, поэтому её градиент получается нулевым — и должен быть **в точности** нулём. Если формы двух массивов различаются, выбросьте `ValueError`.
""",
)

code("""
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    # BEGIN SOLUTION
    if d_weights.shape != weights.shape:
        raise ValueError(
            f"d_weights {d_weights.shape} and weights {weights.shape} "
            "must have the same shape"
        )
    # (..., 1): sum_k w_k g_k
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (d_weights - along_row)  # (..., Tk)
    # END SOLUTION
""")

code("""
check("dec-1", masked_softmax_backward)
""")

code("""
rng = np.random.default_rng(0)
# (Tq, Tk)
scores, upstream = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
allowed = ~causal_future(3, 5)
analytic = masked_softmax_backward(
    upstream, masked_softmax(scores, allowed))
numeric = numerical_gradient(
    lambda: np.sum(upstream * masked_softmax(scores, allowed)), scores,
    eps=1e-4)
print(relative_error(analytic, numeric) < 1e-7,
      np.all(analytic[~allowed] == 0.0))
""")

md(
    zh="""
**解答说明。** softmax 的雅可比矩阵是 $\\mathrm{diag}(w) - w w^\\top$，乘上 $g$ 就得到 $w \\odot (g - w^\\top g)$：不必把矩阵建出来，每行一个点积就够了。因为因子 $w_j$ 在前，被禁止的位置梯度恰好为 0：掩码不仅挡住了前向传播中的读取，也挡住了反向传播中的梯度。上面的单元格用中心差分核对了结果（相对误差小于 $10^{-7}$）。
""",
    en="""
**About the solution.** The Jacobian of the softmax is $\\mathrm{diag}(w) - w w^\\top$; applied to $g$ it gives $w \\odot (g - w^\\top g)$. There is no need to build the matrix: one dot product per row is enough. Because the factor $w_j$ comes first, a forbidden entry gets a gradient of exactly 0: the mask blocks the gradient in the backward pass just as it blocks the read in the forward pass. The cell above checks the result against central differences (relative error below $10^{-7}$).
""",
    ru="""
**О решении.** Якобиан softmax равен $\\mathrm{diag}(w) - w w^\\top$; умноженный на $g$, он даёт $w \\odot (g - w^\\top g)$. Строить матрицу не нужно: достаточно одного скалярного произведения на строку. Поскольку впереди стоит множитель $w_j$, запрещённая позиция получает градиент ровно 0: маска перекрывает градиент в обратном проходе так же, как чтение в прямом. Ячейка выше сверяет результат с центральными разностями (относительная ошибка меньше $10^{-7}$).
""",
    tags=("solution",),
)

md(
    zh="""
## dec-2：层归一化的反向传播（2 分）

层归一化把每个位置在自己的 $D$ 个特征上归一化：$\\hat x = (x - \\mu)\\,r$，其中 $r = 1/\\sqrt{\\sigma^2 + \\epsilon}$（总体方差），输出 $\\hat x \\odot \\gamma + \\beta$。写出 `layer_norm_backward(d_out, x, gain, eps=1e-5)`，返回 `(d_x, d_gain, d_bias)`：

* `d_out`、`x` 形状为 `(..., D)`，`gain` 形状为 `(D,)`；偏置不影响梯度，所以不作为参数；
* `d_x = r * (ĝ - mean(ĝ) - x̂ * mean(ĝ * x̂))`，其中 `ĝ = d_out * gain`，均值对 $D$ 个特征取；
* `d_gain` 和 `d_bias` 形状为 `(D,)`，对所有前面的轴（批量和位置）求和；
* 保持输入的 dtype；`gain` 的宽度不是 $D$ 时抛出 `ValueError`。

写完后，下面的单元格用中心差分检验全部三个梯度。
""",
    en="""
## dec-2: the backward pass of layer normalisation (2 points)

Layer normalisation normalises every position over its own $D$ features: $\\hat x = (x - \\mu)\\,r$ with $r = 1/\\sqrt{\\sigma^2 + \\epsilon}$ (population variance), output $\\hat x \\odot \\gamma + \\beta$. Write `layer_norm_backward(d_out, x, gain, eps=1e-5)`, returning `(d_x, d_gain, d_bias)`:

* `d_out` and `x` have shape `(..., D)`, `gain` has shape `(D,)`; the bias plays no part in the gradients, so it is not an argument;
* `d_x = r * (ĝ - mean(ĝ) - x̂ * mean(ĝ * x̂))` with `ĝ = d_out * gain`, the means taken over the $D$ features;
* `d_gain` and `d_bias` have shape `(D,)`, summed over every leading axis (batch and positions);
* keep the input's dtype; raise `ValueError` when the width of `gain` is not $D$.

Once it is written, the cell below checks all three gradients with central differences.
""",
    ru="""
## dec-2: обратный проход нормализации слоя (2 балла)

Нормализация слоя нормализует каждую позицию по её собственным $D$ признакам: $\\hat x = (x - \\mu)\\,r$, где $r = 1/\\sqrt{\\sigma^2 + \\epsilon}$ (дисперсия считается с делением на $D$, без поправки Бесселя), выход $\\hat x \\odot \\gamma + \\beta$. Напишите `layer_norm_backward(d_out, x, gain, eps=1e-5)`, которая возвращает `(d_x, d_gain, d_bias)`:

* `d_out` и `x` имеют форму `(..., D)`, `gain` — форму `(D,)`; свободный член на градиенты не влияет, поэтому аргументом не передаётся;
* `d_x = r * (ĝ - mean(ĝ) - x̂ * mean(ĝ * x̂))`, где `ĝ = d_out * gain`, а средние берутся по $D$ признакам;
* `d_gain` и `d_bias` имеют форму `(D,)` и суммируются по всем предшествующим осям (батч и позиции);
* dtype входа сохраняется; если ширина `gain` не равна $D$, выбросьте `ValueError`.

Когда функция готова, ячейка ниже проверяет все три градиента центральными разностями.
""",
)

code(reference_cell("layer_norm_backward"))

code("""
check("dec-2", layer_norm_backward)
""")

code("""
rng = np.random.default_rng(1)
x, gain, bias = (2 * rng.normal(size=(2, 3, 6)) + 1, rng.normal(size=6),
                 rng.normal(size=6))
upstream = rng.normal(size=(2, 3, 6))  #zh f = sum(upstream * LN(x)) #en f = sum(upstream * LN(x)) #ru f = sum(upstream * LN(x))

def f():
    return np.sum(upstream * layers.layer_norm_forward(x, gain, bias)[0])

d_x, d_gain, d_bias = layer_norm_backward(upstream, x, gain)
errors = [relative_error(d_x, numerical_gradient(f, x, eps=1e-4)),
          relative_error(d_gain, numerical_gradient(f, gain, eps=1e-4)),
          relative_error(d_bias, numerical_gradient(f, bias, eps=1e-4))]
print([e < 1e-7 for e in errors])
""")

md(
    zh="""
**解答说明。** 第 $t$ 行的均值和方差只取自第 $t$ 行，所以 $\\partial \\hat x_t / \\partial x_s = 0$（$s \\ne t$）：层归一化不跨位置，反向传播也不跨位置，这正是它能放进因果模型的原因（§4）。一行之内，$x$ 的每个分量都通过 $\\mu$ 和 $\\sigma^2$ 影响全部 $D$ 个输出，于是有那两个均值项；去掉它们就是把 $\\mu$、$\\sigma$ 当成常数的常见错误，中心差分会立刻发现。`d_gain` 和 `d_bias` 要对所有批量行和位置求和，因为同一组参数用在了每个位置上。
""",
    en="""
**About the solution.** The mean and variance of row $t$ come from row $t$ alone, so $\\partial \\hat x_t / \\partial x_s = 0$ for $s \\ne t$: layer normalisation does not mix positions, neither forward nor backward, which is why it belongs in a causal model (§4). Within a row every entry of $x$ reaches all $D$ outputs through $\\mu$ and $\\sigma^2$; hence the two mean terms. Dropping them, which amounts to treating $\\mu$ and $\\sigma$ as constants, is the usual mistake, and the central differences catch it at once. `d_gain` and `d_bias` sum over every batch row and position, because the same parameters act at every position.
""",
    ru="""
**О решении.** Среднее и дисперсия строки $t$ берутся только из строки $t$, поэтому $\\partial \\hat x_t / \\partial x_s = 0$ при $s \\ne t$: нормализация слоя не смешивает позиции ни в прямом, ни в обратном проходе, потому её и можно ставить в причинную модель (§4). Внутри строки каждая компонента $x$ влияет на все $D$ выходов через $\\mu$ и $\\sigma^2$ — отсюда два члена со средними. Если их отбросить, то есть считать $\\mu$ и $\\sigma$ константами, получится типичная ошибка, и центральные разности сразу её поймают. `d_gain` и `d_bias` суммируются по всем строкам батча и позициям, потому что одни и те же параметры действуют в каждой позиции.
""",
    tags=("solution",),
)

md(
    zh="""
## dec-3：逐层 KV 缓存的一步（3 分）

§7 的解码器每一层各有一个 KV 缓存。这里用普通数组写出一步：`decoder_step(model, token, keys, values)`。

* `model` 是一个 `lib.decoder.Decoder`；`model.block(l)` 给出第 `l` 块的参数字典（`ln1.gain`、`ln1.bias`、`w_q`、`w_k`、`w_v`、`w_o`、`ln2.gain`、`ln2.bias`、`w_1`、`b_1`、`w_2`、`b_2`），`model.params` 里有 `token_table`、`position_table`；
* `keys[l]`、`values[l]` 是第 `l` 层已存的 `n` 个位置，形状 `(H, n, d)`；新词元的位置就是 `n`，它的输入向量是 `x = E[token] + P[n]`，形状 `(1, D)`；
* 返回 `(logits, keys, values)`：这个位置的 logits，形状 `(V,)`，以及每层都追加了新位置的键和值（形状 `(H, n+1, d)`），各 $L$ 个。

每一块：`a = LN₁(x)`；`q, k, v = a @ w_q, a @ w_k, a @ w_v`，各 reshape 成 `(H, 1, d)`；把 `k`、`v` 接到**这一层**的缓存末尾；用 `causal_attention` 让新查询读取这一层的全部已存位置；合并各头，乘 `w_o`，加回 `x`；再 `x = x + MLP(LN₂(x))`。最后 `model.output_head(x)`（最后的层归一化加上 $W_\\text{head}$）给出 logits。新位置超出位置表时抛出 `ValueError`。
""",
    en="""
## dec-3: one step with a KV cache in every layer (3 points)

The decoder of §7 keeps one KV cache per layer. Here you write one step with plain arrays: `decoder_step(model, token, keys, values)`.

* `model` is a `lib.decoder.Decoder`; `model.block(l)` gives the parameters of block `l` as a dict (`ln1.gain`, `ln1.bias`, `w_q`, `w_k`, `w_v`, `w_o`, `ln2.gain`, `ln2.bias`, `w_1`, `b_1`, `w_2`, `b_2`), and `model.params` holds `token_table` and `position_table`;
* `keys[l]` and `values[l]` are the `n` positions layer `l` has stored, of shape `(H, n, d)`; the new token takes position `n`, and its input vector is `x = E[token] + P[n]`, of shape `(1, D)`;
* return `(logits, keys, values)`: the logits of that position, shape `(V,)`, and the keys and values with the new position appended in every layer (shape `(H, n+1, d)`), $L$ of each.

In every block: `a = LN₁(x)`; `q, k, v = a @ w_q, a @ w_k, a @ w_v`, each reshaped to `(H, 1, d)`; append `k` and `v` to **this layer's** cache; let the new query read every position this layer has stored, with `causal_attention`; merge the heads, multiply by `w_o` and add back to `x`; then `x = x + MLP(LN₂(x))`. Finally `model.output_head(x)` (the final layer normalisation, then $W_\\text{head}$) gives the logits. A new position past the position table is a `ValueError`.
""",
    ru="""
## dec-3: шаг с KV-кэшем в каждом слое (3 балла)

Декодер из §7 хранит по KV-кэшу на каждый слой. Здесь вы напишете один шаг на обычных массивах: `decoder_step(model, token, keys, values)`.

* `model` — это `lib.decoder.Decoder`; `model.block(l)` возвращает параметры блока `l` в виде словаря (`ln1.gain`, `ln1.bias`, `w_q`, `w_k`, `w_v`, `w_o`, `ln2.gain`, `ln2.bias`, `w_1`, `b_1`, `w_2`, `b_2`), а в `model.params` лежат `token_table` и `position_table`;
* `keys[l]` и `values[l]` — это `n` позиций, сохранённых слоем `l`, формы `(H, n, d)`; новый токен занимает позицию `n`, и его входной вектор — `x = E[token] + P[n]` формы `(1, D)`;
* верните `(logits, keys, values)`: логиты этой позиции формы `(V,)` и ключи и значения, к которым в каждом слое добавлена новая позиция (форма `(H, n+1, d)`), — по $L$ штук.

В каждом блоке: `a = LN₁(x)`; `q, k, v = a @ w_q, a @ w_k, a @ w_v`, каждый приводится к форме `(H, 1, d)`; `k` и `v` дописываются в конец кэша **этого слоя**; новый запрос с помощью `causal_attention` читает все позиции, сохранённые этим слоем; головы склеиваются, умножаются на `w_o` и прибавляются к `x`; затем `x = x + MLP(LN₂(x))`. В конце `model.output_head(x)` (последняя нормализация слоя, затем $W_\\text{head}$) даёт логиты. Если новая позиция выходит за пределы таблицы позиций, выбросьте `ValueError`.
""",
)

code(reference_cell("decoder_step"))

code("""
check("dec-3", decoder_step)
""")

code("""
model = m.random_decoder(3, n_layers=3)  # V=10, C=8, D=8, H=2, L=3
ids = np.array([1, 3, 8, 6, 5, 6, 8, 3])
keys = [np.zeros((2, 0, 4)) for _ in range(3)]
values = [np.zeros((2, 0, 4)) for _ in range(3)]
stepped = []
for token in ids:
    logits, keys, values = decoder_step(model, int(token), keys, values)
    stepped.append(logits)
print([k.shape for k in keys],
      np.abs(np.stack(stepped) - model.forward(ids)).max() < 1e-12)
""")

md(
    zh="""
**解答说明。** 新词元在每一层都要先把自己的键和值接到**那一层**的缓存里，再计算注意力，因为查询也要读取自己。第 $\\ell$ 层缓存的是进入第 $\\ell$ 块的残差流算出的键和值，它们与其他层的不同，不能共用，也不能只存第一层（§7.5）。只有一个查询时，`causal_attention` 本来就允许它读取全部键（右下对齐），所以这里不需要另加掩码。上面的循环从空缓存开始逐个送入 8 个词元，结果与完整前向传播一致到 $10^{-12}$。
""",
    en="""
**About the solution.** In every layer the new token appends its own key and value to **that layer's** cache before the attention, because the query reads itself too. Layer $\\ell$ caches keys and values computed from the residual stream entering block $\\ell$; they differ from layer to layer, so the layers cannot share one cache, nor can only the first layer be stored (§7.5). With a single query, `causal_attention` lets it read every key anyway (bottom-right alignment), so no extra mask is needed. The loop above feeds 8 tokens from empty caches and agrees with the full forward pass to $10^{-12}$.
""",
    ru="""
**О решении.** В каждом слое новый токен сначала дописывает свои ключ и значение в кэш **этого слоя** и только потом вычисляет внимание, потому что запрос читает и самого себя. Слой $\\ell$ кэширует ключи и значения, вычисленные из остаточного потока на входе блока $\\ell$; в разных слоях они разные, поэтому один кэш на все слои не годится, как не годится и кэш только первого слоя (§7.5). При единственном запросе `causal_attention` и так разрешает читать все ключи (выравнивание по правому нижнему углу), поэтому дополнительная маска не нужна. Цикл выше подаёт 8 токенов, начиная с пустых кэшей, и совпадает с полным прямым проходом с точностью $10^{-12}$.
""",
    tags=("solution",),
)

md(
    zh="""
## dec-4：诊断交来的模型（3 分）

一位同事在 §7 的镜像语言上训练了一个解码器，把权重交给你，并报告了一个漂亮的损失。下面的单元格用他的运行方式 `forward` 复算了这个损失：它远低于 §7.2 算出的因果模型下界 $\\mathcal{L}^* \\approx 0.6969$——好得令人难以置信。

写出 `diagnose(model, forward, ids, prefix_length, tol=1e-9)`，返回三个判定之一：

* `"leaks"`：把从 `prefix_length` 起的每个词元都换成另一个词元（例如下一个编号，对 $V$ 取模），`forward` 在前缀上的输出变化超过 `tol`；
* `"causal"`：前缀不变，而且阴性对照（同一个模型关掉掩码，`model.forward(t, causal=False)`）在同样的扰动下变化超过 `tol`；
* `"blind"`：前缀不变，对照也不变：这个检验在这组输入上什么也看不见。

`ids` 形状为 `(T,)` 或 `(B, T)`；`prefix_length` 不在 `1 … T−1` 之内时抛出 `ValueError`。
""",
    en="""
## dec-4: diagnosing a model handed over as weights (3 points)

A colleague trained a decoder on the mirror language of §7, handed you the weights and reported a beautiful loss. The cell below recomputes that loss with his way of running the model, `forward`: it is far below the causal bound $\\mathcal{L}^* \\approx 0.6969$ of §7.2, too good to be true.

Write `diagnose(model, forward, ids, prefix_length, tol=1e-9)`, returning one of three verdicts:

* `"leaks"`: when every token from `prefix_length` on is replaced by another one (the next id mod $V$, say), the prefix outputs of `forward` change by more than `tol`;
* `"causal"`: the prefix does not change, and the negative control (the same model with the mask off, `model.forward(t, causal=False)`) changes by more than `tol` under the same perturbation;
* `"blind"`: neither changes: on these inputs the test cannot see anything.

`ids` has shape `(T,)` or `(B, T)`; raise `ValueError` when `prefix_length` is not in `1 … T−1`.
""",
    ru="""
## dec-4: диагностика переданной модели (3 балла)

Коллега обучил декодер на зеркальном языке из §7, передал вам веса и сообщил прекрасное значение потерь. Ячейка ниже пересчитывает эти потери его способом запуска модели, `forward`: они намного ниже границы для причинных моделей $\\mathcal{L}^* \\approx 0{,}6969$ из §7.2 — слишком хорошо, чтобы быть правдой.

Напишите `diagnose(model, forward, ids, prefix_length, tol=1e-9)`, которая возвращает один из трёх вердиктов:

* `"leaks"`: если заменить каждый токен начиная с `prefix_length` другим (например, следующим номером по модулю $V$), выходы `forward` на префиксе меняются больше чем на `tol`;
* `"causal"`: префикс не меняется, а отрицательный контроль (та же модель с отключённой маской, `model.forward(t, causal=False)`) при том же возмущении меняется больше чем на `tol`;
* `"blind"`: не меняется ни то, ни другое — на этих входах проверка ничего не видит.

`ids` имеет форму `(T,)` или `(B, T)`; если `prefix_length` не лежит в `1 … T−1`, выбросьте `ValueError`.
""",
)

code("""
lines = m.training_lines()
vocab = build_vocab(lines)
inputs, targets = collate(lines, vocab)
#zh 交给你的权重
#en the weights you were given
#ru веса, которые вам передали
handed_over = m.handed_over_decoder("unmasked")
#zh 以及它的运行方式
#en and how they are run
#ru и способ их запуска
colleague_forward = m.decoder_forward(handed_over, "unmasked")
#zh 同事报告的损失
#en the loss the colleague reported
#ru потери, о которых сообщил коллега
claimed = layers.cross_entropy_forward(colleague_forward(inputs), targets)[
    0]
print(round(claimed, 4), claimed < 0.6969)
""")

code(reference_cell("diagnose"))

code("""
check("dec-4", diagnose)
""")

code("""
line = np.array([1, 3, 8, 6, 5, 6, 8, 3])  # <bos> a 春 д | д 春 a
print(decode(line, vocab))
deaf = m.deaf_decoder(0)  #zh 每一块的 W_O = 0 #en W_O = 0 in every block #ru W_O = 0 в каждом блоке
print(diagnose(handed_over, colleague_forward, line, 4),
      diagnose(handed_over, handed_over.forward, line, 4),
      diagnose(deaf, deaf.forward, line, 4))
print(round(handed_over.loss(inputs, targets), 4),
      round(float(np.log(len(vocab))), 4))
""")

md(
    zh="""
**解答说明。** 扰动必须改动**每一个**未来位置，否则检验查的未来比它声称的少；取“下一个编号”就保证了这一点。同事的运行方式关掉了掩码，于是判定为 `"leaks"`：他的损失之所以低于任何因果模型的下界，是因为位置 $t$ 直接读到了答案。同一组权重换成带掩码的 `model.forward` 来运行，检验给出 `"causal"`：扰动检验判断的是**这次计算**，而不是训练过程。但这个作弊训练出来的模型在带掩码运行时损失约 2.4327，比随机猜测的 $\\ln 10 \\approx 2.3026$ 还差，它在训练中从没学会预测。最后一个例子里，模型的注意力什么也不写，连阴性对照都看不到变化，判定是 `"blind"`：此时“前缀不变”说明不了任何问题，只能换输入或换检验。
""",
    en="""
**About the solution.** The perturbation must change **every** future position, or the test checks less of the future than it claims; "the next id" guarantees this. The colleague's way of running the model has the mask off, so the verdict is `"leaks"`: his loss is below the bound of every causal model because position $t$ reads the answer directly. Run the same weights with the masked `model.forward` and the test says `"causal"`: a perturbation test judges **this computation**, not the training. Yet, run with the mask, the model trained by cheating has a loss of about 2.4327, worse than the chance level $\\ln 10 \\approx 2.3026$: in training it never learned to predict. In the last example the model's attention writes nothing, so even the negative control sees no change and the verdict is `"blind"`: "the prefix did not change" proves nothing there, and only other inputs or another test can help.
""",
    ru="""
**О решении.** Возмущение должно менять **каждую** будущую позицию, иначе проверка затрагивает меньше будущего, чем утверждает; «следующий номер» это гарантирует. Способ запуска, которым пользуется коллега, отключает маску, поэтому вердикт — `"leaks"`: его потери ниже границы для любой причинной модели потому, что позиция $t$ прямо читает ответ. Если запустить те же веса через `model.forward` с маской, проверка скажет `"causal"`: проверка возмущением судит **это вычисление**, а не обучение. Но модель, обученная списыванием, при запуске с маской даёт потери около 2,4327 — хуже уровня случайного угадывания $\\ln 10 \\approx 2{,}3026$: при обучении она так и не научилась предсказывать. В последнем примере внимание модели ничего не записывает, и даже отрицательный контроль не видит изменений — вердикт `"blind"`: здесь «префикс не изменился» ничего не доказывает, помочь могут только другие входы или другая проверка.
""",
    tags=("solution",),
)
