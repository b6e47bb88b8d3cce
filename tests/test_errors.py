"""Every documented ValueError, with a message that says what is wrong and what is expected."""

import re

import numpy as np
import pytest

from lib import checks
from lib.blocked import blocked_causal_attention
from fast_attention import fast_causal_attention
from lib.attention import (causal_allowed, causal_attention, causal_future, masked_softmax,
                           multi_head_attention, split_heads)
from lib.checks import attention_weights, random_model
from lib.data import build_vocab, collate, decode
from lib.model import AttentionModel, KVCache
from lib.positions import embed, embed_backward

VOCAB = build_vocab(["春", "雨", "风"])


def test_collate_empty_batch():
    with pytest.raises(ValueError, match="batch is empty"):
        collate([], VOCAB)


def test_collate_empty_text():
    with pytest.raises(ValueError, match="text 1 is empty"):
        collate(["春", ""], VOCAB)


def test_collate_rejects_a_bare_string():
    with pytest.raises(TypeError, match="list of strings"):
        collate("春雨", VOCAB)


def test_decode_rejects_ignore_and_unknown_ids():
    with pytest.raises(ValueError, match=r"id -100 is outside the vocabulary.*IGNORE"):
        decode([3, -100], VOCAB)


def test_masked_softmax_empty_row():
    allowed = np.array([[True, False], [False, False]])
    with pytest.raises(ValueError, match=r"row \(1,\) of allowed has no True entry"):
        masked_softmax(np.zeros((2, 2)), allowed)


def test_masked_softmax_empty_row_never_nan_even_broadcast():
    with pytest.raises(ValueError, match="no True entry"):
        masked_softmax(np.zeros((4, 3, 2)), np.array([False, False]))


def test_masked_softmax_wants_booleans():
    with pytest.raises(TypeError, match="boolean"):
        masked_softmax(np.zeros((2, 2)), np.zeros((2, 2)))


def test_masked_softmax_shape_mismatch():
    with pytest.raises(ValueError, match="does not broadcast"):
        masked_softmax(np.zeros((2, 3)), np.ones((2, 2), bool))


def test_more_queries_than_keys():
    with pytest.raises(ValueError, match="3 queries but only 2 keys"):
        causal_attention(np.zeros((3, 4)), np.zeros((2, 4)), np.zeros((2, 4)))


def test_split_heads_indivisible():
    with pytest.raises(ValueError, match="D=6 is not divisible by n_heads=4"):
        split_heads(np.zeros((1, 2, 6)), 4)


def test_multi_head_attention_weight_shapes():
    with pytest.raises(ValueError, match=r"w_o has shape \(4, 3\), expected \(4, 4\)"):
        multi_head_attention(np.zeros((1, 2, 4)), np.eye(4), np.eye(4), np.eye(4), np.zeros((4, 3)), 2)


@pytest.mark.parametrize("offset, T", [(-1, 2), (3, 2), (0, 5)])
def test_embed_positions_outside_table(offset, T):
    E, P = np.zeros((6, 4)), np.zeros((4, 4))
    with pytest.raises(ValueError, match=r"outside the position table.*C=4.*never wrapped or clamped"):
        embed(np.ones(T, dtype=int), E, P, offset=offset)


@pytest.mark.parametrize("offset, T, C, no_row", [
    (3, 6, 8, "8"),                 # §3.3: rows 3..7 exist, only position 8 has none
    (0, 9, 8, "8"),
    (2, 5, 4, "4..6"),
    (-1, 2, 4, "-1"),
    (-3, 2, 4, "-3..-2"),
    (-2, 10, 4, "-2..-1"),          # both ends outside: the message names those below 0
])
def test_the_message_names_only_the_positions_that_have_no_row(offset, T, C, no_row):
    """The message names the positions the input needs, the table's rows and, of those positions, only ones the
    table has no row for (read64 en C1: 'positions 3..8 fall outside' said so of rows 3..7 too)."""
    with pytest.raises(ValueError) as raised:
        embed(np.ones(T, dtype=int), np.zeros((6, 4)), np.zeros((C, 4)), offset=offset)
    assert str(raised.value) == (f"positions {offset}..{offset + T - 1} reach outside the position table, which "
                                 f"has rows 0..{C - 1} (C={C}) and no row for {no_row}; a learned absolute "
                                 "position table is never wrapped or clamped")


