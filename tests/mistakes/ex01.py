"""Wrong answers to exercise set 1 (mask-1, mask-2, mask-3, data-1)."""

from grading import references

from . import Entry, bug, reference_answer, with_slips


def _valid_with_slip(*replacements):
    """mask-3's answer (grading/references.py) with one slip."""
    return with_slips(reference_answer(references.is_valid_attention), *replacements)


def _collate_with_slip(*replacements):
    """data-1's answer (its reference is lib's own collate; the answer is in src/solutions) with one slip."""
    answer = reference_answer(references.collate,
                              ("import numpy as np", "from lib.data import BOS, EOS, IGNORE, encode"))
    return with_slips(answer, *replacements)


# the start of a masked softmax that refuses an empty row, as learners write it
_CHECKED_SOFTMAX = """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
"""

ENTRIES = [
    # ---- mask-1: causal_allowed(tq, tk) ----------------------------------------------
    Entry("mask-1", "strict-less", """
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    return key_position < query_position
""", "mask-1/strict"),
    Entry("mask-1", "tril-minus-one", """
import numpy as np
def causal_allowed(tq, tk):
    return np.tril(np.ones((tq, tk), dtype=bool), k=tk - tq - 1)
""", "mask-1/strict"),
    bug("mask-1", "top-left-arange", "top-left-alignment", "mask-1/top-left"),
    Entry("mask-1", "top-left-loop", """
import numpy as np
def causal_allowed(tq, tk):
    allowed = np.zeros((tq, tk), dtype=bool)
    for i in range(tq):
        allowed[i, :i + 1] = True
    return allowed
""", "mask-1/top-left"),
    Entry("mask-1", "returns-future", """
import numpy as np
def causal_allowed(tq, tk):
    return np.triu(np.ones((tq, tk), dtype=bool), k=tk - tq + 1)
""", "mask-1/inverted"),
    Entry("mask-1", "one-ahead", """
import numpy as np
def causal_allowed(tq, tk):
    return np.tril(np.ones((tq, tk), dtype=bool), k=tk - tq + 1)
""", "mask-1/one-ahead"),
    bug("mask-1", "square", "one-argument-for-another", "mask-1/square"),
    Entry("mask-1", "float-ones", """
import numpy as np
def causal_allowed(tq, tk):
    return np.tril(np.ones((tq, tk)), k=tk - tq)
""", "mask-1/numbers"),
    Entry("mask-1", "int-compare", """
import numpy as np
def causal_allowed(tq, tk):
    return (np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None]).astype(int)
""", "mask-1/numbers"),

    # ---- mask-2: masked_softmax(scores, allowed) ---------------------------------------
    Entry("mask-2", "softmax-then-zero", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return np.where(allowed, weights, 0)
""", "mask-2/softmax-before-mask"),
    Entry("mask-2", "softmax-then-multiply", _CHECKED_SOFTMAX + """    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True) * allowed
""", "mask-2/softmax-before-mask"),
    Entry("mask-2", "no-max-subtraction", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    e = np.exp(np.where(allowed, scores, -np.inf))
    return e / e.sum(axis=-1, keepdims=True)
""", "mask-2/no-max"),
    Entry("mask-2", "exp-times-mask", _CHECKED_SOFTMAX + """    e = np.exp(scores) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""", "mask-2/no-max"),
    Entry("mask-2", "max-over-forbidden-too", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(shifted), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""", "mask-2/max-over-all"),
    bug("mask-2", "max-of-the-whole-array", "max-over-whole-array", "mask-2/max-over-array"),
    Entry("mask-2", "largest-allowed-score-of-all-rows", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    top = np.max(scores[allowed])            # the largest allowed score
    e = np.where(allowed, np.exp(np.minimum(scores - top, 0.0)), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""", "mask-2/max-over-array"),
    Entry("mask-2", "minus-1e9", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    masked = np.where(allowed, scores, -1e9).astype(scores.dtype)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", "mask-2/finite-fill"),
    bug("mask-2", "minus-inf-no-check", "dropped-check", "mask-2/empty-row-unchecked"),
    Entry("mask-2", "zero-score-mask", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    masked = scores * allowed
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", "mask-2/zero-fill"),
    Entry("mask-2", "wrong-axis", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=0, keepdims=True))
    return e / e.sum(axis=0, keepdims=True)
""", "mask-2/wrong-axis"),
    Entry("mask-2", "float64-out", """
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores, dtype=np.float64)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", "*/dtype-promoted"),

    # ---- mask-3: is_valid_attention(weights, allowed, atol) -----------------------------
    bug("mask-3", "allclose-row-sums", "allclose-for-atol", "mask-3/allclose"),
    Entry("mask-3", "forbidden-below-atol", """
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (np.abs(weights[~allowed]) > atol).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", "mask-3/forbidden-within-atol"),
    bug("mask-3", "no-negative-check", "dropped-condition", "mask-3/no-negative-check"),
    Entry("mask-3", "zeros-only", """
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    return bool((weights[~np.broadcast_to(allowed, weights.shape)] == 0).all())
""", ("mask-3/no-negative-check", "mask-3/no-row-sum")),
    Entry("mask-3", "no-row-sum", """
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    return bool(np.isfinite(weights).all() and (weights[~allowed] == 0).all() and (weights >= 0).all())
""", "mask-3/no-row-sum"),
    Entry("mask-3", "sums-only", """
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", "mask-3/no-forbidden-check"),
    Entry("mask-3", "exact-equality", _valid_with_slip(
        ("(np.abs(weights.sum(axis=-1) - 1) <= atol).all()", "(weights.sum(axis=-1) == 1).all()")), "mask-3/exact-sum"),
    bug("mask-3", "positive-on-allowed", "positive-on-allowed", "mask-3/positive-on-allowed"),

    # ---- data-1: collate(texts, vocab) ------------------------------------------------------
    bug("data-1", "no-eos-target", "dropped-write@targets[b, len(ids)] = EOS", "data-1/no-eos-target"),
    Entry("data-1", "eos-treated-as-padding", """
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    shifted = np.full((len(texts), T), EOS, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        shifted[b, :len(ids)] = ids
    targets = np.where(shifted == EOS, IGNORE, shifted)
    return inputs, targets
""", "data-1/no-eos-target"),
    Entry("data-1", "targets-equal-inputs", """
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        row = [BOS] + list(encode(text, vocab))
        inputs[b, :len(row)] = row
        targets[b, :len(row)] = row
    return inputs, targets
""", None),
    Entry("data-1", "left-padding", """
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = list(encode(text, vocab))
        start = T - 1 - len(ids)
        inputs[b, start:] = [BOS] + ids
        targets[b, start:] = ids + [EOS]
    return inputs, targets
""", 'data-1/left-padding'),
    bug("data-1", "padding-targets-eos", "swapped-padding@IGNORE", "data-1/pad-targets-eos"),
    bug("data-1", "inputs-padded-with-ignore", "swapped-padding@EOS", "data-1/pad-inputs-ignore"),
    bug("data-1", "empty-text-accepted", "dropped-check@collate:if not all(texts)", "data-1/empty-accepted"),
    Entry("data-1", "no-bos", """
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, :len(ids)] = ids
        targets[b, :len(ids) - 1] = ids[1:]
        targets[b, len(ids) - 1] = EOS
    return inputs, targets
""", None),
    Entry("mask-2", "masks-the-callers-scores", """
import numpy as np
def masked_softmax(scores, allowed):
    allowed = np.broadcast_to(allowed, np.shape(scores))
    if not allowed.any(axis=-1).all():
        raise ValueError("a row may read no key")
    scores[~allowed] = -np.inf
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", "*/argument-changed"),
]


# ---- a fresh reader's answers (read84, tried with check() on 848591ba; not held out: tuned to) ------------
ENTRIES += [
    Entry('mask-1', 'read84-tril-top-left', r"""
import numpy as np
def causal_allowed(tq, tk):
    return np.tril(np.ones((tq, tk)))
""", 'mask-1/top-left',
          mistake='np.tril aligns the mask top-left, and np.ones gives floats, not booleans.'),
    Entry('mask-2', 'read84-finite-fill', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    masked = np.where(allowed, scores, -1e9)
    w = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/finite-fill',
          mistake='Fills forbidden scores with -1e9 and has no empty-row check: the one hint (check for empty rows '
                  'and raise) gives full marks, so it is one mistake, not two.'),
]


# ---- held-out answers (issue 34) ----------------------------------------------------
# Written by someone who had not seen grading/diagnoses.py, this corpus or the bug operators, as learners
# would write them, and measured once (the measurement is final; the diagnoses were not tuned to them).
# ``mistake`` is the writer's description; the diagnosis is given where the catalogue names that mistake,
# None where it names none (or where it was unsure); ``named_wrongly``: it names another mistake.
ENTRIES += [
    Entry('mask-1', 'heldout-000', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    return key_position < query_position
""", 'mask-1/strict',
          mistake='Uses < instead of <=, so a query may not read its own position and the first row has nothing to read.', heldout=True),
    Entry('mask-1', 'heldout-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    # нижнетреугольная матрица: запрос i видит ключи 0..i
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='Aligns the queries top-left (np.tril without offset): correct only when tq == tk, wrong once earlier positions sit in a cache (tq < tk).', heldout=True),
    Entry('mask-1', 'heldout-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 下三角，按右下角对齐
    return np.tril(np.ones((tq, tk)), k=tk - tq)
""", 'mask-1/numbers',
          mistake='Right pattern with the bottom-right offset, but np.ones gives floats: the mask comes back as float64 0/1 instead of a boolean array.', heldout=True),
    Entry('mask-1', 'heldout-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 按两个长度之差移动对角线
    return np.tril(np.ones((tq, tk), dtype=bool), k=tq - tk)
""", None,
          mistake='The diagonal offset of np.tril has the wrong sign (tq - tk instead of tk - tq): right for square masks, but with tq < tk queries lose keys they may read.', heldout=True),
    Entry('mask-1', 'heldout-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    allowed = (key_position <= query_position).astype(int)
    return allowed
""", 'mask-1/numbers',
          mistake='Returns the comparison cast to int (copied from the print cell): an integer 0/1 array instead of a boolean mask.', heldout=True),
    Entry('mask-1', 'heldout-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 把查询位置换成相对位置再比较
    return key_position <= query_position - (tk - tq)
""", 'mask-1/top-left',
          mistake='Subtracts the offset tk - tq from the query positions again, which turns the bottom-right alignment back into top-left.', heldout=True),
    Entry('mask-2', 'heldout-006', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query with no key to read")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return np.where(allowed, weights, 0.0).astype(scores.dtype)
""", 'mask-2/softmax-before-mask',
          mistake='Takes the softmax over all entries first and zeroes the forbidden ones afterwards, so the rows no longer sum to 1.', heldout=True),
    Entry('mask-2', 'heldout-007', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if np.any(~allowed.any(axis=-1)):
        raise ValueError("строка без разрешённых ключей")
    e = np.where(allowed, np.exp(scores), 0.0).astype(scores.dtype)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Does not subtract the row maximum before exp, so large scores such as 1000 overflow to inf and the weights become nan.', heldout=True),
    Entry('mask-2', 'heldout-008', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not np.all(np.any(allowed, axis=-1)):
        raise ValueError("某一行没有可读的键")
    # 先减去每行最大值，防止溢出
    shifted = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(shifted) * allowed
    return e / np.sum(e, axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the maximum over all entries, forbidden ones included: when a forbidden score is much larger than the allowed ones every allowed exp underflows to 0 and the row is 0/0.', heldout=True),
    Entry('mask-2', 'heldout-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    out = np.zeros(scores.shape)
    for idx in np.ndindex(scores.shape[:-1]):
        row, ok = scores[idx], allowed[idx]
        if not ok.any():
            raise ValueError("row without any allowed key")
        top = row[ok].max()
        e = np.exp(row[ok] - top)
        out[idx][ok] = e / e.sum()
    return out
""", '*/dtype-promoted',
          mistake='Fills a np.zeros(shape) buffer row by row: the values are right but a float32 input comes back as float64.', heldout=True),
    Entry('mask-2', 'heldout-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if (~allowed).all(axis=-1).any():
        raise ValueError("нет ни одного разрешённого ключа")
    scores[~allowed] = -np.inf
    scores -= scores.max(axis=-1, keepdims=True)
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights
""", '*/argument-changed',
          mistake="Writes -inf into the caller's scores array and shifts it in place (np.asarray does not copy), so the input is destroyed.", heldout=True),
    Entry('mask-2', 'heldout-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("有一行全被屏蔽")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1)
""", 'mask-2/no-keepdims',
          mistake='Divides by the row sums without keepdims=True, so the sums broadcast along the wrong axis (wrong numbers for square inputs, an error otherwise).', heldout=True),
    Entry('mask-2', 'heldout-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any():
        raise ValueError("nothing is allowed")
    masked = np.where(allowed, scores, -np.inf)
    m = masked.max(axis=-1, keepdims=True)
    e = np.exp(masked - m)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/empty-row-unchecked',
          mistake='The empty-row check tests the whole mask (allowed.any()) instead of every row, so a single row with nothing allowed returns nan instead of raising ValueError.', heldout=True),
    Entry('mask-2', 'heldout-013', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    masked = np.where(allowed, scores, -1e9)
    masked = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(masked)
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/finite-fill',
          mistake='Masks with a large negative number (-1e9) and has no empty-row check: a row without any allowed key silently becomes uniform weights instead of a ValueError.', heldout=True),
    Entry('mask-3', 'heldout-014', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    finite = np.isfinite(weights).all()
    masked_ok = np.all(weights[~allowed] == 0)
    non_negative = np.all(weights >= 0)
    sums_ok = np.allclose(weights.sum(axis=-1), 1.0, atol=atol)
    return bool(finite and masked_ok and non_negative and sums_ok)
""", 'mask-3/allclose',
          mistake='Checks the row sums with np.allclose, whose default rtol=1e-5 loosens the tolerance far beyond atol.', heldout=True),
    Entry('mask-3', 'heldout-015', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.all(np.isfinite(weights)):
        return False
    if np.any(weights[~allowed] != 0):
        return False
    if np.any(weights < 0):
        return False
    # суммы строк должны быть равны 1 с точностью atol
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) < atol))
""", 'mask-3/strict-tolerance',
          mistake='Uses a strict < atol for the row sums instead of <=: with atol=0 even exact weights are rejected.', heldout=True),
    Entry('mask-3', 'heldout-016', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # 被屏蔽的位置应为 0（允许一点浮点误差）
    if np.any(np.abs(weights[~allowed]) > atol):
        return False
    if np.any(weights < 0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) <= atol))
