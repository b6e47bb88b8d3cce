"""No test harness in the learner's prose (docs/glossary.md, "Rules the tests check").

The Markdown and the translated comments of every chapter, exercise and solution notebook,
and every quiz, in every language, talk to the learner about the ideas, never about the
machinery that checks the course: the test suite (`tests/…`, a test file, "a test checks this"), the
benchmarks (`make bench`, `bench/…`), nbval and which outputs it compares, how the
notebooks are split into cells for the tests, or "every machine" printing alike.  A note
for maintainers goes in a Python comment of the source file, outside the cell's string,
or in CONTRIBUTING.md.

Code spans count here (`tests/test_plain_python.py` in backticks is still harness talk);
fenced code and URLs do not.

The interface texts (check() and the grader's messages, the diagnoses, the site's and the
interactive figures' words: what test_glossary.message_texts reads) are held to the same rules but
those about a notebook's cells and which of their outputs are compared: a diagnosis may well tell
a learner that their own code leaves a row "not compared".
"""

import re
import sys
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from test_glossary import message_texts, source_texts  # noqa: E402

HARNESS = {
    "en": [r"\btests?/", r"\btest_\w+\.py", r"\bmake (?:bench|test|mutants)\b", r"\bbench/", r"\bnbval\b",
           r"\ba test checks\b", r"\bevery machine\b",
           r"\bany reasonable machine\b", r"\bfrom machine to machine\b", r"\banother libm\b",
           r"\bspread over \w+ cells\b", r"\b(?:is|are) not compared\b", r"\basserts nothing\b",
           r"\bthis cell's output\b", r"\bignore-output\b", r"\bchecked by the tests\b", r"\bthe tests check\b"],
    "zh": [r"tests?/", r"test_\w+\.py", r"make (?:bench|test|mutants)", r"bench/", r"nbval", r"有测试检查",
           r"测试会(?:检查|比较)", r"每台机器", r"任何机器", r"因机器而异", r"不参与比对", r"不作比对",
           r"分在\S{1,3}个单元格", r"单元格的输出不", r"由测试\S{0,6}(?:核对|检查)"],
    "ru": [r"tests?/", r"test_\w+\.py", r"make (?:bench|test|mutants)", r"bench/", r"nbval",
           r"на (?:каждой|любой|всякой) машине", r"на всех машинах", r"от машины к машине",
           r"не сравнива", r"разнесен\w* по \w+ ячейк", r"(?:это|тест) провер\w+ тест",
           r"\(это проверяет тест\)", r"\bтесты(?:\s+\w+){0,2}\s+провер\w+"],
}
RULES = {lang: re.compile("|".join(patterns), re.IGNORECASE) for lang, patterns in HARNESS.items()}
# what only a notebook's prose can mean: its cells, and which of their outputs nbval compares
ABOUT_CELLS = {
    "en": {r"\bspread over \w+ cells\b", r"\b(?:is|are) not compared\b", r"\bthis cell's output\b", r"\bignore-output\b"},
    "zh": {r"不参与比对", r"不作比对", r"分在\S{1,3}个单元格", r"单元格的输出不"},
    "ru": {r"не сравнива", r"разнесен\w* по \w+ ячейк"},
}
INTERFACE_RULES = {lang: re.compile("|".join(p for p in patterns if p not in ABOUT_CELLS[lang]), re.IGNORECASE)
                   for lang, patterns in HARNESS.items()}

FENCED = re.compile(r"```.*?```", re.S)
URL = re.compile(r"https?://\S+")


def harness_talk(lang, text, rules=RULES):
    """The phrases of ``text`` (prose in ``lang``) that talk about the test harness."""
    clean = URL.sub(" ", FENCED.sub(" ", text))
    return [m.group(0) for m in rules[lang].finditer(clean)]


def learner_prose():
    """(where, lang, text) of every Markdown cell and translated comment of the chapter and exercise
    sources, and of every quiz's question, answers and explanations."""
    for where, lang, text, kind in source_texts():
        if where.startswith(("src/chapters/", "src/solutions/", "src/quizzes/")):
            yield where, lang, text


def test_every_language_has_rules():
    assert set(RULES) == set(INTERFACE_RULES) == set(ABOUT_CELLS) == set(LANGUAGES)
    for lang, patterns in ABOUT_CELLS.items():      # a pattern renamed in HARNESS is not silently kept
        assert patterns <= set(HARNESS[lang]), (lang, patterns - set(HARNESS[lang]))


