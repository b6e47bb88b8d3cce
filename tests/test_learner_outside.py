"""A learner outside the repository: one exercise notebook downloaded from the site, a fresh
Python with nothing but ipykernel and NumPy.

The notebook's first cell (grading/notebook_setup.py) stops with ``No module named 'grading'``, and
the note above it gives, in the notebook's language, that error and the one ``%pip install`` line
that installs the course, with a source that exists: the course's wheel, which `make book` puts in
the page's download menu (site/course_site.py) and `make wheel` builds.  The test runs that line as
written, in IPython (the kernel's shell, where %pip installs into the kernel's own Python), and
then the first cell again: the course imports, with the learner extra's matplotlib and ipywidgets.  Binder's light set-up (binder/) is checked to ask for the same.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from tools.build_notebooks import course_package, course_wheel  # noqa: E402

pytestmark = pytest.mark.heavy


def first_cell(lang, stem="ex01_allowed_set"):
    """(the first code cell, the Markdown note right above it)"""
    import nbformat
    cells = nbformat.read(ROOT / "exercises" / lang / f"{stem}.ipynb", as_version=4).cells
    first = next(i for i, c in enumerate(cells) if c.cell_type == "code")
    return cells[first].source, cells[first - 1].source


def ipython(venv, code, cwd):
    script = cwd / "cell.ipy"
    script.write_text(code, encoding="utf-8")
    learner = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}     # nothing of this checkout
    return subprocess.run([str(venv / "bin" / "ipython"), "--quick", "--no-banner", "--colors=NoColor",
                           str(script)], cwd=cwd, capture_output=True, text=True, timeout=900, env=learner)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory, course_wheel_file):
    """A virtual environment with only ipykernel and NumPy, and the course's wheel."""
    root = tmp_path_factory.mktemp("learner")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=300)
    pip = subprocess.run([str(root / "venv" / "bin" / "python"), "-m", "pip", "install", "--quiet",
                          "--disable-pip-version-check", "ipykernel", "numpy"], capture_output=True, text=True,
                         timeout=900)
    assert pip.returncode == 0, pip.stderr[-2000:]
    assert course_wheel_file.name == course_wheel()
    return root / "venv", course_wheel_file


def test_the_committed_notebooks_name_the_wheel_or_the_repository():
    for lang in LANGUAGES:
        cell, note = first_cell(lang)
        assert cell.startswith(f'COURSE_LANGUAGE = "{lang}"')
        assert f'`%pip install "{course_package()}"`' in note


def test_a_downloaded_notebook_installs_the_course_with_the_line_its_note_gives(fresh, tmp_path):
    venv, wheel = fresh
    folder = tmp_path / "Downloads"
    folder.mkdir()
    cell, note = first_cell("ru")
    before = ipython(venv, cell, folder)
    assert "No module named 'grading'" in before.stdout + before.stderr          # what the note tells
    assert "No module named 'grading'" in note and "в одной папке с блокнотом" in note   # where the wheel goes
    line = re.search(r"`(%pip install [^`]+)`", note).group(1)
    assert wheel.name in line
    shutil.copy(wheel, folder)                                              # the learner downloads it
    install = ipython(venv, line, folder)
    assert install.returncode == 0, (install.stdout + install.stderr)[-3000:]
    after = ipython(venv, cell + "\nimport lib, matplotlib, ipywidgets\nprint('course at', lib.__file__)\n"
                    "check('mask-1', lambda t: None)\n", folder)
    assert after.returncode == 0 and "Traceback" not in after.stdout + after.stderr, after.stderr[-3000:]
    assert f"course at {venv}" in after.stdout                               # installed into the kernel's Python
    assert "mask-1" in after.stdout                                          # check() answers
    assert "одна позиция" in after.stdout             # in Russian: the wheel holds the catalogues (course_i18n)


def test_binder_installs_only_what_the_notebooks_need_as_an_editable_install():
    lines = [line.split("#")[0].strip() for line in (ROOT / "binder" / "requirements.txt").read_text().splitlines()]
    wanted = [line for line in lines if line]
    assert wanted[-1] == "-e ."
    names = {re.split(r"[=<>\[ ]", line)[0].lower() for line in wanted[:-1]}
    assert names == {"numpy", "matplotlib", "ipywidgets", "threadpoolctl"}
    pins = {line.split("==")[0]: line for line in (ROOT / "requirements.txt").read_text().splitlines() if "==" in line}
    assert all(pins[line.split("==")[0]] == line for line in wanted[:-1])   # the versions the course was tested with
    assert (ROOT / "binder" / "runtime.txt").read_text() == (ROOT / "runtime.txt").read_text()
    import tomllib
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert {re.split(r"[=<>]", x)[0] for x in extras["learner"]} == names
