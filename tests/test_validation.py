"""One rule for every public function (lib/validate.py): the same bad input gets the same kind of error.

Each table below lists the public functions that take a given kind of argument
and check it by the same rule; the same bad values go through all of them, and
the same exception type must come back (a TypeError for a wrong kind, a
ValueError for a wrong value), or, for integer arrays, the same answer: they
count as float64. checks.kv_cache_bytes counts memory and takes every count from
0 up, n_heads too, so it is in the table of sizes, not of numbers of heads.
"""

import numpy as np
import pytest

import fast_attention as fast
from lib import attention, blocked, checks, costs, decoder, layers, model, positions

RNG = np.random.default_rng(0)
X = RNG.standard_normal((1, 3, 4))                  # (B, T, D), D = 4
W = np.eye(4)


def small_decoder_params():
    return decoder.Decoder.init(6, 5, 4, 2, 1).params


# Every public function that takes a number of heads, called with n_heads=h.
WITH_N_HEADS = {
    "attention.split_heads": lambda h: attention.split_heads(X, h),
    "attention.multi_head_attention": lambda h: attention.multi_head_attention(X, W, W, W, W, h),
    "layers.multi_head_attention_forward": lambda h: layers.multi_head_attention_forward(X, W, W, W, W, h),
    "checks.attention_weights": lambda h: checks.attention_weights(X, W, W, h),
    "checks.random_model": lambda h: checks.random_model(0, vocab_size=6, context_size=5, width=4, n_heads=h),
    "model.AttentionModel": lambda h: model.AttentionModel(np.eye(6, 4), np.ones((5, 4)), W, W, W, W, h),
    "model.KVCache": lambda h: model.KVCache(h, 2, 5, np.float64),
    "decoder.Decoder.init": lambda h: decoder.Decoder.init(6, 5, 4, h, 1),
    "decoder.Decoder": lambda h: decoder.Decoder(small_decoder_params(), h),
    "costs.head_costs": lambda h: costs.head_costs(h, width=4, length=3),
}


@pytest.mark.parametrize("name", WITH_N_HEADS)
@pytest.mark.parametrize("n_heads, error", [(2.0, TypeError), (True, TypeError), ("2", TypeError),
                                            (None, TypeError), (0, ValueError), (-2, ValueError)])
def test_a_bad_number_of_heads_gets_the_same_error_everywhere(name, n_heads, error):
    with pytest.raises(error, match="n_heads"):
        WITH_N_HEADS[name](n_heads)


@pytest.mark.parametrize("name", WITH_N_HEADS)
def test_a_good_number_of_heads_is_accepted_everywhere(name):
    WITH_N_HEADS[name](2)
    WITH_N_HEADS[name](np.int64(2))                 # a NumPy integer is an int too


# Every public function that computes with a numeric array, called with that array replaced by a.
WITH_NUMBERS = {
    "attention.masked_softmax": lambda a: attention.masked_softmax(a, np.ones((3, 4), dtype=bool)),
    "attention.attention_scores": lambda a: attention.attention_scores(a, a),
    "attention.causal_attention": lambda a: attention.causal_attention(a, a, a),
    "attention.unmasked_attention": lambda a: attention.unmasked_attention(a, a, a),
    "attention.multi_head_attention": lambda a: attention.multi_head_attention(a[None], W, W, W, W, 2),
    "blocked.blocked_causal_attention": lambda a: blocked.blocked_causal_attention(a, a, a),
    "fast.fast_causal_attention": lambda a: fast.fast_causal_attention(a, a, a),
    "positions.embed": lambda a: positions.embed(np.array([1, 2]), np.vstack([a, a]), a),
    "positions.embed_backward": lambda a: positions.embed_backward(a, np.array([1, 2, 0]), 6, 5),
    "layers.causal_attention_forward": lambda a: layers.causal_attention_forward(a, a, a),
    "layers.multi_head_attention_forward": lambda a: layers.multi_head_attention_forward(a[None], W, W, W, W, 2),
    "layers.masked_softmax_backward": lambda a: layers.masked_softmax_backward(a, a),
    "layers.layer_norm_forward": lambda a: layers.layer_norm_forward(a, np.ones(4), np.zeros(4)),
    "layers.gelu_forward": lambda a: layers.gelu_forward(a),
    "layers.linear_forward": lambda a: layers.linear_forward(a, W),
    "layers.mlp_forward": lambda a: layers.mlp_forward(a, W, np.zeros(4), W, np.zeros(4)),
    "layers.cross_entropy_forward": lambda a: layers.cross_entropy_forward(a, np.array([0, 1, 3])),
    "checks.feature_normalization": lambda a: checks.feature_normalization(a),
    "checks.leaky_time_normalization": lambda a: checks.leaky_time_normalization(a),
    "checks.attention_weights": lambda a: checks.attention_weights(a[None], W, W, 2),
    "model.AttentionModel": lambda a: model.AttentionModel(np.vstack([a, a]), a, W, W, W, W, 2).forward([1, 2]),
}


