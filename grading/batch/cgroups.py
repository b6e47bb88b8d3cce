"""Control groups for submissions: memory for all their processes together, a fair share
of the CPU, a cap on processes, and a way to be sure none survives.

Each submission gets its own group under one group per batch, created below the
grader's own cgroup (never outside it, so whatever limits the grader runs
under still hold).  What the machine offers is detected, the strongest is used
and :meth:`Cgroups.describe` says which:

* **cgroup v2** when the grader's cgroup delegates the ``memory``, ``pids`` (and
  ``cpu``) controllers (``systemd-run --scope -p Delegate=yes``, a container
  with a private cgroup namespace, or root on a machine booted with v2);
* **cgroup v1** when the grader is root and the v1 hierarchies are mounted
  (``/sys/fs/cgroup/memory`` etc.);
* otherwise none: memory and processes are then limited per process only
  (RLIMIT_AS, RLIMIT_NPROC), which the report says.

Where systemd runs (``/run/systemd/system`` exists), the control groups are
systemd's to hand out: ``python -m grading`` first runs itself again in a
transient scope that delegates its subtree (:func:`systemd_scope_command`:
``systemd-run --scope -p Delegate=yes``, with ``--user`` when not root), and the
code below then makes its groups inside that scope.  If systemd-run cannot make
the scope (no user manager, say), the grader goes on where it is, with this
module's own detection as the fallback.

Limits per submission: ``memory.max`` / ``memory.limit_in_bytes`` (and no swap
beyond it, where the kernel accounts swap), ``pids.max``, and an equal CPU
weight (``cpu.weight`` / ``cpu.shares``), so one submission running fifty
busy processes gets the same CPU as a classmate graded beside it with one.
The process that execs bwrap joins its submission's group first (see
``sandbox._limit_and_join``); every process of the sandbox inherits it.
"""

import errno
import os
import secrets
import shutil
import signal
import subprocess
import time

ROOT = "/sys/fs/cgroup"
SYSTEMD_RUNTIME = "/run/systemd/system"   # exists exactly when systemd is the init system (sd_booted(3))
IN_SCOPE = "GRADING_SYSTEMD_SCOPE"        # the scope's unit name, in the environment of a grader run in it
V1_CONTROLLERS = ("memory", "cpu", "pids", "freezer")


def _read(path):
    try:
        with open(path, encoding="ascii", errors="replace") as f:
            return f.read()
    except OSError:
        return None


def _write(path, text):
    with open(path, "w", encoding="ascii") as f:
        f.write(text)


def _mounts():
    """{("cgroup2", None) or ("cgroup", controller): mount point}, from /proc/self/mountinfo."""
    found = {}
    text = _read("/proc/self/mountinfo") or ""
    for line in text.splitlines():
        left, _, right = line.partition(" - ")
        fields, extra = left.split(), right.split()
        if len(fields) < 5 or len(extra) < 3:
            continue
        point, fstype, options = fields[4], extra[0], extra[2].split(",")
        if fstype == "cgroup2":
            found.setdefault(("cgroup2", None), point)
        elif fstype == "cgroup":
            for controller in V1_CONTROLLERS:
                if controller in options:
                    found.setdefault(("cgroup", controller), point)
    return found


def _own_paths():
    """{controller or "": this process's cgroup path}, from /proc/self/cgroup."""
    out = {}
    for line in (_read("/proc/self/cgroup") or "").splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if controllers == "":
            out[""] = path
        for controller in controllers.split(","):
            if controller:
                out[controller] = path
    return out


def _remove_stale(parent):
    """Remove empty batch groups left by graders that were killed (their PID is gone)."""
    try:
        names = os.listdir(parent)
    except OSError:
        return
    for name in names:
        if name.startswith("grading-") and name.count("-") >= 2:
            pid = name.split("-")[1]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                _rmtree_cgroup(os.path.join(parent, name))


def _rmtree_cgroup(path):
    try:
        children = [os.path.join(path, n) for n in os.listdir(path) if os.path.isdir(os.path.join(path, n))]
    except OSError:
        return
    for child in children:
        _rmtree_cgroup(child)
    try:
        os.rmdir(path)
    except OSError:
        pass


def systemd_scope_command(argv, environ=None):
    """The command that runs ``argv`` again in a transient systemd scope that delegates its control
    groups (``systemd-run --scope -p Delegate=yes``), with its environment; None where systemd does
    not run, systemd-run is missing, ``argv`` already runs in such a scope, or systemd-run cannot
    make one here (tried first with ``true``, so the grader never hands itself to a command that fails)."""
    environ = dict(os.environ if environ is None else environ)
    runtime = environ.get("GRADING_SYSTEMD_RUNTIME", SYSTEMD_RUNTIME)   # tests point it elsewhere
    tool = shutil.which("systemd-run", path=environ.get("PATH"))
    if environ.get(IN_SCOPE) or not os.path.isdir(runtime) or tool is None:
        return None
    unit = f"grading-{os.getpid()}-{secrets.token_hex(3)}"
    options = [tool, *([] if os.geteuid() == 0 else ["--user"]), "--scope", "--quiet", "--collect",
               "-p", "Delegate=yes"]
    try:
        trial = subprocess.run([*options, f"--unit={unit}-check", "--", "true"], stdin=subprocess.DEVNULL,
                               capture_output=True, timeout=30, env=environ)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if trial.returncode != 0:
        return None
    return [*options, f"--unit={unit}", "--", *argv], {**environ, IN_SCOPE: f"{unit}.scope"}


