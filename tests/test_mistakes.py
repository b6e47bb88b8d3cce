"""The corpus of wrong answers (tests/mistakes/): every entry is caught, most are diagnosed.

For every entry:

* ``check()`` fails it: a public test fails, or, when the public tests all
  pass, a practice test (``practice=True``, the hidden kinds) does;
* the grader takes its points: with the grader's hidden tests (drawn from a test
  key, tests/conftest.py fixed_key), some public or hidden test fails (the same comparison the grader makes, :func:`grader_verdict`;
  tests/test_mistakes_batch.py grades the whole corpus as notebooks in one
  batch and checks that the rows agree);
* the diagnosis ``check()`` prints is the entry's own, or none when the entry
  expects none; never another mistake's.

The diagnosis rate over the corpus is printed and must be at least 80 %.
"""

import collections
import sys

import numpy as np
import pytest

from conftest import fixed_key
from course_i18n import LANGUAGES
from grading import diagnoses
from grading.exercises import EXERCISES, Raised, check, diagnosis_of, run_checks
from mistakes import entries, load

CORPUS = entries()
GRADER_SEEDS = (5, 2026)          # the keys (fixed_key) of tests/test_mistakes_batch.py, and another
PRACTICE_SEED = 0
RATE = 0.80


def wrong_function(entry):
    return load(entry, EXERCISES[entry.exercise].function)


def grading_cases(exercise, n):
    """The hidden tests the grader draws with the key fixed_key(n)."""
    return exercise.hidden_cases(fixed_key(n).rng(exercise.id))


def grader_verdict(exercise, func, seed):
    """(points kept, failed test names) as the grader scores it: all public and hidden tests must pass."""
    results = run_checks(exercise.id, func, "en", exercise.public_cases() + grading_cases(exercise, seed))
    failed = [r.name for r in results if not r.ok]
    return not failed, failed, results


def check_diagnosis(entry, func):
    """What check() names: from the public tests, else (all public tests pass) from the practice tests."""
    exercise = EXERCISES[entry.exercise]
    public = run_checks(exercise.id, func, "en")
    if not all(r.ok for r in public):
        return "public", diagnosis_of(exercise.id, public)
    practice = run_checks(exercise.id, func, "en", exercise.hidden_cases(PRACTICE_SEED))
    if not all(r.ok for r in practice):
        return "hidden", diagnosis_of(exercise.id, practice)
    return None, None


_outcomes = {}


def outcome(entry):
    if entry.name not in _outcomes:
        func = wrong_function(entry)
        where, mistake = check_diagnosis(entry, func)
        grader = [grader_verdict(EXERCISES[entry.exercise], func, seed) for seed in GRADER_SEEDS]
        grader_mistakes = {seed: diagnosis_of(entry.exercise, results)
                           for seed, (_, _, results) in zip(GRADER_SEEDS, grader)}
        _outcomes[entry.name] = {"where": where, "mistake": mistake, "grader": grader,
                                 "grader_mistakes": grader_mistakes}
    return _outcomes[entry.name]


def test_the_corpus_is_large_and_covers_every_exercise():
    names = [e.name for e in CORPUS]
    assert len(names) == len(set(names)), "an entry's exercise:slug repeats"
    assert len(CORPUS) >= 120
    per_exercise = collections.Counter(e.exercise for e in CORPUS)
    assert set(per_exercise) == set(EXERCISES)
    assert all(n >= 5 for n in per_exercise.values()), per_exercise
    for entry in CORPUS:
        assert all(diagnoses.mistake_by_id(d) is not None for d in entry.accepted), entry.name
        assert f"def {EXERCISES[entry.exercise].function}(" in entry.code, entry.name


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: e.name)
def test_entry_is_caught_by_check_and_by_the_grader(entry):
    result = outcome(entry)
    assert result["where"] is not None, f"{entry.name}: passes every public and practice test"
    for seed, (kept, failed, _) in zip(GRADER_SEEDS, result["grader"]):
        assert not kept, f"{entry.name}: keeps its points with the grader's seed {seed}"


@pytest.mark.parametrize("entry", CORPUS, ids=lambda e: e.name)
def test_no_wrong_diagnosis(entry):
    """A diagnosis that names a mistake the code does not have is worse than none."""
    result = outcome(entry)
    named = [m.id for m in [result["mistake"], *result["grader_mistakes"].values()] if m is not None]
    assert all(m in entry.accepted for m in named), (entry.name, named, entry.diagnosis)


