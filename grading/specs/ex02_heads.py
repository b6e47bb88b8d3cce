"""Exercise set 2 (§2, heads): heads-1, heads-2, heads-3, cost-1."""

import numpy as np

from lib import attention

from ..registry import Kind, exercise
from ..values import Case

NOTEBOOK = "ex02_heads"


# ---- heads-1: split_heads(x, n_heads) ------------------------------------------

def _heads1_public():
    rng = np.random.default_rng(21)
    return [
        Case("labels-1x3x4", (np.arange(12).reshape(1, 3, 4), 2),
             label="numbered input (1, 3, 4), 2 heads"),
        Case("batch-2x3x6-three-heads", (rng.normal(size=(2, 3, 6)), 3),
             label="a batch (2, 3, 6), 3 heads"),
        Case("batch-2x5x8", (rng.normal(size=(2, 5, 8)), 2),
             label="a batch (2, 5, 8), 2 heads"),
        Case("unbatched-4x6", (rng.normal(size=(4, 6)), 2),
             label="no batch axis, (4, 6)"),
        Case("width-not-divisible", (rng.normal(size=(1, 3, 5)), 2),
             label="D = 5 is not divisible by H = 2 (must raise)"),
    ]


def _heads1_hidden(rng):
    cases = []
    for i in range(5):
        B, T, H, d = (int(n) for n in (rng.integers(1, 4), rng.integers(2, 6), rng.integers(2, 5), rng.integers(1, 4)))
        x = np.arange(B * T * H * d).reshape(B, T, H * d) if i == 0 else rng.normal(size=(B, T, H * d))
        cases.append(Case(f"split-{i}", (x, H), kind="numbered" if i == 0 else "random"))
    H, d = int(rng.integers(2, 4)), int(rng.integers(1, 3))
    cases.append(Case("rank-2", (rng.normal(size=(int(rng.integers(2, 5)), H * d)), H), kind="other-ranks"))
    cases.append(Case("rank-4", (rng.normal(size=(2, int(rng.integers(1, 3)), int(rng.integers(2, 5)), H * d)), H),
                      kind="other-ranks"))
    H = int(rng.integers(2, 5))
    cases.append(Case("width-not-divisible", (rng.normal(size=(int(rng.integers(1, 3)), int(rng.integers(2, 5)),
                                                                H * int(rng.integers(1, 4)) + 1)), H),
                      kind="not-divisible"))
    return cases


# ---- heads-2: merge_heads(x) -----------------------------------------------------

def _heads2_public():
    rng = np.random.default_rng(22)
    return [
        Case("labels-1x2x3x2", (np.arange(12).reshape(1, 2, 3, 2),),
             label="numbered input (1, 2, 3, 2)"),
        Case("batch-2x2x3x4", (rng.normal(size=(2, 2, 3, 4)),),
             label="a batch (2, 2, 3, 4)"),
        Case("three-heads", (rng.normal(size=(1, 3, 4, 2)),), label="three heads"),
        Case("one-sequence-3d", (rng.normal(size=(2, 3, 2)),),
             label=("no batch axis, (H, T, d) = (2, 3, 2), "
                     "as in a cached step")),
        Case("two-batch-axes-5d", (rng.normal(size=(2, 1, 2, 3, 2)),),
             label="two batch axes (2, 1, 2, 3, 2)"),
        Case("too-few-axes", (np.zeros((3, 4)),),
             label="an input with only two axes (must raise)"),
    ]


def _heads2_hidden(rng):
    cases = []
    for i in range(5):
        shape = (int(rng.integers(1, 4)), int(rng.integers(2, 5)), int(rng.integers(2, 6)), int(rng.integers(1, 4)))
        x = np.arange(int(np.prod(shape))).reshape(shape) if i == 0 else rng.normal(size=shape)
        cases.append(Case(f"merge-{i}", (x,), kind="numbered" if i == 0 else "random"))
    for i, batch in enumerate(((), (int(rng.integers(1, 3)), int(rng.integers(1, 3))))):
        shape = batch + (int(rng.integers(2, 5)), int(rng.integers(2, 5)), int(rng.integers(1, 4)))
        cases.append(Case(f"rank-{len(shape)}", (rng.normal(size=shape),), kind="other-ranks"))
    cases.append(Case("too-few-axes", (rng.normal(size=(int(rng.integers(2, 5)), 4)),), kind="too-few-axes"))
    return cases


# ---- heads-3: multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads) ---------------

def _random_mha_args(rng, B, T, D, H):
    x = rng.normal(size=(B, T, D))
    ws = [rng.normal(scale=D ** -0.5, size=(D, D)) for _ in range(4)]
    return (x, *ws, H)


def _heads3_public():
    x = np.array([[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]])                    # BOS, 春 of the chapter
    w_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
    eye = np.eye(4)
    rng = np.random.default_rng(23)
    return [
        Case("worked-example", (x, eye, eye, eye, w_o, 2),
             label="the section's example (BOS, then 春)"),
        Case("random-2x4x6-three-heads", _random_mha_args(rng, 2, 4, 6, 3),
             label="random input (2, 4, 6), 3 heads"),
        Case("one-head", _random_mha_args(rng, 1, 3, 4, 1), label="a single head"),
        Case("width-not-divisible", _random_mha_args(rng, 1, 3, 6, 4),
             label="D = 6 is not divisible by H = 4 (must raise)"),
    ]


