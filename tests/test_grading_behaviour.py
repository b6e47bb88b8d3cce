"""Whether an answer relies on the library's reference is decided by what it does (grading/batch/blind.py).

Each exercise is graded in a kernel whose ``lib`` withholds that exercise's reference
answers, in the source files themselves.  Every way of reaching a reference we could think
of, the ones a source reader missed first (a walrus in a call, a ``match`` capture, a
container, an ``except`` default, ``setattr`` on NumPy, a helper module written at run time
under a standard-library name, another library function that calls the reference), gets no
points; honest answers that import display, debugging or system modules, introspect or
print get every point.

Each hostile answer is first shown to work with the real library (in this process, through
the public tests), so that "no points" means the grader caught it, not that it was broken.
One batch grades them all, and with them student folders that are links.
"""

import json
import os
import pathlib
import subprocess
import sys
import textwrap

import pytest

from conftest import fixed_key, key_file, no_sandbox, slowdown

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "grading_cases"))
import make_cases  # noqa: E402
from make_cases import SOLVED, decoder_dec_1_and_2, load, with_cells  # noqa: E402

from grading.exercises import run_checks  # noqa: E402

SOLVED_HEADS = ROOT / "solutions" / "en" / "ex02_heads.ipynb"
EX01 = ("mask-1", "mask-2", "mask-3", "data-1")

# -- ways to reach a reference: (exercise, [cells]) -----------------------------------------

