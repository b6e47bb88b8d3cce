"""The seccomp filter of the grader's sandbox (grading/batch/seccomp_filter.py), as a program.

The program is run here by a small classic-BPF interpreter on every system call number of each
supported architecture, with the arguments that matter, and its verdict compared with the table
(:data:`seccomp_filter.RULES`) and with the filter libseccomp (the C library Flatpak uses, through
the ``pyseccomp`` binding of requirements-dev.txt) builds from the same table.  libseccomp also
checks the system call numbers.  tests/test_grading_sandbox.py makes the calls from real kernels.
"""

import errno
import struct
import tempfile

import pytest

from conftest import unavailable
from grading.batch import seccomp_filter as F
from grading.batch.sandbox import Sandbox, SandboxError

ARCHES = sorted(F.SYSCALLS)
I386, ARM = 0x40000003, 0x40000028               # AUDIT_ARCH_I386, AUDIT_ARCH_ARM: other ABIs
MASK32 = 0xFFFFFFFF
ALU = {0x00: lambda a, b: a + b, 0x10: lambda a, b: a - b, 0x20: lambda a, b: a * b, 0x40: lambda a, b: a | b,
       0x50: lambda a, b: a & b, 0x60: lambda a, b: a << (b & 31), 0x70: lambda a, b: a >> (b & 31),
       0x80: lambda a, b: -a, 0xA0: lambda a, b: a ^ b}


