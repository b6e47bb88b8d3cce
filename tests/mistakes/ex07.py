"""Wrong answers to exercise set 7 (dec-1 ... dec-4)."""

from . import Entry, bug, with_slips

_HEAD = """
import numpy as np
"""

_LN = _HEAD + """
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(EPS))
    x_hat = centred * r
    g = d_out * gain
    d_x = DX
    d_gain = (d_out * GAIN_FACTOR).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
"""


def _ln(dx="r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))",
        gain_factor="x_hat", eps="eps"):
    return _LN.replace("DX", dx).replace("GAIN_FACTOR", gain_factor).replace("EPS", eps)


_STEP = """
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    CHECK
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][ROW])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[SOURCE], k], axis=1)
        layer_values = np.concatenate([values[SOURCE], v], axis=1)
        heads = causal_attention(q, READ_K, READ_V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
"""

_CHECK = 'if n >= model.context_size:\n        raise ValueError("past the position table")'


def _step(row="n", source="layer", read_k="layer_keys", read_v="layer_values", check=_CHECK):
    return (_STEP.replace("CHECK", check).replace("ROW", row).replace("SOURCE", source)
            .replace("READ_K", read_k).replace("READ_V", read_v))


_DIAGNOSE = _HEAD + """
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    CHECK
    perturbed = ids.copy()
    PERTURB

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., ROWS, :] - np.asarray(f(ids))[..., ROWS, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    CONTROL
"""

_STRICT = 'if not 1 <= prefix_length < T:\n        raise ValueError("prefix_length must be in 1..T-1")'
_ALL = "perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size"
_WITH_CONTROL = ('if prefix_change(lambda t: model.forward(t, causal=False)) > tol:\n        return "causal"\n'
                 '    return "blind"')


def _diagnose(check=_STRICT, perturb=_ALL, rows=":prefix_length", control=_WITH_CONTROL):
    return (_DIAGNOSE.replace("CHECK", check).replace("PERTURB", perturb).replace("ROWS", rows)
            .replace("CONTROL", control))


# round 8's probes of dec-3 and dec-4 (below): each is one of these two answers, as the probe's writer
# wrote them, with slips
_R8_DECODER_STEP = """
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError("past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
"""

_R8_DIAGNOSE = """
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length out of range")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
"""