CHEATS = {
    "walrus-in-a-call": ("mask-2", """
        import lib.attention as _A
        print(_h := _A.masked_softmax)
        def masked_softmax(scores, allowed):
            return _h(scores, allowed)
    """),
    "match-capture": ("mask-2", """
        import lib.attention as _A
        match _A.masked_softmax:
            case _found:
                pass
        def masked_softmax(scores, allowed):
            return _found(scores, allowed)
    """),
    "container-mutation": ("mask-2", """
        import lib.attention as _A
        _tools = []
        _tools.append(_A.masked_softmax)
        _table = {}
        _table.update(f=_tools.pop())
        def masked_softmax(scores, allowed):
            return _table["f"](scores, allowed)
    """),
    "except-default": ("mask-2", """
        import lib.attention as _A
        try:
            raise KeyError
        except KeyError:
            def masked_softmax(scores, allowed, _f=_A.masked_softmax):
                return _f(scores, allowed)
    """),
    "setattr-on-numpy": ("mask-2", """
        import numpy as np
        import lib.attention
        setattr(np, "stable_softmax", lib.attention.masked_softmax)
        def masked_softmax(scores, allowed):
            return np.stable_softmax(scores, allowed)
    """),
    "helper-module-with-a-stdlib-name": ("mask-2", """
        import sys
        with open("colorsys.py", "w") as _f:
            _f.write("from lib.attention import masked_softmax as hls_to_rgb\\n")
        sys.modules.pop("colorsys", None)
        from colorsys import hls_to_rgb
        def masked_softmax(scores, allowed):
            return hls_to_rgb(scores, allowed)
    """),
    "captured-in-builtins": ("mask-2", """
        import builtins, lib.attention
        builtins.softmax_ = lib.attention.masked_softmax
        def masked_softmax(scores, allowed):
            return softmax_(scores, allowed)
    """),
    "object-attribute": ("mask-2", """
        import types, lib.attention
        _box = types.SimpleNamespace(inner=types.SimpleNamespace(f=vars(lib.attention)["masked_softmax"]))
        class _Holder:
            def __call__(self, scores, allowed):
                return _box.inner.f(scores, allowed)
        masked_softmax = _Holder()
    """),
    "module-made-at-run-time": ("mask-2", """
        import sys, types, importlib
        _mod = types.ModuleType("helpers")
        _mod.f = importlib.import_module("lib." + "attention").masked_softmax
        sys.modules["helpers"] = _mod
        def masked_softmax(scores, allowed):
            import helpers
            return helpers.f(scores, allowed)
    """),
    "numpy-object-array": ("mask-2", """
        import numpy as np
        from lib.attention import masked_softmax    # (a * import would also replace mask-1's answer by lib's causal_allowed)
        _stash = np.array([None, masked_softmax], dtype=object)
        def masked_softmax(scores, allowed):
            return _stash[1](scores, allowed)
    """),
    "pickled-to-a-file": ("mask-2", """
        import pickle, lib.attention
        with open("saved.pkl", "wb") as _f:
            pickle.dump({"f": lib.attention.masked_softmax}, _f)
        def masked_softmax(scores, allowed):
            with open("saved.pkl", "rb") as f:
                return pickle.load(f)["f"](scores, allowed)
    """),
    "source-read-from-disk": ("mask-2", """
        import lib.attention
        _space = {"__name__": "lib.attention_copy", "__package__": "lib"}
        with open(lib.attention.__file__, encoding="utf-8") as _f:
            exec(compile(_f.read(), "copy.py", "exec"), _space)
        masked_softmax = _space["masked_softmax"]
    """),
    "computed-getattr-and-eval": ("mask-2", """
        import lib.attention as _A
        _name = "masked_" + "soft" + "max"
        globals()["masked_softmax"] = eval("getattr(_A, _name)")
    """),
    "gc-search": ("data-1", """
        import gc, lib.data
        del lib
        def collate(*args, **kwargs):
            f = [o for o in gc.get_objects() if callable(o) and getattr(o, "__qualname__", "") == "collate"
                 and getattr(o, "__module__", "") == "lib.data"][0]
            return f(*args, **kwargs)
    """),
    "import-inside-a-lambda": ("mask-1", """
        causal_allowed = lambda tq, tk: ~__import__("lib.attention").attention.causal_future(tq, tk)
    """),
    "transitive-heads": ("heads-1", """
        import numpy as np
        from lib import layers
        def split_heads(x, n_heads):
            x = np.asarray(x)
            xf = x if x.dtype.kind == "f" else x.astype(np.float64)
            flat = xf.reshape(-1, *x.shape[-2:])
            eye = np.eye(x.shape[-1], dtype=xf.dtype)
            _, saved = layers.multi_head_attention_forward(flat, eye, eye, eye, eye, n_heads)
            q = saved[-1][0]
            return q.reshape(*x.shape[:-2], *q.shape[1:]).astype(x.dtype, copy=False)
    """),
    "transitive-backward": ("dec-1", """
        import math
        import numpy as np
        from lib import layers
        def masked_softmax_backward(d_weights, weights):
            d_weights, weights = np.asarray(d_weights), np.asarray(weights)
            T = weights.shape[-1]
            eye = np.eye(T, dtype=weights.dtype)
            q = np.zeros(weights.shape[:-1] + (T,), dtype=weights.dtype)
            d_q, _, _ = layers.causal_attention_backward(d_weights, (q, eye, eye, weights))
            return d_q * weights.dtype.type(math.sqrt(T))
    """),
    "method-by-a-computed-name": ("dec-3", """
        import numpy as np
        def decoder_step(model, token, keys, values):
            cache = model.new_cache()
            for kv, k, v in zip(cache.layers, keys, values):
                for position in range(np.shape(k)[1]):
                    kv.append(np.asarray(k)[:, position], np.asarray(v)[:, position])
            logits = getattr(model, "st" + "ep")(token, cache)
            return logits, tuple(kv.keys.copy() for kv in cache.layers), tuple(kv.values.copy() for kv in cache.layers)
    """),
    "private-layer-step": ("dec-3", """
        import numpy as np
        def decoder_step(model, token, keys, values):
            cache = model.new_cache()
            for kv, k, v in zip(cache.layers, keys, values):
                for position in range(np.shape(k)[1]):
                    kv.append(np.asarray(k)[:, position], np.asarray(v)[:, position])
            n = len(cache)
            if n >= model.context_size:
                raise ValueError(f"position {n} is past the position table")
            x = (model.params["token_table"][token] + model.params["position_table"][n])[None]
            for layer, kv in enumerate(cache.layers):   # Decoder.step's own unchecked path
                x = model._block_step(model.block(layer), x, kv)
            logits = model.output_head(x)[0]
            return logits, tuple(kv.keys.copy() for kv in cache.layers), tuple(kv.values.copy() for kv in cache.layers)
    """),
}

