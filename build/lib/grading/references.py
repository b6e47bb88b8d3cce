"""Reference answers of the exercises whose function the library does not already have.

The grader computes expected results with them (``Exercise.reference``), in
its own process.  This module never enters a sandbox, and no notebook imports
it: a learner who calls a reference answer gets no points (see
:mod:`grading.usage`).  Each docstring names its exercise in brackets.
"""

import numpy as np

from lib.attention import causal_attention, causal_future, merge_heads, multi_head_attention, split_heads
from lib.checks import feature_normalization

def causal_allowed(tq, tk):
    """[mask-1] allowed[i, j] = key j is not after query i (bottom-right aligned)."""
    return ~causal_future(tq, tk)


def is_valid_attention(weights, allowed, atol=1e-9):
    """[mask-3] True iff forbidden weights are exactly 0, none is negative or
    non-finite, and every row sums to 1 within ``atol``."""
    weights = np.asarray(weights)
    allowed = np.broadcast_to(np.asarray(allowed, dtype=bool), weights.shape)
    if not np.all(np.isfinite(weights)):
        return False
    if np.any(weights[~allowed] != 0) or np.any(weights < 0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) <= atol))


def feature_norm(x, eps=1e-5):
    """[causal-4] Normalise every position over its own features (the library's §4 layer)."""
    return feature_normalization(x, eps)


def multi_head_causal(x, w_q, w_k, w_v, w_o, n_heads):
    """[heads-3] Causal multi-head attention (the library's, with the mask on)."""
    return multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True)


def last_row_swap_change(forward, ids, i, j):
    """[pos-3] How much the last output row moves when tokens i and j swap."""
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not (0 <= i < T - 1 and 0 <= j < T - 1) or i == j:
        raise ValueError(f"i={i} and j={j} must be two different positions before the last one (T={T})")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = np.asarray(forward(ids))[..., -1, :]
    after = np.asarray(forward(swapped))[..., -1, :]
    return float(np.max(np.abs(after - before)))


def future_perturbation_change(forward, ids, position, replacement):
    """[causal-1] Largest change of output rows 0..position-1 when the tokens
    from ``position`` on are replaced by ``replacement``."""
    ids = np.asarray(ids)
    if not 1 <= position < ids.shape[-1]:
        raise ValueError(f"position must be in 1..T-1, got {position} for T={ids.shape[-1]}")
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = np.asarray(forward(ids))[..., :position, :]
    after = np.asarray(forward(perturbed))[..., :position, :]
    return float(np.max(np.abs(after - before)))


def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    """[causal-2] "leaks", "causal" or "blind" (the negative control saw nothing)."""
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"


def leak_sweep(forward, ids, replacement_token):
    """[causal-3] Entry p-1: the change of rows < p when every token from p on
    becomes ``replacement_token``, for p = 1..T-1.  Shape (T-1,), float64."""
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError(f"a sweep needs at least 2 positions, got T={T}")
    changes = [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
    return np.array(changes, dtype=np.float64)


def cached_step(model, token, cache):
    """[cache-1] One cached step at the right position, len(cache)."""
    return model.step(token, cache)


def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    """[cache-2] One token through multi-head attention with a functional cache.

    x: (D,) the new token's input vector (position already added);
    keys, values: (H, n, d) of the n earlier positions (n may be 0).
    Returns (output (D,), keys (H, n+1, d), values (H, n+1, d)).
    """
    x = np.asarray(x)
    q = split_heads((x @ w_q)[None, None], n_heads)[0]                       # (H, 1, d)
    k = split_heads((x @ w_k)[None, None], n_heads)[0]                       # (H, 1, d)
    v = split_heads((x @ w_v)[None, None], n_heads)[0]                       # (H, 1, d)
    keys = np.concatenate([keys, k], axis=1)                                 # (H, n+1, d)
    values = np.concatenate([values, v], axis=1)                             # (H, n+1, d)
    heads = causal_attention(q, keys, values)                                # (H, 1, d)
    return (merge_heads(heads[None])[0] @ w_o)[0], keys, values


def cache_error(forward, step, new_cache, ids):
    """[cache-3] max |forward(ids) - outputs of step, token by token, from new_cache()|."""
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))                                           # (T, D)
    cache = new_cache()
    incremental = np.stack([np.asarray(step(int(token), cache)) for token in ids])  # (T, D)
    return float(np.max(np.abs(full - incremental)))

