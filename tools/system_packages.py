"""The Debian packages the README's commands need from outside Python: which are missing, and
installing them.

    python3 tools/system_packages.py test     # what `make test` runs first
    python3 tools/system_packages.py book     # what `make book` runs first
    python3 tools/system_packages.py --list   # every package, what it is for, whether it is there

The packages are listed once, in ``tools/system-packages.txt``: each with what shows it is
installed (a command on the PATH, or a font that fontconfig knows), the make targets that
need it and what for.  The tests ask :func:`find` whether the tool they need is there
(``tests/conftest.py``, ``need()``).

For a target, every missing package is installed with ``apt-get``: directly as root, with
``sudo`` after saying what it will install when sudo can ask (no password needed, or a
terminal to ask on); ``apt-get update`` runs only when apt knows no candidate for one of them,
or when the install fails on stale lists.  Where none of this is possible (no root, no sudo,
no apt-get), it stops before anything else with one line that names the packages and the
command.  ``SYSTEM_PACKAGES=skip`` (``make test SYSTEM_PACKAGES=skip``) goes on without them:
the tests that need them then skip, naming the tool, except under ``CI=true``, where they fail.

Runs on the system's Python, standard library only: it comes before ``.venv`` exists.
"""

import glob
import os
import shutil
import subprocess
import sys
from pathlib import Path

LIST = Path(__file__).resolve().parent / "system-packages.txt"
FONT_FOLDERS = ("/usr/share/fonts", "/usr/local/share/fonts", os.path.expanduser("~/.local/share/fonts"))


class Package:
    """One line of tools/system-packages.txt."""

    def __init__(self, name, kind, what, targets, why):
        self.name, self.kind, self.what, self.targets, self.why = name, kind, what, targets, why

    @property
    def tool(self):
        """What a test names when the package is missing: the command, or the font."""
        return self.what

    def present(self):
        if self.kind == "command":
            if self.what == "chromium" and os.environ.get("CHROMIUM"):     # the browser tests honour $CHROMIUM
                return os.access(os.environ["CHROMIUM"], os.X_OK)
            return shutil.which(self.what) is not None
        return font_installed(self.what)

    def __repr__(self):
        return f"Package({self.name!r}: {self.kind} {self.what})"


def read(path=LIST):
    """Every package of the list, in its order."""
    packages = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("|")]
        if len(fields) != 4 or not all(fields):
            raise SystemExit(f"{path}:{number}: expected 'package | found by | needed by | what for', got {line!r}")
        name, found_by, targets, why = fields
        kind, _, what = found_by.partition(" ")
        if kind not in ("command", "font") or not what:
            raise SystemExit(f"{path}:{number}: 'found by' is 'command NAME' or 'font FAMILY', got {found_by!r}")
        packages.append(Package(name, kind, what.strip(), tuple(targets.split()), why))
    return packages


