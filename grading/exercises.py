"""The exercise registry: cases, references, comparison and instant feedback.

Notebooks ``exercises/{zh,en,ru}/exNN_*.ipynb`` ask the learner to define a
function in the notebook and then run one line such as::

    check("mask-2", masked_softmax)

which runs the *public* cases of that exercise in the learner's kernel and
prints, in the notebook's language (see :mod:`grading.feedback`), which case
passed, which failed and why.  The batch grader (``python -m grading``) uses the
same registry with *hidden* cases generated from a secret seed.

Registry
--------
``EXERCISES`` maps an exercise id (``"mask-1"`` ... ``"cache-3"``) to an
:class:`Exercise` with the fields

* ``id``, ``notebook`` (stem, e.g. ``"ex01_allowed_set"``), ``function`` (the
  name the learner defines), ``points`` (int), ``title`` (``{lang: text}``);
* ``public_cases()`` -> list of :class:`Case`;
* ``hidden_cases(seed)`` -> list of :class:`Case`, a pure function of ``seed``;
* ``reference`` -> the callable computing the expected result (from ``lib``);
* ``compare(expected, got)`` -> ``(ok, reason_key, details)``, with explicit
  tolerances (``rtol``/``atol`` for float64, looser for float32) and exact
  dtype and shape requirements;
* ``expected(case)`` and ``call(func, case)`` run the reference or a function
  on a case in the current process and return its result, or a :class:`Raised`
  if it raised;
* ``forbidden`` -> dotted names of library functions the learner must not
  simply call (see :func:`uses_library`).

Cases are plain data
--------------------
A :class:`Case` has ``name`` (a short language-neutral slug), ``args``
(tuple), ``kwargs`` (dict) and ``setup`` (a string of Python code, usually
empty).  ``to_jsonable`` turns args, kwargs and results into JSON-encodable
values and ``from_jsonable`` turns them back; nothing is pickled:

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

Exercises whose answer is a test rather than an array function (for example
``future_perturbation_change(forward, ids, position, replacement)``) receive
callables built from data: ``case.setup`` is code that, executed in a fresh
namespace, defines names (``model``, ``forward``, ``control`` ...) from seeded
constructors in :mod:`grading.exercise_models`; ``Ref("forward")`` in ``args``
stands for the object of that name.  To run a case anywhere (learner kernel
or grader) do what :meth:`Exercise.call` does::

    namespace = {}
    exec(case.setup, namespace)                       # builds the models
    args = resolve(from_jsonable(json_args), namespace)
    result = func(*args, **kwargs)

The grader computes the expected result in its own process with
``exercise.expected(case)``, which runs the same setup, and compares it with
the learner's result shipped back through ``to_jsonable``/``from_jsonable``
(use :func:`encode_result` for a result that may not be encodable).

Calling the library instead of writing the function
---------------------------------------------------
``lib`` contains reference versions of several answers (``masked_softmax``,
``split_heads``, ``embed`` ...).  The exercises ask for the function written
in the notebook.  :func:`uses_library` detects the plain cases: the function
*is* a forbidden library function, or its code refers to one (directly, via
``lib.attention.masked_softmax``, or via an imported module alias).  ``check``
then prints a warning, and the grader should give no points for that
exercise.  Building blocks taught earlier (e.g. ``causal_attention`` inside
``heads-3``, ``model.step`` inside ``cache-1``) remain allowed.
"""

import copy
import math
import numbers
import types
import zlib
from dataclasses import dataclass, field

import numpy as np

from lib import attention, layers, positions

from . import exercise_models
from .feedback import detect_language, message, type_name

__all__ = [
    "EXERCISES", "Exercise", "Case", "Ref", "Raised", "Opaque",
    "to_jsonable", "from_jsonable", "resolve", "encode_result",
    "check", "run_checks", "uses_library", "total_points",
]


# --------------------------------------------------------------------------
# Plain-data building blocks
# --------------------------------------------------------------------------

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
    """One call of the learner's function: ``func(*args, **kwargs)`` after ``setup``."""
    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    setup: str = ""

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


# --------------------------------------------------------------------------
# Comparison
# --------------------------------------------------------------------------

FLOAT32_TOLERANCE = (1e-4, 1e-5)        # (rtol, atol) when the expected array is float32


def _fmt(x):
    """A short one-line, language-neutral rendering of a value."""
    if isinstance(x, np.ndarray):
        text = np.array2string(x, precision=6, threshold=12, edgeitems=2, separator=", ", max_line_width=10_000)
        return " ".join(text.split())
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (float, np.floating)):
        return f"{float(x):.6g}"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, str):
        return repr(x)
    if isinstance(x, tuple):
        return "(" + ", ".join(_fmt(v) for v in x) + ("," if len(x) == 1 else "") + ")"
    if isinstance(x, Opaque):
        return f"{x.type} {x.repr}"
    if isinstance(x, Raised):
        return f"{x.type}: {x.message}"
    return type(x).__name__


def _describe(x):
    """What a result is, for 'got ...' phrases: type, shape and dtype when it is an array."""
    if isinstance(x, np.ndarray):
        return f"ndarray shape={tuple(x.shape)} dtype={x.dtype}"
    if isinstance(x, Opaque):
        return x.type
    return type(x).__name__


def _kind(expected):
    if isinstance(expected, np.ndarray):
        return "array"
    if isinstance(expected, (bool, np.bool_)):
        return "bool"
    if isinstance(expected, (int, np.integer)):
        return "int"
    if isinstance(expected, (float, np.floating)):
        return "float"
    if isinstance(expected, str):
        return "str"
    if isinstance(expected, tuple):
        return "tuple"
    raise TypeError(f"no comparison for expected values of type {type(expected).__name__}")


def _is_real(x):
    return isinstance(x, (numbers.Real, np.floating, np.integer)) and not isinstance(x, (bool, np.bool_))


def _compare_floats(exp, got, rtol, atol, exact_zeros, index_of):
    """exp, got: float arrays of one shape.  index_of(flat) -> index text."""
    exp_flat, got_flat = exp.reshape(-1), got.reshape(-1)
    bad_nonfinite = ~np.isfinite(got_flat) & ~((np.isnan(exp_flat) & np.isnan(got_flat)) | (exp_flat == got_flat))
    if bad_nonfinite.any():
        i = int(np.argmax(bad_nonfinite))
        return False, "nan", {"index": index_of(i), "expected": _fmt(exp_flat[i]), "got": _fmt(got_flat[i])}
    with np.errstate(invalid="ignore", over="ignore"):
        error = np.abs(got_flat.astype(np.float64) - exp_flat.astype(np.float64))
        error[np.isnan(exp_flat) & np.isnan(got_flat)] = 0.0
        error[np.isinf(exp_flat) & (exp_flat == got_flat)] = 0.0
        limit = atol + rtol * np.abs(exp_flat.astype(np.float64))
    bad = ~(error <= limit)
    if bad.any():
        i = int(np.argmax(np.where(bad, np.nan_to_num(error, nan=np.inf), -1.0)))
        return False, "wrong_value", {
            "index": index_of(i), "expected": _fmt(exp_flat[i]), "got": _fmt(got_flat[i]),
            "error": f"{float(np.nanmax(np.where(bad, error, 0.0))):.3g}", "atol": f"{atol:g}", "rtol": f"{rtol:g}",
        }
    if exact_zeros:
        not_zero = (exp_flat == 0) & (got_flat != 0)
        if not_zero.any():
            i = int(np.argmax(not_zero))
            return False, "not_exact_zero", {"index": index_of(i), "got": f"{float(got_flat[i]):.3g}"}
    return True, "passed", {}


