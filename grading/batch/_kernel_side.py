"""Code the grader sends into a student's kernel to call one exercise function.

This text is executed in the kernel (after codec.py's text) in a private
namespace with two extra globals: ``PARAMS`` and ``USER_NS`` (the notebook's
namespace).  It reads the cases from ``PARAMS["cases"]`` (a read-only file),
runs each case's setup code in a fresh namespace, calls the learner's
function and appends one JSON line per case to ``PARAMS["out"]``; the grader
decodes, checks and compares them in its own process.  Nothing here decides
a score, and nothing here is trusted: the student's code runs in this
process and may change any of it, which can only spoil its own results.
"""
# The names encode, decode, Ref, RaisedError, CodecError come from codec.py's text.

import json as _json
import time as _time


def _write(out, record):
    try:
        line = _json.dumps(record, ensure_ascii=True, allow_nan=False, separators=(",", ":"))
    except BaseException as exc:            # an encoding problem is reported, not fatal
        line = _json.dumps({"case": record.get("case"), "encode_error": f"{type(exc).__name__}: {exc}"[:500]})
    out.write(line + "\n")
    out.flush()


def _main(params, user_ns):
    with open(params["out"], "w", encoding="ascii") as out:
        name = params["function"]
        if name not in user_ns:
            _write(out, {"missing": True})
            return
        func = user_ns[name]
        if not callable(func):
            _write(out, {"not_callable": type(func).__name__[:60]})
            return
        with open(params["cases"], encoding="utf-8") as f:
            cases = _json.load(f)
        for index, case in enumerate(cases):
            record = {"case": index}
            namespace = {"__name__": "__case_setup__"}
            try:
                if case.get("setup"):
                    exec(compile(case["setup"], "<case setup>", "exec"), namespace)
                args = decode(case["args"], refs=namespace)        # noqa: F821 - from codec.py
                kwargs = decode(case["kwargs"], refs=namespace)    # noqa: F821
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                record["setup_error"] = f"{type(exc).__name__}: {exc}"[:500]
                _write(out, record)
                continue
            before = snapshot_arguments(args, kwargs)  # noqa: F821 - grading/arguments.py, sent with this code
            start = _time.perf_counter()
            try:
                value = func(*args, **kwargs)
                changed = changed_argument(args, kwargs, before)  # noqa: F821
                if changed is not None:      # the caller's array changed under it (grading/arguments.py)
                    value = RaisedError.from_exception(ArgumentChanged(str(changed)))  # noqa: F821
            except KeyboardInterrupt:
                raise
            except BaseException as exc:     # SystemExit too: a failed case, not a dead kernel
                value = RaisedError.from_exception(exc)                # noqa: F821
            record["seconds"] = round(_time.perf_counter() - start, 6)
            try:
                record["result"] = encode(value, max_bytes=params.get("max_bytes", 1 << 20))  # noqa: F821
            except BaseException as exc:
                if isinstance(exc, KeyboardInterrupt):
                    raise
                record["encode_error"] = f"{type(exc).__name__}: {exc}"[:500]
            _write(out, record)


_main(PARAMS, USER_NS)   # noqa: F821 - injected by the grader
