"""The format of a notebook source (``src/<kind>/<name>.py``): English prose, code written once.

A source file is plain Python that calls two functions, in reading order:

    md("...")                                        # one Markdown cell, in English
    code("...", tags=("nbval-ignore-output",))     # one code cell, shared by every language

Code cells are written once, so the notebooks of the languages cannot differ in code;
only the Markdown, the comments and the alt texts differ.  The source holds the English
of each (English is the language the sources are written in; Chinese stays the
authoritative language of the content), and every other language reads its text from the
catalogues of :mod:`tools.prose`, ``src/locales/<lang>/LC_MESSAGES/{chapters,solutions}.po``:
``msgctxt`` the source (``chapters/02_heads``), ``msgid`` the English, ``msgstr`` the
translation.  A translation that is missing or fuzzy stops the build with a
:class:`tools.prose.ProseError` naming the source, the English and the language.

A comment in code that the reader should read in their language is tagged ``#en``
(no space after ``#``), as a run of full lines or as one trailing comment::

    #en target t is input t + 1
    #en (the next token)
    x = f(y)  #en English

A run of consecutive full-line ``#en`` comments at one indentation is one text (its lines
joined by newlines in the catalogue); the zh notebook shows its translation there as
``# ...`` lines, however many it has, and the trailing comment as ``# 中文``, on one line (a
translation of it with a line break is refused).  A comment
that is not tagged stays as it is in every language, so it must be language-neutral (a
shape such as ``# (B, H, T, d)``); ``tests/test_language_parity.py`` checks this.

``code(..., alt="...")`` gives the images the cell outputs an alt text, in English here
and translated in the catalogue (cell metadata ``mystnb.image.alt``, which the site puts
on the ``<img>``).  ``{{lang}}`` in a code cell becomes the notebook's language code
(``"{{lang}}"`` -> ``"ru"``), the one place where the code of the notebooks may differ.
``tools/build_notebooks.py`` turns a source into ``<kind>/<lang>/<name>.ipynb`` for every
language and executes it.

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
``code(reference_cell("leak_sweep"))`` (see :func:`reference_cell`); its ``#en``
comments are translated in the catalogue of the source that shows it.
"""

import ast
import functools
import io
import pathlib
import re
import textwrap
import tokenize
from dataclasses import dataclass, field, replace

from course_i18n import LANGUAGES, SOURCE_LANGUAGE
from tools.prose import ProseError, Translations


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
    source: str = ""                                    # a code cell as written, #en comments included
    # what a translator confirms together (tools/translations.py): [{language: text}], the Markdown,
    # or the translated comments of a code cell and apart from them its alt text
    prose: list = field(default_factory=list)


class Source:
    """The cells of one source file, its prose translated from the catalogues (see tools/prose.py)."""

    def __init__(self, path, strict=True, locales=None):
        self.path = pathlib.Path(path)
        self.cells = []
        self.translations = Translations(path, strict=strict, locales=locales)

    def md(self, text=None, *, tags=(), **unknown):
        """One Markdown cell: ``md(r\"\"\"English\"\"\")``; its translations are in the catalogues."""
        where = f"Markdown cell {len(self.cells)}"
        if unknown:
            raise ProseError(f"{self.path}, {where}: md() takes the English text as its one argument, not "
                             f"{', '.join(k + '=' for k in sorted(unknown))}; the translations are in "
                             f"src/locales/<lang>/LC_MESSAGES/{self.translations.domain}.po (tools/prose.py)")
        if not isinstance(text, str) or not text.strip():
            raise ProseError(f"{self.path}, {where}: no English text")
        texts = self.translations.get(_clean(text), where)
        self.cells.append(Cell("markdown", texts, tuple(tags), prose=[texts]))

    def code(self, source, tags=(), alt=None, **metadata):
        where = f"code cell {len(self.cells)}"
        text = _clean(source)
        comments = [self.translations.get(comment.english, f"comment in {where}, line {comment.rows[0] + 1}")
                    for comment in translated_comments(text, f"{self.path}, {where}")]
        # a language with a comment missing has no text; the strict check names it once the file is read
        texts = {lang: None if any(c[lang] is None for c in comments)
                 else localize_code(text, lang, [c[lang] for c in comments], where) for lang in LANGUAGES}
        prose = [_joined(comments)] if comments else []
        lang_metadata = {}
        if alt is not None:
            if not isinstance(alt, str) or not alt.strip():
                raise ProseError(f"{self.path}, {where}: alt must be the figure's English alt text, got {alt!r}")
            alts = self.translations.get(alt, f"alt text of {where}")
            alts = {lang: None if text is None else " ".join(text.split()) for lang, text in alts.items()}
            lang_metadata = {lang: {"mystnb": {"image": {"alt": text}}} for lang, text in alts.items() if text is not None}
            prose.append(alts)
        self.cells.append(Cell("code", texts, tuple(tags), metadata, lang_metadata, text, prose))


