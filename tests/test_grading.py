"""The batch grader on the course's own notebooks, through its command line.

One batch grades every committed solution notebook (each must score full marks)
and every unsolved exercise notebook (each must score zero on every exercise),
and writes every kind of output: JSON, long and wide CSV, Gradescope results,
feedback pages.  A small batch is graded twice (the same key gives the same
files, byte for byte, but for the report's timing) and in two shards merged
back into the same report.  Interrupting the grader (SIGINT, SIGTERM) at any
stage still writes a complete report of what it did not finish, and leaves no
temporary folder.  Misuse of the command line fails fast with exit code 2.
See also test_grading_bad.py (bad submissions), test_grading_units.py and
test_grading_sandbox.py.
"""

import codecs
import csv
import json
from html import escape
import os
import pathlib
import select
import shutil
import signal
import subprocess
import sys
import time

import pytest

from conftest import IN_CI, fixed_key, key_file, need, need_root_mode, no_student_process_left, slowdown, student_processes
from course_i18n import LANGUAGES as LANGS
from grading.exercises import EXERCISES

ROOT = pathlib.Path(__file__).resolve().parent.parent
UID_BASE = 1_710_000_000          # this module's kernels run as uids from here (root mode)

pytestmark = pytest.mark.heavy
SET_1 = sum(e.notebook == "ex01_allowed_set" for e in EXERCISES.values())     # exercises in a hanging batch's notebook


