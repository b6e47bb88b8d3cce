"""Does a learner's function rely on the library's reference answer?  Decided by what it does.

Every exercise is graded in a kernel that *withholds* its forbidden objects
(its reference, when the library holds it, ``Exercise.forbidden`` and
``Exercise.forbidden_methods``): the kernel's ``lib`` (and ``grading.models``)
is a copy in which their bodies are replaced, in the source files themselves,
by a ``raise`` (packages.py builds it; this module decides what it withholds).
The notebook's cells run from the start in that kernel, then
the public and hidden tests are called; a function whose results depend on a
withheld object fails them, and its row names the object it ran into.

Why this holds where reading the source could not:

* the kernel is a fresh process in a fresh sandbox (see sandbox.py), which
  imports ``lib`` only when the notebook's code does: nothing the notebook
  does can bring the real code back, because the real code is not there.  ``import lib``, ``from lib.attention import *``,
  ``importlib``, a helper module written at run time, a copy kept in NumPy or
  in a container, a pickle, reading ``/course/lib/*.py`` and exec'ing it: all
  of them find the stub;
* every library function that *calls* a withheld one (``multi_head_attention``
  calling ``split_heads``, ``causal_attention_backward`` calling
  ``masked_softmax_backward``) calls the stub too, since the stub replaced the
  one definition every module imports: transitive use fails the same way;
* importing, inspecting and printing never change what a function returns, so
  they never cost points.

Without a sandbox (``--isolation none``) the kernel sees the grader's files,
the repository's ``lib`` among them, so the withholding holds only against
answers that do not go looking for it; the grader warns loudly in that mode.

The cost: a notebook whose exercises need different things withheld is graded
in more than one kernel (ex03, ex04 and ex07 in two, ex05 in three: 12 kernels
for the whole course instead of 7); the next kernel starts while the current one
works (runner.Prestart).

Which exercises share a kernel (:class:`BlindPlan`) is worked out once per
batch, in the grader, while it computes the expected values: the setup code
and the reference of every test run under a trace function, and an object is
never withheld in a kernel where another exercise's tests need it (ex04: the
feature-normalised models that causal-1 to causal-3 are tested on are
causal-4's reference).  An object an exercise's own tests need cannot be
withheld for it: :meth:`BlindPlan.unchecked` lists those (none today: dec-3's
tests fill the decoder's caches from the full forward pass, not with
``Decoder.step``, the method dec-3 may not call), and :mod:`grading.usage`
reads the source for them instead (see runner.py).
"""

import dataclasses
import importlib
import inspect
import pathlib
import pkgutil
import sys
import threading

# WITHHELD_MARK (packages.py writes the stubs it finds) is read by runner.py through this module
from .packages import LIB_DIR, STUDENT_MODULES, WITHHELD_MARK, module_file  # noqa: F401


@dataclasses.dataclass(frozen=True, order=True)
class Site:
    """One definition to withhold: ``module`` (``lib.attention``), ``qualname`` (``masked_softmax``,
    ``AttentionModel`` for a whole class, ``Decoder.step`` for one method) and the name reports use."""
    module: str
    qualname: str
    name: str

    def covers(self, module, qualname):
        """Does running code ``module``/``qualname`` mean running this definition?"""
        return module == self.module and (qualname == self.qualname or qualname.startswith(self.qualname + "."))


def resolve(site):
    """The object a Site names, in the grader (trusted code), or None."""
    try:
        obj = importlib.import_module(site.module)
        for part in site.qualname.split("."):
            obj = getattr(obj, part)
        return obj
    except Exception:  # noqa: BLE001
        return None


def _sandbox_classes():
    """Every class defined in the sandbox's packages: (module, class)."""
    names = ["lib"] + [f"lib.{m.name}" for m in pkgutil.iter_modules([str(LIB_DIR)])] + list(STUDENT_MODULES)
    out = []
    for name in names:
        try:
            module = importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module that cannot be imported holds nothing to withhold
            continue
        for value in vars(module).values():
            if inspect.isclass(value) and value.__module__ == name:
                out.append((name, value))
    return out


def sites_of(exercise):
    """The definitions withheld for ``exercise`` in its blind kernel (those the sandbox holds)."""
    sites = set()
    if not hasattr(exercise, "forbidden_objects"):         # a stand-in registry: nothing to withhold
        return frozenset()
    for obj, dotted in zip(exercise.forbidden_objects(), exercise.forbidden_names()):
        module = getattr(obj, "__module__", None) or ""
        qualname = getattr(obj, "__qualname__", None) or ""
        if module_file(module) and qualname and "<locals>" not in qualname:
            sites.add(Site(module, qualname, dotted))
    methods = tuple(getattr(exercise, "forbidden_methods", ()))
    if methods:
        for module, cls in _sandbox_classes():
            for method in methods:
                if method in vars(cls):
                    qual = f"{cls.__qualname__}.{method}"
                    sites.add(Site(module, qual, f"{module}.{qual}"))
    return frozenset(sites)