def test_embed_backward_positions_outside_table():
    with pytest.raises(ValueError, match="outside the position table"):
        embed_backward(np.zeros((3, 4)), np.array([1, 2, 3]), 6, 4, offset=2)


def test_embed_rejects_ignore_id():
    with pytest.raises(ValueError, match=r"token id -100 is outside the token table.*IGNORE"):
        embed(np.array([1, -100]), np.zeros((6, 4)), np.zeros((4, 4)))


def test_step_past_the_table_leaves_cache_unchanged():
    D = 4
    model = AttentionModel(np.eye(6, D), np.ones((2, D)), np.eye(D), np.eye(D), np.eye(D), np.eye(D), 2)
    cache = model.new_cache()
    model.step(1, cache)
    model.step(2, cache)
    keys_before, values_before = cache.keys.copy(), cache.values.copy()
    with pytest.raises(ValueError, match=r"positions 2\.\.2 reach outside the position table, which has rows 0\.\.1 \(C=2\) and no row for 2;"):
        model.step(3, cache)
    assert len(cache) == 2
    np.testing.assert_array_equal(cache.keys, keys_before)
    np.testing.assert_array_equal(cache.values, values_before)


def test_step_with_a_bad_token_leaves_cache_unchanged():
    model = AttentionModel(np.eye(6, 4), np.ones((3, 4)), *[np.eye(4)] * 4, n_heads=2)
    cache = model.new_cache()
    with pytest.raises(ValueError, match="token id 9 is outside the token table"):
        model.step(9, cache)
    assert len(cache) == 0


def test_model_rejects_indivisible_heads():
    with pytest.raises(ValueError, match="not divisible"):
        AttentionModel(np.zeros((6, 4)), np.zeros((3, 4)), *[np.eye(4)] * 4, n_heads=3)


# ---------------------------------------------------------------- one token per step

def _small_model(context_size=3):
    return AttentionModel(np.eye(6, 4), np.ones((context_size, 4)), *[np.eye(4)] * 4, n_heads=2)


@pytest.mark.parametrize("token, described", [
    ([3], r"list of shape \(1,\)"),
    ([3, 4], r"list of shape \(2,\)"),
    (np.array([3]), r"ndarray of shape \(1,\)"),
    (np.array(3), r"ndarray of shape \(\)"),
    (3.0, "float"),
    (True, "bool"),
    ("3", "str"),
])
def test_step_takes_one_int_and_leaves_the_cache_alone(token, described):
    model = _small_model()
    cache = model.new_cache()
    model.step(1, cache)
    keys, values = cache.keys.copy(), cache.values.copy()
    with pytest.raises(TypeError, match=rf"step takes one token id \(an int\), got {described}.*one token per step"):
        model.step(token, cache)
    assert len(cache) == 1
    np.testing.assert_array_equal(cache.keys, keys)
    np.testing.assert_array_equal(cache.values, values)


def test_step_accepts_numpy_integers():
    model = _small_model()
    cache = model.new_cache()
    np.testing.assert_array_equal(model.step(np.int64(3), cache), _small_model().step(3, _small_model().new_cache()))
    assert len(cache) == 1


def test_step_refuses_a_cache_of_another_model():
    model = _small_model()
    other = AttentionModel(np.eye(6, 4), np.ones((3, 4)), *[np.eye(4)] * 4, n_heads=4).new_cache()
    with pytest.raises(ValueError, match=r"does not belong to this model.*model\.new_cache\(\)"):
        model.step(1, other)
    assert len(other) == 0
    with pytest.raises(TypeError, match="cache must be a KVCache"):
        model.step(1, [])


# ---------------------------------------------------------------- n_heads, checked where it enters

BAD_HEADS = [
    (2.0, TypeError, "n_heads must be an int, got float 2.0"),
    (True, TypeError, "n_heads must be an int, got bool True"),
    ("2", TypeError, "n_heads must be an int, got str '2'"),
    (-2, ValueError, "n_heads must be at least 1, got -2"),
    (0, ValueError, "n_heads must be at least 1, got 0"),
    (3, ValueError, "width D=4 is not divisible by n_heads=3"),
]


@pytest.mark.parametrize("n_heads, error, message", BAD_HEADS)
def test_split_heads_checks_n_heads(n_heads, error, message):
    with pytest.raises(error, match=message):
        split_heads(np.zeros((1, 2, 4)), n_heads)


