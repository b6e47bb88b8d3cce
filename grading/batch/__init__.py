"""Batch grader of the course's exercise notebooks.

    python -m grading PATH... --json report.json --csv report.csv [--wide-csv ...] [--feedback DIR]
    python -m grading merge SHARD.json... --json report.json ...

Every PATH is a notebook or a folder of notebooks; by default the notebooks
in one folder form one submission (``--group-by``).  For every submission and
every exercise in scope the report has one row: status (pass / fail / error /
timeout / missing), points and a short message, plus a summary per
submission.  The exit code is 0 whenever the batch completed, whatever the
students scored; 2 means the grader was misused (no paths, bad options).

How a notebook is graded (details in the modules):

* notebooks.py  finds the submissions (never following a link out of one, never
  opening anything but a regular file) and reads each notebook as data;
* grading.cells drops ``check(...)`` calls, shell escapes and magics;
* blind.py      decides by behaviour whether an exercise's function relies on the
  library's reference answer: each exercise is graded in a kernel whose lib
  withholds that exercise's reference answers (no points if it needs them);
* sandbox.py    starts each kernel in a bubblewrap (``bwrap``) sandbox of its own:
  network, PID, IPC, UTS and mount namespaces, a root file system that holds
  only the OS, the Python environment and student-safe copies of ``lib`` and
  ``grading`` (no registry, no hidden tests, no references, no solutions, no
  grader, no other submission), as a fresh unprivileged uid, with resource limits;
  in root mode the kernel is forked into it from a warm Python (_warm.py);
* cgroups.py    puts all of a submission's processes in one control group:
  memory for all of them together, an equal CPU share, a process cap;
* kernel.py     talks to the kernel with jupyter_client over ipc sockets, with
  size-capped replies, without listening to its output at all;
* runner.py     runs the cells with time limits (interrupt, then kill and restart
  without the offending cell), then for each exercise sends the test inputs,
  reads back plain-JSON results (codec.py) and compares them with the expected
  values computed here, in the grader;
* report.py     JSON, long and wide CSV, gradebooks (totals, Canvas, Moodle), Gradescope
  results, feedback pages and the instructor's index;
* shards.py     ``--shard K/N`` and the merge of shard reports;
* duplicates.py which of several notebooks of one exercise set is graded (``--duplicates``);
* late.py       ``--deadline``: when a submission was handed in, and how late;
* rubric.py     ``python -m grading rubric``.

The instructor's guide is docs/instructors.md.
"""

import hashlib
import importlib
import inspect
import os
import secrets
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from course_i18n import LANGUAGES

from . import report as _report
from . import late as _late
from . import shards as _shards
from .notebooks import Discovery, NotebookInfo, _contents, find_submissions, identify, read_notebook
from .notebooks import student_pattern as student_pattern_of
from .runner import Cancelled, Course, Options, assemble, interrupted_rows, plan_submission, run_submission
from .sandbox import Limits, SandboxError, open_sandbox

__all__ = ["grade_batch", "write_outputs", "merge_reports", "Options", "Limits", "UsageError"]

VERSION = "3"                      # 3: reference use decided by behaviour (blind.py); links and limits refused with rows


class UsageError(ValueError):
    """The grader was called wrongly (exit code 2)."""


class NothingToGrade(UsageError):
    """No notebook at all under the PATHs: misuse, except for a Gradescope upload (a 0 with the reason)."""

    def __init__(self, text, found=None):
        super().__init__(text)
        self.found = found


def _log(stream, text):
    if stream is not None:
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


def course_version(registry_module, course):
    """A fingerprint of what grading means: the exercises and the code that defines their tests."""
    h = hashlib.sha256()
    files = {inspect.getsourcefile(registry_module)}
    for ex in course.exercises.values():
        h.update(f"{ex.id}|{ex.notebook}|{ex.function}|{ex.points}|".encode())
        for func in (ex.make_public, ex.make_hidden, ex.reference, getattr(ex, "compare", None)):
            try:
                files.add(inspect.getsourcefile(func))
            except TypeError:
                pass
    for path in sorted(f for f in files if f):
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:
            pass
    return h.hexdigest()[:12]


