"""Numbers in the prose follow their language's conventions (docs/glossary.md, the bullet "Numbers in the prose").

The prose checked is the Markdown of every chapter, exercise and solution notebook in every
language (code spans, maths, fenced code and URLs are not prose: a printed number keeps its
language-neutral form there).

* **"About" goes with at most 4 significant digits** ("about 0.047").  "About 0.047053077502" is a
  contradiction: a rounded word wants a rounded number, and the full digits belong in the
  printed output.  The same for 约 / 大约 and «около», «примерно», «приблизительно».
* **Large integers are grouped.**  English and Chinese group digits by three with commas
  from 5 digits on (1,048,576; 4-digit numbers such as 6912 stay as they are).  Russian
  groups them with a narrow no-break space, U+202F (1 048 576): a comma is the decimal
  sign there, and a plain space lets the number break across lines.
* **Russian spacing.**  A number and its unit (72 МиБ, 53,1 %, 5 мс) are joined by a
  no-break space, U+00A0, and by nothing else (not U+202F, which groups digits, nor no space at
  all); «№» is followed by U+00A0 (№\u00a01) and an em dash is preceded by it (с ней модель
  учится предсказывать, без неё\u00a0— списывать), so that no line starts with a dash or ends
  with a bare №.  «§» is written attached to its number (§7.2, §1–§6), which cannot break
  either: any space after § is rejected, a no-break one too (read78 G C1).
* **The decimal comma in Russian** (0,33, ±7,9).  In the notebooks' Markdown test_glossary.py's
  table checks it; here it is checked in the catalogues' messages, where an argument written
  as code (``tol=0.005``, ``eps=0.5``) keeps its point.
* **Russian maths writes the decimal comma too**, as ``{,}`` ($0{,}5$: a bare comma is
  punctuation to LaTeX, which puts a space after it), and none with a point.  Each decimal of
  a text's English maths is in its Russian maths with ``{,}``, and the Russian has no other
  (``557{,}056`` groups digits in English; Russian groups them in maths with ``\\,``).

The same rules hold in every Russian catalogue a reader sees outside the notebooks' Markdown
(``test_catalogues_follow_the_language``): every msgstr of course.po (check() messages,
diagnoses, grader and site texts), of quizzes.po and of the site's theme strings.  Translated
code comments (chapters.po, solutions.po) are code and keep plain spaces.  The Russian examples of
docs/glossary.md's bullet follow them too (``test_the_glossarys_russian_examples_follow_the_rules``).
"""

import re
import sys
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from test_glossary import prose, source_texts  # noqa: E402

NO_BREAK = "\u00a0\u202f"
NUMBER = r"−?-?\d[\d,.\u202f\u00a0]*\d|\d"
ABOUT = {
    "en": re.compile(r"\b(?:about|around|roughly|approximately)\s+(" + NUMBER + ")", re.I),
    "zh": re.compile(r"(?:约为|大约|大概|约)\s*(" + NUMBER + ")"),
    "ru": re.compile(r"(?:около|примерно|приблизительно)\s+(" + NUMBER + ")", re.I),
}
MOST_DIGITS_AFTER_ABOUT = 4
# an integer of 5 or more digits written without grouping (not the digits of a decimal fraction)
UNGROUPED = re.compile(r"(?<![\d.,\u202f\u00a0])\d{5,}(?![\d])(?![.,]\d)")
COMMA_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3}){2,}(?![\d])")            # 1,048,576
# a 4-digit integer written with a group (6,960 / 6\u202f960): 4-digit numbers stay as they are (6960)
FOUR_DIGITS_GROUPED = {
    "ru": re.compile(r"(?<![\d,\u202f\u00a0])\d[\u202f\u00a0]\d{3}(?![\d\u202f\u00a0])(?!,\d)"),
    "other": re.compile(r"(?<![\d.,])\d,\d{3}(?![\d,])(?!\.\d)"),
}
SPACE_GROUPS = re.compile(r"(?<![\d.,])\d{1,3}(?:[ \u2009]\d{3})+(?!\d)(?![.,]\d)")      # 1 048 576 with a breakable space
RU_UNIT = re.compile(r"\d(\s?)(?:%|‰|МиБ|КиБ|ГиБ|Мб|МБ|ГБ|КБ|байт\w*|мс|мкс|нс|ГФЛОП\w*)")
SECTION_SPACE = re.compile(r"§\s")
NUMERO_SPACE = re.compile(r"№\s")
SPACE_DASH = re.compile(r"[^\S\n]—")           # a space, not a line break, before an em dash
# a decimal point between digits, not in an argument written as code (tol=0.005) nor in a version (3.11.2)
RU_DECIMAL_POINT = re.compile(r"(?<![\w=.])[-+−±]?\d+\.\d+(?![.\d])")


