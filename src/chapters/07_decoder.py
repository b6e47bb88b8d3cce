# §7 Putting it together: a small decoder of L pre-LN blocks trained in NumPy on a
# pattern language; every backward checked; the model trained without the mask
# cheats; causality and the per-layer cache checked on the whole model.
# Trilingual source: see tools/nbsource.py.

md(
    zh=r"""
# 7 综合：用 NumPy 训练一个小解码器

§1～§6 把每个部件单独验证了一遍：掩码在 softmax 之前施加，多头拆分后经 $W_O$ 合并，位置表有自己的反向传播，KV 缓存需要位置偏移量。但那些验证用的都是手工设定的参数，而且模型只有一层。还有两个问题没有回答：

1. **掩码到底有多重要？** 如果训练时忘了掩码，会发生什么？答案是：训练看起来非常成功，损失几乎降到 0，可模型学会的只是“照抄答案”，一旦要它自己生成，它就无从下手。
2. **这些结论对多层模型还成立吗？** 一个由 $L$ 层组成、经过训练的完整模型，必须和单层模型一样通过因果检查和缓存检查。

本节把前面的部件装配成一个真正的解码器，在 NumPy 中训练它，并逐一检验上面的说法：

* §7.1 模型，以及每个构件的反向传播与中心差分的对比；
* §7.2 一门规则清楚的小“镜像语言”，以及在它上面的训练；
* §7.3 同一个模型去掉掩码训练：它如何作弊，作弊的代价是什么；
* §7.4 整个模型的因果性：带阴性对照的未来扰动检验，以及对层数的归纳；
* §7.5 每一层各自的 KV 缓存；
* §7.6 这个模型还缺什么。
""",
    en=r"""
# 7 Putting it together: a small decoder trained in NumPy

§1–§6 checked each part on its own: the mask applied before softmax, the split into heads and the merge through $W_O$, the position table and its backward pass, the KV cache with its position offset. All of it used hand-chosen parameters and a single layer. Two questions remain open:

1. **How much does the mask matter?** What happens if we forget it during training? Training looks like a great success: the loss falls almost to 0. But what the model has learned is to copy the answer, and as soon as it must generate on its own, it is lost.
2. **Does it all still hold for a model of several layers?** A trained model of $L$ layers must pass the same causality and cache checks as the one-layer model.

This section assembles the parts into a real decoder, trains it in NumPy, and checks each of these claims:

* §7.1 the model, and the backward pass of every building block against central differences;
* §7.2 a small "mirror language" with a rule anyone can state, and training on it;
* §7.3 the same model trained without the mask: how it cheats and what the cheating costs;
* §7.4 causality of the whole model: the future-perturbation test with its negative control, and induction over layers;
* §7.5 a KV cache for every layer;
* §7.6 what this model still lacks.
""",
    ru=r"""
# 7 Всё вместе: небольшой декодер, обученный на NumPy

В §1–§6 каждая часть проверялась по отдельности: маска применяется до softmax, головы разбиваются и склеиваются через $W_O$, у таблицы позиций свой обратный проход, KV-кэшу нужно смещение позиции. Но везде параметры были заданы вручную, а слой был один. Остались два вопроса:

1. **Насколько важна маска?** Что будет, если забыть её при обучении? Обучение покажется блестящим: потери упадут почти до нуля. Но модель научится лишь списывать ответ и, когда ей придётся порождать текст самой, окажется беспомощной.
2. **Верно ли всё это для многослойной модели?** Обученная модель из $L$ слоёв должна проходить те же проверки причинности и кэша, что и однослойная.

В этом разделе мы соберём из частей настоящий декодер, обучим его на NumPy и проверим каждое из этих утверждений:

* §7.1 модель и обратный проход каждого её блока в сравнении с центральными разностями;
* §7.2 маленький «зеркальный язык» с правилом, которое легко сформулировать, и обучение на нём;
* §7.3 та же модель, обученная без маски: как она списывает и чего это стоит;
* §7.4 причинность всей модели: проверка возмущением будущего с отрицательным контролем и индукция по слоям;
* §7.5 KV-кэш для каждого слоя;
* §7.6 чего этой модели ещё не хватает.
""",
)

code(r"""
import time
from collections import Counter, defaultdict

import numpy as np
import matplotlib.pyplot as plt

from lib import checks, layers
from lib.attention import causal_future, masked_softmax
from lib.data import BOS, EOS, IGNORE, build_vocab, collate, decode, encode
from lib.decoder import (Adam, Decoder, is_mirror_line, mirror_language,
                         pick_token, read_mirror_corpus, train)
from lib.layers import numerical_gradient, numerical_partial, relative_error
from lib.positions import embed, embed_backward
""")

md(
    zh=r"""
## 7.1 模型与逐层梯度检验

解码器由 $L$ 个残差块组成，每块都采用**前置层归一化**（pre-LN）。设 $x^{(0)}_t = E[x_t] + P[t]$ 是 §3 的输入向量，块 $\ell$ 把 $x$ 更新两次，每次都先做层归一化、送进一个子层，再把子层的输出加回 $x$：

$$
x \leftarrow x + \mathrm{Attn}(\mathrm{LN}_1(x)), \qquad x \leftarrow x + \mathrm{MLP}(\mathrm{LN}_2(x)),
$$

其中 Attn 是 §2 的因果多头注意力（带 $W_O$，没有偏置），MLP 是逐位置的两层网络 $\mathrm{GELU}(x W_1 + b_1) W_2 + b_2$。$L$ 个块之后再做一次层归一化，最后由输出层 $W_\text{head}$（形状 $(D, V)$）把每个位置映射成 $V$ 个 logits，即下一个词元的未归一化对数概率。这条路径上流动的 $x$ 称为**残差流**。

所有层都在 `lib/layers.py` 里，写法仿照 llm.c：每个 `*_forward` 旁边紧挨着它的 `*_backward`。前向函数返回输出和 `saved`（反向传播要用的中间结果），反向函数接收上游梯度 `d_out` 和 `saved`，返回输入与参数的梯度。注意 `saved` 不是 §5 的 KV 缓存：它只为这一次反向传播保存，用完即弃。`lib.decoder.Decoder` 把这些层串起来，所有参数放在一个字典 `params` 里，`backward` 返回键相同的梯度字典。

下面用随机参数建一个小模型：$V=10$、$C=8$、$D=16$、$H=2$、$L=2$，共 6912 个参数。
""",
    en=r"""
## 7.1 The model, and a gradient check for every layer

The decoder is a stack of $L$ **pre-LN** residual blocks. Let $x^{(0)}_t = E[x_t] + P[t]$ be the input vector of §3; block $\ell$ updates $x$ twice, each time normalising it, passing it through a sublayer and adding the result back:

$$
x \leftarrow x + \mathrm{Attn}(\mathrm{LN}_1(x)), \qquad x \leftarrow x + \mathrm{MLP}(\mathrm{LN}_2(x)),
$$

where Attn is the causal multi-head attention of §2 (with $W_O$, no biases) and MLP is the position-wise two-layer network $\mathrm{GELU}(x W_1 + b_1) W_2 + b_2$. After the $L$ blocks comes one more layer normalisation, and finally the output layer $W_\text{head}$ of shape $(D, V)$ maps every position to $V$ logits, the unnormalised log-probabilities of the next token. The vector $x$ that flows along this path is called the **residual stream**.

All layers live in `lib/layers.py`, written in the manner of llm.c: every `*_forward` sits next to its `*_backward`. A forward function returns its output and `saved`, the intermediate results its backward pass needs; the backward function takes the upstream gradient `d_out` and `saved` and returns the gradients of the inputs and parameters. `saved` is not the KV cache of §5: it is kept for this one backward pass and then thrown away. `lib.decoder.Decoder` chains the layers; all parameters sit in one dict, `params`, and `backward` returns a dict of gradients with the same keys.

Below we build a small model with random parameters: $V=10$, $C=8$, $D=16$, $H=2$, $L=2$, 6912 parameters in all.
""",
    ru=r"""
## 7.1 Модель и проверка градиента каждого слоя

Декодер — это стопка из $L$ остаточных блоков с **предварительной нормализацией слоя (pre-LN)**. Пусть $x^{(0)}_t = E[x_t] + P[t]$ — входной вектор из §3; блок $\ell$ дважды обновляет $x$: нормализует его, пропускает через подслой и прибавляет результат к самому $x$:

$$
x \leftarrow x + \mathrm{Attn}(\mathrm{LN}_1(x)), \qquad x \leftarrow x + \mathrm{MLP}(\mathrm{LN}_2(x)),
$$

где Attn — причинное многоголовое внимание из §2 (с $W_O$, без свободных членов), а MLP — позиционный MLP, двухслойная сеть $\mathrm{GELU}(x W_1 + b_1) W_2 + b_2$, применяемая к каждой позиции отдельно. После $L$ блоков идёт ещё одна нормализация слоя, и, наконец, выходной слой $W_\text{head}$ формы $(D, V)$ переводит каждую позицию в $V$ логитов — ненормированных логарифмов вероятностей следующего токена. Вектор $x$, который течёт по этому пути, называют **остаточным потоком**.

Все слои лежат в `lib/layers.py` и написаны в духе llm.c: рядом с каждой `*_forward` стоит её `*_backward`. Функция прямого прохода возвращает выход и `saved` — промежуточные результаты, нужные обратному проходу; функция обратного прохода получает градиент по выходу `d_out` и `saved` и возвращает градиенты по входам и параметрам. `saved` — это не KV-кэш из §5: он хранится ради одного обратного прохода и затем выбрасывается. `lib.decoder.Decoder` связывает слои в цепочку; все параметры лежат в одном словаре `params`, а `backward` возвращает словарь градиентов с теми же ключами.

Построим маленькую модель со случайными параметрами: $V=10$, $C=8$, $D=16$, $H=2$, $L=2$, всего 6912 параметров.
""",
)

code(r"""
model = Decoder.init(vocab_size=10, context_size=8, width=16, n_heads=2,
                     n_layers=2, seed=0)
print(model)
for name, value in model.params.items():
    if not name.startswith("blocks.1."):
        print(name, value.shape)
assert model.parameter_count() == 6912
""")

md(
    zh=r"""
### 怎样检验一个反向传播

对标量函数 $f$ 和参数 $\theta$ 的任一分量，中心差分

$$
\frac{f(\theta + \varepsilon e_i) - f(\theta - \varepsilon e_i)}{2\varepsilon}
$$

与真实偏导数只差 $O(\varepsilon^2)$。为了检验一个层的反向传播，我们取一个随机的上游梯度 $g$，令 $f = \sum g \odot \text{输出}$，那么 $f$ 对输入的梯度正好就是反向传播应当返回的结果。两者之差用**相对误差** $\max|a-n| / \max(\max|a|, \max|n|)$ 衡量，其中 $a$ 是反向传播给出的梯度，$n$ 是中心差分的结果。

$\varepsilon$ 的取值有讲究：太大，截断误差 $O(\varepsilon^2)$ 变大；太小，浮点舍入误差（约 $10^{-16}/\varepsilon$）变大。这里一律用 float64 和 $\varepsilon = 10^{-4}$：误差约为 $10^{-10}$～$10^{-7}$，几乎全部来自截断，因而在任何机器上都给出相同的数量级；而一个写错的反向传播，误差通常在 $10^{-2}$ 以上。下面只打印误差所在的数量级（不小于误差的那个 10 的幂），并断言它小于 $10^{-6}$。
""",
    en=r"""
### How to check a backward pass

For a scalar function $f$ and any entry of a parameter $\theta$, the central difference

$$
\frac{f(\theta + \varepsilon e_i) - f(\theta - \varepsilon e_i)}{2\varepsilon}
$$

differs from the true partial derivative by only $O(\varepsilon^2)$. To check a layer's backward pass we draw a random upstream gradient $g$ and let $f = \sum g \odot \text{output}$; the gradient of $f$ with respect to the inputs is then what the backward pass must return. We measure the gap with the **relative error** $\max|a-n| / \max(\max|a|, \max|n|)$, where $a$ is the gradient from the backward pass and $n$ the central differences.

The choice of $\varepsilon$ matters: too large and the truncation error $O(\varepsilon^2)$ grows; too small and the floating-point rounding error (about $10^{-16}/\varepsilon$) grows. We always use float64 and $\varepsilon = 10^{-4}$: the error is then about $10^{-10}$ to $10^{-7}$, almost all of it truncation, so every machine gives the same order of magnitude, while a wrong backward pass typically gives $10^{-2}$ or more. Below we print only the order of magnitude (the power of ten at or above the error) and assert that it is below $10^{-6}$.
""",
    ru=r"""
### Как проверить обратный проход

Для скалярной функции $f$ и любой компоненты параметра $\theta$ центральная разность

$$
\frac{f(\theta + \varepsilon e_i) - f(\theta - \varepsilon e_i)}{2\varepsilon}
$$

отличается от настоящей частной производной лишь на $O(\varepsilon^2)$. Чтобы проверить обратный проход слоя, возьмём случайный градиент по выходу $g$ и положим $f = \sum g \odot \text{выход}$; тогда градиент $f$ по входам — в точности то, что должен вернуть обратный проход. Расхождение измеряем **относительной ошибкой** $\max|a-n| / \max(\max|a|, \max|n|)$, где $a$ — градиент из обратного прохода, а $n$ — центральные разности.

Значение $\varepsilon$ важно: при слишком большом растёт ошибка усечения $O(\varepsilon^2)$, при слишком маленьком — ошибка округления (около $10^{-16}/\varepsilon$). Мы везде берём float64 и $\varepsilon = 10^{-4}$: ошибка тогда порядка $10^{-10}$–$10^{-7}$ и почти целиком состоит из усечения, поэтому на любой машине порядок получается одинаковым, а неправильный обратный проход обычно даёт $10^{-2}$ и больше. Ниже печатается только порядок ошибки (ближайшая сверху степень десяти), и проверяется, что он меньше $10^{-6}$.
""",
)

code(r"""
rng = np.random.default_rng(0)

def check_backward(forward, backward, *inputs, eps=1e-4):
    #zh f = sum(upstream * 输出)；返回所有输入中最大的相对误差
    #en f = sum(upstream * output); returns the largest relative error over
    #en the inputs
    #ru f = sum(upstream * выход); возвращает наибольшую относительную ошибку
    #ru по всем входам
    out, saved = forward(*inputs)
    upstream = rng.standard_normal(np.shape(out))
    grads = backward(upstream, saved)
    errors = []
    for x, grad in zip(inputs, grads):
        numeric = numerical_gradient(
            lambda: np.sum(upstream * forward(*inputs)[0]), x, eps)
        errors.append(relative_error(grad, numeric))
    return max(errors)

def magnitude(error):
    exponent = np.log10(error)
    #zh 离 10 的幂太近的误差在别的机器上可能落进相邻的数量级
    #en an error too close to a power of ten could fall into the next order on
    #en another machine
    #ru ошибка, слишком близкая к степени десяти, на другой машине могла бы
    #ru попасть в соседний порядок
    assert abs(exponent - round(exponent)) > 0.05
    return f"{10.0 ** np.ceil(exponent):.0e}"
""")

md(
    zh=r"""
**掩码 softmax。** 若 $w = \mathrm{softmax}(s)$ 只在许可集合上取值，则对分数的梯度为 $\partial f / \partial s_j = w_j \big(g_j - \sum_k w_k g_k\big)$。未来位置的权重 $w_j = 0$，所以它的梯度**恰好为 0**：被掩码禁止的分数从未影响输出，也就收不到任何梯度。这里用 3 个查询、5 个键，查询按 §5.1 末尾的方式右下对齐（第 $i$ 个查询位于位置 $5-3+i$）。
""",
    en=r"""
**Masked softmax.** If $w = \mathrm{softmax}(s)$ is taken over the allowed set only, the gradient with respect to the scores is $\partial f / \partial s_j = w_j \big(g_j - \sum_k w_k g_k\big)$. A future position has weight $w_j = 0$, so its gradient is **exactly 0**: a score the mask blocks never reached the output, and it receives no gradient either. We use 3 queries and 5 keys, aligned bottom-right as at the end of §5.1 (query $i$ sits at position $5-3+i$).
""",
    ru=r"""
**Маскированный softmax.** Если $w = \mathrm{softmax}(s)$ берётся только по множеству разрешённых позиций, то градиент по оценкам равен $\partial f / \partial s_j = w_j \big(g_j - \sum_k w_k g_k\big)$. У будущей позиции вес $w_j = 0$, поэтому её градиент **в точности равен 0**: оценка, закрытая маской, никогда не влияла на выход и градиента тоже не получает. Берём 3 запроса и 5 ключей с выравниванием по правому нижнему углу, как в конце §5.1 (запрос $i$ находится в позиции $5-3+i$).
""",
)

code(r"""
scores = rng.standard_normal((2, 3, 5))                   # (B, Tq, Tk)
allowed = ~causal_future(3, 5)                            # (Tq, Tk)

def softmax_forward(s):
    weights = masked_softmax(s, allowed)
    return weights, weights  #zh saved 就是权重本身 #en saved is the weights themselves #ru saved — это сами веса

error = check_backward(softmax_forward,
                       lambda d, w: (layers.masked_softmax_backward(d, w),),
                       scores)
d_scores = layers.masked_softmax_backward(
    rng.standard_normal((2, 3, 5)), masked_softmax(scores, allowed))
print(magnitude(error), float(np.abs(d_scores[:, ~allowed]).max()))
assert error < 1e-6 and np.all(d_scores[:, ~allowed] == 0.0)
""")

md(
    zh=r"""
**因果注意力与多头注意力。** 注意力 $\mathrm{softmax}(QK^\top/\sqrt d)\,V$ 的反向传播依次经过：对 $V$ 的梯度 $w^\top g$，对权重的梯度 $g V^\top$，上面的掩码 softmax，再回到 $Q$ 和 $K$（各乘以 $1/\sqrt d$）。多头注意力在外面再包一层 §2 的拆分、合并和 $W_O$；拆分与合并只是重新排列元素，所以拆分的反向传播就是合并，反之亦然。
""",
    en=r"""
**Causal attention and multi-head attention.** The backward pass of $\mathrm{softmax}(QK^\top/\sqrt d)\,V$ goes through the gradient with respect to $V$, $w^\top g$; the gradient with respect to the weights, $g V^\top$; the masked softmax above; and back to $Q$ and $K$ (each times $1/\sqrt d$). Multi-head attention wraps this in the split, merge and $W_O$ of §2; split and merge only rearrange entries, so the backward pass of the split is the merge, and vice versa.
""",
    ru=r"""
**Причинное и многоголовое внимание.** Обратный проход через $\mathrm{softmax}(QK^\top/\sqrt d)\,V$ идёт так: градиент по $V$ равен $w^\top g$, градиент по весам — $g V^\top$, затем маскированный softmax выше и обратно к $Q$ и $K$ (каждый раз с множителем $1/\sqrt d$). Многоголовое внимание оборачивает это в разбиение, склейку и $W_O$ из §2; разбиение и склейка лишь переставляют элементы, поэтому обратный проход разбиения — это склейка, и наоборот.
""",
)

code(r"""
q, k, v = (rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4)),
           rng.standard_normal((2, 5, 4)))
error = check_backward(layers.causal_attention_forward,
                       layers.causal_attention_backward, q, k, v)
print(magnitude(error))
assert error < 1e-6
""")

