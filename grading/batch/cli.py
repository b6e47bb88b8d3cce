"""Command line of the batch grader; see ``python -m grading --help`` and ``python -m grading merge --help``."""

import argparse
import os
import sys

from course_i18n import LANGUAGES

from ..version import DISTRIBUTION, package_version
from .pipeline import VERSION, BatchConfig, Outputs, UsageError, grade_batch, index_lang, merge_reports, write_outputs
from .report import class_diagnoses_text, summary_table
from .runner import Options
from .sandbox import Limits

PROG = "python -m grading"

DESCRIPTION = """\
Grade submitted exercise notebooks of the course against the reference
solutions.  Each notebook runs in a fresh, sandboxed kernel (no network, no
view of the repository or of other submissions, time and memory limits);
expected values are computed and compared in the grader.  The report has one
row per submission and exercise: status (pass / fail / error / timeout /
missing), points and a short message; students get feedback pages in their
notebook's language."""

EPILOG = f"""\
examples:
  {PROG} submissions/ --group-by top --json report.json --csv report.csv --wide-csv grades.csv
  {PROG} submissions/ --group-by top --feedback feedback/        # one HTML and one Markdown page per student
  {PROG} alice/ex01_allowed_set.ipynb bob/ex01_allowed_set.ipynb --csv ex01.csv
  {PROG} /autograder/submission --group-by all --gradescope /autograder/results/results.json
  {PROG} key grading.key                                          # a key for the hidden tests, once
  {PROG} submissions/ --key grading.key --shard 3/8 --json shard3.json    # one of 8 machines
  {PROG} merge shard*.json --json report.json --wide-csv grades.csv --feedback feedback/
  {PROG} canvas/ --student-pattern canvas --canvas-csv canvas-grades.csv --assignment "Exercises 1"
  {PROG} submissions/ --group-by top --regrade report.json --only fang --json report.json
  {PROG} rubric --lang ru                                         # the rubric (Markdown; --format csv)

Submissions: with --group-by dir (default) the notebooks in one folder are one
submission; `top` makes each first-level folder under a PATH one submission;
`file` grades each notebook on its own; `all` makes each PATH one submission.
Rows cover the exercises of every notebook found in the batch (or --exercises
/ --all-exercises), decided from the whole batch before --shard splits it.
A student folder without a notebook gets `missing` rows; of several notebooks
for one exercise set, the most recently modified is graded (--duplicates), and
the rows name the others.  Flat LMS downloads: --student-pattern canvas|moodle.
Instructors' guide: docs/instructors.md.

Exit status: 0 when the batch completed (whatever the scores), 2 for misuse
(no paths, unknown options or exercises, no notebooks, no working sandbox,
shard reports that do not belong together), 130 when interrupted by SIGINT or
SIGTERM (every requested file is still written, with `error` rows for the
submissions not graded and "complete": false).
"""

MERGE_DESCRIPTION = """\
Merge the JSON reports of shards 1/N ... N/N of one batch into one report,
and write from it any of the files a batch writes.  Refuses reports with
different keys, tests' fingerprints, report formats, exercises or batches, a shard
given twice, a missing shard, and a submission in two shards."""

KEY_DESCRIPTION = """\
Write a new key for the hidden tests into FILE (readable by you only).  Give
it to every shard (--key FILE) and to regrades of their merged report; keep it
away from students: whoever has it can draw the hidden tests.  Without --key,
each batch draws a salt of its own and keeps it in its JSON report."""


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


