# §4 Causality must cover the whole computation: structural argument, future-perturbation
# test, negative control, false passes and false alarms (NaN), a leak the attention weights
# do not show, dropout and fixed seeds.

md(r"""
# 4 Causality must cover the whole computation

In §1 we built the allowed set first and took the softmax over it, so every query reads only its own position and earlier ones. But the attention weights are only one step of the model. How the input is built, how the heads are split and merged, which layers come before and after attention: any of these steps could carry information from the future back into the past.

This section answers two questions:

1. **Why is the whole model causal?** The answer is an argument that walks through the architecture layer by layer.
2. **How do we catch a mistake in actual code?** This is the job of the future-perturbation test, and the test must come with a negative control; without one it can "pass" while checking nothing at all.

One convention holds throughout: every statement is about **one forward pass with fixed parameters**. §4.8 explains what this means for dropout, random seeds and training updates.
""")

md(r"""
## 4.1 A small model with hand-chosen parameters

Most of this section uses one small model, and §5 and §6 keep it; §4.9 adds models with random parameters. Its vocabulary is `<unk> <bos> <eos> 春 雨 风` (ids 0–5); it has width $D=4$, $H=2$ heads of width $d=2$, a position table of $C=8$ rows, and identity matrices as its query, key and value projections. The token embedding table $E$, the position table $P$ and the output projection $W_O$ are hand-chosen so that everything can be computed and checked on paper; nothing here was trained. `lib.checks.chapter_model()` builds an `AttentionModel` from these numbers.

Two details matter later. The `<unk>` row is deliberately large, so that if it ever leaks in from the future the effect is impossible to miss. The rows of `<bos>` and `风` are identical: a deliberate trap that §4.5 springs.
""")

code(r"""
import numpy as np
import matplotlib.pyplot as plt

from figures import plots
from lib import checks
from lib.attention import (
    attention_scores,
    causal_allowed,
    causal_attention,
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
#en adding 0.0 turns -0.0 into 0.0
print(np.round(model.position_table, 6) + 0.0)
print(model.w_o)
print(model.n_heads, model.width, model.context_size)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
assert (model.n_heads, model.width, model.context_size) == (2, 4, 8)
assert np.array_equal(model.token_table[BOS],
                      model.token_table[vocab.index("风")])
""")

md(r"""
## 4.2 The structural argument: what each row reads, layer by layer

Let the input be $x_0,\dots,x_{T-1}$. We want to show that output row $i$ depends only on $x_0,\dots,x_i$. Follow the computation in order:

1. **Input.** $X_i = E[x_i] + P[i]$ depends only on the token at position $i$ and on the position $i$ itself.
2. **Query, key and value projections.** $Q=XW_Q$, $K=XW_K$ and $V=XW_V$ act row by row: row $i$ of each is computed from $X_i$ alone.
3. **Splitting heads.** This cuts the $D$ features of each position into $H$ pieces and moves the head axis in front of the time axis; no value leaves its position.
4. **Causal attention.** Output row $i$ is $\sum_{j\le i}\alpha_{ij}v_j$, and the weights $\alpha_{ij}$ are computed from $q_i$ and $k_0,\dots,k_i$ only. Row $i$ therefore reads input rows $0$ to $i$.
5. **Merging heads and the output projection $W_O$.** Merging undoes the split; $W_O$ mixes the heads' features within one position and adds no path across time.
6. **Layers before and after attention.** Three more kinds of layer compute row $i$ from row $i$ alone, wherever they stand: a normalisation within each position (such as layer normalisation), a position-wise MLP and a residual connection. A residual connection adds row $i$ of a sublayer's input to row $i$ of its output. A normalisation keeps this property only as long as its statistics are not taken across time (§4.7).

Now argue by induction over the layers, numbered from 0. The input X of layer 0 satisfies the claim (step 1). If row $i$ of the input of layer $\ell$ depends only on $x_0,\dots,x_i$, then row $i$ of its output reads rows $0$ to $i$ of that input (attention) or row $i$ alone (every other step), and all of these depend only on $x_0,\dots,x_i$. That output is the input of layer $\ell + 1$, so a model with any number of layers stays causal.

Figure 4.1 follows this induction for row $i = 2$ of a two-layer model. Read it from the top: row 2 of layer 1 reads rows 0 to 2 of layer 0 through attention; each of those reads only the input rows at or before its own position; and input row $t$ comes from token $t$ alone. So at every layer below, row 2 can depend only on rows 0 to 2. We call these rows its *cone*, after the past light cone of physics: the events that can affect a given one. That cone grows the further back it reaches, so only the idea carries over, not the shape. This cone never grows: however many layers are stacked, it holds rows 0 to 2 at every layer, and the future of row 2 (positions 3 and 4) stays outside it.

![The structural argument as a picture: five positions BOS 春 风 春 雨, from bottom to top the tokens, the input X = E plus P, layer 0 and layer 1. Row 2 of layer 1 reads rows 0 to 2 of layer 0 through attention, and these read rows 0 to 2 of the input; so in every layer below it only rows 0 to 2 lie in its cone, while rows 3 and 4 are its future, which it reads at no layer.](figures/cone.svg)

This argument is about the **architecture**: which rows each part of the model is designed to read. It holds for every input, but it cannot promise that the code does what the design says. A transposed mask, a wrong `axis`, a statistic taken over the time axis: each makes the code depart from the design. Such mistakes are caught by the **future-perturbation test**, an error detector that runs a concrete implementation on concrete inputs.
""")

