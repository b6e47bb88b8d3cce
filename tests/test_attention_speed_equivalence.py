"""The blocked form (lib.blocked: the readable one, and the fast one with tiles and threads) computes the definition.

The definition is lib.attention.causal_attention, one loop-free line; it is
checked here against a third, independent computation written with Python loops.
"""

from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib import blocked
from lib.attention import causal_attention, causal_future
from lib.blocked import attention_work, blocked_causal_attention, fast_causal_attention

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
       st.sampled_from(["readable", "whole", "tiles", "threads"]), st.booleans())
def test_blocks_agree_with_the_definition(problem, block, path, skip_future):
    """Any block size; the readable form, or the fast one in one piece, in tiles or in tiles on threads;
    skipping or not: the definition's numbers."""
    q, k, v = problem
    small = blocked._SMALL_WORK if path == "whole" else 0      # 0: even tiny inputs go through the tiles
    workers = blocked._workers if path == "threads" else (lambda: 1)
    attend = blocked_causal_attention if path == "readable" else fast_causal_attention
    with mock.patch.object(blocked, "BLOCK", block), mock.patch.object(blocked, "_SMALL_WORK", small), \
            mock.patch.object(blocked, "_workers", workers):
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


@pytest.mark.parametrize("tq, extra", [(1, 0), (63, 0), (64, 0), (65, 0), (127, 1), (128, 0), (129, 63), (300, 7)])
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
@pytest.mark.parametrize("path", ["whole", "tiles"])
def test_a_huge_future_score_does_not_underflow_the_allowed_ones(dtype, path, monkeypatch):
    """The row maximum is taken over the allowed keys only: in one product and in the diagonal tile."""
    if path == "tiles":
        monkeypatch.setattr(blocked, "_SMALL_WORK", 0)
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
    assert attention_work(1024, 1024, skip_future=False) == (1024**2, 524800, 1024**2)
    assert attention_work(256, 256).fraction == 0.625
    # the 4 blocks after 44 cached keys need 108, 172, 236, 300 keys
    assert attention_work(256, 300) == (64 * (108 + 172 + 236 + 300), 256 * 45 + 255 * 128, 256 * 300)
    assert attention_work(2, 5) == (10, 4 + 5, 10)      # one block of 2 queries after 3 cached keys
    assert attention_work(0, 3) == (0, 0, 0) and attention_work(0, 3).fraction == 0.0


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 700), st.integers(0, 300), st.sampled_from([1, 7, 64]))
def test_work_lies_between_the_allowed_entries_and_the_whole_table(tq, extra, block):
    tk = tq + extra
    with mock.patch.object(blocked, "BLOCK", block):
        work = attention_work(tq, tk)
        everything = attention_work(tq, tk, skip_future=False)
        fast_blocks = blocked._query_blocks(tq, tk, True)
    assert work.allowed == sum(extra + i + 1 for i in range(tq)) == tq * extra + tq * (tq + 1) // 2
    assert work.allowed <= work.computed <= everything.computed == work.total == tq * tk
    # block [s, s + b) computes the keys up to that of its last query
    assert work.computed == sum(min(block, tq - s) * (extra + min(s + block, tq)) for s in range(0, tq, block))
    if block == 1:
        assert work.computed == work.allowed                   # one query per block
    if tk:
        tiles = -(-tk // block)
        width = -(-tk // tiles)                                # fast form: tiles of (nearly) equal width <= block
        assert width <= block and tiles * width - tk < tiles   # padding: less than one key per tile
        fast = sum((stop - start) * n_tiles * width for start, stop, n_tiles in fast_blocks)
        assert work.computed <= fast <= work.computed + tq * (width - 1)   # whole tiles: under one more per query


def test_work_checks_its_arguments():
    with pytest.raises(ValueError, match="3 queries but only 2 keys"):
        attention_work(3, 2)
    with pytest.raises(TypeError, match="tq must be an int"):
        attention_work(2.0, 3)
    with pytest.raises(TypeError, match="skip_future must be True or False"):
        attention_work(2, 3, skip_future=None)


def far_above_own_scores(n, t, dtype=np.float64):
    """q, k, v in which every query's score with key 0 lies 1600 above its score with its own key.

    exp(1600) overflows float32 and float64 alike, so every block of queries must fall back to the row max."""
    q = np.ones((n, t, 1), dtype=dtype) * 40.0                  # d = 1: scores are plain products
    k = np.full((n, t, 1), -20.0, dtype=dtype)                 # own key (and every later key): score -800
    k[:, 0] = 20.0                                              # key 0: score +800
    v = np.arange(n * t * 2, dtype=dtype).reshape(n, t, 2) % 7
    return q, k, v


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_a_score_far_above_its_own_falls_back_to_the_row_max(dtype, monkeypatch):
    """Every row is shifted by its own score; when another score lies far above it, by the row max instead."""
    monkeypatch.setattr(blocked, "_SMALL_WORK", 0)
    fallbacks = []
    row_max = blocked._exp_minus_row_max
    monkeypatch.setattr(blocked, "_exp_minus_row_max", lambda scores: fallbacks.append(1) or row_max(scores))
    q, k, v = far_above_own_scores(3, 130, dtype)
    out = fast_causal_attention(q, k, v)
    tasks = blocked._tasks(3, 130 * q.itemsize, blocked._query_blocks(130, 130, True))
    assert len(fallbacks) == sum(len(groups) * len(blocks) for groups, blocks in tasks) >= 3   # every block
    assert out.dtype == dtype and np.isfinite(out).all()
    np.testing.assert_array_equal(out[:, 1:], np.broadcast_to(v[:, :1], out[:, 1:].shape))   # all weight on key 0
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=TOL[dtype], atol=TOL[dtype])
    fallbacks.clear()
    rng = np.random.default_rng(0)
    ordinary = [rng.standard_normal((3, 130, 8)) for _ in range(3)]
    out = fast_causal_attention(*ordinary)
    assert not fallbacks                                        # ordinary scores: the own score is enough
    np.testing.assert_allclose(out, causal_attention(*ordinary), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_fallback_max_ignores_a_huge_future_score(dtype, monkeypatch):
    """Query 1 falls back to the row max, which must be taken over its allowed keys only: key 2, in its
    future on the diagonal tile, scores 1600 and would make every allowed weight underflow."""
    monkeypatch.setattr(blocked, "_SMALL_WORK", 0)
    q = np.array([[1.0], [40.0], [1.0]], dtype=dtype)
    k = np.array([[20.0], [-20.0], [40.0]], dtype=dtype)        # query 1: 800 (key 0), -800 (own), 1600 (future)
    v = np.array([[1.0, 2.0], [5.0, 7.0], [3.0, 3.0]], dtype=dtype)
    out = fast_causal_attention(q, k, v)
    np.testing.assert_array_equal(out[1], v[0])                 # key 0 alone: weight exactly 1
    np.testing.assert_allclose(out, causal_attention(q, k, v), rtol=TOL[dtype], atol=TOL[dtype])


def test_large_values_times_a_large_row_sum_do_not_overflow(monkeypatch):
    """float32, values of 1e10: a row sum of e^69 (1e30) is finite, but the weighted sum of the values
    would not be (1e40); the bound on the row sums takes the values into account and falls back."""
    monkeypatch.setattr(blocked, "_SMALL_WORK", 0)
    q, k, _ = far_above_own_scores(2, 70, np.float32)
    k[:, 0] = -20.0 + 69.0 / 40.0                               # key 0: 69 above the own score -800
    v = np.full((2, 70, 3), 1e10, dtype=np.float32)
    out = fast_causal_attention(q, k, v)
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, 1e10, rtol=1e-6)            # any weights average equal values to themselves


def test_a_failing_block_in_a_thread_is_raised_and_nothing_hangs(monkeypatch):
    """An error inside a block running in the pool reaches the caller, after every thread has stopped."""
    monkeypatch.setattr(blocked, "_SMALL_WORK", 0)
    calls = []

    def broken_exp(scores):
        calls.append(scores.shape)
        raise MemoryError("no memory for this block")
    monkeypatch.setattr(blocked, "_exp_minus_row_max", broken_exp)
    q, k, v = far_above_own_scores(4, 300)                      # every block falls back, and fails
    with pytest.raises(MemoryError, match="no memory for this block"):
        fast_causal_attention(q, k, v)
    tasks = blocked._tasks(4, 300 * 8, blocked._query_blocks(300, 300, True))
    assert len(tasks) == min(4, blocked._workers())
    assert len(calls) == len(tasks)                             # every thread reached its first block


@pytest.mark.parametrize("workers", [1, 2, 3, 8])
@pytest.mark.parametrize("n", [1, 2, 5, 64])
def test_the_threads_share_out_every_row_and_block_once(n, workers, monkeypatch):
    """At least as many rows as threads: each thread takes some rows through every block; fewer: all
    rows, with its share of the blocks.  Either way each (row, block) is computed exactly once."""
    monkeypatch.setattr(blocked, "_workers", lambda: workers)
    blocks = blocked._query_blocks(700, 700, True)            # 11 blocks of 1 to 11 tiles
    tasks = blocked._tasks(n, 700 * 4, blocks)
    assert len(tasks) == min(workers, max(n, len(blocks)))
    done = [(row, block) for groups, share in tasks for rows in groups
            for row in range(n)[rows] for block in share]
    assert sorted(done) == sorted((row, block) for row in range(n) for block in blocks)
    if n >= workers:
        assert all(share == blocks for _, share in tasks)
        rows = [sum(len(range(n)[r]) for r in groups) for groups, _ in tasks]
        assert max(rows) - min(rows) <= 1                      # rows split evenly
        assert all(len(range(n)[r]) * 64 * 700 * 4 <= blocked._TASK_BYTES or len(range(n)[r]) == 1
                   for groups, _ in tasks for r in groups)      # a block's scores of a group: about 1 MB at most
    else:
        assert all(groups == [slice(0, n)] for groups, _ in tasks)
        work = [n * sum((b - a) * t for a, b, t in share) for _, share in tasks]
        assert max(work) - min(work) <= 64 * 11 * n                # at most the largest block apart


@pytest.mark.parametrize("tq, tk", [(0, 1), (1, 1), (1, 5), (3, 3), (4, 9), (64, 64), (65, 130)])
def test_the_mask_entry_by_entry(tq, tk):
    """future[i, j] is True exactly when key j comes after query i's position tk - tq + i."""
    future = causal_future(tq, tk)
    assert future.shape == (tq, tk) and future.dtype == bool
    for i in range(tq):
        for j in range(tk):
            assert future[i, j] == (j > tk - tq + i), (i, j)
