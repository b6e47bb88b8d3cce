"""The decoder of §7 against PyTorch autograd (optional locally, mandatory in CI).

Every backward of lib.layers against torch.autograd on the same inputs; the
whole decoder (forward, loss and every parameter's gradient) against a torch
module built here with the same weights; Adam against torch.optim.Adam.
"""

import numpy as np
import pytest

from lib import layers
from lib.attention import masked_softmax
from lib.data import IGNORE
from lib.decoder import Adam, Decoder

from conftest import require_or_skip

TOL = {np.float32: 2e-5, np.float64: 1e-11}


@pytest.fixture(scope="module")
def torch():
    return require_or_skip("torch", "parity of the §7 decoder with torch autograd and torch.optim.Adam")


def tensors(torch, *arrays):
    return [torch.tensor(a, requires_grad=True) for a in arrays]


def autograd(torch, out, inputs, upstream):
    """Gradients of sum(upstream * out) with respect to each input."""
    grads = torch.autograd.grad(out, inputs, grad_outputs=torch.from_numpy(upstream))
    return [g.numpy() for g in grads]


def assert_close(ours, theirs, dtype):
    for a, b in zip(ours, theirs):
        assert a.dtype == dtype
        np.testing.assert_allclose(a, b, atol=TOL[dtype] * 10, rtol=TOL[dtype] * 10)


DTYPES = pytest.mark.parametrize("dtype", [np.float32, np.float64])


@DTYPES
def test_masked_softmax_backward(torch, dtype):
    rng = np.random.default_rng(0)
    scores = rng.standard_normal((2, 3, 5)).astype(dtype)
    allowed = rng.random((2, 3, 5)) < 0.6
    allowed[..., 0] = True
    upstream = rng.standard_normal(scores.shape).astype(dtype)
    (t_scores,) = tensors(torch, scores)
    weights = torch.softmax(t_scores.masked_fill(torch.from_numpy(~allowed), float("-inf")), dim=-1)
    expected = autograd(torch, weights, [t_scores], upstream)
    ours = layers.masked_softmax_backward(upstream, masked_softmax(scores, allowed))
    assert_close([ours], expected, dtype)


@DTYPES
@pytest.mark.parametrize("tq, tk", [(4, 4), (2, 5), (1, 6)])
def test_causal_attention_backward_with_bottom_right_alignment(torch, dtype, tq, tk):
    rng = np.random.default_rng(tq * 10 + tk)
    q, k, v = (rng.standard_normal(s).astype(dtype) for s in ((2, 3, tq, 4), (2, 3, tk, 4), (2, 3, tk, 4)))
    upstream = rng.standard_normal((2, 3, tq, 4)).astype(dtype)
    tq_, tk_, tv_ = tensors(torch, q, k, v)
    allowed = torch.ones(tq, tk, dtype=torch.bool).tril(diagonal=tk - tq)    # query i at tk - tq + i
    out = torch.nn.functional.scaled_dot_product_attention(tq_, tk_, tv_, attn_mask=allowed)
    expected = autograd(torch, out, [tq_, tk_, tv_], upstream)
    ours_out, saved = layers.causal_attention_forward(q, k, v)
    np.testing.assert_allclose(ours_out, out.detach().numpy(), atol=TOL[dtype] * 10)
    assert_close(layers.causal_attention_backward(upstream, saved), expected, dtype)


@DTYPES
@pytest.mark.parametrize("causal", [True, False])
def test_multi_head_attention_backward(torch, dtype, causal):
    rng = np.random.default_rng(1)
    B, T, D, H = 2, 5, 8, 2
    x = rng.standard_normal((B, T, D)).astype(dtype)
    ws = [(rng.standard_normal((D, D)) / np.sqrt(D)).astype(dtype) for _ in range(4)]
    upstream = rng.standard_normal((B, T, D)).astype(dtype)
    t_x, *t_ws = tensors(torch, x, *ws)
    out = torch_attention(torch, t_x, *t_ws, H, causal)
    expected = autograd(torch, out, [t_x, *t_ws], upstream)
    ours_out, saved = layers.multi_head_attention_forward(x, *ws, n_heads=H, causal=causal)
    np.testing.assert_allclose(ours_out, out.detach().numpy(), atol=TOL[dtype] * 10)
    assert_close(layers.multi_head_attention_backward(upstream, saved), expected, dtype)


