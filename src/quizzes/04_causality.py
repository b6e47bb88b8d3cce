# Questions for §4 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").
import inspect
import itertools

import numpy as np

from lib import checks
from lib.attention import (attention_scores, causal_attention, causal_future, masked_softmax, merge_heads,
                           split_heads)
from lib.data import BOS, EOS, UNK, build_vocab
from lib.model import AttentionModel

VOCAB = build_vocab(["春雨风"])
MODEL = checks.chapter_model()
IDS, PERTURBED = np.array([BOS, 3, 4]), np.array([BOS, 3, UNK])        # <bos> 春 雨 and <bos> 春 <unk>


def control(ids):
    return MODEL.forward(ids, causal=False)


CONTROL_CHANGE = checks.future_change(control, IDS, PERTURBED, 2)


# §4.1
def unk_is_large_so_that(claim):
    ordinary = checks.future_change(control, IDS, np.array([BOS, 3, 5]), 2)        # 雨 -> 风
    facts = {"a leak cannot be missed": CONTROL_CHANGE > 10 * ordinary,
             "the masked prefix changes a lot": checks.future_change(MODEL.forward, IDS, PERTURBED, 2) > 1}
    return bool(facts[claim])


def bos_and_wind_identical(claim):
    degenerate = checks.check_causality(MODEL.forward, control, np.array([BOS, 3, BOS]), np.array([BOS, 3, 5]), 2)
    facts = {"no change at all": degenerate.change == degenerate.control_change == 0.0 and not degenerate.passed,
             "a smaller table": len(MODEL.token_table) < len(VOCAB)}
    return bool(facts[claim])


def chapter_model_is(claim):
    again = checks.chapter_model()
    same = all(np.array_equal(a, b) for a, b in ((MODEL.token_table, again.token_table),
                                                  (MODEL.position_table, again.position_table), (MODEL.w_o, again.w_o)))
    facts = {"the hand-chosen model": isinstance(MODEL, AttentionModel) and same
             and np.array_equal(MODEL.w_q, np.eye(4)) and MODEL.token_table[UNK].tolist() == [40, -30, 20, -10],
             "random": not same}
    return bool(facts[claim])


section("hand-chosen parameters",
    choose(T("Why is the embedding of `<unk>` deliberately large in this section's model?"),
           right=T("So that if it ever leaks in from the future, the effect cannot be missed", claim="a leak cannot be missed"),
           why=T("The perturbation test puts it at future positions: with the mask off, the prefix changes by about 39.77."),
           wrong=[(T("To make the masked model's prefix change large", claim="the masked prefix changes a lot"),
                   T("The masked model's prefix does not change at all; only a leak would show the large row.")),
                  (T("Because unknown characters matter more"),
                   T("Its size only makes a leak visible to the test."))],
           witness=unk_is_large_so_that),
    choose(T("`<bos>` and 风 have identical embeddings. Why?"),
           right=T("A deliberate trap: a different token id can leave the input vectors unchanged (§4.5)", claim="no change at all"),
           why=T("Without a negative control such a test passes vacuously."),
           wrong=[(T("To save parameters", claim="a smaller table"),
                   T("The table has one row per token either way.")),
                  (T("It is a mistake"),
                   T("It is deliberate, to show a false pass."))],
           witness=bos_and_wind_identical),
    choose(T("What does `lib.checks.chapter_model()` return?"),
           right=T("An `AttentionModel` built from the section's hand-chosen numbers", claim="the hand-chosen model"),
           why=T("§5 and §6 keep using it."),
           wrong=[(T("A trained model"),
                   T("Nothing here was trained.")),
                  (T("A random model", claim="random"),
                   T("Random models come from `random_model` (§4.9); this one is the same at every call."))],
           witness=chapter_model_is),
)


# §4.2
def _embed(s):
    s["x"] = MODEL.token_table[s["ids"]] + MODEL.position_table[:len(s["ids"])]


