"""Shared NumPy code of the course "Causality, Multiple Heads and Position".

Every function a section teaches lives here once, and its docstring names the section that
teaches it (§1 = chapters/*/01_allowed_set.ipynb, and so on).  Conventions:

* shapes: B batch, T positions, D model width, H heads, d = D / H per head, C rows of the
  position table, V vocabulary size; positions count from 0;
* row vectors: a linear map is ``x @ w`` with ``w`` of shape (D_in, D_out);
* masks: ``allowed`` is True where reading is allowed, ``future`` where it is forbidden;
* dtypes: a result comes in the *common float dtype of the numeric array arguments*: float
  arrays keep their precision; integer and boolean arrays, Python numbers and lists count as
  float64; different precisions meet in NumPy's promotion.  Token ids, masks, positions and sizes
  are indices and never change the dtype.  Rearrangements (``split_heads``, ``merge_heads``) keep
  their input's dtype; measured differences (``checks.row_changes``, ``checks.cache_error``) are
  float64, ``costs`` counts int64.  A model stores its parameters in their common dtype, that of
  its outputs and its cache;
* bad input is refused where it enters, once (``lib.validate``): a TypeError for a wrong kind, a
  ValueError for a wrong value or shape, naming the argument and what is expected.  NaN and
  infinities are refused wherever they would be read."""

from . import attention, blocked, checks, costs, data, model, positions

# The modules the sections teach.  On demand: lib.layers, lib.decoder (§7), lib.plain_python
# (§3.4, §6.2), lib.validate (argument checks; the appendix lists every module but this one).
# Not in lib: §5.9's threaded form (bench/fast_attention.py), figures, exercises and grader.
__all__ = ["attention", "blocked", "checks", "costs", "data", "model", "positions"]
