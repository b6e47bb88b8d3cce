"""The exercise registry: what an exercise is, and every exercise of the course.

Exercises are declared, one module per exercise notebook, in
:mod:`grading.specs` (``grading/specs/exNN_name.py``); this module collects
them into :data:`EXERCISES`, an ordered ``{id: Exercise}`` that imports a spec
module only when one of its exercises is asked for (``check("mask-2", f)`` loads
``grading/specs/ex01_allowed_set.py`` and no other).  A spec module defines::

    NOTEBOOK = "ex01_allowed_set"            # the notebook's stem
    EXERCISES = [exercise(id="mask-1", function="causal_allowed", points=1, ...), ...]

:func:`exercise` takes, besides ``id``, ``function`` (the name the learner
defines) and ``points``:

* ``title`` — the exercise's heading, in English;
* ``reference`` — the callable computing the expected result (from ``lib``), or the
  dotted name of one (``"grading.references.causal_allowed"``), imported on first use:
  ``check()`` reads the public tests' expected values from the spec's stored
  ``<module>.expected.json`` (``tools/expected.py`` writes it) and never imports
  :mod:`grading.references`;
* ``answer`` — the answer the solved notebook shows, when the reference is a
  function of ``lib``: the dotted name of one written in :mod:`grading.references`
  (default: the reference); the bug operators of :mod:`grading.bugs` make the
  diagnoses' wrong versions from it, so a failing ``check()`` imports that module;
* ``public`` — ``() -> [Case]``: the tests ``check()`` runs in the notebook, each
  with a ``label`` in English;
* ``hidden`` — ``(numpy Generator) -> [Case]``: the tests the grader adds, a
  pure function of the random generator, each with a ``kind``.  ``check(...,
  practice=seed)`` draws them from :func:`practice_rng`; the grader from a
  generator keyed by its secret (grading/batch/secret.py), a stream that no
  practice seed reaches;
* ``hidden_kinds`` — ``{kind: Kind(label, like=public case name)}``: what each
  kind of hidden test checks, in English, and the public test closest to it
  (feedback on a hidden test names the property, never its values);
* ``forbidden`` — dotted names of library functions the learner's function
  must not call (its reference is always forbidden, see :mod:`grading.usage`);
* ``forbidden_methods`` — names of methods it must not call on any object
  (``model.step`` when the exercise is to write the step);
* ``forbidden_modules`` — top-level packages it must not touch at all
  (``("numpy", "lib")`` for an exercise in pure Python);
* ``rtol``, ``atol``, ``exact_zeros`` — comparison settings (see :mod:`grading.compare`);
* ``notebook`` — the stem of the notebook the exercise is in (default: the spec module's
  ``NOTEBOOK``).

Titles and labels are written in English only; the registry makes each a
:class:`course_i18n.catalogue.Text` (``{lang: text}`` in every language of the course)
under a key built from the exercise's id and the test's or kind's name
(:func:`text_key`), so their translations live in the catalogues
``course_i18n/locales/<lang>/LC_MESSAGES/course.po`` (``tools/i18n.py``).

Case setups build their models with ``from grading import models as m``
(:mod:`grading.models` is the one part of the package a sandbox holds).
"""

import copy
import importlib
import importlib.util
import json
import pathlib
import pkgutil
import re
import sys
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from course_i18n import LANGUAGES
from course_i18n.catalogue import Text, text

from .compare import compare_values
from .values import ArgumentChanged, Raised, changed_argument, from_plain, resolve, snapshot_arguments

__all__ = ["Exercise", "Kind", "SetupError", "exercise", "setup_code", "load_specs", "EXERCISES", "Registry",
           "practice_rng", "total_points", "texts", "LANGUAGES"]

PRACTICE = 0x70726163               # "prac": the first word of every practice draw's entropy (see practice_rng)


