"""Exercise set 6 (§6, evidence): evidence-1, an independent check in plain Python."""

import numpy as np

from .. import references
from ..registry import Kind, L, exercise
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
             label=L("§6.1 的手算例子（<bos> 春，两个头）", "the hand computation of §6.1 (<bos> 春, two heads)",
                     "ручной расчёт из §6.1 (<bos> 春, две головы)")),
        Case("one-position", _lists(rng, 1, 3, 1),
             label=L("只有一个位置，一个头", "a single position and a single head", "одна позиция и одна голова")),
        Case("three-heads", _lists(rng, 4, 6, 3),
             label=L("随机权重，T = 4，D = 6，3 个头", "random weights, T = 4, D = 6, 3 heads",
                     "случайные веса, T = 4, D = 6, 3 головы")),
        Case("no-mask", _lists(rng, 3, 4, 2), {"causal": False},
             label=L("关掉掩码（causal=False）", "the mask off (causal=False)", "маска выключена (causal=False)")),
        Case("width-not-divisible", _lists(rng, 2, 5, 2),
             label=L("D = 5 不能被 H = 2 整除（应当报错）", "D = 5 is not divisible by H = 2 (must raise)",
                     "D = 5 не делится на H = 2 (должна быть ошибка)")),
    ]


def _evidence1_hidden(rng):
    cases = []
    for i in range(6):
        H, d, T = int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 6))
        causal = bool(i % 3)
        cases.append(Case(f"random-{i}", _lists(rng, T, H * d, H), {"causal": causal},
                          kind="causal" if causal else "no-mask"))
    H = int(rng.integers(2, 4))
    cases.append(Case("not-divisible", _lists(rng, 2, H * 2 + 1, H), kind="not-divisible"))
    return cases


EXERCISES = [
    exercise(
        id="evidence-1", function="attention_py", points=4,
        title=L("用纯 Python 独立核对", "An independent check in plain Python",
                "Независимая проверка на чистом Python"),
        reference=references.attention_py, forbidden_modules=("numpy", "lib"),
        public=_evidence1_public, hidden=_evidence1_hidden,
        hidden_kinds={
            "causal": Kind(L("随机大小与随机权重，带因果掩码", "random sizes and weights, with the causal mask",
                             "случайные размеры и веса, с причинной маской"), like="three-heads"),
            "no-mask": Kind(L("随机大小与随机权重，关掉掩码", "random sizes and weights, with the mask off",
                              "случайные размеры и веса, маска выключена"), like="no-mask"),
            "not-divisible": Kind(L("宽度不能被头数整除（应当报错）",
                                    "a width not divisible by the number of heads (must raise)",
                                    "ширина не делится на число голов (должна быть ошибка)"),
                                  like="width-not-divisible"),
        },
    ),
]
