# §0 Start here: what the course builds, one head recapped, map, prerequisites, notation, how to run, lib, glossary.
# Trilingual source: see tools/nbsource.py.

md(r"""
# 0 Start here

A language model writes text one token at a time: at each position it predicts the next token from the token at that position and the ones before it. The operation that lets one position gather information from the others is attention. On top of attention, this course builds three more parts of a decoder trained on next-token prediction, one by one:

1. the causal mask: a rule, applied **before** the softmax, that says which positions each query may read; without it, position t could simply read the token it is asked to predict;
2. several attention heads in place of one, merged back through the output projection $W_O$;
3. learned absolute positions, with the backward pass into the token and position tables.

We then check that causality holds across the whole computation, and that computing token by token with a KV cache gives the same numbers as one full forward pass. §1–§6 study these parts, first with hand-chosen parameters and then with random ones. §7 assembles them, together with layer normalisation, a position-wise MLP and an optimiser, into a small decoder trained in NumPy. There you will see what difference the mask makes: with it the model learns to predict; without it the model learns to copy the answer from its input.

The course has nine sections, §0–§8, and each section is one notebook (one `.ipynb` file). A tenth notebook, the appendix, holds reference material (§0.6).

## 0.1 What you should already know

* matrix indexing, slicing and broadcasting in NumPy;
* softmax and its numerically stable form (subtract each row's maximum first);
* the local backward pass: given the upstream gradient, compute the gradient of one operation with respect to its inputs and parameters;
* the basic ideas of the cross-entropy loss and of gradient descent (used in §7 and §8).

Attention itself is not a prerequisite: §0.2 introduces the part we need in a few lines and one small example.
""")

md(r"""
## 0.2 One attention head: a recap

Everything after this section builds on single-head attention, and one picture captures most of it. Every position of a text asks a question and has something to offer. Its **query** says what it is looking for, its **key** what it contains, and its **value** what it hands over to whoever finds it. Attention compares the query of a position with every key, turns the matches into weights that sum to 1, and returns the weighted mix of the values. It works like a lookup in a dictionary, but a soft one: it returns a blend of entries rather than a single entry.

Figure 0.1 shows this for the text `<bos> 春 风 雨` (`<bos>` is the token that begins every sequence, §1.2; 春, 风 and 雨 mean spring, wind and rain). 春 looks for weather, and the keys of 风 and 雨 say "weather", so the output of 春 is mostly what those two hand over.

![Attention as a soft lookup in the text BOS 春 风 雨. The query of 春 looks for weather. The keys say what each token contains: BOS start, 春 season, 风 and 雨 weather. The weights are 0.015, 0.015, 0.485 and 0.485, so the output of 春, the weighted sum of the values, is mostly wind and rain: two tokens that come after 春.](figures/lookup.svg)

In symbols: position t has an input vector $X_t$ of width D. Three learned matrices turn it into a **query** $q_t = X_t W_Q$, a **key** $k_t = X_t W_K$ and a **value** $v_t = X_t W_V$, each of width d. A single head may have any width (d = 3 with D = 4 in the example below); from §2 on, the H heads divide D between them, so d = D/H. Query i is compared with every key j through a **score**

$$s_{ij} = \frac{q_i \cdot k_j}{\sqrt d},$$

and a softmax over the keys turns row i of the scores into **attention weights** $\alpha_{ij}$, which are non-negative and sum to 1. The output at position i is the weighted sum of the values, $y_i = \sum_j \alpha_{ij} v_j$. In matrix form, $Y = \mathrm{softmax}(QK^\top/\sqrt d)\,V$.

The cell below computes the weights and outputs shown in Figure 0.1. Each input is the one-hot code of its token, so $q_t$, $k_t$ and $v_t$ are row t of $W_Q$, $W_K$ and $W_V$, and each can be read straight off the matrices in the cell. In the notation of §0.4, the token embedding table $E$ is the identity here, and positions arrive only in §3. The three columns of $W_Q$ and $W_K$ stand for season, weather and start; those of $W_V$ for spring, wind and rain. $W_Q$ is scaled by 6, so that a matching key scores $6/\sqrt 3 \approx 3.5$ and clearly wins the softmax. A trained model learns such rows; these are chosen by hand. No key is forbidden yet: the mask passed to `masked_softmax` is all True.
""")