@pytest.mark.parametrize("n_heads, error, message", BAD_HEADS)
def test_multi_head_attention_checks_n_heads(n_heads, error, message):
    with pytest.raises(error, match=message):
        multi_head_attention(np.zeros((1, 2, 4)), *[np.eye(4)] * 4, n_heads)


@pytest.mark.parametrize("n_heads, error, message", BAD_HEADS)
def test_model_constructor_checks_n_heads(n_heads, error, message):
    with pytest.raises(error, match=message):
        AttentionModel(np.eye(6, 4), np.ones((3, 4)), *[np.eye(4)] * 4, n_heads=n_heads)


@pytest.mark.parametrize("n_heads, error, message", BAD_HEADS)
def test_random_model_and_attention_weights_check_n_heads(n_heads, error, message):
    with pytest.raises(error, match=message):
        random_model(0, vocab_size=5, context_size=3, width=4, n_heads=n_heads)
    with pytest.raises(error, match=message):
        attention_weights(np.zeros((1, 2, 4)), np.eye(4), np.eye(4), n_heads)


def test_model_constructor_refuses_a_1d_token_table():
    with pytest.raises(ValueError, match=r"token table must be 2-D \(V, D\), got shape \(6,\)"):
        AttentionModel(np.ones(6), np.ones((3, 4)), *[np.eye(4)] * 4, n_heads=2)


def test_model_constructor_refuses_mismatched_tables_and_weights():
    with pytest.raises(ValueError, match=r"position table \(3, 5\) must both be 2-D with the same width"):
        AttentionModel(np.ones((6, 4)), np.ones((3, 5)), *[np.eye(4)] * 4, n_heads=2)
    with pytest.raises(ValueError, match=r"w_v has shape \(4, 2\), expected \(4, 4\)"):
        AttentionModel(np.ones((6, 4)), np.ones((3, 4)), np.eye(4), np.eye(4), np.ones((4, 2)), np.eye(4), 2)
    with pytest.raises(TypeError, match="token_table must hold real numbers"):
        AttentionModel(np.full((6, 4), "a"), np.ones((3, 4)), *[np.eye(4)] * 4, n_heads=2)


# ---------------------------------------------------------------- attention inputs

@pytest.mark.parametrize("shape", [(4,), ()])
def test_causal_attention_needs_two_axes(shape):
    x = np.zeros(shape)
    with pytest.raises(ValueError, match=rf"q must have shape \(\.\.\., Tq, d\) with at least 2 axes, got shape {re.escape(str(shape))}"):
        causal_attention(x, x, x)
    with pytest.raises(ValueError, match=r"v must have shape \(\.\.\., Tk, dv\)"):
        causal_attention(np.zeros((2, 4)), np.zeros((2, 4)), np.zeros(2))


def test_causal_attention_needs_a_key():
    with pytest.raises(ValueError, match="k and v have 0 positions: there is no key to read"):
        causal_attention(np.zeros((0, 4)), np.zeros((0, 4)), np.zeros((0, 4)))
    with pytest.raises(ValueError, match="width d = 0"):
        causal_attention(np.zeros((2, 0)), np.zeros((2, 0)), np.zeros((2, 3)))


def test_causal_attention_without_queries_is_empty():
    out = causal_attention(np.zeros((2, 0, 4)), np.ones((2, 3, 4)), np.ones((2, 3, 5)))
    assert out.shape == (2, 0, 5) and out.dtype == np.float64


def test_causal_attention_shape_mismatches():
    with pytest.raises(ValueError, match="q has width 4 but k has width 3"):
        causal_attention(np.zeros((2, 4)), np.zeros((2, 3)), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="k has 3 positions but v has 2"):
        causal_attention(np.zeros((2, 4)), np.zeros((3, 4)), np.zeros((2, 4)))
    with pytest.raises(ValueError, match=r"leading \(batch, head\) axes .* do not broadcast"):
        causal_attention(np.zeros((2, 2, 4)), np.zeros((3, 2, 4)), np.zeros((3, 2, 4)))
    for attend in (blocked_causal_attention, fast_causal_attention):
        with pytest.raises(TypeError, match="skip_future must be True or False"):
            attend(np.zeros((2, 4)), np.zeros((2, 4)), np.zeros((2, 4)), skip_future="yes")


