"""The former name of :mod:`grading.models` (exercise sets written before the split still import it).

Only test models live here (and in the sandbox's copy); the reference answers
moved to :mod:`grading.references`, which never enters a sandbox.
"""

from .models import *  # noqa: F401,F403
from .models import _trained_decoder  # noqa: F401
