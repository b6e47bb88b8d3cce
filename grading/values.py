"""Test cases as plain data: what a case is, and what a call can give back.

A :class:`Case` has ``name`` (a short language-neutral slug), ``args``
(tuple), ``kwargs`` (dict) and ``setup`` (a string of Python code, usually
empty), plus a localised ``label`` (public tests) or a ``kind`` (hidden tests).
A call that raised gives a :class:`Raised`; a learner's result the grader's
transport cannot carry arrives as an :class:`Opaque`.  Values cross into a
graded kernel through :mod:`grading.codec` (plain JSON, nothing pickled; :func:`to_plain` and
:func:`from_plain` translate between the two vocabularies);
``check()`` runs in the learner's kernel and needs no transport: every call
gets deep copies of the case's arguments (:meth:`grading.registry.Exercise.prepare`).

Exercises whose answer is a test rather than an array function receive
callables built from data: ``case.setup`` is code that, executed in a fresh
namespace, defines names (``model``, ``forward``, ``control`` ...) from the
seeded constructors of :mod:`grading.models`; ``Ref("forward")`` in ``args``
stands for the object of that name (see :func:`resolve`).
"""

from dataclasses import dataclass, field

__all__ = ["Case", "Ref", "Raised", "Opaque", "resolve", "to_plain", "from_plain"]


@dataclass(frozen=True)
class Ref:
    """In a case's args: the object called ``name`` defined by ``case.setup``."""
    name: str


@dataclass(frozen=True)
class Raised:
    """The result of a call that raised: exception type name, message, type names of its MRO."""
    type: str
    message: str = ""
    mro: tuple = ()

    @classmethod
    def from_exception(cls, exc):
        names = tuple(k.__name__ for k in type(exc).__mro__)
        text = str(exc)
        if len(text) > 300:
            text = text[:297] + "..."
        return cls(type(exc).__name__, text, names)

    def is_a(self, type_name_):
        return type_name_ == self.type or type_name_ in self.mro


@dataclass(frozen=True)
class Opaque:
    """A learner's result that cannot be encoded: its type name and a short repr."""
    type: str
    repr: str = ""


@dataclass
class Case:
    """One call of the learner's function: ``func(*args, **kwargs)`` after ``setup``.

    ``name`` is a short language-neutral slug (it names the test in reports);
    ``label`` is what a learner reads: written in English, a ``{lang: text}`` once its exercise translates it
    (public tests); ``kind`` names the property a hidden test checks, a key of
    its exercise's ``hidden_kinds`` (hidden tests never show their values).
    """
    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    setup: str = ""
    label: dict = None
    kind: str = None


def resolve(obj, namespace):
    """Replace every :class:`Ref` inside ``obj`` by ``namespace[ref.name]``."""
    if isinstance(obj, Ref):
        if obj.name not in namespace:
            raise KeyError(f"the case setup defines no {obj.name!r}")
        return namespace[obj.name]
    if isinstance(obj, tuple):
        return tuple(resolve(x, namespace) for x in obj)
    if isinstance(obj, list):
        return [resolve(x, namespace) for x in obj]
    if isinstance(obj, dict):
        return {k: resolve(v, namespace) for k, v in obj.items()}
    return obj


def to_plain(obj):
    """``obj`` in the vocabulary of :mod:`grading.codec` (a case's arguments, a stored expected value)."""
    from . import codec
    if isinstance(obj, Ref):
        return codec.Ref(obj.name)
    if isinstance(obj, Raised):
        return codec.RaisedError(obj.type, obj.message, obj.mro[1:])
    if isinstance(obj, (tuple, list)):
        return type(obj)(to_plain(x) for x in obj)
    if isinstance(obj, dict):
        return {k: to_plain(v) for k, v in obj.items()}
    return obj


def from_plain(value):
    """A value decoded by :mod:`grading.codec` in this module's vocabulary (Raised, Opaque)."""
    from . import codec
    if isinstance(value, codec.RaisedError):
        bases = tuple(value.bases)
        if value.type_name == "StdinNotImplementedError":
            # IPython derives it from NotImplementedError, which would read as "not done yet"
            bases = tuple(b for b in bases if b != "NotImplementedError")
        return Raised(value.type_name, value.message, (value.type_name,) + bases)
    if isinstance(value, codec.Unsupported):
        return Opaque(value.type_name, value.text)
    if isinstance(value, codec.Ref):
        return Opaque("Ref", value.name)
    if isinstance(value, (tuple, list)):
        return type(value)(from_plain(x) for x in value)
    if isinstance(value, dict):
        return {k: from_plain(v) for k, v in value.items()}
    return value


ARGUMENT_CHANGED = "ArgumentChanged"     # the type name of the Raised a call gets when it changed an argument


from .arguments import ArgumentChanged, changed_argument, snapshot_arguments  # noqa: E402,F401


