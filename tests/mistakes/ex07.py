"""Wrong answers to exercise set 7 (dec-1 ... dec-4)."""

from . import Entry

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
    Entry("dec-2", "mean-and-variance-as-constants", _ln(dx="g * r"), None),
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
    Entry("dec-3", "no-check-index-error", _step(check="pass"), None),

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
]