code("""
import numpy as np

from lib.attention import attention_scores, masked_softmax

tokens = ["<bos>", "春", "风", "雨"]
X = np.eye(4)  #en the one-hot code of each token, (T, D)
#en columns of W_Q and W_K: season, weather, start
W_Q = 6 * np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 0]])
W_K = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 1, 0]])
#en columns of W_V: spring, wind, rain
W_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
q, k, v = X @ W_Q, X @ W_K, X @ W_V                       #en (T, d) each
scores = attention_scores(q, k)  #en q_i · k_j / √d, shape (T, T)
#en every key may be read
weights = masked_softmax(scores, np.ones((4, 4), dtype=bool))
y = weights @ v                                            # (T, d)
for token, row in zip(tokens, np.round(weights, 3)):
    print(token, row)
print(np.round(y, 3))
assert np.allclose(weights.sum(axis=1), 1)
#en 风 and 雨 find 春; 春 finds the weather after it
assert (np.round(weights[2:, 1], 3) == 0.914).all()
assert np.round(weights[1], 3).tolist() == [0.015, 0.015, 0.485, 0.485]
assert round(float(weights[1, 2:].sum()), 2) == 0.97
assert np.allclose(y[1], weights[1, 1:])
assert (X.shape[1], q.shape[1]) == (4, 3)                  # D, d
""")

md(r"""
Every query finds what it looks for. `<bos>` finds itself, and 风 and 雨 both find 春, each with weight 0.914. But 春 finds its weather at positions 2 and 3, which come after it, and gives them 0.97 of its weight. A model that has to predict, at position t, the token at t + 1 could read the answer this way. §1 forbids, before the softmax, every key that comes after its query; Figure 0.2 shows where that mask enters one head.

![The path through one head. The input X (T × D), multiplied by W_Q, W_K and W_V, gives Q, K and V (T × d). Q times K transposed, divided by √d, gives the T × T scores S. The masked softmax normalises each row over j ≤ i only, so the weights α are lower-triangular. α times V is the head's output Y (T × d).](figures/one_head.svg)
""")

md(r"""
## 0.3 Map of the course

| section | notebook | what it covers | exercises |
| --- | --- | --- | --- |
| §0 | `00_start` | this section: prerequisites, one head recapped, notation, how to run the notebooks | — |
| §1 | `01_allowed_set` | the allowed set comes before softmax; the data protocol and right padding; which outputs are scored | `ex01_allowed_set` |
| §2 | `02_heads` | why several heads; splitting and merging heads, the output projection $W_O$; what the number of heads changes and what it does not | `ex02_heads` |
| §3 | `03_positions` | why positions are needed; learned absolute positions $E[x] + P[o + t]$ and their backward pass (scatter-add) | `ex03_positions` |
| §4 | `04_causality` | causality must hold across the whole computation; the future-perturbation test and its negative control | `ex04_causality` |
| §5 | `05_cache` | the KV cache; a new token's position is the length of the cache, not 0; bottom-right alignment | `ex05_cache` |
| §6 | `06_evidence` | four kinds of evidence, and the key numbers recomputed in plain Python | `ex06_evidence` |
| §7 | `07_decoder` | the parts assembled into a small decoder trained in NumPy, with and without the mask | `ex07_decoder` |
| §8 | `08_real_text` | the same decoder trained on verse: what $\mathcal L^*$ and a low loss do and do not show | — |

The exercise notebooks are in `exercises/en/`. Every exercise is followed by a one-line `check(...)` that tells you at once what is right and what is wrong. Worked solutions are in `solutions/en/`. Read a section first, then do its exercises.
""")

