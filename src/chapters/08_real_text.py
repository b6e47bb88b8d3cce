# §8 The payoff on real text: the decoder of §7 trained with and without the mask on verse in
# the page's language (lib/corpus/verse_{zh,en,ru}.txt); the bound L* now measures only
# memorisation, and the unmasked model's low training loss is worthless once it has to write.
# Trilingual source: see tools/nbsource.py.  Cells tagged "page-text" print something measured
# on the page's own text, so their outputs differ between the languages
# (tests/test_language_parity.py compares them by kind only).

md(r"""
# 8 The payoff: real text

§7 trained the decoder on the mirror language, a corpus that offers two aids that real text lacks. First, a model that had learned the rule came close to the causal bound $\mathcal{L}^*$ of §7.2, so a small distance to $\mathcal{L}^*$ meant there was little left to learn. Second, a rule said at once whether a generated line was right. This section trains the same decoder ($D=16$, $H=2$, $L=2$; Adam, learning rate 0.01, 300 steps, five seeds) on Shakespeare's Sonnets 1–20, once with the mask and once without. Then it lets both models write. All three texts ship with the course in `lib/corpus/`; its README gives their sources (all in the public domain) and says what each file leaves out. The three texts:

| edition | text | lines | characters |
| --- | --- | --- | --- |
| 中文 | 《唐诗三百首》 (*Three Hundred Tang Poems*), 141 of its pentasyllabic poems, one couplet per line | 580 | 6960 |
| English | Shakespeare, *Sonnets* 1–20 | 280 | 12,132 |
| Русский | Pushkin, *Eugene Onegin*, chapter 1, stanzas I–XXX | 369 | 9342 |
""")

code(r"""
import pathlib

import numpy as np
import matplotlib.pyplot as plt

import lib
from lib import layers
from lib.data import BOS, EOS, IGNORE, UNK, build_vocab, collate, decode
from lib.decoder import Decoder, train
""")

md(r"""
## 8.1 The texts, and why $\mathcal{L}^*$ is not a bound for the language

Each line of a file is one line of verse, except in the Chinese text, where it is a couplet of two five-character lines. As in §7.2, some lines never appear in training; here every eighth line is held out (§7.2 held out every seventh). The vocabulary is built from the training lines (§1.2), so a character that occurs only in held-out lines becomes `<unk>`. The cell below reads all three texts and prints, for each of them:

1. its language;
2. its number of lines: all, training, held out;
3. its number of characters;
4. the vocabulary size $\lvert\mathcal V\rvert$, special tokens included;
5. $C$, one more than the longest line;
6. its first line.
""")

code(r"""
folder = pathlib.Path(lib.__file__).parent / "corpus"
#en one text per language of the course, in the course's order
texts = {lang: (folder / f"verse_{lang}.txt").read_text(encoding="utf-8")
         for lang in "zh en ru".split()}
texts = {lang: text.splitlines() for lang, text in texts.items()}

def split(lines):
    #en the training lines and the held-out lines (every eighth)
    return ([line for n, line in enumerate(lines) if n % 8 != 7],
            lines[7::8])

for lang, lines in texts.items():
    corpus, held_out = split(lines)
    print(lang, len(lines), len(corpus), len(held_out),
          sum(map(len, lines)), len(build_vocab(corpus)),
          1 + max(map(len, lines)))
    print(lines[0])
    assert len(set(lines)) == len(lines)  #en no line occurs twice
#en lines, characters and different characters of each text
assert ([(len(lines), sum(map(len, lines)), len(set("".join(lines))))
         for lines in texts.values()]
        == [(580, 6960, 1372), (280, 12132, 55), (369, 9342, 75)])
#en a Chinese line is a couplet: five characters and a mark, twice
couplets = [all(len(line) == 12 and line[5] in "，？"
                    and line[11] in "。？！" for line in lines)
             for lines in texts.values()]
assert couplets == [True, False, False]
""")