# the solution of heads-3 calls the notebook's split_heads, the cheat: it relies on the reference too
CALLS_THE_CHEAT = {"transitive-heads": {"heads-3"}}

# -- honest answers with unusual company: full points -------------------------------------------

HONEST_SOFTMAX = make_cases.GOOD + "\n\ndef masked_softmax(scores, allowed):\n    return _good_softmax(scores, allowed)\n"
HONEST = {
    "displays-results": ["""
        from IPython.display import display, Markdown, HTML
        display(Markdown("**causal masks**"), HTML("<b>done</b>"))
    """],
    "ctypes-gc-signal": ["""
        import ctypes, gc, signal
        print(ctypes.sizeof(ctypes.c_double), gc.isenabled(), signal.Signals.SIGINT.name)
        gc.collect()
    """],
    "reads-f_globals-to-log": [HONEST_SOFTMAX + """
import sys
def masked_softmax(scores, allowed, _inner=masked_softmax):
    caller = sys._getframe(1).f_globals.get("__name__", "?")
    print("called from", caller)
    return _inner(scores, allowed)
"""],
    "inspects-the-reference": ["""
        import inspect, lib.attention
        print(inspect.signature(lib.attention.masked_softmax), len(inspect.getsource(lib.attention)) > 0)
        help(lib.attention.causal_future)
        print(lib.attention.masked_softmax.__name__, lib.attention.masked_softmax.__module__)
    """],
    "compares-with-the-library": [HONEST_SOFTMAX + """
import numpy as np
from lib.attention import masked_softmax as library_softmax
s, a = np.array([[1.0, 2.0]]), np.array([[True, False]])
assert np.allclose(masked_softmax(s, a), library_softmax(s, a))
print("same as the library")
"""],
    "threads-and-importlib": ["""
        import importlib, threading
        t = threading.Thread(target=print, args=("a thread",))
        t.start(); t.join()
        print(importlib.import_module("lib.attention").__name__)
    """],
}


def _cells(text):
    return textwrap.dedent(text).strip("\n") if text.startswith("\n        ") else text


