"""The one-layer model the course checks (§4, §5, §6): embedding + multi-head attention."""

import numpy as np

from . import validate
from .attention import causal_attention, merge_heads, multi_head_attention, split_heads
from .positions import embed


class KVCache:
    """§5. Keys and values of the positions seen so far, per head: ``keys`` and ``values``
    (H, len(cache), d); ``len(cache)`` is the next token's position."""

    def __init__(self, n_heads, head_width, capacity, dtype):
        H, d, C = validate.sizes(n_heads=n_heads, head_width=head_width, capacity=capacity)
        dtype = validate.cache_dtype(dtype)
        self._keys = np.zeros((H, C, d), dtype=dtype)          # (H, C, d)
        self._values = np.zeros((H, C, d), dtype=dtype)        # (H, C, d)
        self._length = 0

    def __len__(self):
        return self._length

    def __repr__(self):
        return f"KVCache(len={self._length}, heads={self._keys.shape[0]}, capacity={self.capacity})"

    @property
    def capacity(self):
        return self._keys.shape[1]

    @property
    def dtype(self):
        return self._keys.dtype

    @property
    def layout(self):
        """(H, d, capacity, dtype): the sizes of its model."""
        return self._keys.shape[0], self._keys.shape[2], self.capacity, self.dtype

    @property
    def keys(self):
        return self._keys[:, :self._length]                     # (H, n, d)

    @property
    def values(self):
        return self._values[:, :self._length]                   # (H, n, d)

    def truncate(self, length):
        """Forget every position from ``length`` on, 0 <= length <= len(cache)."""
        self._length = validate.truncate(self, length)

    def append(self, key, value):
        """Store one position's key and value, each (H, d); nothing is written if one is refused."""
        self._store(*validate.cache_entry(self, key, value))

    def _store(self, key, value):               # for lib's cached step, checked where it entered
        self._keys[:, self._length] = key
        self._values[:, self._length] = value
        self._length += 1


def _attend_step(x, w_q, w_k, w_v, w_o, n_heads, cache):
    """§5, §7. lib's one cached step: multi-head attention of one new position x (1, D) -> (1, D),
    which stores its key and value in ``cache`` first, then reads every position there."""
    q, k, v = (split_heads.plain(x @ w, n_heads) for w in (w_q, w_k, w_v))    # 3 x (H, 1, d)
    cache._store(k[:, 0], v[:, 0])
    heads = causal_attention.plain(q, cache.keys, cache.values)               # (H, 1, d)
    return merge_heads.plain(heads) @ w_o                                     # (1, D)


class AttentionModel:
    """§4-§6. Learned absolute positions followed by one causal multi-head attention layer:
    token_table (V, D), position_table (C, D), w_q/w_k/w_v/w_o (D, D), n_heads H."""

    def __init__(self, token_table, position_table, w_q, w_k, w_v, w_o, n_heads):
        (self.token_table, self.position_table, self.w_q, self.w_k, self.w_v, self.w_o,
         self.n_heads) = validate.attention_model(token_table, position_table, w_q, w_k, w_v, w_o,
                                                  n_heads)

    @property
    def vocab_size(self):
        return self.token_table.shape[0]

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
        return self.token_table[validate.token_ids(ids, self.vocab_size)]

    def forward(self, ids, use_positions=True, causal=True):
        """§4. ids (T,) -> (T, D); ids (B, T) -> (B, T, D).  ``causal=False`` removes the mask:
        the negative control of §4 only."""
        x = self.embed(ids, use_positions)                      # (T, D) or (B, T, D)
        return multi_head_attention.plain(x, self.w_q, self.w_k, self.w_v, self.w_o, self.n_heads,
                                          validate.boolean(causal, "causal"))  # (T, D), (B, T, D)

    @property
    def cache_layout(self):
        """(H, d, C, dtype): the layout of this model's cache."""
        return self.n_heads, self.width // self.n_heads, self.context_size, self.dtype

    def new_cache(self):
        """§5. An empty cache; its capacity is the size of the position table."""
        return KVCache(*self.cache_layout)

    def step(self, token, cache, *, position=None):
        """§5. Output (D,) for one new token id at position len(cache); stores its key and value,
        or nothing if it is refused.  ``position`` only shows §5's reset bug."""
        token, cache, position = validate.step(self, token, cache, position, KVCache)
        x = embed.plain(np.array([token]), self.token_table, self.position_table, position)
        length = len(cache)
        try:
            out = _attend_step(x, self.w_q, self.w_k, self.w_v, self.w_o, self.n_heads, cache)
        except BaseException:
            cache._length = length                              # a failed step stores nothing
            raise
        return out[0]                                           # (D,)
