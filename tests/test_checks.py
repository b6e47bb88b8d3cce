"""lib.checks: the future-perturbation test, its negative control, the leaky counter-example, the cache checks."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib import checks
from lib.attention import multi_head_attention
from lib.data import BOS, UNK

SEED_CONTROL = 39.772020613422825
SEED_RESET = 0.08753403247684122


def masked(model):
    return lambda ids: model.forward(ids)


def unmasked(model):
    return lambda ids: model.forward(ids, causal=False)


# ---------------------------------------------------------------- the hand-set model

def test_chapter_model_tables():
    model = checks.chapter_model()
    assert model.token_table.shape == (6, 4) and model.position_table.shape == (8, 4)
    np.testing.assert_allclose(model.position_table[3], [0.4, 0.09, 0.07, -0.06])
    np.testing.assert_array_equal(model.token_table[BOS], model.token_table[5])
    assert model.n_heads == 2
    assert checks.chapter_model(np.float32).token_table.dtype == np.float32


def test_seed_figures_perturbation_and_control():
    model = checks.chapter_model()
    result = checks.check_causality(masked(model), unmasked(model), np.array([BOS, 3, 4]), np.array([BOS, 3, UNK]), 2)
    assert result.change == 0.0
    assert result.control_change == pytest.approx(SEED_CONTROL, rel=1e-13)
    assert result.passed


def test_seed_figures_cache():
    model = checks.chapter_model()
    assert checks.cache_error(model, [BOS, 3, 4]) == 0.0
    full = model.forward(np.array([BOS, 3, 4]))
    reset = checks.incremental_forward(model, [BOS, 3, 4], positions=[0, 1, 0])
    assert np.abs(reset[-1] - full[-1]).max() == pytest.approx(SEED_RESET, rel=1e-13)


# ---------------------------------------------------------------- the perturbation test

def test_degenerate_perturbation_is_caught_by_the_control():
    model = checks.chapter_model()            # E[<bos>] == E[风]: different ids, same vectors
    result = checks.check_causality(masked(model), unmasked(model), np.array([BOS, 3, BOS]), np.array([BOS, 3, 5]), 2)
    assert result.change == 0.0 and result.control_change == 0.0
    assert result.causal and not result.control_saw_change and not result.passed


def test_constant_output_is_caught_by_the_control():
    def constant(ids):
        return np.zeros((len(ids), 4))
    result = checks.check_causality(constant, constant, np.array([BOS, 3, 4]), np.array([BOS, 3, UNK]), 2)
    assert not result.passed


def test_leak_is_reported():
    model = checks.chapter_model()
    result = checks.check_causality(unmasked(model), unmasked(model), np.array([BOS, 3, 4]), np.array([BOS, 3, UNK]), 2)
    assert not result.causal


@pytest.mark.parametrize("where", ["before", "after"])
def test_leaky_time_normalization_passes_weights_check_but_fails_perturbation(where):
    model = checks.chapter_model()
    ids = np.array([BOS, 3, 4, 5, 3, 4])
    leaky = lambda i: checks.forward_with(model, i, **{where: checks.leaky_time_normalization})  # noqa: E731
    x = model.embed(ids)[None]
    if where == "before":
        x = checks.leaky_time_normalization(x)
    assert checks.upper_right_is_zero(checks.attention_weights(x, model.w_q, model.w_k, model.n_heads))
    result = checks.check_causality(leaky, unmasked(model), ids, checks.perturb_future(ids, 3, 0, vocab_size=6), 3)
    assert result.control_saw_change and not result.causal


def test_feature_normalization_keeps_causality():
    model = checks.chapter_model()
    ids = np.array([BOS, 3, 4, 5, 3, 4])
    layer = lambda i: checks.forward_with(model, i, before=checks.feature_normalization,  # noqa: E731
                                          after=checks.feature_normalization)
    result = checks.check_causality(layer, unmasked(model), ids, checks.perturb_future(ids, 3, 1, vocab_size=6), 3)
    assert result.passed


def leak_into_last_prefix_row(model, prefix_length, amount):
    """model.forward, except that output row prefix_length-1 also reads input row prefix_length."""
    def forward(ids):
        out = model.forward(ids).copy()
        out[..., prefix_length - 1, :] += amount * model.embed(ids)[..., prefix_length, :]
        return out
    return forward


@pytest.mark.parametrize("prefix_length", [1, 3, 5])
def test_a_leak_confined_to_the_last_prefix_row_is_caught(prefix_length):
    model = checks.chapter_model()
    ids = np.array([BOS, 3, 4, 5, 3, 4])
    perturbed = checks.perturb_future(ids, prefix_length, 0, vocab_size=6)
    leaky = leak_into_last_prefix_row(model, prefix_length, 1e-3)
    changes = checks.row_changes(leaky, ids, perturbed)
    assert (changes[:prefix_length - 1] == 0).all() and changes[prefix_length - 1] > 0
    expected = 1e-3 * np.abs(model.embed(ids)[prefix_length] - model.embed(perturbed)[prefix_length]).max()
    assert checks.future_change(leaky, ids, perturbed, prefix_length) == pytest.approx(expected, rel=1e-12)
    result = checks.check_causality(leaky, unmasked(model), ids, perturbed, prefix_length)
    assert not result.causal and not result.passed


def test_the_tolerance_is_a_bound_not_a_rounding():
    model = checks.chapter_model()
    ids, perturbed = np.array([BOS, 3, 4]), np.array([BOS, 3, UNK])
    leaky = leak_into_last_prefix_row(model, 2, 1e-9)
    change = checks.future_change(leaky, ids, perturbed, 2)
    assert checks.check_causality(leaky, unmasked(model), ids, perturbed, 2, tolerance=change).causal
    assert not checks.check_causality(leaky, unmasked(model), ids, perturbed, 2, tolerance=change / 2).causal
    exact = checks.check_causality(masked(model), unmasked(model), ids, perturbed, 2, tolerance=0.0)
    assert exact.passed and exact.change == 0.0


def test_a_control_change_equal_to_the_tolerance_sees_nothing():
    assert not checks.CausalityCheck(0.0, 1e-12, 1e-12).control_saw_change
    assert not checks.CausalityCheck(0.0, 0.0, 0.0).passed
    assert checks.CausalityCheck(1e-12, 2e-12, 1e-12).passed          # change == tolerance is still causal
    assert not checks.CausalityCheck(2e-12, 3e-12, 1e-12).causal


@pytest.mark.parametrize("shift", [0.25, -0.25])
def test_cache_error_sees_a_wrong_early_position(shift):
    """A cached step that is wrong only at position 1 must show up, although the last position is right,
    and as a size whichever way it is wrong."""
    model = checks.chapter_model()

    class WrongAtPositionOne(type(model)):
        def step(self, token, cache, *, position=None):
            out = super().step(token, cache, position=position)
            return out + shift if len(cache) == 2 else out
    wrong = WrongAtPositionOne(model.token_table, model.position_table, model.w_q, model.w_k, model.w_v,
                               model.w_o, model.n_heads)
    assert checks.cache_error(wrong, [BOS, 3, 4, 5]) == pytest.approx(0.25, abs=1e-15)
    assert checks.cache_error(model, [BOS, 3, 4, 5]) <= 1e-15


def test_upper_right_is_zero_means_exactly_zero():
    weights = np.tril(np.full((3, 3), 1 / 3))
    assert checks.upper_right_is_zero(weights)
    for tiny in (1e-9, 1e-300, 5e-324, -1e-12):
        almost = weights.copy()
        almost[0, 2] = tiny                                     # a tiny weight on a future key is still a read
        assert not checks.upper_right_is_zero(almost), tiny
    negative_zero = weights.copy()
    negative_zero[1, 2] = -0.0
    assert checks.upper_right_is_zero(negative_zero)
    nan = weights.copy()
    nan[0, 1] = np.nan
    assert not checks.upper_right_is_zero(nan)
    assert not checks.upper_right_is_zero(np.stack([weights, weights.T]))   # one bad head is enough


def test_random_model_scale():
    """Tables standard normal, projections with variance 1/width: scores stay of order one."""
    width = 256
    model = checks.random_model(0, vocab_size=300, context_size=200, width=width, n_heads=4)
    for table in (model.token_table, model.position_table):
        assert abs(table.std() - 1) < 0.02 and abs(table.mean()) < 0.02
    for w in (model.w_q, model.w_k, model.w_v, model.w_o):
        assert abs(w.std() * np.sqrt(width) - 1) < 0.02 and abs(w.mean()) * np.sqrt(width) < 0.02
    x = model.embed(np.arange(200) % 300)                       # (T, D), entries of variance 2
    q_std = (x @ model.w_q).std()
    assert abs(q_std / np.sqrt(2) - 1) < 0.05                   # x @ w keeps the variance of x
    other = checks.random_model(1, vocab_size=300, context_size=200, width=width, n_heads=4)
    assert not np.array_equal(model.w_q, other.w_q)             # the seed matters ...
    np.testing.assert_array_equal(model.w_q, checks.random_model(0, vocab_size=300, context_size=200,
                                                                 width=width, n_heads=4).w_q)   # ... and only it


def test_upper_right_is_zero_detects_unmasked_weights():
    model = checks.chapter_model()
    x = model.embed(np.array([BOS, 3, 4]))[None]
    assert checks.upper_right_is_zero(checks.attention_weights(x, model.w_q, model.w_k, 2))
    assert not checks.upper_right_is_zero(checks.attention_weights(x, model.w_q, model.w_k, 2, causal=False))


def test_vectors_as_inputs():
    model = checks.random_model(3, vocab_size=5, context_size=6, width=8, n_heads=2)
    x = model.embed(np.array([1, 2, 3, 4, 0, 1]))                     # (T, D)

    def attend(v, causal=True):
        return multi_head_attention(v[None], model.w_q, model.w_k, model.w_v, model.w_o, 2, causal=causal)[0]
    perturbed = checks.perturb_future(x, 2, 5, scale=3.0)
    np.testing.assert_array_equal(perturbed[:2], x[:2])
    assert (perturbed[2:] != x[2:]).any(axis=1).all()
    result = checks.check_causality(attend, lambda v: attend(v, causal=False), x, perturbed, 2)
    assert result.passed


def test_batched_ids():
    model = checks.random_model(4, vocab_size=7, context_size=9, width=6, n_heads=3)
    ids = np.random.default_rng(0).integers(0, 7, size=(3, 9))
    perturbed = checks.perturb_future(ids, 4, 1, vocab_size=7)
    assert (perturbed[:, 4:] != ids[:, 4:]).all() and (perturbed[:, :4] == ids[:, :4]).all()
    result = checks.check_causality(masked(model), unmasked(model), ids, perturbed, 4)
    assert result.passed
    assert checks.row_changes(masked(model), ids, perturbed).shape == (9,)


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_heads=st.integers(1, 4),
    head_width=st.integers(1, 5),
    T=st.integers(2, 12),
    data=st.data(),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_random_models_are_causal_and_controls_see_change(seed, n_heads, head_width, T, data, dtype):
    rng = np.random.default_rng(seed)
    vocab = data.draw(st.integers(2, 9))
    model = checks.random_model(rng, vocab_size=vocab, context_size=T, width=n_heads * head_width,
                                n_heads=n_heads, dtype=dtype)
    prefix = data.draw(st.integers(1, T - 1))
    ids = rng.integers(0, vocab, size=T)
    perturbed = checks.perturb_future(ids, prefix, rng, vocab_size=vocab)
    assert model.forward(ids).dtype == dtype
    assert checks.future_change(masked(model), ids, perturbed, prefix) == 0.0
    # The control is a change of the prefix, almost surely; random tables make a tie impossible in practice.
    assert checks.future_change(unmasked(model), ids, perturbed, prefix) > 0.0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_heads=st.integers(1, 4), head_width=st.integers(1, 6),
       T=st.integers(1, 40), dtype=st.sampled_from([np.float32, np.float64]))
def test_cache_matches_full_forward_on_random_models(seed, n_heads, head_width, T, dtype):
    rng = np.random.default_rng(seed)
    model = checks.random_model(rng, vocab_size=11, context_size=T, width=n_heads * head_width,
                                n_heads=n_heads, dtype=dtype)
    ids = rng.integers(0, 11, size=T)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    assert checks.cache_error(model, ids) <= tol


# ---------------------------------------------------------------- bad input

def test_bad_prefix_lengths():
    model = checks.chapter_model()
    ids = np.array([BOS, 3, 4])
    for p in (0, 3, -1):
        with pytest.raises(ValueError, match="prefix_length"):
            checks.future_change(masked(model), ids, ids, p)
    with pytest.raises(TypeError):
        checks.future_change(masked(model), ids, ids, 1.5)


def test_prefix_must_agree_and_future_must_change():
    model = checks.chapter_model()
    with pytest.raises(ValueError, match="inside the prefix"):
        checks.future_change(masked(model), np.array([BOS, 3, 4]), np.array([BOS, 4, 0]), 2)
    with pytest.raises(ValueError, match="future position 2 is unchanged"):
        checks.future_change(masked(model), np.array([BOS, 3, 4, 4]), np.array([BOS, 3, 4, 0]), 2)
    with pytest.raises(ValueError, match="same shape"):
        checks.future_change(masked(model), np.array([BOS, 3, 4]), np.array([BOS, 3]), 1)


def test_forward_with_wrong_output_shape():
    with pytest.raises(ValueError, match="forward returned shape"):
        checks.future_change(lambda ids: np.zeros(len(ids)), np.array([1, 2, 3]), np.array([1, 0, 0]), 1)


def test_perturb_future_rejects_bad_input():
    with pytest.raises(ValueError, match="vocab_size"):
        checks.perturb_future(np.array([1, 2, 3]), 1, 0)
    with pytest.raises(ValueError, match="ids must lie"):
        checks.perturb_future(np.array([1, 2, 9]), 1, 0, vocab_size=6)
    with pytest.raises(ValueError, match="scale"):
        checks.perturb_future(np.zeros((3, 2)), 1, 0, scale=0.0)
    with pytest.raises(TypeError):
        checks.perturb_future(np.array(["a", "b"]), 1, 0)


def test_perturb_future_keeps_dtype_and_prefix():
    x = np.arange(12, dtype=np.float32).reshape(2, 3, 2)             # (B, T, D)
    y = checks.perturb_future(x, 1, 0)
    assert y.dtype == np.float32
    np.testing.assert_array_equal(y[:, :1], x[:, :1])
    assert (y[:, 1:] != x[:, 1:]).any(axis=-1).all()


def test_normalizations_keep_dtype_and_normalise_the_right_axis():
    x = np.random.default_rng(0).standard_normal((2, 5, 4)).astype(np.float32)
    assert checks.feature_normalization(x).dtype == np.float32
    assert checks.leaky_time_normalization(x).dtype == np.float32
    np.testing.assert_allclose(checks.feature_normalization(x).mean(axis=-1), 0, atol=1e-6)
    np.testing.assert_allclose(checks.feature_normalization(x).std(axis=-1), 1, atol=1e-4)
    np.testing.assert_allclose(checks.leaky_time_normalization(x).mean(axis=-2), 0, atol=1e-6)
    np.testing.assert_allclose(checks.leaky_time_normalization(x).std(axis=-2), 1, atol=1e-4)
    with pytest.raises(TypeError, match="x must hold real numbers"):
        checks.feature_normalization(np.array(["a", "b"]))
    with pytest.raises(ValueError, match="eps must be a positive number"):
        checks.leaky_time_normalization(x, eps=0.0)


def test_feature_normalization_rows_read_only_their_own_row():
    x = np.random.default_rng(1).standard_normal((6, 4))
    y = x.copy()
    y[3:] = 10 * np.random.default_rng(2).standard_normal((3, 4))
    np.testing.assert_array_equal(checks.feature_normalization(x)[:3], checks.feature_normalization(y)[:3])
    assert not np.allclose(checks.leaky_time_normalization(x)[:3], checks.leaky_time_normalization(y)[:3])


def test_forward_with_rejects_non_callables():
    with pytest.raises(TypeError, match="before"):
        checks.forward_with(checks.chapter_model(), np.array([1, 3]), before="layer_norm")


def test_upper_right_is_zero_rejects_non_square():
    with pytest.raises(ValueError):
        checks.upper_right_is_zero(np.zeros((2, 3)))


def test_random_model_rejects_bad_sizes():
    with pytest.raises(ValueError, match="divisible"):
        checks.random_model(0, vocab_size=3, context_size=4, width=6, n_heads=4)
    with pytest.raises(ValueError, match="vocab_size must be at least 1, got 0"):
        checks.random_model(0, vocab_size=0, context_size=4, width=4, n_heads=2)
    with pytest.raises(TypeError, match="width must be an int, got float 4.0"):
        checks.random_model(0, vocab_size=3, context_size=4, width=4.0, n_heads=2)
    with pytest.raises(TypeError, match="dtype must be float32 or float64"):
        checks.random_model(0, vocab_size=3, context_size=4, width=4, n_heads=2, dtype=np.int32)


def test_perturbing_vectors_needs_finite_values():
    x = np.zeros((4, 2))
    x[3, 0] = np.nan
    with pytest.raises(ValueError, match=r"vectors to perturb must be finite.*0 \* nan"):
        checks.perturb_future(x, 2, 0)
    with pytest.raises(ValueError, match=r"scale must be a positive number \(finite"):
        checks.perturb_future(np.zeros((4, 2)), 2, 0, scale=np.inf)
    with pytest.raises(TypeError, match="vocab_size must be an int"):
        checks.perturb_future(np.array([1, 2, 3]), 1, 0, vocab_size=6.0)


# ---------------------------------------------------------------- cache

def test_step_past_the_table_leaves_cache_unchanged():
    model = checks.chapter_model()
    cache = model.new_cache()
    checks.incremental_forward(model, np.array([BOS, 3, 4, 5, 3, 4, 5, 4]), cache=cache)
    keys, values = cache.keys.copy(), cache.values.copy()
    with pytest.raises(ValueError, match="position table"):
        model.step(3, cache)
    assert len(cache) == 8
    np.testing.assert_array_equal(cache.keys, keys)
    np.testing.assert_array_equal(cache.values, values)


def test_incremental_forward_rejects_batches_and_bad_positions():
    model = checks.chapter_model()
    with pytest.raises(ValueError, match="one unpadded stream"):
        checks.incremental_forward(model, np.array([[BOS, 3], [BOS, 4]]))
    with pytest.raises(ValueError, match="positions"):
        checks.incremental_forward(model, np.array([BOS, 3]), positions=[0])


def test_kv_cache_bytes_matches_the_cache_arrays():
    model = checks.chapter_model()
    cache = model.new_cache()
    checks.incremental_forward(model, np.arange(8) % 6, cache=cache)
    assert cache.keys.nbytes + cache.values.nbytes == checks.kv_cache_bytes(1, 2, 2, 8, itemsize=8)
    assert checks.kv_cache_bytes(12, 12, 64, 1024) == 2 * 12 * 1024 * 768 * 4
    assert checks.kv_cache_bytes(3, 1, 8, 5) == checks.kv_cache_bytes(3, 4, 2, 5)   # only H*d = D counts
    with pytest.raises(ValueError, match="n_layers"):
        checks.kv_cache_bytes(-1, 2, 2, 8)
