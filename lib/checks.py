"""Checks of causality and of the KV cache (§4, §5, §6), and the course's hand-chosen model.

*Error detectors* run on a concrete implementation, each about one forward pass with fixed
parameters: the future-perturbation test (:func:`perturb_future`, :func:`future_change`,
:func:`check_causality`), trustworthy only with its negative control, the same test with the
mask off; the cache-equivalence test (:func:`incremental_forward`, :func:`cache_error`).
:func:`leaky_time_normalization` is a deliberate COUNTER-EXAMPLE."""

from typing import NamedTuple

import numpy as np

from . import validate
from .attention import causal_attention_forward, causal_future, multi_head_attention, split_heads
from .model import AttentionModel
from .validate import checked


# -- Models to check -------------------------------------------------------

def chapter_model(dtype=np.float64):
    """§4-§6. The course's model with hand-chosen parameters: V=6, C=8, D=4, H=2, identity Q/K/V.
    Vocabulary ``<unk> <bos> <eos> 春 雨 风``.  Row 0 (UNK) is large, so that a leak of a future
    UNK is easy to see; rows 1 (BOS) and 5 (风) are equal, a trap for a careless perturbation."""
    dtype = validate.float_dtype(dtype)
    token_table = np.array([
        [40.0, -30.0, 20.0, -10.0],     # <unk>
        [1.0, 0.0, 0.0, 1.0],           # <bos>
        [0.2, 0.1, 0.3, -0.1],          # <eos>
        [0.0, 1.0, 1.0, 0.0],           # 春
        [0.5, 0.5, -0.5, 0.5],          # 雨
        [1.0, 0.0, 0.0, 1.0],           # 风
    ], dtype=dtype)                                                   # (V, D)
    t = np.arange(8, dtype=dtype)
    position_table = np.stack([0.1 * (t + 1), 0.03 * t, 0.07 * (t % 2), -0.02 * t], 1)    # (C, D)
    w_o = np.array([
        [1.0, 0.0, 1.0, 0.0],
        [0.0, 1.0, 0.0, 1.0],
        [1.0, 0.0, -1.0, 0.0],
        [0.0, 1.0, 0.0, -1.0],
    ], dtype=dtype)                                                   # (D, D)
    identity = np.eye(4, dtype=dtype)                                 # (D, D)
    return AttentionModel(token_table, position_table, identity, identity, identity, w_o, n_heads=2)


@checked(validate.random_model)
def random_model(rng, *, vocab_size, context_size, width, n_heads, dtype=np.float64):
    """§4, §5. An AttentionModel with random parameters (``rng``: a Generator or a seed): tables
    standard normal, projections of variance 1/width, so that scores stay of order one."""
    rng = np.random.default_rng(rng)
    token_table = rng.standard_normal((vocab_size, width)).astype(dtype)          # (V, D)
    position_table = rng.standard_normal((context_size, width)).astype(dtype)     # (C, D)
    w_q, w_k, w_v, w_o = ((rng.standard_normal((width, width)) / np.sqrt(width)).astype(dtype)
                          for _ in range(4))                                      # 4 x (D, D)
    return AttentionModel(token_table, position_table, w_q, w_k, w_v, w_o, n_heads)


# -- Layers with and without a time axis (§4) ------------------------------

@checked(validate.normalization)
def feature_normalization(x, eps=1e-5):
    """§4. Normalise every position over its own features (axis -1), like LayerNorm without scale:
    (..., T, D) -> (..., T, D).  Row t reads only row t, so a causal model stays causal."""
    mean = x.mean(axis=-1, keepdims=True)                             # (..., T, 1)
    var = x.var(axis=-1, keepdims=True)                               # (..., T, 1)
    return (x - mean) / np.sqrt(var + x.dtype.type(eps))


@checked(validate.normalization)
def leaky_time_normalization(x, eps=1e-5):
    """§4. COUNTER-EXAMPLE, never use it in a model: normalise every feature over the TIME axis.
    (..., T, D) -> (..., T, D).  Row 0 depends on row T-1: around a masked attention, it leaks the
    future while every weight above the diagonal stays 0.  Only the axis differs from
    :func:`feature_normalization`."""
    mean = x.mean(axis=-2, keepdims=True)                             # (..., 1, D): every position
    var = x.var(axis=-2, keepdims=True)                               # (..., 1, D)
    return (x - mean) / np.sqrt(var + x.dtype.type(eps))


@checked(validate.forward_with)
def forward_with(model, ids, *, before=None, after=None, causal=True):
    """§4. ``model.forward`` with an extra layer (B, T, D) -> (B, T, D) ``before`` the attention
    (on E[x] + P[t]) and/or ``after`` it: ids (T,) or (B, T) -> (T, D) or (B, T, D)."""
    x = model.embed(ids)                                              # (T, D) or (B, T, D)
    batch = x[None] if x.ndim == 2 else x                             # (B, T, D)
    if before is not None:
        batch = before(batch)
    out = multi_head_attention(batch, model.w_q, model.w_k, model.w_v, model.w_o, model.n_heads,
                               causal)
    if after is not None:
        out = after(out)
    return out[0] if x.ndim == 2 else out


