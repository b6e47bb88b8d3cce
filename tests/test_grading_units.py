"""Pieces of the grader that run in the grader's own process: the JSON codec and its
bounds, the result records, reading notebooks and finding submissions on hostile file
systems, cell preparation, the report files (CSV, wide CSV, Gradescope, feedback pages)
and shards; that lib imports nothing from grading.  The sandbox itself is tested in
test_grading_sandbox.py."""

import ast
import csv
import io
import json
import math
import os
import pathlib
import re
import stat
import subprocess
import sys
import time
import tracemalloc

import numpy as np
import pytest

from course_i18n import LANGUAGES
from grading import messages
from grading import codec
from grading.batch import notebooks, report, shards
from grading.batch.runner import read_records
from grading.cells import prepare_cell, strip_magics
from grading.compare import compare_values
from grading.feedback import explain
from grading.values import Raised

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
    # a Python float NaN comes back a float NaN (not None, not a string, not 0), infinities keep their sign
    back = codec.loads(codec.dumps([float("nan"), float("inf"), -float("inf"), -0.0]))
    assert [type(x) for x in back] == [float] * 4 and math.isnan(back[0])
    assert back[1:3] == [math.inf, -math.inf] and math.copysign(1.0, back[3]) == -1.0


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



# -- bounds: what a student's kernel sends cannot cost the grader unbounded memory or time ----

FORGED = [
    # 84 bytes asking for 5 text elements of 99 999 999 characters each (2 GB)
    '{"__ndarray__": {"dtype": "<U99999999", "shape": [5], "items": ["a", "a", "a", "a", "a"]}}',
    '{"__ndarray__": {"dtype": "<U4096", "shape": [100000], "items": []}}',
    '{"__ndarray__": {"dtype": "<f8", "shape": [4000000, 4000000], "data": ""}}',
    '{"__ndarray__": {"dtype": "<U5", "shape": [2], "items": [1, 2]}}',
    '{"__complex__": [1, 2, 3]}',
    '{"__raised__": {"type": ["x"], "message": "", "bases": []}}',
    '{"__bytes__": 5}',
]


@pytest.mark.parametrize("payload", FORGED)
def test_forged_payloads_are_refused_in_bounded_memory(payload):
    tracemalloc.start()
    try:
        with pytest.raises(codec.CodecError):
            codec.loads(payload)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, f"decoding a {len(payload)}-byte line took {peak} bytes"


def test_the_decoder_counts_every_element_of_the_whole_payload():
    many = json.dumps([[0] * 1000] * 100)                         # 100 001 items in all
    assert len(codec.loads(many)) == 100
    with pytest.raises(codec.CodecError, match="items"):
        codec.decode(json.loads(many), max_elements=50_000)
    with pytest.raises(codec.CodecError, match="bytes"):
        codec.decode(["x" * 1000] * 10, max_bytes=5_000)


def test_result_records_are_checked_one_by_one(tmp_path):
    path = tmp_path / "r.jsonl"
    lines = [
        '{"case": 0, "result": 1.5, "seconds": 0.1}',
        '{"case": 1, "result": 2, "extra": "forged"}',                 # an unknown field
        '{"case": 2, "seconds": "soon"}',                               # a field of the wrong type
        'not json at all',
        '{"case": 99, "result": 1}',                                    # no such test
        '{"case": true, "result": 1}',
        '{"case": 3, "result": ' + '[' * 5000 + ']' * 5000 + '}',       # too deep to parse
        '{"case": 4, "result": "' + "x" * 3_000_000 + '"}',             # longer than a record may be
        '{"case": 0, "result": 9}',                                     # a second record for test 0: ignored
    ]
    path.write_text("\n".join(lines))
    records = read_records(path, 5)
    assert records["head"] is None
    assert records["cases"][0]["result"] == 1.5
    assert records["cases"][1] == "record_malformed" and records["cases"][2] == "record_malformed"
    assert set(records["cases"]) == {0, 1, 2}
    link = tmp_path / "link.jsonl"
    link.symlink_to(path)
    assert read_records(link, 5) == {"head": None, "cases": {}}           # never through a link
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    assert read_records(fifo, 5) == {"head": None, "cases": {}}           # never blocks on a FIFO


# -- feedback on hidden tests: the property, never the values ---------------------------

E = np.array([[123.25, 0.0], [4.5, 6.5]])
MISMATCHES = {                  # reason -> (expected, got): a real comparison gives each its details
    "wrong_value": (E, E + [[0, 0], [0, 0.125]]), "wrong_shape": (E, E[:1]), "nan": (E, E * np.nan),
    "wrong_number": (123.25, 987.5), "wrong_entry": (np.array([7, 8]), np.array([7, 9])),
    "wrong_length": ((E, E), (E,)), "wrong_exact": ("causal", "leaks"), "not_exact_zero": (E, E + [[0, 1e-20], [0, 0]]),
    "raised": (E, Raised("ValueError", "secret 4242", ("ValueError", "Exception"))),
    "item": ((E, E), (E, E + [[0, 0], [0, 0.125]])),
}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("reason", sorted(MISMATCHES))
def test_hidden_tests_are_explained_without_their_values(reason, lang):
    expected, got = MISMATCHES[reason]
    ok, key, details = compare_values(expected, got, exact_zeros=reason == "not_exact_zero")
    assert not ok and (key == reason or reason == "item")
    values = [str(v) for k, v in details.items() if k in ("index", "expected", "got", "error", "message")
              and str(v) not in ("nan", "inf", "-inf")]                  # words a hidden message may use
    assert values
    shown = explain(key, details, lang)
    assert any(v in shown for v in values), shown                          # public: expected vs got
    hidden = explain(key, details, lang, hidden=True)
    assert hidden and not [v for v in values if v in hidden], hidden       # hidden: none of them


# -- cells --------------------------------------------------------------------------------

def test_strip_magics_keeps_python_and_line_numbers():
    src = "!pip install x\nfor i in range(2):\n    %time y = 2\nfiles = !ls\ns = \'\'\'\n!not a shell line\n\'\'\'\nnp.exp?"
    out = strip_magics(src)
    assert out.split("\n") == ["pass", "for i in range(2):", "    pass", "files = None", "s = \'\'\'",
                               "!not a shell line", "\'\'\'", "pass"]
    compile(out, "cell", "exec")
    assert strip_magics("%%bash\nrm -rf /") == ""
    assert strip_magics("%%time\nx = 1") == "x = 1"


