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
from concurrent.futures import ThreadPoolExecutor, wait
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
# What fast_causal_attention changes in the blocked form, and why:
#
# * a block of queries costs two products, (q_block * scale) @ k[:n_keys].T and weights @ v, written
#   where they belong (out=): the scores into a buffer each thread allocates once and reuses, the
#   weighted sums straight into the result.  Apart from the result, no array as large as q, k or v
#   is made: megabytes freed at the end of one call cost page faults in the next;
# * only the diagonal tile is masked, by adding a triangle of 0 and -inf: the keys before it are all
#   allowed, and those after it are never computed (with skip_future=False they get -inf too);
# * exp needs no shift where no score can be large.  |q_i . k_j| <= |q_i| |k_j| (Cauchy-Schwarz), so
#   when scale |q_i| times the largest |k_j| it may read is at most SAFE_SCORE, each of its weights
#   lies between e^-64 and e^64, and its sums can neither vanish nor, unless the values are huge,
#   overflow.  Only the other rows are shifted by their max (two more passes over the block).  The
#   choice depends on nothing in a query's future, which therefore changes no bit of its row;
# * the row sums are a product with a vector of ones, and the division by them comes after the
#   product with v: b * dv divisions, not b * n_keys;
# * the blocks, each with as many (batch, head) rows as keep its scores within _TASK_BYTES, wait in
#   one queue, most work first; one thread per core takes the next block whenever it is free, so a
#   core that another program slows down simply does fewer.  NumPy releases the GIL in products and
#   in exp.  During the call OpenBLAS computes on the calling thread only (threadpoolctl): its own
#   threads would compete with ours for the same cores;
# * inputs with fewer than _SMALL_WORK scores in all, such as one cached step, stay on the calling thread.

SAFE_SCORE = 64                  # no |score| above it: exp without a shift (e^64 is about 6e27)
_SMALL_WORK = 1 << 16            # fewer scores in all: computed on the calling thread
_TASK_BYTES = 1 << 20            # scores of one block of one group of rows: about 1 MB
_POOL = None                     # one thread per core, created on first use
_BLAS = None                     # threadpoolctl's handle on the BLAS libraries, created on first use
_LOCK = threading.Lock()


