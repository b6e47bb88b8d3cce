"""The answers of the exercises, as the solved notebooks show them.

For an exercise whose function the library does not already have, the answer
here is also its reference: the grader computes expected results with it
(``Exercise.reference``), in its own process.  For one whose reference is a
function of ``lib`` (``masked_softmax``, ``split_heads`` ...), the answer here
is the one the notebook shows (``Exercise.answer``); the bug operators of
:mod:`grading.bugs` turn every answer into the wrong versions the diagnoses
look for.  This module never enters a sandbox, and no notebook imports
it: a learner who calls a reference answer gets no points (see
:mod:`grading.usage`).  The comment above each function names its exercise in
brackets.

Each answer is written once, here, and is also the answer the solved notebook
shows: ``reference_cell(name)`` in ``src/solutions/*.py`` puts the function's
source, as it stands below, into that notebook's code cell
(tools/nbsource.py).  So the source is the notebook cell's: its answer lines
sit between ``# BEGIN SOLUTION`` and ``# END SOLUTION`` (the exercise notebook
shows them as a stub), and a comment the learner reads is written in English,
tagged ``#en``; each notebook shows it in its own language, translated in the
catalogue of the solution source that shows the function
(``src/locales/<lang>/LC_MESSAGES/solutions.po``, tools/prose.py).
"""

import math

import numpy as np

from lib import attention, layers
from lib.attention import causal_attention
from lib.data import BOS, EOS, IGNORE, encode


# [heads-3] Causal multi-head attention (the library's, with the mask on); the solved notebook writes
# its own, step by step.
def multi_head_causal(x, w_q, w_k, w_v, w_o, n_heads):
    return attention.multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True)


# [mask-1] allowed[i, j] = key j is not after query i (bottom-right aligned).  (src/solutions/ex01_allowed_set.py)
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # BEGIN SOLUTION
    return key_position <= query_position               # (tq, tk)
    # END SOLUTION


# [mask-3] True iff forbidden weights are exactly 0, none is negative or non-finite, and every row
# sums to 1 within ``atol``.  (src/solutions/ex01_allowed_set.py)
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # BEGIN SOLUTION
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
    # END SOLUTION


# [cost-1] (parameters, KV-cache bytes) of ``n_layers`` attention layers of width D with H heads:
# n_layers * 4 D^2 (§2) and 2 * n_layers * B * T * D * itemsize (§5).  (src/solutions/ex02_heads.py)
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    # BEGIN SOLUTION
    if width % n_heads != 0:
        raise ValueError(
            f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    head_width = width // n_heads                                 # d
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width  #en W_Q, W_K, W_V, W_O
    #en keys and values × layers × sequences × positions × heads × head width
    #en × bytes
    kv_cache_bytes = (
        2 * n_layers * batch * length * n_heads * head_width * itemsize)
    return parameters, kv_cache_bytes
    # END SOLUTION


# [pos-3] How much the last output row moves when tokens i and j swap.  (src/solutions/ex03_positions.py)
def last_row_swap_change(forward, ids, i, j):
    ids = np.asarray(ids)
    # BEGIN SOLUTION
    T = ids.shape[-1]
    if i == j or not (0 <= i < T - 1 and 0 <= j < T - 1):
        raise ValueError(
            f"i={i}, j={j}: two different positions before the last one "
            f"are needed (T={T})"
        )
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = forward(ids)[..., -1, :]
    after = forward(swapped)[..., -1, :]
    return float(np.max(np.abs(after - before)))
    # END SOLUTION


# [causal-1] Largest change of output rows 0..position-1 when the tokens from ``position`` on are
# replaced by ``replacement``.  (src/solutions/ex04_causality.py)
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # BEGIN SOLUTION
    #en the future changes, the prefix stays
    perturbed[..., position:] = replacement
    # END SOLUTION
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))


# [causal-2] "leaks", "causal" or "blind" (the negative control saw nothing).  (src/solutions/ex04_causality.py)
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    # BEGIN SOLUTION
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError(
            f"position {position} leaves no prefix to compare or no "
            "future to change"
        )
    if future_perturbation_change(forward, ids, position,
                                  replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position,
                                  replacement) > tol:
        return "causal"
    return "blind"
    # END SOLUTION


