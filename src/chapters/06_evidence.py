# §6 Four kinds of evidence: six checks of §1-§5 in one table, recomputed in one cell with lib,
# each linked to the section that teaches it; an independent plain-Python check on the page;
# what the checks do not prove; what a whole model adds (§7).

md(r"""
# 6 Four kinds of evidence

How do we know that what §1–§5 claim is true, and what could each of their checks miss? Those sections supported their claims with four kinds of evidence. This section puts six of their checks in one table and recomputes them.

## 6.1 Six checks, four kinds of evidence

| no. | what is checked | value | kind of evidence | taught in |
| --- | --- | --- | --- | --- |
| 1 | row 1 of the two-head output for `<bos> 春`, without positions, computed by hand | $[1, 1, 2\alpha-1, 1-2\alpha]$, $\alpha \approx 0.330238$ | hand computation | §2.5 |
| 2 | change of the first two rows of `<bos> 春 雨` when `雨` becomes `<unk>` | 0.0 | future-perturbation test | §4.3 |
| 3 | the same change with the mask off (negative control) | 39.77 | future-perturbation test | §4.4 |
| 4 | right padding removed / replaced by `<unk>`: change at the real positions | $< 10^{-12}$ / $< 10^{-12}$ | structural argument | §1.8 (the replacement is new here) |
| 5 | last-row difference after swapping the first two tokens, without / with positions | $< 10^{-12}$ / 0.0471 | structural argument / counter-example | §3, §3.4 |
| 6 | cache vs. the full forward pass / error after resetting the position to 0 | $< 10^{-12}$ / 0.0875 | equivalence test | §5.2, §5.3 |

Each kind does what the others cannot:

* **Hand computation** (no. 1) confirms every step of a small example. Here it also shows that $W_O$ produces a negative entry: no weighted average of this example's values could have one, since all their coordinates lie in [0, 1] (§2.5).
* **A future-perturbation test with a negative control** (nos. 2 and 3) looks for leaks in real code: the outputs of the model of §4.1 at the prefix positions do not move, while those of the negative control, the same model with the mask off, move by about 39.77. The control's change shows that the test can see a leak at all.
* **A structural argument** (nos. 4 and 5) uses the architecture alone to prove a statement about every input; the numbers only illustrate it. Right padding lies in the future of every real query, and without positions one layer's last row cannot see a swap of the tokens before it. The with-positions half of no. 5 is not an illustration but a counter-example: it marks where the argument stops. With positions added, the same swap changes the last row by 0.0471, the example of §3.4.
* **An equivalence test** (no. 6) confirms that two computations that should agree do: feeding the tokens one at a time through the cache gives the same outputs as the full forward pass, and resetting the position to 0 shows that the comparison can see a position mistake.

The cell below recomputes all six on the model of §4.1. Each check runs on one small example.
""")

