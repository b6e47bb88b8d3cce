# §2 Multiple heads change subspaces, not time order.
# Trilingual source: see tools/nbsource.py and CONTRIBUTING.md.

md(r"""
# 2 Multiple heads change subspaces, not time order

In §1 a single attention head read all D features of every allowed position. Multi-head attention splits the width of the queries, keys and values into H blocks of width d = D/H, and each head computes its own attention on one block, over the **same** allowed set. Every head still reads all D input features, through its own d columns of $W_Q$, $W_K$ and $W_V$ (§2.1). The time axis stays as it is: head h at position t still reads only positions 0 to t. What changes is which coordinates are compared and which coordinates are mixed.

Why do it? A softmax gives each query a total weight of 1. One head can put nearly all of it on one key; but if a query needs one thing from each of two positions, a single softmax can only split its weight between them and hand back a blend of the two values. H heads give each query H softmaxes, so it can read H positions sharply at once. §2.7 computes such a case, once with two heads and once with one.

The notation is that of §0.4.
""")

code(r"""
import itertools

import matplotlib.pyplot as plt
import numpy as np

from figures import plots
from lib.attention import (causal_allowed, causal_attention, masked_softmax,
                           merge_heads, multi_head_attention, split_heads)
from lib.costs import head_costs


def r(x, digits=6):
    #en rounded copy for printing; adding 0.0 turns -0.0 into 0.0
    return np.round(np.asarray(x, dtype=float), digits) + 0.0
""")

md(r"""
## 2.1 H independent heads, concatenated, then multiplied by $W_O$

The simplest way to build multi-head attention is to run the single-head attention of §0.2 H times, each time with the mask of §1. Head h has three projection matrices of its own, each of shape $D \times d$: it projects the input to its own queries, keys and values of width d, runs the causal attention of §1 on them and returns a $T \times d$ output. The outputs of the H heads are concatenated in head order into a $T \times D$ array, which is then multiplied by the output projection $W_O$ ($D \times D$).

The three $D \times d$ matrices of each head need not be stored separately. Placed side by side, the matrices of all H heads form three $D \times D$ matrices $W_Q$, $W_K$ and $W_V$, and head h uses columns $h \cdot d$ to $h \cdot d + d - 1$ of each. Below, we compute a small random example (T = 5, D = 8, H = 2, so d = 4) head by head, using nothing but §1's `causal_attention`. We then compare the result with `lib.attention.multi_head_attention`, which uses the split taught in §2.2.
""")

code(r"""
rng = np.random.default_rng(2)
T5, D, H = 5, 8, 2
d = D // H
xs = rng.normal(size=(1, T5, D))                              # (1, T, D)
w_q, w_k, w_v, w_o = rng.normal(size=(4, D, D)) / np.sqrt(D)  # (D, D) ×4

outputs_by_head = []
for h_ in range(H):
    #en columns of head h: h·d to h·d + d − 1
    cols = slice(h_ * d, (h_ + 1) * d)
    q_h = xs @ w_q[:, cols]                                  # (1, T, d)
    k_h = xs @ w_k[:, cols]                                  # (1, T, d)
    v_h = xs @ w_v[:, cols]                                  # (1, T, d)
    outputs_by_head.append(causal_attention(q_h, k_h, v_h))  # (1, T, d)
one_by_one = np.concatenate(outputs_by_head, axis=-1) @ w_o  # (1, T, D)
# (1, T, D)
with_split = multi_head_attention(xs, w_q, w_k, w_v, w_o, n_heads=H)
gap = np.abs(one_by_one - with_split).max()
print(one_by_one.shape, with_split.shape)
print("max|Δ| < 1e-14:", gap < 1e-14)
assert one_by_one.shape == with_split.shape == (1, T5, D)
assert gap < 1e-14
""")

md(r"""
Both computations give the same output: the largest difference is below $10^{-14}$, the size of rounding error.

Why, then, write it a second way? The loop performs 3H narrow matrix products, d columns at a time, and calls attention H times. But the projection of head h is just a block of columns of the full-width projection: `(x @ W_Q)[..., h*d:(h+1)*d]` equals `x @ W_Q[:, h*d:(h+1)*d]`. The three full-width products `x @ W_Q`, `x @ W_K` and `x @ W_V` therefore compute the queries, keys and values of every head at once. All that is left is to regroup the D columns into H heads and make the head one more batch axis, so that a single attention call handles every head. That regrouping is the split of §2.2.

The output side has a similar identity: concatenating and multiplying by $W_O$ is the same as letting each head multiply its output by its own block of d rows of $W_O$ and adding up the H results. This already shows that $W_O$ is where the heads meet (§2.4). The cell below checks both identities.
""")

code(r"""
#en projections: the narrow product of head h is column block h of the
#en full-width product
blocks_match = all(
    np.allclose((xs @ w_)[..., h_ * d:(h_ + 1) * d],
                xs @ w_[:, h_ * d:(h_ + 1) * d], rtol=0, atol=1e-14)
    for w_ in (w_q, w_k, w_v) for h_ in range(H))
#en output: concatenate, then W_O, equals each head times its own d rows of
#en W_O, summed over heads
# (1, T, D)
by_rows_of_w_o = sum(outputs_by_head[h_] @ w_o[h_ * d:(h_ + 1) * d]
                     for h_ in range(H))
rows_match = np.allclose(by_rows_of_w_o, one_by_one, rtol=0, atol=1e-14)
print(blocks_match, rows_match)
assert blocks_match and rows_match
""")