@pytest.mark.parametrize("name", ["q", "k", "v"])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_causal_attention_refuses_non_finite_inputs_even_in_the_future(name, bad):
    arrays = {n: np.random.default_rng(0).standard_normal((3, 4)) for n in "qkv"}
    arrays[name][2, 1] = bad                                   # position 2: the future of queries 0 and 1
    with pytest.raises(ValueError, match=rf"{name} holds {bad} at index \(2, 1\).*0 \* nan = nan"):
        causal_attention(arrays["q"], arrays["k"], arrays["v"])
    for attend in (blocked_causal_attention, fast_causal_attention):
        with pytest.raises(ValueError, match=rf"{name} holds {bad} at index \(2, 1\)"):
            attend(arrays["q"], arrays["k"], arrays["v"])


def test_causal_attention_refuses_inputs_that_would_overflow():
    big = np.full((2, 4), 1e19, dtype=np.float32)
    with pytest.raises(ValueError, match=r"too large for float32 \(max \|q\| = 1e\+19.*use float64"):
        causal_attention(big, big, np.zeros((2, 4), np.float32))
    out = causal_attention(big.astype(np.float64), big.astype(np.float64), np.ones((2, 4)))   # fine in float64
    np.testing.assert_array_equal(out, np.ones((2, 4)))


@pytest.mark.parametrize("args, error, message", [
    ((2.0, 3), TypeError, "tq must be an int, got float 2.0"),
    ((2, -1), ValueError, "tk must be at least 0, got -1"),
    ((3, 2), ValueError, "3 queries but only 2 keys"),
])
@pytest.mark.parametrize("build", [causal_future, causal_allowed])
def test_causal_future_checks_its_sizes(build, args, error, message):
    with pytest.raises(error, match=message):
        build(*args)


# ---------------------------------------------------------------- non-finite scores

@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_masked_softmax_refuses_a_non_finite_allowed_score_naming_the_row(bad):
    scores = np.zeros((3, 3))
    scores[1, 0] = bad
    with pytest.raises(ValueError, match=rf"row \(1,\) of scores has {bad} at allowed key 0: .*must be finite"):
        masked_softmax(scores, ~causal_future(3, 3))


