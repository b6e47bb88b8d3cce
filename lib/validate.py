"""Checking arguments where they enter lib: one rule for every public function.

A function names its check with :func:`checked`, a method calls its check first.  A check returns
the arguments as the body is to see them; bodies are plain math that trust them and call only
bodies (``f.plain``).  A wrong *kind* is a TypeError (``n_heads=2.0``, ``True``, ``"2"``), a wrong
*value* or *shape* a ValueError (``n_heads=0``, a width H does not divide); numeric arrays follow
lib/__init__'s dtype rule.  Every message names the argument and says what is expected.  No other
module of lib raises, but lib.plain_python, which imports nothing of lib."""

import functools
import inspect
import numbers

import numpy as np

IGNORE = -100                   # lib.data.IGNORE, a target that is not scored (§1)


def checked(check):
    """Decorator: ``check`` gets the function's arguments in order (defaults filled in), raises
    on a bad one and returns them all, as the body is to see them; then the body runs."""
    def decorate(plain):
        signature = inspect.signature(plain)

        @functools.wraps(plain)
        def function(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            bound.arguments.update(zip(bound.arguments, check(*bound.arguments.values())))
            return plain(*bound.args, **bound.kwargs)
        function.plain = plain
        return function
    return decorate


# -- Kinds: ints, switches, numbers, functions, float arrays ---------------

def integer(value, name, minimum=1):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return int(value)


def sizes(**values):
    return tuple(integer(value, name) for name, value in values.items())


def boolean(value, name):
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def positive_number(value, name, zero=False):
    """``value`` as a float: TypeError unless a real number, ValueError unless finite and > 0."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {type(value).__name__} {value!r}")
    if not (0 <= value if zero else 0 < value) or not value < np.inf:
        kind = "a number >= 0 (finite)" if zero else "a positive number (finite, > 0)"
        raise ValueError(f"{name} must be {kind}, got {value!r}")
    return float(value)


def function_or_none(value, name, what="a function"):
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be {what} or None, got {type(value).__name__}")
    return value


def float_arrays(**arrays):
    """The package's dtype rule: the arrays, in order, in their common floating-point dtype."""
    converted = []
    for name, value in arrays.items():
        try:
            a = np.asarray(value)
        except ValueError as err:
            raise ValueError(f"{name} is not a rectangular array of numbers ({err})") from None
        if np.issubdtype(a.dtype, np.integer) or a.dtype == bool:
            a = a.astype(np.float64)
        elif not np.issubdtype(a.dtype, np.floating):
            raise TypeError(f"{name} must hold real numbers, got dtype {a.dtype}")
        converted.append(a)
    dtype = np.result_type(*converted)
    return [a.astype(dtype, copy=False) for a in converted]


def float_dtype(dtype):
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        dtype = repr(dtype)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"dtype must be float32 or float64, got {dtype}")
    return dtype


def shape(array, expected, name):
    if np.shape(array) != tuple(expected):
        raise ValueError(f"{name} has shape {np.shape(array)}, expected {tuple(expected)}")
    return array


def _first(flags):
    return tuple(int(i) for i in np.argwhere(np.atleast_1d(flags))[0])


# -- §1, §2, §5.9 Masks, scores, attention, heads --------------------------

def causal_lengths(tq, tk):
    tq, tk = integer(tq, "tq", 0), integer(tk, "tk", 0)
    if tq > tk:
        raise ValueError(f"{tq} queries but only {tk} keys: every query must be able to read at "
                         "least its own key, so there may not be more queries than keys")
    return tq, tk


def masked_softmax(scores, allowed):
    """A boolean ``allowed`` that fits scores (..., Tk), a key in every row, finite scores."""
    (scores,), allowed = float_arrays(scores=scores), np.asarray(allowed)
    if allowed.dtype != bool:
        raise TypeError(f"allowed must be a boolean array (True = may read), got dtype "
                        f"{allowed.dtype}; an additive mask of 0/-inf is a different convention")
    if scores.ndim == 0 or scores.shape[-1] == 0:
        raise ValueError(f"scores of shape {scores.shape} have no keys: the last axis must have "
                         "length >= 1")
    try:
        fits = np.broadcast_shapes(scores.shape, allowed.shape) == scores.shape
    except ValueError:
        raise ValueError(f"allowed of shape {allowed.shape} does not broadcast to scores of "
                         f"shape {scores.shape}") from None
    if not fits:
        raise ValueError(f"allowed of shape {allowed.shape} would enlarge scores {scores.shape}")
    empty = ~np.atleast_1d(allowed).any(axis=-1)        # empty in the broadcast iff in `allowed`
    if empty.any():
        raise ValueError(f"row {_first(empty)} of allowed has no True entry: this query may read "
                         "no key, so its softmax has no denominator; every query must be "
                         "allowed at least one key (with a causal mask, itself)")
    bad = allowed & ~np.isfinite(scores)                # (..., Tk) non-finite AND read
    if bad.any():
        *row, key = _first(bad)
        raise ValueError(f"row {tuple(row)} of scores has {scores[(*row, key)]} at allowed key "
                         f"{key}: every score a query may read must be finite (a NaN or an "
                         "infinity has no meaningful weight)")
    return scores, allowed


