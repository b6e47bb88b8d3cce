# §1 The allowed set before softmax.  Trilingual source: see tools/nbsource.py.

md(r"""
# 1 The allowed set comes before softmax

In the example of §0.2 every query read every position, its future included. For a model trained to predict the next token, that is fatal: the answer for position t sits at position t + 1, and a query that can read it will copy it instead of learning to predict it.

This section fixes what each query may read, the **allowed set**, and shows why the restriction has to be applied before the softmax, not after it. Along the way we settle the data protocol the whole course relies on: how texts become ids, how a batch is padded, and which outputs are scored.
""")

md(r"""
## 1.1 Three positions, all scores zero

Start with the simplest case: three positions and all scores $s_{ij}$ equal to 0. Query i may read the keys $j \le i$, its own position included (§1.3 shows why reading itself is safe). Softmax over this allowed set is

$$
\alpha_{ij} =
\begin{cases}
\dfrac{\exp s_{ij}}{\sum_{j' \le i} \exp s_{ij'}}, & j \le i,\\[2ex]
0, & j > i.
\end{cases}
$$

Row i spreads its weight over its i + 1 readable positions; the scores are equal, so they share it equally:
""")

code("""
import numpy as np
import matplotlib.pyplot as plt
from fractions import Fraction

from figures import plots
from lib.attention import (attention_scores, causal_allowed,
                           causal_attention, masked_softmax,
                           unmasked_attention)
from lib.data import BOS, EOS, IGNORE, UNK, build_vocab, collate, decode

def as_fractions(w):
    return [[str(Fraction(float(x)).limit_denominator(100)) for x in row]
            for row in np.atleast_2d(w)]

allowed = causal_allowed(3, 3)  #en True = may read: j ≤ i
S = np.zeros((3, 3))
weights = masked_softmax(S, allowed)
print(as_fractions(weights))
assert np.allclose(weights, [[1, 0, 0], [1/2, 1/2, 0], [1/3, 1/3, 1/3]])
assert (weights[~allowed] == 0.0).all()
assert np.allclose(weights.sum(axis=1), 1.0)
#en equal scores: Y is the running mean of the rows of X up to i
X3 = np.arange(6.0).reshape(3, 2)
counts = np.arange(1, 4)[:, None]
assert np.allclose(weights, np.tril(np.ones((3, 3))) / counts)
assert np.allclose(weights @ X3, np.cumsum(X3, axis=0) / counts)
""")

md(r"""
Row 0 has a single readable key and gets the weights [1, 0, 0]; row 1 gets [1/2, 1/2, 0]; row 2 may read all three positions and gives each 1/3. Forbidden entries are exactly 0 and every row sums to 1.

These weights are the lower triangle of ones, each row divided by its number of ones ($i+1$), so `weights @ X3` is the running mean of the rows of `X3` up to each position (the last lines of the cell check both). Masked attention is a weighted average of the past and the present: with equal scores every position up to and including i counts the same; learned scores make the weights uneven.
""")

md(r"""
Exercise mask-3 (exercise set 1) turns these properties into a check: every entry is finite, no weight is negative, every forbidden weight is exactly 0, and every row sums to 1 within a tolerance `atol`, that is $\lvert \sum_j \alpha_{ij} - 1 \rvert \le$ `atol`. The row-sum check in the code cell above, `np.allclose(weights.sum(axis=1), 1.0)`, is looser than mask-3's default `atol = 1e-9`: it adds a relative tolerance ($10^{-5}$ of the expected value, by default) to an absolute one ($10^{-8}$). That is fine for a demonstration, but not for mask-3.
""")

md(r"""
## 1.2 The data protocol

Every example with text in this course follows one data protocol, the one implemented in `lib/data.py`:

* three special tokens take the first ids: `<unk>` = 0 (a character outside the vocabulary), `<bos>` = 1 (BOS, beginning of sequence), `<eos>` = 2 (EOS, end of sequence);
* the remaining tokens are the distinct characters of the training texts, sorted by Unicode code point and numbered in that order;
* there is no separate PAD id. Shorter texts in a batch are padded on the right: inputs with EOS, targets with −100.

Here is the vocabulary built from the three characters 春 (spring), 雨 (rain) and 风 (wind):
""")

