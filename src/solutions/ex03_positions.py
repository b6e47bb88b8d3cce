# Exercise set 3 (§3, learned absolute positions).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 3: learned absolute positions", tags=("exercise",))

md("# Solutions to exercise set 3: learned absolute positions", tags=("solution",))

md("""
This notebook goes with §3 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it. `embed` and `embed_backward` in `lib.positions` are the reference versions; do not call them.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solutions to exercise set 3; the exercises are in `exercises/en/ex03_positions.ipynb`. Try them there first, then compare here.

The set practises §3: the embedding with an offset and its refusal past the position table (§3.1, §3.3), the backward pass of the embedding, a scatter-add that handles repeated ids (§3.2), and the token-swap test that shows why positions are needed (§3.4).
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from grading.models import no_position_forward, random_model
"""), tags=("hide-input",))

md("""
## pos-1: embedding with an offset (1 point)

`embed(ids, token_table, position_table, offset=0)` returns the input vectors `E[x_t] + P[offset + t]`: `ids` has shape `(T,)` or `(B, T)`, the token embedding table `E` is `(V, D)` and the position table `P` is `(C, D)`. `offset` counts the positions that come before this piece of input, so token `t` sits at absolute position `offset + t`.

The position table has `C` rows. If a position falls outside them (or `offset` is negative), raise `ValueError`: the table has no row for such a position, and wrapping it around or clamping it to the last row would make two different positions share one row (§3.3).
""")

code(reference_cell("embed"))

code("""
check("pos-1", embed)
""")

code("""
E = np.arange(12.0).reshape(6, 2)  #en token t has the row [2t, 2t + 1]
P = 100.0 * np.arange(8.0)[:, None] * np.ones((1, 2))
print(embed(np.array([5, 5]), E, P, offset=3))
""")

md("""
**About the solution.** `token_table[ids]` works for `(T,)` and `(B, T)` alike and gives `(..., T, D)`; the position rows `position_table[offset:offset + T]` are `(T, D)` and broadcast over every sequence of a batch. In the example token 5 appears twice: the token part is the same, the position parts are rows 3 and 4, so the two input vectors differ.
""", tags=("solution",))

md("""
## pos-2: the backward pass of the embedding, a scatter-add (2 points)

Write `embed_backward(grad, ids, vocab_size, context_size, offset=0)`. `grad` is the gradient of the loss with respect to the input vectors, of shape `ids.shape + (D,)`. Return `(d_token, d_position)`, the gradients of the two tables, of shapes `(V, D)` and `(C, D)` and the dtype of `grad`.

* the token table accumulates by token id: an id that occurs three times receives three contributions;
* the position table accumulates by absolute position `offset + t`: every sequence of a batch uses the same position rows;
* positions outside `0 … C-1` raise `ValueError`.

Beware: `d_token[ids] += grad` keeps only one of the contributions of a repeated id.
""")

code(reference_cell("embed_backward"))

code("""
check("pos-2", embed_backward)
""")

md("""
Here are two small experiments. The first reuses the upstream gradients at the first position of §3.2's example, `[1, 2]` and `[-3, 1]`, but with the first tokens 3 and 4 (春 and 雨) instead of 春 and 风. Row 0 of the position table receives their sum, `[-2, 3]`, and token rows 3 and 4 each receive their own gradient. The second shows why `+=` is not enough: id 2 occurs three times, the right gradient is 3, and `+=` leaves 1.
""")

code("""
# (B=2, T=2, D=2)
grad = np.array([[[1.0, 2.0], [0.0, 0.0]], [[-3.0, 1.0], [0.0, 0.0]]])
d_token, d_position = embed_backward(grad, np.array([[3, 1], [4, 1]]), 6, 4)
print(d_position[0], d_token[3], d_token[4])

ids = np.array([2, 5, 2, 2])
ones = np.ones((4, 1))
careless = np.zeros((6, 1))
careless[ids] += ones
print(careless[:, 0], embed_backward(ones, ids, 6, 4)[0][:, 0])
""")

md("""
Finally, check one entry of the gradient with a finite difference: for the loss `L = Σ embed(ids) · G`, nudging one entry of `E` must change `L` at the rate given by the matching entry of `d_token`. `L` is linear in `E`, so a one-sided difference is exact up to rounding.
""")

code("""
rng = np.random.default_rng(0)
E, P = rng.normal(size=(6, 3)), rng.normal(size=(5, 3))
ids = np.array([[1, 4, 4], [2, 1, 4]])
G = rng.normal(size=(2, 3, 3))
d_token, d_position = embed_backward(G, ids, 6, 5, offset=1)

def loss(E, P):
    return np.sum(embed(ids, E, P, offset=1) * G)

h = 1e-6
E_nudged = E.copy()
E_nudged[4, 0] += h
numeric = (loss(E_nudged, P) - loss(E, P)) / h
print(round(numeric, 4), round(d_token[4, 0], 4))
assert abs(numeric - d_token[4, 0]) < 1e-6, needs_exercise("pos-1", "pos-2")
""")

md("""
**About the solution.** `np.add.at` is an unbuffered scatter-add: every contribution of a repeated id is added. The position gradient does not need it, since positions within one sequence never repeat; all sequences of a batch share rows `offset … offset+T-1`, so the batch axis is summed first. The range check must come before writing, because a slice raises no error of its own: past the end of the table it silently gets shorter, and a negative offset counts from the end of the table. The write then puts the rows in the wrong place (`[-5:-2]` writes rows `C-5 … C-3`), writes nothing, or fails with a broadcast error that says nothing about positions.
""", tags=("solution",))

md("""
## pos-3: a token-swap test (3 points)

The opening example of §3 says: in one attention layer without positions, swapping two tokens before the last position leaves the last output row unchanged (§3.4 shows that positions change this). Turn that into a test.

`last_row_swap_change(forward, ids, i, j)`: `forward` maps `ids` to outputs `(..., T, D)`; swap tokens `i` and `j` (in every sequence of a batch) and return the largest absolute change of the last output row, as a `float`. `i` and `j` must be two different positions before the last one, otherwise raise `ValueError`: swapping the last token would change the last query itself and the test would mean nothing.

Then use the cell below to compare one model's forward pass with and without positions.
""")

code(reference_cell("last_row_swap_change"))

code("""
check("pos-3", last_row_swap_change)
""")

code("""
model = random_model(1)
ids = np.array([3, 5, 4])
without_positions = last_row_swap_change(
    no_position_forward(model), ids, 0, 1)
with_positions = last_row_swap_change(model.forward, ids, 0, 1)
print(without_positions < 1e-12, round(with_positions, 6))
assert without_positions < 1e-12 < with_positions, needs_exercise("pos-3")
""")

md("""
**About the solution.** Without positions, swapping two keys swaps their values too; the softmax weights move along and the weighted sum stays the same, up to rounding (below $10^{-12}$ here). With positions, the two tokens carry different rows of `P`, keys and values are no longer merely permuted, and the last row changes. Be careful about what this shows. It is a statement about the last row of this one layer: without positions, that row receives no information about the order of the permuted prefix. It does not say that the causal mask itself carries no order information. The earlier rows do differ between the two orders (row 0 reads only the first token, and the query of row 1 is the second token), and a second layer that reads those rows can tell the orders apart; §3.4 checks both. Batches work too, because the swap is written on `[..., [i, j]]` and happens in every sequence at once.
""", tags=("solution",))