md(r"""
The argument of §7.2 still holds. No line occurs twice, so the best a causal model can do is to give every training line the same probability, one over the number of training lines. As in §7.2, no causal model can bring the loss below $\mathcal{L}^*$: the number of training lines times the natural logarithm of that number, divided by the number of scored targets (in §7.2, 216 lines and 1666 scored targets: $216 \ln 216 / 1666$). The cell below computes it both ways for each text, as §7.2 did: with this formula, and by counting which targets follow each prefix.

But $\mathcal{L}^*$ is the loss of a model that has learned the training lines by heart and gives every other line probability 0. In the mirror language the rule level, 0.7169, came close to it (0.6969); here no such level exists, and none of the reference points below comes anywhere near it. For $p = 1, \dots, 8$, the second printed row of each text gives the share of held-out lines whose first $p$ characters also begin some training line. It shows how quickly the counting argument of §7.2 runs out of data. After eight characters (three in the Chinese text), almost no held-out line still begins like a training line, so counting what follows each prefix has nothing left to say. The lowest loss a causal model could reach on the language of the verse, rather than on these lines, cannot be computed: it would take the true probability of every possible line.

What remains are reference points, not bounds: losses to compare with, which a model may well go below. The third row shows two of them and one more number:

1. $\ln \lvert\mathcal V\rvert$, the loss of a uniform guess;
2. the loss of the unigram model (character frequencies) on the held-out lines: it counts the characters of the training lines, with every count raised by 1 so that no character gets probability 0;
3. the share of the held-out lines' characters that are `<unk>`. It is 8% for the Chinese text, which has more than a thousand different characters, 0 for the English text and 0.1% (one character) for the Russian one.
""")

code(r"""
def reference_points(lines):
    corpus, held_out = split(lines)
    vocab = build_vocab(corpus)
    inputs, targets = collate(corpus, vocab)  # (N, C), (N, C)
    n_scored = int((targets != IGNORE).sum())
    memorised = len(corpus) * np.log(len(corpus)) / n_scored
    #en prefix -> how often each target follows it, as in §7.2
    follow = {}
    for b, t in zip(*np.nonzero(targets != IGNORE)):
        after = follow.setdefault(tuple(inputs[b, :t + 1]), {})
        after[targets[b, t]] = after.get(targets[b, t], 0) + 1
    counted = -sum(k * np.log(k / sum(after.values()))
                   for after in follow.values()
                   for k in after.values()) / n_scored
    assert abs(counted - memorised) < 1e-12
    starts = {line[:p] for line in corpus for p in range(1, 9)}
    still_seen = [np.mean([line[:p] in starts for line in held_out])
                  for p in range(1, 9)]
    held = collate(held_out, vocab)[1]
    scored = held[held != IGNORE]
    frequency = np.bincount(targets[targets != IGNORE],
                            minlength=len(vocab)) + 1.0
    unigram = -np.mean(np.log(frequency / frequency.sum())[scored])
    return (memorised, still_seen, np.log(len(vocab)), unigram,
            np.mean(scored[scored != EOS] == UNK))

reference = {lang: reference_points(lines) for lang, lines in texts.items()}
for lang, (memorised, still_seen, log_v, unigram, unk) in reference.items():
    print(lang, round(memorised, 4))
    print(np.round(still_seen, 3))
    print(round(log_v, 4), round(unigram, 4), round(unk, 3))
    assert still_seen[0] > 0.5 and still_seen[-1] < 0.05
#en <unk> among the held-out characters: 8% in zh, 0 in en, 0.1% in ru
assert [round(ref[4], 3) for ref in reference.values()] == [0.079, 0, 0.001]
""")

md(r"""
From here on, the models train on the English text.
""")

code(r"""
PAGE = "{{lang}}"  #en the language of this edition
lines = texts[PAGE]
corpus, held_out = split(lines)
vocab = build_vocab(corpus)
C = 1 + max(map(len, lines))
memorised, _, _, unigram, _ = reference[PAGE]
train_inputs, train_targets = collate(corpus, vocab)
held_inputs, held_targets = collate(held_out, vocab)
""")

md(r"""
## 8.2 Training with and without the mask

Each model is trained five times, with initialisation seeds 0 to 4 and, for each run, a batch seed one larger; at each seed both models start from the same parameters and see the same batches. The five runs train side by side as one stack of five decoders (`Decoder.stack`, as in the code of §7.3). A batch holds 16 lines, half as many as in §7, because these lines are longer: up to $C - 1$ characters, compared with 7 in the mirror language. Figure 8.1 shows the batch loss at every training step $\tau$ for the ten runs, with the causal bound $\mathcal{L}^*$ (dashed) and $\ln \lvert\mathcal V\rvert$ (dotted).
""")

