"""Checks of causality and of the KV cache (§4, §5, §6), and the chapter's hand-set model.

Two kinds of evidence meet here.  Structural reasoning says which input rows
each output row can read; the functions below are *error detectors* run on a
concrete implementation:

* the future-perturbation test (:func:`perturb_future`, :func:`future_change`,
  :func:`check_causality`): keep a prefix, replace everything after it by
  clearly different tokens or vectors, and measure how much the prefix outputs
  move.  It is only trustworthy together with its negative control, the same
  test on a version with the mask switched off, which must see a change;
* the cache-equivalence test (:func:`incremental_forward`, :func:`cache_error`):
  feed a sequence token by token through the cache and compare with the full
  forward.

:func:`leaky_time_normalization` is a deliberate COUNTER-EXAMPLE: a layer that
reads across time, so a model using it leaks the future although every
attention weight above the diagonal is exactly zero.  Never use it in a model.

Every check is about one forward pass with fixed parameters.  A training step
that changes the parameters between two forwards is not a leak.
"""

from typing import NamedTuple

import numpy as np

from . import validate
from .attention import _scores, causal_future, masked_softmax, multi_head_attention, split_heads
from .model import AttentionModel


# --------------------------------------------------------------------------
# Models to check
# --------------------------------------------------------------------------

def chapter_model(dtype=np.float64):
    """§4-§6. The chapter's model with hand-chosen parameters: V=6, C=8, D=4, H=2, identity Q/K/V.

    Vocabulary ``<unk> <bos> <eos> 春 雨 风`` (ids 0..5).  Row 0 (UNK) is
    deliberately large, so that a leak of an UNK in the future is easy to see;
    rows 1 (BOS) and 5 (风) are equal, a trap for a careless perturbation test.
    P[t] = [0.1 (t+1), 0.03 t, 0.07 (t mod 2), -0.02 t] for t = 0..7.
    ``dtype`` (float32 or float64) is the dtype of every parameter.
    """
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
    position_table = np.stack([0.1 * (t + 1), 0.03 * t, 0.07 * (t % 2), -0.02 * t], axis=1)  # (C, D)
    w_o = np.array([
        [1.0, 0.0, 1.0, 0.0],
        [0.0, 1.0, 0.0, 1.0],
        [1.0, 0.0, -1.0, 0.0],
        [0.0, 1.0, 0.0, -1.0],
    ], dtype=dtype)                                                   # (D, D)
    identity = np.eye(4, dtype=dtype)                                 # (D, D)
    return AttentionModel(token_table, position_table, identity, identity, identity, w_o, n_heads=2)


def random_model(rng, *, vocab_size, context_size, width, n_heads, dtype=np.float64):
    """§4, §5. An AttentionModel with random parameters, for checks on many sizes.

    Tables are standard normal, projections are normal with variance 1/width,
    so attention scores stay of order one.  ``rng`` is a Generator or a seed;
    every parameter has the float ``dtype``.
    """
    rng = np.random.default_rng(rng)
    for name, value in (("vocab_size", vocab_size), ("context_size", context_size), ("width", width)):
        validate.integer(value, name)
    validate.head_width(width, n_heads)
    dtype = validate.float_dtype(dtype)
    token_table = rng.standard_normal((vocab_size, width)).astype(dtype)          # (V, D)
    position_table = rng.standard_normal((context_size, width)).astype(dtype)     # (C, D)
    w_q, w_k, w_v, w_o = (
        (rng.standard_normal((width, width)) / np.sqrt(width)).astype(dtype) for _ in range(4)
    )                                                                               # 4 x (D, D)
    return AttentionModel(token_table, position_table, w_q, w_k, w_v, w_o, n_heads)


# --------------------------------------------------------------------------
# Layers with and without a time axis (§4)
# --------------------------------------------------------------------------

def feature_normalization(x, eps=1e-5):
    """§4. Normalise every position over its own features (axis -1), like LayerNorm without scale.

    x: (..., T, D) -> same shape and float dtype.  Output row t reads only input
    row t, so this layer keeps a causal model causal.
    """
    x = validate.float_array(x, "x")
    validate.positive_number(eps, "eps")
    mean = x.mean(axis=-1, keepdims=True)                             # (..., T, 1)
    var = x.var(axis=-1, keepdims=True)                               # (..., T, 1)
    return (x - mean) / np.sqrt(var + x.dtype.type(eps))


