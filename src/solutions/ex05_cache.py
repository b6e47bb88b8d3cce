# Exercise set 5 (§5, the KV cache and its position offset).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 5: the KV cache and the position offset", tags=("exercise",))

md("# Solutions to exercise set 5: the KV cache and the position offset", tags=("solution",))

md("""
This notebook goes with §5 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

When generating token by token, the model keeps the keys and values of the positions already seen, per head, in a KV cache, and a new token computes only its own query, key and value. You will continue a right-padded batch through the cache, with every row's new token at the right position, write a whole cached step from scratch, and write a test that checks whether the cache agrees with the full forward pass.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solutions to exercise set 5; the exercises are in `exercises/en/ex05_cache.ipynb`. Try them there first, then compare here.

The set practises §5: keys and values stored per head and a cached step at its position offset (§5.1), token-by-token results that must equal the full forward pass (§5.2), and how a right-padded batch continues from each row's real prefix (§5.7, §1.8).
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check, needs_exercise
from grading.models import buggy_step, random_model
from lib.data import BOS, IGNORE, build_vocab, collate, encode
"""), tags=("hide-input",))

code("""
model = random_model(7)                 # V=7, C=8, D=8, H=2
ids = np.array([1, 3, 5, 6, 2])
""")

md("""
## cache-1: continuing a right-padded batch (2 points)

`model.new_cache()` creates an empty cache; `model.step(token, cache)` puts the token at position `len(cache)`, stores its key and value in `cache` and returns its output, of shape `(D,)`. When the position table is full (`len(cache)` equals its number of rows `C`), `model.step` raises `ValueError` and leaves the cache as it was.

A training batch is right-padded by `collate`: a shorter text is followed by input `<eos>` with target −100. Write `continue_padded(model, inputs, targets, tokens)`:

* **the arguments:** `inputs` and `targets` are the `(B, T)` arrays `collate` returns; `tokens` has shape `(B,)`, and `tokens[b]` is the token that follows the text of row `b`;
* **what to do:** for every row, feed that row's real prefix (`<bos>` and its text: the positions whose target is not −100, §1.8) into a fresh cache, then take one step with `tokens[b]`;
* **what to return:** the outputs of those steps, stacked into a `(B, D)` array.

Do not call `model.forward`: this exercise is about the cache.
""")

code(reference_cell("continue_padded"))

code("""
check("cache-1", continue_padded)
""")

md("""
The cell below takes the batch of §5.7, where row 0 is the padded `雨` and row 1 is `春雨`, and continues both rows with 风. Each row's output is compared with the last row of a full forward pass over the text followed by the new token; feeding the whole row, padding included, into the cache gives row 0 a nonzero error.
""")

code("""
vocab = build_vocab(["春雨风"])
inputs, targets = collate(["雨", "春雨"], vocab)
wind = vocab.index("风")
ours = continue_padded(model, inputs, targets, np.array([wind, wind]))
full = [model.forward(np.array([BOS, *encode(text, vocab), wind]))[-1]
        for text in ("雨", "春雨")]
whole_row = model.new_cache()
for token in inputs[0]:
    model.step(int(token), whole_row)
padded_error = float(np.abs(model.step(wind, whole_row) - full[0]).max())
print(inputs.tolist(), targets.tolist())
print([float(np.abs(ours[b] - full[b]).max()) < 1e-12 for b in range(2)],
      padded_error > 1e-3)
assert (
    np.allclose(ours, np.stack(full), atol=1e-12) and padded_error > 1e-3
), needs_exercise("cache-1")
""")

md("""
**About the solution.** The point is that every row has its own real length `n`. The text of row `b` occupies positions `0 … n-1`, where `n` is the number of targets that are not −100, so the new token must land at position `n`, not at the batch length `T`. Feeding the whole row into the cache puts a short text's new token at `T` and lets it read the padding `<eos>`: every shape is right and the output is wrong. Each row needs a cache of its own, because a cache holds the history of one sequence; with one cache shared by all rows, later rows would read the keys and values of earlier ones. Finally, when the real prefix already has `C` positions, the position table has no row for the new token: `model.step` raises `ValueError`, and our function passes it on instead of truncating anything silently.
""", tags=("solution",))

