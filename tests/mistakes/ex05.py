"""Wrong answers to exercise set 5 (cache-1, cache-2, cache-3)."""

from . import Entry, bug

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
    bug("cache-1", "argmax-of-padding", "first-match-for-count", "cache-1/unpadded-row"),

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
    bug("cache-2", "heads-reversed", "heads-reversed", "cache-2/reversed"),
]


# ---- a fresh reader's answers (read84, tried with check() on 848591ba; not held out: tuned to) ------------
ENTRIES += [
    Entry('cache-2', 'read84-empty-cache-special-cased', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x); H = n_heads; d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d); k = (x @ w_k).reshape(H, 1, d); v = (x @ w_v).reshape(H, 1, d)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(-1, keepdims=True)) if keys.shape[1] else np.zeros((H,1,0))
    w = w / w.sum(-1, keepdims=True) if keys.shape[1] else w
    heads = w @ values
    keys = np.concatenate([keys, k], 1); values = np.concatenate([values, v], 1)
    return heads.reshape(-1) @ w_o, keys, values
""", None,
          mistake='Attends to the old keys only, before appending the new one, and special-cases the empty cache to '
                  'zero weights. It subtracts the maximum and passes the overflow test, so no-max must not be named.'),
]


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('cache-1', 'heldout-103', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int(np.sum(targets[b] != IGNORE)) - 1   # the last scored target is EOS, not text
        cache = model.new_cache()
        for t in range(n):
            model.step(int(inputs[b, t]), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/short-prefix',
          mistake='Subtracts one from the number of scored targets (thinking the EOS target is not part of the text), so the last text token is never fed and the new token lands one position early.', heldout=True),
    Entry('cache-1', 'heldout-104', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    cache = model.new_cache()
    for b in range(len(inputs)):
        length = int((targets[b] != IGNORE).sum())
        for token in inputs[b][:length]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/shared-cache',
          mistake="Creates one cache before the loop and shares it between rows, so each row continues the previous row's text.", heldout=True),
    Entry('cache-1', 'heldout-105', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/padding-in-cache',
          mistake="Feeds the whole padded row, padding EOS included, into the cache, so a shorter text's new token sits after the padding.", heldout=True),
    Entry('cache-1', 'heldout-106', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int(np.argmax(targets[b] == IGNORE))   # first unscored position
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/unpadded-row',
          mistake='Finds the text length as the first -100 with argmax; the longest row has no -100, argmax returns 0 and its text is not fed at all.', heldout=True),
    Entry('cache-1', 'heldout-107', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        # BOS не нужен, подаём только сам текст
        for token in inputs[b, 1:n + 1]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", None,
          mistake='Skips BOS and feeds inputs[b, 1:n+1], so the positions are shifted and, for shorter rows, a padding EOS is fed.', heldout=True),
    Entry('cache-1', 'heldout-108', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        out = None
        for token in inputs[b, :n]:
            out = model.step(int(token), cache)
        outputs.append(out)
    return np.stack(outputs)                                  # (B, D)
""", None,
          mistake='Returns the output of the last text position and never steps with tokens[b].', heldout=True),
    Entry('cache-1', 'heldout-109', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = len(targets[b][targets[b] > 0])      # -100 是负数，真实的 id 都是正数
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", None,
          mistake='Counts the text positions as targets > 0, which misses every <unk> target (id 0), so texts with unknown characters are cut short.', heldout=True),
    Entry('cache-2', 'heldout-110', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    d = D // n_heads
    q = (x @ w_q).reshape(n_heads, 1, d)
    k = (x @ w_k).reshape(n_heads, 1, d)
    v = (x @ w_v).reshape(n_heads, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ keys.transpose(0, 2, 1) / np.sqrt(D)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    out = (w @ values).reshape(D) @ w_o
    return out, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales the scores by 1/sqrt(D), the model width, instead of 1/sqrt(d), the head width.', heldout=True),
    Entry('cache-2', 'heldout-111', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([k, keys], axis=1)        # новая позиция
    values = np.concatenate([v, values], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/prepended',
          mistake='Puts the new key and value at the front of the cache instead of appending them at the end, so the stored order no longer matches the positions.', heldout=True),
    Entry('cache-2', 'heldout-112', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)      # (H, 1, n)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    heads = w @ values
    # 最后再把当前位置写入缓存
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Computes the scores against the old cache before appending the new key, so the token does not read itself (and n = 0 fails).', heldout=True),
    Entry('cache-2', 'heldout-113', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(d, H).T[:, None, :]     # (H, 1, d)
    k = (x @ w_k).reshape(d, H).T[:, None, :]
    v = (x @ w_v).reshape(d, H).T[:, None, :]
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = (q @ keys.transpose(0, 2, 1)) / np.sqrt(d)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    out = (p @ values).reshape(-1) @ w_o
    return out, keys, values
""", 'cache-2/interleaved',
          mistake='Splits the projections with reshape(d, H).T, which gives head h the strided features h, h+H, ... instead of the block h*d ... h*d + d - 1.', heldout=True),
    Entry('cache-2', 'heldout-114', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    e = np.exp(q @ np.swapaxes(keys, -1, -2) / np.sqrt(d))
    weights = e / e.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='No max subtraction in the softmax, so large scores overflow to inf and the output becomes nan.', heldout=True),
    Entry('cache-2', 'heldout-115', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = np.matmul(q, keys.transpose(0, 2, 1)) / np.sqrt(d)
    scores = scores - scores.max(axis=0, keepdims=True)
    weights = np.exp(scores)
    weights = weights / weights.sum(axis=0, keepdims=True)
    heads = np.matmul(weights, values)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/wrong-axis',
          mistake='Normalises the softmax over axis 0 (the heads) instead of over the stored positions.', heldout=True),
    Entry('cache-2', 'heldout-116', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values                       # (H, 1, d)
    merged = heads.transpose(1, 2, 0).reshape(-1)  # (1, d, H) -> (D,)
    return merged @ w_o, keys, values
""", 'cache-2/interleaved-merge',
          mistake="Merges the heads with transpose(1, 2, 0) before flattening, which interleaves the heads' coordinates instead of concatenating them head by head.", heldout=True),
    Entry('cache-3', 'heldout-117', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = forward(ids)
    stepped = np.stack([step(int(t), new_cache()) for t in ids])
    return float(np.abs(full - stepped).max())
""", 'cache-3/fresh-cache',
          mistake='Gives every step a fresh cache, so every token is processed at position 0 and a correct cache shows a large error.', heldout=True),
    Entry('cache-3', 'heldout-118', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = forward(ids)
    cache = new_cache()
    out = None
    for token in ids:
        out = step(int(token), cache)
    # последняя строка содержит всё: она читает все позиции
    return float(np.max(np.abs(full[-1] - out)))
""", 'cache-3/last-row',
          mistake='Compares only the last output row instead of all T rows.', heldout=True),
    Entry('cache-3', 'heldout-120', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache
    rows = []
    for token in ids:
        rows.append(step(int(token), cache))
    return float(np.max(np.abs(np.stack(rows) - forward(ids))))
""", 'cache-3/factory-not-called',
          mistake='Forgets to call new_cache (cache = new_cache), so the step receives the function instead of an empty cache.', heldout=True),
    Entry('cache-3', 'heldout-121', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = forward(ids)
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.mean(np.abs(full - inc)))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the largest one.', heldout=True),
    Entry('cache-3', 'heldout-122', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = forward(ids)
    cache = new_cache()
    # 每一步的输出对应下一个位置
    stepped = np.stack([step(int(t), cache) for t in ids[:-1]])
    return float(np.max(np.abs(full[1:] - stepped)))
""", None,
          mistake='Shifts by one as in next-token training: steps through ids[:-1] and compares with forward rows 1..T-1, so a correct cache shows an error.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('cache-1', 'heldout3-093', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/padding-in-cache',
          mistake="Feeds the whole padded row into the cache, so a short text's new token lands after the padding EOS and reads it.", heldout=True),
    Entry('cache-1', 'heldout3-094', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    cache = model.new_cache()          # 缓存
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())   # 真实长度
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/shared-cache',
          mistake='Creates one cache before the loop and shares it across all rows, so later rows read the history of earlier ones.', heldout=True),
    Entry('cache-1', 'heldout3-095', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # целей без -100 на одну больше, чем символов (последняя — EOS)
        n = int(np.sum(targets[b] != IGNORE)) - 1
        cache = model.new_cache()
        for t in inputs[b, :n]:
            model.step(int(t), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/short-prefix',
          mistake='Subtracts one from the count of scored targets (thinking the EOS target is not part of the prefix), so the last character of every text is dropped.', heldout=True),
    Entry('cache-1', 'heldout3-096', r"""
import numpy as np
from lib.data import BOS, IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        # feed the text itself (BOS is just a marker)
        for token in inputs[b, 1:n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/skips-bos',
          mistake='Skips the BOS: feeds inputs[b, 1:n], so every real token sits one position too early and nothing reads BOS.', heldout=True),
    Entry('cache-1', 'heldout3-097', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # 目标里 -100 是填充，其余都是真实位置
        n = int((targets[b] > 0).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", None,
          mistake='Counts the real length as the targets > 0, so a character outside the vocabulary (target <unk> = 0) is dropped from the prefix.', heldout=True),
    Entry('cache-1', 'heldout3-098', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        try:
            out = model.step(int(tokens[b]), cache)
        except ValueError:
            # таблица позиций закончилась — возвращаем нули
            out = np.zeros(model.width)
        outputs.append(out)
    return np.stack(outputs)                                  # (B, D)
""", '*/not-refused',
          mistake='Catches the ValueError of a full position table and returns a zero vector instead of letting the error through.', heldout=True),
    Entry('cache-2', 'heldout3-099', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    scores = q @ keys.transpose(0, 2, 1) / np.sqrt(d)        # (H, 1, n)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    heads = w @ values
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Computes the scores against the old keys before appending the new key and value, so the new query cannot read itself (and an empty cache raises on the empty maximum).', heldout=True),
    Entry('cache-2', 'heldout3-100', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    d = D // n_heads
    q = (x @ w_q).reshape(n_heads, 1, d)
    k = (x @ w_k).reshape(n_heads, 1, d)
    v = (x @ w_v).reshape(n_heads, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(D)    # 缩放
    s = s - s.max(axis=-1, keepdims=True)
    a = np.exp(s)
    a = a / a.sum(axis=-1, keepdims=True)
    return (a @ values).reshape(D) @ w_o, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales the scores by sqrt(D) (the model width) instead of sqrt(d) (the head width).', heldout=True),
    Entry('cache-2', 'heldout3-101', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    keys = np.concatenate([keys, k], axis=1)        # (H, n+1, d)
    values = np.concatenate([values, v], axis=1)
    # softmax по всем n+1 позициям
    e = np.exp((q @ np.swapaxes(keys, 1, 2)) / np.sqrt(d))
    weights = e / e.sum(axis=-1, keepdims=True)
    out = (weights @ values).reshape(-1)
    return out @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='Omits the max subtraction in the softmax, so large scores overflow to inf and the output becomes nan.', heldout=True),
    Entry('cache-2', 'heldout3-102', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([k, keys], axis=1)       # add the new position
    values = np.concatenate([v, values], axis=1)
    scores = q @ keys.transpose(0, 2, 1) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/prepended',
          mistake='Puts the new key and value at the front of the cache instead of the end; the output is right but the returned cache is in the wrong order.', heldout=True),
    Entry('cache-2', 'heldout3-103', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H, d = n_heads, x.shape[-1] // n_heads
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = (q @ keys.transpose(0, 2, 1)) / np.sqrt(d)     # (H, 1, n+1)
    p = np.exp(s - s.max(-1, keepdims=True))
    p /= p.sum(-1, keepdims=True)
    heads = p @ values                                 # (H, 1, d)
    merged = heads.T.reshape(-1)                       # 合并各个头
    return merged @ w_o, keys, values
""", 'cache-2/interleaved-merge',
          mistake='Merges the heads with heads.T.reshape(-1), which interleaves the head coordinates instead of concatenating the heads.', heldout=True),
    Entry('cache-2', 'heldout3-104', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    out = (w @ values).reshape(-1)      # (D,) — склеили головы
    return out, keys, values
""", 'cache-2/no-w-o',
          mistake='Forgets the output projection w_o and returns the merged heads.', heldout=True),
    Entry('cache-2', 'heldout3-105', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (w_q @ x).reshape(H, 1, d)     # W x
    k = (w_k @ x).reshape(H, 1, d)
    v = (w_v @ x).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return w_o @ (w @ values).reshape(-1), keys, values
""", '*/transposed-weights',
          mistake='Projects with the transposed weights (column-vector habit: x @ W.T), which is wrong for any non-symmetric matrix.', heldout=True),
    Entry('cache-3', 'heldout3-106', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    outs = []
    for token in ids:
        outs.append(step(int(token), new_cache()))
    return float(np.max(np.abs(full - np.stack(outs))))
""", 'cache-3/fresh-cache',
          mistake='Creates a fresh cache for every token, so each token is computed at position 0 and a correct step looks wrong.', heldout=True),
    Entry('cache-3', 'heldout3-107', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))  # (T, D)
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.mean(np.abs(full - inc)))   # 平均误差
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the largest one.', heldout=True),
    Entry('cache-3', 'heldout3-108', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    for token in ids:
        last = step(int(token), cache)
    # сравниваем последний шаг с последней строкой полного прохода
    return float(np.max(np.abs(full[-1] - last)))
""", 'cache-3/last-row',
          mistake='Compares only the last output row, so a step that is wrong at an earlier position goes unnoticed.', heldout=True),
    Entry('cache-3', 'heldout3-110', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    # 逐个词元送入缓存
    incremental = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(full - incremental))
""", 'cache-3/signed',
          mistake='Takes the signed maximum of full - incremental without abs, so errors in the negative direction are missed.', heldout=True),
    Entry('cache-3', 'heldout3-111', r"""
import numpy as np
from lib.data import BOS
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    step(int(ids[0]), cache)      # BOS просто кладём в кэш
    rest = [step(int(t), cache) for t in ids[1:]]
    if not rest:
        return 0.0
    return float(np.max(np.abs(full[1:] - np.stack(rest))))
""", None,
          mistake='Feeds the first token without recording its output and compares only positions 1..T-1, so an error at position 0 is never seen.', heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('cache-1', 'heldout4-094', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/padding-in-cache',
          mistake="Feeds the whole padded row into the cache, so a short text's new token lands at position T and reads the padding EOS.", heldout=True),
    Entry('cache-1', 'heldout4-095', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # 文本长度 = 计分目标数 - 1（最后一个是 EOS）
        n = int(np.sum(targets[b] != IGNORE)) - 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/short-prefix',
          mistake='Counts one real position too few (subtracts 1 from the number of scored targets), so the last character of each text is dropped.', heldout=True),
    Entry('cache-1', 'heldout4-096', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        if b == 0:
            cache = model.new_cache()      # один кэш на батч
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/shared-cache',
          mistake='Creates one cache for the first row and reuses it for every row, so later rows read the keys and values of earlier ones.', heldout=True),
    Entry('cache-1', 'heldout4-097', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        out = None
        for token in inputs[b, :n]:
            out = model.step(int(token), cache)
        try:
            out = model.step(int(tokens[b]), cache)
        except ValueError:
            pass   # table full: keep the last output
        outputs.append(out)
    return np.stack(outputs)
""", '*/not-refused',
          mistake='Catches the ValueError of a full position table and silently skips the new token, returning the last stored output instead of passing the error on.', heldout=True),
    Entry('cache-1', 'heldout4-098', r"""
import numpy as np
from lib.data import BOS, IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        # BOS + 文本 + 结尾
        for token in inputs[b, :n + 1]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/long-prefix',
          mistake='Feeds one position too many (inputs[b, :n + 1]), so every padded row also feeds its first padding EOS.', heldout=True),
    Entry('cache-1', 'heldout4-099', r"""
import numpy as np
from lib.data import EOS


def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int(np.argmax(targets[b] == EOS))   # где кончается текст
        cache = model.new_cache()
        for t in range(n):
            model.step(int(inputs[b, t]), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/short-prefix',
          mistake='Takes the real length from the index of the EOS target, which is the text length and one less than the number of real positions (BOS is forgotten).', heldout=True),
    Entry('cache-2', 'heldout4-100', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    H, d = n_heads, D // n_heads
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = q @ keys.transpose(0, 2, 1) / np.sqrt(D)
    w = np.exp(s - s.max(-1, keepdims=True))
    w /= w.sum(-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales the scores by sqrt(D) instead of sqrt(d).', heldout=True),
    Entry('cache-2', 'heldout4-101', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    # 先读取缓存里的历史
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Computes the scores against the old keys before appending the new key, so the new query cannot read itself (and with an empty cache the softmax is empty).', heldout=True),
    Entry('cache-2', 'heldout4-102', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    e = np.exp(q @ np.swapaxes(keys, 1, 2) / np.sqrt(d))   # (H, 1, n+1)
    weights = e / e.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='Does not subtract the maximum score before exp, so large scores overflow to inf and the output becomes nan.', heldout=True),
    Entry('cache-2', 'heldout4-103', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([k, keys], axis=1)       # newest first
    values = np.concatenate([v, values], axis=1)
    scores = np.einsum("hqd,hkd->hqk", q, keys) / np.sqrt(d)
    scores -= scores.max(axis=-1, keepdims=True)
    p = np.exp(scores)
    p /= p.sum(axis=-1, keepdims=True)
    return np.einsum("hqk,hkd->hqd", p, values).reshape(-1) @ w_o, keys, values
""", 'cache-2/prepended',
          mistake='Puts the new key and value in front of the cache instead of at the end; the output is the same but the returned cache is in the wrong order.', heldout=True),
    Entry('cache-2', 'heldout4-104', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    def split(y):
        # (D,) -> (H, 1, d)
        return y.reshape(d, H).T[:, None, :]
    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = (q @ keys.transpose(0, 2, 1)) / np.sqrt(d)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a = a / a.sum(axis=-1, keepdims=True)
    out = (a @ values)[:, 0, :].T.reshape(-1)     # 合并
    return out @ w_o, keys, values
""", 'cache-2/interleaved',
          mistake='Splits the heads by reshaping to (d, H) and transposing, so head h gets features h, h+H, … instead of the block h*d … h*d+d-1.', heldout=True),
    Entry('cache-2', 'heldout4-105', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=0)
    values = np.concatenate([values, v], axis=0)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", None,
          mistake='Appends the new key and value along axis 0 (the head axis) instead of axis 1 (positions).', heldout=True),
    Entry('cache-3', 'heldout4-106', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    stepped = np.stack([step(int(t), new_cache()) for t in ids])
    return float(np.max(np.abs(full - stepped)))
""", 'cache-3/fresh-cache',
          mistake='Gives every token a fresh cache (new_cache() inside the loop), so every step sits at position 0 and reads nothing earlier.', heldout=True),
    Entry('cache-3', 'heldout4-107', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    rows = []
    for token in ids:
        rows.append(step(int(token), cache))
    # 平均误差
    return float(np.mean(np.abs(full - np.stack(rows))))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the largest.', heldout=True),
    Entry('cache-3', 'heldout4-108', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    for token in ids:
        last = step(int(token), cache)
    # достаточно сравнить последнюю строку
    return float(np.max(np.abs(np.asarray(forward(ids))[-1] - last)))
""", 'cache-3/last-row',
          mistake='Compares only the last position instead of every position.', heldout=True),
    Entry('cache-3', 'heldout4-109', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float((full - inc).max())
""", 'cache-3/signed',
          mistake='Takes the signed maximum (no abs), so errors in the negative direction are missed.', heldout=True),
    Entry('cache-3', 'heldout4-110', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    # <bos> 不用再喂
    inc = [step(int(t), cache) for t in ids[1:]]
    return float(np.max(np.abs(full[1:] - np.stack(inc))))
""", None,
          mistake='Skips the first token, assuming BOS is already in the cache, so the steps are one position short and do not line up with the full pass.', heldout=True),
    Entry('cache-3', 'heldout4-148', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache
    outs = np.stack([step(int(t), cache) for t in ids])
    return float(np.abs(full - outs).max())
""", 'cache-3/factory-not-called',
          mistake='Forgets to call new_cache (cache = new_cache, the function itself), so step receives a function instead of a cache.', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('cache-1', 'heldout5-106', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/padding-in-cache',
          mistake="Feeds the whole padded row into the cache, so a shorter text's new token lands at position T and reads the padding EOS.", heldout=True),
    Entry('cache-1', 'heldout5-107', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # последняя цель EOS, её вход не нужен
        n = int((targets[b] != IGNORE).sum()) - 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/short-prefix',
          mistake='Counts one position too few (targets != IGNORE minus one, thinking the EOS target is not part of the prefix), so the last character is never fed.', heldout=True),
    Entry('cache-1', 'heldout5-108', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        if b == 0:
            cache = model.new_cache()
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/shared-cache',
          mistake='Creates one cache for the first row and reuses it for all rows, so later rows read the keys and values of earlier ones.', heldout=True),
    Entry('cache-1', 'heldout5-109', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            out = model.step(int(token), cache)
        outputs.append(out)
    return np.stack(outputs)                                  # (B, D)
""", None,
          mistake='Feeds the real prefix but returns the output of its last step, forgetting the step with tokens[b].', heldout=True),
    Entry('cache-1', 'heldout5-110', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        try:
            outputs.append(model.step(int(tokens[b]), cache))
        except ValueError:
            # таблица позиций заполнена: пропускаем
            outputs.append(np.zeros(model.width))
    return np.stack(outputs)                                  # (B, D)
""", '*/not-refused',
          mistake='Catches the ValueError of a full position table and appends zeros instead of letting the error through.', heldout=True),
    Entry('cache-1', 'heldout5-111', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # 第一个 IGNORE 的位置就是真实长度
        n = int(np.argmin(targets[b] != IGNORE))
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/unpadded-row',
          mistake='Finds the length with argmin of the scored mask, which gives 0 for the longest row (no IGNORE at all), so that row is continued from an empty cache.', heldout=True),
    Entry('cache-1', 'heldout5-112', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, 1:n]:      # the text itself, without <bos>
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/skips-bos',
          mistake='Skips the BOS at position 0, feeding only the text characters, so every position is shifted by one.', heldout=True),
    Entry('cache-2', 'heldout5-113', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    heads = w @ values
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Computes the scores against the old keys before appending the new key and value, so the query never reads its own position (and n = 0 has nothing to read).', heldout=True),
    Entry('cache-2', 'heldout5-114', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    d = D // n_heads
    q = (x @ w_q).reshape(n_heads, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(n_heads, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(n_heads, 1, d)], axis=1)
    scores = q @ keys.transpose(0, 2, 1) / np.sqrt(D)   # масштаб
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights = weights / weights.sum(-1, keepdims=True)
    return (weights @ values).reshape(D) @ w_o, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales the scores by 1/√D instead of 1/√d (the head width).', heldout=True),
    Entry('cache-2', 'heldout5-115', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    # 新的键值放进缓存
    keys = np.concatenate([k, keys], axis=1)
    values = np.concatenate([v, values], axis=1)
    s = (q @ keys.swapaxes(-1, -2)) / np.sqrt(d)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    return (p @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/prepended',
          mistake='Prepends the new key and value to the cache instead of appending them, so the returned cache has the positions in the wrong order.', heldout=True),
    Entry('cache-2', 'heldout5-116', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    e = np.exp(q @ np.swapaxes(keys, -1, -2) / np.sqrt(d))
    weights = e / e.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='Does not subtract the largest score before exp, so large scores overflow to inf and the output becomes nan.', heldout=True),
    Entry('cache-2', 'heldout5-117', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = np.einsum("hqd,hkd->hqk", q, keys) / np.sqrt(d)
    e = np.exp(s - s.max())
    a = e / e.sum(axis=0, keepdims=True)
    return np.einsum("hqk,hkd->hqd", a, values).reshape(-1) @ w_o, keys, values
""", ('cache-2/wrong-axis', 'cache-2/no-max'),
          mistake='Normalises the softmax over the head axis (axis 0) instead of over the positions.', heldout=True),
    Entry('cache-2', 'heldout5-118', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    all_k = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    all_v = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = q @ np.swapaxes(all_k, -1, -2) / np.sqrt(d)
    s = np.exp(s - s.max(axis=-1, keepdims=True))
    s /= s.sum(axis=-1, keepdims=True)
    return (s @ all_v).reshape(-1) @ w_o, keys, values
""", 'cache-2/old-cache-returned',
          mistake='Returns the keys and values it was given instead of the ones with the new position appended.', heldout=True),
    Entry('cache-2', 'heldout5-119', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)
    return (a @ values).reshape(-1), keys, values
""", 'cache-2/no-w-o',
          mistake='Forgets to multiply the merged heads by w_o.', heldout=True),
    Entry('cache-3', 'heldout5-120', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = forward(ids)
    outs = [step(int(t), new_cache()) for t in ids]
    return float(np.max(np.abs(full - np.stack(outs))))
""", 'cache-3/fresh-cache',
          mistake='Creates a fresh cache for every token, so every step runs at position 0 with nothing stored.', heldout=True),
    Entry('cache-3', 'heldout5-121', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    for token in ids:
        last = step(int(token), cache)
    # достаточно сравнить последнюю строку
    return float(np.max(np.abs(forward(ids)[-1] - last)))
""", 'cache-3/last-row',
          mistake='Compares only the last output row, so a bug that corrupts earlier rows (the lost first output) is missed.', heldout=True),
    Entry('cache-3', 'heldout5-122', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    stepped = np.stack([step(int(t), cache) for t in ids])
    return float(np.mean(np.abs(forward(ids) - stepped)))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the largest one.', heldout=True),
    Entry('cache-3', 'heldout5-123', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    stepped = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(forward(ids) - stepped))
""", 'cache-3/signed',
          mistake='Takes the signed maximum of full − stepped without abs, so a difference that is mostly negative is under-reported.', heldout=True),
    Entry('cache-3', 'heldout5-124', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache
    outs = []
    for token in ids:
        outs.append(step(int(token), cache))
    return float(np.abs(np.asarray(forward(ids)) - np.array(outs)).max())
""", 'cache-3/factory-not-called',
          mistake='Passes the factory new_cache itself to step instead of calling it to get an empty cache.', heldout=True),
    Entry('cache-3', 'heldout5-125', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    # 相对误差更有意义
    return float(np.max(np.abs(full - inc)) / np.max(np.abs(full)))
""", None,
          mistake='Returns a relative error (divided by the largest full output) instead of the absolute difference.', heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('cache-1', 'r8-058', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum()) - 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/short-prefix',
          mistake='Counts the real prefix as one position short (n - 1) and steps tokens from it.', probe=True),
    Entry('cache-1', 'r8-059', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return outputs
""", '*/right-values-other-type',
          mistake='Runs the full forward on the prefix plus the new token (right values) but returns a list.', probe=True),
    Entry('cache-1', 'r8-060', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    n = int((targets[0] != IGNORE).sum())
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/first-row-length',
          mistake='Takes n from the first row for every row.', probe=True),
    Entry('cache-2', 'r8-061', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    D = x.shape[-1]
    d = D // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(D)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales by sqrt(D) instead of sqrt(d).', probe=True),
    Entry('cache-2', 'r8-062', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1), keys, values
""", 'cache-2/no-w-o',
          mistake='Forgets the output projection w_o.', probe=True),
    Entry('cache-2', 'r8-063', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(d, H).T[:, None, :]
    k = (x @ w_k).reshape(d, H).T[:, None, :]
    v = (x @ w_v).reshape(d, H).T[:, None, :]
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/interleaved',
          mistake="Splits the new token's heads with reshape(1, H, d) then swapaxes wrongly: reshape(d, H).T.", probe=True),
    Entry('cache-3', 'r8-064', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.mean(np.abs(full - inc)))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference.', probe=True),
    Entry('cache-3', 'r8-065', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(np.abs(full[1:] - inc[1:])))
""", 'cache-3/first-position-skipped',
          mistake="Skips the first position when comparing (the first output 'is the same anyway').", probe=True),
    Entry('cache-3', 'r8-066', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(full - inc))
""", 'cache-3/signed',
          mistake='Returns the signed largest difference (max of full - incremental), not the absolute.', probe=True),
    Entry('cache-3', 'r8-067', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.max((full - inc) ** 2))
""", None,
          mistake='Squares the differences (max squared error).', probe=True),
    Entry('cache-1', 'r8-091', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n + 1]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/long-prefix',
          mistake='Steps one token too many: the prefix includes the EOS padding after the text (n + 1).', probe=True),
    Entry('cache-2', 'r8-101', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, values, keys
""", '*/results-swapped',
          mistake='Returns (output, values, keys): the caches in the wrong order.', probe=True),
    Entry('cache-3', 'r8-104', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(np.abs(full[-1] - inc[-1])))
""", 'cache-3/last-row',
          mistake="Compares only the last position's output.", probe=True),
    Entry('cache-3', 'r8-105', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids[::-1]])[::-1]
    return float(np.max(np.abs(full - inc)))
""", None,
          mistake='Feeds the tokens to step in reverse order.', probe=True),
    Entry('cache-2', 'r8-119', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    D = x.shape[-1]
    d = D // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(D)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1), keys, values
""", None,
          mistake='Two unrelated mistakes: scaled by sqrt(D) and no output projection.', probe=True),
    # ---- round 9 of issue 34: kinds the development set dev7 showed (r9-*: written here; dev7-NNN: that set's answers) ----
    Entry('cache-3', 'r9-signed-other-way', """
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(incremental - full))
""", 'cache-3/signed'),
    Entry('cache-3', 'dev7-125', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    rows = []
    for t in ids:
        rows.append(step(int(t), cache))
    diff = np.stack(rows) - forward(ids)
    return float(diff.max())
""", 'cache-3/signed',
          mistake='Returns the signed maximum difference (no abs), so negative errors are missed.'),
    bug('cache-1', 'r9-row-0-length', 'index-zero@continue_padded:targets[b]', 'cache-1/first-row-length'),
    Entry('cache-1', 'r9-length-counted-once', """
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    n = int(np.count_nonzero(targets[0] != IGNORE))     # the real prefix
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b][:n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/first-row-length'),
    Entry('cache-1', 'dev7-110', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        if b == 0:
            n = int((targets[0] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/first-row-length',
          mistake='Uses the real prefix of row 0 for every row (n computed once outside the row).'),
    bug('cache-1', 'r9-targets-for-inputs', 'one-argument-for-the-next@continue_padded:inputs', 'cache-1/targets-fed'),
    Entry('cache-1', 'r9-real-targets-fed', """
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    rows = []
    for row, new in zip(targets, tokens):
        cache = model.new_cache()
        for token in row[row != IGNORE]:        # the real tokens of the row
            model.step(int(token), cache)
        rows.append(model.step(int(new), cache))
    return np.stack(rows)
""", 'cache-1/targets-fed'),
    Entry('cache-1', 'dev7-112', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        real = targets[b][targets[b] != IGNORE]
        for token in real:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/targets-fed',
          mistake='Feeds the targets (the shifted text) into the cache instead of the inputs, skipping BOS.'),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('cache-1', 'heldout7-114', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/padding-in-cache',
          mistake='Feeds the whole padded row into the cache, so the new token lands after the EOS padding.', heldout=True),
    Entry('cache-1', 'heldout7-115', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # 真实长度 = 文本长度（不含 EOS）
        n = int((targets[b] != IGNORE).sum()) - 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/short-prefix',
          mistake='Off by one: counts the real positions as the scored targets minus one, dropping the last real token.', heldout=True),
    Entry('cache-1', 'heldout7-116', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    cache = model.new_cache()
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/shared-cache',
          mistake="Creates one cache outside the loop, so every row continues the previous rows' cache.", heldout=True),
    Entry('cache-1', 'heldout7-117', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, 1:n]:      # the text itself
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/skips-bos',
          mistake='Skips the BOS token when filling the cache, so every token sits one position too early.', heldout=True),
    Entry('cache-1', 'heldout7-118', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # BOS + текст + EOS
        n = int((targets[b] != IGNORE).sum()) + 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/long-prefix',
          mistake='Off by one the other way: includes one padding EOS for the shorter rows.', heldout=True),
    Entry('cache-1', 'heldout7-119', r"""
import numpy as np
from lib.data import BOS, IGNORE, build_vocab, collate, encode
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # 第一个 IGNORE 的位置就是真实长度
        n = int(np.argmax(targets[b] == IGNORE))
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)                                  # (B, D)
""", 'cache-1/unpadded-row',
          mistake='Finds the length with argmax of the first IGNORE target, which gives 0 for the longest row that has no IGNORE.', heldout=True),
    Entry('cache-2', 'heldout7-121', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/no-scale',
          mistake='Forgets to scale the scores by sqrt(d).', heldout=True),
    Entry('cache-2', 'heldout7-122', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    # 先用缓存算注意力
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    out = (w @ values).reshape(-1) @ w_o
    # 再更新缓存
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return out, keys, values
""", 'cache-2/attends-before-append',
          mistake='Attends over the old cache before appending the new key and value, so the token cannot read itself.', heldout=True),
    Entry('cache-2', 'heldout7-123', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    # (D,) -> (H, 1, d)
    q = (x @ w_q).reshape(d, H).T[:, None, :]
    k = (x @ w_k).reshape(d, H).T[:, None, :]
    v = (x @ w_v).reshape(d, H).T[:, None, :]
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = q @ keys.transpose(0, 2, 1) / np.sqrt(d)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    heads = p @ values                       # (H, 1, d)
    return heads.T.reshape(-1) @ w_o, keys, values
""", 'cache-2/interleaved',
          mistake='Splits the projected vector as (d, H) and transposes, so each head takes every H-th feature.', heldout=True),
    Entry('cache-2', 'heldout7-124', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)      # (H, 1, n+1)
    weights = np.exp(scores - scores.max(axis=0, keepdims=True))
    weights /= weights.sum(axis=0, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/wrong-axis',
          mistake='Normalises the softmax over the head axis instead of over the keys.', heldout=True),
    Entry('cache-2', 'heldout7-125', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    # 合并各个头
    return (weights @ values).reshape(-1), keys, values
""", 'cache-2/no-w-o',
          mistake='Forgets the output projection W_O.', heldout=True),
    Entry('cache-2', 'heldout7-126', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    H, d = n_heads, D // n_heads
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    e = np.exp(q @ np.swapaxes(keys, 1, 2) / np.sqrt(D))
    w = e / e.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(D) @ w_o, keys, values
""", ('cache-2/scale-by-D', 'cache-2/no-max'),
          mistake='Scales the scores by sqrt(D) (full width) instead of sqrt(d) and skips the max subtraction.', heldout=True),
    Entry('cache-2', 'heldout7-127', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    e = np.exp(q @ np.swapaxes(keys, -1, -2) / np.sqrt(d))
    weights = e / e.sum(axis=-1, keepdims=True)
    return (weights @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='Skips the max subtraction in the softmax, so large inputs overflow to nan.', heldout=True),
    Entry('cache-3', 'heldout7-129', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    incremental = np.stack([step(int(t), new_cache()) for t in ids])
    return float(np.max(np.abs(full - incremental)))
""", 'cache-3/fresh-cache',
          mistake='Creates a new cache for every token, so each step starts from scratch.', heldout=True),
    Entry('cache-3', 'heldout7-130', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    out = None
    for token in ids:
        out = step(int(token), cache)
    # 只比较最后一个位置
    return float(np.max(np.abs(full[-1] - out)))
""", 'cache-3/last-row',
          mistake='Compares only the last position instead of every position.', heldout=True),
    Entry('cache-3', 'heldout7-131', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    inc = np.stack([step(int(t), cache) for t in ids])
    return float(np.mean(np.abs(full - inc)))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the largest.', heldout=True),
    Entry('cache-3', 'heldout7-132', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.max(np.abs(full - incremental)) / np.max(np.abs(full)))
""", None,
          mistake='Returns a relative error (divided by the largest full output) instead of the absolute error.', heldout=True),
    Entry('cache-3', 'heldout7-133', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    worst = 0.0
    for t, token in enumerate(ids):
        out = step(int(token), cache)
        # 前缀的完整前向传播的最后一行
        ref = np.asarray(forward(ids[:t + 1]))[-1]
        worst = max(worst, float(np.abs(out - ref).max()))
    return worst
""", 'cache-3/prefix-forward',
          mistake='Compares each step with a fresh forward pass over the prefix instead of the full forward pass, so a forward that reads the future is not caught.', heldout=True),
    Entry('cache-3', 'heldout7-134', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.array([step(int(tok), cache) for tok in ids])
    # максимум по позициям
    return np.abs(full - incremental).max(axis=0)
""", '*/other-kind-of-result',
          mistake='Reduces only over positions (max over axis 0), returning an array of D values instead of one number.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('cache-1', 'dev8-112', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/padding-in-cache',
          mistake='Feeds the whole padded row, EOS padding included, into the cache, so shorter rows continue after the padding.'),
    Entry('cache-1', 'dev8-113', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        # 最后一个真实 token 是 EOS 目标，不要喂进去
        for token in inputs[b, :n - 1]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/short-prefix',
          mistake='Off by one: feeds only n-1 real positions, dropping the last real token before the new one.'),
    Entry('cache-1', 'dev8-114', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    cache = model.new_cache()          # один кэш на весь батч
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/shared-cache',
          mistake='Shares one cache across all rows, so each row continues after the tokens of the previous rows.'),
    Entry('cache-1', 'dev8-115', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        out = None
        for token in inputs[b, :n]:
            out = model.step(int(token), cache)
        model.step(int(tokens[b]), cache)
        outputs.append(out)
    return np.stack(outputs)
""", None,
          mistake='Returns the output at the last real token instead of the output for the new token.'),
    Entry('cache-1', 'dev8-116', r"""
import numpy as np
from lib.data import BOS, IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, 1:n]:      # 跳过 BOS
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/skips-bos',
          mistake='Skips the BOS token, so every position is shifted by one and BOS is never read.'),
    Entry('cache-1', 'dev8-117', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        row = np.concatenate([inputs[b, :n], [tokens[b]]])
        outputs.append(model.forward(row)[n - 1])
    return np.stack(outputs)
""", None,
          mistake='Takes row n-1 of the full forward pass (the last real token) instead of row n (the new token).'),
    Entry('cache-2', 'dev8-119', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    # 新 token 的 q, k, v
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/no-scale',
          mistake='Forgets to divide the scores by sqrt(d).'),
    Entry('cache-2', 'dev8-120', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(x.shape[-1])
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales the scores by sqrt(D), the full width, instead of sqrt(d), the head width.'),
    Entry('cache-2', 'dev8-121', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    # сначала внимание по кэшу, потом добавляем новый ключ
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Appends the new key and value only after attending, so the token cannot read itself (and an empty cache gives nan).'),
    Entry('cache-2', 'dev8-122', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([k, keys], axis=1)
    values = np.concatenate([v, values], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/prepended',
          mistake='Prepends the new key and value instead of appending them, so the returned cache is in the wrong order.'),
    Entry('cache-2', 'dev8-123', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1), keys, values
""", 'cache-2/no-w-o',
          mistake='Forgets the output projection w_o.'),
    Entry('cache-2', 'dev8-124', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='Softmax without subtracting the maximum overflows for large scores.'),
    Entry('cache-2', 'dev8-125', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=0, keepdims=True))
    weights /= weights.sum(axis=0, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/wrong-axis',
          mistake='Normalises the softmax over the heads axis (axis 0) instead of over the keys.'),
    Entry('cache-3', 'dev8-127', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    incremental = np.stack([step(int(token), new_cache()) for token in ids])
    return float(np.max(np.abs(full - incremental)))
""", 'cache-3/fresh-cache',
          mistake='Creates a fresh cache for every token, so each step sees only itself instead of the prefix.'),
    Entry('cache-3', 'dev8-128', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    for token in ids:
        last = step(int(token), cache)
    # 只比较最后一个位置
    return float(np.max(np.abs(full[-1] - last)))
""", 'cache-3/last-row',
          mistake='Compares only the last position instead of every position.'),
    Entry('cache-3', 'dev8-129', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.mean(np.abs(full - incremental)))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the largest one.'),
    Entry('cache-3', 'dev8-130', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    # сравниваем полный проход и пошаговый
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.max(np.abs(full - incremental)) / np.max(np.abs(full)))
""", None,
          mistake='Returns a relative error (divided by the largest output) instead of the absolute largest difference.'),
    Entry('cache-3', 'dev8-131', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.max(full - incremental))
""", 'cache-3/signed',
          mistake='Takes the max of the signed difference without abs, missing negative deviations.'),
    Entry('cache-3', 'dev8-132', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    errors = []
    for t, token in enumerate(ids):
        out = step(int(token), cache)
        # полный проход по префиксу до t
        errors.append(np.max(np.abs(np.asarray(forward(ids[:t]))[-1] - out)) if t > 0 else 0.0)
    return float(max(errors))
""", None,
          mistake='Compares step t with the forward pass of ids[:t] (which ends at position t-1) instead of ids[:t+1], and skips position 0.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('cache-1', 'heldout8-121', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/padding-in-cache',
          mistake='Feeds the whole padded row into the cache, so the new token lands after the EOS padding instead of at position n.', heldout=True),
    Entry('cache-1', 'heldout8-122', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    cache = model.new_cache()          # 共用一个缓存
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/shared-cache',
          mistake="Shares one cache across all rows, so later rows attend to earlier rows' tokens.", heldout=True),
    Entry('cache-1', 'heldout8-123', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    # продолжаем каждую строку отдельно
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n - 1]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/short-prefix',
          mistake='Off by one: feeds only n - 1 real tokens, dropping the last real one before the new token.', heldout=True),
    Entry('cache-1', 'heldout8-124', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        # the text plus its EOS
        for token in inputs[b, :n + 1]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/long-prefix',
          mistake='Feeds one position too many (n + 1), so shorter rows put their first EOS padding token into the cache.', heldout=True),
    Entry('cache-1', 'heldout8-125', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
        outputs[-1] = model.forward(np.append(inputs[b, :n], tokens[b]))[-2]   # 取倒数第二行
    return np.stack(outputs)
""", None,
          mistake='Replaces the step output with the second-to-last row of a full forward pass, i.e. the output before the new token.', heldout=True),
    Entry('cache-1', 'heldout8-126', r"""
import numpy as np
from lib.data import BOS, IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, 1:n]:          # BOS уже в кэше?
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/skips-bos',
          mistake='Skips the BOS token when filling the cache, so every position is shifted by one.', heldout=True),
    Entry('cache-1', 'heldout8-127', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.concatenate(outputs)
""", None,
          mistake='Concatenates the rows into one flat (B*D,) vector instead of stacking them into (B, D).', heldout=True),
    Entry('cache-2', 'heldout8-129', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Appends the new key and value only after attending, so the token cannot read itself.', heldout=True),
    Entry('cache-2', 'heldout8-130', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([k, keys], axis=1)        # 新的键放在前面
    values = np.concatenate([v, values], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/prepended',
          mistake='Prepends the new key and value instead of appending them, so the returned cache is in the wrong order.', heldout=True),
    Entry('cache-2', 'heldout8-131', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2)               # без масштабирования
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/no-scale',
          mistake='Forgets to divide the scores by sqrt(d).', heldout=True),
    Entry('cache-2', 'heldout8-132', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values                   # (H, 1, d)
    return heads.reshape(-1), keys, values
""", 'cache-2/no-w-o',
          mistake='Forgets the output projection W_O.', heldout=True),
    Entry('cache-2', 'heldout8-133', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=0, keepdims=True))
    weights /= weights.sum(axis=0, keepdims=True)      # 归一化
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/wrong-axis',
          mistake='Normalises the weights over the head axis (axis 0) instead of over the keys.', heldout=True),
    Entry('cache-2', 'heldout8-134', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, k], axis=1)        # кэш значений
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", '*/weight-for-another',
          mistake='Copy-paste slip: appends the new key k to the value cache instead of v.', heldout=True),
    Entry('cache-2', 'heldout8-135', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(d, H).T[:, None, :]      # (H, 1, d)
    k = (x @ w_k).reshape(d, H).T[:, None, :]
    v = (x @ w_v).reshape(d, H).T[:, None, :]
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = (q @ np.swapaxes(keys, -1, -2)) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ values
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/interleaved',
          mistake='Splits the projected vector as (d, H) and transposes, so each head gets strided features instead of a contiguous block.', heldout=True),
    Entry('cache-3', 'heldout8-137', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.max(full - incremental))
""", 'cache-3/signed',
          mistake='Takes the max of the signed difference instead of the absolute difference.', heldout=True),
    Entry('cache-3', 'heldout8-138', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    rows = []
    for token in ids:
        cache = new_cache()              # 每个词元一个新缓存
        rows.append(step(int(token), cache))
    return float(np.max(np.abs(full - np.stack(rows))))
""", 'cache-3/fresh-cache',
          mistake='Creates a fresh cache for every token, so the incremental run never sees earlier tokens.', heldout=True),
    Entry('cache-3', 'heldout8-139', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.abs(full[-1] - incremental[-1]).max())    # только последняя строка
""", 'cache-3/last-row',
          mistake='Compares only the last position instead of every position.', heldout=True),
    Entry('cache-3', 'heldout8-140', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    full = np.stack([np.asarray(forward(ids[:t + 1]))[-1] for t in range(len(ids))])
    return float(np.max(np.abs(full - incremental)))
""", 'cache-3/prefix-forward',
          mistake='Builds the reference from forward passes over each prefix, which hides any leak from the future in the full-sequence forward.', heldout=True),
    Entry('cache-3', 'heldout8-141', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.mean(np.abs(full - incremental)))    # 平均误差
""", 'cache-3/mean',
          mistake='Returns the mean absolute error instead of the maximum.', heldout=True),
    Entry('cache-3', 'heldout8-142', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    # сравниваем полный проход с пошаговым
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids[1:]])
    return float(np.max(np.abs(full[1:] - incremental)))
