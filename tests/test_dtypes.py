"""The package's one dtype rule (lib/__init__), checked for every public function.

Rule: numbers come out in the common float dtype of the numeric array
arguments (float32 stays float32, float32 with float64 gives float64, integers
count as float64); ids, masks and sizes never change it; rearrangements keep
their input's dtype; difference measurements are float64; counts are ints.
"""

import inspect
import re

import numpy as np
import pytest

import fast_attention as fast
from lib import attention, blocked, checks, costs, data, model, positions
from lib.attention import (attention_scores, causal_allowed, causal_attention, causal_future, masked_softmax, merge_heads, multi_head_attention, split_heads,
                           unmasked_attention)
from lib.blocked import attention_work, blocked_causal_attention
from fast_attention import fast_causal_attention
from lib.model import AttentionModel, KVCache
from lib.positions import embed, embed_backward

F32, F64, INT = np.float32, np.float64, np.int64

# (dtypes of the numeric array arguments, expected dtype of the result)
COMBOS = {
    "float32": (F32, F32),
    "float64": (F64, F64),
    "float32+float64": ("mixed32first", F64),
    "float64+float32": ("mixed64first", F64),
    "integers": (INT, F64),
}


def dtypes_for(combo, n):
    kind, _ = COMBOS[combo]
    if kind == "mixed32first":
        return [F32] + [F64] * (n - 1)
    if kind == "mixed64first":
        return [F64] + [F32] * (n - 1)
    return [kind] * n


def numbers(shape, dtype, seed):
    rng = np.random.default_rng(seed)
    if dtype == INT:
        return rng.integers(-2, 3, size=shape)
    return rng.standard_normal(shape).astype(dtype)


def args_for(combo, shapes):
    return [numbers(shape, dtype, i) for i, (shape, dtype) in enumerate(zip(shapes, dtypes_for(combo, len(shapes))))]


def expected(combo):
    return np.dtype(COMBOS[combo][1])


@pytest.mark.parametrize("combo", COMBOS)
def test_attention_functions(combo):
    q, k, v = args_for(combo, [(2, 3, 4), (2, 5, 4), (2, 5, 3)])
    assert attention_scores(q, k).dtype == expected(combo)
    for fn in (causal_attention, blocked_causal_attention, fast_causal_attention, unmasked_attention):
        assert fn(q, k, v).dtype == expected(combo), fn.__name__
    for fn in (blocked_causal_attention, fast_causal_attention):
        assert fn(q, k, v, skip_future=False).dtype == expected(combo)
    (scores,) = args_for(combo, [(3, 3)])                                  # one numeric argument
    want = scores.dtype if scores.dtype.kind == "f" else np.dtype(F64)
    assert masked_softmax(scores, ~causal_future(3, 3)).dtype == want


def test_causal_attention_stays_float32_in_threads(monkeypatch):
    """The blocked, threaded path (large inputs) keeps float32 too."""
    monkeypatch.setattr(fast, "_SMALL_WORK", 0)
    q = numbers((2, 300, 8), F32, 0)
    assert fast_causal_attention(q, q, q).dtype == F32
    assert all(rows.dtype == F32 for rows in fast.row_lengths(q, q, q))


@pytest.mark.parametrize("combo", COMBOS)
def test_multi_head_attention(combo):
    x, *weights = args_for(combo, [(2, 3, 4)] + [(4, 4)] * 4)
    assert multi_head_attention(x, *weights, n_heads=2).dtype == expected(combo)
    assert multi_head_attention(x, *weights, n_heads=2, causal=False).dtype == expected(combo)
    assert checks.attention_weights(x, weights[0], weights[1], 2).dtype == expected(combo)
    out, saved = attention.multi_head_attention_forward(x, *weights, n_heads=2)     # a MultiHeadSaved
    assert out.dtype == saved.merged.dtype == saved.attention.weights.dtype == expected(combo)
    q, k, v = args_for(combo, [(2, 3, 4), (2, 5, 4), (2, 5, 3)])
    out, saved = attention.causal_attention_forward(q, k, v)                        # an AttentionSaved
    assert out.dtype == saved.weights.dtype == expected(combo)




@pytest.mark.parametrize("dtype", [F32, F64, INT, np.int8, bool])
def test_rearrangements_keep_the_dtype(dtype):
    x = np.arange(24).reshape(1, 3, 8).astype(dtype)
    assert split_heads(x, 2).dtype == dtype
    assert merge_heads(split_heads(x, 2)).dtype == dtype


def test_masks_and_counts():
    assert causal_future(2, 3).dtype == bool and causal_allowed(2, 3).dtype == bool
    assert (causal_allowed(2, 3) == ~causal_future(2, 3)).all()
    work = attention_work(300, 300)
    assert all(type(n) is int for n in work[:3]) and isinstance(work.fraction, float)
    assert checks.upper_right_is_zero(np.eye(3, dtype=F32)) is True
    assert type(checks.kv_cache_bytes(1, 2, 2, 8)) is int
    for value in costs.head_costs([1, 2], width=4, length=3).values():
        assert value.dtype == np.int64
    inputs, targets = data.collate(["ab"], data.build_vocab(["ab"]))
    assert inputs.dtype == targets.dtype == np.int64