def compare_values(expected, got, rtol=1e-7, atol=1e-9, exact_zeros=False, item=None):
    """Compare one expected result with one obtained result -> (ok, reason_key, details).

    ``details`` holds only strings (and ``item``, the position inside a tuple
    result), so it is JSON-encodable and ready for :func:`grading.feedback.message`.
    """
    def out(ok, key, details=None):
        details = dict(details or {})
        if item is not None:
            details["item"] = item
        return ok, key, details

    if isinstance(expected, Raised):
        if isinstance(got, Raised):
            if got.is_a(expected.type):
                return out(True, "passed")
            if got.type == "NotImplementedError":
                return out(False, "not_implemented")
            return out(False, "wrong_exception", {"type": expected.type, "got_type": got.type, "message": got.message})
        return out(False, "missing_exception", {"type": expected.type, "got": _describe(got) if got is not None else "None"})
    if isinstance(got, Raised):
        # exactly the stub's exception: subclasses such as IPython's
        # StdinNotImplementedError (an input() call) are real errors, not "not done yet"
        if got.type == "NotImplementedError":
            return out(False, "not_implemented")
        return out(False, "raised", {"type": got.type, "message": got.message})

    kind = _kind(expected)
    if got is None:
        return out(False, "none_returned", {"expected_type": kind})
    if kind == "tuple":
        if not isinstance(got, (tuple, list)):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": _describe(got)})
        if len(got) != len(expected):
            return out(False, "wrong_length", {"expected": str(len(expected)), "got": str(len(got))})
        for i, (e, g) in enumerate(zip(expected, got)):
            ok, key, details = compare_values(e, g, rtol, atol, exact_zeros, item=i)
            if not ok:
                return ok, key, details
        return out(True, "passed")
    if kind == "array":
        if not isinstance(got, np.ndarray):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": _describe(got)})
        if got.shape != expected.shape:
            return out(False, "wrong_shape", {"expected": str(tuple(expected.shape)), "got": str(tuple(got.shape))})
        if got.dtype != expected.dtype:
            return out(False, "wrong_dtype", {"expected": str(expected.dtype), "got": str(got.dtype)})

        def index_of(flat):
            return str(tuple(int(i) for i in np.unravel_index(flat, expected.shape))) if expected.ndim else "()"

        if expected.dtype.kind == "f":
            if expected.dtype.itemsize < 8:
                rtol, atol = max(rtol, FLOAT32_TOLERANCE[0]), max(atol, FLOAT32_TOLERANCE[1])
            ok, key, details = _compare_floats(expected, got, rtol, atol, exact_zeros, index_of)
            return out(ok, key, details)
        mismatch = (expected != got).reshape(-1)
        if mismatch.any():
            i = int(np.argmax(mismatch))
            return out(False, "wrong_value", {
                "index": index_of(i), "expected": _fmt(expected.reshape(-1)[i]), "got": _fmt(got.reshape(-1)[i]),
                "error": "≠", "atol": "0", "rtol": "0",
            })
        return out(True, "passed")
    if kind == "float":
        if isinstance(got, np.ndarray) and got.shape == () and got.dtype.kind in "fiu":
            got = got[()]
        if not _is_real(got):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": _describe(got)})
        ok, key, details = _compare_floats(np.array([float(expected)]), np.array([float(got)]), rtol, atol, False,
                                           lambda i: "()")
        if not ok:
            details.pop("index", None)
            key = {"wrong_value": "wrong_number", "nan": "nan_number"}[key]
        return out(ok, key, details)
    if kind == "bool":
        if not isinstance(got, (bool, np.bool_)):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": _describe(got)})
    elif kind == "int":
        if not isinstance(got, (int, np.integer)) or isinstance(got, (bool, np.bool_)):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": _describe(got)})
    elif kind == "str":
        if not isinstance(got, str):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": _describe(got)})
    if got != expected:
        return out(False, "wrong_exact", {"expected": _fmt(expected), "got": _fmt(got)})
    return out(True, "passed")


# --------------------------------------------------------------------------
# Exercises
# --------------------------------------------------------------------------

class SetupError(RuntimeError):
    """The setup code of a case failed (a problem of the case, not of the learner)."""


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
    rtol: float = 1e-7
    atol: float = 1e-9
    exact_zeros: bool = False
    forbidden: tuple = ()               # dotted names the learner's function must not use

    def public_cases(self):
        return self.make_public()

    def hidden_cases(self, seed):
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
        # the JSON round trip gives every call fresh copies, exactly as the grader sees them
        args = resolve(from_jsonable(to_jsonable(tuple(case.args))), namespace)
        kwargs = resolve(from_jsonable(to_jsonable(dict(case.kwargs))), namespace)
        return args, kwargs

    def call(self, func, case):
        """func on the case: its result, or a Raised.  SetupError if the setup fails."""
        args, kwargs = self.prepare(case)
        try:
            return func(*args, **kwargs)
        except Exception as exc:  # noqa: BLE001 - any learner error is a failed case
            return Raised.from_exception(exc)

    def expected(self, case):
        return self.call(self.reference, case)

    def forbidden_objects(self):
        objects = [self.reference]
        for dotted in self.forbidden:
            module_name, _, attr = dotted.rpartition(".")
            module = __import__(module_name, fromlist=[attr])
            objects.append(getattr(module, attr))
        return objects


def _setup(*lines):
    return "\n".join(lines) + "\n"


# ---- §1 the allowed set ---------------------------------------------------

def _rng_scores(rng, shape, scale=3.0, dtype=np.float64):
    return (rng.normal(scale=scale, size=shape)).astype(dtype)


def _random_allowed(rng, shape):
    allowed = rng.random(shape) < 0.6
    rows = allowed.reshape(-1, shape[-1])
    for row in rows:
        if not row.any():
            row[rng.integers(shape[-1])] = True
    return rows.reshape(shape)


def _mask1_public():
    return [Case("one-position", (1, 1)), Case("square-3", (3, 3)),
            Case("two-queries-after-cache", (2, 5)), Case("one-new-query", (1, 4))]


def _mask1_hidden(rng):
    cases = []
    for i in range(6):
        tk = int(rng.integers(1, 10))
        cases.append(Case(f"shape-{i}", (int(rng.integers(1, tk + 1)), tk)))
    return cases


