# Questions for §3 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").
import ast
import importlib
import inspect
import re

import numpy as np

import lib
from lib import checks, plain_python
from lib.attention import causal_future, masked_softmax, multi_head_attention
from lib.data import BOS, build_vocab, encode
from lib.model import AttentionModel
from lib.positions import embed, embed_backward

VOCAB = build_vocab(["春雨风"])
MODEL = checks.chapter_model()                                     # the E and P of §3 (and §4)
E, P = MODEL.token_table, MODEL.position_table


# §3.1
IDS = np.array(encode("春雨风", VOCAB))


def input_vector_is(formula):
    got = embed(IDS, E, P, offset=2)
    t = np.arange(len(IDS))
    candidate = unless_refused({"E[x] + P[o + t]": lambda: E[IDS] + P[2 + t], "E[x] + P[t]": lambda: E[IDS] + P[t],
                       "E[x + t]": lambda: E[IDS + t]}[formula])
    return candidate is not None and np.array_equal(candidate, got)


def row_of_last_token_at_offset_1(row):
    position_term = embed(IDS, E, P, offset=1)[-1] - E[IDS[-1]]
    rows = [r for r in range(len(P)) if np.allclose(position_term, P[r], rtol=0, atol=1e-15)]
    return rows == [row]


def widths_of_e_and_p(claim):
    wider_p = np.hstack([P, np.ones((len(P), 1))])
    facts = {"added": embed(IDS, E, P).shape[-1] == E.shape[1] == P.shape[1]
             and np.array_equal(embed(IDS, E, P), E[IDS] + P[:3]),
             "concatenated": embed(IDS, E, P).shape[-1] == E.shape[1] + P.shape[1],
             "need not match": unless_refused(lambda: embed(IDS, E, wider_p)) is not None}
    return bool(facts[claim])


section("look up, then add",
    choose(T("What is the input vector of the token x at index t of an input that starts at offset o?"),
           right=T("E[x] + P[o + t]", claim="E[x] + P[o + t]"),
           why=T("The token embedding table E is indexed by the token's id, the position table P by the absolute position o + t."),
           wrong=[(T("E[x] + P[t]", claim="E[x] + P[t]"),
                   T("That ignores the offset: after a cache, the token at index t stands at position o + t, not t (§5).")),
                  (T("E[x + t]", claim="E[x + t]"),
                   T("A position is not a token: it is not in the vocabulary, and it has its own table P."))],
           witness=input_vector_is),
    number(T("The tokens 春 雨 风 enter after a cached `<bos>`, at offset o = 1. Which row of P does the last one use?"),
           answer=3,
           why=T("The three tokens use rows 1 to 3; the last one stands at o + t = 1 + 2."),
           wrong=[(1, T("That is the row of the first token (t = 0).")),
                  (2, T("That forgets the offset: t = 2 is counted from the first new token."))],
           witness=row_of_last_token_at_offset_1),
    choose(T("Why must the rows of E and P have the same width?"),
           right=T("They are added, so both are D wide", claim="added"),
           why=T("The input vector is the sum of the two rows."),
           wrong=[(T("So that they can be concatenated", claim="concatenated"),
                   T("Concatenation would not need equal widths; this course adds the two rows, and addition does.")),
                  (T("Their widths need not match", claim="need not match"),
                   T("Rows of different widths cannot be added, and `embed` refuses them."))],
           witness=widths_of_e_and_p),
)


# §3.2: 春雨 and 风雨, D = 2, the upstream gradients of the section's example
IDS2 = np.array([encode("春雨", VOCAB), encode("风雨", VOCAB)])
G = np.array([[[1.0, 2.0], [0.5, 0.0]], [[-3.0, 1.0], [1.0, -1.0]]])
D_E, D_P = embed_backward(G, IDS2, len(VOCAB), 8)
RAIN = encode("雨", VOCAB)[0]


def first_coordinate_of_p0_gradient(value):
    assert G[0, 0, 0] == 1 and G[1, 0, 0] == -3                     # the two sequences' shares
    return D_P[0, 0] == value


def _naive_de():
    naive = np.zeros_like(D_E)
    naive[IDS2.reshape(-1)] += G.reshape(-1, 2)
    return naive


def first_coordinate_of_rain_gradient(value):
    assert _naive_de()[RAIN, 0] == 1                                # `dE[ids] += G` keeps one write
    return D_E[RAIN, 0] == value


def fancy_index_add(claim):
    naive = unless_refused(_naive_de)
    scattered = np.zeros_like(D_E)
    np.add.at(scattered, IDS2.reshape(-1), G.reshape(-1, 2))
    assert np.array_equal(scattered, D_E)                           # np.add.at adds every write, as lib does
    facts = {"keeps one write": naive is not None and not np.array_equal(naive, D_E), "raises": naive is None}
    return bool(facts[claim])


