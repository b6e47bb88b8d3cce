"""``python -m grading``: the batch grader's command line (see grading/batch/cli.py)."""

import signal
import sys

# A SIGTERM or SIGINT that comes while the grader is still starting is kept, not fatal: the
# batch then stops at once and still writes its (empty, incomplete) report and exits 130.
EARLY_SIGNALS = []
for _sig in (signal.SIGTERM, signal.SIGINT):
    signal.signal(_sig, lambda signum, frame: EARLY_SIGNALS.append(signum))


def _pausing_at_start_up(args):
    """``--pause-at start-up`` (a test hook, like the other stages of --pause-at): the handlers above
    are installed and nothing else is imported yet; wait there up to 60 s for a signal."""
    return "--pause-at=start-up" in args or any(a == "--pause-at" and b == "start-up" for a, b in zip(args, args[1:]))


if _pausing_at_start_up(sys.argv[1:]):
    import time
    print("grader: pausing at start-up (test hook)", file=sys.stderr, flush=True)
    _deadline = time.monotonic() + 60
    while not EARLY_SIGNALS and time.monotonic() < _deadline:
        time.sleep(0.01)

try:
    from .batch.cli import main
except ModuleNotFoundError as missing:          # check() needs only numpy; the batch grader needs Jupyter
    print(f"python -m grading: error: the batch grader needs ipykernel, jupyter_client, pyzmq and jinja2 "
          f"(missing: {missing.name}); in a checkout, run: make venv; otherwise: pip install ipykernel "
          f"jupyter_client pyzmq jinja2",
          file=sys.stderr)
    sys.exit(2)

if __name__ == "__main__":
    sys.exit(main(early_signals=EARLY_SIGNALS))
