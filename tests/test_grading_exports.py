"""The instructor's files, without kernels: gradebook exports (plain, totals, Canvas, Moodle), the
class statistics and the index page, which copy of a notebook is graded, flat LMS downloads grouped
by student, and the rubric.  (The grader end to end: test_grading_class.py.)"""

import csv
import io
import json
import os
import pathlib
import subprocess
import sys

import pytest

from grading import messages
from grading.batch import duplicates, report
from grading.batch.notebooks import NotebookInfo, find_submissions, student_pattern
from grading.exercises import EXERCISES
from test_grading_units import sample_report

ROOT = pathlib.Path(__file__).resolve().parent.parent


def rows_of(text):
    return list(csv.reader(io.StringIO(text)))


def ids_report():
    r = sample_report()
    r["summary"][0]["student_id"] = "12345"
    return r


def test_totals_canvas_and_moodle_exports_name_students_as_the_pages_do():
    r = ids_report()
    assert rows_of(report.to_totals_csv(r)) == [["student", "id", "total (max 3)", "flags"],
                                                ["a,b", "12345", "1", ""], ["学生", "", "0", ""]]
    canvas = rows_of(report.to_canvas_csv(r, "Week 1"))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 1"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "3"]
    assert canvas[2] == ["a,b", "12345", "", "", "", "1"]
    per = rows_of(report.to_canvas_csv(r, "Week 1", per_exercise=True))
    assert per[0][5:] == ["Week 1 mask-1", "Week 1 mask-2"] and per[1][5:] == ["1", "2"] and per[2][5:] == ["1", "0"]
    moodle = rows_of(report.to_moodle_csv(r))
    assert moodle[0][:3] == ["Identifier", "Full name", "Grade"] and "Last modified (grade)" in moodle[0]
    assert moodle[1][:4] == ["Participant 12345", "a,b", "1", "3"] and moodle[2][0] == ""


def test_no_export_shows_the_instructors_paths():
    r = sample_report()
    for s in r["summary"]:
        s["submission"] = "/home/prof/subs/" + s["submission"]
    for row in r["rows"]:
        row["submission"] = "/home/prof/subs/" + row["submission"]
    for text in (report.to_wide_csv(r), report.to_totals_csv(r), report.to_canvas_csv(r), report.to_moodle_csv(r)):
        assert "/home/prof" not in text


