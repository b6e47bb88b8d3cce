"""The layers of the small decoder (§7), each forward next to its backward.

Written in the manner of llm.c: every ``*_forward`` returns ``(out, saved)``,
where ``saved`` holds what the backward needs, and the ``*_backward`` beside it
takes the gradient of the loss with respect to ``out`` (the upstream gradient,
``d_out``) and returns the gradients of the inputs and parameters.  Shapes are
in the comments; every function keeps the dtype of its input (float32 or
float64) and is vectorised over any leading (batch) axes.

``saved`` is not the KV cache of §5: it is what one forward pass keeps for its
own backward, and it is thrown away after the backward.  Each layer's ``saved``
is a NamedTuple whose fields name what is kept (as llm.c's backward signatures
name ``mean, rstd``).

Arguments are checked where they enter, in each ``*_forward`` (with
:mod:`lib.validate`, under the package's dtype rule); a ``*_backward`` trusts
the ``saved`` of its forward.

What is reused rather than written again: the masked softmax, the causal mask
with its bottom-right alignment, the scaled scores and the split and merge of
heads come from :mod:`lib.attention` (§1, §2); the embedding and its
scatter-add backward from :mod:`lib.positions` (§3); IGNORE from :mod:`lib.data`.
"""

import math
from typing import NamedTuple

import numpy as np

from . import validate
from .attention import _scores, _softmax_where, causal_future, merge_heads, split_heads
from .data import IGNORE


def _rows(a, lead=()):
    """a (..., n) as rows (N, n), for the gradient of a parameter that every row shares; a stack's
    parameter (lead = (S, 1, ...): one model per entry of S) gets the rows of its model, (S, N, n)."""
    models = lead[:len(lead) - lead.count(1)]
    return a.reshape(models + (-1, a.shape[-1]))


# --------------------------------------------------------------------------
# Masked softmax (§1)
# --------------------------------------------------------------------------
# forward: lib.attention.masked_softmax(scores, allowed) -> weights

def masked_softmax_backward(d_weights, weights):
    """§7. Gradient of the scores from the gradient of the masked softmax weights.

    d_weights, weights: (..., Tk), weights = masked_softmax(scores, allowed).
    d_scores[j] = w[j] * (d_weights[j] - sum_k w[k] d_weights[k]).  A forbidden
    entry has w = 0, so its gradient is exactly 0: its score never reached the
    output.  Returns (..., Tk) in the dtype of weights.
    """
    d_weights, weights = validate.float_arrays(d_weights=d_weights, weights=weights)
    if d_weights.shape != weights.shape:
        raise ValueError(f"d_weights has shape {d_weights.shape} but weights has shape {weights.shape}; they must match")
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)     # (..., 1)
    return weights * (d_weights - along_row)                            # (..., Tk)


# --------------------------------------------------------------------------
# Causal attention, one head or many heads side by side (§1, §2, §5)
# --------------------------------------------------------------------------

class AttentionSaved(NamedTuple):
    q: np.ndarray           # (..., Tq, d)
    k: np.ndarray           # (..., Tk, d)
    v: np.ndarray           # (..., Tk, dv)
    weights: np.ndarray     # (..., Tq, Tk), the masked softmax


def causal_attention_forward(q, k, v, causal=True):
    """§7. softmax over the allowed keys of q k^T / sqrt(d), times v, keeping the weights.

    q: (..., Tq, d), k: (..., Tk, d), v: (..., Tk, dv) with Tq <= Tk; query i
    sits at position Tk - Tq + i (bottom-right alignment, :func:`lib.attention.causal_future`).
    ``causal=False`` lets every query read every key: the negative control only.
    Returns out (..., Tq, dv) and an :class:`AttentionSaved`.
    """
    q, k, v, _ = validate.attention_inputs(q, k, v)
    return _attention_forward(q, k, v, validate.boolean(causal, "causal"))


def _attention_forward(q, k, v, causal):
    tq, tk = q.shape[-2], k.shape[-2]
    allowed = ~causal_future(tq, tk) if causal else np.ones((tq, tk), dtype=bool)   # (Tq, Tk)
    weights = _softmax_where(_scores(q, k), allowed)                    # (..., Tq, Tk)
    return weights @ v, AttentionSaved(q, k, v, weights)                # (..., Tq, dv)