STRUCTURE = [_embed,
             lambda s: s.update(q=s["x"] @ MODEL.w_q, k=s["x"] @ MODEL.w_k, v=s["x"] @ MODEL.w_v),
             lambda s: s.update(heads=[split_heads(s[n][None], MODEL.n_heads) for n in "qkv"]),
             lambda s: s.update(out=causal_attention(*s["heads"])),
             lambda s: s.update(y=merge_heads(s["out"])[0] @ MODEL.w_o)]


def computation_in_order(order):
    ids = np.array([BOS, 3, 4, 5])
    return np.allclose(in_order(STRUCTURE, order, {"ids": ids})["y"], MODEL.forward(ids), rtol=0, atol=1e-12)


def breaks_causality(layer):
    w_1, w_2 = np.random.default_rng(0).normal(size=(2, 4, 4))
    layers = {"a normalisation over time": checks.leaky_time_normalization,
              "a position-wise MLP": lambda x: np.maximum(x @ w_1, 0) @ w_2,
              "a residual connection": lambda x: x + checks.feature_normalization(x)}
    ids8, other8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4]), np.array([BOS, 3, 4, 5, 5, 3, 4, EOS])
    return checks.future_change(lambda t: checks.forward_with(MODEL, t, before=layers[layer]), ids8, other8, 4) > 0


section("structural argument",
    order(T("Put the steps in the order of the computation."),
          steps=[T("Input E[x_i] + P[i]"),
                 T("Query, key and value projections"),
                 T("Split the heads"),
                 T("Causal attention"),
                 T("Merge the heads, multiply by W_O")],
          why=T("Only attention crosses time, and it reads only j ≤ i."),
          witness=computation_in_order),
    choose(T("What does the structural argument guarantee?"),
           right=T("That the design is causal for every input, but not that the code follows the design"),
           why=T("A transposed mask or a wrong `axis` makes the code depart from the design."),
           wrong=[(T("That the code has no bugs"),
                   T("It is about the architecture; bugs in code need the perturbation test.")),
                  (T("Causality for the inputs tried only"),
                   T("That is the limit of the perturbation test; the argument covers every input."))],
           unwitnessed="what a kind of evidence guarantees is a statement about reasoning, not a computation"),
    choose(T("Which of these layers would break causality?"),
           right=T("A normalisation whose statistics are taken over the time axis", claim="a normalisation over time"),
           why=T("Row i then depends on every position, the future included (§4.7)."),
           wrong=[(T("A position-wise MLP", claim="a position-wise MLP"),
                   T("It uses row i alone.")),
                  (T("A residual connection: row i of a sublayer's input added to row i of its output", claim="a residual connection"),
                   T("The addition reads row i only. A sublayer that reads future rows breaks causality by itself, with or without the residual."))],
           witness=breaks_causality),
)


# §4.3
PERTURBATION = [lambda s: s.update(prefix=2),
                lambda s: s.update(other=np.concatenate([s["ids"][:s["prefix"]], [UNK] * (len(s["ids"]) - s["prefix"])])),
                lambda s: s.update(outs=(MODEL.forward(s["ids"]), MODEL.forward(s["other"]))),
                lambda s: s.update(change=float(np.abs(s["outs"][0] - s["outs"][1])[:s["prefix"]].max()))]


def perturbation_test_in_order(order):
    change = in_order(PERTURBATION, order, {"ids": IDS})["change"]
    return change == checks.future_change(MODEL.forward, IDS, PERTURBED, 2) == 0.0


def masked_prefix_change(value):
    return checks.future_change(MODEL.forward, IDS, PERTURBED, 2) == value


def input_rows_that_change(rows):
    changes = checks.row_changes(MODEL.embed, IDS, PERTURBED)
    return {int(i) for i in np.flatnonzero(changes > 0)} == rows


