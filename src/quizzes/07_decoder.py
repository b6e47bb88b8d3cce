# Questions for §7 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Each question says how its key is checked (tools/quizzes.py, "Witnesses").  The witnesses that
# need the trained models of §7.2 and §7.3 (seed 0) train them once, on first use (a few seconds).
import functools
import math
from collections import Counter, defaultdict

import numpy as np

from lib import checks, layers
from lib.attention import causal_future, masked_softmax
from lib.data import BOS, EOS, IGNORE, build_vocab, collate, decode, encode
from lib.decoder import Decoder, mirror_language, read_mirror_corpus, train

CORPUS = read_mirror_corpus()
LANGUAGE = mirror_language()
VOCAB = build_vocab(CORPUS)
HELD_OUT = [line for line in LANGUAGE if line not in set(CORPUS)]
SCORED = sum(len(line) + 1 for line in CORPUS)                      # every character and the final <eos>
CAUSAL_BOUND = len(CORPUS) * math.log(len(CORPUS)) / SCORED


@functools.cache
def trained(causal):
    """The model of §7.2 (causal=True) or §7.3 (causal=False) at seed 0: the course's settings."""
    model = Decoder.init(len(VOCAB), 8, 16, 2, 2, seed=0)
    train(model, CORPUS, VOCAB, steps=300, batch_size=32, lr=0.01, causal=causal, seed=1)
    return model


def hidden_future_logits(model, ids, causal):
    """Row t computed from inputs 0..t alone, as in generation."""
    return np.stack([model.forward(ids[:, :t + 1], causal)[:, -1] for t in range(ids.shape[1])], axis=1)


RANDOM = Decoder.init(len(VOCAB), 8, 16, 2, 2, seed=3)              # untrained: what holds for any parameters
LINE_IDS = np.array([BOS] + encode(HELD_OUT[8], VOCAB))             # the held-out line of §7.4 and §7.5


# §7.1
def attention_half_in_order(order):
    ids = LINE_IDS[None]
    b = RANDOM.block(0)
    steps = [lambda s: s.update(x=RANDOM.residual_stream(ids)[0]),
             lambda s: s.update(h=layers.layer_norm_forward(s["x"], b["ln1.gain"], b["ln1.bias"])[0]),
             lambda s: s.update(a=layers.multi_head_attention_forward(s["h"], b["w_q"], b["w_k"], b["w_v"],
                                                                      b["w_o"], RANDOM.n_heads)[0]),
             lambda s: s.update(x=s["x"] + s["a"])]
    x = in_order(steps, order)["x"]
    m = layers.layer_norm_forward(x, b["ln2.gain"], b["ln2.bias"])[0]
    x = x + layers.mlp_forward(m, b["w_1"], b["b_1"], b["w_2"], b["b_2"])[0]
    return np.allclose(x, RANDOM.residual_stream(ids)[1], rtol=0, atol=1e-12)


def central_difference_error(claim):
    x = np.random.default_rng(0).normal(size=(3, 4))
    g = np.random.default_rng(1).normal(size=(3, 4))
    exact = layers.gelu_backward(g, layers.gelu_forward(x)[1])
    calls = {"central": 0, "one-sided": 0}

    def f(kind):
        calls[kind] += 1
        return float((g * layers.gelu_forward(x)[0]).sum())

    def one_sided(eps):                                              # (f(θ + ε) − f(θ)) / ε
        base, grad = f("one-sided"), np.empty_like(x)
        for index in np.ndindex(x.shape):
            kept = x[index]
            x[index] = kept + eps
            grad[index] = (f("one-sided") - base) / eps
            x[index] = kept
        return grad

    epsilons = (1e-2, 1e-3)                                          # ε ten times smaller
    central = [np.abs(layers.numerical_gradient(lambda: f("central"), x, eps=eps) - exact).max()
               for eps in epsilons]
    forward = [np.abs(one_sided(eps) - exact).max() for eps in epsilons]
    facts = {"O(ε²)": 50 < central[0] / central[1] < 200 and 5 < forward[0] / forward[1] < 20,
             "exact": central[1] == 0.0,
             "fewer calls": calls["central"] < calls["one-sided"]}
    return bool(facts[claim])


