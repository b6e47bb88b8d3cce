"""Small deterministic test models the exercises' cases are built on.

Each is made from a seed, so that a case can be shipped as a short string of
setup code, e.g. ``model = random_model(7)``, and rebuilt identically in any
process: in the learner's kernel (``check()``), in a sandboxed kernel while a
notebook is graded (this module is the only part of ``grading`` a sandbox
holds), and in the grader.  The exercise notebooks import them too.

The models include deliberately broken ones (a normalisation over time that
leaks the future, cache steps with a wrong position).  They exist only so that
a learner's test has something to catch; never use them in a model.

Nothing here is a reference answer (those live in :mod:`grading.references`,
which never enters a sandbox).
"""

from functools import lru_cache

import numpy as np

from lib import checks
from lib.attention import merge_heads, multi_head_attention, split_heads
from lib.checks import feature_normalization, leaky_time_normalization
from lib.data import build_vocab
from lib.decoder import Decoder, mirror_language, train


# --------------------------------------------------------------------------
# Test models
# --------------------------------------------------------------------------

def random_model(seed, vocab_size=7, context_size=8, width=8, n_heads=2):
    """A reproducible float64 AttentionModel made from a seed (see :func:`lib.checks.random_model`)."""
    return checks.random_model(seed, vocab_size=vocab_size, context_size=context_size, width=width, n_heads=n_heads)


# The causal normalisation of §4 and its leaky twin.
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
    ``"local"``: the new query reads only its own key and value;
    ``"first"``: the first token's output is lost (zeros); every later output is right.
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
    elif bug == "first":
        def step(token, cache):
            first = len(cache) == 0
            out = model.step(token, cache)
            return np.zeros_like(out) if first else out
    else:
        raise ValueError(f"unknown bug {bug!r}")
    return step


# -- §7 the decoder (exercise set 7) --------------------------------------------

def training_lines():
    """The 216 training lines of §7, built from the rule rather than read from lib/corpus/mirror.txt
    (a graded kernel gets lib's Python files only): every line of the mirror language but every seventh."""
    return [line for i, line in enumerate(mirror_language()) if i % 7 != 6]


def random_decoder(seed, n_layers=2, n_heads=2, width=8, vocab_size=10, context_size=8, *, norms=False):
    """A reproducible float64 Decoder with random parameters (lib.decoder.Decoder.init).

    ``norms=True``: every layer-norm gain and bias and every MLP bias random too (init makes the
    gains 1 and the biases 0, the same in every layer norm, so ln1's parameters used for ln2 would
    go unseen), drawn from a second stream of the seed."""
    model = Decoder.init(vocab_size, context_size, width, n_heads, n_layers, seed)
    if norms:
        rng = np.random.default_rng([int(seed), 1])
        for name, value in model.params.items():
            short = name.rsplit(".", 1)[-1]
            if short == "gain":
                value[...] = 1 + 0.3 * rng.standard_normal(value.shape)
            elif short in ("bias", "b_1", "b_2"):
                value[...] = 0.3 * rng.standard_normal(value.shape)
    return model


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
    ``"leaky-block-L"``: the mask off in block L only; ``"peeks-one-ahead"``: the masked
    model, but the logits at position t also see the token at t + 1 (a leak of exactly one
    future token, which a perturbation starting one position late misses); ``"sees-the-last-token"``:
    the masked model, but the logits at every position also see the last token (a leak from the end
    only, which a perturbation of the first future token alone misses); ``"first-sees-the-last-token"``:
    the masked model, but only the logits at position 0 also see the last token (a leak into the first
    position only, which a comparison of the last prefix row alone misses).
    """
    if how == "masked":
        return model.forward
    if how == "peeks-one-ahead":
        def forward(ids):
            ids = np.asarray(ids)
            logits = model.forward(ids)
            peek = 0.01 * np.eye(model.vocab_size, dtype=logits.dtype)[ids[..., 1:]]
            return np.concatenate([logits[..., :-1, :] + peek, logits[..., -1:, :]], axis=-2)
        return forward
    if how == "sees-the-last-token":
        def forward(ids):
            ids = np.asarray(ids)
            logits = model.forward(ids)
            last = 0.01 * np.eye(model.vocab_size, dtype=logits.dtype)[ids[..., -1:]]    # (..., 1, V)
            return logits + last
        return forward
    if how == "first-sees-the-last-token":
        def forward(ids):
            ids = np.asarray(ids)
            logits = model.forward(ids)
            last = 0.01 * np.eye(model.vocab_size, dtype=logits.dtype)[ids[..., -1]]     # (..., V)
            return np.concatenate([logits[..., :1, :] + last[..., None, :], logits[..., 1:, :]], axis=-2)
        return forward
    if how == "unmasked":
        return lambda ids: model.forward(ids, causal=False)
    if how.startswith("leaky-block-"):
        leaky = int(how.rsplit("-", 1)[1])
        flags = tuple(layer != leaky for layer in range(model.n_layers))
        return lambda ids: model.forward(ids, causal=flags)
    raise ValueError(f"unknown way to run the model: {how!r}")


def decoder_prefix(model, tokens):
    """[dec-3] The keys and values every layer stores for ``tokens``: two lists of L arrays (H, n, d).

    Read from the full forward pass (the keys and values each layer's attention computed),
    not from ``model.step``: dec-3 asks the learner for that step, and the grader grades it
    in a kernel whose ``Decoder.step`` is withheld (grading/batch/blind.py)."""
    tokens = [int(t) for t in tokens]
    if not tokens:
        empty = np.zeros((model.n_heads, 0, model.width // model.n_heads), dtype=model.dtype)
        return [empty.copy() for _ in range(model.n_layers)], [empty.copy() for _ in range(model.n_layers)]
    _, saved = model.forward_train(np.array(tokens))
    attention = [block[1][-1] for block in saved["blocks"]]          # (q, k, v, weights), each (1, H, n, ...)
    return [a[1][0].copy() for a in attention], [a[2][0].copy() for a in attention]