code(r"""
x = rng.standard_normal((2, 4, 6))                        # (B, T, D)
w_q, w_k, w_v, w_o = (rng.standard_normal((6, 6)) / np.sqrt(6)
                      for _ in range(4))
error = check_backward(
    lambda *a: layers.multi_head_attention_forward(*a, n_heads=3),
    layers.multi_head_attention_backward, x, w_q, w_k, w_v, w_o)
print(magnitude(error))
assert error < 1e-6
""")

md(
    zh=r"""
**层归一化。** 每个位置在自己的 $D$ 个特征上归一化，再乘以增益、加上偏置：$\hat x = (x - \mu)/\sqrt{\sigma^2 + \epsilon}$，输出 $\hat x \odot \gamma + \beta$。它就是 §4.7 中在每个位置内部（按特征）归一化的 `feature_normalization` 加上两组参数，第 $t$ 行只读第 $t$ 行。反向传播中均值和方差都依赖整行，于是 $\partial f/\partial x = \frac{1}{\sqrt{\sigma^2+\epsilon}}\big(\hat g - \overline{\hat g} - \hat x\,\overline{\hat g \odot \hat x}\big)$，其中 $\hat g = g \odot \gamma$，横线表示对 $D$ 个特征取平均。
""",
    en=r"""
**Layer normalisation.** Each position is normalised over its own $D$ features, then scaled by a gain and shifted by a bias: $\hat x = (x - \mu)/\sqrt{\sigma^2 + \epsilon}$, output $\hat x \odot \gamma + \beta$. It is `feature_normalization` of §4.7, the normalisation within each position (over the features), with two parameter vectors added; row $t$ reads only row $t$. In the backward pass the mean and the variance depend on the whole row, which gives $\partial f/\partial x = \frac{1}{\sqrt{\sigma^2+\epsilon}}\big(\hat g - \overline{\hat g} - \hat x\,\overline{\hat g \odot \hat x}\big)$ with $\hat g = g \odot \gamma$, the bars being means over the $D$ features.
""",
    ru=r"""
**Нормализация слоя.** Каждая позиция нормализуется по своим $D$ признакам, затем умножается на коэффициент, и к ней прибавляется свободный член: $\hat x = (x - \mu)/\sqrt{\sigma^2 + \epsilon}$, выход $\hat x \odot \gamma + \beta$. Это `feature_normalization` из §4.7, нормализация внутри каждой позиции (по признакам), к которой добавлены два вектора параметров; строка $t$ читает только строку $t$. В обратном проходе среднее и дисперсия зависят от всей строки, отсюда $\partial f/\partial x = \frac{1}{\sqrt{\sigma^2+\epsilon}}\big(\hat g - \overline{\hat g} - \hat x\,\overline{\hat g \odot \hat x}\big)$, где $\hat g = g \odot \gamma$, а черта означает среднее по $D$ признакам.
""",
)

code(r"""
gain, bias = 1 + 0.1 * rng.standard_normal(6), 0.1 * rng.standard_normal(6)
error = check_backward(layers.layer_norm_forward,
                       layers.layer_norm_backward, 2 * x + 1, gain, bias)
print(magnitude(error))
assert error < 1e-6
""")

md(
    zh=r"""
**GELU 与逐位置 MLP。** 我们用 GPT-2 的 tanh 形式 $\mathrm{GELU}(x) = \tfrac12 x\big(1 + \tanh(\sqrt{2/\pi}\,(x + 0.044715\,x^3))\big)$，它的导数可以直接写出。MLP 是“线性—GELU—线性”，反向传播按相反的顺序经过这三步。
""",
    en=r"""
**GELU and the position-wise MLP.** We use GPT-2's tanh form, $\mathrm{GELU}(x) = \tfrac12 x\big(1 + \tanh(\sqrt{2/\pi}\,(x + 0.044715\,x^3))\big)$, whose derivative can be written down directly. The MLP is linear, GELU, linear; its backward pass goes through the three steps in reverse order.
""",
    ru=r"""
**GELU и позиционный MLP.** Мы берём tanh-форму из GPT-2, $\mathrm{GELU}(x) = \tfrac12 x\big(1 + \tanh(\sqrt{2/\pi}\,(x + 0{,}044715\,x^3))\big)$; её производную можно выписать явно. MLP — это «линейный слой, GELU, линейный слой», а обратный проход идёт через те же три шага в обратном порядке.
""",
)

code(r"""
error = check_backward(layers.gelu_forward,
                       lambda d, s: (layers.gelu_backward(d, s),), 3 * x)
print(magnitude(error))
assert error < 1e-6
""")

code(r"""
# (D, F), (F,)
w_1, b_1 = rng.standard_normal((6, 12)) / 2, rng.standard_normal(12) / 2
# (F, D), (D,)
w_2, b_2 = rng.standard_normal((12, 6)) / 2, rng.standard_normal(6) / 2
error = check_backward(
    layers.mlp_forward, layers.mlp_backward, x, w_1, b_1, w_2, b_2)
print(magnitude(error))
assert error < 1e-6
""")

md(
    zh=r"""
**嵌入、输出层与交叉熵。** 嵌入的反向传播就是 §3 的散射累加 `embed_backward`，这里原样复用；输出层 $W_\text{head}$ 是一个没有偏置的线性映射。损失是交叉熵：对每个目标取 $-\log \mathrm{softmax}(\text{logits})[\text{目标}]$，再**只对计分的目标**求平均。按 §1 的数据协议，填充位置的目标是 IGNORE（−100），它们既不计入总和，也不计入个数，收到的梯度恰好为 0。对 logits 的梯度是 $(\mathrm{softmax} - \text{one-hot}) / n$，$n$ 是计分目标的个数。
""",
    en=r"""
**Embedding, output layer and cross-entropy.** The embedding's backward pass is the scatter-add `embed_backward` of §3, reused as it is; the output layer $W_\text{head}$ is a linear map without bias. The loss is the cross-entropy: $-\log \mathrm{softmax}(\text{logits})[\text{target}]$ for each target, averaged **over the scored targets only**. Under the data protocol of §1 the targets at padding positions are IGNORE (−100); they count neither in the sum nor in the number of targets, and their gradient is exactly 0. The gradient of the logits is $(\mathrm{softmax} - \text{one-hot}) / n$, where $n$ is the number of scored targets.
""",
    ru=r"""
**Эмбеддинги, выходной слой и перекрёстная энтропия.** Обратный проход эмбеддингов — это накопление по индексам (scatter-add) `embed_backward` из §3, мы берём его без изменений; выходной слой $W_\text{head}$ — линейное отображение без свободного члена. Функция потерь — перекрёстная энтропия: величина $-\log \mathrm{softmax}(\text{logits})[\text{целевая метка}]$, вычисленная для каждой целевой метки и усреднённая **только по учитываемым меткам**. По протоколу данных из §1 в позициях дополнения целевая метка равна IGNORE (−100); такая метка не входит ни в сумму, ни в число меток, и её градиент в точности равен 0. Градиент по логитам равен $(\mathrm{softmax} - \text{one-hot}) / n$, где $n$ — число учитываемых меток.
""",
)

code(r"""
ids = np.array([[1, 3, 4, 5], [1, 6, 2, 2]])               # (B, T)
# (V, D), (C, D)
table_e, table_p = rng.standard_normal((7, 6)), rng.standard_normal((5, 6))
error_embed = check_backward(
    lambda e, p: (embed(ids, e, p), None),
    lambda d, _: embed_backward(d, ids, 7, 5), table_e, table_p)
w_head = rng.standard_normal((6, 7))                       # (D, V)
error_head = check_backward(
    layers.linear_forward, lambda d, s: layers.linear_backward(d, s)[:2], x,
    w_head)
print(error_embed < 1e-8, error_head < 1e-8)
assert error_embed < 1e-8 and error_head < 1e-8
""")

code(r"""
logits = rng.standard_normal((2, 4, 7))                    # (B, T, V)
targets = np.array([[3, 1, 2, IGNORE], [5, 2, IGNORE, IGNORE]])
loss, saved = layers.cross_entropy_forward(logits, targets)
d_logits = layers.cross_entropy_backward(1.0, saved)
numeric = numerical_gradient(
    lambda: layers.cross_entropy_forward(logits, targets)[0], logits,
    eps=1e-4)
scored = int((targets != IGNORE).sum())
print(magnitude(relative_error(d_logits, numeric)), scored,
      float(np.abs(d_logits[targets == IGNORE]).max()))
assert relative_error(d_logits, numeric) < 1e-6 and scored == 5
assert np.all(d_logits[targets == IGNORE] == 0.0)
""")

md(
    zh=r"""
**整个解码器。** 最后检验完整模型：用一个小批量算出全部梯度，再对 8 个参数张量各随机挑一个分量做中心差分。每行输出是参数名、分量位置、反向传播给出的梯度、中心差分的结果，以及相对误差的数量级。挑选时跳过梯度恰好为 0 的分量（例如批量里没有出现的词元所对应的 $E$ 的行），因为那里的相对误差没有意义。这 8 个分量覆盖了两张嵌入表、两个块里的注意力（块 0 的 $W_Q$、块 1 的 $W_O$）、块 0 的层归一化、块 1 的 MLP，以及输出层。
""",
    en=r"""
**The whole decoder.** Finally we check the complete model: compute every gradient on a small batch, then take one random entry from each of 8 parameter arrays and compare it with a central difference. Each printed row is the parameter's name, the entry, the gradient of the backward pass, the central difference, and the order of magnitude of the relative error. Entries whose gradient is exactly 0 (for example a row of $E$ for a token that does not occur in the batch) are skipped, since a relative error means nothing there. The 8 entries cover both embedding tables, the attention of both blocks ($W_Q$ of block 0, $W_O$ of block 1), the layer normalisation of block 0, the MLP of block 1, and the output layer.
""",
    ru=r"""
**Декодер целиком.** Наконец, проверим всю модель: вычислим все градиенты на маленьком батче, затем возьмём по одной случайной компоненте из 8 массивов параметров и сравним с центральной разностью. В каждой напечатанной строке — имя параметра, компонента, градиент из обратного прохода, центральная разность и порядок относительной ошибки. Компоненты с градиентом, в точности равным 0 (например, строка $E$ для токена, которого нет в батче), пропускаются: относительная ошибка там бессмысленна. Эти 8 компонент охватывают обе таблицы эмбеддингов, внимание обоих блоков ($W_Q$ блока 0 и $W_O$ блока 1), нормализацию слоя блока 0, MLP блока 1 и выходной слой.
""",
)

code(r"""
# (B, T)
ids = np.array([[1, 3, 3, 5, 3, 3, 2, 2], [1, 8, 4, 9, 5, 9, 4, 8]])
targets = np.array([[3, 3, 5, 3, 3, 2, IGNORE, IGNORE],
                    [8, 4, 9, 5, 9, 4, 8, 2]])
loss, grads = model.loss_and_grads(ids, targets)
names = ["token_table", "position_table", "blocks.0.w_q",
         "blocks.0.ln1.gain", "blocks.1.w_o", "blocks.1.b_1",
         "blocks.1.w_2", "w_head"]
pick = np.random.default_rng(16)
worst = 0.0
for name in names:
    nonzero = np.argwhere(grads[name] != 0)
    index = tuple(int(i) for i in nonzero[pick.integers(len(nonzero))])
    numeric = numerical_partial(lambda: model.loss(ids, targets),
                                model.params[name], index, eps=1e-4)
    analytic = float(grads[name][index])
    error = abs(analytic - numeric) / max(abs(analytic), abs(numeric))
    worst = max(worst, error)
    print(name, index, f"{analytic:.6f}", f"{numeric:.6f}",
          magnitude(error))
assert worst < 1e-6
""")

md(
    zh=r"""
## 7.2 镜像语言与训练

要看清“学会”与“作弊”的差别，语料的规则最好简单到一句话就能说清，这样就能直接判断模型生成的东西对不对。我们为本节写了一门**镜像语言**：

> 每一行是一个由 2 或 3 个字母组成的词，接一个竖线 `|`，再接这个词的倒序。

字母表有 6 个字母，三种文字各取两个：`a b д ж 春 雨`。例如 `春ж雨|雨ж春`、`ab|ba`。这门语言一共有 $6^2 + 6^3 = 252$ 行。随课程发布的语料 `lib/corpus/mirror.txt` 收了其中 216 行；另外 36 行（按 `mirror_language()` 的顺序每 7 行取 1 行：第 7、14、21……行）**从不出现在训练中**，留作检验：模型如果真学会了规则，就应当能把没见过的词也正确地倒写出来。

词表按 §1 的规则构造：3 个特殊词元，加上语料中出现的 7 个字符（6 个字母和 `|`），共 $V = 10$。`collate` 在右侧填充：2 个字母的行比 3 个字母的行短 2 个字符，输入用 `<eos>` 补齐，目标用 IGNORE 补齐。
""",
    en=r"""
## 7.2 The mirror language, and training

To see the difference between learning and cheating, the corpus should follow a rule simple enough to state in one sentence; then we can tell directly whether what the model generates is right. For this section we wrote a **mirror language**:

> Every line is a word of 2 or 3 letters, a bar `|`, and the same word reversed.

The alphabet has 6 letters, two from each of the course's scripts: `a b д ж 春 雨`. Examples are `春ж雨|雨ж春` and `ab|ba`. The language has $6^2 + 6^3 = 252$ lines. The corpus shipped with the course, `lib/corpus/mirror.txt`, holds 216 of them; the other 36 (every seventh line in the order of `mirror_language()`) **never appear in training** and are kept for testing: a model that has really learned the rule should reverse words it has never seen.

The vocabulary follows §1: the 3 special tokens plus the 7 characters of the corpus (6 letters and `|`), so $V = 10$. `collate` pads on the right: a 2-letter line is 2 characters shorter than a 3-letter one, so its inputs are filled up with `<eos>` and its targets with IGNORE.
""",
    ru=r"""
## 7.2 Зеркальный язык и обучение

Чтобы увидеть разницу между обучением и списыванием, нужен корпус с настолько простым правилом, что его можно сформулировать одной фразой: тогда сразу видно, верно ли то, что порождает модель. Для этого раздела мы придумали **зеркальный язык**:

> Каждая строка — слово из 2 или 3 букв, вертикальная черта `|` и то же слово задом наперёд.

В алфавите 6 букв, по две из каждой письменности курса: `a b д ж 春 雨`. Например, `春ж雨|雨ж春` и `ab|ba`. Всего в языке $6^2 + 6^3 = 252$ строки. Корпус, который поставляется с курсом, `lib/corpus/mirror.txt`, содержит 216 из них; остальные 36 (каждая седьмая строка в порядке `mirror_language()`) **никогда не встречаются при обучении** и оставлены для проверки: модель, действительно усвоившая правило, должна правильно переворачивать и слова, которых она не видела.

Словарь строится по правилам §1: 3 специальных токена и 7 символов корпуса (6 букв и `|`), итого $V = 10$. `collate` дополняет строки справа: строка из 2 букв на 2 символа короче строки из 3 букв, поэтому её вход дополняется `<eos>`, а целевые метки — IGNORE.
""",
)

code(r"""
language = mirror_language()
corpus = read_mirror_corpus()
held_out = [line for line in language if line not in set(corpus)]
vocab = build_vocab(corpus)
print(len(language), len(corpus), len(held_out), held_out[:3])
print(vocab, len(vocab))
assert (len(language) == 252 and len(corpus) == 216 and len(held_out) == 36
        and len(vocab) == 10)
assert (all(is_mirror_line(line) for line in language)
        and not set(held_out) & set(corpus))
assert held_out == language[6::7]  #zh 每 7 行取 1 行 #en every seventh line #ru каждая седьмая строка

inputs, targets = collate(corpus, vocab)  # (216, 8), (216, 8)
print(inputs.shape, decode(inputs[0], vocab))
print(inputs[0], targets[0])
assert (inputs.shape == (216, 8)
        and list(targets[0][-2:]) == [IGNORE, IGNORE])
""")

md(
    zh=r"""
### 因果模型能达到的最低损失

不是每个目标都能预测。词的字母是自由选择的：看到 `<bos>`，下一个字母是 6 个中的哪一个，谁也无法知道；看到两个字母之后，下一个是 `|` 还是第三个字母，也只能猜。而一旦写出了 `|`，后面的每个词元都由前面唯一确定。

这给损失定了一个下限，而且它只对因果模型成立。**因果**模型对位置 $t$ 的预测只依赖前缀 $x_0, \dots, x_t$：前缀相同，预测就相同。把它对一行中各个目标（从第一个字母到 `<eos>`）预测的概率连乘起来，得到的正是模型逐个词元书写时恰好写出这一行的概率。这些是互斥结果的概率，所以语料中 216 个不同的行，概率加起来至多为 1。语料上的损失等于这 216 行的 $-\ln(\text{该行的概率})$ 之和除以计分目标的个数；由于对数是凹函数，这个和在 216 个概率都等于 1/216 时最小。因此，在这份语料上**任何因果模型的损失都不可能低于** $\mathcal{L}^* = 216 \ln 216 / 1666 \approx 0.6969$，其中 1666 是计分目标的个数。用计数也能得到同一个数：对每个前缀，照搬语料里这个前缀之后各个目标出现的频率，损失恰好就是 $\mathcal{L}^*$。下面的单元格用两种方法各算一遍。

不带掩码的模型不受这个限制。它在位置 $t$ 的预测可以读取输入 $t+1$，也就是目标 $t$ 本身，于是这些连乘积不再是一个逐词元书写的模型写出各行的概率，216 个乘积可以同时接近 1。**所以，损失低于 $\mathcal{L}^*$ 就证明模型读到了未来。**

再给两个数作参照。一个懂得规则、把这门语言的 252 行都看作同样可能的模型，损失是 $216 \ln 252 / 1666 \approx 0.7169$，下文称为“规则水平”。因果模型要比它更低，只能让语料中的行分到多于其份额的概率，也就是记住语料里缺了哪 36 行；这条路走到头，就是 $\mathcal{L}^*$。完全随机地猜 $V$ 个词元之一，损失则是 $\ln V = \ln 10 \approx 2.3026$。
""",
    en=r"""
### The lowest loss a causal model can reach

Not every target can be predicted. The letters of the word are free choices: after `<bos>` nobody can know which of the 6 letters comes next, and after two letters, whether `|` or a third letter follows is again a guess. Once `|` is written, though, every following token is determined by what came before.

This puts a floor under the loss, and the floor holds for causal models only. A **causal** model predicts position $t$ from the prefix $x_0, \dots, x_t$ alone: equal prefixes get equal predictions. Multiply the probabilities it gives the targets of one line, from the first letter to `<eos>`, and you get the probability that the model, writing one token at a time, writes this very line. These are probabilities of different outcomes, so over the 216 different lines of the corpus they add up to at most 1. The loss over the corpus is the sum of $-\ln(\text{probability of the line})$ over the 216 lines, divided by the number of scored targets; since the logarithm is concave, the sum is smallest when all 216 probabilities equal 1/216. Hence **no causal model can go below** $\mathcal{L}^* = 216 \ln 216 / 1666 \approx 0.6969$ on this corpus, 1666 being the number of scored targets. Counting gives the same number: a model that predicts, after every prefix, the frequencies with which the targets follow that prefix in the corpus has the loss $\mathcal{L}^*$. The cell below computes it both ways.

A model without the mask is not bound by this. Its prediction at position $t$ may read input $t+1$, which is target $t$ itself, so its products are no longer the probabilities with which a model writing one token at a time writes each line, and all 216 of them can be close to 1 at once. **A loss below $\mathcal{L}^*$ is therefore proof that the model has read the future.**

Two more numbers for scale. A model that knows the rule and treats all 252 lines of the language as equally likely has the loss $216 \ln 252 / 1666 \approx 0.7169$, which we call the "rule level" below. A causal model can go lower only by giving the lines of the corpus more than their share of probability, that is, by learning which 36 lines are missing from it; the end of that road is $\mathcal{L}^*$. Guessing uniformly among the $V$ tokens gives $\ln V = \ln 10 \approx 2.3026$.
""",
    ru=r"""
### Наименьшие потери, доступные причинной модели

Не каждую целевую метку можно предсказать. Буквы слова выбираются свободно: после `<bos>` никто не знает, какая из 6 букв будет следующей, а после двух букв снова остаётся гадать, будет ли дальше `|` или третья буква. Зато после `|` каждый следующий токен однозначно определяется предыдущими.

Отсюда нижняя граница потерь, и действует она только для причинных моделей. **Причинная** модель предсказывает позицию $t$ только по префиксу $x_0, \dots, x_t$: одинаковые префиксы получают одинаковые предсказания. Перемножим вероятности, которые модель даёт целевым меткам одной строки, от первой буквы до `<eos>`: произведение — это вероятность того, что модель, порождая текст по одному токену, напишет ровно эту строку. Это вероятности разных исходов, поэтому для 216 различных строк корпуса в сумме они дают не больше 1. Потери на корпусе — это сумма $-\ln(\text{вероятность строки})$ по 216 строкам, делённая на число учитываемых меток; так как логарифм — вогнутая функция, сумма минимальна, когда все 216 вероятностей равны 1/216. Значит, на этом корпусе **ни одна причинная модель не опустится ниже** $\mathcal{L}^* = 216 \ln 216 / 1666 \approx 0{,}6969$, где 1666 — число учитываемых меток. То же число даёт подсчёт: если после каждого префикса предсказывать ровно те частоты, с которыми за ним следуют целевые метки в корпусе, потери будут равны $\mathcal{L}^*$. Ячейка ниже вычисляет его обоими способами.

На модель без маски это ограничение не распространяется. Её предсказание в позиции $t$ может прочитать вход $t+1$, то есть саму целевую метку $t$; поэтому её произведения уже не являются вероятностями того, что модель, порождающая текст по одному токену, напишет эту строку, и все 216 могут быть одновременно близки к 1. **Поэтому потери ниже $\mathcal{L}^*$ доказывают, что модель прочитала будущее.**

Ещё два числа для масштаба. Модель, которая знает правило и считает все 252 строки языка равновероятными, даёт потери $216 \ln 252 / 1666 \approx 0{,}7169$; дальше мы называем это «уровнем правила». Причинная модель может опуститься ниже, только отдав строкам корпуса больше вероятности, чем им положено, то есть запомнив, каких 36 строк в корпусе нет; предел на этом пути — $\mathcal{L}^*$. Равномерное угадывание среди $V$ токенов даёт $\ln V = \ln 10 \approx 2{,}3026$.
""",
)