def _mask2_public():
    s = np.array([[0.5, -1.0, 2.0, 0.0], [1.5, 0.25, -0.5, 3.0]])
    return [
        Case("zeros-3x3", (np.zeros((3, 3)), ~attention.causal_future(3, 3))),
        Case("after-cache-2x4", (s, ~attention.causal_future(2, 4))),
        Case("large-scores", (np.array([[1000.0, 1000.0, -1000.0], [800.0, 1.0, 2.0]]), np.ones((2, 3), dtype=bool))),
        Case("batch-broadcast", (np.arange(18, dtype=np.float64).reshape(2, 3, 3) % 5 - 2.0, ~attention.causal_future(3, 3))),
        Case("float32", (np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 4.0]], dtype=np.float32),
                         np.array([[True, False, True], [False, True, True]]))),
        Case("empty-row", (np.zeros((2, 2)), np.array([[True, True], [False, False]]))),
    ]


def _mask2_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(2, 4))))
        dtype = np.float32 if i == 3 else np.float64
        scale = 400.0 if i == 4 else 3.0
        cases.append(Case(f"random-{i}", (_rng_scores(rng, shape, scale, dtype), _random_allowed(rng, shape))))
    tq = int(rng.integers(1, 5))
    tk = int(rng.integers(tq, 7))
    cases.append(Case("causal", (_rng_scores(rng, (2, tq, tk)), ~attention.causal_future(tq, tk))))
    allowed = _random_allowed(rng, (3, 4))
    allowed[int(rng.integers(3))] = False
    cases.append(Case("empty-row", (_rng_scores(rng, (3, 4)), allowed)))
    return cases


def _softmax_rows(scores):
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _mask3_public():
    allowed = ~attention.causal_future(3, 3)
    good = attention.masked_softmax(np.zeros((3, 3)), allowed)
    zeroed = np.where(allowed, _softmax_rows(np.zeros((3, 3))), 0.0)   # softmax first, zeros after
    leaky = _softmax_rows(np.array([[0.0, 1.0, 2.0], [0.0, 1.0, 2.0], [0.0, 1.0, 2.0]]))
    negative = np.array([[1.0, 0.0, 0.0], [1.5, -0.5, 0.0], [0.2, 0.3, 0.5]])
    rounded = good + np.array([[1e-12, 0, 0], [0, 1e-12, 0], [0, 0, 1e-12]])
    loose = np.array([[1.0, 0.0, 0.0], [0.4, 0.6001, 0.0], [0.3, 0.3, 0.4]])
    with_nan = good.copy()
    with_nan[2, 1] = np.nan
    return [
        Case("correct", (good, allowed)),
        Case("softmax-then-zero", (zeroed, allowed)),
        Case("reads-the-future", (leaky, allowed)),
        Case("negative-weight", (negative, allowed)),
        Case("rounding", (rounded, allowed)),
        Case("loose-atol", (loose, allowed), {"atol": 1e-3}),
        Case("nan", (with_nan, allowed)),
    ]


def _mask3_hidden(rng):
    cases = []
    for i in range(8):
        tq = int(rng.integers(2, 5))
        tk = int(rng.integers(tq, 7))
        allowed = _random_allowed(rng, (tq, tk)) if i % 2 else ~attention.causal_future(tq, tk)
        w = attention.masked_softmax(_rng_scores(rng, (tq, tk)), allowed)
        bug = i % 4
        if bug == 1:                                   # mass moved into a forbidden entry
            forbidden = np.argwhere(~allowed)
            if len(forbidden):
                r, c = forbidden[int(rng.integers(len(forbidden)))]
                w[r, c] = 0.1
                w[r] *= 1 / w[r].sum()
        elif bug == 2:                                 # one row scaled
            w[int(rng.integers(tq))] *= 0.9
        elif bug == 3:                                 # a negative weight, the row still sums to 1
            r = int(rng.integers(tq))
            cols = np.flatnonzero(allowed[r])
            if len(cols) >= 2:
                w[r, cols[1]] += w[r, cols[0]] + 0.05
                w[r, cols[0]] = -0.05
        cases.append(Case(f"weights-{i}", (w, allowed)))
    return cases


# ---- §2 heads ---------------------------------------------------------------

def _heads1_public():
    rng = np.random.default_rng(21)
    return [
        Case("labels-1x3x4", (np.arange(12).reshape(1, 3, 4), 2)),
        Case("batch-2x3x6-three-heads", (rng.normal(size=(2, 3, 6)), 3)),
        Case("batch-2x5x8", (rng.normal(size=(2, 5, 8)), 2)),
        Case("unbatched-4x6", (rng.normal(size=(4, 6)), 2)),
    ]


def _heads1_hidden(rng):
    cases = []
    for i in range(5):
        B, T, H, d = (int(n) for n in (rng.integers(1, 4), rng.integers(2, 6), rng.integers(2, 5), rng.integers(1, 4)))
        x = np.arange(B * T * H * d).reshape(B, T, H * d) if i == 0 else rng.normal(size=(B, T, H * d))
        cases.append(Case(f"split-{i}", (x, H)))
    return cases


def _heads2_public():
    rng = np.random.default_rng(22)
    return [
        Case("labels-1x2x3x2", (np.arange(12).reshape(1, 2, 3, 2),)),
        Case("batch-2x2x3x4", (rng.normal(size=(2, 2, 3, 4)),)),
        Case("three-heads", (rng.normal(size=(1, 3, 4, 2)),)),
        Case("too-few-axes", (np.zeros((3, 4)),)),
    ]


def _heads2_hidden(rng):
    cases = []
    for i in range(5):
        shape = (int(rng.integers(1, 4)), int(rng.integers(2, 5)), int(rng.integers(2, 6)), int(rng.integers(1, 4)))
        x = np.arange(int(np.prod(shape))).reshape(shape) if i == 0 else rng.normal(size=shape)
        cases.append(Case(f"merge-{i}", (x,)))
    cases.append(Case("too-few-axes", (rng.normal(size=(int(rng.integers(2, 5)), 4)),)))
    return cases


def _random_mha_args(rng, B, T, D, H):
    x = rng.normal(size=(B, T, D))
    ws = [rng.normal(scale=D ** -0.5, size=(D, D)) for _ in range(4)]
    return (x, *ws, H)


def _heads3_public():
    x = np.array([[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]])                    # BOS, 春 of the chapter
    w_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
    eye = np.eye(4)
    rng = np.random.default_rng(23)
    return [
        Case("worked-example", (x, eye, eye, eye, w_o, 2)),
        Case("random-2x4x6-three-heads", _random_mha_args(rng, 2, 4, 6, 3)),
        Case("one-head", _random_mha_args(rng, 1, 3, 4, 1)),
        Case("width-not-divisible", _random_mha_args(rng, 1, 3, 6, 4)),
    ]


def _heads3_hidden(rng):
    cases = []
    for i in range(5):
        H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        cases.append(Case(f"mha-{i}", _random_mha_args(rng, int(rng.integers(1, 3)), int(rng.integers(1, 6)), H * d, H)))
    cases.append(Case("width-not-divisible", _random_mha_args(rng, 1, 2, 5, 2)))
    return cases