md(r"""
## 2.2 Splitting: coordinate a of head h is feature $h \cdot d + a$

The Q, K and V projections all produce $B \times T \times D$ arrays. The split does in one step what the loop of §2.1 did head by head when it sliced out blocks of columns: it cuts the last axis into H consecutive blocks of d features and then moves the head axis in front of the time axis:

(B, T, D) → `reshape` → (B, T, H, d) → swap axes → (B, H, T, d).

There is one rule to remember: **coordinate a of head h at position t is feature $h \cdot d + a$ at the same position t** (Figure 2.1). `lib.attention.split_heads` splits like this, and `merge_heads` puts everything back.

![Splitting and merging heads: of the 8 features of one position, features 0 to 3 go to head 0 and 4 to 7 to head 1, so coordinate a of head h is feature h·d + a (d = 4); both heads attend over the same allowed set, each with its own softmax; their outputs are concatenated back in head order into 8 features and multiplied by W_O; a generic W_O mixes both heads into every output feature.](figures/heads.svg)

To check the rule entry by entry we build an input in which every entry carries its own address: `x = np.arange(B*T*D).reshape(B, T, D)`. Each entry holds its own flat index in (b, t, c), where c is the feature (§0.4's notation), so one glance at a value tells where it came from. We take B = 2, T = 3, D = 8 and H = 2, hence d = 4 and 48 entries in all.
""")

code(r"""
B, T, D, H = 2, 3, 8, 2
d = D // H
#en x[b, t, c] = flat index of (b, t, c)
x = np.arange(B * T * D).reshape(B, T, D)


def origin(value):
    #en (b, t, c) of the entry of x that holds this value
    return tuple(int(i) for i in np.unravel_index(value, x.shape))


def mismatches(split):
    #en every (b, h, t, a) whose entry is not feature h*d + a of x at (b, t)
    return [(b, h, t, a)
            for b, h, t, a in itertools.product(
                range(B), range(H), range(T), range(d))
            if split[b, h, t, a] != x[b, t, h * d + a]]


heads = split_heads(x, H)                       # (B, H, T, d)
print(x.shape, "->", heads.shape)
print(len(mismatches(heads)), "/", heads.size)
#en sequence 0, head 1: features 4 to 7 at t = 0, 1, 2
print(heads[0, 1])
assert (heads.shape == (B, H, T, d) and heads.size == 48
        and mismatches(heads) == [])
assert ([origin(v)[1:] for v in heads[0, 1, :, 0]]
        == [(0, 4), (1, 4), (2, 4)])
""")

md(r"""
All 48 entries agree. In head 1 of sequence 0 the three rows are features 4 to 7 at t = 0, 1, 2: each row still belongs to one position; it just holds a different group of coordinates.

### A `reshape` with the right shape and the wrong contents

A tempting shortcut is `x.reshape(B, H, T, d)`: the shape is the one we want, and it never raises an error. But `reshape` only re-reads memory in order, and in memory the T rows of D features lie one after another. Cutting that stream into $H\cdot T$ pieces of length d puts pieces from **different positions** into one head. The same entry-by-entry check catches it:
""")

code(r"""
wrong = x.reshape(B, H, T, d)  #en same shape, no axis swap
bad = mismatches(wrong)
print(wrong.shape == heads.shape)
print(len(bad), "/", wrong.size)
b, h, t, a = bad[0]
#en slot, what it holds, what it should hold
print((b, h, t, a), origin(wrong[b, h, t, a]), (b, t, h * d + a))
#en both round trips pass
print(np.array_equal(wrong.reshape(B, T, D), x),
      np.array_equal(merge_heads(heads), x))
assert wrong.shape == heads.shape and len(bad) == 32
assert ((b, h, t, a) == (0, 0, 1, 0)
        and origin(wrong[0, 0, 1, 0]) == (0, 0, 4))
assert np.array_equal(wrong.reshape(B, T, D), x)
""")

md(r"""
The shape test passes, yet 32 of the 48 entries are in the wrong place. The first one: coordinate 0 of head 0 in the row for t = 1 should be feature 0 of position 1, but it holds feature 4 of **position 0**.

Notice also what does **not** catch the bug: reshaping back with `wrong.reshape(B, T, D)` gives `x` exactly, so a round-trip test passes as well. Only a check that compares individual entries with the rule $h \cdot d + a$ finds the problem.

Now let us see what happened to the positions. The two arrays below give, for every row of every head, the position its contents came from, first for the correct split and then for the reshape-only one:
""")

code(r"""
#en (H, T): the position behind each row, sequence 0
time_right = np.unravel_index(heads[0], x.shape)[1][:, :, 0]
time_wrong = np.unravel_index(wrong[0], x.shape)[1][:, :, 0]  # (H, T)
print(time_right)
print(time_wrong)
assert np.array_equal(time_right, [[0, 1, 2], [0, 1, 2]])
assert np.array_equal(time_wrong, [[0, 0, 1], [1, 2, 2]])

rng = np.random.default_rng(0)
xf = rng.normal(size=(B, T, D))
#en identity W_Q, W_K, W_V (q = k = v = xf), correct split
right_out = merge_heads(causal_attention(*[split_heads(xf, H)] * 3))
w = xf.reshape(B, H, T, d)
#en the same with the reshape-only split
wrong_out = causal_attention(w, w, w).reshape(B, T, D)
print(r(np.abs(right_out - wrong_out).max(), 3))
assert np.abs(right_out - wrong_out).max() > 0.1
""")

