"""The decoder of §7 and its layers: every backward against central finite
differences (float64, hypothesis over shapes), dtypes kept, the whole model's
causality with its negative control, the per-layer cache, generation, Adam,
the mirror corpus, and every documented error."""

import pathlib
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib import checks, layers
from lib.attention import causal_attention, masked_softmax, multi_head_attention
from lib.data import BOS, EOS, IGNORE, build_vocab, collate
from lib.decoder import (Adam, Decoder, DecoderCache, is_mirror_line, mirror_language, parameter_shapes,
                         pick_token, read_mirror_corpus, train)
from lib.layers import numerical_gradient, numerical_partial, relative_error
from lib.positions import embed

DTYPES = st.sampled_from([np.float32, np.float64])
SEEDS = st.integers(0, 2**32 - 1)
GRAD_TOL = 1e-6            # relative error of a float64 backward against central differences


def close_to_numeric(grad, numeric):
    """Relative error below GRAD_TOL, or, for a gradient that is itself ~0, an absolute one below 1e-9."""
    return relative_error(grad, numeric) < GRAD_TOL or float(np.abs(grad - numeric).max()) < 1e-9


def check_backward(forward, backward, inputs, rng):
    """Every gradient ``backward`` returns against central differences of sum(upstream * forward(...)).

    forward(*inputs) -> (out, saved); backward(upstream, saved) -> one gradient per input (None = skip).
    """
    out, saved = forward(*inputs)
    upstream = rng.standard_normal(np.shape(out))
    grads = backward(upstream, saved)
    grads = grads if isinstance(grads, tuple) else (grads,)
    assert len(grads) == len(inputs)
    for x, grad in zip(inputs, grads):
        if grad is None:
            continue
        assert grad.shape == x.shape and grad.dtype == x.dtype
        numeric = numerical_gradient(lambda: np.sum(upstream * forward(*inputs)[0]), x)
        assert close_to_numeric(grad, numeric)


# --------------------------------------------------------------------------
# the finite-difference helpers themselves
# --------------------------------------------------------------------------

def test_numerical_gradient_of_known_functions_and_restores_x():
    x = np.array([[0.5, -1.0], [2.0, 3.0]])
    before = x.copy()
    np.testing.assert_allclose(numerical_gradient(lambda: np.sum(x ** 3), x), 3 * before ** 2, rtol=1e-8)
    np.testing.assert_array_equal(x, before)
    assert relative_error([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert relative_error([0.0], [0.0]) == 0.0
    assert relative_error([1.0, 0.0], [1.1, 0.0]) == pytest.approx(0.1 / 1.1)


def test_numerical_gradient_refuses_float32():
    with pytest.raises(TypeError, match="float64"):
        numerical_gradient(lambda: 0.0, np.zeros(2, np.float32))


# --------------------------------------------------------------------------
# every backward against finite differences (float64), over shapes
# --------------------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=2), st.integers(1, 6), SEEDS)
def test_masked_softmax_backward(lead, tk, seed):
    rng = np.random.default_rng(seed)
    scores = rng.standard_normal((*lead, tk))
    allowed = rng.random((*lead, tk)) < 0.6
    allowed[..., rng.integers(tk)] = True
    check_backward(lambda s: (lambda w: (w, w))(masked_softmax(s, allowed)),
                   lambda d, w: layers.masked_softmax_backward(d, w), (scores,), rng)
    weights = masked_softmax(scores, allowed)
    d_scores = layers.masked_softmax_backward(rng.standard_normal(weights.shape), weights)
    assert np.all(d_scores[~allowed] == 0.0)                  # a forbidden score gets exactly no gradient


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 2), st.integers(1, 4), st.integers(0, 3), st.integers(1, 4), st.booleans(), SEEDS)
def test_causal_attention_backward(batch, tq, extra, d, causal, seed):
    rng = np.random.default_rng(seed)
    tk = tq + extra                                            # bottom-right: query i sits at tk - tq + i
    q, k, v = (rng.standard_normal(s) for s in ((batch, tq, d), (batch, tk, d), (batch, tk, d + 1)))
    check_backward(lambda *a: layers.causal_attention_forward(*a, causal=causal),
                   layers.causal_attention_backward, (q, k, v), rng)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 2), st.integers(1, 4), st.integers(1, 3), st.integers(1, 3), st.booleans(), SEEDS)
def test_multi_head_attention_backward(batch, T, H, d, causal, seed):
    rng = np.random.default_rng(seed)
    D = H * d
    x = rng.standard_normal((batch, T, D))
    ws = [rng.standard_normal((D, D)) / np.sqrt(D) for _ in range(4)]
    check_backward(lambda *a: layers.multi_head_attention_forward(*a, n_heads=H, causal=causal),
                   layers.multi_head_attention_backward, (x, *ws), rng)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=2), st.integers(3, 6), SEEDS)
def test_layer_norm_backward(lead, D, seed):
    # D >= 3: with D = 2 a row whose two entries nearly agree has a variance near eps, where layer
    # normalisation bends so sharply that no central difference with a fixed eps is accurate
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((*lead, D)) * 3 + 1
    gain, bias = rng.standard_normal(D), rng.standard_normal(D)
    check_backward(layers.layer_norm_forward, layers.layer_norm_backward, (x, gain, bias), rng)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), SEEDS)
def test_gelu_backward(shape, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape) * 3
    check_backward(layers.gelu_forward, layers.gelu_backward, (x,), rng)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=2), st.integers(1, 4), st.integers(1, 4),
       st.booleans(), SEEDS)
