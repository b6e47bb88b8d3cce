"""Known mistakes, recognised by what a function does: the "why" after a failed test.

For every exercise this module keeps the wrong versions learners actually
write (softmax before the mask, a reshape without a transpose, a cache that
restarts at position 0, ...), each with a sentence in zh, en and ru saying what
the numbers suggest and which section of the chapter explains it.  A learner's
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

from lib.data import BOS, EOS, IGNORE, encode

from .registry import L

__all__ = ["Mistake", "MISTAKES", "GENERIC", "diagnose", "explain_mistake", "mistake_by_id"]


@dataclass(frozen=True)
class Mistake:
    id: str                 # "mask-2/softmax-before-mask"
    wrong: object           # the wrong version, called like the exercise's function (None: generic)
    text: dict              # L(zh, en, ru): what the numbers suggest, without values
    section: str            # where the chapter explains it, e.g. "1.7"
    short: dict = None      # L(...): a few words for the class view ("normalised before masking")


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
         L("对角线被禁止了：查询不能读取它自己的键（`<` 写成了应为 `≤` 的地方）",
           "the diagonal is forbidden: a query may not read its own key (a `<` where `≤` belongs)",
           "диагональ запрещена: запрос не может читать собственный ключ (`<` там, где нужно `≤`)"),
         L("用了 < 而不是 ≤", "used < instead of ≤", "написали < вместо ≤")),
        ("top-left", _m1_top_left, "5.1",
         L("查询比键少时，掩码按左上角对齐了；最后一个查询应当对齐最后一个键（右下角对齐）",
           "with fewer queries than keys the mask is aligned top-left; the last query belongs to the last key "
           "(bottom-right alignment)",
           "когда запросов меньше, чем ключей, маска выровнена по левому верхнему углу, а последний запрос "
           "должен соответствовать последнему ключу (выравнивание по правому нижнему углу)"),
         L("按左上角对齐", "aligned top-left", "выровняли по левому верхнему углу")),
        ("inverted", _m1_inverted, "1.4",
         L("True 与 False 恰好反了：返回的是被禁止的未来（future），而不是许可集合（allowed）",
           "True and False are swapped: this is the forbidden future, not the allowed set",
           "True и False поменялись местами: это запрещённое будущее (future), а не разрешённое множество (allowed)"),
         L("返回了 future 而不是 allowed", "returned future instead of allowed", "вернули future вместо allowed")),
        ("one-ahead", _m1_one_ahead, "5.1",
         L("每个查询多读了一个未来的键：对齐偏了一格", "every query reads one key of the future: the alignment is off by one",
           "каждый запрос читает один ключ из будущего: выравнивание сдвинуто на одну позицию"),
         L("对齐偏了一格", "alignment off by one", "выравнивание сдвинуто на 1")),
        ("square", _m1_square, "5.1",
         L("结果总是 tq×tq：键的个数 tk 没有用上（缓存之后查询比键少）",
           "the result is always tq×tq: the number of keys tk is not used (after a cache there are fewer queries "
           "than keys)",
           "результат всегда tq×tq: число ключей tk не используется (после кэша запросов меньше, чем ключей)"),
         L("忽略了 tk", "ignored tk", "не учли tk")),
        ("numbers", (_m1_numbers, _m1_float_numbers), "1.4",
         L("取值对了，但返回的是 0/1 数字而不是布尔数组；掩码应当是 dtype=bool",
           "the values are right but they are 0/1 numbers, not booleans; a mask has dtype=bool",
           "значения верные, но это числа 0/1, а не логические значения; у маски dtype=bool"),
         L("返回数字而非布尔值", "numbers instead of booleans", "числа вместо логических значений")),
    ),
    "mask-2": _mistakes(
        "mask-2",
        ("softmax-before-mask", (_m2_softmax_first, _m2_softmax_first_refusing), "1.6",
         L("许可位置上的行和小于 1：看起来是先对所有键做了 softmax，再把未来置零；应当只在许可的键上归一化",
           "the allowed weights of a row sum to less than 1: the softmax seems to run over all keys and the future "
           "is zeroed afterwards; normalise over the allowed keys only",
           "разрешённые веса строки в сумме меньше 1: похоже, softmax посчитан по всем ключам, а будущее обнулено "
           "после; нормировать нужно только по разрешённым ключам"),
         L("先 softmax 后置零", "normalised before masking", "нормировали до маски")),
        ("no-max", (_m2_no_max, _m2_no_max_times_mask), "5.9",
         L("分数很大时出现 nan 或 inf：exp 之前没有减去行内（许可分数的）最大值，exp 溢出了",
           "large scores give nan or inf: the row's largest (allowed) score is not subtracted before exp, so exp "
           "overflows",
           "большие оценки дают nan или inf: перед exp не вычтена наибольшая (разрешённая) оценка строки, и exp "
           "переполняется"),
         L("exp 前没有减最大值", "no max subtraction", "нет вычитания максимума")),
        ("max-over-all", _m2_max_over_all, "1.6",
         L("当禁止位置上的分数远大于许可位置时结果出错：减去的最大值把禁止位置也算进去了，许可的 exp 全部下溢为 0；"
           "应当只取许可分数的最大值",
           "the result breaks when a forbidden score is far above the allowed ones: the maximum subtracted "
           "includes forbidden entries, so every allowed exp underflows to 0; take the maximum over allowed "
           "scores only",
           "результат ломается, когда запрещённая оценка намного больше разрешённых: вычитаемый максимум взят и "
           "по запрещённым позициям, и все разрешённые exp обращаются в 0; максимум нужно брать только по "
           "разрешённым оценкам"),
         L("最大值包含禁止位置", "max over forbidden entries", "максимум по запрещённым позициям")),
        ("finite-fill", _m2_finite_fill, "1.7",
         L("一行没有任何许可键时，函数返回了均匀的权重而不是报错：禁止位置填的是有限的大负数（如 −1e9），"
           "全被禁止的行就变成了平均分配",
           "a row with no allowed key comes back uniform instead of raising: forbidden scores are filled with a "
           "finite negative number (such as −1e9), and a row where everything is forbidden becomes an even split",
           "строка без разрешённых ключей возвращается равномерной вместо ошибки: запрещённые оценки заполнены "
           "конечным большим отрицательным числом (например, −1e9), и строка, где запрещено всё, делится поровну"),
         L("用 −1e9 填充", "a −1e9 fill", "заполнение −1e9")),
        ("empty-row-unchecked", _m2_unchecked, "1.7",
         L("一行没有任何许可键时得到 nan 而不是 ValueError：在计算之前检查每一行至少有一个许可键",
           "a row with no allowed key gives nan instead of a ValueError: check that every row allows at least "
           "one key before computing",
           "строка без разрешённых ключей даёт nan вместо ValueError: до вычисления проверьте, что в каждой "
           "строке разрешён хотя бы один ключ"),
         L("空行没有报错", "no error for an empty row", "нет ошибки для пустой строки")),
        ("zero-fill", _m2_zero_fill, "1.5",
         L("禁止位置仍然拿到了权重：把分数置为 0 并不能禁止一个键（exp(0) = 1）；禁止位置的分数应当是 −inf",
           "forbidden keys still get weight: a score of 0 forbids nothing (exp(0) = 1); forbidden scores must "
           "become −inf",
           "запрещённые ключи всё ещё получают вес: оценка 0 ничего не запрещает (exp(0) = 1); запрещённые "
           "оценки должны стать −inf"),
         L("分数置 0 当作禁止", "zero scores as the mask", "обнуление оценок вместо маски")),
        ("wrong-axis", (_m2_wrong_axis, _m2_first_axis), "1.1",
         L("每一列的和为 1，而不是每一行：softmax 沿错误的轴（查询轴）做了；应当沿最后一个轴（键）",
           "columns sum to 1 instead of rows: the softmax ran over the wrong axis (the queries); it belongs on "
           "the last axis (the keys)",
           "в сумме 1 дают столбцы, а не строки: softmax посчитан не по той оси (по запросам); нужна последняя "
           "ось (ключи)"),
         L("softmax 轴错了", "softmax over the wrong axis", "softmax не по той оси")),
    ),
    "mask-3": _mistakes(
        "mask-3",
        ("allclose", _m3_allclose, "1.1",
         L("行和的检验没有使用参数 atol：np.allclose 用的是它自己的相对容差，应当比较 |行和 − 1| ≤ atol",
           "the row-sum test ignores the atol argument: np.allclose applies its own relative tolerance; compare "
           "|row sum − 1| ≤ atol",
           "проверка сумм строк не использует аргумент atol: np.allclose применяет свой относительный допуск; "
           "сравнивайте |сумма строки − 1| ≤ atol"),
         L("用 allclose 忽略了 atol", "np.allclose instead of atol", "np.allclose вместо atol")),
        ("forbidden-within-atol", _m3_forbidden_within_atol, "1.6",
         L("禁止位置上很小但不为 0 的权重被接受了：禁止位置的权重必须恰好为 0，容差只用于行和",
           "a tiny non-zero weight on a forbidden entry is accepted: forbidden weights must be exactly 0; the "
           "tolerance is for row sums only",
           "крошечный ненулевой вес на запрещённой позиции принят: запрещённые веса должны быть ровно 0, допуск "
           "относится только к суммам строк"),
         L("禁止权重“小于 atol”即可", "forbidden weights below atol accepted", "запрещённые веса «меньше atol»")),
        ("no-negative-check", _m3_no_negative_check, "1.1",
         L("负权重被接受了：行和为 1 还不够，每个权重都必须 ≥ 0",
           "a negative weight is accepted: a row summing to 1 is not enough, every weight must be ≥ 0",
           "отрицательный вес принят: суммы строки, равной 1, недостаточно, каждый вес должен быть ≥ 0"),
         L("没有检查负权重", "no check for negative weights", "нет проверки отрицательных весов")),
        ("no-row-sum", _m3_no_sum_check, "1.6",
         L("行和不为 1 的权重被接受了（例如先 softmax 再置零的结果）：还要检查每行之和在 atol 之内等于 1",
           "weights whose rows do not sum to 1 are accepted (softmax first, zeros after, for instance): also check "
           "that every row sums to 1 within atol",
           "веса, строки которых не дают в сумме 1, приняты (например, «сначала softmax, потом обнуление»): "
           "проверьте ещё, что каждая строка в пределах atol даёт 1"),
         L("没有检查行和", "no row-sum check", "нет проверки сумм строк")),
        ("no-forbidden-check", _m3_no_forbidden_check, "1.4",
         L("未来位置上的权重被接受了：还要检查每个禁止位置的权重恰好为 0",
           "weight on future entries is accepted: also check that every forbidden weight is exactly 0",
           "веса на будущих позициях приняты: проверьте ещё, что каждый запрещённый вес равен ровно 0"),
         L("没有检查禁止位置", "no check of forbidden entries", "нет проверки запрещённых позиций")),
        ("exact-sum", _m3_exact_sum, "1.1",
         L("只差舍入误差的正确权重被拒绝了：行和要在 atol 之内与 1 比较，而不是用 ==",
           "correct weights that differ only by rounding are rejected: compare row sums with 1 within atol, not "
           "with ==",
           "правильные веса, отличающиеся лишь ошибкой округления, отвергнуты: суммы строк сравнивают с 1 в "
           "пределах atol, а не через =="),
         L("行和用 == 比较", "row sums compared with ==", "суммы сравнивают через ==")),
        ("positive-allowed", _m3_positive_allowed, "1.4",
         L("许可键上恰好为 0 的权重被拒绝了：许可只是“可以读取”，权重为 0 也合法",
           "an exact 0 on an allowed key is rejected: allowed means the key may be read, and a weight of 0 is "
           "still valid",
           "ровно 0 на разрешённом ключе отвергнут: «разрешён» значит «можно читать», и вес 0 тоже допустим"),
         L("要求许可权重为正", "demands positive allowed weights", "требуют положительных разрешённых весов")),
    ),
    "data-1": _mistakes(
        "data-1",
        ("no-eos-target", _d1_no_eos_target, "1.2",
         L("文本之后的 EOS 没有作为目标计分（那里是 −100）：模型就学不会在哪里停止",
           "the EOS after each text is not a scored target (it is −100 there): the model never learns where to stop",
           "EOS после текста не учитывается как целевая метка (там стоит −100): модель не научится "
           "останавливаться"),
         L("EOS 目标被忽略", "the EOS target ignored", "цель EOS пропущена")),
        ("not-shifted", _d1_not_shifted, "1.2",
         L("目标没有错开一位：位置 t 的目标应当是下一个词元（inputs 去掉 BOS，再接上 EOS）",
           "the targets are not shifted: the target at position t is the next token (the inputs without BOS, "
           "followed by EOS)",
           "целевые метки не сдвинуты: в позиции t цель — следующий токен (входы без BOS, затем EOS)"),
         L("目标没有错位", "targets not shifted", "цели не сдвинуты")),
        ("left-padding", _d1_left, "1.10",
         L("填充放在了左边：本章约定右填充，真实词元从位置 0（BOS）开始",
           "the padding is on the left: the chapter pads on the right, and the real tokens start at position 0 (BOS)",
           "дополнение стоит слева: в разделе дополняют справа, настоящие токены начинаются с позиции 0 (BOS)"),
         L("左填充", "left padding", "дополнение слева")),
        ("pad-targets-eos", _d1_pad_targets_eos, "1.8",
         L("填充位置的目标是 EOS 而不是 −100：填充位置会被计入损失",
           "the padded positions have EOS as target instead of −100: padding enters the loss",
           "у позиций дополнения цель EOS вместо −100: дополнение попадает в функцию потерь"),
         L("填充目标不是 −100", "padding targets not −100", "цели дополнения не −100")),
        ("pad-inputs-ignore", _d1_pad_inputs_ignore, "1.8",
         L("输入的填充是 −100：−100 只用于目标；输入的填充是 EOS（一个真实的词元编号）",
           "the inputs are padded with −100: −100 marks targets only; inputs are padded with EOS (a real token id)",
           "входы дополнены значением −100: −100 бывает только у целевых меток, а входы дополняют токеном EOS "
           "(настоящим номером токена)"),
         L("输入用 −100 填充", "inputs padded with −100", "входы дополнены −100")),
        ("no-bos", _d1_no_bos, "1.2",
         L("输入没有以 BOS 开头：每一行的位置 0 是 BOS，第一个字符的目标要由它来预测",
           "the inputs do not start with BOS: position 0 of every row is BOS, which predicts the first character",
           "входы не начинаются с BOS: в позиции 0 каждой строки стоит BOS, по нему предсказывается первый символ"),
         L("缺少 BOS", "no BOS", "нет BOS")),
        ("empty-accepted", _d1_empty_accepted, "1.2",
         L("空文本被接受了：没有字符的文本应当抛出 ValueError",
           "an empty text is accepted: a text without characters must raise a ValueError",
           "пустой текст принят: текст без символов должен вызывать ValueError"),
         L("接受了空文本", "accepted an empty text", "принят пустой текст")),
    ),
    "heads-1": _mistakes(
        "heads-1",
        ("reshape-only", _h1_reshape_only, "2.2",
         L("形状对了，内容错了：直接 reshape 成 (..., H, T, d) 把不同位置的特征混进了同一个头；先 reshape 成 "
           "(..., T, H, d)，再交换 T 与 H 两个轴",
           "the shape is right and the contents are wrong: a direct reshape to (..., H, T, d) mixes features of "
           "different positions in one head; reshape to (..., T, H, d) first, then swap the T and H axes",
           "форма верная, содержимое нет: прямой reshape в (..., H, T, d) смешивает в одной голове признаки "
           "разных позиций; сначала reshape в (..., T, H, d), затем поменяйте местами оси T и H"),
         L("只 reshape 没有转置", "reshape without transpose", "reshape без транспонирования")),
        ("interleaved", _h1_interleaved, "2.2",
         L("头是按间隔取的特征（h, h+H, …）：第 h 个头的第 a 个坐标应当是特征 h·d + a，即连续的一段",
           "the heads take every H-th feature (h, h+H, …): coordinate a of head h is feature h·d + a, a "
           "contiguous block",
           "головы берут каждый H-й признак (h, h+H, …), а координата a головы h — это признак h·d + a, "
           "непрерывный отрезок"),
         L("特征交错分配", "interleaved features", "признаки через один")),
        ("no-swap", _h1_no_swap, "2.2",
         L("结果是 (..., T, H, d)：还要交换 T 与 H 两个轴，得到 (..., H, T, d)",
           "the result is (..., T, H, d): the T and H axes still need swapping to give (..., H, T, d)",
           "результат имеет форму (..., T, H, d): оси T и H ещё нужно поменять местами, чтобы получить (..., H, T, d)"),
         L("缺少轴交换", "axes not swapped", "оси не переставлены")),
        ("fixed-rank", _h1_fixed_rank, "2.2",
         L("函数只接受三维输入 (B, T, D)：签名是 (..., T, D)，没有批量轴或有多个批量轴也要能用（用负的轴号）",
           "the function handles 3-D input (B, T, D) only: the signature is (..., T, D), so no batch axis or "
           "several must work too (use negative axes)",
           "функция работает только с трёхмерным входом (B, T, D), а сигнатура — (..., T, D): вход без оси "
           "батча или с несколькими осями тоже должен работать (используйте отрицательные номера осей)"),
         L("只支持固定维数", "fixed number of axes", "фиксированное число осей")),
    ),
    "heads-2": _mistakes(
        "heads-2",
        ("reshape-only", _h2_reshape_only, "2.4",
         L("形状对了，内容错了：直接 reshape 把不同位置的值拼在了一起；先交换 H 与 T 两个轴，再合并最后两个轴",
           "the shape is right and the contents are wrong: a direct reshape glues values of different positions "
           "together; swap the H and T axes first, then merge the last two",
           "форма верная, содержимое нет: прямой reshape склеивает значения разных позиций; сначала поменяйте "
           "местами оси H и T, затем объедините две последние оси"),
         L("只 reshape 没有转置", "reshape without transpose", "reshape без транспонирования")),
        ("fixed-rank", _h2_fixed_rank, "2.4",
         L("函数只对四维输入 (B, H, T, d) 正确：签名是 (..., H, T, d)，缓存步骤用的三维 (H, T, d) 和更多批量轴"
           "也要能用（用负的轴号）",
           "the function is right for 4-D input (B, H, T, d) only: the signature is (..., H, T, d), and the 3-D "
           "(H, T, d) the cache step uses, or more batch axes, must work too (use negative axes)",
           "функция верна только для четырёхмерного входа (B, H, T, d), а сигнатура — (..., H, T, d): трёхмерный "
           "(H, T, d), как в шаге с кэшем, и дополнительные оси батча тоже должны работать (используйте "
           "отрицательные номера осей)"),
         L("只支持四维输入", "4-D input only", "только четырёхмерный вход")),
        ("interleaved", _h2_interleaved, "2.4",
         L("各头的坐标交错排列了：合并后第 h 个头应当占据连续的特征 h·d … h·d + d − 1",
           "the heads' coordinates are interleaved: after merging, head h occupies the contiguous features "
           "h·d … h·d + d − 1",
           "координаты голов перемешаны: после склейки голова h занимает непрерывный отрезок признаков "
           "h·d … h·d + d − 1"),
         L("合并顺序交错", "interleaved merge", "склейка через один")),
        ("summed", _h2_summed, "2.1",
         L("各头被相加而不是拼接：合并后的宽度应当是 H·d",
           "the heads are added up instead of concatenated: the merged width is H·d",
           "головы сложены, а не склеены: ширина после склейки равна H·d"),
         L("把头相加", "heads summed", "головы сложены")),
    ),
    "heads-3": _mistakes(
        "heads-3",
        ("no-w-o", _mha(w_o_on=False), "2.4",
         L("输出等于拼接后的各头本身：最后没有乘 W_O", "the output is the concatenated heads themselves: W_O is "
           "missing at the end", "выход совпадает со склеенными головами: в конце нет умножения на W_O"),
         L("忘了 W_O", "forgot W_O", "забыли W_O")),
        ("scale-by-D", _mha(scale="D"), "2.3",
         L("分数除以了 √D 而不是 √d：每个头按自己的宽度 d = D/H 缩放",
           "the scores are divided by √D instead of √d: every head scales by its own width d = D/H",
           "оценки делятся на √D вместо √d: каждая голова масштабируется по своей ширине d = D/H"),
         L("用 √D 缩放", "scaled by √D", "масштаб √D")),
        ("no-scale", _mha(scale="none"), "2.3",
         L("分数没有除以 √d", "the scores are not divided by √d", "оценки не поделены на √d"),
         L("没有缩放", "no scaling", "нет масштаба")),
        ("no-mask", _mha(mask="none"), "1.4",
         L("每个位置都读取了未来：没有因果掩码", "every position reads the future: the causal mask is missing",
           "каждая позиция читает будущее: нет причинной маски"),
         L("没有掩码", "no mask", "нет маски")),
        ("diagonal-hidden", _mha(mask="strict"), "1.7",
         L("第一行是 nan：掩码把对角线也禁止了（`<` 写成了应为 `≤` 的地方），第一个位置没有任何可读的键",
           "the first row is nan: the mask forbids the diagonal as well (a `<` where `≤` belongs), so the first "
           "position has no key to read",
           "первая строка — nan: маска запрещает и диагональ (`<` там, где нужно `≤`), и первой позиции нечего читать"),
         L("对角线被禁止", "diagonal forbidden", "диагональ запрещена")),
        ("reshape-only", _mha(split="reshape"), "2.2",
         L("拆分头时只用了 reshape 没有转置，不同位置的特征进了同一个头",
           "the heads are split by a reshape without a transpose, so features of different positions land in "
           "one head", "головы разбиты через reshape без транспонирования, и признаки разных позиций попали в "
           "одну голову"),
         L("拆分没有转置", "split without transpose", "разбиение без транспонирования")),
        ("wrong-axis", _mha(axis=-2), "1.1",
         L("softmax 沿查询轴做了，而不是沿键轴（最后一个轴）", "the softmax runs over the queries instead of the "
           "keys (the last axis)", "softmax посчитан по запросам, а не по ключам (последней оси)"),
         L("softmax 轴错了", "softmax over the wrong axis", "softmax не по той оси")),
        ("one-head", _one_head, "2.1",
         L("结果像是只有一个头的注意力：没有按 n_heads 把宽度拆成 H 个头",
           "the result looks like single-head attention: the width is not split into n_heads heads",
           "результат похож на внимание с одной головой: ширина не разбита на n_heads голов"),
         L("当成一个头", "treated as one head", "одна голова вместо H")),
    ),
    "cost-1": _mistakes(
        "cost-1",
        ("keys-only", _costs(keys_and_values=1), "5.6",
         L("KV 缓存的字节数正好少了一半：键和值要各存一份（因子 2）",
           "the KV-cache bytes are exactly half: keys and values are both stored (a factor of 2)",
           "байтов KV-кэша ровно вдвое меньше: хранятся и ключи, и значения (множитель 2)"),
         L("缓存漏了因子 2", "KV cache missing the factor 2", "в кэше нет множителя 2")),
        ("three-matrices", _costs(matrices=3), "2.6",
         L("参数个数是 3·D² 每层：W_O 也是一个 D×D 矩阵（共 4·D²）",
           "the parameters count 3·D² per layer: W_O is a D×D matrix too (4·D² in all)",
           "параметров по 3·D² на слой, а W_O — тоже матрица D×D (всего 4·D²)"),
         L("参数漏了 W_O", "W_O not counted", "не учтена W_O")),
        ("fixed-itemsize", _costs(itemsize=4), "5.6",
         L("字节数与 dtype 无关：每个元素的字节数取决于 dtype（float16 为 2，float32 为 4，float64 为 8）",
           "the bytes do not depend on the dtype: each element takes the dtype's itemsize (2 for float16, 4 for "
           "float32, 8 for float64)",
           "число байтов не зависит от dtype, а элемент занимает itemsize своего dtype (2 для float16, 4 для "
           "float32, 8 для float64)"),
         L("忽略了 dtype", "dtype ignored", "dtype не учтён")),
        ("elements", _costs(itemsize=1), "5.6",
         L("KV 缓存数的是元素个数而不是字节数：还要乘以每个元素的字节数",
           "the KV cache counts elements, not bytes: multiply by the itemsize", "для KV-кэша посчитаны "
           "элементы, а не байты: умножьте на itemsize"),
         L("数了元素而非字节", "elements, not bytes", "элементы вместо байтов")),
        ("one-layer-cache", _costs(layers_in_kv=False), "5.6",
         L("KV 缓存只算了一层：每一层都有自己的缓存", "the KV cache counts one layer: every layer has a cache of "
           "its own", "KV-кэш посчитан для одного слоя, а свой кэш есть у каждого слоя"),
         L("缓存只算一层", "cache for one layer", "кэш одного слоя")),
        ("one-head-cache", _costs(heads_in_kv=False), "5.6",
         L("KV 缓存只算了一个头的宽度 d：所有头合起来是 H·d = D",
           "the KV cache counts one head's width d: all heads together are H·d = D",
           "KV-кэш посчитан по ширине одной головы d, а все головы вместе дают H·d = D"),
         L("缓存只算一个头", "cache for one head", "кэш одной головы")),
        ("zero-layers", _costs(refuse_zero=False), "2.6",
         L("n_layers = 0 没有报错：没有层的模型不是一个有效的输入，应当抛出 ValueError",
           "n_layers = 0 is not refused: a model without layers is not a valid input, raise a ValueError",
           "n_layers = 0 не отвергнуто: модель без слоёв — недопустимый вход, нужна ошибка ValueError"),
         L("接受了 0 层", "accepted 0 layers", "принят 0 слоёв")),
    ),
    "pos-1": _mistakes(
        "pos-1",
        ("no-offset", (_p1_no_offset, _p1_no_offset_checked), "3.1",
         L("offset 没有起作用：位置总是从第 0 行开始；缓存之后第一个新词元的位置是 offset",
           "the offset has no effect: positions always start at row 0; after a cache the first new token is at "
           "position offset",
           "смещение ни на что не влияет: позиции всегда начинаются со строки 0, а после кэша первый новый "
           "токен стоит в позиции offset"),
         L("忽略了 offset", "offset ignored", "offset не учтён")),
        ("wrapped", _p1_wrapped, "3.3",
         L("超出位置表的位置被绕回到了开头（取模）：位置表之外的位置没有学过的向量，应当抛出 ValueError",
           "positions past the table wrap round to its start (modulo): a position beyond the table has no "
           "learned vector, so raise a ValueError",
           "позиции за концом таблицы заворачиваются к её началу (по модулю), но у позиции вне таблицы нет "
           "обученного вектора: нужна ошибка ValueError"),
         L("位置取模绕回", "positions wrapped", "позиции по модулю")),
        ("clipped", _p1_clipped, "3.3",
         L("超出位置表的位置都用了最后一行（截断）：这些位置没有学过的向量，应当抛出 ValueError",
           "positions past the table all use its last row (clipped): they have no learned vector, so raise a "
           "ValueError",
           "все позиции за концом таблицы получают её последнюю строку (обрезка), но обученного вектора у них "
           "нет: нужна ошибка ValueError"),
         L("位置被截断", "positions clipped", "позиции обрезаны")),
        ("position-by-id", _p1_by_id, "3.1",
         L("位置表是按词元编号索引的：应当按位置 offset … offset+T−1 取行",
           "the position table is indexed by token id: take rows offset … offset+T−1 by position",
           "таблица позиций индексирована номерами токенов, а строки нужно брать по позициям offset … offset+T−1"),
         L("按词元编号取位置", "positions by token id", "позиции по номерам токенов")),
    ),
    "pos-2": _mistakes(
        "pos-2",
        ("assignment", _pos2(scatter="assign"), "3.2",
         L("重复出现的词元只留下了一份梯度：d_token[ids] += … 在编号重复时不会累加；用 np.add.at 做散射累加",
           "a token that occurs several times keeps only one gradient: d_token[ids] += … does not add up repeated "
           "ids; scatter-add with np.add.at",
           "у повторяющегося токена остаётся только один вклад градиента: d_token[ids] += … не складывает "
           "повторы; используйте накопление np.add.at"),
         L("赋值而非散射累加", "assignment instead of scatter-add", "присваивание вместо накопления")),
        ("last-sequence", _pos2(positions="last"), "3.2",
         L("位置表的梯度只来自批量中的一条序列：所有序列共用这些位置行，梯度要在批量轴上求和",
           "the position gradient comes from one sequence of the batch: every sequence shares those rows, so sum "
           "over the batch axis",
           "градиент таблицы позиций взят из одной последовательности батча, а эти строки общие для всех: "
           "суммируйте по оси батча"),
         L("位置梯度没有按批量求和", "position gradient not summed over the batch",
           "градиент позиций не просуммирован по батчу")),
        ("no-offset", _pos2(shift=False), "3.2",
         L("位置梯度写在了第 0 … T−1 行：前向用的是第 offset … offset+T−1 行",
           "the position gradient lands in rows 0 … T−1: the forward pass used rows offset … offset+T−1",
           "градиент позиций записан в строки 0 … T−1, а прямой проход использовал строки offset … offset+T−1"),
         L("忽略了 offset", "offset ignored", "offset не учтён")),
        ("averaged", _p2_averaged, "3.2",
         L("重复词元的梯度被平均了：每次出现都各自贡献一份梯度，应当相加而不是取平均",
           "the gradient of a repeated token is averaged: every occurrence contributes its own gradient, to be "
           "added up, not averaged",
           "градиент повторяющегося токена усреднён, а каждое вхождение вносит свой вклад, и вклады нужно "
           "складывать, а не усреднять"),
         L("梯度取了平均", "gradient averaged", "градиент усреднён")),
        ("wrapped", _pos2(check=False, wrap=True), "3.3",
         L("超出位置表的位置被绕回了开头而没有报错：应当抛出 ValueError",
           "positions past the table wrap round instead of raising: raise a ValueError",
           "позиции за концом таблицы заворачиваются к началу вместо ошибки: нужна ошибка ValueError"),
         L("位置取模绕回", "positions wrapped", "позиции по модулю")),
    ),
    "pos-3": _mistakes(
        "pos-3",
        ("whole-output", _pos3(rows="all"), "3.4",
         L("比较的是全部输出，而不是最后一行：交换本身就会改变 i、j 两行，检验的只是最后一行",
           "the whole output is compared, not the last row: the swap itself moves rows i and j; the test is "
           "about the last row",
           "сравнивается весь выход, а не последняя строка: сама перестановка меняет строки i и j, а тест — "
           "про последнюю строку"),
         L("比较了全部输出", "compared the whole output", "сравнили весь выход")),
        ("same-position", _pos3(refuse_same=False), "3.4",
         L("i == j 没有报错：把一个词元和它自己交换什么也没改变，检验就没有意义，应当抛出 ValueError",
           "i == j is not refused: swapping a token with itself changes nothing and tests nothing; raise a "
           "ValueError",
           "i == j не отвергнуто: перестановка токена с самим собой ничего не меняет и ничего не проверяет; "
           "нужна ошибка ValueError"),
         L("接受了与自身交换", "accepted a swap with itself", "принята перестановка с самим собой")),
        ("last-position", _pos3(refuse_last=False), "3.4",
         L("交换涉及最后一个位置却没有报错：那样会改变最后的查询本身", "a swap involving the last position is not "
           "refused: it changes the last query itself", "перестановка с последней позицией не отвергнута, а она "
           "меняет сам последний запрос"),
         L("接受了最后一个位置", "accepted the last position", "принята последняя позиция")),
        ("batch-rows", _pos3(rows="batch-rows"), "3.4",
         L("在批量里交换的是两条序列（第一个轴），而不是每条序列中的两个位置（最后一个轴）",
           "in a batch two sequences are swapped (the first axis) instead of two positions in every sequence "
           "(the last axis)",
           "в батче переставлены две последовательности (первая ось), а не две позиции в каждой "
           "последовательности (последняя ось)"),
         L("交换了批量中的序列", "swapped sequences of the batch", "переставлены последовательности батча")),
        ("signed", _pos3(reduce="signed"), "3.4",
         L("变化没有取绝对值：要报告的是最大的绝对变化", "the change is not taken in absolute value: report the "
           "largest absolute change", "изменение взято без модуля, а нужно наибольшее абсолютное изменение"),
         L("没有取绝对值", "no absolute value", "нет модуля")),
        ("sum", _pos3(reduce="sum"), "3.4",
         L("返回的是变化之和，而不是最大的绝对变化", "the changes are summed instead of taking the largest "
           "absolute change", "изменения просуммированы, а нужно наибольшее абсолютное изменение"),
         L("求和而非最大值", "sum instead of max", "сумма вместо максимума")),
    ),
    "causal-1": _mistakes(
        "causal-1",
        ("one-token", (_causal1(future="one"), _causal1(future="one-raw")), "4.3",
         L("只替换了 position 处的一个词元：检验应当改变从 position 起的整个未来",
           "only the token at position is replaced: the test changes the whole future from position on",
           "заменён только токен в позиции position, а тест меняет всё будущее начиная с position"),
         L("只扰动一个词元", "perturbed one token only", "возмущён один токен")),
        ("starts-early", _causal1(future="early"), "4.3",
         L("扰动从 position − 1 开始了：被比较的前缀自己也变了，因果模型也会显得“泄漏”",
           "the perturbation starts at position − 1: the compared prefix changes itself, so even a causal model "
           "seems to leak",
           "возмущение начинается с position − 1: меняется сам сравниваемый префикс, и даже причинная модель "
           "выглядит «протекающей»"),
         L("扰动提前了一格", "perturbation one too early", "возмущение на позицию раньше")),
        ("with-position", _causal1(rows="with-position"), "4.3",
         L("比较的行包括了 position 本身：那一行读到的是被改变的词元，应当只比较第 0 … position−1 行",
           "the compared rows include position itself, which reads the changed token; compare rows "
           "0 … position−1 only",
           "среди сравниваемых строк есть сама позиция position, а она читает изменённый токен; сравнивайте "
           "только строки 0 … position−1"),
         L("比较行多了一行", "one row too many compared", "сравнивается лишняя строка")),
        ("all-rows", _causal1(rows="all"), "4.3",
         L("比较了全部输出行，包括未来的行：只有前缀的行应当保持不变",
           "every output row is compared, future rows included: only the prefix rows must stay unchanged",
           "сравниваются все строки выхода, включая будущие, а неизменными должны оставаться только строки "
           "префикса"),
         L("比较了全部行", "compared all rows", "сравнили все строки")),
        ("fixed-token", _causal1(future="fixed"), "4.5",
         L("未来被换成了一个固定的词元，而不是参数 replacement：固定词元可能恰好等于原来的词元，扰动就什么也没改变",
           "the future is replaced by a fixed token instead of the replacement argument: a fixed token may equal "
           "the original one, and then the perturbation changes nothing",
           "будущее заменено фиксированным токеном вместо аргумента replacement: он может совпасть с исходным, "
           "и тогда возмущение ничего не меняет"),
         L("用了固定的替换词元", "a fixed replacement token", "фиксированный токен замены")),
        ("last-prefix-row", _causal1(rows="last"), "4.3",
         L("只比较了前缀的最后一行：泄漏可能只出现在更早的行，要比较第 0 … position−1 的每一行",
           "only the last prefix row is compared: a leak may show in earlier rows only; compare every row "
           "0 … position−1",
           "сравнивается только последняя строка префикса, а утечка может проявиться лишь в более ранних "
           "строках; сравнивайте все строки 0 … position−1"),
         L("只比较最后一行", "compared the last row only", "сравнили только последнюю строку")),
        ("signed", _causal1(reduce="signed"), "4.3",
         L("变化没有取绝对值：负方向的变化也是变化", "the change is not taken in absolute value: a change "
           "downwards is a change too", "изменение взято без модуля, а изменение вниз — тоже изменение"),
         L("没有取绝对值", "no absolute value", "нет модуля")),
    ),
    "causal-2": _mistakes(
        "causal-2",
        ("no-control", _causal2(with_control=False), "4.4",
         L("从不返回 \"blind\"：没有用阴性对照检查这个检验能否看见泄漏",
           "never returns \"blind\": the negative control that shows the test can see a leak is not used",
           "никогда не возвращает \"blind\": отрицательный контроль, показывающий, что тест способен увидеть "
           "утечку, не используется"),
         L("没有阴性对照", "no negative control", "нет отрицательного контроля")),
        ("control-first", _causal2(order="control-first"), "4.4",
         L("对照看不见变化时，即使被检验的模型泄漏也返回了 \"blind\"：先检验模型本身，泄漏就是泄漏",
           "when the control sees nothing the verdict is \"blind\" even though the model under test leaks: test "
           "the model first; a leak is a leak",
           "когда контроль ничего не видит, вердикт «blind», хотя проверяемая модель протекает: сначала "
           "проверьте саму модель — утечка есть утечка"),
         L("先看对照", "control checked first", "сначала контроль")),
        ("ignores-tol", _causal2(use_tol=False), "4.3",
         L("没有使用参数 tol：小于容差的变化不应算作泄漏", "the tol argument is not used: a change within the "
           "tolerance is not a leak", "аргумент tol не используется: изменение в пределах допуска — не утечка"),
         L("忽略了 tol", "tol ignored", "tol не учтён")),
        ("position-unchecked", _causal2(check=False), "4.3",
         L("position = T 没有报错：那时没有可改变的未来，检验什么也没做；position 必须在 1 … T−1 之内，否则抛出 ValueError",
           "position = T is not refused: there is no future to change and the test does nothing; position must "
           "lie in 1 … T−1, otherwise raise a ValueError",
           "position = T не отвергнуто: будущего для изменения нет, и тест ничего не делает; position должно "
           "лежать в 1 … T−1, иначе нужна ошибка ValueError"),
         L("接受了 position=T", "accepted position=T", "принято position=T")),
    ),
    "causal-3": _mistakes(
        "causal-3",
        ("one-token", _causal3(future="one"), "4.3",
         L("每个 p 只替换了一个词元：应当把从 p 起的全部词元都换掉", "each p replaces one token only: every token "
           "from p on must be replaced", "для каждого p заменён один токен, а нужно заменить все токены начиная с p"),
         L("只扰动一个词元", "perturbed one token only", "возмущён один токен")),
        ("shifted", _causal3(start=0, refuse_short=True), "4.3",
         L("结果错开了一个位置：第 p−1 项对应位置 p（p 从 1 开始）", "the entries are shifted by one: entry p−1 "
           "belongs to position p (p starts at 1)", "элементы сдвинуты на одну позицию: элемент p−1 относится к "
           "позиции p (p начинается с 1)"),
         L("位置错开一位", "positions shifted by one", "позиции сдвинуты на 1")),
        ("all-rows", _causal3(rows="all"), "4.3",
         L("比较了全部输出行：只有 p 之前的行应当保持不变", "every output row is compared: only the rows before p "
           "must stay unchanged", "сравниваются все строки, а неизменными должны оставаться только строки до p"),
         L("比较了全部行", "compared all rows", "сравнили все строки")),
        ("single-position", _causal3(refuse_short=False), "4.3",
         L("只有一个位置时没有报错：那时没有可扫描的位置，应当抛出 ValueError", "a single position is not refused: "
           "there is nothing to sweep, so raise a ValueError", "одна позиция не отвергнута: перебирать нечего, "
           "нужна ошибка ValueError"),
         L("接受了一个位置", "accepted one position", "принята одна позиция")),
        ("in-place", _sweep_in_place, "4.3",
         L("扰动是在同一个数组上累积的：每个 p 都应当从原来的 ids 重新开始（先 copy）",
           "the perturbations accumulate in one array: every p must start again from the original ids (copy "
           "first)", "возмущения накапливаются в одном массиве, а каждое p должно начинаться с исходных ids "
           "(сначала copy)"),
         L("在原数组上修改", "changed ids in place", "ids изменены на месте")),
    ),
    "causal-4": _mistakes(
        "causal-4",
        ("over-time", (_norm(axis=-2), _norm(axis=0)), "4.7",
         L("沿时间轴（位置）做了归一化：均值和方差应当取自每个位置自己的特征（最后一个轴）",
           "the normalisation runs over time (the positions): the mean and variance come from each position's own "
           "features (the last axis)",
           "нормализация идёт по времени (по позициям), а среднее и дисперсию нужно брать по признакам каждой "
           "позиции (последняя ось)"),
         L("沿时间归一化", "normalised over time", "нормализация по времени")),
        ("eps-outside", _norm(eps_inside=False), "4.7",
         L("eps 加在了开方之外：应当是 (x − μ) / √(σ² + eps)", "eps is added outside the square root: it is "
           "(x − μ) / √(σ² + eps)", "eps прибавлен вне корня, а нужно (x − μ) / √(σ² + eps)"),
         L("eps 在根号外", "eps outside the root", "eps вне корня")),
        ("unbiased", _norm(ddof=1), "4.7",
         L("方差除以了 D − 1：这里的方差是总体方差，除以 D", "the variance is divided by D − 1: this is the "
           "population variance, divided by D", "дисперсия поделена на D − 1, а здесь нужна дисперсия по "
           "совокупности, деление на D"),
         L("方差除以 D−1", "variance over D−1", "дисперсия на D−1")),
        ("eps-ignored", _norm(fixed_eps=True), "4.7",
         L("参数 eps 没有起作用", "the eps argument has no effect", "аргумент eps ни на что не влияет"),
         L("忽略了 eps", "eps ignored", "eps не учтён")),
        ("variance", _norm(power=1.0), "4.7",
         L("除以了方差而不是标准差", "divided by the variance instead of the standard deviation",
           "деление на дисперсию вместо стандартного отклонения"),
         L("除以方差", "divided by the variance", "деление на дисперсию")),
    ),
    "cache-1": _mistakes(
        "cache-1",
        ("padding-in-cache", _cache1(prefix="row"), "5.7",
         L("填充位置也进了缓存：新词元落在了整行之后，而不是真实前缀之后；每一行只送入目标不是 −100 的位置",
           "the padding went into the cache: the new token lands after the whole row instead of after the real "
           "prefix; feed each row only the positions whose target is not −100",
           "в кэш попало дополнение: новый токен встаёт после всей строки, а не после настоящего префикса; "
           "подавайте в каждую строку только позиции, у которых цель не −100"),
         L("填充进了缓存", "padding fed into the cache", "дополнение в кэше")),
        ("shared-cache", _cache1(shared=True), "5.7",
         L("所有行共用了一个缓存：每一行都是独立的一段文本，需要自己的缓存", "every row shares one cache: each row "
           "is a text of its own and needs a cache of its own", "все строки делят один кэш, а каждая строка — "
           "отдельный текст, и ей нужен свой кэш"),
         L("各行共用缓存", "one cache for all rows", "один кэш на все строки")),
        ("short-prefix", _cache1(prefix="short"), "5.7",
         L("真实前缀少送了一个词元：真实位置是目标不为 −100 的全部位置",
           "one token of the real prefix is missing: the real positions are all those whose target is not −100",
           "не подан один токен настоящего префикса: настоящие позиции — все, у которых цель не −100"),
         L("前缀少了一个", "prefix one short", "префикс короче на 1")),
        ("skips-bos", _cache1(skip_bos=True), "5.7",
         L("没有把 BOS 送入缓存：位置 0 的 BOS 也是真实前缀的一部分", "BOS is not fed into the cache: the BOS at "
           "position 0 is part of the real prefix", "BOS не подан в кэш, а BOS в позиции 0 — часть настоящего "
           "префикса"),
         L("跳过了 BOS", "skipped BOS", "пропущен BOS")),
        ("last-prefix-output", _cache1(output="last"), "5.7",
         L("返回的是前缀最后一个词元的输出，而不是新词元的输出", "the output returned is the last prefix token's, "
           "not the new token's", "возвращён выход последнего токена префикса, а не нового токена"),
         L("返回了前缀的输出", "returned the prefix output", "вернули выход префикса")),
    ),
    "cache-2": _mistakes(
        "cache-2",
        ("attends-before-append", (_cache2(append_first=False), _cache2(append_first="raise")), "5.1",
         L("新查询没有读取它自己的键和值：先把新的 k、v 接到缓存末尾，再做注意力（缓存为空时第一个词元只能读自己）",
           "the new query does not read its own key and value: append the new k and v to the cache first, then "
           "attend (with an empty cache the first token can read only itself)",
           "новый запрос не читает собственные ключ и значение: сначала допишите новые k и v в кэш, затем "
           "считайте внимание (при пустом кэше первый токен может читать только себя)"),
         L("先注意力后追加", "attended before appending", "внимание до дописывания")),
        ("no-scale", _cache2(scale="none"), "2.3",
         L("分数没有除以 √d", "the scores are not divided by √d", "оценки не поделены на √d"),
         L("没有缩放", "no scaling", "нет масштаба")),
        ("scale-by-D", _cache2(scale="D"), "2.3",
         L("分数除以了 √D 而不是 √d：每个头按自己的宽度 d = D/H 缩放", "the scores are divided by √D instead of "
           "√d: every head scales by its own width d = D/H", "оценки делятся на √D вместо √d: каждая голова "
           "масштабируется по своей ширине d = D/H"),
         L("用 √D 缩放", "scaled by √D", "масштаб √D")),
        ("no-w-o", _cache2(w_o_on=False), "2.4",
         L("输出是拼接后的各头本身：最后没有乘 W_O", "the output is the concatenated heads themselves: W_O is "
           "missing at the end", "выход совпадает со склеенными головами: в конце нет умножения на W_O"),
         L("忘了 W_O", "forgot W_O", "забыли W_O")),
        ("interleaved", _cache2(split="interleaved"), "2.2",
         L("新词元的 q、k、v 按间隔分给了各个头：第 h 个头的第 a 个坐标应当是特征 h·d + a（reshape 成 (H, 1, d)）",
           "the new token's q, k and v are dealt out to the heads every H-th feature: coordinate a of head h is "
           "feature h·d + a (a reshape to (H, 1, d))",
           "q, k и v нового токена розданы головам через H признаков, а координата a головы h — это признак "
           "h·d + a (reshape в (H, 1, d))"),
         L("头的特征交错", "interleaved heads", "головы через один признак")),
        ("old-cache-returned", _cache2(return_new=False), "5.1",
         L("返回的键和值没有包含新位置：返回追加之后的缓存 (H, n+1, d)", "the keys and values returned do not hold "
           "the new position: return the cache after appending, (H, n+1, d)", "возвращённые ключи и значения не "
           "содержат новой позиции: верните кэш после дописывания, (H, n+1, d)"),
         L("返回了旧缓存", "returned the old cache", "вернули старый кэш")),
    ),
    "cache-3": _mistakes(
        "cache-3",
        ("last-row", _cache3(rows="last"), "5.2",
         L("只比较了最后一行：缓存的错误可能只出现在前面的位置，要比较每一个位置", "only the last row is compared: "
           "a cache can be wrong at earlier positions only; compare every position", "сравнивается только "
           "последняя строка, а кэш может ошибаться и в более ранних позициях; сравнивайте все позиции"),
         L("只比较最后一行", "compared the last row only", "сравнили только последнюю строку")),
        ("first-row", _cache3(rows="first"), "5.2",
         L("只比较了第一个位置：第一个词元时缓存还是空的，缓存的错误只会出现在之后的位置",
           "only the first position is compared: the cache is still empty at the first token, so a wrong cache "
           "shows only at later positions",
           "сравнивается только первая позиция, но при первом токене кэш ещё пуст, и ошибка кэша проявляется "
           "лишь в следующих позициях"),
         L("只比较第一个位置", "compared the first position only", "сравнили только первую позицию")),
        ("fresh-cache", _cache3(fresh=True), "5.3",
         L("每个词元都用了一个新的缓存：这样每一步都从位置 0 开始，正确的缓存也显得有错；整段只建一个缓存",
           "every token gets a fresh cache: then every step starts at position 0 and even a correct cache looks "
           "wrong; make one cache for the whole sequence",
           "каждый токен получает новый кэш: тогда каждый шаг начинается с позиции 0, и даже правильный кэш "
           "выглядит ошибочным; создайте один кэш на всю последовательность"),
         L("每步新建缓存", "a fresh cache per token", "новый кэш на каждый токен")),
        ("mean", _cache3(reduce="mean"), "5.2",
         L("报告的是平均误差而不是最大误差：一个位置出错就足以说明缓存有错", "the mean error is reported instead of "
           "the largest: one wrong position is enough to show the cache is wrong", "возвращена средняя ошибка, а "
           "не наибольшая, хотя одной неверной позиции достаточно, чтобы кэш был ошибочным"),
         L("平均而非最大", "mean instead of max", "среднее вместо максимума")),
        ("signed", _cache3(reduce="signed"), "5.2",
         L("误差没有取绝对值", "the error is not taken in absolute value", "ошибка взята без модуля"),
         L("没有取绝对值", "no absolute value", "нет модуля")),
    ),
    "evidence-1": _mistakes(
        "evidence-1",
        ("no-scale", _evidence(scale="none"), "6.1",
         L("分数没有除以 √d", "the scores are not divided by √d", "оценки не поделены на √d"),
         L("没有缩放", "no scaling", "нет масштаба")),
        ("scale-by-D", _evidence(scale="D"), "6.1",
         L("分数除以了 √D 而不是每个头的 √d", "the scores are divided by √D instead of each head's √d",
           "оценки делятся на √D вместо √d каждой головы"),
         L("用 √D 缩放", "scaled by √D", "масштаб √D")),
        ("no-w-o", _evidence(w_o_on=False), "6.1",
         L("输出是拼接后的各头本身：最后没有乘 W_O", "the output is the concatenated heads themselves: W_O is "
           "missing at the end", "выход совпадает со склеенными головами: в конце нет умножения на W_O"),
         L("忘了 W_O", "forgot W_O", "забыли W_O")),
        ("ignores-causal", _evidence(ignore_causal=True), "6.1",
         L("causal=False 时仍然用了掩码：参数 causal 没有起作用", "the mask stays on with causal=False: the causal "
           "argument has no effect", "маска остаётся и при causal=False: аргумент causal ни на что не влияет"),
         L("忽略了 causal", "causal ignored", "causal не учтён")),
        ("strided-heads", _evidence(slices="strided"), "2.2",
         L("头是按间隔取的坐标：第 h 个头应当用连续的坐标 h·d … h·d + d − 1", "the heads take every H-th "
           "coordinate: head h uses the contiguous coordinates h·d … h·d + d − 1", "головы берут каждую H-ю "
           "координату, а голова h использует непрерывный отрезок h·d … h·d + d − 1"),
         L("头的坐标交错", "strided head coordinates", "координаты голов через одну")),
        ("not-divisible-accepted", (_evidence(slices="floor"), _evidence(slices="index-error")), "2.2",
         L("宽度不能被头数整除时没有先检查：多出来的坐标被悄悄丢掉，或者后面才出现别的错误；一开始就应当抛出 ValueError",
           "a width not divisible by the number of heads is not checked first: the extra coordinates are silently "
           "dropped, or another error follows later; raise a ValueError at the start",
           "ширина, не делящаяся на число голов, не проверяется сразу: лишние координаты молча отбрасываются или "
           "позже возникает другая ошибка; в самом начале нужна ошибка ValueError"),
         L("接受了不能整除的宽度", "accepted an indivisible width", "принята неделящаяся ширина")),
    ),
    "dec-1": _mistakes(
        "dec-1",
        ("no-row-term", _d1b("no-row-term"), "7.1",
         L("少了行内求和那一项：softmax 把一行的权重耦合在一起，梯度是 w ⊙ (g − Σ w·g)",
           "the row-sum term is missing: the softmax couples a row's weights, so the gradient is w ⊙ (g − Σ w·g)",
           "нет члена с суммой по строке: softmax связывает веса строки, поэтому градиент равен w ⊙ (g − Σ w·g)"),
         L("缺少行和项", "row-sum term missing", "нет члена суммы по строке")),
        ("plain-mean", _d1b("plain-mean"), "7.1",
         L("减去的是 g 的普通平均，而不是按权重加权的和 Σ w·g", "the plain mean of g is subtracted instead of "
           "the weighted sum Σ w·g", "вычитается обычное среднее g, а не взвешенная сумма Σ w·g"),
         L("用了普通平均", "plain mean instead of weighted sum", "обычное среднее вместо взвешенной суммы")),
        ("sign", _d1b("sign"), "7.1",
         L("梯度的符号反了", "the gradient has the wrong sign", "у градиента неверный знак"),
         L("符号反了", "wrong sign", "неверный знак")),
        ("wrong-axis", _d1b("wrong-axis"), "7.1",
         L("求和沿错误的轴做了：softmax 沿最后一个轴（键），求和也沿它", "the sum runs over the wrong axis: the "
           "softmax is over the last axis (the keys), and so is the sum", "сумма берётся не по той оси: softmax "
           "считается по последней оси (ключам), и сумма тоже"),
         L("求和轴错了", "sum over the wrong axis", "сумма не по той оси")),
        ("broadcasts", _d1b("broadcasts"), "7.1",
         L("形状不同的两个数组没有被拒绝，而是被 NumPy 悄悄广播了：先检查 d_weights 与 weights 形状相同，否则抛出 ValueError",
           "arrays of different shapes are not refused but silently broadcast by NumPy: check first that d_weights "
           "and weights have the same shape, otherwise raise a ValueError",
           "массивы разной формы не отвергнуты, а молча транслированы NumPy: сначала проверьте, что d_weights и "
           "weights одной формы, иначе выбросьте ValueError"),
         L("悄悄广播", "silent broadcasting", "молчаливая трансляция")),
        ("not-times-weights", _d1b("not-times-weights"), "7.1",
         L("禁止位置上的梯度不为 0：结果还要乘以权重 w（权重为 0 的地方梯度恰好为 0）", "the gradient is not 0 on "
           "forbidden entries: multiply by the weights w (where a weight is 0 the gradient is exactly 0)",
           "градиент на запрещённых позициях не равен 0: результат нужно умножить на веса w (где вес 0, градиент "
           "ровно 0)"),
         L("没有乘权重", "not multiplied by the weights", "не умножено на веса")),
    ),
    "dec-2": _mistakes(
        "dec-2",
        ("constants", _ln_back("constants"), "7.1",
         L("dx 少了两个均值项：μ 和 σ 被当成了常数；每个分量都通过它们影响整行",
           "dx lacks both mean terms: μ and σ are treated as constants, but every entry reaches the whole row "
           "through them",
           "в dx нет обоих членов со средними: μ и σ считаются константами, хотя каждая компонента влияет через "
           "них на всю строку"),
         L("把 μ、σ 当常数", "μ and σ taken as constants", "μ и σ как константы")),
        ("no-mean-term", _ln_back("no-mean-term"), "7.1",
         L("dx 少了经过均值 μ 的那一项（− mean(g)）", "dx lacks the term through the mean μ (− mean(g))",
           "в dx нет члена, идущего через среднее μ (− mean(g))"),
         L("缺少均值项", "mean term missing", "нет члена среднего")),
        ("no-variance-term", _ln_back("no-variance-term"), "7.1",
         L("dx 少了经过方差 σ² 的那一项（− x̂ · mean(g·x̂)）", "dx lacks the term through the variance σ² "
           "(− x̂ · mean(g·x̂))", "в dx нет члена, идущего через дисперсию σ² (− x̂ · mean(g·x̂))"),
         L("缺少方差项", "variance term missing", "нет члена дисперсии")),
        ("no-gain-in-dx", _ln_back("no-gain-in-dx"), "7.1",
         L("dx 里没有乘增益 gain：经过 LN(x)·gain 反传回来的梯度是 d_out·gain", "dx misses the gain: the gradient "
           "that flows back through LN(x)·gain is d_out·gain", "в dx нет коэффициента усиления gain: через "
           "LN(x)·gain назад приходит градиент d_out·gain"),
         L("dx 漏了 gain", "gain missing in dx", "в dx нет gain")),
        ("gain-uses-x", _ln_back("gain-uses-x"), "7.1",
         L("d_gain 用的是 x 而不是归一化后的 x̂", "d_gain uses x instead of the normalised x̂",
           "в d_gain взят x вместо нормированного x̂"),
         L("d_gain 用了 x", "d_gain from x", "d_gain через x")),
        ("eps-ignored", _ln_back("eps-ignored"), "7.1",
         L("参数 eps 没有起作用", "the eps argument has no effect", "аргумент eps ни на что не влияет"),
         L("忽略了 eps", "eps ignored", "eps не учтён")),
    ),
    "dec-3": _mistakes(
        "dec-3",
        ("first-layer-only", _dec3(history="first-layer"), "7.5",
         L("只有第一层读取了缓存里的历史，后面各层只读了新位置自己：每一层都要读它自己缓存里的全部位置",
           "only the first layer reads the stored history; later layers read the new position alone: every layer "
           "reads all positions in its own cache",
           "историю из кэша читает только первый слой, а следующие читают лишь новую позицию: каждый слой должен "
           "читать все позиции своего кэша"),
         L("只有第一层读历史", "history read by layer 0 only", "историю читает только слой 0")),
        ("position-zero", _dec3(position="zero"), "5.3",
         L("新词元总是加上了第 0 行的位置向量：它的位置是 n（已存位置的个数）", "the new token always gets row 0 of "
           "the position table: its position is n, the number of stored positions", "новый токен всегда получает "
           "строку 0 таблицы позиций, а его позиция — n, число сохранённых позиций"),
         L("位置重置为 0", "position reset to 0", "позиция сброшена в 0")),
        ("position-next", (_dec3(position="next"), _dec3(position="next-checked")), "5.3",
         L("位置多算了一：新词元的位置是 n，不是 n + 1", "the position is off by one: the new token is at n, not "
           "n + 1", "позиция сдвинута на 1: новый токен стоит в позиции n, а не n + 1"),
         L("位置多一", "position off by one", "позиция сдвинута на 1")),
        ("shared-cache", _dec3(shared=True), "5.5",
         L("各层用了同一个缓存（第 0 层的）：每一层都有自己的键和值", "every layer reads one cache (layer 0's): "
           "each layer has keys and values of its own", "все слои читают один кэш (слоя 0), а у каждого слоя "
           "свои ключи и значения"),
         L("各层共用缓存", "one cache for all layers", "один кэш на все слои")),
        ("attends-before-append", (_dec3(append_first=False), _dec3(append_first="raise")), "5.1",
         L("新查询没有读取它自己的键和值：先追加，再做注意力", "the new query does not read its own key and value: "
           "append first, then attend", "новый запрос не читает собственные ключ и значение: сначала допишите, "
           "потом считайте внимание"),
         L("先注意力后追加", "attended before appending", "внимание до дописывания")),
        ("wrapped", _dec3(position="wrap"), "5.4",
         L("超出位置表的位置被绕回到了开头：应当抛出 ValueError", "a position past the table wraps round to its "
           "start: raise a ValueError", "позиция за концом таблицы заворачивается к началу: нужна ошибка ValueError"),
         L("位置取模绕回", "position wrapped", "позиция по модулю")),
    ),
    "dec-4": _mistakes(
        "dec-4",
        ("no-control", _dec4(control=None), "4.4",
         L("从不返回 \"blind\"：没有检查阴性对照（去掉掩码的同一模型）能否看见变化",
           "never returns \"blind\": the negative control (the same model without the mask) is not checked",
           "никогда не возвращает \"blind\": отрицательный контроль (та же модель без маски) не проверяется"),
         L("没有阴性对照", "no negative control", "нет отрицательного контроля")),
        ("control-is-forward", _dec4(control="forward"), "4.4",
         L("阴性对照用的是被检验的 forward 本身：对照应当是去掉掩码的同一模型（model.forward(ids, causal=False)）",
           "the negative control is the forward under test itself: the control is the same model without the "
           "mask (model.forward(ids, causal=False))",
           "отрицательным контролем служит сам проверяемый forward, а контроль — это та же модель без маски "
           "(model.forward(ids, causal=False))"),
         L("对照就是被测模型", "the control is the model under test", "контроль совпадает с моделью")),
        ("fixed-token", _dec4(future="zero"), "4.5",
         L("未来被换成了固定的词元：当原来的词元恰好就是它时，扰动什么也没改变；应当让每个未来词元都变（例如换成下一个编号）",
           "the future is replaced by a fixed token: where the original tokens already are that token, the "
           "perturbation changes nothing; make every future token change (the next id, say)",
           "будущее заменено фиксированным токеном: там, где исходные токены уже такие, возмущение ничего не "
           "меняет; нужно изменить каждый будущий токен (например, взять следующий номер)"),
         L("用了固定的替换词元", "a fixed replacement token", "фиксированный токен замены")),
        ("prefix-equals-T", _dec4(check="loose"), "4.3",
         L("prefix_length = T 没有报错：那时没有可改变的未来，应当抛出 ValueError", "prefix_length = T is not "
           "refused: there is no future to change, so raise a ValueError", "prefix_length = T не отвергнуто: "
           "будущего для изменения нет, нужна ошибка ValueError"),
         L("接受了 prefix_length = T", "accepted prefix_length = T", "принято prefix_length = T")),
        ("with-position", _dec4(rows="with-position"), "4.3",
         L("比较的行包括了 prefix_length 本身：那一行读到的是被改变的词元", "the compared rows include "
           "prefix_length itself, which reads a changed token", "среди сравниваемых строк есть сама позиция "
           "prefix_length, а она читает изменённый токен"),
         L("比较行多了一行", "one row too many compared", "сравнивается лишняя строка")),
    ),
}

# Read from the comparison itself, for any exercise.
GENERIC = {
    "dtype-promoted": Mistake(
        "*/dtype-promoted", None,
        L("数值对了，但 float32 的输入得到了 float64 的结果：某处的 float64 常数或数组（np.float64、astype(float)、"
          "没有 dtype 的 np.zeros）把结果提升了；本课程的约定是 float32 进、float32 出",
          "the values are right, but a float32 input gave a float64 result: a float64 constant or array somewhere "
          "(np.float64, astype(float), np.zeros without a dtype) promoted it; the course's rule is float32 in, "
          "float32 out",
          "значения верные, но вход во float32 дал результат во float64: где-то константа или массив float64 "
          "(np.float64, astype(float), np.zeros без dtype) повысили тип; правило курса — float32 на входе, "
          "float32 на выходе"),
        "0.6", L("float32 变成了 float64", "float32 in, float64 out", "float32 → float64")),
    "argument-changed": Mistake(
        "*/argument-changed", None,
        L("函数改动了调用者的数组：原地运算（x -= …、x[...] = …、np.add.at 写进输入，或者把输入当作“副本”来改）"
          "会悄悄改掉调用者的数据，之后用到它的计算都会出错；本课程的函数从不改动输入，先修好这一点，再看结果是否正确",
          "the function alters the caller's array: an in-place operation (x -= …, x[...] = …, np.add.at into an "
          "input, or changing an input taken for a copy) silently changes the caller's data and spoils every later "
          "use of it; the course's functions never change their inputs, so fix this first, then see whether the "
          "results are right",
          "функция портит массив вызывающего кода: операция на месте (x -= …, x[...] = …, np.add.at во входной "
          "массив или изменение входа, принятого за копию) молча меняет его данные и портит всё, что их потом "
          "использует; функции курса никогда не меняют свои входы — исправьте сначала это, затем проверьте, верны "
          "ли результаты"),
        "0.6", L("改动了输入数组", "changed an input in place", "вход изменён на месте")),
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


TEMPLATE = {
    "zh": "可能的原因：{text}（见 §{section}）",
    "en": "what this suggests: {text} (see §{section})",
    "ru": "вероятная причина: {text} (см. §{section})",
}


def explain_mistake(mistake, lang):
    """The diagnosis sentence in ``lang``."""
    text = mistake.text.get(lang) or mistake.text["en"]
    return TEMPLATE.get(lang, TEMPLATE["en"]).format(text=text, section=mistake.section)


def short_name(mistake, lang):
    names = mistake.short or mistake.text
    return names.get(lang) or names["en"]
