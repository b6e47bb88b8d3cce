"""Exercise set 1 (§1, the allowed set and the data protocol): mask-1, mask-2, mask-3, data-1."""

import numpy as np

from lib import attention, data

from ..registry import Kind, exercise
from ..values import Case
from ._common import random_allowed, rng_scores

NOTEBOOK = "ex01_allowed_set"


# ---- mask-1: causal_allowed(tq, tk) -------------------------------------------

def _mask1_public():
    return [
        Case("one-position", (1, 1), label="a single position"),
        Case("square-3", (3, 3), label="3 queries, 3 keys"),
        Case("two-queries-after-cache", (2, 5),
             label="2 queries after a cache (5 keys)"),
        Case("one-new-query", (1, 4), label="one new query, 4 keys"),
        # x[-tq:] with tq = 0 is x[0:], the whole array: a slice of a square mask returns tk rows here
        Case("no-query", (0, 3), label="no query yet, 3 keys: a (0, 3) array"),
    ]


def _mask1_hidden(rng):
    cases = []
    for i in range(6):
        tk = int(rng.integers(1, 10))
        cases.append(Case(f"shape-{i}", (int(rng.integers(1, tk + 1)), tk), kind="shape"))
    # drawn after the older kinds, so their draws stay as they were
    cases.append(Case("no-query", (0, int(rng.integers(1, 10))), kind="no-query"))
    return cases


# ---- mask-2: masked_softmax(scores, allowed) -----------------------------------

def _mask2_public():
    s = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 3.0]])
    return [
        Case("zeros-3x3", (np.zeros((3, 3)), ~attention.causal_future(3, 3)),
             label="zero scores, 3×3 causal mask"),
        Case("after-cache-2x4", (s, ~attention.causal_future(2, 4)),
             label="after a cache: 2 queries, 4 keys"),
        Case("large-scores", (np.array([[1000.0, 1000.0, -1000.0], [800.0, 1.0, 2.0]]), np.ones((2, 3), dtype=bool)),
             label="large scores (±1000)"),
        Case("batch-broadcast", (np.arange(18, dtype=np.float64).reshape(2, 3, 3) % 5 - 2.0,
                                 ~attention.causal_future(3, 3)),
             label="a batch (2, 3, 3) sharing one mask"),
        Case("float32", (np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], dtype=np.float32),
                         np.array([[True, False, True], [False, True, True]])),
             label="float32 scores"),
        Case("empty-row", (np.zeros((2, 2)), np.array([[True, True], [False, False]])),
             label="a row that may read no key (must raise)"),
        Case("large-forbidden-score", (np.array([[0.0, 1000.0, -1.0], [3.0, 0.0, 2.0]]),
                                       np.array([[True, False, True], [True, True, False]])),
             label="a forbidden score far above the allowed ones"),
        # a maximum over the whole array, not per row, leaves row 1 a thousand below it: exp underflows to 0
        Case("rows-far-apart", (np.array([[1000.0, 999.0, 998.0], [0.0, 1.0, 2.0]]), np.ones((2, 3), dtype=bool)),
             label="one row's scores a thousand above the other's"),
    ]


def _mask2_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(2, 4))))
        dtype = np.float32 if i == 3 else np.float64
        scale = 400.0 if i == 4 else 3.0
        kind = {3: "random-float32", 4: "large"}.get(i, "random")
        cases.append(Case(f"random-{i}", (rng_scores(rng, shape, scale, dtype), random_allowed(rng, shape)), kind=kind))
    tq = int(rng.integers(1, 5))
    tk = int(rng.integers(tq, 7))
    cases.append(Case("causal", (rng_scores(rng, (2, tq, tk)), ~attention.causal_future(tq, tk)), kind="causal"))
    allowed = random_allowed(rng, (3, 4))
    allowed[int(rng.integers(3))] = False
    cases.append(Case("empty-row", (rng_scores(rng, (3, 4)), allowed), kind="empty-row"))
    allowed = random_allowed(rng, (3, 5))
    allowed[:, 0] = True
    allowed[:, 1] = False
    scores = rng_scores(rng, (3, 5))
    scores[:, 1] = rng.uniform(800, 1000, size=3)                  # far above every allowed score
    cases.append(Case("large-forbidden", (scores, allowed), kind="large-forbidden"))
    # drawn after the older kinds, so their draws stay as they were
    shape = (int(rng.integers(2, 5)), int(rng.integers(2, 6)))
    scores = rng_scores(rng, shape)
    scores[int(rng.integers(shape[0]))] += rng.uniform(800, 1000)   # one row far above the others
    cases.append(Case("rows-far-apart", (scores, random_allowed(rng, shape)), kind="rows-far-apart"))
    return cases