def test_linear_backward(lead, n_in, n_out, with_bias, seed):
    rng = np.random.default_rng(seed)
    x, w = rng.standard_normal((*lead, n_in)), rng.standard_normal((n_in, n_out))
    if with_bias:
        check_backward(layers.linear_forward, layers.linear_backward, (x, w, rng.standard_normal(n_out)), rng)
    else:
        check_backward(layers.linear_forward, lambda d, s: layers.linear_backward(d, s)[:2], (x, w), rng)
        assert layers.linear_backward(np.ones((*lead, n_out)), layers.linear_forward(x, w)[1])[2] is None


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=0, max_size=2), st.integers(1, 4), st.integers(1, 6), SEEDS)
def test_mlp_backward(lead, D, F, seed):
    rng = np.random.default_rng(seed)
    params = (rng.standard_normal((*lead, D)), rng.standard_normal((D, F)), rng.standard_normal(F),
              rng.standard_normal((F, D)), rng.standard_normal(D))
    check_backward(layers.mlp_forward, layers.mlp_backward, params, rng)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=0, max_size=2), st.integers(2, 7), SEEDS)
def test_cross_entropy_backward_and_ignore(lead, V, seed):
    rng = np.random.default_rng(seed)
    logits = rng.standard_normal((*lead, V)) * 2
    targets = rng.integers(0, V, lead)
    if targets.size > 1:
        targets.reshape(-1)[rng.integers(targets.size)] = IGNORE
    flat = targets.reshape(-1)
    flat[rng.integers(flat.size)] = rng.integers(0, V)        # at least one target is scored
    loss, saved = layers.cross_entropy_forward(logits, targets)
    grad = layers.cross_entropy_backward(1.0, saved)
    numeric = numerical_gradient(lambda: layers.cross_entropy_forward(logits, targets)[0], logits)
    assert close_to_numeric(grad, numeric)
    assert np.all(grad[targets == IGNORE] == 0.0)             # padding gets no gradient
    # the definition: mean over the scored targets of -log softmax
    scored = targets != IGNORE
    log_probs = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    expected = -np.mean(np.take_along_axis(log_probs, np.where(scored, targets, 0)[..., None], -1)[..., 0][scored])
    assert loss == pytest.approx(expected, rel=1e-12)
    # d_loss scales the gradient
    np.testing.assert_allclose(layers.cross_entropy_backward(2.5, saved), 2.5 * grad, rtol=1e-14)


def test_cross_entropy_padding_changes_nothing():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((1, 3, 5))
    short, _ = layers.cross_entropy_forward(logits[:, :2], np.array([[1, 4]]))
    padded, _ = layers.cross_entropy_forward(logits, np.array([[1, 4, IGNORE]]))
    assert short == padded                                     # averaged over the scored targets only


# --------------------------------------------------------------------------
# dtypes: float32 keeps float32 everywhere and agrees with float64
# --------------------------------------------------------------------------

@settings(max_examples=20, deadline=None)
@given(DTYPES, SEEDS)
def test_layers_keep_dtype(dtype, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((2, 3, 4)).astype(dtype)
    w = (rng.standard_normal((4, 4)) / 2).astype(dtype)
    vec = rng.standard_normal(4).astype(dtype)
    up = rng.standard_normal((2, 3, 4)).astype(dtype)
    for forward, backward, args in (
            (layers.layer_norm_forward, layers.layer_norm_backward, (x, vec, vec)),
            (layers.gelu_forward, layers.gelu_backward, (x,)),
            (layers.linear_forward, layers.linear_backward, (x, w, vec)),
            (layers.mlp_forward, layers.mlp_backward, (x, w, vec, w, vec)),
            (lambda *a: layers.multi_head_attention_forward(*a, n_heads=2),
             layers.multi_head_attention_backward, (x, w, w, w, w))):
        out, saved = forward(*args)
        assert out.dtype == dtype
        grads = backward(up, saved)
        for g in (grads if isinstance(grads, tuple) else (grads,)):
            assert g is None or g.dtype == dtype
    logits, saved = layers.cross_entropy_forward(x, rng.integers(0, 4, (2, 3)))
    assert layers.cross_entropy_backward(1.0, saved).dtype == dtype


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 2), st.integers(1, 3), SEEDS)
def test_decoder_float32_agrees_with_float64(n_layers, n_heads, seed):
    model64 = Decoder.init(7, 6, 2 * n_heads * 2, n_heads, n_layers, seed)
    model32 = Decoder({k: v.astype(np.float32) for k, v in model64.params.items()}, n_heads)
    rng = np.random.default_rng(seed)
    ids, targets = rng.integers(0, 7, (2, 5)), rng.integers(0, 7, (2, 5))
    loss64, grads64 = model64.loss_and_grads(ids, targets)
    loss32, grads32 = model32.loss_and_grads(ids, targets)
    assert model32.forward(ids).dtype == np.float32
    assert loss32 == pytest.approx(loss64, rel=1e-5)
    for name in grads64:
        assert grads32[name].dtype == np.float32
        assert relative_error(grads32[name], grads64[name]) < 1e-3, name


# --------------------------------------------------------------------------
# the whole decoder
# --------------------------------------------------------------------------

def small_decoder(seed=0, **kwargs):
    sizes = dict(vocab_size=9, context_size=7, width=8, n_heads=2, n_layers=2)
    sizes.update(kwargs)
    return Decoder.init(**sizes, seed=seed)


def test_init_is_seeded_and_has_every_parameter():
    a, b, c = small_decoder(0), small_decoder(0), small_decoder(1)
    assert list(a.params) == list(parameter_shapes(9, 7, 8, 2, 32))
    assert all(np.array_equal(a.params[k], b.params[k]) for k in a.params)
    assert not np.array_equal(a.params["blocks.0.w_q"], c.params["blocks.0.w_q"])
    assert (a.vocab_size, a.context_size, a.width, a.n_heads, a.n_layers) == (9, 7, 8, 2, 2)
    assert a.parameter_count() == sum(v.size for v in a.params.values())
    assert a.dtype == np.float64 and Decoder.init(9, 7, 8, 2, 2, 0, dtype=np.float32).dtype == np.float32
    assert "L=2" in repr(a)


