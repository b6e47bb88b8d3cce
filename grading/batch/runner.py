"""Grading submissions: run each notebook in a sandboxed kernel, call the
learner's functions on public and hidden cases, compare in the grader.

Trust boundary: expected values come from ``Exercise.expected`` run here, in
the grader's process, and ``Exercise.compare`` runs here too.  The kernel
only ever receives case inputs and sends back plain JSON results (see
codec.py); whatever a student's code patches inside its kernel (NumPy,
builtins, the grader's helper code) can only spoil its own results.
"""

import dataclasses
import json
import os
import pathlib
import secrets
import stat
import threading
import time
import traceback

from . import codec, messages
from .kernel import Kernel, KernelDied
from .notebooks import identify, prepare_cell, read_notebook

HERE = pathlib.Path(__file__).resolve().parent
KERNEL_CODE = (HERE / "codec.py").read_text(encoding="utf-8") + "\n" + \
    (HERE / "_kernel_side.py").read_text(encoding="utf-8")
MAX_RESULT_BYTES = 32 * 1024 * 1024
STATUSES = ("pass", "fail", "error", "timeout", "missing")
_RANK = {"pass": 4, "fail": 3, "timeout": 2, "error": 1, "missing": 0}


@dataclasses.dataclass
class Options:
    timeout: float = 10.0            # per exercise: all its cases together
    cell_timeout: float = 30.0       # per notebook cell
    total_timeout: float = 300.0     # per submission (all its notebooks)
    start_timeout: float = 60.0      # starting one kernel
    interrupt_grace: float = 2.0     # after an interrupt, before the kernel is killed
    max_restarts: int = 3            # kernel restarts per notebook
    lang: str = "auto"               # message language: auto / zh / en / ru


class Cancelled(Exception):
    pass


# -- the exercise registry --------------------------------------------------------

class Course:
    """The registry (``grading.exercises`` or a stand-in with the same interface)
    plus everything computed once per batch: hidden cases and expected values."""

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
        self.fenced = {ex.id: _fenced_names(ex) for ex in self.exercises.values()}
        self._prepared = {}
        self._lock = threading.Lock()
        self._locks = {ex_id: threading.Lock() for ex_id in self.exercises}

    def all_fenced(self):
        return sorted({name for names in self.fenced.values() for name in names})

    def prepared(self, ex):
        """(cases JSON text for the kernel, [(case name, expected)]) — computed once."""
        with self._locks[ex.id]:
            if ex.id not in self._prepared:
                cases = list(ex.public_cases()) + list(ex.hidden_cases(self.seed))
                expected = [(case.name, ex.expected(case)) for case in cases]
                payload = [{"name": case.name, "setup": case.setup or "",
                            "args": codec.encode(self._to_codec(tuple(case.args)), strict=True),
                            "kwargs": codec.encode(self._to_codec(dict(case.kwargs)), strict=True)}
                           for case in cases]
                text = json.dumps(payload, ensure_ascii=False, allow_nan=False)
                self._prepared[ex.id] = (text, expected)
            return self._prepared[ex.id]

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


def _fenced_names(ex):
    names = []
    ref = getattr(ex, "reference", None)
    module = getattr(ref, "__module__", "") or ""
    if module.split(".")[0] in ("lib", "grading") and hasattr(ref, "__name__"):
        names.append(f"{module}.{ref.__name__}")
    names += [n for n in getattr(ex, "forbidden", ()) if isinstance(n, str)]
    return names


# -- rows ------------------------------------------------------------------------------

def make_row(submission, notebook, ex, status, message, *, exercise_id=None, max_points=None, seconds=0.0,
             passed=0, total=0, details=None):
    points = ex.points if (ex is not None and status == "pass") else 0
    return {
        "submission": submission,
        "notebook": str(notebook) if notebook else "",
        "exercise": exercise_id if exercise_id is not None else (ex.id if ex is not None else "-"),
        "function": ex.function if ex is not None else "",
        "status": status,
        "points": points,
        "max_points": max_points if max_points is not None else (ex.points if ex is not None else 0),
        "message": _clean(message),
        "cases_passed": passed,
        "cases_total": total,
        "seconds": round(seconds, 3),
        **({"details": details} if details else {}),
    }


def _clean(text, limit=400):
    text = str(text).encode("utf-8", "replace").decode("utf-8", "replace")
    text = " ".join(text.replace("\x00", " ").split())
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- one notebook in one kernel ---------------------------------------------------------