def row_0_of_p_at_offset_1(claim):
    _, d_p = embed_backward(G, IDS2, len(VOCAB), 8, offset=1)
    facts = {"exactly 0": (d_p[0] == 0).all(), "as row 1": np.array_equal(d_p[0], d_p[1]),
             "small": 0 < np.abs(d_p[0]).max() < 1e-6}
    return bool(facts[claim])


section("scatter-add",
    number(T("In the example (春雨 and 风雨, D = 2), what is the first coordinate of the gradient that row 0 of P receives?"),
           answer=-2,
           why=T("Both sequences read P[0] at their first position: [1, 2] + [−3, 1] = [−2, 3]."),
           wrong=[(1, T("That counts only the first sequence: position rows are shared by the whole batch.")),
                  (-3, T("That counts only the second sequence."))],
           witness=first_coordinate_of_p0_gradient),
    number(T("In the same example, what is the first coordinate of the gradient of E[雨]?"),
           answer=1.5,
           why=T("雨 occurs in both sequences: 0.5 + 1."),
           wrong=[(1, T("That is what `dE[ids] += G` gives: a repeated token keeps only one of its writes."))],
           witness=first_coordinate_of_rain_gradient),
    choose(T("Why is `dE[ids] += G` wrong?"),
           right=T("A repeated id keeps only one write; use `np.add.at`", claim="keeps one write"),
           why=T("A scatter-add must add up every write."),
           wrong=[(T("The shapes do not match, and it raises", claim="raises"),
                   T("It raises nothing; the mistake is silent.")),
                  (T("It adds the gradient to P"),
                   T("The trouble is the repeated indices, not the table."))],
           witness=fancy_index_add),
    choose(T("With offset o = 1, what gradient does row 0 of P get?"),
           right=T("Exactly 0: no input reads it", claim="exactly 0"),
           why=T("A scatter-add writes only to the rows that were read."),
           wrong=[(T("The same as row 1", claim="as row 1"),
                   T("Row 1 is read by t = 0; row 0 is not.")),
                  (T("Small but not 0", claim="small"),
                   T("No read, no gradient: it is exactly 0."))],
           witness=row_0_of_p_at_offset_1),
)


# §3.3
def largest_row_for_6_at_offset_3(row):
    try:
        embed(np.full(6, BOS), E, P, offset=3)
    except ValueError as error:
        needed = re.search(r"(\d+)\.\.(\d+)", str(error))          # the message names the positions
        assert needed and "C=8" in str(error)
        return int(needed.group(2)) == row
    raise AssertionError("embed accepted positions beyond C")


def wrapping(claim):
    positions = np.arange(9)                                        # 9 tokens, C = 8
    rows = positions % len(P)
    facts = {"two positions share a row": rows[8] == rows[0] == 0 and len(set(rows)) < len(rows),
             "raises": unless_refused(lambda: P[rows]) is None,
             "nothing": len(set(rows)) == len(rows)}
    assert unless_refused(lambda: embed(np.full(9, BOS), E, P)) is None      # the model has no row for position 8
    return bool(facts[claim])


def untrained_rows(claim):
    rng = np.random.default_rng(3)
    initial = rng.normal(scale=0.02, size=P.shape)
    trained = initial.copy()
    for _ in range(200):                                            # plain SGD on inputs of 1 to 5 positions
        length = int(rng.integers(1, 6))
        ids = rng.integers(0, len(VOCAB), size=(4, length))
        _, d_p = embed_backward(rng.normal(size=(4, length, P.shape[1])), ids, len(VOCAB), len(P))
        trained -= 0.01 * d_p
    facts = {"their initial values": np.array_equal(trained[5:], initial[5:]) and (trained[:5] != initial[:5]).any(),
             "learned": (trained[5:] != initial[5:]).any(), "zeros": (trained[5:] == 0).all()}
    return bool(facts[claim])


section("beyond C",
    number(T("C = 8, and 6 tokens come at offset 3: what is the highest row index of P they need?"),
           answer=8,
           why=T("They need rows 3 to 8, but the table has rows 0 to 7 only, so `embed` raises."),
           wrong=[(9, T("Positions start at o; the last one is o + T − 1.")),
                  (5, T("That forgets the offset."))],
           witness=largest_row_for_6_at_offset_3),
    choose(T("What is wrong with wrapping around (row (o + t) mod C) for a position ≥ C?"),
           right=T("Two different positions share a row: position 8 gets P[0], the row for the start of a text", claim="two positions share a row"),
           why=T("The model defines no vector for position 8; borrowing row 0 turns it into a different model."),
           wrong=[(T("Nothing: it is the standard fix", claim="nothing"),
                   T("It quietly changes the model.")),
                  (T("It raises an error", claim="raises"),
                   T("Wrapping raises nothing; that is what makes it dangerous."))],
           witness=wrapping),
    choose(T("A model with C = 8 is trained with plain SGD on inputs of at most 5 positions. What are rows 5 to 7 of P afterwards?"),
           right=T("Still their random initial values", claim="their initial values"),
           why=T("A row gets a gradient only when some training input uses its position."),
           wrong=[(T("Rows that have learned long context", claim="learned"),
                   T("They were never read, so they were never updated.")),
                  (T("All zeros", claim="zeros"),
                   T("They start random, not at 0, and nothing moved them."))],
           witness=untrained_rows),
)