def test_forward_shapes_and_batch_rows_are_independent():
    model = small_decoder()
    ids = np.array([[1, 3, 4, 5], [1, 6, 2, 2]])
    logits = model.forward(ids)
    assert logits.shape == (2, 4, 9) and model.forward(ids[0]).shape == (4, 9)
    np.testing.assert_allclose(logits[1], model.forward(ids[1]), atol=1e-13)


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 2), st.integers(1, 2), st.integers(1, 2), st.booleans(), SEEDS)
def test_decoder_backward_matches_finite_differences(n_layers, n_heads, batch, causal, seed):
    rng = np.random.default_rng(seed)
    model = Decoder.init(6, 5, 4 * n_heads, n_heads, n_layers, seed, mlp_width=5)   # D >= 4: see layer norm above
    ids = rng.integers(0, 6, (batch, 4))
    targets = rng.integers(0, 6, (batch, 4))
    targets[0, -1] = IGNORE
    loss, grads = model.loss_and_grads(ids, targets, causal)
    assert list(grads) == list(model.params)
    for name, value in model.params.items():
        # Every parameter array, a sample of its entries: the largest analytic partial and three
        # more at random (two evaluations of the whole model per entry; all entries took ~150 s).
        flat = rng.choice(value.size, size=min(value.size, 3), replace=False).tolist()
        picked = sorted({int(np.argmax(np.abs(grads[name]))), *flat})
        indices = [np.unravel_index(i, value.shape) for i in picked]
        numeric = np.array([numerical_partial(lambda: model.loss(ids, targets, causal), value, index)
                            for index in indices])
        analytic = np.array([grads[name][index] for index in indices])
        assert close_to_numeric(analytic, numeric), name
    unused = sorted(set(range(6)) - set(ids.reshape(-1).tolist()))
    assert np.all(grads["token_table"][unused] == 0.0)       # rows of ids never seen get no gradient
    assert np.all(grads["position_table"][4:] == 0.0)          # nor do positions beyond T


def test_backward_checks_the_shape_of_d_logits():
    model = small_decoder()
    logits, saved = model.forward_train(np.array([1, 3, 4]))
    with pytest.raises(ValueError, match=r"d_logits has shape \(3, 8\), expected \(3, 9\)"):
        model.backward(np.zeros((3, 8)), saved)
    assert model.backward(np.ones_like(logits), saved)["w_head"].shape == (8, 9)


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(2, 7), st.integers(1, 3), DTYPES, SEEDS)
def test_whole_decoder_is_causal_and_the_control_sees_the_change(n_layers, n_heads, T, batch, dtype, seed):
    rng = np.random.default_rng(seed)
    # D >= 4: layer norm maps a 2-vector to (1, -1) or (-1, 1), so with D = 2 a changed future token
    # may enter the model exactly as the old one did, and the unmasked control then sees no change
    model = Decoder.init(8, T + 1, 4 * n_heads, n_heads, n_layers, seed, dtype=dtype)
    ids = rng.integers(0, 8, (batch, T))
    p = int(rng.integers(1, T))
    perturbed = checks.perturb_future(ids, p, rng, vocab_size=8)
    result = checks.check_causality(model.forward, lambda t: model.forward(t, causal=False), ids, perturbed, p,
                                    tolerance=0.0)
    assert result.change == 0.0                                 # bit for bit, through every layer
    assert result.control_saw_change


def test_a_leak_in_one_layer_leaks_through_the_whole_model():
    """The negative control does not need every layer unmasked: one is enough."""
    model = small_decoder(n_layers=3)
    ids, other = np.array([1, 3, 4, 5, 6]), np.array([1, 3, 8, 8, 8])
    original = model._block_forward

    def leaky_middle(b, x, causal, _layer=[0]):
        out = original(b, x, causal if _layer[0] % 3 != 1 else False)
        _layer[0] += 1
        return out

    model._block_forward = leaky_middle
    assert checks.future_change(model.forward, ids, other, 2) > 1e-6


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 8), DTYPES, SEEDS)
def test_cache_equals_the_full_forward_pass_in_every_layer(n_layers, n_heads, T, dtype, seed):
    rng = np.random.default_rng(seed)
    model = Decoder.init(10, T + int(rng.integers(0, 3)), 2 * n_heads, n_heads, n_layers, seed, dtype=dtype)
    ids = rng.integers(0, 10, T)
    cache = model.new_cache()
    stepped = np.stack([model.step(int(t), cache) for t in ids])
    assert len(cache) == T and stepped.dtype == dtype
    full, saved = model.forward_train(ids)
    tol = 1e-4 if dtype == np.float32 else 1e-12
    np.testing.assert_allclose(stepped, full, atol=tol, rtol=tol)
    for layer, kv in enumerate(cache.layers):                  # each layer stores its own keys and values
        k, v = saved["blocks"][layer][1][-1][1:3]              # (1, H, T, d) from the full forward pass
        np.testing.assert_allclose(kv.keys, k[0], atol=tol, rtol=tol)
        np.testing.assert_allclose(kv.values, v[0], atol=tol, rtol=tol)