code(r"""
#zh 前缀 -> 其后各目标的次数
#en prefix -> how often each target follows it
#ru префикс -> сколько раз за ним идёт каждая метка
counts = defaultdict(Counter)
for b, t in zip(*np.nonzero(targets != IGNORE)):
    counts[tuple(inputs[b, :t + 1])][int(targets[b, t])] += 1
n_scored = int((targets != IGNORE).sum())
best_causal = (-sum(n * np.log(n / sum(after.values()))
                    for after in counts.values()
                    for n in after.values()) / n_scored)
chance = np.log(len(vocab))
#zh 216 行各占 1/216
#en each of the 216 lines gets 1/216
#ru каждой из 216 строк достаётся 1/216
every_line_alike = len(corpus) * np.log(len(corpus)) / n_scored
#zh 252 行各占 1/252
#en each of the 252 lines gets 1/252
#ru каждой из 252 строк достаётся 1/252
rule_level = len(corpus) * np.log(len(language)) / n_scored
print(n_scored, round(best_causal, 4), round(every_line_alike, 4),
      round(rule_level, 4), round(chance, 4))
assert (n_scored == 1666 and round(best_causal, 4) == 0.6969
        and round(chance, 4) == 2.3026)
assert (abs(best_causal - every_line_alike) < 1e-12
        and round(rule_level, 4) == 0.7169)
""")

md(
    zh=r"""
### 一个训练步

训练的一步只有四件事：随机抽 32 行组成一个批量，用 `collate` 右填充，算损失和全部梯度（`loss_and_grads` 就是前向、交叉熵、反向三步），再用 Adam 更新参数。Adam 也写在 `lib/decoder.py` 里：它为每个参数维护梯度的滑动平均 $m$ 和梯度平方的滑动平均 $v$，更新量为 $\text{lr}\cdot \hat m / (\sqrt{\hat v} + \epsilon)$，其中 $\hat m, \hat v$ 是修正了初始偏差（两个平均都从 0 开始）之后的 $m$ 和 $v$。装了 PyTorch 时，`tests/test_decoder_torch.py` 会把它与 `torch.optim.Adam` 逐元素比较，要求误差在 $10^{-12}$ 以内。

这一次随机初始化的模型在这个批量上的损失约为 2.7056；更新一步后，同一个批量上的损失降到 2.4152。
""",
    en=r"""
### One training step

A training step does four things: draw 32 random lines as a batch, pad them on the right with `collate`, compute the loss and every gradient (`loss_and_grads` is forward pass, cross-entropy and backward pass in one call), and update the parameters with Adam. Adam too is written out in `lib/decoder.py`. For every parameter it keeps a running mean $m$ of the gradient and a running mean $v$ of its square, and steps by $\text{lr}\cdot \hat m / (\sqrt{\hat v} + \epsilon)$, where $\hat m$ and $\hat v$ are $m$ and $v$ corrected for starting at 0. When PyTorch is installed, `tests/test_decoder_torch.py` compares it with `torch.optim.Adam` entry by entry and requires agreement to $10^{-12}$.

On this batch the randomly initialised model has a loss of about 2.7056; after one step the loss on the same batch is 2.4152.
""",
    ru=r"""
### Один шаг обучения

Шаг обучения делает четыре вещи: выбирает 32 случайные строки в батч, дополняет их справа с помощью `collate`, вычисляет потери и все градиенты (`loss_and_grads` — это прямой проход, перекрёстная энтропия и обратный проход за один вызов) и обновляет параметры методом Adam. Adam тоже написан явно в `lib/decoder.py`. Для каждого параметра он хранит скользящее среднее градиента $m$ и скользящее среднее его квадрата $v$ и делает шаг $\text{lr}\cdot \hat m / (\sqrt{\hat v} + \epsilon)$, где $\hat m$ и $\hat v$ — те же средние с поправкой на то, что оба начинаются с нуля (bias correction). Если установлен PyTorch, `tests/test_decoder_torch.py` поэлементно сравнивает его с `torch.optim.Adam` и требует совпадения с точностью до $10^{-12}$.

На этом батче у случайно инициализированной модели потери около 2,7056; после одного шага потери на том же батче равны 2,4152.
""",
)

code(r"""
model = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
optimiser = Adam(model.params, lr=0.01)
batch_rng = np.random.default_rng(1)
chosen = batch_rng.choice(len(corpus), size=32, replace=False)
# (32, T), (32, T)
batch_inputs, batch_targets = collate([corpus[i] for i in chosen], vocab)
loss_before, grads = model.loss_and_grads(batch_inputs, batch_targets)
optimiser.step(grads)
loss_after = model.loss(batch_inputs, batch_targets)
print(batch_inputs.shape, round(loss_before, 4), round(loss_after, 4))
assert round(loss_before, 4) == 2.7056 and round(loss_after, 4) == 2.4152
""")

md(
    zh=r"""
### 训练

`lib.decoder.train` 把上面这一步重复 300 次：同样的初始化（随机种子 0），同样的批量顺序（随机种子 1），学习率 0.01，不用学习率调度。它的第一个损失正是上面的 2.7056。每 50 步打印一次当前批量的损失：很快就降到 0.7 左右，然后停在那里。这并不是训练停滞，而是已经接近上面算出的下界 $\mathcal{L}^*$：剩下的损失来自自由选择的字母，任何因果模型都无法预测它们。在整个语料上，训练好的模型损失约为 0.7272，比 $\mathcal{L}^*$ 高 0.03，比规则水平 0.7169 高 0.01。要降得更低，就得记住语料里缺了哪 36 行，而那已经不是规则了。
""",
    en=r"""
### Training

`lib.decoder.train` repeats the step above 300 times: the same initialisation (random seed 0), the same order of batches (random seed 1), learning rate 0.01, no learning-rate schedule. Its first loss is the 2.7056 above. Every 50 steps we print the loss of the current batch: it falls quickly to about 0.7 and stays there. Training has not stalled: it has come close to the bound $\mathcal{L}^*$ computed above, and what remains comes from the freely chosen letters, which no causal model can predict. Over the whole corpus the trained model's loss is about 0.7272: 0.03 above $\mathcal{L}^*$ and 0.01 above the rule level 0.7169. Going lower would take learning which 36 lines are missing from the corpus, and that is no longer the rule.
""",
    ru=r"""
### Обучение

`lib.decoder.train` повторяет этот шаг 300 раз: та же инициализация (seed 0), тот же порядок батчей (seed 1), скорость обучения 0,01, без расписания скорости обучения. Первое значение потерь — те же 2,7056. Каждые 50 шагов печатаем потери на текущем батче: они быстро падают примерно до 0,7 и там остаются. Обучение не застряло: оно подошло вплотную к границе $\mathcal{L}^*$, вычисленной выше, а оставшиеся потери вызваны свободно выбранными буквами, которые не предскажет ни одна причинная модель. На всём корпусе потери обученной модели около 0,7272 — на 0,03 выше $\mathcal{L}^*$ и на 0,01 выше уровня правила 0,7169. Чтобы опуститься ниже, модели пришлось бы запомнить, каких 36 строк нет в корпусе, а это уже не правило.
""",
)

code(r"""
start = time.perf_counter()
masked = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
masked_losses = train(masked, corpus, vocab, steps=300, batch_size=32,
                      lr=0.01, causal=True, seed=1)
masked_seconds = time.perf_counter() - start
masked_loss = masked.loss(inputs, targets)
print(np.round(masked_losses[::50], 4))
print(round(masked_loss, 4), round(masked_loss - best_causal, 2),
      round(masked_loss - rule_level, 2))
assert (round(masked_losses[0], 4) == 2.7056
        and round(masked_loss, 4) == 0.7272)
assert (best_causal <= masked_loss < best_causal + 0.05
        and round(masked_loss - best_causal, 2) == 0.03)
assert round(masked_loss - rule_level, 2) == 0.01
#zh 停在 0.7 左右
#en stays near 0.7
#ru держится около 0,7
assert np.all((0.5 < masked_losses[50:]) & (masked_losses[50:] < 1.0))
""")

md(
    zh=r"""
### 它学会规则了吗

把 36 个留出词逐个做成提示 `<bos> 词 |`，让模型用贪心解码（每步取概率最大的词元）续写“词的长度 + 1”个词元，也就是倒序的词再加一个 `<eos>`。36 个提示全部续写正确，尽管这些词在训练中从未出现过。

贪心解码取的是最大值，如果最大的两个 logits 几乎相等，不同机器上 $10^{-15}$ 量级的舍入差异就可能改变选择。所以这里还求出所有贪心选择中最大与次大 logits 的最小间隔，打印它是否大于 $10^{-6}$（远大于舍入误差），并断言如此。
""",
    en=r"""
### Has it learned the rule?

We turn each of the 36 held-out words into a prompt `<bos> word |` and let the model continue with greedy decoding (the most probable token at every step) for the word's length plus one tokens: the reversed word and an `<eos>`. All 36 continuations are right, although none of these words was ever seen in training.

Greedy decoding takes a maximum; if the two largest logits were almost equal, rounding differences of order $10^{-15}$ between machines could change the choice. So we also find the smallest gap between the largest and the second-largest logit over all greedy choices, print whether it is above $10^{-6}$ (far above rounding error), and assert that it is.
""",
    ru=r"""
### Усвоила ли модель правило?

Превратим каждое из 36 отложенных слов в подсказку `<bos> слово |` и дадим модели дописать жадной генерацией (на каждом шаге — самый вероятный токен) столько токенов, сколько букв в слове, и ещё один: перевёрнутое слово и `<eos>`. Все 36 продолжений верны, хотя ни одно из этих слов при обучении не встречалось.

Жадная генерация берёт максимум; если бы два наибольших логита почти совпадали, различия в округлении порядка $10^{-15}$ между машинами могли бы изменить выбор. Поэтому находим ещё и наименьший зазор между наибольшим и вторым по величине логитом среди всех жадных выборов, печатаем, больше ли он $10^{-6}$ (это намного больше ошибки округления), и проверяем, что больше.
""",
)

code(r"""
def generate_without_cache(
    model, prompt, n_new, causal, temperature=0.0, seed=0):
    #zh 不用缓存：每一步都对整个前缀做完整前向传播，只取最后一行
    #en no cache: every step runs the full forward pass over the whole prefix
    #en and keeps the last row
    #ru без кэша: на каждом шаге полный прямой проход по всему префиксу, берём
    #ru последнюю строку
    rng = np.random.default_rng(seed)
    ids, margin = list(prompt), np.inf
    for _ in range(n_new):
        logits = model.forward(np.array(ids), causal)[-1]      # (V,)
        top_two = np.sort(logits)[-2:]
        #zh 贪心选择离并列有多远
        #en how far the greedy choice is from a tie
        #ru насколько жадный выбор далёк от ничьей
        margin = min(margin, top_two[1] - top_two[0])
        ids.append(pick_token(logits, temperature, rng))
    return np.array(ids), margin

def completion(model, line, causal):
    word = line.split("|")[0]
    prompt = [BOS] + encode(word + "|", vocab)
    ids, margin = generate_without_cache(
        model, prompt, len(word) + 1, causal)
    return decode(ids[1:], vocab), margin

masked_completions = [completion(masked, line, True) for line in held_out]
masked_right = sum(text == line + "<eos>" for line,
                   (text, _) in zip(held_out, masked_completions))
masked_margin = min(margin for _, margin in masked_completions)
print([text for text, _ in masked_completions[:4]])
print(masked_right, len(held_out), masked_margin > 1e-6)
assert masked_right == 36 and masked_margin > 1e-6
""")

md(
    zh=r"""
续写只检验了贪心选出的那一个词元。更直接的证据是留出行上的损失。只懂规则、把 252 行一视同仁的模型，在 36 个留出行上的损失是 $36 \ln 252 / 278 \approx 0.7160$（278 是留出行中计分目标的个数）；训练好的模型是 0.7312，只比它高 0.015。相反，一个把损失压到 $\mathcal{L}^*$ 的模型必须把全部概率分给语料里的 216 行，留出行的概率就是 0，损失为无穷大。所以这个模型学到的是规则，而不是这份语料。
""",
    en=r"""
Completion tests only the token greedy decoding picks. The loss on the held-out lines is more direct evidence. A model that knows the rule and treats all 252 lines alike has a loss of $36 \ln 252 / 278 \approx 0.7160$ on the 36 held-out lines (278 is the number of their scored targets); the trained model has 0.7312, only 0.015 more. A model that brought its training loss down to $\mathcal{L}^*$, on the other hand, would have to give all its probability to the 216 lines of the corpus: the held-out lines would get probability 0 and an infinite loss. So this model has learned the rule, not the corpus.
""",
    ru=r"""
Продолжение слов проверяет только тот токен, который выбирает жадная генерация. Более прямое свидетельство — потери на отложенных строках. Модель, которая знает правило и не делает различий между 252 строками, получает на 36 отложенных строках потери $36 \ln 252 / 278 \approx 0{,}7160$ (278 — число учитываемых меток в этих строках); у обученной модели 0,7312, всего на 0,015 больше. А модели, которая довела бы потери при обучении до $\mathcal{L}^*$, пришлось бы отдать всю вероятность 216 строкам корпуса: отложенные строки получили бы вероятность 0 и бесконечные потери. Значит, модель усвоила правило, а не корпус.
""",
)

code(r"""
held_inputs, held_targets = collate(held_out, vocab)  # (36, 8), (36, 8)
n_held = int((held_targets != IGNORE).sum())
#zh 每个留出行占 1/252
#en each held-out line gets 1/252
#ru каждой отложенной строке достаётся 1/252
held_rule_level = len(held_out) * np.log(len(language)) / n_held
masked_held_loss = masked.loss(held_inputs, held_targets)
print(n_held, round(masked_held_loss, 4), round(held_rule_level, 4))
assert (n_held == 278 and round(masked_held_loss, 4) == 0.7312
        and round(held_rule_level, 4) == 0.716)
assert held_rule_level < masked_held_loss < held_rule_level + 0.02
""")

md(
    zh=r"""
## 7.3 去掉掩码：作弊的模型

现在只改一处：训练时传入 `causal=False`，每一层的注意力都可以读取全部位置。初始参数和批量顺序都与 §7.2 相同。

回忆 §1 的数据协议：目标 $t$ 就是输入 $t+1$。没有掩码，位置 $t$ 就能直接读到输入 $t+1$，也就是它要预测的答案。最后一个批量的损失只有 0.0005 左右，远低于 $\mathcal{L}^*$；在整个语料上（仍然不加掩码）损失也约为 0.0005。§7.2 已经证明，任何因果模型在这份语料上的损失都不可能低于 $\mathcal{L}^* \approx 0.6969$，所以这个模型读到了未来。
""",
    en=r"""
## 7.3 Without the mask, the model cheats

Now we change one thing: training passes `causal=False`, so the attention of every layer may read every position. The initial parameters and the order of the batches are those of §7.2.

Recall the data protocol of §1: target $t$ is input $t+1$. Without the mask, position $t$ can read input $t+1$, the very answer it must predict. The loss of the last batch falls to about 0.0005, far below $\mathcal{L}^*$, and over the whole corpus (still without the mask) it is about 0.0005 too. As §7.2 showed, no causal model can bring the loss over this corpus below $\mathcal{L}^* \approx 0.6969$, so this model has read the future.
""",
    ru=r"""
## 7.3 Без маски модель списывает

Теперь изменим только одно: при обучении передаём `causal=False`, и внимание каждого слоя может читать все позиции. Начальные параметры и порядок батчей — те же, что в §7.2.

Вспомним протокол данных из §1: целевая метка $t$ — это вход $t+1$. Без маски позиция $t$ может прямо прочитать вход $t+1$, то есть тот самый ответ, который ей нужно предсказать. Потери на последнем батче падают примерно до 0,0005, намного ниже $\mathcal{L}^*$, и на всём корпусе (по-прежнему без маски) они тоже около 0,0005. Как показано в §7.2, ни одна причинная модель не может опустить потери на этом корпусе ниже $\mathcal{L}^* \approx 0{,}6969$; значит, эта модель прочитала будущее.
""",
)

code(r"""
start = time.perf_counter()
unmasked = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
unmasked_losses = train(unmasked, corpus, vocab, steps=300, batch_size=32,
                        lr=0.01, causal=False, seed=1)
unmasked_seconds = time.perf_counter() - start
unmasked_loss = unmasked.loss(inputs, targets, causal=False)
print(np.round(unmasked_losses[::50], 4))
print(round(unmasked_losses[-1], 4), round(unmasked_loss, 4))
assert (round(unmasked_losses[-1], 4) == 0.0005
        and round(unmasked_loss, 4) == 0.0005)
assert unmasked_loss < best_causal / 100 < masked_loss
""")

