# §5 The KV cache needs a position offset: per-head K/V reuse, equivalence with the
# full forward pass, the reset-to-zero bug, the end of the position table, a cache per
# layer (two-layer demonstration), memory, the single unpadded sequence, timing, and the
# work the causal mask saves (future key blocks never computed).

md(r"""
# 5 The cache needs a position offset

When a model generates text, it adds one token at a time. The naive way is to run the whole sequence through the forward pass again for every new token and keep only the last output row. All the work for the earlier positions is repeated each time.

§4 lets us skip that repetition: in a causal model with fixed parameters, tokens appended later do not change the representations of earlier positions. So the **keys and values** of old positions can be computed once and stored. That store is the **KV cache**. A new token needs only its own query, key and value, and then reads the whole stored history.
""")

md(r"""
## 5.1 Keys and values, stored per head

We keep the model of §4.1, with its hand-chosen parameters ($D=4$, $H=2$, $d=2$, a position table of 8 rows). `model.new_cache()` creates an empty cache whose capacity is the number of rows of the position table. `model.step(token, cache)` handles one new token:

1. the new token takes position t = `len(cache)`, and its input vector is $E[x_t] + P[t]$;
2. its query, key and value are computed and split into heads;
3. every head's key and value are appended to the cache;
4. the new query reads **every** stored position, its own included (Figure 5.1).

![The KV cache grows by one position per step: steps 0, 1 and 2 feed BOS, 春 and 雨. At each step the new token goes to position len(cache), its key and value are appended to the cache, and its query reads every stored position, its own included.](figures/cache.svg)

Every stored position comes no later than the new token, so the new query may read them all: its row of the mask is all `True` (for 雨, `causal_allowed(1, 3)`). Queries of old positions are not stored: the output needs only the new token's own query.

Below we feed `<bos> 春 雨`. Each line of the loop prints the token, the position it takes (the cache's length before the step) and the shapes $(H, n, d)$ of the stored keys and values after the step, with n stored positions.
""")

code(r"""
import copy
import time

import numpy as np
import matplotlib.pyplot as plt
from threadpoolctl import threadpool_limits

from figures import plots
from lib import checks
from lib.attention import (attention_scores, causal_allowed,
                           causal_attention, masked_softmax, merge_heads,
                           multi_head_attention, split_heads)
from lib.data import BOS, EOS, IGNORE, build_vocab, collate, decode

vocab = build_vocab(["春雨风"])
model = checks.chapter_model()
ids = np.array([BOS, 3, 4])
print(decode(ids, vocab))
print(causal_allowed(1, 3))
assert causal_allowed(1, 3).all()

cache = model.new_cache()
print(cache)
for token in ids:
    position = len(cache)
    model.step(int(token), cache)
    print(decode([token], vocab), position, cache.keys.shape,
          cache.values.shape)
assert (len(cache) == 3 and cache.keys.shape == (2, 3, 2)
        and cache.capacity == 8)
""")

md(r"""
When the third token, 雨, arrived, the cache already held 2 positions, so its input was $E[\text{雨}] + P[2]$. In this model $W_K$ is the identity, so the key just stored is that vector split into its two heads.
""")

code(r"""
#en E[雨] + P[len(cache) before the step]
x_new = model.token_table[4] + model.position_table[2]
print(np.round(x_new, 12))
#en (H, d): the key stored for position 2
print(np.round(cache.keys[:, 2], 12))
assert np.array_equal(cache.keys[:, 2],
                      (x_new @ model.w_k).reshape(model.n_heads, -1))
""")

md(r"""
### Several tokens in one step: the bottom-right alignment

A cache need not grow one position at a time. A prompt, for instance, can be fed in a single step after the stored positions, and then there are fewer queries than keys: $t_q$ new queries read $t_k$ keys, the stored positions and the $t_q$ new ones. This is why `causal_allowed(tq, tk)` takes two lengths, not one. The $t_q$ queries are the last $t_q$ of the $t_k$ positions, so query $i$ stands at absolute position $t_k - t_q + i$ and may read the keys at or before it. Drawn as a matrix, the allowed cells are the last $t_q$ rows of the $t_k \times t_k$ lower triangle, that is, its bottom-right corner; hence the name **bottom-right alignment**. The lower grid of Figure 1.1 shows the example below.

The cache holds `<bos> 春 风` (3 positions), and one step feeds `春 雨` ($t_q = 2$, $t_k = 5$). `model.step` takes one token at a time, so the cell computes this step by hand: the new queries, keys and values at positions 3 and 4, the new keys and values placed after the stored ones, and `causal_attention` over all five keys.
""")