@DTYPES
def test_layer_norm_backward(torch, dtype):
    rng = np.random.default_rng(2)
    x = (rng.standard_normal((3, 4, 6)) * 2 + 1).astype(dtype)
    gain, bias = rng.standard_normal(6).astype(dtype), rng.standard_normal(6).astype(dtype)
    upstream = rng.standard_normal(x.shape).astype(dtype)
    t = tensors(torch, x, gain, bias)
    out = torch.nn.functional.layer_norm(t[0], (6,), t[1], t[2], eps=1e-5)
    expected = autograd(torch, out, t, upstream)
    ours_out, saved = layers.layer_norm_forward(x, gain, bias)
    np.testing.assert_allclose(ours_out, out.detach().numpy(), atol=TOL[dtype] * 10)
    assert_close(layers.layer_norm_backward(upstream, saved), expected, dtype)


@DTYPES
def test_gelu_and_mlp_backward(torch, dtype):
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((2, 3, 4)) * 2).astype(dtype)
    w_1, b_1 = rng.standard_normal((4, 7)).astype(dtype), rng.standard_normal(7).astype(dtype)
    w_2, b_2 = rng.standard_normal((7, 4)).astype(dtype), rng.standard_normal(4).astype(dtype)
    upstream = rng.standard_normal(x.shape).astype(dtype)
    t = tensors(torch, x, w_1, b_1, w_2, b_2)
    gelu = torch.nn.functional.gelu(t[0], approximate="tanh")
    ours_gelu, saved_gelu = layers.gelu_forward(x)
    np.testing.assert_allclose(ours_gelu, gelu.detach().numpy(), atol=TOL[dtype] * 10)
    assert_close([layers.gelu_backward(upstream, saved_gelu)], autograd(torch, gelu, [t[0]], upstream), dtype)
    out = torch.nn.functional.gelu(t[0] @ t[1] + t[2], approximate="tanh") @ t[3] + t[4]
    ours_out, saved = layers.mlp_forward(x, w_1, b_1, w_2, b_2)
    np.testing.assert_allclose(ours_out, out.detach().numpy(), atol=TOL[dtype] * 100, rtol=TOL[dtype] * 10)
    assert_close(layers.mlp_backward(upstream, saved), autograd(torch, out, t, upstream), dtype)


@DTYPES
def test_cross_entropy_with_ignore_index(torch, dtype):
    rng = np.random.default_rng(4)
    logits = (rng.standard_normal((3, 5, 7)) * 3).astype(dtype)
    targets = rng.integers(0, 7, (3, 5))
    targets[1, 3:] = IGNORE
    targets[2, 1] = IGNORE
    (t_logits,) = tensors(torch, logits)
    loss = torch.nn.functional.cross_entropy(t_logits.reshape(-1, 7), torch.from_numpy(targets).reshape(-1),
                                             ignore_index=IGNORE)           # mean over the scored targets
    (expected,) = torch.autograd.grad(loss, [t_logits])
    ours, saved = layers.cross_entropy_forward(logits, targets)
    assert ours == pytest.approx(loss.item(), rel=TOL[dtype] * 10)
    assert_close([layers.cross_entropy_backward(1.0, saved)], [expected.numpy()], dtype)


