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
    Entry("mask-3", "positive-on-allowed", _valid_with_slip(
        ("(weights < 0).any()", "(weights[allowed] <= 0).any()")), None),

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
""", None),
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