def test_cache_reset_to_zero_and_first_layer_only_are_wrong():
    model = small_decoder(seed=3)
    ids = np.array([1, 3, 4, 5, 6])
    full = model.forward(ids)
    cache = model.new_cache()
    for t in ids[:-1]:
        model.step(int(t), cache)
    reset = model.step(int(ids[-1]), cache, position=0)
    assert np.abs(reset - full[-1]).max() > 1e-3
    # only layer 0 keeps a history; the layers above see the new position alone
    first_only = model.new_cache().layers[0]
    for position, token in enumerate(ids):
        x = (model.params["token_table"][token] + model.params["position_table"][position])[None]
        x = model.block_step(0, x, first_only)
        x = model.block_step(1, x, model.new_cache().layers[1])
    h, _ = layers.layer_norm_forward(x, model.params["ln_f.gain"], model.params["ln_f.bias"])
    assert np.abs((h @ model.params["w_head"])[0] - full[-1]).max() > 1e-3


def test_step_past_the_table_leaves_the_cache_unchanged():
    model = small_decoder()
    cache = model.new_cache()
    for t in range(7):
        model.step(t, cache)
    before = [(kv.keys.copy(), kv.values.copy()) for kv in cache.layers]
    with pytest.raises(ValueError, match="outside the position table"):
        model.step(1, cache)
    assert len(cache) == 7
    for (k, v), kv in zip(before, cache.layers):
        assert np.array_equal(k, kv.keys) and np.array_equal(v, kv.values)


@pytest.mark.parametrize("token, named", [(np.array([1, 2]), "ndarray of shape (2,)"), (1.0, "float"),
                                          ("3", "str"), (True, "bool"), (None, "NoneType")])
def test_step_wants_one_int_and_leaves_the_cache_unchanged(token, named):
    model = small_decoder()
    cache = model.new_cache()
    model.step(1, cache)
    keys = cache.layers[1].keys.copy()
    with pytest.raises(TypeError, match=r"step takes one token id \(an int\), got " + re.escape(named)):
        model.step(token, cache)
    assert len(cache) == 1 and np.array_equal(cache.layers[1].keys, keys)


def test_step_accepts_numpy_ints_and_rejects_unknown_ids_and_foreign_caches():
    model = small_decoder()
    cache = model.new_cache()
    model.step(np.int64(3), cache)
    with pytest.raises(ValueError, match=r"token id 9 is outside the token table of 9 rows \(valid ids are 0..8"):
        model.step(9, cache)
    with pytest.raises(ValueError, match="does not belong to this model"):
        model.step(1, small_decoder(n_layers=3).new_cache())
    with pytest.raises(TypeError, match="DecoderCache"):
        model.step(1, [])
    assert len(cache) == 1


def test_a_failing_layer_rolls_the_whole_step_back():
    model = small_decoder(n_layers=3)
    cache = model.new_cache()
    model.step(1, cache)
    original = model._block_step                 # step's path through the layers (checked once)

    def fail_in_last_layer(b, x, kv):
        if kv is cache.layers[2]:
            raise RuntimeError("boom")
        return original(b, x, kv)

    model._block_step = fail_in_last_layer
    with pytest.raises(RuntimeError, match="boom"):
        model.step(2, cache)
    assert [len(kv) for kv in cache.layers] == [1, 1, 1]
    del model._block_step
    np.testing.assert_allclose(model.step(2, cache), model.forward(np.array([1, 2]))[-1], atol=1e-12)


def test_decoder_cache_truncate_and_lengths():
    model = small_decoder()
    cache = model.new_cache()
    for t in (1, 3, 4):
        model.step(t, cache)
    cache.truncate(1)
    assert len(cache) == 1 and "len=1" in repr(cache)
    np.testing.assert_allclose(model.step(5, cache), model.forward(np.array([1, 5]))[-1], atol=1e-12)
    cache.layers[0].truncate(0)
    with pytest.raises(ValueError, match="different lengths"):
        len(cache)
    with pytest.raises(TypeError, match="one KVCache per layer"):
        DecoderCache([])


def test_generate_greedy_is_the_argmax_of_the_full_forward_pass():
    model = small_decoder(seed=5)
    prompt = np.array([BOS, 3])
    out = model.generate(prompt, 5)
    assert out.dtype == np.int64 and out.shape == (7,) and list(out[:2]) == [BOS, 3]
    seq = list(prompt)
    for _ in range(5):
        seq.append(int(np.argmax(model.forward(np.array(seq))[-1])))
    assert list(out) == seq
    assert list(model.generate(prompt, 0)) == [BOS, 3]


def test_generate_uses_every_position_and_no_more():
    model = small_decoder()
    assert len(model.generate(np.array([BOS]), 7)) == 8            # 7 steps: positions 0..6
    with pytest.raises(ValueError, match="need 8 positions, but the position table has 7"):
        model.generate(np.array([BOS]), 8)


def test_generate_sampling_is_seeded():
    model = small_decoder(seed=2)
    a = model.generate(np.array([BOS]), 6, temperature=1.0, seed=4)
    b = model.generate(np.array([BOS]), 6, temperature=1.0, seed=4)
    assert np.array_equal(a, b)
    draws = {tuple(model.generate(np.array([BOS]), 6, temperature=1.0, seed=s)) for s in range(20)}
    assert len(draws) > 1