def score_inputs(q, k):
    q, k = float_arrays(q=q, k=k)
    if q.ndim < 2 or k.ndim < 2 or q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q {q.shape} and k {k.shape} must be (..., Tq, d) and (..., Tk, d)")
    return q, k


def attention_inputs(q, k, v):
    """q, k, v of :func:`attention_shapes`, finite and not too large (:func:`magnitudes`)."""
    q, k, v = attention_shapes(q, k, v)
    magnitudes(q, k, v)
    return q, k, v


def attention_shapes(q, k, v):
    """q, k, v in their common float dtype, shaped for an attention."""
    q, k, v = float_arrays(q=q, k=k, v=v)
    for name, a, axes in (("q", q, "Tq, d"), ("k", k, "Tk, d"), ("v", v, "Tk, dv")):
        if a.ndim < 2:
            raise ValueError(f"{name} must have shape (..., {axes}) with at least 2 axes, got "
                             f"shape {a.shape}")
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q has width {q.shape[-1]} but k has width {k.shape[-1]}; they must "
                         "match")
    if q.shape[-1] == 0:
        raise ValueError("q and k have width d = 0: a score needs at least one coordinate")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k has {k.shape[-2]} positions but v has {v.shape[-2]}; they must match")
    if k.shape[-2] == 0:
        raise ValueError("k and v have 0 positions: there is no key to read (a query needs one)")
    try:
        np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(f"the leading (batch, head) axes of q {q.shape}, k {k.shape} and v "
                         f"{v.shape} do not broadcast") from None
    return q, k, v


def magnitudes(q, k, v, bounds=None):
    """No NaN or infinity in q, k, v, and no score (<= max|q| max|k| sqrt(d)) or sum of values
    (<= Tk max|v|) that could overflow.  ``bounds`` of the maxima (bench's longest rows) spare
    the passes that find them, unless they fail."""
    limit = float(np.finfo(q.dtype).max) / 4
    small = lambda mq, mk, mv: mq * mk * np.sqrt(q.shape[-1]) <= limit and mv * k.shape[-2] <= limit
    if bounds is None or not small(*bounds):
        mq, mk, mv = (_largest_magnitude(a, name) for name, a in (("q", q), ("k", k), ("v", v)))
        if not small(mq, mk, mv):
            raise ValueError(f"q, k, v are too large for {q.dtype} (max |q| = {mq:.3g}, max |k| = "
                             f"{mk:.3g}, max |v| = {mv:.3g}): scores or sums could overflow; scale "
                             "them down or use float64")


def _largest_magnitude(a, name):
    """max |a| as a float (0.0 if empty); a NaN or an infinity is refused, naming its index."""
    largest = max(float(a.max(initial=0.0)), -float(a.min(initial=0.0)))   # no temporary array
    if not np.isfinite(largest):                        # max and min propagate nan and inf
        index = _first(~np.isfinite(a))
        raise ValueError(f"{name} holds {a[index]} at index {index}: q, k and v must be finite.  "
                         "Even a value at a future position would reach earlier outputs, whose "
                         "weight on it is 0, because 0 * nan = nan (in any implementation that "
                         "multiplies the weights by the values)")
    return largest


def causal_inputs(q, k, v, *skip_future):
    q, k, v = attention_inputs(q, k, v)
    causal_lengths(q.shape[-2], k.shape[-2])
    return (q, k, v, *(boolean(value, "skip_future") for value in skip_future))


def attention_switch(q, k, v, causal):
    return (causal_inputs if boolean(causal, "causal") else attention_inputs)(q, k, v) + (causal,)


def head_width(width, n_heads):
    n_heads = integer(n_heads, "n_heads")
    if width % n_heads:
        raise ValueError(f"width D={width} is not divisible by n_heads={n_heads}; D must be a "
                         "multiple of H")
    return width // n_heads


