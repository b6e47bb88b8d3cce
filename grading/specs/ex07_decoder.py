"""Exercise set 7 (§7, the small decoder trained in NumPy): dec-1 ... dec-4."""

import numpy as np

from lib import attention, layers

from .. import references
from ..registry import Kind, L, exercise, setup_code
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
             label=L("3×3 因果掩码下的均匀权重", "uniform weights under a 3×3 causal mask",
                     "равномерные веса при причинной маске 3×3")),
        Case("after-cache-2x4", (rng.normal(size=(2, 4)), after),
             label=L("缓存之后：2 个查询、4 个键", "after a cache: 2 queries, 4 keys", "после кэша: 2 запроса, 4 ключа")),
        Case("batch", (rng.normal(size=(2, 3, 5)), batch), label=L("批量 (2, 3, 5)", "a batch (2, 3, 5)", "батч (2, 3, 5)")),
        Case("float32", (rng.normal(size=(3, 4)).astype(np.float32), w32),
             label=L("float32 权重", "float32 weights", "веса во float32")),
        Case("one-allowed-key", (rng.normal(size=(2, 3)), one_key),
             label=L("有一行只允许读取一个键", "a row that may read one key only", "строка, в которой можно читать только один ключ")),
        Case("shape-mismatch", (np.ones((2, 3)), uniform),
             label=L("两个数组形状不同（应当报错）", "arrays of different shapes (must raise)",
                     "массивы разной формы (должна быть ошибка)")),
        Case("broadcastable-shapes", (np.ones((1, 3)), uniform),
             label=L("形状 (1, 3) 与 (3, 3)：可以广播，但仍应报错", "shapes (1, 3) and (3, 3): they broadcast, "
                     "yet must raise", "формы (1, 3) и (3, 3): транслируются, но должна быть ошибка")),
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
             label=L("两行，增益为 1", "two rows, gain 1", "две строки, коэффициент усиления 1")),
        Case("batch-with-gain", (rng.normal(size=(2, 3, 5)), 3 * rng.normal(size=(2, 3, 5)) + 1,
                                 rng.normal(size=5)),
             label=L("批量 (2, 3, 5)，随机增益", "a batch (2, 3, 5) with a random gain",
                     "батч (2, 3, 5) со случайным коэффициентом усиления")),
        Case("float32", (rng.normal(size=(3, 6)).astype(np.float32), rng.normal(size=(3, 6)).astype(np.float32),
                         rng.normal(size=6).astype(np.float32)),
             label=L("float32 输入", "a float32 input", "вход во float32")),
        Case("eps", (rng.normal(size=(2, 4)), rng.normal(size=(2, 4)), rng.normal(size=4)), {"eps": 0.5},
             label=L("eps=0.5", "eps=0.5", "eps=0.5")),
        Case("one-position", (rng.normal(size=(1, 3)), rng.normal(size=(1, 3)), rng.normal(size=3)),
             label=L("只有一个位置", "a single position", "одна позиция")),
        Case("gain-of-wrong-width", (np.ones((2, 4)), rng.normal(size=(2, 4)), np.ones(3)),
             label=L("增益的宽度不对（应当报错）", "a gain of the wrong width (must raise)",
                     "коэффициент усиления не той ширины (должна быть ошибка)")),
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
    return cases


# ---- dec-3: decoder_step(model, token, keys, values) ---------------------------------

def _decoder_setup(seed, prefix, n_layers=2, n_heads=2, width=8):
    return setup_code("from grading import models as m",
                      f"model = m.random_decoder({int(seed)}, n_layers={n_layers}, n_heads={n_heads}, width={width})",
                      f"keys, values = m.decoder_prefix(model, {[int(t) for t in prefix]})")