def leaky_time_normalization(x, eps=1e-5):
    """§4. COUNTER-EXAMPLE, never use it in a model: normalise every feature over the TIME axis.

    x: (..., T, D) -> same shape and float dtype.  The mean and variance of each
    feature are taken over all T positions, so output row 0 already depends on
    row T-1: placed before or after a correctly masked attention, it leaks the
    future while every attention weight above the diagonal stays exactly 0.
    The only difference from :func:`feature_normalization` is the axis.
    """
    x = validate.float_array(x, "x")
    validate.positive_number(eps, "eps")
    mean = x.mean(axis=-2, keepdims=True)                             # (..., 1, D): reads every position
    var = x.var(axis=-2, keepdims=True)                               # (..., 1, D)
    return (x - mean) / np.sqrt(var + x.dtype.type(eps))


def forward_with(model, ids, *, before=None, after=None, causal=True):
    """§4. ``model.forward`` with an extra layer before and/or after the attention.

    ids: (T,) or (B, T) -> (T, D) or (B, T, D).  ``before`` acts on the input
    vectors E[x] + P[t], ``after`` on the attention output; each maps
    (B, T, D) -> (B, T, D).  Used to show which extra layers keep causality.
    """
    for name, layer in (("before", before), ("after", after)):
        if layer is not None and not callable(layer):
            raise TypeError(f"{name} must be a function (B, T, D) -> (B, T, D) or None, got {type(layer).__name__}")
    x = model.embed(ids)                                              # (T, D) or (B, T, D)
    batch = x[None] if x.ndim == 2 else x                             # (B, T, D)
    if before is not None:
        batch = before(batch)
    out = multi_head_attention(batch, model.w_q, model.w_k, model.w_v, model.w_o, model.n_heads, causal=causal)
    if after is not None:
        out = after(out)
    return out[0] if x.ndim == 2 else out


def attention_weights(x, w_q, w_k, n_heads, causal=True):
    """§4. The weights every head puts on every key: (B, T, D) -> (B, H, T, T).

    Built from the same pieces as :func:`lib.attention.causal_attention`,
    so the weights can be inspected (e.g. with :func:`upper_right_is_zero`).
    Returns the common float dtype of x, w_q and w_k.
    """
    x, w_q, w_k = validate.projections(x, w_q=w_q, w_k=w_k)
    if x.ndim != 3:
        raise ValueError(f"attention_weights expects x of shape (B, T, D), got {x.shape}")
    validate.head_width(x.shape[-1], n_heads)
    q = split_heads(x @ w_q, n_heads)                                 # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                                 # (B, H, T, d)
    T = q.shape[-2]
    allowed = ~causal_future(T, T) if validate.boolean(causal, "causal") else np.ones((T, T), dtype=bool)
    return masked_softmax(_scores(q, k), allowed)                     # (B, H, T, T)


def upper_right_is_zero(weights):
    """§4. True if every weight on a future key (j > i) is exactly 0.

    weights: (..., T, T).  A NECESSARY condition only: it inspects the attention
    weights and cannot see a leak elsewhere in the computation.
    """
    weights = np.asarray(weights)
    if weights.ndim < 2 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError(f"weights must have shape (..., T, T), got {weights.shape}")
    future = causal_future(weights.shape[-2], weights.shape[-1])     # (T, T), True = forbidden
    return bool(np.all(weights[..., future] == 0))


# --------------------------------------------------------------------------
# The future-perturbation test and its negative control (§4)
# --------------------------------------------------------------------------

def _is_ids(inputs):
    if np.issubdtype(inputs.dtype, np.integer):
        return True
    if np.issubdtype(inputs.dtype, np.floating):
        return False
    raise TypeError(f"inputs must be token ids (ints) or vectors (floats), got dtype {inputs.dtype}")


def _time_axis(inputs):
    """Ids (T,) / (B, T): the last axis; vectors (T, D) / (B, T, D): the one before the last."""
    if _is_ids(inputs):
        if inputs.ndim not in (1, 2):
            raise ValueError(f"ids must have shape (T,) or (B, T), got {inputs.shape}")
        return inputs.ndim - 1
    if inputs.ndim not in (2, 3):
        raise ValueError(f"vectors must have shape (T, D) or (B, T, D), got {inputs.shape}")
    return inputs.ndim - 2


def _check_prefix_length(prefix_length, T):
    if not 1 <= validate.integer(prefix_length, "prefix_length", minimum=-np.inf) < T:
        raise ValueError(
            f"prefix_length={prefix_length} with T={T}: need 1 <= prefix_length < T, so that there is "
            "at least one prefix output to compare and at least one future position to change "
            "(an empty comparison passes whatever the model does)"
        )


