"""The corpus of wrong answers (tests/mistakes/): every entry is caught, most are diagnosed.

For every entry:

* ``check()`` fails it: a public test fails, or, when the public tests all
  pass, a practice test (``practice=True``, the hidden kinds) does;
* the grader takes its points: with the grader's hidden tests (drawn from a test
  key, tests/conftest.py fixed_key), some public or hidden test fails (the same
  comparison the grader makes, :func:`grader_verdict`;
  tests/test_mistakes_batch.py grades the whole corpus as notebooks in one
  batch and checks that the rows agree);
* the diagnosis ``check()`` prints is the entry's own, or none when the entry
  expects none; never another mistake's.

The diagnosis rate over the corpus is printed and must be at least RATE (85 %).
"""

import collections
import re
import sys

import numpy as np
import pytest

from conftest import fixed_key, once_per_run
from course_i18n import LANGUAGES
from grading import diagnoses
from grading.exercises import EXERCISES, Raised, check, diagnosis_of, run_checks
from mistakes import entries, load

CORPUS = entries()
GRADER_SEEDS = (5, 2026)          # the keys (fixed_key) of tests/test_mistakes_batch.py, and another
PRACTICE_SEED = 0
# The floor on the project's own entries: 0.82 (140 of 169 on 2026-12-05, round 5 of issue 34: operators added
# by kind, such as a reduction without keepdims, a length read from the first axis, eps left out; it was 0.80,
# 136 of 169).  The old held-out answers, read for that round, went from 79 to 107 of 157 named: no longer a
# held-out measure.
# Round 6 (2026-12-05): 145 of 169, the floor 0.85.
RATE = 0.85


def wrong_function(entry):
    return load(entry, EXERCISES[entry.exercise].function)


def grading_cases(exercise, n):
    """The hidden tests the grader draws with the key fixed_key(n)."""
    return exercise.hidden_cases(fixed_key(n).rng(exercise.id))


_TESTS = {}


def cases_and_expected(exercise, draw=None):
    """(cases, their expected values) of ``exercise``: its public tests (``draw`` None), the hidden tests of a
    practice seed (an int) or those the grader draws with the key fixed_key(n) (``("key", n)``).  Drawn and
    computed once per process, as the grader draws and computes them once per batch: every entry's results
    then hold the same expected objects, and a diagnosis compares each mutant's result with each of them
    once (grading.diagnoses._right), not once per entry.  Expected values None: run_checks computes them."""
    slot = (exercise.id, draw)
    if slot not in _TESTS:
        cases = (exercise.public_cases() if draw is None else grading_cases(exercise, draw[1])
                 if isinstance(draw, tuple) else exercise.hidden_cases(draw))
        try:
            expected = [exercise.expected(case) for case in cases]
        except Exception:  # noqa: BLE001 - a failing setup: run_checks reports it, test by test
            expected = None
        _TESTS[slot] = (cases, expected)
    return _TESTS[slot]


def checks(exercise, func, *draws):
    """run_checks on the tests of ``draws`` (see :func:`cases_and_expected`), one after the other."""
    cases, expected = [], []
    for draw in draws:
        more, values = cases_and_expected(exercise, draw)
        cases += more
        expected = None if expected is None or values is None else expected + values
    return run_checks(exercise.id, func, "en", cases, expected)


def grader_verdict(exercise, func, seed):
    """(points kept, failed test names) as the grader scores it: all public and hidden tests must pass."""
    results = checks(exercise, func, None, ("key", seed))
    failed = [r.name for r in results if not r.ok]
    return not failed, failed, results


def check_diagnosis(entry, func):
    """What check() names: from the public tests, else (all public tests pass) from the practice tests."""
    exercise = EXERCISES[entry.exercise]
    public = checks(exercise, func, None)
    if not all(r.ok for r in public):
        return "public", diagnosis_of(exercise.id, public)
    practice = checks(exercise, func, PRACTICE_SEED)
    if not all(r.ok for r in practice):
        return "hidden", diagnosis_of(exercise.id, public + practice)      # as check(practice=...) does
    return None, None


_outcomes, _graded = {}, {}


def graded(entry, seed, func=None):
    """(points kept, failed test names, the diagnosis) as the grader scores ``entry`` with the key
    fixed_key(seed); computed once per process (outcome() and tests/test_mistakes_batch.py share it: the
    batch needs only the seed it grades with, not the rest of outcome(), most of whose time is diagnoses)."""
    if (entry.name, seed) not in _graded:
        kept, failed, results = grader_verdict(EXERCISES[entry.exercise], func or wrong_function(entry), seed)
        _graded[entry.name, seed] = (kept, failed, diagnosis_of(entry.exercise, results))
    return _graded[entry.name, seed]


