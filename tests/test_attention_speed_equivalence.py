"""The blocked form (lib.blocked, the readable one, and bench/fast_attention.py, on threads) computes the definition.

The definition is lib.attention.causal_attention, one loop-free line; it is
checked here against a third, independent computation written with Python loops.
"""

import threading
import time
from unittest import mock

import numpy as np
import pytest
import threadpoolctl
from hypothesis import given, settings
from hypothesis import strategies as st

import fast_attention as fast
from lib import blocked
from lib.attention import causal_attention, causal_future
from lib.blocked import attention_work, blocked_causal_attention
from fast_attention import fast_causal_attention

TOL = {np.float32: 3e-5, np.float64: 1e-12}


def attention_by_loops(q, k, v):
    """Query i of every leading index reads keys 0 .. Tk - Tq + i; float64, plain loops."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    q, k, v = (np.broadcast_to(a, lead + a.shape[-2:]) for a in (q, k, v))
    tq, tk, d = q.shape[-2], k.shape[-2], q.shape[-1]
    out = np.zeros(lead + (tq, v.shape[-1]))
    for index in np.ndindex(*lead):
        for i in range(tq):
            readable = tk - tq + i + 1                                   # keys 0 .. tk - tq + i
            scores = [float(q[index][i] @ k[index][j]) / np.sqrt(d) for j in range(readable)]
            top = max(scores)
            weights = [np.exp(s - top) for s in scores]
            out[index][i] = sum(w * v[index][j] for j, w in enumerate(weights)) / sum(weights)
    return out


def attention_by_rows(q, k, v):
    """The same rule for large inputs: a Python loop over the queries, each row's keys cut by slicing."""
    q, k, v = (np.asarray(a, dtype=np.float64) for a in (q, k, v))
    tq, tk, d = q.shape[-2], k.shape[-2], q.shape[-1]
    out = np.zeros(np.broadcast_shapes(q.shape[:-2], k.shape[:-2]) + (tq, v.shape[-1]))
    for i in range(tq):
        readable = tk - tq + i + 1                                       # keys 0 .. tk - tq + i
        scores = np.einsum("...d,...jd->...j", q[..., i, :], k[..., :readable, :]) / np.sqrt(d)
        weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
        out[..., i, :] = np.einsum("...j,...jd->...d", weights, v[..., :readable, :]) / weights.sum(-1)[..., None]
    return out


