"""One batch, in stages: prepare the configuration, discover the submissions, plan them, open the
sandbox, grade, build the report, write its files.

:func:`grade_batch` takes one :class:`BatchConfig` (what the command line says) and returns the
report.  Each stage is a function with typed inputs and outputs; what the stages have done so
far is kept in a :class:`Run`, so that an interrupted batch (SIGINT, SIGTERM, at any stage)
still writes every requested file, with the rows not graded marked as such.
"""

import dataclasses
import datetime
import hashlib
import importlib
import inspect
import json
import os
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from course_i18n import LANGUAGES

from . import late as _late
from . import report as _report
from . import sandbox as _sandbox
from . import shards as _shards
from .notebooks import Discovery, NotebookInfo, _contents, find_submissions, identify, read_notebook
from .notebooks import student_pattern as student_pattern_of
from .runner import (Cancelled, Course, Options, assemble, interrupted_rows, plan_submission, run_submission,
                     start_ahead)
from .sandbox import Limits, SandboxError
from .secret import Secret, SecretError

VERSION = "4"      # 4: hidden tests keyed by a secret, one student per LMS id, one language per page


class UsageError(ValueError):
    """The grader was called wrongly (exit code 2)."""


class NothingToGrade(UsageError):
    """No notebook at all under the PATHs: misuse, except for a Gradescope upload (a 0 with the reason)."""

    def __init__(self, text, found=None):
        super().__init__(text)
        self.found = found


@dataclasses.dataclass(frozen=True)
class Outputs:
    """The files a batch (or a merge) writes; ``lang``: the instructor's language (the index, the class's
    known mistakes, the CSVs' mistake names)."""
    json: str = None
    csv: str = None
    wide_csv: str = None
    feedback: str = None
    gradescope: str = None
    totals_csv: str = None
    canvas_csv: str = None
    moodle_csv: str = None
    diagnoses_csv: str = None
    assignment: str = "Exercises"         # the LMS column of --canvas-csv
    per_exercise: bool = False            # --canvas-csv: one column per exercise
    moodle_worksheet: str = None          # the grading worksheet downloaded from Moodle (its headers, e-mails)
    lang: str = None


@dataclasses.dataclass(frozen=True)
class BatchConfig:
    """Everything one batch is asked to do (``python -m grading --help`` says what each means)."""
    paths: tuple
    outputs: Outputs = Outputs()
    group_by: str = "dir"
    student_pattern: str = None
    exercises: tuple = None               # exercise ids (None: those of the notebooks found)
    all_exercises: bool = False
    options: Options = dataclasses.field(default_factory=Options)
    limits: Limits = None                 # None: the defaults, with the CPU time of options.total_timeout
    jobs: int = None
    isolation: str = "auto"
    key_file: str = None                  # the instructor's key (None: a salt drawn for this batch)
    shard: object = None                  # "K/N" or (K, N)
    regrade: str = None                   # the report to regrade into
    only: tuple = None                    # with regrade: the students to grade again
    deadline: object = None               # an ISO text or a datetime
    late_penalty: float = 0.0             # percent per started day late
    registry: str = "grading.exercises"
    keep_temp: bool = False
    uid_base: int = None
    cgroups: bool = True
    warm_start: bool = True
    progress: object = dataclasses.field(default=sys.stderr, compare=False)
    pause_at: str = None                  # a test hook: wait 60 s when this stage begins
    early_signals: object = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True)
class Batch:
    """The configuration checked and resolved: what every stage reads."""
    config: BatchConfig
    course: Course
    secret: Secret
    registry_module: object
    pattern: object                       # the compiled --student-pattern, or None
    shard: tuple                          # (K, N) or None
    deadline: datetime.datetime
    limits: Limits
    jobs: int
    old: dict = None                      # the report a regrade goes into
    fixed_scope: frozenset = None         # a regrade's exercises


@dataclasses.dataclass
class Discovered:
    """What discovery found: the submissions this run grades, and the ids of the whole batch."""
    walk: Discovery
    submissions: dict                     # {key: notebooks.Submission} graded here (this shard's)
    whole: dict                           # every submission of the batch (all shards)
    all_ids: list


@dataclasses.dataclass
class Run:
    """What the stages have done so far (an interrupted batch reports from it)."""
    scope: set
    stage: str = "start-up"
    discovered: Discovered = None
    plans: dict = dataclasses.field(default_factory=dict)
    sandbox: _sandbox.Sandbox = None
    isolation: dict = None


