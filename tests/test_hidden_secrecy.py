"""Hidden tests stay hidden: no student can rebuild or read a grading case.

A small class is graded as docs/instructors.md says (pages, Gradescope results, CSVs), with two
hostile students besides an honest one:

* the exfiltrator wraps its answers so that every call notes a fingerprint of its arguments
  and raises an error whose message, and whose class name, spell every fingerprint noted so
  far; a file in /tmp keeps them for the next kernel too.  On a public test's row its own error
  text shows, so the public fingerprints must be on its page (the channel works); the hidden
  ones, which the same code noted a moment later, must be nowhere;
* the prober searches everything its kernel can read (environment, arguments, /proc, its
  files, /tmp, home) for anything shaped like the secret, and prints what it found on a public
  row, as 8-digit fingerprints: the secret's must not be among them.

Then every number and every hexadecimal string a student sees (the pages, results.json,
the handed-in notebooks, the course's wheel, and practice seeds 0..999) is tried as a practice
seed (``check(..., practice=n)``) and as a key: none draws a grading case, while the
report's own secret (which no student sees) draws them all.  On Gradescope, the autograder's
key is gone from the container before the notebook runs, and the student's code finds it
nowhere, even without a sandbox.
"""

import collections
import hashlib
import json
import os
import pathlib
import re
import shutil
import stat
import subprocess
import sys
import zipfile

import numpy as np
import pytest

from conftest import no_sandbox, slowdown
from grading import codec
from grading.batch.runner import Course
from grading.batch.secret import Secret
from grading.exercises import EXERCISES
from grading.values import to_plain

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "grading_cases"))
from make_cases import EXFILTRATE, fingerprints, probe  # noqa: E402

pytestmark = pytest.mark.heavy