@st.composite
def attention_problem(draw):
    lead = draw(st.lists(st.integers(1, 3), max_size=3))
    # some leading axes of k and v are 1 and broadcast against q's, or the other way round
    k_lead = [n if draw(st.booleans()) else 1 for n in lead]
    q_lead = [n if (draw(st.booleans()) or k_lead[i] == 1) else 1 for i, n in enumerate(lead)]
    tq = draw(st.integers(0, 12))
    tk = draw(st.integers(max(tq, 1), 20))
    d, dv = draw(st.integers(1, 6)), draw(st.integers(0, 5))
    dtype = draw(st.sampled_from([np.float32, np.float64]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    q = rng.standard_normal(q_lead + [tq, d]).astype(dtype)
    k = rng.standard_normal(k_lead + [tk, d]).astype(dtype)
    v = rng.standard_normal(k_lead + [tk, dv]).astype(dtype)
    return q, k, v


@settings(max_examples=150, deadline=None)
@given(attention_problem(), st.sampled_from([1, 2, 3, 5, 64]),
       st.sampled_from(["readable", "calling thread", "threads", "shifted"]), st.booleans())
def test_blocks_agree_with_the_definition(problem, block, path, skip_future):
    """Any block size; the readable form, or the fast one on the calling thread, on threads, or with every
    row shifted by its max before exp; skipping or not: the definition's numbers."""
    q, k, v = problem
    small = fast._SMALL_WORK if path == "calling thread" else 0     # 0: even tiny inputs go to the threads
    workers = (lambda: 3) if path == "threads" else (lambda: 1)
    safe_score = 0 if path == "shifted" else fast.SAFE_SCORE       # 0: no score counts as small
    attend = blocked_causal_attention if path == "readable" else fast_causal_attention
    with mock.patch.object(blocked, "BLOCK", block), mock.patch.object(fast, "_SMALL_WORK", small), \
            mock.patch.object(fast, "_workers", workers), mock.patch.object(fast, "SAFE_SCORE", safe_score):
        out = attend(q, k, v, skip_future=skip_future)
    reference = causal_attention(q, k, v)
    assert out.shape == reference.shape and out.dtype == reference.dtype == q.dtype
    tol = TOL[q.dtype.type]
    np.testing.assert_allclose(out, reference, rtol=tol, atol=tol)
    np.testing.assert_allclose(out, attention_by_loops(q, k, v), rtol=tol, atol=tol)   # and without lib's mask


@settings(max_examples=40, deadline=None)
@given(attention_problem())
def test_the_definition_agrees_with_plain_loops(problem):
    q, k, v = problem
    tol = TOL[q.dtype.type]
    np.testing.assert_allclose(causal_attention(q, k, v), attention_by_loops(q, k, v), rtol=tol, atol=tol)


@pytest.mark.parametrize("tq, extra", [(1, 0), (63, 0), (64, 0), (65, 0), (127, 1), (128, 0), (129, 63), (300, 7),
                                       (300, 211), (300, 212), (513, 0)])   # from 512 keys on: blocks of 128
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_real_block_size_and_threads_around_block_edges(tq, extra, dtype):
    rng = np.random.default_rng(tq + extra)
    q = rng.standard_normal((2, 2, tq, 8)).astype(dtype)
    k = rng.standard_normal((2, 2, tq + extra, 8)).astype(dtype)
    v = rng.standard_normal((2, 2, tq + extra, 5)).astype(dtype)
    tol = TOL[dtype]
    reference = causal_attention(q, k, v)
    np.testing.assert_allclose(reference, attention_by_rows(q, k, v), rtol=tol, atol=tol)
    for out in (fast_causal_attention(q, k, v), fast_causal_attention(q, k, v, skip_future=False),
                blocked_causal_attention(q, k, v), blocked_causal_attention(q, k, v, skip_future=False)):
        assert out.dtype == dtype
        np.testing.assert_allclose(out, reference, rtol=tol, atol=tol)


def test_bottom_right_alignment_by_hand():
    """2 queries after 1 cached position: query 0 is at position 1 and reads keys 0 and 1, never key 2."""
    q = np.array([[0.0, 0.0], [0.0, 0.0]])                     # equal scores: plain averages
    k = np.zeros((3, 2))
    v = np.array([[1.0], [3.0], [8.0]])
    for attend in (causal_attention, blocked_causal_attention, fast_causal_attention):
        np.testing.assert_array_equal(attend(q, k, v), [[2.0], [4.0]])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("path", ["calling thread", "threads"])
def test_a_huge_future_score_does_not_underflow_the_allowed_ones(dtype, path, monkeypatch):
    """The row maximum is taken over the allowed keys only, on the calling thread and on threads."""
    if path == "threads":
        monkeypatch.setattr(fast, "_SMALL_WORK", 0)
    q = np.array([[30.0, 0.0], [0.0, 1.0]], dtype=dtype)
    k = np.array([[0.0, 1.0], [30.0, 0.0]], dtype=dtype)       # q0·k1 / sqrt(2) = 636: key 1 is query 0's future
    v = np.array([[1.0, 2.0], [5.0, 7.0]], dtype=dtype)
    for fn in (fast_causal_attention, blocked_causal_attention, causal_attention):
        out = fn(q, k, v)
        np.testing.assert_array_equal(out[0], v[0])            # query 0 reads key 0 alone: weight exactly 1
        assert np.isfinite(out).all()


@pytest.mark.parametrize("tq", [5, 300])
def test_the_future_changes_no_bit_of_earlier_rows(tq):
    """Changing keys and values after position p leaves rows 0..p-1 bit for bit (blocks and threads too)."""
    rng = np.random.default_rng(tq)
    q, k, v = (rng.standard_normal((3, tq, 8)) for _ in range(3))
    p = tq // 2 + 1
    k2, v2 = k.copy(), v.copy()
    k2[:, p:] += rng.standard_normal(k2[:, p:].shape) * 5
    v2[:, p:] -= 7.0
    q2 = q.copy()
    q2[:, p:] *= -3.0
    for attend in (causal_attention, blocked_causal_attention, fast_causal_attention):
        before, after = attend(q, k, v), attend(q2, k2, v2)
        np.testing.assert_array_equal(before[:, :p], after[:, :p])
        assert (np.abs(before[:, p:] - after[:, p:]).max(axis=-1) > 0).all()


def test_work_counts_by_hand():
    assert blocked.BLOCK == 64                               # the numbers below assume it
    # 16 blocks of 64 queries; block i computes 64 (i + 1) keys
    assert attention_work(1024, 1024) == (64 * 64 * sum(range(1, 17)), 1024 * 1025 // 2, 1024**2)
    assert attention_work(1024, 1024).fraction == 0.53125
    # the fast form's blocks of 128 from LONG_KEYS = 512 keys on: 8 blocks, block i computes 128 (i + 1) keys
    assert attention_work(1024, 1024, block=128) == (128 * 128 * sum(range(1, 9)), 1024 * 1025 // 2, 1024**2)
    assert attention_work(1024, 1024, block=128).fraction == 0.5625
    assert attention_work(1024, 1024, skip_future=False) == (1024**2, 524800, 1024**2)
    assert attention_work(256, 256).fraction == 0.625
    # the 4 blocks after 44 cached keys need 108, 172, 236, 300 keys
    assert attention_work(256, 300) == (64 * (108 + 172 + 236 + 300), 256 * 45 + 255 * 128, 256 * 300)
    assert attention_work(2, 5) == (10, 4 + 5, 10)      # one block of 2 queries after 3 cached keys
    assert attention_work(0, 3) == (0, 0, 0) and attention_work(0, 3).fraction == 0.0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 700), st.integers(0, 300), st.sampled_from([1, 7, 64]), st.integers(1, 5), st.booleans())
def test_work_lies_between_the_allowed_entries_and_the_whole_table(tq, extra, block, n, skip_future):
    tk = tq + extra
    with mock.patch.object(blocked, "BLOCK", block):
        work = attention_work(tq, tk)
        everything = attention_work(tq, tk, skip_future=False)
        tasks = fast._tasks(n, tq, tk, block, skip_future, group=2)
    assert work.allowed == sum(extra + i + 1 for i in range(tq)) == tq * extra + tq * (tq + 1) // 2
    assert work.allowed <= work.computed <= everything.computed == work.total == tq * tk
    # block [s, s + b) computes the keys up to that of its last query
    assert work.computed == sum(min(block, tq - s) * (extra + min(s + block, tq)) for s in range(0, tq, block))
    if block == 1:
        assert work.computed == work.allowed                   # one query per block
    # the fast form's tasks, n rows two at a time, compute the blocked form's scores for every row, most first
    scores = [len(range(n)[rows]) * (stop - start) * (tk - tq + stop if skip_future else tk)
              for rows, start, stop in tasks]
    assert sum(scores) == n * (work.computed if skip_future else everything.computed)
    assert scores == sorted(scores, reverse=True)


def test_work_checks_its_arguments():
    with pytest.raises(ValueError, match="3 queries but only 2 keys"):
        attention_work(3, 2)
    with pytest.raises(TypeError, match="tq must be an int"):
        attention_work(2.0, 3)
    with pytest.raises(TypeError, match="skip_future must be True or False"):
        attention_work(2, 3, skip_future=None)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_scores_too_large_for_exp_are_shifted_by_the_row_max(dtype):
    """Scores of +-800: exp overflows in float32 and float64 alike unless every row is shifted by its max."""
    t = 130
    q = np.full((3, t, 1), 40.0, dtype=dtype)                  # d = 1: scores are plain products
    k = np.full((3, t, 1), -20.0, dtype=dtype)                 # own key (and every later key): score -800
    k[:, 0] = 20.0                                              # key 0: score +800
    v = (np.arange(3 * t * 2).reshape(3, t, 2) % 7).astype(dtype)
    out = fast_causal_attention(q, k, v)
    assert out.dtype == dtype and np.isfinite(out).all()
    np.testing.assert_array_equal(out[:, 1:], np.broadcast_to(v[:, :1], out[:, 1:].shape))   # all weight on key 0
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=TOL[dtype], atol=TOL[dtype])


@pytest.fixture
def shifted(monkeypatch):
    """The (N, Tq) arrays of rows to shift, one per call of fast_causal_attention, as it computes them."""
    needs_shift, found = fast._needs_shift, []
    monkeypatch.setattr(fast, "_needs_shift", lambda *args: found.append(needs_shift(*args)) or found[-1])
    return found


def test_scores_up_to_the_safe_bound_need_no_shift(shifted):
    """float32 scores of exactly +-SAFE_SCORE are computed without a shift and give the definition's
    numbers: e^64 and e^-64 are ordinary float32 numbers.  Ordinary inputs take that path too."""
    q = np.full((2, 130, 1), 8.0, dtype=np.float32)
    k = np.where(np.arange(130)[:, None] % 3 == 0, 8.0, -8.0).astype(np.float32)   # scores 64 and -64
    v = np.random.default_rng(0).standard_normal((2, 130, 3)).astype(np.float32)
    out = fast_causal_attention(q, k, v)
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=TOL[np.float32], atol=TOL[np.float32])
    ordinary = [np.random.default_rng(1).standard_normal((2, 300, 16)) for _ in range(3)]
    fast_causal_attention(*ordinary)
    assert len(shifted) == 2 and not any(rows.any() for rows in shifted)