def _code_site(code):
    """(module, qualname) of a code object from the sandbox's packages, else None."""
    path = code.co_filename
    try:
        rel = pathlib.Path(path).resolve().relative_to(LIB_DIR.parent)
    except (ValueError, OSError):
        return None
    parts = rel.with_suffix("").parts
    module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
    if not module_file(module):
        return None
    return module, getattr(code, "co_qualname", code.co_name)


def expected_and_needs(exercise, cases):
    """The expected values of ``exercise``'s tests, ``[exercise.expected(case)]``, and what computing
    them runs of the sandbox's packages: {"setup": {(module, qualname)}, "call": {...}}.

    ``setup`` is what each test's setup runs (:meth:`Exercise.prepare`), ``call`` what the
    reference reaches from the test's arguments, not counting the inside of the exercise's own
    forbidden objects (the grader's reference may use them; a learner's answer may not).  Trusted
    code only, in the grader; a trace function that sees Python calls only (never NumPy's C calls)
    and sets no local tracer keeps it cheap."""
    own = sites_of(exercise)
    found = {"setup": set(), "call": set()}
    phase = ["setup"]
    known = {}

    def site_of(code):
        if code not in known:
            site = _code_site(code)
            known[code] = (site, site is not None and any(s.covers(*site) for s in own))
        return known[code]

    def tracer(frame, event, arg):
        site, is_own = site_of(frame.f_code)
        if site is None or site in found[phase[0]]:
            return None
        if phase[0] == "call":
            if is_own:
                return None
            back = frame.f_back
            while back is not None:                    # inside one of the exercise's own forbidden objects?
                if site_of(back.f_code)[1]:
                    return None
                back = back.f_back
        found[phase[0]].add(site)
        return None

    def reference(*args, **kwargs):                    # what Exercise.expected calls, with the phase marked
        phase[0] = "call"
        try:
            return exercise.reference(*args, **kwargs)
        finally:
            phase[0] = "setup"

    _clear_caches()              # a model the grader already built would hide what building it runs
    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        expected = [exercise.call(reference, case) for case in cases]
    finally:
        sys.settrace(previous)
    return expected, found


def _clear_caches():
    """Empty every ``functools`` cache of the sandbox's modules (a trained test model, say)."""
    for name, module in list(sys.modules.items()):
        if module is None or not module_file(name):
            continue
        for value in list(vars(module).values()):
            if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                value.cache_clear()


@dataclasses.dataclass
class Group:
    """Exercises of one notebook graded in one kernel, and what that kernel withholds."""
    exercises: list                       # exercise ids, registry order
    sites: dict                           # exercise id -> frozenset of Site withheld for it
    needs: set = dataclasses.field(default_factory=set)   # what their tests run: never withheld here

    def withheld(self):
        return frozenset().union(*self.sites.values()) if self.sites else frozenset()


class BlindPlan:
    """Per notebook: the kernels it is graded in, each with the exercises it grades and what
    it withholds (worked out once per batch, on the batch's tests)."""

    def __init__(self, course):
        self.course = course
        self._groups = {}
        self._unchecked = {}
        self._lock = threading.Lock()

    def groups(self, stem):
        """[Group]: every exercise in scope of notebook ``stem`` is in exactly one."""
        with self._lock:
            if stem not in self._groups:
                self._plan(stem)
            return self._groups[stem]

    def unchecked(self, exercise_id):
        """Sites of ``exercise_id`` no kernel can withhold (its own tests need them)."""
        ex = self.course.exercises[exercise_id]
        self.groups(ex.notebook)
        return self._unchecked.get(exercise_id, frozenset())

    def _plan(self, stem):
        groups = []
        for ex in self.course.by_notebook.get(stem, []):
            sites = sites_of(ex)
            needs = self.course.needs(ex)
            own_setup = {s for s in sites if any(s.covers(*n) for n in needs["setup"])}
            if own_setup:
                self._unchecked[ex.id] = frozenset(own_setup)
                sites = frozenset()            # a partial check would only say less than the source does
            everything = needs["setup"] | needs["call"]
            for group in groups:
                clash = any(s.covers(*n) for s in group.withheld() for n in everything) or any(
                    s.covers(*n) for s in sites for n in group.needs)
                if not clash:
                    group.exercises.append(ex.id)
                    group.sites[ex.id] = frozenset(sites)
                    group.needs |= everything
                    break
            else:
                groups.append(Group([ex.id], {ex.id: frozenset(sites)}, set(everything)))
        self._groups[stem] = groups


def names(sites):
    """The withheld objects as a report names them, sorted, briefly."""
    shown = sorted({s.name for s in sites})
    return ", ".join(shown[:4]) + (" …" if len(shown) > 4 else "")
