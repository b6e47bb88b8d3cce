"""lib.costs: the head-count cost table of §2."""

import numpy as np
import pytest

from lib.blocked import attention_work
from lib.attention import (causal_attention, merge_heads, multi_head_attention,
                           split_heads)
from lib.checks import attention_weights
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


class CountingWeight:
    """A (D, D) weight that counts the multiply-adds of every product ``x @ w`` lib makes with it."""

    def __init__(self, array, log):
        self.array, self.log, self.shape = array, log, array.shape

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        assert ufunc is np.matmul and method == "__call__" and inputs[1] is self
        x = np.asarray(inputs[0])
        self.log.append(x.size * self.shape[1])                # every row of x times D columns, D each
        return np.matmul(x, self.array, **kwargs)


def test_counts_match_an_actual_forward():
    """Run lib's forward and count what it really multiplies and stores; compare with head_costs."""
    B, T, D, H = 2, 5, 8, 4
    rng = np.random.default_rng(0)
    x = rng.standard_normal((B, T, D)).astype(np.float32)
    w_q, w_k, w_v, w_o = (rng.standard_normal((D, D)).astype(np.float32) for _ in range(4))
    c = head_costs(H, width=D, length=T, batch=B, bytes_per_number=4)

    log = []
    projections = [CountingWeight(w, log) for w in (w_q, w_k, w_v, w_o)]
    x_q, x_k, x_v = (x @ w for w in projections[:3])            # the products multi_head_attention makes ...
    q, k, v = (split_heads(a, H) for a in (x_q, x_k, x_v))     # (B, H, T, d)
    heads = causal_attention(q, k, v)
    out = merge_heads(heads) @ projections[3]                   # ... and the output projection
    np.testing.assert_allclose(out, multi_head_attention(x, w_q, w_k, w_v, w_o, H), rtol=1e-6, atol=1e-6)
    assert len(log) == 4 and c["projection_flops"] == 2 * sum(log)

    weights = attention_weights(x, w_q, w_k, H)                 # the (B, H, T, T) tables of that forward
    assert weights.dtype == np.float32
    assert c["attention_entries"] == weights.size and c["attention_bytes"] == weights.nbytes
    score_macs = q.size * k.shape[-2]                            # q k^T: every (query, coordinate) x Tk keys
    weighted_macs = weights.size * v.shape[-1]                   # weights @ v: every weight x d
    assert c["score_flops"] == 2 * (score_macs + weighted_macs)
    assert c["parameters"] == sum(w.size for w in (w_q, w_k, w_v, w_o))
    assert c["head_width"] == q.shape[-1]


def test_lib_computes_about_half_of_the_tables_it_counts():
    """head_costs counts the whole (T, T) tables of the definition; the blocked form computes fewer."""
    c = head_costs(8, width=512, length=1024)
    work = attention_work(1024, 1024)
    assert c["attention_entries"] == 8 * work.total
    assert 0.5 < work.computed / work.total < 0.6


def test_scalar_input_gives_scalar_arrays():
    c = head_costs(8, width=64, length=16)
    assert c["head_width"].shape == () and int(c["head_width"]) == 8


@pytest.mark.parametrize("heads, message", [
    (3, "width D=512 is not divisible by n_heads=3"),
    ([1, 3], "width D=512 is not divisible by n_heads=3"),
    (0, "n_heads must be at least 1, got 0"),
    ([2, -1], "n_heads must be at least 1, got -1"),
])
def test_heads_must_divide_the_width(heads, message):
    with pytest.raises(ValueError, match=message):
        head_costs(heads, width=512, length=8)


def test_rejects_non_integer_heads_and_bad_sizes():
    for heads in (2.0, True, "2", [2.0]):
        with pytest.raises(TypeError, match="n_heads must be an int or a 1-D sequence of ints"):
            head_costs(heads, width=8, length=4)
    with pytest.raises(ValueError, match="length must be at least 1, got 0"):
        head_costs(2, width=8, length=0)
    with pytest.raises(TypeError, match="width must be an int, got float 8.0"):
        head_costs(2, width=8.0, length=4)
