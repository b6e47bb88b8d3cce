"""Benchmark: how fast the batch grader grades correct submissions.

    python bench/grading_speed.py                 # 30 one-notebook submissions + 6 full ones
    python bench/grading_speed.py --count 60 --jobs 2

Two batches of copies of the committed solutions:

* ``--count`` submissions of one notebook each (solutions/en/ex01_allowed_set);
* ``--full`` submissions holding all five solution notebooks (a whole course).

For each it prints the batch's wall time, the throughput in seconds per
submission (wall time / submissions), and the median latency of one
submission (from its first kernel start to its last row).  Every row must
pass; the target is under 3 s per submission on 2 cores.  Not a test.
"""

import argparse
import pathlib
import shutil
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grading.batch import Options, grade_batch  # noqa: E402

TARGET = 3.0


def make_batch(dest, count, notebooks):
    for i in range(count):
        d = dest / f"student{i:03d}"
        d.mkdir(parents=True)
        for nb in notebooks:
            shutil.copy(nb, d / nb.name)


def run(label, count, notebooks, jobs):
    with tempfile.TemporaryDirectory(prefix="grading-bench-") as tmp:
        batch = pathlib.Path(tmp) / "batch"
        make_batch(batch, count, notebooks)
        start = time.perf_counter()
        report = grade_batch([batch], options=Options(), jobs=jobs, seed=1, progress=None)
        wall = time.perf_counter() - start
    rows = report["rows"]
    failed = [r for r in rows if r["status"] != "pass"]
    per_submission = wall / count
    latency = statistics.median(s["seconds"] for s in report["summary"])
    print(f"{label}: {count} submissions x {len(notebooks)} notebook(s), {len(rows)} rows, jobs={jobs}, "
          f"isolation={report['grader']['isolation']}")
    print(f"  batch wall time          {wall:7.2f} s")
    print(f"  per submission           {per_submission:7.2f} s   (target < {TARGET:.0f} s)"
          f"{'  OK' if per_submission < TARGET else '  SLOW'}")
    print(f"  per notebook             {wall / (count * len(notebooks)):7.2f} s")
    print(f"  median latency of one    {latency:7.2f} s")
    if failed:
        print(f"  NOT ALL PASSED: {len(failed)} rows, e.g. {failed[0]['exercise']}: {failed[0]['message']}")
    return per_submission, not failed


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=30, help="one-notebook submissions (default 30)")
    parser.add_argument("--full", type=int, default=6, help="five-notebook submissions (default 6; 0 skips)")
    parser.add_argument("--jobs", type=int, default=2, help="parallel kernels (default 2)")
    args = parser.parse_args(argv)
    solutions = sorted((ROOT / "solutions" / "en").glob("ex0*.ipynb"))
    if not solutions:
        sys.exit("no solutions/en/*.ipynb to grade")
    ok = True
    _, passed = run("one notebook", args.count, [ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"], args.jobs)
    ok &= passed
    if args.full:
        _, passed = run("whole course", args.full, solutions, args.jobs)
        ok &= passed
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
