"""Does a learner's function use the library's reference answer?  What the source says: a hint.

The batch grader does not decide this by reading the source any more: it grades
every exercise in a kernel whose ``lib`` withholds that exercise's reference
answers (:mod:`grading.batch.blind`), so an answer that relies on them fails its
tests there, however it reached them.  What stays here is the early warning
``check()`` prints in the notebook (:func:`grading.exercises.library_use`): a
learner who wrote ``from lib.attention import masked_softmax`` hears at once that
the grader will give it no points.  ``check()`` prints only findings of kind
``reference`` (a forbidden library object the source shows) and ``module`` (a
package a plain-Python exercise may not use); the grader still reads the source
for the ``module`` rule of evidence-1 (no NumPy, no lib), which is about how the
code is written, not about a reference.

:func:`analyze` follows the exercise function through the notebook: its
final definition (later cells override earlier ones), the notebook functions,
classes and values it refers to, their defaults and decorators, imports made
inside them.  Every attribute chain that starts at an imported ``lib`` or
``grading`` module (``lib.attention.masked_softmax``, ``A.masked_softmax``
after ``import lib.attention as A``, ``getattr(A, "masked_softmax")``) is
resolved in the grader and compared, by identity, with the exercise's
forbidden objects (its reference and ``Exercise.forbidden``).

What cannot be followed is reported as ``dynamic`` instead of guessed (the
construct and the line): ``exec``, ``eval``, ``globals()``, ``importlib``,
frame internals, threads and the like anywhere in the notebook, reflection in
the code the function reaches.  Those findings are for tests and tools; they
cost no points and ``check()`` does not print them (an honest notebook that
imports ``IPython.display`` or ``gc`` hears nothing).

Building blocks stay allowed: a function may call ``lib.attention.causal_attention``
(heads-3) or a model's ``step`` (cache-1) as long as they are not forbidden; an
exercise can forbid method names on any object (``Exercise.forbidden_methods``:
dec-3 may not call a decoder's ``step``).
"""

import ast
import importlib
import sys
from dataclasses import dataclass

from .cells import parse

__all__ = ["Finding", "analyze", "forbidden_table"]

COURSE_PACKAGES = ("lib", "grading")
# Modules a function may use freely (they cannot reach lib); anything else not in the standard library is unknown.
KNOWN_PACKAGES = frozenset({"numpy", "matplotlib", "scipy"})
# Reflection: what these offer can reach any module's attributes by name.
REFLECTIVE_MODULES = frozenset({"importlib", "builtins", "__main__", "inspect", "types", "gc", "ctypes", "runpy",
                                "pickle", "marshal", "code", "codeop", "pkgutil", "imp", "IPython", "ipykernel",
                                "copyreg", "dill", "cloudpickle"})
REFLECTIVE_NAMES = frozenset({"operator.attrgetter", "operator.methodcaller", "sys.modules", "sys._getframe"})
# Calls that can rebind names where the source does not show it (flagged anywhere in the notebook).
REBINDING_CALLS = frozenset({"exec", "eval", "compile", "globals", "locals", "vars", "__import__", "get_ipython",
                             "breakpoint"})
REBINDING_MODULES = frozenset({"importlib", "builtins", "__main__", "ctypes", "gc", "runpy", "IPython", "ipykernel"})
# Code that runs beside the grader's calls (threads, processes, signal handlers, finalizers) could
# rewrite the results a call produced; none of it belongs in an exercise notebook.
BACKGROUND_MODULES = frozenset({"threading", "_thread", "multiprocessing", "concurrent", "asyncio", "subprocess",
                                "signal", "atexit", "weakref", "pty", "sched"})
BACKGROUND_OS = frozenset({"fork", "forkpty", "register_at_fork", "system", "popen", "posix_spawn", "posix_spawnp",
                           "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp", "spawnvpe",
                           "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp", "execvpe"})
SYS_INTERNALS = frozenset({"modules", "_getframe", "settrace", "setprofile", "meta_path", "path_hooks",
                           "path_importer_cache", "exc_info", "exception", "last_traceback", "_current_frames",
                           "addaudithook", "excepthook", "displayhook", "unraisablehook", "setswitchinterval"})
