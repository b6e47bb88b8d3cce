"""Grading submissions: run each notebook in a sandboxed kernel, call the
learner's functions on public and hidden tests, compare in the grader.

Trust boundary: expected values come from ``Exercise.expected`` run here, in
the grader's process, and ``Exercise.compare`` runs here too.  Whether a
function relies on a reference answer is decided by its behaviour: each
exercise is graded in a kernel whose ``lib`` withholds that exercise's
reference answers (see blind.py), so an answer that needs them fails its
tests there.  The kernel only ever receives test inputs and sends
back plain JSON results (see codec.py), read with a size limit and checked
record by record: whatever a student's code patches or writes inside its
kernel can only spoil its own results, and a malformed record is the
student's failure, never "an internal grader error".

One worker grades one submission at a time, its kernels one after the
other (a notebook takes one kernel per group of its exercises, see
:func:`kernel_plan`), all of them in the submission's control group (see
cgroups.py); the next kernel starts while the current one runs (:class:`Prestart`).
"""

import dataclasses
import json
import math
import os
import re
import secrets
import stat
import threading
import time
import traceback

from course_i18n import LANGUAGES

from .. import diagnoses, messages, usage
from ..cells import prepare_cell
from ..feedback import explain, message as _feedback_message, type_name
from . import blind, codec
from . import duplicates as _duplicates
from .kernel import Kernel, KernelDied
from .notebooks import identify, read_notebook

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "codec.py"), encoding="utf-8") as _a, \
        open(os.path.join(HERE, os.pardir, "arguments.py"), encoding="utf-8") as _c, \
        open(os.path.join(HERE, "_kernel_side.py"), encoding="utf-8") as _b:
    KERNEL_CODE = _a.read() + "\n" + _c.read() + "\n" + _b.read()
MAX_RESULT_BYTES = 16 * 1024 * 1024          # the whole result file of one exercise
MAX_RECORD_BYTES = 2 * 1024 * 1024           # one line of it (one test's result)
MAX_FEEDBACK = 3                             # failed tests explained per row
STATUSES = ("pass", "fail", "error", "timeout", "missing")
RECORD_KEYS = {"case", "seconds", "result", "encode_error", "setup_error"}


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

class Course:
    """The registry (``grading.exercises`` or a stand-in with the same interface)
    plus everything computed once per batch: hidden tests and expected values."""

    def __init__(self, registry, seed, exercise_ids=None):
        self.registry = registry
        self.seed = int(seed)
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

    def prepared(self, ex):
        """(tests JSON text for the kernel, [(case, hidden, expected)]) — computed once per batch."""
        with self._locks[ex.id]:
            if ex.id not in self._prepared:
                cases = [(c, False) for c in ex.public_cases()] + [(c, True) for c in ex.hidden_cases(self.seed)]
                # what the tests run of lib decides what a kernel may withhold (blind.py): traced on the way
                values, self._needs[ex.id] = blind.expected_and_needs(ex, [case for case, _ in cases])
                expected = [(case, hidden, value) for (case, hidden), value in zip(cases, values)]
                payload = [{"name": case.name, "setup": case.setup or "",
                            "args": codec.encode(self._to_codec(tuple(case.args)), strict=True),
                            "kwargs": codec.encode(self._to_codec(dict(case.kwargs)), strict=True)}
                           for case, _ in cases]
                text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
                self._prepared[ex.id] = (text, expected)
            return self._prepared[ex.id]

    def needs(self, ex):
        """What the tests of ``ex`` run of the sandbox's packages (see blind.expected_and_needs)."""
        self.prepared(ex)
        return self._needs[ex.id]

    def _to_codec(self, obj):
        Ref = getattr(self.registry, "Ref", None)
        if Ref is not None and isinstance(obj, Ref):
            return codec.Ref(obj.name)
        if isinstance(obj, tuple):
            return tuple(self._to_codec(x) for x in obj)
        if isinstance(obj, list):
            return [self._to_codec(x) for x in obj]
        if isinstance(obj, dict):
            return {k: self._to_codec(v) for k, v in obj.items()}
        return obj

    def from_kernel(self, value):
        """A decoded kernel value in the registry's vocabulary (Raised, Opaque)."""
        reg = self.registry
        if isinstance(value, codec.RaisedError):
            bases = tuple(value.bases)
            if value.type_name == "StdinNotImplementedError":
                # IPython derives it from NotImplementedError, which would read as "not done yet"
                bases = tuple(b for b in bases if b != "NotImplementedError")
            return reg.Raised(value.type_name, value.message, (value.type_name,) + bases)
        if isinstance(value, codec.Unsupported):
            return reg.Opaque(value.type_name, value.text)
        if isinstance(value, codec.Ref):
            return reg.Opaque("Ref", value.name)
        if isinstance(value, tuple):
            return tuple(self.from_kernel(x) for x in value)
        if isinstance(value, list):
            return [self.from_kernel(x) for x in value]
        if isinstance(value, dict):
            return {k: self.from_kernel(v) for k, v in value.items()}
        return value


