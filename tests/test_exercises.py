"""The exercises: solved notebooks earn full marks, unsolved ones earn nothing,
common mistakes are caught, the exercise notebooks are the solved ones with the
answers cut out, every test is named in three languages, and ``check`` explains
failures in the notebook's language, wherever the notebook is opened.
"""

import ast
import contextlib
import io
import json
import os
import pathlib
import re
import subprocess
import sys

import nbformat
import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from conftest import require_or_skip, slowdown  # noqa: E402
from grading import exercises as ex  # noqa: E402
from grading import usage  # noqa: E402
from grading import codec  # noqa: E402
from grading.values import from_plain, to_plain  # noqa: E402
from grading.exercises import EXERCISES, Case, Opaque, Raised, Ref, check, library_use  # noqa: E402
from grading.feedback import detect_language, set_language  # noqa: E402
from grading.registry import Kind, exercise, load_specs  # noqa: E402
from tools.build_notebooks import course_package, course_wheel, fill_placeholders  # noqa: E402
from tools.nbsource import (EXERCISE_TAG, LANGUAGES, SOLUTION_BEGIN, SOLUTION_END, SOLUTION_TAG, STUB,  # noqa: E402
                            exercise_cells, exercise_code, load, solution_blocks, solution_cells)

SEEDS = (0, 1, 2, 7, 2024)
STEMS = sorted({e.notebook for e in EXERCISES.values()})


def source_path(stem):
    return ROOT / "src" / "solutions" / f"{stem}.py"


def assigned_names(text):
    """Names a cell assigns at its top level (what a later cell may miss when this one fails)."""
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def run_cells(texts, solved):
    """Execute code cells in one namespace, as a kernel would.

    A solved notebook must run without any exception.  An unsolved one may fail
    only where a stub is reached (NotImplementedError), or where a later cell needs
    a name that such a failing cell never got to define; anything else fails the test.
    """
    namespace = {"__name__": "__main__"}
    undefined = set()
    with contextlib.redirect_stdout(io.StringIO()):
        for text in texts:
            try:
                exec(compile(text, "<cell>", "exec"), namespace)
            except NotImplementedError:
                if solved:
                    raise
                undefined |= assigned_names(text)
            except NameError as exc:
                if solved or exc.name not in undefined:
                    raise AssertionError(f"cell failed with {exc!r}:\n{text}") from exc
                undefined |= assigned_names(text)
    return namespace


def test_the_cell_runner_fails_when_a_solved_notebook_raises():
    """run_cells is what the tests below trust: it lets nothing pass that a kernel would stop at."""
    with pytest.raises(ValueError, match="broken"):
        run_cells(["x = 1", "raise ValueError('broken')"], solved=True)
    with pytest.raises(NotImplementedError):
        run_cells(["def f():\n    raise NotImplementedError", "f()"], solved=True)
    with pytest.raises(AssertionError, match="NameError"):
        run_cells(["print(undefined_name)"], solved=True)
    # an unsolved notebook may stop at a stub, and at later cells that need what the stub never defined
    done = run_cells(["a = 1", "def f():\n    raise NotImplementedError", "b = f()", "c = b + 1", "d = a + 1"],
                     solved=False)
    assert done["d"] == 2 and "b" not in done
    with pytest.raises(ZeroDivisionError):                          # but nothing else
        run_cells(["b = 1 / 0"], solved=False)
    with pytest.raises(AssertionError, match="NameError"):
        run_cells(["c = never_defined + 1"], solved=False)


_namespaces = {}


def namespace(stem, solved):
    key = (stem, solved)
    if key not in _namespaces:
        cells = load(source_path(stem))
        if solved:
            texts = [c.text["en"] for c in cells if c.kind == "code"]
        else:
            texts = [c.text["en"] for _, c in exercise_cells(cells) if c.kind == "code"]
        _namespaces[key] = run_cells(texts, solved)
    return _namespaces[key]


def notebook_cells(stem, solved=True):
    """(number, code) of the notebook's code cells, as the grader's source analysis reads them."""
    cells = load(source_path(stem))
    chosen = [c for c in cells if c.kind == "code"] if solved else \
        [c for _, c in exercise_cells(cells) if c.kind == "code"]
    return [(i, c.text["en"]) for i, c in enumerate(chosen)]


def all_cases(exercise):
    cases = list(exercise.public_cases())
    for seed in SEEDS:
        cases += exercise.hidden_cases(seed)
    return cases


def score(exercise, func, cases):
    return [(case.name, *exercise.compare(exercise.expected(case), exercise.call(func, case))) for case in cases]


# --------------------------------------------------------------------------
# Registry
# --------------------------------------------------------------------------