def cross_entropy_averaged_over(claim):
    rng = np.random.default_rng(0)
    logits = rng.normal(size=(2, 4, 10))
    targets = np.array([[3, 4, 2, IGNORE], [5, 2, IGNORE, IGNORE]])
    loss, _ = layers.cross_entropy_forward(logits, targets)
    log_p = logits - np.log(np.exp(logits).sum(axis=-1, keepdims=True))
    picked = np.take_along_axis(log_p, np.maximum(targets, 0)[..., None], axis=-1)[..., 0]
    scored = targets != IGNORE
    means = {"the scored targets": -picked[scored].mean(), "all positions": -picked.mean(),
             "the last position": -picked[:, -1].mean()}
    return abs(loss - means[claim]) < 1e-12


def gradient_check_batch():
    """The model and the batch (ids, targets) of §7.1's gradient check, read from the chapter's code."""
    import ast
    from tools import nbsource
    from tools.quizzes import CHAPTER_DIR
    cell = next(c.text["en"] for c in nbsource.load(CHAPTER_DIR / "07_decoder.py", strict=False)
                if c.kind == "code" and "model.loss_and_grads(check_ids, check_targets)" in c.text["en"])
    found = {node.targets[0].id: eval(compile(ast.Expression(node.value), "§7.1", "eval"),
                                      {"np": np, "IGNORE": IGNORE})
             for node in ast.parse(cell).body if isinstance(node, ast.Assign)
             and isinstance(node.targets[0], ast.Name) and node.targets[0].id in ("check_ids", "check_targets")}
    return Decoder.init(len(VOCAB), 8, 16, 2, 2, seed=0), found["check_ids"], found["check_targets"]


def gradient_check_tokens():
    """The first line §7.1's gradient check prints: the tokens of its batch, read from the page."""
    import ast
    import json
    from tools.quizzes import ROOT
    page = json.loads((ROOT / "chapters" / "en" / "07_decoder.ipynb").read_text(encoding="utf-8"))
    cell = next(c for c in page["cells"] if c["cell_type"] == "code"
                and "model.loss_and_grads(check_ids, check_targets)" in "".join(c["source"]))
    printed = "".join(next(o for o in cell["outputs"] if o.get("name") == "stdout")["text"])
    return ast.literal_eval(printed.splitlines()[0])


ABSENT = sorted(set(range(len(VOCAB))) - set(gradient_check_tokens()))   # tokens the page says are absent
UNSEEN = next(token for token in ABSENT if not VOCAB[token].startswith("<"))  # a letter among them


def unseen_token_row(claim):
    model, ids, targets = gradient_check_batch()
    assert gradient_check_tokens() == sorted(set(ids.ravel().tolist())) and UNSEEN not in ids
    _, grads = model.loss_and_grads(ids, targets)
    row = grads["token_table"][UNSEEN]
    others = np.abs(grads["token_table"][np.unique(ids)]).max()     # the rows of the tokens that occur
    facts = {"exactly 0": np.all(row == 0.0), "rounding": 0 < np.abs(row).max() < 1e-12,
             "like the others": np.abs(row).max() > 0.1 * others}
    return bool(facts[claim])


section("gradient check of the whole decoder",
    order(T("Put the attention half of a pre-LN residual block in order."),
          steps=[T("Read the residual stream X"),
                 T("Layer normalisation"),
                 T("Causal multi-head attention"),
                 T("Add the result back to X")],
          why=T("Pre-LN: normalise first, then the sublayer, then the residual addition."),
          witness=attention_half_in_order),
    choose(T("Why does the gradient check take a central difference, (f(θ + ε) − f(θ − ε)) / (2ε), rather than a one-sided one, (f(θ + ε) − f(θ)) / ε?"),
           right=T("Its truncation error shrinks like ε², that of a one-sided difference only like ε", claim="O(ε²)"),
           why=T("Where truncation dominates (from ε = 10⁻² to 10⁻³, say), make ε ten times smaller and the truncation error of a central difference falls about a hundredfold, that of a one-sided difference only about tenfold; at much smaller ε the rounding error grows instead. Together with the small rounding error at ε = 10⁻⁴ in float64, this keeps every relative error below 10⁻⁶."),
           wrong=[(T("It calls f fewer times than a one-sided difference", claim="fewer calls"),
                   T("It calls f twice for every entry; a one-sided difference calls it once per entry, plus once for f(θ).")),
                  (T("It is exact", claim="exact"),
                   T("It is an approximation too, with an error of order ε²."))],
           witness=central_difference_error),
    choose(T("The token with id {token} (`{letter}`) does not occur in the batch of the gradient check. What gradient reaches row {token} of the token embedding table E?",
             token=UNSEEN, letter=VOCAB[UNSEEN]),
           right=T("Exactly 0", claim="exactly 0"),
           why=T("Row {token} never enters the computation, so the loss does not depend on it; the check skips such entries.",
                 token=UNSEEN),
           wrong=[(T("A tiny number, of the order of rounding", claim="rounding"),
                   T("No arithmetic reaches the row at all, so there is nothing to round.")),
                  (T("About as large as the rows of the tokens that occur", claim="like the others"),
                   T("Only the rows of tokens that occur are read, and only they receive a gradient."))],
           witness=unseen_token_row),
)