def first_array(result):
    """The numeric array a function returned: the array itself, or the first of (out, saved) / a pair of arrays."""
    if isinstance(result, tuple):
        result = result[0]
    return np.asarray(result)


@pytest.mark.parametrize("name", WITH_NUMBERS)
def test_integer_arrays_count_as_float64_everywhere(name):
    integers = np.arange(12).reshape(3, 4) % 3                          # small, so nothing overflows
    out = first_array(WITH_NUMBERS[name](integers))
    assert out.dtype == np.float64
    reference = first_array(WITH_NUMBERS[name](integers.astype(np.float64)))
    np.testing.assert_array_equal(out, reference)


@pytest.mark.parametrize("name", WITH_NUMBERS)
@pytest.mark.parametrize("bad", [np.full((3, 4), "a"), np.full((3, 4), 1 + 2j), np.full((3, 4), None)],
                         ids=["strings", "complex", "objects"])
def test_arrays_that_do_not_hold_real_numbers_are_a_type_error_everywhere(name, bad):
    with pytest.raises(TypeError, match="must hold real numbers"):
        WITH_NUMBERS[name](bad)


@pytest.mark.parametrize("name", WITH_NUMBERS)
def test_float32_stays_float32_everywhere(name):
    a = (np.arange(12).reshape(3, 4) % 3).astype(np.float32)
    f32 = {"attention.multi_head_attention", "layers.multi_head_attention_forward", "layers.linear_forward",
           "layers.mlp_forward", "checks.attention_weights", "model.AttentionModel", "layers.layer_norm_forward"}
    # with float64 weights beside it, float32 meets float64 and gives float64 (NumPy's promotion)
    result = WITH_NUMBERS[name](a)
    if name == "layers.cross_entropy_forward":                          # the loss is a Python float;
        result = result[1].log_probs                                    # what it is computed from stays float32
    assert first_array(result).dtype == (np.float64 if name in f32 else np.float32)


# Every public function that takes a sampling temperature (0: greedy), called with temperature t.
WITH_TEMPERATURE = {
    "decoder.Decoder.generate": lambda t: decoder.Decoder.init(6, 5, 4, 2, 1).generate([1], 2, temperature=t),
    "decoder.pick_token": lambda t: decoder.pick_token(np.array([0.5, 1.0, -1.0]), t, np.random.default_rng(0)),
}


@pytest.mark.parametrize("name", WITH_TEMPERATURE)
@pytest.mark.parametrize("temperature, error", [("1", TypeError), (True, TypeError), (None, TypeError),
                                                (-1.0, ValueError), (np.nan, ValueError), (np.inf, ValueError)])
def test_a_bad_temperature_gets_the_same_error_everywhere(name, temperature, error):
    with pytest.raises(error, match="temperature"):
        WITH_TEMPERATURE[name](temperature)


@pytest.mark.parametrize("name", WITH_TEMPERATURE)
def test_a_good_temperature_is_accepted_everywhere(name):
    for temperature in (0, 0.0, 1, 0.5, np.float32(2.0)):
        WITH_TEMPERATURE[name](temperature)


@pytest.mark.parametrize("bad, error, match", [
    (np.full(3, "a"), TypeError, "must hold real numbers"), (np.full(3, 1 + 2j), TypeError, "must hold real numbers"),
    (np.full(3, None), TypeError, "must hold real numbers"), (np.zeros((2, 3)), ValueError, r"shape \(V,\)"),
    (np.zeros(0), ValueError, r"shape \(V,\)"), (np.array([0.0, np.nan]), ValueError, "NaN"),
    (np.array([np.inf, 0.0]), ValueError, r"\+inf"), (np.full(2, -np.inf), ValueError, "not all -inf")])
def test_pick_token_refuses_logits_that_are_not_one_row_of_finite_numbers(bad, error, match):
    with pytest.raises(error, match=match):
        decoder.pick_token(bad, 1.0, np.random.default_rng(0))


def test_pick_token_takes_integer_logits_as_float64_and_a_seed_as_a_generator():
    rng = np.random.default_rng(3)
    assert decoder.pick_token([0, 2, 1], 0, rng) == 1
    draws = [decoder.pick_token([0, 2, 1], 1.0, np.random.default_rng(s)) for s in range(5)]
    assert draws == [decoder.pick_token(np.array([0.0, 2.0, 1.0]), 1.0, s) for s in range(5)]
    with pytest.raises(TypeError):
        decoder.pick_token([0.0, 1.0], 1.0, "seed")


