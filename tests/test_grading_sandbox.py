"""The sandbox, one kernel at a time: privileges, network, file system, host name, SysV IPC,
control groups (memory for all of a submission's processes together, its CPU share, its
process cap), exits the student causes, interrupts, clean-up, and the weaker isolation modes.

These tests need root (the grader's strongest sandbox).  Locally they skip with the reason;
under CI=true a missing sandbox is a failure, never a skip.  Control groups depend on the
machine (cgroup v1 as root, or v2 delegated to the grader): where there are none, the tests
of them check instead that the grader falls back to per-process limits and reports why.
"""

import ctypes
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import time

import pytest

from conftest import key_file, need, slowdown, unavailable
from grading.batch import sandbox as sandbox_module
from grading.batch.kernel import Kernel, KernelDied
from grading.batch.packages import GRADING_DIR
from grading.batch.sandbox import HOSTNAME, INSIDE_COURSE, Limits, Sandbox, SandboxError, choose_isolation
from grading.exercises import EXERCISES

ROOT = pathlib.Path(__file__).resolve().parent.parent
IS_ROOT = os.geteuid() == 0
pytestmark = pytest.mark.heavy
sys.path.insert(0, str(ROOT / "tests" / "grading_cases"))
import make_cases  # noqa: E402
import syscalls  # noqa: E402

# Every way a kernel runs in a sandbox: root mode forks it from the warm Python or starts a fresh one;
# userns mode always starts a fresh one (it has no warm start)
SANDBOXED = {"root, warm": ("root", True), "root, fresh": ("root", False), "userns, fresh": ("userns", False)}


@pytest.fixture(scope="module", params=["warm", "fresh"])
def root_sandbox(request):
    """A root-mode sandbox (bubblewrap), its kernels forked from the warm Python (the default)
    or each a fresh Python (--fresh-kernels, and the fallback): every promise holds for both.
    Its control groups allow 700 MiB per submission; each process may map 2 GiB."""
    if not IS_ROOT:
        unavailable("root mode needs root")
    need("bwrap", "the root sandbox is built by bubblewrap")
    warm = request.param == "warm"
    sandbox = Sandbox("root", Limits(max_procs=64, memory_mb=700, address_space_mb=2048), jobs=2, warm=warm)
    try:
        sandbox.self_check()
    except SandboxError as exc:
        sandbox.close()
        unavailable(f"no root sandbox on this machine: {exc}")
    assert (sandbox.warm is not None) == warm, sandbox.warm_note     # a warm start that fails here is a defect
    yield sandbox
    sandbox.close()


def run_in_kernel(sandbox, code, timeout=20, group=None):
    kernel = Kernel(sandbox, group=group).start()
    try:
        result = kernel.execute(code, timeout * slowdown())
        out = kernel.io_path("out.json")
        data = json.loads(out.read_text()) if out.exists() else None
        return kernel, result, data
    finally:
        kernel.kill()


def uid_processes(uid):
    n = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                n += entry.stat().st_uid == uid
            except OSError:
                pass
    return n


