"""Exercise set 4 (§4, causality): causal-1 ... causal-4."""

import numpy as np

from ..registry import Kind, exercise, setup_code
from ..values import Case, Ref
from ._common import forward_setup

NOTEBOOK = "ex04_causality"

# The library's own causality checks compute these answers; the exercises ask for them written out.
_LIBRARY_CHECKS = ("lib.checks.future_change", "lib.checks.row_changes", "lib.checks.check_causality")

_CAUSAL = "a random causal model"
_UNMASKED = "a random model without the mask"
_TIME_NORM = "a random model normalising over time (it leaks)"
_FEATURE_NORM = "a random model normalising over features"


def _fresh_token(rng, suffix):
    """A token id in 0..6 that does not occur in ``suffix``, so the perturbation changes something; when the
    suffix holds all seven ids (seven tokens or more), one that differs from the first token it replaces."""
    fresh = np.setdiff1d(np.arange(7), suffix)
    if not len(fresh):
        fresh = np.setdiff1d(np.arange(7), suffix[:1])
    return int(rng.choice(fresh))


# ---- causal-1: future_perturbation_change(forward, ids, position, replacement) -----

def _causal1_public():
    causal = forward_setup(4, "causal")
    control = forward_setup(4, "unmasked")
    leaky = forward_setup(4, "time_norm")
    ids = np.array([1, 3, 4, 5, 2])
    return [
        Case("causal-model", (Ref("forward"), ids, 2, 0), setup=causal,
             label="the causal model"),
        Case("unmasked-control", (Ref("forward"), ids, 2, 0), setup=control,
             label="the control without the mask"),
        Case("time-normalisation", (Ref("forward"), ids, 3, 6), setup=leaky,
             label="a model normalising over time (it leaks)"),
        Case("batch", (Ref("forward"), np.array([[1, 3, 4, 5], [1, 5, 5, 2]]), 3, np.array([6])), setup=control,
             label="a batch, the replacement given as an array"),
        Case("replacement-vector", (Ref("forward"), ids, 2, np.array([0, 6, 0])), setup=control,
             label="a replacement vector, one token per position"),
        Case("batch-second-changes", (Ref("forward"), np.array([[1, 3, 4, 6, 6], [1, 5, 5, 2, 3]]), 3, 6),
             setup=control,
             label="a batch whose first sequence already ends in the replacement: only the second one changes"),
    ]


def _causal1_hidden(rng):
    cases = []
    for i, which in enumerate(("causal", "unmasked", "time_norm", "feature_norm", "unmasked", "causal")):
        T = int(rng.integers(2, 9))
        position = int(rng.integers(1, T))
        ids = rng.integers(0, 7, size=T)
        cases.append(Case(f"{which}-{i}", (Ref("forward"), ids, position, _fresh_token(rng, ids[position:])),
                          setup=forward_setup(int(rng.integers(1_000_000)), which), kind=which))
    # drawn after the older kinds, so their draws stay as they were
    # a batch in which one later sequence alone changes: the others already end in the replacement
    B, T = int(rng.integers(2, 5)), int(rng.integers(3, 9))
    position = int(rng.integers(1, T))
    ids = rng.integers(0, 7, size=(B, T))
    row = int(rng.integers(1, B))
    replacement = _fresh_token(rng, ids[row, position:])
    ids[np.arange(B) != row, position:] = replacement
    which = str(rng.choice(["unmasked", "time_norm"]))
    cases.append(Case("batch-one-row-changes", (Ref("forward"), ids, position, replacement),
                      setup=forward_setup(int(rng.integers(1_000_000)), which), kind="batch-one-row"))
    return cases


# ---- causal-2: perturbation_verdict(forward, control, ids, position, replacement, tol) ----

def _verdict_setup(seed, forward, control):
    table = {
        "causal": "model.forward",
        "unmasked": "m.unmasked_forward(model)",
        "time_norm": f"m.time_norm_model({seed}).forward",
        "feature_norm": f"m.feature_norm_model({seed}).forward",
        "constant": "m.constant_forward(model.width)",
    }
    return setup_code("from grading import models as m", f"model = m.random_model({seed})",
                      f"forward = {table[forward]}", f"control = {table[control]}")


def _change(seed, which, ids, position, replacement):
    """The change the forward ``which`` of ``_verdict_setup(seed, ...)`` makes: a tol is set against it."""
    from grading import models as m
    model = m.random_model(seed)
    forward = {"causal": lambda: model.forward, "unmasked": lambda: m.unmasked_forward(model),
               "time_norm": lambda: m.time_norm_model(seed).forward}[which]()
    perturbed = np.array(ids, copy=True)
    perturbed[..., position:] = replacement
    return float(np.max(np.abs(forward(perturbed)[..., :position, :] - forward(ids)[..., :position, :])))


