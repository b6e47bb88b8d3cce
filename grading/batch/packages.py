"""What a kernel's ``lib`` and ``grading`` are: the student-safe copies, and the blind copies
that withhold an exercise's references.  The one module that knows which of the course's
files enter a sandbox; sandbox.py binds what it builds, blind.py decides what to withhold.

* :func:`build_student_packages` -- ``lib`` whole, and of ``grading`` only the test models
  (:data:`STUDENT_MODULES`) beside stand-ins for the package and ``grading.exercises``;
* :func:`build_blind_packages` -- a copy of those in which the bodies of some definitions
  (:class:`blind.Site`) are replaced, in the source files themselves, by a ``raise``
  (:func:`withhold_source`);
* :func:`precompile` -- their bytecode, once per grading run;
* :func:`environment_copies` -- the course's packages installed in the Python environment the
  sandbox binds (a wheel install of the grader, say), each of which the sandbox covers with
  the copy a kernel may see, so that the environment is never a way around ``/course``.
"""

import ast
import compileall
import os
import pathlib
import py_compile
import re
import shutil
import sys

import lib as _lib

import grading as _grading

from ..cells import AST_LOCK

LIB_DIR = pathlib.Path(_lib.__file__).resolve().parent
GRADING_DIR = pathlib.Path(_grading.__file__).resolve().parent
# The only module of the grading package that enters the sandbox (besides stand-ins for the
# package and grading.exercises): the test models the cases are built on.  It is also the only
# grading module that can hold a withheld object.
STUDENT_MODULES = ("grading.models",)
# The top-level packages of the course's distribution (pyproject.toml); the ones a kernel may not
# import are covered with an empty folder where an environment holds them (environment_copies)
COURSE_PACKAGES = ("course_i18n", "figures", "grading", "lib")


def module_file(module):
    """The file (relative to the packages' root, e.g. ``lib/attention.py``) of a sandbox module, or None."""
    parts = module.split(".")
    if parts[0] == "lib":
        rel = "/".join(parts[1:]) or "__init__"
        return f"lib/{rel}.py" if (LIB_DIR / f"{rel}.py").is_file() else None
    if module in STUDENT_MODULES:
        return f"grading/{parts[1]}.py"
    return None


def build_student_packages(dest):
    """Copy the student-safe parts of ``lib`` and ``grading`` into ``dest``.

    ``lib`` (what the chapters teach) is copied whole.  Of ``grading`` only the
    test models (:data:`STUDENT_MODULES`) are copied; the package and
    ``grading.exercises`` are replaced by stubs whose ``check()`` does nothing
    (grading runs the real checks in the grader), so an exercise notebook's
    ``from grading import check`` still works.  The registry, its hidden cases,
    the reference answers and the batch grader never enter.  Every module comes with its
    bytecode (:func:`precompile`).  Returns (lib copy, grading copy).
    """
    dest = pathlib.Path(dest)
    lib_out, grading_out = dest / "lib", dest / "grading"
    lib_out.mkdir(parents=True)
    grading_out.mkdir()
    for path in sorted(LIB_DIR.glob("*.py")):
        shutil.copyfile(path, lib_out / path.name)
    for module in STUDENT_MODULES:
        name = module_file(module).split("/", 1)[1]
        shutil.copyfile(GRADING_DIR / name, grading_out / name)
    (grading_out / "__init__.py").write_text(GRADING_INIT_STUB, encoding="utf-8")
    (grading_out / "exercises.py").write_text(EXERCISES_STUB, encoding="utf-8")
    precompile(dest)
    return lib_out, grading_out


def build_blind_packages(student_root, dest, sites):
    """A copy of the student-safe packages in ``student_root`` with ``sites`` withheld, in ``dest``."""
    student_root, dest = pathlib.Path(student_root), pathlib.Path(dest)
    # without the bytecode of the full copy: it is compiled again from the withheld sources
    shutil.copytree(student_root, dest, ignore=shutil.ignore_patterns("__pycache__"))
    by_file = {}
    for site in sites:
        by_file.setdefault(module_file(site.module), []).append(site)
    for rel, group in sorted(by_file.items()):
        path = dest / rel
        path.write_text(withhold_source(path.read_text(encoding="utf-8"), group), encoding="utf-8")
    precompile(dest)
    return dest


