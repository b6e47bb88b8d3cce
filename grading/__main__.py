"""``python -m grading``: the batch grader's command line (see grading/batch/cli.py)."""

import signal
import sys

# A SIGTERM or SIGINT that comes while the grader is still starting is kept, not fatal: the
# batch then stops at once and still writes its (empty, incomplete) report and exits 130.
EARLY_SIGNALS = []
for _sig in (signal.SIGTERM, signal.SIGINT):
    signal.signal(_sig, lambda signum, frame: EARLY_SIGNALS.append(signum))

try:
    from .batch.cli import main
except ModuleNotFoundError as missing:          # check() needs only numpy; the batch grader needs Jupyter
    print(f"python -m grading: error: the batch grader needs ipykernel, jupyter_client and pyzmq "
          f"(missing: {missing.name}); install them with: pip install ipykernel jupyter_client pyzmq",
          file=sys.stderr)
    sys.exit(2)

if __name__ == "__main__":
    sys.exit(main(early_signals=EARLY_SIGNALS))
