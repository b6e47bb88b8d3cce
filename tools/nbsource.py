"""The format of a trilingual notebook source (``src/<kind>/<name>.py``).

A source file is plain Python that calls two functions, in reading order:

    md(zh="...", en="...", ru="...")      # one Markdown cell, in all three languages
    code("...", tags=("nbval-ignore-output",))   # one code cell, shared by all three

Code cells are written once, so the three notebooks cannot differ in code;
only the Markdown and the comments differ.

Comments in code are translated in place (see :func:`localize_code`)::

    #zh 目标 t 就是输入 t + 1
    #en target t is input t + 1
    #ru целевая метка t равна входу t + 1
    x = f(y)  #zh 中文 #en English #ru русский

In the zh notebook the first group becomes ``# 目标 t 就是输入 t + 1`` and the
trailing comment ``# 中文``; the other lines are dropped.  A comment that is
not tagged stays as it is in all three languages, so it must be language-neutral
(a shape such as ``# (B, H, T, d)``); ``tests/test_language_parity.py`` checks this.

``code(..., alt=dict(zh=..., en=..., ru=...))`` gives the images the cell
outputs an alt text in each language (cell metadata ``mystnb.image.alt``, which
the site puts on the ``<img>``).  ``{{lang}}`` in a code cell becomes the
notebook's language code (``"{{lang}}"`` -> ``"ru"``), the one place where the
code of the three notebooks may differ.  ``tools/build_notebooks.py`` turns a source into
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

A solution whose function is also the grader's reference answer is written
once, in grading/references.py, and the source takes it from there:
``code(reference_cell("leak_sweep"))`` (see :func:`reference_cell`).
"""

import ast
import io
import pathlib
import re
import textwrap
import tokenize
from dataclasses import dataclass, field, replace

from course_i18n import LANGUAGES


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
    metadata: dict = field(default_factory=dict)        # the same in every language
    lang_metadata: dict = field(default_factory=dict)   # language -> extra metadata (alt text)
    source: str = ""                                    # a code cell as written, tagged comments included


class Source:
    def __init__(self):
        self.cells = []

    def md(self, *, tags=(), **texts):
        """One Markdown cell: ``md(zh=..., en=..., ru=...)``, a text for every language of course_i18n."""
        for lang in LANGUAGES:
            if not isinstance(texts.get(lang), str) or not texts[lang].strip():
                raise ValueError(f"markdown cell {len(self.cells)} has no {lang} text")
        unknown = sorted(set(texts) - set(LANGUAGES))
        if unknown:
            raise ValueError(f"markdown cell {len(self.cells)}: {', '.join(unknown)} is not a language of the course "
                             f"({', '.join(LANGUAGES)})")
        self.cells.append(Cell("markdown", {k: _clean(v) for k, v in texts.items()}, tuple(tags)))

    def code(self, source, tags=(), alt=None, **metadata):
        where = f"code cell {len(self.cells)}"
        text = _clean(source)
        texts = {lang: localize_code(text, lang, where) for lang in LANGUAGES}
        lang_metadata = {}
        if alt is not None:
            if not isinstance(alt, dict) or set(alt) != set(LANGUAGES):
                raise ValueError(f"{where}: alt must be a dict with a text per language ({', '.join(LANGUAGES)}), "
                                 f"got {alt!r}")
            for lang in LANGUAGES:
                if not isinstance(alt[lang], str) or not alt[lang].strip():
                    raise ValueError(f"{where}: alt text for {lang} is empty")
                lang_metadata[lang] = {"mystnb": {"image": {"alt": " ".join(alt[lang].split())}}}
        self.cells.append(Cell("code", texts, tuple(tags), metadata, lang_metadata, text))


def _clean(text):
    return textwrap.dedent(text).strip("\n")


LANG_PLACEHOLDER = "{{lang}}"
_LANGUAGE_CODE = "|".join(LANGUAGES)
_TAG = re.compile(rf"#({_LANGUAGE_CODE}) ")
_TRAILING_PART = re.compile(rf"\s*#({_LANGUAGE_CODE}) ")


def _comments(text):
    """(row, column, comment text) of every comment token; row counts from 0."""
    try:
        return [(tok.start[0] - 1, tok.start[1], tok.string)
                for tok in tokenize.generate_tokens(io.StringIO(text + "\n").readline)
                if tok.type == tokenize.COMMENT]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # IPython syntax or unfinished code: fall back to a line-wise search
        found = []
        for row, line in enumerate(text.splitlines()):
            match = re.search(r"(?:^|\s)(#.*)$", line)
            if match:
                found.append((row, match.start(1), match.group(1)))
        return found


