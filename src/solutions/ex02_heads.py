# Exercise set 2 (§2, heads).  See src/solutions/ex01_allowed_set.py for the format.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 2: heads", tags=("exercise",))

md("# Solutions to exercise set 2: heads", tags=("solution",))

md("""
This notebook goes with §2 and works like exercise set 1: replace each line `raise NotImplementedError  # TODO` in a function with your code and run the `check(...)` cell below it. Each function has one such line, except `split_heads` (heads-1), which has two: one before the given `reshape` and one after it. The grader adds hidden tests on random data. Write splitting, merging and multi-head attention yourself rather than calling the functions of the same names in `lib.attention`; `causal_attention` from §1 is yours to use.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solutions to exercise set 2; the exercises are in `exercises/en/ex02_heads.ipynb`. Work through them there first, then compare here.

The set practises §2. You split the width into heads and merge them back (§2.2, §2.4). Then you assemble causal multi-head attention from the projections, the split, §1's causal attention, the merge and `w_o` (§2.1, §2.5). Finally you count what the number of heads costs at a fixed width: the parameters and the bytes of a KV cache (§2.6, §5.6).
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from lib.attention import causal_attention
"""), tags=("hide-input",))

md("""
## First find the bug: a split by `reshape` alone

Reshaping `(B, T, D)` straight into `(B, H, T, d)` gives the right shape and the wrong numbers. To see where each number comes from, label every entry: the entry at position `t`, feature `c` holds the value `D·t + c`, so `value // D` is the position it came from. The cell below prints, for every head of the reshape-only split, the position that each row's data came from.
""")

code("""
B, T, D, H = 1, 3, 4, 2
d = D // H
x = np.arange(B * T * D).reshape(B, T, D)        #en value = D * t + c
wrong = x.reshape(B, H, T, d)                     #en reshape alone
print(x[0])
print(wrong[0] // D)  #en the source position of every entry, head by head
#en head 1: rows 0 and 1 hold positions 1 and 2
assert (wrong[0, 1, :2] // D == [[1, 1], [2, 2]]).all()
""")

md("""
Row 0 of head 1 holds features of position 1, and its row 1 features of position 2. The causal mask lets row 0 read only row 0, but in head 1 that row already holds data from position 1. The shape is valid and the mask is right. Yet once the heads are merged back correctly, position 0's output contains data from position 1: information leaks all the same. `reshape` cuts blocks in memory order, so it mixes the time axis with the head axis. The right way is to split the last axis into `(H, d)` first, which gives `(B, T, H, d)`, and then move the head axis in front of the time axis.

## heads-1: fixing the split (1 point)

`split_heads(x, n_heads)` turns `(..., T, D)` into `(..., H, T, d)` so that coordinate `a` of head `h` is the original feature `h·d + a`. A width `D` that `n_heads` does not divide raises `ValueError`. The `reshape` line is given; write the check before it and the line that swaps the axes after it.
""")

code(reference_cell("split_heads"))

code("""
check("heads-1", split_heads)
""")

code("""
right = split_heads(x, H)
print(right[0] // D)  #en every row now comes from its own position
assert (right[0] // D
        == np.arange(T)[None, :, None]).all(), needs_exercise("heads-1")
""")

md("""
**About the solution.** `np.swapaxes(heads, -3, -2)` swaps the time axis `T` with the head axis `H`; with negative axis numbers it works with or without a batch axis. The result is a view, nothing is copied. The numbered-input test is more direct than a random one: every row of every head must hold data of its own position only. Note that with `T = 1` or `H = 1`, `reshape` alone happens to be right, so a test must use `T > 1` and `H > 1` together.
""", tags=("solution",))

md("""
## heads-2: merging the heads (2 points)

Write `merge_heads(x)`: it turns `(..., H, T, d)` back into `(..., T, H·d)`, the exact inverse of `split_heads`, with the heads concatenated in their original order. An input with fewer than three axes raises `ValueError`.
""")

code(reference_cell("merge_heads"))

code("""
check("heads-2", merge_heads)
""")

code("""
print(np.array_equal(merge_heads(split_heads(x, H)), x))
""")

md("""
**About the solution.** Merging undoes the split in reverse order: first move the head axis back behind the time axis, then flatten the last two axes `(H, d)` into one. Reshaping before swapping would repeat the mistake of the reshape-only split. The round trip `merge_heads(split_heads(x)) == x` on integer labels compares exactly, with no tolerance.
""", tags=("solution",))