md(r"""
With the correct split, row t of every head comes from position t. With the reshape-only split, the row that head 0 treats as t = 1 comes from position 0, and the row that head 1 treats as t = 0 comes from position 1. The causal mask still works on row numbers, but row numbers no longer mean positions. Fed into attention, such a split runs without any error and simply produces the wrong output (the last number printed above is its largest difference from the correct output).

Figure 2.2 shows both layouts for sequence 0. Each cell is a slot (h, t, a); its colour is the position its value came from, and its label gives that position t and the feature c (t0 c4 is feature 4 of position 0). On the left every row of every head has a single colour, matching its row number t; on the right only two of the six rows match their t.
""")

code(r"""
plots.head_layout_picture({"split_heads(x, H)": heads[0],
                           "x.reshape(B, H, T, d)": wrong[0]}, width=D)
plt.show()
""", alt="Two layouts of sequence 0, each cell a slot (h, t, a) coloured by the position its value came from. Left, split_heads: every row of a head has one colour, equal to t. Right, reshape only: colours mixed within a head.")

md(r"""
## 2.3 Every head divides by $\sqrt d$ and normalises on its own

Inside head h the score of query i and key j is the dot product of two d-dimensional vectors divided by $\sqrt d$, where d is the width of **this head**, not D:

$$s^{(h)}_{ij} = \frac{q^{(h)}_i \cdot k^{(h)}_j}{\sqrt d}.$$

Why $\sqrt d$? If the coordinates are independent with mean 0 and variance 1, a sum of d products has standard deviation $\sqrt d$, and dividing by $\sqrt d$ brings the scores back to scale 1. Dividing by $\sqrt D$ instead would shrink every head's scores by a further factor of $\sqrt H$ and make its softmax flatter than intended. A simulation with d = 4 and D = 8 shows this: the standard deviation of the scores is about 2 without scaling, about 1 after division by $\sqrt d$, and only about 0.7 after division by $\sqrt D$ (in theory $1/\sqrt 2 \approx 0.707$).
""")

code(r"""
rng = np.random.default_rng(1)
q_sample, k_sample = rng.normal(size=(2, 200_000, d))
#en 200,000 dot products of width d = 4
dots = (q_sample * k_sample).sum(axis=-1)
spread = [dots.std(), (dots / np.sqrt(d)).std(), (dots / np.sqrt(D)).std()]
print(r(spread, 3))
assert (abs(spread[0] - 2) < 0.03 and abs(spread[1] - 1) < 0.015
        and abs(spread[2] - 1 / np.sqrt(2)) < 0.01)
""")

md(r"""
After scaling, the softmax also runs **per head**: for every head and every query i it normalises over the same allowed set (keys 0 to i).

We keep the random example of §2.1 (T = 5, D = 8, H = 2). We split the projected q, k and v into heads, compute each head's weights with `masked_softmax` and check two things: every row sums to 1 and puts exactly 0 on future keys, and weights times values equal what `lib.attention.causal_attention` returns.
""")

code(r"""
# (1, H, T, d) ×3
q, k, v = (split_heads(xs @ w_, H) for w_ in (w_q, w_k, w_v))
allowed = causal_allowed(T5, T5)             #en (T, T), True = may read
#en (1, H, T, T), one table per head
scores = q @ k.swapaxes(-1, -2) / np.sqrt(d)
weights = masked_softmax(scores, allowed)     # (1, H, T, T)
print(weights.shape)
print(r(weights.sum(axis=-1)))     #en one sum per head and query
print(weights[..., ~allowed].max())  #en the largest weight on a future key
head_gap = np.abs(weights[0, 0] - weights[0, 1]).max()
print(r(head_gap, 3))  #en the two heads weigh keys differently
assert (np.allclose(weights.sum(axis=-1), 1)
        and (weights[..., ~allowed] == 0).all())
assert np.allclose(weights @ v, causal_attention(q, k, v))
assert head_gap > 0.1
""")

md(r"""
The two heads look at the same positions under the same mask, yet they distribute their attention differently, because each compares different coordinates. Figure 2.3 shows both heads' attention weights (row i = query, column j = key).
""")

code(r"""
maps = [weights[0, h_] for h_ in range(H)]
labels = [[[f"{value:.2f}" for value in row] for row in m] for m in maps]
plots.heatmaps(maps, [f"h = {h_}" for h_ in range(H)], labels=labels,
               row_sums=True, cell_size=0.8, lang="{{lang}}")
plt.show()
""", alt="Two 5×5 heatmaps, h = 0 and h = 1: weight of query i (row) on key j (column), each cell labelled. Above the diagonal all 0, every row sums to 1, and the two heads weigh keys differently.")

