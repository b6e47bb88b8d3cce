"""Exercise set 5 (§5, the KV cache): cache-1, cache-2, cache-3."""

import numpy as np

from lib.data import build_vocab, collate

from ..registry import Kind, exercise
from ..values import Case, Ref
from ._common import model_setup

NOTEBOOK = "ex05_cache"


# ---- cache-1: continue_padded(model, inputs, targets, tokens) -----------------------

_VOCAB = build_vocab(["春雨风"])            # 6 tokens; the test models have V = 7, C = 8


def _padded(texts, tokens):
    inputs, targets = collate(texts, _VOCAB)
    return inputs, targets, np.array(tokens, dtype=np.int64)


def _cache1_public():
    def case(name, texts, tokens, label):
        return Case(name, (Ref("model"), *_padded(texts, tokens)), setup=model_setup(7), label=label)
    return [
        case("section-example", ["雨", "春雨"], [5, 5],
             "the batch of §5.7 (雨 padded, 春雨), continued with 风"),
        case("no-padding", ["春雨风"], [4], "one row without padding"),
        case("three-lengths", ["风", "春雨风雨", "雨春"], [3, 4, 5],
             "three rows of different lengths"),
        case("unknown-character", ["雪", "春雪风"], [1, 2],
             "characters outside the vocabulary (<unk>)"),
        case("table-full", ["春雨风春雨风春"], [3],
             "the real prefix fills the position table (must raise)"),
    ]


def _random_texts(rng, n, longest):
    chars = "春雨风雪"                      # 雪 is outside the vocabulary: <unk>
    return ["".join(rng.choice(list(chars), size=int(rng.integers(1, longest + 1)))) for _ in range(n)]


def _cache1_hidden(rng):
    cases = []
    for i in range(5):
        B = int(rng.integers(2, 5))
        texts = _random_texts(rng, B, 6)
        cases.append(Case(f"batch-{i}", (Ref("model"), *_padded(texts, rng.integers(0, 7, size=B))),
                          setup=model_setup(int(rng.integers(1_000_000))), kind="batch"))
    texts = _random_texts(rng, 1, 6)
    cases.append(Case("one-row", (Ref("model"), *_padded(texts, rng.integers(0, 7, size=1))),
                      setup=model_setup(int(rng.integers(1_000_000))), kind="one-row"))
    texts = _random_texts(rng, 2, 6) + ["".join(rng.choice(list("春雨风"), size=7))]
    cases.append(Case("table-full", (Ref("model"), *_padded(texts, rng.integers(0, 7, size=3))),
                      setup=model_setup(int(rng.integers(1_000_000))), kind="full"))
    return cases


# ---- cache-2: attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads) ---------

def _step_args(rng, n, D, H):
    d = D // H
    return (rng.normal(size=D), rng.normal(size=(H, n, d)), rng.normal(size=(H, n, d)),
            *(rng.normal(scale=D ** -0.5, size=(D, D)) for _ in range(4)), H)


def _cache2_public():
    eye = np.eye(4)
    w_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
    stored = np.array([[[1.0, 0.0]], [[0.0, 1.0]]])          # BOS [1, 0, 0, 1] split into two heads
    rng = np.random.default_rng(52)
    return [
        Case("worked-example", (np.array([0.0, 1.0, 1.0, 0.0]), stored, stored, eye, eye, eye, w_o, 2),
             label="the section's example (BOS, then 春)"),
        Case("first-token", _step_args(rng, 0, 6, 2),
             label="the first token (an empty cache)"),
        Case("three-stored", _step_args(rng, 3, 6, 3),
             label="3 stored positions, 3 heads"),
        Case("one-head", _step_args(rng, 2, 4, 1), label="a single head"),
        Case("large-scores", _large(_step_args(rng, 3, 4, 2)),
             label="large scores (hundreds): exp must not overflow"),
    ]


def _large(args):
    """Step arguments whose scores run into the hundreds (x and the stored keys scaled up)."""
    x, keys, values, *rest = args
    return (30.0 * x, 30.0 * keys, values, *rest)


def _cache2_hidden(rng):
    cases = []
    for i in range(5):
        H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        cases.append(Case(f"step-{i}", _step_args(rng, int(rng.integers(0, 6)), H * d, H), kind="step"))
    H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    cases.append(Case("large", _large(_step_args(rng, int(rng.integers(1, 6)), H * d, H)), kind="large"))
    return cases


# ---- cache-3: cache_error(forward, step, new_cache, ids) ----------------------------

