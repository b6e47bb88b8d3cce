"""Exercise set 3 (§3, positions): pos-1, pos-2, pos-3."""

import numpy as np

from lib import positions

from .. import references
from ..registry import Kind, L, exercise
from ..values import Case, Ref
from ._common import forward_setup

NOTEBOOK = "ex03_positions"


# ---- pos-1: embed(ids, token_table, position_table, offset=0) -------------------

def _tables(rng, V=6, C=8, D=4):
    return rng.normal(size=(V, D)), rng.normal(size=(C, D))


def _pos1_public():
    E, P = _tables(np.random.default_rng(31))
    return [
        Case("ids-from-0", (np.array([1, 3, 4]), E, P),
             label=L("一个序列，从位置 0 开始", "one sequence starting at position 0",
                     "одна последовательность с позиции 0")),
        Case("batch", (np.array([[1, 3, 4, 2], [1, 4, 2, 2]]), E, P),
             label=L("两个序列的批量", "a batch of two sequences", "батч из двух последовательностей")),
        Case("offset-3", (np.array([5, 5]), E, P), {"offset": 3},
             label=L("偏移量 offset=3", "offset=3", "смещение offset=3")),
        Case("last-rows", (np.array([1, 2, 0]), E, P, 5),
             label=L("用到位置表的最后几行（offset=5）", "the last rows of the position table (offset=5)",
                     "последние строки таблицы позиций (offset=5)")),
        Case("past-the-table", (np.array([1, 2, 0]), E, P, 6),
             label=L("位置超出位置表（offset=6，应当报错）", "positions past the table (offset=6, must raise)",
                     "позиции за концом таблицы (offset=6, должна быть ошибка)")),
    ]


def _pos1_hidden(rng):
    cases = []
    for i in range(5):
        V, C, D = int(rng.integers(3, 9)), int(rng.integers(2, 10)), int(rng.integers(1, 6))
        E, P = _tables(rng, V, C, D)
        T = int(rng.integers(1, C + 1))
        offset = int(rng.integers(0, C - T + 1))
        shape = (T,) if i % 2 else (int(rng.integers(1, 4)), T)
        cases.append(Case(f"embed-{i}", (rng.integers(0, V, size=shape), E, P), {"offset": offset},
                          kind="sequence" if i % 2 else "batch"))
    E, P = _tables(rng, 5, int(rng.integers(2, 6)), 3)
    T = int(rng.integers(1, len(P) + 1))
    cases.append(Case("past-the-table", (rng.integers(0, 5, size=T), E, P),
                      {"offset": len(P) - T + int(rng.integers(1, 3))}, kind="past-the-table"))
    return cases


# ---- pos-2: embed_backward(grad, ids, vocab_size, context_size, offset=0) --------

def _pos2_public():
    grad = np.array([[[1.0, 2.0], [0.5, 0.5]], [[-3.0, 1.0], [0.0, 1.0]]])       # (B=2, T=2, D=2)
    rng = np.random.default_rng(32)
    return [
        Case("two-sequences", (grad, np.array([[1, 3], [1, 4]]), 6, 4),
             label=L("两个序列共用词元 1", "two sequences sharing token 1", "две последовательности с общим токеном 1")),
        Case("repeated-ids", (rng.normal(size=(4, 3)), np.array([2, 5, 2, 2]), 6, 5),
             label=L("同一个词元出现三次", "one token three times", "один токен три раза")),
        Case("offset-2", (rng.normal(size=(3, 3)), np.array([1, 3, 4]), 6, 6), {"offset": 2},
             label=L("偏移量 offset=2", "offset=2", "смещение offset=2")),
        Case("past-the-table", (rng.normal(size=(3, 3)), np.array([1, 3, 4]), 6, 4), {"offset": 2},
             label=L("位置超出位置表", "positions past the end of the position table",
                     "позиции за концом таблицы позиций")),
    ]


def _pos2_hidden(rng):
    cases = []
    for i in range(5):
        V, C, D = int(rng.integers(3, 8)), int(rng.integers(2, 9)), int(rng.integers(1, 5))
        T = int(rng.integers(1, C + 1))
        offset = int(rng.integers(0, C - T + 1))
        shape = (T,) if i % 2 else (int(rng.integers(1, 4)), T)
        ids = rng.integers(0, min(V, 3), size=shape)                  # few ids: repetitions are likely
        cases.append(Case(f"backward-{i}", (rng.normal(size=shape + (D,)), ids, V, C), {"offset": offset},
                          kind="sequence" if i % 2 else "batch"))
    C = int(rng.integers(2, 6))
    cases.append(Case("past-the-table", (rng.normal(size=(2, 3)), np.array([1, 1]), 4, C), {"offset": C - 1},
                      kind="past-the-table"))
    return cases


# ---- pos-3: last_row_swap_change(forward, ids, i, j) ------------------------------