def text_key(exercise_id, what, name=None):
    """The catalogue key of an exercise's text: its ``title``, a public ``test``'s label or a
    hidden ``kind``'s label (``grading.exercise.mask-2.test.empty-row``)."""
    return ".".join(["grading.exercise", exercise_id, what] + ([name] if name else []))


def _translated(key, english, where):
    if isinstance(english, Text):
        return english
    if not isinstance(english, str):
        raise TypeError(f"{where}: write the text in English, as a str (its translations are in the "
                        f"catalogues, tools/i18n.py); got {type(english).__name__}")
    return text(key, english)


@dataclass(frozen=True)
class Kind:
    """What one kind of hidden test checks: ``label`` (in English; in every language once its
    exercise is declared) and the name of the public test that checks the same property
    (``like``, optional)."""
    label: object
    like: str = None


class SetupError(RuntimeError):
    """The setup code of a case failed (a problem of the case, not of the learner)."""


def setup_code(*lines):
    """Setup code of a case, one statement per argument."""
    return "\n".join(lines) + "\n"


def practice_rng(seed, exercise_id):
    """The generator of ``check(exercise_id, f, practice=seed)``: entropy ``[PRACTICE, seed, crc32(id)]``, three
    words.  The grader draws from 256-bit entropy keyed by its secret (grading/batch/secret.py), so no
    practice seed gives a grading case."""
    seed = int(seed)
    if not 0 <= seed < 2 ** 32:
        raise ValueError(f"a practice seed is a whole number from 0 to {2 ** 32 - 1}, got {seed}")
    return np.random.default_rng([PRACTICE, seed, zlib.crc32(exercise_id.encode())])