def test_registry_shape():
    ids = list(EXERCISES)
    assert ids[0] == "mask-1" and ids[-1] == "dec-4"
    for stem in STEMS:
        in_notebook = [e for e in EXERCISES.values() if e.notebook == stem]
        assert in_notebook, f"{stem} has no exercise"
    for e in EXERCISES.values():
        assert isinstance(e.points, int) and e.points > 0
        assert set(e.title) == set(LANGUAGES)
        assert source_path(e.notebook).exists()
        assert callable(e.reference)
    assert ex.total_points() == sum(e.points for e in EXERCISES.values())


def rubric():
    """{exercise id: points} from the rubric table of docs/exercises.md, and the total it states."""
    text = (ROOT / "docs" / "exercises.md").read_text(encoding="utf-8")
    table = text.split("<!-- rubric: id | points | why -->", 1)[1]
    rows = dict(re.findall(r"^\| `([a-z]+-\d+)` \| (\d+) \|", table, flags=re.M))
    total = re.search(r"^Total: \*\*(\d+) points\*\*", table, flags=re.M)
    return {k: int(v) for k, v in rows.items()}, int(total.group(1))


HEADING_POINTS = {"zh": r"（(\d+) 分）", "en": r"\((\d+) points?\)", "ru": r"\((\d+) балл(?:а|ов)?\)"}


def test_points_agree_with_the_rubric_and_the_headings():
    points, total = rubric()
    assert points == {e.id: e.points for e in EXERCISES.values()}, "docs/exercises.md's rubric and the registry differ"
    assert total == ex.total_points() == sum(points.values())
    for e in EXERCISES.values():
        for lang in LANGUAGES:
            nb = json.loads((ROOT / "solutions" / lang / f"{e.notebook}.ipynb").read_text(encoding="utf-8"))
            headings = [line for c in nb["cells"] if c["cell_type"] == "markdown"
                        for line in "".join(c["source"]).splitlines() if re.match(rf"## {re.escape(e.id)}\b", line)]
            assert len(headings) == 1, (e.id, lang, headings)
            stated = re.search(HEADING_POINTS[lang], headings[0])
            assert stated and int(stated.group(1)) == e.points, (e.id, lang, headings[0])


def heading_problems(exercise, lang, headings):
    """How the ``headings`` of ``exercise`` (each a notebook's "## <id>: … (N points)" line) fail to say its grader
    title (``grading.exercise.<id>.title``) in ``lang``: after the id and its colon, the same words, starting in
    lower case where the language has case, then the points."""
    title = exercise.title[lang]
    words = title if lang == "zh" else title[:1].lower() + title[1:]
    colon = "：" if lang == "zh" else ": "
    found = []
    for heading in headings:
        named = re.sub(r"\s*" + HEADING_POINTS[lang] + r"\s*$", "", heading)
        if named != f"## {exercise.id}{colon}{words}":
            found.append(f"{exercise.id} [{lang}]: the heading {heading!r} does not name the title {title!r}")
    return found


def test_each_heading_names_its_exercise_by_the_graders_title():
    """The exercise and solution notebooks name an exercise with its grader title (audit23 REM-1: "Fixing the split"
    in the grader, "fix the split" in the notebook)."""
    found = []
    for e in EXERCISES.values():
        for lang in LANGUAGES:
            headings = []
            for kind in ("exercises", "solutions"):
                nb = json.loads((ROOT / kind / lang / f"{e.notebook}.ipynb").read_text(encoding="utf-8"))
                headings += [line for c in nb["cells"] if c["cell_type"] == "markdown"
                             for line in "".join(c["source"]).splitlines()
                             if re.match(rf"## {re.escape(e.id)}\b", line)]
            assert len(headings) == 2, (e.id, lang, headings)
            found += heading_problems(e, lang, headings)
    assert not found, "\n".join(found)


def test_the_heading_check_can_fail():
    """Negative control: the old heads-1 heading and a capital after the colon are named; the right one passes."""
    e = EXERCISES["heads-1"]
    assert e.title["en"] == "Fixing the split"
    assert not heading_problems(e, "en", ["## heads-1: fixing the split (1 point)"])
    assert len(heading_problems(e, "en", ["## heads-1: fix the split (1 point)",
                                          "## heads-1: Fixing the split (1 point)"])) == 2


