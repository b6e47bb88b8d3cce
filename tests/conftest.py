"""Shared fixtures: the chapter's hand-set model, and the one policy for what a test needs and
the machine may lack (a Debian package, root, a sandbox, a module): unavailable(reason), which
skips with the reason locally and fails under CI=true; need(tool) for the tools of
tools/system-packages.txt, which `make test` installs."""

import fcntl
import os
import pathlib
import pickle
import shutil
import sys
import time
import uuid

import pytest
import yaml
from hypothesis import settings

from lib.checks import chapter_model as lib_chapter_model
from tools import system_packages

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# bench/fast_attention.py (lib's blocked attention on every core, outside lib) is imported by name,
# as bench/'s scripts import it.
sys.path.append(str(pathlib.Path(__file__).resolve().parent.parent / "bench"))

# Processes the tests start inherit this (two BLAS threads).  nbval's kernels for the
# chapters and solutions get their folder's configuration instead (root conftest.py).
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "2")


# tools/mutants.py runs the lib tests with --hypothesis-profile=mutants: the same examples every run.
settings.register_profile("mutants", derandomize=True, database=None)


def toc_pages():
    """Every page of _toc.yml as (folder, name), the root first: ("chapters", "00_start"), …,
    ("solutions", "ex07_decoder").  The tests that need to know which notebooks exist compare
    with it rather than with a count, so a new section changes no test."""
    toc = yaml.safe_load((pathlib.Path(__file__).resolve().parent.parent / "_toc.yml").read_text(encoding="utf-8"))
    return [tuple(page.split("/")) for page in [toc["root"]] + [c["file"] for part in toc["parts"]
                                                                for c in part["chapters"]]]


@pytest.fixture
def chapter_model():
    """The hand-set model of the chapter's checking program (§6): D=4, H=2, identity Q/K/V."""
    return lib_chapter_model()