# [causal-3] Entry p-1: the change of rows < p when every token from p on becomes
# ``replacement_token``, for p = 1..T-1. Shape (T-1,), float64.  (src/solutions/ex04_causality.py)
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    # BEGIN SOLUTION
    T = ids.shape[-1]
    if T < 2:
        raise ValueError(f"a sweep needs at least two positions, got T={T}")
    changes = [future_perturbation_change(forward, ids, p,
                                          replacement_token)
               for p in range(1, T)]
    return np.array(changes, dtype=np.float64)
    # END SOLUTION


# [causal-4] Normalise every position over its own features (the library's §4 layer).  (src/solutions/ex04_causality.py)
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    # BEGIN SOLUTION
    #en (..., T, 1): over the D features
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)   # (..., T, 1)
    return (x - mean) / np.sqrt(var + eps)
    # END SOLUTION


# [cache-1] Row b of a right-padded batch continued by tokens[b]: the output (D,) of the new token
# after the real prefix of row b (the positions whose target is not IGNORE). (B, D).  (src/solutions/ex05_cache.py)
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # BEGIN SOLUTION
        #en the real positions 0 … n−1: those whose target is not −100
        n = int((targets[b] != IGNORE).sum())
        #en one cache per row
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        #en the new token lands at position n
        outputs.append(model.step(int(tokens[b]), cache))
        # END SOLUTION
    return np.stack(outputs)                                  # (B, D)


# [cache-2] One token through multi-head attention with a functional cache. x: (D,) the new token's
# input vector (position already added); keys, values: (H, n, d) of the n earlier positions (n may be
# 0). Returns (output (D,), keys (H, n+1, d), values (H, n+1, d)).  (src/solutions/ex05_cache.py)
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    # BEGIN SOLUTION
    H = n_heads
    d = x.shape[-1] // H
    #en (H, 1, d): one position, so reshape is a split
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)                 # (H, n+1, d)
    values = np.concatenate([values, v], axis=1)             # (H, n+1, d)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)    # (H, 1, n+1)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values                                 # (H, 1, d)
    # (D,), (H, n+1, d), (H, n+1, d)
    return heads.reshape(-1) @ w_o, keys, values
    # END SOLUTION


# [cache-3] max |forward(ids) - outputs of step, token by token, from new_cache()|.  (src/solutions/ex05_cache.py)
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    # BEGIN SOLUTION
    full = np.asarray(forward(ids))  # (T, D)
    cache = new_cache()
    # (T, D)
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.max(np.abs(full - incremental)))
    # END SOLUTION


# [evidence-1] lib's multi-head attention on one sequence given as lists; rows as tuples of floats.  (src/solutions/ex06_evidence.py)
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # BEGIN SOLUTION
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(
            f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        #en row vectors times a matrix: (T, D) @ (D, D)
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi]))
                      / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable))
                    for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
    # END SOLUTION


# [dec-2] (dx, d_gain, d_bias) of layer normalisation LN(x) * gain + bias (the bias plays no part).  (src/solutions/ex07_decoder.py)
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    # BEGIN SOLUTION
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(
            f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} "
            f"must match x {x.shape}"
        )
    centred = x - x.mean(axis=-1, keepdims=True)  # (..., D)
    # (..., 1)
    r = 1.0 / np.sqrt(
        (centred * centred).mean(axis=-1,
                                 keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r  # (..., D)
    g = d_out * gain  # (..., D)
    d_x = (r * (g - g.mean(axis=-1,
                           keepdims=True) - x_hat * (g * x_hat).mean(
                               axis=-1, keepdims=True)))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)  # (D,)
    d_bias = d_out.reshape(-1, D).sum(axis=0)  # (D,)
    return d_x, d_gain, d_bias
    # END SOLUTION


# [dec-3] One token through every block with per-layer caches given as arrays. keys, values: lists of
# L arrays (H, n, d), the n positions stored so far in each layer; the token takes position n. Returns
# (logits (V,), keys, values), the two tuples with the new position appended in every layer. A
# position past the table is a ValueError.  (src/solutions/ex07_decoder.py)
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  #en the new token's position
    # BEGIN SOLUTION
    if n >= model.context_size:
        raise ValueError(
            f"position {n} is past the position table of "
            f"{model.context_size} rows"
        )
    H, d = model.n_heads, model.width // model.n_heads
    # (1, D)
    x = (
        model.params["token_table"][token] + model.params["position_table"][
            n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # (1, D)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d)
                   for w in ("w_q", "w_k", "w_v"))
        #en (H, n+1, d): this layer only
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)  # (H, 1, d)
        #en one position: reshape merges
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = (x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"],
                                    b["b_2"])[0])
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
    # END SOLUTION


