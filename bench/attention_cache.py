"""Benchmark: lib's blocked causal attention against torch SDPA and a naive NumPy attention, and the KV-cache speedup.

    make bench            (or: python bench/attention_cache.py [--repeats N] [--gap SECONDS])

"lib" is fast_causal_attention of bench/fast_attention.py (the blocked form of §5.9 on
every core, with lib's checks; it explains its threads and savings); "lib, no skip" is the same
with skip_future=False, every key tile computed and then masked.  Targets, on
float32 inputs with 2 cores: lib/torch <= 1.0 at (1, 8, 1024, 64) and <= 1.2 at
(4, 8, 256, 32), on AVX2 machines as well as AVX-512 ones.  On an AVX-512
machine the run ends by timing lib and torch again, each alone, in a second
process on the AVX2 path: NumPy's dispatch capped below AVX-512 and OpenBLAS on
its Haswell kernels, the configuration of tools/numeric_configs.py capped at
X86_V3, haswell-avx2-2threads (NPY_DISABLE_CPU_FEATURES=X86_V4
OPENBLAS_CORETYPE=Haswell, and its two BLAS threads), and
torch capped the same way with its own switches (ATEN_CPU_CAPABILITY=avx2
MKL_ENABLE_INSTRUCTIONS=AVX2), as it would run on an AVX2 machine.  A third
process times the AVX2 path again with torch on its AVX-512 kernels, a ratio
that is if anything too high.  A table puts the ratios side by side.

Each path also times lib and torch on one core each: every process confined
to one core, its BLAS and torch to one thread, so that lib computes on the
calling thread only.  The ratio there is what the arithmetic costs (products,
exp and the passes in between); the speedup of each from one core to all of
them is what its threads gain.  torch's OpenMP threads run C++ throughout;
lib checks its inputs on the calling thread alone before the blocks start,
and its threads take turns at Python's interpreter lock between NumPy calls
(a thread that finds it taken sleeps until it is woken).

The last table splits lib's one-core time further: the products its blocks
compute and one exp per score, each timed alone on one core, by NumPy and by
torch's libraries on the same memory; the rest is lib's other passes, its
checks and Python.  The floor is NumPy's products and exps shared perfectly
among the cores: lib on all cores takes at least that.  Where the floor is
above the target times torch, no threading of these blocks can meet it.

Everything is measured side by side in one run on this machine, in two ways.

Each alone (the figure the target is about): every implementation runs in a
process of its own, as it would in a program that uses only it, and the
processes take turns, round after round: a burst of calls each (the first
0.05 s, which wake the process's threads, are not timed).  The median over all
timed calls is printed, so load drifts hit all alike, and no implementation is
timed while another one's threads still hold the cores.

Interleaved in one process: the functions are called in turn, round after
round, after a warm-up; the median, the fastest round and the median CPU time
of the process (all threads) are printed.  Back to back, a function can be
timed while the threads of the one before it still spin on the cores
(OpenBLAS's pool after the naive version's large products, torch's OpenMP team
after torch), which slows it down; the order of the calls then decides who
pays.  ``--gap 0.2`` sleeps before each timed call, so that each starts on
idle cores (and, on a virtual machine, on cores that may first have to wake).
These figures show how much the neighbours matter; they are not the target's.

This is not a test: it prints figures and the targets they are compared with.

Timing inside a notebook (§5.8, the cache against the full forward pass) is
simpler and cruder: each case runs once to warm up, then a few times, and the
shortest time is kept (interference can only make a run slower, never faster),
with BLAS pinned to one thread by threadpoolctl, so that the result does not
depend on how many threads BLAS starts for a given matrix size and depends
less on whatever else the machine runs.  Its table is not compared by the
tests; only ratios that hold on any machine are asserted.

FLOP counts (one multiply-add = 2 FLOPs; q k^T and weights @ v together):

* full   4 B H Tq Tk d: the whole (Tq, Tk) table, what the loop-free
         definition and the naive version compute;
* causal 4 B H A d with A = the allowed entries (about half of the table):
         the least any method must compute.

GFLOP/s is printed both ways; the fraction is of this machine's float32
matrix-product rate, measured here on one large product.

Before and after a change (``--before REV``, e.g. ``--before main``): only the
first table, lib against torch each alone, with a third column: lib's
fast_causal_attention as the git revision REV held it, loaded from git into a
temporary package of its own (lib/ at REV, so its own checks and helpers; in
REV's lib/blocked.py, or bench/fast_attention.py at REV beside REV's lib/).
The three take turns in the same rounds, on this machine's own path and, on an
AVX-512 machine, on the AVX2 path, so before/torch and after/torch are
measured side by side under the same load.
"""

