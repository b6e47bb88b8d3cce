"""Wrong answers to exercise set 4 (causal-1 ... causal-4)."""

from . import Entry, answers_above, bug

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
""", 'causal-2/control-first'),
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
""", 'causal-2/verdicts-swapped'),

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
""", "causal-3/list"),

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


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('causal-1', 'heldout-078', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: replaces tokens from position + 1 on, so the token at `position` is never perturbed.', heldout=True),
    Entry('causal-1', 'heldout-079', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Slices the first axis (perturbed[position:]) instead of the last, which for a (B, T) batch replaces whole sequences instead of future tokens.', heldout=True),
    Entry('causal-1', 'heldout-080', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the single token at `position`, not every token from `position` on.', heldout=True),
    Entry('causal-1', 'heldout-081', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., :position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Replaces the prefix (:position) instead of the future, so it perturbs exactly the tokens it should keep.', heldout=True),
    Entry('causal-1', 'heldout-082', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position - 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/starts-early',
          mistake='Off by one the other way: starts the replacement at position - 1, which changes the last prefix token itself.', heldout=True),
    Entry('causal-1', 'heldout-083', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    ids[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Writes the replacement into ids (the caller's array) instead of into the copy; the number comes out the same but the input is destroyed.", heldout=True),
    Entry('causal-2', 'heldout-084', r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    ids = np.asarray(ids)
    if not 1 <= position <= ids.shape[-1] - 1:
        raise ValueError("position must be in 1 .. T-1")

    def change(f):
        perturbed = ids.copy()
        perturbed[..., position:] = replacement
        return float(np.max(np.abs(f(perturbed)[..., :position, :] - f(ids)[..., :position, :])))

    if change(forward) >= tol:
        return "leaks"
    if change(control) >= tol:
        return "causal"
    return "blind"
""", 'causal-2/tie-counts-as-leak',
          mistake='Compares with >= tol instead of > tol, so a change of exactly tol (e.g. 0 with tol=0) counts as a leak.', heldout=True),
    Entry('causal-2', 'heldout-085', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))


def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = np.shape(ids)[-1]
    if position < 1 or position >= T:
        raise ValueError("позиция должна быть в 1 … T-1")
    # сначала убедимся, что тест вообще что-то видит
    if future_perturbation_change(control, ids, position, replacement) <= tol:
        return "blind"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/control-first',
          mistake="Runs the control first and answers 'blind' whenever it sees nothing, even when the model itself leaks.", heldout=True),
    Entry('causal-2', 'heldout-086', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))


def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = np.shape(ids)[-1]
    if position < 1 or position > T:
        raise ValueError("position 超出范围")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/position-unchecked',
          mistake="The range check accepts position == T, where there is no future to change; it returns 'blind' instead of raising ValueError.", heldout=True),
    Entry('causal-2', 'heldout-087', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))


def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    ids = np.asarray(ids)
    T = len(ids)
    if not 0 < position < T:
        raise ValueError(f"position {position} is not in 1..{T - 1}")
    change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if change > tol:
        return "leaks"
    return "causal" if control_change > tol else "blind"
