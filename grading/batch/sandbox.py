"""Where and how a student's kernel runs: isolation mode, file system, limits.

Every kernel runs in a sandbox of its own, built by bubblewrap (``bwrap``, the
Debian package ``bubblewrap``), the tool Flatpak uses; this module only says
what the sandbox holds (see :meth:`Sandbox.bwrap_options`).  Isolation modes
(``--isolation``; ``auto`` picks the strongest that passes a self-check):

``root``    the grader runs as root.  bwrap gives each kernel fresh network, PID,
            IPC, UTS, mount and cgroup namespaces and a root file system made of
            read-only binds and small tmpfs; inside it ``setpriv`` (util-linux)
            makes the kernel a fresh unprivileged uid that owns no file on the
            machine and no other process (one uid per kernel, from ``uid_range``,
            so RLIMIT_NPROC is per kernel), with no capability and no_new_privs.
            The namespaces belong to one user namespace of the grading run
            (:func:`limited_user_namespace`) that maps every uid to itself and in
            which no further user namespace can be made: what bwrap's
            ``--disable-userns`` does in userns mode, which bwrap cannot do for a
            sandbox whose kernel takes another uid.
``userns``  the grader is not root but unprivileged user namespaces work: the
            same sandbox inside a user namespace (``--disable-userns``); the kernel
            keeps the grader's uid and holds no capability.
``none``    no sandbox: the kernel is only a separate process group in a temporary
            folder with resource limits.  Its code can read the grader's files (the
            solutions too) and reach the network: for notebooks the instructor trusts
            only, and only when asked for by name.

Without a working sandbox, ``auto`` refuses to grade (:func:`open_sandbox`): it never
falls back to ``none`` by itself.  ``container`` is ``auto`` for a machine that is itself
a throwaway container holding one submission (Gradescope): there, and only there, no
sandbox means ``none``.

In every sandbox the kernel runs under a seccomp filter (seccomp_filter.py): new
namespaces, the mount calls, key rings, bpf, perf, userfaultfd, io_uring, ptrace,
kexec and the rest of Flatpak's list are refused.

In root mode the kernel itself is not started by bwrap but forked into the
sandbox from a warm Python (:class:`WarmStarter`, ``_warm.py``): bwrap builds the
same sandbox around a waiting process, whose namespaces the kernel enters; it
then becomes the fresh uid as setpriv would make it, and installs the same
seccomp filter.  ``warm=False`` (``--fresh-kernels``), userns mode, and a warm
start that fails its self-check start every kernel as a fresh Python.

bwrap's own PID 1 reaps orphans; when the kernel exits it exits, and Linux
kills whatever is left in the PID namespace.  ``--die-with-parent`` takes the
sandbox along when the grader dies, ``--new-session`` keeps the kernel off the
grader's terminal.

The repository, its ``solutions/``, the exercise registry, the grader, the
hidden cases and the other submissions are never inside the sandbox: it holds
the operating system (``/usr``, ``/etc`` with its host name, hosts and machine
id replaced), the Python installation and the virtual environment (read-only,
with the course's own packages covered, so that a grader installed from a wheel
shows a kernel what a checkout shows), *student-safe copies* of ``lib`` and
``grading`` under ``/course`` (see packages.py), an empty ``/tmp`` and the
kernel's I/O folder.  The host name is ``grading-sandbox``; SysV IPC objects
(shared memory, queues, semaphores) live in the sandbox's own IPC namespace and
die with it.

Each submission's kernels share one control group (see cgroups.py) when the
machine offers them: memory for all the submission's processes together, an
equal CPU share, a process cap.  bwrap is started inside the group, so every
process of the sandbox is in it.  :meth:`Sandbox.describe` says what was in force.
"""

import dataclasses
import glob
import importlib.util
import json
import os
import pathlib
import re
import resource
import secrets
import select
import shutil
import site
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from . import seccomp_filter
from .cgroups import Cgroups, describe_without_cgroups
from .packages import GRADING_DIR, LIB_DIR, build_blind_packages, build_student_packages, environment_copies

INSIDE_COURSE = "/course"         # the student-safe lib and grading, on the kernel's PYTHONPATH
INSIDE_IN = "/grader/in"          # read-only for the kernel: connection file, case inputs
INSIDE_IO = "/grader/io"          # writable by the kernel: sockets, results, log
INSIDE_WORK = "/tmp/work"
INSIDE_HOME = "/tmp/home"
HOSTNAME = "grading-sandbox"
BWRAP_VERSION = (0, 8)            # the size and mode of a tmpfs (--size, --perms), --disable-userns, --userns
INSTALL_HINT = ("install bubblewrap (Debian and Ubuntu: sudo apt install bubblewrap; "
                "Fedora: sudo dnf install bubblewrap)")
MODES = ("auto", "container", "root", "userns", "none")
NONE_WARNING = ("WARNING: --isolation none: no sandbox. Student code runs as your user: it can read your files "
                "(solutions included) and reach the network. Use it only for notebooks you trust.")
NO_SANDBOX = (
    "no sandbox works on this machine ({why}), so nothing was graded: students' notebooks are graded only "
    "inside a sandbox. To grade them, " + INSTALL_HINT + ", then run the grader as root (or as a user where "
    "unprivileged user namespaces are enabled). --isolation none grades without any sandbox: only for "
    "notebooks you trust (your own, a colleague's), since their code could read your files and the solutions "
    "and reach the network.")
CLONE_NEWUSER = 0x10000000
RUN_USERNS = "user.max_user_namespaces is 0 in the grading run's user namespace"