class _Signals:
    """SIGTERM and SIGINT become one KeyboardInterrupt in the main thread; later ones are ignored,
    so writing the report cannot itself be interrupted."""

    def __init__(self):
        self.previous = {}
        self.received = False

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGTERM, signal.SIGINT):
                self.previous[sig] = signal.signal(sig, self._handler)
        return self

    def _handler(self, signum, frame):
        if not self.received:
            self.received = True
            raise KeyboardInterrupt

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            signal.signal(sig, handler)
        return False


def grade_batch(paths, *, json_path=None, csv_path=None, wide_csv_path=None, feedback_dir=None, gradescope_path=None,
                exports=None, student_pattern=None, index_lang=None, deadline=None, late_penalty=0.0,
                regrade=None, only=None, options=None, limits=None, jobs=None, group_by="dir", isolation="auto", registry="grading.exercises",
                seed=None, exercise_ids=None, all_exercises=False, shard=None, progress=sys.stderr, keep_temp=False,
                uid_base=None, cgroups=True, warm_start=True, pause_at=None, early_signals=None):
    """Grade every submission under ``paths``; returns the report (a dict).

    Raises UsageError for misuse (nothing to grade, unknown exercise ids ...).
    The report and every requested file are written (atomically) even when the
    batch is interrupted (SIGINT, SIGTERM) at any stage, with the rows not
    graded marked as such and ``complete: false``; KeyboardInterrupt is then re-raised.
    ``pause_at`` (a stage name, for the tests of that promise) waits 60 s when the stage begins.
    ``early_signals``: a list that a signal handler installed before this call appends to; a
    signal in it (or arriving later) stops the batch the same way.
    """
    options = options or Options()
    limits = limits or Limits(cpu_seconds=int(options.total_timeout) + 60)
    if not paths:
        raise UsageError("no PATH given: name notebooks or folders of notebooks to grade")
    pattern = None
    if student_pattern:
        try:
            pattern = student_pattern_of(student_pattern)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if shard is not None:
        if seed is None:
            raise UsageError("--shard needs --seed: every shard must draw the same hidden tests")
        try:
            shard = _shards.parse_shard(shard) if isinstance(shard, str) else tuple(shard)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if deadline is not None:
        try:
            deadline = _late.parse_deadline(deadline) if isinstance(deadline, str) else deadline
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    try:
        registry_module = importlib.import_module(registry)
    except ImportError as exc:
        raise UsageError(f"cannot import the exercise registry {registry!r}: {exc}") from None
    old = None
    if regrade is not None:
        old, seed, exercise_ids = _regrade_setup(regrade, only, seed, shard, group_by, registry_module, exercise_ids)
    seed = secrets.randbelow(2 ** 31) if seed is None else int(seed)
    try:
        course = Course(registry_module, seed, exercise_ids)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if old is not None:
        _regrade_check(old, course, registry_module)
    jobs = max(1, int(jobs or min(2, os.cpu_count() or 1)))
    started = time.time()
    state = {"submissions": {}, "plans": {}, "scope": set(course.exercises), "sandbox": None, "stage": "start-up",
             "all_ids": [], "shard_ids": None, "pause_at": pause_at, "progress": progress,
             "deadline": deadline, "late_penalty": float(late_penalty or 0), "only": only if old is not None else None,
             "fixed_scope": {e["id"] for e in old["grader"]["exercises"]} if old is not None else None}
    interrupted = False
    nothing = None
    single = bool(gradescope_path) and str(gradescope_path).endswith(".json")
    with _Signals():
        try:
            if early_signals:
                raise KeyboardInterrupt
            state["pattern"] = pattern
            _run(paths, state, course, options, limits, jobs, group_by, isolation, exercise_ids, all_exercises,
                 shard, progress, keep_temp, uid_base, cgroups, warm_start,
                 single=bool(gradescope_path) and str(gradescope_path).endswith(".json"))
        except KeyboardInterrupt:
            interrupted = True
            _log(progress, f"grader: interrupted during {state['stage']}; writing the report")
        except NothingToGrade as exc:
            if not single:
                raise
            nothing = exc             # a Gradescope upload without a notebook: a 0 that says why
            _log(progress, f"grader: {exc}; writing a results.json with 0 points")
        finally:
            sandbox = state["sandbox"]
            if sandbox is not None:
                sandbox.close()
        report = _build_report(state, course, registry, seed, options, limits, jobs, group_by, shard, started,
                               interrupted, registry_module)
        if old is not None:
            report = _combine(old, report)
        if nothing is not None:
            _report.write_nothing_gradable(report, gradescope_path, options.lang, nothing.found)
            gradescope_path = None
        write_outputs(report, json_path=json_path, csv_path=csv_path, wide_csv_path=wide_csv_path,
                      feedback_dir=feedback_dir, gradescope_path=gradescope_path,
                      lang=_index_lang(index_lang, options), exports=exports)
    if interrupted:
        raise KeyboardInterrupt
    return report


