# Questions for §8 (format: tools/quizzes.py). Keys are phrases of the English headings.
# Every witness here computes on the texts and on an untrained decoder, never on a trained one:
# the claims about training are asserted in §8, at five seeds on each text.
import math
from pathlib import Path

import numpy as np

import lib
from lib.data import IGNORE, build_vocab, collate
from lib.decoder import Decoder

FOLDER = Path(lib.__file__).parent / "corpus"
LINES = {path.stem.removeprefix("verse_"): path.read_text(encoding="utf-8").splitlines()
         for path in sorted(FOLDER.glob("verse_*.txt"))}       # one text per edition that has one


def split(lines):
    """The training lines and the held-out lines (every eighth), as §8.1 splits them."""
    return [line for n, line in enumerate(lines) if n % 8 != 7], lines[7::8]


EN_CORPUS, EN_HELD_OUT = split(LINES["en"])
EN_VOCAB = build_vocab(EN_CORPUS)
EN_SCORED = sum(len(line) + 1 for line in EN_CORPUS)                # every character and the final <eos>
EN_BOUND = len(EN_CORPUS) * math.log(len(EN_CORPUS)) / EN_SCORED
RANDOM = Decoder.init(len(EN_VOCAB), 1 + max(map(len, LINES["en"])), 16, 2, 2, seed=3)   # untrained
LINE_IDS = collate(EN_HELD_OUT[:1], EN_VOCAB)[0][0, :12]            # <bos> and the first 11 characters


# §8.1
def memorisation_bound(value):
    inputs, targets = collate(EN_CORPUS, EN_VOCAB)
    n_scored = int((targets != IGNORE).sum())
    assert n_scored == EN_SCORED and len(set(EN_CORPUS)) == len(EN_CORPUS) == 245
    return abs(value - EN_BOUND) <= 0.0006


def a_model_at_the_bound_knows(claim):
    # The model that reaches L* gives each training line the same probability and every other line 0.
    unseen = [line for line in EN_HELD_OUT if line not in set(EN_CORPUS)]
    facts = {"by heart": len(unseen) == len(EN_HELD_OUT) and EN_BOUND < math.log(len(EN_VOCAB)),
             "the language": not unseen,
             "uniform": abs(EN_BOUND - math.log(len(EN_VOCAB))) < 1e-6}
    return bool(facts[claim])


def still_seen(lines):
    """For p = 1 … 8, the share of held-out lines whose first p characters begin a training line (§8.1)."""
    corpus, held_out = split(lines)
    starts = {line[:j] for line in corpus for j in range(1, 9)}
    return [np.mean([line[:j] in starts for line in held_out]) for j in range(1, 9)]


ZH_SEEN = still_seen(LINES["zh"])
ZH_PERCENT = [round(100 * share, 1) for share in ZH_SEEN[:2]]      # the shares the explanation gives


def characters_until_no_held_out_line_is_seen(k):
    assert 0.5 < ZH_SEEN[0] < 1
    # one decimal writes each share exactly (62.5 and 12.5, not 62 and 12): what a learner who counts gets
    assert all(abs(100 * share - shown) < 1e-9 for share, shown in zip(ZH_SEEN, ZH_PERCENT))
    return min(j for j, share in enumerate(ZH_SEEN, 1) if share == 0) == k


section("not a bound for the language",
    number(T("The English text has 245 training lines, and they hold {n} scored targets. What is the causal bound L* of §8.1 for these lines? (3 decimals)",
             n=EN_SCORED),
           answer=EN_BOUND, tolerance=0.0006,
           shown=f"245 ln 245 / {EN_SCORED} ≈ {EN_BOUND:.3f}",
           why=T("The same argument as in §7.2: no line occurs twice, so a causal model does best by giving each of the 245 lines probability 1/245. §8.1 prints L* for all three texts, this one in the row `en`."),
           wrong=[(round(math.log(len(EN_VOCAB)), 4), T("That is ln |𝒱|, the loss of a uniform guess.")),
                  (0, T("Only a model that reads the answer gets near 0."))],
           witness=memorisation_bound),
    choose(T("A masked model reaches the causal bound L* of §8.1 on the training lines. What has it learned?"),
           right=T("The training lines by heart: every other line gets probability 0", claim="by heart"),
           why=T("That is why L* is not a bound for the language: every held-out line is new, and such a model cannot write it."),
           wrong=[(T("The language of the verse", claim="the language"),
                   T("None of the held-out lines is among the training lines, and the model gives each of them probability 0.")),
                  (T("Nothing: the bound is a uniform guess", claim="uniform"),
                   T("A uniform guess costs ln |𝒱|, far more than the bound."))],
           witness=a_model_at_the_bound_knows),
    number(T("What is the smallest prefix length p at which no held-out line of the Chinese text begins with the same p characters as any training line?"),
           answer=3,
           why=T("After one character, {one}% of the held-out lines still begin like some training line; after two, {two}%; after three, none: counting has nothing left to say.",
                 one=ZH_PERCENT[0], two=ZH_PERCENT[1]),
           wrong=[(1, T("After one character, most held-out lines still begin like some training line.")),
                  (13, T("13 is C, one more than the longest line."))],
           witness=characters_until_no_held_out_line_is_seen),
)