@dataclasses.dataclass
class Limits:
    memory_mb: int = 2048            # per submission (cgroup), and RLIMIT_AS of every process
    max_procs: int = 64              # per submission (cgroup pids), and RLIMIT_NPROC of the kernel's uid
    cpu_seconds: int = 600           # RLIMIT_CPU per process
    file_mb: int = 64                # RLIMIT_FSIZE: largest file the kernel may write
    tmp_mb: int = 256                # size of the sandbox's /tmp (a tmpfs)
    io_mb: int = 96                  # size of its /grader/io (sockets, results, log; a tmpfs)
    shm_mb: int = 64                 # size of its /dev/shm (a tmpfs)
    open_files: int = 1024           # RLIMIT_NOFILE
    address_space_mb: int = 0        # RLIMIT_AS of every process, if not memory_mb

    def rlimits(self):
        return {
            "AS": (self.address_space_mb or self.memory_mb) * 1024 * 1024,
            "NPROC": self.max_procs,
            "CPU": self.cpu_seconds,
            "FSIZE": self.file_mb * 1024 * 1024,
            "NOFILE": self.open_files,
            "CORE": 0,
        }


class SandboxError(RuntimeError):
    """The sandbox cannot be set up on this machine (a grader problem, not a student's)."""


def bwrap_problem():
    """Why bwrap cannot build the sandbox here (not installed, or older than BWRAP_VERSION), or None."""
    bwrap = shutil.which("bwrap")
    if not bwrap:
        return f"bubblewrap is not installed; {INSTALL_HINT}"
    try:
        said = subprocess.run([bwrap, "--version"], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=20).stdout.strip()
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap --version failed: {exc}"
    found = re.search(r"(\d+)\.(\d+)", said)
    if found is None or tuple(map(int, found.groups())) < BWRAP_VERSION:
        return (f"{said or 'this bwrap'} is too old: the sandbox needs bubblewrap "
                f"{'.'.join(map(str, BWRAP_VERSION))} or newer (Debian 12, Ubuntu 24.04)")
    return None