def test_strip_magics_is_linear():
    """An 80 000-line cell (which took minutes when every magic line rescanned the lines before it)."""
    cell = "\n".join(["%time x = 1", "\'\'\'", "!ls", "\'\'\'"] * 20_000)
    start = time.perf_counter()
    out = strip_magics(cell)
    assert time.perf_counter() - start < 5
    assert out.count("pass") == 20_000 and out.count("!ls") == 20_000
    long_line = "a, " * 300_000 + "= 1"
    start = time.perf_counter()
    assert strip_magics(long_line) == long_line
    assert time.perf_counter() - start < 5


def test_prepare_cell_drops_check_calls_only():
    assert prepare_cell('check("mask-1", causal_allowed)') is None
    assert prepare_cell("grading.exercises.check(\'mask-2\', f)\n") is None
    kept = prepare_cell("def f():\n    return 1\ncheck(\'mask-1\', f)\nprint(f())")
    assert "check(" not in kept and "def f" in kept and "print(f())" in kept
    assert prepare_cell("x = check") == "x = check"
    assert prepare_cell("def f(:\n") == "def f(:\n"        # the kernel reports the SyntaxError
    assert prepare_cell("x = 1", tags=("grader-skip",)) is None
    assert prepare_cell("(" * 5000 + ")" * 5000) is not None    # too deep to parse here: the kernel says so


# -- reading notebooks ------------------------------------------------------------------

STEMS = {"ex01_allowed_set": {"causal_allowed", "masked_softmax"}, "ex02_heads": {"split_heads"}}


def write_nb(path, cells, **metadata):
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": c}
                    for c in cells], "metadata": metadata, "nbformat": 4, "nbformat_minor": 5}
    path.write_bytes(json.dumps(nb, ensure_ascii=False).encode("utf-8"))
    return path


@pytest.mark.parametrize("name, cells, stem", [
    ("ex01_allowed_set.ipynb", [], "ex01_allowed_set"),
    ("alice-ex02_heads (1).ipynb", [], "ex02_heads"),
    ("EX01.ipynb", [], "ex01_allowed_set"),
    (" ex01_allowed_set.ipynb ", [], "ex01_allowed_set"),                  # stray spaces
    (".ex02_heads.ipynb", [], "ex02_heads"),                              # a leading dot
    ("ex01_allowed_set.IPYNB.", [], "ex01_allowed_set"),
    ("homework.ipynb", ["def masked_softmax(s, a):\n    pass"], "ex01_allowed_set"),
    ("homework.ipynb", ["def fib(n):\n    return n"], None),
    ("ex10_other.ipynb", [], None),
])
def test_identify(tmp_path, name, cells, stem):
    info = notebooks.read_notebook(write_nb(tmp_path / name, cells))
    assert notebooks.identify(info, STEMS) == stem


def test_identify_by_metadata_and_language_from_the_first_cell(tmp_path):
    info = notebooks.read_notebook(write_nb(tmp_path / "x.ipynb", ['COURSE_LANGUAGE, COURSE_PACKAGE = "ru", ""'],
                                            exercise_notebook="ex02_heads"))
    assert notebooks.identify(info, STEMS) == "ex02_heads" and info.how == "metadata"
    assert info.language == "ru"


@pytest.mark.parametrize("content, key", [
    (b"", "problem_not_json"),
    (b"\xff\xfe{}", "problem_not_utf8"),
    (b"[1, 2]", "problem_no_cells"),
    (b'{"nbformat": 3, "worksheets": "nope"}', "problem_no_cells"),
    (b'{"cells": [' + b"[" * 100_000 + b"]" * 100_000 + b"]}", "problem_not_json"),
])
def test_unreadable_notebooks_get_a_problem_not_an_exception(tmp_path, content, key):
    path = tmp_path / "ex01_allowed_set.ipynb"
    path.write_bytes(content)
    info = notebooks.read_notebook(path)
    assert info.problem[0] == key


def test_malformed_cells_are_read_as_far_as_they_make_sense(tmp_path):
    nb = {"metadata": ["not", "a", "dict"], "nbformat": 4, "cells": [
        {"cell_type": "code", "metadata": ["tags"], "source": "a = 1"},            # metadata not a dict
        {"cell_type": "code", "metadata": {"tags": "grader-skip"}, "source": "b = 2"},   # tags not a list
        {"cell_type": "code", "metadata": {"tags": [1, None, "x"]}, "source": ["c = ", 3, "3"]},
        "not a cell", 42, None,
        {"cell_type": "code", "source": {"nope": 1}},
        {"cell_type": ["code"], "source": "d = 4"},
    ]}
    path = tmp_path / "ex01_allowed_set.ipynb"
    path.write_text(json.dumps(nb))
    info = notebooks.read_notebook(path)
    assert info.problem is None and info.metadata == {}
    assert [(n, s, t) for n, s, t in info.cells] == [(1, "a = 1", ()), (2, "b = 2", ()), (3, "c = 3", ("x",))]


