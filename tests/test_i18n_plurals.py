"""Numbers in the interface texts follow the page's language: the words after a number take the form
its plural rule asks for (1 балл, 2 балла, 5 баллов; 1 point, 2 points; Chinese has none), and a
number of points is written as the language writes it (2,5 on a Russian page, 2.5 elsewhere).

course_i18n.PLURAL_RULES holds the rules; course_i18n.catalogue.plural makes a text with one
catalogue entry per plural category; grading/batch/report.py writes points with
course_i18n.format_number."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from course_i18n import LANGUAGES, format_number, parse_number, plural_category  # noqa: E402
from course_i18n.catalogue import Plural, read_po  # noqa: E402
from grading import messages  # noqa: E402
from grading.batch import notebooks, report  # noqa: E402

RU = {1: "one", 2: "few", 5: "many", 11: "many", 21: "one", 22: "few", 25: "many",
      0: "many", 4: "few", 12: "many", 14: "many", 101: "one", 111: "many", 2.5: "other"}


@pytest.mark.parametrize("n, category", sorted(RU.items()))
def test_the_russian_rule(n, category):
    assert plural_category("ru", n) == category


@pytest.mark.parametrize("n", [0, 1, 2, 5, 11, 21, 22, 25, 2.5])
def test_the_english_and_chinese_rules(n):
    assert plural_category("en", n) == ("one" if n == 1 else "other")
    assert plural_category("zh", n) == "other"


# "{points} из {max_points} …": after «из» the noun is in the genitive, singular after 1, 21 and a fraction
RU_ROW = {1: "балла", 2: "баллов", 5: "баллов", 11: "баллов", 21: "балла", 22: "баллов", 25: "баллов", 2.5: "балла"}


@pytest.mark.parametrize("max_points, word", sorted(RU_ROW.items()))
def test_a_row_of_points_in_russian(max_points, word):
    row = {"points": 0.5, "max_points": max_points, "cases_total": 0}
    assert report._points_line(row, "ru") == f"0,5 из {format_number(max_points, 'ru')} {word}"


@pytest.mark.parametrize("max_points, english, chinese", [(1, "0.5 of 1 point", "0.5 / 1 分"),
                                                         (2, "0.5 of 2 points", "0.5 / 2 分"),
                                                         (21, "0.5 of 21 points", "0.5 / 21 分")])
def test_a_row_of_points_in_english_and_chinese(max_points, english, chinese):
    row = {"points": 0.5, "max_points": max_points, "cases_total": 0}
    assert report._points_line(row, "en") == english
    assert report._points_line(row, "zh") == chinese


@pytest.mark.parametrize("total, word", [(1, "студента"), (2, "студентов"), (5, "студентов"), (11, "студентов"),
                                         (21, "студента"), (22, "студентов"), (25, "студентов")])
def test_the_class_count_of_a_mistake(total, word):
    assert messages.text("index_diagnosis", "ru", id="mask-1", what="x", count=1, total=total) == \
        f"mask-1, x: 1 из {total} {word}"
    assert messages.text("index_diagnosis", "en", id="mask-1", what="x", count=1, total=total) == \
        f"mask-1, x: 1 of {total} student{'' if total == 1 else 's'}"
    assert messages.text("index_diagnosis", "zh", id="mask-1", what="x", count=1, total=total) == \
        f"mask-1，x：{total} 名学生中有 1 名"


@pytest.mark.parametrize("count, cells, chars", [(1, "ячейка", "символ"), (2, "ячейки", "символа"),
                                                 (5, "ячеек", "символов"), (11, "ячеек", "символов"),
                                                 (21, "ячейка", "символ"), (22, "ячейки", "символа"),
                                                 (25, "ячеек", "символов")])
def test_counts_of_cells_and_characters(count, cells, chars):
    assert messages.text("problem_too_many_cells", "ru", count=count, limit=5000).startswith(
        f"в блокноте {count} {cells},")
    assert messages.text("problem_cell_too_long", "ru", cell=3, count=count, limit=10).startswith(
        f"ячейка 3 содержит {count} {chars},")   # not «в ячейке 3 25 символов»: two numbers in a row (read21)
    assert messages.text("problem_too_many_cells", "en", count=count, limit=5000).startswith(
        f"the notebook has {count} cell{'' if count == 1 else 's'},")


def test_the_total_and_the_late_penalty():
    assert messages.text("page_total", "en", points="1", max_points="1") == "Total: 1 of 1 point"
    assert messages.text("page_total", "en", points="2.5", max_points="3") == "Total: 2.5 of 3 points"
    assert messages.text("page_total", "ru", points="2,5", max_points="3") == "Итого баллов: 2,5 из 3"
    summary = {"points": 2.25, "points_before_penalty": 2.5, "handed_in": {"penalty_percent": 10, "late_hours": 1.5}}
    ru = report._page_notes(summary, "ru")[0]
    assert "через 1,5\u00a0ч" in ru and "стала 2,25 вместо 2,5" in ru
    assert "your 2.5 points became 2.25" in report._page_notes(summary, "en")[0]


def test_points_are_written_as_the_language_writes_them():
    assert [format_number(x, "ru") for x in (2.5, 3, 3.0, 0.25)] == ["2,5", "3", "3", "0,25"]
    assert [format_number(x, "en") for x in (2.5, 3.0)] == ["2.5", "3"] == [format_number(x, "zh") for x in (2.5, 3)]
    assert format_number(2.5) == "2.5"                 # a file a program reads keeps the point
    assert parse_number("2,5", "ru") == 2.5 and parse_number("2.5", "ru") == 2.5 and parse_number("21", "ru") == 21
    assert parse_number("100+", "en") is None
    assert report._stat(2.5, "ru") == "2,5" and report._stat(2.5, "en") == "2.5" and report._stat(3.0, "ru") == "3"


def test_a_number_that_is_not_one_takes_the_other_form():
    """A count field holding something else ("100+", a word) never breaks the sentence."""
    entry = messages.MESSAGES["index_diagnosis"]
    assert isinstance(entry, Plural)
    assert messages.text("index_diagnosis", "ru", id="a", what="b", count=1, total="?") == "a, b: 1 из ? студента"


def test_every_plural_text_has_a_form_for_every_category_and_language():
    for key, entry in messages.MESSAGES.items():
        if isinstance(entry, Plural):
            assert set(entry.forms) == {"one", "few", "many", "other"}, key
            for form in entry.forms.values():
                assert set(form) == set(LANGUAGES), key


# A Russian text that is not a plural text and puts a noun after a number field is right only for the numbers
# its code gives it: here, limits that are constants.  When a limit changes, its noun must still fit.
CONSTANT_COUNTS = {"grading.messages.too_deep": ("depth", notebooks.MAX_DEPTH, "many"),      # глубже 16 уровней
                   "grading.messages.too_many_files": ("count", notebooks.MAX_ENTRIES, "many")}   # больше 20000 файлов
UNITS = {"с", "ч"}                          # abbreviations do not decline (30 с, 2 ч)
COUNT_FIELD = re.compile(r"\{(count|total|max_points|points|limit|depth|n|m|before|after)\}[\s\u00a0]+([а-яё]+)")


def test_no_russian_noun_follows_a_number_outside_a_plural_text():
    path = ROOT / "course_i18n" / "locales" / "ru" / "LC_MESSAGES" / "course.po"
    found = []
    for entry in read_po(path):
        key = entry["msgctxt"] or ""
        if re.search(r"\.(one|few|many|other)$", key):
            continue
        for m in COUNT_FIELD.finditer(entry["msgstr"]):
            # words no number declines: prepositions, and a demonstrative that goes with a later noun
            # ("Часть 2 из 5 этого рисунка": рисунка is the part's figure, not counted by 5)
            if m.group(2) in UNITS or m.group(2) in {"из", "до", "вместо", "того", "этого"}:
                continue
            if key in CONSTANT_COUNTS and CONSTANT_COUNTS[key][0] == m.group(1):
                _, value, category = CONSTANT_COUNTS[key]
                assert plural_category("ru", value) == category, f"{key}: {value} now needs another form"
                continue
            found.append(f"{key}: {m.group(0)!r}")
    assert not found, "make these texts plural (course_i18n.catalogue.plural):\n" + "\n".join(found)


def test_time_limits_are_written_as_the_language_writes_them():
    """A time limit of 2.5 s reads «за 2,5 с» on a Russian page (grading/batch/runner.py)."""
    from grading.batch import runner
    assert runner._num(2.5, "ru") == "2,5" and runner._num(2.5, "en") == "2.5" and runner._num(30, "ru") == "30"
    assert messages.text("case_timeout", "ru", case="x", seconds=runner._num(2.5, "ru")) == \
        "тест «x» не завершился за 2,5\u00a0с"


def test_a_wrong_length_of_one_item():
    from grading import feedback
    assert feedback.message("wrong_length", "en", expected=1, got=2) == "wrong length: expected 1 item, got 2"
    assert feedback.message("wrong_length", "en", expected=3, got=2) == "wrong length: expected 3 items, got 2"
    assert feedback.message("wrong_length", "ru", expected=1, got=2) == \
        "неверная длина: ожидалось элементов\u00a0— 1, получено\u00a0— 2"
