"""Known mistakes, recognised by what a function does: the "why" after a failed test.

For every exercise this module keeps the wrong versions learners actually
write (softmax before the mask, a reshape without a transpose, a cache that
restarts at position 0, ...), each with a sentence saying what the numbers
suggest and which section of the chapter explains it (written in English; the
catalogues of course_i18n translate it).  A learner's
function is diagnosed from its *outputs*, never from its source:
:func:`diagnose` takes the tests a function was run on, with the expected
result and the learner's result of each, computes what every known wrong
version gives on the same inputs, and names a mistake only when

* the wrong version differs from the right answer on at least one of these
  tests (the tests can see that mistake), and
* on every test where it differs, the learner's result agrees with the wrong
  version's within the exercise's tolerance (a mistake may have several
  versions, e.g. with and without a refusal of empty rows: any of them), and
* it accounts for every failed test (a function with two mistakes gets no
  diagnosis rather than half of one).

Several candidates: the one seen on the most tests wins, then the first
declared.  The texts hold no values, so a diagnosis drawn from hidden tests
reveals nothing about them.  Besides the per-exercise wrong versions, two
mistakes are read from the comparison itself: float32 in, float64 out, and an
argument changed in place.

This module runs in the learner's kernel (``check()``) and in the grader's
process; it never enters a grading sandbox.
"""

import math
from dataclasses import dataclass

import numpy as np

from course_i18n.catalogue import text
from lib.data import BOS, EOS, IGNORE, encode

__all__ = ["Mistake", "MISTAKES", "GENERIC", "diagnose", "explain_mistake", "mistake_by_id"]


@dataclass(frozen=True)
class Mistake:
    id: str                 # "mask-2/softmax-before-mask"
    wrong: object           # the wrong version, called like the exercise's function (None: generic)
    text: object            # what the numbers suggest, without values: English, then a Text in every language
    section: str            # where the chapter explains it, e.g. "1.7"
    short: object = None    # a few words for the class view ("normalised before masking"), likewise

    def __post_init__(self):
        # written in English; the catalogues (course_i18n) hold the other languages, under
        # grading.diagnosis.<exercise>.<slug>.text / .short ("*/" for a mistake of any exercise: "any.")
        key = "grading.diagnosis." + self.id.replace("*/", "any.").replace("/", ".")
        object.__setattr__(self, "text", text(f"{key}.text", self.text))
        if self.short is not None:
            object.__setattr__(self, "short", text(f"{key}.short", self.short))


_REGISTERED = {}


def _mistakes(exercise_id, *entries):
    out = []
    for slug, wrong, section, text, short in entries:
        m = Mistake(f"{exercise_id}/{slug}", wrong, text, section, short)
        _REGISTERED[m.id] = m
        out.append(m)
    return out


