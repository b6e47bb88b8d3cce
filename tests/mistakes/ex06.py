"""Wrong answers to exercise set 6 (evidence-1), written in plain Python as the exercise asks."""

from . import Entry

_SOLUTION = '''
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("not divisible")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
'''


def _variant(*replacements):
    """The plain-Python answer with one realistic slip put in (each replacement must apply once)."""
    code = _SOLUTION
    for old, new in replacements:
        assert code.count(old) == 1, old
        code = code.replace(old, new)
    return code


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
        ("zip(q[i][lo:hi], k[j][lo:hi])", "zip([q[i][c] for c in cols], [k[j][c] for c in cols])"),
        ("for c in range(lo, hi)]", "for c in cols]")),
        None),
    Entry("evidence-1", "indivisible-width-accepted", _variant(
        ('    if D % n_heads != 0:\n        raise ValueError("not divisible")\n', "")),
        "evidence-1/not-divisible-accepted"),
    Entry("evidence-1", "reads-one-key-too-many", _variant(
        ("readable = range(i + 1) if causal else range(len(x))",
         "readable = range(min(i + 2, len(x))) if causal else range(len(x))")),
        None),
    Entry("evidence-1", "strict-mask", _variant(
        ("readable = range(i + 1) if causal else range(len(x))", "readable = range(i) if causal else range(len(x))")),
        None),
]