def torch_attention(torch, x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """Multi-head attention written with torch ops, our row-vector convention (x @ w)."""
    B, T, D = x.shape
    def split(t):
        return t.reshape(B, T, n_heads, D // n_heads).transpose(1, 2)       # (B, H, T, d)
    heads = torch.nn.functional.scaled_dot_product_attention(split(x @ w_q), split(x @ w_k), split(x @ w_v),
                                                            is_causal=causal)
    return heads.transpose(1, 2).reshape(B, T, D) @ w_o


class TorchDecoder:
    """The decoder of lib.decoder written in torch, from a dict of parameters (name -> tensor)."""

    def __init__(self, torch, params, n_heads, n_layers):
        self.torch, self.p, self.n_heads, self.n_layers = torch, params, n_heads, n_layers

    def __call__(self, ids, causal=True):
        F, p = self.torch.nn.functional, self.p
        T = ids.shape[-1]
        x = p["token_table"][ids] + p["position_table"][:T]
        D = x.shape[-1]
        for layer in range(self.n_layers):
            b = {name.split(".", 2)[2]: value for name, value in p.items() if name.startswith(f"blocks.{layer}.")}
            a = F.layer_norm(x, (D,), b["ln1.gain"], b["ln1.bias"], eps=1e-5)
            x = x + torch_attention(self.torch, a, b["w_q"], b["w_k"], b["w_v"], b["w_o"], self.n_heads, causal)
            m = F.layer_norm(x, (D,), b["ln2.gain"], b["ln2.bias"], eps=1e-5)
            x = x + F.gelu(m @ b["w_1"] + b["b_1"], approximate="tanh") @ b["w_2"] + b["b_2"]
        return F.layer_norm(x, (D,), p["ln_f.gain"], p["ln_f.bias"], eps=1e-5) @ p["w_head"]


@DTYPES
@pytest.mark.parametrize("n_layers, n_heads, causal", [(1, 1, True), (2, 2, True), (3, 4, True), (2, 2, False)])
def test_whole_decoder_forward_loss_and_every_gradient(torch, dtype, n_layers, n_heads, causal):
    model = Decoder.init(11, 9, 16, n_heads, n_layers, seed=n_layers, dtype=dtype)
    rng = np.random.default_rng(5)
    ids = rng.integers(0, 11, (3, 7))
    targets = rng.integers(0, 11, (3, 7))
    targets[0, 5:] = IGNORE                                       # right padding is not scored
    t_params = {name: torch.tensor(value, requires_grad=True) for name, value in model.params.items()}
    reference = TorchDecoder(torch, t_params, n_heads, n_layers)
    t_logits = reference(torch.from_numpy(ids), causal)
    t_loss = torch.nn.functional.cross_entropy(t_logits.reshape(-1, 11), torch.from_numpy(targets).reshape(-1),
                                               ignore_index=IGNORE)
    t_loss.backward()
    tol = 2e-4 if dtype == np.float32 else 1e-10
    np.testing.assert_allclose(model.forward(ids, causal), t_logits.detach().numpy(), atol=tol, rtol=tol)
    loss, grads = model.loss_and_grads(ids, targets, causal)
    assert loss == pytest.approx(t_loss.item(), rel=tol)
    for name, grad in grads.items():
        assert grad.dtype == dtype, name
        np.testing.assert_allclose(grad, t_params[name].grad.numpy(), atol=tol, rtol=tol * 10, err_msg=name)


def test_decoder_step_matches_the_torch_module(torch):
    model = Decoder.init(11, 9, 16, 4, 2, seed=7)
    ids = np.array([1, 5, 9, 3, 3, 10])
    t_params = {name: torch.from_numpy(value) for name, value in model.params.items()}
    expected = TorchDecoder(torch, t_params, 4, 2)(torch.from_numpy(ids)[None])[0].numpy()
    cache = model.new_cache()
    stepped = np.stack([model.step(int(t), cache) for t in ids])
    np.testing.assert_allclose(stepped, expected, atol=1e-11)


@DTYPES
@pytest.mark.parametrize("lr, betas, eps", [(1e-3, (0.9, 0.999), 1e-8), (0.05, (0.8, 0.95), 1e-6)])
def test_adam_matches_torch_optim_adam(torch, dtype, lr, betas, eps):
    rng = np.random.default_rng(6)
    params = {"w": rng.standard_normal((3, 4)).astype(dtype), "b": rng.standard_normal(4).astype(dtype)}
    t_params = {name: torch.tensor(value.copy(), requires_grad=True) for name, value in params.items()}
    ours = Adam(params, lr=lr, betas=betas, eps=eps)
    theirs = torch.optim.Adam(list(t_params.values()), lr=lr, betas=betas, eps=eps)
    for step in range(25):
        grads = {name: (rng.standard_normal(value.shape) * 10 ** (step % 3 - 1)).astype(dtype)
                 for name, value in params.items()}
        for name, tensor in t_params.items():
            tensor.grad = torch.from_numpy(grads[name].copy())
        theirs.step()
        ours.step(grads)
    tol = 1e-5 if dtype == np.float32 else 1e-12
    for name, value in params.items():
        assert value.dtype == dtype
        np.testing.assert_allclose(value, t_params[name].detach().numpy(), atol=tol, rtol=tol)


def test_training_steps_match_torch_adam_on_the_whole_decoder(torch):
    """Three training steps: our loss_and_grads + Adam against torch autograd + torch.optim.Adam."""
    model = Decoder.init(9, 6, 8, 2, 2, seed=11)
    rng = np.random.default_rng(8)
    t_params = {name: torch.tensor(value.copy(), requires_grad=True) for name, value in model.params.items()}
    reference = TorchDecoder(torch, t_params, 2, 2)
    ours, theirs = Adam(model.params, lr=0.01), torch.optim.Adam(list(t_params.values()), lr=0.01)
    for _ in range(3):
        ids, targets = rng.integers(0, 9, (4, 6)), rng.integers(0, 9, (4, 6))
        loss, grads = model.loss_and_grads(ids, targets)
        ours.step(grads)
        theirs.zero_grad()
        t_loss = torch.nn.functional.cross_entropy(reference(torch.from_numpy(ids)).reshape(-1, 9),
                                                   torch.from_numpy(targets).reshape(-1))
        t_loss.backward()
        theirs.step()
        assert loss == pytest.approx(t_loss.item(), rel=1e-10)
    for name, value in model.params.items():
        np.testing.assert_allclose(value, t_params[name].detach().numpy(), atol=1e-9, err_msg=name)