def _log(stream, text):
    if stream is not None:
        try:
            stream.write(text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass


# -- stage 0: the configuration -------------------------------------------------------------

def prepare(config):
    """The :class:`Batch` of ``config``; UsageError for anything wrong in it."""
    if not config.paths:
        raise UsageError("no PATH given: name notebooks or folders of notebooks to grade")
    try:
        pattern = student_pattern_of(config.student_pattern) if config.student_pattern else None
        shard = (_shards.parse_shard(config.shard) if isinstance(config.shard, str) else
                 tuple(config.shard) if config.shard is not None else None)
        deadline = (_late.parse_deadline(config.deadline) if isinstance(config.deadline, str) else config.deadline)
        secret = Secret.from_key_file(config.key_file) if config.key_file else None
    except (ValueError, SecretError) as exc:
        raise UsageError(str(exc)) from None
    if config.late_penalty and (deadline is None or not 0 < config.late_penalty <= 100):
        raise UsageError("--late-penalty takes a percentage from 0 to 100 of the points per started day late, "
                         "and needs --deadline to know what is late")
    if shard is not None and secret is None:
        raise UsageError("--shard needs --key FILE: every shard must draw the same hidden tests (make a key once "
                         "with `python -m grading key FILE` and give it to every shard)")
    try:
        registry_module = importlib.import_module(config.registry)
    except ImportError as exc:
        raise UsageError(f"cannot import the exercise registry {config.registry!r}: {exc}") from None
    old, fixed = None, None
    if config.regrade is not None:
        old, secret, fixed = _regrade_setup(config, secret, shard)
    secret = secret or Secret.new_salt()
    try:
        course = Course(registry_module, secret, config.exercises)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if old is not None:
        _regrade_check(old, course, registry_module)
    options = config.options
    limits = config.limits or Limits(cpu_seconds=int(options.total_timeout) + 60)
    jobs = max(1, int(config.jobs or min(2, os.cpu_count() or 1)))
    return Batch(config, course, secret, registry_module, pattern, shard, deadline, limits, jobs, old, fixed)


def _regrade_setup(config, secret, shard):
    """The old report, the secret and the exercises a regrade must use (its own)."""
    if not config.only:
        raise UsageError("--regrade REPORT.json needs --only NAME[,NAME...]: the students to grade again")
    if shard is not None:
        raise UsageError("--regrade and --shard do not go together: regrade into the merged report")
    try:
        with open(config.regrade, encoding="utf-8") as f:
            old = json.load(f)
        head = old["grader"]
        version = head.get("version")
        old_ids = [e["id"] for e in head["exercises"]]
        recorded = head.get("hidden_tests") or {}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise UsageError(f"--regrade: cannot read the report {config.regrade}: {exc}") from None
    if version != VERSION:
        raise UsageError(f"--regrade: the report is in report format {version}, this grader writes format {VERSION}: "
                         "grade the whole class again")
    if recorded.get("origin") == "salt":
        if secret is not None:
            raise UsageError("--regrade: the report's hidden tests come from a salt drawn for that batch, which the "
                             "regrade uses; leave --key out")
        secret = Secret.from_report(head)
    elif secret is None or secret.fingerprint() != recorded.get("fingerprint"):
        raise UsageError(f"--regrade: the report was graded with the key whose fingerprint is "
                         f"{recorded.get('fingerprint')}; give that key with --key FILE")
    old_group = head.get("options", {}).get("group_by")
    if old_group and old_group != config.group_by:
        raise UsageError(f"--regrade: the report was graded with --group-by {old_group}, not {config.group_by}")
    if config.exercises and set(config.exercises) != set(old_ids):
        raise UsageError("--regrade: the report's exercises are fixed; leave --exercises out")
    return old, secret, frozenset(old_ids)


def _regrade_check(old, course, registry_module):
    """The course must grade as it did when the report was written."""
    wanted = old["grader"].get("course", {}).get("version")
    now = course_version(registry_module, course)
    restricted = Course(registry_module, course.secret, [e["id"] for e in old["grader"]["exercises"]])
    if wanted != now and course_version(registry_module, restricted) != wanted:
        raise UsageError(f"--regrade: the report's tests' fingerprint is {wanted}, this checkout's is "
                         f"{now}: the tests changed since, so grade the whole class again")


def fingerprinted_files(registry_module, course):
    """The source files the tests' fingerprint hashes: the registry module, grading/compare.py (which turns a
    result into pass or fail), and each exercise's tests, reference and comparison; of a decorated function
    (a reference in lib wrapped by lib.validate) both the wrapper's file and the function's own."""
    from .. import compare
    files = {inspect.getsourcefile(registry_module), inspect.getsourcefile(compare)}
    for ex in course.exercises.values():
        for func in (ex.make_public, ex.make_hidden, ex.reference, getattr(ex, "compare", None)):
            for f in (func, inspect.unwrap(func) if callable(func) else func):
                try:
                    files.add(inspect.getsourcefile(f))
                except TypeError:
                    pass
    return sorted(f for f in files if f)


def course_version(registry_module, course):
    """A fingerprint of what grading means: the exercises and the code that defines their tests."""
    h = hashlib.sha256()
    for ex in course.exercises.values():
        h.update(f"{ex.id}|{ex.notebook}|{ex.function}|{ex.points}|".encode())
    for path in fingerprinted_files(registry_module, course):
        try:
            with open(path, "rb") as f:
                h.update(f.read())
        except OSError:
            pass
    return h.hexdigest()[:12]


# -- stage 1: discovery ------------------------------------------------------------------------

def discover(batch, walk):
    """Every submission under the PATHs (``walk``, a notebooks.Discovery, fills as it goes), this shard's."""
    config = batch.config
    found, usage = find_submissions(config.paths, config.group_by, walk)
    missing = [p for p in usage if p.startswith(("no such", "not a file"))]
    if missing:
        raise UsageError("; ".join(missing))
    for p in usage:
        _log(config.progress, f"grader: warning: {p}")
    if not found:
        paths = config.paths
        raise NothingToGrade("found no notebooks (*.ipynb) to grade in " + ", ".join(map(str, paths)),
                             _contents(os.fspath(paths[0])) if len(paths) == 1 and os.path.isdir(paths[0]) else None)
    if _single(config) and len(found) != 1:
        raise UsageError(f"--gradescope FILE.json takes a batch of one submission, found {len(found)} "
                         "(use --group-by all, or give a folder)")
    if batch.old is not None:
        found = _only(found, config.only)
    all_ids = [s.id for s in found.values()]
    discovered = Discovered(walk, found, found, all_ids)
    if batch.shard is not None:
        keep = set(_shards.select(all_ids, *batch.shard))
        discovered.submissions = {k: s for k, s in found.items() if s.id in keep}
    return discovered


def _single(config):
    return bool(config.outputs.gradescope) and str(config.outputs.gradescope).endswith(".json")


def _only(found, names):
    """The submissions named by --only (their id, last part, or path under the batch's folder)."""
    wanted = {n.strip().strip("/") for n in names if n.strip()}
    keep, matched = {}, set()
    for key, sub in found.items():
        hits = {n for n in wanted if sub.id == n or sub.id.endswith("/" + n) or os.path.basename(sub.id) == n
                or n == sub.student_id}
        if hits:
            keep[key] = sub
            matched |= hits
    unknown = sorted(wanted - matched)
    if unknown:
        raise UsageError(f"--only: no submission named {', '.join(unknown)} under the PATHs (found: "
                         + ", ".join(os.path.basename(s.id) for s in list(found.values())[:20]) + ")")
    return keep


# -- stage 2: planning -------------------------------------------------------------------------

def scope_of(submissions, course, read):
    """The exercises of every course notebook found in ``submissions`` (by file name alone, or
    ``read``: as grading recognises them, metadata and defined functions included); all of the
    course's exercises when none is recognised."""
    stems = set()
    for sub in submissions.values():
        for f in sub.files:
            info = read_notebook(f.path, f.display, f.problem) if read else NotebookInfo(f.path, f.display)
            stems.add(identify(info, course.functions))
    return {ex.id for stem in stems if stem for ex in course.by_notebook.get(stem, [])} or set(course.exercises)


def plan(batch, discovered, scope, plans):
    """The runner.Plan of every submission this run grades, into ``plans`` ({key: Plan})."""
    for key, sub in discovered.submissions.items():
        plans[key] = plan_submission(sub, batch.course, batch.config.options, scope)
    return plans


# -- stage 3: the sandbox ----------------------------------------------------------------------

def open_sandbox(batch):
    """A working Sandbox (:func:`grading.batch.sandbox.open_sandbox`: the requested isolation, or for ``auto``
    and ``container`` the strongest that passes a self-check; it fails closed), or UsageError saying why there
    is none.  Whatever goes wrong or is interrupted here, no temporary folder is left behind."""
    config = batch.config
    try:
        sandbox = _sandbox.open_sandbox(config.isolation, batch.limits, config.keep_temp,
                                        lambda text: _log(config.progress, text), config.uid_base, config.cgroups,
                                        batch.jobs, config.warm_start,
                                        warn=lambda text: _log(config.progress or sys.stderr, text))
    except SandboxError as exc:
        raise UsageError(str(exc)) from None
    if sandbox.mode == "none":
        _not_dumpable()
    return sandbox


def _not_dumpable():
    """Without a sandbox the kernels run as the grader's own user: make the grader's memory (where the
    secret is) unreadable to them through /proc or ptrace (prctl PR_SET_DUMPABLE 0, Linux)."""
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)
    except (OSError, AttributeError):
        pass