def test_rows_with_and_without_a_shift_share_a_block(shifted):
    """From key 30 on, one key is long enough for scores far beyond SAFE_SCORE: queries 30.. are shifted
    by their row max, queries 0..29, in the same block, are not; both give the definition's numbers."""
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((2, 60, 4)) for _ in range(3))
    k[:, 30] *= 200
    out = fast_causal_attention(q, k, v)
    assert not shifted[0][:, :30].any() and shifted[0][:, 30:].all()
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=1e-12, atol=1e-12)


def test_large_values_times_large_weights_are_shifted():
    """float32 scores of 64 and values of 1e9: each weight e^64 is finite, but 130 such weighted values add
    up to 8e38, beyond float32; the bound takes the values into account and shifts the rows."""
    q = np.full((2, 130, 1), 8.0, dtype=np.float32)
    k = np.full((130, 1), 8.0, dtype=np.float32)               # every score 64
    v = np.full((2, 130, 3), 1e9, dtype=np.float32)
    out = fast_causal_attention(q, k, v)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, 1e9, rtol=1e-6)            # any weights average equal values to themselves


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_row_max_ignores_a_huge_future_score(dtype):
    """Query 1's row is shifted by its max, which must be taken over its allowed keys only: key 2, in its
    future on the diagonal tile, scores 1600 and would make every allowed weight underflow."""
    q = np.array([[1.0], [40.0], [1.0]], dtype=dtype)
    k = np.array([[20.0], [-20.0], [40.0]], dtype=dtype)        # query 1: 800 (key 0), -800 (own), 1600 (future)
    v = np.array([[1.0, 2.0], [5.0, 7.0], [3.0, 3.0]], dtype=dtype)
    out = fast_causal_attention(q, k, v)
    np.testing.assert_array_equal(out[1], v[0])                 # key 0 alone: weight exactly 1
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=TOL[dtype], atol=TOL[dtype])


