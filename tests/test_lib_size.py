"""lib stays a library a learner reads in an evening (issues 18, 35): its size, and what lib/attention.py shows first."""

import ast
import pathlib

LIB = pathlib.Path(__file__).resolve().parent.parent / "lib"
MOST_LINES = 2300           # every line of lib/*.py, as `wc -l lib/*.py` counts them, the decoder included;
#                             none of them over 100 characters (test_no_line_of_lib_is_over_100_characters)


def test_lib_has_at_most_2300_lines():
    """A shorter lib by writing less (issue 35: 2,500 -> 2,300), not by packing lines (below)."""
    lines = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in sorted(LIB.glob("*.py"))}
    assert "decoder.py" in lines and "attention.py" in lines
    assert sum(lines.values()) <= MOST_LINES, f"lib/ has {sum(lines.values())} lines, more than {MOST_LINES}: {lines}"


def test_no_line_of_lib_is_over_100_characters():
    """lib is kept short by writing less, not by packing lines."""
    long = [f"{path.name}:{i}" for path in sorted(LIB.glob("*.py"))
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if len(line) > 100]
    assert long == []


def test_lib_attention_opens_with_the_mask():
    """The first function a reader of lib/attention.py meets builds the causal mask."""
    tree = ast.parse((LIB / "attention.py").read_text(encoding="utf-8"))
    first = next(node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)))
    assert first.name == "causal_future"


def _docstrings():
    """(scopes, where, docstring) of every module, class, function and method of lib; the scopes
    (its module, and a method's class) are where a short name in it is looked up."""
    import importlib
    import inspect
    import pkgutil
    for info in pkgutil.iter_modules([str(LIB)]):
        module = importlib.import_module(f"lib.{info.name}")
        yield (module,), module.__name__, module.__doc__ or ""
        for name, obj in vars(module).items():
            if getattr(obj, "__module__", None) != module.__name__ or not callable(obj):
                continue
            yield (module, obj), f"{module.__name__}.{name}", obj.__doc__ or ""
            for member, item in (vars(obj).items() if inspect.isclass(obj) else ()):
                item = getattr(item, "fget", getattr(item, "__func__", item))
                if callable(item):
                    yield (module, obj), f"{module.__name__}.{name}.{member}", item.__doc__ or ""


def _resolves(dotted, scopes):
    """``dotted`` names a module of lib, or an attribute reached from one or from a scope."""
    import importlib
    parts = dotted.split(".")
    starts = [(importlib.import_module, ".".join(parts[:i]), parts[i:]) for i in range(len(parts), 0, -1)]
    for load, prefix, rest in starts if parts[0] == "lib" else []:
        try:
            obj = load(prefix)
        except ImportError:
            continue
        try:
            for part in rest:
                obj = getattr(obj, part)
            return True
        except AttributeError:
            continue
    return any(_reaches(scope, parts) for scope in scopes)


def _reaches(obj, parts):
    for part in parts:
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def test_every_name_a_docstring_gives_resolves():
    """A docstring names only what exists: every Sphinx role target (:func:`...`, :class:`...`, ...)
    and every dotted name of lib (lib.attention.causal_attention) in any docstring of lib resolves
    (costs.py once cited two functions that were never written)."""
    import re
    missing = []
    for scopes, where, doc in _docstrings():
        names = re.findall(r":(?:func|class|meth|mod|data|attr):`~?([\w.]+)`", doc)
        names += re.findall(r"\blib(?:\.\w+)+", doc)
        missing += [f"{where}: {name}" for name in names if not _resolves(name.rstrip("."), scopes)]
    assert missing == []


def test_only_validate_raises():
    """Arguments are checked in one place: lib.validate holds every raise of lib, but those of
    lib.plain_python, the route that imports nothing of lib."""
    raising = {path.name for path in LIB.glob("*.py")                # a bare raise passes one on
               if any(isinstance(node, ast.Raise) and node.exc is not None
                      for node in ast.walk(ast.parse(path.read_text("utf-8"))))}
    assert raising == {"validate.py", "plain_python.py"}


def test_import_lib_loads_neither_threads_nor_threadpoolctl():
    """A learner who imports lib gets NumPy code only: the threaded form (bench/fast_attention.py),
    its thread pool and threadpoolctl are not part of lib."""
    import subprocess
    import sys
    code = ("import sys, lib, lib.decoder, lib.layers; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('threadpoolctl', 'concurrent', 'queue', 'fast_attention')))")
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert loaded.stdout.strip() == "[]"


def test_n_heads_is_checked_once_per_call(monkeypatch):
    """Checks at the edge, once: one multi_head_attention call checks its number of heads once, and a
    decoder's step checks its position once."""
    import numpy as np

    from lib import attention, decoder, validate
    calls = []
    for name in ("head_width", "positions"):
        original = getattr(validate, name)
        monkeypatch.setattr(validate, name, lambda *a, _f=original, _n=name: calls.append(_n) or _f(*a))
    attention.multi_head_attention(np.zeros((1, 3, 4)), *[np.eye(4)] * 4, n_heads=2)
    assert calls == ["head_width"]
    model = decoder.Decoder.init(6, 5, 4, 2, 2)
    cache = model.new_cache()
    calls.clear()
    model.step(1, cache)
    assert calls == ["positions"]


def test_every_mutant_of_make_mutants_still_applies():
    """tools/mutants.py names each realistic bug by a lib function and a selector of the catalogue
    (grading/bugs.py): a change to lib that leaves a selector without its one place must update it
    (its run would stop there).  A checked function's mutant is written into the function's own
    file, below its decorator, not into lib/validate.py where the decorator's wrapper lives."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("mutants", LIB.parent / "tools" / "mutants.py")
    mutants = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mutants)
    stale = [mutant.name for mutant in mutants.MUTANTS if not mutants.applies(mutant)]
    assert len(mutants.MUTANTS) >= 70 and stale == []
    for mutant in mutants.MUTANTS:
        path, text = mutants.mutated_text(mutant)
        assert path == LIB / f"{mutant.target.split('.')[1]}.py", mutant.name
        assert text.count("@checked(") == path.read_text(encoding="utf-8").count("@checked("), mutant.name