def causal_attention_backward(d_out, saved):
    """§7. Gradients (dq, dk, dv) of :func:`causal_attention_forward`.

    d_out: (..., Tq, dv).  Forbidden pairs have weight 0 and get no gradient,
    so no key in a query's future receives anything from that query.
    """
    q, k, v, weights = saved
    scale = q.dtype.type(1.0 / math.sqrt(q.shape[-1]))
    d_weights = d_out @ np.swapaxes(v, -1, -2)                          # (..., Tq, Tk)
    d_v = np.swapaxes(weights, -1, -2) @ d_out                          # (..., Tk, dv)
    d_scores = masked_softmax_backward(d_weights, weights)              # (..., Tq, Tk)
    d_q = (d_scores @ k) * scale                                        # (..., Tq, d)
    d_k = (np.swapaxes(d_scores, -1, -2) @ q) * scale                   # (..., Tk, d)
    return d_q, d_k, d_v


class MultiHeadSaved(NamedTuple):
    x: np.ndarray                   # (B, T, D), the input
    w_q: np.ndarray                 # (D, D), and the three below
    w_k: np.ndarray
    w_v: np.ndarray
    w_o: np.ndarray
    n_heads: int
    merged: np.ndarray              # (B, T, D), the heads merged, before W_O
    attention: AttentionSaved       # of the H heads side by side, (B, H, T, d)


def multi_head_attention_forward(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """§7. Multi-head attention of §2 (split, causal attention per head, merge, W_O), no biases.

    x: (B, T, D); w_q, w_k, w_v, w_o: (D, D).  Returns out (B, T, D) and a :class:`MultiHeadSaved`.
    """
    x, w_q, w_k, w_v, w_o = validate.projections(x, w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o)
    validate.head_width(x.shape[-1], n_heads)
    causal = validate.boolean(causal, "causal")
    q = split_heads(x @ w_q, n_heads)                                   # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                                   # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)                                   # (B, H, T, d)
    heads, attention_saved = _attention_forward(q, k, v, causal)        # (B, H, T, d)
    merged = merge_heads(heads)                                         # (B, T, D)
    return merged @ w_o, MultiHeadSaved(x, w_q, w_k, w_v, w_o, int(n_heads), merged, attention_saved)


def multi_head_attention_backward(d_out, saved):
    """§7. Gradients (dx, dw_q, dw_k, dw_v, dw_o) of :func:`multi_head_attention_forward`.

    d_out: (B, T, D).  A weight's gradient sums over every batch row and position.
    """
    lead = saved.w_o.shape[:-2]                                         # (), a stack's (S, 1)
    d_w_o = (np.swapaxes(_rows(saved.merged, lead), -1, -2) @ _rows(d_out, lead)).reshape(saved.w_o.shape)
    d_heads = split_heads(d_out @ np.swapaxes(saved.w_o, -1, -2), saved.n_heads)         # (B, H, T, d)
    d_q, d_k, d_v = causal_attention_backward(d_heads, saved.attention) # 3 x (B, H, T, d)
    x, d_x = saved.x, np.zeros_like(saved.x)                            # (B, T, D)
    d_ws = []
    for d_heads_w, w in ((d_q, saved.w_q), (d_k, saved.w_k), (d_v, saved.w_v)):
        d_projected = merge_heads(d_heads_w)                            # (B, T, D): gradient of x @ w
        d_ws.append((np.swapaxes(_rows(x, lead), -1, -2) @ _rows(d_projected, lead)).reshape(w.shape))
        d_x += d_projected @ np.swapaxes(w, -1, -2)                                      # x feeds all three projections
    return (d_x, *d_ws, d_w_o)


# --------------------------------------------------------------------------
# Layer normalisation (§4: normalisation within each position)
# --------------------------------------------------------------------------

class LayerNormSaved(NamedTuple):
    normalised: np.ndarray  # (..., D), (x - mean) * rstd
    rstd: np.ndarray        # (..., 1), 1 / sqrt(var + eps)
    gain: np.ndarray        # (D,)


def layer_norm_forward(x, gain, bias, eps=1e-5):
    """§7. Normalise every position over its own D features, then scale and shift.

    x: (..., D); gain, bias: (D,).  (x - mean) / sqrt(var + eps) * gain + bias,
    with the population variance (as torch.nn.LayerNorm).  Row t of the output
    reads only row t of the input (§4, step 6).  Returns out (..., D) and a :class:`LayerNormSaved`.
    """
    x, gain, bias = validate.float_arrays(x=x, gain=gain, bias=bias)
    D = x.shape[-1]
    for name, a in (("gain", gain), ("bias", bias)):                    # a stack's: (S, 1, 1, D)
        if a.shape[-1:] != (D,):
            raise ValueError(f"{name} has shape {a.shape}, expected ({D},)")
    validate.positive_number(eps, "eps")
    mean = x.mean(axis=-1, keepdims=True)                               # (..., 1)
    centred = x - mean                                                  # (..., D)
    var = (centred * centred).mean(axis=-1, keepdims=True)              # (..., 1), the population variance
    rstd = 1.0 / np.sqrt(var + x.dtype.type(eps))                       # (..., 1)
    normalised = centred * rstd                                         # (..., D)
    return normalised * gain + bias, LayerNormSaved(normalised, rstd, gain)


def layer_norm_backward(d_out, saved):
    """§7. Gradients (dx, d_gain, d_bias) of :func:`layer_norm_forward`.

    d_out: (..., D).  With n = normalised input and g = d_out * gain:
    dx = rstd * (g - mean(g) - n * mean(g * n)), the means over the D features.
    """
    normalised, rstd, gain = saved
    d_normalised = d_out * gain                                         # (..., D)
    d_x = rstd * (d_normalised
                     - d_normalised.mean(axis=-1, keepdims=True)
                     - normalised * (d_normalised * normalised).mean(axis=-1, keepdims=True))
    d_gain = _rows(d_out * normalised, gain.shape[:-1]).sum(axis=-2).reshape(gain.shape)   # (D,)
    d_bias = _rows(d_out, gain.shape[:-1]).sum(axis=-2).reshape(gain.shape)                 # (D,)
    return d_x, d_gain, d_bias


# --------------------------------------------------------------------------
# GELU, tanh form (as in GPT-2)
# --------------------------------------------------------------------------

class GeluSaved(NamedTuple):
    x: np.ndarray           # the input
    tanh: np.ndarray        # tanh(sqrt(2/pi) (x + 0.044715 x^3)), shared by the backward


def gelu_forward(x):
    """§7. GELU, tanh approximation (as in GPT-2); matches torch.nn.functional.gelu(x, approximate="tanh").

    x: any shape.  Returns out (same shape) and a :class:`GeluSaved`.
    """
    x = validate.float_array(x, "x")
    tanh = np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x))   # x * x * x: x**3 calls pow
    return 0.5 * x * (1 + tanh), GeluSaved(x, tanh)