md(r"""
## 2.4 Merging the heads, and why $W_O$ is not decoration

After attention the heads have shape $B \times H \times T \times d$. `merge_heads` moves the head axis back behind the time axis and concatenates the heads in their order into $B \times T \times D$, again with feature $h \cdot d + a$ = coordinate a of head h. Then comes the output projection, a $D \times D$ matrix $W_O$ without bias: `merged @ W_O`.

Without $W_O$ the concatenation only places the heads side by side: output features $h \cdot d$ to $h \cdot d + d - 1$ would be computed by head h alone, and within this layer no output feature would ever combine what two heads found. $W_O$ is where they meet. Write $y^{(h)}_t$ for the output of head h at position t (d numbers) and $W_O^{(h)}$ for rows $h \cdot d$ to $h \cdot d + d - 1$ of $W_O$. The block-of-rows identity checked in §2.1 then reads:

$$y_t = \sum_h y^{(h)}_t \, W_O^{(h)}.$$

Each block $W_O^{(h)}$ is $d \times D$, so every output feature *can* receive a contribution from every head. A generic $W_O$ mixes every head into every output feature; the identity does not.

The experiment below changes only head 1's values v and watches the output: once with $W_O = I$ (the identity, i.e. no $W_O$) and once with a random $W_O$. The two printed numbers are the largest change in the first d output features (head 0's block when $W_O = I$) and in the last d.
""")

code(r"""
per_head = causal_attention(q, k, v)  # (1, H, T, d)
merged = merge_heads(per_head)        # (1, T, D)
assert all(merged[0, t_, h_ * d + a_] == per_head[0, h_, t_, a_] for h_, t_,
           a_ in itertools.product(range(H), range(T5), range(d)))

v_changed = v.copy()
v_changed[:, 1] += 1.0  #en only head 1 reads different values
merged_changed = merge_heads(causal_attention(q, k, v_changed))  # (1, T, D)
changes = {}
for name, w_out in (("I", np.eye(D)), ("W_O", w_o)):
    change = np.abs(merged_changed @ w_out - merged @ w_out)[0]  # (T, D)
    changes[name] = (change[:, :d].max(), change[:, d:].max())
    print(name, r(changes[name], 3))
assert changes["I"][0] == 0 and changes["I"][1] > 0.5
assert min(changes["W_O"]) > 0.1
assert np.allclose(
    multi_head_attention(xs, w_q, w_k, w_v, w_o, H), merged @ w_o)
""")

md(r"""
With $W_O = I$ the first d output features do not change at all: they belong to head 0 alone. With a generic $W_O$ every output feature reacts to the change in head 1. (In a deeper model the next layer's projections mix features too, but inside one attention layer $W_O$ is the only place where the heads meet.) So `lib.attention.multi_head_attention` is "project → split → attention per head → merge → multiply by $W_O$".

## 2.5 Example 1: two heads, computed in full by hand

To keep the arithmetic small, there are no positions yet (§3 adds them). D = 4, H = 2, d = 2, and the three projections $W_Q$, $W_K$ and $W_V$ are the $4 \times 4$ identity, so the query, key and value of a position are just its input vector. The input is the sequence `<bos> 春` with embeddings chosen by hand:

`E[<bos>] = [1, 0, 0, 1]`,  `E[春] = [0, 1, 1, 0]`.

Let $\alpha = 1/(1 + e^{1/\sqrt 2})$.

* **Head 0** reads coordinates 0–1, where `<bos>` is [1, 0] and 春 is [0, 1]. Query 0 reads only itself and returns [1, 0]. Query 1, [0, 1], gives the two keys the scores [0, $1/\sqrt 2$], hence the weights $[\alpha, 1 - \alpha]$, and returns $[\alpha, 1 - \alpha]$.
* **Head 1** reads coordinates 2–3, where `<bos>` is [0, 1] and 春 is [1, 0]. Query 0 returns [0, 1]. Query 1, [1, 0], again gets the scores [0, $1/\sqrt 2$] and the weights $[\alpha, 1 - \alpha]$; its values are [0, 1] and [1, 0], so it returns $[1 - \alpha, \alpha]$.

Concatenated in head order, the two rows are [1, 0, 0, 1] and $[\alpha, 1 - \alpha, 1 - \alpha, \alpha]$. Numerically $\alpha \approx 0.330238$ and $1 - \alpha \approx 0.669762$.

The output projection maps $[z_0, z_1, z_2, z_3]$ to $[z_0 + z_2, z_1 + z_3, z_0 - z_2, z_1 - z_3]$. In the row-vector convention `z @ W_O` its matrix is (row = input coordinate, column = output coordinate):

$$W_O = \begin{pmatrix} 1&0&1&0\\ 0&1&0&1\\ 1&0&-1&0\\ 0&1&0&-1 \end{pmatrix}.$$

So output 0 is [1, 1, 1, −1] and output 1 is $[1, 1, 2\alpha - 1, 1 - 2\alpha]$, with $2\alpha - 1 \approx -0.339523$. First we check, on a vector that is easy to recognise, that $W_O$ is written down correctly, and then we compute $\alpha$:
""")

code(r"""
W_O = np.array([[1., 0., 1., 0.],
                [0., 1., 0., 1.],
                [1., 0., -1., 0.],
                [0., 1., 0., -1.]])
z = np.array([10., 20., 30., 40.])
print(z @ W_O)  # [z0+z2, z1+z3, z0-z2, z1-z3]
alpha = 1 / (1 + np.exp(1 / np.sqrt(2)))
print(round(alpha, 6), round(1 - alpha, 6), round(2 * alpha - 1, 6))
assert np.array_equal(z @ W_O, [40., 60., -20., -20.])
assert (round(alpha, 6) == 0.330238 and round(1 - alpha, 6) == 0.669762
        and round(2 * alpha - 1, 6) == -0.339523)
""")

md(r"""
Now we compute by hand, head by head, following the steps above (without `lib`), and then pass the same input through `lib.attention.multi_head_attention`. Both must agree:
""")

