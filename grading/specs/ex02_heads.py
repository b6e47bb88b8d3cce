"""Exercise set 2 (§2, heads): heads-1, heads-2, heads-3, cost-1."""

import numpy as np

from lib import attention

from .. import references
from ..registry import Kind, L, exercise
from ..values import Case

NOTEBOOK = "ex02_heads"


# ---- heads-1: split_heads(x, n_heads) ------------------------------------------

def _heads1_public():
    rng = np.random.default_rng(21)
    return [
        Case("labels-1x3x4", (np.arange(12).reshape(1, 3, 4), 2),
             label=L("带编号的输入 (1, 3, 4)，2 个头", "numbered input (1, 3, 4), 2 heads",
                     "пронумерованный вход (1, 3, 4), 2 головы")),
        Case("batch-2x3x6-three-heads", (rng.normal(size=(2, 3, 6)), 3),
             label=L("批量 (2, 3, 6)，3 个头", "a batch (2, 3, 6), 3 heads", "батч (2, 3, 6), 3 головы")),
        Case("batch-2x5x8", (rng.normal(size=(2, 5, 8)), 2),
             label=L("批量 (2, 5, 8)，2 个头", "a batch (2, 5, 8), 2 heads", "батч (2, 5, 8), 2 головы")),
        Case("unbatched-4x6", (rng.normal(size=(4, 6)), 2),
             label=L("没有批量轴的 (4, 6)", "no batch axis, (4, 6)", "без оси батча, (4, 6)")),
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
    return cases


# ---- heads-2: merge_heads(x) -----------------------------------------------------

def _heads2_public():
    rng = np.random.default_rng(22)
    return [
        Case("labels-1x2x3x2", (np.arange(12).reshape(1, 2, 3, 2),),
             label=L("带编号的输入 (1, 2, 3, 2)", "numbered input (1, 2, 3, 2)", "пронумерованный вход (1, 2, 3, 2)")),
        Case("batch-2x2x3x4", (rng.normal(size=(2, 2, 3, 4)),),
             label=L("批量 (2, 2, 3, 4)", "a batch (2, 2, 3, 4)", "батч (2, 2, 3, 4)")),
        Case("three-heads", (rng.normal(size=(1, 3, 4, 2)),), label=L("3 个头", "three heads", "три головы")),
        Case("one-sequence-3d", (rng.normal(size=(2, 3, 2)),),
             label=L("没有批量轴的 (H, T, d) = (2, 3, 2)，如缓存步骤中那样", "no batch axis, (H, T, d) = (2, 3, 2), "
                     "as in a cached step", "без оси батча, (H, T, d) = (2, 3, 2), как в шаге с кэшем")),
        Case("two-batch-axes-5d", (rng.normal(size=(2, 1, 2, 3, 2)),),
             label=L("两个批量轴 (2, 1, 2, 3, 2)", "two batch axes (2, 1, 2, 3, 2)", "две оси батча (2, 1, 2, 3, 2)")),
        Case("too-few-axes", (np.zeros((3, 4)),),
             label=L("只有两个轴的输入", "an input with only two axes", "вход всего с двумя осями")),
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
             label=L("本节的例子（BOS 和 春）", "the section's example (BOS and 春)", "пример из раздела (BOS и 春)")),
        Case("random-2x4x6-three-heads", _random_mha_args(rng, 2, 4, 6, 3),
             label=L("随机输入 (2, 4, 6)，3 个头", "random input (2, 4, 6), 3 heads", "случайный вход (2, 4, 6), 3 головы")),
        Case("one-head", _random_mha_args(rng, 1, 3, 4, 1), label=L("只有一个头", "a single head", "одна голова")),
        Case("width-not-divisible", _random_mha_args(rng, 1, 3, 6, 4),
             label=L("宽度 6 不能被 4 个头整除", "width 6 not divisible by 4 heads", "ширина 6 не делится на 4 головы")),
    ]


def _heads3_hidden(rng):
    cases = []
    for i in range(5):
        H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        cases.append(Case(f"mha-{i}", _random_mha_args(rng, int(rng.integers(1, 3)), int(rng.integers(1, 6)), H * d, H),
                          kind="random"))
    cases.append(Case("width-not-divisible", _random_mha_args(rng, 1, 2, 5, 2), kind="not-divisible"))
    return cases


_NUMBERED = L("带编号的随机大小输入（可以看出每个元素去了哪里）", "numbered input of random size (shows where every entry goes)",
              "пронумерованный вход случайного размера (видно, куда попадает каждый элемент)")

# ---- cost-1: attention_costs(batch, length, width, n_heads, n_layers, dtype) ---------

