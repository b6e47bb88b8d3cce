"""Every hand-computed number of the chapter, and the seed program's figures."""

import math

import numpy as np
import pytest

from lib.attention import causal_future, masked_softmax, multi_head_attention, split_heads
from lib.checks import attention_weights
from lib.data import BOS, EOS, IGNORE, UNK, build_vocab, collate, decode, encode
from lib.positions import embed_backward

A = 1 / (1 + math.exp(1 / math.sqrt(2)))
B = 1 - A


def test_three_position_weights():
    weights = masked_softmax(np.zeros((3, 3)), ~causal_future(3, 3))
    np.testing.assert_array_equal(weights[0], [1, 0, 0])
    np.testing.assert_array_equal(weights[1], [0.5, 0.5, 0])
    np.testing.assert_allclose(weights[2], [1 / 3] * 3, rtol=0, atol=1e-15)


def test_lib_restricts_before_normalising_not_after():
    """softmax-then-zero leaves rows summing to 1/3 and 2/3; lib's rows sum to 1 and equal the renormalised rows."""
    future = causal_future(3, 3)
    for S in (np.zeros((3, 3)), np.array([[0.0, 2.0, -1.0], [0.5, -0.5, 3.0], [1.0, 0.0, 0.25]])):
        weights = masked_softmax(S, ~future)
        e = np.exp(S - S.max(axis=-1, keepdims=True))
        wrong = e / e.sum(axis=-1, keepdims=True)               # normalise over every key first ...
        wrong[future] = 0                                       # ... then zero the future
        assert not np.allclose(weights, wrong)
        assert wrong[0].sum() < 1 and wrong[1].sum() < 1
        np.testing.assert_allclose(weights.sum(axis=-1), 1, rtol=0, atol=1e-15)
        np.testing.assert_allclose(weights, wrong / wrong.sum(axis=-1, keepdims=True), rtol=0, atol=1e-15)
    zeros = masked_softmax(np.zeros((3, 3)), ~future)           # the chapter's numbers: 1, 1/2, 1/3 ...
    np.testing.assert_allclose(zeros[[0, 1, 2], [0, 0, 0]], [1, 1 / 2, 1 / 3], rtol=0, atol=1e-15)
    e = np.ones((3, 3)) / 3
    e[future] = 0                                               # ... against 1/3, 1/3, 1/3 for the wrong order
    np.testing.assert_allclose(e.sum(axis=1), [1 / 3, 2 / 3, 1], rtol=0, atol=1e-15)


def test_strict_less_than_leaves_row_zero_empty():
    allowed_strict = np.arange(3)[None, :] < np.arange(3)[:, None]     # j < i instead of j <= i
    with pytest.raises(ValueError, match=r"row \(0,\)"):
        masked_softmax(np.zeros((3, 3)), allowed_strict)


def test_a_and_b_are_the_weights_lib_computes():
    """The chapter's a = 0.330238 and b = 0.669762: query 1 (春) over keys <bos>, 春 in both heads."""
    x = np.array([[[1., 0., 0., 1.], [0., 1., 1., 0.]]])      # E[BOS], E[春], positions off
    weights = attention_weights(x, np.eye(4), np.eye(4), n_heads=2)   # (1, H, T, T)
    for head in range(2):
        np.testing.assert_allclose(weights[0, head, 1], [A, B], rtol=0, atol=1e-15)
        np.testing.assert_array_equal(weights[0, head, 0], [1, 0])
    a, b = (float(w) for w in weights[0, 0, 1])
    assert round(a, 6) == 0.330238 and round(b, 6) == 0.669762 and round(a - b, 6) == -0.339523


def test_two_head_example_by_lib():
    x = np.array([[[1., 0., 0., 1.], [0., 1., 1., 0.]]])      # E[BOS], E[春], positions off
    identity = np.eye(4)
    W_O = np.array([[1., 0., 1., 0.], [0., 1., 0., 1.], [1., 0., -1., 0.], [0., 1., 0., -1.]])
    heads = multi_head_attention(x, identity, identity, identity, np.eye(4), n_heads=2)
    np.testing.assert_allclose(heads[0, 1], [A, B, B, A], atol=1e-15)
    out = multi_head_attention(x, identity, identity, identity, W_O, n_heads=2)
    np.testing.assert_allclose(out[0, 0], [1, 1, 1, -1], atol=1e-15)
    np.testing.assert_allclose(out[0, 1], [1, 1, A - B, B - A], atol=1e-15)