section("future-perturbation test",
    order(T("Put the steps of the future-perturbation test in order."),
          steps=[T("Fix the length and the prefix"),
                 T("Replace every position after the prefix by clearly different tokens"),
                 T("Run the forward pass on both inputs"),
                 T("Compare the outputs at all prefix positions")],
          why=T("A correct implementation leaves the outputs of the prefix unchanged, up to the tolerance."),
          witness=perturbation_test_in_order),
    number(T("`<bos> 春 雨` against `<bos> 春 <unk>`: what is the largest change in the first two output rows of the masked model?"),
           answer=0,
           why=T("Exactly 0.0: the prefix cannot read position 2."),
           wrong=[(round(CONTROL_CHANGE, 2), T("That is the change of the negative control, with the mask off."))],
           witness=masked_prefix_change),
    choose(T("For `<bos> 春 雨` against `<bos> 春 <unk>`, which rows of the input X change?"),
           right=T("Only row 2", claim={2}),
           why=T("X_i = E[x_i] + P[i] depends only on the token at position i."),
           wrong=[(T("Every row", claim={0, 1, 2}), T("The input is built position by position.")),
                  (T("Row 0", claim={0}), T("The token at position 0 did not change."))],
           witness=input_rows_that_change),
)


# §4.4
def control_prefix_change(value):
    return abs(CONTROL_CHANGE - value) <= 0.06


def control_reports_zero(claim):
    degenerate = checks.check_causality(MODEL.forward, control, np.array([BOS, 3, BOS]), np.array([BOS, 3, 5]), 2)
    assert degenerate.control_change == 0.0
    # the key's "its 0 says nothing about the model": on this pair a model that leaks shows 0 as well
    leaking = checks.check_causality(control, control, np.array([BOS, 3, BOS]), np.array([BOS, 3, 5]), 2)
    assert leaking.change == 0.0 and not leaking.passed
    verdict = "the test is void" if not degenerate.control_saw_change and not degenerate.passed else "passes"
    return claim == verdict


def passes_when(rule):
    cases = [(MODEL.forward, control), (MODEL.forward, MODEL.forward), (control, control), (control, MODEL.forward)]
    rules = {"both": lambda r: r.change <= r.tolerance < r.control_change,
             "the implementation only": lambda r: r.change <= r.tolerance,
             "a control change of 0": lambda r: r.control_change == 0}
    results = [checks.check_causality(f, c, IDS, PERTURBED, 2) for f, c in cases]
    return all(rules[rule](r) == r.passed for r in results)


section("negative control",
    number(T("With the mask off (`causal=False`), what is the largest change in the first two output rows that the same test sees? (to one decimal place)"),
           answer=39.77, tolerance=0.06, shown="≈ 39.8",
           why=T("The negative control must see a change: that shows the test can see a leak. §6.2 recomputes the number in plain Python."),
           wrong=[(0, T("That is the masked model; the control reads the future, and that is the point."))],
           witness=control_prefix_change),
    choose(T("If the negative control also reports a change of 0, what does that mean?"),
           right=T("The test is void: its 0 says nothing about the model", claim="the test is void"),
           why=T("The control is a version known to leak; if the test cannot see its leak, it can see none."),
           wrong=[(T("The model is causal", claim="passes"),
                   T("That does not follow: a test that cannot see even the control's leak says nothing with its 0.")),
                  (T("The control is causal too, so all is well", claim="passes"),
                   T("A model with the mask off reads the future."))],
           witness=control_reports_zero),
    choose(T("When does `check_causality` pass?"),
           right=T("When the implementation's change is within the tolerance and the control's is above it", claim="both"),
           why=T("The implementation's change shows there is no leak; the control's shows that the test could have seen one."),
           wrong=[(T("When the implementation's change is within the tolerance", claim="the implementation only"),
                   T("Without the control the test may check nothing.")),
                  (T("When the control's change is 0", claim="a control change of 0"),
                   T("A control change of 0 means the test is void."))],
           witness=passes_when),
)