def test_the_rubric_check_can_fail(monkeypatch):
    points, _ = rubric()
    assert "mask-1" in points and len(points) == len(EXERCISES)
    monkeypatch.setattr(EXERCISES["mask-1"], "points", EXERCISES["mask-1"].points + 1)
    with pytest.raises(AssertionError):
        test_points_agree_with_the_rubric_and_the_headings()


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_every_test_is_named_in_three_languages(exercise_id):
    """Public tests carry a label per language; hidden tests a kind whose label says what it checks."""
    exercise_ = EXERCISES[exercise_id]
    public = exercise_.public_cases()
    names = [c.name for c in public]
    assert len(set(names)) == len(names), "public test names repeat"
    for case in public:
        assert case.label and all(case.label.get(lang, "").strip() for lang in LANGUAGES), case.name
        labels = {case.label[lang] for lang in LANGUAGES}
        assert len(labels) > 1 or case.label["en"].startswith(("eps", "offset", "position")), case.name
    for seed in SEEDS:
        for case in exercise_.hidden_cases(seed):
            kind = exercise_.hidden_kinds.get(case.kind)
            assert kind is not None, f"{case.name}: kind {case.kind!r} has no label"
            assert all(kind.label.get(lang, "").strip() for lang in LANGUAGES)
            assert kind.like is None or kind.like in names, f"{case.kind}: like={kind.like!r} is no public test"
    assert set(exercise_.hidden_kinds) == {c.kind for s in SEEDS for c in exercise_.hidden_cases(s)}, \
        "a declared kind no hidden test uses"


