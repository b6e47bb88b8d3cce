"""Reference answers and small test models of the exercises (see grading.exercises).

Two kinds of object live here:

* the reference answer of every exercise whose function is not already part of
  the library (``is_valid_attention``, ``future_perturbation_change``, ...);
  :mod:`grading.exercises` computes expected results with them;
* small deterministic models the cases are built on, each made from a seed,
  so that a case can be shipped as a short string of setup code, e.g.
  ``model = random_model(7)``, and rebuilt identically in any process.

The test models include deliberately broken ones (a normalisation over time
that leaks the future, cache steps with a wrong position).  They exist only
so that a learner's check has something to catch; never use them in a model.
"""

import numpy as np

from lib import checks
from lib.attention import causal_attention, causal_future, merge_heads, multi_head_attention, split_heads
from lib.checks import feature_normalization, leaky_time_normalization
from lib.model import AttentionModel


# --------------------------------------------------------------------------
# Test models
# --------------------------------------------------------------------------

def random_model(seed, vocab_size=7, context_size=8, width=8, n_heads=2):
    """A reproducible float64 AttentionModel made from a seed (see :func:`lib.checks.random_model`)."""
    return checks.random_model(seed, vocab_size=vocab_size, context_size=context_size, width=width, n_heads=n_heads)


# The causal normalisation of §4 (the answer to causal-4) and its leaky twin.
feature_norm = feature_normalization
time_norm = leaky_time_normalization


class NormalisedModel:
    """An AttentionModel with a normalisation between the embedding and the attention."""

    def __init__(self, model, norm):
        self.model = model
        self.norm = norm

    def forward(self, ids):
        m = self.model
        x = self.norm(m.embed(ids))                                          # (T, D) or (B, T, D)
        batch = x[None] if x.ndim == 2 else x                                # (B, T, D)
        out = multi_head_attention(batch, m.w_q, m.w_k, m.w_v, m.w_o, m.n_heads)
        return out[0] if x.ndim == 2 else out


def time_norm_model(seed):
    """A model that leaks the future through :func:`time_norm`."""
    return NormalisedModel(random_model(seed), time_norm)


def feature_norm_model(seed):
    """The same model with the normalisation over features: causal again."""
    return NormalisedModel(random_model(seed), feature_norm)


def unmasked_forward(model):
    """The negative control: the same model with the causal mask switched off."""
    def forward(ids):
        return model.forward(ids, causal=False)
    return forward


def no_position_forward(model):
    """The same model without the position table: E[ids] only."""
    def forward(ids):
        return model.forward(ids, use_positions=False)
    return forward


def constant_forward(width):
    """A 'model' whose output never depends on its input: blind to every test."""
    def forward(ids):
        ids = np.asarray(ids)
        return np.zeros(ids.shape + (width,))
    return forward


def buggy_step(model, bug):
    """A cache step with a deliberate bug, for the cache-equivalence test.

    ``"reset"``: every new token takes position 0;
    ``"shift"``: every new token takes position len(cache) + 1;
    ``"local"``: the new query reads only its own key and value.
    """
    if bug == "reset":
        def step(token, cache):
            return model.step(token, cache, position=0)
    elif bug == "shift":
        def step(token, cache):
            return model.step(token, cache, position=len(cache) + 1)
    elif bug == "local":
        def step(token, cache):
            x = model.embed(np.array([token]), offset=len(cache))            # (1, D)
            k = split_heads((x @ model.w_k)[None], model.n_heads)[0]         # (H, 1, d)
            v = split_heads((x @ model.w_v)[None], model.n_heads)[0]         # (H, 1, d)
            cache.append(k[:, 0], v[:, 0])
            return (merge_heads(v[None])[0] @ model.w_o)[0]                  # one key: weight 1
    else:
        raise ValueError(f"unknown bug {bug!r}")
    return step


# --------------------------------------------------------------------------
# Reference answers (the exercise id is in brackets)
# --------------------------------------------------------------------------

def causal_allowed(tq, tk):
    """[mask-1] allowed[i, j] = key j is not after query i (bottom-right aligned)."""
    return ~causal_future(tq, tk)


def is_valid_attention(weights, allowed, atol=1e-9):
    """[mask-3] True iff forbidden weights are exactly 0, none is negative or
    non-finite, and every row sums to 1 within ``atol``."""
    weights = np.asarray(weights)
    allowed = np.broadcast_to(np.asarray(allowed, dtype=bool), weights.shape)
    if not np.all(np.isfinite(weights)):
        return False
    if np.any(weights[~allowed] != 0) or np.any(weights < 0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) <= atol))


