# Questions for §2 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").
import inspect
import itertools

import numpy as np

from lib.attention import (causal_attention, causal_future, masked_softmax, merge_heads,
                           multi_head_attention, split_heads)
from lib.checks import attention_weights
from lib.costs import head_costs

RNG = np.random.default_rng(2)
T5, D, H = 5, 8, 2
d = D // H
XS = RNG.normal(size=(1, T5, D))                                  # the random example of §2.1
W_Q, W_K, W_V, W_O = RNG.normal(size=(4, D, D)) / np.sqrt(D)


# §2.1
def head_projection_is(where):
    q_heads = split_heads(XS @ W_Q, H)                            # (1, H, T, d) as lib computes it
    h, cols = 1, slice(d, 2 * d)
    candidate = {"columns": lambda: XS @ W_Q[:, cols], "rows": lambda: XS[..., cols] @ W_Q[cols, :],
                 "a matrix of its own": lambda: XS @ W_Q}[where]()
    return candidate.shape == q_heads[:, h].shape and np.allclose(candidate, q_heads[:, h])


def loop_and_split(claim):
    gaps = {}
    for heads in (1, 2, 4):
        width = D // heads
        outs = [causal_attention(XS @ W_Q[:, h * width:(h + 1) * width], XS @ W_K[:, h * width:(h + 1) * width],
                                 XS @ W_V[:, h * width:(h + 1) * width]) for h in range(heads)]
        loop = np.concatenate(outs, axis=-1) @ W_O
        gaps[heads] = np.abs(loop - multi_head_attention(XS, W_Q, W_K, W_V, W_O, heads)).max()
    facts = {"agree up to rounding": all(g < 1e-14 for g in gaps.values()),
             "agree only for H = 1": gaps[1] < 1e-14 and gaps[2] >= 1e-14,
             "clearly different": all(g > 1e-6 for g in gaps.values())}
    return bool(facts[claim])


HEAD_OUTPUTS = [causal_attention(*(XS @ w[:, h * d:(h + 1) * d] for w in (W_Q, W_K, W_V))) for h in range(H)]


def concat_times_w_o_is(claim):
    concat = np.concatenate(HEAD_OUTPUTS, axis=-1) @ W_O
    candidate = {"blocks of rows, summed": lambda: sum(HEAD_OUTPUTS[h] @ W_O[h * d:(h + 1) * d] for h in range(H)),
                 "whole W_O, averaged": lambda: sum(o @ W_O for o in HEAD_OUTPUTS) / H,
                 "added, then W_O": lambda: sum(HEAD_OUTPUTS) @ W_O}[claim]
    result = unless_refused(candidate)
    return result is not None and np.allclose(result, concat, rtol=0, atol=1e-14)


section("independent heads",
    choose(T("Where does head h's D × d projection sit inside the full W_Q?"),
           right=T("Columns h·d to h·d + d − 1", claim="columns"),
           why=T("Placing the H heads' matrices side by side gives the D × D matrix W_Q."),
           wrong=[(T("Rows h·d to h·d + d − 1", claim="rows"),
                   T("Rows stand for input features, and every head reads all D of them.")),
                  (T("A separate D × D matrix of its own", claim="a matrix of its own"),
                   T("Each head's projection is only d columns wide."))],
           witness=head_projection_is),
    choose(T("How far apart are the outputs of the head-by-head loop and of `multi_head_attention`?"),
           right=T("They agree up to rounding error (below 10⁻¹⁴)", claim="agree up to rounding"),
           why=T("The split form gathers the same computation into a few full-width products and one attention call."),
           wrong=[(T("Clearly different: the split form is an approximation", claim="clearly different"),
                   T("They are the same computation, not an approximation.")),
                  (T("They agree only with a single head", claim="agree only for H = 1"),
                   T("They agree for every H: each head uses its own block of columns either way."))],
           witness=loop_and_split),
    choose(T("Concatenating the heads and multiplying by W_O is the same as which computation?"),
           right=T("Each head times its own block of d rows of W_O, summed over the H heads", claim="blocks of rows, summed"),
           why=T("That is why W_O is where the heads meet (§2.4)."),
           wrong=[(T("Each head times the whole W_O, then averaged", claim="whole W_O, averaged"),
                   T("A head's output is only d wide; it cannot multiply a D × D matrix.")),
                  (T("Adding the H head outputs, then multiplying by W_O", claim="added, then W_O"),
                   T("Adding loses which coordinate came from which head, and the sum is only d wide."))],
           witness=concat_times_w_o_is),
)


