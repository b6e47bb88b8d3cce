"""Shared NumPy code of the course "Causality, Multiple Heads and Position".

Every function a chapter teaches lives here exactly once; the notebooks import
it rather than re-typing it.  Each docstring names the section that teaches it
(§1 = chapters/*/01_allowed_set.ipynb, and so on).

Conventions used everywhere in this package:

* shapes: B batch, T positions, D model width, H heads, d = D / H per head,
  C rows of the position table, V vocabulary size; positions count from 0;
* row vectors: a linear map is ``x @ w`` with ``w`` of shape (D_in, D_out);
* masks: ``allowed`` is True where reading is allowed, ``future`` is True where
  reading is forbidden.  No name ever means both.
"""

from . import attention, checks, costs, data, model, positions

# The modules the chapters teach.  Also here, imported on demand: ``lib.plots``
# (matplotlib figures).  The exercises and the batch grader are tooling, not
# teaching: they live in the separate package ``grading`` (python -m grading).
__all__ = ["attention", "checks", "costs", "data", "model", "positions"]
