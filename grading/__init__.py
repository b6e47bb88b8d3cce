"""Exercises and grading of the course "Causality, Multiple Heads and Position".

Tooling, kept apart from ``lib`` (the small library the chapters teach; it
never imports this package):

* ``check`` (:mod:`grading.exercises`) — the one-line check an exercise
  notebook runs after each exercise: ``from grading import check``; and
  ``needs_exercise``, the message of a worked example's ``assert`` that uses
  the learner's functions ("fix exercise mask-2 first");
* :mod:`grading.bugs` — the one catalogue of wrong code: named bug operators
  that turn a correct answer into a plausible wrong one;
* :mod:`grading.diagnoses` — the known mistakes, recognised by running the
  mutants of an exercise's answer on the tests a function failed, and what each
  one means (imported only when a test fails);
* :mod:`grading.registry` and :mod:`grading.specs` — the exercises, declared one
  module per notebook: public and hidden tests, references, comparison settings;
* :mod:`grading.models` — the small seeded test models the tests are built on
  (the only part of this package a grading sandbox holds);
* :mod:`grading.references` — the answers the solved notebooks show (and the
  reference of every exercise whose function ``lib`` does not have);
* :mod:`grading.feedback` — every learner-facing sentence, in English under a key
  (the other languages: the catalogues of :mod:`course_i18n`);
* :mod:`grading.usage` — whether a function calls a reference answer, decided
  from the notebook's source;
* :mod:`grading.batch` — the instructors' batch grader (``python -m grading``):
  sandboxed kernels, hidden tests, reports, feedback pages, gradebook exports.
"""

__all__ = ["check", "needs_exercise", "set_language"]


def __getattr__(name):
    # imported on first use: ``python -m grading`` starts (and takes its signals) before NumPy loads
    if name == "check":
        from .exercises import check
        return check
    if name == "needs_exercise":
        from .exercises import needs_exercise
        return needs_exercise
    if name == "set_language":
        from .feedback import set_language
        return set_language
    raise AttributeError(f"module 'grading' has no attribute {name!r}")
