# §3 Learned absolute positions.
# Trilingual source: see tools/nbsource.py and CONTRIBUTING.md.

md(r"""
# 3 Learned absolute positions

The causal mask tells each query which keys come at or before it, but not in what order they came. The opening example of this section shows the consequence: swap the first two tokens of a text, and one attention layer without positions gives the same output at the last position. Positions have to be given to the model explicitly.

This section does so in the simplest way, through a learned table. Besides the token embedding table E (shape $\lvert\mathcal V\rvert \times D$), the model keeps a position table P (shape $C \times D$), where C is the largest number of positions the model can represent. The token $x_{b,t}$ at index t of sequence b in the input stands at the absolute position o + t. Its input vector is

$$X_{b,t} = E[x_{b,t}] + P[o + t].$$

Here o, the offset, is the number of real positions before the input. For a whole sequence o = 0; when new tokens follow stored ones, o is the length of the cache (§5). Figure 3.1 shows o = 1. The two rows, $E[x_{b,t}]$ and $P[o + t]$, both have width D; otherwise they could not be added.

![Learned absolute positions: 春, 雨 and 风 after a stored BOS have the indices t = 0, 1, 2 in the new input and, with offset o = 1, stand at the absolute positions o + t = 1, 2, 3. Each input vector is the row of the token embedding table E picked by the token id (rows 3, 4, 5) plus the row of the position table P picked by o + t (rows 1, 2, 3).](figures/positions.svg)
""")

code(r"""
import matplotlib.pyplot as plt
import numpy as np

from figures import plots
from lib.attention import (causal_allowed, masked_softmax,
                           multi_head_attention, split_heads)
from lib.data import BOS, UNK, build_vocab, encode
from lib.model import AttentionModel
from lib.positions import embed, embed_backward


def r(x, digits=6):
    #en rounded copy for printing; adding 0.0 turns -0.0 into 0.0
    return np.round(np.asarray(x, dtype=float), digits) + 0.0


vocab = build_vocab(["春雨风"])
E = np.array([[40., -30., 20., -10.],           # <unk>
              [1., 0., 0., 1.],                 # <bos>
              [.2, .1, .3, -.1],                # <eos>
              [0., 1., 1., 0.],                 #en 春 (spring)
              [.5, .5, -.5, .5],                #en 雨 (rain)
              [1., 0., 0., 1.]])                #en 风 (wind)
t = np.arange(8)
# (C, D) = (8, 4)
P = np.stack([0.1 * (t + 1), 0.03 * t, 0.07 * (t % 2), -0.02 * t], axis=1)
chun, yu, feng = encode("春雨风", vocab)
print(vocab)
print(E.shape, P.shape)
""")

md(r"""
## The opening example: a swap one layer cannot see without positions

Take the one-layer model `lib.model.AttentionModel` with the tables E and P above, H = 2, identity $W_Q$, $W_K$ and $W_V$, and the $W_O$ of §2.5. We switch its positions off and give it the inputs `春 风 雨` and `风 春 雨`: the first two tokens are swapped and the last one stays in place. The last row of the output is the only one that reads all three positions, and we compare it between the two inputs. First a check of the model: with positions off, `<bos> 春` must reproduce the output of Example 1 in §2.5.
""")

code(r"""
I4 = np.eye(4)
W_O = np.array([[1., 0., 1., 0.],
                [0., 1., 0., 1.],
                [1., 0., -1., 0.],
                [0., 1., 0., -1.]])
model = AttentionModel(E, P, I4, I4, I4, W_O, n_heads=2)
alpha = 1 / (1 + np.exp(1 / np.sqrt(2)))  #en the α of §2.5
example_1 = model.forward(np.array([BOS, chun]), use_positions=False)
print(r(example_1))
assert np.allclose(example_1, [[1, 1, 1, -1],
                               [1, 1, 2 * alpha - 1, 1 - 2 * alpha]],
                   rtol=0, atol=1e-12)


first = np.array(encode("春风雨", vocab))                  # [3, 5, 4]
second = np.array(encode("风春雨", vocab))                 # [5, 3, 4]


def last_row_difference(use_positions):
    out_first = model.forward(first, use_positions=use_positions)  # (T, D)
    out_second = model.forward(second, use_positions=use_positions)
    return float(np.abs(out_first[-1] - out_second[-1]).max())


without_positions = last_row_difference(False)
print("max|Δ| < 1e-12:", without_positions < 1e-12)
assert first.tolist() == [3, 5, 4] and second.tolist() == [5, 3, 4]
assert without_positions < 1e-12
""")

