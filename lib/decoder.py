"""A small decoder trained in NumPy (§7): everything of §1-§6 in one model.

    ids (B, T) -> E[ids] + P[t]                              (§3)
               -> L pre-LN blocks:  x = x + attention(LN(x))  (§1, §2: mask before softmax, W_O)
                                    x = x + MLP(LN(x))        (position-wise)
               -> final LN -> output layer W_head -> logits (B, T, V)

:class:`Decoder` holds its parameters in one flat dict ``params`` (name -> array);
:meth:`Decoder.backward` returns a dict with the same keys.  The layers live in :mod:`lib.layers`,
the per-layer KV cache of §5 is :class:`DecoderCache`.  ``causal=False`` lets every position read
every position: ONLY the negative control (§4), and §7's model trained without the mask."""

import ctypes
import itertools
import pathlib
from typing import NamedTuple

import numpy as np

from . import layers, validate
from .attention import MultiHeadSaved, multi_head_attention_forward
from .data import IGNORE, collate
from .model import KVCache, _attend_step
from .positions import embed, embed_backward
from .validate import checked

_BLOCK_PARAMETERS = ("ln1.gain", "ln1.bias", "w_q", "w_k", "w_v", "w_o",
                     "ln2.gain", "ln2.bias", "w_1", "b_1", "w_2", "b_2")


class BlockSaved(NamedTuple):
    """What one block's forward keeps for its backward."""
    ln1: layers.LayerNormSaved
    attention: MultiHeadSaved
    ln2: layers.LayerNormSaved
    mlp: layers.MlpSaved


def parameter_shapes(vocab_size, context_size, width, n_layers, mlp_width):
    """§7. Name -> shape of every parameter, in the order of the computation."""
    V, C, D, F = vocab_size, context_size, width, mlp_width
    shapes = {"token_table": (V, D), "position_table": (C, D)}
    for layer in range(n_layers):
        block = dict(zip(_BLOCK_PARAMETERS, [(D,), (D,), (D, D), (D, D), (D, D), (D, D),
                                             (D,), (D,), (D, F), (F,), (F, D), (D,)]))
        shapes.update({f"blocks.{layer}.{name}": shape for name, shape in block.items()})
    shapes.update({"ln_f.gain": (D,), "ln_f.bias": (D,), "w_head": (D, V)})
    return shapes