md(r"""
## 0.4 Notation

Every symbol keeps one meaning throughout the course; a section number in parentheses says where the symbol is introduced, and a symbol without one is used throughout.

| symbol | meaning |
| --- | --- |
| $B$ | batch size |
| $T$ | number of positions in a sequence ($T_b$: the number of real positions of row b) |
| $D$ | model width |
| $H$ | number of heads |
| $d$ | width of one head: d = 3 for the single head of §0.2; from §2 on the H heads divide D between them, so $d = D/H$ and D must be divisible by H |
| $L$ | number of layers |
| $C$ | number of rows of the position table P: the largest number of positions it can represent |
| $\lvert\mathcal V\rvert$ | vocabulary size |
| $E$, $P$ | token embedding table ($\lvert\mathcal V\rvert \times D$), position table ($C \times D$) |
| $x$ | a token id: $x_t$ at position t, $x_{b,t}$ in sequence b |
| $X$ | input vectors, one row $X_t = E[x_t] + P[o + t]$ per position; $X^{(\ell)}$ is the input of layer $\ell$ |
| $o$ | offset: the number of positions before the input (§3, §5) |
| $W_Q$, $W_K$, $W_V$, $W_O$ | query, key, value and output projections |
| $Q$, $K$, $V$, $q$, $k$, $v$ | queries, keys and values; their rows $q_i$, $k_j$, $v_j$ |
| $S$, $s$ | scores: the matrix, and $s_{ij}$ of query i and key j |
| $\alpha$ | attention weight $\alpha_{ij}$ of query i on key j |
| $Y$, $y$ | output of a head or a layer; its rows $y_i$ |
| $i$, $j$, $t$ | index of a query in one pass (at position i without a cache and at $t_k - t_q + i$ in a cached step; Figure 1.1), position of a key, any position |
| $b$, $h$, $a$ | a sequence of the batch, a head, a coordinate within a head |
| $c$ | a feature: an index along the width D; feature $h \cdot d + a$ is coordinate a of head h (§2.2) |
| $\ell$ | a layer |
| $n$ | positions stored in a cache (§5, §7) |
| $m$ | the number of a block of 64 queries, counted from 0 (§5.9) |
| $t_q$, $t_k$ | numbers of queries and of keys in one cached step (§5.1) |
| $p$ | a prefix length: of the input in the future-perturbation test (§4, §7), or of a line of verse (§8.1) |
| $I$ | identity matrix |
| $\mathcal L$ | loss; $\mathcal L^*$ the lowest loss a causal model can reach (§7.2) |
| $\tau$ | a training step (§7.3, §8) |
| $\kappa$ | Adam's small constant, added to the square root in its step (§7.2) |
| $G$, $g$ | upstream gradient: an array, one entry |
| $f$ | a scalar function whose gradient is checked (§7.1) |
| $\theta$, $\varepsilon$ | a parameter entry, the step of a central difference (§3.2, §7.1) |
| $r$, $R$ | a row of a table, a fixed random array (§3.2) |
| $\omega$ | the rotation frequency of one pair of coordinates, in the sinusoidal table and in RoPE (§3.5) |
| $z$ | a row vector a layer receives (§2.5, §7.1) |
| $\mu$, $\sigma$, $\gamma$, $\beta$, $\delta$ | layer normalisation: mean, standard deviation, gain, bias, small constant (§7.7) |
| $\rho$ | $1/\sqrt{\sigma^2 + \delta}$ (exercise set 7) |
| $W_1$, $b_1$, $W_2$, $b_2$ | weights and biases of the MLP (§7.1) |
| $F$ | hidden width of the MLP: $W_1$ is $D \times F$, $W_2$ is $F \times D$ (§7.7) |
| $W_\text{head}$ | output layer, $D \times \lvert\mathcal V\rvert$ (§7.1) |

Positions and layers are counted from 0, and "row t of P" means the row with index t. Linear maps act on row vectors: `x @ W` in code, with `W` of shape (input width, output width). The input at position t is token t, which has already been seen; the output at position t is used to predict the next token.

Causality in this course is a property of **one forward pass with the parameters held fixed**. §4 checks it with the future-perturbation test, which compares two forward passes whose inputs agree on a prefix and differ after it. A training step changes the parameters, so the next forward pass computes a different function and its outputs differ; that is a different matter from future information flowing through the computation graph.

The code below checks the environment and ties the notation to array shapes. It prints the shape (B, T, D) of X, the shape (B, H, T, d) that `split_heads` gives, and the positions 0 to T − 1:
""")