def _causal2_public():
    ids = np.array([1, 3, 4, 5, 2])
    args = (Ref("forward"), Ref("control"), ids)
    leak, control = _change(5, "time_norm", ids, 2, 0), _change(5, "unmasked", ids, 2, 0)
    return [
        Case("causal", args + (2, 0), setup=_verdict_setup(5, "causal", "unmasked"),
             label="a causal model, the same model with the mask off as control"),
        Case("time-normalisation", args + (2, 0), setup=_verdict_setup(5, "time_norm", "unmasked"),
             label="a model normalising over time"),
        Case("unmasked", args + (3, 6), setup=_verdict_setup(5, "unmasked", "unmasked"),
             label="the model under test has no mask"),
        Case("same-suffix", args + (3, np.array([5, 2])), setup=_verdict_setup(5, "causal", "unmasked"),
             label="a “perturbation” equal to the original tokens"),
        Case("constant-control", args + (2, 0), setup=_verdict_setup(5, "causal", "constant"),
             label="a control whose output never changes"),
        Case("leak-with-a-blind-control", args + (2, 0), setup=_verdict_setup(5, "time_norm", "constant"),
             label="a leaking model, a control whose output never changes"),
        Case("huge-tolerance", args + (2, 0), {"tol": 1e6}, setup=_verdict_setup(5, "time_norm", "unmasked"),
             label="a huge tolerance, tol=1e6"),
        Case("tol-0", args + (2, 0), {"tol": 0.0}, setup=_verdict_setup(5, "causal", "unmasked"),
             label="tol=0: a change of exactly 0 is no leak"),
        Case("position-0", args + (0, 0), setup=_verdict_setup(5, "causal", "unmasked"),
             label="position=0 (must raise)"),
        Case("position-T", args + (5, 0), setup=_verdict_setup(5, "causal", "unmasked"),
             label="position=T=5 (must raise)"),
        Case("batch", (Ref("forward"), Ref("control"), np.array([[1, 3, 4, 5, 2], [2, 4, 6, 1, 3]]), 3, 0),
             setup=_verdict_setup(5, "time_norm", "unmasked"),
             label="a batch of two sequences (B = 2, T = 5), position=3"),
        # a tol on either side of the change measured: a threshold other than tol shows
        Case("tol-half-the-leak", args + (2, 0), {"tol": leak / 2}, setup=_verdict_setup(5, "time_norm", "unmasked"),
             label="a model normalising over time, tol half the change it makes (leaks)"),
        Case("tol-twice-the-leak", args + (2, 0), {"tol": leak * 2}, setup=_verdict_setup(5, "time_norm", "unmasked"),
             label="a model normalising over time, tol twice the change it makes (no leak)"),
        Case("tol-half-the-control", args + (2, 0), {"tol": control / 2}, setup=_verdict_setup(5, "causal", "unmasked"),
             label="a causal model, tol half the change its control makes"),
    ]


_VERDICT_COMBOS = [("causal", "unmasked"), ("time_norm", "unmasked"), ("feature_norm", "unmasked"),
                   ("causal", "constant"), ("unmasked", "constant"), ("feature_norm", "time_norm"),
                   ("causal", "time_norm")]


