"""Exercises and grading of the course "Causality, Multiple Heads and Position".

Tooling, kept apart from ``lib`` (the small library the chapters teach):

* :mod:`grading.exercises` — the exercise registry (public and hidden cases,
  references, comparison) and ``check()``, the one-line check an exercise
  notebook runs after each exercise;
* :mod:`grading.feedback` — the learner-facing messages in zh / en / ru;
* :mod:`grading.exercise_models` — reference answers and the small seeded test
  models the cases are built on;
* :mod:`grading.batch` — the instructors' batch grader (``python -m grading``):
  sandboxed kernels, hidden cases, reports.

Importing this package imports nothing heavy; ``lib`` never imports it.
"""
