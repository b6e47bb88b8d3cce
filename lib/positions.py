"""Learned absolute positions (§3): E[x] + P[offset + t], and its backward."""

import numpy as np

from . import validate
from .validate import checked


def check_positions(offset, length, context_size):
    """§3. Positions offset .. offset+length-1 must all be rows of a C-row table: a ValueError if
    not (a learned table is never wrapped or clamped), a TypeError for a size that is not an int."""
    validate.positions(offset, length, context_size)


@checked(validate.embed)
def embed(ids, token_table, position_table, offset=0):
    """§3. Input vectors token_table[ids] + position_table[offset + t].

    ids: (T,) or (B, T) ints; token_table: (V, D); position_table: (C, D).
    Returns (T, D) or (B, T, D) in the common float dtype of the two tables."""
    return token_table[ids] + position_table[offset:offset + ids.shape[-1]]      # (..., T, D)


@checked(validate.embed_backward)
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    """§3. Gradients of both tables: a scatter-add of the upstream gradient.

    grad: (T, D) or (B, T, D), the gradient of the embedded input; ids: (T,) or (B, T).
    Token rows are summed by id, position rows by absolute position offset + t.
    Returns (d_token_table (V, D), d_position_table (C, D)), both in the float
    dtype of grad (float32 stays float32; integers count as float64)."""
    T, D = ids.shape[-1], grad.shape[-1]
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)               # (V, D)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))            # repeated ids accumulate
    d_position = np.zeros((context_size, D), dtype=grad.dtype)          # (C, D)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)  # shared by every sequence
    return d_token, d_position
