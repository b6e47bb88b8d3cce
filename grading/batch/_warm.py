"""A warm interpreter that forks kernels into sandboxes bubblewrap has built (root mode).

Started once per grading run by :class:`sandbox.WarmStarter`, outside every sandbox,
as a stand-alone script: it never imports ``lib``, ``grading`` or anything of the
repository.  It imports what every kernel's start imports (IPython, ipykernel,
ZeroMQ, NumPy) once, before any student code exists, then serves requests, one JSON
line each on stdin::

    {"holder": host PID of the sandbox's waiting process, "holder_started": its start time
     (field 22 of /proc/PID/stat), "uid": the kernel's uid,
     "status": host path of the file the exit status goes to, "log": host path of the file
     what goes wrong on the way goes to, "kernel_log": the kernel's log inside the sandbox,
     "procs": [cgroup.procs files], "rlimits": {"AS": bytes, ...}, "env": {...}, "cwd": "/tmp/work",
     "seccomp": host path of the seccomp filter (seccomp_filter.py's program),
     "argv": ipykernel's arguments, or "command": a program to run instead (the self-check,
     whose output goes to "log")}

and answers ``{"pid": n}`` or ``{"error": "why"}``.  End of stdin ends it.

bwrap builds each sandbox as before (the run's user namespace, namespaces, read-only
file system, tmpfs), with a waiting process (``sleep``) in place of the kernel.  For a
request, this process forks a child that joins the submission's control group, reads the
seccomp filter, enters every namespace of the waiting process with ``setns`` (its user
namespace first) and its root with ``chroot``, and forks the kernel, which is therefore
PID n of the sandbox's PID namespace and dies with it.  The kernel sets its resource
limits, empties its capability bounding set, becomes the fresh uid (which drops every
capability), sets no_new_privs, installs the seccomp filter (bwrap installed it in the
waiting process, and a process that enters a sandbox does not inherit it), checks that
it holds no privilege and cannot make a user namespace, forgets where the course is
installed, and starts ipykernel from the interpreter's pristine imports: a fresh process
whose memory holds nothing another kernel did.  The child waits for it and writes its
exit status (as bwrap reports one: the code, or 128 + the signal); the grader ends the
sandbox once it has read what the kernel left in it.

Nothing here builds a namespace or a file system: that stays bwrap's.  This is the
whole of the privileged code, in :func:`enter` and :func:`become`; docs/maintainers.md
("Warm start") says what each step may do and why it is safe.
"""

import ctypes
import json
import os
import resource
import signal
import sys

CLONE_NEWNS, CLONE_NEWCGROUP, CLONE_NEWUTS = 0x00020000, 0x02000000, 0x04000000
CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET = 0x08000000, 0x10000000, 0x20000000, 0x40000000
# the order of setns: the user namespace first (the others belong to it: joining it gives the
# capabilities that entering them takes), the mount namespace last, since entering it changes
# what /proc shows
NAMESPACES = (("user", CLONE_NEWUSER), ("cgroup", CLONE_NEWCGROUP), ("ipc", CLONE_NEWIPC),
              ("uts", CLONE_NEWUTS), ("net", CLONE_NEWNET), ("pid", CLONE_NEWPID), ("mnt", CLONE_NEWNS))
PR_CAPBSET_DROP, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 24, 38, 22, 2
NO_CAPABILITY = "0000000000000000"
libc = ctypes.CDLL(None, use_errno=True)


class SockFprog(ctypes.Structure):
    """struct sock_fprog: a classic BPF program (here, the seccomp filter)."""
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def preimport():
    """What a kernel's start imports, once.  The debugger stays out, as in a fresh kernel
    (sandbox.py hides debugpy from the sandbox, so ipykernel offers none)."""
    sys.modules["debugpy"] = None
    import IPython  # noqa: F401
    import ipykernel.ipkernel  # noqa: F401
    import ipykernel.kernelapp  # noqa: F401
    import ipykernel.zmqshell  # noqa: F401
    import jupyter_client.session  # noqa: F401
    import numpy  # noqa: F401
    import zmq  # noqa: F401


def forget_the_installation():
    """Drop the import hook of an editable install of the course (it names the repository)."""
    for name in list(sys.modules):
        if name.startswith("__editable__"):
            sys.modules.pop(name, None)
    sys.meta_path[:] = [f for f in sys.meta_path if not str(getattr(f, "__module__", "")).startswith("__editable__")]
    sys.path_hooks[:] = [h for h in sys.path_hooks if not str(getattr(h, "__module__", "")).startswith("__editable__")]


