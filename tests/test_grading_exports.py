"""The instructor's files, without kernels: gradebook exports (plain, totals, Canvas, Moodle), the
class statistics and the index page, which copy of a notebook is graded, flat LMS downloads grouped
by student, and the rubric.  (The grader end to end: test_grading_class.py.)"""

import csv
import io
import json
import os
import pathlib
import re
import subprocess
import sys

import pytest

from course_i18n import LANGUAGES
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
    moodle = rows_of(report.to_moodle_csv(r)[0])
    assert moodle[0][:3] == ["Identifier", "Full name", "Grade"] and "Last modified (grade)" in moodle[0]
    assert moodle[1][:4] == ["Participant 12345", "a,b", "1", "3"] and moodle[2][0] == ""


def test_no_export_shows_the_instructors_paths():
    r = sample_report()
    for s in r["summary"]:
        s["submission"] = "/home/prof/subs/" + s["submission"]
    for row in r["rows"]:
        row["submission"] = "/home/prof/subs/" + row["submission"]
    for text in (report.to_wide_csv(r), report.to_totals_csv(r), report.to_canvas_csv(r), report.to_moodle_csv(r)[0]):
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
    assert "| Группы тестов |" in md and f"| {expected} |" in md
    assert "частичный зачёт" in md and "сохраняют свою долю" in md and "невыполненным тестом" in md
    assert list(csv.DictReader(io.StringIO(rubric.to_csv(items, partial=True))))[0]["test_groups"] == str(expected)
    for lang, words in (("zh", "停止之前已经全部通过的组"), ("en", "the groups that passed in full before the stop")):
        assert words in rubric.markdown(rubric.rows(exercises, ["mask-2"], lang, partial=True), lang, partial=True)
    assert "test_groups" not in rubric.to_csv(rubric.rows(exercises, ["mask-2"], "en"))       # the default: as before

def test_diagnosis_counts_in_every_export_in_the_instructors_language(tmp_path):
    """The class's known mistakes ("mask-2, normalised before masking: 1 of 1 student") in the long CSV (a column), their own CSV,
    the JSON report and the terminal's text, in the language the instructor chose (write_outputs' lang)."""
    from grading import diagnoses
    from grading.batch import Outputs, write_outputs
    r = sample_report()
    r["rows"][1]["diagnosis"] = "mask-2/softmax-before-mask"
    mistake = diagnoses.mistake_by_id("mask-2/softmax-before-mask")
    # the noun follows {total}: "1 of 1 student", «1 из 1 студента» (index_diagnosis is a plural text)
    for lang, line in (("ru", "mask-2, {what}: 1 из 1 студента"), ("zh", "mask-2，{what}：1 名学生中有 1 名"),
                       ("en", "mask-2, {what}: 1 of 1 student")):
        what = diagnoses.short_name(mistake, lang)
        write_outputs(r, Outputs(json=tmp_path / "r.json", csv=tmp_path / "r.csv", diagnoses_csv=tmp_path / "d.csv",
                                 lang=lang))
        [listed] = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["diagnoses"]
        assert listed == {"exercise": "mask-2", "mistake": mistake.id, "what": what, "count": 1, "graded": 1,
                          "text": line.format(what=what)}
        long = list(csv.DictReader(io.StringIO((tmp_path / "r.csv").read_text(encoding="utf-8"))))
        assert [row["diagnosis"] for row in long] == ["", what, "", ""]
        assert rows_of((tmp_path / "d.csv").read_text(encoding="utf-8")) == [
            ["exercise", "mistake", "what", "students", "graded"], ["mask-2", mistake.id, what, "1", "1"]]
        text = report.class_diagnoses_text(r, lang)
        assert text.splitlines() == [messages.text("index_diagnoses", lang) + ("：" if lang == "zh" else ":"),
                                     "  " + listed["text"]]
    r["rows"][1].pop("diagnosis")
    assert report.class_diagnoses_text(r, "en") == "" and report.class_diagnoses(r) == []