INTERNAL_ATTRIBUTES = frozenset({"f_globals", "f_locals", "f_builtins", "f_back", "f_code", "tb_frame", "tb_next",
                                 "gi_frame", "gi_code", "cr_frame", "cr_code", "ag_frame", "ag_code", "co_consts",
                                 "co_names", "__code__", "__globals__", "__closure__", "__defaults__",
                                 "__kwdefaults__", "__builtins__", "__dict__", "__self__", "__func__",
                                 "__wrapped__", "__subclasses__", "__getattribute__", "__reduce__",
                                 "__reduce_ex__", "__traceback__", "__module__", "__loader__", "__spec__"})
HARMLESS_DUNDERS = frozenset({"__name__", "__qualname__", "__doc__", "__class__", "__init__", "__len__", "__iter__",
                              "__next__", "__call__", "__getitem__", "__setitem__", "__contains__", "__repr__",
                              "__str__", "__eq__", "__hash__", "__enter__", "__exit__", "__array__", "__post_init__",
                              "__add__", "__sub__", "__mul__", "__truediv__", "__matmul__", "__neg__", "__lt__",
                              "__le__", "__gt__", "__ge__", "__ne__", "__bool__", "__slots__", "__annotations__"})
REFLECTIVE_CALLS = frozenset({"setattr", "delattr", "dir"})
MAX_UNITS = 500                           # code units followed per function: far beyond any notebook


@dataclass(frozen=True)
class Finding:
    """Why a function gets no points: ``kind`` is ``reference`` (it uses ``name``, a forbidden
    library object), ``dynamic`` (``name`` describes a construct the analysis cannot follow)
    or ``elsewhere`` (the function, or code it calls, comes from ``name``, outside the notebook)."""
    kind: str
    name: str
    cell: int = 0
    line: int = 0

    def message_key(self):
        # only these two kinds are ever shown (exercises.library_use, runner.finding); the others are for tools
        return {"reference": "uses_library", "module": "uses_module"}[self.kind]


def forbidden_table(exercise, loaded_only=False):
    """{id(object): dotted name} of the objects ``exercise``'s function must not use; the key
    ``"methods"`` holds the method names it must not call on any object, the key ``"modules"`` the
    top-level packages it must not touch at all (``numpy`` and ``lib`` for a pure-Python exercise).
    ``loaded_only`` (``check()``): leave out objects of modules nobody imported (nothing can use them)."""
    names = exercise.forbidden_names()
    table = {id(obj): name for obj, name in zip(exercise.forbidden_objects(loaded_only), names) if obj is not None}
    table["methods"] = frozenset(getattr(exercise, "forbidden_methods", ()))
    table["modules"] = frozenset(getattr(exercise, "forbidden_modules", ()))
    return table


def _is_course(dotted):
    return dotted.split(".")[0] in COURSE_PACKAGES


def _is_known(module):
    root = module.split(".")[0]
    return root in KNOWN_PACKAGES or root in sys.stdlib_module_names or root in COURSE_PACKAGES


def _resolve_object(dotted):
    """The object a course dotted name denotes, imported in the grader (trusted code), or None."""
    parts = dotted.split(".")
    for split in range(len(parts), 0, -1):
        module_name = ".".join(parts[:split])
        try:
            obj = importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - not a module: try a shorter prefix
            continue
        for attr in parts[split:]:
            try:
                obj = getattr(obj, attr)
            except Exception:  # noqa: BLE001
                return None
        return obj
    return None


# -- the notebook's module-level bindings -----------------------------------------------

@dataclass
class _Binding:
    kind: str                 # lib | module | def | class | value | star
    target: object            # dotted name (lib, module, star) or an AST node
    cell: int
    line: int