code(r"""
prompt = np.array([BOS, 3, 5, 3, 4])
print(decode(prompt, vocab))
chunk_cache = model.new_cache()
for token in prompt[:3]:
    model.step(int(token), chunk_cache)
tq, tk = 2, len(chunk_cache) + 2
print(causal_allowed(tq, tk).astype(int))
#en absolute positions tk − tq + i of the new queries
print(np.arange(tk - tq, tk))
assert (causal_allowed(tq, tk) == causal_allowed(tk, tk)[tk - tq:]).all()

x_step = model.embed(prompt[3:], offset=len(chunk_cache))  # (tq, D)
# (H, tq, d)
q_step, k_step, v_step = (split_heads((x_step @ w)[None], model.n_heads)[0]
                          for w in (model.w_q, model.w_k, model.w_v))
keys = np.concatenate([chunk_cache.keys, k_step], axis=1)      # (H, tk, d)
values = np.concatenate([chunk_cache.values, v_step], axis=1)  # (H, tk, d)
heads_out = causal_attention(q_step, keys, values)          # (H, tq, d)
two_at_once = merge_heads(heads_out[None])[0] @ model.w_o  # (tq, D)
full5 = model.forward(prompt)  # (tk, D)
step_gap = float(np.abs(two_at_once - full5[tk - tq:]).max())
print("max|Δ| < 1e-12:", step_gap < 1e-12)
assert step_gap < 1e-12
""")

md(r"""
The first new query stands at position 3, and only key 4 lies in its future; the second stands at position 4 and reads all five keys. These are the last two rows of the $5 \times 5$ mask, so the step gives the last two rows of the full forward pass (they differ by less than $10^{-12}$). With one token per step, $t_q = 1$: the single query stands at the last position and reads every stored key, as in each step above.

### A top-left mask, and PyTorch's `is_causal=True`

A mask written out of habit, as if it were square, starts its triangle in the top-left corner, as `np.tril(np.ones((tq, tk)))` does. Query i then reads only keys 0 to i and loses history it is entitled to. PyTorch's `scaled_dot_product_attention(q, k, v, is_causal=True)` builds exactly this triangle: its documentation defines the flag by `torch.ones(L, S).tril(diagonal=0)`, where PyTorch's L and S count queries and keys. The cell below writes that rule in NumPy beside `causal_allowed` and applies both to the step of 雨 at the start of this section (one query; the cache holds 3 keys), then to the two-query step above:
""")

code(r"""
def torch_is_causal(L, S):
    #en PyTorch's documented mask for is_causal=True (True = may attend)
    return np.tril(np.ones((L, S), dtype=bool))


def cached_step(q, keys, values, allowed):  # (H, tq, d), (H, tk, d) ×2
    weights = masked_softmax(attention_scores(q, keys), allowed)
    return merge_heads((weights @ values)[None])[0] @ model.w_o  # (tq, D)


#en the step of 雨: its query, and the cache of <bos> 春 雨
x_yu = model.embed(ids[2:], offset=2)                           # (1, D)
q_yu = split_heads((x_yu @ model.w_q)[None], model.n_heads)[0]  # (H, 1, d)
print(causal_allowed(1, 3).astype(int), torch_is_causal(1, 3).astype(int))
full3 = model.forward(ids)                                      # (T, D)
lib_yu, torch_yu = (
    cached_step(q_yu, cache.keys, cache.values, allowed)
    for allowed in (causal_allowed(1, 3), torch_is_causal(1, 3)))
print(np.round(lib_yu, 6), np.round(torch_yu, 6))
assert np.abs(lib_yu - full3[2]).max() < 1e-12
#en is_causal=True: 雨 reads key 0 only and gets the output of <bos>
assert np.abs(torch_yu - full3[0]).max() < 1e-12
assert np.abs(torch_yu - lib_yu).max() > 0.1

#en the two-query step: tq = 2 queries after 3 stored keys, tk = 5
print(torch_is_causal(tq, tk).astype(int))
wrong_step = cached_step(q_step, keys, values, torch_is_causal(tq, tk))
gap_top_left = np.abs(wrong_step - full5[tk - tq:]).max(axis=1)  # (tq,)
print(np.round(gap_top_left, 6))
assert np.round(gap_top_left, 3).tolist() == [1.417, 0.371]
""")