code("""
vocab = build_vocab(["春雨", "风"])
print(vocab)
print([f"U+{ord(ch):04X}" for ch in vocab[3:]])
assert (UNK, BOS, EOS, IGNORE) == (0, 1, 2, -100)
assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
""")

md(r"""
The code points increase in that order, so 春, 雨 and 风 get the ids 3, 4 and 5.

`lib.data.collate` turns a list of texts into a batch. Each row of inputs starts with BOS and continues with the characters of the text; the targets are the characters of the text followed by one EOS. The batch length T is one more than the length of the longest text. For `["春雨", "雨"]`:
""")

code("""
inputs, targets = collate(["春雨", "雨"], vocab)
print(inputs)
print(targets)
assert inputs.tolist() == [[1, 3, 4], [1, 4, 2]]
assert targets.tolist() == [[3, 4, 2], [4, 2, -100]]
""")

md(r"""
Row 0, 春雨, fills T = 3 and needs no padding. Row 1, 雨, has a single character: its inputs end with one EOS (id 2) and its targets end with −100. Note that the two 2s in this row play entirely different roles. The 2 at target position 1 is the real end of the text 雨, and the model must learn to predict it; the 2 at input position 2 is only filler.

## 1.3 Why position i may read itself

Line the inputs up with the targets. The input at position t is token t, which has already been seen; the output at position t is used to predict target t, the token that comes next:
""")

code("""
for b in range(len(inputs)):
    pairs = [
        f"{decode([x], vocab)}→{decode([y], vocab) if y != IGNORE else y}"
        for x, y in zip(inputs[b], targets[b])]
    print("  ".join(pairs))

scored = targets != IGNORE
for b, t in zip(*np.nonzero(scored[:, :-1])):
    #en the answer of query t is the input at position t + 1
    assert targets[b, t] == inputs[b, t + 1]
""")

md(r"""
Two things follow. First, at every scored position t that has a next input, target t is input t + 1 (the code checks each one). The answer always sits at the next position, so a query i that reads keys $j \le i$ never sees its own answer, and key i + 1 is precisely the first key that must be forbidden.

Second, reading itself is safe for position i, because input i is a token already seen, not the answer. Position 0 is no exception. It holds BOS, which is fixed before any character appears, so reading it reveals nothing about the first character; that character is target 0 and enters the inputs only at position 1, which query 0 may not read. The allowed set is therefore $j \le i$, diagonal included.

The upper grid of Figure 1.1 shows this for five positions. The lower grid shows a case that §5 will need: a few new queries after a cache, so more keys than queries.

![Two grids. Top: five positions BOS 春 风 春 雨, queries i as rows and keys j as columns; the cells with j ≤ i (the diagonal and below) are allowed, the future cells above it are forbidden, and the target of every row but the last, input i + 1, is the row's first forbidden cell. Bottom: after a cache of 3 positions, 2 new queries read 5 keys and query i stands at position 3 + i; the allowed cells are the bottom-right corner of the triangle above, its last two rows.](figures/allowed_pairs.svg)

## 1.4 The allowed set is one boolean array

The code writes the causal constraint as one boolean array, `allowed`: `allowed[i, j]` is True when query i **may read** key j. `lib.attention.causal_allowed(tq, tk)` builds it and `lib.attention.masked_softmax(scores, allowed)` takes it. For three positions it is the lower triangle, diagonal included:
""")