def split_heads(x, n_heads):
    x = np.asarray(x)
    if x.ndim < 2:
        raise ValueError(f"split_heads expects (..., T, D), got shape {x.shape}")
    head_width(x.shape[-1], n_heads)
    return x, int(n_heads)


def merge_heads(x):
    x = np.asarray(x)
    if x.ndim < 3:
        raise ValueError(f"merge_heads expects (..., H, T, d), got shape {x.shape}")
    return (x,)


def projections(x, **weights):
    x, *converted = float_arrays(x=x, **weights)
    if x.ndim < 2:
        raise ValueError(f"x must have shape (B, T, D), got shape {x.shape}")
    for name, w in zip(weights, converted):
        shape(w, (x.shape[-1],) * 2, name)
    return [x, *converted]


def multi_head(x, w_q, w_k, w_v, w_o, n_heads, causal=True):
    x, *ws = projections(x, w_q=w_q, w_k=w_k, w_v=w_v, w_o=w_o)
    head_width(x.shape[-1], n_heads)
    return (x, *ws, int(n_heads), boolean(causal, "causal"))


def attention_weights(x, w_q, w_k, n_heads, causal):
    x, w_q, w_k = projections(x, w_q=w_q, w_k=w_k)
    if x.ndim != 3:
        raise ValueError(f"attention_weights expects x of shape (B, T, D), got {x.shape}")
    head_width(x.shape[-1], n_heads)
    return x, w_q, w_k, int(n_heads), boolean(causal, "causal")


def attention_work(tq, tk, skip_future, block):
    block = block if block is None else integer(block, "block")
    return (*causal_lengths(tq, tk), boolean(skip_future, "skip_future"), block)


def head_costs(n_heads, width, length, batch, bytes_per_number):
    heads = np.asarray(n_heads)
    if heads.ndim > 1 or not np.issubdtype(heads.dtype, np.integer):
        raise TypeError(f"n_heads must be an int or a 1-D sequence of ints, got {n_heads!r}")
    D, *rest = sizes(width=width, length=length, batch=batch, bytes_per_number=bytes_per_number)
    for h in sorted(heads.reshape(-1)):                 # the smallest first: 0 before indivisible
        head_width(D, h)
    return (heads.astype(np.int64), D, *rest)


# -- §1, §3 Texts, token ids and positions ---------------------------------

def texts(values, what="build_vocab"):
    """A list of strings (one string alone is refused: a list of its characters is rarely meant)."""
    if isinstance(values, str):
        raise TypeError(f"{what} expects a list of strings, got one string {values!r}; wrap it "
                        f"as [{values!r}]")
    values = list(values)
    for i, text in enumerate(values):
        if not isinstance(text, str):
            raise TypeError(f"{what}: text {i} is {type(text).__name__}, expected str")
    return (values,)


def one_text(text, *rest, what="encode"):
    if not isinstance(text, str):
        raise TypeError(f"{what} expects a str, got {type(text).__name__}")
    return (text, *rest)


mirror_text = functools.partial(one_text, what="is_mirror_line")


def collate(values, vocab):
    (values,) = texts(values, "collate")
    if not values:
        raise ValueError("collate: the batch is empty; expected at least one non-empty text")
    if not all(values):
        raise ValueError(f"collate: text {values.index('')} is empty; every text needs a character")
    return values, vocab


def decode(ids, vocab):
    ids = [int(i) for i in np.asarray(ids).reshape(-1)]
    bad = [i for i in ids if not 0 <= i < len(vocab)]
    if bad:
        raise ValueError(f"decode: id {bad[0]} is outside the vocabulary of {len(vocab)} tokens "
                         f"(ids 0..{len(vocab) - 1}; IGNORE={IGNORE} marks unscored targets)")
    return ids, vocab


def token_ids(ids, vocab_size, shapes="(T,) or (B, T)", ndims=(1, 2)):
    """ids of one of ``shapes`` with T >= 1, every one a row of a table of ``vocab_size`` rows."""
    ids = np.asarray(ids)
    if not np.issubdtype(ids.dtype, np.integer):
        raise TypeError(f"ids must be integers, got dtype {ids.dtype}")
    if ids.ndim not in ndims or ids.shape[-1] == 0:
        raise ValueError(f"ids must have shape {shapes} with T >= 1, got shape {ids.shape}")
    bad = ids[(ids < 0) | (ids >= vocab_size)]
    if bad.size:
        raise ValueError(f"token id {int(bad[0])} is outside the token table of {vocab_size} rows "
                         f"(valid ids are 0..{vocab_size - 1}; IGNORE={IGNORE} marks targets, it "
                         "is never an input)")
    return ids