md(r"""
With one query, `is_causal=True` lets 雨 read key 0 only, and its output is exactly that of `<bos>` at position 0; `causal_allowed(1, 3)` lets it read all three keys and gives the last row of the full forward pass. With two queries, both rows are wrong; their largest errors are about 1.417 and 0.371. Nothing leaks from the future; history is lost instead. Whenever there are fewer queries than keys, check which corner the mask is aligned to. `causal_allowed` and `causal_attention` always align bottom-right. Exercise mask-1 (exercise set 1) asks you to build this mask yourself.

In PyTorch, pass the allowed set as a boolean `attn_mask` (True means "may attend", as in `allowed`) instead of `is_causal=True`. Alternatively, `torch.nn.attention.bias.causal_lower_right(tq, tk)` builds the same bottom-right mask as a `CausalBias` object, which `scaled_dot_product_attention` also accepts as `attn_mask`. Side by side, as a sketch that this page does not run, for `q` of shape (…, $t_q$, d) and `k`, `v` of shape (…, $t_k$, d):

```python
import torch
import torch.nn.functional as F

tq, tk = q.shape[-2], k.shape[-2]

# lib: aligned bottom-right whatever tq and tk are
y_lib = causal_attention(q, k, v)

q_t, k_t, v_t = (torch.from_numpy(a) for a in (q, k, v))
# is_causal=True: aligned top-left, the same as lib only when tq == tk
y_top_left = F.scaled_dot_product_attention(
    q_t, k_t, v_t, is_causal=True)
# the allowed set as attn_mask: the same as lib for every tq <= tk
y_torch = F.scaled_dot_product_attention(
    q_t, k_t, v_t, attn_mask=torch.from_numpy(causal_allowed(tq, tk)))
```
""")

md(r"""
## 5.2 The equivalence test: token by token must equal the full forward pass

The cache reuses computation; it must not change what the model computes. To check this, run the full forward pass on a sequence once, then feed the same sequence token by token from an empty cache, and compare the two sets of outputs position by position. For `<bos> 春 雨` the cell below prints the largest difference rounded to 12 decimals, `0.0`, and asserts only that it is below $10^{-12}$: the two routes may round differently.
""")

code(r"""
full = model.forward(ids)  # (T, D)
#en (T, D), one step per token
incremental = checks.incremental_forward(model, ids)
error = float(np.abs(incremental - full).max())
#en a step's products and the whole sequence's may run in different BLAS
#en kernels: only rounding can differ
print(round(error, 12))
assert error < 1e-12
""")

md(r"""
One example is not enough. Below we draw a few random models with different widths and head counts, each with a position table of $C$ rows, and a random sequence of $C$ tokens, so that the whole table is used. The step-by-step computation and the full forward pass multiply matrices of different shapes, so the results may differ by rounding in the last digits; we use a tolerance of $10^{-12}$. Each printed row is $C, D, H$ and whether the error is within tolerance.
""")

code(r"""
rng = np.random.default_rng(5)
for trial in range(4):
    n_heads = int(rng.integers(1, 5))
    width = n_heads * int(rng.integers(1, 9))
    C = int(rng.integers(32, 129))
    random_model = checks.random_model(
        rng, vocab_size=50, context_size=C, width=width, n_heads=n_heads)
    #en uses every row of the position table
    stream = rng.integers(0, 50, size=C)
    err = checks.cache_error(random_model, stream)
    print(f"C={C} D={width} H={n_heads}", "max|Δ| < 1e-12:", err < 1e-12)
    assert err < 1e-12
""")

md(r"""
## 5.3 The reset-to-zero bug

A natural mistake is to treat the single token of each step as a sequence of length 1, so that its position is always 0. Every array shape still matches and nothing raises an error, but the new token receives the wrong position vector.

We let the first two tokens enter the cache correctly and give the third token 雨 position 0 (the `position=0` argument exists only to show this bug). Compared with the third row of the full forward pass, the largest error is about 0.0875.
""")

code(r"""
bad_cache = model.new_cache()
model.step(BOS, bad_cache)
model.step(3, bad_cache)
#en the bug: the third token at position 0
wrong = model.step(4, bad_cache, position=0)
reset_error = float(np.abs(wrong - full[2]).max())
print(f"{reset_error:.12g}")
assert abs(reset_error - 0.08753403247684122) < 1e-12
""")

