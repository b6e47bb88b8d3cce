"""§7's five-seed tables show what the code asserts, in every language.

A printed output stays language-neutral (nbval compares it in every language), so §7 shows
the results of its ten training runs as Markdown tables with headers in the page's language.
Markdown is not executed: nothing would notice if a number in it went stale.  So the code
cell before the tables asserts every row as the tables show it, one string per row:

    assert shown(True, "held") == "0.7 0.7 0.7 0.7 0.7"

and this test reads those asserts (``shown(causal, key, ...) == "..."``) and checks the Markdown
cell that follows, in zh, en and ru: one table per value of ``causal`` (True first), its
header the five seeds, its rows the asserted rows in the asserts' order, every value equal once
written the language-neutral way (a Russian decimal comma is a point, no-break spaces go).
A unit such as % goes in the row's label, and no value is longer than 3 characters: at 360 px
the site's table cells are about 46 px wide for 3 characters, and a Russian label such as
«потери на корпусе» needs about 90 px, so five columns of 4 characters (0,73) do not fit.
The Markdown before that code cell defines the rows (``* **label**: ...``); every label it
defines on its own is a row of both tables, unit aside.
"""

import ast
import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402

NOTEBOOK = "07_decoder.ipynb"
ROW = re.compile(r"^\|(.*)\|\s*$")
RULE = re.compile(r"^\|[\s:|-]+\|\s*$")


def _text(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def asserted_rows(code):
    """[(causal, key, "v0 v1 v2 v3 v4")] of the ``assert shown(...) == ...`` lines of ``code``."""
    rows = []
    for node in ast.walk(ast.parse(code)):
        if not isinstance(node, ast.Assert) or not isinstance(node.test, ast.Compare):
            continue
        call, (right,) = node.test.left, node.test.comparators
        if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "shown"):
            continue
        causal, key = (ast.literal_eval(arg) for arg in call.args[:2])
        # the expected string: a literal, or " ".join([...] * 5)
        value = eval(compile(ast.Expression(right), "<assert>", "eval"), {"__builtins__": {}})
        rows.append((node.lineno, causal, key, value))
    return [row[1:] for row in sorted(rows)]


def markdown_tables(text):
    """Every Markdown table of ``text``: a list of rows, each a list of its cells' texts."""
    tables, current = [], None
    for line in text.splitlines():
        m = ROW.match(line.strip())
        if not m:
            current = None
            continue
        if RULE.match(line.strip()):
            continue
        if current is None:
            current = []
            tables.append(current)
        current.append([cell.strip() for cell in m.group(1).split("|")])
    return tables


def neutral(value):
    """A shown value written the language-neutral way: 0,73 → 0.73 (no-break spaces dropped)."""
    value = re.sub(r"[\u00a0\u202f\u2009 ]", "", value)
    return re.sub(r"(?<=\d),(?=\d)", ".", value)


MOST_CHARACTERS = 3


def table_problems(rows, text, seeds=5):
    """What in the Markdown ``text`` differs from the asserted ``rows`` (see the module docstring)."""
    tables = markdown_tables(text)
    groups = []
    for causal, key, value in rows:
        if not groups or groups[-1][0] != causal:
            groups.append((causal, []))
        groups[-1][1].append((key, value.split(" ")))
    if len(tables) != len(groups):
        return [f"{len(tables)} table(s) for {len(groups)} groups of asserted rows"]
    found = []
    for table, (causal, expected) in zip(tables, groups):
        header, body = table[0], table[1:]
        if [neutral(c) for c in header[1:]] != [str(s) for s in range(seeds)]:
            found.append(f"causal={causal}: the header is not the seeds 0 to {seeds - 1}: {header}")
        if len(body) != len(expected):
            found.append(f"causal={causal}: {len(body)} rows shown, {len(expected)} asserted")
        for row, (key, values) in zip(body, expected):
            if [neutral(c) for c in row[1:]] != values:
                found.append(f"causal={causal}, {key} ({row[0]!r}): shown {row[1:]}, asserted {values}")
            wide = [c for c in row[1:] if len(c) > MOST_CHARACTERS]
            if wide:
                found.append(f"causal={causal}, {key}: {wide} longer than {MOST_CHARACTERS} characters: "
                             "five columns no longer fit a 360 px screen")
    return found


