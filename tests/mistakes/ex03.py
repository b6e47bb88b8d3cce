"""Wrong answers to exercise set 3 (pos-1, pos-2, pos-3)."""

from . import Entry, bug

_SWAP_HEAD = """
import numpy as np
"""

ENTRIES = [
    # ---- pos-1: embed(ids, token_table, position_table, offset=0) ---------------------
    Entry("pos-1", "offset-ignored", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset + T > len(position_table):
        raise ValueError("past the table")
    return token_table[ids] + position_table[:T]
""", "pos-1/no-offset"),
    Entry("pos-1", "offset-forgotten-no-check", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    return token_table[ids] + position_table[np.arange(np.shape(ids)[-1])]
""", "pos-1/no-offset"),
    Entry("pos-1", "wrapped-modulo", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    positions = (offset + np.arange(ids.shape[-1])) % len(position_table)
    return token_table[ids] + position_table[positions]
""", "pos-1/wrapped"),
    Entry("pos-1", "clipped", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    positions = np.clip(offset + np.arange(ids.shape[-1]), 0, len(position_table) - 1)
    return token_table[ids] + position_table[positions]
""", ('pos-1/clipped', 'pos-1/unchecked')),
    Entry("pos-1", "take-wrap", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    return token_table[ids] + np.take(position_table, offset + np.arange(ids.shape[-1]), axis=0, mode="wrap")
""", "pos-1/wrapped"),
    Entry("pos-1", "positions-by-token-id", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    return token_table[ids] + position_table[ids]
""", "pos-1/position-by-id"),
    Entry("pos-1", "slice-runs-short", """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    rows = position_table[offset:offset + T]
    if len(rows) < T:
        rows = np.concatenate([rows, np.zeros((T - len(rows), rows.shape[-1]))])
    return token_table[ids] + rows
""", 'pos-1/unchecked'),

    # ---- pos-2: embed_backward(grad, ids, vocab_size, context_size, offset=0) ---------------
    Entry("pos-2", "assignment-not-scatter-add", """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset + T > context_size:
        raise ValueError("outside")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", "pos-2/assignment"),
    Entry("pos-2", "plain-assignment", """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset + T > context_size:
        raise ValueError("outside")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] = grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", "pos-2/assignment"),
    Entry("pos-2", "position-from-last-sequence", """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset + T > context_size:
        raise ValueError("outside")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    for row in grad.reshape(-1, T, D):
        d_position[offset:offset + T] = row
    return d_token, d_position
""", "pos-2/last-sequence"),
    Entry("pos-2", "offset-ignored", """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset + T > context_size:
        raise ValueError("outside")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", "pos-2/no-offset"),
    Entry("pos-2", "wrapped-positions", """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    np.add.at(d_position, (offset + np.arange(T)) % context_size, grad.reshape(-1, T, D).sum(axis=0))
    return d_token, d_position
""", "pos-2/wrapped"),
    Entry("pos-2", "token-gradient-averaged", """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset + T > context_size:
        raise ValueError("outside")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    counts = np.zeros(vocab_size)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    np.add.at(counts, ids.reshape(-1), 1)
    d_token /= np.maximum(counts, 1)[:, None]
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", None),

    # ---- pos-3: last_row_swap_change(forward, ids, i, j) ---------------------------------
    Entry("pos-3", "whole-output", _SWAP_HEAD + """
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    if i == j or max(i, j) >= ids.shape[-1] - 1:
        raise ValueError("bad")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(ids) - forward(swapped))))
""", "pos-3/whole-output"),
    Entry("pos-3", "swap-with-itself-accepted", _SWAP_HEAD + """
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i and j must come before the last position")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", "pos-3/same-position"),
    Entry("pos-3", "last-position-accepted", _SWAP_HEAD + """
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    if i == j:
        raise ValueError("i == j")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", "pos-3/last-position"),
    Entry("pos-3", "signed-change", _SWAP_HEAD + """
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("bad positions")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]))
""", "pos-3/signed"),
    Entry("pos-3", "sum-of-changes", _SWAP_HEAD + """
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("bad positions")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]).sum())
""", "pos-3/sum"),
    Entry("pos-3", "swaps-rows-of-a-batch", _SWAP_HEAD + """
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("bad positions")
    swapped = ids.copy()
    swapped[[i, j]] = ids[[j, i]]
    return float(np.max(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", "pos-3/batch-rows"),
]


# ---- a fresh reader's answers (read84, tried with check() on 848591ba; not held out: tuned to) ------------
ENTRIES += [
    Entry('pos-3', 'read84-first-axis', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids); T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1): raise ValueError
    s = ids.copy(); s[[i, j]] = ids[[j, i]]
    return float(np.max(np.abs(forward(s)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/batch-rows',
          mistake='Indexes the first axis (s[[i, j]]): in a batch that swaps whole sequences, or raises IndexError '
                  'when i or j is not below the batch size.'),
]


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('pos-1', 'heldout-057', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    if offset < 0 or offset + T >= C:
        raise ValueError("位置超出位置表")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off by one in the bound check (>= instead of >): an input that exactly fills the position table is refused.', heldout=True),
    Entry('pos-1', 'heldout-058', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError(f"positions {offset}..{offset + T - 1} are outside the table")
    positions = np.arange(T)
    return token_table[ids] + position_table[positions]
""", 'pos-1/no-offset',
          mistake='Checks the range with the offset but looks up positions 0..T-1, so the offset is ignored in the sum.', heldout=True),
    Entry('pos-1', 'heldout-059', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = len(position_table)
    positions = (offset + np.arange(T)) % C   # позиции по кругу
    return token_table[ids] + position_table[positions]
""", 'pos-1/wrapped',
          mistake='Wraps positions around the table with % C instead of raising ValueError for positions outside it.', heldout=True),
    Entry('pos-1', 'heldout-060', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    positions = offset + np.arange(T)
    if positions[-1] >= len(position_table):
        raise ValueError("位置超出了位置表的行数")
    return token_table[ids] + position_table[positions]
""", '*/not-refused',
          mistake="Checks only the upper end; a negative offset is silently accepted and NumPy's negative indexing reads rows from the end of the table.", heldout=True),
    Entry('pos-1', 'heldout-061', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    if offset < 0:
        raise ValueError("offset must be non-negative")
    positions = np.minimum(np.arange(offset, offset + T), C - 1)
    return token_table[ids] + position_table[positions]
""", 'pos-1/clipped',
          mistake='Clamps positions past the table to its last row instead of raising ValueError.', heldout=True),
    Entry('pos-1', 'heldout-062', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    n = len(ids)
    if offset < 0 or offset + n > len(position_table):
        raise ValueError("позиции вне таблицы")
    return token_table[ids] + position_table[offset:offset + n]
""", 'pos-1/batch-length',
          mistake='Uses len(ids) as the sequence length, which is the batch size for a (B, T) input.', heldout=True),
    Entry('pos-2', 'heldout-063', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids] += grad
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] += grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Accumulates the token gradient with d_token[ids] += grad, which keeps only one contribution of a repeated id.', heldout=True),
    Entry('pos-2', 'heldout-064', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы позиций")
    grad3 = grad.reshape(-1, T, D)
    ids2 = ids.reshape(-1, T)
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    for b in range(ids2.shape[0]):
        for t in range(T):
            d_token[ids2[b, t]] += grad3[b, t]
        d_position[offset:offset + T] = grad3[b]     # строки позиций общие
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Assigns the position gradient of each sequence in a loop (= instead of +=), so only the last sequence of the batch survives.', heldout=True),
    Entry('pos-2', 'heldout-065', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出范围")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Writes the position gradient into rows 0..T-1, ignoring the offset.', heldout=True),
    Entry('pos-2', 'heldout-066', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside 0..C-1")
    d_token = np.zeros((vocab_size, D))
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D))
    np.add.at(d_position, offset + np.arange(T), grad.reshape(-1, T, D).sum(axis=0))
    return d_token, d_position
""", '*/dtype-promoted',
          mistake='Allocates the gradients with np.zeros and no dtype, so a float32 grad gives float64 gradients.', heldout=True),
    Entry('pos-2', 'heldout-067', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    D = grad.shape[-1]
    positions = offset + np.arange(ids.shape[-1])
    positions = np.broadcast_to(positions, ids.shape)
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids, grad)
    np.add.at(d_position, positions, grad)
    return d_token, d_position
""", 'pos-2/unchecked',
          mistake='No range check: NumPy indexing raises IndexError past the table and wraps a negative offset, instead of ValueError.', heldout=True),
    Entry('pos-2', 'heldout-068', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置不在 0 … C-1 之内")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.sum(axis=0)    # 对批次求和
    return d_token, d_position
""", 'pos-2/batch-axis-only',
          mistake='Sums grad over axis 0 assuming a batch axis: for 1-D ids that sums over positions and copies one row into every position.', heldout=True),
    Entry('pos-2', 'heldout-069', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("position outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = grad.reshape(-1, T, D).sum(axis=0)     # (T, D): one row per position used
    return d_token, d_position
""", None,
          mistake='Returns only the T position rows that were used, shape (T, D), instead of a gradient for the whole (C, D) table.', heldout=True),
    Entry('pos-3', 'heldout-070', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1) or not (0 <= j < T - 1):
        raise ValueError("i and j must be two different positions before the last")
    before = forward(ids)[..., -1, :]
    ids[..., [i, j]] = ids[..., [j, i]]
    after = forward(ids)[..., -1, :]
    return float(np.abs(after - before).max())
""", '*/argument-changed',
          mistake="Swaps the tokens in place in the caller's ids array instead of in a copy.", heldout=True),
    Entry('pos-3', 'heldout-071', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    swapped = ids.copy()
    swapped[..., i], swapped[..., j] = swapped[..., j], swapped[..., i]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/swap-overwrites',
          mistake='Swaps with Python tuple assignment on NumPy views, so both positions end up holding the token of j and nothing is really swapped.', heldout=True),
    Entry('pos-3', 'heldout-072', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T and 0 <= j < T):
        raise ValueError("i、j 必须是两个不同的有效位置")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    diff = forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]
    return float(np.max(np.abs(diff)))
""", 'pos-3/last-position',
          mistake='The range check allows the last position (0 <= i < T instead of < T - 1).', heldout=True),
    Entry('pos-3', 'heldout-073', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if max(i, j) >= T - 1 or min(i, j) < 0:
        raise ValueError("i and j must come before the last position")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/same-position',
          mistake='Never checks that i and j differ, so i == j returns 0.0 instead of raising ValueError.', heldout=True),
    Entry('pos-3', 'heldout-074', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("позиции i и j должны быть разными и раньше последней")
    swapped = ids.copy()
    swapped[..., [i, j]] = swapped[..., [j, i]]
    return float(np.max(np.abs(forward(swapped) - forward(ids))))
""", 'pos-3/whole-output',
          mistake='Measures the change of the whole output, every row, instead of the last row only.', heldout=True),
    Entry('pos-3', 'heldout-075', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i 和 j 必须是最后位置之前的两个不同位置")
    swapped = ids.copy()
    swapped[[i, j]] = ids[[j, i]]
    last_before = forward(ids)[..., -1, :]
    last_after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(last_after - last_before)))
""", 'pos-3/batch-rows',
          mistake='Swaps along the first axis (swapped[[i, j]]): right for one sequence, but in a batch it swaps whole sequences instead of tokens.', heldout=True),
    Entry('pos-3', 'heldout-076', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(after - before))
""", 'pos-3/signed',
          mistake='Forgets the absolute value and returns the largest signed change, which misses a change that is only negative.', heldout=True),
    Entry('pos-3', 'heldout-077', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or max(i, j) >= T - 1:
        raise ValueError("последнюю позицию менять нельзя")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/negative-index',
          mistake='Checks only the upper bound, so a negative index such as i = -1 (the last position itself) is accepted.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('pos-1', 'heldout3-051', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    if offset < 0 or offset + T >= C:
        raise ValueError(f"positions {offset}..{offset + T - 1} do not fit in C={C}")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off-by-one range check (>= instead of >): an input that exactly fills the position table is rejected.', heldout=True),
    Entry('pos-1', 'heldout3-052', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("位置超出了位置表")
    # 词向量 + 位置向量
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset when reading the position table (always rows 0..T-1); only the range check uses it.', heldout=True),
    Entry('pos-1', 'heldout3-053', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0:
        raise ValueError("offset < 0")
    C = len(position_table)
    # позиции за пределами таблицы берут последнюю строку
    pos = np.minimum(offset + np.arange(T), C - 1)
    return token_table[ids] + position_table[pos]
""", 'pos-1/clipped',
          mistake='Clamps positions past the table to the last row instead of raising ValueError.', heldout=True),
    Entry('pos-1', 'heldout3-054', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset + T > len(position_table):
        raise ValueError(f"position {offset + T - 1} is past the table")
    positions = offset + np.arange(T)          # absolute positions
    return token_table[ids] + position_table[positions]
""", '*/not-refused',
          mistake='Checks only the upper end of the table; a negative offset silently reads rows from the end of the table through negative indexing.', heldout=True),
    Entry('pos-1', 'heldout3-055', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    n = len(ids)          # длина последовательности
    if offset < 0 or offset + n > position_table.shape[0]:
        raise ValueError("нет такой строки в таблице позиций")
    return token_table[ids] + position_table[offset:offset + n]
""", 'pos-1/batch-length',
          mistake='Overwrites T with len(ids), which is the batch size for (B, T) input, so batches get the wrong position rows or fail to broadcast.', heldout=True),
    Entry('pos-1', 'heldout3-056', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0:
        raise ValueError("negative offset")
    # absolute positions; wrap so we never index past the table
    pos_rows = np.take(position_table, offset + np.arange(T), axis=0, mode="wrap")
    return token_table[ids] + pos_rows
""", 'pos-1/wrapped',
          mistake="Wraps positions around with mode='wrap' instead of raising past the end of the table.", heldout=True),
    Entry('pos-2', 'heldout3-057', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses fancy-index += for the token table, so a repeated id keeps only one of its contributions.', heldout=True),
    Entry('pos-2', 'heldout3-058', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出范围")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))   # 重复的 id 要累加
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 每条序列用的位置行都一样
    d_position[offset:offset + T] = grad.reshape(-1, T, D)[0]
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Takes the position gradient from the first sequence of the batch only instead of summing over the batch.', heldout=True),
    Entry('pos-2', 'heldout3-059', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции за пределами таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)   # сумма по батчу
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Writes the position gradient into rows 0..T-1, ignoring the offset.', heldout=True),
    Entry('pos-2', 'heldout3-060', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError(f"offset {offset} + T {T} outside C={context_size}")
    d_token = np.zeros((vocab_size, D))
    d_position = np.zeros((context_size, D))
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position[offset:offset + T] += grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/dtype-promoted',
          mistake="Allocates the gradients with np.zeros' default float64, so float32 upstream gradients give float64 results.", heldout=True),
    Entry('pos-2', 'heldout3-061', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset + T > context_size:
        raise ValueError("не хватает строк в таблице позиций")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    flat_ids = ids.reshape(-1)
    flat_grad = grad.reshape(-1, D)
    for r in range(len(flat_ids)):
        d_token[flat_ids[r]] += flat_grad[r]
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(0)
    return d_token, d_position
""", None,
          mistake='Checks only the upper end of the range, so a negative offset writes into rows at the end of the table instead of raising.', heldout=True),
    Entry('pos-2', 'heldout3-062', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出位置表")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 逐个元素累加
    for idx in np.ndindex(ids.shape):
        d_token[ids[idx]] += grad[idx]
        d_position[offset + idx[0]] += grad[idx]
    return d_token, d_position
""", '*/one-rank-only',
          mistake='Loop version that takes the position from idx[0] (the batch index for 2-D ids) instead of idx[-1], the time index.', heldout=True),
    Entry('pos-3', 'heldout3-063', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i and j must be two different positions before the last")

    swapped = ids.copy()
    swapped[..., i], swapped[..., j] = swapped[..., j], swapped[..., i]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/swap-overwrites',
          mistake='Swaps with the tuple idiom on NumPy views, which copies one token over the other instead of swapping them.', heldout=True),
    Entry('pos-3', 'heldout3-064', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]      # 交换两个词元
    y0 = forward(ids)[..., -1, :]
    y1 = forward(swapped)[..., -1, :]
    return float(np.abs(y1 - y0).max())
""", '*/not-refused',
          mistake='Never validates i and j, so swapping the last token or i == j returns a number instead of raising ValueError.', heldout=True),
    Entry('pos-3', 'heldout3-065', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i and j must be two different positions before the last")

    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    diff = forward(swapped) - forward(ids)     # все строки
    return float(np.max(np.abs(diff)))
""", 'pos-3/whole-output',
          mistake='Returns the largest change over all output rows instead of the last row only.', heldout=True),
    Entry('pos-3', 'heldout3-066', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T and 0 <= j < T):
        raise ValueError(f"bad positions i={i}, j={j}")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    last_before = forward(ids)[..., -1, :]
    last_after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(last_after - last_before)))
""", 'pos-3/last-position',
          mistake='Validates i and j against 0..T-1 instead of 0..T-2, so swapping the last token itself is allowed.', heldout=True),
    Entry('pos-3', 'heldout3-067', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i and j must be two different positions before the last")

    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    # 最后一行的最大变化
    return float(np.max(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]))