def blocked_score_gradient(claim):
    rng = np.random.default_rng(0)
    allowed = ~causal_future(3, 5)                                   # 3 queries after 2 stored keys
    weights = masked_softmax(rng.normal(size=(2, 3, 5)), allowed)
    d_scores = layers.masked_softmax_backward(rng.normal(size=(2, 3, 5)), weights)
    blocked = np.abs(d_scores[:, ~allowed]).max()
    facts = {"exactly 0": blocked == 0.0, "tiny": 0 < blocked < 1e-6,
             "like an allowed score": blocked > 0.1 * np.abs(d_scores[:, allowed]).max()}
    return bool(facts[claim])


def layer_norm_reads(claim):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(5, 6))
    gain, bias = 1 + 0.1 * rng.normal(size=6), 0.1 * rng.normal(size=6)
    changed = {}
    for row in range(5):
        other = x.copy()
        other[row] += rng.normal(size=6)
        out = layers.layer_norm_forward(x, gain, bias)[0]
        changed[row] = np.abs(layers.layer_norm_forward(other, gain, bias)[0][2] - out[2]).max() > 0
    reads = {row for row, c in changed.items() if c}
    return reads == {"only row t": {2}, "rows 0 to t": {0, 1, 2}, "every row": {0, 1, 2, 3, 4}}[claim]


section("gradient check for every operation",
    choose(T("The mask forbids a score. What gradient does that score receive?"),
           right=T("Exactly 0", claim="exactly 0"),
           why=T("Its weight α is exactly 0, and the gradient of a score is its weight times (g − ḡ)."),
           wrong=[(T("A tiny number, since its weight is tiny", claim="tiny"),
                   T("The masked softmax gives a forbidden key a weight of exactly 0, not a small one.")),
                  (T("As large as the gradient of an allowed score", claim="like an allowed score"),
                   T("A forbidden score never reached the output, so it cannot change the loss."))],
           witness=blocked_score_gradient),
    choose(T("Layer normalisation: which input rows does output row t depend on?"),
           right=T("Only row t", claim="only row t"),
           why=T("The mean and the variance are taken over the D features of one row."),
           wrong=[(T("Rows 0 to t", claim="rows 0 to t"),
                   T("That is causal attention; layer normalisation works position by position.")),
                  (T("Every row", claim="every row"),
                   T("It normalises each row over its own features, never across rows."))],
           witness=layer_norm_reads),
    choose(T("What is the cross-entropy averaged over?"),
           right=T("Over the scored targets only", claim="the scored targets"),
           why=T("Padding targets (−100) count neither in the sum nor in the number; their gradient is exactly 0."),
           wrong=[(T("Over all B·T positions", claim="all positions"),
                   T("That would count the padding too.")),
                  (T("Over the last position only", claim="the last position"),
                   T("Every scored position counts, not only the last: the sum runs over all of them."))],
           witness=cross_entropy_averaged_over),
)


# §7.2
def lowest_causal_loss(value):
    inputs, targets = collate(CORPUS, VOCAB)
    counts = defaultdict(Counter)                                    # prefix -> the targets that follow it
    for b, t in zip(*np.nonzero(targets != IGNORE)):
        counts[tuple(inputs[b, :t + 1])][int(targets[b, t])] += 1
    n_scored = int((targets != IGNORE).sum())
    counted = -sum(n * math.log(n / sum(after.values())) for after in counts.values()
                   for n in after.values()) / n_scored
    assert n_scored == SCORED == 1666 and abs(counted - CAUSAL_BOUND) < 1e-12
    return abs(counted - value) <= 0.0006


