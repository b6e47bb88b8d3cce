"""The layers of the small decoder (§7), each backward next to its forward, as in llm.c.

Every ``*_forward`` returns ``(out, saved)``, ``saved`` a NamedTuple of what the backward needs
(not the KV cache of §5: it is thrown away after the backward); the ``*_backward`` beside it
takes the upstream gradient ``d_out`` and returns the gradients of the inputs and parameters.
Any leading (batch) axes, the input's dtype kept; a stack's parameter (lib.decoder) has leading
axes of its own, and its gradient sums over its model's rows only.  The attention forwards are
in :mod:`lib.attention`, the embedding and its backward in :mod:`lib.positions`."""

import math
from typing import NamedTuple

import numpy as np

from . import validate
from .attention import (BLAS_SPLIT, causal_attention_forward, merge_heads,  # noqa: F401 (§7)
                        multi_head_attention_forward, _product, split_heads)
from .validate import checked


def _rows(a, lead=()):
    """a (..., n) as the rows of a shared parameter's gradient: (N, n), or, for a stack's parameter
    (lead = (S, 1, ...): one model per entry of S), the rows of each model, (S, N, n)."""
    models = lead[:len(lead) - lead.count(1)]
    return a.reshape(models + (-1, a.shape[-1]))


def _weight_gradient(x, d_out, w):
    """The gradient of w in x @ w: x^T d_out by model, in products of at most BLAS_SPLIT mults."""
    x, d_out, models = np.atleast_2d(x), np.atleast_2d(d_out), w.shape[:-2]
    if x.size * d_out.shape[-1] <= BLAS_SPLIT * math.prod(models):   # a model's rows in one product
        return (np.swapaxes(_rows(x, models), -1, -2) @ _rows(d_out, models)).reshape(w.shape)
    each = np.swapaxes(x, -1, -2) @ d_out                   # (..., n, m): one per sequence
    return _rows(each.reshape(*each.shape[:-2], -1), models).sum(-2).reshape(w.shape)


# -- Masked softmax (§1) and attention (§1, §2): the forwards are in lib.attention ---

@checked(validate.softmax_backward)
def masked_softmax_backward(d_weights, weights):
    """§7. Gradient of the scores from that of weights = masked_softmax(scores, allowed) (§1):
    d_scores[j] = w[j] (d_weights[j] - sum_k w[k] d_weights[k]), exactly 0 where w = 0."""
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)     # (..., 1)
    return weights * (d_weights - along_row)                            # (..., Tk)


def causal_attention_backward(d_out, saved):
    """§7. Gradients (dq, dk, dv) of :func:`lib.attention.causal_attention_forward`; a forbidden
    pair has weight 0, so no key in a query's future receives anything from that query."""
    q, k, v, weights = saved
    scale = q.dtype.type(1.0 / math.sqrt(q.shape[-1]))
    d_weights = d_out @ np.swapaxes(v, -1, -2)                          # (..., Tq, Tk)
    d_v = np.swapaxes(weights, -1, -2) @ d_out                          # (..., Tk, dv)
    d_scores = masked_softmax_backward.plain(d_weights, weights)        # (..., Tq, Tk)
    d_q = (d_scores @ k) * scale                                        # (..., Tq, d)
    d_k = (np.swapaxes(d_scores, -1, -2) @ q) * scale                   # (..., Tk, d)
    return d_q, d_k, d_v


def multi_head_attention_backward(d_out, saved):
    """§7. Gradients (dx, dw_q, dw_k, dw_v, dw_o) of lib.attention.multi_head_attention_forward."""
    d_w_o = _weight_gradient(saved.merged, d_out, saved.w_o)            # (D, D)
    d_merged = d_out @ np.swapaxes(saved.w_o, -1, -2)                   # (B, T, D)
    d_heads = split_heads.plain(d_merged, saved.n_heads)                # (B, H, T, d)
    d_q, d_k, d_v = causal_attention_backward(d_heads, saved.attention) # 3 x (B, H, T, d)
    d_x, d_ws = np.zeros_like(saved.x), []                              # (B, T, D)
    for d_heads_w, w in ((d_q, saved.w_q), (d_k, saved.w_k), (d_v, saved.w_v)):
        d_projected = merge_heads.plain(d_heads_w)                      # (B, T, D): of x @ w
        d_ws.append(_weight_gradient(saved.x, d_projected, w))          # (D, D)
        d_x += d_projected @ np.swapaxes(w, -1, -2)                     # x feeds all three
    return (d_x, *d_ws, d_w_o)


# -- Layer normalisation (§4: normalisation within each position) ----------

class LayerNormSaved(NamedTuple):
    normalised: np.ndarray  # (..., D), (x - mean) * rstd
    rstd: np.ndarray        # (..., 1), 1 / sqrt(var + eps)
    gain: np.ndarray        # (D,)