def _cost1_public():
    return [
        Case("gpt2-small", (1, 1024, 768, 12, 12, "float32"),
             label=L("§5.6 的例子：12 层，D = 768，H = 12，T = 1024，float32",
                     "the example of §5.6: 12 layers, D = 768, H = 12, T = 1024, float32",
                     "пример из §5.6: 12 слоёв, D = 768, H = 12, T = 1024, float32")),
        Case("chapter-model", (1, 8, 4, 2, 1, "float64"),
             label=L("本章的模型：1 层，D = 4，H = 2，T = 8，float64",
                     "the chapter's model: 1 layer, D = 4, H = 2, T = 8, float64",
                     "модель из раздела: 1 слой, D = 4, H = 2, T = 8, float64")),
        Case("batch-float16", (8, 512, 512, 8, 6, "float16"),
             label=L("批量 B = 8，6 层，float16", "a batch of B = 8, 6 layers, float16", "батч B = 8, 6 слоёв, float16")),
        Case("one-head", (8, 512, 512, 1, 6, "float16"),
             label=L("同样的模型，只有 1 个头", "the same model with a single head", "та же модель с одной головой")),
        Case("not-divisible", (1, 16, 10, 4, 2, "float32"),
             label=L("D = 10 不能被 H = 4 整除（应当报错）", "D = 10 is not divisible by H = 4 (must raise)",
                     "D = 10 не делится на H = 4 (должна быть ошибка)")),
        Case("no-layers", (1, 16, 8, 2, 0, "float32"),
             label=L("0 层（应当报错）", "0 layers (must raise)", "0 слоёв (должна быть ошибка)")),
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
        title=L("修好拆分", "Fix the split", "Исправьте разбиение"),
        reference=attention.split_heads,
        public=_heads1_public, hidden=_heads1_hidden,
        hidden_kinds={
            "numbered": Kind(_NUMBERED, like="labels-1x3x4"),
            "random": Kind(L("随机批量与随机头数", "random batches and numbers of heads",
                             "случайные батчи и число голов"), like="batch-2x3x6-three-heads"),
            "other-ranks": Kind(L("没有批量轴或有两个批量轴的随机输入", "random inputs with no batch axis or two",
                                  "случайные входы без оси батча или с двумя осями"), like="unbatched-4x6"),
        },
    ),
    exercise(
        id="heads-2", function="merge_heads", points=2,
        title=L("合并头", "Merge the heads", "Склейте головы"),
        reference=attention.merge_heads,
        public=_heads2_public, hidden=_heads2_hidden,
        hidden_kinds={
            "numbered": Kind(_NUMBERED, like="labels-1x2x3x2"),
            "random": Kind(L("随机批量与随机头数", "random batches and numbers of heads",
                             "случайные батчи и число голов"), like="batch-2x2x3x4"),
            "other-ranks": Kind(L("没有批量轴或有两个批量轴的随机输入", "random inputs with no batch axis or two",
                                  "случайные входы без оси батча или с двумя осями"), like="one-sequence-3d"),
            "too-few-axes": Kind(L("只有两个轴的随机输入", "a random input with only two axes",
                                   "случайный вход всего с двумя осями"), like="too-few-axes"),
        },
    ),
    exercise(
        id="heads-3", function="multi_head_attention", points=3,
        title=L("因果多头注意力", "Causal multi-head attention", "Причинное многоголовое внимание"),
        reference=references.multi_head_causal,
        forbidden=("lib.attention.multi_head_attention", "lib.attention.split_heads", "lib.attention.merge_heads",
                   "lib.checks.attention_weights", "lib.checks.forward_with"),
        public=_heads3_public, hidden=_heads3_hidden,
        hidden_kinds={
            "random": Kind(L("随机输入、随机权重与随机头数", "random inputs, weights and numbers of heads",
                             "случайные входы, веса и число голов"), like="random-2x4x6-three-heads"),
            "not-divisible": Kind(L("宽度不能被头数整除", "a width not divisible by the number of heads",
                                    "ширина не делится на число голов"), like="width-not-divisible"),
        },
    ),
    exercise(
        id="cost-1", function="attention_costs", points=2,
        title=L("参数与 KV 缓存的字节数", "Parameters and KV-cache bytes", "Параметры и байты KV-кэша"),
        reference=references.attention_costs,
        forbidden=("lib.costs.head_costs", "lib.checks.kv_cache_bytes"),
        public=_cost1_public, hidden=_cost1_hidden,
        hidden_kinds={
            "random": Kind(L("随机的 B、T、D、H、层数与 dtype", "random B, T, D, H, numbers of layers and dtypes",
                             "случайные B, T, D, H, число слоёв и dtype"), like="batch-float16"),
            "not-divisible": Kind(L("宽度不能被头数整除（应当报错）",
                                    "a width not divisible by the number of heads (must raise)",
                                    "ширина не делится на число голов (должна быть ошибка)"), like="not-divisible"),
            "no-layers": Kind(L("0 层（应当报错）", "0 layers (must raise)", "0 слоёв (должна быть ошибка)"),
                              like="no-layers"),
        },
    ),
]