def positions(offset, length, context_size):
    offset, length = integer(offset, "offset", None), integer(length, "length")
    C, last = integer(context_size, "context_size"), offset + length - 1
    if offset < 0 or last >= C:
        a, b = (offset, min(last, -1)) if offset < 0 else (max(offset, C), last)  # no row
        raise ValueError(f"positions {offset}..{last} reach outside the position table, which has "
                         f"rows 0..{C - 1} (C={C}) and no row for {a if a == b else f'{a}..{b}'}; "
                         "a learned absolute position table is never wrapped or clamped")
    return offset, length, C


def tables(token_table, position_table):
    E, P = float_arrays(token_table=token_table, position_table=position_table)
    if E.ndim != 2 or P.ndim != 2 or E.shape[1] != P.shape[1]:
        raise ValueError(f"token table {E.shape} and position table {P.shape} must both be 2-D "
                         "with the same width D, so that their rows can be added")
    if 0 in E.shape or 0 in P.shape:
        raise ValueError(f"token table {E.shape} and position table {P.shape} need at least one "
                         "row and one column each")
    return E, P


def embed(ids, token_table, position_table, offset):
    E, P = tables(token_table, position_table)
    ids = token_ids(ids, E.shape[0])
    return ids, E, P, positions(offset, ids.shape[-1], P.shape[0])[0]


def embed_backward(grad, ids, vocab_size, context_size, offset):
    (grad,) = float_arrays(grad=grad)
    V, C = sizes(vocab_size=vocab_size, context_size=context_size)
    ids = token_ids(ids, V)
    if grad.shape[:-1] != ids.shape:
        raise ValueError(f"grad of shape {grad.shape} does not match ids of shape {ids.shape} "
                         "(expected ids.shape + (D,))")
    return grad, ids, V, C, positions(offset, ids.shape[-1], C)[0]


def token(value, vocab_size):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        shaped = isinstance(value, (list, tuple, np.ndarray))
        raise TypeError(f"step takes one token id (an int), got {type(value).__name__}"
                        f"{f' of shape {np.shape(value)}' if shaped else ''}: {value!r}; feed a "
                        "sequence one token per step (see lib.checks.incremental_forward)")
    return int(token_ids([value], vocab_size)[0])


# -- §4 The future-perturbation test ---------------------------------------

def normalization(x, eps):
    return (*float_arrays(x=x), positive_number(eps, "eps"))


def is_ids(inputs):
    if not (np.issubdtype(inputs.dtype, np.integer) or np.issubdtype(inputs.dtype, np.floating)):
        raise TypeError(f"inputs must be token ids (ints) or vectors (floats), got dtype "
                        f"{inputs.dtype}")
    return bool(np.issubdtype(inputs.dtype, np.integer))


def time_axis(inputs):
    ids = is_ids(inputs)
    if inputs.ndim not in ((1, 2) if ids else (2, 3)):
        raise ValueError(f"ids must have shape (T,) or (B, T), got {inputs.shape}" if ids else
                         f"vectors must have shape (T, D) or (B, T, D), got {inputs.shape}")
    return inputs.ndim - (1 if ids else 2)


def prefix(prefix_length, inputs):
    T = inputs.shape[time_axis(inputs)]
    if not 1 <= integer(prefix_length, "prefix_length", None) < T:
        raise ValueError(f"prefix_length={prefix_length} with T={T}: need 1 <= prefix_length < T, "
                         "so that there is a prefix output to compare and a future position to "
                         "change (an empty comparison passes whatever the model does)")
    return int(prefix_length)


def perturb_future(inputs, prefix_length, rng, vocab_size, scale):
    inputs = np.asarray(inputs)
    prefix_length, rng = prefix(prefix_length, inputs), np.random.default_rng(rng)
    if not is_ids(inputs):
        if not np.isfinite(inputs).all():
            raise ValueError("vectors to perturb must be finite (a NaN or an infinity would leak "
                             "through 0 * nan)")
        return inputs, prefix_length, rng, vocab_size, positive_number(scale, "scale")
    if vocab_size is None:
        raise ValueError("perturbing ids needs vocab_size (>= 2, so that a different id exists)")
    vocab_size = integer(vocab_size, "vocab_size", 2)
    future = np.moveaxis(inputs, time_axis(inputs), 0)[prefix_length:]
    if future.size and (future.min() < 0 or future.max() >= vocab_size):
        raise ValueError(f"ids must lie in 0..{vocab_size - 1}, got {future.min()}..{future.max()}")
    return inputs, prefix_length, rng, vocab_size, scale


