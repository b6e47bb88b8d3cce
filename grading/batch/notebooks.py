"""Reading submitted notebooks, recognising them, and preparing their code.

Nothing here executes student code: notebooks are parsed as data, with size
limits, and every problem becomes a readable sentence (``NotebookInfo.problem``).
"""

import ast
import json
import pathlib
import re

MAX_NOTEBOOK_BYTES = 32 * 1024 * 1024
MAX_CELL_CHARS = 1_000_000

_EX_TOKEN = re.compile(r"(?<![a-z0-9])ex0*(\d{1,2})(?![0-9])", re.IGNORECASE)


class NotebookInfo:
    """A submitted notebook: where it is, what it is, its code cells (or why not)."""

    def __init__(self, path):
        self.path = pathlib.Path(path)
        self.stem = None            # the course notebook it is, e.g. "ex01_allowed_set"
        self.how = ""               # how it was recognised
        self.cells = []             # [(cell number (1-based), code)]
        self.defined = set()        # names of top-level functions
        self.problem = None         # why it cannot be graded
        self.language = None        # zh / en / ru if the metadata or path says so
        self.metadata = {}

    def __repr__(self):
        return f"NotebookInfo({self.path}, stem={self.stem}, cells={len(self.cells)}, problem={self.problem!r})"


def read_notebook(path):
    """Parse ``path`` into a NotebookInfo; never raises for bad content."""
    info = NotebookInfo(path)
    try:
        size = info.path.stat().st_size
        if size > MAX_NOTEBOOK_BYTES:
            info.problem = f"the file is too large to be a notebook ({size // 1048576} MiB)"
            return info
        raw = info.path.read_bytes()
    except OSError as exc:
        info.problem = f"cannot read the file: {exc.strerror or exc}"
        return info
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        info.problem = (f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x} at offset {exc.start}); "
                        "save the notebook again from Jupyter")
        return info
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if hasattr(exc, "lineno") else ""
        info.problem = f"the file is not a notebook: it is not valid JSON{where}"
        return info
    if not isinstance(data, dict) or not isinstance(data.get("cells", data.get("worksheets")), list):
        info.problem = "the file is JSON but not a Jupyter notebook (no cells)"
        return info
    cells = data.get("cells") if isinstance(data.get("cells"), list) else []
    metadata = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
    if not isinstance(data.get("cells"), list):
        # an old format (v3 worksheets): let nbformat upgrade it.  Imported only here:
        # importing nbformat costs seconds (jsonschema), and v4 needs no conversion.
        try:
            import nbformat
            nb = nbformat.reads(text, as_version=4)
            cells, metadata = nb.cells, nb.metadata
        except Exception as exc:
            info.problem = f"the notebook format is not supported ({type(exc).__name__}: {exc})"[:300]
            return info
    number = 0
    for cell in cells:
        if not isinstance(cell, dict):
            continue
        number += 1
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        if isinstance(source, list):
            source = "".join(s for s in source if isinstance(s, str))
        if not isinstance(source, str):
            continue
        if len(source) > MAX_CELL_CHARS:
            source = f"raise MemoryError('cell {number} is longer than {MAX_CELL_CHARS} characters; not run')"
        tags = (cell.get("metadata") or {}).get("tags") or []
        info.cells.append((number, source, tuple(t for t in tags if isinstance(t, str))))
    info.metadata = metadata if isinstance(metadata, dict) else {}
    for _, source, _ in info.cells:
        info.defined |= top_level_functions(source)
    lang = info.metadata.get("language") if isinstance(info.metadata.get("language"), str) else None
    if lang is None:
        for part in reversed(info.path.parts[:-1]):
            if part in ("zh", "en", "ru"):
                lang = part
                break
    info.language = lang
    return info