def run(program, nr, arch, args=(0,) * 6):
    """The verdict of a classic BPF ``program`` (struct sock_filter[] bytes) on one struct seccomp_data."""
    data = struct.pack("<iIQ6Q", nr, arch, 0, *[a & 0xFFFFFFFFFFFFFFFF for a in args])
    code = [struct.unpack_from("<HBBI", program, 8 * i) for i in range(len(program) // 8)]
    a = x = pc = 0
    memory = [0] * 16
    while True:
        op, jt, jf, k = code[pc]
        pc += 1
        cls = op & 0x07
        if cls == 0x00:                                        # LD
            mode = op & 0xE0
            a = (struct.unpack_from("<I", data, k)[0] if mode == 0x20 else k if mode == 0x00
                 else memory[k] if mode == 0x60 else len(data))
        elif cls == 0x01:                                      # LDX
            x = k if op & 0xE0 == 0x00 else memory[k] if op & 0xE0 == 0x60 else len(data)
        elif cls == 0x02:                                      # ST
            memory[k] = a
        elif cls == 0x03:                                      # STX
            memory[k] = x
        elif cls == 0x04:                                      # ALU
            operand = x if op & 0x08 else k
            a = ALU[op & 0xF0](a, operand) & MASK32
        elif cls == 0x05:                                      # JMP
            operand = x if op & 0x08 else k
            kind = op & 0xF0
            if kind == 0x00:
                pc += k
                continue
            taken = {0x10: a == operand, 0x20: a > operand, 0x30: a >= operand, 0x40: bool(a & operand)}[kind]
            pc += jt if taken else jf
        elif cls == 0x06:                                      # RET
            return a if op & 0x18 == 0x10 else k
        elif cls == 0x07:                                      # MISC: TAX, TXA
            if op & 0xF8 == 0x00:
                x = a
            else:
                a = x
        else:
            raise AssertionError(f"unknown BPF instruction {op:#x}")


def table_verdict(arch, nr, args):
    """What the table says of one call: SECCOMP_RET_ALLOW, or SECCOMP_RET_ERRNO | errno."""
    for rule in F.RULES:
        if F.SYSCALLS[arch].get(rule.name) != nr:
            continue
        if rule.when is not None:
            kind, index, values = rule.when
            value = args[index] & MASK32
            hit = {"any bit": lambda: bool(value & values), "one of": lambda: value in values,
                   "none of": lambda: value not in values}[kind]()
            if not hit:
                return F.RET_ALLOW
        return F.RET_ERRNO | rule.errno
    return F.RET_ALLOW


def argument_cases(arch, nr):
    """Argument vectors worth trying for call ``nr``: every flag, value and neighbour the tests of the
    table read, with and without high bits (the kernel reads only the low 32 bits of each)."""
    cases = [(0,) * 6]
    for rule in F.RULES:
        if rule.when is None or F.SYSCALLS[arch].get(rule.name) != nr:
            continue
        _, index, values = rule.when
        bits = [1 << b for b in range(32)] if isinstance(values, int) else []
        candidates = bits + list(values if not isinstance(values, int) else []) + list(range(0, 48))
        candidates += [F.CLONE_NEWUSER | F.CLONE_NEWNS | 17, 0x400, 0x5413, F.TIOCSTI + 1, MASK32]
        for value in candidates:
            for high in (0, 0x123 << 32):
                args = [0] * 6
                args[index] = value | high
                cases.append(tuple(args))
    return cases


@pytest.mark.parametrize("arch", ARCHES)
def test_the_program_says_what_the_table_says_for_every_call(arch):
    program = F.program(arch)
    audit_arch, other_abi = F.ARCHES[arch]
    assert len(program) % 8 == 0 and len(program) // 8 < 200
    checked = 0
    for nr in range(1024):
        for args in argument_cases(arch, nr):
            assert run(program, nr, audit_arch, args) == table_verdict(arch, nr, args), (arch, nr, args)
            checked += 1
    # every call of another ABI is refused, whatever it is
    for nr in (0, 39, 56, 272, 310, 435):
        for foreign in {I386, ARM}:
            assert run(program, nr, foreign) == F.RET_ERRNO | errno.EPERM
        if other_abi is not None:
            assert run(program, other_abi | nr, audit_arch) == F.RET_ERRNO | errno.EPERM
    assert checked > 1024


def test_the_filter_is_built_the_same_every_time():
    assert F.program("x86_64") == F.program("x86_64") and F.program("aarch64") != F.program("x86_64")
    assert "sha256" in F.describe("x86_64")


def test_another_architecture_is_refused_with_the_reason(monkeypatch):
    """No table for this machine: no sandbox rather than one without its filter (the grader fails closed)."""
    monkeypatch.setattr(F.platform, "machine", lambda: "ppc64le")
    with pytest.raises(F.UnsupportedMachine, match="x86_64 and aarch64"):
        F.program()
    with pytest.raises(SandboxError, match="ppc64le"):
        Sandbox("userns", cgroups=False)


def libseccomp():
    try:
        import seccomp
    except ImportError:
        try:
            import pyseccomp as seccomp
        except (ImportError, OSError) as exc:                 # OSError: no libseccomp.so.2 on the machine
            unavailable(f"libseccomp's Python binding (pyseccomp, requirements-dev.txt) is missing: {exc}")
    return seccomp


def libseccomp_program(seccomp, arch):
    """The table of seccomp_filter.py as libseccomp builds it (as Flatpak writes such rules), and the
    names libseccomp does not know (their numbers are then ours)."""
    target = {"x86_64": seccomp.Arch.X86_64, "aarch64": seccomp.Arch.AARCH64}[arch]
    f = seccomp.SyscallFilter(seccomp.ALLOW)
    if seccomp.system_arch() != target:
        f.add_arch(target)
        f.remove_arch(seccomp.Arch.NATIVE)
    f.set_attr(seccomp.Attr.ACT_BADARCH, seccomp.ERRNO(errno.EPERM))
    unknown = []
    for rule in F.RULES:
        if rule.name not in F.SYSCALLS[arch]:
            continue
        try:
            call = rule.name if seccomp.resolve_syscall(target, rule.name) >= 0 else F.SYSCALLS[arch][rule.name]
        except (ValueError, OSError):
            call = F.SYSCALLS[arch][rule.name]
        if call != rule.name:
            unknown.append(rule.name)
            if seccomp.system_arch() != target:
                continue            # libseccomp cannot place a number it does not know in another ABI's table
        action = seccomp.ERRNO(rule.errno)
        if rule.when is None:
            f.add_rule(action, call)
            continue
        kind, index, values = rule.when
        if kind == "any bit":
            for bit in (1 << b for b in range(32) if values >> b & 1):
                f.add_rule(action, call, seccomp.Arg(index, seccomp.MASKED_EQ, bit, bit))
        elif kind == "one of":
            for value in values:
                f.add_rule(action, call, seccomp.Arg(index, seccomp.MASKED_EQ, MASK32, value))
        else:                       # none of: every value between the allowed ones, then all above them
            allowed = sorted(values)
            for value in range(allowed[-1]):
                if value not in allowed:
                    f.add_rule_exactly(action, call, seccomp.Arg(index, seccomp.EQ, value))
            f.add_rule_exactly(action, call, seccomp.Arg(index, seccomp.GE, allowed[-1] + 1))
    with tempfile.TemporaryFile() as out:
        f.export_bpf(out)
        out.seek(0)
        return out.read(), unknown


@pytest.mark.parametrize("arch", ARCHES)
def test_libseccomp_knows_the_same_numbers(arch):
    seccomp = libseccomp()
    target = {"x86_64": seccomp.Arch.X86_64, "aarch64": seccomp.Arch.AARCH64}[arch]
    differ, unknown = {}, []
    for name, nr in sorted(F.SYSCALLS[arch].items()):
        theirs = seccomp.resolve_syscall(target, name)
        if theirs < 0:
            unknown.append(name)
        elif theirs != nr:
            differ[name] = (nr, theirs)
    assert differ == {}
    # calls newer than this libseccomp: the unified numbers (Linux 5.1 on) are the same on every architecture
    assert all(F.SYSCALLS[arch][name] >= 424 and F.SYSCALLS["x86_64"][name] == F.SYSCALLS["aarch64"][name]
               for name in unknown), unknown


@pytest.mark.parametrize("arch", ARCHES)
def test_libseccomp_builds_a_filter_with_the_same_verdicts(arch):
    """Over every call number below 1024 of the machine's ABI, with the interesting arguments (kept below
    2**32: libseccomp compares all 64 bits, the kernel and this filter the low 32), and over other ABIs."""
    seccomp = libseccomp()
    theirs, unknown = libseccomp_program(seccomp, arch)
    ours = F.program(arch)
    audit_arch, other_abi = F.ARCHES[arch]
    skipped = {F.SYSCALLS[arch][name] for name in unknown} if seccomp.system_arch() != F.ARCHES[arch][0] else set()
    differ = []
    for nr in range(1024):
        for args in argument_cases(arch, nr):
            if any(a >> 32 for a in args) or nr in skipped:
                continue
            if run(ours, nr, audit_arch, args) != run(theirs, nr, audit_arch, args):
                differ.append((nr, args))
    for foreign in (I386, ARM):
        for nr in (0, 20, 310, 435):
            assert run(theirs, nr, foreign) == run(ours, nr, foreign) == F.RET_ERRNO | errno.EPERM
    if other_abi is not None:
        assert run(ours, other_abi | 39, audit_arch) == F.RET_ERRNO | errno.EPERM
    assert differ == [], differ[:5]
    assert len(unknown) <= 3, unknown                  # the rest was checked by libseccomp's own names