def _index_lang(index_lang, options):
    """The instructor's language: --lang, else the students' forced language, else en."""
    for lang in (index_lang, options.lang):
        if lang in LANGUAGES:
            return lang
    return "en"


def _stage(state, name):
    state["stage"] = name
    if state.get("pause_at") == name:
        _log(state.get("progress"), f"grader: pausing at {name} (test hook)")
        time.sleep(60)


def _run(paths, state, course, options, limits, jobs, group_by, isolation, exercise_ids, all_exercises, shard,
         progress, keep_temp, uid_base, cgroups, warm_start=True, single=False):
    _stage(state, "discovery")
    walk = Discovery(group_by, state.get("pattern"))
    state["walk"] = walk
    found, usage = find_submissions(paths, group_by, walk)
    missing = [p for p in usage if p.startswith(("no such", "not a file"))]
    if missing:
        raise UsageError("; ".join(missing))
    for p in usage:
        _log(progress, f"grader: warning: {p}")
    if not found:
        raise NothingToGrade("found no notebooks (*.ipynb) to grade in " + ", ".join(map(str, paths)),
                             _contents(os.fspath(paths[0])) if len(paths) == 1 and os.path.isdir(paths[0]) else None)
    if single and len(found) != 1:
        raise UsageError(f"--gradescope FILE.json takes a batch of one submission, found {len(found)} "
                         "(use --group-by all, or give a folder)")
    if state.get("only"):
        found = _only(found, state["only"])
    state["all_ids"] = [s.id for s in found.values()]
    whole = found
    if shard is not None:
        keep = set(_shards.select(state["all_ids"], *shard))
        found = {k: s for k, s in found.items() if s.id in keep}
        state["shard_ids"] = [s.id for s in found.values()]
    state["submissions"] = found
    if state.get("fixed_scope"):
        state["scope"] = set(state["fixed_scope"])     # a regrade keeps the report's exercises
    elif not (exercise_ids or all_exercises):
        # a first guess from the file names alone, in case the batch is interrupted while planning
        state["scope"] = _scope_of(whole, course, read=False)
    _stage(state, "planning")
    # Which exercises get rows: the ones asked for, else those of every notebook in the WHOLE batch,
    # decided before sharding, so that every shard grades the same exercises as a whole run.
    if not (exercise_ids or all_exercises or state.get("fixed_scope")):
        state["scope"] = _scope_of(whole, course, read=True)
    plans = state["plans"]
    for key, sub in found.items():
        plans[key] = plan_submission(sub, course, options, state["scope"])
    _stage(state, "sandbox")
    try:
        sandbox = open_sandbox(isolation, limits, keep_temp, lambda text: _log(progress, text), uid_base, cgroups,
                               jobs, warm_start)
    except SandboxError as exc:
        raise UsageError(str(exc)) from None
    state["sandbox"] = sandbox
    iso = state["isolation"] = sandbox.describe()
    _log(progress, f"grader: {len(found)} submission(s), {sum(len(s.files) for s in found.values())} notebook(s), "
                   f"{len(state['scope'])} exercise(s), {jobs} job(s), seed {course.seed}")
    _log(progress, f"grader: isolation {iso['mode']} ({', '.join(iso['namespaces']) or 'no namespaces'}); "
                   f"memory {iso['memory']}; cpu {iso['cpu']}; processes {iso['processes']}")
    if iso.get("cgroups") is None and iso.get("why"):
        _log(progress, f"grader: no control groups: {iso['why']}")
    _stage(state, "grading")
    cancel = threading.Event()
    done = {"n": 0}
    lock = threading.Lock()

    def work(key):
        plan = plans[key]
        try:
            run_submission(plan, course, sandbox, options, cancel)
        except Cancelled:
            return
        rows = assemble(plan)
        summary = _report.summarize(plan.submission, rows, plan.lang)
        with lock:
            done["n"] += 1
            _log(progress, f"[{done['n']}/{len(plans)}] {plan.submission}: {summary['points']:g}/"
                           f"{summary['max_points']:g} points, {plan.seconds:.1f} s")

    pool = ThreadPoolExecutor(max_workers=jobs, thread_name_prefix="grader")
    try:
        futures = [pool.submit(work, key) for key in plans]
        for f in futures:
            while not f.done():
                time.sleep(0.05)
            f.result()
    except BaseException:
        cancel.set()
        sandbox.kill_all()                # workers waiting on a kernel return at once
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _mark_late(summary, key, sub, deadline, penalty):
    """When a submission was handed in, how late, and (with --late-penalty) its points after the penalty."""
    folder = key if isinstance(key, str) and os.path.isdir(key) else None
    when, source = _late.handed_in(folder, [f.path for f in sub.files if f.problem is None])
    hours = _late.lateness(when, deadline)
    summary["handed_in"] = {"time": when.isoformat(timespec="seconds") if when else None, "from": source,
                            "late_hours": hours}
    if hours > 0:
        summary["flags"] = sorted(set(summary.get("flags", [])) | {"late"})
        if penalty:
            summary["points_before_penalty"] = summary["points"]
            summary["points"] = _late.penalised(summary["points"], hours, penalty)