md(r"""
If every step resets the position to 0, the error appears at every position except position 0, which happens to be right because its position is 0 anyway. Below, 8 tokens fill the position table and we look at the error at every position. Only an entry-by-entry comparison with the full forward pass reveals this bug; checking shapes never will.
""")

code(r"""
seq8 = np.array([BOS, 3, 4, 5, 3, 4, 5, 4])
print(decode(seq8, vocab))
always_zero = checks.incremental_forward(model, seq8, positions=[0] * 8)
# (T,)
per_position_error = np.abs(always_zero - model.forward(seq8)).max(axis=1)
print(np.round(per_position_error, 6))
assert (per_position_error[0] < 1e-12
        and np.all(per_position_error[1:] > 1e-3))
""")

md(r"""
## 5.4 Past the position table: an error, and the cache left as it was

A learned absolute position table has only $C$ rows; position $C$ is simply undefined. Once the cache holds 8 positions, one more call to `step` raises a `ValueError` instead of quietly wrapping around or clamping to the last row. Just as important, the failed step does **not** touch the cache: its length is still 8 and the stored keys and values have not changed by a single bit. A caller that catches the error still has a usable cache.
""")

code(r"""
cache8 = model.new_cache()
checks.incremental_forward(model, seq8, cache=cache8)
keys_before, values_before = cache8.keys.copy(), cache8.values.copy()
print(len(cache8), cache8.capacity)
raised = False
try:
    model.step(3, cache8)
except ValueError as err:
    raised = True
    print(type(err).__name__)
print(len(cache8), np.array_equal(cache8.keys, keys_before),
      np.array_equal(cache8.values, values_before))
assert raised and len(cache8) == 8
assert (np.array_equal(cache8.keys, keys_before)
        and np.array_equal(cache8.values, values_before))
""")

md(r"""
## 5.5 A multi-layer model: every layer needs its own cache

The model of §4–§6 has one layer. In a model with $L$ layers, numbered from 0, the keys and values of old positions in layer $\ell$ are computed from that layer's input at those positions. For layer 0 that input is the token embeddings plus the position rows; for every later layer, the output of layer $\ell - 1$. By causality (§4), those rows do not change when a new token arrives, so every layer's keys and values can be cached, and each layer **must** have its own cache.

Caching layer 0 alone is not enough. When the new token reaches layer 1, its query must read layer 1's keys and values at every old position. These are computed from layer 0's outputs, which layer 0's cache does not hold. Without anything stored for layer 1, each step would have to recompute layer 0's outputs at every old position: exactly the full forward pass that the cache is meant to avoid.

Below we measure this on a two-layer model. The cell assembles the model from functions of `lib.attention` (a demonstration, not part of `lib`), with random parameters. The input of layer 0 is $X^{(0)}_t = E[x_t] + P[t]$; layer $\ell$ computes $X^{(\ell+1)} = X^{(\ell)} + \mathrm{MHA}_\ell\big(X^{(\ell)}\big)$: causal multi-head attention plus a residual connection. The token-by-token version gives each layer in the set `cached_layers` a cache of its own; a layer without a cache can read only the new token itself at that step. Compared with the full forward pass:

* both layers cached: the largest error is rounding error (below $10^{-12}$);
* only layer 0 cached: every position except position 0 has a clear error (each above 0.1). Position 0 happens to be right because it reads only itself anyway.

§7.5 repeats both comparisons on the trained two-layer decoder of §7: with a cache for every layer, and with only layer 0 cached (the latter at the last position only).
""")