def multi_head_causal(x, w_q, w_k, w_v, w_o, n_heads):
    """[heads-3] Causal multi-head attention (the library's, with the mask on)."""
    return multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True)


def last_row_swap_change(forward, ids, i, j):
    """[pos-3] How much the last output row moves when tokens i and j swap."""
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if not (0 <= i < T - 1 and 0 <= j < T - 1) or i == j:
        raise ValueError(f"i={i} and j={j} must be two different positions before the last one (T={T})")
    swapped = ids.copy()
    swapped[..., [i, j]] = ids[..., [j, i]]
    before = np.asarray(forward(ids))[..., -1, :]
    after = np.asarray(forward(swapped))[..., -1, :]
    return float(np.max(np.abs(after - before)))


def future_perturbation_change(forward, ids, position, replacement):
    """[causal-1] Largest change of output rows 0..position-1 when the tokens
    from ``position`` on are replaced by ``replacement``."""
    ids = np.asarray(ids)
    if not 1 <= position < ids.shape[-1]:
        raise ValueError(f"position must be in 1..T-1, got {position} for T={ids.shape[-1]}")
    perturbed = ids.copy()
    perturbed[..., position:] = replacement
    before = np.asarray(forward(ids))[..., :position, :]
    after = np.asarray(forward(perturbed))[..., :position, :]
    return float(np.max(np.abs(after - before)))


def perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9):
    """[causal-2] "leaks", "causal" or "blind" (the negative control saw nothing)."""
    if future_perturbation_change(forward, ids, position, replacement) > tol:
        return "leaks"
    if future_perturbation_change(control, ids, position, replacement) > tol:
        return "causal"
    return "blind"


def leak_sweep(forward, ids, replacement_token):
    """[causal-3] Entry p-1: the change of rows < p when every token from p on
    becomes ``replacement_token``, for p = 1..T-1.  Shape (T-1,), float64."""
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if T < 2:
        raise ValueError(f"a sweep needs at least 2 positions, got T={T}")
    changes = [future_perturbation_change(forward, ids, p, replacement_token) for p in range(1, T)]
    return np.array(changes, dtype=np.float64)


def cached_step(model, token, cache):
    """[cache-1] One cached step at the right position, len(cache)."""
    return model.step(token, cache)


def attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
    """[cache-2] One token through multi-head attention with a functional cache.

    x: (D,) the new token's input vector (position already added);
    keys, values: (H, n, d) of the n earlier positions (n may be 0).
    Returns (output (D,), keys (H, n+1, d), values (H, n+1, d)).
    """
    x = np.asarray(x)
    q = split_heads((x @ w_q)[None, None], n_heads)[0]                       # (H, 1, d)
    k = split_heads((x @ w_k)[None, None], n_heads)[0]                       # (H, 1, d)
    v = split_heads((x @ w_v)[None, None], n_heads)[0]                       # (H, 1, d)
    keys = np.concatenate([keys, k], axis=1)                                 # (H, n+1, d)
    values = np.concatenate([values, v], axis=1)                             # (H, n+1, d)
    heads = causal_attention(q, keys, values)                                # (H, 1, d)
    return (merge_heads(heads[None])[0] @ w_o)[0], keys, values


def cache_error(forward, step, new_cache, ids):
    """[cache-3] max |forward(ids) - outputs of step, token by token, from new_cache()|."""
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))                                           # (T, D)
    cache = new_cache()
    incremental = np.stack([np.asarray(step(int(token), cache)) for token in ids])  # (T, D)
    return float(np.max(np.abs(full - incremental)))



# --------------------------------------------------------------------------
# §7 the decoder (exercise set 7)
# --------------------------------------------------------------------------

from functools import lru_cache  # noqa: E402  (kept with the section that needs it)

from lib import layers  # noqa: E402
from lib.data import build_vocab  # noqa: E402
from lib.decoder import Decoder, mirror_language, train  # noqa: E402


def training_lines():
    """The 216 training lines of §7, built from the rule rather than read from lib/corpus/mirror.txt
    (a graded kernel gets lib's Python files only): every line of the mirror language but every seventh."""
    return [line for i, line in enumerate(mirror_language()) if i % 7 != 6]


def random_decoder(seed, n_layers=2, n_heads=2, width=8, vocab_size=10, context_size=8):
    """A reproducible float64 Decoder with random parameters (lib.decoder.Decoder.init)."""
    return Decoder.init(vocab_size, context_size, width, n_heads, n_layers, seed)