def test_diagnosis_rate(capsys):
    rows = collections.defaultdict(lambda: [0, 0, 0, 0])
    diagnosed = wrong = 0
    for entry in CORPUS:
        result = outcome(entry)
        row = rows[entry.exercise]
        row[0] += 1
        row[1] += result["where"] == "public"
        row[2] += result["where"] == "hidden"
        own = result["mistake"] is not None and result["mistake"].id in entry.accepted
        row[3] += own
        diagnosed += own
        wrong += result["mistake"] is not None and result["mistake"].id not in entry.accepted
    rate = diagnosed / len(CORPUS)
    with capsys.disabled():
        print(f"\n{'exercise':<11} {'entries':>7} {'public':>7} {'hidden':>7} {'diagnosed':>9}", file=sys.stderr)
        for exercise_id in EXERCISES:
            n, public, hidden, own = rows[exercise_id]
            print(f"{exercise_id:<11} {n:>7} {public:>7} {hidden:>7} {own:>9}", file=sys.stderr)
        print(f"diagnosed {diagnosed} of {len(CORPUS)} entries ({rate:.0%}), wrong diagnoses: {wrong}",
              file=sys.stderr)
    assert wrong == 0
    assert rate >= RATE


def test_the_right_answers_get_no_diagnosis():
    """Every solution passes, so no diagnosis; and a random function that fails gets none it does not deserve."""
    for exercise in EXERCISES.values():
        results = run_checks(exercise.id, exercise.reference, "en")
        assert all(r.ok for r in results)
        assert diagnosis_of(exercise.id, results) is None


def test_check_prints_the_diagnosis_in_three_languages(capsys):
    entry = next(e for e in CORPUS if e.name == "mask-2:softmax-then-zero")
    func = wrong_function(entry)
    for lang, words in (("zh", "可能的原因"), ("en", "what this suggests"), ("ru", "вероятная причина")):
        check("mask-2", func, lang=lang)
        out = capsys.readouterr().out
        assert words in out and "§1.6" in out, out
        assert "np.where" not in out and "def " not in out


def test_the_nan_hint_does_not_blame_the_maximum_when_the_diagonal_is_hidden(capsys):
    """A mask that hides the diagonal leaves the first row nothing to read: nan, and the diagnosis says why."""
    entry = next(e for e in CORPUS if e.name == "heads-3:strict-mask")
    check("heads-3", wrong_function(entry), lang="en")
    out = capsys.readouterr().out
    assert "nan" in out and "subtracting the maximum" not in out
    assert "forbids the diagonal" in out, out


@pytest.mark.parametrize("exercise_id", list(diagnoses.MISTAKES))
def test_every_known_mistake_is_seen_by_the_tests(exercise_id):
    """Each wrong version of grading.diagnoses differs from the answer on some public or hidden test."""
    exercise = EXERCISES[exercise_id]
    cases = exercise.public_cases() + grading_cases(exercise, GRADER_SEEDS[0])
    for mistake in diagnoses.MISTAKES[exercise_id]:
        for wrong in diagnoses.variants(mistake):
            results = run_checks(exercise_id, wrong, "en", cases)
            assert not all(r.ok for r in results), mistake.id
            assert diagnosis_of(exercise_id, results) is mistake, mistake.id


def test_texts_are_in_three_languages_and_name_a_section():
    for mistakes in [*diagnoses.MISTAKES.values(), list(diagnoses.GENERIC.values())]:
        for m in mistakes:
            assert set(m.text) == set(LANGUAGES) and all(v.strip() for v in m.text.values()), m.id
            assert set(m.short) == set(LANGUAGES), m.id
            assert m.section.replace(".", "").isdigit(), m.id
            for lang in LANGUAGES:
                assert f"§{m.section}" in diagnoses.explain_mistake(m, lang)


def test_a_diagnosis_never_crashes_check(capsys):
    def weird(*args, **kwargs):
        return np.array(["not", "numbers"])
    for exercise_id in EXERCISES:
        check(exercise_id, weird, lang="ru")
    assert "Traceback" not in capsys.readouterr().out


