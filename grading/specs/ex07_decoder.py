"""Exercise set 7 (§7, the small decoder trained in NumPy): dec-1 ... dec-4."""

import numpy as np

from lib import attention, layers

from ..registry import Kind, exercise, setup_code
from ..values import Case, Ref
from ._common import random_allowed, rng_scores

NOTEBOOK = "ex07_decoder"


def _softmax_weights(rng, shape, dtype=np.float64):
    """Weights of a masked softmax over a random allowed set, and that set."""
    allowed = random_allowed(rng, shape)
    return attention.masked_softmax(rng_scores(rng, shape).astype(dtype), allowed), allowed


# ---- dec-1: masked_softmax_backward(d_weights, weights) -------------------------

def _dec1_public():
    allowed3 = ~attention.causal_future(3, 3)
    uniform = attention.masked_softmax(np.zeros((3, 3)), allowed3)          # rows [1], [1/2, 1/2], [1/3 ...]
    rng = np.random.default_rng(71)
    after = attention.masked_softmax(rng.normal(size=(2, 4)), ~attention.causal_future(2, 4))
    batch, _ = _softmax_weights(rng, (2, 3, 5))
    w32, _ = _softmax_weights(rng, (3, 4), np.float32)
    one_key = attention.masked_softmax(rng.normal(size=(2, 3)), np.array([[False, True, False], [True, True, True]]))
    return [
        Case("uniform-3x3", (np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), uniform),
             label="uniform weights under a 3×3 causal mask"),
        Case("after-cache-2x4", (rng.normal(size=(2, 4)), after),
             label="after a cache: 2 queries, 4 keys"),
        Case("batch", (rng.normal(size=(2, 3, 5)), batch), label="a batch (2, 3, 5)"),
        Case("float32", (rng.normal(size=(3, 4)).astype(np.float32), w32),
             label="float32 weights"),
        Case("one-allowed-key", (rng.normal(size=(2, 3)), one_key),
             label="a row that may read one key only"),
        Case("shape-mismatch", (np.ones((2, 3)), uniform),
             label="arrays of different shapes (must raise)"),
        Case("broadcastable-shapes", (np.ones((1, 3)), uniform),
             label=("shapes (1, 3) and (3, 3): they broadcast, "
                     "yet must raise")),
    ]


def _dec1_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(1, 4))))
        dtype = np.float32 if i == 2 else np.float64
        weights, _ = _softmax_weights(rng, shape, dtype)
        cases.append(Case(f"random-{i}", (rng.normal(size=shape).astype(dtype), weights),
                          kind="random-float32" if i == 2 else "random"))
    tq = int(rng.integers(1, 5))
    tk = int(rng.integers(tq, 7))
    causal = attention.masked_softmax(rng_scores(rng, (2, tq, tk)), ~attention.causal_future(tq, tk))
    cases.append(Case("causal", (rng.normal(size=(2, tq, tk)), causal), kind="causal"))
    cases.append(Case("shape-mismatch", (rng.normal(size=(3, 4)), _softmax_weights(rng, (3, 5))[0]),
                      kind="shape-mismatch"))
    weights = _softmax_weights(rng, (int(rng.integers(2, 5)), 4))[0]
    cases.append(Case("broadcastable", (rng.normal(size=(1, 4)), weights), kind="broadcastable"))
    return cases


# ---- dec-2: layer_norm_backward(d_out, x, gain, eps=1e-5) --------------------------

