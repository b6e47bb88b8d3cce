"""Property-based tests (hypothesis) over random shapes and dtypes."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib.attention import causal_attention, causal_future, masked_softmax, merge_heads, split_heads
from lib import checks
from lib.positions import embed, embed_backward

DTYPES = st.sampled_from([np.float32, np.float64])
TOL = {np.float32: 2e-5, np.float64: 1e-11}


@st.composite
def scores_and_allowed(draw):
    shape = draw(st.lists(st.integers(1, 5), min_size=1, max_size=3)) + [draw(st.integers(1, 9))]
    dtype = draw(DTYPES)
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    scale = draw(st.sampled_from([1.0, 30.0, 1e4]))
    scores = (rng.standard_normal(shape) * scale).astype(dtype)
    allowed = rng.random(shape) < draw(st.floats(0.1, 1.0))
    allowed[..., rng.integers(shape[-1])] = True                # at least one allowed key per row
    return scores, allowed


@settings(max_examples=150, deadline=None)
@given(scores_and_allowed())
def test_masked_softmax_rows_sum_to_one_and_forbidden_are_zero(case):
    scores, allowed = case
    weights = masked_softmax(scores, allowed)
    assert weights.dtype == scores.dtype and weights.shape == scores.shape
    assert np.all(weights[~allowed] == 0)
    assert np.all(np.isfinite(weights)) and np.all(weights >= 0)
    np.testing.assert_allclose(weights.sum(-1), 1, atol=TOL[scores.dtype.type] * 10)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 6), st.integers(0, 5), st.integers(1, 5), DTYPES, st.integers(0, 2**32 - 1))
def test_causal_attention_matches_definition_and_alignment(batch, tq, extra, d, dtype, seed):
    rng = np.random.default_rng(seed)
    tk = tq + extra
    q = rng.standard_normal((batch, tq, d)).astype(dtype)
    k = rng.standard_normal((batch, tk, d)).astype(dtype)
    v = rng.standard_normal((batch, tk, d + 1)).astype(dtype)
    out = causal_attention(q, k, v)
    assert out.dtype == dtype and out.shape == (batch, tq, d + 1)
    # An oracle that uses no lib code: query i sits at absolute position tk - tq + i.
    allowed = np.array([[j <= tk - tq + i for j in range(tk)] for i in range(tq)])
    scores = np.einsum("bid,bjd->bij", q.astype(np.float64), k.astype(np.float64)) / np.sqrt(d)
    scores = np.where(allowed, scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    expected = (weights / weights.sum(axis=-1, keepdims=True)) @ v.astype(np.float64)
    np.testing.assert_allclose(out, expected, atol=TOL[dtype] * 10, rtol=TOL[dtype] * 10)
    # Query i's output depends only on keys 0..tk-tq+i: the same query alone with only those keys.
    for i in range(tq):
        p = tk - tq + i
        alone = causal_attention(q[:, i:i + 1], k[:, :p + 1], v[:, :p + 1])[:, 0]
        np.testing.assert_allclose(out[:, i], alone, atol=TOL[dtype], rtol=TOL[dtype])


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 3), st.integers(1, 6), st.integers(1, 4), st.integers(1, 4), DTYPES)
def test_split_merge_inverse_and_index_rule(batch, T, H, d, dtype):
    x = np.arange(batch * T * H * d).reshape(batch, T, H * d).astype(dtype)
    heads = split_heads(x, H)
    assert heads.shape == (batch, H, T, d) and heads.dtype == dtype
    b, h, t, a = np.meshgrid(np.arange(batch), np.arange(H), np.arange(T), np.arange(d), indexing="ij")
    np.testing.assert_array_equal(heads[b, h, t, a], x[b, t, h * d + a])
    np.testing.assert_array_equal(merge_heads(heads), x)
    y = np.arange(batch * H * T * d).reshape(batch, H, T, d).astype(dtype)
    np.testing.assert_array_equal(split_heads(merge_heads(y), H), y)


def random_model(rng, V, C, D, H, dtype):
    return checks.random_model(rng, vocab_size=V, context_size=C, width=D, n_heads=H, dtype=dtype)


model_params = st.tuples(st.integers(3, 9), st.integers(1, 4), st.integers(1, 3), st.integers(2, 10),
                         DTYPES, st.integers(0, 2**32 - 1))


@settings(max_examples=60, deadline=None)
@given(model_params, st.integers(1, 3), st.data())
def test_future_perturbation_and_negative_control(params, batch, data):
    V, H, d, T, dtype, seed = params
    rng = np.random.default_rng(seed)
    model = random_model(rng, V, T + 2, H * d, H, dtype)
    ids = rng.integers(0, V, (batch, T))
    cut = data.draw(st.integers(1, T - 1))                      # T >= 2: a prefix and a future exist
    changed = ids.copy()
    changed[:, cut:] = (ids[:, cut:] + 1 + rng.integers(0, V - 1, ids[:, cut:].shape)) % V   # every suffix token differs
    assert (changed[:, cut:] != ids[:, cut:]).all()
    out, out_changed = model.forward(ids), model.forward(changed)
    np.testing.assert_array_equal(out[:, :cut], out_changed[:, :cut])       # bit-for-bit: prefix unchanged
    assert np.abs(out[:, cut:] - out_changed[:, cut:]).max() > 0            # the changed positions do move
    leak = model.forward(ids, causal=False)[:, :cut] - model.forward(changed, causal=False)[:, :cut]
    assert np.max(np.abs(leak)) > 0                                          # the control does see the change


@settings(max_examples=40, deadline=None)
@given(model_params)
def test_cache_equals_full_forward(params):
    V, H, d, T, dtype, seed = params
    rng = np.random.default_rng(seed)
    model = random_model(rng, V, T + int(rng.integers(0, 3)), H * d, H, dtype)
    ids = rng.integers(0, V, T)
    cache = model.new_cache()
    stepped = np.stack([model.step(int(t), cache) for t in ids])
    assert len(cache) == T and stepped.dtype == dtype
    np.testing.assert_allclose(stepped, model.forward(ids), atol=TOL[dtype] * 10, rtol=TOL[dtype] * 10)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 4), st.integers(2, 6), st.integers(1, 4), st.integers(0, 3),
       st.integers(0, 2**32 - 1))
def test_embed_backward_matches_finite_differences(batch, T, V, D, offset, seed):
    rng = np.random.default_rng(seed)
    C = offset + T + 1
    E, P = rng.standard_normal((V, D)), rng.standard_normal((C, D))
    ids = rng.integers(0, V, (batch, T))
    upstream = rng.standard_normal((batch, T, D))               # loss = sum(upstream * embed(...))

    def loss(E_, P_):
        return float(np.sum(upstream * embed(ids, E_, P_, offset)))

    d_token, d_position = embed_backward(upstream, ids, V, C, offset)
    eps = 1e-6
    for table, grad, which in ((E, d_token, 0), (P, d_position, 1)):
        numeric = np.zeros_like(table)
        for idx in np.ndindex(table.shape):
            plus, minus = table.copy(), table.copy()
            plus[idx] += eps
            minus[idx] -= eps
            args_plus = (plus, P) if which == 0 else (E, plus)
            args_minus = (minus, P) if which == 0 else (E, minus)
            numeric[idx] = (loss(*args_plus) - loss(*args_minus)) / (2 * eps)
        np.testing.assert_allclose(grad, numeric, atol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_dtype_is_kept_everywhere(dtype):
    rng = np.random.default_rng(0)
    model = random_model(rng, 5, 6, 4, 2, dtype)
    assert model.forward(np.array([1, 2, 3])).dtype == dtype
    assert model.step(1, model.new_cache()).dtype == dtype
    assert embed(np.array([1, 2]), model.token_table, model.position_table).dtype == dtype
    assert embed_backward(np.ones((2, 4), dtype), np.array([1, 2]), 5, 6)[0].dtype == dtype


def test_stable_for_huge_scores():
    scores = np.array([[1e4, -1e4, 1e4 - 1], [-1e4, -1e4, -1e4]])
    weights = masked_softmax(scores, np.array([[True, True, True], [True, True, False]]))
    assert np.all(np.isfinite(weights))
    np.testing.assert_allclose(weights[0], [1 / (1 + np.exp(-1)), 0, np.exp(-1) / (1 + np.exp(-1))], atol=1e-15)
    np.testing.assert_allclose(weights[1], [0.5, 0.5, 0])