def deaf_decoder(seed, n_layers=2):
    """A decoder whose attention writes nothing (W_O = 0 in every block).

    No position can then read any other, so a future-perturbation test sees
    nothing, and neither does its negative control: the test is blind here.
    """
    model = random_decoder(seed, n_layers)
    for layer in range(n_layers):
        model.params[f"blocks.{layer}.w_o"][...] = 0.0
    return model


@lru_cache(maxsize=2)
def _trained_decoder(causal):
    lines = training_lines()
    vocab = build_vocab(lines)
    model = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
    train(model, lines, vocab, steps=40, batch_size=16, lr=0.01, causal=causal, seed=1)
    return model


def handed_over_decoder(trained):
    """[dec-4] A small decoder trained for 40 steps on the mirror language of §7, handed over as weights.

    ``trained="masked"``: trained with the causal mask; ``"unmasked"``: trained
    with ``causal=False``, the cheater of §7.3.  Each call returns a fresh copy.
    """
    if trained not in ("masked", "unmasked"):
        raise ValueError(f"trained must be 'masked' or 'unmasked', got {trained!r}")
    return _trained_decoder(trained == "masked").copy()


def decoder_forward(model, how):
    """[dec-4] How a colleague runs a decoder: ids -> logits.

    ``"masked"``: model.forward; ``"unmasked"``: the mask off in every block;
    ``"leaky-block-L"``: the mask off in block L only.
    """
    if how == "masked":
        return model.forward
    if how == "unmasked":
        return lambda ids: model.forward(ids, causal=False)
    if how.startswith("leaky-block-"):
        leaky = int(how.rsplit("-", 1)[1])
        flags = tuple(layer != leaky for layer in range(model.n_layers))
        return lambda ids: model.forward(ids, causal=flags)
    raise ValueError(f"unknown way to run the model: {how!r}")


def decoder_prefix(model, tokens):
    """[dec-3] The keys and values every layer stores for ``tokens``: two lists of L arrays (H, n, d)."""
    cache = model.new_cache()
    for token in tokens:
        model.step(int(token), cache)
    return [kv.keys.copy() for kv in cache.layers], [kv.values.copy() for kv in cache.layers]


def decoder_step(model, token, keys, values):
    """[dec-3] One token through every block with per-layer caches given as arrays.

    keys, values: lists of L arrays (H, n, d), the n positions stored so far in
    each layer; the token takes position n.  Returns (logits (V,), keys, values),
    the two tuples with the new position appended in every layer.  A position
    past the table is a ValueError.
    """
    if len(keys) != model.n_layers or len(values) != model.n_layers:
        raise ValueError(f"need one key and one value array per layer ({model.n_layers}), "
                         f"got {len(keys)} and {len(values)}")
    cache = model.new_cache()
    for kv, k, v in zip(cache.layers, keys, values):
        k, v = np.asarray(k), np.asarray(v)
        for position in range(k.shape[1]):
            kv.append(k[:, position], v[:, position])
    logits = model.step(token, cache)
    return logits, tuple(kv.keys.copy() for kv in cache.layers), tuple(kv.values.copy() for kv in cache.layers)


def layer_norm_backward(d_out, x, gain, eps=1e-5):
    """[dec-2] (dx, d_gain, d_bias) of layer normalisation LN(x) * gain + bias (the bias plays no part)."""
    x, gain = np.asarray(x), np.asarray(gain)
    d_out = np.asarray(d_out)
    if d_out.shape != x.shape:
        raise ValueError(f"d_out has shape {d_out.shape} but x has shape {x.shape}; they must match")
    _, saved = layers.layer_norm_forward(x, gain, np.zeros_like(gain), eps)
    return layers.layer_norm_backward(d_out, saved)


def diagnose(model, forward, ids, prefix_length, tol=1e-9):
    """[dec-4] "leaks", "causal" or "blind" for ``forward``, a way of running ``model``.

    Every token from ``prefix_length`` on is changed to the next id (mod V); the
    prefix logits of ``forward`` must not move.  If they do not, the negative
    control (the same model with the mask off) must see a change, or the test
    is blind on this input.
    """
    ids = np.asarray(ids)
    if not 1 <= prefix_length < ids.shape[-1]:
        raise ValueError(f"prefix_length must be in 1..T-1, got {prefix_length} for T={ids.shape[-1]}")
    perturbed = ids.copy()
    perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size

    def prefix_change(f):
        before = np.asarray(f(ids))[..., :prefix_length, :]
        after = np.asarray(f(perturbed))[..., :prefix_length, :]
        return float(np.max(np.abs(after - before)))

    if prefix_change(forward) > tol:
        return "leaks"
    if prefix_change(lambda t: model.forward(t, causal=False)) > tol:
        return "causal"
    return "blind"