def _dec2_public():
    rng = np.random.default_rng(72)
    x = np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 1.0, -1.0]])
    return [
        Case("two-rows", (np.array([[1.0, 0.0, 0.0, -1.0], [0.5, 0.5, 0.5, 0.5]]), x, np.ones(4)),
             label="two rows, gain 1"),
        Case("batch-with-gain", (rng.normal(size=(2, 3, 5)), 3 * rng.normal(size=(2, 3, 5)) + 1,
                                 rng.normal(size=5)),
             label="a batch (2, 3, 5) with a random gain"),
        Case("float32", (rng.normal(size=(3, 6)).astype(np.float32), rng.normal(size=(3, 6)).astype(np.float32),
                         rng.normal(size=6).astype(np.float32)),
             label="a float32 input"),
        Case("eps", (rng.normal(size=(2, 4)), rng.normal(size=(2, 4)), rng.normal(size=4)), {"eps": 0.5},
             label="eps=0.5"),
        Case("one-position", (rng.normal(size=(1, 3)), rng.normal(size=(1, 3)), rng.normal(size=3)),
             label="a single position"),
        Case("gain-of-wrong-width", (np.ones((2, 4)), rng.normal(size=(2, 4)), np.ones(3)),
             label="a gain of the wrong width (must raise)"),
        Case("gain-of-shape-1-D", (np.ones((2, 4)), rng.normal(size=(2, 4)), np.ones((1, 4))),
             label="a gain of shape (1, D) instead of (D,) (must raise)"),
        # halves near 1e8 are exact in float64, so every right way of taking mean and variance agrees;
        # E[x²] − E[x]² cancels almost every digit there
        Case("large-values", (rng.normal(size=(2, 4)), 1e8 + rng.integers(-8, 9, size=(2, 4)) / 2,
                              rng.normal(size=4)),
             label="features around 1e8 that differ by a few units"),
    ]


def _dec2_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 3)))) + (int(rng.integers(2, 8)),)
        dtype = np.float32 if i == 3 else np.float64
        x = rng.normal(loc=rng.normal(scale=3), scale=rng.uniform(0.2, 4), size=shape)
        args = tuple(a.astype(dtype) for a in (rng.normal(size=shape), x, rng.normal(size=shape[-1])))
        kind = {3: "float32", 4: "eps"}.get(i, "random")
        cases.append(Case(f"norm-{i}", args, {"eps": float(rng.uniform(1e-6, 1e-2))} if i == 4 else {}, kind=kind))
    cases.append(Case("gain-of-wrong-width", (np.ones((2, 5)), rng.normal(size=(2, 5)), np.ones(4)),
                      kind="gain-of-wrong-width"))
    D = int(rng.integers(2, 8))
    cases.append(Case("gain-with-extra-axes", (rng.normal(size=(3, D)), rng.normal(size=(3, D)),
                                               rng.normal(size=(1,) * int(rng.integers(1, 3)) + (D,))),
                      kind="gain-with-extra-axes"))
    # drawn after the older kinds, so their draws stay as they were
    shape = tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(1, 3)))) + (int(rng.choice([2, 4, 8])),)
    loc = float(rng.choice([-1, 1]) * np.round(10 ** rng.uniform(7.5, 8.5)))
    cases.append(Case("large-values", (rng.normal(size=shape), loc + rng.integers(-12, 13, size=shape) / 4,
                                       rng.normal(size=shape[-1])), kind="large-values"))
    return cases


# ---- dec-3: decoder_step(model, token, keys, values) ---------------------------------

def _decoder_setup(seed, prefix, n_layers=2, n_heads=2, width=8, norms=False):
    more = ", norms=True" if norms else ""
    return setup_code("from grading import models as m",
                      f"model = m.random_decoder({int(seed)}, n_layers={n_layers}, n_heads={n_heads}, width={width}{more})",
                      f"keys, values = m.decoder_prefix(model, {[int(t) for t in prefix]})")


def _dec3_public():
    args = (Ref("model"), 4, Ref("keys"), Ref("values"))
    return [
        Case("first-token", args, setup=_decoder_setup(73, []),
             label="the first token (empty caches)"),
        Case("three-stored", args, setup=_decoder_setup(73, [1, 3, 5]),
             label="3 positions stored in every layer"),
        Case("one-layer", args, setup=_decoder_setup(73, [1, 3], n_layers=1),
             label="a single layer"),
        Case("three-layers-four-heads", args, setup=_decoder_setup(73, [1, 3, 5, 6], n_layers=3, n_heads=4),
             label="3 layers, 4 heads"),
        Case("last-row", args, setup=_decoder_setup(73, [1, 3, 5, 6, 2, 2, 4]),
             label="the last row of the position table"),
        Case("past-the-table", args, setup=_decoder_setup(73, [1, 3, 5, 6, 2, 2, 4, 4]),
             label="a position past the table (must raise)"),
        Case("own-layer-norms", args, setup=_decoder_setup(73, [1, 3, 5], norms=True),
             label="random gains and biases: ln1 and ln2 differ in every layer"),
    ]