code(r"""
import math

import numpy as np

from lib import checks
from lib.data import BOS, UNK, build_vocab, collate, decode, encode
from lib.model import AttentionModel

vocab = build_vocab(["春雨风"])
#en the model of §4.1: hand-chosen E, P, W_O; identity W_Q, W_K, W_V; D=4, H=2
model = checks.chapter_model()

#en no. 1: <bos> 春 with positions off
alpha = 1 / (1 + np.exp(1 / np.sqrt(2)))
two_heads = model.forward(np.array([BOS, 3]), use_positions=False)
manual = [[1, 1, 1, -1], [1, 1, 2 * alpha - 1, 1 - 2 * alpha]]
#en nos. 2 and 3: <bos> 春 雨 against <bos> 春 <unk>, with its control
ids, perturbed = np.array([BOS, 3, 4]), np.array([BOS, 3, UNK])
perturbation = checks.check_causality(
    model.forward, lambda x: model.forward(x, causal=False), ids, perturbed,
    prefix_length=2)
#en no. 4: 雨 padded to <bos> 雨 <eos>; the padding removed, then replaced
padded = collate(["雨", "春雨"], vocab)[0][0]
padding = [np.abs(model.forward(padded)[:2] - model.forward(x)[:2]).max()
           for x in (padded[:2], np.array([BOS, 4, UNK]))]
#en no. 5: 春风雨 against 风春雨, without and with positions
swap = [float(np.abs(model.forward(np.array([3, 5, 4]), use_positions=u)[-1]
                     - model.forward(np.array([5, 3, 4]),
                                     use_positions=u)[-1]).max())
        for u in (False, True)]
with_positions = swap[1]
#en no. 6: the cache; the third token wrongly at position 0
cache_difference = checks.cache_error(model, ids)
reset = checks.incremental_forward(model, ids, positions=[0, 1, 0])
reset_error = float(np.abs(reset[-1] - model.forward(ids)[-1]).max())

print("no. 1: α, 2α-1 =", round(alpha, 6), round(2 * alpha - 1, 6))
print("no. 2:", perturbation.change)
print("no. 3:", f"{perturbation.control_change:.12g}")
print("no. 4: < 1e-12:", max(padding) < 1e-12)
print("no. 5: < 1e-12:", swap[0] < 1e-12, "/", f"{with_positions:.12g}")
print("no. 6: < 1e-12:", cache_difference < 1e-12,
      "/", f"{reset_error:.12g}")
assert np.abs(two_heads - manual).max() < 1e-12
assert perturbation.passed and perturbation.change == 0.0
assert abs(perturbation.control_change - 39.772020613422825) < 1e-9
assert max(padding) < 1e-12 and swap[0] < 1e-12
assert abs(with_positions - 0.047053077502492324) < 1e-12
assert cache_difference < 1e-12
assert abs(reset_error - 0.08753403247684122) < 1e-12
""")

md(r"""
## 6.2 An independent check: the same numbers in plain Python

All the numbers above come from `lib`, and only no. 1 is checked against something outside it: a formula worked out by hand. That check would catch a wrong scale factor, but not every bug. Suppose `lib` split the features into heads by interleaving them instead of taking them in blocks. This example would still give the hand-computed rows, and the cache would still agree with the full forward pass, since the cached step splits the same way. The other assertions compare one use of `lib` with another, or with values that `lib` itself once printed, so they too would miss a bug that `lib` has always had. This subsection therefore adds a route that shares no code with `lib`'s NumPy implementation.

§3.4 computed the last row of the layer with `lib/plain_python.py`, a module that uses only lists, loops and the `math` module, and imports nothing else. Its `input_rows` adds the token and position rows. Its `read` computes what one query reads: the scaled dot products of each head, a softmax with the largest score subtracted, the weighted sum, and the heads joined and multiplied by $W_O$. As §4.2 showed, row $i$ of the causal layer is what query $i$ reads from rows $0$ to $i$; in the negative control, query $i$ reads every row. `layer_py` below builds the layer this way: its argument `causal` chooses between rows $0$ to $i$ and every row. The `positions` argument of `layer_py` (passed on to `input_rows`) reproduces the reset-to-zero bug of §5.3 directly: with `positions=[0, 1, 0]` the third token reads the keys and values of positions 0 and 1, and its own row, built with the wrong position. That is exactly what the faulty cached step reads.

The tables are the model's own, turned into lists: the two routes share the data, not the code.
""")