class _Program:
    """Module-level bindings of every name, cell after cell, plus notebook-wide red flags."""

    def __init__(self, cells):
        self.env = {}                         # name -> [_Binding] (several when a binding is conditional)
        self.stars = []                       # star imports, in order: (_Binding, position in env history)
        self.rebinding = None                 # the first construct that can rebind names unseen
        self.units = []                       # (cell, tree) of every parsed cell
        for number, code in cells:
            tree = parse(code)
            if tree is None:
                continue
            self.units.append((number, tree))
            self._scan_rebinding(number, tree)
            self._bind_block(number, tree.body, conditional=False)
        self._global_assignments()

    # notebook-wide constructs that may rebind any name
    def _scan_rebinding(self, cell, tree):
        if self.rebinding is not None:
            return
        for node in ast.walk(tree):
            what = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in REBINDING_CALLS:
                what = f"{node.func.id}()"
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                hit = [n for n in names if n.split(".")[0] in REBINDING_MODULES | BACKGROUND_MODULES]
                if isinstance(node, ast.ImportFrom) and (node.module or "") == "os":
                    hit += [f"os.{a.name}" for a in node.names if a.name in BACKGROUND_OS]
                if hit:
                    what = f"import {hit[0]}"
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == "__del__":
                what = "__del__"
            elif isinstance(node, ast.Attribute):
                if node.attr in INTERNAL_ATTRIBUTES - {"__dict__", "__self__", "__func__", "__module__",
                                                       "__wrapped__", "__traceback__"}:
                    what = f".{node.attr}"
                elif isinstance(node.value, ast.Name) and node.value.id == "sys" and node.attr in SYS_INTERNALS:
                    what = f"sys.{node.attr}"
                elif isinstance(node.value, ast.Name) and node.value.id == "os" and node.attr in BACKGROUND_OS:
                    what = f"os.{node.attr}"
                elif isinstance(node.ctx, ast.Store) and node.attr.startswith("__") and node.attr.endswith("__"):
                    what = f".{node.attr} ="
            elif isinstance(node, ast.Name) and node.id in ("__builtins__", "__loader__", "__spec__"):
                what = node.id
            if what is not None:
                self.rebinding = Finding("dynamic", what, cell, getattr(node, "lineno", 0))
                return

    def _bind(self, name, binding, conditional):
        if conditional and name in self.env:
            self.env[name] = self.env[name] + [binding]
        else:
            self.env[name] = [binding]

    def _bind_block(self, cell, body, conditional):
        for stmt in body:
            self._bind_stmt(cell, stmt, conditional)

    def _bind_stmt(self, cell, stmt, conditional):
        line = getattr(stmt, "lineno", 0)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._bind(stmt.name, _Binding("def", stmt, cell, line), conditional)
        elif isinstance(stmt, ast.ClassDef):
            self._bind(stmt.name, _Binding("class", stmt, cell, line), conditional)
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self._bind(alias.asname, self._module_binding(alias.name, cell, line), conditional)
                else:
                    root = alias.name.split(".")[0]
                    self._bind(root, self._module_binding(root, cell, line), conditional)
        elif isinstance(stmt, ast.ImportFrom):
            module = "." * stmt.level + (stmt.module or "")
            for alias in stmt.names:
                if alias.name == "*":
                    self.stars.append(self._module_binding(module, cell, line, star=True))
                    continue
                dotted = f"{module}.{alias.name}"
                self._bind(alias.asname or alias.name, self._module_binding(dotted, cell, line), conditional)
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            value = stmt.value
            if value is None:
                return
            for target in targets:
                for name, direct in _target_names(target):
                    # x = ... replaces x; x.attr = ... / x[k] = ... / x += ... add to what x may hold
                    keep = conditional or not direct or isinstance(stmt, ast.AugAssign)
                    self._bind(name, _Binding("value", value, cell, line), keep)
        elif isinstance(stmt, (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
                               ast.TryStar if hasattr(ast, "TryStar") else ast.Try, ast.Match)):
            if isinstance(stmt, (ast.For, ast.AsyncFor)):
                for name, _ in _target_names(stmt.target):
                    self._bind(name, _Binding("value", stmt.iter, cell, line), True)
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        for name, _ in _target_names(item.optional_vars):
                            self._bind(name, _Binding("value", item.context_expr, cell, line), True)
            for field in ("body", "orelse", "finalbody"):
                self._bind_block(cell, getattr(stmt, field, []) or [], conditional=True)
            for handler in getattr(stmt, "handlers", []) or []:
                self._bind_block(cell, handler.body, conditional=True)
            for case in getattr(stmt, "cases", []) or []:
                self._bind_block(cell, case.body, conditional=True)
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.NamedExpr):
            self._bind_stmt(cell, stmt.value, conditional)
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    self.env.pop(target.id, None)

    def _module_binding(self, dotted, cell, line, star=False):
        if dotted.startswith("."):
            return _Binding("module", dotted, cell, line)
        kind = "star" if star else ("lib" if _is_course(dotted) else "module")
        return _Binding(kind, dotted, cell, line)

    def _global_assignments(self):
        """``global x`` inside a function, then ``x = ...`` there: x may hold that value too."""
        for cell, tree in self.units:
            for node in ast.walk(tree):
                if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                declared = {n for g in ast.walk(node) if isinstance(g, ast.Global) for n in g.names}
                if not declared:
                    continue
                for sub in ast.walk(node):
                    if isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and sub.value is not None:
                        targets = sub.targets if isinstance(sub, ast.Assign) else [sub.target]
                        for target in targets:
                            for name, _ in _target_names(target):
                                if name in declared:
                                    self._bind(name, _Binding("value", sub.value, cell, sub.lineno), True)

    def lookup(self, name):
        """Every module-level binding ``name`` may have once all cells ran."""
        found = list(self.env.get(name, []))
        for star in self.stars:
            if star.kind == "star" and _is_course(star.target):
                module = _resolve_object(star.target)
                if module is not None and hasattr(module, name) and not name.startswith("_"):
                    found.append(_Binding("lib", f"{star.target}.{name}", star.cell, star.line))
            elif not found:
                found.append(_Binding("module", f"{star.target}.{name}", star.cell, star.line))
        return found


