"""Notebook outputs must not depend on the number of BLAS threads.

The main nbval run uses two threads (set in conftest.py); this test re-runs
strict nbval over every executed notebook with a single thread.
"""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_notebooks_give_the_same_outputs_with_one_blas_thread():
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", MKL_NUM_THREADS="1")
    targets = [d for d in ("chapters", "solutions") if any((ROOT / d).rglob("*.ipynb"))]
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "--no-header", "-p", "no:randomly", *targets],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )
    tail = "\n".join(result.stdout.splitlines()[-30:])
    assert result.returncode == 0, f"nbval with OPENBLAS_NUM_THREADS=1 failed:\n{tail}\n{result.stderr[-2000:]}"
