"""The grader against bad submissions: one batch of every case in
tests/grading_cases/make_cases.py (crashes, hangs, floods, forks, cheats, forged
results, broken files, links, FIFOs, devices, folders nested a thousand deep,
names from other systems), each with its expected row.  The batch must complete
with exit code 0, the report must hold every row, the grader's own memory must
stay small, no student process may survive, and the repository must be untouched.

Under CI=true every case runs (a missing sandbox fails); locally, cases that need
a sandbox skip with the reason when there is none.
"""

import csv
import hashlib
import json
import pathlib
import subprocess
import sys

import pytest

from conftest import fixed_key, key_file, need_root_mode, no_sandbox, no_student_process_left, slowdown, unavailable

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "grading_cases"))
import make_cases  # noqa: E402

UID_BASE = 1_720_000_000
CASES = make_cases.cases()
WATCHED = [ROOT / "grading" / "exercises.py", ROOT / "grading" / "registry.py", ROOT / "lib" / "attention.py",
           make_cases.SOLVED]
# Cases whose expectation holds only inside a sandbox (graded in every sandboxed mode below).
NEEDS_SANDBOX = make_cases.NEEDS_SANDBOX
# How each sandboxed mode is asked for: root with warm kernels (the default), root with fresh ones, userns.
SANDBOXED_MODES = {"root, warm kernels": ["--isolation", "root"],
                   "root, fresh kernels": ["--isolation", "root", "--fresh-kernels"],
                   "userns": ["--isolation", "userns"]}
pytestmark = pytest.mark.heavy


def digest(paths):
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def usable_isolation():
    """The isolation the grader will get here (the same choice as --isolation auto)."""
    from grading.batch.sandbox import Sandbox, SandboxError, choose_isolation
    modes, _ = choose_isolation("auto")
    for candidate in modes:
        sandbox = Sandbox(candidate, cgroups=False)
        try:
            sandbox.self_check()
            return candidate
        except SandboxError:
            continue
        finally:
            sandbox.close()
    return "none"


@pytest.fixture(scope="module")
def bad_batch(tmp_path_factory):
    batch = tmp_path_factory.mktemp("submissions")
    isolation = usable_isolation()
    # without a sandbox the tampering case would really write to /etc and the repository
    expectations = make_cases.build(batch, skip=make_cases.DESTRUCTIVE if isolation == "none" else ())
    out = tmp_path_factory.mktemp("report")
    before = digest(WATCHED)
    # 3 s per exercise and 6 s per cell on an idle machine; a loaded one gets proportionally more, so that
    # a case expected to pass is never cut off by its neighbours' load (the hanging ones still hang)
    factor = slowdown()
    proc = subprocess.run(
        [sys.executable, "-m", "grading", str(batch), "--json", str(out / "r.json"), "--csv", str(out / "r.csv"),
         "--isolation", isolation, "--timeout", f"{3 * factor:g}", "--cell-timeout", f"{6 * factor:g}",
         "--key", str(key_file(out, 5)), "--jobs", "2", "--uid-base", str(UID_BASE)],
        cwd=ROOT, capture_output=True, text=True, timeout=1200 * factor)
    report = json.loads((out / "r.json").read_text(encoding="utf-8")) if (out / "r.json").exists() else None
    rows = {}
    for row in (report or {}).get("rows", []):
        rows.setdefault(pathlib.Path(row["submission"]).name, []).append(row)
    yield {"proc": proc, "report": report, "rows": rows, "expect": expectations, "out": out,
           "before": before, "batch": batch, "isolation": isolation, "slowdown": factor}
    make_cases.remove(batch)                      # folders a thousand deep: pytest's own clean-up would recurse


