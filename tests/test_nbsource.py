"""The source format: English prose in src/, its translations from the catalogues (tools/prose.py),
translated comments, per-language alt text, {{lang}}; a missing or fuzzy translation stops the build."""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from prose_catalogues import use_locales, write_translations  # noqa: E402
from tools import build_notebooks  # noqa: E402
from tools.build_notebooks import make_notebook  # noqa: E402
from tools.nbsource import (LANGUAGES, Source, exercise_cells, load, localize_code,  # noqa: E402
                            translated_comments, untranslated_prose_comments)
from tools.prose import ProseError  # noqa: E402

CELL = '''import numpy as np
#en target t is input t + 1
x = 1  #en one
s = "#en inside a string stays"
lang = "{{lang}}"
y = 2  # (B, T, D)
if x:
    #en indented,
    #en over two lines
    pass'''

CELL_TRANSLATIONS = {
    "target t is input t + 1": {"zh": "目标 t 就是输入 t + 1", "ru": "целевая метка t равна входу t + 1"},
    "one": {"zh": "一", "ru": "один"},
    "indented,\nover two lines": {"zh": "缩进", "ru": "с отступом,\nна двух\nстроках"},
}


def _source(tmp_path, monkeypatch, text, translations, fuzzy=()):
    """A chapter source under a temporary src/ whose catalogues hold ``translations``."""
    path = tmp_path / "src" / "chapters" / "99_demo.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    write_translations(use_locales(monkeypatch, tmp_path / "src" / "locales"), path, translations, fuzzy)
    return path


def test_a_run_of_en_lines_is_one_text_and_a_trailing_comment_another():
    comments = translated_comments(CELL)
    assert [c.english for c in comments] == list(CELL_TRANSLATIONS)
    assert [(c.rows, c.full_line) for c in comments] == [([1], True), ([2], False), ([7, 8], True)]


def test_each_language_shows_its_own_comments():
    out = {lang: localize_code(CELL, lang, [CELL_TRANSLATIONS[c.english][lang] if lang != "en" else c.english
                                            for c in translated_comments(CELL)]) for lang in LANGUAGES}
    assert out["zh"].splitlines()[1:3] == ["# 目标 t 就是输入 t + 1", "x = 1  # 一"]
    assert out["en"].splitlines()[-4:] == ["if x:", "    # indented,", "    # over two lines", "    pass"]
    assert out["zh"].splitlines()[-3:] == ["if x:", "    # 缩进", "    pass"]
    assert out["ru"].splitlines()[-5:] == ["if x:", "    # с отступом,", "    # на двух", "    # строках", "    pass"]
    assert 'lang = "ru"' in out["ru"] and "target" not in out["ru"]
    for lang in LANGUAGES:
        assert 's = "#en inside a string stays"' in out[lang]
        assert "y = 2  # (B, T, D)" in out[lang]
        assert "{{lang}}" not in out[lang]


def test_a_trailing_comments_translation_over_two_lines_is_refused():
    """Its second line would stand in the code, uncommented (the cell would not parse): the build stops and
    says which comment, in which language, instead (CONTRIBUTING, "Translated comments")."""
    texts = [CELL_TRANSLATIONS[c.english]["ru"] for c in translated_comments(CELL)]
    texts[1] = "первая строка\nвторая строка"
    with pytest.raises(ProseError, match=r"code cell 4, line 3: the ru text of the trailing comment 'one' has 2 "
                                         r"lines; a trailing comment's translation is one line"):
        localize_code(CELL, "ru", texts, where="code cell 4")


@pytest.mark.parametrize("bad, message", [
    ("#zh 甲\n#en a\nx = 1", "written in English only, tagged #en"),
    ("x = 1  #en a #ru а", "written in English only, tagged #en"),
    ("x = 1  #en a #en b", "appears twice"),
])
def test_a_comment_in_another_language_is_refused(bad, message):
    with pytest.raises(ValueError, match=message):
        translated_comments(bad, "code cell 3")


def test_untagged_prose_comments_are_found_and_neutral_ones_allowed():
    code = ("x = 1  # the answer of query t\ny = 2  # (B, H, T, d)\n# 中文注释\n"
            "    # BEGIN SOLUTION\nz = 3  #en tagged prose\n# max|ΔY[i]|, i = 0..1\n")
    assert untranslated_prose_comments(code) == ["# the answer of query t", "# 中文注释"]


