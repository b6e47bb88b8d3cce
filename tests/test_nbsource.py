"""The trilingual source format: translated comments, per-language alt text, {{lang}}."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.build_notebooks import make_notebook  # noqa: E402
from tools.nbsource import (LANGUAGES, Source, exercise_cells, localize_code,  # noqa: E402
                            untranslated_prose_comments)

CELL = '''import numpy as np
#zh 目标 t 就是输入 t + 1
#en target t is input t + 1
#ru целевая метка t равна входу t + 1
x = 1  #zh 一 #en one #ru один
s = "#zh inside a string stays"
lang = "{{lang}}"
y = 2  # (B, T, D)
if x:
    #zh 缩进
    #en indented,
    #en over two lines
    #ru с отступом
    pass'''


def test_each_language_keeps_only_its_own_comments():
    out = {lang: localize_code(CELL, lang) for lang in LANGUAGES}
    assert out["zh"].splitlines()[1:3] == ["# 目标 t 就是输入 t + 1", "x = 1  # 一"]
    assert out["en"].splitlines()[-4:] == ["if x:", "    # indented,", "    # over two lines", "    pass"]
    assert 'lang = "ru"' in out["ru"] and "# с отступом" in out["ru"] and "target" not in out["ru"]
    for lang in LANGUAGES:
        assert 's = "#zh inside a string stays"' in out[lang]
        assert "y = 2  # (B, T, D)" in out[lang]
        assert "{{lang}}" not in out[lang]


@pytest.mark.parametrize("bad, message", [
    ("#zh 甲\n#en a\nx = 1", "no ru line"),
    ("x = 1  #zh 甲 #en a", "needs #zh, #en and #ru"),
    ("#zh 甲 #en a #ru а\nx = 1", "one language per line"),
    ("x = 1  #zh 甲 #en a #ru а #en b", "appears twice"),
])
def test_incomplete_translations_are_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        localize_code(bad, "en", "code cell 3")


def test_untagged_prose_comments_are_found_and_neutral_ones_allowed():
    code = ("x = 1  # the answer of query t\ny = 2  # (B, H, T, d)\n# 中文注释\n"
            "    # BEGIN SOLUTION\nz = 3  #zh 甲 #en tagged prose #ru а\n# max|ΔY[i]|, i = 0..1\n")
    assert untranslated_prose_comments(code) == ["# the answer of query t", "# 中文注释"]


def test_alt_text_reaches_the_notebook_of_each_language_and_exercises_keep_it():
    src = Source()
    src.code("plt.plot([1, 2])\n# BEGIN SOLUTION\nx = 1\n# END SOLUTION",
             alt=dict(zh="一条上升的线", en="a rising line", ru="возрастающая линия"))
    for lang, text in (("zh", "一条上升的线"), ("en", "a rising line"), ("ru", "возрастающая линия")):
        nb = make_notebook(src.cells, lang, "demo")
        assert nb.cells[0].metadata["mystnb"]["image"]["alt"] == text
    (_, exercise), = exercise_cells(src.cells)
    assert "raise NotImplementedError" in exercise.text["ru"]
    assert exercise.lang_metadata["ru"]["mystnb"]["image"]["alt"] == "возрастающая линия"
    with pytest.raises(ValueError, match="alt must be a dict with a text per language"):
        src.code("x = 1", alt="no languages")
    with pytest.raises(ValueError, match="alt text for ru is empty"):
        src.code("x = 1", alt=dict(zh="甲", en="a", ru=" "))


def test_markdown_needs_a_text_in_every_language_and_no_other():
    with pytest.raises(ValueError, match="markdown cell 0 has no ru text"):
        Source().md(zh="甲", en="a")
    with pytest.raises(ValueError, match=r"de is not a language of the course \(zh, en, ru\)"):
        Source().md(zh="甲", en="a", ru="а", de="ein")
