"""PID 1 of a grading sandbox (run by ``unshare``; standard library only).

    unshare [--user --map-root-user] --net --pid --ipc --uts --fork --mount --kill-child \\
        python -I -S _bootstrap.py CONFIG.json

It runs with fresh network, PID, IPC, UTS and mount namespaces, as root of them, and:

0. joins the submission's control groups (``cfg["cgroups"]``: memory for all
   its processes together, CPU share, process count; see cgroups.py) and sets
   the host name of its UTS namespace (``cfg["hostname"]``), so the machine's
   name is not visible and SysV IPC objects die with the sandbox;
1. builds a new root file system on a tmpfs from the layout in CONFIG
   (read-only binds of the Python installation and of student-safe copies of
   ``lib`` and ``grading``, a minimal /dev, a fresh /proc, tmpfs /tmp, the kernel's I/O folder),
   then chroots into it, so the repository, the solutions, the grader and the
   other submissions do not exist for the student;
2. forks the kernel: new session, resource limits, unprivileged user (or, in a
   user namespace, no capabilities and SECBIT_NOROOT), no_new_privs, exec;
3. reaps orphans until the kernel exits, then exits with its status.  When PID 1
   of a PID namespace exits, Linux SIGKILLs every process left in it, so no
   child a student forked can outlive the sandbox.

Errors before the exec go to stderr (a file the grader reads) and exit 111.
Once the kernel runs, PID 1 writes ``STARTED`` to that file, and when the
kernel ends, ``EXITED <status>``: only PID 1 writes there (the kernel's output
goes to the sandbox's own log), so the grader can tell a sandbox that failed
to start (the grader's problem) from a kernel the student's code ended, even
when that code exits with 111 or 112 itself.
"""

import ctypes
import json
import os
import resource
import signal
import socket
import sys

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 1, 2, 4, 8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 32, 4096, 16384, 1 << 18
MS_NOATIME, MS_NODIRATIME, MS_RELATIME = 1024, 2048, 1 << 21

PR_SET_NO_NEW_PRIVS, PR_CAPBSET_DROP, PR_SET_SECUREBITS, PR_SET_DUMPABLE = 38, 24, 28, 4
# SECBIT_NOROOT | _LOCKED | SECBIT_NO_SETUID_FIXUP | _LOCKED | SECBIT_KEEP_CAPS_LOCKED
#   | SECBIT_NO_CAP_AMBIENT_RAISE | _LOCKED
SECUREBITS = 0x01 | 0x02 | 0x04 | 0x08 | 0x20 | 0x40 | 0x80

STARTED = "grading sandbox: STARTED"
EXITED = "grading sandbox: EXITED"

libc = ctypes.CDLL(None, use_errno=True)
libc.mount.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_ulong, ctypes.c_char_p]
libc.prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]


def fail(text):
    sys.stderr.write(f"grading sandbox: {text}\n")
    sys.stderr.flush()
    os._exit(111)


def _b(s):
    return None if s is None else os.fsencode(s)


def mount(src, dst, fstype, flags, data=None):
    if libc.mount(_b(src), _b(dst), _b(fstype), flags, _b(data)) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"mount {src or fstype} on {dst}: {os.strerror(err)}")


def kept_flags(path):
    """Flags a remount of a bind in a user namespace must keep (they are locked)."""
    st = os.statvfs(path)
    flags = 0
    for st_flag, ms_flag in ((os.ST_NOSUID, MS_NOSUID), (os.ST_NODEV, MS_NODEV), (os.ST_NOEXEC, MS_NOEXEC),
                             (os.ST_NOATIME, MS_NOATIME), (os.ST_NODIRATIME, MS_NODIRATIME),
                             (os.ST_RELATIME, MS_RELATIME)):
        if st.f_flag & st_flag:
            flags |= ms_flag
    return flags


def prctl(option, arg=0):
    if libc.prctl(option, arg, 0, 0, 0) != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"prctl({option}, {arg}): {os.strerror(err)}")


def make_mountpoint(path, is_dir):
    if is_dir:
        os.makedirs(path, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
        if not os.path.exists(path):
            os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o644))