# §2.2: x[b, t, c] holds its own flat index, as in the section
B, T3 = 2, 3
X = np.arange(B * T3 * D).reshape(B, T3, D)
WRONG = X.reshape(B, H, T3, d)                                     # no axis swap


def _misplaced(split):
    return [(b, h, t, a) for b, h, t, a in itertools.product(range(B), range(H), range(T3), range(d))
            if split[b, h, t, a] != X[b, t, h * d + a]]


def feature_of_head_1_coordinate_3(feature):
    return split_heads(np.arange(8).reshape(1, 1, 8), 2)[0, 1, 0, 3] == feature


def misplaced_by_reshape(n):
    time_of_row = np.unravel_index(WRONG[0], X.shape)[1][:, :, 0]     # (H, T): the time behind each row
    right_rows = {(h, t) for h in range(H) for t in range(T3) if time_of_row[h, t] == t}
    assert right_rows == {(0, 0), (1, 2)}                              # the rows that land right
    assert not _misplaced(split_heads(X, H))
    return len(_misplaced(WRONG)) == n


def finds_missing_swap(check):
    catches = {"entry by entry": lambda: bool(_misplaced(WRONG)),
               "shape": lambda: WRONG.shape != split_heads(X, H).shape,
               "round trip": lambda: not np.array_equal(WRONG.reshape(B, T3, D), X)}[check]
    return catches()


X_IN = np.random.default_rng(0).normal(size=(B, T3, D))
SPLIT_STEPS = [lambda s: s.update(x=s["x"] @ W_Q, projected=True),
               lambda s: s.update(x=s["x"].reshape(B, T3, H, d)),
               lambda s: s.update(x=s["x"].swapaxes(-3, -2)),
               lambda s: s.update(x=causal_attention(s["x"], s["x"], s["x"]))]


def split_in_order(order):
    state = unless_refused(lambda: in_order(SPLIT_STEPS, order, {"x": X_IN}))
    q = split_heads(X_IN @ W_Q, H)
    return state is not None and state["x"].shape == q.shape and np.allclose(state["x"], causal_attention(q, q, q))


section("splitting",
    number(T("With D = 8 and H = 2, coordinate 3 of head 1 is which feature?"),
           answer=7,
           why=T("Feature h·d + a = 1·4 + 3."),
           wrong=[(4, T("4 = h·d is coordinate 0 of head 1; a must be added.")),
                  (3, T("That forgets the d features of head 0 before it."))],
           witness=feature_of_head_1_coordinate_3),
    number(T("B = 2, T = 3, D = 8, H = 2: how many of the 48 entries does the reshape-only split put in the wrong place?"),
           answer=32,
           why=T("In each sequence two of the six rows happen to land right, head 0 at t = 0 and head 1 at t = 2; the other four come from the wrong time step."),
           wrong=[(0, T("The shape is right but the contents are not, because `reshape` only re-reads memory in order.")),
                  (48, T("Some entries do land in the right place: 2 rows of 4 in each sequence."))],
           witness=misplaced_by_reshape),
    choose(T("Which check finds a split that forgot to swap the axes?"),
           right=T("Comparing entry by entry with the rule h·d + a", claim="entry by entry"),
           why=T("Both a shape test and a round-trip test pass."),
           wrong=[(T("Checking that the shape is (B, H, T, d)", claim="shape"),
                   T("`x.reshape(B, H, T, d)` has exactly that shape.")),
                  (T("Reshaping back and comparing with x", claim="round trip"),
                   T("The round trip gives x exactly and finds nothing."))],
           witness=finds_missing_swap),
    order(T("Put the steps in order, from the projection to attention in every head."),
          steps=[T("Project to (B, T, D)"),
                 T("`reshape` to (B, T, H, d)"),
                 T("Swap the T and H axes: (B, H, T, d)"),
                 T("Causal attention in every head")],
          why=T("Cut the features into blocks first, then move the head axis in front of time."),
          witness=split_in_order),
)