# §4.5
def degenerate_because(claim):
    a, b = np.array([BOS, 3, BOS]), np.array([BOS, 3, 5])
    facts = {"the same input vectors": np.array_equal(MODEL.embed(a), MODEL.embed(b)) and a[2] != b[2],
             "a special token": VOCAB[b[2]].startswith("<"),
             "another position": not np.array_equal(MODEL.embed(a)[2] - MODEL.token_table[a[2]],
                                                    MODEL.embed(b)[2] - MODEL.token_table[b[2]])}
    return bool(facts[claim])


def allclose_of_empty(claim):
    assert refusal(checks.future_change, control, IDS, PERTURBED, 0) is not None      # future_change refuses p = 0
    try:
        fact = bool(np.allclose(control(IDS)[:0], control(PERTURBED)[:0]))
    except Exception:
        fact = "an error"
    return claim == fact


def constant_output_caught_by(claim):
    def buggy(ids, causal=True):
        return np.zeros_like(MODEL.forward(ids, causal=causal))
    result = checks.check_causality(buggy, lambda t: buggy(t, causal=False), IDS, PERTURBED, 2)
    facts = {"the control shows 0 too": result.control_change == 0.0 and not result.passed,
             "a leak is reported": result.change > result.tolerance,
             "it is not caught": result.passed}
    return bool(facts[claim])


section("pass vacuously",
    choose(T("Why does replacing a `<bos>` at the last position by 风 give a degenerate input?"),
           right=T("The token changes, but both embedding rows are identical: the model sees no change", claim="the same input vectors"),
           why=T("The control shows 0 too, so `check_causality` fails it: the test is void."),
           wrong=[(T("Because 风 is a special token", claim="a special token"),
                   T("风 is an ordinary character.")),
                  (T("Because the position changes", claim="another position"),
                   T("The position stays the same, and so does the embedding."))],
           witness=degenerate_because),
    choose(T("With the prefix length miscomputed as 0, what does `np.allclose` return for two empty arrays?"),
           right=T("True, even for a model that leaks", claim=True),
           why=T("That is why `future_change` requires 1 ≤ p < T."),
           wrong=[(T("False", claim=False), T("Empty arrays have no entries that differ, so the result is True.")),
                  (T("An error", claim="an error"), T("`np.allclose` raises nothing; `future_change` does."))],
           witness=allclose_of_empty),
    choose(T("A forward function computes everything, then returns a fresh buffer of zeros. How is it caught?"),
           right=T("Its negative control, the same code with the mask off, also shows 0, so `check_causality` fails it", claim="the control shows 0 too"),
           why=T("A constant output cannot change, with the mask or without it; only the negative control reveals that the test is blind."),
           wrong=[(T("The perturbation test reports a leak", claim="a leak is reported"),
                   T("The output is constant, so the test sees no change.")),
                  (T("It cannot be caught", claim="it is not caught"),
                   T("The control catches it."))],
           witness=constant_output_caught_by),
)


# §4.6: replace only the value vector of position 2, in both heads, as the section does
X = MODEL.embed(IDS)[None]
Q, K, V = (split_heads(X @ w, MODEL.n_heads) for w in (MODEL.w_q, MODEL.w_k, MODEL.w_v))
WEIGHTS = masked_softmax(attention_scores(Q, K), ~causal_future(3, 3))
EVERY = masked_softmax(attention_scores(Q, K), np.ones((3, 3), dtype=bool))


def _with_value(new):
    v = V.copy()
    v[:, :, 2] = new
    return v


def _prefix_change(weights, v_new):
    with np.errstate(invalid="ignore"):
        return float(np.abs((weights @ v_new)[:, :, :2] - (weights @ V)[:, :, :2]).max())


def nan_seems_to_leak_because(claim):
    v_nan = _with_value(np.nan)
    facts = {"0 * NaN = NaN": (WEIGHTS[0, :, :2, 2] == 0).all() and np.isnan((WEIGHTS @ v_nan)[:, :, :2]).all(),
             "the mask misses NaN": (WEIGHTS[0, :, :2, 2] != 0).any(),
             "a real leak": _prefix_change(WEIGHTS, _with_value(V[:, :, 2] + 1000.0)) > 0}
    return bool(facts[claim])