@pytest.mark.parametrize("failing", ["calling thread", "pool thread"])
def test_a_failing_block_is_raised_and_the_other_threads_stop(failing, monkeypatch):
    """An error inside a block, on the calling thread or on a thread of the pool, reaches the caller after
    every thread has stopped, and the other threads take no further block once it has happened."""
    monkeypatch.setattr(fast, "_workers", lambda: 2)
    caller, done, lock = threading.get_ident(), [], threading.Lock()

    def attend(rows, start, stop, scratch):
        on_caller = threading.get_ident() == caller
        with lock:
            if on_caller == (failing == "calling thread") and not any(d == "failed" for d in done):
                done.append("failed")
                raise MemoryError("no memory for this block")
            done.append(start)
        time.sleep(0.01)                                        # the failure comes while the other one works
    tasks = fast._tasks(1, 64 * 40, 64 * 40, 64, True, group=1)  # 40 blocks
    with pytest.raises(MemoryError, match="no memory for this block"):
        fast._run(attend, tasks, 1, np.float32)
    after = done[done.index("failed") + 1:]
    assert len(after) <= 1 and len(done) < 40                   # the other thread went on with its current block only


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
@pytest.mark.parametrize("n", [1, 2, 5, 64])
def test_the_threads_compute_every_row_and_block_once_with_blas_on_one_thread(n, workers, monkeypatch):
    """Each (row, block) is computed exactly once, whatever the number of threads, and inside the threads
    OpenBLAS computes on the calling thread only (its own threads would compete with ours)."""
    monkeypatch.setattr(fast, "_workers", lambda: workers)
    done, blas_threads, lock = [], set(), threading.Lock()

    def attend(rows, start, stop, scratch):
        assert scratch.ndim == 1 and scratch.size >= 10 and scratch.dtype == np.float64   # this thread's own
        with lock:
            done.extend((row, start, stop) for row in range(n)[rows])
            if start == 0:                                      # asking costs time: once per row group
                blas_threads.update(lib["num_threads"] for lib in threadpoolctl.threadpool_info()
                                    if lib["user_api"] == "blas")
    before = [lib["num_threads"] for lib in threadpoolctl.threadpool_info()]
    fast._run(attend, fast._tasks(n, 700, 700, 64, True, group=3), 10, np.float64)
    blocks = [(start, min(start + 64, 700)) for start in range(0, 700, 64)]
    assert sorted(done) == sorted((row, *block) for row in range(n) for block in blocks)
    if workers > 1:
        assert blas_threads == {1}
    assert [lib["num_threads"] for lib in threadpoolctl.threadpool_info()] == before   # restored afterwards


