"""Probes of the system calls a sandboxed kernel is refused (grading/batch/seccomp_filter.py),
as code that runs inside a kernel, and of the work a notebook still does there.

:func:`probe_source` is the text of a cell that defines ``probe_refused()``: it makes each call
of :data:`PROBES` and returns ``{probe: what came of it}``: ``"ok"``, an errno name, or
``"killed by SIGSEGV"``.  The arguments are chosen so that, where the kernel's own checks
allow it, an unfiltered call fails another way (EFAULT on an address where nothing is mapped,
EBADF, EINVAL, ESRCH) or succeeds without harm; a call that would change the process if it
succeeded (a namespace, a personality) is made in a child.  :func:`expected` is what the
filter answers for each.  ``normal_work()`` (:data:`NORMAL_WORK`) runs what notebooks do:
NumPy, threads, a subprocess of Python, fork, a multiprocessing pool, Unix sockets.

tests/test_grading_sandbox.py runs both in real sandboxed kernels in every mode; make_cases.py
puts them in hostile submissions of the battery.
"""

import errno

from grading.batch import seccomp_filter as F

BAD = 1                   # an address at which nothing is mapped
NOBODY = 0x7FFFFFF0       # a process ID no process has
SIGCHLD = 17
I386_UNSHARE, I386_GETPID = 310, 20

