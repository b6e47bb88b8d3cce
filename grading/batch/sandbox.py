"""Where and how a student's kernel runs: isolation mode, file system, limits.

Three isolation modes (``--isolation``; ``auto`` picks the strongest available):

``root``    the grader runs as root.  Each kernel gets fresh network, PID, IPC,
            UTS and mount namespaces (``unshare``), a chroot built from read-only
            binds (see :meth:`Sandbox.layout`), and runs as a fresh unprivileged
            uid that owns no file on the machine and no other process (one uid
            per kernel, from ``uid_range``, so RLIMIT_NPROC is per kernel).
``userns``  the grader is not root but unprivileged user namespaces work:
            the same namespaces and chroot inside a user namespace; the kernel
            keeps the grader's uid outside but holds no capability inside.
``none``    neither works: the kernel is only a separate process group in a
            temporary folder with resource limits.  Student code can then read
            the grader's files and reach the network; a loud warning says so.

Kernels start in one of two ways, with the same sandbox: by exec
(``unshare ... python _bootstrap.py``), or forked from a *fork server*
(``_zygote.py``: a process that imported IPython, ipykernel and NumPy once,
never ``lib`` nor any student code; each fork then does what unshare and the
bootstrap do).  The fork server saves about 0.4 s of imports per notebook;
if it does not pass a test start, or dies, kernels start by exec.

The repository, its ``solutions/``, the exercise registry, the grader, the
hidden cases and the other submissions are never inside the chroot: it holds
the operating system (``/usr``, ``/etc`` with its host name, hosts and machine
id replaced), the Python installation and the virtual environment (read-only),
*student-safe copies* of ``lib`` and ``grading`` under ``/course`` (see
:func:`build_student_packages`), an empty ``/tmp`` and the kernel's I/O folder.
The host name is ``grading-sandbox``; SysV IPC objects (shared memory,
queues, semaphores) live in the sandbox's own IPC namespace and die with it.

Each submission's kernels share one control group (see cgroups.py) when the
machine offers them: memory for all the submission's processes together, an
equal CPU share, a process cap.  :meth:`Sandbox.describe` says what was in force.
"""

import dataclasses
import os
import pathlib
import secrets
import shutil
import subprocess
import sys
import threading

import lib as _lib

import grading as _grading

HERE = pathlib.Path(__file__).resolve().parent
BOOTSTRAP = HERE / "_bootstrap.py"
ZYGOTE = HERE / "_zygote.py"
LIB_DIR = pathlib.Path(_lib.__file__).resolve().parent
GRADING_DIR = pathlib.Path(_grading.__file__).resolve().parent

INSIDE_COURSE = "/course"         # the student-safe lib and grading, on the kernel's PYTHONPATH
INSIDE_IN = "/grader/in"          # read-only for the kernel: connection file, case inputs
INSIDE_IO = "/grader/io"          # writable by the kernel: sockets, results, log
INSIDE_WORK = "/tmp/work"
INSIDE_HOME = "/tmp/home"
HOSTNAME = "grading-sandbox"

# The only module of the grading package that enters the sandbox (besides stand-ins
# for the package and grading.exercises): the test models the cases are built on.
STUDENT_GRADING_MODULES = ("models",)


@dataclasses.dataclass
class Limits:
    memory_mb: int = 2048            # per submission (cgroup), and RLIMIT_AS of every process
    max_procs: int = 64              # per submission (cgroup pids), and RLIMIT_NPROC of the kernel's uid
    cpu_seconds: int = 600           # RLIMIT_CPU per process
    file_mb: int = 64                # RLIMIT_FSIZE: largest file the kernel may write
    tmp_mb: int = 256                # size of the sandbox's /tmp (a tmpfs)
    io_mb: int = 96                  # size of its /grader/io (sockets, results, log; a tmpfs)
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


def _run_quiet(argv, timeout=20):
    try:
        proc = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return False, str(exc)
    return proc.returncode == 0, proc.stderr.decode(errors="replace").strip()


def userns_available():
    unshare = shutil.which("unshare")
    if not unshare:
        return False, "the unshare command (util-linux) is not installed"
    ok, err = _run_quiet([unshare, "--user", "--map-root-user", "--net", "--pid", "--fork", "--mount",
                          "--kill-child", "true"])
    return ok, err