# -- rows ------------------------------------------------------------------------------

def make_row(submission, notebook, ex, status, message, *, exercise_id=None, max_points=None, passed=0, total=0,
             lang="en", feedback=(), details=None, diagnosis=None, points=None, groups=None):
    if points is None:
        points = ex.points if (ex is not None and status == "pass") else 0
    return {
        "submission": submission,
        "notebook": str(notebook) if notebook else "",
        "exercise": exercise_id if exercise_id is not None else (ex.id if ex is not None else "-"),
        "function": ex.function if ex is not None else "",
        "status": status,
        "points": points,
        "max_points": max_points if max_points is not None else (ex.points if ex is not None else 0),
        "message": clean(message),
        "cases_passed": passed,
        "cases_total": total,
        "lang": lang,
        "feedback": [{k: clean(v, 1000) if isinstance(v, str) else v for k, v in f.items()} for f in feedback],
        **({"details": details} if details else {}),
        **({"diagnosis": diagnosis} if diagnosis else {}),
        **({"groups": groups} if groups else {}),
    }


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


def _num(x):
    return f"{x:g}"


# -- one notebook in one kernel ---------------------------------------------------------

class NotebookRun:
    """Runs one notebook's cells in a kernel, restarting it when a cell kills
    or wedges it, and calls its exercise functions."""

    def __init__(self, info, course, sandbox, options, deadline, lang, cancel, group=None, withheld=None):
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

    def left(self):
        return self.deadline - time.monotonic()

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
        return messages.text("total_timeout", self.lang, seconds=_num(self.options.total_timeout))

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
                    status = "error"
                    self.fatal = (status, messages.text("kernel_failed", self.lang,
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
                self.cell_errors.append((number, "cell_error_hint", {"error": f"{result.ename}: {result.evalue}"}))
            elif result.status == "timeout":
                self.unfinished.add(number)
                if self.kernel.interrupt(self.options.interrupt_grace):
                    self.cell_errors.append((number, "cell_interrupted_hint", {"seconds": _num(limit)}))
                    continue
                self.skip[number] = ("ignored_interrupt", {"seconds": _num(limit)})
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
        rows = []
        for ex in exercises:
            if self.fatal is None and (self.kernel is None or not self.kernel.alive()):
                self.boot()
            if self.fatal is not None:
                status, message = self.fatal
                rows.append(self.row(submission, ex, status, message))
                continue
            try:
                row = self.grade_exercise(submission, ex)
            except Cancelled:
                raise
            except Exception as exc:          # a grader bug must cost one row, not the batch
                row = self.row(submission, ex, "error", messages.text(
                    "internal", self.lang, error=f"{type(exc).__name__}: {exc}"),
                    details={"traceback": traceback.format_exc()[-2000:]})
                self.close()
            rows.append(row)
        return rows

    def row(self, submission, ex, status, message, **kw):
        return make_row(submission, self.info.display, ex, status, message, lang=self.lang, **kw)

    def grade_exercise(self, submission, ex):
        text, expected = self.course.prepared(ex)
        kernel = self.kernel
        nonce = secrets.token_hex(8)
        cases_out = kernel.kdir / "in" / f"c-{nonce}.json"
        fd = os.open(cases_out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        result_outside = kernel.io_path(f"r-{nonce}.jsonl")
        params = {"function": ex.function, "cases": f"{kernel.launch.inside_in}/c-{nonce}.json",
                  "out": f"{kernel.launch.inside_io}/r-{nonce}.jsonl", "max_bytes": MAX_RECORD_BYTES // 2}
        code = (f"__import__('builtins').exec({KERNEL_CODE!r}, "
                f"{{'__name__': '__grader__', 'PARAMS': {params!r}, 'USER_NS': __import__('builtins').globals()}})")
        limit = min(self.options.timeout, self.left())
        if limit <= 0:
            return self.row(submission, ex, "timeout", self._timeout_message(), total=len(expected))
        result = kernel.execute(code, limit)
        recovered = True
        if result.status == "timeout":
            recovered = kernel.interrupt(self.options.interrupt_grace)
        records = read_records(result_outside, len(expected))
        try:
            os.unlink(cases_out)
        except OSError:
            pass
        died = None
        if result.status == "died" or not recovered or not kernel.alive():
            died = kernel.describe_exit() if not kernel.alive() else None
            self.close()                     # the next exercise starts a fresh kernel
        return self._judge(submission, ex, expected, records, result, limit, died)

    def _judge(self, submission, ex, expected, records, result, limit, died):
        lang = self.lang
        total = len(expected)
        head = records["head"]
        if head is not None and head.get("missing") is True:
            message = messages.text("missing_function", lang, function=ex.function)
            hint = self.hints()
            return self.row(submission, ex, "missing", f"{message} ({hint})" if hint else message, total=total)
        if head is not None and isinstance(head.get("not_callable"), str):
            return self.row(submission, ex, "missing", messages.text(
                "not_callable", lang, function=ex.function, type=type_name(head["not_callable"][:60], lang)),
                total=total)
        outcomes = []                      # (case, hidden, ok, reason, details)
        observations = []                  # (case, expected, got, ok, reason, details): for grading.diagnoses
        for index, (case, hidden, exp) in enumerate(expected):
            rec = records["cases"].get(index)
            if rec is None:
                break
            if isinstance(rec, str):       # a record that is not one: the notebook's code wrote it
                outcomes.append((case, hidden, False, "invalid_result", {"problem": (rec, {})}))
                continue
            if "setup_error" in rec:
                outcomes.append((case, hidden, False, "setup_in_kernel", {"error": rec["setup_error"][:200]}))
                continue
            if "encode_error" in rec or "result" not in rec:
                got = self.course.registry.Opaque("result_too_large", "")
            else:
                try:
                    got = self.course.from_kernel(codec.decode(rec["result"]))
                except (codec.CodecError, ValueError, TypeError, KeyError, AttributeError,
                        RecursionError, OverflowError, MemoryError):
                    outcomes.append((case, hidden, False, "invalid_result", {"problem": ("record_undecodable", {})}))
                    continue
            try:
                ok, reason, details = ex.compare(exp, got)
            except Exception as exc:  # noqa: BLE001 - the comparison of a student's value failed: a failed test
                ok, reason, details = False, "invalid_result", {"problem": ("record_undecodable", {}),
                                                                "error": f"{type(exc).__name__}"}
            outcomes.append((case, hidden, bool(ok), reason, dict(details or {})))
            observations.append((case, exp, got, bool(ok), reason, dict(details or {})))
        passed = sum(1 for o in outcomes if o[2])
        counts = f"[{passed}/{total}]"
        failures = [o for o in outcomes if not o[2]]
        if failures and all(o[3] == "not_implemented" for o in failures):
            # the stub is still there: one sentence says it, not one per test
            text = explain("not_implemented", {}, lang)
            feedback = [{"test": "", "hidden": False, "text": text, "line": text}]
        else:
            # the first public failures, and the first hidden one: its property is worth a line of its own
            shown = [o for o in failures if o[3] != "not_implemented"]
            public = [o for o in shown if not o[1]][:MAX_FEEDBACK - 1]
            hidden = [o for o in shown if o[1]][:MAX_FEEDBACK - len(public)]
            feedback = [self._feedback(ex, o) for o in sorted(public + hidden, key=shown.index)]
        withheld = self.withheld_in(ex, records) if failures or len(outcomes) < total else None
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
            label = ex.label_of(expected[len(outcomes)][0], lang)
            if result.status == "timeout":
                status, message = "timeout", messages.text("case_timeout", lang, case=label, seconds=_num(limit))
            elif died is not None or result.status == "died":
                status, message = "error", messages.text("kernel_died", lang, function=ex.function,
                                                         reason=messages.reason(died or ("exit_gone", {}), lang))
            elif result.status == "error":
                status, message = "error", messages.text("call_failed", lang, function=ex.function,
                                                         error=f"{result.ename}: {result.evalue}")
            else:                          # the call finished, but no record: the notebook's code removed it
                status, message = "fail", messages.text("invalid_result", lang, problem=messages.text(
                    "record_missing", lang, case=label))
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

    def _partial(self, ex, expected, outcomes):
        """Under --partial, {"points", "groups"} of the groups whose every test ran and passed (a test that
        never ran, after a timeout or a dead kernel, leaves its group without its share); else {}."""
        if not self.options.partial:
            return {}
        passed_indices = {i for i, o in enumerate(outcomes) if o[2]}
        points, groups = partial_points(ex, [(c, h) for c, h, _ in expected], passed_indices)
        return {"points": points, "groups": groups}

    def _feedback(self, ex, outcome):
        """What a student reads about one failed test (hidden tests: the property, never the values)."""
        case, hidden, _, reason, details = outcome
        lang = self.lang
        label = ex.label_of(case, lang)
        if reason == "invalid_result":
            text = messages.text("invalid_result", lang, problem=messages.reason(details["problem"], lang))
        elif reason == "setup_in_kernel":
            text = messages.text("setup_in_kernel", lang, error=details["error"])
        else:
            text = explain(reason, details, lang, hidden=hidden)
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

    def withheld_in(self, ex, records):
        """The withheld library object a failed test of ``ex`` ran into (its name), else None."""
        sites = self.withheld.get(ex.id)
        if not sites:
            return None
        named = {s.name for s in sites}
        for rec in records["cases"].values():
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

def notebook_language(info, options, fallback="en"):
    """The language of a notebook's rows: --lang, else the notebook's own, else ``fallback`` (the
    submission's: a damaged notebook, which says nothing, is reported in its classmates' language)."""
    if options.lang != "auto":
        return options.lang
    return info.language if info.language in LANGUAGES else fallback


class Unit:
    """One notebook to run for some exercises (and the notebooks of that set not graded)."""

    def __init__(self, info, exercises, lang, others=()):
        self.info, self.exercises, self.lang, self.others = info, exercises, lang, list(others)
        self.rows = None
        self.tries = [info]          # the copies to grade (several under --duplicates best)
        self.rule, self.ambiguous = "newest", False
        self.notes = []              # rows about the notebook itself (a cell that never finished)


class Plan:
    """What grading one submission takes: fixed rows, and notebooks to run (one per exercise set)."""

    def __init__(self, submission, lang):
        self.submission = submission
        self.lang = lang
        self.slots = []          # in report order: ("rows", [rows]) or ("run", Unit)
        self.seconds = 0.0

    def units(self):
        return [u for kind, u in self.slots if kind == "run"]


def plan_submission(sub, course, options, scope):
    """The Plan for one notebooks.Submission."""
    infos = [read_notebook(f.path, f.display, f.problem) for f in sub.files]
    for info in infos:
        identify(info, course.functions)         # an unreadable file is still known by its name
    languages = [i.language for i in infos if i.language in LANGUAGES]
    lang = options.lang if options.lang != "auto" else (languages[0] if languages else "en")
    student_lang = languages[0] if languages else lang     # --lang aside: what the student reads
    plan = Plan(sub.id, lang)
    scoped = {stem: [ex for ex in exs if ex.id in scope] for stem, exs in course.by_notebook.items()}
    if sub.refused is not None:
        plan.slots.append(("rows", [make_row(sub.id, "", ex, "error", messages.reason(sub.refused, lang), lang=lang)
                                    for exs in scoped.values() for ex in exs]))
        return plan
    by_stem, extra = {}, []
    for info in infos:
        if info.stem is None:
            lang_i = notebook_language(info, options, student_lang)
            message = (_unreadable(info, lang_i) if info.problem
                       else messages.text("unknown_notebook", lang_i, known=", ".join(course.by_notebook)))
            extra.append(make_row(sub.id, info.display, None, "error", message, exercise_id="-", max_points=0,
                                  lang=lang_i))
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
        info, others = candidates[0], candidates[1:]
        lang_i = notebook_language(info, options, student_lang)
        if others and options.duplicates == "ambiguous":
            # the instructor decides: no copy is graded, every row names them all
            names = ", ".join(o.display.rsplit("/", 1)[-1] for o in candidates[:4])
            dup = _duplicates.record(None, candidates, "ambiguous", True)
            plan.slots.append(("rows", [dict(make_row(sub.id, "", ex, "error", messages.text(
                "duplicates_undecided", lang_i, count=len(candidates), names=names), lang=lang_i), duplicates=dup)
                for ex in exercises]))
            continue
        unit = Unit(info, exercises, lang_i, others)
        unit.rule, unit.ambiguous = options.duplicates, ambiguous
        if options.duplicates == "best":
            unit.tries = [c for c in candidates if not c.problem][:_duplicates.MAX_TRIES] or [info]
        if info.problem and len(unit.tries) == 1 and unit.tries[0] is info:
            unit.rows = _damaged_rows(sub.id, info, exercises, lang_i)
        plan.slots.append(("run", unit))
    for problem in sub.problems:
        extra.append(make_row(sub.id, "", None, "error", messages.reason(problem, lang), exercise_id="-",
                              max_points=0, lang=lang))
    if extra:
        plan.slots.append(("rows", extra))
    return plan


def run_submission(plan, course, sandbox, options, cancel=None):
    """Grade every notebook of one plan, one after the other, in one control group."""
    start = time.monotonic()
    deadline = start + options.total_timeout
    group = sandbox.new_group() if sandbox is not None else None
    upcoming = None
    try:
        # every kernel this submission needs, in order: each copy of each notebook (one, or every copy
        # under --duplicates best) in each of its kernel groups (kernel_plan)
        runs = [(unit, info, notebook_language(info, options, unit.lang), exercises, withheld)
                for unit in plan.units() if unit.rows is None for info in unit.tries
                for exercises, withheld in kernel_plan(course, unit)]
        rows, unfinished = {}, {}              # by (unit, copy): {exercise id: row}, {cell numbers}
        for index, (unit, info, lang, exercises, withheld) in enumerate(runs):
            run = upcoming or NotebookRun(info, course, sandbox, options, deadline, lang, cancel, group, withheld)
            upcoming = None
            if index + 1 < len(runs):            # the next kernel starts while this run works
                nxt, nxt_info, nxt_lang, _, nxt_withheld = runs[index + 1]
                upcoming = NotebookRun(nxt_info, course, sandbox, options, deadline, nxt_lang, cancel, group,
                                       nxt_withheld)
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
                        "internal", lang, error=f"{type(exc).__name__}: {exc}"), lang=lang,
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
        lang = notebook_language(info, options, unit.lang)
        graded = [found[ex.id] for ex in unit.exercises]
        notes = never_finished_rows(plan.submission, info, unfinished.get((id(unit), id(info)), ()), lang, options)
        points = sum(r["points"] for r in graded)
        if best is None or points > best[0]:
            best = (points, info, graded, notes, lang)
    _, chosen, unit.rows, unit.notes, unit.lang = best
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
        "cell_never_finished", lang, cell=n, seconds=_num(options.cell_timeout)), exercise_id="-", max_points=0,
        lang=lang) for n in sorted(cells)]