code("""
allowed = causal_allowed(3, 3)
print(allowed.astype(int))
assert (allowed == np.tril(np.ones((3, 3), dtype=bool))).all()

def refusal(function, *args):
    #en function(*args) must raise a ValueError; return it
    try:
        function(*args)
    except ValueError as err:
        return err
    raise AssertionError(f"{function.__name__} accepted its arguments")

#en the complement, passed by mistake: True where reading is forbidden
err = refusal(masked_softmax, np.zeros((3, 3)), ~allowed)
print(type(err).__name__, np.flatnonzero(allowed.all(axis=1)))
assert "row (2,)" in str(err)
""")

md(r"""
If the complement `~allowed` is passed by mistake, every query reads exactly the keys it must not read. Here the mistake is caught only because the last row of the complement is all False: query 2 would read nothing, and `masked_softmax` raises. In every mask that `causal_allowed` builds with at least one query, the last query reads every key, so the complement has an empty last row. A mask that also excludes padding may have no row that reads every key, and then its complement passes without an error (§1.8 shows one). So do not count on the error: build the mask with `causal_allowed` and pass it unchanged.
""")

md(r"""
## 1.5 A score of 0 forbids nothing

A natural misconception is that setting the forbidden scores to 0 (say with `scores * allowed`, or `np.where(allowed, scores, 0)`) hides those keys. But 0 is just an ordinary score: softmax gives it $\exp(0) = 1$, the same as an allowed key with score 0. In the all-zero example the forbidden scores are 0 already, so "zeroing" them changes nothing:
""")

code("""
def softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

#en wrong: forbidden scores set to 0 instead of −∞
zero_scores = softmax(np.where(allowed, S, 0.0))
print(as_fractions(zero_scores))
print(np.exp(0.0))
assert np.allclose(zero_scores, 1/3) and (zero_scores[~allowed] > 0).all()

#en additive mask: 0 where allowed, −∞ where forbidden
additive = softmax(S + np.where(allowed, 0.0, -np.inf))
assert np.allclose(additive, weights) and (additive[~allowed] == 0.0).all()

#en without subtracting the largest score: exp(1000) overflows
with np.errstate(over="ignore", invalid="ignore"):
    e = np.exp(np.array([1000.0, 0.0]))
    unstable = e / e.sum()
print(unstable)
assert np.isnan(unstable[0]) and unstable[1] == 0.0
""")

md(r"""
All three rows become [1/3, 1/3, 1/3]: query 0 gives two thirds of its weight to its future, and query 1 one third. Forbidding a key means giving it no share of the normalisation. `masked_softmax` replaces its score with $-\infty$; the familiar additive mask adds $-\infty$ to it. Either way the key's term stays in the sum but adds exactly 0 to the denominator, since $\exp(-\infty)$ is 0 whatever the other scores are. A finite score gives 0 only once it lies far enough below the row's largest score (§1.10).
""")

md(r"""
The helper `softmax` uses the numerically stable form that §0.1 lists as a prerequisite: it subtracts each row's largest score before `exp`. The weights stay the same, because numerator and denominator are both divided by the same factor, $e^{\max_j s_{ij}}$; and no `exp` can overflow any more, because the largest exponent is 0. Without the subtraction, a large score makes `exp` overflow to infinity, and infinity divided by infinity is NaN. The scores [1000, 0] give the weights `[nan, 0.]` (the last lines of the code above print them), and the output of that query, a weighted sum with a NaN weight, is NaN too.
""")

md(r"""
## 1.6 The wrong order: softmax first, zero the future afterwards

Another common mistake zeroes the right thing at the wrong time: it applies an ordinary softmax over all positions and only then sets the future **weights** to zero. In the same example, softmax first turns every row into [1/3, 1/3, 1/3]; after zeroing:
""")

code("""
#en normalise over every key, then zero the future
wrong = softmax(S) * allowed
print(as_fractions(wrong))
print(as_fractions(wrong.sum(axis=1)))
assert np.allclose(wrong, [[1/3, 0, 0], [1/3, 1/3, 0], [1/3, 1/3, 1/3]])
assert np.allclose(wrong.sum(axis=1), [1/3, 2/3, 1])

renormalised = wrong / wrong.sum(axis=1, keepdims=True)
assert np.allclose(renormalised, weights)
""")

