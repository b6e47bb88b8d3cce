"""Wrong answers to exercise set 5 (cache-1, cache-2, cache-3)."""

from . import Entry

_HEAD = """
import numpy as np
from lib.data import BOS, IGNORE
"""

_STEP_HEAD = """
import numpy as np
"""

ENTRIES = [
    # ---- cache-1: continue_padded(model, inputs, targets, tokens) ------------------------
    Entry("cache-1", "padding-into-the-cache", _HEAD + """
def continue_padded(model, inputs, targets, tokens):
    out = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        out.append(model.step(int(tokens[b]), cache))
    return np.stack(out)
""", "cache-1/padding-in-cache"),
    Entry("cache-1", "one-cache-for-the-batch", _HEAD + """
def continue_padded(model, inputs, targets, tokens):
    cache = model.new_cache()
    out = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        out.append(model.step(int(tokens[b]), cache))
    return np.stack(out)
""", "cache-1/shared-cache"),
    Entry("cache-1", "prefix-one-short", _HEAD + """
def continue_padded(model, inputs, targets, tokens):
    out = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum()) - 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        out.append(model.step(int(tokens[b]), cache))
    return np.stack(out)
""", "cache-1/short-prefix"),
    Entry("cache-1", "bos-skipped", _HEAD + """
def continue_padded(model, inputs, targets, tokens):
    out = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, 1:n]:
            model.step(int(token), cache)
        out.append(model.step(int(tokens[b]), cache))
    return np.stack(out)
""", "cache-1/skips-bos"),
    Entry("cache-1", "returns-the-prefix-output", _HEAD + """
def continue_padded(model, inputs, targets, tokens):
    out = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        outputs = [model.step(int(token), cache) for token in inputs[b, :n]]
        model.step(int(tokens[b]), cache)
        out.append(outputs[-1])
    return np.stack(out)
""", None),
    Entry("cache-1", "argmax-of-padding", _HEAD + """
def continue_padded(model, inputs, targets, tokens):
    out = []
    for b in range(len(inputs)):
        n = int(np.argmax(targets[b] == IGNORE))      # 0 when the row has no padding at all
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        out.append(model.step(int(tokens[b]), cache))
    return np.stack(out)
""", None),

    # ---- cache-2: attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads) ---------------
    Entry("cache-2", "attends-before-appending", _STEP_HEAD + """
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", "cache-2/attends-before-append"),
    Entry("cache-2", "no-scale", _STEP_HEAD + """
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", "cache-2/no-scale"),
    Entry("cache-2", "scale-by-sqrt-D", _STEP_HEAD + """
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    H = n_heads
    D = x.shape[-1]
    d = D // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(D)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", "cache-2/scale-by-D"),
    Entry("cache-2", "forgot-w-o", _STEP_HEAD + """
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1), keys, values
""", "cache-2/no-w-o"),
    Entry("cache-2", "returns-the-old-cache", _STEP_HEAD + """
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    all_keys = np.concatenate([keys, k], axis=1)
    all_values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(all_keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ all_values).reshape(-1) @ w_o, keys, values
""", "cache-2/old-cache-returned"),
    Entry("cache-2", "heads-split-wrongly", _STEP_HEAD + """
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(d, H).T.reshape(H, 1, d) for w in (w_q, w_k, w_v))
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", "cache-2/interleaved"),

    # ---- cache-3: cache_error(forward, step, new_cache, ids) --------------------------------
    Entry("cache-3", "last-row-only", _STEP_HEAD + """
def cache_error(forward, step, new_cache, ids):
    full = forward(ids)
    cache = new_cache()
    last = [step(int(t), cache) for t in ids][-1]
    return float(np.max(np.abs(full[-1] - last)))
""", "cache-3/last-row"),
    Entry("cache-3", "fresh-cache-every-token", _STEP_HEAD + """
def cache_error(forward, step, new_cache, ids):
    full = np.asarray(forward(ids))
    incremental = np.stack([step(int(t), new_cache()) for t in ids])
    return float(np.max(np.abs(full - incremental)))
""", "cache-3/fresh-cache"),
    Entry("cache-3", "mean-error", _STEP_HEAD + """
def cache_error(forward, step, new_cache, ids):
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(t), cache) for t in ids])
    return float(np.mean(np.abs(full - incremental)))
""", "cache-3/mean"),
    Entry("cache-3", "signed-error", _STEP_HEAD + """
def cache_error(forward, step, new_cache, ids):
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(full - incremental))
""", "cache-3/signed"),
    Entry("cache-3", "relative-error", _STEP_HEAD + """
def cache_error(forward, step, new_cache, ids):
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(np.abs(full - incremental)) / np.max(np.abs(full)))
""", None),
    Entry("cache-3", "first-row-only", _STEP_HEAD + """
def cache_error(forward, step, new_cache, ids):
    full = np.asarray(forward(ids))
    cache = new_cache()
    first = step(int(ids[0]), cache)
    return float(np.max(np.abs(full[0] - first)))
""", "cache-3/first-row"),
]
