"""No test harness in the learner's prose (CONTRIBUTING.md, "Rules for code cells").

The Markdown and the translated comments of every chapter, exercise and solution notebook,
in every language, talk to the learner about the ideas, never about the machinery that
checks the course: the test suite (`tests/…`, a test file, "a test checks this"), the
benchmarks (`make bench`, `bench/…`), nbval and which outputs it compares, how the
notebooks are split into cells for the tests, or "every machine" printing alike.  A note
for maintainers goes in a Python comment of the source file, outside the cell's string,
or in CONTRIBUTING.md.

Code spans count here (`tests/test_plain_python.py` in backticks is still harness talk);
fenced code and URLs do not.
"""

import re
import sys
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from test_glossary import source_texts  # noqa: E402

HARNESS = {
    "en": [r"\btests?/", r"\btest_\w+\.py", r"\bmake (?:bench|test|mutants)\b", r"\bbench/", r"\bnbval\b",
           r"\ba test checks\b", r"\bevery machine\b",
           r"\bany reasonable machine\b", r"\bfrom machine to machine\b", r"\banother libm\b",
           r"\bspread over \w+ cells\b", r"\b(?:is|are) not compared\b", r"\basserts nothing\b",
           r"\bthis cell's output\b", r"\bignore-output\b"],
    "zh": [r"tests?/", r"test_\w+\.py", r"make (?:bench|test|mutants)", r"bench/", r"nbval", r"有测试检查",
           r"测试会(?:检查|比较)", r"每台机器", r"任何机器", r"因机器而异", r"不参与比对", r"不作比对",
           r"分在\S{1,3}个单元格", r"单元格的输出不"],
    "ru": [r"tests?/", r"test_\w+\.py", r"make (?:bench|test|mutants)", r"bench/", r"nbval",
           r"на (?:каждой|любой|всякой) машине", r"на всех машинах", r"от машины к машине",
           r"не сравнива", r"разнесен\w* по \w+ ячейк", r"(?:это|тест) провер\w+ тест",
           r"\(это проверяет тест\)"],
}
RULES = {lang: re.compile("|".join(patterns), re.IGNORECASE) for lang, patterns in HARNESS.items()}

FENCED = re.compile(r"```.*?```", re.S)
URL = re.compile(r"https?://\S+")


def harness_talk(lang, text):
    """The phrases of ``text`` (prose in ``lang``) that talk about the test harness."""
    clean = URL.sub(" ", FENCED.sub(" ", text))
    return [m.group(0) for m in RULES[lang].finditer(clean)]


def learner_prose():
    """(where, lang, text) of every Markdown cell and translated comment of the chapter and exercise sources."""
    for where, lang, text, kind in source_texts():
        if where.startswith(("src/chapters/", "src/solutions/")):
            yield where, lang, text


def test_every_language_has_rules():
    assert set(RULES) == set(LANGUAGES)


def test_the_check_finds_what_it_looks_for():
    """Negative control: sentences the reviews quoted, and what may stay."""
    caught = {
        "en": ["it imports neither NumPy nor the rest of `lib` (a test checks this)",
               "how `make bench` measures more carefully is written in `bench/attention_cache.py`",
               "(`tests/test_plain_python.py` checks this)",
               "The values are printed rounded to 12 significant digits, which every machine prints alike.",
               "Because each run costs eight times as much, the five runs below are spread over three cells.",
               "timings differ from machine to machine, so this cell's output is not compared"],
        "zh": ["既不导入 NumPy，也不导入 `lib` 的其他部分（有测试检查这一点）", "在任何机器上都一样",
               "用时因机器而异，所以这个单元格的输出不参与比对", "下面五次训练分在三个单元格里"],
        "ru": ["и так они выглядят на любой машине", "поэтому пять запусков ниже разнесены по трём ячейкам",
               "`make bench` сравнивает по скорости PyTorch"],
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


TEXTS = list(learner_prose())


def test_the_prose_was_read():
    assert {lang for _, lang, _ in TEXTS} == set(LANGUAGES) and len(TEXTS) > 1000


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_harness_talk_in_the_notebooks(lang):
    found = [f"{where}: {phrase!r}" for where, text_lang, text in TEXTS if text_lang == lang
             for phrase in harness_talk(lang, text)]
    assert not found, ("the learner's prose talks about the test harness (say it in a comment of the "
                       "source file, outside the cell, or in CONTRIBUTING.md):\n" + "\n".join(found))
