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

import math
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np
import threadpoolctl

from . import validate
from .attention import _scores, _softmax_where, causal_future

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


def attention_work(tq, tk, *, skip_future=True, block=None):
    """§5.9. How many scores :func:`blocked_causal_attention` computes for Tq queries and Tk keys.

    Block [start, stop) computes (stop - start) * (Tk - Tq + stop) scores; with
    ``skip_future=False`` every block computes all Tk keys.  ``block``: queries
    per block, BLOCK unless given.  Returns an :class:`AttentionWork`.
    """
    tq, tk = validate.causal_lengths(tq, tk)                        # the same checks as the attention
    skip_future = validate.boolean(skip_future, "skip_future")
    block = BLOCK if block is None else validate.integer(block, "block")
    blocks = [(start, min(start + block, tq)) for start in range(0, tq, block)]
    computed = sum((stop - start) * (tk - tq + stop if skip_future else tk) for start, stop in blocks)
    allowed = sum(tk - tq + i + 1 for i in range(tq))
    return AttentionWork(computed, allowed, tq * tk)


# --------------------------------------------------------------------------
# Speed: the same numbers on every core (timed by bench/attention_cache.py)
# --------------------------------------------------------------------------
# What fast_causal_attention changes in the blocked form, and why:
#
# * a block's scores are stored transposed, a row per key, k[:n_keys] @ (scale q_block).T, so that both
#   products read k[:n_keys] and v[:n_keys] as they lie in memory, which OpenBLAS does fastest;
# * products are written where they belong (out=): the scores into a buffer each thread keeps from call
#   to call, the weighted sums into the result.  No other array as large as q, k or v is made;
# * only the diagonal tile is masked, by adding a triangle of 0 and -inf (with skip_future=False, the
#   keys after it too); the division by the sums over keys comes after the product with v;
# * exp needs no shift where no score can be large.  |q_i . k_j| <= |q_i| |k_j| (Cauchy-Schwarz), so
#   when scale |q_i| times the longest k_j it may read is at most SAFE_SCORE, its weights lie between
#   e^-64 and e^64, and its sums can neither vanish nor, unless the values are huge, overflow.  Only the
#   other queries are shifted by their max: a choice made without its future, which changes no bit of a row;
# * from LONG_KEYS keys on, blocks hold 2 * BLOCK queries: longer products run faster;
# * the blocks, each with as many (batch, head) rows as keep its scores within _TASK_BYTES, wait in one
#   queue, most work first, for the calling thread and one more thread per further core.  NumPy releases
#   the GIL in products and in exp; OpenBLAS meanwhile computes on the calling thread only (threadpoolctl);
# * inputs with fewer than _SMALL_WORK scores in all, such as one cached step, stay on the calling thread.

SAFE_SCORE = 64                  # no |score| above it: exp without a shift (e^64 is about 6e27)
_SMALL_WORK = 1 << 16            # fewer scores in all: computed on the calling thread
LONG_KEYS = 512                 # at least this many keys: blocks of 2 * BLOCK queries
_TASK_BYTES = 1 << 21            # scores of one block of one group of rows: about 2 MB
_POOL = None                     # one thread per further core, created on first use
_BLAS = None                     # threadpoolctl's handle on the BLAS libraries, created with the pool
_LOCK = threading.Lock()
_SCRATCH = threading.local()     # each thread's buffer for scores, kept between calls if at most _KEEP_BYTES:
_KEEP_BYTES = 1 << 23            # a fresh one each call may cost page faults, depending on malloc's history