def add_outputs(p, lang_default="auto: the language --student-lang forces, else en"):
    p.add_argument("--json", metavar="FILE", help="write the full report (rows, summaries, settings) as JSON")
    p.add_argument("--csv", metavar="FILE", help="write one CSV row per submission and exercise")
    p.add_argument("--wide-csv", metavar="FILE", help="write a gradebook CSV: one row per submission, one column "
                                                       "per exercise, the total")
    p.add_argument("--feedback", metavar="DIR", help="write one HTML and one Markdown feedback page per submission, "
                                                     "in its language, and DIR/index.html for the instructor")
    p.add_argument("--gradescope", metavar="PATH", help="write Gradescope autograder results: for a batch of one "
                                                        "submission, a PATH ending in .json; else a folder, "
                                                        "PATH/<submission>/results.json")
    p.add_argument("--totals-csv", metavar="FILE", help="write a gradebook CSV with the totals only")
    p.add_argument("--canvas-csv", metavar="FILE", help="write a CSV for Canvas's gradebook import (Student, ID, "
                                                        "SIS User ID, SIS Login ID, Section, a Points Possible row)")
    p.add_argument("--moodle-csv", metavar="FILE", help="write Moodle's offline grading worksheet (Identifier "
                                                        "\"Participant <id>\", Grade) for one assignment")
    p.add_argument("--moodle-worksheet", metavar="FILE",
                   help="the grading worksheet downloaded from the Moodle assignment: --moodle-csv is then that "
                        "file with the grades filled in (its column names in the Moodle's language), and the "
                        "gradebooks get each student's e-mail, which Moodle's gradebook import matches")
    p.add_argument("--diagnoses-csv", metavar="FILE", help="write the class's known mistakes: one row per "
                                                           "exercise and mistake, with how many students made it")
    p.add_argument("--assignment", metavar="NAME", default="Exercises",
                   help="the assignment's name in --canvas-csv (default: Exercises)")
    p.add_argument("--per-exercise", action="store_true",
                   help="--canvas-csv gets one column per exercise (\"NAME mask-1\" ...) instead of the total")
    p.add_argument("--lang", choices=("auto", *LANGUAGES), default="auto",
                   help="language of what the grader writes for you: the index, its histogram and the known "
                        f"mistakes in the reports and CSV files (default: {lang_default}); students keep "
                        "their notebooks' language")


