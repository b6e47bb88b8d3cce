"""Wrong answers to exercise set 3 (pos-1, pos-2, pos-3)."""

from . import Entry

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
""", "pos-1/clipped"),
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
""", None),

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
