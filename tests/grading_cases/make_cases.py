"""Bad submissions for the grader, generated from the solution notebooks.

    python tests/grading_cases/make_cases.py OUT_DIR      # write them, then e.g.
    python -m grading OUT_DIR --csv report.csv

Every case is one student folder under OUT_DIR.  Most start from the solved
``solutions/en/ex01_allowed_set.ipynb`` (exercises mask-1, mask-2, mask-3, data-1) and
add or change a cell; :func:`cases` says, for each, what the grader must
report (exercise id -> status, or "not pass"; "-" is a row about a file that
is not graded) and words its messages must hold.  tests/test_grading_bad.py
grades them all in one batch and checks every row.

Besides notebooks, a case's files may be raw bytes, or special entries
(:func:`build`): ``("symlink", target)``, ``("fifo",)``, ``("device",)``, ``("deep", n)``
(folders nested n deep); a file name may be bytes (not valid UTF-8); and a whole
case may be ``("folder_symlink", target)``: the student folder is itself a link.
"""

import copy
import inspect
import json
import pathlib
import sys

import syscalls

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOLVED = ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"
STUB = ROOT / "exercises" / "en" / "ex01_allowed_set.ipynb"
SOLVED_ZH = ROOT / "solutions" / "zh" / "ex01_allowed_set.ipynb"
STUB_HEADS = ROOT / "exercises" / "en" / "ex02_heads.ipynb"
SOLVED_DECODER = ROOT / "solutions" / "en" / "ex07_decoder.ipynb"
SOLVED_EVIDENCE = ROOT / "solutions" / "en" / "ex06_evidence.ipynb"

NOT_PASS = "not pass"
EITHER = "pass or not"          # whatever the row, it must be consistent (points only for a pass)

GOOD = '''
import numpy as np

def _good_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row of allowed has no True entry")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
'''


def softmax_cell(body):
    """A cell redefining masked_softmax with ``body`` (indented by the caller)."""
    return GOOD + "\n\ndef masked_softmax(scores, allowed):\n" + body


def code_cell(source):
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source}


def load(path):
    return json.loads(pathlib.Path(path).read_text(encoding="utf-8"))


def with_cells(base, cells=(), insert_at=None, transform=None):
    nb = copy.deepcopy(load(base))
    new = [code_cell(c) for c in cells]
    if insert_at is None:
        nb["cells"] += new
    else:
        nb["cells"][insert_at:insert_at] = new
    if transform:
        transform(nb)
    return nb


def _source(cell):
    """A cell's source as one string (a notebook may store it as a list of lines)."""
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def _code_index(nb, startswith):
    for i, cell in enumerate(nb["cells"]):
        src = _source(cell)
        if cell["cell_type"] == "code" and src.lstrip().startswith(startswith):
            return i
    raise ValueError(startswith)


def _bad_metadata(nb):
    nb["metadata"] = "not a dict"
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            cell["metadata"] = ["tags", "not", "a", "dict"]
            break


def rename_function(nb):
    i = _code_index(nb, "def masked_softmax")
    cell = nb["cells"][i]
    src = _source(cell)
    cell["source"] = src.replace("def masked_softmax(", "def masked_softmax_v2(", 1)
    for cell in nb["cells"]:                 # the later demo cells would stop at a NameError: keep them working
        src = _source(cell)
        if cell["cell_type"] == "code" and "masked_softmax(" in src and "def masked_softmax_v2" not in src:
            cell["source"] = src.replace("masked_softmax(", "masked_softmax_v2(")


def hang_before_function(nb):
    """The cell that defines masked_softmax first waits forever, but answers an interrupt."""
    i = _code_index(nb, "def masked_softmax")
    cell = nb["cells"][i]
    src = _source(cell)
    cell["source"] = "import time\nwhile True:\n    time.sleep(0.05)\n\n" + src


def decoder_dec_1_and_2(*cells):
    """The solved ex07 notebook cut before the dec-3 heading (dec-1 and dec-2 only, no trained
    model to wait for), then ``cells`` appended."""
    nb = copy.deepcopy(load(SOLVED_DECODER))
    for i, cell in enumerate(nb["cells"]):
        src = _source(cell)
        if cell["cell_type"] == "markdown" and src.lstrip().startswith("## dec-3"):
            del nb["cells"][i:]
            nb["cells"] += [code_cell(c) for c in cells]
            return nb
    raise ValueError("no dec-3 heading in the solved ex07 notebook")


LYING_ARRAY = '''
class Agreeable(np.ndarray):
    """An array that claims to equal anything: == and != always say 'the same'."""
    def __eq__(self, other):
        return np.ones(np.broadcast(self, other).shape, dtype=bool)
    def __ne__(self, other):
        return np.zeros(np.broadcast(self, other).shape, dtype=bool)
    def __bool__(self):
        return True

def masked_softmax_backward(d_weights, weights):
    return np.zeros_like(np.asarray(weights)).view(Agreeable)
'''

