"""tools/measure_feedback.py: the held-out measurement reads a file of wrong answers and says, per entry and
per exercise, whether check() and the grader catch it and which diagnosis it gets."""

import json
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import measure_feedback  # noqa: E402

STRICT = """
import numpy as np
def causal_allowed(tq, tk):
    return np.arange(tk)[None, :] < np.arange(tk - tq, tk)[:, None]
"""
RIGHT = """
def causal_allowed(tq, tk):
    return ~causal_future(tq, tk) if False else np.tril(np.ones((tq, tk), dtype=bool), k=tk - tq)
"""


def entry(code, mistake, lang="ru"):
    return {"exercise": "mask-1", "notebook": "ex01_allowed_set", "function": "causal_allowed", "lang": lang,
            "code": code, "mistake": mistake}


def test_a_file_of_answers_is_measured(tmp_path, capsys):
    answers = [entry(STRICT, "mask-1/strict"), entry(RIGHT, "none: a right answer", "zh"),
               entry("def causal_allowed(:\n", "a syntax error", "en")]
    path = tmp_path / "answers.json"
    path.write_text(json.dumps(answers), encoding="utf-8")
    out = tmp_path / "rows.json"
    assert measure_feedback.main([str(path), "--json", str(out), "--practice", "0"]) == 0
    rows = json.loads(out.read_text(encoding="utf-8"))
    strict, right, broken = rows
    assert not strict["passes_check"] and not strict["passes_grader"]
    assert strict["diagnosis"] == "mask-1/strict" and strict["named_right"] and "§1.7" in strict["text"]
    assert "Вероятная причина" in strict["text"]                 # in the entry's language
    assert right["passes_check"] and right["passes_grader"] and right["diagnosis"] is None
    assert "named_right" not in right                             # a description, not an id: the lead judges
    assert broken["error"].startswith("SyntaxError") and not broken["passes_check"]
    table = capsys.readouterr().out
    assert "mask-1" in table and "diagnosed 1 of 3" in table


def test_a_malformed_file_is_refused_clearly(tmp_path):
    path = tmp_path / "answers.json"
    path.write_text(json.dumps([{"exercise": "mask-1", "code": "x = 1"}]), encoding="utf-8")
    with pytest.raises(SystemExit, match="lacks notebook, function, lang, mistake"):
        measure_feedback.main([str(path)])
    path.write_text(json.dumps([entry(STRICT, "x") | {"function": "masked_softmax"}]), encoding="utf-8")
    with pytest.raises(SystemExit, match="mask-1 is causal_allowed in ex01_allowed_set"):
        measure_feedback.main([str(path)])


CALLS_CAUSAL_1 = """
def leak_sweep(forward, ids, replacement_token):
    ids = np.asarray(ids)
    if ids.shape[-1] < 2:
        raise ValueError("at least two positions")
    return np.array([future_perturbation_change(forward, ids, p, replacement_token)
                     for p in range(1, ids.shape[-1])])
"""


def test_an_answer_may_call_the_notebooks_other_answers(tmp_path):
    """In the notebook the cells above define causal-1's function; a right causal-3 that calls it passes."""
    answer = {"exercise": "causal-3", "notebook": "ex04_causality", "function": "leak_sweep", "lang": "en",
              "code": CALLS_CAUSAL_1, "mistake": "none: a right answer calling causal-1's function"}
    path, out = tmp_path / "answers.json", tmp_path / "rows.json"
    path.write_text(json.dumps([answer]), encoding="utf-8")
    assert measure_feedback.main([str(path), "--json", str(out), "--practice", "0"]) == 0
    (row,) = json.loads(out.read_text(encoding="utf-8"))
    assert row["passes_check"] and row["passes_grader"], row
