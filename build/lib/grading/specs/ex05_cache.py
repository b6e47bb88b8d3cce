"""Exercise set 5 (§5, the KV cache): cache-1, cache-2, cache-3."""

import numpy as np

from .. import references
from ..registry import Kind, L, exercise
from ..values import Case, Ref
from ._common import model_setup

NOTEBOOK = "ex05_cache"


# ---- cache-1: step(model, token, cache) ------------------------------------------

def _cache_setup(seed, prefix):
    return model_setup(seed, "cache = model.new_cache()", f"for token in {list(int(t) for t in prefix)}:",
                       "    model.step(token, cache)")


def _cache1_public():
    args = (Ref("model"), 4, Ref("cache"))
    return [
        Case("empty-cache", args, setup=_cache_setup(7, []), label=L("空缓存", "an empty cache", "пустой кэш")),
        Case("three-stored", args, setup=_cache_setup(7, [1, 3, 5]),
             label=L("缓存里已有 3 个位置", "3 positions already stored", "в кэше уже 3 позиции")),
        Case("last-row", args, setup=_cache_setup(7, [1, 3, 5, 6, 2, 2, 4]),
             label=L("用到位置表的最后一行", "the last row of the position table", "последняя строка таблицы позиций")),
        Case("full-cache", args, setup=_cache_setup(7, [1, 3, 5, 6, 2, 2, 4, 4]),
             label=L("缓存已满（应当报错）", "a full cache (must raise)", "кэш заполнен (должна быть ошибка)")),
    ]


def _cache1_hidden(rng):
    cases = []
    for i in range(5):
        n = int(rng.integers(0, 8))
        cases.append(Case(f"step-{i}", (Ref("model"), int(rng.integers(0, 7)), Ref("cache")),
                          setup=_cache_setup(int(rng.integers(1_000_000)), rng.integers(0, 7, size=n)), kind="step"))
    cases.append(Case("full-cache", (Ref("model"), 1, Ref("cache")),
                      setup=_cache_setup(int(rng.integers(1_000_000)), rng.integers(0, 7, size=8)), kind="full"))
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
        id="cache-1", function="step", points=1,
        title=L("缓存步骤的位置", "The position of a cached step", "Позиция шага с кэшем"),
        reference=references.cached_step,
        public=_cache1_public, hidden=_cache1_hidden,
        hidden_kinds={
            "step": Kind(L("随机模型，缓存里有随机数量的位置", "a random model with a random number of stored positions",
                           "случайная модель, в кэше случайное число позиций"), like="three-stored"),
            "full": Kind(L("随机模型，缓存已满（应当报错）", "a random model with a full cache (must raise)",
                           "случайная модель с заполненным кэшем (должна быть ошибка)"), like="full-cache"),
        },
    ),
    exercise(
        id="cache-2", function="attention_step", points=2,
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
        id="cache-3", function="cache_error", points=3,
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
