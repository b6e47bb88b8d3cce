"""The batch grader on the course's own notebooks, through its command line.

One batch grades every committed solution notebook (each must score full
marks) and every unsolved exercise notebook (each must score zero on every
exercise).  Misuse of the command line must fail fast with exit code 2.
See also test_grading_bad.py (bad submissions) and test_grading_units.py.
"""

import csv
import json
import os
import pathlib
import subprocess
import sys

import pytest

from grading.exercises import EXERCISES

ROOT = pathlib.Path(__file__).resolve().parent.parent
LANGS = ("zh", "en", "ru")
UID_BASE = 1_710_000_000          # this module's kernels run as uids from here (root mode)

pytestmark = pytest.mark.heavy


def run_grader(*args, timeout=600):
    return subprocess.run([sys.executable, "-m", "grading", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def student_processes(uid_first, uid_last):
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                uid = entry.stat().st_uid
            except OSError:
                continue
            if uid_first <= uid <= uid_last:
                found.append((int(entry.name), uid))
    return found


@pytest.fixture(scope="module")
def course_batch(tmp_path_factory):
    out = tmp_path_factory.mktemp("grading")
    solutions = sorted((ROOT / "solutions").glob("*/*.ipynb"))
    exercises = sorted((ROOT / "exercises").glob("*/*.ipynb"))
    if not solutions or not exercises:
        pytest.fail("no solution or exercise notebooks to grade (run `make notebooks`)")
    proc = run_grader("solutions", "exercises", "--json", out / "report.json", "--csv", out / "report.csv",
                      "--seed", "11", "--jobs", "2", "--uid-base", UID_BASE)
    report = json.loads((out / "report.json").read_text(encoding="utf-8")) if (out / "report.json").exists() else None
    return {"proc": proc, "out": out, "report": report, "solutions": solutions, "exercises": exercises}


def test_batch_completes_with_exit_code_0_and_progress(course_batch):
    proc = course_batch["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "[6/6]" in proc.stderr                     # progress, one line per finished submission
    assert "solutions/en" in proc.stdout and "points" in proc.stdout   # the summary table


def test_every_solution_notebook_scores_full_marks(course_batch):
    rows = [r for r in course_batch["report"]["rows"] if r["submission"].startswith("solutions")]
    assert rows
    bad = [(r["submission"], r["exercise"], r["status"], r["message"]) for r in rows if r["status"] != "pass"]
    assert not bad, bad
    assert all(r["points"] == r["max_points"] == EXERCISES[r["exercise"]].points for r in rows)
    graded = {(pathlib.Path(r["notebook"]).parent.name, r["exercise"]) for r in rows}
    expected = {(lang, ex_id) for lang in LANGS for ex_id in EXERCISES}
    assert graded == expected, f"not graded: {sorted(expected - graded)}"
    for summary in course_batch["report"]["summary"]:
        if summary["submission"].startswith("solutions"):
            assert summary["points"] == summary["max_points"] == sum(ex.points for ex in EXERCISES.values())


def test_every_unsolved_exercise_notebook_scores_zero(course_batch):
    rows = [r for r in course_batch["report"]["rows"] if r["submission"].startswith("exercises")]
    assert {(pathlib.Path(r["notebook"]).parent.name, r["exercise"]) for r in rows} == \
        {(lang, ex_id) for lang in LANGS for ex_id in EXERCISES}
    assert all(r["points"] == 0 and r["status"] == "fail" for r in rows), \
        [(r["notebook"], r["exercise"], r["status"]) for r in rows if r["points"] or r["status"] != "fail"]
    # the stub raises NotImplementedError; the message says so in the notebook's language
    by_lang = {lang: [r["message"] for r in rows if f"/{lang}/" in r["notebook"]] for lang in LANGS}
    assert all("NotImplementedError" in m for ms in by_lang.values() for m in ms)
    assert all("尚未完成" in m for m in by_lang["zh"]) and all("ещё не сделано" in m for m in by_lang["ru"])


def test_report_files_are_complete_valid_and_consistent(course_batch):
    out, report = course_batch["out"], course_batch["report"]
    assert report["grader"]["complete"] is True and report["grader"]["seed"] == 11
    with open(out / "report.csv", encoding="utf-8", newline="") as f:
        csv_rows = list(csv.DictReader(f))
    assert len(csv_rows) == len(report["rows"]) == 2 * 3 * len(EXERCISES)
    for c, j in zip(csv_rows, report["rows"]):
        assert (c["submission"], c["exercise"], c["status"], int(c["points"])) == \
            (j["submission"], j["exercise"], j["status"], j["points"])
    assert {s["submission"] for s in report["summary"]} == {f"{k}/{lang}" for k in ("solutions", "exercises")
                                                            for lang in LANGS}
    for s in report["summary"]:
        rows = [r for r in report["rows"] if r["submission"] == s["submission"]]
        assert s["points"] == sum(r["points"] for r in rows)
        assert sum(s["counts"].values()) == len(rows)
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]      # atomic writes left nothing


def test_no_student_process_survives(course_batch):
    if course_batch["report"]["grader"]["isolation"] != "root":
        pytest.skip("only root mode runs kernels as dedicated uids")
    first, last = course_batch["report"]["grader"]["uids"]
    assert first == UID_BASE
    assert student_processes(first, last) == []


@pytest.mark.parametrize("args, fragment", [
    ((), "no PATH given"),
    (("does/not/exist.ipynb",), "no such file or folder"),
    (("solutions", "--timeout", "-3"), "must be positive"),
    (("solutions", "--jobs", "zero"), "not a number"),
    (("solutions", "--exercises", "mask-1,nope-9"), "unknown exercise id"),
    (("solutions", "--no-such-option"), "unrecognized arguments"),
    (("tests/grading_cases",), "found no notebooks"),
])
def test_misuse_exits_2_with_a_clear_message(args, fragment):
    proc = run_grader(*args, timeout=60)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert fragment in proc.stderr
    assert "Traceback" not in proc.stderr


def test_interrupted_batch_still_writes_every_row(tmp_path):
    """SIGINT in the middle of a batch: kernels die at once, the report holds every row, exit code 130."""
    import signal
    import time
    hang = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                       "source": "import time\ntime.sleep(600)"}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    for student in ("a", "b", "c"):
        (tmp_path / "batch" / student).mkdir(parents=True)
        (tmp_path / "batch" / student / "ex01_allowed_set.ipynb").write_text(json.dumps(hang))
    proc = subprocess.Popen([sys.executable, "-m", "grading", str(tmp_path / "batch"), "--json",
                             str(tmp_path / "r.json"), "--csv", str(tmp_path / "r.csv"), "--jobs", "2",
                             "--cell-timeout", "300", "--uid-base", str(UID_BASE + 500_000)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(4)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert time.monotonic() - start < 20
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["grader"]["complete"] is False
    assert len(report["rows"]) == 3 * 3 and all(r["status"] == "error" and r["points"] == 0 for r in report["rows"])
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 1 + 9
    assert student_processes(UID_BASE + 500_000, UID_BASE + 1_499_999) == []
