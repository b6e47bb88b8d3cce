"""Every documented ValueError, with a message that says what is wrong and what is expected."""

import numpy as np
import pytest

from lib.attention import causal_attention, masked_softmax, multi_head_attention, split_heads
from lib.data import build_vocab, collate, decode
from lib.model import AttentionModel
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
    with pytest.raises(ValueError, match=r"positions 2\.\.2 fall outside the position table"):
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