def font_installed(family):
    """fontconfig knows a font of ``family`` (fc-list), or, without fc-list, a file of it is in a font folder."""
    fc_list = shutil.which("fc-list")
    if fc_list:
        try:
            listed = subprocess.run([fc_list, ":", "family"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            listed = ""
        if family.lower() in listed.lower():
            return True
    stem = family.replace(" ", "").lower()
    return any(stem in os.path.basename(path).lower().replace("-", "")
               for folder in FONT_FOLDERS for path in glob.glob(os.path.join(folder, "**", "*"), recursive=True))


def find(tool, path=LIST):
    """The package that provides ``tool`` (a command, a font family, or the package's own name)."""
    for package in read(path):
        if tool in (package.what, package.name):
            return package
    raise KeyError(f"{tool!r} is not in {path}: add it there")


def missing(target=None, path=LIST):
    """The packages ``target`` needs (every package when None) that are not installed."""
    return [p for p in read(path) if (target is None or target in p.targets) and not p.present()]


def _apt_knows(names):
    """apt has a candidate version of every package (else its lists need an update)."""
    policy = shutil.which("apt-cache")
    if not policy:
        return False
    out = subprocess.run([policy, "policy", *names], capture_output=True, text=True,
                         env=dict(os.environ, LC_ALL="C")).stdout
    candidates, current = {}, None
    for line in out.splitlines():
        if line and not line[0].isspace() and line.rstrip().endswith(":"):
            current = line.strip()[:-1]
        elif current and line.strip().startswith("Candidate:"):
            candidates[current] = line.split(":", 1)[1].strip()
    return all(candidates.get(name, "(none)") != "(none)" for name in names)


def _can_sudo():
    """sudo is there and can ask for the password (a terminal), or needs none."""
    sudo = shutil.which("sudo")
    if not sudo:
        return False
    if sys.stdin.isatty():
        return True
    try:
        return subprocess.run([sudo, "-n", "true"], capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _stop(target, message):
    print(f"make {target}: {message}", file=sys.stderr, flush=True)
    return 1


def ensure(target):
    """Install what ``target`` needs; 0 when everything is there, else 1 after one line on stderr."""
    needed = missing(target)
    if not needed:
        return 0
    names = [p.name for p in needed]
    uses = "; ".join(f"{p.name}: {p.why}" for p in needed)
    command = "sudo apt-get install -y " + " ".join(names)
    if os.environ.get("SYSTEM_PACKAGES", "").lower() == "skip":
        print(f"make {target}: going on without {', '.join(names)} (SYSTEM_PACKAGES=skip); the tests that "
              "need them skip", file=sys.stderr, flush=True)
        return 0
    if not shutil.which("apt-get"):
        return _stop(target, f"needs the Debian packages {' '.join(names)} ({uses}), and this machine has no "
                             f"apt-get: install them (on Debian or Ubuntu: `{command}`), then run `make {target}` "
                             f"again, or `make {target} SYSTEM_PACKAGES=skip` to go on without them")
    if os.geteuid() == 0:
        prefix = []
    elif _can_sudo():
        prefix = ["sudo", "env", "DEBIAN_FRONTEND=noninteractive"]
    else:
        return _stop(target, f"needs the Debian packages {' '.join(names)} ({uses}), and installing them needs "
                             f"root: run `{command}`, then `make {target}` again, or `make {target} "
                             f"SYSTEM_PACKAGES=skip` to go on without them")
    how = "with sudo" if prefix else "as root"
    print(f"make {target}: installing the Debian packages {' '.join(names)} {how} ({uses}): "
          f"{'sudo ' if prefix else ''}apt-get install -y {' '.join(names)}", file=sys.stderr, flush=True)
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = [*prefix, "apt-get", "install", "-y", "-qq", "--no-install-recommends", *names]
    update = [*prefix, "apt-get", "update", "-qq"]
    updated = False
    if not _apt_knows(names):
        updated = True
        subprocess.run(update, env=env, stdout=sys.stderr)
    done = subprocess.run(install, env=env, stdout=sys.stderr).returncode == 0
    if not done and not updated:             # lists older than the mirror: fetch them, try once more
        subprocess.run(update, env=env, stdout=sys.stderr)
        done = subprocess.run(install, env=env, stdout=sys.stderr).returncode == 0
    still = [p for p in needed if not p.present()]
    if not still:
        return 0
    return _stop(target, f"`{' '.join(install)}` {'ended' if done else 'failed'}, and "
                         f"{', '.join(f'{p.what} ({p.name})' for p in still)} "
                         f"{'is' if len(still) == 1 else 'are'} still missing: install "
                         f"{'it' if len(still) == 1 else 'them'} by hand, then run `make {target}` again, "
                         f"or `make {target} SYSTEM_PACKAGES=skip` to go on without")


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if args == ["--list"]:
        for p in read():
            print(f"{p.name:<15} {'ok     ' if p.present() else 'MISSING'} {p.kind} {p.what:<20} "
                  f"make {'/'.join(p.targets):<10} {p.why}")
        return 0
    if len(args) != 1 or args[0].startswith("-"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    return ensure(args[0])


if __name__ == "__main__":
    sys.exit(main())