import argparse
import atexit
import importlib
import json
import math
import multiprocessing
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import traceback

import numpy as np
import threadpoolctl

from lib.blocked import BLOCK, attention_work
from fast_attention import LONG_KEYS, fast_causal_attention
from lib.model import AttentionModel

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHAPES = [(1, 8, 1024, 64), (4, 8, 256, 32)]
TARGETS = {(1, 8, 1024, 64): 1.0, (4, 8, 256, 32): 1.2}     # lib/torch, each alone
CACHE_SPEEDUP_TARGET = 20                  # full pass / one cache step, at least, at T = 1024


def interleaved(fns, repeats, warmup=2, fastest=False, gap=0.0):
    """Median seconds of each function, called in alternation so that load drifts hit all alike.

    ``gap`` seconds of sleep before each timed call let the threads the previous function left
    spinning (OpenBLAS's pool, torch's OpenMP team) go idle first, so that no function is timed
    while another one's threads still hold the cores.

    With ``fastest=True``: (medians, minima, CPU medians).  Load can only make a run slower,
    so the minimum is the figure closest to a quiet machine; the CPU time of this process
    (all its threads, ``time.process_time``) hardly depends on other processes at all."""
    for _ in range(warmup):
        for fn in fns:
            fn()
    times, cpu = [[] for _ in fns], [[] for _ in fns]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            if gap:
                time.sleep(gap)
            start, start_cpu = time.perf_counter(), time.process_time()
            fn()
            times[i].append(time.perf_counter() - start)
            cpu[i].append(time.process_time() - start_cpu)
    medians = [statistics.median(t) for t in times]
    if not fastest:
        return medians
    return medians, [min(t) for t in times], [statistics.median(t) for t in cpu]