# ---- §3 positions -----------------------------------------------------------

def _tables(rng, V=6, C=8, D=4):
    return rng.normal(size=(V, D)), rng.normal(size=(C, D))


def _pos1_public():
    E, P = _tables(np.random.default_rng(31))
    return [
        Case("ids-from-0", (np.array([1, 3, 4]), E, P)),
        Case("batch", (np.array([[1, 3, 4, 2], [1, 4, 2, 2]]), E, P)),
        Case("offset-3", (np.array([5, 5]), E, P), {"offset": 3}),
        Case("last-rows", (np.array([1, 2, 0]), E, P, 5)),
    ]


def _pos1_hidden(rng):
    cases = []
    for i in range(5):
        V, C, D = int(rng.integers(3, 9)), int(rng.integers(2, 10)), int(rng.integers(1, 6))
        E, P = _tables(rng, V, C, D)
        T = int(rng.integers(1, C + 1))
        offset = int(rng.integers(0, C - T + 1))
        shape = (T,) if i % 2 else (int(rng.integers(1, 4)), T)
        cases.append(Case(f"embed-{i}", (rng.integers(0, V, size=shape), E, P), {"offset": offset}))
    return cases


def _pos2_public():
    grad = np.array([[[1.0, 2.0], [0.5, 0.5]], [[-3.0, 1.0], [0.0, 1.0]]])       # (B=2, T=2, D=2)
    rng = np.random.default_rng(32)
    return [
        Case("two-sequences", (grad, np.array([[1, 3], [1, 4]]), 6, 4)),
        Case("repeated-ids", (rng.normal(size=(4, 3)), np.array([2, 5, 2, 2]), 6, 5)),
        Case("offset-2", (rng.normal(size=(3, 3)), np.array([1, 3, 4]), 6, 6), {"offset": 2}),
        Case("past-the-table", (rng.normal(size=(3, 3)), np.array([1, 3, 4]), 6, 4), {"offset": 2}),
    ]


def _pos2_hidden(rng):
    cases = []
    for i in range(5):
        V, C, D = int(rng.integers(3, 8)), int(rng.integers(2, 9)), int(rng.integers(1, 5))
        T = int(rng.integers(1, C + 1))
        offset = int(rng.integers(0, C - T + 1))
        shape = (T,) if i % 2 else (int(rng.integers(1, 4)), T)
        ids = rng.integers(0, min(V, 3), size=shape)                  # few ids: repetitions are likely
        cases.append(Case(f"backward-{i}", (rng.normal(size=shape + (D,)), ids, V, C), {"offset": offset}))
    C = int(rng.integers(2, 6))
    cases.append(Case("past-the-table", (rng.normal(size=(2, 3)), np.array([1, 1]), 4, C), {"offset": C - 1}))
    return cases


def _model_setup(seed, *extra):
    return _setup("from grading import exercise_models as m", f"model = m.random_model({int(seed)})", *extra)


def _pos3_public():
    no_pos = _model_setup(1, "forward = m.no_position_forward(model)")
    with_pos = _model_setup(1, "forward = model.forward")
    ids = np.array([3, 5, 4, 6])
    return [
        Case("without-positions", (Ref("forward"), ids, 0, 1), setup=no_pos),
        Case("with-positions", (Ref("forward"), ids, 0, 1), setup=with_pos),
        Case("equal-tokens", (Ref("forward"), np.array([3, 5, 3, 6]), 0, 2), setup=with_pos),
        Case("batch", (Ref("forward"), np.array([[3, 5, 4, 6], [1, 2, 3, 4]]), 1, 2), setup=with_pos),
        Case("moves-the-last-query", (Ref("forward"), ids, 1, 3), setup=with_pos),
    ]


def _pos3_hidden(rng):
    cases = []
    for i in range(6):
        seed = int(rng.integers(1_000_000))
        setup = _model_setup(seed, "forward = model.forward" if i % 2 else "forward = m.no_position_forward(model)")
        T = int(rng.integers(3, 9))
        i_, j_ = (int(v) for v in rng.choice(T - 1, size=2, replace=False))
        cases.append(Case(f"swap-{i}", (Ref("forward"), rng.integers(0, 7, size=T), i_, j_), setup=setup))
    cases.append(Case("moves-the-last-query", (Ref("forward"), rng.integers(0, 7, size=5), 0, 4),
                      setup=_model_setup(int(rng.integers(1_000_000)), "forward = model.forward")))
    return cases


# ---- §4 causality -----------------------------------------------------------

def _causal1_public():
    causal = _model_setup(4, "forward = model.forward")
    control = _model_setup(4, "forward = m.unmasked_forward(model)")
    leaky = _setup("from grading import exercise_models as m", "forward = m.time_norm_model(4).forward")
    ids = np.array([1, 3, 4, 5, 2])
    return [
        Case("causal-model", (Ref("forward"), ids, 2, 0), setup=causal),
        Case("unmasked-control", (Ref("forward"), ids, 2, 0), setup=control),
        Case("time-normalisation", (Ref("forward"), ids, 3, 6), setup=leaky),
        Case("batch", (Ref("forward"), np.array([[1, 3, 4, 5], [1, 5, 5, 2]]), 3, np.array([6])), setup=control),
        Case("replacement-vector", (Ref("forward"), ids, 2, np.array([0, 6, 0])), setup=control),
    ]


def _forward_setup(seed, which):
    if which == "causal":
        return _model_setup(seed, "forward = model.forward")
    if which == "unmasked":
        return _model_setup(seed, "forward = m.unmasked_forward(model)")
    if which == "time_norm":
        return _setup("from grading import exercise_models as m", f"forward = m.time_norm_model({seed}).forward")
    if which == "feature_norm":
        return _setup("from grading import exercise_models as m", f"forward = m.feature_norm_model({seed}).forward")
    raise ValueError(which)


def _fresh_token(rng, suffix):
    """A token id in 0..6 that does not occur in ``suffix``, so the perturbation changes something."""
    return int(rng.choice(np.setdiff1d(np.arange(7), suffix)))


def _causal1_hidden(rng):
    cases = []
    for i, which in enumerate(("causal", "unmasked", "time_norm", "feature_norm", "unmasked", "causal")):
        T = int(rng.integers(2, 9))
        position = int(rng.integers(1, T))
        ids = rng.integers(0, 7, size=T)
        cases.append(Case(f"{which}-{i}", (Ref("forward"), ids, position, _fresh_token(rng, ids[position:])),
                          setup=_forward_setup(int(rng.integers(1_000_000)), which)))
    return cases


def _verdict_setup(seed, forward, control):
    lines = ["from grading import exercise_models as m", f"model = m.random_model({seed})"]
    table = {
        "causal": "model.forward",
        "unmasked": "m.unmasked_forward(model)",
        "time_norm": f"m.time_norm_model({seed}).forward",
        "feature_norm": f"m.feature_norm_model({seed}).forward",
        "constant": "m.constant_forward(model.width)",
    }
    return _setup(*lines, f"forward = {table[forward]}", f"control = {table[control]}")