def test_specs_refuse_incomplete_declarations(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="English of 'grading.exercise.x-1.title' is empty"):
        exercise(id="x-1", function="f", points=1, title=" ", reference=abs, public=list, hidden=list)
    with pytest.raises(TypeError, match="x-1: the title: write the text in English"):
        exercise(id="x-1", function="f", points=1, title={"en": "A"}, reference=abs, public=list, hidden=list)
    with pytest.raises(TypeError, match="reference must be a function"):
        exercise(id="x-1", function="f", points=1, title="A", reference="abs", public=list, hidden=list)
    pkg = tmp_path / "fake_specs"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    body = ("from grading.registry import exercise\nNOTEBOOK = 'exNN'\n"
            "EXERCISES = [exercise(id='dup-1', function='f', points=1, title='A', reference=abs, "
            "public=list, hidden=list)]\n")
    (pkg / "a.py").write_text(body)
    (pkg / "b.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match="declared twice"):
        load_specs("fake_specs")
    (pkg / "b.py").unlink()
    (pkg / "c.py").write_text("NOTEBOOK = 3\n")
    with pytest.raises(ValueError, match="must define NOTEBOOK"):
        load_specs("fake_specs")


def _shipped(value):
    """``value`` as the grader sends it into a kernel: strict plain JSON (grading/codec.py)."""
    return json.dumps(codec.encode(to_plain(value), strict=True), allow_nan=False)


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_cases_travel_through_the_graders_codec(exercise_id):
    """Every case's arguments go into a kernel as plain JSON, and the right answer, coming back the way
    a kernel sends it, compares equal to the expected value."""
    exercise = EXERCISES[exercise_id]
    for case in all_cases(exercise):
        _shipped(tuple(case.args)), _shipped(dict(case.kwargs))
        expected = exercise.expected(case)
        if isinstance(expected, Raised):
            continue                       # a kernel sends exceptions as its own records (_kernel_side.py)
        back = from_plain(codec.decode(json.loads(json.dumps(codec.encode(expected), allow_nan=False))))
        ok, reason, details = exercise.compare(expected, back)
        assert ok, (case.name, reason, details)
        json.dumps(details, allow_nan=False)


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_hidden_cases_depend_only_on_the_seed(exercise_id):
    exercise = EXERCISES[exercise_id]
    first, again, other = ([_shipped((c.name, c.setup, tuple(c.args), dict(c.kwargs)))
                            for c in exercise.hidden_cases(seed)] for seed in (11, 11, 12))
    assert first == again and first != other
    public = {c.name for c in exercise.public_cases()}
    assert all(c.name.startswith("hidden-") and c.name not in public for c in exercise.hidden_cases(11))


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_every_draw_builds_its_hidden_cases(exercise_id):
    """The hidden tests are drawn afresh from each grading run's secret: no draw may fail to build them.
    causal-1 once asked for a replacement token absent from a suffix that held all seven ids (about one draw in
    1,300; practice seed 973 is one), and a grading run with such a secret would have stopped."""
    exercise = EXERCISES[exercise_id]
    for seed in [973, 1319] + list(range(400)):
        cases = exercise.hidden_cases(seed)
        assert cases and all(c.kind in exercise.hidden_kinds for c in cases), seed


def test_causal_1_replacement_changes_the_tokens_it_replaces():
    """Each hidden causal-1 test perturbs something: the replacement differs from some token it replaces."""
    for seed in (973, 1319, 1793, 2595, 3832, 0, 1):
        for case in EXERCISES["causal-1"].hidden_cases(seed):
            _, ids, position, replacement = case.args
            assert np.any(np.asarray(ids)[..., position:] != replacement), (seed, case.name)


# --------------------------------------------------------------------------
# Full marks for the solutions, zero for the stubs
# --------------------------------------------------------------------------

@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_solution_passes_every_case(exercise_id):
    exercise = EXERCISES[exercise_id]
    func = namespace(exercise.notebook, solved=True)[exercise.function]
    assert func.__module__ == "__main__"
    failures = [r for r in score(exercise, func, all_cases(exercise)) if not r[1]]
    assert not failures, failures
    # the solution is the notebook's own code: the grader's source analysis finds nothing to object to
    assert usage.analyze(notebook_cells(exercise.notebook), exercise.function, usage.forbidden_table(exercise)) is None


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_stub_fails_every_case(exercise_id):
    exercise = EXERCISES[exercise_id]
    func = namespace(exercise.notebook, solved=False)[exercise.function]
    results = score(exercise, func, all_cases(exercise))
    assert all(not ok for _, ok, _, _ in results), [r for r in results if r[1]]
    assert {reason for _, _, reason, _ in results} == {"not_implemented"}


# Plausible wrong answers, one per exercise, drawn from the catalogue of bug operators (grading/bugs.py): each
# must fail at least one public and one hidden case.
MISTAKES = {
    "mask-1": "strict-for-loose", "mask-2": "mask-after-softmax", "mask-3": "last-condition-dropped",
    "data-1": "dropped-write@targets[b, len(ids)] = EOS", "heads-1": "reshape-without-transpose",
    "heads-2": "reshape-without-transpose", "heads-3": "dropped-product@merge_heads(heads) @ w_o",
    "cost-1": "dropped-first-factor@=2 * n_layers", "pos-1": "slice-from-zero", "pos-2": "scatter-by-assignment",
    "pos-3": "whole-array", "causal-1": "one-less@position:",
    "causal-2": "condition-always-true@perturbation_verdict:if future_perturbation_change(control",
    "causal-3": "index-for-slice", "causal-4": "wrong-axis", "cache-1": "slice-dropped", "cache-2": "no-scale",
    "cache-3": "last-position-only", "evidence-1": "no-scale", "dec-1": "dropped-term@d_weights - along_row",
    "dec-2": "dropped-middle-term", "dec-3": "index-zero@keys[layer]",
    "dec-4": "condition-always-true@diagnose:if prefix_change(lambda",
}


def mistake(exercise_id):
    from grading import bugs
    found = bugs.find(EXERCISES[exercise_id].answer, MISTAKES[exercise_id])
    return min(found, key=lambda m: len(m.sites[0].indices)).function


def test_every_exercise_has_a_mistake():
    assert set(MISTAKES) == set(EXERCISES)


@pytest.mark.parametrize("exercise_id", list(EXERCISES))
def test_common_mistake_is_caught(exercise_id):
    exercise = EXERCISES[exercise_id]
    wrong = mistake(exercise_id)
    public = score(exercise, wrong, exercise.public_cases())
    hidden = score(exercise, wrong, [c for seed in SEEDS for c in exercise.hidden_cases(seed)])
    assert not all(ok for _, ok, _, _ in public), f"{exercise_id}: the public cases miss the mistake"
    assert not all(ok for _, ok, _, _ in hidden), f"{exercise_id}: the hidden cases miss the mistake"


# --------------------------------------------------------------------------
# The notebooks: generated, in sync, no answer left in an exercise
# --------------------------------------------------------------------------

def read(kind, lang, stem):
    return nbformat.read(ROOT / kind / lang / f"{stem}.ipynb", as_version=4)


def built(cell, lang):
    return fill_placeholders(cell.text[lang])


@pytest.mark.parametrize("stem", STEMS)
def test_committed_notebooks_match_the_source(stem):
    cells = load(source_path(stem))
    solved_cells, exercise_only = solution_cells(cells), exercise_cells(cells)
    for lang in LANGUAGES:
        solved, exercise = read("solutions", lang, stem), read("exercises", lang, stem)
        hint = f"rebuild with `python tools/build_notebooks.py src/solutions/{stem}.py`"
        assert [(c.cell_type, c.source) for c in solved.cells] == [(c.kind, built(c, lang)) for _, c in solved_cells], \
            f"solutions/{lang}/{stem}.ipynb is out of date (or _config.yml's repository changed): {hint}"
        assert [(c.cell_type, c.source) for c in exercise.cells] == [(c.kind, built(c, lang)) for _, c in exercise_only], \
            f"exercises/{lang}/{stem}.ipynb is out of date (or _config.yml's repository changed): {hint}"
        # the exercise is the solved notebook minus the 'solution' cells, with stubs,
        # plus the few Markdown cells tagged 'exercise' (its title)
        solved_by_id = {c.id: c for c in solved.cells}
        for cell in exercise.cells:
            if EXERCISE_TAG in cell.metadata.get("tags", []):
                assert cell.cell_type == "markdown" and cell.id not in solved_by_id
                continue
            twin = solved_by_id[cell.id]
            assert cell.cell_type == twin.cell_type
            assert SOLUTION_TAG not in twin.metadata.get("tags", [])
            expected = exercise_code(twin.source) if cell.cell_type == "code" else twin.source
            assert cell.source == expected
        dropped = [c for c in solved.cells if c.id not in {x.id for x in exercise.cells}]
        assert all(SOLUTION_TAG in c.metadata.get("tags", []) for c in dropped)
        assert solved.cells[0].source != exercise.cells[0].source, "a solved notebook needs a title of its own"


@pytest.mark.parametrize("stem", STEMS)
def test_no_answer_survives_in_the_exercise(stem):
    cells = load(source_path(stem))
    answer_lines, other_lines = set(), set()
    for cell in cells:
        if cell.kind != "code":
            continue
        text = cell.text["en"]
        block_lines = {line.strip() for _, block in solution_blocks(text) for line in block if line.strip()}
        answer_lines |= block_lines
        outside = exercise_code(text).splitlines()
        other_lines |= {line.strip() for line in outside}
    unique = answer_lines - other_lines
    assert unique, f"{stem}: no solution block found"
    stubs = 0
    for lang in LANGUAGES:
        nb = read("exercises", lang, stem)
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert SOLUTION_BEGIN not in cell.source and SOLUTION_END not in cell.source
                for line in cell.source.splitlines():
                    assert line.strip() not in unique, f"exercises/{lang}/{stem}: answer line left: {line!r}"
                stubs += cell.source.count(STUB)
                assert cell.outputs == [] and cell.execution_count is None, "exercise notebooks stay unexecuted"
            else:
                assert SOLUTION_TAG not in cell.metadata.get("tags", [])
    n_exercises = sum(e.notebook == stem for e in EXERCISES.values())
    assert stubs >= 3 * n_exercises


def test_markers_are_validated():
    with pytest.raises(ValueError):
        exercise_code("# BEGIN SOLUTION\nx = 1\n")
    with pytest.raises(ValueError):
        exercise_code("x = 1\n# END SOLUTION\n")
    with pytest.raises(ValueError):
        exercise_code("# BEGIN SOLUTION\n# END SOLUTION\n")
    assert exercise_code("def f():\n    # BEGIN SOLUTION\n    return 1\n    # END SOLUTION\n") == \
        "def f():\n    " + STUB


@pytest.mark.parametrize("stem", STEMS)
def test_solved_notebooks_report_full_marks(stem):
    ids_here = [e.id for e in EXERCISES.values() if e.notebook == stem]
    for lang in LANGUAGES:
        nb = read("solutions", lang, stem)
        seen = []
        for cell in nb.cells:
            if cell.cell_type != "code" or not cell.source.startswith("check("):
                continue
            text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
            exercise_id = cell.source.split('"')[1]
            n = len(EXERCISES[exercise_id].public_cases())
            # success is one line without words: the same in every language
            assert text == f"{exercise_id} · {EXERCISES[exercise_id].function}: {n}/{n} ✓\n", text
            assert all(o.output_type != "error" for o in cell.outputs)
            seen.append(exercise_id)
        assert seen == ids_here, f"solutions/{lang}/{stem}: check cells {seen}, expected {ids_here}"


# --------------------------------------------------------------------------
# check(): localised, never a traceback from the checker
# --------------------------------------------------------------------------

def right_softmax(scores, allowed):
    if not np.broadcast_to(allowed, np.shape(scores)).any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, -np.inf)
    w = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True)