code(r"""
SEEDS = range(5)

def train_five(causal):
    #en five decoders of §7's size, one per seed, trained as one stack;
    #en returns the stack and the batch losses, (300, 5)
    five = Decoder.stack([Decoder.init(len(vocab), C, 16, 2, 2, seed=s)
                          for s in SEEDS])
    losses = train(five, corpus, vocab, steps=300, batch_size=16, lr=0.01,
                   causal=causal, seed=[s + 1 for s in SEEDS])
    return five, losses

masked, masked_losses = train_five(True)
""")

code(r"""
unmasked, unmasked_losses = train_five(False)
""")

code(r"""
fig, ax = plt.subplots(figsize=(5.4, 3.6))
steps = np.arange(1, 301)
for s in SEEDS:
    #en zorder 3: the masked runs are drawn over the unmasked ones
    ax.plot(steps, masked_losses[:, s], color="C0", linewidth=1.2, zorder=3,
            label="causal=True" if s == 0 else None)
    ax.plot(steps, unmasked_losses[:, s], color="C1", linewidth=1.2,
            label="causal=False" if s == 0 else None)
ax.axhline(memorised, color="black", linestyle="--", linewidth=1,
           label=r"$\mathcal{L}^*$")
ax.axhline(np.log(len(vocab)), color="gray", linestyle=":", linewidth=1.5,
           label=r"$\ln |\mathcal{V}|$")
ax.set_yscale("log")
#en labels at 1 and 3 times each power of ten, as plain numbers
ax.yaxis.set_major_locator(plt.LogLocator(subs=(1.0, 3.0)))
ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:g}"))
ax.yaxis.set_minor_formatter(plt.NullFormatter())
ax.set_xlabel(r"$\tau$", fontsize=14)
ax.set_ylabel(r"$\mathcal{L}$", fontsize=14)
ax.tick_params(labelsize=13)
ax.grid(True, alpha=0.3)
ax.legend(fontsize=12, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2,
          frameon=False)
fig.tight_layout()
#en the masked model stays far above the bound at every step; over the
#en last 50 steps the unmasked one is below the masked one
last = {True: masked_losses[-50:].mean(axis=0),
        False: unmasked_losses[-50:].mean(axis=0)}
assert np.all(masked_losses > 5 * memorised)
assert np.all(last[False] < last[True])
plt.show()
""", alt="Ten training curves, the batch loss on a logarithmic axis against the training step. The five masked runs (causal=True) fall from about ln |V| and stay well above the dashed line of the bound L*; the five unmasked runs (causal=False) fall further, most of them far below the masked runs. A dotted line marks ln |V|.")

md(r"""
The masked model's batch loss stays above five times $\mathcal{L}^*$ at every step and every seed, on each of the three texts; each language's page asserts this for its own text. In §7 a loss 0.03 above the bound meant that the model had learned the rule and had nothing useful left to learn, except which lines the corpus happens to leave out. Here the distance says nothing: the bound measures memorising these lines, not knowing the language.

The cell below prints one row per seed, with these columns:

1. the seed;
2. the masked model's training loss: the trained model's loss over all training lines, the quantity the bound $\mathcal{L}^*$ holds for;
3. its loss on the held-out lines;
4. the unmasked model's training loss (the whole line in view, as in training);
5. its loss on the held-out lines, computed the same way;
6. its loss on the held-out lines with the future hidden, as in §7.3 (row $t$ computed from inputs $0, \dots, t$ alone);
7. whether the unmasked model's training loss is below $\mathcal{L}^*$.

For the masked model, hiding the future changes nothing, and the cell asserts that too.
""")