# ---- mask-3: is_valid_attention(weights, allowed, atol) --------------------------

def _softmax_rows(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _mask3_public():
    allowed = ~attention.causal_future(3, 3)
    good = attention.masked_softmax(np.zeros((3, 3)), allowed)
    zeroed = np.where(allowed, _softmax_rows(np.zeros((3, 3))), 0.0)   # softmax first, zeros after
    leaky = _softmax_rows(np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]))
    negative = np.array([[1.0, 0.0, 0.0], [1.5, -0.5, 0.0], [0.2, 0.3, 0.5]])
    rounded = good + np.array([[1e-12, 0, 0], [0, 1e-12, 0], [0, 0, 1e-12]])
    loose = np.array([[1.0, 0.0, 0.0], [0.4, 0.6001, 0.0], [0.3, 0.3, 0.4]])
    with_nan = good.copy()
    with_nan[2, 1] = np.nan
    one_leak = good.copy()
    one_leak[1] = [0.5, 0.3, 0.2]                 # one future weight; the other future weights are 0
    tiny_forbidden = good.copy()
    tiny_forbidden[0] = [1.0 - 1e-12, 1e-12, 0.0]  # the row sums to 1; the future is "below atol" but not 0
    zero_on_allowed = good.copy()
    zero_on_allowed[1] = [1.0, 0.0, 0.0]          # no finite scores give it, yet all four conditions hold
    near_one = good + np.array([[1e-6, 0, 0], [0, 0, 0], [0, 0, 0]])   # off by 1e-6: np.isclose would accept it
    above_one = np.array([[1.0, 0.0, 0.0], [0.6, 0.6, 0.0], [0.3, 0.3, 0.4]])  # row 1 sums to 1.2
    exact = np.array([[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.25, 0.25, 0.5]])     # every row sums to exactly 1
    balanced = np.array([[1.0, 0.0, 0.0], [0.25, 0.25, 0.0], [0.5, 0.5, 0.5]])  # rows 1 and 2: 0.5 and 1.5, mean 1
    cancelling = good.copy()
    cancelling[0] = [1.0, 0.25, -0.25]            # the forbidden weights sum to 0, the row to 1
    negative_forbidden = good.copy()
    negative_forbidden[0] = [1.25, 0.0, -0.25]    # a negative forbidden weight, the row still sums to 1
    return [
        Case("correct", (good, allowed), label="correct weights"),
        Case("softmax-then-zero", (zeroed, allowed),
             label="softmax first, zeros after: rows sum to less than 1 (invalid)"),
        Case("reads-the-future", (leaky, allowed),
             label="weights on future positions (invalid)"),
        Case("one-future-weight", (one_leak, allowed),
             label="weight on one future position only, the other future weights 0 (invalid)"),
        Case("negative-weight", (negative, allowed),
             label="a negative weight, the row still sums to 1 (invalid)"),
        Case("rounding", (rounded, allowed),
             label="row sums off by 1e-12 (within the tolerance)"),
        Case("loose-atol", (loose, allowed), {"atol": 1e-3},
             label="a looser tolerance, atol=1e-3"),
        Case("nan", (with_nan, allowed), label="a NaN among the weights (invalid)"),
        Case("tiny-forbidden-weight", (tiny_forbidden, allowed),
             label="a weight of 1e-12 on a forbidden entry (invalid)"),
        Case("zero-on-allowed-key", (zero_on_allowed, allowed),
             label="an exact 0 on an allowed key: row 1 is [1, 0, 0] (valid)"),
        Case("row-sum-off-by-1e-6", (near_one, allowed),
             label="a row sum off by 1e-6, beyond atol=1e-9 (invalid)"),
        Case("row-sum-above-1", (above_one, allowed),
             label="a row summing to 1.2 (invalid)"),
        Case("exact-atol-0", (exact, allowed), {"atol": 0.0},
             label="rows summing to exactly 1, atol=0 (valid)"),
        Case("rows-half-and-one-and-a-half", (balanced, allowed),
             label="one row summing to 0.5, another to 1.5 (invalid)"),
        Case("forbidden-weights-cancel", (cancelling, allowed),
             label="forbidden weights of +0.25 and −0.25, summing to 0 (invalid)"),
        Case("negative-forbidden-weight", (negative_forbidden, allowed),
             label="a negative weight on a forbidden entry, the row still sums to 1 (invalid)"),
        # a max or min over the forbidden entries raises when there are none
        Case("nothing-forbidden", (np.array([[0.25, 0.25, 0.5], [0.5, 0.25, 0.25]]), np.ones((2, 3), bool)),
             label="every key allowed, no forbidden entry at all (valid)"),
        # sums over the wrong axis see 1 in every column here; the rows sum to 1, 0.75 and 1.25
        Case("columns-sum-to-1", (np.array([[0.5, 0.5, 0.0], [0.25, 0.25, 0.25], [0.25, 0.25, 0.75]]),
                                  np.ones((3, 3), bool)),
             label="every column sums to 1, two rows do not (invalid)"),
        # weights[~allowed] needs allowed of the weights' own shape: a (3, 3) mask cannot index (2, 3, 3) weights
        Case("batch-shared-mask", (np.stack([good, attention.masked_softmax(np.array(
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 1.0]]), allowed)]), allowed),
             label="a batch of two weight arrays (2, 3, 3) sharing one (3, 3) allowed set (valid)"),
    ]