# -- stage 4: grading --------------------------------------------------------------------------

def grade(batch, plans, sandbox):
    """Grade every plan, ``jobs`` submissions at a time (the plans fill with rows).

    Each of the ``jobs`` workers takes the next submission in order; while it grades one, the
    control group and first kernel of the next one it will grade are already starting
    (runner.start_ahead), so that no submission waits for the start of its first kernel."""
    progress = batch.config.progress
    cancel = threading.Event()
    done = {"n": 0}
    lock = threading.Lock()
    queue = iter(list(plans))

    def next_key():
        with lock:
            return next(queue, None)

    def work(key, ahead):
        plan_ = plans[key]
        try:
            run_submission(plan_, batch.course, sandbox, batch.config.options, cancel, ahead)
        except Cancelled:
            return False
        summary = _report.summarize(plan_.submission, [r.to_dict() for r in assemble(plan_)], plan_.lang)
        with lock:
            done["n"] += 1
            _log(progress, f"[{done['n']}/{len(plans)}] {plan_.submission}: {summary['points']:g}/"
                           f"{summary['max_points']:g} points, {plan_.seconds:.1f} s")
        return True

    def worker():
        key, current, ahead = next_key(), None, None
        try:
            while key is not None and not cancel.is_set():
                following = next_key()
                current, ahead = ahead, None
                if following is not None:
                    ahead = start_ahead(plans[following], batch.course, sandbox, batch.config.options, cancel)
                taken, current = current, None          # run_submission ends what it takes, whatever happens
                if not work(key, taken):
                    return
                key = following
        finally:
            for left in (current, ahead):               # started ahead for a submission this worker won't grade
                if left is not None:
                    left.discard()

    pool = ThreadPoolExecutor(max_workers=batch.jobs, thread_name_prefix="grader")
    try:
        futures = [pool.submit(worker) for _ in range(min(batch.jobs, len(plans)))]
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