def lib_at(rev):
    """fast_causal_attention as git revision ``rev`` held it: REV's lib/ written from git (``git show``)
    into a temporary package, lib_at_REV, removed at exit, with REV's bench/fast_attention.py beside it
    if REV has one (then it imports that package as lib).  Nothing of REV is committed here."""
    def show(path):
        return subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT, capture_output=True, text=True,
                              check=True, timeout=60).stdout

    folder = pathlib.Path(tempfile.mkdtemp(prefix="lib-at-rev-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    names = subprocess.run(["git", "ls-tree", "--name-only", rev, "lib/"], cwd=ROOT, capture_output=True,
                           text=True, check=True, timeout=60).stdout.split()
    package = "lib_at_" + re.sub(r"\W", "_", rev)
    (folder / package).mkdir()
    for name in names:
        if name.endswith(".py"):
            (folder / package / pathlib.Path(name).name).write_text(show(name), encoding="utf-8")
    sys.path.insert(0, str(folder))
    blocked = importlib.import_module(f"{package}.blocked")
    if hasattr(blocked, "fast_causal_attention"):
        return blocked.fast_causal_attention
    text = show("bench/fast_attention.py")
    text = text.replace("from lib ", f"from {package} ").replace("from lib.", f"from {package}.")
    (folder / f"fast_attention_{package}.py").write_text(text, encoding="utf-8")
    return importlib.import_module(f"fast_attention_{package}").fast_causal_attention


def attention_functions(shape, with_torch=True, before=None):
    """{name: function of no arguments} for float32 inputs of ``shape`` (seed 0); "torch" if it is installed
    and ``with_torch`` (a process that times a NumPy implementation alone does not even import torch);
    "lib@REV" if ``before`` is REV (:func:`lib_at`)."""
    rng = np.random.default_rng(0)
    q, k, v = (rng.standard_normal(shape, dtype=np.float32) for _ in range(3))
    fns = {"lib": lambda: fast_causal_attention(q, k, v), "naive": lambda: naive_attention(q, k, v),
           "lib, no skip": lambda: fast_causal_attention(q, k, v, skip_future=False)}
    if before is not None:
        old = lib_at(before)
        fns[f"lib@{before}"] = lambda: old(q, k, v)
    if not with_torch:
        return fns
    try:
        import torch
    except ImportError:
        return fns
    tq, tk, tv = (torch.from_numpy(a) for a in (q, k, v))
    sdpa = torch.nn.functional.scaled_dot_product_attention
    fns["torch"] = lambda: sdpa(tq, tk, tv, is_causal=True)
    return fns


def check_agreement(fns):
    """Every NumPy implementation gives torch's numbers (the naive version's without torch)."""
    expected = np.asarray(fns["torch"]() if "torch" in fns else fns["naive"]())
    for name in ("lib", "naive", "lib, no skip"):
        assert np.allclose(fns[name](), expected, atol=2e-5), f"{name} disagrees"


def lib_block(keys):
    """Queries per block in fast_attention.fast_causal_attention with ``keys`` keys (its rule: BLOCK, and
    2 * BLOCK from LONG_KEYS keys on)."""
    return BLOCK if keys < LONG_KEYS else 2 * BLOCK


ARITHMETIC = ("products, NumPy", "exp, NumPy", "products, torch", "exp, torch")   # block_arithmetic's names


def block_arithmetic(shape, with_torch=True):
    """{name in ARITHMETIC: function of no arguments}: the arithmetic of lib's blocks at ``shape`` (float32,
    seed 0) and nothing else.  "products": every product fast_attention's blocks compute, in the blocks it makes
    (BLOCK queries, 2 * BLOCK from LONG_KEYS keys on; each against the keys its last query may read), all
    (batch, head) rows in one call per block: k times the scaled q block transposed into a (keys, queries)
    table, then that table transposed times v, by NumPy (OpenBLAS) or by torch (its own BLAS) on the same
    memory.  "exp": one exp per score of those tables, by NumPy or by torch.  Without ``with_torch`` (or
    torch) only the NumPy two.  Whatever lib does besides, it does on top of these.  Each function returns
    what it wrote: the products the (N, b, d) result of each block, exp the (N, keys, b) weights."""
    B, H, T, d = shape
    n, block = B * H, lib_block(T)
    rng = np.random.default_rng(0)
    k, v = (rng.standard_normal((n, T, d), dtype=np.float32) for _ in range(2))                  # (N, T, d)
    q_t = (rng.standard_normal((n, d, block), dtype=np.float32) / np.float32(math.sqrt(d)))      # (N, d, block)
    blocks = [(start, min(start + block, T)) for start in range(0, T, block)]    # queries start..stop-1
    tables = [np.empty((n, stop, stop - start), dtype=np.float32) for start, stop in blocks]     # (N, keys, b)
    outs = [np.empty((n, stop - start, d), dtype=np.float32) for start, stop in blocks]          # (N, b, d)
    scores = [rng.uniform(-8, 0, table.shape).astype(np.float32) for table in tables]  # as after the shift
    weights = [np.empty_like(table) for table in tables]

    arrays = (k, v, q_t, tables, outs, scores, weights)

    def parts(library, arrays_of_library):
        # the products and the exps by `library` (numpy or torch) on `arrays` (or torch's views of them);
        # each returns the NumPy arrays it wrote
        k, v, q_t, tables, outs_written, scores, weights_written = arrays_of_library

        def products():
            for (start, stop), table, out in zip(blocks, tables, outs_written):
                library.matmul(k[:, :stop], q_t[:, :, :stop - start], out=table)
                library.matmul(table.swapaxes(1, 2), v[:, :stop], out=out)
            return outs

        def exp():
            for x, y in zip(scores, weights_written):
                library.exp(x, out=y)
            return weights
        return products, exp

    fns = dict(zip(ARITHMETIC[:2], parts(np, arrays)))
    if not with_torch:
        return fns
    try:
        import torch
    except ImportError:
        return fns
    views = [torch.from_numpy(a) if isinstance(a, np.ndarray) else [torch.from_numpy(b) for b in a] for a in arrays]
    return {**fns, **dict(zip(ARITHMETIC[2:], parts(torch, views)))}


def benchmark_function(name, shape):
    """The function of no arguments that the name times: an attention (:func:`attention_functions`) or a
    part of lib's arithmetic (:func:`block_arithmetic`).  Only a process that times torch imports it."""
    if name in ARITHMETIC:
        return block_arithmetic(shape, with_torch="torch" in name)[name]
    before = name.partition("@")[2] or None
    return attention_functions(shape, with_torch=name == "torch", before=before)[name]


def timed_burst(fn, seconds, warmup):
    """Times of the calls of fn made in ``seconds`` (at least 3), after ``warmup`` seconds of untimed calls
    (they wake the threads fn uses, and let those of whatever ran before go idle)."""
    start = time.perf_counter()
    fn()
    while time.perf_counter() - start < warmup:
        fn()
    times, start = [], time.perf_counter()
    while len(times) < 3 or time.perf_counter() - start < seconds:
        before = time.perf_counter()
        fn()
        times.append(time.perf_counter() - before)
    return times


def in_bursts(fns, rounds, burst=0.25, warmup=0.05):
    """Median seconds per call of each function, in one process: ``rounds`` rounds, each a burst of
    every function in turn (see :func:`timed_burst`)."""
    times = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            times[i] += timed_burst(fn, burst, warmup)
    return [statistics.median(t) for t in times]


CAN_PIN = hasattr(os, "sched_setaffinity")   # whether this OS can confine a process to one core


def pin_to_one_core():
    """Confine this process to one core (the first it may use) and its BLAS, and torch if imported, to one
    thread: fast_attention then computes on the calling thread only.  RuntimeError where the OS cannot (CAN_PIN)."""
    if not CAN_PIN:
        raise RuntimeError("this OS cannot confine a process to one core (no os.sched_setaffinity)")
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    threadpoolctl.threadpool_limits(1)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)