code(r"""
def training_loss(model, causal, size=128):
    #en each model's loss over all training lines, in batches of 128 lines
    #en weighted by their scored targets, (5,)
    total = 0.0
    for b in range(0, len(corpus), size):
        inputs, targets = (np.stack([a[b:b + size]] * 5)
                           for a in (train_inputs, train_targets))
        total += (model.loss(inputs, targets, causal)
                  * np.sum(targets[0] != IGNORE))
    return total / np.sum(train_targets != IGNORE)

def hidden_future_logits(model, ids, causal):
    #en row t is computed from inputs 0..t alone (§7.3)
    return np.stack([model.forward(ids[..., :t + 1], causal)[..., -1, :]
                     for t in range(ids.shape[-1])], axis=-2)

#en the held-out lines once for each model of a stack, (5, lines, C)
every_inputs, every_targets = (np.stack([a] * 5)
                               for a in (held_inputs, held_targets))
trained = {causal: training_loss(model, causal)
           for causal, model in ((True, masked), (False, unmasked))}
held = {causal: model.loss(every_inputs, every_targets, causal)
        for causal, model in ((True, masked), (False, unmasked))}
hidden = {causal: layers.cross_entropy_forward(
              hidden_future_logits(model, every_inputs, causal),
              every_targets)[0]
          for causal, model in ((True, masked), (False, unmasked))}
for s in SEEDS:
    print(s, *(f"{loss[s]:.3f}" for loss in (trained[True], held[True],
                                             trained[False], held[False],
                                             hidden[False])),
          trained[False][s] < memorised)
assert np.all(np.abs(hidden[True] - held[True]) < 1e-12)
assert np.all(trained[True] > 5 * memorised)
assert np.all(trained[False] < trained[True])
assert np.all(held[False] < held[True])
assert np.all(hidden[False] > held[True] + 2)
#en below the bound at none of the 5 seeds in zh, 4 in en, all 5 in ru;
#en better than character frequencies in en and ru, not in zh
below = int(np.sum(trained[False] < memorised))
assert below == dict(zip("zh en ru".split(), (0, 4, 5)))[PAGE]
#en yet batch losses are below it on every text: of the 1500, only one in
#en zh (the last step of seed 1), more than a hundred in en and in ru
dips = np.argwhere(unmasked_losses < memorised).tolist()
assert (len(dips) > 100 if PAGE in "en ru".split() else dips == [[299, 1]])
assert np.all(held[True] < unigram) == (PAGE in "en ru".split())
""", tags=("page-text",))

md(r"""
At every seed, on each of the three texts:

* the unmasked model's training loss is below the masked model's, and so is its loss on the held-out lines, provided that this loss is computed the way the model was trained, with the whole line in view. A held-out set alone does not catch the leak: the held-out lines were never trained on, but their targets are still in the input;
* with the future hidden, its loss on the held-out lines is more than 2 above the masked model's. This is the number that matters when the model writes, since the next character of a line does not exist until the model has written it.

A loss below $\mathcal{L}^*$ still proves that the model reads the future, as in §7; but a model that reads the future need not go below it. The unmasked model's loss over all training lines goes below $\mathcal{L}^*$ at all five seeds on the Russian text, at four on the English one, and at none on the Chinese one. A single batch loss can still dip below the bound, on every text: the bound holds for the loss over all training lines, not for a batch of 16 of them. Of the unmasked model's 1500 batch losses (300 steps at each of five seeds), more than a hundred fall below $\mathcal{L}^*$ on the English text and on the Russian one, but only one on the Chinese text, at the last step of seed 1. Figure 8.1 shows them for this edition's text.

On the held-out lines, the masked model beats the unigram model on the English and Russian texts, but not on the Chinese one. Most characters there occur only a few times, and 8% of the held-out lines' characters never occur in training. What a model of this size learns from about 500 couplets therefore carries over poorly to lines it has not read. What it does learn is the form of a line, as §8.3 shows.
""")

md(r"""
## 8.3 Letting them write

Each model now writes (generates, as §7.3 calls it) 40 lines per seed, starting from `<bos>` and sampling every character from the softmax of its logits (temperature 1) until `<eos>` or the end of the position table. The unmasked model cannot use a KV cache (§7.3), so both write without one; for the masked model this changes nothing (§7.5). The cell also checks that no random draw lands within $10^{-10}$ of a boundary between two tokens' cumulative probabilities, so that the lines written cannot depend on rounding in the last digits.

The cell prints:

1. four lines of each model at seed 0, masked first;
2. for each of the three texts, its language, the mean length of a line and how often a character is the same as the one before it;
3. one row per seed with the same two numbers, for the lines of the masked model and then for those of the unmasked model.
""")