def held_out_lines(n):
    assert HELD_OUT == LANGUAGE[6::7] and not set(HELD_OUT) & set(CORPUS)
    assert (len(CORPUS), len(LANGUAGE)) == (216, 252)
    return len(HELD_OUT) == n


@functools.cache
def completed(causal):
    """How many held-out words the trained model (seed 0) completes greedily."""
    model, right = trained(causal), 0
    for line in HELD_OUT:
        word = line.split("|")[0]
        ids = [BOS] + encode(word + "|", VOCAB)
        for _ in range(len(word) + 1):
            ids.append(int(np.argmax(model.forward(np.array(ids), causal)[-1])))
        right += decode(ids[1:], VOCAB) == line + "<eos>"
    return right


def loss_below_the_bound_means(claim):
    inputs, targets = collate(CORPUS, VOCAB)
    masked, unmasked = trained(True), trained(False)
    below = {causal: model.loss(inputs, targets, causal) < CAUSAL_BOUND
             for causal, model in ((True, masked), (False, unmasked))}
    facts = {"read the future": below == {True: False, False: True},
             "learned better": completed(False) >= completed(True)}
    return bool(facts[claim])


section("mirror language",
    number(T("What is the lowest loss L* that a causal model can reach on this corpus? (3 decimals)"),
           answer=CAUSAL_BOUND, tolerance=0.0006,
           shown=f"{len(CORPUS)} ln {len(CORPUS)} / {SCORED} ≈ {CAUSAL_BOUND:.3f}",
           why=T("The probabilities of the 216 lines add up to at most 1; the loss is smallest when they are all equal."),
           wrong=[(0, T("Only a model that reads the answer gets near 0.")),
                  (round(math.log(10), 4), T("ln 10 is the loss of a uniform guess among the 10 tokens."))],
           witness=lowest_causal_loss),
    number(T("How many lines of the mirror language never appear in training?"),
           answer=36,
           why=T("One line in seven of the 252 is held out, to test whether the model has learned the rule."),
           wrong=[(216, T("216 is the number of training lines.")),
                  (252, T("252 is every line of the language."))],
           witness=held_out_lines),
    choose(T("What does a loss below L*, measured over the whole training corpus, mean?"),
           right=T("The model has read the future", claim="read the future"),
           why=T("L* bounds every causal model: only a model that reads future inputs (input t+1, which is target t, or later ones) can go below it."),
           wrong=[(T("The model has learned better", claim="learned better"),
                   T("No causal model can bring its loss over the corpus below L*, however well it has learned.")),
                  (T("The learning rate is too high"),
                   T("No learning rate takes a causal model past the bound."))],
           witness=loss_below_the_bound_means),
)


# §7.3 (seed 0)
@functools.cache
def unmasked_losses():
    """(teacher-forced loss, loss with the future hidden) of the model trained without the mask."""
    inputs, targets = collate(CORPUS, VOCAB)
    unmasked = trained(False)
    hidden = layers.cross_entropy_forward(hidden_future_logits(unmasked, inputs, False), targets)[0]
    return unmasked.loss(inputs, targets, False), hidden


def loss_with_the_future_hidden(claim):
    taught, hidden = unmasked_losses()
    facts = {"far above L*": taught < 0.001 and hidden > math.log(10) > CAUSAL_BOUND,
             "unchanged": abs(hidden - taught) < 1e-6, "near L*": abs(hidden - CAUSAL_BOUND) < 0.1}
    return bool(facts[claim])


def cache_for_the_cheater(claim):
    ids = LINE_IDS
    old = RANDOM.residual_stream(ids[:5], causal=False)[1][:4]
    new = RANDOM.residual_stream(ids[:6], causal=False)[1][:4]
    causal_old = RANDOM.residual_stream(ids[:5])[1][:4]
    causal_new = RANDOM.residual_stream(ids[:6])[1][:4]
    # layer 0's keys and values stay fixed: X⁽⁰⁾ = E[x] + P[t] at old positions ignores the new token
    embedded = [RANDOM.residual_stream(ids[:n], causal=False)[0][:4] for n in (5, 6)]
    facts = {"old positions change": not np.allclose(old, new) and np.allclose(causal_old, causal_new, rtol=0,
                                                                                 atol=1e-12)
             and np.array_equal(*embedded),
             "it can": np.allclose(old, new)}
    return bool(facts[claim])