def perturb_future(inputs, prefix_length, rng, *, vocab_size=None, scale=1.0):
    """§4. A copy of ``inputs`` with the prefix kept and every later position changed.

    Ids (T,) or (B, T): each future id is replaced by a different id in
    0..vocab_size-1.  Vectors (T, D) or (B, T, D): each future row gets normal
    noise of standard deviation ``scale`` added (dtype kept).  ``rng`` is a
    Generator or a seed.  Different ids may still have equal embeddings: that is
    what the negative control is for.

    The new future values are finite on purpose, and non-finite vectors are
    refused: a NaN or an infinity in the future reaches earlier outputs through
    0 * nan = nan in any attention implementation, so the test would report a
    leak that the mask does not have.
    """
    inputs = np.asarray(inputs)
    axis = _time_axis(inputs)
    T = inputs.shape[axis]
    _check_prefix_length(prefix_length, T)
    rng = np.random.default_rng(rng)
    future = np.moveaxis(inputs, axis, 0)[prefix_length:]             # (T - p, ...) view of the future
    out = inputs.copy()
    out_future = np.moveaxis(out, axis, 0)[prefix_length:]            # writable view into out
    if _is_ids(inputs):
        if vocab_size is None:
            raise ValueError("perturbing ids needs vocab_size (>= 2, so that a different id exists)")
        vocab_size = validate.integer(vocab_size, "vocab_size", 2)
        if future.size and (future.min() < 0 or future.max() >= vocab_size):
            raise ValueError(f"ids must lie in 0..{vocab_size - 1}, got values {future.min()}..{future.max()}")
        shift = rng.integers(1, vocab_size, size=future.shape)        # never 0, so the id always changes
        out_future[...] = (future + shift) % vocab_size
    else:
        if not np.isfinite(inputs).all():
            raise ValueError("vectors to perturb must be finite (a NaN or an infinity would leak through 0 * nan)")
        validate.positive_number(scale, "scale")
        noise = scale * rng.standard_normal(future.shape)
        out_future[...] = future + noise.astype(inputs.dtype)
    return out


def row_changes(forward, inputs, perturbed):
    """§4. Largest absolute change of every output row: (T,) float64.

    forward maps ids (T,)/(B, T) or vectors (T, D)/(B, T, D) to outputs whose
    leading axes are the same (T or B, T) followed by features.  Row t's change
    is the maximum over batch and features of |forward(inputs) - forward(perturbed)|.
    """
    inputs, perturbed = np.asarray(inputs), np.asarray(perturbed)
    if inputs.shape != perturbed.shape:
        raise ValueError(f"inputs {inputs.shape} and perturbed {perturbed.shape} must have the same shape")
    if _is_ids(inputs) != _is_ids(perturbed):
        raise TypeError("inputs and perturbed must both be ids or both be vectors")
    axis = _time_axis(inputs)
    lead = inputs.shape[:axis + 1]                                    # (T,) or (B, T)
    a, b = np.asarray(forward(inputs)), np.asarray(forward(perturbed))
    for out in (a, b):
        if out.shape[:len(lead)] != lead or out.ndim != len(lead) + 1:
            raise ValueError(f"forward returned shape {out.shape}; expected {lead} + (D,) for inputs of shape {inputs.shape}")
    diff = np.abs(a.astype(np.float64) - b.astype(np.float64))        # (..., T, D)
    reduce_axes = tuple(i for i in range(diff.ndim) if i != axis)
    return diff.max(axis=reduce_axes)                                 # (T,)


def future_change(forward, inputs, perturbed, prefix_length):
    """§4. The future-perturbation test: the largest change of the prefix outputs.

    ``inputs`` and ``perturbed`` must agree on positions 0..prefix_length-1 and
    differ at every later position (see :func:`perturb_future`).  Returns a
    Python float; a causal forward gives (close to) 0.  The number is only
    evidence together with :func:`check_causality`'s negative control.
    """
    inputs, perturbed = np.asarray(inputs), np.asarray(perturbed)
    if inputs.shape != perturbed.shape:
        raise ValueError(f"inputs {inputs.shape} and perturbed {perturbed.shape} must have the same shape")
    axis = _time_axis(inputs)
    T = inputs.shape[axis]
    _check_prefix_length(prefix_length, T)
    a, b = np.moveaxis(inputs, axis, 0), np.moveaxis(perturbed, axis, 0)   # time first
    if not np.array_equal(a[:prefix_length], b[:prefix_length]):
        raise ValueError("inputs and perturbed differ inside the prefix; only positions >= prefix_length may change")
    unchanged = a[prefix_length:] == b[prefix_length:]                # ids (T-p,) / (T-p, B); vectors (T-p, [B,] D)
    if not _is_ids(inputs):
        unchanged = unchanged.all(axis=-1)                            # a vector row is unchanged if all features are
    if unchanged.any():
        where = np.argwhere(np.atleast_1d(unchanged))[0]
        raise ValueError(
            f"future position {prefix_length + int(where[0])} is unchanged; every position after "
            "the prefix must change, otherwise the test perturbs less of the future than it claims"
        )
    return float(row_changes(forward, inputs, perturbed)[:prefix_length].max())