def no_empty_check(scores, allowed):
    return np.where(allowed, 1.0, 0.0) + 0 * scores


def wrong_value(scores, allowed):
    return right_softmax(scores, allowed) * 0.5 + 0.25 * allowed


def wrong_shape(scores, allowed):
    return right_softmax(scores, allowed)[..., :-1]


def wrong_dtype(scores, allowed):
    return right_softmax(scores, allowed).astype(np.float32)


def overflow(scores, allowed):
    if not np.broadcast_to(allowed, np.shape(scores)).any(axis=-1).all():
        raise ValueError("empty row")
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.exp(scores) * allowed
        return w / w.sum(axis=-1, keepdims=True)


def returns_none(scores, allowed):
    right_softmax(scores, allowed)


def returns_text(scores, allowed):
    return "weights"


def crashes(scores, allowed):
    return scores[None, None, None] @ np.ones((7, 7))


def not_done(scores, allowed):
    raise NotImplementedError  # TODO


# kind of failure -> (function, exercise, case name, phrase per language)
FAILURES = {
    "wrong value": (wrong_value, "mask-2", "zeros-3x3",
                    {"zh": "数值不对", "en": "wrong value at index", "ru": "неверное значение"}),
    "wrong shape": (wrong_shape, "mask-2", "zeros-3x3",
                    {"zh": "形状不对：应为 (3, 3)，实际是 (3, 2)", "en": "wrong shape: expected (3, 3), got (3, 2)",
                     "ru": "неверная форма: ожидалась (3, 3), получена (3, 2)"}),
    "wrong dtype": (wrong_dtype, "mask-2", "zeros-3x3",
                    {"zh": "dtype 不对：应为 float64，实际是 float32", "en": "wrong dtype: expected float64, got float32",
                     "ru": "неверный dtype: ожидался float64, получен float32"}),
    "nan": (overflow, "mask-2", "large-scores", {"zh": "得到 nan", "en": "got nan at index", "ru": "получено nan"}),
    "none": (returns_none, "mask-2", "zeros-3x3",
             {"zh": "返回了 None", "en": "returned None", "ru": "вернула None"}),
    "string": (returns_text, "mask-2", "zeros-3x3",
               {"zh": "类型不对：应为 NumPy 数组，实际是 字符串", "en": "wrong type: expected a NumPy array, got a string",
                "ru": "неверный тип (ожидалось: массив NumPy; получено: строка)"}),
    "raises": (crashes, "mask-2", "zeros-3x3",
               {"zh": "你的函数抛出了 ValueError", "en": "your function raised ValueError",
                "ru": "ваша функция выбросила исключение ValueError"}),
    "no exception": (no_empty_check, "mask-2", "empty-row",
                     {"zh": "这个输入应当抛出 ValueError", "en": "this input should raise ValueError",
                      "ru": "должна быть ошибка ValueError"}),
}


