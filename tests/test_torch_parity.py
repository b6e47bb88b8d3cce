"""Parity with PyTorch (optional locally, mandatory in CI where torch==2.13.0 is installed)."""

import numpy as np
import pytest

from lib.attention import causal_attention, multi_head_attention
from lib.blocked import blocked_causal_attention
from fast_attention import fast_causal_attention

from conftest import require_or_skip


@pytest.fixture(scope="module")
def torch():
    return require_or_skip("torch", "parity tests against torch.nn.functional / torch.nn.MultiheadAttention")


@pytest.mark.parametrize("shape", [(1, 1, 1, 1), (2, 3, 5, 4), (1, 8, 64, 16), (3, 2, 17, 8)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_causal_attention_matches_sdpa(torch, shape, dtype):
    rng = np.random.default_rng(sum(shape))
    q, k, v = (rng.standard_normal(shape).astype(dtype) for _ in range(3))
    expected = torch.nn.functional.scaled_dot_product_attention(
        torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v), is_causal=True).numpy()
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for attend in (causal_attention, blocked_causal_attention, fast_causal_attention):
        np.testing.assert_allclose(attend(q, k, v), expected, atol=tol, rtol=tol)


@pytest.mark.parametrize("shape", [(1, 8, 1024, 64), (4, 8, 256, 32), (2, 3, 300, 16)])
def test_blocked_threaded_attention_matches_sdpa_on_the_benchmark_shapes(torch, shape):
    rng = np.random.default_rng(shape[2])
    q, k, v = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
    expected = torch.nn.functional.scaled_dot_product_attention(
        torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v), is_causal=True).numpy()
    for attend in (blocked_causal_attention, fast_causal_attention):
        out = attend(q, k, v)
        assert out.dtype == np.float32
        np.testing.assert_allclose(out, expected, atol=2e-5, rtol=2e-5)


def test_a_nan_in_a_future_value_reaches_earlier_outputs_in_torch_too(torch):
    """Why lib refuses non-finite values and why a perturbation test perturbs with finite ones:
    the weight of query 0 on value 2 is exactly 0, but 0 * nan = nan."""
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal((1, 1, 3, 4)) for _ in range(3))
    v[..., 2, 0] = np.nan                                       # the future of queries 0 and 1
    out = torch.nn.functional.scaled_dot_product_attention(
        torch.from_numpy(q), torch.from_numpy(k), torch.from_numpy(v), is_causal=True).numpy()
    assert np.isnan(out[0, 0, 0, 0]) and np.isnan(out[0, 0, 1, 0])
    weights = np.tril(np.ones((3, 3))) / np.arange(1, 4)[:, None]     # row 0 puts weight 0 on key 2 ...
    with np.errstate(invalid="ignore"):
        assert np.isnan((weights @ v[0, 0])[0, 0])                     # ... and still turns nan
    with pytest.raises(ValueError, match=r"v holds nan at index \(0, 0, 2, 0\).*0 \* nan = nan"):
        causal_attention(q, k, v)


def test_bottom_right_alignment_differs_from_torch_is_causal(torch):
    """With Tq < Tk, our query i sits at Tk - Tq + i; torch's is_causal aligns top-left."""
    rng = np.random.default_rng(0)
    q, k, v = rng.standard_normal((2, 4)), rng.standard_normal((5, 4)), rng.standard_normal((5, 4))
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    bottom_right = torch.ones(2, 5, dtype=torch.bool).tril(diagonal=5 - 2)
    expected = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, attn_mask=bottom_right).numpy()
    np.testing.assert_allclose(causal_attention(q, k, v), expected, atol=1e-12)
    top_left = torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True).numpy()
    assert not np.allclose(causal_attention(q, k, v), top_left)


@pytest.mark.parametrize("B, T, D, H", [(1, 1, 4, 1), (2, 5, 8, 2), (3, 7, 12, 3), (2, 16, 32, 8)])
def test_multi_head_attention_matches_torch_module(torch, B, T, D, H):
    rng = np.random.default_rng(B * 100 + T)
    x = rng.standard_normal((B, T, D))
    w_q, w_k, w_v, w_o = (rng.standard_normal((D, D)) / np.sqrt(D) for _ in range(4))
    module = torch.nn.MultiheadAttention(D, H, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        # torch computes x @ W.T, we compute x @ w: its weights are our transposes.
        module.in_proj_weight.copy_(torch.from_numpy(np.concatenate([w_q.T, w_k.T, w_v.T])))
        module.out_proj.weight.copy_(torch.from_numpy(w_o.T))
        tx = torch.from_numpy(x)
        future = torch.ones(T, T, dtype=torch.bool).triu(diagonal=1)      # True = may not attend
        expected, _ = module(tx, tx, tx, attn_mask=future, need_weights=False)
    np.testing.assert_allclose(multi_head_attention(x, w_q, w_k, w_v, w_o, H), expected.numpy(), atol=1e-12)