def test_a_source_reads_its_translations_from_the_catalogue(tmp_path, monkeypatch):
    text = f'md("""\n# 1 Title\n""")\ncode("""{CELL}""")\n'
    path = _source(tmp_path, monkeypatch, text, {"# 1 Title": {"zh": "# 1 标题", "ru": "# 1 Заголовок"},
                                                 **CELL_TRANSLATIONS})
    title, cell = load(path)
    assert title.text == {"zh": "# 1 标题", "en": "# 1 Title", "ru": "# 1 Заголовок"}
    assert "x = 1  # один" in cell.text["ru"] and cell.source == CELL
    # what a translator confirms: the Markdown, and the comments of a code cell together
    assert title.prose == [title.text]
    assert cell.prose[0]["zh"] == "目标 t 就是输入 t + 1\n一\n缩进"


def test_alt_text_reaches_the_notebook_of_each_language_and_exercises_keep_it(tmp_path, monkeypatch):
    path = _source(tmp_path, monkeypatch, "", {"a rising\n   line": {"zh": "一条上升的线", "ru": "возрастающая линия"}})
    src = Source(path)
    src.code("plt.plot([1, 2])\n# BEGIN SOLUTION\nx = 1\n# END SOLUTION", alt="a rising\n   line")
    for lang, text in (("zh", "一条上升的线"), ("en", "a rising line"), ("ru", "возрастающая линия")):
        nb = make_notebook(src.cells, lang, "demo")
        assert nb.cells[0].metadata["mystnb"]["image"]["alt"] == text
    (_, exercise), = exercise_cells(src.cells)
    assert "raise NotImplementedError" in exercise.text["ru"]
    assert exercise.lang_metadata["ru"]["mystnb"]["image"]["alt"] == "возрастающая линия"
    with pytest.raises(ValueError, match="alt must be the figure's English alt text"):
        src.code("x = 1", alt=dict(zh="甲", en="a", ru="а"))
    with pytest.raises(ValueError, match="alt must be the figure's English alt text"):
        src.code("x = 1", alt=" ")


def test_markdown_is_written_in_english_only(tmp_path, monkeypatch):
    src = Source(_source(tmp_path, monkeypatch, "", {}))
    with pytest.raises(ValueError, match=r"md\(\) takes the English text as its one argument, not en=, ru=, zh=; "
                                         r"the translations are in src/locales/<lang>/LC_MESSAGES/chapters.po"):
        src.md(zh="甲", en="a", ru="а")
    with pytest.raises(ValueError, match="Markdown cell 0: no English text"):
        src.md("  \n")


@pytest.mark.parametrize("translations, fuzzy, problem", [
    ({"A paragraph.": {"zh": "一段。"}}, (), r"Markdown cell 0 \('A paragraph.'\): the ru translation is missing"),
    ({"A paragraph.": {"zh": "一段。", "ru": ""}}, (), r"Markdown cell 0 \('A paragraph.'\): the ru translation is empty"),
    ({"A paragraph.": {"zh": "一段。", "ru": "Абзац."}}, ("A paragraph.",),
     r"Markdown cell 0 \('A paragraph.'\): the zh translation is marked fuzzy \(its English changed"),
])
def test_the_build_refuses_a_missing_or_fuzzy_translation(tmp_path, monkeypatch, translations, fuzzy, problem):
    """No notebook is written with English standing in for a translation: the builder names the
    source, the English and the language, and writes nothing."""
    path = _source(tmp_path, monkeypatch, 'md("A paragraph.")\ncode("x = 1  #en one")\n',
                   {**translations, "one": {"zh": "一", "ru": "один"}}, fuzzy)
    monkeypatch.setattr(build_notebooks, "ROOT", tmp_path)
    with pytest.raises(SystemExit) as refused:
        build_notebooks.main([str(path), "--no-execute"])
    message = str(refused.value)
    assert "99_demo.py: " in message and "text(s) cannot be given in every language" in message, message
    assert re.search(problem, message), message
    assert "src/locales/" in message and "tools/i18n.py extract, then update" in message
    assert not (tmp_path / "chapters").exists()
    # the stale-translation check still reads what there is (a fuzzy text as the translator left it)
    cells = load(path, strict=False)
    assert cells[1].text["zh"] == "x = 1  # 一"
    with pytest.raises(ProseError):
        load(path)