def fast_causal_attention(q, k, v, *, skip_future=True):
    """§5.9. :func:`blocked_causal_attention` on every core (see the notes above): the same arguments and numbers.

    With ``skip_future=False`` every block computes and masks every key, to measure what skipping saves.
    """
    q, k, v, v_largest = validate.attention_inputs(q, k, v)
    skip_future = validate.boolean(skip_future, "skip_future")
    tq, tk, d, dv = q.shape[-2], k.shape[-2], q.shape[-1], v.shape[-1]
    causal_future(tq, tk)                                       # refuses tq > tk
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n = math.prod(lead)                                         # N: all leading axes as one
    scale = q.dtype.type(1.0 / np.sqrt(d))                      # in the dtype of q: float32 stays float32
    q = np.broadcast_to(q, lead + (tq, d)).reshape(n, tq, d)  # (N, Tq, d)
    k = np.broadcast_to(k, lead + (tk, d)).reshape(n, tk, d)  # (N, Tk, d)
    v = np.broadcast_to(v, lead + (tk, dv)).reshape(n, tk, dv)  # (N, Tk, dv)
    out = np.empty((n, tq, dv), dtype=q.dtype)                  # (N, Tq, dv)
    if n * tq == 0:
        return out.reshape(lead + (tq, dv))                     # no query: nothing to compute
    b_most = min(BLOCK, tq)                                     # queries in the largest block
    # future[i, j] = -inf when key first + j comes after query first + i (first: the block's first query)
    future = np.triu(np.full((b_most, b_most if skip_future else tq), -np.inf, dtype=q.dtype), 1)
    shifted = _needs_shift(q, k, v, scale, v_largest)           # (N, Tq) True: shift the row by its max
    ones = np.ones(tk, dtype=q.dtype)                           # (Tk,): row sums as products

    def attend(rows, start, stop, scratch):
        # Queries start..stop-1 of the (batch, head) rows `rows`, their scores in `scratch`.
        first = tk - tq + start                                 # position of query `start`, and of its own key
        n_keys = tk - tq + stop if skip_future else tk          # keys 0 .. n_keys - 1
        b = stop - start
        scores = scratch[:(rows.stop - rows.start) * b * n_keys].reshape(-1, b, n_keys)   # (rows, b, n_keys)
        np.matmul(q[rows, start:stop] * scale, k[rows, :n_keys].swapaxes(1, 2), out=scores)
        scores[..., first:] += future[:b, :n_keys - first]     # the diagonal tile, and any after it
        shift = shifted[rows, start:stop, None]                 # (rows, b, 1)
        if shift.any():
            scores -= np.where(shift, scores.max(axis=-1, keepdims=True), 0)   # the row max -> exactly 0
        np.exp(scores, out=scores)                              # -inf -> exactly 0
        row_sums = (scores @ ones[:n_keys])[..., None]          # (rows, b, 1); BLAS: faster than .sum(axis=-1)
        block = np.matmul(scores, v[rows, :n_keys], out=out[rows, start:stop])      # (rows, b, dv)
        block /= row_sums                                       # divide after the product: b * dv divisions

    group = max(1, _TASK_BYTES // (b_most * tk * q.itemsize))  # rows per task
    _run(attend, _tasks(n, tq, tk, skip_future, group), min(group, n) * b_most * tk, q.dtype,
         threads=n * tq * tk >= _SMALL_WORK)
    return out.reshape(lead + (tq, dv))                         # (..., Tq, dv)


def _needs_shift(q, k, v, scale, v_largest):
    """(N, Tq) True where exp could overflow without a shift: scale |q_i| |k_j| > SAFE_SCORE for a key j
    that query i may read, or the values it reads, weighted by up to e^SAFE_SCORE, could
    add up beyond the dtype's range.  Query i reads keys 0 .. Tk - Tq + i."""
    tq, tk = q.shape[1], k.shape[1]
    reads = np.arange(tk - tq, tk)                                          # (Tq,) last key of each query
    k_norms = np.maximum.accumulate(np.sqrt(np.einsum("ntd,ntd->nt", k, k)), axis=1)   # (N, Tk) up to j
    shift = scale * np.sqrt(np.einsum("ntd,ntd->nt", q, q)) * k_norms[:, reads] > SAFE_SCORE   # (N, Tq)
    limit = np.finfo(q.dtype).max / 4 / np.exp(SAFE_SCORE)                 # for (keys read) * max |v|
    if tk * max(1.0, v_largest) > limit:                                    # rare: huge values; row by row
        v_norms = np.maximum.accumulate(np.sqrt(np.einsum("ntd,ntd->nt", v, v)), axis=1)   # >= max |v_j|
        shift |= (reads + 1) * np.maximum(1.0, v_norms[:, reads]) > limit
    return shift


def _tasks(n, tq, tk, skip_future, group):
    """(rows, start, stop) for every block of queries and group of ``group`` (batch, head) rows, most work first."""
    tasks = [(slice(row, min(row + group, n)), start, min(start + BLOCK, tq))
             for start in range(0, tq, BLOCK) for row in range(0, n, group)]

    def work(task):
        rows, start, stop = task
        return (rows.stop - rows.start) * (stop - start) * (tk - tq + stop if skip_future else tk)
    return sorted(tasks, key=work, reverse=True)


def _workers():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _run(attend, tasks, scratch_size, dtype, threads=True):
    """attend(*task, scratch) for every task, in order: on the calling thread, or with ``threads``
    on one thread per core, each taking the next task from one queue, each with its own scratch."""
    todo = queue.SimpleQueue()
    for task in tasks:
        todo.put(task)

    def work():
        scratch = np.empty(scratch_size, dtype=dtype)
        while True:
            try:
                task = todo.get_nowait()
            except queue.Empty:
                return
            attend(*task, scratch)

    workers = min(_workers(), len(tasks))
    if not threads or workers < 2:
        return work()
    global _POOL, _BLAS
    with _LOCK:                         # one call at a time: the pool's threads take all the cores already,
        if _POOL is None:               # and BLAS's thread count is set back by the call that set it
            _POOL = ThreadPoolExecutor(_workers(), thread_name_prefix="lib-attention")
        if _BLAS is None:
            _BLAS = threadpoolctl.ThreadpoolController().select(user_api="blas")
        with _BLAS.limit(limits=1):                             # BLAS on the calling thread only
            futures = [_POOL.submit(work) for _ in range(workers)]
            wait(futures)                                       # every thread has finished writing ...
    for future in futures:
        future.result()                                         # ... before an error of one is raised


def _forget_pool():
    global _POOL, _LOCK
    _POOL, _LOCK = None, threading.Lock()                       # a forked child has none of the threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)
