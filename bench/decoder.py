"""Benchmark of the §7 decoder: training step time, and generation with and without the KV cache.

    make bench            (or: python bench/decoder.py [--repeats N])

Everything is measured side by side in one run on this machine (the two ways
of generating interleaved, so that load drifts hit both alike); the ratios are
what to compare between machines.  This is not a test: it prints figures.

* training step = collate a batch + loss_and_grads (forward, cross-entropy,
  backward) + one Adam step, for the model of §7 on the mirror corpus and for a
  larger one, in float64 and float32;
* generation = greedy continuation of a 1-token prompt up to T tokens in all:
  with the per-layer KV cache (``Decoder.generate``, one new position per step)
  and without it (the full forward pass over the whole prefix at every step),
  reported as tokens per second, at T = 128 and 512.
"""

import argparse
import os
import statistics
import time

import numpy as np

from attention_cache import interleaved          # bench/ is on sys.path when this file is run as a script
from lib.data import BOS, build_vocab, collate
from lib.decoder import Adam, Decoder, read_mirror_corpus

TRAINING_STEPS = 300    # the whole §7 training run that main() times
TRAINING_TARGET = 20    # seconds, on 2 cores


def training_step(model, optimiser, texts, vocab, rng, batch_size):
    chosen = rng.choice(len(texts), size=batch_size, replace=False)
    inputs, targets = collate([texts[i] for i in chosen], vocab)
    _, grads = model.loss_and_grads(inputs, targets)
    optimiser.step(grads)


def training_rows(repeats):
    corpus = read_mirror_corpus()
    vocab = build_vocab(corpus)
    rng = np.random.default_rng(0)
    # a synthetic corpus of 128-character lines for the larger model
    letters = np.array(vocab[3:])
    long_texts = ["".join(rng.choice(letters, size=127)) for _ in range(64)]
    configs = [
        ("§7 mirror, B=32 T=8", dict(width=16, n_heads=2, n_layers=2), corpus, 8, 32),
        ("larger, B=8 T=128", dict(width=64, n_heads=4, n_layers=2), long_texts, 128, 8),
    ]
    print(f"{'training step':<24}{'D':>4}{'H':>3}{'L':>3}{'params':>8}"
          f"{'float64 ms':>12}{'float32 ms':>12}{'f64/f32':>9}")
    for name, sizes, texts, context, batch in configs:
        fns, count = [], 0
        for dtype in (np.float64, np.float32):
            model = Decoder.init(len(vocab), context, **sizes, seed=0, dtype=dtype)
            optimiser = Adam(model.params, lr=1e-3)
            step_rng = np.random.default_rng(1)
            fns.append(lambda m=model, o=optimiser, r=step_rng: training_step(m, o, texts, vocab, r, batch))
            count = model.parameter_count()
        f64, f32 = interleaved(fns, repeats)
        print(f"{name:<24}{sizes['width']:>4}{sizes['n_heads']:>3}{sizes['n_layers']:>3}{count:>8}"
              f"{f64 * 1e3:>12.2f}{f32 * 1e3:>12.2f}{f64 / f32:>9.2f}")
    steps = TRAINING_STEPS
    model = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
    optimiser, step_rng = Adam(model.params, lr=0.01), np.random.default_rng(1)
    start = time.perf_counter()
    for _ in range(steps):
        training_step(model, optimiser, corpus, vocab, step_rng, 32)
    print(f"the whole §7 training run ({steps} steps, float64): {time.perf_counter() - start:.2f} s   "
          f"target: <= {TRAINING_TARGET} s on 2 cores")


def generate_without_cache(model, prompt, n_new):
    ids = list(prompt)
    for _ in range(n_new):
        ids.append(int(np.argmax(model.forward(np.array(ids))[-1])))     # the full forward pass, every step
    return np.array(ids)


def generation_rows(repeats, lengths):
    model = Decoder.init(vocab_size=64, context_size=max(lengths), width=64, n_heads=4, n_layers=2, seed=0)
    print(f"\ngeneration, {model!r}")
    print(f"{'T':>6}{'no cache tok/s':>16}{'cache tok/s':>14}{'speed-up':>10}{'same tokens':>13}")
    prompt = np.array([BOS])
    for T in lengths:
        n_new = T - 1                                                     # prompt + n_new = T tokens
        model.generate(prompt, 2)                                         # warm-up
        slow, fast = [], []
        for _ in range(repeats if T <= 128 else 1):                       # without the cache, T = 512 takes long
            start = time.perf_counter()
            without = generate_without_cache(model, prompt, n_new)
            slow.append(time.perf_counter() - start)
            start = time.perf_counter()
            cached = model.generate(prompt, n_new)
            fast.append(time.perf_counter() - start)
        same = np.array_equal(without, cached)
        slow_s, fast_s = statistics.median(slow), statistics.median(fast)
        print(f"{T:>6}{n_new / slow_s:>16.0f}{n_new / fast_s:>14.0f}{slow_s / fast_s:>10.1f}{str(same):>13}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=5, help="measurements per figure (median)")
    parser.add_argument("--lengths", type=int, nargs="+", default=[128, 512], help="generation lengths T")
    args = parser.parse_args(argv)
    threads = os.environ.get("OPENBLAS_NUM_THREADS", "default")
    print(f"numpy {np.__version__}, OPENBLAS_NUM_THREADS={threads}, {os.cpu_count()} CPUs")
    training_rows(args.repeats)
    generation_rows(args.repeats, args.lengths)


if __name__ == "__main__":
    main()