def _dec3_hidden(rng):
    cases = []
    for i in range(5):
        n_heads = int(rng.integers(1, 4))
        setup = _decoder_setup(int(rng.integers(1_000_000)), rng.integers(0, 10, size=int(rng.integers(0, 8))),
                               n_layers=int(rng.integers(1, 4)), n_heads=n_heads,
                               width=n_heads * int(rng.integers(1, 4)))
        cases.append(Case(f"step-{i}", (Ref("model"), int(rng.integers(0, 10)), Ref("keys"), Ref("values")),
                          setup=setup, kind="step"))
    cases.append(Case("past-the-table", (Ref("model"), 1, Ref("keys"), Ref("values")),
                      setup=_decoder_setup(int(rng.integers(1_000_000)), rng.integers(0, 10, size=8)),
                      kind="past-the-table"))
    cases.append(Case("own-layer-norms", (Ref("model"), int(rng.integers(0, 10)), Ref("keys"), Ref("values")),
                      setup=_decoder_setup(int(rng.integers(1_000_000)), rng.integers(0, 10, size=int(rng.integers(1, 8))),
                                           n_layers=int(rng.integers(1, 4)), norms=True),
                      kind="own-layer-norms"))
    return cases


# ---- dec-4: diagnose(model, forward, ids, prefix_length, tol=1e-9) --------------------

def _diagnose_setup(model, how):
    return setup_code("from grading import models as m", f"model = {model}",
                      f"forward = m.decoder_forward(model, {how!r})")


_MIRROR_IDS = np.array([1, 3, 8, 6, 5, 6, 8, 3])            # <bos> a 春 д | д 春 a


def _dec4_public():
    args = (Ref("model"), Ref("forward"), _MIRROR_IDS, 4)
    cheater, masked = "m.handed_over_decoder('unmasked')", "m.handed_over_decoder('masked')"
    return [
        Case("run-without-the-mask", args, setup=_diagnose_setup(cheater, "unmasked"),
             label="run without the mask"),
        Case("cheater-run-with-the-mask", args, setup=_diagnose_setup(cheater, "masked"),
             label="the unmasked model's weights run with the mask"),
        Case("masked-model", args, setup=_diagnose_setup(masked, "masked"),
             label="trained and run with the mask"),
        Case("one-leaky-block", args, setup=_diagnose_setup(masked, "leaky-block-1"),
             label="one block without the mask"),
        Case("attention-writes-nothing", args, setup=_diagnose_setup("m.deaf_decoder(74)", "masked"),
             label="attention that writes nothing"),
        Case("batch", (Ref("model"), Ref("forward"), np.stack([_MIRROR_IDS, _MIRROR_IDS[::-1]]), 2),
             setup=_diagnose_setup(masked, "leaky-block-0"),
             label="a batch of two sequences"),
        Case("prefix-0", (Ref("model"), Ref("forward"), _MIRROR_IDS, 0), setup=_diagnose_setup(masked, "masked"),
             label="prefix_length=0 (must raise)"),
        Case("prefix-T", (Ref("model"), Ref("forward"), _MIRROR_IDS, len(_MIRROR_IDS)),
             setup=_diagnose_setup(masked, "masked"),
             label="prefix_length=T=8 (must raise)"),
        Case("zeros-in-the-future", (Ref("model"), Ref("forward"), np.array([1, 3, 5, 0, 0, 0]), 3),
             setup=_diagnose_setup("m.random_decoder(75)", "unmasked"),
             label="future tokens all 0, run without the mask"),
        Case("peeks-one-ahead", args, setup=_diagnose_setup(masked, "peeks-one-ahead"),
             label="masked, but each position also sees the next token"),
        Case("sees-the-last-token", args, setup=_diagnose_setup(masked, "sees-the-last-token"),
             label="masked, but every position also sees the last token"),
        Case("huge-tolerance", args, {"tol": 1e6}, setup=_diagnose_setup(cheater, "unmasked"),
             label="run without the mask, a huge tolerance, tol=1e6"),
        Case("first-sees-the-last-token", args, setup=_diagnose_setup(masked, "first-sees-the-last-token"),
             label="masked, but the first position also sees the last token"),
        Case("tol-0", args, {"tol": 0.0}, setup=_diagnose_setup(masked, "masked"),
             label="trained and run with the mask, tol=0: a change of exactly 0 is no leak"),
        # the first position's logits move by exactly 0.01 at two of V entries: a mean change, or one divided by
        # the logits, is far below it, and tol on either side of 0.01 shows a threshold other than tol
        Case("first-sees-the-last-token-tol-0.005", args, {"tol": 0.005},
             setup=_diagnose_setup(masked, "first-sees-the-last-token"),
             label="the first position moves by 0.01 in two logits only, tol=0.005 (leaks)"),
        Case("first-sees-the-last-token-tol-0.02", args, {"tol": 0.02},
             setup=_diagnose_setup(masked, "first-sees-the-last-token"),
             label="the first position moves by 0.01 in two logits only, tol=0.02 (no leak)"),
        # the control of a deaf model sees nothing, yet the forward under test leaks: asking the control first
        # calls it "blind"
        Case("leak-with-a-blind-control", args, setup=_diagnose_setup("m.deaf_decoder(74)", "sees-the-last-token"),
             label="attention that writes nothing, but every position also sees the last token (leaks)"),
    ]