def cells(lang):
    path = ROOT / "chapters" / lang / NOTEBOOK
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def the_tables(lang):
    """(code of the cell that asserts the rows, text of the Markdown cell after it)."""
    nb = cells(lang)
    for i, cell in enumerate(nb):
        if cell["cell_type"] == "code" and "def shown(" in _text(cell):
            after = nb[i + 1]
            assert after["cell_type"] == "markdown", "the tables must follow the cell that asserts them"
            return _text(cell), _text(after)
    raise AssertionError(f"chapters/{lang}/{NOTEBOOK}: no cell defines shown()")


def test_the_check_finds_what_it_looks_for():
    """Negative control: a stale value, a lost row and swapped tables are caught; a decimal comma is not a difference."""
    code, text = the_tables("en")
    rows = asserted_rows(code)
    assert len(rows) == 19 and {causal for causal, _, _ in rows} == {True, False}
    assert not table_problems(rows, text)
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("| ") and line[2:3].isalpha()
                 and i > 0 and lines[i - 1].startswith("|:"))
    cells = lines[first].split("|")
    stale = "|".join(cells[:2] + [" 9.99 "] + cells[3:])
    assert table_problems(rows, "\n".join(lines[:first] + [stale] + lines[first + 1:]))
    assert table_problems(rows, "\n".join(lines[:first] + lines[first + 1:]))
    blocks = text.split("\n\n")
    one, two = (i for i, block in enumerate(blocks) if block.startswith("|"))
    blocks[one], blocks[two] = blocks[two], blocks[one]
    assert table_problems(rows, "\n\n".join(blocks))
    ru = re.sub(r"(?<=\d)\.(?=\d)", ",", text)
    assert ru != text and not table_problems(rows, ru)
    wide_rows = [(True, "forced", "0.73 0.72 0.73 0.73 0.73")]
    wide_text = "| seed | 0 | 1 | 2 | 3 | 4 |\n|:--|--:|--:|--:|--:|--:|\n| loss | 0.73 | 0.72 | 0.73 | 0.73 | 0.73 |"
    assert table_problems(wide_rows, wide_text), "a value of 4 characters makes the table too wide"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tables_show_the_asserted_values(lang):
    code, text = the_tables(lang)
    rows = asserted_rows(code)
    assert rows == asserted_rows(the_tables("en")[0]), "the code is the same in every language"
    found = table_problems(rows, text)
    assert not found, f"chapters/{lang}/{NOTEBOOK}:\n" + "\n".join(found)


def defined_terms(lang):
    """The bold terms ``* **term**: ...`` of the Markdown cells right before the cell that asserts the rows."""
    nb = cells(lang)
    at = next(i for i, cell in enumerate(nb) if cell["cell_type"] == "code" and "def shown(" in _text(cell))
    terms = []
    while at > 0 and nb[at - 1]["cell_type"] == "markdown":
        at -= 1
        terms = re.findall(r"^\* \*\*(.+?)\*\*", _text(nb[at]), re.M) + terms
    return terms


UNIT = re.compile(r"\s*(,\s*%|（%）|\(%\))$")


def undefined_rows(terms, text):
    """The single terms (no … and no enumeration) that are missing from a table of ``text``: each
    such row is shown for both values of ``causal``."""
    single = [t for t in terms if "…" not in t and not re.search(r"[,、]", t)]
    found = []
    for n, table in enumerate(markdown_tables(text)):
        labels = {UNIT.sub("", row[0]) for row in table[1:]}
        found += [(n, t) for t in single if t not in labels]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_defined_row_is_a_row_of_the_tables(lang):
    """A row's label is written twice, where the text defines it and in the tables: a label changed
    in one place only (say «повторяет новый вход 3» in the definition, the old wording in a table) is caught."""
    terms = defined_terms(lang)
    assert len(terms) >= 5, f"chapters/{lang}/{NOTEBOOK}: the row definitions are not found: {terms}"
    text = the_tables(lang)[1]
    assert not undefined_rows(terms, text), (lang, undefined_rows(terms, text))
    changed = text.replace(terms[3], "x", 1)
    assert undefined_rows(terms, changed), "negative control: a label changed in one table only"