def build_root(root, layout):
    mount(None, "/", None, MS_REC | MS_PRIVATE)
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=8m,mode=755")
    for item in layout:
        kind, dst = item["kind"], root + item["path"]
        if kind == "dir":
            os.makedirs(dst, mode=0o755, exist_ok=True)
            if "owner" in item:
                os.chown(dst, *item["owner"])
            os.chmod(dst, item.get("mode", 0o755))
        elif kind == "symlink":
            os.makedirs(os.path.dirname(dst), mode=0o755, exist_ok=True)
            os.symlink(item["target"], dst)
        elif kind in ("ro", "rw", "dev"):
            src = item["source"]
            make_mountpoint(dst, os.path.isdir(src))
            mount(src, dst, None, MS_BIND | (MS_REC if item.get("recursive") else 0))
            if kind == "ro":
                mount(None, dst, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | kept_flags(src))
            elif kind == "rw":
                mount(None, dst, None, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV | kept_flags(src))
        elif kind == "tmpfs":
            os.makedirs(dst, mode=0o755, exist_ok=True)
            mount("tmpfs", dst, "tmpfs", MS_NOSUID | MS_NODEV, item["options"])
        elif kind == "proc":
            os.makedirs(dst, mode=0o755, exist_ok=True)
            mount("proc", dst, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
        else:
            raise ValueError(f"unknown layout item {kind!r}")
    mount(None, root, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chroot(root)
    os.chdir("/")


def drop_privileges(cfg):
    for name, value in cfg["rlimits"].items():
        limit = getattr(resource, "RLIMIT_" + name)
        resource.setrlimit(limit, (value, value))
    if cfg["mode"] == "root":
        uid, gid = cfg["uid"], cfg["gid"]
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)           # all capabilities go with uid 0
        if os.getuid() != uid or os.geteuid() != uid:
            raise OSError("setuid did not stick")
    else:
        # Root of a user namespace: keep uid 0 but give up every capability, now
        # and after exec (SECBIT_NOROOT), so the chroot and mounts cannot be undone.
        prctl(PR_SET_SECUREBITS, SECUREBITS)
        last = int(open("/proc/sys/kernel/cap_last_cap").read()) if os.path.exists("/proc/sys/kernel/cap_last_cap") else 40
        for cap in range(last + 1):
            prctl(PR_CAPBSET_DROP, cap)
        header = (ctypes.c_uint32 * 2)(0x20080522, 0)      # _LINUX_CAPABILITY_VERSION_3
        data = (ctypes.c_uint32 * 6)()                      # effective, permitted, inheritable x 2
        if libc.capset(header, data) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"capset: {os.strerror(err)}")
    prctl(PR_SET_NO_NEW_PRIVS, 1)


def join_cgroups(files):
    for path in files:
        try:
            with open(path, "w") as f:
                f.write("0")
        except OSError as exc:
            fail(f"could not join the control group {path}: {exc.strerror or exc}")


def say(line):
    try:
        os.write(2, (line + "\n").encode())
    except OSError:
        pass


def run_sandbox(cfg, launch):
    """PID 1: build the root, fork the kernel (``launch(cfg)`` in the child), reap, exit with its status."""
    join_cgroups(cfg.get("cgroups") or ())
    if cfg.get("hostname"):
        try:
            socket.sethostname(cfg["hostname"])
        except OSError as exc:
            fail(f"could not set the sandbox's host name: {exc}")
    try:
        if cfg.get("root"):
            build_root(cfg["root"], cfg["layout"])
    except OSError as exc:
        fail(f"could not build the sandbox file system: {exc}")
    log_fd = None
    if cfg.get("log"):
        log_fd = os.open(cfg["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
    # Interrupts and terminations sent to PID 1 go to the kernel.
    child = [0]

    def forward(signum, frame):
        if child[0]:
            try:
                os.kill(child[0], signum)
            except OSError:
                pass
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, forward)

    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_end)
            os.setsid()
            for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGCHLD):
                signal.signal(sig, signal.SIG_DFL)
            null = os.open("/dev/null", os.O_RDONLY)
            os.dup2(null, 0)
            if log_fd is not None:
                os.dup2(log_fd, 1)
                os.dup2(log_fd, 2)
            os.closerange(3, write_end)
            os.closerange(write_end + 1, 65536)
            os.chdir(cfg["cwd"])
            drop_privileges(cfg)
            launch(cfg, write_end)
        except BaseException as exc:          # report to PID 1, which reports to the grader
            try:
                os.write(write_end, f"{type(exc).__name__}: {exc}".encode()[:2000])
            finally:
                os._exit(112)
        os._exit(0)
    child[0] = pid
    os.close(write_end)
    if log_fd is not None:
        os.close(log_fd)
    problem = os.read(read_end, 4000)           # empty once the kernel started (pipe closed)
    os.close(read_end)
    if problem:
        fail(f"could not start the kernel: {problem.decode(errors='replace')}")
    say(STARTED)
    while True:
        try:
            done, status = os.wait()
        except ChildProcessError:
            os._exit(0)
        except InterruptedError:
            continue
        if done == pid:
            if os.WIFSIGNALED(status):
                say(f"{EXITED} signal {os.WTERMSIG(status)}")
                os._exit(128 + os.WTERMSIG(status))
            code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1
            say(f"{EXITED} status {code}")
            os._exit(code)


def exec_launch(cfg, report_fd):
    os.set_inheritable(report_fd, False)        # closed by a successful exec
    os.execve(cfg["argv"][0], cfg["argv"], cfg["env"])


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cfg = json.load(f)
    run_sandbox(cfg, exec_launch)


if __name__ == "__main__":
    main()