def _mask3_hidden(rng):
    cases = []
    for i in range(8):
        tq = int(rng.integers(2, 5))
        tk = int(rng.integers(tq, 7))
        allowed = random_allowed(rng, (tq, tk)) if i % 2 else ~attention.causal_future(tq, tk)
        w = attention.masked_softmax(rng_scores(rng, (tq, tk)), allowed)
        bug, kind = i % 4, "valid"
        if i == 7:                                     # a tiny weight on a forbidden entry, the row still sums to 1
            allowed = ~attention.causal_future(tq, tk)     # tq >= 2: some entry is forbidden
            w = attention.masked_softmax(rng_scores(rng, (tq, tk)), allowed)
            forbidden = np.argwhere(~allowed)
            r, c = forbidden[int(rng.integers(len(forbidden)))]
            w[r, c] = 1e-12
            w[r, int(np.flatnonzero(allowed[r])[0])] -= 1e-12
            cases.append(Case(f"weights-{i}", (w, allowed), kind="tiny-forbidden"))
            continue
        if i == 5:                                     # one row sum off by a little more than atol, either way
            r = int(rng.integers(tq))
            w[r, int(np.flatnonzero(allowed[r])[0])] += float(rng.choice([-1, 1])) * rng.uniform(1e-7, 1e-5)
            cases.append(Case(f"weights-{i}", (w, allowed), kind="near-one"))
            continue
        if bug == 1:                                   # mass moved into a forbidden entry
            forbidden = np.argwhere(~allowed)
            if len(forbidden):
                r, c = forbidden[int(rng.integers(len(forbidden)))]
                w[r, c] = 0.1
                w[r] *= 1 / w[r].sum()
                kind = "forbidden-mass"
        elif bug == 2:                                 # one row scaled
            w[int(rng.integers(tq))] *= 0.9
            kind = "row-scaled"
        elif bug == 3:                                 # a negative weight, the row still sums to 1
            r = int(rng.integers(tq))
            cols = np.flatnonzero(allowed[r])
            if len(cols) >= 2:
                w[r, cols[1]] += w[r, cols[0]] + 0.05
                w[r, cols[0]] = -0.05
                kind = "negative"
        cases.append(Case(f"weights-{i}", (w, allowed), kind=kind))
    # two rows off in opposite directions: the mean row sum is still 1
    tq = int(rng.integers(2, 5))
    allowed = ~attention.causal_future(tq, tq)
    w = attention.masked_softmax(rng_scores(rng, (tq, tq)), allowed)
    up, down = (int(r) for r in rng.choice(tq, size=2, replace=False))
    scale = float(rng.uniform(0.1, 0.5))
    w[up] *= 1 + scale                                  # the rows of w sum to 1
    w[down] *= 1 - scale
    cases.append(Case("weights-opposite", (w, allowed), kind="opposite-rows"))
    # multiples of 2^-20 summing to exactly 1 (every partial sum is exact), atol=0: exact weights are valid
    tq = int(rng.integers(2, 5))
    w = np.zeros((tq, tq))
    for r in range(tq):
        cuts = np.sort(rng.integers(0, 2 ** 20 + 1, size=r))
        w[r, :r + 1] = np.diff(np.concatenate([[0], cuts, [2 ** 20]])) / 2 ** 20
    cases.append(Case("weights-exact", (w, ~attention.causal_future(tq, tq)), {"atol": 0.0}, kind="exact-atol-0"))
    # drawn after the older kinds, so their draws stay as they were
    # negative forbidden weights: a +v and a -v in one row (the forbidden weights sum to 0), then a -v alone
    for name in ("weights-cancel", "weights-negative-forbidden"):
        tq = int(rng.integers(3, 6))                    # row 0 has tq - 1 >= 2 forbidden entries
        allowed = ~attention.causal_future(tq, tq)
        w = attention.masked_softmax(rng_scores(rng, (tq, tq)), allowed)
        r = int(rng.integers(tq - 2))                    # a row with two forbidden entries or more
        plus, minus = (int(c) for c in rng.choice(np.flatnonzero(~allowed[r]), size=2, replace=False))
        v = float(rng.uniform(0.05, 0.5))
        w[r, minus] = -v
        if name == "weights-cancel":
            w[r, plus] = v
        else:
            w[r, int(rng.integers(r + 1))] += v         # on an allowed key: the row still sums to 1
        cases.append(Case(name, (w, allowed), kind="forbidden-negative"))
    tq, tk = int(rng.integers(1, 4)), int(rng.integers(1, 6))
    allowed = np.ones((tq, tk), bool)
    cases.append(Case("nothing-forbidden", (attention.masked_softmax(rng_scores(rng, (tq, tk)), allowed), allowed),
                      kind="nothing-forbidden"))
    n = int(rng.integers(2, 5))                          # the transpose of valid weights: columns sum to 1
    allowed = np.ones((n, n), bool)
    w = attention.masked_softmax(rng_scores(rng, (n, n)), allowed).T
    if np.all(np.abs(w.sum(axis=-1) - 1) <= 1e-9):       # a doubly stochastic draw (never, in practice)
        w = np.array([[0.75, 0.75], [0.25, 0.25]])
    cases.append(Case("columns-sum-to-1", (w, np.ones(w.shape, bool)), kind="columns-sum-to-1"))
    B, tq = int(rng.integers(2, 4)), int(rng.integers(2, 5))
    allowed = ~attention.causal_future(tq, tq)
    cases.append(Case("batch-shared-mask", (attention.masked_softmax(rng_scores(rng, (B, tq, tq)), allowed), allowed),
                      kind="batch-shared-mask"))
    return cases


