"""A real class, graded the way docs/instructors.md says, end to end.

The class (``make_class``): students who handed in different notebook sets, so
that the shards of a split batch hold different notebooks.  The documented
multi-machine recipes are read out of the blocks of docs/instructors.md marked
``<!-- tested: … -->`` and run, some in part:

* ``make-key``: run as written (twice: the second time it must refuse);
* ``slurm-array``: run with ``bash`` once per array task, with
  ``SLURM_ARRAY_TASK_ID`` set, as ``sbatch`` would;
* ``slurm-merge``: run without its leading ``sbatch --wait grade.sbatch && ``;
* ``ci-matrix``: each ``run:`` line, with the matrix value and the key secret
  filled in and its ``make venv && `` dropped (the installed .venv stands in;
  ``make -n venv`` checks that the target exists).  The runner's set-up
  (bubblewrap and the AppArmor sysctl) changes the machine, so it is compared
  word for word, not run; the shards are copied by hand, and the files the
  merge job uploads must exist.

Both merged gradebooks must be byte for byte the whole run's.
"""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest
import yaml

from grading.exercises import EXERCISES

ROOT = pathlib.Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "instructors.md"

pytestmark = pytest.mark.heavy


def make_class(folder):
    """Four students: ana (ex01 solved, zh), boris (ex01 untouched and ex02 solved, ru),
    carl (ex01 with a wrong mask, en), dana (ex02 solved, zh).  Split in 2 or 4 shards,
    the shards hold different notebook sets."""
    folder = pathlib.Path(folder)
    wrong = ("masked = np.where(allowed, scores, -np.inf)", "masked = scores")
    layout = {"ana": [("solutions", "zh", "ex01_allowed_set", None)],
              "boris": [("exercises", "ru", "ex01_allowed_set", None), ("solutions", "ru", "ex02_heads", None)],
              "carl": [("solutions", "en", "ex01_allowed_set", wrong)],
              "dana": [("solutions", "zh", "ex02_heads", None)]}
    for student, notebooks in layout.items():
        (folder / student).mkdir(parents=True)
        for kind, lang, stem, change in notebooks:
            text = (ROOT / kind / lang / f"{stem}.ipynb").read_text(encoding="utf-8")
            if change:
                assert change[0] in text
                text = text.replace(*change)
            (folder / student / f"{stem}.ipynb").write_text(text, encoding="utf-8")
    return folder


def doc_block(marker):
    """The code block that follows ``<!-- tested: marker -->`` in docs/instructors.md."""
    text = DOC.read_text(encoding="utf-8")
    match = re.search(rf"<!-- tested: {re.escape(marker)} -->\n```\w*\n(.*?)```", text, re.S)
    assert match, f"docs/instructors.md has no block marked {marker}"
    return match.group(1)


@pytest.fixture(scope="module")
def key(tmp_path_factory):
    """The key the docs' recipe makes (the block marked make-key, run as written), as text."""
    work = tmp_path_factory.mktemp("key")
    os.symlink(ROOT / ".venv", work / ".venv")
    shell(doc_block("make-key"), work)
    text = (work / "grading.key").read_text(encoding="ascii")
    assert (work / "grading.key").stat().st_mode & 0o077 == 0             # readable by its owner only
    refused = subprocess.run(["bash", "-c", doc_block("make-key")], cwd=work, capture_output=True, text=True,
                             timeout=120)
    assert refused.returncode == 2 and "exists" in refused.stderr and (work / "grading.key").read_text() == text
    return text


def workspace(tmp_path, key):
    """A folder laid out like the repository's checkout for the recipes: the installed .venv, the class, the key."""
    work = tmp_path / "checkout"
    work.mkdir()
    os.symlink(ROOT / ".venv", work / ".venv")
    make_class(work / "submissions")
    (work / "grading.key").write_text(key, encoding="ascii")
    return work


def shell(command, cwd, env=None):
    proc = subprocess.run(["bash", "-c", command], cwd=cwd, capture_output=True, text=True, timeout=900,
                          env={**os.environ, **(env or {})})
    assert proc.returncode == 0, (command, proc.stderr[-3000:])
    return proc


@pytest.fixture(scope="module")
def whole_run(tmp_path_factory, key):
    work = workspace(tmp_path_factory.mktemp("whole"), key)
    shell(".venv/bin/python -m grading submissions/ --group-by top --key grading.key --jobs 2 "
          "--json report.json --wide-csv grades.csv --feedback feedback/", work)
    return work, json.loads((work / "report.json").read_text(encoding="utf-8"))