def gelu_backward(d_out, saved):
    """§7. Gradient dx of :func:`gelu_forward`, by the product and chain rules."""
    x, tanh = saved
    d_inner = math.sqrt(2 / math.pi) * (1 + 3 * 0.044715 * x**2)       # d/dx of the argument of tanh
    return d_out * (0.5 * (1 + tanh) + 0.5 * x * (1 - tanh**2) * d_inner)


# --------------------------------------------------------------------------
# Linear map and the position-wise MLP
# --------------------------------------------------------------------------

class LinearSaved(NamedTuple):
    x: np.ndarray           # (..., n_in)
    w: np.ndarray           # (n_in, n_out)
    b: np.ndarray | None    # (n_out,), or None without a bias


def linear_forward(x, w, b=None):
    """§7. x @ w (+ b), row-vector convention.

    x: (..., n_in); w: (n_in, n_out); b: (n_out,) or None.  Also the output
    head of the decoder (width D to vocabulary V, no bias).  Returns out (..., n_out) and a :class:`LinearSaved`.
    """
    x, w, *b = validate.float_arrays(x=x, w=w, **({} if b is None else {"b": b}))
    if w.ndim < 2 or x.ndim < 1 or w.shape[-2] != x.shape[-1]:          # a stack's w: (S, 1, n_in, n_out)
        raise ValueError(f"w has shape {w.shape}, expected ({x.shape[-1] if x.ndim else 'n_in'}, n_out) "
                         f"for x of shape {x.shape}")
    out = x @ w                                                         # (..., n_out)
    if b:
        if b[0].shape[-1:] != w.shape[-1:]:
            raise ValueError(f"b has shape {b[0].shape}, expected ({w.shape[-1]},)")
        out += b[0]
    return out, LinearSaved(x, w, b[0] if b else None)