code(r"""
x1 = np.array([[1., 0., 0., 1.],                 #en E[<bos>] at position 0
               [0., 1., 1., 0.]])                #en E[春] at position 1
d1 = 2
concat = np.zeros((2, 4))
for t_ in range(2):  #en query position
    for h_ in range(2):  #en head h reads coordinates 2h, 2h+1
        #en keys = values = allowed rows 0 to t of this head
        block = x1[: t_ + 1, 2 * h_: 2 * h_ + 2]
        s = block @ x1[t_, 2 * h_: 2 * h_ + 2] / np.sqrt(d1)
        p = np.exp(s) / np.exp(s).sum()
        concat[t_, 2 * h_: 2 * h_ + 2] = p @ block
out_hand = concat @ W_O
out_lib = multi_head_attention(
    x1[None], np.eye(4), np.eye(4), np.eye(4), W_O, n_heads=2)[0]
print(r(concat))
print(r(out_hand))
print("max|Δ| < 1e-12:", np.abs(out_hand - out_lib).max() < 1e-12)
concat_rule = [[1, 0, 0, 1], [alpha, 1 - alpha, 1 - alpha, alpha]]
output_rule = [[1, 1, 1, -1], [1, 1, 2 * alpha - 1, 1 - 2 * alpha]]
assert np.allclose(concat, concat_rule, rtol=0, atol=1e-12)
assert np.allclose(out_lib, output_rule, rtol=0, atol=1e-12)
assert np.abs(out_hand - out_lib).max() < 1e-12
""")

md(r"""
### After $W_O$ the output is no longer an average of values

Each head's output is a weighted average of its values, so it stays inside their convex hull. Here every value vector is a one-hot code (its coordinates are 0 or 1, and exactly one of them is 1). Every head's output therefore has coordinates in [0, 1] that add up to 1. The concatenation holds H = 2 such blocks, so its four coordinates already add up to 2 before $W_O$. After $W_O$ the output leaves the hull: both outputs have a negative entry, −1 in output 0 and $2\alpha - 1 \approx -0.339523$ in output 1. Only the negative entry shows what $W_O$ did; the sum of 2 was there before it. The output of a multi-head layer is a vector in feature space, not an average of values.
""")

code(r"""
head_outputs = concat.reshape(2, 2, 2)  # (T, H, d)
print(r(head_outputs.sum(axis=-1)))  #en every head's output sums to 1
#en after W_O: a negative entry; the sums are 2, as in concat
print(r(out_lib.min(axis=-1)), r(out_lib.sum(axis=-1)))
assert (((head_outputs >= 0) & (head_outputs <= 1)).all()
        and np.allclose(head_outputs.sum(axis=-1), 1)
        and np.allclose(concat.sum(axis=-1), 2))
assert (out_lib[1].min() < 0 and np.isclose(out_lib[1].min(), 2 * alpha - 1)
        and np.allclose(out_lib.sum(axis=-1), 2))
""")

md(r"""
### Same weights, different value coordinates

For query 1 both heads compute the weights $[\alpha, 1 - \alpha]$ only by a **coincidence** of the example. Each embedding's second half is its first half swapped (`[1, 0 | 0, 1]`, `[0, 1 | 1, 0]`), and swapping both the query and the key leaves their dot product as it was. In a trained model nothing makes the heads' weights agree. And even with identical weights the heads are not redundant: they read different value coordinates and return $[\alpha, 1 - \alpha]$ and $[1 - \alpha, \alpha]$.
""")

code(r"""
for h_ in range(2):
    #en keys = values of head h, rows t = 0, 1
    block = x1[:, 2 * h_: 2 * h_ + 2]
    weights_1 = masked_softmax(block @ block[1] / np.sqrt(d1),
                               np.array([True, True]))
    print(h_, r(weights_1), block.tolist(), r(weights_1 @ block))
weights_h0 = masked_softmax(x1[:, :2] @ x1[1, :2] / np.sqrt(d1),
                            np.array([True, True]))
weights_h1 = masked_softmax(x1[:, 2:] @ x1[1, 2:] / np.sqrt(d1),
                            np.array([True, True]))
assert (np.allclose(weights_h0, [alpha, 1 - alpha])
        and np.allclose(weights_h1, [alpha, 1 - alpha]))
assert (np.allclose(weights_h0 @ x1[:, :2], [alpha, 1 - alpha])
        and np.allclose(weights_h1 @ x1[:, 2:], [1 - alpha, alpha]))
""")

md(r"""
## 2.6 What the number of heads costs at fixed width

It is easy to think "more heads, bigger model, slower model". At fixed D, the parameter count, the arithmetic and the memory do not move together, so count each separately:

* **Parameters.** Whatever H is, $W_Q$, $W_K$, $W_V$ and $W_O$ are $D \times D$ each: $4D^2$ parameters. The heads only decide how the columns are grouped.
* **Matrix products.** The four projections do not depend on H at all. Per sequence the scores take $H\cdot(T^2 d) = T^2 D$ multiply-adds and the weighted sum as many: the total does not change.
* **Attention tables.** Every head has its own $T \times T$ table of weights. If they are kept (the backward pass needs them, or you want to look at them), they take $B\cdot H\cdot T^2$ numbers, growing linearly with H. The softmax has just as many entries to normalise.

`lib.costs.head_costs` turns this into numbers (full $T \times T$ tables, as `lib` computes them). A multiply-add counts as 2 FLOPs. A softmax entry counts as 5 operations: compare with the row maximum, subtract it, exponentiate, add to the row sum, divide by it. The table below is for D = 512, T = 1024, B = 1 and float32 numbers. Its columns are H, d, the parameters $4D^2$, the attention-table entries $BHT^2$ and their size in MiB, the matrix products in GFLOP and the softmax work in millions of operations (M ops).
""")