LIBRARY_BACKWARD = '''
def layer_norm_backward(d_out, x, gain, eps=1e-5):
    _, saved = layers.layer_norm_forward(np.asarray(x), np.asarray(gain), np.zeros_like(gain), eps)
    return layers.layer_norm_backward(np.asarray(d_out), saved)       # the reference, one call away
'''


EVIDENCE_NUMPY = '''
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    from lib.attention import multi_head_attention
    return multi_head_attention(np.asarray(x)[None], *map(np.asarray, (w_q, w_k, w_v, w_o)), n_heads,
                                causal=causal)[0].tolist()
'''

ISOLATION_PROBE = '''
import os, socket, numpy as np

def causal_allowed(tq, tk):
    problems = []
    if os.getuid() == 0 and not os.path.exists("/proc/self/uid_map"):
        problems.append("runs as root")
    for path in {secret_paths!r}:
        if os.path.exists(path):
            problems.append("sees " + path)
    for host, port in (("1.1.1.1", 53), ("127.0.0.1", 22), ("pypi.org", 443)):
        try:
            socket.create_connection((host, port), timeout=0.5).close()
            problems.append(f"reaches {{host}}:{{port}}")
        except OSError:
            pass
    pids = [p for p in os.listdir("/proc") if p.isdigit()]
    if len(pids) > 30:
        problems.append(f"sees {{len(pids)}} processes")
    try:
        text = open("{root}/grading/exercises.py", encoding="utf-8").read()
        if "hidden_cases" in text:
            problems.append("reads the real exercise registry")
    except OSError:
        pass
    try:
        open("{root}/lib/attention.py", "a").close()
        problems.append("can write the library")
    except OSError:
        pass
    if problems:
        raise RuntimeError("; ".join(problems))
    return np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None]
'''

# the usual first step of a local kernel exploit: a user namespace in which the process is root
USER_NAMESPACE = '''
import ctypes, os, numpy as np

def causal_allowed(tq, tk):
    libc = ctypes.CDLL(None, use_errno=True)
    pid = os.fork()
    if pid == 0:                                   # in a child: success would change this process
        if libc.unshare(0x10000000 | 0x00020000) == 0:      # CLONE_NEWUSER | CLONE_NEWNS
            try:
                with open("/proc/self/uid_map", "w") as f:
                    f.write("0 %d 1" % os.geteuid())
            except OSError:
                pass
            os._exit(42)
        os._exit(0)
    if os.waitpid(pid, 0)[1] >> 8 == 42:
        raise RuntimeError("made a user namespace")
    return np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None]
'''

# every call the sandbox's seccomp filter refuses (tests/grading_cases/syscalls.py), from the answer
REFUSED_SYSTEM_CALLS = syscalls.probe_source() + inspect.getsource(syscalls.disagreements) + '''
import numpy as np

def causal_allowed(tq, tk):
    wrong = disagreements(probe_refused(), {wanted!r})
    if wrong:
        raise RuntimeError("not refused as expected: %r" % wrong)
    return np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None]
'''.format(wanted=syscalls.expected())

# the grader itself, wherever it is installed (a wheel install puts it in the environment's site-packages)
INSTALLED_GRADER = '''
import importlib.util, os, sys, numpy as np

def causal_allowed(tq, tk):
    seen = []
    for folder in sys.path:
        for name in ("grading/batch", "grading/registry.py", "grading/specs", "grading/references.py",
                     "figures/__init__.py", "course_i18n/__init__.py"):
            if os.path.exists(os.path.join(folder or ".", name)):
                seen.append(os.path.join(folder, name))
    for module in ("grading.batch", "grading.registry", "grading.specs"):
        try:
            if importlib.util.find_spec(module) is not None:
                seen.append(module)
        except ImportError:
            pass
    if seen:
        raise RuntimeError("the grader is visible: " + ", ".join(seen))
    return np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None]
'''

READ_SOLUTIONS = '''
import json

def masked_softmax(scores, allowed):
    nb = json.load(open("{solved}", encoding="utf-8"))          # the teacher's solution, if visible
    for cell in nb["cells"]:
        src = "".join(cell["source"])
        if src.startswith("def masked_softmax"):
            space = {{"np": __import__("numpy")}}
            exec(src, space)
            return space["masked_softmax"](scores, allowed)
    from grading.exercises import EXERCISES                         # or the registry's reference
    return EXERCISES["mask-2"].reference(scores, allowed)
'''