def test_pick_token_samples_the_softmax():
    rng = np.random.default_rng(0)
    logits = np.array([0.0, 1.0, 2.0, -np.inf])
    counts = np.bincount([pick_token(logits, 1.0, rng) for _ in range(6000)], minlength=4)
    probs = np.exp(logits) / np.exp(logits).sum()
    np.testing.assert_allclose(counts / 6000, probs, atol=0.02)
    assert counts[3] == 0
    assert pick_token(np.array([1.0, 3.0, 3.0]), 0.0, rng) == 1    # greedy: the first of a tie


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(prompt_ids=np.array([[1, 3]]), n_new=1), ValueError, r"shape \(T,\)"),
    (dict(prompt_ids=np.array([], dtype=int), n_new=1), ValueError, "T >= 1"),
    (dict(prompt_ids=np.array([1.0]), n_new=1), TypeError, "integers"),
    (dict(prompt_ids=np.array([1]), n_new=-1), ValueError, "n_new must be at least 0"),
    (dict(prompt_ids=np.array([1]), n_new=2.0), TypeError, "n_new must be an int"),
    (dict(prompt_ids=np.array([1]), n_new=1, temperature="hot"), TypeError, "temperature"),
    (dict(prompt_ids=np.array([1]), n_new=1, temperature=-1.0), ValueError, "temperature"),
    (dict(prompt_ids=np.array([1]), n_new=1, temperature=float("nan")), ValueError, "temperature"),
    (dict(prompt_ids=np.array([1, 12]), n_new=1), ValueError, "token id 12 is outside"),
])
def test_generate_errors(kwargs, error, match):
    with pytest.raises(error, match=match):
        small_decoder().generate(**kwargs)


def test_forward_errors():
    model = small_decoder()
    with pytest.raises(ValueError, match=r"positions 0\.\.7 reach outside the position table, which has rows 0\.\.6 \(C=7\) and no row for 7;"):
        model.forward(np.arange(8) % 9)
    with pytest.raises(TypeError, match="causal must be True or False"):
        model.forward(np.array([1, 2]), causal="no")
    with pytest.raises(ValueError, match="token id -100 is outside"):
        model.forward(np.array([1, IGNORE]))


@pytest.mark.parametrize("kwargs, error, match", [
    (dict(width=6, n_heads=4), ValueError, "not divisible"),
    (dict(vocab_size=0), ValueError, "vocab_size must be at least 1, got 0"),
    (dict(n_layers=1.5), TypeError, "n_layers must be an int, got float"),
    (dict(context_size=True), TypeError, "context_size must be an int, got bool"),
    (dict(n_heads=2.0), TypeError, "n_heads must be an int, got float"),
])
def test_init_errors(kwargs, error, match):
    sizes = dict(vocab_size=9, context_size=7, width=8, n_heads=2, n_layers=2, seed=0)
    sizes.update(kwargs)
    with pytest.raises(error, match=match):
        Decoder.init(**sizes)


def test_constructor_errors():
    params = small_decoder().params
    with pytest.raises(ValueError, match=r"parameter blocks.1.w_q has shape \(8, 7\), expected \(8, 8\)"):
        Decoder({**params, "blocks.1.w_q": np.zeros((8, 7))}, 2)
    with pytest.raises(ValueError, match=r"missing \['blocks.0.w_k'\]"):
        Decoder({k: v for k, v in params.items() if k != "blocks.0.w_k"}, 2)
    with pytest.raises(TypeError, match="same dtype"):
        Decoder({**params, "w_head": params["w_head"].astype(np.float32)}, 2)
    with pytest.raises(ValueError, match="not divisible by n_heads=3"):
        Decoder(params, 3)
    with pytest.raises(TypeError, match="dict"):
        Decoder(list(params.values()), 2)


def test_layer_errors():
    x = np.zeros((2, 4))
    with pytest.raises(ValueError, match=r"gain has shape \(3,\), expected \(4,\)"):
        layers.layer_norm_forward(x, np.ones(3), np.zeros(4))
    with pytest.raises(ValueError, match=r"w has shape \(3, 2\), expected \(4, n_out\)"):
        layers.linear_forward(x, np.zeros((3, 2)))
    with pytest.raises(TypeError, match="x must hold real numbers"):
        layers.gelu_forward(np.array(["a", "b"]))
    assert layers.gelu_forward(np.arange(3))[0].dtype == np.float64     # integers count as float64
    with pytest.raises(ValueError, match=r"w_o has shape \(4, 3\)"):
        layers.multi_head_attention_forward(np.zeros((1, 2, 4)), *[np.eye(4)] * 3, np.zeros((4, 3)), n_heads=2)
    with pytest.raises(ValueError, match="d_weights has shape"):
        layers.masked_softmax_backward(np.zeros(3), np.zeros(2))


@pytest.mark.parametrize("targets, error, match", [
    (np.array([IGNORE, IGNORE]), ValueError, "no target is scored"),
    (np.array([1, 7]), ValueError, r"target 7 is not a token id 0..3 and not IGNORE=-100"),
    (np.array([1, -1]), ValueError, "target -1"),
    (np.array([1]), ValueError, r"do not match logits of shape \(2, 4\)"),
    (np.array([1.0, 2.0]), TypeError, "integer"),
])
def test_cross_entropy_errors(targets, error, match):
    with pytest.raises(error, match=match):
        layers.cross_entropy_forward(np.zeros((2, 4)), targets)


def test_copy_is_independent():
    model = small_decoder(seed=4)
    ids = np.array([1, 3, 4])
    copy = model.copy()
    copy.params["w_head"] += 1
    assert not np.array_equal(copy.forward(ids), model.forward(ids))


# --------------------------------------------------------------------------
# Adam and training
# --------------------------------------------------------------------------

def test_adam_first_step_moves_every_entry_by_lr():
    params = {"a": np.array([1.0, -2.0, 3.0]), "b": np.zeros((2, 2))}
    g = np.array([0.5, -4.0, 1e-3])
    Adam(params, lr=0.1).step({"a": g, "b": np.ones((2, 2))})
    # at t = 1, m_hat = g and v_hat = g^2, so the step is lr * g / (|g| + eps): about lr, whatever |g|
    np.testing.assert_allclose(params["a"], [1.0, -2.0, 3.0] - 0.1 * g / (np.abs(g) + 1e-8), rtol=1e-12)
    np.testing.assert_allclose(params["a"], [0.9, -1.9, 2.9], rtol=1e-5)
    np.testing.assert_allclose(params["b"], -0.1 / (1 + 1e-8) * np.ones((2, 2)), rtol=1e-12)


