"""One maths notation in the prose of every chapter and exercise notebook: LaTeX between dollars.

For each Markdown cell of src/chapters/ and src/solutions/, in each language, with code spans
and fenced code taken out: the dollars pair up, no LaTeX braces (``e^{1/2}``) stand outside
the dollars where the site would print them as they are, and no formula is written in
plain-text symbols (``q·k/√d``, ``j ≤ i``, ``W_O``, ``B×T×D``, ``exp(0)``) beside the
LaTeX of the other sections.
"""

import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from conftest import toc_pages  # noqa: E402
from tools.nbsource import LANGUAGES, load  # noqa: E402

SOURCES = sorted((ROOT / "src" / "chapters").glob("*.py")) + sorted((ROOT / "src" / "solutions").glob("*.py"))

CODE = re.compile(r"```.*?```|`[^`\n]+`|!\[[^\]]*\]\([^)]*\)", re.S)     # code spans, fences, images
MATH = re.compile(r"\$\$.*?\$\$|\$[^$]+\$", re.S)
PLAIN_MATH = re.compile(
    r"[√×≤≥≈∞²³⁹₀₁₂₃ᵢθℓ]"           # symbols that belong in $...$
    r"|(?<![\u4e00-\u9fff])·|·(?![\u4e00-\u9fff])"   # a product q·k; between two hanzi a name's separator
    r"|\b[A-Za-z]_[A-Za-z0-9{]"       # a subscript: W_O, T_q, θ_k
    r"|\bT[qk]\b"                     # Tq, Tk
    r"|\b(?:exp|softmax|ln|max)\(|\bmax\s?\||\bln \d"   # functions written out
    r"|\b[A-Z]\[[\w, ]+\]")           # an indexed matrix: X[2], P[o]


def markdown(path):
    for number, cell in enumerate(load(path)):
        if cell.kind == "markdown":
            for lang in LANGUAGES:
                yield f"{path.relative_to(ROOT)} cell {number} ({lang})", CODE.sub(" ", cell.text[lang])


CELLS = [pytest.param(where, text, id=where) for path in SOURCES for where, text in markdown(path)]


def test_every_source_has_markdown():
    """The sources are those of the chapter and solution pages of _toc.yml (an exercise page shares its solution's)."""
    assert SOURCES == [ROOT / "src" / folder / f"{name}.py" for folder, name in sorted(toc_pages())
                       if folder != "exercises"] and len(CELLS) > 300


@pytest.mark.parametrize("where, text", CELLS)
def test_the_dollars_pair_up_and_every_formula_is_latex(where, text):
    text = text.replace(r"\$", " ")
    outside = MATH.sub(" ", text)
    assert "$" not in outside, f"{where}: an unpaired $ near {outside[outside.index('$') - 40:][:80]!r}"
    braces = re.search(r".{0,30}[\^_]\{.{0,30}", outside)
    assert not braces, f"{where}: LaTeX outside the dollars: {braces.group(0)!r}"
    plain = PLAIN_MATH.search(outside)
    assert not plain, f"{where}: a formula in plain text: {outside[max(0, plain.start() - 30):plain.end() + 30]!r}"


def test_the_checks_catch_what_they_name():
    outside = MATH.sub(" ", CODE.sub(" ", "the score $q\\cdot k$ and q·k/√d, W_O, `x_y`, e^{1/2}"))
    assert PLAIN_MATH.findall(outside) == ["·", "√", "W_O"] and re.search(r"\^\{", outside)
    assert "$" in MATH.sub(" ", "one $x$ and one lone $ sign")