md(r"""
Row 0 becomes [1/3, 0, 0] and sums to 1/3; row 1 becomes [1/3, 1/3, 0] and sums to 2/3; only row 2, which has no future, keeps [1/3, 1/3, 1/3] and sums to 1. The first two rows are no longer probability distributions. Renormalising each row after zeroing does recover the correct weights (the code checks it), but that is just another way of writing "normalise over the allowed set".

Figure 1.2 puts the right way next to the two wrong ones: on the left `masked_softmax`, in the middle forbidden scores set to 0 (§1.5), on the right softmax first and zeroing afterwards. Each row's sum is written to its right:
""")

code("""
plots.heatmaps(
    [weights, zero_scores, wrong],
    ["masked_softmax(S, allowed)", "softmax(where(allowed, S, 0))",
     "softmax(S) * allowed"],
    labels=[as_fractions(weights), as_fractions(zero_scores),
            as_fractions(wrong)],
    row_sums=True, lang="{{lang}}",
    sum_labels=[as_fractions(m.sum(axis=1))[0]
                for m in (weights, zero_scores, wrong)],
)
plt.show()
""", alt="Three 3×3 heatmaps, rows i are queries, columns j keys. Left, masked_softmax: zeros above the diagonal, every row sums to 1. Middle, forbidden scores set to 0: 1/3 everywhere, the future is read. Right, softmax then zeroing: row sums 1/3, 2/3, 1.")

md(r"""
The wrong order does more than break the row sums. Its denominator includes the exponentials of the future keys' scores, so the future leaks in through it. Change only the score between query 0 and its future key 2, from 0 to 2:
""")

code("""
S_changed = S.copy()
#en query 0 against its future key 2
S_changed[0, 2] = 2.0
right_row = masked_softmax(S_changed, allowed)[0]
wrong_row = (softmax(S_changed) * allowed)[0]
print(np.round(right_row, 6), np.round(wrong_row, 6))
assert np.array_equal(right_row, weights[0])
assert (np.isclose(wrong_row[0], 1 / (2 + np.exp(2.0)))
        and round(float(wrong_row[0]), 6) == 0.106507)
""")

md(r"""
The correct weights do not move at all and stay [1, 0, 0]. In the wrong order, the weight query 0 gives to its own position drops from 1/3 to $1/(2 + e^2) \approx 0.106507$: a score the query was never supposed to see has changed its weights.

## 1.7 `<` instead of `≤`: a row with nothing to read

Suppose the condition $j \le i$ is mistyped as $j < i$, so that a position may no longer read itself:
""")

code("""
strict = np.tril(np.ones((3, 3), dtype=bool), k=-1)      # j < i
print(strict.astype(int))
err = refusal(masked_softmax, S, strict)
print(type(err).__name__, np.flatnonzero(~strict.any(axis=1)))
assert "row (0,)" in str(err)
""")

md(r"""
Row 0 has no readable key, so its softmax has nothing to normalise over: the denominator would be an empty sum. In that case `masked_softmax` raises a `ValueError` whose message names the row (here row 0). The BOS at position 0 does not help: row 0 may not read position 0 at all. What guarantees every query at least one readable key is the diagonal j = i of the condition $j \le i$; BOS only makes reading position 0 harmless.

Why raise an error instead of returning something? Take scores that are not all zero and look at what two naive implementations produce. The first puts $-\infty$ on the forbidden entries; the second puts a large finite negative number there, $-10^9$ in many implementations, $-10^6$ in the `masked_softmax` of *Dive into Deep Learning* (d2l):
""")