def linear_backward(d_out, saved):
    """§7. Gradients (dx, dw, db) of :func:`linear_forward`; db is None without a bias."""
    x, w, b = saved
    d_x = d_out @ np.swapaxes(w, -1, -2)                                                 # (..., n_in)
    d_w = (np.swapaxes(_rows(x, w.shape[:-2]), -1, -2) @ _rows(d_out, w.shape[:-2])).reshape(w.shape)
    d_b = None if b is None else _rows(d_out, b.shape[:-1]).sum(axis=-2).reshape(b.shape)   # (n_out,)
    return d_x, d_w, d_b


class MlpSaved(NamedTuple):
    linear_1: LinearSaved   # x @ w_1 + b_1
    gelu: GeluSaved
    linear_2: LinearSaved   # GELU(...) @ w_2 + b_2


def mlp_forward(x, w_1, b_1, w_2, b_2):
    """§7. The position-wise MLP: GELU(x @ w_1 + b_1) @ w_2 + b_2.

    x: (..., D); w_1: (D, F), b_1: (F,), w_2: (F, D), b_2: (D,).  Every
    position goes through the same MLP on its own: row t reads only row t.
    Returns out (..., D) and an :class:`MlpSaved`.
    """
    hidden, saved_1 = linear_forward(x, w_1, b_1)                       # (..., F)
    activated, saved_gelu = gelu_forward(hidden)                        # (..., F)
    out, saved_2 = linear_forward(activated, w_2, b_2)                  # (..., D)
    return out, MlpSaved(saved_1, saved_gelu, saved_2)


def mlp_backward(d_out, saved):
    """§7. Gradients (dx, dw_1, db_1, dw_2, db_2) of :func:`mlp_forward`."""
    saved_1, saved_gelu, saved_2 = saved
    d_activated, d_w_2, d_b_2 = linear_backward(d_out, saved_2)         # (..., F)
    d_hidden = gelu_backward(d_activated, saved_gelu)                   # (..., F)
    d_x, d_w_1, d_b_1 = linear_backward(d_hidden, saved_1)              # (..., D)
    return d_x, d_w_1, d_b_1, d_w_2, d_b_2


# --------------------------------------------------------------------------
# Cross-entropy over the scored targets (§1: IGNORE = -100 is never scored)
# --------------------------------------------------------------------------

class CrossEntropySaved(NamedTuple):
    log_probs: np.ndarray   # (..., V), log softmax of the logits
    targets: np.ndarray     # (...), IGNORE replaced by 0 (a valid index, masked by `scored`)
    scored: np.ndarray      # (...), True where the target counts
    count: np.ndarray       # how many targets count (per model), summed over (B, T) kept as axes of 1


def cross_entropy_forward(logits, targets):
    """§7. Mean of -log softmax(logits)[target] over the targets that are not IGNORE.

    logits: (..., V) floats; targets: (...) ints, each in 0..V-1 or IGNORE (-100).
    Padding (target IGNORE) adds nothing and does not count in the mean; a batch
    with no scored target is a ValueError (its mean would be 0/0).
    Returns the loss (a Python float) and a :class:`CrossEntropySaved`.  The mean
    is over the last two axes of targets, (B, T); targets (S, B, T) of a stack of S
    models (lib.decoder.Decoder.stack) give S means, an array (S,).
    """
    logits = validate.float_array(logits, "logits")
    targets = np.asarray(targets)
    if not np.issubdtype(targets.dtype, np.integer):
        raise TypeError(f"targets must be integer token ids (or IGNORE={IGNORE}), got dtype {targets.dtype}")
    if targets.shape != logits.shape[:-1]:
        raise ValueError(f"targets of shape {targets.shape} do not match logits of shape {logits.shape} "
                         "(expected logits.shape[:-1])")
    V = logits.shape[-1]
    scored = targets != IGNORE                                          # (...) True where the target counts
    bad = targets[scored & ((targets < 0) | (targets >= V))]
    if bad.size:
        raise ValueError(f"target {int(bad[0])} is not a token id 0..{V - 1} and not IGNORE={IGNORE}")
    batch_axes = tuple(range(targets.ndim))[-2:]                         # (B, T): one mean per model
    count = scored.sum(axis=batch_axes, keepdims=True)                  # (1, 1); a stack: (S, 1, 1)
    if not count.all():
        raise ValueError(f"no target is scored (all are IGNORE={IGNORE}): the mean loss over 0 targets is undefined")
    shifted = logits - logits.max(axis=-1, keepdims=True)               # (..., V), largest logit -> 0
    log_norm = np.log(np.exp(shifted).sum(axis=-1, keepdims=True))      # (..., 1)
    log_probs = shifted - log_norm                                      # (..., V)
    safe_targets = np.where(scored, targets, 0)                         # IGNORE -> any valid index, masked below
    picked = np.take_along_axis(log_probs, safe_targets[..., None], axis=-1)[..., 0]   # (...)
    loss = -np.sum(picked, axis=batch_axes, where=scored, dtype=np.float64, keepdims=True) / count
    loss = loss.reshape(targets.shape[:-2])                             # () or (S,)
    return (float(loss) if loss.ndim == 0 else loss), CrossEntropySaved(log_probs, safe_targets, scored, count)