def output_of(*args, **kwargs):
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert check(*args, **kwargs) is None
    return buffer.getvalue()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(FAILURES))
def test_check_explains_failures(kind, lang):
    func, exercise_id, case_name, phrases = FAILURES[kind]
    text = output_of(exercise_id, func, lang=lang)
    case = next(c for c in EXERCISES[exercise_id].public_cases() if c.name == case_name)
    label = case.label[lang]                       # every test is named in the notebook's language
    colon = "：" if lang == "zh" else ":"                # Chinese takes the full-width colon after a label
    line = next(l for l in text.splitlines() if l.strip().startswith(("✗", "✓")) and f" {label}{colon}" in l)
    assert line.strip().startswith("✗"), text
    assert phrases[lang] in line, line
    assert "Traceback" not in text
    others = [l for l in LANGUAGES if l != lang]
    assert not any(FAILURES[kind][3][o] in text for o in others if FAILURES[kind][3][o] != phrases[lang])
    assert not any(case.label[o] in text for o in others if case.label[o] != label)
    assert case_name not in text or case_name == label


@pytest.mark.parametrize("lang", LANGUAGES)
def test_check_not_done_and_done(lang):
    text = output_of("mask-2", not_done, lang=lang)
    assert {"zh": "尚未完成", "en": "not done yet", "ru": "ещё не сделано"}[lang] in text
    assert "✗" not in text
    done = output_of("mask-2", right_softmax, lang=lang)
    n = len(EXERCISES["mask-2"].public_cases())
    assert done.splitlines()[0] == f"mask-2 · masked_softmax: {n}/{n} ✓"     # the same in every language


@pytest.mark.parametrize("lang", LANGUAGES)
def test_check_wrong_arguments(lang):
    text = output_of("mask-7", right_softmax, lang=lang)
    assert "'mask-7'" in text and "mask-1" in text
    text = output_of("mask-2", "masked_softmax", lang=lang)
    assert "masked_softmax" in text and {"zh": "字符串", "en": "a string", "ru": "строка"}[lang] in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_check_warns_about_the_library(lang):
    import lib
    import lib.attention as attention_module
    from lib.attention import masked_softmax as library_version

    def wrapper(scores, allowed):
        return lib.attention.masked_softmax(scores, allowed)

    def aliased(scores, allowed):
        return attention_module.masked_softmax(scores, allowed)

    marker = {"zh": "不计分", "en": "no points", "ru": "не получает баллов"}[lang]
    for func in (library_version, wrapper, aliased):
        assert marker in output_of("mask-2", func, lang=lang), func
    assert marker not in output_of("mask-2", right_softmax, lang=lang)


def test_check_and_the_grader_agree_on_notebook_code():
    """check() in a kernel reads the kernel's input history, the grader reads the notebook: same cells, same verdict."""
    require_or_skip("IPython", "check() reading a kernel's input history")
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    try:
        cells = ["import lib.attention as A", "def masked_softmax(s, a):\n    return A.masked_softmax(s, a)",
                 'from grading import check\ncheck("mask-2", masked_softmax, lang="en")']
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            for cell in cells:
                shell.run_cell(cell, store_history=True)
        assert "lib.attention.masked_softmax" in out.getvalue() and "no points" in out.getvalue(), out.getvalue()
        graded = usage.analyze([(i, c) for i, c in enumerate(cells[:2])], "masked_softmax",
                               usage.forbidden_table(EXERCISES["mask-2"]))
        assert graded is not None and graded.name == "lib.attention.masked_softmax"
    finally:
        InteractiveShell.clear_instance()


