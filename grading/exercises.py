"""``check()``: the one-line check an exercise notebook runs after each exercise.

Notebooks ``exercises/{zh,en,ru}/exNN_*.ipynb`` ask the learner to define a
function in the notebook and then run one line such as::

    check("mask-2", masked_softmax)

which runs the *public* tests of that exercise in the learner's kernel and
prints, in the notebook's language (see :mod:`grading.feedback`), which test
passed, which failed and why.  ``check("mask-2", masked_softmax, practice=True)``
runs tests of the kinds the grader hides, on fresh random data (its seed is
printed; ``practice=1234`` repeats that draw).  The batch grader
(``python -m grading``) uses the same registry (:mod:`grading.registry`) with
hidden tests drawn from a secret that no practice seed reaches.

``check()`` loads the spec module of its own exercise and little else: the public
tests' expected values are stored beside the spec, so the references
(:mod:`grading.references`) stay out of the learner's kernel; a practice draw
imports them, since fresh inputs need the reference to say what they expect.

``check`` never raises, and warns early when the source plainly uses the
library's reference answer (:mod:`grading.usage`); the grader decides by
behaviour, grading the answer with the reference withheld (grading/batch/blind.py).

The names the registry and its values define are re-exported here
(``EXERCISES``, ``Exercise``, ``Case``, ``Ref``, ``Raised``, ``Opaque`` ...).
"""

import re
import secrets
import sys
from dataclasses import dataclass

from .compare import FLOAT32_TOLERANCE, compare_values, describe_value
from .feedback import detect_language, explain, message, type_name
from .registry import EXERCISES, Exercise, SetupError, total_points
from .values import Case, Opaque, Raised, Ref, resolve

__all__ = [
    "EXERCISES", "Exercise", "Case", "Ref", "Raised", "Opaque", "SetupError",
    "resolve", "compare_values", "FLOAT32_TOLERANCE",
    "check", "run_checks", "diagnosis_of", "needs_exercise", "library_use", "total_points",
]


@dataclass
class CaseResult:
    name: str
    label: str                      # what the learner reads (localised)
    ok: bool
    reason: str
    details: dict
    text: str                       # the localised explanation ("" when passed)
    case: object = None             # the test itself, and what was expected and obtained (for the diagnosis)
    expected: object = None
    got: object = None


