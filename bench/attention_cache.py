"""Benchmark: lib's causal attention against torch SDPA, and the KV-cache speedup.

    make bench            (or: python bench/attention_cache.py)

Everything is measured side by side in one run on this machine, so the ratios
are comparable even when the absolute times drift.  This is not a test: it
prints figures and the targets they are compared with.
"""

import argparse
import statistics
import time

import numpy as np

from lib.attention import _exp_over_allowed, causal_attention, causal_future
from lib.model import AttentionModel


def median_seconds(fn, repeats):
    fn()                                            # warm-up: page faults, thread pools
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved(fns, repeats):
    """Median time of each function, measured in alternation so load drifts hit all alike."""
    for fn in fns:
        fn()
    times = [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def blocked_causal_attention(q, k, v, block=128):
    """For comparison only, not in lib: the same attention computed one block of
    queries at a time, so that key blocks entirely in the future are never
    touched (what torch's fused kernel does).  lib keeps the loop-free version,
    which the chapters teach; this row shows how much of the gap is that skipped half.
    """
    tq, tk = q.shape[-2], k.shape[-2]
    q_scaled = q * q.dtype.type(1.0 / np.sqrt(q.shape[-1]))
    out = np.empty(q.shape[:-1] + v.shape[-1:], dtype=q.dtype)
    for start in range(0, tq, block):
        stop = min(start + block, tq)
        keys_needed = tk - tq + stop
        scores = q_scaled[..., start:stop, :] @ np.swapaxes(k[..., :keys_needed, :], -1, -2)
        weights, row_sums = _exp_over_allowed(scores, causal_future(stop - start, keys_needed))
        out[..., start:stop, :] = (weights @ v[..., :keys_needed, :]) / row_sums
    return out


def attention_rows(repeats):
    try:
        import torch
    except ImportError:
        print("torch is not installed: attention ratios skipped (pip install torch==2.13.0)")
        return
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; numpy {np.__version__}")
    print(f"{'(B,H,T,d) float32':<22}{'lib ms':>10}{'torch ms':>10}{'ratio':>8}"
          f"{'blocked ms':>12}{'ratio':>8}   target: lib ratio <= 1.5")
    for shape in [(1, 8, 1024, 64), (4, 8, 256, 32)]:
        rng = np.random.default_rng(0)
        q, k, v = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
        tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
        assert np.allclose(blocked_causal_attention(q, k, v), causal_attention(q, k, v), atol=1e-5)
        ours, theirs, blocked = interleaved([
            lambda: causal_attention(q, k, v),
            lambda: torch.nn.functional.scaled_dot_product_attention(tq, tk, tv, is_causal=True),
            lambda: blocked_causal_attention(q, k, v),
        ], repeats)
        print(f"{str(shape):<22}{ours * 1e3:>10.2f}{theirs * 1e3:>10.2f}{ours / theirs:>8.2f}"
              f"{blocked * 1e3:>12.2f}{blocked / theirs:>8.2f}")


def cache_rows(repeats):
    print(f"{'cache, D=64 H=4 f32':<22}{'full ms':>10}{'step ms':>10}{'speedup':>8}   target >= 20 at T=1024")
    D, H, V = 64, 4, 50
    for T in (256, 1024):
        rng = np.random.default_rng(T)
        tables = [rng.standard_normal(s, dtype=np.float32) for s in ((V, D), (T + 1, D))]
        mats = [(rng.standard_normal((D, D)) / np.sqrt(D)).astype(np.float32) for _ in range(4)]
        model = AttentionModel(*tables, *mats, n_heads=H)
        ids = rng.integers(0, V, T + 1)
        cache = model.new_cache()
        for t in ids[:T]:
            model.step(int(t), cache)
        prefix_len = len(cache)

        def one_step():
            # the new token at position T after a cache of T positions; undo the append afterwards
            model.step(int(ids[T]), cache)
            cache.truncate(prefix_len)

        full, step = interleaved([lambda: model.forward(ids[:T + 1]), one_step], repeats)
        print(f"{'T=' + str(T):<22}{full * 1e3:>10.3f}{step * 1e3:>10.3f}{full / step:>8.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    attention_rows(args.repeats)
    cache_rows(args.repeats)


if __name__ == "__main__":
    main()