class Group:
    """The control group(s) of one submission."""

    def __init__(self, owner, name, dirs):
        self.owner, self.name, self.dirs = owner, name, dirs      # dirs: {controller: path} ("" for v2)

    @property
    def procs_files(self):
        """The files a process writes "0" into to join this group (one per hierarchy)."""
        return sorted({os.path.join(d, "cgroup.procs") for d in self.dirs.values()})

    def pids(self):
        out = set()
        for f in self.procs_files:
            out |= {int(x) for x in (_read(f) or "").split() if x.isdigit()}
        return sorted(out)

    def oom_kills(self):
        """How many times the kernel's OOM killer acted in this group (0 if unknown)."""
        memory = self.dirs.get("memory") or self.dirs.get("")
        if memory is None:
            return 0
        for name in ("memory.events", "memory.oom_control"):
            text = _read(os.path.join(memory, name))
            if text:
                for line in text.splitlines():
                    key, _, value = line.partition(" ")
                    if key == "oom_kill" and value.strip().isdigit():
                        return int(value)
        return 0

    def kill(self, timeout=5.0):
        """SIGKILL every process still in the group (frozen first, so none can fork away)."""
        freezer = self.dirs.get("freezer")
        v2 = self.dirs.get("")
        if v2 and os.path.exists(os.path.join(v2, "cgroup.kill")):
            try:
                _write(os.path.join(v2, "cgroup.kill"), "1")
            except OSError:
                pass
        deadline = time.monotonic() + timeout
        while True:
            pids = self.pids()
            if not pids or time.monotonic() > deadline:
                break
            if freezer:
                try:
                    _write(os.path.join(freezer, "freezer.state"), "FROZEN")
                except OSError:
                    pass
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            if freezer:
                try:
                    _write(os.path.join(freezer, "freezer.state"), "THAWED")
                except OSError:
                    pass
            time.sleep(0.02)
        return self.pids()

    def remove(self):
        self.kill()
        for path in self.dirs.values():
            _rmtree_cgroup(path)