md(r"""
### Why the difference is 0

For the last query the two inputs differ only in the order of keys 0 and 1. The query itself (雨 at the end) is the same; the causal mask allows all three keys in both cases; and without positions the key and the value of a position depend only on its token. So swapping the two tokens swaps keys and values **together**: the scores are permuted, the softmax permutes the weights in the same way, and the weighted sum $\sum_j \alpha_{ij} v_j$ adds up the same terms in a different order.

To this layer, at its last position, `春 风 雨` and `风 春 雨` are the same text. The rest of the section gives every position a vector of its own, and §3.4 comes back to this swap with positions switched on.
""")

md(r"""
## 3.1 Forward: look up, then add

The vocabulary is the three special tokens `<unk>`, `<bos>`, `<eos>` followed by 春, 雨, 风 sorted by code point: $\lvert\mathcal V\rvert = 6$. The E and P above are small tables chosen by hand for this section (D = 4, C = 8). They exist to check indices and additions; **nobody trained them**.

Two rows of E are chosen deliberately, for later use:

* The embedding of `<unk>`, [40, −30, 20, −10], is far larger than any other row. §4 puts it in place of a future token: if it ever leaked into an earlier position, the effect would be impossible to miss.
* `<bos>` and 风 have identical embeddings, [1, 0, 0, 1]. Different ids with the same vector let §4.5 show how a future-perturbation test can pass for the wrong reason.

The rows of `<bos>` (and so of 风) and of 春 are also the two input vectors of Example 1 in §2.5; that is why the opening check could reuse Example 1.
""")

code(r"""
others = np.delete(E, UNK, axis=0)  #en every row except <unk>
#en smallest |coordinate| of <unk>, largest |coordinate| of the rest
print(np.abs(E[UNK]).min(), np.abs(others).max())
print(np.array_equal(E[BOS], E[feng]), E[BOS].tolist(), E[chun].tolist())
assert np.abs(E[UNK]).min() >= 10 * np.abs(others).max()
assert (np.array_equal(E[BOS], E[feng]) and E[BOS].tolist() == [1, 0, 0, 1]
        and E[chun].tolist() == [0, 1, 1, 0])
""")

md(r"""
The offset puts a piece of text where it belongs in its sequence. The whole sequence `<bos> 春 雨 风` uses rows 0–3 of P at offset o = 0. If `<bos>` is already stored (in the cache of §5) and `春 雨 风` come afterwards, they enter with o = 1 and use rows 1–3, just as in the whole sequence, so their input vectors are the same either way.
""")

code(r"""
ids = np.array([BOS] + encode("春雨风", vocab))  # (T,) = [1, 3, 4, 5]
X_whole = embed(ids, E, P)                  #en positions 0, 1, 2, 3
X_after = embed(ids[1:], E, P, offset=1)    #en positions 1, 2, 3
print(ids)
print(r(X_whole))
print(r(X_after))
assert ids.tolist() == [1, 3, 4, 5]
assert (np.array_equal(X_whole, E[ids] + P[0:4])
        and np.array_equal(X_after, E[ids[1:]] + P[1:4]))
assert np.array_equal(X_after, X_whole[1:])
""")

md(r"""
Figure 3.2 shows the position table P of this course: column 0 grows with t, column 1 grows more slowly, column 2 alternates between 0 and 0.07 (even and odd positions), and column 3 decreases. No two rows are equal; §3.3 relies on this.
""")

code(r"""
plots.position_table_heatmap(P, "{{lang}}")
plt.show()
""", alt="Heatmap of the position table P: rows t = 0 to 7, columns c = 0 to 3, each cell labelled. Column 0 grows with t, column 1 more slowly, column 2 alternates 0 and 0.07, column 3 falls; no two rows are equal.")

