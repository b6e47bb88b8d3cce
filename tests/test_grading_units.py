"""Pieces of the grader: the JSON codec, notebook reading and recognition,
report writing, the reference fence, and the sandbox itself (one kernel at a
time: limits, isolation, clean-up, and the weaker isolation modes)."""

import json
import math
import os
import pathlib
import subprocess
import sys
import time

import numpy as np
import pytest

from grading.batch import codec, notebooks, report
from grading.batch.sandbox import Limits, Sandbox, SandboxError, choose_isolation, fence_stubs

ROOT = pathlib.Path(__file__).resolve().parent.parent
IS_ROOT = os.geteuid() == 0


# -- codec --------------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    None, True, 0, -5, 2 ** 80, 1.5, float("inf"), -float("inf"), 1 + 2j, "текст 文本", b"\x00\xff",
    (1, (2.0, "x")), [1, [2, [3]]], {"a": 1, 3: (4,)}, {1, 2},
    np.float32(0.1), np.int8(-3), np.bool_(True),
    np.arange(12, dtype=np.float32).reshape(3, 4), np.array([[True, False]]), np.zeros((0, 3)),
    np.array([1 + 1j], dtype=np.complex64), np.arange(5, dtype=">i4"), np.array(["ab", "c"]),
])
def test_codec_round_trip_is_exact(value):
    back = codec.loads(codec.dumps(value, strict=True))
    if isinstance(value, np.ndarray):
        assert type(back) is np.ndarray and back.dtype == value.dtype and back.shape == value.shape
        assert np.array_equal(back, value)
    elif isinstance(value, np.generic):
        assert type(back) is type(value) and back == value
    else:
        assert back == value and type(back) is type(value)


def test_codec_keeps_nan_bits_and_dtype():
    a = np.array([np.nan, -0.0, 1e-310, np.inf], dtype=np.float64)
    b = codec.loads(codec.dumps(a))
    assert a.tobytes() == b.tobytes()
    assert codec.loads(codec.dumps(float("nan"))) != codec.loads(codec.dumps(float("nan")))   # still a NaN
    assert math.isnan(codec.loads(codec.dumps(float("nan"))))


def test_codec_output_is_strict_json():
    text = codec.dumps([float("nan"), np.array([np.inf])])
    json.loads(text, parse_constant=lambda c: pytest.fail(f"non-standard JSON constant {c}"))


def test_codec_marks_what_it_cannot_encode():
    class Thing:
        def __repr__(self):
            raise RuntimeError("no repr for you")
    values = codec.loads(codec.dumps([Thing(), (x for x in ()), np.array([object()], dtype=object),
                                      np.ma.masked_array([1, 2])]))
    assert all(isinstance(v, codec.Unsupported) for v in values)
    with pytest.raises(codec.CodecError):
        codec.dumps(Thing(), strict=True)
    with pytest.raises(codec.CodecError):
        codec.encode(np.zeros(1000), max_bytes=100)


def test_codec_exceptions_refs_and_lone_surrogates():
    err = codec.loads(codec.dumps(ValueError("bad")))
    assert isinstance(err, codec.RaisedError) and err.is_a("ValueError") and err.is_a("Exception")
    assert codec.decode(codec.encode(codec.Ref("model")), refs={"model": 42}) == 42
    assert codec.loads(codec.dumps("a\udcffb")) == "a\ufffdb"


@pytest.mark.parametrize("payload", [
    '{"__ndarray__": {"dtype": "|O", "shape": [1], "data": ""}}',
    '{"__ndarray__": {"dtype": "<f8", "shape": [2], "data": "AAAAAAAAAAA="}}',
    '{"__ndarray__": {"dtype": "<f8", "shape": [100000, 100000, 100000], "data": ""}}',
    '{"__ndarray__": {"dtype": "<f8", "shape": [-1], "data": ""}}',
    '{"__npscalar__": {"dtype": "V8", "data": "AAAAAAAAAAA="}}',
    '{"__bigint__": "' + "9" * 5000 + '"}',
    '{"__pickle__": "gASV"}',
    '{"plain": "object"}',
    '[' * 10000 + ']' * 10000,
    'NaN',
    '{"__float__": "1e999"}',
    'not json',
])
def test_codec_rejects_malformed_payloads(payload):
    with pytest.raises(codec.CodecError):
        codec.loads(payload)


# -- notebooks ------------------------------------------------------------------------

STEMS = {"ex01_allowed_set": {"causal_allowed", "masked_softmax"}, "ex02_heads": {"split_heads"}}