code(r"""
head_counts = np.array([1, 2, 4, 8, 16])
D_big, T_big = 512, 1024
#en batch 1, 4 bytes per number
cost = head_costs(head_counts, width=D_big, length=T_big)
print(
    f"{'H':>3} {'d':>4} {'4D²':>9} {'BHT²':>10} {'MiB':>4} "
    f"{'GFLOP':>9} {'M ops':>7}"
)
for i, h_ in enumerate(head_counts):
    print(
        f"{h_:>3} {cost['head_width'][i]:>4} {cost['parameters'][i]:>9,} "
        f"{cost['attention_entries'][i]:>10,} "
        f"{cost['attention_bytes'][i] / 2**20:>4.0f} "
        f"{cost['matmul_flops'][i] / 1e9:>9.2f} "
        f"{cost['softmax_ops'][i] / 1e6:>7.1f}"
    )
assert (cost["parameters"] == 4 * D_big**2).all()
assert ((cost["matmul_flops"] == cost["matmul_flops"][0]).all()
        and round(cost["matmul_flops"][0] / 1e9, 2) == 4.29)
assert (cost["attention_bytes"][0] == 4 * 2**20
        and cost["attention_bytes"][-1] == 64 * 2**20)
assert (cost["attention_entries"] == head_counts * T_big**2).all()
assert cost["softmax_ops"][-1] == 16 * cost["softmax_ops"][0]

#en the same rules hold for every choice offered by the interactive figure
#en below
h_options = [1, 2, 4, 8, 16, 32]
d_options = [128, 256, 512, 1024]
t_options = [128, 256, 512, 1024, 2048, 4096]
rules_hold = True
for D_, T_ in itertools.product(d_options, t_options):
    c_h = head_costs(np.array(h_options), width=D_, length=T_)
    c_2t = head_costs(np.array(h_options), width=D_, length=2 * T_)
    rules_hold &= bool((c_h["parameters"] == 4 * D_**2).all()
                       and (c_h["matmul_flops"]
                            == c_h["matmul_flops"][0]).all()
                       and (c_h["attention_entries"]
                            == np.array(h_options) * T_**2).all()
                       and (c_2t["attention_entries"]
                            == 4 * c_h["attention_entries"]).all())
print(rules_hold)
assert rules_hold
""")

md(r"""
From H = 1 to H = 16 the parameters stay at 1,048,576 and the matrix products at about 4.29 GFLOP, while the attention tables grow from 4 MiB to 64 MiB and the softmax work grows 16-fold. These are **counts**, not timings: real running time also depends on how efficiently the hardware handles many small d-wide products, which this table does not measure.

Figure 2.4 shows the same counts, each divided by its value at H = 1. Two pairs coincide: the parameters and the matrix products lie on the same flat line, the attention tables and the softmax work on the same rising one. In each pair the first line is drawn wider and with a larger marker, under the second:
""")

code(r"""
plots.head_cost_chart(head_counts, cost,
                      keys=["parameters", "matmul_flops",
                            "attention_entries", "softmax_ops"],
                      labels=["4·D²", "FLOP (matmul)", "B·H·T²", "softmax"])
plt.show()
""", alt="Log-log lines over H = 1, 2, 4, 8, 16, each count divided by its value at H = 1: 4·D² and matmul FLOP stay at 1, while B·H·T² and the softmax work rise to 16.")

md(r"""
### The same counts for other H, D and T

The interactive figure below gives the same counts for other values of H, D and T (B = 1, float32), starting from H = 8, D = 512 and T = 1024. At fixed H, doubling T makes the attention tables four times larger, because each head's table has $T^2$ entries. Pick the values with the buttons above the table.
""")

code(r"""
from figures.interactive import head_cost_table

head_cost_table(H=[1, 2, 4, 8, 16, 32], D=[128, 256, 512, 1024],
                T=[128, 256, 512, 1024, 2048, 4096], start=(8, 512, 1024))
""")

md(r"""
## 2.7 What two heads can do and one cannot

A small example built by hand works through the argument made at the start of this section. Four positions hold `<bos> 雨 春 风`, and the inputs have width D = 8: coordinates 0–3 are a one-hot code of the position t (§3 shows how a model gets such position information), coordinates 4–7 a one-hot code of the token. Every position should read two things: the previous token, and the `<bos>` at the start. With H = 2 and d = 4 the projection matrices are chosen by hand:

* head 0: the query of position t is 20 times the code of position t − 1 (position 0 has no position before it and uses its own code), its keys are the position codes, its values the token codes. Query t therefore matches key t − 1 alone for $t \ge 1$, and query 0 matches key 0, itself;
* head 1: every query is 20 times the code of position 0, with the same keys and values, so every query matches key 0 alone.

With $W_O = I$ the output shows the two heads side by side. For comparison, a single head (H = 1, d = 8) looks for both positions at once: its query is 20 times the sum of the two codes. Figure 2.5 shows the weights of the two heads and of the single head.
""")