def choose_isolation(requested="auto"):
    """(mode, warnings) for ``requested`` in auto/root/userns/none."""
    warnings = []
    is_root = os.geteuid() == 0
    if requested == "root" and not is_root:
        raise SandboxError("--isolation root needs the grader to run as root")
    if requested in ("root", "auto") and is_root:
        if not shutil.which("unshare"):
            raise SandboxError("the unshare command (util-linux) is missing; install util-linux "
                               "or pass --isolation none")
        return "root", warnings
    if requested in ("userns", "auto"):
        ok, err = userns_available()
        if ok:
            return "userns", warnings
        if requested == "userns":
            raise SandboxError(f"user namespaces do not work here ({err}); pass --isolation none")
        warnings.append(
            "WARNING: no isolation. The grader is not root and user namespaces do not work here "
            f"({err or 'unshare failed'}), so student code runs as your user: it can read your files "
            "(solutions included) and reach the network. Resource and time limits still apply. "
            "Run the grader as root, or enable unprivileged user namespaces, for a real sandbox.")
        return "none", warnings
    if requested == "none":
        warnings.append("WARNING: --isolation none: student code can read your files and reach the network.")
        return "none", warnings
    raise SandboxError(f"unknown isolation mode {requested!r}")


def build_student_packages(dest):
    """Copy the student-safe parts of ``lib`` and ``grading`` into ``dest``.

    ``lib`` (what the chapters teach) is copied whole.  Of ``grading`` only the
    test models (:data:`STUDENT_GRADING_MODULES`) are copied; the package and
    ``grading.exercises`` are replaced by stubs whose ``check()`` does nothing
    (grading runs the real checks in the grader), so an exercise notebook's
    ``from grading import check`` still works.  The registry, its hidden cases,
    the reference answers and the batch grader never enter.
    Returns (lib copy, grading copy).
    """
    dest = pathlib.Path(dest)
    lib_out, grading_out = dest / "lib", dest / "grading"
    lib_out.mkdir(parents=True)
    grading_out.mkdir()
    for path in sorted(LIB_DIR.glob("*.py")):
        shutil.copyfile(path, lib_out / path.name)
    for name in STUDENT_GRADING_MODULES:
        shutil.copyfile(GRADING_DIR / f"{name}.py", grading_out / f"{name}.py")
    (grading_out / "__init__.py").write_text(GRADING_INIT_STUB, encoding="utf-8")
    (grading_out / "exercises.py").write_text(EXERCISES_STUB, encoding="utf-8")
    for path in dest.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)
    dest.chmod(0o755)
    return lib_out, grading_out


GRADING_INIT_STUB = '''"""The course's grading package, as a notebook sees it while it is graded: the test
models (grading.models) and a check() that does nothing (the grader checks in its own process)."""


def check(*args, **kwargs):
    return None


def needs_exercise(*exercise_ids, **kwargs):
    return "this cell uses the functions of exercise " + ", ".join(map(str, exercise_ids))


def set_language(lang):
    return None
'''


EXERCISES_STUB = '''"""Stand-in for grading.exercises while a notebook is graded.

The real module (its hidden cases and reference answers) stays with the
grader; here check() does nothing, so the notebook runs as it would for you.
"""

from grading import check  # noqa: F401


def __getattr__(name):
    raise AttributeError(f"grading.exercises.{name} is not available while grading")
'''


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