class CausalityCheck(NamedTuple):
    """§4. Result of :func:`check_causality`."""

    change: float           # prefix change of the forward under test
    control_change: float   # prefix change of the negative control (mask off)
    tolerance: float

    @property
    def causal(self):
        """The forward under test left the prefix unchanged (within tolerance)."""
        return self.change <= self.tolerance

    @property
    def control_saw_change(self):
        """The negative control moved the prefix; if not, the test itself is broken."""
        return self.control_change > self.tolerance

    @property
    def passed(self):
        return self.causal and self.control_saw_change

    def raise_if_failed(self):
        if not self.control_saw_change:
            raise AssertionError(
                f"the negative control changed the prefix by only {self.control_change!r} <= {self.tolerance!r}: "
                "the test cannot see a leak here (degenerate input, constant output or wrong positions?)"
            )
        if not self.causal:
            raise AssertionError(f"leak: the prefix outputs changed by {self.change!r} > {self.tolerance!r}")


def check_causality(forward, control, inputs, perturbed, prefix_length, tolerance=1e-12):
    """§4. The future-perturbation test together with its negative control.

    ``forward`` is the implementation under test, ``control`` the same
    computation with the mask switched off (for a model: ``lambda ids:
    model.forward(ids, causal=False)``).  Returns a :class:`CausalityCheck`;
    it passes when the forward's prefix change is <= tolerance AND the
    control's change is > tolerance.  For float32 models pass a larger tolerance.
    """
    if not tolerance >= 0:
        raise ValueError(f"tolerance must be >= 0, got {tolerance}")
    change = future_change(forward, inputs, perturbed, prefix_length)
    control_change = future_change(control, inputs, perturbed, prefix_length)
    return CausalityCheck(change, control_change, float(tolerance))


# --------------------------------------------------------------------------
# The KV cache (§5)
# --------------------------------------------------------------------------

def incremental_forward(model, ids, cache=None, positions=None):
    """§5. Outputs (T, D) of ``model.step`` fed one token at a time.

    Starts from ``cache`` (an empty new cache by default) and leaves every key
    and value in it.  ``positions`` (T ints) overrides the positions only to
    reproduce the reset bug of §5; leave it None.
    """
    ids = np.asarray(ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError(f"incremental_forward feeds one unpadded stream: ids must be a non-empty (T,) int array, got {ids.shape} {ids.dtype}")
    if positions is not None and len(positions) != len(ids):
        raise ValueError(f"{len(positions)} positions for {len(ids)} tokens; give one position per token or None")
    cache = model.new_cache() if cache is None else cache
    outputs = [
        model.step(int(token), cache, position=None if positions is None else int(positions[t]))
        for t, token in enumerate(ids)                                # one step per new token, as at inference
    ]
    return np.stack(outputs)                                          # (T, D)


def cache_error(model, ids):
    """§5. max |incremental_forward(model, ids) - model.forward(ids)| over all positions and features."""
    full = model.forward(np.asarray(ids))                             # (T, D)
    return float(np.abs(incremental_forward(model, ids) - full).max())


def kv_cache_bytes(n_layers, n_heads, head_width, length, batch=1, itemsize=4):
    """§5. Memory of a KV cache: a key and a value per layer, head, position and sequence.

    2 * n_layers * n_heads * length * head_width * batch * itemsize bytes; with
    D = n_heads * head_width this is 2 * n_layers * length * D * batch * itemsize.
    """
    for name, value in (("n_layers", n_layers), ("n_heads", n_heads), ("head_width", head_width),
                        ("length", length), ("batch", batch), ("itemsize", itemsize)):
        validate.integer(value, name, 0)
    return 2 * n_layers * n_heads * length * head_width * batch * itemsize