def _causal2_public():
    ids = np.array([1, 3, 4, 5, 2])
    args = (Ref("forward"), Ref("control"), ids)
    return [
        Case("causal", args + (2, 0), setup=_verdict_setup(5, "causal", "unmasked")),
        Case("time-normalisation", args + (2, 0), setup=_verdict_setup(5, "time_norm", "unmasked")),
        Case("unmasked", args + (3, 6), setup=_verdict_setup(5, "unmasked", "unmasked")),
        Case("same-suffix", args + (3, np.array([5, 2])), setup=_verdict_setup(5, "causal", "unmasked")),
        Case("constant-control", args + (2, 0), setup=_verdict_setup(5, "causal", "constant")),
        Case("huge-tolerance", args + (2, 0), {"tol": 10.0}, setup=_verdict_setup(5, "time_norm", "unmasked")),
        Case("position-0", args + (0, 0), setup=_verdict_setup(5, "causal", "unmasked")),
    ]


def _causal2_hidden(rng):
    combos = [("causal", "unmasked"), ("time_norm", "unmasked"), ("feature_norm", "unmasked"),
              ("causal", "constant"), ("unmasked", "constant"), ("feature_norm", "time_norm")]
    cases = []
    for i, (forward, control) in enumerate(combos):
        T = int(rng.integers(2, 9))
        ids = rng.integers(0, 7, size=T)
        position = int(rng.integers(1, T))
        replacement = ids[position:].copy() if i == 5 else _fresh_token(rng, ids[position:])
        cases.append(Case(f"{forward}-vs-{control}", (Ref("forward"), Ref("control"), ids, position, replacement),
                          setup=_verdict_setup(int(rng.integers(1_000_000)), forward, control)))
    return cases


def _causal3_public():
    ids = np.array([1, 3, 4, 5, 6, 2])
    return [
        Case("causal-model", (Ref("forward"), ids, 0), setup=_forward_setup(6, "causal")),
        Case("time-normalisation", (Ref("forward"), ids, 0), setup=_forward_setup(6, "time_norm")),
        Case("feature-normalisation", (Ref("forward"), ids, 0), setup=_forward_setup(6, "feature_norm")),
        Case("unmasked", (Ref("forward"), ids, 2), setup=_forward_setup(6, "unmasked")),
        Case("one-position", (Ref("forward"), np.array([1]), 0), setup=_forward_setup(6, "causal")),
    ]


def _causal3_hidden(rng):
    cases = []
    for i, which in enumerate(("causal", "time_norm", "feature_norm", "unmasked", "time_norm")):
        T = int(rng.integers(2, 9))
        ids = rng.integers(0, 7, size=T)
        cases.append(Case(f"{which}-{i}", (Ref("forward"), ids, _fresh_token(rng, ids[-1:])),
                          setup=_forward_setup(int(rng.integers(1_000_000)), which)))
    return cases


def _causal4_public():
    rng = np.random.default_rng(44)
    return [
        Case("one-sequence", (np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 1.0, -1.0], [5.0, 5.0, 5.0, 7.0]]),)),
        Case("batch", (rng.normal(size=(2, 3, 4)),)),
        Case("constant-row", (np.full((2, 3), 4.0),)),
        Case("float32", (rng.normal(size=(3, 5)).astype(np.float32),)),
        Case("eps", (rng.normal(size=(2, 4)),), {"eps": 0.5}),
        Case("one-position", (np.array([[3.0, -1.0, 2.0]]),)),
    ]


def _causal4_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(2, 4))))
        x = rng.normal(loc=rng.normal(scale=3), scale=rng.uniform(0.1, 4), size=shape)
        cases.append(Case(f"norm-{i}", (x.astype(np.float32) if i == 2 else x,),
                          {"eps": float(rng.uniform(1e-6, 1e-2))} if i == 4 else {}))
    return cases


# ---- §5 cache ---------------------------------------------------------------

def _cache_setup(seed, prefix):
    return _model_setup(seed, "cache = model.new_cache()", f"for token in {list(int(t) for t in prefix)}:",
                        "    model.step(token, cache)")


def _cache1_public():
    args = (Ref("model"), 4, Ref("cache"))
    return [
        Case("empty-cache", args, setup=_cache_setup(7, [])),
        Case("three-stored", args, setup=_cache_setup(7, [1, 3, 5])),
        Case("last-row", args, setup=_cache_setup(7, [1, 3, 5, 6, 2, 2, 4])),
        Case("full-cache", args, setup=_cache_setup(7, [1, 3, 5, 6, 2, 2, 4, 4])),
    ]


def _cache1_hidden(rng):
    cases = []
    for i in range(5):
        n = int(rng.integers(0, 8))
        cases.append(Case(f"step-{i}", (Ref("model"), int(rng.integers(0, 7)), Ref("cache")),
                          setup=_cache_setup(int(rng.integers(1_000_000)), rng.integers(0, 7, size=n))))
    cases.append(Case("full-cache", (Ref("model"), 1, Ref("cache")),
                      setup=_cache_setup(int(rng.integers(1_000_000)), rng.integers(0, 7, size=8))))
    return cases


def _step_args(rng, n, D, H):
    d = D // H
    return (rng.normal(size=D), rng.normal(size=(H, n, d)), rng.normal(size=(H, n, d)),
            *(rng.normal(scale=D ** -0.5, size=(D, D)) for _ in range(4)), H)


def _cache2_public():
    eye = np.eye(4)
    w_o = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
    stored = np.array([[[1.0, 0.0]], [[0.0, 1.0]]])          # BOS [1, 0, 0, 1] split into two heads
    rng = np.random.default_rng(52)
    return [
        Case("worked-example", (np.array([0.0, 1.0, 1.0, 0.0]), stored, stored, eye, eye, eye, w_o, 2)),
        Case("first-token", _step_args(rng, 0, 6, 2)),
        Case("three-stored", _step_args(rng, 3, 6, 3)),
        Case("one-head", _step_args(rng, 2, 4, 1)),
    ]


def _cache2_hidden(rng):
    cases = []
    for i in range(5):
        H, d = int(rng.integers(1, 4)), int(rng.integers(1, 4))
        cases.append(Case(f"step-{i}", _step_args(rng, int(rng.integers(0, 6)), H * d, H)))
    return cases


def _cache3_setup(seed, bug):
    step = "model.step" if bug is None else f"m.buggy_step(model, {bug!r})"
    return _model_setup(seed, "forward = model.forward", f"step = {step}", "new_cache = model.new_cache")


def _cache3_public():
    args = (Ref("forward"), Ref("step"), Ref("new_cache"), np.array([1, 3, 4, 5, 2]))
    return [
        Case("correct-cache", args, setup=_cache3_setup(8, None)),
        Case("position-reset-to-0", args, setup=_cache3_setup(8, "reset")),
        Case("position-shifted", args, setup=_cache3_setup(8, "shift")),
        Case("reads-only-itself", args, setup=_cache3_setup(8, "local")),
        Case("one-token", args[:3] + (np.array([1]),), setup=_cache3_setup(8, None)),
    ]