def test_class_statistics_and_an_index_that_does_not_rely_on_colour(tmp_path):
    r = sample_report()
    stats = report.class_statistics(r)
    assert stats["mask-1"] == {"passed": 1, "of": 2, "mean": 0.5, "median": 0.5}
    assert stats["total"]["mean"] == 0.5
    report.write_feedback(r, tmp_path, "ru")
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert "body.wide { max-width: none" in index
    for status in report.STATUS_ORDER:                 # every status has a sign and a word in the legend
        assert f'{report.MARKS[status]}</span> {report._status(status, "ru")}' in index
    assert "Максимум" in index and "Доля сдавших" in index and "Среднее" in index and "Медиана" in index
    assert (tmp_path / "totals.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and 'src="totals.png"' in index
    first = (tmp_path / "totals.png").read_bytes()
    report.write_feedback(r, tmp_path, "ru")
    assert (tmp_path / "totals.png").read_bytes() == first        # the same report draws the same bytes


def info(tmp_path, name, when):
    path = tmp_path / name
    path.write_text("{}", encoding="utf-8")
    os.utime(path, (when, when))
    return NotebookInfo(str(path))


def test_the_newest_copy_is_graded_and_equal_times_are_flagged(tmp_path):
    stub, solved = info(tmp_path, "ex01_allowed_set.ipynb", 1_000), info(tmp_path, "ex01_allowed_set (1).ipynb", 5_000)
    order, ambiguous = duplicates.order([stub, solved], "ex01_allowed_set", "newest")
    assert order == [solved, stub] and not ambiguous
    os.utime(solved.path, (1_001, 1_001))                  # within a zip archive's 2 s: cannot be told apart
    order, ambiguous = duplicates.order([solved, stub], "ex01_allowed_set", "newest")
    assert order == [stub, solved] and ambiguous         # then the one named like the course's
    assert duplicates.record(stub, [solved], "newest", True) == {
        "graded": "ex01_allowed_set.ipynb", "others": ["ex01_allowed_set (1).ipynb"], "rule": "newest",
        "ambiguous": True}


@pytest.mark.parametrize("preset, names, expected", [
    ("canvas", ["smithjohn_12345_67890_ex01_allowed_set.ipynb", "smithjohn_12345_67891_ex02_heads.ipynb",
                "doejane_late_222_333_ex01_allowed_set.ipynb"], {"smithjohn": "12345", "doejane": "222"}),
    ("moodle", ["Anna Petrova_1001_assignsubmission_file_/ex01_allowed_set.ipynb",
                "Li Wei_1002_assignsubmission_file_ex01_allowed_set.ipynb"], {"Anna Petrova": "1001", "Li Wei": "1002"}),
])
def test_flat_lms_downloads_are_grouped_by_student(tmp_path, preset, names, expected):
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    found, _ = find_submissions([tmp_path], pattern=student_pattern(preset))
    got = {os.path.basename(s.id): s.student_id for s in found.values()}
    assert got == expected
    if preset == "canvas":
        smith = next(s for s in found.values() if s.id.endswith("smithjohn"))
        assert len(smith.files) == 2


def test_a_student_pattern_needs_a_student_group():
    with pytest.raises(ValueError, match=r"\(\?P<student>"):
        student_pattern(r"^(\w+)_")
    with pytest.raises(ValueError, match="not a regular expression"):
        student_pattern("(")


@pytest.mark.parametrize("lang, title", [("zh", "评分细则"), ("en", "Rubric"), ("ru", "Критерии оценивания")])
def test_rubric_in_markdown_and_csv(lang, title):
    md = subprocess.run([sys.executable, "-m", "grading", "rubric", "--lang", lang], cwd=ROOT, capture_output=True,
                        text=True, timeout=120)
    assert md.returncode == 0 and md.stdout.startswith(f"# {title}")
    for ex in EXERCISES.values():
        assert f"| {ex.id} | {ex.notebook} | `{ex.function}` |" in md.stdout
        assert ex.title[lang].replace("|", "\\|") in md.stdout
    total = sum(ex.points for ex in EXERCISES.values())
    assert f"**{total:g}**" in md.stdout
    table = subprocess.run([sys.executable, "-m", "grading", "rubric", "--format", "csv", "--lang", lang], cwd=ROOT,
                           capture_output=True, text=True, timeout=120)
    back = list(csv.DictReader(io.StringIO(table.stdout)))
    assert [r["id"] for r in back] == list(EXERCISES) and sum(float(r["points"]) for r in back) == total
    assert all(int(r["public_tests"]) > 0 and int(r["hidden_tests"]) > 0 for r in back)


def test_the_partial_rubric_states_the_groups_and_the_rule_for_a_stop():
    from grading import exercises
    from grading.batch import rubric
    from grading.batch.runner import test_groups
    items = rubric.rows(exercises, ["mask-2"], "ru", partial=True)
    ex = EXERCISES["mask-2"]
    expected = len(test_groups([(c, False) for c in ex.public_cases()] + [(c, True) for c in ex.hidden_cases(0)]))
    assert items[0]["groups"] == expected
    md = rubric.markdown(items, "ru", partial=True)
    assert "| группы тестов |" in md and f"| {expected} |" in md
    assert "частичный зачёт" in md and "сохраняют свою долю" in md and "невыполненным тестом" in md
    assert list(csv.DictReader(io.StringIO(rubric.to_csv(items, partial=True))))[0]["test_groups"] == str(expected)
    for lang, words in (("zh", "停止之前已经全部通过的组"), ("en", "the groups that passed in full before the stop")):
        assert words in rubric.markdown(rubric.rows(exercises, ["mask-2"], lang, partial=True), lang, partial=True)
    assert "test_groups" not in rubric.to_csv(rubric.rows(exercises, ["mask-2"], "en"))       # the default: as before

def test_diagnosis_counts_in_every_export_in_the_instructors_language(tmp_path):
    """The class's known mistakes ("mask-2: 1 of 1 students ...") in the long CSV (a column), their own CSV,
    the JSON report and the terminal's text, in the language the instructor chose (write_outputs' lang)."""
    from grading import diagnoses
    from grading.batch import write_outputs
    r = sample_report()
    r["rows"][1]["diagnosis"] = "mask-2/softmax-before-mask"
    mistake = diagnoses.mistake_by_id("mask-2/softmax-before-mask")
    for lang, line in (("ru", "mask-2: 1 из 1 студентов — "), ("zh", "mask-2：1 名学生中有 1 名"),
                       ("en", "mask-2: 1 of 1 students: ")):
        what = diagnoses.short_name(mistake, lang)
        write_outputs(r, json_path=tmp_path / "r.json", csv_path=tmp_path / "r.csv", lang=lang,
                      exports={"diagnoses_csv": tmp_path / "d.csv"})
        [listed] = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["diagnoses"]
        assert listed == {"exercise": "mask-2", "mistake": mistake.id, "what": what, "count": 1, "graded": 1,
                          "text": (line + what) if lang != "zh" else f"{line}{what}"}
        long = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text(encoding="utf-8"))))
        assert [row["diagnosis"] for row in long] == ["", what, "", ""]
        assert rows_of((tmp_path / "d.csv").read_text(encoding="utf-8")) == [
            ["exercise", "mistake", "what", "students", "graded"], ["mask-2", mistake.id, what, "1", "1"]]
        text = report.class_diagnoses_text(r, lang)
        assert text.splitlines() == [messages.text("index_diagnoses", lang) + ("：" if lang == "zh" else ":"),
                                     "  " + listed["text"]]
    r["rows"][1].pop("diagnosis")
    assert report.class_diagnoses_text(r, "en") == "" and report.class_diagnoses(r) == []


def test_the_wheel_ships_the_page_templates(tmp_path):
    """`make wheel` (tools/make_autograder.build_wheel): the grader installed from the wheel renders its
    pages from the templates inside it (package data in pyproject.toml)."""
    import zipfile
    from tools.make_autograder import build_wheel
    names = set(zipfile.ZipFile(build_wheel(tmp_path)).namelist())
    templates = sorted(p.name for p in (ROOT / "grading" / "templates").iterdir())
    assert {"page.html", "page.css", "feedback.html", "index.html"} <= set(templates)
    assert {f"grading/templates/{t}" for t in templates} <= names
    assert "grading/exercise_models.py" not in names
