"""Learned absolute positions (§3): E[x] + P[offset + t], and its backward."""

import numpy as np

from . import validate
from .validate import checked


@checked(validate.embed)
def embed(ids, token_table, position_table, offset=0):
    """§3. Input vectors token_table[ids] + position_table[offset + t]: ids (T,) or (B, T),
    token_table (V, D), position_table (C, D) -> (T, D) or (B, T, D)."""
    return token_table[ids] + position_table[offset:offset + ids.shape[-1]]      # (..., T, D)


@checked(validate.embed_backward)
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    """§3. Gradients (d_token_table (V, D), d_position_table (C, D)) of both tables from grad
    (T, D) or (B, T, D): a scatter-add, token rows summed by id, position rows by offset + t."""
    T, D = ids.shape[-1], grad.shape[-1]
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)               # (V, D)
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))            # repeated ids accumulate
    d_position = np.zeros((context_size, D), dtype=grad.dtype)          # (C, D)
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)  # shared by every sequence
    return d_token, d_position