def with_cell(source, code):
    nb = json.loads(pathlib.Path(source).read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": code})
    return nb


def drawn(cases):
    """A grading case as data: its setup and arguments, in the grader's plain JSON."""
    return [json.dumps(codec.encode(to_plain((c.setup, tuple(c.args), dict(c.kwargs))), strict=True), sort_keys=True)
            for c in cases]


def rich(case):
    """Whether a case carries random data of its own: float arrays of at least 4 numbers holding at least 3
    distinct values other than 0 and 1.  One such case rebuilt would be a leak.  A pair of small whole numbers
    (mask-1's shapes), three one-character words (data-1's) or a mask-3 matrix built only of 0, 1, 0.1/1.1 and
    1/1.1 (one-hot rows with a forbidden entry raised) come up in other draws and say nothing; those count only
    as a whole draw.  (Measured over 20,000 practice seeds: the former rule, any 4 floats, met 2,106 repeated
    mask-3 cases, and a CI run met one; this rule meets none in any exercise.)"""
    floats = [a for a in case.args if isinstance(a, np.ndarray) and a.dtype.kind == "f"]
    if sum(a.size for a in floats) < 4:
        return False
    return len(set(np.concatenate([a.ravel() for a in floats]).tolist()) - {0.0, 1.0}) >= 3


def rebuilt(wanted, cases):
    """Whether ``cases`` (a draw) rebuilds the grading draw ``wanted``: one rich case of it, or all of it."""
    mine = drawn(cases)
    return bool(set(mine) & wanted["rich"]) or mine == wanted["all"]


def student_files(folder):
    """Every file under ``folder`` a student is shown, as text."""
    return {p: p.read_text(encoding="utf-8", errors="replace") for p in sorted(pathlib.Path(folder).rglob("*"))
            if p.is_file() and p.suffix in (".html", ".md", ".json", ".ipynb")}


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    root = tmp_path_factory.mktemp("secrecy")
    klass = root / "class"
    notebooks = {"honest": (ROOT / "solutions" / "zh" / "ex01_allowed_set.ipynb", ""),
                 "exfiltrator": (ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb", EXFILTRATE),
                 "prober": (ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb", probe([root, ROOT]))}
    for student, (source, code) in notebooks.items():
        (klass / student).mkdir(parents=True)
        nb = with_cell(source, code) if code else json.loads(source.read_text(encoding="utf-8"))
        (klass / student / "ex01_allowed_set.ipynb").write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    out = root / "out"
    factor = slowdown()
    proc = subprocess.run([sys.executable, "-m", "grading", str(klass), "--group-by", "top", "--json",
                           str(out / "r.json"), "--csv", str(out / "r.csv"), "--feedback", str(out / "fb"),
                           "--gradescope", str(out / "gs"), "--timeout", f"{30 * factor:g}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=900 * factor)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((out / "r.json").read_text(encoding="utf-8"))
    if report["grader"]["isolation"]["mode"] == "none":
        no_sandbox("without a sandbox a kernel reads the grader's files, the report with its secret among them")
    secret = Secret.from_report(report["grader"])
    course = Course(__import__("grading.exercises", fromlist=["EXERCISES"]), secret,
                    [e["id"] for e in report["grader"]["exercises"]])
    hidden = {ex.id: course.hidden_cases(ex) for ex in course.exercises.values()}
    seen = {**student_files(out / "fb"), **student_files(out / "gs"), **student_files(klass)}
    seen = {p: text for p, text in seen.items() if p.name != ".grading-pages.json"}
    return {"report": report, "secret": secret, "hidden": hidden, "seen": seen, "out": out, "klass": klass,
            "stderr": proc.stderr}


def test_the_grader_drew_its_hidden_tests_from_the_reports_secret(graded):
    report, secret = graded["report"], graded["secret"]
    assert report["grader"]["hidden_tests"]["origin"] == "salt" and len(secret.value) == 32
    for ex_id, cases in graded["hidden"].items():
        row = next(r for r in report["rows"] if r["submission"].endswith("honest") and r["exercise"] == ex_id)
        public = len(EXERCISES[ex_id].public_cases())
        assert row["status"] == "pass" and row["cases_total"] == public + len(cases)


def test_no_hidden_input_reaches_a_page_not_even_through_the_students_own_errors(graded):
    """The exfiltrator's error text shows on its public rows, and it holds the public fingerprints; the
    hidden ones it noted a moment later (and spelled in its error classes' names) are on no page."""
    pages = "\n".join(text for p, text in graded["seen"].items() if "exfiltrator" in str(p) and p.suffix != ".ipynb")
    public = set().union(*(fingerprints(EXERCISES[i].public_cases()) for i in graded["hidden"]))
    hidden = set().union(*(fingerprints(cases) for cases in graded["hidden"].values())) - public
    assert hidden and len(hidden) >= 10
    shown = set(re.findall(r"[TS][0-9a-f]{12}", pages)) | {"T" + t for t in re.findall(r"LEAK_([0-9a-f]{12})", pages)}
    assert shown & public, "the exfiltrator's public error text should show (the channel the test watches)"
    assert not (shown & hidden), sorted(shown & hidden)
    for tag_ in hidden:
        assert tag_[1:] not in pages
    report = graded["report"]
    rows = [r for r in report["rows"] if r["submission"].endswith("exfiltrator")]
    hidden_lines = [f for r in rows for f in r["feedback"] if f.get("hidden")]
    assert hidden_lines and all("LEAK" not in f["line"] for f in hidden_lines)
    assert any("a class your notebook defines" in f["text"] for f in hidden_lines)         # never the class's own name
    mask_1 = next(r for r in rows if r["exercise"] == "mask-1")
    assert any("<U" in f["text"] for f in mask_1["feedback"] if not f.get("hidden"))    # public: shown as it is
    assert all("an unusual dtype" in f["text"] for f in mask_1["feedback"] if f.get("hidden"))


def test_the_secret_is_nowhere_a_students_code_or_a_student_can_read(graded):
    secret = graded["secret"]
    for path, text in graded["seen"].items():
        assert secret.value.hex() not in text.lower(), path
    row = next(r for r in graded["report"]["rows"] if r["submission"].endswith("prober") and r["exercise"] == "mask-1")
    found = re.search(r"PROBE found (\d+): ([0-9a-f ]*)", row["message"])
    assert found and int(found.group(1)) >= 1, row           # the probe finds what it can read (a kernel's own key)
    assert hashlib.sha256(secret.value).hexdigest()[:8] not in found.group(2).split()
    assert "seed" not in json.dumps([json.loads(t) for p, t in graded["seen"].items() if p.name == "results.json"])


def test_a_report_that_keeps_the_salt_is_readable_by_its_owner_only(graded):
    """Graded without --key, the JSON report keeps the batch's salt, from which every hidden test is drawn: it is
    written with mode 600 whatever the umask (read84 I L13: every output was 644), and the other files stay 644."""
    assert graded["report"]["grader"]["hidden_tests"].get("salt")
    modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in (graded["out"] / "r.json", graded["out"] / "r.csv")}
    assert modes == {"r.json": 0o600, "r.csv": 0o644}, modes


def test_the_autograders_key_and_its_zip_are_readable_by_their_owner_only(tmp_path, monkeypatch):
    """tools/make_autograder.py writes grading.key and the zip that holds it with mode 600, under a umask that
    lets everyone read (022) and over an old zip that everyone could read (read84 I: the zip was 644). The wheel
    is not built: a file stands for it."""
    from tools import make_autograder
    monkeypatch.setattr(make_autograder, "build_wheel",
                        lambda dest: (pathlib.Path(dest) / "causality_heads_position-0-py3-none-any.whl").write_bytes(b"w"))
    out = tmp_path / "ag"
    out.with_suffix(".zip").write_bytes(b"an old zip")
    out.with_suffix(".zip").chmod(0o644)
    before = os.umask(0o022)
    try:
        folder, archive = make_autograder.make(out, ["mask-1"])
    finally:
        os.umask(before)
    key = (folder / "grading.key").read_text()
    with zipfile.ZipFile(archive) as z:
        assert z.read("grading.key").decode() == key and (z.getinfo("grading.key").external_attr >> 16) & 0o777 == 0o600
    assert stat.S_IMODE((folder / "grading.key").stat().st_mode) == 0o600
    assert stat.S_IMODE(archive.stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "config.json").stat().st_mode) == 0o644      # the umask, for what holds no secret


def _candidates(texts):
    """Every whole number and every hexadecimal string (8 digits or more) in ``texts``."""
    numbers, hexes = set(range(1000)), set()
    for text in texts:
        numbers |= {int(n) for n in re.findall(r"\d+", text) if len(n) <= 10 and int(n) < 2 ** 32}
        hexes |= {h.lower() for h in re.findall(r"\b[0-9a-fA-F]{8,}\b", text) if len(h) % 2 == 0}
    return numbers, hexes


def test_no_seed_or_string_a_student_sees_draws_a_grading_case(graded, course_wheel_file):
    """Every number and hexadecimal string on the pages, in results.json, in the notebooks and in the course's
    wheel, as a practice seed (check(..., practice=n)) and as a key: no grading case among their draws."""
    wheel = zipfile.ZipFile(course_wheel_file)
    texts = list(graded["seen"].values()) + [wheel.read(n).decode("utf-8", "replace") for n in wheel.namelist()
                                              if n.startswith("grading/") and n.endswith((".py", ".json"))]
    numbers, hexes = _candidates(texts)
    assert len(numbers) > 1000 and hexes
    grading = {ex_id: {"all": drawn(cases), "rich": set(drawn([c for c in cases if rich(c)]))}
               for ex_id, cases in graded["hidden"].items()}
    assert sum(len(w["rich"]) for w in grading.values()) >= 10
    for ex_id, wanted in grading.items():
        ex = EXERCISES[ex_id]
        for n in numbers:
            assert not rebuilt(wanted, ex.hidden_cases(n)), (ex_id, n)
        for h in hexes:
            assert not rebuilt(wanted, ex.hidden_cases(Secret(bytes.fromhex(h), "key").rng(ex_id))), (ex_id, h)
        # the comparison can fail: the report's secret draws exactly the grader's cases
        assert rebuilt(wanted, ex.hidden_cases(graded["secret"].rng(ex_id)))


def test_a_rich_case_does_not_recur_in_other_draws():
    """What the secrecy test calls rich is drawn once: over 1,000 practice seeds no rich case of any exercise
    comes up twice (so a number on a page that rebuilds one is a leak, not chance)."""
    for ex_id, ex in EXERCISES.items():
        seen = collections.Counter()
        for seed in range(1000):
            cases = ex.hidden_cases(seed)
            seen.update(d for c, d in zip(cases, drawn(cases)) if rich(c))
        assert not [d for d, n in seen.items() if n > 1], ex_id


def test_practice_and_grading_draw_from_different_streams():
    """Even a practice seed equal to anything the grader's secret is made of draws other cases."""
    ex = EXERCISES["mask-2"]
    secret = Secret(bytes(range(32)), "key")
    grading = set(drawn(ex.hidden_cases(secret.rng(ex.id))))
    digest = int.from_bytes(hashlib.sha256(secret.value).digest()[:4], "big")
    for seed in (0, 1, digest, int.from_bytes(secret.value[:4], "big"), 2 ** 32 - 1):
        assert not grading & set(drawn(ex.hidden_cases(seed)))
    assert grading == set(drawn(ex.hidden_cases(secret.rng(ex.id))))         # one key, one draw
    with pytest.raises(ValueError, match="practice seed"):
        ex.hidden_cases(2 ** 40)


def test_a_regrade_draws_the_same_hidden_tests_and_shows_none(graded, tmp_path):
    out = graded["out"]
    proc = subprocess.run([sys.executable, "-m", "grading", str(graded["klass"]), "--group-by", "top", "--regrade",
                           str(out / "r.json"), "--only", "honest", "--json", str(tmp_path / "r.json"),
                           "--feedback", str(tmp_path / "fb")], cwd=ROOT, capture_output=True, text=True,
                          timeout=600 * slowdown())
    assert proc.returncode == 0, proc.stderr[-2000:]
    again = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert again["grader"]["hidden_tests"] == graded["report"]["grader"]["hidden_tests"]
    assert [r for r in again["rows"] if r["submission"].endswith("honest")] == \
        [r for r in graded["report"]["rows"] if r["submission"].endswith("honest")]
    for path, text in student_files(tmp_path / "fb").items():
        assert graded["secret"].value.hex() not in text, path


# -- Gradescope: the autograder's key, in a container without a sandbox ------------------------------------

@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """A Gradescope autograder for ex01 as `make autograder` makes it: (its folder, the text of its key file,
    which leaves the folder so that no test's probe can find it there). Made once; each test runs a copy."""
    ag = tmp_path_factory.mktemp("autograder") / "ag"
    made = subprocess.run([sys.executable, "tools/make_autograder.py", "--notebook", "ex01_allowed_set", "--out",
                           str(ag)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert made.returncode == 0, made.stderr[-2000:]
    key = (ag / "grading.key").read_text()
    (ag / "grading.key").unlink()                 # the instructor's copy is on their machine, not in the container
    return ag, key


@pytest.mark.parametrize("isolation", ["container", "none"])
def test_gradescope_keeps_its_key_from_the_students_code(tmp_path, isolation, autograder):
    """The autograder runs as Gradescope runs it (run_autograder), here without any sandbox, as in a Docker
    container that allows no namespaces: with ``--isolation container`` (the autograder's own setting) on a
    machine whose bubblewrap cannot build a sandbox (a bwrap that is too old stands first on PATH), where the
    grader falls back to grading in the container, and with ``--isolation none``.  The prober searches the
    container, /proc and the autograder's own folder; the key is gone before the notebook runs, and not in
    anything the upload can see."""
    ag, key_text = autograder
    key = key_text.strip()
    root = tmp_path / "autograder"
    shutil.copytree(ag, root / "source")
    (root / "source" / "grading.key").write_text(key_text)          # the upload holds it, as the zip does
    config = json.loads((root / "source" / "config.json").read_text())
    assert config["isolation"] == "container"
    (root / "source" / "config.json").write_text(json.dumps({**config, "isolation": isolation,
                                                            "timeout": 60 * slowdown()}))
    (root / "submission").mkdir(parents=True)
    wanted = hashlib.sha256(bytes.fromhex(key)).hexdigest()
    nb = with_cell(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb", probe([root], wanted))
    (root / "submission" / "ex01_allowed_set.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": str(ROOT / ".venv" / "bin" / "python")}
    if isolation == "container":
        no_sandbox = tmp_path / "bin"
        no_sandbox.mkdir()
        (no_sandbox / "bwrap").write_text("#!/bin/sh\necho 'bubblewrap 0.1.0'\nexit 1\n")
        (no_sandbox / "bwrap").chmod(0o755)
        env["PATH"] = f"{no_sandbox}{os.pathsep}{env.get('PATH', '')}"
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder")], cwd=root, env=env, capture_output=True,
                          text=True, timeout=600 * slowdown())
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = (root / "results" / "results.json").read_text(encoding="utf-8")
    data = json.loads(results)
    assert data["extra_data"]["isolation"]["mode"] == "none"
    if isolation == "container":
        assert "--isolation container: no sandbox works here" in proc.stderr, proc.stderr[-3000:]
    row = next(t for t in data["tests"] if t["number"] == "mask-1")
    assert re.search(r"PROBE found \d+, the key: no", row["output"]), row
    assert key not in results and key not in proc.stdout + proc.stderr
    assert not (root / "source" / "grading.key").exists()
    assert data["score"] == sum(e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set") - \
        EXERCISES["mask-1"].points


def test_without_a_sandbox_a_later_kernel_shows_no_values_that_an_earlier_one_could_have_left(tmp_path):
    """ex04 is graded in two kernels (causal-4 withholds what causal-1..3's tests need).  Without a sandbox
    the second kernel shares the disk with the first, which has seen hidden inputs: causal-4's public
    failures are then described without values; in a sandbox, with them."""
    nb = with_cell(ROOT / "solutions" / "en" / "ex04_causality.ipynb",
                   "def feature_norm(x, eps=1e-5):\n    return x * 1.0\n")
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "ex04_causality.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    texts = {}
    for mode in ("none", "auto"):
        proc = subprocess.run([sys.executable, "-m", "grading", str(tmp_path / "s"), "--isolation", mode,
                               "--json", str(tmp_path / f"{mode}.json"), "-q"], cwd=ROOT, capture_output=True,
                              text=True, timeout=900 * slowdown())
        assert proc.returncode == 0, proc.stderr[-2000:]
        report = json.loads((tmp_path / f"{mode}.json").read_text(encoding="utf-8"))
        row = next(r for r in report["rows"] if r["exercise"] == "causal-4")
        assert row["status"] == "fail"
        texts[mode, report["grader"]["isolation"]["mode"]] = [f["text"] for f in row["feedback"] if not f["hidden"]]
    for (asked, mode), public in texts.items():
        assert public
        if mode == "none":
            assert all("expected" not in t and "got" not in t for t in public), public
        else:
            assert any("expected" in t and "got" in t for t in public), public


def test_the_probe_finds_a_key_where_it_can_read_one(tmp_path):
    """The prober of these tests would see the key if it could read it (here, in a file of a folder it searches)."""
    key = "ab" * 32
    (tmp_path / "left-behind.txt").write_text(f"x={key}\n")
    space = {}
    exec(probe([tmp_path], hashlib.sha256(bytes.fromhex(key)).hexdigest()), space)
    with pytest.raises(RuntimeError, match="the key: yes"):
        space["causal_allowed"](1, 1)
    (tmp_path / "left-behind.txt").unlink()
    with pytest.raises(RuntimeError, match="the key: no"):
        space["causal_allowed"](1, 1)
    # it searches again at every call: a key written after a call, into a new file or over a file it has
    # read before (the same size, so that only the file's times say that it changed), is found at the next
    (tmp_path / "later.txt").write_text(f"x={key}\n")
    with pytest.raises(RuntimeError, match="the key: yes"):
        space["causal_allowed"](1, 1)
    (tmp_path / "later.txt").unlink()
    (tmp_path / "same-size.txt").write_text("x=" + "0" * 64 + "\n")
    with pytest.raises(RuntimeError, match="the key: no"):
        space["causal_allowed"](1, 1)
    with open(tmp_path / "same-size.txt", "r+") as f:
        f.write(f"x={key}\n")
    with pytest.raises(RuntimeError, match="the key: yes"):
        space["causal_allowed"](1, 1)
