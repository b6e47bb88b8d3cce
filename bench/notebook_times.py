"""Execution time of every chapter and solution notebook (targets: < 10 s each, but
§7, the one that trains, <= 20 s, and §8, which trains on real text, <= 60 s; on 2 cores).

    python bench/notebook_times.py [--kinds chapters solutions] [--only 08_real_text]

Each notebook runs in a fresh kernel in its folder's numerical configuration, as nbval
runs it (tools/numeric_configs.py: each language its OpenBLAS kernel, NumPy dispatch
and BLAS threads, printed beside the time); the time includes the kernel start.
A benchmark, not a test: it prints and never fails.
"""

import argparse
import os
import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
TARGETS = {"07_decoder": 20, "08_real_text": 60}      # seconds; every other notebook: 10
sys.path.insert(0, str(ROOT))
from attention_cache import cpu_model  # noqa: E402  (bench/ is on sys.path as a script)
from tools.kernels import ConfiguredKernelManager  # noqa: E402
from tools.numeric_configs import config_for  # noqa: E402


def run(path):
    nb = nbformat.read(path, as_version=4)
    start = time.perf_counter()
    NotebookClient(nb, timeout=120, kernel_name="python3", kernel_manager_class=ConfiguredKernelManager,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    return time.perf_counter() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", nargs="+", default=["chapters", "solutions"])
    parser.add_argument("--only", help="the notebooks of this stem only (08_real_text, ...)")
    args = parser.parse_args()
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores")
    for kind in args.kinds:
        total, slowest = 0.0, (0.0, "")
        for path in sorted((ROOT / kind).glob(f"*/{args.only or '*'}.ipynb")):
            seconds = run(path)
            total += seconds
            slowest = max(slowest, (seconds, str(path.relative_to(ROOT))))
            target = TARGETS.get(path.stem, 10)
            flag = "" if seconds < target else f"   over the {target} s target"
            config = config_for(path.parent)
            print(f"{str(path.relative_to(ROOT)):<42}{seconds:6.2f} s  {config.name if config else ''}{flag}",
                  flush=True)
        per_language = total / 3
        print(f"{kind}: {total:.1f} s for all languages, {per_language:.1f} s per language "
              f"(target < 60 s per language for chapters); slowest {slowest[1]} {slowest[0]:.2f} s\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