code(r"""
rng = np.random.default_rng(8)
V2, C2, D2, H2 = 6, 8, 8, 2
E2 = rng.standard_normal((V2, D2))  # (V, D)
P2 = rng.standard_normal((C2, D2))  # (C, D)
# 2 x (w_q, w_k, w_v, w_o)
layers = [[rng.standard_normal((D2, D2)) / np.sqrt(D2) for _ in range(4)]
          for _ in range(2)]

def two_layer_forward(ids):
    h = E2[ids] + P2[:len(ids)]  # (T, D)
    for w_q, w_k, w_v, w_o in layers:
        #en residual connection
        h = h + multi_head_attention(h[None], w_q, w_k, w_v, w_o, H2)[0]
    return h  # (T, D)

def two_layer_steps(ids, cached_layers):
    #en (k, v) of the stored positions, per layer
    stored = [[] for _ in layers]
    outputs = []
    for t, token in enumerate(ids):
        h = (E2[token] + P2[t])[None]  # (1, D)
        for n, (w_q, w_k, w_v, w_o) in enumerate(layers):
            # (H, 1, d)
            q, k, v = (split_heads((h @ w)[None], H2)[0]
                       for w in (w_q, w_k, w_v))
            if n in cached_layers:
                stored[n].append((k, v))
                # (H, t+1, d)
                k = np.concatenate([key for key, _ in stored[n]], axis=1)
                # (H, t+1, d)
                v = np.concatenate(
                    [value for _, value in stored[n]], axis=1)
            heads = causal_attention(q, k, v)  # (H, 1, d)
            h = h + merge_heads(heads[None])[0] @ w_o  # (1, D)
        outputs.append(h[0])
    return np.stack(outputs)  # (T, D)

ids2 = rng.integers(0, V2, size=C2)
full2 = two_layer_forward(ids2)
both_cached = float(np.abs(two_layer_steps(ids2, cached_layers={0, 1})
                           - full2).max())
# (T,)
first_only = np.abs(two_layer_steps(ids2, cached_layers={0})
                    - full2).max(axis=1)
#en a rounding-level error: only the claim is printed
print("max|Δ| < 1e-12:", both_cached < 1e-12)
print(np.round(first_only, 6))
assert both_cached < 1e-12
assert first_only[0] < 1e-12 and np.all(first_only[1:] > 0.1)
""")

md(r"""
## 5.6 How much memory the cache takes

Every layer, every head and every stored position keeps one key and one value. Per sequence, the cache takes

$$
2 \cdot L \cdot H \cdot n \cdot d = 2 \cdot L \cdot n \cdot D
$$

numbers, where the 2 counts keys and values and $n$ is the number of stored positions. In bytes, multiply by the size of one number, `itemsize` (4 for float32, 8 for float64); for a batch of $B$ sequences, multiply by $B$.

First we check the formula against our model: for one layer, 2 heads of width 2, 8 positions and float64 it gives 512 bytes, the actual size of the cache arrays. For GPT-2 small (12 layers, $D=768$, 1024 positions, float32) it gives 72 MiB per sequence. The head count does not matter: at fixed $D$, $H \cdot d = D$, so the heads only decide how the same total is cut.
""")

code(r"""
ours = checks.kv_cache_bytes(
    n_layers=1, n_heads=2, head_width=2, length=8, itemsize=8)
print(ours, cache8.keys.nbytes + cache8.values.nbytes)
assert ours == cache8.keys.nbytes + cache8.values.nbytes == 512

for n_heads in (1, 4, 12):
    size = checks.kv_cache_bytes(
        n_layers=12, n_heads=n_heads, head_width=768 // n_heads,
        length=1024, itemsize=4)
    print(n_heads, size, size / 2**20)
    assert size == 75497472 and size / 2**20 == 72.0
""")

md(r"""
## 5.7 The cache holds one unpadded sequence

The cache's length is the position of the next token, and it is the cache's only offset. The cache has no batch axis (its keys and values have the shape $(H, n, d)$ of §5.1), so it holds one sequence. That sequence must be unpadded, because one offset for the whole cache cannot skip padding. Padding placed before the text would be read and would push every real position back (left padding, §1.10).

Before a right-padded training row is continued, it must be cut to its real positions: those whose target is not −100 (§1.8). Otherwise the new token lands after the padding and reads it. In a batch with `春雨`, `collate` pads `雨` to the input `<bos> 雨 <eos>`, with targets `雨 <eos> −100`, so the prefix to continue is `<bos> 雨`, of length 2. The cell measures both misuses against the correct computation; neither difference is zero.
""")

