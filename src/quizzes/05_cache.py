# Questions for §5 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").
import contextlib
import functools

import numpy as np

import lib.attention
from lib import checks
from lib.attention import (attention_scores, causal_attention, causal_future, masked_softmax, merge_heads,
                           multi_head_attention, split_heads)
from lib.blocked import BLOCK, attention_work, blocked_causal_attention
from lib.data import BOS, EOS, IGNORE, build_vocab, collate

VOCAB = build_vocab(["春雨风"])
MODEL = checks.chapter_model()
IDS = np.array([BOS, 3, 4])                                         # <bos> 春 雨
SEQ8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])


def _cache_after(ids, model=MODEL):
    cache = model.new_cache()
    checks.incremental_forward(model, np.asarray(ids), cache=cache)
    return cache


# §5.1
def length_after_three_steps(n):
    cache = _cache_after(IDS)
    model_step_position = MODEL.embed(np.array([5]), offset=len(cache)) @ MODEL.w_k      # the next token's key
    MODEL.step(5, cache)
    stored = cache.keys[:, -1].reshape(-1)
    return len(cache) - 1 == n and np.allclose(stored, model_step_position.reshape(-1), rtol=0, atol=1e-15)


def cache_stores(claim):
    cache = _cache_after(IDS)
    arrays = {n for n in dir(cache) if not n.startswith("_") and isinstance(getattr(cache, n), np.ndarray)}
    facts = {"keys and values, (H, n, d)": cache.keys.shape == cache.values.shape == (2, 3, 2),
             "queries too": any(n.startswith("quer") for n in arrays),
             "outputs": any(n.startswith("out") for n in arrays)}
    return bool(facts[claim])


def single_step_mask(claim):
    cache = _cache_after(IDS[:2])
    out = MODEL.step(int(IDS[2]), cache)
    names = {n for n in dir(cache) if not n.startswith("_")}
    facts = {"nothing stored is in the future": not causal_future(1, 3).any()
             and np.abs(out - MODEL.forward(IDS)[-1]).max() < 1e-12,
             "the cache stores a mask": any("mask" in n or "allowed" in n for n in names),
             "it needs one": causal_future(1, 3).any()}
    return bool(facts[claim])


def position_of_query_1(position):
    readable = ~causal_future(2, 5)[1]
    return int(readable.sum()) - 1 == position and readable[:position + 1].all()


# the chunk of §5.1: <bos> 春 风 cached, then 春 雨 in one step
def _chunk(allowed_for):
    prompt = np.array([BOS, 3, 5, 3, 4])
    cache = _cache_after(prompt[:3])
    x = MODEL.embed(prompt[3:], offset=len(cache))
    q, k, v = (split_heads((x @ w)[None], MODEL.n_heads)[0] for w in (MODEL.w_q, MODEL.w_k, MODEL.w_v))
    keys, values = np.concatenate([cache.keys, k], axis=1), np.concatenate([cache.values, v], axis=1)
    weights = masked_softmax(attention_scores(q, keys), allowed_for(2, 5))
    out = merge_heads((weights @ values)[None])[0] @ MODEL.w_o
    return np.abs(out - MODEL.forward(prompt)[3:]).max(axis=1)


def top_left_triangle(claim):
    top_left = lambda tq, tk: np.tril(np.ones((tq, tk), dtype=bool))                    # noqa: E731
    gaps = _chunk(top_left)
    assert _chunk(lambda tq, tk: ~causal_future(tq, tk)).max() < 1e-12
    assert np.round(gaps, 3).tolist() == [1.417, 0.371]
    reads_future = (top_left(2, 5) & causal_future(2, 5)).any()
    loses_history = (~top_left(2, 5) & ~causal_future(2, 5)).any()
    facts = {"less history, no leak": loses_history and not reads_future and gaps.min() > 0.1,
             "a leak": reads_future, "the same outputs": gaps.max() < 1e-12}
    return bool(facts[claim])


