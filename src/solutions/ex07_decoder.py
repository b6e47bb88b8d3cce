# Exercise set 7 (§7, the small decoder trained in NumPy).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 7: backward passes, the per-layer cache and a leak diagnosis", tags=("exercise",))

md("# Solutions to exercise set 7: backward passes, the per-layer cache and a leak diagnosis", tags=("solution",))

md("""
This notebook goes with §7 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it. There are four exercises:

1. the backward pass of the masked softmax;
2. the backward pass of layer normalisation, checked with central differences;
3. one step of the decoder with a KV cache in every layer;
4. the diagnosis of a model handed over to you, which may leak the future.

`masked_softmax_backward` and `layer_norm_backward` in `lib.layers`, and the decoder's `model.step` and `model.block_step`, are the reference versions; do not call them. The other building blocks of §7.1 and the earlier sections, such as `layer_norm_forward`, `mlp_forward` and `causal_attention`, are yours to use.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solutions to exercise set 7; the exercises are in `exercises/en/ex07_decoder.ipynb`. Try them there first, then compare here.

The set practises §7. The first two exercises are the backward passes of the masked softmax and of layer normalisation (§7.7), checked by central differences (§7.1). The third writes one generation step of the decoder with a KV cache in every layer (§7.5). The fourth diagnoses a model handed over as weights, using §4's perturbation test and its negative control, run on the whole decoder as in §7.4.
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check
from grading import models as m
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
from lib.data import build_vocab, collate, decode
from lib.layers import numerical_gradient, relative_error
"""), tags=("hide-input",))

md("""
## dec-1: the backward pass of the masked softmax (1 point)

`weights = masked_softmax(scores, allowed)` takes the softmax along the last axis over the allowed set only. Given the upstream gradient `d_weights` (the gradient of the loss with respect to `weights`) and `weights` itself, write `masked_softmax_backward(d_weights, weights)`, returning the gradient of the loss with respect to `scores`, of the shape and dtype of `weights`.

Write $\\alpha_j$ for the weights of one row, $g_j$ for its upstream gradient and $\\mathcal L$ for the loss. Then $\\partial \\mathcal L/\\partial s_j = \\alpha_j\\,\\big(g_j - \\bar g\\big)$, where $\\bar g = \\sum_{j'} \\alpha_{j'} g_{j'}$. `allowed` is not needed: a forbidden entry has $\\alpha_j = 0$, so its gradient comes out 0, and it must be **exactly** 0. Raise `ValueError` when the two arrays differ in shape.
""")

code(reference_cell("masked_softmax_backward"))

code("""
check("dec-1", masked_softmax_backward)
""")

code("""
rng = np.random.default_rng(0)
# (Tq, Tk)
scores, upstream = rng.normal(size=(3, 5)), rng.normal(size=(3, 5))
allowed = causal_allowed(3, 5)
analytic = masked_softmax_backward(
    upstream, masked_softmax(scores, allowed))
numeric = numerical_gradient(
    lambda: np.sum(upstream * masked_softmax(scores, allowed)), scores,
    eps=1e-4)
print(relative_error(analytic, numeric) < 1e-7,
      np.all(analytic[~allowed] == 0.0))
""")

md("""
**About the solution.** The Jacobian of the softmax is $\\mathrm{diag}(\\alpha) - \\alpha \\alpha^\\top$; applied to $g$ it gives $\\alpha \\odot (g - \\alpha^\\top g)$. There is no need to build the matrix: one dot product per row is enough. Because the factor $\\alpha_j$ comes first, a forbidden entry gets a gradient of exactly 0: the mask blocks the gradient in the backward pass just as it blocks the read in the forward pass. The cell above checks the result against central differences (relative error below $10^{-7}$).
""", tags=("solution",))

md("""
## dec-2: the backward pass of layer normalisation (2 points)

Layer normalisation normalises every position over its own $D$ features. For one row $z$ of `x`: $\\hat z = (z - \\mu)\\,\\rho$ with $\\rho = 1/\\sqrt{\\sigma^2 + \\delta}$ (population variance; $\\delta$ is `eps`), output $\\hat z \\odot \\gamma + \\beta$. Write `layer_norm_backward(d_out, x, gain, eps=1e-5)`, returning `(d_x, d_gain, d_bias)`:

* `d_out` and `x` have shape `(..., D)`, `gain` has shape `(D,)`; the bias plays no part in the gradients, so it is not an argument;
* `d_x = ρ * (ĝ - mean(ĝ) - ẑ * mean(ĝ * ẑ))` row by row, with `ĝ = d_out * gain`, the means taken over the $D$ features;
* `d_gain` and `d_bias` have shape `(D,)`, summed over every leading axis (batch and positions);
* keep the input's dtype; raise `ValueError` when the width of `gain` is not $D$.

Once it is written, the cell below checks all three gradients with central differences.
""")

code(reference_cell("layer_norm_backward"))

code("""
check("dec-2", layer_norm_backward)
""")

code("""
rng = np.random.default_rng(1)
x, gain, bias = (2 * rng.normal(size=(2, 3, 6)) + 1, rng.normal(size=6),
                 rng.normal(size=6))
upstream = rng.normal(size=(2, 3, 6))  #en f = sum(upstream * LN(x))

def f():
    return np.sum(upstream * layers.layer_norm_forward(x, gain, bias)[0])

d_x, d_gain, d_bias = layer_norm_backward(upstream, x, gain)
errors = [relative_error(d_x, numerical_gradient(f, x, eps=1e-4)),
          relative_error(d_gain, numerical_gradient(f, gain, eps=1e-4)),
          relative_error(d_bias, numerical_gradient(f, bias, eps=1e-4))]
print([e < 1e-7 for e in errors])
""")