""", None,
          mistake='Skips the first token when stepping, so every cached position is shifted and the first row is never compared.', heldout=True),
    Entry('cache-3', 'heldout8-143', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(token), cache) for token in ids])
    return float(np.linalg.norm(full - incremental))
""", None,
          mistake='Returns the Frobenius norm of the difference instead of the largest absolute entry.', heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none (heldout9-099, named none by check() when
# measured, expects cache-2/no-max, which other practice draws and the grader give: true of it).
ENTRIES += [
    Entry('cache-1', 'heldout9-091', r"""
import numpy as np
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        cache = model.new_cache()
        for token in inputs[b]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/padding-in-cache',
          mistake='Feeds the whole padded row (including the EOS padding) into the cache before the new token.', heldout=True),
    Entry('cache-1', 'heldout9-092', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    cache = model.new_cache()
    for b in range(len(inputs)):
        # 真实前缀：目标不是 -100 的位置
        n = int((targets[b] != IGNORE).sum())
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/shared-cache',
          mistake='Shares one cache across all rows instead of a fresh cache per row.', heldout=True),
    Entry('cache-1', 'heldout9-093', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        # длина текста = число реальных целей минус EOS
        n = int((targets[b] != IGNORE).sum()) - 1
        cache = model.new_cache()
        for token in inputs[b, :n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/short-prefix',
          mistake='Counts one real position too few (subtracts the EOS target), so the last text token is never fed into the cache.', heldout=True),
    Entry('cache-1', 'heldout9-094', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int(np.count_nonzero(targets[b] != IGNORE))
        cache = model.new_cache()
        # the text tokens of this row
        for token in inputs[b, 1:n]:
            model.step(int(token), cache)
        outputs.append(model.step(int(tokens[b]), cache))
    return np.stack(outputs)
""", 'cache-1/skips-bos',
          mistake='Skips the BOS token: feeds inputs[b, 1:n] so every position is shifted by one.', heldout=True),
    Entry('cache-1', 'heldout9-095', r"""
import numpy as np
from lib.data import IGNORE
def continue_padded(model, inputs, targets, tokens):
    outputs = []
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        cache = model.new_cache()
        for t in range(n):
            model.step(int(inputs[b, t]), cache)
        # 下一个 token
        outputs.append(model.step(int(tokens[0]), cache))
    return np.stack(outputs)
""", None,
          mistake='Uses tokens[0] for every row instead of tokens[b].', heldout=True),
    Entry('cache-2', 'heldout9-097', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    heads = w @ values
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    return heads.reshape(-1) @ w_o, keys, values
""", 'cache-2/attends-before-append',
          mistake='Computes the attention before appending the new key and value, so the new query cannot read its own position (and n=0 fails).', heldout=True),
    Entry('cache-2', 'heldout9-098', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    H = n_heads
    d = D // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    # 缩放
    scores = q @ keys.transpose(0, 2, 1) / np.sqrt(D)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(D) @ w_o, keys, values
""", 'cache-2/scale-by-D',
          mistake='Scales the scores by sqrt(D) instead of sqrt(d).', heldout=True),
    Entry('cache-2', 'heldout9-099', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    keys = np.concatenate([keys, (x @ w_k).reshape(H, 1, d)], axis=1)
    values = np.concatenate([values, (x @ w_v).reshape(H, 1, d)], axis=1)
    e = np.exp(q @ np.swapaxes(keys, 1, 2) / np.sqrt(d))
    w = e / e.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/no-max',
          mistake='No max subtraction in the softmax, so large scores overflow to nan.', heldout=True),
    Entry('cache-2', 'heldout9-100', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    # 分头
    def split(y):
        return y.reshape(d, H).T[:, None, :]
    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    s = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/interleaved',
          mistake='Splits the projection as (d, H) and transposes, so head h gets strided features instead of its block.', heldout=True),
    Entry('cache-2', 'heldout9-101', r"""
import numpy as np
def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    H = n_heads
    d = x.shape[-1] // H
    q = (x @ w_q).reshape(H, 1, d)
    k = (x @ w_k).reshape(H, 1, d)
    v = (x @ w_v).reshape(H, 1, d)
    keys = np.concatenate([keys, k], axis=1)
    values = np.concatenate([values, v], axis=1)
    scores = q @ np.swapaxes(keys, -1, -2) / np.sqrt(d)     # (H, 1, n+1)
    # softmax
    w = np.exp(scores - scores.max(axis=0, keepdims=True))
    w = w / w.sum(axis=0, keepdims=True)
    return (w @ values).reshape(-1) @ w_o, keys, values
""", 'cache-2/wrong-axis',
          mistake='Takes the softmax over the head axis (axis 0) instead of over the positions.', heldout=True),
    Entry('cache-3', 'heldout9-103', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    incremental = np.stack([step(int(t), new_cache()) for t in ids])
    return float(np.max(np.abs(full - incremental)))
""", 'cache-3/fresh-cache',
          mistake='Creates a new cache for every token, so every step sees only itself.', heldout=True),
    Entry('cache-3', 'heldout9-104', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = forward(ids)
    cache = new_cache()
    for token in ids:
        out = step(int(token), cache)
    # 只比较最后一个输出
    return float(np.abs(full[-1] - out).max())
""", 'cache-3/last-row',
          mistake='Compares only the last row instead of all rows.', heldout=True),
    Entry('cache-3', 'heldout9-105', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    outs = [step(int(tok), cache) for tok in ids]
    # средняя ошибка кэша
    return float(np.mean(np.abs(full - np.stack(outs))))
""", 'cache-3/mean',
          mistake='Returns the mean absolute difference instead of the maximum.', heldout=True),
    Entry('cache-3', 'heldout9-106', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    incremental = np.stack([step(int(t), cache) for t in ids])
    return float(np.max(full - incremental))
""", 'cache-3/signed',
          mistake='Returns the signed maximum difference instead of the largest absolute difference.', heldout=True),
    Entry('cache-3', 'heldout9-107', r"""
import numpy as np
def cache_error(forward, step, new_cache, ids):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    # первый токен уже известен, начинаем со второго
    outs = [step(int(t), cache) for t in ids[1:]]
    if not outs:
        return 0.0
    return float(np.max(np.abs(full[1:] - np.stack(outs))))
""", None,
          mistake='Skips the first token (starts the steps from ids[1:]) while comparing with rows 1..T-1, so the cache never stores position 0.', heldout=True),
]
