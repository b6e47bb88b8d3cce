# Questions for §0 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked: a witness computed with lib, the section that
# defines a term, or why no code can state it (tools/quizzes.py, "Witnesses").
import functools

import numpy as np

from lib import checks
from lib.attention import (attention_scores, causal_allowed, causal_attention, masked_softmax,
                           multi_head_attention, split_heads, unmasked_attention)
from lib.data import build_vocab, collate
from lib.model import AttentionModel
from tools.quizzes import chapter_headings, CHAPTER_DIR


# §0.1: what a softmax does first, tried on rows where the candidates differ
def _softmax_after(first_step, row):
    with np.errstate(over="ignore", invalid="ignore"):
        e = np.exp(first_step(row))
        return e / e.sum()


FIRST_STEPS = {"subtract the maximum": lambda s: s - s.max(),
               "divide by the sum": lambda s: s / s.sum(),
               "clip to [-1, 1]": lambda s: np.clip(s, -1, 1)}
TEST_ROWS = [np.array([1000.0, 1000.0]), np.array([3.0, 0.0]), np.array([0.0, -800.0])]


def softmax_starts_with(step):
    lib_rows = [masked_softmax(row, np.ones(2, dtype=bool)) for row in TEST_ROWS]
    clipped = masked_softmax(np.clip(TEST_ROWS[1], -1, 1), np.ones(2, dtype=bool))
    assert (round(lib_rows[1][0], 2), round(clipped[0], 2)) == (0.95, 0.73)   # the clip feedback's numbers
    return all(np.allclose(_softmax_after(FIRST_STEPS[step], row), w, rtol=0, atol=1e-12)
               for row, w in zip(TEST_ROWS, lib_rows))


def first_weight_of_1000_1000(value):
    with np.errstate(over="ignore", invalid="ignore"):
        naive = np.exp(1000.0) / (2 * np.exp(1000.0))
    assert np.isnan(naive)                          # the distractor's why: inf / inf is NaN
    return masked_softmax(np.array([1000.0, 1000.0]), np.ones(2, dtype=bool))[0] == value


section("already know",
    choose(T("What does a numerically stable softmax do first?"),
           right=T("Subtract each row's maximum", claim="subtract the maximum"),
           why=T("Subtracting the same constant from every score of a row leaves the softmax unchanged, and the largest exp is then e⁰ = 1, so none overflows."),
           wrong=[(T("Divide each row by its sum", claim="divide by the sum"),
                   T("Dividing the scores changes their differences, and so the weights.")),
                  (T("Clip the scores to [−1, 1]", claim="clip to [-1, 1]"),
                   T("Clipping generally changes the weights: [3, 0] becomes [1, 0], and the first weight falls from about 0.95 to about 0.73."))],
           witness=softmax_starts_with),
    number(T("The stable softmax of the score row [1000, 1000]: what is the first weight?"),
           answer=0.5, tolerance=1e-9,
           why=T("After subtracting the maximum the row is [0, 0]: 1/2 each."),
           wrong=[(0, T("Without the subtraction exp(1000) overflows to inf, and inf/inf is NaN, not 0; the stable form gives 1/2."))],
           witness=first_weight_of_1000_1000),
    choose(T("What is a local backward pass?"),
           right=T("Computing, from the upstream gradient, the gradient of one operation with respect to its inputs and parameters"),
           why=T("§0.1 lists it among the prerequisites; the backward passes of §3 and §7 are built from such steps."),
           wrong=[(T("Numerical differentiation of the whole model"),
                   T("Finite differences serve only to check a backward pass.")),
                  (T("Updating the last layer only"),
                   T("A backward pass computes gradients; which parameters are updated is another matter."))],
           defined_in="0.1", term=T("local backward pass")),
)