code("""
scores = np.random.default_rng(3).normal(size=(3, 3)).round(1)
with np.errstate(invalid="ignore"):
    with_inf = softmax(np.where(strict, scores, -np.inf))
print(with_inf[0])
assert np.isnan(with_inf[0]).all()

for big_negative in (-1e6, -1e9):
    with_big = softmax(np.where(strict, scores, big_negative))
    print(big_negative, np.round(with_big, 6).tolist())
    #en rows 1 and 2 keep a readable key: the same as masked_softmax
    assert np.array_equal(with_big[1:],
                          masked_softmax(scores[1:], strict[1:]))
    #en row 0 is an empty row: it quietly turns uniform
    assert np.allclose(with_big[0], 1/3)

err = refusal(masked_softmax, scores[:1], strict[:1])
print(type(err).__name__)
assert "row (0,)" in str(err)
""")

md(r"""
With $-\infty$, row 0 computes $\exp(-\infty - (-\infty))$, which is NaN, and NaN silently spreads through every later computation. A large finite negative number in place of $-\infty$ is more insidious still. In rows 1 and 2 it does work: those rows still have a readable key, so $\exp(-10^9 - s_{\max})$, where $s_{\max}$ is the row's largest allowed score, underflows to exactly 0 and the weights match those of `masked_softmax` to the last bit. But in row 0, the empty row, every score was replaced by the same constant, and softmax returns the uniform [1/3, 1/3, 1/3]: query 0 reads positions 0, 1 and 2, its future included, without any warning. For the same row, `masked_softmax` refuses and names the row.

Hence the rule of this course: a row with no readable key (an empty row) is an error, and `masked_softmax` raises an exception on it; it never becomes NaN and never quietly turns into a uniform row. No mask of the course's model has an empty row: the condition is $j \le i$, so every query may read its own key. That needs at least as many keys as queries, which is why `causal_allowed` refuses more queries than keys:
""")

code("""
print(type(refusal(causal_allowed, 4, 3)).__name__)
""")

md(r"""
## 1.8 Padded queries are computed but not scored

Back to the batch `["春雨", "雨"]`. In row 1 the input at position 2 is the padding EOS. The forward pass does not treat it specially. The query there is an ordinary one: it reads positions 0–2 and produces an output, which is not forced to zero. To see this, take a small random token embedding table E (positions arrive only in §3), set $X = E[\mathrm{inputs}]$ and use q = k = v = X directly. We leave out the projections $W_Q$, $W_K$, $W_V$ of §0.2, so the only thing that matters in the example is which keys each query may read:
""")

code("""
rng = np.random.default_rng(0)
#en a small random token embedding table
E = rng.normal(size=(len(vocab), 4)).round(2)    # (V, D)
X = E[inputs]                                    # (B, T, D)
#en every query gets an output
Y = causal_attention(X, X, X)                    # (B, T, D)
print(Y.shape, np.round(Y[1, 2], 3))
assert (Y.shape == (2, 3, 4) and np.isfinite(Y).all()
        and np.abs(Y[1, 2]).max() > 0)
""")

md(r"""
The output is there, but it does not enter the loss. The targets decide which positions are scored: a position is scored when its target is not −100.
""")

code("""
scored = targets != IGNORE
print(scored.astype(int))
print(targets[scored], int(scored.sum()))
assert scored.tolist() == [[True, True, True], [True, True, False]]
#en the real end of 雨 is scored
assert scored[1, 1] and targets[1, 1] == EOS
assert int((targets[scored] == EOS).sum()) == 2

#en wrong: EOS treated as padding
eos_dropped = scored & (targets != EOS)
print(int(eos_dropped.sum()))
assert int(scored.sum()) == 5 and int(eos_dropped.sum()) == 3
#en holds for collate's layout, yet only the targets decide
assert ((inputs == EOS) == ~scored).all()
""")

md(r"""
Five positions are scored, and two of their targets are EOS: position 2 of 春雨 and position 1 of 雨. They are the real ends of the texts, and the model has to learn to predict EOS there. Treat EOS as padding and ignore it (say, by dropping the positions where `targets == EOS` from the loss) and only 3 scored positions remain; the model never learns where a text ends.

Because of the way `collate` lays out a batch, the positions whose input is EOS are the positions whose target is −100. Even so, only the targets decide what is scored. The forward pass never masks a position because of the token it holds: to it, an input EOS is an ordinary token id.
""")

