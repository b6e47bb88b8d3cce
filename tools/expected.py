"""The expected values of the public tests, stored beside each spec module (grading/specs/<module>.expected.json).

    python tools/expected.py          # write them again after adding or changing a public test or a reference
    python tools/expected.py --check  # exit 1, naming the tests, when a stored value is not the reference's

``check()`` compares a learner's answer with these stored values, so the learner's kernel never imports
the references (grading/references.py); the batch grader computes every expected value itself.  Each
file maps exercise id -> public test name -> the value in grading.codec's plain JSON.
"""

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grading import codec  # noqa: E402
from grading.compare import compare_values  # noqa: E402
from grading.registry import EXERCISES, expected_path  # noqa: E402
from grading.values import from_plain, to_plain  # noqa: E402

# how far a stored value may be from the reference's on another machine (BLAS sums in another order)
RTOL, ATOL = 1e-10, 1e-12


def computed(module):
    """{exercise id: {public test name: plain JSON}} of the exercises of spec ``module``, from the references."""
    out = {}
    for ex in EXERCISES.values():
        if ex.module == module:
            out[ex.id] = {case.name: codec.encode(to_plain(ex.call(ex.reference, case)), strict=True)
                          for case in ex.public_cases()}
    return out


def modules():
    return sorted({ex.module for ex in EXERCISES.values()})


def text_of(values):
    return "{\n" + ",\n".join(f" {json.dumps(i)}: {json.dumps(cases, ensure_ascii=False, allow_nan=False)}"
                              for i, cases in values.items()) + "\n}\n"


def stale():
    """["module: exercise/test: why"] for every stored value that is missing, extra or not the reference's."""
    problems = []
    for module in modules():
        path = expected_path(module)
        stored = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
        fresh = computed(module)
        for ex_id in sorted(set(stored) | set(fresh)):
            have, want = stored.get(ex_id, {}), fresh.get(ex_id, {})
            for name in sorted(set(have) | set(want)):
                if name not in have or name not in want:
                    problems.append(f"{path.name}: {ex_id}/{name}: {'missing' if name not in have else 'not a test'}")
                    continue
                ok, reason, _ = compare_values(from_plain(codec.decode(want[name])),
                                               from_plain(codec.decode(have[name])), RTOL, ATOL)
                if not ok:
                    problems.append(f"{path.name}: {ex_id}/{name}: {reason}")
    return problems


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true", help="compare instead of writing")
    args = p.parse_args(argv)
    if args.check:
        problems = stale()
        for line in problems:
            print(line)
        if problems:
            print("run tools/expected.py to store them again", file=sys.stderr)
        return 1 if problems else 0
    for module in modules():
        expected_path(module).write_text(text_of(computed(module)), encoding="utf-8")
        print(f"wrote {expected_path(module).relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