def significant_digits(number, lang):
    """Leading zeros never count; the trailing zeros of a whole number do not either ("about 20,000" has 2)."""
    digits = re.sub(r"\D", "", number).lstrip("0")
    if ("," if lang == "ru" else ".") not in number:
        digits = digits.rstrip("0")
    return len(digits)


def number_problems(lang, text):
    """What in ``text`` (one Markdown cell in ``lang``) breaks the conventions of the module docstring."""
    clean = prose(text)
    found = []
    for m in ABOUT[lang].finditer(clean):
        if significant_digits(m.group(1), lang) > MOST_DIGITS_AFTER_ABOUT:
            found.append(f"{m.group(0)!r}: 'about' with more than {MOST_DIGITS_AFTER_ABOUT} significant digits")
    for m in UNGROUPED.finditer(clean):
        want = "1 048 576, with U+202F" if lang == "ru" else "1,048,576"
        found.append(f"{m.group(0)!r}: group the digits ({want})")
    for m in FOUR_DIGITS_GROUPED["ru" if lang == "ru" else "other"].finditer(clean):
        found.append(f"{m.group(0)!r}: a 4-digit number is not grouped (6912)")
    if lang == "ru":
        for m in COMMA_GROUPS.finditer(clean):
            found.append(f"{m.group(0)!r}: a comma is the decimal sign in Russian; group with U+202F")
        for m in SPACE_GROUPS.finditer(clean):
            found.append(f"{m.group(0)!r}: group the digits with a narrow no-break space (U+202F)")
        for m in RU_UNIT.finditer(clean):
            if m.group(1) != "\u00a0":
                found.append(f"{clean[max(0, m.start() - 8):m.end()]!r}: a no-break space between a number and its unit")
        for m in SECTION_SPACE.finditer(clean):
            found.append(f"{clean[m.start():m.end() + 6]!r}: no space after §: §1.2")
        for m in NUMERO_SPACE.finditer(clean):
            if m.group(0)[1] != "\u00a0":
                found.append(f"{clean[m.start():m.end() + 6]!r}: a no-break space, U+00A0, after №")
        for m in SPACE_DASH.finditer(clean):
            if m.group(0)[0] != "\u00a0":
                found.append(f"{clean[max(0, m.start() - 12):m.end() + 6]!r}: a no-break space before «—»")
        for m in RU_DECIMAL_POINT.finditer(clean):
            want = m.group(0).replace(".", ",").replace("-", "−")
            found.append(f"{m.group(0)!r}: the decimal comma (and a true minus) in Russian prose: {want}")
    else:
        for m in SPACE_GROUPS.finditer(clean):
            found.append(f"{m.group(0)!r}: group the digits with commas (1,048,576)")
    return found