""", 'mask-3/forbidden-within-atol',
          mistake='Applies the tolerance to the forbidden entries too, which must be exactly 0: a forbidden weight of 1e-12 is accepted.', heldout=True),
    Entry('mask-3', 'heldout-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any():
        return False
    # softmax никогда не даёт точный ноль разрешённому ключу
    if (weights[allowed] <= 0).any():
        return False
    return bool((np.abs(weights.sum(-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Adds a fifth condition, that every allowed entry be strictly positive, so valid weights with a zero on an allowed key are rejected.', heldout=True),
    Entry('mask-3', 'heldout-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    ok = np.isfinite(weights).all()
    ok = ok and not np.any(np.where(allowed, 0.0, weights))
    ok = ok and np.all(np.isclose(weights.sum(axis=-1), 1.0, rtol=0.0, atol=atol))
    return bool(ok)
""", 'mask-3/no-negative-check',
          mistake='Forgets the non-negativity condition: a row such as [1.5, -0.5] sums to 1 and is accepted.', heldout=True),
    Entry('mask-3', 'heldout-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (weights[~allowed] != 0).any():
        return False
    row_sums = weights.sum(axis=0)
    return bool(np.all(np.abs(row_sums - 1) <= atol))
""", 'mask-3/wrong-axis',
          mistake='Sums over axis 0 (the queries) instead of the last axis, so it tests column sums rather than row sums.', heldout=True),
    Entry('mask-3', 'heldout-020', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    assert np.isfinite(weights).all(), "weights contain nan or inf"
    assert np.all(weights[~allowed] == 0), "a forbidden key has weight"
    assert np.all(weights >= 0), "negative weight"
    assert np.all(np.abs(weights.sum(axis=-1) - 1) <= atol), "rows must sum to 1"
    return True
""", None,
          mistake='Uses assert statements, so invalid weights raise AssertionError instead of returning False.', heldout=True),
    Entry('mask-3', 'heldout-021', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    # средняя сумма строки должна быть 1
    return bool(abs(weights.sum(axis=-1).mean() - 1) <= atol)
""", None,
          mistake='Checks only that the average row sum is 1, so rows summing to 0.5 and 1.5 pass together.', heldout=True),
    Entry('mask-3', 'heldout-022', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.all(np.isfinite(weights)):
        return False
    forbidden = weights[~allowed]
    if forbidden.size and np.all(forbidden != 0):
        return False
    if np.any(weights < 0):
        return False
    return bool(np.all(np.abs(np.sum(weights, axis=-1) - 1) <= atol))
""", 'mask-3/one-forbidden-weight',
          mistake='Rejects only when all forbidden entries are nonzero (all instead of any), so a single leaked forbidden weight goes unnoticed.', heldout=True),
    Entry('data-1', 'heldout-023', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or any(len(t) == 0 for t in texts):
        raise ValueError("need a non-empty batch of non-empty texts")
    T = max(len(t) for t in texts) + 1
    inputs, targets = [], []
    for text in texts:
        ids = encode(text, vocab)
        pad = T - len(ids)
        inputs.append([BOS] + ids + [EOS] * (pad - 1))
        targets.append(ids + [IGNORE] * pad)
    return np.array(inputs, dtype=np.int64), np.array(targets, dtype=np.int64)
""", 'data-1/no-eos-target',
          mistake='Does not score the EOS after the text: the target after the last character is -100 instead of EOS.', heldout=True),
    Entry('data-1', 'heldout-024', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if len(texts) == 0:
        raise ValueError("пустой батч")
    if min(len(t) for t in texts) == 0:
        raise ValueError("пустой текст")
    B, T = len(texts), 1 + max(len(t) for t in texts)
    inputs = np.full((B, T), EOS, dtype=np.int64)
    targets = np.full((B, T), EOS, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:1 + len(ids)] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/pad-targets-eos',
          mistake='Pads the targets with EOS instead of IGNORE, so every padded position of a shorter text is scored.', heldout=True),
    Entry('data-1', 'heldout-025', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("批次为空")
    for t in texts:
        if not t:
            raise ValueError("文本不能为空")
    T = max(map(len, texts)) + 1
    inputs = np.zeros((len(texts), T), dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        n = len(ids)
        inputs[b, 0] = BOS
        inputs[b, 1:n + 1] = ids
        targets[b, :n] = ids
        targets[b, n] = EOS
    return inputs, targets
""", 'data-1/pad-inputs-zero',
          mistake='Starts the inputs from np.zeros, so shorter texts are padded with 0 (<unk>) instead of EOS.', heldout=True),
    Entry('data-1', 'heldout-026', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int32)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int32)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, :len(ids) + 1] = [BOS] + ids
        targets[b, :len(ids) + 1] = ids + [EOS]
    return inputs, targets