# (probe, system call, arguments, made in a child)
PROBES = [
    *((f"unshare({name})", "unshare", [flag], True) for name, flag in (
        ("CLONE_NEWUSER", F.CLONE_NEWUSER), ("CLONE_NEWUSER|CLONE_NEWNS", F.CLONE_NEWUSER | F.CLONE_NEWNS),
        ("CLONE_NEWNS", F.CLONE_NEWNS), ("CLONE_NEWPID", F.CLONE_NEWPID), ("CLONE_NEWNET", F.CLONE_NEWNET),
        ("CLONE_NEWUTS", F.CLONE_NEWUTS), ("CLONE_NEWIPC", F.CLONE_NEWIPC), ("CLONE_NEWCGROUP", F.CLONE_NEWCGROUP),
        ("CLONE_NEWTIME", F.CLONE_NEWTIME))),
    *((f"clone({name})", "clone", [flag | SIGCHLD, 0, 0, 0, 0], True) for name, flag in (
        ("CLONE_NEWUSER", F.CLONE_NEWUSER), ("CLONE_NEWNS", F.CLONE_NEWNS), ("CLONE_NEWPID", F.CLONE_NEWPID),
        ("CLONE_NEWNET", F.CLONE_NEWNET), ("CLONE_NEWUTS", F.CLONE_NEWUTS), ("CLONE_NEWIPC", F.CLONE_NEWIPC),
        ("CLONE_NEWCGROUP", F.CLONE_NEWCGROUP))),
    ("clone3", "clone3", [BAD, 88], False),
    ("setns", "setns", [-1, 0], False),
    ("mount", "mount", [BAD, BAD, BAD, 0, 0], False),
    ("umount2", "umount2", [BAD, 0xFFFF], False),
    ("pivot_root", "pivot_root", [BAD, BAD], False),
    ("chroot", "chroot", [BAD], False),
    ("move_mount", "move_mount", [-1, BAD, -1, BAD, 0xFFFFFFFF], False),
    ("open_tree", "open_tree", [-1, BAD, 0xFFFFFFFF], False),
    ("open_tree_attr", "open_tree_attr", [-1, BAD, 0xFFFFFFFF, 0, 0], False),
    ("fsopen", "fsopen", [BAD, 0xFFFFFFFF], False),
    ("fsmount", "fsmount", [-1, 0xFFFFFFFF, 0], False),
    ("fsconfig", "fsconfig", [-1, 0, 0, 0, 0], False),
    ("fspick", "fspick", [-1, BAD, 0xFFFFFFFF], False),
    ("mount_setattr", "mount_setattr", [-1, BAD, 0xFFFFFFFF, 0, 0], False),
    ("add_key", "add_key", [BAD, BAD, 0, 0, 0], False),
    ("keyctl", "keyctl", [0xFFFF, 0, 0, 0, 0], False),
    ("request_key", "request_key", [BAD, BAD, 0, 0], False),
    ("bpf", "bpf", [0xFFFF, BAD, 0], False),
    ("perf_event_open", "perf_event_open", [BAD, 0, -1, -1, 0], False),
    ("userfaultfd", "userfaultfd", [0xFFFFFFFF], False),
    ("io_uring_setup", "io_uring_setup", [1, BAD], False),
    ("io_uring_enter", "io_uring_enter", [-1, 0, 0, 0, 0, 0], False),
    ("io_uring_register", "io_uring_register", [-1, 0, 0, 0], False),
    ("ptrace", "ptrace", [2, NOBODY, 0, 0], False),                        # PTRACE_PEEKDATA
    ("process_vm_readv", "process_vm_readv", [NOBODY, BAD, 1, BAD, 1, 0], False),
    ("process_vm_writev", "process_vm_writev", [NOBODY, BAD, 1, BAD, 1, 0], False),
    ("pidfd_getfd", "pidfd_getfd", [-1, -1, 0], False),
    ("kexec_load", "kexec_load", [0, 0, 0, 0xFFFFFFFF], False),
    ("kexec_file_load", "kexec_file_load", [-1, -1, 0, 0, 0xFFFFFFFF], False),
    ("init_module", "init_module", [BAD, 0, BAD], False),
    ("finit_module", "finit_module", [-1, BAD, 0], False),
    ("delete_module", "delete_module", [BAD, 0], False),
    ("syslog", "syslog", [0xFFFF, 0, 0], False),
    ("uselib", "uselib", [BAD], False),
    ("acct", "acct", [BAD], False),
    ("quotactl", "quotactl", [0, BAD, 0, 0], False),
    ("quotactl_fd", "quotactl_fd", [-1, 0, 0, 0], False),
    ("modify_ldt", "modify_ldt", [0, BAD, 16], False),
    ("move_pages", "move_pages", [0, 1, BAD, BAD, BAD, 0], False),
    ("mbind", "mbind", [BAD, 0, 0xFFFF, 0, 0, 0], False),
    ("get_mempolicy", "get_mempolicy", [BAD, BAD, 0, 0, 0xFFFFFFFF], False),
    ("set_mempolicy", "set_mempolicy", [0xFFFF, 0, 0], False),
    ("set_mempolicy_home_node", "set_mempolicy_home_node", [0, 0, 0xFFFF, 0], False),
    ("migrate_pages", "migrate_pages", [NOBODY, 1, BAD, BAD], False),
    ("personality(PER_BSD)", "personality", [0x0006], True),
    ("ioctl(TIOCSTI)", "ioctl", [-1, F.TIOCSTI, BAD], False),
    ("ioctl(TIOCSTI, high bits set)", "ioctl", [-1, (0x123 << 32) | F.TIOCSTI, BAD], False),
    ("ioctl(TIOCLINUX)", "ioctl", [-1, F.TIOCLINUX, BAD], False),
    ("socket(AF_ALG)", "socket", [38, 5, 0], False),
    ("socket(AF_PACKET)", "socket", [17, 3, 0], False),
    ("socket(AF_VSOCK)", "socket", [40, 1, 0], False),
]