def first_token_of_the_cheater(claim):
    inputs, targets = collate(CORPUS, VOCAB)
    last_scored = targets[:, -1] != IGNORE         # the last column: no input after it
    assert set(targets[last_scored, -1]) == {EOS}  # "its target was always <eos>"
    assert {len(line.split("|")[0]) for line, s in zip(CORPUS, last_scored) if s} == {3}
    assert {len(line.split("|")[0]) for line, s in zip(CORPUS, last_scored) if not s} == {2}
    logits = trained(False).forward(np.array([BOS]), False)[-1]
    p = np.exp(logits - logits.max())
    p /= p.sum()
    first = VOCAB[int(np.argmax(p))]
    assert first != "<eos>" or round(float(p[EOS]), 2) == 0.96       # "about 0.96"
    kind = first if first.startswith("<") else "a letter"
    return claim == kind


section("the model cheats",
    choose(T("At seed 0, what happens to the unmasked model's loss once the future is hidden, as in generation?"),
           right=T("It jumps from about 0.0005 to far above L*, above even ln 10", claim="far above L*"),
           why=T("It learned mostly to read the answer, and only partly to predict from the past; §7.3 finds a loss far above the masked model's at all five seeds."),
           wrong=[(T("Nothing changes", claim="unchanged"),
                   T("That is the masked model: causality, stated another way.")),
                  (T("It comes close to L*", claim="near L*"),
                   T("L* is the lowest loss a causal model can reach. This one relies mostly on reading the answer from later positions: with the future hidden, its loss is above even ln 10."))],
           witness=loss_with_the_future_hidden),
    choose(T("What keeps the unmasked model from using a KV cache?"),
           right=T("The residual stream at old positions changes when a token arrives, so their keys and values above layer 0 are not fixed", claim="old positions change"),
           why=T("The cache relies on causality (§5)."),
           wrong=[(T("The cache is too small"),
                   T("Capacity is not the problem.")),
                  (T("It can; the results match", claim="it can"),
                   T("The stored keys and values would be out of date."))],
           witness=cache_for_the_cheater),
    choose(T("At seed 0, what is the unmasked model's first token when it generates from `<bos>`?"),
           right=T("`<eos>`: given `<bos>` alone, it gives `<eos>` a probability of about 0.96", claim="<eos>"),
           why=T("In training, the only scored position with no input after it was the last position of a line with a 3-letter word, and its target was always `<eos>`."),
           wrong=[(T("`<bos>`", claim="<bos>"), T("No target is ever `<bos>`, so the model never learned to predict it.")),
                  (T("A letter of the alphabet", claim="a letter"),
                   T("Not at seed 0: every line it writes there is empty (other seeds differ; see the tables of all five seeds in §7.3)."))],
           witness=first_token_of_the_cheater),
)


# §7.4
PERTURBED = checks.perturb_future(LINE_IDS, 4, np.random.default_rng(7), vocab_size=len(VOCAB))


def perturbation_on_the_trained_model(claim):
    masked = trained(True)
    result = checks.check_causality(masked.forward, lambda t: masked.forward(t, causal=False), LINE_IDS,
                                    PERTURBED, prefix_length=4, tolerance=0.0)
    assert round(result.control_change, 1) == 2.9
    facts = {"0.0, and the control changes": result.change == 0.0 and result.control_change > 1,
             "rounding": 0 < result.change < 1e-12}
    return bool(facts[claim])


def _prefix_change_per_layer(model, causal):
    before, after = model.residual_stream(LINE_IDS, causal), model.residual_stream(PERTURBED, causal)
    return [float(np.abs(a[:4] - b[:4]).max()) for a, b in zip(before, after)]


def first_leaking_stream(index):
    changes = _prefix_change_per_layer(trained(True), (True, False))          # block 1 unmasked
    return [i for i, c in enumerate(changes) if c > 0][0] == index


def multi_layer_causal_because(claim):
    facts = {"induction over layers": all(c == 0.0 for c in _prefix_change_per_layer(RANDOM, True)),
             "one mask is enough": _prefix_change_per_layer(RANDOM, (False, True))[-1] == 0.0,
             "training": any(c > 0 for c in _prefix_change_per_layer(RANDOM, True))}
    return bool(facts[claim])