md(r"""
Two different things must be kept apart here. The query at a padded position produces an **unscored output**: it has keys to read (at least itself), it computes an output as usual, and only its target, −100, keeps that output out of the loss.

An **empty row** is a query with no key to read at all: its softmax has nothing to normalise over and there is no output to compute, so `masked_softmax` must raise (§1.7). The targets decide the first, the mask decides the second. Confusing them leads to two mistakes. One lets an empty row through as "padding, unscored anyway". The other raises an error on a padded query, or zeroes its output, as if its row were empty.

For every position of the batch, here is the number of keys it may read and whether it is scored:
""")

code("""
keys_readable = np.broadcast_to(allowed.sum(axis=1), scored.shape)  # (B, T)
print(keys_readable)
print(scored.astype(int))
#en the padded query: 3 readable keys, not scored
assert keys_readable[1, 2] == 3 and not scored[1, 2]
#en no empty row in the batch
assert (keys_readable >= 1).all()
""")

md(r"""
There is one more reason why right padding is harmless: real queries cannot read the padding. A model that also allows left padding must let query i read key j only when two conditions both hold: $j \le i$, and key j is a real position (not padding). This course pads on the right only.

Let row b have $T_b$ real positions ($T_b = 2$ for the row of 雨: BOS and 雨). A real query has $i < T_b$ and a padding key has $j \ge T_b > i$, so every padding key already lies in the future of every real query, where the causal condition excludes it. With or without the condition "key j is real", the real queries have the same allowed sets, and the causal mask alone suffices. The two masks differ only in the rows of padded queries, which are not scored. That is why the forward pass of this course takes no padding mask:
""")

code("""
#en real positions of each row: BOS plus the text
lengths = np.array([len(text) + 1 for text in ["春雨", "雨"]])
key_real = np.arange(3)[None, :] < lengths[:, None]            # (B, T)
general = allowed[None] & key_real[:, None, :]                 # (B, T, T)
print(lengths)
print(general[1].astype(int))
for b, length in enumerate(lengths):
    #en the rows of real queries equal the causal mask
    assert (general[b, :length] == allowed[:length]).all()
#en only the padded query's row differs
assert not (general[1, 2] == allowed[2]).all()
#en §1.4: the complement of general raises at row (0, 2), that of general[1]
#en passes
err = refusal(masked_softmax, np.zeros((2, 3, 3)), ~general)
assert "row (0, 2)" in str(err)
assert np.isfinite(masked_softmax(S, ~general[1])).all()
""")

md(r"""
The complement of `general` still raises: the mask of 春雨 (batch row 0) is the plain causal one, whose last query reads every key. But `general[1]`, the mask of 雨, has no such query, so its complement passes without an error (the code above checks both).

The numbers agree: computing 雨 alone, without padding (T = 2), reproduces the first two outputs of its row in the batch:
""")

code("""
#en 雨 without padding, T = 2
alone = E[[BOS, 4]]
Y_alone = causal_attention(alone, alone, alone)
gap = float(np.abs(Y[1, :2] - Y_alone).max())
print("max|Δ| < 1e-12:", gap < 1e-12)
assert gap < 1e-12
""")

md(r"""
The two differ by less than $10^{-12}$, that is, by rounding error at most.
""")

md(r"""
## 1.9 Experiment: change only the last row

A last experiment ties the section together. Take an input X with three positions and width 4 (again q = k = v = X), change only its last row $X[2]$, and see which rows of the output Y change. With the causal mask, rows 0 and 1 cannot read position 2 at all and must stay exactly the same. Without the mask (`unmasked_attention`, the kind of negative control that §4 runs inside the model with `causal=False`) the future leaks into the earlier rows.

Start with one fixed change: replace $X[2]$ by [2, −2, 2, −2] and print, for every row i of the output, its largest absolute change $\max\lvert\Delta Y[i]\rvert$:
""")