def test_masked_softmax_names_the_row_in_a_batch():
    scores = np.zeros((2, 3, 3))
    scores[1, 2, 1] = np.nan
    with pytest.raises(ValueError, match=r"row \(1, 2\) of scores has nan at allowed key 1"):
        masked_softmax(scores, ~causal_future(3, 3))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_masked_softmax_ignores_whatever_a_forbidden_score_holds(bad):
    scores = np.zeros((3, 3))
    scores[0, 2] = bad                                         # query 0 may not read key 2
    weights = masked_softmax(scores, ~causal_future(3, 3))
    np.testing.assert_array_equal(weights, masked_softmax(np.zeros((3, 3)), ~causal_future(3, 3)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_forbidden_entry_gets_nothing_however_low_the_allowed_scores(dtype):
    """A forbidden entry weighs exactly 0 even next to allowed scores far below any finite stand-in
    for -inf (a fill of -1e9 would take every weight of this row)."""
    scores = np.array([[-1e12, 0.0], [-1e12, -3e12]], dtype=dtype)
    weights = masked_softmax(scores, np.array([[True, False], [True, True]]))
    np.testing.assert_array_equal(weights, np.array([[1, 0], [1, 0]], dtype=dtype))


def test_masked_softmax_needs_keys():
    with pytest.raises(ValueError, match=r"scores of shape \(2, 0\) have no keys"):
        masked_softmax(np.zeros((2, 0)), np.zeros((2, 0), bool))
    with pytest.raises(ValueError, match=r"scores of shape \(\) have no keys"):
        masked_softmax(np.float64(1.0), np.True_)


# ---------------------------------------------------------------- sizes of the tables

@pytest.mark.parametrize("kwargs, error, message", [
    ({"vocab_size": 11.0}, TypeError, "vocab_size must be an int, got float 11.0"),
    ({"vocab_size": 0}, ValueError, "vocab_size must be at least 1, got 0"),
    ({"vocab_size": np.int64(11)}, None, None),
    ({"context_size": 4.0}, TypeError, "context_size must be an int, got float 4.0"),
    ({"context_size": "4"}, TypeError, "context_size must be an int, got str '4'"),
    ({"context_size": -4}, ValueError, "context_size must be at least 1, got -4"),
])
def test_embed_backward_checks_the_table_sizes(kwargs, error, message):
    args = {"vocab_size": 11, "context_size": 4, **kwargs}
    if error is None:
        d_token, d_position = embed_backward(np.ones((3, 2)), np.array([1, 2, 3]), **args)
        assert d_token.shape == (11, 2) and d_position.shape == (4, 2)
        return
    with pytest.raises(error, match=message):
        embed_backward(np.ones((3, 2)), np.array([1, 2, 3]), **args)


def test_embed_checks_its_tables():
    with pytest.raises(ValueError, match="need at least one row and one column"):
        embed(np.array([0]), np.zeros((1, 0)), np.zeros((2, 0)))
    with pytest.raises(TypeError, match=r"ids must be integers, got dtype float64"):
        embed(np.array([1.0]), np.zeros((3, 2)), np.zeros((2, 2)))


# ---------------------------------------------------------------- the cache itself

def test_truncate_keeps_only_stored_positions():
    model = _small_model(context_size=3)
    cache = model.new_cache()
    model.step(1, cache)
    model.step(2, cache)
    for length in (3, 5):                                      # within the capacity, but never stored
        with pytest.raises(ValueError, match=rf"cannot truncate a cache of 2 positions to {length}: only stored"):
            cache.truncate(length)
    with pytest.raises(ValueError, match="length must be at least 0, got -1"):
        cache.truncate(-1)
    with pytest.raises(TypeError, match="length must be an int, got float 1.0"):
        cache.truncate(1.0)
    assert len(cache) == 2


def test_truncate_then_step_equals_a_fresh_run():
    model = checks.random_model(3, vocab_size=6, context_size=5, width=4, n_heads=2)
    cache = model.new_cache()
    for token in (1, 2, 3):
        model.step(token, cache)
    cache.truncate(1)
    assert len(cache) == 1 and cache.keys.shape == (2, 1, 2)
    again = model.step(4, cache)
    fresh = model.new_cache()
    model.step(1, fresh)
    np.testing.assert_array_equal(again, model.step(4, fresh))
    np.testing.assert_array_equal(cache.keys, fresh.keys)
    np.testing.assert_array_equal(cache.values, fresh.values)


def test_append_refuses_wrong_shapes_and_lossy_dtypes_writing_nothing():
    cache = KVCache(2, 3, 4, np.float32)
    with pytest.raises(ValueError, match=r"value has shape \(3, 2\), expected \(H, d\) = \(2, 3\)"):
        cache.append(np.zeros((2, 3), np.float32), np.zeros((3, 2), np.float32))
    with pytest.raises(TypeError, match="key of dtype float64 cannot be stored without loss in a float32 cache"):
        cache.append(np.zeros((2, 3)), np.zeros((2, 3), np.float32))
    assert len(cache) == 0
    with pytest.raises(TypeError, match="a cache stores floats"):
        KVCache(2, 3, 4, np.int64)


def test_append_to_a_full_cache_is_refused():
    cache = KVCache(1, 2, 2, np.float64)
    cache.append(np.zeros((1, 2)), np.zeros((1, 2)))
    cache.append(np.ones((1, 2)), np.ones((1, 2)))
    with pytest.raises(ValueError, match="the cache is full: it holds 2 positions"):
        cache.append(np.ones((1, 2)), np.ones((1, 2)))
    assert len(cache) == 2
    np.testing.assert_array_equal(cache.keys, [[[0, 0], [1, 1]]])


@pytest.mark.parametrize("factor, refused", [(0.9, False), (1.1, True)])
def test_the_overflow_rule_looks_at_the_largest_entries_not_at_row_lengths(factor, refused):
    """The limit is on max|q| max|k| sqrt(d) (and Tk max|v|).  Rows of 4 equal entries are twice as long as
    their largest entry, so row lengths alone would refuse inputs at 0.9 of the limit: they are only a
    first, cheap look, and the largest entries decide."""
    limit = float(np.finfo(np.float32).max) / 4
    a = np.sqrt(factor * limit / 2)                            # a * a * sqrt(4) = factor * limit
    big, v = np.full((2, 4), a, dtype=np.float32), np.zeros((2, 4), np.float32)
    for attend in (causal_attention, blocked_causal_attention, fast_causal_attention):
        if refused:
            with pytest.raises(ValueError, match=r"too large for float32"):
                attend(big, big, v)
        else:
            np.testing.assert_array_equal(attend(big, big, v), v)