class Decoder:
    """§7. A decoder of L pre-LN blocks with learned absolute positions: ``params`` as
    :func:`parameter_shapes` names them, of one float dtype; ``n_heads`` H divides D.
    A *stack* (:meth:`stack`, ``n_models`` = S, else None) trains S decoders as one (§7.3: one
    per seed): parameters, ids (S, B, T) and activations have a leading axis of S, so each NumPy
    call computes all S models, each exactly as alone; :meth:`unstack` gives them back."""

    def __init__(self, params, n_heads):
        self.params, self.n_heads, self.n_layers, self.n_models = validate.decoder_params(
            params, n_heads, parameter_shapes)

    @classmethod
    def init(cls, vocab_size, context_size, width, n_heads, n_layers, seed=0, *, mlp_width=None,
             dtype=np.float64):
        """§7. Random parameters from ``np.random.default_rng(seed)``: tables N(0, 0.1^2);
        projections N(0, 1/fan_in), w_o and w_2 (into the residual stream) scaled by 1/sqrt(2 L);
        gains 1, biases 0.  ``mlp_width`` F defaults to 4 D."""
        V, C, D, H, L, F, dtype = validate.decoder_sizes(vocab_size, context_size, width, n_heads,
                                                         n_layers, mlp_width, dtype)
        rng, params = np.random.default_rng(seed), {}
        for name, shape in parameter_shapes(V, C, D, L, F).items():
            short = name.rsplit(".", 1)[-1]                             # "blocks.0.w_q" -> "w_q"
            if short in ("gain", "bias", "b_1", "b_2"):
                value = np.full(shape, 1.0 if short == "gain" else 0.0)
            elif short in ("token_table", "position_table"):
                value = 0.1 * rng.standard_normal(shape)
            else:
                value = rng.standard_normal(shape) / np.sqrt(shape[0])
                if short in ("w_o", "w_2"):
                    value *= 1.0 / np.sqrt(2 * L)                       # the residual scale
            params[name] = value.astype(dtype)
        return cls(params, H)

    @classmethod
    def stack(cls, models):
        """§7. S decoders of the same sizes and H as one stack, their parameters side by side."""
        models = validate.stack(models, Decoder)
        return cls({name: np.stack([m.params[name] for m in models]) for name in models[0].params},
                   models[0].n_heads)

    def unstack(self):
        """§7. The S decoders of a stack; their parameters are views into the stack's."""
        validate.a_stack(self)
        return [Decoder({name: p[s] for name, p in self.params.items()}, self.n_heads)
                for s in range(self.n_models)]

    # -- sizes ------------------------------------------------------------

    @property
    def vocab_size(self):
        return self.params["token_table"].shape[-2]

    @property
    def context_size(self):
        return self.params["position_table"].shape[-2]

    @property
    def width(self):
        return self.params["token_table"].shape[-1]

    @property
    def dtype(self):
        return self.params["token_table"].dtype

    def __repr__(self):
        models = "" if self.n_models is None else f", models={self.n_models}"
        return (f"Decoder(V={self.vocab_size}, C={self.context_size}, D={self.width}, "
                f"H={self.n_heads}, L={self.n_layers}, parameters={self.parameter_count()}, "
                f"dtype={self.dtype}{models})")

    def parameter_count(self):
        return int(sum(value.size for value in self.params.values()))

    def copy(self):
        """An independent decoder with copies of every parameter."""
        return Decoder({name: value.copy() for name, value in self.params.items()}, self.n_heads)

    def block(self, layer):
        """The parameters of block ``layer`` as a dict short name -> array (views, not copies)."""
        return self._block(validate.layer(layer, self.n_layers))

    def _block(self, layer, params=None):
        params = self.params if params is None else params
        return {name: params[f"blocks.{layer}.{name}"] for name in _BLOCK_PARAMETERS}

    # -- forward and backward ---------------------------------------------

    def forward(self, ids, causal=True):
        """§7. ids (T,) -> logits (T, V); (B, T) -> (B, T, V); a stack's (S, B, T) -> (S, B, T, V).
        ``causal=False``: no mask in any layer (the negative control only); L bools: per layer."""
        return self.forward_train(ids, causal)[0]

    def attention_weights(self, ids, causal=True):
        """§7. The attention weights of every layer: L arrays (H, T, T), or (B, H, T, T)."""
        saved = self.forward_train(ids, causal)[1]
        weights = [block.attention.attention.weights for block in saved["blocks"]]
        return [w[0] for w in weights] if saved["single"] else weights     # (B, H, T, T) each

    def residual_stream(self, ids, causal=True):
        """§7. The residual stream entering each block and leaving the last: L + 1 arrays (T, D)
        or (B, T, D), entry 0 the embedding E[x] + P[t]."""
        saved = self.forward_train(ids, causal)[1]
        return [x[0] for x in saved["residual"]] if saved["single"] else saved["residual"]

    def forward_train(self, ids, causal=True):
        """§7. The forward pass that also returns what :meth:`backward` needs: (logits, saved)."""
        ids, flags = validate.decoder_ids(self, ids), validate.layer_flags(causal, self.n_layers)
        logits, saved = self._forward(ids[None] if ids.ndim == 1 else ids, flags)
        saved["single"] = ids.ndim == 1
        return (logits[0] if ids.ndim == 1 else logits), saved

    def _broadcast(self, p):
        """A stack's parameter against activations (S, B, T, D): (S, D, D) -> (S, 1, D, D)."""
        if self.n_models is None:
            return p
        return p.reshape(p.shape[:1] + (1,) * (4 - p.ndim) + p.shape[1:])

    def _embed(self, ids):
        """E[ids] + P[t] (§3): (B, T) -> (B, T, D); a stack, each model its tables: (S, B, T)."""
        E, P = self.params["token_table"], self.params["position_table"]
        if self.n_models is None:
            return embed.plain(ids, E, P, 0)
        return np.stack([embed.plain(i, e, p, 0) for i, e, p in zip(ids, E, P)])

    def _forward(self, batch, flags):
        """ids (B, T) (a stack's (S, B, T)) -> logits (B, T, V) and what the backward needs."""
        p = {name: self._broadcast(value) for name, value in self.params.items()}
        x = self._embed(batch)                                          # (B, T, D)
        residual, saved_blocks = [x], []
        for layer, causal in enumerate(flags):
            x, saved_block = self._block_forward(self._block(layer, p), x, causal)
            residual.append(x)
            saved_blocks.append(saved_block)
        h, saved_ln_f = layers.layer_norm_forward.plain(x, p["ln_f.gain"], p["ln_f.bias"])
        logits, saved_head = layers.linear_forward.plain(h, p["w_head"])   # (B, T, V): the head
        return logits, {"ids": batch, "blocks": saved_blocks, "residual": residual,
                        "ln_f": saved_ln_f, "head": saved_head}

    def _block_forward(self, b, x, causal):
        """One pre-LN block: x + attention(LN(x)), then + MLP(LN(x)).  x: (B, T, D)."""
        a, saved_ln1 = layers.layer_norm_forward.plain(x, b["ln1.gain"], b["ln1.bias"])
        attended, saved_attention = multi_head_attention_forward.plain(
            a, b["w_q"], b["w_k"], b["w_v"], b["w_o"], self.n_heads, causal)
        x = x + attended                                                # residual
        m, saved_ln2 = layers.layer_norm_forward.plain(x, b["ln2.gain"], b["ln2.bias"])
        mlp_out, saved_mlp = layers.mlp_forward.plain(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])
        return x + mlp_out, BlockSaved(saved_ln1, saved_attention, saved_ln2, saved_mlp)

    def backward(self, d_logits, saved):
        """§7. Gradients of every parameter (a dict like ``params``) from d_logits, the upstream
        gradient of the logits that :meth:`forward_train` returned with ``saved``."""
        batch = saved["ids"]
        shape = (batch.shape[-1],) if saved["single"] else batch.shape
        d_logits = validate.shape(d_logits, shape + (self.vocab_size,), "d_logits")
        return self._backward(np.asarray(d_logits, self.dtype).reshape(*batch.shape, -1), saved)

    def _backward(self, d_logits, saved):
        batch, grads = saved["ids"], {}
        d_h, grads["w_head"], _ = layers.linear_backward(d_logits, saved["head"])      # (B, T, D)
        d_x, grads["ln_f.gain"], grads["ln_f.bias"] = layers.layer_norm_backward(d_h, saved["ln_f"])
        for layer in reversed(range(self.n_layers)):
            d_x, block_grads = self._block_backward(d_x, saved["blocks"][layer])
            grads.update({f"blocks.{layer}.{name}": g for name, g in block_grads.items()})
        V, C = self.vocab_size, self.context_size
        if self.n_models is None:
            d_x, batch = d_x[None], batch[None]                         # a stack of one
        tables = [embed_backward.plain(d, i, V, C, 0) for d, i in zip(d_x, batch)]   # per model
        grads["token_table"], grads["position_table"] = (np.stack(t) for t in zip(*tables))
        return {name: grads[name].reshape(p.shape) for name, p in self.params.items()}

    @staticmethod
    def _block_backward(d_out, saved):
        g = {}
        d_m, g["w_1"], g["b_1"], g["w_2"], g["b_2"] = layers.mlp_backward(d_out, saved.mlp)
        d_ln2, g["ln2.gain"], g["ln2.bias"] = layers.layer_norm_backward(d_m, saved.ln2)
        d_x = d_out + d_ln2                                             # residual: both paths add
        d_a, *d_w = layers.multi_head_attention_backward(d_x, saved.attention)
        g.update(zip(("w_q", "w_k", "w_v", "w_o"), d_w))
        d_ln1, g["ln1.gain"], g["ln1.bias"] = layers.layer_norm_backward(d_a, saved.ln1)
        return d_x + d_ln1, g

    def loss(self, inputs, targets, causal=True):
        """§7. Teacher-forced cross-entropy over the scored targets (IGNORE = -100 is skipped)."""
        return self._loss(inputs, targets, causal)[0]

    def loss_and_grads(self, inputs, targets, causal=True):
        """§7. (loss, grads) for one batch: forward, cross-entropy and the whole backward."""
        loss, saved_loss, saved = self._loss(inputs, targets, causal)
        d_logits = layers.cross_entropy_backward(1.0, saved_loss)
        return loss, self._backward(d_logits.reshape(*saved["ids"].shape, -1), saved)

    def _loss(self, inputs, targets, causal):
        logits, saved = self.forward_train(inputs, causal)
        targets = validate.targets(targets, logits.shape, self.vocab_size)
        return (*layers.cross_entropy_forward.plain(logits, targets), saved)

    # -- the per-layer KV cache (§5) ----------------------------------------

    @property
    def cache_layout(self):
        """(L, H, d, C, dtype): the layout of this model's cache."""
        H, C = self.n_heads, self.context_size
        return self.n_layers, H, self.width // H, C, self.dtype

    def new_cache(self):
        """§5, §7. An empty cache: one KV cache per layer, each as long as the position table."""
        validate.a_stack(self, wanted=False)
        return DecoderCache([KVCache(*self.cache_layout[1:]) for _ in range(self.n_layers)])

    def step(self, token, cache, *, position=None):
        """§7. Logits (V,) of one new token at position len(cache); its keys and values go into
        every layer, or nowhere if it is refused.  ``position`` only shows §5's reset bug."""
        validate.a_stack(self, wanted=False)
        token, cache, position = validate.step(self, token, cache, position, DecoderCache)
        length, p = len(cache), self.params
        x = embed.plain(np.array([token]), p["token_table"], p["position_table"], position)
        try:
            for layer, kv in enumerate(cache.layers):       # checked above, as a whole: not again
                x = self._block_step(self._block(layer), x, kv)
        except BaseException:
            cache._rewind(length)                                       # never half-written
            raise
        return self.output_head(x)[0]                                   # (V,)

    def output_head(self, x):
        """§7. The end of the model: final layer norm, then W_head: (..., D) -> logits (..., V)."""
        (x,), p = validate.float_arrays(x=x), self.params
        h, _ = layers.layer_norm_forward.plain(validate.shape(x, x.shape[:-1] + (self.width,), "x"),
                                               p["ln_f.gain"], p["ln_f.bias"])
        return h @ p["w_head"]

    def block_step(self, layer, x, kv):
        """§7. Block ``layer`` for one new position: x (1, D) -> (1, D), its keys and values
        appended to ``kv``, that layer's :class:`lib.model.KVCache`."""
        validate.room(validate.own_cache(kv, KVCache, self.cache_layout[1:]))
        return self._block_step(self.block(layer), validate.shape(x, (1, self.width), "x"), kv)

    def _block_step(self, b, x, kv):
        a, _ = layers.layer_norm_forward.plain(x, b["ln1.gain"], b["ln1.bias"])      # (1, D)
        x = x + _attend_step(a, b["w_q"], b["w_k"], b["w_v"], b["w_o"], self.n_heads, kv)
        m, _ = layers.layer_norm_forward.plain(x, b["ln2.gain"], b["ln2.bias"])
        return x + layers.mlp_forward.plain(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]

    # -- generation ---------------------------------------------------------

    def generate(self, prompt_ids, n_new, temperature=0.0, seed=0):
        """§7. The prompt followed by ``n_new`` generated ids (int64), one cached step per token:
        greedy at temperature 0, else sampled (:func:`pick_token`, ``default_rng(seed)``)."""
        prompt, n_new, temperature = validate.generate(self, prompt_ids, n_new, temperature)
        rng, out, cache = np.random.default_rng(seed), [int(t) for t in prompt], self.new_cache()
        for token in out:                                   # step (public: a wrapper sees each)
            logits = self.step(token, cache)
        for i in range(n_new):
            out.append(pick_token.plain(logits, temperature, rng))          # checked above
            if i < n_new - 1:
                logits = self.step(out[-1], cache)
        return np.array(out, dtype=np.int64)