def _dec3_public():
    args = (Ref("model"), 4, Ref("keys"), Ref("values"))
    return [
        Case("first-token", args, setup=_decoder_setup(73, []),
             label=L("第一个词元（缓存为空）", "the first token (empty caches)", "первый токен (кэши пусты)")),
        Case("three-stored", args, setup=_decoder_setup(73, [1, 3, 5]),
             label=L("每层已存 3 个位置", "3 positions stored in every layer", "в каждом слое уже 3 позиции")),
        Case("one-layer", args, setup=_decoder_setup(73, [1, 3], n_layers=1),
             label=L("只有一层", "a single layer", "один слой")),
        Case("three-layers-four-heads", args, setup=_decoder_setup(73, [1, 3, 5, 6], n_layers=3, n_heads=4),
             label=L("3 层、4 个头", "3 layers, 4 heads", "3 слоя, 4 головы")),
        Case("last-row", args, setup=_decoder_setup(73, [1, 3, 5, 6, 2, 2, 4]),
             label=L("用到位置表的最后一行", "the last row of the position table", "последняя строка таблицы позиций")),
        Case("past-the-table", args, setup=_decoder_setup(73, [1, 3, 5, 6, 2, 2, 4, 4]),
             label=L("位置超出位置表（应当报错）", "a position past the table (must raise)",
                     "позиция за концом таблицы (должна быть ошибка)")),
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
             label=L("去掉掩码来运行", "run without the mask", "запуск без маски")),
        Case("cheater-run-with-the-mask", args, setup=_diagnose_setup(cheater, "masked"),
             label=L("作弊训练的模型，带掩码运行", "the cheater's weights run with the mask",
                     "веса, обученные без маски, запуск с маской")),
        Case("masked-model", args, setup=_diagnose_setup(masked, "masked"),
             label=L("带掩码训练、带掩码运行", "trained and run with the mask", "обучена и запущена с маской")),
        Case("one-leaky-block", args, setup=_diagnose_setup(masked, "leaky-block-1"),
             label=L("只有一个块去掉了掩码", "one block without the mask", "маска снята только в одном блоке")),
        Case("attention-writes-nothing", args, setup=_diagnose_setup("m.deaf_decoder(74)", "masked"),
             label=L("注意力什么也不写", "attention that writes nothing", "внимание, которое ничего не записывает")),
        Case("batch", (Ref("model"), Ref("forward"), np.stack([_MIRROR_IDS, _MIRROR_IDS[::-1]]), 2),
             setup=_diagnose_setup(masked, "leaky-block-0"),
             label=L("两个序列的批量", "a batch of two sequences", "батч из двух последовательностей")),
        Case("prefix-0", (Ref("model"), Ref("forward"), _MIRROR_IDS, 0), setup=_diagnose_setup(masked, "masked"),
             label=L("prefix_length=0（应当报错）", "prefix_length=0 (must raise)",
                     "prefix_length=0 (должна быть ошибка)")),
        Case("prefix-T", (Ref("model"), Ref("forward"), _MIRROR_IDS, len(_MIRROR_IDS)),
             setup=_diagnose_setup(masked, "masked"),
             label=L("prefix_length=T=8（应当报错）", "prefix_length=T=8 (must raise)",
                     "prefix_length=T=8 (должна быть ошибка)")),
        Case("zeros-in-the-future", (Ref("model"), Ref("forward"), np.array([1, 3, 5, 0, 0, 0]), 3),
             setup=_diagnose_setup("m.random_decoder(75)", "unmasked"),
             label=L("未来的词元都是 0，去掉掩码来运行", "future tokens all 0, run without the mask",
                     "все будущие токены равны 0, запуск без маски")),
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
    trained = str(rng.choice(["masked", "unmasked"]))
    how = str(rng.choice(["masked", "unmasked"]))
    cases.append(Case(f"handed-over-{trained}-run-{how}", (Ref("model"), Ref("forward"), _MIRROR_IDS,
                                                           int(rng.integers(1, 8))),
                      setup=_diagnose_setup(f"m.handed_over_decoder({trained!r})", how), kind="handed-over"))
    T = int(rng.integers(2, 9))
    cases.append(Case("prefix-T", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T), T),
                      setup=_diagnose_setup(f"m.random_decoder({int(rng.integers(1_000_000))})", "masked"),
                      kind="prefix-T"))
    return cases