def run_grader(*args, timeout=600, env=None):
    return subprocess.run([sys.executable, "-m", "grading", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout * slowdown(), env=env)


def files_of(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(pathlib.Path(folder).rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def course_batch(tmp_path_factory):
    out = tmp_path_factory.mktemp("grading")
    solutions = sorted((ROOT / "solutions").glob("*/*.ipynb"))
    exercises = sorted((ROOT / "exercises").glob("*/*.ipynb"))
    if not solutions or not exercises:
        pytest.fail("no solution or exercise notebooks to grade (run `make notebooks`)")
    proc = run_grader("solutions", "exercises", "--json", out / "report.json", "--csv", out / "report.csv",
                      "--wide-csv", out / "grades.csv", "--feedback", out / "feedback", "--gradescope", out / "gs",
                      "--key", key_file(out, 11), "--jobs", "2", "--uid-base", UID_BASE)
    report = json.loads((out / "report.json").read_text(encoding="utf-8")) if (out / "report.json").exists() else None
    return {"proc": proc, "out": out, "report": report, "solutions": solutions, "exercises": exercises}


def test_batch_completes_with_exit_code_0_and_progress(course_batch):
    proc = course_batch["proc"]
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "[6/6]" in proc.stderr                     # progress, one line per finished submission
    assert "solutions/en" in proc.stdout and "points" in proc.stdout   # the summary table
    assert "grader: isolation" in proc.stderr         # the log says which isolation was in force


def test_every_solution_notebook_scores_full_marks(course_batch):
    rows = [r for r in course_batch["report"]["rows"] if r["submission"].startswith("solutions")]
    assert rows
    bad = [(r["submission"], r["exercise"], r["status"], r["message"]) for r in rows if r["status"] != "pass"]
    assert not bad, bad
    assert all(r["points"] == r["max_points"] == EXERCISES[r["exercise"]].points for r in rows)
    graded = {(pathlib.Path(r["notebook"]).parent.name, r["exercise"]) for r in rows}
    expected = {(lang, ex_id) for lang in LANGS for ex_id in EXERCISES}
    assert graded == expected, f"not graded: {sorted(expected - graded)}"
    for summary in course_batch["report"]["summary"]:
        if summary["submission"].startswith("solutions"):
            assert summary["points"] == summary["max_points"] == sum(ex.points for ex in EXERCISES.values())


def test_every_unsolved_exercise_notebook_scores_zero_in_its_language(course_batch):
    rows = [r for r in course_batch["report"]["rows"] if r["submission"].startswith("exercises")]
    assert {(pathlib.Path(r["notebook"]).parent.name, r["exercise"]) for r in rows} == \
        {(lang, ex_id) for lang in LANGS for ex_id in EXERCISES}
    assert all(r["points"] == 0 and r["status"] == "fail" for r in rows), \
        [(r["notebook"], r["exercise"], r["status"]) for r in rows if r["points"] or r["status"] != "fail"]
    # the stub raises NotImplementedError; the message says so in the notebook's language (its COURSE_LANGUAGE)
    by_lang = {lang: [r for r in rows if f"/{lang}/" in r["notebook"]] for lang in LANGS}
    assert all(r["lang"] == lang for lang, rs in by_lang.items() for r in rs)
    assert all("NotImplementedError" in r["message"] for rs in by_lang.values() for r in rs)
    assert all("尚未完成" in r["message"] for r in by_lang["zh"]) and \
        all("ещё не сделано" in r["message"] for r in by_lang["ru"])


def test_report_files_are_complete_valid_and_consistent(course_batch):
    out, report = course_batch["out"], course_batch["report"]
    assert report["grader"]["complete"] is True
    assert report["grader"]["hidden_tests"] == {"origin": "key", "fingerprint": fixed_key(11).fingerprint()}
    iso = report["grader"]["isolation"]
    assert iso["mode"] in ("root", "userns", "none") and {"memory", "cpu", "processes"} <= set(iso)
    with open(out / "report.csv", encoding="utf-8", newline="") as f:
        csv_rows = list(csv.DictReader(f))
    assert len(csv_rows) == len(report["rows"]) == 2 * 3 * len(EXERCISES)
    for c, j in zip(csv_rows, report["rows"]):
        assert (c["submission"], c["exercise"], c["status"], int(c["points"])) == \
            (j["submission"], j["exercise"], j["status"], j["points"])
    assert {s["submission"] for s in report["summary"]} == {f"{k}/{lang}" for k in ("solutions", "exercises")
                                                            for lang in LANGS}
    for s in report["summary"]:
        rows = [r for r in report["rows"] if r["submission"] == s["submission"]]
        assert s["points"] == sum(r["points"] for r in rows)
        assert sum(s["counts"].values()) == len([r for r in rows if r["exercise"] != "-"])   # notes are no exercise
    assert not [p.name for p in out.iterdir() if p.name.endswith(".tmp")]      # atomic writes left nothing
    if IN_CI or os.geteuid() == 0:
        need("bwrap", "as root the grader isolates kernels in root mode, with bubblewrap")
        assert iso["mode"] == "root" and {"ipc", "uts", "pid", "net", "mount"} <= set(iso["namespaces"])


def test_gradebook_exports(course_batch):
    out, report = course_batch["out"], course_batch["report"]
    with open(out / "grades.csv", encoding="utf-8", newline="") as f:
        wide = list(csv.DictReader(f))
    # the names the pages show (the paths under the batch's folder), never the instructor's paths
    assert [w["student"] for w in wide] == [s["submission"] for s in report["summary"]]
    total = sum(ex.points for ex in EXERCISES.values())
    columns = {e: f"{e} (max {ex.points:g})" for e, ex in EXERCISES.items()}
    assert list(wide[0]) == ["student", "id", *columns.values(), f"total (max {total:g})", "flags"]
    for w in wide:
        full = w["student"].startswith("solutions")
        assert all(int(w[columns[e]]) == (EXERCISES[e].points if full else 0) for e in EXERCISES)
        assert int(w[f"total (max {total:g})"]) == sum(int(w[c]) for c in columns.values())
    results = sorted((out / "gs").glob("*/results.json"))
    assert len(results) == 6
    for path in results:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert len(data["tests"]) == len(EXERCISES)
        assert data["score"] == sum(t["score"] for t in data["tests"])
        assert {t["status"] for t in data["tests"]} <= {"passed", "failed"}


def test_feedback_pages_for_students_and_an_index_for_the_instructor(course_batch):
    folder = course_batch["out"] / "feedback"
    pages = sorted(folder.glob("*.html"))
    assert len(pages) == 6 + 1 and (folder / "index.html").exists()
    assert len(list(folder.glob("*.md"))) == 6
    for lang, title, not_done in (("zh", "评分反馈", "尚未完成"), ("en", "Feedback", "not done yet"),
                                  ("ru", "Отзыв о работе", "ещё не сделано")):
        page = next(p for p in pages if p.name.startswith(f"exercises_{lang}-"))
        html = page.read_text(encoding="utf-8")
        assert f'<html lang="{lang}">' in html and title in html and not_done in html.lower()
        assert str(ROOT) not in html and f"{title}{'：' if lang == 'zh' else ': '}exercises/{lang}<" in html
        for ex in EXERCISES.values():
            assert f'id="{ex.id}"' in html and escape(ex.title[lang]) in html
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert all(f"{k}/{lang}" in index for k in ("solutions", "exercises") for lang in LANGS)


def test_no_student_process_survives(course_batch):
    need_root_mode(course_batch["report"]["grader"]["isolation"]["mode"], "only root mode runs kernels as dedicated uids")
    first, last = course_batch["report"]["grader"]["uids"]
    assert first == UID_BASE
    assert no_student_process_left(first, last) == []


# -- regrading and shards ----------------------------------------------------------------

@pytest.fixture(scope="module")
def small_batch(tmp_path_factory):
    """Three students of exercise set 1: solved (zh), stub (ru), a wrong answer (en)."""
    batch = tmp_path_factory.mktemp("small")
    for name, source in (("ana", ROOT / "solutions" / "zh" / "ex01_allowed_set.ipynb"),
                         ("boris", ROOT / "exercises" / "ru" / "ex01_allowed_set.ipynb"),
                         ("carl", ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb")):
        (batch / name).mkdir()
        text = source.read_text(encoding="utf-8")
        if name == "carl":                         # a plausible mistake: softmax over every key
            text = text.replace("masked = np.where(allowed, scores, -np.inf)", "masked = scores")
        (batch / name / "ex01_allowed_set.ipynb").write_text(text, encoding="utf-8")
    return batch


def grade_small(batch, out, *extra):
    outputs = ("--json", out / "r.json", "--csv", out / "r.csv", "--wide-csv", out / "w.csv",
               "--feedback", out / "fb", "--gradescope", out / "gs")
    proc = run_grader(batch, "--group-by", "top", "--key", key_file(out.parent, 21), "--jobs", "2", *outputs, *extra)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads((out / "r.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def small_graded(small_batch, tmp_path_factory):
    """The small batch graded once, whole (the regrading and the shard tests compare with it)."""
    out = tmp_path_factory.mktemp("whole")
    return out, grade_small(small_batch, out)


def test_grading_with_the_same_key_gives_the_same_files(small_batch, small_graded, tmp_path):
    first, a = small_graded
    second = tmp_path / "2"
    b = grade_small(small_batch, second)
    set_1 = sum(e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set")
    assert [s["points"] for s in a["summary"]] == [set_1, 0, set_1 - EXERCISES["mask-2"].points]
    carl = {r["exercise"]: r for r in a["rows"] if r["submission"].endswith("carl")}
    assert carl["mask-2"]["status"] == "fail"
    hidden = [f for f in carl["mask-2"]["feedback"] if f.get("hidden")]
    assert hidden and all("check(\"mask-2\", masked_softmax, practice=True)" in f["hint"] for f in hidden)
    public = [f for f in carl["mask-2"]["feedback"] if not f.get("hidden")]
    assert public and "expected" in public[0]["text"]              # public tests: expected vs got
    # the timing section holds every duration and timestamp; everything else is identical
    assert {k: v for k, v in a.items() if k != "timing"} == {k: v for k, v in b.items() if k != "timing"}
    for name in ("r.csv", "w.csv"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    assert files_of(first / "fb") == files_of(second / "fb")
    # Gradescope's results hold execution_time (seconds); everything else is identical
    no_time = lambda files: {k: {**json.loads(v), "execution_time": None} for k, v in files.items()}  # noqa: E731
    assert no_time(files_of(first / "gs")) == no_time(files_of(second / "gs"))
    json_a = (first / "r.json").read_text(encoding="utf-8")
    json_b = (second / "r.json").read_text(encoding="utf-8")
    strip = lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "timing"})  # noqa: E731
    assert strip(json_a) == strip(json_b)


def test_shards_merge_into_the_report_of_the_whole_batch(small_batch, small_graded, tmp_path):
    whole_out, whole = small_graded
    shard_files = []
    for k in (1, 2):
        out = tmp_path / f"s{k}"
        part = grade_small(small_batch, out, "--shard", f"{k}/2")
        assert part["grader"]["shard"] == {"k": k, "of": 2}
        shard_files.append(out / "r.json")
    assert sum(len(json.loads(p.read_text())["summary"]) for p in shard_files) == 3
    merged_out = tmp_path / "merged"
    proc = run_grader("merge", *shard_files, "--json", merged_out / "r.json", "--wide-csv", merged_out / "w.csv",
                      "--feedback", merged_out / "fb")
    assert proc.returncode == 0, proc.stderr
    merged = json.loads((merged_out / "r.json").read_text(encoding="utf-8"))
    assert merged["rows"] == whole["rows"] and merged["summary"] == whole["summary"]
    assert (merged_out / "w.csv").read_bytes() == (whole_out / "w.csv").read_bytes()
    assert files_of(merged_out / "fb") == files_of(whole_out / "fb")
    refused = run_grader("merge", shard_files[0], "--json", tmp_path / "x.json")
    assert refused.returncode == 2 and "shard(s) 2/2 missing" in refused.stderr
    twice = run_grader("merge", shard_files[0], shard_files[0], shard_files[1])
    assert twice.returncode == 2 and "more than once" in twice.stderr
    no_key = run_grader(small_batch, "--shard", "1/2")
    assert no_key.returncode == 2 and "--shard needs --key" in no_key.stderr


def test_gradescope_results_for_one_upload(tmp_path):
    upload = tmp_path / "submission"
    (upload / "nested").mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb", upload / "nested")
    proc = run_grader(upload, "--group-by", "all", "--gradescope", tmp_path / "results.json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    set_1 = [e for e in EXERCISES.values() if e.notebook == "ex01_allowed_set"]
    assert data["score"] == sum(e.points for e in set_1)
    assert [t["status"] for t in data["tests"]] == ["passed"] * len(set_1)
    two = run_grader(ROOT / "solutions", "--gradescope", tmp_path / "results2.json")
    assert two.returncode == 2 and "one submission" in two.stderr


# -- misuse and interruptions -------------------------------------------------------------

@pytest.mark.parametrize("args, fragment", [
    ((), "no PATH given"),
    (("does/not/exist.ipynb",), "no such file or folder"),
    (("solutions", "--timeout", "-3"), "must be positive"),
    (("solutions", "--jobs", "zero"), "not a number"),
    (("solutions", "--exercises", "mask-1,nope-9"), "unknown exercise id"),
    (("solutions", "--no-such-option"), "unrecognized arguments"),
    (("tests/grading_cases",), "found no notebooks"),
    (("solutions", "--shard", "3/2"), "1 <= K <= N"),
    (("solutions", "--seed", "1"), "--seed is gone"),
    (("solutions", "--late-penalty", "10"), "needs --deadline"),
    (("solutions", "--key", "does/not/exist.key"), "cannot read the key"),
    (("solutions", "--key", "README.md"), "not a key"),
    (("merge", "does/not/exist.json"), "cannot read the shard report"),
])
def test_misuse_exits_2_with_a_clear_message(args, fragment):
    proc = run_grader(*args, timeout=60)
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert fragment in proc.stderr
    assert "Traceback" not in proc.stderr


def hanging_batch(folder, students=3):
    hang = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                       "source": "import time\ntime.sleep(600)"}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    for student in "abcdefgh"[:students]:
        (folder / student).mkdir(parents=True)
        (folder / student / "ex01_allowed_set.ipynb").write_text(json.dumps(hang))
    return folder


def wait_for_line(proc, marker, seconds=120):
    """Read the grader's stderr until it holds ``marker``; returns what was read.  Bounded: a grader that
    falls silent without ending fails the test after ``seconds`` (times slowdown()) and is killed, instead of
    holding a blocking readline (and the suite) for ever."""
    waited, fd = "", proc.stderr.fileno()
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    deadline = time.monotonic() + seconds * slowdown()
    while marker not in waited:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([fd], [], [], left)[0]:
            break
        chunk = os.read(fd, 1 << 16)                # raw reads: communicate() later reads the same descriptor
        if not chunk:
            break
        waited += decoder.decode(chunk)
    if marker not in waited:
        proc.kill()
        proc.communicate(timeout=60)
    assert marker in waited, waited
    return waited


def test_interrupted_batch_still_writes_every_row(tmp_path):
    """SIGINT in the middle of a batch: kernels die at once, the report holds every row, exit code 130."""
    batch = hanging_batch(tmp_path / "batch")
    first_uid = UID_BASE + 500_000
    factor = slowdown()
    started = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "grading", str(batch), "--json", str(tmp_path / "r.json"),
                             "--csv", str(tmp_path / "r.csv"), "--jobs", "2", "--cell-timeout", "300",
                             "--uid-base", str(first_uid)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # the middle of a batch is a condition, not a moment: grading has begun, and (where kernels run as
    # their own uids) two kernels hang in the notebook's cell
    waited = wait_for_line(proc, "grader: isolation")
    startup = time.monotonic() - started
    if "isolation root" in waited:
        deadline = time.monotonic() + 60 * factor
        while len(student_processes(first_uid, first_uid + 999_999)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(student_processes(first_uid, first_uid + 999_999)) >= 2, "no kernel started within a minute"
    else:
        time.sleep(2 * startup)
    start = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60 * factor)
    assert proc.returncode == 130, err
    # prompt: within 20 s on an idle machine (where the grader starts in about 2 s), longer as the machine is slower
    assert time.monotonic() - start < 20 * max(1.0, startup / 2, factor), (startup, factor, err)
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["grader"]["complete"] is False
    assert len(report["rows"]) == 3 * SET_1 and all(r["status"] == "error" and r["points"] == 0 for r in report["rows"])
    assert len((tmp_path / "r.csv").read_text().splitlines()) == 1 + 3 * SET_1
    assert no_student_process_left(UID_BASE + 500_000, UID_BASE + 1_499_999) == []


def catches(pid, signum):
    """Whether process ``pid`` has a handler for ``signum`` (SigCgt in /proc/PID/status)."""
    try:
        status = pathlib.Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    mask = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(mask & (1 << (signum - 1)))


def test_sigterm_while_the_grader_starts_still_writes_a_report(tmp_path):
    """The first thing ``python -m grading`` does is take SIGTERM; one that comes while it is still
    starting (``--pause-at start-up`` holds it there, before it imports the grader) ends the batch at
    once with an (empty, incomplete) report, exit code 130."""
    batch = hanging_batch(tmp_path / "batch", students=1)
    proc = subprocess.Popen([sys.executable, "-m", "grading", str(batch), "--json", str(tmp_path / "r.json"),
                             "--cell-timeout", "300", "--pause-at", "start-up"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_line(proc, "pausing at start-up")
    assert catches(proc.pid, signal.SIGTERM)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120 * slowdown())
    assert proc.returncode == 130, err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["grader"]["complete"] is False and "grader: interrupted during start-up" in err, err
    assert report["rows"] == []


@pytest.mark.parametrize("stage", ["discovery", "planning", "sandbox", "grading"])
def test_sigterm_at_any_stage_writes_the_whole_report_and_leaves_no_temporary_folder(tmp_path, stage):
    batch = hanging_batch(tmp_path / "batch", students=2)
    temp = tmp_path / "t"
    temp.mkdir()
    env = {**os.environ, "TMPDIR": str(temp)}
    args = [sys.executable, "-m", "grading", str(batch), "--json", str(tmp_path / "r.json"), "--wide-csv",
            str(tmp_path / "w.csv"), "--feedback", str(tmp_path / "fb"), "--cell-timeout", "300",
            "--key", str(key_file(tmp_path))]
    if stage != "grading":
        args += ["--pause-at", stage]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    wait_for_line(proc, f"pausing at {stage}" if stage != "grading" else "grader: isolation")
    if stage == "grading":
        time.sleep(3 * slowdown())                 # let the kernels start and hang
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60 * slowdown())
    assert proc.returncode == 130, err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["grader"]["complete"] is False
    if stage == "discovery":
        assert report["rows"] == [] or all(r["status"] == "error" for r in report["rows"])
    else:
        assert [s["submission"] for s in report["summary"]] == [f"{batch}/a", f"{batch}/b"]
        assert len(report["rows"]) == 2 * SET_1 and all(r["status"] == "error" for r in report["rows"])
        assert (tmp_path / "w.csv").read_text().count("\n") == 3 and (tmp_path / "fb" / "index.html").exists()
    assert list(temp.iterdir()) == [], "a temporary folder was left behind"