def _dec4_hidden(rng):
    cases = []
    for i, how in enumerate(("masked", "unmasked", "leaky-block-0", "leaky-block-1", "masked")):
        seed = int(rng.integers(1_000_000))
        model = f"m.random_decoder({seed})" if i < 4 else f"m.deaf_decoder({seed})"
        T = int(rng.integers(2, 9))
        cases.append(Case(f"{how}-{i}", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                         int(rng.integers(1, T))), setup=_diagnose_setup(model, how),
                          kind="deaf" if i == 4 else ("leaky-block" if how.startswith("leaky") else how)))
    T = int(rng.integers(3, 9))
    cases.append(Case("peeks-one-ahead", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                          int(rng.integers(1, T))),
                      setup=_diagnose_setup(f"m.random_decoder({int(rng.integers(1_000_000))})", "peeks-one-ahead"),
                      kind="peeks-one-ahead"))
    T = int(rng.integers(3, 9))
    cases.append(Case("sees-the-last-token", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                              int(rng.integers(1, T - 1))),
                      setup=_diagnose_setup(f"m.random_decoder({int(rng.integers(1_000_000))})", "sees-the-last-token"),
                      kind="sees-the-last-token"))
    trained = str(rng.choice(["masked", "unmasked"]))
    how = str(rng.choice(["masked", "unmasked"]))
    cases.append(Case(f"handed-over-{trained}-run-{how}", (Ref("model"), Ref("forward"), _MIRROR_IDS,
                                                           int(rng.integers(1, 8))),
                      setup=_diagnose_setup(f"m.handed_over_decoder({trained!r})", how), kind="handed-over"))
    T = int(rng.integers(2, 9))
    cases.append(Case("prefix-T", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T), T),
                      setup=_diagnose_setup(f"m.random_decoder({int(rng.integers(1_000_000))})", "masked"),
                      kind="prefix-T"))
    # drawn after the older kinds, so their draws stay as they were
    T = int(rng.integers(3, 9))
    cases.append(Case("first-sees-the-last-token", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                                    int(rng.integers(2, T))),
                      setup=_diagnose_setup(f"m.random_decoder({int(rng.integers(1_000_000))})",
                                            "first-sees-the-last-token"),
                      kind="first-sees-the-last-token"))
    T = int(rng.integers(2, 9))
    cases.append(Case("tol-0", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T), int(rng.integers(1, T))),
                      {"tol": 0.0}, setup=_diagnose_setup(f"m.random_decoder({int(rng.integers(1_000_000))})", "masked"),
                      kind="tol-0"))
    # tol a little below, then well above, the 0.01 by which the first position's logits move
    for side, tol in (("below", float(rng.uniform(0.004, 0.006))), ("above", float(rng.uniform(0.015, 0.03)))):
        T = int(rng.integers(3, 9))
        cases.append(Case(f"tol-{side}-the-leak", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                                    int(rng.integers(2, T))), {"tol": tol},
                          setup=_diagnose_setup("m.handed_over_decoder('masked')", "first-sees-the-last-token"),
                          kind="tol-near-the-leak"))
    T = int(rng.integers(3, 9))
    cases.append(Case("leak-with-a-blind-control", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                                    int(rng.integers(1, T - 1))),
                      setup=_diagnose_setup(f"m.deaf_decoder({int(rng.integers(1_000_000))})", "sees-the-last-token"),
                      kind="leak-with-a-blind-control"))
    return cases