md(
    zh=r"""
训练用时取决于机器和当时的负载；在 2 核机器上，每次训练只要几秒。
""",
    en=r"""
Training time depends on the machine and its load; on two cores each run takes a few seconds.
""",
    ru=r"""
Время обучения зависит от машины и её загрузки; на двух ядрах каждый запуск занимает несколько секунд.
""",
)

code(r"""
#zh 用时因机器而异，所以这个单元格的输出不参与比对
#en timings differ from machine to machine, so this cell's output is not
#en compared
#ru время на разных машинах разное, поэтому результат этой ячейки не
#ru сравнивается
print(f"{masked_seconds:.1f} s", f"{unmasked_seconds:.1f} s")
""", tags=("nbval-ignore-output",))

md(
    zh=r"""
### 把未来藏起来

生成时，模型一个词元一个词元地写：写位置 $t+1$ 时，位置 $t$ 之后的输入还不存在。“把未来藏起来”就是重现这种情形：对每个 $t$，只把输入 $x_0, \dots, x_t$ 交给模型（后面的行根本不存在），用它最后一行的输出去预测目标 $t$。这样算出的损失，才是模型生成时的真实水平。

* 对带掩码的模型，这样做什么也不改变：位置 $t$ 本来就只读 $0, \dots, t$。两种算法的 logits 之差在 $10^{-12}$ 以内，损失仍是 0.7272。这正是因果性的另一种说法。
* 不带掩码的模型在这个随机种子下，损失从 0.0005 跳到 4.4393，甚至高于在 10 个词元中均匀瞎猜的 $\ln 10 \approx 2.3026$：按几何平均算，它给正确词元的概率只有 $e^{-4.44} \approx 0.012$，瞎猜则是 0.1。比 $\ln 10$ 高出多少取决于随机种子（见下文“五个随机种子”）；远高于带掩码的模型，这一点则与种子无关。
""",
    en=r"""
### Hiding the future

A model generates one token at a time: while it writes position $t+1$, the inputs after position $t$ do not exist yet. To hide the future, we give the model, for every $t$, only the inputs $x_0, \dots, x_t$ (the later rows are simply not there) and score its last output row against target $t$. The loss computed this way is what the model is worth when it generates.

* For the masked model nothing changes: position $t$ reads only $0, \dots, t$ anyway. The logits of the two computations differ by less than $10^{-12}$, and the loss is still 0.7272. This is causality, stated another way.
* At this seed the unmasked model's loss jumps from 0.0005 to 4.4393. That is above even $\ln 10 \approx 2.3026$, the loss of a uniform guess among the 10 tokens: the geometric mean of the probabilities it gives the right tokens is $e^{-4.44} \approx 0.012$, against 0.1 for the guess. How far above $\ln 10$ it lands depends on the seed (see "Five seeds" below); that it lands far above the masked model does not.
""",
    ru=r"""
### Прячем будущее

Модель порождает текст по одному токену: когда она пишет позицию $t+1$, входов после позиции $t$ ещё нет. Чтобы спрятать будущее, для каждого $t$ дадим модели только входы $x_0, \dots, x_t$ (следующих строк попросту нет) и сравним её последнюю строку выхода с целевой меткой $t$. Посчитанные так потери и показывают, чего модель стоит при генерации.

* Для модели с маской ничего не меняется: позиция $t$ и так читает только $0, \dots, t$. Логиты двух вычислений отличаются меньше чем на $10^{-12}$, потери по-прежнему 0,7272. Это та же причинность, только сформулированная иначе.
* У модели без маски при этом seed потери подскакивают с 0,0005 до 4,4393 — выше даже $\ln 10 \approx 2{,}3026$, потерь равномерного угадывания среди 10 токенов: среднее геометрическое вероятностей, которые она даёт верным токенам, равно всего $e^{-4{,}44} \approx 0{,}012$, а у угадывания — 0,1. Насколько потери превышают $\ln 10$, зависит от seed (см. ниже «Пять значений seed»); а то, что они намного выше, чем у модели с маской, от seed не зависит.
""",
)
code(r"""
def hidden_future_logits(model, ids, causal):
    #zh 第 t 行只由输入 0..t 算出：之后的输入根本不交给模型
    #en row t is computed from inputs 0..t alone: the later inputs are never
    #en given to the model
    #ru строка t вычисляется только из входов 0..t: более поздние входы модели
    #ru вообще не передаются
    return np.stack([model.forward(ids[:, :t + 1], causal)[:, -1]
                     for t in range(ids.shape[1])], axis=1)

masked_hidden = hidden_future_logits(masked, inputs, True)  # (B, T, V)
unmasked_hidden = hidden_future_logits(unmasked, inputs, False)
same = float(np.abs(masked_hidden - masked.forward(inputs)).max())
masked_hidden_loss = layers.cross_entropy_forward(masked_hidden, targets)[0]
unmasked_hidden_loss = layers.cross_entropy_forward(
    unmasked_hidden, targets)[0]
print(round(same, 12), round(masked_hidden_loss, 4),
      round(unmasked_hidden_loss, 4), round(chance, 4))
assert same < 1e-12 and round(masked_hidden_loss, 4) == 0.7272
assert (round(unmasked_hidden_loss, 4) == 4.4393
        and unmasked_hidden_loss > chance)
""")

md(
    zh=r"""
下图画出两次训练中每一步批量损失 $\mathcal{L}$ 随训练步数 $n$ 的变化（纵轴为对数刻度），以及两条水平线：因果模型的下界 $\mathcal{L}^*$ 和随机猜测的 $\ln V$。带掩码的模型贴着 $\mathcal{L}^*$；不带掩码的模型一路钻到它下面两个数量级以上——这恰恰是它作弊的证据，而不是学得更好的证据。

严格说来，$\mathcal{L}^*$ 限制的是整个语料上的损失，而不是单个批量：带掩码的模型在 300 步中有 6 步的批量损失略低于它，差距不到 0.01。把 §7.2 的论证用在一个由 32 个不同的行组成的批量上，仍然得到一个下界：损失之和至少是 $32 \ln 32$，计分目标至多 $32 \cdot 8$ 个，所以批量损失不低于 $\ln 32 / 8 \approx 0.43$；不带掩码的曲线也远在这个下界之下。
""",
    en=r"""
The figure shows the batch loss $\mathcal{L}$ at every training step $n$ for both runs (logarithmic vertical axis), with two horizontal lines: the causal bound $\mathcal{L}^*$ and the chance level $\ln V$. The masked model runs along $\mathcal{L}^*$; the unmasked model dives more than two orders of magnitude below it, which is evidence that it cheats, not that it learns better.

Strictly, $\mathcal{L}^*$ bounds the loss over the whole corpus, not the loss of one batch: the masked model's batch loss comes in under it at 6 of the 300 steps, by less than 0.01. The argument of §7.2 applied to a batch of 32 different lines still gives a bound: the summed loss is at least $32 \ln 32$ over at most $32 \cdot 8$ scored targets, so a batch loss cannot fall below $\ln 32 / 8 \approx 0.43$, and the unmasked curve is far below that too.
""",
    ru=r"""
На рисунке — потери на батче $\mathcal{L}$ на каждом шаге обучения $n$ для обоих запусков (вертикальная ось логарифмическая) и две горизонтальные линии: граница для причинных моделей $\mathcal{L}^*$ и уровень случайного угадывания $\ln V$. Модель с маской идёт вдоль $\mathcal{L}^*$; модель без маски уходит ниже неё больше чем на два порядка — и это свидетельство списывания, а не лучшего обучения.

Строго говоря, $\mathcal{L}^*$ ограничивает потери на всём корпусе, а не на одном батче: у модели с маской потери на батче оказываются ниже неё на 6 шагах из 300, меньше чем на 0,01. Рассуждение из §7.2, применённое к батчу из 32 различных строк, тоже даёт границу: сумма потерь не меньше $32 \ln 32$, а учитываемых меток не больше $32 \cdot 8$, так что потери на батче не могут быть ниже $\ln 32 / 8 \approx 0{,}43$ — и кривая модели без маски проходит намного ниже и этой границы.
""",
)

code(r"""
def loss_axes():
    #zh 损失 L 对训练步数 n 的坐标轴，画好 L* 和 ln V 两条水平线
    #en axes for the loss L against the training step n, with the lines L* and
    #en ln V drawn
    #ru оси для потерь L в зависимости от шага обучения n, с линиями L* и ln V
    fig, ax = plt.subplots(figsize=(5.4, 3.6))
    ax.axhline(best_causal, color="black", linestyle="--", linewidth=1,
               label=r"$\mathcal{L}^*$")
    ax.axhline(chance, color="gray", linestyle=":", linewidth=1.5,
               label=r"$\ln V$")
    ax.set_xlabel("$n$", fontsize=14)
    ax.set_ylabel(r"$\mathcal{L}$", fontsize=14)
    #zh 缩小到手机宽度后仍不小于 10 像素
    #en still at least 10 px when shrunk to a phone's width
    #ru и на ширине телефона не меньше 10 пикселей
    ax.tick_params(labelsize=13)
    ax.grid(True, alpha=0.3)
    return fig, ax

fig, ax = loss_axes()
steps = np.arange(len(masked_losses))
ax.plot(steps, masked_losses, label="causal=True", linewidth=1.5)
ax.plot(steps, unmasked_losses, label="causal=False", linewidth=1.5)
ax.set_yscale("log")
ax.legend(fontsize=12, loc="center right")
fig.tight_layout()
#zh 批量损失低于 L* 的步数
#en steps whose batch loss is under L*
#ru шаги, на которых потери на батче ниже L*
below_bound = int(np.sum(masked_losses < best_causal))
print(below_bound, round(best_causal - masked_losses.min(), 4),
      round(np.log(32) / 8, 4))
assert (unmasked_losses[-50:].max() < best_causal / 100 < best_causal
        < masked_losses[-50:].min())
assert (below_bound == 6 and best_causal - masked_losses.min() < 0.01
        and masked_losses.min() > np.log(32) / 8)
plt.show()
""", alt=dict(
    zh="两条训练曲线，纵轴为对数刻度的损失，横轴为训练步数。带掩码的模型（causal=True）的损失从约 2.7 很快降到约 0.7，贴着表示因果模型下界的虚线 L*；不带掩码的模型（causal=False）的损失一路降到约 0.001 以下，远在这条虚线之下。点线表示随机猜测的水平 ln V。",
    en="Two training curves, loss on a logarithmic vertical axis against the training step. The masked model (causal=True) falls from about 2.7 to about 0.7 and runs along the dashed line L*, the lowest loss a causal model can reach; the unmasked model (causal=False) falls below 0.001, far under that line. A dotted line marks the chance level ln V.",
    ru="Две кривые обучения: потери по логарифмической вертикальной оси в зависимости от шага обучения. У модели с маской (causal=True) потери падают примерно с 2,7 до 0,7 и идут вдоль пунктира L* — наименьших потерь, доступных причинной модели; у модели без маски (causal=False) потери опускаются ниже 0,001, намного ниже этой линии. Точечная линия — уровень случайного угадывания ln V.",
))

md(
    zh=r"""
### 它读的是哪里

不带掩码的模型到底读了哪些位置？下图是它第一层两个头在 `aжb|bжa` 这一行上的注意力权重（小于 0.05 的不标数字）。第 $i$ 行是位置 $i$ 上的查询，第 $j$ 列是它读的键；方框标出下一个位置 $j = i + 1$，那里的输入正是目标 $i$。带掩码的模型在对角线以上只有 0，这个模型却把大量权重放在对角线以上。打印的一行数字是：对每个查询 $i$，在 $i$ 之后、输入等于目标 $i$ 的那些位置上，某一个头最多放了多少权重。第 0～3 行都在 0.97 以上：有时读的是方框，有时读的是 `|` 之后镜像那一半里的同一个字母（第 1 行在头 1 里读的是位置 6 的 `ж`）。前三行正是过去无法决定的三个目标：第一个字母、第二个字母，以及接下来是 `|` 还是第三个字母。这只是一个种子下的一个模型，它读哪个位置会随种子而变；下文会看到，在每个种子下，不带掩码的模型都能答对全部自由目标，而不读未来是做不到这一点的。
""",
    en=r"""
### What it reads

Which positions does the unmasked model read? The figure shows the attention weights of the two heads of its first layer on the line `aжb|bжa` (weights below 0.05 are left blank). Row $i$ is the query at position $i$ and column $j$ the key it reads; the boxes mark the next position, $j = i + 1$, whose input is target $i$. A masked model has only zeros above the diagonal; this one puts much of its weight there. The printed row gives, for each query $i$, the largest weight one head puts on the positions after $i$ whose input is target $i$. Rows 0 to 3 are all above 0.97: they read the box, or the same letter in the mirrored half after `|` (row 1 reads the `ж` at position 6 in head 1). The first three rows are the targets the past cannot decide: the first letter, the second, and whether `|` or a third letter comes next. This is one model at one seed, and which position it reads changes with the seed; below we will see that at every seed the unmasked model gets all the free targets right, which is impossible without reading the future.
""",
    ru=r"""
### Что она читает

Какие позиции читает модель без маски? На рисунке — веса внимания двух голов её первого слоя на строке `aжb|bжa` (веса меньше 0,05 не подписаны). Строка $i$ — запрос в позиции $i$, столбец $j$ — ключ, который он читает; рамки отмечают следующую позицию $j = i + 1$, вход которой и есть целевая метка $i$. У модели с маской выше диагонали одни нули, а эта модель кладёт туда большую часть веса. В напечатанной строке для каждого запроса $i$ указан наибольший вес, который одна голова отдаёт позициям после $i$ со входом, равным целевой метке $i$. В строках с 0 по 3 он больше 0,97: они читают рамку или ту же букву в зеркальной половине после `|` (строка 1 в голове 1 читает `ж` в позиции 6). Первые три строки — это как раз те метки, которые прошлое не определяет: первая буква, вторая и то, будет ли дальше `|` или третья буква. Это одна модель при одном seed, и какую позицию она читает, зависит от seed; ниже мы увидим, что при любом seed модель без маски угадывает все свободные метки, а без чтения будущего это невозможно.
""",
)

code(r"""
from figures.plots import heatmaps

line_ids = np.array([BOS] + encode("aжb|bжa", vocab))  # (T,)
tokens = [vocab[i] for i in line_ids]
# (H, T, T)
first_layer = unmasked.attention_weights(line_ids, causal=False)[0]
labels = [[[f"{w:.1f}" if w >= 0.05 else "" for w in row] for row in head]
          for head in first_layer]
fig = heatmaps(list(first_layer),
               ["causal=False, ℓ=0, h=0", "causal=False, ℓ=0, h=1"],
               labels=labels, cell_size=0.5)
for ax in fig.axes:  #zh 手机上缩小后字仍够大 #en large enough to read when a phone shrinks it #ru крупно, чтобы читалось и на телефоне
    ax.set_xticks(range(len(tokens)), tokens)
    ax.set_yticks(range(len(tokens)), tokens)
    ax.tick_params(labelsize=13)
    ax.title.set_fontsize(14)
    ax.xaxis.label.set_fontsize(14)
    ax.yaxis.label.set_fontsize(14)
    for text in ax.texts:
        text.set_fontsize(13)
    for i in range(len(tokens) - 1):  #zh 方框：下一个位置 j = i+1 #en boxes: the next position j = i+1 #ru рамки: следующая позиция j = i+1
        ax.add_patch(plt.Rectangle((i + 0.5, i - 0.5), 1, 1, fill=False,
                                   edgecolor="crimson", linewidth=2.5))
fig.tight_layout()
#zh holds_target[i, j]：j 在 i 之后，且输入 j 就是目标 i
#en holds_target[i, j]: j comes after i and input j is target i
#ru holds_target[i, j]: j идёт после i, и вход j — это целевая метка i
# (7, 8)
holds_target = ((line_ids[None, :] == line_ids[1:, None])
                & np.triu(np.ones((7, 8), dtype=bool), k=1))
on_answer = (first_layer[:, :7] * holds_target).sum(axis=-1)  # (H, 7)
print(np.round(on_answer.max(axis=0), 2))
assert np.all(on_answer.max(axis=0)[:4] > 0.9)
assert np.all(
    masked.attention_weights(line_ids)[0][:, ~np.tri(8, dtype=bool)] == 0.0)
plt.show()
""", alt=dict(
    zh="两张 8×8 热力图：不带掩码的模型第一层的头 0 和头 1 在 <bos> a ж b | b ж a 这一行上的注意力权重，行是查询 i，列是键 j。红框标出下一个位置 j = i+1。对角线以上有大量权重：例如头 1 的第 0、2、3 行在方框里的权重都约为 1.0，第 1 行有 0.7 落在镜像位置 6 的 ж 上。",
    en="Two 8×8 heatmaps: the attention weights of heads 0 and 1 in the first layer of the unmasked model on the line <bos> a ж b | b ж a, rows are queries i, columns keys j. Red boxes mark the next position j = i+1. Much of the weight lies above the diagonal: in head 1, rows 0, 2 and 3 put about 1.0 in their box, and row 1 puts 0.7 on the mirrored ж at position 6.",
    ru="Две тепловые карты 8×8: веса внимания голов 0 и 1 первого слоя модели без маски на строке <bos> a ж b | b ж a, строки — запросы i, столбцы — ключи j. Красные рамки отмечают следующую позицию j = i+1. Большая часть веса лежит выше диагонали: в голове 1 строки 0, 2 и 3 отдают своей рамке около 1,0, а строка 1 отдаёт 0,7 зеркальной букве ж в позиции 6.",
))