md(r"""
## 3.2 Backward: a scatter-add into both tables

The forward pass is a lookup: read row $x_{b,t}$ of E and row o + t of P, then add. So the backward pass sends the upstream gradient $G_{b,t} = \partial \mathcal L / \partial X_{b,t}$ back to those two rows unchanged, and where several positions (b, t) read the same row, their gradients add up:

$$\frac{\partial \mathcal L}{\partial E[r]} = \sum_{(b,t):\ x_{b,t} = r} G_{b,t}, \qquad \frac{\partial \mathcal L}{\partial P[r]} = \sum_{(b,t):\ o + t = r} G_{b,t}.$$

These are two **different** index rules: the rows of E collect gradient by **token id**, the rows of P by **absolute position**. At index t, every sequence in the batch uses the same row $P[o + t]$, so position rows are shared across the whole batch even when the tokens differ.

Take an example with D = 2 and the sequences `春 雨` and `风 雨`. At the first position the upstream gradients are [1, 2] for `春 雨` and [−3, 1] for `风 雨`; at the second, [0.5, 0] and [1, −1]. Row 0 of P receives [1, 2] + [−3, 1] = [−2, 3]. The first tokens differ, so $E[\text{春}]$ receives only [1, 2] and $E[\text{风}]$ only [−3, 1]. 雨 sits at position 1 in both sequences, so $E[\text{雨}]$ and $P[1]$ both receive [1.5, −1].
""")

code(r"""
# (B, T) = (2, 2)
ids2 = np.array([encode("春雨", vocab), encode("风雨", vocab)])
G = np.array([[[1., 2.], [0.5, 0.]],
              [[-3., 1.], [1., -1.]]])  # (B, T, D) = (2, 2, 2)
dE, dP = embed_backward(G, ids2, vocab_size=len(vocab), context_size=8)
print(r(dE))
print(r(dP[:3]))
assert (np.array_equal(dP[0], [-2., 3.])
        and np.array_equal(dP[1], [1.5, -1.]) and not dP[2:].any())
assert (np.array_equal(dE[chun], [1., 2.])
        and np.array_equal(dE[feng], [-3., 1.]))
assert np.array_equal(dE[yu], [1.5, -1.]) and not dE[:3].any()

naive = np.zeros_like(dE)
#en fancy-index "+=" keeps one write per repeated row
naive[ids2.reshape(-1)] += G.reshape(-1, 2)
print(r(naive[yu]))
assert (np.array_equal(naive[yu], [1., -1.])
        and not np.array_equal(naive[yu], dE[yu]))
""")

md(r"""
The last lines show a common trap: with fancy indexing, `dE[ids] += G` keeps only one of the writes to a repeated id (here $E[\text{雨}]$ gets only [1, −1] and loses [0.5, 0]). A real scatter-add needs an operation such as `np.add.at`, which is what `lib.positions.embed_backward` uses.

### Checking the backward pass with finite differences

Mistakes of this kind are silent, so we check `embed_backward` against finite differences. Take a nonlinear loss $\mathcal L = \sum R \odot \sin(X)$ with $X = E[\text{ids}] + P[o + t]$ and a fixed random array R. Then $\partial \mathcal L / \partial X = R \odot \cos(X)$, and `embed_backward` should turn this into the gradients of E and P. For **every** entry $\theta$ of both tables we compare with the central difference $(\mathcal L(\theta + \varepsilon) - \mathcal L(\theta - \varepsilon)) / (2\varepsilon)$. One token, 雨, occurs four times in the batch, so one row of E collects several gradients. The offset is o = 1, so the inputs stand at positions 1 to 3 of a five-row table. Rows 0 and 4 of P are never read, and their gradients must be exactly 0.
""")

