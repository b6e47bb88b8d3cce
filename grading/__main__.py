"""``python -m grading``: the batch grader's command line (see grading/batch/cli.py)."""

import sys

from .batch.cli import main

if __name__ == "__main__":
    sys.exit(main())