def test_the_check_finds_what_it_looks_for():
    """Negative control: the sentences the reviews quoted are caught, their fixed forms pass."""
    assert number_problems("en", "the largest absolute difference is about 0.047053077502 instead of 0.")
    assert number_problems("en", "the largest change is about 39.7720206134.")
    assert not number_problems("en", "about 0.047 instead of 0, about 39.77, about 0.0875, about 1/2")
    # read71 G C4: a round whole number has few significant digits, however long; a decimal's zeros count
    assert not number_problems("en", "about 1,000,000 entries and about 20,000 rows")
    assert not number_problems("ru", "около 1\u202f000\u202f000 записей") and not number_problems("zh", "约 20,000 行")
    assert number_problems("en", "about 20,001 rows") and number_problems("en", "about 2.0000")
    assert number_problems("ru", "около 2,0000") and number_problems("ru", "около 1\u202f000\u202f001")
    assert number_problems("zh", "最大绝对值约为 0.047053077502")
    assert not number_problems("zh", "最大绝对值约为 0.047，打印出的是 `0.047053077502`")
    assert number_problems("ru", "равна примерно 0,047053077502, а не 0")
    assert number_problems("en", "compute 557056 scores instead of 1048576")
    assert not number_problems("en", "compute 557,056 scores instead of 1,048,576; 6912 parameters")
    assert number_problems("en", "580 lines, 6,960 characters") and number_problems("zh", "共 6,960 个字符")
    assert number_problems("ru", "6\u202f960 символов") and not number_problems("ru", "6960 символов, 12\u202f132 и 0,125")
    assert number_problems("ru", "оценок 557056 вместо 1048576")
    assert number_problems("ru", "параметров 1,048,576") and number_problems("ru", "параметров 1 048 576")
    assert not number_problems("ru", "параметров 1\u202f048\u202f576, то есть 53,1\u00a0% и 72\u00a0МиБ; см.\u00a0§1.2")
    assert number_problems("ru", "около 72 МиБ на последовательность")
    assert number_problems("ru", "это 53,1 % оценок")
    assert number_problems("ru", "см. § 1.2")
    assert number_problems("ru", "Под № 1 сравнивается") and not number_problems("ru", "Под №\u00a01 сравнивается")
    assert number_problems("ru", "с ней модель учится предсказывать, без неё — списывать")
    # read78 G C1: the glossary's rules, not only "no plain space": § takes no space at all, №, a unit and a dash
    # take U+00A0 and not U+202F (the narrow one groups digits), and a unit is not written attached
    assert number_problems("ru", "см. §\u00a07") and number_problems("ru", "см. §\u202f7")
    assert number_problems("ru", "№\u202f1") and number_problems("ru", "72\u202fМиБ")
    assert number_problems("ru", "72МиБ") and number_problems("ru", "53,1%")
    assert number_problems("ru", "без неё\u202f— списывать")
    assert not number_problems("ru", "см. §7, №\u00a01, 72\u00a0МиБ, 1\u202f048\u202f576\u00a0байт")
    assert not number_problems("ru", "без неё\u00a0— списывать;\n— строка с тире в начале")
    assert not number_problems("ru", "с шагом 0,5; в §1.2 и при температуре 1 с seed 0")
    assert not number_problems("en", "`0.047053077502` and $10^{-12}$ are not prose")
    assert number_problems("ru", "нормализованные значения около ±7.9") and number_problems("ru", "веса +0.25 и -0.25")
    assert not number_problems("ru", "около ±7,9; веса +0,25 и −0,25; tol=0.005, eps=0.5; `0.25`")


def glossary_examples():
    """The Russian examples of docs/glossary.md's bullet "Numbers in the prose": in each of its points, every
    parenthesis after the word "Russian" (the examples before it are English and Chinese)."""
    text = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    bullet = text.split("* **Numbers in the prose**", 1)[1].split("\n* ", 1)[0]
    points = [re.sub(r"[ \n]+", " ", point) for point in bullet.split("\n  * ")[1:]]     # str.split would eat U+202F
    return [example for point in points if "Russian" in point
            for example in re.findall(r"\(([^()]*)\)", point.split("Russian", 1)[1])]


def test_the_glossarys_russian_examples_follow_the_rules():
    """docs/glossary.md once typed its Russian examples with plain spaces, which this test rejects (read57 G C4).
    Each example passes, and each that has a no-break space fails once it is made a plain one, so the examples
    show what the rule asks for."""
    examples = glossary_examples()
    assert len(examples) >= 4 and "1\u202f048\u202f576" in examples, examples
    for example in examples:
        assert not number_problems("ru", example), (example, number_problems("ru", example))
    spaced = [e for e in examples if any(c in e for c in NO_BREAK)]
    assert len(spaced) >= 4, spaced
    for example in spaced:
        assert number_problems("ru", re.sub(f"[{NO_BREAK}]", " ", example)), example


CELLS = [(where, lang, text) for where, lang, text, kind in source_texts()
         if kind == "markdown" and where.startswith(("src/chapters/", "src/solutions/"))]


def test_the_prose_was_read():
    assert {lang for _, lang, _ in CELLS} == set(LANGUAGES) and len(CELLS) > 700


@pytest.mark.parametrize("lang", LANGUAGES)
def test_numbers_follow_the_language(lang):
    found = [f"{where}: {problem}" for where, text_lang, text in CELLS if text_lang == lang
             for problem in number_problems(lang, text)]
    assert not found, "numbers in the prose that break the conventions:\n" + "\n".join(found)