code(r"""
def write(model, causal, n_lines, seed):
    #en n_lines lines per model of the stack, sampled at temperature 1;
    #en returns the lines and the closest a draw came to a boundary
    rng = np.random.default_rng(seed)
    ids = np.full((5, n_lines, 1), BOS)
    finished = np.zeros((5, n_lines), dtype=bool)
    closest = np.inf
    for _ in range(C - 1):
        logits = model.forward(ids, causal)[..., -1, :]  # (5, n_lines, V)
        p = np.exp(logits - logits.max(axis=-1, keepdims=True))
        edges = np.cumsum(p, axis=-1) / p.sum(axis=-1, keepdims=True)
        u = rng.random((5, n_lines, 1))
        token = np.minimum((edges <= u).sum(axis=-1), len(vocab) - 1)
        above = np.take_along_axis(edges, token[..., None], axis=-1)
        below = np.take_along_axis(
            np.concatenate([np.zeros_like(u), edges], axis=-1),
            token[..., None], axis=-1)
        gap = np.minimum(u - below, above - u)[..., 0]
        closest = min(closest, gap[~finished].min(initial=np.inf))
        token = np.where(finished, EOS, token)
        finished |= token == EOS
        ids = np.concatenate([ids, token[..., None]], axis=-1)
        if finished.all():
            break
    return [[decode(row[1:], vocab).split("<eos>")[0] for row in rows]
            for rows in ids], closest

def outline(lines):
    #en the mean length of a line, and how often a character is the same
    #en as the one before it
    pairs = [(a, b) for line in lines for a, b in zip(line, line[1:])]
    return (np.mean([len(line) for line in lines]),
            np.mean([a == b for a, b in pairs]))

written = {causal: write(model, causal, 40, seed=0)
           for causal, model in ((True, masked), (False, unmasked))}
for causal in (True, False):
    print(*written[causal][0][0][:4], sep="\n")
#en the three texts: the mean length of a line and how often a character
#en repeats the one before it
for lang, text_lines in texts.items():
    text_length, text_repeats = outline(text_lines)
    print(lang, round(text_length, 1), round(text_repeats, 4))
length, in_text = outline(lines)
by_seed = {causal: np.array([outline(written[causal][0][s]) for s in SEEDS])
           for causal in (True, False)}  # (5, 2) ×2
for s in SEEDS:
    (m_length, m_repeats), (u_length, u_repeats) = (by_seed[True][s],
                                                    by_seed[False][s])
    print(s, round(m_length, 1), round(m_repeats, 3), round(u_length, 1),
          round(u_repeats, 3))
assert min(written[True][1], written[False][1]) > 1e-10
assert np.all(np.abs(by_seed[True][:, 0] / length - 1) < 0.2)
assert (by_seed[True][:, 1].max() < 3 * in_text
        and by_seed[False][:, 1].min() > 10 * in_text)
""", tags=("page-text",))

md(r"""
At seed 0 the masked model's lines are far from poetry, but they have the shape of the text's lines; the unmasked model's lines are full of repeated characters. Two numbers measure that shape: the mean length of a line, and how often a character repeats the one before it. The rows printed for each seed give both numbers. At every seed, on each of the three texts, the masked model's lines are on average within a fifth of the text's mean line length. The masked model repeats the previous character less than three times as often as the text does; the unmasked model does so more than ten times as often.

The likely reason lies in the unmasked model's training: at every position the answer sat in the next position of the input, and the model learned to read it there. When it writes, the next position does not exist yet, and the nearest input it can read is the character it has just written.
""")

md(r"""
## 8.4 Summary

* On real text the argument of §7.2 gives only the causal bound $\mathcal{L}^*$, the loss of learning the training lines by heart. A bound for the language itself cannot be computed. So the fact that the masked model's loss stays above five times $\mathcal{L}^*$ says nothing about what it has left to learn.
* A loss below $\mathcal{L}^*$ proves a leak, but a leaking model need not go below it. The unmasked model's loss with the future hidden shows the leak at every seed on each text: it is more than 2 above the masked model's, even though the unmasked model's training loss and held-out loss, computed as it was trained, are both lower.
* What the models write shows the same: the masked model's lines have the shape of the text's; the unmasked model repeats the character it has just written more than ten times as often as the text does.
* The mask makes training and writing the same task: every position learns from the past alone, because when the model writes, the past is all there is.
""")