md(
    zh=r"""
### 让它自己生成

最后让两个模型各自生成。不带掩码的模型用不了 KV 缓存。缓存依赖因果性（§5）：旧位置的键和值只算一次，存下来反复使用；而在这个模型里，每来一个新词元，旧位置上的残差流都会改变，第一层以上各层的键和值也随之改变。所以它每一步都要对整个前缀做完整前向传播（同样不加掩码，和训练时一样）。

* **续写留出词。** 同样的 36 个提示，它在这个种子下写对 9 个。`|` 之后的答案其实也在过去，在词的前半部分；可是把未来藏起来时，它在这些由过去决定的目标上的损失仍有 2.49（见下文的表），这条路它只学会了一部分。而它一直从下一个位置读到的字母，生成时并不存在。
* **从 `<bos>` 开始自由生成。** 以温度 1 采样，随机种子 0～49，每个模型各生成 50 行。带掩码的模型有 48 行符合规则，其中 44 行互不相同。不带掩码的模型在这个种子下 50 行全是空行：第一个词元就是 `<eos>`。只给它 `<bos>` 时，它给 `<eos>` 的概率是 0.96。原因很可能在训练里：在所有计分的位置中，只有 3 个字母的行的最后一个位置后面没有输入，而它的目标总是 `<eos>`；生成时，最新的位置后面也总是没有输入。把未来藏起来时，在目标不是 `<eos>` 的位置上，它有 23.7% 的位置首选 `<eos>`；看得到整行时一次也没有（最后打印的数）。

带掩码的模型用 `generate`（每层各有 KV 缓存，见 §7.5）生成；同时断言，在全部 50 个随机种子下，它和不用缓存、每步重算的生成结果逐个词元相同。
""",
    en=r"""
### Letting it generate

Finally each model generates on its own. The unmasked model cannot use a KV cache. The cache relies on causality (§5): the keys and values of old positions are computed once and reused, but in this model the residual stream at the old positions, and with it the keys and values of every layer above the first, changes whenever a new token arrives. So at every step it runs the full forward pass over the whole prefix (again without the mask, as it was trained).

* **Completing the held-out words.** Given the same 36 prompts, it gets 9 right at this seed. After `|` the answer also lies in the past, in the first half of the word, but with the future hidden its loss on these determined targets is still 2.49 (see the table below): it has learned that route only in part, and the letter it always read from the next position is not there during generation.
* **Free generation from `<bos>`.** Sampling at temperature 1 with random seeds 0–49 gives 50 lines per model. 48 lines of the masked model obey the rule, 44 of them distinct. At this seed all 50 lines of the unmasked model are empty: its first token is `<eos>`. Given `<bos>` alone, it puts probability 0.96 on `<eos>`. The likely reason lies in training: of all scored positions, only the last position of a 3-letter line had no input after it, and its target is always `<eos>`; during generation the newest position never has anything after it. With the future hidden, the model's first choice is `<eos>` at 23.7% of the targets that are not `<eos>`; with the whole line in view, never (the last printed number).

The masked model generates with `generate` (a KV cache in every layer, see §7.5); we also assert, for all 50 seeds, that its output is token for token that of generation without a cache, recomputing every step.
""",
    ru=r"""
### Пусть порождает сама

Наконец, пусть каждая модель порождает текст сама. Модели без маски KV-кэш недоступен. Кэш опирается на причинность (§5): ключи и значения старых позиций вычисляются один раз и затем используются повторно, а у этой модели с приходом каждого нового токена меняется остаточный поток в старых позициях, а с ним ключи и значения всех слоёв выше первого. Поэтому на каждом шаге она делает полный прямой проход по всему префиксу (тоже без маски — так же, как при обучении).

* **Продолжение отложенных слов.** На тех же 36 подсказках при этом seed она права в 9 случаях. После `|` ответ есть и в прошлом — в первой половине слова, но со спрятанным будущим её потери на этих метках, которые определяет прошлое, всё ещё 2,49 (см. таблицу ниже): этот путь она освоила лишь отчасти, а буквы, которую она всегда читала из следующей позиции, при генерации нет.
* **Свободная генерация от `<bos>`.** Выборка при температуре 1 с seed от 0 до 49 даёт по 50 строк на модель. У модели с маской 48 строк подчиняются правилу, из них 44 различны. У модели без маски при этом seed все 50 строк пустые: первым же токеном она пишет `<eos>`. Получив один `<bos>`, она отдаёт `<eos>` вероятность 0,96. Вероятная причина — в обучении: из всех учитываемых позиций только за последней позицией строки с трёхбуквенным словом не было ни одного входа, а её целевая метка всегда `<eos>`; при генерации за самой новой позицией тоже никогда ничего нет. Со спрятанным будущим самым вероятным токеном у неё оказывается `<eos>` в 23,7 % позиций, где метка не `<eos>`, а когда видна вся строка — ни разу (последнее напечатанное число).

Модель с маской порождает текст методом `generate` (KV-кэш в каждом слое, см. §7.5); заодно проверяем для всех 50 значений seed, что результат токен в токен совпадает с генерацией без кэша, где каждый шаг пересчитывается заново.
""",
)

code(r"""
unmasked_completions = [completion(unmasked, line, False)
                        for line in held_out]
unmasked_right = sum(text == line + "<eos>" for line,
                     (text, _) in zip(held_out, unmasked_completions))
print([text for text, _ in unmasked_completions[:4]])
print(unmasked_right, len(held_out),
      min(margin for _, margin in unmasked_completions) > 1e-6)
assert (unmasked_right == 9
        and min(margin for _, margin in unmasked_completions) > 1e-6)

def line_of(ids):
    text = decode(ids[1:], vocab)                          #zh 去掉 <bos> #en drop <bos> #ru без <bos>
    #zh None：没有写出 <eos>
    #en None: no <eos> written
    #ru None: <eos> не написан
    return text.split("<eos>")[0] if "<eos>" in text else None

masked_generated = [
    masked.generate(np.array([BOS]), 8, temperature=1.0, seed=s)
    for s in range(50)]
assert all(generated.tolist()
           == generate_without_cache(masked, [BOS], 8, True,
                                     temperature=1.0, seed=s)[0].tolist()
           for s, generated in enumerate(masked_generated))
masked_samples = [line_of(generated) for generated in masked_generated]
unmasked_samples = [
    line_of(generate_without_cache(unmasked, [BOS], 8, False,
                                   temperature=1.0, seed=s)[0])
    for s in range(50)]
for samples in (masked_samples, unmasked_samples):
    valid = [s for s in samples if s is not None and is_mirror_line(s)]
    print(samples[:5], len(valid), len(set(valid)))
masked_valid = [s for s in masked_samples if s is not None
                and is_mirror_line(s)]
assert len(masked_valid) == 48 and len(set(masked_valid)) == 44
#zh 每一行的第一个词元都是 <eos>
#en every line starts with <eos>
#ru каждая строка начинается с <eos>
assert all(s == "" for s in unmasked_samples)

after_bos = unmasked.forward(np.array([BOS]), False)  # (1, V)
p_eos_first = float(np.exp(
    -layers.cross_entropy_forward(after_bos, np.array([EOS]))[0]))
not_eos = (targets != IGNORE) & (targets != EOS)
#zh 看不到未来时
#en with the future hidden
#ru без будущего
eos_hidden = float(np.mean(unmasked_hidden.argmax(axis=-1)[not_eos] == EOS))
#zh 看得到整行时
#en with the whole line in view
#ru когда видна вся строка
eos_in_view = int(
    np.sum(unmasked.forward(inputs, False).argmax(axis=-1)[not_eos] == EOS))
print(round(p_eos_first, 2), round(eos_hidden, 3), eos_in_view)
assert (round(p_eos_first, 2) == 0.96 and round(eos_hidden, 3) == 0.237
        and eos_in_view == 0)
""")

md(
    zh=r"""
### 五个随机种子

到这里为止，所有结果都来自一种初始化和一种批量顺序。这个种子有代表性吗？我们在五个种子下把两个模型各重新训练一遍：初始化用种子 $s$，批量顺序用种子 $s + 1$，$s = 0, \dots, 4$（$s = 0$ 就是上面那一次，单元格会核对它得到的参数完全相同）。训练过程中每 25 步再量一次把未来藏起来时的损失。
""",
    en=r"""
### Five seeds

So far every result comes from one initialisation and one order of batches. Is that seed typical? We train both models again at five seeds: initialisation seed $s$ and batch seed $s + 1$, for $s = 0, \dots, 4$ ($s = 0$ is the run above, and the cell checks that it gives the same parameters). During each run we also measure the loss with the future hidden, every 25 steps.
""",
    ru=r"""
### Пять значений seed

До сих пор все результаты получены при одной инициализации и одном порядке батчей. Типичен ли этот seed? Обучим обе модели заново при пяти значениях: seed инициализации $s$ и seed батчей $s + 1$ для $s = 0, \dots, 4$ ($s = 0$ — это запуск выше, и ячейка проверяет, что параметры получаются те же). Во время каждого запуска каждые 25 шагов измеряем ещё и потери со спрятанным будущим.
""",
)

code(r"""
SEEDS = range(5)
checkpoints = np.arange(0, 301, 25)  #zh 每 25 步量一次 #en measured every 25 steps #ru замер каждые 25 шагов

def future_hidden_loss(model, inputs, targets, causal):
    return layers.cross_entropy_forward(
        hidden_future_logits(model, inputs, causal), targets)[0]

def train_and_follow(seed, causal):
    #zh 与 §7.2 相同的设置，初始化用种子 seed，批量顺序用 seed + 1；同时记录“把未来藏起来”的损失
    #en the settings of §7.2 with initialisation seed `seed` and batch seed
    #en `seed + 1`; follows the loss with the future hidden
    #ru настройки §7.2 с seed инициализации `seed` и seed батчей `seed + 1`;
    #ru заодно следим за потерями со спрятанным будущим
    model = Decoder.init(len(vocab), 8, 16, 2, 2, seed=seed)
    curve = [future_hidden_loss(model, inputs, targets, causal)]
    def observe(step, model):
        if step % 25 == 0:
            curve.append(future_hidden_loss(model, inputs, targets, causal))
    train(model, corpus, vocab, steps=300, batch_size=32, lr=0.01,
          causal=causal, seed=seed + 1, observe=observe)
    return model, np.array(curve)

runs = {(True, seed): train_and_follow(seed, True) for seed in SEEDS}
assert all(np.array_equal(runs[True, 0][0].params[name],
                          masked.params[name]) for name in masked.params)
""")

code(r"""
runs.update({(False, seed): train_and_follow(seed, False)
             for seed in SEEDS})
assert all(np.array_equal(runs[False, 0][0].params[name],
                          unmasked.params[name])
           for name in unmasked.params)
""")

md(
    zh=r"""
**自由目标。** 如果语料里同一个前缀之后出现过不止一种词元，这个目标就是自由的：过去决定不了它。这样的目标有 648 个，每行 3 个（位置 0、1、2）。因果模型在相同前缀之后只能给出相同的预测，所以它最多只能押每个前缀之后最常见的那个词元：自由目标里最多猜对 17.6%（下面单元格打印的第一行）。

之后每个模型、每个种子各打印一行，依次是：是否带掩码、种子、整个语料上的损失（强制教学，即 teacher forcing：每个位置都看得到它前面的真实输入）、把未来藏起来的损失、36 个留出行上（同样藏起未来）的损失、看得到整行时自由目标的准确率、把未来藏起来时自由目标上的损失和由过去决定的目标上的损失、只把输入 3 换成另一个字母或 `|` 时位置 2 的预测跟着换掉的那个词元走的行所占的比例（读输入 3 的模型会跟着走；看不到它的模型只能碰巧相同）、续写对的留出词个数（共 36 个），以及 50 行自由生成中：符合规则的行数、其中互不相同的行数、空行数。
""",
    en=r"""
**Free targets.** A target is free if, after its prefix, the corpus continues with more than one token: the past does not decide it. There are 648 of them, three per line (positions 0, 1 and 2). A causal model gives the same prediction after the same prefix, so the best it can do is bet on the most frequent continuation of each prefix, which gets at most 17.6% of the free targets right (the first line the cell below prints).

After that the cell prints one row per model and seed: the mask (`True` or `False`), the seed, the teacher-forced loss on the corpus (every position sees the true inputs before it), the loss with the future hidden, the same on the 36 held-out lines, the accuracy on the free targets with the whole line in view, the loss with the future hidden on the free targets and on the targets the past decides, the share of lines whose prediction at position 2 follows input 3 when input 3 alone is replaced by another letter or `|` (a model that reads input 3 follows it; one that cannot see it agrees only by coincidence), the held-out words completed (of 36), and, of 50 lines of free generation, how many obey the rule, how many of those are distinct, and how many are empty.
""",
    ru=r"""
**Свободные метки.** Метка свободна, если за её префиксом в корпусе идёт больше одного токена: прошлое её не определяет. Таких меток 648, по три в каждой строке (позиции 0, 1 и 2). Причинная модель после одинаковых префиксов даёт одинаковые предсказания, поэтому лучшее, что она может, — ставить на самое частое продолжение каждого префикса, а это не больше 17,6 % верных ответов на свободных метках (первая строка, которую печатает ячейка ниже).

Затем ячейка печатает по строке на каждую модель и seed: есть ли маска (`True` или `False`), seed, потери на корпусе с учителем (teacher forcing: каждая позиция видит настоящие входы перед собой), потери со спрятанным будущим, они же на 36 отложенных строках, точность на свободных метках, когда видна вся строка, потери со спрятанным будущим на свободных метках и на метках, которые определяет прошлое, долю строк, в которых предсказание в позиции 2 следует за входом 3, если заменить только его другой буквой или `|` (модель, читающая вход 3, следует за ним; модель, которая его не видит, совпадает с ним лишь случайно), число верно продолженных отложенных слов (из 36) и для 50 свободно порождённых строк — сколько из них подчиняются правилу, сколько среди них различных и сколько пустых.
""",
)

code(r"""
#zh 自由目标：同一前缀之后语料里出现过不止一种词元
#en free targets: the corpus follows their prefix with more than one token
#ru свободные метки: за их префиксом в корпусе идёт больше одного токена
free = np.zeros(targets.shape, dtype=bool)
for b, t in zip(*np.nonzero(targets != IGNORE)):
    free[b, t] = len(counts[tuple(inputs[b, :t + 1])]) > 1
ceiling = (sum(max(after.values()) for after in counts.values()
               if len(after) > 1) / free.sum())
print(int(free.sum()), free.sum(axis=0), round(ceiling, 3))
assert (free.sum() == 648
        and list(free.sum(axis=0)) == [216, 216, 216, 0, 0, 0, 0, 0]
        and round(ceiling, 3) == 0.176)

def completions_right(model, causal):
    return sum(completion(model, line, causal)[0] == line + "<eos>"
               for line in held_out)

def free_lines(model, causal):
    samples = [line_of(generate_without_cache(model, [BOS], 8, causal,
                                              temperature=1.0, seed=s)[0])
               for s in range(50)]
    valid = [s for s in samples if s is not None and is_mirror_line(s)]
    #zh 合规的行、其中不同的行、以 <eos> 开头的行
    #en valid lines, distinct ones, lines that start with <eos>
    #ru строки по правилу, различные из них, строки, начатые с <eos>
    return len(valid), len(set(valid)), sum(s == "" for s in samples)

#zh 只把输入 3 换成另一个字母或 |：位置 2 的预测会跟着它变吗？
#en input 3 alone replaced by another letter or |: does the prediction
#en at position 2 follow it?
#ru заменён только вход 3 (другой буквой или |): следует ли за ним
#ru предсказание в позиции 2?
answers = [vocab.index(token) for token in "ab|дж春雨"]  # (7,)
swap = np.random.default_rng(0)
replaced = inputs.copy()
replaced[:, 3] = [swap.choice([a for a in answers if a != token])
                  for token in inputs[:, 3]]

def follows_next(model, causal):
    prediction = model.forward(replaced, causal).argmax(axis=-1)[:, 2]
    return float(np.mean(prediction == replaced[:, 3]))

table = {}
for (causal, seed), (model, curve) in runs.items():
    hidden = hidden_future_logits(model, inputs, causal)  # (B, T, V)
    in_view = model.forward(inputs, causal).argmax(axis=-1)  # (B, T)
    only_free = np.where(free, targets, IGNORE)
    only_fixed = np.where(free, IGNORE, targets)
    table[causal, seed] = dict(
        forced=model.loss(inputs, targets, causal),
        hidden=layers.cross_entropy_forward(hidden, targets)[0],
        held=future_hidden_loss(model, held_inputs, held_targets, causal),
        free_accuracy=float(np.mean(in_view[free] == targets[free])),
        hidden_free=layers.cross_entropy_forward(hidden, only_free)[0],
        hidden_fixed=layers.cross_entropy_forward(hidden, only_fixed)[0],
        follows_next=follows_next(model, causal),
        right=completions_right(model, causal),
        lines=free_lines(model, causal))
for causal in (True, False):
    for seed in SEEDS:
        row = table[causal, seed]
        print(causal, seed,
              *(f"{row[k]:.4f}" for k in ("forced", "hidden", "held")),
              f"{row['free_accuracy']:.3f}",
              *(f"{row[k]:.2f}" for k in ("hidden_free", "hidden_fixed")),
              f"{row['follows_next']:.3f}", row["right"], *row["lines"])
""")

code(r"""
def seed_range(causal, key):
    values = [table[causal, seed][key] for seed in SEEDS]
    return min(values), max(values)

for seed in SEEDS:
    m, u = table[True, seed], table[False, seed]
    assert (abs(m["hidden"] - m["forced"]) < 1e-12
            and best_causal < m["forced"] < best_causal + 0.05)
    assert (held_rule_level < m["held"] < held_rule_level + 0.03
            and m["free_accuracy"] <= ceiling)
    assert m["right"] == 36 and m["lines"][0] >= 48
    assert u["forced"] < best_causal / 100 and u["free_accuracy"] == 1.0
    assert (u["hidden"] > m["hidden"] + 1.5
            and u["hidden_free"] > 2 * np.log(6))
unmasked_lines = [table[False, seed]["lines"] for seed in SEEDS]
assert seed_range(False, "right") == (0, 31)
assert sorted(valid for valid, _, _ in unmasked_lines) == [0, 0, 0, 2, 46]
assert (unmasked_lines[1][:2] == (46, 5)
        and [empty for _, _, empty in unmasked_lines] == [50, 0, 0, 1, 0])
print([tuple(round(v, 4) for v in seed_range(True, k))
       for k in ("forced", "held")])
print([tuple(round(v, 4) for v in seed_range(False, k))
       for k in ("forced", "hidden")],
      [tuple(round(v, 2) for v in seed_range(False, k))
       for k in ("hidden_free", "hidden_fixed")],
      seed_range(False, "right"),
      sorted(table[False, seed]["lines"][0] for seed in SEEDS))
follows = [table[False, seed]["follows_next"] for seed in SEEDS]
by_coincidence = [table[True, seed]["follows_next"] for seed in SEEDS]
print([round(f, 3) for f in follows],
      (round(min(by_coincidence), 3), round(max(by_coincidence), 3)))
assert [round(f, 3) for f in follows] == [1.0, 0.269, 0.0, 1.0, 0.014]
assert 0.09 < min(by_coincidence) and max(by_coincidence) < 0.16
""")