def _target_names(target):
    """(name, direct) for each name an assignment target binds or changes (direct: the name itself)."""
    if isinstance(target, ast.Name):
        yield target.id, True
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            yield from _target_names(elt)
    elif isinstance(target, ast.Starred):
        yield from _target_names(target.value)
    elif isinstance(target, (ast.Attribute, ast.Subscript)):
        base = target.value
        while isinstance(base, (ast.Attribute, ast.Subscript)):
            base = base.value
        if isinstance(base, ast.Name):
            yield base.id, False


def _bound_inside(node):
    """Names a function (with everything nested in it) binds locally, and its local imports."""
    names, imports, declared = set(), {}, set()
    for sub in ast.walk(node):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            declared |= set(sub.names)
        elif isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and sub is not node:
            names.add(sub.name)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            names.add(sub.name)
        elif isinstance(sub, ast.Import):
            for alias in sub.names:
                local = alias.asname or alias.name.split(".")[0]
                names.add(local)
                imports[local] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(sub, ast.ImportFrom):
            for alias in sub.names:
                if alias.name != "*":
                    local = alias.asname or alias.name
                    names.add(local)
                    imports[local] = f"{'.' * sub.level}{sub.module or ''}.{alias.name}"
    return names - declared, imports


# -- following one function ---------------------------------------------------------------