def tagged_parts(comment, where="comment"):
    """``"#zh a #en b #ru c"`` -> {"zh": "a", "en": "b", "ru": "c"}; an untagged comment -> None."""
    if not _TAG.match(comment):
        return None
    pieces = _TRAILING_PART.split(comment)       # ['', 'zh', 'a', 'en', 'b', ...]
    parts = {}
    for lang, piece in zip(pieces[1::2], pieces[2::2]):
        if lang in parts:
            raise ValueError(f"{where}: #{lang} appears twice in one comment: {comment!r}")
        parts[lang] = piece.strip()
    return parts


def localize_code(text, lang, where="code cell"):
    """The code cell as the ``lang`` notebook shows it (see the module docstring).

    A run of full-line tagged comments at one indentation must hold every
    language; a trailing tagged comment must hold all three in one line.
    """
    lines = text.splitlines()
    keep = [True] * len(lines)
    group, group_indent = {}, None

    def close_group(row):
        if group and set(group) != set(LANGUAGES):
            missing = ", ".join(sorted(set(LANGUAGES) - set(group)))
            raise ValueError(f"{where}, line {row}: a translated comment has no {missing} line "
                             f"(write #zh, #en and #ru lines together)")
        group.clear()

    last_row = -2
    for row, col, comment in _comments(text):
        parts = tagged_parts(comment, f"{where}, line {row + 1}")
        full_line = not lines[row][:col].strip()
        if parts is None or not full_line or row != last_row + 1 or lines[row][:col] != group_indent:
            close_group(row + 1)
        if parts is None:
            continue
        if full_line:
            if len(parts) != 1:
                raise ValueError(f"{where}, line {row + 1}: a full-line translated comment holds one "
                                 f"language per line, got {comment!r}")
            (tag, body), = parts.items()
            group.setdefault(tag, []).append(body)
            group_indent, last_row = lines[row][:col], row
            keep[row] = tag == lang
            if keep[row]:
                lines[row] = f"{group_indent}# {body}".rstrip()
        else:
            if set(parts) != set(LANGUAGES):
                raise ValueError(f"{where}, line {row + 1}: a trailing translated comment needs "
                                 f"#zh, #en and #ru in one line, got {comment!r}")
            lines[row] = f"{lines[row][:col]}# {parts[lang]}".rstrip()
    close_group(len(lines))
    out = "\n".join(line for line, k in zip(lines, keep) if k)
    return out.replace(LANG_PLACEHOLDER, lang)


def untranslated_prose_comments(text):
    """Untagged comments of a code cell as written that hold words of one language.

    Language-neutral comments stay allowed: shapes, symbols, numbers, the
    answer markers, tool directives.
    """
    flagged = []
    for _, _, comment in _comments(text):
        if _TAG.match(comment):
            continue
        body = comment.lstrip("#").strip()
        if body in (SOLUTION_BEGIN.lstrip("# "), SOLUTION_END.lstrip("# "), "TODO") or body.startswith(("noqa", "type:")):
            continue
        words = re.findall(r"[A-Za-z]{3,}", body)
        # a lone character such as "# 春" names a token; two CJK characters or any Cyrillic word is prose
        if re.search(r"[\u0400-\u04ff]{2}|[\u3400-\u9fff]{2}", body) or len(words) >= 2:
            flagged.append(comment)
    return flagged


REFERENCES = pathlib.Path(__file__).resolve().parent.parent / "grading" / "references.py"


def reference_cell(name):
    """The source of the function ``name`` in grading/references.py, for the code cell of a solved notebook.

    A reference answer is written once, there; the solution source says
    ``code(reference_cell("leak_sweep"))`` instead of writing it again.
    """
    text = REFERENCES.read_text(encoding="utf-8")
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            lines = text.splitlines()
            end = node.end_lineno
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "\t"))):
                end += 1                        # trailing comments (# END SOLUTION) belong to the function
            return "\n".join(lines[node.lineno - 1:end]).rstrip()
    raise ValueError(f"grading/references.py defines no function {name!r}")


def load(path):
    """Execute a source file and return its cells."""
    source = Source()
    namespace = {"md": source.md, "code": source.code, "reference_cell": reference_cell, "__file__": str(path)}
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
            cell = replace(cell, text={lang: exercise_code(cell.text[lang]) for lang in LANGUAGES})
        result.append((i, cell))
    return result
