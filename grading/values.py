"""Test cases as plain data: what a case is, and its JSON image.

A :class:`Case` has ``name`` (a short language-neutral slug), ``args``
(tuple), ``kwargs`` (dict) and ``setup`` (a string of Python code, usually
empty), plus a localised ``label`` (public tests) or a ``kind`` (hidden tests).
``to_jsonable`` turns args, kwargs and results into JSON-encodable values and
``from_jsonable`` turns them back; nothing is pickled:

* numpy array -> ``{"__ndarray__": flat list, "dtype": "float64", "shape": [...]}``
  (non-finite floats appear as the strings ``"nan"``, ``"inf"``, ``"-inf"``);
* numpy scalar -> ``{"__npscalar__": value, "dtype": ...}``;
* non-finite Python float -> ``{"__float__": "nan" | "inf" | "-inf"}``;
* tuple -> ``{"__tuple__": [...]}``; lists, str-keyed dicts, str, int, bool,
  None and finite floats stay as they are (a dict whose keys look like
  ``__name__`` is wrapped as ``{"__dict__": [[key, value], ...]}``);
* :class:`Ref` -> ``{"__ref__": name}``; :class:`Raised` ->
  ``{"__raised__": type, "message": ..., "mro": [...]}``; :class:`Opaque`
  (a learner's result that is none of the above) -> ``{"__opaque__": type, "repr": ...}``.

Exercises whose answer is a test rather than an array function receive
callables built from data: ``case.setup`` is code that, executed in a fresh
namespace, defines names (``model``, ``forward``, ``control`` ...) from the
seeded constructors of :mod:`grading.models`; ``Ref("forward")`` in ``args``
stands for the object of that name (see :meth:`grading.registry.Exercise.prepare`).
"""

import math
import types
from dataclasses import dataclass, field

import numpy as np

__all__ = ["Case", "Ref", "Raised", "Opaque", "to_jsonable", "from_jsonable", "resolve", "encode_result"]

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
    ``label`` is what a learner reads, ``{"zh": ..., "en": ..., "ru": ...}``
    (public tests); ``kind`` names the property a hidden test checks, a key of
    its exercise's ``hidden_kinds`` (hidden tests never show their values).
    """
    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    setup: str = ""
    label: dict = None
    kind: str = None

    def to_jsonable(self):
        return {"name": self.name, "args": to_jsonable(tuple(self.args)),
                "kwargs": to_jsonable(dict(self.kwargs)), "setup": self.setup}

    @classmethod
    def from_jsonable(cls, data):
        return cls(data["name"], from_jsonable(data["args"]), from_jsonable(data["kwargs"]), data.get("setup", ""))


_MARKERS = ("__ndarray__", "__npscalar__", "__float__", "__tuple__", "__dict__",
            "__ref__", "__raised__", "__opaque__")


def _float_to_json(x):
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def to_jsonable(obj):
    """A JSON-encodable image of ``obj`` (see the module docstring); TypeError if impossible."""
    if obj is None or isinstance(obj, (str, bool)):
        return obj
    if isinstance(obj, np.ndarray):
        if obj.dtype.kind == "f":
            data = [_float_to_json(x) for x in obj.reshape(-1).tolist()]
        elif obj.dtype.kind in "biu":
            data = obj.reshape(-1).tolist()
        else:
            raise TypeError(f"cannot encode an array of dtype {obj.dtype}")
        return {"__ndarray__": data, "dtype": str(obj.dtype), "shape": list(obj.shape)}
    if isinstance(obj, np.generic):
        if obj.dtype.kind not in "biuf":
            raise TypeError(f"cannot encode a numpy scalar of dtype {obj.dtype}")
        value = obj.item()
        return {"__npscalar__": _float_to_json(value) if obj.dtype.kind == "f" else value, "dtype": str(obj.dtype)}
    if isinstance(obj, int):
        return int(obj)
    if isinstance(obj, float):
        value = _float_to_json(obj)
        return {"__float__": value} if isinstance(value, str) else value
    if isinstance(obj, tuple):
        return {"__tuple__": [to_jsonable(x) for x in obj]}
    if isinstance(obj, list):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, dict):
        if not all(isinstance(k, str) for k in obj):
            raise TypeError("cannot encode a dict whose keys are not all strings")
        if any(k.startswith("__") and k.endswith("__") for k in obj):
            return {"__dict__": [[k, to_jsonable(v)] for k, v in obj.items()]}
        return {k: to_jsonable(v) for k, v in obj.items()}
    if isinstance(obj, Ref):
        return {"__ref__": obj.name}
    if isinstance(obj, Raised):
        return {"__raised__": obj.type, "message": obj.message, "mro": list(obj.mro)}
    if isinstance(obj, Opaque):
        return {"__opaque__": obj.type, "repr": obj.repr}
    raise TypeError(f"cannot encode an object of type {type(obj).__name__}")


def _float_from_json(x):
    return float(x) if isinstance(x, str) else x


def from_jsonable(obj):
    """The inverse of :func:`to_jsonable`."""
    if isinstance(obj, list):
        return [from_jsonable(x) for x in obj]
    if not isinstance(obj, dict):
        return obj
    if "__ndarray__" in obj:
        dtype = np.dtype(obj["dtype"])
        data = obj["__ndarray__"]
        if dtype.kind == "f":
            data = [_float_from_json(x) for x in data]
        return np.array(data, dtype=dtype).reshape(obj["shape"])
    if "__npscalar__" in obj:
        dtype = np.dtype(obj["dtype"])
        return dtype.type(_float_from_json(obj["__npscalar__"]) if dtype.kind == "f" else obj["__npscalar__"])
    if "__float__" in obj:
        return float(obj["__float__"])
    if "__tuple__" in obj:
        return tuple(from_jsonable(x) for x in obj["__tuple__"])
    if "__dict__" in obj:
        return {k: from_jsonable(v) for k, v in obj["__dict__"]}
    if "__ref__" in obj:
        return Ref(obj["__ref__"])
    if "__raised__" in obj:
        return Raised(obj["__raised__"], obj.get("message", ""), tuple(obj.get("mro", ())))
    if "__opaque__" in obj:
        return Opaque(obj["__opaque__"], obj.get("repr", ""))
    return {k: from_jsonable(v) for k, v in obj.items()}


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


def encode_result(value):
    """:func:`to_jsonable` that never fails: unencodable values become an :class:`Opaque`."""
    try:
        return to_jsonable(value)
    except (TypeError, ValueError, OverflowError):
        text = repr(value) if not isinstance(value, types.FunctionType) else f"<function {value.__name__}>"
        return to_jsonable(Opaque(type(value).__name__, text[:120]))


ARGUMENT_CHANGED = "ArgumentChanged"     # the type name of the Raised a call gets when it changed an argument


from .arguments import ArgumentChanged, changed_argument, snapshot_arguments  # noqa: E402,F401