def outcome(entry):
    if entry.name not in _outcomes:
        func = wrong_function(entry)
        where, mistake = check_diagnosis(entry, func)
        grader = [graded(entry, seed, func) for seed in GRADER_SEEDS]
        _outcomes[entry.name] = {"where": where, "mistake": mistake, "grader": [g[:2] for g in grader],
                                 "grader_mistakes": {seed: g[2] for seed, g in zip(GRADER_SEEDS, grader)}}
    return _outcomes[entry.name]


def _ids(mistake):
    """A diagnosis as ids, to cross processes: (its id, the second mistake's id or None), or None."""
    return mistake and (mistake.id, getattr(mistake, "second", None) and mistake.second.id)


def _mistake(ids):
    """The diagnosis _ids() wrote."""
    if ids is None:
        return None
    first, second = map(diagnoses.mistake_by_id, ids)
    return diagnoses._Pair(first, second) if ids[1] else first


def _every_outcome():
    """outcome() of every entry, its diagnoses as ids."""
    found = {}
    for entry in CORPUS:
        result = outcome(entry)
        found[entry.name] = dict(result, mistake=_ids(result["mistake"]),
                                 grader_mistakes={s: _ids(m) for s, m in result["grader_mistakes"].items()})
    return found


@pytest.fixture(scope="session")
def corpus_outcomes(request):
    """Every entry's outcome(), computed once per test run: this file's tests and
    tests/test_mistakes_batch.py's, usually in the other xdist worker, read the same scores
    (conftest.once_per_run).  A run that selects fewer tests than the corpus has entries (one entry,
    a -k, the batch's file alone) reads them if this run has them, else computes only what it asks
    for, in outcome() and graded()."""
    few = len(request.session.items) < len(CORPUS)
    shared = once_per_run("corpus-outcomes", request.config, None if few else _every_outcome)
    for name, result in (shared or {}).items():
        if name in _outcomes:
            continue
        _outcomes[name] = dict(result, mistake=_mistake(result["mistake"]),
                               grader_mistakes={s: _mistake(m) for s, m in result["grader_mistakes"].items()})
        for seed, (kept, failed) in zip(GRADER_SEEDS, result["grader"]):
            _graded[name, seed] = (kept, failed, _outcomes[name]["grader_mistakes"][seed])


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
def test_entry_is_caught_by_check_and_by_the_grader(entry, corpus_outcomes):
    result = outcome(entry)
    assert result["where"] is not None, f"{entry.name}: passes every public and practice test"
    for seed, (kept, failed) in zip(GRADER_SEEDS, result["grader"]):
        assert not kept, f"{entry.name}: keeps its points with the grader's seed {seed}"


def _named_wrongly(entry, strict=True):
    """A held-out answer the catalogue names as another mistake (measured once, issue 34): an xfail, strict
    where the wrong name is certain (check()'s own draw), so the day it stops naming it wrongly the test says so.
    ``strict=False`` (the other practice draws) also marks the answers named wrongly on those draws only."""
    wrong = entry.named_wrongly or (None if strict else entry.named_wrongly_elsewhere)
    if wrong is None:
        return entry
    return pytest.param(entry, marks=pytest.mark.xfail(
        strict=strict, reason=f"held-out: named {wrong}, the code has another mistake (issue 34)"))


@pytest.mark.parametrize("entry", [_named_wrongly(e) for e in CORPUS], ids=lambda e: e.name)
def test_no_wrong_diagnosis(entry, corpus_outcomes):
    """A diagnosis that names a mistake the code does not have is worse than none."""
    result = outcome(entry)
    named = [m.id for m in [result["mistake"], *result["grader_mistakes"].values()] if m is not None]
    assert all(m in entry.accepted for m in named), (entry.name, named, entry.diagnosis)


@pytest.mark.parametrize("entry", [_named_wrongly(e, strict=False) for e in CORPUS], ids=lambda e: e.name)
def test_no_wrong_diagnosis_on_other_practice_draws(entry):
    """The diagnosis does not change its mind with the random draw: on three more practice seeds, whatever
    is named is a mistake the code has (an overflow that gives nan alike in several mistakes names none)."""
    exercise = EXERCISES[entry.exercise]
    func = wrong_function(entry)
    public = checks(exercise, func, None)
    for seed in (1, 2, 3):
        results = checks(exercise, func, seed)
        found = diagnosis_of(exercise.id, public + results) if not all(r.ok for r in results) else None
        assert found is None or found.id in entry.accepted, (seed, found.id, entry.diagnosis)