md(
    zh=r"""
在全部五个种子下都成立的是（上一个单元格逐一断言，并打印了范围）：

* 不带掩码的模型，强制教学下的损失是 0.0004～0.0006，比 $\mathcal{L}^*$ 低两个数量级以上；
* 看得到整行时，它在自由目标上的准确率是 100%，而任何因果模型都不可能超过 17.6%（带掩码的模型约 16%）；
* 把未来藏起来后，它的损失是 2.50～5.12，而带掩码的模型是 0.7246～0.7342；单看自由目标，它的损失是 5.53～8.14，在 6 个字母中均匀地猜也只有 $\ln 6 \approx 1.79$；
* 带掩码的模型 36 个留出词全部续写正确，50 行里至少 48 行符合规则，留出行上的损失是 0.7262～0.7393，紧贴这些行的规则水平 0.7160。

随种子而变的，是不带掩码的模型在生成时错得有多厉害。它续写对的留出词从 0 到 31 个不等；把未来藏起来时，它在由过去决定的目标上的损失从 0.32 到 3.20 不等：种子 3 的模型几乎学会了从过去读这些目标，所以能写对 31 个。它从哪里读答案，也随种子而变。只把输入 3 换成另一个字母或 `|`：在种子 0 和 3 下，位置 2 的预测每一行都跟着换掉的词元走；种子 1 下是 27% 的行；种子 2 和 4 下只有 0% 和 1.4%，不比带掩码的模型多，而带掩码的模型根本看不到输入 3，只是碰巧相同（9%～15%）。可是在每个种子下，它都答对全部自由目标：不读下一个位置时，答案就来自更靠后的输入（`|` 之后镜像的那一半重复了这些字母）。所以“它学会了抄下一个输入”只在部分种子下成立；在每个种子下都成立的是：过去决定不了的目标，它都从未来读。它的 50 行自由生成中，符合规则的有 0、0、0、2 或 46 行；种子 1 的那 46 行只有 5 种，因为藏起未来之后，它已经不会在自由字母之间分配概率了。50 行全以 `<eos>` 开头的只有种子 0（种子 3 下有 1 行）。所以本节的结论只建立在稳健的信号上：训练损失低于任何因果模型都达不到的下界；过去无从预测的目标，它全部答对；把未来藏起来后，损失远高于带掩码的模型。

下图画出五个种子下，训练过程中把未来藏起来的损失（蓝色：带掩码；橙色：不带掩码）。对带掩码的模型，这就是普通的损失，它降到 $\mathcal{L}^*$ 附近就停住。不带掩码的模型起初也下降，因为它这时还在从过去学习；找到捷径之后，它就一路上升：在每个种子下，从第 50 步起每过 50 步都比前一次高。训练损失越来越好，它在生成时要面对的真正任务上却越来越差。
""",
    en=r"""
What holds at all five seeds (the cell above asserts it for each seed and prints the ranges):

* the unmasked model's teacher-forced loss is 0.0004–0.0006, more than two orders of magnitude below $\mathcal{L}^*$;
* with the whole line in view it gets 100% of the free targets right, where no causal model can exceed 17.6% (the masked model gets about 16%);
* with the future hidden its loss is 2.50–5.12, against 0.7246–0.7342 for the masked model; on the free targets alone it is 5.53–8.14, where a uniform guess among the 6 letters would give $\ln 6 \approx 1.79$;
* the masked model completes all 36 held-out words, writes at least 48 valid lines of 50, and has a held-out loss of 0.7262–0.7393, close to the rule level 0.7160 of those lines.

What varies with the seed is how badly the unmasked model fails at generation. It completes anywhere from 0 to 31 of the 36 held-out words, and with the future hidden its loss on the targets the past decides ranges from 0.32 to 3.20: at seed 3 it has nearly learned to read them from the past, which is why it completes 31. Where it reads the answer varies too. Replace input 3 alone by another letter or `|`: at seeds 0 and 3 its prediction at position 2 follows the replacement in every line, at seed 1 in 27% of them, and at seeds 2 and 4 in 0% and 1.4%, no more than the masked model, which cannot see input 3 and agrees with it only by coincidence (9–15%). Yet at every seed it gets every free target right, so where it does not read the next position, the answer comes from later inputs (the mirrored half after `|` repeats the letters). "It learned to copy the next input" is therefore true at some seeds only; what holds at every seed is that it reads from the future whatever the past does not decide. Of its 50 free lines, 0, 0, 0, 2 or 46 obey the rule; the 46 of seed 1 are only 5 different lines, because with the future hidden it no longer spreads its probability over the free letters. All 50 lines start with `<eos>` only at seed 0 (at seed 3, one line does). The conclusions of this section therefore rest on the signals that hold at every seed: a training loss below a bound no causal model can reach, every unpredictable target predicted, and, with the future hidden, a loss far above the masked model's.

The figure below follows the loss with the future hidden during training at the five seeds (blue: with the mask; orange: without). For the masked model it is the ordinary loss, which falls to near $\mathcal{L}^*$ and stays there. Without the mask it falls at first, while the model still learns from the past; once the model has found the shortcut, the loss rises, at every seed, at each 50-step mark from step 50 on. Its training loss keeps improving while it gets worse at the task it will face when it generates.
""",
    ru=r"""
При всех пяти значениях seed выполняется следующее (ячейка выше проверяет это для каждого seed и печатает диапазоны):

* потери модели без маски с учителем — 0,0004–0,0006, больше чем на два порядка ниже $\mathcal{L}^*$;
* когда видна вся строка, она верно предсказывает 100 % свободных меток, хотя ни одна причинная модель не может превысить 17,6 % (у модели с маской около 16 %);
* со спрятанным будущим её потери 2,50–5,12, а у модели с маской — 0,7246–0,7342; на одних свободных метках — 5,53–8,14, тогда как равномерное угадывание среди 6 букв дало бы $\ln 6 \approx 1{,}79$;
* модель с маской продолжает все 36 отложенных слов, пишет не меньше 48 правильных строк из 50, и её потери на отложенных строках — 0,7262–0,7393, совсем рядом с уровнем правила для этих строк 0,7160.

От seed зависит другое: насколько плохо модель без маски справляется с генерацией. Она верно продолжает от 0 до 31 отложенного слова из 36, а её потери со спрятанным будущим на метках, которые определяет прошлое, лежат в пределах от 0,32 до 3,20: при seed 3 она почти научилась читать их из прошлого, поэтому и продолжает 31 слово. От seed зависит и то, откуда она берёт ответ. Заменим только вход 3 другой буквой или `|`: при seed 0 и 3 предсказание в позиции 2 следует за заменой во всех строках, при seed 1 — в 27 % строк, при seed 2 и 4 — в 0 % и 1,4 %, не чаще, чем у модели с маской, которая вход 3 вообще не видит и совпадает с ним лишь случайно (9–15 %). И всё же при любом seed она угадывает все свободные метки: если она не читает следующую позицию, ответ приходит из более поздних входов (зеркальная половина после `|` повторяет буквы). Так что «она научилась списывать следующий вход» верно лишь при некоторых seed; при любом seed верно другое: всё, чего не определяет прошлое, она читает из будущего. Из её 50 свободных строк правилу подчиняются 0, 0, 0, 2 или 46; эти 46 строк при seed 1 — всего 5 разных, потому что со спрятанным будущим она уже не распределяет вероятность между свободными буквами. Все 50 строк начинаются с `<eos>` только при seed 0 (при seed 3 — одна строка). Поэтому заключения раздела опираются лишь на то, что держится при любом seed: потери при обучении ниже границы, недоступной ни одной причинной модели; все непредсказуемые метки угаданы; со спрятанным будущим потери намного выше, чем у модели с маской.

На рисунке ниже — потери со спрятанным будущим по ходу обучения при пяти значениях seed (синие — с маской, оранжевые — без). У модели с маской это обычные потери: они падают почти до $\mathcal{L}^*$ и там остаются. Без маски они сначала тоже падают, пока модель ещё учится по прошлому; когда же она находит лазейку, потери растут: при каждом seed, начиная с шага 50, каждая следующая отметка через 50 шагов выше предыдущей. Потери при обучении всё улучшаются, а с задачей, которая ждёт модель при генерации, она справляется всё хуже.
""",
)

code(r"""
fig, ax = loss_axes()
for seed in SEEDS:
    ax.plot(checkpoints, runs[True, seed][1], color="C0", linewidth=1.5,
            label="causal=True" if seed == 0 else None)
    ax.plot(checkpoints, runs[False, seed][1], color="C1", linewidth=1.5,
            label="causal=False" if seed == 0 else None)
ax.legend(fontsize=12, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2,
          frameon=False)
fig.tight_layout()
for seed in SEEDS:
    curve = runs[False, seed][1]
    assert curve[1] < curve[0]  #zh 起初下降 #en falls at first #ru сначала падает
    #zh 从第 50 步起每 50 步都上升
    #en from step 50 on, rises every 50 steps
    #ru с шага 50 растёт каждые 50 шагов
    assert np.all(np.diff(curve[2::2]) > 0)
print([round(float(runs[False, seed][1][1]), 2) for seed in SEEDS],
      [round(float(runs[False, seed][1][-1]), 2) for seed in SEEDS])
plt.show()
""", alt=dict(
    zh="五个随机种子下，训练过程中把未来藏起来时的损失，横轴为训练步数。五条蓝线（带掩码）从约 2.5～3.2 降到约 0.73，贴着虚线 L*；五条橙线（不带掩码）先在第 25 步降到约 1.6～2.3，然后一路上升，到第 300 步时在 2.5 到 5.1 之间，都在点线 ln V 之上。",
    en="The loss with the future hidden during training, at five seeds, against the training step. Five blue lines (masked) fall from about 2.5–3.2 to about 0.73, along the dashed line L*; five orange lines (unmasked) first dip to about 1.6–2.3 at step 25, then rise steadily to between 2.5 and 5.1 at step 300, all above the dotted line ln V.",
    ru="Потери со спрятанным будущим по ходу обучения при пяти значениях seed в зависимости от шага обучения. Пять синих линий (с маской) падают примерно с 2,5–3,2 до 0,73 и идут вдоль пунктира L*; пять оранжевых (без маски) сначала опускаются к шагу 25 примерно до 1,6–2,3, а затем неуклонно растут и к шагу 300 оказываются между 2,5 и 5,1 — все выше точечной линии ln V.",
))

md(
    zh=r"""
### 掩码换来了什么

那么，是掩码让模型学会了规则吗？不完全是。泄漏来自训练的方式：一行中每个位置都计分，而它的目标就在输入里。不加掩码的模型也可以老老实实地训练：只把前缀 $x_0, \dots, x_t$ 交给它，只给最后一行对目标 $t$ 计分，目标就永远不会出现在它的输入里。`prefix_loss_and_grads` 对每个 $t$ 都这样做，再像原来一样对整个批量求平均；`train` 用它代替通常的损失。

在五个种子下，这样训练出的模型把未来藏起来时的损失是 0.7209～0.7356（带掩码的模型是 0.7246～0.7342），留出行上是 0.7215～0.7365，36 个留出词每次都全部续写正确：不加掩码、也不读未来，它同样学会了规则。它失去的是效率。每个训练步要做 $T = 8$ 次前向和反向传播，而不是一次，因为每个前缀都是一次单独的计算；生成时也什么都不能复用，因为每来一个新词元，所有旧位置上的残差流都会改变。掩码把这两样都换了回来：一次传播就同时训练全部 $T$ 个位置，每个位置只看自己的前缀；旧位置的键和值从此不再改变，可以缓存（§7.5）。也正因为每次训练的代价是原来的 8 倍，下面五次训练分在三个单元格里。
""",
    en=r"""
### What the mask buys

Is it the mask, then, that lets a model learn the rule? Not quite. The leak comes from the way the model is trained: every position of a line is scored while its target sits in the input. A model without the mask can be trained honestly too: give it only the prefix $x_0, \dots, x_t$ and score only its last row against target $t$, so that the target is never in its input. `prefix_loss_and_grads` does this for every $t$ and averages over the batch as before; `train` uses it in place of the usual loss.

At the five seeds, the model trained this way has a loss with the future hidden of 0.7209–0.7356 (the masked model: 0.7246–0.7342) and 0.7215–0.7365 on the held-out lines, and it completes all 36 held-out words every time: without the mask, and without reading the future, it learns the rule as well. What it loses is efficiency. Every training step costs $T = 8$ forward and backward passes instead of one, because each prefix is a computation of its own; and generation can reuse nothing, because every new token changes the residual stream at every old position. The mask buys both back: one pass trains all $T$ positions at once, each on its own prefix, and the keys and values of old positions never change again, so they can be cached (§7.5). Because each run costs eight times as much, the five runs below are spread over three cells.
""",
    ru=r"""
### Что даёт маска

Так, может быть, выучить правило позволяет именно маска? Не совсем. Утечка возникает из-за способа обучения: учитывается каждая позиция строки, а её целевая метка лежит во входе. Модель без маски тоже можно обучать честно: давать ей только префикс $x_0, \dots, x_t$ и учитывать лишь её последнюю строку с целевой меткой $t$ — тогда метки во входе никогда нет. `prefix_loss_and_grads` делает это для каждого $t$ и, как и раньше, усредняет по всему батчу; `train` использует её вместо обычной функции потерь.

При пяти значениях seed обученная так модель со спрятанным будущим даёт потери 0,7209–0,7356 (модель с маской — 0,7246–0,7342), на отложенных строках — 0,7215–0,7365 и каждый раз верно продолжает все 36 отложенных слов: без маски и не читая будущего, она тоже усваивает правило. Теряет она в эффективности. Каждый шаг обучения стоит $T = 8$ прямых и обратных проходов вместо одного, потому что каждый префикс — отдельное вычисление; а при генерации ничего нельзя использовать повторно, потому что каждый новый токен меняет остаточный поток во всех старых позициях. Маска возвращает и то и другое: один проход обучает сразу все $T$ позиций, каждую по её собственному префиксу, а ключи и значения старых позиций больше не меняются, и их можно кэшировать (§7.5). Каждый такой запуск обходится в восемь раз дороже, поэтому пять запусков ниже разнесены по трём ячейкам.
""",
)

code(r"""
def prefix_loss_and_grads(model, inputs, targets):
    #zh 不加掩码，但只在前缀上训练：第 t 行只由输入 0..t 算出，只给最后一行计分，目标从不在输入里
    #en no mask, but trained on prefixes: row t is computed from inputs 0..t
    #en alone and only the last row is scored, so the target is never in the
    #en input
    #ru без маски, но на префиксах: строка t вычисляется только из входов
    #ru 0..t, учитывается лишь последняя строка, и целевой метки во входе нет
    n_scored = int((targets != IGNORE).sum())
    loss, grads = 0.0, {name: np.zeros_like(value) for name,
                        value in model.params.items()}
    for t in range(inputs.shape[1]):  #zh 每一步 T 次前向传播 #en T forward passes per step #ru T прямых проходов на шаг
        scored_here = int((targets[:, t] != IGNORE).sum())
        if scored_here == 0:
            continue
        # (B, t + 1, V)
        logits, saved = model.forward_train(inputs[:, :t + 1], causal=False)
        last_only = np.full(logits.shape[:2], IGNORE)
        last_only[:, -1] = targets[:, t]
        part, saved_loss = layers.cross_entropy_forward(logits, last_only)
        share = scored_here / n_scored  #zh 整个批量上的平均 #en the mean over the whole batch #ru среднее по всему батчу
        loss += share * part
        for name, grad in model.backward(
            layers.cross_entropy_backward(share, saved_loss),
            saved).items():
            grads[name] += grad
    return loss, grads

#zh 种子 -> (模型, 藏起未来的损失, 留出行上的损失, 续写对的词数)
#en seed -> (model, loss with the future hidden, held-out loss, words
#en completed)
#ru seed -> (модель, потери со спрятанным будущим, потери на отложенных
#ru строках, продолженные слова)
prefix_runs = {}

def run_on_prefixes(seed):
    model = Decoder.init(len(vocab), 8, 16, 2, 2, seed=seed)
    train(model, corpus, vocab, steps=300, batch_size=32, lr=0.01,
          seed=seed + 1, loss_and_grads=prefix_loss_and_grads)
    prefix_runs[seed] = (
        model, future_hidden_loss(model, inputs, targets, False),
        future_hidden_loss(model, held_inputs, held_targets, False),
        completions_right(model, False))
    print(seed, *(round(value, 4) for value in prefix_runs[seed][1:3]),
          prefix_runs[seed][3])

run_on_prefixes(0)
""")

code(r"""
for seed in (1, 2):  #zh 每次训练代价是原来的 8 倍，所以分两个单元格 #en each run costs eight times as much, hence two cells #ru каждый запуск в восемь раз дороже, поэтому две ячейки
    run_on_prefixes(seed)
""")

code(r"""
for seed in (3, 4):
    run_on_prefixes(seed)
for seed, (model, loss, held, right) in prefix_runs.items():
    assert (best_causal < loss < best_causal + 0.05
            and held_rule_level < held < held_rule_level + 0.03
            and right == 36)
print([round(f(run[i] for run in prefix_runs.values()), 4) for i in (1, 2)
       for f in (min, max)])
""")

md(
    zh=r"""
小结一下这个实验。不加掩码时，训练损失好得“不可能”：低于任何因果模型的下界，过去无从预测的目标也全部答对。一旦像生成时那样把未来藏起来，它的损失在我们试过的每个种子下都远高于带掩码的模型；它生成时错成什么样，则随种子而变。单看平均训练损失发现不了作弊，在这里揭穿它的是算得出的下界 $\mathcal{L}^*$。在真实文本上，稍长的前缀几乎都只出现一次，靠计数得到的下界低得毫无用处，好得过分的损失看上去就像成功。但泄漏在那里仍然有迹可循：把未来藏起来的损失；本该是自由选择的位置上（例如文档的第一个词元）损失几乎为 0；还有 §4 和 §7.4 的未来扰动检验，它直接在代码上找泄漏。掩码本身并不教会模型什么：它让一次传播就能训练每个位置，而答案不在视野之内；它也让 KV 缓存成立。
""",
    en=r"""
To sum up the experiment: without the mask the training loss is "impossibly" good, below the bound of every causal model, and the model gets every unpredictable target right. Hide the future, as generation does, and its loss is far above the masked model's at every seed we tried; how badly it then writes depends on the seed. The mean training loss by itself gives nothing away; here the computed bound $\mathcal{L}^*$ does. On real text, where almost every longer prefix occurs only once, counting gives a bound too low to be of use, and a loss that is too good looks like success. The leak still shows there: in the loss with the future hidden, in a loss near 0 at positions whose next token is a free choice (the first token of a document, say), and in the future-perturbation test of §4 and §7.4, which looks for it in the code itself. The mask teaches the model nothing: it lets one pass train every position without the answer in view, and it makes the KV cache valid.
""",
    ru=r"""
Подведём итог эксперимента. Без маски потери при обучении «невозможно» хороши — ниже границы для любой причинной модели, — и модель угадывает все непредсказуемые метки. Стоит спрятать будущее, как при генерации, и её потери оказываются намного выше, чем у модели с маской, при каждом опробованном seed; насколько плохо она при этом пишет, зависит от seed. Сами по себе средние потери при обучении ничего не выдают; здесь списывание разоблачила вычисленная граница $\mathcal{L}^*$. На настоящем тексте, где почти каждый префикс подлиннее встречается лишь однажды, подсчёт даёт слишком низкую границу, чтобы от неё была польза, и подозрительно хорошие потери выглядят просто успехом. Но утечка видна и там: в потерях со спрятанным будущим, в почти нулевых потерях в позициях, где следующий токен выбирается свободно (скажем, первый токен документа), и в проверке возмущением будущего из §4 и §7.4, которая ищет её в самом коде. Маска ничему модель не учит: она позволяет за один проход обучить каждую позицию так, чтобы ответ не был виден, и делает KV-кэш корректным.
""",
)

md(
    zh=r"""
## 7.4 整个模型的因果性

§4.3 和 §4.4 在单层模型上做过带阴性对照的未来扰动检验。现在把同一个检验 `lib.checks.check_causality` 原样用在训练好的两层模型上：取一个留出行，前缀保留 `<bos>` 和词的 3 个字母（前 4 个位置），之后的每个位置都换成别的词元。带掩码的模型前缀 logits 的变化**恰好为 0.0**；同一组参数关掉掩码（`causal=False`）作为阴性对照，前缀变化约为 2.9088，说明这个检验看得见泄漏。
""",
    en=r"""
## 7.4 Causality of the whole model

§4.3 and §4.4 ran the future-perturbation test with its negative control on a one-layer model. Now we apply the same check, `lib.checks.check_causality`, unchanged to the trained two-layer model: take a held-out line, keep the prefix of `<bos>` and the word's 3 letters (the first 4 positions), and change every later position to a different token. The masked model's prefix logits change by **exactly 0.0**; the same parameters with the mask off (`causal=False`), the negative control, change the prefix by about 2.9088, so the test can see a leak.
""",
    ru=r"""
## 7.4 Причинность всей модели

В §4.3 и §4.4 проверка возмущением будущего с отрицательным контролем проводилась на однослойной модели. Теперь применим ту же проверку, `lib.checks.check_causality`, без изменений к обученной двухслойной модели: возьмём отложенную строку, оставим префикс из `<bos>` и 3 букв слова (первые 4 позиции), а каждую следующую позицию заменим другим токеном. У модели с маской логиты префикса не меняются **совсем**: изменение равно нулю; те же параметры с отключённой маской (`causal=False`) — отрицательный контроль — меняют префикс примерно на 2,9088, то есть проверка способна увидеть утечку.
""",
)