code(r"""
from lib.checks import attention_weights

T4, D8, c = 4, 8, 20.0
token_code = {"<bos>": 0, "春": 1, "雨": 2, "风": 3}
x4 = np.zeros((1, T4, D8))  # (1, T, D)
for t_, token in enumerate(["<bos>", "雨", "春", "风"]):
    x4[0, t_, t_] = 1  #en coordinates 0–3: the position code
    x4[0, t_, 4 + token_code[token]] = 1  #en coordinates 4–7: the token code
#en the previous position each position should read (0 can only read itself)
previous = np.maximum(np.arange(T4) - 1, 0)

#en two heads: head 0 owns columns 0–3, head 1 columns 4–7
w_q2, w_k2, w_v2 = np.zeros((3, D8, D8))
w_q2[np.arange(T4), previous] = c  #en head 0: query t = c · code(t − 1)
w_q2[np.arange(T4), 4] = c         #en head 1: query = c · code(0)
#en keys of both heads: the position code
w_k2[np.arange(T4), np.arange(T4)] = 1
w_k2[np.arange(T4), 4 + np.arange(T4)] = 1
#en values of both heads: the token code
w_v2[4 + np.arange(4), np.arange(4)] = 1
w_v2[4 + np.arange(4), 4 + np.arange(4)] = 1
# (T, D)
two_heads = multi_head_attention(
    x4, w_q2, w_k2, w_v2, np.eye(D8), n_heads=2)[0]
w2 = attention_weights(x4, w_q2, w_k2, n_heads=2)[0]  # (H, T, T)

#en one head (d = 8) looking for both positions at once
w_q1, w_k1, w_v1 = np.zeros((3, D8, D8))
#en query = c · (code(t − 1) + code(0))
np.add.at(w_q1, (np.arange(T4), previous), c)
w_q1[np.arange(T4), 0] += c
w_k1[np.arange(T4), np.arange(T4)] = 1
w_v1[4 + np.arange(4), np.arange(4)] = 1
# (T, D)
one_head = multi_head_attention(
    x4, w_q1, w_k1, w_v1, np.eye(D8), n_heads=1)[0]
w1 = attention_weights(x4, w_q1, w_k1, n_heads=1)[0, 0]  # (T, T)

print(np.round(w2, 3))
print(np.round(w1, 3))
print(np.round(two_heads[3], 3), np.round(one_head[3, :4], 3))
#en two heads: each puts nearly all its weight on its own key
assert ((w2[0, np.arange(T4), previous] > 0.999).all()
        and (w2[1, :, 0] > 0.999).all())
#en the two blocks of the output: the code of the previous token and the code
#en of <bos>
assert np.allclose(two_heads[:, :4], x4[0, previous, 4:], atol=1e-3)
assert np.allclose(two_heads[:, 4:], x4[0, [0] * T4, 4:], atol=1e-3)
#en one head: at t < 2 both keys are key 0, which takes all the weight
assert (previous[:2] == 0).all() and (w1[:2, 0] > 0.999).all()
#en one head: for t ≥ 2 the weight is split in half and the output is the
#en average of the two codes
assert (np.allclose(w1[2:, 0], 0.5, atol=1e-3)
        and np.allclose(w1[np.arange(2, T4), previous[2:]], 0.5, atol=1e-3))
assert np.allclose(one_head[2:, :4],
                   (x4[0, previous[2:], 4:] + x4[0, 0, 4:]) / 2, atol=1e-3)
""")

code(r"""
maps = [w2[0], w2[1], w1]
plots.heatmaps(maps, ["h = 0", "h = 1", "H = 1"],
               labels=[[[f"{value:.2f}" for value in row] for row in m]
                       for m in maps], cell_size=0.8, lang="{{lang}}")
plt.show()
""", alt="Three 4×4 heatmaps, rows i are queries, columns j keys, each cell labelled with its weight. h = 0: nearly all of each row's weight on j = i − 1 (row 0 on j = 0). h = 1: nearly all of each row's weight on j = 0. H = 1 (one head): from row 2 on, about 0.5 on j = 0 and 0.5 on j = i − 1.")

md(r"""
At positions 1 to 3, head 0 puts at least 0.999 of its weight on the previous token (position 0, which has none, reads itself); at every position, head 1 puts at least as much on `<bos>`. The output carries both readings, each in four coordinates of its own. At position 3 (风) the first block is the code of 春 and the second the code of `<bos>`. A single head has to look for both keys at once. At positions 0 and 1 they are the same key, key 0, and it takes all the weight. At positions 2 and 3 they are two different keys, so the head gives each about 1/2 and returns the average of the two codes in one block: [0.5, 0.5, 0, 0] at position 3. Each reading survives only at half strength, in the same coordinates as the other. Here one of the two readings is always `<bos>`, so it could be subtracted out. If both were arbitrary tokens, the average could not show which of them came from which position.

This is what heads buy: each position can read several positions sharply at once and keep what it read apart until $W_O$ combines it. The roles here were set by hand; a trained model's heads need not divide the work so cleanly (§2.9).
""")

md(r"""
## 2.8 Each head has its own notion of similarity, but only in d dimensions

The choice of H has two more consequences, one in its favour and one against. **For:** each head compares its own d coordinates through its own blocks of $W_Q$ and $W_K$, so each can have its own notion of which keys are similar. **Against:** at fixed D those are only d = D/H coordinates.

The cell below builds `<bos> 春 风 春 雨` with width D = 4: coordinates 0–1 code the token, coordinates 2–3 the position, as a point at angle $60^\circ \cdot t$ on a circle. $W_K$ is the identity. Head 0 keeps its query, so it looks for the same token; head 1 turns its query back by 60°, so it looks for the position just before. The printed rows are the dot products $q_3 \cdot k_j$ of query 3, the second 春, with keys 0–3: in head 0, in head 1, and in one head of width 4.
""")