def top_level_functions(source):
    """Names of functions (and lambdas assigned to a name) defined at the top of a cell."""
    try:
        tree = ast.parse(strip_magics(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def identify(info, notebooks):
    """Set ``info.stem`` to the course notebook it is.

    ``notebooks`` maps stem -> set of function names of its exercises.  In
    order: the notebook's metadata, its file name (exact stem, a stem inside a
    longer name such as ``alice-ex01_allowed_set (1).ipynb``, or the ``exNN``
    number), then the functions it defines.
    """
    meta = getattr(info, "metadata", {}) or {}
    for key in ("exercise_notebook", "course_notebook", "notebook"):
        value = meta.get(key) if isinstance(meta, dict) else None
        if isinstance(value, str) and value in notebooks:
            info.stem, info.how = value, "metadata"
            return info.stem
    name = info.path.name
    stem = name[:-6] if name.lower().endswith(".ipynb") else info.path.stem
    if stem in notebooks:
        info.stem, info.how = stem, "file name"
        return stem
    inside = [s for s in notebooks if s.lower() in stem.lower()]
    if len(inside) == 1:
        info.stem, info.how = inside[0], "file name"
        return info.stem
    numbers = {int(m.group(1)) for m in _EX_TOKEN.finditer(stem)}
    by_number = [s for s in notebooks if any(int(m.group(1)) in numbers for m in _EX_TOKEN.finditer(s))]
    if len(by_number) == 1:
        info.stem, info.how = by_number[0], "exercise number in the file name"
        return info.stem
    if info.defined:
        scores = {s: len(info.defined & fns) for s, fns in notebooks.items()}
        best = max(scores.values(), default=0)
        winners = [s for s, n in scores.items() if n == best]
        if best > 0 and len(winners) == 1:
            info.stem, info.how = winners[0], "functions it defines"
            return info.stem
    return None


# -- preparing code cells -------------------------------------------------------

_MAGIC_LINE = re.compile(r"^(\s*)(?:[!%].*)$")
_MAGIC_ASSIGN = re.compile(r"^(\s*)([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*[!%].*$")
_RUN_CELL_MAGICS = ("%%time", "%%capture", "%%timeit")
SKIP_TAGS = {"grader-skip", "skip-grading", "check", "raises-exception-check"}


def strip_magics(source):
    """IPython-only lines become ``pass`` (or ``name = None``): shell escapes and
    magics are not run while grading.  A cell magic other than %%time / %%capture
    makes the whole cell a no-op."""
    lines = source.split("\n")
    if lines and lines[0].lstrip().startswith("%%"):
        head = lines[0].strip().split()[0]
        if head not in _RUN_CELL_MAGICS:
            return ""
        lines = lines[1:]
    out = []
    for line in lines:
        m = _MAGIC_ASSIGN.match(line)
        if m:
            out.append(f"{m.group(1)}{m.group(2)} = None")
            continue
        m = _MAGIC_LINE.match(line)
        if m and not _inside_string_guess(out):
            out.append(f"{m.group(1)}pass")
            continue
        if line.rstrip().endswith("?") and not line.lstrip().startswith("#") and re.match(r"^\s*[\w.]+\?{1,2}\s*$", line):
            out.append(re.sub(r"\S.*", "pass", line, count=1))
            continue
        out.append(line)
    return "\n".join(out)


def _inside_string_guess(previous_lines):
    """True when an odd number of triple quotes precede: the line is inside a string."""
    text = "\n".join(previous_lines)
    return (text.count('"""') % 2 == 1) or (text.count("'''") % 2 == 1)


def _is_check_call(node):
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    func = node.value.func
    return (isinstance(func, ast.Name) and func.id == "check") or (
        isinstance(func, ast.Attribute) and func.attr == "check")


def prepare_cell(source, tags=()):
    """The code to run for one cell, or None to skip it.

    ``check(...)`` calls at the top level of a cell are removed (the grader
    checks in its own process); magics and shell lines are neutralised.
    """
    if SKIP_TAGS & set(tags):
        return None
    code = strip_magics(source)
    if not code.strip():
        return None
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code                    # let the kernel report the SyntaxError
    checks = [n for n in tree.body if _is_check_call(n)]
    if not checks:
        return code
    if len(checks) == len(tree.body):
        return None
    lines = code.split("\n")
    for node in checks:
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        indent = re.match(r"\s*", lines[start]).group(0)
        lines[start] = indent + "pass"
        for i in range(start + 1, end + 1):
            lines[i] = ""
    return "\n".join(lines)


def find_notebooks(paths, group_by="dir"):
    """Group notebook files into submissions.

    ``paths`` are files or folders.  ``group_by``: ``dir`` (default): the
    folder that holds a notebook is one submission; ``top``: each first-level
    folder under a given folder is one submission (a student's folder with
    sub-folders); ``file``: every notebook is its own submission.
    Returns (ordered dict submission id -> [paths], problems).
    """
    groups = {}
    problems = []
    for raw in paths:
        p = pathlib.Path(raw)
        if not p.exists():
            problems.append(f"no such file or folder: {raw}")
            continue
        if p.is_file():
            key = str(p) if group_by == "file" else str(p.parent)
            groups.setdefault(key, []).append(p)
            continue
        found = sorted(q for q in p.rglob("*.ipynb")
                       if not any(part.startswith(".") for part in q.relative_to(p).parts))
        if not found:
            problems.append(f"no notebooks (*.ipynb) in folder {raw}")
        for q in found:
            if group_by == "file":
                key = str(q)
            elif group_by == "top":
                rel = q.relative_to(p)
                key = str(p / rel.parts[0]) if len(rel.parts) > 1 else str(p)
            else:
                key = str(q.parent)
            groups.setdefault(key, []).append(q)
    for key in groups:
        seen, unique = set(), []
        for q in groups[key]:
            r = q.resolve()
            if r not in seen:
                seen.add(r)
                unique.append(q)
        groups[key] = unique
    return groups, problems