# -- the stages in order -------------------------------------------------------------------

def _stage(batch, run, name):
    run.stage = name
    if batch.config.pause_at == name:
        _log(batch.config.progress, f"grader: pausing at {name} (test hook)")
        time.sleep(60)


def _run(batch, run):
    config, course = batch.config, batch.course
    _stage(batch, run, "discovery")
    walk = Discovery(config.group_by, batch.pattern)
    run.discovered = Discovered(walk, {}, {}, [])
    run.discovered = discovered = discover(batch, walk)
    if batch.fixed_scope:
        run.scope = set(batch.fixed_scope)     # a regrade keeps the report's exercises
    elif not (config.exercises or config.all_exercises):
        # a first guess from the file names alone, in case the batch is interrupted while planning
        run.scope = scope_of(discovered.whole, course, read=False)
    _stage(batch, run, "planning")
    # Which exercises get rows: the ones asked for, else those of every notebook in the WHOLE batch,
    # decided before sharding, so that every shard grades the same exercises as a whole run.
    if not (config.exercises or config.all_exercises or batch.fixed_scope):
        run.scope = scope_of(discovered.whole, course, read=True)
    plan(batch, discovered, run.scope, run.plans)
    _stage(batch, run, "sandbox")
    run.sandbox = sandbox = open_sandbox(batch)
    iso = run.isolation = sandbox.describe()
    _log(config.progress, f"grader: {len(discovered.submissions)} submission(s), "
                          f"{sum(len(s.files) for s in discovered.submissions.values())} notebook(s), "
                          f"{len(run.scope)} exercise(s), {batch.jobs} job(s), hidden tests from "
                          f"{'the key' if batch.secret.origin == 'key' else 'a salt drawn for this batch'} "
                          f"(fingerprint {batch.secret.fingerprint()})")
    _log(config.progress, f"grader: isolation {iso['mode']} ({', '.join(iso['namespaces']) or 'no namespaces'}); "
                          f"memory {iso['memory']}; cpu {iso['cpu']}; processes {iso['processes']}")
    if iso.get("cgroups") is None and iso.get("why"):
        _log(config.progress, f"grader: no control groups: {iso['why']}")
    _stage(batch, run, "grading")
    grade(batch, run.plans, sandbox)


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