# §3.4: [春, 风, 雨] and [风, 春, 雨] through the one-layer model of §3
FIRST, SECOND = np.array(encode("春风雨", VOCAB)), np.array(encode("风春雨", VOCAB))


def _rows_apart(use_positions, model=MODEL):
    return np.abs(model.forward(FIRST, use_positions=use_positions)
                  - model.forward(SECOND, use_positions=use_positions)).max(axis=1)


def last_row_without_positions(claim):
    gap = _rows_apart(False)[-1]
    assert round(float(_rows_apart(True)[-1]), 3) == 0.047           # with positions
    facts = {"only rounding": gap < 1e-12, "about 0.047": abs(gap - 0.047) < 0.0005, "a lot": gap > 0.1}
    return bool(facts[claim])


def counter_example_proves(claim):
    rows = _rows_apart(False)

    def second_layer(out):
        return multi_head_attention(out[None], MODEL.w_q, MODEL.w_k, MODEL.w_v, MODEL.w_o, 2)[0]
    two_layers = np.abs(second_layer(MODEL.forward(FIRST, use_positions=False))[-1]
                        - second_layer(MODEL.forward(SECOND, use_positions=False))[-1]).max()
    swapped = np.abs(MODEL.forward(FIRST, use_positions=False)[[1, 0, 2]]
                     - MODEL.forward(SECOND, use_positions=False)).max(axis=1)
    # without the mask rows 0 and 1 differ too, but only by a swap, and a second layer's last row does not move
    unmasked = [MODEL.forward(ids, use_positions=False, causal=False) for ids in (FIRST, SECOND)]
    assert (np.abs(unmasked[0] - unmasked[1])[:2].max(axis=1) > 0.5).all()
    assert np.array_equal(unmasked[0][[1, 0, 2]], unmasked[1])
    assert np.array_equal(*(multi_head_attention(u[None], MODEL.w_q, MODEL.w_k, MODEL.w_v, MODEL.w_o, 2,
                                                 causal=False)[0][-1] for u in unmasked))
    facts = {"this layer's last row only": rows[2] < 1e-12 and (swapped[:2] > 0.5).all() and two_layers > 0.1,
             "blind to order": (rows < 1e-12).all()}
    return bool(facts[claim])