@pytest.mark.parametrize("combo", COMBOS)
def test_embed_and_its_backward(combo):
    E, P = args_for(combo, [(6, 4), (5, 4)])
    assert embed(np.array([1, 2]), E, P).dtype == expected(combo)
    (grad,) = args_for(combo, [(2, 3, 4)])
    want = grad.dtype if grad.dtype.kind == "f" else np.dtype(F64)
    d_token, d_position = embed_backward(grad, np.array([[1, 2, 3], [0, 0, 1]]), 6, 5)
    assert d_token.dtype == want and d_position.dtype == want             # both tables, the position one too


@pytest.mark.parametrize("combo", COMBOS)
def test_model_stores_one_dtype(combo):
    params = args_for(combo, [(6, 4), (5, 4)] + [(4, 4)] * 4)
    m = AttentionModel(*params, n_heads=2)
    assert m.dtype == expected(combo)
    for p in (m.token_table, m.position_table, m.w_q, m.w_k, m.w_v, m.w_o):
        assert p.dtype == expected(combo)
    ids = np.array([1, 2, 3])
    assert m.forward(ids).dtype == expected(combo)
    assert m.forward(ids[None], causal=False).dtype == expected(combo)
    assert m.embed(ids, use_positions=False).dtype == expected(combo)
    cache = m.new_cache()
    assert cache.dtype == expected(combo)
    assert m.step(1, cache).dtype == expected(combo)
    assert cache.keys.dtype == cache.values.dtype == expected(combo)


def test_mixed_model_cache_agrees_with_its_forward():
    """float32 tables with float64 weights: the cache must not round the values to float32."""
    rng = np.random.default_rng(0)
    m = AttentionModel(rng.standard_normal((6, 4)).astype(F32), rng.standard_normal((5, 4)).astype(F32),
                       *(rng.standard_normal((4, 4)) for _ in range(4)), n_heads=2)
    assert checks.cache_error(m, np.array([1, 2, 3, 4, 5])) < 1e-12


@pytest.mark.parametrize("dtype", [F32, F64])
def test_checks_follow_the_model_dtype(dtype):
    m = checks.random_model(0, vocab_size=6, context_size=5, width=4, n_heads=2, dtype=dtype)
    assert m.dtype == dtype and checks.chapter_model(dtype).dtype == dtype
    ids = np.array([1, 2, 3, 4])
    assert checks.incremental_forward(m, ids).dtype == dtype
    assert checks.forward_with(m, ids, before=checks.feature_normalization).dtype == dtype
    x = m.embed(ids)
    assert checks.feature_normalization(x).dtype == dtype
    assert checks.leaky_time_normalization(x).dtype == dtype
    assert checks.perturb_future(x, 2, 0).dtype == dtype
    assert checks.perturb_future(ids, 2, 0, vocab_size=6).dtype == ids.dtype
    assert checks.row_changes(m.forward, ids, checks.perturb_future(ids, 2, 0, vocab_size=6)).dtype == F64
    result = checks.check_causality(m.forward, lambda i: m.forward(i, causal=False),
                                    ids, checks.perturb_future(ids, 2, 0, vocab_size=6), 2, tolerance=1e-6)
    assert type(result.change) is float and type(result.control_change) is float
    assert type(checks.cache_error(m, ids)) is float
    assert type(checks.future_change(m.forward, ids, checks.perturb_future(ids, 2, 0, vocab_size=6), 2)) is float
    assert KVCache(2, 2, 3, dtype).keys.dtype == dtype


def test_normalizations_count_integers_as_float64():
    x = np.arange(12).reshape(3, 4)
    np.testing.assert_allclose(checks.feature_normalization(x), checks.feature_normalization(x.astype(F64)))
    assert checks.leaky_time_normalization(x).dtype == F64


def test_every_public_function_is_covered_here():
    """A new public function must get a line in this file (and so a dtype test)."""
    source = inspect.getsource(inspect.getmodule(test_every_public_function_is_covered_here))
    source = source.replace("test_every_public_function_is_covered_here", "")
    missing = []
    for module in (attention, blocked, checks, costs, data, model, positions, fast):
        for name, obj in vars(module).items():
            if name.startswith("_") or not callable(obj) or getattr(obj, "__module__", None) != module.__name__:
                continue
            if not re.search(rf"\b{name}\b", source):
                missing.append(f"{module.__name__}.{name}")
    assert missing == [], f"no dtype test mentions {missing}"


# Named here because their results are not floats: data.build_vocab, data.encode, data.decode
# (strings and ints), checks.CausalityCheck and
# blocked.AttentionWork (result records, checked above through check_causality and
# attention_work).
def test_results_that_are_not_floats():
    vocab = data.build_vocab(["ab"])
    assert data.encode("ab", vocab) == [3, 4] and data.decode([3, 4], vocab) == "ab"
    assert isinstance(attention_work(2, 2), blocked.AttentionWork)
    m = checks.chapter_model()
    ids = np.array([1, 3, 4])
    assert isinstance(checks.check_causality(m.forward, m.forward, ids, np.array([1, 3, 0]), 2),
                      checks.CausalityCheck)
