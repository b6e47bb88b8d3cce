"""Loaded by every pytest run in this project, whatever it collects: how nbval starts its kernels
(over Unix sockets, each in its folder's numerical configuration, checked before the notebook runs)."""

import atexit
import json
import os
import pathlib
import shutil
import tempfile
import uuid
from queue import Empty

import nbval.kernel

from tools import numeric_configs
from tools.kernels import ConfiguredKernelManager

# Numerical configurations (tools/numeric_configs.py): the notebooks of each language folder run
# under a configuration of their own (another OpenBLAS kernel, NumPy's SIMD dispatch capped, one or
# two BLAS threads), so one suite run checks every printed number under three of them.

# One folder for the whole run, the xdist workers' kernels included (they inherit the variable).
if "COURSE_NUMERIC_REPORTS" not in os.environ:
    os.environ["COURSE_NUMERIC_REPORTS"] = tempfile.mkdtemp(prefix="numeric-reports-")
    atexit.register(shutil.rmtree, os.environ["COURSE_NUMERIC_REPORTS"], ignore_errors=True)


def _reports():
    return pathlib.Path(os.environ["COURSE_NUMERIC_REPORTS"])


nbval.kernel.KernelManager = ConfiguredKernelManager   # nbval's kernels: over Unix sockets, configured


def _ask_the_kernel(kc, code, timeout=120):
    """Run ``code`` in the kernel (no history, no execution count) and return what it printed."""
    msg_id = kc.execute(code, silent=False, store_history=False)
    printed, error = [], None
    while True:
        try:
            msg = kc.get_iopub_msg(timeout=timeout)
        except Empty:
            raise RuntimeError(f"the kernel did not answer the configuration check in {timeout} s") from None
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        kind, content = msg["msg_type"], msg["content"]
        if kind == "stream":
            printed.append(content["text"])
        elif kind == "error":
            error = "\n".join(content.get("traceback", [])) or content.get("evalue")
        elif kind == "status" and content["execution_state"] == "idle":
            break
    kc.get_shell_msg(timeout=timeout)  # the execute_reply, so nbval's next reply is its own
    if error:
        raise RuntimeError(f"the configuration check failed in the kernel:\n{error}")
    return "".join(printed)


_original_running_kernel_init = nbval.kernel.RunningKernel.__init__


def _running_kernel_checked(self, kernel_name, cwd=None, startup_timeout=60):
    _original_running_kernel_init(self, kernel_name, cwd=cwd, startup_timeout=startup_timeout)
    config = getattr(self.km, "numeric_config", None)
    if config is None:
        return
    report = json.loads(_ask_the_kernel(self.kc, numeric_configs.report_code))
    problems = config.problems(report)
    (_reports() / f"{uuid.uuid4().hex}.json").write_text(
        json.dumps({"folder": str(cwd), "config": config.name, "report": report, "problems": problems}))
    if problems:
        self.stop()
        raise RuntimeError(f"the kernel for {cwd} does not run configuration {config.name}: "
                           + "; ".join(problems))


nbval.kernel.RunningKernel.__init__ = _running_kernel_checked


def pytest_terminal_summary(terminalreporter):
    """Which kernel each configuration really ran, as the kernels themselves reported it."""
    seen = {}
    here = pathlib.Path(__file__).parent
    for path in sorted(_reports().glob("*.json")):
        entry = json.loads(path.read_text())
        if not pathlib.Path(entry["folder"]).is_relative_to(here):
            continue            # a kernel of an enclosing session of another checkout (tests/test_fresh_clone.py)
        report = entry["report"]
        blas = ", ".join(f"{lib['api']} {lib['architecture']} x{lib['threads']}" for lib in report["blas"])
        key = (entry["config"], blas, " ".join(report["numpy"]), "; ".join(entry["problems"]) or "ok")
        seen.setdefault(key, set()).add(str(pathlib.Path(entry["folder"]).relative_to(here)))
    if not seen:
        return
    terminalreporter.section("numerical configurations of the notebook kernels")
    for (name, blas, numpy_targets, verdict), folders in sorted(seen.items()):
        terminalreporter.write_line(
            f"{name}: {', '.join(sorted(folders))} | BLAS {blas} | NumPy targets {numpy_targets} | {verdict}")


# The order in which pytest-xdist hands out the test files (--dist loadfile, with its own order by
# number of tests turned off in pyproject.toml): the files of tests/file_seconds.json first, longest
# first, then the others as collected, so that the two workers finish together instead of one
# running a long file alone at the end (tools/suite_times.py says how the list is made).
_FILE_SECONDS = pathlib.Path(__file__).parent / "tests" / "file_seconds.json"


def pytest_collection_modifyitems(items):
    seconds = json.loads(_FILE_SECONDS.read_text(encoding="utf-8")) if _FILE_SECONDS.exists() else {}
    items.sort(key=lambda item: -seconds.get(item.nodeid.split("::", 1)[0], 0))     # stable: files stay whole