code(r"""
rng = np.random.default_rng(0)
V_fd, C_fd, D_fd, offset = 6, 5, 3, 1
E_fd = rng.normal(size=(V_fd, D_fd))
P_fd = rng.normal(size=(C_fd, D_fd))
#en two texts after a stored <bos>, 雨 four times; positions 1, 2, 3
ids_fd = np.array([[3, 4, 4], [5, 4, 4]])
R = rng.normal(size=ids_fd.shape + (D_fd,))  # (B, T, D)


def loss():
    return float((R * np.sin(embed(ids_fd, E_fd, P_fd, offset))).sum())


def central_difference(table, eps=1e-6):
    grad = np.zeros_like(table)
    for index in np.ndindex(table.shape):  #en every single entry
        saved = table[index]
        table[index] = saved + eps
        up = loss()
        table[index] = saved - eps
        down = loss()
        table[index] = saved
        grad[index] = (up - down) / (2 * eps)
    return grad


X_fd = embed(ids_fd, E_fd, P_fd, offset)
dE_fd, dP_fd = embed_backward(R * np.cos(X_fd), ids_fd, V_fd, C_fd, offset)
error_E = np.abs(dE_fd - central_difference(E_fd)).max()
error_P = np.abs(dP_fd - central_difference(P_fd)).max()
print(error_E < 1e-8, error_P < 1e-8)
print(r(dP_fd[[0, C_fd - 1]]))
assert error_E < 1e-8 and error_P < 1e-8
assert not dP_fd[[0, C_fd - 1]].any()
""")

md(r"""
Analytic and numerical gradients agree to within $10^{-8}$ for both tables, and the position rows that are never read get exactly 0.

## 3.3 Positions beyond C

The table has rows 0 to $C-1$ and nothing else, and training cannot add one: the gradient of P that §3.2 computes has the shape of P, so a step updates the existing C rows and never creates row C. A position $\ge C$ has no vector, and `embed` does not invent one: it raises a `ValueError`. Here C = 8; an input of 6 tokens at offset 3 would need rows 3 to 8:
""")

code(r"""
#en a gradient for P from an input that fills every position
_, dP_full = embed_backward(np.ones((1, 8, 4)), np.full((1, 8), yu),
                            len(vocab), len(P))
print(P.shape, dP_full.shape)
assert dP_full.shape == P.shape == (8, 4)
try:
    embed(np.full(6, yu), E, P, offset=3)
    raise AssertionError("positions beyond C were accepted")
except ValueError as error:
    message = str(error)
    print(f"ValueError: {message}")
assert "3..8" in message and "C=8" in message and "no row for 8;" in message
""")

md(r"""
The message names the positions the input needs (`3..8`), the rows the table has (`0..7`, C = 8) and the one position it has no row for, 8.

Two "fixes" come to mind: wrap around (use row $(o + t) \bmod C$) or clamp to the last row (use row $\min(o + t, C - 1)$). Both quietly change the model. Take a 9-token input, one token more than C = 8, at positions 0 to 8:

* wrapping gives position 8 the row $P[0]$: 雨 at position 8 gets the vector 雨 would get at position 0, the start of a text;
* clamping gives positions 7 and 8 the same row $P[7]$: 雨 at position 8 gets the vector 雨 would get at position 7, and two different positions can no longer be told apart.

In a valid input every position has its own row of P, and the C rows of this table all differ: any two differ by at least 0.1 in some coordinate. That minimum is the last number the cell below prints. After wrapping or clamping, two positions share a row. The model never defined a vector for position 8, and borrowing another position's row amounts to running a different model. Extending the table is a design decision to be stated explicitly, not an indexing trick.
""")

code(r"""
#en 9 tokens, positions 0 to 8
ids9 = np.array([BOS] + encode("春雨风春雨风春雨", vocab))
positions = np.arange(len(ids9))
C = len(P)
wrap_rows = positions % C  #en wrapping: the row each position uses
clamp_rows = np.minimum(positions, C - 1)  #en clamping to the last row
X_wrap, X_clamp = E[ids9] + P[wrap_rows], E[ids9] + P[clamp_rows]
print(wrap_rows, clamp_rows)
#en 雨 at 8 = 雨 at 0
same_as_position_0 = np.array_equal(
    X_wrap[8], embed(ids9[8:9], E, P, offset=0)[0])
#en 雨 at 8 = 雨 at 7
same_as_position_7 = np.array_equal(
    X_clamp[8], embed(ids9[8:9], E, P, offset=7)[0])
row_gaps = np.abs(P[:, None, :]
                  - P[None, :, :]).max(axis=-1)[~np.eye(C, dtype=bool)]
print(len(ids9), same_as_position_0, same_as_position_7, r(row_gaps.min()))
assert len(ids9) == C + 1 and ids9[8] == yu
assert wrap_rows[8] == 0 and clamp_rows[7] == clamp_rows[8] == 7
assert (same_as_position_0 and same_as_position_7
        and round(row_gaps.min(), 6) == 0.1)
""")

