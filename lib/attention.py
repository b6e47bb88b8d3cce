"""Masked softmax, causal attention and multi-head attention (§1, §2, §5).

Two boolean masks appear, always under these names:

* ``allowed[i, j]`` is True when query i may read key j (argument of
  :func:`masked_softmax`);
* ``future[i, j]`` is True when key j lies in query i's future, i.e. reading
  it is forbidden (built by :func:`causal_future`).

They are complements (``allowed == ~future``) and are never passed for each other.

Causal attention is written twice.  :func:`causal_attention_reference` is the
definition, one line without loops: softmax restricted to the allowed keys,
then a weighted sum of the values.  :func:`causal_attention` computes the same
numbers block by block and never computes a score that lies entirely in the
future, which saves almost half of the work (:func:`causal_attention_work`).
"""

import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from typing import NamedTuple

import numpy as np

# causal_attention works on blocks of BLOCK queries against tiles of at most
# BLOCK keys (§5).  For d <= 64 every matrix product is then at most
# 64 * 64 * 64 = 2**18 multiply-adds: small enough that OpenBLAS runs it on the
# calling thread, so the only threads are the ones of causal_attention, one per
# core.  (A larger product starts BLAS threads of its own, which then compete
# with ours for the cores, and wait for each other badly when the machine is busy.)
BLOCK = 64


# --------------------------------------------------------------------------
# Checking arguments (shared by the whole package)
# --------------------------------------------------------------------------