def enter(request):
    """The forked child, still root on the host: into the sandbox, then fork the kernel."""
    null = os.open("/dev/null", os.O_RDONLY)
    log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o600)
    os.dup2(null, 0)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(null)
    os.close(log)
    status = os.open(request["status"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    try:
        with open(request["seccomp"], "rb") as f:      # a host file: read before entering the sandbox
            seccomp = f.read()
        for path in request["procs"]:                  # the submission's control group, inherited by the kernel
            with open(path, "w") as f:
                f.write("0")
        holder = int(request["holder"])
        # everything is opened through the folder of the process the grader found, checked by its start
        # time: if it has ended meanwhile and its PID was given to another process, every open fails
        proc = os.open(f"/proc/{holder}", os.O_RDONLY | os.O_DIRECTORY)
        with open(os.open("stat", os.O_RDONLY, dir_fd=proc)) as f:
            started = f.read().rsplit(")", 1)[1].split()[19]
        if started != str(request["holder_started"]):
            raise ProcessLookupError(f"process {holder} is not the sandbox's waiting process any more")
        namespaces = [(os.open(f"ns/{name}", os.O_RDONLY, dir_fd=proc), flag, name) for name, flag in NAMESPACES]
        root = os.open("root", os.O_RDONLY | os.O_DIRECTORY, dir_fd=proc)
        os.close(proc)
        for fd, flag, name in namespaces:
            # one's own namespace cannot be entered again (the kernel says EINVAL): skip what is shared
            if os.fstat(fd).st_ino != os.stat(f"/proc/self/ns/{name}").st_ino:
                _check(libc.setns(fd, flag), f"setns {name}")
            os.close(fd)
        os.fchdir(root)
        os.chroot(".")
        os.close(root)
        os.chdir("/")
        kernel = os.fork()
    except BaseException:
        os.write(status, b"111")               # the grader sees at once that no kernel will answer
        raise
    if kernel == 0:
        try:
            os.close(status)
            become(request, seccomp)
        except BaseException as exc:
            try:
                os.write(2, f"grading sandbox (warm start): {type(exc).__name__}: {exc}\n".encode())
            finally:
                os._exit(111)
    while True:
        try:
            _, code = os.waitpid(kernel, 0)
            break
        except InterruptedError:
            continue
    code = 128 + os.WTERMSIG(code) if os.WIFSIGNALED(code) else os.WEXITSTATUS(code)
    # the sandbox stays until the grader ends it: what the kernel wrote before it died (the results
    # of the tests that ran, in /grader/io) can still be read
    os.write(status, str(code).encode())
    os.close(status)


def become(request, seccomp):
    """The kernel: PID n of the sandbox, its own session, limits, the fresh uid, no privileges,
    the seccomp filter."""
    os.setsid()
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    if "kernel_log" in request:          # else (the self-check) what it says goes to the request's log
        log = os.open(request["kernel_log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW, 0o644)
        os.dup2(log, 1)
        os.dup2(log, 2)
    os.closerange(3, 1 << 16)
    for name, value in request["rlimits"].items():
        resource.setrlimit(getattr(resource, "RLIMIT_" + name), (value, value))
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last = int(f.read())
    for cap in range(last + 1):
        _check(libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0), f"dropping capability {cap}")
    uid = int(request["uid"])
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)                    # every capability goes with uid 0
    _check(libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
    install_filter(seccomp)
    with open("/proc/self/status") as f:
        status = f.read()
    held = [line.split()[1] for line in status.splitlines()
            if line.startswith(("CapEff", "CapPrm", "CapInh", "CapAmb"))]
    if os.geteuid() == 0 or any(cap != NO_CAPABILITY for cap in held):
        raise PermissionError(f"the kernel would keep privileges (uid {os.geteuid()}, capabilities {held})")
    if "\nSeccomp:\t2\n" not in status or libc.unshare(CLONE_NEWUSER) == 0:
        raise PermissionError("the kernel would run without its seccomp filter, or could make a user namespace")
    # the signal dispositions a fresh Python starts with (this interpreter serves with others)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    if "command" in request:
        os.execve(request["command"][0], request["command"], request["env"])
    forget_the_installation()
    sys.dont_write_bytecode = True
    # as `PYTHONPATH=... python -m ipykernel_launcher` would have it: the folder, PYTHONPATH, the rest
    extra = [p for p in request["env"].get("PYTHONPATH", "").split(os.pathsep) if p]
    sys.path[:] = [request["cwd"], *extra, *(p for p in sys.path if p and p not in extra)]
    sys.path_importer_cache.clear()
    import importlib
    importlib.invalidate_caches()
    import random
    random.seed()                                  # not this interpreter's state: each kernel its own
    import numpy
    numpy.random.seed()
    import ipykernel
    sys.argv = [os.path.join(os.path.dirname(os.path.dirname(ipykernel.__file__)), "ipykernel_launcher.py"),
                *request["argv"]]
    from ipykernel import kernelapp
    kernelapp.launch_new_instance()
    os._exit(0)


def install_filter(program):
    """Install the seccomp filter ``program`` (struct sock_filter[]) on this process; it needs
    no_new_privs, holds for every process started from here on, and can never be removed."""
    if not program or len(program) % 8:
        raise ValueError("the seccomp filter is empty or not a whole number of instructions")
    code = ctypes.create_string_buffer(program, len(program))
    fprog = SockFprog(len(program) // 8, ctypes.addressof(code))
    _check(libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.byref(fprog), 0, 0), "seccomp filter")


def serve():
    preimport()
    for name in ("lib", "grading"):
        if name in sys.modules:
            sys.stderr.write(f"warm start: {name} was imported; refusing to serve\n")
            return 3
    if len(os.listdir("/proc/self/task")) != 1:
        sys.stderr.write("warm start: threads exist after the imports; refusing to fork\n")
        return 3
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)   # the children are reaped by the kernel
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    out = sys.stdout
    out.write(json.dumps({"ready": os.getpid()}) + "\n")
    out.flush()
    for line in sys.stdin.buffer:
        request = None
        try:
            request = json.loads(line)
            pid = os.fork()
            if pid == 0:
                try:
                    for sig in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
                        signal.signal(sig, signal.SIG_DFL)
                    os.setsid()
                    os.closerange(3, 1 << 16)
                    enter(request)
                    os._exit(0)
                except BaseException as exc:
                    try:
                        os.write(2, f"grading sandbox (warm start): {type(exc).__name__}: {exc}\n".encode())
                    finally:
                        os._exit(111)
            answer = {"pid": pid}
        except Exception as exc:                    # a bad request must not end the server
            answer = {"error": f"{type(exc).__name__}: {exc}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()
    return 0


if __name__ == "__main__":
    sys.exit(serve())
