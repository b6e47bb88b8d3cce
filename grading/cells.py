"""Notebook code cells as Python: IPython-only lines neutralised, ``check()`` calls dropped.

Shared by the batch grader (what a sandboxed kernel runs) and by
:mod:`grading.usage` (what the grader reads to decide whether a function
calls the library's reference answer), so both see the same program.
Every function here is linear in the length of the cell.
"""

import ast
import re
import threading

_MAGIC_LINE = re.compile(r"[ \t]*[!%]")
_MAGIC_ASSIGN = re.compile(r"([ \t]*)([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*)[ \t]*=[ \t]*[!%]")
_HELP_LINE = re.compile(r"[ \t]*[\w.]+\?{1,2}[ \t]*")
_RUN_CELL_MAGICS = ("%%time", "%%capture", "%%timeit")
SKIP_TAGS = frozenset({"grader-skip", "skip-grading", "check", "raises-exception-check"})


def strip_magics(source):
    """IPython-only lines become ``pass`` (or ``name = None``): shell escapes and
    magics are not run while grading.  A cell magic other than %%time / %%capture /
    %%timeit makes the whole cell a no-op.  Lines inside a triple-quoted string
    (as far as counting the quotes before them tells) are left alone."""
    lines = source.split("\n")
    if lines and lines[0].lstrip().startswith("%%"):
        head = lines[0].strip().split()[0]
        if head not in _RUN_CELL_MAGICS:
            return ""
        lines = lines[1:]
    out = []
    double = single = 0                  # triple quotes seen so far in the output lines
    for line in lines:
        inside = double % 2 == 1 or single % 2 == 1
        if not inside:
            # a magic assignment (``files = !ls``) is short and has "=" and "!" or "%": only then try the pattern
            candidate = len(line) < 4096 and "=" in line and ("!" in line or "%" in line)
            m = _MAGIC_ASSIGN.match(line) if candidate else None
            if m:
                line = f"{m.group(1)}{m.group(2)} = None"
            elif _MAGIC_LINE.match(line):
                line = line[:len(line) - len(line.lstrip(" \t"))] + "pass"
            elif line.rstrip().endswith("?") and _HELP_LINE.fullmatch(line.rstrip("\r")):
                line = line[:len(line) - len(line.lstrip(" \t"))] + "pass"
        out.append(line)
        double += line.count('"""')
        single += line.count("'''")
    return "\n".join(out)


def _is_check_call(node):
    if not isinstance(node, ast.Expr) or not isinstance(node.value, ast.Call):
        return False
    func = node.value.func
    return (isinstance(func, ast.Name) and func.id == "check") or (
        isinstance(func, ast.Attribute) and func.attr == "check")


# CPython 3.11 keeps the depth of the syntax tree it is building in state every thread shares
# (gh-106905): two threads parsing at once (the grader's --jobs 2) can fail with "SystemError: AST
# constructor recursion depth mismatch".  Every ast.parse in the grader holds this lock.
AST_LOCK = threading.Lock()


def parse(code):
    """The module AST of ``code``, or None when it does not parse (or is too deep to)."""
    try:
        with AST_LOCK:
            return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return None


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
    tree = parse(code)
    if tree is None:
        return code                    # let the kernel report the SyntaxError
    checks = [n for n in tree.body if _is_check_call(n)]
    if not checks:
        return code
    if len(checks) == len(tree.body):
        return None
    lines = code.split("\n")
    for node in checks:
        start, end = node.lineno - 1, (node.end_lineno or node.lineno) - 1
        indent = re.match(r"[ \t]*", lines[start]).group(0)
        lines[start] = indent + "pass"
        for i in range(start + 1, end + 1):
            lines[i] = ""
    return "\n".join(lines)


def top_level_functions(code):
    """Names of functions (and lambdas assigned to a name) defined at the top of a cell."""
    tree = parse(code)
    if tree is None:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Lambda):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _raises_not_implemented(node):
    """Whether a function's body raises NotImplementedError whatever it is given (a ``raise`` at its top level)."""
    for statement in node.body:
        if isinstance(statement, ast.Raise) and statement.exc is not None:
            exc = statement.exc.func if isinstance(statement.exc, ast.Call) else statement.exc
            if isinstance(exc, ast.Name) and exc.id == "NotImplementedError":
                return True
    return False


def written_functions(code):
    """Names a cell defines at its top level with code of their own: a ``def`` that does not always raise
    NotImplementedError as the exercise's stub does, or an assignment to the name."""
    tree = parse(strip_magics(code))
    if tree is None:
        return set()
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not _raises_not_implemented(node):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names