section("stored per head",
    number(T("After `<bos> 春 雨` is fed into an empty cache, what is the cache's length, which is also the next token's position?"),
           answer=3,
           why=T("A new token sits at position `len(cache)`."),
           wrong=[(0, T("The cache grows by one position per step. Taking every step as position 0 is the reset-to-zero bug of §5.3; it gets the position wrong, not the length.")),
                  (2, T("2 is the position of the last cached token, not the length."))],
           witness=length_after_three_steps),
    choose(T("What does the cache store per head?"),
           right=T("The key and the value of every position seen: (n, d) per head, (H, n, d) for all heads", claim="keys and values, (H, n, d)"),
           why=T("Old queries are not needed: the output uses only the new token's own query."),
           wrong=[(T("Queries, keys and values", claim="queries too"),
                   T("The queries of old positions are never used again.")),
                  (T("Every position's output", claim="outputs"),
                   T("The new query reads keys and values, not old outputs."))],
           witness=cache_stores),
    choose(T("Why does the mask of a step with one new token allow every stored key?"),
           right=T("Every stored position comes no later than the new token", claim="nothing stored is in the future"),
           why=T("A single query aligned bottom-right stands at the last position: `causal_allowed(1, 3)` is all `True`."),
           wrong=[(T("Because the cache stores a mask", claim="the cache stores a mask"),
                   T("The cache stores only keys and values.")),
                  (T("It must forbid some keys, or it leaks", claim="it needs one"),
                   T("The cache holds no position in the new token's future."))],
           witness=single_step_mask),
    number(T("A cache of 3 positions, then 2 new queries in one step (tq = 2, tk = 5). At which absolute position does query i = 1 stand?"),
           answer=4,
           why=T("Query i stands at tk − tq + i = 5 − 2 + 1."),
           wrong=[(1, T("That is the top-left alignment: the new queries taken as the first positions."))],
           witness=position_of_query_1),
    choose(T("With tq < tk, what goes wrong with `np.tril(np.ones((tq, tk)))` as the allowed set?"),
           right=T("Queries lose history they may read: wrong outputs, but no leak from the future", claim="less history, no leak"),
           why=T("The triangle starts in the top-left corner, so query i reads only keys 0…i."),
           wrong=[(T("The future leaks in", claim="a leak"),
                   T("The top-left triangle is smaller than the correct (bottom-right) one: it reads less, not more.")),
                  (T("Nothing: the outputs are the same", claim="the same outputs"),
                   T("The section measures largest differences of about 1.417 and 0.371."))],
           witness=top_left_triangle),
)


# §5.2
def finds_a_cache_mistake(check):
    right, wrong = checks.incremental_forward(MODEL, SEQ8), checks.incremental_forward(MODEL, SEQ8, positions=[0] * 8)
    full = MODEL.forward(SEQ8)
    catches = {"position by position": np.abs(wrong - full).max() > 1e-12 and np.abs(right - full).max() < 1e-12,
               "shapes": wrong.shape != full.shape}
    return bool(catches[check])


def _random_models():
    """Models with random parameters (width, heads, C) and a stream of C tokens that fills each table."""
    for seed, (width, heads, c) in enumerate([(12, 3, 40), (8, 1, 64), (16, 4, 33)]):
        model = checks.random_model(seed, vocab_size=50, context_size=c, width=width, n_heads=heads)
        yield model, np.random.default_rng(seed).integers(0, 50, size=c)


@functools.cache
def _random_model_facts():
    models = list(_random_models())
    errors = [checks.cache_error(m, ids) for m, ids in models]
    model, ids = models[0]
    causal = checks.check_causality(model.forward, lambda t: model.forward(t, causal=False), ids[:8],
                                    checks.perturb_future(ids[:8], 4, np.random.default_rng(0), vocab_size=50), 4)
    return max(errors), causal.passed


def tolerance_on_random_models(claim):
    largest_error, causal = _random_model_facts()
    facts = {"rounding": largest_error < 1e-12, "an approximation": largest_error >= 1e-12, "not causal": not causal}
    return bool(facts[claim])


def sequence_of_c_tokens(claim):
    model, ids = next(_random_models())
    cache = model.new_cache()
    checks.incremental_forward(model, ids, cache=cache)
    facts = {"every row of the table": len(ids) == model.context_size == len(cache) == cache.capacity,
             "shorter ones raise": refusal(checks.cache_error, model, ids[:5]) is not None}
    return bool(facts[claim])


