"""Exercise set 3 (§3, positions): pos-1, pos-2, pos-3."""

import numpy as np

from lib import positions

from ..registry import Kind, exercise
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
             label="one sequence starting at position 0"),
        Case("batch", (np.array([[1, 3, 4, 2], [1, 4, 2, 2]]), E, P),
             label="a batch of two sequences"),
        Case("offset-3", (np.array([5, 5]), E, P), {"offset": 3},
             label="offset=3"),
        Case("last-rows", (np.array([1, 2, 0]), E, P, 5),
             label="the last rows of the position table (offset=5)"),
        Case("past-the-table", (np.array([1, 2, 0]), E, P, 6),
             label="positions past the table (offset=6, must raise)"),
        Case("negative-offset", (np.array([1, 2, 0]), E, P, -1),
             label="a negative offset, offset=-1 (must raise)"),
        # a slice offset:offset + T does not raise by itself: one past the end it is empty (and an empty row
        # block broadcasts against one token), and with offset + T < 0 it is a valid block at the table's end
        Case("one-token-past-the-table", (np.array([2]), E, P, len(P)),
             label="a single token one position past the table (offset=8, must raise)"),
        Case("negative-offset-inside-the-table", (np.array([1, 2]), E, P, -4),
             label="offset=-4 with two tokens: rows 4 and 5 must not be read (must raise)"),
        Case("float32-tables", (np.array([1, 3]), E.astype(np.float32), P.astype(np.float32), 2),
             label="float32 tables: the result stays float32"),
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
    E, P = _tables(rng, 5, int(rng.integers(2, 6)), 3)
    T = int(rng.integers(1, len(P)))
    cases.append(Case("negative-offset", (rng.integers(0, 5, size=T), E, P),
                      {"offset": -int(rng.integers(1, len(P) - T + 1))}, kind="negative-offset"))
    # drawn after the older kinds, so their draws stay as they were
    E, P = _tables(rng, 5, int(rng.integers(2, 6)), 3)
    cases.append(Case("one-token-past-the-table", (rng.integers(0, 5, size=1), E, P), {"offset": len(P)},
                      kind="one-token-past-the-table"))
    E, P = _tables(rng, 5, int(rng.integers(3, 7)), 3)
    T = int(rng.integers(1, len(P) - 1))
    cases.append(Case("negative-offset-inside-the-table", (rng.integers(0, 5, size=T), E, P),
                      {"offset": -int(rng.integers(T + 1, len(P) + 1))}, kind="negative-offset-inside-the-table"))
    E, P = _tables(rng, 5, int(rng.integers(2, 6)), 3)
    T = int(rng.integers(1, len(P) + 1))
    cases.append(Case("float32-tables", (rng.integers(0, 5, size=T), E.astype(np.float32), P.astype(np.float32)),
                      {"offset": int(rng.integers(0, len(P) - T + 1))}, kind="float32"))
    return cases


# ---- pos-2: embed_backward(grad, ids, vocab_size, context_size, offset=0) --------

def _pos2_public():
    grad = np.array([[[1.0, 2.0], [0.5, 0.5]], [[-3.0, 1.0], [0.0, 1.0]]])       # (B=2, T=2, D=2)
    rng = np.random.default_rng(32)
    return [
        Case("two-sequences", (grad, np.array([[1, 3], [1, 4]]), 6, 4),
             label="two sequences sharing token 1"),
        Case("repeated-ids", (rng.normal(size=(4, 3)), np.array([2, 5, 2, 2]), 6, 5),
             label="one token three times"),
        Case("offset-2", (rng.normal(size=(3, 3)), np.array([1, 3, 4]), 6, 6), {"offset": 2},
             label="offset=2"),
        Case("past-the-table", (rng.normal(size=(3, 3)), np.array([1, 3, 4]), 6, 4), {"offset": 2},
             label="positions past the end of the position table (must raise)"),
        Case("negative-offset", (rng.normal(size=(2, 3)), np.array([1, 2]), 6, 6), {"offset": -3},
             label="a negative offset, offset=-3: rows 3 and 4 must not be written (must raise)"),
        Case("float32", (rng.normal(size=(2, 3, 2)).astype(np.float32), np.array([[1, 2, 1], [0, 1, 3]]), 5, 4),
             {"offset": 1}, label="a float32 gradient: both results float32"),
    ]


def _pos2_hidden(rng):
    cases = []
    for i in range(5):
        V, C, D = int(rng.integers(3, 8)), int(rng.integers(2, 9)), int(rng.integers(1, 5))
        T = int(rng.integers(1, C + 1))
        offset = int(rng.integers(0, C - T + 1))
        shape = (T,) if i % 2 else (int(rng.integers(1, 4)), T)
        ids = rng.integers(0, min(V, 3), size=shape)                  # few ids: repetitions are likely
        grad = rng.normal(size=shape + (D,))
        kind = "sequence" if i % 2 else "batch"
        if i == 4:
            grad, kind = grad.astype(np.float32), "float32"
        cases.append(Case(f"backward-{i}", (grad, ids, V, C), {"offset": offset}, kind=kind))
    C = int(rng.integers(2, 6))
    cases.append(Case("past-the-table", (rng.normal(size=(2, 3)), np.array([1, 1]), 4, C), {"offset": C - 1},
                      kind="past-the-table"))
    C = int(rng.integers(3, 7))
    T = int(rng.integers(1, C))
    # offset + T < 0: the slice offset:offset + T is then a valid block of rows at the end of the table,
    # so only an explicit check of the lower end raises
    cases.append(Case("negative-offset", (rng.normal(size=(T, 3)), rng.integers(0, 4, size=T), 4, C),
                      {"offset": -int(rng.integers(T + 1, C + 1))}, kind="negative-offset"))
    return cases


