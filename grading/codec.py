"""The course's values as plain JSON: what travels between the grader and a sandboxed kernel,
and the expected values of the public tests that ``check()`` reads (grading/specs/*.expected.json).

No pickle crosses the sandbox boundary: a student's kernel could craft a
pickle that runs code in the grader.  This module turns the values the
exercises use (None, bool, int, float incl. nan/inf, complex, str, bytes,
list, tuple, dict, set, NumPy arrays and scalars, exceptions) into strict
JSON and back.  Arrays travel as base64 of their raw bytes, so every bit of
a float64 survives and the dtype is the one the student really produced.

The same source runs on both sides: the grader imports it, and the kernel
receives its text (``KERNEL_CODE`` in grading/batch/runner.py), so it
uses only the standard library and NumPy, and nothing from ``lib`` or ``grading``.

Decoding is defensive (it runs in the grader on data a student controls):
it is linear in the size of the payload and bounded by :data:`MAX_ELEMENTS`
(every list item, dict entry and array element of the whole payload counted
together), :data:`MAX_DECODED_BYTES` (what the decoded arrays, strings and
numbers may hold together: a 300-byte line cannot ask for gigabytes, as a
text array of dtype ``<U99999999`` would), the nesting depth and the dtypes.
Anything malformed is a :class:`CodecError`; anything unknown an :class:`Unsupported`.
"""

import base64
import json
import math

try:
    import numpy as np
except ImportError:  # pragma: no cover - numpy is a dependency of the course
    np = None

MAX_DEPTH = 64
MAX_BYTES = 64 * 1024 * 1024
MAX_ELEMENTS = 4_000_000          # items of the whole decoded payload
MAX_DECODED_BYTES = 64 * 1024 * 1024
MAX_TEXT_ITEM = 4096              # characters of one element of a text array
_NUMERIC_KINDS = "biufc"
_TEXT_DTYPE = __import__("re").compile(r"[<>|=]?[US][1-9][0-9]{0,3}")


class CodecError(ValueError):
    """A value that cannot be encoded or a payload that cannot be decoded."""


class Unsupported:
    """A value the kernel could not encode (a generator, a custom object, ...)."""

    def __init__(self, type_name, text=""):
        self.type_name = str(type_name)[:200]
        self.text = str(text)[:200]

    def __repr__(self):
        return f"<unsupported {self.type_name}: {self.text}>"

    def __eq__(self, other):
        return isinstance(other, Unsupported) and (self.type_name, self.text) == (other.type_name, other.text)

    __hash__ = None


class Ref:
    """A name in the namespace built by a case's setup code (a model, a forward function)."""

    def __init__(self, name):
        self.name = str(name)

    def __repr__(self):
        return f"Ref({self.name!r})"

    def __eq__(self, other):
        return isinstance(other, Ref) and other.name == self.name

    __hash__ = None


class RaisedError:
    """An exception, as data: the type's name, its base classes' names and the message."""

    def __init__(self, type_name, message="", bases=()):
        self.type_name = str(type_name)[:200]
        self.message = str(message)[:2000]
        self.bases = tuple(str(b)[:200] for b in bases)[:30]

    @classmethod
    def from_exception(cls, exc):
        names = [k.__name__ for k in type(exc).__mro__]
        try:
            text = str(exc)
        except BaseException:  # a student's __str__ may raise
            text = "<unprintable>"
        return cls(type(exc).__name__, text, names[1:])

    def is_a(self, name):
        return name == self.type_name or name in self.bases

    def __repr__(self):
        return f"{self.type_name}({self.message!r})"

    def __eq__(self, other):
        return isinstance(other, RaisedError) and (self.type_name, self.message) == (other.type_name, other.message)

    __hash__ = None


def _b64(data):
    return base64.b64encode(data).decode("ascii")


def _float(x):
    x = float(x)
    if math.isfinite(x):
        return x
    return {"__float__": "nan" if math.isnan(x) else ("inf" if x > 0 else "-inf")}