EXERCISES = [
    exercise(
        id="dec-1", function="masked_softmax_backward", points=1,
        title="The backward pass of the masked softmax",
        reference=layers.masked_softmax_backward, answer="grading.references.masked_softmax_backward",
        exact_zeros=True,
        public=_dec1_public, hidden=_dec1_hidden,
        hidden_kinds={
            "random": Kind("random shapes and allowed sets", like="batch"),
            "random-float32": Kind("random float32 weights",
                                   like="float32"),
            "causal": Kind("a causal mask after a cache",
                           like="after-cache-2x4"),
            "shape-mismatch": Kind("random arrays of different shapes (must raise)", like="shape-mismatch"),
            "broadcastable": Kind("random arrays of different shapes that broadcast (must raise)",
                                  like="broadcastable-shapes"),
        },
    ),
    exercise(
        id="dec-2", function="layer_norm_backward", points=2,
        title="The backward pass of layer normalisation",
        reference="grading.references.layer_norm_backward", forbidden=("lib.layers.layer_norm_backward",),
        public=_dec2_public, hidden=_dec2_hidden,
        hidden_kinds={
            "random": Kind("random means, scales, shapes and gains", like="batch-with-gain"),
            "float32": Kind("a random float32 input",
                            like="float32"),
            "eps": Kind("a random eps", like="eps"),
            "gain-of-wrong-width": Kind("a gain of the wrong width (must raise)",
                                        like="gain-of-wrong-width"),
            "gain-with-extra-axes": Kind("a random gain of the right width with extra axes of 1 (must raise)",
                                         like="gain-of-shape-1-D"),
            "large-values": Kind("random features of magnitude 3e7 to 3e8 (either sign) that differ by a few units",
                                 like="large-values"),
        },
    ),
    exercise(
        id="dec-3", function="decoder_step", points=3,
        title="One step with a KV cache in every layer",
        reference="grading.references.decoder_step", forbidden=("lib.model._attend_step",),
        forbidden_methods=("step", "block_step", "_block_step"),
        public=_dec3_public, hidden=_dec3_hidden,
        hidden_kinds={
            "step": Kind("random numbers of layers, heads, widths and stored positions",
                         like="three-layers-four-heads"),
            "past-the-table": Kind("a random model, a position past the table (must raise)",
                                   like="past-the-table"),
            "own-layer-norms": Kind("a random model, ln1 and ln2 with different random gains and biases",
                                    like="own-layer-norms"),
        },
    ),
    exercise(
        id="dec-4", function="diagnose", points=3,
        title="Diagnosing a model handed over as weights",
        reference="grading.references.diagnose",
        public=_dec4_public, hidden=_dec4_hidden,
        hidden_kinds={
            "masked": Kind("a random decoder run with the mask", like="masked-model"),
            "unmasked": Kind("a random decoder run without the mask", like="run-without-the-mask"),
            "leaky-block": Kind("a random decoder with one block without the mask", like="one-leaky-block"),
            "deaf": Kind("a random decoder whose attention writes nothing",
                         like="attention-writes-nothing"),
            "handed-over": Kind("the handed-over trained weights, run either way",
                                like="cheater-run-with-the-mask"),
            "prefix-T": Kind("prefix_length equal to T (must raise)", like="prefix-T"),
            "peeks-one-ahead": Kind("a random masked decoder whose positions also see the next token",
                                    like="peeks-one-ahead"),
            "sees-the-last-token": Kind("a random masked decoder whose positions also see the last token",
                                        like="sees-the-last-token"),
            "first-sees-the-last-token": Kind("a random masked decoder whose first position also sees the last token",
                                              like="first-sees-the-last-token"),
            "tol-0": Kind("a random decoder run with the mask, tol=0: a change of exactly 0 is no leak",
                          like="tol-0"),
            "tol-near-the-leak": Kind("the handed-over masked weights, the first position moving by 0.01 in two "
                                      "logits, tol a little below or well above it",
                                      like="first-sees-the-last-token-tol-0.005"),
            "leak-with-a-blind-control": Kind("a random decoder whose attention writes nothing, every position "
                                              "also seeing the last token (leaks)",
                                              like="leak-with-a-blind-control"),
        },
    ),
]
