"""Masked softmax, causal attention and multi-head attention (§1, §2).

Two boolean masks appear, always under these names:

* ``allowed[i, j]`` is True when query i may read key j (argument of
  :func:`masked_softmax`);
* ``future[i, j]`` is True when key j lies in query i's future, i.e. reading
  it is forbidden (built by :func:`causal_future`).

They are complements (``allowed == ~future``) and are never passed for each other.
"""

import numpy as np


def _float_array(x, name):
    x = np.asarray(x)
    if not np.issubdtype(x.dtype, np.floating):
        if not (np.issubdtype(x.dtype, np.integer) or x.dtype == bool):
            raise TypeError(f"{name} must hold numbers, got dtype {x.dtype}")
        x = x.astype(np.float64)
    return x


def masked_softmax(scores, allowed):
    """§1. Softmax over the last axis, restricted to the entries where ``allowed``.

    scores: (..., Tk) floats; allowed: bool, broadcastable to scores.
    Forbidden entries come out exactly 0 and every row sums to 1 over its
    allowed entries.  A row with no allowed entry is a ValueError.
    """
    scores = _float_array(scores, "scores")
    allowed = np.asarray(allowed)
    if allowed.dtype != bool:
        raise TypeError(
            f"allowed must be a boolean array (True = may read), got dtype {allowed.dtype}; "
            "an additive mask of 0/-inf is a different convention"
        )
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
    weights, row_sums = _exp_over_allowed(np.array(scores), ~allowed)   # (..., Tk), (..., 1)
    weights /= row_sums
    return weights


def _exp_over_allowed(scores, future):
    """exp(score - row max over the allowed entries), exactly 0 on ``future`` entries.

    Works in place on ``scores`` (the caller hands over a buffer it owns) and
    returns it with the row sums, so that a caller may normalise after a matmul
    instead of before (§1: restricting first, then normalising over what is left).
    """
    np.copyto(scores, -np.inf, where=future)                    # forbidden -> -inf
    scores -= scores.max(axis=-1, keepdims=True)                # largest allowed score -> 0
    np.exp(scores, out=scores)                                  # exp(-inf) is exactly 0
    return scores, scores.sum(axis=-1, keepdims=True)


def causal_future(tq, tk):
    """§1, §5. The forbidden set: future[i, j] = key j lies after query i.

    Query i stands at absolute position tk - tq + i (bottom-right alignment, so
    that tq new queries after a cache of tk - tq positions line up correctly).
    Returns a (tq, tk) boolean array, True = forbidden.
    """
    if tq > tk:
        raise ValueError(
            f"{tq} queries but only {tk} keys: every query must be able to read at least its own key, "
            "so the number of queries may not exceed the number of keys"
        )
    query_position = np.arange(tk - tq, tk)[:, None]            # (tq, 1)
    key_position = np.arange(tk)[None, :]                       # (1, tk)
    return key_position > query_position                        # (tq, tk)


def attention_scores(q, k):
    """§1, §2. Scaled dot products q·k / sqrt(d): (..., Tq, d), (..., Tk, d) -> (..., Tq, Tk).

    q is scaled before the product (Tq·d multiplications instead of Tq·Tk);
    the dtype of q is kept.
    """
    scale = q.dtype.type(1.0 / np.sqrt(q.shape[-1]))
    return (q * scale) @ np.swapaxes(k, -1, -2)                 # (..., Tq, Tk)


def causal_attention(q, k, v):
    """§1, §2, §5. Scaled dot-product attention in which no query reads its future.

    q: (..., Tq, d), k: (..., Tk, d), v: (..., Tk, dv) with Tq <= Tk.
    Query i is at absolute position Tk - Tq + i and reads keys 0 .. Tk - Tq + i.
    Returns (..., Tq, dv) in the dtype of q.
    """
    q, k, v = (_float_array(a, n) for a, n in ((q, "q"), (k, "k"), (v, "v")))
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q has width {q.shape[-1]} but k has width {k.shape[-1]}; they must match")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k has {k.shape[-2]} positions but v has {v.shape[-2]}; they must match")
    future = causal_future(q.shape[-2], k.shape[-2])            # (Tq, Tk), True = forbidden
    scores = attention_scores(q, k)                             # (..., Tq, Tk)
    # Same as masked_softmax(scores, ~future) @ v, with the division by the
    # row sums moved after the product: (Tq, dv) divisions instead of (Tq, Tk).
    weights, row_sums = _exp_over_allowed(scores, future)       # (..., Tq, Tk), (..., Tq, 1)
    out = weights @ v                                           # (..., Tq, dv)
    out /= row_sums
    return out


def split_heads(x, n_heads):
    """§2. (B, T, D) -> (B, H, T, d): head h, coordinate a = feature h*d + a."""
    x = np.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"split_heads expects (..., T, D), got shape {x.shape}")
    D = x.shape[-1]
    if n_heads < 1 or D % n_heads:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}; D must be a multiple of H")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)    # (B, T, H, d)
    return np.swapaxes(heads, -3, -2)                           # (B, H, T, d)


def merge_heads(x):
    """§2. (B, H, T, d) -> (B, T, H*d), the exact inverse of :func:`split_heads`."""
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                         # (B, T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)       # (B, T, H*d)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """§2. Causal multi-head attention, row-vector convention, no biases.

    x: (B, T, D); w_q, w_k, w_v, w_o: (D, D).  Returns (B, T, D).
    ``causal=False`` lets every query read every key; it exists only as the
    negative control of the causality checks (§4).
    """
    x = _float_array(x, "x")
    D = x.shape[-1]
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)):
        if np.shape(w) != (D, D):
            raise ValueError(f"{name} has shape {np.shape(w)}, expected ({D}, {D}) for width D={D}")
    q = split_heads(x @ w_q, n_heads)                           # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                           # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)                           # (B, H, T, d)
    if causal:
        heads = causal_attention(q, k, v)                       # (B, H, T, d)
    else:
        heads = unmasked_attention(q, k, v)                     # (B, H, T, d)
    return merge_heads(heads) @ w_o                             # (B, T, D)


def unmasked_attention(q, k, v):
    """§4. Attention without any mask: the negative control of a causality test."""
    q, k, v = (_float_array(a, n) for a, n in ((q, "q"), (k, "k"), (v, "v")))
    scores = attention_scores(q, k)                             # (..., Tq, Tk)
    allowed = np.ones(scores.shape[-2:], dtype=bool)            # everything may be read
    return masked_softmax(scores, allowed) @ v
