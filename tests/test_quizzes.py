"""The questions of src/quizzes/ (format and checks: tools/quizzes.py).

Fast, no browser: every quiz source loads and passes the build's checks; the
checks refuse what they must (a translation missing or fuzzy in the catalogue, a wrong choice without an
explanation, two choices that read the same, a key that names no section or
several, a number answer that is not a number); the HTML works without
JavaScript (answers folded in <details>, exactly one right choice). The
browser side (answers at once, keyboard, progress) is tests/test_site_quiz.py.
"""

from __future__ import annotations

import html
import json
import re
import subprocess
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
               wrong=[(T("w1"), T("e1")), (T("w2"), T("e2"))], unwitnessed="a test question")
    N = number(T("how many"), answer=3, why=T("because"), wrong=[(2, T("fewer"))], witness=lambda n: n == 3)
    O = order(T("order"), steps=[T("one"), T("two"), T("three")], why=T("because"),
              witness=lambda o: list(o) == sorted(o))
''')


def test_a_good_source_loads(tmp_path, monkeypatch):
    sections = quizzes.load(_write(tmp_path, monkeypatch, GOOD + 'section("data protocol", C, N, O)\n'), CHAPTER)
    assert [s.anchor for s in sections] == ["sec-1-2"]
    assert sections[0].questions[0].prompt.texts == {"zh": "中Q", "en": "Q", "ru": "рQ"}


def test_a_text_with_a_computed_number_is_translated_once_and_filled(tmp_path, monkeypatch):
    body = GOOD + 'section("data protocol", C, N, order(T("{n} steps", n=3), steps=[T("one"), T("two"), T("three")], ' \
                  'why=T("because"), unwitnessed="a test question"))\n'
    path = _write(tmp_path, monkeypatch, body, {"{n} steps": {"zh": "{n} 步", "ru": "{n} шага"}})
    prompt = quizzes.load(path, CHAPTER)[0].questions[2].prompt
    assert prompt.texts == {"zh": "3 步", "en": "3 steps", "ru": "3 шага"}
    _write(tmp_path, monkeypatch, body, {"{n} steps": {"zh": "{m} 步", "ru": "{n} шага"}})
    with pytest.raises(QuizError, match=r"T\('\{n\} steps'\) cannot be filled"):
        quizzes.load(path, CHAPTER)


@pytest.mark.parametrize("body, translations, message", [
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))], '
     'unwitnessed="x"))', {"q": {"zh": "问"}}, r"quiz text \('q'\): the ru translation is missing in \S*src/locales/ru/LC_MESSAGES/quizzes.po"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))], '
     'unwitnessed="x"))', {"q": {"zh": "问", "ru": ""}}, r"the ru translation is empty"),
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
    # every question says how its key is checked, and says it fully (tools/quizzes.py, "Witnesses")
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))]))',
     {}, "say how the key is checked"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))], '
     'witness=lambda c: c == 1))', {}, "the right choice carries no claim"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a", claim=1), why=T("w"), wrong=[(T("b"), T("x")), '
     '(T("c"), T("y"))], witness=lambda c: c == 1))', {}, "no wrong choice carries a claim"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a", claim=1), why=T("w"), wrong=[(T("b", claim=2), T("x")), '
     '(T("c"), T("y"))], unwitnessed="why"))', {}, "choices carry claim= but the question has no witness"),
    ('section("data protocol", C, N, number(T("q"), answer=3, why=T("w"), witness=lambda n: n == 3))', {},
     "needs at least one wrong value"),
    ('section("data protocol", C, N, number(T("q"), answer=3, why=T("w"), wrong=[(2, T("x"))], witness=lambda n: n == 3, '
     'unwitnessed="why"))', {}, "yet witness= is given too"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))], '
     'defined_in="1.2"))', {}, "needs both defined_in"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))], '
     'defined_in="1.1", term=T("data protocol")))', {}, "never writes §1.1"),
    # a question does not send the reader to the section it stands in (here §1.2)
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("§1.2: as said there"), wrong=[(T("b"), T("x")), '
     '(T("c"), T("y"))], unwitnessed="x"))', {}, r"points to §1\.2, the section the question stands in"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), '
     '(T("c"), T("as taught (§1.2)"))], unwitnessed="x"))', {}, r"points to §1\.2"),
    ('section("data protocol", C, N, choose(T("q"), right=T("a"), why=T("w"), wrong=[(T("b"), T("x")), (T("c"), T("y"))], '
     'defined_in="§1.2", term=T("data protocol")))', {}, "must be a section number"),
])
def test_the_checks_refuse_a_bad_question(tmp_path, monkeypatch, body, translations, message):
    with pytest.raises(QuizError, match=message):
        quizzes.load(_write(tmp_path, monkeypatch, GOOD + body + "\n", translations), CHAPTER)


def test_a_question_may_cite_its_own_section_but_not_point_to_it(tmp_path, monkeypatch):
    """"In the example of §1.2" is a citation; "§1.2: …" or "(§1.2)" sends the reader to the section they have just
    read, and a term defined there need not be named at all."""
    body = GOOD + ('section("data protocol", C, N, choose(T("In the example of §1.2, q"), right=T("a"), why=T("w"), '
                   'wrong=[(T("b"), T("x")), (T("c"), T("y"))], defined_in="1.2", term=T("data protocol")))\n')
    question = quizzes.load(_write(tmp_path, monkeypatch, body), CHAPTER)[0].questions[2]
    assert question.section == "1.2" and quizzes._names_definition(question, "en")
    question.why = quizzes.T({lang: "§1.2: w" for lang in LANGUAGES})
    with pytest.raises(QuizError, match="points to §1.2"):
        quizzes._check_pointers(question, "here")


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


# --------------------------------------------------------------------------- witnesses, on made-up questions

def _choose(witness, right=1, wrong=(2, 3)):
    return quizzes.choose(quizzes.T({"en": "q"}), right=quizzes.T({"en": "a"}, claim=right),
                          why=quizzes.T({"en": "w"}),
                          wrong=[(quizzes.T({"en": f"b{k}"}, claim=c), quizzes.T({"en": "x"})) for k, c in enumerate(wrong)],
                          witness=witness)


def test_a_witness_that_holds_for_the_key_and_refutes_every_distractor_passes():
    assert quizzes.verify(_choose(lambda claim: claim == 1)) == []
    assert quizzes.verify(_choose(lambda claim: None if claim == 1 else _fail())) == []   # assert-style witness


def _fail():
    raise AssertionError("refuted")


@pytest.mark.parametrize("witness, message", [
    (lambda claim: claim == 2, "the witness refutes the keyed answer"),
    (lambda claim: claim in (1, 3), "the witness accepts the wrong choice 'b1'"),
    (lambda claim: True, "either it is right too, or the witness cannot tell"),
    (lambda claim: 1 / 0, "ZeroDivisionError"),
    (lambda claim: "yes", "returns True, False or None"),
])
def test_a_witness_that_cannot_tell_the_key_from_a_distractor_is_reported(witness, message):
    try:
        problems = quizzes.verify(_choose(witness))
    except ZeroDivisionError as error:                # a witness that is broken is not a refutation
        problems = [repr(error)]
    assert any(message in p for p in problems), problems


def test_swapping_the_key_makes_a_good_witness_fail():
    q = _choose(lambda claim: claim == 1)
    swapped = quizzes.with_key_swapped(q)
    assert [what for what, _ in swapped] == ["key swapped with 'b0'", "key swapped with 'b1'"]
    assert all(quizzes.verify(m) for _, m in swapped)


def test_number_and_order_witnesses_are_run_against_their_wrong_values_and_swapped_steps():
    n = quizzes.number(quizzes.T({"en": "q"}), answer=3, why=quizzes.T({"en": "w"}),
                       wrong=[(2, quizzes.T({"en": "x"}))], witness=lambda v: v == 3)
    assert quizzes.verify(n) == [] and all(quizzes.verify(m) for _, m in quizzes.with_key_swapped(n))
    loose = quizzes.number(quizzes.T({"en": "q"}), answer=3, why=quizzes.T({"en": "w"}),
                           wrong=[(2, quizzes.T({"en": "x"}))], witness=lambda v: v >= 2)
    assert "wrong value 2" in quizzes.verify(loose)[0]
    steps = [quizzes.T({"en": s}) for s in ("one", "two", "three")]
    o = quizzes.order(quizzes.T({"en": "q"}), steps=steps, why=quizzes.T({"en": "w"}),
                      witness=lambda order: list(order) == [0, 1, 2])
    assert quizzes.verify(o) == []
    assert len(quizzes.with_key_swapped(o)) == 2 and all(quizzes.verify(m) for _, m in quizzes.with_key_swapped(o))
    # an order whose first two steps may be swapped is refused: its key is not the only right order
    commuting = quizzes.order(quizzes.T({"en": "q"}), steps=steps, why=quizzes.T({"en": "w"}),
                              witness=lambda order: order[2] == 2)
    assert "the steps in the order (1, 0, 2)" in quizzes.verify(commuting)[0]


def test_in_order_turns_a_step_that_comes_too_early_into_a_refutation():
    steps = [lambda s: s.update(x=1), lambda s: s.update(y=s["x"] + 1)]
    assert quizzes.in_order(steps, (0, 1)) == {"x": 1, "y": 2}
    with pytest.raises(AssertionError, match="step 1 needs 'x'"):
        quizzes.in_order(steps, (1, 0))


def test_a_definition_is_checked_in_the_section_it_names_in_every_language():
    term = quizzes.T({"zh": "许可集合", "en": "allowed set", "ru": "множество разрешённых позиций"})
    assert quizzes.definition_problems("1.1", term) == []
    assert quizzes.definition_problems("1.99", term) == ["no chapter has a section §1.99"]
    wrong_ru = quizzes.T({"zh": "许可集合", "en": "allowed set", "ru": "разрешённое множество"})
    assert quizzes.definition_problems("1.1", wrong_ru) == ["§1.1 does not use the ru term 'разрешённое множество'"]
    assert quizzes.section_without(term) not in (None, "1.1")


def test_a_russian_term_is_found_in_another_case():
    pattern = quizzes.term_pattern("пустая строка", "ru")
    assert pattern.search("у пустой строки нет знаменателя") and not pattern.search("пустой столбец")
    assert quizzes.term_pattern("empty row", "en").search("Empty rows arise")
    assert not quizzes.term_pattern("row", "en").search("arrow")


# --------------------------------------------------------------------------- numbers as each language writes them

def test_numbers_are_written_as_each_language_writes_them():
    assert quizzes.format_number(1048576, "en") == quizzes.format_number(1048576, "zh") == "1,048,576"
    assert quizzes.format_number(1048576, "ru") == "1\u202f048\u202f576"
    assert quizzes.format_number(1 / 3, "ru") == "0,333333" and quizzes.format_number(1 / 3, "en") == "0.333333"
    assert quizzes.format_number(4096, "ru") == "4096" and quizzes.format_number(1048576) == "1048576"
    assert quizzes.localise_numbers("1/(2 + e²) ≈ 0.106507, see §1.6 and 1e-12", "ru") == \
        "1/(2 + e²) ≈ 0,106507, see §1.6 and 1e-12"


def test_the_page_shows_a_number_answer_in_its_language():
    sections = quizzes.load_all()["chapters/02_heads"]
    costs = next(s for s in sections if s.number == "2.6")
    html = {lang: quizzes.render("chapters/02_heads", costs, lang) for lang in LANGUAGES}
    assert "<strong>1,048,576</strong>" in html["en"] and "<strong>1\u202f048\u202f576</strong>" in html["ru"]
    assert 'data-answer="1048576"' in html["ru"]                   # what the script compares stays plain
    # how quiz.js reads a typed comma: the decimal sign in Russian, thousands elsewhere (1,048,576)
    assert "&quot;decimal&quot;:&quot;,&quot;" in html["ru"] and "&quot;decimal&quot;:&quot;.&quot;" in html["en"]
    first = next(s for s in quizzes.load_all()["chapters/01_allowed_set"] if s.number == "1.1")
    assert "1/3 ≈ 0,333" in quizzes.render("chapters/01_allowed_set", first, "ru")


def _reader_text(page_html):
    """What a reader of a rendered quiz sees as prose: the text between tags and the feedback quiz.js
    shows from ``data-why``, without code, § references and figure numbers (values the script
    compares, ``data-answer`` and ``data-value``, are not read)."""
    said = [html.unescape(m) for m in re.findall(r'data-why="([^"]*)"', page_html)]
    text = re.sub(r"<code>.*?</code>", " ", page_html, flags=re.S)
    said.append(html.unescape(re.sub(r"<[^>]+>", " ", text)))
    prose = " ".join(said)
    prose = re.sub(r"`[^`]*`", " ", prose)
    return re.sub(r"§\d+(\.\d+)*|(?:[Рр]ис\.|Figure|图)\s?\d+\.\d+", " ", prose)


def test_no_quiz_text_shows_tex_to_the_reader():
    """A quiz is plain HTML (tools/quizzes.py, render) written with no TeX delimiters, and quiz.js shows its
    feedback after the page was typeset (tools/static_math.py), so TeX in a quiz text reaches the reader as it is
    typed. read64 C-en L20: §2.5's question showed "α = 1/(1 + e^{1/√2})" with its braces; quiz texts write
    exp(1/√2), e², e⁻¹⁰ and 10⁻¹⁴ instead."""
    tex = re.compile(r"[\^_]\{|\\[A-Za-z]+|\$")
    pages = quizzes.chapter_pages()
    found = []
    for page, sections in quizzes.load_all().items():
        for sec in sections:
            for lang in LANGUAGES:
                prose = _reader_text(quizzes.render(page, sec, lang, pages))
                found += [f"{page} §{sec.number} ({lang}): {prose[max(0, m.start() - 30):m.end() + 30]!r}"
                          for m in tex.finditer(prose)]
    assert not found, "\n".join(found)
    assert tex.search("1/(1 + e^{1/√2})") and tex.search(r"$\alpha$") and not tex.search("1/(1 + exp(1/√2)), e², 10⁻¹⁴")


def test_every_russian_quiz_writes_its_numbers_with_the_decimal_comma():
    """On a Russian page every key, hint and explanation writes a decimal comma and groups 5 or more
    digits with a narrow no-break space (0,697; 1 048 576), as the Russian prose does; the number the
    script compares stays plain, and the box reads a typed point as well as a comma (quiz.js)."""
    pages = quizzes.chapter_pages()
    wrong, keys = [], 0
    for page, sections in quizzes.load_all().items():
        for sec in sections:
            out = quizzes.render(page, sec, "ru", pages)
            prose = _reader_text(out)
            wrong += [f"{page} §{sec.number}: {m.group(0)!r}"
                      for m in re.finditer(r"(?<![\w.,])\d+\.\d+(?![\w.])|(?<![\d\u202f])\d{5,}", prose)]
            for q in sec.questions:
                if q.kind == "number":
                    keys += 1
                    assert f"<strong>{html.escape(quizzes.localise_numbers(q.shown, 'ru'))}</strong>" in out
                    assert f'data-answer="{q.answer!r}"' in out and "," not in repr(q.answer)
    assert keys >= 10 and not wrong, wrong
    assert quizzes.localise_numbers("≈ 39.77 (0.697; 1048576)", "ru") == "≈ 39,77 (0,697; 1\u202f048\u202f576)"


def test_the_answer_box_reads_a_decimal_comma_and_a_decimal_point():
    """quiz.js's own parseNumber, run in Node: on a Russian page (decimal ",") 0,697 and 0.697 are the
    same answer, and 1 048 576 is one number; on an English page 1,048,576 is thousands."""
    from conftest import need
    need("node", "running the quiz page's number parser")
    script = (ROOT / "site" / "static" / "quiz.js").read_text(encoding="utf-8")
    parser = re.search(r"function parseNumber\(.*?\n  \}\n", script, re.S).group(0)
    cases = [("0,697", ","), ("0.697", ","), ("39,77", ","), ("39.77", ","), ("1\u202f048\u202f576", ","),
             ("1 048 576", ","), ("−2", ","), ("1,048,576", "."), ("0.697", "."), ("0,5,1", ",")]
    program = parser + f"console.log(JSON.stringify({json.dumps(cases)}.map(c => parseNumber(c[0], c[1]))));"
    run = subprocess.run(["node", "-e", program], capture_output=True, text=True, timeout=60, check=True)
    # JSON writes NaN (not a number: the page says so) as null
    assert json.loads(run.stdout) == [0.697, 0.697, 39.77, 39.77, 1048576, 1048576, -2, 1048576, 0.697, None]