def encode(value, max_bytes=MAX_BYTES, strict=False):
    """``value`` as a JSON-safe structure.

    Unknown objects become an ``__unsupported__`` record, or a CodecError
    with ``strict=True`` (the grader encodes its own cases strictly).
    """
    budget = [max_bytes]

    def spend(n):
        budget[0] -= n
        if budget[0] < 0:
            raise CodecError(f"value larger than {max_bytes} bytes")

    def enc(v, depth):
        if depth > MAX_DEPTH:
            raise CodecError(f"value nested deeper than {MAX_DEPTH} levels")
        spend(8)
        if v is None or isinstance(v, bool):
            return v
        if np is not None and isinstance(v, np.ndarray):
            return enc_array(v)
        if np is not None and isinstance(v, np.generic):
            return enc_scalar(v)
        if isinstance(v, int):
            if type(v) is not int:          # an int subclass (IntEnum ...) travels as int
                v = int(v)
            if abs(v) < 2 ** 63:
                return v
            spend(len(str(v)))
            return {"__bigint__": str(v)}
        if isinstance(v, float):
            return _float(v)
        if isinstance(v, complex):
            return {"__complex__": [_float(v.real), _float(v.imag)]}
        if isinstance(v, str):
            spend(len(v) * 2)
            # lone surrogates cannot be UTF-8 encoded: replace them
            return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c for c in v) if _has_surrogates(v) else v
        if isinstance(v, (bytes, bytearray)):
            spend(len(v) * 2)
            return {"__bytes__": _b64(bytes(v))}
        if isinstance(v, list):
            return [enc(x, depth + 1) for x in v]
        if isinstance(v, tuple):
            return {"__tuple__": [enc(x, depth + 1) for x in v]}
        if isinstance(v, dict):
            return {"__dict__": [[enc(k, depth + 1), enc(x, depth + 1)] for k, x in v.items()]}
        if isinstance(v, (set, frozenset)):
            return {"__set__": [enc(x, depth + 1) for x in v]}
        if isinstance(v, Ref):
            return {"__ref__": v.name}
        if isinstance(v, RaisedError):
            return {"__raised__": {"type": v.type_name, "message": v.message, "bases": list(v.bases)}}
        if isinstance(v, Unsupported):
            return {"__unsupported__": {"type": v.type_name, "text": v.text}}
        if isinstance(v, BaseException):
            return enc(RaisedError.from_exception(v), depth)
        if strict:
            raise CodecError(f"cannot encode a value of type {type(v).__name__}")
        return {"__unsupported__": {"type": _type_name(v), "text": _safe_repr(v)}}

    def enc_array(a):
        kind = a.dtype.kind
        if kind in _NUMERIC_KINDS and a.dtype.fields is None and not a.dtype.subdtype:
            spend(a.nbytes * 4 // 3 + 64)
            data = np.ascontiguousarray(a).tobytes()
            out = {"dtype": a.dtype.str, "shape": list(a.shape), "data": _b64(data)}
        elif kind in "US":
            spend(a.nbytes * 2 + 64)
            items = [x.decode("latin-1") if isinstance(x, bytes) else str(x) for x in a.reshape(-1).tolist()]
            out = {"dtype": a.dtype.str, "shape": list(a.shape), "items": items}
        else:
            if strict:
                raise CodecError(f"cannot encode an array of dtype {a.dtype}")
            return {"__unsupported__": {"type": f"ndarray[{a.dtype}]", "text": _safe_repr(a)}}
        if type(a) is not np.ndarray:
            out["class"] = _type_name(a)
        return {"__ndarray__": out}

    def enc_scalar(s):
        if s.dtype.kind in _NUMERIC_KINDS:
            spend(s.dtype.itemsize * 2 + 32)
            return {"__npscalar__": {"dtype": s.dtype.str, "data": _b64(s.tobytes())}}
        if strict:
            raise CodecError(f"cannot encode a NumPy scalar of dtype {s.dtype}")
        return {"__unsupported__": {"type": _type_name(s), "text": _safe_repr(s)}}

    return enc(value, 0)


def _has_surrogates(s):
    try:
        s.encode("utf-8")
        return False
    except UnicodeEncodeError:
        return True


def _type_name(v):
    try:
        t = type(v)
        return f"{t.__module__}.{t.__qualname__}" if t.__module__ not in ("builtins", None) else t.__qualname__
    except BaseException:
        return "object"


def _safe_repr(v):
    try:
        text = repr(v)
    except BaseException:
        return "<unprintable>"
    if not isinstance(text, str):
        return "<unprintable>"
    return text[:200]


def decode(data, refs=None, max_elements=MAX_ELEMENTS, max_bytes=MAX_DECODED_BYTES):
    """Inverse of :func:`encode`.  ``refs`` maps ``Ref`` names to objects;
    without it a ``Ref`` decodes to a :class:`Ref` marker.  The whole payload
    may hold at most ``max_elements`` items and ``max_bytes`` of decoded data."""
    budget = {"elements": max_elements, "bytes": max_bytes}

    def spend(elements=0, nbytes=0):
        budget["elements"] -= elements
        budget["bytes"] -= nbytes
        if budget["elements"] < 0:
            raise CodecError(f"payload with more than {max_elements} items")
        if budget["bytes"] < 0:
            raise CodecError(f"payload asking for more than {max_bytes} bytes")

    def dec(v, depth):
        if depth > MAX_DEPTH:
            raise CodecError(f"payload nested deeper than {MAX_DEPTH} levels")
        spend(1, 8)
        if v is None or isinstance(v, (bool, int, float)):
            return v
        if isinstance(v, str):
            spend(0, len(v))
            return v
        if isinstance(v, list):
            return [dec(x, depth + 1) for x in v]
        if not isinstance(v, dict) or len(v) != 1:
            raise CodecError("malformed payload: a bare JSON object")
        (tag, body), = v.items()
        if tag == "__float__":
            if body not in ("nan", "inf", "-inf"):
                raise CodecError(f"malformed float {str(body)[:20]!r}")
            return float(body)
        if tag == "__bigint__":
            if not isinstance(body, str) or len(body) > 4000 or not body.lstrip("-").isdigit():
                raise CodecError("malformed big integer")
            return int(body)
        if tag == "__complex__":
            if not isinstance(body, list) or len(body) != 2:
                raise CodecError("malformed complex number")
            re_, im = (dec(x, depth + 1) for x in body)
            if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (re_, im)):
                raise CodecError("malformed complex number")
            return complex(re_, im)
        if tag == "__bytes__":
            if not isinstance(body, str):
                raise CodecError("malformed bytes")
            spend(0, len(body))
            return base64.b64decode(body, validate=True)
        if tag == "__tuple__":
            return tuple(dec(x, depth + 1) for x in _list(body))
        if tag == "__set__":
            items = [dec(x, depth + 1) for x in _list(body)]
            try:
                return set(items)
            except TypeError:
                return Unsupported("set", "unhashable items")
        if tag == "__dict__":
            out = {}
            for pair in _list(body):
                if not isinstance(pair, list) or len(pair) != 2:
                    raise CodecError("malformed dict entry")
                key = dec(pair[0], depth + 1)
                try:
                    out[key] = dec(pair[1], depth + 1)
                except TypeError:
                    return Unsupported("dict", "unhashable key")
            return out
        if tag == "__ndarray__":
            return dec_array(body)
        if tag == "__npscalar__":
            if not isinstance(body, dict) or not isinstance(body.get("data", ""), str):
                raise CodecError("malformed NumPy scalar")
            dtype = _dtype(body.get("dtype"))
            raw = base64.b64decode(body.get("data", ""), validate=True)
            if len(raw) != dtype.itemsize:
                raise CodecError("malformed NumPy scalar")
            return np.frombuffer(raw, dtype=dtype)[0]
        if tag == "__ref__":
            if not isinstance(body, str):
                raise CodecError("malformed reference")
            if refs is None:
                return Ref(body)
            if body not in refs:
                raise CodecError(f"the setup code defined no name {body[:40]!r}")
            return refs[body]
        if tag == "__raised__":
            if not isinstance(body, dict):
                raise CodecError("malformed exception")
            fields = (body.get("type", "?"), body.get("message", ""))
            bases = body.get("bases", ())
            if not all(isinstance(f, str) for f in fields) or not isinstance(bases, (list, tuple)) \
                    or not all(isinstance(b, str) for b in bases):
                raise CodecError("malformed exception")
            return RaisedError(fields[0], fields[1], bases)
        if tag == "__unsupported__":
            if not isinstance(body, dict):
                raise CodecError("malformed marker")
            return Unsupported(body.get("type", "?"), body.get("text", ""))
        raise CodecError(f"unknown tag {str(tag)[:40]!r}")

    def dec_array(body):
        if not isinstance(body, dict):
            raise CodecError("malformed array")
        shape = body.get("shape")
        if not isinstance(shape, list) or len(shape) > 32 or \
                not all(isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 2 ** 31 for n in shape):
            raise CodecError("malformed array shape")
        count = 1
        for n in shape:
            count *= n
        if count > max_elements:
            raise CodecError(f"array of {count} elements is too large")
        if "items" in body:
            text = body.get("dtype")
            if not isinstance(text, str) or not _TEXT_DTYPE.fullmatch(text):
                raise CodecError("malformed text array dtype")
            dtype = np.dtype(text)
            if dtype.itemsize > 4 * MAX_TEXT_ITEM:
                raise CodecError(f"text array elements longer than {MAX_TEXT_ITEM} characters")
            items = _list(body["items"])
            if len(items) != count or not all(isinstance(x, str) for x in items):
                raise CodecError("array items do not match its shape")
            spend(count, count * dtype.itemsize)
            arr = np.array(items, dtype=dtype).reshape(shape)
        else:
            dtype = _dtype(body.get("dtype"))
            data = body.get("data", "")
            if not isinstance(data, str):
                raise CodecError("malformed array data")
            spend(count, count * dtype.itemsize)
            raw = base64.b64decode(data, validate=True)
            if len(raw) != count * dtype.itemsize:
                raise CodecError("array bytes do not match its shape and dtype")
            arr = np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
        if "class" in body:
            return Unsupported(str(body["class"])[:200], f"array subclass of shape {tuple(shape)}")
        return arr

    return dec(data, 0)