def _cache3_hidden(rng):
    cases = []
    for i, bug in enumerate((None, "reset", "shift", "local", None)):
        T = int(rng.integers(3, 8))
        cases.append(Case(f"{bug or 'correct'}-{i}", (Ref("forward"), Ref("step"), Ref("new_cache"),
                                                        rng.integers(0, 7, size=T)),
                          setup=_cache3_setup(int(rng.integers(1_000_000)), bug)))
    return cases


# ---- §7 the decoder -----------------------------------------------------------

def _softmax_weights(rng, shape, dtype=np.float64):
    """Weights of a masked softmax over a random allowed set, and that set."""
    allowed = _random_allowed(rng, shape)
    return attention.masked_softmax(_rng_scores(rng, shape).astype(dtype), allowed), allowed


def _dec1_public():
    allowed3 = ~attention.causal_future(3, 3)
    uniform = attention.masked_softmax(np.zeros((3, 3)), allowed3)          # rows [1], [1/2, 1/2], [1/3 ...]
    rng = np.random.default_rng(71)
    after = attention.masked_softmax(rng.normal(size=(2, 4)), ~attention.causal_future(2, 4))
    batch, _ = _softmax_weights(rng, (2, 3, 5))
    w32, _ = _softmax_weights(rng, (3, 4), np.float32)
    one_key = attention.masked_softmax(rng.normal(size=(2, 3)), np.array([[False, True, False], [True, True, True]]))
    return [
        Case("uniform-3x3", (np.array([[1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]), uniform)),
        Case("after-cache-2x4", (rng.normal(size=(2, 4)), after)),
        Case("batch", (rng.normal(size=(2, 3, 5)), batch)),
        Case("float32", (rng.normal(size=(3, 4)).astype(np.float32), w32)),
        Case("one-allowed-key", (rng.normal(size=(2, 3)), one_key)),
        Case("shape-mismatch", (np.ones((2, 3)), uniform)),
    ]


def _dec1_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 6, size=int(rng.integers(1, 4))))
        dtype = np.float32 if i == 2 else np.float64
        weights, _ = _softmax_weights(rng, shape, dtype)
        cases.append(Case(f"random-{i}", (rng.normal(size=shape).astype(dtype), weights)))
    tq = int(rng.integers(1, 5))
    tk = int(rng.integers(tq, 7))
    causal = attention.masked_softmax(_rng_scores(rng, (2, tq, tk)), ~attention.causal_future(tq, tk))
    cases.append(Case("causal", (rng.normal(size=(2, tq, tk)), causal)))
    cases.append(Case("shape-mismatch", (rng.normal(size=(3, 4)), _softmax_weights(rng, (3, 5))[0])))
    return cases


def _dec2_public():
    rng = np.random.default_rng(72)
    x = np.array([[1.0, 2.0, 3.0, 4.0], [0.0, 0.0, 1.0, -1.0]])
    return [
        Case("two-rows", (np.array([[1.0, 0.0, 0.0, -1.0], [0.5, 0.5, 0.5, 0.5]]), x, np.ones(4))),
        Case("batch-with-gain", (rng.normal(size=(2, 3, 5)), 3 * rng.normal(size=(2, 3, 5)) + 1,
                                 rng.normal(size=5))),
        Case("float32", (rng.normal(size=(3, 6)).astype(np.float32), rng.normal(size=(3, 6)).astype(np.float32),
                         rng.normal(size=6).astype(np.float32))),
        Case("eps", (rng.normal(size=(2, 4)), rng.normal(size=(2, 4)), rng.normal(size=4)), {"eps": 0.5}),
        Case("one-position", (rng.normal(size=(1, 3)), rng.normal(size=(1, 3)), rng.normal(size=3))),
        Case("gain-of-wrong-width", (np.ones((2, 4)), rng.normal(size=(2, 4)), np.ones(3))),
    ]


def _dec2_hidden(rng):
    cases = []
    for i in range(5):
        shape = tuple(int(n) for n in rng.integers(1, 5, size=int(rng.integers(1, 3)))) + (int(rng.integers(2, 8)),)
        dtype = np.float32 if i == 3 else np.float64
        x = rng.normal(loc=rng.normal(scale=3), scale=rng.uniform(0.2, 4), size=shape)
        args = tuple(a.astype(dtype) for a in (rng.normal(size=shape), x, rng.normal(size=shape[-1])))
        cases.append(Case(f"norm-{i}", args, {"eps": float(rng.uniform(1e-6, 1e-2))} if i == 4 else {}))
    cases.append(Case("gain-of-wrong-width", (np.ones((2, 5)), rng.normal(size=(2, 5)), np.ones(4))))
    return cases


def _decoder_setup(seed, prefix, n_layers=2, n_heads=2, width=8):
    return _setup("from grading import exercise_models as m",
                  f"model = m.random_decoder({int(seed)}, n_layers={n_layers}, n_heads={n_heads}, width={width})",
                  f"keys, values = m.decoder_prefix(model, {[int(t) for t in prefix]})")


def _dec3_public():
    args = (Ref("model"), 4, Ref("keys"), Ref("values"))
    return [
        Case("first-token", args, setup=_decoder_setup(73, [])),
        Case("three-stored", args, setup=_decoder_setup(73, [1, 3, 5])),
        Case("one-layer", args, setup=_decoder_setup(73, [1, 3], n_layers=1)),
        Case("three-layers-four-heads", args, setup=_decoder_setup(73, [1, 3, 5, 6], n_layers=3, n_heads=4)),
        Case("last-row", args, setup=_decoder_setup(73, [1, 3, 5, 6, 2, 2, 4])),
        Case("past-the-table", args, setup=_decoder_setup(73, [1, 3, 5, 6, 2, 2, 4, 4])),
    ]


def _dec3_hidden(rng):
    cases = []
    for i in range(5):
        n_heads = int(rng.integers(1, 4))
        setup = _decoder_setup(int(rng.integers(1_000_000)), rng.integers(0, 10, size=int(rng.integers(0, 8))),
                               n_layers=int(rng.integers(1, 4)), n_heads=n_heads,
                               width=n_heads * int(rng.integers(1, 4)))
        cases.append(Case(f"step-{i}", (Ref("model"), int(rng.integers(0, 10)), Ref("keys"), Ref("values")),
                          setup=setup))
    cases.append(Case("past-the-table", (Ref("model"), 1, Ref("keys"), Ref("values")),
                      setup=_decoder_setup(int(rng.integers(1_000_000)), rng.integers(0, 10, size=8))))
    return cases


def _diagnose_setup(model, how):
    return _setup("from grading import exercise_models as m", f"model = {model}",
                  f"forward = m.decoder_forward(model, {how!r})")


_MIRROR_IDS = np.array([1, 3, 8, 6, 5, 6, 8, 3])            # <bos> a 春 д | д 春 a