section("equivalence test",
    choose(T("How do you check that the cache does not change what the model computes?"),
           right=T("Compare the token-by-token outputs with the full forward pass, position by position", claim="position by position"),
           why=T("On the §4.1 model the largest difference, rounded to 12 decimals, is 0.0: the two routes agree up to rounding."),
           wrong=[(T("Compare the shapes", claim="shapes"),
                   T("With positions reset to 0 the shapes are all right.")),
                  (T("Compare the last output only"),
                   T("A mistake may show at any position."))],
           witness=finds_a_cache_mistake),
    choose(T("Why does the check on random models allow a tolerance of 10⁻¹²?"),
           right=T("The two routes multiply matrices of different shapes, so the last digits may round differently", claim="rounding"),
           why=T("The difference is rounding, not a mistake."),
           wrong=[(T("The cache is an approximation", claim="an approximation"),
                   T("The cache computes the same function.")),
                  (T("Random models are not causal", claim="not causal"),
                   T("They are causal; §4.9 checks it."))],
           witness=tolerance_on_random_models),
    choose(T("Why does the random sequence have exactly C tokens?"),
           right=T("So that every row of the position table is used", claim="every row of the table"),
           why=T("The cache then fills up to its capacity, and every position gets checked."),
           wrong=[(T("Shorter sequences raise errors", claim="shorter ones raise"),
                   T("Shorter ones work; they check fewer rows.")),
                  (T("To measure speed"),
                   T("Speed is measured in §5.8."))],
           witness=sequence_of_c_tokens),
)


# §5.3
FULL8 = MODEL.forward(SEQ8)
RESET8 = np.abs(checks.incremental_forward(MODEL, SEQ8, positions=[0] * 8) - FULL8).max(axis=1)


def every_step_at_position_0(claim):
    wrong = {int(t) for t in np.flatnonzero(RESET8 > 1e-3)}
    facts = {"no error; all but 0 wrong": wrong == set(range(1, 8)) and RESET8[0] < 1e-12,
             "an error": refusal(checks.incremental_forward, MODEL, SEQ8, positions=[0] * 8) is not None,
             "only the last": wrong == {7}}
    return bool(facts[claim])


def position_0_right_because(claim):
    at_1 = np.abs(checks.incremental_forward(MODEL, SEQ8[:1], positions=[1])[0] - FULL8[0]).max()
    facts = {"its position is 0 anyway": RESET8[0] < 1e-12 and at_1 > 1e-3,
             "<bos> has no position vector": not MODEL.position_table[0].any(),
             "it reads only itself": at_1 < 1e-12}
    return bool(facts[claim])


def finds_the_reset_bug(check):
    cache = _cache_after(IDS[:2])
    wrong = MODEL.step(4, cache, position=0)
    error = np.abs(wrong - MODEL.forward(IDS)[2]).max()
    assert abs(error - 0.0875) < 0.0001                                # the third token's error
    catches = {"entry by entry": error > 1e-12, "shapes": wrong.shape != MODEL.forward(IDS)[2].shape,
               "no NaN": not np.isfinite(wrong).all()}
    return bool(catches[check])


section("reset-to-zero",
    choose(T("What happens if every step puts the new token at position 0?"),
           right=T("No error, but every position except 0 is wrong", claim="no error; all but 0 wrong"),
           why=T("Every shape matches; the new token just gets the wrong position vector."),
           wrong=[(T("A ValueError", claim="an error"),
                   T("Nothing raises; that is what makes it dangerous.")),
                  (T("Only the last position is wrong", claim="only the last"),
                   T("Every step resets, so every position but 0 is wrong."))],
           witness=every_step_at_position_0),
    choose(T("Why is position 0 right even with the bug?"),
           right=T("Its position is 0 anyway", claim="its position is 0 anyway"),
           why=T("The error starts at position 1."),
           wrong=[(T("Because `<bos>` needs no position vector", claim="<bos> has no position vector"),
                   T("`<bos>` gets P[0] added like any token.")),
                  (T("Because it reads only itself", claim="it reads only itself"),
                   T("Put at position 1 instead, it would be wrong although it still reads only itself."))],
           witness=position_0_right_because),
    choose(T("Which check finds this bug?"),
           right=T("An entry-by-entry comparison with the full forward pass", claim="entry by entry"),
           why=T("The third token's error is about 0.0875."),
           wrong=[(T("Checking the shapes", claim="shapes"),
                   T("The shapes are all right.")),
                  (T("Checking that the output has no NaN", claim="no NaN"),
                   T("The output is finite, just wrong."))],
           witness=finds_the_reset_bug),
)