def confinement():
    """(cores this process may use, [threads of each BLAS library]): what pin_to_one_core leaves."""
    blas = [lib["num_threads"] for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"]
    return len(os.sched_getaffinity(0)), blas


def _pin_and_report(connection):
    """In a spawned process (tests/test_bench.py): pin_to_one_core, then send ("answer", cores, blas),
    or ("error", the traceback, None); spawned by name from this module, which imports nothing of the tests."""
    try:
        pin_to_one_core()
        connection.send(("answer", *confinement()))
    except BaseException:
        connection.send(("error", traceback.format_exc(), None))
    finally:
        connection.close()


def _serve(connection, name, shape, warmup, one_core):
    """In a process of its own: answer each request of ``seconds`` with timed_burst of one implementation
    (with ``one_core``, confined to one core by :func:`pin_to_one_core`)."""
    fn = benchmark_function(name, shape)
    if one_core:
        pin_to_one_core()
    fn()
    connection.send("ready")
    while (seconds := connection.recv()) is not None:
        connection.send(timed_burst(fn, seconds, warmup))


def each_alone(names, shape, rounds, burst=0.25, warmup=0.05, one_core=False):
    """Median seconds per call of each implementation, each in its own process, the processes taking
    turns: ``rounds`` bursts each of ``warmup`` seconds of untimed calls, then ``burst`` seconds of
    timed ones.  Within a burst an implementation runs as in a program that uses only it.
    ``one_core``: every process confined to one core and one thread (:func:`pin_to_one_core`)."""
    context = multiprocessing.get_context("spawn")             # a fresh interpreter: no threads inherited
    workers = {}
    try:
        for name in names:
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, name, shape, warmup, one_core), daemon=True)
            process.start()
            workers[name] = (ours, process)
        for ours, _ in workers.values():
            assert ours.recv() == "ready"
        times = {name: [] for name in names}
        for _ in range(rounds):
            for name, (ours, _) in workers.items():
                ours.send(burst)
                times[name] += ours.recv()
        return {name: statistics.median(t) for name, t in times.items()}
    finally:
        # Ask every worker to stop, then wait for each: a killed process is reaped too (join), so
        # none is left running or unreaped, however slowly a loaded machine lets them exit.
        for ours, process in workers.values():
            if process.is_alive():
                try:
                    ours.send(None)
                except OSError:                                # it has already gone
                    pass
        for ours, process in workers.values():
            process.join(60)
            if process.is_alive():
                process.kill()
                process.join()


def naive_attention(q, k, v):
    """The attention most tutorials write: the whole score matrix, an additive -inf mask, a full softmax."""
    tq, tk = q.shape[-2], k.shape[-2]
    scores = q @ np.swapaxes(k, -1, -2) / math.sqrt(q.shape[-1])        # (B, H, Tq, Tk); float32 stays float32
    mask = np.triu(np.full((tq, tk), -np.inf, dtype=q.dtype), k=tk - tq + 1)   # 0 where allowed, -inf in the future
    scores = scores + mask
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return weights @ v


def matmul_rate(repeats):
    """This machine's float32 matrix-product rate in GFLOP/s: (1024, 1024) @ (1024, 1024), median."""
    rng = np.random.default_rng(1)
    a, b = (rng.standard_normal((1024, 1024), dtype=np.float32) for _ in range(2))
    out = np.empty_like(a)
    (seconds,) = interleaved([lambda: np.matmul(a, b, out=out)], repeats)
    return 2 * 1024**3 / seconds / 1e9