""", 'data-1/int32',
          mistake='Builds the arrays as int32 to save memory; the task asks for int64.', heldout=True),
    Entry('data-1', 'heldout-027', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("батч пуст")
    encoded = [encode(t, vocab) for t in texts]
    T = 1 + max(len(ids) for ids in encoded)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, ids in enumerate(encoded):
        inputs[b, 0] = BOS
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids) + 1] = ids + [EOS]
    return inputs, targets
""", 'data-1/empty-accepted',
          mistake='Checks only for an empty batch; an empty text is accepted and becomes a row whose only target is EOS.', heldout=True),
    Entry('data-1', 'heldout-028', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or any(t == "" for t in texts):
        raise ValueError("空批次或空文本")
    T = 1 + max(len(t) for t in texts)
    B = len(texts)
    inputs = np.full((B, T), EOS, dtype=np.int64)
    targets = np.full((B, T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        start = T - 1 - len(ids)          # 右对齐，填充放在前面
        inputs[b, start] = BOS
        inputs[b, start + 1:] = ids
        targets[b, start:T - 1] = ids
        targets[b, T - 1] = EOS
    return inputs, targets
""", 'data-1/left-padding',
          mistake='Pads on the left (text pushed to the end of the row) instead of on the right as the protocol requires.', heldout=True),
    Entry('data-1', 'heldout-029', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("empty batch")
    if any(len(t) == 0 for t in texts):
        raise ValueError("empty text")
    # room for BOS and for EOS
    T = max(len(t) for t in texts) + 2
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/one-column-too-many',
          mistake='Makes T two longer than the longest text (room for both BOS and EOS), one column too many.', heldout=True),
]


# ---- the second held-out set (issue 34, measured once on 2026-12-05) ------------------------------
# Written by someone who had not seen the grader, measured once, added verbatim (with the notebook's imports
# the code uses) and not tuned to.  The diagnosis is the one check() gave where it was judged right, None
# where it gave none; ``named_wrongly``: it named another mistake.  The answers that passed check() or the
# grader were holes in the tests, closed after the measurement (see the docstring of tests/mistakes).
ENTRIES += [
    Entry('mask-1', 'heldout3-000', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # a query can only look at keys strictly before it
    return key_position < query_position
""", 'mask-1/strict',
          mistake='Uses a strict comparison, so no query may read its own position and the first row is empty.', heldout=True),
    Entry('mask-1', 'heldout3-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 下三角就是因果掩码
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='Ignores the given positions and builds a top-left aligned triangle, which is wrong whenever tq < tk.', heldout=True),
    Entry('mask-1', 'heldout3-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # учитываем сдвиг: запросы идут после закэшированных позиций
    shift = tk - tq
    return key_position <= query_position - shift
""", 'mask-1/top-left',
          mistake='Subtracts the offset tk - tq from the given query positions, which undoes the bottom-right alignment: with a cache the queries lose history (top-left alignment).', heldout=True),
    Entry('mask-1', 'heldout3-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    allowed = (key_position <= query_position).astype(int)  # 1 = may read
    return allowed
""", 'mask-1/numbers',
          mistake='Returns the comparison cast to int (0/1) instead of a boolean array.', heldout=True),
    Entry('mask-1', 'heldout3-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 和 torch 一样：上三角（对角线右边一格开始）要被遮住
    return np.triu(np.ones((tq, tk), dtype=bool), k=tk - tq + 1)
""", 'mask-1/inverted',
          mistake='Builds the PyTorch-style upper triangle (the future keys, True = masked out) instead of the allowed set, so the meaning of True is inverted.', heldout=True),
    Entry('mask-1', 'heldout3-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # нижний угол справа: сдвигаем диагональ на число старых позиций
    return np.tril(np.ones((tq, tk), dtype=bool), k=tk - tq - 1)
""", 'mask-1/strict',
          mistake='Right idea with np.tril and the offset, but the diagonal offset is one too small, so every query loses its own key.', heldout=True),
    Entry('mask-2', 'heldout3-006', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    e = np.where(allowed, np.exp(scores), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Does not subtract the row maximum, so scores around 1000 overflow exp and the weights become nan.', heldout=True),
    Entry('mask-2', 'heldout3-007', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not np.all(np.any(allowed, axis=-1)):
        raise ValueError("有一行没有任何可读的键")
    # 先减去每行最大值，防止溢出
    shifted = scores - scores.max(axis=-1, keepdims=True)
    w = np.exp(shifted) * allowed
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the maximum over all entries, forbidden ones included, so a large forbidden score makes every allowed exp underflow and the row becomes 0/0 = nan.', heldout=True),
    Entry('mask-2', 'heldout3-008', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    # запрещённым позициям даём очень маленькую оценку
    masked = np.where(allowed, scores, -1e9)
    masked = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(masked)
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/finite-fill',
          mistake='Uses -1e9 instead of -inf and never checks for empty rows, so a row without allowed keys silently becomes uniform instead of raising.', heldout=True),
    Entry('mask-2', 'heldout3-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed key")
    s = scores * allowed          # kill the future scores
    s = s - s.max(axis=-1, keepdims=True)
    w = np.exp(s)
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/zero-fill',
          mistake='Sets forbidden scores to 0 instead of excluding them, so forbidden keys still get weight exp(0)/sum.', heldout=True),
    Entry('mask-2', 'heldout3-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    out = np.zeros(scores.shape)
    # идём по всем строкам (любое число ведущих осей)
    for idx in np.ndindex(scores.shape[:-1]):
        row, ok = scores[idx], allowed[idx]
        if not ok.any():
            raise ValueError(f"строка {idx}: нет ни одного разрешённого ключа")
        m = row[ok].max()
        e = np.exp(row[ok] - m)
        out[idx][ok] = e / e.sum()
    return out
""", '*/dtype-promoted',
          mistake='Correct values computed row by row, but the output array is float64 whatever the input dtype, so float32 scores come back as float64.', heldout=True),
    Entry('mask-2', 'heldout3-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any():
        raise ValueError("allowed 全是 False")
    masked = np.where(allowed, scores, -np.inf)
    masked = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(masked)
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/empty-row-unchecked',
          mistake='Checks only whether the whole mask has some True entry, so a single empty row gives nan instead of ValueError.', heldout=True),
    Entry('mask-2', 'heldout3-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row in allowed")
    masked = np.where(allowed, scores, -np.inf)
    w = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return w / np.sum(w, axis=0, keepdims=True)
""", 'mask-2/wrong-axis',
          mistake='Normalises over axis 0 (the query axis) instead of the last axis, so columns rather than rows sum to 1.', heldout=True),
    Entry('mask-3', 'heldout3-013', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((weights.sum(axis=-1) == 1).all())
""", 'mask-3/exact-sum',
          mistake='Compares the row sums with == 1 and ignores atol, so correct weights whose sums round to 0.9999999999999999 are rejected.', heldout=True),
    Entry('mask-3', 'heldout3-014', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # 1. 全部有限  2. 禁止的位置为 0  3. 每行和为 1
    finite = np.isfinite(weights).all()
    masked_ok = np.all(weights[~allowed] == 0)
    sums_ok = np.all(np.abs(weights.sum(axis=-1) - 1) <= atol)
    return bool(finite and masked_ok and sums_ok)
""", 'mask-3/no-negative-check',
          mistake='Forgets the no-negative-entries condition, so a row such as [1.5, -0.5, 0] passes.', heldout=True),
    Entry('mask-3', 'heldout3-015', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.all(np.isfinite(weights)):
        return False
    if np.any(weights < 0):
        return False
    # запрещённые веса должны быть нулевыми (с учётом округления)
    if np.any(np.abs(weights[~allowed]) > atol):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) <= atol))
""", 'mask-3/forbidden-within-atol',
          mistake='Compares forbidden entries with the tolerance instead of exactly, so a forbidden weight of 1e-12 is accepted.', heldout=True),
    Entry('mask-3', 'heldout3-016', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    checks = [
        np.isfinite(weights).all(),
        (weights[~allowed] == 0).all(),
        (weights >= 0).all(),
        np.allclose(weights.sum(axis=-1), 1.0, atol=atol),
    ]
    return bool(all(checks))
""", 'mask-3/allclose',
          mistake='Uses np.allclose for the row sums, whose default rtol=1e-5 lets sums that are off by far more than atol pass.', heldout=True),
    Entry('mask-3', 'heldout3-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    # 对角线以上（未来）必须全是 0
    if np.any(np.triu(weights, k=1) != 0):
        return False
    return bool(np.all(np.abs(weights.sum(-1) - 1) <= atol))
""", 'mask-3/own-mask',
          mistake='Checks the upper triangle above the diagonal instead of the forbidden entries of allowed, so valid bottom-right (tq < tk) weights are rejected.', heldout=True),
    Entry('mask-3', 'heldout3-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights < 0).any() or (weights[~allowed] != 0).any():
        return False
    # сумма каждой строки равна 1 с точностью atol
    return bool((np.abs(weights.sum(axis=-1) - 1) < atol).all())
""", 'mask-3/strict-tolerance',
          mistake='Uses a strict < atol for the row sums, so with atol=0 exactly normalised weights are rejected.', heldout=True),
    Entry('mask-3', 'heldout3-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return np.abs(weights.sum(axis=-1) - 1) <= atol
""", '*/other-kind-of-result',
          mistake='Forgets .all() on the row-sum test and returns a per-row boolean array instead of a single bool.', heldout=True),
    Entry('data-1', 'heldout3-020', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = max(len(t) for t in texts) + 1
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 0] = BOS
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids      # the rest is padding, not scored
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Treats the EOS after the text as padding: the targets never contain EOS, so the model never learns to stop.', heldout=True),
    Entry('data-1', 'heldout3-021', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if len(texts) == 0:
        raise ValueError("空的 batch")
    if any(len(t) == 0 for t in texts):
        raise ValueError("不能有空文本")
    T = 1 + max(map(len, texts))
    B = len(texts)
    inputs = np.zeros((B, T), dtype=np.int64)      # 用 0 填充
    targets = np.full((B, T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 0] = BOS
        inputs[b, 1:1 + len(ids)] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/pad-inputs-zero',
          mistake='Pads the inputs with 0 (the <unk> id) instead of EOS.', heldout=True),
    Entry('data-1', 'heldout3-022', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("пустой текст")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int32)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int32)
    inputs[:, 0] = BOS
    for b, t in enumerate(texts):
        ids = encode(t, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS   # конец текста тоже учится
    return inputs, targets
""", 'data-1/int32',
          mistake='Builds the arrays as int32 instead of int64.', heldout=True),
    Entry('data-1', 'heldout3-023', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: empty batch")
    encoded = [encode(t, vocab) for t in texts]
    T = 1 + max(len(ids) for ids in encoded)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, ids in enumerate(encoded):
        row = [BOS] + list(ids)
        inputs[b, :len(row)] = row
        targets[b, :len(ids) + 1] = list(ids) + [EOS]
    return inputs, targets
""", 'data-1/empty-accepted',
          mistake='Raises only for an empty batch; an empty text is accepted and becomes a row with a single scored EOS.', heldout=True),
    Entry('data-1', 'heldout3-024', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("batch 为空或有空文本")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = list(encode(text, vocab))
        start = T - 1 - len(ids)           # 填充放在前面，文本靠右对齐
        inputs[b, start:] = [BOS] + ids
        targets[b, start:] = ids + [EOS]
    return inputs, targets
""", 'data-1/left-padding',
          mistake='Pads on the left instead of on the right, so shorter texts start after the padding.', heldout=True),
    Entry('data-1', 'heldout3-025', r"""
import numpy as np
from lib.data import BOS, EOS, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or min(len(t) for t in texts) == 0:
        raise ValueError("нужен непустой батч непустых текстов")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    # после текста идёт EOS, дальше тоже EOS
    targets = np.full((len(texts), T), EOS, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/pad-targets-eos',
          mistake='Fills the padded targets with EOS instead of -100, so padding positions are scored as if the text ended again and again.', heldout=True),
]


# ---- the fourth held-out set (issue 34, measured once on 2026-12-05, round 6) ----------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge said it
# was right, None where it gave none; ``named_wrongly``: the judge said it names another mistake.  The three
# answers that passed check() and the grader were holes in the tests, closed after the measurement.
ENTRIES += [
    Entry('mask-1', 'heldout4-000', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # strictly earlier keys only
    return key_position < query_position
""", 'mask-1/strict',
          mistake='Uses < instead of <=, so a query may not read its own key and row 0 of a square mask is empty.', heldout=True),
    Entry('mask-1', 'heldout4-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 下三角就是因果掩码
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='Builds a top-left aligned triangle with np.tril, which is only right when tq == tk; with fewer queries than keys it loses history.', heldout=True),
    Entry('mask-1', 'heldout4-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # запрос i видит ключ j, если i <= j
    return query_position <= key_position
""", 'mask-1/reversed',
          mistake='Compares the positions the wrong way round, producing the upper triangle: every query reads its future and not its past.', heldout=True),
    Entry('mask-1', 'heldout4-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    # 1 = may read, 0 = masked
    return (key_position <= query_position).astype(int)
""", 'mask-1/numbers',
          mistake='Returns the mask as 0/1 integers instead of a boolean array.', heldout=True),
    Entry('mask-1', 'heldout4-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 右下对齐：把对角线往右移
    offset = tk - tq - 1
    return np.tril(np.ones((tq, tk), dtype=bool), k=offset)
""", 'mask-1/strict',
          mistake='Shifts the triangle by tk - tq - 1 instead of tk - tq, so every query with tq < tk loses its own key (and a square mask is strictly lower).', heldout=True),
    Entry('mask-1', 'heldout4-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    # текущий токен и следующий
    return key_position <= query_position + 1
""", 'mask-1/one-ahead',
          mistake='Off by one in the other direction: lets every query also read the key right after it, i.e. its own target.', heldout=True),
    Entry('mask-2', 'heldout4-006', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    # hide the future
    masked = np.where(allowed, scores, 0.0)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/zero-fill',
          mistake='Sets forbidden scores to 0 instead of excluding them, so exp(0) = 1 still gives the future weight.', heldout=True),
    Entry('mask-2', 'heldout4-007', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有可读的键")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    # softmax 之后再把未来清零
    return np.where(allowed, weights, 0.0)
""", 'mask-2/softmax-before-mask',
          mistake='Takes an ordinary softmax over all keys and only then zeroes the forbidden weights, so rows no longer sum to 1.', heldout=True),
    Entry('mask-2', 'heldout4-008', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("в строке нет разрешённых ключей")
    # exp только там, где можно читать
    e = np.where(allowed, np.exp(scores), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Does not subtract the row maximum, so scores around 1000 overflow exp to inf and the weights become nan.', heldout=True),
    Entry('mask-2', 'heldout4-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    # big negative number instead of -inf (avoids nan)
    masked = np.where(allowed, scores, -1e9)
    shifted = masked - masked.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)
""", 'mask-2/finite-fill',
          mistake='Uses -1e9 instead of -inf and has no empty-row check, so a row with no allowed key silently becomes uniform instead of raising.', heldout=True),
    Entry('mask-2', 'heldout4-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not np.all(np.any(allowed, axis=-1)):
        raise ValueError("空行")
    # 先减去每行最大值，防止溢出
    shifted = scores - np.max(scores, axis=-1, keepdims=True)
    e = np.exp(shifted) * allowed
    return e / np.sum(e, axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the maximum over all scores, forbidden ones included; a huge forbidden score makes every allowed exp underflow to 0 and the row 0/0 = nan.', heldout=True),
    Entry('mask-2', 'heldout4-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if (~allowed).all(axis=-1).any():
        raise ValueError("пустая строка: запросу нечего читать")
    masked = np.full(scores.shape, -np.inf)
    masked[allowed] = scores[allowed]
    masked = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(masked)
    return w / w.sum(axis=-1, keepdims=True)
""", '*/dtype-promoted',
          mistake='Builds the masked array with np.full(..., -np.inf), which is float64, so float32 scores come back as float64.', heldout=True),
    Entry('mask-2', 'heldout4-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any():
        raise ValueError("nothing is allowed")
    masked = np.where(allowed, scores, -np.inf)
    weights = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/empty-row-unchecked',
          mistake='Checks for an empty mask with allowed.any() over the whole array instead of per row, so one empty row slips through as a row of nan.', heldout=True),
    Entry('mask-2', 'heldout4-013', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("空行")
    masked = np.where(allowed, scores, -np.inf)
    # 减去最大值
    m = masked.max(axis=0, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    w = np.exp(masked - m)
    return w / w.sum(axis=-1, keepdims=True)
""", None,
          mistake='Takes the maximum along axis 0 (per column) instead of per row, so the shift differs between entries of one row and the result is not a softmax.', heldout=True),
    Entry('mask-3', 'heldout4-014', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # the future must be exactly zero and nothing negative
    return bool((weights[~allowed] == 0).all() and (weights >= 0).all())
""", 'mask-3/no-row-sum',
          mistake="Only checks that forbidden entries are zero and nothing is negative; it never checks the row sums, so 'softmax first, zeros after' passes.", heldout=True),
    Entry('mask-3', 'heldout4-015', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # 有限、未来为零、每行和为 1
    finite = np.isfinite(weights).all()
    future_zero = np.all(weights[~allowed] == 0)
    rows_ok = np.all(np.abs(weights.sum(axis=-1) - 1) <= atol)
    return bool(finite and future_zero and rows_ok)
""", 'mask-3/no-negative-check',
          mistake='Forgets the non-negativity condition, so a row like [1.5, -0.5, 0] that sums to 1 is accepted.', heldout=True),
    Entry('mask-3', 'heldout4-016', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.all(np.isfinite(weights)) or np.any(weights < 0):
        return False
    # запрещённые веса равны нулю (с точностью до округления)
    if not np.allclose(weights[~allowed], 0.0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1.0) <= atol))
""", 'mask-3/forbidden-within-atol',
          mistake='Compares the forbidden entries to 0 with np.allclose instead of exactly, so a tiny weight such as 1e-300 on a future key is accepted.', heldout=True),
    Entry('mask-3', 'heldout4-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    ok = np.isfinite(weights).all()
    ok = ok and (weights[~allowed] == 0).all()
    ok = ok and (weights >= 0).all()
    ok = ok and np.allclose(weights.sum(axis=-1), 1.0)
    return bool(ok)
""", 'mask-3/allclose',
          mistake="Ignores the atol argument and checks the row sums with np.allclose's default tolerances, so rows off by 5e-9 are accepted.", heldout=True),
    Entry('mask-3', 'heldout4-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if np.any(weights[~allowed] != 0) or np.any(weights < 0):
        return False
    # 每一行的和
    sums = weights.sum(axis=0)
    return bool(np.all(np.abs(sums - 1) <= atol))
""", 'mask-3/wrong-axis',
          mistake="Sums the weights along axis 0 (over queries) instead of over each row's keys, so valid causal weights are rejected.", heldout=True),
    Entry('mask-3', 'heldout4-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # разрешённые > 0, запрещённые == 0
    if not (weights[allowed] > 0).all():
        return False
    if not (weights[~allowed] == 0).all():
        return False
    return bool((np.abs(weights.sum(-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Demands a strictly positive weight on every allowed key, a fifth condition the task rules out: an allowed weight of exactly 0 is valid.', heldout=True),
    Entry('data-1', 'heldout4-020', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 0] = BOS
        inputs[b, 1:len(ids) + 1] = ids
        # padding is not scored
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Treats the EOS after the text as padding: the targets end with IGNORE instead of a scored EOS.', heldout=True),
    Entry('data-1', 'heldout4-021', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if len(texts) == 0 or any(len(t) == 0 for t in texts):
        raise ValueError("空批量或空文本")
    T = max(len(t) for t in texts)          # 批量长度
    B = len(texts)
    inputs = np.full((B, T), EOS, dtype=np.int64)
    targets = np.full((B, T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        row_in = [BOS] + ids
        row_tg = ids + [EOS]
        n = min(len(row_in), T)
        inputs[b, :n] = row_in[:n]
        targets[b, :n] = row_tg[:n]
    return inputs, targets
""", None,
          mistake='Makes T the length of the longest text instead of one more, so the longest text loses its last input token or its EOS target.', heldout=True),
    Entry('data-1', 'heldout4-022', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if min(len(t) for t in texts) == 0:
        raise ValueError("пустой текст")
    T = max(map(len, texts)) + 1
    # int32 хватит для id
    inputs = np.full((len(texts), T), EOS, dtype=np.int32)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int32)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, :len(ids) + 1] = [BOS] + ids
        targets[b, :len(ids) + 1] = ids + [EOS]
    return inputs, targets
""", 'data-1/int32',
          mistake='Stores the batch as int32 instead of the required int64.', heldout=True),
    Entry('data-1', 'heldout4-023', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or "" in texts:
        raise ValueError("need non-empty texts")
    T = 1 + max(len(t) for t in texts)
    inputs = np.zeros((len(texts), T), dtype=np.int64)      # padded
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, :len(ids) + 1] = [BOS, *ids]
        targets[b, :len(ids) + 1] = [*ids, EOS]
    return inputs, targets
""", 'data-1/pad-inputs-zero',
          mistake='Pads the inputs with 0 (<unk>) from np.zeros instead of EOS.', heldout=True),
    Entry('data-1', 'heldout4-024', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("空批量")
    rows = [encode(t, vocab) for t in texts]
    T = 1 + max(len(r) for r in rows)
    inputs = np.full((len(rows), T), EOS, dtype=np.int64)
    targets = np.full((len(rows), T), IGNORE, dtype=np.int64)
    for b, ids in enumerate(rows):
        inputs[b, 0] = BOS
        inputs[b, 1:1 + len(ids)] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/empty-accepted',
          mistake='Does not refuse an empty text: a batch containing "" returns a row with a lone EOS target instead of raising ValueError.', heldout=True),
    Entry('data-1', 'heldout4-025', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("пустой батч или пустой текст")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        pad = T - 1 - len(ids)
        # выравниваем по правому краю, как в генерации
        inputs[b, pad:] = [BOS] + ids
        targets[b, pad:] = ids + [EOS]
    return inputs, targets
""", 'data-1/left-padding',
          mistake='Pads on the left (padding before BOS) instead of on the right.', heldout=True),
]


# ---- the fifth held-out set (issue 34, measured once on 2026-12-06, round 7) ----------------------
# Written by someone who had not seen the grader, measured once on main (dd49176), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('mask-1', 'heldout5-000', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    return key_position < query_position  # strictly the past
""", 'mask-1/strict',
          mistake='Uses a strict `<`, so no query may read its own position and the first row of a square mask is empty.', heldout=True),
    Entry('mask-1', 'heldout5-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 下三角就是因果掩码
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='Builds a top-left aligned lower triangle with np.tril, which is right only when tq == tk: the new queries after stored positions are not placed at tk - tq + i.', heldout=True),
    Entry('mask-1', 'heldout5-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # удобнее печатать нулями и единицами
    return (key_position <= query_position).astype(int)
""", 'mask-1/numbers',
          mistake='Returns the comparison cast to int (0/1) instead of a boolean array.', heldout=True),
    Entry('mask-1', 'heldout5-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    return query_position <= key_position
""", 'mask-1/reversed',
          mistake='Compares the wrong way round (query <= key), giving the upper triangle: each query reads its own position and the future.', heldout=True),
    Entry('mask-1', 'heldout5-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    allowed = np.zeros((tq, tk), dtype=bool)
    for i in range(tq):
        for j in range(tk):
            # маска: закрываем ключи из будущего
            allowed[i, j] = j > tk - tq + i
    return allowed
""", 'mask-1/inverted',
          mistake='Returns the mask of forbidden (future) keys, True where the key comes after the query, instead of the allowed set.', heldout=True),
    Entry('mask-1', 'heldout5-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # shift the diagonal by the number of stored positions
    return np.tril(np.ones((tq, tk)), k=tk - tq)
""", 'mask-1/numbers',
          mistake='Uses np.tril with the right offset but on a float ones matrix, so the result is float64 0.0/1.0, not bool.', heldout=True),
    Entry('mask-1', 'heldout5-006', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 对角线偏移 tq - tk
    return np.tril(np.ones((tq, tk), dtype=bool), k=tq - tk)
""", None,
          mistake='Shifts the diagonal with the wrong sign (k = tq - tk), so with stored positions the queries read fewer keys than allowed.', heldout=True),
    Entry('mask-2', 'heldout5-007', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, 0.0)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/zero-fill',
          mistake='Replaces forbidden scores by 0 instead of -inf, so exp(0) gives forbidden entries weight and they are not 0.', heldout=True),
    Entry('mask-2', 'heldout5-008', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("строка без разрешённых ключей")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = e / e.sum(axis=-1, keepdims=True)
    # обнуляем будущее
    return np.where(allowed, w, 0.0)
""", 'mask-2/softmax-before-mask',
          mistake='Takes the softmax over all entries and zeroes the forbidden ones afterwards, so the rows no longer sum to 1.', heldout=True),
    Entry('mask-2', 'heldout5-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    masked = np.where(allowed, scores, -1e9)  # a very negative number
    masked = masked - masked.max(axis=-1, keepdims=True)
    e = np.exp(masked)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/finite-fill',
          mistake='Fills forbidden entries with -1e9 and never checks for a fully forbidden row, which then comes out uniform instead of raising ValueError.', heldout=True),
    Entry('mask-2', 'heldout5-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有允许的键")
    e = np.where(allowed, np.exp(scores), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Does not subtract the row maximum, so scores around 1000 overflow exp to inf and the result becomes nan.', heldout=True),
    Entry('mask-2', 'heldout5-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed key")
    shifted = scores - scores.max(axis=-1, keepdims=True)   # for stability
    e = np.exp(shifted) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the maximum over all entries, forbidden ones included, so a large forbidden score underflows every allowed exponential to 0 and the row becomes 0/0 = nan.', heldout=True),
    Entry('mask-2', 'heldout5-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores, dtype=float)  # для точности
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("пустая строка маски")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", '*/dtype-promoted',
          mistake='Converts the scores to float64 first, so float32 input comes back as float64.', heldout=True),
    Entry('mask-2', 'heldout5-013', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any():
        raise ValueError("nothing is allowed")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/empty-row-unchecked',
          mistake='Checks for an empty mask with allowed.any() over the whole array, so a single fully forbidden row among allowed ones yields nan instead of ValueError.', heldout=True),
    Entry('mask-3', 'heldout5-014', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if np.any(weights[~allowed] != 0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) <= atol))
""", 'mask-3/no-negative-check',
          mistake='Never tests for negative entries, so a row such as [1.5, -0.5, 0] that sums to 1 is accepted.', heldout=True),
    Entry('mask-3', 'heldout5-015', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    finite = np.isfinite(weights).all()
    zeros = (weights[~allowed] == 0).all()
    nonneg = (weights >= 0).all()
    # суммы строк равны единице
    sums = np.allclose(weights.sum(axis=-1), 1.0)
    return bool(finite and zeros and nonneg and sums)
""", 'mask-3/allclose',
          mistake='Compares the row sums with np.allclose and its default tolerances instead of the given atol, so a row sum off by 1e-7 passes.', heldout=True),
    Entry('mask-3', 'heldout5-016', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.all(np.isfinite(weights)):
        return False
    # 浮点数不能用 == 比较
    if np.any(np.abs(weights[~allowed]) > atol):
        return False
    if np.any(weights < 0):
        return False
    return bool(np.all(np.abs(weights.sum(-1) - 1) <= atol))
""", 'mask-3/forbidden-within-atol',
          mistake='Tests forbidden entries with the tolerance atol instead of exactly 0, so a forbidden weight of 1e-12 is accepted.', heldout=True),
    Entry('mask-3', 'heldout5-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    future = np.triu(weights, k=1)      # above the diagonal must be zero
    if (future != 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/own-mask',
          mistake='Checks the upper triangle of a square causal mask with np.triu instead of the given allowed set, so other masks (all-True, bottom-right aligned) are judged wrongly.', heldout=True),
    Entry('mask-3', 'heldout5-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any():
        return False
    # разрешённые веса softmax всегда положительны
    if (weights[allowed] <= 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Demands strictly positive weights on every allowed key, a fifth condition the task excludes, so a row [1, 0, 0] with key 1 allowed is rejected.', heldout=True),
    Entry('mask-3', 'heldout5-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    ok = np.isfinite(weights).all()
    ok = ok and not (weights[~allowed] != 0).any()
    ok = ok and not (weights < 0).any()
    ok = ok and (np.abs(weights.sum(axis=0) - 1) <= atol).all()
    return bool(ok)
""", 'mask-3/wrong-axis',
          mistake='Sums along axis 0 (over queries) instead of the last axis, so it checks column sums rather than row sums.', heldout=True),
    Entry('mask-3', 'heldout5-020', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    finite = np.isfinite(weights).all(axis=-1)
    zeros = np.where(allowed, True, weights == 0).all(axis=-1)
    nonneg = (weights >= 0).all(axis=-1)
    sums = np.abs(weights.sum(axis=-1) - 1) <= atol
    return finite & zeros & nonneg & sums
""", '*/other-kind-of-result',
          mistake='Returns a per-row boolean array instead of a single bool for the whole weights array.', heldout=True),
    Entry('data-1', 'heldout5-021', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids   # EOS is padding, not a target
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Puts IGNORE instead of EOS after each text in the targets, so the end of a text is never scored.', heldout=True),
    Entry('data-1', 'heldout5-022', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("пустой батч или пустой текст")
    T = max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        row = [BOS] + ids
        inputs[b, :len(ids)] = row[:len(ids)]
        targets[b, :len(ids)] = ids
        if len(ids) < T:
            targets[b, len(ids)] = EOS
    return inputs, targets
""", None,
          mistake='Makes T the length of the longest text instead of one more, and only writes the target EOS when there is room, so the longest text loses its scored EOS.', heldout=True),
    Entry('data-1', 'heldout5-023', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if len(texts) == 0 or any(len(t) == 0 for t in texts):
        raise ValueError("空批次或空文本")
    B, T = len(texts), max(map(len, texts)) + 1
    inputs = np.zeros((B, T), dtype=np.int64)       # 用 0 补齐
    targets = np.full((B, T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, :len(ids) + 1] = [BOS] + ids
        targets[b, :len(ids) + 1] = ids + [EOS]
    return inputs, targets
""", 'data-1/pad-inputs-zero',
          mistake='Pads the inputs with zeros (the <unk> id) instead of EOS.', heldout=True),
    Entry('data-1', 'heldout5-024', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), EOS, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:1 + len(ids)] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/pad-targets-eos',
          mistake='Fills every target after the text with EOS, so padded positions are scored instead of carrying -100.', heldout=True),
    Entry('data-1', 'heldout5-025', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/empty-accepted',
          mistake='Only refuses an empty batch; an empty text is accepted and gives a row with a single scored EOS instead of raising ValueError.', heldout=True),
    Entry('data-1', 'heldout5-026', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or min(len(t) for t in texts) == 0:
        raise ValueError("空批次或空文本")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int32)     # 省内存
    targets = np.full((len(texts), T), IGNORE, dtype=np.int32)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/int32',
          mistake='Creates the arrays as int32 instead of int64.', heldout=True),
    Entry('data-1', 'heldout5-027', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = [vocab.index(ch) for ch in text]
        inputs[b, :len(ids) + 1] = [BOS] + ids
        targets[b, :len(ids) + 1] = ids + [EOS]
    return inputs, targets
""", None,
          mistake='Encodes with vocab.index(ch) instead of encode, so a character outside the vocabulary raises ValueError instead of becoming <unk> (id 0).', heldout=True),
    Entry('data-1', 'heldout5-028', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("пустой батч или пустой текст")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        # цель стоит под своим токеном
        targets[b, 1:len(ids) + 1] = ids
        if len(ids) + 1 < T:
            targets[b, len(ids) + 1] = EOS
    return inputs, targets
""", None,
          mistake='Aligns the targets with the inputs (targets start at position 1, after an IGNORE) instead of shifting them one step ahead.', heldout=True),

    # ---- r8: wrong answers written by round 8 of issue 34 to probe precision (none made by an operator;
    # the diagnosis is the one check() gives where judged right, None where none is) ---------------
    Entry('mask-1', 'r8-000', r"""
import numpy as np
def causal_allowed(tq, tk):
    allowed = np.zeros((tq, tk), dtype=bool)
    for i in range(tq):
        allowed[i, :max(i - (tk - tq) + 1, 0)] = True
    return allowed
""", None,
          mistake='The diagonal is shifted with the wrong sign inside a loop: row i reads keys up to i - (tk - tq).', probe=True),
    Entry('mask-1', 'r8-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    q = np.arange(tk - tq, tk).reshape(-1, 1)
    k = np.arange(1, tk + 1).reshape(1, -1)
    return k <= q
""", 'mask-1/strict',
          mistake='Key positions counted from 1, so each query loses its own key (strict), written with two aranges.', probe=True),
    Entry('mask-1', 'r8-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    return [[j <= i + tk - tq for j in range(tk)] for i in range(tq)]
""", '*/right-values-other-type',
          mistake='Returns nested Python lists of bools instead of an array.', probe=True),
    Entry('mask-1', 'r8-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    if tq == tk:
        return np.tri(tq, tk, dtype=bool)
    return np.tri(tq, tk, k=tq - 1, dtype=bool)
""", None,
          mistake='Right for square masks, but for tq < tk it uses np.tri with the offset of tq - 1 (reads too little).', probe=True),
    Entry('mask-2', 'r8-004', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    e = np.exp(scores - scores.max(axis=-1, keepdims=True)) * allowed
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the maximum over the whole row including forbidden scores; a huge forbidden score underflows every allowed exp to 0 and the row becomes nan.', probe=True),
    Entry('mask-2', 'r8-005', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / (e.sum(axis=-1, keepdims=True) + 1e-6)
""", None,
          mistake='Adds 1e-6 to the denominator as a safety epsilon; rows no longer sum to 1.', probe=True),
    Entry('mask-2', 'r8-006', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores, dtype=float)
    masked = np.where(allowed, scores, -1e9)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", None,
          mistake='Fills with -1e9 and does not refuse an empty row (returns a uniform row there).', probe=True),
    Entry('mask-2', 'r8-007', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.clip(np.asarray(scores), -50, 50)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", None,
          mistake='Clips the scores to [-50, 50] before exp (a habit against overflow): large scores give wrong weights.', probe=True),
    Entry('mask-2', 'r8-008', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores, dtype=float)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", '*/dtype-promoted',
          mistake='Computes in float64 always (np.asarray(scores, dtype=float)): float32 in gives float64 out.', probe=True),
    Entry('mask-3', 'r8-009', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (np.abs(weights[~allowed]) > atol).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/forbidden-within-atol',
          mistake='Lets forbidden weights be up to atol instead of exactly 0.', probe=True),
    Entry('mask-3', 'r8-010', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if weights[~allowed].sum() != 0 or (weights[allowed] < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", None,
          mistake='Checks that the forbidden weights SUM to 0 (a +w and -w cancel), and checks negatives only on allowed entries.', probe=True),
    Entry('mask-3', 'r8-011', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    rows = weights.size // weights.shape[-1]
    return bool(abs(weights.sum() - rows) <= atol)
""", None,
          mistake='Checks the total of all weights against the number of rows instead of each row (a row of 2 and a row of 0 pass).', probe=True),
    Entry('mask-3', 'r8-012', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any() or (weights >= 1).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", None,
          mistake='Requires every weight to be at most 1 - atol... actually rejects a one-hot row (weight exactly 1) by using < 1.', probe=True),
    Entry('data-1', 'r8-013', r"""
import numpy as np
from lib.data import BOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 1 + max(len(t) for t in texts)
    inputs = np.zeros((len(texts), T), dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Pads inputs with 0 instead of EOS (np.zeros) and forgets the EOS target.', probe=True),
    Entry('data-1', 'r8-014', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = sorted(texts, key=len, reverse=True)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 1 + len(texts[0])
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", None,
          mistake='Sorts the texts longest first (for packing), so the rows come back in another order.', probe=True),
    Entry('data-1', 'r8-015', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 2 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/one-column-too-many',
          mistake='One column too many: T = 2 + the longest length.', probe=True),
    Entry('data-1', 'r8-016', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int32)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int32)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/int32',
          mistake='Returns int32 arrays.', probe=True),
    Entry('mask-2', 'r8-088', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True)) + 1e-12
    return e / e.sum(axis=-1, keepdims=True)
""", None,
          mistake="Adds 1e-12 to every exp (a 'no zero division' habit): forbidden weights are tiny, not 0.", probe=True),
    Entry('mask-2', 'r8-089', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    low = np.where(allowed, scores, np.inf).min(axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(scores - low), 0.0)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Subtracts the row minimum of the allowed scores instead of the maximum (overflows on large spreads).', probe=True),
    Entry('mask-3', 'r8-102', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool(np.allclose(weights.sum(axis=-1), 1, atol=atol))
""", 'mask-3/allclose',
          mistake='Uses np.allclose for the row sums (its default rtol 1e-5 loosens atol).', probe=True),
    Entry('mask-3', 'r8-103', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights[..., 0, :].sum(axis=-1) - 1) <= atol).all())
""", None,
          mistake="Checks only the first row's sum (weights[..., 0, :]).", probe=True),
    Entry('mask-3', 'r8-111', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= 1e-6).all())
""", 'mask-3/allclose',
          mistake='Ignores atol: compares the row sums with a fixed 1e-6.', probe=True),
    Entry('mask-2', 'r8-113', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return np.round(e / e.sum(axis=-1, keepdims=True), 4)
""", None,
          mistake='Rounds the weights to 4 decimals.', probe=True),
    Entry('mask-3', 'r8-116', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights[allowed] <= 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Requires every allowed weight to be strictly positive (a fifth condition).', probe=True),
    Entry('mask-3', 'r8-117', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    T = weights.shape[-1]
    future = np.triu(np.ones((weights.shape[-2], T), dtype=bool), k=1)
    if not np.isfinite(weights).all():
        return False
    if (weights[..., future] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/own-mask',
          mistake='Builds its own causal mask with np.triu instead of using allowed.', probe=True),
    # ---- round 9 of issue 34: kinds the development set dev7 showed (r9-*: written here; dev7-NNN: that set's answers) ----
    bug('mask-1', 'r9-key-after-query', 'comparison-reversed', 'mask-1/reversed'),
    Entry('mask-1', 'r9-triu-from-the-diagonal', """
import numpy as np
def causal_allowed(tq, tk):
    return np.triu(np.ones((tq, tk), dtype=bool), k=tk - tq)
""", 'mask-1/reversed'),
    Entry('mask-3', 'r9-sum-over-queries', """
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if np.isnan(weights).any() or (weights < 0).any():
        return False
    if np.any(weights[~allowed] != 0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-2) - 1) <= atol))
""", 'mask-3/wrong-axis'),
    Entry('mask-1', 'dev7-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 查询位置 >= 键位置 ……应该是这样吧
    return query_position <= key_position
""", 'mask-1/reversed',
          mistake='Compares in the wrong direction, so queries read the future instead of the past.'),
    Entry('mask-2', 'dev7-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有允许的键")
    masked = np.where(allowed, scores, -np.inf)
    # 减去最大值防止溢出
    e = np.exp(masked - masked.max())
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-array',
          mistake='Subtracts the maximum over the whole array instead of per row, so a row far below the global max underflows.'),
    Entry('mask-3', 'dev7-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=0) - 1) <= atol).all())
""", 'mask-3/wrong-axis',
          mistake='Sums rows over axis 0 instead of the last axis.'),
    Entry('data-1', 'dev7-027', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("空的批次")
    T = 1 + max(len(t) for t in texts)
    inputs, targets = [], []
    for t in texts:
        ids = list(encode(t, vocab))
        n = len(ids)
        inputs.append([BOS] + ids + [EOS] * (T - 1 - n))
        targets.append(ids + [EOS] + [IGNORE] * (T - 1 - n))
    return np.array(inputs, dtype=np.int32), np.array(targets, dtype=np.int32)
""", ('data-1/int32', 'data-1/empty-accepted'),
          mistake='Returns the default int dtype of np.array on lists, and does not raise on an empty text.'),
]


# ---- the seventh held-out set (issue 34, measured once on 2026-12-06, round 9) --------------------
# Written by someone who had not seen the grader, measured once on main (31fa132), added verbatim (with the
# notebook's imports the code uses) and not tuned to.  The diagnosis is the one check() gave where the judge
# said it was right, None where it gave none; where check() named none but the grader did, the grader's name,
# read here against the writer's description; ``named_wrongly``: the judge said it names another mistake.
ENTRIES += [
    Entry('mask-1', 'heldout7-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # key must come before the query
    return key_position < query_position
""", 'mask-1/strict',
          mistake='Uses a strict comparison, so a query may not read its own position.', heldout=True),
    Entry('mask-1', 'heldout7-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 下三角矩阵就是因果掩码
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='Builds a lower-triangular (tq, tk) mask without the tk - tq offset, so queries after a cache read too few keys.', heldout=True),
    Entry('mask-1', 'heldout7-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # будущие ключи: позиция ключа больше позиции запроса
    return key_position > query_position
""", 'mask-1/inverted',
          mistake='Returns the forbidden (future) set instead of the allowed set.', heldout=True),
    Entry('mask-1', 'heldout7-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    # берём квадратную маску и оставляем последние tq строк
    full = np.tril(np.ones((tk, tk), dtype=bool))
    return full[-tq:]
""", None,
          mistake='Slices the last tq rows of a square mask with [-tq:], which returns all tk rows when tq = 0.', heldout=True),
    Entry('mask-1', 'heldout7-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    key_position = np.arange(tk)[None, :]               # (1, tk)
    query_position = np.arange(tq)[:, None]             # (tq, 1) queries 0..tq-1
    return key_position <= query_position
""", 'mask-1/top-left',
          mistake='Measures query positions from 0 instead of from tk - tq, ignoring the cached keys.', heldout=True),
    Entry('mask-1', 'heldout7-006', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 1 表示可以读取，0 表示不能
    return (key_position <= query_position).astype(int)
""", 'mask-1/numbers',
          mistake='Returns an integer 0/1 array instead of a boolean mask.', heldout=True),
    Entry('mask-1', 'heldout7-007', r"""
import numpy as np
def causal_allowed(tq, tk):
    # lower triangle shifted right by the number of cached keys
    return np.tril(np.ones((tq, tk), dtype=bool), k=tk - tq - 1)
""", 'mask-1/strict',
          mistake='Off-by-one diagonal offset in np.tril (k = tk - tq - 1), so each query misses its own key.', heldout=True),
    Entry('mask-2', 'heldout7-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row with no allowed key")
    weights = np.where(allowed, np.exp(scores), 0.0)
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Does not subtract the row maximum before exp, so large scores overflow to inf and give nan.', heldout=True),
    Entry('mask-2', 'heldout7-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有可读的键")
    # 先做 softmax，再把未来位置置零
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights * allowed
""", 'mask-2/softmax-before-mask',
          mistake='Applies softmax over all keys first and zeroes the forbidden weights afterwards without renormalising.', heldout=True),
    Entry('mask-2', 'heldout7-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("в строке нет разрешённых ключей")
    masked = scores * allowed          # запрещённые -> 0
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/zero-fill',
          mistake='Masks by multiplying the scores by allowed, so forbidden scores become 0 instead of -inf and still get weight.', heldout=True),
    Entry('mask-2', 'heldout7-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row of allowed has no True entry")
    # stabilise first, then mask
    shifted = scores - scores.max(axis=-1, keepdims=True)
    weights = np.where(allowed, np.exp(shifted), 0.0)
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the maximum over all scores including forbidden ones, so a large forbidden score makes every allowed exp underflow to 0 and the row becomes nan.', heldout=True),
    Entry('mask-2', 'heldout7-013', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    # запрещённые позиции -> -inf, потом обычный устойчивый softmax
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/empty-row-unchecked',
          mistake='Does not raise for a row with no allowed key; it silently returns nan for that row.', heldout=True),
    Entry('mask-2', 'heldout7-014', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("有一行全被屏蔽")
    masked = np.where(allowed, scores, -np.inf)
    e = np.exp(masked - masked.max(axis=-1, keepdims=True))
    # 按行归一化
    return e / e.sum(axis=-1)
""", 'mask-2/no-keepdims',
          mistake='Divides by the row sums without keepdims, so the sums broadcast along the wrong axis.', heldout=True),
    Entry('mask-2', 'heldout7-015', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    out = np.zeros(scores.shape)
    for idx in np.ndindex(scores.shape[:-1]):
        row, ok = scores[idx], allowed[idx]
        if not ok.any():
            raise ValueError("строка без разрешённых ключей")
        m = row[ok].max()
        e = np.exp(row[ok] - m)
        out[idx][ok] = e / e.sum()
    return out
""", '*/dtype-promoted',
          mistake='Loops over rows into a float64 buffer, so float32 scores come back as float64.', heldout=True),
    Entry('mask-3', 'heldout7-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights < 0).any() or (weights[~allowed] != 0).any():
        return False
    return bool(np.allclose(weights.sum(axis=-1), 1.0))
""", 'mask-3/allclose',
          mistake='Uses np.allclose for the row sums, whose default relative tolerance accepts sums off by 1e-6 and ignores atol.', heldout=True),
    Entry('mask-3', 'heldout7-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # 未来位置的权重之和必须为 0
    future = np.where(allowed, 0.0, weights).sum(axis=-1)
    if (future != 0).any():
        return False
    if (np.where(allowed, weights, 0.0) < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", None,
          mistake='Checks that the forbidden weights sum to zero per row instead of each being zero, so +0.25 and -0.25 cancel.', heldout=True),
    Entry('mask-3', 'heldout7-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # 1) всё конечно, 2) будущее = 0, 3) суммы строк = 1
    if not np.isfinite(weights).all():
        return False
    if np.any(weights[~allowed] != 0):
        return False
    return bool(np.all(np.abs(weights.sum(axis=-1) - 1) <= atol))
""", 'mask-3/no-negative-check',
          mistake='Forgets to reject negative weights.', heldout=True),
    Entry('mask-3', 'heldout7-020', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if np.isnan(weights).any() or np.isinf(weights).any():
        return False
    if (weights < 0).any():
        return False
    # forbidden entries should be (numerically) zero
    if (np.abs(weights[~allowed]) > atol).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/forbidden-within-atol',
          mistake='Treats forbidden weights smaller than atol as zero, accepting a 1e-12 weight on a future key.', heldout=True),
    Entry('mask-3', 'heldout7-021', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    # в среднем строки должны суммироваться в 1
    return bool(abs(weights.sum(axis=-1).mean() - 1) <= atol)
""", None,
          mistake='Checks that the mean of the row sums is 1 instead of every row sum.', heldout=True),
    Entry('mask-3', 'heldout7-022', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # softmax never gives exactly 0 on an allowed key
    if (weights[allowed] <= 0).any():
        return False
    if (weights[~allowed] != 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Requires every allowed weight to be strictly positive, rejecting a valid row with an exact 0 on an allowed key.', heldout=True),
    Entry('mask-3', 'heldout7-023', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or weights.min() < 0:
        return False
    forbidden = weights[~allowed]
    # 未来位置的最大值和最小值都应为 0
    if forbidden.max() != 0 or forbidden.min() != 0:
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", None,
          mistake='Uses max/min over the forbidden entries, which raises when no entry is forbidden.', heldout=True),
    Entry('data-1', 'heldout7-025', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("empty batch")
    if not all(texts):
        raise ValueError("empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.zeros((len(texts), T), dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/pad-inputs-zero',
          mistake='Pads the inputs with 0 instead of EOS.', heldout=True),
    Entry('data-1', 'heldout7-026', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if len(texts) == 0:
        raise ValueError("批次为空")
    if not all(texts):
        raise ValueError("每个文本至少要有一个字符")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 0] = BOS
        inputs[b, 1:1 + len(ids)] = ids
        # 目标 = 输入左移一位
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Never puts EOS into the targets, so the end of each text is not a scored target.', heldout=True),
    Entry('data-1', 'heldout7-027', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("пустой текст")
    # BOS + текст + EOS
    T = max(len(t) for t in texts) + 2
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/one-column-too-many',
          mistake='Makes the rows one position too long (T = len + 2), adding an extra padding column.', heldout=True),
    Entry('data-1', 'heldout7-028', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("пустой текст")
    T = 1 + max(map(len, texts))
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), EOS, dtype=np.int64)   # хвост = EOS
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/pad-targets-eos',
          mistake='Fills the padding targets with EOS instead of IGNORE, so padding is scored.', heldout=True),
    Entry('data-1', 'heldout7-029', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    T = 1 + max((len(t) for t in texts), default=0)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", '*/not-refused',
          mistake='Does not reject an empty text (or an empty batch); an empty string yields a row with only BOS.', heldout=True),
    Entry('data-1', 'heldout7-030', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("批次为空或有空文本")
    B, T = len(texts), 1 + max(len(t) for t in texts)
    inputs = np.full((B, T), EOS, dtype=np.int32)
    targets = np.full((B, T), IGNORE, dtype=np.int32)
    inputs[:, 0] = BOS
    for b in range(B):
        ids = encode(texts[b], vocab)
        n = len(ids)
        inputs[b, 1:n + 1] = ids
        targets[b, :n] = ids
        targets[b, n] = EOS
    return inputs, targets
""", 'data-1/int32',
          mistake='Builds the arrays as int32 instead of int64.', heldout=True),
    Entry('data-1', 'heldout7-031', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, build_vocab, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("empty batch")
    if not all(texts):
        raise ValueError("empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        row = [BOS] + list(encode(text, vocab))
        inputs[b, :len(row)] = row
        targets[b, :len(row)] = row      # predict the sequence
    return inputs, targets
""", None,
          mistake='Does not shift the targets: they repeat the inputs (starting with BOS) instead of the next token.', heldout=True),
]

# ---- the development set dev8 (issue 34, round 10) -------------------------------------------------------------
# Written blind (not held out: read and tuned to), added verbatim with the notebook's imports the code uses, and the
# solved notebook's answers above those that call them.  The diagnosis is the one check() gives, where it names the
# mistake the code makes; None where it names none.
ENTRIES += [
    Entry('mask-1', 'dev8-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    return key_position < query_position               # (tq, tk)
""", 'mask-1/strict',
          mistake='Uses a strict < so a query may not read its own key (the diagonal is forbidden).'),
    Entry('mask-1', 'dev8-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 查询位置从 0 开始
    query_position = np.arange(tq)[:, None]
    key_position = np.arange(tk)[None, :]
    return key_position <= query_position
""", 'mask-1/top-left',
          mistake='Numbers the queries 0..tq-1 instead of tk-tq..tk-1, ignoring the cached keys before them.'),
    Entry('mask-1', 'dev8-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    # берём нижний треугольник полной матрицы и последние tq строк
    full = np.tril(np.ones((tk, tk), dtype=bool))
    return full[-tq:]
""", None,
          mistake='Slices the last tq rows with [-tq:], which for tq=0 returns all tk rows instead of an empty (0, tk) array.'),
    Entry('mask-1', 'dev8-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    # ключ разрешён, если он не раньше запроса
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    return key_position >= query_position
""", 'mask-1/reversed',
          mistake='Flips the comparison: each query is allowed its own key and the future ones, not the past.'),
    Entry('mask-1', 'dev8-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 下三角：允许读取的位置为 1
    allowed = np.tril(np.ones((tq, tk)), k=tk - tq)
    return allowed
""", 'mask-1/numbers',
          mistake='Returns a float array of 0/1 instead of a boolean array.'),
    Entry('mask-1', 'dev8-006', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)
    key_position = np.arange(tk)
    # сравниваем позиции ключей и запросов
    return key_position[:, None] <= query_position[None, :]
""", None,
          mistake='Puts keys on the rows and queries on the columns, returning a (tk, tq) transposed array.'),
    Entry('mask-1', 'dev8-007', r"""
import numpy as np
def causal_allowed(tq, tk):
    allowed = np.zeros((tq, tk), dtype=bool)
    for i in range(tq):
        allowed[i, : tk - tq + i] = True
    return allowed
""", 'mask-1/strict',
          mistake='Off by one in the loop: row i allows keys up to tk-tq+i-1, so the query cannot read its own position.'),
    Entry('mask-2', 'dev8-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed key")
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = np.where(allowed, weights, 0.0)
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Subtracts the row maximum over all scores, including forbidden ones, so a huge forbidden score underflows every allowed weight to 0 and the row becomes nan.'),
    Entry('mask-2', 'dev8-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有允许的键")
    masked = np.where(allowed, scores, -np.inf)
    # 先做 softmax
    weights = np.exp(masked)
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='No max subtraction: scores around 1000 overflow exp to inf and give nan.'),
    Entry('mask-2', 'dev8-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("строка без разрешённых ключей")
    masked = np.where(allowed, scores, -np.inf)
    # вычитаем общий максимум для устойчивости
    weights = np.exp(masked - masked.max())
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-array',
          mistake='Subtracts the maximum of the whole array rather than of each row, so a row far below another underflows to 0/0.'),
    Entry('mask-2', 'dev8-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    masked = np.where(allowed, scores, -np.inf)
    shifted = masked - masked.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/empty-row-unchecked',
          mistake='Forgets to raise ValueError for a row with no allowed key; such a row silently becomes nan.'),
    Entry('mask-2', 'dev8-013', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有允许的键")
    # 用一个很小的数代替 -inf
    masked = np.where(allowed, scores, -1e9)
    shifted = masked - masked.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return (weights / weights.sum(axis=-1, keepdims=True)).astype(np.float64)
""", '*/dtype-promoted',
          mistake='Casts the result to float64, so float32 scores do not give float32 weights.'),
    Entry('mask-2', 'dev8-014', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("строка без разрешённых ключей")
    masked = np.where(allowed, scores, -np.inf)
    shifted = masked - masked.max(axis=0, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=0, keepdims=True)
""", 'mask-2/wrong-axis',
          mistake='Normalises along axis 0 (over queries) instead of the last axis (over keys).'),
    Entry('mask-2', 'dev8-015', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a row has no allowed key")
    # softmax over all keys, then zero the forbidden ones
    e = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = e / e.sum(axis=-1, keepdims=True)
    return weights * allowed
""", 'mask-2/softmax-before-mask',
          mistake='Takes the softmax over all keys and zeroes the forbidden weights afterwards, so rows no longer sum to 1.'),
    Entry('mask-3', 'dev8-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool(np.allclose(weights.sum(axis=-1), 1, atol=atol))
""", 'mask-3/allclose',
          mistake='Uses np.allclose, whose default rtol=1e-5 accepts row sums off by 1e-6 even when atol is 1e-9.'),
    Entry('mask-3', 'dev8-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if np.isnan(weights).any():
        return False
    # 被禁止的位置之和必须为 0
    if abs(weights[~allowed].sum()) > atol:
        return False
    if (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/forbidden-within-atol',
          mistake='Checks that the forbidden weights sum to 0 within atol rather than each being exactly 0, so a tiny 1e-12 forbidden weight passes.'),
    Entry('mask-3', 'dev8-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any():
        return False
    # суммы строк должны быть равны 1
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/no-negative-check',
          mistake='Forgets the non-negativity check, so a row like [1.5, -0.5, 0] is accepted.'),
    Entry('mask-3', 'dev8-020', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    # 检查每行之和是否为 1
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool(abs(weights.sum(axis=-1).mean() - 1) <= atol)
""", None,
          mistake='Checks only the mean of the row sums, so rows summing to 0.5 and 1.5 pass together.'),
    Entry('mask-3', 'dev8-021', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # 允许的位置必须为正，禁止的位置必须为 0
    if (weights[allowed] <= 0).any():
        return False
    if (weights[~allowed] != 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Demands strictly positive weights on allowed keys, so a valid row with an exact 0 on an allowed key is rejected.'),
    Entry('mask-3', 'dev8-022', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) < atol).all())
""", 'mask-3/strict-tolerance',
          mistake='Uses a strict < atol, so with atol=0 rows that sum to exactly 1 are rejected.'),
    Entry('mask-3', 'dev8-023', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    # every column must add up to 1
    return bool((np.abs(weights.sum(axis=0) - 1) <= atol).all())
""", 'mask-3/wrong-axis',
          mistake='Sums the weights along axis 0 (over queries) instead of along each row (over keys).'),
    Entry('data-1', 'dev8-025', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: every text needs at least one character")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Never puts EOS into the targets, so the end of each text is not a scored target.'),
    Entry('data-1', 'dev8-026', r"""
import numpy as np
from lib.data import BOS, EOS, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("批次为空")
    if not all(texts):
        raise ValueError("每个文本至少需要一个字符")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), EOS, dtype=np.int64)   # 用 EOS 填充
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/pad-targets-eos',
          mistake='Pads the targets with EOS instead of IGNORE, so every padding position becomes a scored EOS target.'),
    Entry('data-1', 'dev8-027', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("каждый текст должен содержать хотя бы один символ")
    T = max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids[:T - 1]
        targets[b, :len(ids)] = ids
        if len(ids) < T:
            targets[b, len(ids)] = EOS
    return inputs, targets
""", None,
          mistake='Makes T the longest text length instead of one more, so the longest text loses its last input and its EOS target.'),
    Entry('data-1', 'dev8-028', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    # пустой текст не допускается
    texts = list(texts)
    if not all(texts):
        raise ValueError("collate: every text needs at least one character")
    T = 1 + max([len(text) for text in texts], default=0)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", '*/not-refused',
          mistake='Does not reject an empty batch; it returns (0, 1) arrays instead of raising ValueError.'),
    Entry('data-1', 'dev8-029', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("批次为空或有空文本")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = [BOS] + list(encode(text, vocab)) + [EOS]
        inputs[b, :len(ids) - 1] = ids[:-1]
        # 目标 = 输入本身
        targets[b, :len(ids) - 1] = ids[:-1]
    return inputs, targets
""", None,
          mistake='Uses the inputs themselves as targets instead of shifting them by one position.'),
    Entry('data-1', 'dev8-030', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("пустой текст")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), IGNORE, dtype=np.int64)   # паддинг
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/pad-inputs-ignore',
          mistake='Pads the inputs with IGNORE (-100) instead of EOS, which is not a valid token id.'),
    Entry('data-1', 'dev8-031', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: every text needs at least one character")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS)
    targets = np.full((len(texts), T), IGNORE)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs.astype(np.int32), targets.astype(np.int32)
""", 'data-1/int32',
          mistake='Returns int32 arrays instead of int64.'),
]


# ---- the eighth held-out set (issue 34, measured once on 2026-12-06, round 10) --------------------------
# Written by someone who had not seen the grader, measured once on main, added verbatim (with the notebook's
# imports the code uses, and the solved notebook's answers above those that call them) and not tuned to.  The
# diagnosis is the one check() gives after this round's tests (mask-3 batch-shared-mask, dec-4
# leak-with-a-blind-control), None where it gives none.
ENTRIES += [
    Entry('mask-1', 'heldout8-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    return key_position < query_position   # strictly earlier keys
""", 'mask-1/strict',
          mistake='Uses a strict < so a query may not read its own key (the diagonal is forbidden).', heldout=True),
    Entry('mask-1', 'heldout8-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 查询位置从 0 开始
    query_position = np.arange(tq)[:, None]
    key_position = np.arange(tk)[None, :]
    return key_position <= query_position
""", 'mask-1/top-left',
          mistake='Numbers the queries from 0 instead of tk - tq, ignoring the cached keys before them.', heldout=True),
    Entry('mask-1', 'heldout8-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    # берём квадратную маску и последние tq строк
    full = np.tril(np.ones((tk, tk), dtype=bool))
    return full[-tq:]
""", None,
          mistake='Slices the last tq rows with [-tq:], which returns all tk rows when tq = 0.', heldout=True),
    Entry('mask-1', 'heldout8-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='np.tril on a (tq, tk) array aligns the diagonal to the top-left, so queries after a cache lose keys (only right when tq == tk).', heldout=True),
    Entry('mask-1', 'heldout8-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    # 1 表示可以读取
    return (key_position <= query_position).astype(int)
""", 'mask-1/numbers',
          mistake='Returns an integer 0/1 array instead of a boolean mask.', heldout=True),
    Entry('mask-1', 'heldout8-006', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]
    key_position = np.arange(tk)[None, :]
    # True там, где ключ в будущем
    return key_position > query_position
""", 'mask-1/inverted',
          mistake='Returns the forbidden (future) set instead of the allowed set.', heldout=True),
    Entry('mask-1', 'heldout8-007', r"""
import numpy as np
def causal_allowed(tq, tk):
    allowed = np.zeros((tq, tk), dtype=bool)
    for i in range(tq):
        allowed[i, :tk - tq + i] = True
    return allowed
""", 'mask-1/strict',
          mistake='Off by one in the loop: each query stops one key short and cannot read itself.', heldout=True),
    Entry('mask-2', 'heldout8-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights = weights / weights.sum(axis=-1, keepdims=True)
    return np.where(allowed, weights, 0.0)   # zero the future afterwards
""", 'mask-2/softmax-before-mask',
          mistake='Normalises over all keys and zeroes the forbidden ones afterwards, so rows no longer sum to 1.', heldout=True),
    Entry('mask-2', 'heldout8-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("有一行没有可读的键")
    masked = np.where(allowed, scores, -np.inf)
    weights = np.exp(masked)          # 直接取指数
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='No max subtraction: exp overflows for large scores and gives nan.', heldout=True),
    Entry('mask-2', 'heldout8-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("в строке нет разрешённых ключей")
    masked = np.where(allowed, scores, -np.inf)
    # вычитаем общий максимум для устойчивости
    weights = np.exp(masked - masked.max())
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-array',
          mistake='Subtracts one maximum over the whole array instead of per row, so a row far below it underflows to 0/0.', heldout=True),
    Entry('mask-2', 'heldout8-012', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query row has no allowed key")
    shifted = scores - scores.max(axis=-1, keepdims=True)
    weights = np.exp(shifted) * allowed
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/max-over-all',
          mistake='Takes the row maximum over forbidden scores too, so a huge forbidden score makes the allowed exps underflow to 0/0.', heldout=True),
    Entry('mask-2', 'heldout8-013', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("有一行没有可读的键")
    masked = np.where(allowed, scores, -np.inf)
    shifted = masked - masked.max(axis=0, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=0, keepdims=True)
""", 'mask-2/wrong-axis',
          mistake='Normalises along axis 0 (over queries) instead of the last axis (over keys).', heldout=True),
    Entry('mask-2', 'heldout8-014', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    masked = np.where(allowed, scores, -1e9)   # большое отрицательное вместо -inf
    shifted = masked - masked.max(axis=-1, keepdims=True)
    weights = np.exp(shifted)
    return weights / weights.sum(axis=-1, keepdims=True)
""", 'mask-2/finite-fill',
          mistake="Never raises for a row with no allowed key: the -1e9 fill silently spreads that row's weight over forbidden keys.", heldout=True),
    Entry('mask-2', 'heldout8-015', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores, dtype=np.float64)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("a query row has no allowed key")
    masked = np.where(allowed, scores, -np.inf)
    weights = np.exp(masked - masked.max(axis=-1, keepdims=True))
    return weights / weights.sum(axis=-1, keepdims=True)
""", '*/dtype-promoted',
          mistake='Casts the scores to float64, so float32 input comes back as float64.', heldout=True),
    Entry('mask-3', 'heldout8-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.asarray(allowed)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any() or (weights < 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", '*/one-rank-only',
          mistake="Does not broadcast allowed to the weights' shape, so a batch of weights sharing one mask raises an IndexError.", heldout=True),
    Entry('mask-3', 'heldout8-018', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # 允许的位置必须是正数，禁止的位置必须是 0
    if (weights[allowed] <= 0).any() or (weights[~allowed] != 0).any():
        return False
    return bool(np.allclose(weights.sum(axis=-1), 1, atol=atol))
""", 'mask-3/allclose',
          mistake='Requires every allowed weight to be strictly positive, rejecting a valid exact 0 on an allowed key; also uses allclose with its default rtol.', heldout=True),
    Entry('mask-3', 'heldout8-019', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    # проверяем, что веса — допустимое внимание
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/no-negative-check',
          mistake='Does not check for negative weights.', heldout=True),
    Entry('mask-3', 'heldout8-020', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (weights[~allowed] != 0).any():
        return False
    return bool(np.isclose(weights.sum(axis=-1), 1.0).all())
""", 'mask-3/allclose',
          mistake="Ignores the atol argument and uses np.isclose's default tolerances, which are much looser.", heldout=True),
    Entry('mask-3', 'heldout8-021', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (weights[~allowed] != 0).any():
        return False
    # 每一列的和应为 1
    return bool((np.abs(weights.sum(axis=-2) - 1) <= atol).all())
""", 'mask-3/wrong-axis',
          mistake='Checks the sums along axis -2 (over queries) instead of along each row.', heldout=True),
    Entry('mask-3', 'heldout8-022', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    # проверяем, что веса — допустимое внимание
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (weights[~allowed] != 0).any():
        return False
    return bool(abs(weights.sum() - weights.shape[-2]) <= atol)
""", None,
          mistake='Checks only the total sum of all weights, so rows that are off in opposite directions (or a batch) pass or fail wrongly.', heldout=True),
    Entry('mask-3', 'heldout8-023', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    if (weights * allowed != weights).any():
        return False
    # float sums are never exact, so allow a bit of rounding
    return bool((np.abs(weights.sum(axis=-1) - 1) <= 1e-6).all())
""", 'mask-3/allclose',
          mistake='Hard-codes a tolerance of 1e-6 for the row sums and ignores the atol argument.', heldout=True),
    Entry('data-1', 'heldout8-025', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: every text needs at least one character")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Forgets to score the EOS after each text: the target after the last character stays IGNORE.', heldout=True),
    Entry('data-1', 'heldout8-026', r"""
import numpy as np
from lib.data import BOS, EOS, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("空批次")
    if not all(texts):
        raise ValueError("每个文本至少要有一个字符")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), EOS, dtype=np.int64)   # 用 EOS 填充
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/pad-targets-eos',
          mistake='Pads the targets with EOS instead of IGNORE, so padding positions are scored.', heldout=True),
    Entry('data-1', 'heldout8-027', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("пустой текст")
    T = 2 + max(len(t) for t in texts)     # BOS + текст + EOS
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/one-column-too-many',
          mistake='Makes the rows one position too long (T = 2 + longest text instead of 1 + longest).', heldout=True),
    Entry('data-1', 'heldout8-028', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), IGNORE, dtype=np.int64)   # pad with IGNORE
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/pad-inputs-ignore',
          mistake='Pads the inputs with IGNORE (-100), which is not a token id, instead of EOS.', heldout=True),
    Entry('data-1', 'heldout8-029', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    # 把一批文本整理成输入和目标
    texts = list(texts)
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/empty-accepted',
          mistake='No checks for an empty batch or an empty text: an empty batch crashes with an unhelpful error and an empty text is silently accepted.', heldout=True),
    Entry('data-1', 'heldout8-030', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("пустой батч")
    if not all(texts):
        raise ValueError("пустой текст")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, text in enumerate(texts):
        ids = [BOS] + list(encode(text, vocab)) + [EOS]
        inputs[b, :len(ids) - 1] = ids[:-1]
        targets[b, :len(ids) - 1] = ids[:-1]    # цели = входы
    return inputs, targets
""", None,
          mistake='Sets the targets equal to the inputs instead of shifting them one position left.', heldout=True),
    Entry('data-1', 'heldout8-031', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: the batch is empty")
    if not all(texts):
        raise ValueError("collate: empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS)
    targets = np.full((len(texts), T), IGNORE)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs.astype(np.int32), targets.astype(np.int32)
""", 'data-1/int32',
          mistake='Returns int32 arrays instead of int64.', heldout=True),
]


# ---- the ninth held-out set (issue 34, measured once on 2026-12-06, round 10) ---------------------------
# Written by someone who had not seen the grader, measured once on main (9b3b9a05), added verbatim (with the
# notebook's imports the code uses, and the solved notebook's answers above those that call them) and not tuned
# to.  The diagnosis is the one check() gives, None where it gives none.
ENTRIES += [
    Entry('mask-1', 'heldout9-001', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    return key_position < query_position
""", 'mask-1/strict',
          mistake='Uses strict < so a query cannot read its own position.', heldout=True),
    Entry('mask-1', 'heldout9-002', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 下三角矩阵就是因果掩码
    return np.tril(np.ones((tq, tk), dtype=bool))
""", 'mask-1/top-left',
          mistake='Ignores the offset: uses a top-left aligned np.tril of shape (tq, tk) instead of placing queries at the last tq positions.', heldout=True),
    Entry('mask-1', 'heldout9-003', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # ключ не позже запроса
    return query_position <= key_position
""", 'mask-1/reversed',
          mistake='Comparison is reversed (>=), so each query reads the future keys instead of the past ones.', heldout=True),
    Entry('mask-1', 'heldout9-004', r"""
import numpy as np
def causal_allowed(tq, tk):
    query_position = np.arange(tk - tq, tk)[:, None]    # (tq, 1)
    key_position = np.arange(tk)[None, :]               # (1, tk)
    # 1 where allowed, 0 where forbidden
    return (key_position <= query_position).astype(int)
""", 'mask-1/numbers',
          mistake='Returns an int array of 0/1 instead of a boolean array.', heldout=True),
    Entry('mask-1', 'heldout9-005', r"""
import numpy as np
def causal_allowed(tq, tk):
    # 查询在最后 tq 个位置，所以对角线右移
    return np.tril(np.ones((tq, tk), dtype=bool), k=tk - tq - 1)
""", 'mask-1/strict',
          mistake='Off by one in the diagonal offset of np.tril (k=tk-tq-1), so each query misses its own position.', heldout=True),
    Entry('mask-2', 'heldout9-007', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    e = np.where(allowed, np.exp(scores), 0.0).astype(scores.dtype)
    return e / e.sum(axis=-1, keepdims=True)
""", 'mask-2/no-max',
          mistake='Does not subtract the row maximum, so large scores overflow to inf and give nan.', heldout=True),
    Entry('mask-2', 'heldout9-008', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("某一行没有允许的位置")
    # 把不允许的分数置零
    masked = np.where(allowed, scores, 0)
    shifted = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(shifted)
    return (w / w.sum(axis=-1, keepdims=True)).astype(scores.dtype)
""", 'mask-2/zero-fill',
          mistake='Replaces forbidden scores by 0 instead of -inf, so forbidden entries still get weight exp(0).', heldout=True),
    Entry('mask-2', 'heldout9-009', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("нет разрешённых ключей в строке")
    # сначала обычный softmax, потом обнуляем будущее
    w = np.exp(scores - scores.max(axis=-1, keepdims=True))
    w = w / w.sum(axis=-1, keepdims=True)
    return np.where(allowed, w, 0).astype(scores.dtype)
""", 'mask-2/softmax-before-mask',
          mistake='Softmax over all entries first, then zeroes the forbidden ones without renormalising, so rows do not sum to 1.', heldout=True),
    Entry('mask-2', 'heldout9-010', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    masked = np.where(allowed, scores, -1e9).astype(scores.dtype)
    masked = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(masked)
    return w / w.sum(axis=-1, keepdims=True)
""", 'mask-2/finite-fill',
          mistake='Uses -1e9 instead of -inf and never checks for empty rows, so a row with no allowed entry comes out uniform instead of raising ValueError.', heldout=True),
    Entry('mask-2', 'heldout9-011', r"""
import numpy as np
def masked_softmax(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("пустая строка")
    # -inf для запрещённых
    masked = np.where(allowed, scores, np.full(scores.shape, -np.inf))
    shifted = masked - masked.max(axis=-1, keepdims=True)
    w = np.exp(shifted)
    return w / w.sum(axis=-1, keepdims=True)
""", '*/dtype-promoted',
          mistake='Takes the forbidden fill values from a float64 np.full array, so float32 scores come back as float64.', heldout=True),
    Entry('mask-3', 'heldout9-013', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    if (weights[~allowed] != 0).any():
        return False
    return bool((weights >= 0).all())
""", 'mask-3/no-row-sum',
          mistake="Forgets the row-sum condition, so 'softmax first, zeros after' passes.", heldout=True),
    Entry('mask-3', 'heldout9-014', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    # 检查有限、未来为零、每行和为一
    if not np.all(np.isfinite(weights)):
        return False
    if np.any(weights[~allowed] != 0):
        return False
    return bool(np.allclose(weights.sum(axis=-1), 1, atol=atol, rtol=0))
""", 'mask-3/no-negative-check',
          mistake='Checks only row sums and forbidden zeros, never negativity, so [1.5, -0.5, 0] passes.', heldout=True),
    Entry('mask-3', 'heldout9-015', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all() or (weights < 0).any():
        return False
    # запрещённые элементы ~ 0
    if np.abs(np.where(allowed, 0, weights)).max() > 1e-2:
        return False
    return bool(np.all(np.abs(weights.sum(-1) - 1) <= atol))
""", 'mask-3/forbidden-within-atol',
          mistake='Accepts forbidden entries up to a hard-coded tolerance of 1e-2 instead of requiring exactly 0, so small leaks into the future pass.', heldout=True),
    Entry('mask-3', 'heldout9-016', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    finite = np.isfinite(weights).all()
    future_zero = (weights[~allowed] == 0).all()
    non_negative = (weights >= 0).all()
    sums_to_one = np.allclose(weights.sum(axis=-1), 1.0)
    return bool(finite and future_zero and non_negative and sums_to_one)
""", 'mask-3/allclose',
          mistake='Uses np.allclose with its default rtol and ignores the given atol, so sums off by more than atol pass.', heldout=True),
    Entry('mask-3', 'heldout9-017', r"""
import numpy as np
def is_valid_attention(weights, allowed, atol=1e-9):
    weights = np.asarray(weights)
    allowed = np.broadcast_to(allowed, weights.shape)
    if not np.isfinite(weights).all():
        return False
    # 允许的位置必须为正，禁止的位置必须为零
    if (weights[allowed] <= 0).any() or (weights[~allowed] != 0).any():
        return False
    return bool((np.abs(weights.sum(axis=-1) - 1) <= atol).all())
""", 'mask-3/positive-on-allowed',
          mistake='Also demands strictly positive weights on allowed keys, which the task says not to test.', heldout=True),
    Entry('data-1', 'heldout9-019', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty batch or empty text")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
    return inputs, targets
""", 'data-1/no-eos-target',
          mistake='Puts IGNORE on the EOS target after the text, so the end of the text is never scored.', heldout=True),
    Entry('data-1', 'heldout9-020', r"""
import numpy as np
from lib.data import BOS, EOS, encode
def collate(texts, vocab):
    texts = list(texts)
    if len(texts) == 0:
        raise ValueError("空批次")
    if any(len(t) == 0 for t in texts):
        raise ValueError("空文本")
    T = max(len(t) for t in texts) + 1
    inputs, targets = [], []
    for text in texts:
        ids = list(encode(text, vocab))
        # 输入：BOS + 文本，剩下补 EOS
        inputs.append([BOS] + ids + [EOS] * (T - 1 - len(ids)))
        # 目标：文本 + EOS，剩下也补 EOS
        targets.append(ids + [EOS] * (T - len(ids)))
    return np.array(inputs, dtype=np.int64), np.array(targets, dtype=np.int64)
""", 'data-1/pad-targets-eos',
          mistake='Fills every padded target with EOS instead of IGNORE, so padding is scored.', heldout=True),
    Entry('data-1', 'heldout9-021', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("пустой батч или пустой текст")
    T = max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        # сдвиг на один: вход BOS + текст, цель текст + EOS
        seq_in = [BOS] + list(ids)
        seq_out = list(ids) + [EOS]
        inputs[b, :min(T, len(seq_in))] = seq_in[:T]
        targets[b, :min(T, len(seq_out))] = seq_out[:T]
    return inputs, targets
""", None,
          mistake='T is the length of the longest text, not one more, so the longest row loses its final EOS target.', heldout=True),
    Entry('data-1', 'heldout9-022', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("collate: the batch is empty")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
""", 'data-1/empty-accepted',
          mistake='Does not refuse an empty text; it produces a row with a lone EOS target.', heldout=True),
    Entry('data-1', 'heldout9-023', r"""
import numpy as np
from lib.data import BOS, EOS, IGNORE, encode
def collate(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("批次或文本为空")
    T = 1 + max(len(t) for t in texts)
    B = len(texts)
    # 用 int32 节省内存
    inputs = np.full((B, T), EOS, dtype=np.int32)
    targets = np.full((B, T), IGNORE, dtype=np.int32)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids) + 1] = list(ids) + [EOS]
    return inputs, targets
""", 'data-1/int32',
          mistake='Builds the arrays as int32 to save memory, but the task asks for int64.', heldout=True),
]