def test_diagnosis_rate(capsys, corpus_outcomes):
    """The rate over the project's own entries must reach RATE, with none named wrongly; the held-out
    answers' rate (issue 34's measure, not tuned to) is printed beside it, per exercise."""
    rows = collections.defaultdict(lambda: [0, 0, 0, 0, 0, 0])
    # group -> entries, diagnosed, named wrongly: the project's own entries, the held-out answers, and the probes
    # of precision (counted apart: most expect no diagnosis, so they have no rate to reach, only none named wrongly)
    totals = {False: [0, 0, 0], True: [0, 0, 0], "probe": [0, 0, 0]}
    for entry in CORPUS:
        result = outcome(entry)
        row = rows[entry.exercise]
        own = result["mistake"] is not None and result["mistake"].id in entry.accepted
        wrong = result["mistake"] is not None and result["mistake"].id not in entry.accepted
        row[1] += result["where"] == "public"
        row[2] += result["where"] == "hidden"
        total = totals["probe" if entry.probe else entry.heldout]
        if not entry.probe:
            row[4 if entry.heldout else 0] += 1
            row[5 if entry.heldout else 3] += own
        total[0] += 1
        total[1] += own
        total[2] += wrong
    with capsys.disabled():
        print(f"\n{'exercise':<11} {'entries':>7} {'public':>7} {'hidden':>7} {'diagnosed':>9} {'held-out':>8} "
              f"{'diagnosed':>9}", file=sys.stderr)
        for exercise_id in EXERCISES:
            n, public, hidden, own, n_held, own_held = rows[exercise_id]
            print(f"{exercise_id:<11} {n:>7} {public:>7} {hidden:>7} {own:>9} {n_held:>8} {own_held:>9}",
                  file=sys.stderr)
        for group, (n, own, wrong) in totals.items():
            label = {False: "own", True: "held-out", "probe": "probes"}[group]
            print(f"{label}: diagnosed {own} of {n} entries ({own / max(n, 1):.0%}), named wrongly: {wrong}",
                  file=sys.stderr)
    n, own, wrong = totals[False]
    assert wrong == 0 and totals["probe"][2] == 0
    assert own / n >= RATE
    known = sum(e.named_wrongly is not None for e in CORPUS)
    assert totals[True][2] <= known, "a held-out answer is named wrongly beyond the known ones"


def test_the_right_answers_get_no_diagnosis():
    """Every solution passes, so no diagnosis; and a random function that fails gets none it does not deserve."""
    for exercise in EXERCISES.values():
        results = run_checks(exercise.id, exercise.reference, "en")
        assert all(r.ok for r in results)
        assert diagnosis_of(exercise.id, results) is None


@pytest.mark.parametrize("name, second", [
    # one slip at two places: the hint's one fix mends both (the judge of held-out set 5 found these claims false)
    ("causal-4:heldout5-098", False), ("causal-4:heldout5-104", False), ("dec-2:heldout5-143", False),
    ("dec-3:heldout5-149", False), ("causal-4:over-time", False),
    # a finite fill and no check for an empty row: the finite-fill hint already asks for the check, and fixing
    # what it names gives full marks (read84, C1), so no second mistake is announced
    ("mask-2:heldout5-009", False), ("mask-2:read84-finite-fill", False),
    # two mistakes: int32 results and an empty batch accepted
    ("data-1:dev7-027", True)])
def test_a_second_mistake_is_announced_only_when_there_is_one(name, second, corpus_outcomes):
    entry = next(e for e in CORPUS if e.name == name)
    mistake = outcome(entry)["mistake"]
    assert mistake is not None and mistake.id in entry.accepted, (name, mistake)
    said = diagnoses.explain_mistake(mistake, "en")
    assert ("second mistake" in said) == second, said


def test_check_prints_the_diagnosis_in_three_languages(capsys):
    entry = next(e for e in CORPUS if e.name == "mask-2:softmax-then-zero")
    func = wrong_function(entry)
    for lang, words in (("zh", "可能的原因"), ("en", "What this suggests"), ("ru", "Вероятная причина")):
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


_recognised = {}