def slowdown(sample=0.3, most=8.0):
    """How many times slower than on an idle machine a CPU-bound process runs now (1.0 when idle).

    Measured, not guessed: the wall time of a short busy loop over the CPU time
    the loop got (a process waiting for a core shows up as the difference), or
    the one-minute load per core when that is higher.  Tests with deadlines the
    grader must meet (per-test timeouts, a prompt shutdown) multiply them by this
    factor, capped at ``most``, so a loaded machine cannot turn "took too long"
    into a false failure, while what each test checks stays the same.
    """
    last_time, last_sample, last_factor = _MEASURED
    if time.monotonic() - last_time < MEASURED_FOR and last_sample >= sample:
        return round(min(max(last_factor, 1.0), most), 2)
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < sample:
        pass
    factor = (time.perf_counter() - wall) / max(time.process_time() - cpu, 1e-9)
    try:
        factor = max(factor, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        pass
    _MEASURED[:] = [time.monotonic(), sample, factor]
    return round(min(max(factor, 1.0), most), 2)


# The last measurement (when, its sample, the factor), reused for MEASURED_FOR seconds: a test that opens a
# page after page (tests/test_site.py's 78) or starts process after process would otherwise spend a sample
# of CPU time on each, seconds in all, to learn what it learnt a moment before.
MEASURED_FOR = 20.0
_MEASURED = [float("-inf"), 0.0, 1.0]


def unavailable(reason):
    """A piece this test needs is missing (a sandbox, root, a module): skip locally with the
    reason; under CI=true, where every piece is installed, fail instead."""
    if IN_CI:
        pytest.fail(f"mandatory under CI=true: {reason}", pytrace=False)
    pytest.skip(f"{reason} (under CI=true this fails)")


def need(tool, what):
    """``tool`` (a command or a font of tools/system-packages.txt) must be installed for ``what``:
    when it is missing, unavailable() names it and the Debian package that provides it."""
    package = system_packages.find(tool)
    if not package.present():
        unavailable(f"{tool} is not installed (Debian package {package.name}, which `make test` installs): "
                    f"{what}")


def clear_stale_event_loop():
    """Forget an event loop a notebook test left marked running in this thread.

    nbval's kernel client (through nest-asyncio) can leave its loop registered as running in a pytest
    worker's thread after the notebook's cells are done; Playwright's sync API, started later in the same
    worker, then refuses with "using Playwright Sync API inside the asyncio loop".  No test of this suite
    runs inside an event loop, so the mark is stale whenever a browser is about to start."""
    import asyncio
    asyncio._set_running_loop(None)


def browser_executable(what):
    """The Chromium a browser test drives ($CHROMIUM, else Debian's chromium on the PATH), with the
    Python package playwright and the CJK font its Chinese pages are drawn with."""
    require_or_skip("playwright", what)
    need("chromium", what)
    need("Noto Sans CJK", what)
    return os.environ.get("CHROMIUM") or shutil.which("chromium")


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium per pytest worker, in a thread of its own (tests/chromium_thread.py), for
    every browser test file that drives it through test_site_interactive.in_chromium (test_site_interactive,
    _quiz, _phone, _figure_sizes): a file that imported a fixture of its own started and stopped a browser
    of its own, a few seconds each time on a loaded machine. Each test still opens its pages in new
    browser contexts (nothing of one test's pages is seen by another's)."""
    import chromium_thread
    instance = chromium_thread.start()
    yield instance
    instance.close()


def no_sandbox(what, why=""):
    """The grader found no sandbox here (``why``, when it said) and ``what`` needs one: names
    bubblewrap when that is what is missing, else the reason."""
    need("bwrap", what)
    unavailable(f"no sandbox on this machine{f' ({why})' if why else ''}: {what}")


def need_root_mode(mode, what):
    """The grader ran its kernels in isolation ``mode``, and ``what`` needs root mode (kernels as
    dedicated uids): root and bubblewrap; names whichever is missing."""
    if mode == "root":
        return
    if os.geteuid() != 0:
        unavailable(f"root mode needs root: {what}")
    need("bwrap", what)
    unavailable(f"the grader ran in {mode} mode here, not root mode: {what}")


def student_processes(uid_first, uid_last):
    """(pid, uid) of every live process whose uid is in [uid_first, uid_last] (the uids the grader
    gives kernels in root mode).  A zombie is not live: it has ended and waits only to be reaped
    by whatever process adopted it, which the grader cannot hurry."""
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                uid = entry.stat().st_uid
                if not uid_first <= uid <= uid_last:
                    continue
                with open(f"/proc/{entry.name}/stat") as f:
                    if f.read().rsplit(")", 1)[-1].split()[0] in ("Z", "X"):
                        continue
            except (OSError, IndexError):
                continue
            found.append((int(entry.name), uid))
    return found


def no_student_process_left(uid_first, uid_last, seconds=5.0):
    """The live processes of those uids still there after up to ``seconds`` (times the machine's
    slowdown): a SIGKILLed process takes a moment to be torn down on a loaded machine."""
    deadline = time.monotonic() + seconds * slowdown(sample=0.05)
    while True:
        left = student_processes(uid_first, uid_last)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def fixed_key(n):
    """A fixed key for the hidden tests (grading.batch.secret): the same submissions graded with fixed_key(n) give
    the same files.  Known to the tests only, never to a student."""
    import hashlib
    from grading.batch.secret import Secret
    return Secret(hashlib.sha256(f"tests' key {n}".encode()).digest(), "key")


def key_file(folder, n=1):
    """fixed_key(n) in a file of ``folder``, as ``python -m grading key`` writes one; its path (for --key)."""
    path = pathlib.Path(folder) / f"test-{n}.key"
    path.write_text(fixed_key(n).value.hex() + "\n", encoding="ascii")
    return path


def require_or_skip(module_name, why):
    """Import an optional module; skip with a clear reason, or fail in CI where it is mandatory."""
    try:
        return __import__(module_name)
    except ImportError:
        unavailable(f"{module_name} is not installed: {why}")


_RUN_ID = uuid.uuid4().hex            # a run without xdist
_BUILD = pathlib.Path(__file__).resolve().parent.parent / "_build"


def run_id(config):
    """The id of this test run: the same in every xdist worker of the run, new in the next run."""
    return getattr(config, "workerinput", {}).get("testrunuid") or _RUN_ID


def once_per_run(name, config, compute=None):
    """``compute()``'s value, computed once per test run for every xdist worker that asks: the first
    worker computes it and leaves it in _build/<name>.pickle, stamped with the run's id; a worker that
    asks meanwhile waits for it (a file lock), and later ones read it.  For work two test files do
    alike (tests/test_mistakes.py and tests/test_mistakes_batch.py score the corpus in-process); nothing
    in a test run changes the sources, and the next run computes again.  Without ``compute``: the value
    if this run has one, else None."""
    path = _BUILD / f"{name}.pickle"
    path.parent.mkdir(parents=True, exist_ok=True)
    run = run_id(config)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if path.exists():
            with open(path, "rb") as f:
                stamp, value = pickle.load(f)
            if stamp == run:
                return value
        if compute is None:
            return None
        value = compute()
        part = path.with_suffix(".part")
        with open(part, "wb") as f:
            pickle.dump((run, value), f)
        part.replace(path)
        return value


@pytest.fixture(scope="session")
def course_wheel_file(pytestconfig):
    """The course's wheel as `make wheel` builds it (tools/make_autograder.build_wheel), built once per run
    into _build/test-wheel/ for every test that reads or installs it (test_grading_exports,
    test_hidden_secrecy, test_grading_sandbox, test_learner_outside): each used to build its own."""
    def build():
        from tools.make_autograder import build_wheel
        return build_wheel(_BUILD / "test-wheel")
    return once_per_run("test-wheel", pytestconfig, build)


_SESSION_START = time.time()
_SITE_REPORT = pathlib.Path(__file__).resolve().parent.parent / "_build" / "site-report.txt"


_PDF_REPORT = pathlib.Path(__file__).resolve().parent.parent / "_build" / "pdf-report.txt"


def pytest_terminal_summary(terminalreporter):
    """Print the page weights and load times the browser tests measured in this run, and the PDF
    books' sizes and times (they run in xdist workers, whose own output pytest does not show)."""
    if _SITE_REPORT.exists() and _SITE_REPORT.stat().st_mtime >= _SESSION_START:
        terminalreporter.section("website: page weight and load time")
        terminalreporter.write(_SITE_REPORT.read_text(encoding="utf-8"))
    if _PDF_REPORT.exists() and _PDF_REPORT.stat().st_mtime >= _SESSION_START:
        terminalreporter.section("PDF books")
        terminalreporter.write(_PDF_REPORT.read_text(encoding="utf-8"))
