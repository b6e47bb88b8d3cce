"""Every code line of every notebook fits the site's code column: at most 76 columns.

At 1280 px the site shows 77 characters of a code line before it scrolls sideways, so a
line of 76 or fewer is read whole (issue #23).  A line is counted in the columns it takes on
screen: a wide East Asian character, such as a Chinese one, takes two (read65 zh: a line
holding 春雨风 was 76 characters but 79 columns).  Checked in the committed notebooks of
chapters/, exercises/ and solutions/, in every language, since translated comments have
a length of their own in each.  A long call is wrapped; a long trailing comment goes on
the line above (CONTRIBUTING, "Rules for code cells").

The reference answers are written in grading/references.py and copied into the solved
notebooks, and with the answer cut out into the exercise notebooks (tools/nbsource.py,
reference_cell).  Those cells are found by their source and checked in a test of their
own, which holds them to the same 76 characters: a long line there is wrapped in
grading/references.py (whose lines outside the answers the notebooks show may be longer).
"""

import pathlib
import re
import sys
import unicodedata

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from conftest import toc_pages  # noqa: E402
from tools.nbsource import LANGUAGES, exercise_code, load, reference_cell  # noqa: E402

WIDTH = 76
NOTEBOOKS = sorted(p for kind in ("chapters", "exercises", "solutions") for lang in LANGUAGES
                   for p in (ROOT / kind / lang).glob("*.ipynb"))


def reference_sources():
    """The reference answers as the solved and the exercise notebooks show them, per language
    (their comments translated from the catalogue of the solution source that shows them)."""
    found = set()
    for source in (ROOT / "src" / "solutions").glob("*.py"):
        names = re.findall(r'reference_cell\("(\w+)"\)', source.read_text(encoding="utf-8"))
        written = {reference_cell(name) for name in names}
        found |= {form(cell.text[lang]) for cell in load(source) if cell.kind == "code" and cell.source in written
                  for lang in LANGUAGES for form in (str, exercise_code)}
    return found


REFERENCES = reference_sources()


def columns(line):
    """The columns ``line`` takes in a monospaced font: two for each wide or fullwidth character (East Asian width
    W or F, as a Chinese character is), one for every other."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def long_lines(path, references):
    """(cell id, line) of every code line over WIDTH columns; ``references``: check only those cells, else all
    others."""
    found = []
    for cell in nbformat.read(path, as_version=4).cells:
        if cell.cell_type != "code" or (cell.source in REFERENCES) != references:
            continue
        found += [(cell.id, line) for line in cell.source.splitlines() if columns(line) > WIDTH]
    return found


def test_there_are_notebooks_to_check():
    """The notebooks checked are every page of _toc.yml in every language."""
    assert NOTEBOOKS == sorted(ROOT / folder / lang / f"{name}.ipynb" for folder, name in toc_pages()
                               for lang in LANGUAGES) and REFERENCES


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_code_line_fits_the_code_column(path):
    assert long_lines(path, references=False) == []


def test_the_reference_answers_fit_the_code_column_too():
    assert [line for path in NOTEBOOKS for _, line in long_lines(path, references=True)] == []


def test_the_width_check_sees_a_long_line(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1\n" + "y = " + "1 + " * 20 + "1")]
    nbformat.write(nb, tmp_path / "wide.ipynb")
    assert [len(line) for _, line in long_lines(tmp_path / "wide.ipynb", references=False)] == [85]


def test_a_chinese_character_takes_two_columns(tmp_path):
    """A comment of 40 Chinese characters is 42 characters long but 82 columns wide, and it is found; Cyrillic,
    Latin and the course's symbols (ω, −, ×) take one column each."""
    assert columns("# " + "春" * 40) == 82 and columns("# ω − × ё") == 9
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1  # " + "春" * 34 + "\ny = 2  # " + "雨" * 33)]
    nbformat.write(nb, tmp_path / "wide.ipynb")
    assert [columns(line) for _, line in long_lines(tmp_path / "wide.ipynb", references=False)] == [77]
