"""The numerical configurations that strict nbval runs the notebooks under.

Every printed number in the book must print the same on any CPU.  A learner's
machine differs from ours in three ways that change rounding: which OpenBLAS
kernel multiplies matrices (it follows the CPU), which SIMD path NumPy's ufuncs
dispatch to (exp, sum, ...), and how many BLAS threads split a product.  One
machine can imitate the others: ``OPENBLAS_CORETYPE`` picks an older OpenBLAS
kernel, ``NPY_DISABLE_CPU_FEATURES`` caps NumPy's dispatch, and
``OPENBLAS_NUM_THREADS`` sets the threads.

The code cells of the three languages are the same and so are their outputs
(tests/test_language_parity.py), so the suite runs each language's notebooks
under a configuration of its own: every chapter and every solution is checked
under three configurations, none of them the machine's own default, while each
notebook is still executed only once.  The root ``conftest.py`` starts nbval's
kernels with the configuration of their folder and, before the notebook runs,
asks the kernel which OpenBLAS kernel and which NumPy targets it really uses
(``report_code``); a kernel that does not run what its configuration names
fails the notebook.
"""

from __future__ import annotations

import json
import os
import pathlib
import platform
from dataclasses import dataclass, replace

# NumPy's x86 dispatch levels, lowest first: disabling one disables those above it too.
NUMPY_LEVELS = ("X86_V2", "X86_V3", "X86_V4", "AVX512_ICL", "AVX512_SPR")


@dataclass(frozen=True)
class Config:
    name: str
    openblas_core: str | None   # OPENBLAS_CORETYPE, and what threadpoolctl must then report
    numpy_highest: str | None   # the highest NumPy dispatch level allowed (None: the machine's own)
    blas_threads: int

    def env(self) -> dict[str, str]:
        """Environment variables that put a fresh process into this configuration."""
        threads = str(self.blas_threads)
        env = {"OPENBLAS_NUM_THREADS": threads, "OMP_NUM_THREADS": threads, "MKL_NUM_THREADS": threads}
        # Not numerical: glibc's malloc keeps NumPy's large freed temporaries in its heap instead of
        # returning them and page-faulting fresh ones in (§8's training spent a fifth of its time
        # in the kernel on that).  Ignored by other C libraries; no result changes.  lib.decoder.train
        # asks the same of a learner's kernel (mallopt); here it holds for every cell, from the start.
        env.update(MALLOC_MMAP_THRESHOLD_=str(2**25), MALLOC_TRIM_THRESHOLD_=str(2**28))
        if self.openblas_core:
            env["OPENBLAS_CORETYPE"] = self.openblas_core
        if self.numpy_highest:
            above = NUMPY_LEVELS[NUMPY_LEVELS.index(self.numpy_highest) + 1:]
            # Disabling a level the CPU lacks is ignored by NumPy (an ImportWarning, hidden by
            # default), so the same setting holds on AVX2 and AVX-512 machines.
            # Only X86_V3 and X86_V4 may be named: the AVX512_* groups go with X86_V4.
            env["NPY_DISABLE_CPU_FEATURES"] = " ".join(level for level in above if level.startswith("X86"))
        return env

    def problems(self, report: dict) -> list[str]:
        """What a kernel's ``report`` (see ``report_code``) shows that differs from this configuration."""
        found = []
        blas = report.get("blas", [])
        if not blas:
            found.append("no BLAS library is loaded")
        for lib in blas:
            if self.openblas_core and lib["architecture"] != self.openblas_core:
                found.append(f"{lib['api']} runs the {lib['architecture']} kernel, not {self.openblas_core}")
            if lib["threads"] != self.blas_threads:
                found.append(f"{lib['api']} uses {lib['threads']} threads, not {self.blas_threads}")
        if self.numpy_highest:
            allowed = NUMPY_LEVELS[: NUMPY_LEVELS.index(self.numpy_highest) + 1]
            for target in report.get("numpy", []):
                level = target.removeprefix("baseline(").rstrip(")")
                if level not in allowed:
                    found.append(f"NumPy dispatches to {target}, above {self.numpy_highest}")
        return found


# One configuration per language folder (zh, en, ru).  None is the machine's default, and
# at least two are different from it on any x86-64 machine (an AVX2 machine's default is
# close to the first one; the second and third differ there too).
X86_CONFIGS = {
    "zh": Config("haswell-avx2-2threads", "Haswell", "X86_V3", 2),
    "en": Config("sandybridge-sse42-1thread", "Sandybridge", "X86_V2", 1),
    "ru": Config("nehalem-numpy-default-2threads", "Nehalem", None, 2),
}
# Elsewhere (e.g. aarch64) OpenBLAS's x86 kernel names and NumPy's x86 levels mean nothing:
# only the thread count varies.
OTHER_CONFIGS = {
    "zh": Config("default-2threads", None, None, 2),
    "en": Config("default-1thread", None, None, 1),
    "ru": Config("default-2threads", None, None, 2),
}


def configs() -> dict[str, Config]:
    """The configuration of each language folder on this machine.

    Where the machine itself sets OPENBLAS_CORETYPE (some processors need it: older
    OpenBLAS builds compute wrong results or crash on them), that choice is kept and
    only NumPy's dispatch and the threads vary."""
    table = X86_CONFIGS if platform.machine() in ("x86_64", "AMD64") else OTHER_CONFIGS
    if os.environ.get("OPENBLAS_CORETYPE"):
        table = {lang: replace(config, openblas_core=None) for lang, config in table.items()}
    return table


def config_for(folder) -> Config | None:
    """The configuration of a notebook folder (chapters/en, solutions/ru, ...), or None."""
    if folder is None:
        return None
    path = pathlib.Path(folder).resolve()
    if path.parent.name in ("chapters", "solutions"):
        return configs().get(path.name)
    return None


# Run in a kernel before its notebook: which BLAS kernel and threads, which NumPy targets.
# One function, deleted afterwards, so the notebook's namespace is as a fresh kernel's.
report_code = """\
def _numeric_configuration_report():
    import json, threadpoolctl
    import numpy._core._multiarray_umath as umath
    blas = [{"api": lib["internal_api"], "architecture": lib.get("architecture"),
             "threads": lib["num_threads"]}
            for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"]
    targets = sorted({each["current"] for ufunc in umath.__cpu_targets_info__.values()
                      for each in ufunc.values()})
    print(json.dumps({"blas": blas, "numpy": targets}))
_numeric_configuration_report()
del _numeric_configuration_report
"""


def report_of_this_process() -> dict:
    """The same report as ``report_code`` prints, for the current process."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(report_code, {})
    return json.loads(out.getvalue())


def environment(config: Config, base=None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env.pop("NPY_DISABLE_CPU_FEATURES", None)
    env.update(config.env())
    return env
