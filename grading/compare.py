"""Comparing a learner's result with the expected one: exact rules, explicit tolerances.

:func:`compare_values` returns ``(ok, reason_key, details)``; the reason keys
are the message keys of :mod:`grading.feedback` and ``details`` holds only
short strings, so the verdict can travel in a report and be worded later in
any of the three languages.  Rules: the type, shape and dtype must be the
expected ones; float values agree within ``atol + rtol * |expected|`` (at
least 1e-5 / 1e-4 when the expected array is float32); NaN and infinities
must sit where they are expected; an expected exception must be raised (a
subclass counts), and the stub's own ``NotImplementedError`` means "not done".
"""

import numbers

import numpy as np

from .values import ARGUMENT_CHANGED, Opaque, Raised

__all__ = ["compare_values", "FLOAT32_TOLERANCE", "describe_value"]

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


def describe_value(x):
    """What a result is, for 'got ...' phrases, as a language-neutral code that
    :func:`grading.feedback.type_name` words: ``array (2, 2) float64``, ``tuple``, ``list``, ``float`` ...
    (any other type: its name)."""
    if isinstance(x, np.ndarray):
        return f"array {tuple(x.shape)} {x.dtype}"
    if isinstance(x, Opaque):
        return x.type
    if isinstance(x, (bool, np.bool_)):
        return "bool"
    if isinstance(x, (int, np.integer)):
        return "int"
    if isinstance(x, (float, np.floating)):
        return "float"
    return type(x).__name__


def _distinct(exp, got):
    """exp and got printed with just enough digits to tell them apart (6 to 17 significant digits)."""
    for digits in range(6, 18):
        a, b = f"{float(exp):.{digits}g}", f"{float(got):.{digits}g}"
        if a != b:
            return a, b
    return f"{float(exp):.17g}", f"{float(got):.17g}"


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
    if isinstance(expected, (tuple, list)):                 # a sequence of results, item by item
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
        same = (np.isnan(exp_flat) & np.isnan(got_flat)) | (np.isinf(exp_flat) & (exp_flat == got_flat))
        error[same] = 0.0
        limit = atol + rtol * np.abs(exp_flat.astype(np.float64))
    bad = ~(error <= limit) & ~same
    if bad.any():
        i = int(np.argmax(np.where(bad, np.nan_to_num(error, nan=np.inf), -1.0)))
        expected, obtained = _distinct(exp_flat[i], got_flat[i])
        largest = float(np.max(np.where(bad, error, 0.0)))
        details = {"index": index_of(i), "expected": expected, "got": obtained, "error": f"{largest:.3g}",
                   "atol": f"{atol:g}", "rtol": f"{rtol:g}"}
        # float32 rounding: every error within a few float32 steps of the values, while float64 was expected
        scale = np.maximum(np.abs(exp_flat.astype(np.float64)), 1.0)
        if exp.dtype.itemsize == 8 and np.all(np.where(bad, error <= 8 * np.finfo(np.float32).eps * scale, True)):
            details["float32"] = "yes"
        return False, "wrong_value", details
    if exact_zeros:
        not_zero = (exp_flat == 0) & (got_flat != 0)
        if not_zero.any():
            i = int(np.argmax(not_zero))
            return False, "not_exact_zero", {"index": index_of(i), "got": f"{float(got_flat[i]):.3g}"}
    return True, "passed", {}


def compare_values(expected, got, rtol=1e-7, atol=1e-9, exact_zeros=False, item=None):
    """Compare one expected result with one obtained result -> (ok, reason_key, details).

    ``details`` holds only strings (and ``item``, the position inside a tuple
    result), so it is JSON-encodable and ready for :func:`grading.feedback.explain`.
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
        return out(False, "missing_exception", {"type": expected.type, "got": describe_value(got) if got is not None else "None"})
    if isinstance(got, Raised) and got.type == ARGUMENT_CHANGED:
        return out(False, "argument_changed", {"which": got.message})
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
            return out(False, "wrong_type", {"expected_type": kind, "got_type": describe_value(got)})
        if len(got) != len(expected):
            return out(False, "wrong_length", {"expected": str(len(expected)), "got": str(len(got))})
        for i, (e, g) in enumerate(zip(expected, got)):
            ok, key, details = compare_values(e, g, rtol, atol, exact_zeros, item=i)
            if not ok:
                return ok, key, details
        return out(True, "passed")
    if kind == "array":
        if not isinstance(got, np.ndarray):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": describe_value(got)})
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
            return out(False, "wrong_entry", {
                "index": index_of(i), "expected": _fmt(expected.reshape(-1)[i]), "got": _fmt(got.reshape(-1)[i]),
            })
        return out(True, "passed")
    if kind == "float":
        if isinstance(got, np.ndarray) and got.shape == () and got.dtype.kind in "fiu":
            got = got[()]
        if not _is_real(got):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": describe_value(got)})
        ok, key, details = _compare_floats(np.array([float(expected)]), np.array([float(got)]), rtol, atol, False,
                                           lambda i: "()")
        if not ok:
            details.pop("index", None)
            key = {"wrong_value": "wrong_number", "nan": "nan_number"}[key]
        return out(ok, key, details)
    if kind == "bool":
        if not isinstance(got, (bool, np.bool_)):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": describe_value(got)})
    elif kind == "int":
        if not isinstance(got, (int, np.integer)) or isinstance(got, (bool, np.bool_)):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": describe_value(got)})
    elif kind == "str":
        if not isinstance(got, str):
            return out(False, "wrong_type", {"expected_type": kind, "got_type": describe_value(got)})
    if got != expected:
        return out(False, "wrong_exact", {"expected": _fmt(expected), "got": _fmt(got)})
    return out(True, "passed")