def perturb_with(claim):
    new = {"finite and clear": V[:, :, 2] + 1000.0, "inf": np.inf, "tiny": V[:, :, 2] + 1e-15}[claim]
    masked, unmasked = _prefix_change(WEIGHTS, _with_value(new)), _prefix_change(EVERY, _with_value(new))
    return masked == 0.0 and unmasked > 1e-12                       # a verdict, and a control that sees


def causal_attention_with_future_nan(claim):
    message = refusal(causal_attention, Q, K, _with_value(np.nan))
    if message is not None:
        return claim == "raises" and "0 * nan = nan" in message
    out = causal_attention(Q, K, _with_value(np.nan))
    facts = {"raises": False, "ignores it": np.array_equal(out[:, :, :2], causal_attention(Q, K, V)[:, :, :2]),
             "replaces it by 0": np.array_equal(out, causal_attention(Q, K, _with_value(0.0)))}
    return bool(facts[claim])


section("finite values",
    choose(T("Why does a masked model seem to leak when a future value becomes NaN?"),
           right=T("0 · NaN = NaN: an exact 0 weight does not stop it", claim="0 * NaN = NaN"),
           why=T("The output is the weights times all of the values V."),
           wrong=[(T("The mask does not apply to NaN", claim="the mask misses NaN"),
                   T("The mask works: the weights are exactly 0.")),
                  (T("The model really leaks", claim="a real leak"),
                   T("It is a false alarm: a finite perturbation changes the prefix by 0.0."))],
           witness=nan_seems_to_leak_because),
    choose(T("Which perturbation should the test use?"),
           right=T("Finite but clearly different values, for example 1000 added to every component", claim="finite and clear"),
           why=T("Then the prefix stays the same bit for bit, and the control sees the change."),
           wrong=[(T("inf", claim="inf"), T("0 · inf is NaN too.")),
                  (T("Tiny noise", claim="tiny"), T("A tiny change can drown in the tolerance, even for the control."))],
           witness=perturb_with),
    choose(T("What does `causal_attention` do with a NaN at a future position?"),
           right=T("It raises a `ValueError` that explains the 0 · NaN problem", claim="raises"),
           why=T("A NaN cannot serve as a perturbation (0 · NaN = NaN), so `lib` refuses it with a message instead of computing a misleading result."),
           wrong=[(T("It ignores it", claim="ignores it"), T("It refuses NaN anywhere, future positions included.")),
                  (T("It replaces it by 0", claim="replaces it by 0"),
                   T("Quietly changing the inputs would hide mistakes."))],
           witness=causal_attention_with_future_nan),
)


# §4.7
IDS8, OTHER8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4]), np.array([BOS, 3, 4, 5, 5, 3, 4, EOS])


def leaky_before(ids):
    return checks.forward_with(MODEL, ids, before=checks.leaky_time_normalization)


def zeros_prove_no_leak(claim):
    x = checks.leaky_time_normalization(MODEL.embed(IDS8)[None])
    weights = checks.attention_weights(x, MODEL.w_q, MODEL.w_k, MODEL.n_heads)
    fact = not (checks.upper_right_is_zero(weights) and checks.future_change(leaky_before, IDS8, OTHER8, 4) > 0.1)
    return claim == fact


def leaky_differs_by(claim):
    x = np.random.default_rng(0).normal(size=(1, 5, 4))
    by_axis = np.allclose(checks.leaky_time_normalization(x),
                          checks.feature_normalization(x.swapaxes(-1, -2)).swapaxes(-1, -2), rtol=0, atol=1e-12)
    eps = {f.__name__: inspect.signature(f).parameters["eps"].default
           for f in (checks.leaky_time_normalization, checks.feature_normalization)}
    facts = {"the axis": by_axis, "eps": len(set(eps.values())) > 1,
             "a bias": not np.allclose(checks.leaky_time_normalization(x).mean(axis=-2), 0)}
    return bool(facts[claim])