def _list(v):
    if not isinstance(v, list):
        raise CodecError("malformed payload: expected a list")
    return v


def _dtype(text):
    if not isinstance(text, str) or len(text) > 8:
        raise CodecError("malformed dtype")
    try:
        dtype = np.dtype(text)
    except TypeError:
        raise CodecError(f"unknown dtype {text!r}") from None
    if dtype.kind not in _NUMERIC_KINDS or dtype.fields is not None or dtype.subdtype:
        raise CodecError(f"dtype {text!r} is not allowed")
    return dtype


def dumps(value, **kwargs):
    """Strict JSON text of ``encode(value)`` (no NaN tokens, UTF-8 safe)."""
    return json.dumps(encode(value, **kwargs), ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def _no_constants(name):
    raise ValueError(f"non-standard JSON constant {name}")


def parse_json(text):
    """Strict JSON (no NaN / Infinity tokens); ValueError or RecursionError otherwise."""
    return json.loads(text, parse_constant=_no_constants)


def loads(text, refs=None):
    """Inverse of :func:`dumps`; any malformation becomes a CodecError."""
    try:
        data = parse_json(text)
    except (ValueError, RecursionError) as exc:
        raise CodecError(f"not valid JSON: {exc}") from None
    try:
        return decode(data, refs)
    except CodecError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, RecursionError, OverflowError, MemoryError) as exc:
        raise CodecError(f"malformed payload: {type(exc).__name__}: {exc}") from None