def userns_available():
    """(True, "") when bwrap can build a sandbox in a user namespace here, else (False, why)."""
    problem = bwrap_problem()
    if problem is not None:
        return False, problem
    try:
        proc = subprocess.run([shutil.which("bwrap"), "--unshare-user", "--unshare-pid", "--unshare-net",
                               "--die-with-parent", "--ro-bind", "/", "/", "--", "true"],
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    return proc.returncode == 0, proc.stderr.decode(errors="replace").strip()


def choose_isolation(requested="auto"):
    """The sandboxes to try for ``requested`` (one of :data:`MODES`), strongest first: ``(modes,
    why)``, where ``why`` says what rules the stronger ones out.  ``auto`` and ``container`` name
    no mode that is not available here, and never ``none``: :func:`open_sandbox` decides what
    happens when none of them works.  An explicit ``root`` or ``userns`` that cannot work here
    raises SandboxError with the reason."""
    if requested not in MODES:
        raise SandboxError(f"unknown isolation mode {requested!r} (expected one of {', '.join(MODES)})")
    if requested == "none":
        return ["none"], ""
    is_root = os.geteuid() == 0
    if requested == "root" and not is_root:
        raise SandboxError("--isolation root needs the grader to run as root")
    modes, why = [], ""
    if is_root and requested != "userns":
        why = bwrap_problem() or ("" if shutil.which("setpriv") else "setpriv (util-linux) is not installed")
        if not why:
            modes.append("root")
        elif requested == "root":
            raise SandboxError(f"--isolation root: {why}")
    if requested != "root":
        ok, problem = userns_available()
        if ok:
            modes.append("userns")
        elif requested == "userns":
            raise SandboxError(f"bubblewrap cannot build a sandbox in a user namespace here ({problem})")
        else:
            why = why or problem or "bubblewrap failed"
    return modes, why


def open_sandbox(isolation, limits, keep_temp=False, log=print, uid_base=None, cgroups=True, jobs=1,
                 warm_start=True, warn=None):
    """A working Sandbox: the requested isolation, or for ``auto`` (and ``container``) the strongest
    that passes a self-check.  It fails closed: when no sandbox works, ``auto`` raises SandboxError
    (:data:`NO_SANDBOX`, which says how to install one) before anything is graded; only an explicit
    ``none``, or ``container`` on a machine without a sandbox, grades unsandboxed, with a warning.
    ``log`` says what happens on the way; ``warn`` (``log`` if not given) gets the warnings that a batch
    graded without a sandbox must always show, even under ``--quiet``.  Whatever goes wrong or is
    interrupted here, no temporary folder is left behind."""
    uids = UidPool(uid_base, 1_000_000) if uid_base else None
    modes, why = choose_isolation(isolation)
    failed = [why] if why else []
    for mode in modes:
        sandbox = None
        try:
            sandbox = Sandbox(mode, limits, keep=keep_temp, uid_pool=uids, cgroups=cgroups, jobs=jobs,
                              warm=warm_start)
            sandbox.self_check()
        except SandboxError as exc:
            if sandbox is not None:
                sandbox.close()
            if isolation in ("root", "userns"):
                raise
            failed.append(f"{mode}: {exc}")
            log(f"grader: {exc}; trying a weaker sandbox" if mode != modes[-1] else f"grader: {exc}")
            continue
        except BaseException:
            if sandbox is not None:
                sandbox.close()
            raise
        if mode == "none":
            (warn or log)(NONE_WARNING)
        return sandbox
    why = "; ".join(failed) or "no sandbox was found"
    if isolation != "container":
        raise SandboxError(NO_SANDBOX.format(why=why))
    (warn or log)(f"WARNING: --isolation container: no sandbox works here ({why}); grading without one, in this "
        "container, which must hold this one submission and nothing to protect.")
    return Sandbox("none", limits, keep=keep_temp, uid_pool=uids, cgroups=cgroups, jobs=jobs, warm=False,
                   why=f"--isolation container, and no sandbox works here: {why}")


class UidPool:
    """Fresh uids for kernels (root mode): one per kernel, never reused by a live kernel."""

    def __init__(self, first=1_900_000_000, count=90_000_000):
        self.first, self.count = first, count
        self._lock = threading.Lock()
        self._live = set()

    def take(self):
        with self._lock:
            while True:
                uid = self.first + secrets.randbelow(self.count)
                if uid not in self._live:
                    self._live.add(uid)
                    return uid

    def give_back(self, uid):
        with self._lock:
            self._live.discard(uid)


LIMITED_USERNS = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
if libc.unshare(0x10000000) != 0:
    sys.exit("unshare(CLONE_NEWUSER): " + os.strerror(ctypes.get_errno()))
print("made", flush=True)
sys.stdin.readline()                                  # the grader writes the uid and gid maps
with open("/proc/sys/user/max_user_namespaces", "w") as f:
    f.write("0")
print("limited", flush=True)
sys.stdin.read()                                      # the grader holds the namespace open by now
"""


def limited_user_namespace(timeout=20):
    """An open descriptor of a new user namespace (root mode) in which every uid and gid maps to
    itself and ``user.max_user_namespaces`` is 0.

    Root mode's sandboxes are built in it (``bwrap --userns FD``): a kernel keeps its fresh uid
    (the same number on the host), owns nothing, holds no capability there either, and cannot
    create a user namespace (the limit counts in every namespace above the one made) nor raise
    the limit (that takes CAP_SYS_RESOURCE in this namespace).  bwrap checks it at every start
    (``--assert-userns-disabled``).  The namespace is made by a short helper process (the
    grader may run threads, so it does not fork itself); the descriptor keeps it alive after the
    helper ends."""
    helper = subprocess.Popen([sys.executable, "-I", "-S", "-c", LIMITED_USERNS], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        def said(expected):
            ready, _, _ = select.select([helper.stdout], [], [], timeout)
            line = helper.stdout.readline().strip() if ready else ""
            if line != expected:
                helper.kill()
                helper.wait()
                raise SandboxError("a user namespace for the sandboxes could not be made: "
                                   f"{helper.stderr.read().strip() or line or 'no answer'}")
        said("made")
        for name in ("uid_map", "gid_map"):
            with open(f"/proc/{helper.pid}/{name}", "w") as f:
                f.write("0 0 4294967295\n")
        helper.stdin.write("maps written\n")
        helper.stdin.flush()
        said("limited")
        fd = os.open(f"/proc/{helper.pid}/ns/user", os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        helper.kill()
        raise SandboxError(f"a user namespace for the sandboxes could not be made: {exc}") from None
    finally:
        if helper.poll() is None:
            helper.stdin.close()
        helper.wait()
        helper.stdout.close()
        helper.stderr.close()
    return fd


def host_refuses_user_namespaces():
    """Why no process of this machine can make a user namespace, or "" if one can."""
    if not os.path.exists("/proc/self/ns/user"):
        return "this kernel has no user namespaces"
    try:
        with open("/proc/sys/user/max_user_namespaces") as f:
            if f.read().strip() == "0":
                return "this machine allows none (user.max_user_namespaces = 0)"
    except OSError:
        pass
    return ""


class WarmStarter:
    """The warm interpreter of a grading run (``_warm.py``): kernels forked from it into the
    sandboxes bwrap builds, instead of a fresh Python each (root mode).

    A fresh kernel spends about 0.27 s of CPU importing IPython, ipykernel and NumPy before it
    runs a line; a forked one starts from those imports.  The interpreter is a script read
    from a pipe, so that its command line names no file of the grader, and it never imports
    ``lib`` or ``grading``: a kernel's memory holds nothing of the grader's.  End of its stdin
    (the grader closing it, or dying) ends it."""

    def __init__(self, python, env, log, timeout=60):
        self.python, self.env, self.log, self.timeout = python, env, log, timeout
        self.restarts = 0                  # times it ended (killed, say) and was started again
        self._lock = threading.Lock()
        self.proc = None
        self._spawn()

    def _spawn(self):
        script = os.open(pathlib.Path(__file__).with_name("_warm.py"), os.O_RDONLY)
        try:
            with open(self.log, "ab") as errors:
                self.proc = subprocess.Popen(
                    [self.python, "-c", f"import os; code = os.read({script}, 1 << 20); os.close({script}); "
                                        "exec(compile(code, 'grading-warm-start', 'exec'))"],
                    env=self.env, cwd="/", stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors,
                    pass_fds=(script,), start_new_session=True, text=True)
        finally:
            os.close(script)
        ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line.startswith('{"ready"'):
            self.close()
            said = pathlib.Path(self.log).read_text(errors="replace")[-800:] or "no answer"
            raise SandboxError(f"the warm interpreter did not start: {line.strip() or said.strip()}")

    def start(self, request, timeout=30):
        """Fork a kernel into the sandbox of ``request['holder']``; returns the forking child's PID.
        An interpreter that has ended, or does not answer within ``timeout`` s, is started again
        (once per request)."""
        with self._lock:
            for attempt in range(2):
                if self.proc.poll() is not None:
                    self.restarts += 1
                    self._spawn()
                try:
                    self.proc.stdin.write(json.dumps(request) + "\n")
                    self.proc.stdin.flush()
                    ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
                    line = self.proc.stdout.readline() if ready else ""
                except (OSError, ValueError):              # a broken pipe: it has ended
                    line = ""
                if line:
                    break
                self.proc.kill()
                self.proc.wait()
            else:
                raise SandboxError("the warm interpreter did not answer, twice")
        answer = json.loads(line)
        if "error" in answer:
            raise SandboxError(f"the warm interpreter refused a kernel: {answer['error']}")
        return answer["pid"]

    def close(self):
        if self.proc is None:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def exit_status(kdir):
    """The exit status a warm start's forking child wrote for the kernel of ``kdir`` ("" before)."""
    try:
        said = (pathlib.Path(kdir) / "exit").read_text()
    except OSError:
        return ""
    return said if said.isdigit() else ""


def waiting_process(proc, deadline):
    """{"holder": host PID, "holder_started": start time} of the waiting process of a warm sandbox
    (:class:`WarmStarter`) that the bwrap ``proc`` builds, once bwrap has started it (the file
    system is then complete); SandboxError if it never does."""
    while True:
        for pid1 in children(proc.pid):
            for pid in children(pid1):
                try:
                    with open(f"/proc/{pid}/stat") as f:
                        name, fields = f.read().split(" (", 1)[1].rsplit(")", 1)
                    if name == "sleep":
                        return {"holder": pid, "holder_started": int(fields.split()[19])}
                except (OSError, IndexError, ValueError):
                    pass
        if proc.poll() is not None:
            raise SandboxError(f"bwrap ended with status {proc.returncode}")
        if time.monotonic() > deadline:
            raise SandboxError("the sandbox's waiting process never started")
        time.sleep(0.002)


def children(pid):
    """Direct children of ``pid`` (bwrap's child is PID 1 of the sandbox)."""
    out = []
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


@dataclasses.dataclass(frozen=True)
class OpenFile:
    """An argument of bwrap that is a file descriptor (``--seccomp FD``, ``--userns FD``):
    :meth:`Sandbox.spawn` opens ``path`` for each process it starts (bwrap reads a filter from
    its descriptor's offset, so no two processes share one) and passes the number."""
    path: str


@dataclasses.dataclass
class Launch:
    """How to start one kernel (:meth:`Sandbox.launch_command`): the process to spawn, and for a
    warm start the request that forks the kernel into the sandbox that process builds."""
    argv: list                       # may hold OpenFile items
    env: dict
    cwd: str
    preexec: object                  # run in the child before exec: rlimits, control group
    mode: str                        # root, userns or none
    uid: int                         # the kernel's uid
    inside_io: str                   # the kernel's I/O folder as the kernel sees it
    inside_in: str                   # its read-only input folder as the kernel sees it
    warm: dict = None                # the WarmStarter request (root mode, warm kernels), else None


SELF_CHECK = '''
import ctypes, os, socket, sys
status = open("/proc/self/status").read()
problems = []
def expect(ok, problem):
    if not ok:
        problems.append(problem)
expect({user_ok}, "runs as uid %d" % os.geteuid())
expect("\\nCapEff:\\t0000000000000000\\n" in status, "holds capabilities")
expect("\\nNoNewPrivs:\\t1\\n" in status, "could gain privileges (no_new_privs is not set)")
expect("\\nSeccomp:\\t2\\n" in status, "runs without the seccomp filter")
expect(ctypes.CDLL(None, use_errno=True).unshare({newuser}) != 0, "can create a user namespace")
expect(os.path.isdir("{io}") and os.path.isdir("{course}/grading"), "misses its folders")
expect(not os.path.exists("{course}/grading/batch"), "finds the grader in {course}")
expect(not os.path.exists("{grading}/batch") and not os.path.exists("{grading}/registry.py"),
       "finds the grader where it is installed ({grading})")
expect(socket.gethostname() == "{host}", "has the machine's host name")
if problems:
    sys.stderr.write("the kernel " + "; ".join(problems) + "\\n")
    sys.exit(7)
'''


class Sandbox:
    """Shared setup of one grading run: temp folder, student packages, isolation mode, control
    groups, the seccomp filter and (root mode) the run's user namespace."""

    def __init__(self, mode, limits=None, tmp_parent=None, uid_pool=None, python=None, keep=False,
                 cgroups=True, jobs=1, warm=True, why=None):
        self.mode = mode
        self.why = why or ("--isolation none: for trusted notebooks only" if mode == "none" else "")
        # kernels forked from a warm interpreter (root mode; started by self_check, see WarmStarter)
        self.warm = None
        self.warm_note = "not requested" if not warm else ("only in root mode" if mode != "root" else "")
        self.limits = limits or Limits()
        self.keep = keep
        self.python = python or sys.executable
        self.cgroups = None
        self.userns_fd = None            # root mode: the user namespace every sandbox is built in
        self._starter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kernel-starter")   # see spawn
        self.tmp = pathlib.Path(_short_tempdir(tmp_parent))
        try:                             # interrupted or failing half-way: nothing is left behind
            self.tmp.chmod(0o755)
            self.student_root = self.tmp / "student"
            build_student_packages(self.student_root)
            self.empty_folder = self.tmp / "empty"
            self.empty_folder.mkdir(mode=0o755)
            self.uids = uid_pool or UidPool()
            self.bwrap, self.setpriv, self.shell = shutil.which("bwrap"), shutil.which("setpriv"), shutil.which("sh")
            self.sleep = shutil.which("sleep")
            self.live = set()                # kernels started and not yet killed (see kill_all)
            self._packages = {frozenset(): self.student_root}   # withheld sites -> packages root (blind.py)
            self._counter = 0
            self._lock = threading.Lock()
            self.seccomp_path = self.tmp / "seccomp.bpf"
            if mode != "none":
                if not self.bwrap:
                    raise SandboxError(f"the {mode} sandbox needs bwrap: {INSTALL_HINT}")
                try:
                    self.seccomp_path.write_bytes(seccomp_filter.program())
                except seccomp_filter.UnsupportedMachine as exc:
                    raise SandboxError(str(exc)) from None
                self.seccomp_path.chmod(0o644)
            self.userns_note = ""
            if mode == "root":
                try:
                    self.userns_fd = limited_user_namespace()
                except SandboxError as exc:
                    # a machine that allows no user namespace at all (user.max_user_namespaces = 0, or a
                    # kernel without them) refuses them to every kernel already: the sandboxes go without
                    self.userns_note = host_refuses_user_namespaces()
                    if not self.userns_note:
                        raise exc

            self.cgroup_note = "not requested" if not cgroups else ""
            if cgroups and mode != "none":
                found = Cgroups(self.limits.memory_mb, self.limits.max_procs, jobs)
                if found.version is None:
                    self.cgroup_note = found.why
                else:
                    self.cgroups = found
            elif cgroups:
                self.cgroup_note = "no sandbox (isolation none) to put processes in"
        except BaseException:
            self.close()
            raise

    def packages_for(self, sites):
        """The folder holding the ``lib`` and ``grading`` a kernel gets when ``sites`` (see
        blind.py) are withheld: built once per batch for each distinct set."""
        sites = frozenset(sites)
        with self._lock:
            if sites not in self._packages:
                dest = self.tmp / f"withheld-{len(self._packages)}"
                build_blind_packages(self.student_root, dest, sites)
                self._packages[sites] = dest
            return self._packages[sites]

    def new_group(self):
        """A control group for one submission (None without cgroups)."""
        return self.cgroups.new_group() if self.cgroups is not None else None

    def describe(self):
        """The isolation in force, for the report (stable strings)."""
        namespaces = {"root": ["user", "mount", "pid", "net", "ipc", "uts"],
                      "userns": ["user", "mount", "pid", "net", "ipc", "uts"], "none": []}[self.mode]
        limits = (self.cgroups.describe() if self.cgroups is not None else
                  describe_without_cgroups(self.limits.memory_mb, self.limits.max_procs, self.cgroup_note))
        sandboxed = self.mode != "none"
        return {
            "mode": self.mode,
            **({} if sandboxed else {"unsandboxed": self.why}),
            "namespaces": namespaces,
            "file_system": ("bubblewrap: the Python environment read-only (the course's packages in it covered), "
                            "/course (student-safe lib and grading), /tmp and /grader/io as small tmpfs; no "
                            "repository, solutions, grader or other submission") if sandboxed
            else "none: the kernel sees the grader's files",
            "user": {"root": "a fresh unprivileged uid per kernel, no capabilities, no_new_privs",
                     "userns": "the grader's uid in a user namespace, no capabilities, no_new_privs",
                     "none": "the grader's own user"}[self.mode],
            "user_namespaces": {
                "root": f"none can be made: {self.userns_note or RUN_USERNS} (checked by bwrap at every start), "
                        "and the seccomp filter refuses them",
                "userns": "none can be made: bwrap --disable-userns, and the seccomp filter refuses them",
                "none": "whatever the machine allows"}[self.mode],
            "seccomp": seccomp_filter.describe() if sandboxed else "none",
            "kernels": self._describe_kernels(),
            "network": "none (own network namespace)" if sandboxed else "the host's",
            "hostname": HOSTNAME if sandboxed else "the host's",
            "ipc": "own IPC namespace, removed with the sandbox" if sandboxed else "the host's",
            **limits,
        }

    def _describe_kernels(self):
        if self.warm is not None:
            return "forked from a warm Python into each sandbox's namespaces (setns), then unprivileged"
        if self.mode == "root":
            return f"a fresh Python in each sandbox (no warm start: {self.warm_note})"
        return "a fresh Python in each sandbox" if self.mode != "none" else "a fresh Python each"

    def kill_all(self):
        """SIGKILL every live kernel now (the grader was interrupted); their threads clean up."""
        with self._lock:
            kernels = list(self.live)
        for kernel in kernels:
            kernel.terminate()

    def close(self):
        try:
            self._starter.shutdown()
            if self.warm is not None:
                self.warm.close()
            if self.cgroups is not None:
                self.cgroups.close()
            if self.userns_fd is not None:
                os.close(self.userns_fd)
                self.userns_fd = None
        finally:
            if not self.keep:
                shutil.rmtree(self.tmp, ignore_errors=True)

    # -- starting kernel processes -------------------------------------------

    def spawn(self, kdir, launch):
        """Start the process of a kernel prepared by :meth:`launch_command`.  In a sandbox, its
        stdout and stderr (kdir/bootstrap.log) carry only what bwrap and setpriv say: the kernel's
        own output goes to the sandbox's /grader/io/kernel.log.

        Every kernel is started from one thread that lives as long as the sandbox: bwrap's
        --die-with-parent kills the sandbox when the *thread* that started it ends, and a
        kernel started ahead (runner.Prestart) is started by a thread that ends at once."""
        def start():
            fds = []
            try:
                argv = []
                for arg in launch.argv:
                    if isinstance(arg, OpenFile):
                        fds.append(os.open(arg.path, os.O_RDONLY | os.O_CLOEXEC))
                        arg = str(fds[-1])
                    argv.append(arg)
                log = kdir / "io" / "kernel.log" if self.mode == "none" else kdir / "bootstrap.log"
                with open(log, "wb") as out:
                    return subprocess.Popen(argv, env=launch.env, cwd=launch.cwd, stdin=subprocess.DEVNULL,
                                            stdout=out, stderr=out, start_new_session=True,
                                            preexec_fn=launch.preexec, close_fds=True, pass_fds=fds)
            finally:
                for fd in fds:
                    os.close(fd)
        return self._starter.submit(start).result()

    def fork_in(self, proc, launch, deadline):
        """A warm start: fork the kernel of ``launch`` into the sandbox the bwrap ``proc`` builds,
        once its waiting process runs; SandboxError if that cannot be done."""
        self.warm.start({**launch.warm, **waiting_process(proc, deadline)})

    def new_kernel_dir(self):
        with self._lock:
            self._counter += 1
            n = self._counter
        kdir = self.tmp / f"k{n}"
        for sub in ("in", "io", "etc"):
            (kdir / sub).mkdir(parents=True)
        kdir.chmod(0o755)
        (kdir / "in").chmod(0o755)
        # what the sandbox's /etc says about the machine: nothing
        for name, text in (("hostname", f"{HOSTNAME}\n"), ("hosts", f"127.0.0.1 localhost {HOSTNAME}\n"),
                           ("machine-id", "0" * 32 + "\n"), ("mailname", f"{HOSTNAME}\n"), ("empty", "")):
            (kdir / "etc" / name).write_text(text)
            (kdir / "etc" / name).chmod(0o644)
        return kdir

    # -- the sandbox: what bwrap builds --------------------------------------

    def bwrap_options(self, kdir, packages=None, warm=False):
        """bwrap's options for a kernel of ``kdir``: namespaces, the seccomp filter, then the file
        system in mount order, fresh file systems first, so that a bind below /tmp (a virtual
        environment in /tmp, say) is not hidden by them.  ``packages``: the folder whose ``lib``
        and ``grading`` the kernel gets (default: the student-safe copies; see :meth:`packages_for`)."""
        packages = pathlib.Path(packages or self.student_root)
        mib = 1024 * 1024
        options = ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
                   "--hostname", HOSTNAME, "--die-with-parent", "--new-session"]
        if self.mode == "userns":
            options += ["--unshare-user", "--disable-userns", "--cap-drop", "ALL"]
        else:
            # root: the run's user namespace, where no other can be made (limited_user_namespace)
            if self.userns_fd is not None:
                options += ["--userns", OpenFile(f"/proc/self/fd/{self.userns_fd}")]
            options += ["--assert-userns-disabled"]
            if warm:    # the waiting process of a warm start: no capability (the kernel drops its own)
                options += ["--cap-drop", "ALL"]
            else:       # bwrap keeps only what setpriv needs to become the kernel's uid, then drops it
                options += ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
        options += ["--seccomp", OpenFile(str(self.seccomp_path))]
        for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"):
            if os.path.islink(top):
                options += ["--symlink", os.readlink(top), top]
            elif os.path.isdir(top):
                options += ["--ro-bind", top, top]
        options += ["--proc", "/proc", "--dev", "/dev",
                    "--size", str(self.limits.shm_mb * mib), "--perms", "1777", "--tmpfs", "/dev/shm",
                    "--size", str(self.limits.tmp_mb * mib), "--perms", "1777", "--tmpfs", "/tmp"]
        covered = [top for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32")
                   if os.path.isdir(top) and not os.path.islink(top)]
        for path in _python_dirs():
            if not any(path == c or path.startswith(c + "/") for c in covered):
                options += [*_parent_dirs(path, covered), "--ro-bind", path, path]
                covered.append(path)
        # the grader never debugs a kernel: with an empty folder over debugpy, ipykernel offers no
        # debugger and starts about a third faster (it skips importing debugpy)
        debugpy = _package_folder("debugpy")
        if debugpy is not None:
            options += ["--ro-bind", str(self.empty_folder), debugpy]
        # an editable install of the course records where the repository is: not for the kernel's eyes
        for trace in _install_traces():
            options += ["--ro-bind", str(kdir / "etc" / "empty"), trace]
        if os.path.isdir("/etc") and not os.path.islink("/etc"):
            for name in ("hostname", "hosts", "machine-id", "mailname"):
                if os.path.isfile(f"/etc/{name}") and not os.path.islink(f"/etc/{name}"):
                    options += ["--ro-bind", str(kdir / "etc" / name), f"/etc/{name}"]
        # the course's packages installed in the environment (the grader itself, when installed from a wheel)
        # are covered by what the kernel may see: the same lib and grading as under /course, else nothing
        for package, path in environment_copies():
            source = packages / package if package in ("lib", "grading") else self.empty_folder
            options += ["--ro-bind", str(source), path]
        options += [
            # folders bwrap makes on the way get the grader's umask: these two must be readable
            *("--perms", "0755", "--dir", INSIDE_COURSE, "--perms", "0755", "--dir", os.path.dirname(INSIDE_IN)),
            "--ro-bind", str(packages / "lib"), f"{INSIDE_COURSE}/lib",
            "--ro-bind", str(packages / "grading"), f"{INSIDE_COURSE}/grading",
            "--perms", "0777", "--dir", INSIDE_WORK,
            "--perms", "0777", "--dir", INSIDE_HOME,
            "--ro-bind", str(kdir / "in"), INSIDE_IN,
            # sockets, results and the kernel's log: a small tmpfs inside the sandbox, so that no amount
            # of writing reaches the host's disk; the grader reads it through /proc/<PID 1>/root
            # (see Kernel.io_path)
            "--size", str(self.limits.io_mb * mib), "--perms", "0777", "--tmpfs", INSIDE_IO,
            "--remount-ro", "/", "--chdir", INSIDE_WORK,
        ]
        return options

    def kernel_env(self, lang=None):
        home = INSIDE_HOME if self.mode != "none" else None
        env = {
            "PATH": f"{pathlib.Path(sys.prefix) / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONNOUSERSITE": "1",
            "USER": "student", "LOGNAME": "student",
            "MPLBACKEND": "Agg",
            "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
            "MALLOC_ARENA_MAX": "2",
            "PYDEVD_DISABLE_FILE_VALIDATION": "1",
        }
        if home:
            env.update({"HOME": home, "MPLCONFIGDIR": f"{home}/.mpl", "IPYTHONDIR": f"{home}/.ipython",
                        "JUPYTER_CONFIG_DIR": f"{home}/.jupyter", "JUPYTER_DATA_DIR": f"{home}/.jupyter/data",
                        "JUPYTER_RUNTIME_DIR": f"{home}/.jupyter/runtime",
                        # the notebook's folder first, as the grader's kernels always had it (a module the
                        # notebook writes there wins over the standard library's one), then the student-safe
                        # lib and grading; ipykernel_launcher alone puts the folder after the standard library
                        "PYTHONPATH": f"{INSIDE_WORK}:{INSIDE_COURSE}"})
        if lang:
            env["COURSE_LANG"] = lang
        return env

    def kernel_argv(self, connection_file):
        return [self.python, "-m", "ipykernel_launcher", "-f", connection_file,
                "--HistoryManager.enabled=False", "--IPKernelApp.quiet=True"]

    def launch_command(self, kdir, lang=None, group=None, packages=None, command=None):
        """The :class:`Launch` of a kernel for ``kdir`` in control ``group``, with the ``lib`` and
        ``grading`` of the folder ``packages`` (default: the student-safe copies).  ``command``
        replaces the kernel's argv (the self-check); its output goes to kdir/bootstrap.log."""
        if self.mode == "none":
            return self._launch_unsandboxed(kdir, lang, packages)
        uid = self.uids.take() if self.mode == "root" else os.getuid()
        rlimits = self.limits.rlimits()
        if self.warm is not None:         # a waiting process; the kernel is forked into it (WarmStarter)
            env = self.kernel_env(lang)
            request = {"uid": uid, "status": str(kdir / "exit"), "log": str(kdir / "bootstrap.log"),
                       "procs": list(group.procs_files) if group else [], "rlimits": rlimits, "env": env,
                       "cwd": INSIDE_WORK, "seccomp": str(self.seccomp_path),
                       **({"command": command} if command else
                          {"argv": self.kernel_argv(f"{INSIDE_IN}/kernel.json")[3:],
                           "kernel_log": f"{INSIDE_IO}/kernel.log"})}
            return Launch([self.bwrap, *self.bwrap_options(kdir, packages, warm=True), "--", self.sleep, "infinity"],
                          {"PATH": env["PATH"]}, str(kdir), _limit_and_join({}, group), self.mode, uid, INSIDE_IO,
                          INSIDE_IN, warm=request)
        argv = [self.bwrap, *self.bwrap_options(kdir, packages), "--"]
        if self.mode == "root":
            argv += [self.setpriv, f"--reuid={uid}", f"--regid={uid}", "--clear-groups",
                     "--inh-caps=-all", "--bounding-set=-all", "--no-new-privs", "--"]
        if command:
            argv += command
        else:             # the kernel's output goes to the sandbox's own log, never to the grader's disk
            argv += [self.shell, "-c", f'exec "$@" </dev/null >{INSIDE_IO}/kernel.log 2>&1', "kernel",
                     *self.kernel_argv(f"{INSIDE_IN}/kernel.json")]
        if self.mode == "userns":         # the grader's uid: leave room for the processes it already runs
            rlimits["NPROC"] += _count_processes_of(os.getuid())
        return Launch(argv, self.kernel_env(lang), str(kdir), _limit_and_join(rlimits, group), self.mode, uid,
                      INSIDE_IO, INSIDE_IN)

    def _launch_unsandboxed(self, kdir, lang, packages=None):
        io_dir, in_dir = kdir / "io", kdir / "in"
        work = kdir / "work"
        home = kdir / "home"
        for d in (work, home):
            d.mkdir()
        env = self.kernel_env(lang)
        env.update({"HOME": str(home), "MPLCONFIGDIR": str(home / ".mpl"), "IPYTHONDIR": str(home / ".ipython"),
                    "JUPYTER_CONFIG_DIR": str(home / ".jupyter"), "JUPYTER_DATA_DIR": str(home / "data"),
                    "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
                    "PYTHONPATH": f"{work}:{packages or self.student_root}"})
        rlimits = self.limits.rlimits()
        # RLIMIT_NPROC counts every process of the uid: leave room for the ones already running.
        rlimits["NPROC"] += _count_processes_of(os.getuid())
        return Launch(self.kernel_argv(str(in_dir / "kernel.json")), env, str(work), _limit_and_join(rlimits, None),
                      "none", os.getuid(), str(io_dir), str(in_dir))

    def self_check(self):
        """Start a sandbox once with a trivial command; raise SandboxError if it fails.

        With control groups, the test sandbox joins one; if that fails the batch
        goes on without them (and the report says why)."""
        if self.mode == "none":
            return
        problem = self._try_sandbox(self.new_group())
        if problem is not None and self.cgroups is not None:
            self.cgroup_note = f"{self.cgroups.version} found, but a sandbox could not join it ({problem})"
            self.cgroups.close()
            self.cgroups = None
            problem = self._try_sandbox(None)
        if problem is not None:
            raise SandboxError(f"the {self.mode} sandbox does not work on this machine: {problem}")
        if self.mode == "root" and not self.warm_note:
            self.start_warm()

    def start_warm(self):
        """Start the warm interpreter and check a kernel forked from it into a sandbox; without
        it (it fails here, say) every kernel is a fresh Python, and the report says why."""
        try:
            self.warm = WarmStarter(self.python, {k: v for k, v in self.kernel_env().items() if k != "PYTHONPATH"},
                                    self.tmp / "warm.log")
        except (OSError, SandboxError) as exc:
            self.warm_note = str(exc)
            return
        group = self.new_group()
        problem = self._try_sandbox(group)
        if problem is not None:
            self.warm_note = f"a kernel forked into the sandbox failed its check ({problem})"
            self.warm.close()
            self.warm = None

    def _try_sandbox(self, group, timeout=30):
        """Run :data:`SELF_CHECK` as a kernel would run (fresh, or forked from the warm Python when
        there is one): None if it passes, else what went wrong."""
        kdir = self.new_kernel_dir()
        user_ok = "os.geteuid() != 0" if self.mode == "root" else f"os.geteuid() == {os.getuid()}"
        check = SELF_CHECK.format(user_ok=user_ok, newuser=CLONE_NEWUSER, io=INSIDE_IO, course=INSIDE_COURSE,
                                  grading=GRADING_DIR, host=HOSTNAME)
        launch = self.launch_command(kdir, group=group, command=[self.python, "-I", "-S", "-c", check])
        proc = None
        try:
            deadline = time.monotonic() + timeout
            proc = self.spawn(kdir, launch)
            if launch.warm is not None:
                self.fork_in(proc, launch, deadline)
                while not exit_status(kdir) and proc.poll() is None:      # the sandbox outlives the command
                    if time.monotonic() > deadline:
                        return "the sandbox self-check timed out"
                    time.sleep(0.01)
                code = int(exit_status(kdir) or proc.returncode)
            else:
                code = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return "the sandbox self-check timed out"
        except SandboxError as exc:
            return str(exc)
        finally:
            if proc is not None and proc.poll() is None:
                proc.kill()
                proc.wait()
            if self.mode == "root":
                self.uids.give_back(launch.uid)
            if group is not None:
                group.remove()
                self.cgroups.groups.remove(group)
            said = (kdir / "bootstrap.log").read_text(errors="replace").strip()
            shutil.rmtree(kdir, ignore_errors=True)
        if code == 0:
            return None
        return said[-500:] or f"exit status {code}"