def fast_causal_attention(q, k, v, *, skip_future=True):
    """§5.9. :func:`blocked_causal_attention` on every core (see the notes above): the same arguments and numbers.
    With ``skip_future=False`` every block computes and masks every key, to measure what skipping saves."""
    q, k, v, lengths = validate.attention_inputs(q, k, v, row_lengths=True)
    skip_future = validate.boolean(skip_future, "skip_future")
    (tq, tk), d, dv = validate.causal_lengths(q.shape[-2], k.shape[-2]), q.shape[-1], v.shape[-1]   # tq > tk: refused
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n = math.prod(lead)                                         # N: all leading axes as one
    scale = q.dtype.type(1.0 / np.sqrt(d))                      # in the dtype of q: float32 stays float32
    q, k, v = (np.broadcast_to(a, lead + a.shape[-2:]).reshape(n, *a.shape[-2:]) for a in (q, k, v))  # (N, T, width)
    out = np.empty((n, tq, dv), dtype=q.dtype)                  # (N, Tq, dv)
    if n * tq == 0:
        return out.reshape(lead + (tq, dv))                     # no query: nothing to compute
    block = BLOCK if tk < LONG_KEYS else 2 * BLOCK              # queries per block
    b_most = min(block, tq)                                     # queries in the largest block
    # future[j, i] = -inf when key first + j comes after query first + i (first: the block's first query)
    future = np.tril(np.full((b_most if skip_future else tq, b_most), -np.inf, dtype=q.dtype), -1)
    shifted = _needs_shift(lengths, scale, lead, tq, tk, q.dtype)   # (N, Tq) True: shift the query by its max
    ones = np.ones(tk, dtype=q.dtype)                           # (Tk,): sums over keys as products

    def attend(rows, start, stop, scratch):
        # Queries start..stop-1 of the (batch, head) rows `rows`, their scores in `scratch`.
        first = tk - tq + start                                 # position of query `start`, and of its own key
        n_keys = tk - tq + stop if skip_future else tk          # keys 0 .. n_keys - 1
        r, b = rows.stop - rows.start, stop - start
        q_t = scratch[:r * d * b].reshape(r, d, b)              # (rows, d, b): scale q_block, transposed
        np.multiply(q[rows, start:stop].swapaxes(1, 2), scale, out=q_t)
        scores = scratch[r * d * b:r * (d + n_keys) * b].reshape(r, n_keys, b)   # (rows, n_keys, b)
        np.matmul(k[rows, :n_keys], q_t, out=scores)
        scores[:, first:] += future[:n_keys - first, :b]       # the diagonal tile, and any after it
        shift = shifted[rows, None, start:stop]                 # (rows, 1, b)
        if shift.any():
            scores -= np.where(shift, scores.max(axis=1, keepdims=True), 0)   # each query's max -> exactly 0
        np.exp(scores, out=scores)                              # -inf -> exactly 0
        sums = np.matmul(ones[:n_keys], scores)[..., None]      # (rows, b, 1); BLAS: faster than .sum(axis=1)
        weighted = np.matmul(scores.swapaxes(1, 2), v[rows, :n_keys], out=out[rows, start:stop])   # (rows, b, dv)
        weighted /= sums                                        # divide after the product: b * dv divisions

    group = max(1, _TASK_BYTES // (b_most * tk * q.itemsize))  # rows per task
    _run(attend, _tasks(n, tq, tk, block, skip_future, group), min(group, n) * b_most * (d + tk), q.dtype,
         threads=n * tq * tk >= _SMALL_WORK)
    return out.reshape(lead + (tq, dv))                         # (..., Tq, dv)


def _needs_shift(lengths, scale, lead, tq, tk, dtype):
    """(N, Tq) True where exp could overflow unshifted: scale |q_i| |k_j| > SAFE_SCORE for a key j <= Tk - Tq + i, or
    anywhere if values weighted by e^SAFE_SCORE could add up beyond the dtype (lengths: validate.attention_inputs)."""
    q_len, k_len = (np.broadcast_to(rows, lead + rows.shape[-1:]).reshape(-1, rows.shape[-1]) for rows in lengths[:2])
    if tk * max(1.0, float(lengths[2].max(initial=0.0))) > np.finfo(dtype).max / 4 / np.exp(SAFE_SCORE):
        return np.ones(q_len.shape, dtype=bool)                             # rare: huge values, shift every query
    k_longest = np.maximum.accumulate(k_len, axis=1)[:, tk - tq:]           # (N, Tq) longest key query i may read
    return scale * q_len * k_longest > SAFE_SCORE


def _tasks(n, tq, tk, block, skip_future, group):
    """(rows, start, stop) for every block of queries and group of ``group`` (batch, head) rows, most work first."""
    tasks = [(slice(row, min(row + group, n)), start, min(start + block, tq))
             for start in range(0, tq, block) for row in range(0, n, group)]

    def work(task):
        rows, start, stop = task
        return (rows.stop - rows.start) * (stop - start) * (tk - tq + stop if skip_future else tk)
    return sorted(tasks, key=work, reverse=True)


def _workers():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _scratch(size, dtype):
    """``size`` elements of ``dtype`` or more: this thread's buffer, kept for its next call unless over _KEEP_BYTES."""
    kept = getattr(_SCRATCH, "buffer", np.empty(0))
    if kept.dtype != dtype or kept.size < size:
        kept = np.empty(size, dtype=dtype)
        if kept.nbytes <= _KEEP_BYTES:
            _SCRATCH.buffer = kept
    return kept


def _run(attend, tasks, scratch_size, dtype, threads=True):
    """attend(*task, scratch) for every task, in order: on the calling thread, or with ``threads`` on
    the calling thread and one more thread per further core, each taking the next task from one queue.
    After an error in any of them, the others stop after their current task."""
    todo, failed = queue.SimpleQueue(), threading.Event()
    for task in tasks:
        todo.put(task)

    def work():
        scratch = _scratch(scratch_size, dtype)
        while not failed.is_set():
            try:
                task = todo.get_nowait()
            except queue.Empty:
                return
            try:
                attend(*task, scratch)
            except BaseException:
                failed.set()
                raise

    workers = min(_workers(), len(tasks))
    if not threads or workers < 2:
        return work()
    global _POOL, _BLAS
    with _LOCK:                         # one call at a time: the threads take all the cores already,
        if _POOL is None:               # and BLAS's thread count is set back by the call that set it
            _POOL = ThreadPoolExecutor(_workers() - 1, thread_name_prefix="lib-attention")
            _BLAS = threadpoolctl.ThreadpoolController().select(user_api="blas")
        with _BLAS.limit(limits=1):                             # BLAS on the calling thread only
            futures = [_POOL.submit(work) for _ in range(workers - 1)]
            try:
                work()                                          # the calling thread takes tasks too
            finally:
                for future in futures:
                    future.result()                             # waits for it; raises the error of a thread


def _forget_pool():
    global _POOL, _LOCK
    _POOL, _LOCK = None, threading.Lock()                       # a forked child has none of the threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)
