"""The questions of src/quizzes/ (format and checks: tools/quizzes.py).

Fast, no browser: every quiz source loads and passes the build's checks; the
checks refuse what they must (a missing language, a wrong choice without an
explanation, two choices that read the same, a key that names no section or
several, a number answer that is not a number); the HTML works without
JavaScript (answers folded in <details>, exactly one right choice). The
browser side (answers at once, keyboard, progress) is tests/test_site_quiz.py.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from tools import quizzes
from tools.quizzes import LANGUAGES, QuizError, T

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = ROOT / "src" / "chapters" / "01_allowed_set.py"


def test_every_quiz_source_loads_and_passes_the_checks():
    loaded = quizzes.load_all()
    assert loaded, "src/quizzes/ holds no quiz source"
    for page, sections in loaded.items():
        assert (ROOT / "src" / f"{page}.py").exists()
        for section in sections:
            assert quizzes.MIN_QUESTIONS <= len(section.questions) <= quizzes.MAX_QUESTIONS, (page, section.number)


def test_every_section_of_a_quizzed_chapter_has_questions_except_the_summary():
    """A chapter with a quiz source has questions for every numbered section but its summary."""
    for page, sections in quizzes.load_all().items():
        headings = quizzes.chapter_headings(ROOT / "src" / f"{page}.py")
        covered = {s.number for s in sections}
        expected = {num for num, title in headings
                    if num.count(".") == 1 and not re.search(r"summary|glossary", title, re.I)}
        assert expected <= covered, f"{page}: sections without questions: {sorted(expected - covered)}"


def _write(tmp_path, body):
    path = tmp_path / "01_allowed_set.py"
    path.write_text(body, encoding="utf-8")
    return path


GOOD = textwrap.dedent('''
    C = choose(T("问", "Q", "В"), right=T("对", "right", "верно"), why=T("因为", "because", "потому"),
               wrong=[(T("错1", "w1", "н1"), T("解1", "e1", "о1")), (T("错2", "w2", "н2"), T("解2", "e2", "о2"))])
    N = number(T("几", "how many", "сколько"), answer=3, why=T("因为", "because", "потому"),
               wrong=[(2, T("少", "fewer", "меньше"))])
    O = order(T("排", "order", "порядок"), steps=[T("一", "one", "раз"), T("二", "two", "два"), T("三", "three", "три")],
              why=T("因为", "because", "потому"))
''')


def test_a_good_source_loads(tmp_path):
    sections = quizzes.load(_write(tmp_path, GOOD + 'section("data protocol", C, N, O)\n'), CHAPTER)
    assert [s.anchor for s in sections] == ["sec-1-2"]


@pytest.mark.parametrize("body, message", [
    ('section("data protocol", C, N, choose(T("q", "q", ""), right=T("a", "a", "a"), why=T("w", "w", "w"),'
     ' wrong=[(T("b", "b", "b"), T("x", "x", "x")), (T("c", "c", "c"), T("y", "y", "y"))]))', "the ru text is empty"),
    ('section("data protocol", C, N, choose(T("q", "q", "q"), right=T("a", "a", "a"), why=T("w", "w", "w"),'
     ' wrong=[(T("b", "b", "b"), T("x", "x", "x")), (T("c", "c", "c"), T("y", "", "y"))]))',
     "explanation of wrong choice 2"),
    ('section("data protocol", C, N, choose(T("q", "q", "q"), right=T("a", "a", "a"), why=T("w", "w", "w"),'
     ' wrong=[(T("a", "a", "a"), T("x", "x", "x")), (T("c", "c", "c"), T("y", "y", "y"))]))', "exactly one must be right"),
    ('section("data protocol", C, N, choose(T("q", "q", "q"), right=T("a", "a", "a"), why=T("w", "w", "w"),'
     ' wrong=[(T("c", "c", "c"), T("y", "y", "y"))]))', "at least 2 wrong choices"),
    ('section("no such heading", C, N, O)', "matches no heading"),
    ('section("read", C, N, O)', "matches 2 headings"),
    ('section("data protocol", C, N, O)\nsection("data protocol", C, N, O)', "already has questions"),
    ('section("data protocol", C, N, number(T("q", "q", "q"), answer=float("nan"), why=T("w", "w", "w")))',
     "finite number"),
    ('section("data protocol", C, N, number(T("q", "q", "q"), answer=3, why=T("w", "w", "w"),'
     ' wrong=[(3, T("x", "x", "x"))]))', "accepted as right"),
    ('section("data protocol", C, N)', "2 questions"),
])
def test_the_checks_refuse_a_bad_question(tmp_path, body, message):
    with pytest.raises(QuizError, match=message):
        quizzes.load(_write(tmp_path, GOOD + body + "\n"), CHAPTER)


def test_the_html_works_without_javascript():
    for page, sections in quizzes.load_all().items():
        for section in sections:
            for lang in LANGUAGES:
                html = quizzes.render(page, section, lang)
                assert html.count('<details class="quiz-answer">') == len(section.questions)
                assert html.count('aria-live="polite"') == len(section.questions) + 1
                for block in html.split('<div class="quiz-q"')[1:]:
                    if 'data-kind="choose"' in block:
                        assert block.count('data-right="1"') == 1
                assert quizzes.UI["heading"][lang] in html