EXERCISES = [
    exercise(
        id="dec-1", function="masked_softmax_backward", points=1,
        title=L("掩码 softmax 的反向传播", "The backward pass of the masked softmax",
                "Обратный проход маскированного softmax"),
        reference=layers.masked_softmax_backward, exact_zeros=True,
        public=_dec1_public, hidden=_dec1_hidden,
        hidden_kinds={
            "random": Kind(L("随机形状、随机许可集合", "random shapes and allowed sets",
                             "случайные формы и множества разрешённых позиций"), like="batch"),
            "random-float32": Kind(L("随机的 float32 权重", "random float32 weights", "случайные веса во float32"),
                                   like="float32"),
            "causal": Kind(L("缓存之后的因果掩码", "a causal mask after a cache", "причинная маска после кэша"),
                           like="after-cache-2x4"),
            "shape-mismatch": Kind(L("形状不同的随机数组（应当报错）", "random arrays of different shapes (must raise)",
                                     "случайные массивы разной формы (должна быть ошибка)"), like="shape-mismatch"),
            "broadcastable": Kind(L("形状不同但可以广播的随机数组（应当报错）",
                                    "random arrays of different shapes that broadcast (must raise)",
                                    "случайные массивы разной формы, которые транслируются (должна быть ошибка)"),
                                  like="broadcastable-shapes"),
        },
    ),
    exercise(
        id="dec-2", function="layer_norm_backward", points=2,
        title=L("层归一化的反向传播", "The backward pass of layer normalisation", "Обратный проход нормализации слоя"),
        reference=references.layer_norm_backward, forbidden=("lib.layers.layer_norm_backward",),
        public=_dec2_public, hidden=_dec2_hidden,
        hidden_kinds={
            "random": Kind(L("随机的均值、尺度、形状和增益", "random means, scales, shapes and gains",
                             "случайные средние, масштабы, формы и коэффициенты усиления"), like="batch-with-gain"),
            "float32": Kind(L("随机的 float32 输入", "a random float32 input", "случайный вход во float32"),
                            like="float32"),
            "eps": Kind(L("随机的 eps", "a random eps", "случайный eps"), like="eps"),
            "gain-of-wrong-width": Kind(L("增益的宽度不对（应当报错）", "a gain of the wrong width (must raise)",
                                          "коэффициент усиления не той ширины (должна быть ошибка)"),
                                        like="gain-of-wrong-width"),
        },
    ),
    exercise(
        id="dec-3", function="decoder_step", points=3,
        title=L("逐层 KV 缓存的一步", "One step with a KV cache in every layer", "Шаг с KV-кэшем в каждом слое"),
        reference=references.decoder_step, forbidden_methods=("step", "block_step"),
        public=_dec3_public, hidden=_dec3_hidden,
        hidden_kinds={
            "step": Kind(L("随机的层数、头数、宽度和缓存长度", "random numbers of layers, heads, widths and stored positions",
                           "случайные число слоёв, голов, ширина и число позиций в кэше"),
                         like="three-layers-four-heads"),
            "past-the-table": Kind(L("随机模型，位置超出位置表（应当报错）", "a random model, a position past the table (must raise)",
                                     "случайная модель, позиция за концом таблицы (должна быть ошибка)"),
                                   like="past-the-table"),
        },
    ),
    exercise(
        id="dec-4", function="diagnose", points=3,
        title=L("诊断交来的模型", "Diagnosing a model handed over as weights", "Диагностика переданной модели"),
        reference=references.diagnose,
        public=_dec4_public, hidden=_dec4_hidden,
        hidden_kinds={
            "masked": Kind(L("随机解码器，带掩码运行", "a random decoder run with the mask",
                             "случайный декодер, запуск с маской"), like="masked-model"),
            "unmasked": Kind(L("随机解码器，去掉掩码运行", "a random decoder run without the mask",
                               "случайный декодер, запуск без маски"), like="run-without-the-mask"),
            "leaky-block": Kind(L("随机解码器，只有一个块去掉了掩码", "a random decoder with one block without the mask",
                                  "случайный декодер, маска снята в одном блоке"), like="one-leaky-block"),
            "deaf": Kind(L("注意力什么也不写的随机解码器", "a random decoder whose attention writes nothing",
                           "случайный декодер, внимание которого ничего не записывает"),
                         like="attention-writes-nothing"),
            "handed-over": Kind(L("交来的训练好的模型，以随机方式运行", "the handed-over trained weights, run either way",
                                  "переданные обученные веса, запущенные тем или иным способом"),
                                like="cheater-run-with-the-mask"),
            "prefix-T": Kind(L("prefix_length 等于 T（应当报错）", "prefix_length equal to T (must raise)",
                               "prefix_length равно T (должна быть ошибка)"), like="prefix-T"),
        },
    ),
]
