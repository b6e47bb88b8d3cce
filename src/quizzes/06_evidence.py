# Questions for §6 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").
import ast
import inspect

import numpy as np

from lib import checks, plain_python
from lib.attention import causal_attention, merge_heads, split_heads
from lib.data import BOS, IGNORE, UNK, build_vocab, collate, encode
from lib.model import AttentionModel

VOCAB = build_vocab(["春雨风"])
MODEL = checks.chapter_model()
IDS, PERTURBED = np.array([BOS, 3, 4]), np.array([BOS, 3, UNK])
A = 1 / (1 + np.exp(1 / np.sqrt(2)))
B = 1 - A


def control(ids):
    return MODEL.forward(ids, causal=False)


# §6.1: the six checks on the model of §4.1
def numbers_2_and_3(claim):
    def constant(ids, causal=True):
        return np.zeros_like(MODEL.forward(ids, causal=causal))
    masked = checks.future_change(MODEL.forward, IDS, PERTURBED, 2)
    blind = checks.future_change(constant, IDS, PERTURBED, 2)         # a test that sees nothing also says 0.0
    seen = checks.future_change(control, IDS, PERTURBED, 2)
    assert abs(seen - 39.77) < 0.005
    facts = {"0.0 alone means nothing": masked == blind == 0.0 and seen > 1,
             "each stands alone": masked != blind}
    return bool(facts[claim])


def perturbation_test_covers(claim):
    def leaks_on_unk(ids):                                          # a bug that shows only for some futures
        return MODEL.forward(ids) + (np.asarray(ids) == UNK).any()
    quiet = checks.future_change(leaks_on_unk, IDS, np.array([BOS, 3, 5]), 2)
    caught = checks.future_change(leaks_on_unk, IDS, PERTURBED, 2)
    code_bug = checks.future_change(
        lambda t: checks.forward_with(MODEL, t, before=checks.leaky_time_normalization),
        np.array([BOS, 3, 4, 5]), np.array([BOS, 3, 0, 0]), 2)
    facts = {"the real code, the inputs tried": quiet == 0.0 and caught > 0 and code_bug > 0,
             "every input": quiet > 0, "the design only": code_bug == 0.0}
    return bool(facts[claim])


INPUTS, TARGETS = collate(["雨", "春雨"], VOCAB)


def no_padding_mask_because(claim):
    length = int((TARGETS[0] != IGNORE).sum())
    future = ~np.tril(np.ones((3, 3), dtype=bool))
    facts = {"the padding lies in the future": future[:length, length:].all(),
             "padded inputs are 0": INPUTS[0, 2] == 0}
    return bool(facts[claim])


ORDER_A, ORDER_B = np.array([3, 5, 4]), np.array([5, 3, 4])


ROWS_APART = np.abs(MODEL.forward(ORDER_A, use_positions=False) - MODEL.forward(ORDER_B, use_positions=False)).max(axis=1)


def blind_to_order(claim):
    def second_layer(out):
        x = split_heads(out[None], 2)
        return merge_heads(causal_attention(x, x, x))[0] @ MODEL.w_o
    two_layers = np.abs(second_layer(MODEL.forward(ORDER_A, use_positions=False))[-1]
                        - second_layer(MODEL.forward(ORDER_B, use_positions=False))[-1]).max()
    fact = not (ROWS_APART[0] > 1 and two_layers > 0.1)
    return claim == fact


CACHE_ERROR = checks.cache_error(MODEL, IDS)


RESET = checks.incremental_forward(MODEL, IDS, positions=[0, 1, 0])


RESET_ERROR = float(np.abs(RESET[-1] - MODEL.forward(IDS)[-1]).max())


def role_of_the_reset_error(claim):
    facts = {"the test can see position mistakes": CACHE_ERROR == 0.0 and RESET_ERROR > 0.05,
             "the cache is inaccurate": CACHE_ERROR > 1e-12, "rounding": RESET_ERROR < 1e-12}
    return bool(facts[claim])