""", 'pos-3/signed',
          mistake='Takes the signed maximum of the difference without abs, so a change that is only negative is reported as 0 or less.', heldout=True),
    Entry('pos-3', 'heldout3-068', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i and j must be two different positions before the last")

    before = forward(ids)[..., -1, :]
    ids[..., [i, j]] = ids[..., [j, i]]       # меняем местами
    after = forward(ids)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Swaps the tokens in the caller's array in place (np.asarray makes no copy), so the function returns the right number but modifies its input.", heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('pos-1', 'heldout4-050', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("position outside the table")
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset when picking position rows: always uses rows 0 … T-1.', heldout=True),
    Entry('pos-1', 'heldout4-051', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    # 最后一个位置 offset + T 必须在表内
    if offset < 0 or offset + T >= C:
        raise ValueError(f"位置超出位置表（C={C}）")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off-by-one bound check (>= instead of >): an input that exactly fills the position table is refused.', heldout=True),
    Entry('pos-1', 'heldout4-052', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    # позиции за концом таблицы берём по модулю C
    pos = np.take(position_table, np.arange(offset, offset + T), axis=0, mode="wrap")
    return token_table[ids] + pos
""", 'pos-1/wrapped',
          mistake='Wraps positions past the table around modulo C instead of raising.', heldout=True),
    Entry('pos-1', 'heldout4-053', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = len(position_table)
    if offset < 0:
        raise ValueError("negative offset")
    positions = np.minimum(offset + np.arange(T), C - 1)   # stay inside the table
    return token_table[ids] + position_table[positions]
""", 'pos-1/clipped',
          mistake='Clamps positions past the table to the last row instead of raising, so two positions share a row.', heldout=True),
    Entry('pos-1', 'heldout4-054', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset + T > len(position_table) + 1:
        raise ValueError("太长了")
    # 切片越界时自动截断
    return token_table[ids] + position_table[offset:offset + T]
""", ('pos-1/unchecked', '*/not-refused'),
          mistake='Never checks for a negative offset and relies on slicing, so offset -1 or a single token just past the table silently yields an empty result instead of ValueError.', heldout=True),
    Entry('pos-1', 'heldout4-055', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = len(ids)
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("позиция вне таблицы позиций")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/batch-length',
          mistake='Takes T from len(ids), which is the batch size for a (B, T) input, so batched inputs break.', heldout=True),
    Entry('pos-2', 'heldout4-056', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses fancy-index += for the token table, which keeps only one contribution of a repeated id.', heldout=True),
    Entry('pos-2', 'heldout4-057', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出位置表")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 每个序列用的是同一组位置行
    d_position[offset:offset + T] = grad.reshape(-1, T, D)[0]
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Gives the position table only the gradient of the first sequence of the batch instead of summing over the batch.', heldout=True),
    Entry('pos-2', 'heldout4-058', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # накопление по позициям
    np.add.at(d_position, np.arange(T), grad.reshape(-1, T, D).sum(0))
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Forgets the offset for the position gradient: writes into rows 0 … T-1.', heldout=True),
    Entry('pos-2', 'heldout4-059', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("out of range")
    d_token = np.zeros((vocab_size, D))
    d_position = np.zeros((context_size, D))
    flat_ids, flat_grad = ids.reshape(-1), grad.reshape(-1, D)
    for i, g in zip(flat_ids, flat_grad):
        d_token[i] += g
    d_position[offset:offset + T] += grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/dtype-promoted',
          mistake="Allocates the gradient tables with np.zeros' default float64, so a float32 gradient comes back as float64.", heldout=True),
    Entry('pos-2', 'heldout4-060', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    D = grad.shape[-1]
    g = grad.reshape(-1, ids.shape[-1], D)       # (B, T, D)
    x = ids.reshape(-1, ids.shape[-1])           # (B, T)
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    for b in range(x.shape[0]):
        for t in range(x.shape[1]):
            d_token[x[b, t]] += g[b, t]
            d_position[offset + t] += g[b, t]     # 位置 offset + t
    return d_token, d_position
""", 'pos-2/unchecked',
          mistake='Loops over positions without any range check: past the table it fails with IndexError and a negative offset silently writes into the last rows (negative indexing), instead of raising ValueError.', heldout=True),
    Entry('pos-2', 'heldout4-061', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    B, T = ids.shape
    D = grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    for b in range(B):
        for t in range(T):
            d_token[ids[b, t]] += grad[b, t]
            d_position[offset + t] += grad[b, t]
    return d_token, d_position
""", '*/one-rank-only',
          mistake='Assumes a batch (B, T) and indexes ids[b, t]; a single sequence of shape (T,) fails.', heldout=True),
    Entry('pos-3', 'heldout4-062', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    before = forward(ids)[..., -1, :]
    ids[..., [i, j]] = ids[..., [j, i]]        # swap
    after = forward(ids)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Swaps the tokens in the caller's array in place (no copy), so the function modifies its input.", heldout=True),
    Entry('pos-3', 'heldout4-063', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i, j 必须是最后一个位置之前的两个不同位置")
    swapped = ids.copy()
    # 交换两个词元
    swapped[i], swapped[j] = ids[j].copy(), ids[i].copy()
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.abs(after - before).max())
""", 'pos-3/batch-rows',
          mistake='Swaps with the Python tuple idiom on the first axis, which for a batch (B, T) swaps whole sequences instead of positions.', heldout=True),
    Entry('pos-3', 'heldout4-064', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    swapped = ids.copy()
    swapped[..., i], swapped[..., j] = ids[..., j], ids[..., i]
    # последняя строка выхода
    diff = forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]
    return float(np.max(np.abs(diff)))
""", '*/not-refused',
          mistake='Does not validate i and j at all: i == j or the last position returns a number instead of raising ValueError.', heldout=True),
    Entry('pos-3', 'heldout4-065', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T and 0 <= j < T):
        raise ValueError("bad positions")
    swapped = ids.copy()
    swapped[..., [i, j]] = swapped[..., [j, i]]
    return float(np.max(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/last-position',
          mistake='Bounds check allows the last position (i < T instead of i < T - 1), so swapping the last token is not refused.', heldout=True),
    Entry('pos-3', 'heldout4-066', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("位置不合法")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    # 输出的变化
    return float(np.max(np.abs(forward(swapped) - forward(ids))))
""", 'pos-3/whole-output',
          mistake='Returns the largest change over all output rows instead of the last row only.', heldout=True),
    Entry('pos-3', 'heldout4-067', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or max(i, j) >= T - 1:
        raise ValueError("i и j должны стоять до последней позиции")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/negative-index',
          mistake='Checks only the upper bound, so a negative index such as i = -1 (the last position) is accepted instead of refused.', heldout=True),
    Entry('pos-3', 'heldout4-068', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last")
    order = np.arange(T)
    order[[i, j]] = [j, i]
    swapped = ids[..., order]
    return float(np.mean(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/mean',
          mistake='Returns the mean absolute change of the last row instead of the largest.', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('pos-1', 'heldout5-056', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("position outside the table")
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset and always adds position rows 0 … T−1.', heldout=True),
    Entry('pos-1', 'heldout5-057', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T >= len(position_table):
        raise ValueError("позиция вне таблицы")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off by one in the range check (>= instead of >): a sequence that ends exactly at the last row of the table is refused.', heldout=True),
    Entry('pos-1', 'heldout5-058', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset + T > position_table.shape[0]:
        raise ValueError("超出位置表")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/negative-offset',
          mistake='Checks only the upper end of the table; a negative offset slices rows from the end of the table instead of raising.', heldout=True),
    Entry('pos-1', 'heldout5-059', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = len(position_table)
    positions = np.clip(offset + np.arange(T), 0, C - 1)   # stay inside the table
    return token_table[ids] + position_table[positions]
""", 'pos-1/unchecked',
          mistake='Clamps positions past the table to its last row instead of raising ValueError.', heldout=True),
    Entry('pos-1', 'heldout5-060', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    # позиции по кругу
    return token_table[ids] + position_table[(offset + np.arange(T)) % C]
""", 'pos-1/wrapped',
          mistake='Wraps positions around the table with a modulo instead of raising ValueError.', heldout=True),
    Entry('pos-1', 'heldout5-061', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T + 1 > len(position_table):
        raise ValueError("位置超出范围")
    # 位置从 1 开始
    return token_table[ids] + position_table[offset + 1:offset + T + 1]
""", ('pos-1/one-late', 'pos-1/full-table-refused'),
          mistake='Counts positions from 1 (offset + 1 … offset + T) as if BOS were not a position.', heldout=True),
    Entry('pos-1', 'heldout5-062', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions out of range")
    return token_table[ids] + position_table[ids]
""", 'pos-1/position-by-id',
          mistake='Indexes the position table with the token ids instead of the positions offset + t.', heldout=True),
    Entry('pos-2', 'heldout5-063', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses d_token[ids] += grad, so a repeated id keeps only one of its contributions.', heldout=True),
    Entry('pos-2', 'heldout5-064', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # среднее по батчу
    d_position[offset:offset + T] = grad.reshape(-1, T, D).mean(axis=0)
    return d_token, d_position
""", 'pos-2/batch-mean',
          mistake='Averages the position gradient over the batch instead of summing it.', heldout=True),
    Entry('pos-2', 'heldout5-065', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出位置表")
    d_token = np.zeros((vocab_size, D))
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D))
    d_position[offset:offset + T] += grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/dtype-promoted',
          mistake="Creates the gradient tables with np.zeros' default float64, so a float32 grad gives float64 results.", heldout=True),
    Entry('pos-2', 'heldout5-066', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Writes the position gradient into rows 0 … T−1, ignoring the offset.', heldout=True),
    Entry('pos-2', 'heldout5-067', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", None,
          mistake='Has no range check; a negative offset silently writes into rows at the end of the table instead of raising ValueError.', heldout=True),
    Entry('pos-2', 'heldout5-068', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出位置表")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    flat_ids, flat_grad = ids.reshape(-1), grad.reshape(-1, D)
    for t in range(len(flat_ids)):
        d_token[flat_ids[t]] += flat_grad[t]
        d_position[(offset + t) % context_size] += flat_grad[t]
    return d_token, d_position
""", '*/one-rank-only',
          mistake='Loops over the flattened ids and uses the flat index as the position, so in a batch the second sequence lands on the wrong position rows.', heldout=True),
    Entry('pos-2', 'heldout5-069', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T >= context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    positions = np.broadcast_to(offset + np.arange(T), ids.shape)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    np.add.at(d_position, positions.reshape(-1), grad.reshape(-1, D))
    return d_token, d_position
""", 'pos-2/full-table-refused',
          mistake='Off by one in the range check (offset + T >= context_size), refusing a sequence that fills the table exactly.', heldout=True),
    Entry('pos-3', 'heldout5-070', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last")
    before = forward(ids)[..., -1, :]
    ids[..., [i, j]] = ids[..., [j, i]]
    after = forward(ids)[..., -1, :]
    return float(np.abs(after - before).max())
""", '*/argument-changed',
          mistake="Swaps the tokens in the caller's array in place (np.asarray makes no copy), so the input ids are modified.", heldout=True),
    Entry('pos-3', 'heldout5-071', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    s = ids.copy()
    s[..., i], s[..., j] = s[..., j], s[..., i]   # обмен
    return float(np.max(np.abs(forward(s)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/swap-overwrites',
          mistake='Swaps with a Python tuple assignment of NumPy views, so both positions end up holding token j.', heldout=True),
    Entry('pos-3', 'heldout5-072', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i 和 j 必须是最后位置之前的两个不同位置")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped) - forward(ids))))
""", 'pos-3/whole-output',
          mistake='Returns the largest change over all output rows instead of the last row only.', heldout=True),
    Entry('pos-3', 'heldout5-073', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or max(i, j) >= T or min(i, j) < 0:
        raise ValueError("bad positions")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    diff = forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]
    return float(np.abs(diff).max())
""", 'pos-3/last-position',
          mistake='Only checks i != j and i, j < T, so swapping with the last position is accepted instead of raising ValueError.', heldout=True),
    Entry('pos-3', 'heldout5-074', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("позиции должны быть разными и до последней")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    delta = np.abs(forward(swapped) - forward(ids))[..., -1, :]
    return delta.max(axis=0)
""", '*/other-kind-of-result',
          mistake='Takes the maximum over axis 0 only, which for a batch returns an array of per-feature maxima instead of one float.', heldout=True),
    Entry('pos-3', 'heldout5-075', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("位置无效")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.sum(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/sum',
          mistake='Returns the sum of the absolute changes of the last row instead of the largest one.', heldout=True),
    Entry('pos-3', 'heldout5-076', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("two different positions before the last one are needed")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]))
""", 'pos-3/signed',
          mistake='Takes the signed maximum of after − before, without the absolute value, so a change that is only negative is missed.', heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('pos-1', 'r8-032', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    offset = min(max(offset, 0), len(position_table) - T)
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/unchecked',
          mistake='Clamps the offset into the table instead of refusing a position past it.', probe=True),
    Entry('pos-1', 'r8-033', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("outside the table")
    return token_table[ids] + position_table[offset]
""", None,
          mistake="Adds only the offset's row to every position (position_table[offset]).", probe=True),
    Entry('pos-1', 'r8-034', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    return token_table[ids] + np.take(position_table, np.arange(offset, offset + T), axis=0, mode="wrap")
""", 'pos-1/wrapped',
          mistake="Uses np.take with mode='wrap' for positions (no error; wraps around).", probe=True),
    Entry('pos-1', 'r8-035', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("outside the table")
    D = token_table.shape[-1]
    return token_table[ids] * np.sqrt(D) + position_table[offset:offset + T]
""", None,
          mistake='Scales the token embedding by sqrt(D) (a habit from another course).', probe=True),
    Entry('pos-2', 'r8-036', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).mean(axis=0)
    return d_token, d_position
