"""Wrong answers to exercise set 6 (evidence-1), written in plain Python as the exercise asks."""

from grading import references

from . import Entry, reference_answer, with_slips

_SOLUTION = reference_answer(references.attention_py, imports=("import math",))


def _variant(*replacements):
    """The plain-Python answer with one realistic slip put in."""
    return with_slips(_SOLUTION, *replacements)


ENTRIES = [
    Entry("evidence-1", "no-scale", _variant((" / math.sqrt(d)", "")), "evidence-1/no-scale"),
    Entry("evidence-1", "scale-by-sqrt-D", _variant((" / math.sqrt(d)", " / math.sqrt(D)")),
          "evidence-1/scale-by-D"),
    Entry("evidence-1", "forgot-w-o", _variant(("    return project(merged, w_o)", "    return merged")),
          "evidence-1/no-w-o"),
    Entry("evidence-1", "causal-flag-ignored", _variant(
        ("readable = range(i + 1) if causal else range(len(x))", "readable = range(i + 1)")),
        "evidence-1/ignores-causal"),
    Entry("evidence-1", "strided-heads", _variant(
        ("lo, hi = h * d, (h + 1) * d", "cols = list(range(h, D, n_heads))"),
        ("query = q[i][lo:hi]", "query = [q[i][c] for c in cols]"),
        ("zip(query, k[j][lo:hi])", "zip(query, [k[j][c] for c in cols])"),
        ("for c in range(lo, hi)]", "for c in cols]")),
        None),
    Entry("evidence-1", "indivisible-width-accepted", _variant(
        ('    if D % n_heads != 0:\n        raise ValueError(\n'
         '            f"width D={D} is not divisible by n_heads={n_heads}")\n', "")),
        "evidence-1/not-divisible-accepted"),
    Entry("evidence-1", "reads-one-key-too-many", _variant(
        ("readable = range(i + 1) if causal else range(len(x))",
         "readable = range(min(i + 2, len(x))) if causal else range(len(x))")),
        None),
    Entry("evidence-1", "strict-mask", _variant(
        ("readable = range(i + 1) if causal else range(len(x))", "readable = range(i) if causal else range(len(x))")),
        None),
]