# §0.2: the soft lookup of the section: <bos> 春 风 雨, one-hot inputs, no mask
LOOKUP_Q = 6 * np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 0]], dtype=float)   # season, weather, start
LOOKUP_K = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 1, 0]], dtype=float)
LOOKUP_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], dtype=float)       # spring, wind, rain
LOOKUP_WEIGHTS = masked_softmax(attention_scores(LOOKUP_Q, LOOKUP_K), np.ones((4, 4), dtype=bool))
X3 = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])           # a second small input, for the steps of one head
RNG = np.random.default_rng(0)
Q5, K5, V5 = RNG.normal(size=(3, 5, 2))              # T = 5 positions, head width d = 2
SCORE_FORMULAS = {"q.k/sqrt(d)": lambda q, k, v: q @ k.T / np.sqrt(2),
                  "q.v": lambda q, k, v: q @ v.T,
                  "q.k/d": lambda q, k, v: q @ k.T / 2}


def score_formula(formula):
    return np.allclose(SCORE_FORMULAS[formula](Q5, K5, V5), attention_scores(Q5, K5), rtol=0, atol=1e-12)


def normalised_over(what):
    weights = masked_softmax(attention_scores(Q5, K5), np.ones((5, 5), dtype=bool))
    sums = {"the keys of one query": weights.sum(axis=1), "the queries of one column": weights.sum(axis=0),
            "the whole table": weights.sum()}
    return np.allclose(sums[what], 1)


W_Q, W_K, W_V = RNG.normal(size=(3, 2, 2))
HEAD_STEPS = [lambda s: s.update(q=X3 @ W_Q, k=X3 @ W_K, v=X3 @ W_V),
              lambda s: s.update(scores=attention_scores(s["q"], s["k"])),
              lambda s: s.update(weights=masked_softmax(s["scores"], np.ones((3, 3), dtype=bool))),
              lambda s: s.update(y=s["weights"] @ s["v"])]


def one_head_in_order(steps):
    y = in_order(HEAD_STEPS, steps)["y"]
    return np.allclose(y, multi_head_attention(X3[None], W_Q, W_K, W_V, np.eye(2), 1, causal=False)[0])


def future_share_of_chun(value):
    e = np.exp(2 * np.sqrt(3))                       # 春's scores: 0, 0, 6/√3, 6/√3
    assert np.isclose(LOOKUP_WEIGHTS[1, 2:].sum(), e / (1 + e))
    assert np.isclose(LOOKUP_WEIGHTS[1, 2], LOOKUP_WEIGHTS[1, 3])    # the why of 0.5: each gets half of 0.97
    return abs(LOOKUP_WEIGHTS[1, 2:].sum() - value) <= 0.006


section("One attention head",
    choose(T("What is the score of query i for key j?"),
           right=T("qᵢ · kⱼ / √d", claim="q.k/sqrt(d)"),
           why=T("Dividing by √d keeps the spread of the scores from growing with the head width d."),
           wrong=[(T("qᵢ · vⱼ", claim="q.v"),
                   T("Values are not scored; they only enter the weighted sum.")),
                  (T("qᵢ · kⱼ / d", claim="q.k/d"),
                   T("Dividing by d shrinks too much: the spread of a dot product grows like √d."))],
           witness=score_formula),
    choose(T("What does the softmax normalise over?"),
           right=T("Over the keys, for each query separately", claim="the keys of one query"),
           why=T("Each query gets its own distribution over the keys; its weights sum to 1."),
           wrong=[(T("Over all queries of a column", claim="the queries of one column"),
                   T("Then a key's weights would sum to 1, and a query's would not.")),
                  (T("Over the whole score table", claim="the whole table"),
                   T("Then all the weights of the table would sum to 1, and each row to much less."))],
           witness=normalised_over),
    number(T("In the example of §0.2 (no mask), how much weight does 春 give to 风 and 雨 together? (to two decimal places)"),
           answer=0.97, tolerance=0.006, shown="exp(2√3) / (1 + exp(2√3)) ≈ 0.97",
           why=T("春 looks for weather, and the keys of 风 and 雨 say weather: both come after 春."),
           wrong=[(0, T("That is what the mask of §1 gives; without it 春 reads its future.")),
                  (0.5, T("Each of the two gets about 0.485; together they get about 0.97."))],
           witness=future_share_of_chun),
    choose(T("In the soft lookup of §0.2, what does a position's key say?"),
           right=T("What it contains"),
           why=T("A query is matched against the keys; the value is what the position hands over once it is found."),
           wrong=[(T("What it is looking for"),
                   T("That is its query.")),
                  (T("What it hands over"),
                   T("That is its value: it enters the weighted sum, not the match."))],
           defined_in="0.2", term=T("what it contains")),
    order(T("Put one head's steps in order."),
          steps=[T("Project the input to Q, K and V"),
                 T("Score every key: q · k / √d"),
                 T("Softmax over the keys"),
                 T("Sum the values, weighted by the attention weights")],
          why=T("The mask acts in the third step: the softmax runs over the allowed keys only (§1)."),
          witness=one_head_in_order),
)


