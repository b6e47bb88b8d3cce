"""lib.costs: the head-count cost table of §2."""

import numpy as np
import pytest

from lib.costs import SOFTMAX_OPS_PER_ENTRY, head_costs


def test_fixed_width_keeps_parameters_and_matmuls():
    c = head_costs([1, 2, 4, 8, 16], width=512, length=1024)
    assert (c["parameters"] == 4 * 512**2).all()
    assert (c["matmul_flops"] == c["matmul_flops"][0]).all()
    assert (c["head_width"] == [512, 256, 128, 64, 32]).all()


def test_attention_tables_grow_linearly_with_heads():
    heads = np.array([1, 2, 4, 8, 16])
    c = head_costs(heads, width=512, length=1024, batch=3)
    assert (c["attention_entries"] == 3 * heads * 1024**2).all()
    assert (c["attention_bytes"] == 4 * c["attention_entries"]).all()
    assert (c["softmax_ops"] == SOFTMAX_OPS_PER_ENTRY * c["attention_entries"]).all()


def test_counts_match_the_shapes_of_an_actual_forward():
    # One multiply-add per entry of each product, counted from the shapes lib uses.
    B, T, D, H = 2, 5, 8, 4
    d = D // H
    c = head_costs(H, width=D, length=T, batch=B)
    projections = 4 * (B * T) * D * D                          # (B*T, D) @ (D, D), four times
    scores = B * H * T * d * T                                 # (T, d) @ (d, T) per head
    weighted = B * H * T * T * d                               # (T, T) @ (T, d) per head
    assert c["matmul_flops"] == 2 * (projections + scores + weighted)
    assert c["attention_entries"] == B * H * T * T


def test_scalar_input_gives_scalar_arrays():
    c = head_costs(8, width=64, length=16)
    assert c["head_width"].shape == () and int(c["head_width"]) == 8


@pytest.mark.parametrize("heads", [3, [1, 3], 0, [2, -1]])
def test_heads_must_divide_the_width(heads):
    with pytest.raises(ValueError, match="divisible|multiple"):
        head_costs(heads, width=512, length=8)


def test_rejects_non_integer_heads_and_bad_sizes():
    with pytest.raises(TypeError):
        head_costs(2.0, width=8, length=4)
    with pytest.raises(ValueError):
        head_costs(2, width=8, length=0)
