"""What the number of heads costs at a fixed model width (§2).

Changing H at fixed D moves cost between places rather than adding it:

* the four projections W_Q, W_K, W_V, W_O stay (D, D) each: 4 D^2 parameters
  whatever H is (no biases, as in :func:`lib.attention.multi_head_attention`);
* the matrix products cost the same: the projections do not see H, and the
  scores and the weighted sum cost H * (T^2 d) = T^2 D per sequence;
* the attention tables do grow with H: every head keeps its own (T, T) table
  of weights, so storing them takes B H T^2 numbers and the softmax has
  B H T^2 entries to normalise.

The counts follow the definition (:func:`lib.attention.causal_attention_reference`):
full (T, T) tables, the masked half computed and then zeroed; one multiply-add
= 2 FLOPs.  :func:`lib.attention.causal_attention` skips the key blocks that
lie entirely in the future and computes only about half of each table
(:func:`lib.attention.causal_attention_work`, §5).
"""

import numpy as np

from . import validate

# One softmax entry: compare against the row max, subtract it, exponentiate,
# add to the row sum, divide by the row sum.  A convention, stated once here.
SOFTMAX_OPS_PER_ENTRY = 5


def head_costs(n_heads, width, length, batch=1, bytes_per_number=4):
    """§2. Cost of one causal multi-head attention layer as a function of H.

    n_heads: an int or a 1-D sequence of ints H (each must divide ``width``);
    width D, length T, batch B: ints; bytes_per_number: 4 for float32, 8 for float64.

    Returns a dict of int64 arrays with the shape of ``n_heads``:

    ``head_width``          d = D / H
    ``parameters``          4 D^2 (W_Q, W_K, W_V, W_O)
    ``attention_entries``   B H T^2, the stored attention weights
    ``attention_bytes``     attention_entries * bytes_per_number
    ``projection_flops``    4 * 2 B T D^2 (x @ W_Q, x @ W_K, x @ W_V, heads @ W_O)
    ``score_flops``         2 * 2 B H T^2 d = 4 B T^2 D (q k^T and weights @ v)
    ``matmul_flops``        projection_flops + score_flops
    ``softmax_ops``         SOFTMAX_OPS_PER_ENTRY * B H T^2
    """
    heads = np.asarray(n_heads)
    if heads.ndim > 1 or not np.issubdtype(heads.dtype, np.integer):
        raise TypeError(f"n_heads must be an int or a 1-D sequence of ints, got {n_heads!r}")
    for name, value in (("width", width), ("length", length), ("batch", batch), ("bytes_per_number", bytes_per_number)):
        validate.integer(value, name)
    heads = heads.astype(np.int64)
    if (heads < 1).any():
        raise ValueError(f"n_heads must be at least 1, got {int(heads[heads < 1].flat[0])}")
    if (width % heads).any():
        bad = int(heads[width % heads != 0].flat[0])
        raise ValueError(f"width D={width} is not divisible by n_heads={bad}; D must be a multiple of H")
    B, T, D = np.int64(batch), np.int64(length), np.int64(width)
    ones = np.ones_like(heads)                                   # quantities that do not depend on H
    head_width = D // heads                                      # d
    attention_entries = B * heads * T * T                        # (H,) one (T, T) table per head
    projection_flops = 4 * 2 * B * T * D * D * ones
    score_flops = 2 * 2 * B * heads * T * T * head_width         # = 4 B T^2 D for every H
    return {
        "head_width": head_width,
        "parameters": 4 * D * D * ones,
        "attention_entries": attention_entries,
        "attention_bytes": attention_entries * bytes_per_number,
        "projection_flops": projection_flops,
        "score_flops": score_flops,
        "matmul_flops": projection_flops + score_flops,
        "softmax_ops": SOFTMAX_OPS_PER_ENTRY * attention_entries,
    }
