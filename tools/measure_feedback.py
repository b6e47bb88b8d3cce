"""What the course's feedback does with a file of wrong answers: caught, graded, diagnosed.

    python tools/measure_feedback.py answers.json              # a file of wrong answers (below)
    python tools/measure_feedback.py --corpus                  # the project's own corpus, tests/mistakes/
    python tools/measure_feedback.py answers.json --json out.json --batch

Input: a JSON list (or JSON lines) of entries

    {"exercise": "mask-2", "notebook": "ex01_allowed_set", "function": "masked_softmax",
     "lang": "ru", "code": "<the learner's cell that defines the function>", "mistake": "<what is wrong>"}

Each entry's code runs, as a learner's cell would, after the setup cell of the
exercise notebook ``exercises/<lang>/<notebook>.ipynb`` (its imports) in a
fresh namespace.  For every entry the report says

* whether it passes ``check()``: the public tests, then the practice tests
  (``check(..., practice=seed)`` for each ``--practice`` seed);
* whether it passes the batch grader with full marks: every public and hidden
  test, the hidden ones drawn from the grader's ``--key`` (a key file, as
  ``python -m grading --key`` takes it; default: a fixed key, so that two
  measurements draw the same tests), computed in this process as the grader
  computes it; ``--batch`` also grades the entries as notebooks with
  ``python -m grading --key`` and reports the grader's own rows;
* the diagnosis ``check()`` prints (the public tests', else the practice
  tests'), its id and its text in the entry's language, or none.

``mistake`` is the writer's description; when it is a diagnosis id
(``mask-2/zero-fill``, or a list of ids for code with two mistakes) the
report also says whether the name given is that one.  The table ends with the
rates per exercise and overall.
"""

import argparse
import collections
import contextlib
import copy
import io
import json
import pathlib
import re
import subprocess
import sys
import tempfile
import warnings

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grading import diagnoses  # noqa: E402
from grading.batch.secret import Secret, SecretError  # noqa: E402
from grading.exercises import EXERCISES, diagnosis_of, run_checks  # noqa: E402

FIELDS = ("exercise", "notebook", "function", "lang", "code", "mistake")


def read_entries(path):
    """The entries of a JSON list or JSON-lines file; a clear error for a malformed one."""
    text = pathlib.Path(path).read_text(encoding="utf-8")
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        data = [json.loads(line) for line in text.splitlines() if line.strip()]
    if isinstance(data, dict):
        data = data.get("entries", [data])
    for i, entry in enumerate(data):
        missing = [f for f in FIELDS if f not in entry]
        if missing:
            raise SystemExit(f"{path}: entry {i} lacks {', '.join(missing)} (each entry needs {', '.join(FIELDS)})")
        exercise = EXERCISES.get(entry["exercise"])
        if exercise is None:
            raise SystemExit(f"{path}: entry {i}: no exercise {entry['exercise']!r}")
        if entry["function"] != exercise.function or entry["notebook"] != exercise.notebook:
            raise SystemExit(f"{path}: entry {i}: {entry['exercise']} is {exercise.function} in "
                             f"{exercise.notebook}, not {entry['function']} in {entry['notebook']}")
    return data


def corpus_entries():
    """The project's own corpus (tests/mistakes/) in the same form; ``mistake`` is the expected diagnosis."""
    sys.path.insert(0, str(ROOT / "tests"))
    from mistakes import entries
    from course_i18n import LANGUAGES
    langs = list(LANGUAGES)
    out = []
    for i, e in enumerate(entries()):
        ex = EXERCISES[e.exercise]
        out.append({"exercise": e.exercise, "notebook": ex.notebook, "function": ex.function, "lang": langs[i % 3],
                    "code": e.code, "mistake": list(e.accepted), "name": e.name})
    return out


_SETUPS = {}


_OTHERS = {}


def setup_cell(notebook, lang):
    """The code of the exercise notebook's setup cell (its first code cell): the imports a learner's cell
    runs after."""
    key = (notebook, lang)
    if key not in _SETUPS:
        nb = json.loads((ROOT / "exercises" / lang / f"{notebook}.ipynb").read_text(encoding="utf-8"))
        cell = next(c for c in nb["cells"] if c["cell_type"] == "code")
        _SETUPS[key] = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    return _SETUPS[key]


