"""The corpus of wrong answers through the real batch grader, in one batch.

Every entry of tests/mistakes/ is put into a copy of its solved notebook (a cell
with the wrong definition right after the solution's), at most one entry per
exercise in a notebook (and two entries of which one also defines the other's function never share one), so
the whole corpus (CHANGELOG gives its count) fits in a few notebooks per exercise; the
notebooks alternate between zh, en and ru.  One run of ``python -m grading``
with ``--key`` (the tests' key fixed_key(5)) grades them all.  Each entry's row must fail with 0 points,
name the same diagnosis as the in-process scoring of tests/test_mistakes.py
(the grader runs the function in a sandboxed kernel and compares in its own
process: the two must agree), and the instructor's index must count it.
"""

import collections
import copy
import csv
import html
import json
import pathlib
import subprocess
import sys

import pytest

from conftest import key_file, slowdown
from course_i18n import LANGUAGES as LANGS
from grading.exercises import EXERCISES
from mistakes import entries
from test_mistakes import GRADER_SEEDS, corpus_outcomes, graded, grading_cases  # noqa: F401 (a fixture)

ROOT = pathlib.Path(__file__).resolve().parent.parent
SEED = GRADER_SEEDS[0]
# pytest-timeout's bound (900 s, pyproject.toml) covers a test's fixtures too, and the first test here sets up
# corpus_batch: 350-500 s on an idle 2-core machine, three times that when other work shares the cores (two runs
# beside eight other jobs lost their worker to the bound). The grader's own --timeout and the subprocess's timeout
# (both scaled by slowdown()) are what catch a hang here; the module's bound sits above a loaded set-up.
pytestmark = [pytest.mark.heavy, pytest.mark.timeout(2400)]