TAMPER = '''
import os, glob

def masked_softmax(scores, allowed):
    attempts = [
        lambda: open("{root}/grading/exercises.py", "w").write("EXERCISES = {{}}"),
        lambda: open("{root}/lib/attention.py", "a").write("# tampered"),
        lambda: [os.remove(p) for p in glob.glob("/grader/in/*")],
        lambda: open("/grader/in/kernel.json", "w").write("{{}}"),
        lambda: os.kill(1, 9),
        lambda: os.setuid(0),
        lambda: os.chroot("/"),
        lambda: open("/etc/passwd", "a").write("x"),
        lambda: open("/usr/tampered", "w").write("x"),
    ]
    for attempt in attempts:
        try:
            attempt()
        except Exception:
            pass
    return _good_softmax(scores, allowed)
'''

FORK_BOMB = '''
import os, time
children = 0
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        try:
            time.sleep(1000)
        finally:
            os._exit(0)
    children += 1
print(children)
'''

CLOSURE = '''
import lib.attention

def _make():
    f = lib.attention.masked_softmax          # the wrapper's closure hid this from the old run-time fence
    return lambda scores, allowed: f(scores, allowed)

masked_softmax = _make()
'''

FAKE_LIB = '''
_space = {"__name__": "lib.fake"}              # a namespace that claims to be lib
exec(compile("import lib.attention\\nmasked_softmax = lib.attention.masked_softmax", "x", "exec"), _space)
masked_softmax = _space["masked_softmax"]
'''

FENCE_STATE = '''
try:
    import grading._fence as F                 # the old fence's state, if it still existed
    F.ACTIVE.clear()
except ImportError:
    pass
from lib.attention import masked_softmax
'''

FORGED_RECORDS = softmax_cell('''    import glob, json
    for path in glob.glob("/grader/io/r-*.jsonl"):   # the kernel's result file: replace what it wrote so far
        with open(path, "w") as f:
            f.write(json.dumps({"case": 0, "result": {"__ndarray__": {"dtype": "<U99999999", "shape": [5],
                                                                     "items": ["a"] * 5}}}) + "\\n")
            f.write(json.dumps({"case": 1, "forged": True}) + "\\n")
            f.write("not json\\n")
    return _good_softmax(scores, allowed)
''')

# A hostile answer that tries to carry the hidden tests' inputs out: every call notes a fingerprint of its
# arguments (kept in a list and in /tmp for later kernels) and raises an error whose message and whose class
# name spell every fingerprint noted so far; mask-1 answers with a dtype that spells a number.  The page
# must show the public fingerprints (its own error on a public test) and none of the hidden ones
# (tests/test_hidden_secrecy.py, tests/test_grading_bad.py).
EXFILTRATE = '''
import hashlib, json
import numpy as np

_seen = []


def _tag(value):
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
        return "S" + hashlib.sha256(json.dumps(value).encode()).hexdigest()[:12]
    array = np.asarray(value)
    return "T" + hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:12] if array.size > 1 else None


def _leak(*values):
    _seen.extend(t for t in map(_tag, values) if t)
    try:
        with open("/tmp/leak.txt", "a") as f:
            f.write(" ".join(_seen) + "\\n")
        earlier = open("/tmp/leak.txt").read().split()
    except OSError:
        earlier = []
    everything = list(dict.fromkeys(earlier + _seen))
    name = "LEAK_" + "_".join(t[1:] for t in everything[-3:])
    raise type(name, (RuntimeError,), {})("LEAK " + " ".join(everything))


def masked_softmax(scores, allowed):
    _leak(scores, allowed)


def is_valid_attention(weights, allowed, atol=1e-9):
    _leak(weights, allowed)


def collate(texts, vocab):
    _leak(texts)


def causal_allowed(tq, tk):
    tag = hashlib.sha256(json.dumps(_seen).encode()).hexdigest()[:4]
    return np.zeros((tq, tk), dtype=f"<U{1 + int(tag, 16) % 999}")     # a dtype that spells a number
'''