# ---- data-1: collate(texts, vocab) -------------------------------------------------

_VOCAB = data.build_vocab(["春雨风"])          # <unk> <bos> <eos> 春 雨 风


def _data1_public():
    def case(name, texts, label):
        return Case(name, (texts, _VOCAB), label=label)
    return [
        case("section-example", ["春雨", "雨"], "the example of §1: [\"春雨\", \"雨\"]"),
        case("one-text", ["风"], "a single text"),
        case("equal-lengths", ["春雨", "雨风"], "equal lengths, no padding"),
        case("unknown-character", ["雪春", "风"], "a character outside the vocabulary (<unk>)"),
        case("lengths-2-1-3", ["春雨", "雨", "春雨风"], "texts of lengths 2, 1, 3, kept in this order"),
        case("empty-text", ["春", ""], "an empty text (must raise)"),
        case("empty-batch", [], "an empty batch (must raise)"),
    ]


def _texts(rng, n, lengths):
    chars = list("春雨风雪")                        # 雪 is outside the vocabulary
    return ["".join(rng.choice(chars, size=int(k))) for k in lengths[:n]]


def _data1_hidden(rng):
    cases = []
    for i in range(5):
        B = int(rng.integers(1, 5))
        cases.append(Case(f"random-{i}", (_texts(rng, B, rng.integers(1, 7, size=B)), _VOCAB), kind="random"))
    B, k = int(rng.integers(2, 5)), int(rng.integers(1, 6))
    cases.append(Case("equal", (_texts(rng, B, [k] * B), _VOCAB), kind="equal"))
    texts = _texts(rng, 3, rng.integers(1, 6, size=3))
    texts[int(rng.integers(3))] = ""
    cases.append(Case("empty-text", (texts, _VOCAB), kind="empty-text"))
    # drawn after the older kinds, so their draws stay as they were
    # three different lengths, neither shortest first nor longest first: sorting the batch changes its rows
    a, b, c = sorted(int(k) for k in rng.choice(np.arange(1, 7), size=3, replace=False))
    orders = [(b, a, c), (a, c, b), (b, c, a), (c, a, b)]
    cases.append(Case("unsorted", (_texts(rng, 3, list(orders[int(rng.integers(4))])), _VOCAB), kind="unsorted"))
    return cases


