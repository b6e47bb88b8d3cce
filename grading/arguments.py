"""Did a call change, in place, an array or list it was given?

Used by ``grading.registry`` (``check()`` in the learner's kernel) and by the grader's code
inside a graded kernel, which holds no ``grading`` package: ``grading/batch/runner.py`` sends
this file's text into that kernel together with ``codec.py`` and ``_kernel_side.py``.
Standard library and NumPy only, no relative imports.
"""

import copy

import numpy as np


class ArgumentChanged(Exception):
    """The learner's function changed, in place, an array or list the caller passed it."""


def snapshot_arguments(args, kwargs):
    """Copies of the arrays and lists among a call's arguments: [(position from 1, or keyword name, copy)]."""
    items = [(i + 1, v) for i, v in enumerate(args)] + list(kwargs.items())
    return [(k, v.copy() if isinstance(v, np.ndarray) else copy.deepcopy(v)) for k, v in items
            if isinstance(v, (np.ndarray, list))]


def changed_argument(args, kwargs, snapshot):
    """The first argument of ``snapshot`` whose value the call changed in place, else None."""
    current = dict([(i + 1, v) for i, v in enumerate(args)] + list(kwargs.items()))
    for key, before in snapshot:
        if not _same(current[key], before):
            return key
    return None


def _same(now, before):
    """``now`` still equals ``before`` (arrays element by element, NaN equal to NaN; lists item by item)."""
    if isinstance(before, np.ndarray):
        return (isinstance(now, np.ndarray) and now.shape == before.shape and now.dtype == before.dtype
                and bool(np.array_equal(now, before, equal_nan=before.dtype.kind in "fc")))
    if isinstance(before, (list, tuple)):
        return (type(now) is type(before) and len(now) == len(before)
                and all(_same(a, b) for a, b in zip(now, before)))
    try:
        return bool(now == before) or (now != now and before != before)
    except Exception:  # noqa: BLE001 - an object that cannot say: assume it did not change
        return True