# §0.3: the order of the topics is the order of the course's sections
@functools.cache
def _titles():
    return [(num, title) for path in sorted(CHAPTER_DIR.glob("[0-9][0-9]_*.py"))
            for num, title in chapter_headings(path) if "." not in num]


def _taught_in(phrase):
    titles = _titles()
    found = [int(num) for num, title in titles if phrase.lower() in title.lower()]
    assert len(found) == 1, (phrase, titles)
    return found[0]


TOPICS = ["allowed set", "heads", "positions", "causality", "cache"]


def topics_in_order(order):
    taught = [_taught_in(TOPICS[i]) for i in order]
    return taught == sorted(taught)


# the cache of §5 agrees with the full forward pass only while the model is causal: drop one part
# of the course's model at a time and see whether step-by-step still equals the whole sequence
MODEL = checks.chapter_model()
IDS = np.array([1, 3, 4, 5, 4])


def _cache_agrees(model, causal=True):
    steps = checks.incremental_forward(model, IDS)
    return np.abs(steps - model.forward(IDS, causal=causal)).max() < 1e-12


def _appending_changes(model, causal):
    """How much appending the last token of IDS changes the old positions' keys, and their outputs."""
    old, new = IDS[:-1], IDS
    keys = np.abs(model.embed(new)[:-1] @ model.w_k - model.embed(old) @ model.w_k).max()
    outputs = np.abs(model.forward(new, causal=causal)[:-1] - model.forward(old, causal=causal)).max()
    return keys, outputs


def cache_rests_on(part):
    m = MODEL
    # the key's wording: what the mask keeps is everything computed for the old positions. Their keys in
    # this one-layer model stay the same even without it; their outputs (the next layer's inputs) do not
    assert _appending_changes(m, causal=True) == (0, 0)
    keys, outputs = _appending_changes(m, causal=False)
    assert keys == 0 and outputs > 0.1
    without = {"causality": lambda: _cache_agrees(m, causal=False),
               "positions": lambda: _cache_agrees(AttentionModel(m.token_table, 0 * m.position_table, m.w_q,
                                                                 m.w_k, m.w_v, m.w_o, m.n_heads)),
               "heads": lambda: _cache_agrees(AttentionModel(m.token_table, m.position_table, m.w_q,
                                                             m.w_k, m.w_v, m.w_o, 1))}
    assert _cache_agrees(m)
    return not without[part]()


def title_of_section_7_says(phrase):
    return phrase.lower() in dict(_titles())["7"].lower()


section("Map of the course",
    order(T("Put these topics in the order the course follows."),
          steps=[T("The allowed set before softmax"),
                 T("Splitting and merging heads"),
                 T("Learned absolute positions"),
                 T("Causality across the whole computation"),
                 T("The KV cache and the position offset")],
          why=T("§1–§5 in this order; then the evidence of §6 and the decoder of §7."),
          witness=topics_in_order),
    choose(T("What does the KV cache of §5 rely on to give the same outputs as the full forward pass?"),
           right=T("Causality (§4): appending a token changes nothing already computed for the old positions, so their keys and values can be reused", claim="causality"),
           why=T("Without the mask, step-by-step outputs no longer equal those of the full forward pass."),
           wrong=[(T("Learned positions (§3)", claim="positions"),
                   T("The new token needs the right position (§5.3), but a model with no positions at all can be cached just as well.")),
                  (T("Several heads (§2)", claim="heads"),
                   T("A one-head model is cached the same way; the heads only cut each key and value into pieces."))],
           witness=cache_rests_on),
    choose(T("What does §7 do?"),
           right=T("Assembles the parts into a small decoder trained in NumPy", claim="NumPy"),
           why=T("With the mask it learns to predict; without it, it reads the answer from the future."),
           wrong=[(T("Covers RoPE only", claim="RoPE"),
                   T("RoPE appears only as a comparison in §3.5.")),
                  (T("Trains a model in PyTorch", claim="PyTorch"),
                   T("The decoder, its backward pass and its optimiser are all written in NumPy."))],
           witness=title_of_section_7_says),
)