# §2.3: the random example of §2.1, split into heads
def scores_divided_by(claim):
    heads = 4                                                     # d = 2: √d, √D and H all differ
    q, k = (split_heads(XS @ w, heads) for w in (W_Q, W_K))
    scale = {"sqrt(d)": np.sqrt(D // heads), "sqrt(D)": np.sqrt(D), "H": heads}[claim]
    mine = masked_softmax(q @ k.swapaxes(-1, -2) / scale, ~causal_future(T5, T5))
    return np.allclose(mine, attention_weights(XS, W_Q, W_K, heads), rtol=0, atol=1e-12)


def each_head_normalises(claim):
    weights = attention_weights(XS, W_Q, W_K, H)[0]               # (H, T, T)
    future = causal_future(T5, T5)
    facts = {"on its own, over the same allowed set": np.allclose(weights.sum(axis=-1), 1)
             and all((w[future] == 0).all() and (w[~future] > 0).all() for w in weights),
             "over all heads together": np.allclose(weights.sum(axis=(0, -1)), 1),
             "with a mask of its own": not np.array_equal(weights[0] > 0, weights[1] > 0)}
    return bool(facts[claim])


def spread_of_unscaled_scores(claim):
    q, k = np.random.default_rng(1).normal(size=(2, 50_000, 4))
    dots = (q * k).sum(axis=-1)
    assert abs((dots / 2).std() - 1) < 0.015                       # about 1 after dividing by √d
    return abs(dots.std() - claim) < 0.05


section("divides by",
    choose(T("What are head h's scores divided by?"),
           right=T("√d, the width of this head", claim="sqrt(d)"),
           why=T("A sum of d products has standard deviation √d; dividing by √d brings it back to 1."),
           wrong=[(T("√D", claim="sqrt(D)"),
                   T("That divides by a further √H: the scores' spread drops to 1/√H (about 0.7 at H = 2, as in §2.3) and the softmax flattens.")),
                  (T("H", claim="H"),
                   T("The scale depends on the length of the dot product, not on the number of heads."))],
           witness=scores_divided_by),
    choose(T("What does each head's softmax normalise over?"),
           right=T("The same allowed set (keys 0…i), each head on its own", claim="on its own, over the same allowed set"),
           why=T("Time order and the causal mask are the same for all heads."),
           wrong=[(T("All heads together", claim="over all heads together"),
                   T("Each head's weights sum to 1 for every query on their own.")),
                  (T("A mask of its own for each head", claim="with a mask of its own"),
                   T("Heads divide features, not time."))],
           witness=each_head_normalises),
    choose(T("With d = 4, what is the standard deviation of unscaled scores, roughly?"),
           right=T("About 2 (= √d)", claim=2),
           why=T("With independent coordinates of mean 0 and variance 1, a sum of d products has variance d."),
           wrong=[(T("About 1", claim=1), T("About 1 is what remains after dividing by √d.")),
                  (T("About 4", claim=4), T("4 is the variance, not the standard deviation."))],
           witness=spread_of_unscaled_scores),
)


# §2.4: change only head 1's values
Q, K, V = (split_heads(XS @ w, H) for w in (W_Q, W_K, W_V))
V_CHANGED = V.copy()
V_CHANGED[:, 1] += 1.0
MERGED = merge_heads(causal_attention(Q, K, V))
MERGED_CHANGED = merge_heads(causal_attention(Q, K, V_CHANGED))


def head_0_block_with_identity(claim):
    change = np.abs(MERGED_CHANGED - MERGED)[0]                   # W_O = I
    assert np.abs(MERGED_CHANGED @ W_O - MERGED @ W_O)[0, :, :d].max() > 0.1     # a generic W_O: they change
    facts = {"unchanged": change[:, :d].max() == 0.0, "changed": change[:, :d].max() > 0,
             "zero": (MERGED_CHANGED[0, :, :d] == 0).all()}
    return bool(facts[claim])


def merge_is(claim):
    per_head = causal_attention(Q, K, V)                          # (1, H, T, d)
    candidate = {"axes back, then concatenate": lambda: per_head.swapaxes(1, 2).reshape(1, T5, D),
                 "plain reshape": lambda: per_head.reshape(1, T5, D),
                 "sum of the heads": lambda: per_head.sum(axis=1)}[claim]()
    return candidate.shape == MERGED.shape and np.array_equal(candidate, MERGED)


def w_o_is(claim):
    bias, shape = claim
    params = inspect.signature(multi_head_attention).parameters
    has_bias = any("b" == p or p.startswith("b_") for p in params)
    fits = unless_refused(lambda: multi_head_attention(XS, W_Q, W_K, W_V, np.zeros(shape), H)) is not None
    return (bias == "bias") == has_bias and fits


section("merging",
    choose(T("Take W_O = I (in effect, no W_O) and change only head 1's values v. What happens to the first d output features?"),
           right=T("Nothing: they belong to head 0 alone", claim="unchanged"),
           why=T("Without W_O the concatenation only sets the heads side by side; no output feature combines two heads."),
           wrong=[(T("They all change", claim="changed"),
                   T("That happens with a generic W_O.")),
                  (T("They become 0", claim="zero"),
                   T("Head 0's output is there as usual."))],
           witness=head_0_block_with_identity),
    choose(T("How does `merge_heads` turn (B, H, T, d) back into (B, T, D)?"),
           right=T("It moves the head axis back behind time, then concatenates the heads in order", claim="axes back, then concatenate"),
           why=T("Feature h·d + a is again coordinate a of head h."),
           wrong=[(T("A plain `reshape(B, T, D)`", claim="plain reshape"),
                   T("Without moving the axis, time steps get mixed up, as in the reshape-only split of §2.2.")),
                  (T("It adds the heads up", claim="sum of the heads"),
                   T("Adding would lose information and change the width."))],
           witness=merge_is),
    choose(T("Does W_O have a bias, and what is its shape?"),
           right=T("No bias, D × D", claim=("no bias", (D, D))),
           why=T("`merged @ W_O` is the whole output projection."),
           wrong=[(T("A bias, D × D", claim=("bias", (D, D))),
                   T("The W_O of this course has no bias.")),
                  (T("No bias, d × D", claim=("no bias", (d, D))),
                   T("W_O acts on all D concatenated features."))],
           witness=w_o_is),
)


# §2.5: Example 1, with lib
X1 = np.array([[[1.0, 0.0, 0.0, 1.0], [0.0, 1.0, 1.0, 0.0]]])     # <bos> 春
I4 = np.eye(4)
W_O1 = np.array([[1.0, 0, 1, 0], [0, 1, 0, 1], [1, 0, -1, 0], [0, 1, 0, -1]])
A = 1 / (1 + np.exp(1 / np.sqrt(2)))
WEIGHTS1 = attention_weights(X1, I4, I4, 2)[0]                     # (H, T, T)
OUT1 = multi_head_attention(X1, I4, I4, I4, W_O1, 2)[0]


def first_weight_of_query_1(value):
    assert np.allclose(WEIGHTS1[:, 1], [A, 1 - A], rtol=0, atol=1e-12)
    return abs(WEIGHTS1[0, 1, 0] - value) <= 0.0006


def entries_stay_in_0_1(claim):
    heads = causal_attention(*[split_heads(X1, 2)] * 3)[0, :, 1]   # (H, d): row 1 of each head, before W_O
    assert ((heads >= 0) & (heads <= 1)).all() and np.allclose(heads.sum(axis=-1), 1)   # probability vectors
    assert np.isclose(heads.sum(), 2) and np.isclose(OUT1[1].sum(), 2)    # the sum 2 comes before W_O
    assert np.isclose(OUT1[1].min(), 2 * A - 1)
    return claim == bool(((OUT1[1] >= 0) & (OUT1[1] <= 1)).all())


def heads_redundant(claim):
    per_head = causal_attention(*[split_heads(X1, 2)] * 3)[0, :, 1]  # (H, d): row 1 of each head
    assert np.array_equal(WEIGHTS1[0], WEIGHTS1[1])                 # the same weights in both heads
    assert np.allclose(per_head, [[A, 1 - A], [1 - A, A]])
    return claim == bool(np.array_equal(per_head[0], per_head[1]))


section("Example 1",
    number(T("In Example 1, query 1 gives key 0 the weight α = 1/(1 + exp(1/√2)) in both heads. What is α, to three decimal places?"),
           answer=A, tolerance=0.0006, shown=f"{A:.3f}",
           why=T("Query 1's scores are [0, 1/√2] in both heads."),
           wrong=[(0.67, T("That is the weight of key 1, 1 − α.")),
                  (0.5, T("The scores differ, so the weights are not equal."))],
           witness=first_weight_of_query_1),
    choose(T("Before W_O, each head's part of output 1 in Example 1 is a probability vector. After W_O, are all four entries of output 1 still in [0, 1]?"),
           right=T("No: it has the negative entry 2α − 1", claim=False),
           why=T("Each head's output stays in the convex hull of its values, whose coordinates are 0 or 1; after W_O it no longer does. The sum of 2 says nothing here: the concatenation already sums to 2, one for each head."),
           wrong=[(T("Yes, attention outputs are always probabilities", claim=True),
                   T("The output is a vector in feature space.")),
                  (T("Yes, as long as each head's weights sum to 1", claim=True),
                   T("Weights that sum to 1 constrain the heads' outputs, not what W_O makes of them."))],
           witness=entries_stay_in_0_1),
    choose(T("In Example 1 both heads compute the same weights. Are they redundant?"),
           right=T("No: they read different value coordinates and return [α, 1 − α] and [1 − α, α]", claim=False),
           why=T("The equal weights are a coincidence of this example's inputs, not a rule of multi-head attention."),
           wrong=[(T("Yes, dropping one changes nothing", claim=True),
                   T("Dropping a head loses half of the value coordinates.")),
                  (T("Yes, because W_Q, W_K and W_V are identities", claim=True),
                   T("The identities only keep the arithmetic small; each head still reads its own coordinates."))],
           witness=heads_redundant),
)


# §2.6
COSTS = head_costs(np.array([1, 2, 4, 8, 16]), width=512, length=1024)


def parameters_at_512(n):
    assert (COSTS["parameters"] == COSTS["parameters"][0]).all()   # any H
    w, d8 = np.broadcast_to(0.0, (4, 512, 512)), int(COSTS["head_width"][3])       # W_Q, W_K, W_V, W_O; H = 8
    shares = [w[:3, :, h * d8:(h + 1) * d8].size + w[3, h * d8:(h + 1) * d8].size for h in range(8)]
    assert shares[0] == 4 * 512 * 64 == 131_072 and sum(shares) == COSTS["parameters"][3]   # the why of 131,072
    return int(COSTS["parameters"][0]) == n == 4 * 512 ** 2


def table_mib_at_h8(mib):
    assert COSTS["attention_bytes"][0] == 4 * 1024 ** 2            # H = 1, float32
    return COSTS["attention_bytes"][3] / 2 ** 20 == mib


def stays_the_same(counts):
    return all((COSTS[c] == COSTS[c][0]).all() for c in counts)


section("number of heads costs",
    number(T("With D = 512, how many parameters do W_Q, W_K, W_V and W_O have together (any H)?"),
           answer=4 * 512 ** 2,
           why=T("4·D²: the heads only decide how the columns are grouped."),
           wrong=[(4 * 512 ** 2 // 8, T("131,072 = 4·D·d, with d = 64, is one head's share when H = 8: its d columns of W_Q, W_K and W_V and its d rows of W_O. The blocks of the 8 heads together make up all of 4D², and so do those of any other H.")),
                  (3 * 512 ** 2, T("That leaves out W_O."))],
           witness=parameters_at_512),
    number(T("D = 512, T = 1024, B = 1, float32, H = 8: how many MiB do the attention tables take?"),
           answer=32,
           why=T("B·H·T² numbers of 4 bytes each."),
           wrong=[(4, T("That is the value for H = 1: every head has its own T × T table.")),
                  (64, T("That counts 8-byte numbers; these are float32."))],
           witness=table_mib_at_h8),
    choose(T("At fixed D, going from H = 1 to 16, what stays the same?"),
           right=T("The parameters and the FLOPs of the matrix products", claim=("parameters", "matmul_flops")),
           why=T("The attention tables and the softmax work grow {ratio}-fold.",
                 ratio=int(COSTS["softmax_ops"][-1] // COSTS["softmax_ops"][0])),
           wrong=[(T("The memory of the attention tables", claim=("attention_bytes",)),
                   T("Every head has its own T × T table, so the memory grows linearly with H.")),
                  (T("The softmax work", claim=("softmax_ops",)),
                   T("There are B·H·T² entries to normalise."))],
           witness=stays_the_same),
)


# §2.7: the hand-chosen example of the section (<bos> 雨 春 风, D = 8)
def _example_2_7():
    t4, c = 4, 20.0
    code = {"<bos>": 0, "春": 1, "雨": 2, "风": 3}
    x = np.zeros((1, t4, 8))
    for t, token in enumerate(["<bos>", "雨", "春", "风"]):
        x[0, t, t], x[0, t, 4 + code[token]] = 1, 1
    previous = np.maximum(np.arange(t4) - 1, 0)
    w_q2, w_k2 = np.zeros((2, 8, 8))
    w_q2[np.arange(t4), previous], w_q2[np.arange(t4), 4] = c, c
    w_k2[np.arange(t4), np.arange(t4)], w_k2[np.arange(t4), 4 + np.arange(t4)] = 1, 1
    w_q1, w_k1 = np.zeros((2, 8, 8))
    np.add.at(w_q1, (np.arange(t4), previous), c)
    w_q1[np.arange(t4), 0] += c
    w_k1[np.arange(t4), np.arange(t4)] = 1
    return attention_weights(x, w_q2, w_k2, 2)[0], attention_weights(x, w_q1, w_k1, 1)[0, 0]


TWO_HEADS, ONE_HEAD = _example_2_7()                              # (H, T, T), (T, T)


def one_head_can(claim):
    rows = ONE_HEAD[2:]                                           # positions 2 and 3: key 0 and key t − 1
    facts = {"split": np.allclose(rows[:, 0], 0.5, atol=1e-3) and np.allclose(rows[[0, 1], [1, 2]], 0.5, atol=1e-3),
             "near 1 on both": (rows[:, 0] > 0.9).all() and (rows[[0, 1], [1, 2]] > 0.9).all()}
    return bool(facts[claim])


def two_heads_can_because(claim):
    facts = {"a softmax each": np.allclose(TWO_HEADS.sum(axis=-1), 1) and (TWO_HEADS[0, 1:, :3].diagonal() > 0.999).all()
             and (TWO_HEADS[1, :, 0] > 0.999).all(),
             "twice the width": split_heads(np.zeros((1, 4, 8)), 2).shape[-1] == 2 * 8,
             "reads the future": (TWO_HEADS[1][causal_future(4, 4)] > 0).any()}
    return bool(facts[claim])


def head_0_on_previous(claim):
    on_previous = TWO_HEADS[0, np.arange(1, 4), np.arange(0, 3)]
    # the feedback of "exactly 1": every other readable key of rows 1 to 3 keeps about e^-10
    readable_others = np.tril(np.ones((4, 4), bool)) & ~np.eye(4, k=-1, dtype=bool)
    others = TWO_HEADS[0][readable_others][1:]                    # [0, 0] is row 0 reading itself
    for n_others in (1, 2, 3):                                    # rows 1 to 3: a gap of about 37 rounds to 1
        top = [masked_softmax(np.array([gap] + [0.0] * n_others), np.ones(n_others + 1, bool)) for gap in (36.5, 37.0)]
        assert top[0][0] < 1 and top[1][0] == 1 and 1e-17 < top[1][1] < 1e-15
    assert masked_softmax(np.array([745.0, 0.0]), np.ones(2, bool))[1] > 0           # underflow: beyond about 745
    assert masked_softmax(np.array([746.0, 0.0]), np.ones(2, bool))[1] == 0
    facts = {"more than 0.999": (on_previous > 0.999).all() and (on_previous < 1).all()
             and len(others) == 6 and np.allclose(others, np.exp(-10), rtol=1e-3),
             "about 1/2": np.allclose(on_previous, 0.5, atol=0.05), "exactly 1": (on_previous == 1).all()}
    return bool(facts[claim])


section("two heads can do",
    choose(T("One head is asked to put sharp weight on both the previous token and `<bos>`. What can its softmax do?"),
           right=T("Split its weight, about 1/2 each, and return the average of the two", claim="split"),
           why=T("A row's weights sum to 1: two positions cannot both get a weight near 1."),
           wrong=[(T("Put a weight near 1 on both positions", claim="near 1 on both"),
                   T("The weights of a softmax sum to 1.")),
                  (T("Pick one of them at random"),
                   T("A softmax is a fixed function; it can favour one, but then the other is lost."))],
           witness=one_head_can),
    choose(T("Why can two heads do what one cannot?"),
           right=T("Each head has its own softmax, so each can put almost all its weight on its own position", claim="a softmax each"),
           why=T("The heads' outputs are concatenated, so both readings reach the next layer, each in its own coordinates. Only W_O could mix them, and in the example W_O = I."),
           wrong=[(T("Two heads have twice the width", claim="twice the width"),
                   T("At fixed D each head is narrower: d = D/H.")),
                  (T("The second head may read the future", claim="reads the future"),
                   T("Every head uses the same causal mask."))],
           witness=two_heads_can_because),
    choose(T("In this example, how much weight does head 0 put on the previous token at positions 1 to 3?"),
           right=T("More than 0.999", claim="more than 0.999"),
           why=T("The hand-chosen projections make that score far higher than the others, so the softmax gives it almost everything."),
           wrong=[(T("About 1/2", claim="about 1/2"),
                   T("1/2 is what one head gets when it must serve both positions.")),
                  (T("Exactly 1", claim="exactly 1"),
                   T("Each other readable key still gets about e⁻¹⁰ (its score is 10 lower): small, but not 0, so the weight stays below 1."))],
           witness=head_0_on_previous),
)


# §2.8: the example of the section (<bos> 春 风 春 雨: token codes | positions at 60° · t), and ranks
_CODES = {"<bos>": [0, -1], "春": [1, 0], "风": [0, 1], "雨": [-1, 0]}
_ANGLE = np.pi / 3 * np.arange(5)
X_SIM = np.array([_CODES[t] + [np.cos(a), np.sin(a)] for t, a in zip(["<bos>", "春", "风", "春", "雨"], _ANGLE)])
_TURN = np.array([[np.cos(np.pi / 3), -np.sin(np.pi / 3)], [np.sin(np.pi / 3), np.cos(np.pi / 3)]])
W_SIM = np.eye(4)
W_SIM[2:, 2:] = _TURN
DOTS = split_heads((X_SIM @ W_SIM)[None], 2)[0] @ split_heads(X_SIM[None], 2)[0].swapaxes(-1, -2)   # (H, T, T)


def head_1_finds(claim):
    best = set(np.flatnonzero(np.isclose(DOTS[1, 3, :4], DOTS[1, 3, :4].max())).tolist())
    assert set(np.flatnonzero(DOTS[0, 3, :4] == 1).tolist()) == {1, 3}                # the why of the distractor
    return best == claim


def one_wide_head_scores(claim):
    full = (X_SIM @ W_SIM) @ X_SIM.T
    facts = {"the sum": np.allclose(full, DOTS.sum(axis=0)), "the mean": np.allclose(full, DOTS.mean(axis=0)),
             "the largest": np.allclose(full, DOTS.max(axis=0))}
    return bool(facts[claim])


def rank_of_a_head(value):
    """The smallest bound on a head's rank that holds for every T, and that some T reaches."""
    rng = np.random.default_rng(1)
    x, w_q, w_k = rng.normal(size=(1, 16, 16)), rng.normal(size=(16, 16)), rng.normal(size=(16, 16))
    ranks = {}
    for t in (1, 2, 3, 4, 16):
        q, k = split_heads(x[:, :t] @ w_q, 4)[0], split_heads(x[:, :t] @ w_k, 4)[0]  # H = 4, d = 4
        ranks[t] = {int(np.linalg.matrix_rank(s)) for s in q @ k.swapaxes(-1, -2)}
        assert ranks[t] == {min(t, 4)}                         # the why: at most min(T, d), reached
    return all(max(r) <= value for r in ranks.values()) and any(value in r for r in ranks.values())


def favourites_at_width_1(value):
    rng = np.random.default_rng(2)
    x, w_q, w_k = rng.normal(size=(1, 16, 16)), rng.normal(size=(16, 16)), rng.normal(size=(16, 16))
    q, k = split_heads(x @ w_q, 16)[0], split_heads(x @ w_k, 16)[0]                # d = 1
    return max(len(set(s.argmax(axis=1).tolist())) for s in q @ k.swapaxes(-1, -2)) == value


section("own notion of similarity",
    choose(T("In the example of §2.8, which keys does head 1 find for query 3, the second 春?"),
           right=T("Key 2, the position just before", claim={2}),
           why=T("Head 1 turns its query back by 60°, so it matches the position t − 1."),
           wrong=[(T("Keys 1 and 3, the two 春", claim={1, 3}),
                   T("That is head 0, which compares the token codes.")),
                  (T("Key 3, itself", claim={3}),
                   T("Its query is turned away from its own position."))],
           witness=head_1_finds),
    choose(T("One head of width D compares all coordinates at once. How is its dot product related to those of the H heads?"),
           right=T("It is their sum", claim="the sum"),
           why=T("A dot product adds up over the coordinates, and the heads divide the coordinates between them. So one wide head has only one notion of similarity."),
           wrong=[(T("It is their mean", claim="the mean"),
                   T("Nothing divides by H.")),
                  (T("It is the largest of them", claim="the largest"),
                   T("No maximum is taken: a dot product adds up the products of all coordinates, whichever head they belong to."))],
           witness=one_wide_head_scores),
    number(T("At D = 16 with H = 4 heads, what is the smallest number that the rank of one head's T × T score matrix never exceeds, whatever T is?"),
           answer=4,
           why=T("The score matrix is a T × d matrix times a d × T matrix, so its rank is at most the smaller of T and d = D/H = 4. On random inputs it reaches 4 once T ≥ 4."),
           wrong=[(16, T("That is D, the width of the only head when H = 1. At H = 4 the rank does stay below 16, but it never exceeds 4, which is smaller.")),
                  (1, T("That is the rank at H = 16, d = 1. With d = 4, the rank on random inputs exceeds 1 as soon as T ≥ 2."))],
           witness=rank_of_a_head),
    number(T("At d = 1, over all keys and before any mask, at most how many different keys can the queries of one head prefer?"),
           answer=2,
           why=T("The score is a product q·k: every query orders the keys by the same number k, forwards or backwards."),
           wrong=[(1, T("A query with a negative q prefers the key with the smallest k.")),
                  (16, T("That would need every query to prefer a different key; even at d = 16 the table of §2.8 finds only 10."))],
           witness=favourites_at_width_1),
)


# §2.9: two heads with the same projections differ only through the coordinates they compare
def different_maps_show(claim):
    x = np.random.default_rng(5).normal(size=(1, 5, 8))
    block = np.random.default_rng(6).normal(size=(4, 4))
    w = np.kron(np.eye(2), block)                                   # both heads: the same 4×4 projection
    maps = attention_weights(x, w, w, 2)[0]
    same_coordinates = x.copy()
    same_coordinates[..., 4:] = x[..., :4]
    maps_same = attention_weights(same_coordinates, w, w, 2)[0]
    same_blocks = np.hstack([w[:, :4], w[:, :4]])                   # identical D × d column blocks (§2.1)
    maps_same_blocks = attention_weights(x, same_blocks, same_blocks, 2)[0]
    assert np.allclose(maps_same_blocks[0], maps_same_blocks[1])    # read the same coordinates: the same map
    facts = {"different coordinates": not np.allclose(maps[0], maps[1]) and np.allclose(maps_same[0], maps_same[1]),
             "different masks": not np.array_equal(maps[0] > 0, maps[1] > 0)}
    return bool(facts[claim])


section("nameable role",
    choose(T("Does the split itself give each head a nameable role?"),
           right=T("No: it only gives each head its own subspace and its own softmax"),
           why=T("What a head does is decided by training; several heads may learn much the same thing."),
           wrong=[(T("Yes: each head is assigned one linguistic phenomenon"),
                   T("Nothing in the structure asks for that.")),
                  (T("The more heads, the clearer the roles"),
                   T("More heads only mean narrower subspaces."))],
           unwitnessed="what heads learn depends on training; the split computes no role"),
    choose(T("How would you test whether a head has a role?"),
           right=T("By experiment: for example, switch the head off and measure the effect"),
           why=T("A role is a claim to be checked by observation and experiment."),
           wrong=[(T("Look up its column numbers in W_Q"),
                   T("Column numbers only say which block of parameters it uses.")),
                  (T("Derive it from the split formula"),
                   T("The formula is the same for every head."))],
           unwitnessed="a question of method: how a claim about a head would be tested"),
    choose(T("Two heads have different attention maps. What does that show?"),
           right=T("That they compare different coordinates; not that they have nameable roles", claim="different coordinates"),
           why=T("Each head compares its own d coordinates, through its own D × d column blocks of W_Q and W_K (§2.1). So two heads can weigh the same keys differently (§2.3) with no role behind it; in §2.5 their weights even agree, by a coincidence of the example. A role needs a test of its own."),
           wrong=[(T("One tracks syntax, the other the previous word"),
                   T("That is a claim for an experiment, not something a map shows.")),
                  (T("That their masks differ", claim="different masks"),
                   T("Both heads use the same mask."))],
           witness=different_maps_show),
)