code("""
X = np.random.default_rng(1).normal(size=(3, 4)).round(1)
X_new = X.copy()
#en only the last row changes
X_new[2] = [2.0, -2.0, 2.0, -2.0]

change = {}
for name, attend in [("causal", causal_attention),
                     ("unmasked", unmasked_attention)]:
    # (T, D)
    change[name] = np.abs(attend(X_new, X_new, X_new) - attend(X, X, X))
    print(name, np.round(change[name].max(axis=1), 6))
assert change["causal"][:2].max() == 0.0
assert (change["causal"][2].max() > 0
        and change["unmasked"][:2].max(axis=1).min() > 0)
""")

md(r"""
With the mask the largest change in rows 0 and 1 is 0.0 and only row 2 changes; without it all three rows change. Figure 1.3 shows the change of every entry (the columns are the four features):
""")

code("""
top = max(float(m.max()) for m in change.values())
plots.heatmaps(
    [change["causal"], change["unmasked"]],
    ["|ΔY|  causal_attention", "|ΔY|  unmasked_attention"],
    labels=[[[f"{v:.2f}" for v in row] for row in m]
            for m in change.values()],
    cmap="Reds", vmax=top, xlabel="c", lang="{{lang}}",
)
plt.show()
""", alt="Two 3×4 heatmaps, rows i are positions, columns the four features, colour is |ΔY| after changing only X[2]. Left, causal_attention: rows 0 and 1 are all 0.00, only row 2 is coloured. Right, unmasked_attention: all three rows change.")

md(r"""
In the interactive figure below you change the four entries $X[2, 0], \dots, X[2, 3]$ of the last row yourself, in steps of 0.5. For both computations the table lists the largest difference of every output row from the original output, $\max\lvert\Delta Y[i]\rvert$. Drag any slider and compare the two columns. The figure opens with $X[2, 0]$ already moved two steps up, so that it makes its point before you touch anything; with every slider back at its original value (the entries of $X[2]$), every entry of the table is 0.
""")

code("""
from figures.interactive import last_row_experiment

figure = last_row_experiment(X, [causal_attention, unmasked_attention])
#en (settings, 2)
rows_01 = {name: change[:, :2] for name, change in figure.changes.items()}
#en every setting: 0 with the mask; nonzero without it (except X unchanged)
assert (rows_01["causal_attention"] == 0).all()
assert ((rows_01["unmasked_attention"] > 0).sum()
        == 2 * (len(figure.states) - 1))
figure
""")

md(r"""
## 1.10 Going deeper (optional)

The rest of the course does not depend on these three topics (only §5.7 returns to left padding).

### A zero weight is not a forbidden key

In §1.1 the forbidden entries were exactly 0. The converse does not hold: a weight of exactly 0 does not mean that the key was forbidden. In exact arithmetic the exp of a finite score is positive, so every allowed weight is greater than 0. In floating point, however, exp underflows to 0 once a score lies far enough below the row's maximum (by more than about 745 in float64):
""")

code("""
underflow = masked_softmax(np.array([0.0, -800.0]), np.array([True, True]))
print(underflow, np.exp(-745.0) > 0, np.exp(-746.0) == 0)
assert np.exp(-745.0) > 0 and np.exp(-746.0) == 0
#en both keys are allowed, yet the second weight is exactly 0
assert underflow[1] == 0.0 and underflow[0] == 1.0
""")

