"""The one-layer model the chapter checks (§4, §5, §6): embedding + multi-head attention."""

import numpy as np

from . import validate
from .attention import causal_attention, merge_heads, multi_head_attention, split_heads
from .positions import _check_tables, check_positions, embed


class KVCache:
    """§5. Keys and values of the positions seen so far, per head.

    ``keys`` and ``values`` have shape (H, len(cache), d); ``len(cache)`` is
    the position the next token will take.  The arrays are stored in one
    float dtype, the model's.
    """

    def __init__(self, n_heads, head_width, capacity, dtype):
        n_heads = validate.integer(n_heads, "n_heads")
        head_width = validate.integer(head_width, "head_width")
        capacity = validate.integer(capacity, "capacity")
        if not np.issubdtype(np.dtype(dtype), np.floating):
            raise TypeError(f"a cache stores floats, got dtype {np.dtype(dtype)}")
        self._keys = np.zeros((n_heads, capacity, head_width), dtype=dtype)    # (H, C, d)
        self._values = np.zeros((n_heads, capacity, head_width), dtype=dtype)  # (H, C, d)
        self._length = 0

    def __len__(self):
        return self._length

    def __repr__(self):
        return f"KVCache(len={self._length}, heads={self._keys.shape[0]}, capacity={self._keys.shape[1]})"

    @property
    def capacity(self):
        return self._keys.shape[1]

    @property
    def dtype(self):
        return self._keys.dtype

    @property
    def keys(self):
        return self._keys[:, :self._length]                     # (H, n, d)

    @property
    def values(self):
        return self._values[:, :self._length]                   # (H, n, d)

    def truncate(self, length):
        """Forget every position from ``length`` on (e.g. to try another continuation).

        Only positions already stored can be kept: 0 <= length <= len(cache).
        """
        length = validate.integer(length, "length", 0)
        if length > self._length:
            raise ValueError(
                f"cannot truncate a cache of {self._length} positions to {length}: only stored "
                "positions can be kept (0 <= length <= len(cache))"
            )
        self._length = length

    def append(self, key, value):
        """Store one position's key and value, each (H, d); nothing is written if either is refused."""
        if self._length == self.capacity:
            raise ValueError(f"the cache is full: it holds {self.capacity} positions, the size of the position table")
        expected = (self._keys.shape[0], self._keys.shape[2])
        key, value = np.asarray(key), np.asarray(value)
        for name, a in (("key", key), ("value", value)):
            if a.shape != expected:
                raise ValueError(f"{name} has shape {a.shape}, expected (H, d) = {expected}")
            if not np.can_cast(a.dtype, self.dtype, "safe"):
                raise TypeError(f"{name} of dtype {a.dtype} cannot be stored without loss in a {self.dtype} cache")
        self._keys[:, self._length] = key
        self._values[:, self._length] = value
        self._length += 1


class AttentionModel:
    """§4-§6. Learned absolute positions followed by one causal multi-head attention layer.

    token_table (V, D), position_table (C, D), w_q/w_k/w_v/w_o (D, D), n_heads H.
    All parameters are stored in their common float dtype (see lib/__init__),
    which is the dtype of every output and of the cache.
    """

    def __init__(self, token_table, position_table, w_q, w_k, w_v, w_o, n_heads):
        if np.ndim(token_table) != 2:
            raise ValueError(f"token table must be 2-D (V, D), got shape {np.shape(token_table)}")
        params = validate.float_arrays(token_table=token_table, position_table=position_table,
                               w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o)
        self.token_table, self.position_table = _check_tables(*params[:2])
        D = self.token_table.shape[1]
        validate.head_width(D, n_heads)
        self.w_q, self.w_k, self.w_v, self.w_o = params[2:]
        for name, w in (("w_q", self.w_q), ("w_k", self.w_k), ("w_v", self.w_v), ("w_o", self.w_o)):
            if w.shape != (D, D):
                raise ValueError(f"{name} has shape {w.shape}, expected ({D}, {D})")
        self.n_heads = int(n_heads)

    @property
    def width(self):
        return self.token_table.shape[1]

    @property
    def context_size(self):
        return self.position_table.shape[0]

    @property
    def dtype(self):
        return self.token_table.dtype

    def embed(self, ids, use_positions=True, offset=0):
        """§3. (T,) or (B, T) ids -> input vectors; without positions only E[ids]."""
        if validate.boolean(use_positions, "use_positions"):
            return embed(ids, self.token_table, self.position_table, offset)
        return self.token_table[validate.token_ids(ids, self.token_table.shape[0])]

    def forward(self, ids, use_positions=True, causal=True):
        """§4. ids (T,) -> (T, D); ids (B, T) -> (B, T, D).

        ``causal=False`` removes the mask; it is only the negative control of §4.
        """
        x = self.embed(ids, use_positions)                      # (T, D) or (B, T, D)
        batch = x[None] if x.ndim == 2 else x                   # (B, T, D)
        out = multi_head_attention(batch, self.w_q, self.w_k, self.w_v, self.w_o, self.n_heads, causal=causal)
        return out[0] if x.ndim == 2 else out

    def new_cache(self):
        """§5. An empty cache; its capacity is the size of the position table."""
        return KVCache(self.n_heads, self.width // self.n_heads, self.context_size, self.dtype)

    def _check_cache(self, cache):
        if not isinstance(cache, KVCache):
            raise TypeError(f"cache must be a KVCache (from model.new_cache()), got {type(cache).__name__}")
        mine = (self.n_heads, self.width // self.n_heads, self.context_size, self.dtype)
        theirs = (cache._keys.shape[0], cache._keys.shape[2], cache.capacity, cache.dtype)
        if theirs != mine:
            raise ValueError(
                f"this cache (H, d, capacity, dtype) = {theirs} does not belong to this model, which needs "
                f"{mine}; create it with model.new_cache()"
            )

    def step(self, token, cache, *, position=None):
        """§5. Output (D,) for one new token at position len(cache); stores its key and value.

        ``token`` is one token id, an int (a list or an array is refused: feed
        a sequence one token per step).  ``position`` overrides the position
        only to demonstrate the reset bug of §5; leave it as None.  Whatever is
        refused (a bad token, a foreign cache, a step past the position table)
        raises before anything is stored: the cache is left as it was.
        """
        if isinstance(token, (bool, np.bool_)) or not isinstance(token, (int, np.integer)):
            shape = f" of shape {np.shape(token)}" if isinstance(token, (list, tuple, np.ndarray)) else ""
            raise TypeError(
                f"step takes one token id (an int), got {type(token).__name__}{shape}: {token!r}; "
                "feed a sequence one token per step (see lib.checks.incremental_forward)"
            )
        self._check_cache(cache)
        if position is None:
            position = len(cache)
        check_positions(position, 1, self.context_size)
        x = self.embed(np.array([token]), offset=position)      # (1, D)
        q = split_heads((x @ self.w_q)[None], self.n_heads)[0]  # (H, 1, d)
        k = split_heads((x @ self.w_k)[None], self.n_heads)[0]  # (H, 1, d)
        v = split_heads((x @ self.w_v)[None], self.n_heads)[0]  # (H, 1, d)
        cache.append(k[:, 0], v[:, 0])
        try:
            heads = causal_attention(q, cache.keys, cache.values)   # (H, 1, d): reads every stored position
        except BaseException:
            cache.truncate(len(cache) - 1)                      # a failed step stores nothing
            raise
        return (merge_heads(heads[None])[0] @ self.w_o)[0]      # (D,)
