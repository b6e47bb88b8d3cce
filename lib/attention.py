"""The mask, the masked softmax, causal attention and multi-head attention (§1, §2, §4).

``allowed[i, j]`` is True when query i may read key j (:func:`causal_allowed`, what
:func:`masked_softmax` takes); ``future[i, j]`` is True when key j lies in query i's future
(:func:`causal_future`).  They are complements and are never passed for each other.
:func:`causal_attention` is the definition, one line without loops; :mod:`lib.blocked` computes
the same numbers block by block (§5.9).  Arguments are checked where they enter
(:mod:`lib.validate`); ``f.plain``, the body alone, is what lib calls from inside."""

from typing import NamedTuple

import numpy as np

from . import validate
from .validate import checked


# -- §1 The mask and the masked softmax ------------------------------------

@checked(validate.causal_lengths)
def causal_future(tq, tk):
    """§1, §5. The forbidden set (tq, tk), True where key j lies after query i.  Query i stands at
    position tk - tq + i (bottom-right alignment: new queries after a cache line up)."""
    query_position = np.arange(tk - tq, tk)[:, None]            # (tq, 1)
    key_position = np.arange(tk)[None, :]                       # (1, tk)
    return key_position > query_position                        # (tq, tk)


@checked(validate.causal_lengths)
def causal_allowed(tq, tk):
    """§1, §5. The allowed set, ~causal_future(tq, tk): True where query i may read key j."""
    return ~causal_future.plain(tq, tk)                         # (tq, tk)


@checked(validate.masked_softmax)
def masked_softmax(scores, allowed):
    """§1. Softmax over the last axis, restricted to the entries where ``allowed``:
    scores: (..., Tk); allowed: bool, broadcastable to scores.  Forbidden entries come out exactly
    0 whatever their score (NaN included: never read); every row sums to 1 over its allowed ones."""
    weights = np.where(allowed, scores, -np.inf)                # (..., Tk), forbidden -> -inf
    weights -= weights.max(axis=-1, keepdims=True)              # largest -> exp(0) = 1: no overflow
    np.exp(weights, out=weights)                                # forbidden -> exactly 0
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights


# -- §1 Causal attention, by definition ------------------------------------

@checked(validate.score_inputs)
def attention_scores(q, k):
    """§1, §2. Scaled dot products q·k / sqrt(d): (..., Tq, d), (..., Tk, d) -> (..., Tq, Tk).
    q is scaled before the product (Tq·d multiplications instead of Tq·Tk)."""
    return (q * q.dtype.type(1 / np.sqrt(q.shape[-1]))) @ np.swapaxes(k, -1, -2)   # (..., Tq, Tk)


@checked(validate.causal_inputs)
def causal_attention(q, k, v):
    """§1, §2, §5. Scaled dot-product attention where no query reads its future: (..., Tq, dv).
    q: (..., Tq, d), k: (..., Tk, d), v: (..., Tk, dv), 0 <= Tq <= Tk, leading axes broadcast.
    Query i is at position Tk - Tq + i and reads keys 0 .. Tk - Tq + i.  Refused: see
    :func:`lib.validate.attention_inputs` (a NaN even in the future: 0 * nan = nan)."""
    allowed = ~causal_future.plain(q.shape[-2], k.shape[-2])                    # (Tq, Tk)
    return masked_softmax.plain(attention_scores.plain(q, k), allowed) @ v      # (..., Tq, dv)


@checked(validate.attention_inputs)
def unmasked_attention(q, k, v):
    """§1. Attention without any mask: §1.9's negative control (§4's runs inside the model,
    ``model.forward(ids, causal=False)``).  As :func:`causal_attention`, but Tq may exceed Tk."""
    return causal_attention_forward.plain(q, k, v, causal=False)[0]


class AttentionSaved(NamedTuple):
    """§7. What :func:`causal_attention_forward` keeps for its backward."""
    q: np.ndarray           # (..., Tq, d)
    k: np.ndarray           # (..., Tk, d)
    v: np.ndarray           # (..., Tk, dv)
    weights: np.ndarray     # (..., Tq, Tk), the masked softmax


@checked(validate.attention_switch)
def causal_attention_forward(q, k, v, causal=True):
    """§7. :func:`causal_attention` and what its backward (lib.layers) needs: out (..., Tq, dv), an
    :class:`AttentionSaved`.  ``causal=False``: every query reads every key (the control only)."""
    tq, tk = q.shape[-2], k.shape[-2]
    allowed = ~causal_future.plain(tq, tk) if causal else np.ones((tq, tk), dtype=bool)   # (Tq, Tk)
    weights = masked_softmax.plain(attention_scores.plain(q, k), allowed)     # (..., Tq, Tk)
    return weights @ v, AttentionSaved(q, k, v, weights)                      # (..., Tq, dv)


# -- §2 Several heads ------------------------------------------------------

@checked(validate.split_heads)
def split_heads(x, n_heads):
    """§2. (B, T, D) -> (B, H, T, d): head h, coordinate a = feature h*d + a; dtype kept."""
    heads = x.reshape(*x.shape[:-1], n_heads, x.shape[-1] // n_heads)   # (B, T, H, d)
    return np.swapaxes(heads, -3, -2)                                   # (B, H, T, d)


@checked(validate.merge_heads)
def merge_heads(x):
    """§2. (B, H, T, d) -> (B, T, H*d), the exact inverse of :func:`split_heads`; dtype kept."""
    heads_last = np.swapaxes(x, -3, -2)                         # (B, T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)       # (B, T, H*d)


class MultiHeadSaved(NamedTuple):
    """§7. What :func:`multi_head_attention_forward` keeps for its backward."""
    x: np.ndarray                   # (B, T, D), the input
    w_q: np.ndarray                 # (D, D), and the three below
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    n_heads: int
    merged: np.ndarray              # (B, T, D), the heads merged, before W_O
    attention: AttentionSaved       # of the H heads side by side, (B, H, T, d)


BLAS_SPLIT = 2**18  # multiplications: OpenBLAS shares a larger product between its threads


def _product(x, w):
    """§7. x @ w, x (..., T, n), by blocks of rows of at most BLAS_SPLIT multiplications (or 16
    rows): one thread makes each block, bit for bit as with one thread, and no thread waits."""
    rows = max(16, BLAS_SPLIT // (w.shape[-2] * w.shape[-1]))
    if x.ndim < 2 or x.shape[-2] <= rows:
        return x @ w
    return np.concatenate([x[..., i:i + rows, :] @ w for i in range(0, x.shape[-2], rows)], -2)


@checked(validate.multi_head)
def multi_head_attention_forward(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """§2, §7. Multi-head attention (split, causal attention per head, merge, W_O), no biases:
    x (B, T, D), w_* (D, D) -> out (B, T, D) and a :class:`MultiHeadSaved` for the backward.
    ``causal=False`` lets every query read every key (the negative control, §4)."""
    q, k, v = (split_heads.plain(_product(x, w), n_heads) for w in (w_q, w_k, w_v))  # (B, H, T, d)
    heads, attention = causal_attention_forward.plain(q, k, v, causal)        # (B, H, T, d)
    merged = merge_heads.plain(heads)                                         # (B, T, D)
    return _product(merged, w_o), MultiHeadSaved(x, w_q, w_k, w_v, w_o, n_heads, merged, attention)


@checked(validate.multi_head)
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """§2. Causal multi-head attention, row-vector convention, no biases: (B, T, D) -> (B, T, D),
    the first result of :func:`multi_head_attention_forward`."""
    return multi_head_attention_forward.plain(x, w_q, w_k, w_v, w_o, n_heads, causal)[0]
