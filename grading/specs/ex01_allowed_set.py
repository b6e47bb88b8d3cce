"""Exercise set 1 (§1, the allowed set and the data protocol): mask-1, mask-2, mask-3, data-1."""

import numpy as np

from lib import attention, data

from .. import references
from ..registry import Kind, L, exercise
from ..values import Case
from ._common import random_allowed, rng_scores

NOTEBOOK = "ex01_allowed_set"


# ---- mask-1: causal_allowed(tq, tk) -------------------------------------------

def _mask1_public():
    return [
        Case("one-position", (1, 1), label=L("一个位置", "a single position", "одна позиция")),
        Case("square-3", (3, 3), label=L("3 个查询、3 个键", "3 queries, 3 keys", "3 запроса, 3 ключа")),
        Case("two-queries-after-cache", (2, 5),
             label=L("缓存之后的 2 个查询（共 5 个键）", "2 queries after a cache (5 keys)",
                     "2 запроса после кэша (всего 5 ключей)")),
        Case("one-new-query", (1, 4), label=L("1 个新查询、4 个键", "one new query, 4 keys", "один новый запрос, 4 ключа")),
    ]


def _mask1_hidden(rng):
    cases = []
    for i in range(6):
        tk = int(rng.integers(1, 10))
        cases.append(Case(f"shape-{i}", (int(rng.integers(1, tk + 1)), tk), kind="shape"))
    return cases


# ---- mask-2: masked_softmax(scores, allowed) -----------------------------------