def test_reading_a_notebook_is_bounded(tmp_path):
    """A notebook past 32 MiB is not read at all (a sparse file: its size costs no disk); one with a
    cell past a million characters, or with more than 5000 cells, is not run: each problem names its
    limit (the rows say it in the notebook's language, see tests/grading_cases)."""
    big = tmp_path / "big" / "ex01_allowed_set.ipynb"
    big.parent.mkdir()
    with open(big, "wb") as f:
        f.truncate(notebooks.MAX_NOTEBOOK_BYTES + 1)
    tracemalloc.start()
    try:
        info = notebooks.read_notebook(big)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.problem[0] == "problem_too_large" and peak < 4 * 1024 * 1024
    assert info.problem[1]["limit"] == "32"
    long_cell = "x = 1\n" * (notebooks.MAX_CELL_CHARS // 6 + 1)
    info = notebooks.read_notebook(write_nb(tmp_path / "long" / "ex01_allowed_set.ipynb", ["a = 1", long_cell]))
    assert info.problem == ("problem_cell_too_long", {"cell": 2, "count": len(long_cell),
                                                      "limit": notebooks.MAX_CELL_CHARS})
    many = [f"v{i} = {i}" for i in range(notebooks.MAX_CELLS + 50)]
    info = notebooks.read_notebook(write_nb(tmp_path / "ru" / "ex01_allowed_set.ipynb", many))
    assert info.problem == ("problem_too_many_cells", {"count": notebooks.MAX_CELLS + 50, "limit": notebooks.MAX_CELLS})
    assert info.language == "ru" and info.cells == []
    text = messages.text("unreadable", "ru", problem=messages.reason(info.problem, "ru"))
    assert "5050" in text and "5000 ячеек" in text
    exactly = [f"v{i} = {i}" for i in range(notebooks.MAX_CELLS)]
    info = notebooks.read_notebook(write_nb(tmp_path / "ok" / "ex01_allowed_set.ipynb", exactly))
    assert info.problem is None and len(info.cells) == notebooks.MAX_CELLS


def test_a_fifo_or_device_named_like_a_notebook_is_never_opened(tmp_path):
    os.mkfifo(tmp_path / "ex01_allowed_set.ipynb")
    start = time.monotonic()
    info = notebooks.read_notebook(tmp_path / "ex01_allowed_set.ipynb")
    assert info.problem[0] == "problem_not_regular" and time.monotonic() - start < 2


# -- finding submissions -------------------------------------------------------------

def found(paths, group_by="dir"):
    subs, usage = notebooks.find_submissions(paths, group_by)
    return subs, usage


def test_find_submissions_groups_submissions(tmp_path):
    for rel in ("alice/ex01_allowed_set.ipynb", "alice/ex02_heads.ipynb", "bob/sub/ex01_allowed_set.ipynb",
                "bob/.ipynb_checkpoints/ex01_allowed_set-checkpoint.ipynb"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        write_nb(tmp_path / rel, [])
    by_dir, usage = found([tmp_path])
    assert sorted(pathlib.Path(k).relative_to(tmp_path).as_posix() for k in by_dir) == ["alice", "bob/sub"]
    assert usage == []
    by_top, _ = found([tmp_path], "top")
    assert sorted(pathlib.Path(k).name for k in by_top) == ["alice", "bob"]
    by_file, _ = found([tmp_path / "alice" / "ex01_allowed_set.ipynb", tmp_path / "bob"], "file")
    assert len(by_file) == 2
    everything, _ = found([tmp_path], "all")
    assert list(everything) == [str(tmp_path)] and len(everything[str(tmp_path)].files) == 3
    _, usage = found([tmp_path / "nope"])
    assert usage and "no such" in usage[0]


def hostile_tree(root):
    """One student folder per trap a file system can set."""
    solved = write_nb(root / "solutions_elsewhere.ipynb", ["def masked_softmax(s, a):\n    return s"])
    (root / "batch").mkdir()
    b = root / "batch"
    (b / "good").mkdir()
    write_nb(b / "good" / "ex01_allowed_set.ipynb", [])
    (b / "empty").mkdir()
    (b / "only_zip").mkdir()
    (b / "only_zip" / "homework.zip").write_bytes(b"PK")
    (b / "linked_out").mkdir()
    (b / "linked_out" / "ex01_allowed_set.ipynb").symlink_to(solved)             # to outside the submission
    (b / "linked_in").mkdir()
    write_nb(b / "linked_in" / "real.ipynb", [])
    (b / "linked_in" / "ex01_allowed_set.ipynb").symlink_to(b / "linked_in" / "real.ipynb")
    (b / "loop").mkdir()
    os.symlink("ex01_allowed_set.ipynb", b / "loop" / "ex01_allowed_set.ipynb")     # points at itself
    os.symlink(b / "good", b / "folder_link")                                      # a student folder that is a link
    (b / "deep").mkdir()
    fd = os.open(b / "deep", os.O_RDONLY)
    for _ in range(1000):                                                          # a thousand folders deep
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)
    (b / "fifo").mkdir()
    os.mkfifo(b / "fifo" / "ex01_allowed_set.ipynb")
    (b / "names").mkdir()
    write_nb(b / "names" / " .ex01_allowed_set.ipynb ", [])
    (b / "names" / "._ex01_allowed_set.ipynb").write_bytes(b"\x00\x05\x16\x07")
    (b / "names" / "ex02_heads.ipynb.txt").write_text("{}")
    gbk = os.fsencode(b) + b"/" + "练习".encode("gb18030")                       # a name that is not UTF-8
    os.mkdir(gbk)
    write_nb(pathlib.Path(os.fsdecode(gbk + b"/ex01_allowed_set.ipynb")), [])
    if IS_ROOT:
        (b / "device").mkdir()
        os.mknod(b / "device" / "ex01_allowed_set.ipynb", stat.S_IFCHR | 0o600, os.makedev(1, 3))
    return b


def remove_deep(folder):
    """Remove a folder nested a thousand deep without recursion (pytest's own clean-up would recurse)."""
    depth = 0
    fd = os.open(folder, os.O_RDONLY)
    fds = [fd]
    while "d" in os.listdir(fd):
        fd = os.open("d", os.O_RDONLY, dir_fd=fd)
        fds.append(fd)
        depth += 1
    for parent in reversed(fds[:-1]):
        os.rmdir("d", dir_fd=parent)
    for fd in fds:
        os.close(fd)
    return depth


@pytest.fixture
def hostile(tmp_path):
    b = hostile_tree(tmp_path)
    yield b
    assert remove_deep(b / "deep") == 1000


def test_hostile_file_systems_give_rows_and_never_block(hostile):
    b = hostile
    start = time.monotonic()
    subs, usage = found([b], "top")
    assert time.monotonic() - start < 20 and usage == []
    by_name = {pathlib.Path(os.fsencode(k).decode("utf-8", "surrogateescape")).name: s for k, s in subs.items()}
    assert [f.problem for f in by_name["good"].files] == [None]
    assert by_name["empty"].empty[0] == "empty_folder" and by_name["empty"].empty[1]["found"] == ("found_nothing", {})
    assert by_name["only_zip"].empty[1]["found"][0] == "found_file"                  # one file: no "(s)"
    assert by_name["linked_out"].refused[0] == "link_outside"                       # the whole submission
    inside = by_name["linked_in"].files
    assert len(inside) == 1 and inside[0].problem is None                           # followed once, inside
    assert by_name["loop"].files[0].problem[0] == "problem_symlink_loop"
    assert by_name["folder_link"].refused[0] == "folder_symlink"
    assert any(p[0] == "too_deep" for p in by_name["deep"].problems)
    assert by_name["fifo"].files[0].problem[0] == "problem_not_regular"
    names = by_name["names"]
    assert [f.problem for f in names.files] == [None]                               # ' .ex01_allowed_set.ipynb '
    assert {p[0] for p in names.problems} == {"macos_metadata", "unrecognised_name"}
    chinese = [s for s in subs.values() if s.id.endswith("练习")]
    assert len(chinese) == 1 and [f.problem for f in chinese[0].files] == [None]
    if IS_ROOT:
        assert by_name["device"].files[0].problem[0] == "problem_not_regular"
    json.dumps([s.id for s in subs.values()], ensure_ascii=False).encode("utf-8")   # every id is valid text


def test_too_many_files_stop_the_search_of_one_student(tmp_path, monkeypatch):
    monkeypatch.setattr(notebooks, "MAX_ENTRIES", 50)
    (tmp_path / "many").mkdir()
    for i in range(80):
        (tmp_path / "many" / f"f{i}.txt").write_text("")
    write_nb(tmp_path / "ok.ipynb", [])
    subs, _ = found([tmp_path], "top")
    many = next(s for k, s in subs.items() if k.endswith("many"))
    assert [p[0] for p in many.problems] == ["too_many_files"]


# -- report files ---------------------------------------------------------------------

def sample_report():
    rows = [
        {"submission": "a,b", "exercise": "mask-1", "function": "causal_allowed", "status": "pass", "points": 1,
         "max_points": 1, "message": 'say "hi", then\nbye', "cases_passed": 3, "cases_total": 3, "lang": "ru",
         "notebook": "a,b/ex01.ipynb", "feedback": []},
        {"submission": "a,b", "exercise": "mask-2", "function": "masked_softmax", "status": "fail", "points": 0,
         "max_points": 2, "message": "[2/3] <b>not bold</b>", "cases_passed": 2, "cases_total": 3, "lang": "ru",
         "notebook": "a,b/ex01.ipynb",
         "feedback": [{"test": "нули <3×3>", "hidden": False, "text": "ожидалось 1 & получено 2", "line": "x"},
                      {"test": "скрытый вид", "hidden": True, "text": "неверные значения", "hint": "check(...)",
                       "line": "y"}]},
        {"submission": "学生", "exercise": "mask-1", "function": "causal_allowed", "status": "missing", "points": 0,
         "max_points": 1, "message": "нет", "cases_passed": 0, "cases_total": 0, "lang": "zh", "notebook": "",
         "feedback": []},
        {"submission": "学生", "exercise": "mask-2", "function": "masked_softmax", "status": "missing", "points": 0,
         "max_points": 2, "message": "нет", "cases_passed": 0, "cases_total": 0, "lang": "zh", "notebook": "",
         "feedback": []},
    ]
    summary = [report.summarize("a,b", rows[:2], "ru"), report.summarize("学生", rows[2:], "zh")]
    exercises = [{"id": "mask-1", "function": "causal_allowed", "points": 1, "title": {"zh": "甲", "en": "A", "ru": "А"}},
                 {"id": "mask-2", "function": "masked_softmax", "points": 2, "title": {"zh": "乙", "en": "B", "ru": "Б"}}]
    return {"grader": {"version": "2", "course": {"version": "abc"}, "complete": True,
                       "hidden_tests": {"origin": "salt", "fingerprint": "f00d", "salt": "5ec2e7" * 10},
                       "exercises": exercises, "isolation": {"mode": "root"}}, "summary": summary, "rows": rows}


def test_atomic_write_replaces_whole_files(tmp_path):
    target = tmp_path / "r.json"
    report.atomic_write(target, "old")
    report.atomic_write(target, "new ✓ 中文")
    assert target.read_text(encoding="utf-8") == "new ✓ 中文"
    assert [p.name for p in tmp_path.iterdir()] == ["r.json"]


def test_every_output_is_readable_by_all_whatever_the_umask(tmp_path):
    # docs/instructors.md: every file the grader writes has mode 644, the histogram's PNG too (but for a JSON
    # report that keeps the salt: 600, test_hidden_secrecy.py)
    before = os.umask(0o077)
    try:
        report.atomic_write(tmp_path / "t.csv", "a,b\n")
        report.atomic_write(tmp_path / "b.bin", b"\x89PNG")
        drawn = report.histogram_png(sample_report(), tmp_path / "pages" / "totals.png")
    finally:
        os.umask(before)
    assert drawn, "matplotlib is a requirement: the histogram must be drawn"
    assert (tmp_path / "b.bin").read_bytes() == b"\x89PNG"
    written = [tmp_path / "t.csv", tmp_path / "b.bin", tmp_path / "pages" / "totals.png"]
    assert {path.name: stat.S_IMODE(path.stat().st_mode) for path in written} == {
        path.name: 0o644 for path in written}
    assert sorted(p.name for p in (tmp_path / "pages").iterdir()) == ["totals.png"]   # no temporary left


def test_csv_quotes_commas_and_newlines():
    back = list(csv.DictReader(io.StringIO(report.to_csv(sample_report()["rows"]))))
    assert back[0]["submission"] == "a,b" and back[0]["message"] == 'say "hi", then\nbye'


def test_wide_csv_has_one_row_per_student_and_one_column_per_exercise():
    back = list(csv.reader(io.StringIO(report.to_wide_csv(sample_report()))))
    assert back == [["student", "id", "mask-1 (max 1)", "mask-2 (max 2)", "total (max 3)", "flags"],
                    ["a,b", "", "1", "0", "1", ""], ["学生", "", "0", "0", "0", ""]]


def test_gradescope_results_follow_the_autograder_format(tmp_path):
    r = sample_report()
    data = report.gradescope(r, r["summary"][0])
    assert data["score"] == 1 and [t["max_score"] for t in data["tests"]] == [1, 2]
    assert [t["status"] for t in data["tests"]] == ["passed", "failed"]
    assert all(set(t) >= {"name", "score", "max_score", "status", "output"} for t in data["tests"])
    assert "check(...)" in data["tests"][1]["output"]
    with pytest.raises(ValueError, match="holds 2 submissions"):
        report.write_gradescope(r, tmp_path / "results.json")
    written = report.write_gradescope(r, tmp_path / "gs")
    assert len(written) == 2 and all(json.loads(p.read_text())["tests"] for p in written)


def test_feedback_pages_are_in_the_students_language_and_escape_everything(tmp_path):
    r = sample_report()
    written = report.write_feedback(r, tmp_path)
    assert {p.suffix for p in written} == {".html", ".md", ".png"} and (tmp_path / "index.html") in written
    ru = (tmp_path / f"{report.page_name('a,b')}.html").read_text(encoding="utf-8")
    assert '<html lang="ru">' in ru and "Итого баллов: 1 из 3" in ru and "скрытый тест" in ru
    assert "1 &amp; получено" in ru and "&lt;3×3&gt;" in ru and "<3×3>" not in ru
    # a failed test's label, then its kind in brackets, never run together ("…</strong>скрытый тест")
    assert '&lt;3×3&gt;</strong><span class="muted"> (открытый тест)</span>: ' in ru
    assert 'скрытый вид</strong><span class="muted"> (скрытый тест)</span>: ' in ru
    zh = (tmp_path / f"{report.page_name('学生')}.md").read_text(encoding="utf-8")
    assert zh.startswith("# 评分反馈：学生") and "未提交" in zh
    for page in tmp_path.glob("*.md"):                      # sections apart by one blank line, never two
        assert "\n\n\n" not in page.read_text(encoding="utf-8"), page.name
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert index.count("<tr>") == 3 and report.page_name("学生") in index
    assert "&lt;b&gt;not bold&lt;/b&gt;" in index and "<b>not bold" not in index
    for page in (ru, index):            # the footer is a landmark of its own, after <main>, not inside it
        assert page.count("<footer>") == 1 and "</main>\n<footer>" in page
    # without a sandbox, public tests may be described without values (runner.NotebookRun.quiet): the note says so
    assert messages.text("page_hidden_note", "ru") in ru
    r["grader"]["isolation"] = {"mode": "none", "why": "--isolation none"}
    for page in (report.feedback_html(r, r["summary"][0], site=""),
                 report.feedback_markdown(r, r["summary"][0], site="")):
        assert messages.text("page_hidden_note_unsandboxed", "ru") in page
        assert messages.text("page_hidden_note", "ru") not in page


def test_hostile_names_and_texts_come_out_escaped_from_the_templates(tmp_path):
    """A student named <script>, a notebook named "&'<>, markup in a message, a test label, a hint, a
    diagnosis, an exercise title and the isolation notes: on every HTML page (grading/templates/, autoescape)
    they are text, never markup; the Markdown pages escape them too."""
    import re
    r = sample_report()
    evil = "<script>alert(1)</script>"
    notebook = """x"&'<>.ipynb"""
    for row in r["rows"]:
        if row["submission"] == "a,b":
            row.update(submission=evil, notebook=notebook)
    r["summary"][0]["submission"] = evil
    r["rows"][1]["feedback"][0]["test"] = "<img src=x onerror=alert(2)>"
    r["rows"][1]["feedback"][1]["hint"] = 'check("<b>", f) & <i>'
    r["rows"][1]["feedback"].append({"test": "", "hidden": False, "text": "<svg onload=alert(3)> (§1.6)",
                                     "line": "", "diagnosis": "mask-2/softmax-before-mask"})
    r["rows"][1]["diagnosis"] = "mask-2/softmax-before-mask"
    r["rows"].append({"submission": evil, "exercise": "-", "function": "", "status": "error", "points": 0,
                      "max_points": 0, "message": "<iframe>", "cases_passed": 0, "cases_total": 0, "lang": "ru",
                      "notebook": notebook, "feedback": []})
    r["grader"]["exercises"][1]["title"]["ru"] = "<u>title</u>"
    r["grader"]["isolation"] = {"mode": "<mode>", "why": "\"&'<>"}
    report.write_feedback(r, tmp_path, "ru")
    pages = {p.name: p.read_text(encoding="utf-8") for p in tmp_path.iterdir() if p.suffix in (".html", ".md")}
    assert len(pages) == 5
    for name, text in pages.items():
        if name.endswith(".html"):
            for raw in ("<script", "<img src=x", "<svg", "<iframe", "<u>", "<b>", "<i>", "<mode>"):
                assert raw not in text, (name, raw)
        else:          # Markdown: each < and > behind a backslash, a literal; a check(...) call is a code span
            prose = re.sub(r"`[^`]*`", "", text)
            assert not re.search(r"(?<!\\)<(script|img|svg|iframe|u|i)\b", prose), name
    md = next(text for name, text in pages.items() if name.endswith(".md") and "alert(1)" in text)
    assert "\\<script\\>alert(1)\\</script\\>" in md and "\\<svg onload=alert(3)\\>" in md
    student = next(text for name, text in pages.items() if name.endswith(".html") and "alert(1)" in text
                   and name != "index.html")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in student and "&lt;img src=x onerror=alert(2)&gt;" in student
    assert "x&quot;&amp;&#x27;&lt;&gt;.ipynb" in student and "&lt;iframe&gt;" in student
    assert '<code>check(&quot;&lt;b&gt;&quot;, f)</code> &amp; &lt;i&gt;' in student
    assert "&lt;svg onload=alert(3)&gt;" in student and "&lt;u&gt;title&lt;/u&gt;" in student
    index = pages["index.html"]
    assert 'title="&lt;script&gt;alert(1)&lt;/script&gt;"' in index and "&lt;mode&gt;" in index
    assert "&quot;&amp;&#x27;&lt;&gt;" in index
    tags = set(re.findall(r"</?([a-z0-9]+)", student + index))     # only the pages' own markup
    assert tags <= {"html", "head", "meta", "title", "style", "body", "h1", "h2", "p", "strong", "div", "table",
                    "thead", "tbody", "tfoot", "tr", "th", "td", "a", "code", "wbr", "span", "ul", "li", "br",
                    "footer", "main", "details", "summary", "figure", "img"}, tags
    assert "<img" not in student and index.count("<img") <= 1        # the histogram, when drawn


def test_pages_name_a_submission_without_the_instructors_paths(tmp_path):
    r = sample_report()
    for s, who in zip(r["summary"], ("/home/prof/2026/subs/alice", "/home/prof/2026/subs/group-2/张伟")):
        old = s["submission"]
        s["submission"] = who
        for row in r["rows"]:
            if row["submission"] == old:
                row["submission"] = who
    assert report.display_names(r) == {"/home/prof/2026/subs/alice": "alice",
                                       "/home/prof/2026/subs/group-2/张伟": "group-2/张伟"}
    report.write_feedback(r, tmp_path)
    for page in (p for p in tmp_path.iterdir() if p.suffix in (".html", ".md")):
        assert "/home/prof" not in page.read_text(encoding="utf-8").replace(
            'title="/home/prof', "") or page.name == "index.html", page.name   # the index has them as tooltips
    assert sorted(p.name.split("-")[0] for p in tmp_path.glob("*.md")) == ["alice", "group"]
    zh = next(tmp_path.glob("group-2_*.md")).read_text(encoding="utf-8")
    assert zh.startswith("# 评分反馈：group-2/张伟")
    single = {"summary": [{"submission": "/x/y/bob"}]}
    assert report.display_names(single) == {"/x/y/bob": "bob"}
    assert report.display_names({"summary": [{"submission": "a"}, {"submission": "/b/c"}]}) == {"a": "a", "/b/c": "/b/c"}


def test_notes_about_files_name_them_under_the_submission(tmp_path):
    """A note under "About your files" names its file by its path under the submission's folder, never by the
    grader's full path (read8: the damaged-file and cell-timeout notes did), and not twice when the note
    begins with the file's name."""
    r = sample_report()
    sub = "/home/prof/2026/subs/alice"
    r["rows"] = [dict(row, submission=sub, notebook=f"{sub}/ex01.ipynb") for row in r["rows"][:2]]
    damaged = messages.text("damaged_notebook", "en", name="ex01.ipynb",
                            problem=messages.reason(("problem_not_json", {"where": ""}), "en"))
    slow = messages.text("cell_never_finished", "en", cell=7, seconds=3)
    r["rows"] += [{"submission": sub, "exercise": "-", "function": "", "status": "error", "points": 0,
                   "max_points": 0, "message": m, "cases_passed": 0, "cases_total": 0, "lang": "en",
                   "notebook": f"{sub}/{where}", "feedback": []}
                  for m, where in ((damaged, "ex01.ipynb"), (slow, "part-2/ex02.ipynb"))]
    r["summary"] = [report.summarize(sub, r["rows"], "en")]
    assert damaged.startswith("ex01.ipynb is damaged or truncated: it is not valid JSON.")
    md = report.feedback_markdown(r, r["summary"][0], site="")
    html_page = report.feedback_html(r, r["summary"][0], site="")
    for page in (md, html_page):
        assert "/home/prof" not in page
    assert f"* {report._md(damaged)}" in md and "ex01.ipynb: ex01.ipynb" not in md.replace("\\", "")
    for lang in LANGUAGES:              # in every language the note names the file once, wherever it does
        r["rows"][2]["message"] = messages.text("damaged_notebook", lang, name="ex01.ipynb", problem="x")
        r["summary"][0]["lang"] = lang
        page = report.feedback_markdown(r, r["summary"][0], site="").replace("\\", "")
        assert page.count("ex01.ipynb") == 1, (lang, page)
    assert f"* part-2/ex02.ipynb: {report._md(slow)}" in md.replace("part\\_2", "part-2")


def test_note_rows_are_not_counted_as_exercises():
    """The terminal's counts are per exercise: a note about a file (exercise "-") is no error of an exercise."""
    rows = sample_report()["rows"][:2] + [{"submission": "a,b", "exercise": "-", "function": "", "status": "error",
                                          "points": 0, "max_points": 0, "message": "x", "cases_passed": 0,
                                          "cases_total": 0, "lang": "en", "notebook": "a,b/x.ipynb", "feedback": []}]
    assert report.summarize("a,b", rows)["counts"] == {"pass": 1, "fail": 1}


def test_pages_say_what_is_missing_and_how_many_failures_are_not_shown():
    """A notebook handed in without the function is not "not handed in"; an exercise worth 1 point says
    "1 point"; failures beyond those explained are counted; tests that never ran show "–", not "0 / 0"."""
    r = sample_report()
    for row in r["rows"]:
        row["lang"] = "en"
    r["rows"][2].update(notebook="学生/ex01.ipynb", cases_total=10)        # handed in, no function
    r["rows"][1].update(cases_passed=2, cases_total=9)                    # 7 failed, 2 explained
    r["rows"][0]["message"] = "[3/3] passed"
    r["summary"] = [dict(s, lang="en") for s in r["summary"]]
    a, b = (report.feedback_markdown(r, s, site="") for s in r["summary"])
    assert "… and 5 more" in a and "0 of 2 points" in a
    assert "| mask-1 · causal\\_allowed | function missing | 0 / 1 | 0 / 10 |" in b
    assert "| mask-2 · masked\\_softmax | not handed in | 0 / 2 | – |" in b
    assert "Function missing · 0 of 1 point ·" in b and "Not handed in · 0 of 2 points." in b
    for lang in LANGUAGES:
        assert messages.text("status_undefined", lang) != messages.text("status_missing", lang)
    index = report.index_html(r)
    assert "function missing" in index and 'title="passed (3/3)"' in index
    # the index's table tells the two apart by their marks, and its legend gives each mark once
    assert f'{report.UNDEFINED_MARK}</span> function missing' in index
    assert f'{report.MARKS["missing"]}</span> not handed in' in index
    cells = re.findall(r'<td class="missing"[^>]*><span role="img" aria-label="([^"]*)">([^<]*)</span>', index)
    assert sorted(cells) == [("function missing", report.UNDEFINED_MARK), ("not handed in", report.MARKS["missing"])]
    assert "1 other file" not in messages.reason(("found_file", {"example": "report.pdf"}), "en")
    # a folder without a notebook: its sentence once, about the files, not once per exercise
    empty = messages.text("empty_folder", "en", found=messages.reason(("found_file", {"example": "report.pdf"}), "en"))
    for row in r["rows"][2:]:
        row.update(notebook="", cases_total=0, message=empty)
    b = report.feedback_markdown(r, r["summary"][1], site="")
    assert b.count("it holds only report.pdf") == 1 and "* No notebook (\\*.ipynb) in this folder; it holds only" in b


def test_students_graded_on_an_exercise_are_those_whose_tests_ran():
    """--diagnoses-csv's "graded" and the index's "of N students": a damaged notebook (no test ran) is not graded."""
    r = sample_report()
    r["rows"][1]["diagnosis"] = "mask-2/softmax-before-mask"
    damaged = dict(r["rows"][1], submission="c", status="error", cases_passed=0, cases_total=0, diagnosis=None)
    r["rows"].append(damaged)
    r["summary"].append(report.summarize("c", [damaged]))
    [found] = report.class_diagnoses(r)
    assert (found["count"], found["graded"]) == (1, 1)
    # "1 of 1 student": the noun follows {total} (messages.index_diagnosis is a plural text; it said "students")
    assert found["text"].startswith("mask-2, ") and found["text"].endswith(": 1 of 1 student")


def test_the_flag_mark_means_what_the_legend_says():
    """The index's legend reads "⚑ several notebooks for one exercise set": ⚑ marks the cells of an exercise
    set handed in more than once, and the Flags column names every flag in words, a late one without ⚑."""
    r = sample_report()
    r["summary"][0]["flags"] = ["late"]
    r["summary"][1]["flags"] = ["duplicates"]
    r["rows"][2]["duplicates"] = ["学生/ex01 (1).ipynb"]
    index = report.index_html(r)
    assert f"<li>{report.FLAG_MARK} several notebooks for one exercise set</li>" in index
    assert re.findall(r'<td class="flags">([^<]*)</td>', index) == ["handed in late",
                                                                    "several notebooks for one exercise set"]
    cells = re.findall(r'<span role="img" aria-label="[^"]*">([^<]*)</span>', index)
    assert [c for c in cells if report.FLAG_MARK in c] == [report.MARKS["missing"] + report.FLAG_MARK]


def test_pages_punctuate_each_language_and_set_calls_as_code(tmp_path):
    r = sample_report()
    for row in r["rows"]:
        row.update(lang="zh", submission="学生") if row["submission"] == "a,b" else None
    r["rows"][1]["feedback"][1]["hint"] = 'run check("mask-2", masked_softmax, practice=True) again'
    r["summary"] = [report.summarize("学生", r["rows"], "zh")]
    report.write_feedback(r, tmp_path)
    md = next(tmp_path.glob("*.md")).read_text(encoding="utf-8")
    assert "（公开测试）：" in md and "（隐藏测试）：" in md and " (" not in md.split("|---")[1]
    assert '`check("mask-2", masked_softmax, practice=True)`' in md
    html_page = next(p for p in tmp_path.glob("*.html") if p.name != "index.html").read_text(encoding="utf-8")
    assert '<code>check(&quot;mask-2&quot;, masked_softmax, practice=True)</code>' in html_page
    assert "masked_<wbr>softmax" in html_page
    assert '</strong><span class="muted">（公开测试）</span>：' in html_page
    assert '</strong><span class="muted">（隐藏测试）</span>：' in html_page
    assert "。 " not in md and "。 " not in html_page                  # no space between Chinese sentences


def test_page_names_are_safe_and_distinct():
    names = {report.page_name(s) for s in ("a/b", "a_b", "../../etc", "学生", "a b")}
    assert len(names) == 5 and all("/" not in n and not n.startswith(".") for n in names)


# -- shards ---------------------------------------------------------------------------

def test_shards_partition_the_batch():
    ids = [f"s{i:03d}" for i in range(23)]
    parts = [shards.select(ids, k, 4) for k in range(1, 5)]
    assert sorted(sum(parts, [])) == sorted(ids)
    assert max(map(len, parts)) - min(map(len, parts)) <= 1
    assert shards.select(list(reversed(ids)), 2, 4) == parts[1]                       # order-independent
    for bad in ("0/4", "5/4", "1/0", "x", "1/2/3"):
        with pytest.raises(ValueError):
            shards.parse_shard(bad)


def shard_report(k, n, subs, key="f00d", course="abc", all_ids=None):
    all_ids = all_ids or ["a", "b", "c"]
    rows = [{"submission": s, "exercise": "mask-1", "points": 1, "max_points": 1, "status": "pass"} for s in subs]
    return {"grader": {"hidden_tests": {"origin": "key", "fingerprint": key}, "version": "2",
                       "course": {"version": course}, "exercises": [{"id": "mask-1"}],
                       "shard": {"k": k, "of": n}, "complete": True,
                       "batch": {"submissions": len(all_ids), "digest": shards.digest(all_ids)}},
            "summary": [{"submission": s} for s in subs], "rows": rows, "timing": {}}


def test_merge_combines_shards_and_refuses_what_does_not_belong_together():
    merged = shards.merge([shard_report(2, 2, ["b"]), shard_report(1, 2, ["a", "c"])])
    assert [s["submission"] for s in merged["summary"]] == ["a", "b", "c"] and merged["grader"]["shard"] is None
    cases = {
        "different keys": [shard_report(1, 2, ["a", "c"]), shard_report(2, 2, ["b"], key="beef")],
        "different tests": [shard_report(1, 2, ["a", "c"]), shard_report(2, 2, ["b"], course="x")],
        "more than once": [shard_report(1, 2, ["a", "c"]), shard_report(1, 2, ["a", "c"])],
        "missing": [shard_report(1, 2, ["a", "c"])],
        "split the batch differently": [shard_report(1, 2, ["a", "c"]), shard_report(2, 3, ["b"])],
        "in shard": [shard_report(1, 2, ["a", "c"]), shard_report(2, 2, ["a", "b"])],
        "different batches": [shard_report(1, 2, ["a", "c"]), shard_report(2, 2, ["b"], all_ids=["b", "z"])],
        "the batch has": [shard_report(1, 2, ["a"]), shard_report(2, 2, ["b"])],
    }
    for fragment, reports in cases.items():
        with pytest.raises(shards.MergeError, match=fragment):
            shards.merge(reports)


# -- its own package: lib (what the chapters teach) never depends on the grader -------------

def _imported_names(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                "import_module", "__import__") and node.args and isinstance(node.args[0], ast.Constant):
            yield str(node.args[0].value)


def test_lib_imports_nothing_from_grading():
    lib_files = sorted((ROOT / "lib").rglob("*.py"))
    assert len(lib_files) >= 5
    found = [f"{p.relative_to(ROOT)}: {name}" for p in lib_files
             for name in _imported_names(ast.parse(p.read_text(encoding="utf-8")))
             if name == "grading" or name.startswith("grading.")]
    assert found == [], found
    # and at run time: importing every module of lib loads no module of grading
    modules = [f"lib.{p.stem}" for p in lib_files if p.parent == ROOT / "lib" and p.stem != "__init__"]
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n    importlib.import_module(name)\n"
            "print(sorted(m for m in sys.modules if m == 'grading' or m.startswith('grading.')))")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]", run.stdout
    # the checker of this rule can fail
    assert list(_imported_names(ast.parse("import grading.batch\nfrom grading import check\n"
                                          "importlib.import_module('grading.registry')"))) == \
        ["grading.batch", "grading", "grading.registry"]