""", 'pos-2/batch-mean',
          mistake='Averages the position gradient over the batch instead of summing it.', probe=True),
    Entry('pos-2', 'r8-037', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    for i, g in zip(ids.reshape(-1), grad.reshape(-1, D)):
        d_token[i] += g
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.sum(axis=0) if grad.ndim == 3 else grad.sum(axis=0, keepdims=True)
    return d_token, d_position
""", 'pos-2/batch-axis-only',
          mistake='Token gradient by a Python loop (right), but the position gradient sums over axis 0 whatever the rank.', probe=True),
    Entry('pos-2', 'r8-038', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("outside the table")
    onehot = np.eye(vocab_size)[ids.reshape(-1)]
    d_token = onehot.T @ grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/right-values-other-type',
          mistake='Uses a one-hot matrix product for d_token (right values) but builds it in float64.', probe=True),
    Entry('pos-2', 'r8-039', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T >= context_size:
        raise ValueError("outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/full-table-refused',
          mistake='Refuses offset + T >= context_size (one too strict: a sequence that ends at the last row is refused).', probe=True),
    Entry('pos-3', 'r8-040', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two positions before the last")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped) - forward(ids))))
""", 'pos-3/whole-output',
          mistake='Returns the largest change over all output rows, not the last row only.', probe=True),
    Entry('pos-3', 'r8-041', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two positions before the last")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]).sum())
""", 'pos-3/sum',
          mistake='Sums the absolute changes of the last row instead of taking the largest.', probe=True),
    Entry('pos-3', 'r8-042', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T and 0 <= j < T):
        raise ValueError("bad positions")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :])))