class Cgroups:
    """One batch's control groups (see the module docstring).  ``version`` is "v2", "v1" or None."""

    def __init__(self, memory_mb, max_procs, jobs=1):
        self.memory_mb, self.max_procs, self.jobs = memory_mb, max_procs, max(1, int(jobs))
        self.version = None
        self.base = {}                  # controller -> the batch's group ("" for v2)
        self.controllers = []
        self.why = ""
        self.groups = []
        self._counter = 0
        name = f"grading-{os.getpid()}-{secrets.token_hex(3)}"
        problems = []
        for attempt in (self._try_v2, self._try_v1):
            try:
                if attempt(name):
                    return
            except OSError as exc:
                problems.append(f"{attempt.__name__[5:]}: {exc.strerror or exc}")
                self._undo()
            except BaseException:                    # interrupted: leave no group behind
                self._undo()
                raise
        self.why = "; ".join(problems) or "no cgroup hierarchy this process may create groups in"

    # -- detection ------------------------------------------------------------

    def _try_v2(self, name):
        mount = _mounts().get(("cgroup2", None))
        own = _own_paths().get("")
        if mount is None or own is None:
            raise OSError("no cgroup2 hierarchy")
        parent = os.path.normpath(mount + "/" + own)
        available = set((_read(os.path.join(parent, "cgroup.controllers")) or "").split())
        needed = {"memory", "pids"} & available
        if needed != {"memory", "pids"}:
            raise OSError(f"the controllers memory and pids are not delegated to {own} "
                          f"(available: {' '.join(sorted(available)) or 'none'})")
        enabled = set((_read(os.path.join(parent, "cgroup.subtree_control")) or "").split())
        wanted = {"memory", "pids"} | ({"cpu"} & available)
        if not wanted <= enabled:
            self._enable(parent, wanted - enabled)
        _remove_stale(parent)
        batch = os.path.join(parent, name)
        os.mkdir(batch)
        self.base = {"": batch}
        _write(os.path.join(batch, "cgroup.subtree_control"), " ".join(f"+{c}" for c in sorted(wanted)))
        if "cpu" in wanted:
            _write(os.path.join(batch, "cpu.weight"), str(min(10000, 100 * self.jobs)))
        self.version, self.controllers = "v2", sorted(wanted)
        return True

    def _enable(self, parent, controllers):
        """Hand ``controllers`` down to the groups below ``parent``.  A group that holds processes
        cannot (cgroup v2 keeps processes in leaves): in a scope of its own (systemd-run --scope
        runs the grader in one), the grader first moves itself into a leaf, ``grader``, beside
        the groups it makes."""
        line = " ".join(f"+{c}" for c in sorted(controllers))
        try:
            _write(os.path.join(parent, "cgroup.subtree_control"), line)
        except OSError as exc:
            if exc.errno != errno.EBUSY:
                raise
            leaf = os.path.join(parent, "grader")
            os.makedirs(leaf, exist_ok=True)
            for pid in (_read(os.path.join(parent, "cgroup.procs")) or "").split():
                try:
                    _write(os.path.join(leaf, "cgroup.procs"), pid)
                except OSError as gone:
                    if gone.errno != errno.ESRCH:        # a process that ended meanwhile needs no move
                        raise
            _write(os.path.join(parent, "cgroup.subtree_control"), line)

    def _try_v1(self, name):
        if os.geteuid() != 0:
            raise OSError("cgroup v1 groups need root")
        mounts, own = _mounts(), _own_paths()
        for controller in V1_CONTROLLERS:
            point = mounts.get(("cgroup", controller))
            if point is None or controller not in own:
                continue
            parent = os.path.normpath(point + "/" + own[controller])
            _remove_stale(parent)
            batch = os.path.join(parent, name)
            try:
                os.mkdir(batch)
            except OSError:
                continue
            self.base[controller] = batch
        if "memory" not in self.base or "pids" not in self.base:
            missing = [c for c in ("memory", "pids") if c not in self.base]
            raise OSError(f"no writable cgroup v1 hierarchy for {', '.join(missing)}")
        if "cpu" in self.base:
            _write(os.path.join(self.base["cpu"], "cpu.shares"), str(1024 * self.jobs))
        self.version, self.controllers = "v1", sorted(self.base)
        return True

    def _undo(self):
        for path in self.base.values():
            _rmtree_cgroup(path)
        self.base = {}

    # -- groups ---------------------------------------------------------------

    def new_group(self):
        """A fresh group for one submission, its limits set; None without cgroups."""
        if self.version is None:
            return None
        self._counter += 1
        name = f"s{self._counter}"
        limit = str(self.memory_mb * 1024 * 1024)
        dirs = {}
        try:
            for controller, base in self.base.items():
                path = os.path.join(base, name)
                os.mkdir(path)
                dirs[controller] = path
            if self.version == "v2":
                d = dirs[""]
                _write(os.path.join(d, "memory.max"), limit)
                if os.path.exists(os.path.join(d, "memory.swap.max")):
                    _write(os.path.join(d, "memory.swap.max"), "0")
                _write(os.path.join(d, "pids.max"), str(self.max_procs))
                if "cpu" in self.controllers:
                    _write(os.path.join(d, "cpu.weight"), "100")
            else:
                memory = dirs["memory"]
                _write(os.path.join(memory, "memory.limit_in_bytes"), limit)
                memsw = os.path.join(memory, "memory.memsw.limit_in_bytes")
                if os.path.exists(memsw):
                    try:
                        _write(memsw, limit)
                    except OSError:
                        pass
                _write(os.path.join(dirs["pids"], "pids.max"), str(self.max_procs))
                if "cpu" in dirs:
                    _write(os.path.join(dirs["cpu"], "cpu.shares"), "1024")
        except OSError:
            for path in dirs.values():
                _rmtree_cgroup(path)
            raise
        group = Group(self, name, dirs)
        self.groups.append(group)
        return group

    def close(self):
        for group in self.groups:
            group.remove()
        self.groups = []
        self._undo()

    def describe(self):
        """What the report says about these limits (a dict of short, stable strings)."""
        if self.version is None:
            return describe_without_cgroups(self.memory_mb, self.max_procs, self.why)
        cpu = "cpu" in self.controllers
        return {"cgroups": self.version, **_scope(),
                "memory": f"{self.memory_mb} MiB per submission, all its processes together",
                "processes": f"{self.max_procs} per submission",
                "cpu": ("an equal share per submission (cpu.weight)" if self.version == "v2" else
                        "an equal share per submission (cpu.shares)") if cpu else "no cpu controller: not shared"}


def _scope():
    """{"systemd_scope": unit} when the grader runs in the scope systemd_scope_command made, else {}."""
    return {"systemd_scope": os.environ[IN_SCOPE]} if os.environ.get(IN_SCOPE) else {}


def describe_without_cgroups(memory_mb, max_procs, why):
    """What the report says about the limits when no control group holds the submissions."""
    return {"cgroups": None, "why": why, **_scope(),
            "memory": f"{memory_mb} MiB per process (RLIMIT_AS), not per submission",
            "processes": f"{max_procs} per kernel uid (RLIMIT_NPROC)",
            "cpu": "no fair share between submissions (no cgroups)"}