def row_changes(forward, inputs, perturbed):
    inputs, perturbed = np.asarray(inputs), np.asarray(perturbed)
    if inputs.shape != perturbed.shape:
        raise ValueError(f"inputs {inputs.shape} and perturbed {perturbed.shape} must have the "
                         "same shape")
    if is_ids(inputs) != is_ids(perturbed):
        raise TypeError("inputs and perturbed must both be ids or both be vectors")
    time_axis(inputs)
    return function_or_none(forward, "forward"), inputs, perturbed


def forward_output(out, lead, inputs):
    out = np.asarray(out)
    if out.shape[:len(lead)] != lead or out.ndim != len(lead) + 1:
        raise ValueError(f"forward returned shape {out.shape}; expected {lead} + (D,) for inputs "
                         f"of shape {inputs.shape}")
    return out


def future_change(forward, inputs, perturbed, prefix_length):
    forward, inputs, perturbed = row_changes(forward, inputs, perturbed)
    prefix_length, axis = prefix(prefix_length, inputs), time_axis(inputs)
    a, b = np.moveaxis(inputs, axis, 0), np.moveaxis(perturbed, axis, 0)   # time first
    if not np.array_equal(a[:prefix_length], b[:prefix_length]):
        raise ValueError("inputs and perturbed differ inside the prefix; only positions >= "
                         "prefix_length may change")
    unchanged = a[prefix_length:] == b[prefix_length:]                     # (T-p, ...)
    if not is_ids(inputs):
        unchanged = unchanged.all(axis=-1)              # a vector row is unchanged if all of it is
    if unchanged.any():
        raise ValueError(f"future position {prefix_length + _first(unchanged)[0]} is unchanged; "
                         "every position after the prefix must change, otherwise the test "
                         "perturbs less of the future than it claims")
    return forward, inputs, perturbed, prefix_length


def check_causality(forward, control, inputs, perturbed, prefix_length, tolerance):
    forward, inputs, perturbed, prefix_length = future_change(forward, inputs, perturbed,
                                                              prefix_length)
    return (forward, function_or_none(control, "control"), inputs, perturbed, prefix_length,
            positive_number(tolerance, "tolerance", zero=True))


def forward_with(model, ids, before, after, causal):
    for name, layer in (("before", before), ("after", after)):
        function_or_none(layer, name, "a function (B, T, D) -> (B, T, D)")
    return model, ids, before, after, boolean(causal, "causal")


def square_weights(weights):
    weights = np.asarray(weights)
    if weights.ndim < 2 or weights.shape[-1] != weights.shape[-2]:
        raise ValueError(f"weights must have shape (..., T, T), got {weights.shape}")
    return (weights,)


def random_model(rng, vocab_size, context_size, width, n_heads, dtype):
    sizes(vocab_size=vocab_size, context_size=context_size, width=width)
    head_width(width, n_heads)
    return rng, vocab_size, context_size, width, n_heads, float_dtype(dtype)


def incremental_forward(model, ids, cache, positions_):
    ids = np.asarray(ids)
    if ids.ndim != 1 or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
        raise ValueError("incremental_forward feeds one unpadded stream: ids must be a non-empty "
                         f"(T,) int array, got {ids.shape} {ids.dtype}")
    if positions_ is not None and len(positions_) != len(ids):
        raise ValueError(f"{len(positions_)} positions for {len(ids)} tokens; give one position "
                         "per token or None")
    return model, ids, cache, positions_


def kv_cache_bytes(*values):
    names = ("n_layers", "n_heads", "head_width", "length", "batch", "itemsize")
    return tuple(integer(value, name, 0) for name, value in zip(names, values))


# -- §5 The cache and the model of §4-§6 -----------------------------------

def cache_dtype(dtype):
    if not isinstance(dtype, (type, np.dtype, str)) or np.dtype(dtype) not in (np.float32,
                                                                                np.float64):
        raise TypeError(f"a cache stores floats (float32 or float64), got dtype {dtype}")
    return np.dtype(dtype)


def truncate(cache, length):
    length = integer(length, "length", 0)
    if length > len(cache):
        raise ValueError(f"cannot truncate a cache of {len(cache)} positions to {length}: only "
                         "stored positions can be kept (0 <= length <= len(cache))")
    return length


def room(cache):
    if len(cache) == cache.capacity:
        raise ValueError(f"the cache is full: it holds {cache.capacity} positions, its capacity")
    return cache


