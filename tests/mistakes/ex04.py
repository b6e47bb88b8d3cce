"""Wrong answers to exercise set 4 (causal-1 ... causal-4)."""

from . import Entry, bug

_HEAD = """
import numpy as np
"""

# a correct helper the causal-2 and causal-3 answers below build on, as the notebook's would
_CHANGE = _HEAD + """
def _change(forward, ids, position, replacement):
    perturbed = np.array(ids).copy()
    perturbed[..., position:] = replacement
    return float(np.max(np.abs(np.asarray(forward(perturbed))[..., :position, :]
                                - np.asarray(forward(ids))[..., :position, :])))
"""

ENTRIES = [
    # ---- causal-1: future_perturbation_change(forward, ids, position, replacement) --------
    Entry("causal-1", "perturbs-one-token", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement
    return float(np.max(np.abs(forward(perturbed)[..., :position, :] - forward(ids)[..., :position, :])))
""", "causal-1/one-token"),
    Entry("causal-1", "starts-one-early", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    perturbed = ids.copy()
    perturbed[..., position - 1:] = replacement
    return float(np.max(np.abs(forward(ids)[..., :position, :] - forward(perturbed)[..., :position, :])))
""", "causal-1/starts-early"),
    Entry("causal-1", "rows-include-position", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    return float(np.max(np.abs(forward(perturbed)[..., :position + 1, :] - forward(ids)[..., :position + 1, :])))
""", "causal-1/with-position"),
    Entry("causal-1", "all-rows", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    return float(np.max(np.abs(forward(perturbed) - forward(ids))))
""", "causal-1/all-rows"),
    Entry("causal-1", "fixed-token-zero", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = 0
    return float(np.max(np.abs(forward(perturbed)[..., :position, :] - forward(ids)[..., :position, :])))
""", "causal-1/fixed-token"),
    Entry("causal-1", "signed-change", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    return float(np.max(forward(perturbed)[..., :position, :] - forward(ids)[..., :position, :]))
""", "causal-1/signed"),
    Entry("causal-1", "compares-last-prefix-row", _HEAD + """
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    return float(np.max(np.abs(forward(perturbed)[..., position - 1, :] - forward(ids)[..., position - 1, :])))
""", "causal-1/last-prefix-row"),

    # ---- causal-2: perturbation_verdict(forward, control, ids, position, replacement, tol) --
    Entry("causal-2", "no-negative-control", _CHANGE + """
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("bad position")
    return "leaks" if _change(forward, ids, position, replacement) > tol else "causal"
""", "causal-2/no-control"),
    Entry("causal-2", "control-checked-first", _CHANGE + """
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("bad position")
    if _change(control, ids, position, replacement) <= tol:
        return "blind"
    return "leaks" if _change(forward, ids, position, replacement) > tol else "causal"
""", None),
    Entry("causal-2", "tol-ignored", _CHANGE + """
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("bad position")
    if _change(forward, ids, position, replacement) > 0:
        return "leaks"
    if _change(control, ids, position, replacement) > 0:
        return "causal"
    return "blind"
""", "causal-2/ignores-tol"),
    Entry("causal-2", "position-T-accepted", _CHANGE + """
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if position < 1:
        raise ValueError("bad position")
    if _change(forward, ids, position, replacement) > tol:
        return "leaks"
    if _change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", "causal-2/position-unchecked"),
    Entry("causal-2", "no-control-no-check", _CHANGE + """
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    change = _change(forward, ids, position, replacement)
    return "leaks" if change > tol else "causal"
""", "causal-2/no-control"),
    Entry("causal-2", "control-result-inverted", _CHANGE + """
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("bad position")
    if _change(forward, ids, position, replacement) > tol:
        return "leaks"
    if _change(control, ids, position, replacement) > tol:
        return "blind"
    return "causal"
""", None),

    # ---- causal-3: leak_sweep(forward, ids, replacement_token) ------------------------------
    Entry("causal-3", "one-token-per-position", _HEAD + """
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    if ids.shape[-1] < 2:
        raise ValueError("short")
    out = []
    for p in range(1, ids.shape[-1]):
        perturbed = ids.copy()
        perturbed[p] = replacement_token
        out.append(np.max(np.abs(forward(ids)[:p] - forward(perturbed)[:p])))
    return np.array(out)
""", "causal-3/one-token"),
    Entry("causal-3", "shifted-by-one", _CHANGE + """
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("short")
    return np.array([_change(forward, ids, p, replacement_token) if p else 0.0 for p in range(T - 1)])
""", "causal-3/shifted"),
    Entry("causal-3", "all-rows", _HEAD + """
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    if ids.shape[-1] < 2:
        raise ValueError("short")
    out = []
    for p in range(1, ids.shape[-1]):
        perturbed = ids.copy()
        perturbed[p:] = replacement_token
        out.append(np.max(np.abs(forward(ids) - forward(perturbed))))
    return np.array(out, dtype=np.float64)
""", "causal-3/all-rows"),
    Entry("causal-3", "one-position-accepted", _CHANGE + """
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    return np.array([_change(forward, ids, p, replacement_token) for p in range(1, ids.shape[-1])],
                    dtype=np.float64)
""", "causal-3/single-position"),
    bug("causal-3", "perturbs-in-place", "in-place-perturbation", "causal-3/in-place"),
    Entry("causal-3", "list-not-array", _CHANGE + """
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    if ids.shape[-1] < 2:
        raise ValueError("short")
    return [_change(forward, ids, p, replacement_token) for p in range(1, ids.shape[-1])]
""", None),

    # ---- causal-4: feature_norm(x, eps=1e-5) ------------------------------------------------
    Entry("causal-4", "over-time", _HEAD + """
def feature_norm(x, eps=1e-5):
    mean = x.mean(axis=-2, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", "causal-4/over-time"),
    Entry("causal-4", "over-axis-0", _HEAD + """
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    return (x - x.mean(axis=0)) / np.sqrt(x.var(axis=0) + eps)
""", "causal-4/over-time"),
    Entry("causal-4", "eps-outside-root", _HEAD + """
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / (x.std(axis=-1, keepdims=True) + eps)
""", "causal-4/eps-outside"),
    Entry("causal-4", "unbiased-variance", _HEAD + """
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps)
""", "causal-4/unbiased"),
    Entry("causal-4", "eps-hard-coded", _HEAD + """
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5)
""", "causal-4/eps-ignored"),
    Entry("causal-4", "divides-by-variance", _HEAD + """
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    return (x - mean) / (x.var(axis=-1, keepdims=True) + eps)
""", "causal-4/variance"),
    Entry("causal-4", "float64-out", _HEAD + """
def feature_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=float)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", "*/dtype-promoted"),
    Entry("causal-4", "centres-the-callers-array", _HEAD + """
def feature_norm(x, eps=1e-5):
    x -= x.mean(axis=-1, keepdims=True)
    return x / np.sqrt((x * x).mean(axis=-1, keepdims=True) + eps)
""", "*/argument-changed"),
]