def _heads3_hidden(rng):
    cases = []
    for i in range(5):
        H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        cases.append(Case(f"mha-{i}", _random_mha_args(rng, int(rng.integers(1, 3)), int(rng.integers(1, 6)), H * d, H),
                          kind="random"))
    cases.append(Case("width-not-divisible", _random_mha_args(rng, 1, 2, 5, 2), kind="not-divisible"))
    return cases


_NUMBERED = "numbered input of random size (shows where every entry goes)"

# ---- cost-1: attention_costs(batch, length, width, n_heads, n_layers, dtype) ---------

def _cost1_public():
    return [
        Case("gpt2-small", (1, 1024, 768, 12, 12, "float32"),
             label="GPT-2 small: 12 layers, D = 768, H = 12, T = 1024, float32"),
        Case("chapter-model", (1, 8, 4, 2, 1, "float64"),
             label="the course's model: 1 layer, D = 4, H = 2, T = 8, float64"),
        Case("batch-float16", (8, 512, 512, 8, 6, "float16"),
             label="a batch of B = 8, 6 layers, float16"),
        Case("one-head", (8, 512, 512, 1, 6, "float16"),
             label="the same model with a single head"),
        Case("not-divisible", (1, 16, 10, 4, 2, "float32"),
             label="D = 10 is not divisible by H = 4 (must raise)"),
        Case("no-layers", (1, 16, 8, 2, 0, "float32"),
             label="0 layers (must raise)"),
    ]


def _cost1_hidden(rng):
    cases = []
    for i in range(6):
        H, d = int(rng.integers(1, 17)), int(rng.integers(1, 129))
        dtype = str(rng.choice(["float16", "float32", "float64"]))
        cases.append(Case(f"random-{i}", (int(rng.integers(1, 17)), int(rng.integers(1, 4097)), H * d, H,
                                          int(rng.integers(1, 49)), dtype), kind="random"))
    H = int(rng.integers(3, 9))
    cases.append(Case("not-divisible", (2, 64, H * int(rng.integers(2, 9)) + 1, H, 4, "float32"), kind="not-divisible"))
    cases.append(Case("no-layers", (int(rng.integers(1, 9)), 64, 4 * H, H, 0, "float16"), kind="no-layers"))
    return cases


EXERCISES = [
    exercise(
        id="heads-1", function="split_heads", points=1,
        title="Fixing the split",
        reference=attention.split_heads, answer="grading.references.split_heads",
        public=_heads1_public, hidden=_heads1_hidden,
        hidden_kinds={
            "numbered": Kind(_NUMBERED, like="labels-1x3x4"),
            "random": Kind("random batches and numbers of heads", like="batch-2x3x6-three-heads"),
            "other-ranks": Kind("random inputs with no batch axis or two", like="unbatched-4x6"),
            "not-divisible": Kind("a width not divisible by the number of heads (must raise)",
                                  like="width-not-divisible"),
        },
    ),
    exercise(
        id="heads-2", function="merge_heads", points=2,
        title="Merging the heads",
        reference=attention.merge_heads, answer="grading.references.merge_heads",
        public=_heads2_public, hidden=_heads2_hidden,
        hidden_kinds={
            "numbered": Kind(_NUMBERED, like="labels-1x2x3x2"),
            "random": Kind("random batches and numbers of heads", like="batch-2x2x3x4"),
            "other-ranks": Kind("random inputs with no batch axis or two", like="one-sequence-3d"),
            "too-few-axes": Kind("a random input with only two axes (must raise)", like="too-few-axes"),
        },
    ),
    exercise(
        id="heads-3", function="multi_head_attention", points=3,
        title="Causal multi-head attention",
        reference="grading.references.multi_head_causal", answer="grading.references.multi_head_attention",
        forbidden=("lib.attention.multi_head_attention", "lib.attention.split_heads", "lib.attention.merge_heads",
                   "lib.checks.attention_weights", "lib.checks.forward_with"),
        public=_heads3_public, hidden=_heads3_hidden,
        hidden_kinds={
            "random": Kind("random inputs, weights and numbers of heads", like="random-2x4x6-three-heads"),
            "not-divisible": Kind("a width not divisible by the number of heads (must raise)",
                                  like="width-not-divisible"),
        },
    ),
    exercise(
        id="cost-1", function="attention_costs", points=2,
        title="Parameters and KV-cache bytes",
        reference="grading.references.attention_costs",
        forbidden=("lib.costs.head_costs", "lib.checks.kv_cache_bytes"),
        public=_cost1_public, hidden=_cost1_hidden,
        hidden_kinds={
            "random": Kind("random B, T, D, H, numbers of layers and dtypes", like="batch-float16"),
            "not-divisible": Kind("a width not divisible by the number of heads (must raise)", like="not-divisible"),
            "no-layers": Kind("0 layers (must raise)",
                              like="no-layers"),
        },
    ),
]