def cache_entry(cache, key, value):
    room(cache)
    key, value = np.asarray(key), np.asarray(value)
    for name, a in (("key", key), ("value", value)):
        if a.shape != cache.layout[:2]:
            raise ValueError(f"{name} has shape {a.shape}, expected (H, d) = {cache.layout[:2]}")
        if not np.can_cast(a.dtype, cache.dtype, "safe"):
            raise TypeError(f"{name} of dtype {a.dtype} cannot be stored without loss in a "
                            f"{cache.dtype} cache")
    return key, value


def own_cache(cache, kind, layout):
    if not isinstance(cache, kind):
        raise TypeError(f"cache must be a {kind.__name__} (from model.new_cache()), got "
                        f"{type(cache).__name__}")
    if cache.layout != layout:
        raise ValueError(f"this cache {cache!r} (layout {cache.layout}) does not belong to this "
                         f"model, which needs {layout}; create it with model.new_cache()")
    return cache


def step(model, value, cache, position, kind):
    value = token(value, model.vocab_size)
    own_cache(cache, kind, model.cache_layout)
    position = positions(len(cache) if position is None else position, 1, model.context_size)[0]
    return value, room(cache), position


def attention_model(token_table, position_table, w_q, w_k, w_v, w_o, n_heads):
    if np.ndim(token_table) != 2:
        raise ValueError(f"token table must be 2-D (V, D), got shape {np.shape(token_table)}")
    arrays = float_arrays(token_table=token_table, position_table=position_table, w_q=w_q,
                          w_k=w_k, w_v=w_v, w_o=w_o)
    E, P = tables(*arrays[:2])
    head_width(E.shape[1], n_heads)
    for name, w in zip(("w_q", "w_k", "w_v", "w_o"), arrays[2:]):
        shape(w, (E.shape[1],) * 2, name)
    return (E, P, *arrays[2:], int(n_heads))


# -- §7 The layers, the decoder, Adam and training -------------------------

def softmax_backward(d_weights, weights):
    d_weights, weights = float_arrays(d_weights=d_weights, weights=weights)
    if d_weights.shape != weights.shape:
        raise ValueError(f"d_weights has shape {d_weights.shape} but weights has shape "
                         f"{weights.shape}; they must match")
    return d_weights, weights


def gelu(x):
    return float_arrays(x=x)


def _vectors(width, **arrays):
    for name, a in arrays.items():
        if a.shape[-1:] != (width,):
            raise ValueError(f"{name} has shape {a.shape}, expected ({width},)")


def layer_norm(x, gain, bias, eps):
    x, gain, bias = float_arrays(x=x, gain=gain, bias=bias)
    _vectors(x.shape[-1] if x.ndim else 0, gain=gain, bias=bias)
    return x, gain, bias, positive_number(eps, "eps")


def linear(x, w, b):
    x, w, *b = float_arrays(x=x, w=w, **({} if b is None else {"b": b}))
    if w.ndim < 2 or x.ndim < 1 or w.shape[-2] != x.shape[-1]:
        raise ValueError(f"w has shape {w.shape}, expected ({x.shape[-1] if x.ndim else 'n_in'}, "
                         f"n_out) for x of shape {x.shape}")
    _vectors(w.shape[-1], **({"b": b[0]} if b else {}))
    return x, w, b[0] if b else None


def mlp(x, w_1, b_1, w_2, b_2):
    x, w_1, b_1 = linear(x, w_1, b_1)
    return (x, w_1, b_1, *linear(np.zeros(w_1.shape[-1], x.dtype), w_2, b_2)[1:])


def targets(values, logits_shape, vocab_size):
    values = np.asarray(values)
    if not np.issubdtype(values.dtype, np.integer):
        raise TypeError(f"targets must be integer token ids (or IGNORE={IGNORE}), got dtype "
                        f"{values.dtype}")
    if values.shape != tuple(logits_shape[:-1]):
        raise ValueError(f"targets of shape {values.shape} do not match logits of shape "
                         f"{tuple(logits_shape)} (expected logits.shape[:-1])")
    scored = values != IGNORE
    bad = values[scored & ((values < 0) | (values >= vocab_size))]
    if bad.size:
        raise ValueError(f"target {int(bad[0])} is not a token id 0..{vocab_size - 1} and not "
                         f"IGNORE={IGNORE}")
    if not scored.any(axis=tuple(range(values.ndim))[-2:]).all():
        raise ValueError(f"no target is scored (all are IGNORE={IGNORE}): the mean loss over 0 "
                         "targets is undefined")
    return values


def cross_entropy(logits, values):
    (logits,) = float_arrays(logits=logits)
    return logits, targets(values, logits.shape, logits.shape[-1] if logits.ndim else 0)