def _causal2_hidden(rng):
    cases = []
    for i, (forward, control) in enumerate(_VERDICT_COMBOS):
        T = int(rng.integers(2, 9))
        ids = rng.integers(0, 7, size=T)
        position = int(rng.integers(1, T))
        replacement = ids[position:].copy() if i == 5 else _fresh_token(rng, ids[position:])
        name = f"{forward}-vs-{control}"
        kwargs = {}
        if i == 6:                                   # on the boundary: a causal model's change is exactly 0
            name, kwargs = "tol-0", {"tol": 0.0}
        cases.append(Case(name, (Ref("forward"), Ref("control"), ids, position, replacement), kwargs,
                          setup=_verdict_setup(int(rng.integers(1_000_000)), forward, control), kind=name))
    B = int(rng.integers(2, 4))
    T = int(rng.integers(B + 1, 9))                  # T > B: a position in B..T-1 is valid
    position = int(rng.integers(B, T))
    forward, control = _VERDICT_COMBOS[int(rng.integers(len(_VERDICT_COMBOS)))]
    cases.append(Case("batch", (Ref("forward"), Ref("control"), rng.integers(0, 7, size=(B, T)), position,
                                int(rng.integers(0, 7))),
                      setup=_verdict_setup(int(rng.integers(1_000_000)), forward, control), kind="batch"))
    # drawn after the older kinds, so their draws stay as they were
    # tol a little below or well above the change of a leaking model, then of the control of a causal one
    for forward, measured in (("time_norm", "time_norm"), ("causal", "unmasked")):
        seed = int(rng.integers(1_000_000))
        T = int(rng.integers(3, 9))
        ids = rng.integers(0, 7, size=T)
        position = int(rng.integers(1, T))
        replacement = _fresh_token(rng, ids[position:])
        factor = float(rng.uniform(0.3, 0.7) if rng.integers(2) else rng.uniform(1.5, 3.0))
        tol = factor * _change(seed, measured, ids, position, replacement)
        cases.append(Case(f"tol-near-{measured}", (Ref("forward"), Ref("control"), ids, position, replacement),
                          {"tol": tol}, setup=_verdict_setup(seed, forward, "unmasked"), kind="tol-near-the-change"))
    return cases


# ---- causal-3: leak_sweep(forward, ids, replacement_token) ----------------------

def _causal3_public():
    ids = np.array([1, 3, 4, 5, 6, 2])
    return [
        Case("causal-model", (Ref("forward"), ids, 0), setup=forward_setup(6, "causal"),
             label="the causal model"),
        Case("time-normalisation", (Ref("forward"), ids, 0), setup=forward_setup(6, "time_norm"),
             label="a model normalising over time"),
        Case("feature-normalisation", (Ref("forward"), ids, 0), setup=forward_setup(6, "feature_norm"),
             label="a model normalising over features"),
        Case("unmasked", (Ref("forward"), ids, 2), setup=forward_setup(6, "unmasked"),
             label="a model without the mask"),
        Case("one-position", (Ref("forward"), np.array([1]), 0), setup=forward_setup(6, "causal"),
             label="a single position (must raise)"),
    ]


def _causal3_hidden(rng):
    cases = []
    for i, which in enumerate(("causal", "time_norm", "feature_norm", "unmasked", "time_norm")):
        T = int(rng.integers(2, 9))
        ids = rng.integers(0, 7, size=T)
        cases.append(Case(f"{which}-{i}", (Ref("forward"), ids, _fresh_token(rng, ids[-1:])),
                          setup=forward_setup(int(rng.integers(1_000_000)), which), kind=which))
    return cases


# ---- causal-4: feature_norm(x, eps=1e-5) --------------------------------------------

def _causal4_public():
    rng = np.random.default_rng(44)
    return [
        Case("one-sequence", (np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 1.0, -1.0], [5.0, 5.0, 5.0, 7.0]]),),
             label="one sequence (3, 4)"),
        Case("batch", (rng.normal(size=(2, 3, 4)),), label="a batch (2, 3, 4)"),
        Case("constant-row", (np.full((2, 3), 4.0),),
             label="rows whose features are all equal"),
        Case("float32", (rng.normal(size=(3, 5)).astype(np.float32),),
             label="a float32 input"),
        Case("eps", (rng.normal(size=(2, 4)),), {"eps": 0.5}, label="eps=0.5"),
        Case("one-position", (np.array([[3.0, -1.0, 2.0]]),), label="a single position"),
        # halves near 1e8 are exact in float64, so every right way of taking mean and variance agrees
        Case("large-values", (1e8 + rng.integers(-8, 9, size=(2, 3, 4)) / 2,),
             label="features around 1e8 that differ by a few units"),
        Case("one-far-feature", (np.where(np.arange(64) == 5, [[10.0], [-10.0]], 0.0),),
             label="one feature far from the other 63 (normalised values near ±7.9)"),
    ]


