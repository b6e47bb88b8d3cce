"""Control groups where systemd runs: the grader runs itself again in a transient scope that
delegates its subtree (systemd-run --scope -p Delegate=yes) and makes its groups there, moving
itself into a leaf first (cgroup v2 keeps processes in leaves).  These machines have no systemd,
so systemd-run is a stand-in that records its arguments and runs the command, as a scope does,
and the v2 hierarchy is a folder that behaves as cgroupfs does for these writes."""

import errno
import json
import os
import pathlib
import subprocess
import sys

import pytest

from grading.batch import cgroups

ROOT = pathlib.Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.heavy

STAND_IN = """#!/bin/sh
# systemd-run as a scope uses it: record the arguments, then run the command after --
printf '%s\\n' "$*" >> "{log}"
{fail}
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
exec "$@"
"""


def stand_in(folder, fail=False):
    """A bin folder whose systemd-run records each call in ``calls.log`` (and fails, if asked)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True)
    tool = bin_dir / "systemd-run"
    tool.write_text(STAND_IN.format(log=folder / "calls.log", fail="exit 1" if fail else ""))
    tool.chmod(0o755)
    runtime = folder / "run-systemd-system"
    runtime.mkdir()
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
           "GRADING_SYSTEMD_RUNTIME": str(runtime)}
    env.pop(cgroups.IN_SCOPE, None)
    return env, folder / "calls.log"


def test_the_scope_is_asked_for_only_where_systemd_runs_and_can_make_one(tmp_path):
    env, calls = stand_in(tmp_path / "ok")
    command, environ = cgroups.systemd_scope_command(["python", "-m", "grading", "x"], env)
    user = [] if os.geteuid() == 0 else ["--user"]
    unit = command[command.index("--") - 1].removeprefix("--unit=")
    assert command == [str(tmp_path / "ok" / "bin" / "systemd-run"), *user, "--scope", "--quiet", "--collect",
                       "-p", "Delegate=yes", f"--unit={unit}", "--", "python", "-m", "grading", "x"]
    assert unit.startswith(f"grading-{os.getpid()}-") and environ[cgroups.IN_SCOPE] == f"{unit}.scope"
    tried = calls.read_text().splitlines()
    assert len(tried) == 1 and tried[0].endswith(f"--unit={unit}-check -- true")     # tried before it is trusted
    # already in such a scope; systemd not running; no systemd-run; one that cannot make a scope
    assert cgroups.systemd_scope_command(["g"], {**env, cgroups.IN_SCOPE: "grading-1-a.scope"}) is None
    assert cgroups.systemd_scope_command(["g"], {**env, "GRADING_SYSTEMD_RUNTIME": str(tmp_path / "none")}) is None
    assert cgroups.systemd_scope_command(["g"], {**env, "PATH": "/nonexistent"}) is None
    failing, _ = stand_in(tmp_path / "failing", fail=True)
    assert cgroups.systemd_scope_command(["g"], failing) is None


def test_the_grader_runs_itself_in_the_scope(tmp_path):
    env, calls = stand_in(tmp_path)
    notebook = ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"
    args = [str(notebook), "--exercises", "mask-1", "--json", str(tmp_path / "r.json")]
    proc = subprocess.run([sys.executable, "-m", "grading", *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "running again in a systemd scope that delegates its control groups" in proc.stderr
    check, run = calls.read_text().splitlines()
    assert check.endswith("-check -- true") and "--scope" in run and "-p Delegate=yes" in run
    assert run.endswith(" ".join([sys.executable, "-m", "grading", *args]))
    report = json.loads((tmp_path / "r.json").read_text())
    unit = run.split("--unit=")[1].split()[0]
    assert report["grader"]["isolation"]["systemd_scope"] == f"{unit}.scope"
    assert [r["status"] for r in report["rows"]] == ["pass"]


def test_in_a_scope_the_grader_moves_into_a_leaf_before_handing_controllers_down(tmp_path, monkeypatch):
    """cgroup v2 refuses to enable controllers below a group that holds processes (EBUSY): the
    grader's scope holds the grader, so it moves its processes into ``grader`` first."""
    scope = tmp_path / "system.slice" / "grading-1-abc.scope"
    scope.mkdir(parents=True)
    (scope / "cgroup.controllers").write_text("cpu memory pids\n")
    (scope / "cgroup.subtree_control").write_text("")
    (scope / "cgroup.procs").write_text("101\n102\n")
    monkeypatch.setattr(cgroups, "_mounts", lambda: {("cgroup2", None): str(tmp_path)})
    monkeypatch.setattr(cgroups, "_own_paths", lambda: {"": "/system.slice/grading-1-abc.scope"})
    real_write = cgroups._write

    def write(path, text):                 # what cgroupfs does with these writes
        path = pathlib.Path(path)
        if path.name == "cgroup.subtree_control" and (path.parent / "cgroup.procs").exists() \
                and (path.parent / "cgroup.procs").read_text().split():
            raise OSError(errno.EBUSY, "Device or resource busy")
        if path.name == "cgroup.procs":
            for other in tmp_path.rglob("cgroup.procs"):
                other.write_text("".join(f"{p}\n" for p in other.read_text().split() if p != text))
            text = (path.read_text() if path.exists() else "") + text + "\n"
        real_write(path, text)
    monkeypatch.setattr(cgroups, "_write", write)

    made = cgroups.Cgroups(memory_mb=700, max_procs=64, jobs=2)
    assert made.version == "v2", made.why
    assert (scope / "grader" / "cgroup.procs").read_text().split() == ["101", "102"]
    assert (scope / "cgroup.procs").read_text().split() == []
    assert (scope / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    group = made.new_group()
    assert (pathlib.Path(group.dirs[""]) / "memory.max").read_text() == str(700 * 1024 * 1024)
    assert (pathlib.Path(group.dirs[""]) / "pids.max").read_text() == "64"
