"""Fork server for sandboxed kernels: pay Python's imports once, not per notebook.

    python _zygote.py          (started by sandbox.Zygote; requests on stdin)

Importing IPython, ipykernel (with the debugger it loads, debugpy) and NumPy
takes most of a kernel's start: measured, with these imported the kernel's own
initialisation is about 0.25 s instead of 1 s.
This process imports them once, *before* any student code exists and
without importing ``lib`` or ``grading``, then for every request forks a child
that does what ``unshare --fork --kill-child`` + ``_bootstrap.py`` do (new
network, PID, mount, IPC and UTS namespaces, PID 1 joining the submission's
control groups and building the chroot, an unprivileged kernel with resource
limits), except that the kernel is started in the forked, pre-imported
interpreter instead of by exec.  Each kernel is still a fresh process: nothing of another
kernel's state can be in it, only the pristine imports.

Protocol (JSON lines): request ``{"id": n, "config": path, "log": path}``;
answers ``{"id": n, "pid": pid}`` (or ``"error"``) and, when a child ends,
``{"exit": pid, "code": code}`` (code as subprocess.Popen.returncode).
End of stdin kills every child and ends the server.
"""

import ctypes
import json
import os
import select
import signal
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
import _bootstrap as B  # noqa: E402  (the script's own folder is sys.path[0])

if sys.path and os.path.abspath(sys.path[0] or ".") == HERE:
    del sys.path[0]                     # kernels must not import the grader's modules by accident
os.chdir("/")

CLONE_NEWNS, CLONE_NEWNET, CLONE_NEWPID, CLONE_NEWUSER = 0x00020000, 0x40000000, 0x20000000, 0x10000000
CLONE_NEWIPC, CLONE_NEWUTS = 0x08000000, 0x04000000
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
libc = B.libc
libc.unshare.argtypes = [ctypes.c_int]


def preimport():
    import IPython  # noqa: F401
    import ipykernel.debugger  # noqa: F401  debugpy: once the rest is imported, most of what a kernel's start imports
    import ipykernel.ipkernel  # noqa: F401
    import ipykernel.kernelapp  # noqa: F401
    import ipykernel.zmqshell  # noqa: F401
    import jupyter_client.session  # noqa: F401
    import numpy  # noqa: F401
    import zmq  # noqa: F401


def forget_the_grader():
    """Drop what this interpreter knows about where the course is installed (an editable
    install's import hook names the repository), and the grader's own modules."""
    for name in list(sys.modules):
        if name.startswith("__editable__") or name == "_bootstrap":
            sys.modules.pop(name, None)
    sys.meta_path[:] = [f for f in sys.meta_path if not str(getattr(f, "__module__", "")).startswith("__editable__")]
    sys.path_hooks[:] = [h for h in sys.path_hooks if not str(getattr(h, "__module__", "")).startswith("__editable__")]
    sys.path_importer_cache.clear()


def launch_in_process(cfg, report_fd):
    """In the sandbox, as the student: become the kernel (no exec)."""
    forget_the_grader()
    os.environ.clear()
    os.environ.update(cfg["env"])
    import random
    random.seed()                        # not the server's state: each kernel its own
    try:
        import numpy
        numpy.random.seed()
    except Exception:
        pass
    import ipykernel
    argv = cfg["argv"]
    rest = argv[argv.index("ipykernel_launcher") + 1:]
    sys.argv = [os.path.join(os.path.dirname(os.path.dirname(ipykernel.__file__)), "ipykernel_launcher.py")] + rest
    extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p and p not in sys.path]
    sys.path[0:0] = [os.getcwd()] + extra  # as `PYTHONPATH=... python -m ipykernel_launcher` would have it
    sys.path_importer_cache.clear()      # folders that did not exist before the chroot exist now
    import importlib
    importlib.invalidate_caches()
    os.close(report_fd)                  # tells PID 1 the kernel is starting
    from ipykernel import kernelapp
    kernelapp.launch_new_instance()
    os._exit(0)


def child(request):
    """The forked child: the equivalent of ``unshare --fork --kill-child``."""
    try:
        os.setsid()
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        for sig in (signal.SIGCHLD, signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGPIPE):
            signal.signal(sig, signal.SIG_DFL)
        log = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        null = os.open("/dev/null", os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.closerange(3, 65536)
        with open(request["config"], encoding="utf-8") as f:
            cfg = json.load(f)
        flags = CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS
        uid, gid = os.getuid(), os.getgid()
        if cfg["mode"] == "userns":
            flags |= CLONE_NEWUSER
        if libc.unshare(flags) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"unshare: {os.strerror(err)}")
        if cfg["mode"] == "userns":
            for name, text in (("setgroups", "deny"), ("uid_map", f"0 {uid} 1"), ("gid_map", f"0 {gid} 1")):
                with open(f"/proc/self/{name}", "w") as f:
                    f.write(text)
        pid1 = os.fork()
        if pid1 == 0:
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
            B.run_sandbox(cfg, launch_in_process)
            os._exit(0)
        while True:
            try:
                _, status = os.waitpid(pid1, 0)
                break
            except InterruptedError:
                continue
        if os.WIFSIGNALED(status):
            os._exit(128 + os.WTERMSIG(status))
        os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
    except BaseException as exc:
        try:
            os.write(2, f"grading sandbox (zygote): {type(exc).__name__}: {exc}\n".encode())
        finally:
            os._exit(111)


def main():
    preimport()
    import threading
    if threading.active_count() != 1 or len(os.listdir("/proc/self/task")) != 1:
        sys.stderr.write("zygote: threads exist after the imports; refusing to fork\n")
        return 3
    # orphaned sandbox PID 1s (their parent was killed first) are reaped here, not left to init
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: _poke(wake_w))
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    stdin = sys.stdin.buffer
    out = sys.stdout
    live = set()
    buffer = b""

    def say(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    say({"ready": os.getpid()})
    while True:
        try:
            ready, _, _ = select.select([stdin.fileno(), wake_r], [], [])
        except InterruptedError:
            continue
        if wake_r in ready:
            try:
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
            while True:
                try:
                    pid, status = os.waitpid(-1, os.WNOHANG)
                except ChildProcessError:
                    break
                if pid == 0:
                    break
                if pid in live:                  # not for adopted orphans
                    live.discard(pid)
                    code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
                    say({"exit": pid, "code": code})
        if stdin.fileno() in ready:
            chunk = os.read(stdin.fileno(), 65536)
            if not chunk:
                for pid in list(live):
                    try:
                        os.killpg(pid, signal.SIGKILL)
                    except OSError:
                        pass
                return 0
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                request = None
                try:
                    request = json.loads(line)
                    pid = os.fork()
                    if pid == 0:
                        os.close(wake_r)
                        os.close(wake_w)
                        child(request)
                    live.add(pid)
                    say({"id": request["id"], "pid": pid})
                except Exception as exc:          # a bad request must not end the server
                    say({"id": request.get("id") if isinstance(request, dict) else None,
                         "error": f"{type(exc).__name__}: {exc}"})


def _poke(fd):
    try:
        os.write(fd, b"x")
    except OSError:
        pass


if __name__ == "__main__":
    sys.exit(main())
