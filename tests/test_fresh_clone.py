"""The README's two commands in a fresh clone, as a newcomer runs them on a machine without
bubblewrap and Chromium: each ends green, or in one line that says what is missing and how to
install it, before anything else runs.

The clone is `git clone` of this checkout's HEAD (what is committed, nothing else). bubblewrap
and Chromium are taken off the PATH by a folder of links to every other command. Running the
whole suite again inside the suite is out of the question, so `make test` is followed up to the
point where it installs the Debian packages or stops:

* as a user who is not root, without sudo or apt-get: one line that names the packages and the
  command, then make's own "Error" line, before the virtual environment exists;
* as root with a stand-in apt-get on the PATH that records what it is asked to install (and a
  stand-in apt-cache that knows every package, or none, so that `apt-get update` runs exactly
  when apt's lists lack a package): the packages the list names are installed in one call; the
  stand-in installs nothing, so make stops after it, again in one line;
* a stand-in sudo for a user who may use it: the same install, said first;
* `SYSTEM_PACKAGES=skip`: make goes on (one line says so) to the virtual environment and pytest,
  here asked only to collect the suite (`PYTEST_ARGS=--collect-only`), which must collect
  without an error.

`make book` runs for real: it builds the site in all three languages from scratch and says where
it is. pip's cache of wheels is the machine's, as for any second `pip install`.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

import pytest

from conftest import need, slowdown, unavailable

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from tools import system_packages  # noqa: E402

HIDDEN = ("bwrap", "chromium")                  # what a newcomer's machine lacks
MISSING = [system_packages.find(tool).name for tool in HIDDEN]          # bubblewrap, chromium
MAKE_ERROR = re.compile(r"^make(\[\d+\])?: \*\*\* \[.*\] Error \d+$")
UNPRIVILEGED = 65534                            # nobody
TIMINGS = {}


def run(command, cwd, env, timeout, user=None):
    if user is not None:
        command = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups", *command]
    started = time.monotonic()
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout * slowdown(),
                          stdin=subprocess.DEVNULL)
    TIMINGS[" ".join(command[-2:])] = time.monotonic() - started
    return proc


def lines(proc):
    """What make printed, less make's own "*** Error" line."""
    return [line for line in (proc.stdout + proc.stderr).splitlines() if line.strip() and not MAKE_ERROR.match(line)]


def links_to_commands(folder, dirs, leave_out):
    """``folder`` filled with a link to every command of ``dirs`` except ``leave_out``: a PATH without them."""
    folder.mkdir(parents=True, exist_ok=True)
    for directory in dirs:
        if not os.path.isdir(directory):
            continue
        for entry in os.scandir(directory):
            if entry.name not in leave_out and not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry.path)
    return str(folder)


def stand_in(folder, name, script):
    path = folder / name
    path.write_text("#!/bin/sh\n" + script, encoding="utf-8")
    path.chmod(0o755)


def fake_apt(folder, log, knows=True):
    """apt-get that records its arguments in ``log``; apt-cache that has a candidate for every
    package (``knows``) or for none (lists never fetched)."""
    folder.mkdir(parents=True, exist_ok=True)
    stand_in(folder, "apt-get", f'echo "apt-get $*" >> {log}\n')
    candidate = "1.0-1" if knows else "(none)"
    stand_in(folder, "apt-cache", 'shift\nfor p in "$@"; do printf "%s:\\n  Installed: (none)\\n  Candidate: '
             + candidate + '\\n" "$p"; done\n')


@pytest.fixture(scope="module")
def clone():
    """A clone of HEAD in a folder any user can enter (the unprivileged run needs that)."""
    need("git", "the fresh clone is made with git")
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    if head.returncode != 0:
        unavailable(f"not a git checkout: {head.stderr.strip()}")
    base = pathlib.Path(tempfile.mkdtemp(prefix="fresh-clone-"))
    base.chmod(0o755)
    dest = base / "course"
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", "--no-checkout", str(ROOT), str(dest)], check=True,
                   timeout=300)
    subprocess.run(["git", "checkout", "--quiet", "--detach", head.stdout.strip()], cwd=dest, check=True, timeout=300)
    if os.geteuid() == 0:              # the unprivileged newcomer's (root can still write everywhere)
        for folder, dirs, files in os.walk(base):
            for name in [folder, *(os.path.join(folder, f) for f in files)]:
                os.lchown(name, UNPRIVILEGED, UNPRIVILEGED)
    yield dest
    shutil.rmtree(base, ignore_errors=True)
    print("fresh clone, seconds per step:", {k: round(v, 1) for k, v in TIMINGS.items()}, file=sys.stderr)


