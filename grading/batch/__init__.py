"""Batch grader of the course's exercise notebooks.

    python -m grading PATH... --json report.json --csv report.csv

Every PATH is a notebook or a folder of notebooks; by default the notebooks
in one folder form one submission (``--group-by``).  For every submission and
every exercise in scope the report has one row: status (pass / fail / error /
timeout / missing), points and a short message, plus a summary per
submission.  The exit code is 0 whenever the batch completed, whatever the
students scored; 2 means the grader was misused (no paths, bad options).

How a notebook is graded (details in the modules):

* notebooks.py  reads the file as data, recognises which exercise notebook it is
  (metadata, file name, or the functions it defines), drops ``check(...)`` calls,
  shell escapes and magics;
* sandbox.py    starts each notebook's kernel in its own network, PID and mount
  namespaces, chrooted into a tree that holds only the OS, the Python environment
  and student-safe copies of ``lib`` and ``grading`` (the library the chapters
  teach, the test models and a ``check()`` that does nothing; no exercise registry,
  no hidden cases, no solutions, no grader, no other submission), as a fresh unprivileged uid, with RLIMIT_AS,
  RLIMIT_NPROC, RLIMIT_CPU and RLIMIT_FSIZE; killing the sandbox's PID 1 kills
  every process the student started;
* _zygote.py    a fork server that pre-imports IPython/ipykernel/NumPy (never
  ``lib``) and forks each sandbox from it, saving ~0.4 s per notebook;
* kernel.py     talks to the kernel over ipc sockets, with size-capped replies,
  without listening to its output at all;
* runner.py     runs the cells with time limits (interrupt, then kill and restart
  without the offending cell), then for each exercise sends the case inputs,
  reads back plain-JSON results (codec.py) and compares them with the expected
  values computed here, in the grader, with ``grading.exercises``;
* report.py     writes JSON and CSV atomically.

Calling the library's reference answer instead of writing the function:
the sandbox's copies of ``lib`` and ``grading`` fence each exercise's reference
and its ``forbidden`` functions (grading/_fence.py in the sandbox): while that exercise
is graded, calling them from the learner's code raises and is recorded, and
the exercise gets no points (message ``uses_library``).  Library code calling
them (a model's forward, the case setup) is unaffected.
"""

import importlib
import os
import secrets
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from . import report as _report
from .notebooks import find_notebooks, identify, read_notebook
from .runner import Cancelled, Course, Options, assemble, make_row, plan_submission, run_unit
from .sandbox import Limits, Sandbox, SandboxError, UidPool, choose_isolation, fence_stubs

__all__ = ["grade_batch", "Options", "Limits", "UsageError"]

VERSION = "1"


class UsageError(ValueError):
    """The grader was called wrongly (exit code 2)."""


def _log(stream, text):
    if stream is not None:
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


def make_sandbox(isolation, course, limits, keep_temp=False, progress=None, uid_base=None, zygote=True):
    """A working Sandbox: the requested isolation, or in ``auto`` mode the strongest that passes a self-check.

    With ``zygote`` kernels are forked from a pre-imported server (see _zygote.py),
    if it passes a test start; otherwise each kernel is started by exec.
    """
    sandbox = _make_sandbox(isolation, course, limits, keep_temp, progress, uid_base)
    if zygote and sandbox.mode != "none":
        problem = sandbox.start_zygote()
        if problem is None:
            problem = _try_kernel(sandbox)
        if problem is not None:
            _log(progress, f"grader: kernels start without the fork server ({problem})")
            if sandbox.zygote is not None:
                sandbox.zygote.close()
                sandbox.zygote = None
    return sandbox


def _try_kernel(sandbox):
    from .kernel import Kernel, KernelDied
    kernel = Kernel(sandbox)
    try:
        kernel.start(timeout=30)
        result = kernel.execute("import lib, numpy", 30)
        return None if result.status == "ok" else f"test kernel: {result.status} {result.ename} {result.evalue}"
    except (KernelDied, RuntimeError, OSError) as exc:
        return f"test kernel: {exc}"
    finally:
        kernel.kill()


def _make_sandbox(isolation, course, limits, keep_temp=False, progress=None, uid_base=None):
    stubs = fence_stubs(course.all_fenced())
    uids = UidPool(uid_base, 1_000_000) if uid_base else None
    if isolation != "auto":
        mode, warnings = choose_isolation(isolation)
        for w in warnings:
            _log(progress, w)
        sandbox = Sandbox(mode, limits, lib_stubs=stubs, keep=keep_temp, uid_pool=uids)
        try:
            sandbox.self_check()
        except SandboxError:
            sandbox.close()
            raise
        return sandbox
    mode, warnings = choose_isolation("auto")
    order = {"root": ["root", "userns", "none"], "userns": ["userns", "none"], "none": ["none"]}[mode]
    last = None
    for candidate in order:
        sandbox = Sandbox(candidate, limits, lib_stubs=stubs, keep=keep_temp, uid_pool=uids)
        try:
            sandbox.self_check()
        except SandboxError as exc:
            sandbox.close()
            last = exc
            _log(progress, f"grader: {exc}; trying a weaker isolation")
            continue
        if candidate == "none":
            if not warnings:
                warnings = choose_isolation("none")[1]
            for w in warnings:
                _log(progress, w)
        return sandbox
    raise SandboxError(str(last))