code(r"""
codes = {"<bos>": [0, -1], "春": [1, 0], "风": [0, 1], "雨": [-1, 0]}
angle = np.pi / 3 * np.arange(5)                        #en 60° · t
x5 = np.array([codes[token] + [np.cos(a_), np.sin(a_)] for token, a_
               in zip(["<bos>", "春", "风", "春", "雨"], angle)])  # (T, D)
turn = np.array([[np.cos(np.pi / 3), -np.sin(np.pi / 3)],
                 [np.sin(np.pi / 3), np.cos(np.pi / 3)]])  #en back by 60°
w_q5 = np.eye(4)
w_q5[2:, 2:] = turn                      #en head 1: position t − 1
q5 = split_heads((x5 @ w_q5)[None], 2)[0]               # (H, T, d)
k5 = split_heads(x5[None], 2)[0]         #en W_K = I, (H, T, d)
dots = q5 @ k5.swapaxes(-1, -2)                         # (H, T, T)
print(r(dots[:, 3, :4], 2))
print(r(dots[:, 3, :4].sum(axis=0), 2))  #en one head of width D = 4
#en head 0: the two 春; head 1: the position before
assert np.flatnonzero(dots[0, 3, :4] == 1).tolist() == [1, 3]
assert dots[1, 3, :4].argmax() == 2
#en one head of width D scores the sum of the heads' dot products
assert np.allclose((x5 @ w_q5) @ x5.T, dots.sum(axis=0))
""")

md(r"""
Head 0 finds the two 春 (keys 1 and 3), head 1 the position before (key 2). One head of width 4 compares all four coordinates at once, and its dot product is the sum of the two rows: a single notion of similarity in which "same token" and "just before" are traded against each other. Here the two 春 get the dot product 1.5 and key 2 only 1, so the position just before loses.

The price is the width. The scores of head h, $Q^{(h)} K^{(h)\top} / \sqrt d$, are a $T \times T$ matrix, the product of a $T \times d$ and a $d \times T$ matrix, so their rank is at most d: at fixed D, more heads mean lower-rank scores. The cell below measures every head's rank on random inputs with T = D = 16. At d = 1 a score is a product of two numbers, $s_{ij} \propto q_i k_j$, so every query orders the keys by the same number $k_j$, forwards or backwards. A head's favourite key, over all keys and before any mask, is then one of only two (the last printed column gives the largest number of different favourites in one head).
""")

code(r"""
rng = np.random.default_rng(0)
T16 = D16 = 16
x16 = rng.normal(size=(1, T16, D16))                       # (1, T, D)
w_q16, w_k16 = rng.normal(size=(2, D16, D16)) / np.sqrt(D16)
for h_count in (1, 2, 4, 8, 16):
    q16, k16 = (split_heads(x16 @ w_, h_count)[0]
                for w_ in (w_q16, w_k16))                 # (H, T, d)
    head_scores = q16 @ k16.swapaxes(-1, -2)                # (H, T, T)
    ranks = {int(np.linalg.matrix_rank(s_)) for s_ in head_scores}
    favourites = max(len(set(s_.argmax(axis=1).tolist()))
                     for s_ in head_scores)
    print(h_count, D16 // h_count, ranks, favourites)
    assert ranks == {D16 // h_count}
assert favourites == 2  #en d = 1: every query prefers one of two keys
""")

md(r"""
Here every head's scores reach rank d, the most they can have. More heads buy more softmaxes and more notions of similarity, each comparing fewer coordinates; how to split D is a trade-off, not a rule.
""")

md(r"""
## 2.9 More heads do not give each head a nameable role

It is tempting to say "this head tracks syntax, that one the previous word". Nothing in the split guarantees anything of the kind. The split only gives each head its own subspace and its own softmax; what a head ends up doing is decided by training, and several heads may learn much the same thing, or something that has no name at all. Whether a head has a role is a claim to be checked by observation and experiment (for example by switching the head off and measuring the effect); it does not follow from the value of H.

## 2.10 Summary

* Multi-head attention is H single-head computations on blocks of columns of $W_Q$, $W_K$ and $W_V$, concatenated and multiplied by $W_O$; the split form computes the same thing with a few full-width products.
* `split_heads`: coordinate a of head h at position t is feature $h \cdot d + a$ at position t. Check layouts entry by entry: neither a shape test nor a round-trip test finds a missing axis swap.
* Every head divides its scores by $\sqrt d$, the width of one head (not $\sqrt D$), and normalises over the same allowed set; the causal mask is the same for all heads.
* `merge_heads` concatenates in head order; $W_O$ is where the heads meet, and after it the output is no longer a convex combination.
* H heads give each query H softmaxes, so it can read H positions sharply at once (§2.7), and each head compares its own coordinates in its own way (§2.8).
* At fixed D, changing H shifts the costs: parameters and matrix products stay the same, attention tables and softmax work grow with H, and each head's scores have rank at most d.

The exercises for this section are in `exercises/en/ex02_heads.ipynb`. Next, §3 turns to learned absolute positions.
""")
