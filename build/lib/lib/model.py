"""The one-layer model the chapter checks (§4, §5, §6): embedding + multi-head attention."""

import numpy as np

from .attention import causal_attention, merge_heads, multi_head_attention, split_heads
from .positions import _check_ids, check_positions, embed


class KVCache:
    """§5. Keys and values of the positions seen so far, per head.

    ``keys`` and ``values`` have shape (H, len(cache), d); ``len(cache)`` is
    the position the next token will take.
    """

    def __init__(self, n_heads, head_width, capacity, dtype):
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
    def keys(self):
        return self._keys[:, :self._length]                     # (H, n, d)

    @property
    def values(self):
        return self._values[:, :self._length]                   # (H, n, d)

    def truncate(self, length):
        """Forget every position from ``length`` on (e.g. to try another continuation)."""
        if not 0 <= length <= self._length:
            raise ValueError(f"cannot truncate a cache of {self._length} positions to {length}")
        self._length = length

    def append(self, key, value):
        """Store one position's key and value, each (H, d)."""
        if self._length == self.capacity:
            raise ValueError(f"the cache is full: it holds {self.capacity} positions, the size of the position table")
        self._keys[:, self._length] = key
        self._values[:, self._length] = value
        self._length += 1


class AttentionModel:
    """§4-§6. Learned absolute positions followed by one causal multi-head attention layer.

    token_table (V, D), position_table (C, D), w_q/w_k/w_v/w_o (D, D), n_heads H.
    """

    def __init__(self, token_table, position_table, w_q, w_k, w_v, w_o, n_heads):
        self.token_table = np.asarray(token_table)
        self.position_table = np.asarray(position_table)
        D = self.token_table.shape[-1]
        if self.position_table.ndim != 2 or self.position_table.shape[1] != D:
            raise ValueError(
                f"position table has shape {self.position_table.shape}, expected (C, {D}) to match the token table"
            )
        if n_heads < 1 or D % n_heads:
            raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}; D must be a multiple of H")
        self.w_q, self.w_k, self.w_v, self.w_o = (np.asarray(w) for w in (w_q, w_k, w_v, w_o))
        for name, w in (("w_q", self.w_q), ("w_k", self.w_k), ("w_v", self.w_v), ("w_o", self.w_o)):
            if w.shape != (D, D):
                raise ValueError(f"{name} has shape {w.shape}, expected ({D}, {D})")
        self.n_heads = n_heads

    @property
    def width(self):
        return self.token_table.shape[1]

    @property
    def context_size(self):
        return self.position_table.shape[0]

    def embed(self, ids, use_positions=True, offset=0):
        """§3. (T,) or (B, T) ids -> input vectors; without positions only E[ids]."""
        if use_positions:
            return embed(ids, self.token_table, self.position_table, offset)
        return self.token_table[_check_ids(ids, self.token_table.shape[0])]

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
        dtype = np.result_type(self.token_table, self.position_table, self.w_k)
        return KVCache(self.n_heads, self.width // self.n_heads, self.context_size, dtype)

    def step(self, token, cache, *, position=None):
        """§5. Output (D,) for one new token at position len(cache); stores its key and value.

        ``position`` overrides the position only to demonstrate the reset bug of §5;
        leave it as None.  A step past the position table raises ValueError and
        leaves the cache as it was.
        """
        if position is None:
            position = len(cache)
        check_positions(position, 1, self.context_size)
        x = self.embed(np.array([token]), offset=position)      # (1, D)
        q = split_heads((x @ self.w_q)[None], self.n_heads)[0]  # (H, 1, d)
        k = split_heads((x @ self.w_k)[None], self.n_heads)[0]  # (H, 1, d)
        v = split_heads((x @ self.w_v)[None], self.n_heads)[0]  # (H, 1, d)
        cache.append(k[:, 0], v[:, 0])
        heads = causal_attention(q, cache.keys, cache.values)   # (H, 1, d): reads every stored position
        return (merge_heads(heads[None])[0] @ self.w_o)[0]      # (D,)