def test_check_survives_a_broken_setup(capsys):
    exercise = EXERCISES["causal-1"]
    broken = Case("broken", (Ref("forward"), np.array([1, 2, 3]), 1, 0), setup="raise RuntimeError('boom')\n")
    result = ex.run_checks("causal-1", exercise.reference, lang="en", cases=[broken])[0]
    assert not result.ok and result.reason == "setup_failed" and "boom" in result.text


# --------------------------------------------------------------------------
# Comparison details the grader relies on
# --------------------------------------------------------------------------

def test_compare_rules():
    cmp = ex.compare_values
    a = np.array([[1.0, 0.0], [0.5, 0.5]])
    assert cmp(a, a + 1e-12)[0]
    assert cmp(a, a + 1e-6)[1] == "wrong_value"
    assert cmp(a, a.astype(np.float32))[1] == "wrong_dtype"
    assert cmp(a.astype(np.float32), a.astype(np.float32) + 1e-6)[0]          # float32 tolerance
    assert cmp(a, a.tolist())[1] == "wrong_type"
    assert cmp(a, a.T.copy()[:1])[1] == "wrong_shape"
    assert cmp(a, a + np.array([[0.0, 1e-20], [0.0, 0.0]]), exact_zeros=True)[1] == "not_exact_zero"
    assert cmp(a, np.where(a > 0.6, np.nan, a))[1] == "nan"
    assert cmp((a, a), [a, a])[0] and cmp((a, a), (a,))[1] == "wrong_length"
    ok, reason, details = cmp((a, a), (a, a * 2))
    assert reason == "wrong_value" and details["item"] == 1
    assert cmp(1.5, np.float64(1.5))[0] and cmp(1.5, np.array(1.5))[0] and cmp(1.5, True)[1] == "wrong_type"
    assert cmp(1.5, float("nan"))[1] == "nan_number" and cmp(1.5, 1.6)[1] == "wrong_number"
    assert cmp(True, np.bool_(True))[0] and cmp(True, 1)[1] == "wrong_type"
    assert cmp("causal", "leaks")[1] == "wrong_exact"
    assert cmp(np.array([1, 2]), np.array([1, 3]))[1] == "wrong_entry"
    assert cmp(Raised("ValueError"), Raised("ValueError", "x", ("ValueError", "Exception")))[0]
    assert cmp(Raised("ValueError"), Raised("KeyError", "x", ("KeyError", "LookupError")))[1] == "wrong_exception"
    assert cmp(Raised("ValueError"), a)[1] == "missing_exception"
    assert cmp(a, Raised("NotImplementedError", "", ("NotImplementedError", "RuntimeError")))[1] == "not_implemented"
    assert cmp(a, None)[1] == "none_returned"
    assert cmp(a, Opaque("Tensor", "tensor([...])"))[1] == "wrong_type"


def test_resolve_and_setup_run_in_a_fresh_namespace():
    exercise = EXERCISES["causal-2"]
    case = exercise.public_cases()[0]
    args, kwargs = exercise.prepare(case)
    assert callable(args[0]) and callable(args[1]) and isinstance(args[2], np.ndarray)
    with pytest.raises(KeyError):
        ex.resolve(Ref("missing"), {})


# --------------------------------------------------------------------------
# Language detection
# --------------------------------------------------------------------------

def test_language_from_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_LANG", raising=False)
    set_language(None)
    for lang in LANGUAGES:
        folder = tmp_path / "exercises" / lang
        folder.mkdir(parents=True)
        monkeypatch.chdir(folder)
        assert detect_language() == lang
    monkeypatch.chdir(tmp_path)
    assert detect_language() == "en"
    monkeypatch.setenv("COURSE_LANG", "ru")
    assert detect_language() == "ru"
    set_language("zh")
    try:
        assert detect_language() == "zh" and detect_language("en") == "en"
    finally:
        set_language(None)
    with pytest.raises(ValueError):
        set_language("de")


def test_check_uses_the_notebook_folder(tmp_path, monkeypatch):
    monkeypatch.delenv("COURSE_LANG", raising=False)
    folder = tmp_path / "exercises" / "ru"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    assert "неверная форма" in output_of("mask-2", wrong_shape)
    assert os.getcwd() == str(folder)