# §5.4
def one_step_past_the_table(claim):
    cache = _cache_after(SEQ8)
    keys, values = cache.keys.copy(), cache.values.copy()
    message = refusal(MODEL.step, 3, cache)
    fact = ("raises" if message is not None else "accepts",
            "unchanged" if len(cache) == 8 and np.array_equal(cache.keys, keys)
            and np.array_equal(cache.values, values) else "changed")
    return claim == fact


def first_undefined_position(position):
    undefined = [p for p in range(12) if refusal(MODEL.embed, np.array([3]), offset=p) is not None]
    return undefined[0] == position


def untouched_cache_matters(claim):
    cache = _cache_after(SEQ8)
    refusal(MODEL.step, 3, cache)
    cache.truncate(7)
    usable = np.abs(MODEL.step(int(SEQ8[7]), cache) - FULL8[7]).max() < 1e-12
    broken = _cache_after(SEQ8[:6])
    k, v = cache.keys[:, 0], cache.values[:, 0]
    broken.append(k, v)                                              # half of a failed step left behind
    wrong = np.abs(MODEL.step(int(SEQ8[6]), broken) - FULL8[6]).max() > 1e-3
    facts = {"still usable": usable, "it does not matter": not wrong}
    return bool(facts[claim])


section("Past the position table",
    choose(T("The cache holds 8 positions (C = 8). What does one more `step` do?"),
           right=T("It raises a `ValueError` and leaves the cache as it was", claim=("raises", "unchanged")),
           why=T("The failed step does not change a single bit of the cache: its length is still 8."),
           wrong=[(T("It wraps around to position 0", claim=("accepts", "changed")),
                   T("Wrapping would quietly change the model (§3.3).")),
                  (T("It raises, but the cache has grown by one", claim=("raises", "changed")),
                   T("Then a caller that catches the error would hold a broken cache."))],
           witness=one_step_past_the_table),
    number(T("With C = 8, which is the first undefined position?"),
           answer=8,
           why=T("The table has rows 0 to 7 only."),
           wrong=[(7, T("Position 7 is the last defined one.")),
                  (9, T("Positions count from 0."))],
           witness=first_undefined_position),
    choose(T("Why does it matter that a failed step leaves the cache untouched?"),
           right=T("A caller that catches the error still has a usable cache", claim="still usable"),
           why=T("A half-written step would leave a key and a value that no output belongs to, and every later step would read them."),
           wrong=[(T("For speed"), T("It is about correctness, not speed.")),
                  (T("It does not matter", claim="it does not matter"),
                   T("A half-written cache makes every later step wrong."))],
           witness=untouched_cache_matters),
)


# §5.5: the two-layer model of the section (attention and a residual connection per layer, random weights)
RNG = np.random.default_rng(8)
E2, P2 = RNG.standard_normal((6, 8)), RNG.standard_normal((8, 8))
LAYERS = [[RNG.standard_normal((8, 8)) / np.sqrt(8) for _ in range(4)] for _ in range(2)]
IDS2 = RNG.integers(0, 6, size=8)


def two_layer_forward(ids, layers=LAYERS):
    h = E2[ids] + P2[:len(ids)]
    outputs = [h]
    for w_q, w_k, w_v, w_o in layers:
        h = h + multi_head_attention(h[None], w_q, w_k, w_v, w_o, 2)[0]
        outputs.append(h)
    return outputs


def two_layer_steps(ids, cached_layers):
    stored = [[] for _ in LAYERS]
    outputs = []
    for t, token in enumerate(ids):
        h = (E2[token] + P2[t])[None]
        for n, (w_q, w_k, w_v, w_o) in enumerate(LAYERS):
            q, k, v = (split_heads((h @ w)[None], 2)[0] for w in (w_q, w_k, w_v))
            if n in cached_layers:
                stored[n].append((k, v))
                k = np.concatenate([key for key, _ in stored[n]], axis=1)
                v = np.concatenate([value for _, value in stored[n]], axis=1)
            h = h + merge_heads(causal_attention(q, k, v)[None])[0] @ w_o
        outputs.append(h[0])
    return np.stack(outputs)