def _package_folder(name):
    """The folder of the installed package ``name`` (found without importing it), or None."""
    spec = importlib.util.find_spec(name)
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    return folders[0] if folders else None


def _parent_dirs(path, covered):
    """bwrap options making the parents of the mount point ``path`` that no bind in ``covered``
    holds: bwrap would make them mode 0700, closed to the kernel's uid."""
    missing = []
    parent = os.path.dirname(path)
    while parent != "/" and not any(parent == c or parent.startswith(c + "/") for c in covered):
        missing.append(parent)
        parent = os.path.dirname(parent)
    return [option for folder in reversed(missing) for option in ("--perms", "0755", "--dir", folder)]


def _limit_and_join(rlimits, group):
    """The function that runs in the forked child before bwrap (or, unsandboxed, the kernel) starts:
    resource limits, and the submission's control group, which every later process inherits."""
    procs_files = group.procs_files if group is not None else []

    def preexec():
        for name, value in rlimits.items():
            resource.setrlimit(getattr(resource, "RLIMIT_" + name), (value, value))
        for path in procs_files:
            with open(path, "w") as f:
                f.write("0")
    return preexec


def _install_traces():
    """Files of the Python environment that name the repository's folder (an editable install's
    finder, .pth and direct_url.json): each is covered by an empty file inside the sandbox."""
    global _TRACES
    if _TRACES is None:
        roots = {str(LIB_DIR.parent), str(GRADING_DIR.parent)}
        found = []
        for folder in dict.fromkeys(site.getsitepackages() + [p for p in sys.path if p.endswith("site-packages")]):
            candidates = glob.glob(os.path.join(folder, "__editable__*")) + glob.glob(os.path.join(folder, "*.pth")) \
                + glob.glob(os.path.join(folder, "*.dist-info", "direct_url.json"))
            for path in candidates:
                try:
                    if os.path.isfile(path) and os.path.getsize(path) < 1 << 20:
                        text = open(path, encoding="utf-8", errors="replace").read()
                        if os.path.basename(path).startswith("__editable__") or any(r in text for r in roots):
                            found.append(os.path.realpath(path))
                except OSError:
                    continue
        _TRACES = sorted(set(found))
    return _TRACES


_TRACES = None


def _python_dirs():
    """Folders the kernel's Python needs: venv, base installation, real executable."""
    paths = []
    for p in (sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix,
              os.path.dirname(os.path.dirname(os.path.realpath(sys.executable)))):
        for q in (p, os.path.realpath(p)):
            if q and q != "/" and q not in paths:
                paths.append(q)
    # the shortest first, so that a bind never hides a later one
    paths.sort(key=len)
    out = []
    for p in paths:
        if not any(p == o or p.startswith(o + "/") for o in out):
            out.append(p)
    return out


def _count_processes_of(uid):
    n = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid == uid:
                    n += 1
            except OSError:
                pass
    return n * 4           # threads count too; be generous


def _short_tempdir(parent=None):
    # ipc socket paths must stay under 107 bytes: keep the prefix short ($TMPDIR if it is short)
    tmpdir = os.environ.get("TMPDIR", "")
    if not parent and tmpdir and len(tmpdir) < 48 and os.path.isdir(tmpdir):
        parent = tmpdir
    return tempfile.mkdtemp(prefix="lg-", dir=parent or ("/tmp" if os.path.isdir("/tmp") else None))
