"""Learned absolute positions (§3): E[x] + P[offset + t], and its backward."""

import numpy as np

from . import validate


def check_positions(offset, length, context_size):
    """§3. Positions offset .. offset+length-1 must all be rows of a C-row table."""
    offset = validate.integer(offset, "offset", minimum=-np.inf)   # a negative offset is refused below
    length = validate.integer(length, "length", 0)
    context_size = validate.integer(context_size, "context_size")
    if offset < 0 or offset + length > context_size:
        raise ValueError(
            f"positions {offset}..{offset + length - 1} fall outside the position table, which has rows "
            f"0..{context_size - 1} (C={context_size}); a learned absolute position table is never "
            "wrapped or clamped"
        )


def _check_tables(token_table, position_table):
    """Both tables in their common float dtype, after checking that they are (V, D) and (C, D)."""
    token_table, position_table = validate.float_arrays(token_table=token_table, position_table=position_table)
    if token_table.ndim != 2 or position_table.ndim != 2 or token_table.shape[1] != position_table.shape[1]:
        raise ValueError(
            f"token table {token_table.shape} and position table {position_table.shape} must both be "
            "2-D with the same width D, so that their rows can be added"
        )
    if 0 in token_table.shape or 0 in position_table.shape:
        raise ValueError(
            f"token table {token_table.shape} and position table {position_table.shape} need at least "
            "one row and one column each"
        )
    return token_table, position_table


def embed(ids, token_table, position_table, offset=0):
    """§3. Input vectors token_table[ids] + position_table[offset + t].

    ids: (T,) or (B, T) ints; token_table: (V, D); position_table: (C, D).
    Returns (T, D) or (B, T, D) in the common float dtype of the two tables.
    """
    token_table, position_table = _check_tables(token_table, position_table)
    ids = validate.token_ids(ids, token_table.shape[0])
    T = ids.shape[-1]
    check_positions(offset, T, position_table.shape[0])
    return token_table[ids] + position_table[offset:offset + T]      # (..., T, D)


def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    """§3. Gradients of both tables: a scatter-add of the upstream gradient.

    grad: (T, D) or (B, T, D), the gradient of the embedded input; ids: (T,) or (B, T).
    Token rows are summed by id, position rows by absolute position offset + t.
    Returns (d_token_table (V, D), d_position_table (C, D)), both in the float
    dtype of grad (float32 stays float32; integers count as float64).
    """
    (grad,) = validate.float_arrays(grad=grad)
    vocab_size = validate.integer(vocab_size, "vocab_size")
    context_size = validate.integer(context_size, "context_size")
    ids = validate.token_ids(ids, vocab_size)
    if grad.shape[:-1] != ids.shape:
        raise ValueError(f"grad of shape {grad.shape} does not match ids of shape {ids.shape} (expected ids.shape + (D,))")
    T, D = ids.shape[-1], grad.shape[-1]
    check_positions(offset, T, context_size)
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)            # (V, D)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))         # repeated ids accumulate
    d_position = np.zeros((context_size, D), dtype=grad.dtype)       # (C, D)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)  # every sequence shares the rows
    return d_token, d_position