code(r"""
from lib import plain_python

E_rows, P_rows, W_O_rows = (
    table.tolist()
    for table in (model.token_table, model.position_table, model.w_o))
#en the two rows of the hand computation, no. 1 of §6.1
assert (E_rows[BOS] == [1.0, 0.0, 0.0, 1.0]
        and E_rows[3] == [0.0, 1.0, 1.0, 0.0])


def layer_py(tokens, positions=None, use_positions=True, causal=True):
    #en query i reads rows 0..i (causal), or every row (the negative control)
    rows = plain_python.input_rows(
        tokens, E_rows, P_rows, positions, use_positions)
    return [plain_python.read(row, rows[:i + 1] if causal else rows,
                              model.n_heads, W_O_rows) for i,
            row in enumerate(rows)]


def largest_difference(rows, other_rows):
    largest = 0.0
    for row, other in zip(rows, other_rows, strict=True):
        largest = max(largest,
                      max(abs(u - w) for u,
                          w in zip(row, other, strict=True)))
    return largest


clean, perturbed = [BOS, 3, 4], [BOS, 3, UNK]
py = {
    1: layer_py([BOS, 3], use_positions=False)[1][2],
    2: largest_difference(layer_py(clean)[:2], layer_py(perturbed)[:2]),
    3: largest_difference(layer_py(clean, causal=False)[:2],
                          layer_py(perturbed, causal=False)[:2]),
    5: largest_difference(layer_py([3, 5, 4])[-1:],
                          layer_py([5, 3, 4])[-1:]),
    6: largest_difference(layer_py(clean, positions=[0, 1, 0])[-1:],
                          layer_py(clean)[-1:]),
}
#en the five numbers, to 15 significant digits
for number, value in py.items():
    print(number, f"{value:.15g}")
source_figures = {1: -0.33952309865331376, 3: 39.772020613422825,
                  5: 0.047053077502492324, 6: 0.08753403247684122}
assert all(abs(py[n] - source_figures[n]) <= 1e-14 * abs(source_figures[n])
           for n in source_figures)
alpha_py = 1 / (1 + math.exp(1 / math.sqrt(2)))
print(round(alpha_py, 6))
assert (round(alpha_py, 6) == 0.330238
        and abs(py[1] - (2 * alpha_py - 1)) < 1e-15)
assert py[2] == 0.0
""")

md(r"""
The cell below prints one line per recomputed check: its number, the value from `lib`, the plain-Python value, and whether the two differ by at most $10^{-14}$ times the magnitude of the plain-Python value. No. 1 compares $2\alpha-1$, entry `[1, 2]` of the two-head output (row 1, coordinate 2, both counted from 0).

No. 4 is not recomputed in plain Python: its numbers only illustrate the structural argument of §1.8. Its "replaced" half repeats the test of no. 2 on other inputs: the two inputs differ only after the real positions. Its "removed" half compares the outputs at the real positions of the padded input with those of the same text without padding.

Both routes compute the same function, but not in the same order, so they round at different points: `lib` scales the query before the dot product and uses NumPy matrix products, which round as they add up the terms. The plain-Python code divides each dot product by $\sqrt{d}$ after summing it, and it sums with `math.fsum`, which rounds each sum only once, at the end. The last digit or two may therefore differ. If both routes are correct, they differ only by such rounding, so the cell prints, instead of each difference, whether it stays within $10^{-14}$ times the plain-Python value; a larger difference would mean a mistake in one of the two routes.
""")

code(r"""
ours = {1: float(two_heads[1, 2]), 2: perturbation.change,
        3: perturbation.control_change, 5: with_positions, 6: reset_error}
differences = {n: abs(ours[n] - py[n]) for n in ours}
within_bound = {n: differences[n] <= 1e-14 * abs(py[n]) for n in ours}
for n in ours:
    print(n, f"{ours[n]:.12g}", f"{py[n]:.12g}", within_bound[n])
assert all(within_bound.values())
assert max(differences.values()) < 1e-13
""")

md(r"""
## 6.3 What these checks do not prove

* **No training.** Nothing here updates the token embeddings, the position table or the projections; there is no loss and no gradient. The checks concern the structure of the operators, not what a model can learn.
* **One layer only.** There is no normalisation, position-wise MLP or residual connection. Causality over many layers follows from the structural argument of §4.2 (an induction over layers), and §5.5 checked the cache on a two-layer model with random parameters. A complete multi-layer model is not tested in code until §7.
* **Hand-chosen parameters suit hand computation, not testing.** With $W_Q$, $W_K$, $W_V$ all identity matrices and a symmetric $W_O$, the arithmetic can be done by hand, but some mistakes become invisible, for instance using $W_Q$ where $W_K$ belongs. The cell below tries two such mistakes: first $W_Q$ and $W_K$ swapped, then $W_O$ transposed. For each it prints one line: the change on the model of §4.1, then on a model with random parameters.

  On the model of §4.1 both mistakes change the output by 0.0. Its query and key projections are both the identity, so swapping them changes nothing; its $W_O$ is symmetric, so transposing it changes nothing either. On the random model both mistakes show up at once, with changes of about 1.70 and 0.90. That is why §4 and §5 repeat their checks on random models.
""")

