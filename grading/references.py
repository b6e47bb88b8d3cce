"""Reference answers of the exercises whose function the library does not already have.

The grader computes expected results with them (``Exercise.reference``), in
its own process.  This module never enters a sandbox, and no notebook imports
it: a learner who calls a reference answer gets no points (see
:mod:`grading.usage`).  Each docstring names its exercise in brackets.
"""

import numpy as np

from lib import layers
from lib.attention import causal_attention, causal_future, merge_heads, multi_head_attention, split_heads
from lib.checks import feature_normalization, kv_cache_bytes
from lib.costs import head_costs
from lib.data import IGNORE


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


def continue_padded(model, inputs, targets, tokens):
    """[cache-1] Row b of a right-padded batch continued by tokens[b]: the output (D,) of the new
    token after the real prefix of row b (the positions whose target is not IGNORE).  (B, D)."""
    inputs, targets, tokens = np.asarray(inputs), np.asarray(targets), np.asarray(tokens)
    if inputs.ndim != 2 or inputs.shape != targets.shape or tokens.shape != inputs.shape[:1]:
        raise ValueError(f"inputs and targets must be (B, T) and tokens (B,), got {inputs.shape}, "
                         f"{targets.shape} and {tokens.shape}")
    rows = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        rows.append(model.forward(np.append(inputs[b, :n], tokens[b]))[-1])
    return np.stack(rows)


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


def decoder_step(model, token, keys, values):
    """[dec-3] One token through every block with per-layer caches given as arrays.

    keys, values: lists of L arrays (H, n, d), the n positions stored so far in
    each layer; the token takes position n.  Returns (logits (V,), keys, values),
    the two tuples with the new position appended in every layer.  A position
    past the table is a ValueError.
    """
    if len(keys) != model.n_layers or len(values) != model.n_layers:
        raise ValueError(f"need one key and one value array per layer ({model.n_layers}), "
                         f"got {len(keys)} and {len(values)}")
    cache = model.new_cache()
    for kv, k, v in zip(cache.layers, keys, values):
        k, v = np.asarray(k), np.asarray(v)
        for position in range(k.shape[1]):
            kv.append(k[:, position], v[:, position])
    logits = model.step(token, cache)
    return logits, tuple(kv.keys.copy() for kv in cache.layers), tuple(kv.values.copy() for kv in cache.layers)


def layer_norm_backward(d_out, x, gain, eps=1e-5):
    """[dec-2] (dx, d_gain, d_bias) of layer normalisation LN(x) * gain + bias (the bias plays no part)."""
    x, gain = np.asarray(x), np.asarray(gain)
    d_out = np.asarray(d_out)
    if d_out.shape != x.shape:
        raise ValueError(f"d_out has shape {d_out.shape} but x has shape {x.shape}; they must match")
    _, saved = layers.layer_norm_forward(x, gain, np.zeros_like(gain), eps)
    return layers.layer_norm_backward(d_out, saved)


def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    """[dec-4] "leaks", "causal" or "blind" for ``forward``, a way of running ``model``.

    Every token from ``prefix_length`` on is changed to the next id (mod V); the
    prefix logits of ``forward`` must not move.  If they do not, the negative
    control (the same model with the mask off) must see a change, or the test
    is blind on this input.
    """
    ids = np.asarray(ids)
    if not 1 <= prefix_length < ids.shape[-1]:
        raise ValueError(f"prefix_length must be in 1..T-1, got {prefix_length} for T={ids.shape[-1]}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        before = np.asarray(f(ids))[..., :prefix_length, :]
        after = np.asarray(f(perturbed))[..., :prefix_length, :]
        return float(np.max(np.abs(after - before)))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"


def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    """[cost-1] (parameters, KV-cache bytes) of ``n_layers`` attention layers of width D with H heads:
    n_layers * 4 D^2 (§2) and 2 * n_layers * B * T * D * itemsize (§5)."""
    if isinstance(n_layers, bool) or not isinstance(n_layers, (int, np.integer)) or n_layers < 1:
        raise ValueError(f"n_layers must be a positive int, got {n_layers!r}")
    itemsize = np.dtype(dtype).itemsize
    parameters = int(head_costs(n_heads, width, length, batch, itemsize)["parameters"]) * n_layers
    return parameters, int(kv_cache_bytes(n_layers, n_heads, width // n_heads, length, batch, itemsize))


def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """[evidence-1] lib's multi-head attention on one sequence given as lists; rows as tuples of floats."""
    out = multi_head_attention(np.asarray(x, dtype=np.float64)[None], *(np.asarray(w, dtype=np.float64)
                                                                        for w in (w_q, w_k, w_v, w_o)),
                               n_heads, causal=causal)[0]
    return tuple(tuple(float(v) for v in row) for row in out)
