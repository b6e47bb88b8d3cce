"""The mask, the masked softmax, causal attention and multi-head attention (§1, §2, §4).

Two boolean masks appear, always under these names:

* ``allowed[i, j]`` is True when query i may read key j (argument of
  :func:`masked_softmax`, built by :func:`causal_allowed`): the only one the
  chapters' code shows;
* ``future[i, j]`` is True when key j lies in query i's future, i.e. reading
  it is forbidden (built by :func:`causal_future`), used inside ``lib``.

They are complements (``allowed == ~future``) and are never passed for each other.

:func:`causal_attention` is the definition, one line without loops: softmax
restricted to the allowed keys, then a weighted sum of the values.
:mod:`lib.blocked` computes the same numbers block by block and skips the
scores that lie entirely in the future (§5.9).
"""

import numpy as np

from . import validate


# --------------------------------------------------------------------------
# §1 The mask and the masked softmax
# --------------------------------------------------------------------------

def causal_future(tq, tk):
    """§1, §5. The forbidden set: future[i, j] = key j lies after query i.

    Query i stands at absolute position tk - tq + i (bottom-right alignment, so
    that tq new queries after a cache of tk - tq positions line up correctly).
    Returns a (tq, tk) boolean array, True = forbidden.
    """
    tq, tk = validate.causal_lengths(tq, tk)                    # refuses tq > tk
    query_position = np.arange(tk - tq, tk)[:, None]            # (tq, 1)
    key_position = np.arange(tk)[None, :]                       # (1, tk)
    return key_position > query_position                        # (tq, tk)


def causal_allowed(tq, tk):
    """§1, §5. The allowed set: allowed[i, j] = query i may read key j (j at or before it).

    The complement of :func:`causal_future`, aligned bottom-right the same way; the
    argument :func:`masked_softmax` takes.  Returns a (tq, tk) boolean array, True = may read.
    """
    return ~causal_future(tq, tk)                               # (tq, tk)


def masked_softmax(scores, allowed):
    """§1. Softmax over the last axis, restricted to the entries where ``allowed``.

    scores: (..., Tk) floats; allowed: bool, broadcastable to scores.
    Forbidden entries come out exactly 0 whatever their score (NaN included:
    they are never read), and every row sums to 1 over its allowed entries.
    Refused with a ValueError naming the row: a row with no allowed entry, and
    a NaN or infinite score at an allowed entry (it has no meaningful weight).
    Returns the dtype of ``scores`` (integers count as float64).
    """
    scores = validate.float_array(scores, "scores")
    allowed = np.asarray(allowed)
    if allowed.dtype != bool:
        raise TypeError(
            f"allowed must be a boolean array (True = may read), got dtype {allowed.dtype}; "
            "an additive mask of 0/-inf is a different convention"
        )
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise ValueError(f"scores of shape {scores.shape} have no keys: the last axis must have length >= 1")
    try:
        shape = np.broadcast_shapes(scores.shape, allowed.shape)
    except ValueError:
        raise ValueError(
            f"allowed of shape {allowed.shape} does not broadcast to scores of shape {scores.shape}"
        ) from None
    if shape != scores.shape:
        raise ValueError(f"allowed of shape {allowed.shape} would enlarge scores of shape {scores.shape}")
    # A row is empty in the broadcast result exactly when it is empty in `allowed` itself.
    empty = ~np.atleast_1d(allowed).any(axis=-1)
    if empty.any():
        row = tuple(int(i) for i in np.argwhere(empty)[0])
        raise ValueError(
            f"row {row} of allowed has no True entry: this query may read no key, so its softmax "
            "has no denominator; every query must be allowed at least one key (with a causal mask, itself)"
        )
    bad = allowed & ~np.isfinite(scores)                        # (..., Tk) non-finite AND read
    if bad.any():
        *row, key = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"row {tuple(row)} of scores has {scores[(*row, key)]} at allowed key {key}: every score a "
            "query may read must be finite (a NaN or an infinity has no meaningful weight)"
        )
    return _softmax_where(scores, allowed)


def _softmax_where(scores, allowed):
    """:func:`masked_softmax` without its checks, for callers that have checked their inputs."""
    weights = np.where(allowed, scores, -np.inf)                # (..., Tk), forbidden -> -inf, a new array
    row_sums = _exp_minus_row_max(weights)                      # (..., 1); forbidden -> exactly 0
    weights /= row_sums
    return weights