code(r"""
def with_query_and_key_swapped(m):
    return AttentionModel(m.token_table, m.position_table, m.w_k, m.w_q,
                          m.w_v, m.w_o, m.n_heads)


def with_w_o_transposed(m):
    return AttentionModel(m.token_table, m.position_table, m.w_q, m.w_k,
                          m.w_v, m.w_o.T, m.n_heads)


random_params = checks.random_model(
    0, vocab_size=6, context_size=8, width=4, n_heads=2)
for mistake in (with_query_and_key_swapped, with_w_o_transposed):
    hand_chosen = np.abs(mistake(model).forward(ids)
                         - model.forward(ids)).max()
    random_change = np.abs(mistake(random_params).forward(ids)
                           - random_params.forward(ids)).max()
    print(hand_chosen, round(float(random_change), 6))
    assert hand_chosen == 0.0 and random_change > 0.1
assert np.array_equal(model.w_o, model.w_o.T)  #en W_O of §4.1 is symmetric
""")

md(r"""
## 6.4 What a whole model adds

A full decoder keeps the learned absolute positions, adds pre-LN residual blocks (layer normalisation before each sublayer) and a position-wise MLP with biases and GELU, and trains all parameters together with a cross-entropy loss. §7 builds a small model of this kind in NumPy and trains it. Two things then matter:

* **Run the causality checks again on the whole model.** A check passed by one layer says nothing about code added later: a normalisation layer, the pipeline that cuts the data into windows, the cache. The time-axis normalisation of §4.7 leaks even though the attention itself is correct. `lib.checks.check_causality` takes any forward function, so it applies to the whole model unchanged.
* **Save the head count and the vocabulary with the parameters; never feed more tokens than the position table has rows.** The parameters mean something only together with the head count and the vocabulary: change either alone and the same numbers describe a different function, or a model that cannot run at all. The table length needs no separate record: it is the number of rows of P, and it caps the length of the input. The cell below shows three cases: a changed vocabulary, a changed head count, and an input longer than the table.
  * **The vocabulary.** A vocabulary built from `春雨风雪` is sorted by code point, so `雪` takes id 5 and `风` moves to id 6. Row 5 of the old token embedding table is the vector of `风`. Fed text encoded with the new vocabulary, the old model therefore reads `雪` as `风`, and it cannot read `风` at all: its new id, 6, lies outside the old table of 6 rows.
  * **The head count.** The same matrices cut into 1 head instead of 2 compute a different output.
  * **The table length.** A position table of 8 rows cannot take a 9th token.
""")

code(r"""
vocab_v2 = build_vocab(["春雨风雪"])
print(vocab_v2, encode("风", vocab), encode("风", vocab_v2),
      encode("雪", vocab_v2))
assert (encode("风", vocab) == [5] and encode("风", vocab_v2) == [6]
        and encode("雪", vocab_v2) == [5])
#en the old model's id 5 is 风; the new vocabulary reads it as 雪
print(decode([5], vocab), decode([5], vocab_v2))
assert decode([5], vocab) == "风" and decode([5], vocab_v2) == "雪"

one_head = AttentionModel(
    model.token_table, model.position_table, model.w_q, model.w_k,
    model.w_v, model.w_o, n_heads=1)
head_difference = float(
    np.abs(one_head.forward(ids) - model.forward(ids)).max())
print(round(head_difference, 6))
assert head_difference > 0.01

failures = []
#en two inputs the model cannot take: id 6, and 9 tokens
for bad_input in (np.array(encode("风", vocab_v2)),
                  np.array([BOS] + [3] * 8)):
    try:
        model.forward(bad_input)
    except ValueError as err:
        failures.append(type(err).__name__)
print(failures)
assert failures == ["ValueError", "ValueError"]
""")

md(r"""
## 6.5 Summary

Every conclusion of §1–§5 rests on at least one of the four kinds of evidence of §6.1. The plain-Python program of §6.2 agreed with `lib` on all five numbers it recomputed: no difference exceeded $10^{-14}$ times the magnitude of the plain-Python value. §7 runs these checks again on a deeper, trained model.

Exercise set 6 (`exercises/en/ex06_evidence.ipynb`) asks you to write multi-head attention in plain Python, with neither NumPy nor `lib`, and to recompute nos. 2 and 3 of the table with it.
""")