# The quizzes: every text of every question, and the numbers a number question shows (its key and
# its wrong values), as the page renders them in its language (tools/quizzes.py, format_number).
QUIZ_TEXTS = [(where, lang, text) for where, lang, text, kind in source_texts()
              if where.startswith("src/quizzes/")]


def _quiz_numbers(lang):
    from tools.quizzes import format_number, load_all, localise_numbers
    for page, sections in load_all().items():
        for section in sections:
            for k, q in enumerate(section.questions, 1):
                if q.kind != "number":
                    continue
                where = f"{page} §{section.number} question {k}"
                yield f"{where} (key)", localise_numbers(q.shown, lang)
                for value, _ in q.wrong:
                    yield f"{where} (wrong value)", format_number(value, lang)


def test_the_quiz_numbers_were_read():
    assert {lang for _, lang, _ in QUIZ_TEXTS} == set(LANGUAGES) and len(QUIZ_TEXTS) > 1000
    shown = dict(_quiz_numbers("en"))
    assert "1,048,576" in shown.values(), "the key of §2.6's first question is not rendered grouped"
    assert "1\u202f048\u202f576" in dict(_quiz_numbers("ru")).values()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_quiz_numbers_follow_the_language(lang):
    found = [f"{where}: {problem}" for where, text_lang, text in QUIZ_TEXTS if text_lang == lang
             for problem in number_problems(lang, text)]
    found += [f"{where}: {problem}" for where, text in _quiz_numbers(lang)
              for problem in number_problems(lang, text)]
    assert not found, "numbers in the quizzes that break the conventions:\n" + "\n".join(found)


# The catalogues outside the notebooks' Markdown: each msgstr as the reader sees it, named by its msgctxt.
CATALOGUES = {
    "ru": [ROOT / "course_i18n" / "locales" / "ru" / "LC_MESSAGES" / "course.po",
           ROOT / "src" / "locales" / "ru" / "LC_MESSAGES" / "quizzes.po",
           *sorted((ROOT / "site" / "locale" / "ru" / "LC_MESSAGES").glob("*.po"))],
}


def catalogue_texts(lang):
    from course_i18n.catalogue import read_po
    for path in CATALOGUES[lang]:
        for entry in read_po(path):
            if entry["msgid"] and entry["msgstr"]:           # the header's msgstr is not a text
                # course.po's msgctxt is the message's own key; quizzes.po's is the page, so the English starts it
                where = f"{path.relative_to(ROOT)} [{entry['msgctxt']}]"
                if not entry["msgctxt"] or "/" in entry["msgctxt"]:
                    where += f" {entry['msgid'][:50]!r}"
                yield where, entry["msgstr"]


def test_the_catalogues_were_read():
    texts = dict(catalogue_texts("ru"))
    assert all(path.exists() for path in CATALOGUES["ru"]) and len(CATALOGUES["ru"]) >= 4, CATALOGUES["ru"]
    assert sum(where.startswith("course_i18n/") for where in texts) > 1000
    assert sum(where.startswith("src/locales/") for where in texts) > 1000
    assert sum(where.startswith("site/locale/") for where in texts) > 10
    assert "course_i18n/locales/ru/LC_MESSAGES/course.po [grading.diagnosis.causal-1.signed.text]" in texts


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_catalogues_follow_the_language(lang):
    found = [f"{where}: {problem}" for where, text in catalogue_texts(lang)
             for problem in number_problems(lang, text)]
    assert not found, f"{lang} messages that break the conventions (msgstr named by msgctxt):\n" + "\n".join(found)


# Maths ($…$, $$…$$) is not prose, so number_problems skips it; its decimals are checked here, text by text against
# the English (docs/translating.md, "Editing an entry").
MATHS = re.compile(r"\$\$.*?\$\$|\$[^$\n]+\$", re.S)


def maths_numbers(text, sign):
    """Every number of ``text``'s maths that has ``sign`` between two digits (``0.5``, ``0{,}5``)."""
    number = re.compile(r"\d+" + re.escape(sign) + r"\d+")
    return [m.group(0) for span in MATHS.findall(text) for m in number.finditer(span)]