# [dec-4] "leaks", "causal" or "blind" for ``forward``, a way of running ``model``. Every token from
# ``prefix_length`` on is changed to the next id (mod V); the prefix logits of ``forward`` must not
# move. If they do not, the negative control (the same model with the mask off) must see a change, or
# the test is blind on this input.  (src/solutions/ex07_decoder.py)
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    # BEGIN SOLUTION
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(
            f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    #en every future token changes
    perturbed[..., prefix_length:] = (
        (ids[..., prefix_length:] + 1) % model.vocab_size)

    def prefix_change(f):
        return np.max(
            np.abs(
                np.asarray(f(perturbed))[..., :prefix_length, :]
                - np.asarray(f(ids))[..., :prefix_length, :]
            )
        )

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
    # END SOLUTION


# [mask-2] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex01_allowed_set.py)
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    # BEGIN SOLUTION
    if not allowed.any(axis=-1).all():
        raise ValueError(
            "a row of allowed has no True entry: that query may read no key"
        )
    #en forbidden entries -> -inf
    masked = np.where(allowed, scores, -np.inf)
    #en the largest allowed score -> 0
    shifted = masked - masked.max(axis=-1, keepdims=True)
    #en exp(-inf) is exactly 0
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)
    # END SOLUTION


# [data-1] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex01_allowed_set.py)
def collate(texts, vocab):
    texts = list(texts)
    # BEGIN SOLUTION
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: every text needs at least one character")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)          # (B, T)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)      # (B, T)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        #en the EOS after the text is a scored target
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
    # END SOLUTION


# [heads-1] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex02_heads.py)
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    # BEGIN SOLUTION
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # END SOLUTION
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # BEGIN SOLUTION
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)
    # END SOLUTION


# [heads-2] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex02_heads.py)
def merge_heads(x):
    x = np.asarray(x)
    # BEGIN SOLUTION
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
    # END SOLUTION


# [heads-3] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex02_heads.py)
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # BEGIN SOLUTION
    q = split_heads(x @ w_q, n_heads)                 # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                 # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)                 # (B, H, T, d)
    heads = causal_attention(q, k, v)                 # (B, H, T, d)
    return merge_heads(heads) @ w_o                   # (B, T, D)
    # END SOLUTION


# [pos-1] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex03_positions.py)
def embed(ids, token_table, position_table, offset=0):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    # BEGIN SOLUTION
    if offset < 0 or offset + T > len(position_table):
        raise ValueError(
            f"positions {offset}..{offset + T - 1} do not all have a row "
            f"in a position table of {len(position_table)} rows"
        )
    # (..., T, D)
    return token_table[ids] + position_table[offset:offset + T]
    # END SOLUTION


# [pos-2] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex03_positions.py)
def embed_backward(grad, ids, vocab_size, context_size, offset=0):
    grad, ids = np.asarray(grad), np.asarray(ids)
    # BEGIN SOLUTION
    T, D = ids.shape[-1], grad.shape[-1]
    if offset < 0 or offset + T > context_size:
        raise ValueError(
            f"positions {offset}..{offset + T - 1} do not all have a row "
            f"in a table of {context_size} rows"
        )
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    #en repeated ids add up
    np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    #en shared by every sequence
    d_position[offset:offset + T] = grad.reshape(-1, T, D).sum(axis=0)
    return d_token, d_position
    # END SOLUTION


# [dec-1] The answer the solved notebook shows; the exercise's reference is lib's own function.  (src/solutions/ex07_decoder.py)
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    # BEGIN SOLUTION
    if d_weights.shape != weights.shape:
        raise ValueError(
            f"d_weights {d_weights.shape} and weights {weights.shape} "
            "must have the same shape"
        )
    # (..., 1): sum_k w_k g_k
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (d_weights - along_row)  # (..., Tk)
    # END SOLUTION
