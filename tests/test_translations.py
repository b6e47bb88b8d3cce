"""Translations cannot drift: a cell whose text changed in one language but not
in the others is named until a translator confirms the three agree again
(tools/translations.py; CONTRIBUTING.md, "Translations that cannot drift")."""

import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import translations  # noqa: E402
from tools.nbsource import Source  # noqa: E402

SOURCES = translations.sources([])


@pytest.mark.parametrize("source", SOURCES, ids=[f"{p.parent.name}/{p.name}" for p in SOURCES])
def test_every_translated_cell_is_confirmed(source):
    stale = translations.stale_cells(source)
    assert not stale, "translations not confirmed since a change:\n" + "\n".join(translations.describe(source, stale))


def _cells(md_texts):
    src = Source()
    for zh, en, ru in md_texts:
        src.md(zh=zh, en=en, ru=ru)
    return src.cells


def test_a_change_in_one_language_names_that_language(tmp_path, monkeypatch):
    """The mechanism itself: edit en only -> en named as changed, zh/ru as stale; confirm clears it."""
    source = tmp_path / "src" / "chapters" / "99_demo.py"
    source.parent.mkdir(parents=True)
    source.write_text('md(zh="甲", en="one", ru="один")\nmd(zh="乙", en="two", ru="два")\n', encoding="utf-8")
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    monkeypatch.setattr(translations, "LOCKS", tmp_path / "src" / "translations")
    assert [c for _, _, c in translations.stale_cells(source)] == [None, None]     # never confirmed
    translations.confirm(source)
    assert translations.stale_cells(source) == []
    # a translator's edit in English only
    source.write_text('md(zh="甲", en="one!", ru="один")\nmd(zh="乙", en="two", ru="два")\n', encoding="utf-8")
    stale = translations.stale_cells(source)
    assert stale == [(0, "one!", ["en"])]
    message = "\n".join(translations.describe(source, stale))
    assert "en changed" in message and "zh/ru may be stale" in message and "cell 0" in message
    # inserting a cell in front does not make the others stale (records match by content)
    source.write_text('md(zh="新", en="new", ru="новый")\nmd(zh="甲", en="one!", ru="один")\n'
                      'md(zh="乙", en="two", ru="два")\n', encoding="utf-8")
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, None), (1, ["en"])]
    translations.confirm(source, [1])
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, None)]
    translations.confirm(source)
    assert translations.stale_cells(source) == []
    assert len(translations.read_lock(source)) == 3            # confirming the file drops old records


def test_translated_comments_are_part_of_what_is_confirmed(tmp_path, monkeypatch):
    source = tmp_path / "src" / "chapters" / "98_demo.py"
    source.parent.mkdir(parents=True)
    code = 'code("""\n#zh 缩放\n#en scale\n#ru масштаб\nx = 1\n""")\n'
    source.write_text(code, encoding="utf-8")
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    monkeypatch.setattr(translations, "LOCKS", tmp_path / "src" / "translations")
    translations.confirm(source)
    source.write_text(code.replace("x = 1", "x = 2"), encoding="utf-8")       # code only: still confirmed
    assert translations.stale_cells(source) == []
    source.write_text(code.replace("#ru масштаб", "#ru масштабируем"), encoding="utf-8")
    assert [c for _, _, c in translations.stale_cells(source)] == [["ru"]]