# §8.2
def hidden_future_logits(model, ids, causal):
    """Row t computed from inputs 0..t alone, as in writing."""
    return np.stack([model.forward(ids[..., :t + 1], causal)[..., -1, :] for t in range(ids.shape[-1])], axis=-2)


def targets_are_the_next_inputs(lines):
    """Whether every scored target but a line's final <eos> is the input one position later."""
    inputs, targets = collate(lines, EN_VOCAB)
    last = (targets != IGNORE).sum(axis=1) - 1                      # the final <eos> of each line
    before = ((targets != IGNORE) & (np.arange(targets.shape[1]) < last[:, None]))[:, :-1]
    return np.array_equal(targets[:, :-1][before], inputs[:, 1:][before])


def held_out_set_misses_the_leak(claim):
    facts = {"targets in the input": targets_are_the_next_inputs(EN_HELD_OUT),
             "trained on": bool(set(EN_HELD_OUT) & set(EN_CORPUS))}
    return bool(facts[claim])


def hiding_the_future_from_the_masked_model(claim):
    change = float(np.abs(hidden_future_logits(RANDOM, LINE_IDS, True) - RANDOM.forward(LINE_IDS, True)).max())
    control = float(np.abs(hidden_future_logits(RANDOM, LINE_IDS, False) - RANDOM.forward(LINE_IDS, False)).max())
    facts = {"nothing": change < 1e-12 and control > 1e-3, "it rises": change > 1e-3}
    return bool(facts[claim])


def loss_that_counts_when_writing(claim):
    # Writing computes row t from what is written so far, inputs 0..t: as with the future hidden.
    written = np.stack([RANDOM.forward(LINE_IDS[:t + 1], False)[-1] for t in range(len(LINE_IDS))])
    ways = {"hidden": hidden_future_logits(RANDOM, LINE_IDS, False),
            "as trained": RANDOM.forward(LINE_IDS, False)}
    return bool(np.allclose(ways[claim], written, rtol=0, atol=1e-12))


section("Training with and without the mask",
    choose(T("The unmasked model's loss on the held-out lines is lower than the masked model's. Why does the held-out set not catch the leak?"),
           right=T("A held-out line's targets are in its own input, and the unmasked model reads them there", claim="targets in the input"),
           why=T("The target at position t is the input at position t + 1; the lines were never trained on, but the leak does not need that."),
           wrong=[(T("The held-out lines were trained on too", claim="trained on"),
                   T("Every eighth line is held out and none of them is a training line.")),
                  (T("The held-out set is too small"),
                   T("More lines would show the same: each one carries its targets in its input."))],
           witness=held_out_set_misses_the_leak),
    choose(T("What does hiding the future (row t from inputs 0 … t alone) do to the masked model's logits?"),
           right=T("Nothing beyond rounding: with the mask, row t already reads only inputs 0 … t", claim="nothing"),
           why=T("That is causality itself; for the unmasked model the same change moves the logits."),
           wrong=[(T("They change, as for the unmasked model", claim="it rises"),
                   T("The mask already hides every later input.")),
                  (T("It cannot be done for a masked model"),
                   T("It can: the same prefixes go through any model."))],
           witness=hiding_the_future_from_the_masked_model),
    choose(T("Which loss of the unmasked model shows how well it does when it writes?"),
           right=T("The loss with the future hidden", claim="hidden"),
           why=T("When the model writes, row t is computed from what is written so far, inputs 0 … t; the next character does not exist yet."),
           wrong=[(T("Its loss on the held-out lines, computed as it was trained", claim="as trained"),
                   T("Computed that way, row t also reads the inputs after t, which writing never has.")),
                  (T("Its training loss"),
                   T("The training loss also reads the whole line, and it is measured on lines the model was trained on."))],
           witness=loss_that_counts_when_writing),
)