@dataclass
class Exercise:
    id: str
    notebook: str
    function: str
    points: int
    reference_spec: object              # the reference: a callable, or its dotted name (imported on first use)
    title: dict
    make_public: object                 # () -> list[Case]
    make_hidden: object                 # (np.random.Generator) -> list[Case]
    hidden_kinds: dict = field(default_factory=dict)
    rtol: float = 1e-7
    atol: float = 1e-9
    exact_zeros: bool = False
    forbidden: tuple = ()               # dotted names the learner's function must not use
    forbidden_methods: tuple = ()       # method names it must not call on any object
    forbidden_modules: tuple = ()       # top-level packages it must not use at all (pure-Python exercises)
    module: str = None                  # the spec module that declares it (its stored expected values sit beside it)
    answer_spec: object = None          # the notebook's answer: a callable or its dotted name (None: the reference)

    @property
    def reference(self):
        """The reference function (imported on first use when the spec names it)."""
        if isinstance(self.reference_spec, str):
            self.reference_spec = named_function(self.reference_spec)
        return self.reference_spec

    @property
    def answer(self):
        """The answer the solved notebook shows, the base of the diagnoses' mutants (:mod:`grading.bugs`): the
        reference unless the spec names another (imported on first use, as the reference is)."""
        if self.answer_spec is None:
            return self.reference
        if isinstance(self.answer_spec, str):
            self.answer_spec = named_function(self.answer_spec)
        return self.answer_spec

    def public_cases(self):
        cases = self.make_public()
        for case in cases:
            if case.label is not None:
                case.label = _translated(text_key(self.id, "test", case.name), case.label,
                                         f"{self.id}: the label of test {case.name!r}")
        return cases

    def hidden_cases(self, draw):
        """The tests of the hidden kinds drawn by ``draw``: a numpy Generator (the grader's, keyed by its
        secret), or a practice seed (:func:`practice_rng`)."""
        rng = draw if isinstance(draw, np.random.Generator) else practice_rng(draw, self.id)
        cases = self.make_hidden(rng)
        for case in cases:
            case.name = f"hidden-{case.name}"
        return cases

    def compare(self, expected, got):
        """-> (ok, reason_key, details); tolerance ``rtol``/``atol`` (float32: at least 1e-4/1e-5)."""
        return compare_values(expected, got, self.rtol, self.atol, self.exact_zeros)

    def prepare(self, case):
        """Run the case's setup in a fresh namespace; return (args, kwargs) ready to call."""
        namespace = {}
        if case.setup:
            try:
                exec(compile(case.setup, f"<setup of {self.id}:{case.name}>", "exec"), namespace)
            except Exception as exc:  # noqa: BLE001 - reported as a setup failure
                raise SetupError(f"{type(exc).__name__}: {exc}") from exc
        # every call gets fresh copies: a function that changes its arguments cannot spoil the next test
        args = resolve(copy.deepcopy(tuple(case.args)), namespace)
        kwargs = resolve(copy.deepcopy(dict(case.kwargs)), namespace)
        return args, kwargs

    def call(self, func, case):
        """func on the case: its result, or a Raised.  SetupError if the setup fails."""
        args, kwargs = self.prepare(case)
        before = snapshot_arguments(args, kwargs)
        try:
            result = func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - any learner error is a failed case
            return Raised.from_exception(exc)
        changed = changed_argument(args, kwargs, before)
        if changed is not None:                # the caller's array changed under it: a failed case
            return Raised.from_exception(ArgumentChanged(str(changed)))
        return result

    def expected(self, case):
        """What ``case`` expects: a public test's stored value, else the reference's result."""
        stored = stored_expected(self.module).get(self.id, {})
        if case.name in stored:
            from . import codec
            return from_plain(codec.decode(stored[case.name]))
        return self.call(self.reference, case)

    def forbidden_names(self):
        """Dotted names of every library object the learner's function must not use."""
        spec = self.reference_spec
        names = [spec if isinstance(spec, str) else f"{spec.__module__}.{spec.__name__}"]
        return tuple(dict.fromkeys(names + list(self.forbidden)))

    def forbidden_objects(self, loaded_only=False):
        """The objects of :meth:`forbidden_names` (``loaded_only``: None for one whose module no one has
        imported, which no function can be using)."""
        objects = []
        for dotted in self.forbidden_names():
            module_name, _, attr = dotted.rpartition(".")
            if loaded_only and module_name not in sys.modules:
                objects.append(None)
                continue
            objects.append(getattr(importlib.import_module(module_name), attr))
        return objects

    def label_of(self, case, lang):
        """What a learner reads for ``case``: its label (public) or its kind's label (hidden)."""
        if case.label:
            return case.label.get(lang) or case.label["en"]
        kind = self.hidden_kinds.get(case.kind)
        if kind is not None:
            return kind.label.get(lang) or kind.label["en"]
        return case.name


def expected_path(module):
    """The file of a spec module's stored expected values: ``grading/specs/<name>.expected.json``."""
    spec = importlib.util.find_spec(module)
    return pathlib.Path(spec.origin).with_suffix(".expected.json")


_STORED = {}


def stored_expected(module):
    """{exercise id: {public test name: codec payload}} stored beside spec ``module`` ({} when there is none)."""
    if module not in _STORED:
        try:
            _STORED[module] = json.loads(expected_path(module).read_text(encoding="utf-8")) if module else {}
        except FileNotFoundError:
            _STORED[module] = {}
    return _STORED[module]


def named_function(dotted):
    """The object ``"package.module.name"`` denotes, its module imported."""
    module_name, _, attr = dotted.rpartition(".")
    return getattr(importlib.import_module(module_name), attr)


