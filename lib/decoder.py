"""A small decoder trained in NumPy (§7): everything of §1-§6 in one model.

    ids (B, T) -> E[ids] + P[t]                              (§3)
               -> L pre-LN blocks:  x = x + attention(LN(x))  (§1, §2: mask before softmax, W_O)
                                    x = x + MLP(LN(x))        (position-wise)
               -> final LN -> output head W_head -> logits (B, T, V)

:class:`Decoder` holds its parameters in one flat dict ``params`` (name ->
array), so that an optimiser, a gradient check or a file can treat them all
alike; :meth:`Decoder.backward` returns a dict with the same keys.  The layers
and their backward passes live in :mod:`lib.layers`.  :class:`DecoderCache`
is the per-layer KV cache of §5, :class:`Adam` the optimiser, written out.

The mask convention of the whole course holds here too: ``causal=True`` (the
default) is the decoder; ``causal=False`` lets every position read every
position and exists ONLY as the negative control (§4) and to show, in §7,
what a model trained without the mask learns.
"""

import itertools
import numbers
import pathlib
from typing import NamedTuple

import numpy as np

from . import layers, validate
from .attention import causal_attention, merge_heads
from .data import collate
from .model import KVCache
from .positions import check_positions, embed, embed_backward

_BLOCK_PARAMETERS = ("ln1.gain", "ln1.bias", "w_q", "w_k", "w_v", "w_o",
                     "ln2.gain", "ln2.bias", "w_1", "b_1", "w_2", "b_2")