code("""
import sys

import lib
from grading.exercises import check
from lib.attention import causal_allowed, split_heads

assert sys.version_info >= (3, 11)
assert (callable(masked_softmax) and callable(causal_allowed)
        and callable(check))

B, T, D, H = 2, 3, 4, 2
assert D % H == 0
d = D // H
X = np.zeros((B, T, D))
print(X.shape, split_heads(X, H).shape, np.arange(T))
assert split_heads(X, H).shape == (B, H, T, d)
""")

md(r"""
## 0.5 How to read and run the notebooks

**On the website.** The website shows each notebook with the outputs saved when it was executed; reading it runs none of the course's Python. The course has two interactive figures: the experiment of §1.9 (change only the last row of the input and see which outputs change) and the cost table of §2.6 (change the number of heads, the width or the length). Both respond on the website too, with no kernel behind them: the numbers shown for every state were computed by `lib` when the notebook was executed. In Jupyter the same cells produce live widgets: whenever you move a control, the kernel swaps in the table of the new state.

**A notebook downloaded from the website.** The download menu in the header of every notebook page offers the two files you need: the notebook (`.ipynb`) and the course's package (`.whl`). The package holds the code the notebooks import: `lib`, the shared library this course teaches; `figures`, which draws the plots and the two interactive figures; and `grading`, which provides the `check(...)` after every exercise. Save both files in one folder; then, in that folder, run these commands (Python 3.11 or newer):

```bash
python3 -m venv .venv
source .venv/bin/activate          # Windows: .venv\Scripts\activate
pip install "./{{course_wheel}}[learner]" jupyterlab
jupyter lab
```

Installing the package also installs NumPy; `[learner]` adds the rest of what the notebooks use: Matplotlib, ipywidgets and threadpoolctl. Then open the notebook in JupyterLab to run and change it.

**In a copy of the repository.** With the course's repository on your computer (a clone, for example), run the same commands at its root, with `pip install -r requirements.txt` in place of the `pip install` line. `requirements.txt` lists the packages the notebooks need (NumPy, Matplotlib, ipywidgets, JupyterLab and a few more). Its last line, `-e .`, makes `pip install -r` also install the course's own packages in editable mode, so `import lib` works no matter which folder a notebook sits in. A change to `lib` then takes effect once the kernel is restarted. Then open `chapters/en/00_start.ipynb` in JupyterLab.

## 0.6 The shared library `lib`

Most of the code the course teaches lives in one small NumPy package, `lib`. There each function is written once, and the notebooks import it. Code that a notebook defines in its own cells serves only that notebook and stays out of `lib`: for example the position encodings that §3.5 compares, §4.8's `dropout_forward`, and §7's `prefix_loss_and_grads`, `hidden_future_logits` and `generate_without_cache`. Almost every function of `lib` that the course teaches begins its docstring with the number of the section that teaches it. One of these functions, `unmasked_attention`, computes in a single call the attention of §0.2, which reads every key. §1.9 uses it as a negative control; §4 runs the same computation inside the model with `model.forward(ids, causal=False)`. The [appendix](appendix.ipynb) lists every function and class of `lib` with the section that teaches it, names the few whose docstrings name no section, and leaves out `lib.validate`, which only checks arguments. It also gives a glossary of the course's terms in all three languages.
""")

md(r"""
The functions of `lib` follow a few conventions, and the exercises ask for the same:

* a result keeps the precision of its float inputs: float32 in, float32 out;
* an array passed in is never changed; a function that needs to change one works on a copy;
* bad input is refused at the start, with a `TypeError` for the wrong kind of argument and a `ValueError` for a wrong value or shape (§1.7 shows why an error is better than a quiet wrong result);
* axes are counted from the end (`axis=-1`, `x.shape[-1]`), so the same code serves one sequence and a batch;
* a function returns exactly what its description specifies (the docstring in `lib`, the task in an exercise): the kind of value (array, scalar or tuple), its dtype and shape, and, when there are several results, their order.
""")