def test_two_head_example_by_model(chapter_model):
    out = chapter_model.forward(np.array([BOS, 3]), use_positions=False)
    np.testing.assert_allclose(out, [[1, 1, 1, -1], [1, 1, A - B, B - A]], atol=1e-12)


def test_position_gradient_example():
    grad = np.zeros((2, 1, 2))
    grad[0, 0], grad[1, 0] = [1, 2], [-3, 1]
    ids = np.array([[3], [5]])                                  # different first tokens
    d_token, d_position = embed_backward(grad, ids, vocab_size=6, context_size=4)
    np.testing.assert_array_equal(d_position[0], [-2, 3])
    np.testing.assert_array_equal(d_token[3], [1, 2])
    np.testing.assert_array_equal(d_token[5], [-3, 1])
    same = embed_backward(grad, np.array([[3], [3]]), 6, 4)[0]
    np.testing.assert_array_equal(same[3], [-2, 3])             # the same token row sums both


def test_collate_example():
    vocab = build_vocab(["春", "雨", "风"])
    assert vocab == ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
    inputs, targets = collate(["春雨", "雨"], vocab)
    assert inputs.dtype == np.int64 and targets.dtype == np.int64
    np.testing.assert_array_equal(inputs, [[1, 3, 4], [1, 4, 2]])
    np.testing.assert_array_equal(targets, [[3, 4, 2], [4, 2, -100]])
    assert (UNK, BOS, EOS, IGNORE) == (0, 1, 2, -100)


def test_vocab_is_sorted_by_code_point_and_encode_decode():
    vocab = build_vocab(["风雨", "ab", "春"])
    chars = vocab[3:]
    assert chars == sorted(chars, key=ord) and len(set(chars)) == len(chars)
    assert encode("雨x", build_vocab(["雨"])) == [3, UNK]
    assert decode(encode("春雨", vocab), vocab) == "春雨"
    assert decode([BOS, EOS], vocab) == "<bos><eos>"


def test_right_padding_protocol(chapter_model):
    inputs, targets = collate(["春雨", "雨"], build_vocab(["春", "雨", "风"]))
    short_inputs, short_targets = inputs[1], targets[1]         # 雨, padded to the batch length
    np.testing.assert_array_equal(short_inputs, [BOS, 4, EOS])
    scored = short_targets != IGNORE                            # decided by targets, not by input == EOS
    assert scored.tolist() == [True, True, False]
    assert short_targets[scored].tolist() == [4, EOS]           # the real EOS target is scored
    full = chapter_model.forward(short_inputs)
    assert full.shape == (3, 4)                                   # the padded query still has an output
    np.testing.assert_array_equal(full[:2], chapter_model.forward(np.array([BOS, 4])))


def seed_figures(model):
    def diff(a, b):
        return float(np.max(np.abs(np.asarray(a) - np.asarray(b))))
    base = model.forward(np.array([BOS, 3, 4]))
    perturbed = model.forward(np.array([BOS, 3, UNK]))
    control = diff(model.forward(np.array([BOS, 3, 4]), causal=False)[:2],
                   model.forward(np.array([BOS, 3, UNK]), causal=False)[:2])
    no_pos = diff(model.forward(np.array([3, 5, 4]), use_positions=False)[-1],
                  model.forward(np.array([5, 3, 4]), use_positions=False)[-1])
    with_pos = diff(model.forward(np.array([3, 5, 4]))[-1], model.forward(np.array([5, 3, 4]))[-1])
    cache = model.new_cache()
    incremental = [model.step(t, cache) for t in (BOS, 3, 4)]
    bad = model.new_cache()
    model.step(BOS, bad), model.step(3, bad)
    reset = diff(model.step(4, bad, position=0), base[-1])
    return diff(base[:2], perturbed[:2]), control, no_pos, with_pos, diff(incremental, base), reset


def test_seed_figures(chapter_model):
    future, control, no_pos, with_pos, cache, reset = seed_figures(chapter_model)
    assert future == 0.0
    assert control == pytest.approx(39.772020613422825, rel=1e-13)
    assert no_pos == 0.0
    assert with_pos == pytest.approx(0.047053077502492324, rel=1e-12)
    assert cache == 0.0
    assert reset == pytest.approx(0.08753403247684122, rel=1e-12)


def test_split_heads_index_rule_small():
    x = np.arange(2 * 3 * 4).reshape(2, 3, 4)
    heads = split_heads(x, 2)
    assert heads.shape == (2, 2, 3, 2)
    assert heads[1, 1, 2, 0] == x[1, 2, 1 * 2 + 0]