# ---- pos-3: last_row_swap_change(forward, ids, i, j) ------------------------------

def _pos3_public():
    no_pos = forward_setup(1, "no_positions")
    with_pos = forward_setup(1, "causal")
    ids = np.array([3, 5, 4, 6])
    return [
        Case("without-positions", (Ref("forward"), ids, 0, 1), setup=no_pos,
             label="a model without positions"),
        Case("with-positions", (Ref("forward"), ids, 0, 1), setup=with_pos,
             label="a model with positions"),
        Case("swap-0-and-2", (Ref("forward"), ids, 0, 2), setup=with_pos,
             label="swapping positions 0 and 2"),
        Case("equal-tokens", (Ref("forward"), np.array([3, 5, 3, 6]), 0, 2), setup=with_pos,
             label="swapping two equal tokens"),
        Case("batch", (Ref("forward"), np.array([[3, 5, 4, 6], [1, 2, 3, 4]]), 1, 2), setup=with_pos,
             label="a batch of two sequences"),
        Case("moves-the-last-query", (Ref("forward"), ids, 1, 3), setup=with_pos,
             label="j is the last position (must raise)"),
        Case("same-position", (Ref("forward"), ids, 1, 1), setup=with_pos,
             label="i equal to j (must raise)"),
        Case("last-position-counted-from-the-end", (Ref("forward"), ids, -1, 0), setup=with_pos,
             label="i=-1, the last position counted from the end (must raise)"),
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
    T = int(rng.integers(3, 9))
    other = int(rng.integers(0, T - 1))
    cases.append(Case("negative-index", (Ref("forward"), rng.integers(0, 7, size=T), -1, other),
                      setup=forward_setup(int(rng.integers(1_000_000)), "causal"), kind="negative-index"))
    return cases


EXERCISES = [
    exercise(
        id="pos-1", function="embed", points=1,
        title="Embedding with an offset",
        reference=positions.embed, answer="grading.references.embed", forbidden=("lib.model.AttentionModel",),
        public=_pos1_public, hidden=_pos1_hidden,
        hidden_kinds={
            "sequence": Kind("random tables, one sequence, a random offset", like="offset-3"),
            "batch": Kind("random tables, a batch, a random offset", like="batch"),
            "past-the-table": Kind("positions past the end of a random position table (must raise)",
                                   like="past-the-table"),
            "negative-offset": Kind("a random negative offset (must raise)", like="negative-offset"),
            "one-token-past-the-table": Kind("a single token one position past a random table (must raise)",
                                             like="one-token-past-the-table"),
            "negative-offset-inside-the-table": Kind("a random negative offset whose rows, counted from the end, "
                                                     "lie inside the table (must raise)",
                                                     like="negative-offset-inside-the-table"),
            "float32": Kind("random float32 tables, a random offset (the result stays float32)",
                            like="float32-tables"),
        },
    ),
    exercise(
        id="pos-2", function="embed_backward", points=2,
        title="The backward pass of the embedding, a scatter-add",
        reference=positions.embed_backward, answer="grading.references.embed_backward",
        forbidden=("lib.model.AttentionModel",),
        public=_pos2_public, hidden=_pos2_hidden,
        hidden_kinds={
            "sequence": Kind("one sequence with repeated tokens, a random offset",
                             like="repeated-ids"),
            "batch": Kind("a batch with repeated tokens, a random offset", like="two-sequences"),
            "past-the-table": Kind("positions past the end of a random position table (must raise)",
                                   like="past-the-table"),
            "float32": Kind("a random float32 gradient: both results float32", like="float32"),
            "negative-offset": Kind("a random negative offset (must raise)", like="negative-offset"),
        },
    ),
    exercise(
        id="pos-3", function="last_row_swap_change", points=3,
        title="A token-swap test",
        reference="grading.references.last_row_swap_change",
        public=_pos3_public, hidden=_pos3_hidden,
        hidden_kinds={
            "no_positions": Kind("a random model without positions, a random swap", like="without-positions"),
            "causal": Kind("a random model with positions, a random swap", like="with-positions"),
            "last-position": Kind("a swap involving the last position (must raise)",
                                  like="moves-the-last-query"),
            "same-position": Kind("i equal to j (must raise)", like="same-position"),
            "negative-index": Kind("i=-1, the last position counted from the end (must raise)",
                                   like="last-position-counted-from-the-end"),
        },
    ),
]