def test_calls_from_several_threads_at_once_agree_and_leave_blas_as_it_was(monkeypatch):
    """Programs may call fast_causal_attention from threads of their own: each call gets its numbers,
    and OpenBLAS's thread count is the same afterwards as before."""
    monkeypatch.setattr(fast, "_SMALL_WORK", 0)
    rng = np.random.default_rng(3)
    problems = [[rng.standard_normal((2, 3, 150, 8)) for _ in range(3)] for _ in range(4)]
    before = [lib["num_threads"] for lib in threadpoolctl.threadpool_info()]
    results = [None] * len(problems)

    def call(i):
        for _ in range(5):
            results[i] = fast_causal_attention(*problems[i])
    callers = [threading.Thread(target=call, args=(i,)) for i in range(len(problems))]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    for problem, out in zip(problems, results):
        np.testing.assert_allclose(out, causal_attention(*problem), rtol=1e-12, atol=1e-12)
    assert [lib["num_threads"] for lib in threadpoolctl.threadpool_info()] == before


@pytest.mark.parametrize("tq, tk", [(0, 1), (1, 1), (1, 5), (3, 3), (4, 9), (64, 64), (65, 130)])
def test_the_mask_entry_by_entry(tq, tk):
    """future[i, j] is True exactly when key j comes after query i's position tk - tq + i."""
    future = causal_future(tq, tk)
    assert future.shape == (tq, tk) and future.dtype == bool
    for i in range(tq):
        for j in range(tk):
            assert future[i, j] == (j > tk - tq + i), (i, j)


@pytest.mark.parametrize("path", ["calling thread", "threads"])
def test_tiny_queries_against_huge_keys_are_shifted(path, monkeypatch):
    """Entries of 1e-25 square to 0 in float32, so a query's length computed from its squares alone
    would be 0 and its scores of +-2e5 would look safe; the lengths are rounded up, and the row is shifted."""
    if path == "threads":
        monkeypatch.setattr(fast, "_SMALL_WORK", 0)
    rng = np.random.default_rng(8)
    q = np.full((2, 70, 4), 1e-25, dtype=np.float32)
    k = (rng.choice([-1.0, 1.0], size=(2, 70, 4)) * 1e30).astype(np.float32)     # scores 0.5 * q.k: 0 or +-1e5, 2e5
    v = rng.standard_normal((2, 70, 3)).astype(np.float32)
    out = fast_causal_attention(q, k, v)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=TOL[np.float32], atol=TOL[np.float32])


def test_each_thread_keeps_its_scratch_for_the_next_call_unless_it_is_huge(monkeypatch):
    """A call's score buffer is reused by the next call on the same thread (a fresh one may cost page
    faults every call); one larger than _KEEP_BYTES is not kept, nor shared with another thread."""
    monkeypatch.setattr(fast, "_SCRATCH", threading.local())
    first = fast._scratch(1000, np.float32)
    assert fast._scratch(800, np.float32) is first                      # smaller: the same buffer
    assert fast._scratch(800, np.float64) is not first                  # another dtype: a new one, kept
    huge = fast._scratch(fast._KEEP_BYTES // 8 + 1, np.float64)
    assert huge.nbytes > fast._KEEP_BYTES and fast._scratch(10, np.float64) is not huge
    seen = []
    thread = threading.Thread(target=lambda: seen.append(fast._scratch(10, np.float64)))
    thread.start()
    thread.join()
    assert seen[0] is not fast._scratch(10, np.float64)                 # every thread has its own
