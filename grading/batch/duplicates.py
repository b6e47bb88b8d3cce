"""Several notebooks of one exercise set in one submission: which one is graded (``--duplicates``).

A student who downloads a notebook twice hands in ``ex01_allowed_set.ipynb``
and ``ex01_allowed_set (1).ipynb``; one of them may be the untouched stub.
Three rules, all deterministic, all said in the row, the index and the
gradebook (a ``duplicates`` record on every row of the set):

``newest`` (the default)
    the most recently modified file, unless it has nothing done (every exercise's
    function still raises NotImplementedError as the stub does: a download made
    after the work) while an older copy has work in it: then the newest copy with work
    is graded, and the student's page says so.  Modification times less than
    ``SAME_TIME`` apart count as equal (a zip archive keeps times to 2 s), and
    equal times fall back to the file named exactly like the course's notebook,
    then natural name order; the row is then flagged ``ambiguous``.  Why the
    default: one notebook is graded, so a student gains nothing by handing in
    copies (``best`` would give one attempt per copy against the same hidden
    tests), and the usual cause, a second download or a "save as" copy, is the
    newer file.
``best``
    every copy is graded (at most ``MAX_TRIES``, newest first) and the one with
    the most points counts: never a 0 for a stray stub, but one attempt per
    copy.  For classes where copies are known to be accidents.
``ambiguous``
    none is graded: the set's rows get 0 points, status ``error`` and a message
    naming the files, for the instructor to decide (remove the wrong file and
    regrade the student with ``--only``).
"""

import os
import re

from ..cells import written_functions

RULES = ("newest", "best", "ambiguous")
SAME_TIME = 2.0          # seconds: modification times closer than this cannot be told apart
MAX_TRIES = 5            # copies graded under ``best``


def name_order(info, stem):
    """The file named exactly like the course's notebook, then natural name order ("x (2)" before "x (10)")."""
    name = info.name[:-6] if info.name.lower().endswith(".ipynb") else info.name
    natural = [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", info.display)]
    return (name.strip(" .") != stem, natural, info.display)


def mtime(info):
    try:
        return os.lstat(info.path).st_mtime
    except (OSError, ValueError, TypeError):
        return 0.0


def order(candidates, stem, rule):
    """(the candidates in the order the rule tries them, ambiguous?): newest first for newest/best."""
    by_name = sorted(candidates, key=lambda i: name_order(i, stem))
    if len(by_name) < 2 or rule not in ("newest", "best"):
        return by_name, len(by_name) > 1
    times = {id(i): mtime(i) for i in by_name}
    latest = max(times.values())
    tied = [i for i in by_name if latest - times[id(i)] < SAME_TIME]
    rest = sorted((i for i in by_name if latest - times[id(i)] >= SAME_TIME), key=lambda i: -times[id(i)])
    return tied + rest, len(tied) > 1


def has_work(info, functions):
    """Whether a copy defines one of the exercise set's ``functions`` with code of its own (not the stub)."""
    return any(written_functions(source) & functions for _, source, _ in info.cells)


def record(graded, others, rule, ambiguous, untouched=()):
    """What a row says about the copies: {"graded", "others", "rule", "ambiguous"} (file names only), and
    "untouched": the newer copies passed over because nothing was done in them."""
    out = {"graded": _name(graded) if graded is not None else None, "others": [_name(o) for o in others],
           "rule": rule, "ambiguous": bool(ambiguous)}
    if untouched:
        out["untouched"] = [_name(u) for u in untouched]
    return out


def _name(info):
    return info.display.rsplit("/", 1)[-1]