# -- the tests' own rule: nothing skips silently under CI -------------------------------

def test_a_missing_piece_skips_locally_and_fails_under_ci(monkeypatch):
    import conftest
    monkeypatch.setattr(conftest, "IN_CI", False)
    with pytest.raises(pytest.skip.Exception, match="no sandbox here"):
        conftest.unavailable("no sandbox here")
    monkeypatch.setattr(conftest, "IN_CI", True)
    with pytest.raises(pytest.fail.Exception, match="mandatory under CI=true: no sandbox here"):
        conftest.unavailable("no sandbox here")
    with pytest.raises(pytest.fail.Exception, match="no_such_module_here"):
        conftest.require_or_skip("no_such_module_here", "a test")



def test_every_parse_in_the_grader_holds_the_ast_lock():
    """CPython 3.11 fails two threads that build syntax trees at once (gh-106905, "SystemError: AST
    constructor recursion depth mismatch", seen with --jobs 2): each ast.parse under grading/ sits
    in a ``with AST_LOCK:`` block (grading/cells.py)."""
    root = pathlib.Path(__file__).resolve().parent.parent / "grading"
    unlocked = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        locked = {id(inner) for node in ast.walk(tree) if isinstance(node, ast.With)
                  and any(ast.unparse(item.context_expr).endswith("AST_LOCK") for item in node.items)
                  for inner in ast.walk(node)}
        unlocked += [f"{path.relative_to(root.parent)}:{node.lineno}" for node in ast.walk(tree)
                     if isinstance(node, ast.Call) and ast.unparse(node.func) in ("ast.parse", "ast.literal_eval")
                     and id(node) not in locked]
    assert unlocked == [], unlocked