def per_position_change(claim):
    change = checks.future_change(
        lambda t: checks.forward_with(MODEL, t, before=checks.feature_normalization,
                                      after=checks.feature_normalization), IDS8, OTHER8, 4)
    return claim == ("0.0" if change == 0.0 else "NaN" if np.isnan(change) else "above 0")


section("above the diagonal",
    choose(T("The attention weights are all 0 above the diagonal. Does that prove there is no leak?"),
           right=T("No: a leak can come from elsewhere, for example a normalisation over time", claim=False),
           why=T("That checks only the one place where the mask was put."),
           wrong=[(T("Yes, the weights are everything", claim=True),
                   T("Attention is only one step of the model.")),
                  (T("Yes, as long as the rows sum to 1", claim=True),
                   T("Row sums say nothing about leaks in other layers."))],
           witness=zeros_prove_no_leak),
    choose(T("How does `leaky_time_normalization` differ from `feature_normalization`?"),
           right=T("By a single `axis`: it normalises over time, not over the features", claim="the axis"),
           why=T("So row 0 already depends on the last row."),
           wrong=[(T("It uses another eps", claim="eps"),
                   T("eps does not change which positions are read.")),
                  (T("It adds a bias", claim="a bias"),
                   T("The difference is the axis the statistics come from."))],
           witness=leaky_differs_by),
    choose(T("With a normalisation over the features before and after attention, how much does the prefix change?"),
           right=T("0.0", claim="0.0"),
           why=T("It works within each position, as step 6 of §4.2 says."),
           wrong=[(T("Above 0", claim="above 0"), T("That is what the normalisation over time gives.")),
                  (T("NaN", claim="NaN"), T("There is no NaN or inf here."))],
           witness=per_position_change),
)


# §4.8: dropout on the attention weights (rate 0.5), assembled from lib as the section does
def dropout_forward(ids, rng, rate=0.5, causal=True):
    x = MODEL.embed(ids)[None]
    q, k, v = (split_heads(x @ w, MODEL.n_heads) for w in (MODEL.w_q, MODEL.w_k, MODEL.w_v))
    allowed = ~causal_future(len(ids), len(ids)) if causal else np.ones((len(ids),) * 2, dtype=bool)
    weights = masked_softmax(attention_scores(q, k), allowed)
    weights = weights * (rng.random(weights.shape) >= rate) / (1 - rate)
    return (merge_heads(weights @ v) @ MODEL.w_o)[0]


def dropout_reports_a_leak_because(claim):
    fresh = np.random.default_rng(0)
    same_input = np.abs(dropout_forward(IDS, fresh) - dropout_forward(IDS, fresh))[:2].max()
    seeded = checks.future_change(lambda t: dropout_forward(t, np.random.default_rng(1)), IDS, PERTURBED, 2)
    facts = {"different weights dropped at every call": same_input > 0.1 and seeded == 0.0,
             "it reads the future": seeded > 0,
             "NaN": np.isnan(dropout_forward(IDS, fresh)).any()}
    return bool(facts[claim])


def meaningful_again_with(claim):
    if claim == "a fixed seed, or evaluation mode":
        forwards = [lambda t, c: dropout_forward(t, np.random.default_rng(1), causal=c),
                    lambda t, c: dropout_forward(t, np.random.default_rng(0), rate=0.0, causal=c)]
    else:                                                           # a new seed at every pass
        seeds = itertools.count()
        forwards = [lambda t, c: dropout_forward(t, np.random.default_rng(next(seeds)), causal=c)]
    return all(checks.check_causality(lambda t, f=f: f(t, True), lambda t, f=f: f(t, False), IDS, PERTURBED, 2).passed
               for f in forwards)


def update_between_passes(claim):
    updated = AttentionModel(MODEL.token_table, MODEL.position_table, MODEL.w_q, MODEL.w_k, MODEL.w_v,
                             1.01 * MODEL.w_o, MODEL.n_heads)
    moved = np.abs(updated.forward(IDS) - MODEL.forward(IDS))[:2].max()
    still_causal = checks.future_change(updated.forward, IDS, PERTURBED, 2) == 0.0
    facts = {"a different model": moved > 1e-3 and still_causal, "nothing": moved == 0,
             "a leak": not still_causal}
    return bool(facts[claim])