def run_checks(exercise_id, func, lang=None, cases=None, expected_values=None):
    """Run the public tests (or ``cases``) of one exercise -> list of CaseResult.  ``expected_values``: what
    ``cases`` expect, when the caller has it already (computed once for many functions, as the batch grader
    computes it once per batch); the same objects then reach every result, and a diagnosis compares a mutant
    with each of them once (grading.diagnoses._right)."""
    lang = detect_language(lang)
    exercise = EXERCISES[exercise_id]
    results = []
    for index, case in enumerate(exercise.public_cases() if cases is None else cases):
        expected = got = None
        try:
            expected = exercise.expected(case) if expected_values is None else expected_values[index]
            got = exercise.call(func, case)
            ok, reason, details = exercise.compare(expected, got)
        except SetupError as exc:
            ok, reason, details = False, "setup_failed", {"type": "SetupError", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001 - the checker must never crash in the learner's face
            ok, reason, details = False, "internal_error", {"type": type(exc).__name__, "message": str(exc)}
        results.append(CaseResult(case.name, exercise.label_of(case, lang), ok, reason, details,
                                  "" if ok else explain(reason, details, lang), case, expected, got))
    return results


def diagnosis_of(exercise_id, results):
    """The known mistake (:mod:`grading.diagnoses`) that the results of run_checks point to, or None."""
    observations = [(r.case, r.expected, r.got, r.ok, r.reason, r.details) for r in results if r.case is not None]
    try:
        from . import diagnoses                 # imported when a test fails, not with check()
        return diagnoses.diagnose(EXERCISES[exercise_id], observations)
    except Exception:  # noqa: BLE001 - a diagnosis is never worth a crash
        return None


def _notebook_cells():
    """The code the kernel ran, as numbered cells (IPython's input history), or None outside IPython."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    history = getattr(shell, "user_ns", {}).get("In") if shell is not None else None
    if not isinstance(history, list) or not any(history):
        return None
    from .cells import prepare_cell
    out = []
    for number, source in enumerate(history):
        code = prepare_cell(source) if isinstance(source, str) and source else None
        if code:
            out.append((number, code))
    return out


def _function_cells(target):
    """Outside a notebook (a script, a test): the function's own source, after imports that
    bind the modules and course functions its code refers to, as they are bound at run time."""
    import inspect
    import textwrap
    import types
    from . import usage
    code = getattr(target, "__code__", None)
    if code is None:
        return []
    names, stack = set(), [code]
    while stack:
        c = stack.pop()
        names |= set(c.co_names) | set(c.co_freevars)
        stack += [k for k in c.co_consts if isinstance(k, types.CodeType)]
    scope = dict(getattr(target, "__globals__", {}))
    for name, cell in zip(code.co_freevars, target.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:
            pass
    lines = []
    for name in sorted(n for n in names if n.isidentifier()):
        value = scope.get(name)
        module = getattr(value, "__module__", None) or ""
        if isinstance(value, types.ModuleType):
            lines.append(f"import {value.__name__} as {name}")
        elif module.split(".")[0] in usage.COURSE_PACKAGES and getattr(value, "__name__", "").isidentifier():
            lines.append(f"from {module} import {value.__name__} as {name}")
    try:
        source = textwrap.dedent(inspect.getsource(target))
    except (OSError, TypeError):
        return []
    return [(0, "\n".join(lines)), (1, source)]


def library_use(exercise, func, namespace=None):
    """A :class:`grading.usage.Finding` when ``func`` uses a forbidden library object, else None.

    In a notebook the kernel's input history is analysed, as the grader analyses
    the notebook; elsewhere the function's own source."""
    from . import usage
    table = usage.forbidden_table(exercise, loaded_only=True)
    target = getattr(func, "__func__", func)
    if id(target) in table:
        return usage.Finding("reference", table[id(target)])
    if getattr(target, "__name__", None) in table["methods"] and getattr(target, "__self__", None) is not None:
        return usage.Finding("reference", f"{type(target.__self__).__name__}.{target.__name__}")
    namespace = namespace if isinstance(namespace, dict) else getattr(target, "__globals__", {})
    names = [k for k, v in namespace.items() if v is func or v is target]
    name = exercise.function if exercise.function in names else (names[0] if names else
                                                                  getattr(target, "__name__", exercise.function))
    cells = _notebook_cells()
    finding = usage.analyze(cells, name, table) if cells is not None else None
    if cells is None or (finding is not None and finding.kind == "undefined"):
        finding = usage.analyze(_function_cells(target), getattr(target, "__name__", name), table)
    # a hint, not the verdict (the grader decides by behaviour, grading/batch/blind.py): only what the
    # source plainly shows; "cannot be followed" findings would warn honest notebooks for nothing
    return finding if finding is not None and finding.kind in ("reference", "module") else None


def finding_message(finding, exercise, lang):
    """The localised sentence for a usage finding."""
    where = message("where_line", lang, cell=finding.cell, line=finding.line) if finding.line else ""
    return message(finding.message_key(), lang, function=exercise.function, name=finding.name,
                   what=finding.name, where=where or finding.name)


def needs_exercise(*exercise_ids, lang=None):
    """The message of a worked example's ``assert`` that uses the learner's functions, in the notebook's
    language: which functions of which exercises the cell relies on, and to fix those first.

    ``assert weights[1, 0] == 0.5, needs_exercise("mask-1", "mask-2")``: Python builds the message only
    when the assertion fails, so a solved notebook never calls it."""
    caller = sys._getframe(1).f_globals
    lang = detect_language(lang, namespace=caller)
    known = [EXERCISES[i] for i in exercise_ids if i in EXERCISES]
    # name the exercises whose function, as the notebook defines it now, fails its public tests
    failing = []
    for e in known:
        func = caller.get(e.function)
        try:
            if callable(func) and not all(r.ok for r in run_checks(e.id, func, lang)):
                failing.append(e)
        except Exception:  # noqa: BLE001 - a message is never worth a crash
            failing.append(e)
    named = failing or known
    join = message("list_separator", lang).join
    return message("needs_exercise" if len(named) == 1 else "needs_exercises", lang,
                   functions=join(f"`{e.function}`" for e in named), ids=join(e.id for e in named),
                   checks=join(f'check("{e.id}", {e.function})' for e in named))


def check(exercise_id, func, lang=None, practice=False):
    """Run the public tests of ``exercise_id`` on ``func`` and print localised feedback.

    Never raises: a wrong id, a non-function or a crashing function are all
    reported as text.  ``lang`` ("zh", "en", "ru") overrides the detection.
    When every test passes the report is one line without words (``<id> ·
    <function>: n/n ✓``, n public tests of n), so the executed solution notebooks
    have identical outputs in the three languages; failures and "not done yet" are
    explained in the notebook's language, each test named in it.
    ``practice=True`` (or a seed) runs tests of the hidden kinds on fresh random data.
    """
    caller = sys._getframe(1).f_globals
    lang = detect_language(lang, namespace=caller)
    if exercise_id not in EXERCISES:
        print(message("unknown_exercise", lang, id=exercise_id, known=", ".join(EXERCISES)))
        return
    exercise = EXERCISES[exercise_id]
    if not callable(func):
        print(message("not_callable", lang, function=exercise.function,
                      got_type=type_name(describe_value(func), lang)))
        return
    cases, seed = None, None
    if practice is not False and practice is not None:
        seed = secrets.randbelow(1_000_000) if practice is True else int(practice)
        cases = exercise.hidden_cases(seed)
    results = run_checks(exercise_id, func, lang, cases)
    passed = sum(r.ok for r in results)
    header = f"{exercise.id} · {exercise.function}"
    lines = []
    if seed is not None:
        lines.append(header + " — " + message("practice_header", lang, seed=seed))
    if passed == len(results):
        # Success is printed without words, so that solved notebooks read the same in every language.
        lines.append(f"{header}: {passed}/{len(results)} ✓")
    elif all(r.reason == "not_implemented" for r in results):
        lines += [header, "  … " + message("not_implemented", lang)]
    else:
        if seed is None:
            lines.append(header)
        colon = message("label_colon", lang)
        for r, label in zip(results, _numbered([r.label for r in results])):
            if r.ok:
                lines.append(f"  ✓ {label}")
            else:
                lines.append(f"  {'…' if r.reason == 'not_implemented' else '✗'} {label}{colon}{r.text}")
        key = "summary_practice" if seed is not None else "summary_some"
        lines.append(message(key, lang, id=exercise.id, passed=passed, total=len(results), seed=seed))
        # a practice draw is diagnosed with the public tests beside it (as the grader does): a slip that fits
        # the practice results alone may fail a public test this function passes
        seen = results if seed is None else run_checks(exercise_id, func, lang) + results
        mistake = diagnosis_of(exercise_id, seen)
        if mistake is not None:
            from . import diagnoses
            # plain text: a `code` span loses its marks (a page sets it as code)
            lines.append("  → " + re.sub(r"`([^`]+)`", r"\1", diagnoses.explain_mistake(mistake, lang)))
    try:
        finding = library_use(exercise, func, caller)
    except Exception:  # noqa: BLE001 - a warning is never worth a crash
        finding = None
    if finding is not None:
        lines.append("  ! " + finding_message(finding, exercise, lang))
    _show("\n".join(lines), lang)


def _numbered(labels):
    """Labels that repeat (practice draws several tests of one kind) numbered "(1)", "(2)", ..., so that a
    learner can tell which one failed; the others unchanged."""
    total = {label: labels.count(label) for label in labels}
    seen = {}
    out = []
    for label in labels:
        seen[label] = seen.get(label, 0) + 1
        out.append(f"{label} ({seen[label]})" if total[label] > 1 else label)
    return out


def _show(text, lang):
    """Print ``text``; in a notebook, a text that names a section (§1.6) is shown with an HTML twin in
    which every §N.M links to the section on the course site (:mod:`grading.sections`), the plain text
    unchanged beside it.  Success lines name no section, so solved notebooks keep their printed output."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None and hasattr(ipython, "get_ipython") else None
    if "§" not in text or shell is None or not hasattr(shell, "display_pub"):
        print(text)
        return
    try:
        from IPython.display import display
        from . import sections
        linked = sections.link_sections(text, lang, from_notebook=True)
    except Exception:  # noqa: BLE001 - a link is never worth losing the feedback
        print(text)
        return
    display({"text/plain": text, "text/html": f'<pre class="course-check">{linked}</pre>'}, raw=True)