def works_with_the_real_library(exercise_id, source, tmp_path):
    """The hostile answer, run here with the real lib, passes the exercise's public tests."""
    namespace = {"__name__": "__main__"}
    cwd = os.getcwd()
    os.chdir(tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        exec(compile(_cells(source), "<cheat>", "exec"), namespace)
        from grading.exercises import EXERCISES
        function = namespace[EXERCISES[exercise_id].function]
        results = run_checks(exercise_id, function, lang="en")
    finally:
        os.chdir(cwd)
        sys.path.remove(str(tmp_path))
        sys.modules.pop("colorsys", None)
        sys.modules.pop("helpers", None)
    return [r for r in results if not r.ok]


@pytest.mark.parametrize("name", sorted(CHEATS))
def test_each_cheat_really_works_with_the_real_library(name, tmp_path):
    exercise_id, source = CHEATS[name]
    assert works_with_the_real_library(exercise_id, source, tmp_path) == []


def _notebook(exercise_id, cells):
    if exercise_id.startswith("heads"):
        return {"ex02_heads.ipynb": with_cells(SOLVED_HEADS, cells)}
    if exercise_id.startswith("dec"):
        return {"ex07_decoder.ipynb": decoder_dec_1_and_2(*cells)}
    return {"ex01_allowed_set.ipynb": with_cells(SOLVED, cells)}


def _grade(paths, out, extra=()):
    factor = slowdown()
    isolation = usable_isolation()
    proc = subprocess.run(
        [sys.executable, "-m", "grading", *map(str, paths), "--json", str(out / "r.json"), "--isolation", isolation,
         "--timeout", f"{5 * factor:g}", "--cell-timeout", f"{10 * factor:g}", "--key", str(key_file(out, 5)), "--jobs", "2",
         *extra], cwd=ROOT, capture_output=True, text=True, timeout=1200 * factor)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((out / "r.json").read_text(encoding="utf-8"))
    rows = {}
    for row in report["rows"]:
        rows.setdefault(pathlib.Path(row["submission"]).name, {})[row["exercise"]] = row
    return report, rows


def usable_isolation():
    from test_grading_bad import usable_isolation as usable
    return usable()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    """One grader run serves every test below that grades (each run costs a grader's start and its
    plan): ``python -m grading subs/* --group-by top`` over the hostile and the honest answers and
    three more student folders: alice (a solved notebook), bob (a link to solutions/en) and carol
    (a solved notebook beside a link to a file outside her folder).  (report, rows)"""
    subs = tmp_path_factory.mktemp("subs")
    for name, (exercise_id, source) in CHEATS.items():
        (subs / f"cheat-{name}").mkdir()
        for file, nb in _notebook(exercise_id, [_cells(source)]).items():
            (subs / f"cheat-{name}" / file).write_text(json.dumps(nb), encoding="utf-8")
    for name, cells in HONEST.items():
        (subs / f"honest-{name}").mkdir()
        nb = with_cells(SOLVED, [_cells(c) for c in cells])
        (subs / f"honest-{name}" / "ex01_allowed_set.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    for name in ("alice", "carol"):
        (subs / name).mkdir()
        (subs / name / "ex01_allowed_set.ipynb").write_text(json.dumps(load(SOLVED)), encoding="utf-8")
    os.symlink(ROOT / "solutions" / "en", subs / "bob")
    os.symlink(ROOT / "grading" / "references.py", subs / "carol" / "helpers.py")
    return _grade(sorted(subs.iterdir()), tmp_path_factory.mktemp("out"), ["--group-by", "top"])


def sandboxed_rows(batch):
    """The rows of ``batch``; without a sandbox the withholding cannot hold, and these tests skip."""
    report, rows = batch
    if report["grader"]["isolation"]["mode"] == "none":
        no_sandbox("without a sandbox the kernel can import the real lib from the repository")
    return rows


@pytest.mark.heavy
@pytest.mark.parametrize("name", sorted(CHEATS))
def test_a_reference_reached_any_way_gives_no_points(batch, name):
    exercise_id, _ = CHEATS[name]
    rows = sandboxed_rows(batch)[f"cheat-{name}"]
    row = rows[exercise_id]
    assert row["status"] == "fail" and row["points"] == 0, row
    assert "the library's reference answer for this exercise" in row["message"], row["message"]
    # the other exercises of the notebook keep their points, unless they call the answer that relies on it
    for other, r in rows.items():
        if other != exercise_id and r["status"] != "missing":
            if other in CALLS_THE_CHEAT.get(name, ()):
                assert r["points"] == 0 and "relies on" in r["message"], r
            else:
                assert r["status"] == "pass", r


@pytest.mark.heavy
@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_answers_with_unusual_imports_get_every_point(batch, name):
    rows = sandboxed_rows(batch)[f"honest-{name}"]
    for exercise_id in EX01:
        assert rows[exercise_id]["status"] == "pass" and rows[exercise_id]["points"] == rows[exercise_id]["max_points"], \
            rows[exercise_id]


# -- links and limits ----------------------------------------------------------------------------

def assert_refused(rows, *fragments):
    """Every row of the submission is an error worth no points, and says what was refused."""
    assert rows and all(r["status"] == "error" and r["points"] == 0 for r in rows.values()), rows
    for fragment in fragments:
        assert all(fragment in r["message"] for r in rows.values()), (fragment, rows)


@pytest.mark.heavy
def test_a_student_folder_that_is_a_link_is_refused(batch):
    _, rows = batch
    assert_refused(rows["bob"], "symbolic link", "solutions")
    assert all(r["status"] == "pass" for ex, r in rows["alice"].items() if ex in EX01)


@pytest.mark.heavy
def test_a_link_out_of_a_submission_refuses_it(batch):
    _, rows = batch
    assert_refused(rows["carol"], "helpers.py", "outside")


# -- the plan and the withheld copy of lib (no kernel) ----------------------------------------------

@pytest.fixture(scope="module")
def plan():
    import grading.exercises as registry
    from grading.batch.runner import Course
    course = Course(registry, fixed_key(5))
    return course, {stem: course.blind.groups(stem) for stem in course.by_notebook}


def test_every_exercise_is_graded_in_one_kernel_that_withholds_its_references(plan):
    from grading.batch import blind
    course, groups = plan
    for stem, exercises in course.by_notebook.items():
        placed = [i for g in groups[stem] for i in g.exercises]
        assert sorted(placed) == sorted(ex.id for ex in exercises)
        for group in groups[stem]:
            for ex_id in group.exercises:
                ex = course.exercises[ex_id]
                # everything the exercise forbids that the sandbox holds is withheld from its kernel
                assert group.sites[ex_id] == blind.sites_of(ex), ex_id
                assert course.blind.unchecked(ex_id) == frozenset(), ex_id
                # and nothing its own tests need is withheld there
                needs = course.needs(ex)["setup"] | course.needs(ex)["call"]
                clash = [(s.name, n) for s in group.withheld() for n in needs if s.covers(*n)]
                assert clash == [], (ex_id, clash)


def test_transitive_callers_are_covered_by_the_one_stub():
    """multi_head_attention_forward is not withheld itself: it calls split_heads, which is."""
    from grading.batch import blind, packages
    site = blind.Site("lib.attention", "split_heads", "lib.attention.split_heads")
    source = (ROOT / "lib" / "attention.py").read_text(encoding="utf-8")
    out = packages.withhold_source(source, [site])
    space = {"__name__": "lib.attention_blind"}
    exec(compile(out, "attention.py", "exec"), space)
    with pytest.raises(RuntimeError, match=r"lib\.attention\.split_heads is withheld"):
        space["split_heads"]([[1.0, 2.0]], 1)
    with pytest.raises(RuntimeError, match="is withheld"):
        space["multi_head_attention"](*[__import__("numpy").eye(2)[None]] + [__import__("numpy").eye(2)] * 4, 1)
    assert space["causal_future"](2, 2).tolist() == [[False, True], [False, False]]    # the rest still works


def test_the_real_code_is_not_in_the_withheld_copy(tmp_path):
    """Reading lib's files from disk in that kernel finds the stub, not the reference."""
    import inspect
    import lib.attention
    import lib.model
    from grading.batch import blind, packages
    # what mask-2 withholds: the answer (its body, ``masked_softmax.plain``, is the math: no other helper)
    withheld = ("masked_softmax",)
    sites = [*(blind.Site("lib.attention", name, f"lib.attention.{name}") for name in withheld),
             blind.Site("lib.model", "AttentionModel", "lib.model.AttentionModel")]
    packages.build_student_packages(tmp_path / "s")
    packages.build_blind_packages(tmp_path / "s", tmp_path / "b", sites)
    for obj, rel in ((lib.attention.masked_softmax, "lib/attention.py"), (lib.model.AttentionModel.step, "lib/model.py")):
        body = inspect.getsource(obj).splitlines()
        # a line that only calls another withheld function is a call, not the reference's code: other
        # library functions make the same call (and reach the stub)
        lines = [ln.strip() for ln in body[2:] if len(ln.strip()) > 30 and not ln.strip().startswith(("#", '"'))
                 and not any(f"{name}(" in ln for name in withheld)]
        text = (tmp_path / "b" / rel).read_text(encoding="utf-8")
        assert lines and not any(ln in text for ln in lines), rel
    # the kernel loads the copy's bytecode: it is compiled from the withheld source, never the full one's
    import importlib.util
    import marshal
    bytecode = pathlib.Path(importlib.util.cache_from_source(str(tmp_path / "b" / "lib" / "attention.py")))
    data = bytecode.read_bytes()
    assert int.from_bytes(data[4:8], "little") == 0b11       # checked hash: used only while it matches the source
    assert data[8:16] == importlib.util.source_hash((tmp_path / "b" / "lib" / "attention.py").read_bytes())
    space = {"__name__": "lib.attention"}
    exec(marshal.loads(data[16:]), space)
    with pytest.raises(RuntimeError, match=r"lib\.attention\.masked_softmax is withheld"):
        space["masked_softmax"](__import__("numpy").zeros((2, 2)), __import__("numpy").ones((2, 2), bool))
    proc = subprocess.run([sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(tmp_path / 'b')!r}); "
                           "import lib.attention, lib.model, lib.decoder, grading.models; "
                           "print(lib.model.AttentionModel.__name__, lib.attention.__file__)"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["AttentionModel", str(tmp_path / "b" / "lib" / "attention.py")]