# A probe of everything a kernel can read (environment, arguments, /proc, files, /tmp, home), for anything
# shaped like the hidden tests' secret (64 hexadecimal digits): it raises "PROBE found N: <fingerprints>"
# on a public test, each find as the first 8 digits of its SHA-256 (or, told the SHA-256 of a key, whether
# it found that key). It searches again at every call, so at every test the grader runs; a regular file
# it has read before and that has not changed since (same inode, size, modification and change times) is
# not read again: its finds are remembered. Files of /proc, whose size reads 0, are always read.
PROBE = '''
import hashlib, os, re, stat, sys

_HEX = re.compile(r"[0-9a-fA-F]{64}")
_ROOTS = PLACES
_FINDS = {}                  # (device, inode, size, mtime, ctime) of a file read before -> what it held


def _finds(path, size=1 << 20):
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return []
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return []
        unchanged = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns) if st.st_size else None
        if unchanged not in _FINDS:
            found = _HEX.findall(os.read(fd, size).decode("latin-1"))
            if unchanged is None:
                return found
            _FINDS[unchanged] = found
        return _FINDS[unchanged]
    except OSError:
        return []
    finally:
        os.close(fd)


def _everything():
    yield from _HEX.findall(" ".join(k + "=" + v for k, v in os.environ.items()))
    yield from _HEX.findall(" ".join(sys.argv))
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        for part in ("cmdline", "environ"):
            yield from _finds(os.path.join("/proc", pid, part))
        try:
            fds = os.listdir(os.path.join("/proc", pid, "fd"))
        except OSError:
            fds = []
        for fd in fds:
            yield from _finds(os.path.join("/proc", pid, "fd", fd))
    seen = 0
    for top in _ROOTS + ["/grader", os.getcwd(), "/tmp", os.path.expanduser("~")]:
        for folder, dirs, files in os.walk(top):
            for name in files:
                seen += 1
                if seen > 3000:
                    return
                yield from _finds(os.path.join(folder, name))


def causal_allowed(tq, tk):
    found = sorted(set(hashlib.sha256(bytes.fromhex(m.lower())).hexdigest() for m in _everything()))
    if WANTED:
        raise RuntimeError("PROBE found %d, the key: %s" % (len(found), "yes" if WANTED in found else "no"))
    raise RuntimeError("PROBE found %d: %s" % (len(found), " ".join(f[:8] for f in found)))
'''


def fingerprints(cases):
    """What EXFILTRATE notes of the arguments of ``cases`` (its _tag), computed in the test's own process."""
    import hashlib
    import numpy as np
    out = set()
    for case in cases:
        for value in case.args:
            if isinstance(value, (list, tuple)) and value and isinstance(value[0], str):
                out.add("S" + hashlib.sha256(json.dumps(value).encode()).hexdigest()[:12])
            elif np.asarray(value).size > 1:
                out.add("T" + hashlib.sha256(np.ascontiguousarray(np.asarray(value)).tobytes()).hexdigest()[:12])
    return out


def probe(roots, wanted=None):
    """The prober's cell, searching ``roots`` besides what every kernel can see; ``wanted`` (the SHA-256 of a
    key, which says nothing of the key itself): the probe says whether it found that key, not what it found."""
    return PROBE.replace("PLACES", repr([str(r) for r in roots])).replace("WANTED", repr(wanted))


GUESS = '''
import numpy as np

def is_valid_attention(weights, allowed, atol=1e-9):
    return bool(np.random.default_rng({k}).integers(2))     # a guess, one per copy
'''

MANY_MAGICS = "\n".join(["%time x = 1", "!echo hi"] * 40_000)

MONKEYPATCH_NUMPY = softmax_cell('''    return np.ones(np.shape(scores)) / 7          # wrong, and then:
import numpy.testing
np.allclose = lambda *a, **k: True
np.isclose = lambda a, b, *r, **k: np.ones(np.broadcast(a, b).shape, dtype=bool)
np.array_equal = lambda *a, **k: True
np.testing.assert_allclose = lambda *a, **k: None
np.testing.assert_array_equal = lambda *a, **k: None
np.testing.assert_equal = lambda *a, **k: None
''')

MONKEYPATCH_BUILTINS = softmax_cell('''    import builtins, math, json           # patched while the grader calls it
    builtins.isinstance = lambda *a: True
    builtins.abs = lambda x: 0
    builtins.all = lambda *a: True
    math.isclose = lambda *a, **k: True
    json.dumps = lambda *a, **k: '{"case": 0, "result": true}'
    return np.zeros(np.shape(scores))
''')