def grade_batch(config):
    """Grade every submission of ``config`` (a BatchConfig); returns the report (a dict).

    Raises UsageError for misuse (nothing to grade, unknown exercise ids ...).  The report and every
    requested file are written (atomically) even when the batch is interrupted (SIGINT, SIGTERM) at
    any stage, with the rows not graded marked as such and ``complete: false``; KeyboardInterrupt is
    then re-raised.  ``config.early_signals``: a list that a signal handler installed before this
    call appends to; a signal in it (or arriving later) stops the batch the same way."""
    batch = prepare(config)
    run = Run(scope=set(batch.course.exercises))
    started = time.time()
    interrupted, nothing = False, None
    outputs = config.outputs
    with _Signals():
        try:
            if config.early_signals:
                raise KeyboardInterrupt
            _run(batch, run)
        except KeyboardInterrupt:
            interrupted = True
            _log(config.progress, f"grader: interrupted during {run.stage}; writing the report")
        except NothingToGrade as exc:
            if not _single(config):
                raise
            nothing = exc             # a Gradescope upload without a notebook: a 0 that says why
            _log(config.progress, f"grader: {exc}; writing a results.json with 0 points")
        finally:
            if run.sandbox is not None:
                run.sandbox.close()
        report = build_report(batch, run, started, interrupted)
        if batch.old is not None:
            report = _combine(batch.old, report)
        if nothing is not None:
            _report.write_nothing_gradable(report, outputs.gradescope, config.options.lang, nothing.found)
            outputs = dataclasses.replace(outputs, gradescope=None)
        write_outputs(report, dataclasses.replace(outputs, lang=index_lang(outputs.lang, config.options)),
                      config.progress)
    if interrupted:
        raise KeyboardInterrupt
    return report


def index_lang(lang, options):
    """The instructor's language: --lang, else the students' forced language, else en."""
    for candidate in (lang, options.lang):
        if candidate in LANGUAGES:
            return candidate
    return "en"


# -- stage 5: the report -------------------------------------------------------------------------