@checked(validate.attention_weights)
def attention_weights(x, w_q, w_k, n_heads, causal=True):
    """§4. The weights every head puts on every key: (B, T, D) -> (B, H, T, T), those of
    :func:`lib.attention.causal_attention_forward`, to inspect (:func:`upper_right_is_zero`)."""
    q, k = split_heads.plain(x @ w_q, n_heads), split_heads.plain(x @ w_k, n_heads)   # (B, H, T, d)
    return causal_attention_forward.plain(q, k, k, causal)[1].weights                # (B, H, T, T)


@checked(validate.square_weights)
def upper_right_is_zero(weights):
    """§4. True if every weight on a future key (j > i) of weights (..., T, T) is exactly 0: a
    NECESSARY condition only, blind to a leak elsewhere in the computation."""
    future = causal_future.plain(weights.shape[-2], weights.shape[-1])   # (T, T), True = forbidden
    return bool(np.all(weights[..., future] == 0))


# -- The future-perturbation test and its negative control (§4) ------------

@checked(validate.perturb_future)
def perturb_future(inputs, prefix_length, rng, *, vocab_size=None, scale=1.0):
    """§4. A copy of ``inputs`` with the prefix kept and every later position changed.
    Ids (T,) or (B, T): each future id becomes another id in 0..vocab_size-1 (different ids may
    still have equal embeddings: hence the negative control); vectors (T, D) or (B, T, D): each
    future row gets normal noise of standard deviation ``scale``.  ``rng``: Generator or seed."""
    axis = validate.time_axis(inputs)
    future = np.moveaxis(inputs, axis, 0)[prefix_length:]             # (T - p, ...), a view
    out = inputs.copy()
    out_future = np.moveaxis(out, axis, 0)[prefix_length:]            # writable view into out
    if validate.is_ids(inputs):
        shift = rng.integers(1, vocab_size, size=future.shape)        # never 0: the id changes
        out_future[...] = (future + shift) % vocab_size
    else:
        out_future[...] = future + (scale * rng.standard_normal(future.shape)).astype(inputs.dtype)
    return out


@checked(validate.row_changes)
def row_changes(forward, inputs, perturbed):
    """§4. Largest absolute change of every output row (T,): row t's is the max over batch and
    features of |forward(inputs) - forward(perturbed)|, ids or vectors with a time axis."""
    axis = validate.time_axis(inputs)
    lead = inputs.shape[:axis + 1]                                    # (T,) or (B, T)
    a, b = (validate.forward_output(forward(x), lead, inputs) for x in (inputs, perturbed))
    diff = np.abs(a.astype(np.float64) - b.astype(np.float64))        # (..., T, D)
    return diff.max(axis=tuple(i for i in range(diff.ndim) if i != axis))   # (T,)


@checked(validate.future_change)
def future_change(forward, inputs, perturbed, prefix_length):
    """§4. The future-perturbation test: the largest change of the prefix outputs (close to 0 for
    a causal forward).  ``inputs`` and ``perturbed`` agree on positions 0..prefix_length-1 and
    differ at every later one; evidence only with :func:`check_causality`'s negative control."""
    return float(row_changes.plain(forward, inputs, perturbed)[:prefix_length].max())


class CausalityCheck(NamedTuple):
    """§4. Result of :func:`check_causality`."""

    change: float           # prefix change of the forward under test
    control_change: float   # prefix change of the negative control (mask off)
    tolerance: float

    @property
    def causal(self):                   # the forward under test left the prefix unchanged
        return self.change <= self.tolerance

    @property
    def control_saw_change(self):       # the control moved the prefix; else the test is broken
        return self.control_change > self.tolerance

    @property
    def passed(self):
        return self.causal and self.control_saw_change


@checked(validate.check_causality)
def check_causality(forward, control, inputs, perturbed, prefix_length, tolerance=1e-12):
    """§4. The future-perturbation test of ``forward`` with its negative ``control``, the same
    computation with the mask off (``lambda ids: model.forward(ids, causal=False)``).  The
    :class:`CausalityCheck` passes when the forward's prefix change is <= tolerance AND the
    control's is > tolerance (float32 needs a larger tolerance)."""
    return CausalityCheck(future_change.plain(forward, inputs, perturbed, prefix_length),
                          future_change.plain(control, inputs, perturbed, prefix_length), tolerance)


# -- The KV cache (§5) -----------------------------------------------------

@checked(validate.incremental_forward)
def incremental_forward(model, ids, cache=None, positions=None):
    """§5. Outputs (T, D) of ``model.step`` fed one token at a time into ``cache`` (a new one by
    default).  ``positions`` (T ints) only reproduces the reset bug of §5."""
    cache = model.new_cache() if cache is None else cache
    return np.stack([model.step(int(token), cache,                 # one step per token: (T, D)
                                position=None if positions is None else int(positions[t]))
                     for t, token in enumerate(ids)])


def cache_error(model, ids):
    """§5. The largest |incremental_forward(model, ids) - model.forward(ids)|, over all entries."""
    full = model.forward(np.asarray(ids))                             # (T, D)
    return float(np.abs(incremental_forward(model, ids) - full).max())


@checked(validate.kv_cache_bytes)
def kv_cache_bytes(n_layers, n_heads, head_width, length, batch=1, itemsize=4):
    """§5. Memory of a KV cache, a key and a value per layer, head, position and sequence:
    2 L H T d B itemsize bytes, which is 2 L T D B itemsize with D = H d."""
    return 2 * n_layers * n_heads * length * head_width * batch * itemsize