def _dec4_public():
    args = (Ref("model"), Ref("forward"), _MIRROR_IDS, 4)
    cheater, masked = "m.handed_over_decoder('unmasked')", "m.handed_over_decoder('masked')"
    return [
        Case("run-without-the-mask", args, setup=_diagnose_setup(cheater, "unmasked")),
        Case("cheater-run-with-the-mask", args, setup=_diagnose_setup(cheater, "masked")),
        Case("masked-model", args, setup=_diagnose_setup(masked, "masked")),
        Case("one-leaky-block", args, setup=_diagnose_setup(masked, "leaky-block-1")),
        Case("attention-writes-nothing", args, setup=_diagnose_setup("m.deaf_decoder(74)", "masked")),
        Case("batch", (Ref("model"), Ref("forward"), np.stack([_MIRROR_IDS, _MIRROR_IDS[::-1]]), 2),
             setup=_diagnose_setup(masked, "leaky-block-0")),
        Case("prefix-0", (Ref("model"), Ref("forward"), _MIRROR_IDS, 0), setup=_diagnose_setup(masked, "masked")),
    ]


def _dec4_hidden(rng):
    cases = []
    for i, how in enumerate(("masked", "unmasked", "leaky-block-0", "leaky-block-1", "masked")):
        seed = int(rng.integers(1_000_000))
        model = f"m.random_decoder({seed})" if i < 4 else f"m.deaf_decoder({seed})"
        T = int(rng.integers(2, 9))
        cases.append(Case(f"{how}-{i}", (Ref("model"), Ref("forward"), rng.integers(0, 10, size=T),
                                         int(rng.integers(1, T))), setup=_diagnose_setup(model, how)))
    trained = str(rng.choice(["masked", "unmasked"]))
    how = str(rng.choice(["masked", "unmasked"]))
    cases.append(Case(f"handed-over-{trained}-run-{how}", (Ref("model"), Ref("forward"), _MIRROR_IDS,
                                                           int(rng.integers(1, 8))),
                      setup=_diagnose_setup(f"m.handed_over_decoder({trained!r})", how)))
    return cases


# ---- the registry -------------------------------------------------------------

def _title(zh, en, ru):
    return {"zh": zh, "en": en, "ru": ru}


_SPECS = [
    dict(id="mask-1", notebook="ex01_allowed_set", function="causal_allowed", points=1,
         reference=exercise_models.causal_allowed, make_public=_mask1_public, make_hidden=_mask1_hidden,
         forbidden=("lib.attention.causal_future",),
         title=_title("因果许可集合", "The causal allowed set", "Причинное множество разрешённых позиций")),
    dict(id="mask-2", notebook="ex01_allowed_set", function="masked_softmax", points=2,
         reference=attention.masked_softmax, make_public=_mask2_public, make_hidden=_mask2_hidden,
         exact_zeros=True, forbidden=("lib.attention.masked_softmax",),
         title=_title("在许可集合上归一化的 softmax", "Softmax renormalised over the allowed set",
                      "Softmax, нормированный по разрешённым позициям")),
    dict(id="mask-3", notebook="ex01_allowed_set", function="is_valid_attention", points=3,
         reference=exercise_models.is_valid_attention, make_public=_mask3_public, make_hidden=_mask3_hidden,
         title=_title("检验注意力权重", "A check for attention weights", "Проверка весов внимания")),
    dict(id="heads-1", notebook="ex02_heads", function="split_heads", points=1,
         reference=attention.split_heads, make_public=_heads1_public, make_hidden=_heads1_hidden,
         forbidden=("lib.attention.split_heads",),
         title=_title("拆分头", "Splitting heads", "Разбиение на головы")),
    dict(id="heads-2", notebook="ex02_heads", function="merge_heads", points=2,
         reference=attention.merge_heads, make_public=_heads2_public, make_hidden=_heads2_hidden,
         forbidden=("lib.attention.merge_heads",),
         title=_title("合并头", "Merging heads", "Склейка голов")),
    dict(id="heads-3", notebook="ex02_heads", function="multi_head_attention", points=3,
         reference=exercise_models.multi_head_causal, make_public=_heads3_public, make_hidden=_heads3_hidden,
         forbidden=("lib.attention.multi_head_attention",),
         title=_title("因果多头注意力", "Causal multi-head attention", "Причинное многоголовое внимание")),
    dict(id="pos-1", notebook="ex03_positions", function="embed", points=1,
         reference=positions.embed, make_public=_pos1_public, make_hidden=_pos1_hidden,
         forbidden=("lib.positions.embed",),
         title=_title("带偏移量的嵌入", "Embedding with an offset", "Эмбеддинг со смещением")),
    dict(id="pos-2", notebook="ex03_positions", function="embed_backward", points=2,
         reference=positions.embed_backward, make_public=_pos2_public, make_hidden=_pos2_hidden,
         forbidden=("lib.positions.embed_backward",),
         title=_title("嵌入的反向：散射累加", "The embedding's backward: scatter-add",
                      "Обратный проход эмбеддинга: накопление по индексам")),
    dict(id="pos-3", notebook="ex03_positions", function="last_row_swap_change", points=3,
         reference=exercise_models.last_row_swap_change, make_public=_pos3_public, make_hidden=_pos3_hidden,
         title=_title("交换两个词元的检验", "A token-swap test", "Проверка перестановкой токенов")),
    dict(id="causal-1", notebook="ex04_causality", function="future_perturbation_change", points=1,
         reference=exercise_models.future_perturbation_change, make_public=_causal1_public,
         make_hidden=_causal1_hidden,
         title=_title("未来扰动检验", "The future-perturbation test", "Проверка возмущением будущего")),
    dict(id="causal-2", notebook="ex04_causality", function="perturbation_verdict", points=2,
         reference=exercise_models.perturbation_verdict, make_public=_causal2_public, make_hidden=_causal2_hidden,
         title=_title("加上阴性对照的结论", "A verdict with its negative control",
                      "Вывод с отрицательным контролем")),
    dict(id="causal-3", notebook="ex04_causality", function="leak_sweep", points=3,
         reference=exercise_models.leak_sweep, make_public=_causal3_public, make_hidden=_causal3_hidden,
         title=_title("逐位置扫描泄漏", "Sweeping every position for a leak", "Поиск утечки по всем позициям")),
    dict(id="causal-4", notebook="ex04_causality", function="feature_norm", points=2,
         forbidden=("lib.checks.feature_normalization",),
         reference=exercise_models.feature_norm, make_public=_causal4_public, make_hidden=_causal4_hidden,
         title=_title("修复：按特征归一化", "The fix: normalise over features",
                      "Исправление: нормировка по признакам")),
    dict(id="cache-1", notebook="ex05_cache", function="step", points=1,
         reference=exercise_models.cached_step, make_public=_cache1_public, make_hidden=_cache1_hidden,
         title=_title("缓存步骤的位置", "The position of a cached step", "Позиция шага с кэшем")),
    dict(id="cache-2", notebook="ex05_cache", function="attention_step", points=2,
         reference=exercise_models.attention_step, make_public=_cache2_public, make_hidden=_cache2_hidden,
         title=_title("从零写一个缓存步骤", "A cached step from scratch", "Шаг с кэшем с нуля")),
    dict(id="cache-3", notebook="ex05_cache", function="cache_error", points=3,
         reference=exercise_models.cache_error, make_public=_cache3_public, make_hidden=_cache3_hidden,
         title=_title("缓存与整段前向的等价检验", "Cache against the full forward",
                      "Кэш против полного прохода")),
    dict(id="dec-1", notebook="ex07_decoder", function="masked_softmax_backward", points=1,
         reference=layers.masked_softmax_backward, make_public=_dec1_public, make_hidden=_dec1_hidden,
         exact_zeros=True, forbidden=("lib.layers.masked_softmax_backward",),
         title=_title("掩码 softmax 的反向传播", "The backward pass of the masked softmax",
                      "Обратный проход маскированного softmax")),
    dict(id="dec-2", notebook="ex07_decoder", function="layer_norm_backward", points=2,
         reference=exercise_models.layer_norm_backward, make_public=_dec2_public, make_hidden=_dec2_hidden,
         forbidden=("lib.layers.layer_norm_backward",),
         title=_title("层归一化的反向传播", "The backward pass of layer normalisation",
                      "Обратный проход нормализации слоя")),
    dict(id="dec-3", notebook="ex07_decoder", function="decoder_step", points=3,
         reference=exercise_models.decoder_step, make_public=_dec3_public, make_hidden=_dec3_hidden,
         title=_title("逐层 KV 缓存的一步", "One step with a KV cache in every layer",
                      "Шаг с KV-кэшем в каждом слое")),
    dict(id="dec-4", notebook="ex07_decoder", function="diagnose", points=3,
         reference=exercise_models.diagnose, make_public=_dec4_public, make_hidden=_dec4_hidden,
         title=_title("诊断交来的模型", "Diagnosing a model handed over as weights",
                      "Диагностика переданной модели")),
]