md(r"""
### Rows that training never reaches

A table with C rows does not mean the model has learned C positions. A row receives gradient only when some training input actually uses that position (the scatter-add above writes nothing anywhere else). If every training text is short, the later rows get no gradient: under plain SGD, or Adam without weight decay, they keep their random initial values, and with weight decay (as in AdamW) they only shrink towards 0. A model with C = 8 that has only ever seen inputs of length at most 5 has not "learned long context": its rows 5 to 7 are still noise.

In a simulation we initialise P at random, run 200 SGD steps with random upstream gradients for inputs of length 1 to 5, and see which rows changed.
""")

code(r"""
rng = np.random.default_rng(3)
P_init = rng.normal(scale=0.02, size=P.shape)                  # (C, D)
P_trained = P_init.copy()
for step in range(200):
    #en training inputs have 1 to 5 positions
    length = int(rng.integers(1, 6))
    batch_ids = rng.integers(0, len(vocab), size=(4, length))  # (B, T)
    #en stands in for dL/dX, (B, T, D)
    upstream = rng.normal(size=(4, length, P.shape[1]))
    _, dP_step = embed_backward(upstream, batch_ids, len(vocab), C)
    P_trained -= 0.01 * dP_step
changed = np.abs(P_trained - P_init).max(axis=1) > 0
print(changed)
assert changed[:5].all() and not changed[5:].any()
assert np.array_equal(P_trained[5:], P_init[5:])
""")

md(r"""
Rows 0 to 4 have changed; rows 5 to 7 are identical to their initial values, bit for bit. This course uses learned absolute positions: they are simple and easy to check, but meaningful only for positions that training has actually seen.

## 3.4 Example 2: with positions, the swap shows up

Back to the opening swap, now with positions switched on. The two inputs still differ only in the order of 春 and 风, and we compare the last row of the output again: with positions, the largest absolute difference of its coordinates is about 0.047 instead of 0.
""")

code(r"""
with_positions = last_row_difference(True)
print(round(with_positions, 12))
assert round(with_positions, 12) == 0.047053077502
""")

md(r"""
This number can also be computed by a route that shares no code with the NumPy model. `lib/plain_python.py` does the layer's arithmetic with Python lists, loops and the `math` module only; it imports neither NumPy nor the rest of `lib`. `input_rows` adds each position row to its token embedding. With identity $W_Q$, $W_K$ and $W_V$, the query, key and value are the input vector itself, so `read` needs only the query and the rows it may read. For each head it computes the scaled dot products on the head's two coordinates, applies a softmax over all three keys (the last query may read every key anyway, so no mask is needed here) and forms the weighted sum. Then it merges the heads and multiplies by $W_O$. The two routes give the same difference to within $10^{-15}$.
""")

code(r"""
from lib import plain_python

#en the same tables as Python lists
E_rows, P_rows, W_O_rows = E.tolist(), P.tolist(), W_O.tolist()


def plain_last_row(tokens):
    rows = plain_python.input_rows(tokens, E_rows, P_rows)
    return plain_python.read(rows[-1], rows, 2, W_O_rows)


plain = max(abs(u - w) for u,
            w in zip(plain_last_row(first.tolist()),
                     plain_last_row(second.tolist())))
print(round(plain, 12), abs(plain - with_positions) < 1e-15)
assert abs(plain - with_positions) < 1e-15
""")

md(r"""
With positions, 春 at position 0 and 春 at position 1 carry different rows of P, so their keys and values differ, and the second input's keys and values are no longer a permutation of the first input's. Here are the last query's weights in both heads:
""")