def _cache3_setup(seed, bug, forward="model.forward"):
    step = "model.step" if bug is None else f"m.buggy_step(model, {bug!r})"
    return model_setup(seed, f"forward = {forward}", f"step = {step}", "new_cache = model.new_cache")


def _unmasked_setup(seed):
    """A correct (causal) cache, but a full forward pass run without the mask: every position but the last
    reads the future, so the full outputs differ from the steps; a forward pass over each prefix reads no
    future and agrees with them."""
    return _cache3_setup(seed, None, forward="m.unmasked_forward(model)")


def _cache3_public():
    args = (Ref("forward"), Ref("step"), Ref("new_cache"), np.array([1, 3, 4, 5, 2]))
    return [
        Case("correct-cache", args, setup=_cache3_setup(8, None),
             label="a correct cache"),
        Case("position-reset-to-0", args, setup=_cache3_setup(8, "reset"),
             label="the position always reset to 0"),
        Case("position-shifted", args, setup=_cache3_setup(8, "shift"),
             label="the position off by one"),
        Case("reads-only-itself", args, setup=_cache3_setup(8, "local"),
             label="the new query reads only itself"),
        Case("first-output-wrong", args, setup=_cache3_setup(8, "first"),
             label="only the first output wrong (zeros)"),
        Case("one-token", args[:3] + (np.array([1]),), setup=_cache3_setup(8, None),
             label="a single token"),
        Case("forward-reads-the-future", args, setup=_unmasked_setup(8),
             label="a correct cache, but the full forward pass runs without the mask"),
    ]


def _cache3_hidden(rng):
    cases = []
    for i, bug in enumerate((None, "reset", "shift", "local", None, "first")):
        T = int(rng.integers(3, 8))
        cases.append(Case(f"{bug or 'correct'}-{i}", (Ref("forward"), Ref("step"), Ref("new_cache"),
                                                        rng.integers(0, 7, size=T)),
                          setup=_cache3_setup(int(rng.integers(1_000_000)), bug), kind=bug or "correct"))
    # drawn after the older kinds, so their draws stay as they were
    T = int(rng.integers(3, 8))
    cases.append(Case("forward-reads-the-future", (Ref("forward"), Ref("step"), Ref("new_cache"),
                                                   rng.integers(0, 7, size=T)),
                      setup=_unmasked_setup(int(rng.integers(1_000_000))), kind="forward-reads-the-future"))
    return cases


EXERCISES = [
    exercise(
        id="cache-1", function="continue_padded", points=2,
        title="Continuing a right-padded batch",
        reference="grading.references.continue_padded",
        forbidden=("lib.checks.incremental_forward",), forbidden_methods=("forward",),
        public=_cache1_public, hidden=_cache1_hidden,
        hidden_kinds={
            "batch": Kind("a random model and a batch of random texts", like="three-lengths"),
            "one-row": Kind("a random model and a single row (no padding)", like="no-padding"),
            "full": Kind("a random model, one row whose real prefix fills the position table (must raise)", like="table-full"),
        },
    ),
    exercise(
        id="cache-2", function="attention_step", points=3,
        title="A cached step from scratch",
        reference="grading.references.attention_step",
        forbidden=("lib.model.AttentionModel", "lib.model.KVCache", "lib.checks.incremental_forward",
                   "lib.attention.multi_head_attention", "lib.attention.multi_head_attention_forward",
                   "lib.model._attend_step"),
        public=_cache2_public, hidden=_cache2_hidden,
        hidden_kinds={
            "step": Kind("random widths, numbers of heads and stored positions", like="three-stored"),
            "large": Kind("random large scores (hundreds)", like="large-scores"),
        },
    ),
    exercise(
        id="cache-3", function="cache_error", points=2,
        title="The cache and the full forward pass",
        reference="grading.references.cache_error", forbidden=("lib.checks.cache_error", "lib.checks.incremental_forward"),
        public=_cache3_public, hidden=_cache3_hidden,
        hidden_kinds={
            "correct": Kind("a random model with a correct cache", like="correct-cache"),
            "reset": Kind("a random model, the position always reset to 0", like="position-reset-to-0"),
            "shift": Kind("a random model, the position off by one", like="position-shifted"),
            "local": Kind("a random model whose new query reads only itself", like="reads-only-itself"),
            "first": Kind("a random model whose step is wrong at position 0 only", like="first-output-wrong"),
            "forward-reads-the-future": Kind("a random model with a correct cache, its full forward pass run "
                                             "without the mask", like="forward-reads-the-future"),
        },
    ),
]
