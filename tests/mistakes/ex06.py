"""Wrong answers to exercise set 6 (evidence-1), written in plain Python as the exercise asks."""

from grading import references

from . import Entry, bug, reference_answer, with_slips

_SOLUTION = reference_answer(references.attention_py, imports=("import math",))


def _variant(*replacements):
    """The plain-Python answer with one realistic slip put in."""
    return with_slips(_SOLUTION, *replacements)


ENTRIES = [
    bug("evidence-1", "no-scale", "no-scale", "evidence-1/no-scale"),
    bug("evidence-1", "scale-by-sqrt-D", "scale-by-full-width", "evidence-1/scale-by-D"),
    bug("evidence-1", "forgot-w-o", "dropped-product@project(merged, w_o)", "evidence-1/no-w-o"),
    bug("evidence-1", "causal-flag-ignored", "argument-ignored", "evidence-1/ignores-causal"),
    Entry("evidence-1", "strided-heads", _variant(
        ("lo, hi = h * d, (h + 1) * d", "cols = list(range(h, D, n_heads))"),
        ("query = q[i][lo:hi]", "query = [q[i][c] for c in cols]"),
        ("zip(query, k[j][lo:hi])", "zip(query, [k[j][c] for c in cols])"),
        ("for c in range(lo, hi)]", "for c in cols]")),
        None),
    bug("evidence-1", "indivisible-width-accepted", "dropped-check", "evidence-1/not-divisible-accepted"),
    Entry("evidence-1", "reads-one-key-too-many", _variant(
        ("readable = range(i + 1) if causal else range(len(x))",
         "readable = range(min(i + 2, len(x))) if causal else range(len(x))")),
        None),
    Entry("evidence-1", "strict-mask", _variant(
        ("readable = range(i + 1) if causal else range(len(x))", "readable = range(i) if causal else range(len(x))")),
        None),
]
