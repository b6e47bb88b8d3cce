"""Command line of the batch grader; see ``python -m grading --help``."""

import argparse
import sys

from . import Limits, Options, UsageError, grade_batch
from .report import summary_table

DESCRIPTION = """\
Grade submitted exercise notebooks of the course against the reference
solutions.  Each notebook runs in a fresh, sandboxed kernel (no network, no
view of the repository or of other submissions, time and memory limits);
expected values are computed and compared in the grader.  The report has one
row per submission and exercise: status (pass / fail / error / timeout /
missing), points and a short message."""

EPILOG = """\
examples:
  python -m grading submissions/ --json report.json --csv report.csv
  python -m grading alice/ex01_allowed_set.ipynb bob/ex01_allowed_set.ipynb --csv ex01.csv
  python -m grading submissions/ --group-by top --exercises mask-1,mask-2 --jobs 2

Submissions: with --group-by dir (default) the notebooks in one folder are one
submission; `top` makes each first-level folder under a PATH one submission;
`file` grades each notebook on its own.  Rows cover the exercises of every
notebook found in the batch (or --exercises / --all-exercises); a submission
without a notebook gets `missing` rows.

Exit status: 0 when the batch completed (whatever the scores), 2 for misuse
(no paths, unknown options or exercises, no notebooks, no working sandbox),
130 when interrupted (the report is still written, with `error` rows for the
submissions not graded).
"""


def positive(kind):
    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if value <= 0:
            raise argparse.ArgumentTypeError(f"must be positive, got {text}")
        return value
    return parse


def build_parser():
    p = argparse.ArgumentParser(prog="python -m grading", description=DESCRIPTION,
                                epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="notebooks or folders of notebooks")
    p.add_argument("--json", metavar="FILE", help="write the full report (rows, summaries, settings) as JSON")
    p.add_argument("--csv", metavar="FILE", help="write one CSV row per submission and exercise")
    p.add_argument("--jobs", "-j", type=positive(int), default=None,
                   help="submissions graded in parallel (default: min(2, CPUs))")
    p.add_argument("--group-by", choices=("dir", "top", "file"), default="dir",
                   help="what one submission is (default: dir)")
    p.add_argument("--exercises", metavar="IDS", help="comma-separated exercise ids to grade (default: all of the "
                                                       "notebooks found)")
    p.add_argument("--all-exercises", action="store_true", help="rows for every exercise of the course")
    p.add_argument("--timeout", type=positive(float), default=10.0,
                   help="seconds per exercise, all its cases together (default: 10)")
    p.add_argument("--cell-timeout", type=positive(float), default=30.0,
                   help="seconds per notebook cell (default: 30)")
    p.add_argument("--total-timeout", type=positive(float), default=300.0,
                   help="seconds per submission (default: 300)")
    p.add_argument("--memory", type=positive(int), default=2048, metavar="MIB",
                   help="address-space limit of a kernel in MiB (default: 2048)")
    p.add_argument("--max-procs", type=positive(int), default=64,
                   help="processes and threads a kernel may have (default: 64)")
    p.add_argument("--seed", type=int, default=None,
                   help="seed of the hidden cases (default: random; it is recorded in the JSON report)")
    p.add_argument("--lang", choices=("auto", "zh", "en", "ru"), default="auto",
                   help="language of the messages (default: from the notebook's folder, else en)")
    p.add_argument("--isolation", choices=("auto", "root", "userns", "none"), default="auto",
                   help="sandbox (default: the strongest that works here)")
    p.add_argument("--registry", default="grading.exercises", help=argparse.SUPPRESS)
    p.add_argument("--no-fork-server", action="store_true",
                   help="start every kernel by exec instead of forking a pre-imported server (slower)")
    p.add_argument("--uid-base", type=positive(int), default=None, help=argparse.SUPPRESS)
    p.add_argument("--keep-temp", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr, no table on stdout")
    return p


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.paths:
        parser.print_usage(sys.stderr)
        print("python -m grading: error: no PATH given: name notebooks or folders of notebooks to grade",
              file=sys.stderr)
        return 2
    exercise_ids = [x.strip() for x in args.exercises.split(",") if x.strip()] if args.exercises else None
    options = Options(timeout=args.timeout, cell_timeout=args.cell_timeout, total_timeout=args.total_timeout,
                      lang=args.lang)
    limits = Limits(memory_mb=args.memory, max_procs=args.max_procs, cpu_seconds=int(args.total_timeout) + 60)
    try:
        report = grade_batch(args.paths, json_path=args.json, csv_path=args.csv, options=options, limits=limits,
                             jobs=args.jobs, group_by=args.group_by, isolation=args.isolation,
                             registry=args.registry, seed=args.seed, exercise_ids=exercise_ids,
                             all_exercises=args.all_exercises, progress=None if args.quiet else sys.stderr,
                             keep_temp=args.keep_temp, uid_base=args.uid_base, zygote=not args.no_fork_server)
    except UsageError as exc:
        print(f"python -m grading: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    if not args.quiet:
        sys.stdout.write(summary_table(report["summary"]))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
