"""Exercise set 5 (§5, the KV cache): cache-1, cache-2, cache-3."""

import numpy as np

from lib.data import build_vocab, collate

from .. import references
from ..registry import Kind, L, exercise
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
             L("§5.7 的例子：“雨”和“春雨”后面各接一个“风”", "the example of §5.7: 风 after 雨 and after 春雨",
               "пример из §5.7: 风 после 雨 и после 春雨")),
        case("no-padding", ["春雨风"], [4], L("一行，没有填充", "one row without padding", "одна строка без дополнения")),
        case("three-lengths", ["风", "春雨风雨", "雨春"], [3, 4, 5],
             L("三行，长度各不相同", "three rows of different lengths", "три строки разной длины")),
        case("unknown-character", ["雪", "春雪风"], [1, 2],
             L("词表之外的字符（<unk>）", "characters outside the vocabulary (<unk>)",
               "символы вне словаря (<unk>)")),
        case("table-full", ["春雨风春雨风春"], [3],
             L("真实前缀占满了位置表（应当报错）", "the real prefix fills the position table (must raise)",
               "настоящий префикс занимает всю таблицу позиций (должна быть ошибка)")),
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
             label=L("本节的例子（BOS 之后的 春）", "the section's example (春 after BOS)", "пример из раздела (春 после BOS)")),
        Case("first-token", _step_args(rng, 0, 6, 2),
             label=L("第一个词元（缓存为空）", "the first token (an empty cache)", "первый токен (кэш пуст)")),
        Case("three-stored", _step_args(rng, 3, 6, 3),
             label=L("缓存里已有 3 个位置，3 个头", "3 stored positions, 3 heads", "в кэше 3 позиции, 3 головы")),
        Case("one-head", _step_args(rng, 2, 4, 1), label=L("只有一个头", "a single head", "одна голова")),
    ]


def _cache2_hidden(rng):
    cases = []
    for i in range(5):
        H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        cases.append(Case(f"step-{i}", _step_args(rng, int(rng.integers(0, 6)), H * d, H), kind="step"))
    return cases


# ---- cache-3: cache_error(forward, step, new_cache, ids) ----------------------------

def _cache3_setup(seed, bug):
    step = "model.step" if bug is None else f"m.buggy_step(model, {bug!r})"
    return model_setup(seed, "forward = model.forward", f"step = {step}", "new_cache = model.new_cache")


def _cache3_public():
    args = (Ref("forward"), Ref("step"), Ref("new_cache"), np.array([1, 3, 4, 5, 2]))
    return [
        Case("correct-cache", args, setup=_cache3_setup(8, None),
             label=L("正确的缓存", "a correct cache", "правильный кэш")),
        Case("position-reset-to-0", args, setup=_cache3_setup(8, "reset"),
             label=L("位置总被重置为 0", "the position always reset to 0", "позиция всегда сбрасывается в 0")),
        Case("position-shifted", args, setup=_cache3_setup(8, "shift"),
             label=L("位置多偏移了 1", "the position off by one", "позиция смещена на 1")),
        Case("reads-only-itself", args, setup=_cache3_setup(8, "local"),
             label=L("新查询只读取它自己", "the new query reads only itself", "новый запрос читает только себя")),
        Case("one-token", args[:3] + (np.array([1]),), setup=_cache3_setup(8, None),
             label=L("只有一个词元", "a single token", "один токен")),
    ]


def _cache3_hidden(rng):
    cases = []
    for i, bug in enumerate((None, "reset", "shift", "local", None)):
        T = int(rng.integers(3, 8))
        cases.append(Case(f"{bug or 'correct'}-{i}", (Ref("forward"), Ref("step"), Ref("new_cache"),
                                                        rng.integers(0, 7, size=T)),
                          setup=_cache3_setup(int(rng.integers(1_000_000)), bug), kind=bug or "correct"))
    return cases


EXERCISES = [
    exercise(
        id="cache-1", function="continue_padded", points=2,
        title=L("续写右填充的批量", "Continuing a right-padded batch", "Продолжение батча с дополнением справа"),
        reference=references.continue_padded,
        forbidden=("lib.checks.incremental_forward",), forbidden_methods=("forward",),
        public=_cache1_public, hidden=_cache1_hidden,
        hidden_kinds={
            "batch": Kind(L("随机模型，随机文本组成的批量", "a random model and a batch of random texts",
                            "случайная модель и батч из случайных текстов"), like="three-lengths"),
            "one-row": Kind(L("随机模型，只有一行（没有填充）", "a random model and a single row (no padding)",
                              "случайная модель и одна строка (без дополнения)"), like="no-padding"),
            "full": Kind(L("随机模型，有一行的真实前缀占满了位置表（应当报错）",
                           "a random model, one row whose real prefix fills the position table (must raise)",
                           "случайная модель, настоящий префикс одной строки занимает всю таблицу позиций "
                           "(должна быть ошибка)"), like="table-full"),
        },
    ),
    exercise(
        id="cache-2", function="attention_step", points=3,
        title=L("从零写一个缓存步骤", "A cached step from scratch", "Шаг с кэшем, написанный с нуля"),
        reference=references.attention_step,
        forbidden=("lib.model.AttentionModel", "lib.model.KVCache", "lib.checks.incremental_forward",
                   "lib.attention.multi_head_attention"),
        public=_cache2_public, hidden=_cache2_hidden,
        hidden_kinds={
            "step": Kind(L("随机宽度、随机头数、缓存里有随机数量的位置",
                           "random widths, numbers of heads and stored positions",
                           "случайные ширина, число голов и число позиций в кэше"), like="three-stored"),
        },
    ),
    exercise(
        id="cache-3", function="cache_error", points=2,
        title=L("缓存与完整前向传播的对照检验", "The cache checked against the full forward pass",
                "Сверка кэша с полным прямым проходом"),
        reference=references.cache_error, forbidden=("lib.checks.cache_error", "lib.checks.incremental_forward"),
        public=_cache3_public, hidden=_cache3_hidden,
        hidden_kinds={
            "correct": Kind(L("随机模型，正确的缓存", "a random model with a correct cache",
                              "случайная модель с правильным кэшем"), like="correct-cache"),
            "reset": Kind(L("随机模型，位置总被重置为 0", "a random model, the position always reset to 0",
                            "случайная модель, позиция всегда сбрасывается в 0"), like="position-reset-to-0"),
            "shift": Kind(L("随机模型，位置多偏移了 1", "a random model, the position off by one",
                            "случайная модель, позиция смещена на 1"), like="position-shifted"),
            "local": Kind(L("随机模型，新查询只读取它自己", "a random model whose new query reads only itself",
                            "случайная модель, новый запрос читает только себя"), like="reads-only-itself"),
        },
    ),
]
