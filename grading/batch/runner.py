"""Grading submissions: run each notebook in a sandboxed kernel, call the
learner's functions on public and hidden tests, compare in the grader.

Trust boundary: expected values come from ``Exercise.expected`` run here, in
the grader's process, and ``Exercise.compare`` runs here too.  Whether a
function relies on a reference answer is decided by its behaviour: each
exercise is graded in a kernel whose ``lib`` withholds that exercise's
reference answers (see blind.py), so an answer that needs them fails its
tests there.  The kernel only ever receives test inputs and sends
back plain JSON results (see grading/codec.py), read with a size limit and checked
record by record: whatever a student's code patches or writes inside its
kernel can only spoil its own results, and a malformed record is the
student's failure, never "an internal grader error".

Hidden tests stay hidden from a student's own code too.  A kernel runs every
public test of every exercise it grades before it receives the input of any
hidden test (:meth:`NotebookRun.grade`), so what a public test shows verbatim
(the student's own error message, the value it returned) was written before
the kernel could know a hidden input; and nothing a kernel says after that,
an exception's message or class name, a dtype, an exit status, the text of an
error in a cell run again, reaches a page (:func:`hidden_safe`).

One worker grades one submission at a time, its kernels one after the
other (a notebook takes one kernel per group of its exercises, see
:func:`kernel_plan`), all of them in the submission's control group (see
cgroups.py); the next kernel starts while the current one runs (:class:`Prestart`).
"""

import builtins
import dataclasses
import json
import math
import os
import secrets
import stat
import threading
import time
import traceback
from typing import NamedTuple

import numpy as np

from course_i18n import LANGUAGES, format_number

from .. import codec, diagnoses, messages, usage
from ..cells import prepare_cell
from ..feedback import explain, message as _feedback_message, type_name
from ..values import Opaque, from_plain, to_plain
from . import blind
from . import duplicates as _duplicates
from .kernel import Kernel, KernelDied
from .notebooks import identify, read_notebook

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, os.pardir, "codec.py"), encoding="utf-8") as _a, \
        open(os.path.join(HERE, os.pardir, "arguments.py"), encoding="utf-8") as _c, \
        open(os.path.join(HERE, "_kernel_side.py"), encoding="utf-8") as _b:
    KERNEL_CODE = _a.read() + "\n" + _c.read() + "\n" + _b.read()
GRADER_FILE = "g-{nonce}.py"                 # KERNEL_CODE in a kernel's input folder (NotebookRun.call)
MAX_RESULT_BYTES = 16 * 1024 * 1024          # the whole result file of one exercise
MAX_RECORD_BYTES = 2 * 1024 * 1024           # one line of it (one test's result)
MAX_FEEDBACK = 3                             # failed tests explained per row
STATUSES = ("pass", "fail", "error", "timeout", "missing")
RECORD_KEYS = {"case", "seconds", "result", "encode_error", "setup_error"}
PHASES = ("public", "hidden")


@dataclasses.dataclass
class Options:
    timeout: float = 10.0            # per exercise: all its tests together
    cell_timeout: float = 30.0       # per notebook cell
    total_timeout: float = 300.0     # per submission (all its notebooks)
    start_timeout: float = 60.0      # starting one kernel
    interrupt_grace: float = 2.0     # after an interrupt, before the kernel is killed
    max_restarts: int = 3            # kernel restarts per notebook
    lang: str = "auto"               # message language: auto / zh / en / ru
    duplicates: str = "newest"       # several notebooks of one set: newest / best / ambiguous (duplicates.py)
    partial: bool = False            # --partial: an exercise's points split over its test groups (test_groups)


class Cancelled(Exception):
    pass


# -- the exercise registry --------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Prepared:
    """An exercise's tests for one batch: what the kernel receives in each phase (JSON text) and,
    in order (public, then hidden), every test with whether it is hidden and its expected value."""
    public: str
    hidden: str
    expected: list                    # [(case, hidden, expected value)]

    def count(self, phase):
        return sum(1 for _, hidden, _ in self.expected if hidden == (phase == "hidden"))


class Course:
    """The registry (``grading.exercises``) plus everything computed once per batch: the hidden
    tests, drawn from ``secret`` (a grading.batch.secret.Secret), and the expected values."""

    def __init__(self, registry, secret, exercise_ids=None):
        self.registry = registry
        self.secret = secret
        all_exercises = dict(registry.EXERCISES)
        if exercise_ids:
            unknown = [i for i in exercise_ids if i not in all_exercises]
            if unknown:
                raise ValueError(f"unknown exercise id(s): {', '.join(unknown)}; known: {', '.join(all_exercises)}")
            all_exercises = {i: all_exercises[i] for i in all_exercises if i in exercise_ids}
        self.exercises = all_exercises
        self.by_notebook = {}
        for ex in self.exercises.values():
            self.by_notebook.setdefault(ex.notebook, []).append(ex)
        self.functions = {stem: {ex.function for ex in exs} for stem, exs in self.by_notebook.items()}
        self.blind = blind.BlindPlan(self)
        self._prepared = {}
        self._needs = {}
        self._locks = {ex_id: threading.Lock() for ex_id in self.exercises}

    def hidden_cases(self, ex):
        return ex.hidden_cases(self.secret.rng(ex.id))

    def prepared(self, ex):
        """The exercise's :class:`Prepared` tests, computed once per batch."""
        with self._locks[ex.id]:
            if ex.id not in self._prepared:
                cases = [(c, False) for c in ex.public_cases()] + [(c, True) for c in self.hidden_cases(ex)]
                # what the tests run of lib decides what a kernel may withhold (blind.py): traced on the way
                values, self._needs[ex.id] = blind.expected_and_needs(ex, [case for case, _ in cases])

                def payload(hidden):
                    return json.dumps([{"name": case.name, "setup": case.setup or "",
                                        "args": codec.encode(to_plain(tuple(case.args)), strict=True),
                                        "kwargs": codec.encode(to_plain(dict(case.kwargs)), strict=True)}
                                       for case, h in cases if h == hidden], ensure_ascii=False, allow_nan=False)
                self._prepared[ex.id] = Prepared(payload(False), payload(True),
                                                 [(case, hidden, value) for (case, hidden), value in zip(cases, values)])
            return self._prepared[ex.id]

    def needs(self, ex):
        """What the tests of ``ex`` run of the sandbox's packages (see blind.expected_and_needs)."""
        self.prepared(ex)
        return self._needs[ex.id]


# -- rows and outcomes ---------------------------------------------------------------