def test_the_wheel_ships_the_page_templates(course_wheel_file):
    """`make wheel` (tools/make_autograder.build_wheel): the grader installed from the wheel renders its
    pages from the templates inside it (package data in pyproject.toml)."""
    import zipfile
    names = set(zipfile.ZipFile(course_wheel_file).namelist())
    templates = sorted(p.name for p in (ROOT / "grading" / "templates").iterdir())
    assert {"page.html", "page.css", "feedback.html", "index.html"} <= set(templates)
    assert {f"grading/templates/{t}" for t in templates} <= names
    assert "grading/exercise_models.py" not in names


# -- one student is one student: the LMS's id, never the name (issue 32) ---------------------------

LMS_CLASSES = {
    # Canvas: two students whose sort name is the same (common with names such as wangwei)
    "canvas": (["smithjohn_2001_90001_ex01_allowed_set.ipynb", "smithjohn_2002_90002_ex01_allowed_set.ipynb",
                "smithjohn_late_2001_90003_ex02_heads.ipynb", "wangwei_2004_90004_ex01_allowed_set.ipynb"],
               {"smithjohn (2001)": "2001", "smithjohn (2002)": "2002", "wangwei": "2004"}),
    # Moodle with blind marking: every folder is "Participant" (in the Moodle's language)
    "moodle": (["Participant_7000101_assignsubmission_file_/ex01_allowed_set.ipynb",
                "Participant_7000102_assignsubmission_file_/ex01_allowed_set.ipynb",
                "Participant_7000107_assignsubmission_file_/ex01_allowed_set.ipynb"],
               {"Participant (7000101)": "7000101", "Participant (7000102)": "7000102",
                "Participant (7000107)": "7000107"}),
    # Moodle without it: two students of one full name, and a Russian one
    "moodle-named": (["Li Wei_1001_assignsubmission_file_/ex01_allowed_set.ipynb",
                      "Li Wei_1002_assignsubmission_file_/ex01_allowed_set.ipynb",
                      "Анна Петрова_1003_assignsubmission_file_/ex01_allowed_set.ipynb"],
                     {"Li Wei (1001)": "1001", "Li Wei (1002)": "1002", "Анна Петрова": "1003"}),
}


@pytest.mark.parametrize("lms", sorted(LMS_CLASSES))
def test_students_of_one_name_or_of_a_blind_download_are_students_of_their_own(tmp_path, lms):
    names, expected = LMS_CLASSES[lms]
    for name in names:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    found, warnings = find_submissions([tmp_path], pattern=student_pattern("moodle" if lms.startswith("moodle")
                                                                              else "canvas"))
    assert {os.path.basename(s.id): s.student_id for s in found.values()} == expected
    assert len(warnings) == 1 and "each id is graded as a student of its own" in warnings[0], warnings
    if lms == "canvas":
        first = next(s for s in found.values() if s.student_id == "2001")
        assert len(first.files) == 2                 # both of 2001's files, the late one too, and none of 2002's


def test_a_regrade_names_a_student_by_the_lms_id_too(tmp_path):
    from grading.batch.pipeline import _only
    for name in LMS_CLASSES["moodle"][0]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    found, _ = find_submissions([tmp_path], pattern=student_pattern("moodle"))
    assert [s.student_id for s in _only(found, ["7000102"]).values()] == ["7000102"]


def test_gradebooks_have_one_row_per_student_id(tmp_path):
    """Two smithjohns and two Participants: one row each in every gradebook, the id beside the name."""
    r = sample_report()
    r["summary"] = [dict(r["summary"][0], submission=f"/c/{name}", student_id=sid)
                    for name, sid in (("smithjohn (2001)", "2001"), ("smithjohn (2002)", "2002"))]
    r["rows"] = [dict(row, submission=s["submission"]) for s in r["summary"] for row in sample_report()["rows"][:2]]
    for text in (report.to_wide_csv(r), report.to_totals_csv(r), report.to_canvas_csv(r)):
        table = rows_of(text)
        ids = [row[1] for row in table if row[0].startswith("smithjohn")]
        assert ids == ["2001", "2002"], table
    assert [row[0] for row in rows_of(report.to_moodle_csv(r)[0])[1:]] == ["Participant 2001", "Participant 2002"]