""", 'pos-3/last-position',
          mistake='Accepts i or j equal to T - 1 (the bound is T), otherwise right.', probe=True),
    Entry('pos-3', 'r8-095', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two positions before the last")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped)[..., 0, :] - forward(ids)[..., 0, :])))
""", 'pos-3/first-row',
          mistake='Reports the change of the first output row instead of the last.', probe=True),
    Entry('pos-1', 'r8-118', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    return token_table[ids] * np.sqrt(token_table.shape[-1]) + position_table[offset:offset + T]
""", None,
          mistake='Two unrelated mistakes: no range check, and the token embedding scaled by sqrt(D).', probe=True),
    # ---- round 9 of issue 34: kinds the development set dev7 showed (r9-*: written here; dev7-NNN: that set's answers) ----
    bug('pos-1', 'r9-ids-plus-offset', 'positions-by-id-plus-offset', 'pos-1/position-by-id'),
    Entry('pos-1', 'r9-rows-from-offset-plus-id', """
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("outside the position table")
    rows = np.take(position_table, offset + ids, axis=0)
    return np.take(token_table, ids, axis=0) + rows
""", 'pos-1/position-by-id'),
    Entry('pos-1', 'dev7-062', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("位置超出范围")
    # 词嵌入 + 位置嵌入
    return token_table[ids] + position_table[ids + offset]
""", 'pos-1/position-by-id',
          mistake='Indexes the position table by token id instead of by position.'),
    bug('pos-2', 'r9-batch-mean', 'batch-mean-for-sum', 'pos-2/batch-mean'),
    Entry('pos-2', 'r9-mean-over-sequences', """
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    per_sequence = grad.reshape(-1, T, D)
    d_position[offset:offset + T] = np.mean(per_sequence, axis=0)
    return d_token, d_position
""", 'pos-2/batch-mean'),
    Entry('pos-2', 'dev7-067', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # градиент по позициям, усреднённый по батчу
    d_position[offset:offset + T] = grad.reshape(-1, T, D).mean(axis=0)
    return d_token, d_position
""", 'pos-2/batch-mean',
          mistake='Averages the position gradient over the batch instead of summing it.'),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('pos-1', 'heldout7-063', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the table")
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset and always adds the first T position rows.', heldout=True),
    Entry('pos-1', 'heldout7-064', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("位置超出位置表")
    # 从 offset 开始取位置向量
    return token_table[ids] + position_table[offset:T]
""", None,
          mistake='Slices the position table as [offset:T] instead of [offset:offset + T].', heldout=True),
    Entry('pos-1', 'heldout7-065', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    if offset < 0 or offset + T >= C:
        raise ValueError(f"позиции {offset}..{offset + T - 1} вне таблицы")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off-by-one range check (>= instead of >) rejects a sequence that exactly fills the position table.', heldout=True),
    Entry('pos-1', 'heldout7-066', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the table")
    return token_table[ids] + position_table[ids]
""", 'pos-1/position-by-id',
          mistake='Looks up the position table with the token ids instead of the positions.', heldout=True),
    Entry('pos-1', 'heldout7-067', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("位置超出范围")
    rows = []
    for t in range(T):
        # 第 t 个词 + 第 offset+t 个位置
        rows.append(token_table[ids[t]] + position_table[offset + t])
    return np.stack(rows)
""", ('pos-1/batch-length', '*/one-rank-only'),
          mistake='Loops with ids[t], which picks a whole row of a batch instead of position t, so batched ids are wrong.', heldout=True),
    Entry('pos-1', 'heldout7-068', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("позиции вне таблицы")
    tok = token_table[ids]
    pos = np.broadcast_to(position_table[offset:offset + T], tok.shape)
    return np.concatenate([tok, pos], axis=-1)
""", None,
          mistake='Concatenates the token and position vectors instead of adding them.', heldout=True),
    Entry('pos-1', 'heldout7-069', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset + T > len(position_table):
        raise ValueError("sequence runs past the position table")
    positions = np.arange(offset, offset + T)
    return token_table[ids] + position_table[positions]
""", None,
          mistake='Forgets the lower bound: a negative offset is not rejected and wraps around to the last rows.', heldout=True),
    Entry('pos-2', 'heldout7-071', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses d_token[ids] += grad, so repeated ids are counted only once.', heldout=True),
    Entry('pos-2', 'heldout7-072', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出范围")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 位置梯度
    d_position[offset:offset + T] = grad.reshape(-1, T, D)[0]
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Takes the position gradient from the first sequence only instead of summing over the batch.', heldout=True),
    Entry('pos-2', 'heldout7-073', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Writes the position gradient into rows 0..T-1, ignoring the offset.', heldout=True),
    Entry('pos-2', 'heldout7-074', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # positions are shared across the batch
    d_position[offset:offset + T] = grad.reshape(-1, T, D).mean(axis=0)
    return d_token, d_position
""", 'pos-2/batch-mean',
          mistake='Averages the position gradient over the batch instead of summing it.', heldout=True),
    Entry('pos-2', 'heldout7-075', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出位置表")
    d_token = np.zeros((vocab_size, D))
    d_position = np.zeros((context_size, D))
    g = grad.reshape(-1, T, D)
    for b, row in enumerate(ids.reshape(-1, T)):
        for t, tok in enumerate(row):
            d_token[tok] += g[b, t]
            d_position[offset + t] += g[b, t]
    return d_token, d_position
""", '*/dtype-promoted',
          mistake='Allocates the gradients as float64, so float32 gradients come back in the wrong dtype.', heldout=True),
    Entry('pos-2', 'heldout7-076', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # сумма по батчу
    d_position[offset:offset + T] = grad.sum(axis=0)
    return d_token, d_position
""", 'pos-2/batch-axis-only',
          mistake='Sums the position gradient over axis 0 assuming a batch axis, so an unbatched (T, D) gradient is summed over positions.', heldout=True),
    Entry('pos-3', 'heldout7-078', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    return float(np.max(np.abs(forward(swapped) - forward(ids))))
""", 'pos-3/whole-output',
          mistake='Measures the change over all output rows instead of only the last row.', heldout=True),
    Entry('pos-3', 'heldout7-079', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("需要最后一个位置之前的两个不同位置")
    swapped = ids.copy()
    # 交换第 i 和第 j 个词
    swapped[..., i], swapped[..., j] = swapped[..., j], swapped[..., i]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.abs(after - before).max())
""", 'pos-3/swap-overwrites',
          mistake='Swaps with tuple assignment of numpy views (swapped[..., i]), so both positions end up holding the token from position j.', heldout=True),
    Entry('pos-3', 'heldout7-080', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    swapped = ids
    swapped[..., [i, j]] = swapped[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake='Swaps in place without copying, so both forward passes see the swapped ids (and the input is changed).', heldout=True),
    Entry('pos-3', 'heldout7-081', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("i and j must be two different positions before the last")
    perm = np.arange(T)
    perm[i], perm[j] = j, i
    diff = forward(ids[..., perm])[..., -1, :] - forward(ids)[..., -1, :]
    return float(np.mean(np.abs(diff)))
""", 'pos-3/mean',
          mistake='Returns the mean absolute change of the last row instead of the largest.', heldout=True),
    Entry('pos-3', 'heldout7-082', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/not-refused',
          mistake='Does not reject i == j (or positions at the end), returning 0 instead of raising.', heldout=True),
    Entry('pos-3', 'heldout7-083', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    # последняя строка выхода
    return float(np.max(np.abs(forward(swapped)[-1] - forward(ids)[-1])))
""", '*/one-rank-only',
          mistake='Takes forward(...)[-1], which for batched ids is the last sequence rather than the last row of every sequence.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('pos-1', 'dev8-062', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    # 词向量加上位置向量
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the position table")
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset: always adds position rows 0..T-1.'),
    Entry('pos-1', 'dev8-063', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the position table")
    return token_table[ids] + position_table[offset:T]
""", None,
          mistake='Slices position_table[offset:T] instead of [offset:offset+T], giving too few rows when offset > 0.'),
    Entry('pos-1', 'dev8-064', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    # позиции offset … offset+T-1
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/unchecked',
          mistake='Does not check that the positions fit in the table; a slice past the end silently gives too few rows or broadcasts.'),
    Entry('pos-1', 'dev8-065', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T >= len(position_table):
        raise ValueError("positions outside the position table")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off-by-one bound check (>=): rejects a sequence that exactly fills the position table.'),
    Entry('pos-1', 'dev8-066', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the position table")
    return token_table[ids] + position_table[ids]
""", 'pos-1/position-by-id',
          mistake='Indexes the position table by the token ids instead of by the positions.'),
    Entry('pos-1', 'dev8-067', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the position table")
    return token_table[ids] + position_table[offset + 1:offset + T + 1]
""", 'pos-1/one-late',
          mistake='Starts the positions at offset+1 instead of offset (counting from 1).'),
    Entry('pos-2', 'dev8-070', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses fancy-index += for the token gradient, so repeated ids are counted only once instead of adding up.'),
    Entry('pos-2', 'dev8-071', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 位置梯度取 batch 平均
    d_position[offset:offset + T] = grad.reshape(-1, T, D).mean(axis=0)
    return d_token, d_position
""", 'pos-2/batch-mean',
          mistake='Averages the position gradient over the batch instead of summing it.'),
    Entry('pos-2', 'dev8-072', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Writes the position gradient to rows 0..T-1, ignoring the offset.'),
    Entry('pos-2', 'dev8-073', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D))
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D))
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/dtype-promoted',
          mistake='Allocates the gradients as float64 regardless of grad.dtype, so float32 gradients come back as float64.'),
    Entry('pos-2', 'dev8-074', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad[0] if grad.ndim == 3 else grad
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Takes the position gradient from the first sequence only instead of summing over the batch.'),
    Entry('pos-2', 'dev8-075', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    for b in range(ids.shape[0]):
        for t in range(T):
            d_token[ids[b, t]] += grad[b, t]
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.sum(axis=0)
    return d_token, d_position
""", '*/one-rank-only',
          mistake='Assumes a 2-D (B, T) ids array: a single unbatched sequence is mis-indexed and extra batch axes are not summed correctly.'),
    Entry('pos-3', 'dev8-078', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake='Swaps in place on the input array (no copy), so before and after are computed on the same swapped ids and the ids of the caller are changed.'),
    Entry('pos-3', 'dev8-079', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., i] = ids[..., j]
    swapped[..., j] = swapped[..., i]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/swap-overwrites',
          mistake='Botched swap: the second assignment reads the already overwritten position, so both positions end up with token j.'),
    Entry('pos-3', 'dev8-080', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    # сравниваем выходы до и после перестановки
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)
    after = forward(swapped)
    return float(np.max(np.abs(after - before)))
""", 'pos-3/whole-output',
          mistake='Compares every output row instead of only the last one.'),
    Entry('pos-3', 'dev8-081', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j:
        raise ValueError("i 和 j 必须不同")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/last-position',
          mistake='Only checks i != j, not that both positions lie before the last one (negative or last positions are accepted).'),
    Entry('pos-3', 'dev8-082', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., 0, :]
    after = forward(swapped)[..., 0, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/first-row',
          mistake='Compares the first output row instead of the last one.'),
    Entry('pos-3', 'dev8-083', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.abs(after - before).sum())
""", 'pos-3/sum',
          mistake='Returns the sum of absolute changes instead of the largest one.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('pos-1', 'heldout8-065', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the table")
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset and always adds positions 0..T-1.', heldout=True),
    Entry('pos-1', 'heldout8-066', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("位置超出位置表")
    return token_table[ids] + position_table[ids]     # 位置 = 词元编号？
""", 'pos-1/position-by-id',
          mistake='Indexes the position table with the token ids instead of the positions.', heldout=True),
    Entry('pos-1', 'heldout8-067', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    # срез сам обрежет лишнее
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/unchecked',
          mistake='No range check: positions past the table make a short slice and a broadcasting error (or silently wrong rows for a negative offset).', heldout=True),
    Entry('pos-1', 'heldout8-068', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T >= len(position_table):
        raise ValueError(f"positions {offset}..{offset + T - 1} are not rows of the table")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake="Off-by-one range check (>=): rejects a sequence that ends exactly on the table's last row.", heldout=True),
    Entry('pos-1', 'heldout8-069', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("位置超出位置表")
    return token_table[ids] + position_table[offset + 1:offset + T + 1]
""", 'pos-1/one-late',
          mistake='Shifts the positions by one (starts at offset + 1).', heldout=True),
    Entry('pos-1', 'heldout8-070', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = len(ids)
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("позиции вне таблицы")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/batch-length',
          mistake='Takes T as len(ids), the batch size for a 2-D batch, instead of ids.shape[-1].', heldout=True),
    Entry('pos-1', 'heldout8-071', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("positions outside the table")
    out = np.zeros(ids.shape + (token_table.shape[1],))
    out += token_table[ids]
    out += position_table[offset:offset + T]
    return out
""", '*/dtype-promoted',
          mistake='Accumulates into a float64 buffer, so float32 tables come back as float64.', heldout=True),
    Entry('pos-2', 'heldout8-073', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses fancy-index += for the token gradient, so repeated ids count only once instead of adding up.', heldout=True),
    Entry('pos-2', 'heldout8-074', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出范围")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).mean(axis=0)   # 批次平均
    return d_token, d_position
""", 'pos-2/batch-mean',
          mistake='Averages the position gradient over the batch instead of summing it.', heldout=True),
    Entry('pos-2', 'heldout8-075', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Writes the position gradient into rows 0..T-1, ignoring the offset.', heldout=True),
    Entry('pos-2', 'heldout8-076', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D))
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D))
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/dtype-promoted',
          mistake="Allocates the gradients as float64 regardless of grad's dtype.", heldout=True),
    Entry('pos-2', 'heldout8-077', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置超出范围")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D)[0]    # 取第一条序列
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Takes the position gradient from the first sequence only instead of summing over the batch.', heldout=True),
    Entry('pos-2', 'heldout8-078', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    # градиент только для использованных позиций
    d_position = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", None,
          mistake='Returns the position gradient only for the T used rows, shape (T, D), instead of a full (context_size, D) table.', heldout=True),
    Entry('pos-3', 'heldout8-081', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., i], swapped[..., j] = ids[..., j], ids[..., i]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(after - before))
""", 'pos-3/signed',
          mistake='Takes the max of the signed difference instead of its absolute value.', heldout=True),
    Entry('pos-3', 'heldout8-082', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("需要最后位置之前的两个不同位置")
    swapped = ids
    swapped[..., i], swapped[..., j] = ids[..., j], ids[..., i]   # 交换
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Swaps in place on the caller's ids (no copy), so before and after are computed on the same swapped sequence and the input is changed.", heldout=True),
    Entry('pos-3', 'heldout8-083', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)
    after = forward(swapped)
    return float(np.max(np.abs(after - before)))     # по всем строкам
""", 'pos-3/whole-output',
          mistake='Compares every output row instead of only the last one.', heldout=True),
    Entry('pos-3', 'heldout8-084', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T and 0 <= j < T):
        raise ValueError("i and j must be two different positions")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/last-position',
          mistake='Allows i or j to be the last position itself, which the task forbids.', heldout=True),
    Entry('pos-3', 'heldout8-085', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("需要最后位置之前的两个不同位置")
    swapped = ids.copy()
    swapped[[i, j]] = ids[[j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/batch-rows',
          mistake='Swaps along the first axis instead of the last, which swaps whole sequences for a batch.', heldout=True),
    Entry('pos-3', 'heldout8-086', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.linalg.norm(after - before))      # евклидова норма
""", None,
          mistake='Returns the Euclidean norm of the change instead of the largest absolute entry.', heldout=True),
    Entry('pos-3', 'heldout8-087', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last one")
    swapped = ids.copy()
    swapped[..., i] = ids[..., j]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/swap-overwrites',
          mistake='Only copies ids[j] into position i and never puts ids[i] into position j, so it is not a swap.', heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none.
ENTRIES += [
    Entry('pos-1', 'heldout9-049', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("position out of range")
    return token_table[ids] + position_table[:T]
""", 'pos-1/no-offset',
          mistake='Ignores the offset: always adds position rows 0..T-1.', heldout=True),
    Entry('pos-1', 'heldout9-050', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = position_table.shape[0]
    # 超出位置表就报错
    if offset < 0 or offset + T >= C:
        raise ValueError("位置超出位置表")
    return token_table[ids] + position_table[offset:offset + T]
""", 'pos-1/full-table-refused',
          mistake='Off-by-one range check (offset + T >= C), refusing a sequence that exactly fills the table.', heldout=True),
    Entry('pos-1', 'heldout9-051', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset < 0:
        raise ValueError("отрицательное смещение")
    # позиции за концом таблицы берём из последней строки
    pos = np.minimum(np.arange(offset, offset + T), len(position_table) - 1)
    return token_table[ids] + position_table[pos]
""", 'pos-1/clipped',
          mistake='Clamps positions to the last row instead of raising ValueError.', heldout=True),
    Entry('pos-1', 'heldout9-052', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if offset + T > len(position_table):
        raise ValueError("positions past the end of the table")
    positions = np.arange(offset, offset + T)
    return token_table[ids] + position_table[positions]
""", None,
          mistake='Does not refuse a negative offset; the slice silently takes rows from the wrong place.', heldout=True),
    Entry('pos-1', 'heldout9-053', r"""
import numpy as np
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    C = len(position_table)
    if offset < 0:
        raise ValueError("offset 不能为负")
    # 位置循环使用
    pos = (offset + np.arange(T)) % C
    return token_table[ids] + position_table[pos]
""", 'pos-1/wrapped',
          mistake='Wraps positions around modulo C instead of raising.', heldout=True),
    Entry('pos-2', 'heldout9-055', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/assignment',
          mistake='Uses d_token[ids] += grad, which keeps only one contribution of a repeated id.', heldout=True),
    Entry('pos-2', 'heldout9-056', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("位置越界")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.ravel(), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 每个序列共享位置
    d_position[:T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", 'pos-2/no-offset',
          mistake='Ignores the offset when writing the position gradient.', heldout=True),
    Entry('pos-2', 'heldout9-057', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("позиции вне таблицы")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    for i, g in zip(ids.reshape(-1), grad.reshape(-1, D)):
        d_token[i] += g
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # градиент по позициям
    d_position[offset:offset + T] = grad.reshape(-1, T, D)[0]
    return d_token, d_position
""", 'pos-2/last-sequence',
          mistake='Takes only the first sequence of a batch for the position gradient instead of summing over the batch.', heldout=True),
    Entry('pos-2', 'heldout9-058', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError("positions outside the table")
    d_token = np.zeros((vocab_size, D))
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D))
    d_position[offset:offset + T] += grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