class NotebookRun:
    """Runs one notebook's cells in a kernel, restarting it when a cell kills
    or wedges it, and calls its exercise functions."""

    def __init__(self, info, course, sandbox, options, deadline, lang, cancel):
        self.info, self.course, self.sandbox, self.options = info, course, sandbox, options
        self.deadline, self.lang, self.cancel = deadline, lang, cancel
        self.cells = []
        for number, source, tags in info.cells:
            code = prepare_cell(source, tags)
            if code is not None:
                self.cells.append((number, code))
        self.kernel = None
        self.skip = {}              # cell number -> reason
        self.cell_errors = []       # (cell number, "Type: message")
        self.restarts = 0
        self.fatal = None           # (status, message): nothing more can run
        self.kernels_started = 0

    def left(self):
        return self.deadline - time.monotonic()

    def close(self):
        if self.kernel is not None:
            self.kernel.kill()
            self.kernel = None

    def _check_cancel(self):
        if self.cancel is not None and self.cancel.is_set():
            raise Cancelled()

    def boot(self):
        """A kernel in which every runnable cell has run; False (and self.fatal) if impossible."""
        while True:
            self._check_cancel()
            self.close()
            if self.left() <= 0:
                self.fatal = ("timeout", messages.text("total_timeout", self.lang, seconds=_num(self.options.total_timeout)))
                return False
            if self.kernels_started > self.options.max_restarts:
                reasons = "; ".join(f"cell {n}: {r}" for n, r in self.skip.items())
                self.fatal = ("error", messages.text("kernel_failed", self.lang, reason=f"gave up after "
                                                     f"{self.kernels_started} kernels ({reasons})"))
                return False
            self.kernels_started += 1
            kernel = Kernel(self.sandbox, self.lang)
            try:
                kernel.start(timeout=max(1.0, min(self.options.start_timeout, self.left())))
            except KernelDied as exc:
                kernel.kill()
                self.fatal = ("error", messages.text("kernel_failed", self.lang, reason=str(exc)))
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
                self.fatal = ("timeout", messages.text("total_timeout", self.lang, seconds=_num(self.options.total_timeout)))
                return False
            limit = min(self.options.cell_timeout, left)
            result = self.kernel.execute(code, limit)
            if result.status == "error":
                self.cell_errors.append((number, f"{result.ename}: {result.evalue}"))
            elif result.status == "timeout":
                if self.kernel.interrupt(self.options.interrupt_grace):
                    self.cell_errors.append((number, f"interrupted after {_num(limit)} s"))
                    continue
                self.skip[number] = f"ran longer than {_num(limit)} s and ignored the interrupt"
                return False
            elif result.status == "died":
                self.skip[number] = self.kernel.describe_exit()
                return False
        return True

    def hints(self):
        parts = [messages.text("cell_skipped_hint", self.lang, cell=n, reason=r) for n, r in self.skip.items()]
        parts += [messages.text("cell_error_hint", self.lang, cell=n, error=e) for n, e in self.cell_errors[:2]]
        return "; ".join(parts)

    def grade(self, submission, exercises):
        rows = []
        for ex in exercises:
            start = time.monotonic()
            if self.fatal is None and (self.kernel is None or not self.kernel.alive()):
                self.boot()
            if self.fatal is not None:
                status, message = self.fatal
                rows.append(make_row(submission, self.info.path, ex, status, message))
                continue
            try:
                row = self.grade_exercise(submission, ex)
            except Cancelled:
                raise
            except Exception as exc:          # a grader bug must cost one row, not the batch
                row = make_row(submission, self.info.path, ex, "error", messages.text(
                    "internal", self.lang, error=f"{type(exc).__name__}: {exc}"),
                    details={"traceback": traceback.format_exc()[-2000:]})
                self.close()
            row["seconds"] = round(time.monotonic() - start, 3)
            rows.append(row)
        return rows

    def grade_exercise(self, submission, ex):
        text, expected = self.course.prepared(ex)
        names = [name for name, _ in expected]
        kernel = self.kernel
        nonce = secrets.token_hex(8)
        cases_out = kernel.kdir / "in" / f"c-{nonce}.json"
        fd = os.open(cases_out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        result_outside = kernel.io_path(f"r-{nonce}.jsonl")
        params = {"function": ex.function, "cases": f"{kernel.info['inside_in']}/c-{nonce}.json",
                  "out": f"{kernel.info['inside_io']}/r-{nonce}.jsonl",
                  "fenced": self.course.fenced.get(ex.id, []), "max_bytes": MAX_RESULT_BYTES // 2}
        code = (f"__import__('builtins').exec({KERNEL_CODE!r}, "
                f"{{'__name__': '__grader__', 'PARAMS': {params!r}, 'USER_NS': __import__('builtins').globals()}})")
        limit = min(self.options.timeout, self.left())
        if limit <= 0:
            return make_row(submission, self.info.path, ex, "timeout",
                            messages.text("total_timeout", self.lang, seconds=_num(self.options.total_timeout)),
                            total=len(names))
        result = kernel.execute(code, limit)
        recovered = True
        if result.status == "timeout":
            recovered = kernel.interrupt(self.options.interrupt_grace)
        records = _read_records(result_outside)
        try:
            os.unlink(cases_out)
        except OSError:
            pass
        if result.status == "died" or not recovered or not kernel.alive():
            reason = kernel.describe_exit() if not kernel.alive() else None
            self.close()                     # the next exercise starts a fresh kernel
        else:
            reason = None
        return self._judge(submission, ex, expected, records, result, limit, reason)

    def _judge(self, submission, ex, expected, records, result, limit, died_reason):
        lang = self.lang
        path = self.info.path
        total = len(expected)
        first = records.get("head")
        if first and first.get("missing"):
            message = messages.text("missing_function", lang, function=ex.function)
            hint = self.hints()
            return make_row(submission, path, ex, "missing", f"{message} ({hint})" if hint else message, total=total)
        if first and "not_callable" in first:
            return make_row(submission, path, ex, "missing", messages.text(
                "not_callable", lang, function=ex.function, type=str(first["not_callable"])[:60]), total=total)
        outcomes = []              # (name, ok, reason, details)
        used = []
        for index, (name, exp) in enumerate(expected):
            rec = records["cases"].get(index)
            if rec is None:
                break
            used += [u for u in rec.get("used", []) if isinstance(u, str)]
            if "setup_error" in rec:
                outcomes.append((name, False, "setup_failed", {"type": "SetupError", "message": str(rec["setup_error"])}))
                continue
            if "encode_error" in rec or "result" not in rec:
                reason = str(rec.get("encode_error", "no result"))
                got = self.course.registry.Opaque(f"a value the grader cannot receive ({reason[:80]})", "")
            else:
                try:
                    got = self.course.from_kernel(codec.decode(rec["result"]))
                except (codec.CodecError, ValueError, TypeError, KeyError, AttributeError,
                        RecursionError, OverflowError, MemoryError) as exc:
                    got = self.course.registry.Opaque("invalid result", f"{type(exc).__name__}: {exc}"[:120])
            try:
                ok, reason, details = ex.compare(exp, got)
            except Exception as exc:
                ok, reason, details = False, "internal_error", {"type": type(exc).__name__, "message": str(exc)}
            outcomes.append((name, bool(ok), reason, dict(details or {})))
        passed = sum(1 for o in outcomes if o[1])
        counts = f"[{passed}/{total}]"
        if used:
            return make_row(submission, path, ex, "fail", f"{counts} " + messages.text(
                "uses_library", lang, function=ex.function, name=used[0]), passed=passed, total=total)
        failures = [o for o in outcomes if not o[1]]
        if len(outcomes) < total:          # stopped early: timeout, crash or the runner failed
            name = expected[len(outcomes)][0]
            if result.status == "timeout":
                status, message = "timeout", messages.text("case_timeout", lang, case=name, seconds=_num(limit))
            elif died_reason is not None or result.status == "died":
                status, message = "error", messages.text("kernel_died", lang, reason=died_reason or "the kernel died",
                                                         function=ex.function)
            elif result.status == "error":
                status, message = "error", messages.text("call_failed", lang, function=ex.function,
                                                         error=f"{result.ename}: {result.evalue}")
            else:
                status, message = "error", messages.text("no_result", lang, case=name)
            if failures:         # a wrong answer before the stop says more than the stop
                name, _, reason, details = failures[0]
                message = f"{name}: {messages.explain(reason, details, lang)}; {message}"
            return make_row(submission, path, ex, status, f"{counts} {message}", passed=passed, total=total)
        if not failures:
            return make_row(submission, path, ex, "pass", f"{counts} " + messages.text("passed", lang),
                            passed=passed, total=total)
        name, _, reason, details = failures[0]
        status = "error" if reason in ("setup_failed", "internal_error") else "fail"
        return make_row(submission, path, ex, status, f"{counts} {name}: {messages.explain(reason, details, lang)}",
                        passed=passed, total=total)


def _read_records(path, limit=MAX_RESULT_BYTES):
    """Parse the kernel's result file defensively (no symlinks, size cap)."""
    out = {"head": None, "cases": {}}
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
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
    data = b"".join(chunks)
    for number, line in enumerate(data.split(b"\n")):
        if not line.strip():
            continue
        try:
            rec = codec.parse_json(line)
        except (ValueError, RecursionError):
            continue
        if not isinstance(rec, dict):
            continue
        if number == 0 and ("missing" in rec or "not_callable" in rec):
            out["head"] = rec
            break
        index = rec.get("case")
        if isinstance(index, int) and not isinstance(index, bool) and index not in out["cases"]:
            out["cases"][index] = rec
    return out


def _num(x):
    return f"{x:g}"


# -- one submission ------------------------------------------------------------------

def notebook_language(info, options):
    if options.lang != "auto":
        return options.lang
    return info.language if info.language in ("zh", "en", "ru") else "en"


class Plan:
    """What grading one submission takes: fixed rows and notebooks to run."""

    def __init__(self, submission):
        self.submission = submission
        self.slots = []          # in report order: ("rows", [rows]) or ("run", [Unit, ...]) (several = best of)
        self.deadline = None
        self.started = None
        self.lock = threading.Lock()

    def units(self):
        return [u for kind, items in self.slots if kind == "run" for u in items]

    def start_clock(self, options):
        with self.lock:
            if self.deadline is None:
                self.started = time.monotonic()
                self.deadline = self.started + options.total_timeout
            return self.deadline


class Unit:
    """One notebook to run for some exercises."""

    def __init__(self, plan, info, exercises, lang):
        self.plan, self.info, self.exercises, self.lang = plan, info, exercises, lang
        self.rows = None


def plan_submission(submission, paths, course, options, scope):
    plan = Plan(submission)
    infos = [read_notebook(p) for p in paths]
    by_stem = {}
    for info in infos:
        identify(info, course.functions)
        if info.stem is None:
            lang = notebook_language(info, options)
            message = (messages.text("unreadable", lang, problem=info.problem) if info.problem else
                       messages.text("unknown_notebook", lang, known=", ".join(course.by_notebook)))
            plan.slots.append(("rows", [make_row(submission, info.path, None, "error", message,
                                                 exercise_id="-", max_points=0)]))
        else:
            by_stem.setdefault(info.stem, []).append(info)
    for stem, exercises in course.by_notebook.items():
        exercises = [ex for ex in exercises if ex.id in scope]
        if not exercises:
            continue
        candidates = by_stem.get(stem, [])
        if not candidates:
            lang = options.lang if options.lang != "auto" else _submission_language(infos)
            plan.slots.append(("rows", [make_row(submission, "", ex, "missing",
                                                 messages.text("missing_notebook", lang, notebook=stem))
                                        for ex in exercises]))
            continue
        units = []
        for info in candidates:
            lang = notebook_language(info, options)
            unit = Unit(plan, info, exercises, lang)
            if info.problem:
                unit.rows = [make_row(submission, info.path, ex, "error",
                                      messages.text("unreadable", lang, problem=info.problem)) for ex in exercises]
            units.append(unit)
        plan.slots.append(("run", units))
    return plan


def run_unit(unit, course, sandbox, options, cancel=None):
    """Grade one notebook (sets unit.rows); raises only Cancelled."""
    if unit.rows is not None:
        return unit.rows
    deadline = unit.plan.start_clock(options)
    run = NotebookRun(unit.info, course, sandbox, options, deadline, unit.lang, cancel)
    try:
        unit.rows = run.grade(unit.plan.submission, unit.exercises)
    finally:
        run.close()
    return unit.rows


def assemble(plan, options):
    rows = []
    for kind, items in plan.slots:
        if kind == "rows":
            rows += items
        else:
            rows += _best_of([u.rows for u in items], [u.info for u in items], options)
    seconds = 0.0 if plan.started is None else time.monotonic() - plan.started
    return rows, seconds


def grade_submission(submission, paths, course, sandbox, options, scope, cancel=None):
    """All rows of one submission, one notebook after the other (see plan/run_unit for parallel use)."""
    plan = plan_submission(submission, paths, course, options, scope)
    for unit in plan.units():
        run_unit(unit, course, sandbox, options, cancel)
    return assemble(plan, options)


def _best_of(graded, candidates, options):
    if len(graded) == 1:
        return graded[0]
    out = []
    for per_exercise in zip(*graded):
        best = max(per_exercise, key=lambda r: (r["points"], _RANK[r["status"]], r["cases_passed"]))
        best = dict(best)
        lang = options.lang if options.lang != "auto" else "en"
        best["message"] = _clean(f"{best['message']} ({messages.text('best_of', lang, count=len(candidates))}: "
                                 + ", ".join(c.path.name for c in candidates) + ")")
        out.append(best)
    return out


def _submission_language(infos):
    for info in infos:
        if info.language in ("zh", "en", "ru"):
            return info.language
    return "en"