# §0.4: notation: x @ W with W of shape (input width, output width); target t = input t + 1
def linear_map_is(form):
    """What lib's linear map computes, tried with 3 input and 5 output features."""
    from lib.layers import linear_forward
    x, x_column = np.arange(1.0, 4.0)[None], np.arange(1.0, 4.0)[:, None]      # (1, 3), (3, 1)
    w_in_out = np.arange(15.0).reshape(3, 5)
    w_out_in = w_in_out.T.copy()
    forms = {"x @ W, W of shape (in, out)": (x, w_in_out, x @ w_in_out),
             "W @ x, x a column": (x_column, w_out_in, w_out_in @ x_column),
             "x @ W, W of shape (out, in)": (x, w_out_in, x @ w_out_in.T)}
    x, w, expected = forms[form]
    try:
        out, _ = linear_forward(x, w)
    except ValueError:
        return False
    return out.shape == expected.shape and np.allclose(out, expected)


def target_is_input_at(shift):
    inputs, targets = collate(["春雨", "雨"], build_vocab(["春雨风"]))
    pairs = [(b, t) for b, t in zip(*np.nonzero(targets != -100)) if 0 <= t + shift < inputs.shape[1]]
    return all(targets[b, t] == inputs[b, t + shift] for b, t in pairs)


def kept_fixed(what):
    """Keeping only ``what`` the same between the two passes, is the perturbation test still valid?"""
    ids, perturbed = np.array([1, 3, 4]), np.array([1, 3, 0])
    updated = AttentionModel(MODEL.token_table, MODEL.position_table, MODEL.w_q, MODEL.w_k, MODEL.w_v,
                             1.01 * MODEL.w_o, MODEL.n_heads)       # one "training step" between the passes
    second = {"the parameters": (MODEL, perturbed), "the input": (updated, ids),
              "nothing": (updated, perturbed)}[what]
    change = float(np.abs(MODEL.forward(ids)[:2] - second[0].forward(second[1])[:2]).max())
    return change == 0.0


section("Notation",
    choose(T("How are linear maps written in this course?"),
           right=T("Row vectors on the left: x @ W, with W of shape (input width, output width)", claim="x @ W, W of shape (in, out)"),
           why=T("So W's columns are the output features."),
           wrong=[(T("W @ x with x a column vector", claim="W @ x, x a column"),
                   T("The course writes vectors as rows throughout.")),
                  (T("x @ W with W of shape (output width, input width)", claim="x @ W, W of shape (out, in)"),
                   T("Then the shapes match only when the two widths are equal, and the product uses the transpose of the map."))],
           witness=linear_map_is),
    choose(T("What does the output at position t predict?"),
           right=T("The next token: target t is input t + 1", claim=1),
           why=T("The input at position t is token t, already seen."),
           wrong=[(T("Token t itself", claim=0), T("That would only copy the input.")),
                  (T("The previous token", claim=-1), T("The previous token has been read already."))],
           witness=target_is_input_at),
    choose(T("§4's future-perturbation test compares two forward passes. Apart from the shared prefix of the input, what must stay the same between them?"),
           right=T("The parameters: no training step in between", claim="the parameters"),
           why=T("Causality in this course is a property of one forward pass with the parameters held fixed; the future inputs are changed on purpose."),
           wrong=[(T("The input, future included", claim="the input"),
                   T("No: the test changes the future inputs on purpose; only the prefix stays the same. The parameters are what must stay fixed.")),
                  (T("Nothing: any two passes will do", claim="nothing"),
                   T("A training step changes the outputs of the prefix as well; that is a different model, not a leak (§4.8)."))],
           witness=kept_fixed),
)