# -- Moodle: the worksheet Moodle gives, in its own language ----------------------------------------

WORKSHEETS = {
    "ru": ["Идентификатор,Полное имя,Адрес электронной почты,Состояние,Оценка,Максимальная оценка,"
           "Оценка может быть изменена,Последнее изменение (ответ),Последнее изменение (оценка),Отзыв в виде комментария",
           "Участник 2001,Иван Смирнов,ivan@example.org,Отправлено для оценивания,,\"50,00\",Да,"
           "\"пятница, 4 декабря 2026, 10:00\",-,",
           "Участник 2002,Анна Петрова,anna@example.org,Отправлено для оценивания,\"12,00\",\"50,00\",Да,"
           "\"пятница, 4 декабря 2026, 11:00\",\"суббота, 5 декабря 2026, 09:00\",",
           "Участник 2009,Пётр Иванов,petr@example.org,Нет ответа,,\"50,00\",Да,-,-,"],
    "zh": ["标识符,全名,Email 地址,状态,成绩,最高分,成绩可以修改,上次修改（作业）,上次修改（评分）,反馈评语",
           "参与者 2001,史密斯,smith@example.org,已提交以供评分,,50.00,是,2026年12月4日,-,",
           "参与者 2002,王伟,wang@example.org,已提交以供评分,,50.00,是,2026年12月4日,-,"],
}


@pytest.mark.parametrize("lang", sorted(WORKSHEETS))
def test_the_moodle_worksheet_is_filled_in_the_language_moodle_wrote_it(tmp_path, lang):
    path = tmp_path / "worksheet.csv"
    path.write_text("\n".join(WORKSHEETS[lang]) + "\n", encoding="utf-8-sig")
    sheet = report.read_moodle_worksheet(path)
    assert (sheet.grade, sheet.email) == (4, 2)
    r = sample_report()
    r["summary"][0]["student_id"], r["summary"][1]["student_id"] = "2002", "2001"
    text, warnings = report.to_moodle_csv(r, sheet)
    out = rows_of(text)
    original = rows_of("\n".join(WORKSHEETS[lang]))
    assert out[0] == original[0]                                   # the headers Moodle's importer looks for
    assert [row[4] for row in out[1:3]] == ["0", "1"]              # 2001 is the second summary, 2002 the first
    assert [row[:4] + row[5:] for row in out] == [row[:4] + row[5:] for row in original]   # everything else kept
    assert warnings == []
    wide = rows_of(report.to_wide_csv(r, sheet))
    assert wide[0][:3] == ["student", "id", "email"] and wide[1][2] == original[2][2] and wide[2][2] == original[1][2]
    assert rows_of(report.to_totals_csv(r, sheet))[0][:3] == ["student", "id", "email"]


def test_a_worksheet_without_the_student_or_without_a_grade_column_is_said(tmp_path):
    path = tmp_path / "worksheet.csv"
    path.write_text("\n".join(WORKSHEETS["zh"]) + "\n", encoding="utf-8")
    r = sample_report()
    r["summary"][0]["student_id"] = "3003"
    text, warnings = report.to_moodle_csv(r, report.read_moodle_worksheet(path))
    assert any("3003" in w for w in warnings) and any("no Moodle participant id" in w for w in warnings)
    (tmp_path / "bad.csv").write_text("a,b\n1,x\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no grade column"):
        report.read_moodle_worksheet(tmp_path / "bad.csv")
    _, english = report.to_moodle_csv(r)
    assert any("English-language Moodle" in w for w in english)


# -- feedback folders reused by several runs -----------------------------------------------------