def test_adam_errors_leave_the_parameters_unchanged():
    params = {"a": np.array([1.0, 2.0])}
    optimiser = Adam(params)
    with pytest.raises(ValueError, match=r"missing \['a'\], unexpected \['b'\]"):
        optimiser.step({"b": np.zeros(2)})
    with pytest.raises(ValueError, match=r"gradient of a has shape \(3,\), expected \(2,\)"):
        optimiser.step({"a": np.zeros(3)})
    with pytest.raises(ValueError, match="not finite"):
        optimiser.step({"a": np.array([1.0, np.nan])})
    assert optimiser.t == 0 and np.array_equal(params["a"], [1.0, 2.0])
    with pytest.raises(ValueError, match="lr must be a positive number"):
        Adam(params, lr=0)
    with pytest.raises(TypeError, match="float32 or float64 array"):
        Adam({"a": [1.0, 2.0]})
    with pytest.raises(TypeError, match=r"share one dtype, got \['float32', 'float64'\]"):
        Adam({"a": np.zeros(2), "b": np.zeros(2, np.float32)})


def test_adam_on_one_vector_updates_each_parameter_as_alone():
    # m and v hold every parameter in one vector: the update of each is that of Adam on it alone
    rng = np.random.default_rng(0)
    params = {"a": rng.standard_normal((3, 4)), "b": rng.standard_normal(5)}
    alone = {name: {name: value.copy()} for name, value in params.items()}
    together, apart = Adam(params, lr=0.05), {name: Adam(p, lr=0.05) for name, p in alone.items()}
    for _ in range(4):
        grads = {name: rng.standard_normal(value.shape) for name, value in params.items()}
        together.step(grads)
        for name, optimiser in apart.items():
            optimiser.step({name: grads[name]})
    assert all(np.array_equal(params[name], alone[name][name]) for name in params)


def test_training_lowers_the_loss():
    lines = read_mirror_corpus()
    vocab = build_vocab(lines)
    model = Decoder.init(len(vocab), 8, 16, 2, 1, seed=0)
    inputs, targets = collate(lines, vocab)
    before = model.loss(inputs, targets)
    losses = train(model, lines, vocab, steps=40, batch_size=16, lr=0.01, seed=0)
    assert losses.shape == (40,) and np.all(np.isfinite(losses))
    assert model.loss(inputs, targets) < before - 0.5
    with pytest.raises(ValueError, match="batch_size=300 is larger than the corpus of 216"):
        train(model, lines, vocab, steps=1, batch_size=300, lr=0.01)


def test_train_hooks_change_nothing_but_what_they_say():
    lines = read_mirror_corpus()
    vocab = build_vocab(lines)
    plain, hooked, custom = (Decoder.init(len(vocab), 8, 16, 2, 1, seed=0) for _ in range(3))
    reference = train(plain, lines, vocab, steps=5, batch_size=8, lr=0.01, seed=3)
    seen = []
    observed = train(hooked, lines, vocab, steps=5, batch_size=8, lr=0.01, seed=3,
                     observe=lambda step, model: seen.append((step, model is hooked)))
    assert np.array_equal(reference, observed) and seen == [(s, True) for s in range(1, 6)]
    assert all(np.array_equal(plain.params[n], hooked.params[n]) for n in plain.params)
    calls = []

    def counting(model, inputs, targets):
        calls.append(inputs.shape[0])
        return model.loss_and_grads(inputs, targets, True)

    assert np.array_equal(train(custom, lines, vocab, steps=5, batch_size=8, lr=0.01, seed=3,
                                loss_and_grads=counting), reference)
    assert calls == [8] * 5
    with pytest.raises(ValueError, match="either causal or loss_and_grads"):
        train(custom, lines, vocab, steps=1, batch_size=8, lr=0.01, causal=False, loss_and_grads=counting)
    with pytest.raises(TypeError, match="observe must be a function or None, got int"):
        train(custom, lines, vocab, steps=1, batch_size=8, lr=0.01, observe=3)


KEPT_MEMORY = """
import hashlib, resource, sys
from lib import decoder
from lib.data import build_vocab
if sys.argv[1] == "off":
    decoder._keep_freed_memory = lambda: None
lines = decoder.read_mirror_corpus()
vocab = build_vocab(lines)
four = decoder.Decoder.stack([decoder.Decoder.init(len(vocab), 8, 16, 2, 2, seed=s) for s in range(4)])
decoder.train(four, lines, vocab, steps=5, batch_size=32, lr=0.01, seed=[1, 2, 3, 4])
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
decoder.train(four, lines, vocab, steps=20, batch_size=32, lr=0.01, seed=[5, 6, 7, 8])
faults = (resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 20
print(faults, hashlib.sha256(b"".join(p.tobytes() for p in four.params.values())).hexdigest())
"""


def test_training_keeps_its_freed_temporaries_and_the_same_numbers():
    """train() asks glibc's malloc to keep NumPy's freed temporaries in its heap: a step of a stack
    of four (§7.3's size) page-faults almost no fresh memory in, against about 2,000 faults per step
    without it (a third of the step's time), and every parameter comes out bit for bit the same.
    Each run in a fresh process: the setting lasts for the process."""
    import platform
    import subprocess
    import sys
    runs = {}
    for mode in ("on", "off"):
        out = subprocess.run([sys.executable, "-c", KEPT_MEMORY, mode], capture_output=True, text=True,
                             check=True, cwd=pathlib.Path(__file__).resolve().parent.parent).stdout.split()
        runs[mode] = (float(out[0]), out[1])
    assert runs["on"][1] == runs["off"][1], "the malloc setting changed a parameter"
    if platform.libc_ver()[0] == "glibc":
        assert runs["on"][0] < 50 < 500 < runs["off"][0], runs


