"""Build a ready Gradescope autograder for one assignment: a folder and its zip.

    python tools/make_autograder.py --notebook ex01_allowed_set            # _build/autograder/ex01_allowed_set(.zip)
    python tools/make_autograder.py --exercises mask-1,mask-2 --out ag/     # any set of exercises
    make autograder NOTEBOOK=ex01_allowed_set

The folder holds what Gradescope asks for at the root of the zip: ``setup.sh``
(installs Python >= 3.11 if the image lacks it, then the course's wheel with
the grader's extra into /autograder/venv) and ``run_autograder`` (grades the
upload, always writes results.json), plus ``config.json``, which pins the
assignment's exercises (an upload holding other notebooks is graded on these
only), the limits and the isolation (``container``: the sandbox where the
container allows one, else none), ``grading.key``, the key the hidden tests are drawn from
(new for every autograder, so a resubmission meets the same hidden tests), and
the course's wheel built from this checkout.  The key and the zip that holds it
are readable by their owner only (mode 600).  ``run_autograder`` reads the key
and deletes it from the container before the student's notebook runs, so the
student's code finds it nowhere: not in a file, an argument or an environment
variable (the grader gets it on standard input).  See docs/instructors.md,
"Gradescope".
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "tools" / "gradescope"
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402


def build_wheel(dest):
    """The course's wheel (lib and grading), built from this checkout into ``dest``; its path."""
    dest = pathlib.Path(dest)
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("causality_heads_position-*.whl"):
        old.unlink()
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "--disable-pip-version-check", "-w", str(dest), str(ROOT)], check=True)
    wheels = sorted(dest.glob("causality_heads_position-*.whl"))
    if len(wheels) != 1:
        raise SystemExit(f"expected one wheel in {dest}, found {[w.name for w in wheels]}")
    return wheels[0]


def exercises_of(notebooks, ids):
    from grading.exercises import EXERCISES
    if ids:
        unknown = [i for i in ids if i not in EXERCISES]
        if unknown:
            raise SystemExit(f"unknown exercise id(s): {', '.join(unknown)}; known: {', '.join(EXERCISES)}")
        return [i for i in EXERCISES if i in ids]
    known = sorted({e.notebook for e in EXERCISES.values()})
    unknown = [n for n in notebooks if n not in known]
    if unknown:
        raise SystemExit(f"unknown notebook(s): {', '.join(unknown)}; known: {', '.join(known)}")
    return [i for i, e in EXERCISES.items() if e.notebook in notebooks]


def make(out, exercises, lang="auto", timeout=10.0, total_timeout=600.0, isolation="container"):
    from grading.batch.secret import write_key
    out = pathlib.Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for name in ("setup.sh", "run_autograder"):
        shutil.copy2(TEMPLATES / name, out / name)
        (out / name).chmod(0o755)
    build_wheel(out)
    write_key(out / "grading.key")
    config = {"exercises": ",".join(exercises), "lang": lang, "timeout": timeout, "total_timeout": total_timeout,
              "isolation": isolation}
    (out / "config.json").write_text(json.dumps(config, indent=1) + "\n", encoding="utf-8")
    archive = out.with_suffix(".zip")
    archive.unlink(missing_ok=True)
    # the zip holds the key: created readable by its owner only, whatever the umask, before a byte is written
    fd = os.open(archive, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as f, zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(out.iterdir()):        # the files at the root of the zip, as Gradescope wants
            info = zipfile.ZipInfo(path.name, date_time=(2026, 1, 1, 0, 0, 0))
            info.external_attr = (path.stat().st_mode & 0o777) << 16      # grading.key: 0600
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return out, archive


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--notebook", action="append", default=[], metavar="STEM",
                   help="an exercise notebook of the assignment (repeatable), e.g. ex01_allowed_set")
    p.add_argument("--exercises", metavar="IDS", help="or: comma-separated exercise ids")
    p.add_argument("--lang", choices=("auto", *LANGUAGES), default="auto",
                   help="feedback language (default: each upload's own)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per exercise (default 10)")
    p.add_argument("--total-timeout", type=float, default=600.0, help="seconds per upload (default 600)")
    p.add_argument("--out", default=None, help="the folder to write (default: _build/autograder/NAME)")
    args = p.parse_args(argv)
    ids = [x.strip() for x in args.exercises.split(",") if x.strip()] if args.exercises else None
    if not (args.notebook or ids):
        p.error("name the assignment's --notebook(s) or --exercises")
    exercises = exercises_of(args.notebook, ids)
    name = "_".join(args.notebook) if args.notebook else "exercises"
    out = pathlib.Path(args.out) if args.out else ROOT / "_build" / "autograder" / name
    folder, archive = make(out, exercises, args.lang, args.timeout, args.total_timeout)
    print(f"autograder for {', '.join(exercises)}: {folder}/ and {archive}; its hidden tests come from "
          f"{folder}/grading.key: keep the folder and the zip away from students")
    print("upload the zip in Gradescope: Configure Autograder -> Zip file upload; base image Ubuntu 22.04")


if __name__ == "__main__":
    main()