code(r"""
line = held_out[8]                           #zh 三种文字各一个字母 #en one letter of each script #ru по букве каждой письменности
ids = np.array([BOS] + encode(line, vocab))  # (8,)
perturbed = checks.perturb_future(
    ids, 4, np.random.default_rng(7), vocab_size=len(vocab))
print(decode(ids, vocab), "|", decode(perturbed, vocab))
result = checks.check_causality(
    masked.forward, lambda t: masked.forward(t, causal=False), ids,
    perturbed, prefix_length=4, tolerance=0.0)
print(result.change, round(result.control_change, 4), result.passed)
assert (result.change == 0.0 and round(result.control_change, 4) == 2.9088
        and result.passed)
""")

md(
    zh=r"""
### 对层数的归纳，在真实模型上

§4.2 的结构论证对层数做归纳：嵌入的第 $i$ 行只依赖 $x_i$（归纳起点）；若进入某一块的残差流第 $0$～$i$ 行只依赖 $x_0, \dots, x_i$，那么离开这一块时依然如此，因为层归一化和 MLP 逐位置计算，注意力只读 $j \le i$，残差连接逐位置相加（归纳步骤）。`residual_stream` 返回 $L+1 = 3$ 个数组 $x^{(0)}, x^{(1)}, x^{(2)}$：$x^{(0)}$ 是嵌入，$x^{(\ell+1)}$ 是块 $\ell$ 的输出（块从 0 开始编号，与参数名 `blocks.0`、`blocks.1` 一致）。我们逐个量出同一对序列的前缀变化：

* 带掩码：三个数组的前缀变化都恰好是 0，归纳的每一步都成立；
* 两个块都关掉掩码：$x^{(0)}$ 仍是 0（嵌入本就逐位置计算），变化从 $x^{(1)}$ 开始；
* 只关掉块 1（`causal=(True, False)`）：$x^{(0)}$ 和 $x^{(1)}$ 仍是 0，泄漏出现在 $x^{(2)}$；
* 只关掉块 0（`causal=(False, True)`）：变化从 $x^{(1)}$ 开始；块 1 虽然带着掩码，也无法把泄漏“洗掉”，它忠实地把已经混入残差流的未来信息传了下去。

最后的层归一化和输出层都逐位置计算，进入 $x^{(L)}$ 的泄漏也会进入 logits。所以只要有一层泄漏，整个模型就泄漏；要保证因果性，每一层都必须因果。
""",
    en=r"""
### Induction over layers, on the real model

The structural argument of §4.2 is an induction over layers. The base case: row $i$ of the embedding depends only on $x_i$. The induction step: if rows $0$ to $i$ of the residual stream entering a block depend only on $x_0, \dots, x_i$, they still do when they leave it, because layer normalisation and the MLP work position by position, attention reads only $j \le i$, and the residual connection adds position by position. `residual_stream` returns $L+1 = 3$ arrays $x^{(0)}, x^{(1)}, x^{(2)}$: $x^{(0)}$ is the embedding and $x^{(\ell+1)}$ the output of block $\ell$ (blocks are numbered from 0, as in the parameter names `blocks.0` and `blocks.1`). We measure the prefix change of the same pair of sequences in each of them:

* with the mask: the prefix change is exactly 0 in all three, so every step of the induction holds;
* with the mask off in both blocks: $x^{(0)}$ is still 0 (the embedding works position by position), and the change starts at $x^{(1)}$;
* with only block 1 unmasked (`causal=(True, False)`): $x^{(0)}$ and $x^{(1)}$ are still 0, and the leak appears in $x^{(2)}$;
* with only block 0 unmasked (`causal=(False, True)`): the change starts at $x^{(1)}$, and block 1, masked as it is, cannot wash it out; it faithfully passes on the future information that has already entered the residual stream.

The final layer normalisation and the output layer work position by position, so a leak that reaches $x^{(L)}$ reaches the logits too. A leak in any one layer is therefore a leak of the whole model; for the model to be causal, every layer must be.
""",
    ru=r"""
### Индукция по слоям на настоящей модели

Структурное рассуждение из §4.2 — это индукция по слоям: строка $i$ эмбеддингов зависит только от $x_i$ (база); если строки с $0$ по $i$ остаточного потока на входе блока зависят только от $x_0, \dots, x_i$, то так же и на его выходе, потому что нормализация слоя и MLP работают позиция за позицией, внимание читает только $j \le i$, а остаточная связь складывает позицию с позицией (шаг индукции). `residual_stream` возвращает $L+1 = 3$ массива $x^{(0)}, x^{(1)}, x^{(2)}$: $x^{(0)}$ — эмбеддинги, $x^{(\ell+1)}$ — выход блока $\ell$ (блоки нумеруются с нуля, как в именах параметров `blocks.0` и `blocks.1`). Измерим в каждом из них изменение префикса для той же пары последовательностей:

* с маской: во всех трёх массивах изменение префикса в точности равно нулю — каждый шаг индукции выполняется;
* без маски в обоих блоках: в $x^{(0)}$ по-прежнему ноль (эмбеддинги считаются позиция за позицией), а изменение начинается с $x^{(1)}$;
* без маски только в блоке 1 (`causal=(True, False)`): $x^{(0)}$ и $x^{(1)}$ остаются неизменными, утечка появляется в $x^{(2)}$;
* без маски только в блоке 0 (`causal=(False, True)`): изменение начинается с $x^{(1)}$, и блок 1, хоть и с маской, не может его «смыть» — он добросовестно передаёт дальше информацию из будущего, которая уже попала в остаточный поток.

Последняя нормализация слоя и выходной слой работают позиция за позицией, поэтому утечка, дошедшая до $x^{(L)}$, доходит и до логитов. Итак, утечка в любом одном слое — это утечка всей модели; чтобы модель была причинной, причинным должен быть каждый слой.
""",
)

code(r"""
def prefix_change_per_layer(causal):
    before, after = (masked.residual_stream(ids, causal),
                     masked.residual_stream(perturbed, causal))
    # (L + 1,)
    return np.array([np.abs(a[:4] - b[:4]).max() for a,
                     b in zip(before, after)])

table = {causal: prefix_change_per_layer(causal)
         for causal in (True, False, (True, False), (False, True))}
for causal, changes in table.items():
    print(causal, np.round(changes, 4))
assert np.all(table[True] == 0.0)
assert table[False][0] == 0.0 and np.all(table[False][1:] > 0.01)
assert (np.all(table[(True, False)][:2] == 0.0)
        and table[(True, False)][2] > 0.01)
assert (table[(False, True)][0] == 0.0
        and np.all(table[(False, True)][1:] > 0.01))
""")

md(
    zh=r"""
### 从梯度看同一件事

因果性还可以从反向传播一侧来看：位置 $i$ 的输出只依赖位置 $0, \dots, i$，所以它的梯度也只能流回这些位置。我们让上游梯度只在 logits 的第 $i$ 行非零，看位置表 $P$ 的哪些行收到了梯度（$P[j]$ 只在位置 $j$ 进入模型，它的梯度就是“位置 $j$ 是否被读到”的记录）。对每个 $i$ 得到一行 0/1，拼起来是一个 $8 \times 8$ 的矩阵，我们称之为梯度的**可达矩阵**：带掩码的模型是一个下三角，和 §1 的许可集合完全一样，只不过这次它穿过了两层的全部计算；关掉掩码后矩阵全是 1。
""",
    en=r"""
### The same thing, seen through the gradient

Causality can also be seen from the backward side: the output at position $i$ depends only on positions $0, \dots, i$, so its gradient can flow back only to those positions. We let the upstream gradient be non-zero only in row $i$ of the logits and look at which rows of the position table $P$ receive a gradient ($P[j]$ enters the model only at position $j$, so its gradient records whether position $j$ was read). Each $i$ gives a row of 0s and 1s, and together they form an $8 \times 8$ matrix, the **reachability matrix** of the gradient. For the masked model it is lower-triangular: the allowed set of §1 again, except that this time it runs through the entire computation of both layers; with the mask off the matrix is all ones.
""",
    ru=r"""
### То же самое через градиент

Причинность видна и со стороны обратного прохода: выход в позиции $i$ зависит только от позиций $0, \dots, i$, поэтому и градиент может течь только к ним. Пусть градиент по выходу отличен от нуля только в строке $i$ логитов; посмотрим, какие строки таблицы позиций $P$ получат градиент ($P[j]$ входит в модель только в позиции $j$, поэтому её градиент показывает, читалась ли позиция $j$). Каждое $i$ даёт строку из нулей и единиц, вместе они образуют матрицу $8 \times 8$ — **матрицу достижимости** градиента. У модели с маской она нижнетреугольная — в точности множество разрешённых позиций из §1, только теперь оно проходит через всё вычисление обоих слоёв; без маски матрица состоит из одних единиц.
""",
)

code(r"""
def reached_positions(model, causal):
    logits, saved = model.forward_train(ids, causal)     # (T, V)
    reached = np.zeros((len(ids), len(ids)), dtype=int)  # (i, j)
    for i in range(len(ids)):
        d_logits = np.zeros_like(logits)
        d_logits[i] = np.random.default_rng(i).standard_normal(
            logits.shape[1])
        # (C, D)
        d_position = model.backward(d_logits, saved)["position_table"]
        reached[i] = np.abs(d_position[:len(ids)]).max(axis=1) > 0
    return reached

reached_masked, reached_control = reached_positions(
    masked, True), reached_positions(masked, False)
print(reached_masked)
print(int(reached_control.sum()))
assert (np.array_equal(reached_masked, np.tril(np.ones((8, 8), dtype=int)))
        and reached_control.sum() == 64)
""")

md(
    zh=r"""
一个训练好的模型只是一个例子。下面随机抽取层数 $L$（1～4）、头数 $H$、宽度 $D$、长度 $T$ 和前缀长度 $p$，每次都在随机参数的模型上跑完整的检验（含阴性对照）。每行依次是 $L, H, D, T, p$、前缀变化、对照是否看到了变化。
""",
    en=r"""
One trained model is a single example. Below we draw the number of layers $L$ (1 to 4), the head count $H$, the width $D$, the length $T$ and the prefix length $p$ at random, and each time run the full check, control included, on a model with random parameters. Each printed row is $L, H, D, T, p$, the prefix change, and whether the control saw a change.
""",
    ru=r"""
Одна обученная модель — лишь один пример. Ниже случайно выбираем число слоёв $L$ (от 1 до 4), число голов $H$, ширину $D$, длину $T$ и длину префикса $p$ и каждый раз запускаем полную проверку вместе с контролем на модели со случайными параметрами. Каждая строка: $L, H, D, T, p$, изменение префикса и то, увидел ли контроль изменение.
""",
)

code(r"""
rng = np.random.default_rng(4)
for trial in range(6):
    n_layers, n_heads = int(rng.integers(1, 5)), int(rng.integers(1, 4))
    width, T = n_heads * int(rng.integers(1, 6)), int(rng.integers(2, 17))
    p = int(rng.integers(1, T))
    random_decoder = Decoder.init(
        12, T, width, n_heads, n_layers, seed=trial)
    ids_r = rng.integers(0, 12, size=T)
    perturbed_r = checks.perturb_future(ids_r, p, rng, vocab_size=12)
    r = checks.check_causality(
        random_decoder.forward,
        lambda t: random_decoder.forward(t, causal=False), ids_r,
        perturbed_r, p, tolerance=0.0)
    print(n_layers, n_heads, width, T, p, r.change, r.control_saw_change)
    assert r.passed and r.change == 0.0
""")

md(
    zh=r"""
## 7.5 逐层 KV 缓存

§5.5 用一个专门搭建、只含注意力层的两层模型说明过：每一层都要有自己的缓存。在 $L$ 个块的解码器里，第 $\ell$ 层旧位置的键和值由进入第 $\ell$ 块的残差流算出；由 §7.4 的结论，这些行不会因新词元而改变，所以每一层的键和值都可以缓存，也**必须各自缓存**。`new_cache()` 返回一个 `DecoderCache`，里面是 $L$ 个 §5 的 `KVCache`；`step(token, cache)` 把新词元放在位置 `len(cache)`，逐层追加键和值，返回这个位置的 logits。

把一个留出行的 8 个词元逐个送入，与完整前向传播逐项比较：最大误差在 $10^{-12}$ 以内（打印时四舍五入到 12 位小数）。缓存的大小与 §5.6 的公式一致：$2 \cdot L \cdot T \cdot D \cdot 8 = 4096$ 字节（float64）。
""",
    en=r"""
## 7.5 A KV cache for every layer

§5.5 showed on a two-layer model built for the purpose, with attention layers only, that every layer needs its own cache. In the decoder of $L$ blocks, the keys and values of old positions in layer $\ell$ are computed from the residual stream entering block $\ell$; by §7.4 those rows do not change when a new token arrives, so every layer's keys and values can be cached, and each layer **must have its own**. `new_cache()` returns a `DecoderCache` holding $L$ `KVCache`s of §5; `step(token, cache)` puts the new token at position `len(cache)`, appends its keys and values layer by layer, and returns the logits of that position.

We feed the 8 tokens of a held-out line one at a time and compare with the full forward pass entry by entry: the largest error is below $10^{-12}$ (printed rounded to 12 decimals). The cache's size agrees with the formula of §5.6: $2 \cdot L \cdot T \cdot D \cdot 8 = 4096$ bytes (float64).
""",
    ru=r"""
## 7.5 KV-кэш для каждого слоя

В §5.5 на двухслойной модели, собранной специально для этого из одних слоёв внимания, было показано, что каждому слою нужен свой кэш. В декодере из $L$ блоков ключи и значения старых позиций в слое $\ell$ вычисляются из остаточного потока на входе блока $\ell$; по §7.4 эти строки не меняются с приходом нового токена, поэтому ключи и значения каждого слоя можно кэшировать — и у каждого слоя **должен быть свой кэш**. `new_cache()` возвращает `DecoderCache` из $L$ объектов `KVCache` из §5; `step(token, cache)` помещает новый токен в позицию `len(cache)`, слой за слоем дописывает его ключи и значения и возвращает логиты этой позиции.

Подадим 8 токенов отложенной строки по одному и поэлементно сравним с полным прямым проходом: наибольшая ошибка меньше $10^{-12}$ (печатается с округлением до 12 знаков). Размер кэша совпадает с формулой из §5.6: $2 \cdot L \cdot T \cdot D \cdot 8 = 4096$ байт (float64).
""",
)

code(r"""
cache = masked.new_cache()
# (T, V)
stepped = np.stack([masked.step(int(token), cache) for token in ids])
full = masked.forward(ids)  # (T, V)
cache_error = float(np.abs(stepped - full).max())
print(cache, [kv.keys.shape for kv in cache.layers], round(cache_error, 12))
assert len(cache) == 8 and cache_error < 1e-12

stored = sum(kv.keys.nbytes + kv.values.nbytes for kv in cache.layers)
formula = checks.kv_cache_bytes(
    n_layers=2, n_heads=2, head_width=8, length=8, itemsize=8)
print(stored, formula)
assert stored == formula == 4096
""")

md(
    zh=r"""
### 两种错误的缓存

缓存的两种典型错误，形状都对得上，程序不会报错，只有与完整前向传播逐项比较才能发现：

* **只缓存第一层。** 第 0 层照常保存历史，更高的层却每一步都从空缓存开始，只能读到新词元自己。最后一个位置的 logits 误差约为 2.0155。
* **位置归零。** 每一步都把新词元当成位置 0（§5.3 的错误，`position=0` 只为演示它而存在）。误差约为 14.15。
""",
    en=r"""
### Two wrong caches

Two typical cache mistakes: in both, every shape matches and nothing raises an error; only an entry-by-entry comparison with the full forward pass finds them.

* **Caching only the first layer.** Layer 0 keeps its history as it should, but every higher layer starts each step from an empty cache and reads only the new token itself. The logits at the last position are off by about 2.0155.
* **Resetting the position to 0.** Every step treats the new token as position 0 (the bug of §5.3; `position=0` exists only to show it). The error is about 14.15.
""",
    ru=r"""
### Два неправильных кэша

Две типичные ошибки кэша: в обеих все формы согласованы и никаких исключений не возникает; найти их можно только поэлементным сравнением с полным прямым проходом.

* **Кэшируется только первый слой.** Слой 0 хранит историю как положено, а каждый более высокий слой на каждом шаге начинает с пустого кэша и читает только сам новый токен. Логиты в последней позиции расходятся примерно на 2,0155.
* **Позиция сбрасывается в 0.** Каждый шаг считает новый токен позицией 0 (ошибка из §5.3; аргумент `position=0` существует только для её демонстрации). Ошибка около 14,15.
""",
)

code(r"""
def step_caching_only_the_first_layer(model, token, position, first_layer):
    # (1, D)
    x = embed(np.array([token]), model.params["token_table"],
              model.params["position_table"], position)
    x = model.block_step(0, x, first_layer)
    for layer in range(1, model.n_layers):
        #zh 上层没有历史
        #en no history above layer 0
        #ru у верхних слоёв нет истории
        x = model.block_step(layer, x, model.new_cache().layers[layer])
    return model.output_head(x)[0]  # (V,)

first_layer = masked.new_cache().layers[0]
first_only = [
    step_caching_only_the_first_layer(masked, int(t), position, first_layer)
    for position, t in enumerate(ids)]
reset_cache = masked.new_cache()
reset = [masked.step(int(t), reset_cache, position=0) for t in ids]
first_only_error = float(np.abs(first_only[-1] - full[-1]).max())
reset_error = float(np.abs(reset[-1] - full[-1]).max())
print(round(first_only_error, 4), round(reset_error, 4))
assert (round(first_only_error, 4) == 2.0155
        and round(reset_error, 4) == 14.15)
""")

md(
    zh=r"""
logits 差多少，并不直接说明模型会写出什么。这一行最后一个位置的误差是 2.0155；但在 §7.3 的五个带掩码模型和 36 个留出行上（共 180 种组合），只缓存第一层时的误差从 0.60 到 2.47 不等，其中 37 种小于 1。要紧的是生成。下面的单元格对每个模型，分别用正确的缓存和两种错误的缓存，像 §7.2 那样贪心续写 36 个留出词。每一层都有缓存时，每个种子下 36 个全对；只缓存第一层时只对 3～21 个；位置归零时一个也不对。
""",
    en=r"""
A gap in the logits does not say directly what the model will write. On this line the error at the last position is 2.0155, but over the five masked models of §7.3 and the 36 held-out lines (180 cases), caching only the first layer gives errors from 0.60 to 2.47, below 1 in 37 cases. What matters is generation. For each model, the cell below completes the 36 held-out words greedily, as in §7.2, once with the correct cache and once with each wrong one. With a cache in every layer all 36 come out right at every seed; caching only the first layer gets 3 to 21 right; resetting the position gets none.
""",
    ru=r"""
Расхождение логитов само по себе ещё не говорит, что модель напишет. На этой строке ошибка в последней позиции равна 2,0155, но на пяти моделях с маской из §7.3 и 36 отложенных строках (180 случаев) кэширование только первого слоя даёт ошибки от 0,60 до 2,47, причём в 37 случаях меньше 1. Важна генерация. Для каждой модели ячейка ниже жадно продолжает 36 отложенных слов, как в §7.2: один раз с правильным кэшем и по разу с каждым неправильным. С кэшем в каждом слое при любом seed верны все 36; если кэшировать только первый слой, верных от 3 до 21; если сбрасывать позицию, ни одного.
""",
)