code(r"""
inputs, targets = collate(["雨", "春雨"], vocab)
print(inputs)
print(targets)
valid = int((targets[0] != IGNORE).sum())  #en 2: the real prefix is <bos> 雨
print(decode(inputs[0], vocab), valid)
assert valid == 2

true_cache = model.new_cache()
checks.incremental_forward(model, inputs[0, :valid], cache=true_cache)
padded_cache = model.new_cache()
#en misuse: the padding goes into the cache too
checks.incremental_forward(model, inputs[0], cache=padded_cache)
#en the next token's position: 2, or 3 with the padding
print(len(true_cache), len(padded_cache))
next_true, next_padded = (model.step(3, true_cache),
                          model.step(3, padded_cache))
print(round(float(np.abs(next_padded - next_true).max()), 6))
assert np.abs(next_padded - next_true).max() > 1e-3

#en misuse: padding placed before the text
left_padded = np.array([EOS, BOS, 4])
shifted = checks.incremental_forward(model, left_padded)[-1]
print(round(float(np.abs(shifted
                         - model.forward(inputs[0, :valid])[-1]).max()), 6))
assert np.abs(shifted - model.forward(inputs[0, :valid])[-1]).max() > 1e-3
""")

md(r"""
## 5.8 How much time the cache saves (optional)

Take a larger model with random parameters ($D=64$, $H=4$, a position table of 512 rows) and, for several prefix lengths $T$, compare two ways of getting the output for the next token:

* without the cache: run the full forward pass on $T+1$ tokens and keep the last row;
* with the cache: the cache already holds $T$ positions; call `step` once.

The first way recomputes every projection and a $(T+1)\times(T+1)$ attention table each time; the second computes one new position and reads $T+1$ keys. Each case runs several times and we keep the fastest run, since interference from other work on the computer can only slow a run down.

The columns are $T$, the time of each way in milliseconds, and their ratio; Figure 5.2 plots both times, in seconds, on logarithmic axes. The times are measured on the computer that runs the notebook, so they change from one computer to another and from one run to the next. At the shortest prefixes the fixed cost of a call dominates, so the gap is small there, and on a busy computer the cached step may even be the slower one.

The times need not grow smoothly with $T$ either. From $T = 128$ to $T = 256$ the full forward pass does at most about 4 times the work (its attention table grows fourfold, everything else twofold), yet its time may grow more. Such a jump comes from the computer, not from the method: on another computer, or in another run on the same one, it falls at another length or not at all.

The cell asserts one thing the method guarantees: the cache's output agrees with the full forward pass. Its two other asserts are measured margins, not guarantees: at the longest prefix the cache is at least 10 times faster, and the ratio there is larger than at the shortest prefix. Both margins are wide, because at the longest prefix the full forward pass computes all 512 positions while the cached step computes one.
""")

code(r"""
rng = np.random.default_rng(0)
big = checks.random_model(
    rng, vocab_size=100, context_size=512, width=64, n_heads=4)
stream = rng.integers(0, 100, size=512)
lengths = [8, 16, 32, 64, 128, 256, 511]

snapshots, growing = {}, big.new_cache()  #en the cache after T tokens
for token in stream[:max(lengths)]:
    big.step(int(token), growing)
    if len(growing) in lengths:
        snapshots[len(growing)] = copy.deepcopy(growing)

def best_seconds(run, prepare, repeats=7):
    run(prepare())                                         #en warm-up
    times = []
    for _ in range(repeats):
        state = prepare()  #en not timed: a fresh copy of the cache
        start = time.perf_counter()
        run(state)
        times.append(time.perf_counter() - start)
    return min(times)

with threadpool_limits(limits=1, user_api="blas"):
    full_seconds = [best_seconds(lambda _: big.forward(stream[:T + 1]),
                                 lambda: None) for T in lengths]
    step_seconds = [best_seconds(lambda c: big.step(int(stream[T]), c),
                                 lambda: copy.deepcopy(snapshots[T]))
                    for T in lengths]
ratios = [f / s for f, s in zip(full_seconds, step_seconds)]
print(f"{'T':>4} {'t_full [ms]':>12} {'t_cache [ms]':>13} {'ratio':>7}")
for T, f, s, r in zip(lengths, full_seconds, step_seconds, ratios):
    print(f"{T:>4} {f * 1e3:>12.3f} {s * 1e3:>13.3f} {r:>7.1f}")

last = max(lengths)
cached_last = big.step(int(stream[last]), copy.deepcopy(snapshots[last]))
assert np.abs(cached_last
              - big.forward(stream[:last + 1])[-1]).max() < 1e-12
assert ratios[-1] >= 10 and ratios[-1] > ratios[0]
plots.timing_lines(lengths, [full_seconds, step_seconds],
                   ["forward(ids[:T+1])[-1]", "step(ids[T], cache)"])
plt.show()
""", tags=("nbval-ignore-output",), alt="Log-log plot of the time to get one new token's output (seconds) against the prefix length T. The full forward pass "
       "takes longer as T grows while the cached step stays almost flat; at the longest prefix the full forward pass is at least 10 times slower.")