md("""
**About the solution.** The mean and variance of row $t$ come from row $t$ alone, so the normalised row $t$ does not depend on any other row $t' \\ne t$. Layer normalisation does not mix positions, neither forward nor backward, which is why it belongs in a causal model (§4). Within a row every entry of $z$ reaches all $D$ outputs through $\\mu$ and $\\sigma^2$; hence the two mean terms. Dropping them, which amounts to treating $\\mu$ and $\\sigma$ as constants, is the usual mistake, and the central differences catch it at once. `d_gain` and `d_bias` sum over every batch row and position, because the same parameters act at every position.
""", tags=("solution",))

md("""
## dec-3: one step with a KV cache in every layer (3 points)

The decoder of §7 keeps one KV cache per layer. Here you write one step with plain arrays: `decoder_step(model, token, keys, values)`.

* `model` is a `lib.decoder.Decoder`; `model.block(l)` gives the parameters of block `l` as a dict (`ln1.gain`, `ln1.bias`, `w_q`, `w_k`, `w_v`, `w_o`, `ln2.gain`, `ln2.bias`, `w_1`, `b_1`, `w_2`, `b_2`), and `model.params` holds `token_table` and `position_table`;
* `keys[l]` and `values[l]` are the `n` positions layer `l` has stored, of shape `(H, n, d)`; the new token takes position `n`, and its input vector is `x = E[token] + P[n]`, of shape `(1, D)`;
* return `(logits, keys, values)`: the logits of that position, shape `(V,)`, and the keys and values with the new position appended in every layer (shape `(H, n+1, d)`), $L$ of each.

In every block:

1. `a = LN₁(x)`;
2. `q, k, v = a @ w_q, a @ w_k, a @ w_v`, each reshaped to `(H, 1, d)` (with a single position, a plain `reshape` is a correct split);
3. append `k` and `v` to **this layer's** cache;
4. let the new query read every position this layer has stored, with `causal_attention`;
5. merge the heads, multiply by `w_o` and add the result to `x`;
6. `x = x + MLP(LN₂(x))`.

Finally `model.output_head(x)` (the final layer normalisation, then $W_\\text{head}$) gives the logits. A new position past the position table is a `ValueError`.
""")

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

md("""
**About the solution.** In every layer the new token appends its own key and value to **that layer's** cache before the attention, because the query reads itself too. Layer $\\ell$ caches keys and values computed from the residual stream entering block $\\ell$; they differ from layer to layer, so the layers cannot share one cache, nor can layer 0 alone be stored (§7.5). With a single query, `causal_attention` lets it read every key anyway (bottom-right alignment), so no extra mask is needed. The loop above feeds 8 tokens from empty caches and agrees with the full forward pass to $10^{-12}$.
""", tags=("solution",))

md("""
## dec-4: diagnosing a model handed over as weights (3 points)

A colleague trained a decoder on the mirror language of §7, handed you the weights and reported a beautiful loss. The cell below recomputes that loss with the colleague's own `forward`: it is far below the causal bound $\\mathcal{L}^* \\approx 0.6969$ of §7.2, too good to be true.

Write `diagnose(model, forward, ids, prefix_length, tol=1e-9)`, returning one of three verdicts:

* `"leaks"`: when every token from `prefix_length` on is replaced by another one (the next id modulo $\\lvert\\mathcal V\\rvert$, say), the prefix outputs of `forward` change by more than `tol`;
* `"causal"`: the prefix does not change, and the negative control (the same model with the mask off, `model.forward(t, causal=False)`) changes by more than `tol` under the same perturbation;
* `"blind"`: neither changes, so on these inputs the test cannot see anything.

`ids` has shape `(T,)` or `(B, T)`; raise `ValueError` when `prefix_length` is not in `1 … T-1`.
""")

code("""
lines = m.training_lines()
vocab = build_vocab(lines)
inputs, targets = collate(lines, vocab)
#en the weights you were given
handed_over = m.handed_over_decoder("unmasked")
#en and how they are run
colleague_forward = m.decoder_forward(handed_over, "unmasked")
#en the loss the colleague reported
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
deaf = m.deaf_decoder(0)  #en W_O = 0 in every block
print(diagnose(handed_over, colleague_forward, line, 4),
      diagnose(handed_over, handed_over.forward, line, 4),
      diagnose(deaf, deaf.forward, line, 4))
print(round(handed_over.loss(inputs, targets), 4),
      round(float(np.log(len(vocab))), 4))
""")

md("""
**About the solution.** The perturbation must change **every** future position, or the test checks less of the future than it claims; "the next id" guarantees this. The colleague's way of running the model has the mask off, so the verdict is `"leaks"`: that loss is below the bound of every causal model because position $t$ reads the answer directly. Run the same weights with the masked `model.forward` and the test says `"causal"`: a perturbation test judges **this computation**, not the training.

Yet when these weights, trained without the mask, are run with it, their loss is about 2.43: worse than a uniform guess, whose loss is $\\ln 10 \\approx 2.3026$. This is not §7.3's loss with the future hidden (here the mask is switched on for a model trained without it), but it teaches the same lesson: in training, the model learned mostly to read the answer, not to predict without it in view. In the last example the model's attention writes nothing, so even the negative control sees no change and the verdict is `"blind"`: "the prefix did not change" proves nothing there, and only a different control, one that can leak, could turn it into a verdict.
""", tags=("solution",))