def finite_differences(f, x, *index_eps):
    function_or_none(f, "f")
    if not isinstance(x, np.ndarray) or x.dtype != np.float64:
        raise TypeError("finite differences need a float64 array: in float32 the rounding error "
                        f"of f swamps a difference of 2 eps; got {type(x).__name__} "
                        f"{getattr(x, 'dtype', '')}")
    return (f, x, *index_eps[:-1], positive_number(index_eps[-1], "eps"))


def relative_error(analytic, numeric):
    analytic, numeric = (np.asarray(a, dtype=np.float64) for a in (analytic, numeric))
    if analytic.shape != numeric.shape:
        raise ValueError(f"analytic {analytic.shape} and numeric {numeric.shape} gradients must "
                         "have the same shape")
    return analytic, numeric


def decoder_params(params, n_heads, shapes):
    """A dict with exactly the names and shapes of ``shapes(V, C, D, L, F)`` (a stack's: (S, ...)),
    of one float dtype, H dividing D.  Returns (params, H, L, S or None)."""
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict name -> array, got {type(params).__name__}")
    arrays = {name: np.asarray(value) for name, value in params.items()}
    table = arrays.get("token_table", np.zeros(0))
    if table.ndim not in (2, 3) or 0 in table.shape or {"position_table", "w_head"} - set(arrays):
        raise ValueError(f"params need token_table (V, D), position_table (C, D) and w_head (D, V) "
                         f"of parameter_shapes(), got {sorted(arrays)}")
    lead, (V, D), C = table.shape[:-2], table.shape[-2:], arrays["position_table"].shape[-2]
    n_layers = len({name.split(".")[1] for name in arrays if name.startswith("blocks.")})
    if n_layers < 1:
        raise ValueError("params hold no block ('blocks.0.w_q' ...); a decoder needs a layer")
    F = arrays.get("blocks.0.w_1", np.zeros((D, 4 * D))).shape[-1]
    expected = {name: lead + s for name, s in shapes(V, C, D, n_layers, F).items()}
    if set(arrays) != set(expected):
        missing, extra = sorted(set(expected) - set(arrays)), sorted(set(arrays) - set(expected))
        raise ValueError(f"params do not form a decoder of {n_layers} layers: missing {missing}, "
                         f"unexpected {extra}")
    if len({a.dtype for a in arrays.values()}) != 1 or table.dtype not in (np.float32, np.float64):
        raise TypeError("every parameter must have the same dtype, float32 or float64; got "
                        f"{sorted({str(a.dtype) for a in arrays.values()})}")
    for name, value in arrays.items():
        shape(value, expected[name], f"parameter {name}")
    head_width(D, n_heads)
    return {name: arrays[name] for name in expected}, int(n_heads), n_layers, (lead or (None,))[0]


def decoder_sizes(vocab_size, context_size, width, n_heads, n_layers, mlp_width, dtype):
    V, C, D, L = sizes(vocab_size=vocab_size, context_size=context_size, width=width,
                       n_layers=n_layers)
    F = 4 * D if mlp_width is None else integer(mlp_width, "mlp_width")
    return V, C, D, D // head_width(D, n_heads), L, F, float_dtype(dtype)


def stack(models, kind):
    models = list(models)
    if not models or not all(isinstance(m, kind) and m.n_models is None for m in models):
        raise TypeError("stack takes a non-empty list of decoders (not stacks)")
    if len({(tuple((n, p.shape, p.dtype) for n, p in m.params.items()), m.n_heads)
            for m in models}) != 1:
        raise ValueError("only decoders with the same parameter names, shapes, dtype and H can "
                         "be stacked")
    return models


def a_stack(model, wanted=True):
    if (model.n_models is not None) != wanted:
        raise TypeError("unstack needs a stack of decoders (see Decoder.stack)" if wanted else
                        "a stack of decoders has no cache: unstack() it and step each decoder")
    return model


def decoder_ids(model, ids):
    if model.n_models is None:
        ids = token_ids(ids, model.vocab_size)
    elif np.ndim(ids) != 3 or np.shape(ids)[0] != model.n_models:
        raise ValueError(f"a stack of {model.n_models} decoders reads ids of shape (S, B, T) with "
                         f"S={model.n_models}, got shape {np.shape(ids)}")
    else:
        ids = token_ids(ids, model.vocab_size, "(S, B, T)", (3,))
    positions(0, ids.shape[-1], model.context_size)
    return ids