class DecoderCache:
    """§7. The per-layer KV cache: ``cache.layers[l]``, a :class:`lib.model.KVCache`, holds layer
    l's keys and values; ``len(cache)`` is the position the next token takes."""

    def __init__(self, layer_caches):
        self.layers = validate.layer_caches(layer_caches, KVCache)

    def __len__(self):
        return validate.one_length([len(kv) for kv in self.layers])

    def __repr__(self):
        return f"DecoderCache(len={len(self)}, layers={len(self.layers)}, capacity={self.capacity})"

    @property
    def capacity(self):
        return self.layers[0].capacity

    @property
    def layout(self):
        """(layers, H, d, capacity, dtype): the sizes of its model."""
        return (len(self.layers), *self.layers[0].layout)

    def truncate(self, length):
        """Forget every position from ``length`` on, in every layer."""
        self._rewind(validate.integer(length, "length", 0))

    def _rewind(self, length):
        for kv in self.layers:
            kv._length = min(kv._length, length)


@checked(validate.pick_token)
def pick_token(logits, temperature, rng):
    """§7. The next id from logits (V,): argmax at temperature 0, else from softmax(logits / T)."""
    if temperature == 0:
        return int(np.argmax(logits))
    z = logits / temperature
    cumulative = np.cumsum(np.exp(z - z.max()))
    return int(min(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"),
                   len(z) - 1))