EXERCISES = [
    exercise(
        id="mask-1", function="causal_allowed", points=1,
        title="The causal allowed set",
        reference="grading.references.causal_allowed",
        forbidden=("lib.attention.causal_future", "lib.attention.causal_allowed"),
        public=_mask1_public, hidden=_mask1_hidden,
        hidden_kinds={"shape": Kind("random sizes with tq ≤ tk",
                                    like="two-queries-after-cache"),
                      "no-query": Kind("no query, a random number of keys", like="no-query")},
    ),
    exercise(
        id="mask-2", function="masked_softmax", points=2,
        title="Softmax over the allowed set",
        reference=attention.masked_softmax, answer="grading.references.masked_softmax", exact_zeros=True,
        public=_mask2_public, hidden=_mask2_hidden,
        hidden_kinds={
            "random": Kind("random scores and random allowed sets", like="after-cache-2x4"),
            "random-float32": Kind("random float32 scores",
                                   like="float32"),
            "large": Kind("random large scores (hundreds)", like="large-scores"),
            "causal": Kind("random scores with a causal mask after a cache", like="after-cache-2x4"),
            "empty-row": Kind("random input with a row that may read no key (must raise)", like="empty-row"),
            "large-forbidden": Kind("random input with forbidden scores far above the allowed ones",
                                    like="large-forbidden-score"),
            "rows-far-apart": Kind("random scores with one row hundreds above the others", like="rows-far-apart"),
        },
    ),
    exercise(
        id="mask-3", function="is_valid_attention", points=3,
        title="A check for attention weights",
        reference="grading.references.is_valid_attention",
        public=_mask3_public, hidden=_mask3_hidden,
        hidden_kinds={
            "valid": Kind("random correct weights", like="correct"),
            "forbidden-mass": Kind("random weights with mass on a forbidden entry", like="reads-the-future"),
            "row-scaled": Kind("random weights, one row not summing to 1", like="softmax-then-zero"),
            "negative": Kind("random weights with one negative weight", like="negative-weight"),
            "tiny-forbidden": Kind("random weights with a tiny non-zero weight on a forbidden entry",
                                   like="tiny-forbidden-weight"),
            "near-one": Kind("random weights, one row sum off by a little more than atol",
                             like="row-sum-off-by-1e-6"),
            "opposite-rows": Kind("random weights, one row sum too large and another too small by as much",
                                  like="rows-half-and-one-and-a-half"),
            "exact-atol-0": Kind("random weights summing to exactly 1, atol=0 (valid)", like="exact-atol-0"),
            "forbidden-negative": Kind("random weights with a negative weight on a forbidden entry, alone or "
                                       "cancelling a positive one", like="forbidden-weights-cancel"),
            "nothing-forbidden": Kind("random correct weights where every key is allowed", like="nothing-forbidden"),
            "columns-sum-to-1": Kind("random weights whose columns sum to 1 and rows do not (invalid)",
                                     like="columns-sum-to-1"),
            "batch-shared-mask": Kind("a random batch of correct weights sharing one allowed set (valid)",
                                      like="batch-shared-mask"),
        },
    ),
    exercise(
        id="data-1", function="collate", points=2,
        title="A right-padded batch and its scored targets",
        reference=data.collate, answer="grading.references.collate",
        public=_data1_public, hidden=_data1_hidden,
        hidden_kinds={
            "random": Kind("random texts (of different lengths, possibly with characters outside the vocabulary)",
                           like="section-example"),
            "equal": Kind("random texts of equal length",
                          like="equal-lengths"),
            "empty-text": Kind("random texts, one of them empty (must raise)", like="empty-text"),
            "unsorted": Kind("random texts of three lengths, in neither shortest-first nor longest-first order",
                             like="lengths-2-1-3"),
        },
    ),
]