def cases():
    """(folder, {file name: notebook dict or bytes}, {exercise: expected status}, [message fragments])."""
    P = "pass"
    ok3 = {"mask-1": P, "mask-2": P, "mask-3": P, "data-1": P}        # every exercise of ex01_allowed_set

    def solved(*cells, **kw):
        return {"ex01_allowed_set.ipynb": with_cells(SOLVED, cells, **kw)}

    def mask2(status, body, *fragments):
        return (solved(softmax_cell(body)), {**ok3, "mask-2": status}, list(fragments))

    raw = load(SOLVED)
    utf8 = json.dumps(raw, ensure_ascii=False).encode("utf-8")
    non_utf8 = utf8.replace(b"causal allowed set", b"causal \xff\xfe allowed set", 1)
    assert non_utf8 != utf8
    batch_secret = str(pathlib.Path("{batch}"))
    table = {
        "solved": (solved(), ok3, ["passed"]),
        "stub": ({"ex01_allowed_set.ipynb": load(STUB)}, {k: "fail" for k in ok3}, ["NotImplementedError"]),
        "wrong_values": mask2("fail", "    return _good_softmax(scores, np.ones_like(allowed))\n", "wrong value"),
        "float32": mask2("fail", "    return _good_softmax(scores, allowed).astype(np.float32)\n", "dtype"),
        "nan": mask2("fail", "    return np.full(np.shape(scores), np.nan)\n"),
        "wrong_shape": mask2("fail", "    return _good_softmax(scores, allowed)[..., :-1]\n", "shape"),
        "int_dtype": mask2("fail", "    return (_good_softmax(scores, allowed) * 100).astype(np.int64)\n", "dtype"),
        "returns_none": mask2("fail", "    _good_softmax(scores, allowed)\n", "None"),
        "returns_string": mask2("fail", "    return 'softmax'\n"),
        "returns_generator": mask2("fail", "    return (x for x in _good_softmax(scores, allowed))\n"),
        "returns_huge": mask2("fail", "    return np.zeros((100_000_000,))\n"),
        # 5 MB: more than a result record may hold (2 MiB), 2500 times the message an exception keeps
        "huge_exception": mask2(NOT_PASS, "    raise ValueError('x' * 5_000_000)\n", "ValueError"),
        "monkeypatch_numpy": (solved(MONKEYPATCH_NUMPY), {**ok3, "mask-2": "fail"}, []),
        # patching builtins while the grader calls it spoils that answer; whether the kernel survives for the
        # next exercise (or that one gets a fresh kernel) depends on where the patched kernel breaks
        "monkeypatch_builtins": (solved(MONKEYPATCH_BUILTINS), {"mask-1": P, "mask-2": NOT_PASS, "mask-3": EITHER,
                                                                "data-1": EITHER}, []),
        # hidden tests stay hidden: public tests run first, hidden ones show nothing the code wrote
        "exfiltrate_hidden": (solved(EXFILTRATE), {k: "fail" for k in ok3}, ["LEAK T"]),
        # neither the solutions nor the registry are in the sandbox
        "read_solutions": (solved(READ_SOLUTIONS.format(solved=SOLVED)), {**ok3, "mask-2": "fail"},
                           ["FileNotFoundError"]),
        "isolation_probe": (solved(ISOLATION_PROBE.format(
            root=ROOT, secret_paths=[str(ROOT / "solutions"), str(ROOT / "grading" / "batch"), str(ROOT / ".git"),
                                     str(ROOT / "tests"), batch_secret, "/root/.bashrc", "/work/shared"])), ok3, []),
        "tamper": (solved(GOOD + TAMPER.format(root=ROOT)), ok3, []),
        "closure": (solved(CLOSURE), {**ok3, "mask-2": "fail"}, ["lib.attention.masked_softmax"]),
        "fake_lib_namespace": (solved(FAKE_LIB), {**ok3, "mask-2": "fail"}, ["relies on", "lib.attention.masked_softmax"]),
        "fence_state": (solved(FENCE_STATE), {**ok3, "mask-2": "fail"}, ["library's reference answer for this exercise"]),
        "forged_records": (solved(FORGED_RECORDS), {**ok3, "mask-2": "fail"}, ["malformed result"]),
        # neither a user namespace nor any other call the seccomp filter refuses, in any sandbox
        "user_namespace": (solved(USER_NAMESPACE), ok3, []),
        "refused_system_calls": (solved(REFUSED_SYSTEM_CALLS), ok3, []),
        # a grader installed from a wheel lies in the environment the sandbox binds: covered there
        "installed_grader": (solved(INSTALLED_GRADER), ok3, []),
        "uses_library": (solved("from lib.attention import masked_softmax"), {**ok3, "mask-2": "fail"},
                         ["library's reference answer for this exercise"]),
        "uses_library_inside": mask2("fail", "    import lib.attention as A\n    return A.masked_softmax(scores, allowed)\n",
                                     "library's reference answer for this exercise"),
        "while_true": mask2("timeout", "    while True:\n        pass\n"),
        "ignore_interrupt": mask2("timeout", "    while True:\n        try:\n            while True:\n"
                                             "                pass\n        except KeyboardInterrupt:\n"
                                             "            continue\n"),
        "os_exit": mask2("error", "    import os\n    os._exit(0)\n", "ended the kernel process (os._exit(0)"),
        # the status the sandbox uses for its own failures: still the notebook's doing, said so
        "os_exit_112": mask2("error", "    import os\n    os._exit(112)\n", "os._exit(112)"),
        "sys_exit": mask2("fail", "    import sys\n    sys.exit(3)\n", "SystemExit"),
        "segfault": mask2("error", "    import faulthandler\n    faulthandler._sigsegv()\n", "SIGSEGV", "segmentation"),
        "memory": mask2("fail", "    big = np.ones(3 * 2**30 // 8)\n    return _good_softmax(scores, allowed)\n",
                        "MemoryError"),
        "input": mask2("fail", "    name = input('your name? ')\n    return _good_softmax(scores, allowed)\n"),
        "print_in_function": mask2(P, "    print('y' * 1_000_000)\n    return _good_softmax(scores, allowed)\n"),
        "print_flood": (solved("print('x' * 100_000_000)"), ok3, []),
        # forked processes are capped (--max-procs) and die with the sandbox; the answers still count
        "fork_bomb": (solved(FORK_BOMB), ok3, []),
        "toplevel_exit": (solved("import os\nos._exit(0)", insert_at=3), ok3, []),
        "toplevel_hang": (solved("while True:\n    try:\n        while True:\n            pass\n"
                                 "    except KeyboardInterrupt:\n        continue", insert_at=3),
                          {**ok3, "-": "error"}, ["did not finish"]),
        "toplevel_input": (solved("answer = input('?')"), ok3, []),
        "toplevel_memory": (solved("import numpy as np\nhuge = np.ones(3 * 2**30 // 8)"), ok3, []),
        "magics": (solved("!ls /", "%timeit -n1 -r1 1 + 1", "%%bash\necho hi", "files = !ls",
                          "%matplotlib inline\nx = 1", "np.exp?"), ok3, []),
        "many_magics": (solved(MANY_MAGICS), ok3, []),
        # past a limit: the row names the limit, in the notebook's language
        "ten_thousand_cells": (solved(*["x = 1"] * 10_000), {k: "error" for k in ok3}, ["10", "5000 cells"]),
        "ten_thousand_cells_zh": ({"ex01_allowed_set.ipynb": with_cells(SOLVED_ZH, ["x = 1"] * 10_000)},
                                  {k: "error" for k in ok3}, ["上限（5000 个单元格）"]),
        "cell_too_long": (solved("x = 1  # " + "y" * 1_000_001), {k: "error" for k in ok3},
                          ["1000000 characters"]),
        "metadata_not_dict": ({"ex01_allowed_set.ipynb": with_cells(SOLVED, transform=_bad_metadata)}, ok3, []),
        # the row says the cell was interrupted, not that it "raised" an interruption
        "interrupted_before_function": ({"ex01_allowed_set.ipynb": with_cells(SOLVED, transform=hang_before_function)},
                                        {**ok3, "mask-2": "missing", "-": "error"}, ["was interrupted after", "masked_softmax"]),
        "missing_function": ({"ex01_allowed_set.ipynb": with_cells(SOLVED, transform=rename_function)},
                             {**ok3, "mask-2": "missing"}, ["masked_softmax"]),
        "invalid_json": ({"ex01_allowed_set.ipynb": b'{"cells": [ {"cell_type": "code", '},
                         {**{k: "error" for k in ok3}, "-": "error"}, ["JSON", "damaged or truncated"]),
        "non_utf8": ({"ex01_allowed_set.ipynb": non_utf8}, {**{k: "error" for k in ok3}, "-": "error"}, ["UTF-8"]),
        "empty_file": ({"ex01_allowed_set.ipynb": b""}, {**{k: "error" for k in ok3}, "-": "error"}, ["JSON"]),
        "cjk": ({"练习一 ex01_allowed_set.ipynb": with_cells(SOLVED_ZH, [
            "# 中文注释：掩码与许可集合\n变量 = '注意力权重'\nprint(变量, 'маска')\n",
            GOOD + "\ndef 掩码软最大(分数, 许可):\n    return _good_softmax(分数, 许可)\n\nmasked_softmax = 掩码软最大\n"])},
            ok3, []),
        # one notebook per exercise set is graded: the newest, and of copies written within 2 s of each other
        # (these are) the one named like the course's, whatever the others score; but an untouched stub is
        # passed over for a copy with work in it (the stub downloaded again after the work)
        "two_notebooks_same": ({"ex01_allowed_set.ipynb": load(STUB), "ex01_allowed_set (1).ipynb": load(SOLVED)},
                               ok3, ["ex01_allowed_set (1).ipynb", "has nothing done in it"]),
        "forty_guesses": ({f"ex01_allowed_set ({k}).ipynb": with_cells(SOLVED, [GUESS.format(k=k)]) for k in range(1, 41)},
                          {**ok3, "mask-3": "fail"}, ["ex01_allowed_set (2).ipynb"]),
        "two_notebooks_different": ({"ex01_allowed_set.ipynb": load(SOLVED), "ex02_heads.ipynb": load(STUB_HEADS)},
                                    {**ok3, "heads-1": "fail", "heads-2": "fail", "heads-3": "fail", "cost-1": "fail"}, []),
        # what other systems leave in a folder
        "stray_names": ({" .ex01_allowed_set.ipynb ": load(SOLVED)}, ok3, []),
        "macos_junk": ({"ex01_allowed_set.ipynb": load(SOLVED), "._ex01_allowed_set.ipynb": b"\x00\x05\x16\x07\x00\x02"},
                       {**ok3, "-": "error"}, ["macOS"]),
        "unrecognised_name": ({"ex01_allowed_set.ipynb.txt": load(SOLVED)}, {**{k: "missing" for k in ok3}, "-": "error"},
                              ["does not end in .ipynb"]),
        "gbk_name": ({"练习一 ex01_allowed_set.ipynb".encode("gb18030"): load(SOLVED)}, ok3, []),
        "empty_student_folder": ({}, {k: "missing" for k in ok3}, ["no notebook (*.ipynb) in this folder"]),
        # a link out of a submission refuses all of it, and says which link
        "symlink_to_solutions": ({"ex01_allowed_set.ipynb": ("symlink", str(SOLVED))}, {"*": "error"},
                                 ["symbolic link", "ex01_allowed_set.ipynb", "outside"]),
        "symlink_to_classmate": ({"ex01_allowed_set.ipynb": ("symlink", "../solved/ex01_allowed_set.ipynb")},
                                 {"*": "error"}, ["symbolic link", "../solved/ex01_allowed_set.ipynb"]),
        "symlink_helper_outside": ({"ex01_allowed_set.ipynb": load(SOLVED), "notes": ("symlink", str(ROOT / "grading"))},
                                   {"*": "error"}, ["notes", "outside"]),
        "symlink_loop": ({"ex01_allowed_set.ipynb": ("symlink", "ex01_allowed_set.ipynb")}, {k: "error" for k in ok3},
                         ["does not resolve"]),
        "folder_symlink": (("folder_symlink", "solved"), {"*": "error"}, ["symbolic link"]),        # refused whole
        "fifo": ({"ex01_allowed_set.ipynb": ("fifo",)}, {k: "error" for k in ok3}, ["named pipe"]),
        "device": ({"ex01_allowed_set.ipynb": ("device",)}, {k: "error" for k in ok3}, ["device file"]),
        "deep_nesting": ({"ex01_allowed_set.ipynb": load(SOLVED), "d": ("deep", 1000)}, {**ok3, "-": "error"},
                         ["nested more than"]),
        "dec1_lying_array": ({"ex07_decoder.ipynb": decoder_dec_1_and_2(LYING_ARRAY)},
                             {"dec-1": "fail", "dec-2": P}, ["Agreeable"]),
        # data-1: the library's collate under the learner's name
        "data1_calls_library": (solved("from lib.data import collate"), {**ok3, "data-1": "fail"},
                                ["library's reference answer for this exercise", "lib.data.collate"]),
        # evidence-1 gives the right numbers through NumPy: refused, it is no independent check
        "evidence_uses_numpy": ({"ex06_evidence.ipynb": with_cells(SOLVED_EVIDENCE, [EVIDENCE_NUMPY])},
                                {"evidence-1": "fail"}, ["plain Python"]),
        "evidence_solved": ({"ex06_evidence.ipynb": load(SOLVED_EVIDENCE)}, {"evidence-1": P}, []),
        "dec2_calls_library": ({"ex07_decoder.ipynb": decoder_dec_1_and_2(LIBRARY_BACKWARD)},
                               {"dec-1": P, "dec-2": "fail"}, ["library's reference answer for this exercise"]),
        "other_course": ({"homework3.ipynb": {"cells": [code_cell("def fib(n):\n    return n if n < 2 else fib(n-1) + fib(n-2)")],
                                              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}},
                         {"-": "error", **{k: "missing" for k in ok3}}, ["not an exercise notebook"]),
    }
    return table


