# Exercises for section 1 (the allowed set).  Solved source: tools/build_notebooks.py
# writes solutions/{zh,en,ru}/ex01_allowed_set.ipynb from it, and the exercise
# notebooks exercises/{zh,en,ru}/ex01_allowed_set.ipynb with the answers cut out.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 1: the allowed set", tags=("exercise",))

md("# Solutions to exercise set 1: the allowed set", tags=("solution",))

md("""
This notebook goes with §1. Each exercise states a task and gives a function in which a single line, `raise NotImplementedError  # TODO`, stands where the answer goes. Replace that line with your code and run the `check(...)` cell right below it: it tells you what is right and what is wrong (expected and actual value, shape, dtype), and when a failure looks like a common mistake, which section explains it. The grader adds hidden tests on random data, so implement the rule the task states, not the examples.

Write the functions yourself. Calling the reference versions in `lib` (such as `lib.attention.masked_softmax`) is detected: `check` warns, and the grader gives no points for that exercise. An exercise earns the points in its heading when all its tests pass, public and hidden. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solutions to exercise set 1; the exercises themselves are in `exercises/en/ex01_allowed_set.ipynb`. Try each one there first, and come here to compare once you have an answer or are stuck. Below each answer come the output of its `check(...)` cell and a short **About the solution** note: why the answer is right and which trap it avoids.

The set practises §1:

* the causal allowed set, and `≤` rather than `<` (§1.7);
* the softmax normalised over the allowed set, and the two ways of getting it wrong: zeroed scores and the wrong order (§1.5, §1.6);
* checking attention weights against four conditions, and what such a check cannot prove (§1.10);
* which targets of a right-padded batch are scored (§1.2, §1.8).
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
"""), tags=("hide-input",))

md("""
## mask-1: the causal allowed set (1 point)

`causal_allowed(tq, tk)` returns a boolean array of shape `(tq, tk)` in which `allowed[i, j]` is True when query `i` may read key `j`. The `tq` queries are the last `tq` of the `tk` positions: query `i` stands at absolute position `tk - tq + i`, as in the lower grid of Figure 1.1 (new queries after stored positions). A query may read every key at or before its own position.

The two position arrays are given; write the one line that compares them.
""")

code(reference_cell("causal_allowed"))

code("""
check("mask-1", causal_allowed)
""")

code("""
print(causal_allowed(3, 3).astype(int))
print(causal_allowed(2, 5).astype(int))
""")

md("""
**About the solution.** The comparison is `<=`, not `<`: the input at position `t` is a token already seen, and reading it does not reveal the next token, which is the target. With `<`, the first row of `causal_allowed(3, 3)` has no True entry: query 0 may read nothing and its softmax has nothing to normalise over. In the second example the two queries are the last two of five positions, at absolute positions 3 and 4, so they read positions 0–3 and 0–4: the bottom-right alignment of Figure 1.1, which a cache needs when a sequence continues (§5.1).
""", tags=("solution",))

md(r"""
## mask-2: softmax over the allowed set (2 points)

Write `masked_softmax(scores, allowed)`: a softmax over the last axis of `scores` that normalises over the entries where `allowed` is True only (`allowed` broadcasts to the shape of `scores`). Requirements:

* forbidden entries come out exactly `0.0`, and every row sums to 1 over its allowed entries;
* the result has the shape and dtype of `scores` (float32 in, float32 out);
* large scores such as 1000 must not overflow: first subtract the largest allowed score of each row;
* a row without any allowed entry raises `ValueError`: that query may read no key, so its softmax has nothing to normalise over.

A softmax over all entries followed by zeroing the future ones is a different thing: its rows no longer sum to 1 (§1.6). Replacing the forbidden scores by 0 does not work either: $\exp(0) = 1$, so those entries still get weight (§1.5).
""")

code(reference_cell("masked_softmax"))

code("""
check("mask-2", masked_softmax)
""")

md("""
Below, the example of §1.6 compares the two orders: three positions, every score zero.
""")

code(r"""
allowed = causal_allowed(3, 3)
weights = masked_softmax(np.zeros((3, 3)), allowed)
#en softmax over all keys, then zeros
zeroed = np.where(allowed, np.full((3, 3), 1 / 3), 0.0)
print(np.round(weights, 6))
print(np.round(weights.sum(axis=-1), 12), np.round(zeroed.sum(axis=-1), 6))
assert (np.allclose(weights[1], [0.5, 0.5, 0.0])
        and np.isclose(zeroed[0].sum(), 1 / 3)), \
    needs_exercise("mask-1", "mask-2")
""")

md("""
**About the solution.** Putting `-inf` on the forbidden entries and then taking a softmax is exactly the same as normalising over the allowed set, because `exp(-inf)` is exactly 0. A finite constant such as `-1e9` would not do: it turns an empty row into a uniform one instead of refusing it (§1.7). Subtracting the row maximum does not change the result but makes the largest exponential `exp(0) = 1`, so nothing overflows to `inf` and then to `nan`. The empty row has to be rejected before computing: its maximum would be `-inf`, `-inf - (-inf)` is `nan`, and the error would flow on silently. Neither `np.where` nor the Python scalar `-np.inf` promotes float32 to float64, so the dtype is kept for free.
""", tags=("solution",))