section("Six checks",
    choose(T("Why do nos. 2 and 3 belong together?"),
           right=T("On its own the 0.0 means nothing; the control's change shows that the test can see a leak", claim="0.0 alone means nothing"),
           why=T("The control changes by about 39.77; a forward function that returns zeros would also show 0.0."),
           wrong=[(T("Because they use the same input"),
                   T("They do share an input, but that is not why they belong together: the control is what gives the 0.0 its meaning.")),
                  (T("They need not be read together", claim="each stands alone"),
                   T("Without the control, the 0.0 proves nothing."))],
           witness=numbers_2_and_3),
    choose(T("What is the strength of the future-perturbation test, and what is its limit?"),
           right=T("It checks the real code, but only on the inputs tried", claim="the real code, the inputs tried"),
           why=T("A structural argument is the reverse: every input, but only the design."),
           wrong=[(T("It covers every input", claim="every input"),
                   T("It can try only finitely many inputs, and a leak may show for some of them only.")),
                  (T("It checks only the design", claim="the design only"),
                   T("It runs the real code: in §4.7 it catches a normalisation taken over the wrong `axis`."))],
           witness=perturbation_test_covers),
    choose(T("No. 4: why does the forward pass need no separate padding mask?"),
           right=T("Every padding key lies in the future of every real query", claim="the padding lies in the future"),
           why=T("The causal mask already excludes it (§1.8)."),
           wrong=[(T("Because padded inputs are 0", claim="padded inputs are 0"),
                   T("A padded input is an ordinary `<eos>`.")),
                  (T("Because the loss ignores it"),
                   T("The loss handles targets; the question is whether real queries read the padding."))],
           witness=no_padding_mask_because),
    choose(T("No. 5: does it show that a masked model without positions is blind to order?"),
           right=T("No: row 0 reads only its own token, and a second layer passes the difference on", claim=False),
           why=T("Only one layer's last row is blind to a permutation of the tokens before it."),
           wrong=[(T("Yes", claim=True), T("The causal allowed set itself tells the positions apart: row 0 reads only the first token, so it sees the swap.")),
                  (T("Yes, with enough layers", claim=True),
                   T("More layers carry the difference into the last row."))],
           witness=blind_to_order),
    choose(T("The reset-to-zero bug causes an error of about 0.0875. What role does that error play?"),
           right=T("It shows that the equivalence test sees position mistakes, much like a negative control", claim="the test can see position mistakes"),
           why=T("The cache's agreement with the full forward pass means something only if the test can see a mistake."),
           wrong=[(T("It shows that the cache is inaccurate", claim="the cache is inaccurate"),
                   T("The correct cache differs by less than 10⁻¹² (§5.2: by 0.0 on the model of §4.1).")),
                  (T("It is rounding error", claim="rounding"),
                   T("0.0875 is far above rounding error."))],
           witness=role_of_the_reset_error),
)


# §6.2: the plain-Python route of the section
E_ROWS, P_ROWS, W_O_ROWS = (t.tolist() for t in (MODEL.token_table, MODEL.position_table, MODEL.w_o))


def layer_py(tokens, positions=None, use_positions=True, causal=True):
    rows = plain_python.input_rows(tokens, E_ROWS, P_ROWS, positions, use_positions)
    return [plain_python.read(row, rows[:i + 1] if causal else rows, 2, W_O_ROWS) for i, row in enumerate(rows)]


def _largest(a, b):
    return max(abs(u - w) for row, other in zip(a, b) for u, w in zip(row, other))


def why_plain_python(claim):
    imported = {alias.name for node in ast.walk(ast.parse(inspect.getsource(plain_python)))
                if isinstance(node, (ast.Import, ast.ImportFrom)) for alias in node.names}
    ours = {3: checks.future_change(control, IDS, PERTURBED, 2), 6: RESET_ERROR}
    py = {3: _largest(layer_py(IDS.tolist(), causal=False)[:2], layer_py(PERTURBED.tolist(), causal=False)[:2]),
          6: _largest(layer_py(IDS.tolist(), positions=[0, 1, 0])[-1:], layer_py(IDS.tolist())[-1:])}
    relative = max(abs(ours[n] - py[n]) / abs(py[n]) for n in py)
    facts = {"an independent route": imported == {"math"} and relative < 1e-14,
             "NumPy is inaccurate": relative > 1e-10}
    return bool(facts[claim])