code(r"""
def completes(step, line):
    #zh step(token, position) 返回该位置的 logits；和 §7.2 一样贪心续写
    #en step(token, position) returns the logits of that position; greedy
    #en completion as in §7.2
    #ru step(token, position) возвращает логиты этой позиции; жадное
    #ru продолжение, как в §7.2
    word = line.split("|")[0]
    ids = [BOS] + encode(word + "|", vocab)
    for position, token in enumerate(ids):
        logits = step(token, position)
    for n in range(len(word) + 1):
        ids.append(int(np.argmax(logits)))
        if n < len(word):
            logits = step(ids[-1], len(ids) - 1)
    return decode(ids[1:], vocab) == line + "<eos>"

def right_with(model, cache_kind):
    right = 0
    for line in held_out:
        cache = model.new_cache()
        step = {
            "every layer": lambda token, position: model.step(token, cache),
            "first layer only": lambda token, position:
                step_caching_only_the_first_layer(model, token, position,
                                                  cache.layers[0]),
            "position reset": lambda token, position:
                model.step(token, cache, position=0),
        }[cache_kind]
        right += completes(step, line)
    return right

errors = []
for seed in SEEDS:
    model = runs[True, seed][0]
    for line in held_out:
        line_ids = np.array([BOS] + encode(line, vocab))
        first = model.new_cache().layers[0]
        last = [step_caching_only_the_first_layer(model, int(t), p, first)
                for p, t in enumerate(line_ids)][-1]
        errors.append(float(np.abs(last
                                   - model.forward(line_ids)[-1]).max()))
print(len(errors), round(min(errors), 2), round(max(errors), 2),
      sum(e < 1 for e in errors))
kinds = ("every layer", "first layer only", "position reset")
right = {seed: [right_with(runs[True, seed][0], kind) for kind in kinds]
         for seed in SEEDS}
for seed in SEEDS:
    print(seed, *right[seed])
assert (len(errors) == 180 and round(min(errors), 2) == 0.6
        and round(max(errors), 2) == 2.47)
assert sum(e < 1 for e in errors) == 37
assert ([r[0] for r in right.values()] == [36] * 5
        and [r[2] for r in right.values()] == [0] * 5)
assert [r[1] for r in right.values()] == [17, 21, 3, 13, 13]
""")

md(
    zh=r"""
### 超出位置表，以及不是单个整数的词元

位置表只有 $C = 8$ 行。缓存存满 8 个位置后再走一步，`step` 抛出 `ValueError`；送入的不是单个整数（例如一个数组），`step` 抛出 `TypeError` 并说明收到的是什么。两种情况下缓存都保持原样：每一层的长度仍是 8，已存的键和值一位也没变。
""",
    en=r"""
### Past the position table, and a token that is not a single int

The position table has only $C = 8$ rows. Once the cache holds 8 positions, one more step makes `step` raise `ValueError`; given something that is not a single int (an array, say), `step` raises `TypeError` and says what it got. Either way the cache is left as it was: every layer still holds 8 positions, and the stored keys and values have not changed by a single bit.
""",
    ru=r"""
### Шаг за пределы таблицы позиций и токен, не являющийся целым числом

В таблице позиций всего $C = 8$ строк. Когда в кэше уже 8 позиций, следующий вызов `step` выбрасывает `ValueError`; если передать не одно целое число (например, массив), `step` выбрасывает `TypeError` и сообщает, что получил. В обоих случаях кэш остаётся прежним: в каждом слое по-прежнему 8 позиций, а сохранённые ключи и значения не изменились ни на бит.
""",
)

code(r"""
before = [(kv.keys.copy(), kv.values.copy()) for kv in cache.layers]
raised = []
for bad_token in (3, np.array([3, 4])):
    try:
        masked.step(bad_token, cache)
    except (ValueError, TypeError) as err:
        raised.append(type(err).__name__)
unchanged = all(np.array_equal(k, kv.keys) and np.array_equal(v, kv.values)
                for (k, v), kv in zip(before, cache.layers))
print(raised, [len(kv) for kv in cache.layers], unchanged)
assert (raised == ["ValueError", "TypeError"] and len(cache) == 8
        and unchanged)
""")

md(
    zh=r"""
### 缓存省下的工作和时间

用一个随机参数、更大的模型（$D=64$、$H=4$、$L=2$、位置表 512 行）从 `<bos>` 贪心生成 $n$ 个词元，比较两种做法：不用缓存（每一步对整个前缀做完整前向传播），以及 `generate`（每层一个 KV 缓存，每步只算一个新位置）。不用缓存时，第 $s$ 步要把长度为 $s$ 的整个前缀重新算一遍，每一层一共算 $1 + 2 + \dots + n = n(n+1)/2$ 个位置；用缓存时每一层只算 $n$ 个位置，少了 $(n+1)/2$ 倍。下面的单元格在生成时实际数出两种做法各算了多少个位置，打印这两个数和它们的比值，并断言两种做法生成的词元完全相同：缓存省下的是重复的工作，不改变结果。
""",
    en=r"""
### The work and the time the cache saves

We take a larger model with random parameters ($D=64$, $H=4$, $L=2$, a position table of 512 rows) and generate $n$ tokens greedily from `<bos>` in two ways: without a cache (the full forward pass over the whole prefix at every step), and with `generate` (a KV cache per layer, one new position per step). Without the cache, step $s$ recomputes the whole prefix of length $s$, so every layer computes $1 + 2 + \dots + n = n(n+1)/2$ positions in all; with the cache every layer computes $n$ positions, $(n+1)/2$ times fewer. The cell below counts the positions each way computes while it generates, prints both counts and their ratio, and asserts that both ways generate the same tokens: the cache saves repeated work and leaves the result as it was.
""",
    ru=r"""
### Сколько работы и времени экономит кэш

Возьмём модель побольше со случайными параметрами ($D=64$, $H=4$, $L=2$, таблица позиций из 512 строк) и жадно сгенерируем $n$ токенов от `<bos>` двумя способами: без кэша (на каждом шаге полный прямой проход по всему префиксу) и методом `generate` (KV-кэш в каждом слое, на каждом шаге одна новая позиция). Без кэша шаг $s$ заново вычисляет весь префикс длины $s$, и каждый слой вычисляет всего $1 + 2 + \dots + n = n(n+1)/2$ позиций; с кэшем каждый слой вычисляет $n$ позиций, в $(n+1)/2$ раз меньше. Ячейка ниже по ходу генерации подсчитывает, сколько позиций вычисляет каждый способ, печатает оба числа и их отношение и проверяет, что оба способа порождают одни и те же токены: кэш экономит повторную работу, а результат не меняется.
""",
)

code(r"""
big = Decoder.init(vocab_size=64, context_size=512, width=64, n_heads=4,
                   n_layers=2, seed=0)
lengths = [16, 32, 64, 128]
computed = Counter()  #zh 两种做法各算了多少个位置 #en positions computed by each way #ru сколько позиций вычислил каждый способ

def counting(way, method, positions):
    def counted(*args, **kwargs):
        computed[way] += positions(*args)
        return method(*args, **kwargs)
    return counted

#zh 一次完整前向传播：len(ids) 个位置
#en a full forward pass: len(ids) positions
#ru полный прямой проход: len(ids) позиций
big.forward = counting("without", big.forward, lambda ids, *rest: len(ids))
#zh 带缓存的一步：1 个位置
#en a cached step: 1 position
#ru шаг с кэшем: 1 позиция
big.step = counting("with", big.step, lambda token, *rest: 1)
for n in lengths:
    computed.clear()
    same = (big.generate(np.array([BOS]), n).tolist()
            == generate_without_cache(big, [BOS], n, True)[0].tolist())
    print(n, computed["without"], computed["with"],
          round(computed["without"] / computed["with"], 1), same)
    assert (computed["without"] == n * (n + 1) // 2
            and computed["with"] == n and same)
del big.forward, big.step  #zh 恢复原来的方法 #en back to the plain methods #ru возвращаем исходные методы
""")

md(
    zh=r"""
时间则取决于机器和它当时的负载，下面的单元格只是把计时打印出来。时间的比值比位置数的比值小：用缓存的每一步仍要读取所有已存的键，而且每次调用都有一份与 $n$ 无关的固定开销。`make bench` 在同一次运行里并排测量两种做法，给出 $T = 128$ 和 $512$ 时每秒生成的词元数。
""",
    en=r"""
Time, on the other hand, depends on the machine and its load at the moment; the cell below just prints the timings. The ratio of times is smaller than the ratio of positions: each cached step still reads every stored key, and every call has a fixed cost that does not depend on $n$. `make bench` measures both ways side by side in one run and reports tokens per second at $T = 128$ and $512$.
""",
    ru=r"""
Время же зависит от машины и её загрузки в данный момент; ячейка ниже просто печатает замеры. Отношение времён меньше отношения числа позиций: каждый шаг с кэшем всё равно читает все сохранённые ключи, а у каждого вызова есть постоянные накладные расходы, не зависящие от $n$. `make bench` измеряет оба способа бок о бок в одном запуске и печатает число токенов в секунду при $T = 128$ и $512$.
""",
)

code(r"""
#zh 用时因机器而异，所以这个单元格的输出不参与比对
#en timings differ from machine to machine, so this cell's output is not
#en compared
#ru время на разных машинах разное, поэтому результат этой ячейки не
#ru сравнивается
for n in lengths:
    start = time.perf_counter()
    generate_without_cache(big, [BOS], n, True)
    without = time.perf_counter() - start
    start = time.perf_counter()
    big.generate(np.array([BOS]), n)
    with_cache = time.perf_counter() - start
    print(n, f"{without:.3f} s", f"{with_cache:.3f} s",
          round(without / with_cache, 1))
""", tags=("nbval-ignore-output",))

md(
    zh=r"""
## 7.6 这个模型还缺什么

这个解码器很小，但每一部分都是真实的：它在 NumPy 里从头训练，反向传播逐层核对过，因果性和缓存在整个模型上验证过。一个真实的项目通常还会加上：

* **dropout。** 训练时随机丢弃一部分激活以减少过拟合。它带来随机性，所以做未来扰动检验时要么关闭它（评估模式），要么固定随机种子（§4.8）。
* **权重共享（weight tying）。** 让输出层直接使用词元嵌入表的转置，$W_\text{head} = E^\top$。我们的模型里这能省下 $D \cdot V = 160$ 个参数，在词表很大的模型里省下的就多得多；反向传播时两份梯度要相加。
* **学习率调度。** 学习率先预热（warm-up）、再按余弦曲线衰减，大模型没有它往往训练不稳定；本节用的是固定学习率 0.01。此外还常用梯度裁剪和带权重衰减的 AdamW。
* **带右填充的批量生成。** `generate` 一次只续写一条无填充的输入流（§5.7）。同时续写多条长度不同的提示，需要为每一行记录自己的长度和位置，并屏蔽填充出来的键。
* **更大的规模。** 子词分词（如 BPE）代替单个字符、更长的上下文、更多层和更宽的模型、混合精度，以及为此而写的高效注意力实现。

下面把 6912 个参数按部件拆开，并算出权重共享能省下的数量。
""",
    en=r"""
## 7.6 What this model still lacks

This decoder is small, but every part of it is real: it is trained from scratch in NumPy, its backward pass has been checked layer by layer, and its causality and cache have been verified on the whole model. A real project usually adds:

* **Dropout.** During training a random fraction of the activations is dropped, to reduce overfitting. It brings randomness, so a future-perturbation test must either switch it off (evaluation mode) or fix its random seed (§4.8).
* **Weight tying.** The output layer reuses the transposed token embedding table, $W_\text{head} = E^\top$. In our model this saves $D \cdot V = 160$ parameters, far more in a model with a large vocabulary; in the backward pass the two gradients add up.
* **Learning-rate schedules.** A warm-up of the learning rate followed by a cosine decay; large models often train unstably without one. This section uses a fixed learning rate of 0.01. Gradient clipping and AdamW with weight decay are common too.
* **Batched generation with right padding.** `generate` continues one unpadded stream at a time (§5.7). Continuing several prompts of different lengths at once needs each row's own length and position, and a mask over the padded keys.
* **Scale.** Subword tokens (such as BPE) instead of single characters, a longer context, more and wider layers, mixed precision, and the efficient attention kernels all that calls for.

Below, the 6912 parameters are broken down by component, with the number weight tying would save.
""",
    ru=r"""
## 7.6 Чего этой модели ещё не хватает

Этот декодер маленький, но каждая его часть настоящая: он обучен с нуля на NumPy, его обратный проход проверен слой за слоем, а причинность и кэш проверены на модели целиком. Настоящий проект обычно добавляет:

* **Dropout.** При обучении случайная доля активаций отбрасывается, чтобы уменьшить переобучение. Это вносит случайность, поэтому при проверке возмущением будущего dropout нужно либо отключить (режим инференса, eval), либо зафиксировать его seed (§4.8).
* **Связывание весов (weight tying).** Выходной слой использует транспонированную таблицу эмбеддингов токенов, $W_\text{head} = E^\top$. В нашей модели это экономит $D \cdot V = 160$ параметров, а при большом словаре — гораздо больше; в обратном проходе два градиента складываются.
* **Расписание скорости обучения.** Прогрев скорости обучения (warm-up), затем её косинусное затухание; большие модели без него часто обучаются неустойчиво. В этом разделе скорость обучения постоянна и равна 0,01. Часто добавляют и ограничение нормы градиента, и AdamW с затуханием весов.
* **Генерация батчами с дополнением справа.** `generate` продолжает один поток без дополнения (§5.7). Чтобы продолжать сразу несколько подсказок разной длины, нужно хранить для каждой строки свою длину и позицию и маскировать ключи дополнения.
* **Масштаб.** Подсловные токены (например, BPE) вместо отдельных символов, более длинный контекст, больше слоёв и большая ширина, смешанная точность и эффективные реализации внимания, которых всё это требует.

Ниже 6912 параметров разложены по частям модели, и посчитано, сколько сэкономило бы связывание весов.
""",
)

code(r"""
groups = {"E": ["token_table"], "P": ["position_table"],
          "ln_f": ["ln_f.gain", "ln_f.bias"], "W_head": ["w_head"]}
for layer in range(masked.n_layers):
    groups[f"block {layer}"] = [name for name in masked.params
                                if name.startswith(f"blocks.{layer}.")]
sizes = {group: sum(masked.params[name].size for name in names) for group,
         names in groups.items()}
print(sizes, sum(sizes.values()), masked.params["w_head"].size)
assert (sum(sizes.values()) == masked.parameter_count() == 6912
        and masked.params["w_head"].size == 160)
""")

md(
    zh=r"""
## 7.7 小结

* 把 §1～§6 的部件装进 $L$ 个前置层归一化的残差块，再加上层归一化、GELU 逐位置 MLP、输出层和交叉熵，就得到一个可以在 NumPy 中训练的解码器。本节把每个反向传播都与中心差分核对过（float64、$\varepsilon = 10^{-4}$，相对误差都小于 $10^{-6}$）；装了 PyTorch 时，`tests/test_decoder_torch.py` 还会把它们与 PyTorch 的自动求导逐一比较。
* 在镜像语言上，带掩码的模型把损失降到因果模型的下界 $\mathcal{L}^* \approx 0.6969$ 附近，能正确倒写全部 36 个从未见过的词，留出行上的损失也紧贴规则水平：它学到的是规则，而不是语料。五个随机种子下都是如此。
* 同一个模型去掉掩码训练，损失降到 0.0005 左右，低于任何因果模型的下界，过去无从预测的目标也全部答对；它的注意力直接读取答案所在的位置。把未来藏起来之后，它的损失远高于带掩码的模型，而且训练越久越高。这些在五个种子下都成立；它生成时错得多厉害，则随种子而变。
* 不加掩码、只在前缀上训练的模型同样能学会规则。掩码换来的是效率：一次传播训练所有位置，而且旧位置的键和值不再改变，可以缓存。
* 带阴性对照的未来扰动检验、逐层的残差流和梯度的可达矩阵都表明：整个模型是因果的；只要有一层不带掩码，泄漏就会一直传到输出。
* 每一层都要有自己的 KV 缓存。逐词元生成与完整前向传播的误差在 $10^{-12}$ 以内。只缓存第一层时，36 个留出词只能写对 3～21 个；把位置归零，一个也写不对。
""",
    en=r"""
## 7.7 Summary

* Put the parts of §1–§6 into $L$ pre-LN residual blocks, add layer normalisation, a position-wise GELU MLP, an output layer and the cross-entropy, and you have a decoder that trains in NumPy. This section checked every backward pass against central differences (float64, $\varepsilon = 10^{-4}$, every relative error below $10^{-6}$); with PyTorch installed, `tests/test_decoder_torch.py` also compares each of them with PyTorch autograd.
* On the mirror language the masked model brings its loss down to near the causal bound $\mathcal{L}^* \approx 0.6969$, reverses all 36 words it has never seen, and stays close to the rule level on the held-out lines: it has learned the rule, not the corpus. This holds at all five seeds.
* The same model trained without the mask reaches a loss of about 0.0005, below the bound of every causal model, and gets every unpredictable target right; its attention reads the positions that hold the answer. With the future hidden its loss is far above the masked model's, and it rises the longer training goes on. All of this holds at the five seeds; how badly the model then generates varies from seed to seed.
* A model without the mask that is trained on prefixes learns the rule too. What the mask buys is efficiency: one pass trains every position, and the keys and values of old positions stay fixed, so they can be cached.
* The future-perturbation test with its negative control, the residual stream layer by layer and the reachability matrix of the gradient all show that the whole model is causal, and that one unmasked layer is enough for a leak that reaches the output.
* Every layer needs its own KV cache. Token-by-token generation agrees with the full forward pass to within $10^{-12}$. Caching only the first layer completes 3 to 21 of the 36 held-out words; resetting the position completes none.
""",
    ru=r"""
## 7.7 Итоги

* Поместите части из §1–§6 в $L$ остаточных блоков с предварительной нормализацией слоя (pre-LN), добавьте нормализацию слоя, позиционный MLP с GELU, выходной слой и перекрёстную энтропию — и получится декодер, который обучается на NumPy. В этом разделе каждый обратный проход сверен с центральными разностями (float64, $\varepsilon = 10^{-4}$, все относительные ошибки меньше $10^{-6}$); если установлен PyTorch, `tests/test_decoder_torch.py` ещё и сравнивает каждый из них с автоматическим дифференцированием PyTorch.
* На зеркальном языке модель с маской опускает потери почти до границы для причинных моделей $\mathcal{L}^* \approx 0{,}6969$, правильно переворачивает все 36 слов, которых никогда не видела, и на отложенных строках держится рядом с уровнем правила: она усвоила правило, а не корпус. Так при всех пяти значениях seed.
* Та же модель, обученная без маски, доходит до потерь около 0,0005 — ниже границы для любой причинной модели — и угадывает все непредсказуемые метки; её внимание читает позиции, где лежит ответ. Со спрятанным будущим её потери намного выше, чем у модели с маской, и растут по мере обучения. Всё это верно при всех пяти значениях seed; а насколько плохо модель затем порождает текст, от seed зависит.
* Модель без маски, обученная на префиксах, тоже усваивает правило. Маска даёт эффективность: один проход обучает все позиции, а ключи и значения старых позиций больше не меняются, и их можно кэшировать.
* Проверка возмущением будущего с отрицательным контролем, остаточный поток слой за слоем и матрица достижимости градиента показывают: модель целиком причинна, а одного слоя без маски достаточно, чтобы утечка дошла до выхода.
* Каждому слою нужен свой KV-кэш. Пошаговая генерация совпадает с полным прямым проходом с точностью до $10^{-12}$. Если кэшировать только первый слой, верно продолжаются лишь от 3 до 21 из 36 отложенных слов; если сбрасывать позицию в 0 — ни одного.
""",
)