def first_code_cell(kind, lang, stem):
    return next(c.source for c in read(kind, lang, stem).cells if c.cell_type == "code")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_notebook_keeps_its_language_wherever_it_is_opened(tmp_path, monkeypatch, lang):
    """The first code cell sets COURSE_LANGUAGE; check() answers in it, not in the language of the folder."""
    monkeypatch.delenv("COURSE_LANG", raising=False)
    elsewhere = tmp_path / ("ru" if lang != "ru" else "zh")        # a folder that names another language
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    ns = {"__name__": "__main__"}
    exec(first_code_cell("exercises", lang, "ex01_allowed_set"), ns)
    assert ns["COURSE_LANGUAGE"] == lang
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec("def masked_softmax(scores, allowed):\n    return scores[..., :-1]\ncheck('mask-2', masked_softmax)", ns)
    assert FAILURES["wrong shape"][3][lang].split("：")[0].split(":")[0] in out.getvalue(), out.getvalue()


def install_note(kind, lang, stem):
    """The Markdown cell right above the first code cell."""
    cells = read(kind, lang, stem).cells
    first = next(i for i, c in enumerate(cells) if c.cell_type == "code")
    assert cells[first - 1].cell_type == "markdown"
    return cells[first - 1].source


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_opened_outside_the_course_the_note_above_the_first_cell_says_what_to_install(tmp_path, stem, lang):
    """No course code installed (python -I -S: no site-packages at all): the first cell stops
    naming a course module, and the note above it gives, in the notebook's language, that error
    and the one command that installs the course."""
    code = first_code_cell("exercises", lang, stem)
    assert code.splitlines()[0].startswith(f'COURSE_LANGUAGE = "{lang}"  # check()')
    course_first = "\n".join(line for line in code.splitlines() if "import" in line and "numpy" not in line
                             and "math" not in line)
    run = subprocess.run([sys.executable, "-I", "-S", "-c", course_first], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60 * slowdown())
    assert "No module named 'grading'" in run.stderr or "No module named 'lib'" in run.stderr, run.stderr
    note = install_note("exercises", lang, stem)
    assert "No module named 'grading'" in note
    assert f'`%pip install "{course_package()}"`' in note          # a magic: it installs into the kernel's Python
    sentence = {"zh": "在课程之外打开本笔记本时", "en": "If you opened this notebook outside the course", "ru": "Если блокнот открыт вне курса"}
    assert sentence[lang] in note and not any(s in note for l, s in sentence.items() if l != lang)
    assert install_note("solutions", lang, stem) == note


@pytest.mark.parametrize("stem", STEMS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_code_cell_is_the_language_line_and_the_imports(stem, lang):
    """No installer code before the first task: the language line, then import statements only."""
    cell = first_code_cell("exercises", lang, stem)
    tree = ast.parse(cell)
    assert isinstance(tree.body[0], ast.Assign) and tree.body[0].targets[0].id == "COURSE_LANGUAGE"
    assert all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in tree.body[1:]), cell
    assert len(cell.splitlines()) <= 12


def test_the_install_command_comes_from_the_repository_setting(tmp_path, monkeypatch):
    config = tmp_path / "_config.yml"
    config.write_text("repository:\n  url: https://github.com/ORG/REPO/\n  branch: main\n")
    package = "causality-heads-position[learner] @ git+https://github.com/ORG/REPO@main"
    assert course_package(config) == package
    config.write_text("repository:\n  url: ''\n")
    assert course_package(config) == f"./{course_wheel()}[learner]"          # the wheel in the download menu
    config.write_text("repository:\n  url: 'https://x/\"; import os'\n")
    with pytest.raises(ValueError):
        course_package(config)
    from grading.notebook_setup import INSTALL_NOTE
    import tools.build_notebooks as builder
    monkeypatch.setattr(builder, "course_package", lambda: package)
    assert f'`%pip install "{package}"`' in builder.fill_placeholders(INSTALL_NOTE)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_practice_runs_the_hidden_kinds_on_fresh_data(lang):
    done = output_of("mask-2", right_softmax, lang=lang, practice=12)
    n = len(EXERCISES["mask-2"].hidden_cases(12))
    assert f"mask-2 · masked_softmax: {n}/{n} ✓" in done and "12" in done
    wrong = output_of("mask-2", wrong_dtype, lang=lang, practice=12)
    kind = EXERCISES["mask-2"].hidden_kinds["random-float32"].label[lang]
    assert kind not in done and any(kind in line and "✓" in line for line in wrong.splitlines()), wrong
    assert output_of("mask-2", wrong_dtype, lang=lang, practice=12) == wrong       # the seed repeats the draw
    labels = [line.split(":")[0].split("：")[0][4:] for line in wrong.splitlines() if line.startswith(("  ✓", "  ✗"))]
    assert len(labels) == len(set(labels)) and any(label.endswith(" (2)") for label in labels), labels
    assert output_of("mask-2", wrong_dtype, lang=lang, practice=13) != wrong