def reset_bug_in_plain_python(claim):
    # The feedback of "lib's step": lib/plain_python.py imports math and nothing else, so none of lib's NumPy code.
    tree = ast.parse(inspect.getsource(plain_python))
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported == {"math"} and not any(isinstance(node, ast.ImportFrom) for node in ast.walk(tree))
    uses_lib = any(isinstance(node, ast.ImportFrom) and (node.module or "").startswith(("lib", "."))
                   for node in ast.walk(tree))
    error = _largest(layer_py(IDS.tolist(), positions=[0, 1, 0])[-1:], layer_py(IDS.tolist())[-1:])
    facts = {"its positions argument": "positions" in inspect.signature(plain_python.input_rows).parameters
             and abs(error - RESET_ERROR) < 1e-15,
             "lib's step": uses_lib, "it cannot": error == 0}
    return bool(facts[claim])


PADDED = INPUTS[0]                                                  # <bos> 雨 <eos>: 雨 right-padded
NUMBER_4_INPUTS = (PADDED[:2], np.array([BOS, 4, UNK]))             # the padding removed, then replaced


def number_4_left_out(claim):
    # no. 4 compares the real positions' outputs of inputs that agree there and differ only after them:
    # the comparison of no. 2, which plain Python makes; made in plain Python, no. 4 is 0.0 as well.
    # Only its "replaced" half is no. 2's test (same length, the positions after the real ones
    # changed); its "removed" half is shorter: the padded row against the unpadded one (feedback of "it is wrong")
    real = int((TARGETS[0] != IGNORE).sum())
    same_prefix = all(np.array_equal(x[:real], PADDED[:real]) for x in NUMBER_4_INPUTS)
    removed, replaced = NUMBER_4_INPUTS
    halves = (len(removed) == real < len(PADDED) and len(replaced) == len(PADDED)
              and not np.array_equal(replaced[real:], PADDED[real:]))
    in_python = max(_largest(layer_py(PADDED.tolist())[:real], layer_py(x.tolist())[:real]) for x in NUMBER_4_INPUTS)
    in_lib = max(np.abs(MODEL.forward(PADDED)[:real] - MODEL.forward(x)[:real]).max() for x in NUMBER_4_INPUTS)
    no_2 = _largest(layer_py(IDS.tolist())[:2], layer_py(PERTURBED.tolist())[:2])
    facts = {"the test of no. 2": real == 2 and same_prefix and halves and in_python == no_2 == 0.0,
             "it is wrong": in_lib != 0.0,
             "no floating point": not np.issubdtype(MODEL.forward(PADDED).dtype, np.floating)}
    return bool(facts[claim])


section("independent check",
    choose(T("Why recompute five of the table's numbers in plain Python?"),
           right=T("Many earlier assertions compare `lib` with `lib`; an independent route can catch a bug in `lib` itself", claim="an independent route"),
           why=T("It uses lists and `math` only, and the two routes agree to a relative difference below 10⁻¹⁴."),
           wrong=[(T("Because NumPy is inaccurate", claim="NumPy is inaccurate"),
                   T("The two routes differ by rounding only.")),
                  (T("For speed"), T("Plain Python is slower."))],
           witness=why_plain_python),
    choose(T("How does the plain-Python program reproduce the reset-to-zero bug?"),
           right=T("Through its `positions` argument: the third token at position 0", claim="its positions argument"),
           why=T("It reads exactly what the faulty cached step reads."),
           wrong=[(T("It calls `lib`'s `AttentionModel.step` with `position=0`", claim="lib's step"),
                   T("It uses none of `lib`'s NumPy code: `lib/plain_python.py` imports only `math`.")),
                  (T("It cannot", claim="it cannot"),
                   T("The `positions` argument is there for this."))],
           witness=reset_bug_in_plain_python),
    choose(T("Why is no. 4 left out of the comparison?"),
           right=T("Its numbers only illustrate a structural argument (§1.8); its \"replaced\" half repeats the test of no. 2 on other inputs", claim="the test of no. 2"),
           why=T("Plain Python already makes the comparison of no. 2; recomputing no. 4 would add nothing to the argument its numbers illustrate."),
           wrong=[(T("It is wrong", claim="it is wrong"), T("No, its numbers are correct: its \"replaced\" half repeats no. 2 on other inputs, and its \"removed\" half only illustrates the structural argument of §1.8.")),
                  (T("It involves only integers and booleans, no floating point", claim="no floating point"),
                   T("Its differences are between floating-point outputs of the forward pass, as for no. 2."))],
           witness=number_4_left_out),
)


