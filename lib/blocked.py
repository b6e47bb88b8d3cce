"""Causal attention block by block: the future is never computed (§5.9).

:func:`lib.attention.causal_attention` computes the whole (Tq, Tk) table of
scores and then forbids its upper right.  Here the queries come in blocks of
BLOCK, and each block computes its scores only against the keys its last query
may read: every later key lies in the future of the whole block.  That is
about half of the table (:func:`attention_work`), and the numbers are the
definition's, up to rounding.

The module has two parts.  The first is the form §5.9 teaches, single-threaded
and written to be read.  The second, :func:`fast_causal_attention`, computes the
same numbers on every core; it is what ``make bench`` times against torch.
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from typing import NamedTuple

import numpy as np

from . import validate
from .attention import _exp_minus_row_max, _scores, _softmax_where, causal_future

BLOCK = 64      # queries per block


# --------------------------------------------------------------------------
# §5.9 The blocked form
# --------------------------------------------------------------------------

def blocked_causal_attention(q, k, v, *, skip_future=True):
    """§5.9. :func:`lib.attention.causal_attention`, computed one block of queries at a time.

    Same arguments, checks and dtype rule.  Query block [start, stop) stands at
    positions Tk - Tq + start .. Tk - Tq + stop - 1 (bottom-right alignment),
    so even its last query reads keys 0 .. Tk - Tq + stop - 1 only: the scores
    of every later key are never computed.  ``skip_future=False`` computes
    every key for every block and masks the future, as the definition does.
    """
    q, k, v, _ = validate.attention_inputs(q, k, v)
    skip_future = validate.boolean(skip_future, "skip_future")
    tq, tk = q.shape[-2], k.shape[-2]
    future = causal_future(tq, tk)                                  # (Tq, Tk), True = forbidden
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    out = np.empty(lead + (tq, v.shape[-1]), dtype=q.dtype)         # (..., Tq, dv)
    for start in range(0, tq, BLOCK):
        stop = min(start + BLOCK, tq)
        n_keys = tk - tq + stop if skip_future else tk              # keys 0 .. n_keys - 1
        scores = _scores(q[..., start:stop, :], k[..., :n_keys, :])         # (..., b, n_keys)
        weights = _softmax_where(scores, ~future[start:stop, :n_keys])      # (..., b, n_keys)
        out[..., start:stop, :] = weights @ v[..., :n_keys, :]              # (..., b, dv)
    return out


class AttentionWork(NamedTuple):
    """§5.9. Score entries of one (Tq, Tk) attention table, per head (see :func:`attention_work`)."""

    computed: int   # entries the blocked form computes
    allowed: int    # entries a query may read: the least any method must compute
    total: int      # Tq * Tk, the whole table the definition computes

    @property
    def fraction(self):
        """computed / total."""
        return self.computed / self.total if self.total else 0.0


def attention_work(tq, tk, *, skip_future=True):
    """§5.9. How many scores :func:`blocked_causal_attention` computes for Tq queries and Tk keys.

    Block [start, stop) computes (stop - start) * (Tk - Tq + stop) scores; with
    ``skip_future=False`` every block computes all Tk keys.  Returns an :class:`AttentionWork`.
    """
    tq, tk = validate.integer(tq, "tq", 0), validate.integer(tk, "tk", 0)
    causal_future(tq, tk)                                           # the same checks as the attention
    skip_future = validate.boolean(skip_future, "skip_future")
    computed = sum((stop - start) * (tk - tq + stop if skip_future else tk) for start, stop in _blocks(tq))
    allowed = sum(tk - tq + i + 1 for i in range(tq))
    return AttentionWork(computed, allowed, tq * tk)


def _blocks(tq):
    return [(start, min(start + BLOCK, tq)) for start in range(0, tq, BLOCK)]


# --------------------------------------------------------------------------
# Speed: the same numbers on every core (timed by bench/attention_cache.py)
# --------------------------------------------------------------------------
# What fast_causal_attention adds to the blocked form, and why:
#
# * keys in tiles of at most BLOCK keys, stored tile by tile: for d <= 64 every
#   product is at most 64 * 64 * 64 = 2**18 multiply-adds, small enough that
#   OpenBLAS runs it on the calling thread; so the only threads are ours, one per
#   core, and a block computes whole tiles (the padding after Tk is masked);
# * each row of scores is shifted by the query's score with its own key, which
#   is on the diagonal tile, always allowed, and becomes exp(0) = 1, instead of
#   by the row max, which takes a pass of its own; if some score lies so far
#   above it that the sum could overflow, the block is computed again with the
#   row max;
# * the row sums are a product with a vector of ones, and the division comes
#   after the product with v (b * dv divisions instead of b * Tk);
# * the blocks run in a pool of threads, one per core: each thread takes some
#   of the (batch, head) rows through all their blocks, in groups whose scores
#   stay within about 1 MB of cache; with fewer rows than cores, the blocks of
#   the rows are shared out instead.  NumPy releases the GIL in products and
#   element-wise work;
# * inputs with fewer than 2**16 scores in all, such as one cached step, are
#   computed whole in one product: there, blocks would cost more than they save.

_SMALL_WORK = 1 << 16            # fewer score entries in all: one product for the whole table
_TASK_BYTES = 1 << 20            # scores of one block of one group of rows: about 1 MB
_POOL = None                     # threads for the blocks, one per core, created on first use
_POOL_LOCK = threading.Lock()


def _tile_width(tk):
    """Keys per tile: at most BLOCK, as even as possible, so that the last tile is (nearly) full."""
    tiles = -(-tk // BLOCK)                                     # ceil(tk / BLOCK)
    return -(-tk // tiles) if tiles else 1


def _query_blocks(tq, tk, skip_future):
    """(start, stop, tiles) for every block of queries: the key tiles that block computes."""
    width, blocks = _tile_width(tk), []
    for start in range(0, tq, BLOCK):
        stop = min(start + BLOCK, tq)
        n_keys = tk - tq + stop if skip_future else tk          # keys 0 .. n_keys - 1
        blocks.append((start, stop, -(-n_keys // width)))       # ceil(n_keys / width) tiles
    return blocks


def _tiles(x, width):
    """(N, T, w) -> (N, tiles, width, w): positions in tiles of ``width``, zero-padded after T."""
    n, t, w = x.shape
    tiles = -(-t // width)
    if t < tiles * width:
        padded = np.zeros((n, tiles * width, w), dtype=x.dtype)
        padded[:, :t] = x
        x = padded
    return x.reshape(n, tiles, width, w)


def _attend_whole(q, k, v):
    """Small inputs: the whole (Tq, Tk) table in one product, as in the definition; q is scaled already."""
    scores = q @ np.swapaxes(k, -1, -2)                         # (N, Tq, Tk)
    np.copyto(scores, -np.inf, where=causal_future(q.shape[-2], k.shape[-2]))
    row_sums = _exp_minus_row_max(scores)                       # (N, Tq, 1)
    out = scores @ v                                            # (N, Tq, dv)
    out /= row_sums
    return out


def fast_causal_attention(q, k, v, *, skip_future=True):
    """§5.9. :func:`blocked_causal_attention` on every core (see the notes above): the same arguments and numbers.

    With ``skip_future=False`` every block computes and masks every tile, to measure what skipping saves.
    """
    q, k, v, v_largest = validate.attention_inputs(q, k, v)
    skip_future = validate.boolean(skip_future, "skip_future")
    tq, tk, d, dv = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    causal_future(tq, tk)                                       # refuses tq > tk
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n, width = int(np.prod(lead)), _tile_width(tk)              # N: all leading axes as one
    scale = q.dtype.type(1.0 / np.sqrt(d))                      # in the dtype of q: float32 stays float32
    q = np.broadcast_to(q, lead + (tq, d)).reshape(n, tq, d)    # (N, Tq, d), scaled block by block below
    k = np.broadcast_to(k, lead + (tk, d)).reshape(n, tk, d)    # (N, Tk, d)
    v = np.broadcast_to(v, lead + (tk, dv)).reshape(n, tk, dv)  # (N, Tk, dv)
    if n * tq * tk < _SMALL_WORK:                               # e.g. one cached step: blocks would cost more
        return _attend_whole(q * scale, k, v).reshape(lead + (tq, dv))
    k_tiles = np.swapaxes(_tiles(k, width), -1, -2)             # (N, tiles, d, width), each tile one piece of memory
    v_tiles = _tiles(v, width)                                  # (N, tiles, width, dv)
    out = np.empty((n, tq, dv), dtype=q.dtype)                  # (N, Tq, dv)
    future = causal_future(BLOCK, BLOCK)                        # of the diagonal tile: key j after query i
    ones = np.ones(k_tiles.shape[1] * width, dtype=q.dtype)     # (keys,): row sums as products
    # A row sum up to this bound times the largest |v| cannot overflow the weighted sum of the values.
    largest_sum = float(np.finfo(q.dtype).max) / 4 / max(1.0, v_largest)

    def masked_scores(q_block, rows, first, tiles):
        # Scores (rows, b, keys) of the b queries q_block at positions first.. against key tiles 0..tiles-1.
        n_rows, b = q_block.shape[:2]
        scores = np.empty((n_rows, b, tiles * width), dtype=q.dtype)        # (rows, b, keys)
        by_tile = scores.reshape(n_rows, b, tiles, width).swapaxes(1, 2)    # (rows, tiles, b, width), same memory
        np.matmul(q_block[:, None], k_tiles[rows, :tiles], out=by_tile)     # one small product per tile
        np.copyto(scores[..., first:first + b], -np.inf, where=future[:b, :b])        # the diagonal tile
        scores[..., first + b:] = -np.inf                       # after it: padding, or future tiles if computed
        return scores, by_tile

    def attend(rows, start, stop, tiles):
        # Queries start..stop-1 of the rows `rows` (batch and heads) against key tiles 0..tiles-1.
        first = tk - tq + start                                 # position of query `start`, and of its own key
        q_block = q[rows, start:stop] * scale                   # (rows, b, d)
        scores, by_tile = masked_scores(q_block, rows, first, tiles)
        diagonal = scores[..., first:first + stop - start]      # (rows, b, b): the diagonal tile
        own = np.diagonal(diagonal, axis1=1, axis2=2).copy()    # (rows, b): query i's score with its own key
        scores -= own[..., None]                                # shift row i by it: the own key -> exactly 0
        with np.errstate(over="ignore"):                        # an overflow is handled just below
            np.exp(scores, out=scores)                          # -inf -> exactly 0; own key -> exactly 1
        row_sums = (scores @ ones[:scores.shape[-1]])[..., None]   # (rows, b, 1), each at least 1 (BLAS: faster
                                                                # than scores.sum(axis=-1, keepdims=True))
        if not row_sums.max() <= largest_sum:                   # a score far above its own: shift by the max
            scores, by_tile = masked_scores(q_block, rows, first, tiles)
            row_sums = _exp_minus_row_max(scores)               # (rows, b, 1); -inf -> exactly 0
        parts = by_tile @ v_tiles[rows, :tiles]                 # (rows, tiles, b, dv): each tile's share of the sum
        block = np.sum(parts, axis=1, out=out[rows, start:stop])   # (rows, b, dv)
        block /= row_sums                                       # divide after the product: b·dv divisions

    _run(attend, _tasks(n, tk * q.itemsize, _query_blocks(tq, tk, skip_future)))
    return out.reshape(lead + (tq, dv))                         # (..., Tq, dv)


def _tasks(n, row_bytes, blocks):
    """(groups of rows, blocks) for each thread: its share of the N rows, with every block; or, with
    fewer rows than threads, every row with its share of the blocks (largest first, to the
    least loaded thread)."""
    workers = _workers()
    if n >= workers:
        # Rows split evenly between the threads, and each thread's rows in groups small enough
        # that the scores of one block, (rows, BLOCK, Tk), stay within about 1 MB of cache.
        per_group = max(1, _TASK_BYTES // (BLOCK * row_bytes))
        bounds = [w * n // workers for w in range(workers + 1)]
        return [([slice(a, min(a + per_group, hi)) for a in range(lo, hi, per_group)], blocks)
                for lo, hi in zip(bounds, bounds[1:])]
    shares, loads = [[] for _ in range(workers)], [0] * workers
    for block in sorted(blocks, key=lambda b: -(b[1] - b[0]) * b[2]):   # queries * tiles: its work
        w = loads.index(min(loads))
        shares[w].append(block)
        loads[w] += (block[1] - block[0]) * block[2]
    return [([slice(0, n)], share) for share in shares if share]


def _workers():
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                                      # not Linux
        return max(1, os.cpu_count() or 1)


def _run(attend, tasks):
    """attend(rows, *block) for every group of rows and block of every task; one thread per task.

    (One call per block, so that a block's scores are freed before the next block allocates its own,
    which then reuse the same memory, already in cache.)"""
    def task(groups, blocks):
        for rows in groups:
            for block in blocks:
                attend(rows, *block)

    global _POOL
    if len(tasks) < 2:
        for t in tasks:
            task(*t)
        return
    with _POOL_LOCK:
        if _POOL is None:
            _POOL = ThreadPoolExecutor(_workers(), thread_name_prefix="lib-attention")
        pool = _POOL
    futures = [pool.submit(task, *t) for t in tasks]
    wait(futures)                                               # every thread has finished writing ...
    for future in futures:
        future.result()                                         # ... before an error of one is raised


def _forget_pool():
    global _POOL
    _POOL = None                                                # a forked child has none of the threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)