section("dropout",
    choose(T("Why does dropout in training mode make the future-perturbation test report a leak?"),
           right=T("Each call drops a different random set of attention weights: the two passes are not the same function", claim="different weights dropped at every call"),
           why=T("Run the same input twice and the prefix already differs."),
           wrong=[(T("Dropout reads the future", claim="it reads the future"),
                   T("With the same weights dropped in both passes the prefix does not change: the change has nothing to do with the future.")),
                  (T("Dropout produces NaN", claim="NaN"),
                   T("It only zeroes some weights and scales the rest."))],
           witness=dropout_reports_a_leak_because),
    choose(T("How does the test become meaningful again?"),
           right=T("Fix the random seed, or switch dropout off (evaluation mode)", claim="a fixed seed, or evaluation mode"),
           why=T("The two passes are one deterministic function again."),
           wrong=[(T("Loosen the tolerance"),
                   T("That would let real leaks pass too.")),
                  (T("Give each pass a seed of its own", claim="a seed of its own for each pass"),
                   T("Two seeds drop two different sets of weights: the passes are still two different functions."))],
           witness=meaningful_again_with),
    choose(T("What if a training update happens between the two passes?"),
           right=T("The prefix outputs change, but that is a different model, not a leak", claim="a different model"),
           why=T("There must be no optimiser step between the passes."),
           wrong=[(T("Nothing", claim="nothing"), T("The parameters change, so the outputs do.")),
                  (T("It shows that the model leaks", claim="a leak"),
                   T("Even the same input changes; the future plays no part."))],
           witness=update_between_passes),
)


# §4.9: models with random parameters, in shapes the §4.1 model does not have: (V, T, D, H, p)
RANDOM_SHAPES = [(7, 5, 6, 3, 2), (30, 12, 8, 1, 7), (12, 20, 16, 4, 1)]


def random_models_because(claim):
    passed = []
    for seed, (v, t, width, heads, p) in enumerate(RANDOM_SHAPES):
        model = checks.random_model(seed, vocab_size=v, context_size=t, width=width, n_heads=heads)
        ids = np.random.default_rng(seed).integers(0, v, size=t)
        other = checks.perturb_future(ids, p, np.random.default_rng(seed + 10), vocab_size=v)
        passed.append(checks.check_causality(model.forward, lambda x, m=model: m.forward(x, causal=False),
                                             ids, other, p).passed)
    facts = {"more shapes": all(passed) and (MODEL.width, MODEL.n_heads) not in {s[2:4] for s in RANDOM_SHAPES},
             "the §4.1 model leaks": not checks.check_causality(MODEL.forward, control, IDS, PERTURBED, 2).passed}
    return bool(facts[claim])


def false_in_last_column(claim):
    # <bos> replaced by 风: a different token with the same vector, so the control sees nothing
    void = checks.check_causality(MODEL.forward, control, np.array([BOS, 3, BOS]), np.array([BOS, 3, 5]), 2)
    verdict = ("void" if not void.control_saw_change else "leak" if not void.causal else "causal")
    return claim == verdict and not void.passed


def prefix_length_rule(claim):
    ids = np.array([BOS, 3, 4, 5])
    t, accepted = len(ids), set()
    for p in range(-1, t + 2):
        try:
            other = checks.perturb_future(ids, p, np.random.default_rng(p + 1), vocab_size=len(VOCAB))
            checks.future_change(MODEL.forward, ids, other, p)
        except ValueError:
            continue
        accepted.add(p)
    return accepted == {"1 ≤ p < T": set(range(1, t)), "0 ≤ p ≤ T": set(range(0, t + 1)), "p = T": {t}}[claim]