FIRST_ONLY = np.abs(two_layer_steps(IDS2, {0}) - two_layer_forward(IDS2)[-1]).max(axis=1)


def first_layer_cached_only(claim):
    both = np.abs(two_layer_steps(IDS2, {0, 1}) - two_layer_forward(IDS2)[-1]).max()
    facts = {"all but position 0 clearly wrong": FIRST_ONLY[0] < 1e-12 and (FIRST_ONLY[1:] > 0.1).all() and both < 1e-12,
             "rounding only": FIRST_ONLY.max() < 1e-12, "an error": refusal(two_layer_steps, IDS2, {0}) is not None}
    return bool(facts[claim])


def old_keys_cacheable_because(claim):
    inputs = [two_layer_forward(IDS2[:t])[:len(LAYERS)] for t in range(1, 9)]   # every layer's input after t tokens
    stable = all(np.allclose(inputs[t][n][:t], inputs[-1][n][:t], rtol=0, atol=1e-12)
                 for t in range(1, 8) for n in range(len(LAYERS)))
    facts = {"causality": stable, "shared parameters": all(np.array_equal(a, b) for a, b in zip(*LAYERS)),
             "attention in the first layer only": len(LAYERS) < 2}
    return bool(facts[claim])


def position_0_right_with_first_layer_only(claim):
    facts = {"it reads only itself": FIRST_ONLY[0] < 1e-12 and (~causal_future(8, 8)[0]).sum() == 1,
             "it holds <bos>": IDS2[0] == BOS,
             "the residual connection": (FIRST_ONLY[1:] < 1e-12).all()}
    return bool(facts[claim])


section("own cache",
    choose(T("A two-layer model caches layer 0 only. What happens?"),
           right=T("Every position except 0 has a clear error", claim="all but position 0 clearly wrong"),
           why=T("The new query of layer 1 must read that layer's keys and values of the old positions."),
           wrong=[(T("Only rounding errors", claim="rounding only"),
                   T("That is what caching both layers gives.")),
                  (T("An exception", claim="an error"), T("Nothing raises; the results are just wrong."))],
           witness=first_layer_cached_only),
    choose(T("Why can a layer's keys and values for old positions be cached at all?"),
           right=T("By causality, a layer's input at old positions does not change when a new token arrives", claim="causality"),
           why=T("The cache is correct only because of the causality of §4."),
           wrong=[(T("Because all layers share their parameters", claim="shared parameters"),
                   T("The layers have parameters of their own.")),
                  (T("Because only layer 0 has attention", claim="attention in the first layer only"),
                   T("Every layer has attention."))],
           witness=old_keys_cacheable_because),
    choose(T("With only layer 0 cached, why is position 0 right?"),
           right=T("It reads only itself anyway", claim="it reads only itself"),
           why=T("A layer without a cache can read only the new token itself, and position 0 has nothing else to read."),
           wrong=[(T("Because it holds `<bos>`", claim="it holds <bos>"),
                   T("The token does not matter; what it may read does.")),
                  (T("Because of the residual connection", claim="the residual connection"),
                   T("The residual connection is the same at every position, yet the others are wrong."))],
           witness=position_0_right_with_first_layer_only),
)