def exercise(*, id, function, points, title, reference, public, hidden, hidden_kinds=None, forbidden=(),
             forbidden_methods=(), forbidden_modules=(), rtol=1e-7, atol=1e-9, exact_zeros=False, notebook=None,
             answer=None):
    """Declare one exercise (see the module docstring); ``notebook`` defaults to the spec module's."""
    for what, value in (("reference", reference), ("answer", answer)):
        if not (callable(value) or isinstance(value, str) and "." in value or what == "answer" and value is None):
            raise TypeError(f"{id}: the {what} must be a function or its dotted name, got {type(value).__name__}")
    title = _translated(text_key(id, "title"), title, f"{id}: the title")
    kinds = {name: Kind(_translated(text_key(id, "kind", name), kind.label, f"{id}: the label of kind {name!r}"),
                        kind.like) for name, kind in (hidden_kinds or {}).items()}
    return Exercise(id=id, notebook=notebook, function=function, points=int(points), reference_spec=reference,
                    title=title, make_public=public, make_hidden=hidden, hidden_kinds=kinds,
                    rtol=rtol, atol=atol, exact_zeros=exact_zeros, forbidden=tuple(forbidden),
                    forbidden_methods=tuple(forbidden_methods), forbidden_modules=tuple(forbidden_modules),
                    answer_spec=answer)


def _spec_modules(package):
    pkg = importlib.import_module(package)
    return [f"{package}.{info.name}" for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name)
            if not info.name.startswith("_")]


def _load_module(name):
    module = importlib.import_module(name)
    notebook = getattr(module, "NOTEBOOK", None)
    declared = getattr(module, "EXERCISES", None)
    if not isinstance(notebook, str) or not isinstance(declared, (list, tuple)):
        raise ValueError(f"{module.__name__} must define NOTEBOOK (a str) and EXERCISES (a list)")
    for ex in declared:
        ex.notebook = ex.notebook or notebook
        ex.module = name
    return list(declared)


def load_specs(package="grading.specs"):
    """Every exercise of every spec module of ``package``, in module-name order."""
    exercises = {}
    for name in _spec_modules(package):
        for ex in _load_module(name):
            if ex.id in exercises:
                raise ValueError(f"exercise id {ex.id!r} is declared twice ({name})")
            exercises[ex.id] = ex
    return exercises


_DECLARED_ID = re.compile(r"""\bexercise\(\s*id\s*=\s*["']([^"']+)["']""")


class Registry(Mapping):
    """The exercises of ``package`` (:func:`load_specs`), importing a spec module only when one of its
    exercises is asked for by id: which module declares an id is read from the modules' source (``index``);
    iterating, or an id the source does not show plainly, loads them all."""

    def __init__(self, package="grading.specs"):
        self.package = package
        self._by_module = {}
        self._all = None
        self._index = None

    def index(self):
        """{exercise id: spec module}, read from the spec modules' source without importing them."""
        if self._index is None:
            index = {}
            for name in _spec_modules(self.package):
                text = pathlib.Path(importlib.util.find_spec(name).origin).read_text(encoding="utf-8")
                index.update({i: name for i in _DECLARED_ID.findall(text)})
            self._index = index
        return self._index

    def _all_exercises(self):
        if self._all is None:
            self._all = load_specs(self.package)     # a module imported before gives the same objects
        return self._all

    def __getitem__(self, exercise_id):
        if self._all is None:
            module = self.index().get(exercise_id)
            if module is not None:
                if module not in self._by_module:
                    self._by_module[module] = _load_module(module)
                for ex in self._by_module[module]:
                    if ex.id == exercise_id:
                        return ex
        return self._all_exercises()[exercise_id]

    def __contains__(self, exercise_id):
        return exercise_id in self.index() or exercise_id in self._all_exercises()

    def __iter__(self):
        return iter(self._all_exercises())

    def __len__(self):
        return len(self._all_exercises())


EXERCISES = Registry()


def total_points():
    return sum(ex.points for ex in EXERCISES.values())


def texts(exercises=None):
    """``(where, Text)`` for every text of the exercises a learner reads: each title, public
    test label and hidden kind label (tests/test_glossary.py checks them; tools/i18n.py
    extract calls it so that every one is made)."""
    for ex in (EXERCISES if exercises is None else exercises).values():
        yield f"{ex.id} title", ex.title
        for case in ex.public_cases():
            if case.label:
                yield f"{ex.id} test {case.name}", case.label
        for name, kind in ex.hidden_kinds.items():
            yield f"{ex.id} hidden kind {name}", kind.label