code(r"""
def last_query_weights(ids, use_positions):
    x = model.embed(ids, use_positions)[None]  # (1, T, D)
    q = split_heads(x @ model.w_q, model.n_heads)  # (1, H, T, d)
    k = split_heads(x @ model.w_k, model.n_heads)  # (1, H, T, d)
    # (1, H, 1, T)
    scores = q[:, :, -1:] @ k.swapaxes(-1, -2) / np.sqrt(q.shape[-1])
    # (H, T)
    return masked_softmax(scores, np.ones(len(ids), dtype=bool))[0, :, 0]


swap = [1, 0, 2]
for use_positions in (False, True):
    w_first = last_query_weights(first, use_positions)
    w_second = last_query_weights(second, use_positions)
    print(use_positions, r(w_first, 4).tolist(), r(w_second, 4).tolist(),
          np.allclose(w_second, w_first[:, swap]))
assert np.allclose(last_query_weights(second, False),
                   last_query_weights(first, False)[:, swap])
assert not np.allclose(last_query_weights(second, True),
                       last_query_weights(first, True)[:, swap])
""")

md(r"""
Without positions the second input's weights are exactly the first input's weights with the first two entries swapped (the `True` at the end of the line that starts with `False`); with positions they are not.

### What this counter-example does **not** prove

It would be wrong to conclude that "a model with a mask and no positions cannot see order at all". Only the last row is blind to the order here. The causal mask itself breaks the symmetry. In the first input 春 sits at row 0 and reads only itself; in the second it sits at row 1 and reads both 风 and itself. So the first two output rows are not just swapped between the two inputs: 春's row, for example, is a different vector in each. The last query of a second attention layer reads those rows, and it no longer receives the same vectors in another order. Without the mask, rows 0 and 1 would differ too, but they would be exactly swapped, and a second layer's last row would again be blind to the swap. The cell below checks both points: the first two rows differ even after swapping them back, and stacking the same attention layer twice (still without positions, and without residual connections for brevity) makes the last row differ as well.

The accurate statement is much narrower: **this single layer**, at its last position, cannot tell the two inputs apart. That is why we give the model an explicit position representation whose effect can be tested, instead of hoping that the triangular mask supplies all the order information a task needs.
""")

code(r"""
out_first = model.forward(first, use_positions=False)  # (T, D)
out_second = model.forward(second, use_positions=False)
row_differences = np.abs(out_first - out_second).max(axis=1)          # (T,)
print(r(row_differences))
swapped_back = np.abs(out_first[[1, 0, 2]] - out_second).max(axis=1)  # (T,)


def second_layer(out):
    return multi_head_attention(out[None], I4, I4, I4, W_O, n_heads=2)[0]


two_layers = float(np.abs(second_layer(out_first)[-1]
                          - second_layer(out_second)[-1]).max())
print(round(two_layers, 6))
assert (row_differences[:2] > 0.5).all() and row_differences[2] < 1e-12
assert (swapped_back[:2] > 0.5).all()
assert two_layers > 0.1
""")

md(r"""
## 3.5 Past C: sinusoids, RoPE and ALiBi

A learned table stores one vector per position; past its last row there is nothing to look up. Three other designs compute their position information from a formula (a vector, a rotation or a penalty), so they have an answer at every position. None of them is part of `lib`; the cell below shows what each does past C = 8.

* **A sinusoidal table**, as in the original Transformer (Vaswani et al., 2017, *Attention Is All You Need*), is fixed, not learned: each pair of coordinates of position t holds $\sin(t\omega)$ and $\cos(t\omega)$, with its own frequency ω. It has a vector for t = 100 just as for t = 3, and moving t by k positions turns each pair by its own fixed angle, kω for the pair of frequency ω, whatever t is.
* **RoPE** (rotary position embedding) adds nothing to the input: inside every attention layer it rotates each pair of coordinates of the query and the key of position t by the angle $t\omega$. The dot product of a query rotated by $i\omega$ and a key rotated by $j\omega$ depends on the positions only through $i - j$, so the same query and key vectors, placed the same distance apart, get the same score far past C as near the start.
* **ALiBi** (attention with linear biases) uses no position vectors. It adds to the score of query i and key j a penalty proportional to their distance i − j, with a fixed slope for each head, at any length.
""")