""", '*/dtype-promoted',
          mistake='Allocates the gradients with np.zeros default float64, so float32 gradients come back as float64.', heldout=True),
    Entry('pos-2', 'heldout9-059', r"""
import numpy as np
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    # 位置 offset+t 累加
    np.add.at(d_position, offset + np.arange(T), grad.reshape(-1, T, D).sum(axis=0))
    return d_token, d_position
""", 'pos-2/unchecked',
          mistake='Does not check the position range, so a negative offset or overflow is silently accepted or crashes differently.', heldout=True),
    Entry('pos-3', 'heldout9-061', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("need two different positions before the last")
    swapped = ids
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake='Swaps the tokens in the original ids in place, so both forward passes see the swapped sequence and the change is always 0.', heldout=True),
    Entry('pos-3', 'heldout9-062', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T and 0 <= j < T):
        raise ValueError("i 和 j 必须是不同的位置")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    # 比较最后一行
    return float(np.abs(forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]).max())
""", 'pos-3/last-position',
          mistake='Allows j or i to be the last position (checks < T instead of < T-1).', heldout=True),
    Entry('pos-3', 'heldout9-063', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("нужны две разные позиции до последней")
    swapped = ids.copy()
    swapped[[i, j]] = swapped[[j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
""", 'pos-3/batch-rows',
          mistake='Swaps along axis 0, which for a batch swaps sequences instead of tokens.', heldout=True),
    Entry('pos-3', 'heldout9-064', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if i == j or min(i, j) < 0 or max(i, j) >= T - 1:
        raise ValueError("i, j must be distinct positions before the last one")
    swapped = ids.copy()
    swapped[..., i], swapped[..., j] = ids[..., j], ids[..., i]
    return float(np.max(np.abs(forward(swapped) - forward(ids))))
""", 'pos-3/whole-output',
          mistake='Compares the whole output instead of only the last row.', heldout=True),
    Entry('pos-3', 'heldout9-065', r"""
import numpy as np
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError("位置必须在最后一个之前")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    diff = forward(swapped)[..., -1, :] - forward(ids)[..., -1, :]
    return float(np.abs(diff).max())
""", 'pos-3/same-position',
          mistake='Does not refuse i == j.', heldout=True),
]