# Every public function with a True/False switch, called with the switch set to s.
WITH_SWITCH = {
    "attention.multi_head_attention(causal)": lambda s: attention.multi_head_attention(X, W, W, W, W, 2, causal=s),
    "layers.causal_attention_forward(causal)": lambda s: layers.causal_attention_forward(X, X, X, causal=s),
    "layers.multi_head_attention_forward(causal)":
        lambda s: layers.multi_head_attention_forward(X, W, W, W, W, 2, causal=s),
    "checks.attention_weights(causal)": lambda s: checks.attention_weights(X, W, W, 2, causal=s),
    "model.AttentionModel.forward(causal)": lambda s: checks.chapter_model().forward([1, 3], causal=s),
    "model.AttentionModel.embed(use_positions)": lambda s: checks.chapter_model().embed([1, 3], use_positions=s),
    "decoder.Decoder.forward(causal)": lambda s: decoder.Decoder.init(6, 5, 4, 2, 1).forward([1, 3], causal=s),
    "blocked.blocked_causal_attention(skip_future)": lambda s: blocked.blocked_causal_attention(X, X, X, skip_future=s),
    "fast.fast_causal_attention(skip_future)": lambda s: fast.fast_causal_attention(X, X, X, skip_future=s),
    "blocked.attention_work(skip_future)": lambda s: blocked.attention_work(3, 3, skip_future=s),
}


@pytest.mark.parametrize("name", WITH_SWITCH)
@pytest.mark.parametrize("bad", ["yes", 1, None, 0.0])
def test_a_switch_takes_only_true_or_false_everywhere(name, bad):
    with pytest.raises(TypeError, match="must be True or False"):
        WITH_SWITCH[name](bad)


# Every public function that takes a size (a count of rows, positions, layers ...), called with size n.
WITH_SIZE = {
    "attention.causal_future(tk)": lambda n: attention.causal_future(1, n),
    "attention.causal_allowed(tk)": lambda n: attention.causal_allowed(1, n),
    "blocked.attention_work(tk)": lambda n: blocked.attention_work(1, n),
    "blocked.attention_work(block)": lambda n: blocked.attention_work(1, 1, block=n),
    "positions.embed_backward(context_size)": lambda n: positions.embed_backward(np.zeros((1, 4)), [0], 5, n),
    "positions.embed_backward(vocab_size)": lambda n: positions.embed_backward(np.zeros((1, 4)), [0], n, 5),
    "checks.random_model(width)": lambda n: checks.random_model(0, vocab_size=6, context_size=5, width=n, n_heads=1),
    "checks.kv_cache_bytes(length)": lambda n: checks.kv_cache_bytes(1, 1, 1, n) or 1 / n,
    "costs.head_costs(length)": lambda n: costs.head_costs(1, width=4, length=n),
    "model.KVCache(capacity)": lambda n: model.KVCache(1, 2, n, np.float64),
    "decoder.Decoder.init(n_layers)": lambda n: decoder.Decoder.init(6, 5, 4, 2, n),
    "decoder.train(steps)": lambda n: decoder.train(decoder.Decoder.init(6, 5, 4, 2, 1), ["ab"], ["a", "b"],
                                                    steps=n, batch_size=1, lr=1e-3),
}


@pytest.mark.parametrize("name", WITH_SIZE)
@pytest.mark.parametrize("size, error", [(2.0, TypeError), (True, TypeError), ("2", TypeError), (-1, ValueError)])
def test_a_bad_size_gets_the_same_error_everywhere(name, size, error):
    with pytest.raises(error):
        WITH_SIZE[name](size)


def test_row_lengths_are_the_rows_lengths_never_below_the_true_length():
    """bench/fast_attention.py's rows' lengths (the only attention that computes them: they cost every other caller a
    pass per array) are the rows' Euclidean lengths, and even where squares underflow not below them."""
    q, k, v = RNG.standard_normal((2, 5, 4)), RNG.standard_normal((7, 4)), RNG.standard_normal((2, 7, 3))
    for a, rows in zip((q, k, v), fast.row_lengths(q, k, v)):
        assert rows.shape == a.shape[:-1]
        np.testing.assert_allclose(rows, np.linalg.norm(a, axis=-1), rtol=1e-12)
    tiny = np.full((3, 4), 1e-25, dtype=np.float32)                       # 1e-50 is 0 in float32
    q_rows = fast.row_lengths(tiny, tiny, tiny)[0]
    assert (q_rows >= np.linalg.norm(tiny.astype(np.float64), axis=-1)).all()
