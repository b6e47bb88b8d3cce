"""The exercise registry: what an exercise is, and every exercise of the course.

Exercises are declared, one module per exercise notebook, in
:mod:`grading.specs` (``grading/specs/exNN_name.py``); this module collects
them into :data:`EXERCISES`, an ordered ``{id: Exercise}``.  A spec module
defines::

    NOTEBOOK = "ex01_allowed_set"            # the notebook's stem
    EXERCISES = [exercise(id="mask-1", function="causal_allowed", points=1, ...), ...]

:func:`exercise` takes, besides ``id``, ``function`` (the name the learner
defines) and ``points``:

* ``title`` — the exercise's heading, in English;
* ``reference`` — the callable computing the expected result (from ``lib`` or
  :mod:`grading.references`); it runs in the grader only;
* ``answer`` — the answer the solved notebook shows, when the reference is a
  function of ``lib`` (written in :mod:`grading.references`; default: the
  reference); the bug operators of :mod:`grading.bugs` make the diagnoses'
  wrong versions from it;
* ``public`` — ``() -> [Case]``: the tests ``check()`` runs in the notebook, each
  with a ``label`` in English;
* ``hidden`` — ``(numpy Generator) -> [Case]``: the tests the grader adds, a
  pure function of the random generator, each with a ``kind``;
* ``hidden_kinds`` — ``{kind: Kind(label, like=public case name)}``: what each
  kind of hidden test checks, in English, and the public test closest to it
  (feedback on a hidden test names the property, never its values);
* ``forbidden`` — dotted names of library functions the learner's function
  must not call (its reference is always forbidden, see :mod:`grading.usage`);
* ``forbidden_methods`` — names of methods it must not call on any object
  (``model.step`` when the exercise is to write the step);
* ``forbidden_modules`` — top-level packages it must not touch at all
  (``("numpy", "lib")`` for an exercise in pure Python);
* ``rtol``, ``atol``, ``exact_zeros`` — comparison settings (see :mod:`grading.compare`).

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
import pkgutil
import zlib
from dataclasses import dataclass, field

import numpy as np

from course_i18n import LANGUAGES
from course_i18n.catalogue import Text, text

from .compare import compare_values
from .values import ArgumentChanged, Raised, changed_argument, resolve, snapshot_arguments

__all__ = ["Exercise", "Kind", "SetupError", "exercise", "setup_code", "load_specs", "EXERCISES",
           "total_points", "texts", "LANGUAGES"]



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


@dataclass
class Exercise:
    id: str
    notebook: str
    function: str
    points: int
    reference: object
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
    answer: object = None               # the notebook's answer (grading.references), when the reference is lib's

    def public_cases(self):
        cases = self.make_public()
        for case in cases:
            if case.label is not None:
                case.label = _translated(text_key(self.id, "test", case.name), case.label,
                                         f"{self.id}: the label of test {case.name!r}")
        return cases

    def hidden_cases(self, seed):
        """The hidden tests for ``seed`` (the grader's secret seed, or a practice seed)."""
        rng = np.random.default_rng([int(seed), zlib.crc32(self.id.encode())])
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
        return self.call(self.reference, case)

    def forbidden_names(self):
        """Dotted names of every library object the learner's function must not use."""
        names = [f"{self.reference.__module__}.{self.reference.__name__}"]
        return tuple(dict.fromkeys(names + list(self.forbidden)))

    def forbidden_objects(self):
        objects = []
        for dotted in self.forbidden_names():
            module_name, _, attr = dotted.rpartition(".")
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


def exercise(*, id, function, points, title, reference, public, hidden, hidden_kinds=None, forbidden=(),
             forbidden_methods=(), forbidden_modules=(), rtol=1e-7, atol=1e-9, exact_zeros=False, notebook=None,
             answer=None):
    """Declare one exercise (see the module docstring); ``notebook`` defaults to the spec module's."""
    if not callable(reference):
        raise TypeError(f"{id}: the reference must be a function, got {type(reference).__name__}")
    title = _translated(text_key(id, "title"), title, f"{id}: the title")
    kinds = {name: Kind(_translated(text_key(id, "kind", name), kind.label, f"{id}: the label of kind {name!r}"),
                        kind.like) for name, kind in (hidden_kinds or {}).items()}
    return Exercise(id=id, notebook=notebook, function=function, points=int(points), reference=reference,
                    title=title, make_public=public, make_hidden=hidden, hidden_kinds=kinds,
                    rtol=rtol, atol=atol, exact_zeros=exact_zeros, forbidden=tuple(forbidden),
                    forbidden_methods=tuple(forbidden_methods), forbidden_modules=tuple(forbidden_modules),
                    answer=answer if answer is not None else reference)


def load_specs(package="grading.specs"):
    """Every exercise of every spec module of ``package``, in module-name order."""
    pkg = importlib.import_module(package)
    exercises = {}
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{package}.{info.name}")
        notebook = getattr(module, "NOTEBOOK", None)
        declared = getattr(module, "EXERCISES", None)
        if not isinstance(notebook, str) or not isinstance(declared, (list, tuple)):
            raise ValueError(f"{module.__name__} must define NOTEBOOK (a str) and EXERCISES (a list)")
        for ex in declared:
            ex.notebook = ex.notebook or notebook
            if ex.id in exercises:
                raise ValueError(f"exercise id {ex.id!r} is declared twice ({module.__name__})")
            exercises[ex.id] = ex
    return exercises


EXERCISES = load_specs()


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