def grade_batch(paths, *, json_path=None, csv_path=None, options=None, limits=None, jobs=None, group_by="dir",
                isolation="auto", registry="grading.exercises", seed=None, exercise_ids=None, all_exercises=False,
                progress=sys.stderr, keep_temp=False, uid_base=None, zygote=True):
    """Grade every submission under ``paths``; returns the report (a dict).

    Raises UsageError for misuse (nothing to grade, unknown exercise ids ...).
    The report is written (atomically) even when the batch is interrupted,
    with the rows not graded marked as such; KeyboardInterrupt is then re-raised.
    """
    options = options or Options()
    limits = limits or Limits(cpu_seconds=int(options.total_timeout) + 60)
    if not paths:
        raise UsageError("no PATH given: name notebooks or folders of notebooks to grade")
    groups, problems = find_notebooks(paths, group_by)
    missing = [p for p in problems if p.startswith("no such")]
    if missing:
        raise UsageError("; ".join(missing))
    for p in problems:
        _log(progress, f"grader: warning: {p}")
    if not groups:
        raise UsageError("found no notebooks (*.ipynb) to grade in " + ", ".join(map(str, paths)))
    try:
        registry_module = importlib.import_module(registry)
    except ImportError as exc:
        raise UsageError(f"cannot import the exercise registry {registry!r}: {exc}") from None
    seed = secrets.randbelow(2 ** 31) if seed is None else int(seed)
    try:
        course = Course(registry_module, seed, exercise_ids)
    except ValueError as exc:
        raise UsageError(str(exc)) from None

    # Which exercises get rows: the ones asked for, else those of every notebook in the batch.
    if exercise_ids or all_exercises:
        scope = set(course.exercises)
    else:
        scope = set()
        for files in groups.values():
            for path in files:
                info = read_notebook(path)
                stem = identify(info, course.functions)
                if stem:
                    scope |= {ex.id for ex in course.by_notebook[stem]}
    jobs = max(1, int(jobs or min(2, os.cpu_count() or 1)))
    started = time.time()
    try:
        sandbox = make_sandbox(isolation, course, limits, keep_temp, progress, uid_base, zygote)
        fork_server = sandbox.zygote is not None
    except SandboxError as exc:
        raise UsageError(str(exc)) from None
    _log(progress, f"grader: {len(groups)} submission(s), {sum(len(v) for v in groups.values())} notebook(s), "
                   f"{len(scope)} exercise(s), {jobs} job(s), isolation {sandbox.mode}, seed {seed}")

    cancel = threading.Event()
    plans = {sub: plan_submission(sub, files, course, options, scope) for sub, files in groups.items()}
    remaining = {sub: len([u for u in plan.units() if u.rows is None]) for sub, plan in plans.items()}
    results = {}
    lock = threading.Lock()

    def finish(sub):
        rows, seconds = assemble(plans[sub], options)
        summary = _report.summarize(sub, rows, seconds)
        results[sub] = (rows, summary)
        _log(progress, f"[{len(results)}/{len(groups)}] {sub}: {summary['points']:g}/{summary['max_points']:g} "
                       f"points, {seconds:.1f} s")

    def work(unit):
        sub = unit.plan.submission
        try:
            run_unit(unit, course, sandbox, options, cancel)
        except Cancelled:
            return
        except Exception as exc:          # never lose a submission to a grader bug
            import traceback
            unit.rows = [make_row(sub, unit.info.path, ex, "error", f"internal grader error: {type(exc).__name__}: {exc}",
                                  details={"traceback": traceback.format_exc()[-2000:]}) for ex in unit.exercises]
        with lock:
            remaining[sub] -= 1
            if remaining[sub] == 0:
                finish(sub)

    with lock:
        for sub, n in remaining.items():
            if n == 0:
                finish(sub)
    interrupted = False
    previous = _install_sigterm()
    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="grader")
    try:
        futures = [pool.submit(work, unit) for plan in plans.values() for unit in plan.units() if unit.rows is None]
        for f in futures:
            while not f.done():
                time.sleep(0.05)
    except KeyboardInterrupt:
        interrupted = True
        cancel.set()
        sandbox.kill_all()                # workers waiting on a kernel return at once
        _log(progress, "grader: interrupted; stopping kernels and writing the report")
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
        sandbox.close()
        _restore_sigterm(previous)

    all_rows, summaries = [], []
    for submission in groups:
        if submission in results:
            rows, summary = results[submission]
        else:
            from . import messages
            rows = [make_row(submission, "", course.exercises[eid], "error", messages.text("interrupted", "en"))
                    for eid in course.exercises if eid in scope]
            summary = _report.summarize(submission, rows, 0.0)
        all_rows += rows
        summaries.append(summary)
    report = {
        "grader": {
            "version": VERSION,
            "registry": registry,
            "seed": seed,
            "isolation": sandbox.mode,
            "fork_server": fork_server,
            "uids": [sandbox.uids.first, sandbox.uids.first + sandbox.uids.count - 1] if sandbox.mode == "root" else None,
            "started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
            "seconds": round(time.time() - started, 3),
            "jobs": jobs,
            "complete": not interrupted,
            "options": {"timeout": options.timeout, "cell_timeout": options.cell_timeout,
                        "total_timeout": options.total_timeout, "memory_mb": limits.memory_mb,
                        "max_procs": limits.max_procs, "group_by": group_by},
            "exercises": [{"id": ex.id, "notebook": ex.notebook, "function": ex.function, "points": ex.points}
                          for ex in course.exercises.values() if ex.id in scope],
        },
        "summary": summaries,
        "rows": all_rows,
    }
    if json_path:
        _report.atomic_write(json_path, _report.to_json(report))
    if csv_path:
        _report.atomic_write(csv_path, _report.to_csv(all_rows))
    if interrupted:
        raise KeyboardInterrupt
    return report


def _install_sigterm():
    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, frame):
        raise KeyboardInterrupt
    return signal.signal(signal.SIGTERM, handler)


def _restore_sigterm(previous):
    if previous is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, previous)