def _clean(text):
    return textwrap.dedent(text).strip("\n")


def _joined(texts):
    """One {language: text} of several, one text per line (None for a language that lacks one)."""
    return {lang: None if any(t[lang] is None for t in texts) else "\n".join(t[lang] for t in texts)
            for lang in LANGUAGES}


LANG_PLACEHOLDER = "{{lang}}"
_LANGUAGE_CODE = "|".join(LANGUAGES)
_TAG = re.compile(rf"#({_LANGUAGE_CODE}) ")
_TRAILING_PART = re.compile(rf"\s*#({_LANGUAGE_CODE}) ")


@functools.lru_cache(maxsize=8192)
def _comments(text):
    """(row, column, comment text) of every comment token; row counts from 0.

    Cached: the builders and the tests read the same cells many times, and tokenizing is most of
    the cost of reading a source file."""
    try:
        return tuple((tok.start[0] - 1, tok.start[1], tok.string)
                     for tok in tokenize.generate_tokens(io.StringIO(text + "\n").readline)
                     if tok.type == tokenize.COMMENT)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        # IPython syntax or unfinished code: fall back to a line-wise search
        found = []
        for row, line in enumerate(text.splitlines()):
            match = re.search(r"(?:^|\s)(#.*)$", line)
            if match:
                found.append((row, match.start(1), match.group(1)))
        return tuple(found)


def tagged_parts(comment, where="comment"):
    """``"#zh a #en b"`` -> {"zh": "a", "en": "b"}; an untagged comment -> None."""
    if not _TAG.match(comment):
        return None
    pieces = _TRAILING_PART.split(comment)       # ['', 'zh', 'a', 'en', 'b', ...]
    parts = {}
    for lang, piece in zip(pieces[1::2], pieces[2::2]):
        if lang in parts:
            raise ValueError(f"{where}: #{lang} appears twice in one comment: {comment!r}")
        parts[lang] = piece.strip()
    return parts


@dataclass
class Comment:
    """One translated comment of a code cell: a run of full-line ``#en`` lines, or a trailing one."""
    rows: list             # the rows it occupies (from 0)
    column: int            # where the comment starts on its first row
    full_line: bool
    lines: list            # its English, line by line

    @property
    def english(self):
        return "\n".join(self.lines)