# §6.3: W_Q used where W_K belongs
def _swap_q_and_k(m):
    return AttentionModel(m.token_table, m.position_table, m.w_k, m.w_q, m.w_v, m.w_o, m.n_heads)


RANDOM = checks.random_model(0, vocab_size=6, context_size=8, width=4, n_heads=2)
SWAP_HAND = np.abs(_swap_q_and_k(MODEL).forward(IDS) - MODEL.forward(IDS)).max()
SWAP_RANDOM = np.abs(_swap_q_and_k(RANDOM).forward(IDS) - RANDOM.forward(IDS)).max()


def identities_only_for_hand_computation(claim):
    facts = {"they hide mistakes": SWAP_HAND == 0.0 and SWAP_RANDOM > 0.1,
             "they cannot be split": split_heads(np.eye(4)[None], 2).shape != (1, 2, 4, 2)}
    return bool(facts[claim])


def not_covered(claim):
    facts = {"training and a deeper model": not any(hasattr(AttentionModel, n) for n in ("backward", "loss", "train")),
             "causality": not checks.check_causality(MODEL.forward, control, IDS, PERTURBED, 2).passed,
             "the cache": CACHE_ERROR != 0.0}
    return bool(facts[claim])


def _transpose_w_o(m):
    return AttentionModel(m.token_table, m.position_table, m.w_q, m.w_k, m.w_v, m.w_o.T, m.n_heads)


def random_models_because(claim):
    identities = np.array_equal(MODEL.w_q, np.eye(4)) and np.array_equal(MODEL.w_k, np.eye(4))
    transposed = {m: np.abs(_transpose_w_o(m).forward(IDS) - m.forward(IDS)).max() for m in (MODEL, RANDOM)}
    facts = {"mistakes change nothing": identities and np.array_equal(MODEL.w_o, MODEL.w_o.T)
             and SWAP_HAND == transposed[MODEL] == 0.0 and min(SWAP_RANDOM, transposed[RANDOM]) > 0.1,
             "the hand-chosen model fails": not checks.check_causality(MODEL.forward, control, IDS, PERTURBED, 2).passed}
    return bool(facts[claim])


section("do not prove",
    choose(T("Why are identity Q/K/V projections suitable only for hand computation?"),
           right=T("They hide a whole class of mistakes, such as W_Q used where W_K belongs", claim="they hide mistakes"),
           why=T("On the §4.1 model such a swap changes the output by 0.0; on a random model it shows at once."),
           wrong=[(T("Identities are numerically unstable"),
                   T("The trouble is invisible mistakes, not stability.")),
                  (T("Identities cannot be split into heads", claim="they cannot be split"),
                   T("They can: the split acts on the projected inputs, whatever the projection; Example 1 of §2.5 uses identities."))],
           witness=identities_only_for_hand_computation),
    choose(T("What do these checks not cover?"),
           right=T("Training, and a multi-layer model with normalisation, an MLP and residual connections", claim="training and a deeper model"),
           why=T("§7 runs the checks again on a whole model."),
           wrong=[(T("Causality", claim="causality"), T("Causality is what they check.")),
                  (T("The KV cache", claim="the cache"), T("No. 6 checks the cache."))],
           witness=not_covered),
    choose(T("Why do §4 and §5 repeat their checks on random models?"),
           right=T("Hand-chosen parameters can make some mistakes change nothing at all", claim="mistakes change nothing"),
           why=T("With W_Q = W_K = I, swapping the two is no change, and the symmetric W_O of §4.1 stays the same when transposed; random parameters make such mistakes show."),
           wrong=[(T("Because the hand-chosen model fails the checks", claim="the hand-chosen model fails"),
                   T("It passes them; the point is what it cannot show.")),
                  (T("To measure speed"), T("Speed is not the point."))],
           witness=random_models_because),
)