DAMAGED = {"problem_not_json", "problem_not_utf8", "problem_no_cells", "problem_old_format", "problem_too_large"}


def _unreadable(info, lang):
    """Why a notebook cannot be read, once, with what the student can do about it."""
    problem = messages.reason(info.problem, lang)
    if info.problem[0] in DAMAGED:
        return messages.text("damaged_notebook", lang, name=info.display.rsplit("/", 1)[-1], problem=problem)
    return messages.text("unreadable", lang, problem=problem)


def _damaged_rows(submission, info, exercises, lang):
    """A notebook that cannot be read: its exercises get short rows, and one row says why and what to do."""
    if info.problem[0] not in DAMAGED:
        return [make_row(submission, info.display, ex, "error", _unreadable(info, lang), lang=lang) for ex in exercises]
    short = messages.text("damaged_see_note", lang, name=info.display.rsplit("/", 1)[-1])
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
            unit_rows = [make_row(plan.submission, item.info.display, ex, "error", messages.text("interrupted", item.lang),
                                  lang=item.lang) for ex in item.exercises]
        if item.others:
            names = [o.display.rsplit("/", 1)[-1] for o in item.others]
            key = "also_handed_in" if len(names) <= 3 else "also_handed_in_many"
            note = "" if item.rule == "best" and len(item.tries) > 1 else messages.text(
                key, item.lang, count=len(names), names=", ".join(names[:3]))
            how = messages.text(f"duplicates_{item.rule}" + ("_tied" if item.ambiguous else ""), item.lang,
                                graded=item.info.display.rsplit("/", 1)[-1])
            dup = _duplicates.record(item.info, item.others, item.rule, item.ambiguous)
            unit_rows = [dict(r, message=clean(" ".join(p for p in (r["message"], note, how) if p)), duplicates=dup)
                         if r["exercise"] != "-" else r for r in unit_rows]
        rows += unit_rows + item.notes
    return rows


def interrupted_rows(submission, course, scope, lang="en"):
    """Rows for a submission the batch never planned: every exercise in scope, 'not graded'."""
    return [make_row(submission, "", ex, "error", messages.text("interrupted", lang), lang=lang)
            for ex in course.exercises.values() if ex.id in scope]
