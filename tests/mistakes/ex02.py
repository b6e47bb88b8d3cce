"""Wrong answers to exercise set 2 (heads-1, heads-2, heads-3, cost-1)."""

from . import Entry, answers_above, bug

_MHA_HEAD = """
import numpy as np
from lib.attention import causal_attention
"""

ENTRIES = [
    # ---- heads-1: split_heads(x, n_heads) ------------------------------------------
    Entry("heads-1", "reshape-without-transpose", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    return x.reshape(*x.shape[:-2], n_heads, x.shape[-2], D // n_heads)
""", "heads-1/reshape-only"),
    Entry("heads-1", "reshape-minus-one", """
import numpy as np
def split_heads(x, n_heads):
    return np.reshape(x, x.shape[:-2] + (n_heads, x.shape[-2], -1))
""", "heads-1/reshape-only"),
    Entry("heads-1", "interleaved", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    heads = x.reshape(*x.shape[:-1], D // n_heads, n_heads)
    return np.moveaxis(heads, -1, -3)
""", "heads-1/interleaved"),
    Entry("heads-1", "strided-slices", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    return np.stack([x[..., h::n_heads] for h in range(n_heads)], axis=-3)
""", "heads-1/interleaved"),
    Entry("heads-1", "forgot-swap", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    return x.reshape(*x.shape[:-1], n_heads, D // n_heads)
""", "heads-1/no-swap"),
    Entry("heads-1", "three-axes-only", """
import numpy as np
def split_heads(x, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    return x.reshape(B, T, n_heads, D // n_heads).transpose(0, 2, 1, 3)
""", "heads-1/fixed-rank"),
    Entry("heads-1", "transpose-reversed", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.T
""", 'heads-1/all-axes-reversed'),

    # ---- heads-2: merge_heads(x) ------------------------------------------------------
    Entry("heads-2", "four-axes-only", """
import numpy as np
def merge_heads(x):
    return x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1)
""", "heads-2/fixed-rank"),
    Entry("heads-2", "four-axes-unpacked", """
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    B, H, T, d = x.shape
    return np.swapaxes(x, 1, 2).reshape(B, T, H * d)
""", "heads-2/fixed-rank"),
    bug("heads-2", "reshape-without-transpose", "reshape-without-transpose", "heads-2/reshape-only"),
    Entry("heads-2", "reshape-explicit", """
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    *batch, H, T, d = x.shape
    return x.reshape(*batch, T, H * d)
""", "heads-2/reshape-only"),
    bug("heads-2", "heads-interleaved", "interleaved-heads", "heads-2/interleaved"),
    bug("heads-2", "sums-heads", "heads-summed", "heads-2/summed"),
    bug("heads-2", "heads-reversed", "heads-reversed", "heads-2/reversed"),
    Entry("heads-2", "concatenate-along-axis-1", """
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    return np.concatenate([x[:, h] for h in range(x.shape[1])], axis=-1)
""", "heads-2/fixed-rank"),

    # ---- heads-3: multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads) -------------------
    Entry("heads-3", "forgot-w-o", _MHA_HEAD + """
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    heads = causal_attention(q, k, v)
    return heads.transpose(0, 2, 1, 3).reshape(B, T, D)
""", "heads-3/no-w-o"),
    Entry("heads-3", "scale-by-sqrt-D", """
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    heads = weights @ v
    return heads.transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", "heads-3/scale-by-D"),
    Entry("heads-3", "no-scale", """
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 1, 3, 2)
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", "heads-3/no-scale"),
    Entry("heads-3", "no-mask", """
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", "heads-3/no-mask"),
    Entry("heads-3", "strict-mask", """
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    allowed = np.arange(T)[None, :] < np.arange(T)[:, None]
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", "heads-3/diagonal-hidden"),
    Entry("heads-3", "split-by-reshape", _MHA_HEAD + """
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, n_heads, T, d) for w in (w_q, w_k, w_v))
    heads = causal_attention(q, k, v)
    return heads.transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", "heads-3/reshape-only"),
    Entry("heads-3", "softmax-over-queries", """
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-2, keepdims=True))
    weights /= weights.sum(axis=-2, keepdims=True)
    return (weights @ v).transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", "heads-3/wrong-axis"),
    Entry("heads-3", "one-big-head", _MHA_HEAD + """
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    if x.shape[-1] % n_heads:
        raise ValueError("not divisible")
    return causal_attention(x @ w_q, x @ w_k, x @ w_v) @ w_o
""", None),
    Entry("heads-3", "w-o-per-head-slice", _MHA_HEAD + """
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    heads = causal_attention(q, k, v)
    return sum(heads[:, h] @ w_o[:d] for h in range(n_heads))
""", None),

    # ---- cost-1: attention_costs(batch, length, width, n_heads, n_layers, dtype) ----------
    Entry("cost-1", "keys-only", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    itemsize = np.dtype(dtype).itemsize
    return n_layers * 4 * width ** 2, n_layers * batch * length * width * itemsize
""", "cost-1/keys-only"),
    Entry("cost-1", "three-matrices", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    itemsize = np.dtype(dtype).itemsize
    return n_layers * 3 * width * width, 2 * n_layers * batch * length * width * itemsize
""", "cost-1/three-matrices"),
    Entry("cost-1", "four-bytes-always", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    return n_layers * 4 * width * width, 2 * n_layers * batch * length * width * 4
""", "cost-1/fixed-itemsize"),
    Entry("cost-1", "elements-not-bytes", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    return n_layers * 4 * width * width, 2 * n_layers * batch * length * width
""", "cost-1/elements"),
    Entry("cost-1", "cache-of-one-layer", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    itemsize = np.dtype(dtype).itemsize
    return n_layers * 4 * width * width, 2 * batch * length * width * itemsize
""", "cost-1/one-layer-cache"),
    Entry("cost-1", "head-width-only", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    return n_layers * 4 * width * width, 2 * n_layers * batch * length * d * itemsize
""", "cost-1/one-head-cache"),
    Entry("cost-1", "zero-layers-accepted", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("width not divisible by n_heads")
    itemsize = np.dtype(dtype).itemsize
    return n_layers * 4 * width * width, 2 * n_layers * batch * length * width * itemsize
""", "cost-1/zero-layers"),
    Entry("cost-1", "float-result", """
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad sizes")
    itemsize = np.dtype(dtype).itemsize
    return n_layers * 4 * width ** 2 / 1, 2 * n_layers * batch * length * width * itemsize / 1
""", '*/right-values-other-type'),
    Entry("heads-1", "squeezes-a-batch-of-one", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    return np.squeeze(np.swapaxes(x.reshape(*x.shape[:-1], n_heads, D // n_heads), -3, -2))
""", '*/unit-axis'),
    Entry("heads-3", "one-head-special-case", _MHA_HEAD + """
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("not divisible")
    if n_heads == 1:
        return causal_attention(x @ w_q, x @ w_k, x @ w_v)
    d = D // n_heads
    q, k, v = ((x @ w).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3) for w in (w_q, w_k, w_v))
    return causal_attention(q, k, v).transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", None),
]


# ---- a fresh reader's answers (read84, tried with check() on 848591ba; not held out: tuned to) ------------
ENTRIES += [
    Entry('cost-1', 'read84-keys-only', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads: raise ValueError
    if n_layers < 1: raise ValueError
    return n_layers*4*width*width, n_layers*batch*length*width*np.dtype(dtype).itemsize
""", 'cost-1/keys-only',
          mistake='Counts the cached keys and forgets the values (half the cache).'),
]


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('heads-1', 'heldout-030', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.transpose(0, 2, 1, 3)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes transpose(0, 2, 1, 3), which only works for a 3-D (B, T, D) input, not for (T, D) or extra leading axes.', heldout=True),
    Entry('heads-1', 'heldout-031', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    T = x.shape[-2]
    return heads.reshape(*x.shape[:-2], n_heads, T, D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes (..., T, H, d) to (..., H, T, d) instead of swapping axes: the right shape, but time and heads are mixed (the reshape-only bug).', heldout=True),
    Entry('heads-1', 'heldout-032', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -2, -1)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (H and d) instead of T and H, giving (..., T, d, H).', heldout=True),
    Entry('heads-1', 'heldout-033', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.moveaxis(heads, -2, 0)
""", 'heads-1/one-sequence-only',
          mistake='Moves the head axis to the very front (axis 0) instead of just before T: right for a single (T, D) sequence, wrong with a batch axis.', heldout=True),
    Entry('heads-1', 'heldout-034', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, 1, 2)   # (B, H, T, d)
""", 'heads-1/fixed-rank',
          mistake='Swaps axes 1 and 2 counted from the front, which are T and H only for a (B, T, D) input.', heldout=True),
    Entry('heads-1', 'heldout-035', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (T, H, d) -> (H, T, d)
    return np.transpose(heads, (1, 0, 2))
""", 'heads-1/one-sequence-only',
          mistake='Uses a three-axis permutation (1, 0, 2) that only fits an unbatched (T, D) input; a batched input raises.', heldout=True),
    Entry('heads-2', 'heldout-036', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("需要 (..., H, T, d)")
    H, T, d = x.shape[-3:]
    return x.reshape(*x.shape[:-3], T, H * d)
""", 'heads-2/reshape-only',
          mistake='Merges with a reshape alone, without moving the head axis behind the time axis, so positions and heads are mixed.', heldout=True),
    Entry('heads-2', 'heldout-037', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"需要 (..., H, T, d)，得到 {x.shape}")
    # 沿特征轴把各个头并排拼接
    return np.concatenate(list(x), axis=-1)
""", '*/one-rank-only',
          mistake='Concatenates list(x), which iterates over the first axis: that is the head axis only for a 3-D input; with a batch axis it concatenates the batch.', heldout=True),
    Entry('heads-2', 'heldout-038', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("нужно минимум три оси")
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Unpacks B, H, T, d = x.shape, so only 4-D inputs work; a valid 3-D (H, T, d) input raises.', heldout=True),
    Entry('heads-2', 'heldout-039', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim != 4:
        raise ValueError("merge_heads 需要 (B, H, T, d)")
    y = np.swapaxes(x, 1, 2)
    return y.reshape(y.shape[0], y.shape[1], -1)
""", 'heads-2/fixed-rank',
          mistake='The shape check is too strict (ndim != 4): a valid 3-D (H, T, d) input is refused.', heldout=True),
    Entry('heads-2', 'heldout-040', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("merge_heads needs at least (H, T, d)")
    H, T, d = x.shape[-3:]
    # move the head axis next to the features, then flatten the two
    y = np.moveaxis(x, -3, -1)            # (..., T, d, H)
    return y.reshape(*x.shape[:-3], T, H * d)
""", 'heads-2/interleaved',
          mistake='Moves the head axis to the end, (..., T, d, H), before flattening, so the features are interleaved (a*H + h) instead of concatenated head by head.', heldout=True),
    Entry('heads-2', 'heldout-041', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    H, T, d = x.shape[-3], x.shape[-2], x.shape[-1]
    y = np.swapaxes(x, -3, -2)
    return y.reshape(*x.shape[:-3], T, H * d)
""", '*/not-refused',
          mistake='No check of the number of axes: a 2-D input fails with an IndexError from x.shape[-3] instead of the required ValueError.', heldout=True),
    Entry('heads-2', 'heldout-042', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("输入至少要有三个轴")
    H, T, d = x.shape[-3:]
    out = np.zeros(x.shape[:-3] + (T, H * d))
    for h in range(H):
        out[..., h * d:(h + 1) * d] = x[..., h, :, :]
    return out
""", '*/right-values-other-type',
          mistake='Copies the heads into a np.zeros buffer, which is float64: a float32 or integer input changes dtype.', heldout=True),
    Entry('heads-3', 'heldout-043', r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    d = D // n_heads

    def split(a):
        return a.reshape(B, T, n_heads, d).transpose(0, 2, 1, 3)

    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(D)
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    scores = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(scores)
    w = w / w.sum(axis=-1, keepdims=True)
    heads = w @ v
    return heads.transpose(0, 2, 1, 3).reshape(B, T, D) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Writes its own attention and scales the scores by sqrt(D), the model width, instead of sqrt(d), the head width.', heldout=True),
    Entry('heads-3', 'heldout-044', r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    def split_heads(a, h):
        a = np.asarray(a)
        D = a.shape[-1]
        if D % h:
            raise ValueError(f"D={D} не делится на n_heads={h}")
        return np.swapaxes(a.reshape(*a.shape[:-1], h, D // h), -3, -2)

    def merge_heads(a):
        a = np.swapaxes(a, -3, -2)
        return a.reshape(*a.shape[:-2], -1)

    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    # склеиваем головы обратно
    return merge_heads(causal_attention(q, k, v))
""", 'heads-3/no-w-o',
          mistake='Merges the heads but never multiplies by the output projection w_o.', heldout=True),
    Entry('heads-3', 'heldout-045', r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    B, T, D = x.shape
    if D % n_heads != 0:
        raise ValueError("D 必须能被 n_heads 整除")
    d = D // n_heads
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    out = causal_attention(q, k, v)          # (B, H, T, d)
    return out.reshape(B, T, D) @ w_o
""", 'heads-3/reshape-only',
          mistake="Splits and merges the heads with reshape alone, so each head's rows mix different positions and the future leaks into the past.", heldout=True),
    Entry('heads-3', 'heldout-046', r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("D must be divisible by n_heads")
    d = D // n_heads
    outs = []
    for h in range(n_heads):
        s = slice(h * d, (h + 1) * d)
        xh = x[..., s]                       # this head's slice of the input
        q = xh @ w_q[s, s]
        k = xh @ w_k[s, s]
        v = xh @ w_v[s, s]
        outs.append(causal_attention(q, k, v))
    return np.concatenate(outs, axis=-1) @ w_o
""", None,
          mistake='Splits the input before projecting and uses only the diagonal blocks w[s, s] of each matrix, as if a head could only see its own slice of x (agrees with the identity example only).', heldout=True),
    Entry('heads-3', 'heldout-047', r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("D должно делиться на n_heads")
    d = D // n_heads
    def split(a):
        return a.reshape(B, T, n_heads, d).swapaxes(1, 2)
    q, k, v = split(x @ w_q), split(x @ w_k), split(x @ w_v)
    s = q @ k.swapaxes(-1, -2) / np.sqrt(d)
    s -= s.max(axis=-1, keepdims=True)
    p = np.exp(s)
    p /= p.sum(axis=-1, keepdims=True)
    o = (p @ v).swapaxes(1, 2).reshape(B, T, D)
    return o @ w_o
""", 'heads-3/no-mask',
          mistake='Its own attention has no causal mask: every query reads all keys, the future included.', heldout=True),
    Entry('heads-3', 'heldout-048', r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("头数不能整除 D")
    d = D // n_heads
    q = (x @ w_q).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3)
    k = (x @ w_k).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3)
    v = (x @ w_v).reshape(B, T, n_heads, d).transpose(0, 2, 1, 3)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d)
    future = np.triu(np.ones((T, T), dtype=bool), k=1)
    scores[..., future] = -np.inf
    e = np.exp(scores - scores.max(axis=-2, keepdims=True))
    w = e / e.sum(axis=-2, keepdims=True)
    out = (w @ v).transpose(0, 2, 1, 3).reshape(B, T, D)
    return out @ w_o
""", 'heads-3/wrong-axis',
          mistake='Normalises the softmax over axis -2 (the queries) instead of over the keys.', heldout=True),
    Entry('heads-3', 'heldout-049', r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q_all, k_all, v_all = x @ w_q, x @ w_k, x @ w_v
    heads = []
    for q, k, v in zip(np.array_split(q_all, n_heads, axis=-1),
                       np.array_split(k_all, n_heads, axis=-1),
                       np.array_split(v_all, n_heads, axis=-1)):
        heads.append(causal_attention(q, k, v))
    return np.concatenate(heads, axis=-1) @ w_o
""", '*/not-refused',
          mistake='Splits with np.array_split, which accepts uneven chunks, so a width that n_heads does not divide runs instead of raising ValueError.', heldout=True),
    Entry('cost-1', 'heldout-050', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("n_heads must divide width")
    if n_layers < 1:
        raise ValueError("n_layers must be >= 1")
    d = width // n_heads
    size = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = n_layers * batch * length * n_heads * d * size
    return parameters, kv_cache_bytes
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the KV cache (forgets the factor 2 for the values).', heldout=True),
    Entry('cost-1', 'heldout-051', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("ширина не делится на число голов")
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    itemsize = np.dtype(dtype).itemsize
    parameters = 4 * width ** 2 * n_layers
    # ключ и значение для каждого слоя, головы и позиции
    kv_cache_bytes = 2 * n_layers * n_heads * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/cache-full-width',
          mistake='Multiplies the number of heads by the full width D instead of the head width d, so the cache grows with H.', heldout=True),
    Entry('cost-1', 'heldout-052', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("width 不能被 n_heads 整除")
    if n_layers < 1:
        raise ValueError("层数至少为 1")
    d = width // n_heads
    nbytes = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * d     # 每个矩阵 (D, d)
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * nbytes
    return parameters, kv_cache_bytes
""", 'cost-1/head-width-matrices',
          mistake="Counts each projection as (D, d), one head's share, so the parameter count wrongly shrinks as H grows.", heldout=True),
    Entry('cost-1', 'heldout-053', r"""

def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("width must be a multiple of n_heads")
    if n_layers < 1:
        raise ValueError("at least one layer")
    head_width = width // n_heads
    per_number = int(dtype.replace("float", ""))
    parameters = 4 * width * width * n_layers
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * head_width * per_number
    return parameters, kv_cache_bytes
""", 'cost-1/bits',
          mistake='Reads the size from the dtype name in bits (16, 32, 64) and never divides by 8, so the cache is 8 times too large.', heldout=True),
    Entry('cost-1', 'heldout-054', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("ширина должна делиться на число голов")
    if n_layers < 0:
        raise ValueError("число слоёв не может быть отрицательным")
    d = width // n_heads
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/zero-layers',
          mistake='The layer check is n_layers < 0, so zero layers returns (0, 0) instead of raising ValueError.', heldout=True),
    Entry('cost-1', 'heldout-055', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("D 必须能被 H 整除")
    if n_layers < 1:
        raise ValueError("n_layers 至少为 1")
    head_dim = width / n_heads
    params = n_layers * 4 * width * width
    kv = 2 * n_layers * batch * length * n_heads * head_dim * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/float-division',
          mistake='Computes the head width with / instead of //, so the cache size comes back as a float rather than an int.', heldout=True),
    Entry('cost-1', 'heldout-056', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    nbytes = np.dtype(dtype).itemsize
    parameters = 4 * width * width * n_layers
    # H голов по d = D / H чисел: всего D чисел на позицию
    kv_cache_bytes = 2 * n_layers * batch * length * width * nbytes
    return parameters, kv_cache_bytes
""", 'cost-1/indivisible-accepted',
          mistake='Uses H*d = D directly and forgets the divisibility check, so a width that n_heads does not divide is not refused.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('heads-1', 'heldout3-026', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (B, T, H, d) -> (B, H, T, d)
    return heads.transpose(0, 2, 1, 3)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes a 4-axis transpose, so an input without a batch axis (T, D) raises instead of being split.', heldout=True),
    Entry('heads-1', 'heldout3-027', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 交换 T 和 H 两个轴
    return np.swapaxes(heads, 1, 2)
""", 'heads-1/fixed-rank',
          mistake='Swaps axes 1 and 2 counted from the front, which is right only for exactly one leading batch axis.', heldout=True),
    Entry('heads-1', 'heldout3-028', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    T = x.shape[-2]
    # сразу нужная форма (..., H, T, d)
    return x.reshape(*x.shape[:-2], n_heads, T, D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Throws the (T, H, d) array away and reshapes x straight into (..., H, T, d): right shape, features from the wrong time steps.', heldout=True),
    Entry('heads-1', 'heldout3-029', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # put the head axis first
    return np.moveaxis(heads, -2, 0)
""", 'heads-1/one-sequence-only',
          mistake='Moves the head axis to the very front instead of just before the time axis, so batched inputs come out as (H, B, T, d).', heldout=True),
    Entry('heads-1', 'heldout3-030', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 交换两个轴，得到 (..., H, T, d)
    return np.swapaxes(heads, -1, -2)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (H and d) instead of T and H, giving (..., T, d, H).', heldout=True),
    Entry('heads-1', 'heldout3-031', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # делаем непрерывную копию, чтобы потом не было сюрпризов с view
    return np.ascontiguousarray(np.swapaxes(heads, -3, -2)).astype(np.float64)
""", '*/right-values-other-type',
          mistake='Right axis swap, but then copies the result with astype(np.float64), changing the dtype of integer and float32 inputs.', heldout=True),
    Entry('heads-2', 'heldout3-032', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"need (..., H, T, d), got {x.shape}")
    H, T, d = x.shape[-3:]
    return x.reshape(*x.shape[:-3], T, H * d)
""", 'heads-2/reshape-only',
          mistake='Reshapes (..., H, T, d) straight to (..., T, H*d) without moving the head axis back first.', heldout=True),
    Entry('heads-2', 'heldout3-033', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("至少需要三个轴 (H, T, d)")
    # 各个头按顺序拼接到最后一个轴上
    return np.concatenate(list(x), axis=-1)
""", '*/one-rank-only',
          mistake='Concatenates list(x), which splits along the FIRST axis: right for (H, T, d) but wrong as soon as there is a batch axis.', heldout=True),
    Entry('heads-2', 'heldout3-034', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("ожидается (..., H, T, d)")
    y = np.swapaxes(x, -3, -2)                  # (B, T, H, d)
    return y.reshape(x.shape[0], x.shape[2], -1)
""", 'heads-2/fixed-rank',
          mistake='Takes the target shape from x.shape[0] and x.shape[2], which are B and T only for 4-axis input.', heldout=True),
    Entry('heads-2', 'heldout3-035', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got {x.shape}")
    *lead, H, T, d = x.shape
    n = len(lead)
    # move H to the end, next to d
    y = np.transpose(x, (*range(n), n + 1, n + 2, n))
    return y.reshape(*lead, T, H * d)
""", 'heads-2/interleaved',
          mistake='Transposes to (B, T, d, H) before flattening, so the features are interleaved (a*H + h) instead of concatenated head by head.', heldout=True),
    Entry('heads-2', 'heldout3-036', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim != 4:
        raise ValueError(f"输入应为 (B, H, T, d)，实际是 {x.shape}")
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Requires exactly 4 axes, so a valid (H, T, d) input without a batch axis raises ValueError.', heldout=True),
    Entry('heads-2', 'heldout3-037', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("нужно минимум три оси")
    y = np.swapaxes(x, -3, -2)                 # (..., T, H, d)
    return y.reshape(x.shape[:-3] + (-1,))     # склеиваем головы
""", None,
          mistake='Flattens everything after the leading axes into one axis, so the time axis is merged away too: (..., T*H*d).', heldout=True),
    Entry('heads-3', 'heldout3-038', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    out = causal_attention(q, k, v)      # (B, H, T, d)
    return merge_heads(out)              # (B, T, D)
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection w_o and returns the concatenated heads.', heldout=True),
    Entry('heads-3', 'heldout3-039', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    d = x.shape[-1] // n_heads
    # 缩放：除以根号 d
    q = split_heads(x @ w_q, n_heads) / np.sqrt(d)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ w_o
""", '*/scale-by-d',
          mistake='Divides the queries by sqrt(d) itself although causal_attention already scales, so the scores are scaled twice.', heldout=True),
    Entry('heads-3', 'heldout3-040', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # проекции на полную ширину, потом делим на головы
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_q, n_heads)
    v = split_heads(x @ w_v, n_heads)
    y = causal_attention(q, k, v)
    return merge_heads(y) @ w_o
""", '*/weight-for-another',
          mistake='Copy-paste slip: the keys are projected with w_q instead of w_k.', heldout=True),
    Entry('heads-3', 'heldout3-041', answers_above('ex02_heads', 'split_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    q, k, v = (split_heads(x @ w, n_heads) for w in (w_q, w_k, w_v))
    heads = causal_attention(q, k, v)     # (B, H, T, d)
    merged = heads.reshape(x.shape)       # back to (B, T, D)
    return merged @ w_o
""", 'heads-3/merge-reshape-only',
          mistake='Merges the heads with a plain reshape back to x.shape instead of merge_heads, mixing time steps across heads.', heldout=True),
    Entry('heads-3', 'heldout3-042', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)     # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    d = q.shape[-1]
    # 自己写注意力：打分、softmax、加权求和
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    w = w / w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/no-mask',
          mistake='Writes the attention by hand and forgets the causal mask, so every query reads the future.', heldout=True),
    Entry('heads-3', 'heldout3-043', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    T = q.shape[-2]
    mask = np.tril(np.ones((T, T), dtype=bool))
    s = (q @ np.swapaxes(k, -1, -2)) / np.sqrt(D)   # масштаб
    s = np.where(mask, s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Hand-written masked attention that scales the scores by sqrt(D) (the model width) instead of sqrt(d) (the head width).', heldout=True),
    Entry('cost-1', 'heldout3-044', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width is not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")

    d = width // n_heads
    params = 4 * width * width * n_layers
    kv = n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the cache: the factor 2 for keys and values is missing.', heldout=True),
    Entry('cost-1', 'heldout3-045', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width is not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")

    d = width // n_heads
    nbytes = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width ** 2
    # K 和 V 各一份：2 × B × T × H × d
    kv_cache_bytes = 2 * batch * length * n_heads * d * nbytes
    return parameters, kv_cache_bytes
""", 'cost-1/one-layer-cache',
          mistake='Forgets to multiply the cache size by the number of layers.', heldout=True),
    Entry('cost-1', 'heldout3-046', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width is not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")

    itemsize = np.dtype(dtype).itemsize
    parameters = 4 * width * width * n_layers
    # у каждой головы свои ключи и значения
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/cache-full-width',
          mistake='Multiplies the full width D by the number of heads again, so the cache grows with H although H*d = D.', heldout=True),
    Entry('cost-1', 'heldout3-047', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width is not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")

    head_width = width // n_heads
    parameters = n_layers * 3 * width * width   # Q, K, V projections
    kv_cache_bytes = (2 * n_layers * batch * length * n_heads * head_width
                      * np.dtype(dtype).itemsize)
    return parameters, kv_cache_bytes
""", 'cost-1/three-matrices',
          mistake='Counts three projection matrices per layer (W_Q, W_K, W_V) and forgets W_O.', heldout=True),
    Entry('cost-1', 'heldout3-048', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("D 不能被 H 整除")
    d = width // n_heads
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/zero-layers',
          mistake='Never checks n_layers, so zero or negative layers return numbers instead of raising ValueError.', heldout=True),
    Entry('cost-1', 'heldout3-049', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width is not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")

    size = np.finfo(dtype).bits          # размер одного числа
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * width * size
    return parameters, kv_cache_bytes
""", 'cost-1/bits',
          mistake='Uses np.finfo(dtype).bits, the size in bits, so the cache comes out 8 times too large.', heldout=True),
    Entry('cost-1', 'heldout3-050', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if n_layers < 1:
        raise ValueError("n_layers must be >= 1")
    d = width // n_heads              # head width
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return int(parameters), int(kv_cache_bytes)
""", 'cost-1/indivisible-accepted',
          mistake='Rounds the head width down with // and never raises when n_heads does not divide width, so the cache is undercounted.', heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('heads-1', 'heldout4-026', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    T = x.shape[-2]
    # (..., H, T, d)
    return x.reshape(*x.shape[:-2], n_heads, T, D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes straight into (..., H, T, d) without swapping axes, so rows of a head mix different time steps.', heldout=True),
    Entry('heads-1', 'heldout4-027', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (B, T, H, d) -> (B, H, T, d)
    return heads.transpose(0, 2, 1, 3)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes a 4-D transpose (0, 2, 1, 3), which fails for an input without a batch axis or with more than one leading axis.', heldout=True),
    Entry('heads-1', 'heldout4-028', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # меняем местами ось времени и ось голов
    return np.swapaxes(heads, 1, 2)
""", 'heads-1/fixed-rank',
          mistake='Swaps axes 1 and 2 (positive numbers), which is only right for exactly one leading batch axis.', heldout=True),
    Entry('heads-1', 'heldout4-029', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -2, -1)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (head and head width) instead of the time and head axes.', heldout=True),
    Entry('heads-1', 'heldout4-030', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 转成连续的浮点数组，后面矩阵乘法更快
    return np.ascontiguousarray(np.swapaxes(heads, -3, -2)).astype(float)
""", '*/right-values-other-type',
          mistake='Converts the result to float with astype(float), changing the dtype (integer or float32 inputs come back as float64).', heldout=True),
    Entry('heads-1', 'heldout4-031', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # ось голов вперёд
    return np.moveaxis(heads, -2, 0)
""", 'heads-1/one-sequence-only',
          mistake='Moves the head axis to the very front with moveaxis(-2, 0), which is only right when there is no batch axis.', heldout=True),
    Entry('heads-2', 'heldout4-032', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"expected (..., H, T, d), got {x.shape}")
    H, T, d = x.shape[-3:]
    return x.reshape(*x.shape[:-3], T, H * d)
""", 'heads-2/reshape-only',
          mistake='Reshapes (..., H, T, d) straight to (..., T, H*d) without moving the head axis back first.', heldout=True),
    Entry('heads-2', 'heldout4-033', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("至少需要三个轴 (..., H, T, d)")
    # 按头的顺序拼接
    return np.concatenate(list(x), axis=-1)
""", '*/one-rank-only',
          mistake='Concatenates list(x), which iterates over the first axis: right for (H, T, d) but with a batch axis it concatenates sequences instead of heads.', heldout=True),
    Entry('heads-2', 'heldout4-034', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("нужно (..., H, T, d)")
    B, H, T, d = x.shape
    return np.swapaxes(x, 1, 2).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Hard-codes a 4-D input (swapaxes(1, 2) and x.shape[0]), so (H, T, d) or 5-D inputs fail or come out wrong.', heldout=True),
    Entry('heads-2', 'heldout4-035', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    # (..., H, T, d) -> (..., T, d, H) -> (..., T, D)
    moved = np.moveaxis(x, -3, -1)
    return moved.reshape(*moved.shape[:-2], -1)
""", 'heads-2/interleaved',
          mistake='Transposes to (..., T, d, H) before flattening, so the features are interleaved (feature a*H + h) instead of concatenated head by head.', heldout=True),
    Entry('heads-2', 'heldout4-036', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    H = x.shape[-3]
    # 逐个头拼接到特征轴上
    return np.concatenate([x[..., h, :, :] for h in range(H)], axis=-1)
""", '*/not-refused',
          mistake='Has no check for fewer than three axes; a 2-D or 1-D input fails with an IndexError instead of the required ValueError.', heldout=True),
    Entry('heads-3', 'heldout4-037', r"""
import numpy as np
from lib.attention import causal_attention
# the notebook's answers above this cell, as solved (the measurement defined them so)

def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)

def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
# the learner's cell
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    # concatenating the heads is the output
    return merge_heads(causal_attention(q, k, v))
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection w_o: returns the merged heads as they are.', heldout=True),
    Entry('heads-3', 'heldout4-038', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)

def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
# the learner's cell
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    T = q.shape[-2]
    # 缩放因子
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Writes its own attention and scales the scores by sqrt(D), the full width, instead of sqrt(d) of one head.', heldout=True),
    Entry('heads-3', 'heldout4-039', r"""
import numpy as np
from lib.attention import causal_attention
# the notebook's answers above this cell, as solved (the measurement defined them so)

def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
# the learner's cell
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("D не делится на число голов")
    d = D // n_heads
    # (B, T, D) -> (B, H, T, d)
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o
""", 'heads-3/reshape-only',
          mistake='Splits the projections with a bare reshape to (B, H, T, d), mixing time steps inside a head.', heldout=True),
    Entry('heads-3', 'heldout4-040', r"""
import numpy as np
# the notebook's answers above this cell, as solved (the measurement defined them so)

def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)

def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
# the learner's cell
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q, k, v = (split_heads(x @ w, n_heads) for w in (w_q, w_k, w_v))
    d = q.shape[-1]
    s = np.einsum("bhid,bhjd->bhij", q, k) / np.sqrt(d)
    s = s - s.max(axis=-1, keepdims=True)
    a = np.exp(s)
    a /= a.sum(axis=-1, keepdims=True)
    out = np.einsum("bhij,bhjd->bhid", a, v)
    return merge_heads(out) @ w_o
""", 'heads-3/no-mask',
          mistake="Leaves out the causal mask: every head's softmax runs over all keys, future ones included.", heldout=True),
    Entry('heads-3', 'heldout4-041', r"""
import numpy as np
from lib.attention import causal_attention
# the notebook's answers above this cell, as solved (the measurement defined them so)

def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)

def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
# the learner's cell
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # 投影：W x
    q = split_heads(x @ w_q.T, n_heads)
    k = split_heads(x @ w_k.T, n_heads)
    v = split_heads(x @ w_v.T, n_heads)
    y = causal_attention(q, k, v)
    return merge_heads(y) @ w_o.T
""", '*/transposed-weights',
          mistake='Uses the column-vector convention, multiplying by the transposed matrices (x @ w.T), which is a different layer.', heldout=True),
    Entry('heads-3', 'heldout4-042', r"""
import numpy as np
from lib.attention import causal_attention
# the notebook's answers above this cell, as solved (the measurement defined them so)

def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -3, -2)  # (..., H, T, d)

def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(
            f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                    # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)  # (..., T, H*d)
# the learner's cell
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)     # (B, H, T, d)
    k = split_heads(x @ w_q, n_heads)     # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)     # (B, H, T, d)
    return merge_heads(causal_attention(q, k, v)) @ w_o
""", '*/weight-for-another',
          mistake='Copy-paste slip: the keys are projected with w_q instead of w_k.', heldout=True),
    Entry('cost-1', 'heldout4-043', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width must be divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    params = n_layers * 4 * width * width
    cache = n_layers * batch * length * n_heads * d * itemsize   # one vector per position
    return params, cache
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the cache: the factor 2 for the values is missing.', heldout=True),
    Entry('cost-1', 'heldout4-044', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("参数不合法")
    itemsize = np.dtype(dtype).itemsize
    parameters = 4 * width * width * n_layers
    # 键和值，各 d 个数
    kv_cache_bytes = 2 * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/one-layer-cache',
          mistake='Forgets to multiply the cache size by the number of layers.', heldout=True),
    Entry('cost-1', 'heldout4-045', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("D не делится на H")
    if n_layers < 1:
        raise ValueError("слоёв должно быть не меньше одного")
    size = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width ** 2
    # ключ и значение для каждой головы
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * width * size
    return parameters, kv_cache_bytes
""", 'cost-1/cache-full-width',
          mistake='Stores D numbers per head instead of d = D/H, so the cache grows with the number of heads.', heldout=True),
    Entry('cost-1', 'heldout4-046', r"""
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"{width} % {n_heads} != 0")
    if n_layers < 1:
        raise ValueError("n_layers < 1")
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * width * 4   # float32
    return parameters, kv_cache_bytes
""", 'cost-1/fixed-itemsize',
          mistake='Hard-codes 4 bytes per number, ignoring dtype (float16 and float64 come out wrong).', heldout=True),
    Entry('cost-1', 'heldout4-047', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("宽度不能被头数整除")
    if n_layers < 1:
        raise ValueError("层数至少为 1")
    d = width / n_heads
    nbytes = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * nbytes
    return parameters, kv_cache_bytes
""", 'cost-1/float-division',
          mistake='Divides with / so the head width is a float and the cache size comes back as a float, not an int.', heldout=True),
    Entry('cost-1', 'heldout4-048', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("D должно делиться на H")
    d = width // n_heads
    b = np.dtype(dtype).itemsize
    return 4 * width * width * n_layers, 2 * n_layers * batch * length * n_heads * d * b
""", 'cost-1/zero-layers',
          mistake='Does not refuse a number of layers below 1: zero layers give (0, 0) instead of ValueError.', heldout=True),
    Entry('cost-1', 'heldout4-049', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("n_layers must be >= 1")
    # W_Q, W_K, W_V
    parameters = 3 * width * width * n_layers
    kv = 2 * n_layers * batch * length * width * np.dtype(dtype).itemsize
    return parameters, kv
""", 'cost-1/three-matrices',
          mistake='Counts three projection matrices per layer and forgets W_O.', heldout=True),
    Entry('heads-1', 'heldout4-145', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, d, H) -> (..., H, T, d)
    parts = x.reshape(*x.shape[:-1], D // n_heads, n_heads)
    return np.moveaxis(parts, -1, -3)
""", 'heads-1/interleaved',
          mistake='Reshapes the last axis to (d, H) instead of (H, d), so head h gets the interleaved features h, h+H, … instead of the block h*d … h*d+d-1.', heldout=True),
    Entry('heads-2', 'heldout4-146', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("нужно минимум три оси: (..., H, T, d)")
    y = np.swapaxes(x, -3, -2)                  # (..., T, H, d)
    return y.reshape(*y.shape[:-3], -1)
""", None,
          mistake='Flattens one axis too many in the final reshape, so the time axis is merged into the features and the result is (..., T*H*d).', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('heads-1', 'heldout5-029', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.reshape(*x.shape[:-2], n_heads, x.shape[-2], D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes a second time into (..., H, T, d) instead of swapping axes, which mixes the time axis with the head axis.', heldout=True),
    Entry('heads-1', 'heldout5-030', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (B, T, H, d) -> (B, H, T, d)
    return np.transpose(heads, (0, 2, 1, 3))
""", 'heads-1/fixed-rank',
          mistake='Uses np.transpose with the fixed axis order (0, 2, 1, 3), which only works for a batched 3-D input and fails on (T, D).', heldout=True),
    Entry('heads-1', 'heldout5-031', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 交换 T 和 H
    return heads.swapaxes(1, 2)
""", 'heads-1/fixed-rank',
          mistake='Swaps the positive axes 1 and 2, which is right for (B, T, D) but swaps H and d for an unbatched (T, D) input and the wrong axes for two leading axes.', heldout=True),
    Entry('heads-1', 'heldout5-032', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -2, -1)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (H and d) instead of T and H.', heldout=True),
    Entry('heads-1', 'heldout5-033', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.transpose()
""", 'heads-1/all-axes-reversed',
          mistake='Calls .transpose() without arguments, which reverses every axis (also the batch axis) instead of swapping T and H.', heldout=True),
    Entry('heads-1', 'heldout5-034', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # 每个头取间隔的特征
    heads = x.reshape(*x.shape[:-1], D // n_heads, n_heads)   # (..., T, d, H)
    return np.moveaxis(heads, -1, -3)                           # (..., H, T, d)
""", 'heads-1/interleaved',
          mistake='Rewrites the split as (..., T, d, H), so head h takes the interleaved features a·H + h instead of the block h·d … h·d + d − 1.', heldout=True),
    Entry('heads-2', 'heldout5-035', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    *lead, H, T, d = x.shape
    return x.reshape(*lead, T, H * d)
""", 'heads-2/reshape-only',
          mistake='Merges by reshape alone, without moving the head axis back behind the time axis.', heldout=True),
    Entry('heads-2', 'heldout5-036', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("нужно (..., H, T, d)")
    *lead, H, T, d = x.shape
    out = np.zeros((*lead, T, H * d))
    for h in range(H):
        # голова h занимает столбцы h*d … h*d+d-1
        out[..., h * d:(h + 1) * d] = x[..., h, :, :]
    return out
""", '*/right-values-other-type',
          mistake='Fills a preallocated np.zeros buffer head by head, so the result is always float64 and integer heads come back as floats.', heldout=True),
    Entry('heads-2', 'heldout5-037', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("输入至少要三维")
    H = x.shape[-3]
    # 把每个头拼接到最后一维
    return np.concatenate([x[..., h, :, :] for h in range(H - 1, -1, -1)], axis=-1)
""", 'heads-2/reversed',
          mistake='Concatenates the heads in reverse order.', heldout=True),
    Entry('heads-2', 'heldout5-038', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    y = np.swapaxes(x, -2, -1)
    return y.reshape(*y.shape[:-2], -1)
""", 'heads-2/other-axes',
          mistake='Swaps the last two axes (T and d) before flattening, so the result has shape (..., H, T·d).', heldout=True),
    Entry('heads-2', 'heldout5-039', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("нужно (..., H, T, d)")
    # склеиваем головы по порядку
    return np.hstack([x[..., h, :, :] for h in range(x.shape[-3])])
""", '*/one-rank-only',
          mistake='Concatenates the heads with np.hstack, which joins along axis 1: right for (H, T, d) but along the time axis once there is a batch axis.', heldout=True),
    Entry('heads-2', 'heldout5-040', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim != 4:
        raise ValueError("merge_heads expects (B, H, T, d)")
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Requires exactly four axes (x.ndim != 4 raises), so a valid 3-D or 5-D input is refused.', heldout=True),
    Entry('heads-3', 'heldout5-041', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    return merge_heads(causal_attention(q, k, v))
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection w_o and returns the merged heads directly.', heldout=True),
    Entry('heads-3', 'heldout5-042', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    xs = split_heads(x, n_heads)            # (B, H, T, d)
    d = x.shape[-1] // n_heads
    outs = []
    for h in range(n_heads):
        s = slice(h * d, (h + 1) * d)
        # 每个头用自己的一块权重
        q, k, v = xs[:, h] @ w_q[s, s], xs[:, h] @ w_k[s, s], xs[:, h] @ w_v[s, s]
        outs.append(causal_attention(q, k, v))
    return merge_heads(np.stack(outs, axis=1)) @ w_o
""", None,
          mistake='Gives each head only its diagonal d×d block of W_Q, W_K, W_V instead of projecting at full width and then splitting.', heldout=True),
    Entry('heads-3', 'heldout5-043', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ w_q, n_heads) / np.sqrt(D)   # масштаб
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ w_o
""", None,
          mistake='Divides the queries by √D on top of the √d scaling that causal_attention already applies.', heldout=True),
    Entry('heads-3', 'heldout5-044', answers_above('ex02_heads', 'split_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)       # (B, H, T, d)
    return heads.reshape(B, T, D) @ w_o
""", 'heads-3/merge-reshape-only',
          mistake='Merges the heads with a plain reshape to (B, T, D) instead of merge_heads, mixing positions and heads.', heldout=True),
    Entry('heads-3', 'heldout5-045', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    a = np.exp(s - s.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)      # softmax
    return merge_heads(a @ v) @ w_o
""", 'heads-3/no-mask',
          mistake='Writes its own attention with a softmax over all keys and no causal mask.', heldout=True),
    Entry('heads-3', 'heldout5-046', answers_above('ex02_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    x = np.asarray(x)
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("D не делится на n_heads")
    d = D // n_heads
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    return merge_heads(causal_attention(q, k, v)) @ w_o
""", 'heads-3/reshape-only',
          mistake="Splits the projections with reshape alone into (B, H, T, d), the bug of the set's first cell.", heldout=True),
    Entry('heads-3', 'heldout5-047', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q, k, v = (split_heads(x @ w, n_heads) for w in (w_q, w_k, w_v))
    out = merge_heads(causal_attention(q, k, v))
    return out @ w_o.T
""", '*/transposed-weights',
          mistake='Multiplies by w_o.T (column-vector habit) instead of w_o.', heldout=True),
    Entry('cost-1', 'heldout5-048', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad configuration")
    d = width // n_heads
    params = 4 * width * width * n_layers
    kv = n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the KV cache (no factor 2 for the values).', heldout=True),
    Entry('cost-1', 'heldout5-049', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("D не делится на H")
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    size = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width ** 2
    kv_cache_bytes = 2 * batch * length * width * size   # ключи и значения
    return parameters, kv_cache_bytes
""", 'cost-1/one-layer-cache',
          mistake='Forgets to multiply the cache size by the number of layers.', heldout=True),
    Entry('cost-1', 'heldout5-050', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("配置无效")
    parameters = n_layers * 3 * width * width   # Q, K, V
    kv_cache_bytes = 2 * n_layers * batch * length * width * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/three-matrices',
          mistake='Counts only W_Q, W_K and W_V (3·D² per layer), forgetting W_O.', heldout=True),
    Entry('cost-1', 'heldout5-051', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("width not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")
    itemsize = np.dtype(dtype).itemsize
    parameters = 4 * width * width * n_layers
    # every head keeps a key and a value vector
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/cache-full-width',
          mistake='Stores D numbers per head instead of d = D/H, so the cache grows with the number of heads.', heldout=True),
    Entry('cost-1', 'heldout5-052', r"""

def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("неверные параметры")
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * width * 4  # float32
    return parameters, kv_cache_bytes
""", 'cost-1/fixed-itemsize',
          mistake='Hard-codes 4 bytes per number, ignoring the dtype argument.', heldout=True),
    Entry('cost-1', 'heldout5-053', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0 or n_layers < 1:
        raise ValueError("配置无效")
    d = width / n_heads
    parameters = 4 * width * width * n_layers
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/float-division',
          mistake='Computes the head width with true division, so the byte count comes back as a float instead of an int.', heldout=True),
    Entry('cost-1', 'heldout5-054', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError(f"{width} is not divisible by {n_heads}")
    d = width // n_heads
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/zero-layers',
          mistake='Never checks n_layers, so 0 or a negative number of layers returns numbers instead of raising ValueError.', heldout=True),
    Entry('cost-1', 'heldout5-055', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("неверная конфигурация")
    d = width // n_heads
    parameters = n_layers * n_heads * 4 * d * d   # у каждой головы свои матрицы
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/head-width-matrices',
          mistake='Gives each head its own four d×d matrices, counting 4·D²/H parameters per layer instead of 4·D².', heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('heads-1', 'r8-017', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    if x.shape[-1] % n_heads:
        raise ValueError("not divisible")
    return np.stack(np.split(x, n_heads, axis=-1), axis=0)
""", 'heads-1/one-sequence-only',
          mistake='Splits with np.split and stacks on axis 0: right for (T, D) only.', probe=True),
    Entry('heads-1', 'r8-018', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -3, -2).astype(np.float32)
""", '*/right-values-other-type',
          mistake='Always returns float32.', probe=True),
    Entry('heads-1', 'r8-019', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    heads = x.reshape(*x.shape[:-1], D // n_heads, n_heads)
    heads = np.swapaxes(heads, -1, -2)
    return np.swapaxes(heads, -3, -2)
""", 'heads-1/interleaved',
          mistake='Takes the head width as n_heads and the count as D // n_heads (reshape to (..., T, d, H) then swaps).', probe=True),
    Entry('heads-2', 'r8-020', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    return np.concatenate(list(x), axis=-1)
""", '*/one-rank-only',
          mistake='Concatenates list(x) on the last axis: right for (H, T, d) only.', probe=True),
    Entry('heads-2', 'r8-021', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    y = np.swapaxes(x, -3, -1)
    return y.reshape(*y.shape[:-2], -1)
""", None,
          mistake='Swaps axes -3 and -1 instead of -3 and -2 before reshaping.', probe=True),
    Entry('heads-2', 'r8-022', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    y = np.moveaxis(x, -3, -2) if x.ndim >= 3 else x
    return y.reshape(*y.shape[:-2], -1)
""", '*/not-refused',
          mistake='Right, but a 2-D input is not refused (reshape goes through) and the shape check is missing.', probe=True),
    Entry('heads-3', 'r8-023', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ w_o + x
""", None,
          mistake='Adds the input as a residual: merge_heads(...) @ w_o + x.', probe=True),
    Entry('heads-3', 'r8-024', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    T = q.shape[-2]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Writes attention by hand, scaling by sqrt(D) (the model width) instead of sqrt(d).', probe=True),
    Entry('heads-3', 'r8-025', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    d = q.shape[-1]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/no-mask',
          mistake='Writes attention by hand and forgets the mask (every query reads the future).', probe=True),
    Entry('heads-3', 'r8-026', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    d, T = q.shape[-1], q.shape[-2]
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    w = np.exp(s - s.max(axis=-2, keepdims=True))
    w /= w.sum(axis=-2, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/wrong-axis',
          mistake='Hand-written attention with the softmax over the query axis (-2) instead of the key axis.', probe=True),
    Entry('heads-3', 'r8-027', r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    *lead, T, D = x.shape
    d = D // n_heads
    q = (x @ w_q).reshape(*lead, n_heads, T, d)
    k = (x @ w_k).reshape(*lead, n_heads, T, d)
    v = (x @ w_v).reshape(*lead, n_heads, T, d)
    return causal_attention(q, k, v).reshape(*lead, T, D) @ w_o
""", 'heads-3/reshape-only',
          mistake='Splits the heads with a plain reshape (no transpose) and merges with a plain reshape: right for 1 head only.', probe=True),
    Entry('cost-1', 'r8-028', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad configuration")
    itemsize = np.dtype(dtype).itemsize
    params = n_layers * (4 * width * width + 4 * width)
    kv = 2 * n_layers * batch * length * width * itemsize
    return params, kv
""", None,
          mistake='Counts biases too: 4 D^2 + 4 D parameters per layer.', probe=True),
    Entry('cost-1', 'r8-029', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad configuration")
    params = n_layers * 4 * width * width
    kv = 2 * n_layers * batch * length * width * 4
    return params, kv
""", 'cost-1/fixed-itemsize',
          mistake='Hard-codes 4 bytes per number (float32), whatever the dtype.', probe=True),
    Entry('cost-1', 'r8-030', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad configuration")
    params = n_layers * 4 * width * width
    kv = 2 * n_layers * batch * length * n_heads * width * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/cache-full-width',
          mistake='Counts the KV cache per head as D wide (H times too much).', probe=True),
    Entry('cost-1', 'r8-031', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("bad configuration")
    params = n_layers * 4 * width * width
    kv = 2 * n_layers * batch * length * width * np.dtype(dtype).itemsize / 1
    return params, kv
""", 'cost-1/zero-layers',
          mistake='Forgets the n_layers check, and returns the bytes as a float (/ 1).', probe=True),
    Entry('cost-1', 'r8-090', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad configuration")
    params = n_layers * 4 * width * width
    kv = 2 * n_layers * batch * length * width * np.dtype(dtype).itemsize
    return kv, params
""", '*/results-swapped',
          mistake='Returns (kv_cache_bytes, parameters): the two results in the wrong order.', probe=True),
    Entry('heads-3', 'r8-106', answers_above('ex02_heads', 'split_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    d = heads.shape[-1]
    out = 0
    for h in range(n_heads):
        out = out + heads[..., h, :, :] @ w_o[h * d:(h + 1) * d]
    return out / n_heads
""", '*/constant-factor',
          mistake='Multiplies by w_o before merging, per head with the full w_o (shape error unless H = 1), then sums heads.', probe=True),
    Entry('heads-1', 'r8-115', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.moveaxis(heads, -2, 0)
""", 'heads-1/one-sequence-only',
          mistake='Moves the heads axis to the front (np.moveaxis(heads, -2, 0)): right for (T, D) only.', probe=True),
    Entry('heads-2', 'r8-122', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    y = np.swapaxes(x, -3, -2)
    return y.reshape(*y.shape[:-2], -1, order="F")
""", 'heads-2/interleaved',
          mistake="Merges with the heads in the last position but reshapes (..., H, T, d) with order='F'.", probe=True),
    Entry('cost-1', 'r8-123', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad configuration")
    params = n_layers * 3 * width * width
    kv = 2 * n_layers * batch * length * width * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/three-matrices',
          mistake='Parameters counted as 3 D^2 (forgot W_O) and the cache right.', probe=True),
    # ---- round 9 of issue 34: kinds the development set dev7 showed (r9-*: written here; dev7-NNN: that set's answers) ----
    bug('heads-1', 'r9-transpose-without-axes', 'all-axes-reversed', 'heads-1/all-axes-reversed'),
    Entry('heads-1', 'r9-dot-T', """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    return x.reshape(*x.shape[:-1], n_heads, D // n_heads).T
""", 'heads-1/all-axes-reversed'),
    Entry('heads-3', 'r9-values-from-the-keys', answers_above('ex02_heads', 'split_heads', 'merge_heads') + """
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q, k = split_heads(x @ w_q, n_heads), split_heads(x @ w_k, n_heads)
    return merge_heads(causal_attention(q, k, k)) @ w_o
""", '*/weight-for-another'),
    Entry('heads-1', 'dev7-033', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.transpose(heads)
""", 'heads-1/all-axes-reversed',
          mistake='Uses np.transpose without axes, which reverses all axes including the batch axis.'),
    Entry('heads-3', 'dev7-046', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)   # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_k, n_heads)
    return merge_heads(causal_attention(q, k, v)) @ w_o
""", '*/weight-for-another',
          mistake='Uses w_k for the values as well (copy-paste slip).'),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('heads-1', 'heldout7-033', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    T = x.shape[-2]
    return x.reshape(*x.shape[:-2], n_heads, T, D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes straight to (..., H, T, d) without moving the head axis, so heads mix positions.', heldout=True),
    Entry('heads-1', 'heldout7-034', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (B, T, H, d) -> (B, H, T, d)
    return heads.transpose(0, 2, 1, 3)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes transpose(0, 2, 1, 3), which only works for a 3-D (B, T, D) input.', heldout=True),
    Entry('heads-1', 'heldout7-035', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 交换轴，把头放到前面
    return np.swapaxes(heads, -2, -1)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes instead of the head and position axes, giving (..., T, d, H).', heldout=True),
    Entry('heads-1', 'heldout7-036', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # (..., T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.T
""", 'heads-1/all-axes-reversed',
          mistake='Uses .T, which reverses every axis including the batch axis.', heldout=True),
    Entry('heads-1', 'heldout7-037', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads
    # (..., T, d, H) 再把 H 移到 T 前面
    heads = x.reshape(*x.shape[:-1], d, n_heads)
    return np.moveaxis(heads, -1, -3)
""", 'heads-1/interleaved',
          mistake='Splits D as (d, H) instead of (H, d), so each head takes every H-th feature.', heldout=True),
    Entry('heads-1', 'heldout7-038', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    # режем признаки на H кусков и складываем головы
    return np.stack(np.split(x, n_heads, axis=-1))
""", 'heads-1/one-sequence-only',
          mistake='Stacks the head slices on axis 0, so the head axis goes in front of the batch axis.', heldout=True),
    Entry('heads-2', 'heldout7-040', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("expected (..., H, T, d)")
    H, T, d = x.shape[-3:]
    return x.reshape(*x.shape[:-3], T, H * d)
""", 'heads-2/reshape-only',
          mistake='Reshapes (..., H, T, d) straight to (..., T, H*d) without moving the head axis back.', heldout=True),
    Entry('heads-2', 'heldout7-041', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("需要 (..., H, T, d)")
    # 把每个头按特征维拼接
    return np.concatenate(list(x), axis=-1)
""", '*/one-rank-only',
          mistake='Concatenates over the first axis, which is the batch axis for batched input, not the head axis.', heldout=True),
    Entry('heads-2', 'heldout7-042', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("ожидается (..., H, T, d)")
    y = np.swapaxes(x, -2, -1)
    return y.reshape(*x.shape[:-3], x.shape[-2], -1)
""", None,
          mistake='Swaps the last two axes (T and d) instead of H and T before reshaping.', heldout=True),
    Entry('heads-2', 'heldout7-043', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("merge_heads expects (..., H, T, d)")
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Hard-codes transpose(0, 2, 1, 3), which fails for unbatched (H, T, d) input.', heldout=True),
    Entry('heads-2', 'heldout7-044', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("输入至少三维")
    H, d = x.shape[-3], x.shape[-1]
    y = np.swapaxes(x, -3, -2)          # (..., T, H, d)
    return y.reshape(-1, H * d)
""", '*/one-rank-only',
          mistake='Reshapes to (-1, H*d), flattening all batch axes into the position axis.', heldout=True),
    Entry('heads-2', 'heldout7-045', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("ожидается (..., H, T, d)")
    y = np.moveaxis(x, -3, -1)          # (..., T, d, H)
    return y.reshape(*y.shape[:-2], -1)
""", 'heads-2/interleaved',
          mistake='Moves the head axis to the end, so the merged features are interleaved (d, H) instead of head by head.', heldout=True),
    Entry('heads-3', 'heldout7-047', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    return merge_heads(causal_attention(q, k, v))
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection W_O.', heldout=True),
    Entry('heads-3', 'heldout7-048', r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # 投影后直接做因果注意力
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    return causal_attention(q, k, v) @ w_o
""", '*/single-head',
          mistake='Never splits into heads: runs one attention over the full width D.', heldout=True),
    Entry('heads-3', 'heldout7-049', r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    d = D // n_heads
    # (B, T, D) -> (B, H, T, d)
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    out = causal_attention(q, k, v)
    return out.reshape(B, T, D) @ w_o
""", 'heads-3/reshape-only',
          mistake='Splits heads with a bare reshape to (B, H, T, d) and merges with a bare reshape, mixing positions across heads.', heldout=True),
    Entry('heads-3', 'heldout7-050', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    T = q.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Scales the scores by sqrt(D) instead of sqrt(d), the head width.', heldout=True),
    Entry('heads-3', 'heldout7-051', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    d = q.shape[-1]
    # 缩放点积注意力
    s = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    s = s - s.max(axis=-1, keepdims=True)
    p = np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True)
    return merge_heads(p @ v) @ w_o
""", 'heads-3/no-mask',
          mistake='Writes the softmax by hand but forgets the causal mask, so every query reads the future.', heldout=True),
    Entry('heads-3', 'heldout7-052', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_q, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o
""", '*/weight-for-another',
          mistake='Copy-paste slip: the keys are projected with W_Q instead of W_K.', heldout=True),
    Entry('heads-3', 'heldout7-053', answers_above('ex02_heads', 'split_heads') + r"""
import numpy as np
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)            # (B, H, T, d)
    d = heads.shape[-1]
    # каждая голова через W_O, потом сумма по головам
    return (heads @ w_o[:d]).sum(axis=1)
""", None,
          mistake='Applies W_O to each head separately using only its first d rows, instead of to the merged heads.', heldout=True),
    Entry('cost-1', 'heldout7-055', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads:
        raise ValueError("width must be divisible by n_heads")
    if n_layers < 1:
        raise ValueError("need at least one layer")
    d = width // n_heads
    params = 4 * width * width * n_layers
    kv = n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the cache, forgetting the factor 2 for the values.', heldout=True),
    Entry('cost-1', 'heldout7-056', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("D не делится на H")
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    d = width // n_heads
    params = n_layers * 4 * width ** 2
    # K и V: слои × батч × позиции × ширина головы × байты
    kv = 2 * n_layers * batch * length * d * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/one-head-cache',
          mistake='Uses the head width d instead of n_heads * d for the cached vectors.', heldout=True),
    Entry('cost-1', 'heldout7-057', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width 不能被 n_heads 整除")
    if n_layers < 1:
        raise ValueError("层数至少为 1")
    # Q、K、V 三个投影矩阵
    parameters = n_layers * 3 * width * width
    kv = 2 * n_layers * batch * length * width * np.dtype(dtype).itemsize
    return parameters, kv
""", 'cost-1/three-matrices',
          mistake='Counts only W_Q, W_K and W_V and forgets W_O in the parameters.', heldout=True),
    Entry('cost-1', 'heldout7-058', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width 不能被 n_heads 整除")
    if n_layers < 1:
        raise ValueError("层数至少为 1")
    d = width // n_heads
    # 每个投影矩阵是 D×d
    parameters = n_layers * 4 * width * d
    kv = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv
""", 'cost-1/head-width-matrices',
          mistake='Counts each projection as D x d (one head) instead of D x D.', heldout=True),
    Entry('cost-1', 'heldout7-059', r"""

def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width not divisible by n_heads")
    if n_layers < 1:
        raise ValueError("n_layers must be >= 1")
    parameters = n_layers * 4 * width * width
    bytes_per_number = 4   # float32
    kv_cache_bytes = 2 * n_layers * batch * length * width * bytes_per_number
    return parameters, kv_cache_bytes
""", 'cost-1/fixed-itemsize',
          mistake='Hard-codes 4 bytes per number, ignoring the dtype.', heldout=True),
    Entry('cost-1', 'heldout7-060', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("ширина не делится на число голов")
    if n_layers < 1:
        raise ValueError("слоёв должно быть >= 1")
    item = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    # кэш: K и V для каждой позиции каждой последовательности
    kv_cache_bytes = 2 * batch * length * width * item
    return parameters, kv_cache_bytes
""", 'cost-1/one-layer-cache',
          mistake='Forgets to multiply the cache size by the number of layers.', heldout=True),
    Entry('cost-1', 'heldout7-061', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    itemsize = np.dtype(dtype).itemsize
    parameters = 4 * width * width * n_layers
    kv_cache_bytes = 2 * n_layers * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", ('cost-1/zero-layers', 'cost-1/indivisible-accepted'),
          mistake='Skips the input checks, so a width not divisible by n_heads or zero layers is accepted.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('heads-1', 'dev8-033', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.reshape(*x.shape[:-2], n_heads, x.shape[-2], D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes (..., T, H, d) straight into (..., H, T, d) instead of swapping axes, which scrambles positions across heads.'),
    Entry('heads-1', 'dev8-034', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 交换 T 和 H
    return np.swapaxes(heads, 1, 2)
""", 'heads-1/fixed-rank',
          mistake='Swaps fixed axes 1 and 2, which is only right for a 3-D input with one batch axis; without a batch axis or with more it swaps the wrong axes.'),
    Entry('heads-1', 'dev8-035', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (B, T, H, d) -> (B, H, T, d)
    return heads.transpose(0, 2, 1, 3)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes a 4-D transpose, so inputs without exactly one batch axis fail.'),
    Entry('heads-1', 'dev8-036', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads
    heads = x.reshape(*x.shape[:-1], d, n_heads)
    return np.moveaxis(heads, -1, -3)
""", 'heads-1/interleaved',
          mistake='Splits the features as (d, H) instead of (H, d), so each head takes every H-th feature rather than a contiguous block.'),
    Entry('heads-1', 'dev8-037', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    d = D // n_heads
    heads = x[..., : n_heads * d].reshape(*x.shape[:-1], n_heads, d)
    return np.swapaxes(heads, -3, -2)
""", '*/not-refused',
          mistake='Does not raise when D is not divisible by n_heads; it silently drops the leftover features.'),
    Entry('heads-1', 'dev8-038', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -2, -1)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (H and d) instead of T and H, giving (..., T, d, H).'),
    Entry('heads-2', 'dev8-040', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    return x.reshape(*x.shape[:-3], x.shape[-2], -1)
""", 'heads-2/reshape-only',
          mistake='Reshapes (..., H, T, d) straight to (..., T, H*d) without first swapping H and T, mixing positions.'),
    Entry('heads-2', 'dev8-041', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    # (B, H, T, d) -> (B, T, H, d)
    x = x.transpose(0, 2, 1, 3)
    B, T, H, d = x.shape
    return x.reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Assumes exactly one batch axis (4-D input), so (H, T, d) or two batch axes fail.'),
    Entry('heads-2', 'dev8-042', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"ожидается (..., H, T, d), получено {x.shape}")
    heads_last = np.swapaxes(x, -3, -1)
    return heads_last.reshape(*heads_last.shape[:-2], -1)
""", None,
          mistake='Swaps H with d instead of with T, so the features of each position come out in the wrong order.'),
    Entry('heads-2', 'dev8-043', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    # put the heads one after another
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
""", None,
          mistake='Concatenates the heads along the position axis, giving (..., H*T, d) instead of (..., T, H*d).'),
    Entry('heads-2', 'dev8-044', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"需要 (..., H, T, d)，得到 {x.shape}")
    x = np.swapaxes(x, -3, -2)
    return x.reshape(x.shape[0], x.shape[1], -1)
""", 'heads-2/fixed-rank',
          mistake='Reshapes to (shape[0], shape[1], -1), which only works for one batch axis; (H, T, d) and extra batch axes come out wrong.'),
    Entry('heads-2', 'dev8-045', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"ожидается (..., H, T, d), получено {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)
    # склеиваем в порядке (d, H)
    return np.swapaxes(heads_last, -2, -1).reshape(*heads_last.shape[:-2], -1)
""", 'heads-2/interleaved',
          mistake='Interleaves the heads feature by feature (d, H order) instead of placing each head as a contiguous block.'),
    Entry('heads-3', 'dev8-047', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads)
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection w_o.'),
    Entry('heads-3', 'dev8-048', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads @ w_o)
""", None,
          mistake='Applies w_o to each head before merging instead of to the merged (B, T, D) result.'),
    Entry('heads-3', 'dev8-049', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # сначала проекции, потом головы
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, v, k)
    return merge_heads(heads) @ w_o
""", 'heads-3/keys-values-swapped',
          mistake='Passes keys and values to causal_attention in the wrong order (q, v, k).'),
    Entry('heads-3', 'dev8-050', r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # 直接 reshape 成多头
    B, T, D = x.shape
    d = D // n_heads
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    heads = causal_attention(q, k, v)
    return heads.reshape(B, T, D) @ w_o
""", 'heads-3/reshape-only',
          mistake='Splits and merges heads with plain reshapes, without swapping the T and H axes.'),
    Entry('heads-3', 'dev8-051', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o.T
""", '*/transposed-weights',
          mistake='Multiplies by the transpose of w_o.'),
    Entry('heads-3', 'dev8-052', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # как в nn.Linear: x @ W.T
    q = split_heads(x @ w_q.T, n_heads)
    k = split_heads(x @ w_k.T, n_heads)
    v = split_heads(x @ w_v.T, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o.T
""", '*/transposed-weights',
          mistake='Uses the transposed weight matrices (x @ W.T, PyTorch style) instead of x @ W.'),
    Entry('heads-3', 'dev8-053', r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = x @ w_q
    k = x @ w_k
    v = x @ w_v
    heads = causal_attention(q, k, v)
    return heads @ w_o
""", '*/single-head',
          mistake='Never splits into heads: runs one attention over the full width, which scales by sqrt(D) and mixes heads.'),
    Entry('cost-1', 'dev8-055', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = n_layers * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the cache, forgetting the factor 2 for keys and values.'),
    Entry('cost-1', 'dev8-056', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    # 每个头都有自己的 W_Q, W_K, W_V, W_O
    parameters = n_layers * n_heads * 4 * width * d
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * itemsize
    return parameters, kv_cache_bytes * n_heads
""", 'cost-1/cache-full-width',
          mistake='Multiplies the cache by n_heads a second time, as if each head stored the full width.'),
    Entry('cost-1', 'dev8-057', r"""

def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    d = width // n_heads
    parameters = n_layers * 4 * width * width
    # 4 байта на число
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * 4
    return parameters, kv_cache_bytes
""", 'cost-1/fixed-itemsize',
          mistake='Hard-codes 4 bytes per number, ignoring the dtype argument.'),
    Entry('cost-1', 'dev8-058', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 3 * width * width      # W_Q, W_K, W_V
    kv_cache_bytes = 2 * n_layers * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/three-matrices',
          mistake='Forgets W_O in the parameter count (3 D^2 per layer instead of 4 D^2).'),
    Entry('cost-1', 'dev8-059', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width 不能被 n_heads 整除")
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/zero-layers',
          mistake='Does not reject n_layers < 1; zero layers return (0, 0) instead of raising ValueError.'),
    Entry('cost-1', 'dev8-060', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    # кэш: ключи и значения для каждой головы, по d x d
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * d * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/head-width-twice',
          mistake='Multiplies the per-head cache by d twice (d*d) instead of once.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('heads-1', 'heldout8-033', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    *lead, T, _ = x.shape
    return x.reshape(*lead, n_heads, T, D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes straight to (..., H, T, d) without a transpose, mixing positions across heads.', heldout=True),
    Entry('heads-1', 'heldout8-034', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} 不能被 n_heads={n_heads} 整除")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return heads.transpose(0, 2, 1, 3)   # (B, H, T, d)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes a 4-D transpose(0, 2, 1, 3), so inputs without exactly one batch axis fail.', heldout=True),
    Entry('heads-1', 'heldout8-035', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} не делится на n_heads={n_heads}")
    # (..., T, d, H) -> (..., H, T, d)
    heads = x.reshape(*x.shape[:-1], D // n_heads, n_heads)
    return np.moveaxis(heads, -1, -3)
""", 'heads-1/interleaved',
          mistake='Splits the features as (d, H) instead of (H, d), so each head gets strided features instead of a contiguous block.', heldout=True),
    Entry('heads-1', 'heldout8-036', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads
    heads = x.reshape(*x.shape[:-1], d, n_heads)
    return np.swapaxes(heads, -3, -2)
""", None,
          mistake='Reshapes the features to (d, H) instead of (H, d) before the swap, so the head axis ends up last.', heldout=True),
    Entry('heads-1', 'heldout8-037', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("D 不能被头数整除")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.swapaxes(heads, -2, -1)    # 交换最后两个轴
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (H and d) instead of T and H, giving (..., T, d, H).', heldout=True),
    Entry('heads-1', 'heldout8-038', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("D не делится на число голов")
    d = D // n_heads
    # каждая голова — свой срез признаков
    return np.stack([x[..., h * d:(h + 1) * d] for h in range(n_heads)], axis=0)
""", 'heads-1/one-sequence-only',
          mistake='Stacks the heads on axis 0 instead of just before T, giving (H, ..., T, d) when there is a batch axis.', heldout=True),
    Entry('heads-1', 'heldout8-039', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} is not divisible by n_heads={n_heads}")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    return np.transpose(heads, (-2, -3, -1))
""", 'heads-1/one-sequence-only',
          mistake='Passes only three axes to np.transpose, so any input with a batch axis fails (it only works for (T, D)).', heldout=True),
    Entry('heads-2', 'heldout8-041', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    *lead, H, T, d = x.shape
    return x.reshape(*lead, T, H * d)
""", 'heads-2/reshape-only',
          mistake='Reshapes without moving the head axis back next to d, scrambling positions and heads.', heldout=True),
    Entry('heads-2', 'heldout8-042', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("输入至少要三维")
    heads_last = np.swapaxes(x, -3, -2)          # (..., T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], x.shape[-2] * x.shape[-1])
""", None,
          mistake='Computes the merged width as T*d instead of H*d, which fails whenever T differs from H.', heldout=True),
    Entry('heads-2', 'heldout8-043', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("ожидается (..., H, T, d)")
    # склеиваем головы: (..., T, d*H)
    t = np.moveaxis(x, -3, -1)          # (..., T, d, H)
    return t.reshape(*t.shape[:-2], -1)
""", 'heads-2/interleaved',
          mistake='Moves the head axis to the end, so the merged features are interleaved as (d, H) instead of (H, d).', heldout=True),
    Entry('heads-2', 'heldout8-044', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim != 4:
        raise ValueError(f"merge_heads expects (B, H, T, d), got {x.shape}")
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Only accepts exactly 4-D input, rejecting (H, T, d) and extra batch axes.', heldout=True),
    Entry('heads-2', 'heldout8-045', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("输入至少要三维")
    # 把各个头在最后一维拼起来
    return np.concatenate([x[..., h, :, :] for h in range(x.shape[-3])], axis=-2)
""", None,
          mistake='Concatenates the heads along the position axis (-2) instead of the feature axis, giving (..., H*T, d).', heldout=True),
    Entry('heads-2', 'heldout8-046', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("ожидается (..., H, T, d)")
    heads_last = np.swapaxes(x, 0, 1)
    return heads_last.reshape(*heads_last.shape[:-2], -1)
""", None,
          mistake='Swaps axes 0 and 1 instead of -3 and -2, which is wrong whenever there is a batch axis (or none).', heldout=True),
    Entry('heads-2', 'heldout8-047', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)
    return heads_last.reshape(*heads_last.shape[:-2], -1).astype(np.float64)
""", '*/right-values-other-type',
          mistake='Casts the result to float64, changing the dtype of integer or float32 input.', heldout=True),
    Entry('heads-3', 'heldout8-049', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads)
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection W_O.', heldout=True),
    Entry('heads-3', 'heldout8-050', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)   # 查询
    k = split_heads(x @ w_k, n_heads)   # 键
    v = split_heads(x @ w_k, n_heads)   # 值
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o
""", '*/weight-for-another',
          mistake='Copy-paste slip: computes the values with W_K instead of W_V.', heldout=True),
    Entry('heads-3', 'heldout8-051', r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # многоголовое внимание с причинной маской
    B, T, D = x.shape
    d = D // n_heads
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    heads = causal_attention(q, k, v)
    return heads.reshape(B, T, D) @ w_o
""", 'heads-3/reshape-only',
          mistake='Splits and merges heads with a bare reshape instead of reshape plus transpose, mixing positions.', heldout=True),
    Entry('heads-3', 'heldout8-052', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    d = q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return merge_heads(weights @ v) @ w_o
""", 'heads-3/no-mask',
          mistake='Writes the attention by hand and forgets the causal mask, so every position reads the future.', heldout=True),
    Entry('heads-3', 'heldout8-053', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    T, d = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1] * n_heads)   # 用 D 缩放
    scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Scales the scores by sqrt(D) instead of sqrt(d), the head width.', heldout=True),
    Entry('heads-3', 'heldout8-054', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o.T     # транспонируем W_O
""", '*/transposed-weights',
          mistake='Multiplies by the transpose of W_O.', heldout=True),
    Entry('heads-3', 'heldout8-055', r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # project once, attention once on the whole width, then W_O
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    heads = causal_attention(q, k, v)
    return heads @ w_o
""", '*/single-head',
          mistake='Never splits into heads: runs single-head attention over the full width.', heldout=True),
    Entry('cost-1', 'heldout8-057', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = n_layers * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/keys-only',
          mistake='Counts only the keys in the cache, forgetting the factor 2 for the values.', heldout=True),
    Entry('cost-1', 'heldout8-058', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width 不能被 n_heads 整除")
    if n_layers < 1:
        raise ValueError("n_layers 至少为 1")
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * n_heads * 4 * width * d
    kv = 2 * n_layers * batch * length * n_heads * width * itemsize   # 每个头都存 D 维
    return parameters, kv
""", 'cost-1/cache-full-width',
          mistake='Stores the full width D per head in the cache instead of the head width d, multiplying the cache size by H.', heldout=True),
    Entry('cost-1', 'heldout8-059', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width не делится на n_heads")
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 3 * width * width     # W_Q, W_K, W_V
    kv_cache_bytes = 2 * n_layers * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/three-matrices',
          mistake='Counts three weight matrices per layer, forgetting W_O.', heldout=True),
    Entry('cost-1', 'heldout8-060', r"""
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    head_width = width // n_heads
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * head_width * 4
    return parameters, kv_cache_bytes
""", 'cost-1/fixed-itemsize',
          mistake='Assumes 4 bytes per number and ignores the dtype argument.', heldout=True),
    Entry('cost-1', 'heldout8-061', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    # 计算参数数量和 KV 缓存的字节数
    d = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/zero-layers',
          mistake='No validation: a width not divisible by n_heads or n_layers < 1 is silently accepted.', heldout=True),
    Entry('cost-1', 'heldout8-062', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("width не делится на n_heads")
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    itemsize = np.dtype(dtype).itemsize
    parameters = n_layers * 4 * width * width
    # кэш один на всю модель
    kv_cache_bytes = 2 * batch * length * width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/one-layer-cache',
          mistake='Forgets that every layer has its own cache (no factor n_layers).', heldout=True),
    Entry('cost-1', 'heldout8-063', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}")
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    head_width = width // n_heads
    itemsize = np.dtype(dtype).itemsize
    # each head has its own (d x d) projections
    parameters = n_layers * 4 * n_heads * head_width * head_width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * head_width * itemsize
    return parameters, kv_cache_bytes
""", 'cost-1/head-width-matrices',
          mistake='Counts per-head d x d projection blocks, so the parameter count shrinks by a factor of H.', heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none.
ENTRIES += [
    Entry('heads-1', 'heldout9-025', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads != 0:
        raise ValueError("n_heads must divide D")
    T = x.shape[-2]
    return x.reshape(*x.shape[:-2], n_heads, T, D // n_heads)
""", 'heads-1/reshape-only',
          mistake='Reshapes straight to (..., H, T, d) without splitting the last axis first, mixing time and heads.', heldout=True),
    Entry('heads-1', 'heldout9-026', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError(f"D={D} 不能被 n_heads={n_heads} 整除")
    # (..., T, d, H) -> (..., H, T, d)
    heads = x.reshape(*x.shape[:-1], D // n_heads, n_heads)
    return np.moveaxis(heads, -1, -3)
""", 'heads-1/interleaved',
          mistake='Splits the last axis as (d, H) instead of (H, d), so head h gets strided features instead of the block h*d..h*d+d-1.', heldout=True),
    Entry('heads-1', 'heldout9-027', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("D не делится на n_heads")
    # (B, T, H, d)
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # (B, H, T, d)
    return heads.transpose(0, 2, 1, 3)
""", 'heads-1/fixed-rank',
          mistake='Hard-codes transpose(0, 2, 1, 3), which only works for a batched (B, T, D) input and fails for (T, D) or extra leading axes.', heldout=True),
    Entry('heads-1', 'heldout9-028', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("bad number of heads")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)   # (..., T, H, d)
    return np.swapaxes(heads, -2, -1)
""", 'heads-1/other-axes',
          mistake='Swaps the last two axes (-2, -1) instead of the head and time axes, giving (..., T, d, H).', heldout=True),
    Entry('heads-1', 'heldout9-029', r"""
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads != 0:
        raise ValueError("维度不能整除")
    heads = x.reshape(*x.shape[:-1], n_heads, D // n_heads)
    # 交换时间轴和头轴
    return np.swapaxes(heads, 1, 2)
""", 'heads-1/fixed-rank',
          mistake='Swaps axes 1 and 2 counted from the front, which is wrong for an unbatched (T, D) input and for extra leading axes.', heldout=True),
    Entry('heads-2', 'heldout9-031', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("need (..., H, T, d)")
    H, T, d = x.shape[-3:]
    return x.reshape(*x.shape[:-3], T, H * d)
""", 'heads-2/reshape-only',
          mistake='Reshapes (..., H, T, d) straight into (..., T, H*d) without moving the head axis back first.', heldout=True),
    Entry('heads-2', 'heldout9-032', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    # (..., H, T, d) -> (..., T, H, d) -> (..., T, H*d)
    y = np.swapaxes(x, -3, -2) if x.ndim >= 3 else x
    return y.reshape(*y.shape[:-2], -1)
""", '*/not-refused',
          mistake='Does not refuse inputs with fewer than three axes.', heldout=True),
    Entry('heads-2', 'heldout9-033', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("ожидается (..., H, T, d)")
    # (..., T, d, H)
    y = np.moveaxis(x, -3, -1)
    return y.reshape(*y.shape[:-2], -1)
""", 'heads-2/interleaved',
          mistake='Concatenates along the wrong axis after swapping: puts d first, giving features ordered by coordinate, not by head.', heldout=True),
    Entry('heads-2', 'heldout9-034', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("merge_heads expects (..., H, T, d)")
    B, H, T, d = x.shape
    return x.transpose(0, 2, 1, 3).reshape(B, T, H * d)
""", 'heads-2/fixed-rank',
          mistake='Hard-codes a batch axis with transpose(0, 2, 1, 3), so 3-D input (H, T, d) and 5-D input fail.', heldout=True),
    Entry('heads-2', 'heldout9-035', r"""
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("至少需要三个轴")
    H = x.shape[-3]
    # 把每个头沿最后一个轴拼起来
    return np.concatenate([x[..., h, :, :] for h in range(H - 1, -1, -1)], axis=-1)
""", 'heads-2/reversed',
          mistake='Concatenates the heads in reverse order.', heldout=True),
    Entry('heads-3', 'heldout9-037', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    return merge_heads(causal_attention(q, k, v))
""", 'heads-3/no-w-o',
          mistake='Forgets the output projection w_o.', heldout=True),
    Entry('heads-3', 'heldout9-038', "import numpy as np\n" + answers_above('ex02_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    B, T, D = x.shape
    if D % n_heads:
        raise ValueError("头数不能整除 D")
    d = D // n_heads
    # 投影后直接 reshape 成 (B, H, T, d)
    q = (x @ w_q).reshape(B, n_heads, T, d)
    k = (x @ w_k).reshape(B, n_heads, T, d)
    v = (x @ w_v).reshape(B, n_heads, T, d)
    out = causal_attention(q, k, v)
    return merge_heads(out) @ w_o
""", 'heads-3/reshape-only',
          mistake='Splits heads by a plain reshape to (B, H, T, d), mixing positions between heads.', heldout=True),
    Entry('heads-3', 'heldout9-039', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    # проекции: W x для каждой позиции
    q = split_heads(x @ w_q.T, n_heads)
    k = split_heads(x @ w_k.T, n_heads)
    v = split_heads(x @ w_v.T, n_heads)
    heads = causal_attention(q, k, v)
    return merge_heads(heads) @ w_o.T
""", '*/transposed-weights',
          mistake='Multiplies by transposed weights (w.T @ x convention), not the row-vector convention x @ w.', heldout=True),
    Entry('heads-3', 'heldout9-040', answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
import numpy as np
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    D = x.shape[-1]
    q = split_heads(x @ w_q, n_heads)
    k = split_heads(x @ w_k, n_heads)
    v = split_heads(x @ w_v, n_heads)
    T = x.shape[-2]
    # 缩放因子用模型宽度
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(D)
    mask = np.tril(np.ones((T, T), dtype=bool))
    scores = np.where(mask, scores, -np.inf)
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return merge_heads(w @ v) @ w_o
""", 'heads-3/scale-by-D',
          mistake='Writes its own attention scaled by sqrt(D) instead of sqrt(d), the head width.', heldout=True),
    Entry('heads-3', 'heldout9-041', "import numpy as np\n" + answers_above('ex02_heads', 'split_heads', 'merge_heads') + r"""
from lib.attention import causal_attention
def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads):
    q = split_heads(x @ w_q, n_heads)
    # ключи и значения
    k = split_heads(x @ w_k, n_heads)
    heads = causal_attention(q, k, k)
    return merge_heads(heads) @ w_o
""", '*/weight-for-another',
          mistake='Uses the same projected tensor for keys and values (x @ w_k), never applying w_v.', heldout=True),
    Entry('cost-1', 'heldout9-043', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads or n_layers < 1:
        raise ValueError("bad arguments")
    d = width // n_heads
    params = 4 * width * width * n_layers
    kv = n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return params, kv
""", 'cost-1/keys-only',
          mistake='Counts only the key cache, forgetting the factor 2 for the values.', heldout=True),
    Entry('cost-1', 'heldout9-044', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("宽度不能被头数整除")
    if n_layers < 1:
        raise ValueError("层数至少为 1")
    d = width // n_heads
    # 每个头有自己的 W_Q, W_K, W_V, W_O
    parameters = n_layers * n_heads * 4 * width * width
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * np.dtype(dtype).itemsize
    return parameters, kv_cache_bytes
""", None,
          mistake='Thinks every head has its own four D x D matrices, multiplying the parameter count by H.', heldout=True),
    Entry('cost-1', 'heldout9-045', r"""
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0 or n_layers < 1:
        raise ValueError("неверные параметры")
    # параметры: четыре матрицы D x D на слой
    parameters = n_layers * 4 * width ** 2
    # кэш: ключ и значение на каждую позицию
    kv_cache_bytes = 2 * n_layers * batch * length * width
    return parameters, kv_cache_bytes
""", 'cost-1/elements',
          mistake='Counts the cache in numbers, not bytes: forgets to multiply by itemsize.', heldout=True),
    Entry('cost-1', 'heldout9-046', r"""
import numpy as np
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("n_heads must divide width")
    if n_layers < 1:
        raise ValueError("need at least one layer")
    d = width / n_heads
    nbytes = np.dtype(dtype).itemsize
    return 4 * width * width * n_layers, 2 * n_layers * batch * length * n_heads * d * nbytes
""", 'cost-1/float-division',
          mistake='Returns floats because it uses true division for the head width.', heldout=True),
    Entry('cost-1', 'heldout9-047', r"""
def attention_costs(batch, length, width, n_heads, n_layers, dtype):
    if width % n_heads != 0:
        raise ValueError("ширина не делится на число голов")
    if n_layers < 1:
        raise ValueError("нужен хотя бы один слой")
    d = width // n_heads
    parameters = n_layers * 4 * width * width
    # float32 = 4 байта
    kv_cache_bytes = 2 * n_layers * batch * length * n_heads * d * 4
    return parameters, kv_cache_bytes
""", 'cost-1/fixed-itemsize',
          mistake='Hard-codes 4 bytes per number, ignoring dtype.', heldout=True),
]
