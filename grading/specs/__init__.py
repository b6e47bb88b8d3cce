"""Declarative specs of the exercises, one module per exercise notebook.

Every module here whose name does not start with ``_`` is loaded, in name
order, by :func:`grading.registry.load_specs`; see :mod:`grading.registry` for
what a module defines and docs/exercises.md ("Adding an exercise") for the steps.
Helpers shared by several modules live in :mod:`grading.specs._common`.
"""