def test_the_check_finds_what_it_looks_for():
    """Negative control: sentences the reviews quoted, and what may stay."""
    caught = {
        "en": ["it imports neither NumPy nor the rest of `lib` (a test checks this)",
               "how `make bench` measures more carefully is written in `bench/attention_cache.py`",
               "(`tests/test_plain_python.py` checks this)",
               "The values are printed rounded to 12 significant digits, which every machine prints alike.",
               "Because each run costs eight times as much, the five runs below are spread over three cells.",
               "timings differ from machine to machine, so this cell's output is not compared",
               "Every number on the pages is computed by the code next to it and checked by the tests."],
        "zh": ["既不导入 NumPy，也不导入 `lib` 的其他部分（有测试检查这一点）", "在任何机器上都一样",
               "用时因机器而异，所以这个单元格的输出不参与比对", "下面五次训练分在三个单元格里",
               "页面上的每个数字都由旁边的代码算出，并由测试逐一核对。"],
        "ru": ["и так они выглядят на любой машине", "поэтому пять запусков ниже разнесены по трём ячейкам",
               "`make bench` сравнивает по скорости PyTorch",
               "Каждое число на страницах вычисляет код, стоящий рядом, а тесты его проверяют."],
    }
    for lang, sentences in caught.items():
        for sentence in sentences:
            assert harness_talk(lang, sentence), (lang, sentence)
    fine = {"en": "Run the `check(...)` cell below; the grader adds hidden tests on random data.",
            "zh": "运行下面的 `check(...)` 单元格；评分程序还会加上隐藏的测试。",
            "ru": "Запустите ячейку `check(...)` ниже; система оценивания добавит скрытые тесты."}
    for lang, sentence in fine.items():
        assert not harness_talk(lang, sentence), (lang, sentence)
    assert not harness_talk("en", "```bash\nmake test\n```")             # fenced code is not prose


def test_the_glossary_names_what_the_check_rejects():
    """docs/glossary.md's rule once named only `tests/…` and `make bench` of the suite and the benchmarks, though
    HARNESS also rejects `make test`, `make mutants`, `bench/…`, a test file and "a test checks this" (read82 G C2).
    Every example the rule gives is rejected here, and every English pattern about the tests or the benchmarks
    (each alternative of a group) is matched by the rule's words, without code font; the rule points to HARNESS."""
    page = " ".join((ROOT / "docs" / "glossary.md").read_text(encoding="utf-8").split())
    rule = page[page.index("* **The prose talks to the learner, never about the test harness**"):]
    rule = rule[:rule.index("The interface texts follow the same rule")]
    listed = rule[rule.index("never speak of the machinery that checks the course:"):rule.index("`HARNESS` in that test")]
    assert "`HARNESS` in that test lists the phrases it rejects in each language." in rule
    examples = [("en", code or quoted) for code, quoted in re.findall(r"`([^`]+)`|\"([^\"]+)\"", listed)]
    examples += [("zh", e) for e in re.findall(r"[\u4e00-\u9fff]+", listed)]
    examples += [("ru", e) for e in re.findall(r"«([^»]+)»", listed)]
    assert len(examples) >= 12 and {lang for lang, _ in examples} == set(LANGUAGES), examples
    for lang, example in examples:
        assert harness_talk(lang, example), (lang, example)
    words = re.sub(r"\]\([^)]*\)", "]", listed.replace("`", ""))
    about_tests = [p for p in HARNESS["en"] if "test" in p or "bench" in p]
    assert len(about_tests) >= 6, about_tests
    for pattern in about_tests:
        group = re.search(r"\(\?:([^()]*)\)", pattern)
        for one in (group.group(1).split("|") if group else [None]):
            alternative = pattern if one is None else pattern[:group.start()] + one + pattern[group.end():]
            assert re.search(alternative, words, re.IGNORECASE), (alternative, words)
    # negative control: the old rule's list misses `make test`, a test file and "a test checks"
    old = "nbval or the outputs it compares; tests/… or make bench; \"every machine\" printing alike"
    assert not all(re.search(p, old, re.IGNORECASE) for p in about_tests)


TEXTS = list(learner_prose())
INTERFACE = [(where, lang, text) for where, lang, text, _ in message_texts()]


def test_the_prose_was_read():
    assert {lang for _, lang, _ in TEXTS} == set(LANGUAGES) and len(TEXTS) > 1000
    assert any(where.startswith("src/quizzes/") for where, _, _ in TEXTS), "no quiz text was read"
    assert {lang for _, lang, _ in INTERFACE} == set(LANGUAGES) and len(INTERFACE) > 1000
    assert any("[site." in where for where, _, _ in INTERFACE), "the site's interface texts were not read"


def test_the_interface_rules_leave_a_learners_own_comparison_alone():
    """A diagnosis tells a learner what their code does not compare: not harness talk there; the rest is."""
    assert not harness_talk("en", "the last row of the prefix is not compared", INTERFACE_RULES)
    assert not harness_talk("ru", "первая позиция не сравнивается", INTERFACE_RULES)
    assert harness_talk("en", "Checked against the claim (a test checks this).", INTERFACE_RULES)
    assert harness_talk("zh", "运行 make test 看看", INTERFACE_RULES)
    assert harness_talk("ru", "см. tests/test_quizzes.py", INTERFACE_RULES)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_harness_talk_in_the_notebooks(lang):
    found = [f"{where}: {phrase!r}" for where, text_lang, text in TEXTS if text_lang == lang
             for phrase in harness_talk(lang, text)]
    assert not found, ("the learner's prose talks about the test harness (say it in a comment of the "
                       "source file, outside the cell, or in CONTRIBUTING.md):\n" + "\n".join(found))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_harness_talk_in_the_interface_texts(lang):
    found = [f"{where}: {phrase!r}" for where, text_lang, text in INTERFACE if text_lang == lang
             for phrase in harness_talk(lang, text, INTERFACE_RULES)]
    assert not found, ("an interface text a learner or an instructor reads talks about the course's test "
                       "harness:\n" + "\n".join(found))