def build_report(batch, run, started, interrupted):
    """The report of what ``run`` did: one summary per submission, its rows, the grader's settings."""
    config, course, scope = batch.config, batch.course, run.scope
    sandbox = run.sandbox
    discovered = run.discovered
    submissions = (discovered.submissions or discovered.walk.submissions) if discovered else {}
    all_rows, summaries, seconds = [], [], {}
    for key, sub in submissions.items():
        plan_ = run.plans.get(key)
        if plan_ is None:
            rows = [r.to_dict() for r in interrupted_rows(sub.id, course, scope)]
            lang, languages = "en", {}
        else:
            rows = [r.to_dict() for r in assemble(plan_) if r.exercise == "-" or r.exercise in scope]
            lang, languages = plan_.lang, plan_.languages
            seconds[plan_.submission] = round(plan_.seconds, 3)
        handed_in = _mark_late(rows, key, sub, batch.deadline, config.late_penalty) if batch.deadline else None
        all_rows += rows
        summary = _report.summarize(sub.id, rows, lang)
        if any("points_before_penalty" in r for r in rows):
            summary["points_before_penalty"] = round(sum(r.get("points_before_penalty", r["points"]) for r in rows), 6)
        if handed_in is not None:
            summary["handed_in"] = handed_in
            if handed_in["late_hours"] > 0:
                summary["flags"] = sorted(set(summary["flags"]) | {"late"})
        if len(languages) > 1:
            summary["languages"] = dict(sorted(languages.items()))
        if sub.student_id:
            summary["student_id"] = sub.student_id
        summaries.append(summary)
    all_ids = (discovered.all_ids if discovered else []) or [s.id for s in submissions.values()]
    complete = not interrupted and all(p.units() == [] or all(u.rows is not None for u in p.units())
                                       for p in run.plans.values())
    isolation = run.isolation or {"mode": None, "why": "no sandbox was started"}
    options, limits = config.options, batch.limits
    return {
        "grader": {
            "version": VERSION,
            "registry": config.registry,
            "course": {"version": course_version(batch.registry_module, course)},
            "hidden_tests": batch.secret.record(),
            "shard": {"k": batch.shard[0], "of": batch.shard[1]} if batch.shard else None,
            "batch": {"submissions": len(all_ids), "digest": _shards.digest(all_ids), "graded": len(summaries)},
            "complete": complete,
            "isolation": isolation,
            "uids": ([sandbox.uids.first, sandbox.uids.first + sandbox.uids.count - 1]
                     if sandbox is not None and sandbox.mode == "root" else None),
            "options": {"timeout": options.timeout, "cell_timeout": options.cell_timeout,
                        "total_timeout": options.total_timeout, "memory_mb": limits.memory_mb,
                        "max_procs": limits.max_procs, "group_by": config.group_by, "lang": options.lang,
                        "jobs": batch.jobs, "duplicates": options.duplicates, "partial": options.partial,
                        **({"deadline": batch.deadline.isoformat(), "late_penalty": float(config.late_penalty or 0)}
                           if batch.deadline is not None else {})},
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


def _mark_late(rows, key, sub, deadline, penalty):
    """When a submission was handed in and how late (its summary's ``handed_in``); with --late-penalty, every
    row's points (so every gradebook column, and the total) less the penalty, the points before it kept in
    the row's ``points_before_penalty`` and the percentage taken in ``handed_in["penalty_percent"]``."""
    folder = key if isinstance(key, str) and os.path.isdir(key) else None
    when, source = _late.handed_in(folder, [f.path for f in sub.files if f.problem is None])
    hours = _late.lateness(when, deadline)
    out = {"time": when.isoformat(timespec="seconds") if when else None, "from": source, "late_hours": hours}
    if hours > 0 and penalty:
        out["penalty_percent"] = _late.penalty_percent(hours, penalty)
        for row in rows:
            if row["points"]:
                row["points_before_penalty"] = row["points"]
                row["points"] = _late.penalised(row["points"], hours, penalty)
    return out


def _rubric_groups(course, ex, options):
    """Under --partial the rubric states each exercise's test groups: its points are split equally over them."""
    if not options.partial:
        return {}
    from .runner import test_groups
    cases = [(c, False) for c in ex.public_cases()] + [(c, True) for c in course.hidden_cases(ex)]
    return {"groups": list(test_groups(cases))}


def _max_rss_mb():
    """The grader's own peak memory (kernels are other processes): what no submission can inflate."""
    import resource
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


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


# -- stage 6: the files ----------------------------------------------------------------------------

def write_outputs(report, outputs, progress=None):
    """Write every file ``outputs`` asks for (each atomically).  The report gets its class diagnoses
    (``report["diagnoses"]``, see report.class_diagnoses) in the instructor's language."""
    lang = outputs.lang or "en"
    report["diagnoses"] = _report.class_diagnoses(report, lang)
    worksheet = _report.read_moodle_worksheet(outputs.moodle_worksheet) if outputs.moodle_worksheet else None
    if outputs.diagnoses_csv:
        _report.atomic_write(outputs.diagnoses_csv, _report.to_diagnoses_csv(report, lang))
    if outputs.totals_csv:
        _report.atomic_write(outputs.totals_csv, _report.to_totals_csv(report, worksheet))
    if outputs.canvas_csv:
        _report.atomic_write(outputs.canvas_csv, _report.to_canvas_csv(report, outputs.assignment,
                                                                       outputs.per_exercise))
    if outputs.moodle_csv:
        text, warnings = _report.to_moodle_csv(report, worksheet)
        for line in warnings:
            _log(progress, f"grader: warning: {line}")
        _report.atomic_write(outputs.moodle_csv, text)
    if outputs.json:        # a report that keeps the batch's salt (no --key) holds the hidden tests' secret
        private = Secret.from_report(report.get("grader") or {}) is not None
        _report.atomic_write(outputs.json, _report.to_json(report), 0o600 if private else 0o644)
    if outputs.csv:
        _report.atomic_write(outputs.csv, _report.to_csv(report["rows"], lang))
    if outputs.wide_csv:
        _report.atomic_write(outputs.wide_csv, _report.to_wide_csv(report, worksheet))
    if outputs.feedback:
        for line in _report.write_feedback(report, outputs.feedback, lang).warnings:
            _log(progress, f"grader: warning: {line}")
    if outputs.gradescope:
        _report.write_gradescope(report, outputs.gradescope)


def merge_reports(paths):
    """The merged report of shard reports (JSON files); UsageError when they do not belong together."""
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