ENTRIES = [
    # ---- dec-1: masked_softmax_backward(d_weights, weights) --------------------------------
    Entry("dec-1", "row-term-missing", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    return weights * d_weights
""", "dec-1/no-row-term"),
    Entry("dec-1", "plain-mean", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    return weights * (d_weights - d_weights.mean(axis=-1, keepdims=True))
""", "dec-1/plain-mean"),
    Entry("dec-1", "sign-flipped", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    return weights * ((d_weights * weights).sum(axis=-1, keepdims=True) - d_weights)
""", "dec-1/sign"),
    Entry("dec-1", "sum-over-queries", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    return weights * (d_weights - (d_weights * weights).sum(axis=-2, keepdims=True))
""", "dec-1/wrong-axis"),
    Entry("dec-1", "not-times-weights", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    return d_weights - (d_weights * weights).sum(axis=-1, keepdims=True)
""", "dec-1/not-times-weights"),
    Entry("dec-1", "full-jacobian-float64", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    w = weights.astype(np.float64)
    jacobian = w[..., :, None] * (np.eye(w.shape[-1]) - w[..., None, :])
    return (jacobian @ d_weights[..., :, None])[..., 0]
""", "*/dtype-promoted"),
    Entry("dec-1", "shape-mismatch-not-refused", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (d_weights - along_row)
""", "dec-1/broadcasts"),

    # ---- dec-2: layer_norm_backward(d_out, x, gain, eps=1e-5) --------------------------------
    Entry("dec-2", "mean-and-variance-as-constants", _ln(dx="g * r"), "dec-2/constants"),
    Entry("dec-2", "mean-term-missing", _ln(dx="r * (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))"),
          "dec-2/no-mean-term"),
    Entry("dec-2", "variance-term-missing", _ln(dx="r * (g - g.mean(axis=-1, keepdims=True))"),
          "dec-2/no-variance-term"),
    Entry("dec-2", "d-gain-from-x", _ln(gain_factor="x"), "dec-2/gain-uses-x"),
    Entry("dec-2", "eps-hard-coded", _ln(eps="1e-5"), "dec-2/eps-ignored"),
    Entry("dec-2", "gain-forgotten-in-dx", _ln(
        dx="r * (d_out - d_out.mean(axis=-1, keepdims=True) - x_hat * (d_out * x_hat).mean(axis=-1, keepdims=True))"),
        "dec-2/no-gain-in-dx"),

    # ---- dec-3: decoder_step(model, token, keys, values) ---------------------------------------
    Entry("dec-3", "only-layer-0-reads-history", _step(read_k="layer_keys if layer == 0 else k",
                                                       read_v="layer_values if layer == 0 else v"),
          None),
    Entry("dec-3", "position-reset-to-0", _step(row="0"), "dec-3/position-zero"),
    Entry("dec-3", "position-n-plus-1", _step(row="n + 1", check='if n + 1 >= model.context_size:\n'
                                                                   '        raise ValueError("past the table")'),
          "dec-3/position-next"),
    Entry("dec-3", "one-cache-for-all-layers", _step(source="0"), "dec-3/shared-cache"),
    Entry("dec-3", "attends-before-appending", _step(read_k="keys[layer]", read_v="values[layer]"),
          "dec-3/attends-before-append"),
    Entry("dec-3", "position-wrapped", _step(row="n % model.context_size", check="pass"), "dec-3/wrapped"),
    Entry("dec-3", "no-check-index-error", _step(check="pass"), "dec-3/unchecked"),

    # ---- dec-4: diagnose(model, forward, ids, prefix_length, tol=1e-9) ---------------------------
    Entry("dec-4", "no-negative-control", _diagnose(control='return "causal"'), "dec-4/no-control"),
    Entry("dec-4", "control-is-the-forward", _diagnose(
        control='if prefix_change(forward) > tol:\n        return "causal"\n    return "blind"'),
        "dec-4/control-is-forward"),
    Entry("dec-4", "perturbs-ids-in-place", _diagnose(
        perturb="perturbed = ids\n    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size"),
        "*/argument-changed"),
    Entry("dec-4", "prefix-equal-to-T-accepted", _diagnose(
        check='if not 1 <= prefix_length <= T:\n        raise ValueError("prefix_length")'),
        "dec-4/prefix-equals-T"),
    Entry("dec-4", "rows-include-prefix-length", _diagnose(rows=":prefix_length + 1"), "dec-4/with-position"),
    Entry("dec-4", "verdict-words-changed", _diagnose(control='if prefix_change(lambda t: model.forward(t, causal=False)) > tol:\n        return "causal"\n    return "inconclusive"'),
          None),
    Entry("dec-4", "fixed-replacement-token", _diagnose(perturb="perturbed[..., prefix_length:] = 0"), "dec-4/fixed-token"),
    Entry("dec-1", "subtracts-in-place", _HEAD + """
def masked_softmax_backward(d_weights, weights):
    if d_weights.shape != weights.shape:
        raise ValueError("shapes")
    d_weights -= np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * d_weights
""", "*/argument-changed"),
    bug("dec-3", "heads-reversed", "heads-reversed", "dec-3/reversed"),
]


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('dec-1', 'heldout-132', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    dot = np.sum(weights * d_weights, axis=-2, keepdims=True)
    return weights * (d_weights - dot)
""", 'dec-1/wrong-axis',
          mistake='Takes the sum of w_k g_k over axis -2 (the queries) instead of along each row.', heldout=True),
    Entry('dec-1', 'heldout-133', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("формы должны совпадать")
    s = (d_weights * weights).sum(axis=-1)
    return weights * (d_weights - s)
""", 'dec-1/no-keepdims',
          mistake='Forgets keepdims=True on the row sum, so it broadcasts along the wrong axis (wrong for square inputs, an error otherwise).', heldout=True),
    Entry('dec-1', 'heldout-134', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("形状不一致")
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return d_weights - along_row
""", 'dec-1/not-times-weights',
          mistake='Drops the leading factor w_j, returning g_j - sum_k w_k g_k: wrong values, and forbidden entries are no longer 0.', heldout=True),
    Entry('dec-1', 'heldout-135', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    grad = np.zeros_like(weights)
    for i in range(weights.shape[0]):
        w, g = weights[i], d_weights[i]
        jacobian = np.diag(w) - np.outer(w, w)
        grad[i] = jacobian @ g
    return grad
""", '*/one-rank-only',
          mistake='Builds the Jacobian diag(w) - w w^T row by row over axis 0, which only works for 2-D inputs; a batched (..., Tq, Tk) input breaks.', heldout=True),
    Entry('dec-1', 'heldout-136', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    inner = (d_weights * weights).sum(axis=-1, keepdims=True)
    return weights * (d_weights - inner)
""", 'dec-1/broadcasts',
          mistake='No shape check: arrays of different but broadcastable shapes are silently combined instead of raising ValueError.', heldout=True),
    Entry('dec-1', 'heldout-137', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights 与 weights 形状必须相同")
    out = np.empty(weights.shape)
    for idx in np.ndindex(weights.shape[:-1]):
        w, g = weights[idx], d_weights[idx]
        out[idx] = w * (g - np.dot(w, g))
    return out
""", ('*/dtype-promoted', '*/right-values-other-type'),
          mistake='Fills a np.empty(shape) buffer row by row, which is float64, so float32 weights give a float64 gradient.', heldout=True),
    Entry('dec-2', 'heldout-138', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).sum(axis=0)
    d_bias = d_out.sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias over axis 0 only, so with batch and position axes they come out (T, D) instead of (D,).', heldout=True),
    Entry('dec-2', 'heldout-139', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("ширина gain не равна D")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1 / np.sqrt((c * c).mean(axis=-1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    d_x = r * (g - xh * (g * xh).mean(axis=-1, keepdims=True))
    d_gain = (d_out * xh).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-mean-term',
          mistake='Leaves out the - mean(ĝ) term of d_x.', heldout=True),
    Entry('dec-2', 'heldout-140', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape[-1] != D or gain.ndim != 1:
        raise ValueError("gain 的宽度必须等于 D")
    mean = x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(x.var(axis=-1, ddof=1, keepdims=True) + eps)
    x_hat = (x - mean) * r
    g_hat = d_out * gain
    d_x = r * (g_hat - g_hat.mean(axis=-1, keepdims=True)
               - x_hat * (g_hat * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/unbiased',
          mistake='Uses the sample variance (ddof=1) for r instead of the population variance that the forward pass uses.', heldout=True),
    Entry('dec-2', 'heldout-141', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError(f"gain has shape {gain.shape}, expected ({D},)")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = centred * r
    g = d_out
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-gain-in-dx',
          mistake='Uses d_out in place of ĝ = d_out * gain in the formula for d_x (forgets the gain).', heldout=True),
    Entry('dec-2', 'heldout-142', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain должен иметь форму (D,)")
    # считаем в float64 для точности
    d_out, x, gain = d_out.astype(np.float64), x.astype(np.float64), gain.astype(np.float64)
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps)
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", '*/dtype-promoted',
          mistake='Converts everything to float64 for precision, so float32 inputs give float64 gradients.', heldout=True),
    Entry('dec-2', 'heldout-143', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain 的形状应为 (D,)")
    mu = np.mean(x, axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(np.mean((x - mu) ** 2, axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - np.mean(g, axis=-1, keepdims=True)
               - x_hat * np.mean(g * x_hat, axis=-1, keepdims=True))
    d_gain = np.sum((d_out * x).reshape(-1, D), axis=0)     # y = gain * x + bias
    d_bias = np.sum(d_out.reshape(-1, D), axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/gain-uses-x',
          mistake='Computes d_gain from the raw input x instead of the normalised x̂.', heldout=True),
    Entry('dec-3', 'heldout-144', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("the position table is full")
    p = model.params
    H = model.n_heads
    d = model.width // H
    position = len(keys[0])              # as many as the cache holds
    x = (p["token_table"][token] + p["position_table"][position])[None, :]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q = (a @ b["w_q"]).reshape(H, 1, d)
        k = (a @ b["w_k"]).reshape(H, 1, d)
        v = (a @ b["w_v"]).reshape(H, 1, d)
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/offset-from-heads-axis',
          mistake='Takes the position as len(keys[0]), which is the number of heads H (the first axis), not the number n of stored positions.', heldout=True),
    Entry('dec-3', 'heldout-145', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("позиция за пределами таблицы позиций")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    out_k, out_v = [], []
    for l in range(model.n_layers):
        blk = model.block(l)
        a = layers.layer_norm_forward(x, blk["ln1.gain"], blk["ln1.bias"])[0]
        q, k, v = ((a @ blk[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        k_all = np.concatenate([keys[0], k], axis=1)
        v_all = np.concatenate([values[0], v], axis=1)
        x = x + causal_attention(q, k_all, v_all).reshape(1, -1) @ blk["w_o"]
        h = layers.layer_norm_forward(x, blk["ln2.gain"], blk["ln2.bias"])[0]
        x = x + layers.mlp_forward(h, blk["w_1"], blk["b_1"], blk["w_2"], blk["b_2"])[0]
        out_k.append(k_all)
        out_v.append(v_all)
    return model.output_head(x)[0], out_k, out_v
""", 'dec-3/shared-cache',
          mistake="Reads the cache of layer 0 in every layer (keys[0], values[0]) instead of each layer's own cache.", heldout=True),
    Entry('dec-3', 'heldout-146', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("新位置超出了位置表")
    H, d = model.n_heads, model.width // model.n_heads
    E, P = model.params["token_table"], model.params["position_table"]
    x = (E[token] + P[n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        ks = np.concatenate([keys[layer], k], axis=1)
        vs = np.concatenate([values[layer], v], axis=1)
        x = causal_attention(q, ks, vs).reshape(1, -1) @ b["w_o"]     # 注意力输出
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(ks)
        new_values.append(vs)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Replaces x by the attention output instead of adding it to x (missing residual connection around attention).', heldout=True),
    Entry('dec-3', 'heldout-147', r"""
import numpy as np
from grading import models as m
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        gain, bias = b["ln1.gain"], b["ln1.bias"]
        a = layers.layer_norm_forward(x, gain, bias)[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        m = layers.layer_norm_forward(x, gain, bias)[0]
        x = x + layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/first-norm-twice',
          mistake='Uses the ln1 gain and bias for the second layer normalisation too (ln2 is never used).', heldout=True),
    Entry('dec-3', 'heldout-148', r"""
import numpy as np
from grading import models as m
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        m = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/unchecked',
          mistake="No check of the position: a step past the position table fails with NumPy's IndexError instead of ValueError.", heldout=True),
    Entry('dec-3', 'heldout-149', r"""
import numpy as np
from grading import models as m
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("位置超出位置表")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        m = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    logits = x @ model.params["w_head"]          # (1, V)
    return logits[0], new_keys, new_values
""", None,
          mistake='Multiplies the residual stream by W_head directly and skips the final layer normalisation (output_head).', heldout=True),
    Entry('dec-3', 'heldout-150', r"""
import numpy as np
from grading import models as m
from lib import layers
from lib.attention import causal_attention, causal_future, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the table")
    H, d = model.n_heads, model.width // model.n_heads
    E, P = model.params["token_table"], model.params["position_table"]
    x = (E[token] + P[n])[None, :]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        q = (x @ b["w_q"]).reshape(H, 1, d)
        k = (x @ b["w_k"]).reshape(H, 1, d)
        v = (x @ b["w_v"]).reshape(H, 1, d)
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        m = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Projects the raw residual stream x to queries, keys and values instead of the normalised a = LN1(x).', heldout=True),
    Entry('dec-4', 'heldout-151', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = 0        # <unk> everywhere in the future

    def change(f):
        return np.max(np.abs(f(perturbed)[..., :prefix_length, :] - f(ids)[..., :prefix_length, :]))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/fixed-token',
          mistake="Replaces the future with a fixed token 0 instead of a token that differs from the original: when the future already is 0 nothing changes and the verdict is 'blind'.", heldout=True),
    Entry('dec-4', 'heldout-152', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if prefix_length < 1 or prefix_length >= T:
        raise ValueError("prefix_length вне 1 … T-1")
    perturbed = (ids + 1) % model.vocab_size
    before = np.asarray(forward(ids))[..., :prefix_length, :]
    after = np.asarray(forward(perturbed))[..., :prefix_length, :]
    if np.abs(after - before).max() > tol:
        return "leaks"
    ctrl_before = model.forward(ids, causal=False)[..., :prefix_length, :]
    ctrl_after = model.forward(perturbed, causal=False)[..., :prefix_length, :]
    if np.abs(ctrl_after - ctrl_before).max() > tol:
        return "causal"
    return "blind"
""", None,
          mistake="Shifts every token, prefix included, by one, so even a causal model's prefix outputs change and it is reported as leaking.", heldout=True),
    Entry('dec-4', 'heldout-153', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length <= T - 1:
        raise ValueError("prefix_length 必须在 1 … T-1 之间")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(f(perturbed)[..., :prefix_length, :] - f(ids)[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(model.forward) > tol:       # 对照组：同一个模型
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake="Uses model.forward with the mask still on as the negative control, so the control never sees a change and a causal model is called 'blind'.", heldout=True),
    Entry('dec-4', 'heldout-154', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if prefix_length < 1 or prefix_length > T:
        raise ValueError("prefix_length вне диапазона")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (perturbed[..., prefix_length:] + 1) % model.vocab_size
    leak = np.abs(forward(perturbed) - forward(ids))[..., :prefix_length, :].max()
    if leak > tol:
        return "leaks"
    unmasked = lambda t: model.forward(t, causal=False)
    seen = np.abs(unmasked(perturbed) - unmasked(ids))[..., :prefix_length, :].max()
    return "causal" if seen > tol else "blind"
""", 'dec-4/prefix-equals-T',
          mistake="The range check allows prefix_length == T, where there is no future to perturb; it answers 'blind' instead of raising ValueError.", heldout=True),
    Entry('dec-4', 'heldout-155', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = len(ids)
    if not 0 < prefix_length < T:
        raise ValueError("prefix_length должен быть в 1 … T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :]
                             - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/batch-length',
          mistake='Takes T as len(ids), the batch size for (B, T) input, so valid prefix lengths of a batch are refused.', heldout=True),
    Entry('dec-4', 'heldout-156', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length 不在 1 … T-1 之内")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] += 1          # 换成下一个 id
    control = lambda t: model.forward(t, causal=False)
    d_model = np.max(np.abs(forward(perturbed)[..., :prefix_length, :] - forward(ids)[..., :prefix_length, :]))
    if d_model > tol:
        return "leaks"
    d_control = np.max(np.abs(control(perturbed)[..., :prefix_length, :] - control(ids)[..., :prefix_length, :]))
    return "causal" if d_control > tol else "blind"
""", 'dec-4/no-modulo',
          mistake='Perturbs with ids + 1 without the modulo, so the last token id V - 1 becomes V, outside the vocabulary, and the forward pass raises.', heldout=True),
    Entry('dec-4', 'heldout-157', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length={prefix_length} is not in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def moved(f):
        return float(np.max(np.abs(f(perturbed)[..., prefix_length:, :] - f(ids)[..., prefix_length:, :])))

    if moved(forward) > tol:
        return "leaks"
    if moved(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Compares the outputs from prefix_length on (the future rows, [prefix_length:]) instead of the prefix rows, so a causal model is reported as leaking.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('dec-1', 'heldout3-118', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    return weights * d_weights
""", 'dec-1/no-row-term',
          mistake='Returns weights * d_weights and forgets to subtract the weighted mean of the upstream gradient.', heldout=True),
    Entry('dec-1', 'heldout3-119', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights 和 weights 形状不同")
    g_bar = np.sum(weights * d_weights, axis=0, keepdims=True)   # 加权平均
    return weights * (d_weights - g_bar)
""", 'dec-1/wrong-axis',
          mistake='Sums the weighted upstream gradient over axis 0 instead of over each row (the last axis).', heldout=True),
    Entry('dec-1', 'heldout3-120', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("формы не совпадают")
    mean_g = (weights * d_weights).sum(axis=-1, keepdims=True)
    # запрещённые позиции получают ровно ноль
    return np.where(weights > 0, d_weights - mean_g, 0.0)
""", None,
          mistake='Masks with np.where(weights > 0, ...) instead of multiplying by the weights, so the allowed entries miss the factor alpha_j.', heldout=True),
    Entry('dec-1', 'heldout3-121', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    out = np.zeros(weights.shape)
    for i in range(weights.shape[0]):
        a = weights[i]
        J = np.diag(a) - np.outer(a, a)      # softmax Jacobian
        out[i] = J @ d_weights[i]
    return out
""", None,
          mistake='Builds the full Jacobian row by row over the first axis only, so inputs with more than two axes are handled wrongly, and the result is always float64.', heldout=True),
    Entry('dec-1', 'heldout3-122', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    s = (d_weights * weights).sum(axis=-1, keepdims=True)   # 每行的加权平均
    return weights * (d_weights - s)
""", 'dec-1/broadcasts',
          mistake='Leaves out the shape check, so a (1, Tk) upstream gradient broadcasts against (Tq, Tk) weights instead of raising ValueError.', heldout=True),
    Entry('dec-1', 'heldout3-123', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("разные формы")
    row = np.sum(d_weights * weights, axis=-1)
    return weights * (d_weights - row)
""", 'dec-1/no-keepdims',
          mistake='Drops keepdims in the row sum, so (Tq,) is broadcast along the key axis: wrong for square inputs, an error otherwise.', heldout=True),
    Entry('dec-1', 'heldout3-124', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError(f"{d_weights.shape} != {weights.shape}")
    # sum in double precision to avoid cancellation
    g_bar = np.sum(d_weights * weights, axis=-1, keepdims=True, dtype=np.float64)
    return weights * (d_weights - g_bar)
""", '*/right-values-other-type',
          mistake='Accumulates the row sum in float64 for accuracy, which silently turns a float32 result into float64.', heldout=True),
    Entry('dec-2', 'heldout3-125', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1.0 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    d_x = rho * d_out * gain
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/constants',
          mistake='Treats the mean and variance as constants: d_x = rho * d_out * gain, without the two mean terms.', heldout=True),
    Entry('dec-2', 'heldout3-126', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mean = x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(((x - mean) ** 2).mean(axis=-1, keepdims=True) + eps)
    xh = (x - mean) * r
    g = d_out * gain
    d_x = r * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))
    d_gain = (d_out * xh).sum(axis=0)      # 对 batch 求和
    d_bias = d_out.sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias over axis 0 only, so for a (B, T, D) input they come out (T, D) instead of (D,).', heldout=True),
    Entry('dec-2', 'heldout3-127', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    c = x - x.mean(axis=-1, keepdims=True)
    # несмещённая дисперсия
    r = 1 / np.sqrt(np.var(x, axis=-1, ddof=1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True)
               - xh * (g * xh).mean(axis=-1, keepdims=True))
    d_gain = (d_out * xh).reshape(-1, D).sum(0)
    d_bias = d_out.reshape(-1, D).sum(0)
    return d_x, d_gain, d_bias
""", 'dec-2/unbiased',
          mistake='Uses the sample variance (ddof=1) in rho and x_hat instead of the population variance.', heldout=True),
    Entry('dec-2', 'heldout3-128', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True)
               - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x).reshape(-1, D).sum(axis=0)     # out = gain * x + bias
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/gain-uses-x',
          mistake='Computes d_gain from the raw input x instead of the normalised x_hat.', heldout=True),
    Entry('dec-2', 'heldout3-129', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mu = x.mean(-1, keepdims=True)
    rho = 1.0 / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out                            # 上游梯度
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    d_gain = np.sum((d_out * x_hat).reshape(-1, D), axis=0)
    d_bias = np.sum(d_out.reshape(-1, D), axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-gain-in-dx',
          mistake='Forgets to multiply the upstream gradient by the gain before the d_x formula (uses g = d_out).', heldout=True),
    Entry('dec-2', 'heldout3-130', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape[-1] != D:
        raise ValueError("ширина gain не равна D")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + eps)
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True)
               - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", '*/not-refused',
          mistake='Checks only the last axis of gain, so a gain of shape (1, D) is accepted and broadcast instead of raising ValueError.', heldout=True),
    Entry('dec-2', 'heldout3-131', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = (np.asarray(a, dtype=np.float64) for a in (d_out, x, gain))
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain has the wrong width")
    mu = x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    xh = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", '*/dtype-promoted',
          mistake='Converts all inputs to float64 at the start, so float32 inputs give float64 gradients.', heldout=True),
    Entry('dec-3', 'heldout3-132', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    p = model.params
    x = (p["token_table"][token] + p["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[0], k], axis=1)
        V = np.concatenate([values[0], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/shared-cache',
          mistake="Every layer appends to and reads layer 0's cache (keys[0], values[0]) instead of its own.", heldout=True),
    Entry('dec-3', 'heldout3-133', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    E = model.params["token_table"]
    P = model.params["position_table"]
    x = (E[token] + P[0])[None]          # 一次只输入一个词元
    ks, vs = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q = (a @ b["w_q"]).reshape(H, 1, d)
        k = (a @ b["w_k"]).reshape(H, 1, d)
        v = (a @ b["w_v"]).reshape(H, 1, d)
        ks.append(np.concatenate([keys[l], k], axis=1))
        vs.append(np.concatenate([values[l], v], axis=1))
        x = x + causal_attention(q, ks[-1], vs[-1]).reshape(1, -1) @ b["w_o"]
        h = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(h, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return model.output_head(x)[0], ks, vs
""", 'dec-3/position-zero',
          mistake='Adds position row 0 to every new token (the reset-to-zero bug) instead of row n.', heldout=True),
    Entry('dec-3', 'heldout3-134', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # внимание по остаточному потоку
        q = (x @ b["w_q"]).reshape(H, 1, d)
        k = (x @ b["w_k"]).reshape(H, 1, d)
        v = (x @ b["w_v"]).reshape(H, 1, d)
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, lk, lv).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Skips the first layer normalisation: the projections are applied to x instead of LN1(x).', heldout=True),
    Entry('dec-3', 'heldout3-135', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    out_k, out_v = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        out_k.append(np.concatenate([keys[layer], k], axis=1))   # store for later
        out_v.append(np.concatenate([values[layer], v], axis=1))
        heads = causal_attention(q, k, v)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return model.output_head(x)[0], out_k, out_v
""", None,
          mistake='Appends the new key and value to the cache but lets the query read only its own key and value, never the stored history.', heldout=True),
    Entry('dec-3', 'heldout3-136', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, layer_keys, layer_values).reshape(1, -1) @ b["w_o"]
        # 残差之后再过 MLP
        x = layers.mlp_forward(layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0],
                               b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Replaces the residual stream by the MLP output (x = MLP(LN2(x))) instead of adding it.', heldout=True),
    Entry('dec-3', 'heldout3-137', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        # дописываем в кэш этого слоя
        keys[layer] = np.concatenate([keys[layer], k], axis=1)
        values[layer] = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, keys[layer], values[layer]).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return model.output_head(x)[0], keys, values
""", '*/argument-changed',
          mistake="Right logits, but writes the grown caches back into the caller's keys and values lists (side effect on the inputs).", heldout=True),
    Entry('dec-3', 'heldout3-138', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, layer_keys, layer_values).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/unchecked',
          mistake='No check for a full position table: position_table[n] raises IndexError instead of ValueError.', heldout=True),
    Entry('dec-4', 'heldout3-139', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    # change the first future token
    perturbed[..., prefix_length] = (ids[..., prefix_length] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/one-token',
          mistake='Changes only the token at prefix_length, not every future token, so a leak from a later position is missed.', heldout=True),
    Entry('dec-4', 'heldout3-140', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    # 未来全部换成 0 号词元
    perturbed[..., prefix_length:] = 0

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/fixed-token',
          mistake='Replaces the future by the constant id 0, which leaves every future token that already is 0 unchanged.', heldout=True),
    Entry('dec-4', 'heldout3-141', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    # контроль — исходная модель
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(model.forward) > tol:
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake='Uses the masked model.forward as the negative control, which can never move, so a causal model is reported as "blind".', heldout=True),
    Entry('dec-4', 'heldout3-142', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    # next id mod V
    perturbed = (ids + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Shifts every token by one, prefix included, so the prefix inputs differ and every model "leaks".', heldout=True),
    Entry('dec-4', 'heldout3-143', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if prefix_length < 1 or prefix_length > T:
        raise ValueError("prefix_length 超出范围")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/prefix-equals-T',
          mistake='Range check lets prefix_length == T through, which changes nothing and returns a verdict instead of raising ValueError.', heldout=True),
    Entry('dec-4', 'heldout3-144', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[0]          # длина последовательности
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length вне 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/batch-length',
          mistake='Takes T from ids.shape[0], which is the batch size for (B, T) input.', heldout=True),
    Entry('dec-4', 'heldout3-145', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("bad prefix_length")
    original = ids
    ids[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    perturbed = ids

    def change(f):
        return np.abs(f(perturbed)[..., :prefix_length, :]
                      - f(original)[..., :prefix_length, :]).max()

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", '*/argument-changed',
          mistake='Perturbs ids in place instead of a copy, so both passes see the same input: every verdict is "blind" and the caller\'s ids are changed.', heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('dec-1', 'heldout4-117', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("形状不一致")
    s = np.sum(d_weights * weights, axis=-1)
    return weights * (d_weights - s)
""", 'dec-1/no-keepdims',
          mistake='Sums over the row without keepdims, so the (..., 1) term becomes (...,) and broadcasts against the wrong axis.', heldout=True),
    Entry('dec-1', 'heldout4-118', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("формы d_weights и weights различаются")
    g_bar = (d_weights * weights).sum(axis=0, keepdims=True)
    return weights * (d_weights - g_bar)
""", 'dec-1/wrong-axis',
          mistake='Sums along axis 0 (over queries) instead of along each row of keys.', heldout=True),
    Entry('dec-1', 'heldout4-119', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    # d softmax_j / d s_j = a_j (1 - a_j)
    return weights * (1 - weights) * d_weights
""", 'dec-1/diagonal-only',
          mistake='Keeps only the diagonal of the softmax Jacobian, alpha * (1 - alpha) * g, and drops the cross terms.', heldout=True),
    Entry('dec-1', 'heldout4-120', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    # g_bar = sum_j a_j g_j
    g_bar = np.einsum("...j,...j->...", d_weights, weights)[..., None]
    return weights * (d_weights - g_bar)
""", 'dec-1/broadcasts',
          mistake='Has no shape check, so broadcastable arrays of different shapes return a result instead of raising ValueError.', heldout=True),
    Entry('dec-1', 'heldout4-121', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights = np.asarray(d_weights, dtype=np.float64)
    weights = np.asarray(weights, dtype=np.float64)
    if d_weights.shape != weights.shape:
        raise ValueError("формы не совпадают")
    along_row = (d_weights * weights).sum(-1, keepdims=True)
    return weights * (d_weights - along_row)
""", '*/dtype-promoted',
          mistake='Converts both arrays to float64 first, so float32 weights get a float64 gradient.', heldout=True),
    Entry('dec-1', 'heldout4-122', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights differ in shape")
    g_bar = d_weights.mean(axis=-1, keepdims=True)
    return weights * (d_weights - g_bar)
""", 'dec-1/plain-mean',
          mistake='Subtracts the plain mean of the upstream gradient instead of its alpha-weighted sum.', heldout=True),
    Entry('dec-2', 'heldout4-123', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(var + eps)
    x_hat = (x - mu) * rho
    d_x = rho * d_out * gain
    d_gain = (d_out * x_hat).reshape(-1, D).sum(0)
    d_bias = d_out.reshape(-1, D).sum(0)
    return d_x, d_gain, d_bias
""", 'dec-2/constants',
          mistake='Treats the mean and variance as constants: d_x = rho * d_out * gain, without the two mean terms.', heldout=True),
    Entry('dec-2', 'heldout4-124', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain 的宽度必须是 D")
    c = x - x.mean(-1, keepdims=True)
    r = 1.0 / np.sqrt((c ** 2).mean(-1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    d_x = r * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))
    d_gain = d_out.reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/gain-without-x-hat',
          mistake='Computes d_gain as the plain sum of d_out, forgetting to multiply by the normalised input x_hat.', heldout=True),
    Entry('dec-2', 'heldout4-125', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("ширина gain не равна D")
    mu = x.mean(-1, keepdims=True)
    rho = 1 / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    # суммируем по батчу
    return d_x, (d_out * x_hat).sum(axis=0), d_out.sum(axis=0)
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias over axis 0 only, so with a (B, T, D) input they come out (T, D) instead of (D,).', heldout=True),
    Entry('dec-2', 'heldout4-126', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError(f"gain has shape {gain.shape}, expected ({D},)")
    centred = x - x.mean(axis=-1, keepdims=True)
    sigma = np.sqrt((centred ** 2).mean(axis=-1, keepdims=True))
    rho = 1.0 / (sigma + eps)
    x_hat = centred * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/eps-outside',
          mistake='Puts eps outside the square root (1 / (sigma + eps)) instead of 1 / sqrt(sigma^2 + eps).', heldout=True),
    Entry('dec-2', 'heldout4-127', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain 形状不对")
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    rho = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mean) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    d_gain = np.sum(d_out * x_hat, axis=tuple(range(x.ndim - 1)))
    d_bias = np.sum(d_out, axis=tuple(range(x.ndim - 1)))
    return d_x, d_gain, d_bias
""", 'dec-2/unbiased',
          mistake='Uses the sample variance (ddof=1) for rho instead of the population variance.', heldout=True),
    Entry('dec-2', 'heldout4-128', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out = np.asarray(d_out, dtype=float)
    x = np.asarray(x, dtype=float)
    gain = np.asarray(gain, dtype=float)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain должен иметь форму (D,)")
    c = x - x.mean(-1, keepdims=True)
    rho = 1.0 / np.sqrt((c * c).mean(-1, keepdims=True) + eps)
    xh = c * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", '*/dtype-promoted',
          mistake="Casts x and d_out to float64 'for precision', so float32 inputs get float64 gradients.", heldout=True),
    Entry('dec-2', 'heldout4-129', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain width must be D")
    c = x - x.mean(-1, keepdims=True)
    rho = 1.0 / np.sqrt((c ** 2).mean(-1, keepdims=True) + eps)
    xh = c * rho
    g = d_out                       # gradient w.r.t. the normalised x
    d_x = rho * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/no-gain-in-dx',
          mistake='Forgets that the upstream gradient passes through the gain: uses d_out instead of d_out * gain inside the d_x formula.', heldout=True),
    Entry('dec-2', 'heldout4-130', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain: нужна форма (D,)")
    c = x - x.mean(-1, keepdims=True)
    rho = 1.0 / np.sqrt((c ** 2).mean(-1, keepdims=True) + eps)
    xh = c * rho
    g = d_out * gain
    d_x = rho * (g - g.sum(-1, keepdims=True) - xh * (g * xh).sum(-1, keepdims=True))
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/sums-for-means',
          mistake='Uses sums over the features where the formula has means, so the two correction terms are D times too large.', heldout=True),
    Entry('dec-3', 'heldout4-131', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    H, d = model.n_heads, model.width // model.n_heads
    p = model.params
    x = (p["token_table"][token] + p["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q = (a @ b["w_q"]).reshape(H, 1, d)
        k = (a @ b["w_k"]).reshape(H, 1, d)
        v = (a @ b["w_v"]).reshape(H, 1, d)
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/unchecked',
          mistake='Never checks the position table: at n = C it indexes past the table and fails with IndexError instead of ValueError.', heldout=True),
    Entry('dec-3', 'heldout4-132', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError("超出位置表")
    H, d = model.n_heads, model.width // model.n_heads
    # 单个词元 = 长度为 1 的序列，位置 0
    x = (model.params["token_table"][token] + model.params["position_table"][0])[None]
    ks, vs = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        h = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(h, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        ks.append(K)
        vs.append(V)
    return model.output_head(x)[0], ks, vs
""", 'dec-3/position-zero',
          mistake='Gives the new token position 0 instead of n (the reset-to-zero bug of §5.3).', heldout=True),
    Entry('dec-3', 'heldout4-133', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError("позиция за концом таблицы позиций")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[layer], k], axis=1)
        V = np.concatenate([values[layer], v], axis=1)
        if layer == 0:
            heads = causal_attention(q, K, V)
        else:
            heads = causal_attention(q, k, v)     # верхние слои: только новый токен
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", None,
          mistake="Uses the cache only in layer 0; the higher layers attend to the new token alone (the 'only layer 0 cached' bug).", heldout=True),
    Entry('dec-3', 'heldout4-134', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    out_k, out_v = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        heads = causal_attention(q, keys[layer], values[layer])   # read the history
        out_k.append(np.concatenate([keys[layer], k], axis=1))
        out_v.append(np.concatenate([values[layer], v], axis=1))
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return model.output_head(x)[0], out_k, out_v
""", 'dec-3/attends-before-append',
          mistake='Attends over the old cache before appending the new key and value, so the new query does not read itself (and the first step has nothing to read).', heldout=True),
    Entry('dec-3', 'heldout4-135', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError("位置超出位置表")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    K_all, V_all = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        q, k, v = ((x @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        x = x + causal_attention(q, K, V).reshape(1, -1) @ b["w_o"]
        h = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(h, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        K_all.append(K)
        V_all.append(V)
    return model.output_head(x)[0], K_all, V_all
""", 'dec-3/no-norm',
          mistake='Skips the first layer normalisation: projects the raw residual stream x instead of LN1(x).', heldout=True),
    Entry('dec-3', 'heldout4-136', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError("нет строки в таблице позиций")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    nk, nv = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        nk.append(np.concatenate([keys[layer], k], axis=1))
        nv.append(np.concatenate([values[layer], v], axis=1))
        x = x + causal_attention(q, nk[-1], nv[-1]).reshape(1, -1) @ b["w_o"]
        m = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return model.output_head(x)[0], nk, nv
""", 'dec-3/no-residual',
          mistake='Replaces the residual stream by the MLP output (x = MLP(LN2(x))) instead of adding it.', heldout=True),
    Entry('dec-3', 'heldout4-137', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        new_keys.append(np.concatenate([keys[layer], k], axis=1))
        new_values.append(np.concatenate([values[layer], v], axis=1))
        x = x + causal_attention(q, new_keys[-1], new_values[-1]).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    logits = model.output_head(x)     # (1, V)
    return logits, new_keys, new_values
""", '*/unit-axis',
          mistake='Returns the logits with shape (1, V) instead of (V,).', heldout=True),
    Entry('dec-4', 'heldout4-138', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length] = (ids[..., prefix_length] + 1) % model.vocab_size
    def change(f):
        return np.max(np.abs(f(perturbed)[..., :prefix_length, :]
                             - f(ids)[..., :prefix_length, :]))
    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/one-token',
          mistake='Perturbs only the token at prefix_length instead of every future token, so a leak from a later position is missed.', heldout=True),
    Entry('dec-4', 'heldout4-139', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length 必须在 1 … T-1 之间")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = 0      # 换成 <unk>
    def prefix_change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.abs(a - b).max()
    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/fixed-token',
          mistake='Replaces the future with a constant token 0, which leaves every future 0 unchanged, so a leak from such a position is not seen.', heldout=True),
    Entry('dec-4', 'heldout4-140', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length вне 1 … T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] += 1          # следующий id
    def ch(f):
        return np.max(np.abs(f(perturbed)[..., :prefix_length, :] - f(ids)[..., :prefix_length, :]))
    if ch(forward) > tol:
        return "leaks"
    if ch(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/no-modulo',
          mistake='Takes the next id without the modulo, so a future token V-1 becomes V, an id outside the vocabulary.', heldout=True),
    Entry('dec-4', 'heldout4-141', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length {prefix_length} not in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    control = forward           # the same computation, as the control
    d_model = np.abs(forward(perturbed) - forward(ids))[..., :prefix_length, :].max()
    if d_model > tol:
        return "leaks"
    d_control = np.abs(control(perturbed) - control(ids))[..., :prefix_length, :].max()
    return "causal" if d_control > tol else "blind"
""", 'dec-4/control-is-forward',
          mistake='Uses the forward under test as its own negative control instead of the model with the mask off, so a causal model is always reported "blind".', heldout=True),
    Entry('dec-4', 'heldout4-142', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if prefix_length < 1 or prefix_length > T:
        raise ValueError("prefix_length 超出范围")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (perturbed[..., prefix_length:] + 1) % model.vocab_size
    unmasked = lambda t: model.forward(t, causal=False)
    changes = []
    for f in (forward, unmasked):
        changes.append(np.max(np.abs(f(perturbed)[..., :prefix_length, :]
                                     - f(ids)[..., :prefix_length, :])))
    if changes[0] > tol:
        return "leaks"
    return "causal" if changes[1] > tol else "blind"
""", 'dec-4/prefix-equals-T',
          mistake='Range check lets prefix_length == T through, which leaves nothing to perturb and returns "blind" instead of raising.', heldout=True),
    Entry('dec-4', 'heldout4-143', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length должен быть в 1 … T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    p = prefix_length - 1        # последняя позиция префикса
    def change(f):
        return float(np.max(np.abs(f(perturbed)[..., p, :] - f(ids)[..., p, :])))
    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/last-row',
          mistake='Compares only the last prefix row (prefix_length - 1) instead of all prefix rows, so a leak into earlier rows is missed.', heldout=True),
    Entry('dec-4', 'heldout4-144', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("bad prefix_length")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    def change(f):
        return np.abs(np.asarray(f(perturbed)) - np.asarray(f(ids)))[..., :prefix_length, :].max()
    if change(forward) >= tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) >= tol:
        return "causal"
    return "blind"
""", 'dec-4/tie-counts-as-leak',
          mistake='Uses >= tol instead of > tol, so with tol = 0 an exactly unchanged prefix counts as a leak.', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('dec-1', 'heldout5-134', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    return weights * (d_weights - d_weights.mean(axis=-1, keepdims=True))
""", 'dec-1/plain-mean',
          mistake='Subtracts the plain mean of the upstream gradient instead of its weight-averaged sum Σ α g.', heldout=True),
    Entry('dec-1', 'heldout5-135', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("формы не совпадают")
    s = (d_weights * weights).sum(axis=-2, keepdims=True)
    return weights * (d_weights - s)
""", 'dec-1/wrong-axis',
          mistake='Sums over the query axis (-2) instead of along each row.', heldout=True),
    Entry('dec-1', 'heldout5-136', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("形状不同")
    g_bar = np.sum(d_weights * weights, axis=-1)
    return weights * (d_weights - g_bar)
""", 'dec-1/no-keepdims',
          mistake='Drops keepdims, so the row sums broadcast along the key axis: an error for non-square weights and wrong values for square ones.', heldout=True),
    Entry('dec-1', 'heldout5-137', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights differ in shape")
    g_bar = np.einsum("...k,...k->...", weights, d_weights)[..., None]
    return weights * (g_bar - d_weights)
""", 'dec-1/sign',
          mistake='Has the sign of the bracket reversed, α (ḡ − g).', heldout=True),
    Entry('dec-1', 'heldout5-138', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("разные формы")
    w = weights.astype(np.float64)
    g = d_weights.astype(np.float64)
    return w * (g - (w * g).sum(axis=-1, keepdims=True))
""", '*/dtype-promoted',
          mistake='Accumulates in float64, so float32 input returns float64.', heldout=True),
    Entry('dec-1', 'heldout5-139', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    inner = (d_weights * weights).sum(axis=-1, keepdims=True)
    return weights * (d_weights - inner)
""", 'dec-1/broadcasts',
          mistake='Never compares the shapes, so a d_weights that merely broadcasts against weights is accepted instead of raising ValueError.', heldout=True),
    Entry('dec-1', 'heldout5-140', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    # derivative of softmax: s (1 - s)
    return d_weights * weights * (1 - weights)
""", 'dec-1/diagonal-only',
          mistake='Uses only the diagonal of the softmax Jacobian, α(1 − α) g, ignoring the cross terms.', heldout=True),
    Entry('dec-2', 'heldout5-141', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    d_x = rho * d_out * gain
    lead = tuple(range(x.ndim - 1))
    return d_x, (d_out * x_hat).sum(axis=lead), d_out.sum(axis=lead)
""", 'dec-2/constants',
          mistake='Treats the mean and the variance as constants: d_x = ρ · ĝ, without the two mean terms.', heldout=True),
    Entry('dec-2', 'heldout5-142', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    rho = 1.0 / np.sqrt(var + eps)
    xh = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - xh * (g * xh).mean(-1, keepdims=True))
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/no-mean-term',
          mistake='Drops the −mean(ĝ) term (keeps only the variance term).', heldout=True),
    Entry('dec-2', 'heldout5-143', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    d_gain = (d_out * x_hat).sum(axis=0)      # 对批次求和
    d_bias = d_out.sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias over axis 0 only, which leaves shape (T, D) for a batched (B, T, D) input.', heldout=True),
    Entry('dec-2', 'heldout5-144', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(x.var(axis=-1, ddof=1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/unbiased',
          mistake='Uses the sample variance (ddof=1) for ρ instead of the population variance.', heldout=True),
    Entry('dec-2', 'heldout5-145', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    d_gain = (d_out * x).reshape(-1, D).sum(0)    # выход = x * gain + bias
    return d_x, d_gain, d_out.reshape(-1, D).sum(0)
""", 'dec-2/gain-uses-x',
          mistake='Computes d_gain from the raw input x instead of the normalised x̂.', heldout=True),
    Entry('dec-2', 'heldout5-146', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    eps = np.float64(eps)
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", '*/right-values-other-type',
          mistake='Adds eps as a float64 NumPy scalar, so float32 input returns float64 gradients.', heldout=True),
    Entry('dec-2', 'heldout5-147', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", '*/not-refused',
          mistake='Never checks the width of gain, so a gain of shape (1,) broadcasts silently instead of raising ValueError.', heldout=True),
    Entry('dec-2', 'heldout5-148', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(x.var(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True)
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", None,
          mistake='Forgets the leading factor ρ in d_x.', heldout=True),
    Entry('dec-3', 'heldout5-149', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[0], k], axis=1)
        V = np.concatenate([values[0], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/shared-cache',
          mistake="Reads and extends layer 0's cache in every layer instead of each layer's own cache.", heldout=True),
    Entry('dec-3', 'heldout5-150', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-position',
          mistake='Forgets the position: the input vector is E[token] alone, without P[n].', heldout=True),
    Entry('dec-3', 'heldout5-151', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n + 1 >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n + 1])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/position-next',
          mistake='Puts the new token at position n + 1 instead of n.', heldout=True),
    Entry('dec-3', 'heldout5-152', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/first-norm-twice',
          mistake="Uses ln1's gain and bias for the second layer normalisation too.", heldout=True),
    Entry('dec-3', 'heldout5-153', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("позиция за пределами таблицы")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        # сначала внимание к прошлому, потом дописываем кэш
        heads = causal_attention(q, keys[l], values[l])
        new_keys.append(np.concatenate([keys[l], k], axis=1))
        new_values.append(np.concatenate([values[l], v], axis=1))
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/attends-before-append',
          mistake='Attends over the stored keys and values before appending the new ones, so the query does not read itself (and an empty cache fails).', heldout=True),
    Entry('dec-3', 'heldout5-154', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], keys, values
""", 'dec-3/old-cache-returned',
          mistake='Returns the keys and values lists it was given, not the ones with the new position appended.', heldout=True),
    Entry('dec-3', 'heldout5-155', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        heads = causal_attention(q, K, V)
        x = 0 + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Drops the residual connection around the attention (x = attention output instead of x + attention output).', heldout=True),
    Entry('dec-3', 'heldout5-156', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for l in range(model.n_layers):
        b = model.block(l)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        K = np.concatenate([keys[l], k], axis=1)
        V = np.concatenate([values[l], v], axis=1)
        heads = causal_attention(q, K, V)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(K)
        new_values.append(V)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/unchecked',
          mistake='Has no check against the position table, so a full cache gives an IndexError (or a wrong row) instead of ValueError.', heldout=True),
    Entry('dec-4', 'heldout5-157', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length] = (ids[..., prefix_length] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/one-token',
          mistake='Changes only the token at prefix_length, so a leak from a later future token (e.g. the last one) goes unseen.', heldout=True),
    Entry('dec-4', 'heldout5-158', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length + 1:] = (ids[..., prefix_length + 1:] + 1) % model.vocab_size  # будущее

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/perturbs-one-late',
          mistake='Starts the perturbation one position late (prefix_length + 1), so a model that peeks exactly one token ahead is not caught.', heldout=True),
    Entry('dec-4', 'heldout5-159', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., prefix_length - 1, :]
        b = np.asarray(f(perturbed))[..., prefix_length - 1, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/last-row',
          mistake='Compares only the last prefix row, so a leak into an earlier row (e.g. position 0) is missed.', heldout=True),
    Entry('dec-4', 'heldout5-160', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(forward) > tol:
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake='Uses the colleague\'s forward as its own negative control instead of the model with the mask off, so a causal run is reported as "blind".', heldout=True),
    Entry('dec-4', 'heldout5-161', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = 0  # <unk>

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/fixed-token',
          mistake='Replaces the future by the constant id 0, so a future position that already holds 0 is not changed and a leak from it goes unseen.', heldout=True),
    Entry('dec-4', 'heldout5-162', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = ids[..., prefix_length:] + 1   # 下一个 id

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/no-modulo',
          mistake='Uses ids + 1 without the modulo, so a future id of V − 1 becomes V and indexing the token table fails.', heldout=True),
    Entry('dec-4', 'heldout5-163', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids
    ids[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", '*/argument-changed',
          mistake='Perturbs `ids` itself (no copy), so both passes see the same tokens, the verdict is always "blind" and the caller\'s array is changed.', heldout=True),
    Entry('dec-4', 'heldout5-164', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if prefix_length < 1 or prefix_length > T:
        raise ValueError("prefix_length must be in 1..T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/prefix-equals-T',
          mistake='Accepts prefix_length == T in its range check, returning a verdict instead of raising ValueError.', heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('dec-1', 'r8-071', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    return d_weights - np.sum(d_weights * weights, axis=-1, keepdims=True)
""", 'dec-1/not-times-weights',
          mistake='Forgets the weights factor: returns d_weights - sum(w * g).', probe=True),
    Entry('dec-1', 'r8-072', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    s = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (s - d_weights)
""", 'dec-1/sign',
          mistake='Sign flipped: weights * (sum - g).', probe=True),
    Entry('dec-1', 'r8-073', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    J = np.diag(weights) - np.outer(weights, weights)
    return J @ d_weights
""", '*/one-rank-only',
          mistake='Builds the full Jacobian per row with np.diag - outer, right for 1-D rows only (a 2-D input fails).', probe=True),
    Entry('dec-2', 'r8-074', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((c * c).mean(axis=-1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    dx = r * (g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True))
    return dx, (d_out * xh).sum(axis=0), d_out.sum(axis=0)
""", 'dec-2/batch-axis-only',
          mistake='d_gain and d_bias summed over axis 0 only (right for 2-D, wrong with a batch axis).', probe=True),
    Entry('dec-2', 'r8-075', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((c * c).mean(axis=-1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    dx = r * (g - g.mean(axis=-1, keepdims=True))
    return dx, (d_out * xh).reshape(-1, D).sum(axis=0), d_out.reshape(-1, D).sum(axis=0)
""", 'dec-2/no-variance-term',
          mistake='Forgets the x_hat term of d_x (treats the variance as a constant).', probe=True),
    Entry('dec-2', 'r8-076', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((c * c).mean(axis=-1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    dx = r * (g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True))
    return dx, (d_out * xh).reshape(-1, D).sum(axis=0), d_out.sum(axis=-1)
""", None,
          mistake='d_bias summed over the feature axis (-1) instead of over the positions.', probe=True),
    Entry('dec-2', 'r8-077', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / (np.sqrt((c * c).mean(axis=-1, keepdims=True)) + eps)
    xh = c * r
    g = d_out * gain
    dx = r * (g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True))
    return dx, (d_out * xh).reshape(-1, D).sum(axis=0), d_out.reshape(-1, D).sum(axis=0)
""", 'dec-2/eps-outside',
          mistake='Uses the variance with eps added after the square root: 1 / (std + eps).', probe=True),
    Entry('dec-3', 'r8-078', with_slips(_R8_DECODER_STEP,
        ('a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]',
         'a = x')), 'dec-3/no-norm',
          mistake='Skips the first layer norm (attention reads x itself).', probe=True),
    Entry('dec-3', 'r8-079', with_slips(_R8_DECODER_STEP,
        ('x = x + layers.mlp_forward(',
         'x = layers.mlp_forward(')), 'dec-3/no-residual',
          mistake="Forgets the MLP's residual: x = mlp(...) instead of x + mlp(...).", probe=True),
    Entry('dec-3', 'r8-080', with_slips(_R8_DECODER_STEP,
        ('n = np.shape(keys[0])[1]',
         'n = len(keys)')), None,
          mistake='Reads the position from the number of layers (len(keys)) instead of the stored length.', probe=True),
    Entry('dec-3', 'r8-081', with_slips(_R8_DECODER_STEP,
        ('if n >= model.context_size:',
         'if n + 1 >= model.context_size:')), 'dec-3/full-table-refused',
          mistake='Refuses a position one too early (n + 1 >= context_size).', probe=True),
    Entry('dec-3', 'r8-082', with_slips(_R8_DECODER_STEP,
        ('q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))',
         'q = (a @ b["w_q"]).reshape(H, 1, d)\n        k = (x @ b["w_k"]).reshape(H, 1, d)\n        v = (x @ b["w_v"]).reshape(H, 1, d)')), None,
          mistake='Builds the new keys from the token embedding before layer norm (k, v from x, q from a).', probe=True),
    Entry('dec-4', 'r8-083', with_slips(_R8_DIAGNOSE,
        ('(ids[..., prefix_length:] + 1) % model.vocab_size',
         'ids[..., prefix_length:] + 1')), 'dec-4/no-modulo',
          mistake='Adds 1 without the modulo: the largest id becomes V, out of range.', probe=True),
    Entry('dec-4', 'r8-084', with_slips(_R8_DIAGNOSE,
        ('change(lambda t: model.forward(t, causal=False))',
         'change(forward)')), 'dec-4/control-is-forward',
          mistake="The control is forward itself (not the model with the mask off), so it never says 'causal'.", probe=True),
    Entry('dec-4', 'r8-085', with_slips(_R8_DIAGNOSE,
        ('return np.max(np.abs(a - b))',
         'return np.mean(np.abs(a - b))')), None,
          mistake='Compares the mean change with tol instead of the largest.', probe=True),
    Entry('dec-4', 'r8-086', with_slips(_R8_DIAGNOSE,
        ('(ids[..., prefix_length:] + 1) % model.vocab_size',
         '0')), 'dec-4/fixed-token',
          mistake='Changes every future token to 0 instead of the next id (a token already 0 does not change).', probe=True),
    Entry('dec-4', 'r8-087', with_slips(_R8_DIAGNOSE,
        ('if not 1 <= prefix_length < T:',
         'if not 1 <= prefix_length <= T:'),
        ('        return "causal"\n    return "blind"',
         '        return "blind"\n    return "causal"')), 'dec-4/verdicts-swapped',
          mistake="Accepts prefix_length == T (the check uses <= T) and swaps 'causal' and 'blind'.", probe=True),
    Entry('dec-4', 'r8-093', with_slips(_R8_DIAGNOSE,
        ('return np.max(np.abs(a - b))',
         'return np.max(np.abs(a - b)) / np.max(np.abs(b))')), None,
          mistake='Measures a relative change (divided by the largest logit) against tol.', probe=True),
    Entry('dec-4', 'r8-094', with_slips(_R8_DIAGNOSE,
        ('perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size',
         'perturbed[..., -1] = (ids[..., -1] + 1) % model.vocab_size')), 'dec-4/perturbs-one-late',
          mistake='Perturbs only the last token instead of every token from prefix_length on.', probe=True),
    Entry('dec-2', 'r8-097', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((c * c).mean(axis=-1, keepdims=True) + eps)
    xh = c * r
    g = d_out * gain
    dx = r * (g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True))
    return dx, (d_out * xh).reshape(-1, D).sum(axis=0), -d_out.reshape(-1, D).sum(axis=0)
""", '*/constant-factor',
          mistake='d_bias with the wrong sign (-d_out summed), everything else right.', probe=True),
    Entry('dec-3', 'r8-098', with_slips(_R8_DECODER_STEP,
        ('model.params["token_table"][token]',
         'model.params["token_table"][token - 1]')), None,
          mistake='Looks up the token embedding of token - 1 (ids counted from 1).', probe=True),
    Entry('dec-3', 'r8-099', with_slips(_R8_DECODER_STEP,
        ('        new_keys.append(K)\n        new_values.append(V)',
         '        new_keys.append(K if layer == 0 else keys[layer])\n        new_values.append(V if layer == 0 else values[layer])')), None,
          mistake="Appends the new key and value in layer 0 only; the other layers' caches come back unchanged (but attention in each layer used its own concatenation).", probe=True),
    Entry('dec-3', 'r8-100', with_slips(_R8_DECODER_STEP,
        ('heads = causal_attention(q, K, V)',
         's = q @ np.swapaxes(K, -1, -2)\n        w = np.exp(s - s.max(axis=-1, keepdims=True))\n        w /= w.sum(axis=-1, keepdims=True)\n        heads = w @ V')), 'dec-3/no-scale',
          mistake='Writes its own attention for one query without the 1/sqrt(d) scale.', probe=True),
    Entry('dec-2', 'r8-109', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes")
    c = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((c * c).mean(axis=-1, keepdims=True) + x.dtype.type(1e-3))
    xh = c * r
    g = d_out * gain
    dx = r * (g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True))
    return dx, (d_out * xh).reshape(-1, D).sum(axis=0), d_out.reshape(-1, D).sum(axis=0)
""", None,
          mistake='Hard-codes eps = 1e-3 instead of using the argument.', probe=True),
    Entry('dec-3', 'r8-114', with_slips(_R8_DECODER_STEP,
        ('return model.output_head(x)[0], new_keys, new_values',
         'return model.output_head(x), new_keys, new_values')), '*/unit-axis',
          mistake='Returns the logits with shape (1, V): forgot the [0].', probe=True),
    Entry('dec-1', 'r8-120', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    s = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * weights * (d_weights - s)
""", None,
          mistake='Multiplies by the weights twice: weights * weights * (g - sum).', probe=True),
    Entry('dec-1', 'r8-121', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    return weights * (d_weights - d_weights.sum(axis=-1, keepdims=True))
""", 'dec-1/plain-sum',
          mistake='Uses the sum of g over the row (without weights) for the row term.', probe=True),
    # ---- round 9 of issue 34: kinds the development set dev7 showed (r9-*: written here; dev7-NNN: that set's answers) ----
    bug('dec-2', 'r9-variance-from-moments', 'variance-from-moments', 'dec-2/moments'),
    Entry('dec-2', 'dev7-146', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mu = x.mean(-1, keepdims=True)
    var = (x * x).mean(-1, keepdims=True) - mu * mu
    rho = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which is inaccurate for inputs with a large mean.'),
    bug('dec-1', 'r9-unweighted-row-sum', 'dropped-factor@masked_softmax_backward:d_weights * weights', 'dec-1/plain-sum'),
    Entry('dec-1', 'r9-sum-of-g', """
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights differ in shape")
    total = d_weights.sum(axis=-1, keepdims=True)
    return weights * (d_weights - total)
""", 'dec-1/plain-sum'),
    Entry('dec-1', 'dev7-139', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shapes differ")
    # dL/ds = diag(a) g - a (a . g); here simplified
    return weights * d_weights - weights * d_weights.sum(axis=-1, keepdims=True)
""", 'dec-1/plain-sum',
          mistake="Builds the full Jacobian diag(a) - a a^T per row but transposes the product, using g @ J with J's outer product on the wrong side — returns g * a - a * sum(g) instead."),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('dec-1', 'heldout7-144', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    return weights * (1 - weights) * d_weights
""", 'dec-1/diagonal-only',
          mistake='Keeps only the diagonal of the softmax Jacobian, w(1 - w) g, dropping the cross terms.', heldout=True),
    Entry('dec-1', 'heldout7-145', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    s = np.sum(d_weights * weights, axis=-1)
    return weights * (d_weights - s)
""", 'dec-1/no-keepdims',
          mistake='Sums along the row without keepdims, so the row sums broadcast along the wrong axis.', heldout=True),
    Entry('dec-1', 'heldout7-146', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    # сумма w_k g_k
    s = (d_weights * weights).sum(axis=-2, keepdims=True)
    return weights * (d_weights - s)
""", 'dec-1/wrong-axis',
          mistake='Sums over axis -2 (the queries) instead of the keys.', heldout=True),
    Entry('dec-1', 'heldout7-147', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    return weights * (d_weights - d_weights.sum(axis=-1, keepdims=True))
""", 'dec-1/plain-sum',
          mistake='Subtracts the plain sum of the upstream gradients instead of their weighted sum.', heldout=True),
    Entry('dec-1', 'heldout7-148', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    # softmax 反向: w * (g - <w, g>)
    inner = (weights * d_weights).sum(axis=-1, keepdims=True)
    return weights * (d_weights - inner)
""", 'dec-1/broadcasts',
          mistake='Does not check that the two shapes match, so broadcastable but different shapes are silently accepted.', heldout=True),
    Entry('dec-1', 'heldout7-149', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    out = np.zeros_like(weights)
    for i in range(weights.shape[0]):
        w = weights[i]
        J = np.diag(w) - np.outer(w, w)      # якобиан softmax
        out[i] = J @ d_weights[i]
    return out
""", '*/one-rank-only',
          mistake='Builds the Jacobian row by row for 2-D input only; a batched (B, Tq, Tk) input is handled wrongly.', heldout=True),
    Entry('dec-2', 'heldout7-151', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-gain-in-dx',
          mistake='Forgets the gain in d_x: uses d_out instead of d_out * gain.', heldout=True),
    Entry('dec-2', 'heldout7-152', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    # 归一化的导数
    d_x = r * g
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/constants',
          mistake='Treats the mean and variance as constants, so d_x is just r * gain * d_out.', heldout=True),
    Entry('dec-2', 'heldout7-153', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_bias, d_gain
""", '*/results-swapped',
          mistake='Swaps d_gain and d_bias in the returned tuple.', heldout=True),
    Entry('dec-2', 'heldout7-154', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/unbiased',
          mistake='Uses the unbiased variance (ddof=1), which the forward pass does not use.', heldout=True),
    Entry('dec-2', 'heldout7-155', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).sum(axis=0)
    d_bias = d_out.sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias over axis 0 only, so a 3-D input gives (T, D) instead of (D,).', heldout=True),
    Entry('dec-2', 'heldout7-156', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    r = 1.0 / (np.sqrt(var) + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance inside the square root.', heldout=True),
    Entry('dec-2', 'heldout7-157', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shapes do not match")
    mu = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - mu ** 2
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which loses all precision for inputs with a large mean.', heldout=True),
    Entry('dec-3', 'heldout7-159', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][0])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/position-zero',
          mistake='Always adds the position-0 row instead of the row for position n.', heldout=True),
    Entry('dec-3', 'heldout7-160', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = heads.reshape(1, -1) @ b["w_o"]   # 注意力输出
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Drops the residual connection around attention: x is replaced by the attention output.', heldout=True),
    Entry('dec-3', 'heldout7-161', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        # кэш ключей и значений
        lk = np.concatenate([keys[0], k], axis=1)
        lv = np.concatenate([values[0], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/shared-cache',
          mistake="Uses the first layer's cache (keys[0], values[0]) in every layer.", heldout=True),
    Entry('dec-3', 'heldout7-162', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = x
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Skips the first layer norm and projects x itself to queries, keys and values.', heldout=True),
    Entry('dec-3', 'heldout7-163', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    # 返回 logits 和缓存
    return model.output_head(x)[0], keys, values
""", 'dec-3/old-cache-returned',
          mistake='Returns the caches it was given instead of the caches extended by the new key and value.', heldout=True),
    Entry('dec-3', 'heldout7-164', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(lk)
        new_values.append(lv)
    logits = x @ model.params["w_head"]
    return logits[0], new_keys, new_values
""", None,
          mistake='Skips the final layer norm: multiplies by W_head directly instead of calling output_head.', heldout=True),
    Entry('dec-3', 'heldout7-165', r"""
import numpy as np
from lib import layers
from lib.attention import causal_allowed, causal_attention, masked_softmax
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        lk = np.concatenate([keys[layer], k], axis=1)
        lv = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, lk, lv)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        new_keys.append(lk)
        new_values.append(lv)
    return model.output_head(x)[0], new_keys, new_values
""", None,
          mistake='Forgets the MLP sublayer of every block (and drops the check that position n fits in the position table).', heldout=True),
    Entry('dec-4', 'heldout7-167', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length] = (ids[..., prefix_length] + 1) % model.vocab_size

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/one-token',
          mistake='Changes only the first future token, so a leak from later tokens (e.g. the last one) is missed.', heldout=True),
    Entry('dec-4', 'heldout7-168', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    # 改变前缀
    perturbed[..., :prefix_length] = (ids[..., :prefix_length] + 1) % model.vocab_size

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Perturbs the prefix instead of the future tokens.', heldout=True),
    Entry('dec-4', 'heldout7-169', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(forward) > tol:
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake='Uses the given forward itself as the control instead of the model with the mask switched off, so it can never say "causal".', heldout=True),
    Entry('dec-4', 'heldout7-170', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = ids[..., prefix_length:] + 1

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/no-modulo',
          mistake='Adds 1 to the future tokens without wrapping modulo the vocabulary size, producing an invalid id for the last token.', heldout=True),
    Entry('dec-4', 'heldout7-171', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = 0   # 用 0 替换未来

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/fixed-token',
          mistake='Sets every future token to 0, which does not change the future tokens that are already 0.', heldout=True),
    Entry('dec-4', 'heldout7-172', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., :prefix_length, :]
        b = np.asarray(f(ids))[..., :prefix_length, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/prefix-equals-T',
          mistake='Does not validate prefix_length, so prefix_length = T returns a verdict instead of raising.', heldout=True),
    Entry('dec-4', 'heldout7-173', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        a = np.asarray(f(perturbed))[..., prefix_length - 1, :]
        b = np.asarray(f(ids))[..., prefix_length - 1, :]
        return np.max(np.abs(a - b))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/last-row',
          mistake='Compares only the last prefix row, missing a leak into earlier positions.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('dec-1', 'dev8-142', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    return weights * d_weights
""", 'dec-1/no-row-term',
          mistake='Forgets to subtract the row sum of weights times gradients: returns w*g instead of w*(g - sum(w*g)).'),
    Entry('dec-1', 'dev8-143', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=-1)
    return weights * (d_weights - along_row)
""", 'dec-1/no-keepdims',
          mistake='Drops keepdims, so the row sums broadcast along the wrong axis.'),
    Entry('dec-1', 'dev8-144', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return d_weights - along_row
""", 'dec-1/not-times-weights',
          mistake='Forgets the outer multiplication by the weights, so forbidden entries get a non-zero gradient.'),
    Entry('dec-1', 'dev8-145', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (d_weights - along_row)
""", 'dec-1/broadcasts',
          mistake='No shape check: mismatched shapes that broadcast are accepted instead of raising ValueError.'),
    Entry('dec-1', 'dev8-146', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.mean(d_weights * weights, axis=-1, keepdims=True)
    return weights * (d_weights - along_row)
""", 'dec-1/row-mean',
          mistake='Takes the mean instead of the sum of w*g along the row.'),
    Entry('dec-1', 'dev8-147', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    # якобиан softmax для каждой строки: diag(w) - w w^T
    out = np.zeros_like(weights)
    for row in range(weights.shape[0]):
        w = weights[row]
        jac = np.diag(w) - np.outer(w, w)
        out[row] = jac @ d_weights[row]
    return out
""", '*/one-rank-only',
          mistake='Loops over the first axis only, assuming 2-D (Tq, Tk) input, so batched weights get a wrong Jacobian.'),
    Entry('dec-2', 'dev8-149', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    # layer norm 的反向传播
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-variance-term',
          mistake='Forgets the x_hat * mean(g * x_hat) term of d_x (the path through the variance).'),
    Entry('dec-2', 'dev8-150', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-mean-term',
          mistake='Forgets to subtract mean(g) in d_x (the path through the mean).'),
    Entry('dec-2', 'dev8-151', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-gain-in-dx',
          mistake='Forgets to multiply the upstream gradient by the gain before backpropagating into x.'),
    Entry('dec-2', 'dev8-152', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).sum(axis=0)
    d_bias = d_out.sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias over axis 0 only, so with more than one leading axis they are not of shape (D,).'),
    Entry('dec-2', 'dev8-153', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    mean = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2    # E[x²] − E[x]²
    r = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mean) * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which loses all precision for inputs with a large mean.'),
    Entry('dec-2', 'dev8-154', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x).reshape(-1, D).sum(axis=0)      # dL/dgain = d_out * x
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/gain-uses-x',
          mistake='Uses the raw input x instead of the normalised x_hat in the gain gradient.'),
    Entry('dec-2', 'dev8-155', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError("shape mismatch")
    centred = x - x.mean(axis=-1, keepdims=True)
    std = np.sqrt((centred ** 2).mean(axis=-1, keepdims=True)) + eps
    x_hat = centred / std
    g = d_out * gain
    d_x = (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True)) / std
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance under the square root.'),
    Entry('dec-3', 'dev8-157', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n - 1])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/position-previous',
          mistake='Uses position n-1 instead of n for the new token (counts positions from the last cached one).'),
    Entry('dec-3', 'dev8-158', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[0], k], axis=1)
        layer_values = np.concatenate([values[0], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/shared-cache',
          mistake='Reads the cache of layer 0 in every layer instead of each layer own cache.'),
    Entry('dec-3', 'dev8-159', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = heads.reshape(1, -1) @ b["w_o"]   # выход внимания
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Forgets the residual connection around attention: x is replaced by the attention output.'),
    Entry('dec-3', 'dev8-160', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/first-norm-twice',
          mistake='Uses the first layer norm gain and bias (ln1) before the MLP instead of ln2.'),
    Entry('dec-3', 'dev8-161', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], keys, values
""", 'dec-3/old-cache-returned',
          mistake='Returns the old caches instead of the caches extended by the new key and value.'),
    Entry('dec-3', 'dev8-162', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/unchecked',
          mistake='Does not check that position n is inside the position table; at n = context_size it fails with an IndexError instead of a ValueError.'),
    Entry('dec-3', 'dev8-163', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(x, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Feeds the un-normalised x into the MLP instead of the ln2 output.'),
    Entry('dec-4', 'dev8-165', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    # меняем все будущие токены
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = ids[..., prefix_length:] + 1

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/no-modulo',
          mistake='Adds 1 to the future tokens without wrapping modulo the vocabulary size, so the largest id becomes an invalid token.'),
    Entry('dec-4', 'dev8-166', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(forward) > tol:
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake='Uses the forward under test as the control instead of the model run without its mask, so a causal model is called "blind".'),
    Entry('dec-4', 'dev8-167', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/prefix-equals-T',
          mistake='Does not validate prefix_length; prefix_length = T is not rejected with ValueError and silently gives "blind".'),
    Entry('dec-4', 'dev8-168', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length + 1, :] - np.asarray(f(ids))[..., :prefix_length + 1, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Compares the first prefix_length+1 rows, including the first perturbed position, so every model looks leaky.'),
    Entry('dec-4', 'dev8-169', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "leaks"
    if prefix_change(forward) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Checks the unmasked model first, so any model that can see the future is called "leaks" regardless of the forward under test.'),
    Entry('dec-4', 'dev8-170', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}")
    perturbed = ids                      # будущие токены меняем
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", '*/argument-changed',
          mistake='Perturbs ids in place without a copy, so both runs see the same perturbed tokens (always "blind") and the caller ids are changed.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('dec-1', 'heldout8-153', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return d_weights - along_row
""", 'dec-1/not-times-weights',
          mistake='Forgets the outer factor of the weights, so forbidden (zero-weight) entries get a nonzero gradient.', heldout=True),
    Entry('dec-1', 'heldout8-154', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=0, keepdims=True)   # 求和
    return weights * (d_weights - along_row)
""", 'dec-1/wrong-axis',
          mistake='Sums w·g over axis 0 (queries) instead of along each row.', heldout=True),
    Entry('dec-1', 'heldout8-155', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights, axis=-1, keepdims=True)   # сумма градиентов
    return weights * (d_weights - along_row)
""", 'dec-1/plain-sum',
          mistake='Sums the upstream gradient alone instead of the weighted sum Σ w_k g_k.', heldout=True),
    Entry('dec-1', 'heldout8-156', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (d_weights - along_row)
""", 'dec-1/broadcasts',
          mistake='No shape check: mismatched shapes are silently broadcast or fail with a numpy error instead of the ValueError asked for.', heldout=True),
    Entry('dec-1', 'heldout8-157', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (1 - weights) * d_weights   # 对角线近似
""", 'dec-1/diagonal-only',
          mistake='Uses only the diagonal of the softmax Jacobian, w(1-w)g, dropping the cross terms.', heldout=True),
    Entry('dec-1', 'heldout8-158', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    # обратный проход через softmax
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=-1)   # (..., 1)?
    return weights * (d_weights - along_row)
""", 'dec-1/no-keepdims',
          mistake='Drops keepdims, so the row sums broadcast along the wrong axis.', heldout=True),
    Entry('dec-1', 'heldout8-159', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("d_weights and weights must have the same shape")
    along_row = np.sum(d_weights * weights, axis=-1, keepdims=True)
    return weights * (along_row - d_weights)
""", 'dec-1/sign',
          mistake='Subtracts in the wrong order: the gradient has the wrong sign.', heldout=True),
    Entry('dec-1', 'heldout8-160', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError(f"формы {d_weights.shape} и {weights.shape} должны совпадать")
    # якобиан softmax: diag(w) - w w^T, по строкам
    jac = weights[..., :, None] * np.eye(weights.shape[-1]) - weights[..., :, None] * weights[..., None, :]
    return np.einsum("...ij,...i->...j", jac, d_weights)
""", '*/right-values-other-type',
          mistake='', heldout=True),
    Entry('dec-2', 'heldout8-161', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} must match x {x.shape}")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-gain-in-dx',
          mistake='Forgets to multiply the upstream gradient by the gain before the normalisation backward.', heldout=True),
    Entry('dec-2', 'heldout8-162', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} must match x {x.shape}")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True))   # 忽略方差项
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/no-variance-term',
          mistake='Drops the variance term x̂·mean(g·x̂) from d_x.', heldout=True),
    Entry('dec-2', 'heldout8-163', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} must match x {x.shape}")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x).reshape(-1, D).sum(axis=0)   # градиент по gain
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/gain-uses-x',
          mistake='Uses the raw x instead of the normalised x̂ for the gain gradient.', heldout=True),
    Entry('dec-2', 'heldout8-164', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} must match x {x.shape}")
    centred = x - x.mean(axis=-1, keepdims=True)
    # var = E[x^2] - E[x]^2
    r = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) - x.mean(axis=-1, keepdims=True) ** 2 + eps)
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/moments',
          mistake='Computes the variance as E[x²] − E[x]², which loses precision for inputs with a large mean.', heldout=True),
    Entry('dec-2', 'heldout8-165', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} must match x {x.shape}")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).sum(axis=0)
    d_bias = d_out.sum(axis=0)   # 对批次求和
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums the gain and bias gradients over axis 0 only, so with a (B, T, D) input they keep a T axis.', heldout=True),
    Entry('dec-2', 'heldout8-166', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    # обратный проход layer norm
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(eps))
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", '*/not-refused',
          mistake='No shape checks: a wrong-sized gain or d_out is silently broadcast or fails with an unrelated numpy error.', heldout=True),
    Entry('dec-2', 'heldout8-167', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,) or d_out.shape != x.shape:
        raise ValueError(f"gain {gain.shape} must be ({D},) and d_out {d_out.shape} must match x {x.shape}")
    centred = x - x.mean(axis=-1, keepdims=True)
    r = 1.0 / (np.sqrt((centred * centred).mean(axis=-1, keepdims=True)) + eps)
    x_hat = centred * r
    g = d_out * gain
    d_x = r * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    d_gain = (d_out * x_hat).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/eps-outside',
          mistake='Adds eps outside the square root instead of inside, which does not match the forward pass.', heldout=True),
    Entry('dec-3', 'heldout8-169', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n - 1])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/position-previous',
          mistake='Uses position n - 1 for the new token (off by one; wraps to the last row for the first token).', heldout=True),
    Entry('dec-3', 'heldout8-170', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[0], k], axis=1)   # 缓存的键
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/shared-cache',
          mistake="Reads the first layer's key cache in every layer instead of that layer's own cache.", heldout=True),
    Entry('dec-3', 'heldout8-171', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = heads.reshape(1, -1) @ b["w_o"]   # выход внимания
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Drops the residual connection around the attention sub-layer.', heldout=True),
    Entry('dec-3', 'heldout8-172', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((x @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Projects the un-normalised residual x instead of the layer-normed a into q, k and v.', heldout=True),
    Entry('dec-3', 'heldout8-173', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        # 前馈网络
        x = x + layers.mlp_forward(x, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Feeds the un-normalised residual x into the MLP instead of the ln2 output m_in.', heldout=True),
    Entry('dec-3', 'heldout8-174', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    # один шаг декодера с кэшем
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(d, H).T[:, None, :] for w in ("w_q", "w_k", "w_v"))   # (H, 1, d)
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", None,
          mistake='Splits the heads as (d, H) and transposes, giving each head strided features instead of a contiguous block.', heldout=True),
    Entry('dec-3', 'heldout8-175', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]
    if n >= model.context_size:
        raise ValueError(f"position {n} is past the position table of {model.context_size} rows")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_keys)
    return model.output_head(x)[0], new_keys, new_values
""", None,
          mistake='Copy-paste slip: returns the key cache as the value cache too.', heldout=True),
    Entry('dec-4', 'heldout8-177', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(model.forward) > tol:
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake="Uses the model's ordinary (causal) forward as the control instead of the unmasked one, so a causal model is reported 'blind'.", heldout=True),
    Entry('dec-4', 'heldout8-178', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = ids[..., prefix_length:] + 1   # 未来的词元加一

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/no-modulo',
          mistake='Adds 1 to the future ids without wrapping modulo the vocabulary size, so a future token equal to vocab_size - 1 becomes an out-of-range id.', heldout=True),
    Entry('dec-4', 'heldout8-179', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length] = (ids[..., prefix_length] + 1) % model.vocab_size   # меняем следующий токен

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/one-token',
          mistake='Changes only the token right after the prefix instead of every future token.', heldout=True),
    Entry('dec-4', 'heldout8-180', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 0 <= prefix_length <= T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/prefix-equals-T',
          mistake='Range check too loose: accepts prefix_length 0 and T, which leave no prefix or no future.', heldout=True),
    Entry('dec-4', 'heldout8-181', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(lambda t: model.forward(t, causal=False)) <= tol:
        return "blind"      # 对照组看不到变化
    if prefix_change(forward) > tol:
        return "leaks"
    return "causal"
""", 'dec-4/control-first',
          mistake="Checks the control first, so a leaking forward on a model whose unmasked control sees nothing is reported 'blind'.", heldout=True),
    Entry('dec-4', 'heldout8-182', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    # диагностика утечки
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed)) - np.asarray(f(ids))))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Compares every output row, including the perturbed future, so every model is reported as leaking.', heldout=True),
    Entry('dec-4', 'heldout8-183', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError(f"prefix_length must be in 1..{T - 1}, got {prefix_length}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))

    if prefix_change(forward) > 1e-6:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > 1e-6:
        return "causal"
    return "blind"
""", None,
          mistake='Hard-codes a tolerance of 1e-6 and ignores the tol argument.', heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none (heldout9-117, named none by check() when
# measured, expects */one-rank-only, which other practice draws and the grader give: true of it).
ENTRIES += [
    Entry('dec-1', 'heldout9-115', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("shape mismatch")
    return weights * d_weights
""", 'dec-1/no-row-term',
          mistake='Forgets to subtract the weighted mean of the upstream gradient: returns weights * d_weights.', heldout=True),
    Entry('dec-1', 'heldout9-116', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("形状不一致")
    # g 的平均值
    g_bar = d_weights.mean(axis=-1, keepdims=True)
    return weights * (d_weights - g_bar)
""", 'dec-1/plain-mean',
          mistake='Uses the plain mean of the upstream gradient instead of the weighted sum.', heldout=True),
    Entry('dec-1', 'heldout9-117', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("формы не совпадают")
    g_bar = np.sum(weights * d_weights)
    return weights * (d_weights - g_bar)
""", '*/one-rank-only',
          mistake='Sums over the whole array instead of per row (no axis).', heldout=True),
    Entry('dec-1', 'heldout9-118', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    g_bar = (weights * d_weights).sum(axis=-1, keepdims=True)
    return weights * d_weights - weights * g_bar
""", 'dec-1/broadcasts',
          mistake='Does not check the shapes, so mismatched arrays broadcast or fail with a non-ValueError.', heldout=True),
    Entry('dec-1', 'heldout9-119', r"""
import numpy as np
def masked_softmax_backward(d_weights, weights):
    d_weights, weights = np.asarray(d_weights), np.asarray(weights)
    if d_weights.shape != weights.shape:
        raise ValueError("形状不同")
    n = weights.shape[-1]
    # 雅可比矩阵 J = diag(a) - a a^T
    J = weights[..., :, None] * np.eye(n) - weights[..., :, None] * weights[..., None, :]
    return np.einsum("...ij,...j->...i", J, d_weights)
""", '*/right-values-other-type',
          mistake='Builds the full Jacobian diag(a) - a a^T with a float64 identity matrix, so float32 input comes back as float64.', heldout=True),
    Entry('dec-2', 'heldout9-121', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain width != D")
    mu = x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt(((x - mu) ** 2).mean(axis=-1, keepdims=True) + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    d_gain = (d_out * x).reshape(-1, D).sum(axis=0)
    d_bias = d_out.reshape(-1, D).sum(axis=0)
    return d_x.astype(x.dtype), d_gain.astype(x.dtype), d_bias.astype(x.dtype)
""", 'dec-2/gain-uses-x',
          mistake='Returns d_gain without normalising x: multiplies d_out by x instead of x_hat.', heldout=True),
    Entry('dec-2', 'heldout9-122', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape[0] != D:
        raise ValueError("gain 的宽度不是 D")
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    rho = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mean) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(axis=-1, keepdims=True) - x_hat * (g * x_hat).mean(axis=-1, keepdims=True))
    # 对批次求和
    d_gain = (d_out * x_hat).sum(axis=0)
    d_bias = d_out.sum(axis=0)
    return d_x, d_gain, d_bias
""", 'dec-2/batch-axis-only',
          mistake='Sums d_gain and d_bias only over axis 0, so for (B, T, D) input they have shape (T, D) instead of (D,).', heldout=True),
    Entry('dec-2', 'heldout9-123', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("ширина gain не равна D")
    c = x - x.mean(axis=-1, keepdims=True)
    rho = 1 / np.sqrt((c ** 2).mean(axis=-1, keepdims=True) + eps)
    xh = c * rho
    g = d_out * gain
    # градиент по x
    d_x = g - g.mean(axis=-1, keepdims=True) - xh * (g * xh).mean(axis=-1, keepdims=True)
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", None,
          mistake='Forgets the factor rho in d_x.', heldout=True),
    Entry('dec-2', 'heldout9-124', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain must have shape (D,)")
    mu = x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True) - mu * mu
    rho = 1.0 / np.sqrt(var + eps)
    x_hat = (x - mu) * rho
    g = d_out * gain
    d_x = rho * (g - g.mean(-1, keepdims=True) - x_hat * (g * x_hat).mean(-1, keepdims=True))
    return d_x, (d_out * x_hat).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which is inaccurate when the mean is large compared with the spread.', heldout=True),
    Entry('dec-2', 'heldout9-125', r"""
import numpy as np
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
    D = x.shape[-1]
    if gain.shape != (D,):
        raise ValueError("gain 形状错误")
    mu = x.mean(-1, keepdims=True)
    # 方差
    var = x.var(-1, ddof=1, keepdims=True)
    r = 1 / np.sqrt(var + eps)
    xh = (x - mu) * r
    g = d_out * gain
    d_x = r * (g - g.mean(-1, keepdims=True) - xh * (g * xh).mean(-1, keepdims=True))
    return d_x, (d_out * xh).reshape(-1, D).sum(0), d_out.reshape(-1, D).sum(0)
""", 'dec-2/unbiased',
          mistake='Uses the sample variance (ddof=1) instead of the population variance.', heldout=True),
    Entry('dec-3', 'heldout9-127', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # attention over the cached positions
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[0], k], axis=1)
        layer_values = np.concatenate([values[0], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/shared-cache',
          mistake="Appends every layer's key and value to the cache of layer 0 (keys[0]) instead of that layer's own cache.", heldout=True),
    Entry('dec-3', 'heldout9-128', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # 注意力子层
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-residual',
          mistake='Forgets the residual connection around attention: x is replaced by the attention output.', heldout=True),
    Entry('dec-3', 'heldout9-129', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # проекции запроса, ключа и значения
        a = x
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/no-norm',
          mistake='Feeds x instead of LN1(x) into the attention projections.', heldout=True),
    Entry('dec-3', 'heldout9-130', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    # the cache never grows past the table
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # block
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", 'dec-3/unchecked',
          mistake='Does not check the position against the table; the index past the table raises IndexError instead of ValueError.', heldout=True),
    Entry('dec-3', 'heldout9-131', r"""
import numpy as np
from lib import layers
from lib.attention import causal_attention
def decoder_step(model, token, keys, values):
    n = np.shape(keys[0])[1]  # the new token's position
    if n >= model.context_size:
        raise ValueError("position past the table")
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        # 合并各头
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        layer_keys = np.concatenate([keys[layer], k], axis=1)
        layer_values = np.concatenate([values[layer], v], axis=1)
        heads = causal_attention(q, layer_keys, layer_values)
        x = x + heads.transpose(2, 1, 0).reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(layer_keys)
        new_values.append(layer_values)
    return model.output_head(x)[0], new_keys, new_values
""", None,
          mistake='Merges heads with a transpose of the (H, 1, d) output, ordering features by coordinate instead of by head.', heldout=True),
    Entry('dec-4', 'heldout9-133', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length out of range")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    def change(f):
        return np.abs(f(perturbed)[..., :prefix_length, :] - f(ids)[..., :prefix_length, :]).max()
    if change(forward) > tol:
        return "leaks"
    if change(model.forward) > tol:
        return "causal"
    return "blind"
""", 'dec-4/control-is-forward',
          mistake='Uses model.forward with its mask on as the negative control instead of model.forward(t, causal=False).', heldout=True),
    Entry('dec-4', 'heldout9-134', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if prefix_length < 1 or prefix_length > T - 1:
        raise ValueError("prefix_length 不在 1 … T-1")
    perturbed = ids.copy()
    # 未来的 token 全部换成下一个 id
    perturbed[..., prefix_length:] += 1
    def prefix_change(f):
        a = np.asarray(f(ids))[..., :prefix_length, :]
        b = np.asarray(f(perturbed))[..., :prefix_length, :]
        return float(np.max(np.abs(a - b)))
    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/no-modulo',
          mistake='Perturbs the future with token+1 without the modulo, producing an id past the vocabulary (IndexError) for the last id.', heldout=True),
    Entry('dec-4', 'heldout9-135', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("неверная длина префикса")
    pert = ids.copy()
    pert[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    # изменение выходов
    def delta(f):
        return np.max(np.abs(f(pert)[..., prefix_length:, :] - f(ids)[..., prefix_length:, :]))
    if delta(forward) > tol:
        return "leaks"
    if delta(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Compares the rows from prefix_length on (the changed part) instead of the prefix rows.', heldout=True),
    Entry('dec-4', 'heldout9-136', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("前缀长度不合法")
    perturbed = ids.copy()
    perturbed[..., prefix_length] = (ids[..., prefix_length] + 1) % model.vocab_size
    def prefix_change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length, :] - np.asarray(f(ids))[..., :prefix_length, :]))
    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", 'dec-4/one-token',
          mistake='Perturbs only the token at prefix_length instead of every token from it on.', heldout=True),
    Entry('dec-4', 'heldout9-137', r"""
import numpy as np
def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not 1 <= prefix_length < T:
        raise ValueError("prefix_length вне 1 … T-1")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    # префикс: строки 0 … prefix_length
    def change(f):
        return np.max(np.abs(np.asarray(f(perturbed))[..., :prefix_length + 1, :]
                             - np.asarray(f(ids))[..., :prefix_length + 1, :]))
    if change(forward) > tol:
        return "leaks"
    if change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Off by one in the prefix: compares rows up to prefix_length inclusive, so the first changed row counts as a leak.', heldout=True),
]
