"""§5.9. The blocked form of lib.blocked on every core: what ``make bench`` times against torch.

Optional reading, and not part of lib: a learner who imports lib gets NumPy code
only, not these threads or threadpoolctl (bench/'s scripts and the tests import
it by name, ``from fast_attention import fast_causal_attention``).
It computes the numbers of :func:`lib.blocked.blocked_causal_attention`, with
these changes, each a saving:

* a block's scores are stored transposed, a row per key, k[:n_keys] @ (scale
  q_block).T, so that both products read k[:n_keys] and v[:n_keys] as they lie
  in memory, which OpenBLAS does fastest;
* products are written where they belong (out=): the scores into a buffer each
  thread keeps from call to call, the weighted sums into the result.  No other
  array as large as q, k or v is made;
* only the diagonal tile is masked, by adding a triangle of 0 and -inf (with
  skip_future=False, the keys after it too); the division by the sums over keys
  comes after the product with v;
* exp needs no shift where no score can be large.  |q_i . k_j| <= |q_i| |k_j|
  (Cauchy-Schwarz), so when scale |q_i| times the longest k_j it may read is at
  most SAFE_SCORE, its weights lie between e^-64 and e^64, and its sums can
  neither vanish nor, unless the values are huge, overflow.  Only the other
  queries are shifted by their max: a choice made without its future, which
  changes no bit of a row.  The rows' lengths also bound max |q|, max |k| and
  max |v| for the overflow check of lib.validate, which then seeks the maxima
  only if those bounds fail;
* from LONG_KEYS keys on, blocks hold 2 * BLOCK queries: longer products run faster;
* the blocks, each with as many (batch, head) rows as keep its scores within
  _TASK_BYTES, wait in one queue, most work first, for the calling thread and
  one more thread per further core.  NumPy releases the GIL in products and in
  exp; OpenBLAS meanwhile computes on the calling thread only (threadpoolctl);
* inputs with fewer than _SMALL_WORK scores in all, such as one cached step,
  stay on the calling thread.
"""

import math
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import threadpoolctl

from lib import blocked, validate

SAFE_SCORE = 64                 # no |score| above it: exp without a shift (e^64 is about 6e27)
_SMALL_WORK = 1 << 16           # fewer scores in all: computed on the calling thread
LONG_KEYS = 512                 # at least this many keys: blocks of 2 * BLOCK queries
_TASK_BYTES = 1 << 21           # scores of one block of one group of rows: about 2 MB
_POOL = None                    # one thread per further core, created on first use
_BLAS = None                    # threadpoolctl's handle on the BLAS libraries, made with the pool
_LOCK = threading.Lock()
_SCRATCH = threading.local()    # each thread's buffer for scores, kept between calls if at most
_KEEP_BYTES = 1 << 23           # _KEEP_BYTES (a fresh one may cost page faults)