section("random models",
    choose(T("Why repeat the check on random models?"),
           right=T("The §4.1 model has one size; random |𝒱|, T, D, H and p cover more shapes", claim="more shapes"),
           why=T("Each run is the full check, control included."),
           wrong=[(T("Because the §4.1 model leaks", claim="the §4.1 model leaks"),
                   T("It passes the check; the random models add shapes it does not have.")),
                  (T("To measure speed"),
                   T("Only causality is checked here."))],
           witness=random_models_because),
    choose(T("A printed row ends with False: the control saw no change. What does that mean?"),
           right=T("The test could not see a leak there, so it says nothing about the model", claim="void"),
           why=T("Every row must end with True for the test to mean anything."),
           wrong=[(T("The model leaks", claim="leak"),
                   T("A leak shows in the prefix change of the model, not in the control's.")),
                  (T("The model is causal", claim="causal"),
                   T("A prefix change of 0 proves nothing when the control saw nothing either."))],
           witness=false_in_last_column),
    choose(T("What must the prefix length p satisfy?"),
           right=T("1 ≤ p < T", claim="1 ≤ p < T"),
           why=T("At least one prefix output is compared, and at least one future position is changed."),
           wrong=[(T("0 ≤ p ≤ T", claim="0 ≤ p ≤ T"), T("With p = 0 the comparison is empty (§4.5).")),
                  (T("p = T", claim="p = T"), T("Then no future position is left to change."))],
           witness=prefix_length_rule),
)


# §4.10: the sequences of §4.7; the masked model, the control and the leaky version
def _row_changes(forward):
    return checks.row_changes(forward, IDS8, OTHER8)


def masked_bars_in_prefix(claim):
    prefix = _row_changes(MODEL.forward)[:4]
    facts = {"none": (prefix == 0).all(), "tiny": (prefix > 0).any() and prefix.max() < 1e-6,
             "as tall as the control": np.allclose(prefix, _row_changes(control)[:4])}
    return bool(facts[claim])


def third_case_is(claim):
    x = checks.leaky_time_normalization(MODEL.embed(IDS8)[None])
    facts = {"the leaky version": checks.upper_right_is_zero(checks.attention_weights(x, MODEL.w_q, MODEL.w_k, 2))
             and (_row_changes(leaky_before)[:4] > 0).all(),
             "dropout": not np.array_equal(leaky_before(IDS8), leaky_before(IDS8))}
    return bool(facts[claim])


def future_rows_that_change(cases):
    future = {name: (_row_changes(f)[4:] > 0).all()
              for name, f in (("masked", MODEL.forward), ("control", control), ("leaky", leaky_before))}
    return {name for name, changed in future.items() if changed} == cases


section("one picture",
    choose(T("What does the masked model show left of the dashed line (the prefix)?"),
           right=T("No bars: the change is exactly 0", claim="none"),
           why=T("The other two change in the prefix."),
           wrong=[(T("Tiny bars", claim="tiny"),
                   T("The change is exactly 0, not just small.")),
                  (T("Bars as tall as the control's", claim="as tall as the control"),
                   T("The control has the mask off; its prefix changes."))],
           witness=masked_bars_in_prefix),
    choose(T("What is the third version in the figure?"),
           right=T("The leaky version, with a normalisation over time before attention", claim="the leaky version"),
           why=T("§4.7: its mask is correct, yet the prefix changes."),
           wrong=[(T("The trained model"),
                   T("Nothing is trained here.")),
                  (T("The model with dropout", claim="dropout"),
                   T("Dropout is §4.8; every version here is deterministic."))],
           witness=third_case_is),
    choose(T("Right of the dashed line, at the positions that were changed, which versions change?"),
           right=T("All three", claim={"masked", "control", "leaky"}),
           why=T("Those rows read the changed tokens themselves, so even the masked model moves there."),
           wrong=[(T("Only the control and the leaky version", claim={"control", "leaky"}),
                   T("The masked model may read its own position, and that position changed.")),
                  (T("None", claim=set()),
                   T("The changed tokens are read at their own positions."))],
           witness=future_rows_that_change),
)