def build_parser():
    p = argparse.ArgumentParser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("paths", nargs="*", metavar="PATH", help="notebooks or folders of notebooks")
    p.add_argument("--version", action="version", help="print the course's version and exit",
                   version=f"{PROG} ({DISTRIBUTION}) {package_version()}, report format {VERSION}")
    add_outputs(p)
    p.add_argument("--partial", action="store_true",
                   help="partial credit: each exercise's points split equally over its test groups (every public "
                        "test is a group, and all hidden tests of one kind are one); a group earns its share when "
                        "all its tests pass; `merge` keeps what the shards were graded with. Default: an exercise "
                        "earns its points only when every test passes")
    p.add_argument("--student-lang", choices=("auto", *LANGUAGES), default="auto",
                   help="language of every student's rows and pages (default: auto, one language per "
                        "submission: that of most of its notebooks, on a tie that of the notebook changed last, "
                        "else en)")
    p.add_argument("--jobs", "-j", type=positive(int), default=None,
                   help="submissions graded in parallel (default: min(2, CPUs))")
    p.add_argument("--group-by", choices=("dir", "top", "file", "all"), default="dir",
                   help="what one submission is (default: dir)")
    p.add_argument("--student-pattern", metavar="REGEX|canvas|moodle", default=None,
                   help="group a flat LMS download by student: a regular expression with a (?P<student>...) "
                        "group, optionally (?P<id>...) for the LMS's id, matched against each first-level "
                        "file or folder name; presets: canvas "
                        "(smithjohn_12345_67890_ex01_allowed_set.ipynb), moodle "
                        "(Full Name_123456_assignsubmission_file_)")
    p.add_argument("--regrade", metavar="REPORT.json", default=None,
                   help="grade again only the students named by --only and write the report REPORT.json with "
                        "their rows replaced and everyone else's kept (the same hidden tests, exercises and tests' "
                        "fingerprint)")
    p.add_argument("--only", metavar="NAMES", default=None,
                   help="comma-separated students to grade (their folder names, paths under the batch's folder, or "
                        "LMS ids), with --regrade")
    p.add_argument("--deadline", metavar="WHEN", default=None,
                   help="flag late submissions: an ISO date and time (e.g. 2026-12-01T23:59 or "
                        "2026-12-01T23:59+03:00; UTC when no zone is given), compared with nbgrader's timestamp.txt, else the notebooks' modification time")
    p.add_argument("--late-penalty", metavar="PERCENT", type=float, default=0.0,
                   help="with --deadline, take off this percentage of the points per started day late "
                        "(default 0: late work is flagged, not penalised)")
    p.add_argument("--exercises", metavar="IDS", help="comma-separated exercise ids to grade (default: all of the "
                                                       "notebooks found)")
    p.add_argument("--all-exercises", action="store_true", help="rows for every exercise of the course")
    p.add_argument("--duplicates", choices=("newest", "best", "ambiguous"), default="newest",
                   help="several notebooks of one exercise set in a submission: grade the most recently "
                        "modified (default; equal times are flagged), the best of them, or none (flag the "
                        "rows for the instructor); see docs/instructors.md")
    p.add_argument("--timeout", type=positive(float), default=10.0,
                   help="seconds per exercise, all its tests together (default: 10)")
    p.add_argument("--cell-timeout", type=positive(float), default=30.0,
                   help="seconds per notebook cell (default: 30)")
    p.add_argument("--total-timeout", type=positive(float), default=300.0,
                   help="seconds per submission (default: 300)")
    p.add_argument("--memory", type=positive(int), default=2048, metavar="MIB",
                   help="memory of a submission, all its processes together where control groups exist, "
                        "and of every single process (default: 2048)")
    p.add_argument("--max-procs", type=positive(int), default=64,
                   help="processes and threads a submission may have (default: 64)")
    p.add_argument("--key", metavar="FILE", default=None,
                   help=f"the instructor's key the hidden tests are drawn from (`{PROG} key FILE` makes one; "
                        "'-' reads it from standard input). Default: a salt drawn for this batch and kept in "
                        "the JSON report only, where --regrade finds it")
    p.add_argument("--seed", default=None, help=argparse.SUPPRESS)      # gone: a clear error says what instead
    p.add_argument("--shard", metavar="K/N", default=None,
                   help="grade only the K-th of N deterministic parts of the batch (needs --key); "
                        f"combine the parts with `{PROG} merge`")
    p.add_argument("--isolation", choices=("auto", "root", "userns", "container", "none"), default="auto",
                   help="the sandbox every kernel runs in.  auto (default): the strongest that works here (root "
                        "when the grader is root, else userns); without one the grader stops before grading and "
                        "says how to install bubblewrap.  container: the same, but where no sandbox works, grade "
                        "without one: only on a machine that is itself a throwaway container holding one "
                        "submission (Gradescope).  none: no sandbox at all, for trusted notebooks only (the code "
                        "can read your files, the solutions too, and reach the network)")
    p.add_argument("--no-cgroups", action="store_true",
                   help="do not put submissions in control groups (limits are then per process only)")
    p.add_argument("--fresh-kernels", action="store_true",
                   help="start every kernel as a new Python instead of forking it from a warm one into its "
                        "sandbox (root mode; slower, and needs no setns)")
    p.add_argument("--registry", default="grading.exercises", help=argparse.SUPPRESS)
    p.add_argument("--uid-base", type=positive(int), default=None, help=argparse.SUPPRESS)
    p.add_argument("--keep-temp", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--pause-at", default=None, help=argparse.SUPPRESS)    # tests: SIGTERM at a given stage
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr, no table on stdout")
    return p


def build_merge_parser():
    p = argparse.ArgumentParser(prog=f"{PROG} merge", description=MERGE_DESCRIPTION)
    p.add_argument("reports", nargs="+", metavar="SHARD.json", help="the JSON reports of every shard")
    add_outputs(p, lang_default="auto, which is en")
    p.add_argument("--quiet", "-q", action="store_true", help="no table on stdout")
    return p


def outputs_of(args, lang=None):
    return Outputs(json=args.json, csv=args.csv, wide_csv=args.wide_csv, feedback=args.feedback,
                   gradescope=args.gradescope, totals_csv=args.totals_csv, canvas_csv=args.canvas_csv,
                   moodle_csv=args.moodle_csv, diagnoses_csv=args.diagnoses_csv, assignment=args.assignment,
                   per_exercise=args.per_exercise, moodle_worksheet=args.moodle_worksheet, lang=lang)


def _error(text):
    print(f"{PROG}: error: {text}", file=sys.stderr)
    return 2


def merge_main(argv):
    args = build_merge_parser().parse_args(argv)
    lang = args.lang if args.lang != "auto" else "en"
    try:
        report = merge_reports(args.reports)
        write_outputs(report, outputs_of(args, lang), sys.stderr)
    except (UsageError, ValueError) as exc:
        return _error(exc)
    if not args.quiet:
        sys.stdout.write(summary_table(report["summary"]) + class_diagnoses_text(report, lang))
    return 0


def key_main(argv):
    p = argparse.ArgumentParser(prog=f"{PROG} key", description=KEY_DESCRIPTION)
    p.add_argument("file", metavar="FILE", help="where to write the key (a new file)")
    args = p.parse_args(argv)
    from .secret import SecretError, write_key
    try:
        write_key(args.file)
    except (SecretError, OSError) as exc:
        return _error(exc)
    print(f"wrote a new key to {args.file}; give it with --key {args.file} to every shard and regrade",
          file=sys.stderr)
    return 0


def main(argv=None, early_signals=None):
    """The command line; ``early_signals`` (a list) holds the signals that came while the grader started."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "merge":
        return merge_main(argv[1:])
    if argv and argv[0] == "key":
        return key_main(argv[1:])
    if argv and argv[0] == "rubric":
        from .rubric import main as rubric_main
        return rubric_main(argv[1:], PROG)
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.paths:
        parser.print_usage(sys.stderr)
        return _error("no PATH given: name notebooks or folders of notebooks to grade")
    if args.seed is not None:
        return _error(f"--seed is gone: students could rebuild hidden tests drawn from a number. Hidden tests now "
                      f"come from a secret: a salt kept in the JSON report (the default), or a key file (make one "
                      f"with `{PROG} key FILE`, then give --key FILE; shards need it)")
    if not args.no_cgroups and args.isolation != "none":
        from .cgroups import systemd_scope_command
        scope = systemd_scope_command([sys.executable, "-m", "grading", *argv])
        if scope is not None:
            command, environ = scope
            if not args.quiet:
                print("grader: running again in a systemd scope that delegates its control groups "
                      f"({' '.join(command[:command.index('--')])})", file=sys.stderr, flush=True)
            os.execve(command[0], command, environ)
    options = Options(timeout=args.timeout, cell_timeout=args.cell_timeout, total_timeout=args.total_timeout,
                      lang=args.student_lang, duplicates=args.duplicates, partial=args.partial)
    config = BatchConfig(
        paths=tuple(args.paths), outputs=outputs_of(args, args.lang), group_by=args.group_by,
        student_pattern=args.student_pattern,
        exercises=tuple(x.strip() for x in args.exercises.split(",") if x.strip()) if args.exercises else None,
        all_exercises=args.all_exercises, options=options,
        limits=Limits(memory_mb=args.memory, max_procs=args.max_procs, cpu_seconds=int(args.total_timeout) + 60),
        jobs=args.jobs, isolation=args.isolation, key_file=args.key, shard=args.shard, regrade=args.regrade,
        only=tuple(args.only.split(",")) if args.only else None, deadline=args.deadline,
        late_penalty=args.late_penalty, registry=args.registry, keep_temp=args.keep_temp, uid_base=args.uid_base,
        cgroups=not args.no_cgroups, warm_start=not args.fresh_kernels,
        progress=None if args.quiet else sys.stderr, pause_at=args.pause_at, early_signals=early_signals)
    try:
        report = grade_batch(config)
    except (UsageError, ValueError) as exc:
        return _error(exc)
    except KeyboardInterrupt:
        return 130
    if not args.quiet:
        sys.stdout.write(summary_table(report["summary"]) +
                         class_diagnoses_text(report, index_lang(args.lang, options)))
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