def fast_causal_attention(q, k, v, *, skip_future=True):
    """§5.9. :func:`lib.blocked.blocked_causal_attention` on every core: the same arguments,
    checks and numbers.  ``skip_future=False`` computes and masks every key, to measure what
    skipping saves."""
    q, k, v = validate.attention_shapes(q, k, v)
    lengths = row_lengths(q, k, v)                              # (..., Tq), (..., Tk), (..., Tk)
    validate.magnitudes(q, k, v, bounds=[float(rows.max(initial=0.0)) for rows in lengths])
    (tq, tk), skip_future = validate.causal_lengths(q.shape[-2], k.shape[-2]), \
        validate.boolean(skip_future, "skip_future")
    d, dv = q.shape[-1], v.shape[-1]
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    n = math.prod(lead)                                         # N: all leading axes as one
    scale = q.dtype.type(1.0 / np.sqrt(d))                      # in the dtype of q
    q, k, v = (np.broadcast_to(a, lead + a.shape[-2:]).reshape(n, *a.shape[-2:]) for a in (q, k, v))
    out = np.empty((n, tq, dv), dtype=q.dtype)                  # (N, Tq, dv)
    if n * tq == 0:
        return out.reshape(lead + (tq, dv))                     # no query: nothing to compute
    block = blocked.BLOCK if tk < LONG_KEYS else 2 * blocked.BLOCK      # queries per block
    b_most = min(block, tq)                                     # queries in the largest block
    # future[j, i] = -inf when key first + j comes after query first + i (first: the block's)
    future = np.tril(np.full((b_most if skip_future else tq, b_most), -np.inf, dtype=q.dtype), -1)
    shifted = _needs_shift(lengths, scale, lead, tq, tk, q.dtype)       # (N, Tq) True: shifted
    ones = np.ones(tk, dtype=q.dtype)                           # (Tk,): sums over keys as products

    def attend(rows, start, stop, scratch):
        # Queries start..stop-1 of the (batch, head) rows `rows`, their scores in `scratch`.
        first = tk - tq + start                                 # query `start`'s position
        n_keys = tk - tq + stop if skip_future else tk          # keys 0 .. n_keys - 1
        r, b = rows.stop - rows.start, stop - start
        q_t = scratch[:r * d * b].reshape(r, d, b)              # (rows, d, b): scale q_block^T
        np.multiply(q[rows, start:stop].swapaxes(1, 2), scale, out=q_t)
        scores = scratch[r * d * b:r * (d + n_keys) * b].reshape(r, n_keys, b)   # (rows, n_keys, b)
        np.matmul(k[rows, :n_keys], q_t, out=scores)
        scores[:, first:] += future[:n_keys - first, :b]       # the diagonal tile, and any after it
        shift = shifted[rows, None, start:stop]                 # (rows, 1, b)
        if shift.any():
            scores -= np.where(shift, scores.max(axis=1, keepdims=True), 0)     # each max -> 0
        np.exp(scores, out=scores)                              # -inf -> exactly 0
        sums = np.matmul(ones[:n_keys], scores)[..., None]      # (rows, b, 1), faster than .sum
        weighted = np.matmul(scores.swapaxes(1, 2), v[rows, :n_keys], out=out[rows, start:stop])
        weighted /= sums                                        # after the product: b dv divisions

    group = max(1, _TASK_BYTES // (b_most * tk * q.itemsize))  # rows per task
    _run(attend, _tasks(n, tq, tk, block, skip_future, group), min(group, n) * b_most * (d + tk),
         q.dtype, threads=n * tq * tk >= _SMALL_WORK)
    return out.reshape(lead + (tq, dv))                         # (..., Tq, dv)


def row_lengths(q, k, v):
    """The lengths of the rows of q, k and v, (..., Tq), (..., Tk), (..., Tk): sqrt(sum of squares +
    width * tiny), up to rounding never below the true length, even where tiny squares underflow."""
    return tuple(np.sqrt(np.einsum("...i,...i->...", a, a) + a.shape[-1] * np.finfo(a.dtype).tiny)
                 for a in (q, k, v))


def _needs_shift(lengths, scale, lead, tq, tk, dtype):
    """(N, Tq) True where exp could overflow unshifted: scale |q_i| |k_j| > SAFE_SCORE for a key
    j <= Tk - Tq + i, or anywhere if values weighted by e^SAFE_SCORE could add up past the dtype."""
    q_len, k_len = (np.broadcast_to(rows, lead + rows.shape[-1:]).reshape(-1, rows.shape[-1])
                    for rows in lengths[:2])
    v_longest = max(1.0, float(lengths[2].max(initial=0.0)))
    if tk * v_longest > np.finfo(dtype).max / 4 / np.exp(SAFE_SCORE):
        return np.ones(q_len.shape, dtype=bool)                 # rare: huge values, shift all
    k_longest = np.maximum.accumulate(k_len, axis=1)[:, tk - tq:]       # (N, Tq) longest readable
    return scale * q_len * k_longest > SAFE_SCORE


def _tasks(n, tq, tk, block, skip_future, group):
    """(rows, start, stop) for every block of queries and group of ``group`` (batch, head) rows,
    most work first."""
    tasks = [(slice(row, min(row + group, n)), start, min(start + block, tq))
             for start in range(0, tq, block) for row in range(0, n, group)]

    def work(task):
        rows, start, stop = task
        return (rows.stop - rows.start) * (stop - start) * (tk - tq + stop if skip_future else tk)
    return sorted(tasks, key=work, reverse=True)


def _workers():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _scratch(size, dtype):
    """``size`` elements of ``dtype`` or more: this thread's buffer, kept for its next call unless
    over _KEEP_BYTES."""
    kept = getattr(_SCRATCH, "buffer", np.empty(0))
    if kept.dtype != dtype or kept.size < size:
        kept = np.empty(size, dtype=dtype)
        if kept.nbytes <= _KEEP_BYTES:
            _SCRATCH.buffer = kept
    return kept


def _run(attend, tasks, scratch_size, dtype, threads=True):
    """attend(*task, scratch) for every task, in order: on the calling thread, or with ``threads``
    on the calling thread and one more thread per further core, each taking the next task from one
    queue.  After an error in any of them, the others stop after their current task."""
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
    with _LOCK:                         # one call at a time: the threads take all the cores, and
        if _POOL is None:               # BLAS's thread count is set back by the call that set it
            _POOL = ThreadPoolExecutor(_workers() - 1, thread_name_prefix="lib-attention")
            _BLAS = threadpoolctl.ThreadpoolController().select(user_api="blas")
        with _BLAS.limit(limits=1):                             # BLAS on the calling thread only
            futures = [_POOL.submit(work) for _ in range(workers - 1)]
            try:
                work()                                          # the calling thread takes tasks too
            finally:
                for future in futures:
                    future.result()                             # waits; raises a thread's error


def _forget_pool():
    global _POOL, _LOCK
    _POOL, _LOCK = None, threading.Lock()                       # a forked child has no threads


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool)