# §8.3
def cache_for_the_unmasked_model(claim):
    old = RANDOM.residual_stream(LINE_IDS[:5], causal=False)[-1][:4]
    new = RANDOM.residual_stream(LINE_IDS[:6], causal=False)[-1][:4]
    masked_old = RANDOM.residual_stream(LINE_IDS[:5])[-1][:4]
    masked_new = RANDOM.residual_stream(LINE_IDS[:6])[-1][:4]
    # "after block 0": the embedding X⁽⁰⁾ of the old positions ignores the new token
    embedded = [RANDOM.residual_stream(LINE_IDS[:n], causal=False)[0][:4] for n in (5, 6)]
    # the feedback of "it can": the stream entering block 1, from which layer 1's keys and values come, moves
    entering_1 = [RANDOM.residual_stream(LINE_IDS[:n], causal=False)[1][:4] for n in (5, 6)]
    assert RANDOM.n_layers == 2 and not np.allclose(*entering_1)
    facts = {"old positions change": not np.allclose(old, new)
             and np.allclose(masked_old, masked_new, rtol=0, atol=1e-12)
             and np.array_equal(*embedded),
             "it can": np.allclose(old, new)}
    return bool(facts[claim])


def what_ends_a_line(claim):
    C = RANDOM.params["position_table"].shape[0]
    ids = np.resize(LINE_IDS, C + 1)                                # <bos> and C characters
    RANDOM.forward(ids[:C])                                         # <bos> and C - 1 characters: the last step
    try:
        RANDOM.forward(ids)
        past_the_table = True
    except ValueError:
        past_the_table = False
    facts = {"eos or table": not past_the_table, "past C": past_the_table}
    return bool(facts[claim])


def repeat_rate(lines):
    """How often a character of the text is the same as the one before it, as §8.3 counts it."""
    return np.mean([a == b for line in lines for a, b in zip(line, line[1:])])


REPEATS = {lang: round(100 * repeat_rate(lines), 1) for lang, lines in LINES.items()}   # percent, per text


def printed_repeat_rates():
    """The repeat rate of each text as §8.3's writing cell prints it on the English page: {lang: rate}."""
    import json
    from tools.quizzes import ROOT
    notebook = json.loads((ROOT / "chapters" / "en" / "08_real_text.ipynb")
                          .read_text(encoding="utf-8"))
    cell = next(c for c in notebook["cells"]
                if c["cell_type"] == "code" and "def write(" in "".join(c["source"]))
    text = "".join("".join(out.get("text", "")) for out in cell["outputs"])
    return {words[0]: float(words[2]) for words in map(str.split, text.splitlines())
            if len(words) == 3 and words[0] in LINES}


def why_it_repeats(claim):
    # The feedback quotes each text's rate: §8.3 prints all three, on every page.
    assert {lang: round(100 * rate, 1) for lang, rate in printed_repeat_rates().items()} == REPEATS
    facts = {"next position": targets_are_the_next_inputs(EN_CORPUS),
             "the text repeats": max(map(repeat_rate, LINES.values())) > 0.1}
    return bool(facts[claim])


section("Letting them write",
    choose(T("Why do both models write without a KV cache?"),
           right=T("The unmasked model cannot: each new token changes the residual stream at the old positions after layer 0, so the stored keys and values of layer 1 would go stale", claim="old positions change"),
           why=T("For the masked model the cache would change nothing (§7.5), so both write the same way."),
           wrong=[(T("A cache would give the unmasked model the same results", claim="it can"),
                   T("Only the stored keys and values of layer 0 would stay valid: they come from the embedding. Those of layer 1 and above come from the residual stream after layer 0, which each new token changes at the old positions when there is no mask (§7.3).")),
                  (T("The lines are too long for a cache"),
                   T("The position table has C rows; a cache of C positions is small."))],
           witness=cache_for_the_unmasked_model),
    choose(T("What ends a line that a model is writing?"),
           right=T("`<eos>`, or the end of the position table: after `<bos>` there is room for C − 1 characters", claim="eos or table"),
           why=T("The position table has C rows, so a model reads at most C positions; §8.3 stops there."),
           wrong=[(T("Nothing: it could go on past C positions", claim="past C"),
                   T("Position C has no row in the table; the model refuses it.")),
                  (T("A `<bos>` in the middle of the line"),
                   T("The sampler treats `<bos>` like any other character, so it does not end the line; `<eos>` or the end of the position table does."))],
           witness=what_ends_a_line),
    choose(T("The unmasked model repeats the character before it far more often than the text does. What is the likely reason?"),
           right=T("In training, the answer at every position sat at the next position of its input; when it writes, the nearest input it can read is the character it has just written", claim="next position"),
           why=T("It learned to read the answer one position ahead; when it writes, that position does not exist yet."),
           wrong=[(T("The text itself repeats characters often", claim="the text repeats"),
                   T("In each text a character is rarely the same as the one before it (§8.3 prints the rates): {zh}% of the time in the Chinese text, {en}% in the English one, {ru}% in the Russian one.",
                     **REPEATS)),
                  (T("Sampling at temperature 1 repeats characters"),
                   T("The masked model samples the same way and repeats them less than three times as often as the text."))],
           witness=why_it_repeats),
)