def _only(found, names):
    """The submissions named by --only (their id, last part, or path under the batch's folder)."""
    wanted = {n.strip().strip("/") for n in names if n.strip()}
    keep, matched = {}, set()
    for key, sub in found.items():
        hits = {n for n in wanted if sub.id == n or sub.id.endswith("/" + n) or os.path.basename(sub.id) == n}
        if hits:
            keep[key] = sub
            matched |= hits
    unknown = sorted(wanted - matched)
    if unknown:
        raise UsageError(f"--only: no submission named {', '.join(unknown)} under the PATHs (found: "
                         + ", ".join(os.path.basename(s.id) for s in list(found.values())[:20]) + ")")
    return keep


def _regrade_setup(path, only, seed, shard, group_by, registry_module, exercise_ids):
    """The old report, and the seed and exercises a regrade must use (its own)."""
    import json
    if not only:
        raise UsageError("--regrade REPORT.json needs --only NAME[,NAME...]: the students to grade again")
    if shard is not None:
        raise UsageError("--regrade and --shard do not go together: regrade into the merged report")
    try:
        with open(path, encoding="utf-8") as f:
            old = json.load(f)
        head = old["grader"]
        old_seed, old_ids = head["seed"], [e["id"] for e in head["exercises"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"--regrade: cannot read the report {path}: {exc}") from None
    if seed is not None and int(seed) != int(old_seed):
        raise UsageError(f"--regrade: the report was graded with --seed {old_seed}, not {seed}; leave --seed out "
                         "(a regrade always uses the report's seed)")
    if head.get("version") != VERSION:
        raise UsageError(f"--regrade: the report was written by grader version {head.get('version')}, this is "
                         f"{VERSION}: grade the whole class again")
    old_group = head.get("options", {}).get("group_by")
    if old_group and old_group != group_by:
        raise UsageError(f"--regrade: the report was graded with --group-by {old_group}, not {group_by}")
    if exercise_ids and set(exercise_ids) != set(old_ids):
        raise UsageError("--regrade: the report's exercises are fixed; leave --exercises out")
    return old, old_seed, None


def _regrade_check(old, course, registry_module):
    """The course must grade as it did when the report was written."""
    wanted = old["grader"].get("course", {}).get("version")
    now = course_version(registry_module, course)
    if wanted != now:
        restricted = Course(registry_module, course.seed, [e["id"] for e in old["grader"]["exercises"]])
        if course_version(registry_module, restricted) != wanted:
            raise UsageError(f"--regrade: the report was graded against course version {wanted}, this checkout is "
                             f"{now}: the tests changed since, so grade the whole class again")


def _combine(old, new):
    """The old report with the regraded submissions' rows and summaries replaced, the rest kept."""
    replaced = {s["submission"] for s in new["summary"]}
    summaries = {s["submission"]: s for s in old["summary"] if s["submission"] not in replaced}
    summaries.update({s["submission"]: s for s in new["summary"]})
    rows = {}
    for row in old["rows"]:
        if row["submission"] not in replaced:
            rows.setdefault(row["submission"], []).append(row)
    for row in new["rows"]:
        rows.setdefault(row["submission"], []).append(row)
    order = sorted(summaries)
    grader = dict(old["grader"])
    grader["regraded"] = sorted(set(grader.get("regraded", [])) | replaced)
    grader["complete"] = bool(old["grader"].get("complete")) and bool(new["grader"].get("complete"))
    grader["isolation"] = new["grader"].get("isolation")
    return {"grader": grader, "summary": [summaries[s] for s in order],
            "rows": [r for s in order for r in rows.get(s, [])],
            "timing": {"regrade": new.get("timing", {}), "before": old.get("timing", {})}}


def _scope_of(submissions, course, read):
    """The exercises of every course notebook found in ``submissions`` (by file name alone, or
    ``read``: as grading recognises them, metadata and defined functions included); all of the
    course's exercises when none is recognised."""
    stems = set()
    for sub in submissions.values():
        for f in sub.files:
            info = read_notebook(f.path, f.display, f.problem) if read else NotebookInfo(f.path, f.display)
            stems.add(identify(info, course.functions))
    return {ex.id for stem in stems if stem for ex in course.by_notebook.get(stem, [])} or set(course.exercises)


def _build_report(state, course, registry, seed, options, limits, jobs, group_by, shard, started, interrupted,
                  registry_module):
    scope = state["scope"]
    sandbox = state["sandbox"]
    submissions = state["submissions"] or (state["walk"].submissions if state.get("walk") else {})
    all_rows, summaries, seconds = [], [], {}
    for key, sub in submissions.items():
        plan = state["plans"].get(key)
        if plan is None:
            rows = interrupted_rows(sub.id, course, scope)
            lang = "en"
        else:
            rows = [r for r in assemble(plan) if r["exercise"] == "-" or r["exercise"] in scope]
            lang = plan.lang
            seconds[plan.submission] = round(plan.seconds, 3)
        all_rows += rows
        summaries.append(_report.summarize(sub.id, rows, lang))
        if sub.student_id:
            summaries[-1]["student_id"] = sub.student_id
        if state.get("deadline") is not None:
            _mark_late(summaries[-1], key, sub, state["deadline"], state.get("late_penalty", 0.0))
    all_ids = state["all_ids"] or [s.id for s in submissions.values()]
    complete = not interrupted and all(p.units() == [] or all(u.rows is not None for u in p.units())
                                       for p in state["plans"].values())
    isolation = state.get("isolation") or {"mode": None, "why": "no sandbox was started"}
    return {
        "grader": {
            "version": VERSION,
            "registry": registry,
            "course": {"version": course_version(registry_module, course)},
            "seed": seed,
            "shard": {"k": shard[0], "of": shard[1]} if shard else None,
            "batch": {"submissions": len(all_ids), "digest": _shards.digest(all_ids), "graded": len(summaries)},
            "complete": complete,
            "isolation": isolation,
            "uids": ([sandbox.uids.first, sandbox.uids.first + sandbox.uids.count - 1]
                     if sandbox is not None and sandbox.mode == "root" else None),
            "options": {"timeout": options.timeout, "cell_timeout": options.cell_timeout,
                        "total_timeout": options.total_timeout, "memory_mb": limits.memory_mb,
                        "max_procs": limits.max_procs, "group_by": group_by, "lang": options.lang, "jobs": jobs,
                        "duplicates": options.duplicates, "partial": options.partial,
                        **({"deadline": state["deadline"].isoformat(), "late_penalty": state.get("late_penalty", 0.0)}
                           if state.get("deadline") is not None else {})},
            "exercises": [{"id": ex.id, "notebook": ex.notebook, "function": ex.function, "points": ex.points,
                           "title": dict(ex.title), **_rubric_groups(course, ex, options)}
                          for ex in course.exercises.values() if ex.id in scope],
        },
        "summary": summaries,
        "rows": all_rows,
        # everything that depends on the clock or the machine's speed, and nothing else
        "timing": {"started": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(started)),
                   "seconds": round(time.time() - started, 3), "submissions": seconds,
                   "grader_max_rss_mb": _max_rss_mb()},
    }


