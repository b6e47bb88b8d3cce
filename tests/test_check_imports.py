"""``check()`` in a learner's kernel loads the spec of its own exercise and little else.

Measured in a fresh interpreter, as a notebook's kernel starts: NumPy imported, then ``from grading import
check`` and one ``check()``.  Before this rule (issue 32) that loaded 33 modules and 7,120 lines of grading,
lib and course_i18n, every spec and the reference answers (grading.references) included.  Now a passing
check loads one spec module, never the references, the batch grader or the known mistakes; a failing
check adds the known mistakes and the catalogue of bug operators (grading.diagnoses, grading.bugs), which
make their wrong versions from the exercise's answer, and so the answers (grading.references); a practice
draw adds the references too, which compute what fresh inputs expect.  The public tests' expected values come from the files beside the specs, which the
references must still give (tools/expected.py --check).
"""

import json
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("grading", "lib", "course_i18n")

MEASURE = r"""
import contextlib, io, json, sys
import numpy as np
from grading import check
import_only = sorted(m for m in sys.modules if m.split(".")[0] in {packages!r})

def causal_allowed(tq, tk):
    return np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None]

def strict(tq, tk):
    return np.arange(tk)[None, :] < np.arange(tk - tq, tk)[:, None]

with contextlib.redirect_stdout(io.StringIO()) as out:
    check("mask-1", {function}, **{kwargs})
modules = sorted(m for m in sys.modules if m.split(".")[0] in {packages!r})
files = {{m: getattr(sys.modules[m], "__file__", None) for m in modules}}
lines = sum(sum(1 for _ in open(f, encoding="utf-8")) for f in files.values() if f and f.endswith(".py"))
print(json.dumps({{"import": import_only, "modules": modules, "lines": lines, "printed": out.getvalue()}}))
"""


def measure(function="causal_allowed", **kwargs):
    code = MEASURE.format(packages=PACKAGES, function=function, kwargs=kwargs)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout.splitlines()[-1])


def grading_modules(found):
    return {m for m in found["modules"] if m.split(".")[0] == "grading"}


def test_a_passing_check_loads_its_own_spec_and_little_else():
    found = measure()
    assert found["printed"].startswith("mask-1 · causal_allowed: ") and "✓" in found["printed"]
    loaded = grading_modules(found)
    assert "grading.specs.ex01_allowed_set" in loaded
    assert not {m for m in loaded if m.startswith("grading.specs.ex0")} - {"grading.specs.ex01_allowed_set"}
    assert not loaded & {"grading.references", "grading.diagnoses", "grading.sections"}
    assert not any(m.startswith("grading.batch") for m in loaded)
    # bounds, with room for small growth: 33 modules and 7,120 lines before; 24 and 4,251 when this was written
    assert len(found["modules"]) <= 26 and found["lines"] <= 4_800, (len(found["modules"]), found["lines"])
    assert len(found["import"]) <= 10                      # `from grading import check` alone


def test_a_failing_check_adds_the_known_mistakes_and_the_answers():
    found = measure("strict")
    assert "<" in found["printed"] and "✗" in found["printed"]
    assert "See §1.7." in found["printed"]                 # named: the mutants of the answer were made
    loaded = grading_modules(found)
    assert {"grading.diagnoses", "grading.bugs", "grading.references"} <= loaded
    assert not {m for m in loaded if m.startswith("grading.specs.ex0")} - {"grading.specs.ex01_allowed_set"}
    assert not any(m.startswith("grading.batch") for m in loaded)
    # 28 modules and 7,729 lines when the diagnoses became mutants of the answers (issue 34); 8,469 after round 6
    # of issue 34 (seven operators, two pass/fail patterns, eleven mistakes: about 220 lines)
    # 8,981 after round 7 (twelve operators, the readings from results when no mutant fits, heads-reversed);
    # 9,209 after round 8 (nine operators, twenty mistakes, results in another order: about 230 lines);
    # 9,477 after round 9 (eleven operators, fifteen mistakes, a pair names its value slip first);
    # 9,751 after round 10 (eight operators and eight mistakes from dev8, hints true wherever they fire)
    assert len(found["modules"]) <= 30 and found["lines"] <= 10_000, (len(found["modules"]), found["lines"])


def test_a_practice_draw_needs_the_references_and_says_its_seed():
    found = measure(practice=7)
    assert "grading.references" in grading_modules(found) and "7" in found["printed"]


def test_the_stored_expected_values_are_the_references():
    proc = subprocess.run([sys.executable, "tools/expected.py", "--check"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-1000:]


def test_the_check_of_the_stored_values_can_fail(tmp_path, monkeypatch):
    """A stored value that is not the reference's is named (tools/expected.py --check fails on it)."""
    sys.path.insert(0, str(ROOT))
    from tools import expected
    from grading import registry
    module = "grading.specs.ex01_allowed_set"
    stored = json.loads(registry.expected_path(module).read_text(encoding="utf-8"))
    stored["mask-1"][next(iter(stored["mask-1"]))] = stored["mask-1"][list(stored["mask-1"])[1]]
    copy = tmp_path / "ex01_allowed_set.expected.json"
    copy.write_text(json.dumps(stored), encoding="utf-8")
    monkeypatch.setattr(expected, "expected_path", lambda m: copy if m == module else registry.expected_path(m))
    problems = expected.stale()
    assert len(problems) == 1 and problems[0].startswith("ex01_allowed_set.expected.json: mask-1/")


@pytest.mark.parametrize("spec", sorted(p.stem for p in (ROOT / "grading" / "specs").glob("ex*.py")))
def test_the_registry_knows_each_exercise_from_its_spec_without_importing_the_others(spec):
    """The lazy registry's index (read from the specs' source) names every exercise of the loaded specs."""
    code = ("import sys, json\nfrom grading.registry import EXERCISES, load_specs\n"
            f"ids = [e.id for e in load_specs().values() if e.module == 'grading.specs.{spec}']\n"
            "index = EXERCISES.index()\n"
            "print(json.dumps({'ids': ids, 'index': {i: index.get(i) for i in ids}}))")
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found["ids"] and all(m == f"grading.specs.{spec}" for m in found["index"].values()), found