# §0.5: how the website, a downloaded notebook and a copy of the repository run the code; every
# key is a sentence of §0.5 (defined_in, term)
section("read and run",
    choose(T("On the website you move a slider in §1.9's interactive figure. What computes the numbers that appear?"),
           right=T("Nothing at that moment: `lib` computed every state when the notebook was executed"),
           why=T("The website runs none of the course's Python: it shows states `lib` computed earlier. In Jupyter the same cells are live widgets."),
           wrong=[(T("A Python kernel behind the website"),
                   T("No kernel is behind the website: reading it runs none of the course's Python.")),
                  (T("Your browser, running `lib`"),
                   T("`lib` is Python, and the page runs none of it; it shows numbers saved earlier."))],
           defined_in="0.5", term=T("when the notebook was executed")),
    choose(T("You downloaded one notebook from the website. What else does its `import lib` need?"),
           right=T("The course's package (`.whl`), from the same download menu"),
           why=T("The package holds `lib`, `figures` and `grading`; the notebook only imports them."),
           wrong=[(T("Nothing: the notebook contains `lib`"),
                   T("The notebook only imports `lib`; the code lives in the package.")),
                  (T("Only NumPy"),
                   T("NumPy alone is not enough: `lib`, `figures` and `grading` come in the course's package."))],
           defined_in="0.5", term=T("the course's package")),
    choose(T("In a copy of the repository you change a function of `lib`. When does an open notebook use the new code?"),
           right=T("Once its kernel is restarted"),
           why=T("`-e .` installs `lib` in editable mode: the notebook imports your files, but a running kernel keeps the module it has already imported."),
           wrong=[(T("At once, in the running kernel"),
                   T("A running kernel keeps the module it has already imported; restart it.")),
                  (T("Only after the `pip install` line is run again"),
                   T("The editable install points at your files; nothing needs to be installed again."))],
           defined_in="0.5", term=T("editable mode")),
)


# §0.6: the functions of lib that §0.2 and §0.4 used
def all_true_means(meaning):
    allowed = causal_allowed(3, 3)
    weights = masked_softmax(np.zeros((3, 3)), allowed)
    read = weights > 0
    return {"may read": np.array_equal(read, allowed), "forbidden": np.array_equal(read, ~allowed)}[meaning]


def split_shape(shape):
    return split_heads(np.zeros((2, 3, 4)), 2).shape == shape


def example_equals(name):
    functions = {"unmasked_attention": unmasked_attention, "causal_attention": causal_attention}
    return np.allclose(LOOKUP_WEIGHTS @ LOOKUP_V, functions[name](LOOKUP_Q, LOOKUP_K, LOOKUP_V), rtol=0, atol=1e-12)


section("shared library",
    choose(T("§0.2 calls `masked_softmax(scores, allowed)` with an `allowed` that is True everywhere. What does True mean there?"),
           right=T("The query may read that key", claim="may read"),
           why=T("Each row is normalised over its True entries; a False entry gets the weight 0."),
           wrong=[(T("That key is forbidden", claim="forbidden"),
                   T("Forbidden keys are False in `allowed` (§1.4).")),
                  (T("The score has already been masked"),
                   T("`allowed` is a separate boolean array; the scores are left as they are."))],
           witness=all_true_means),
    choose(T("§0.4 splits an array of shape (B, T, D) = (2, 3, 4) into H = 2 heads with `split_heads`. What shape comes out?"),
           right=T("(2, 2, 3, 2): (B, H, T, d)", claim=(2, 2, 3, 2)),
           why=T("Each head gets d = D/H = 2 features of every position; the head axis comes before time."),
           wrong=[(T("(2, 3, 2, 2): (B, T, H, d)", claim=(2, 3, 2, 2)),
                   T("That is the shape before the head axis is moved in front of time (§2.2).")),
                  (T("(2, 3, 4): unchanged", claim=(2, 3, 4)),
                   T("The split adds the head axis."))],
           witness=split_shape),
    choose(T("The example of §0.2 reads every key. Which function of `lib` computes the same output?"),
           right=T("`unmasked_attention`", claim="unmasked_attention"),
           why=T("It reads every key. §4's negative control, `model.forward(..., causal=False)`, computes the same thing inside the model."),
           wrong=[(T("`causal_attention`", claim="causal_attention"),
                   T("It forbids the future: 春 could not read 风 and 雨.")),
                  (T("`split_heads`"),
                   T("It only rearranges features into heads; it computes no attention."))],
           witness=example_equals),
)