def answer_cells(notebook, lang, functions):
    """The solution notebook's code cells that define one of ``functions`` (in the notebook's order)."""
    key = (notebook, lang, tuple(sorted(functions)))
    if key not in _OTHERS:
        nb = json.loads((ROOT / "solutions" / lang / f"{notebook}.ipynb").read_text(encoding="utf-8"))
        sources = ("".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                   for c in nb["cells"] if c["cell_type"] == "code")
        _OTHERS[key] = [src for src in sources
                        if any(re.search(rf"^def {name}\(", src, re.M) for name in functions)]
    return _OTHERS[key]


def other_answers(notebook, lang, function):
    """The solution notebook's cells that define the notebook's other exercise functions: a learner's
    answer may call them (causal-2 calls causal-1's ``future_perturbation_change``), and in the
    notebook they are defined by the cells above, so the measurement defines them right."""
    return answer_cells(notebook, lang, {e.function for e in EXERCISES.values()
                                         if e.notebook == notebook and e.function != function})


def learner_function(entry):
    """The entry's function, defined as the notebook would define it (after the setup cell and the
    notebook's other answers, as solved); or the error that stops it."""
    scope = {"__name__": "__main__"}
    try:
        with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(compile(setup_cell(entry["notebook"], entry["lang"]), "<setup>", "exec"), scope)
            for source in other_answers(entry["notebook"], entry["lang"], entry["function"]):
                exec(compile(source, "<the notebook's other answers>", "exec"), scope)
            exec(compile(entry["code"], "<learner's cell>", "exec"), scope)
    except Exception as exc:  # noqa: BLE001 - a cell that does not run is reported, not fatal
        return None, f"{type(exc).__name__}: {exc}"
    func = scope.get(entry["function"])
    if not callable(func):
        return None, f"the cell defines no function {entry['function']}"
    return func, None


def _quiet(call):
    with contextlib.redirect_stdout(io.StringIO()), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


def grader_key(path=None):
    """The secret the grader's hidden tests are drawn from: the key in ``path`` (``--key``), or a fixed one."""
    if path is not None:
        return Secret.from_key_file(path)
    import hashlib
    return Secret(hashlib.sha256(b"tools/measure_feedback.py 2026").digest(), "key")


def measure(entry, practice_seeds, grader_secret):
    exercise = EXERCISES[entry["exercise"]]
    func, error = learner_function(entry)
    row = {k: entry[k] for k in ("exercise", "lang", "mistake")}
    row["name"] = entry.get("name", "")
    if func is None:
        row.update(passes_check=False, passes_grader=False, diagnosis=None, text=None, where=None, error=error)
        return row
    public = _quiet(lambda: run_checks(exercise.id, func, entry["lang"]))
    where, results = "public", public
    if all(r.ok for r in public):
        where, results = None, None
        for seed in practice_seeds:
            practice = _quiet(lambda: run_checks(exercise.id, func, entry["lang"], exercise.hidden_cases(seed)))
            if not all(r.ok for r in practice):
                where, results = f"practice={seed}", practice
                break
    mistake = _quiet(lambda: diagnosis_of(exercise.id, results)) if results is not None else None
    graded = _quiet(lambda: run_checks(exercise.id, func, entry["lang"],
                                       exercise.public_cases() + exercise.hidden_cases(grader_secret.rng(exercise.id))))
    grader_mistake = _quiet(lambda: diagnosis_of(exercise.id, graded)) if not all(r.ok for r in graded) else None
    row.update(passes_check=where is None, passes_grader=all(r.ok for r in graded), where=where,
               diagnosis=mistake.id if mistake else None,
               text=diagnoses.explain_mistake(mistake, entry["lang"]) if mistake else None,
               grader_diagnosis=grader_mistake.id if grader_mistake else None)
    expected = entry["mistake"]
    ids = [expected] if isinstance(expected, str) else list(expected or [])
    if all(isinstance(i, str) and "/" in i for i in ids) and (ids or expected == []):
        row["named_right"] = row["diagnosis"] is not None and row["diagnosis"] in ids
        row["named_wrong"] = row["diagnosis"] is not None and row["diagnosis"] not in ids
    return row