def test_the_whole_class_gets_rows_for_every_notebook_anyone_handed_in(whole_run):
    _, report = whole_run
    graded = {e["id"] for e in report["grader"]["exercises"]}
    assert graded == {ex.id for ex in EXERCISES.values() if ex.notebook in ("ex01_allowed_set", "ex02_heads")}
    by = {s["submission"].rsplit("/", 1)[-1]: s for s in report["summary"]}
    set_1 = sum(e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set")
    set_2 = sum(e.points for e in EXERCISES.values() if e.notebook == "ex02_heads")
    assert by["ana"]["points"] == set_1 and by["dana"]["points"] == set_2 and by["boris"]["points"] == set_2
    assert all(s["max_points"] == set_1 + set_2 for s in by.values())


def test_slurm_array_recipe_as_written(whole_run, tmp_path, key):
    whole, _ = whole_run
    work = workspace(tmp_path, key)
    script = doc_block("slurm-array")
    tasks = re.search(r"#SBATCH --array=1-(\d+)", script)
    assert tasks, script
    (work / "grade.sbatch").write_text(script, encoding="utf-8")
    for task in range(1, int(tasks.group(1)) + 1):          # what sbatch does for each array task
        shell("bash grade.sbatch", work, {"SLURM_ARRAY_TASK_ID": str(task)})
    shards = [json.loads(p.read_text(encoding="utf-8")) for p in sorted((work / "shards").glob("*.json"))]
    assert len(shards) == int(tasks.group(1))
    held = [{n for s in r["summary"] for n in s["notebooks"]} for r in shards]
    assert len({frozenset(pathlib.PurePath(n).name for n in h) for h in held}) > 1, "the shards should differ"
    assert len({tuple(e["id"] for e in r["grader"]["exercises"]) for r in shards}) == 1
    merge = doc_block("slurm-merge")
    prefix = "sbatch --wait grade.sbatch && "
    assert merge.startswith(prefix)
    shell(merge[len(prefix):], work)
    assert (work / "grades.csv").read_bytes() == (whole / "grades.csv").read_bytes()
    merged = json.loads((work / "report.json").read_text(encoding="utf-8"))
    expected = json.loads((whole / "report.json").read_text(encoding="utf-8"))
    assert merged["rows"] == expected["rows"] and merged["summary"] == expected["summary"]
    pages = {p.name: p.read_bytes() for p in (work / "feedback").iterdir()}
    assert pages == {p.name: p.read_bytes() for p in (whole / "feedback").iterdir()}


def test_ci_matrix_recipe_as_written(whole_run, tmp_path, key):
    """Every `run:` line of the block marked ci-matrix runs, without its `make venv && ` (the runner's set-up
    is compared, not run), the artifacts are copied by hand, and `make venv` is a target of the Makefile."""
    whole, _ = whole_run
    work = workspace(tmp_path, key)
    workflow = yaml.safe_load(doc_block("ci-matrix"))
    assert subprocess.run(["make", "-n", "venv"], cwd=ROOT, capture_output=True, timeout=60).returncode == 0
    grade, merge = workflow["jobs"]["grade"], workflow["jobs"]["merge"]
    # the runner's set-up (docs/instructors.md, "Grading a class"): bubblewrap, and user namespaces that
    # Ubuntu 23.10+ restricts through AppArmor. It changes the machine, so it is checked, not run; this
    # machine has bwrap and grades as root or with user namespaces allowed.
    setup = grade["steps"][1]["run"]
    assert setup == ("sudo apt-get update && sudo apt-get install -y bubblewrap && "
                     "sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"), setup
    runs = lambda job: [s for s in job["steps"] if "run" in s and s["run"] != setup]          # noqa: E731
    secrets = {"${{ secrets.GRADING_KEY }}": key.strip()}                 # the repository's secret

    def env(step):
        return {k: secrets.get(v, v) for k, v in step.get("env", {}).items()}
    for shard in grade["strategy"]["matrix"]["shard"]:
        machine = tmp_path / f"runner-{shard}"                              # every job has a checkout of its own
        machine.mkdir()
        os.symlink(ROOT / ".venv", machine / ".venv")
        shutil.copytree(work / "submissions", machine / "submissions")      # no key file: the secret only
        for step in runs(grade):
            shell(step["run"].replace("${{ matrix.shard }}", str(shard)).replace("make venv && ", ""), machine,
                  env(step))
        upload = next(s for s in grade["steps"] if "upload-artifact" in s.get("uses", ""))
        path = upload["with"]["path"].replace("${{ matrix.shard }}", str(shard))
        (work / "shards").mkdir(exist_ok=True)                              # download-artifact, merge-multiple
        shutil.copy(machine / path, work / "shards" / path)
    for step in runs(merge):
        shell(step["run"].replace("make venv && ", ""), work, env(step))
    assert (work / "grades.csv").read_bytes() == (whole / "grades.csv").read_bytes()
    kept = next(s for s in merge["steps"] if "upload-artifact" in s.get("uses", ""))
    assert all((work / path).is_file() for path in kept["with"]["path"].split()), kept  # the merge is uploaded


def test_merge_refuses_mixed_shards_and_says_how_to_fix_it(tmp_path):
    from grading.batch.shards import MergeError, merge

    def shard(k, n=2, seed=1, ids=("a", "b"), exercises=("mask-1",)):
        from grading.batch.shards import digest
        return {"grader": {"hidden_tests": {"fingerprint": seed}, "version": "2", "course": {"version": "c"},
                           "shard": {"k": k, "of": n},
                           "exercises": [{"id": e} for e in exercises],
                           "batch": {"submissions": len(ids), "digest": digest(ids)}},
                "summary": [{"submission": ids[k - 1]}], "rows": []}

    cases = [([shard(1), shard(2, seed=2)], "same --key FILE"),
             ([shard(1), shard(2, exercises=("mask-1", "mask-2"))], "--all-exercises"),
             ([shard(1)], "grade --shard 2/2"),
             ([shard(1), shard(1)], "more than once"),
             ([shard(1), shard(2, ids=("a", "c"))], "same folder")]
    for reports, fix in cases:
        with pytest.raises(MergeError, match=re.escape(fix)):
            merge(reports)


# -- Gradescope ---------------------------------------------------------------------------

# Gradescope's results.json, as its autograder specification documents it
# (https://gradescope-autograders.readthedocs.io/en/latest/specs/, "Output format",
# "Controlling Test Case Visibility", "Test case status", "Output String Formatting"):
# every key the specification names, nothing else.
VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "simple_format", "html", "md", "ansi"]}
GRADESCOPE_SCHEMA = {
    "type": "object",
    "additionalProperties": False,
    "anyOf": [{"required": ["score"]}, {"required": ["tests"]}],
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number", "minimum": 0},
        "output": {"type": "string"},
        "output_format": FORMAT, "test_output_format": FORMAT, "test_name_format": FORMAT,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "score": {"type": "number"}, "max_score": {"type": "number"},
                "status": {"enum": ["passed", "failed"]},
                "name": {"type": "string"}, "name_format": FORMAT,
                "number": {"type": "string"},
                "output": {"type": "string"}, "output_format": FORMAT,
                "tags": {"type": "array", "items": {"type": "string"}},
                "visibility": VISIBILITY,
                "extra_data": {"type": "object"}}}},
        "leaderboard": {"type": "array"},
    },
}


