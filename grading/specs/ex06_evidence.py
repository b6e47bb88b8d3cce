"""Exercise set 6 (§6, evidence): evidence-1, an independent check in plain Python."""

import numpy as np

from ..registry import Kind, exercise
from ..values import Case

NOTEBOOK = "ex06_evidence"


# ---- evidence-1: attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True) -----------

def _lists(rng, T, D, H):
    """A sequence (T, D) and four (D, D) weights as nested lists of floats."""
    x = rng.normal(size=(T, D)).tolist()
    weights = [rng.normal(scale=D ** -0.5, size=(D, D)).tolist() for _ in range(4)]
    return (x, *weights, H)


def _evidence1_public():
    eye = np.eye(4).tolist()
    w_o = [[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 0.0, -1.0, 0.0], [0.0, 1.0, 0.0, -1.0]]
    rng = np.random.default_rng(61)
    return [
        Case("hand-computation", ([[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]], eye, eye, eye, w_o, 2),
             label="Example 1 of §2.5, computed by hand (check no. 1 of §6.1; BOS 春, two heads)"),
        Case("one-position", _lists(rng, 1, 3, 1),
             label="a single position and a single head"),
        Case("three-heads", _lists(rng, 4, 6, 3),
             label="random weights, T = 4, D = 6, 3 heads"),
        Case("no-mask", _lists(rng, 3, 4, 2), {"causal": False},
             label="the mask off (causal=False)"),
        Case("width-not-divisible", _lists(rng, 2, 5, 2),
             label="D = 5 is not divisible by H = 2 (must raise)"),
        Case("large-scores", _large(_lists(rng, 3, 4, 2)),
             label="large scores (hundreds): exp must not overflow"),
    ]


def _large(args):
    """Arguments whose scores run into the hundreds or thousands (x scaled up)."""
    x, *rest = args
    return ([[40.0 * v for v in row] for row in x], *rest)


def _evidence1_hidden(rng):
    cases = []
    for i in range(6):
        H, d, T = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 6))
        causal = bool(i % 3)
        cases.append(Case(f"random-{i}", _lists(rng, T, H * d, H), {"causal": causal},
                          kind="causal" if causal else "no-mask"))
    H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    cases.append(Case("large", _large(_lists(rng, int(rng.integers(2, 5)), H * d, H)), kind="large"))
    H = int(rng.integers(2, 4))
    cases.append(Case("not-divisible", _lists(rng, 2, H * 2 + 1, H), kind="not-divisible"))
    return cases


EXERCISES = [
    exercise(
        id="evidence-1", function="attention_py", points=4,
        title="Multi-head attention in plain Python",
        reference="grading.references.attention_py", forbidden_modules=("numpy", "lib"),
        public=_evidence1_public, hidden=_evidence1_hidden,
        hidden_kinds={
            "causal": Kind("random sizes and weights, with the causal mask", like="three-heads"),
            "no-mask": Kind("random sizes and weights, with the mask off", like="no-mask"),
            "not-divisible": Kind("a width not divisible by the number of heads (must raise)",
                                  like="width-not-divisible"),
            "large": Kind("random large scores (hundreds)", like="large-scores"),
        },
    ),
]
