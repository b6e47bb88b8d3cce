"""The system calls a sandboxed kernel is refused: a seccomp filter compiled from :data:`RULES`.

bubblewrap installs the filter in every sandbox just before it runs the sandbox's command
(``--seccomp FD``, as Flatpak does), and a kernel that ``_warm.py`` forks into a sandbox
installs the same bytes itself, last thing before ipykernel starts (a forked process does not
inherit the filter of the sandbox's waiting process).  A filter cannot be removed or widened
once installed, and every process the kernel starts inherits it.

What is refused, and why (the table :data:`RULES` is the one source; ``docs/maintainers.md``,
"The grader's sandbox", says where the filter stands among the sandbox's other layers):

* new namespaces: ``unshare`` and ``clone`` with a new-namespace flag, ``setns``; ``clone3``
  returns ENOSYS, because its flags lie in memory, which seccomp cannot read, and on ENOSYS the
  C library falls back to ``clone``, whose flags it can read.  Unprivileged user namespaces are
  the usual first step of a local kernel exploit (the sandbox also limits them to none, see
  sandbox.py: this filter is the second wall, not the only one);
* the mount family (``mount``, ``umount2``, ``pivot_root``, ``chroot`` and the new mount API);
* the kernel's key rings, ``bpf``, ``perf_event_open``, ``userfaultfd``, ``io_uring``: large
  kernel interfaces with a record of local exploits that no notebook needs;
* reading or steering other processes (``ptrace``, ``process_vm_*``, ``pidfd_getfd``) and
  loading kernel code (``kexec_*``, ``*init_module``, ``delete_module``);
* the rest of Flatpak's list: the kernel log, accounting, quotas, ``modify_ldt``, NUMA memory
  placement, another ``personality``, typing into a terminal (``TIOCSTI``, ``TIOCLINUX``), and
  sockets of any family but Unix, IPv4, IPv6 and netlink (EAFNOSUPPORT).

A call of another ABI than the machine's own (i386 through ``int 0x80`` and x32 on x86_64,
32-bit ARM on aarch64) is refused whole: nothing here needs one, and a filter that reads the
numbers of one ABI only is bypassed through another.  Like Flatpak's, this is a deny list: a call
that Linux adds later is allowed until this table names it (the user-namespace wall of
sandbox.py does not depend on the table).

Why a small generator and not libseccomp: libseccomp (the C library Flatpak uses) has no
maintained binding on PyPI (``pyseccomp`` was last released in January 2021; libseccomp's own
binding ships only with distributions, for their system Python), and the grader must also work
when installed from a wheel into any Python >= 3.11.  The filter needed here is a list of
numbers of the machine's own ABI with one argument test in six places, so the program is short
(about 80 instructions) and built the same, byte for byte, from this file on every machine.
``tests/test_grading_seccomp.py`` checks the numbers against libseccomp's tables and the
program's verdict on every system call number against a filter libseccomp builds from the same
table, and ``tests/test_grading_sandbox.py`` makes each refused call from a real sandboxed kernel.
"""

import dataclasses
import errno
import hashlib
import platform
import struct
import sys

EPERM, ENOSYS, EAFNOSUPPORT = errno.EPERM, errno.ENOSYS, errno.EAFNOSUPPORT

CLONE_NEWTIME = 0x00000080          # unshare only: in clone's flags this byte is the exit signal
CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
NEW_NAMESPACES = (CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID
                  | CLONE_NEWNET)

TIOCSTI, TIOCLINUX = 0x5412, 0x541C
AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK = 0, 1, 2, 10, 16
PER_LINUX = 0


@dataclasses.dataclass(frozen=True)
class Rule:
    """One refused system call: ``name`` fails with ``errno``; with ``when``, only if its argument
    number ``when[1]`` (its low 32 bits, all the kernel reads of each argument tested here) has
    ``("any bit", mask)`` set, is ``("one of", values)``, or is ``("none of", values)``."""
    name: str
    errno: int
    why: str
    when: tuple = None


NAMESPACES = "a new namespace (unprivileged user namespaces are the usual first step of a kernel exploit)"
MOUNTS = "changing what the file system shows"
SURFACE = "a large kernel interface with a record of local exploits, which no notebook needs"
PROCESSES = "reading or steering another process"
KERNEL_CODE = "loading code into the kernel"
NUMA = "NUMA memory placement"