md(r"""
## 4.3 The future-perturbation test

The test has four steps. Choose a length $T$ and a prefix length $p$. Build two sequences of length $T$ that agree on their first $p$ positions (the prefix) and hold **clearly different** tokens, or input vectors, at every position after it. Run the forward pass on each. Compare the outputs at every prefix position. If the implementation is causal, none of them moves by more than floating-point rounding.

We take `<bos> 春 雨` and `<bos> 春 <unk>`: the first two positions agree, and the third changes from `雨` to `<unk>`, whose embedding is large. First we look at the input $X$ itself: only its row 2 changes, as step 1 of §4.2 says. Then we look at the model's output: the largest change over the first two rows is `0.0`, not merely small. We call this number the *prefix change*.
""")

code(r"""
ids = np.array([BOS, 3, 4])
perturbed = np.array([BOS, 3, UNK])
print(decode(ids, vocab), "|", decode(perturbed, vocab))

#en (T,): the change of each row of X
input_rows = checks.row_changes(model.embed, ids, perturbed)
print(np.round(input_rows, 12))
assert input_rows[0] == 0.0 and input_rows[1] == 0.0 and input_rows[2] > 1

change = checks.future_change(model.forward, ids, perturbed,
                              prefix_length=2)
print(change)
assert change == 0.0
""")

md(r"""
## 4.4 The negative control: first show that the test can see a leak

A change of 0 proves nothing by itself: perhaps the model is causal, perhaps the test cannot see any change at all. So we run **the same test** on a version that we **know** leaks: switch the causal mask off (`causal=False`) so that every query reads every position. Now the test must report a change in the prefix. If it still reports 0, the test is void: it cannot see a leak, and its 0 says nothing about the model.

With the mask off, the largest change over the first two rows is about 39.77. `check_causality` runs the implementation under test and its negative control together: the check passes only if the implementation's change is within tolerance **and** the control's change is above it.
""")