@dataclasses.dataclass
class Row:
    """One row of the report: a submission's result on one exercise (``exercise`` "-": a note about a file)."""
    submission: str
    notebook: str
    exercise: str
    function: str
    status: str                        # one of STATUSES
    points: float
    max_points: float
    message: str
    cases_passed: int = 0
    cases_total: int = 0
    lang: str = "en"
    feedback: list = dataclasses.field(default_factory=list)    # [{"test", "hidden", "text", "line", "hint"...}]
    details: dict = None               # a grader error's traceback
    diagnosis: str = None              # the known mistake that explains the failures
    groups: list = None                # --partial: [groups passed, groups]
    duplicates: dict = None            # several copies of the notebook (duplicates.record)
    points_before_penalty: float = None

    def to_dict(self):
        """The row as the JSON report holds it (optional fields only when set)."""
        out = dataclasses.asdict(self)
        return {k: v for k, v in out.items() if v is not None and (v or k not in OPTIONAL)}


OPTIONAL = ("details", "diagnosis", "groups", "duplicates", "points_before_penalty")


def make_row(submission, notebook, ex, status, message, *, exercise_id=None, max_points=None, passed=0, total=0,
             lang="en", feedback=(), details=None, diagnosis=None, points=None, groups=None):
    if points is None:
        points = ex.points if (ex is not None and status == "pass") else 0
    return Row(submission=submission, notebook=str(notebook) if notebook else "",
               exercise=exercise_id if exercise_id is not None else (ex.id if ex is not None else "-"),
               function=ex.function if ex is not None else "", status=status, points=points,
               max_points=max_points if max_points is not None else (ex.points if ex is not None else 0),
               message=clean(message), cases_passed=passed, cases_total=total, lang=lang,
               feedback=[{k: clean(v, 1000) if isinstance(v, str) else v for k, v in f.items()} for f in feedback],
               details=details or None, diagnosis=diagnosis, groups=groups)


@dataclasses.dataclass(frozen=True)
class Outcome:
    """What one test gave: passed or not, and why (a key of grading.feedback with its fields)."""
    case: object
    hidden: bool
    ok: bool
    reason: str
    details: dict


class Observation(NamedTuple):
    """One test as grading.diagnoses reads it."""
    case: object
    expected: object
    got: object
    ok: bool
    reason: str
    details: dict


def test_groups(cases):
    """The test groups of --partial, in order: each public test is one, and all hidden tests of one kind are one.
    ``cases``: [(case, hidden)].  Returns {group name: [indices into cases]}."""
    groups = {}
    for index, (case, hidden) in enumerate(cases):
        groups.setdefault(f"hidden:{case.kind}" if hidden else case.name, []).append(index)
    return groups


def partial_points(ex, cases, passed_indices):
    """(points, [groups passed, groups]) under --partial: ex.points split equally over the test groups,
    a group earning its share when all its tests passed; rounded to 2 decimals."""
    groups = test_groups(cases)
    won = sum(1 for members in groups.values() if all(i in passed_indices for i in members))
    return round(ex.points * won / len(groups), 2) if groups else 0, [won, len(groups)]


def clean(text, limit=400):
    text = str(text).encode("utf-8", "replace").decode("utf-8", "replace")
    text = " ".join(text.replace("\x00", " ").split())
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _num(x, lang=None):
    """A limit in seconds as a message in ``lang`` writes it (2.5 / 2,5)."""
    return format_number(x, lang)


# -- what a hidden test may show -------------------------------------------------------

def _exception_names():
    names = {n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)}
    names |= {n for n, v in vars(getattr(np, "exceptions", np)).items() if isinstance(v, type)
              and issubclass(v, BaseException)}
    return frozenset(names | {"LinAlgError", "StdinNotImplementedError"})


KNOWN_EXCEPTIONS = _exception_names()        # Python's, NumPy's, IPython's input(): a name no student made up
PLAIN_DTYPES = frozenset(np.dtype(c).name for c in "?bhilqBHILQefdgFDG")


def hidden_safe(reason, details, lang):
    """``details`` of a hidden test's failure with every value the student's code chose replaced: the class
    of an exception it raised, unless Python, NumPy or IPython defines it (KNOWN_EXCEPTIONS; a class it
    defined could be named after an input), and a dtype other than a plain one.  What stays is a few bits,
    never data."""
    fields = dict(details)
    student = {"raised": "type", "wrong_exception": "got_type"}.get(reason)
    if student and fields.get(student) not in KNOWN_EXCEPTIONS:
        fields[student] = messages.text("own_exception", lang)
    if reason == "wrong_dtype" and fields.get("got") not in PLAIN_DTYPES:
        fields["got"] = messages.text("unusual_dtype", lang)
    return fields


def _withheld_name(outcome, named):
    """The withheld object a failed test ran into, from the exception the stub raised (blind.py)."""
    message = str(outcome.details.get("message", "")) if outcome.reason in ("raised", "wrong_exception") else ""
    match = blind.WITHHELD_MARK.search(message)
    return match.group(1) if match and match.group(1) in named else None


# -- one notebook in one kernel ---------------------------------------------------------

@dataclasses.dataclass
class Call:
    """One phase of an exercise in a kernel: the records it wrote and how the call ended."""
    phase: str
    records: dict                      # read_records()
    status: str                        # the kernel's: ok | error | timeout | died
    error: str = ""                    # status "error": what the grader's code raised in the kernel
    limit: float = 0.0                 # seconds it was given
    seconds: float = 0.0
    died: tuple = None                 # why the kernel is gone, when it is

    def complete(self, n):
        return self.status == "ok" and self.died is None and self.records["head"] is None and \
            len(self.records["cases"]) == n


