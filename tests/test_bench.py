"""The benchmark's measuring helpers work (smoke test: figures are `make bench`'s business, not the tests')."""

import importlib
import multiprocessing
import os
import pathlib

import numpy as np
import pytest

from conftest import require_or_skip, slowdown, unavailable

ROOT = pathlib.Path(__file__).resolve().parent.parent
ANSWER_WITHIN = 60                  # seconds for a spawned child to import NumPy and the bench, and pin itself


def load_bench(monkeypatch):
    # bench/ on sys.path, as when the file runs as a script: the spawned workers import it by name
    monkeypatch.syspath_prepend(str(ROOT / "bench"))
    return importlib.import_module("attention_cache")


def test_each_alone_times_every_implementation_in_a_process_of_its_own(monkeypatch):
    bench = load_bench(monkeypatch)
    shape = (1, 2, 80, 8)
    fns = bench.attention_functions(shape)
    bench.check_agreement(fns)
    for name in ("lib", "lib, no skip"):
        np.testing.assert_allclose(fns[name](), fns["naive"](), atol=2e-5)
    medians = bench.each_alone(["lib", "naive"], shape, rounds=2, burst=0.02, warmup=0.01)
    assert set(medians) == {"lib", "naive"} and all(0 < t < 1 for t in medians.values())
    assert not multiprocessing.active_children()              # every worker process has been stopped


def test_in_bursts_gives_one_median_per_function(monkeypatch):
    bench = load_bench(monkeypatch)
    calls = []
    medians = bench.in_bursts([lambda: calls.append(1), lambda: None], rounds=2, burst=0.01, warmup=0.0)
    assert len(medians) == 2 and all(t >= 0 for t in medians)
    assert len(calls) >= 2 * 3                                 # at least 3 timed calls per burst


def test_each_alone_on_one_core_times_every_implementation(monkeypatch):
    bench = load_bench(monkeypatch)
    if not bench.CAN_PIN:
        unavailable("this OS cannot confine a process to one core; the bench says so instead of timing")
    medians = bench.each_alone(["lib", "naive"], (1, 2, 80, 8), rounds=2, burst=0.02, warmup=0.01, one_core=True)
    assert set(medians) == {"lib", "naive"} and all(0 < t < 1 for t in medians.values())
    assert not multiprocessing.active_children()


def test_pin_to_one_core_leaves_one_core_and_one_blas_thread(monkeypatch):
    bench = load_bench(monkeypatch)
    if not bench.CAN_PIN:
        unavailable("this OS cannot confine a process to one core")
    context = multiprocessing.get_context("spawn")              # pins a child, never the test process
    ours, theirs = context.Pipe(duplex=False)
    process = context.Process(target=bench._pin_and_report, args=(theirs,))
    process.start()
    theirs.close()                  # the child holds the only writing end: if it dies, recv() ends at once
    try:
        if not ours.poll(ANSWER_WITHIN * slowdown()):
            pytest.fail(f"the pinned child gave no answer within {ANSWER_WITHIN} s (times the machine's load)")
        try:
            kind, cores, blas = ours.recv()
        except EOFError:
            process.join(10)
            pytest.fail(f"the pinned child ended without an answer (exit code {process.exitcode})")
    finally:
        process.join(10)
        if process.is_alive():
            process.kill()
            process.join()
    assert kind == "answer", f"the pinned child failed:\n{cores}"
    assert cores == 1 and blas and set(blas) == {1}, (cores, blas)


def test_block_arithmetic_makes_lib_s_products_and_exps_with_both_libraries(monkeypatch):
    bench = load_bench(monkeypatch)
    require_or_skip("torch", "lib's block arithmetic made by torch's libraries")
    for shape in ((1, 2, 80, 8), (2, 1, 600, 4)):              # blocks of BLOCK queries, then of 2 * BLOCK
        B, H, T, d = shape
        fns = bench.block_arithmetic(shape)
        assert set(fns) == set(bench.ARITHMETIC)
        block = bench.BLOCK if T < bench.LONG_KEYS else 2 * bench.BLOCK     # fast_attention's rule
        assert bench.lib_block(T) == block
        for kind in ("products", "exp"):
            written = fns[f"{kind}, NumPy"]()                 # NumPy's results, then NaN where torch must write
            ours = [a.copy() for a in written]
            for a in written:
                a.fill(np.nan)
            theirs = fns[f"{kind}, torch"]()
            for a, b in zip(ours, theirs):
                np.testing.assert_allclose(b, a, rtol=1e-4, atol=1e-4)
            if kind == "exp":                                 # one per score lib's blocks compute, every row
                assert sum(a.size for a in ours) == B * H * bench.attention_work(T, T, block=block).computed
            else:                                             # a result for every query, block by block
                assert [a.shape for a in ours] == [(B * H, min(start + block, T) - start, d)
                                                   for start in range(0, T, block)]


def test_block_arithmetic_without_torch_gives_numpy_s_two(monkeypatch):
    bench = load_bench(monkeypatch)
    fns = bench.block_arithmetic((1, 1, 64, 4), with_torch=False)
    assert set(fns) == {"products, NumPy", "exp, NumPy"}
    weights = bench.benchmark_function("exp, NumPy", (1, 1, 64, 4))()
    assert all(np.all((a > 0) & (a <= 1)) for a in weights)  # exp of scores in [-8, 0]


def test_lib_at_a_git_revision_is_loaded_from_git_and_computes_the_same(monkeypatch):
    """``--before REV`` times lib as revision REV held it, written from git into a temporary package
    of its own (here REV = HEAD, whose fast form lives in bench/fast_attention.py beside its lib/)."""
    import shutil
    import subprocess
    bench = load_bench(monkeypatch)
    if shutil.which("git") is None or subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                                                     timeout=30).returncode:
        unavailable("no git repository here: --before reads lib from git")
    monkeypatch.setattr("sys.path", list(__import__("sys").path))     # lib_at prepends its temporary folder
    fns = bench.attention_functions((1, 2, 80, 8), with_torch=False, before="HEAD")
    np.testing.assert_allclose(fns["lib@HEAD"](), fns["lib"](), atol=2e-5)
    loaded = __import__("sys").modules["lib_at_HEAD.blocked"].__file__
    assert not pathlib.Path(loaded).resolve().is_relative_to(ROOT)          # from git, not a copy in the tree
