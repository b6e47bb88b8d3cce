# Exercise set 6 (§6, evidence): an independent check in plain Python.  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 6: an independent check", tags=("exercise",))

md("# Solutions to exercise set 6: an independent check", tags=("solution",))

md("""
This notebook goes with §6 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

§6.2 explains why an independent route of computation is needed: if `lib` had a bug, assertions that compare two uses of `lib` could all pass together. Here you write that route yourself: multi-head attention in plain Python (lists, loops and the `math` module), which you then use to recompute numbers 2 and 3 of the table in §6.1 and compare them with `lib`. A function that uses NumPy or `lib` is no longer an independent check: `check` prints a warning and the grader gives no points for it.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solution to exercise set 6; the exercise is in `exercises/en/ex06_evidence.ipynb`. Try it there first, then compare here.

The exercise practises §6: recomputing the numbers of §6.1 in plain Python (§6.2), and what such a check proves and what it does not (§6.3).
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import math

import numpy as np

from grading import check, needs_exercise
from lib import checks
from lib.data import BOS, UNK
"""), tags=("hide-input",))

code("""
model = checks.chapter_model()  # §4.1: D=4, H=2, C=8, W_Q = W_K = W_V = I
""")

md("""
## evidence-1: multi-head attention in plain Python (4 points)

Write `attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True)`, one pass of multi-head attention over one sequence that agrees with `lib.attention.multi_head_attention`:

* `x` is a list of `T` rows of `D` floats each; `w_q`, `w_k`, `w_v` and `w_o` are lists of `D` rows of `D` numbers.
* Use row vectors: component `c` of query `i` is `sum(x[i][r] * w_q[r][c] for r in range(D))`, and likewise for the keys, the values and the output projection.
* Head `h` uses components `h·d … (h+1)·d - 1` of the queries, keys and values, with `d = D / H`. A score is the dot product of a query and a key times `1/√d`; with `causal=True` query `i` reads only the keys `j ≤ i`, with `causal=False` it reads all of them. Take a softmax over the keys it reads (subtracting the largest score first, so that nothing overflows) and a weighted sum of the values.
* Concatenate the heads' results, head by head, into `D` numbers, multiply by `w_o`, and return a list of `T` rows of `D` floats.
* A `D` that `n_heads` does not divide raises `ValueError`.

The function may use neither NumPy nor `lib`.
""")

code(reference_cell("attention_py"))

code("""
check("evidence-1", attention_py)
""")

md("""
Now use it to recompute numbers 2 and 3 of the table in §6.1. `<bos> 春 雨` and `<bos> 春 <unk>` differ only at the last position; number 2 is the largest change of the first two output rows with the mask, number 3 the change with the mask off. The model of §4.1 uses identity matrices for $W_Q$, $W_K$ and $W_V$; the token table, the position table and $W_O$ are taken from the model as lists, and from then on everything goes through `attention_py`. Each printed row gives the number, the plain-Python value, the value from `lib` and whether the two agree within $10^{-12}$.
""")

code("""
E, P, W_O = (model.token_table.tolist(), model.position_table.tolist(),
             model.w_o.tolist())
identity = [[float(r == c) for c in range(4)] for r in range(4)]
assert (identity == model.w_q.tolist() == model.w_k.tolist()
        == model.w_v.tolist())

def prefix_change_py(tokens_a, tokens_b, causal):
    #en the largest change of the first two output rows, lists all the way
    rows = [attention_py([[e + p for e, p in zip(E[t], P[i])] for i,
                          t in enumerate(tokens)], identity, identity,
                         identity, W_O, 2, causal)[:2]
            for tokens in (tokens_a, tokens_b)]
    return max(abs(a - b) for row_a, row_b in zip(*rows) for a,
               b in zip(row_a, row_b))

ids, perturbed = [BOS, 3, 4], [BOS, 3, UNK]
py = {2: prefix_change_py(ids, perturbed, True),
      3: prefix_change_py(ids, perturbed, False)}
perturbation = checks.check_causality(
    model.forward, lambda t: model.forward(t, causal=False), np.array(ids),
    np.array(perturbed), prefix_length=2)
ours = {2: perturbation.change, 3: perturbation.control_change}
for n in (2, 3):
    print(n, f"{py[n]:.10f}", f"{ours[n]:.10f}",
          abs(py[n] - ours[n]) < 1e-12)
assert (
    py[2] == 0.0 and abs(py[3] - 39.772020613422825) < 1e-9
), needs_exercise("evidence-1")
assert all(abs(py[n] - ours[n]) < 1e-12
           for n in (2, 3)), needs_exercise("evidence-1")
""")

md("""
**About the solution.** This route is independent because it shares no line of code with `lib`: the head split is a range of component indices, the scale is `math.sqrt(d)`, and the softmax, the weighted sum and $W_O$ are explicit loops. Had `lib` split the heads wrongly or scaled by `1/d`, its number 3 would disagree with this route. Number 2 would not: it is 0.0 for any causal computation, so only number 3 can catch such a bug. A transposed $W_O$ would not show, since the $W_O$ of §4.1 is symmetric.

The hidden tests of this exercise use random weights, because identity projections hide a whole class of mistakes (§6.3): on the model of §4.1, using $W_Q$ where $W_K$ belongs changes nothing at all.

Both routes perform the same operations and differ only in the order of summation, so their results can differ only in the last digit or two. Number 2 is exactly 0.0 on both routes, because the first two rows read exactly the same keys and values. Number 3 is about 39.77, and the two routes agree within $10^{-12}$.
""", tags=("solution",))
