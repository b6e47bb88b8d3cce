"""What the number of heads costs at a fixed model width (§2).

Changing H at fixed D moves cost rather than adding it: the four projections stay 4 D^2
parameters (:func:`lib.attention.multi_head_attention`) and the products cost the same, but
every head keeps its own (T, T) table of weights: B H T^2 numbers to store and normalise.  The
counts follow the definition, :func:`lib.attention.causal_attention` (full tables; a multiply-add
is 2 FLOPs); §5.9's blocked form computes about half (:func:`lib.blocked.attention_work`)."""

import numpy as np

from . import validate
from .validate import checked

# One softmax entry: compare against the row max, subtract it, exponentiate,
# add to the row sum, divide by the row sum.  A convention, stated once here.
SOFTMAX_OPS_PER_ENTRY = 5


@checked(validate.head_costs)
def head_costs(n_heads, width, length, batch=1, bytes_per_number=4):
    """§2. Cost of one causal multi-head attention layer for H = ``n_heads`` (an int or a 1-D
    sequence, each dividing ``width`` D), length T, batch B: a dict of int64 arrays shaped like
    n_heads.  ``bytes_per_number``: 4 for float32, 8 for float64."""
    heads, B, T, D = n_heads, np.int64(batch), np.int64(length), np.int64(width)
    ones = np.ones_like(heads)                                   # what does not depend on H
    head_width = D // heads                                      # d
    attention_entries = B * heads * T * T                        # (H,) one (T, T) table per head
    projection_flops = 4 * 2 * B * T * D * D * ones              # W_Q, W_K, W_V, W_O
    score_flops = 2 * 2 * B * heads * T * T * head_width         # q k^T, weights @ v: 4 B T^2 D
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