@pytest.fixture(scope="module")
def autograder(tmp_path_factory):
    """The autograder of an ex01-only assignment, built as the docs say."""
    out = tmp_path_factory.mktemp("autograder") / "ex01"
    proc = subprocess.run([sys.executable, "tools/make_autograder.py", "--notebook", "ex01_allowed_set",
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out


def gradescope_run(autograder, tmp_path, files):
    """What Gradescope does for one upload: /autograder/source, /autograder/submission, run_autograder."""
    root = tmp_path / "autograder"
    shutil.copytree(autograder, root / "source")
    (root / "submission").mkdir(parents=True)
    for name, source in files.items():
        (root / "submission" / name).parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, bytes):
            (root / "submission" / name).write_bytes(source)
        else:
            shutil.copy(source, root / "submission" / name)
    env = {**os.environ, "AUTOGRADER_ROOT": str(root), "AUTOGRADER_PYTHON": str(ROOT / ".venv" / "bin" / "python")}
    proc = subprocess.run(["bash", str(root / "source" / "run_autograder")], cwd=root, env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    data = json.loads((root / "results" / "results.json").read_text(encoding="utf-8"))
    import jsonschema
    jsonschema.validate(data, GRADESCOPE_SCHEMA)
    return data, proc


def test_autograder_folder_is_ready_for_gradescope(autograder):
    import zipfile
    names = zipfile.ZipFile(autograder.with_suffix(".zip")).namelist()
    assert {"setup.sh", "run_autograder", "config.json", "grading.key"} <= set(names)   # at the root of the zip
    assert (autograder / "grading.key").stat().st_mode & 0o077 == 0
    assert any(n.startswith("causality_heads_position-") and n.endswith(".whl") for n in names)
    for script in ("setup.sh", "run_autograder"):
        assert os.access(autograder / script, os.X_OK)
        assert subprocess.run(["bash", "-n", str(autograder / script)], timeout=60).returncode == 0
    config = json.loads((autograder / "config.json").read_text(encoding="utf-8"))
    assert config["exercises"].split(",") == [i for i, e in EXERCISES.items() if e.notebook == "ex01_allowed_set"]
    assert "seed" not in config and "key" not in json.dumps(config)
    assert config["isolation"] == "container"       # the sandbox where the container allows one, else none
    assert "3.11" in (autograder / "setup.sh").read_text(encoding="utf-8")


def test_an_upload_is_graded_on_the_pinned_exercises_only(autograder, tmp_path):
    data, proc = gradescope_run(autograder, tmp_path, {
        "work/ex01_allowed_set.ipynb": ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb",
        "work/ex02_heads.ipynb": ROOT / "solutions" / "ru" / "ex02_heads.ipynb"})
    set_1 = [e for e in EXERCISES.values() if e.notebook == "ex01_allowed_set"]
    assert data["score"] == sum(e.points for e in set_1)                        # not ex02's points too
    graded = [t for t in data["tests"] if t.get("max_score")]
    assert [t["number"] for t in graded] == [e.id for e in set_1]
    assert sum(t["max_score"] for t in graded) == sum(e.points for e in set_1)
    assert data["execution_time"] > 0
    assert data["extra_data"]["isolation"]["mode"] in ("root", "userns", "none")
    assert "/autograder" not in json.dumps(data["tests"]) and str(tmp_path) not in json.dumps(data["tests"])
    assert "grader: isolation" in proc.stderr                                  # the instructor's stdout says it too
    key = (autograder / "grading.key").read_text().strip()
    assert key not in json.dumps(data) and "seed" not in data["extra_data"]
    assert not (tmp_path / "autograder" / "source" / "grading.key").exists()  # gone before the notebook ran


def test_an_upload_without_a_notebook_gets_a_zero_that_says_why(autograder, tmp_path):
    data, _ = gradescope_run(autograder, tmp_path, {"ex01_allowed_set.pdf": b"%PDF-1.4\n"})
    assert data["score"] == 0
    assert "ex01_allowed_set.ipynb" in data["output"] and "ex01_allowed_set.pdf" in data["output"]
    assert "Загрузите сам файл .ipynb" in data["output"] and "请上传 .ipynb 文件本身" in data["output"]
    assert sum(t["max_score"] for t in data["tests"]) == sum(
        e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set")


# -- a messy class: copies, a damaged file, a cell that never ends, late work, a regrade ------------

@pytest.fixture(scope="module")
def messy(tmp_path_factory):
    """fang: the stub and, downloaded later, her solution "(1)"; gleb: his solution and, downloaded later, the
    untouched stub "(1)"; dmitri: a truncated ex01 and a solved ex02, in Russian; hana: a solved zh ex01 with a
    top-level `while True: pass`, collected late by nbgrader; mila: a Russian ex01 whose masked_softmax is the
    library's, a Chinese ex02 stub and an English notebook of another course (the Russian one changed last)."""
    root = tmp_path_factory.mktemp("messy")
    klass = root / "class"
    for student in ("fang", "gleb", "dmitri", "hana", "mila"):
        (klass / student).mkdir(parents=True)
    shutil.copy(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb", klass / "gleb" / "ex01_allowed_set.ipynb")
    shutil.copy(ROOT / "exercises" / "en" / "ex01_allowed_set.ipynb", klass / "gleb" / "ex01_allowed_set (1).ipynb")
    nb = json.loads((ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb").read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                        "source": "from lib.attention import masked_softmax"})
    (klass / "mila" / "ex01_allowed_set.ipynb").write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    shutil.copy(ROOT / "exercises" / "zh" / "ex02_heads.ipynb", klass / "mila" / "ex02_heads.ipynb")
    (klass / "mila" / "homework3.ipynb").write_text(json.dumps(
        {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                    "source": 'COURSE_LANGUAGE = "en"\nprint("hello")'}], "metadata": {}, "nbformat": 4,
         "nbformat_minor": 5}), encoding="utf-8")
    shutil.copy(ROOT / "exercises" / "en" / "ex01_allowed_set.ipynb", klass / "fang" / "ex01_allowed_set.ipynb")
    shutil.copy(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb", klass / "fang" / "ex01_allowed_set (1).ipynb")
    os.utime(klass / "fang" / "ex01_allowed_set.ipynb", (1_764_000_000, 1_764_000_000))
    os.utime(klass / "fang" / "ex01_allowed_set (1).ipynb", (1_764_090_000, 1_764_090_000))
    text = (ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb").read_bytes()
    (klass / "dmitri" / "ex01_allowed_set.ipynb").write_bytes(text[:len(text) // 2].rsplit(b",", 1)[0])
    shutil.copy(ROOT / "solutions" / "ru" / "ex02_heads.ipynb", klass / "dmitri")
    nb = json.loads((ROOT / "solutions" / "zh" / "ex01_allowed_set.ipynb").read_text(encoding="utf-8"))
    nb["cells"].insert(3, {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                           "source": "while True:\n    pass"})
    (klass / "hana" / "ex01_allowed_set.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    (klass / "hana" / "timestamp.txt").write_text("2026-12-02 09:30:00.000000 UTC\n", encoding="utf-8")
    for path in klass.rglob("*.ipynb"):
        if path.parent.name != "fang":
            os.utime(path, (1_764_000_000, 1_764_000_000))                    # 2025-11-24: on time
    os.utime(klass / "gleb" / "ex01_allowed_set (1).ipynb", (1_764_090_000, 1_764_090_000))
    os.utime(klass / "mila" / "ex01_allowed_set.ipynb", (1_764_000_100, 1_764_000_100))
    out = root / "out"
    proc = subprocess.run([sys.executable, "-m", "grading", str(klass), "--group-by", "top",
                           "--cell-timeout", "5", "--deadline", "2026-12-01T23:59", "--lang", "ru",
                           "--json", str(out / "r.json"), "--wide-csv", str(out / "w.csv"), "--feedback",
                           str(out / "fb")], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return klass, out, json.loads((out / "r.json").read_text(encoding="utf-8"))


def rows_for(report, student):
    return [r for r in report["rows"] if r["submission"].endswith("/" + student)]


def test_the_newest_copy_is_graded_and_flagged_everywhere(messy):
    _, out, report = messy
    fang = [r for r in rows_for(report, "fang") if r["exercise"] != "-" and r["notebook"]]
    set_1 = [e for e in EXERCISES.values() if e.notebook == "ex01_allowed_set"]
    assert [r["status"] for r in fang] == ["pass"] * len(set_1)
    assert all(r["duplicates"] == {"graded": "ex01_allowed_set (1).ipynb", "others": ["ex01_allowed_set.ipynb"],
                                   "rule": "newest", "ambiguous": False, "note": fang[0]["duplicates"]["note"]}
               for r in fang)
    assert "most recently modified" in fang[0]["message"]
    wide = (out / "w.csv").read_text(encoding="utf-8").splitlines()
    assert next(line for line in wide if line.startswith("fang,")).split(",")[-3] == "duplicates"
    page = next((out / "fb").glob("fang-*.html")).read_text(encoding="utf-8")
    assert page.count("most recently modified") == 1                       # said once, not on every exercise
    index = (out / "fb" / "index.html").read_text(encoding="utf-8")
    assert "⚑ несколько блокнотов для одного набора" in index            # --lang ru: the instructor's page


def test_an_untouched_newer_copy_is_passed_over_for_the_work_and_the_page_says_so(messy):
    """gleb downloaded the stub again after solving: the solved copy is graded, not 0 points for the stub."""
    _, out, report = messy
    gleb = [r for r in rows_for(report, "gleb") if r["exercise"] != "-" and r["notebook"]]
    assert gleb and all(r["status"] == "pass" and r["points"] == r["max_points"] for r in gleb)
    assert all(r["duplicates"]["graded"] == "ex01_allowed_set.ipynb" and
               r["duplicates"]["untouched"] == ["ex01_allowed_set (1).ipynb"] for r in gleb)
    page = next((out / "fb").glob("gleb-*.md")).read_text(encoding="utf-8")
    assert page.count("has nothing done in it") == 1 and "ex01\\_allowed\\_set (1).ipynb" in page


def test_a_page_is_in_one_language_and_says_which(messy):
    """mila's notebooks are in Russian, Chinese and English: her page is in Russian (the notebook she changed
    last, as the two course notebooks tie), says so, and has no row in another language, the grader's word on
    the library's withheld reference included."""
    _, out, report = messy
    mila = rows_for(report, "mila")
    assert {r["lang"] for r in mila} == {"ru"}
    summary = next(s for s in report["summary"] if s["submission"].endswith("/mila"))
    assert summary["lang"] == "ru" and summary["languages"] == {"en": 1, "ru": 1, "zh": 1}
    page = next((out / "fb").glob("mila-*.html")).read_text(encoding="utf-8")
    assert '<html lang="ru">' in page and "на языке блокнота, который вы меняли последним" in page
    assert "is withheld" not in page and "при оценивании этого упражнения это имя недоступно" in page
    text = re.sub(r"<[^>]+>", " ", page)
    assert not re.search(r"[\u4e00-\u9fff]", text)                         # no Chinese row
    for english in ("not done yet", "Not done yet", "passed", "failed", "hidden test", "not an exercise"):
        assert english not in text, english


def test_a_damaged_notebook_is_one_row_in_the_students_language(messy):
    _, _, report = messy
    dmitri = rows_for(report, "dmitri")
    notes = [r for r in dmitri if r["exercise"] == "-"]
    assert len(notes) == 1 and notes[0]["lang"] == "ru"
    assert "повреждён или обрезан" in notes[0]["message"] and "сдайте заново" in notes[0]["message"]
    short = [r for r in dmitri if r["notebook"].endswith("ex01_allowed_set.ipynb") and r["exercise"] != "-"]
    assert short and all(r["lang"] == "ru" and "«О ваших файлах»" in r["message"] and len(r["message"]) < 80 for r in short)


def test_a_cell_that_never_finished_gets_its_own_row_and_students_keep_their_language(messy):
    _, _, report = messy
    hana = rows_for(report, "hana")
    notes = [r for r in hana if r["exercise"] == "-"]
    assert len(notes) == 1 and "第 4 个单元格" in notes[0]["message"] and notes[0]["lang"] == "zh"
    assert all(r["status"] == "pass" for r in hana if r["exercise"] != "-" and r["notebook"])


def test_late_work_is_flagged_not_penalised(messy):
    _, out, report = messy
    by = {s["submission"].rsplit("/", 1)[-1]: s for s in report["summary"]}
    assert by["hana"]["handed_in"] == {"time": "2026-12-02T09:30:00+00:00", "from": "timestamp.txt",
                                       "late_hours": 9.6}
    assert "late" in by["hana"]["flags"] and by["hana"]["points"] == sum(
        e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set")
    assert by["dmitri"]["handed_in"]["late_hours"] == 0 and "late" not in by["dmitri"]["flags"]
    header = (out / "w.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.endswith("flags,handed in,late (hours)")


def test_regrading_one_student_keeps_the_others(messy, tmp_path):
    klass, out, report = messy
    work = tmp_path / "class"
    shutil.copytree(klass, work)
    (work / "fang" / "ex01_allowed_set.ipynb").unlink()           # the instructor settles fang's copies
    old = tmp_path / "r.json"
    text = (out / "r.json").read_text(encoding="utf-8").replace(str(klass), str(work))
    old.write_text(text, encoding="utf-8")
    run = lambda *extra: subprocess.run(                            # noqa: E731
        [sys.executable, "-m", "grading", str(work), "--group-by", "top", "--regrade", str(old), *extra],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    (tmp_path / "other.key").write_text("ab" * 32)
    wrong_key = run("--only", "fang", "--key", str(tmp_path / "other.key"))
    assert wrong_key.returncode == 2 and "leave --key out" in wrong_key.stderr
    nobody = run("--only", "zoe")
    assert nobody.returncode == 2 and "no submission named zoe" in nobody.stderr
    proc = run("--only", "fang", "--json", str(tmp_path / "new.json"), "--deadline", "2026-12-01T23:59")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "1 submission(s)" in proc.stderr
    new = json.loads((tmp_path / "new.json").read_text(encoding="utf-8"))
    before = json.loads(text)
    assert [s["submission"] for s in new["summary"]] == [s["submission"] for s in before["summary"]]
    for student in ("dmitri", "hana", "gleb", "mila"):
        assert rows_for(new, student) == rows_for(before, student)
    fang = [r for r in rows_for(new, "fang") if r["notebook"]]
    assert fang and all("duplicates" not in r for r in fang) and new["grader"]["regraded"] == [
        str(work / "fang")]
    assert new["grader"]["hidden_tests"] == before["grader"]["hidden_tests"]      # the same hidden tests


@pytest.mark.parametrize("rule, points, status", [("best", 1, "pass"), ("ambiguous", 0, "error")])
def test_the_other_duplicate_rules(messy, tmp_path, rule, points, status):
    klass, _, _ = messy
    fang = tmp_path / "fang"
    shutil.copytree(klass / "fang", fang)
    os.utime(fang / "ex01_allowed_set.ipynb")                       # the stub is now the newest copy
    proc = subprocess.run([sys.executable, "-m", "grading", str(fang), "--group-by", "all", "--exercises", "mask-1",
                           "--duplicates", rule, "--json", str(tmp_path / "r.json"), "-q"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    row = report["rows"][0]
    assert (row["points"], row["status"], row["duplicates"]["rule"]) == (points, status, rule)
    assert "duplicates" in report["summary"][0]["flags"]
    if rule == "best":
        assert row["duplicates"]["graded"] == "ex01_allowed_set (1).ipynb" and "not graded" not in row["message"]
    else:
        assert "ambiguous" in report["summary"][0]["flags"] and "instructor decides" in row["message"]


# -- a Canvas and a Moodle class: one student per LMS id, the late penalty in every column --------------

def write(path, source, mtime=1_764_000_000):
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(source, path)
    os.utime(path, (mtime, mtime))


@pytest.fixture(scope="module")
def canvas(tmp_path_factory):
    """Canvas's flat download: two smithjohns (ids 2001, solved, and 2002, untouched), and wangwei (2003), solved
    in Chinese and handed in 30 h late; graded with a 10 % late penalty, one Canvas column per exercise."""
    root = tmp_path_factory.mktemp("canvas")
    write(root / "dl" / "smithjohn_2001_90001_ex01_allowed_set.ipynb", ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb")
    write(root / "dl" / "smithjohn_2002_90002_ex01_allowed_set.ipynb", ROOT / "exercises" / "en" / "ex01_allowed_set.ipynb")
    write(root / "dl" / "wangwei_late_2003_90003_ex01_allowed_set.ipynb", ROOT / "solutions" / "zh" / "ex01_allowed_set.ipynb",
          1_764_633_600 + 30 * 3600)                                          # 2025-12-02 00:00 UTC + 30 h
    out = root / "out"
    proc = subprocess.run([sys.executable, "-m", "grading", str(root / "dl"), "--student-pattern", "canvas",
                           "--exercises", "mask-1,mask-2", "--deadline", "2025-12-02T00:00", "--late-penalty", "10",
                           "--canvas-csv", str(out / "canvas.csv"), "--per-exercise", "--assignment", "Week 1",
                           "--totals-csv", str(out / "totals.csv"), "--wide-csv", str(out / "wide.csv"),
                           "--json", str(out / "r.json"), "--feedback", str(out / "fb")],
                          cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out, json.loads((out / "r.json").read_text(encoding="utf-8")), proc.stderr


def table(path):
    import csv
    return list(csv.reader(path.read_text(encoding="utf-8").splitlines()))


def test_canvas_students_of_one_name_are_two_rows_with_a_warning(canvas):
    out, report, log = canvas
    assert "2 students share the name 'smithjohn'" in log
    rows = table(out / "canvas.csv")
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Week 1 mask-1", "Week 1 mask-2"]
    students = {r[1]: r for r in rows[2:]}
    assert sorted(students) == ["2001", "2002", "2003"] and len(rows) == 2 + 3
    assert students["2001"][0] == "smithjohn (2001)" and students["2001"][5:] == ["1", "2"]
    assert students["2002"][0] == "smithjohn (2002)" and students["2002"][5:] == ["0", "0"]
    assert [r[1] for r in table(out / "totals.csv")[1:]] == ["2001", "2002", "2003"]


def test_the_late_penalty_reaches_every_column_and_the_page_says_how(canvas):
    out, report, _ = canvas
    late = next(s for s in report["summary"] if s.get("student_id") == "2003")
    assert late["handed_in"]["late_hours"] == 30 and late["handed_in"]["penalty_percent"] == 20     # 2 started days
    assert late["points"] == 2.4 and late["points_before_penalty"] == 3
    wide = {r[1]: r for r in table(out / "wide.csv")}
    header = table(out / "wide.csv")[0]
    columns = [header.index(c) for c in header if c.startswith("mask-")]
    assert [wide["2003"][i] for i in columns] == ["0.8", "1.6"]
    assert round(sum(float(wide["2003"][i]) for i in columns), 6) == float(wide["2003"][header.index("total (max 3)")])
    canvas_row = next(r for r in table(out / "canvas.csv") if r[1] == "2003")
    assert canvas_row[5:] == ["0.8", "1.6"]                                 # Canvas's per-exercise import keeps it
    page = next((out / "fb").glob("wangwei*.html")).read_text(encoding="utf-8")
    assert "截止时间之后 30 小时提交" in page and "20%" in page and "迟交扣分前为 2" in page


@pytest.fixture(scope="module")
def moodle(tmp_path_factory):
    """A blind-marked Moodle assignment in a Russian Moodle: three Participant folders (solved, untouched,
    wrong), and the worksheet that Moodle downloads, in Russian."""
    root = tmp_path_factory.mktemp("moodle")
    dl = root / "dl"
    write(dl / "Participant_7000101_assignsubmission_file_" / "ex01_allowed_set.ipynb",
          ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb")
    write(dl / "Participant_7000102_assignsubmission_file_" / "ex01_allowed_set.ipynb",
          ROOT / "exercises" / "ru" / "ex01_allowed_set.ipynb")
    text = (ROOT / "solutions" / "ru" / "ex01_allowed_set.ipynb").read_text(encoding="utf-8")
    wrong = dl / "Participant_7000107_assignsubmission_file_" / "ex01_allowed_set.ipynb"
    wrong.parent.mkdir(parents=True)
    wrong.write_text(text.replace("masked = np.where(allowed, scores, -np.inf)", "masked = scores"), encoding="utf-8")
    sheet = root / "moodle-worksheet.csv"
    sheet.write_text("Идентификатор,Состояние,Оценка,Максимальная оценка,Оценка может быть изменена,"
                     "Последнее изменение (оценка),Отзыв в виде комментария\n"
                     + "".join(f"Участник {i},Отправлено для оценивания,,\"8,00\",Да,-,\n"
                               for i in (7000101, 7000102, 7000107, 7000199)), encoding="utf-8")
    out = root / "out"
    proc = subprocess.run([sys.executable, "-m", "grading", str(dl), "--student-pattern", "moodle",
                           "--exercises", "mask-1,mask-2,mask-3,data-1", "--moodle-worksheet", str(sheet),
                           "--moodle-csv", str(out / "worksheet.csv"), "--totals-csv", str(out / "totals.csv"),
                           "--json", str(out / "r.json")], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return out, sheet, json.loads((out / "r.json").read_text(encoding="utf-8"))


def test_a_blind_moodle_class_is_one_student_per_participant(moodle):
    out, sheet, report = moodle
    points = {s["student_id"]: s["points"] for s in report["summary"]}
    full = sum(e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set")
    assert points == {"7000101": full, "7000102": 0, "7000107": full - EXERCISES["mask-2"].points}
    assert [r[1] for r in table(out / "totals.csv")[1:]] == ["7000101", "7000102", "7000107"]


def test_the_moodle_worksheet_comes_back_in_the_language_moodle_reads(moodle):
    out, sheet, report = moodle
    back, given = table(out / "worksheet.csv"), table(sheet)
    assert back[0] == given[0]                                                   # Russian column names
    grades = {r[0]: r[2] for r in back[1:]}
    full = sum(e.points for e in EXERCISES.values() if e.notebook == "ex01_allowed_set")
    assert grades == {"Участник 7000101": str(full), "Участник 7000102": "0",
                      "Участник 7000107": str(full - EXERCISES["mask-2"].points), "Участник 7000199": ""}
