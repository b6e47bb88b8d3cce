"""The questions of src/quizzes/ (format and checks: tools/quizzes.py).

Fast, no browser: every quiz source loads and passes the build's checks; the
checks refuse what they must (a translation missing or fuzzy in the catalogue, a wrong choice without an
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

from prose_catalogues import use_locales, write_translations
from tools import quizzes
from tools.quizzes import LANGUAGES, QuizError

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


def _write(tmp_path, monkeypatch, body, translations=None, fuzzy=()):
    """A quiz source for §1 in a src/quizzes/ of its own, with its catalogues: every T("x") is
    translated as "中x" and "рx" unless ``translations`` ({English: {lang: text}}) says otherwise;
    the English texts in ``fuzzy`` are marked fuzzy."""
    path = tmp_path / "src" / "quizzes" / "01_allowed_set.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    locales = use_locales(monkeypatch, tmp_path / "src" / "locales")
    written = {english: {"zh": "中" + english, "ru": "р" + english} for english in re.findall(r'T\("([^"]*)"', body)}
    write_translations(locales, path, {**written, **(translations or {})}, fuzzy)
    return path


GOOD = textwrap.dedent('''
    C = choose(T("Q"), right=T("right"), why=T("because"),
               wrong=[(T("w1"), T("e1")), (T("w2"), T("e2"))])
    N = number(T("how many"), answer=3, why=T("because"), wrong=[(2, T("fewer"))])
    O = order(T("order"), steps=[T("one"), T("two"), T("three")], why=T("because"))
''')


def test_a_good_source_loads(tmp_path, monkeypatch):
    sections = quizzes.load(_write(tmp_path, monkeypatch, GOOD + 'section("data protocol", C, N, O)\n'), CHAPTER)
    assert [s.anchor for s in sections] == ["sec-1-2"]
    assert sections[0].questions[0].prompt.texts == {"zh": "中Q", "en": "Q", "ru": "рQ"}


def test_a_text_with_a_computed_number_is_translated_once_and_filled(tmp_path, monkeypatch):
    body = GOOD + 'section("data protocol", C, N, order(T("{n} steps", n=3), steps=[T("one"), T("two"), T("three")], ' \
                  'why=T("because")))\n'
    path = _write(tmp_path, monkeypatch, body, {"{n} steps": {"zh": "{n} 步", "ru": "{n} шага"}})
    prompt = quizzes.load(path, CHAPTER)[0].questions[2].prompt
    assert prompt.texts == {"zh": "3 步", "en": "3 steps", "ru": "3 шага"}
    _write(tmp_path, monkeypatch, body, {"{n} steps": {"zh": "{m} 步", "ru": "{n} шага"}})
    with pytest.raises(QuizError, match=r"T\('\{n\} steps'\) cannot be filled"):
        quizzes.load(path, CHAPTER)


@pytest.mark.parametrize("body, translations, message", [
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))]))',
     {"q": {"zh": "问"}}, r"quiz text \('q'\): the ru translation is missing in \S*src/locales/ru/LC_MESSAGES/quizzes.po"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))]))',
     {"q": {"zh": "问", "ru": ""}}, r"the ru translation is empty"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T(""))]))',
     {}, "the English text is empty"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))]))',
     {"b": {"zh": "中a", "ru": "рb"}}, "two choices read the same in zh"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("a"), T("x")), (T("c"), T("y"))]))',
     {}, "exactly one must be right"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("c"), T("y"))]))',
     {}, "at least 2 wrong choices"),
    ('section("no such heading", C, N, O)', {}, "matches no heading"),
    ('section("read", C, N, O)', {}, "matches 2 headings"),
    ('section("data protocol", C, N, O)\nsection("data protocol", C, N, O)', {}, "already has questions"),
    ('section("data protocol", C, N, number(T("q"), answer=float("nan"), why=T("w")))', {}, "finite number"),
    ('section("data protocol", C, N, number(T("q"), answer=3, why=T("w"), wrong=[(3, T("x"))]))', {}, "accepted as right"),
    ('section("data protocol", C, N)', {}, "2 questions"),
])
def test_the_checks_refuse_a_bad_question(tmp_path, monkeypatch, body, translations, message):
    with pytest.raises(QuizError, match=message):
        quizzes.load(_write(tmp_path, monkeypatch, GOOD + body + "\n", translations), CHAPTER)


def test_a_fuzzy_translation_is_refused_by_name(tmp_path, monkeypatch):
    path = _write(tmp_path, monkeypatch, GOOD + 'section("data protocol", C, N, O)\n', fuzzy={"how many"})
    with pytest.raises(QuizError, match=r"01_allowed_set.py: 2 text\(s\) cannot be given in every language:\n"
                                        r"  quiz text \('how many'\): the zh translation is marked fuzzy"):
        quizzes.load(path, CHAPTER)


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