md("""
## cache-2: a cached step from scratch (3 points)

Now write one step with arrays only, without `model.step`. `attention_step(x, keys, values, w_q, w_k, w_v, w_o, n_heads)`:

* `x`: the input vector of the new token, shape `(D,)`, position already added;
* `keys`, `values`: keys and values of the `n` earlier positions, shape `(H, n, d)`; `n` may be 0;
* returns `(output, keys, values)`: the output of shape `(D,)` and the keys and values with the new position appended, `(H, n+1, d)`.

Steps:

1. project to query, key and value and split them into `H` heads;
2. append the new key and value at the end of the cache;
3. in every head, compute the scores (dot products scaled by `1/√d`), take their softmax over all `n+1` positions and the weighted sum of the values;
4. merge the heads and multiply by `w_o`.

Everything in the cache is past or present, so the new query may read every position.
""")

code(reference_cell("attention_step"))

code("""
check("cache-2", attention_step)
""")

code("""
H, d = model.n_heads, model.width // model.n_heads
keys = values = np.zeros((H, 0, d))
outputs = []
for t, token in enumerate(ids):
    x = model.embed(np.array([token]), offset=t)[0]  #en (D,) at position t
    out, keys, values = attention_step(
        x, keys, values, model.w_q, model.w_k, model.w_v, model.w_o, H)
    outputs.append(out)
print(keys.shape,
      np.abs(np.stack(outputs) - model.forward(ids)).max() < 1e-12)
""")

md("""
**About the solution.** With a single position, a plain `reshape` of `(D,)` into `(H, 1, d)` is a correct split: the mistake of exercise set 2 only appears when `T > 1`. Merging is the same: flattening `(H, 1, d)` gives `(D,)` with the heads concatenated in order. The new key and value go into the cache before the scores are computed, because the new query reads itself too. The loop above compares every step with the full forward pass, within $10^{-12}$; cache-3 turns exactly this into a test.
""", tags=("solution",))

md("""
## cache-3: the cache and the full forward pass (2 points)

Write `cache_error(forward, step, new_cache, ids)`:

* `forward(ids)` computes all outputs at once, `(T, D)`;
* `new_cache()` returns an empty cache; `step(token, cache)` takes one token (an `int`) and returns its output `(D,)`;
* starting from a fresh empty cache, call `step` token by token, stack the outputs into an array `(T, D)` and return the largest absolute difference from the full outputs, as a `float`.

A correct cache gives a number of the size of rounding error. The cell below also runs a step whose position is always reset to 0, as a negative control: the test has to see that it is wrong. Think about it: why can a one-token sequence not reveal this bug?
""")

code(reference_cell("cache_error"))

code("""
check("cache-3", cache_error)
""")

code("""
right = cache_error(model.forward, model.step, model.new_cache, ids)
reset = cache_error(model.forward, buggy_step(model, "reset"),
                    model.new_cache, ids)
reset_one_token = cache_error(model.forward, buggy_step(model, "reset"),
                              model.new_cache, ids[:1])
print(right < 1e-12, round(reset, 6), reset_one_token)
assert right < 1e-12 < reset and reset_one_token == 0.0, needs_exercise(
    "cache-3")
""")

md("""
**About the solution.** Every run needs a fresh empty cache: reusing an old one would put the new tokens after the old sequence and shift every position. The reset-to-0 step happens to be right on the first token, whose position is 0 anyway, which is why a single-token sequence cannot reveal the bug. That is the point of the negative control: first make sure the test catches a known bug on these inputs, then trust the small error it reports for the correct cache. Compare with a tolerance rather than exact equality: the step-by-step and the full computation sum in different orders and may differ in the last bits, by a few units of $10^{-16}$ relative to the size of the outputs.
""", tags=("solution",))