@pytest.mark.parametrize("name, lang, words", [
    ("mask-2:softmax-then-zero", "zh", "请先修好它"),
    ("heads-3:forgot-w-o", "en", "fix that first"),
    ("cache-1:padding-into-the-cache", "ru", "сначала исправьте её"),
    ("pos-3:whole-output", "ru", "сначала исправьте её"),
])
def test_worked_examples_name_the_exercise_to_fix(name, lang, words, capsys):
    """A worked example that uses a wrong answer stops with a sentence in the notebook's language naming
    the function and exercise to fix, not a bare AssertionError."""
    import json
    import pathlib
    entry = next(e for e in CORPUS if e.name == name)
    exercise = EXERCISES[entry.exercise]
    root = pathlib.Path(__file__).resolve().parent.parent
    nb = json.loads((root / "solutions" / lang / f"{exercise.notebook}.ipynb").read_text(encoding="utf-8"))
    cells = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
    where = next(i for i, c in enumerate(cells) if f"def {exercise.function}(" in c)
    cells.insert(where + 1, entry.code)
    scope = {"__name__": "__main__"}
    stopped = []
    for cell in cells:
        try:
            exec(compile(cell, "<cell>", "exec"), scope)
        except AssertionError as exc:
            stopped.append(str(exc))
        except Exception:  # noqa: BLE001 - a later cell may need what a failed one never defined
            pass
    capsys.readouterr()
    assert stopped, f"{name}: no worked example noticed the wrong answer"
    assert all(words in s and exercise.id in s and f"`{exercise.function}`" in s for s in stopped[:1]), stopped


def test_messages_show_the_difference_and_name_types_in_the_learners_language():
    from grading.compare import compare_values
    from grading.feedback import explain
    expected = np.array([0.25534212345678, 1.5])
    rounded = expected.astype(np.float32).astype(np.float64)          # float32 rounding where float64 belongs
    ok, reason, details = compare_values(expected, rounded, 1e-9, 1e-12)
    assert not ok and details["expected"] != details["got"]           # enough digits to tell them apart
    for lang, words in (("zh", "float32 的舍入误差"), ("en", "float32 rounding"), ("ru", "округление float32")):
        assert words in explain(reason, details, lang)
    ok, reason, details = compare_values(expected, expected + 0.1)
    assert "float32" not in explain(reason, details, "en")             # a real error is not called rounding
    ok, reason, details = compare_values(raised("ValueError"), np.zeros((2, 2)))
    for lang, word in (("zh", "数组"), ("ru", "массив")):
        text = explain(reason, details, lang)
        assert word in text and "ndarray" not in text and "shape=" not in text, text
    ok, reason, details = compare_values(np.zeros(2), (1.0, 2.0))
    assert "кортеж" in explain(reason, details, "ru") and "tuple" not in explain(reason, details, "ru")


def raised(type_name):
    """An expected exception, as the registry records one."""
    return Raised(type_name, "", (type_name, "Exception"))


def test_zh_labels_take_the_full_width_colon(capsys):
    entry = next(e for e in CORPUS if e.name == "mask-1:top-left-tril")
    check("mask-1", wrong_function(entry), lang="zh")
    failed = [line for line in capsys.readouterr().out.splitlines() if line.strip().startswith("✗")]
    assert failed and all("：" in line and ": " not in line for line in failed), failed


def test_a_worked_example_names_only_the_exercises_that_fail():
    from grading.exercises import needs_exercise
    wrong = wrong_function(next(e for e in CORPUS if e.name == "mask-2:softmax-then-zero"))
    scope = {"COURSE_LANGUAGE": "ru", "causal_allowed": EXERCISES["mask-1"].reference, "masked_softmax": wrong,
             "needs_exercise": needs_exercise}
    text = eval('needs_exercise("mask-1", "mask-2")', scope)
    assert "`masked_softmax`" in text and "mask-2" in text and "causal_allowed" not in text, text
    assert "вашу функцию" in text
    scope["causal_allowed"] = wrong_function(next(e for e in CORPUS if e.name == "mask-1:top-left-tril"))
    text = eval('needs_exercise("mask-1", "mask-2")', scope)
    assert "ваши функции" in text and "mask-1" in text and "mask-2" in text, text
