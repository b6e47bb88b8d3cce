"""Shared NumPy code of the course "Causality, Multiple Heads and Position".

Every function a chapter teaches lives here exactly once; the notebooks import
it rather than re-typing it.  Each docstring names the section that teaches it
(§1 = chapters/*/01_allowed_set.ipynb, and so on).

Conventions used everywhere in this package:

* shapes: B batch, T positions, D model width, H heads, d = D / H per head,
  C rows of the position table, V vocabulary size; positions count from 0;
* row vectors: a linear map is ``x @ w`` with ``w`` of shape (D_in, D_out);
* masks: ``allowed`` is True where reading is allowed, ``future`` is True where
  reading is forbidden.  No name ever means both;
* dtypes, one rule for every function: a function that computes with numbers
  returns them in the *common float dtype of its numeric array arguments*.
  Float arrays keep their precision (float32 in, float32 out, float32
  throughout); integer and boolean arrays, Python numbers and lists count as
  float64; arguments of different precision meet in NumPy's promotion
  (float32 with float64 gives float64).  Token ids, masks, positions and sizes
  are indices, not numbers, and never change the dtype.  Functions that only
  rearrange (``split_heads``, ``merge_heads``) return their input's dtype
  unchanged; measurements of a difference (``checks.row_changes``,
  ``checks.future_change``, ``checks.cache_error``) are float64 or Python
  floats; ``costs`` counts are int64.  A model (``model.AttentionModel``)
  stores all its parameters in their common dtype, which is the dtype of its
  outputs and of its cache;
* bad input is refused where it enters, once (``lib.validate``), with a TypeError
  (wrong kind: a float where an int is needed, a list where one token is
  needed) or a ValueError (wrong value or shape) that names the argument and
  says what is expected.  NaN and infinities are refused wherever they would be
  read.  What a public function calls checks nothing again.
"""

from . import attention, blocked, checks, costs, data, model, positions

# The modules the chapters teach.  Also here, imported on demand: ``lib.layers``
# and ``lib.decoder`` (§7), ``lib.validate`` (the argument checks every public
# function uses).  Not here: §5.9's blocked form on every core, with its threads
# (bench/fast_attention.py, what ``make bench`` times against torch), the figures
# (``figures``), the exercises and the grader (``grading``).
__all__ = ["attention", "blocked", "checks", "costs", "data", "model", "positions"]
