"""Checking arguments where they enter lib: one rule for every public function.

Every public function of lib checks its arguments with these helpers, once,
where they enter; the functions it calls in turn trust them.  The rules:

* a wrong *kind* is a TypeError: a float, a bool or a string where an int is
  needed (``n_heads=2.0``, ``True``, ``"2"``), an array of strings where numbers
  are needed;
* a wrong *value* or *shape* is a ValueError: ``n_heads=0``, a width that H
  does not divide, a token id outside the table;
* numeric arrays follow the package's dtype rule (lib/__init__): float arrays
  keep their precision, integer and boolean arrays, Python numbers and lists
  count as float64, and arrays that meet are promoted to their common dtype.

Every message names the argument and says what is expected.
"""

import numbers

import numpy as np


def integer(value, name, minimum=1):
    """``value`` as a Python int; TypeError if it is not an int, ValueError if below ``minimum``."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def boolean(value, name):
    """``value`` as a Python bool; TypeError for anything but True or False."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def positive_number(value, name):
    """``value`` as a Python float; TypeError if it is not a real number, ValueError unless finite and > 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if not 0 < value < np.inf:
        raise ValueError(f"{name} must be a positive number (finite, > 0), got {value!r}")
    return float(value)


def float_arrays(**arrays):
    """The package's dtype rule: the arrays, in argument order, in their common floating-point dtype."""
    converted = []
    for name, value in arrays.items():
        try:
            a = np.asarray(value)
        except ValueError as err:
            raise ValueError(f"{name} is not a rectangular array of numbers ({err})") from None
        if np.issubdtype(a.dtype, np.integer) or a.dtype == bool:
            a = a.astype(np.float64)
        elif not np.issubdtype(a.dtype, np.floating):
            raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
        converted.append(a)
    dtype = np.result_type(*converted)
    return [a.astype(dtype, copy=False) for a in converted]


def float_array(value, name):
    """One array under the dtype rule (see :func:`float_arrays`)."""
    return float_arrays(**{name: value})[0]


def float_dtype(dtype):
    """A floating-point dtype (float32 or float64); TypeError for anything else."""
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"dtype must be float32 or float64, got {dtype!r}") from None
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"dtype must be float32 or float64, got {dtype}")
    return dtype


def shape(array, expected, name):
    """ValueError unless ``array`` has exactly the shape ``expected``."""
    if np.shape(array) != tuple(expected):
        raise ValueError(f"{name} has shape {np.shape(array)}, expected {tuple(expected)}")


def projections(x, **weights):
    """x (B, T, D) and its (D, D) projection matrices, in their common float dtype, after checking shapes."""
    x, *converted = float_arrays(x=x, **weights)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (B, T, D), got shape {x.shape}")
    D = x.shape[-1]
    for name, w in zip(weights, converted):
        if w.shape[-2:] != (D, D):                                      # a stack's: (S, 1, D, D)
            raise ValueError(f"{name} has shape {w.shape}, expected ({D}, {D}) for width D={D}")
    return [x, *converted]


def head_width(width, n_heads):
    """d = D / H, after checking ``n_heads`` (an int >= 1 that divides the width D)."""
    n_heads = integer(n_heads, "n_heads")
    if width % n_heads:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}; D must be a multiple of H")
    return width // n_heads


def causal_lengths(tq, tk):
    """(tq, tk) as ints >= 0, after checking that every query can read at least its own key: tq <= tk."""
    tq, tk = integer(tq, "tq", 0), integer(tk, "tk", 0)
    if tq > tk:
        raise ValueError(f"{tq} queries but only {tk} keys: every query must be able to read at least its own key, "
                         "so the number of queries may not exceed the number of keys")
    return tq, tk