def translated_comments(text, where="code cell"):
    """The :class:`Comment` of every ``#en`` comment of a code cell, in order.

    A run of full-line ``#en`` comments on consecutive rows at one indentation is one
    comment; a comment tagged with another language is refused (its text belongs in the
    catalogue)."""
    lines = text.splitlines()
    found = []
    for row, col, comment in _comments(text):
        parts = tagged_parts(comment, f"{where}, line {row + 1}")
        if parts is None:
            continue
        if set(parts) != {SOURCE_LANGUAGE}:
            raise ProseError(f"{where}, line {row + 1}: a translated comment is written in English only, tagged "
                             f"#{SOURCE_LANGUAGE}; its translations are in the catalogues (tools/prose.py): {comment!r}")
        english = parts[SOURCE_LANGUAGE]
        full_line = not lines[row][:col].strip()
        last = found[-1] if found else None
        if (full_line and last is not None and last.full_line and last.rows[-1] == row - 1
                and last.column == col and lines[last.rows[0]][:col] == lines[row][:col]):
            last.rows.append(row)
            last.lines.append(english)
        else:
            found.append(Comment([row], col, full_line, [english]))
    return found


def localize_code(text, lang, translations=None, where="code cell"):
    """The code cell as the ``lang`` notebook shows it (see the module docstring).

    ``translations``: the text in ``lang`` of each of the cell's :func:`translated_comments`,
    in order (not needed for English).  Every ``#en`` comment becomes ``# ...`` in ``lang``.
    """
    lines = text.splitlines()
    comments = translated_comments(text, where)
    if translations is None and lang == SOURCE_LANGUAGE:
        translations = [c.english for c in comments]
    if translations is None or len(translations) != len(comments):
        raise ValueError(f"{where}: {len(comments)} translated comment(s), but "
                         f"{'no' if translations is None else len(translations)} {lang} text(s) for them")
    shown = {}                                   # first row -> the lines that replace the comment's rows
    for comment, translated in zip(comments, translations):
        if translated is None:
            raise ProseError(f"{where}, line {comment.rows[0] + 1}: no {lang} text for {comment.english!r}")
        start = lines[comment.rows[0]][:comment.column]
        if comment.full_line:
            shown[comment.rows[0]] = [f"{start}# {line}".rstrip() for line in translated.split("\n")]
            shown.update({row: [] for row in comment.rows[1:]})
        elif "\n" in translated:            # its second line would stand in the code, uncommented
            raise ProseError(f"{where}, line {comment.rows[0] + 1}: the {lang} text of the trailing comment "
                             f"{comment.english!r} has {translated.count(chr(10)) + 1} lines; a trailing "
                             f"comment's translation is one line (shorten it, or make the comment full lines)")
        else:
            shown[comment.rows[0]] = [f"{start}# {translated}".rstrip()]
    out = [new for row, line in enumerate(lines) for new in shown.get(row, [line])]
    return "\n".join(out).replace(LANG_PLACEHOLDER, lang)


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
    found = _reference_functions(text).get(name)
    if found is None:
        raise ValueError(f"grading/references.py defines no function {name!r}")
    return found


@functools.lru_cache(maxsize=4)
def _reference_functions(text):
    """{name: source} of the top-level functions of grading/references.py's ``text`` (parsed once per text)."""
    lines = text.splitlines()
    functions = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            end = node.end_lineno
            while end < len(lines) and (not lines[end].strip() or lines[end].startswith((" ", "\t"))):
                end += 1                        # trailing comments (# END SOLUTION) belong to the function
            functions.setdefault(node.name, "\n".join(lines[node.lineno - 1:end]).rstrip())
    return functions


def read(path, strict=True, locales=None):
    """Execute a source file: its :class:`Source`, cells and the English texts asked for.

    ``strict`` (the builders): a translation that is missing or fuzzy raises
    :class:`tools.prose.ProseError`; otherwise it is given as found (None when missing)."""
    source = Source(path, strict=strict, locales=locales)
    namespace = {"md": source.md, "code": source.code, "reference_cell": reference_cell, "__file__": str(path)}
    exec(compile(open(path, encoding="utf-8").read(), str(path), "exec"), namespace)
    if not source.cells:
        raise ValueError(f"{path} defines no cells")
    if strict:
        source.translations.check()
    return source


def load(path, strict=True, locales=None):
    """Execute a source file and return its cells (see :func:`read`)."""
    return read(path, strict, locales).cells


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