md(r"""
A zero weight therefore cannot tell which keys were forbidden; only the mask can.

### EOS is not a padding index

§1.8 said that the forward pass takes no padding mask and that an input EOS is an ordinary token id. For the same reason, EOS must not be made a padding index anywhere else: it must be neither the `padding_idx` of PyTorch's `nn.Embedding` nor the `ignore_index` of a loss. EOS is a real token: it is predicted as a target and has its own embedding vector as an input. As `padding_idx`, its embedding would be fixed at zero and never trained; as `ignore_index`, its targets would drop out of the loss. Either way a real token would be lost. Instead, the padding role is split between two things: an ordinary EOS as filler in the inputs, whose query is not scored, and −100 in the targets. The value −100 is not a token id at all, and `decode` refuses it outright:
""")

code("""
print(type(refusal(decode, [IGNORE], vocab)).__name__, IGNORE)
""")

md(r"""
### Why not left padding

Pad 雨 on the left instead, as [EOS, BOS, 雨], and the argument of §1.8 falls apart. The padding now lies to the left of the real positions, which is where the causal mask allows reading:
""")

code("""
#en 雨 padded on the left
left = E[[EOS, BOS, 4]]
Y_left = causal_attention(left, left, left)
#en may the real queries 1 and 2 read key 0?
print(allowed[1:, 0])
gap_left = float(np.abs(Y_left[1:] - Y_alone).max())
print(round(gap_left, 6))
assert allowed[1:, 0].all() and round(gap_left, 2) == 0.33
""")

md(r"""
The real queries 1 and 2 can both read the padding key 0, and their outputs differ from the unpadded ones by about 0.33 (largest absolute difference). Supporting left padding needs two changes. The first is the condition "key j is real" of §1.8. It repairs the real queries, but it leaves the padded query at position 0 with no key it may read: an empty row. In such a system empty rows arise by design; they have to be singled out and handled explicitly, and never scored. As in §1.7, `masked_softmax` refuses the row:
""")

code("""
#en left padding: position 0 is padding
key_real_left = np.array([False, True, True])
allowed_left = allowed & key_real_left[None, :]                 # (T, T)
print(allowed_left.astype(int))
Y_left_real = masked_softmax(attention_scores(left[1:], left),
                             allowed_left[1:]) @ left
gap_repaired = float(np.abs(Y_left_real - Y_alone).max())
print("max|Δ| < 1e-12:", gap_repaired < 1e-12)
assert gap_repaired < 1e-12
err = refusal(masked_softmax, attention_scores(left, left), allowed_left)
print(type(err).__name__, np.flatnonzero(~allowed_left.any(axis=1)))
assert "row (0,)" in str(err)
""")

md(r"""
With this condition the outputs of the real queries differ from the unpadded ones by less than $10^{-12}$, and row 0 has become an empty row. The second change concerns positions: BOS would no longer sit at position 0, so the position vectors of §3, added by position index, would have to be renumbered as well. Left padding therefore changes how masks and positions fit together, and the forward pass of this course does not support it.
""")

md(r"""
## 1.11 Summary

* Fix the allowed set $j \le i$ first, then normalise over it. A score of 0 forbids nothing ($\exp(0) = 1$), and taking the softmax first and zeroing afterwards breaks the row sums and lets the future in through the denominator.
* Position i may read itself: input i is a token already seen, and the answer sits at i + 1. The diagonal j = i gives every query a key to read; with `<` instead of `≤`, row 0 is empty.
* `allowed` is True where a query may read; build it with `causal_allowed` and never pass its complement.
* An empty row is an error, and `masked_softmax` raises on it. Naive implementations let it through: $-\infty$ turns it into NaN, which then spreads to everything computed from it, and a constant such as $-10^9$ quietly turns it into a uniform row that reads the future.
* Padded queries are computed as usual; the targets alone decide what is scored (a target of −100 is not). A padded query produces an unscored output; it is not an empty row. Real EOS targets are scored, and EOS is not a padding index.
* With right padding only, the padding keys lie in the future of every real query, so the causal mask alone suffices (§1.8); left padding would change how masks and positions fit together (§1.10).

The exercises for this section are in `exercises/en/ex01_allowed_set.ipynb`. The next section (§2) splits one head into several.
""")
