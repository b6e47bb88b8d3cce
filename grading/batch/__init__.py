"""Batch grader of the course's exercise notebooks.

    python -m grading PATH... --json report.json --csv report.csv [--wide-csv ...] [--feedback DIR]
    python -m grading merge SHARD.json... --json report.json ...
    python -m grading key FILE          # an instructor's key for the hidden tests

Every PATH is a notebook or a folder of notebooks; by default the notebooks
in one folder form one submission (``--group-by``).  For every submission and
every exercise in scope the report has one row: status (pass / fail / error /
timeout / missing), points and a short message, plus a summary per
submission.  The exit code is 0 whenever the batch completed, whatever the
students scored; 2 means the grader was misused (no paths, bad options).

How a notebook is graded (details in the modules):

* pipeline.py   the stages of a batch, from one BatchConfig: prepare, discover,
  plan, open the sandbox, grade, build the report, write its files;
* secret.py     the secret the hidden tests are drawn from (an instructor's key,
  or a salt kept in the instructor's report), which no practice seed reaches;
* notebooks.py  finds the submissions (never following a link out of one, never
  opening anything but a regular file; one student per LMS id) and reads each
  notebook as data;
* grading.cells drops ``check(...)`` calls, shell escapes and magics;
* blind.py      decides by behaviour whether an exercise's function relies on the
  library's reference answer: each exercise is graded in a kernel whose lib
  withholds that exercise's reference answers (no points if it needs them);
* sandbox.py    starts each kernel in a bubblewrap (``bwrap``) sandbox of its own:
  network, PID, IPC, UTS and mount namespaces, a root file system that holds
  only the OS, the Python environment and student-safe copies of ``lib`` and
  ``grading`` (no registry, no hidden tests, no references, no solutions, no
  grader, no other submission), as a fresh unprivileged uid, with resource limits;
  in root mode the kernel is forked into it from a warm Python (_warm.py);
* cgroups.py    puts all of a submission's processes in one control group:
  memory for all of them together, an equal CPU share, a process cap;
* kernel.py     talks to the kernel with jupyter_client over ipc sockets, with
  size-capped replies, without listening to its output at all;
* runner.py     runs the cells with time limits (interrupt, then kill and restart
  without the offending cell), then sends each exercise's public test inputs, and
  only after every public test its hidden ones; reads back plain-JSON results
  (grading/codec.py) and compares them with the expected values computed here;
* report.py     JSON, long and wide CSV, gradebooks (totals, Canvas, Moodle), Gradescope
  results, feedback pages and the instructor's index;
* shards.py     ``--shard K/N`` and the merge of shard reports;
* duplicates.py which of several notebooks of one exercise set is graded (``--duplicates``);
* late.py       ``--deadline``: when a submission was handed in, how late, the penalty;
* rubric.py     ``python -m grading rubric``.

The instructor's guide is docs/instructors.md.
"""

from .pipeline import VERSION, BatchConfig, Outputs, UsageError, grade_batch, merge_reports, write_outputs
from .runner import Options
from .sandbox import Limits

__all__ = ["grade_batch", "write_outputs", "merge_reports", "BatchConfig", "Outputs", "Options", "Limits",
           "UsageError", "VERSION"]