def precompile(root):
    """Compile every module under ``root`` to bytecode once per grading run, and make the
    tree readable by every kernel uid.

    A kernel never writes bytecode (PYTHONDONTWRITEBYTECODE, and ``/course`` is a read-only
    bind): without these files every kernel would compile ``lib`` and ``grading`` again.
    They are checked-hash .pyc files, used only while they match their source byte for byte,
    so a copy whose source was changed afterwards (a withheld copy) is never run
    from stale bytecode.  A module that does not compile is left to the kernel, which then
    reports the error itself."""
    root = pathlib.Path(root)
    compileall.compile_dir(root, quiet=2, workers=1, invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)
    for path in root.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    root.chmod(0o755)


def environment_copies():
    """[(package, folder)]: the course's packages (:data:`COURSE_PACKAGES`) installed in a
    ``site-packages`` folder of the grader's Python, which the sandbox binds read-only.

    A wheel install of the grader puts the grader itself there (``grading`` with its registry,
    hidden tests and batch grader, ``lib`` with every reference); a non-editable install of the
    course may put another copy there.  The sandbox covers each: ``lib`` and ``grading`` with
    the copies the kernel gets under ``/course``, the others with an empty folder, so a kernel
    sees the same packages whether the grader runs from a checkout or from a wheel."""
    found = []
    for folder in dict.fromkeys(p for p in sys.path if p.endswith("site-packages")):
        for package in COURSE_PACKAGES:
            path = os.path.join(folder, package)
            if os.path.isfile(os.path.join(path, "__init__.py")):
                found.append((package, os.path.realpath(path)))
    return found


# -- the stand-ins a notebook imports while it is graded ---------------------------------------

GRADING_INIT_STUB = '''"""The course's grading package, as a notebook sees it while it is graded: the test
models (grading.models) and a check() that does nothing (the grader checks in its own process)."""


def check(*args, **kwargs):
    return None


def needs_exercise(*exercise_ids, **kwargs):
    return "this cell uses the functions of exercise " + ", ".join(map(str, exercise_ids))


def set_language(lang):
    return None
'''


EXERCISES_STUB = '''"""Stand-in for grading.exercises while a notebook is graded.

The real module (its hidden cases and reference answers) stays with the
grader; here check() does nothing, so the notebook runs as it would for you.
"""

from grading import check  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"grading.exercises.{name} is not available while grading")
'''


# -- withholding definitions in a copy's source ----------------------------------------------

STUB = "raise RuntimeError({text!r})"
STUB_TEXT = "{name} is withheld in this run of the grader (the exercise asks for your own code)"
WITHHELD_MARK = re.compile(r"([A-Za-z_][\w.]*) is withheld in this run of the grader")


def _body_span(node):
    """(first line, last line) of a def's body, 1-based, inclusive."""
    return node.body[0].lineno, node.end_lineno


def _find(tree, qualname):
    """The def or class node ``qualname`` names at module level (``A.b``: method b of class A)."""
    body, node = tree.body, None
    for part in qualname.split("."):
        node = next((n for n in body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
                     and n.name == part), None)
        if node is None:
            return None
        body = node.body
    return node


def withhold_source(source, sites):
    """``source`` with the body of every def in ``sites`` (every method of a class site) replaced by
    a ``raise``: signatures, decorators and class attributes stay, so every module still imports."""
    with AST_LOCK:
        tree = ast.parse(source)
    spans = []
    for site in sites:
        node = _find(tree, site.qualname)
        if node is None:
            raise ValueError(f"{site.module}.{site.qualname}: no such definition to withhold")
        defs = [node] if not isinstance(node, ast.ClassDef) else [
            n for n in ast.walk(node) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for d in defs:
            spans.append((*_body_span(d), d, site))
    lines = source.splitlines(keepends=True)
    # innermost first does not matter: a nested def lies inside its parent's span, which is replaced whole
    spans.sort(key=lambda s: (s[0], -s[1]))
    kept, out, skip_until = [], [], 0
    for first, last, node, site in spans:
        if first <= skip_until:
            continue
        kept.append((first, last, node, site))
        skip_until = last
    position = 1
    for first, last, node, site in kept:
        out += lines[position - 1:first - 1]
        indent = " " * (node.body[0].col_offset if node.body[0].lineno == first else node.col_offset + 4)
        if node.body[0].lineno == node.lineno:           # def f(): return 1  (body on the def's line)
            raise ValueError(f"{site.qualname}: a one-line definition cannot be withheld")
        out.append(indent + STUB.format(text=STUB_TEXT.format(name=site.name)) + "\n")
        position = last + 1
    out += lines[position - 1:]
    return "".join(out)