def cross_entropy_backward(d_loss, saved):
    """§7. Gradient of the logits: d_loss * (softmax - one_hot(target)) / count on scored rows, 0 elsewhere.

    d_loss: the upstream gradient of the (scalar) loss, 1.0 when the loss is what is minimised
    (a stack's: a number, or one per model (S,)).
    Returns d_logits (..., V) in the dtype of the logits.
    """
    log_probs, safe_targets, scored, count = saved
    d_logits = np.exp(log_probs)                                        # (..., V) = softmax
    np.put_along_axis(d_logits, safe_targets[..., None],
                      np.take_along_axis(d_logits, safe_targets[..., None], axis=-1) - 1, axis=-1)
    d_loss = np.reshape(d_loss, np.shape(d_loss) + (1,) * (count.ndim - np.ndim(d_loss)))   # like count
    d_logits *= (scored * (d_loss / count))[..., None].astype(d_logits.dtype)   # padding rows -> 0
    return d_logits


# --------------------------------------------------------------------------
# Checking a backward: central finite differences (§7.1)
# --------------------------------------------------------------------------

def numerical_gradient(f, x, eps=1e-6):
    """§7. Central differences of a scalar function f at x, for every entry of x.

    ``f`` takes no argument and reads x (directly, or through a model that holds
    it); x, a float64 array, is changed entry by entry in place and restored
    bit for bit.  Returns an array of the shape of x.  Two evaluations of f per
    entry: for small arrays only (see :func:`numerical_partial` for one entry).
    """
    grad = np.empty_like(_float64_array(x))
    for index in np.ndindex(x.shape):
        grad[index] = numerical_partial(f, x, index, eps)
    return grad


def numerical_partial(f, x, index, eps=1e-6):
    """§7. (f() with x[index] + eps  -  f() with x[index] - eps) / (2 eps); x is restored exactly."""
    _float64_array(x)
    if not eps > 0:
        raise ValueError(f"eps must be positive, got {eps!r}")
    kept = x[index]
    try:
        x[index] = kept + eps
        f_plus = float(f())
        x[index] = kept - eps
        f_minus = float(f())
    finally:
        x[index] = kept                                                 # restored bit for bit
    return (f_plus - f_minus) / (2 * eps)


def _float64_array(x):
    if not isinstance(x, np.ndarray) or x.dtype != np.float64:
        raise TypeError("finite differences need a float64 array: in float32 the rounding error of f "
                        f"swamps a difference of 2 eps; got {type(x).__name__} {getattr(x, 'dtype', '')}")
    return x


def relative_error(analytic, numeric):
    """§7. max |analytic - numeric| / max(max |analytic|, max |numeric|), 0 when both are 0."""
    analytic, numeric = np.asarray(analytic, dtype=np.float64), np.asarray(numeric, dtype=np.float64)
    if analytic.shape != numeric.shape:
        raise ValueError(f"analytic {analytic.shape} and numeric {numeric.shape} gradients must have the same shape")
    scale = max(float(np.abs(analytic).max(initial=0.0)), float(np.abs(numeric).max(initial=0.0)))
    return float(np.abs(analytic - numeric).max(initial=0.0)) / scale if scale > 0 else 0.0