def _pos3_public():
    no_pos = forward_setup(1, "no_positions")
    with_pos = forward_setup(1, "causal")
    ids = np.array([3, 5, 4, 6])
    return [
        Case("without-positions", (Ref("forward"), ids, 0, 1), setup=no_pos,
             label=L("没有位置的模型", "a model without positions", "модель без позиций")),
        Case("with-positions", (Ref("forward"), ids, 0, 1), setup=with_pos,
             label=L("带位置的模型", "a model with positions", "модель с позициями")),
        Case("swap-0-and-2", (Ref("forward"), ids, 0, 2), setup=with_pos,
             label=L("交换位置 0 与 2", "swapping positions 0 and 2", "перестановка позиций 0 и 2")),
        Case("equal-tokens", (Ref("forward"), np.array([3, 5, 3, 6]), 0, 2), setup=with_pos,
             label=L("交换两个相同的词元", "swapping two equal tokens", "перестановка двух одинаковых токенов")),
        Case("batch", (Ref("forward"), np.array([[3, 5, 4, 6], [1, 2, 3, 4]]), 1, 2), setup=with_pos,
             label=L("两个序列的批量", "a batch of two sequences", "батч из двух последовательностей")),
        Case("moves-the-last-query", (Ref("forward"), ids, 1, 3), setup=with_pos,
             label=L("j 是最后一个位置（应当报错）", "j is the last position (must raise)",
                     "j — последняя позиция (должна быть ошибка)")),
        Case("same-position", (Ref("forward"), ids, 1, 1), setup=with_pos,
             label=L("i 与 j 相同（应当报错）", "i equal to j (must raise)", "i равно j (должна быть ошибка)")),
    ]


def _pos3_hidden(rng):
    cases = []
    for i in range(6):
        seed = int(rng.integers(1_000_000))
        which = "causal" if i % 2 else "no_positions"
        T = int(rng.integers(3, 9))
        i_, j_ = (int(v) for v in rng.choice(T - 1, size=2, replace=False))
        cases.append(Case(f"swap-{i}", (Ref("forward"), rng.integers(0, 7, size=T), i_, j_),
                          setup=forward_setup(seed, which), kind=which))
    cases.append(Case("moves-the-last-query", (Ref("forward"), rng.integers(0, 7, size=5), 0, 4),
                      setup=forward_setup(int(rng.integers(1_000_000)), "causal"), kind="last-position"))
    same = int(rng.integers(0, 4))
    cases.append(Case("same-position", (Ref("forward"), rng.integers(0, 7, size=5), same, same),
                      setup=forward_setup(int(rng.integers(1_000_000)), "causal"), kind="same-position"))
    return cases


EXERCISES = [
    exercise(
        id="pos-1", function="embed", points=1,
        title=L("带偏移量的嵌入", "Embedding with an offset", "Эмбеддинг с учётом смещения (offset)"),
        reference=positions.embed, forbidden=("lib.model.AttentionModel",),
        public=_pos1_public, hidden=_pos1_hidden,
        hidden_kinds={
            "sequence": Kind(L("随机大小的表和一个序列，随机偏移量", "random tables, one sequence, a random offset",
                               "случайные таблицы, одна последовательность, случайное смещение"), like="offset-3"),
            "batch": Kind(L("随机大小的表和一个批量，随机偏移量", "random tables, a batch, a random offset",
                            "случайные таблицы, батч, случайное смещение"), like="batch"),
            "past-the-table": Kind(L("位置超出随机大小的位置表（应当报错）",
                                     "positions past the end of a random position table (must raise)",
                                     "позиции за концом случайной таблицы позиций (должна быть ошибка)"),
                                   like="past-the-table"),
        },
    ),
    exercise(
        id="pos-2", function="embed_backward", points=2,
        title=L("嵌入的反向：散射累加", "The embedding's backward: a scatter-add",
                "Обратный проход эмбеддинга: накопление по индексам"),
        reference=positions.embed_backward, forbidden=("lib.model.AttentionModel",),
        public=_pos2_public, hidden=_pos2_hidden,
        hidden_kinds={
            "sequence": Kind(L("一个序列，词元多次重复，随机偏移量", "one sequence with repeated tokens, a random offset",
                               "одна последовательность с повторами токенов, случайное смещение"),
                             like="repeated-ids"),
            "batch": Kind(L("一个批量，词元多次重复，随机偏移量", "a batch with repeated tokens, a random offset",
                            "батч с повторами токенов, случайное смещение"), like="two-sequences"),
            "past-the-table": Kind(L("位置超出随机大小的位置表", "positions past the end of a random position table",
                                     "позиции за концом случайной таблицы позиций"), like="past-the-table"),
        },
    ),
    exercise(
        id="pos-3", function="last_row_swap_change", points=3,
        title=L("交换两个词元的检验", "A token-swap test", "Проверка перестановкой токенов"),
        reference=references.last_row_swap_change,
        public=_pos3_public, hidden=_pos3_hidden,
        hidden_kinds={
            "no_positions": Kind(L("随机的无位置模型，随机交换", "a random model without positions, a random swap",
                                   "случайная модель без позиций, случайная перестановка"), like="without-positions"),
            "causal": Kind(L("随机的带位置模型，随机交换", "a random model with positions, a random swap",
                             "случайная модель с позициями, случайная перестановка"), like="with-positions"),
            "last-position": Kind(L("交换涉及最后一个位置（应当报错）", "a swap involving the last position (must raise)",
                                    "перестановка с участием последней позиции (должна быть ошибка)"),
                                  like="moves-the-last-query"),
            "same-position": Kind(L("i 与 j 相同（应当报错）", "i equal to j (must raise)",
                                    "i равно j (должна быть ошибка)"), like="same-position"),
        },
    ),
]