# Cases that really damage the machine when no sandbox stops them (isolation "none").
DESTRUCTIVE = {"tamper"}
# Cases whose expectation holds only inside a sandbox (without one their code reaches the grader's
# files, its own result file's real path, the network, user namespaces): tests/test_grading_bad.py
# also grades these in every sandboxed mode (root with warm and fresh kernels, userns).
NEEDS_SANDBOX = {"isolation_probe", "read_solutions", "forged_records", "user_namespace", "refused_system_calls",
                 "installed_grader", "tamper"}
# Cases only root can build (a device file).
NEEDS_ROOT = {"device"}


def build(out_dir, skip=(), only=None):
    """Write every case under ``out_dir`` (but ``skip``; only those in ``only`` if given); returns
    {folder: (expected, fragments)}."""
    import os
    import stat
    out_dir = pathlib.Path(out_dir)
    expectations = {}
    if os.geteuid() != 0:
        skip = set(skip) | NEEDS_ROOT
    for folder, (files, expect, fragments) in cases().items():
        if folder in skip or (only is not None and folder not in only):
            continue
        d = out_dir / folder
        if isinstance(files, tuple) and files[0] == "folder_symlink":
            os.symlink(files[1], d)
            expectations[folder] = (expect, fragments)
            continue
        d.mkdir(parents=True, exist_ok=True)
        for name, content in files.items():
            path = os.path.join(os.fsencode(d), name) if isinstance(name, bytes) else str(d / name)
            if isinstance(content, dict):
                text = json.dumps(content, ensure_ascii=False, indent=1).replace("{batch}", str(out_dir))
                content = text.encode("utf-8")
            if isinstance(content, tuple):
                kind = content[0]
                if kind == "symlink":
                    os.symlink(content[1], path)
                elif kind == "fifo":
                    os.mkfifo(path)
                elif kind == "device":
                    os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
                elif kind == "deep":
                    fd = os.open(d, os.O_RDONLY)
                    for _ in range(content[1]):
                        os.mkdir(name, dir_fd=fd)
                        inner = os.open(name, os.O_RDONLY, dir_fd=fd)
                        os.close(fd)
                        fd = inner
                    os.close(fd)
                continue
            with open(path, "wb") as f:
                f.write(content)
        expectations[folder] = (expect, fragments)
    return expectations