""", 'causal-2/batch-length',
          mistake='Takes T as len(ids), the batch size for a (B, T) batch, so valid positions of a batch are refused.', heldout=True),
    Entry('causal-2', 'heldout-088', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))


def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("нет префикса или нет будущего")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/no-control',
          mistake="Never looks at the control: a change of 0 is always called 'causal', so a blind test is never reported.", heldout=True),
    Entry('causal-2', 'heldout-089', r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    ids = np.asarray(ids)
    if not 1 <= position < ids.shape[-1]:
        raise ValueError("position 必须在 1 … T-1 之间")

    def change(f):
        p = ids.copy()
        p[..., position:] = replacement
        return np.abs(f(p) - f(ids)).max()

    if change(forward) > tol:
        return "leaks"
    if change(control) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Measures the change over all output rows instead of the prefix rows, so a causal model is reported as leaking.', heldout=True),
    Entry('causal-3', 'heldout-090', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need at least two positions")
    out = []
    for p in range(1, T - 1):
        perturbed = ids.copy()
        perturbed[p:] = replacement_token
        out.append(np.max(np.abs(forward(perturbed)[:p] - forward(ids)[:p])))
    return np.array(out, dtype=np.float64)
""", 'causal-3/ends-early',
          mistake='Off by one in the loop bound, range(1, T - 1): the last position is never swept and the result has T - 2 entries.', heldout=True),
    Entry('causal-3', 'heldout-091', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    changes = np.zeros(T - 1)
    for p in range(T - 1):
        perturbed = ids.copy()
        perturbed[..., p:] = replacement_token
        before = forward(ids)[..., :p, :]
        after = forward(perturbed)[..., :p, :]
        changes[p] = np.max(np.abs(after - before))
    return changes
""", None,
          mistake='Sweeps p from 0: the prefix of position 0 is empty and np.max of an empty array raises.', heldout=True),
    Entry('causal-3', 'heldout-092', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T 至少为 2")
    base = forward(ids)
    perturbed = ids.copy()
    result = []
    for p in range(1, T):
        perturbed[p:] = replacement_token
        result.append(float(np.abs(forward(perturbed)[:p] - base[:p]).max()))
    return np.array(result, dtype=np.float64)
""", None,
          mistake='Makes one perturbed copy before the loop and keeps modifying it, so from p = 2 on the prefix is already perturbed too.', heldout=True),
    Entry('causal-3', 'heldout-093', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    full = forward(ids)
    changes = []
    for p in range(1, T):
        perturbed = ids.copy()
        perturbed[..., p:] = replacement_token
        changes.append(np.max(np.abs(forward(perturbed)[..., :p, :] - full[..., :p, :])))
    return np.array(changes, dtype=np.float64)
""", 'causal-3/single-position',
          mistake='No check for T < 2: a one-token input returns an empty array instead of raising ValueError.', heldout=True),
    Entry('causal-3', 'heldout-094', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T < 2: нечего проверять")
    changes = []
    for p in range(1, T):
        perturbed = ids.copy()
        perturbed[p:] = replacement_token
        changes.append(float(np.max(np.abs(forward(perturbed)[:p] - forward(ids)[:p]))))
    return changes
""", 'causal-3/list',
          mistake='Returns a Python list of changes instead of a float64 NumPy array.', heldout=True),
    Entry('causal-3', 'heldout-095', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("序列太短")
    out = np.empty(T - 1, dtype=np.float64)
    for p in range(1, T):
        perturbed = ids.copy()
        perturbed[p] = replacement_token          # 替换位置 p
        out[p - 1] = np.max(np.abs(forward(perturbed)[:p] - forward(ids)[:p]))
    return out
""", 'causal-3/one-token',
          mistake='Replaces only the token at p instead of every token from p on.', heldout=True),
    Entry('causal-3', 'heldout-096', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("a sweep needs T >= 2")
    changes = np.zeros(T, dtype=np.float64)      # changes[p] is position p
    for p in range(1, T):
        perturbed = ids.copy()
        perturbed[p:] = replacement_token
        changes[p] = np.abs(forward(perturbed)[:p] - forward(ids)[:p]).max()
    return changes
""", 'causal-3/leading-zero',
          mistake='Adds an entry 0.0 for position 0 so that entry p belongs to position p: the result has shape (T,) instead of (T-1,).', heldout=True),
    Entry('causal-4', 'heldout-097', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Moves the mean to the feature axis but leaves the variance over axis -2 (time), so the leak across positions stays.', heldout=True),
    Entry('causal-4', 'heldout-098', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1, divided by D - 1) instead of the population variance.', heldout=True),
    Entry('causal-4', 'heldout-099', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma = np.std(x, axis=-1, keepdims=True)
    return (x - mu) / (sigma + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance (sqrt(var) + eps), which differs for rows of small variance.', heldout=True),
    Entry('causal-4', 'heldout-100', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1)[:, None]
    var = ((x - mean) ** 2).mean(axis=-1)[:, None]
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/two-axes-only',
          mistake='Restores the reduced axis with [:, None], which only works for 2-D (T, D) inputs; a batch (B, T, D) breaks.', heldout=True),
    Entry('causal-4', 'heldout-101', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x).astype(float)   # для точности
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", '*/dtype-promoted',
          mistake='Converts the input to float64 first, so a float32 input comes back as float64.', heldout=True),
    Entry('causal-4', 'heldout-102', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    centred = x - x.mean(axis=-1, keepdims=True)
    var = (centred ** 2).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var)
""", 'causal-4/no-eps',
          mistake='Leaves eps out entirely, so a constant row divides 0 by 0 and gives nan.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('causal-1', 'heldout3-069', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # everything after the prefix
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: the perturbation starts at position + 1, so the first future position is never changed.', heldout=True),
    Entry('causal-1', 'heldout3-070', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 从 position 开始替换
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Slices the first axis instead of the time axis, so for a batch (B, T) whole sequences are replaced, prefix included.', heldout=True),
    Entry('causal-1', 'heldout3-071', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # заменяем будущее
    ids[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Writes the perturbation into ids instead of the copy: before and after swap roles so the number comes out right, but the caller's array is modified.", heldout=True),
    Entry('causal-1', 'heldout3-072', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # perturb the first future token
    perturbed[..., position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the single token at position instead of every token from position on.', heldout=True),
    Entry('causal-1', 'heldout3-073', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 替换后面的词元
    perturbed[..., -position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", None,
          mistake='Uses a negative slice, so it replaces the last `position` tokens instead of everything from `position` on.', heldout=True),
    Entry('causal-2', 'heldout3-074', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position out of range")
    # first make sure the test can see anything at all
    if future_perturbation_change(control, ids, position, replacement) <= tol:
        return "blind"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/control-first',
          mistake='Consults the control first and returns "blind" whenever the control does not move, even when the model under test leaks.', heldout=True),
    Entry('causal-2', 'heldout3-075', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = np.shape(ids)[-1]
    if position < 1 or position > T:
        raise ValueError("position 必须在 1 到 T 之间")
    change = future_perturbation_change(forward, ids, position, replacement)
    if change > tol:
        return "leaks"
    control_change = future_perturbation_change(control, ids, position, replacement)
    return "causal" if control_change > tol else "blind"
""", 'causal-2/position-unchecked',
          mistake='Range check allows position == T, which compares all rows after changing nothing and returns "blind" instead of raising.', heldout=True),
    Entry('causal-2', 'heldout3-076', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = len(ids)
    if not (1 <= position <= T - 1):
        raise ValueError(f"position={position} вне диапазона 1..{T - 1}")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/batch-length',
          mistake='Takes T from len(ids), which is the batch size for a (B, T) batch, so valid positions are rejected (or invalid ones accepted).', heldout=True),
    Entry('causal-2', 'heldout3-077', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("no prefix or no future")
    change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if change > tol:
        return "leaks"
    return "causal"
""", 'causal-2/no-control',
          mistake='Never returns "blind": when the model does not move it says "causal" without looking at the control.', heldout=True),
    Entry('causal-2', 'heldout3-078', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position 不合法")
    if future_perturbation_change(forward, ids, position, replacement) > 1e-9:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > 1e-9:
        return "causal"
    return "blind"
""", 'causal-2/ignores-tol',
          mistake='Hard-codes the tolerance 1e-9 instead of using the tol argument.', heldout=True),
    Entry('causal-2', 'heldout3-079', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("нет префикса или нет будущего")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    # контроль: та же модель без маски должна сдвинуться
    if future_perturbation_change(control, ids, position, 0) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Runs the control with the fixed replacement token 0 instead of the same replacement, so a perturbation that changes nothing is not reported as blind.', heldout=True),
    Entry('causal-3', 'heldout3-080', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need T >= 2")
    changes = np.zeros(T - 2)
    for p in range(1, T - 1):
        changes[p - 1] = future_perturbation_change(forward, ids, p, replacement_token)
    return changes
""", 'causal-3/ends-early',
          mistake='Sweeps p = 1 .. T-2 only (range end off by one), returning T-2 entries and missing the last position.', heldout=True),
    Entry('causal-3', 'heldout3-081', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("至少需要两个位置")
    out = [future_perturbation_change(forward, ids, p, replacement_token)
           for p in range(1, T)]
    return np.array(out, dtype=np.float32)
""", '*/right-values-other-type',
          mistake='Returns a float32 array instead of float64.', heldout=True),
    Entry('causal-3', 'heldout3-082', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    result = []
    # для каждой позиции p меняем всё, начиная с p
    for p in range(1, T):
        result.append(future_perturbation_change(forward, ids, p, replacement_token))
    return np.asarray(result, dtype=np.float64)
""", 'causal-3/single-position',
          mistake='Has no T < 2 check, so a one-token sequence returns an empty array instead of raising ValueError.', heldout=True),
    Entry('causal-3', 'heldout3-083', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T must be at least 2")
    base = forward(ids)
    changes = np.empty(T - 1)
    for p in range(1, T):
        pert = ids.copy()
        pert[p] = replacement_token
        changes[p - 1] = np.abs(forward(pert)[:p] - base[:p]).max()
    return changes
""", 'causal-3/one-token',
          mistake='Writes its own loop that replaces only the token at p, not every token from p on.', heldout=True),
    Entry('causal-3', 'heldout3-084', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T < 2")
    changes = []
    # 从最后一个位置往前扫
    for p in range(T - 1, 0, -1):
        changes.append(future_perturbation_change(forward, ids, p, replacement_token))
    return np.array(changes, dtype=np.float64)
""", None,
          mistake='Sweeps p from T-1 down to 1 and appends in that order, so the entries come out reversed (entry 0 belongs to p = T-1).', heldout=True),
    Entry('causal-3', 'heldout3-085', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    current = ids.copy()
    changes = []
    for p in range(1, T):
        new = current.copy()
        new[p:] = replacement_token
        diff = forward(new)[:p] - forward(current)[:p]
        changes.append(np.abs(diff).max())
        current = new          # следующее возмущение от текущего
    return np.array(changes, dtype=np.float64)
""", None,
          mistake='Compares each perturbation with the previous perturbed sequence instead of the original ids, so after the first step the prefixes are identical and the change is 0.', heldout=True),
    Entry('causal-4', 'heldout3-086', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = x.var(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Takes the mean and variance over axis -2, the time axis, which is exactly the leak.', heldout=True),
    Entry('causal-4', 'heldout3-087', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)   # 方差
    return (x - mu) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1) instead of the population variance.', heldout=True),
    Entry('causal-4', 'heldout3-088', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)   # eps чтобы не делить на ноль
""", 'causal-4/eps-outside',
          mistake='Adds eps outside the square root: (x - mean) / (std + eps).', heldout=True),
    Entry('causal-4', 'heldout3-089', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", '*/dtype-promoted',
          mistake='Converts x to float64 first, so float32 input comes back as float64.', heldout=True),
    Entry('causal-4', 'heldout3-090', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1)                 # 每个位置的均值
    var = ((x - mean) ** 2).mean(axis=-1)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/no-keepdims',
          mistake='Takes the mean without keepdims, so (T, D) - (T,) broadcasts along the wrong axis: wrong for square input and an error otherwise.', heldout=True),
    Entry('causal-4', 'heldout3-091', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    # среднее и дисперсия
    m = x.mean()
    v = ((x - m) ** 2).mean()
    return (x - m) / np.sqrt(v + eps)
""", 'causal-4/whole-array',
          mistake='Normalises with one mean and variance over the whole array (all positions and features).', heldout=True),
    Entry('causal-4', 'heldout3-092', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    centred = x - x.mean(axis=-1, keepdims=True)
    # scale each position to unit length
    return centred / np.sqrt((centred ** 2).sum(axis=-1, keepdims=True) + eps)
""", 'causal-4/sum-for-mean',
          mistake='Divides by the root of the SUM of squares of the centred row (an L2 norm) instead of the mean, so the variance comes out 1/D instead of 1.', heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('causal-1', 'heldout4-069', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: replaces the tokens from position + 1 on, so the token at position itself is never perturbed (and an array replacement no longer fits).', heldout=True),
    Entry('causal-1', 'heldout4-070', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 从 position 开始换掉未来的词元
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Slices the first axis (perturbed[position:]) instead of the last, so in a batch it replaces whole sequences instead of the future positions.', heldout=True),
    Entry('causal-1', 'heldout4-071', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids            # копия не нужна
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Drops the copy: perturbed is the same array as ids, so the input is modified and 'before' and 'after' are the same input (change 0).", heldout=True),
    Entry('causal-1', 'heldout4-072', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement      # the first future token
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the single token at position instead of every token from position on.', heldout=True),
    Entry('causal-1', 'heldout4-073', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., :position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Replaces the prefix instead of the future (perturbed[..., :position]).', heldout=True),
    Entry('causal-1', 'heldout4-074', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    # сравниваем выходы
    return float(np.max(np.abs(forward(perturbed) - forward(ids))))
""", 'causal-1/all-rows',
          mistake='Compares every output row, the future rows included, instead of only the prefix rows 0 … position-1.', heldout=True),
    Entry('causal-2', 'heldout4-075', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position must be in 1 .. T-1")
    change = future_perturbation_change(forward, ids, position, replacement)
    return "leaks" if change > tol else "causal"
""", 'causal-2/no-control',
          mistake='Never runs the control: returns "causal" whenever the model\'s prefix does not move, so a blind test is reported as a pass.', heldout=True),
    Entry('causal-2', 'heldout4-076', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position 必须在 1 … T-1 之间")
    # 先看阴性对照：它看不见泄漏，检验就无效
    if future_perturbation_change(control, ids, position, replacement) <= tol:
        return "blind"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/control-first',
          mistake='Checks the control first and returns "blind" when it does not move, even if the model under test leaks.', heldout=True),
    Entry('causal-2', 'heldout4-077', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    T = np.shape(ids)[-1]
    if position < 1 or position > T:
        raise ValueError("нет префикса или нет будущего")
    model_change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if model_change > tol:
        return "leaks"
    return "causal" if control_change > tol else "blind"
""", 'causal-2/position-unchecked',
          mistake='Range check allows position == T (<= instead of <), which leaves no future to change and returns "blind" instead of raising.', heldout=True),
    Entry('causal-2', 'heldout4-078', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    T = np.shape(ids)[-1]
    if not (1 <= position <= T - 1):
        raise ValueError(f"position {position} not in 1..{T - 1}")
    if future_perturbation_change(forward, ids, position, replacement) >= tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) >= tol:
        return "causal"
    return "blind"
""", 'causal-2/tie-counts-as-leak',
          mistake='Uses >= tol instead of > tol, so with tol = 0 an exactly unchanged prefix is reported as a leak.', heldout=True),
    Entry('causal-2', 'heldout4-079', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    T = len(ids)
    if not 1 <= position < T:
        raise ValueError("位置不合法")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/batch-length',
          mistake='Takes T from len(ids), which is the batch size for a (B, T) batch, so valid positions of a batch are refused or invalid ones accepted.', heldout=True),
    Entry('causal-2', 'heldout4-080', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("позиция вне 1 … T-1")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    # контроль сдвинулся — значит, тест ничего не доказывает
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "blind"
    return "causal"
""", 'causal-2/verdicts-swapped',
          mistake='Swaps the two non-leak labels: returns "blind" when the control moved and "causal" when it did not.', heldout=True),
    Entry('causal-3', 'heldout4-081', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need T >= 2")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(1, T - 1)], dtype=np.float64)
""", 'causal-3/ends-early',
          mistake='Sweeps p = 1 … T-2 only (range(1, T - 1)), so the last position is never tested and the array is one entry short.', heldout=True),
    Entry('causal-3', 'heldout4-082', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("至少需要两个位置")
    changes = []
    for p in range(T):
        changes.append(future_perturbation_change(forward, ids, p, replacement_token))
    return np.array(changes[1:], dtype=np.float64)
""", None,
          mistake='Starts the sweep at p = 0, where there is no prefix; the comparison of empty arrays raises instead of returning the sweep.', heldout=True),
    Entry('causal-3', 'heldout4-083', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T < 2")
    base = forward(ids)
    out = np.zeros(T - 1)
    for p in range(1, T):
        pert = ids.copy()
        pert[p] = replacement_token          # возмущаем позицию p
        out[p - 1] = np.max(np.abs(forward(pert)[:p] - base[:p]))
    return out
""", 'causal-3/one-token',
          mistake='Replaces only the token at p instead of every token from p on, so a leak from a later position is missed.', heldout=True),
    Entry('causal-3', 'heldout4-084', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError(f"T={T} < 2")
    return [future_perturbation_change(forward, ids, p, replacement_token)
            for p in range(1, T)]
""", 'causal-3/list',
          mistake='Returns a Python list instead of a float64 array.', heldout=True),
    Entry('causal-3', 'heldout4-085', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # the future changes, the prefix stays
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
# the learner's cell
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    result = np.zeros(max(T - 1, 0), dtype=np.float64)
    for p in range(1, T):
        result[p - 1] = future_perturbation_change(forward, ids, p, replacement_token)
    return result
""", 'causal-3/single-position',
          mistake='Does not refuse T < 2: a one-token input returns an empty array instead of raising ValueError.', heldout=True),
    Entry('causal-3', 'heldout4-086', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    clean = forward(ids)
    perturbed = ids.copy()
    changes = np.empty(T - 1)
    for p in range(1, T):
        perturbed[p:] = replacement_token
        changes[p - 1] = np.abs(forward(perturbed)[:p] - clean[:p]).max()
    return changes
""", None,
          mistake='Reuses one perturbed array across the sweep without resetting it, so at p the prefix still holds the replacements made for smaller p and even a causal model shows a change.', heldout=True),
    Entry('causal-4', 'heldout4-087', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = x.var(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Normalises over the time axis (axis=-2) instead of the features: the leak of the suspect model, not its fix.', heldout=True),
    Entry('causal-4', 'heldout4-088', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, ddof=1, keepdims=True)   # 方差
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1) instead of the population variance divided by D.', heldout=True),
    Entry('causal-4', 'heldout4-089', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mu = x.mean(axis=-1, keepdims=True)
    sigma = x.std(axis=-1, keepdims=True)
    # eps, чтобы не делить на ноль
    return (x - mu) / (sigma + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance under the square root.', heldout=True),
    Entry('causal-4', 'heldout4-090', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    mean_sq = (x * x).mean(axis=-1, keepdims=True)
    var = mean_sq - mean ** 2          # one pass
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which cancels catastrophically for large values (e.g. features around 1e8).', heldout=True),
    Entry('causal-4', 'heldout4-091', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)     # 统一用双精度
    centred = x - x.mean(axis=-1, keepdims=True)
    var = (centred ** 2).mean(axis=-1, keepdims=True)
    return centred / np.sqrt(var + eps)
""", '*/dtype-promoted',
          mistake='Converts the input to float64 at the start, so a float32 input comes back as float64.', heldout=True),
    Entry('causal-4', 'heldout4-092', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    c = x - x.mean(axis=-1, keepdims=True)
    return c / np.sqrt((c ** 2).mean(axis=-1, keepdims=True))
""", 'causal-4/no-eps',
          mistake='Leaves eps out entirely, so a constant row divides 0 by 0 and gives nan.', heldout=True),
    Entry('causal-4', 'heldout4-093', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    x -= x.mean(axis=-1, keepdims=True)       # centre
    var = (x ** 2).mean(axis=-1, keepdims=True)
    return x / np.sqrt(var + eps)
""", '*/argument-changed',
          mistake="Centres the input in place with -=, modifying the caller's array.", heldout=True),
    Entry('causal-4', 'heldout4-147', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean()
    var = x.var()
    # нормализация к нулевому среднему и единичной дисперсии
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/whole-array',
          mistake='Normalises with the mean and standard deviation of the whole array (no axis), so every position depends on all the others.', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('causal-1', 'heldout5-077', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the token at `position`, not every token from there on.', heldout=True),
    Entry('causal-1', 'heldout5-078', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position + 1:] = replacement  # будущее начинается после position
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: replaces the tokens from position + 1 on, leaving the token at `position` unchanged.', heldout=True),
    Entry('causal-1', 'heldout5-079', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., :position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Replaces the prefix (positions before `position`) instead of the future.', heldout=True),
    Entry('causal-1', 'heldout5-080', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    ids[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Writes the replacement into `ids` itself instead of the copy, so both forward passes see the same tokens and the caller's array is modified.", heldout=True),
    Entry('causal-1', 'heldout5-081', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Indexes the first axis (perturbed[position:]), which for a batch replaces whole sequences instead of positions.', heldout=True),
    Entry('causal-1', 'heldout5-082', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position - 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/starts-early',
          mistake='Off by one the other way: replaces from position − 1, so the last prefix token changes too.', heldout=True),
    Entry('causal-1', 'heldout5-083', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    future = np.arange(len(ids)) >= position
    perturbed = np.where(future, replacement if np.ndim(replacement) == 0
                         else np.concatenate([ids[:position], replacement]), ids)
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Builds the mask from len(ids), which is the batch size for a (B, T) input, so batches fail.', heldout=True),
    Entry('causal-2', 'heldout5-084', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position out of range")
    if future_perturbation_change(control, ids, position, replacement) <= tol:
        return "blind"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/control-first',
          mistake='Runs the control first and returns "blind" when it does not move, even if the model under test leaks.', heldout=True),
    Entry('causal-2', 'heldout5-085', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = np.shape(ids)[-1]
    if position < 1 or position > T:
        raise ValueError("позиция вне диапазона")
    change = future_perturbation_change(forward, ids, position, replacement)
    if change > tol:
        return "leaks"
    control_change = future_perturbation_change(control, ids, position, replacement)
    return "causal" if control_change > tol else "blind"
""", 'causal-2/position-unchecked',
          mistake='Allows position == T in its range check, so a position with no future returns a verdict instead of raising ValueError.', heldout=True),
    Entry('causal-2', 'heldout5-086', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position 必须在 1 … T−1")
    if future_perturbation_change(forward, ids, position, replacement) >= tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) >= tol:
        return "causal"
    return "blind"
""", 'causal-2/tie-counts-as-leak',
          mistake='Compares with >= tol instead of > tol, so with tol = 0 an exactly causal model is called "leaks".', heldout=True),
    Entry('causal-2', 'heldout5-087', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position must be in 1..T-1")
    change = future_perturbation_change(forward, ids, position, replacement)
    return "leaks" if change > tol else "causal"
""", 'causal-2/no-control',
          mistake='Has no "blind" branch: whenever the model does not move it answers "causal", without looking at the control.', heldout=True),
    Entry('causal-2', 'heldout5-088', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("нет префикса или нет будущего")
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", None,
          mistake='Mixes up the roles: a moving control is reported as "leaks" and a moving model as "causal".', heldout=True),
    Entry('causal-2', 'heldout5-089', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = len(ids)
    if position < 1 or position >= T:
        raise ValueError("位置无效")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/batch-length',
          mistake='Takes T from len(ids), which is the batch size for a (B, T) batch, so valid positions of a batch raise ValueError.', heldout=True),
    Entry('causal-2', 'heldout5-090', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("bad position")
    model_change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if control_change <= tol and model_change <= tol:
        return "blind"
    # the model should move much less than the control
    return "causal" if model_change < control_change else "leaks"
""", None,
          mistake='Judges the model against the control instead of against tol: a leak smaller than the control\'s change is called "causal".', heldout=True),
    Entry('causal-3', 'heldout5-091', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need at least two positions")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(1, T - 1)], dtype=np.float64)
""", 'causal-3/ends-early',
          mistake='Loops over p = 1 … T−2 (range(1, T − 1)), so the last position is never swept and the array is one entry short.', heldout=True),
    Entry('causal-3', 'heldout5-092', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    out = np.zeros(T)
    for p in range(1, T):
        out[p] = future_perturbation_change(forward, ids, p, replacement_token)
    return out
""", 'causal-3/leading-zero',
          mistake='Makes an array of length T and stores position p at index p, so entry 0 is a spurious 0 and the shape is (T,).', heldout=True),
    Entry('causal-3', 'heldout5-093', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    if ids.shape[-1] < 2:
        raise ValueError("T 至少为 2")
    return [future_perturbation_change(forward, ids, p, replacement_token)
            for p in range(1, ids.shape[-1])]
""", 'causal-3/list',
          mistake='Returns a Python list instead of a float64 NumPy array.', heldout=True),
    Entry('causal-3', 'heldout5-094', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T < 2")
    changes = np.empty(T - 1, dtype=np.float32)
    for p in range(1, T):
        changes[p - 1] = future_perturbation_change(forward, ids, p, replacement_token)
    return changes
""", '*/right-values-other-type',
          mistake='Returns float32, losing precision, instead of float64.', heldout=True),
    Entry('causal-3', 'heldout5-095', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("слишком короткая последовательность")
    base = forward(ids)
    result = []
    for p in range(1, T):
        changed = ids.copy()
        changed[p] = replacement_token       # заменяем токен в позиции p
        result.append(np.abs(forward(changed)[:p] - base[:p]).max())
    return np.array(result, dtype=np.float64)
""", 'causal-3/one-token',
          mistake='Replaces only the token at p in each run instead of every token from p on.', heldout=True),
    Entry('causal-3', 'heldout5-096', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("至少需要两个位置")
    base = forward(ids.copy())
    result = np.zeros(T - 1)
    for p in range(T - 1, 0, -1):
        ids[p:] = replacement_token
        result[p - 1] = np.max(np.abs(forward(ids)[:p] - base[:p]))
    return result
""", 'causal-3/in-place',
          mistake="Perturbs `ids` in place across iterations, so later runs also change earlier positions and the caller's array is modified.", heldout=True),
    Entry('causal-3', 'heldout5-097', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    out = np.zeros(T - 1, dtype=np.float64)
    for p in range(1, T):
        out[p - 1] = future_perturbation_change(forward, ids, p, replacement_token)
    return out
""", 'causal-3/single-position',
          mistake='Forgets the T < 2 check, so a one-token sequence returns an empty array instead of raising ValueError.', heldout=True),
    Entry('causal-4', 'heldout5-098', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = x.var(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Normalises over axis -2 (time), the leak of the suspect model, instead of over the features.', heldout=True),
    Entry('causal-4', 'heldout5-099', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)   # несмещённая дисперсия
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1) instead of the population variance divided by D.', heldout=True),
    Entry('causal-4', 'heldout5-100', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance under the square root.', heldout=True),
    Entry('causal-4', 'heldout5-101', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1)
    var = ((x - x.mean(axis=-1, keepdims=True)) ** 2).mean(axis=-1)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/no-keepdims',
          mistake='Computes the statistics without keepdims, so (T,) broadcasts against the feature axis: wrong when T = D, an error otherwise.', heldout=True),
    Entry('causal-4', 'heldout5-102', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True))
""", 'causal-4/no-eps',
          mistake='Leaves eps out, so a constant row gives 0/0 = nan and every other row is slightly off.', heldout=True),
    Entry('causal-4', 'heldout5-103', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)   # 精度更高
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", '*/dtype-promoted',
          mistake='Casts to float64, so float32 input comes back as float64.', heldout=True),
    Entry('causal-4', 'heldout5-104', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    return (x - x.mean()) / np.sqrt(x.var() + eps)
""", 'causal-4/whole-array',
          mistake='Takes one mean and variance over the whole array instead of per position.', heldout=True),
    Entry('causal-4', 'heldout5-105', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    x -= x.mean(axis=-1, keepdims=True)           # центрируем на месте
    var = (x * x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(var + eps)
""", '*/argument-changed',
          mistake="Centres the input in place with -=, modifying the caller's array.", heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('causal-1', 'r8-043', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.mean(np.abs(after - before)))
""", 'causal-1/mean',
          mistake='Returns the mean absolute change instead of the largest.', probe=True),
    Entry('causal-1', 'r8-044', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    perturbed[..., position] = replacement + 1
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", None,
          mistake='Replaces every token after position with replacement, and the position itself with replacement + 1.', probe=True),
    Entry('causal-1', 'r8-045', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., position:, :]
    after = forward(perturbed)[..., position:, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/compares-future',
          mistake='Compares the rows from position on (the future rows) instead of the prefix.', probe=True),
    Entry('causal-2', 'r8-046', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position out of range")
    if future_perturbation_change(forward, ids, position, replacement) > 10 * tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", None,
          mistake="Uses 10 * tol as the threshold for the model (a 'safety margin').", probe=True),
    Entry('causal-2', 'r8-047', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position out of range")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leak"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", None,
          mistake="Returns 'leak' (a typo for 'leaks').", probe=True),
    Entry('causal-2', 'r8-049', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position out of range")
    model = future_perturbation_change(forward, ids, position, replacement)
    ctrl = future_perturbation_change(control, ids, position, replacement)
    if ctrl <= tol:
        return "blind"
    return "leaks" if model > ctrl / 2 else "causal"
""", 'causal-2/control-first',
          mistake="Compares the model's change with the control's change (leaks if model > control / 2) instead of with tol.", probe=True),
    Entry('causal-3', 'r8-050', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need two positions")
    out = np.zeros(T)
    for p in range(1, T):
        out[p] = future_perturbation_change(forward, ids, p, replacement_token)
    return out
""", 'causal-3/leading-zero',
          mistake='Sweeps p = 0 .. T-1: an extra first entry (shape (T,)).', probe=True),
    Entry('causal-3', 'r8-051', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need two positions")
    return [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
""", 'causal-3/list',
          mistake='Returns a Python list of floats.', probe=True),
    Entry('causal-3', 'r8-052', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need two positions")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token + p) for p in range(1, T)],
                    dtype=np.float64)
""", None,
          mistake='Uses a different replacement at each p (replacement_token + p).', probe=True),
    Entry('causal-3', 'r8-053', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    return np.array([future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)],
                    dtype=np.float32)
""", 'causal-3/single-position',
          mistake='Forgets the T < 2 refusal and returns float32.', probe=True),
    Entry('causal-4', 'r8-054', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
""", 'causal-4/eps-outside',
          mistake='Puts eps outside the square root: / (std + eps).', probe=True),
    Entry('causal-4', 'r8-055', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1).', probe=True),
    Entry('causal-4', 'r8-056', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return np.clip((x - mean) / np.sqrt(var + eps), -3, 3)
""", None,
          mistake='Clips the normalised values to [-3, 3].', probe=True),
    Entry('causal-4', 'r8-057', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps * eps)
""", None,
          mistake='Normalises over the last axis but computes in float64 and returns float64 for float32 input; also eps squared.', probe=True),
    Entry('causal-1', 'r8-107', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    if perturbed.ndim == 2:
        perturbed[0, position:] = replacement
    else:
        perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", None,
          mistake='Perturbs the first sequence of a batch only (perturbed[0, position:]).', probe=True),
    Entry('causal-4', 'r8-108', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    h = x.astype(np.float16)
    mean = h.mean(axis=-1, keepdims=True)
    var = ((h - mean) ** 2).mean(axis=-1, keepdims=True)
    return ((h - mean) / np.sqrt(var + np.float16(eps))).astype(x.dtype)
""", None,
          mistake="Computes in float16 to 'save memory', then casts back: values off by float16 rounding.", probe=True),
    Entry('causal-4', 'r8-110', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5)
""", 'causal-4/eps-ignored',
          mistake='Ignores the eps argument (always 1e-5).', probe=True),
    # ---- round 9 of issue 34: kinds the development set dev7 showed (r9-*: written here; dev7-NNN: that set's answers) ----
    Entry('causal-1', 'r9-one-token-of-a-vector', """
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    r = np.broadcast_to(replacement, ids[..., position:].shape)
    perturbed[..., position] = r[..., 0]
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token'),
    Entry('causal-1', 'r9-late-start-of-a-vector', """
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    r = np.broadcast_to(replacement, ids[..., position:].shape)
    perturbed[..., position + 1:] = r[..., 1:]
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late'),
    Entry('causal-1', 'dev7-079', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement if np.ndim(replacement) == 0 else replacement[0]
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the single token at `position` instead of every token from it on.'),
    Entry('causal-1', 'dev7-080', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 把 position 之后的词都换掉
    perturbed[..., position + 1:] = replacement[1:] if np.ndim(replacement) else replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Starts the replacement one position too late (position + 1).'),
    Entry('causal-1', 'dev7-082', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., :position] = replacement if np.ndim(replacement) == 0 else replacement[:position]
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Replaces the prefix instead of the future.'),
    Entry('causal-1', 'dev7-084', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position - 1:] = replacement if np.ndim(replacement) == 0 else np.r_[replacement[0], replacement]
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/starts-early',
          mistake='Starts the replacement one position too early (position - 1), which changes the last prefix token.'),
    bug('causal-2', 'r9-control-asked-before-the-model', 'model-and-control-checked-in-swapped-order', 'causal-2/control-before-model'),
    Entry('causal-2', 'r9-control-moves-so-causal', answers_above('ex04_causality', 'future_perturbation_change') + """
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position out of range")
    control_moves = future_perturbation_change(control, ids, position, replacement) > tol
    model_moves = future_perturbation_change(forward, ids, position, replacement) > tol
    if control_moves:
        return "causal"
    elif model_moves:
        return "leaks"
    else:
        return "blind"
""", 'causal-2/control-before-model'),
    Entry('causal-2', 'dev7-086', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    T = np.shape(ids)[-1]
    if not 1 <= position < T:
        raise ValueError("position must be in 1..T-1")
    c = future_perturbation_change(control, ids, position, replacement)
    f = future_perturbation_change(forward, ids, position, replacement)
    if c > tol:
        return "causal"
    if f > tol:
        return "leaks"
    return "blind"
""", 'causal-2/control-before-model',
          mistake='Checks the control first, so a leaking model with a moving control is called causal.'),
    bug('causal-4', 'r9-variance-from-moments', 'variance-from-moments', 'causal-4/moments'),
    Entry('causal-4', 'r9-mean-of-squares-minus-square', """
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mu = np.mean(x, axis=-1, keepdims=True)
    var = np.mean(x * x, axis=-1, keepdims=True) - mu * mu
    return (x - mu) / np.sqrt(var + eps)
""", 'causal-4/moments'),
    Entry('causal-4', 'dev7-102', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which loses precision when the mean is large.'),
    Entry('causal-3', 'dev7-095', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    base = forward(ids.copy())
    res = []
    for p in range(T - 1, 0, -1):
        ids[p:] = replacement_token
        res.append(float(np.max(np.abs(forward(ids)[:p] - base[:p]))))
    return np.array(res[::-1])
""", 'causal-3/in-place',
          mistake="Replaces the future in the same array cumulatively without copying, mutating the caller's ids."),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('causal-1', 'heldout7-085', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the token at the given position instead of every token from there on.', heldout=True),
    Entry('causal-1', 'heldout7-086', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 改变 position 之后的未来
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: starts replacing at position + 1, leaving the token at position unchanged.', heldout=True),
    Entry('causal-1', 'heldout7-087', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # меняем всё до позиции
    perturbed[..., :position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Replaces the prefix before the position instead of the future.', heldout=True),
    Entry('causal-1', 'heldout7-088', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Slices the first axis (perturbed[position:]) instead of the last, so batched ids get whole sequences replaced.', heldout=True),
    Entry('causal-1', 'heldout7-089', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position - 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/starts-early',
          mistake='Off by one: starts replacing at position - 1, so the last prefix token is also changed.', heldout=True),
    Entry('causal-1', 'heldout7-090', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 把未来的词偏移 replacement
    perturbed[..., position:] = perturbed[..., position:] + replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", None,
          mistake='Adds the replacement to the future tokens instead of replacing them with it.', heldout=True),
    Entry('causal-2', 'heldout7-092', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "blind"
""", 'causal-2/control-before-model',
          mistake='Checks the control before the model, so a leaking model is reported as causal.', heldout=True),
    Entry('causal-2', 'heldout7-093', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position 超出范围")
    change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if change >= tol:
        return "leaks"
    if control_change >= tol:
        return "causal"
    return "blind"
""", 'causal-2/tie-counts-as-leak',
          mistake='Uses >= tol instead of > tol, so a change of exactly 0 with tol = 0 counts as a leak.', heldout=True),
    Entry('causal-2', 'heldout7-094', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("нет префикса или нет будущего")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    # контроль реагирует на будущее -> тест слепой?
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "blind"
    return "causal"
""", 'causal-2/verdicts-swapped',
          mistake='Swaps the verdicts "causal" and "blind".', heldout=True),
    Entry('causal-2', 'heldout7-095', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    change = future_perturbation_change(forward, ids, position, replacement)
    if change > tol:
        return "leaks"
    control_change = future_perturbation_change(control, ids, position, replacement)
    return "causal" if control_change > tol else "blind"
""", 'causal-2/position-unchecked',
          mistake='Does not validate the position, so position = T (no future to change) returns "blind" instead of raising.', heldout=True),
    Entry('causal-2', 'heldout7-096', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("позиция вне диапазона")
    if not np.isclose(future_perturbation_change(forward, ids, position, replacement), 0):
        return "leaks"
    if not np.isclose(future_perturbation_change(control, ids, position, replacement), 0):
        return "causal"
    return "blind"
""", 'causal-2/ignores-tol',
          mistake='Ignores tol and tests with np.isclose(change, 0), so small changes below a large tol still count.', heldout=True),
    Entry('causal-2', 'heldout7-097', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement,
                         tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position 超出范围")
    # 模型的前缀变了就是泄漏，否则就是因果
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/no-control',
          mistake='Returns "causal" whenever the model does not leak, without checking that the control reacts (never says "blind").', heldout=True),
    Entry('causal-3', 'heldout7-099', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need at least two positions")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(T)])
""", None,
          mistake='Sweeps from position 0, where the prefix is empty, instead of from 1.', heldout=True),
    Entry('causal-3', 'heldout7-100', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("至少需要两个位置")
    changes = []
    for p in range(1, T - 1):
        changes.append(future_perturbation_change(forward, ids, p, replacement_token))
    return np.array(changes, dtype=np.float64)
""", 'causal-3/ends-early',
          mistake='Stops at T - 2 (range(1, T - 1)), missing the last position.', heldout=True),
    Entry('causal-3', 'heldout7-101', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    return [future_perturbation_change(forward, ids, p, replacement_token)
            for p in range(1, T)]
""", 'causal-3/list',
          mistake='Returns a Python list instead of a NumPy array.', heldout=True),
    Entry('causal-3', 'heldout7-102', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    out = np.zeros(max(T - 1, 0))
    for p in range(1, T):
        out[p - 1] = future_perturbation_change(forward, ids, p, replacement_token)
    return out
""", 'causal-3/single-position',
          mistake='Does not reject a single-position sequence and returns an empty array instead of raising.', heldout=True),
    Entry('causal-3', 'heldout7-103', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("至少需要两个位置")
    base = forward(ids)
    changes = []
    for p in range(1, T):
        perturbed = ids.copy()
        perturbed[..., p:] = replacement_token
        changes.append(np.abs(forward(perturbed) - base).max())
    return np.array(changes, dtype=np.float64)
""", 'causal-3/all-rows',
          mistake='Compares every output row instead of only the prefix rows before the changed position.', heldout=True),
    Entry('causal-3', 'heldout7-104', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    changes = [future_perturbation_change(forward, ids, p, replacement_token)
               for p in range(1, T)]
    return np.asarray(changes, dtype=np.float32)
""", '*/right-values-other-type',
          mistake='Stores the changes as float32, losing precision.', heldout=True),
    Entry('causal-4', 'heldout7-106', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Normalises over axis -2 (positions) instead of the features, which mixes positions and leaks the future.', heldout=True),
    Entry('causal-4', 'heldout7-107', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    # 防止除零
    return (x - mean) / (std + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance inside the square root.', heldout=True),
    Entry('causal-4', 'heldout7-108', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)   # несмещённая дисперсия
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the unbiased variance (ddof=1) instead of the plain mean of squared deviations.', heldout=True),
    Entry('causal-4', 'heldout7-109', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which cancels catastrophically for large inputs.', heldout=True),
    Entry('causal-4', 'heldout7-110', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1)
    var = ((x - mean) ** 2).mean(axis=-1)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/no-keepdims',
          mistake='Takes the mean without keepdims, so it broadcasts along the wrong axis (or fails) when subtracted.', heldout=True),
    Entry('causal-4', 'heldout7-111', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    # 原地减去均值，节省内存
    x -= x.mean(axis=-1, keepdims=True)
    var = (x * x).mean(axis=-1, keepdims=True)
    return x / np.sqrt(var + eps)
""", '*/argument-changed',
          mistake="Centres x in place (x -= mean), which changes the caller's array.", heldout=True),
    Entry('causal-4', 'heldout7-112', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    centred = x - x.mean(axis=-1, keepdims=True)
    return centred / np.sqrt((centred ** 2).mean(axis=-1, keepdims=True))
""", 'causal-4/no-eps',
          mistake='Forgets eps, so a constant row gives 0/0 = nan.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('causal-1', 'dev8-084', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: leaves the token at `position` unchanged and perturbs only from position+1 on.'),
    Entry('causal-1', 'dev8-085', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 只改变 position 这一个 token
    perturbed[..., position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Changes only the single token at `position` instead of the whole future from `position` on.'),
    Entry('causal-1', 'dev8-086', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., :position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Perturbs the prefix instead of the future.'),
    Entry('causal-1', 'dev8-087', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position + 1, :]
    after = forward(perturbed)[..., :position + 1, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/with-position',
          mistake='Compares rows 0..position, including the first perturbed position, so even a causal model shows a change.'),
    Entry('causal-1', 'dev8-088', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(after - before))
""", 'causal-1/signed',
          mistake='Takes the max of the signed difference without abs, so decreases are missed.'),
    Entry('causal-1', 'dev8-089', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.mean(np.abs(after - before)))
""", 'causal-1/mean',
          mistake='Returns the mean absolute change instead of the largest one.'),
    Entry('causal-2', 'dev8-091', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "blind"
""", 'causal-2/control-before-model',
          mistake='Tests the control first, so a leaking model whose control also reacts is called "causal".'),
    Entry('causal-2', 'dev8-092', "import numpy as np\n" + answers_above('ex04_causality', 'future_perturbation_change') + r"""

def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/position-unchecked',
          mistake='Does not validate position; position = T is not rejected with ValueError and silently gives "blind".'),
    Entry('causal-2', 'dev8-093', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/no-control',
          mistake='Never consults the control: a perturbation that changes nothing is called "causal" instead of "blind".'),
    Entry('causal-2', 'dev8-094', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    # 先看被测模型，再看对照模型
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if change > tol:
        return "leaks"
    if control_change == 0:
        return "blind"
    return "causal"
""", 'causal-2/ignores-tol',
          mistake='Compares the control change with exactly 0 instead of with tol, so a tiny control change above 0 but below tol counts as "causal".'),
    Entry('causal-2', 'dev8-095', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "causal"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "leaks"
    return "blind"
""", None,
          mistake='Swaps the labels "leaks" and "causal".'),
    Entry('causal-2', 'dev8-096', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 0 <= position <= np.shape(ids)[-1]:
        raise ValueError("недопустимая позиция")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/position-unchecked',
          mistake='The range check accepts position 0 and position T, which leave no prefix or no future.'),
    Entry('causal-3', 'dev8-098', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("a sweep needs at least two positions")
    changes = [future_perturbation_change(forward, ids, p, replacement_token)
               for p in range(1, T - 1)]
    return np.array(changes, dtype=np.float64)
""", 'causal-3/ends-early',
          mistake='Stops the sweep one position early (range(1, T-1)), missing the last position.'),
    Entry('causal-3', 'dev8-099', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    changes = [future_perturbation_change(forward, ids, p, replacement_token)
               for p in range(1, T)]
    return np.array(changes, dtype=np.float64)
""", 'causal-3/single-position',
          mistake='Does not raise for T < 2; a single token returns an empty array.'),
    Entry('causal-3', 'dev8-100', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("a sweep needs at least two positions")
    changes = []
    for p in range(1, T + 1):
        changes.append(future_perturbation_change(forward, ids, p, replacement_token))
    return np.array(changes)
""", 'causal-3/past-the-end',
          mistake='Sweeps up to position T inclusive, adding an extra entry where nothing is perturbed.'),
    Entry('causal-3', 'dev8-101', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("a sweep needs at least two positions")
    changes = [future_perturbation_change(forward, ids, p, replacement_token)
               for p in range(1, T)]
    return changes
""", 'causal-3/list',
          mistake='Returns a Python list instead of a float64 NumPy array.'),
    Entry('causal-3', 'dev8-102', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("a sweep needs at least two positions")
    changes = np.zeros(T - 1, dtype=np.float32)
    for p in range(1, T):
        changes[p - 1] = future_perturbation_change(forward, ids, p, replacement_token)
    return changes
""", '*/right-values-other-type',
          mistake='Stores the changes in a float32 array instead of float64.'),
    Entry('causal-3', 'dev8-103', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("a sweep needs at least two positions")
    out = []
    base = forward(ids)
    for p in range(1, T):
        changed = ids.copy()
        changed[..., p] = replacement_token     # меняем один токен
        diff = np.abs(forward(changed) - base)[..., :p, :]
        out.append(float(diff.max()))
    return np.array(out, dtype=np.float64)
""", 'causal-3/one-token',
          mistake='Replaces only the token at position p instead of the whole future from p on.'),
    Entry('causal-4', 'dev8-105', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Normalises over the positions (axis -2) instead of over the features, the very leak it should fix.'),
    Entry('causal-4', 'dev8-106', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    # Var = E[x²] − E[x]²
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which cancels catastrophically for features with a large mean.'),
    Entry('causal-4', 'dev8-107', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps to the standard deviation instead of to the variance under the square root.'),
    Entry('causal-4', 'dev8-108', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    # нормируем по признакам
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the unbiased variance (ddof=1) instead of the plain mean of squared deviations.'),
    Entry('causal-4', 'dev8-109', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var)
""", 'causal-4/no-eps',
          mistake='Forgets eps, so a constant row divides 0 by 0.'),
    Entry('causal-4', 'dev8-110', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    x -= x.mean(axis=-1, keepdims=True)      # центрируем на месте
    var = (x ** 2).mean(axis=-1, keepdims=True)
    return x / np.sqrt(var + eps)
""", '*/argument-changed',
          mistake='Centres the input in place (x -= ...), changing the array the caller passed in.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('causal-1', 'heldout8-089', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: leaves the token at `position` unchanged and perturbs only from position + 1.', heldout=True),
    Entry('causal-1', 'heldout8-090', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., :position] = replacement      # 修改前缀
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-prefix',
          mistake='Perturbs the prefix instead of the future.', heldout=True),
    Entry('causal-1', 'heldout8-091', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    # меняем будущее и смотрим на префикс
    ids = np.asarray(ids)
    perturbed = ids
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake="Drops the copy: perturbs the caller's ids in place, so before and after are computed on the same tokens and the input is changed.", heldout=True),
    Entry('causal-1', 'heldout8-092', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)
    after = forward(perturbed)
    return float(np.max(np.abs(after - before)))
""", 'causal-1/all-rows',
          mistake='Compares all output rows, including the perturbed future ones, instead of only the prefix.', heldout=True),
    Entry('causal-1', 'heldout8-093', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement          # 修改该位置
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Changes only the single token at `position` instead of every future token.', heldout=True),
    Entry('causal-1', 'heldout8-094', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    # меняем будущее и смотрим на префикс
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Slices the first axis instead of the last, which perturbs whole sequences for a batch of ids.', heldout=True),
    Entry('causal-1', 'heldout8-095', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.mean(np.abs(after - before)))
""", 'causal-1/mean',
          mistake='Returns the mean absolute change instead of the maximum.', heldout=True),
    Entry('causal-2', 'heldout8-097', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/no-control',
          mistake="Never consults the control, so a perturbation that changes nothing is called 'causal' instead of 'blind'.", heldout=True),
    Entry('causal-2', 'heldout8-098', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position 不合法")
    if future_perturbation_change(control, ids, position, replacement) <= tol:
        return "blind"
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    return "causal"
""", 'causal-2/control-first',
          mistake="Checks the control first, so a leaking model with a blind control is reported 'blind' instead of 'leaks'.", heldout=True),
    Entry('causal-2', 'heldout8-099', "import numpy as np\n" + answers_above('ex04_causality', 'future_perturbation_change') + r"""
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    # вердикт: leaks / causal / blind
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/position-unchecked',
          mistake='Does not validate position, so position 0 or T crashes or gives a meaningless verdict instead of a ValueError.', heldout=True),
    Entry('causal-2', 'heldout8-100', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "blind"
    return "causal"
""", 'causal-2/verdicts-swapped',
          mistake="Swaps the labels 'blind' and 'causal'.", heldout=True),
    Entry('causal-2', 'heldout8-101', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 0 <= position <= np.shape(ids)[-1]:
        raise ValueError("position 超出范围")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/position-unchecked',
          mistake='Range check too loose: accepts position 0 and position T, which leave no prefix or no future.', heldout=True),
    Entry('causal-2', 'heldout8-102', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("нет префикса или нет будущего")
    if future_perturbation_change(forward, ids, position, replacement) > 0:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > 0:
        return "causal"
    return "blind"
""", 'causal-2/ignores-tol',
          mistake='Compares the changes with 0 instead of tol, ignoring the tolerance argument.', heldout=True),
    Entry('causal-2', 'heldout8-103', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position leaves no prefix or no future")
    change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if control_change <= tol:
        return "blind"
    return "leaks" if change > control_change / 2 else "causal"
""", 'causal-2/control-first',
          mistake="Calls it a leak only when the change exceeds half the control's change, instead of any change above tol.", heldout=True),
    Entry('causal-3', 'heldout8-105', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need at least two positions")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(T)])
""", None,
          mistake='Starts the sweep at position 0, which has no prefix (max of an empty array fails).', heldout=True),
    Entry('causal-3', 'heldout8-106', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("至少需要两个位置")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(1, T - 1)])
""", 'causal-3/ends-early',
          mistake='Stops one position early: misses position T-1.', heldout=True),
    Entry('causal-3', 'heldout8-107', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    # перебираем все позиции
    ids = np.asarray(ids)
    T = ids.shape[-1]
    changes = [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
    return np.array(changes, dtype=np.float64)
""", 'causal-3/single-position',
          mistake='No check for T < 2: a one-token sequence returns an empty array instead of raising.', heldout=True),
    Entry('causal-3', 'heldout8-108', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError(f"a sweep needs at least two positions, got T={T}")
    changes = [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
    return max(changes)
""", '*/other-kind-of-result',
          mistake='Returns only the largest change (a float) instead of the array of changes per position.', heldout=True),
    Entry('causal-3', 'heldout8-110', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    out = np.zeros(T - 1)
    for p in range(1, T):
        perturbed = ids.copy()
        perturbed[..., p] = replacement_token          # меняем одну позицию
        out[p - 1] = np.abs(forward(perturbed)[..., :p, :] - forward(ids)[..., :p, :]).max()
    return out
""", 'causal-3/one-token',
          mistake='Rewrites the perturbation by hand and changes only the token at p instead of all tokens from p on.', heldout=True),
    Entry('causal-3', 'heldout8-111', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError(f"a sweep needs at least two positions, got T={T}")
    changes = [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
    return np.array(changes, dtype=np.float32)
""", '*/right-values-other-type',
          mistake='Returns float32 instead of float64, rounding small leaks.', heldout=True),
    Entry('causal-4', 'heldout8-113', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Normalises over positions (axis -2) instead of features, the same leak as the suspect.', heldout=True),
    Entry('causal-4', 'heldout8-114', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    # 对每个位置的特征做归一化
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2     # E[x²] − E[x]²
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/moments',
          mistake='Computes the variance as E[x²] − E[x]², which loses precision (and can go negative) for inputs with a large mean.', heldout=True),
    Entry('causal-4', 'heldout8-115', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    # нормализация по признакам
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps to the standard deviation instead of inside the square root.', heldout=True),
    Entry('causal-4', 'heldout8-116', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1) instead of the population variance.', heldout=True),
    Entry('causal-4', 'heldout8-117', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    # 对每个位置的特征做归一化
    x = np.asarray(x)
    mean = x.mean(axis=-1)
    var = ((x - mean[..., None]) ** 2).mean(axis=-1)
    return (x - mean[..., None]) / np.sqrt(var + eps)
""", 'causal-4/no-keepdims',
          mistake='Drops keepdims on the variance, so it broadcasts against the wrong axis.', heldout=True),
    Entry('causal-4', 'heldout8-118', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    # нормализация по признакам
    x = np.asarray(x, dtype=np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", '*/dtype-promoted',
          mistake='Casts to float64, so float32 input comes back as float64.', heldout=True),
    Entry('causal-4', 'heldout8-119', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var)
""", 'causal-4/no-eps',
          mistake='Forgets eps, so a constant row divides 0 by 0.', heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none.
ENTRIES += [
    Entry('causal-1', 'heldout9-067', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed[..., position] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/one-token',
          mistake='Replaces only the token at position instead of every token from position on.', heldout=True),
    Entry('causal-1', 'heldout9-068', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # 替换 position 之后的 token
    perturbed[..., position + 1:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/perturbs-one-late',
          mistake='Off by one: starts the replacement at position + 1, leaving position unchanged.', heldout=True),
    Entry('causal-1', 'heldout9-069', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # меняем будущее
    perturbed[position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", 'causal-1/first-axis',
          mistake='Indexes the first axis (perturbed[position:]), which replaces whole sequences of a batch instead of future tokens.', heldout=True),
    Entry('causal-1', 'heldout9-070', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    perturbed = ids
    perturbed[..., position:] = replacement
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", '*/argument-changed',
          mistake='Modifies ids in place instead of the copy, so before and after see the same input.', heldout=True),
    Entry('causal-1', 'heldout9-071', r"""
import numpy as np
def future_perturbation_change(forward, ids, position, replacement):
    ids = np.asarray(ids)
    perturbed = ids.copy()
    # гарантируем, что токен поменяется
    perturbed[..., position:] = np.asarray(replacement) + 1
    before = forward(ids)[..., :position, :]
    after = forward(perturbed)[..., :position, :]
    return float(np.max(np.abs(after - before)))
""", None,
          mistake="Writes replacement + 1 (a 'different' token) instead of the given replacement.", heldout=True),
    Entry('causal-2', 'heldout9-073', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("bad position")
    control_change = future_perturbation_change(control, ids, position, replacement)
    if control_change <= tol:
        return "blind"
    change = future_perturbation_change(forward, ids, position, replacement)
    return "leaks" if change > tol else "causal"
""", 'causal-2/control-first',
          mistake="Checks the control first, so a leaking model with a blind control is called 'blind' instead of 'leaks'.", heldout=True),
    Entry('causal-2', 'heldout9-074', "import numpy as np\n" + answers_above('ex04_causality', 'future_perturbation_change') + r"""
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    # position 必须在 1 … T-1
    if position < 1 or position >= len(ids):
        raise ValueError("position 超出范围")
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"
""", 'causal-2/batch-length',
          mistake='Uses len(ids) for T, which is the batch size for a (B, T) batch.', heldout=True),
    Entry('causal-2', 'heldout9-075', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    T = np.shape(ids)[-1]
    if not 1 <= position <= T:
        raise ValueError("позиция вне диапазона")
    change = future_perturbation_change(forward, ids, position, replacement)
    control_change = future_perturbation_change(control, ids, position, replacement)
    if change > tol:
        return "leaks"
    return "causal" if control_change > tol else "blind"
""", 'causal-2/position-unchecked',
          mistake='Range check allows position T (uses <= T), so a position with no future returns a verdict instead of raising ValueError.', heldout=True),
    Entry('causal-2', 'heldout9-076', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position <= np.shape(ids)[-1] - 1:
        raise ValueError("position must be in 1..T-1")
    if future_perturbation_change(forward, ids, position, replacement) >= tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) >= tol:
        return "causal"
    return "blind"
""", 'causal-2/tie-counts-as-leak',
          mistake='Uses >= tol instead of > tol, so a change exactly equal to tol (e.g. 0 with tol=0) counts as a leak.', heldout=True),
    Entry('causal-2', 'heldout9-077', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    if not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("位置不合法")
    change = future_perturbation_change(forward, ids, position, replacement)
    # 前缀变了就是泄漏
    return "leaks" if change > tol else "causal"
""", 'causal-2/no-control',
          mistake="Returns 'causal' whenever the model does not move, without consulting the control; never says 'blind'.", heldout=True),
    Entry('causal-3', 'heldout9-079', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T must be at least 2")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(1, T - 1)], dtype=np.float64)
""", 'causal-3/ends-early',
          mistake='Loops over range(1, T - 1), missing the last position, so the result has T-2 entries.', heldout=True),
    Entry('causal-3', 'heldout9-080', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    # по всем позициям 1 … T-1
    result = []
    for p in range(1, T):
        result.append(future_perturbation_change(forward, ids, p, replacement_token))
    return np.array(result, dtype=np.float64)
""", 'causal-3/single-position',
          mistake='Does not raise ValueError for T < 2; returns an empty array instead.', heldout=True),
    Entry('causal-3', 'heldout9-081', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("need T >= 2")
    out = np.empty(T - 1, dtype=np.float64)
    base = forward(ids)
    for p in range(1, T):
        changed = ids.copy()
        changed[p] = replacement_token
        out[p - 1] = np.abs(forward(changed)[:p] - base[:p]).max()
    return out
""", 'causal-3/one-token',
          mistake='Replaces only the single token at p instead of every token from p on.', heldout=True),
    Entry('causal-3', 'heldout9-082', r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("T < 2")
    before = forward(ids)
    res = []
    for p in range(1, T):
        x = ids.copy()
        x[p:] = replacement_token
        # 比较输出的变化
        res.append(np.max(np.abs(forward(x) - before)))
    return np.array(res, dtype=np.float64)
""", 'causal-3/all-rows',
          mistake='Compares the full output instead of only the prefix rows, so the changed rows themselves count as a leak.', heldout=True),
    Entry('causal-3', 'heldout9-083', answers_above('ex04_causality', 'future_perturbation_change') + r"""
import numpy as np
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError("нужно хотя бы две позиции")
    changes = [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
    # накопленный максимум утечки
    return np.maximum.accumulate(np.array(changes, dtype=np.float64))
""", None,
          mistake='Stores the maximum change so far (cumulative) instead of the change at each position.', heldout=True),
    Entry('causal-4', 'heldout9-085', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-2, keepdims=True)
    var = x.var(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/over-time',
          mistake='Normalises over the time axis (-2) instead of the features, the very leak it should fix.', heldout=True),
    Entry('causal-4', 'heldout9-086', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    # 每个位置在自己的 D 个特征上归一化
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/unbiased',
          mistake='Uses the sample variance (ddof=1) instead of the population variance.', heldout=True),
    Entry('causal-4', 'heldout9-087', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    # дисперсия = E[x^2] - E[x]^2
    var = (x ** 2).mean(axis=-1, keepdims=True) - mean ** 2
    return (x - mean) / np.sqrt(var + eps)
""", 'causal-4/moments',
          mistake='Computes the variance as E[x^2] - E[x]^2, which loses precision for inputs with a large mean.', heldout=True),
    Entry('causal-4', 'heldout9-088', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x)
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return (x - mean) / (std + eps)
""", 'causal-4/eps-outside',
          mistake='Adds eps outside the square root instead of inside it.', heldout=True),
    Entry('causal-4', 'heldout9-089', r"""
import numpy as np
def feature_norm(x, eps=1e-5):
    x = np.asarray(x, dtype=np.float64)
    # по признакам каждой позиции
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(sigma2 + eps)
""", '*/dtype-promoted',
          mistake='Casts to float64 for accuracy and never casts back, so float32 input returns float64.', heldout=True),
]