@checked(validate.layer_norm)
def layer_norm_forward(x, gain, bias, eps=1e-5):
    """§7. Normalise every position over its own D features, then scale and shift: x (..., D)
    -> (x - mean) / sqrt(var + eps) * gain + bias, the population variance (torch.nn.LayerNorm)."""
    centred = x - x.sum(axis=-1, keepdims=True) / x.shape[-1]          # (..., D), minus the mean
    var = (centred * centred).sum(axis=-1, keepdims=True) / x.shape[-1]   # (..., 1), population
    rstd = 1.0 / np.sqrt(var + x.dtype.type(eps))                       # (..., 1)
    normalised = centred * rstd                                         # (..., D)
    return normalised * gain + bias, LayerNormSaved(normalised, rstd, gain)


def layer_norm_backward(d_out, saved):
    """§7. Gradients (dx, d_gain, d_bias) of :func:`layer_norm_forward`.  With n the normalised
    input and g = d_out * gain: dx = rstd * (g - mean(g) - n * mean(g * n)), means over D."""
    (normalised, rstd, gain), D = saved, d_out.shape[-1]      # sum / D: np.mean, less overhead
    d_normalised = d_out * gain                                         # (..., D)
    d_x = rstd * (d_normalised - d_normalised.sum(axis=-1, keepdims=True) / D
                  - normalised * ((d_normalised * normalised).sum(axis=-1, keepdims=True) / D))
    d_gain = _rows(d_out * normalised, gain.shape[:-1]).sum(axis=-2).reshape(gain.shape)  # (D,)
    d_bias = _rows(d_out, gain.shape[:-1]).sum(axis=-2).reshape(gain.shape)               # (D,)
    return d_x, d_gain, d_bias


# -- GELU, tanh form (as in GPT-2) -----------------------------------------

class GeluSaved(NamedTuple):
    x: np.ndarray           # the input
    s: np.ndarray           # sigmoid(2u) = (1 + tanh u) / 2, u = sqrt(2/pi) (x + 0.044715 x^3)


@checked(validate.gelu)
def gelu_forward(x):
    """§7. GELU, tanh form (GPT-2's; torch's approximate="tanh"): x (1 + tanh u) / 2 = x s."""
    s = (-2 * math.sqrt(2 / math.pi)) * x * (1 + 0.044715 * x * x)     # -2u; s: one exp, no tanh
    with np.errstate(over="ignore"):                    # exp -> inf for x < -22: s = 0, exactly
        s = 1 / (1 + np.exp(s, out=s))                                  # sigmoid(2u)
    return x * s, GeluSaved(x, s)


def gelu_backward(d_out, saved):
    """§7. Gradient dx of :func:`gelu_forward`: s + x s (1 - s) 2u', as tanh' = 1 - tanh^2."""
    x, s = saved
    d_2u = (2 * math.sqrt(2 / math.pi)) * (1 + 3 * 0.044715 * x * x)   # d/dx of sigmoid's argument
    return d_out * (s + x * s * (1 - s) * d_2u)


# -- Linear map and the position-wise MLP ----------------------------------

class LinearSaved(NamedTuple):
    x: np.ndarray           # (..., n_in)
    w: np.ndarray           # (n_in, n_out)
    b: np.ndarray | None    # (n_out,), or None without a bias


@checked(validate.linear)
def linear_forward(x, w, b=None):
    """§7. x @ w (+ b), row-vector convention: x (..., n_in), w (n_in, n_out), b (n_out,) or
    None.  Also the decoder's output layer (D to V, no bias)."""
    out = _product(x, w)                                                # (..., n_out)
    if b is not None:
        out += b
    return out, LinearSaved(x, w, b)


def linear_backward(d_out, saved):
    """§7. Gradients (dx, dw, db) of :func:`linear_forward`; db is None without a bias."""
    x, w, b = saved
    d_x = d_out @ np.swapaxes(w, -1, -2)                                # (..., n_in)
    d_w = _weight_gradient(x, d_out, w)                                 # (n_in, n_out)
    d_b = None if b is None else _rows(d_out, b.shape[:-1]).sum(axis=-2).reshape(b.shape)
    return d_x, d_w, d_b


class MlpSaved(NamedTuple):
    linear_1: LinearSaved   # x @ w_1 + b_1
    gelu: GeluSaved
    linear_2: LinearSaved   # GELU(...) @ w_2 + b_2


@checked(validate.mlp)
def mlp_forward(x, w_1, b_1, w_2, b_2):
    """§7. The position-wise MLP: GELU(x @ w_1 + b_1) @ w_2 + b_2, w_1 (D, F), w_2 (F, D).
    Every position goes through it on its own: row t reads only row t."""
    hidden, saved_1 = linear_forward.plain(x, w_1, b_1)                 # (..., F)
    activated, saved_gelu = gelu_forward.plain(hidden)                  # (..., F)
    out, saved_2 = linear_forward.plain(activated, w_2, b_2)            # (..., D)
    return out, MlpSaved(saved_1, saved_gelu, saved_2)