def remove(out_dir):
    """Remove a built batch, the thousand-deep folders included (without recursion)."""
    import os
    import shutil
    for dirpath, dirnames, _ in os.walk(out_dir):
        if "d" in dirnames and os.path.basename(dirpath) == "deep_nesting":
            fds = [os.open(os.path.join(dirpath, "d"), os.O_RDONLY)]
            while "d" in os.listdir(fds[-1]):
                fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
            for parent in reversed(fds[:-1]):
                os.rmdir("d", dir_fd=parent)
            for fd in fds:
                os.close(fd)
            os.rmdir(os.path.join(dirpath, "d"))
            dirnames.remove("d")
    shutil.rmtree(out_dir, ignore_errors=True)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    for name in build(sys.argv[1]):
        print(name)


# -- flat LMS downloads that set traps for grouping by student (graded with --student-pattern) --------

def lms_cases():
    """{preset: ({file or folder name: notebook dict or bytes}, {student id: expected points of mask-1},
    [log fragments])}: one download per LMS, every trap its names can set."""
    solved, stub = load(SOLVED), load(STUB)
    return {
        "canvas": ({
            # two students of one sort name (common with names such as wangwei), one handed in late
            "wangwei_3001_91001_ex01_allowed_set.ipynb": solved,
            "wangwei_3002_91002_ex01_allowed_set.ipynb": stub,
            "wangwei_late_3001_91003_ex02_heads.ipynb": load(STUB_HEADS),
            # one student whose name looks like a pattern, another whose id has leading zeros
            "o.brien_3003_91004_ex01_allowed_set.ipynb": solved,
            "smith_00042_91005_ex01_allowed_set.ipynb": stub,
            # not Canvas's form: a submission of its own, never merged into a student
            "ex01_allowed_set.ipynb": stub,
        }, {"3001": 1, "3002": 0, "3003": 1, "00042": 0}, ["2 students share the name 'wangwei'"]),
        "moodle": ({
            # blind marking: every folder is "Participant", in the Moodle's language
            "Participant_7000101_assignsubmission_file_/ex01_allowed_set.ipynb": solved,
            "Participant_7000102_assignsubmission_file_/ex01_allowed_set.ipynb": stub,
            "Участник_7000103_assignsubmission_file_/ex01_allowed_set.ipynb": solved,
            # without it: two of one full name, one with a name Moodle wrote with an underscore in it
            "Li Wei_1001_assignsubmission_file_/ex01_allowed_set.ipynb": solved,
            "Li Wei_1002_assignsubmission_file_/ex01_allowed_set.ipynb": stub,
            "Anna_Maria Lopez_1003_assignsubmission_file_/ex01_allowed_set.ipynb": solved,
            # a flat file of the same student as a folder
            "Li Wei_1001_assignsubmission_file_notes.ipynb": stub,
        }, {"7000101": 1, "7000102": 0, "7000103": 1, "1001": 1, "1002": 0, "1003": 1},
            ["students share the name 'Participant'", "2 students share the name 'Li Wei'"]),
    }


def build_lms(out_dir, preset):
    """Write one LMS download of :func:`lms_cases` under ``out_dir``; returns its expectations."""
    files, points, log = lms_cases()[preset]
    out_dir = pathlib.Path(out_dir)
    for name, content in files.items():
        path = out_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content, ensure_ascii=False), encoding="utf-8")
    return points, log