def _exp_minus_row_max(scores):
    """In place: scores -> exp(scores - max of its row).  Returns the row sums (..., 1).

    The largest entry of a row becomes exp(0) = 1, so nothing overflows; an
    entry set to -inf beforehand (forbidden) becomes exactly 0.
    """
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    return scores.sum(axis=-1, keepdims=True)


# --------------------------------------------------------------------------
# §1 Causal attention, by definition
# --------------------------------------------------------------------------

def attention_scores(q, k):
    """§1, §2. Scaled dot products q·k / sqrt(d): (..., Tq, d), (..., Tk, d) -> (..., Tq, Tk).

    q is scaled before the product (Tq·d multiplications instead of Tq·Tk).
    Returns the common float dtype of q and k (see lib/__init__).
    """
    q, k = validate.float_arrays(q=q, k=k)
    if q.ndim < 2 or k.ndim < 2 or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q {q.shape} and k {k.shape} must have shapes (..., Tq, d) and (..., Tk, d)")
    return _scores(q, k)


def _scores(q, k):
    scale = q.dtype.type(1.0 / np.sqrt(q.shape[-1]))           # in the dtype of q: float32 stays float32
    return (q * scale) @ np.swapaxes(k, -1, -2)                 # (..., Tq, Tk)


def causal_attention(q, k, v):
    """§1, §2, §5. Scaled dot-product attention in which no query reads its future: (..., Tq, dv).

    q: (..., Tq, d), k: (..., Tk, d), v: (..., Tk, dv) with 0 <= Tq <= Tk and
    Tk >= 1; leading axes broadcast.  Query i is at absolute position
    Tk - Tq + i and reads keys 0 .. Tk - Tq + i.  Returns the common float
    dtype of q, k, v.  Refused with a ValueError: see
    :func:`lib.validate.attention_inputs` (a NaN or an infinity is refused even at
    a future position: 0 * nan = nan reaches the earlier outputs).
    """
    q, k, v, _ = validate.attention_inputs(q, k, v)
    allowed = ~causal_future(q.shape[-2], k.shape[-2])          # (Tq, Tk)
    return _softmax_where(_scores(q, k), allowed) @ v           # (..., Tq, dv)


def unmasked_attention(q, k, v):
    """§4. Attention without any mask: the negative control of a causality test.

    Same arguments, checks and dtype rule as :func:`causal_attention`, except
    that Tq may exceed Tk (no query has a future).
    """
    q, k, v, _ = validate.attention_inputs(q, k, v)
    scores = _scores(q, k)                                      # (..., Tq, Tk)
    allowed = np.ones(scores.shape[-2:], dtype=bool)            # everything may be read
    return _softmax_where(scores, allowed) @ v


# --------------------------------------------------------------------------
# §2 Several heads
# --------------------------------------------------------------------------

def split_heads(x, n_heads):
    """§2. (B, T, D) -> (B, H, T, d): head h, coordinate a = feature h*d + a.

    Any leading axes; a pure rearrangement, so the dtype of x is kept as it is.
    """
    x = np.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"split_heads expects (..., T, D), got shape {x.shape}")
    d = validate.head_width(x.shape[-1], n_heads)
    heads = x.reshape(*x.shape[:-1], x.shape[-1] // d, d)       # (B, T, H, d)
    return np.swapaxes(heads, -3, -2)                           # (B, H, T, d)


def merge_heads(x):
    """§2. (B, H, T, d) -> (B, T, H*d), the exact inverse of :func:`split_heads`; dtype kept."""
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                         # (B, T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)       # (B, T, H*d)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """§2. Causal multi-head attention, row-vector convention, no biases.

    x: (B, T, D) (or any leading axes); w_q, w_k, w_v, w_o: (D, D).
    Returns (B, T, D) in the common float dtype of x and the weights.
    ``causal=False`` lets every query read every key; it exists only as the
    negative control of the causality checks (§4).
    """
    x, w_q, w_k, w_v, w_o = validate.projections(x, w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o)
    validate.head_width(x.shape[-1], n_heads)
    causal = validate.boolean(causal, "causal")
    q = split_heads(x @ w_q, n_heads)                           # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                           # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)                           # (B, H, T, d)
    attend = causal_attention if causal else unmasked_attention
    return merge_heads(attend(q, k, v)) @ w_o                   # (B, T, D)