PROBE_CODE = '''
import ctypes, errno, mmap, os, platform, signal

def probe_refused(numbers={numbers!r}, probes={probes!r}):
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long

    def call(number, args):
        ctypes.set_errno(0)
        got = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
        if got >= 0:
            if number == numbers.get("socket"):
                os.close(got)
            return "ok"
        return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))

    def in_child(make):
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.write(write, make().encode())
            finally:
                os._exit(0)
        os.close(write)
        said = os.read(read, 200).decode()
        os.close(read)
        status = os.waitpid(pid, 0)[1]
        if os.WIFSIGNALED(status):
            return "killed by " + signal.Signals(os.WTERMSIG(status)).name
        return said[:2] if said.startswith("ok") else said

    found = {{}}
    for name, syscall, args, child in probes:
        if syscall not in numbers:
            continue                       # no such call on this architecture
        make = lambda: call(numbers[syscall], args)
        found[name] = in_child(make) if child else make()
    if platform.machine() == "x86_64":
        found["x32 ABI: getpid"] = call(0x40000000 | 39, [])
        # i386's entry point from this 64-bit process: push rbx; mov eax, NR; mov ebx, edi; int 0x80;
        # pop rbx; ret (a kernel without i386 emulation kills the process instead)
        for label, number in (("i386 ABI: unshare(CLONE_NEWUSER)", {i386_unshare}),
                              ("i386 ABI: getpid", {i386_getpid})):
            def int80(number=number):
                page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
                page.write(b"\\x53\\xb8" + number.to_bytes(4, "little") + b"\\x89\\xfb\\xcd\\x80\\x5b\\xc3")
                function = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(
                    ctypes.addressof(ctypes.c_char.from_buffer(page)))
                got = function({newuser})
                return "ok" if got >= 0 else errno.errorcode.get(-got, str(-got))
            found[label] = in_child(int80)
    return found
'''

NORMAL_WORK = '''
def normal_work():
    import multiprocessing, os, socket, subprocess, sys, threading
    import numpy as np
    done = {}
    a = np.random.default_rng(0).standard_normal((300, 300))
    done["numpy"] = round(float(np.trace(a @ a.T)), 3) > 0
    results = []
    threads = [threading.Thread(target=lambda k=k: results.append(k * k)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    done["threads"] = sorted(results) == [0, 1, 4, 9]
    done["subprocess"] = subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True,
                                        text=True, timeout=60).stdout.strip() == "42"
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    done["fork"] = os.WEXITSTATUS(os.waitpid(pid, 0)[1]) == 7
    with multiprocessing.get_context("fork").Pool(2) as pool:
        done["multiprocessing"] = pool.map(abs, [-1, -2, -3]) == [1, 2, 3]
    left, right = socket.socketpair()
    left.sendall(b"ping")
    done["unix socket"] = right.recv(4) == b"ping"
    left.close(), right.close()
    socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()
    done["inet socket"] = True
    return done
'''


def probe_source(arch=None):
    """The text of a cell that defines ``probe_refused()`` for this machine's system call numbers."""
    arch = arch or F.machine()
    probes = [[name, syscall, args, child] for name, syscall, args, child in PROBES]
    return PROBE_CODE.format(numbers=F.SYSCALLS[arch], probes=probes, i386_unshare=I386_UNSHARE,
                             i386_getpid=I386_GETPID, newuser=F.CLONE_NEWUSER)


def expected(arch=None):
    """{probe: the errno name the filter answers} for the probes that exist on this architecture
    (another ABI's calls: EPERM, or death by SIGSEGV where the kernel has no such ABI)."""
    arch = arch or F.machine()
    rules = {rule.name: errno.errorcode[rule.errno] for rule in F.RULES}
    out = {name: rules[syscall] for name, syscall, _, _ in PROBES if syscall in F.SYSCALLS[arch]}
    if arch == "x86_64":
        out.update({"x32 ABI: getpid": "EPERM", "i386 ABI: unshare(CLONE_NEWUSER)": "EPERM",
                    "i386 ABI: getpid": "EPERM"})
    return out


def disagreements(found, wanted):
    """The probes whose result is not what the filter answers: {probe: (wanted, found)}."""
    return {name: (want, found.get(name)) for name, want in wanted.items()
            if found.get(name) != want and not (name.startswith("i386") and found.get(name) == "killed by SIGSEGV")}
