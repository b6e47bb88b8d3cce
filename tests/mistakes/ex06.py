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
        "evidence-1/interleaved"),
    bug("evidence-1", "indivisible-width-accepted", "dropped-check", "evidence-1/not-divisible-accepted"),
    Entry("evidence-1", "reads-one-key-too-many", _variant(
        ("readable = range(i + 1) if causal else range(len(x))",
         "readable = range(min(i + 2, len(x))) if causal else range(len(x))")),
        None),
    Entry("evidence-1", "strict-mask", _variant(
        ("readable = range(i + 1) if causal else range(len(x))", "readable = range(i) if causal else range(len(x))")),
        "evidence-1/diagonal-hidden"),
]


# ---- a fresh reader's answers (read84, tried with check() on 848591ba; not held out: tuned to) ------------
ENTRIES += [
    Entry('evidence-1', 'read84-one-over-d', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads: raise ValueError
    d = D // n_heads
    proj = lambda rows, w: [[sum(r[i]*w[i][c] for i in range(D)) for c in range(D)] for r in rows]
    q, k, v = proj(x, w_q), proj(x, w_k), proj(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i+1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h*d, (h+1)*d
            s = [sum(a*b for a, b in zip(q[i][lo:hi], k[j][lo:hi]))/d for j in js]
            t = max(s); e = [math.exp(z - t) for z in s]; S = sum(e)
            row += [sum(e_/S*v[j][c] for e_, j in zip(e, js)) for c in range(lo, hi)]
        out.append(row)
    return proj(out, w_o)
""", 'evidence-1/scale-by-d',
          mistake='Divides the scores by d instead of √d (with no attention of a library to call).'),
]


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('evidence-1', 'heldout-123', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    d = D // n_heads

    def matmul(a, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in a]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    T = len(x)
    out = []
    for i in range(T):
        keys = range(i + 1) if causal else range(T)
        concat = []
        for h in range(n_heads):
            lo = h * d
            s = [sum(q[i][lo + a] * k[j][lo + a] for a in range(d)) / math.sqrt(D) for j in keys]
            m = max(s)
            e = [math.exp(t - m) for t in s]
            z = sum(e)
            for a in range(d):
                concat.append(sum(e[n] / z * v[j][lo + a] for n, j in enumerate(keys)))
        out.append(concat)
    return matmul(out, w_o)
""", 'evidence-1/scale-by-D',
          mistake='Scales the scores by 1/sqrt(D), the full width, instead of 1/sqrt(d), the head width.', heldout=True),
    Entry('evidence-1', 'heldout-124', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("D не делится на n_heads")
    d = D // n_heads
    T = len(x)

    def proj(rows, w):
        return [[sum(rows[t][r] * w[r][c] for r in range(D)) for c in range(D)]
                for t in range(len(rows))]

    Q, K, V = proj(x, w_q), proj(x, w_k), proj(x, w_v)
    merged = []
    for i in range(T):
        js = list(range(i)) if causal else list(range(T))   # только прошлое
        row = []
        for h in range(n_heads):
            sl = slice(h * d, (h + 1) * d)
            sc = [sum(a * b for a, b in zip(Q[i][sl], K[j][sl])) / math.sqrt(d) for j in js]
            mx = max(sc)
            ex = [math.exp(s - mx) for s in sc]
            tot = sum(ex)
            for c in range(h * d, (h + 1) * d):
                row.append(sum(ex[n] * V[j][c] for n, j in enumerate(js)) / tot)
        merged.append(row)
    return proj(merged, w_o)
""", 'evidence-1/diagonal-hidden',
          mistake='Uses range(i) for the causal keys (< instead of <=): query 0 has nothing to read and max() of an empty list raises.', heldout=True),
    Entry('evidence-1', 'heldout-125', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D 不能被 n_heads 整除")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    T = len(x)
    merged = []
    for i in range(T):
        readable = range(i + 1) if causal else range(T)
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            exps = [math.exp(sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) / math.sqrt(d))
                    for j in readable]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/no-max',
          mistake='Does not subtract the largest score before math.exp, so large scores raise OverflowError.', heldout=True),
    Entry('evidence-1', 'heldout-126', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D must be divisible by n_heads")
    d = D // n_heads
    T = len(x)

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(T):
        readable = list(range(i + 1)) if causal else list(range(T))
        row = []
        for h in range(n_heads):
            comps = list(range(h, D, n_heads))     # the components of head h
            scores = [sum(q[i][c] * k[j][c] for c in comps) / math.sqrt(d) for j in readable]
            top = max(scores)
            w = [math.exp(s - top) for s in scores]
            total = sum(w)
            row += [sum(wj / total * v[j][c] for wj, j in zip(w, readable)) for c in comps]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/interleaved',
          mistake='Gives head h the strided components h, h+H, h+2H, ... instead of the contiguous block h*d ... (h+1)*d - 1.', heldout=True),
    Entry('evidence-1', 'heldout-127', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("ширина не делится на число голов")
    d = D // n_heads

    def matvec(w, row):
        # y_c = сумма по r от w[c][r] * x[r]
        return [sum(w[c][r] * row[r] for r in range(D)) for c in range(D)]

    q = [matvec(w_q, row) for row in x]
    k = [matvec(w_k, row) for row in x]
    v = [matvec(w_v, row) for row in x]
    T = len(x)
    merged = []
    for i in range(T):
        js = range(i + 1) if causal else range(T)
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            sc = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d) for j in js]
            mx = max(sc)
            ex = [math.exp(s - mx) for s in sc]
            z = sum(ex)
            row += [sum(e * v[j][c] for e, j in zip(ex, js)) / z for c in range(lo, hi)]
        merged.append(row)
    return [matvec(w_o, row) for row in merged]
""", '*/transposed-weights',
          mistake='Multiplies by the transposed matrices (w[c][r] instead of w[r][c]), the column-vector convention; it only agrees when the matrices are symmetric.', heldout=True),
    Entry('evidence-1', 'heldout-128', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("n_heads 必须整除 D")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) / math.sqrt(d)
                      for j in range(i + 1)]          # 因果：只看 j <= i
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(exps[j] / total * v[j][c] for j in range(i + 1)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag: every query reads only keys j <= i even when causal=False.', heldout=True),
    Entry('evidence-1', 'heldout-129', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    d = D // n_heads
    T = len(x)

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(T):
        readable = range(i + 1) if causal else range(T)
        row = []
        for lo in range(0, D, d):                  # one block of d components per head
            hi = lo + d
            scores = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/not-divisible-accepted',
          mistake='Never checks that n_heads divides D: it steps through the width in blocks of D // n_heads and silently runs with the wrong number of heads.', heldout=True),
    Entry('evidence-1', 'heldout-130', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D должно делиться на n_heads")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    T = len(x)
    merged = []
    for i in range(T):
        readable = range(i + 1) if causal else range(T)
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            head = [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
            row = head + row
        merged.append(row)
    return project(merged, w_o)
""", None,
          mistake="Prepends each head's result (row = head + row), so the heads are concatenated in reverse order.", heldout=True),
    Entry('evidence-1', 'heldout-131', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D 必须是 n_heads 的倍数")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    T = len(x)
    merged = []
    for i in range(T):
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d) for j in range(T)]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            probs = [e / total for e in exps]
            if causal:
                probs = [p if j <= i else 0.0 for j, p in enumerate(probs)]   # 屏蔽未来
            row += [sum(probs[j] * v[j][c] for j in range(T)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", None,
          mistake='Takes the softmax denominator over all keys and only restricts the weighted sum to j <= i (softmax first, mask afterwards), so the causal weights no longer sum to 1.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('evidence-1', 'heldout3-112', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    d = D // n_heads

    def matmul(a, b):
        return [[sum(a[i][r] * b[r][c] for r in range(len(b))) for c in range(len(b[0]))]
                for i in range(len(a))]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    T = len(x)
    out = []
    for i in range(T):
        keys = range(i + 1) if causal else range(T)
        row = []
        for h in range(n_heads):
            sl = slice(h * d, (h + 1) * d)
            s = [sum(a * b for a, b in zip(q[i][sl], k[j][sl])) / d for j in keys]
            m = max(s)
            e = [math.exp(si - m) for si in s]
            z = sum(e)
            row.extend(sum(e[n] / z * v[j][c] for n, j in enumerate(keys))
                       for c in range(h * d, (h + 1) * d))
        out.append(row)
    return matmul(out, w_o)
""", 'evidence-1/scale-by-d',
          mistake='Scales the scores by 1/d instead of 1/sqrt(d).', heldout=True),
    Entry('evidence-1', 'heldout3-113', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("D 必须能被 n_heads 整除")
    d = D // n_heads
    T = len(x)

    def proj(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = proj(x, w_q), proj(x, w_k), proj(x, w_v)
    merged = []
    for i in range(T):
        js = list(range(i + 1)) if causal else list(range(T))
        row = []
        for h in range(n_heads):
            a, b = h * d, (h + 1) * d
            # 打分并做 softmax
            ex = [math.exp(sum(q[i][c] * k[j][c] for c in range(a, b)) / math.sqrt(d))
                  for j in js]
            tot = sum(ex)
            for c in range(a, b):
                row.append(sum(ex[n] * v[j][c] for n, j in enumerate(js)) / tot)
        merged.append(row)
    return proj(merged, w_o)
""", 'evidence-1/no-max',
          mistake='Leaves out the max subtraction, so large scores overflow math.exp (OverflowError) or, when they are all very negative, underflow to a zero sum (ZeroDivisionError).', heldout=True),
    Entry('evidence-1', 'heldout3-114', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError(f"D={D} не делится на n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    result = []
    for i in range(len(x)):
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            # запрос i читает ключи 0..i
            scores = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d)
                      for j in range(i + 1)]
            mx = max(scores)
            ws = [math.exp(s - mx) for s in scores]
            total = sum(ws)
            row += [sum(ws[j] / total * v[j][c] for j in range(i + 1)) for c in range(lo, hi)]
        result.append(row)
    return project(result, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag and always reads only keys j <= i, so causal=False gives the masked result.', heldout=True),
    Entry('evidence-1', 'heldout3-115', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("width not divisible by heads")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    T = len(x)
    merged = []
    for i in range(T):
        readable = range(i + 1) if causal else range(T)
        row = []
        for h in range(n_heads):
            comps = list(range(h, D, n_heads))      # this head's components
            scores = [sum(q[i][c] * k[j][c] for c in comps) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in comps]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/interleaved',
          mistake='Gives head h the interleaved components h, h+H, h+2H, ... instead of the contiguous block h*d .. (h+1)*d-1.', heldout=True),
    Entry('evidence-1', 'heldout3-116', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("D 不能被头数整除")
    d = D // n_heads

    def apply(w, vec):
        # 矩阵乘向量 W·x
        return [sum(w[c][r] * vec[r] for r in range(D)) for c in range(D)]

    q = [apply(w_q, row) for row in x]
    k = [apply(w_k, row) for row in x]
    v = [apply(w_v, row) for row in x]
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        merged = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            sc = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d) for j in js]
            m = max(sc)
            ex = [math.exp(s - m) for s in sc]
            z = sum(ex)
            merged += [sum(ex[n] * v[j][c] for n, j in enumerate(js)) / z for c in range(lo, hi)]
        out.append(apply(w_o, merged))
    return out
""", '*/transposed-weights',
          mistake='Uses the column-vector convention w[c][r] in every projection, i.e. multiplies by the transposed matrices.', heldout=True),
    Entry('evidence-1', 'heldout3-117', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    d = D // n_heads           # ширина одной головы

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = [0.0] * D
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d)
                      for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for c in range(lo, hi):
                row[c] = sum(e / total * v[j][c] for e, j in zip(exps, readable))
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/not-divisible-accepted',
          mistake='Never raises when n_heads does not divide D: the head width is rounded down and the last components are silently dropped.', heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('evidence-1', 'heldout4-111', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D not divisible by n_heads")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(r[i] * w[i][c] for i in range(D)) for c in range(D)] for r in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    T = len(x)
    out = []
    for i in range(T):
        js = list(range(i + 1)) if causal else list(range(T))
        row = []
        for h in range(n_heads):
            a, b = h * d, (h + 1) * d
            s = [sum(q[i][c] * k[j][c] for c in range(a, b)) / d for j in js]
            m = max(s)
            e = [math.exp(t - m) for t in s]
            z = sum(e)
            row.extend(sum(e[n] / z * v[j][c] for n, j in enumerate(js)) for c in range(a, b))
        out.append(row)
    return mm(out, w_o)
""", 'evidence-1/scale-by-d',
          mistake='Scales the scores by 1/d instead of 1/sqrt(d).', heldout=True),
    Entry('evidence-1', 'heldout4-112', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("D 不能被头数整除")
    d = D // n_heads
    def matmul(a, w):
        return [[sum(a[t][r] * w[r][c] for r in range(D)) for c in range(D)] for t in range(len(a))]
    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    result = []
    for i in range(len(x)):
        keys = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            sl = slice(h * d, (h + 1) * d)
            exps = [math.exp(sum(p * r for p, r in zip(q[i][sl], k[j][sl])) / math.sqrt(d))
                    for j in keys]
            total = sum(exps)
            for c in range(h * d, (h + 1) * d):
                row.append(sum(e * v[j][c] for e, j in zip(exps, keys)) / total)
        result.append(row)
    return matmul(result, w_o)
""", 'evidence-1/no-max',
          mistake='Does not subtract the largest score before math.exp, so rows of large scores overflow (OverflowError) or underflow to a zero denominator (ZeroDivisionError).', heldout=True),
    Entry('evidence-1', 'heldout4-113', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D не делится на число голов")
    d = D // n_heads
    T = len(x)
    def proj(rows, w):
        return [[sum(rows[t][r] * w[r][c] for r in range(D)) for c in range(D)] for t in range(len(rows))]
    q, k, v = proj(x, w_q), proj(x, w_k), proj(x, w_v)
    merged = []
    for i in range(T):
        readable = range(i) if causal else range(T)     # только прошлое
        row = []
        for h in range(n_heads):
            lo = h * d
            sc = [sum(q[i][lo + a] * k[j][lo + a] for a in range(d)) / math.sqrt(d) for j in readable]
            top = max(sc)
            ex = [math.exp(s - top) for s in sc]
            tot = sum(ex)
            row += [sum(ex[n] * v[j][lo + a] for n, j in enumerate(readable)) / tot for a in range(d)]
        merged.append(row)
    return proj(merged, w_o)
""", 'evidence-1/diagonal-hidden',
          mistake='Causal reading uses range(i) (keys j < i), so query 0 reads nothing and max() of an empty list raises.', heldout=True),
    Entry('evidence-1', 'heldout4-114', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    d = D // n_heads
    def project(rows, w):
        # W x for every row
        return [[sum(w[c][r] * row[r] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            cs = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cs) / math.sqrt(d) for j in js]
            m = max(s)
            e = [math.exp(t - m) for t in s]
            z = sum(e)
            row += [sum(e_ * v[j][c] for e_, j in zip(e, js)) / z for c in cs]
        out.append(row)
    return project(out, w_o)
""", '*/transposed-weights',
          mistake='Multiplies by the transposed matrices (w[c][r] instead of w[r][c]), i.e. the column-vector convention.', heldout=True),
    Entry('evidence-1', 'heldout4-115', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D 必须能被 n_heads 整除")
    H = n_heads
    d = D // H
    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    out = []
    for i in range(len(x)):
        js = list(range(i + 1)) if causal else list(range(len(x)))
        row = [0.0] * D
        for h in range(H):
            comps = [h + H * a for a in range(d)]    # 第 h 个头的分量
            s = [sum(q[i][c] * k[j][c] for c in comps) / math.sqrt(d) for j in js]
            m = max(s)
            e = [math.exp(t - m) for t in s]
            z = sum(e)
            for a, c in enumerate(comps):
                row[h * d + a] = sum(e[n] * v[j][c] for n, j in enumerate(js)) / z
        out.append(row)
    return project(out, w_o)
""", 'evidence-1/interleaved',
          mistake='Gives head h the interleaved components h, h+H, h+2H, … instead of the block h*d … (h+1)*d-1.', heldout=True),
    Entry('evidence-1', 'heldout4-116', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("D не делится на n_heads")
    d = D // n_heads
    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) / math.sqrt(d)
                      for j in range(i + 1)]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for j, e in enumerate(exps)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag and always masks, so causal=False (the negative control) still reads only the past.', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('evidence-1', 'heldout5-126', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D is not divisible by n_heads")
    d = D // n_heads

    def matmul(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    out = []
    for i in range(len(x)):
        keys = list(range(i + 1)) if causal else list(range(len(x)))
        merged = []
        for h in range(n_heads):
            cols = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(D) for j in keys]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            merged += [sum(e[n] / z * v[j][c] for n, j in enumerate(keys)) for c in cols]
        out.append(merged)
    return matmul(out, w_o)
""", 'evidence-1/scale-by-D',
          mistake='Scales the scores by 1/√D instead of 1/√d.', heldout=True),
    Entry('evidence-1', 'heldout5-127', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D не делится на n_heads")
    d = D // n_heads

    def apply(w, vec):
        # матрица на вектор
        return [sum(w[c][r] * vec[r] for r in range(D)) for c in range(D)]

    T = len(x)
    q = [apply(w_q, row) for row in x]
    k = [apply(w_k, row) for row in x]
    v = [apply(w_v, row) for row in x]
    result = []
    for i in range(T):
        js = range(i + 1) if causal else range(T)
        row = []
        for h in range(n_heads):
            lo = h * d
            s = [sum(q[i][lo + a] * k[j][lo + a] for a in range(d)) / math.sqrt(d) for j in js]
            mx = max(s)
            e = [math.exp(t - mx) for t in s]
            tot = sum(e)
            row += [sum(e[n] * v[j][lo + a] for n, j in enumerate(js)) / tot for a in range(d)]
        result.append(apply(w_o, row))
    return result
""", '*/transposed-weights',
          mistake='Multiplies in the column-vector convention, sum(w[c][r] * x[r]), i.e. by the transposed matrices.', heldout=True),
    Entry('evidence-1', 'heldout5-128', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D is not divisible by n_heads")
    d = D // n_heads

    def matmul(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    out = []
    for i in range(len(x)):
        keys = list(range(i)) if causal else list(range(len(x)))
        merged = []
        for h in range(n_heads):
            cols = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d) for j in keys]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            merged += [sum(e[n] / z * v[j][c] for n, j in enumerate(keys)) for c in cols]
        out.append(merged)
    return matmul(out, w_o)
""", 'evidence-1/diagonal-hidden',
          mistake='Lets query i read only keys j < i (range(i)), so query 0 has no key and max() of an empty list raises.', heldout=True),
    Entry('evidence-1', 'heldout5-129', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D is not divisible by n_heads")
    d = D // n_heads

    def matmul(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    out = []
    for i in range(len(x)):
        keys = list(range(i + 1))  # causal attention
        merged = []
        for h in range(n_heads):
            cols = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d) for j in keys]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            merged += [sum(e[n] / z * v[j][c] for n, j in enumerate(keys)) for c in cols]
        out.append(merged)
    return matmul(out, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag and always applies the mask.', heldout=True),
    Entry('evidence-1', 'heldout5-130', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("ширина не делится на число голов")
    d = D // n_heads
    T = len(x)
    proj = lambda w: [[sum(x[t][r] * w[r][c] for r in range(D)) for c in range(D)] for t in range(T)]
    q, k, v = proj(w_q), proj(w_k), proj(w_v)
    merged = []
    for i in range(T):
        upto = i + 1 if causal else T
        row = []
        for h in range(n_heads):
            sl = slice(h * d, (h + 1) * d)
            e = [math.exp(sum(a * b for a, b in zip(q[i][sl], k[j][sl])) / math.sqrt(d))
                 for j in range(upto)]
            z = sum(e)
            row += [sum(e[j] * v[j][sl][a] for j in range(upto)) / z for a in range(d)]
        merged.append(row)
    return [[sum(r[m] * w_o[m][c] for m in range(D)) for c in range(D)] for r in merged]
""", 'evidence-1/no-max',
          mistake='Does not subtract the largest score before math.exp, so large scores raise OverflowError.', heldout=True),
    Entry('evidence-1', 'heldout5-131', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D is not divisible by n_heads")
    d = D // n_heads

    def matmul(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    out = []
    for i in range(len(x)):
        keys = list(range(i + 1)) if causal else list(range(len(x)))
        merged = []
        for h in range(n_heads):
            cols = range(h, D, n_heads)  # 第 h 个头的分量
            s = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d) for j in keys]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            merged += [sum(e[n] / z * v[j][c] for n, j in enumerate(keys)) for c in cols]
        out.append(merged)
    return matmul(out, w_o)
""", 'evidence-1/interleaved',
          mistake='Gives head h the interleaved components h, h + H, h + 2H, … instead of the block h·d … (h+1)·d − 1.', heldout=True),
    Entry('evidence-1', 'heldout5-132', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    x = np.array(x, dtype=float)
    D = x.shape[1]
    if D % n_heads:
        raise ValueError("D not divisible by n_heads")
    d = D // n_heads
    q, k, v = x @ np.array(w_q), x @ np.array(w_k), x @ np.array(w_v)
    T = len(x)
    out = np.zeros((T, D))
    for i in range(T):
        n = i + 1 if causal else T
        for h in range(n_heads):
            c = slice(h * d, (h + 1) * d)
            s = k[:n, c] @ q[i, c] / math.sqrt(d)
            w = np.exp(s - s.max())
            out[i, c] = (w / w.sum()) @ v[:n, c]
    return out @ np.array(w_o)
""", '*/other-kind-of-result',
          mistake='Converts the result to a NumPy array at the end (and uses NumPy), returning an ndarray instead of a list of lists.', heldout=True),
    Entry('evidence-1', 'heldout5-133', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D is not divisible by n_heads")
    d = D // n_heads

    def matmul(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    out = []
    for i in range(len(x)):
        keys = list(range(i + 1)) if causal else list(range(len(x)))
        merged = []
        for h in range(n_heads):
            cols = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d) for j in keys]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            merged += [sum(e[n] / z * v[j][c] for n, j in enumerate(keys)) for c in cols]
        out.append(merged)
    return out
""", 'evidence-1/no-w-o',
          mistake='Forgets the output projection w_o and returns the concatenated heads.', heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('evidence-1', 'r8-068', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            cs = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cs) / math.sqrt(D) for j in js]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            row += [sum(e[n] / z * v[j][c] for n, j in enumerate(js)) for c in cs]
        out.append(row)
    return mm(out, w_o)
""", 'evidence-1/scale-by-D',
          mistake='Scales by sqrt(D) instead of sqrt(d).', probe=True),
    Entry('evidence-1', 'r8-069', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    out = []
    for i in range(len(x)):
        row = []
        for h in range(n_heads):
            cs = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cs) / math.sqrt(d) for j in range(i + 1)]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            row += [sum(e[n] / z * v[j][c] for n, j in enumerate(range(i + 1))) for c in cs]
        out.append(row)
    return mm(out, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag (always causal).', probe=True),
    Entry('evidence-1', 'r8-070', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            cs = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cs) / math.sqrt(d) for j in js]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            row += [sum(e[n] / z * v[j][c] for n, j in enumerate(js)) for c in cs]
        out.append(row)
    return out
""", 'evidence-1/no-w-o',
          mistake='Forgets the output projection (returns the merged heads).', probe=True),
    Entry('evidence-1', 'r8-092', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        all_s = [[sum(q[i][c] * k[j][c] for c in range(h * d, (h + 1) * d)) / math.sqrt(d) for j in js]
                 for h in range(n_heads)]
        top = max(max(s) for s in all_s)
        row = []
        for h in range(n_heads):
            e = [math.exp(a - top) for a in all_s[h]]
            z = sum(e)
            row += [sum(e[n] / z * v[j][c] for n, j in enumerate(js)) for c in range(h * d, (h + 1) * d)]
        out.append(row)
    return mm(out, w_o)
""", 'evidence-1/no-max',
          mistake="Subtracts one maximum over all heads of the row (computed before the head loop): right unless the heads' scores are far apart.", probe=True),
    Entry('evidence-1', 'r8-112', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            cs = range(h * d, (h + 1) * d)
            s = [sum(q[i][c] * k[j][c] for c in cs) / math.sqrt(d) for j in js]
            m = max(s)
            e = [math.exp(a - m) for a in s]
            z = sum(e)
            row += [sum(e[n] / z * v[j][c] for n, j in enumerate(js)) for c in cs]
        out.append(row)
    return [[round(a, 3) for a in r] for r in mm(out, w_o)]
""", None,
          mistake="Rounds every output to 3 decimals ('for readability').", probe=True),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('evidence-1', 'heldout7-136', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1)  # causal: keys up to i
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
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag and always reads only keys 0..i.', heldout=True),
    Entry('evidence-1', 'heldout7-137', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []  # 逐行计算每个头
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            scores = [sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/no-scale',
          mistake='Forgets to divide the scores by sqrt(d).', heldout=True),
    Entry('evidence-1', 'heldout7-138', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[c][r] for r in range(D)) for c in range(D)] for row in rows]

    # строка на матрицу
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
""", '*/transposed-weights',
          mistake='Multiplies by the transposed weight matrix (w[c][r] instead of w[r][c]).', heldout=True),
    Entry('evidence-1', 'heldout7-139', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
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
            scores = [sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) / math.sqrt(D) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/scale-by-D',
          mistake='Scales the scores by sqrt(D), the full width, instead of sqrt(d).', heldout=True),
    Entry('evidence-1', 'heldout7-140', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("D 不能被头数整除")
    d = D // n_heads
    matmul = lambda A, B: [[sum(a * B[r][c] for r, a in enumerate(row)) for c in range(len(B[0]))] for row in A]
    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    out = []
    for i in range(len(x)):
        keys = list(range(i + 1)) if causal else list(range(len(x)))
        row = []
        for h in range(n_heads):
            s = slice(h * d, (h + 1) * d)
            # softmax 权重
            e = [math.exp(sum(a * b for a, b in zip(q[i][s], k[j][s])) / math.sqrt(d)) for j in keys]
            z = sum(e)
            row.extend(sum(e[n] / z * v[j][c] for n, j in enumerate(keys)) for c in range(h * d, (h + 1) * d))
        out.append(row)
    return matmul(out, w_o)
""", 'evidence-1/no-max',
          mistake='Does not subtract the largest score before math.exp, which overflows for large inputs.', heldout=True),
    Entry('evidence-1', 'heldout7-141', r"""
import math
import numpy as np
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    x = np.array(x, dtype=float)
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("D не делится на число голов")
    d, T = D // n_heads, len(x)
    q, k, v = x @ np.array(w_q), x @ np.array(w_k), x @ np.array(w_v)
    out = np.zeros((T, D))
    for h in range(n_heads):
        s = slice(h * d, (h + 1) * d)
        sc = q[:, s] @ k[:, s].T / math.sqrt(d)
        if causal:
            sc = np.where(np.tril(np.ones((T, T), bool)), sc, -np.inf)
        p = np.exp(sc - sc.max(axis=1, keepdims=True))
        out[:, s] = (p / p.sum(axis=1, keepdims=True)) @ v[:, s]
    return out @ np.array(w_o)
""", '*/other-kind-of-result',
          mistake='Uses NumPy inside and returns a NumPy array instead of nested lists.', heldout=True),
    Entry('evidence-1', 'heldout7-142', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"D={D} not divisible by n_heads={n_heads}")
    d = D // n_heads
    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = [0.0] * D
        for h in range(n_heads):
            cols = list(range(h, D, n_heads))      # this head's features
            scores = [sum(q[i][c] * k[j][c] for c in cols) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            for c in cols:
                row[c] = sum(e / total * v[j][c] for e, j in zip(exps, readable))
        merged.append(row)
    return project(merged, w_o)
""", None,
          mistake='Takes every n_heads-th feature for a head (q[i][h::n_heads]) instead of a contiguous block of d features.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('evidence-1', 'dev8-134', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/no-scale',
          mistake='Forgets to divide the scores by sqrt(d).'),
    Entry('evidence-1', 'dev8-135', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        # 因果：只能看之前的位置
        readable = range(i) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/diagonal-hidden',
          mistake="Causal rows read only keys before i, excluding the query's own position (row 0 has no key at all)."),
    Entry('evidence-1', 'dev8-136', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1)   # маска всегда
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag: always applies the causal mask, even for causal=False.'),
    Entry('evidence-1', 'dev8-137', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            exps = [math.exp(s) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/no-max',
          mistake='Softmax without subtracting the maximum overflows for large scores.'),
    Entry('evidence-1', 'dev8-138', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        # 矩阵乘法
        return [[sum(row[r] * w[c][r] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", '*/transposed-weights',
          mistake='Multiplies by the transposed matrix (w[c][r] instead of w[r][c]).'),
    Entry('evidence-1', 'dev8-139', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i]
            scores = [sum(a * b for a, b in zip(query, k[j])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", None,
          mistake='Scores every head with the full-width query and key instead of its own slice of d features.'),
    Entry('evidence-1', 'dev8-140', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)]
                for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return merged
""", 'evidence-1/no-w-o',
          mistake='Forgets the output projection w_o.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('evidence-1', 'heldout8-145', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # my implementation with plain lists
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/diagonal-hidden',
          mistake='Off by one in the causal range: a query cannot read its own position (and position 0 reads nothing).', heldout=True),
    Entry('evidence-1', 'heldout8-146', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # 用纯 Python 列表实现
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
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
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(D) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/scale-by-D',
          mistake='Scales the scores by sqrt(D) instead of sqrt(d), the head width.', heldout=True),
    Entry('evidence-1', 'heldout8-147', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # реализация на обычных списках
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
    d = D // n_heads

    def project(rows, w):
        return [[sum(row[r] * w[c][r] for r in range(D)) for c in range(D)] for row in rows]

    q, k, v = project(x, w_q), project(x, w_k), project(x, w_v)
    merged = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", '*/transposed-weights',
          mistake='Multiplies by the transpose of each weight matrix (w[c][r] instead of w[r][c]).', heldout=True),
    Entry('evidence-1', 'heldout8-148', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # my implementation with plain lists
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
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
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            exps = [math.exp(s) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", 'evidence-1/no-max',
          mistake='No max subtraction in the softmax: math.exp overflows for large scores.', heldout=True),
    Entry('evidence-1', 'heldout8-149', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # 用纯 Python 列表实现
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
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
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return project(merged, w_o)
""", None,
          mistake="Compares each head's query with the first d features of every key instead of that head's slice k[j][lo:hi].", heldout=True),
    Entry('evidence-1', 'heldout8-150', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # реализация на обычных списках
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
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
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(lo, hi)]
        merged.append(row)
    return merged
""", 'evidence-1/no-w-o',
          mistake='Forgets the output projection W_O.', heldout=True),
    Entry('evidence-1', 'heldout8-151', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    # реализация на обычных списках
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError(f"width D={D} is not divisible by n_heads={n_heads}")
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
            query = q[i][lo:hi]
            scores = [sum(a * b for a, b in zip(query, k[j][lo:hi])) / math.sqrt(d) for j in readable]
            top = max(scores)
            exps = [math.exp(s - top) for s in scores]
            total = sum(exps)
            row += [sum(e / total * v[j][c] for e, j in zip(exps, readable)) for c in range(d)]
        merged.append(row)
    return project(merged, w_o)
""", None,
          mistake="Reads the value features 0..d-1 for every head instead of the head's own slice lo..hi.", heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none.
ENTRIES += [
    Entry('evidence-1', 'heldout9-109', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("n_heads must divide D")
    d = D // n_heads
    def mm(rows, w):
        return [[sum(r[i] * w[i][c] for i in range(D)) for c in range(D)] for r in rows]
    q, k, v = mm(x, w_q), mm(x, w_k), mm(x, w_v)
    T = len(x)
    out = []
    for i in range(T):
        js = list(range(i + 1)) if causal else list(range(T))
        row = []
        for h in range(n_heads):
            s = [sum(q[i][c] * k[j][c] for c in range(h * d, (h + 1) * d)) / math.sqrt(d) for j in js]
            e = [math.exp(a) for a in s]
            z = sum(e)
            row += [sum(e[n] / z * v[j][c] for n, j in enumerate(js)) for c in range(h * d, (h + 1) * d)]
        out.append(row)
    return mm(out, w_o)
""", 'evidence-1/no-max',
          mistake='Does not subtract the largest score before math.exp, so large scores overflow.', heldout=True),
    Entry('evidence-1', 'heldout9-110', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D не делится на число голов")
    d = D // n_heads
    def matmul(a, w):
        return [[sum(a_i[r] * w[r][c] for r in range(D)) for c in range(D)] for a_i in a]
    q, k, v = matmul(x, w_q), matmul(x, w_k), matmul(x, w_v)
    res = []
    for i in range(len(x)):
        readable = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo = h * d
            # масштаб 1/sqrt(D)
            scores = [sum(q[i][lo + a] * k[j][lo + a] for a in range(d)) / math.sqrt(D) for j in readable]
            top = max(scores)
            ex = [math.exp(s - top) for s in scores]
            tot = sum(ex)
            row += [sum(e * v[j][lo + a] for e, j in zip(ex, readable)) / tot for a in range(d)]
        res.append(row)
    return matmul(res, w_o)
""", 'evidence-1/scale-by-D',
          mistake='Scales the scores by 1/sqrt(D) instead of 1/sqrt(d).', heldout=True),
    Entry('evidence-1', 'heldout9-111', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("n_heads does not divide D")
    d = D // n_heads
    def apply(w, rows):
        # W times each vector
        return [[sum(w[c][r] * row[r] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = apply(w_q, x), apply(w_k, x), apply(w_v, x)
    merged = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            cs = range(h * d, (h + 1) * d)
            sc = [sum(q[i][c] * k[j][c] for c in cs) / math.sqrt(d) for j in js]
            mx = max(sc)
            ex = [math.exp(s - mx) for s in sc]
            z = sum(ex)
            row += [sum(e / z * v[j][c] for e, j in zip(ex, js)) for c in cs]
        merged.append(row)
    return apply(w_o, merged)
""", '*/transposed-weights',
          mistake='Multiplies by the transposed matrices (w[c][r] instead of w[r][c]), i.e. column-vector convention.', heldout=True),
    Entry('evidence-1', 'heldout9-112', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads != 0:
        raise ValueError("头数必须整除 D")
    d = D // n_heads
    def proj(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = proj(x, w_q), proj(x, w_k), proj(x, w_v)
    out = []
    for i in range(len(x)):
        js = range(i + 1) if causal else range(len(x))
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            sc = [sum(a * b for a, b in zip(q[i][lo:hi], k[j][lo:hi])) / math.sqrt(d) for j in js]
            m = max(sc)
            ex = [math.exp(s - m) for s in sc]
            tot = sum(ex)
            row += [sum(e / tot * v[j][c] for e, j in zip(ex, js)) for c in range(lo, hi)]
        out.append(row)
    # 拼接各头的结果
    return out
""", 'evidence-1/no-w-o',
          mistake='Forgets the output projection w_o.', heldout=True),
    Entry('evidence-1', 'heldout9-113', r"""
import math
def attention_py(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    D = len(w_q)
    if D % n_heads:
        raise ValueError("D % n_heads != 0")
    d = D // n_heads
    def proj(rows, w):
        return [[sum(row[r] * w[r][c] for r in range(D)) for c in range(D)] for row in rows]
    q, k, v = proj(x, w_q), proj(x, w_k), proj(x, w_v)
    merged = []
    for i in range(len(x)):
        row = []
        for h in range(n_heads):
            lo, hi = h * d, (h + 1) * d
            # только ключи j <= i
            sc = [sum(q[i][c] * k[j][c] for c in range(lo, hi)) / math.sqrt(d) for j in range(i + 1)]
            m = max(sc)
            ex = [math.exp(s - m) for s in sc]
            z = sum(ex)
            row += [sum(ex[j] / z * v[j][c] for j in range(i + 1)) for c in range(lo, hi)]
        merged.append(row)
    return proj(merged, w_o)
""", 'evidence-1/ignores-causal',
          mistake='Ignores the causal flag: always applies the causal mask.', heldout=True),
]