md(r"""
## heads-3: causal multi-head attention (3 points)

Write `multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads)` in the course's conventions: row vectors, no biases, `x` of shape `(B, T, D)` and all four matrices `(D, D)`. Steps:

1. project at full width, `x @ w_q`, `x @ w_k`, `x @ w_v`, and split each into `(B, H, T, d)` with your `split_heads`;
2. run causal attention in every head (`causal_attention(q, k, v)` will do; it divides the scores by $\sqrt d$, where `d` is the head width);
3. merge back to `(B, T, D)` with your `merge_heads` and multiply by `w_o`.

When `H` does not divide `D` the function raises `ValueError` (your `split_heads` already does).
""")

code(reference_cell("multi_head_attention"))

code("""
check("heads-3", multi_head_attention)
""")

md("""
Check against Example 1 of §2.5: BOS and 春 are `[1, 0, 0, 1]` and `[0, 1, 1, 0]`, all three projections are the identity, `H = 2`. Output 1 should be $[1, 1, 2\\alpha - 1, 1 - 2\\alpha]$ with $\\alpha = 1/(1 + e^{1/\\sqrt 2})$, as in §2.5.
""")

code("""
alpha = 1 / (1 + np.exp(1 / np.sqrt(2)))
# (B=1, T=2, D=4)
tokens = np.array([[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]])
w_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
eye = np.eye(4)
out = multi_head_attention(tokens, eye, eye, eye, w_o, 2)
print(np.round(out[0], 6))
expected = [[1, 1, 1, -1], [1, 1, 2 * alpha - 1, 1 - 2 * alpha]]
assert np.allclose(out[0], expected), needs_exercise("heads-3")
""")

md("""
**About the solution.** The three projections are full-width `(D, D)` matrices and the split comes after them; every head computes its scores in its own `d`-dimensional subspace and takes its own softmax. `w_o` cannot be skipped: it mixes the concatenated heads, which is why the example's outputs have negative entries. No weighted average of its values, whose entries are all 0 or 1, could have one (§2.5). Row 1 of the example, `[1, 1, -0.339523, 0.339523]`, checks at once the order of splitting and merging and that `w_o` is applied.
""", tags=("solution",))

md("""
## cost-1: parameters and KV-cache bytes (2 points)

Write `attention_costs(batch, length, width, n_heads, n_layers, dtype)`, which returns a pair of ints `(parameters, kv_cache_bytes)`:

* `parameters`: the number of parameters of `n_layers` attention layers. Each layer has four `(D, D)` matrices, $W_Q$, $W_K$, $W_V$ and $W_O$, and no biases (as in `lib.attention.multi_head_attention`, §2.6).
* `kv_cache_bytes`: the size in bytes of the KV cache of a batch of `batch` sequences, each with `length` stored positions. When a model generates one token at a time, it keeps the key and value of every earlier position so that it need not compute them again; that store is the KV cache (§5). Every layer, head, position and sequence stores one key and one value of `d = D / H` numbers each.
* `dtype` is `"float16"`, `"float32"` or `"float64"`; one number takes `np.dtype(dtype).itemsize` bytes (2, 4 or 8).
* A `width` that `n_heads` does not divide raises `ValueError`, and so does a number of layers below 1.

Think first: at fixed `D`, does the number of heads `H` change either result?
""")

code(reference_cell("attention_costs"))

code("""
check("cost-1", attention_costs)
""")

md("""
Below, the configuration of GPT-2 small (12 layers, D = 768, T = 1024, B = 1) runs with 1, 4 and 12 heads, in float32 and in float16; each row gives H, the dtype, the number of parameters and the cache size in MiB.
""")

code("""
for dtype in ("float32", "float16"):
    for n_heads in (1, 4, 12):
        parameters, kv_bytes = attention_costs(
            1, 1024, 768, n_heads, 12, dtype)
        print(n_heads, dtype, parameters, kv_bytes / 2**20)
assert attention_costs(1, 1024, 768, 12, 12, "float32") == (
    28_311_552, 75_497_472), needs_exercise("cost-1")
assert attention_costs(1, 1024, 768, 1, 12, "float16") == (
    28_311_552, 75_497_472 // 2), needs_exercise("cost-1")
""")

md(r"""
**About the solution.** Neither result depends on the number of heads: the parameters are $4D^2$ per layer, and per position and layer the cache stores $2 \cdot H \cdot d = 2D$ numbers; `H` only decides how they are grouped. What matters is the number of layers, the width, the stored positions, the batch and the dtype: the parameters grow with the layers and with $D^2$, the cache grows linearly with the layers, the batch, the positions and D, and float16 halves it. The usual mistakes are dropping the factor 2 (keys counted, values forgotten) and forgetting to multiply by the number of layers. For the shape of GPT-2 small the right answer is 28,311,552 attention parameters (the four projection matrices of its 12 layers, weights only: this course's layers have no biases) and a 72 MiB cache per sequence in float32. A width that the heads do not divide cannot be split at all, so it raises instead of rounding `D // H` down and carrying on.
""", tags=("solution",))