code(r"""
def control(x):
    #en negative control: every query reads every key
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

md(r"""
## 4.5 How a test can pass vacuously

Here are three common ways to "pass" without testing anything. In the first two, the model under test and its negative control both show a prefix change of 0: the test is void, and `check_causality` fails it. The third compares no position at all, and `future_change` refuses it with an error.

**Degenerate input.** The replacement token has a different id but the same vector. We put `<bos>` at the last position and replace it by `风`: the id goes from 1 to 5, but the two embedding rows are identical and the position is the same, so the model sees no change in its input at all.
""")

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

md(r"""
**Output replaced by a constant.** Imagine a bug in which the forward function computes everything and then returns a freshly allocated buffer of zeros. Its negative control, the same code with the mask off, also shows 0, so `check_causality` fails it: the test is void.
""")

code(r"""
def buggy_forward(x, causal=True):
    out = model.forward(x, causal=causal)
    #en the bug: the result never reaches the caller
    return np.zeros_like(out)

constant = checks.check_causality(
    buggy_forward, lambda x: buggy_forward(x, causal=False), ids, perturbed,
    prefix_length=2)
print(constant.change, constant.control_change, constant.passed)
assert (constant.change == 0.0 and constant.control_change == 0.0
        and not constant.passed)
""")

md(r"""
**No position checked.** If the prefix length is miscomputed as 0, the comparison runs over an empty slice. `np.allclose` returns `True` for two empty arrays, even for the negative control, which plainly leaks. `future_change` refuses this case outright: the prefix length $p$ must satisfy $1 \le p < T$, so that at least one prefix output is compared and at least one future position is changed.
""")

code(r"""
prefix_length = 0  #en a miscomputed prefix length
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

md(r"""
## 4.6 Perturb with finite values: a NaN makes the test report a leak that is not there

The three cases above are false passes; a test can also raise a false alarm. Replacing a future value by NaN or infinity looks like the most drastic perturbation, yet it defeats the test. The reason is floating-point arithmetic itself: $0 \cdot \text{NaN} = \text{NaN}$ and $0 \cdot \infty = \text{NaN}$. The attention output is the product of the weight matrix with all of the values $V$. The weights of rows 0 and 1 on position 2 are **exactly 0**, but 0 times NaN is still NaN, so both rows become NaN throughout. The test then reports that the prefix changed, although the model is perfectly causal. Any implementation whose weighted sum includes the future values, as a matrix product does, behaves this way; it is not a flaw of one library.

Below we keep `<bos> 春 雨` from §4.3 and, in both heads, replace only the **value** vector of position 2, leaving queries and keys as they are. The outputs are computed as §1 defines them: the attention weights times all of the values, `weights @ v`.

* replaced by NaN or inf: the weights of rows 0 and 1 on position 2 are 0, yet their outputs are all NaN, and so is the change;
* shifted by a large finite amount (1000 added to every component): rows 0 and 1 equal the original to the last bit, a change of `0.0`.

`lib`'s `causal_attention` raises a `ValueError` for a NaN or inf anywhere in q, k or v, future positions included, and its message explains the $0 \cdot \text{NaN}$ problem. A finite perturbation is computed as usual, and the prefix stays the same bit for bit (the line `+1000: lib prefix unchanged = True`).

So the future-perturbation test must use finite values. NaN and inf need tests of their own (for instance, that they are refused with a clear error); they cannot serve as a perturbation.
""")

code(r"""
x = model.embed(ids)[None]  # (1, T, D)
# (1, H, T, d)
q, k, v = (split_heads(x @ w, model.n_heads)
           for w in (model.w_q, model.w_k, model.w_v))
# (1, H, T, T)
weights = masked_softmax(attention_scores(q, k), causal_allowed(3, 3))
print(weights[0, :, :2, 2])  # (H, 2)
print("0·nan, 0·inf:", 0.0 * np.nan, 0.0 * np.inf)
assert np.all(weights[0, :, :2, 2] == 0.0)

original = weights @ v  #en the weighted sum, as causal_attention computes it
assert np.allclose(original, causal_attention(q, k, v), rtol=0, atol=1e-12)
value_changes = {}
for name, new_value in (("nan", np.nan), ("inf", np.inf),
                        ("+1000", v[:, :, 2] + 1000.0)):
    v_new = v.copy()
    #en only the future value at position 2 changes
    v_new[:, :, 2] = new_value
    #en 0·NaN and 0·inf are expected here: silence NumPy's warning
    with np.errstate(invalid="ignore"):
        prefix = (weights @ v_new)[:, :, :2]  # (1, H, 2, d)
        value_changes[name] = float(
            np.abs(prefix - original[:, :, :2]).max())
    print(f"{name}: prefix all NaN = {np.isnan(prefix).all()},",
          f"change = {value_changes[name]}")
    try:
        causal_attention(q, k, v_new)
    except ValueError as err:
        print(f"{name}: lib raises {type(err).__name__}")
        assert "v holds" in str(err) and "0 * nan = nan" in str(err)
    else:
        unchanged = np.array_equal(causal_attention(q, k, v_new)[:, :, :2],
                                   causal_attention(q, k, v)[:, :, :2])
        print(f"{name}: lib prefix unchanged = {unchanged}")
        assert unchanged
assert np.isnan(value_changes["nan"]) and np.isnan(value_changes["inf"])
assert value_changes["+1000"] == 0.0
""")

md(r"""
## 4.7 Zero weights above the diagonal do not rule out a leak

A common shortcut is to print the attention weights and confirm that everything above the diagonal is zero. That checks only the one place where we put the mask; a leak can come from anywhere else.

`lib.checks.leaky_time_normalization` is a **deliberate counter-example**: it normalises every feature by its mean and variance **over the time axis**, so row 0 of its output already depends on the last row. A single `axis` separates it from `feature_normalization`, which normalises within each position (over the features): an easy slip in real code. Put it before or after an attention layer whose mask is perfectly correct:

* the attention weights above the diagonal are still **exactly zero**, so the shortcut passes;
* the future-perturbation test sees the prefix outputs change.

For contrast, a normalisation over the features before and after attention keeps the prefix change at `0.0`, as step 6 of §4.2 predicts. We use a longer sequence here: the first 4 positions agree, the last 4 all differ.
""")

code(r"""
ids8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])
#en the same prefix of 4, a different future
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

md(r"""
## 4.8 Fixed parameters: dropout, random seeds and training updates

Causality is a statement about one forward pass with **one set of parameters**: future inputs must not reach past outputs along the computation graph. A future-perturbation test compares two forward passes, so the two must be **the same deterministic function**:

* **Dropout in training mode** drops a different random set of attention weights (or, elsewhere in a model, of activations) on every call. Run the same input twice and the prefix outputs already differ. That change has nothing to do with the future and is not a leak, yet the test reports it as one.
* With a **fixed random seed** (the same random numbers in both passes), or with dropout switched off in **evaluation mode**, the two passes are one function again and the test is meaningful once more. The masked model then changes by `0.0`, and the negative control still sees a change.
* A **training update** changes the parameters, so the prefix outputs of the next pass differ even for the same input. That is not a leak either; it is a different model. There must be no optimiser step between the two passes.

Below we demonstrate this with a forward pass assembled from functions of `lib.attention`, with dropout on the attention weights (rate 0.5, the kept weights multiplied by 2; `rate=0` gives evaluation mode). The cell prints four lines:

* line 1: two prefix changes caused by dropout alone, one for the same input run twice and one from the future-perturbation test when every call drops different weights;
* lines 2 and 3, for a fixed seed and for evaluation mode: the prefix change, whether the control saw a change, and whether the check passed;
* line 4: the prefix change for the same input after $W_O$ has been scaled up by 1%.
""")

code(r"""
def dropout_forward(ids, rng, rate=0.5, causal=True):
    #en model.forward with dropout on the attention weights
    x = model.embed(ids)[None]  # (1, T, D)
    # (1, H, T, d)
    q, k, v = (split_heads(x @ w, model.n_heads)
               for w in (model.w_q, model.w_k, model.w_v))
    T = len(ids)
    everything = np.ones((T, T), dtype=bool)
    allowed = causal_allowed(T, T) if causal else everything
    # (1, H, T, T)
    weights = masked_softmax(attention_scores(q, k), allowed)
    keep = rng.random(weights.shape) >= rate  # (1, H, T, T)
    weights = weights * keep / (1 - rate)
    return (merge_heads(weights @ v) @ model.w_o)[0]  # (T, D)

#en one generator: different weights dropped on every call
fresh = np.random.default_rng(0)
same_input = float(np.abs(dropout_forward(ids, fresh)
                          - dropout_forward(ids, fresh))[:2].max())
fresh_drops = checks.future_change(
    lambda t: dropout_forward(t, fresh), ids, perturbed, prefix_length=2)
print(round(same_input, 6), round(fresh_drops, 6))
assert same_input > 0.1 and fresh_drops > 0.1

def seeded(causal):
    #en the same seed on every call
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

#en a "training update": W_O scaled by 1%
updated = AttentionModel(model.token_table, model.position_table, model.w_q,
                         model.w_k, model.w_v, 1.01 * model.w_o,
                         model.n_heads)
after_update = float(np.abs(updated.forward(ids)
                            - model.forward(ids))[:2].max())
print(round(after_update, 6))
assert after_update > 1e-3
""")

md(r"""
## 4.9 Repeating the check on random models

The model of §4.1 comes in only one size. Below we draw a vocabulary size $\lvert\mathcal V\rvert$, a length $T$, a width $D$, a head count $H$ and a prefix length $p$ at random, and each time run the full check, control included, on a model with random parameters. Each printed row is $\lvert\mathcal V\rvert, T, D, H, p$, the prefix change, and whether the control saw a change.
""")

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

md(r"""
## 4.10 Three versions in one picture

Figure 4.2 uses the pair of sequences of §4.7 (the first 4 positions agree). For every output row $i$ it plots the largest change under three versions: the masked model (`causal=True`), the negative control with the mask off (`causal=False`), and the leaky version with a time-axis normalisation before attention. The prefix lies left of the dashed line. The masked model has no bars there (its change is 0); the other two change in the prefix. The vertical axis is linear below $10^{-3}$ and logarithmic above.
""")

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
""", alt="Bar chart of the largest change of each output row i (0 to 7). Left of the dashed line, in the prefix, "
       "causal=True has no bars while causal=False and leaky_time_normalization have clear bars; right of it all three change.")

md(r"""
## 4.11 Summary

* The **structural argument** shows that a model is causal whenever each step of each layer either works position by position or reads only $j \le i$. It covers every input, but only the design.
* The **future-perturbation test** detects errors in actual code: fix the prefix, change every future position, compare all prefix outputs. It covers the real code, but only the inputs tried.
* The test must run with its **negative control**: with the mask off it has to see a change. Without that control, a degenerate input or a constant output would let the test pass vacuously. A comparison of no position at all is refused outright.
* Perturb with finite values only: a NaN or inf at a future position contaminates the prefix through $0 \cdot \text{NaN} = \text{NaN}$, and a perfectly causal model appears to leak.
* Looking at the attention weights above the diagonal is not enough: a normalisation over the time axis leaks the future while the weights are perfectly correct.
* Everything concerns one forward pass with fixed parameters: dropout must be off or run with a fixed seed, and a change caused by a training step is not a leak.

The KV cache of §5 rests on this result: future tokens do not change the representations of old positions, so their keys and values can be reused as they are.

The exercises for this section are in `exercises/en/ex04_causality.ipynb`.
""")