def exp_rates(torch):
    """Nanoseconds per float32 exp on 2**18 scores in [-8, 0], NumPy and (if present) torch: one exp per
    computed score is the part of attention that is not a matrix product, and torch's fused kernel has a
    faster vectorised exp than NumPy's on many CPUs.  Each is timed in a burst of its own (median), after
    a pause in which the threads of whatever ran before go idle: OpenBLAS's pool spins for about 0.1 s
    after a product (timed right after matmul_rate, torch's exp once took 21 ns per element, not 0.1)."""
    x = np.random.default_rng(2).uniform(-8, 0, 1 << 18).astype(np.float32)
    out = np.empty_like(x)
    fns = [lambda: np.exp(x, out=out)]
    if torch is not None:
        tx, tout = torch.from_numpy(x), torch.from_numpy(np.empty_like(x))
        fns.append(lambda: torch.exp(tx, out=tout))
    rates = []
    for fn in fns:
        time.sleep(0.3)
        rates.append(statistics.median(timed_burst(fn, 0.25, warmup=0.05)) / x.size * 1e9)
    return rates


def cpu_model():
    """The processor's name (/proc/cpuinfo), which every ratio depends on."""
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith(("model name", "Model")):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def environment():
    blas = {name: os.environ.get(name) for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"
    print(f"CPU: {cpu_model()}")
    print(f"python {platform.python_version()}, numpy {np.__version__}, {cores} cores, load average {load}")
    print(f"BLAS thread variables: {', '.join(f'{k}={v}' for k, v in blas.items() if v) or 'none set (defaults)'}")


def attention_rows(repeats, torch, gap):
    rate = matmul_rate(repeats)
    print(f"float32 matmul (1024^3): {rate:.0f} GFLOP/s on this machine (the 100 % below)")
    exps = exp_rates(torch)
    print(f"float32 exp: NumPy {exps[0]:.2f} ns" + (f", torch {exps[1]:.2f} ns" if len(exps) > 1 else "")
          + " per element, each in a burst of its own (attention needs one per computed score)")
    print(f"lib: blocks of {BLOCK} queries ({2 * BLOCK} from {LONG_KEYS} keys on), each against the keys its last"
          " query may read (later ones skipped), taken from one queue by the calling thread and one more thread per"
          " further core\n")
    names = ["lib", "naive", "lib, no skip"] + (["torch"] if torch is not None else [])
    alone = {}
    print(f"{'each alone':<20}{'lib ms':>9}{'torch ms':>10}{'naive ms':>10}{'lib/torch':>11}{'naive/torch':>13}"
          f"{'lib/naive':>11}   target: lib/torch <= {TARGETS[SHAPES[0]]}, <= {TARGETS[SHAPES[1]]}")
    print(f"(each in its own process, the processes taking turns: {repeats} bursts each of 0.05 s of untimed calls,"
          " then 0.25 s of timed ones; median over all timed calls)")
    functions = {shape: attention_functions(shape) for shape in SHAPES}
    for shape, fns in functions.items():
        check_agreement(fns)
        alone[shape] = medians = each_alone(names, shape, repeats)
        ours, naive, theirs = medians["lib"], medians["naive"], medians.get("torch", float("nan"))
        verdict = "met" if ours / theirs <= TARGETS[shape] else "NOT met" if theirs == theirs else ""
        print(f"{str(shape):<20}{ours * 1e3:>9.2f}{theirs * 1e3:>10.2f}{naive * 1e3:>10.2f}{ours / theirs:>11.2f}"
              f"{naive / theirs:>13.2f}{ours / naive:>11.2f}   {verdict}")

    print(f"\n{'interleaved':<20}{'':<8}{'lib ms':>9}{'torch ms':>10}{'naive ms':>10}"
          f"{'lib/torch':>11}{'naive/torch':>13}{'lib/naive':>11}")
    print("(in one process: median and min of the wall-clock times of interleaved rounds; CPU: median CPU time"
          " of all threads" + (f"; {gap} s of sleep before each timed call)" if gap else ")"))
    for shape, fns in functions.items():
        medians, minima, cpu = interleaved([fns[name] for name in names], repeats, fastest=True, gap=gap)
        for label, times in (("median", medians), ("min", minima), ("CPU", cpu)):
            ours, naive = times[0], times[1]
            theirs = times[3] if torch is not None else float("nan")
            print(f"{str(shape) if label == 'median' else '':<20}{label:<8}{ours * 1e3:>9.2f}{theirs * 1e3:>10.2f}"
                  f"{naive * 1e3:>10.2f}{ours / theirs:>11.2f}{naive / theirs:>13.2f}{ours / naive:>11.2f}")
    rows = [(shape, m["lib"], m.get("torch", float("nan")), m["naive"], m["lib, no skip"])
            for shape, m in alone.items()]

    print(f"\n{'GFLOP/s, each alone (of matmul)':<30}{'count':<8}{'lib':>16}{'torch':>16}{'naive':>16}")
    for shape, ours, theirs, naive, _ in rows:
        B, H, T, d = shape
        work = attention_work(T, T)
        for label, entries in (("full", work.total), ("causal", work.allowed)):
            flops = 4 * B * H * entries * d
            cells = "".join(f"{flops / t / 1e9:>9.1f} ({flops / t / 1e9 / rate:>4.0%})" for t in (ours, theirs, naive))
            print(f"{str(shape):<30}{label:<8}{cells}")

    print(f"\n{'the mask saves work':<20}{'computed':>10}{'skip ms':>10}{'all ms':>9}{'skip/all':>10}"
          "   (lib with and without skipping the keys in the future of a whole block, each alone)")
    for shape, ours, _, _, everything in rows:
        T = shape[2]
        fraction = attention_work(T, T, block=lib_block(T)).fraction
        print(f"{str(shape):<20}{fraction:>10.1%}{ours * 1e3:>10.2f}{everything * 1e3:>9.2f}{ours / everything:>10.2f}")
    if torch is not None:
        for shape, medians in one_core_medians(repeats).items():
            alone[shape].update(medians)
        core_by_core(alone)
    return alone


def one_core_medians(repeats):
    """{shape: {"lib, one core": s, "torch, one core": s, name: s for name in ARITHMETIC}}: lib, torch and the
    parts of lib's arithmetic (:func:`block_arithmetic`) each alone, each confined to one core, all taking turns
    in the same rounds (so that a drift of load hits lib and its parts alike); {} where this OS cannot confine a
    process."""
    if not CAN_PIN:
        return {}
    medians = {}
    for shape in SHAPES:
        m = each_alone(["lib", "torch", *ARITHMETIC], shape, repeats, one_core=True)
        medians[shape] = {f"{name}, one core" if name in ("lib", "torch") else name: t for name, t in m.items()}
    return medians


def core_by_core(alone):
    """Where lib/torch comes from: the one-core medians in ``alone`` (:func:`one_core_medians`) beside the
    figures on all cores.  The one-core ratio is what the arithmetic costs (products, exp, the passes in
    between); the speedups show what each gains from the further cores (lib: see the module's notes)."""
    if not CAN_PIN:
        print("\n(one-core figures need os.sched_setaffinity, which this OS lacks)")
        return
    print(f"\n{'one core each':<20}{'lib ms':>9}{'torch ms':>10}{'lib/torch':>11}{'lib speedup':>14}"
          f"{'torch speedup':>15}   (speedup: one core -> {len(os.sched_getaffinity(0))} cores, from the first table)")
    for shape in SHAPES:
        lib, torch = alone[shape]["lib, one core"], alone[shape]["torch, one core"]
        print(f"{str(shape):<20}{lib * 1e3:>9.2f}{torch * 1e3:>10.2f}{lib / torch:>11.2f}"
              f"{lib / alone[shape]['lib']:>14.2f}{torch / alone[shape]['torch']:>15.2f}")


# torch's own switches for the same cap: ATen's kernels and MKL's products on AVX2 code, as on an AVX2 machine
TORCH_ON_AVX2 = {"ATEN_CPU_CAPABILITY": "avx2", "MKL_ENABLE_INSTRUCTIONS": "AVX2"}


def avx2_environment():
    """The environment of a process on the AVX2 path (tools/numeric_configs.py's configuration capped at
    X86_V3, haswell-avx2-2threads), or None when NumPy dispatches no AVX-512 code here: then this process
    is on that path already."""
    from numpy._core._multiarray_umath import __cpu_features__      # what NumPy dispatches to

    if not __cpu_features__.get("X86_V4"):
        return None
    sys.path.insert(0, str(ROOT))
    from tools.numeric_configs import X86_CONFIGS

    (config,) = (c for c in X86_CONFIGS.values() if c.numpy_highest == "X86_V3")
    return {**os.environ, **config.env()}


def both_paths(alone, repeats, torch):
    """lib/torch each alone on this machine's own path and, on an AVX-512 machine, on the AVX2 path:
    once with torch on AVX2 code as well (as on an AVX2 machine), once with torch on its own kernels."""
    env = avx2_environment()
    own = "own path (AVX2)" if env is None else "own path (AVX-512)"
    paths = {own: alone}
    if env is not None and torch is not None:
        for name, extra in (("AVX2 path", TORCH_ON_AVX2), ("AVX2 path, torch AVX-512", {})):
            run = subprocess.run([sys.executable, __file__, "--lib-and-torch-alone", "--repeats", str(repeats)],
                                 env={**env, **extra}, capture_output=True, text=True, check=True, timeout=3600)
            paths[name] = {tuple(json.loads(shape)): m for shape, m in json.loads(run.stdout).items()}
    print(f"\n{'lib/torch, each alone':<20}" + "".join(f"{name:>30}" for name in paths)
          + f"   target: <= {TARGETS[SHAPES[0]]}, <= {TARGETS[SHAPES[1]]}")
    print(f"{'':<20}" + f"{'lib ms':>10}{'torch ms':>10}{'lib/torch':>10}" * len(paths))
    one_core = all("lib, one core" in m[shape] for m in paths.values() for shape in SHAPES)
    for suffix in ("", ", one core") if one_core else ("",):
        if suffix:
            print("on one core each")
        for shape in SHAPES:
            times = [(m[shape]["lib" + suffix], m[shape].get("torch" + suffix, math.nan)) for m in paths.values()]
            print(f"{str(shape):<20}" + "".join(f"{ours * 1e3:>10.2f}{theirs * 1e3:>10.2f}{ours / theirs:>10.2f}"
                                                for ours, theirs in times))
    if env is None:
        print("(NumPy dispatches no AVX-512 code on this machine: its own path is the AVX2 one)")
    elif len(paths) > 1:
        print("(AVX2 path: NumPy capped below AVX-512 and OpenBLAS on its Haswell kernels; torch too, with "
              + ", ".join(f"{k}={v}" for k, v in TORCH_ON_AVX2.items())
              + ", as on an AVX2 machine.  The last column lets torch keep its AVX-512 kernels.)")
    if one_core:                                                # one_core_medians times the parts too
        arithmetic_table(paths)


def arithmetic_table(paths):
    """lib on one core split into its blocks' products and exps (:func:`block_arithmetic`) and the rest, the
    same products and exps by torch's libraries, and the floor: lib's products and exps shared perfectly
    among this machine's cores, against torch on all of them.  ``paths``: {path: {shape: medians}}."""
    cores = len(os.sched_getaffinity(0))
    print(f"\n{'lib on one core, ms':<28}{'products':>9}{'exp':>7}{'rest':>7}{'lib':>8}   {'products':>9}{'exp':>7}"
          f"   {'floor':>7}{'torch':>7}{'floor/torch':>12}")
    print(f"{'':<28}{'NumPy':>9}{'NumPy':>7}{'':>7}{'':>8}   {'torch':>9}{'torch':>7}   {'ms':>7}{'ms':>7}")
    for path, medians in paths.items():
        print(path)
        for shape in SHAPES:
            m = {name: t * 1e3 for name, t in medians[shape].items()}
            floor = (m["products, NumPy"] + m["exp, NumPy"]) / cores
            rest = m["lib, one core"] - m["products, NumPy"] - m["exp, NumPy"]
            print(f"  {str(shape):<26}{m['products, NumPy']:>9.2f}{m['exp, NumPy']:>7.2f}{rest:>7.2f}"
                  f"{m['lib, one core']:>8.2f}   {m['products, torch']:>9.2f}{m['exp, torch']:>7.2f}"
                  f"   {floor:>7.2f}{m['torch']:>7.2f}{floor / m['torch']:>12.2f}")
    print(f"(products and exp: every product lib's blocks compute and one exp per score, alone, one core each; rest:"
          f" lib's other passes,\n checks and Python.  floor: NumPy's products and exps shared perfectly among {cores}"
          " cores, against torch on all of them:\n lib on all cores takes at least that, with its rest and its waits"
          " on top.  Where floor/torch is above the target,\n no threading of these blocks meets it; only faster"
          " products or exp, or fewer of them, can.)")


def cache_rows(repeats):
    rounds = max(3, repeats // 3)
    print(f"\n{'cache, D=64 H=4 f32':<22}{'full ms':>10}{'step ms':>10}{'speedup':>8}"
          f"   target >= {CACHE_SPEEDUP_TARGET} at T=1024")
    print(f"(in one process, {rounds} rounds of a 0.25 s burst of each after 0.05 s untimed; median:"
          " as in generation, where steps follow steps)")
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

        full, step = in_bursts([lambda: model.forward(ids[:T + 1]), one_step], rounds)
        print(f"{'T=' + str(T):<22}{full * 1e3:>10.3f}{step * 1e3:>10.3f}{full / step:>8.1f}")


def alone_before(rev, repeats):
    """{shape: medians} of lib, lib@REV and torch each alone, taking turns in the same rounds."""
    return {shape: each_alone(["lib", f"lib@{rev}", "torch"], shape, repeats) for shape in SHAPES}


def before_and_after(rev, repeats):
    """lib/torch now and at ``rev``, each alone, side by side: on this machine's own path and, on an
    AVX-512 machine, on the AVX2 path (NumPy, OpenBLAS and torch all capped at AVX2)."""
    fns = attention_functions(SHAPES[1], before=rev)
    np.testing.assert_allclose(fns[f"lib@{rev}"](), fns["lib"](), atol=2e-5)     # the same numbers
    env = avx2_environment()
    paths = {"own path (AVX2)" if env is None else "own path (AVX-512)": alone_before(rev, repeats)}
    if env is not None:
        run = subprocess.run([sys.executable, __file__, "--before", rev, "--repeats", str(repeats), "--json"],
                             env={**env, **TORCH_ON_AVX2}, capture_output=True, text=True, check=True,
                             timeout=3600)
        paths["AVX2 path"] = {tuple(json.loads(shape)): m for shape, m in json.loads(run.stdout).items()}
    print(f"\nlib now and at {rev}, each alone against torch ({cpu_model()}; {repeats} rounds, the three taking"
          f" turns; median over all timed calls)")
    print(f"{'path':<22}{'shape':<20}{'now ms':>9}{'before ms':>11}{'torch ms':>10}{'now/torch':>11}"
          f"{'before/torch':>14}{'now/before':>12}")
    for path, alone in paths.items():
        for shape in SHAPES:
            now, old, theirs = alone[shape]["lib"], alone[shape][f"lib@{rev}"], alone[shape]["torch"]
            print(f"{path:<22}{str(shape):<20}{now * 1e3:>9.2f}{old * 1e3:>11.2f}{theirs * 1e3:>10.2f}"
                  f"{now / theirs:>11.2f}{old / theirs:>14.2f}{now / old:>12.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=21, help="rounds per measurement (the median is printed)")
    parser.add_argument("--gap", type=float, default=0.0,
                        help="seconds of sleep before each timed attention call (default 0: back to back)")
    parser.add_argument("--lib-and-torch-alone", action="store_true",
                        help="only time lib and torch each alone and print the medians as JSON (for the AVX2 path)")
    parser.add_argument("--before", metavar="REV",
                        help="only lib now against lib at git revision REV and torch, each alone, on both paths")
    parser.add_argument("--json", action="store_true", help="with --before: print the medians as JSON (AVX2 path)")
    args = parser.parse_args()
    if args.gap < 0:
        parser.error(f"--gap must be 0 or more seconds, got {args.gap}")
    if args.before and args.json:                               # the second process of before_and_after
        alone = alone_before(args.before, args.repeats)
        print(json.dumps({json.dumps(shape): m for shape, m in alone.items()}))
        return
    if args.before:
        environment()
        before_and_after(args.before, args.repeats)
        return
    if args.lib_and_torch_alone:                                # the second process of both_paths
        one_core = one_core_medians(args.repeats)
        alone = {shape: each_alone(["lib", "torch"], shape, args.repeats) for shape in SHAPES}
        print(json.dumps({json.dumps(shape): {**alone[shape], **one_core.get(shape, {})} for shape in SHAPES}))
        return
    environment()
    try:
        import torch
        print(f"torch {torch.__version__}, {torch.get_num_threads()} threads")
    except ImportError:
        torch = None
        print("torch is not installed: its column is nan (pip install torch==2.13.0)")
    alone = attention_rows(args.repeats, torch, args.gap)
    both_paths(alone, args.repeats, torch)
    cache_rows(args.repeats)


if __name__ == "__main__":
    main()