# --------------------------------------------------------------------------
# a stack: S decoders trained as one, each exactly as alone (§7.3)
# --------------------------------------------------------------------------

def test_a_stack_computes_and_trains_each_model_bit_for_bit_as_alone():
    lines = read_mirror_corpus()
    vocab = build_vocab(lines)
    alone = [Decoder.init(len(vocab), 8, 16, 2, 2, seed=seed) for seed in (3, 5, 7)]
    stack = Decoder.stack(alone)
    assert stack.n_models == 3 and alone[0].n_models is None and "models=3" in repr(stack)
    assert stack.params["blocks.1.w_q"].shape == (3, 16, 16)
    inputs, targets = collate(lines[:24], vocab)                       # (24, 8)
    batches = [(inputs[8 * s:8 * s + 8], targets[8 * s:8 * s + 8]) for s in range(3)]
    stacked_inputs, stacked_targets = (np.stack(a) for a in zip(*batches))   # (3, 8, 8)
    for causal in (True, False, (False, True)):
        losses, grads = stack.loss_and_grads(stacked_inputs, stacked_targets, causal)
        assert losses.shape == (3,)
        for s, model in enumerate(alone):
            loss, own = model.loss_and_grads(*batches[s], causal)
            assert losses[s] == loss
            assert all(np.array_equal(grads[name][s], own[name]) for name in own)
            assert np.array_equal(stack.forward(stacked_inputs, causal)[s], model.forward(batches[s][0], causal))
    # trained side by side with one order of batches each, every model ends exactly where it ends alone
    stack_losses = train(stack, lines, vocab, steps=6, batch_size=8, lr=0.01, seed=[1, 2, 3])
    assert stack_losses.shape == (6, 3)
    for s, (model, twin) in enumerate(zip(alone, stack.unstack())):
        assert np.array_equal(train(model, lines, vocab, steps=6, batch_size=8, lr=0.01, seed=s + 1),
                              stack_losses[:, s])
        assert all(np.array_equal(model.params[name], twin.params[name]) for name in model.params)
    twin = stack.unstack()[1]
    twin.params["w_head"][0, 0] += 1.0                                  # unstack gives views
    assert stack.params["w_head"][1, 0, 0] == twin.params["w_head"][0, 0]


def test_stack_errors():
    one = Decoder.init(6, 5, 4, 2, 1, seed=0)
    stack = Decoder.stack([one, one.copy()])
    with pytest.raises(ValueError, match="same parameter names, shapes, dtype and H"):
        Decoder.stack([one, Decoder.init(6, 5, 8, 2, 1)])
    with pytest.raises(TypeError, match="decoders \\(not stacks\\)"):
        Decoder.stack([stack])
    with pytest.raises(TypeError, match="unstack needs a stack"):
        one.unstack()
    with pytest.raises(ValueError, match="ids of shape \\(S, B, T\\) with S=2"):
        stack.forward(np.array([[1, 2]]))
    with pytest.raises(ValueError, match="outside the token table"):
        stack.forward(np.full((2, 1, 3), 6))
    with pytest.raises(TypeError, match="stack of decoders has no cache"):
        stack.new_cache()
    with pytest.raises(ValueError, match="needs 2 seeds"):
        train(stack, ["ab"], ["<unk>", "<bos>", "<eos>", "a", "b"], steps=1, batch_size=1, lr=0.01, seed=3)


def test_cross_entropy_of_a_stack_is_one_mean_per_model():
    rng = np.random.default_rng(0)
    logits = rng.standard_normal((3, 2, 4, 5))
    targets = rng.integers(0, 5, (3, 2, 4))
    targets[0, 1, 2:] = IGNORE                                          # the models count different targets
    losses, saved = layers.cross_entropy_forward(logits, targets)
    d_logits = layers.cross_entropy_backward(np.array([1.0, 2.0, 0.5]), saved)
    for s, scale in enumerate((1.0, 2.0, 0.5)):
        loss, own = layers.cross_entropy_forward(logits[s], targets[s])
        assert losses[s] == pytest.approx(loss, rel=1e-15)
        np.testing.assert_allclose(d_logits[s], layers.cross_entropy_backward(scale, own), rtol=1e-15)


def test_attention_weights_are_rows_of_the_forward_pass():
    model = Decoder.init(10, 8, 16, 2, 2, seed=1)
    ids = np.array([1, 3, 5, 4, 6, 2])
    for causal in (True, False):
        weights = model.attention_weights(ids, causal)
        assert len(weights) == 2 and all(w.shape == (2, 6, 6) for w in weights)
        assert all(np.allclose(w.sum(axis=-1), 1.0, rtol=0, atol=1e-12) for w in weights)
        future = np.triu(np.ones((6, 6), dtype=bool), k=1)
        assert all(np.all(w[:, future] == 0.0) for w in weights) == causal
    batched = model.attention_weights(ids[None], False)
    assert batched[0].shape == (1, 2, 6, 6) and np.array_equal(batched[1][0], model.attention_weights(ids, False)[1])


# --------------------------------------------------------------------------
# the mirror corpus
# --------------------------------------------------------------------------