section("Causality of the whole model",
    choose(T("On the trained two-layer model, what does the perturbation test show?"),
           right=T("With the mask, the prefix logits change by exactly 0.0; under the negative control they change clearly", claim="0.0, and the control changes"),
           why=T("The same `check_causality` applies unchanged to the whole model."),
           wrong=[(T("Training taught it not to leak, so no control is needed"),
                   T("Without the control, a test that sees no change might simply be blind (§4.4).")),
                  (T("A small change, at the level of rounding", claim="rounding"),
                   T("The change is exactly 0.0."))],
           witness=perturbation_on_the_trained_model),
    number(T("Only block 1 has its mask off, `causal=(True, False)`. In which array X⁽ℓ⁾ of the residual stream does a prefix change first appear? (ℓ = 0 is the embedding)"),
           answer=2,
           why=T("X⁽⁰⁾ and X⁽¹⁾ are computed by the embedding and the masked block 0; the leak enters with block 1, whose output is X⁽²⁾."),
           wrong=[(0, T("The embedding works position by position.")),
                  (1, T("Block 0 is masked; its output X⁽¹⁾ does not depend on the future."))],
           witness=first_leaking_stream),
    choose(T("Why is a multi-layer model still causal?"),
           right=T("By induction over layers: each operation works position by position or reads only j ≤ i", claim="induction over layers"),
           why=T("That is the argument of §4.2, checked here in every layer's output."),
           wrong=[(T("Because one masked layer is enough", claim="one mask is enough"),
                   T("With block 0 unmasked the leak passes through the masked block 1.")),
                  (T("Because of training", claim="training"),
                   T("An untrained model is just as causal: causality comes from the structure."))],
           witness=multi_layer_causal_because),
)


# §7.5: the held-out line of §7.4, through the trained masked model
def _first_layer_only(model, ids):
    first = model.new_cache().layers[0]
    for position, token in enumerate(ids):
        x = layers_embed(model, token, position)
        x = model.block_step(0, x, first)
        for layer in range(1, model.n_layers):
            x = model.block_step(layer, x, model.new_cache().layers[layer])     # no history above layer 0
    return model.output_head(x)[0]


def layers_embed(model, token, position):
    from lib.positions import embed
    return embed(np.array([token]), model.params["token_table"], model.params["position_table"], position)


def first_layer_cached_only(claim):
    masked = trained(True)
    error = float(np.abs(_first_layer_only(masked, LINE_IDS) - masked.forward(LINE_IDS)[-1]).max())
    assert abs(error - 2.0) < 0.1                                     # "by about 2.0" (§7.5 prints 2.0155)
    facts = {"clearly off": error > 0.5, "rounding": error < 1e-12}
    return bool(facts[claim])


def new_cache_returns(claim):
    cache = RANDOM.new_cache()
    facts = {"a DecoderCache of L KVCaches": type(cache).__name__ == "DecoderCache"
             and [type(kv).__name__ for kv in cache.layers] == ["KVCache"] * RANDOM.n_layers,
             "one KVCache": type(cache).__name__ == "KVCache",
             "one shared table": len({id(kv) for kv in cache.layers}) == 1}
    return bool(facts[claim])


def reset_error_on_the_line(claim):
    masked = trained(True)
    cache = masked.new_cache()
    last = [masked.step(int(t), cache, position=0) for t in LINE_IDS][-1]
    error = float(np.abs(last - masked.forward(LINE_IDS)[-1]).max())
    return abs(error - claim) < 0.5


section("cache for every layer",
    choose(T("If only layer 0 is cached, what happens to the logits at the last position?"),
           right=T("They are clearly off: by about 2.0 on the held-out line of §7.5", claim="clearly off"),
           why=T("Every higher layer starts each step from an empty cache and reads only the new token."),
           wrong=[(T("Only rounding errors", claim="rounding"),
                   T("That is what a cache in every layer gives.")),
                  (T("An exception"), T("Nothing raises; the result is just wrong."))],
           witness=first_layer_cached_only),
    choose(T("What does `new_cache()` return?"),
           right=T("A `DecoderCache` holding L `KVCache`s", claim="a DecoderCache of L KVCaches"),
           why=T("Every layer must have a cache of its own."),
           wrong=[(T("One `KVCache`", claim="one KVCache"),
                   T("One cache serves one layer.")),
                  (T("One key–value table shared by all layers", claim="one shared table"),
                   T("Each layer's keys and values come from a different point of the residual stream."))],
           witness=new_cache_returns),
    choose(T("The position is reset to 0 at every step. What is the largest error in the logits at the last position, on the held-out line of §7.5?"),
           right=T("About 14", claim=14),
           why=T("It is the bug of §5.3; here the error is far larger: about 14, compared with at most 0.52 in §5.3."),
           wrong=[(T("0", claim=0), T("The new token gets the wrong position vector.")),
                  (T("About 10⁻¹²", claim=1e-12), T("That is the rounding error of the correct cache."))],
           witness=reset_error_on_the_line),
)