def russian_maths_problems(english, russian):
    """What in the Russian maths of a text breaks the decimal comma, given the same text's English."""
    found = [f"{n!r}: a decimal point in Russian maths; write {n.replace('.', '{,}')}"
             for n in maths_numbers(russian, ".")]
    want = sorted(n.replace(".", "{,}") for n in maths_numbers(english, "."))
    have = sorted(maths_numbers(russian, "{,}"))
    if want != have:
        found.append(f"the English maths' decimals, written with {{,}}, are {want}; the Russian maths has {have}")
    return found


def test_the_maths_check_finds_what_it_looks_for():
    """Negative control: a point, a missing or a changed decimal and a grouping comma are named; the fixed forms
    pass, and prose outside the maths is left to test_numbers_follow_the_language."""
    assert russian_maths_problems(r"$x \approx 0.5$", r"$x \approx 0.5$")
    assert russian_maths_problems(r"$x \approx 0.5$", r"$x \approx 0,5$")
    assert russian_maths_problems(r"$x \approx 0.5$", r"$x \approx 0{,}25$")
    assert russian_maths_problems(r"$557{,}056$ scores", r"$557{,}056$ оценок")
    assert not russian_maths_problems(r"$x \approx 0.5$", r"$x \approx 0{,}5$")
    assert not russian_maths_problems(r"$557{,}056$ scores", r"$557\,056$ оценок")
    assert not russian_maths_problems(r"$$\ln 10 \approx 2.3026$$ and 0.7", r"$$\ln 10 \approx 2{,}3026$$ и 0,7")


def test_the_guides_say_that_russian_maths_writes_the_decimal_comma():
    """docs/glossary.md's Russian rules once gave the decimal comma of the prose alone, and the `\\d\\.\\d` row of
    docs/words.md said that maths is not prose, as if $0.5$ were fine there (read61 G L8). Both give `$0{,}5$`, the
    form this module asks for."""
    glossary = " ".join((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").split())
    assert "* Decimals take a comma (0,330238); in maths, write it `{,}` (`$0{,}5$`). (words.md)" in glossary  # read75 G L3
    from test_glossary import RULES
    [row] = [instead for lang, pattern, instead, _ in RULES if lang == "ru" and pattern.pattern == r"\d\.\d"]
    assert ("`$0{,}5$` in maths (`tests/test_number_style.py` also checks the interface texts and the maths)" in row
            and "maths are not prose" not in row), row
    assert not russian_maths_problems("$0.5$", "$0{,}5$") and russian_maths_problems("$0.5$", "$0.5$")


def _texts_by_place():
    """{where: {lang: its Markdown}} of every Markdown cell and quiz question (a question's texts joined)."""
    texts = {}
    for where, lang, text, kind in source_texts():
        if kind == "markdown":
            texts.setdefault(where, {}).setdefault(lang, []).append(text)
    return {where: {lang: "\n".join(parts) for lang, parts in langs.items()} for where, langs in texts.items()}


MARKDOWN = _texts_by_place()


def test_the_maths_was_read():
    decimals = [n for texts in MARKDOWN.values() for n in maths_numbers(texts["en"], ".")]
    assert len(decimals) >= 19 and "0.106507" in decimals, decimals
    assert any(where.startswith("src/solutions/") and maths_numbers(texts["ru"], "{,}")
               for where, texts in MARKDOWN.items())


def test_russian_maths_writes_the_decimal_comma():
    found = [f"{where}: {problem}" for where, texts in MARKDOWN.items()
             for problem in russian_maths_problems(texts["en"], texts["ru"])]
    assert not found, "Russian maths that breaks the decimal comma:\n" + "\n".join(found)


def test_section_8_states_the_english_percentages_in_every_language():
    """§8's percentages (the share of <unk> among the held-out characters, which tests/test_prose_numbers.py ties to
    its code) are the same in every language (read64 en C2 changed it from 7 % to 8 %)."""
    percent = re.compile(r"(?<![\d.,])(\d+)[ \u00a0\u202f]?%")
    stated = {}
    for where, lang, text, _ in source_texts():
        if where.startswith("src/chapters/08_real_text.py "):
            stated.setdefault(lang, []).extend(percent.findall(text))
    assert set(stated) == set(LANGUAGES) and stated["en"], stated
    assert all(sorted(found) == sorted(stated["en"]) for found in stated.values()), stated