def plain_python_route(claim):
    imported = {alias.name for node in ast.walk(ast.parse(inspect.getsource(plain_python)))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    rows = [plain_python.input_rows(ids.tolist(), E.tolist(), P.tolist()) for ids in (FIRST, SECOND)]
    last = [plain_python.read(r[-1], r, 2, MODEL.w_o.tolist()) for r in rows]
    plain = max(abs(u - w) for u, w in zip(*last))
    assert abs(plain - _rows_apart(True)[-1]) < 1e-15                  # "less than 10⁻¹⁵"
    facts = {"independent": imported == {"math"},
             "lib's own route": "plain_python" in inspect.getsource(AttentionModel.forward)}
    return bool(facts[claim])


section("swap",
    choose(T("Without positions, how much does swapping the first two tokens change the last row of the one-layer model?"),
           right=T("Not at all, up to rounding (less than 10⁻¹²)", claim="only rounding"),
           why=T("Keys and values are permuted together; the weighted sum adds the same terms in another order."),
           wrong=[(T("About 0.047", claim="about 0.047"),
                   T("That is the difference with positions.")),
                  (T("A lot, because of the causal mask", claim="a lot"),
                   T("The last query may read all three keys anyway."))],
           witness=last_row_without_positions),
    choose(T("What does this counter-example prove?"),
           right=T("Only that this one layer's last row cannot see the swap", claim="this layer's last row only"),
           why=T("The causal mask itself breaks the symmetry: 春 reads only itself at row 0 but both tokens at row 1, so rows 0 and 1 are not merely swapped, and a second layer carries the difference into the last row."),
           wrong=[(T("That a model with a mask and no positions cannot see order at all", claim="blind to order"),
                   T("The first two rows already differ, and not by a mere swap.")),
                  (T("That positions must be learned"),
                   T("It says nothing about how positions are represented, learned or not."))],
           witness=counter_example_proves),
    choose(T("Why recompute the last row in plain Python?"),
           right=T("As an independent check, with neither NumPy nor the rest of `lib`", claim="independent"),
           why=T("The two routes give the same difference to within 10⁻¹⁵."),
           wrong=[(T("Plain Python is faster"),
                   T("Speed is not the point: what matters is that it shares no code with `lib`.")),
                  (T("It is how `lib` computes the layer", claim="lib's own route"),
                   T("`lib` computes with NumPy arrays; the plain-Python route is a second one."))],
           witness=plain_python_route),
)


def alibi_adds(claim):
    """ALiBi as §3.5 computes it: 12 positions, past C = 8, zero scores plus -0.5·(i - j) under the causal mask."""
    i, j = np.arange(12)[:, None], np.arange(12)[None, :]
    bias = -0.5 * (i - j)
    weights = masked_softmax(np.zeros((12, 12)) + bias, ~causal_future(12, 12))
    facts = {"a penalty by distance": np.array_equal(bias[1:, 1:], bias[:-1, :-1]) and (np.diff(weights[-1]) > 0).all(),
             "a table row": bias.shape[0] <= P.shape[0], "a rotation": np.allclose(weights, masked_softmax(
                 np.zeros((12, 12)), ~causal_future(12, 12)))}
    return bool(facts[claim])


# §3.5: the section's RoPE example, a single pair of coordinates and ω = 0.5
def _rotate(pair, position, omega=0.5):
    c, s = np.cos(position * omega), np.sin(position * omega)
    return np.array([c * pair[0] - s * pair[1], s * pair[0] + c * pair[1]])


def _score(m, n):
    return float(_rotate(np.array([1.0, 0.5]), m) @ _rotate(np.array([0.3, -0.8]), n))


def rotated_scores(claim):
    pairs = [(5, 2), (3, 0), (5, 0)]                                  # (query, key), as the section's cell scores them
    assert all(n <= m for m, n in pairs)                              # every key at or before its query: the mask allows it
    facts = {"equal": abs(_score(5, 2) - _score(3, 0)) < 1e-12, "different": abs(_score(5, 2) - _score(3, 0)) > 1e-9,
             "both 0": abs(_score(5, 2)) < 1e-12 and abs(_score(3, 0)) < 1e-12}
    assert abs(_score(5, 2) - _score(5, 0)) > 0.1                     # another distance, another score
    return bool(facts[claim])


def scheme_of_lib(claim):
    names = {name.lower() for module in lib.__all__ for name in vars(importlib.import_module(f"lib.{module}"))}
    has_rope = any("rope" in n or "rotary" in n or "rotate" in n for n in names)
    has_table = np.array_equal(embed(IDS, E, P), E[IDS] + P[:len(IDS)])
    return claim == {(True, False): "the table", (False, True): "RoPE", (True, True): "both"}.get((has_table, has_rope))


section("RoPE",
    choose(T("Which vectors does RoPE rotate?"),
           right=T("Queries and keys"),
           why=T("The score then depends on the positions only through the distance i − j."),
           wrong=[(T("The input vectors"),
                   T("RoPE adds nothing to the input; it rotates inside every attention layer.")),
                  (T("Queries, keys and values"),
                   T("The values are not rotated."))],
           defined_in="3.5", term=T("rotated")),
    choose(T("In the RoPE example, how do the scores of query 5 with key 2 and of query 3 with key 0 compare?"),
           right=T("They are equal: both pairs are 3 apart", claim="equal"),
           why=T("For the same query and key vectors, the score depends on the positions only through (i − j)ω."),
           wrong=[(T("They differ: the absolute positions differ", claim="different"),
                   T("For the same query and key vectors, RoPE's score sees only the distance between the positions.")),
                  (T("Both are 0", claim="both 0"),
                   T("Here both are about {score}: these two rotated vectors are not orthogonal.", score=round(_score(5, 2), 4)))],
           witness=rotated_scores),
    choose(T("Which position scheme does the course's `lib` use?"),
           right=T("Learned absolute positions (the table P)", claim="the table"),
           why=T("The sinusoidal table, RoPE and ALiBi are shown for comparison only; none is part of `lib`."),
           wrong=[(T("RoPE", claim="RoPE"), T("The RoPE example stands on its own; it is not part of `lib`.")),
                  (T("Both the table P and RoPE", claim="both"), T("The course uses only one scheme, the table P."))],
           witness=scheme_of_lib),
    choose(T("What does ALiBi add to the score of query i and key j?"),
           right=T("A penalty proportional to their distance i − j", claim="a penalty by distance"),
           why=T("It needs no position vectors, so it has an answer at every length."),
           wrong=[(T("A row of a learned position table", claim="a table row"),
                   T("That is the learned table of this course, with rows 0 to C − 1.")),
                  (T("Nothing: it rotates the query and the key instead", claim="a rotation"),
                   T("That is RoPE."))],
           witness=alibi_adds),
)