def _source(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def with_wrong_definitions(notebook, chosen):
    """A copy of ``notebook`` with, after the cell defining each exercise's function, a cell holding the wrong one."""
    nb = copy.deepcopy(notebook)
    for entry in chosen:
        function = EXERCISES[entry.exercise].function
        where = next(i for i, c in enumerate(nb["cells"])
                     if c["cell_type"] == "code" and f"def {function}(" in _source(c))
        nb["cells"].insert(where + 1, {"cell_type": "code", "execution_count": None, "id": f"wrong-{function}"[:64],
                                       "metadata": {}, "outputs": [], "source": entry.code.strip() + "\n"})
    return nb


def build_batch(folder):
    """Write the corpus as submissions under ``folder``; returns {submission name: [entries]}."""
    by_notebook = collections.defaultdict(lambda: collections.defaultdict(list))
    for entry in entries():
        by_notebook[EXERCISES[entry.exercise].notebook][entry.exercise].append(entry)
    plan, n = {}, 0
    for stem, per_exercise in sorted(by_notebook.items()):
        queues, k = {exercise: list(v) for exercise, v in per_exercise.items()}, 0
        while any(queues.values()):
            chosen = []
            for exercise, queue in queues.items():
                # the first of the exercise's entries that does not clash with those chosen (one that does
                # waits for a later notebook): fewer notebooks, each entry still graded in one of its own
                fits = next((i for i, entry in enumerate(queue) if not any(_clash(entry, other) for other in chosen)),
                            None)
                if fits is not None:
                    chosen.append(queue.pop(fits))
            lang = LANGS[n % 3]
            n += 1
            solved = json.loads((ROOT / "solutions" / lang / f"{stem}.ipynb").read_text(encoding="utf-8"))
            name = f"{stem}-{k:02d}-{lang}"
            (folder / name).mkdir()
            (folder / name / f"{stem}.ipynb").write_text(json.dumps(with_wrong_definitions(solved, chosen),
                                                                   ensure_ascii=False), encoding="utf-8")
            plan[name] = chosen
            k += 1
    return plan


def _clash(entry, other):
    """Whether one of the two entries also defines the other's function (a held-out causal-2 answer writes
    its own future_perturbation_change): in one notebook the later cell would replace the other's answer."""
    return (f"def {EXERCISES[other.exercise].function}(" in entry.code
            or f"def {EXERCISES[entry.exercise].function}(" in other.code)


@pytest.fixture(scope="module")
def corpus_batch(tmp_path_factory):
    batch = tmp_path_factory.mktemp("corpus")
    plan = build_batch(batch)
    out = tmp_path_factory.mktemp("corpus-report")
    factor = slowdown()
    proc = subprocess.run(
        [sys.executable, "-m", "grading", str(batch), "--json", str(out / "r.json"), "--feedback", str(out / "fb"),
         "--csv", str(out / "r.csv"), "--diagnoses-csv", str(out / "mistakes.csv"), "--lang", "ru",
         "--key", str(key_file(out, SEED)), "--jobs", "2", "--timeout", f"{20 * factor:g}",
         "--cell-timeout", f"{60 * factor:g}"],
        cwd=ROOT, capture_output=True, text=True, timeout=3600 * factor)
    assert (out / "r.json").exists(), f"the grader wrote no report (exit {proc.returncode}):\n{proc.stderr[-4000:]}"
    report = json.loads((out / "r.json").read_text(encoding="utf-8"))
    rows = {(pathlib.Path(r["submission"]).name, r["exercise"]): r for r in report["rows"]}
    return {"proc": proc, "plan": plan, "rows": rows, "report": report, "out": out, "batch": batch}


def test_the_batch_completes(corpus_batch):
    assert corpus_batch["proc"].returncode == 0, corpus_batch["proc"].stderr[-3000:]
    assert corpus_batch["report"]["grader"]["complete"] is True


def _uses_a_forbidden_module(notebook, entry):
    """True when the entry's function, as the submitted ``notebook`` defines it, touches a package its
    exercise forbids (evidence-1: plain Python only): grading.usage.analyze, the analysis the grader runs
    on the same cells, then finds a module use, and the grader gives its "uses numpy: no points" note
    instead of a diagnosis."""
    from grading import usage
    from grading.batch.notebooks import read_notebook
    from grading.cells import prepare_cell
    ex = EXERCISES[entry.exercise]
    modules = frozenset(getattr(ex, "forbidden_modules", ()))
    if not modules:
        return False
    cells = [(number, code) for number, source, tags in read_notebook(notebook).cells
             for code in [prepare_cell(source, tags)] if code is not None]      # as the runner prepares them
    found = usage.analyze(cells, ex.function, {"methods": frozenset(), "modules": modules})
    return found is not None and found.kind in ("reference", "module")


def test_every_entry_loses_its_points_and_gets_the_same_diagnosis(corpus_batch, corpus_outcomes):
    problems = []
    for name, chosen in corpus_batch["plan"].items():
        for entry in chosen:
            row = corpus_batch["rows"][(name, entry.exercise)]
            if row["status"] == "pass" or row["points"] != 0:
                problems.append(f"{entry.name}: {row['status']} {row['points']} points")
            expected = graded(entry, SEED)[2]
            notebook = corpus_batch["batch"] / name / f"{EXERCISES[entry.exercise].notebook}.ipynb"
            if expected is not None and _uses_a_forbidden_module(notebook, entry):
                expected = None     # the grader shows its "uses numpy: no points" note instead of a diagnosis
            if row.get("diagnosis") != (expected.id if expected else None):
                problems.append(f"{entry.name}: the grader names {row.get('diagnosis')}, check() "
                                f"{expected.id if expected else None}")
    assert not problems, "\n".join(problems)


def test_the_index_counts_the_diagnoses(corpus_batch):
    """--lang ru: the index, the terminal's summary, the JSON report and both CSVs count them in Russian."""
    index = (corpus_batch["out"] / "fb" / "index.html").read_text(encoding="utf-8")
    stdout = corpus_batch["proc"].stdout
    counts = collections.Counter((r["exercise"], r["diagnosis"]) for r in corpus_batch["rows"].values()
                                 if r.get("diagnosis"))
    assert counts, "no diagnosis at all"
    # index_diagnoses reads «Распознанные ошибки в группе» (read18: the grader names the mistakes it recognised, not the frequent ones)
    assert "Распознанные ошибки в группе" in index and "Распознанные ошибки в группе:\n" in stdout
    from grading import diagnoses, messages
    graded = collections.Counter(r["exercise"] for r in corpus_batch["rows"].values() if r["status"] != "missing")
    in_json = {(d["exercise"], d["mistake"]): d for d in corpus_batch["report"]["diagnoses"]}
    with open(corpus_batch["out"] / "mistakes.csv", encoding="utf-8") as f:
        in_csv = {(d["exercise"], d["mistake"]): d for d in csv.DictReader(f)}
    with open(corpus_batch["out"] / "r.csv", encoding="utf-8") as f:
        per_row = collections.Counter((d["exercise"], d["diagnosis"]) for d in csv.DictReader(f) if d["diagnosis"])
    assert len(in_json) == len(in_csv) == len(counts)
    for (exercise, mistake_id), n in counts.items():
        what = diagnoses.short_name(diagnoses.mistake_by_id(mistake_id), "ru")
        line = messages.text("index_diagnosis", "ru", id=exercise, count=n, total=graded[exercise], what=what)
        assert f"{n} из {graded[exercise]} студентов" in line and what in line
        assert html.escape(line) in index and f"  {line}\n" in stdout, (exercise, mistake_id)
        assert in_json[exercise, mistake_id]["count"] == n and in_json[exercise, mistake_id]["text"] == line
        assert in_csv[exercise, mistake_id] == {"exercise": exercise, "mistake": mistake_id, "what": what,
                                                 "students": str(n), "graded": str(graded[exercise])}
        assert per_row[exercise, what] == n


def test_pages_say_how_points_are_earned_and_why(corpus_batch):
    from grading.batch.report import display_names, page_name
    fb = corpus_batch["out"] / "fb"
    names = display_names(corpus_batch["report"])
    pages = {pathlib.Path(s).name: page_name(names[s], s) for s in names}
    sentences = {"zh": ("计分方法", "可能的原因"), "en": ("How points are earned", "What this suggests"),
                 "ru": ("Как начисляются баллы", "Вероятная причина")}
    for name in corpus_batch["plan"]:
        lang = name.rsplit("-", 1)[1]
        for suffix in (".html", ".md"):
            page = (fb / f"{pages[name]}{suffix}").read_text(encoding="utf-8")
            assert sentences[lang][0] in page, (name, suffix)
        diagnosed = any(corpus_batch["rows"][(name, e.exercise)].get("diagnosis") for e in corpus_batch["plan"][name])
        assert (sentences[lang][1] in (fb / f"{pages[name]}.html").read_text(encoding="utf-8")) == diagnosed, name


def test_partial_credit_splits_the_points_over_the_test_groups(tmp_path):
    """--partial: an exercise's points split equally over its test groups (each public test, each hidden
    kind), stated in the rubric of the report, on the rows and on the pages; the default stays all or nothing."""
    from grading.batch.runner import partial_points, test_groups
    exercise = EXERCISES["mask-2"]
    cases = [(c, False) for c in exercise.public_cases()] + [(c, True) for c in grading_cases(exercise, SEED)]
    groups = test_groups(cases)
    assert len(groups) == len(exercise.public_cases()) + len({c.kind for c, hidden in cases if hidden})
    assert partial_points(exercise, cases, set(range(len(cases)))) == (2, [len(groups), len(groups)])
    assert partial_points(exercise, cases, set()) == (0, [0, len(groups)])
    one_hidden_kind = set(range(len(cases))) - {next(i for i, (c, h) in enumerate(cases) if h)}
    points, won = partial_points(exercise, cases, one_hidden_kind)
    assert won == [len(groups) - 1, len(groups)] and points == round(2 * (len(groups) - 1) / len(groups), 2)

    entry = next(e for e in entries() if e.name == "mask-2:softmax-then-zero")
    solved = json.loads((ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb").read_text(encoding="utf-8"))
    (tmp_path / "in" / "anna").mkdir(parents=True)
    (tmp_path / "in" / "anna" / "ex01_allowed_set.ipynb").write_text(
        json.dumps(with_wrong_definitions(solved, [entry]), ensure_ascii=False), encoding="utf-8")
    factor = slowdown()
    proc = subprocess.run([sys.executable, "-m", "grading", str(tmp_path / "in"), "--partial",
                           "--key", str(key_file(tmp_path, SEED)),
                           "--json", str(tmp_path / "r.json"), "--feedback", str(tmp_path / "fb"),
                           "--timeout", f"{20 * factor:g}", "--cell-timeout", f"{60 * factor:g}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600 * factor)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["grader"]["options"]["partial"] is True
    rubric = {x["id"]: x for x in report["grader"]["exercises"]}
    assert rubric["mask-2"]["groups"] == list(groups)
    row = next(r for r in report["rows"] if r["exercise"] == "mask-2")
    passed, total = row["groups"]
    assert row["status"] == "fail" and 0 < passed < total
    assert row["points"] == round(2 * passed / total, 2)
    assert all(r["points"] == r["max_points"] for r in report["rows"] if r["exercise"] != "mask-2")
    page = next((tmp_path / "fb").glob("anna*.html")).read_text(encoding="utf-8")
    assert "частичный зачёт" in page and f"пройдено групп тестов: {passed} из {total}" in page


STOPPING = """
_answer, _calls = causal_allowed, []


def causal_allowed(tq, tk):
    _calls.append((tq, tk))
    if len(_calls) > 2:                # the grader's third test: the kernel {how}
        {stop}
    return _answer(tq, tk)
"""


def test_partial_credit_keeps_the_groups_passed_before_a_stop(tmp_path):
    """--partial and a timeout or a dead kernel: the test groups that passed in full before the stop keep
    their share (a stop never earns more than failing the tests that did not run); the rest earn nothing."""
    from grading.batch.runner import test_groups
    exercise = EXERCISES["mask-1"]
    groups = test_groups([(c, False) for c in exercise.public_cases()] + [(c, True) for c in grading_cases(exercise, SEED)])
    solved = json.loads((ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb").read_text(encoding="utf-8"))
    stops = {"dies": ("dies", "import os; os._exit(3)"), "hangs": ("hangs", "import time; time.sleep(3600)")}
    for student, (how, stop) in stops.items():
        nb = copy.deepcopy(solved)                        # last cell: the notebook's own calls come before it
        nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "stopping", "metadata": {},
                            "outputs": [], "source": STOPPING.format(how=how, stop=stop)})
        (tmp_path / "in" / student).mkdir(parents=True)
        (tmp_path / "in" / student / "ex01_allowed_set.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    factor = slowdown()
    proc = subprocess.run([sys.executable, "-m", "grading", str(tmp_path / "in"), "--partial",
                           "--key", str(key_file(tmp_path, SEED)),
                           "--group-by", "top", "--json", str(tmp_path / "r.json"), "--exercises", "mask-1",
                           "--timeout", f"{8 * factor:g}", "--cell-timeout", f"{60 * factor:g}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600 * factor)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = {pathlib.Path(r["submission"]).name: r for r in json.loads((tmp_path / "r.json").read_text())["rows"]}
    hangs, dies = rows["hangs"], rows["dies"]
    assert hangs["status"] == "timeout" and hangs["cases_passed"] == 2, hangs
    assert hangs["groups"] == [2, len(groups)] and hangs["points"] == round(exercise.points * 2 / len(groups), 2)
    # a dead kernel: the results it wrote before dying count when the grader can still read them (a
    # kernel forked into its sandbox leaves them there until the grader ends it; a fresh kernel's
    # sandbox, and its result file, end with it)
    warm = json.loads((tmp_path / "r.json").read_text())["grader"]["isolation"]["kernels"].startswith("forked")
    assert dies["status"] == "error" and dies["cases_passed"] in ((2,) if warm else (0, 2)), dies
    won = dies["cases_passed"]
    assert dies["groups"] == [won, len(groups)] and dies["points"] == round(exercise.points * won / len(groups), 2)
