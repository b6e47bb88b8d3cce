"""A corpus of realistic wrong answers to every exercise, kept as data.

One module per exercise notebook (``exNN.py``) holds a list ``ENTRIES`` of
:class:`Entry`: the exercise id, a short slug, the wrong function's code as a
learner would write it in the notebook (a ``def`` of the exercise's function,
with the imports it needs), and the id of the mistake
(:data:`grading.diagnoses.MISTAKES`) that ``check()`` should name, or None
when no diagnosis is expected (a tuple of ids when the code has two
mistakes: naming either is right).  tests/test_mistakes.py runs every entry through
the public and practice tests, the grader's scoring and the diagnosis.
"""

import importlib
import pkgutil
from dataclasses import dataclass


@dataclass(frozen=True)
class Entry:
    exercise: str
    slug: str
    code: str
    diagnosis: object = None        # a mistake id, a tuple of ids (code with two mistakes), or None

    @property
    def accepted(self):
        """The diagnoses that name a mistake this code has."""
        if self.diagnosis is None:
            return ()
        return self.diagnosis if isinstance(self.diagnosis, tuple) else (self.diagnosis,)

    @property
    def name(self):
        return f"{self.exercise}:{self.slug}"


def entries():
    out = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        out += module.ENTRIES
    return out


def load(entry, function):
    """The wrong function of ``entry``, defined as the notebook would define it."""
    scope = {"__name__": "__main__"}
    exec(compile(entry.code, f"<{entry.name}>", "exec"), scope)
    return scope[function]
