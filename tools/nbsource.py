"""The format of a trilingual notebook source (``src/<kind>/<name>.py``).

A source file is plain Python that calls two functions, in reading order:

    md(zh="...", en="...", ru="...")      # one Markdown cell, in all three languages
    code("...", tags=("nbval-ignore-output",))   # one code cell, shared by all three

Code cells are written once, so the three notebooks cannot differ in code;
only the Markdown differs.  ``tools/build_notebooks.py`` turns a source into
``<kind>/{zh,en,ru}/<name>.ipynb`` and executes it.

Exercise sources (``src/solutions/exNN_name.py``) are written *solved*.  In a
code cell, the lines of an answer sit between two marker lines::

    # BEGIN SOLUTION
    return key_position <= query_position
    # END SOLUTION

and a Markdown cell that explains an answer carries the tag ``solution``; one
meant only for the exercise (its title) carries the tag ``exercise``.
The solved notebook (``solutions/``, see :func:`solution_cells`) drops the
``exercise`` cells; the exercise notebook (``exercises/``, see
:func:`exercise_cells`) drops the ``solution`` cells and replaces every marked
block by one stub line, :data:`STUB`, at the block's indentation.  Both come from the same source, so they cannot drift apart.
"""

import textwrap
from dataclasses import dataclass, field, replace

LANGUAGES = ("zh", "en", "ru")

SOLUTION_BEGIN = "# BEGIN SOLUTION"
SOLUTION_END = "# END SOLUTION"
SOLUTION_TAG = "solution"              # a Markdown cell shown only in the solved notebook
EXERCISE_TAG = "exercise"              # a Markdown cell shown only in the exercise notebook
STUB = "raise NotImplementedError  # TODO"


@dataclass
class Cell:
    kind: str                      # "markdown" or "code"
    text: dict                     # language -> source (code: the same text for every language)
    tags: tuple = ()
    metadata: dict = field(default_factory=dict)


class Source:
    def __init__(self):
        self.cells = []

    def md(self, *, zh, en, ru, tags=()):
        texts = {"zh": zh, "en": en, "ru": ru}
        for lang, text in texts.items():
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"markdown cell {len(self.cells)} has no {lang} text")
        self.cells.append(Cell("markdown", {k: _clean(v) for k, v in texts.items()}, tuple(tags)))

    def code(self, source, tags=(), **metadata):
        text = _clean(source)
        self.cells.append(Cell("code", {lang: text for lang in LANGUAGES}, tuple(tags), metadata))


def _clean(text):
    return textwrap.dedent(text).strip("\n")


def load(path):
    """Execute a source file and return its cells."""
    source = Source()
    namespace = {"md": source.md, "code": source.code, "__file__": str(path)}
    exec(compile(open(path, encoding="utf-8").read(), str(path), "exec"), namespace)
    if not source.cells:
        raise ValueError(f"{path} defines no cells")
    return source.cells


def solution_blocks(text):
    """The marked answer blocks of a code cell: list of (indent, [lines])."""
    blocks, current, indent = [], None, ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped == SOLUTION_BEGIN:
            if current is not None:
                raise ValueError(f"line {number}: {SOLUTION_BEGIN} inside an open block")
            current, indent = [], line[:len(line) - len(line.lstrip())]
        elif stripped == SOLUTION_END:
            if current is None:
                raise ValueError(f"line {number}: {SOLUTION_END} without {SOLUTION_BEGIN}")
            if not any(l.strip() for l in current):
                raise ValueError(f"line {number}: an empty solution block")
            blocks.append((indent, current))
            current = None
        elif current is not None:
            current.append(line)
    if current is not None:
        raise ValueError(f"{SOLUTION_BEGIN} is never closed")
    return blocks


def exercise_code(text):
    """A code cell as the learner sees it: every marked block becomes one STUB line."""
    solution_blocks(text)                     # validates the markers
    out, inside = [], False
    for line in text.splitlines():
        stripped = line.strip()
        if stripped == SOLUTION_BEGIN:
            inside = True
            out.append(line[:len(line) - len(line.lstrip())] + STUB)
        elif stripped == SOLUTION_END:
            inside = False
        elif not inside:
            out.append(line)
    return "\n".join(out)


def _markdown_only(cells, tag):
    for i, cell in enumerate(cells):
        if tag in cell.tags and cell.kind != "markdown":
            raise ValueError(f"cell {i}: only Markdown cells may be tagged {tag!r}; "
                             f"mark answer lines in code with {SOLUTION_BEGIN} / {SOLUTION_END}")


def solution_cells(cells):
    """(index in the source, cell) for every cell of the solved notebook."""
    _markdown_only(cells, EXERCISE_TAG)
    return [(i, cell) for i, cell in enumerate(cells) if EXERCISE_TAG not in cell.tags]


def exercise_cells(cells):
    """(index in the source, cell) for every cell of the exercise notebook."""
    _markdown_only(cells, SOLUTION_TAG)
    result = []
    for i, cell in enumerate(cells):
        if SOLUTION_TAG in cell.tags:
            continue
        if cell.kind == "code":
            text = exercise_code(cell.text[LANGUAGES[0]])
            cell = replace(cell, text={lang: text for lang in LANGUAGES})
        result.append((i, cell))
    return result