def _int_argument(value, name, minimum=1):
    """``value`` as a Python int; TypeError if it is not an int, ValueError if below ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def _bool_argument(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def _float_arrays(**arrays):
    """The package's dtype rule: the arrays in their common floating-point dtype.

    Float arrays keep their precision; integer and boolean arrays, Python
    numbers and lists count as float64; the common dtype is NumPy's promotion
    (float32 with float64 gives float64).  Returns a list in argument order.
    """
    converted = []
    for name, value in arrays.items():
        try:
            a = np.asarray(value)
        except ValueError as err:
            raise ValueError(f"{name} is not a rectangular array of numbers ({err})") from None
        if np.issubdtype(a.dtype, np.integer) or a.dtype == bool:
            a = a.astype(np.float64)
        elif not np.issubdtype(a.dtype, np.floating):
            raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
        converted.append(a)
    dtype = np.result_type(*converted)
    return [a.astype(dtype, copy=False) for a in converted]


def _largest_magnitude(a, name):
    """max |a| as a Python float (0.0 if empty); a NaN or an infinity is refused, naming its index."""
    if a.size == 0:
        return 0.0
    largest = max(float(a.max()), -float(a.min()))              # two fast passes, no temporary array
    if not np.isfinite(largest):                                # max and min propagate nan and inf
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(a))[0])
        raise ValueError(
            f"{name} holds {a[index]} at index {index}: q, k and v must be finite.  Even a value at a "
            "future position would reach earlier outputs, whose weight on it is 0, because 0 * nan = nan "
            "(in any implementation that multiplies the weights by the values)"
        )
    return largest


def _head_width(width, n_heads):
    """d = D / H, after checking ``n_heads`` where it enters."""
    n_heads = _int_argument(n_heads, "n_heads")
    if width % n_heads:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}; D must be a multiple of H")
    return width // n_heads


# --------------------------------------------------------------------------
# §1 The allowed set and the masked softmax
# --------------------------------------------------------------------------

def masked_softmax(scores, allowed):
    """§1. Softmax over the last axis, restricted to the entries where ``allowed``.

    scores: (..., Tk) floats; allowed: bool, broadcastable to scores.
    Forbidden entries come out exactly 0 whatever their score (NaN included:
    they are never read), and every row sums to 1 over its allowed entries.
    Refused with a ValueError naming the row: a row with no allowed entry, and
    a NaN or infinite score at an allowed entry (it has no meaningful weight).
    Returns the dtype of ``scores`` (integers count as float64).
    """
    (scores,) = _float_arrays(scores=scores)
    allowed = np.asarray(allowed)
    if allowed.dtype != bool:
        raise TypeError(
            f"allowed must be a boolean array (True = may read), got dtype {allowed.dtype}; "
            "an additive mask of 0/-inf is a different convention"
        )
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise ValueError(f"scores of shape {scores.shape} have no keys: the last axis must have length >= 1")
    try:
        shape = np.broadcast_shapes(scores.shape, allowed.shape)
    except ValueError:
        raise ValueError(
            f"allowed of shape {allowed.shape} does not broadcast to scores of shape {scores.shape}"
        ) from None
    if shape != scores.shape:
        raise ValueError(f"allowed of shape {allowed.shape} would enlarge scores of shape {scores.shape}")
    # A row is empty in the broadcast result exactly when it is empty in `allowed` itself.
    empty = ~np.atleast_1d(allowed).any(axis=-1)
    if empty.any():
        row = tuple(int(i) for i in np.argwhere(empty)[0])
        raise ValueError(
            f"row {row} of allowed has no True entry: this query may read no key, so its softmax "
            "has no denominator; every query must be allowed at least one key (with a causal mask, itself)"
        )
    bad = allowed & ~np.isfinite(scores)                        # (..., Tk) non-finite AND read
    if bad.any():
        *row, key = (int(i) for i in np.argwhere(bad)[0])
        raise ValueError(
            f"row {tuple(row)} of scores has {scores[(*row, key)]} at allowed key {key}: every score a "
            "query may read must be finite (a NaN or an infinity has no meaningful weight)"
        )
    weights = np.array(scores)                                  # (..., Tk), a buffer we own
    np.copyto(weights, -np.inf, where=~allowed)                 # forbidden -> -inf
    row_sums = _exp_minus_row_max(weights)                      # (..., 1); forbidden -> exactly 0
    weights /= row_sums
    return weights


def _exp_minus_row_max(scores):
    """In place: scores -> exp(scores - max of its row).  Returns the row sums (..., 1).

    The largest entry of a row becomes exp(0) = 1, so nothing overflows; an
    entry set to -inf beforehand (forbidden) becomes exactly 0.
    """
    scores -= scores.max(axis=-1, keepdims=True)
    np.exp(scores, out=scores)
    return scores.sum(axis=-1, keepdims=True)


def causal_future(tq, tk):
    """§1, §5. The forbidden set: future[i, j] = key j lies after query i.

    Query i stands at absolute position tk - tq + i (bottom-right alignment, so
    that tq new queries after a cache of tk - tq positions line up correctly).
    Returns a (tq, tk) boolean array, True = forbidden.
    """
    tq, tk = _int_argument(tq, "tq", 0), _int_argument(tk, "tk", 0)
    if tq > tk:
        raise ValueError(
            f"{tq} queries but only {tk} keys: every query must be able to read at least its own key, "
            "so the number of queries may not exceed the number of keys"
        )
    query_position = np.arange(tk - tq, tk)[:, None]            # (tq, 1)
    key_position = np.arange(tk)[None, :]                       # (1, tk)
    return key_position > query_position                        # (tq, tk)


# --------------------------------------------------------------------------
# §1, §2, §5 Scaled dot-product attention
# --------------------------------------------------------------------------

def _attention_inputs(q, k, v):
    """q, k, v in their common float dtype and max |v|, after checking shapes and values (see causal_attention)."""
    q, k, v = _float_arrays(q=q, k=k, v=v)
    for name, a, axes in (("q", q, "Tq, d"), ("k", k, "Tk, d"), ("v", v, "Tk, dv")):
        if a.ndim < 2:
            raise ValueError(f"{name} must have shape (..., {axes}) with at least 2 axes, got shape {a.shape}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q has width {q.shape[-1]} but k has width {k.shape[-1]}; they must match")
    if q.shape[-1] == 0:
        raise ValueError("q and k have width d = 0: a score needs at least one coordinate")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k has {k.shape[-2]} positions but v has {v.shape[-2]}; they must match")
    if k.shape[-2] == 0:
        raise ValueError("k and v have 0 positions: there is no key to read (every query needs at least one)")
    try:
        np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the leading (batch, head) axes of q {q.shape}, k {k.shape} and v {v.shape} do not broadcast"
        ) from None
    largest = {name: _largest_magnitude(a, name) for name, a in (("q", q), ("k", k), ("v", v))}
    # No score |q·k| / sqrt(d) <= max|q| max|k| sqrt(d), and no unnormalised sum of values <= Tk max|v|,
    # may overflow; beyond that the inputs are refused rather than answered with inf or nan.
    limit = float(np.finfo(q.dtype).max) / 4
    if largest["q"] * largest["k"] * np.sqrt(q.shape[-1]) > limit or largest["v"] * k.shape[-2] > limit:
        raise ValueError(
            f"q, k, v are too large for {q.dtype} (max |q| = {largest['q']:.3g}, max |k| = {largest['k']:.3g}, "
            f"max |v| = {largest['v']:.3g}): scores or sums could overflow; scale them down or use float64"
        )
    return q, k, v, largest["v"]


def attention_scores(q, k):
    """§1, §2. Scaled dot products q·k / sqrt(d): (..., Tq, d), (..., Tk, d) -> (..., Tq, Tk).

    q is scaled before the product (Tq·d multiplications instead of Tq·Tk).
    Returns the common float dtype of q and k (see lib/__init__).
    """
    q, k = _float_arrays(q=q, k=k)
    if q.ndim < 2 or k.ndim < 2 or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q {q.shape} and k {k.shape} must have shapes (..., Tq, d) and (..., Tk, d)")
    scale = q.dtype.type(1.0 / np.sqrt(q.shape[-1]))           # in the dtype of q: float32 stays float32
    return (q * scale) @ np.swapaxes(k, -1, -2)                 # (..., Tq, Tk)


def causal_attention_reference(q, k, v):
    """§1. The definition of causal attention, without loops: (..., Tq, dv).

    softmax over the keys each query may read, then the weighted sum of the
    values.  Same arguments, checks and dtype rule as :func:`causal_attention`,
    which computes the same numbers faster.
    """
    q, k, v, _ = _attention_inputs(q, k, v)
    allowed = ~causal_future(q.shape[-2], k.shape[-2])          # (Tq, Tk)
    return masked_softmax(attention_scores(q, k), allowed) @ v  # (..., Tq, dv)


class AttentionWork(NamedTuple):
    """§5. Score entries of one (Tq, Tk) attention table, per head (see :func:`causal_attention_work`)."""

    computed: int   # entries causal_attention computes
    allowed: int    # entries a query may read: the least any method must compute
    total: int      # Tq * Tk, the whole table the definition computes

    @property
    def fraction(self):
        """computed / total."""
        return self.computed / self.total if self.total else 0.0


def _tile_width(tk):
    """Keys per tile: at most BLOCK, and as even as possible, so that the last tile is (nearly) full."""
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


def causal_attention_work(tq, tk, *, skip_future=True):
    """§5. How many score entries :func:`causal_attention` computes for Tq queries and Tk keys.

    Query block [start, stop) needs keys 0 .. Tk - Tq + stop - 1 only; they
    come in tiles of at most BLOCK keys, and every tile after them lies
    entirely in the block's future and is never computed.  With
    ``skip_future=False`` every block computes every tile: the whole table, as
    the definition does.  Returns an :class:`AttentionWork` (counts per head).
    (Inputs with fewer than 2**16 scores in all, such as one cached step, are
    computed whole in one product: there, blocks would cost more than they save.)
    """
    tq, tk = _int_argument(tq, "tq", 0), _int_argument(tk, "tk", 0)
    causal_future(tq, tk)                                       # the same checks as the attention
    skip_future = _bool_argument(skip_future, "skip_future")
    width = _tile_width(tk)
    computed = sum((stop - start) * tiles * width for start, stop, tiles in _query_blocks(tq, tk, skip_future))
    allowed = sum(tk - tq + i + 1 for i in range(tq))
    return AttentionWork(computed, allowed, tq * tk)


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


def causal_attention(q, k, v, *, skip_future=True):
    """§1, §2, §5. Scaled dot-product attention in which no query reads its future.

    q: (..., Tq, d), k: (..., Tk, d), v: (..., Tk, dv) with 0 <= Tq <= Tk and
    Tk >= 1; leading axes broadcast.  Query i is at absolute position
    Tk - Tq + i and reads keys 0 .. Tk - Tq + i.  Returns (..., Tq, dv).

    dtype: the common float dtype of q, k, v (float32 stays float32 throughout;
    float32 with float64 gives float64; integers count as float64).

    Refused with a ValueError: fewer than 2 axes, mismatched widths or lengths,
    no key, more queries than keys, and any NaN or infinity in q, k or v.  A
    non-finite value is refused even at a future position, because in every
    implementation that multiplies the weights by the values (this one, the
    definition, torch) it reaches earlier outputs: their weight on it is 0, and
    0 * nan = nan.  A causality test must therefore perturb the future with
    finite values.  Inputs so large that a score or a sum could overflow the
    dtype are refused too.

    The same numbers as :func:`causal_attention_reference` up to rounding,
    computed block by block: each block of BLOCK queries computes its scores
    tile by tile, against the keys up to its last query only; only the tile on
    the diagonal needs the mask, and the tiles after it, entirely in the
    future, are never computed (``skip_future=False`` computes and masks them,
    to measure what skipping saves, §5).

    Softmax is unchanged when a row of scores is shifted by any constant.  The
    definition shifts by the row's largest score, which takes a pass of its
    own; here each query's row is shifted by its score with its own key, which
    is always allowed and already in the table, on the diagonal (its term is
    exp(0) = 1, so every row sum is at least 1).  If some score lies so far
    above it that the sum could overflow, the block is computed again with the
    largest score.

    Blocks are independent and run in threads, one per core: each thread takes
    some of the (batch, head) rows through all their blocks (with fewer rows
    than cores, the blocks of the rows are shared out instead).  NumPy releases
    the GIL in matrix products and element-wise work.
    """
    q, k, v, v_largest = _attention_inputs(q, k, v)
    skip_future = _bool_argument(skip_future, "skip_future")
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
        # Scores (h, b, keys) of the queries q_block at positions first.. against key tiles 0..tiles-1.
        h, b = q_block.shape[:2]
        scores = np.empty((h, b, tiles * width), dtype=q.dtype)             # (h, b, keys)
        by_tile = scores.reshape(h, b, tiles, width).swapaxes(1, 2)         # (h, tiles, b, width), same memory
        np.matmul(q_block[:, None], k_tiles[rows, :tiles], out=by_tile)     # one small product per tile
        np.copyto(scores[..., first:first + b], -np.inf, where=future[:b, :b])        # the diagonal tile
        scores[..., first + b:] = -np.inf                       # after it: padding, or future tiles if computed
        return scores, by_tile

    def attend(rows, start, stop, tiles):
        # Queries start..stop-1 of the rows `rows` (batch and heads) against key tiles 0..tiles-1.
        first = tk - tq + start                                 # position of query `start`, and of its own key
        q_block = q[rows, start:stop] * scale                   # (h, b, d)
        scores, by_tile = masked_scores(q_block, rows, first, tiles)
        diagonal = scores[..., first:first + stop - start]      # (h, b, b): the diagonal tile
        own = np.diagonal(diagonal, axis1=1, axis2=2).copy()    # (h, b): query i's score with its own key
        scores -= own[..., None]                                # shift row i by it: the own key -> exactly 0
        with np.errstate(over="ignore"):                        # an overflow is handled just below
            np.exp(scores, out=scores)                          # -inf -> exactly 0; own key -> exactly 1
        row_sums = (scores @ ones[:scores.shape[-1]])[..., None]   # (h, b, 1), each at least 1 (BLAS: faster
                                                                # than scores.sum(axis=-1, keepdims=True))
        if not row_sums.max() <= largest_sum:                   # a score far above its own: shift by the max
            scores, by_tile = masked_scores(q_block, rows, first, tiles)
            row_sums = _exp_minus_row_max(scores)               # (h, b, 1); -inf -> exactly 0
        parts = by_tile @ v_tiles[rows, :tiles]                 # (h, tiles, b, dv): each tile's share of the sum
        block = np.sum(parts, axis=1, out=out[rows, start:stop])   # (h, b, dv)
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


# Threads for the blocks of causal_attention: one per core, created on first use.
_POOL = None
_POOL_LOCK = threading.Lock()
_SMALL_WORK = 1 << 16            # fewer score entries in all: one product for the whole table
_TASK_BYTES = 1 << 20            # scores of one block of one group of rows: about 1 MB


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


def unmasked_attention(q, k, v):
    """§4. Attention without any mask: the negative control of a causality test.

    Same arguments, checks and dtype rule as :func:`causal_attention`, except
    that Tq may exceed Tk (no query has a future).
    """
    q, k, v, _ = _attention_inputs(q, k, v)
    scores = attention_scores(q, k)                             # (..., Tq, Tk)
    allowed = np.ones(scores.shape[-2:], dtype=bool)            # everything may be read
    return masked_softmax(scores, allowed) @ v


# --------------------------------------------------------------------------
# §2 Several heads
# --------------------------------------------------------------------------

def split_heads(x, n_heads):
    """§2. (B, T, D) -> (B, H, T, d): head h, coordinate a = feature h*d + a.

    Any leading axes; a pure rearrangement, so the dtype of x is kept as it is.
    """
    x = np.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"split_heads expects (..., T, D), got shape {x.shape}")
    d = _head_width(x.shape[-1], n_heads)
    heads = x.reshape(*x.shape[:-1], x.shape[-1] // d, d)       # (B, T, H, d)
    return np.swapaxes(heads, -3, -2)                           # (B, H, T, d)


def merge_heads(x):
    """§2. (B, H, T, d) -> (B, T, H*d), the exact inverse of :func:`split_heads`; dtype kept."""
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    heads_last = np.swapaxes(x, -3, -2)                         # (B, T, H, d)
    return heads_last.reshape(*heads_last.shape[:-2], -1)       # (B, T, H*d)


def multi_head_attention(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    """§2. Causal multi-head attention, row-vector convention, no biases.

    x: (B, T, D) (or any leading axes); w_q, w_k, w_v, w_o: (D, D).
    Returns (B, T, D) in the common float dtype of x and the weights.
    ``causal=False`` lets every query read every key; it exists only as the
    negative control of the causality checks (§4).
    """
    x, w_q, w_k, w_v, w_o = _float_arrays(x=x, w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (B, T, D), got shape {x.shape}")
    D = x.shape[-1]
    _head_width(D, n_heads)
    causal = _bool_argument(causal, "causal")
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v), ("w_o", w_o)):
        if w.shape != (D, D):
            raise ValueError(f"{name} has shape {w.shape}, expected ({D}, {D}) for width D={D}")
    q = split_heads(x @ w_q, n_heads)                           # (B, H, T, d)
    k = split_heads(x @ w_k, n_heads)                           # (B, H, T, d)
    v = split_heads(x @ w_v, n_heads)                           # (B, H, T, d)
    attend = causal_attention if causal else unmasked_attention
    return merge_heads(attend(q, k, v)) @ w_o                   # (B, T, D)