def batch_rows(entries, grader_secret):
    """Grade the entries as notebooks with ``python -m grading`` (one entry per notebook): {index: row}."""
    with tempfile.TemporaryDirectory() as tmp:
        key = pathlib.Path(tmp) / "grading.key"
        key.write_text(grader_secret.value.hex() + "\n", encoding="ascii")
        folder = pathlib.Path(tmp) / "in"
        for i, entry in enumerate(entries):
            nb = json.loads((ROOT / "solutions" / entry["lang"] / f"{entry['notebook']}.ipynb")
                            .read_text(encoding="utf-8"))
            nb = copy.deepcopy(nb)
            where = next(k for k, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and
                         f"def {entry['function']}(" in "".join(c["source"]))
            nb["cells"].insert(where + 1, {"cell_type": "code", "execution_count": None, "id": f"wrong-{i}",
                                           "metadata": {}, "outputs": [], "source": entry["code"].strip() + "\n"})
            (folder / f"entry-{i:04d}").mkdir(parents=True)
            (folder / f"entry-{i:04d}" / f"{entry['notebook']}.ipynb").write_text(json.dumps(nb, ensure_ascii=False),
                                                                                 encoding="utf-8")
        report = pathlib.Path(tmp) / "r.json"
        subprocess.run([sys.executable, "-m", "grading", str(folder), "--json", str(report), "--key", str(key),
                        "--jobs", "2"], cwd=ROOT, check=False, capture_output=True)
        rows = json.loads(report.read_text(encoding="utf-8"))["rows"]
    out = {}
    for r in rows:
        i = int(pathlib.Path(r["submission"]).name.split("-")[1])
        if r["exercise"] == entries[i]["exercise"]:
            out[i] = r
    return out


def summary(rows):
    per = collections.defaultdict(collections.Counter)
    for r in rows:
        c = per[r["exercise"]]
        c["entries"] += 1
        c["pass check"] += r["passes_check"]
        c["pass grader"] += r["passes_grader"]
        c["diagnosed"] += r["diagnosis"] is not None
        c["named right"] += r.get("named_right", False)
        c["named wrong"] += r.get("named_wrong", False)
    columns = ["entries", "pass check", "pass grader", "diagnosed", "named right", "named wrong"]
    lines = [f"{'exercise':<11}" + "".join(f"{c:>12}" for c in columns)]
    total = collections.Counter()
    for exercise in EXERCISES:
        if exercise in per:
            total.update(per[exercise])
            lines.append(f"{exercise:<11}" + "".join(f"{per[exercise][c]:>12}" for c in columns))
    lines.append(f"{'all':<11}" + "".join(f"{total[c]:>12}" for c in columns))
    n = max(total["entries"], 1)
    lines.append(f"diagnosed {total['diagnosed']} of {total['entries']} ({total['diagnosed'] / n:.0%}); named right "
                 f"{total['named right']} ({total['named right'] / n:.0%}), named wrong {total['named wrong']}; "
                 f"pass check() {total['pass check']}, pass the grader {total['pass grader']}")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("answers", nargs="?", help="a JSON (or JSON lines) file of wrong answers")
    parser.add_argument("--corpus", action="store_true", help="measure the project's own corpus (tests/mistakes/)")
    parser.add_argument("--practice", type=int, nargs="+", default=[0, 1, 2],
                        help="the practice seeds check(..., practice=seed) tries when the public tests pass")
    parser.add_argument("--key", metavar="FILE", default=None,
                        help="the key the grader's hidden tests are drawn from (python -m grading key FILE makes "
                             "one; default: a fixed key of this tool's)")
    parser.add_argument("--batch", action="store_true", help="also grade the entries with python -m grading")
    parser.add_argument("--json", metavar="FILE", help="write every entry's row here")
    parser.add_argument("--rows", action="store_true", help="print every entry's row, not only the rates")
    args = parser.parse_args(argv)
    if bool(args.answers) == bool(args.corpus):
        parser.error("give a file of answers or --corpus (one of the two)")
    entries = corpus_entries() if args.corpus else read_entries(args.answers)
    try:
        secret = grader_key(args.key)
    except SecretError as exc:
        parser.error(str(exc))
    rows = [measure(e, args.practice, secret) for e in entries]
    if args.batch:
        graded = batch_rows(entries, secret)
        for i, row in enumerate(rows):
            r = graded.get(i)
            row["batch"] = None if r is None else {"status": r["status"], "points": r["points"],
                                                   "max_points": r["max_points"], "diagnosis": r.get("diagnosis")}
            row["passes_grader_batch"] = r is not None and r["points"] == r["max_points"]
    if args.rows:
        for r in rows:
            print(f"{r['exercise']:<11} {r.get('name', ''):<40} check={'pass' if r['passes_check'] else 'FAIL':<4} "
                  f"grader={'pass' if r['passes_grader'] else 'FAIL':<4} {r['diagnosis'] or '-'}")
    print(summary(rows))
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