def write_nb(path, cells, **metadata):
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
                    for c in cells], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    path.write_text(json.dumps(nb, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("name, cells, stem", [
    ("ex01_allowed_set.ipynb", [], "ex01_allowed_set"),
    ("alice-ex02_heads (1).ipynb", [], "ex02_heads"),
    ("EX01.ipynb", [], "ex01_allowed_set"),
    ("homework.ipynb", ["def masked_softmax(s, a):\n    pass"], "ex01_allowed_set"),
    ("homework.ipynb", ["def fib(n):\n    return n"], None),
    ("ex10_other.ipynb", [], None),
])
def test_identify(tmp_path, name, cells, stem):
    info = notebooks.read_notebook(write_nb(tmp_path / name, cells))
    assert notebooks.identify(info, STEMS) == stem


def test_identify_by_metadata(tmp_path):
    info = notebooks.read_notebook(write_nb(tmp_path / "x.ipynb", [], exercise_notebook="ex02_heads"))
    assert notebooks.identify(info, STEMS) == "ex02_heads" and info.how == "metadata"


@pytest.mark.parametrize("content, fragment", [
    (b"", "not valid JSON"),
    (b"\xff\xfe{}", "not valid UTF-8"),
    (b"[1, 2]", "not a Jupyter notebook"),
    (b'{"nbformat": 3, "worksheets": "nope"}', "not a Jupyter notebook"),
])
def test_unreadable_notebooks_get_a_problem_not_an_exception(tmp_path, content, fragment):
    path = tmp_path / "ex01_allowed_set.ipynb"
    path.write_bytes(content)
    info = notebooks.read_notebook(path)
    assert fragment in info.problem


def test_missing_file_gets_a_problem(tmp_path):
    assert "cannot read" in notebooks.read_notebook(tmp_path / "gone.ipynb").problem


def test_strip_magics_keeps_python_and_line_numbers():
    src = "!pip install x\nfor i in range(2):\n    %time y = 2\nfiles = !ls\ns = '''\n!not a shell line\n'''\nnp.exp?"
    out = notebooks.strip_magics(src)
    assert out.split("\n") == ["pass", "for i in range(2):", "    pass", "files = None", "s = '''",
                               "!not a shell line", "'''", "pass"]
    compile(out, "cell", "exec")
    assert notebooks.strip_magics("%%bash\nrm -rf /") == ""
    assert notebooks.strip_magics("%%time\nx = 1") == "x = 1"


def test_prepare_cell_drops_check_calls_only():
    assert notebooks.prepare_cell('check("mask-1", causal_allowed)') is None
    assert notebooks.prepare_cell("grading.exercises.check('mask-2', f)\n") is None
    kept = notebooks.prepare_cell("def f():\n    return 1\ncheck('mask-1', f)\nprint(f())")
    assert "check(" not in kept and "def f" in kept and "print(f())" in kept
    assert notebooks.prepare_cell("x = check") == "x = check"
    assert notebooks.prepare_cell("def f(:\n") == "def f(:\n"        # the kernel reports the SyntaxError
    assert notebooks.prepare_cell("x = 1", tags=("grader-skip",)) is None


def test_find_notebooks_groups_submissions(tmp_path):
    for rel in ("alice/ex01_allowed_set.ipynb", "alice/ex02_heads.ipynb", "bob/sub/ex01_allowed_set.ipynb",
                "bob/.ipynb_checkpoints/ex01_allowed_set-checkpoint.ipynb"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_nb(tmp_path / rel, [])
    by_dir, problems = notebooks.find_notebooks([tmp_path])
    assert sorted(pathlib.Path(k).relative_to(tmp_path).as_posix() for k in by_dir) == ["alice", "bob/sub"]
    assert problems == []
    by_top, _ = notebooks.find_notebooks([tmp_path], "top")
    assert sorted(pathlib.Path(k).name for k in by_top) == ["alice", "bob"]
    by_file, _ = notebooks.find_notebooks([tmp_path / "alice" / "ex01_allowed_set.ipynb", tmp_path / "bob"], "file")
    assert len(by_file) == 2
    _, problems = notebooks.find_notebooks([tmp_path / "nope"])
    assert problems and "no such" in problems[0]


# -- report ---------------------------------------------------------------------------

def test_atomic_write_replaces_whole_files(tmp_path):
    target = tmp_path / "r.json"
    report.atomic_write(target, "old")
    report.atomic_write(target, "new ✓ 中文")
    assert target.read_text(encoding="utf-8") == "new ✓ 中文"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_csv_quotes_commas_and_newlines():
    rows = [{"submission": "a,b", "exercise": "mask-1", "message": 'say "hi", then\nbye', "points": 1}]
    text = report.to_csv(rows)
    import csv
    import io
    back = list(csv.DictReader(io.StringIO(text)))
    assert back[0]["submission"] == "a,b" and back[0]["message"] == 'say "hi", then\nbye'


def test_fence_stubs_only_touch_lib_modules():
    stubs = fence_stubs(["lib.attention.masked_softmax", "grading.exercise_models.cached_step", "numpy.exp",
                         "lib.attention.bad name", "lib.attention.deeper.name"])
    assert set(stubs) == {("lib", "attention"), ("grading", "exercise_models")}
    assert ("masked_softmax = _grading_fence.wrap(masked_softmax, 'lib.attention.masked_softmax')"
            in stubs[("lib", "attention")])


# -- the sandbox, one kernel at a time -------------------------------------------------

@pytest.fixture(scope="module", params=["exec", "fork-server"])
def root_sandbox(request):
    """A root-mode sandbox whose kernels start by exec, or from the fork server (_zygote.py)."""
    if not IS_ROOT:
        pytest.skip("root mode needs root")
    sandbox = Sandbox("root", Limits(max_procs=64), lib_stubs=fence_stubs(["lib.attention.masked_softmax"]))
    try:
        sandbox.self_check()
    except SandboxError as exc:
        sandbox.close()
        pytest.skip(f"no root sandbox on this machine: {exc}")
    if request.param == "fork-server":
        assert sandbox.start_zygote() is None
    yield sandbox
    zygote = sandbox.zygote
    sandbox.close()
    if zygote is not None:
        assert zygote.proc.returncode == 0          # ended cleanly when its stdin closed


def run_in_kernel(sandbox, code, timeout=20):
    from grading.batch.kernel import Kernel
    kernel = Kernel(sandbox).start()
    try:
        result = kernel.execute(code, timeout)
        out = kernel.io_path("out.json")
        data = json.loads(out.read_text()) if out.exists() else None
        return kernel, result, data
    finally:
        kernel.kill()


def uid_processes(uid):
    n = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                n += entry.stat().st_uid == uid
            except OSError:
                pass
    return n


@pytest.mark.heavy
def test_forks_are_capped_and_all_die_with_the_sandbox(root_sandbox):
    code = """
import os, time, json
made = 0
for _ in range(300):
    try:
        pid = os.fork()
    except OSError:
        break
    if pid == 0:
        os.setsid()                      # try to escape the kernel's process group too
        time.sleep(1000)
        os._exit(0)
    made += 1
json.dump({"made": made, "uid": os.getuid()}, open("/grader/io/out.json", "w"))
"""
    kernel, result, data = run_in_kernel(root_sandbox, code)
    assert result.status == "ok" and 10 < data["made"] < 64, (result, data)
    assert data["uid"] == kernel.info["uid"] != 0
    deadline = time.monotonic() + 5
    while uid_processes(data["uid"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert uid_processes(data["uid"]) == 0


@pytest.mark.heavy
def test_kernel_has_no_privileges_network_or_secrets(root_sandbox):
    code = f"""
import os, json, socket, ctypes
facts = {{"uid": os.getuid(), "groups": os.getgroups(),
          "caps": [l.split()[1] for l in open("/proc/self/status") if l.startswith(("CapEff", "CapBnd"))],
          "nnp": [l.split()[1] for l in open("/proc/self/status") if l.startswith("NoNewPrivs")][0],
          "repo": sorted(os.listdir({str(ROOT)!r})), "lib": sorted(os.listdir({str(ROOT / "lib")!r})),
          "grading": sorted(os.listdir({str(ROOT / "grading")!r})),
          "exercises_stub": "hidden_cases" not in open({str(ROOT / "grading" / "exercises.py")!r}).read(),
          "pids": len([p for p in os.listdir("/proc") if p.isdigit()]),
          "interfaces": sorted(os.listdir("/sys/class/net")) if os.path.isdir("/sys/class/net") else []}}
try:
    socket.create_connection(("1.1.1.1", 53), timeout=1)
    facts["net"] = True
except OSError:
    facts["net"] = False
for path in ("/", "/usr/x", {str(ROOT / "lib" / "x")!r}):
    try:
        open(path.rstrip("/") + "/probe", "w")
        facts.setdefault("writable", []).append(path)
    except OSError:
        pass
json.dump(facts, open("/grader/io/out.json", "w"))
"""
    _, result, facts = run_in_kernel(root_sandbox, code)
    assert result.status == "ok", result
    assert facts["uid"] != 0 and facts["groups"] == []
    assert facts["caps"] == ["0000000000000000", "0000000000000000"] or facts["caps"][0] == "0000000000000000"
    assert facts["nnp"] == "1"
    assert facts["repo"] == [".venv", "grading", "lib"]
    assert facts["grading"] == ["__init__.py", "_fence.py", "exercise_models.py", "exercises.py"]
    assert facts["exercises_stub"] and "attention.py" in facts["lib"]
    assert facts["pids"] <= 3 and facts["net"] is False
    assert "writable" not in facts


@pytest.mark.heavy
def test_fence_blocks_the_reference_only_while_grading(root_sandbox):
    code = """
import json, lib.attention as A, grading._fence as F
import numpy as np
before = A.masked_softmax(np.zeros((1, 2)), np.ones((1, 2), bool)).tolist()   # outside grading: fine
F.ACTIVE.add("lib.attention.masked_softmax")
try:
    A.masked_softmax(np.zeros((1, 2)), np.ones((1, 2), bool))
    direct = "allowed"
except F.ReferenceUsedError:
    direct = "blocked"
inner = A.causal_attention(np.ones((2, 2)), np.ones((2, 2)), np.ones((2, 2))).shape   # lib calling lib: fine
json.dump({"before": before, "direct": direct, "used": F.USED, "inner": list(inner)}, open("/grader/io/out.json", "w"))
"""
    _, result, data = run_in_kernel(root_sandbox, code)
    assert result.status == "ok", result
    assert data == {"before": [[0.5, 0.5]], "direct": "blocked", "used": ["lib.attention.masked_softmax"],
                    "inner": [2, 2]}


@pytest.mark.heavy
def test_interrupt_then_kill(root_sandbox):
    from grading.batch.kernel import Kernel
    kernel = Kernel(root_sandbox).start()
    try:
        assert kernel.execute("while True: pass", 0.5).status == "timeout"
        assert kernel.interrupt(2.0) is True
        assert kernel.execute("x = 1", 5).status == "ok"
        stubborn = "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True: pass"
        assert kernel.execute(stubborn, 0.5).status == "timeout"
        assert kernel.interrupt(1.0) is False
    finally:
        start = time.monotonic()
        kernel.kill()
        assert time.monotonic() - start < 5 and not kernel.alive()


@pytest.mark.heavy
@pytest.mark.parametrize("mode, extra", [("userns", ()), ("none", ()), ("auto", ("--no-fork-server",))])
def test_other_isolation_modes_and_exec_start_still_grade(tmp_path, mode, extra):
    if mode == "userns":
        try:
            choose_isolation("userns")
        except Exception as exc:
            pytest.skip(f"user namespaces unavailable: {exc}")
    proc = subprocess.run([sys.executable, "-m", "grading", str(ROOT / "solutions" / "en" / "ex01_allowed_set.ipynb"),
                           "--isolation", mode, "--json", str(tmp_path / "r.json"), "--seed", "3", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    data = json.loads((tmp_path / "r.json").read_text())
    assert data["grader"]["isolation"] == (mode if mode != "auto" else data["grader"]["isolation"])
    assert data["grader"]["fork_server"] is (mode == "userns")
    assert [r["status"] for r in data["rows"]] == ["pass", "pass", "pass"]
    if mode == "none":
        assert "WARNING" in proc.stderr


@pytest.mark.heavy
def test_writes_end_in_small_sandbox_file_systems_not_on_the_host_disk(root_sandbox):
    code = """
import json, os
written = {}
for folder in ("/grader/io", "/tmp", "/dev/shm"):
    total, i = 0, 0
    block = b"x" * (1 << 20)
    while total < 2000:                  # at most 2 GB each, if nothing stopped it
        try:
            with open(f"{folder}/fill{i}", "wb") as f:
                for _ in range(32):
                    f.write(block)
                    total += 1
        except OSError as exc:
            written[folder] = (total, exc.errno)
            break
        i += 1
    for name in os.listdir(folder):
        if name.startswith("fill"):
            os.remove(f"{folder}/{name}")
json.dump(written, open("/grader/io/out.json", "w"))
"""
    _, result, written = run_in_kernel(root_sandbox, code, timeout=60)
    assert result.status == "ok", result
    import errno
    limits = {"/grader/io": root_sandbox.limits.io_mb, "/tmp": root_sandbox.limits.tmp_mb, "/dev/shm": 64}
    for folder, (total, err) in written.items():
        assert err == errno.ENOSPC and total <= limits[folder] + 1, (folder, total, err)
    assert set(written) == set(limits)
