"""Wrong answers to exercise set 2 (heads-1, heads-2, heads-3, cost-1)."""

from . import Entry, bug

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
""", None),

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
    Entry("heads-2", "concatenate-along-axis-1", """
import numpy as np
def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    return np.concatenate([x[:, h] for h in range(x.shape[1])], axis=-1)
""", None),

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
""", None),
    Entry("heads-1", "squeezes-a-batch-of-one", """
import numpy as np
def split_heads(x, n_heads):
    x = np.asarray(x)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    return np.squeeze(np.swapaxes(x.reshape(*x.shape[:-1], n_heads, D // n_heads), -3, -2))
""", None),
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