RULES = (
    Rule("unshare", EPERM, NAMESPACES, ("any bit", 0, NEW_NAMESPACES | CLONE_NEWTIME)),
    Rule("clone", EPERM, NAMESPACES, ("any bit", 0, NEW_NAMESPACES)),
    Rule("clone3", ENOSYS, "its flags are in memory, which seccomp cannot read: the C library falls back to clone"),
    Rule("setns", EPERM, "entering another namespace"),
    *(Rule(name, EPERM, MOUNTS) for name in (
        "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree", "open_tree_attr", "fsopen",
        "fsmount", "fsconfig", "fspick", "mount_setattr")),
    *(Rule(name, EPERM, "the kernel's key rings") for name in ("add_key", "keyctl", "request_key")),
    *(Rule(name, EPERM, SURFACE) for name in (
        "bpf", "perf_event_open", "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register")),
    *(Rule(name, EPERM, PROCESSES) for name in ("ptrace", "process_vm_readv", "process_vm_writev", "pidfd_getfd")),
    *(Rule(name, EPERM, KERNEL_CODE) for name in (
        "kexec_load", "kexec_file_load", "init_module", "finit_module", "delete_module")),
    Rule("syslog", EPERM, "the kernel's log"),
    Rule("uselib", EPERM, "an obsolete way to load a library"),
    Rule("acct", EPERM, "process accounting"),
    Rule("quotactl", EPERM, "disk quotas"),
    Rule("quotactl_fd", EPERM, "disk quotas"),
    Rule("modify_ldt", EPERM, "16-bit code, a history of information leaks"),
    *(Rule(name, EPERM, NUMA) for name in (
        "move_pages", "mbind", "get_mempolicy", "set_mempolicy", "set_mempolicy_home_node", "migrate_pages")),
    Rule("personality", EPERM, "another personality (another system's quirks)", ("none of", 0, (PER_LINUX,))),
    Rule("ioctl", EPERM, "typing into a terminal", ("one of", 1, (TIOCSTI, TIOCLINUX))),
    Rule("socket", EAFNOSUPPORT, "socket families other than Unix, IPv4, IPv6 and netlink (packet, "
         "Bluetooth, the kernel's crypto API...): rarely used code with a record of kernel bugs",
         ("none of", 0, (AF_UNSPEC, AF_UNIX, AF_INET, AF_INET6, AF_NETLINK))),
)

# The numbers of each call in the machine's own ABI (libseccomp's tables agree: the tests check).
# Calls added since Linux 5.1 have one number on every architecture (open_tree_attr: Linux 6.15).
_UNIFIED = dict(open_tree=428, move_mount=429, fsopen=430, fsconfig=431, fsmount=432, fspick=433, clone3=435,
                pidfd_getfd=438, mount_setattr=442, quotactl_fd=443, set_mempolicy_home_node=450,
                open_tree_attr=467, io_uring_setup=425, io_uring_enter=426, io_uring_register=427)
SYSCALLS = {
    "x86_64": dict(
        _UNIFIED, unshare=272, clone=56, setns=308, mount=165, umount2=166, pivot_root=155, chroot=161,
        add_key=248, request_key=249, keyctl=250, bpf=321, perf_event_open=298, userfaultfd=323, ptrace=101,
        process_vm_readv=310, process_vm_writev=311, kexec_load=246, kexec_file_load=320, init_module=175,
        finit_module=313, delete_module=176, syslog=103, uselib=134, acct=163, quotactl=179, modify_ldt=154,
        move_pages=279, mbind=237, get_mempolicy=239, set_mempolicy=238, migrate_pages=256, personality=135,
        ioctl=16, socket=41),
    "aarch64": dict(           # the generic table: no uselib, no modify_ldt
        _UNIFIED, unshare=97, clone=220, setns=268, mount=40, umount2=39, pivot_root=41, chroot=51,
        add_key=217, request_key=218, keyctl=219, bpf=280, perf_event_open=241, userfaultfd=282, ptrace=117,
        process_vm_readv=270, process_vm_writev=271, kexec_load=104, kexec_file_load=294, init_module=105,
        finit_module=273, delete_module=106, syslog=116, acct=89, quotactl=60, move_pages=239, mbind=235,
        get_mempolicy=236, set_mempolicy=237, migrate_pages=238, personality=92, ioctl=29, socket=198),
}
# (AUDIT_ARCH_* of the machine's own ABI, the first number of an ABI that shares it: x32's bit)
ARCHES = {"x86_64": (0xC000003E, 0x40000000), "aarch64": (0xC00000B7, None)}

# struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6] (little-endian)
NR, ARCH, ARGS = 0, 4, 16
# classic BPF
LD_ABS, JA, JEQ, JGE, JSET, RET = 0x20, 0x05, 0x15, 0x35, 0x45, 0x06
RET_ALLOW, RET_ERRNO = 0x7FFF0000, 0x00050000


class UnsupportedMachine(RuntimeError):
    """No system call table for this machine's architecture."""


def machine():
    """The architecture whose table applies to this Python (UnsupportedMachine if none)."""
    name = platform.machine()
    if name not in SYSCALLS or sys.maxsize < 2 ** 32 or sys.byteorder != "little":
        raise UnsupportedMachine(
            f"the sandbox's seccomp filter knows the system calls of 64-bit x86_64 and aarch64 only; this is "
            f"{name} with a {64 if sys.maxsize > 2 ** 32 else 32}-bit Python")
    return name


class _Assembler:
    """Instructions with symbolic jump targets, resolved to the offsets BPF counts from the next one."""

    def __init__(self):
        self.code, self.labels = [], {}

    def load(self, offset):
        self.code.append((LD_ABS, None, None, offset))

    def jump(self, op, k, true=None, false=None):
        """Conditional jump on the accumulator against ``k``; a label of None means the next instruction."""
        self.code.append((op, true, false, k))

    def goto(self, label):
        self.code.append((JA, None, None, label))

    def ret(self, value):
        self.code.append((RET, None, None, value))

    def label(self, name):
        assert name not in self.labels, name
        self.labels[name] = len(self.code)

    def bytes(self):
        out = []
        for i, (op, true, false, k) in enumerate(self.code):
            def offset(label, limit):
                if label is None:
                    return 0
                distance = self.labels[label] - (i + 1)
                if not 0 <= distance <= limit:
                    raise ValueError(f"jump from {i} to {label!r} is out of range ({distance})")
                return distance
            if op == JA:
                out.append(struct.pack("<HBBI", op, 0, 0, offset(k, 0xFFFFFFFF)))
            else:
                out.append(struct.pack("<HBBI", op, offset(true, 255), offset(false, 255), k))
        return b"".join(out)


def program(arch=None):
    """The filter, as the bytes of a ``struct sock_filter`` array (what ``bwrap --seccomp`` reads)."""
    arch = arch or machine()
    audit_arch, other_abi = ARCHES[arch]
    numbers = SYSCALLS[arch]
    asm = _Assembler()

    def refuse(code):
        return f"refuse {code}"
    asm.load(ARCH)
    asm.jump(JEQ, audit_arch, false=refuse(EPERM))        # another ABI's entry point: refused whole
    asm.load(NR)
    if other_abi is not None:
        asm.jump(JGE, other_abi, true=refuse(EPERM))
    for n, rule in enumerate(RULES):
        nr = numbers.get(rule.name)
        if nr is None:                                     # no such call on this architecture
            continue
        if rule.when is None:
            asm.jump(JEQ, nr, true=refuse(rule.errno))
            continue
        kind, index, values = rule.when
        after = f"after {n}"
        asm.jump(JEQ, nr, false=after)
        asm.load(ARGS + 8 * index)                         # the low 32 bits of the argument
        if kind == "any bit":
            asm.jump(JSET, values, true=refuse(rule.errno), false="allow")
        elif kind == "one of":
            for value in values:
                asm.jump(JEQ, value, true=refuse(rule.errno))
            asm.goto("allow")
        elif kind == "none of":
            for value in values:
                asm.jump(JEQ, value, true="allow")
            asm.goto(refuse(rule.errno))
        else:
            raise ValueError(f"{rule.name}: unknown test {kind!r}")
        asm.label(after)                                   # the accumulator still holds the number here
    asm.label("allow")
    asm.ret(RET_ALLOW)
    for code in sorted({EPERM} | {rule.errno for rule in RULES}):
        asm.label(refuse(code))
        asm.ret(RET_ERRNO | code)
    return asm.bytes()


def describe(arch=None):
    """What the report says about the filter: how many calls it refuses, and its fingerprint."""
    arch = arch or machine()
    known = [rule.name for rule in RULES if rule.name in SYSCALLS[arch]]
    return (f"seccomp: {len(known)} system calls refused or narrowed ({', '.join(known[:6])}, ...), other ABIs "
            f"refused; filter sha256 {hashlib.sha256(program(arch)).hexdigest()[:16]}")