class Sandbox:
    """Shared setup of one grading run: temp folder, student packages, isolation mode, control groups."""

    def __init__(self, mode, limits=None, tmp_parent=None, uid_pool=None, python=None, keep=False,
                 cgroups=True, jobs=1):
        self.mode = mode
        self.limits = limits or Limits()
        self.keep = keep
        self.python = python or sys.executable
        self.zygote = None
        self.cgroups = None
        self.tmp = pathlib.Path(_short_tempdir(tmp_parent))
        try:                             # interrupted or failing half-way: nothing is left behind
            self.tmp.chmod(0o755)
            self.student_root = self.tmp / "student"
            self.student_lib, self.student_grading = build_student_packages(self.student_root)
            self.uids = uid_pool or UidPool()
            self.unshare = shutil.which("unshare")
            self.setpriv = _setpriv_with_pdeathsig()
            self.live = set()                # kernels started and not yet killed (see kill_all)
            self._packages = {frozenset(): self.student_root}   # withheld sites -> packages root (blind.py)
            self._counter = 0
            self._lock = threading.Lock()
            self.cgroup_note = "not requested" if not cgroups else ""
            if cgroups and mode != "none":
                from .cgroups import Cgroups
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
                from .blind import build_blind_packages
                dest = self.tmp / f"withheld-{len(self._packages)}"
                build_blind_packages(self.student_root, dest, sites)
                self._packages[sites] = dest
            return self._packages[sites]

    def new_group(self):
        """A control group for one submission (None without cgroups)."""
        return self.cgroups.new_group() if self.cgroups is not None else None

    def describe(self):
        """The isolation in force, for the report (stable strings)."""
        namespaces = {"root": ["mount", "pid", "net", "ipc", "uts"],
                      "userns": ["user", "mount", "pid", "net", "ipc", "uts"], "none": []}[self.mode]
        limits = (self.cgroups.describe() if self.cgroups is not None else
                  {"cgroups": None, "why": self.cgroup_note,
                   "memory": f"{self.limits.memory_mb} MiB per process (RLIMIT_AS), not per submission",
                   "processes": f"{self.limits.max_procs} per kernel uid (RLIMIT_NPROC)",
                   "cpu": "no fair share between submissions (no cgroups)"})
        return {
            "mode": self.mode,
            "namespaces": namespaces,
            "file_system": ("chroot: the Python environment read-only, /course (student-safe lib and grading), "
                            "/tmp and /grader/io as small tmpfs; no repository, solutions, grader or other "
                            "submission") if self.mode != "none" else "none: the kernel sees the grader's files",
            "user": {"root": "a fresh unprivileged uid per kernel, no capabilities, no_new_privs",
                     "userns": "root of a user namespace without capabilities, no_new_privs",
                     "none": "the grader's own user"}[self.mode],
            "network": "none (own network namespace)" if self.mode != "none" else "the host's",
            "hostname": HOSTNAME if self.mode != "none" else "the host's",
            "ipc": "own IPC namespace, removed with the sandbox" if self.mode != "none" else "the host's",
            **limits,
        }

    def kill_all(self):
        """SIGKILL every live kernel now (the grader was interrupted); their threads clean up."""
        with self._lock:
            kernels = list(self.live)
        for kernel in kernels:
            kernel.terminate()

    def close(self):
        try:
            if self.zygote is not None:
                self.zygote.close()
                self.zygote = None
        finally:
            if self.cgroups is not None:
                self.cgroups.close()
            if not self.keep:
                shutil.rmtree(self.tmp, ignore_errors=True)

    # -- starting kernel processes -------------------------------------------

    def start_zygote(self):
        """Start the fork server (root / userns modes); returns an error text, or None when it works."""
        if self.mode == "none" or self.zygote is not None:
            return None
        env = self.kernel_env()
        env.pop("COURSE_LANG", None)
        env.pop("PYTHONPATH", None)          # each kernel gets it from its config, once it is in its chroot
        try:
            self.zygote = Zygote(self.python, env, self.tmp / "zygote.log")
        except (OSError, RuntimeError) as exc:
            self.zygote = None
            return str(exc)
        return None

    def spawn(self, kdir, argv, env, cwd, preexec):
        """Start the process of a kernel prepared by :meth:`launch_command`."""
        log_path = kdir / "bootstrap.log"
        if self.zygote is not None and self.zygote.alive():
            try:
                return self.zygote.spawn(kdir / "bootstrap.json", log_path)
            except RuntimeError:
                pass                     # the fork server failed: start this kernel by exec instead
        log = open(kdir / "io" / "kernel.log" if self.mode == "none" else log_path, "wb")
        try:
            return subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                    start_new_session=True, preexec_fn=preexec, close_fds=True)
        finally:
            log.close()

    def new_kernel_dir(self):
        with self._lock:
            self._counter += 1
            n = self._counter
        kdir = self.tmp / f"k{n}"
        for sub in ("in", "io", "root", "etc"):
            (kdir / sub).mkdir(parents=True)
        kdir.chmod(0o755)
        (kdir / "in").chmod(0o755)
        # what the sandbox's /etc says about the machine: nothing
        for name, text in (("hostname", f"{HOSTNAME}\n"), ("hosts", f"127.0.0.1 localhost {HOSTNAME}\n"),
                           ("machine-id", "0" * 32 + "\n"), ("mailname", f"{HOSTNAME}\n"), ("empty", "")):
            (kdir / "etc" / name).write_text(text)
            (kdir / "etc" / name).chmod(0o644)
        return kdir

    # -- the file system the kernel sees ------------------------------------

    def layout(self, kdir, uid, gid, packages=None):
        """The chroot, in mount order: fresh file systems first, so that a bind
        below /tmp (a virtual environment in /tmp, say) is not hidden by them.
        ``packages``: the folder whose ``lib`` and ``grading`` the kernel gets (default: the
        student-safe copies; see :meth:`packages_for`)."""
        packages = pathlib.Path(packages or self.student_root)
        items = []
        for top in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"):
            if os.path.islink(top):
                items.append({"kind": "symlink", "path": top, "target": os.readlink(top)})
            elif os.path.isdir(top):
                items.append({"kind": "ro", "path": top, "source": top})
        items += [
            {"kind": "proc", "path": "/proc"},
            {"kind": "tmpfs", "path": "/dev", "options": "size=64k,mode=755"},
            *({"kind": "dev", "path": f"/dev/{name}", "source": f"/dev/{name}"}
              for name in ("null", "zero", "full", "random", "urandom")),
            {"kind": "symlink", "path": "/dev/fd", "target": "/proc/self/fd"},
            {"kind": "symlink", "path": "/dev/stdin", "target": "/proc/self/fd/0"},
            {"kind": "symlink", "path": "/dev/stdout", "target": "/proc/self/fd/1"},
            {"kind": "symlink", "path": "/dev/stderr", "target": "/proc/self/fd/2"},
            {"kind": "tmpfs", "path": "/dev/shm", "options": "size=64m,mode=1777"},
            {"kind": "tmpfs", "path": "/tmp", "options": f"size={self.limits.tmp_mb}m,mode=1777"},
        ]
        # an editable install of the course records where the repository is: not for the kernel's eyes
        for trace in _install_traces():
            items.append({"kind": "ro", "path": trace, "source": str(kdir / "etc" / "empty")})
        if os.path.isdir("/etc") and not os.path.islink("/etc"):
            for name in ("hostname", "hosts", "machine-id", "mailname"):
                if os.path.isfile(f"/etc/{name}") and not os.path.islink(f"/etc/{name}"):
                    items.append({"kind": "ro", "path": f"/etc/{name}", "source": str(kdir / "etc" / name)})
        covered = [item["path"] for item in items if item["kind"] == "ro" and not item["path"].startswith("/etc/")]
        for path in _python_dirs():
            if not any(path == c or path.startswith(c + "/") for c in covered):
                items.append({"kind": "ro", "path": path, "source": path})
                covered.append(path)
        # a copy of the course installed into the environment (not editable) must not be a way around /course
        from .blind import installed_copies
        for package, path in installed_copies():
            items.append({"kind": "ro", "path": path, "source": str(packages / package)})
        items += [
            {"kind": "ro", "path": f"{INSIDE_COURSE}/lib", "source": str(packages / "lib")},
            {"kind": "ro", "path": f"{INSIDE_COURSE}/grading", "source": str(packages / "grading")},
            {"kind": "dir", "path": INSIDE_WORK, "owner": [uid, gid], "mode": 0o755},
            {"kind": "dir", "path": INSIDE_HOME, "owner": [uid, gid], "mode": 0o700},
            {"kind": "ro", "path": INSIDE_IN, "source": str(kdir / "in")},
            # sockets, results and the kernel's log: a small tmpfs inside the sandbox, so that
            # no amount of writing reaches the host's disk; the grader reads it through
            # /proc/<PID 1 of the sandbox>/root (see Kernel.io_path)
            {"kind": "tmpfs", "path": INSIDE_IO, "options": f"size={self.limits.io_mb}m,mode=700,uid={uid},gid={gid}"},
        ]
        return items

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
                        "JUPYTER_RUNTIME_DIR": f"{home}/.jupyter/runtime"})
        if home:
            env["PYTHONPATH"] = INSIDE_COURSE          # the student-safe lib and grading
        if lang:
            env["COURSE_LANG"] = lang
        return env

    def kernel_argv(self, connection_file):
        return [self.python, "-m", "ipykernel_launcher", "-f", connection_file,
                "--HistoryManager.enabled=False", "--IPKernelApp.quiet=True"]

    def launch_command(self, kdir, lang=None, group=None, packages=None):
        """(argv, env, cwd, preexec_fn, info) starting a kernel for ``kdir`` in control ``group``,
        with the ``lib`` and ``grading`` of the folder ``packages`` (default: the student-safe copies)."""
        if self.mode == "none":
            return self._launch_unsandboxed(kdir, lang, packages)
        if self.mode == "root":
            uid = gid = self.uids.take()
        else:
            uid = gid = 0
        config = {
            "mode": self.mode,
            "root": str(kdir / "root"),
            "layout": self.layout(kdir, uid, gid, packages),
            "uid": uid, "gid": gid,
            "rlimits": self.limits.rlimits(),
            "cwd": INSIDE_WORK,
            "log": f"{INSIDE_IO}/kernel.log",
            "argv": self.kernel_argv(f"{INSIDE_IN}/kernel.json"),
            "env": self.kernel_env(lang),
            "cgroups": group.procs_files if group is not None else [],
            "hostname": HOSTNAME,
        }
        cfg_path = kdir / "bootstrap.json"
        _write_json(cfg_path, config, 0o600)
        # if the grader dies abruptly, unshare dies too (and --kill-child takes the sandbox along)
        argv = [self.setpriv, "--pdeathsig", "KILL", "--"] if self.setpriv else []
        argv += [self.unshare]
        if self.mode == "userns":
            argv += ["--user", "--map-root-user"]
        argv += ["--net", "--pid", "--ipc", "--uts", "--fork", "--mount", "--propagation", "private", "--kill-child",
                 "--", self.python, "-I", "-S", str(BOOTSTRAP), str(cfg_path)]
        info = {"mode": self.mode, "uid": uid if self.mode == "root" else os.getuid(),
                "inside_io": INSIDE_IO, "inside_in": INSIDE_IN}
        return argv, {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}, str(kdir), None, info

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
                    "PYTHONPATH": str(packages or self.student_root)})
        rlimits = self.limits.rlimits()
        # RLIMIT_NPROC counts every process of the uid: leave room for the ones already running.
        rlimits["NPROC"] += _count_processes_of(os.getuid())
        argv = self.kernel_argv(str(in_dir / "kernel.json"))

        def preexec():
            import resource
            for name, value in rlimits.items():
                resource.setrlimit(getattr(resource, "RLIMIT_" + name), (value, value))

        info = {"mode": "none", "uid": os.getuid(), "inside_io": str(io_dir), "inside_in": str(in_dir),
                "log": str(io_dir / "kernel.log")}
        return argv, env, str(work), preexec, info

    def self_check(self):
        """Start the bootstrap once with a trivial command; raise SandboxError if it fails.

        With control groups, the test sandbox joins one; if that fails the batch
        goes on without them (and the report says why)."""
        if self.mode == "none":
            return
        problem = self._try_bootstrap(self.new_group())
        if problem is not None and self.cgroups is not None:
            self.cgroup_note = f"{self.cgroups.version} found, but a sandbox could not join it ({problem})"
            self.cgroups.close()
            self.cgroups = None
            problem = self._try_bootstrap(None)
        if problem is not None:
            raise SandboxError(f"the {self.mode} sandbox does not work on this machine: {problem}")

    def _try_bootstrap(self, group):
        kdir = self.new_kernel_dir()
        argv, env, cwd, _, info = self.launch_command(kdir, group=group)
        cfg_path = kdir / "bootstrap.json"
        import json
        cfg = json.loads(cfg_path.read_text())
        expected = info["uid"] if self.mode == "root" else 0
        cfg["argv"] = [self.python, "-I", "-S", "-c",
                       f"import os, socket, sys; sys.exit(0 if os.geteuid() == {expected} "
                       f"and os.path.isdir('{INSIDE_IO}') and os.path.isdir('{INSIDE_COURSE}/grading') "
                       f"and not os.path.exists('{INSIDE_COURSE}/grading/batch') "
                       f"and not os.path.exists('{GRADING_DIR}') "
                       f"and socket.gethostname() == '{HOSTNAME}' else 7)"]
        _write_json(cfg_path, cfg, 0o600)
        try:
            proc = subprocess.run(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            return "the sandbox self-check timed out"
        finally:
            if self.mode == "root":
                self.uids.give_back(info["uid"])
            if group is not None:
                group.remove()
                self.cgroups.groups.remove(group)
        shutil.rmtree(kdir, ignore_errors=True)
        if proc.returncode == 0:
            return None
        if proc.returncode == 7:
            return "the kernel would not run as a fresh unprivileged user in the expected file system"
        return proc.stderr.decode(errors="replace").strip()[-500:] or f"exit status {proc.returncode}"


def _setpriv_with_pdeathsig():
    path = shutil.which("setpriv")
    if not path:
        return None
    ok, _ = _run_quiet([path, "--pdeathsig", "KILL", "--", "true"])
    return path if ok else None


def _install_traces():
    """Files of the Python environment that name the repository's folder (an editable install's
    finder, .pth and direct_url.json): each is covered by an empty file inside the sandbox."""
    global _TRACES
    if _TRACES is None:
        import glob
        import site
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
    import tempfile
    # ipc socket paths must stay under 107 bytes: keep the prefix short ($TMPDIR if it is short)
    tmpdir = os.environ.get("TMPDIR", "")
    if not parent and tmpdir and len(tmpdir) < 48 and os.path.isdir(tmpdir):
        parent = tmpdir
    return tempfile.mkdtemp(prefix="lg-", dir=parent or ("/tmp" if os.path.isdir("/tmp") else None))


def _write_json(path, data, mode):
    import json
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(data, f)


class ZygoteChild:
    """A kernel sandbox forked by the zygote, with the bits of Popen the Kernel uses."""

    def __init__(self, zygote, pid):
        self.zygote, self.pid = zygote, pid
        self.returncode = None
        self._done = threading.Event()

    def _exited(self, code):
        self.returncode = code
        self._done.set()

    def poll(self):
        if self.returncode is None and not self.zygote.alive():
            self._exited(-9)                 # the zygote died: so did its children (PDEATHSIG)
        return self.returncode

    def wait(self, timeout=None):
        if not self._done.wait(timeout):
            if self.poll() is None:
                raise subprocess.TimeoutExpired("kernel", timeout)
        return self.returncode


class Zygote:
    """Client of _zygote.py: one pre-imported process that forks sandboxed kernels."""

    def __init__(self, python, env, log_path, timeout=60):
        import json
        self._json = json
        self._log = open(log_path, "wb")
        # started by a relative name from its folder, so that no kernel's /proc/self/cmdline names the grader's path
        self.proc = subprocess.Popen([python, ZYGOTE.name], env=env, cwd=str(ZYGOTE.parent), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self._log, start_new_session=True, close_fds=True)
        self._lock = threading.Lock()
        self._next = 0
        self._waiting = {}               # request id -> [Event, answer]
        self._live = {}                  # pid -> ZygoteChild
        self._ready = threading.Event()
        self._reader = threading.Thread(target=self._read, name="zygote-reader", daemon=True)
        self._reader.start()
        if not self._ready.wait(timeout) or not self.alive():
            self.close()
            raise RuntimeError("the kernel fork server did not start: " + _tail(log_path))

    def alive(self):
        return self.proc.poll() is None

    def _read(self):
        for line in self.proc.stdout:
            try:
                msg = self._json.loads(line)
            except ValueError:
                continue
            if "ready" in msg:
                self._ready.set()
            elif "exit" in msg:
                with self._lock:
                    child = self._live.pop(msg["exit"], None)
                if child is not None:
                    child._exited(msg["code"])
            elif "id" in msg:
                with self._lock:
                    slot = self._waiting.get(msg["id"])
                    if slot is not None:
                        if "pid" in msg:
                            child = ZygoteChild(self, msg["pid"])
                            self._live[msg["pid"]] = child
                            slot[1] = child
                        else:
                            slot[1] = RuntimeError(msg.get("error", "spawn failed"))
                        slot[0].set()
        self._ready.set()
        with self._lock:
            children = list(self._live.values())
            self._live.clear()
            slots = list(self._waiting.values())
        for child in children:
            child._exited(-9)
        for slot in slots:
            slot[1] = RuntimeError("the kernel fork server ended")
            slot[0].set()

    def spawn(self, config_path, log_path, timeout=30):
        with self._lock:
            self._next += 1
            rid = self._next
            slot = [threading.Event(), None]
            self._waiting[rid] = slot
            line = self._json.dumps({"id": rid, "config": str(config_path), "log": str(log_path)}) + "\n"
            try:
                self.proc.stdin.write(line.encode())
                self.proc.stdin.flush()
            except (OSError, ValueError) as exc:
                del self._waiting[rid]
                raise RuntimeError(f"the kernel fork server is gone: {exc}") from None
        ok = slot[0].wait(timeout)
        with self._lock:
            self._waiting.pop(rid, None)
        if not ok:
            raise RuntimeError("the kernel fork server did not answer")
        if isinstance(slot[1], Exception):
            raise slot[1]
        return slot[1]

    def close(self):
        try:
            self.proc.stdin.close()          # the server kills its children and ends
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, 9)
            except OSError:
                pass
            self.proc.wait(timeout=10)
        self._log.close()


def _tail(path, n=1500):
    try:
        return pathlib.Path(path).read_text(errors="replace")[-n:].strip()
    except OSError:
        return ""