def mlp_backward(d_out, saved):
    """§7. Gradients (dx, dw_1, db_1, dw_2, db_2) of :func:`mlp_forward`."""
    saved_1, saved_gelu, saved_2 = saved
    d_activated, d_w_2, d_b_2 = linear_backward(d_out, saved_2)         # (..., F)
    d_hidden = gelu_backward(d_activated, saved_gelu)                   # (..., F)
    d_x, d_w_1, d_b_1 = linear_backward(d_hidden, saved_1)              # (..., D)
    return d_x, d_w_1, d_b_1, d_w_2, d_b_2


# -- Cross-entropy over the scored targets (§1: IGNORE = -100 is never scored) ---

class CrossEntropySaved(NamedTuple):
    log_probs: np.ndarray   # (..., V), log softmax of the logits
    targets: np.ndarray     # (...), IGNORE replaced by 0 (a valid index, masked by `scored`)
    scored: np.ndarray      # (...), True where the target counts
    count: np.ndarray       # how many targets count, summed over (B, T) kept as axes of size 1


@checked(validate.cross_entropy)
def cross_entropy_forward(logits, targets):
    """§7. Mean of -log softmax(logits)[target] over the targets that are not IGNORE (-100):
    logits (..., V), targets (...).  The mean is over the last two axes of targets (B, T): the
    loss is a float, a stack's (S, B, T) gives S means."""
    batch_axes = tuple(range(targets.ndim))[-2:]                        # (B, T): one mean per model
    scored = targets != validate.IGNORE                                 # (...) what counts
    count = scored.sum(axis=batch_axes, keepdims=True)                  # (1, 1); a stack: (S, 1, 1)
    shifted = logits - logits.max(axis=-1, keepdims=True)               # (..., V), largest -> 0
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))      # (..., V)
    safe_targets = np.where(scored, targets, 0)                         # IGNORE -> any id, masked
    picked = np.take_along_axis(log_probs, safe_targets[..., None], axis=-1)[..., 0]   # (...)
    loss = -np.sum(picked, axis=batch_axes, where=scored, dtype=np.float64, keepdims=True) / count
    loss = loss.reshape(targets.shape[:-2])                             # () or (S,)
    saved = CrossEntropySaved(log_probs, safe_targets, scored, count)
    return (float(loss) if loss.ndim == 0 else loss), saved


def cross_entropy_backward(d_loss, saved):
    """§7. Gradient of the logits: d_loss * (softmax - one_hot(target)) / count on scored rows, 0
    elsewhere.  d_loss: 1.0 when the loss is what is minimised (a stack's: also one per model)."""
    log_probs, safe_targets, scored, count = saved
    d_logits = np.exp(log_probs)                                        # (..., V) = softmax
    np.put_along_axis(d_logits, safe_targets[..., None],
                      np.take_along_axis(d_logits, safe_targets[..., None], axis=-1) - 1, axis=-1)
    d_loss = np.reshape(d_loss, np.shape(d_loss) + (1,) * (count.ndim - np.ndim(d_loss)))
    d_logits *= (scored * (d_loss / count))[..., None].astype(d_logits.dtype)   # padding rows -> 0
    return d_logits


# -- Checking a backward: central finite differences (§7.1) ----------------

@checked(validate.finite_differences)
def numerical_gradient(f, x, eps=1e-6):
    """§7. Central differences of a scalar function f at x, for every entry of x.  ``f`` takes no
    argument and reads x, a float64 array changed in place entry by entry and restored bit for
    bit: two calls of f per entry, for small arrays (:func:`numerical_partial` for one entry)."""
    grad = np.empty_like(x)
    for index in np.ndindex(x.shape):
        grad[index] = numerical_partial.plain(f, x, index, eps)
    return grad


@checked(validate.finite_differences)
def numerical_partial(f, x, index, eps=1e-6):
    """§7. (f() with x[index] + eps - f() with x[index] - eps) / (2 eps); x is restored exactly."""
    kept = x[index]
    try:
        x[index] = kept + eps
        f_plus = float(f())
        x[index] = kept - eps
        f_minus = float(f())
    finally:
        x[index] = kept                                                 # restored bit for bit
    return (f_plus - f_minus) / (2 * eps)


@checked(validate.relative_error)
def relative_error(analytic, numeric):
    """§7. max |analytic - numeric| / max(max |analytic|, max |numeric|), 0 when both are 0."""
    scale = max(float(np.abs(analytic).max(initial=0.0)), float(np.abs(numeric).max(initial=0.0)))
    return float(np.abs(analytic - numeric).max(initial=0.0)) / scale if scale > 0 else 0.0