class _Follower:
    def __init__(self, program, forbidden):
        self.program = program
        self.methods = forbidden.get("methods", frozenset())
        self.modules = forbidden.get("modules", frozenset())
        self.forbidden = {k: v for k, v in forbidden.items() if k not in ("methods", "modules")}  # {id(obj): dotted}
        self.forbidden_names = set(self.forbidden.values())
        self.seen = set()
        self.queue = []
        self.cache = {}

    def is_forbidden(self, dotted):
        """The forbidden dotted name ``dotted`` (or one of its prefixes) denotes, else None."""
        parts = dotted.split(".")
        for n in range(len(parts), 1, -1):
            prefix = ".".join(parts[:n])
            if prefix in self.forbidden_names:
                return prefix
            if prefix not in self.cache:
                obj = _resolve_object(prefix)
                self.cache[prefix] = self.forbidden.get(id(obj)) if obj is not None else None
            if self.cache[prefix]:
                return self.cache[prefix]
        return None

    def banned_module(self, dotted):
        """The forbidden top-level package ``dotted`` belongs to (``numpy.exp`` -> ``numpy``), else None."""
        root = dotted.lstrip(".").split(".")[0]
        return root if root in self.modules else None

    def is_module(self, dotted):
        obj = _resolve_object(dotted)
        return obj is not None and type(obj).__name__ == "module"

    def enqueue(self, binding):
        key = (binding.kind, id(binding.target))
        if key not in self.seen:
            self.seen.add(key)
            self.queue.append(binding)

    def run(self, bindings):
        for b in bindings:
            self.enqueue(b)
        steps = 0
        while self.queue:
            steps += 1
            if steps > MAX_UNITS:
                return Finding("dynamic", "more code than the grader follows", 0, 0)
            binding = self.queue.pop(0)
            finding = self.follow(binding)
            if finding is not None:
                return finding
        return None

    def follow(self, b):
        if b.kind in ("lib", "module", "star") and self.banned_module(b.target):
            return Finding("module", self.banned_module(b.target), b.cell, b.line)
        if b.kind == "lib":
            culprit = self.is_forbidden(b.target)
            if culprit:
                return Finding("reference", culprit, b.cell, b.line)
            if self.is_module(b.target):
                return None                    # a module imported by name: its use is checked where it is used
            return None
        if b.kind in ("module", "star"):
            if b.target.startswith(".") or not _is_known(b.target):
                return Finding("elsewhere", b.target.split(".")[0] or b.target, b.cell, b.line)
            if b.target.split(".")[0] in REFLECTIVE_MODULES or b.target in REFLECTIVE_NAMES:
                return Finding("dynamic", b.target, b.cell, b.line)
            return None
        return self.walk(b.target, b.cell)

    def walk(self, node, cell):
        """Check every library reference in ``node`` (a def, class or expression)."""
        local, imports = _bound_inside(node) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                  ast.Lambda, ast.ClassDef)) else (set(), {})
        parents = {}
        for parent in ast.walk(node):
            for child in ast.iter_child_nodes(parent):
                parents[id(child)] = parent
        for sub in ast.walk(node):
            line = getattr(sub, "lineno", 0)
            if isinstance(sub, (ast.Import, ast.ImportFrom)) and sub is not node:
                modules = ([a.name for a in sub.names] if isinstance(sub, ast.Import)
                           else [f"{'.' * sub.level}{sub.module or ''}.{a.name}" for a in sub.names if a.name != "*"])
                if isinstance(sub, ast.ImportFrom) and any(a.name == "*" for a in sub.names):
                    return Finding("dynamic", f"from {sub.module} import *", cell, line)
                for dotted in modules:
                    finding = self.follow(_Binding("lib" if _is_course(dotted.lstrip(".")) else "module",
                                                   dotted, cell, line))
                    if finding is not None:
                        return finding
            elif isinstance(sub, ast.Attribute):
                if sub.attr.startswith("__") and sub.attr.endswith("__") and sub.attr not in HARMLESS_DUNDERS:
                    return Finding("dynamic", f".{sub.attr}", cell, line)
                if sub.attr in INTERNAL_ATTRIBUTES:
                    return Finding("dynamic", f".{sub.attr}", cell, line)
                if sub.attr in self.methods:
                    return Finding("reference", f"{_dotted(sub) or '…'}()", cell, line)
                if isinstance(parents.get(id(sub)), ast.Attribute):
                    continue                   # the outermost attribute of a chain is checked
                finding = self.chain(sub, local, imports, cell)
                if finding is not None:
                    return finding
            elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
                name = sub.func.id
                if name in ("getattr", "hasattr") and name not in local:
                    if len(sub.args) >= 2 and isinstance(sub.args[1], ast.Constant) and isinstance(sub.args[1].value, str):
                        attr = sub.args[1].value
                        if attr in self.methods:
                            return Finding("reference", f"{attr}()", cell, line)
                        if attr.startswith("__") or attr in INTERNAL_ATTRIBUTES:
                            return Finding("dynamic", f"getattr(..., {attr!r})", cell, line)
                        fake = ast.Attribute(value=sub.args[0], attr=attr, ctx=ast.Load())
                        ast.copy_location(fake, sub)
                        finding = self.chain(fake, local, imports, cell)
                        if finding is not None:
                            return finding
                    else:
                        return Finding("dynamic", f"{name}() with a computed name", cell, line)
                elif name in REFLECTIVE_CALLS | REBINDING_CALLS and name not in local:
                    return Finding("dynamic", f"{name}()", cell, line)
            elif isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                finding = self.name(sub, local, imports, cell, parents)
                if finding is not None:
                    return finding
        return None

    def roots(self, name, local, imports, depth=0):
        """The dotted names (course modules and objects, other modules) a bare name may denote."""
        if name in local:
            return [imports[name]] if name in imports else []
        out = []
        for b in self.program.lookup(name):
            if b.kind in ("lib", "module"):
                out.append(b.target)
            elif b.kind == "value" and isinstance(b.target, (ast.Name, ast.Attribute)) and depth < 20:
                dotted = _dotted(b.target)
                if dotted is not None:
                    head, _, rest = dotted.partition(".")
                    out += [f"{r}.{rest}" if rest else r for r in self.roots(head, set(), {}, depth + 1)]
        return out

    def chain(self, node, local, imports, cell):
        dotted = _dotted(node)
        if dotted is None:
            return None
        head, _, rest = dotted.partition(".")
        line = getattr(node, "lineno", 0)
        for root in self.roots(head, local, imports):
            full = f"{root}.{rest}" if rest else root
            if self.banned_module(full):
                return Finding("module", self.banned_module(full), cell, line)
            if _is_course(full):
                culprit = self.is_forbidden(full)
                if culprit:
                    return Finding("reference", culprit, cell, line)
            elif full.split(".")[0] in REFLECTIVE_MODULES or any(full.startswith(n) for n in REFLECTIVE_NAMES):
                return Finding("dynamic", full, cell, line)
            elif full.split(".")[0] == "sys" and full.split(".")[1:2] and full.split(".")[1] in SYS_INTERNALS:
                return Finding("dynamic", ".".join(full.split(".")[:2]), cell, line)
        return None

    def name(self, node, local, imports, cell, parents):
        name = node.id
        line = getattr(node, "lineno", 0)
        if name in local:
            if name in imports and self.banned_module(imports[name]):
                return Finding("module", self.banned_module(imports[name]), cell, line)
            if name in imports:
                dotted = imports[name]
                if not isinstance(parents.get(id(node)), ast.Attribute) and _is_course(dotted) \
                        and self.is_module(dotted):
                    return Finding("dynamic", f"the module {dotted} used as a value", cell, line)
            return None
        for b in self.program.lookup(name):
            if b.kind in ("lib", "module", "star") and self.banned_module(b.target):
                return Finding("module", self.banned_module(b.target), cell, line)
            if b.kind == "lib":
                culprit = self.is_forbidden(b.target)
                if culprit:
                    return Finding("reference", culprit, cell, line)
                if not isinstance(parents.get(id(node)), ast.Attribute) and self.is_module(b.target):
                    return Finding("dynamic", f"the module {b.target} used as a value", cell, line)
            elif b.kind in ("module", "star"):
                finding = self.follow(b)
                if finding is not None:
                    return Finding(finding.kind, finding.name, cell, line)
            else:
                self.enqueue(b)
        return None


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def analyze(cells, function, forbidden):
    """Why ``function``, as the notebook ``cells`` define it, gets no points, or None.

    ``cells``: ``[(cell number, code)]`` in execution order (magics already
    neutralised, see :func:`grading.cells.prepare_cell`); ``forbidden``:
    ``{id(object): dotted name}`` (see :func:`forbidden_table`).  Returns a
    :class:`Finding`, or ``Finding("undefined", function)`` when no cell
    defines ``function`` in a way the source shows, or None.
    """
    program = _Program(cells)
    bindings = program.lookup(function)
    if program.rebinding is not None:
        return program.rebinding
    if not bindings:
        return Finding("undefined", function)
    return _Follower(program, forbidden).run(bindings)
