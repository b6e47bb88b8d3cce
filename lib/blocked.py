"""Causal attention block by block: the future is never computed (§5.9).

:func:`lib.attention.causal_attention` computes the whole (Tq, Tk) table of scores and then
forbids its upper right.  Here each block of BLOCK queries computes its scores only against the
keys its last query may read: about half of the table (:func:`attention_work`), the same numbers
up to rounding.  bench/fast_attention.py, outside lib, computes them on every core."""

from typing import NamedTuple

import numpy as np

from . import validate
from .attention import attention_scores, causal_future, masked_softmax
from .validate import checked

BLOCK = 64      # queries per block


@checked(validate.causal_inputs)
def blocked_causal_attention(q, k, v, *, skip_future=True):
    """§5.9. :func:`lib.attention.causal_attention`, computed one block of queries at a time.
    Query block [start, stop) stands at positions Tk - Tq + start .. Tk - Tq + stop - 1, so
    even its last query reads keys 0 .. Tk - Tq + stop - 1 only: later scores are never
    computed.  ``skip_future=False`` computes every key and masks the future, as the definition."""
    tq, tk = q.shape[-2], k.shape[-2]
    future = causal_future.plain(tq, tk)                            # (Tq, Tk), True = forbidden
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    out = np.empty(lead + (tq, v.shape[-1]), dtype=q.dtype)         # (..., Tq, dv)
    for start in range(0, tq, BLOCK):
        stop = min(start + BLOCK, tq)
        n_keys = tk - tq + stop if skip_future else tk              # keys 0 .. n_keys - 1
        scores = attention_scores.plain(q[..., start:stop, :], k[..., :n_keys, :])   # (..., b, n)
        weights = masked_softmax.plain(scores, ~future[start:stop, :n_keys])         # (..., b, n)
        out[..., start:stop, :] = weights @ v[..., :n_keys, :]                        # (..., b, dv)
    return out


class AttentionWork(NamedTuple):
    """§5.9. Score entries of one (Tq, Tk) attention table, per head (:func:`attention_work`)."""

    computed: int   # entries the blocked form computes
    allowed: int    # entries a query may read: the least any method must compute
    total: int      # Tq * Tk, the whole table the definition computes

    @property
    def fraction(self):                                             # computed / total
        return self.computed / self.total if self.total else 0.0


@checked(validate.attention_work)
def attention_work(tq, tk, *, skip_future=True, block=None):
    """§5.9. How many scores :func:`blocked_causal_attention` computes for Tq queries and Tk keys
    (an :class:`AttentionWork`), in blocks of ``block`` queries (BLOCK unless given)."""
    block = block or BLOCK
    blocks = [(start, min(start + block, tq)) for start in range(0, tq, block)]
    computed = sum((stop - start) * (tk - tq + stop if skip_future else tk)
                   for start, stop in blocks)
    allowed = sum(tk - tq + i + 1 for i in range(tq))
    return AttentionWork(computed, allowed, tq * tk)