def _causal4_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(2, 4))))
        x = rng.normal(loc=rng.normal(scale=3), scale=rng.uniform(0.1, 4), size=shape)
        kind = {2: "float32", 4: "eps"}.get(i, "random")
        cases.append(Case(f"norm-{i}", (x.astype(np.float32) if i == 2 else x,),
                          {"eps": float(rng.uniform(1e-6, 1e-2))} if i == 4 else {}, kind=kind))
    # drawn after the older kinds, so their draws stay as they were
    # quarters near an integer of 3e7 to 3e8, D a power of 2: mean and variance are exact in float64, so every
    # right way of taking them agrees, while E[x²] − E[x]² loses the variance to rounding
    shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 3)))) + (int(rng.choice([2, 4, 8])),)
    loc = float(rng.choice([-1, 1]) * np.round(10 ** rng.uniform(7.5, 8.5)))
    cases.append(Case("large-values", (loc + rng.integers(-12, 13, size=shape) / 4,), kind="large-values"))
    # one feature per row far from the others: with D >= 32 its normalised value is beyond ±5
    shape = tuple(int(n) for n in rng.integers(1, 4, size=int(rng.integers(1, 3)))) + (int(rng.integers(32, 80)),)
    x = rng.normal(scale=0.1, size=shape)
    far = rng.integers(shape[-1], size=shape[:-1])
    np.put_along_axis(x, far[..., None], rng.choice([-1.0, 1.0], size=shape[:-1] + (1,)) * rng.uniform(5, 50), -1)
    cases.append(Case("one-far-feature", (x,), kind="one-far-feature"))
    return cases


EXERCISES = [
    exercise(
        id="causal-1", function="future_perturbation_change", points=1,
        title="The future-perturbation test",
        reference="grading.references.future_perturbation_change", forbidden=_LIBRARY_CHECKS,
        public=_causal1_public, hidden=_causal1_hidden,
        hidden_kinds={
            "causal": Kind(_CAUSAL, like="causal-model"),
            "unmasked": Kind(_UNMASKED, like="unmasked-control"),
            "time_norm": Kind(_TIME_NORM, like="time-normalisation"),
            "feature_norm": Kind(_FEATURE_NORM, like="causal-model"),
            "batch-one-row": Kind("a random batch in which only one later sequence changes",
                                  like="batch-second-changes"),
        },
    ),
    exercise(
        id="causal-2", function="perturbation_verdict", points=2,
        title="A verdict with its negative control",
        reference="grading.references.perturbation_verdict", forbidden=_LIBRARY_CHECKS,
        public=_causal2_public, hidden=_causal2_hidden,
        hidden_kinds={
            "causal-vs-unmasked": Kind("a random causal model, the same model with the mask off as control",
                                       like="causal"),
            "time_norm-vs-unmasked": Kind("a random model normalising over time, a causal model with the mask off "
                                          "as control",
                                          like="time-normalisation"),
            "feature_norm-vs-unmasked": Kind("a random model normalising over features, a causal model with the mask "
                                             "off as control",
                                             like="causal"),
            "causal-vs-constant": Kind("a random causal model, a control whose output never changes",
                                       like="constant-control"),
            "unmasked-vs-constant": Kind("a random model without the mask, a control whose output never changes",
                                         like="unmasked"),
            "feature_norm-vs-time_norm": Kind("a random model normalising over features, a control normalising over "
                                              "time, and a “perturbation” equal to the original tokens",
                                              like="same-suffix"),
            "batch": Kind("a random batch of sequences (B, T), a random model and control",
                          like="batch"),
            "tol-0": Kind("a random causal model with tol=0: a change of exactly 0 is no leak", like="tol-0"),
            "tol-near-the-change": Kind("a random model and control, tol a little below or well above the change "
                                        "measured", like="tol-half-the-leak"),
        },
    ),
    exercise(
        id="causal-3", function="leak_sweep", points=3,
        title="Sweeping every position for a leak",
        reference="grading.references.leak_sweep", forbidden=_LIBRARY_CHECKS,
        public=_causal3_public, hidden=_causal3_hidden,
        hidden_kinds={
            "causal": Kind(_CAUSAL, like="causal-model"),
            "time_norm": Kind(_TIME_NORM, like="time-normalisation"),
            "feature_norm": Kind(_FEATURE_NORM, like="feature-normalisation"),
            "unmasked": Kind(_UNMASKED, like="unmasked"),
        },
    ),
    exercise(
        id="causal-4", function="feature_norm", points=2,
        title="The fix, normalising over features",
        reference="grading.references.feature_norm",
        forbidden=("lib.checks.feature_normalization", "grading.models.feature_norm", "grading.models.NormalisedModel"),
        public=_causal4_public, hidden=_causal4_hidden,
        hidden_kinds={
            "random": Kind("random means, scales and shapes",
                           like="batch"),
            "float32": Kind("a random float32 input", like="float32"),
            "eps": Kind("a random eps", like="eps"),
            "large-values": Kind("random features of magnitude 3e7 to 3e8 (either sign) that differ by a few units",
                                 like="large-values"),
            "one-far-feature": Kind("random features, one in each row far from the others (values beyond ±5)",
                                    like="one-far-feature"),
        },
    ),
]