class NotebookRun:
    """Runs one notebook's cells in a kernel, restarting it when a cell kills
    or wedges it, and calls its exercise functions."""

    def __init__(self, info, course, sandbox, options, deadline, lang, cancel, group=None, withheld=None, sent=None):
        self.info, self.course, self.sandbox, self.options = info, course, sandbox, options
        self.deadline, self.lang, self.cancel, self.group = deadline, lang, cancel, group
        # {exercise id: sites} withheld from this kernel's lib (blind.py), and the packages that do it
        self.withheld = dict(withheld or {})
        every = frozenset().union(*self.withheld.values()) if self.withheld else frozenset()
        self.packages = sandbox.packages_for(every) if (sandbox is not None and every) else None
        self.cells = []
        for number, source, tags in info.cells:
            code = prepare_cell(source, tags)
            if code is not None:
                self.cells.append((number, code))
        self.kernel = None
        self.prestarted = None      # a Prestart of this run's first kernel (see run_submission)
        self.skip = {}              # cell number -> reason (key, fields)
        self.cell_errors = []       # (cell number, message key, its fields): a raised error or an interrupt
        self.fatal = None           # (status, message): nothing more can run
        self.kernels_started = 0
        self.unfinished = set()     # top-level cells interrupted or skipped for running too long
        # hidden inputs went into a kernel: from then on no text of the student's code is shown.  Without a
        # sandbox a kernel can leave them on the disk for the submission's next kernel: ``sent`` (a set
        # shared by its runs) says so, and that kernel's public tests are explained without their values
        self.sent = sent if sent is not None else set()
        self.hidden_sent = False

    def left(self):
        return self.deadline - time.monotonic()

    @property
    def quiet(self):
        """Without a sandbox, after an earlier kernel of the submission received hidden inputs."""
        return getattr(self.sandbox, "mode", "none") == "none" and bool(self.sent - {id(self)})

    def close(self):
        if self.kernel is not None:
            self.kernel.kill()
            self.kernel = None

    def discard_prestarted(self):
        """Stop the kernel started in the background for this run, if it was never taken."""
        if self.prestarted is not None:
            self.prestarted.discard()
            self.prestarted = None

    def prestart(self):
        """Start this run's first kernel in the background (while the run before it works)."""
        if self.sandbox is not None and self.prestarted is None:
            self.prestarted = Prestart(Kernel(self.sandbox, self.lang, self.group, self.packages),
                                       max(1.0, min(self.options.start_timeout, self.left())))

    def _take_prestarted(self):
        """The kernel started in the background, if it started; None otherwise."""
        prestarted, self.prestarted = self.prestarted, None
        kernel = prestarted.take() if prestarted is not None else None
        if kernel is not None and self.group is not None:
            kernel.oom_before = self.group.oom_kills()         # what happened before this run is not its doing
        return kernel

    def _check_cancel(self):
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()

    def _timeout_message(self):
        return messages.text("total_timeout", self.lang, seconds=_num(self.options.total_timeout, self.lang))

    def boot(self):
        """A kernel in which every runnable cell has run; False (and self.fatal) if impossible."""
        while True:
            self._check_cancel()
            self.close()
            if self.left() <= 0:
                self.fatal = ("timeout", self._timeout_message())
                return False
            if self.kernels_started > self.options.max_restarts:
                reasons = "; ".join(messages.text("cell_skipped_hint", self.lang, cell=n,
                                                  reason=messages.reason(r, self.lang)) for n, r in self.skip.items())
                self.fatal = ("error", messages.text("kernel_failed", self.lang, reason=messages.text(
                    "gave_up", self.lang, count=self.kernels_started, reasons=reasons)))
                return False
            self.kernels_started += 1
            kernel = self._take_prestarted()
            if kernel is None:
                kernel = Kernel(self.sandbox, self.lang, self.group, self.packages)
                try:
                    kernel.start(timeout=max(1.0, min(self.options.start_timeout, self.left())))
                except KernelDied as exc:
                    why = exc.args[0] if exc.args else ("exit_gone", {})
                    kernel.kill()
                    self.fatal = ("error", messages.text("kernel_failed", self.lang,
                                                         reason=messages.reason(why, self.lang)))
                    return False
                except BaseException:
                    kernel.kill()
                    raise
            self.kernel = kernel
            if self._run_cells():
                return True
            if self.fatal:
                return False

    def _run_cells(self):
        self.cell_errors = []
        for number, code in self.cells:
            if number in self.skip:
                continue
            self._check_cancel()
            left = self.left()
            if left <= 0:
                self.fatal = ("timeout", self._timeout_message())
                return False
            limit = min(self.options.cell_timeout, left)
            result = self.kernel.execute(code, limit)
            if result.status == "error":
                # once hidden inputs were sent, a kernel before this one may have left them where this one
                # reads them (without a sandbox): the error's class is said, never its message
                error = (f"{result.ename}: {result.evalue}" if not (self.hidden_sent or self.quiet) else
                         result.ename if result.ename in KNOWN_EXCEPTIONS else messages.text("own_exception",
                                                                                            self.lang))
                self.cell_errors.append((number, "cell_error_hint", {"error": error}))
            elif result.status == "timeout":
                self.unfinished.add(number)
                if self.kernel.interrupt(self.options.interrupt_grace):
                    self.cell_errors.append((number, "cell_interrupted_hint", {"seconds": _num(limit, self.lang)}))
                    continue
                self.skip[number] = ("ignored_interrupt", {"seconds": _num(limit, self.lang)})
                return False
            elif result.status == "died":
                self.skip[number] = self.kernel.describe_exit()
                return False
        return True

    def hints(self):
        parts = [messages.text("cell_skipped_hint", self.lang, cell=n, reason=messages.reason(r, self.lang))
                 for n, r in self.skip.items()]
        parts += [messages.text(key, self.lang, cell=n, **fields) for n, key, fields in self.cell_errors[:2]]
        return "; ".join(parts)

    def grade(self, submission, exercises):
        """One row per exercise.  Every public test of every exercise runs before any hidden input
        enters a kernel (see the module docstring); an exercise whose public tests stopped early
        (a time-out, a dead kernel) runs no hidden test."""
        calls = {ex.id: {} for ex in exercises}
        broken = {}                                        # exercise id -> a row for a grader bug
        for phase in PHASES:
            for ex in exercises:
                if ex.id in broken or (phase == "hidden" and not self._public_done(ex, calls[ex.id])):
                    continue
                if self.fatal is None and (self.kernel is None or not self.kernel.alive()):
                    self.boot()
                if self.fatal is not None:
                    break
                try:
                    calls[ex.id][phase] = self.call(ex, phase, calls[ex.id])
                except Cancelled:
                    raise
                except Exception as exc:          # a grader bug must cost one row, not the batch
                    broken[ex.id] = self.row(submission, ex, "error", messages.text(
                        "internal", self.lang, error=f"{type(exc).__name__}: {exc}"),
                        details={"traceback": traceback.format_exc()[-2000:]})
                    self.close()
        rows = []
        for ex in exercises:
            if ex.id in broken:
                rows.append(broken[ex.id])
            elif not calls[ex.id] and self.fatal is not None:
                rows.append(self.row(submission, ex, *self.fatal))
            else:
                rows.append(self.judge(submission, ex, calls[ex.id]))
        return rows

    def _public_done(self, ex, calls):
        public = calls.get("public")
        return public is not None and public.complete(self.course.prepared(ex).count("public"))

    def row(self, submission, ex, status, message, **kw):
        return make_row(submission, self.info.display, ex, status, message, lang=self.lang, **kw)

    def call(self, ex, phase, earlier):
        """Send one phase's tests of ``ex`` into the kernel and read back its records (a :class:`Call`)."""
        prepared = self.course.prepared(ex)
        limit = min(self.options.timeout - sum(c.seconds for c in earlier.values()), self.left())  # both phases
        if limit <= 0:
            return Call(phase, {"head": None, "cases": {}}, "out_of_time" if self.left() <= 0 else "timeout")
        kernel = self.kernel
        nonce = secrets.token_hex(8)
        cases_out = kernel.kdir / "in" / f"c-{nonce}.json"
        fd = os.open(cases_out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(prepared.hidden if phase == "hidden" else prepared.public)
        if phase == "hidden":
            self.hidden_sent = True
            self.sent.add(id(self))
        result_outside = kernel.io_path(f"r-{nonce}.jsonl")
        params = {"function": ex.function, "cases": f"{kernel.launch.inside_in}/c-{nonce}.json",
                  "out": f"{kernel.launch.inside_io}/r-{nonce}.jsonl", "max_bytes": MAX_RECORD_BYTES // 2}
        # compiled once per kernel and kept in sys.modules, binding no name in the notebook's namespace (the
        # notebook can replace it, as it can patch anything in its process: that only spoils its own results);
        # its text is read from the kernel's read-only input folder, written there once per kernel (under a
        # name no one can guess, as the cases' file), so that a call's request is a line, not the 22 kB of
        # KERNEL_CODE each time
        if kernel.grader_file is None:
            name = GRADER_FILE.format(nonce=secrets.token_hex(8))
            fd = os.open(kernel.kdir / "in" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(KERNEL_CODE)
            kernel.grader_file = name
        inside = f"{kernel.launch.inside_in}/{kernel.grader_file}"
        code = (f"__import__('builtins').exec((lambda s: s.modules.get('__course_grader__') or s.modules.setdefault("
                f"'__course_grader__', __import__('types').SimpleNamespace(code=compile(__import__('io').open("
                f"{inside!r}, encoding='utf-8').read(), '<grader>', 'exec'))))(__import__('sys')).code, "
                f"{{'__name__': '__grader__', 'PARAMS': {params!r}, 'USER_NS': __import__('builtins').globals()}})")
        started = time.monotonic()
        result = kernel.execute(code, limit)
        recovered = True
        if result.status == "timeout":
            recovered = kernel.interrupt(self.options.interrupt_grace)
        records = read_records(result_outside, prepared.count(phase))
        try:
            os.unlink(cases_out)
        except OSError:
            pass
        died = None
        if result.status == "died" or not recovered or not kernel.alive():
            died = kernel.describe_exit() if not kernel.alive() else ("exit_gone", {})
            self.close()                     # the next call starts a fresh kernel
        return Call(phase, records, result.status, error=f"{result.ename}: {result.evalue}", limit=limit,
                    seconds=time.monotonic() - started, died=died)

    # -- judging: records -> outcomes -> a row ------------------------------------------------

    def outcomes(self, ex, calls):
        """([Outcome], [Observation]) of the tests that ran, in order, up to the first without a record."""
        expected = self.course.prepared(ex).expected
        outcomes, observations = [], []
        for phase in PHASES:
            call = calls.get(phase)
            tests = [e for e in expected if e[1] == (phase == "hidden")]
            if call is None or call.records["head"] is not None:
                break
            for index, (case, hidden, exp) in enumerate(tests):
                rec = call.records["cases"].get(index)
                if rec is None:
                    return outcomes, observations
                if isinstance(rec, str):       # a record that is not one: the notebook's code wrote it
                    outcomes.append(Outcome(case, hidden, False, "invalid_result", {"problem": (rec, {})}))
                    continue
                if "setup_error" in rec:
                    outcomes.append(Outcome(case, hidden, False, "setup_in_kernel", {"error": rec["setup_error"][:200]}))
                    continue
                if "encode_error" in rec or "result" not in rec:
                    got = Opaque("result_too_large", "")
                else:
                    try:
                        got = from_plain(codec.decode(rec["result"]))
                    except (codec.CodecError, ValueError, TypeError, KeyError, AttributeError,
                            RecursionError, OverflowError, MemoryError):
                        outcomes.append(Outcome(case, hidden, False, "invalid_result",
                                                {"problem": ("record_undecodable", {})}))
                        continue
                try:
                    ok, reason, details = ex.compare(exp, got)
                except Exception as exc:  # noqa: BLE001 - the comparison of a student's value failed: a failed test
                    ok, reason, details = False, "invalid_result", {"problem": ("record_undecodable", {}),
                                                                    "error": f"{type(exc).__name__}"}
                outcomes.append(Outcome(case, hidden, bool(ok), reason, dict(details or {})))
                observations.append(Observation(case, exp, got, bool(ok), reason, dict(details or {})))
        return outcomes, observations

    def judge(self, submission, ex, calls):
        """The row of one exercise from the calls of its phases."""
        lang = self.lang
        expected = self.course.prepared(ex).expected
        total = len(expected)
        public = calls["public"]
        head = public.records["head"]
        if head is not None and head.get("missing") is True:
            message = messages.text("missing_function", lang, function=ex.function)
            hint = self.hints()
            return self.row(submission, ex, "missing", f"{message} ({hint})" if hint else message, total=total)
        if head is not None and isinstance(head.get("not_callable"), str):
            kind = messages.text("own_type", lang) if self.quiet else type_name(head["not_callable"][:60], lang)
            return self.row(submission, ex, "missing", messages.text(
                "not_callable", lang, function=ex.function, type=kind), total=total)
        outcomes, observations = self.outcomes(ex, calls)
        passed = sum(1 for o in outcomes if o.ok)
        counts = f"[{passed}/{total}]"
        failures = [o for o in outcomes if not o.ok]
        if failures and all(o.reason == "not_implemented" for o in failures):
            # the stub is still there: one sentence says it, not one per test
            text = explain("not_implemented", {}, lang)
            feedback = [{"test": "", "hidden": False, "text": text, "line": text}]
        else:
            # the first public failures, and the first hidden one: its property is worth a line of its own
            shown = [o for o in failures if o.reason != "not_implemented"]
            public_shown = [o for o in shown if not o.hidden][:MAX_FEEDBACK - 1]
            hidden_shown = [o for o in shown if o.hidden][:MAX_FEEDBACK - len(public_shown)]
            feedback = [self._feedback(ex, o) for o in sorted(public_shown + hidden_shown, key=shown.index)]
        withheld = self.withheld_in(ex, calls) if failures or len(outcomes) < total else None
        if withheld is not None:
            text = messages.text("relies_on_reference", lang, function=ex.function, name=withheld)
            return self.row(submission, ex, "fail", f"{counts} {text}", passed=passed, total=total,
                            feedback=[{"test": "", "hidden": False, "text": text, "line": text}] + feedback)
        finding = self.finding(ex)
        if finding is not None:
            text = finding_text(finding, ex, lang)
            return self.row(submission, ex, "fail", f"{counts} {text}", passed=passed, total=total,
                            feedback=[{"test": "", "hidden": False, "text": text}] + feedback)
        if len(outcomes) < total:          # stopped early: timeout, crash, or no record written
            status, message = self._stop(ex, calls, expected[len(outcomes)])
            if failures:                   # a wrong answer before the stop says more than the stop
                message = f"{feedback[0]['line']}; {message}"
            return self.row(submission, ex, status, f"{counts} {message}", passed=passed, total=total,
                            feedback=feedback, **self._partial(ex, expected, outcomes))
        if not failures:
            groups = [len(test_groups([(c, h) for c, h, _ in expected]))] * 2 if self.options.partial else None
            return self.row(submission, ex, "pass", f"{counts} " + messages.text("passed", lang),
                            passed=passed, total=total, groups=groups)
        # a known mistake that explains every failed test (grading.diagnoses): named after the failures
        mistake = _diagnose(ex, observations)
        extra = self._partial(ex, expected, outcomes)  # (a call of the reference answer returned above: no points)
        if mistake is not None:
            said = diagnoses.explain_mistake(mistake, lang)
            feedback = feedback + [{"test": "", "hidden": False, "text": said, "line": said, "diagnosis": mistake.id}]
            extra["diagnosis"] = mistake.id
        return self.row(submission, ex, "fail", f"{counts} {feedback[0]['line']}", passed=passed, total=total,
                        feedback=feedback, **extra)

    def _stop(self, ex, calls, first_missing):
        """(status, message) for tests that stopped before every one wrote its record.  During the hidden
        tests nothing the kernel said is repeated: no exit status, no error text."""
        lang = self.lang
        if "hidden" not in calls and calls["public"].complete(self.course.prepared(ex).count("public")):
            return self.fatal or ("error", messages.text("interrupted", lang))    # the hidden tests never ran
        call = calls.get("hidden") or calls["public"]
        hidden = call.phase == "hidden" or self.quiet
        label = ex.label_of(first_missing[0], lang)
        if call.status == "out_of_time":
            return "timeout", self._timeout_message()
        if call.status == "timeout":
            return "timeout", messages.text("case_timeout", lang, case=label, seconds=_num(calls["public"].limit, lang))
        if call.died is not None or call.status == "died":
            why = call.died or ("exit_gone", {})
            if hidden and why[0] in ("exit_student", "sandbox_failed"):
                why = ("exit_hidden", {})
            return "error", messages.text("kernel_died", lang, function=ex.function, reason=messages.reason(why, lang))
        if call.status == "error":
            if hidden:
                return "error", messages.text("call_failed_hidden", lang, function=ex.function)
            return "error", messages.text("call_failed", lang, function=ex.function, error=call.error)
        # the call finished, but no record: the notebook's code removed it (or the function went away)
        return "fail", messages.text("invalid_result", lang, problem=messages.text("record_missing", lang, case=label))

    def _partial(self, ex, expected, outcomes):
        """Under --partial, {"points", "groups"} of the groups whose every test ran and passed (a test that
        never ran, after a timeout or a dead kernel, leaves its group without its share); else {}."""
        if not self.options.partial:
            return {}
        passed_indices = {i for i, o in enumerate(outcomes) if o.ok}
        points, groups = partial_points(ex, [(c, h) for c, h, _ in expected], passed_indices)
        return {"points": points, "groups": groups}

    def _feedback(self, ex, outcome):
        """What a student reads about one failed test (hidden tests: the property, never the values)."""
        case, hidden, reason, details = outcome.case, outcome.hidden, outcome.reason, outcome.details
        lang = self.lang
        safe = hidden or self.quiet
        label = ex.label_of(case, lang)
        named = {s.name for s in self.withheld.get(ex.id, ())}
        withheld = _withheld_name(outcome, named)
        if withheld is not None:
            text = messages.text("withheld_call", lang, name=withheld)
        elif reason == "invalid_result":
            text = messages.text("invalid_result", lang, problem=messages.reason(details["problem"], lang))
        elif reason == "setup_in_kernel":
            text = messages.text("setup_in_kernel_hidden", lang) if safe else \
                messages.text("setup_in_kernel", lang, error=details["error"])
        else:
            text = explain(reason, hidden_safe(reason, details, lang) if safe else details, lang, hidden=safe)
        if not hidden:
            return {"test": label, "hidden": False, "text": text, "line": f"{label}{explain_colon(lang)}{text}"}
        kind = ex.hidden_kinds.get(case.kind)
        like = ""
        if kind is not None and kind.like:
            public = {c.name: c for c in ex.public_cases()}
            if kind.like in public:
                like = messages.text("reproduce_like", lang, label=ex.label_of(public[kind.like], lang))
        hint = messages.text("reproduce", lang, id=ex.id, function=ex.function, like=like)
        line = messages.text("hidden_failed", lang, label=label, what=text)
        return {"test": label, "hidden": True, "text": text, "hint": hint, "line": line}

    def withheld_in(self, ex, calls):
        """The withheld library object a failed test of ``ex`` ran into (its name), else None."""
        named = {s.name for s in self.withheld.get(ex.id, ())}
        for call in calls.values() if named else ():
            for rec in call.records["cases"].values():
                if isinstance(rec, dict) and "result" in rec:
                    text = json.dumps(rec["result"], ensure_ascii=False)[:MAX_RECORD_BYTES]
                    for match in blind.WITHHELD_MARK.finditer(text):
                        if match.group(1) in named:
                            return match.group(1)
        return None

    def finding(self, ex):
        """What the source says about the rules no kernel can check by behaviour (None: nothing).

        Two rules only: ``forbidden_modules`` (evidence-1: plain Python, no NumPy, no lib) and a
        forbidden object or method that the exercise's own tests need, so that no kernel can
        withhold it (none today; see blind.BlindPlan.unchecked).  Everything else
        about the reference is decided by behaviour; imports, introspection and printing are
        never held against an answer here."""
        modules = frozenset(getattr(ex, "forbidden_modules", ()))
        unchecked = self.course.blind.unchecked(ex.id)
        if not modules and not unchecked:
            return None
        methods = {s.qualname.rsplit(".", 1)[1] for s in unchecked
                   if "." in s.qualname and s.qualname.rsplit(".", 1)[1] in getattr(ex, "forbidden_methods", ())}
        table = {}
        for site in unchecked:
            obj = blind.resolve(site)
            if obj is not None and site.qualname.rsplit(".", 1)[-1] not in methods:
                table[id(obj)] = site.name
        table["methods"] = frozenset(methods)
        table["modules"] = modules
        found = usage.analyze(self.cells, ex.function, table)
        if found is not None and found.kind in ("reference", "module"):
            return found
        return None


class Prestart:
    """A kernel started in a thread of its own, for the next run of the same submission, while the
    current run works: kernel starts overlap with running cells.  The kernel is fresh (a new process
    in a sandbox of its own) and no code of the submission runs in it before the run
    it is for takes it."""

    def __init__(self, kernel, timeout):
        self.kernel = kernel
        self.error = None
        self.thread = threading.Thread(target=self._start, args=(timeout,), name="kernel-prestart", daemon=True)
        self.thread.start()

    def _start(self, timeout):
        try:
            self.kernel.start(timeout=timeout)
        except BaseException as exc:  # noqa: BLE001 - the run starts its kernel itself then
            self.error = exc

    def take(self):
        """The started kernel, or None (and nothing left running) when its start failed."""
        self.thread.join()
        if self.error is not None or not self.kernel.alive():
            self.kernel.kill()
            return None
        return self.kernel

    def discard(self):
        self.kernel.terminate()              # safe from this thread; the start, if still going, fails
        self.thread.join(timeout=60)
        self.kernel.kill()


def explain_colon(lang):
    """What follows a test's label: the full-width colon in Chinese."""
    return _feedback_message("label_colon", lang)


def _diagnose(ex, observations):
    """grading.diagnoses on the grader's results; None for a registry without known mistakes, or on any error."""
    try:
        return diagnoses.diagnose(ex, observations) if ex.id in diagnoses.MISTAKES else None
    except Exception:  # noqa: BLE001 - a diagnosis is never worth a row
        return None


def finding_text(finding, ex, lang):
    where = messages.text("where_line", lang, cell=finding.cell, line=finding.line) if finding.line else ""
    name = messages.reason(finding.name, lang) if isinstance(finding.name, tuple) else finding.name
    return messages.text(finding.message_key(), lang, function=ex.function, name=name, what=name,
                         where=where or name)


def read_records(path, n_cases, limit=MAX_RESULT_BYTES):
    """Parse the kernel's result file defensively: no symlinks, size caps, every record checked.

    Returns {"head": dict or None, "cases": {index: record dict, or a problem key when the
    line that claimed the index was malformed}}.
    """
    out = {"head": None, "cases": {}}
    if path is None:
        return out
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return out
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return out
        chunks, size = [], 0
        while size < limit:
            chunk = os.read(fd, min(1 << 20, limit - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    for number, line in enumerate(b"".join(chunks).split(b"\n")):
        if not line.strip():
            continue
        if len(line) > MAX_RECORD_BYTES:
            rec = None
        else:
            try:
                rec = codec.parse_json(line)
            except (ValueError, RecursionError):
                rec = None
        if number == 0 and isinstance(rec, dict) and set(rec) in ({"missing"}, {"not_callable"}):
            out["head"] = rec
            break
        index, problem = _check_record(rec, n_cases)
        if index is None:
            continue
        if index not in out["cases"]:
            out["cases"][index] = problem or rec
    return out


def _check_record(rec, n_cases):
    """(index, None) for a well-formed record, (index, problem key) for a malformed one, (None, _) if unattributable."""
    if not isinstance(rec, dict):
        return None, None
    index = rec.get("case")
    if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n_cases:
        return None, None
    if not set(rec) <= RECORD_KEYS:
        return index, "record_malformed"
    seconds = rec.get("seconds", 0)
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool) or not math.isfinite(seconds):
        return index, "record_malformed"
    for key in ("encode_error", "setup_error"):
        if key in rec and not isinstance(rec[key], str):
            return index, "record_malformed"
    return index, None


# -- one submission ------------------------------------------------------------------

def submission_language(infos, options):
    """(the language of a submission's rows and page, {language: notebooks}) — ``--student-lang``, else the
    language of most of its notebooks, ties going to the most recently modified notebook's; English when
    none says."""
    found = {}
    for info in infos:
        if info.language in LANGUAGES:
            found[info.language] = found.get(info.language, 0) + 1
    if options.lang != "auto":
        return options.lang, found
    if not found:
        return "en", found
    most = max(found.values())
    tied = [lang for lang, n in found.items() if n == most]
    if len(tied) > 1:
        newest = max((i for i in infos if i.language in tied), key=lambda i: (_duplicates.mtime(i), i.display))
        return newest.language, found
    return tied[0], found


class Unit:
    """One notebook to run for some exercises (and the notebooks of that set not graded)."""

    def __init__(self, info, exercises, lang, others=()):
        self.info, self.exercises, self.lang, self.others = info, exercises, lang, list(others)
        self.rows = None
        self.tries = [info]          # the copies to grade (several under --duplicates best)
        self.rule, self.ambiguous = "newest", False
        self.untouched = []          # newer copies passed over: nothing done in them (--duplicates newest)
        self.notes = []              # rows about the notebook itself (a cell that never finished)


class Plan:
    """What grading one submission takes: fixed rows, and notebooks to run (one per exercise set)."""

    def __init__(self, submission, lang, languages=None):
        self.submission = submission
        self.lang = lang
        self.languages = dict(languages or {})     # {language: notebooks in it}
        self.slots = []          # in report order: ("rows", [rows]) or ("run", Unit)
        self.seconds = 0.0

    def units(self):
        return [u for kind, u in self.slots if kind == "run"]


def plan_submission(sub, course, options, scope):
    """The Plan for one notebooks.Submission: every row in one language (:func:`submission_language`)."""
    infos = [read_notebook(f.path, f.display, f.problem) for f in sub.files]
    for info in infos:
        identify(info, course.functions)         # an unreadable file is still known by its name
    lang, languages = submission_language(infos, options)
    plan = Plan(sub.id, lang, languages)
    scoped = {stem: [ex for ex in exs if ex.id in scope] for stem, exs in course.by_notebook.items()}
    if sub.refused is not None:
        plan.slots.append(("rows", [make_row(sub.id, "", ex, "error", messages.reason(sub.refused, lang), lang=lang)
                                    for exs in scoped.values() for ex in exs]))
        return plan
    by_stem, extra = {}, []
    for info in infos:
        if info.stem is None:
            message = (_unreadable(info, lang) if info.problem
                       else messages.text("unknown_notebook", lang, known=", ".join(course.by_notebook)))
            extra.append(make_row(sub.id, info.display, None, "error", message, exercise_id="-", max_points=0,
                                  lang=lang))
        else:
            by_stem.setdefault(info.stem, []).append(info)
    for stem, exercises in scoped.items():
        if not exercises:
            continue
        candidates, ambiguous = _duplicates.order(by_stem.get(stem, []), stem, options.duplicates)
        if not candidates:
            if not sub.files and sub.empty is not None:
                message = messages.reason(sub.empty, lang)
            else:
                message = messages.text("missing_notebook", lang, notebook=stem)
            plan.slots.append(("rows", [make_row(sub.id, "", ex, "missing", message, lang=lang) for ex in exercises]))
            continue
        untouched = []
        if options.duplicates == "newest" and len(candidates) > 1:
            # the newest copy an untouched download, another with work in it: that one is graded, and said so
            functions = {ex.function for ex in course.by_notebook[stem]}
            worked = [c for c in candidates if not c.problem and _duplicates.has_work(c, functions)]
            if worked and candidates[0] not in worked:
                untouched = candidates[:candidates.index(worked[0])]
                candidates = [worked[0]] + [c for c in candidates if c is not worked[0]]
                ambiguous = False
        info, others = candidates[0], candidates[1:]
        if others and options.duplicates == "ambiguous":
            # the instructor decides: no copy is graded, every row names them all
            names = ", ".join(o.display.rsplit("/", 1)[-1] for o in candidates[:4])
            dup = _duplicates.record(None, candidates, "ambiguous", True)
            plan.slots.append(("rows", [dataclasses.replace(make_row(sub.id, "", ex, "error", messages.text(
                "duplicates_undecided", lang, count=len(candidates), names=names), lang=lang), duplicates=dup)
                for ex in exercises]))
            continue
        unit = Unit(info, exercises, lang, others)
        unit.rule, unit.ambiguous, unit.untouched = options.duplicates, ambiguous, untouched
        if options.duplicates == "best":
            unit.tries = [c for c in candidates if not c.problem][:_duplicates.MAX_TRIES] or [info]
        if info.problem and len(unit.tries) == 1 and unit.tries[0] is info:
            unit.rows = _damaged_rows(sub.id, info, exercises, lang)
        plan.slots.append(("run", unit))
    for problem in sub.problems:
        extra.append(make_row(sub.id, "", None, "error", messages.reason(problem, lang), exercise_id="-",
                              max_points=0, lang=lang))
    if extra:
        plan.slots.append(("rows", extra))
    return plan


def _kernel_runs(plan, course):
    """Every kernel a submission needs, in order: each copy of each notebook (one, or every copy under
    --duplicates best) in each of its kernel groups (kernel_plan), as [(unit, copy, exercises, withheld)]."""
    return [(unit, info, exercises, withheld) for unit in plan.units() if unit.rows is None
            for info in unit.tries for exercises, withheld in kernel_plan(course, unit)]


class Ahead:
    """A submission's control group and first kernel, started while the worker that will grade it
    still grades the submission before it (:func:`start_ahead`); :func:`run_submission` takes it.
    The kernel is fresh, in the submission's own group and sandbox, and no code of the submission
    runs in it before its run takes it, as with :class:`Prestart` inside a submission."""

    def __init__(self, plan, group, first, sent):
        self.plan, self.group, self.first, self.sent = plan, group, first, sent

    def discard(self):
        """Stop the kernel started ahead and remove the group (a submission that will not be graded)."""
        try:
            self.first.discard_prestarted()
        finally:
            if self.group is not None:
                self.group.remove()


def start_ahead(plan, course, sandbox, options, cancel=None):
    """An :class:`Ahead` of ``plan`` (its group made and its first kernel starting), or None when it runs
    no kernel or there is no sandbox."""
    if sandbox is None:
        return None
    runs = _kernel_runs(plan, course)
    if not runs:
        return None
    _, info, _, withheld = runs[0]
    group = sandbox.new_group()
    sent = set()
    first = NotebookRun(info, course, sandbox, options, time.monotonic() + options.total_timeout, plan.lang, cancel,
                        group, withheld, sent)
    try:
        first.prestart()
    except BaseException:
        if group is not None:
            group.remove()
        raise
    return Ahead(plan, group, first, sent)


def run_submission(plan, course, sandbox, options, cancel=None, ahead=None):
    """Grade every notebook of one plan, one after the other, in one control group (``ahead``: the
    group and first kernel :func:`start_ahead` made for this plan, if any)."""
    start = time.monotonic()
    deadline = start + options.total_timeout
    if ahead is not None and ahead.plan is not plan:
        raise ValueError("a kernel started ahead for another submission")
    group = ahead.group if ahead is not None else (sandbox.new_group() if sandbox is not None else None)
    upcoming = None
    if ahead is not None:
        upcoming = ahead.first                 # its kernel started ahead; the submission's time starts now
        upcoming.deadline = deadline
    try:
        runs = _kernel_runs(plan, course)
        rows, unfinished = {}, {}              # by (unit, copy): {exercise id: row}, {cell numbers}
        sent = ahead.sent if ahead is not None else set()   # the runs that sent hidden inputs into a kernel
        for index, (unit, info, exercises, withheld) in enumerate(runs):
            run = upcoming or NotebookRun(info, course, sandbox, options, deadline, plan.lang, cancel, group, withheld,
                                          sent)
            upcoming = None
            if index + 1 < len(runs):            # the next kernel starts while this run works
                _, nxt_info, _, nxt_withheld = runs[index + 1]
                upcoming = NotebookRun(nxt_info, course, sandbox, options, deadline, plan.lang, cancel, group,
                                       nxt_withheld, sent)
                upcoming.prestart()
            key = (id(unit), id(info))
            found = rows.setdefault(key, {})
            try:
                for ex, row in zip(exercises, run.grade(plan.submission, exercises)):
                    found[ex.id] = row
            except Cancelled:
                raise
            except Exception as exc:  # noqa: BLE001 - never lose a submission to a grader bug
                for ex in exercises:
                    found[ex.id] = make_row(plan.submission, info.display, ex, "error", messages.text(
                        "internal", plan.lang, error=f"{type(exc).__name__}: {exc}"), lang=plan.lang,
                        details={"traceback": traceback.format_exc()[-2000:]})
            finally:
                run.close()
                run.discard_prestarted()
            unfinished.setdefault(key, set()).update(run.unfinished)
            _settle(plan, unit, rows, unfinished, options)   # as soon as every copy of it is graded
    finally:
        if upcoming is not None:
            upcoming.discard_prestarted()
        if group is not None:
            group.remove()
        plan.seconds = time.monotonic() - start


def _settle(plan, unit, rows, unfinished, options):
    """Once every copy of a notebook has a row for each of its exercises, keep the copy with the most
    points (there is one copy unless --duplicates best), with a note row per cell that never finished."""
    best = None
    for info in unit.tries:
        found = rows.get((id(unit), id(info)), {})
        if not all(ex.id in found for ex in unit.exercises):
            return
        graded = [found[ex.id] for ex in unit.exercises]
        notes = never_finished_rows(plan.submission, info, unfinished.get((id(unit), id(info)), ()), plan.lang,
                                    options)
        points = sum(r.points for r in graded)
        if best is None or points > best[0]:
            best = (points, info, graded, notes)
    _, chosen, unit.rows, unit.notes = best
    if chosen is not unit.info:
        unit.others = [unit.info] + [o for o in unit.others if o is not chosen]
        unit.info = chosen


def kernel_plan(course, unit):
    """[(exercises, {exercise id: withheld sites})]: the kernels one notebook is graded in.

    Each exercise is graded in a kernel whose lib withholds its reference answers (blind.py);
    exercises whose tests need nothing another one withholds share a kernel."""
    wanted = {ex.id for ex in unit.exercises}
    out = []
    for group in course.blind.groups(unit.info.stem):
        exercises = [course.exercises[i] for i in group.exercises if i in wanted]
        if exercises:
            out.append((exercises, {ex.id: group.sites.get(ex.id, frozenset()) for ex in exercises}))
    planned = {ex.id for exs, _ in out for ex in exs}
    rest = [ex for ex in unit.exercises if ex.id not in planned]
    if rest:                               # not in the plan (a stand-in registry): the usual lib
        out.append((rest, {}))
    return out


def never_finished_rows(submission, info, cells, lang, options):
    """One note row per top-level cell that did not finish and was interrupted or skipped: the
    grade may not show it (the rest of the notebook ran), but the notebook does not run top to bottom."""
    return [make_row(submission, info.display, None, "error", messages.text(
        "cell_never_finished", lang, cell=n, seconds=_num(options.cell_timeout, lang)), exercise_id="-", max_points=0,
        lang=lang) for n in sorted(cells)]


DAMAGED = {"problem_not_json", "problem_not_utf8", "problem_no_cells", "problem_old_format"}


def _unreadable(info, lang):
    """Why a notebook cannot be read, once, with what the student can do about it."""
    name = info.display.rsplit("/", 1)[-1]
    if info.problem[0] == "problem_too_large":
        return messages.text("too_large_notebook", lang, name=name, **info.problem[1])
    problem = messages.reason(info.problem, lang)
    if info.problem[0] in DAMAGED:
        return messages.text("damaged_notebook", lang, name=name, problem=problem)
    return messages.text("unreadable", lang, problem=problem)


def _damaged_rows(submission, info, exercises, lang):
    """A notebook that cannot be read: its exercises get short rows, and one row says why and what to do."""
    if info.problem[0] not in DAMAGED | {"problem_too_large"}:
        return [make_row(submission, info.display, ex, "error", _unreadable(info, lang), lang=lang) for ex in exercises]
    short = messages.text("damaged_see_note" if info.problem[0] in DAMAGED else "too_large_see_note", lang,
                          name=info.display.rsplit("/", 1)[-1])
    rows = [make_row(submission, info.display, ex, "error", short, lang=lang) for ex in exercises]
    return rows + [make_row(submission, info.display, None, "error", _unreadable(info, lang), exercise_id="-",
                            max_points=0, lang=lang)]


def assemble(plan):
    """Every row of a plan, in report order; notebooks not graded (an interrupted batch) get 'not graded' rows."""
    rows = []
    for kind, item in plan.slots:
        if kind == "rows":
            rows += item
            continue
        unit_rows = item.rows
        if unit_rows is None:
            unit_rows = [make_row(plan.submission, item.info.display, ex, "error", messages.text("interrupted", plan.lang),
                                  lang=plan.lang) for ex in item.exercises]
        if item.others:
            dup = _duplicates.record(item.info, item.others, item.rule, item.ambiguous, item.untouched)
            dup["note"] = duplicates_note(item, plan.lang)
            unit_rows = [dataclasses.replace(r, message=clean(then(r.message, dup["note"], plan.lang)), duplicates=dup)
                         if r.exercise != "-" else r for r in unit_rows]
        rows += unit_rows + item.notes
    return rows


def then(message, sentence, lang):
    """A row's message and a sentence after it: "[10/10] passed" ends with a full stop first, so the note does
    not run on from it ("[10/10] passed. The most recently modified copy ...")."""
    message = message.rstrip()
    if message and message[-1] not in ".!?。！？…":
        message += messages.text("full_stop", lang)
    return message + messages.text("next_sentence", lang, sentence=sentence)


def duplicates_note(unit, lang):
    """What the rows of a notebook handed in several times say about its copies (once on a page)."""
    names = [o.display.rsplit("/", 1)[-1] for o in unit.others]
    graded = unit.info.display.rsplit("/", 1)[-1]
    if unit.untouched:
        return messages.text("duplicates_newest_untouched", lang, graded=graded,
                             newest=", ".join(u.display.rsplit("/", 1)[-1] for u in unit.untouched))
    key = "also_handed_in" if len(names) <= 3 else "also_handed_in_many"
    note = "" if unit.rule == "best" and len(unit.tries) > 1 else messages.text(
        key, lang, count=len(names), names=", ".join(names[:3]))
    # under best a tie in modification time changes nothing (every copy is graded): one sentence for both
    tied = unit.ambiguous and unit.rule != "best"
    how = messages.text(f"duplicates_{unit.rule}" + ("_tied" if tied else ""), lang, graded=graded,
                        seconds=_num(_duplicates.SAME_TIME, lang))
    return " ".join(p for p in (how, note) if p)


def interrupted_rows(submission, course, scope, lang="en"):
    """Rows for a submission the batch never planned: every exercise in scope, 'not graded'."""
    return [make_row(submission, "", ex, "error", messages.text("interrupted", lang), lang=lang)
            for ex in course.exercises.values() if ex.id in scope]