def _mask2_public():
    s = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 3.0]])
    return [
        Case("zeros-3x3", (np.zeros((3, 3)), ~attention.causal_future(3, 3)),
             label=L("全零分数，3×3 因果掩码", "zero scores, 3×3 causal mask", "нулевые оценки, причинная маска 3×3")),
        Case("after-cache-2x4", (s, ~attention.causal_future(2, 4)),
             label=L("缓存之后：2 个查询、4 个键", "after a cache: 2 queries, 4 keys",
                     "после кэша: 2 запроса, 4 ключа")),
        Case("large-scores", (np.array([[1000.0, 1000.0, -1000.0], [800.0, 1.0, 2.0]]), np.ones((2, 3), dtype=bool)),
             label=L("很大的分数（±1000）", "large scores (±1000)", "большие оценки (±1000)")),
        Case("batch-broadcast", (np.arange(18, dtype=np.float64).reshape(2, 3, 3) % 5 - 2.0,
                                 ~attention.causal_future(3, 3)),
             label=L("批量 (2, 3, 3) 共用一个掩码", "a batch (2, 3, 3) sharing one mask",
                     "батч (2, 3, 3) с одной маской на все последовательности")),
        Case("float32", (np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], dtype=np.float32),
                         np.array([[True, False, True], [False, True, True]])),
             label=L("float32 分数", "float32 scores", "оценки во float32")),
        Case("empty-row", (np.zeros((2, 2)), np.array([[True, True], [False, False]])),
             label=L("有一行不允许读取任何键", "a row that may read no key", "строка, в которой нельзя читать ни один ключ")),
        Case("large-forbidden-score", (np.array([[0.0, 1000.0, -1.0], [3.0, 0.0, 900.0]]),
                                       np.array([[True, False, True], [True, True, False]])),
             label=L("禁止位置上的分数远大于许可位置", "a forbidden score far above the allowed ones",
                     "запрещённая оценка намного больше разрешённых")),
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
    tiny_forbidden = good.copy()
    tiny_forbidden[0] = [1.0 - 1e-12, 1e-12, 0.0]  # the row sums to 1; the future is "below atol" but not 0
    zero_on_allowed = good.copy()
    zero_on_allowed[1] = [1.0, 0.0, 0.0]          # no finite scores give it, yet all four conditions hold
    return [
        Case("correct", (good, allowed), label=L("正确的权重", "correct weights", "правильные веса")),
        Case("softmax-then-zero", (zeroed, allowed),
             label=L("先 softmax 再置零（行和小于 1）", "softmax first, zeros after (rows sum to less than 1)",
                     "сначала softmax, потом обнуление (суммы строк меньше 1)")),
        Case("reads-the-future", (leaky, allowed),
             label=L("未来位置上有权重", "weights on future positions", "ненулевые веса на будущих позициях")),
        Case("negative-weight", (negative, allowed),
             label=L("有一个负权重（行和仍为 1）", "a negative weight (the row still sums to 1)",
                     "отрицательный вес (сумма строки по-прежнему 1)")),
        Case("rounding", (rounded, allowed),
             label=L("行和与 1 相差 1e-12（在容差之内）", "row sums off by 1e-12 (within the tolerance)",
                     "суммы строк отличаются от 1 на 1e-12 (в пределах допуска)")),
        Case("loose-atol", (loose, allowed), {"atol": 1e-3},
             label=L("放宽的容差 atol=1e-3", "a looser tolerance, atol=1e-3", "ослабленный допуск atol=1e-3")),
        Case("nan", (with_nan, allowed), label=L("权重中有 nan", "a nan among the weights", "nan среди весов")),
        Case("tiny-forbidden-weight", (tiny_forbidden, allowed),
             label=L("禁止位置上有 1e-12 的权重（应当判为无效）", "a weight of 1e-12 on a forbidden entry (invalid)",
                     "вес 1e-12 на запрещённой позиции (недопустимо)")),
        Case("zero-on-allowed-key", (zero_on_allowed, allowed),
             label=L("许可键上的权重恰好为 0：第 1 行为 [1, 0, 0]（应当通过）",
                     "an exact 0 on an allowed key: row 1 is [1, 0, 0] (passes)",
                     "ровно 0 на разрешённом ключе: строка 1 равна [1, 0, 0] (проверку проходит)")),
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
    return cases


# ---- data-1: collate(texts, vocab) -------------------------------------------------

_VOCAB = data.build_vocab(["春雨风"])          # <unk> <bos> <eos> 春 雨 风


def _data1_public():
    def case(name, texts, label):
        return Case(name, (texts, _VOCAB), label=label)
    return [
        case("section-example", ["春雨", "雨"], L("§1 的例子：[\"春雨\", \"雨\"]", "the example of §1: [\"春雨\", \"雨\"]",
                                                  "пример из §1: [\"春雨\", \"雨\"]")),
        case("one-text", ["风"], L("只有一条文本", "a single text", "один текст")),
        case("equal-lengths", ["春雨", "雨风"], L("长度相同，没有填充", "equal lengths, no padding",
                                                 "одинаковая длина, без дополнения")),
        case("unknown-character", ["雪春", "风"], L("词表之外的字符（<unk>）", "a character outside the vocabulary (<unk>)",
                                                   "символ вне словаря (<unk>)")),
        case("empty-text", ["春", ""], L("有一条空文本（应当报错）", "an empty text (must raise)",
                                        "пустой текст (должна быть ошибка)")),
        case("empty-batch", [], L("空批量（应当报错）", "an empty batch (must raise)", "пустой батч (должна быть ошибка)")),
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
    return cases


EXERCISES = [
    exercise(
        id="mask-1", function="causal_allowed", points=1,
        title=L("因果许可集合", "The causal allowed set", "Причинное множество разрешённых позиций"),
        reference=references.causal_allowed, forbidden=("lib.attention.causal_future",),
        public=_mask1_public, hidden=_mask1_hidden,
        hidden_kinds={"shape": Kind(L("随机大小，tq ≤ tk", "random sizes with tq ≤ tk", "случайные размеры, tq ≤ tk"),
                                    like="two-queries-after-cache")},
    ),
    exercise(
        id="mask-2", function="masked_softmax", points=2,
        title=L("在许可集合上归一化的 softmax", "Softmax over the allowed set", "Softmax по множеству разрешённых позиций"),
        reference=attention.masked_softmax, exact_zeros=True,
        forbidden=("lib.attention._exp_minus_row_max", "lib.attention._softmax_where"),
        public=_mask2_public, hidden=_mask2_hidden,
        hidden_kinds={
            "random": Kind(L("随机分数与随机许可集合", "random scores and random allowed sets",
                             "случайные оценки и случайные множества разрешённых позиций"), like="after-cache-2x4"),
            "random-float32": Kind(L("随机的 float32 分数", "random float32 scores", "случайные оценки во float32"),
                                   like="float32"),
            "large": Kind(L("随机的很大分数（数百）", "random large scores (hundreds)",
                            "случайные большие оценки (сотни)"), like="large-scores"),
            "causal": Kind(L("随机分数，缓存之后的因果掩码", "random scores with a causal mask after a cache",
                             "случайные оценки с причинной маской после кэша"), like="after-cache-2x4"),
            "empty-row": Kind(L("随机输入中有一行不允许读取任何键", "random input with a row that may read no key",
                                "случайный вход со строкой, в которой нельзя читать ни один ключ"), like="empty-row"),
            "large-forbidden": Kind(L("随机输入，禁止位置上的分数远大于许可位置",
                                      "random input with forbidden scores far above the allowed ones",
                                      "случайный вход, запрещённые оценки намного больше разрешённых"),
                                    like="large-forbidden-score"),
        },
    ),
    exercise(
        id="mask-3", function="is_valid_attention", points=3,
        title=L("检验注意力权重", "A check for attention weights", "Проверка весов внимания"),
        reference=references.is_valid_attention,
        public=_mask3_public, hidden=_mask3_hidden,
        hidden_kinds={
            "valid": Kind(L("随机的正确权重", "random correct weights", "случайные правильные веса"), like="correct"),
            "forbidden-mass": Kind(L("随机权重，某个禁止位置不为 0", "random weights with mass on a forbidden entry",
                                     "случайные веса, у одной запрещённой позиции вес не 0"), like="reads-the-future"),
            "row-scaled": Kind(L("随机权重，有一行的和不为 1", "random weights, one row not summing to 1",
                                 "случайные веса, одна строка в сумме не даёт 1"), like="softmax-then-zero"),
            "negative": Kind(L("随机权重，含一个负权重", "random weights with one negative weight",
                               "случайные веса с одним отрицательным весом"), like="negative-weight"),
            "tiny-forbidden": Kind(L("随机权重，某个禁止位置上的权重很小但不为 0",
                                     "random weights with a tiny non-zero weight on a forbidden entry",
                                     "случайные веса, на одной запрещённой позиции крошечный ненулевой вес"),
                                   like="tiny-forbidden-weight"),
        },
    ),
    exercise(
        id="data-1", function="collate", points=2,
        title=L("右填充的批量与计分目标", "A right-padded batch and its scored targets",
                "Батч с дополнением справа и учитываемые целевые метки"),
        reference=data.collate,
        public=_data1_public, hidden=_data1_hidden,
        hidden_kinds={
            "random": Kind(L("随机文本（长度不同，可能有词表之外的字符）",
                             "random texts (of different lengths, possibly with characters outside the vocabulary)",
                             "случайные тексты (разной длины, возможно, с символами вне словаря)"),
                           like="section-example"),
            "equal": Kind(L("长度相同的随机文本", "random texts of equal length", "случайные тексты одинаковой длины"),
                          like="equal-lengths"),
            "empty-text": Kind(L("随机文本中有一条空文本（应当报错）", "random texts, one of them empty (must raise)",
                                 "случайные тексты, один из них пустой (должна быть ошибка)"), like="empty-text"),
        },
    ),
]