# §6.4
def after_a_new_layer(claim):
    leaky = checks.check_causality(
        lambda t: checks.forward_with(MODEL, t, before=checks.leaky_time_normalization),
        lambda t: checks.forward_with(MODEL, t, before=checks.leaky_time_normalization, causal=False),
        IDS, PERTURBED, 2)
    x = checks.leaky_time_normalization(MODEL.embed(IDS)[None])
    weights_fine = checks.upper_right_is_zero(checks.attention_weights(x, MODEL.w_q, MODEL.w_k, 2))
    attention_alone = checks.check_causality(MODEL.forward, control, IDS, PERTURBED, 2).passed
    facts = {"the whole model again": not leaky.passed,
             "one layer is enough": attention_alone and leaky.passed,
             "the weights only": weights_fine and leaky.passed}
    return bool(facts[claim])


def saved_with_the_parameters(claim):
    one_head = AttentionModel(MODEL.token_table, MODEL.position_table, MODEL.w_q, MODEL.w_k, MODEL.w_v, MODEL.w_o, 1)
    heads_matter = np.abs(one_head.forward(IDS) - MODEL.forward(IDS)).max() > 0.01
    vocabulary_matters = encode("风", build_vocab(["春雨风雪"])) != encode("风", VOCAB)
    try:
        MODEL.forward(np.array([BOS] + [3] * 8))
        length_matters = False
    except ValueError:
        length_matters = True
    length_in_parameters = MODEL.position_table.shape[0] == 8       # the rows of P
    facts = {"heads and vocabulary": heads_matter and vocabulary_matters and length_in_parameters and length_matters,
             "the parameters only": not (heads_matter or vocabulary_matters or length_matters)}
    return bool(facts[claim])


def number_of_wind(claim):
    return (VOCAB.index("风"), build_vocab(["春雨风雪"]).index("风")) == claim


section("whole model adds",
    choose(T("A normalisation layer is added to a model whose attention passed the causality checks. What should you do?"),
           right=T("Run them again on the whole model", claim="the whole model again"),
           why=T("`check_causality` takes any forward function and applies unchanged."),
           wrong=[(T("Nothing: one layer that passed is enough", claim="one layer is enough"),
                   T("The time-axis normalisation of §4.7 is a counter-example.")),
                  (T("Check the attention weights only", claim="the weights only"),
                   T("Zeros above the diagonal do not mean that nothing leaks."))],
           witness=after_a_new_layer),
    choose(T("What must be saved together with the parameters?"),
           right=T("The head count and the vocabulary (the table length is already the number of rows of P)", claim="heads and vocabulary"),
           why=T("Change the head count or the vocabulary alone and the same parameters describe a different function, or a model that cannot run at all; the table length is fixed by P itself."),
           wrong=[(T("Only the parameters", claim="the parameters only"),
                   T("Adding 雪 to the vocabulary, for example, moves the id of 风.")),
                  (T("The random seed"),
                   T("The seed does not change the function that the parameters describe."))],
           witness=saved_with_the_parameters),
    choose(T("After 雪 is added to the vocabulary, what happens to the id of 风?"),
           right=T("It moves from {before} to {after}", before=VOCAB.index("风"), after=build_vocab(["春雨风雪"]).index("风"),
                   claim=(5, 6)),
           why=T("The vocabulary is sorted by code point, and 雪 comes before 风."),
           wrong=[(T("It stays the same", claim=(5, 5)), T("The new character lands before it.")),
                  (T("It becomes 0, `<unk>`", claim=(5, 0)),
                   T("风 is still in the vocabulary."))],
           witness=number_of_wind),
)