# §7.6
def tying_saves(claim):
    shapes = {name: RANDOM.params[name].shape for name in ("w_head", "token_table", "position_table")}
    d, v = shapes["w_head"]
    assert shapes["token_table"] == (v, d) and d * v == 160              # the head is the transposed table
    sizes = {"D·V": d * v, "D²": d * d, "C·D": int(np.prod(shapes["position_table"]))}
    return sizes[claim] == RANDOM.params["w_head"].size


def several_prompts(claim):
    prompts = np.array([[BOS, 3, 4], [BOS, 5, EOS]])
    try:
        RANDOM.generate(prompts, 2)
        batched = True
    except ValueError:
        batched = False
    one = RANDOM.generate(np.array([BOS, 3, 4]), 2)
    facts = {"one stream at a time": not batched and len(one) == 5, "with right padding": batched,
             "with left padding": batched}
    return bool(facts[claim])


@functools.cache
def tied_gradient_parts():
    """(the table's gradient, the output layer's gradient transposed, central differences) at some entries."""
    inputs, targets = collate(CORPUS[:4], VOCAB)
    model = RANDOM.copy()
    model.params["w_head"] = model.params["token_table"].T.copy()
    _, grads = model.loss_and_grads(inputs, targets)
    table = model.params["token_table"].copy()

    def loss_of():                                                 # reads table, which the differences move
        tied = model.copy()
        tied.params["token_table"], tied.params["w_head"] = table.copy(), table.T.copy()
        return tied.loss(inputs, targets)
    entries = [(int(token), k) for token in np.unique(inputs) for k in (0, 7)]
    numeric = np.array([layers.numerical_partial(loss_of, table, entry, eps=1e-6) for entry in entries])
    pick = tuple(np.array(entries).T)
    return grads["token_table"][pick], grads["w_head"].T[pick], numeric


def tied_gradients(claim):
    table, head, numeric = tied_gradient_parts()
    sums = {"they add up": table + head, "the table's only": table, "the head's only": head}
    return np.abs(sums[claim] - numeric).max() < 1e-6


section("still lacks",
    choose(T("How many parameters would weight tying (W_head = Eᵀ) save in this model?"),
           right=T("D · |𝒱|", claim="D·V"),
           why=T("The output layer would reuse the transposed token embedding table: 160 parameters here."),
           wrong=[(T("D²", claim="D²"), T("W_head has the shape (D, |𝒱|).")),
                  (T("C · D", claim="C·D"), T("That is the size of the position table."))],
           witness=tying_saves),
    choose(T("Can `generate` continue several prompts of different lengths at once?"),
           right=T("No: it continues one unpadded stream at a time", claim="one stream at a time"),
           why=T("Generating for a batch needs each row's own length and position, and a mask over the padded keys."),
           wrong=[(T("Yes, with right padding", claim="with right padding"),
                   T("A right-padded row must first be cut to its real length (§5.7), and `generate` continues one such stream at a time, not a padded batch.")),
                  (T("Yes, with left padding", claim="with left padding"),
                   T("The cache does not support left padding (§5.7)."))],
           witness=several_prompts),
    choose(T("With weight tying, what happens to the two gradients of the shared table in the backward pass?"),
           right=T("They add up: the embedding's and the output layer's", claim="they add up"),
           why=T("The table is used twice, so its gradient is the sum of both uses."),
           wrong=[(T("Only the embedding's counts", claim="the table's only"),
                   T("The output layer uses the same numbers and sends back its own gradient.")),
                  (T("Only the output layer's counts", claim="the head's only"),
                   T("The embedding uses the table too."))],
           witness=tied_gradients),
)
