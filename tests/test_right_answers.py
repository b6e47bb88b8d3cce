"""Right answers written differently from the solutions (a loop, einsum, other names, other comments' languages)
pass check() and the grader's hidden tests and get no diagnosis: the grader is judged by the right answers it
lets through as well as by the wrong ones it catches.

The answers in tests/right_answers/variants.json were written, one per exercise and set, by people who had not seen
the grader, as the false-positive control of issue 34's measurements: the round-5 held-out writer's (with how
each differs), then the fourth held-out set's (round 6), then the fifth's (round 7), then the seventh's (round 9)."""

import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grading.registry import EXERCISES  # noqa: E402
from tools import measure_feedback  # noqa: E402

VARIANTS = json.loads((ROOT / "tests" / "right_answers" / "variants.json").read_text(encoding="utf-8"))


def test_every_exercise_has_a_right_variant():
    assert {v["exercise"] for v in VARIANTS} == {e.id for e in EXERCISES.values()}


@pytest.mark.parametrize("variant", VARIANTS, ids=[f"{v['exercise']}:{v['lang']}:{i}" for i, v in enumerate(VARIANTS)])
def test_a_right_variant_passes_everything_and_gets_no_diagnosis(variant):
    row = measure_feedback.measure(variant | {"mistake": "none: a right answer"}, [0],
                                   measure_feedback.grader_key())
    assert row.get("error") is None, row
    assert row["passes_check"] and row["passes_grader"], row
    assert row["diagnosis"] is None and row["grader_diagnosis"] is None, row