# -- The optimiser ---------------------------------------------------------

class Adam:
    """§7. Adam (Kingma and Ba, 2015), written out; the same update as torch.optim.Adam.  For
    every parameter p with gradient g, at step t = 1, 2, ...:

        m = beta1 m + (1 - beta1) g            (running mean of the gradient)
        v = beta2 v + (1 - beta2) g^2          (running mean of its square)
        p -= lr * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)

    The divisions by 1 - beta^t undo the bias towards 0 of the first steps; ``params`` (dict
    name -> array) is updated in place; m, v and g hold all of them in one vector: one call each."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        self.params, self.lr, self.betas, self.eps = validate.adam(params, lr, betas, eps)
        self.ends = np.cumsum([p.size for p in params.values()])      # where each parameter ends
        self.m = np.zeros(self.ends[-1], next(iter(params.values())).dtype)
        self.v, self.t = np.zeros_like(self.m), 0

    def step(self, grads):
        """Apply one update from ``grads`` (the same keys and shapes as ``params``)."""
        beta1, beta2 = self.betas
        g, self.t = validate.gradients(grads, self.params), self.t + 1     # (size,), in order
        correction1, correction2 = 1 - beta1 ** self.t, 1 - beta2 ** self.t
        self.m = beta1 * self.m + (1 - beta1) * g
        self.v = beta2 * self.v + (1 - beta2) * (g * g)
        update = self.lr * (self.m / correction1) / (np.sqrt(self.v / correction2) + self.eps)
        for p, part in zip(self.params.values(), np.split(update, self.ends[:-1])):
            p -= part.reshape(p.shape)


# -- Training --------------------------------------------------------------

def _keep_freed_memory():
    """Not taught: glibc's malloc returns a freed temporary of a few hundred KB to the system and
    faults a fresh one in at the next step (a third of a step's time in §7); keep them in its heap,
    as tools/numeric_configs.py does for the suite.  For the process; no result changes."""
    try:                                                    # M_MMAP_THRESHOLD, M_TRIM_THRESHOLD
        libc = ctypes.CDLL(None)
        libc.mallopt(-3, 2**25), libc.mallopt(-1, 2**28)
    except (AttributeError, OSError, TypeError):            # not glibc: nothing to do
        pass


def train(model, texts, vocab, *, steps, batch_size, lr, causal=True, seed=0,
          loss_and_grads=None, observe=None):
    """§7. Train ``model`` in place with Adam on random batches of ``texts``; each step's loss
    (a stack's: (steps, S), one seed per model).  ``loss_and_grads(model, inputs, targets)``
    replaces the teacher-forced loss (leave ``causal`` alone then); ``observe(step, model)`` is
    called after every step.  Neither changes which batches are drawn."""
    texts, steps, batch_size, seeds = validate.train(model, texts, steps, batch_size, causal, seed,
                                                     loss_and_grads, observe)
    _keep_freed_memory()
    if loss_and_grads is None:
        def loss_and_grads(model, inputs, targets):
            return model.loss_and_grads(inputs, targets, causal)
    rngs, optimiser, losses = [np.random.default_rng(s) for s in seeds], Adam(model.params, lr), []
    every_input, every_target = collate(texts, vocab)           # (N, T) each, every text once
    for step in range(1, steps + 1):
        chosen = [i for rng in rngs for i in rng.choice(len(texts), size=batch_size, replace=False)]
        T = (every_target[chosen] != IGNORE).sum(axis=1).max()      # as collate() of the batch
        inputs, targets = every_input[chosen, :T], every_target[chosen, :T]   # (B, T) each
        if model.n_models is not None:                                  # (S, B, T) each
            inputs, targets = (a.reshape(model.n_models, batch_size, -1) for a in (inputs, targets))
        loss, grads = loss_and_grads(model, inputs, targets)
        optimiser.step(grads)
        losses.append(loss)
        if observe is not None:
            observe(step, model)
    return np.array(losses)


# -- The mirror language: the corpus of §7 ---------------------------------

MIRROR_LETTERS = "abдж春雨"               # two letters of each of the course's scripts, sorted
MIRROR_CORPUS = pathlib.Path(__file__).with_name("corpus") / "mirror.txt"


def mirror_language():
    """§7. Every line of the mirror language: a word of 2 or 3 letters, "|", the word reversed.
    With the 6 letters of :data:`MIRROR_LETTERS`: 36 + 216 = 252 lines, 2-letter words first."""
    words = ["".join(w) for n in (2, 3) for w in itertools.product(MIRROR_LETTERS, repeat=n)]
    return [word + "|" + word[::-1] for word in words]


def read_mirror_corpus():
    """§7. The training corpus shipped with the course: 216 of the 252 lines (every seventh line
    of :func:`mirror_language`, from the seventh on, is held out)."""
    return [line for line in MIRROR_CORPUS.read_text(encoding="utf-8").splitlines() if line]


@checked(validate.mirror_text)
def is_mirror_line(text):
    """§7. True if ``text`` obeys the rule: w + "|" + reversed(w), w of 2 or 3 letters."""
    word, bar, rest = text.partition("|")
    return (bar == "|" and len(word) in (2, 3) and rest == word[::-1]
            and all(ch in MIRROR_LETTERS for ch in word))


__all__ = ["Decoder", "DecoderCache", "Adam", "parameter_shapes", "pick_token", "train",
           "mirror_language", "read_mirror_corpus", "is_mirror_line", "MIRROR_LETTERS"]