def _softmax(scores, axis=-1):
    e = np.exp(scores - scores.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _future(tq, tk):
    return np.arange(tk)[None, :] > np.arange(tk - tq, tk)[:, None]


# ---- mask-1 ------------------------------------------------------------------------

def _m1_strict(tq, tk):
    return np.arange(tk)[None, :] < np.arange(tk - tq, tk)[:, None]


def _m1_top_left(tq, tk):
    return np.tril(np.ones((tq, tk), dtype=bool))


def _m1_inverted(tq, tk):
    return _future(tq, tk)


def _m1_one_ahead(tq, tk):
    return np.arange(tk)[None, :] <= np.arange(tk - tq, tk)[:, None] + 1


def _m1_square(tq, tk):
    return np.tril(np.ones((tq, tq), dtype=bool))


def _m1_numbers(tq, tk):
    return (~_future(tq, tk)).astype(np.int64)


def _m1_float_numbers(tq, tk):
    return (~_future(tq, tk)).astype(np.float64)


# ---- mask-2 ------------------------------------------------------------------------

def _m2_softmax_first(scores, allowed):
    scores = np.asarray(scores)
    return np.where(allowed, _softmax(scores), 0.0).astype(scores.dtype)


def _m2_softmax_first_refusing(scores, allowed):
    scores = np.asarray(scores)
    if not np.broadcast_to(allowed, scores.shape).any(axis=-1).all():
        raise ValueError("empty row")
    return _m2_softmax_first(scores, allowed)


def _m2_no_max(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    with np.errstate(all="ignore"):
        e = np.where(allowed, np.exp(scores), 0.0)
        return (e / e.sum(axis=-1, keepdims=True)).astype(scores.dtype)


def _m2_no_max_times_mask(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    with np.errstate(all="ignore"):
        e = np.exp(scores) * allowed                                        # inf * 0 = nan
        return e / e.sum(axis=-1, keepdims=True)


def _m2_max_over_all(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    with np.errstate(all="ignore"):
        e = np.where(allowed, np.exp(scores - scores.max(axis=-1, keepdims=True)), 0.0)
        return e / e.sum(axis=-1, keepdims=True)


def _m2_finite_fill(scores, allowed):
    scores = np.asarray(scores)
    return _softmax(np.where(allowed, scores, scores.dtype.type(-1e9)))


def _m2_unchecked(scores, allowed):
    scores = np.asarray(scores)
    with np.errstate(all="ignore"):
        masked = np.where(allowed, scores, -np.inf)
        e = np.exp(masked - masked.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def _m2_zero_fill(scores, allowed):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    return _softmax(np.where(allowed, scores, 0.0).astype(scores.dtype))


def _m2_wrong_axis(scores, allowed, axis=-2):
    scores = np.asarray(scores)
    allowed = np.broadcast_to(allowed, scores.shape)
    if not allowed.any(axis=-1).all():
        raise ValueError("empty row")
    with np.errstate(all="ignore"):
        masked = np.where(allowed, scores, -np.inf)
        e = np.exp(masked - masked.max(axis=axis, keepdims=True))
        return e / e.sum(axis=axis, keepdims=True)


def _m2_first_axis(scores, allowed):
    return _m2_wrong_axis(scores, allowed, axis=0)


# ---- mask-3 ------------------------------------------------------------------------

def _m3_parts(weights, allowed):
    weights = np.asarray(weights)
    return weights, np.broadcast_to(allowed, weights.shape)


def _m3_allclose(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (w[~a] == 0).all() and (w >= 0).all() and np.allclose(w.sum(-1), 1))


def _m3_forbidden_within_atol(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (np.abs(w[~a]) <= atol).all() and (w >= 0).all()
                and (np.abs(w.sum(-1) - 1) <= atol).all())


def _m3_no_negative_check(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (w[~a] == 0).all() and (np.abs(w.sum(-1) - 1) <= atol).all())


def _m3_no_sum_check(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (w[~a] == 0).all() and (w >= 0).all())


def _m3_no_forbidden_check(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (w >= 0).all() and (np.abs(w.sum(-1) - 1) <= atol).all())


def _m3_exact_sum(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (w[~a] == 0).all() and (w >= 0).all() and (w.sum(-1) == 1).all())


def _m3_positive_allowed(weights, allowed, atol=1e-9):
    w, a = _m3_parts(weights, allowed)
    return bool(np.isfinite(w).all() and (w[~a] == 0).all() and (w[a] > 0).all() and (w >= 0).all()
                and (np.abs(w.sum(-1) - 1) <= atol).all())


# ---- data-1 ------------------------------------------------------------------------

def _d1_parts(texts, vocab):
    texts = list(texts)
    if not texts or not all(texts):
        raise ValueError("empty")
    return texts, [encode(t, vocab) for t in texts]


def _d1_build(texts, vocab, eos_target=True, pad_input=EOS, pad_target=IGNORE, left=False, shift=True):
    texts, encoded = _d1_parts(texts, vocab)
    T = 1 + max(len(ids) for ids in encoded)
    inputs = np.full((len(texts), T), pad_input, dtype=np.int64)
    targets = np.full((len(texts), T), pad_target, dtype=np.int64)
    for b, ids in enumerate(encoded):
        row = [BOS] + list(ids)
        goal = (list(ids) + [EOS]) if shift else row
        if not eos_target and shift:
            goal = list(ids) + [IGNORE]
        start = T - len(row) if left else 0
        inputs[b, start:start + len(row)] = row
        targets[b, start:start + len(goal)] = goal
    return inputs, targets


def _d1_no_eos_target(texts, vocab):
    return _d1_build(texts, vocab, eos_target=False)


def _d1_not_shifted(texts, vocab):
    return _d1_build(texts, vocab, shift=False)


def _d1_left(texts, vocab):
    return _d1_build(texts, vocab, left=True)


def _d1_pad_targets_eos(texts, vocab):
    return _d1_build(texts, vocab, pad_target=EOS)


def _d1_pad_inputs_ignore(texts, vocab):
    return _d1_build(texts, vocab, pad_input=IGNORE)


def _d1_no_bos(texts, vocab):
    texts, encoded = _d1_parts(texts, vocab)
    T = max(len(ids) for ids in encoded)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    for b, ids in enumerate(encoded):
        inputs[b, :len(ids)] = ids
        targets[b, :len(ids)] = list(ids[1:]) + [EOS]
    return inputs, targets


def _d1_empty_accepted(texts, vocab):
    texts = list(texts)
    if not texts:
        raise ValueError("empty batch")
    T = 1 + max(len(t) for t in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):
        ids = encode(text, vocab) if text else []
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets


# ---- heads-1, heads-2 ------------------------------------------------------------------

def _h1_reshape_only(x, n_heads):
    x = np.asarray(x)
    return x.reshape(*x.shape[:-2], n_heads, x.shape[-2], x.shape[-1] // n_heads)


def _h1_interleaved(x, n_heads):
    x = np.asarray(x)
    y = x.reshape(*x.shape[:-1], x.shape[-1] // n_heads, n_heads)           # (..., T, d, H)
    return np.moveaxis(y, -1, -3)


def _h1_no_swap(x, n_heads):
    x = np.asarray(x)
    return x.reshape(*x.shape[:-1], n_heads, x.shape[-1] // n_heads)


def _h1_fixed_rank(x, n_heads):
    x = np.asarray(x)
    B, T, D = x.shape
    return x.reshape(B, T, n_heads, D // n_heads).transpose(0, 2, 1, 3)


def _h2_reshape_only(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    return x.reshape(*x.shape[:-3], x.shape[-2], -1)


def _h2_fixed_rank(x):
    x = np.asarray(x)
    return x.transpose(0, 2, 1, 3).reshape(x.shape[0], x.shape[2], -1)


def _h2_interleaved(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    y = np.moveaxis(x, -3, -1)                                              # (..., T, d, H)
    return y.reshape(*y.shape[:-2], -1)


def _h2_summed(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError("too few axes")
    return x.sum(axis=-3)


# ---- heads-3, cache-2, evidence-1: attention with a twist ---------------------------

def _attention(x, w_q, w_k, w_v, w_o, n_heads, *, scale="d", mask="causal", w_o_on=True, split="swap",
               axis=-1):
    """Multi-head attention on (..., T, D) with one of the usual mistakes switched on."""
    x = np.asarray(x, dtype=np.float64) if not isinstance(x, np.ndarray) else x
    D = x.shape[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    d = D // n_heads
    T = x.shape[-2]

    def heads(y):
        if split == "reshape":
            return y.reshape(*y.shape[:-2], n_heads, T, d)
        return np.swapaxes(y.reshape(*y.shape[:-1], n_heads, d), -3, -2)

    q, k, v = heads(x @ np.asarray(w_q)), heads(x @ np.asarray(w_k)), heads(x @ np.asarray(w_v))
    scores = q @ np.swapaxes(k, -1, -2)
    if scale == "d":
        scores = scores / np.sqrt(d)
    elif scale == "D":
        scores = scores / np.sqrt(D)
    allowed = {"causal": ~_future(T, T), "strict": _future(T, T).T & ~np.eye(T, dtype=bool),
               "none": np.ones((T, T), dtype=bool)}[mask]
    with np.errstate(all="ignore"):
        masked = np.where(allowed, scores, -np.inf)
        e = np.exp(masked - masked.max(axis=axis, keepdims=True))
        weights = e / e.sum(axis=axis, keepdims=True)
    out = np.swapaxes(weights @ v, -3, -2)
    out = out.reshape(*out.shape[:-2], D)
    return out @ np.asarray(w_o) if w_o_on else out


def _mha(**twist):
    def wrong(x, w_q, w_k, w_v, w_o, n_heads):
        return _attention(x, w_q, w_k, w_v, w_o, n_heads, **twist)
    return wrong


def _one_head(x, w_q, w_k, w_v, w_o, n_heads):
    D = np.shape(x)[-1]
    if D % n_heads:
        raise ValueError("not divisible")
    return _attention(x, w_q, w_k, w_v, w_o, 1, scale="D")


# ---- cost-1 ------------------------------------------------------------------------

def _costs(keys_and_values=2, matrices=4, itemsize=None, layers_in_kv=True, heads_in_kv=True, refuse_zero=True):
    def wrong(batch, length, width, n_heads, n_layers, dtype):
        if width % n_heads:
            raise ValueError("not divisible")
        if refuse_zero and n_layers < 1:
            raise ValueError("n_layers")
        size = np.dtype(dtype).itemsize if itemsize is None else itemsize
        d = width // n_heads
        kv = keys_and_values * (n_layers if layers_in_kv else 1) * batch * length * (n_heads if heads_in_kv else 1) \
            * d * size
        return n_layers * matrices * width * width, kv
    return wrong


# ---- pos-1, pos-2 --------------------------------------------------------------------

def _p1_rows(ids, token_table, position_table, rows):
    return np.asarray(token_table)[np.asarray(ids)] + np.asarray(position_table)[rows]


def _p1_no_offset(ids, token_table, position_table, offset=0):
    T = np.shape(ids)[-1]
    if T > len(position_table):
        raise ValueError("past the table")
    return _p1_rows(ids, token_table, position_table, np.arange(T))


def _p1_no_offset_checked(ids, token_table, position_table, offset=0):
    T = np.shape(ids)[-1]
    if offset < 0 or offset + T > len(position_table):
        raise ValueError("past the table")
    return _p1_rows(ids, token_table, position_table, np.arange(T))


def _p1_wrapped(ids, token_table, position_table, offset=0):
    T = np.shape(ids)[-1]
    return _p1_rows(ids, token_table, position_table, (offset + np.arange(T)) % len(position_table))


def _p1_clipped(ids, token_table, position_table, offset=0):
    T = np.shape(ids)[-1]
    return _p1_rows(ids, token_table, position_table, np.minimum(offset + np.arange(T), len(position_table) - 1))


def _p1_by_id(ids, token_table, position_table, offset=0):
    return _p1_rows(ids, token_table, position_table, np.asarray(ids))


def _p2_grads(grad, ids, vocab_size, context_size, offset, *, scatter="add", positions="sum", shift=True,
              check=True, wrap=False):
    grad, ids = np.asarray(grad), np.asarray(ids)
    T, D = ids.shape[-1], grad.shape[-1]
    if check and (offset < 0 or offset + T > context_size):
        raise ValueError("outside")
    d_token = np.zeros((vocab_size, D), dtype=grad.dtype)
    if scatter == "add":
        np.add.at(d_token, ids.reshape(-1), grad.reshape(-1, D))
    else:
        d_token[ids.reshape(-1)] += grad.reshape(-1, D)
    d_position = np.zeros((context_size, D), dtype=grad.dtype)
    rows = (offset if shift else 0) + np.arange(T)
    if wrap:
        rows = rows % context_size
    per_position = grad.reshape(-1, T, D)
    np.add.at(d_position, rows, per_position.sum(axis=0) if positions == "sum" else per_position[-1])
    return d_token, d_position


def _p2_averaged(grad, ids, vocab_size, context_size, offset=0):
    d_token, d_position = _p2_grads(grad, ids, vocab_size, context_size, offset)
    counts = np.bincount(np.asarray(ids).reshape(-1), minlength=vocab_size)
    return d_token / np.maximum(counts, 1)[:, None], d_position


def _pos2(**twist):
    def wrong(grad, ids, vocab_size, context_size, offset=0):
        return _p2_grads(grad, ids, vocab_size, context_size, offset, **twist)
    return wrong


# ---- pos-3 ------------------------------------------------------------------------

def _swap_change(forward, ids, i, j, *, rows="last", refuse_same=True, refuse_last=True, reduce="max"):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if (refuse_same and i == j) or not (0 <= i < T and 0 <= j < T) or (refuse_last and max(i, j) >= T - 1):
        raise ValueError("bad positions")
    swapped = ids.copy()
    if rows == "batch-rows":
        swapped[[i, j]] = ids[[j, i]]                                     # whole sequences of a batch
        rows = "last"
    else:
        swapped[..., [i, j]] = ids[..., [j, i]]
    before, after = np.asarray(forward(ids)), np.asarray(forward(swapped))
    if rows == "last":
        before, after = before[..., -1, :], after[..., -1, :]
    diff = after - before
    if reduce == "max":
        return float(np.max(np.abs(diff)))
    if reduce == "signed":
        return float(np.max(diff))
    return float(np.sum(np.abs(diff)))


def _pos3(**twist):
    def wrong(forward, ids, i, j):
        return _swap_change(forward, ids, i, j, **twist)
    return wrong


# ---- causal-1 .. causal-3 ------------------------------------------------------------

def _change(forward, ids, position, replacement, *, future="all", rows="prefix", reduce="abs", check=True):
    ids = np.asarray(ids)
    if check and not 1 <= position < ids.shape[-1]:
        raise ValueError("position")
    perturbed = ids.copy()
    if future == "all":
        perturbed[..., position:] = replacement
    elif future == "one":
        perturbed[..., position] = replacement if np.ndim(replacement) == 0 else np.asarray(replacement).reshape(-1)[0]
    elif future == "one-raw":
        perturbed[..., position] = replacement                              # a vector replacement raises here
    elif future == "early":
        perturbed[..., position - 1:] = replacement
    elif future == "fixed":
        perturbed[..., position:] = 0
    before, after = np.asarray(forward(ids)), np.asarray(forward(perturbed))
    stop = {"prefix": position, "with-position": position + 1, "all": ids.shape[-1], "last": position}[rows]
    start = position - 1 if rows == "last" else 0
    diff = after[..., start:stop, :] - before[..., start:stop, :]
    return float(np.max(np.abs(diff))) if reduce == "abs" else float(np.max(diff))


def _causal1(**twist):
    def wrong(forward, ids, position, replacement):
        return _change(forward, ids, position, replacement, **twist)
    return wrong


def _verdict(forward, control, ids, position, replacement, tol=1e-9, *, order="forward-first", use_tol=True,
             with_control=True, check=True):
    if check and not 1 <= position < np.shape(ids)[-1]:
        raise ValueError("position")
    limit = tol if use_tol else 0.0
    f = _change(forward, ids, position, replacement, check=False) > limit
    if not with_control:
        return "leaks" if f else "causal"
    c = _change(control, ids, position, replacement, check=False) > limit
    if order == "control-first":
        if not c:
            return "blind"
        return "leaks" if f else "causal"
    if f:
        return "leaks"
    return "causal" if c else "blind"


def _causal2(**twist):
    def wrong(forward, control, ids, position, replacement, tol=1e-9):
        return _verdict(forward, control, ids, position, replacement, tol, **twist)
    return wrong


def _sweep(forward, ids, replacement_token, *, future="all", rows="prefix", start=1, refuse_short=True):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if refuse_short and T < 2:
        raise ValueError("short")
    return np.array([_change(forward, ids, p, replacement_token, future=future, rows=rows, check=False) if p else 0.0
                     for p in range(start, start + T - 1)], dtype=np.float64)


def _causal3(**twist):
    def wrong(forward, ids, replacement_token):
        return _sweep(forward, ids, replacement_token, **twist)
    return wrong


def _sweep_in_place(forward, ids, replacement_token):
    ids = np.array(ids)
    if ids.shape[-1] < 2:
        raise ValueError("short")
    before = np.asarray(forward(ids.copy()))
    out = []
    for p in range(1, ids.shape[-1]):
        perturbed = ids
        perturbed[..., p:] = replacement_token
        out.append(float(np.max(np.abs(np.asarray(forward(perturbed))[..., :p, :] - before[..., :p, :]))))
    return np.array(out)


# ---- causal-4 ------------------------------------------------------------------------

def _norm(axis=-1, eps_inside=True, ddof=0, fixed_eps=False, power=0.5):
    def wrong(x, eps=1e-5):
        x = np.asarray(x)
        e = 1e-5 if fixed_eps else eps
        mean = x.mean(axis=axis, keepdims=True)
        var = ((x - mean) ** 2).sum(axis=axis, keepdims=True) / (x.shape[axis] - ddof)
        with np.errstate(all="ignore"):
            if eps_inside:
                return ((x - mean) / (var + e) ** power).astype(x.dtype)
            return ((x - mean) / (np.sqrt(var) + e)).astype(x.dtype)
    return wrong


# ---- cache-1 ------------------------------------------------------------------------

def _continue(model, inputs, targets, tokens, *, prefix="real", shared=False, skip_bos=False, output="new"):
    inputs, targets = np.asarray(inputs), np.asarray(targets)
    outputs = []
    cache = model.new_cache()
    for b in range(len(inputs)):
        n = int((targets[b] != IGNORE).sum())
        n = {"real": n, "row": inputs.shape[1], "short": n - 1}[prefix]
        if not shared:
            cache = model.new_cache()
        last = None
        for token in inputs[b, (1 if skip_bos else 0):n]:
            last = model.step(int(token), cache)
        new = model.step(int(tokens[b]), cache)
        outputs.append(new if output == "new" or last is None else last)
    return np.stack(outputs)


def _cache1(**twist):
    def wrong(model, inputs, targets, tokens):
        return _continue(model, inputs, targets, tokens, **twist)
    return wrong


# ---- cache-2 ------------------------------------------------------------------------

def _step(x, keys, values, w_q, w_k, w_v, w_o, n_heads, *, scale="d", append_first=True, w_o_on=True,
          return_new=True, split="blocks"):
    x = np.asarray(x)
    H = n_heads
    D = x.shape[-1]
    d = D // H
    if split == "interleaved":
        q, k, v = ((x @ w).reshape(d, H).T.reshape(H, 1, d) for w in (w_q, w_k, w_v))
    else:
        q, k, v = ((x @ w).reshape(H, 1, d) for w in (w_q, w_k, w_v))
    new_keys = np.concatenate([keys, k], axis=1)
    new_values = np.concatenate([values, v], axis=1)
    read_k, read_v = (new_keys, new_values) if append_first is True else (np.asarray(keys), np.asarray(values))
    if append_first == "raise" and read_k.shape[1] == 0:
        raise ValueError("zero-size array to reduction operation maximum which has no identity")
    scores = q @ np.swapaxes(read_k, -1, -2)
    scores = scores / {"d": np.sqrt(d), "D": np.sqrt(D), "none": 1.0}[scale]
    with np.errstate(all="ignore"):
        e = np.exp(scores - scores.max(axis=-1, keepdims=True)) if scores.shape[-1] else scores
        weights = e / e.sum(axis=-1, keepdims=True)
    out = (weights @ read_v).reshape(-1)
    if read_v.shape[1] == 0:
        out = np.full(D, np.nan)
    out = out @ w_o if w_o_on else out
    return (out, new_keys, new_values) if return_new else (out, np.asarray(keys), np.asarray(values))


def _cache2(**twist):
    def wrong(x, keys, values, w_q, w_k, w_v, w_o, n_heads):
        return _step(x, keys, values, w_q, w_k, w_v, w_o, n_heads, **twist)
    return wrong


# ---- cache-3 ------------------------------------------------------------------------

def _cache_error(forward, step, new_cache, ids, *, rows="all", fresh=False, reduce="max"):
    ids = np.asarray(ids)
    full = np.asarray(forward(ids))
    cache = new_cache()
    outs = []
    for token in ids:
        if fresh:
            cache = new_cache()
        outs.append(np.asarray(step(int(token), cache)))
    incremental = np.stack(outs)
    if rows == "last":
        full, incremental = full[-1:], incremental[-1:]
    if rows == "first":
        full, incremental = full[:1], incremental[:1]
    diff = full - incremental
    if reduce == "max":
        return float(np.max(np.abs(diff)))
    if reduce == "mean":
        return float(np.mean(np.abs(diff)))
    return float(np.max(diff))


def _cache3(**twist):
    def wrong(forward, step, new_cache, ids):
        return _cache_error(forward, step, new_cache, ids, **twist)
    return wrong


# ---- evidence-1 ------------------------------------------------------------------------

def _evidence(**twist):
    ignore_causal = twist.pop("ignore_causal", False)
    slices = twist.pop("slices", "blocks")

    def wrong(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
        D = len(w_q)
        if slices == "blocks" and D % n_heads:
            raise ValueError("not divisible")
        if slices == "index-error" and D % n_heads:
            raise IndexError("list index out of range")              # the last column has no head
        xs = np.asarray(x, dtype=np.float64)[None]
        ws = [np.asarray(w, dtype=np.float64) for w in (w_q, w_k, w_v, w_o)]
        if slices == "floor":
            d = D // n_heads
            used = n_heads * d
            ws = [w[:, :used] for w in ws[:3]] + [ws[3][:used]]
            D_x = xs
            out = _attention_cut(D_x, *ws, n_heads, d)
        elif slices == "strided":
            perm = np.arange(D).reshape(D // n_heads, n_heads).T.reshape(-1)
            ws = [w[:, perm] for w in ws[:3]] + [ws[3][perm]]
            out = _attention(xs, *ws, n_heads, mask="causal" if (causal or ignore_causal) else "none")
        else:
            out = _attention(xs, *ws, n_heads, mask="causal" if (causal or ignore_causal) else "none", **twist)
        return tuple(tuple(float(v) for v in row) for row in out[0])
    return wrong


def _attention_cut(xs, w_q, w_k, w_v, w_o, n_heads, d):
    """Heads of width D // H that silently drop the last columns (D not divisible by H)."""
    q, k, v = xs @ w_q, xs @ w_k, xs @ w_v
    T = xs.shape[-2]
    split = [np.swapaxes(y.reshape(1, T, n_heads, d), 1, 2) for y in (q, k, v)]
    scores = split[0] @ np.swapaxes(split[1], -1, -2) / math.sqrt(d)
    masked = np.where(~_future(T, T), scores, -np.inf)
    weights = _softmax(masked)
    out = np.swapaxes(weights @ split[2], 1, 2).reshape(1, T, n_heads * d)
    return out @ w_o


# ---- dec-1, dec-2 ------------------------------------------------------------------------

def _d1b(kind):
    def wrong(d_weights, weights):
        g, w = np.asarray(d_weights), np.asarray(weights)
        if kind == "broadcasts":
            return w * (g - np.sum(g * w, axis=-1, keepdims=True))          # numpy broadcasts (1, k) silently
        if g.shape != w.shape:
            raise ValueError("shapes")
        if kind == "no-row-term":
            return w * g
        if kind == "plain-mean":
            return w * (g - g.mean(axis=-1, keepdims=True))
        if kind == "sign":
            return w * ((g * w).sum(axis=-1, keepdims=True) - g)
        if kind == "wrong-axis":
            return w * (g - (g * w).sum(axis=-2, keepdims=True))
        return g - (g * w).sum(axis=-1, keepdims=True)                       # not multiplied by the weights
    return wrong


def _ln_back(kind):
    def wrong(d_out, x, gain, eps=1e-5):
        d_out, x, gain = np.asarray(d_out), np.asarray(x), np.asarray(gain)
        D = x.shape[-1]
        if gain.shape != (D,) or d_out.shape != x.shape:
            raise ValueError("shapes")
        e = 1e-5 if kind == "eps-ignored" else eps
        centred = x - x.mean(axis=-1, keepdims=True)
        r = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + x.dtype.type(e))
        x_hat = centred * r
        g = d_out if kind == "no-gain-in-dx" else d_out * gain
        mean_term = g.mean(axis=-1, keepdims=True)
        var_term = x_hat * (g * x_hat).mean(axis=-1, keepdims=True)
        if kind == "constants":
            d_x = r * g
        elif kind == "no-mean-term":
            d_x = r * (g - var_term)
        elif kind == "no-variance-term":
            d_x = r * (g - mean_term)
        else:
            d_x = r * (g - mean_term - var_term)
        d_gain = (d_out * (x if kind == "gain-uses-x" else x_hat)).reshape(-1, D).sum(axis=0)
        return d_x, d_gain, d_out.reshape(-1, D).sum(axis=0)
    return wrong


# ---- dec-3 ------------------------------------------------------------------------

def _decoder_step(model, token, keys, values, *, position="n", history="all", shared=False, append_first=True):
    from lib import layers
    n = np.shape(keys[0])[1]
    C = model.context_size
    if position == "wrap":
        row = n % C
    elif position == "next-checked":
        if n + 1 >= C:
            raise ValueError("past the table")
        row = n + 1
    else:
        if n >= C:
            raise ValueError("past the table")
        row = {"n": n, "zero": 0, "next": min(n + 1, C - 1)}[position]
    H, d = model.n_heads, model.width // model.n_heads
    x = (model.params["token_table"][token] + model.params["position_table"][row])[None]
    new_keys, new_values = [], []
    for layer in range(model.n_layers):
        b = model.block(layer)
        a = layers.layer_norm_forward(x, b["ln1.gain"], b["ln1.bias"])[0]
        q, k, v = ((a @ b[w]).reshape(H, 1, d) for w in ("w_q", "w_k", "w_v"))
        source = 0 if shared else layer
        ks = np.concatenate([keys[source], k], axis=1)
        vs = np.concatenate([values[source], v], axis=1)
        read_k, read_v = (ks, vs) if append_first is True else (np.asarray(keys[source]), np.asarray(values[source]))
        if append_first == "raise" and read_k.shape[1] == 0:
            raise ValueError("no key to read")
        if history == "first-layer" and layer > 0:
            read_k, read_v = k, v
        with np.errstate(all="ignore"):
            scores = q @ np.swapaxes(read_k, -1, -2) / np.sqrt(d)
            if scores.shape[-1] == 0:
                heads = np.full((H, 1, d), np.nan)
            else:
                heads = _softmax(scores) @ read_v
        x = x + heads.reshape(1, -1) @ b["w_o"]
        m_in = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
        x = x + layers.mlp_forward(m_in, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
        new_keys.append(ks)
        new_values.append(vs)
    return model.output_head(x)[0], new_keys, new_values


def _dec3(**twist):
    def wrong(model, token, keys, values):
        return _decoder_step(model, token, keys, values, **twist)
    return wrong


# ---- dec-4 ------------------------------------------------------------------------

def _diagnose(model, forward, ids, prefix_length, tol=1e-9, *, control="unmasked", future="all", rows="prefix",
              check="strict"):
    ids = np.asarray(ids)
    T = ids.shape[-1]
    if check == "strict" and not 1 <= prefix_length < T:
        raise ValueError("prefix_length")
    if check == "loose" and not 1 <= prefix_length <= T:
        raise ValueError("prefix_length")
    perturbed = ids.copy()
    if future == "all":
        perturbed[..., prefix_length:] = (ids[..., prefix_length:] + 1) % model.vocab_size
    elif future == "zero":
        perturbed[..., prefix_length:] = 0

    def change(f):
        stop = {"prefix": prefix_length, "with-position": prefix_length + 1}[rows]
        a, b = np.asarray(f(perturbed))[..., :stop, :], np.asarray(f(ids))[..., :stop, :]
        return float(np.max(np.abs(a - b))) if a.size else 0.0

    if change(forward) > tol:
        return "leaks"
    if control is None:
        return "causal"
    other = forward if control == "forward" else (lambda t: model.forward(t, causal=False))
    return "causal" if change(other) > tol else "blind"


def _dec4(**twist):
    def wrong(model, forward, ids, prefix_length, tol=1e-9):
        return _diagnose(model, forward, ids, prefix_length, tol, **twist)
    return wrong


# --------------------------------------------------------------------------------------
# The mistakes, with what they look like and where the chapter explains them
# --------------------------------------------------------------------------------------

MISTAKES = {
    "mask-1": _mistakes(
        "mask-1",
        ("strict", _m1_strict, "1.7",
         "the diagonal is forbidden: a query may not read its own key (a `<` where `≤` belongs)",
         "used < instead of ≤"),
        ("top-left", _m1_top_left, "5.1",
         "with fewer queries than keys the mask is aligned top-left; the last query belongs to the last key "
         "(bottom-right alignment)",
         "aligned top-left"),
        ("inverted", _m1_inverted, "1.4",
         "True and False are swapped: this is the forbidden future, not the allowed set",
         "returned future instead of allowed"),
        ("one-ahead", _m1_one_ahead, "5.1",
         "every query reads one key of the future: the alignment is off by one",
         "alignment off by one"),
        ("square", _m1_square, "5.1",
         "the result is always tq×tq: the number of keys tk is not used (after a cache there are fewer queries "
         "than keys)",
         "ignored tk"),
        ("numbers", (_m1_numbers, _m1_float_numbers), "1.4",
         "the values are right but they are 0/1 numbers, not booleans; a mask has dtype=bool",
         "numbers instead of booleans"),
    ),
    "mask-2": _mistakes(
        "mask-2",
        ("softmax-before-mask", (_m2_softmax_first, _m2_softmax_first_refusing), "1.6",
         "the allowed weights of a row sum to less than 1: the softmax seems to run over all keys and the future "
         "is zeroed afterwards; normalise over the allowed keys only",
         "normalised before masking"),
        ("no-max", (_m2_no_max, _m2_no_max_times_mask), "5.9",
         "large scores give nan or inf: the row's largest (allowed) score is not subtracted before exp, so exp "
         "overflows",
         "no max subtraction"),
        ("max-over-all", _m2_max_over_all, "1.6",
         "the result breaks when a forbidden score is far above the allowed ones: the maximum subtracted "
         "includes forbidden entries, so every allowed exp underflows to 0; take the maximum over allowed "
         "scores only",
         "max over forbidden entries"),
        ("finite-fill", _m2_finite_fill, "1.7",
         "a row with no allowed key comes back uniform instead of raising: forbidden scores are filled with a "
         "finite negative number (such as −1e9), and a row where everything is forbidden becomes an even split",
         "a −1e9 fill"),
        ("empty-row-unchecked", _m2_unchecked, "1.7",
         "a row with no allowed key gives nan instead of a ValueError: check that every row allows at least "
         "one key before computing",
         "no error for an empty row"),
        ("zero-fill", _m2_zero_fill, "1.5",
         "forbidden keys still get weight: a score of 0 forbids nothing (exp(0) = 1); forbidden scores must "
         "become −inf",
         "zero scores as the mask"),
        ("wrong-axis", (_m2_wrong_axis, _m2_first_axis), "1.1",
         "columns sum to 1 instead of rows: the softmax ran over the wrong axis (the queries); it belongs on "
         "the last axis (the keys)",
         "softmax over the wrong axis"),
    ),
    "mask-3": _mistakes(
        "mask-3",
        ("allclose", _m3_allclose, "1.1",
         "the row-sum test ignores the atol argument: np.allclose applies its own relative tolerance; compare "
         "|row sum − 1| ≤ atol",
         "np.allclose instead of atol"),
        ("forbidden-within-atol", _m3_forbidden_within_atol, "1.6",
         "a tiny non-zero weight on a forbidden entry is accepted: forbidden weights must be exactly 0; the "
         "tolerance is for row sums only",
         "forbidden weights below atol accepted"),
        ("no-negative-check", _m3_no_negative_check, "1.1",
         "a negative weight is accepted: a row summing to 1 is not enough, every weight must be ≥ 0",
         "no check for negative weights"),
        ("no-row-sum", _m3_no_sum_check, "1.6",
         "weights whose rows do not sum to 1 are accepted (softmax first, zeros after, for instance): also check "
         "that every row sums to 1 within atol",
         "no row-sum check"),
        ("no-forbidden-check", _m3_no_forbidden_check, "1.4",
         "weight on future entries is accepted: also check that every forbidden weight is exactly 0",
         "no check of forbidden entries"),
        ("exact-sum", _m3_exact_sum, "1.1",
         "correct weights that differ only by rounding are rejected: compare row sums with 1 within atol, not "
         "with ==",
         "row sums compared with =="),
        ("positive-allowed", _m3_positive_allowed, "1.4",
         "an exact 0 on an allowed key is rejected: allowed means the key may be read, and a weight of 0 is "
         "still valid",
         "demands positive allowed weights"),
    ),
    "data-1": _mistakes(
        "data-1",
        ("no-eos-target", _d1_no_eos_target, "1.2",
         "the EOS after each text is not a scored target (it is −100 there): the model never learns where to stop",
         "the EOS target ignored"),
        ("not-shifted", _d1_not_shifted, "1.2",
         "the targets are not shifted: the target at position t is the next token (the inputs without BOS, "
         "followed by EOS)",
         "targets not shifted"),
        ("left-padding", _d1_left, "1.10",
         "the padding is on the left: the chapter pads on the right, and the real tokens start at position 0 (BOS)",
         "left padding"),
        ("pad-targets-eos", _d1_pad_targets_eos, "1.8",
         "the padded positions have EOS as target instead of −100: padding enters the loss",
         "padding targets not −100"),
        ("pad-inputs-ignore", _d1_pad_inputs_ignore, "1.8",
         "the inputs are padded with −100: −100 marks targets only; inputs are padded with EOS (a real token id)",
         "inputs padded with −100"),
        ("no-bos", _d1_no_bos, "1.2",
         "the inputs do not start with BOS: position 0 of every row is BOS, which predicts the first character",
         "no BOS"),
        ("empty-accepted", _d1_empty_accepted, "1.2",
         "an empty text is accepted: a text without characters must raise a ValueError",
         "accepted an empty text"),
    ),
    "heads-1": _mistakes(
        "heads-1",
        ("reshape-only", _h1_reshape_only, "2.2",
         "the shape is right and the contents are wrong: a direct reshape to (..., H, T, d) mixes features of "
         "different positions in one head; reshape to (..., T, H, d) first, then swap the T and H axes",
         "reshape without transpose"),
        ("interleaved", _h1_interleaved, "2.2",
         "the heads take every H-th feature (h, h+H, …): coordinate a of head h is feature h·d + a, a "
         "contiguous block",
         "interleaved features"),
        ("no-swap", _h1_no_swap, "2.2",
         "the result is (..., T, H, d): the T and H axes still need swapping to give (..., H, T, d)",
         "axes not swapped"),
        ("fixed-rank", _h1_fixed_rank, "2.2",
         "the function handles 3-D input (B, T, D) only: the signature is (..., T, D), so no batch axis or "
         "several must work too (use negative axes)",
         "fixed number of axes"),
    ),
    "heads-2": _mistakes(
        "heads-2",
        ("reshape-only", _h2_reshape_only, "2.4",
         "the shape is right and the contents are wrong: a direct reshape glues values of different positions "
         "together; swap the H and T axes first, then merge the last two",
         "reshape without transpose"),
        ("fixed-rank", _h2_fixed_rank, "2.4",
         "the function is right for 4-D input (B, H, T, d) only: the signature is (..., H, T, d), and the 3-D "
         "(H, T, d) the cache step uses, or more batch axes, must work too (use negative axes)",
         "4-D input only"),
        ("interleaved", _h2_interleaved, "2.4",
         "the heads' coordinates are interleaved: after merging, head h occupies the contiguous features "
         "h·d … h·d + d − 1",
         "interleaved merge"),
        ("summed", _h2_summed, "2.1",
         "the heads are added up instead of concatenated: the merged width is H·d",
         "heads summed"),
    ),
    "heads-3": _mistakes(
        "heads-3",
        ("no-w-o", _mha(w_o_on=False), "2.4",
         "the output is the concatenated heads themselves: W_O is "
           "missing at the end",
         "forgot W_O"),
        ("scale-by-D", _mha(scale="D"), "2.3",
         "the scores are divided by √D instead of √d: every head scales by its own width d = D/H",
         "scaled by √D"),
        ("no-scale", _mha(scale="none"), "2.3",
         "the scores are not divided by √d",
         "no scaling"),
        ("no-mask", _mha(mask="none"), "1.4",
         "every position reads the future: the causal mask is missing",
         "no mask"),
        ("diagonal-hidden", _mha(mask="strict"), "1.7",
         "the first row is nan: the mask forbids the diagonal as well (a `<` where `≤` belongs), so the first "
         "position has no key to read",
         "diagonal forbidden"),
        ("reshape-only", _mha(split="reshape"), "2.2",
         "the heads are split by a reshape without a transpose, so features of different positions land in "
         "one head",
         "split without transpose"),
        ("wrong-axis", _mha(axis=-2), "1.1",
         "the softmax runs over the queries instead of the "
           "keys (the last axis)",
         "softmax over the wrong axis"),
        ("one-head", _one_head, "2.1",
         "the result looks like single-head attention: the width is not split into n_heads heads",
         "treated as one head"),
    ),
    "cost-1": _mistakes(
        "cost-1",
        ("keys-only", _costs(keys_and_values=1), "5.6",
         "the KV-cache bytes are exactly half: keys and values are both stored (a factor of 2)",
         "KV cache missing the factor 2"),
        ("three-matrices", _costs(matrices=3), "2.6",
         "the parameters count 3·D² per layer: W_O is a D×D matrix too (4·D² in all)",
         "W_O not counted"),
        ("fixed-itemsize", _costs(itemsize=4), "5.6",
         "the bytes do not depend on the dtype: each element takes the dtype's itemsize (2 for float16, 4 for "
         "float32, 8 for float64)",
         "dtype ignored"),
        ("elements", _costs(itemsize=1), "5.6",
         "the KV cache counts elements, not bytes: multiply by the itemsize",
         "elements, not bytes"),
        ("one-layer-cache", _costs(layers_in_kv=False), "5.6",
         "the KV cache counts one layer: every layer has a cache of "
           "its own",
         "cache for one layer"),
        ("one-head-cache", _costs(heads_in_kv=False), "5.6",
         "the KV cache counts one head's width d: all heads together are H·d = D",
         "cache for one head"),
        ("zero-layers", _costs(refuse_zero=False), "2.6",
         "n_layers = 0 is not refused: a model without layers is not a valid input, raise a ValueError",
         "accepted 0 layers"),
    ),
    "pos-1": _mistakes(
        "pos-1",
        ("no-offset", (_p1_no_offset, _p1_no_offset_checked), "3.1",
         "the offset has no effect: positions always start at row 0; after a cache the first new token is at "
         "position offset",
         "offset ignored"),
        ("wrapped", _p1_wrapped, "3.3",
         "positions past the table wrap round to its start (modulo): a position beyond the table has no "
         "learned vector, so raise a ValueError",
         "positions wrapped"),
        ("clipped", _p1_clipped, "3.3",
         "positions past the table all use its last row (clipped): they have no learned vector, so raise a "
         "ValueError",
         "positions clipped"),
        ("position-by-id", _p1_by_id, "3.1",
         "the position table is indexed by token id: take rows offset … offset+T−1 by position",
         "positions by token id"),
    ),
    "pos-2": _mistakes(
        "pos-2",
        ("assignment", _pos2(scatter="assign"), "3.2",
         "a token that occurs several times keeps only one gradient: d_token[ids] += … does not add up repeated "
         "ids; scatter-add with np.add.at",
         "assignment instead of scatter-add"),
        ("last-sequence", _pos2(positions="last"), "3.2",
         "the position gradient comes from one sequence of the batch: every sequence shares those rows, so sum "
         "over the batch axis",
         "position gradient not summed over the batch"),
        ("no-offset", _pos2(shift=False), "3.2",
         "the position gradient lands in rows 0 … T−1: the forward pass used rows offset … offset+T−1",
         "offset ignored"),
        ("averaged", _p2_averaged, "3.2",
         "the gradient of a repeated token is averaged: every occurrence contributes its own gradient, to be "
         "added up, not averaged",
         "gradient averaged"),
        ("wrapped", _pos2(check=False, wrap=True), "3.3",
         "positions past the table wrap round instead of raising: raise a ValueError",
         "positions wrapped"),
    ),
    "pos-3": _mistakes(
        "pos-3",
        ("whole-output", _pos3(rows="all"), "3.4",
         "the whole output is compared, not the last row: the swap itself moves rows i and j; the test is "
         "about the last row",
         "compared the whole output"),
        ("same-position", _pos3(refuse_same=False), "3.4",
         "i == j is not refused: swapping a token with itself changes nothing and tests nothing; raise a "
         "ValueError",
         "accepted a swap with itself"),
        ("last-position", _pos3(refuse_last=False), "3.4",
         "a swap involving the last position is not "
           "refused: it changes the last query itself",
         "accepted the last position"),
        ("batch-rows", _pos3(rows="batch-rows"), "3.4",
         "in a batch two sequences are swapped (the first axis) instead of two positions in every sequence "
         "(the last axis)",
         "swapped sequences of the batch"),
        ("signed", _pos3(reduce="signed"), "3.4",
         "the change is not taken in absolute value: report the "
           "largest absolute change",
         "no absolute value"),
        ("sum", _pos3(reduce="sum"), "3.4",
         "the changes are summed instead of taking the largest "
           "absolute change",
         "sum instead of max"),
    ),
    "causal-1": _mistakes(
        "causal-1",
        ("one-token", (_causal1(future="one"), _causal1(future="one-raw")), "4.3",
         "only the token at position is replaced: the test changes the whole future from position on",
         "perturbed one token only"),
        ("starts-early", _causal1(future="early"), "4.3",
         "the perturbation starts at position − 1: the compared prefix changes itself, so even a causal model "
         "seems to leak",
         "perturbation one too early"),
        ("with-position", _causal1(rows="with-position"), "4.3",
         "the compared rows include position itself, which reads the changed token; compare rows "
         "0 … position−1 only",
         "one row too many compared"),
        ("all-rows", _causal1(rows="all"), "4.3",
         "every output row is compared, future rows included: only the prefix rows must stay unchanged",
         "compared all rows"),
        ("fixed-token", _causal1(future="fixed"), "4.5",
         "the future is replaced by a fixed token instead of the replacement argument: a fixed token may equal "
         "the original one, and then the perturbation changes nothing",
         "a fixed replacement token"),
        ("last-prefix-row", _causal1(rows="last"), "4.3",
         "only the last prefix row is compared: a leak may show in earlier rows only; compare every row "
         "0 … position−1",
         "compared the last row only"),
        ("signed", _causal1(reduce="signed"), "4.3",
         "the change is not taken in absolute value: a change "
           "downwards is a change too",
         "no absolute value"),
    ),
    "causal-2": _mistakes(
        "causal-2",
        ("no-control", _causal2(with_control=False), "4.4",
         "never returns \"blind\": the negative control that shows the test can see a leak is not used",
         "no negative control"),
        ("control-first", _causal2(order="control-first"), "4.4",
         "when the control sees nothing the verdict is \"blind\" even though the model under test leaks: test "
         "the model first; a leak is a leak",
         "control checked first"),
        ("ignores-tol", _causal2(use_tol=False), "4.3",
         "the tol argument is not used: a change within the "
           "tolerance is not a leak",
         "tol ignored"),
        ("position-unchecked", _causal2(check=False), "4.3",
         "position = T is not refused: there is no future to change and the test does nothing; position must "
         "lie in 1 … T−1, otherwise raise a ValueError",
         "accepted position=T"),
    ),
    "causal-3": _mistakes(
        "causal-3",
        ("one-token", _causal3(future="one"), "4.3",
         "each p replaces one token only: every token "
           "from p on must be replaced",
         "perturbed one token only"),
        ("shifted", _causal3(start=0, refuse_short=True), "4.3",
         "the entries are shifted by one: entry p−1 "
           "belongs to position p (p starts at 1)",
         "positions shifted by one"),
        ("all-rows", _causal3(rows="all"), "4.3",
         "every output row is compared: only the rows before p "
           "must stay unchanged",
         "compared all rows"),
        ("single-position", _causal3(refuse_short=False), "4.3",
         "a single position is not refused: "
           "there is nothing to sweep, so raise a ValueError",
         "accepted one position"),
        ("in-place", _sweep_in_place, "4.3",
         "the perturbations accumulate in one array: every p must start again from the original ids (copy "
         "first)",
         "changed ids in place"),
    ),
    "causal-4": _mistakes(
        "causal-4",
        ("over-time", (_norm(axis=-2), _norm(axis=0)), "4.7",
         "the normalisation runs over time (the positions): the mean and variance come from each position's own "
         "features (the last axis)",
         "normalised over time"),
        ("eps-outside", _norm(eps_inside=False), "4.7",
         "eps is added outside the square root: it is "
           "(x − μ) / √(σ² + eps)",
         "eps outside the root"),
        ("unbiased", _norm(ddof=1), "4.7",
         "the variance is divided by D − 1: this is the "
           "population variance, divided by D",
         "variance over D−1"),
        ("eps-ignored", _norm(fixed_eps=True), "4.7",
         "the eps argument has no effect",
         "eps ignored"),
        ("variance", _norm(power=1.0), "4.7",
         "divided by the variance instead of the standard deviation",
         "divided by the variance"),
    ),
    "cache-1": _mistakes(
        "cache-1",
        ("padding-in-cache", _cache1(prefix="row"), "5.7",
         "the padding went into the cache: the new token lands after the whole row instead of after the real "
         "prefix; feed each row only the positions whose target is not −100",
         "padding fed into the cache"),
        ("shared-cache", _cache1(shared=True), "5.7",
         "every row shares one cache: each row "
           "is a text of its own and needs a cache of its own",
         "one cache for all rows"),
        ("short-prefix", _cache1(prefix="short"), "5.7",
         "one token of the real prefix is missing: the real positions are all those whose target is not −100",
         "prefix one short"),
        ("skips-bos", _cache1(skip_bos=True), "5.7",
         "BOS is not fed into the cache: the BOS at "
           "position 0 is part of the real prefix",
         "skipped BOS"),
        ("last-prefix-output", _cache1(output="last"), "5.7",
         "the output returned is the last prefix token's, "
           "not the new token's",
         "returned the prefix output"),
    ),
    "cache-2": _mistakes(
        "cache-2",
        ("attends-before-append", (_cache2(append_first=False), _cache2(append_first="raise")), "5.1",
         "the new query does not read its own key and value: append the new k and v to the cache first, then "
         "attend (with an empty cache the first token can read only itself)",
         "attended before appending"),
        ("no-scale", _cache2(scale="none"), "2.3",
         "the scores are not divided by √d",
         "no scaling"),
        ("scale-by-D", _cache2(scale="D"), "2.3",
         "the scores are divided by √D instead of "
           "√d: every head scales by its own width d = D/H",
         "scaled by √D"),
        ("no-w-o", _cache2(w_o_on=False), "2.4",
         "the output is the concatenated heads themselves: W_O is "
           "missing at the end",
         "forgot W_O"),
        ("interleaved", _cache2(split="interleaved"), "2.2",
         "the new token's q, k and v are dealt out to the heads every H-th feature: coordinate a of head h is "
         "feature h·d + a (a reshape to (H, 1, d))",
         "interleaved heads"),
        ("old-cache-returned", _cache2(return_new=False), "5.1",
         "the keys and values returned do not hold "
           "the new position: return the cache after appending, (H, n+1, d)",
         "returned the old cache"),
    ),
    "cache-3": _mistakes(
        "cache-3",
        ("last-row", _cache3(rows="last"), "5.2",
         "only the last row is compared: "
           "a cache can be wrong at earlier positions only; compare every position",
         "compared the last row only"),
        ("first-row", _cache3(rows="first"), "5.2",
         "only the first position is compared: the cache is still empty at the first token, so a wrong cache "
         "shows only at later positions",
         "compared the first position only"),
        ("fresh-cache", _cache3(fresh=True), "5.3",
         "every token gets a fresh cache: then every step starts at position 0 and even a correct cache looks "
         "wrong; make one cache for the whole sequence",
         "a fresh cache per token"),
        ("mean", _cache3(reduce="mean"), "5.2",
         "the mean error is reported instead of "
           "the largest: one wrong position is enough to show the cache is wrong",
         "mean instead of max"),
        ("signed", _cache3(reduce="signed"), "5.2",
         "the error is not taken in absolute value",
         "no absolute value"),
    ),
    "evidence-1": _mistakes(
        "evidence-1",
        ("no-scale", _evidence(scale="none"), "6.1",
         "the scores are not divided by √d",
         "no scaling"),
        ("scale-by-D", _evidence(scale="D"), "6.1",
         "the scores are divided by √D instead of each head's √d",
         "scaled by √D"),
        ("no-w-o", _evidence(w_o_on=False), "6.1",
         "the output is the concatenated heads themselves: W_O is "
           "missing at the end",
         "forgot W_O"),
        ("ignores-causal", _evidence(ignore_causal=True), "6.1",
         "the mask stays on with causal=False: the causal "
           "argument has no effect",
         "causal ignored"),
        ("strided-heads", _evidence(slices="strided"), "2.2",
         "the heads take every H-th "
           "coordinate: head h uses the contiguous coordinates h·d … h·d + d − 1",
         "strided head coordinates"),
        ("not-divisible-accepted", (_evidence(slices="floor"), _evidence(slices="index-error")), "2.2",
         "a width not divisible by the number of heads is not checked first: the extra coordinates are silently "
         "dropped, or another error follows later; raise a ValueError at the start",
         "accepted an indivisible width"),
    ),
    "dec-1": _mistakes(
        "dec-1",
        ("no-row-term", _d1b("no-row-term"), "7.7",
         "the row-sum term is missing: the softmax couples a row's weights, so the gradient is w ⊙ (g − Σ w·g)",
         "row-sum term missing"),
        ("plain-mean", _d1b("plain-mean"), "7.7",
         "the plain mean of g is subtracted instead of "
           "the weighted sum Σ w·g",
         "plain mean instead of weighted sum"),
        ("sign", _d1b("sign"), "7.7",
         "the gradient has the wrong sign",
         "wrong sign"),
        ("wrong-axis", _d1b("wrong-axis"), "7.7",
         "the sum runs over the wrong axis: the "
           "softmax is over the last axis (the keys), and so is the sum",
         "sum over the wrong axis"),
        ("broadcasts", _d1b("broadcasts"), "7.7",
         "arrays of different shapes are not refused but silently broadcast by NumPy: check first that d_weights "
         "and weights have the same shape, otherwise raise a ValueError",
         "silent broadcasting"),
        ("not-times-weights", _d1b("not-times-weights"), "7.7",
         "the gradient is not 0 on "
           "forbidden entries: multiply by the weights w (where a weight is 0 the gradient is exactly 0)",
         "not multiplied by the weights"),
    ),
    "dec-2": _mistakes(
        "dec-2",
        ("constants", _ln_back("constants"), "7.7",
         "dx lacks both mean terms: μ and σ are treated as constants, but every entry reaches the whole row "
         "through them",
         "μ and σ taken as constants"),
        ("no-mean-term", _ln_back("no-mean-term"), "7.7",
         "dx lacks the term through the mean μ (− mean(g))",
         "mean term missing"),
        ("no-variance-term", _ln_back("no-variance-term"), "7.7",
         "dx lacks the term through the variance σ² "
           "(− x̂ · mean(g·x̂))",
         "variance term missing"),
        ("no-gain-in-dx", _ln_back("no-gain-in-dx"), "7.7",
         "dx misses the gain: the gradient "
           "that flows back through LN(x)·gain is d_out·gain",
         "gain missing in dx"),
        ("gain-uses-x", _ln_back("gain-uses-x"), "7.7",
         "d_gain uses x instead of the normalised x̂",
         "d_gain from x"),
        ("eps-ignored", _ln_back("eps-ignored"), "7.7",
         "the eps argument has no effect",
         "eps ignored"),
    ),
    "dec-3": _mistakes(
        "dec-3",
        ("first-layer-only", _dec3(history="first-layer"), "7.5",
         "only the first layer reads the stored history; later layers read the new position alone: every layer "
         "reads all positions in its own cache",
         "history read by layer 0 only"),
        ("position-zero", _dec3(position="zero"), "5.3",
         "the new token always gets row 0 of "
           "the position table: its position is n, the number of stored positions",
         "position reset to 0"),
        ("position-next", (_dec3(position="next"), _dec3(position="next-checked")), "5.3",
         "the position is off by one: the new token is at n, not "
           "n + 1",
         "position off by one"),
        ("shared-cache", _dec3(shared=True), "5.5",
         "every layer reads one cache (layer 0's): "
           "each layer has keys and values of its own",
         "one cache for all layers"),
        ("attends-before-append", (_dec3(append_first=False), _dec3(append_first="raise")), "5.1",
         "the new query does not read its own key and value: "
           "append first, then attend",
         "attended before appending"),
        ("wrapped", _dec3(position="wrap"), "5.4",
         "a position past the table wraps round to its "
           "start: raise a ValueError",
         "position wrapped"),
    ),
    "dec-4": _mistakes(
        "dec-4",
        ("no-control", _dec4(control=None), "4.4",
         "never returns \"blind\": the negative control (the same model without the mask) is not checked",
         "no negative control"),
        ("control-is-forward", _dec4(control="forward"), "4.4",
         "the negative control is the forward under test itself: the control is the same model without the "
         "mask (model.forward(ids, causal=False))",
         "the control is the model under test"),
        ("fixed-token", _dec4(future="zero"), "4.5",
         "the future is replaced by a fixed token: where the original tokens already are that token, the "
         "perturbation changes nothing; make every future token change (the next id, say)",
         "a fixed replacement token"),
        ("prefix-equals-T", _dec4(check="loose"), "4.3",
         "prefix_length = T is not "
           "refused: there is no future to change, so raise a ValueError",
         "accepted prefix_length = T"),
        ("with-position", _dec4(rows="with-position"), "4.3",
         "the compared rows include "
           "prefix_length itself, which reads a changed token",
         "one row too many compared"),
    ),
}

# Read from the comparison itself, for any exercise.
GENERIC = {
    "dtype-promoted": Mistake(
        "*/dtype-promoted", None,
        "the values are right, but a float32 input gave a float64 result: a float64 constant or array somewhere "
        "(np.float64, astype(float), np.zeros without a dtype) promoted it; the course's rule is float32 in, "
        "float32 out",
        "0.6", "float32 in, float64 out"),
    "argument-changed": Mistake(
        "*/argument-changed", None,
        "the function alters the caller's array: an in-place operation (x -= …, x[...] = …, np.add.at into an "
        "input, or changing an input taken for a copy) silently changes the caller's data and spoils every later "
        "use of it; the course's functions never change their inputs, so fix this first, then see whether the "
        "results are right",
        "0.6", "changed an input in place"),
}
for _generic in GENERIC.values():
    _REGISTERED[_generic.id] = _generic


def mistake_by_id(mistake_id):
    return _REGISTERED.get(mistake_id)


# --------------------------------------------------------------------------------------

_WRONG_OUTPUTS = {}          # id(case) -> (case, {mistake id: [output of each variant]})
_UNKNOWN = object()


def variants(mistake):
    """The wrong versions of a mistake: one function, or several that differ only where learners differ
    (an empty row refused or not, say)."""
    return mistake.wrong if isinstance(mistake.wrong, tuple) else (mistake.wrong,)


def _wrong_outputs(exercise, mistake, case):
    slot = _WRONG_OUTPUTS.get(id(case))
    if slot is None or slot[0] is not case:
        if len(_WRONG_OUTPUTS) > 20_000:
            _WRONG_OUTPUTS.clear()
        slot = _WRONG_OUTPUTS[id(case)] = (case, {})
    outputs = slot[1]
    if mistake.id not in outputs:
        values = []
        for wrong in variants(mistake):
            try:
                with np.errstate(all="ignore"):
                    values.append(_as_expected(exercise.call(wrong, case)))
            except Exception:  # noqa: BLE001 - a setup failure: this mistake cannot be judged on this case
                values = _UNKNOWN
                break
        outputs[mistake.id] = values
    return outputs[mistake.id]


def _as_expected(value):
    """A wrong version's output in the form expected values take (lists become tuples)."""
    if isinstance(value, (list, tuple)):
        return tuple(_as_expected(v) for v in value)
    return value


def _agrees(exercise, a, b):
    try:
        with np.errstate(all="ignore"):
            return bool(exercise.compare(a, b)[0])
    except Exception:  # noqa: BLE001
        return False


def _evidence_for(exercise, mistake, observations):
    """How many failed tests the mistake explains (0: it does not explain the results)."""
    seen = 0
    for case, expected, got, ok, _, _ in observations:
        wrong = _wrong_outputs(exercise, mistake, case)
        if wrong is _UNKNOWN:
            return 0
        right = [_agrees(exercise, expected, w) for w in wrong]
        if all(right):
            continue                                    # the tests cannot see this mistake here
        if ok:
            if not any(right):
                return 0                                # the mistake always shows here, the learner got it right
            continue
        if not any(_agrees(exercise, w, got) for w in wrong):
            return 0
        seen += 1
    failed = sum(1 for o in observations if not o[3])
    return seen if seen == failed else 0                # it must account for every failed test


def diagnose(exercise, observations):
    """The :class:`Mistake` that best explains a failed exercise, or None.

    ``observations``: ``[(case, expected, got, ok, reason, details)]``, one per test
    run (``got`` may be a ``Raised``).  See the module docstring for the rule."""
    failed = [o for o in observations if not o[3]]
    if not failed or all(o[4] in ("not_implemented", "setup_failed", "internal_error", "setup_in_kernel",
                                  "invalid_result") for o in failed):
        return None
    best, best_seen = None, 0
    for mistake in MISTAKES.get(exercise.id, ()):
        seen = _evidence_for(exercise, mistake, observations)
        if seen > best_seen:
            best, best_seen = mistake, seen
    if best is not None:
        return best
    # float32 in, float64 out: the dtype is the only complaint
    reasons = {o[4] for o in failed}
    if reasons == {"wrong_dtype"} and all(o[5].get("expected") == "float32" and o[5].get("got") == "float64"
                                          for o in failed):
        return GENERIC["dtype-promoted"]
    if reasons == {"argument_changed"}:
        return GENERIC["argument-changed"]
    return None


TEMPLATE = text("grading.diagnoses.template", "what this suggests: {text} (see §{section})")


def explain_mistake(mistake, lang):
    """The diagnosis sentence in ``lang``."""
    what = mistake.text.get(lang) or mistake.text["en"]
    return TEMPLATE.get(lang, TEMPLATE["en"]).format(text=what, section=mistake.section)


def short_name(mistake, lang):
    names = mistake.short or mistake.text
    return names.get(lang) or names["en"]