# -- the warning of a batch without a sandbox ---------------------------------------------

def test_no_sandbox_is_said_even_under_quiet(monkeypatch, capsys):
    """`--isolation none` (and `container` falling back to no sandbox) prints its warning on standard error
    even when `--quiet` silenced the progress (config.progress None), as both guides promise; the rest of
    the progress stays silent."""
    import types
    from grading.batch import pipeline
    from grading.batch import sandbox as sandbox_module
    monkeypatch.setattr(pipeline, "_not_dumpable", lambda: None)      # not this test process
    for progress in (None, io.StringIO()):
        config = types.SimpleNamespace(isolation="none", keep_temp=False, progress=progress, uid_base=None,
                                       cgroups=False, warm_start=False)
        batch = types.SimpleNamespace(config=config, limits=sandbox_module.Limits(), jobs=1)
        sandbox = pipeline.open_sandbox(batch)
        try:
            assert sandbox.mode == "none"
        finally:
            sandbox.close()
        said = capsys.readouterr()
        shown = said.err if progress is None else progress.getvalue()
        assert sandbox_module.NONE_WARNING in shown and not said.out
        assert progress is None or not said.err


def test_a_note_on_copies_is_a_sentence_of_its_own():
    """The message of a row of a set handed in twice ends with a full stop before the note on the copies (the
    `--csv` column read "[10/10] passed The most recently modified copy ..."), in every language."""
    from grading.batch.runner import then
    note = "The most recently modified copy was graded."
    assert then("[10/10] passed", note, "en") == f"[10/10] passed. {note}"
    failed = "[3/13] failed: the row sums are not 1."
    assert then(failed, note, "en") == f"{failed} {note}"
    assert then("[10/10] 通过", "评的是最新的一份。", "zh") == "[10/10] 通过。评的是最新的一份。"
    assert then("[10/10] пройдено", "Оценена копия.", "ru") == "[10/10] пройдено. Оценена копия."


def test_scaled_reads_lists_of_numbers():
    """A result that is a list of lists (evidence-1 returns one) equal to the expected one times a constant is
    read as scaled: it raised a TypeError (float() of a 2-D array), which left the learner the generic message."""
    from grading import diagnoses
    from grading.exercises import EXERCISES
    exercise = EXERCISES["evidence-1"]
    expected = [[1.0, 2.0], [3.0, -4.0]]
    assert diagnoses._scaled(exercise, expected, [[2.0, 4.0], [6.0, -8.0]]) == (2.0, 4)
    assert diagnoses._scaled(exercise, expected, [[2.0, 4.0], [6.0, -8.5]]) is None
