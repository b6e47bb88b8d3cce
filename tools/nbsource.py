"""The format of a trilingual notebook source (``src/<kind>/<name>.py``).

A source file is plain Python that calls two functions, in reading order:

    md(zh="...", en="...", ru="...")      # one Markdown cell, in all three languages
    code("...", tags=("nbval-ignore-output",))   # one code cell, shared by all three

Code cells are written once, so the three notebooks cannot differ in code;
only the Markdown differs.  ``tools/build_notebooks.py`` turns a source into
``<kind>/{zh,en,ru}/<name>.ipynb`` and executes it.
"""

import textwrap
from dataclasses import dataclass, field

LANGUAGES = ("zh", "en", "ru")


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
