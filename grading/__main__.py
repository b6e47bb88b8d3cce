"""``python -m grading``: the batch grader's command line (see grading/batch/cli.py)."""

import sys

try:
    from .batch.cli import main
except ModuleNotFoundError as missing:          # check() needs only numpy; the batch grader needs Jupyter
    print(f"python -m grading: error: the batch grader needs ipykernel, jupyter_client and pyzmq "
          f"(missing: {missing.name}); install them with: pip install ipykernel jupyter_client pyzmq",
          file=sys.stderr)
    sys.exit(2)

if __name__ == "__main__":
    sys.exit(main())