def named_mutants(exercise, mistake):
    """The mutants a mistake names: its single mutants, and, for one the tests cannot see alone (a −1e9
    fill behind the empty-row check), each paired with a refusal left out."""
    from grading import bugs
    named = [m for m, n in diagnoses.candidates(exercise) if n is mistake]
    refusals = [m for m, _ in diagnoses.candidates(exercise) if m.sites[0].operator in diagnoses._REFUSALS]
    return named, [p for m in named for r in refusals for p in [bugs.pair(m, r)] if p is not None]


@pytest.mark.parametrize("exercise_id", list(diagnoses.MISTAKES))
def test_every_known_mistake_names_mutants_the_tests_see(exercise_id):
    """Each mistake names at least one mutant of the exercise's answer (grading/bugs.py) that some public
    or hidden test sees (alone, or with a refusal left out); run through the tests, every named mutant the
    tests see is diagnosed as its own mistake or not at all (two mutants with the same outputs and
    different hints say nothing), never as another."""
    exercise = EXERCISES[exercise_id]
    cases = exercise.public_cases() + grading_cases(exercise, GRADER_SEEDS[0])
    for mistake in diagnoses.MISTAKES[exercise_id]:
        named, paired = named_mutants(exercise, mistake)
        assert named, f"{mistake.id}: its selectors name no mutant of {exercise.answer.__name__}"
        seen = []
        for mutant in named + (paired if not any(_sees(exercise, m, cases) for m in named) else []):
            results = _sees(exercise, mutant, cases)
            if results is None:
                continue
            found = diagnosis_of(exercise_id, results)
            assert found is None or found.id == mistake.id, (mutant.key, found.id)
            seen.append(found is not None)
        assert seen, f"{mistake.id}: no public or hidden test sees any of its mutants"
        _recognised[mistake.id] = any(seen)


def _sees(exercise, mutant, cases):
    """The results of the tests on the mutant when some test fails, else None."""
    results = run_checks(exercise.id, mutant.function, "en", cases)
    return None if all(r.ok for r in results) else results


def test_most_mistakes_are_recognised_from_their_own_mutants(capsys):
    """Across the course, at least RATE (85 %) of the mistakes are named when one of their mutants is checked."""
    if len(_recognised) < sum(len(v) for v in diagnoses.MISTAKES.values()):
        pytest.skip("runs after test_every_known_mistake_names_mutants_the_tests_see in one process")
    rate = sum(_recognised.values()) / len(_recognised)
    with capsys.disabled():
        missed = sorted(k for k, v in _recognised.items() if not v)
        print(f"\nmistakes recognised from a mutant of their own: {sum(_recognised.values())} of "
              f"{len(_recognised)} ({rate:.0%}); not: {', '.join(missed)}", file=sys.stderr)
    assert rate >= RATE


def test_the_wild_bugs_are_in_the_catalogue():
    """The KV-cache offset bugs of public projects that issue #34 names are operators, each naming its source."""
    from grading import bugs
    sources = {"offset-from-wrong-axis": "fla-org/flash-linear-attention #126",
               "offset-advanced-twice": "skyzh/tiny-llm #46",
               "decode-starts-one-later": "microsoft/onnxruntime-genai #2354",
               "full-cache-off-by-one": "pytorch/executorch #5227"}
    for name, source in sources.items():
        assert source in bugs.OPERATORS[name].description, name
        assert bugs.find(EXERCISES["dec-3"].answer, name), f"{name} applies nowhere in dec-3's answer"


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
    for lang, words in (("zh", "float32 舍入误差"), ("en", "float32 rounding"), ("ru", "округления float32")):
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
    entry = next(e for e in CORPUS if e.name == "mask-1:top-left-arange")
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
    scope["causal_allowed"] = wrong_function(next(e for e in CORPUS if e.name == "mask-1:top-left-arange"))
    text = eval('needs_exercise("mask-1", "mask-2")', scope)
    assert "ваши функции" in text and "mask-1" in text and "mask-2" in text, text


def test_every_entry_imports_what_its_code_uses():
    """An entry runs in-process in a fresh namespace (mistakes.load), not after the notebook's setup cell: code
    that uses NumPy (its own or an earlier exercise's answer from answers_above) imports it, or every test fails
    with a NameError in-process while the batch grader, which runs the setup cell, sees the real slip."""
    missing = [e.name for e in CORPUS if re.search(r"\bnp\.", e.code) and "import numpy as np" not in e.code]
    assert not missing, missing
