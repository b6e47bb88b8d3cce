# Questions for §1 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").
import inspect

import numpy as np

from lib import checks
from lib.attention import causal_allowed, causal_attention, causal_future, masked_softmax, unmasked_attention
from lib.data import BOS, EOS, IGNORE, SPECIAL_TOKENS, build_vocab, collate, encode
from lib.layers import cross_entropy_forward

VOCAB = build_vocab(["春雨风"])
INPUTS, TARGETS = collate(["春雨", "雨"], VOCAB)            # the batch of §1.2
SCORED = TARGETS != IGNORE
FUTURE = causal_future(3, 3)
ALLOWED = ~FUTURE
ZEROS = np.zeros((3, 3))
EVERY_KEY = np.ones((3, 3), dtype=bool)


def softmax(scores):
    """A plain softmax over the last axis (every key read), as §1.5 writes it."""
    with np.errstate(invalid="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


# §1.1
def weight_of_row_2_on_0(value):
    weights = masked_softmax(ZEROS, ALLOWED)
    assert weights[1, 0] == 0.5 and weights[0, 0] == 1.0          # the distractors' whys: rows 1 and 0
    return abs(weights[2, 0] - value) <= 0.001


def zero_weight_proves_forbidden(claim):
    underflow = masked_softmax(np.array([0.0, -800.0]), np.array([True, True]))
    assert np.exp(-745.0) > 0 and np.exp(-746.0) == 0              # "about 745 below the maximum"
    fact = not (underflow[1] == 0.0 and underflow.sum() == 1.0)    # both allowed, yet one weight is 0
    return claim == fact


def output_row_with_equal_scores(claim):
    x = np.arange(6.0).reshape(3, 2)
    y = masked_softmax(ZEROS, ALLOWED) @ x
    facts = {"running mean": np.allclose(y, np.cumsum(x, axis=0) / np.arange(1, 4)[:, None]),
             "mean of all rows": np.allclose(y, x.mean(axis=0)),
             "row i": np.allclose(y, x)}
    return bool(facts[claim])


def forbidden_entries_and_row_sums(claim):
    scores = np.random.default_rng(0).normal(size=(4, 4))
    weights = masked_softmax(scores, ~causal_future(4, 4))
    forbidden = "exactly 0" if (weights[causal_future(4, 4)] == 0).all() else "small"
    sums = "1" if np.allclose(weights.sum(axis=1), 1) else "less than 1"
    return claim == (forbidden, sums)


section("all scores zero",
    number(T("Three positions, all scores 0: what weight does row 2 give position 0? (to three decimal places)"),
           answer=1 / 3, tolerance=0.001, shown="1/3 ≈ 0.333",
           why=T("Row 2 may read three positions with equal scores, so they share the weight equally."),
           wrong=[(0.5, T("1/2 is row 1's weight, since row 1 may read only two positions.")),
                  (1, T("1 is row 0's weight, since row 0 has only one readable key."))],
           witness=weight_of_row_2_on_0),
    choose(T("All scores 0: what is row i of the output `weights @ X`?"),
           right=T("The mean of rows 0 to i of X", claim="running mean"),
           why=T("Row i gives each of its i + 1 readable positions the weight 1/(i + 1)."),
           wrong=[(T("The mean of all rows of X", claim="mean of all rows"),
                   T("That is what a query that may read every key would give; query i may not read the keys after i.")),
                  (T("Row i of X itself", claim="row i"),
                   T("Only row 0, with a single readable key, copies its own row."))],
           witness=output_row_with_equal_scores),
    choose(T("After a correct masked softmax, what are the forbidden entries and the row sums?"),
           right=T("Forbidden entries exactly 0, every row sums to 1", claim=("exactly 0", "1")),
           why=T("The normalisation runs over the allowed set only."),
           wrong=[(T("Forbidden entries small but not 0", claim=("small", "1")),
                   T("A forbidden key's score becomes −∞, so it adds exp(−∞) = 0 to the denominator and gets a weight of exactly 0.")),
                  (T("Forbidden entries 0, but rows sum to less than 1", claim=("exactly 0", "less than 1")),
                   T("That is what softmax first, zeroing afterwards gives (§1.6)."))],
           witness=forbidden_entries_and_row_sums),
)


# §1.2
def padding_is(claim):
    """(side, input filler, target filler) of the row of 雨, one character shorter than 春雨."""
    inputs, targets = INPUTS[1], TARGETS[1]
    side = "right" if targets[-1] == IGNORE and targets[0] != IGNORE else "left"
    filler = "-100" if targets[-1] == IGNORE else VOCAB[targets[-1]]
    assert VOCAB[:3] == SPECIAL_TOKENS == ["<unk>", "<bos>", "<eos>"] and "<pad>" not in VOCAB
    return claim == (side, VOCAB[inputs[-1]], filler)


def scored_positions(n):
    assert int((SCORED & (TARGETS != EOS)).sum()) == 3              # EOS taken for padding
    assert TARGETS.size == 6                                       # B·T
    assert SCORED.sum(axis=1).tolist() == [3, 2]                   # 春雨 3, 雨 2
    return int(SCORED.sum()) == n


def scored_twos(claim):
    assert INPUTS[1, 2] == TARGETS[1, 1] == EOS                     # the two 2s of the row of 雨
    return claim == (bool(SCORED[1, 1]), bool(SCORED[1, 2]))


section("data protocol",
    choose(T("How is a shorter text padded in a batch?"),
           right=T("On the right: inputs with EOS, targets with −100", claim=("right", "<eos>", "-100")),
           why=T("There is no separate PAD token; a padded position is kept out of the loss by its target −100 alone."),
           wrong=[(T("On the left with EOS", claim=("left", "<eos>", "-100")),
                   T("Left padding would put the padding where causal queries may read it (§1.10).")),
                  (T("With a PAD token in both inputs and targets", claim=("right", "<pad>", "<pad>")),
                   T("The vocabulary has no PAD: its first three tokens are `<unk>`, `<bos>` and `<eos>`."))],
           witness=padding_is),
    number(T("How many positions of the batch `[\"春雨\", \"雨\"]` are scored?"),
           answer=5,
           why=T("春雨 has 3 (its two characters and EOS), 雨 has 2 (雨 and EOS): an EOS target is the real end of a text and is scored."),
           wrong=[(3, T("That is what remains when EOS is ignored as padding: the model would never learn where a text ends.")),
                  (6, T("B·T = 6 counts the padded position too; a target of −100 is not scored."))],
           witness=scored_positions),
    choose(T("In the row of 雨, how do the 2 at input position 2 and the 2 at target position 1 differ?"),
           right=T("The target 2 is the real end and must be predicted; the input 2 is only filler", claim=(True, False)),
           why=T("The same token plays two roles; only the targets decide which position is scored."),
           wrong=[(T("Both are padding", claim=(False, False)),
                   T("The EOS at target position 1 is the real end of 雨, and it is scored.")),
                  (T("Both are ends to predict", claim=(True, True)),
                   T("Input position 2 has the target −100, so nothing is predicted there."))],
           witness=scored_twos),
)


# §1.3
def reading_itself(claim):
    if claim == "the answer is at i + 1":
        return all(TARGETS[b, t] == INPUTS[b, t + 1] for b, t in zip(*np.nonzero(SCORED[:, :-1])))
    if claim == "j < i is enough":
        return refusal(masked_softmax, ZEROS, np.tril(EVERY_KEY, k=-1)) is None
    raise AssertionError(claim)


def first_forbidden_key_of_4(key):
    row = causal_future(6, 6)[4]
    return not row[4] and row[key] and not row[:key].any()


def position_0_holds(claim):
    texts = ["春雨", "雨", "风春"]
    inputs, _ = collate(texts, VOCAB)
    facts = {"<bos>": (inputs[:, 0] == BOS).all(),
             "first character": all(inputs[b, 0] == encode(text, VOCAB)[0] for b, text in enumerate(texts)),
             "padding": (inputs[:, 0] == EOS).all()}
    return bool(facts[claim])


section("may read itself",
    choose(T("Why may query i safely read key i, itself?"),
           right=T("Input i is a token already seen; the answer sits at position i + 1", claim="the answer is at i + 1"),
           why=T("Target t is input t + 1, so the first key that must be forbidden is i + 1."),
           wrong=[(T("Because BOS sits at position 0"),
                   T("BOS explains only why reading position 0 is harmless. For every i, reading key i is safe because input i was already seen and the answer sits at i + 1.")),
                  (T("It is not safe; the mask should be j < i", claim="j < i is enough"),
                   T("With j < i row 0 has nothing to read (§1.7), and input i was never the answer."))],
           witness=reading_itself),
    number(T("Query i may read keys 0…i. For i = 4, which key is the first that must be forbidden?"),
           answer=5,
           why=T("Key 5 holds the target of position 4: target i is input i + 1."),
           wrong=[(4, T("Key 4 is the query itself, which may be read."))],
           witness=first_forbidden_key_of_4),
    choose(T("What does position 0 of every row of inputs hold?"),
           right=T("`<bos>`, the same whatever the text", claim="<bos>"),
           why=T("So reading position 0 reveals nothing about the first character: that character is target 0 and enters the inputs only at position 1, which query 0 may not read."),
           wrong=[(T("The first character of the text", claim="first character"),
                   T("The first character is target 0: what position 0 must predict.")),
                  (T("Padding", claim="padding"),
                   T("Padding comes at the end of a row, on the right."))],
           witness=position_0_holds),
)


# §1.4
def allowed_means(meaning):
    allowed = causal_allowed(4, 4)
    weights = causal_attention(np.ones((4, 1)), np.ones((4, 1)), np.eye(4))       # equal scores
    read = weights > 0                                                             # what each query reads
    facts = {"may read": np.array_equal(read, allowed), "forbidden": np.array_equal(read, ~allowed),
             "same position": np.array_equal(allowed, np.eye(4, dtype=bool))}
    return bool(facts[meaning])


def complement_in_place_of_allowed(claim):
    assert ALLOWED[-1].all()                                                        # the last query reads every key
    message = refusal(masked_softmax, ZEROS, ~ALLOWED)
    alone = masked_softmax(ZEROS[:2], ~ALLOWED[:2])                                # rows 0 and 1 on their own
    assert (alone[~ALLOWED[:2]] > 0).all() and (alone[ALLOWED[:2]] == 0).all()     # read only their future
    fact = "raises" if message is not None and "row (2,)" in message else "reads the future"
    return claim == fact


def builds_allowed(name):
    built = {"causal_allowed": lambda: causal_allowed(2, 5),
             "masked_softmax": lambda: masked_softmax(np.zeros((2, 5)), causal_allowed(2, 5)),
             "np.tril": lambda: np.tril(np.ones((2, 5), dtype=bool))}[name]()
    position = np.arange(5)[None, :] <= np.arange(3, 5)[:, None]                  # key at or before query, bottom-right
    return built.dtype == bool and np.array_equal(built, position)


section("one boolean array",
    choose(T("What does `allowed[i, j] == True` mean?"),
           right=T("Query i may read key j", claim="may read"),
           why=T("`masked_softmax` normalises each row over its True entries; a False entry gets the weight 0."),
           wrong=[(T("Key j lies in the future of query i", claim="forbidden"),
                   T("That is where `allowed` is False.")),
                  (T("Query i and key j are the same position", claim="same position"),
                   T("Every key at or before the query is allowed, not only its own."))],
           witness=allowed_means),
    choose(T("The complement `~allowed` of a 3 × 3 causal mask is passed to `masked_softmax` by mistake. What happens?"),
           right=T("It raises an error: the last row of the complement is all False, so it is an empty row", claim="raises"),
           why=T("The error comes from the empty row, not from a check of the mask: the last query of a causal mask may read every key, so its row of the complement is empty. A mistake that left no empty row would pass unnoticed. Pass the mask as `causal_allowed` builds it."),
           wrong=[(T("Every query quietly reads its future", claim="reads the future"),
                   T("Rows 0 and 1 would, but the empty last row stops the whole call.")),
                  (T("Nothing changes"),
                   T("The complement turns the allowed set inside out."))],
           witness=complement_in_place_of_allowed),
    choose(T("Which function builds `allowed` for 2 new queries after 3 stored keys?"),
           right=T("`causal_allowed(tq, tk)`", claim="causal_allowed"),
           why=T("It aligns the queries bottom-right, as a cache needs (§5.1); `masked_softmax(scores, allowed)` takes it."),
           wrong=[(T("`masked_softmax(scores, allowed)`", claim="masked_softmax"),
                   T("It uses a mask; it does not build one.")),
                  (T("`np.tril(np.ones((tq, tk)))`", claim="np.tril"),
                   T("That is a triangle of allowed cells aligned to the top-left corner, wrong when tq < tk (§5.1)."))],
           witness=builds_allowed),
)


# §1.5
def future_weight_of_query_0(value):
    zeroed = masked_softmax(np.where(ALLOWED, ZEROS, 0.0), EVERY_KEY)
    return abs(zeroed[0, 1:].sum() - value) <= 0.001


S = np.random.default_rng(3).normal(size=(3, 3)).round(1)


def additive_mask_adds(claim):
    with np.errstate(invalid="ignore"):
        masked = {"-inf": softmax(S + np.where(ALLOWED, 0.0, -np.inf)),
                  "0": softmax(S + np.where(ALLOWED, 0.0, 0.0)),
                  "times 0": softmax(S * ALLOWED)}[claim]
    return np.allclose(masked, masked_softmax(S, ALLOWED), rtol=0, atol=1e-12)


def zeroed_scores_problem(claim):
    zeroed = masked_softmax(np.where(ALLOWED, ZEROS, 0.0), EVERY_KEY)
    facts = {"in the denominator": (zeroed[FUTURE] > 0).all() and np.allclose(zeroed.sum(axis=1), 1),
             "nothing": np.allclose(zeroed, masked_softmax(ZEROS, ALLOWED)),
             "NaN": np.isnan(zeroed).any()}
    return bool(facts[claim])


section("score of 0 forbids nothing",
    number(T("With forbidden scores set to 0 (the all-zero example), how much weight does query 0 give its future in total? (to three decimal places)"),
           answer=2 / 3, tolerance=0.001, shown="2/3 ≈ 0.667",
           why=T("Every row becomes [1/3, 1/3, 1/3]; query 0's two future keys get 1/3 each."),
           wrong=[(0, T("A score of 0 forbids nothing: exp(0) = 1."))],
           witness=future_weight_of_query_0),
    choose(T("To really forbid a key, what does an additive mask add to its score?"),
           right=T("−∞, since exp(−∞) is exactly 0 whatever the rest of the row holds", claim="-inf"),
           why=T("Forbidding a key means giving it no share of the normalisation: its term adds exactly exp(−∞) = 0 to the denominator."),
           wrong=[(T("0", claim="0"), T("Adding 0 changes nothing: the key keeps its full share of the weight.")),
                  (T("Nothing: the score is multiplied by 0 instead", claim="times 0"),
                   T("`scores * allowed` sets the score to 0, and a score of 0 forbids nothing."))],
           witness=additive_mask_adds),
    choose(T("What is wrong with a softmax after `np.where(allowed, scores, 0)`?"),
           right=T("Forbidden keys still enter the denominator, each adding exp(0) = 1", claim="in the denominator"),
           why=T("A forbidden key gets exactly what an allowed key with score 0 gets."),
           wrong=[(T("Nothing, this is masking", claim="nothing"),
                   T("It forbids nothing. In the all-zero example the forbidden scores are 0 already, so every row stays [1/3, 1/3, 1/3], exactly as with no mask.")),
                  (T("It produces NaN", claim="NaN"),
                   T("All the scores are finite, so there is no NaN, only wrong weights."))],
           witness=zeroed_scores_problem),
)


# §1.6
def wrong_order_row_0_sums_to(claim):
    sums = (masked_softmax(ZEROS, EVERY_KEY) * ALLOWED).sum(axis=1)
    assert np.allclose(sums, [1 / 3, 2 / 3, 1])                  # rows 1 and 2: the distractors' whys
    return abs(sums[0] - claim) < 1e-12


S_CHANGED = ZEROS.copy()
S_CHANGED[0, 2] = 2.0                                            # query 0 against its future key 2


def wrong_order_self_weight(value):
    assert np.array_equal(masked_softmax(S_CHANGED, ALLOWED)[0], [1, 0, 0])      # the right order
    wrong = (masked_softmax(S_CHANGED, EVERY_KEY) * ALLOWED)[0, 0]
    assert abs(wrong - 1 / (2 + np.exp(2.0))) < 1e-12
    return abs(wrong - value) <= 0.0006


def renormalised(claim):
    wrong = masked_softmax(S_CHANGED, EVERY_KEY) * ALLOWED
    again = wrong / wrong.sum(axis=1, keepdims=True)
    facts = {"the correct weights": np.allclose(again, masked_softmax(S_CHANGED, ALLOWED), rtol=0, atol=1e-15),
             "the future leaks": not np.allclose(again, masked_softmax(S_CHANGED, ALLOWED)),
             "less than 1": (again.sum(axis=1) < 1 - 1e-12).any()}
    return bool(facts[claim])


section("wrong order",
    choose(T("Softmax first, then zero the future weights: what does row 0 sum to (all-zero scores)?"),
           right=T("1/3", claim=1 / 3),
           why=T("The softmax gives [1/3, 1/3, 1/3] first; zeroing leaves [1/3, 0, 0]."),
           wrong=[(T("1", claim=1), T("Only row 2, which has no future, still sums to 1.")),
                  (T("2/3", claim=2 / 3), T("2/3 is what row 1 sums to: it keeps 1/3 for each of its two allowed keys."))],
           witness=wrong_order_row_0_sums_to),
    number(T("Change the score between query 0 and its future key 2 from 0 to 2. In the wrong order, what weight does query 0 give itself? (to three decimal places)"),
           answer=1 / (2 + np.exp(2.0)), tolerance=0.0006, shown=f"1/(2 + e²) ≈ {1 / (2 + np.exp(2.0)):.3f}",
           why=T("The denominator holds the exponential of the future key's score: the future leaks in through it. The correct weights stay [1, 0, 0]."),
           wrong=[(1, T("1 is what the correct order gives; the wrong order's denominator also holds e².")),
                  (0.333, T("That is the value before the change; the future score moved it."))],
           witness=wrong_order_self_weight),
    choose(T("In the wrong order, what do you get if you renormalise each row after zeroing?"),
           right=T("The correct weights: it is just another way to normalise over the allowed set", claim="the correct weights"),
           why=T("Dividing by the row sum cancels the common denominator, future scores and all."),
           wrong=[(T("The future still leaks through the denominator", claim="the future leaks"),
                   T("The old denominator is a common factor of the row, and renormalising removes it.")),
                  (T("Rows still sum to less than 1", claim="less than 1"),
                   T("Renormalising is exactly what makes each row sum to 1."))],
           witness=renormalised),
)


# §1.7
STRICT = np.tril(EVERY_KEY, k=-1)                                   # j < i


def rows_with_nothing_to_read(rows):
    message = refusal(masked_softmax, ZEROS, STRICT)
    assert message is not None and "row (0,)" in message
    return {int(i) for i in np.flatnonzero(~STRICT.any(axis=1))} == rows


def empty_row_with_big_negative(claim):
    with np.errstate(invalid="ignore"):
        assert np.isnan(softmax(np.where(STRICT, S, -np.inf))[0]).all()       # what −∞ gives
        row = softmax(np.where(STRICT, S, -1e9))[0]
    fact = "uniform" if np.allclose(row, 1 / 3) else "NaN" if np.isnan(row).any() else "other"
    return claim == fact


def empty_row_treated(claim):
    message = refusal(masked_softmax, S, STRICT)
    return claim == ("raises, naming the row" if message is not None and "row (0,)" in message else "returns")


section("nothing to read",
    choose(T("With j < i instead of j ≤ i, which row has no key to read?"),
           right=T("Row 0", claim={0}),
           why=T("Without the diagonal, row 0 may read nothing, whatever token stands at position 0."),
           wrong=[(T("The last row", claim={2}),
                   T("The last row can still read every earlier key.")),
                  (T("None, since BOS stands at position 0", claim=set()),
                   T("Row 0 may not read position 0 at all; BOS cannot help."))],
           witness=rows_with_nothing_to_read),
    choose(T("With −10⁹ instead of −∞ on forbidden entries, what does an empty row get?"),
           right=T("A uniform row that quietly reads the future too", claim="uniform"),
           why=T("Every score of the row is the same constant, so the softmax shares the weight equally."),
           wrong=[(T("NaN", claim="NaN"), T("NaN is what −∞ gives: exp(−∞ − (−∞)).")),
                  (T("A ValueError"),
                   T("`masked_softmax` raises; an implementation with a finite constant does not."))],
           witness=empty_row_with_big_negative),
    choose(T("How does the course treat an empty row?"),
           right=T("It raises an error that names the row", claim="raises, naming the row"),
           why=T("An empty row has nothing to normalise over and no output to compute."),
           wrong=[(T("It returns a row of zeros", claim="returns"),
                   T("A row of zeros is not a distribution, and it hides the mistake.")),
                  (T("It returns a uniform row", claim="returns"),
                   T("A uniform row reads forbidden keys."))],
           witness=empty_row_treated),
)


# §1.8
E8 = np.random.default_rng(0).normal(size=(len(VOCAB), 4)).round(2)      # the table of §1.8
X8 = E8[INPUTS]


def padded_query(claim):
    out = causal_attention(X8, X8, X8)[1, 2]                      # the padded query of 雨
    computed = "computed" if np.isfinite(out).all() and np.abs(out).max() > 0 else "zero"
    return claim == (computed, "scored" if SCORED[1, 2] else "unscored")


def eos_as_padding_index(claim):
    eos_scored = int((TARGETS[SCORED] == EOS).sum())
    dropped = int((SCORED & (TARGETS != EOS)).sum())
    facts = {"a real token": eos_scored == 2 and dropped == 3,         # the two real ends of §1.8
             "nothing changes": dropped == int(SCORED.sum())}
    return bool(facts[claim])


def right_padding_is_harmless_because(claim):
    length = 2                                                        # 雨: BOS and 雨
    alone = E8[[BOS, 4]]
    y = causal_attention(X8, X8, X8)
    assert np.abs(y[1, :2] - causal_attention(alone, alone, alone)).max() < 1e-12
    facts = {"padding lies in the future": FUTURE[:length, length:].all(),
             "padded inputs are 0": INPUTS[1, 2] == 0,
             "a padding mask": "mask" in " ".join(inspect.signature(causal_attention).parameters)}
    return bool(facts[claim])


section("padded queries",
    choose(T("What happens to the query at a padded position?"),
           right=T("It computes an output as usual; its target −100 keeps it out of the loss", claim=("computed", "unscored")),
           why=T("The forward pass gets no padding mask; an input EOS is an ordinary token to it."),
           wrong=[(T("Its output is forced to 0", claim=("zero", "unscored")),
                   T("The output is there; it is only not scored.")),
                  (T("It is an empty row and raises"),
                   T("It may read at least itself: its output is unscored, but its row is not empty."))],
           witness=padded_query),
    choose(T("Why must EOS not be treated as padding, with its target positions dropped from the loss?"),
           right=T("EOS is a real token: at the end of a text it is a target the model must learn to predict", claim="a real token"),
           why=T("The padding role is split: an ordinary EOS as filler in the inputs, −100 in the targets."),
           wrong=[(T("Because EOS has the id 2"),
                   T("Its id does not matter; its role does.")),
                  (T("It may be; nothing changes", claim="nothing changes"),
                   T("Then only 3 of the 5 scored positions would remain, and the model could not learn where a text ends."))],
           witness=eos_as_padding_index),
    choose(T("Why is right padding harmless?"),
           right=T("A padding key comes after every real position, so a real query may not read it anyway", claim="padding lies in the future"),
           why=T("The causal mask already excludes it: 雨 computed alone gives the same two outputs, up to rounding."),
           wrong=[(T("Because padded inputs are 0", claim="padded inputs are 0"),
                   T("A padded input is an ordinary EOS, not 0.")),
                  (T("Because a separate padding mask hides it", claim="a padding mask"),
                   T("The forward pass of this course takes no padding mask."))],
           witness=right_padding_is_harmless_because),
)


# §1.9
X19 = np.random.default_rng(1).normal(size=(3, 4)).round(1)


def rows_changed(attend):
    x = X19.copy()
    x[2] = [2.0, -2.0, 2.0, -2.0]
    change = np.abs(attend(x, x, x) - attend(X19, X19, X19)).max(axis=1)
    return {int(i) for i in np.flatnonzero(change > 0)}


def rows_changed_without_mask(rows):
    return rows_changed(unmasked_attention) == rows


def role_of_unmasked(claim):
    facts = {"sees a leak": {0, 1} <= rows_changed(unmasked_attention),
             "the right answer": rows_changed(unmasked_attention) == rows_changed(causal_attention)}
    return bool(facts[claim])


EXPERIMENT = [lambda s: s.update(y=causal_attention(s["x"], s["x"], s["x"])),
              lambda s: s.update(x=np.vstack([s["x"][:2], [[2.0, -2.0, 2.0, -2.0]]]), changed=True),
              lambda s: s["changed"] and s.update(y_new=causal_attention(s["x"], s["x"], s["x"])),
              lambda s: s.update(rows=np.abs(s["y_new"] - s["y"]).max(axis=1))]


def experiment_in_order(order):
    rows = in_order(EXPERIMENT, order, {"x": X19.copy()})["rows"]
    return rows[0] == rows[1] == 0.0 and rows[2] > 0


section("last row",
    choose(T("Without the mask (`unmasked_attention`), which output rows change when only X[2] changes?"),
           right=T("Every row", claim={0, 1, 2}),
           why=T("Every query reads position 2, so the future leaks into rows 0 and 1."),
           wrong=[(T("Only row 2", claim={2}),
                   T("That is the result with the causal mask.")),
                  (T("Rows 0 and 1 only", claim={0, 1}),
                   T("Row 2 reads its own changed input as well."))],
           witness=rows_changed_without_mask),
    choose(T("What role does `unmasked_attention` play in the experiment?"),
           right=T("The negative control: it shows the experiment can see a leak", claim="sees a leak"),
           why=T("If nothing changed without the mask either, the 0.0 with the mask would prove nothing (§4)."),
           wrong=[(T("A faster implementation"),
                   T("It has nothing to do with speed.")),
                  (T("The reference for the right answer", claim="the right answer"),
                   T("It reads the future on purpose: it is the counter-example."))],
           witness=role_of_unmasked),
    order(T("Put the experiment's steps in order."),
          steps=[T("Compute the output Y from X (q = k = v = X)"),
                 T("Change only the last row X[2]"),
                 T("Compute the output again"),
                 T("Compare max|ΔY[i]| row by row")],
          why=T("With the mask, rows 0 and 1 change by exactly 0."),
          witness=experiment_in_order),
)


# §1.10
LEFT = E8[[EOS, BOS, 4]]                                            # 雨 padded on the left
ALONE = E8[[BOS, 4]]


def left_padding_problem(claim):
    gap = np.abs(causal_attention(LEFT, LEFT, LEFT)[1:] - causal_attention(ALONE, ALONE, ALONE)).max()
    assert round(float(gap), 2) == 0.33                             # "by about 0.33"
    facts = {"reads the padding": ALLOWED[1:, 0].all() and gap > 0.1, "nothing": gap == 0,
             "reads the future": FUTURE[1:, 0].any()}
    return bool(facts[claim])


def padded_query_with_key_real(claim):
    allowed_left = ALLOWED & np.array([False, True, True])[None, :]
    message = refusal(masked_softmax, ZEROS, allowed_left)
    fact = "an empty row" if message is not None and "row (0,)" in message else "a query that reads"
    return claim == fact


def left_padding_also_changes(claim):
    model = checks.chapter_model()
    shifted = not np.allclose(model.embed(np.array([EOS, BOS, 4]))[1:], model.embed(np.array([BOS, 4])))
    logits = np.random.default_rng(2).normal(size=(3, len(VOCAB)))
    right = cross_entropy_forward(logits, np.array([4, EOS, IGNORE]))[0]
    left = cross_entropy_forward(logits[[2, 0, 1]], np.array([IGNORE, 4, EOS]))[0]
    facts = {"positions": shifted, "the loss": abs(right - left) > 1e-12,
             "the vocabulary": build_vocab(["雨"]) != build_vocab(["雨"])}
    return bool(facts[claim])


section("Going deeper",
    choose(T("A weight is exactly 0. Does that prove the key was forbidden?"),
           right=T("No: in floating point exp can underflow to 0", claim=False),
           why=T("An allowed weight becomes 0 once its score lies about 745 below the row's maximum (float64); only the mask tells what was forbidden."),
           wrong=[(T("Yes: allowed weights are always positive", claim=True),
                   T("That holds only in exact arithmetic.")),
                  (T("Yes, as long as the row sums to 1", claim=True),
                   T("A row sum of 1 says nothing about which weight was forbidden."))],
           witness=zero_weight_proves_forbidden),
    choose(T("What goes wrong with left padding [EOS, BOS, 雨]?"),
           right=T("Real queries can read the padding key on their left", claim="reads the padding"),
           why=T("The padding lies left of the real positions, exactly where the causal mask allows reading."),
           wrong=[(T("Nothing", claim="nothing"),
                   T("The real outputs differ from the unpadded ones by about 0.33.")),
                  (T("The future leaks in", claim="reads the future"),
                   T("What is read is padding in the past, not the future."))],
           witness=left_padding_problem),
    choose(T("With the condition “key j is real” added, what becomes of the padded query at position 0?"),
           right=T("An empty row", claim="an empty row"),
           why=T("It may read no key, so a system with left padding produces empty rows by design."),
           wrong=[(T("A query with an unscored output", claim="a query that reads"),
                   T("A query whose output is unscored reads at least itself; this query may not even do that.")),
                  (T("An ordinary query", claim="a query that reads"),
                   T("Its allowed set is empty."))],
           witness=padded_query_with_key_real),
    choose(T("Besides the mask, what else would left padding have to change?"),
           right=T("The position numbering: BOS would no longer stand at position 0", claim="positions"),
           why=T("The position vectors of §3 are added by position index, so every real token would get a different one."),
           wrong=[(T("The vocabulary", claim="the vocabulary"),
                   T("The vocabulary does not depend on where the padding goes.")),
                  (T("The loss", claim="the loss"),
                   T("Targets of −100 are skipped the same way on either side."))],
           witness=left_padding_also_changes),
)