def token_ids(ids, vocab_size):
    """ids of shape (T,) or (B, T), T >= 1, every one a row of a table of ``vocab_size`` rows."""
    ids = np.asarray(ids)
    if not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"ids must be integers, got dtype {ids.dtype}")
    if ids.ndim not in (1, 2) or ids.shape[-1] == 0:
        raise ValueError(f"ids must have shape (T,) or (B, T) with T >= 1, got shape {ids.shape}")
    bad = ids[(ids < 0) | (ids >= vocab_size)]
    if bad.size:
        raise ValueError(
            f"token id {int(bad[0])} is outside the token table of {vocab_size} rows "
            f"(valid ids are 0..{vocab_size - 1}; IGNORE=-100 marks targets, it is never an input)"
        )
    return ids


def attention_inputs(q, k, v, row_lengths=False):
    """q, k, v of an attention in their common float dtype, and with ``row_lengths`` the lengths of their
    rows (else None), (..., Tq), (..., Tk), (..., Tk): sqrt(sum of squares + width * tiny), up to rounding
    never below the true length, even where the squares of tiny entries underflow to 0.

    Refused with a ValueError: fewer than 2 axes, mismatched widths or lengths,
    no key, leading axes that do not broadcast, a NaN or an infinity anywhere
    (even in the future it reaches earlier outputs: their weight on it is 0,
    and 0 * nan = nan), and values so large that a score or a sum could overflow.
    """
    q, k, v = float_arrays(q=q, k=k, v=v)
    for name, a, axes in (("q", q, "Tq, d"), ("k", k, "Tk, d"), ("v", v, "Tk, dv")):
        if a.ndim < 2:
            raise ValueError(f"{name} must have shape (..., {axes}) with at least 2 axes, got shape {a.shape}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q has width {q.shape[-1]} but k has width {k.shape[-1]}; they must match")
    if q.shape[-1] == 0:
        raise ValueError("q and k have width d = 0: a score needs at least one coordinate")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k has {k.shape[-2]} positions but v has {v.shape[-2]}; they must match")
    if k.shape[-2] == 0:
        raise ValueError("k and v have 0 positions: there is no key to read (every query needs at least one)")
    try:
        np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            f"the leading (batch, head) axes of q {q.shape}, k {k.shape} and v {v.shape} do not broadcast"
        ) from None
    lengths = tuple(np.sqrt(np.einsum("...i,...i->...", a, a) + a.shape[-1] * np.finfo(a.dtype).tiny)
                    for a in (q, k, v)) if row_lengths else None
    # No score |q·k| / sqrt(d) <= max|q| max|k| sqrt(d), nor unnormalised sum of values <= Tk max|v|, may overflow
    # (else: refused).  A row is at least as long as its largest entry: with lengths, those are sought only if they fail.
    limit = float(np.finfo(q.dtype).max) / 4
    fails = lambda mq, mk, mv: not (mq * mk * np.sqrt(q.shape[-1]) <= limit and mv * k.shape[-2] <= limit)  # nan too
    if lengths is None or fails(*(float(rows.max(initial=0.0)) for rows in lengths)):
        mq, mk, mv = (_largest_magnitude(a, name) for name, a in (("q", q), ("k", k), ("v", v)))
        if fails(mq, mk, mv):
            raise ValueError(
                f"q, k, v are too large for {q.dtype} (max |q| = {mq:.3g}, max |k| = {mk:.3g}, max |v| = {mv:.3g}): "
                "scores or sums could overflow; scale them down or use float64"
            )
    return q, k, v, lengths


def _largest_magnitude(a, name):
    """max |a| as a Python float (0.0 if empty); a NaN or an infinity is refused, naming its index."""
    largest = max(float(a.max(initial=0.0)), -float(a.min(initial=0.0)))   # two passes, no temporary array
    if not np.isfinite(largest):                                # max and min propagate nan and inf
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(a))[0])
        raise ValueError(
            f"{name} holds {a[index]} at index {index}: q, k and v must be finite.  Even a value at a "
            "future position would reach earlier outputs, whose weight on it is 0, because 0 * nan = nan "
            "(in any implementation that multiplies the weights by the values)"
        )
    return largest