def test_a_reused_feedback_folder_loses_only_the_pages_the_grader_wrote(tmp_path):
    first = sample_report()
    written = report.write_feedback(first, tmp_path, "en")
    pages = sorted(p.name for p in written if p.suffix == ".html" and p.name != "index.html")
    assert len(pages) == 2 and (tmp_path / report.MANIFEST).exists()
    (tmp_path / "notes.html").write_text("the instructor's own page")
    second = sample_report()
    second["summary"] = second["summary"][:1]
    second["rows"] = [r for r in second["rows"] if r["submission"] == second["summary"][0]["submission"]]
    done = report.write_feedback(second, tmp_path, "en")
    gone = {p.name for p in done.removed}
    assert gone and all(not (tmp_path / name).exists() for name in gone)
    assert {n.rsplit(".", 1)[0] for n in gone} == {pages[1].rsplit(".", 1)[0]} or \
        {n.rsplit(".", 1)[0] for n in gone} == {pages[0].rsplit(".", 1)[0]}
    assert (tmp_path / "notes.html").exists() and any("notes.html" in w for w in done.warnings)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'href="([^"]+)"', index))
    assert {p.name for p in tmp_path.iterdir() if p.suffix in (".html", ".md")} - {"index.html", "notes.html"} <= linked


def test_a_shard_keeps_the_pages_of_the_other_shards(tmp_path):
    report.write_feedback(sample_report(), tmp_path, "en")
    shard = sample_report()
    shard["grader"]["shard"] = {"k": 2, "of": 2}
    shard["summary"] = shard["summary"][1:]
    done = report.write_feedback(shard, tmp_path, "en")
    assert done.removed == [] and len(list(tmp_path.glob("*.md"))) == 2


# -- the copy with work in it, a notebook too large, one language per page -------------------------

def test_a_copy_has_work_when_one_of_its_functions_is_more_than_the_stub(tmp_path):
    stub = NotebookInfo(str(ROOT / "exercises" / "en" / "ex01_allowed_set.ipynb"))
    solved = NotebookInfo(str(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"))
    from grading.batch.notebooks import read_notebook
    functions = {e.function for e in EXERCISES.values() if e.notebook == "ex01_allowed_set"}
    assert not duplicates.has_work(read_notebook(stub.path), functions)
    assert duplicates.has_work(read_notebook(solved.path), functions)
    assert duplicates.has_work(read_notebook(solved.path), {"masked_softmax"})


@pytest.mark.parametrize("lang, words", [("en", ["32 MiB", "Clear Outputs of All Cells"]),
                                         ("ru", ["32 МиБ", "удалите результаты всех ячеек"]), ("zh", ["32 MiB", "清除所有单元格的输出"])])
def test_a_notebook_over_the_size_limit_is_not_called_damaged(lang, words):
    from grading.batch.runner import _damaged_rows
    info = NotebookInfo("/x/ex01_allowed_set.ipynb")
    info.problem = ("problem_too_large", {"size": "40", "limit": "32"})
    rows = _damaged_rows("s", info, [EXERCISES["mask-1"]], lang)
    note = rows[-1].message
    assert all(w in note for w in words) and "Jupyter" in note
    assert messages.text("damaged_notebook", lang, name="", problem="")[:8] not in note


def test_a_submission_in_several_languages_gets_the_language_of_most_of_its_notebooks(tmp_path):
    from grading.batch.runner import Options, submission_language
    zh, en, ru = LANGUAGES
    infos = []
    for i, lang in enumerate([ru, zh, ru, en]):
        info = NotebookInfo(str(tmp_path / f"n{i}.ipynb"))
        (tmp_path / f"n{i}.ipynb").write_text("{}")
        os.utime(tmp_path / f"n{i}.ipynb", (1000 + i, 1000 + i))
        info.language = lang
        infos.append(info)
    assert submission_language(infos, Options()) == (ru, {ru: 2, zh: 1, en: 1})
    assert submission_language(infos[1:3], Options())[0] == "ru"        # a tie: the notebook changed last
    assert submission_language(infos, Options(lang="zh"))[0] == "zh"