code(r"""
#en illustrations only; the course model uses the learned table
def turn(pairs, angles):
    #en rotate each pair of coordinates by its angle
    c, s = np.cos(angles), np.sin(angles)
    return np.stack([c * pairs[..., 0] - s * pairs[..., 1],
                     s * pairs[..., 0] + c * pairs[..., 1]], axis=-1)


omega = 1.0 / 10000 ** (np.arange(2) / 2)   #en one frequency per pair
def sinusoidal(t):
    #en pairs (sin tω, cos tω), shape (pairs, 2)
    return np.stack([np.sin(t * omega), np.cos(t * omega)], axis=-1)


#en the same shift of 5 positions at t = 3 and at t = 100 > C
shift_ok = [np.allclose(sinusoidal(t + 5), turn(sinusoidal(t), -5 * omega))
            for t in (3, 100)]
print(r(sinusoidal(100), 3).tolist(), shift_ok)
assert all(shift_ok) and np.abs(sinusoidal(100)).max() <= 1


q_pair, k_pair = np.array([1.0, 0.5]), np.array([0.3, -0.8])
def rope_score(i, j, w=0.5):
    #en query turned by iω, key by jω
    return float(turn(q_pair, i * w) @ turn(k_pair, j * w))


#en (query, key): each key 3 positions before its query, as the mask allows
pairs = [(i + 3, i) for i in (0, 2, 100, 1000)]
same_offset = [rope_score(i, j) for i, j in pairs]
print(r(same_offset, 6).tolist(), round(rope_score(5, 0), 6))
assert all(j <= i for i, j in pairs + [(5, 0)])
assert np.ptp(same_offset) < 1e-9 and abs(rope_score(5, 0)
                                           - same_offset[0]) > 0.1


T12, slope = 12, 0.5             #en 12 positions: past C = 8
i_, j_ = np.arange(T12)[:, None], np.arange(T12)[None, :]
bias = -slope * (i_ - j_)        #en ALiBi: a penalty by distance
alibi = masked_softmax(np.zeros((T12, T12)) + bias,
                       causal_allowed(T12, T12))
print(r(alibi[-1, -4:], 3).tolist())
assert np.array_equal(bias[1:, 1:], bias[:-1, :-1])  #en only i − j counts
assert np.allclose(alibi.sum(axis=1), 1) and (np.diff(alibi[-1]) > 0).all()
""")

md(r"""
Past C, each of the three still has an answer. The sinusoidal table gives position 100 a vector (the first list printed: one (sin, cos) pair per frequency), and a shift of 5 positions turns every pair there by the same angles as it does at position 3. The cell tries four (query, key) pairs, each query 3 positions after its key: (3, 0), (5, 2), (103, 100) and (1003, 1000). Their RoPE scores agree to within $10^{-9}$, as the algebra above says they must for any such pair. ALiBi gives query 11 a row whose weights fall with distance. The learned table has no row there (§3.3).

Having an answer is not having learned one. A model trained on 8 positions has never seen the sinusoidal vector of position 100, nor, with RoPE or ALiBi, a query and a key more than 7 positions apart; whether its outputs there are any good is an empirical question this course does not test.
""")

md(r"""
## 3.6 Summary

* Without positions, the last row of this one-layer model cannot see the swap of the first two tokens (keys and values are permuted together); with positions the difference is about 0.047, in `lib` and in plain Python alike. The claim is about one layer and one row: rows 0 and 1, and a second layer, do see the order.
* The input vector is $E[x_{b,t}] + P[o + t]$: E is indexed by token id, P by the absolute position o + t, where the offset o counts the real positions before this input.
* The backward pass is a scatter-add into both tables, by token id into E and by position into P; use `np.add.at`, not fancy-index `+=`, and check against finite differences.
* Positions beyond C are rejected, because wrapping around or clamping would make two positions share a row of P. Rows that training never reached get no gradient; they are not "learned long context".
* A sinusoidal table, RoPE and ALiBi compute a position's vector, rotation or penalty instead of looking it up, so they have an answer at every position; RoPE's scores depend on the positions only through the distance i − j, and ALiBi's penalties depend only on i − j. Those answers come from a formula, not from training.

The exercises for this section are in `exercises/en/ex03_positions.ipynb`. Next, §4 explains why causality has to cover the whole computation.
""")