EXERCISES = {spec["id"]: Exercise(**spec) for spec in _SPECS}


def total_points():
    return sum(ex.points for ex in EXERCISES.values())


# --------------------------------------------------------------------------
# Calling the library instead of writing the function
# --------------------------------------------------------------------------

def _code_names(code):
    names, stack = set(), [code]
    while stack:
        c = stack.pop()
        names.update(c.co_names)
        names.update(c.co_freevars)
        stack.extend(k for k in c.co_consts if isinstance(k, types.CodeType))
    return names


def uses_library(exercise, func):
    """The dotted name of a forbidden library function that ``func`` is or refers to, else None."""
    forbidden = {id(obj): obj for obj in exercise.forbidden_objects()}

    def name_of(obj):
        return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', '?'))}"

    target = getattr(func, "__func__", func)
    if id(target) in forbidden:
        return name_of(target)
    code = getattr(target, "__code__", None)
    if code is None:
        return None
    names = _code_names(code)
    scope = dict(getattr(target, "__globals__", {}))
    for name, cell in zip(code.co_freevars, target.__closure__ or ()):
        try:
            scope[name] = cell.cell_contents
        except ValueError:
            pass
    frontier = [scope[n] for n in names if n in scope]
    seen = set()
    for _ in range(4):                                   # lib -> attention -> masked_softmax
        following = []
        for obj in frontier:
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            if id(obj) in forbidden:
                return name_of(obj)
            if isinstance(obj, types.ModuleType):
                following.extend(getattr(obj, n) for n in names if hasattr(obj, n))
        frontier = following
    return None


# --------------------------------------------------------------------------
# Instant feedback in the notebook
# --------------------------------------------------------------------------

@dataclass
class CaseResult:
    name: str
    ok: bool
    reason: str
    details: dict
    text: str                       # the localised explanation ("" when passed)


def _explain(reason, details, lang):
    fields = dict(details)
    for key in ("expected_type", "got_type"):
        if key in fields:
            fields[key] = type_name(fields[key], lang)
    text = message(reason, lang, **fields)
    if "item" in details:
        text = f"[{details['item']}] {text}"
    return text


def run_checks(exercise_id, func, lang=None, cases=None):
    """Run the public cases (or ``cases``) of one exercise -> list of CaseResult."""
    lang = detect_language(lang)
    exercise = EXERCISES[exercise_id]
    results = []
    for case in exercise.public_cases() if cases is None else cases:
        try:
            expected = exercise.expected(case)
            got = exercise.call(func, case)
            ok, reason, details = exercise.compare(expected, got)
        except SetupError as exc:
            ok, reason, details = False, "setup_failed", {"type": "SetupError", "message": str(exc)}
        except Exception as exc:  # noqa: BLE001 - the checker must never crash in the learner's face
            ok, reason, details = False, "internal_error", {"type": type(exc).__name__, "message": str(exc)}
        results.append(CaseResult(case.name, ok, reason, details, "" if ok else _explain(reason, details, lang)))
    return results


def check(exercise_id, func, lang=None):
    """Run the public cases of ``exercise_id`` on ``func`` and print localised feedback.

    Never raises: a wrong id, a non-function or a crashing function are all
    reported as text.  ``lang`` ("zh", "en", "ru") overrides the detection.
    When every case passes, the report has no words at all (``mask-2 ·
    masked_softmax: 6/6 ✓`` and one ``✓ case`` line per case), so the executed
    solution notebooks have identical outputs in the three languages; failures
    and "not done yet" are explained in the notebook's language.
    """
    lang = detect_language(lang)
    if exercise_id not in EXERCISES:
        print(message("unknown_exercise", lang, id=exercise_id, known=", ".join(EXERCISES)))
        return
    exercise = EXERCISES[exercise_id]
    if not callable(func):
        print(message("not_callable", lang, function=exercise.function, got_type=type(func).__name__))
        return
    results = run_checks(exercise_id, func, lang)
    passed = sum(r.ok for r in results)
    header = f"{exercise.id} · {exercise.function}"
    if passed == len(results):
        # Success is printed without words, so that solved notebooks read the same in every language.
        lines = [f"{header}: {passed}/{len(results)} ✓"] + [f"  ✓ {r.name}" for r in results]
    elif all(r.reason == "not_implemented" for r in results):
        lines = [header, "  … " + message("not_implemented", lang)]
    else:
        lines = [header]
        for r in results:
            lines.append(f"  ✓ {r.name}" if r.ok else f"  {'…' if r.reason == 'not_implemented' else '✗'} {r.name}: {r.text}")
        lines.append(message("summary_some", lang, id=exercise.id, passed=passed, total=len(results)))
    try:
        culprit = uses_library(exercise, func)
    except Exception:  # noqa: BLE001 - a warning is never worth a crash
        culprit = None
    if culprit:
        lines.append("  ! " + message("uses_library", lang, function=exercise.function, name=culprit))
    print("\n".join(lines))