def test_mirror_corpus_obeys_its_rule_and_holds_out_every_seventh_line():
    language, corpus = mirror_language(), read_mirror_corpus()
    assert len(language) == 252 and len(set(language)) == 252 and len(corpus) == 216
    assert all(is_mirror_line(line) for line in language)
    assert [line for line in language if line not in set(corpus)] == language[6::7]
    assert corpus == sorted(corpus, key=language.index)


def test_held_out_words_occur_in_the_corpus_only_as_two_letter_reversals():
    """§7.2, "Has it learned the rule?": the two-letter held-out words occur in the corpus only after
    a bar; the three-letter ones occur nowhere as whole words, since their reversals are held out too."""
    language, corpus = mirror_language(), read_mirror_corpus()
    held_words = [line.split("|")[0] for line in language if line not in set(corpus)]
    before_bar = {line.split("|")[0] for line in corpus}
    after_bar = {line.split("|")[1] for line in corpus}
    short, long = [w for w in held_words if len(w) == 2], [w for w in held_words if len(w) == 3]
    assert short and long and not set(held_words) & before_bar
    assert all(w in after_bar for w in short) and not set(long) & after_bar
    assert all(w[::-1] in held_words for w in long)


@pytest.mark.parametrize("text, ok", [("ab|ba", True), ("春ж雨|雨ж春", True), ("ab|ab", False), ("a|a", False),
                                      ("abab|baba", False), ("ab|ba|", False), ("xy|yx", False), ("", False)])
def test_is_mirror_line(text, ok):
    assert is_mirror_line(text) is ok


def test_is_mirror_line_wants_a_string():
    with pytest.raises(TypeError, match="expects a str"):
        is_mirror_line(["ab|ba"])


def test_decoder_forward_agrees_with_the_one_layer_building_blocks():
    """forward's attention is lib.attention's: one block's attention equals multi_head_attention."""
    model = small_decoder()
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 5, 8))
    b = model.block(0)
    out, _ = layers.multi_head_attention_forward(x, b["w_q"], b["w_k"], b["w_v"], b["w_o"], 2)
    np.testing.assert_allclose(out, multi_head_attention(x, b["w_q"], b["w_k"], b["w_v"], b["w_o"], 2), atol=1e-13)
    q, k, v = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 6, 4)), rng.standard_normal((2, 6, 4))
    np.testing.assert_allclose(layers.causal_attention_forward(q, k, v)[0], causal_attention(q, k, v), atol=1e-13)
    assert EOS == 2


def test_per_layer_mask_switches_and_the_residual_stream():
    model = small_decoder(n_layers=2)
    ids, other = np.array([1, 3, 4, 5, 6]), np.array([1, 3, 8, 8, 8])

    def prefix_changes(causal):
        a, b = model.residual_stream(ids, causal), model.residual_stream(other, causal)
        return [float(np.abs(x[:2] - y[:2]).max()) for x, y in zip(a, b)]

    assert len(model.residual_stream(ids)) == 3 and model.residual_stream(ids)[0].shape == (5, 8)
    np.testing.assert_array_equal(model.residual_stream(ids)[0], embed(ids, model.params["token_table"],
                                                                        model.params["position_table"]))
    assert prefix_changes(True) == [0.0, 0.0, 0.0]
    assert prefix_changes((True, False))[:2] == [0.0, 0.0] and prefix_changes((True, False))[2] > 0
    leak_first = prefix_changes((False, True))
    assert leak_first[0] == 0.0 and leak_first[1] > 0 and leak_first[2] > 0   # later layers carry the leak
    assert np.array_equal(model.forward(ids, (True, True)), model.forward(ids))
    with pytest.raises(TypeError, match="a tuple of 2 bools"):
        model.forward(ids, (True,))


def test_gradient_of_position_i_never_reaches_later_positions():
    model = small_decoder(n_layers=3, seed=2)
    ids = np.array([1, 3, 4, 5, 6, 7])
    logits, saved = model.forward_train(ids)
    rng = np.random.default_rng(0)
    for i in range(6):
        d_logits = np.zeros_like(logits)
        d_logits[i] = rng.standard_normal(9)
        d_position = model.backward(d_logits, saved)["position_table"]
        assert np.all(d_position[i + 1:] == 0.0) and np.all(np.abs(d_position[:i + 1]).max(axis=1) > 0)


def test_the_test_models_rebuild_the_corpus_without_reading_the_file():
    """A graded kernel gets lib's Python files only, so exercise set 7 rebuilds the corpus from the rule."""
    from grading.models import training_lines
    assert training_lines() == read_mirror_corpus()


def test_blocked_products_are_what_one_blas_thread_computes():
    """lib makes a forward product x @ w by blocks of rows, each small enough for one BLAS thread:
    bit for bit what x @ w gives on one thread, whatever the threads (a product OpenBLAS splits
    between two threads can differ in its last bits with its Nehalem and Haswell kernels)."""
    import threadpoolctl
    from lib.attention import _product
    rng = np.random.default_rng(0)
    for x_shape, w_shape in [((130, 64), (64, 256)), ((1, 130, 64), (64, 64)),
                             ((3, 70, 256), (256, 64)), ((5, 2, 40, 64), (5, 1, 64, 256)),
                             ((200, 128), (128, 128)), ((0, 64), (64, 64)), ((64,), (64, 64))]:
        x, w = rng.standard_normal(x_shape), rng.standard_normal(w_shape)
        with threadpoolctl.threadpool_limits(1, user_api="blas"):
            one_thread = x @ w
        assert np.array_equal(_product(x, w), one_thread), (x_shape, w_shape)
    x, w = rng.standard_normal((40, 600)), rng.standard_normal((600, 600))     # 16 rows: threaded
    assert np.allclose(_product(x, w), x @ w, rtol=1e-12, atol=1e-12)