def test_forks_are_capped_and_all_die_with_the_sandbox(root_sandbox):
    code = """
import os, time, json
made = 0
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.setsid()                      # try to escape the kernel's process group too
        time.sleep(1000)
        os._exit(0)
    made += 1
json.dump({"made": made, "uid": os.getuid()}, open("/grader/io/out.json", "w"))
"""
    group = root_sandbox.new_group()
    try:
        kernel, result, data = run_in_kernel(root_sandbox, code, group=group)
        assert result.status == "ok" and 10 < data["made"] < 64, (result, data)
        assert data["uid"] == kernel.launch.uid != 0
        deadline = time.monotonic() + 5 * slowdown()
        while uid_processes(data["uid"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert uid_processes(data["uid"]) == 0
        if group is not None:
            assert group.pids() == []                  # nothing of the submission survives
    finally:
        if group is not None:
            group.remove()


def test_kernel_has_no_privileges_network_secrets_or_host_names(root_sandbox, tmp_path):
    secret = tmp_path / "submissions-of-the-class"
    secret.mkdir()
    code = f"""
import os, json, socket, sys
facts = {{"uid": os.getuid(), "groups": os.getgroups(),
          "caps": [l.split()[1] for l in open("/proc/self/status") if l.startswith(("CapEff", "CapBnd"))],
          "nnp": [l.split()[1] for l in open("/proc/self/status") if l.startswith("NoNewPrivs")][0],
          "repo": sorted(os.listdir({str(ROOT)!r})) if os.path.isdir({str(ROOT)!r}) else None,
          "course": sorted(os.listdir("{INSIDE_COURSE}")),
          "grading": sorted(os.listdir("{INSIDE_COURSE}/grading")),
          "grading_bytecode": sorted(n.split(".")[0] for n in os.listdir("{INSIDE_COURSE}/grading/__pycache__")),
          "lib_file": __import__("lib").__file__,
          "exercises_stub": "hidden_cases" not in open("{INSIDE_COURSE}/grading/exercises.py").read(),
          "pids": len([p for p in os.listdir("/proc") if p.isdigit()]),
          "interfaces": sorted(os.listdir("/sys/class/net")) if os.path.isdir("/sys/class/net") else [],
          "hostname": socket.gethostname(), "etc_hostname": open("/etc/hostname").read().strip()
              if os.path.exists("/etc/hostname") else None,
          "seen": " ".join([os.getcwd(), *sys.path, *os.environ.values(), open("/proc/self/cmdline").read(),
                            open("/proc/self/mountinfo").read()])}}
try:
    socket.create_connection(("1.1.1.1", 53), timeout=1)
    facts["net"] = True
except OSError:
    facts["net"] = False
for path in ("/", "/usr/x", "{INSIDE_COURSE}/lib/x"):
    try:
        open(path.rstrip("/") + "/probe", "w")
        facts.setdefault("writable", []).append(path)
    except OSError:
        pass
json.dump(facts, open("/grader/io/out.json", "w"))
"""
    _, result, facts = run_in_kernel(root_sandbox, code)
    assert result.status == "ok", result
    assert facts["uid"] != 0 and facts["groups"] == []
    assert facts["caps"] == ["0000000000000000", "0000000000000000"] or facts["caps"][0] == "0000000000000000"
    assert facts["nnp"] == "1"
    # the repository holds nothing but the Python environment (when it lives there)
    assert facts["repo"] in (None, [".venv"]) and not os.path.exists(GRADING_DIR / "nothing")
    assert facts["course"] == ["grading", "lib"] and facts["lib_file"].startswith(INSIDE_COURSE)
    assert facts["grading"] == ["__init__.py", "__pycache__", "exercises.py", "models.py"]
    assert facts["exercises_stub"]
    # compiled once for every kernel (sandbox.precompile): the bytecode of those modules and nothing else
    assert facts["grading_bytecode"] == ["__init__", "exercises", "models"]
    assert facts["pids"] <= 3 and facts["net"] is False
    assert "writable" not in facts
    assert facts["hostname"] == HOSTNAME != socket.gethostname()
    assert facts["etc_hostname"] in (None, HOSTNAME)
    for host_path in (str(secret.parent), str(ROOT / "solutions"), str(ROOT / "grading"), str(ROOT / "lib"),
                      str(ROOT / "tests")):
        assert host_path not in facts["seen"], host_path


def fallback_is_reported(sandbox):
    """A machine without usable control groups (a CI container, say): the grader falls back to
    per-process limits and says so, with the reason, in its report."""
    described = sandbox.describe()
    assert described["cgroups"] is None and described["why"]
    assert "per process" in described["memory"] and "no fair share" in described["cpu"]


SHM = """
import ctypes, json, os
libc = ctypes.CDLL(None, use_errno=True)
KEY = 0x5EED1234
"""


def test_sysv_ipc_is_private_and_dies_with_the_sandbox(root_sandbox):
    create = SHM + """
shmid = libc.shmget(KEY, 4096, 0o1666)          # IPC_CREAT | 0666, and never removed
json.dump({"shmid": shmid}, open("/grader/io/out.json", "w"))
"""
    look = SHM + """
json.dump({"shmid": libc.shmget(KEY, 0, 0o666), "errno": ctypes.get_errno()}, open("/grader/io/out.json", "w"))
"""
    _, result, made = run_in_kernel(root_sandbox, create)
    assert result.status == "ok" and made["shmid"] >= 0, (result, made)
    _, result, seen = run_in_kernel(root_sandbox, look)
    assert result.status == "ok" and seen["shmid"] == -1, seen          # the next kernel does not see it
    with open("/proc/sysvipc/shm") as f:                                 # nor does the host
        keys = {int(line.split()[0]) for line in f.readlines()[1:] if line.split()}
    assert 0x5EED1234 not in keys


def test_memory_is_limited_for_all_processes_of_a_submission_together(root_sandbox):
    """Three children of 300 MiB each stay under the per-process limit (2 GiB) but not, together,
    under the submission's 700 MiB: the control group stops them."""
    group = root_sandbox.new_group()
    if group is None:
        fallback_is_reported(root_sandbox)
        return
    code = """
import json, os, time
children = []
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        block = bytearray(300 * 1024 * 1024)
        block[::4096] = b"x" * len(range(0, len(block), 4096))      # touch every page
        time.sleep(2)
        os._exit(0)
    children.append(pid)
codes = [os.waitpid(pid, 0)[1] for pid in children]
json.dump({"codes": codes}, open("/grader/io/out.json", "w"))
"""
    try:
        _, result, data = run_in_kernel(root_sandbox, code, timeout=60, group=group)
        assert result.status == "ok", result
        assert any(code != 0 for code in data["codes"]), data          # not all three could hold their memory
        assert group.oom_kills() > 0
        peak = group.dirs.get("memory") or group.dirs.get("")
        for name in ("memory.max_usage_in_bytes", "memory.peak"):
            if os.path.exists(os.path.join(peak, name)):
                assert int(open(os.path.join(peak, name)).read()) <= 700 * 1024 * 1024
    finally:
        group.remove()


def test_every_process_of_a_submission_is_in_its_group_with_an_equal_cpu_share(root_sandbox):
    groups = [root_sandbox.new_group(), root_sandbox.new_group()]
    if groups[0] is None:
        fallback_is_reported(root_sandbox)
        return
    try:
        kernel = Kernel(root_sandbox, group=groups[0]).start()
        try:
            code = "import os, time\nfor _ in range(5):\n    if os.fork() == 0:\n        time.sleep(30)\n        os._exit(0)"
            patience = slowdown()
            assert kernel.execute(code, 5 * patience).status == "ok"
            inside = set(groups[0].pids())
            sandbox_init = kernel._sandbox_init(time.monotonic() + 5 * patience)
            assert len(inside) >= 7 and sandbox_init in inside            # PID 1, the kernel, its 5 children
            assert groups[1].pids() == []
        finally:
            kernel.kill()
        assert groups[0].pids() == []
        if "cpu" in root_sandbox.cgroups.controllers:
            def share(g):
                d = g.dirs.get("cpu") or g.dirs[""]
                name = "cpu.shares" if os.path.exists(os.path.join(d, "cpu.shares")) else "cpu.weight"
                return open(os.path.join(d, name)).read().strip()
            assert share(groups[0]) == share(groups[1])
        limits = groups[0].dirs.get("pids") or groups[0].dirs[""]
        assert open(os.path.join(limits, "pids.max")).read().strip() == "64"
    finally:
        for g in groups:
            g.remove()


@pytest.mark.parametrize("code, expected", [
    ("import os; os._exit(112)", ("exit_student", {"code": 112})),      # the code the sandbox uses for its own failures
    ("import os; os._exit(3)", ("exit_student", {"code": 3})),
    ("import faulthandler; faulthandler._sigsegv()", ("exit_signal", {"signal": "SIGSEGV"})),
])
def test_exits_the_notebook_causes_are_reported_as_such(root_sandbox, code, expected):
    kernel = Kernel(root_sandbox).start()
    try:
        patience = slowdown()
        assert kernel.execute(code, 10 * patience).status == "died"
        deadline = time.monotonic() + 5 * patience
        while kernel.alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert kernel.describe_exit() == expected
    finally:
        kernel.kill()


def test_interrupt_then_kill(root_sandbox):
    kernel = Kernel(root_sandbox).start()
    patience = slowdown()
    try:
        assert kernel.execute("while True: pass", 0.5).status == "timeout"
        assert kernel.interrupt(2.0 * patience) is True
        assert kernel.execute("x = 1", 5 * patience).status == "ok"
        stubborn = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass"
        assert kernel.execute(stubborn, 0.5).status == "timeout"
        assert kernel.interrupt(1.0) is False
    finally:
        start = time.monotonic()
        kernel.kill()
        assert time.monotonic() - start < 5 * patience and not kernel.alive()


def test_writes_end_in_small_sandbox_file_systems_not_on_the_host_disk(root_sandbox):
    code = """
import json, os
written = {}
for folder in ("/grader/io", "/tmp", "/dev/shm"):
    total, i = 0, 0
    block = b"x" * (1 << 20)
    while total < 2000:                  # at most 2 GB each, if nothing stopped it
        try:
            with open(f"{folder}/fill{i}", "wb") as f:
                for _ in range(32):
                    f.write(block)
                    total += 1
        except OSError as exc:
            written[folder] = (total, exc.errno)
            break
        i += 1
    for name in os.listdir(folder):
        if name.startswith("fill"):
            os.remove(f"{folder}/{name}")
json.dump(written, open("/grader/io/out.json", "w"))
"""
    _, result, written = run_in_kernel(root_sandbox, code, timeout=60)
    assert result.status == "ok", result
    import errno
    limits = {"/grader/io": root_sandbox.limits.io_mb, "/tmp": root_sandbox.limits.tmp_mb, "/dev/shm": 64}
    for folder, (total, err) in written.items():
        assert err == errno.ENOSPC and total <= limits[folder] + 1, (folder, total, err)
    assert set(written) == set(limits)


def test_without_bubblewrap_the_grader_names_the_package(monkeypatch):
    """No bwrap on the machine: an explicit sandbox is refused with the package to install, and
    --isolation auto names no mode at all (never none: the grader fails closed)."""
    real_which = sandbox_module.shutil.which
    monkeypatch.setattr(sandbox_module.shutil, "which", lambda name: None if name == "bwrap" else real_which(name))
    for requested in ("root", "userns") if IS_ROOT else ("userns",):
        with pytest.raises(SandboxError, match="bubblewrap"):
            choose_isolation(requested)
    for requested in ("auto", "container"):
        modes, why = choose_isolation(requested)
        assert modes == [] and "apt install bubblewrap" in why
    with pytest.raises(SandboxError, match="bubblewrap"):
        Sandbox("userns", cgroups=False)
    with pytest.raises(SandboxError) as refused:
        sandbox_module.open_sandbox("auto", Limits(), cgroups=False)
    said = str(refused.value)
    assert "nothing was graded" in said and "sudo apt install bubblewrap" in said
    assert "--isolation none" in said and "trust" in said
    sandbox = sandbox_module.open_sandbox("container", Limits(), cgroups=False)
    try:                                  # a throwaway container (Gradescope): graded there, and said so
        assert sandbox.mode == "none" and "container" in sandbox.describe()["unsandboxed"]
    finally:
        sandbox.close()


def without_bwrap(tmp_path):
    """An environment whose PATH finds every tool of this machine but bwrap."""
    hidden = tmp_path / "bin"
    hidden.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            if name != "bwrap" and not (hidden / name).exists():
                (hidden / name).symlink_to(os.path.join(folder, name))
    return {**os.environ, "PATH": str(hidden)}


def test_without_a_sandbox_the_grader_stops_before_grading(tmp_path):
    """The grader fails closed: with no sandbox (here: bwrap missing), `--isolation auto` grades
    nothing, writes no report, exits 2 and says how to install bubblewrap and what --isolation
    none is for; a learner's own check() does not need a sandbox at all."""
    notebook = ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"
    env = without_bwrap(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "grading", str(notebook), "--json", str(tmp_path / "r.json"),
                           "--no-cgroups"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr
    assert "nothing was graded" in proc.stderr and "sudo apt install bubblewrap" in proc.stderr
    assert "--isolation none" in proc.stderr and "notebooks you trust" in proc.stderr
    assert not (tmp_path / "r.json").exists() and "[1/1]" not in proc.stderr
    learner = subprocess.run([sys.executable, "-c", "import numpy as np\nfrom grading import check\n"
                              "check('mask-1', lambda tq, tk: np.arange(tk)[None] <= np.arange(tk - tq, tk)[:, None])"],
                             cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert learner.returncode == 0 and "mask-1" in learner.stdout, learner.stderr


def strongest_isolation():
    """What --isolation auto must pick here: root when the grader is root, else userns when it works."""
    modes, why = choose_isolation("auto")
    if not modes:
        unavailable(f"no sandbox on this machine: {why}")
    return modes[0]


@pytest.mark.parametrize("mode", ["userns", "none", "auto"])
def test_every_isolation_mode_grades(tmp_path, mode):
    if mode != "none":
        need("bwrap", f"--isolation {mode} builds its sandbox with bubblewrap")
    if mode == "userns":
        try:
            choose_isolation("userns")
        except SandboxError as exc:
            unavailable(f"user namespaces unavailable: {exc}")
    proc = subprocess.run([sys.executable, "-m", "grading", str(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"),
                           "--isolation", mode, "--json", str(tmp_path / "r.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300 * slowdown())
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    isolation = data["grader"]["isolation"]
    assert isolation["mode"] == (mode if mode != "auto" else strongest_isolation())
    assert [r["status"] for r in data["rows"]] == ["pass"] * sum(e.notebook == "ex01_allowed_set"
                                                                  for e in EXERCISES.values())
    if mode == "none":
        assert "WARNING" in proc.stderr and isolation["namespaces"] == [] and isolation["cgroups"] is None
    else:
        assert {"pid", "net", "ipc", "uts", "mount"} <= set(isolation["namespaces"])
    assert "isolation" in proc.stderr and "memory" in proc.stderr        # the log says what was in force


WARM_MEMORY = f"""
import gc, json, os, sys, types
root = {str(ROOT)!r}
venv = os.path.join(root, ".venv")
def from_repository(path):
    path = str(path or "")
    return path.startswith(root + os.sep) and not path.startswith(venv + os.sep)
json.dump({{
    "modules": sorted(name for name, module in sys.modules.items()
                      if name.startswith(("__editable__", "grading.batch", "_warm"))
                      or from_repository(getattr(module, "__file__", None))),
    "code": sorted({{obj.__code__.co_filename for obj in gc.get_objects()
                    if isinstance(obj, types.FunctionType) and from_repository(obj.__code__.co_filename)}}),
    "meta_path": [type(f).__module__ for f in sys.meta_path],
    "cmdline": open("/proc/self/cmdline").read(),
    "parent": os.getppid(),
    "caps": [l.split()[1] for l in open("/proc/self/status")
             if l.startswith(("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"))],
    "lib": __import__("lib").__file__,
}}, open("/grader/io/out.json", "w"))
"""


@pytest.mark.parametrize("root_sandbox", ["warm"], indirect=True)
def test_a_warm_kernel_holds_nothing_of_the_grader(root_sandbox):
    """A kernel forked from the warm Python: no module, function or import hook of the repository
    (an editable install's hook names it), no file of the grader on its command line, its
    parent outside its PID namespace, every capability set empty, lib from /course."""
    assert root_sandbox.describe()["kernels"].startswith("forked from a warm Python")
    _, result, seen = run_in_kernel(root_sandbox, WARM_MEMORY)
    assert result.status == "ok", result
    assert seen["modules"] == [] and seen["code"] == [], seen
    assert not any(m.startswith("__editable__") for m in seen["meta_path"]), seen["meta_path"]
    assert str(ROOT / "grading") not in seen["cmdline"] and "_warm" not in seen["cmdline"], seen["cmdline"]
    assert seen["parent"] == 0                              # the forking child is not in the sandbox
    assert seen["caps"] == ["0000000000000000"] * 5, seen["caps"]
    assert seen["lib"].startswith(INSIDE_COURSE + "/")


@pytest.mark.parametrize("root_sandbox", ["warm"], indirect=True)
def test_a_warm_interpreter_that_ends_is_started_again(root_sandbox):
    """Killed mid-batch (by the OOM killer, say), the warm Python is started again for the next
    kernel, and the kernel starts as if nothing had happened."""
    root_sandbox.warm.proc.kill()
    root_sandbox.warm.proc.wait(timeout=30)
    restarts = root_sandbox.warm.restarts
    _, result, _ = run_in_kernel(root_sandbox, "x = 1")
    assert result.status == "ok", result
    assert root_sandbox.warm.restarts == restarts + 1


@pytest.mark.parametrize("root_sandbox", ["warm"], indirect=True)
def test_a_warm_start_enters_only_the_process_the_grader_found(root_sandbox, monkeypatch):
    """The forking child checks the waiting process by its start time: a PID that has ended and been
    given to another process (here: a start time that does not match) is not entered."""
    found = sandbox_module.waiting_process
    monkeypatch.setattr(sandbox_module, "waiting_process",
                        lambda proc, deadline: {**found(proc, deadline), "holder_started": 1})
    kernel = Kernel(root_sandbox)
    try:
        with pytest.raises(KernelDied) as died:
            kernel.start(timeout=10)
    finally:
        kernel.kill()
    assert died.value.args[0][0] == "sandbox_failed"
    assert "not the sandbox's waiting process any more" in died.value.args[0][1]["detail"]


def test_a_warm_start_that_fails_falls_back_to_fresh_kernels(monkeypatch):
    """A machine where the warm Python cannot start (or a kernel forked from it fails the
    self-check): the batch goes on with fresh kernels, and the report says why."""
    if not IS_ROOT:
        unavailable("root mode needs root")
    need("bwrap", "the root sandbox is built by bubblewrap")

    def refuse(*args, **kwargs):
        raise SandboxError("setns is not permitted here")
    monkeypatch.setattr(sandbox_module, "WarmStarter", refuse)
    sandbox = Sandbox("root", Limits(), jobs=1)
    try:
        try:
            sandbox.self_check()
        except SandboxError as exc:
            unavailable(f"no root sandbox on this machine: {exc}")
        assert sandbox.warm is None
        assert sandbox.describe()["kernels"] == "a fresh Python in each sandbox (no warm start: setns is not permitted here)"
        _, result, _ = run_in_kernel(sandbox, "x = 1")
        assert result.status == "ok", result
    finally:
        sandbox.close()


def open_mode(name, limits=None):
    """A self-checked sandbox of SANDBOXED[name] (the test is unavailable where this machine has none)."""
    mode, warm = SANDBOXED[name]
    if mode == "root" and not IS_ROOT:
        unavailable("root mode needs root")
    try:
        choose_isolation(mode)
        sandbox = Sandbox(mode, limits or Limits(), jobs=1, warm=warm)
    except SandboxError as exc:
        unavailable(f"no {mode} sandbox on this machine: {exc}")
    try:
        sandbox.self_check()
    except SandboxError as exc:
        sandbox.close()
        unavailable(f"no {mode} sandbox on this machine: {exc}")
    assert (sandbox.warm is not None) == warm, sandbox.warm_note
    return sandbox


@pytest.fixture(scope="module", params=sorted(SANDBOXED))
def every_sandbox(request):
    sandbox = open_mode(request.param)
    yield request.param, sandbox
    sandbox.close()


PROBE_RUN = syscalls.probe_source() + syscalls.NORMAL_WORK + """
import json
status = open("/proc/self/status").read()
json.dump({"probes": probe_refused(), "work": normal_work(),
           "seccomp": "\\nSeccomp:\\t2\\n" in status, "no_new_privs": "\\nNoNewPrivs:\\t1\\n" in status},
          open("/grader/io/out.json", "w"))
"""


def test_every_refused_call_is_refused_and_normal_work_still_runs(every_sandbox):
    """From a real kernel in each sandbox (root warm, root fresh, userns): every call of
    tests/grading_cases/syscalls.py fails as the seccomp filter says (EPERM; ENOSYS for clone3, so
    that the C library falls back to clone; EAFNOSUPPORT for rare socket families; a call through
    another ABI: EPERM), while NumPy, threads, a subprocess of Python, fork, a multiprocessing pool
    and Unix sockets still work."""
    name, sandbox = every_sandbox
    _, result, seen = run_in_kernel(sandbox, PROBE_RUN, timeout=120)
    assert result.status == "ok", (name, result)
    assert seen["seccomp"] and seen["no_new_privs"], (name, seen)
    assert syscalls.disagreements(seen["probes"], syscalls.expected()) == {}, name
    assert set(seen["probes"]) == set(syscalls.expected()), name
    assert all(seen["work"].values()) and len(seen["work"]) == 7, (name, seen["work"])
    assert "user_namespaces" in sandbox.describe() and sandbox.describe()["seccomp"].startswith("seccomp:")


def test_the_probes_would_succeed_or_fail_otherwise_without_the_filter():
    """The same probes in an unprivileged process outside any sandbox: most calls then succeed or fail
    for another reason (their arguments are chosen so), so the sandbox's answers are the filter's.
    A user namespace, in particular, is made there, also through the i386 entry point."""
    if not IS_ROOT:
        unavailable("this check runs the probes as an unprivileged uid, which needs root")
    code = syscalls.probe_source() + "\nimport json\nprint(json.dumps(probe_refused()))"
    # the probes need the standard library only: the base Python, which any uid may run wherever the checkout is
    python = os.path.join(sys.base_exec_prefix, "bin", f"python{sys.version_info.major}.{sys.version_info.minor}")
    proc = subprocess.run([shutil.which("setpriv"), "--reuid=65534", "--regid=65534", "--clear-groups", python,
                           "-I", "-S", "-c", code], cwd="/", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    unfiltered = json.loads(proc.stdout)
    differ = syscalls.disagreements(unfiltered, syscalls.expected())
    assert len(differ) >= 0.6 * len(unfiltered), differ
    if "unshare(CLONE_NEWUSER)" in differ:          # this machine lets unprivileged users make them
        assert unfiltered["unshare(CLONE_NEWUSER)"] == "ok" == unfiltered["clone(CLONE_NEWUSER)"]


def allow_everything(arch=None):
    """A seccomp program that refuses nothing (to see the other wall alone)."""
    import struct
    from grading.batch import seccomp_filter
    return struct.pack("<HBBI", seccomp_filter.RET, 0, 0, seccomp_filter.RET_ALLOW)


@pytest.mark.parametrize("name", sorted(SANDBOXED))
def test_user_namespaces_are_blocked_without_the_filter_too(name, monkeypatch):
    """Two walls: with a filter that refuses nothing, a kernel still cannot make a user namespace
    (root mode: user.max_user_namespaces is 0 in the run's user namespace; userns mode: bwrap's
    --disable-userns)."""
    from grading.batch import seccomp_filter
    monkeypatch.setattr(seccomp_filter, "program", allow_everything)
    sandbox = open_mode(name)
    try:
        code = syscalls.probe_source() + "\nimport json\njson.dump(probe_refused(), open('/grader/io/out.json', 'w'))"
        _, result, seen = run_in_kernel(sandbox, code, timeout=120)
    finally:
        sandbox.close()
    assert result.status == "ok", result
    for probe in ("unshare(CLONE_NEWUSER)", "unshare(CLONE_NEWUSER|CLONE_NEWNS)", "clone(CLONE_NEWUSER)",
                  "i386 ABI: unshare(CLONE_NEWUSER)"):
        if probe in seen:
            assert seen[probe] in ("ENOSPC", "EUSERS", "EPERM", "killed by SIGSEGV"), (name, probe, seen[probe])
    assert seen["clone3"] == "EFAULT"                      # the filter really refused nothing


def test_a_grader_installed_from_the_wheel_sandboxes_as_the_checkout_does(tmp_path, course_wheel_file):
    """`make wheel`, then `pip install <wheel>[grader]` into a fresh virtual environment outside the
    repository: that grader picks the root sandbox with warm kernels, grades a solved notebook, and a
    kernel finds neither the grader, its registry, specs and references, nor the course's other
    packages in the environment it installed into."""
    if not IS_ROOT:
        unavailable("the root sandbox needs root")
    wheel = course_wheel_file
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    pip = subprocess.run([python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", f"{wheel}[grader]"],
                         capture_output=True, text=True, timeout=900)
    assert pip.returncode == 0, pip.stderr[-2000:]
    batch = tmp_path / "class"
    expectations = make_cases.build(batch, only={"solved", "installed_grader", "isolation_probe"})
    proc = subprocess.run([python, "-m", "grading", str(batch), "--json", str(tmp_path / "r.json"),
                           "--key", str(key_file(tmp_path, 3))],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600 * slowdown())
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads((tmp_path / "r.json").read_text())
    isolation = report["grader"]["isolation"]
    assert isolation["mode"] == "root" and isolation["kernels"].startswith("forked"), isolation
    assert "sandbox does not work" not in proc.stderr
    for row in report["rows"]:
        case = pathlib.Path(row["submission"]).name
        expected = expectations[case][0].get(row["exercise"], "missing")
        assert row["status"] == expected, row
    installed = subprocess.run([python, "-c", "import grading, lib; print(grading.__file__)"],
                               cwd=tmp_path, capture_output=True, text=True, timeout=120).stdout
    assert str(venv) in installed                       # the grader that graded is the installed one


def test_root_mode_needs_its_user_namespace_unless_the_machine_allows_none(monkeypatch):
    """Root mode builds its sandboxes in a user namespace where no other can be made. If that namespace
    cannot be made, root mode is refused, unless the machine allows no user namespace at all; and even
    then bwrap checks at every start that none can be made (here one can: the sandbox refuses to start)."""
    if not IS_ROOT:
        unavailable("root mode needs root")

    def cannot(*args, **kwargs):
        raise SandboxError("a user namespace for the sandboxes could not be made: EPERM")
    monkeypatch.setattr(sandbox_module, "limited_user_namespace", cannot)
    monkeypatch.setattr(sandbox_module, "host_refuses_user_namespaces", lambda: "")
    with pytest.raises(SandboxError, match="could not be made"):
        Sandbox("root", cgroups=False)
    monkeypatch.setattr(sandbox_module, "host_refuses_user_namespaces", lambda: "this machine allows none (a test)")
    sandbox = Sandbox("root", cgroups=False, warm=False)
    try:
        assert "a test" in sandbox.describe()["user_namespaces"]
        with pytest.raises(SandboxError, match="not disabled"):
            sandbox.self_check()
    finally:
        sandbox.close()