def newcomer_env(path, home, **extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("COURSE_")          # this session's own settings (conftest's kernel reports)
           and k not in ("CI", "SYSTEM_PACKAGES", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT",
                        "PYTHONPATH", "VIRTUAL_ENV", "CHROMIUM", "MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    env.update(PATH=path, HOME=str(home), **extra)
    return env


def test_without_root_sudo_or_apt_make_test_stops_in_one_line(clone):
    """The list's packages that are missing, the command that installs them, nothing else; no .venv."""
    system_dirs = ["/usr/local/bin", "/usr/bin", "/bin"]      # a user's PATH: root's own Python is not for them
    path = links_to_commands(clone.parent / "user-bin", system_dirs, {*HIDDEN, "apt-get", "apt-cache", "sudo"})
    if not shutil.which("python3", path=path) or not shutil.which("make", path=path):
        unavailable(f"no python3 or make in {system_dirs} for a user who is not root")
    proc = run(["make", "test"], clone, newcomer_env(path, clone.parent), timeout=300,
               user=UNPRIVILEGED if os.geteuid() == 0 else None)
    said = lines(proc)
    assert proc.returncode != 0 and len(said) == 1, proc.stdout + proc.stderr
    line = said[0]
    for package in MISSING:
        assert package in line, line
    assert f"`sudo apt-get install -y {' '.join(MISSING)}`" in line, line
    assert "make test SYSTEM_PACKAGES=skip" in line, line
    assert not (clone / ".venv").exists(), "make test went on to the virtual environment"


@pytest.mark.parametrize("lists", ["fetched", "never fetched"])
def test_as_root_make_test_installs_the_missing_packages_with_apt(clone, tmp_path, lists):
    if os.geteuid() != 0:
        unavailable("installing as root needs root")
    log = tmp_path / "apt.log"
    fake_apt(tmp_path / "fake", log, knows=lists == "fetched")
    path = os.pathsep.join([str(tmp_path / "fake"), links_to_commands(
        tmp_path / "bin", os.environ["PATH"].split(os.pathsep), {*HIDDEN, "apt-get", "apt-cache", "sudo"})])
    proc = run(["make", "test"], clone, newcomer_env(path, tmp_path), timeout=300)
    said = lines(proc)
    calls = log.read_text().splitlines() if log.exists() else []
    install = f"apt-get install -y -qq --no-install-recommends {' '.join(MISSING)}"
    assert calls == ([install] if lists == "fetched" else ["apt-get update -qq", install]), calls
    # it says what it installs, then (the stand-in installed nothing) that they are still missing
    assert proc.returncode != 0 and len(said) == 2, proc.stdout + proc.stderr
    assert said[0].startswith(f"make test: installing the Debian packages {' '.join(MISSING)} as root"), said
    assert "still missing" in said[1] and all(tool in said[1] for tool in HIDDEN), said
    assert not (clone / ".venv").exists()


def test_with_sudo_the_install_is_said_first_and_done_with_sudo(tmp_path):
    """A user who may use sudo (a stand-in that records and runs the command): the same install,
    announced; once it has installed the packages, nothing stops make test."""
    log, fake = tmp_path / "calls.log", tmp_path / "fake"
    fake.mkdir()
    installed = tmp_path / "installed"
    installed.mkdir()
    stand_in(fake, "sudo", f'echo "sudo $*" >> {log}\n[ "$1" = "-n" ] && exit 0\nexec "$@"\n')
    # apt-get "installs" by putting the commands on the PATH
    stand_in(fake, "apt-get", f'echo "apt-get $*" >> {log}\n'
             + "".join(f'printf "#!/bin/sh\\n" > {installed}/{tool}; chmod +x {installed}/{tool}\n' for tool in HIDDEN))
    stand_in(fake, "apt-cache", 'shift\nfor p in "$@"; do printf "%s:\\n  Candidate: 1.0-1\\n" "$p"; done\n')
    path = os.pathsep.join([str(fake), str(installed), links_to_commands(
        tmp_path / "bin", os.environ["PATH"].split(os.pathsep), {*HIDDEN, "apt-get", "apt-cache", "sudo"})])
    env = newcomer_env(path, tmp_path)
    code = (f"import os, sys; os.geteuid = lambda: 1000; sys.path.insert(0, {str(ROOT)!r}); "
            "from tools import system_packages; sys.exit(system_packages.ensure('test'))")
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    said = [line for line in proc.stderr.splitlines() if line.strip()]
    assert said == [f"make test: installing the Debian packages {' '.join(MISSING)} with sudo "
                    f"({'; '.join(f'{p.name}: {p.why}' for p in system_packages.read() if p.name in MISSING)}): "
                    f"sudo apt-get install -y {' '.join(MISSING)}"], said
    calls = log.read_text().splitlines()
    assert calls[0] == "sudo -n true"
    assert calls[1:] == [f"sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "
                         f"{' '.join(MISSING)}",
                         f"apt-get install -y -qq --no-install-recommends {' '.join(MISSING)}"], calls


@pytest.mark.timeout(3600)        # make book from scratch: 1500 s at most on an idle machine, times its load
def test_make_book_builds_the_site_and_make_test_collects_the_suite(clone):
    """`make book` as written, from scratch: the site of every language, and where it is. Then
    `make test SYSTEM_PACKAGES=skip` with pytest asked only to collect: it says it goes on without
    the missing packages, installs the test requirements and collects every test without an error."""
    path = links_to_commands(clone.parent / "bin", os.environ["PATH"].split(os.pathsep), HIDDEN)
    env = newcomer_env(path, pathlib.Path.home())
    book = run(["make", "book"], clone, env, timeout=1500)
    assert book.returncode == 0, (book.stdout + book.stderr)[-6000:]
    where = re.search(r"site built in [\d.]+ s: (\S+/index\.html)", book.stdout)
    assert where and pathlib.Path(where.group(1)) == clone / "_build" / "site" / "index.html", book.stdout[-2000:]
    for lang in LANGUAGES:
        assert (clone / "_build" / "site" / lang / "chapters" / "00_start.html").is_file(), lang
    collect = run(["make", "test", "SYSTEM_PACKAGES=skip", "PYTEST_ARGS=--collect-only -q -n 0"], clone, env,
                  timeout=900)
    assert collect.returncode == 0, (collect.stdout + collect.stderr)[-6000:]
    skipping = [line for line in collect.stderr.splitlines() if line.startswith("make test:")]
    assert skipping == [f"make test: going on without {', '.join(MISSING)} (SYSTEM_PACKAGES=skip); "
                        "the tests that need them skip"], collect.stderr[-2000:]
    assert re.search(r"^\d+ tests collected", collect.stdout, re.M), collect.stdout[-3000:]
    assert "error" not in collect.stdout.lower().split("tests collected")[-1], collect.stdout[-3000:]

def test_one_test_file_runs_as_the_readme_shows(clone):
    """README.md: `make test PYTEST_ARGS=tests/test_errors.py` runs one test file, as written, with the machine's
    own PATH (its system packages present; after the test above, the clone's .venv exists, else make makes it):
    the tests it runs are that file's alone, and they pass."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"`(make test PYTEST_ARGS=(tests/test_\w+\.py))` runs one test file", readme)
    assert command, "README.md no longer shows how to run one test file"
    absent = system_packages.missing("test")
    if absent:
        unavailable(f"the system packages {', '.join(p.name for p in absent)} are missing, so make test stops first")
    proc = run(command.group(1).split(), clone, newcomer_env(os.environ["PATH"], pathlib.Path.home()), timeout=900)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-4000:]
    passed = re.search(r"^=+ (\d+) passed", proc.stdout, re.M)
    assert passed and int(passed.group(1)) > 0, proc.stdout[-3000:]
    items = re.search(r"^\d+ workers \[(\d+) items?\]", proc.stdout, re.M)       # pytest-xdist's count
    assert items and items.group(1) == passed.group(1), f"not only {command.group(2)} ran:\n{proc.stdout[-3000:]}"
