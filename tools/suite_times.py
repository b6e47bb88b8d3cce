"""Where the test suite's time goes: per-file totals from a pytest run with ``--durations=0``,
and the order in which the two xdist workers get the files (tests/file_seconds.json).

    make test PYTEST_ARGS=--durations=0 | tee suite.log
    python tools/suite_times.py suite.log              # per file: setup, call, teardown, tests
    python tools/suite_times.py suite.log --write      # and tests/file_seconds.json from it

pytest-xdist (``--dist loadfile``) hands a whole file to one worker. Given the files in the
order of the collection, a long file collected late (tests/test_fresh_clone.py has five tests and
runs `make book` from scratch) starts when the other worker has nothing left, and the run waits
for it alone. The root conftest.py therefore puts the files of tests/file_seconds.json first,
longest first (and pyproject.toml turns off xdist's own order, by number of tests): each worker
takes the longest file left, so that both finish together. A file missing from the list (a new
one) only starts after the listed ones; the list needs refreshing when a file's time changes a
lot, not for every test added.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE_SECONDS = ROOT / "tests" / "file_seconds.json"
LISTED = 20.0          # seconds: a file that takes less is not worth listing (it fills the gaps at the end)
DURATION = re.compile(r"^\s*([\d.]+)s (setup|call|teardown)\s+(\S+?)::")


def per_file(lines) -> dict[str, collections.Counter]:
    """{file: Counter(setup=s, call=s, teardown=s, tests=n)} from pytest's --durations=0 lines."""
    files: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for line in lines:
        match = DURATION.match(line)
        if match:
            seconds, phase, path = float(match.group(1)), match.group(2), match.group(3)
            files[path][phase] += seconds
            files[path]["tests"] += phase == "call"
    return files


def total(counter: collections.Counter) -> float:
    return counter["setup"] + counter["call"] + counter["teardown"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", type=Path, nargs="+", help="output of pytest --durations=0 (several: added up)")
    parser.add_argument("--write", action="store_true", help=f"write {FILE_SECONDS.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    files: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for log in args.log:
        for path, counter in per_file(log.read_text(encoding="utf-8", errors="replace").splitlines()).items():
            files[path].update(counter)
    if not files:
        raise SystemExit(f"no durations in {', '.join(map(str, args.log))}: run pytest with --durations=0")
    ranked = sorted(files.items(), key=lambda item: -total(item[1]))
    print(f"{'seconds':>8} {'setup':>7} {'call':>7} {'teardown':>8} {'tests':>5}  file")
    for path, c in ranked:
        print(f"{total(c):8.1f} {c['setup']:7.1f} {c['call']:7.1f} {c['teardown']:8.1f} {c['tests']:5d}  {path}")
    print(f"{sum(total(c) for _, c in ranked):8.1f}  in all, over {len(ranked)} files")
    if args.write:
        listed = {path: round(total(c)) for path, c in ranked if total(c) >= LISTED}
        FILE_SECONDS.write_text(json.dumps(listed, indent=1) + "\n", encoding="utf-8")
        print(f"{FILE_SECONDS.relative_to(ROOT)}: {len(listed)} files of {LISTED:g} s or more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