class BlockSaved(NamedTuple):
    """What one block's forward keeps for its backward."""

    ln1: layers.LayerNormSaved
    attention: layers.MultiHeadSaved
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
    """§7. A decoder of L pre-LN blocks with learned absolute positions.

    ``params``: dict name -> array (see :func:`parameter_shapes`), all of one
    float dtype; ``n_heads``: H, which must divide the width D.  Build one with
    random parameters with :meth:`Decoder.init`.

    A *stack* trains S decoders of the same sizes as one (§7.3: one per seed):
    every parameter has a leading axis of S, and so do the ids (S, B, T), every
    activation and every output, so that each NumPy call computes all S models.
    Model s computes exactly what it computes alone.  :meth:`stack` builds one,
    :meth:`unstack` gives the S decoders back; ``n_models`` is S (None for one decoder).
    """

    def __init__(self, params, n_heads):
        if not isinstance(params, dict):
            raise TypeError(f"params must be a dict name -> array, got {type(params).__name__}")
        for name in ("token_table", "position_table", "w_head"):
            if name not in params:
                raise ValueError(f"params has no {name!r}; expected the names of parameter_shapes()")
        stacked = np.ndim(params["token_table"]) == 3                   # (S, V, D): a stack of S decoders
        lead = np.shape(params["token_table"])[:1] if stacked else ()
        V, D = np.shape(params["token_table"])[-2:] if np.ndim(params["token_table"]) in (2, 3) else (0, 0)
        if V < 1 or D < 1 or 0 in lead:
            raise ValueError(f"token_table must have shape (V, D), got {np.shape(params['token_table'])}")
        C = np.shape(params["position_table"])[-2] if np.ndim(params["position_table"]) == 2 + stacked else 0
        n_layers = len({name.split(".")[1] for name in params if name.startswith("blocks.")})
        if n_layers < 1:
            raise ValueError("params hold no block ('blocks.0.w_q' ...); a decoder needs at least one layer")
        F = np.shape(params.get("blocks.0.w_1", np.zeros((D, 4 * D))))[-1]
        expected = {name: lead + shape for name, shape in parameter_shapes(V, max(C, 1), D, n_layers, F).items()}
        if set(params) != set(expected):
            missing, extra = sorted(set(expected) - set(params)), sorted(set(params) - set(expected))
            raise ValueError(f"params do not form a decoder of {n_layers} layers: missing {missing}, unexpected {extra}")
        dtypes = {np.asarray(value).dtype for value in params.values()}
        if len(dtypes) != 1 or next(iter(dtypes)) not in (np.float32, np.float64):
            raise TypeError(f"every parameter must have the same dtype, float32 or float64; got {sorted(map(str, dtypes))}")
        self.params = {}
        for name, shape in expected.items():
            value = np.asarray(params[name])
            if value.shape != shape:
                raise ValueError(f"parameter {name} has shape {value.shape}, expected {shape}")
            self.params[name] = value
        validate.head_width(D, n_heads)
        self.n_heads = int(n_heads)
        self.n_layers = n_layers
        self.n_models = lead[0] if stacked else None
        self.vocab = None                   # set by load() when the file holds one

    @classmethod
    def init(cls, vocab_size, context_size, width, n_heads, n_layers, seed=0, *, mlp_width=None,
             dtype=np.float64):
        """§7. A decoder with random parameters drawn from ``np.random.default_rng(seed)``.

        Tables N(0, 0.1^2); projections N(0, 1/fan_in), the two that write into
        the residual stream (w_o, w_2) further scaled by 1/sqrt(2 L), so that the
        residual stream does not grow with depth; layer-norm gains 1, every bias 0.
        ``mlp_width`` F defaults to 4 D.
        """
        V, C, D, L = (validate.integer(v, n) for v, n in ((vocab_size, "vocab_size"), (context_size, "context_size"),
                                                           (width, "width"), (n_layers, "n_layers")))
        H = D // validate.head_width(D, n_heads)
        F = 4 * D if mlp_width is None else validate.integer(mlp_width, "mlp_width")
        dtype = validate.float_dtype(dtype)
        rng = np.random.default_rng(seed)
        residual_scale = 1.0 / np.sqrt(2 * L)
        params = {}
        for name, shape in parameter_shapes(V, C, D, L, F).items():
            short = name.rsplit(".", 1)[-1]                                 # "blocks.0.w_q" -> "w_q"
            if short == "gain":
                value = np.ones(shape)
            elif short in ("bias", "b_1", "b_2"):
                value = np.zeros(shape)
            elif short in ("token_table", "position_table"):
                value = 0.1 * rng.standard_normal(shape)
            else:
                value = rng.standard_normal(shape) / np.sqrt(shape[0])
                if short in ("w_o", "w_2"):
                    value *= residual_scale
            params[name] = value.astype(dtype)
        return cls(params, H)

    @classmethod
    def stack(cls, models):
        """§7. S decoders of the same sizes and H as one stack (their parameters copied side by side)."""
        models = list(models)
        if not models or not all(isinstance(m, Decoder) and m.n_models is None for m in models):
            raise TypeError("stack takes a non-empty list of decoders (not stacks)")
        if len({(tuple((n, p.shape, p.dtype) for n, p in m.params.items()), m.n_heads) for m in models}) != 1:
            raise ValueError("only decoders with the same parameter names, shapes, dtype and H can be stacked")
        return cls({name: np.stack([m.params[name] for m in models]) for name in models[0].params},
                   models[0].n_heads)

    def unstack(self):
        """§7. The S decoders of a stack; their parameters are views into the stack's."""
        if self.n_models is None:
            raise TypeError("unstack needs a stack of decoders (see Decoder.stack)")
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
        return (f"Decoder(V={self.vocab_size}, C={self.context_size}, D={self.width}, H={self.n_heads}, "
                f"L={self.n_layers}, parameters={self.parameter_count()}, dtype={self.dtype}{models})")

    def parameter_count(self):
        return int(sum(value.size for value in self.params.values()))

    def copy(self):
        """An independent decoder with copies of every parameter."""
        twin = Decoder({name: value.copy() for name, value in self.params.items()}, self.n_heads)
        twin.vocab = None if self.vocab is None else list(self.vocab)
        return twin

    def block(self, layer):
        """The parameters of block ``layer`` as a dict short name -> array (views, not copies)."""
        if not validate.integer(layer, "layer", 0) < self.n_layers:
            raise ValueError(f"layer must be an int in 0..{self.n_layers - 1}, got {layer!r}")
        return {name: self.params[f"blocks.{layer}.{name}"] for name in _BLOCK_PARAMETERS}

    # -- forward and backward ---------------------------------------------

    def forward(self, ids, causal=True):
        """§7. ids (T,) -> logits (T, V); ids (B, T) -> logits (B, T, V).

        ``causal=False`` removes the mask in every layer: the negative control
        only.  A tuple of L bools switches the mask per layer (to show, in §7.4,
        that one unmasked layer is enough to leak).
        """
        return self.forward_train(ids, causal)[0]

    def attention_weights(self, ids, causal=True):
        """§7. The attention weights of every layer: L arrays (H, T, T), or (B, H, T, T) for ids (B, T).

        Entry [h, i, j] is how much query i of head h reads key j (rows sum to
        1); with the mask every entry with j > i is exactly 0.
        """
        ids = np.asarray(ids)
        saved = self.forward_train(ids, causal)[1]
        weights = [saved_block[1][-1][-1] for saved_block in saved["blocks"]]   # (B, H, T, T) each
        return [w[0] for w in weights] if ids.ndim == 1 else weights

    def residual_stream(self, ids, causal=True):
        """§7. The residual stream entering each block and leaving the last: L + 1 arrays (T, D) or (B, T, D).

        Entry 0 is the embedding E[x] + P[t]; entry l is the output of block l - 1.
        """
        ids = np.asarray(ids)
        stream = self.forward_train(ids, causal)[1]["residual"]
        return [x[0] for x in stream] if ids.ndim == 1 else stream

    def _layer_flags(self, causal):
        if isinstance(causal, (bool, np.bool_)):
            return [bool(causal)] * self.n_layers
        if (isinstance(causal, (tuple, list)) and len(causal) == self.n_layers
                and all(isinstance(c, (bool, np.bool_)) for c in causal)):
            return [bool(c) for c in causal]
        raise TypeError(f"causal must be True or False (False only for the negative control), or a tuple of "
                        f"{self.n_layers} bools, one per layer; got {causal!r}")

    def _ids(self, ids):
        if self.n_models is None:
            return validate.token_ids(ids, self.vocab_size)                 # (T,) or (B, T)
        ids = np.asarray(ids)
        if ids.ndim != 3 or ids.shape[0] != self.n_models:
            raise ValueError(f"a stack of {self.n_models} decoders reads ids of shape (S, B, T) with "
                             f"S={self.n_models}, got shape {ids.shape}")
        validate.token_ids(ids.reshape(-1, ids.shape[-1]), self.vocab_size)
        return ids

    def _broadcast(self, p):
        """A parameter as the layers meet it: a stack's (S, ...) gets axes of size 1 for B (and T), so that
        it broadcasts against activations (S, B, T, width): (S, D, D) -> (S, 1, D, D), (S, D) -> (S, 1, 1, D)."""
        return p if self.n_models is None else p.reshape(p.shape[:1] + (1,) * (4 - p.ndim) + p.shape[1:])

    def forward_train(self, ids, causal=True):
        """§7. The forward pass that also returns what :meth:`backward` needs: (logits, saved)."""
        flags = self._layer_flags(causal)
        ids = self._ids(ids)
        check_positions(0, ids.shape[-1], self.context_size)
        p = {name: self._broadcast(value) for name, value in self.params.items()}
        batch = ids[None] if ids.ndim == 1 else ids                         # (B, T); a stack: (S, B, T)
        x = self._embed(batch)                                              # (B, T, D)
        residual, saved_blocks = [x], []
        for layer, layer_causal in enumerate(flags):
            block = {name: p[f"blocks.{layer}.{name}"] for name in _BLOCK_PARAMETERS}
            x, saved_block = self._block_forward(block, x, layer_causal)
            residual.append(x)
            saved_blocks.append(saved_block)
        h, saved_ln_f = layers.layer_norm_forward(x, p["ln_f.gain"], p["ln_f.bias"])   # (B, T, D)
        logits, saved_head = layers.linear_forward(h, p["w_head"])          # (B, T, V): the output head
        saved = {"ids": batch, "single": ids.ndim == 1, "blocks": saved_blocks, "residual": residual,
                 "ln_f": saved_ln_f, "head": saved_head}
        return (logits[0] if ids.ndim == 1 else logits), saved

    def _block_forward(self, b, x, causal):
        """One pre-LN block: x + attention(LN(x)), then + MLP(LN(x)).  x: (B, T, D)."""
        a, saved_ln1 = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])
        attended, saved_attention = layers.multi_head_attention_forward(
            a, b["w_q"], b["w_k"], b["w_v"], b["w_o"], self.n_heads, causal)
        x = x + attended                                                    # residual
        m, saved_ln2 = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])
        mlp_out, saved_mlp = layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])
        return x + mlp_out, BlockSaved(saved_ln1, saved_attention, saved_ln2, saved_mlp)

    def backward(self, d_logits, saved):
        """§7. Gradients of every parameter from the upstream gradient of the logits.

        d_logits: the shape of the logits :meth:`forward_train` returned; saved:
        its second result.  Returns a dict with the keys and shapes of ``params``.
        """
        d_logits = np.asarray(d_logits)
        batch = saved["ids"]
        expected = (batch.shape[-1], self.vocab_size) if saved["single"] else (*batch.shape, self.vocab_size)
        if d_logits.shape != expected:
            raise ValueError(f"d_logits has shape {d_logits.shape}, expected {expected}, the shape of the logits")
        d_logits = d_logits.astype(self.dtype, copy=False).reshape(*batch.shape, self.vocab_size)   # (B, T, V)
        grads = {}
        d_h, grads["w_head"], _ = layers.linear_backward(d_logits, saved["head"])          # (B, T, D)
        d_x, grads["ln_f.gain"], grads["ln_f.bias"] = layers.layer_norm_backward(d_h, saved["ln_f"])
        for layer in reversed(range(self.n_layers)):
            d_x, block_grads = self._block_backward(d_x, saved["blocks"][layer])
            grads.update({f"blocks.{layer}.{name}": g for name, g in block_grads.items()})
        if self.n_models is None:
            grads["token_table"], grads["position_table"] = embed_backward(
                d_x, batch, self.vocab_size, self.context_size)
        else:                                                               # each model its own tables
            tables = [embed_backward(d, i, self.vocab_size, self.context_size) for d, i in zip(d_x, batch)]
            grads["token_table"], grads["position_table"] = (np.stack(t) for t in zip(*tables))
        return {name: grads[name].reshape(p.shape) for name, p in self.params.items()}   # the order of params

    def _embed(self, ids):
        """E[ids] + P[t] (§3): (B, T) -> (B, T, D); a stack, each model with its own tables, (S, B, T) -> (S, B, T, D)."""
        E, P = self.params["token_table"], self.params["position_table"]
        if self.n_models is None:
            return embed(ids, E, P)
        return np.stack([embed(i, e, p) for i, e, p in zip(ids, E, P)])

    @staticmethod
    def _block_backward(d_out, saved):
        saved_ln1, saved_attention, saved_ln2, saved_mlp = saved
        g = {}
        d_m, g["w_1"], g["b_1"], g["w_2"], g["b_2"] = layers.mlp_backward(d_out, saved_mlp)
        d_ln2, g["ln2.gain"], g["ln2.bias"] = layers.layer_norm_backward(d_m, saved_ln2)
        d_x = d_out + d_ln2                                                 # residual: both paths add up
        d_a, g["w_q"], g["w_k"], g["w_v"], g["w_o"] = layers.multi_head_attention_backward(d_x, saved_attention)
        d_ln1, g["ln1.gain"], g["ln1.bias"] = layers.layer_norm_backward(d_a, saved_ln1)
        return d_x + d_ln1, g

    def loss(self, inputs, targets, causal=True):
        """§7. Teacher-forced cross-entropy over the scored targets (IGNORE = -100 is skipped)."""
        return layers.cross_entropy_forward(self.forward(inputs, causal), targets)[0]

    def loss_and_grads(self, inputs, targets, causal=True):
        """§7. (loss, grads) for one batch: forward, cross-entropy, and the whole backward."""
        logits, saved = self.forward_train(inputs, causal)
        loss, saved_loss = layers.cross_entropy_forward(logits, targets)
        return loss, self.backward(layers.cross_entropy_backward(1.0, saved_loss), saved)

    # -- the per-layer KV cache (§5) ----------------------------------------

    def new_cache(self):
        """§5, §7. An empty cache: one KV cache per layer, each as long as the position table."""
        if self.n_models is not None:
            raise TypeError("a stack of decoders has no cache: unstack() it and step each decoder")
        head_width = self.width // self.n_heads
        return DecoderCache([KVCache(self.n_heads, head_width, self.context_size, self.dtype)
                             for _ in range(self.n_layers)])

    def step(self, token, cache, *, position=None):
        """§7. Logits (V,) of one new token at position len(cache); its keys and values go into every layer.

        A token that is not one int is a TypeError, an id outside the vocabulary
        or a step past the position table a ValueError; either way the cache is
        left exactly as it was.  ``position`` overrides the position only to
        show the reset bug of §5; leave it None.
        """
        if isinstance(token, (bool, np.bool_)) or not isinstance(token, numbers.Integral):
            shape = f" of shape {np.shape(token)}" if isinstance(token, np.ndarray) else ""
            raise TypeError(f"token must be one int (a token id), got {type(token).__name__}{shape}: {token!r}")
        if not 0 <= token < self.vocab_size:
            raise ValueError(f"token id {int(token)} is outside the vocabulary (valid ids are 0..{self.vocab_size - 1})")
        self._check_cache(cache)
        if position is None:
            position = len(cache)
        check_positions(position, 1, self.context_size)
        if len(cache) == self.context_size:
            raise ValueError(f"the cache is full: it holds {len(cache)} positions, the size of the position table")
        length = len(cache)
        x = embed(np.array([token]), self.params["token_table"], self.params["position_table"], position)  # (1, D)
        try:
            for layer, kv in enumerate(cache.layers):
                x = self.block_step(layer, x, kv)
        except BaseException:
            cache.truncate(length)                                          # never leave a half-written step
            raise
        return self.output_head(x)[0]                                      # (V,)

    def output_head(self, x):
        """§7. The end of the model: final layer norm, then W_head.  Residual stream (..., D) -> logits (..., V)."""
        h, _ = layers.layer_norm_forward(x, self.params["ln_f.gain"], self.params["ln_f.bias"])
        return h @ self.params["w_head"]

    def block_step(self, layer, x, kv):
        """§7. Block ``layer`` for one new position: x (1, D) -> (1, D).

        Appends this position's keys and values to ``kv`` (that layer's
        :class:`lib.model.KVCache`) and lets the new query read every stored position.
        """
        b = self.block(layer)
        a, _ = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])   # (1, D)
        H, d = self.n_heads, self.width // self.n_heads
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))   # 3 x (H, 1, d)
        kv.append(k[:, 0], v[:, 0])
        heads = causal_attention(q, kv.keys, kv.values)                     # (H, 1, d): reads positions 0..len-1
        x = x + merge_heads(heads[None])[0] @ b["w_o"]                      # (1, D)
        m, _ = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])
        return x + layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]

    def _check_cache(self, cache):
        if not isinstance(cache, DecoderCache):
            raise TypeError(f"cache must be a DecoderCache from model.new_cache(), got {type(cache).__name__}")
        first = cache.layers[0]
        if (len(cache.layers) != self.n_layers or first.capacity != self.context_size
                or first.keys.shape[0] != self.n_heads or first.keys.shape[2] != self.width // self.n_heads):
            raise ValueError(f"{cache!r} does not belong to this model ({self!r}); use model.new_cache()")

    # -- generation ---------------------------------------------------------

    def generate(self, prompt_ids, n_new, temperature=0.0, seed=0):
        """§7. The prompt followed by ``n_new`` generated ids, one step of the cache per token.

        temperature 0: greedy (the most probable token; the first one on a tie);
        temperature > 0: sample from softmax(logits / temperature) with
        ``np.random.default_rng(seed)``.  The prompt must be a non-empty (T,)
        int array; every step must stay inside the position table, so
        len(prompt) + n_new - 1 <= C.  Returns an int64 array.
        """
        prompt = validate.token_ids(prompt_ids, self.vocab_size)
        if prompt.ndim != 1:
            raise ValueError(f"generate continues one stream: prompt_ids must have shape (T,), got {prompt.shape}")
        n_new = validate.integer(n_new, "n_new", 0)
        if isinstance(temperature, (bool, np.bool_)) or temperature != 0:
            validate.positive_number(temperature, "temperature (0 = greedy)")
        steps = len(prompt) + max(n_new - 1, 0)
        if steps > self.context_size:
            raise ValueError(
                f"a prompt of {len(prompt)} tokens and {n_new} new ones need {steps} positions, but the position "
                f"table has {self.context_size} (C={self.context_size}); shorten the prompt or ask for fewer tokens")
        rng = np.random.default_rng(seed)
        out = [int(t) for t in prompt]
        if n_new == 0:
            return np.array(out, dtype=np.int64)
        cache = self.new_cache()
        for token in out:
            logits = self.step(token, cache)
        for i in range(n_new):
            token = pick_token(logits, temperature, rng)
            out.append(token)
            if i < n_new - 1:
                logits = self.step(token, cache)
        return np.array(out, dtype=np.int64)

    # -- saving and loading -------------------------------------------------

    def save(self, path, vocab=None):
        """Write every parameter, H and (if given) the vocabulary to one .npz file.

        The three belong together (§6): the same arrays with another head count
        or another vocabulary are another model.
        """
        extra = {}
        if vocab is not None:
            vocab = list(vocab)
            if len(vocab) != self.vocab_size or not all(isinstance(t, str) for t in vocab):
                raise ValueError(f"vocab must be {self.vocab_size} strings, one per row of the token table, "
                                 f"got {len(vocab)} entries")
            extra["vocab"] = np.array(vocab, dtype=str)
        np.savez(path, n_heads=np.array(self.n_heads), **extra, **self.params)

    @classmethod
    def load(cls, path):
        """Read a decoder written by :meth:`save`; its ``vocab`` attribute is the saved vocabulary or None."""
        with np.load(path, allow_pickle=False) as data:
            params = {name: data[name] for name in data.files if name not in ("n_heads", "vocab")}
            model = cls(params, int(data["n_heads"]))
            model.vocab = [str(t) for t in data["vocab"]] if "vocab" in data.files else None
        return model


class DecoderCache:
    """§7. The per-layer KV cache: one :class:`lib.model.KVCache` per layer, all of one length.

    ``len(cache)`` is the position the next token takes; ``cache.layers[l]``
    holds layer l's keys and values, shape (H, len, d).
    """

    def __init__(self, layer_caches):
        self.layers = list(layer_caches)
        if not self.layers or not all(isinstance(kv, KVCache) for kv in self.layers):
            raise TypeError("DecoderCache needs one KVCache per layer (at least one)")

    def __len__(self):
        lengths = {len(kv) for kv in self.layers}
        if len(lengths) != 1:
            raise ValueError(f"the layers of this cache have different lengths {sorted(lengths)}; "
                             "every step must write every layer")
        return lengths.pop()

    def __repr__(self):
        return f"DecoderCache(len={len(self)}, layers={len(self.layers)}, capacity={self.layers[0].capacity})"

    def truncate(self, length):
        """Forget every position from ``length`` on, in every layer."""
        for kv in self.layers:
            if len(kv) > length:
                kv.truncate(length)


def pick_token(logits, temperature, rng):
    """§7. The next id from logits (V,): argmax at temperature 0, else a sample from softmax(logits / T)."""
    logits = np.asarray(logits, dtype=np.float64)
    if temperature == 0:
        return int(np.argmax(logits))
    z = logits / temperature
    probs = np.exp(z - z.max())
    cumulative = np.cumsum(probs)
    return int(min(np.searchsorted(cumulative, rng.random() * cumulative[-1], side="right"), len(probs) - 1))


# --------------------------------------------------------------------------
# The optimiser
# --------------------------------------------------------------------------

class Adam:
    """§7. Adam (Kingma and Ba, 2015), written out; the same update as torch.optim.Adam.

    For every parameter p with gradient g, at step t = 1, 2, ...:

        m = beta1 m + (1 - beta1) g            (running mean of the gradient)
        v = beta2 v + (1 - beta2) g^2          (running mean of its square)
        p -= lr * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + eps)

    The divisions by 1 - beta^t undo the bias towards 0 of the first steps.
    ``params`` (dict name -> array) is updated in place.
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8):
        if not isinstance(params, dict) or not params:
            raise TypeError(f"params must be a non-empty dict name -> array, got {type(params).__name__}")
        for name, value in params.items():
            if not isinstance(value, np.ndarray) or value.dtype not in (np.float32, np.float64):
                raise TypeError(f"parameter {name} must be a float32 or float64 array (updated in place), "
                                f"got {type(value).__name__}")
        validate.positive_number(lr, "lr")
        if len(betas) != 2 or not all(isinstance(b, numbers.Real) and 0 <= b < 1 for b in betas):
            raise ValueError(f"betas must be two numbers in [0, 1), got {betas!r}")
        if not (isinstance(eps, numbers.Real) and eps >= 0):
            raise ValueError(f"eps must be a number >= 0, got {eps!r}")
        self.params, self.lr, self.betas, self.eps = params, float(lr), tuple(float(b) for b in betas), float(eps)
        self.m = {name: np.zeros_like(value) for name, value in params.items()}
        self.v = {name: np.zeros_like(value) for name, value in params.items()}
        self.t = 0

    def step(self, grads):
        """Apply one update from ``grads`` (the same keys and shapes as ``params``)."""
        if set(grads) != set(self.params):
            missing, extra = sorted(set(self.params) - set(grads)), sorted(set(grads) - set(self.params))
            raise ValueError(f"grads must have exactly the keys of params: missing {missing}, unexpected {extra}")
        for name, g in grads.items():
            if np.shape(g) != self.params[name].shape:
                raise ValueError(f"gradient of {name} has shape {np.shape(g)}, expected {self.params[name].shape}")
            if not np.all(np.isfinite(g)):
                raise ValueError(f"gradient of {name} is not finite; no parameter was updated")
        beta1, beta2 = self.betas
        self.t += 1
        correction1, correction2 = 1 - beta1 ** self.t, 1 - beta2 ** self.t
        for name, p in self.params.items():
            g = np.asarray(grads[name], dtype=p.dtype)
            m, v = self.m[name], self.v[name]
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * (g * g)
            p -= self.lr * (m / correction1) / (np.sqrt(v / correction2) + self.eps)


# --------------------------------------------------------------------------
# Training
# --------------------------------------------------------------------------

def train(model, texts, vocab, *, steps, batch_size, lr, causal=True, seed=0, loss_and_grads=None,
          observe=None):
    """§7. Train ``model`` in place with Adam on random batches of ``texts``; returns the loss of every step.

    Each step draws ``batch_size`` texts without replacement (``np.random.default_rng(seed)``),
    collates them with right padding (:func:`lib.data.collate`), and takes one
    Adam step on the teacher-forced loss.  ``causal=False`` trains the negative
    control: the same model reading the whole row, its target included.  A stack
    of S decoders (:meth:`Decoder.stack`) takes S seeds, one order of batches per
    model, and returns the losses as (steps, S); its S batches of a step are padded
    to one length T, the longest text of all of them.

    ``loss_and_grads(model, inputs, targets) -> (loss, grads)`` replaces that
    loss (§7 trains a model without the mask on prefixes with it; ``causal`` is
    then not used and must be left alone); ``observe(step, model)``, if given,
    is called after every step (step = 1, 2, ..., steps), to follow a quantity
    during training.  Neither changes which batches are drawn.
    """
    texts = list(texts)
    steps, batch_size = validate.integer(steps, "steps"), validate.integer(batch_size, "batch_size")
    if batch_size > len(texts):
        raise ValueError(f"batch_size={batch_size} is larger than the corpus of {len(texts)} texts")
    for name, value in (("loss_and_grads", loss_and_grads), ("observe", observe)):
        if value is not None and not callable(value):
            raise TypeError(f"{name} must be a function or None, got {type(value).__name__}")
    if loss_and_grads is None:
        def loss_and_grads(model, inputs, targets):
            return model.loss_and_grads(inputs, targets, causal)
    elif causal is not True:
        raise ValueError("give either causal or loss_and_grads: a custom loss_and_grads decides what the model reads")
    if model.n_models is None:
        rngs = [np.random.default_rng(seed)]
    elif np.ndim(seed) != 1 or len(seed) != model.n_models:
        raise ValueError(f"a stack of {model.n_models} decoders needs {model.n_models} seeds, got {seed!r}")
    else:
        rngs = [np.random.default_rng(s) for s in seed]
    optimiser = Adam(model.params, lr=lr)
    losses = []
    for step in range(1, steps + 1):
        chosen = [i for rng in rngs for i in rng.choice(len(texts), size=batch_size, replace=False)]
        inputs, targets = collate([texts[i] for i in chosen], vocab)       # (B, T) each, right-padded
        if model.n_models is not None:                                      # (S, B, T) each
            inputs, targets = (a.reshape(model.n_models, batch_size, -1) for a in (inputs, targets))
        loss, grads = loss_and_grads(model, inputs, targets)
        optimiser.step(grads)
        losses.append(loss)
        if observe is not None:
            observe(step, model)
    return np.array(losses)


# --------------------------------------------------------------------------
# The mirror language: the corpus of §7
# --------------------------------------------------------------------------

MIRROR_LETTERS = "abдж春雨"               # two letters of each of the course's scripts, in code-point order
MIRROR_CORPUS = pathlib.Path(__file__).with_name("corpus") / "mirror.txt"


def mirror_language():
    """§7. Every line of the mirror language: a word of 2 or 3 letters, "|", the word reversed.

    With the 6 letters of :data:`MIRROR_LETTERS` that is 36 + 216 = 252 lines,
    words in the order of itertools.product (2-letter words first).
    """
    words = ["".join(w) for n in (2, 3) for w in itertools.product(MIRROR_LETTERS, repeat=n)]
    return [word + "|" + word[::-1] for word in words]


def read_mirror_corpus():
    """§7. The training corpus shipped with the course: 216 of the 252 lines, one per line.

    Every seventh line of :func:`mirror_language` (starting with the seventh)
    is held out and never appears in the file.
    """
    lines = MIRROR_CORPUS.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line]


def is_mirror_line(text):
    """§7. True if ``text`` obeys the rule: w + "|" + reversed(w), w of 2 or 3 letters of the alphabet."""
    if not isinstance(text, str):
        raise TypeError(f"is_mirror_line expects a str, got {type(text).__name__}")
    word, bar, rest = text.partition("|")
    return (bar == "|" and len(word) in (2, 3) and rest == word[::-1]
            and all(ch in MIRROR_LETTERS for ch in word))


__all__ = ["Decoder", "DecoderCache", "Adam", "parameter_shapes", "pick_token", "train",
           "mirror_language", "read_mirror_corpus", "is_mirror_line", "MIRROR_LETTERS"]