def layer_flags(causal, n_layers):
    if isinstance(causal, (bool, np.bool_)):
        return [bool(causal)] * n_layers
    if (isinstance(causal, (tuple, list)) and len(causal) == n_layers
            and all(isinstance(c, (bool, np.bool_)) for c in causal)):
        return [bool(c) for c in causal]
    raise TypeError(f"causal must be True or False (False only for the negative control), or a "
                    f"tuple of {n_layers} bools, one per layer; got {causal!r}")


def layer(value, n_layers):
    if not integer(value, "layer", 0) < n_layers:
        raise ValueError(f"layer must be an int in 0..{n_layers - 1}, got {value!r}")
    return int(value)


def generate(model, prompt_ids, n_new, temperature):
    prompt = token_ids(prompt_ids, model.vocab_size)
    if prompt.ndim != 1:
        raise ValueError(f"generate continues one stream: prompt_ids must have shape (T,), got "
                         f"{prompt.shape}")
    n_new = integer(n_new, "n_new", 0)
    temperature = positive_number(temperature, "temperature (0 = greedy)", zero=True)
    steps, C = len(prompt) + max(n_new - 1, 0), model.context_size
    if steps > C:
        raise ValueError(f"a prompt of {len(prompt)} tokens and {n_new} new ones need {steps} "
                         f"positions, but the position table has {C} (C={C}); shorten the prompt "
                         "or ask for fewer tokens")
    return prompt, n_new, temperature


def pick_token(logits, temperature, rng):
    (logits,) = float_arrays(logits=logits)
    if logits.ndim != 1 or logits.size == 0 or not np.isfinite(logits.max()):    # -inf: never
        raise ValueError(f"logits must have shape (V,), no NaN or +inf, not all -inf: {logits}")
    temperature = positive_number(temperature, "temperature (0 = greedy)", zero=True)
    return logits.astype(np.float64), temperature, np.random.default_rng(rng)   # or a seed


def layer_caches(caches, kind):
    caches = list(caches)
    if not caches or not all(isinstance(kv, kind) for kv in caches):
        raise TypeError("DecoderCache needs one KVCache per layer (at least one)")
    return caches


def one_length(lengths):
    if len(set(lengths)) != 1:
        raise ValueError(f"the layers of this cache have different lengths {sorted(set(lengths))}")
    return lengths[0]


def adam(params, lr, betas, eps):
    if not isinstance(params, dict) or not params:
        raise TypeError(f"params must be a non-empty dict name -> array, got "
                        f"{type(params).__name__}")
    for name, value in params.items():
        if not isinstance(value, np.ndarray) or value.dtype not in (np.float32, np.float64):
            raise TypeError(f"parameter {name} must be a float32 or float64 array (updated in "
                            f"place), got {type(value).__name__}")
    if len(dtypes := {str(value.dtype) for value in params.values()}) > 1:
        raise TypeError(f"the parameters must share one dtype, got {sorted(dtypes)}")
    if len(betas) != 2 or not all(isinstance(b, numbers.Real) and 0 <= b < 1 for b in betas):
        raise ValueError(f"betas must be two numbers in [0, 1), got {betas!r}")
    return (params, positive_number(lr, "lr"), tuple(map(float, betas)),
            positive_number(eps, "eps", zero=True))


def gradients(grads, params):
    """Every gradient, in the order of ``params``, as one vector of their dtype."""
    if set(grads) != set(params):
        missing, extra = sorted(set(params) - set(grads)), sorted(set(grads) - set(params))
        raise ValueError(f"grads must have exactly the keys of params: missing {missing}, "
                         f"unexpected {extra}")
    for name, g in grads.items():
        shape(g, params[name].shape, f"gradient of {name}")
        if not np.all(np.isfinite(g)):
            raise ValueError(f"gradient of {name} is not finite; no parameter was updated")
    return np.concatenate([np.asarray(grads[name], p.dtype).ravel() for name, p in params.items()])


def train(model, values, steps, batch_size, causal, seed, loss_and_grads, observe):
    values, (steps, batch_size) = list(values), sizes(steps=steps, batch_size=batch_size)
    if batch_size > len(values):
        raise ValueError(f"batch_size={batch_size} is larger than the corpus of {len(values)} "
                         "texts")
    function_or_none(loss_and_grads, "loss_and_grads")
    function_or_none(observe, "observe")
    if loss_and_grads is not None and causal is not True:
        raise ValueError("give either causal or loss_and_grads (it decides what the model reads)")
    if model.n_models is None:
        return values, steps, batch_size, [seed]
    if np.ndim(seed) != 1 or len(seed) != model.n_models:
        raise ValueError(f"a stack of {model.n_models} decoders needs {model.n_models} seeds, got "
                         f"{seed!r}")
    return values, steps, batch_size, list(seed)