md(r"""
## 5.9 The mask also avoids computing almost half of the scores

The causal mask says which keys may not be read, and so which scores need not be computed at all: about half of them. Cut the queries into blocks of 64 (`BLOCK`). Block m (queries $64m$ to $64m + 63$, with m counted from 0) is in the same situation as the two-query step of §5.1: 64 queries after $64m$ earlier keys, so its mask is aligned bottom-right. No query in it reads a key after $64m + 63$, so the block scores only keys 0 to $64m + 63$; within its last 64 columns, the mask of §1 forbids the future entries. The loop below is the whole method, checked against the definition of §1 and against `lib.blocked.blocked_causal_attention`, which computes it this way. The cell then counts the scores: for $T = 1024$ the 16 blocks compute $64 \cdot 64 \cdot (1 + 2 + \cdots + 16) = 557{,}056$ of the 1,048,576 scores, or 53.1%; the allowed set itself has 524,800 entries.
""")

code(r"""
from lib.blocked import BLOCK, attention_work, blocked_causal_attention


def causal_in_blocks(q, k, v):
    out = np.empty_like(q)                                     # (..., T, d)
    for start in range(0, q.shape[-2], BLOCK):
        stop = min(start + BLOCK, q.shape[-2])
        #en keys after the block's last query never get a score
        scores = attention_scores(q[..., start:stop, :], k[..., :stop, :])
        allowed = causal_allowed(stop - start, stop)  #en bottom-right
        weights = masked_softmax(scores, allowed)
        out[..., start:stop, :] = weights @ v[..., :stop, :]
    return out


rng = np.random.default_rng(0)
q, k, v = rng.standard_normal((3, 1, 4, 300, 16))   #en T = 300: 5 blocks
out = causal_in_blocks(q, k, v)
print("max|Δ| < 1e-12, vs causal_attention:",
      np.abs(out - causal_attention(q, k, v)).max() < 1e-12)
print("max|Δ| < 1e-12, vs blocked_causal_attention:",
      np.abs(out - blocked_causal_attention(q, k, v)).max() < 1e-12)
assert np.abs(out - causal_attention(q, k, v)).max() < 1e-12
assert np.abs(out - blocked_causal_attention(q, k, v)).max() < 1e-12

work = attention_work(1024, 1024)
print(work.computed, work.total, f"{work.fraction:.3f}", work.allowed)
assert (BLOCK == 64
        and work.computed == BLOCK**2 * sum(range(1, 17)) == 557056)
assert work.total == 1024**2 and work.allowed == 1024 * 1025 // 2
assert round(work.fraction, 3) == 0.531
""")

md(r"""
## 5.10 Summary

* The KV cache stores the key and value of every position seen so far: $(n, d)$ per head, $(H, n, d)$ for all heads together. A multi-layer model keeps one such cache per layer; caching only layer 0 makes every position after position 0 wrong. The whole cache holds $2 \cdot L \cdot n \cdot D$ numbers, whatever the head count.
* A step that feeds $t_q$ tokens after $n > 0$ stored positions has fewer queries than keys ($t_q < t_k = n + t_q$): query $i$ stands at absolute position $t_k - t_q + i$, and the mask is aligned bottom-right. A mask aligned top-left, as PyTorch's `is_causal=True` builds it, loses history and gives wrong outputs.
* The new token stands at position `len(cache)` with input $E[x] + P[\texttt{len(cache)}]$. Resetting the position to 0 raises no error; only an entry-by-entry comparison with the full forward pass finds it.
* Agreement of the token-by-token outputs with the full forward pass is the standard check: `0.0` on the model of §4.1 (rounded to 12 decimals), within $10^{-12}$ on random models fed sequences that fill their position tables.
* A step past the position table raises an error and leaves the cache unchanged.
* The cache holds one unpadded sequence: no left padding, and a right-padded training row must be cut to its real length before it can be continued.
* The cache is correct only because of the causality of §4: if any part of the model read the future, old keys and values would no longer be fixed, and the cache would be wrong.
* The causal mask also saves work: a block of queries never scores the keys after it, so almost half of the score table is never computed (§5.9 computes 53.1% of it), and the outputs equal those of the definition.

The exercises for this section are in `exercises/en/ex05_cache.ipynb`.
""")