def _rubric_groups(course, ex, options):
    """Under --partial the rubric states each exercise's test groups: its points are split equally over them."""
    if not options.partial:
        return {}
    from .runner import test_groups
    cases = [(c, False) for c in ex.public_cases()] + [(c, True) for c in ex.hidden_cases(course.seed)]
    return {"groups": list(test_groups(cases))}


def _max_rss_mb():
    """The grader's own peak memory (kernels are other processes): what no submission can inflate."""
    import resource
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def write_outputs(report, *, json_path=None, csv_path=None, wide_csv_path=None, feedback_dir=None,
                  gradescope_path=None, lang="en", exports=None):
    """Write every requested file of a report (each atomically); ``exports``: {"totals_csv", "canvas_csv",
    "moodle_csv", "diagnoses_csv": path, "assignment": the LMS column's name, "per_exercise": Canvas columns
    per exercise}.  ``lang``: the instructor's language (index, class diagnoses, the CSVs' mistake names).
    The report gets its class diagnoses (``report["diagnoses"]``, see report.class_diagnoses) in ``lang``."""
    exports = exports or {}
    report["diagnoses"] = _report.class_diagnoses(report, lang)
    if exports.get("diagnoses_csv"):
        _report.atomic_write(exports["diagnoses_csv"], _report.to_diagnoses_csv(report, lang))
    if exports.get("totals_csv"):
        _report.atomic_write(exports["totals_csv"], _report.to_totals_csv(report))
    if exports.get("canvas_csv"):
        _report.atomic_write(exports["canvas_csv"], _report.to_canvas_csv(
            report, exports.get("assignment") or "Exercises", bool(exports.get("per_exercise"))))
    if exports.get("moodle_csv"):
        _report.atomic_write(exports["moodle_csv"], _report.to_moodle_csv(report))
    if json_path:
        _report.atomic_write(json_path, _report.to_json(report))
    if csv_path:
        _report.atomic_write(csv_path, _report.to_csv(report["rows"], lang))
    if wide_csv_path:
        _report.atomic_write(wide_csv_path, _report.to_wide_csv(report))
    if feedback_dir:
        _report.write_feedback(report, feedback_dir, lang)
    if gradescope_path:
        _report.write_gradescope(report, gradescope_path)


def merge_reports(paths):
    """The merged report of shard reports (JSON files); UsageError when they do not belong together."""
    import json
    reports = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as f:
                reports.append(json.load(f))
        except (OSError, ValueError) as exc:
            raise UsageError(f"cannot read the shard report {path}: {exc}") from None
    try:
        return _shards.merge(reports)
    except (_shards.MergeError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot merge: {exc}") from None