# §5.6
def big_cache_mib(mib):
    sizes = {checks.kv_cache_bytes(12, h, 768 // h, 1024, itemsize=4) for h in (1, 4, 12)}
    assert len(sizes) == 1
    return abs(sizes.pop() / 2 ** 20 - mib) <= 0.5


def small_cache_bytes(n):
    cache = _cache_after(SEQ8)
    assert cache.dtype == np.float64
    return cache.keys.nbytes + cache.values.nbytes == checks.kv_cache_bytes(1, 2, 2, 8, itemsize=8) == n


def head_count_and_size(claim):
    sizes = [checks.kv_cache_bytes(12, h, 768 // h, 1024) for h in (1, 2, 4, 12)]
    facts = {"no change": len(set(sizes)) == 1, "grows": sizes[-1] > sizes[0], "shrinks": sizes[-1] < sizes[0]}
    return bool(facts[claim])


section("memory",
    number(T("12 layers, D = 768, 1024 positions, float32: how many MiB does the cache take per sequence?"),
           answer=72, tolerance=0.5,
           why=T("2·L·n·D·itemsize bytes for n = 1024 positions: the 2 counts keys and values."),
           wrong=[(36, T("That leaves out the values (or the keys): each position stores both.")),
                  (6, T("That counts one layer: every layer has a cache of its own."))],
           witness=big_cache_mib),
    number(T("One layer, 2 heads of width 2, 8 positions, float64: how many bytes does the cache take?"),
           answer=512,
           why=T("2 (keys, values) · 1 layer · 2 heads · 8 positions · width 2 · 8 bytes: the model's cache holds exactly that."),
           wrong=[(256, T("A float64 number takes 8 bytes, not 4; or the values were left out."))],
           witness=small_cache_bytes),
    choose(T("At fixed D, how does the number of heads change the cache's size?"),
           right=T("Not at all: H·d = D", claim="no change"),
           why=T("The heads only decide how the same total is cut."),
           wrong=[(T("It grows linearly with H", claim="grows"),
                   T("The attention tables grow with H (§2.6), not the cache.")),
                  (T("It shrinks as H grows", claim="shrinks"),
                   T("d shrinks as H grows; their product stays the same."))],
           witness=head_count_and_size),
)


# §5.7: collate(["雨", "春雨"]): the row of 雨 is <bos> 雨 <eos>, targets 雨 <eos> −100
INPUTS, TARGETS = collate(["雨", "春雨"], VOCAB)


def left_padding_with_cache(claim):
    shifted = checks.incremental_forward(MODEL, np.array([EOS, BOS, 4]))[-1]
    gap = np.abs(shifted - MODEL.forward(INPUTS[0, :2])[-1]).max()
    facts = {"read, and the positions pushed back": gap > 1e-3 and len(_cache_after([EOS])) == 1,
             "overflow": len(_cache_after([EOS, BOS, 4])) > MODEL.context_size, "it works": gap < 1e-12}
    return bool(facts[claim])


def prefix_to_continue(length):
    valid = int((TARGETS[0] != IGNORE).sum())
    right = _cache_after(INPUTS[0, :valid])
    padded = _cache_after(INPUTS[0])
    assert np.abs(MODEL.step(3, padded) - MODEL.step(3, right)).max() > 1e-3    # the padding changes the next output
    return valid == length


def only_offset(claim):
    cache = _cache_after(IDS)
    names = {n for n in dir(cache) if not n.startswith("_")}
    x_next = MODEL.embed(np.array([5]), offset=len(cache))
    MODEL.step(5, cache)
    facts = {"its length": np.allclose(cache.keys[:, -1].reshape(-1), (x_next @ MODEL.w_k).reshape(-1)),
             "an offset per example": any("offset" in n for n in names),
             "the padding length": any("pad" in n for n in names)}
    return bool(facts[claim])


section("unpadded sequence",
    choose(T("Why does the cache not work with left padding?"),
           right=T("The padding lies in the past, so it is read, and every real token's position is pushed back", claim="read, and the positions pushed back"),
           why=T("The cache's length is its only offset; it cannot skip padding row by row."),
           wrong=[(T("Left padding overflows the cache", claim="overflow"),
                   T("The trouble is what is read and where the tokens stand, not capacity.")),
                  (T("It does work", claim="it works"),
                   T("The last output of the left-padded sequence differs from that of `<bos> 雨` alone."))],
           witness=left_padding_with_cache),
    number(T("To continue the training row `<bos> 雨 <eos>` (targets `雨 <eos> −100`), how many positions does the prefix have?"),
           answer=2,
           why=T("`<bos> 雨`: the positions whose target is not −100. The last input is only padding."),
           wrong=[(3, T("With the whole row the new token would land at position 3 and read a position that is not text.")),
                  (1, T("雨 is real text and stays."))],
           witness=prefix_to_continue),
    choose(T("What is the cache's only offset?"),
           right=T("Its length: the position of the next token", claim="its length"),
           why=T("It is one number for the whole cache, so the cache can skip no padding: the one sequence it holds must be unpadded. It holds only one because its keys and values, of shape (H, n, d), have no batch axis."),
           wrong=[(T("An offset of its own for each example", claim="an offset per example"),
                   T("The cache has no offset per example.")),
                  (T("The length of the padding", claim="the padding length"),
                   T("The cache does not know where padding is."))],
           witness=only_offset, defined_in="5.7", term=T("offset")),
)


# §5.8: count the scores each way (each table of scores is what the body of
# lib.attention.attention_scores returns: lib calls checked functions' bodies, `.plain`)
@contextlib.contextmanager
def counting_scores():
    counted, original = [], lib.attention.attention_scores.plain

    def counting(q, k):
        scores = original(q, k)
        counted.append(scores.shape[-2] * scores.shape[-1])          # per head
        return scores
    lib.attention.attention_scores.plain = counting
    try:
        yield counted
    finally:
        lib.attention.attention_scores.plain = original


def scores_for_next_token(claim):
    per_t = {}
    for t in (3, 7):
        cache = _cache_after(SEQ8[:t])
        with counting_scores() as full:
            MODEL.forward(SEQ8[:t + 1])
        with counting_scores() as step:
            MODEL.step(int(SEQ8[t]), cache)
        per_t[t] = (sum(full), sum(step))
    forms = {"(T+1)², T+1": lambda t: ((t + 1) ** 2, t + 1), "(T+1)² both": lambda t: ((t + 1) ** 2,) * 2,
             "T+1 both": lambda t: (t + 1,) * 2}
    return all(per_t[t] == forms[claim](t) for t in per_t)


def cached_step_equals(claim):
    cache = _cache_after(SEQ8[:5])
    out = MODEL.step(int(SEQ8[5]), cache)
    full = MODEL.forward(SEQ8[:6])
    candidates = {"the last row": full[-1], "the first row": full[0], "the mean of the rows": full.mean(axis=0)}
    return np.abs(out - candidates[claim]).max() < 1e-12


def cache_costs(claim):
    sizes = [checks.kv_cache_bytes(2, 4, 16, t) for t in (128, 256, 512)]
    facts = {"memory linear in T": sizes[1] == 2 * sizes[0] and sizes[2] == 2 * sizes[1],
             "nothing": sizes[0] == 0, "memory like T²": sizes[1] == 4 * sizes[0]}
    return bool(facts[claim])


section("time the cache saves",
    choose(T("How many scores per head does the next token's output cost at prefix length T, without the cache and with it?"),
           right=T("(T + 1)² without, T + 1 with: the gap grows with T", claim="(T+1)², T+1"),
           why=T("The full forward pass scores every query again; the cached step scores only the new query against T + 1 keys."),
           wrong=[(T("(T + 1)² both ways", claim="(T+1)² both"),
                   T("The cached step has a single query.")),
                  (T("T + 1 both ways", claim="T+1 both"),
                   T("The full forward pass recomputes the whole table, every query included."))],
           witness=scores_for_next_token),
    choose(T("However fast it is, what must the cached step's output equal?"),
           right=T("The last row of the full forward pass over T + 1 tokens", claim="the last row"),
           why=T("The cell that times both ways also checks it, after the timings: saving time must not change the result."),
           wrong=[(T("The first row of that pass", claim="the first row"),
                   T("The first row belongs to position 0, not to the new token.")),
                  (T("The mean of its rows", claim="the mean of the rows"),
                   T("Each row is the output of one position; the new token's is the last."))],
           witness=cached_step_equals),
    choose(T("What does the cache spend to save this time?"),
           right=T("Memory that grows linearly with T: a key and a value per position, head and layer", claim="memory linear in T"),
           why=T("§5.6 counts it: 2·L·n·D·itemsize bytes for n cached positions."),
           wrong=[(T("Nothing: it is free", claim="nothing"),
                   T("Every stored key and value takes memory.")),
                  (T("Memory that grows like T²", claim="memory like T²"),
                   T("That is the attention table of a full forward pass; the cache keeps one key and one value per position."))],
           witness=cache_costs),
)


# §5.9
def percent_of_the_table(value):
    work = attention_work(1024, 1024)
    assert work.computed == BLOCK ** 2 * sum(range(1, 17)) == 557056 and work.total == 1024 ** 2
    assert work.allowed == 1024 * 1025 // 2                           # a little more than half: the diagonal squares
    return abs(100 * work.fraction - value) <= 0.06


def entries_allowed(value):
    work = attention_work(1024, 1024)
    assert work.allowed == int((~causal_future(1024, 1024)).sum())   # the allowed set of §1, counted
    assert work.computed - work.allowed == 16 * BLOCK * (BLOCK - 1) // 2  # the future halves of the diagonal squares
    return value == work.allowed


def key_blocks_of_query_block(claim):
    m, blocks = 3, 8
    computed = attention_work(BLOCK, BLOCK * (m + 1)).computed // BLOCK ** 2
    future = causal_future(BLOCK, BLOCK * (m + 1))
    masked_blocks = {j for j in range(m + 1) if future[:, j * BLOCK:(j + 1) * BLOCK].any()}
    facts = {"0 to m, mask in m": computed == m + 1 and masked_blocks == {m},
             "every block": computed == blocks, "only block m": computed == 1}
    return bool(facts[claim])


@functools.cache
def _blocked_agrees():
    rng = np.random.default_rng(0)
    agree = {}
    for t in (100, 256):
        q, k, v = (rng.standard_normal((1, 2, t, 16), dtype=np.float32) for _ in range(3))
        agree[t] = np.allclose(blocked_causal_attention(q, k, v), causal_attention(q, k, v), rtol=1e-5, atol=1e-5)
    return agree


def blocked_numbers(claim):
    agree = _blocked_agrees()
    facts = {"the same, up to rounding": all(agree.values()), "different": not any(agree.values()),
             "multiples of 64 only": agree[256] and not agree[100]}
    return bool(facts[claim])


section("half of the scores",
    number(T("At T = 1024, what percentage of the definition's scores does `blocked_causal_attention` compute? (1 decimal)"),
           answer=53.1, tolerance=0.06,
           why=T("Each block of 64 queries scores only the keys up to its last query; only its last 64 columns need the mask, and they are computed whole, so a little more than half of the table is computed."),
           wrong=[(100, T("That is the definition, `causal_attention`: the whole table, then every entry above the diagonal forbidden.")),
                  (50, T("The last 64 columns of each block are computed whole, forbidden entries included, so a little more than half."))],
           witness=percent_of_the_table),
    number(T("At T = 1024, how many entries of the T × T score table are in the allowed set?"),
           answer=524800,
           why=T("Query i may read keys 0 to i: 1 + 2 + ⋯ + 1024 = 1024 · 1025 / 2. The blocks compute 557,056 scores, a little more, because each square on the diagonal is computed whole."),
           wrong=[(557056, T("That is what the blocks compute: each square on the diagonal is computed whole, its future half included.")),
                  (523776, T("That leaves out the diagonal: every query may read its own key (§1.3).")),
                  (1048576, T("That is the whole table, the future included."))],
           witness=entries_allowed),
    choose(T("Which key blocks does query block m need?"),
           right=T("Blocks 0 to m; only block m needs the mask", claim="0 to m, mask in m"),
           why=T("That is the bottom-right alignment of §5.1, block by block."),
           wrong=[(T("Every key block", claim="every block"),
                   T("The blocks after m lie wholly in the future.")),
                  (T("Only block m", claim="only block m"),
                   T("Every earlier block may be read."))],
           witness=key_blocks_of_query_block),
    choose(T("Does `blocked_causal_attention` give the numbers of the definition?"),
           right=T("Yes, up to rounding", claim="the same, up to rounding"),
           why=T("The skipped keys would have got the weight 0 anyway."),
           wrong=[(T("No: skipping the future keys changes the weights", claim="different"),
                   T("The definition keeps a future key in the softmax's sum, but it adds exactly 0 there, since exp(−∞) = 0.")),
                  (T("Only when T is a multiple of 64", claim="multiples of 64 only"),
                   T("The last block is simply shorter."))],
           witness=blocked_numbers),
)