md("""
## mask-3: a check for attention weights (3 points)

Now turn the rules into a test. Write `is_valid_attention(weights, allowed, atol=1e-9)` that returns `True` when `weights` meets all four of these conditions, and `False` otherwise:

* every entry is finite (no `nan`, no infinity);
* every forbidden entry is exactly 0;
* no entry is negative;
* every row sums to 1 within `atol`.

Test exactly these four conditions, nothing more. They are necessary but not sufficient: a row 1 of `[1, 0, 0]` passes, although key 1 is allowed and, in exact arithmetic, no finite scores give an allowed key a weight of exactly 0. `allowed` broadcasts to the shape of `weights`. For these inputs the function returns a bool (a NumPy `np.bool_` is fine) and never raises. Then run it on the weights of mask-2 and on the "softmax first, zeros after" weights: a good check accepts the first and rejects the second.
""")

code(reference_cell("is_valid_attention"))

code("""
check("mask-3", is_valid_attention)
""")

code(r"""
#en row 1 is [1, 0, 0]: an exact 0 on allowed key 1, and the four
#en conditions still hold
zero_on_allowed = weights.copy()
zero_on_allowed[1] = [1.0, 0.0, 0.0]
print(is_valid_attention(weights, allowed),
      is_valid_attention(zeroed, allowed),
      is_valid_attention(zero_on_allowed, allowed))
assert (is_valid_attention(zero_on_allowed, allowed) and allowed[1, 1]
        and zero_on_allowed[1, 1] == 0.0), \
    needs_exercise("mask-1", "mask-2", "mask-3")
""")

md("""
**About the solution.** A check that only looks at the upper-right triangle passes "softmax first, zeros after": the future entries there are zero indeed, but the rows sum to 1/3 and 2/3. A check of row sums alone passes a row such as `[1.5, -0.5, 0]`. `nan` passes "no negative entry", because every comparison with `nan` is False. With a finite `atol` the row-sum test already rejects `nan` and any infinity; the finiteness test just makes the reason explicit. Mind rounding: correct weights may sum to `0.9999999999999999`, so row sums are compared within a tolerance, while forbidden entries are compared exactly, `!= 0`.

The check cannot demand positive weights on allowed keys either: in floating point an allowed weight does underflow to 0 when its score lies far enough below the row's maximum (§1.10). So `True` means "consistent with the output of a masked softmax within `atol`", not "produced by one".
""", tags=("solution",))

md("""
## data-1: a right-padded batch and its scored targets (2 points)

Write `collate(texts, vocab)`, which turns a list of texts into a batch following the data protocol of §1. It returns `(inputs, targets)`, two int64 arrays of shape `(B, T)`, where `B` is the number of texts and `T` is one more than the length of the longest text. With row `b`'s text encoded as `ids = encode(text, vocab)` (a character outside the vocabulary becomes `<unk>`, id 0):

* the inputs are `BOS`, then `ids`, and `EOS` in every remaining position;
* the targets are `ids`, then one `EOS`, and `IGNORE` (−100) in every remaining position.

The `EOS` among the targets is scored: it is how the model learns to stop at the end of a text. −100 appears only at padded positions and is not scored. An `EOS` in the inputs is only padding: the targets alone decide what is scored. An empty batch or an empty text raises `ValueError`.
""")

code(reference_cell("collate"))

code("""
check("data-1", collate)
""")

md("""
Below, the example of §1, `["春雨", "雨"]`, shows which targets are scored: each text has one scored target more than its length (the last one is `EOS`), and as many −100 as it is shorter than the longest text.
""")

code("""
vocab = build_vocab(["春雨风"])
inputs, targets = collate(["春雨", "雨"], vocab)
scored = targets != IGNORE
print(inputs.tolist())
print(targets.tolist())
print(scored.sum(axis=1).tolist(), (targets == EOS).sum(axis=1).tolist())
assert scored.sum(axis=1).tolist() == [3, 2], needs_exercise("data-1")
assert (targets[scored] == EOS).sum() == 2, needs_exercise("data-1")
assert (inputs[~scored] == EOS).all(), needs_exercise("data-1")
""")

md("""
**About the solution.** Inputs and targets are offset by one: the inputs are `BOS` followed by the text, the targets are the text followed by `EOS`. At every position the input is a token already seen and the target is the one after it, so the target after the last character is `EOS`. That `EOS` must be scored, or the model never learns when to stop; replacing every `EOS` in the targets by −100, as if it were padding, loses exactly this. Padded positions always get the target −100, and only the targets decide what is scored: whether an input is `EOS` cannot decide it, since `EOS` is also an ordinary token id. The longest text sets the shape, and `T` is one more than its length because the inputs start with an extra `BOS`. An empty text is refused: its row would hold a single scored `EOS` and no text to learn from, which almost always means the data is broken.
""", tags=("solution",))