def test_batch_completes_with_exit_code_0(bad_batch):
    proc = bad_batch["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert bad_batch["report"]["grader"]["complete"] is True
    n = len(bad_batch["expect"])
    assert f"[{n}/{n}]" in proc.stderr


@pytest.mark.parametrize("case", sorted(CASES))
def test_expected_row(bad_batch, case):
    if case in NEEDS_SANDBOX and bad_batch["report"]["grader"]["isolation"]["mode"] == "none":
        no_sandbox("without a sandbox student code can read the repository")
    if case not in bad_batch["expect"]:
        if case in make_cases.NEEDS_ROOT:
            unavailable("only root can make a device file")
        no_sandbox("not run without a sandbox: it would really damage files")
    check_rows(bad_batch, case)


def check_rows(batch, case):
    """The rows of ``case`` in the graded ``batch`` are the ones make_cases expects."""
    expect, fragments = batch["expect"][case]
    rows = {r["exercise"]: r for r in batch["rows"][case]}
    scope = {e["id"] for e in batch["report"]["grader"]["exercises"]}
    # exercises of notebooks this student did not hand in are "missing" (or, with "*", what the case says)
    wanted = {**{ex: expect.get("*", "missing") for ex in scope}, **{k: v for k, v in expect.items() if k != "*"}}
    assert set(rows) == set(wanted), (sorted(rows), sorted(wanted))
    for ex, status in wanted.items():
        row = rows[ex]
        if status == make_cases.NOT_PASS:
            assert row["status"] != "pass" and row["points"] == 0, row
        elif status == make_cases.EITHER:
            pass
        else:
            assert row["status"] == status, (row, f"timeouts scaled by {batch['slowdown']}")
        assert row["points"] == (row["max_points"] if row["status"] == "pass" else 0)
        assert "internal grader error" not in row["message"], row     # whatever a student does is theirs
    messages = " ".join(r["message"] for r in rows.values())
    for fragment in fragments:
        assert fragment in messages, messages


@pytest.fixture(scope="module", params=sorted(SANDBOXED_MODES))
def sandboxed_batch(request, tmp_path_factory):
    """The cases that need a sandbox (forged records, user namespaces, the refused system calls, the
    grader's files...), graded in one sandboxed mode: each must hold in all of them. Root mode with
    warm kernels is what bad_batch's --isolation auto runs as root: its batch serves that mode."""
    from grading.batch.sandbox import SandboxError, choose_isolation
    mode = request.param
    try:
        choose_isolation(SANDBOXED_MODES[mode][1])
    except SandboxError as exc:
        unavailable(f"no {mode} sandbox here: {exc}")
    shared = request.getfixturevalue("bad_batch")
    if mode == "root, warm kernels" and shared["isolation"] == "root":
        # --isolation auto chose root mode here, whose kernels are warm by default (the test checks the
        # report says so): bad_batch, same timeouts, key and uids, already graded these cases in this mode
        assert shared["proc"].returncode == 0, shared["proc"].stderr[-3000:]
        yield {"mode": mode, "report": shared["report"], "rows": shared["rows"], "slowdown": shared["slowdown"],
               "expect": {case: shared["expect"][case] for case in NEEDS_SANDBOX},
               "before": shared["before"], "after": digest(WATCHED)}
        return
    batch = tmp_path_factory.mktemp("sandboxed")
    expectations = make_cases.build(batch, only=NEEDS_SANDBOX)
    out = tmp_path_factory.mktemp("report")
    factor = slowdown()
    before = digest(WATCHED)
    proc = subprocess.run(
        [sys.executable, "-m", "grading", str(batch), "--json", str(out / "r.json"), *SANDBOXED_MODES[mode],
         "--timeout", f"{3 * factor:g}", "--cell-timeout", f"{6 * factor:g}", "--key", str(key_file(out, 5)),
         "--jobs", "2", "--uid-base", str(UID_BASE)], cwd=ROOT, capture_output=True, text=True, timeout=600 * factor)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((out / "r.json").read_text(encoding="utf-8"))
    rows = {}
    for row in report["rows"]:
        rows.setdefault(pathlib.Path(row["submission"]).name, []).append(row)
    yield {"mode": mode, "report": report, "rows": rows, "expect": expectations, "slowdown": factor,
           "before": before, "after": digest(WATCHED)}
    make_cases.remove(batch)


@pytest.mark.parametrize("case", sorted(NEEDS_SANDBOX))
def test_every_sandboxed_mode_holds(sandboxed_batch, case):
    """Forged records earn nothing, and no user namespace, refused call, grader file or repository write
    gets through, in root mode with warm and with fresh kernels and in userns mode."""
    isolation = sandboxed_batch["report"]["grader"]["isolation"]
    mode = sandboxed_batch["mode"]
    assert isolation["mode"] == mode.split(",")[0]
    assert isolation["kernels"].startswith("forked") == (mode == "root, warm kernels"), isolation["kernels"]
    assert isolation["seccomp"].startswith("seccomp:")
    check_rows(sandboxed_batch, case)
    if case == "tamper":
        assert sandboxed_batch["after"] == sandboxed_batch["before"]
        assert not (pathlib.Path("/usr") / "tampered").exists()


def test_report_has_every_row_in_both_files(bad_batch):
    report, out = bad_batch["report"], bad_batch["out"]
    scope = len(report["grader"]["exercises"])
    extra = sum(1 for rows in bad_batch["rows"].values() for r in rows if r["exercise"] == "-")
    assert len(report["rows"]) == len(bad_batch["expect"]) * scope + extra
    assert len(report["summary"]) == len(bad_batch["expect"])
    with open(out / "r.csv", encoding="utf-8", newline="") as f:
        csv_rows = list(csv.DictReader(f))
    assert [(r["submission"], r["exercise"], r["status"]) for r in csv_rows] == \
        [(r["submission"], r["exercise"], r["status"]) for r in report["rows"]]
    assert any("练习" in r["notebook"] for r in csv_rows)              # CJK (and GB18030 names) survive the CSV
    for row in report["rows"]:
        assert row["status"] in ("pass", "fail", "error", "timeout", "missing")
        assert len(row["message"]) <= 400 and "\n" not in row["message"]


def test_no_hidden_input_reaches_a_row_not_even_through_the_students_error(bad_batch):
    """exfiltrate_hidden raises errors that spell fingerprints of every argument it was called with: its rows
    show the public ones (its error on a public test) and none of the hidden ones."""
    from grading import exercises
    from grading.batch.runner import Course
    if bad_batch["report"]["grader"]["isolation"]["mode"] == "none":
        no_sandbox("without a sandbox a kernel keeps what it wrote in /tmp for the next batch graded with this key")
    grader = bad_batch["report"]["grader"]
    assert grader["hidden_tests"] == {"origin": "key", "fingerprint": fixed_key(5).fingerprint()}
    course = Course(exercises, fixed_key(5), [e["id"] for e in grader["exercises"]])
    public = set().union(*(make_cases.fingerprints(ex.public_cases()) for ex in course.exercises.values()))
    hidden = set().union(*(make_cases.fingerprints(course.hidden_cases(ex)) for ex in course.exercises.values()))
    hidden -= public
    text = json.dumps(bad_batch["rows"]["exfiltrate_hidden"], ensure_ascii=False)
    assert hidden and any(tag in text for tag in public)
    assert [tag for tag in hidden if tag in text or tag[1:] in text] == []


def test_the_grader_itself_stays_small(bad_batch):
    """Forged records, floods and huge results cost the kernels, never the grader's own memory."""
    assert bad_batch["report"]["timing"]["grader_max_rss_mb"] < 1024


def test_no_student_process_survives(bad_batch):
    grader = bad_batch["report"]["grader"]
    need_root_mode(grader["isolation"]["mode"], "only root mode runs kernels as dedicated uids")
    first, last = grader["uids"]
    assert no_student_process_left(first, last) == []


def test_repository_untouched(bad_batch):
    assert digest(WATCHED) == bad_batch["before"]
    assert not (pathlib.Path("/usr") / "tampered").exists()


# -- flat LMS downloads: one student per LMS id, whatever the names -------------------------------------

@pytest.fixture(scope="module", params=["canvas", "moodle"])
def lms_batch(request, tmp_path_factory):
    batch = tmp_path_factory.mktemp(f"lms-{request.param}")
    points, log = make_cases.build_lms(batch, request.param)
    out = tmp_path_factory.mktemp("lms-report")
    proc = subprocess.run([sys.executable, "-m", "grading", str(batch), "--student-pattern", request.param,
                           "--exercises", "mask-1", "--json", str(out / "r.json"), "--totals-csv", str(out / "t.csv"),
                           "--jobs", "2"], cwd=ROOT, capture_output=True, text=True, timeout=900 * slowdown())
    assert proc.returncode == 0, proc.stderr[-3000:]
    return points, log, proc.stderr, json.loads((out / "r.json").read_text(encoding="utf-8")), out


def test_an_lms_download_is_one_student_per_id(lms_batch):
    points, log, stderr, report, out = lms_batch
    by_id = {s["student_id"]: s["points"] for s in report["summary"] if s.get("student_id")}
    assert by_id == points
    for fragment in log:
        assert fragment in stderr, stderr[-2000:]
    with open(out / "t.csv", encoding="utf-8", newline="") as f:
        ids = [row["id"] for row in csv.DictReader(f) if row["id"]]
    assert sorted(ids) == sorted(points)                                   # one totals row per student id
    names = [s["submission"] for s in report["summary"]]
    assert len(names) == len(set(names))
