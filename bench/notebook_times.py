"""Execution time of every chapter and solution notebook (targets: <= 10 s each, but
§7, the one that trains, <= 20 s, and §8, which trains on real text, <= 60 s; on 2 cores).

    python bench/notebook_times.py [--kinds chapters solutions] [--only 08_real_text] [--against DIR]

Each notebook runs in a fresh kernel in its folder's numerical configuration, as nbval
runs it (tools/numeric_configs.py: each language its OpenBLAS kernel, NumPy dispatch
and BLAS threads, printed beside the time); the time includes the kernel start.
Beside the wall time, the kernel's CPU time (user + system): on a shared machine the wall time
grows with the load, the CPU time much less.  ``--against DIR`` (another checkout, e.g. a
``git archive`` of main) runs DIR's copy of each notebook, with DIR's lib, right before this
one's, so that the two are measured side by side under the same load.
The two notebooks that train (§7, §8) also run once more in a plain kernel, with NumPy's and
OpenBLAS's own defaults for this CPU, as a learner's "Run all" runs them; the target applies to
both times.
A benchmark, not a test: it prints and never fails.
"""

import argparse
import os
import pathlib
import resource
import sys
import time

import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGETS = {"07_decoder": 20, "08_real_text": 60}      # seconds; every other notebook: 10
PER_LANGUAGE_TARGET = 60                               # seconds, all chapters of one language
sys.path.insert(0, str(ROOT))
from attention_cache import cpu_model  # noqa: E402  (bench/ is on sys.path as a script)
from tools.kernels import ConfiguredKernelManager, UnixSocketKernelManager  # noqa: E402
from tools.numeric_configs import config_for  # noqa: E402


def run(path, lib_root=None, learner=False):
    """(wall, kernel CPU) seconds of one notebook; ``lib_root``: the kernel imports lib from there;
    ``learner``: a plain kernel (no numerical configuration), as a learner's Jupyter starts it."""
    nb = nbformat.read(path, as_version=4)
    before_env = os.environ.get("PYTHONPATH")
    if lib_root is not None:
        os.environ["PYTHONPATH"] = str(lib_root)
    try:
        children = resource.getrusage(resource.RUSAGE_CHILDREN)   # the kernel: a child, waited for
        start = time.perf_counter()
        NotebookClient(nb, timeout=300, kernel_name="python3", kernel_manager_class=UnixSocketKernelManager if learner else ConfiguredKernelManager,
                       resources={"metadata": {"path": str(path.parent)}}).execute()
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    finally:
        if before_env is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = before_env
    return wall, (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", nargs="+", default=["chapters", "solutions"])
    parser.add_argument("--only", help="the notebooks of this stem only (08_real_text, ...)")
    parser.add_argument("--against", type=pathlib.Path,
                        help="another checkout: its copy of each notebook runs first, with its lib")
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores")
    for kind in args.kinds:
        total, slowest = 0.0, (0.0, "")
        for path in sorted((ROOT / kind).glob(f"*/{args.only or '*'}.ipynb")):
            if args.against is not None:
                other = args.against / path.relative_to(ROOT)
                if other.exists():
                    wall, cpu = run(other, args.against.resolve())
                    print(f"{'  against ' + str(path.relative_to(ROOT)):<42}{wall:6.2f} s  "
                          f"(kernel CPU {cpu:5.2f} s)", flush=True)
            seconds, cpu = run(path)
            total += seconds
            slowest = max(slowest, (seconds, str(path.relative_to(ROOT))))
            target = TARGETS.get(path.stem, 10)
            flag = "" if seconds <= target else f"   over the {target} s target"
            config = config_for(path.parent)
            print(f"{str(path.relative_to(ROOT)):<42}{seconds:6.2f} s  (kernel CPU {cpu:5.2f} s)  "
                  f"{config.name if config else ''}{flag}", flush=True)
            if path.stem in TARGETS:
                wall, cpu = run(path, learner=True)
                flag = "" if wall <= target else f"   over the {target} s target"
                print(f"{'  as a learner runs it':<42}{wall:6.2f} s  (kernel CPU {cpu:5.2f} s)  "
                      f"NumPy and OpenBLAS defaults{flag}", flush=True)
        per_language = total / 3
        print(f"{kind}: {total:.1f} s for all languages, {per_language:.1f} s per language "
              f"(target < {PER_LANGUAGE_TARGET} s per language for chapters); "
              f"slowest {slowest[1]} {slowest[0]:.2f} s\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
