# §7 Putting it together: a small decoder of L pre-LN blocks trained in NumPy on a
# pattern language; every backward checked; the model trained without the mask
# cheats; causality and the per-layer cache checked on the whole model.
# Trilingual source: see tools/nbsource.py.

md(r"""
# 7 Putting it together: a small decoder trained in NumPy

§1–§6 checked each part on its own: the mask applied before softmax, the split into heads and the merge through $W_O$, the position table and its backward pass, the KV cache with its position offset. Most of it used one layer with hand-chosen parameters, and none of it was trained. Two questions remain open:

1. **How much does the mask matter?** What happens if we leave it out during training? Training then looks like a great success: the loss falls almost to 0. But the model has learned to read the answer from the future, and once the future is hidden, as it is when the model generates, its loss is higher than that of a uniform guess ($\ln 10$).
2. **Does it all still hold for a model of several layers?** A trained model of $L$ layers must pass the same causality and cache checks as the one-layer model.

This section assembles the parts into a real decoder, trains it in NumPy, and answers both questions. Figure 7.1 shows the decoder that §7.1 builds, in the order of the computation; each box names the parameters `lib.decoder` gives it.

![The decoder of §7 as a block diagram, from top to bottom in the order of the computation: the token ids x; the input X = E of x plus P of t; then L pre-LN blocks, each of which normalises the residual stream X, passes it through causal multi-head attention and adds the result back, then normalises it again, passes it through the MLP and adds that back; after the blocks a last layer normalisation and W_head, which give the logits of the next token at every position.](figures/decoder.svg)
""")

code(r"""
import time
from collections import Counter, defaultdict

import numpy as np
import matplotlib.pyplot as plt

from lib import checks, layers
from lib.attention import causal_allowed, masked_softmax
from lib.data import BOS, EOS, IGNORE, build_vocab, collate, decode, encode
from lib.decoder import (Adam, Decoder, is_mirror_line, mirror_language,
                         pick_token, read_mirror_corpus, train)
from lib.layers import numerical_gradient, numerical_partial, relative_error
from lib.positions import embed, embed_backward
""")

md(r"""
## 7.1 The model and a gradient check of the whole decoder

The decoder is a stack of $L$ **pre-LN** residual blocks, numbered from 0; a block is also called a layer, so block $\ell$ and layer $\ell$ are the same thing. Block 0 reads $X^{(0)}_t = E[x_t] + P[t]$, the input vector of §3. Block $\ell$ reads $X^{(\ell)}$ and updates it twice. Each time, it normalises $X$, passes the result through a sublayer and adds the sublayer's output back to $X$:

$$
X \leftarrow X + \mathrm{Attn}(\mathrm{LN}_1(X)), \qquad X \leftarrow X + \mathrm{MLP}(\mathrm{LN}_2(X)).
$$

Attn is the causal multi-head attention of §2 (with $W_O$, no biases). MLP is the position-wise network that maps a row $z$ to $\mathrm{GELU}(z W_1 + b_1) W_2 + b_2$. After the $L$ blocks comes one more layer normalisation, and finally the output layer $W_\text{head}$ of shape $D \times \lvert\mathcal V\rvert$ maps every position to $\lvert\mathcal V\rvert$ logits, the unnormalised log-probabilities of the next token. The rows $X$ that flow along this path are called the **residual stream**.

The operations of the model live in `lib/layers.py`, in the style of Andrej Karpathy's llm.c (a GPT-2 trainer in plain C): each `*_forward` sits next to its `*_backward`. There are two exceptions. The attention forwards stay in `lib/attention.py` with the code of §1 and §2 (`lib.layers` re-exports them), and `embed` sits with its backward in `lib/positions.py`. The file takes its name from llm.c, which calls each such operation a layer. In this course's prose, however, layer $\ell$, or a layer of the model, always means a block; only the output layer $W_\text{head}$ and layer normalisation keep their usual names.

A forward function returns its output and `saved`, the intermediate results its backward pass needs; the backward function takes the upstream gradient `d_out` and `saved` and returns the gradients of the inputs and parameters. `saved` is not the KV cache of §5: it is kept for this one backward pass and then thrown away. `lib.decoder.Decoder` chains these operations; all parameters sit in one dict, `params`, and `backward` returns a dict of gradients with the same keys.

Below we build a small model with random parameters: $\lvert\mathcal V\rvert=10$, $C=8$, $D=16$, $H=2$, $L=2$, 6912 parameters in all.
""")

code(r"""
model = Decoder.init(vocab_size=10, context_size=8, width=16, n_heads=2,
                     n_layers=2, seed=0)
print(model)
for name, value in model.params.items():
    if not name.startswith("blocks.1."):
        print(name, value.shape)
assert model.parameter_count() == 6912
""")

md(r"""
### How to check a backward pass

For a scalar function $f$ and one entry $\theta$ of a parameter, the central difference

$$
\frac{f(\theta + \varepsilon) - f(\theta - \varepsilon)}{2\varepsilon},
$$

with every other entry held fixed, differs from the true partial derivative by only $O(\varepsilon^2)$. We measure how far the backward pass is from the central differences by the **relative error**: the largest absolute difference between them, divided by the larger of their largest absolute entries.

The choice of $\varepsilon$ matters: too large and the truncation error $O(\varepsilon^2)$ grows; too small and the floating-point rounding error (about $10^{-16}/\varepsilon$) grows. We always use float64 and $\varepsilon = 10^{-4}$. Truncation and rounding together then give an error of about $10^{-10}$ to $10^{-7}$; a wrong backward pass typically gives $10^{-2}$ or more (§7.7 shows one). Where the function is linear in the entry, only rounding is left, and the error is smaller still (§7.7). Exactly where an error falls in that range depends on rounding, and so on the machine. We therefore print and assert only what matters: that each error is below a bound. The bound is $10^{-6}$ unless a cell says otherwise.
""")

code(r"""
def error_claim(error, bound=1e-6):
    assert error < bound
    return f"< {bound:.0e}"
""")

md(r"""
**The whole decoder.** We compute every gradient on a small batch, then take one random entry from each of 8 of the model's parameter arrays and compare it with a central difference. The first printed line lists the tokens that occur in the batch; each line after it gives the parameter's name, the entry, the gradient of the backward pass, the central difference, and the bound the relative error stays under, $10^{-6}$. Entries whose gradient is exactly 0 (for example a row of $E$ for a token that does not occur in the batch) are skipped, since a relative error means nothing there. Training only needs the gradients to be correct, so the derivations can wait: §7.7, which comes after the experiment, derives the backward pass of each operation and checks it at every entry.
""")

code(r"""
# (B, T)
check_ids = np.array([[1, 3, 3, 5, 3, 3, 2, 2],
                      [1, 8, 4, 9, 5, 9, 4, 8]])
check_targets = np.array([[3, 3, 5, 3, 3, 2, IGNORE, IGNORE],
                          [8, 4, 9, 5, 9, 4, 8, 2]])
loss, grads = model.loss_and_grads(check_ids, check_targets)
print(sorted(set(check_ids.ravel().tolist())))
names = ["token_table", "position_table", "blocks.0.w_q",
         "blocks.0.ln1.gain", "blocks.1.w_o", "blocks.1.b_1",
         "blocks.1.w_2", "w_head"]
pick = np.random.default_rng(16)
worst = 0.0
for name in names:
    nonzero = np.argwhere(grads[name] != 0)
    index = tuple(int(i) for i in nonzero[pick.integers(len(nonzero))])
    numeric = numerical_partial(
        lambda: model.loss(check_ids, check_targets), model.params[name],
        index, eps=1e-4)
    analytic = float(grads[name][index])
    error = abs(analytic - numeric) / max(abs(analytic), abs(numeric))
    worst = max(worst, error)
    print(name, index, f"{analytic:.6f}", f"{numeric:.6f}",
          error_claim(error))
assert worst < 1e-6
""")

md(r"""
## 7.2 The mirror language and training

To tell learning from cheating, we want a corpus whose rule fits in one sentence, so that we can check directly what the model generates. For this section we designed a small artificial language, the **mirror language**:

> Every line is a word of 2 or 3 letters, a bar `|`, and the same word reversed.

The alphabet has six symbols, two from each of the course's three scripts (Latin, Cyrillic and Chinese): `a b д ж 春 雨`. We call all six of them *letters*. Examples are `春ж雨|雨ж春` and `ab|ba`. The language has $6^2 + 6^3 = 252$ lines. The corpus shipped with the course, `lib/corpus/mirror.txt`, holds 216 of them. The other 36 (every seventh line in the order of `mirror_language()`) **never appear in training** and are kept for testing: a model that has really learned the rule should also reverse the words it was never asked to reverse.

The vocabulary follows §1: the 3 special tokens plus the 7 characters of the corpus (6 letters and `|`), so $\lvert\mathcal V\rvert = 10$. `collate` pads on the right: a 2-letter line is 2 characters shorter than a 3-letter one. In a batch that also holds a 3-letter line, the 2-letter line's inputs are therefore padded with two `<eos>` and its targets with two −100 (`IGNORE`), up to the 8 positions of the longer line.
""")

code(r"""
language = mirror_language()
corpus = read_mirror_corpus()
held_out = [line for line in language if line not in set(corpus)]
vocab = build_vocab(corpus)
print(len(language), len(corpus), len(held_out), held_out[:3])
print(vocab, len(vocab))
assert (len(language) == 252 and len(corpus) == 216 and len(held_out) == 36
        and len(vocab) == 10)
assert (all(is_mirror_line(line) for line in language)
        and not set(held_out) & set(corpus))
assert held_out == language[6::7]  #en every seventh line

inputs, targets = collate(corpus, vocab)  # (216, 8), (216, 8)
print(inputs.shape, decode(inputs[0], vocab))
print(inputs[0], targets[0])
assert (inputs.shape == (216, 8)
        and list(targets[0][-2:]) == [IGNORE, IGNORE])
""")

md(r"""
### The lowest loss a causal model can reach

Not every target can be predicted. The first three targets of every line are **free**: after `<bos>` no model can know which of the 6 letters comes next, nor which follows it, and after two letters it is again a guess whether `|` or a third letter comes. Every other target is **decided** by what came before: the `|` after a third letter, and everything after `|`.

This puts a lower bound on the loss, and the bound holds for causal models only. A **causal** model predicts target $t$ from the prefix $x_0, \dots, x_t$ alone: equal prefixes get equal predictions. Multiply the probabilities it gives the targets of one line, from the first letter to `<eos>`, and you get the probability that the model, writing one token at a time, writes this very line. Different lines are mutually exclusive outcomes, so over the 216 different lines of the corpus these probabilities add up to at most 1. The loss over the corpus is the sum of $-\ln(\text{probability of the line})$ over the 216 lines, divided by the number of scored targets. Because the logarithm is concave, the mean of the 216 logarithms is at most the logarithm of the mean probability (Jensen's inequality), and that mean probability is at most 1/216, since the probabilities add up to at most 1. So the sum is at least $216 \ln 216$, with equality when all 216 probabilities equal 1/216. Hence **no causal model can go below** $\mathcal{L}^* = 216 \ln 216 / 1666 \approx 0.6969$ on this corpus (1666 is the number of scored targets). Counting gives the same number: a model that predicts, after every prefix, the frequencies with which the targets follow that prefix in the corpus has the loss $\mathcal{L}^*$. The cell below computes it both ways.

An unmasked model is not bound by this. Its prediction at position $t$ may read input $t+1$, which is target $t$ itself. The product of its probabilities over a line is then no longer the probability that a model writing one token at a time writes that line, and all 216 of these products can be close to 1 at once. **A loss below $\mathcal{L}^*$ is therefore proof that the model has read the future.**

Two more numbers for scale. A model that knows the rule and treats all 252 lines of the language as equally likely has the loss $216 \ln 252 / 1666 \approx 0.7169$, which we call the "rule level" below. A causal model can go lower only by giving the lines of the corpus more than their share of probability, that is, by learning which 36 lines are missing from it; the end of that road is $\mathcal{L}^*$. Guessing uniformly among the $\lvert\mathcal V\rvert$ tokens gives $\ln \lvert\mathcal V\rvert = \ln 10 \approx 2.3026$.
""")

code(r"""
#en prefix -> how often each target follows it
counts = defaultdict(Counter)
for b, t in zip(*np.nonzero(targets != IGNORE)):
    counts[tuple(inputs[b, :t + 1])][int(targets[b, t])] += 1
n_scored = int((targets != IGNORE).sum())
best_causal = (-sum(n * np.log(n / sum(after.values()))
                    for after in counts.values()
                    for n in after.values()) / n_scored)
chance = np.log(len(vocab))
#en each of the 216 lines gets 1/216
every_line_alike = len(corpus) * np.log(len(corpus)) / n_scored
#en each of the 252 lines gets 1/252
rule_level = len(corpus) * np.log(len(language)) / n_scored
print(n_scored, round(best_causal, 4), round(every_line_alike, 4),
      round(rule_level, 4), round(chance, 4))
assert (n_scored == 1666 and round(best_causal, 4) == 0.6969
        and round(chance, 4) == 2.3026)
assert (abs(best_causal - every_line_alike) < 1e-12
        and round(rule_level, 4) == 0.7169)
""")

md(r"""
### One training step

A training step does four things: draw 32 random lines as a batch, pad them on the right with `collate`, compute the loss and every gradient (`loss_and_grads` runs the forward pass, the cross-entropy and the backward pass in one call), and update the parameters with Adam. For every parameter, Adam (also in `lib/decoder.py`) keeps running (exponentially weighted) averages of the gradient and of its square. Each step moves the parameter by the learning rate times the first average divided by the square root of the second (both bias-corrected, with a small constant $\kappa = 10^{-8}$ added to the square root).

On this batch the randomly initialised model has a loss of 2.7056; after one step the loss on the same batch is 2.4152.
""")

code(r"""
model = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
optimiser = Adam(model.params, lr=0.01)
batch_rng = np.random.default_rng(1)
chosen = batch_rng.choice(len(corpus), size=32, replace=False)
# (32, T), (32, T)
batch_inputs, batch_targets = collate([corpus[i] for i in chosen], vocab)
loss_before, grads = model.loss_and_grads(batch_inputs, batch_targets)
optimiser.step(grads)
loss_after = model.loss(batch_inputs, batch_targets)
print(batch_inputs.shape, round(loss_before, 4), round(loss_after, 4))
assert round(loss_before, 4) == 2.7056 and round(loss_after, 4) == 2.4152
""")

md(r"""
### Training

`lib.decoder.train` repeats the step above 300 times. It starts from the same initialisation (random seed 0) and draws its batches with the same random seed (1), so its first batch is the batch above. The learning rate stays at 0.01, with no learning-rate schedule. Figure 7.2 in §7.3 shows this run next to the unmasked one. The cell prints the batch loss at every 50th step, starting with the first (steps 1, 51, …, 251): it falls quickly to about 0.7 and stays there. Training has not stalled: the loss has come close to the bound $\mathcal{L}^*$ computed above, and the loss that remains comes from the free targets, which the past does not decide. Over the whole corpus the trained model's loss is 0.7272: 0.03 above $\mathcal{L}^*$ and 0.01 above the rule level 0.7169. The cell also keeps copies of the model, one before training and one after every 25th step; the subsection "Five seeds" of §7.3 measures their loss.
""")

code(r"""
def every_25_steps(model):
    #en a copy of the model before training and after every 25th step,
    #en for "Five seeds" in §7.3; returns (copies, observe to pass to train)
    copies = [model.copy()]
    def observe(step, model):
        if step % 25 == 0:
            copies.append(model.copy())
    return copies, observe

start = time.perf_counter()
masked = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
masked_copies, observe = every_25_steps(masked)
masked_losses = train(masked, corpus, vocab, steps=300, batch_size=32,
                      lr=0.01, causal=True, seed=1, observe=observe)
masked_seconds = time.perf_counter() - start
masked_loss = masked.loss(inputs, targets)
print(np.round(masked_losses[::50], 4))
print(round(masked_loss, 4), round(masked_loss - best_causal, 2),
      round(masked_loss - rule_level, 2))
assert (round(masked_losses[0], 4) == 2.7056
        and round(masked_loss, 4) == 0.7272)
assert (best_causal <= masked_loss < best_causal + 0.05
        and round(masked_loss - best_causal, 2) == 0.03)
assert round(masked_loss - rule_level, 2) == 0.01
#en stays near 0.7
assert np.all((0.5 < masked_losses[50:]) & (masked_losses[50:] < 1.0))
""")

md(r"""
### Has it learned the rule?

We turn each of the 36 held-out words into a prompt `<bos> word |` and let the model continue with greedy decoding, which takes the most probable token at every step. It writes as many tokens as the word has letters, plus one: the reversed word and an `<eos>`. All 36 completions are right, although none of these lines is in the corpus, and none of these words ever appears there before a bar. The two-letter held-out words, `ba` for example, do occur in the corpus as whole words, but only after a bar, as the reversal of the word before it (`ab|ba`). The three-letter ones occur nowhere in it as whole words: the reversal of a held-out three-letter word is held out too.

Greedy decoding takes a maximum, which a rounding difference could flip if the two largest logits were almost equal. So the cell also checks that, at every greedy choice, the largest logit beats the second by more than $10^{-6}$.
""")

code(r"""
def generate_without_cache(
    model, prompt, n_new, causal, temperature=0.0, seed=0):
    #en no cache: every step runs the full forward pass over the whole prefix
    #en and keeps the last row
    rng = np.random.default_rng(seed)
    ids, margin = list(prompt), np.inf
    for _ in range(n_new):
        logits = model.forward(np.array(ids), causal)[-1]      # (V,)
        top_two = np.sort(logits)[-2:]
        #en how far the greedy choice is from a tie
        margin = min(margin, top_two[1] - top_two[0])
        ids.append(pick_token(logits, temperature, rng))
    return np.array(ids), margin

def completion(model, line, causal):
    word = line.split("|")[0]
    prompt = [BOS] + encode(word + "|", vocab)
    ids, margin = generate_without_cache(
        model, prompt, len(word) + 1, causal)
    return decode(ids[1:], vocab), margin

masked_completions = [completion(masked, line, True) for line in held_out]
masked_right = sum(text == line + "<eos>" for line,
                   (text, _) in zip(held_out, masked_completions))
masked_margin = min(margin for _, margin in masked_completions)
print([text for text, _ in masked_completions[:4]])
print(masked_right, len(held_out), masked_margin > 1e-6)
assert masked_right == 36 and masked_margin > 1e-6
""")

md(r"""
Completion tests only the tokens that greedy decoding picks. The loss on the held-out lines is more direct evidence. A model that knows the rule and treats all 252 lines alike has a loss of $36 \ln 252 / 278 \approx 0.7160$ on the 36 held-out lines (278 is the number of their scored targets). The trained model has 0.7312, only 0.015 more. A model that brought its training loss down to $\mathcal{L}^*$, on the other hand, would have to give all its probability to the 216 lines of the corpus: the held-out lines would get probability 0 and an infinite loss. So this model has learned the rule, not the corpus.
""")

code(r"""
held_inputs, held_targets = collate(held_out, vocab)  # (36, 8), (36, 8)
n_held = int((held_targets != IGNORE).sum())
#en each held-out line gets 1/252
held_rule_level = len(held_out) * np.log(len(language)) / n_held
masked_held_loss = masked.loss(held_inputs, held_targets)
print(n_held, round(masked_held_loss, 4), round(held_rule_level, 4))
assert (n_held == 278 and round(masked_held_loss, 4) == 0.7312
        and round(held_rule_level, 4) == 0.716)
assert held_rule_level < masked_held_loss < held_rule_level + 0.02
""")

md(r"""
## 7.3 Without the mask, the model cheats

Now we change one thing: training passes `causal=False`, so the attention of every layer may read every position. The initial parameters and the order of the batches are those of §7.2. The model trained this way is the **unmasked model**; the model of §7.2, trained with the mask, is the **masked model**.

Under the data protocol of §1, target $t$ is input $t+1$. Without the mask, position $t$ can read input $t+1$, the very answer it must predict. The loss of the last batch falls to about 0.0005, far below $\mathcal{L}^*$, and over the whole corpus (still without the mask) it is about 0.0005 too. As §7.2 showed, only a model that reads the future can do that.
""")

code(r"""
start = time.perf_counter()
unmasked = Decoder.init(len(vocab), 8, 16, 2, 2, seed=0)
unmasked_copies, observe = every_25_steps(unmasked)
unmasked_losses = train(unmasked, corpus, vocab, steps=300, batch_size=32,
                        lr=0.01, causal=False, seed=1, observe=observe)
unmasked_seconds = time.perf_counter() - start
unmasked_loss = unmasked.loss(inputs, targets, causal=False)
print(np.round(unmasked_losses[::50], 4))
print(round(unmasked_losses[-1], 4), round(unmasked_loss, 4))
assert (round(unmasked_losses[-1], 4) == 0.0005
        and round(unmasked_loss, 4) == 0.0005)
assert unmasked_loss < best_causal / 100 < masked_loss
""")

md(r"""
Training time depends on the computer and its load; the cell below prints how long each of the two runs took.
""")

code(r"""
print(f"{masked_seconds:.1f} s", f"{unmasked_seconds:.1f} s")
""", tags=("nbval-ignore-output",))

md(r"""
### Hiding the future

A model generates one token at a time: while it writes the token at position $t+1$, the inputs after position $t$ do not exist yet. To hide the future, we give the model, for every $t$, only the inputs $x_0, \dots, x_t$ (the later rows are simply not there) and score its last output row against target $t$. The loss computed this way measures how good the model is when it generates.

* For the masked model nothing changes: position $t$ reads only $0, \dots, t$ anyway. The logits of the two computations differ by less than $10^{-12}$, and the loss is still 0.7272. This is causality, stated another way.
* For the unmasked model trained from initialisation seed 0, the loss jumps from 0.0005 to 4.4393. That is above even $\ln 10 \approx 2.3026$, the loss of a uniform guess among the 10 tokens. How far above $\ln 10$ it lands depends on the seed (see "Five seeds" below); that it lands far above the masked model does not.

Nor does it help to train without the mask and switch it on only to generate: the solution of exercise dec-4 (exercise set 7) runs such a model with the mask on, and its loss is then worse than a uniform guess as well.
""")
code(r"""
def hidden_future_logits(model, ids, causal):
    #en row t is computed from inputs 0..t alone: the later inputs are never
    #en given to the model
    return np.stack([model.forward(ids[..., :t + 1], causal)[..., -1, :]
                     for t in range(ids.shape[-1])], axis=-2)

masked_hidden = hidden_future_logits(masked, inputs, True)  # (B, T, V)
unmasked_hidden = hidden_future_logits(unmasked, inputs, False)
same = float(np.abs(masked_hidden - masked.forward(inputs)).max())
masked_hidden_loss = layers.cross_entropy_forward(masked_hidden, targets)[0]
unmasked_hidden_loss = layers.cross_entropy_forward(
    unmasked_hidden, targets)[0]
print(round(same, 12), round(masked_hidden_loss, 4),
      round(unmasked_hidden_loss, 4), round(chance, 4))
assert same < 1e-12 and round(masked_hidden_loss, 4) == 0.7272
assert (round(unmasked_hidden_loss, 4) == 4.4393
        and unmasked_hidden_loss > chance)
""")

md(r"""
Figure 7.2 shows the batch loss $\mathcal{L}$ at every training step $\tau$ for both runs (logarithmic vertical axis), with two horizontal lines: the causal bound $\mathcal{L}^*$ and the loss of a uniform guess, $\ln \lvert\mathcal V\rvert$. The masked model runs along $\mathcal{L}^*$; the unmasked model dives about three orders of magnitude below it, which is evidence that it reads the answer, not that it learns better.

Strictly, $\mathcal{L}^*$ bounds the loss over the whole corpus, not the loss of one batch: the masked model's batch loss dips below it at 6 of the 300 steps, by less than 0.01. A batch has a bound too. By the argument of §7.2, a causal model's loss on a batch of 32 different lines cannot go below $32 \ln 32 / (32 \cdot 8) = \ln 32 / 8 \approx 0.43$, since a line has at most 8 scored targets. The unmasked curve is far below that bound as well.
""")

code(r"""
def loss_axes():
    #en axes for the loss L against the training step tau, with the lines L*
    #en and ln V drawn
    fig, ax = plt.subplots(figsize=(5.4, 3.6))
    ax.axhline(best_causal, color="black", linestyle="--", linewidth=1,
               label=r"$\mathcal{L}^*$")
    ax.axhline(chance, color="gray", linestyle=":", linewidth=1.5,
               label=r"$\ln |\mathcal{V}|$")
    ax.set_xlabel(r"$\tau$", fontsize=14)
    ax.set_ylabel(r"$\mathcal{L}$", fontsize=14)
    #en large labels, readable on a small screen
    ax.tick_params(labelsize=13)
    ax.grid(True, alpha=0.3)
    return fig, ax

fig, ax = loss_axes()
steps = np.arange(len(masked_losses))
ax.plot(steps, masked_losses, label="causal=True", linewidth=1.5)
ax.plot(steps, unmasked_losses, label="causal=False", linewidth=1.5)
ax.set_yscale("log")
ax.legend(fontsize=12, loc="center right")
fig.tight_layout()
#en steps whose batch loss is under L*
below_bound = int(np.sum(masked_losses < best_causal))
print(below_bound, round(best_causal - masked_losses.min(), 4),
      round(np.log(32) / 8, 4))
assert (unmasked_losses[-50:].max() < best_causal / 100 < best_causal
        < masked_losses[-50:].min())
assert (below_bound == 6 and best_causal - masked_losses.min() < 0.01
        and masked_losses.min() > np.log(32) / 8)
plt.show()
""", alt="Two training curves, loss on a logarithmic vertical axis against the training step. The masked model (causal=True) falls from about 2.7 to about 0.7 and runs along the dashed line L*, the lowest loss a causal model can reach; the unmasked model (causal=False) falls below 0.001, far under that line. A dotted line marks ln |V|, the loss of a uniform guess.")

md(r"""
### What it reads

Which positions does the unmasked model read? Figure 7.3 shows the attention weights of the two heads of its layer 0 on the line `aжb|bжa` (weights below 0.05 carry no label). Row $i$ is the query at position $i$ and column $j$ the key it reads; the boxes mark the next position, $j = i + 1$, whose input is target $i$. A masked model has only zeros above the diagonal; this one puts much of its weight there.

For each query $i$, the printed array gives the total weight that a head puts on later positions whose input equals target $i$ (the larger of the two heads' totals). For queries 0 to 3 it is above 0.9. Such a query reads either the boxed cell (the next position) or the same letter in the mirrored half after `|`; for example, in head 1, row 1 reads the `ж` at position 6. The targets of queries 0 to 2 are the ones the past cannot decide: the first letter, the second, and whether `|` or a third letter comes next. Which position a query reads changes with the seed (see "Five seeds" below).
""")

code(r"""
from figures.plots import heatmaps

line_ids = np.array([BOS] + encode("aжb|bжa", vocab))  # (T,)
tokens = [vocab[i] for i in line_ids]
# (H, T, T)
first_layer = unmasked.attention_weights(line_ids, causal=False)[0]
labels = [[[f"{w:.1f}" if w >= 0.05 else "" for w in row] for row in head]
          for head in first_layer]
fig = heatmaps(list(first_layer),
               ["causal=False, ℓ=0, h=0", "causal=False, ℓ=0, h=1"],
               labels=labels, cell_size=0.5, lang="{{lang}}")
for ax in fig.axes:  #en large labels, readable on a small screen
    ax.set_xticks(range(len(tokens)), tokens)
    ax.set_yticks(range(len(tokens)), tokens)
    ax.tick_params(labelsize=13)
    ax.title.set_fontsize(14)
    ax.xaxis.label.set_fontsize(14)
    ax.yaxis.label.set_fontsize(14)
    for text in ax.texts:
        text.set_fontsize(13)
    for i in range(len(tokens) - 1):  #en boxes: the next position j = i+1
        ax.add_patch(plt.Rectangle((i + 0.5, i - 0.5), 1, 1, fill=False,
                                   edgecolor="crimson", linewidth=2.5))
fig.tight_layout()
#en holds_target[i, j]: j comes after i and input j is target i
# (7, 8)
holds_target = ((line_ids[None, :] == line_ids[1:, None])
                & np.triu(np.ones((7, 8), dtype=bool), k=1))
on_answer = (first_layer[:, :7] * holds_target).sum(axis=-1)  # (H, 7)
print(np.round(on_answer.max(axis=0), 2))
assert np.all(on_answer.max(axis=0)[:4] > 0.9)
assert np.all(
    masked.attention_weights(line_ids)[0][:, ~np.tri(8, dtype=bool)] == 0.0)
plt.show()
""", alt="Two 8×8 heatmaps: the attention weights of heads 0 and 1 in layer 0 of the unmasked model on the line <bos> a ж b | b ж a, rows are queries i, columns keys j. Red boxes mark the next position j = i+1. Much of the weight lies above the diagonal: in head 1, rows 0, 2 and 3 put about 1.0 in their box, and row 1 puts 0.7 on the mirrored ж at position 6.")

md(r"""
### Letting it generate

Finally each model generates on its own. The unmasked model cannot use a KV cache (§5): in this model, each new token changes the residual stream at the old positions, and with it the keys and values of every layer above layer 0. So at every step it runs the full forward pass over the whole prefix, without the mask, as it was trained.

* **Completing the held-out words.** Given the same 36 prompts, the unmasked model trained from initialisation seed 0 gets 9 right. After `|`, the answer also lies in the past, in the word before the bar, but the model has only partly learned to read it there. With the future hidden, its loss on the decided targets of the corpus is as high as 2.5 (see the tables below). The letter it used to read at the next position does not exist during generation.
* **Free generation from `<bos>`.** Sampling at temperature 1 with sampling seeds 0–49 gives 50 lines per model. Of the masked model's 50 lines, 48 obey the rule, 44 of them distinct. All 50 lines of the unmasked model (initialisation seed 0) are empty: its first token is `<eos>`.
* **Why the unmasked model stops at once.** Given `<bos>` alone, it puts probability 0.96 on `<eos>`. In training, the only scored position with no input after it (the last position of a line with a 3-letter word) always had the target `<eos>`; in generation, the newest position never has anything after it. With the future hidden, it ranks `<eos>` first at 23.7% of the scored positions whose target is not `<eos>`; with the whole line in view, it does so at none of them (the last number printed).

The masked model generates with `generate` (a KV cache in every layer, §7.5); the cell asserts that at all 50 seeds it writes the same tokens as generation without a cache.
""")

code(r"""
unmasked_completions = [completion(unmasked, line, False)
                        for line in held_out]
unmasked_right = sum(text == line + "<eos>" for line,
                     (text, _) in zip(held_out, unmasked_completions))
print([text for text, _ in unmasked_completions[:4]])
print(unmasked_right, len(held_out),
      min(margin for _, margin in unmasked_completions) > 1e-6)
assert (unmasked_right == 9
        and min(margin for _, margin in unmasked_completions) > 1e-6)

def line_of(ids):
    text = decode(ids[1:], vocab)                          #en drop <bos>
    #en None: no <eos> written
    return text.split("<eos>")[0] if "<eos>" in text else None

masked_generated = [
    masked.generate(np.array([BOS]), 8, temperature=1.0, seed=s)
    for s in range(50)]
assert all(generated.tolist()
           == generate_without_cache(masked, [BOS], 8, True,
                                     temperature=1.0, seed=s)[0].tolist()
           for s, generated in enumerate(masked_generated))
masked_samples = [line_of(generated) for generated in masked_generated]
unmasked_samples = [
    line_of(generate_without_cache(unmasked, [BOS], 8, False,
                                   temperature=1.0, seed=s)[0])
    for s in range(50)]
for samples in (masked_samples, unmasked_samples):
    valid = [s for s in samples if s is not None and is_mirror_line(s)]
    print(samples[:5], len(valid), len(set(valid)))
masked_valid = [s for s in masked_samples if s is not None
                and is_mirror_line(s)]
assert len(masked_valid) == 48 and len(set(masked_valid)) == 44
#en every line starts with <eos>
assert all(s == "" for s in unmasked_samples)

after_bos = unmasked.forward(np.array([BOS]), False)  # (1, V)
p_eos_first = float(np.exp(
    -layers.cross_entropy_forward(after_bos, np.array([EOS]))[0]))
not_eos = (targets != IGNORE) & (targets != EOS)
#en with the future hidden
eos_hidden = float(np.mean(unmasked_hidden.argmax(axis=-1)[not_eos] == EOS))
#en with the whole line in view
eos_in_view = int(
    np.sum(unmasked.forward(inputs, False).argmax(axis=-1)[not_eos] == EOS))
print(round(p_eos_first, 2), round(eos_hidden, 3), eos_in_view)
assert (round(p_eos_first, 2) == 0.96 and round(eos_hidden, 3) == 0.237
        and eos_in_view == 0)
""")

md(r"""
### Five seeds

So far every result comes from one initialisation and one order of batches. Are these runs typical? We train both models with four more seeds, five in all: initialisation seeds 0 to 4, each with the next seed for the order of batches. Seed 0 is the run of §7.2 (with the mask) or of the start of §7.3 (without it); the other four are trained here. On the copies of each run kept every 25 steps, we also measure the loss with the future hidden. Below, "seed 3" is short for the run started from initialisation seed 3.
""")

code(r"""
SEEDS = range(5)
checkpoints = np.arange(0, 301, 25)  #en measured every 25 steps

def future_hidden_loss(model, inputs, targets, causal):
    return layers.cross_entropy_forward(
        hidden_future_logits(model, inputs, causal), targets)[0]

def stack_of(seeds):
    #en freshly initialised models of the same size as in §7.2, one
    #en per initialisation seed, as one stack: each NumPy call
    #en computes all of them, and each model computes exactly what it
    #en would compute alone
    return Decoder.stack([Decoder.init(len(vocab), 8, 16, 2, 2, seed=seed)
                          for seed in seeds])

#en the whole corpus once for each model of a stack of five
# (5, 216, 8) ×2
every_inputs, every_targets = (np.stack([a] * 5) for a in (inputs, targets))

def train_and_follow(causal, copies_of_seed_0):
    #en seed 0 is the run of §7.2 (causal) or of §7.3 (not causal);
    #en seeds 1 to 4 are trained here as one stack, with batch seed
    #en s + 1 for model s
    four = stack_of(SEEDS[1:])
    copies, observe = every_25_steps(four)
    train(four, corpus, vocab, steps=300, batch_size=32, lr=0.01,
          causal=causal, seed=[seed + 1 for seed in SEEDS[1:]],
          observe=observe)
    #en at each of the 13 checkpoints: the five models as one stack
    curves = []
    for first, rest in zip(copies_of_seed_0, copies):
        five = Decoder.stack([first, *rest.unstack()])
        if causal:  #en with the mask, hiding the future changes nothing
            curves.append(five.loss(every_inputs, every_targets))
        else:
            curves.append(future_hidden_loss(five, every_inputs,
                                             every_targets, False))
    #en (causal, seed) -> (model, curve)
    return {(causal, seed): (model, curve) for seed, model, curve
            in zip(SEEDS, [copies_of_seed_0[-1], *four.unstack()],
                   np.transpose(curves))}

runs = train_and_follow(True, masked_copies)
assert len(masked_copies) == len(checkpoints)
assert all(np.array_equal(runs[True, 0][0].params[name],
                          masked.params[name]) for name in masked.params)
""")

code(r"""
runs.update(train_and_follow(False, unmasked_copies))
assert all(np.array_equal(runs[False, 0][0].params[name],
                          unmasked.params[name])
           for name in unmasked.params)
""")

md(r"""
**Free targets.** A target is free if, in the corpus, its prefix is followed by more than one token: the past does not decide it. There are 648 of them, three per line (positions 0, 1 and 2). A causal model gives the same prediction after the same prefix. The best it can do is bet on the most frequent continuation of each prefix, and that gets at most 17.6% of the free targets right (the cell below prints it).

The cell then measures each of the ten models and checks the results against the two tables that follow it, one column per seed. The rows of the tables:

* **loss on the corpus**: the loss under teacher forcing, with the true line as input (the unmasked model sees all of it);
* **future hidden: …**: the same loss with the future hidden, on the corpus, on the held-out lines, or on the corpus's free or decided targets alone;
* **free targets right**: the share of free targets that the model's most probable token gets right, with the whole line in view;
* **position 2 predicts the new input 3**: the share of lines whose prediction at position 2 is the new input 3 when input 3 alone is changed to another letter or `|`;
* **words right**: how many of the 36 held-out words the model completes;
* **valid, distinct, empty generated lines**: of 50 lines generated from `<bos>` alone, how many obey the rule, how many of those are different, and (without the mask) how many are empty.
""")

code(r"""
#en free targets: after their prefix the corpus has different targets
free = np.zeros(targets.shape, dtype=bool)
for b, t in zip(*np.nonzero(targets != IGNORE)):
    free[b, t] = len(counts[tuple(inputs[b, :t + 1])]) > 1
ceiling = (sum(max(after.values()) for after in counts.values()
               if len(after) > 1) / free.sum())
print(int(free.sum()), free.sum(axis=0), round(ceiling, 3))
assert (free.sum() == 648
        and list(free.sum(axis=0)) == [216, 216, 216, 0, 0, 0, 0, 0]
        and round(ceiling, 3) == 0.176)

def completions_right(model, causal):
    #en the 36 words side by side, those of one length together: greedy,
    #en token for token what completion() writes for each word alone
    right = 0
    for n in (2, 3):
        lines = [line for line in held_out if line.index("|") == n]
        ids = np.array([[BOS] + encode(line[:n + 1], vocab)
                        for line in lines])  # (N, n + 2)
        for _ in range(n + 1):
            logits = model.forward(ids, causal)[:, -1]  # (N, V)
            ids = np.column_stack([ids, logits.argmax(axis=-1)])
        right += sum(decode(row[1:], vocab) == line + "<eos>"
                     for row, line in zip(ids, lines))
    return right

def free_lines(model, causal):
    #en the 50 samples of §7.3 side by side: row s draws with seed s, token
    #en for token what generate_without_cache(..., seed=s) draws alone
    rngs = [np.random.default_rng(s) for s in range(50)]
    ids = np.full((50, 1), BOS)  # (50, t)
    for _ in range(8):
        logits = model.forward(ids, causal)[:, -1]  # (50, V)
        picked = [pick_token(row, 1.0, rng)
                  for row, rng in zip(logits, rngs)]
        ids = np.column_stack([ids, picked])
    samples = [line_of(row) for row in ids]
    valid = [s for s in samples if s is not None and is_mirror_line(s)]
    #en valid lines, distinct ones, lines that start with <eos>
    return len(valid), len(set(valid)), sum(s == "" for s in samples)

#en input 3 alone replaced by another letter or |: does the prediction
#en at position 2 follow it?
answers = [vocab.index(token) for token in "ab|дж春雨"]  # (7,)
swap = np.random.default_rng(0)
replaced = inputs.copy()
replaced[:, 3] = [swap.choice([a for a in answers if a != token])
                  for token in inputs[:, 3]]

def follows_next(model, causal):
    prediction = model.forward(replaced, causal).argmax(axis=-1)[:, 2]
    return float(np.mean(prediction == replaced[:, 3]))

table = {}
for (causal, seed), (model, curve) in runs.items():
    hidden = hidden_future_logits(model, inputs, causal)  # (B, T, V)
    in_view = model.forward(inputs, causal).argmax(axis=-1)  # (B, T)
    only_free = np.where(free, targets, IGNORE)
    only_fixed = np.where(free, IGNORE, targets)
    table[causal, seed] = dict(
        forced=model.loss(inputs, targets, causal),
        hidden=layers.cross_entropy_forward(hidden, targets)[0],
        held=future_hidden_loss(model, held_inputs, held_targets, causal),
        free_accuracy=float(np.mean(in_view[free] == targets[free])),
        hidden_free=layers.cross_entropy_forward(hidden, only_free)[0],
        hidden_fixed=layers.cross_entropy_forward(hidden, only_fixed)[0],
        follows_next=follows_next(model, causal),
        right=completions_right(model, causal),
        lines=free_lines(model, causal))

#en the values as the two tables below show them: one string per row, one
#en value per seed
def shown(causal, key, form="{:.1f}".format):
    return " ".join(form(table[causal, seed][key]) for seed in SEEDS)

def percent(share):
    return f"{100 * share:.0f}"

def part(k):  #en of the generated lines: 0 valid, 1 distinct, 2 empty
    return lambda counts: str(counts[k])

#en with the mask
assert shown(True, "forced") == "0.7 0.7 0.7 0.7 0.7"
assert shown(True, "held") == "0.7 0.7 0.7 0.7 0.7"
assert shown(True, "hidden_free") == "1.9 1.9 1.9 1.9 1.9"
assert shown(True, "free_accuracy", percent) == "16 16 16 16 16"
assert shown(True, "follows_next", percent) == "15 13 9 14 12"
assert shown(True, "right", str) == "36 36 36 36 36"
assert shown(True, "lines", part(0)) == "48 49 48 48 49"
assert shown(True, "lines", part(1)) == "44 45 43 45 46"
#en without the mask
assert shown(False, "forced") == "0.0 0.0 0.0 0.0 0.0"
assert shown(False, "hidden") == "4.4 2.5 3.2 3.2 5.1"
assert shown(False, "held") == "4.4 2.5 3.3 3.2 5.1"
assert shown(False, "hidden_free") == "7.5 5.5 6.7 7.8 8.1"
assert shown(False, "hidden_fixed") == "2.5 0.6 0.9 0.3 3.2"
assert shown(False, "free_accuracy", percent) == "100 100 100 100 100"
assert shown(False, "follows_next", percent) == "100 27 0 100 1"
assert shown(False, "right", str) == "9 21 22 31 0"
assert shown(False, "lines", part(0)) == "0 46 2 0 0"
assert shown(False, "lines", part(1)) == "0 5 2 0 0"
assert shown(False, "lines", part(2)) == "50 0 0 1 0"
""")

md(r"""
**With the mask** (`causal=True`). Hiding the future changes nothing for this model, so a row "future hidden: corpus" would repeat the first row; it is left out. The row of the decided targets is left out too: the loss on the corpus is within 0.04 of $\mathcal{L}^*$, and $\mathcal{L}^*$ comes from the free targets alone, so the decided targets add almost nothing:

| seed | 0 | 1 | 2 | 3 | 4 |
|:--|--:|--:|--:|--:|--:|
| loss on the corpus | 0.7 | 0.7 | 0.7 | 0.7 | 0.7 |
| future hidden: held-out lines | 0.7 | 0.7 | 0.7 | 0.7 | 0.7 |
| future hidden: free targets | 1.9 | 1.9 | 1.9 | 1.9 | 1.9 |
| free targets right, % | 16 | 16 | 16 | 16 | 16 |
| position 2 predicts the new input 3, % | 15 | 13 | 9 | 14 | 12 |
| words right | 36 | 36 | 36 | 36 | 36 |
| valid generated lines | 48 | 49 | 48 | 48 | 49 |
| distinct valid lines | 44 | 45 | 43 | 45 | 46 |

**Without the mask** (`causal=False`):

| seed | 0 | 1 | 2 | 3 | 4 |
|:--|--:|--:|--:|--:|--:|
| loss on the corpus | 0.0 | 0.0 | 0.0 | 0.0 | 0.0 |
| future hidden: corpus | 4.4 | 2.5 | 3.2 | 3.2 | 5.1 |
| future hidden: held-out lines | 4.4 | 2.5 | 3.3 | 3.2 | 5.1 |
| future hidden: free targets | 7.5 | 5.5 | 6.7 | 7.8 | 8.1 |
| future hidden: decided targets | 2.5 | 0.6 | 0.9 | 0.3 | 3.2 |
| free targets right, % | 100 | 100 | 100 | 100 | 100 |
| position 2 predicts the new input 3, % | 100 | 27 | 0 | 100 | 1 |
| words right | 9 | 21 | 22 | 31 | 0 |
| valid generated lines | 0 | 46 | 2 | 0 | 0 |
| distinct valid lines | 0 | 5 | 2 | 0 | 0 |
| empty generated lines | 50 | 0 | 0 | 1 | 0 |
""")

code(r"""
def seed_range(causal, key):
    values = [table[causal, seed][key] for seed in SEEDS]
    return min(values), max(values)

for seed in SEEDS:
    m, u = table[True, seed], table[False, seed]
    assert (abs(m["hidden"] - m["forced"]) < 1e-12
            and best_causal < m["forced"] < best_causal + 0.05)
    assert (held_rule_level < m["held"] < held_rule_level + 0.03
            and m["free_accuracy"] <= ceiling)
    assert m["right"] == 36 and m["lines"][0] >= 48
    assert u["forced"] < best_causal / 100 and u["free_accuracy"] == 1.0
    assert (u["hidden"] > max(m["hidden"] + 1.5, chance)
            and u["hidden_free"] > 2 * np.log(6))
unmasked_lines = [table[False, seed]["lines"] for seed in SEEDS]
assert seed_range(False, "right") == (0, 31)
#en the seed that reads the decided targets best completes the most words,
#en the one that reads them worst the fewest
fixed = [table[False, seed]["hidden_fixed"] for seed in SEEDS]
completed = [table[False, seed]["right"] for seed in SEEDS]
assert (np.argmin(fixed) == np.argmax(completed) == 3
        and np.argmax(fixed) == np.argmin(completed) == 4)
assert sorted(valid for valid, _, _ in unmasked_lines) == [0, 0, 0, 2, 46]
assert (unmasked_lines[1][:2] == (46, 5)
        and [empty for _, _, empty in unmasked_lines] == [50, 0, 0, 1, 0])
print([tuple(round(v, 4) for v in seed_range(True, k))
       for k in ("forced", "held")])
print([tuple(round(v, 4) for v in seed_range(False, k))
       for k in ("forced", "hidden")],
      [tuple(round(v, 2) for v in seed_range(False, k))
       for k in ("hidden_free", "hidden_fixed")],
      seed_range(False, "right"),
      sorted(table[False, seed]["lines"][0] for seed in SEEDS))
follows = [table[False, seed]["follows_next"] for seed in SEEDS]
by_coincidence = [table[True, seed]["follows_next"] for seed in SEEDS]
print([round(f, 3) for f in follows],
      (round(min(by_coincidence), 3), round(max(by_coincidence), 3)))
assert [round(f, 3) for f in follows] == [1.0, 0.269, 0.0, 1.0, 0.014]
assert 0.09 < min(by_coincidence) and max(by_coincidence) < 0.16
""")

md(r"""
What holds at all five seeds (the cell above asserts it for each seed):

* the unmasked model's loss under teacher forcing is 0.0004–0.0006, about three orders of magnitude below $\mathcal{L}^*$, and it gets every free target right, where no causal model can exceed 17.6%;
* with the future hidden, the unmasked model's loss is far above the masked model's (2.50–5.12, compared with 0.725–0.734), and above $\ln 10 \approx 2.3026$, a uniform guess among the 10 tokens;
* on the free targets alone, with the future hidden, the unmasked model's loss is far above $\ln 6 \approx 1.79$, a uniform guess among the 6 letters;
* the masked model completes all 36 held-out words, and its held-out loss stays close to the rule level 0.7160 of those lines.

What varies with the seed is how badly the unmasked model fails at generation. The run that best reads the decided targets from the past completes the most words; the run that reads them worst completes the fewest. At seed 3 its loss on those targets is 0.3, and it completes 31 words; at seed 4 the loss is 3.2, and it completes none. Between these two ends the order need not hold (compare seeds 1 and 2). The 46 valid lines of seed 1 are only 5 different lines: when it generates, it writes the same few lines again and again.

Where it reads the answer varies too. At seeds 0 and 3 its prediction at position 2 follows a changed input 3 in every line. At seeds 2 and 4 it does so in 0% and 1% of the lines, no more often than the masked model, which cannot see input 3 and follows it only by coincidence (9–15%).

Yet at every seed it gets every free target right: it takes those answers from later inputs, since the mirrored half after `|` repeats the letters. "It learned to copy the next input" is true at some seeds only. What holds at every seed is that it reads from the future whatever the past does not decide.

Figure 7.4 follows the loss with the future hidden during training at the five seeds (blue: with the mask; orange: without). For the masked model it is the ordinary loss, which falls to near $\mathcal{L}^*$ and stays there. Without the mask it falls at first, while the model still learns from the past; once the model has found the shortcut, the loss rises: at every seed it is higher at each of steps 100, 150, …, 300 than 50 steps earlier. Its training loss keeps improving while it gets worse at the task it will face when it generates.
""")

code(r"""
fig, ax = loss_axes()
for seed in SEEDS:
    ax.plot(checkpoints, runs[True, seed][1], color="C0", linewidth=1.5,
            label="causal=True" if seed == 0 else None)
    ax.plot(checkpoints, runs[False, seed][1], color="C1", linewidth=1.5,
            label="causal=False" if seed == 0 else None)
ax.legend(fontsize=12, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=2,
          frameon=False)
fig.tight_layout()
for seed in SEEDS:
    curve = runs[False, seed][1]
    assert curve[1] < curve[0]  #en falls at first
    #en from step 50 on, rises every 50 steps
    assert np.all(np.diff(curve[2::2]) > 0)
print([round(float(runs[False, seed][1][1]), 2) for seed in SEEDS],
      [round(float(runs[False, seed][1][-1]), 2) for seed in SEEDS])
plt.show()
""", alt="The loss with the future hidden during training, at five seeds, against the training step. Five blue lines (masked) fall from about 2.5–3.2 to about 0.73, along the dashed line L*; five orange lines (unmasked) first dip to about 1.6–2.3 at step 25, then climb unevenly, with pauses and jumps, to between 2.5 and 5.1 at step 300, all above the dotted line ln |V|; from step 100 on, each orange line is higher at every 50-step mark than at the one before.")

md(r"""
### What the mask buys

Is it the mask, then, that lets a model learn the rule? Not quite. The leak comes from the way the model is trained: every position of a line is scored while its target sits in the input. A model without the mask can be trained honestly too: give it only the prefix $x_0, \dots, x_t$ and score only its last row against target $t$, so that the target is never in its input. `prefix_loss_and_grads` does this for every $t$ and averages over the batch as before; `train` uses it in place of the usual loss. Each of its steps costs far more than a masked one (the next paragraph says why), so it trains on batches of 8 lines instead of 32. It trains for 250 steps at a learning rate of 0.01, then calls `train` again for 50 steps at 0.002, so that the noise of such small batches settles down at the end. That second call starts a fresh Adam and draws its batches from the same seeds as the first.

At the five seeds, the model trained this way ends with a loss of 0.7282–0.7372 with the future hidden, close to the masked model's 0.7246–0.7342; on the held-out lines it reaches 0.7280–0.7386. It completes all 36 held-out words every time: without the mask, and without reading the future, it learns the rule as well. What it loses is efficiency. Every training step costs $T = 8$ forward and backward passes instead of one, because each prefix is a computation of its own. Generation can reuse almost nothing either: from the output of block 0 on, every new token changes the residual stream at every old position, so only the keys and values of layer 0 would stay fixed. The mask buys both back: one pass trains all $T$ positions at once, each on its own prefix, and the keys and values of old positions never change again, so they can be cached (§7.5).
""")

code(r"""
def prefix_loss_and_grads(model, inputs, targets):
    #en no mask, but trained on prefixes: row t is computed from inputs 0..t
    #en alone and only the last row is scored, so the target is never in the
    #en input
    n_scored = (targets != IGNORE).sum(axis=(1, 2))  # (5,)
    loss, grads = 0.0, {name: np.zeros_like(value) for name,
                        value in model.params.items()}
    for t in range(inputs.shape[-1]):  #en T forward passes per step
        scored_here = (targets[..., t] != IGNORE).sum(axis=1)  # (5,)
        # (5, B, t + 1, V)
        logits, saved = model.forward_train(inputs[..., :t + 1],
                                            causal=False)
        last_only = np.full(logits.shape[:-1], IGNORE)
        last_only[..., -1] = targets[..., t]
        part, saved_loss = layers.cross_entropy_forward(logits, last_only)
        share = scored_here / n_scored  #en the mean over the whole batch
        loss += share * part
        for name, grad in model.backward(
            layers.cross_entropy_backward(share, saved_loss),
            saved).items():
            grads[name] += grad
    return loss, grads

prefix_five = stack_of(SEEDS)
for steps, lr in ((250, 0.01), (50, 0.002)):
    train(prefix_five, corpus, vocab, steps=steps, batch_size=8, lr=lr,
          seed=[seed + 1 for seed in SEEDS],
          loss_and_grads=prefix_loss_and_grads)
#en seed -> (model, loss with the future hidden, held-out loss, words
#en completed)
prefix_runs = {}
for seed, model in zip(SEEDS, prefix_five.unstack()):
    prefix_runs[seed] = (
        model, future_hidden_loss(model, inputs, targets, False),
        future_hidden_loss(model, held_inputs, held_targets, False),
        completions_right(model, False))
    print(seed, *(round(value, 4) for value in prefix_runs[seed][1:3]),
          prefix_runs[seed][3])
""")

code(r"""
for seed, (model, loss, held, right) in prefix_runs.items():
    assert (best_causal < loss < best_causal + 0.05
            and held_rule_level < held < held_rule_level + 0.03
            and right == 36)
print([round(f(run[i] for run in prefix_runs.values()), 4) for i in (1, 2)
       for f in (min, max)])
""")

md(r"""
To sum up the experiment: a low training loss proves nothing by itself; here the bound $\mathcal{L}^*$ exposes the leak. On real text, counting gives no useful bound (§8), but the leak still shows in three places. The loss with the future hidden is high. The training loss is near 0 where the next token is a free choice (the first token of a document, say). And the future-perturbation test of §4 and §7.4 finds the leak in the code itself.
""")

md(r"""
## 7.4 Causality of the whole model

§4.3 and §4.4 ran the future-perturbation test with its negative control on a one-layer model. Now we apply the same check, `lib.checks.check_causality`, unchanged to the trained two-layer model: take a held-out line, keep the prefix of `<bos>` and the word's 3 letters (the first 4 positions), and change every later position to a different token. The masked model's prefix logits change by **exactly 0.0**; the same parameters with the mask off (`causal=False`), the negative control, change the prefix logits by about 2.909, so the test can see a leak.
""")

code(r"""
line = held_out[8]                           #en one letter of each script
ids = np.array([BOS] + encode(line, vocab))  # (8,)
perturbed = checks.perturb_future(
    ids, 4, np.random.default_rng(7), vocab_size=len(vocab))
print(decode(ids, vocab), "|", decode(perturbed, vocab))
result = checks.check_causality(
    masked.forward, lambda t: masked.forward(t, causal=False), ids,
    perturbed, prefix_length=4, tolerance=0.0)
print(result.change, round(result.control_change, 4), result.passed)
assert (result.change == 0.0 and round(result.control_change, 4) == 2.9088
        and result.passed)
""")

md(r"""
### Induction over layers, on the real model

The structural argument of §4.2 is an induction over layers. The base case: row $i$ of the embedding depends only on $x_i$. The induction step: if rows $0$ to $i$ of the residual stream entering a block depend only on $x_0, \dots, x_i$, they still do when they leave it. Layer normalisation and the MLP work position by position, attention reads only $j \le i$, and the residual connection adds position by position. `residual_stream` returns $L+1 = 3$ arrays $X^{(0)}, X^{(1)}, X^{(2)}$: $X^{(0)}$ is the embedding and $X^{(\ell+1)}$ the output of block $\ell$. We measure the prefix change of the same pair of sequences in each of them:

* with the mask: the prefix change is exactly 0 in all three, so every step of the induction holds;
* with the mask off in both blocks: $X^{(0)}$ is still 0 (the embedding works position by position), and the change starts at $X^{(1)}$;
* with only block 1 unmasked (`causal=(True, False)`): $X^{(0)}$ and $X^{(1)}$ are still 0, and the leak appears in $X^{(2)}$;
* with only block 0 unmasked (`causal=(False, True)`): the change starts at $X^{(1)}$, and block 1, although masked, carries it on to $X^{(2)}$.

The final layer normalisation and the output layer work position by position, so no leak can start there. In principle they could remove a leak: layer normalisation, for example, ignores a change that shifts a whole row by a constant. That would take an accident of the weights, and none happened here: with the mask off in both blocks, the test above found the leak in the logits. So a leak in any one block should be treated as a leak of the whole model.
""")

code(r"""
def prefix_change_per_layer(causal):
    before, after = (masked.residual_stream(ids, causal),
                     masked.residual_stream(perturbed, causal))
    # (L + 1,)
    return np.array([np.abs(a[:4] - b[:4]).max() for a,
                     b in zip(before, after)])

changes_by_mask = {causal: prefix_change_per_layer(causal) for causal
                   in (True, False, (True, False), (False, True))}
for causal, changes in changes_by_mask.items():
    print(causal, np.round(changes, 4))
assert np.all(changes_by_mask[True] == 0.0)
assert (changes_by_mask[False][0] == 0.0
        and np.all(changes_by_mask[False][1:] > 0.01))
assert (np.all(changes_by_mask[(True, False)][:2] == 0.0)
        and changes_by_mask[(True, False)][2] > 0.01)
assert (changes_by_mask[(False, True)][0] == 0.0
        and np.all(changes_by_mask[(False, True)][1:] > 0.01))
""")

md(r"""
### The same thing, seen through the gradient

Causality can also be seen from the backward side: the output at position $i$ depends only on positions $0, \dots, i$, so its gradient can flow back only to those positions. We let the upstream gradient be non-zero only in row $i$ of the logits and look at which rows of the position table $P$ receive a gradient. $P[j]$ enters the model only at position $j$, so its gradient records whether position $j$ was read. Each $i$ gives a row of 0s and 1s, and together they form an $8 \times 8$ matrix, the **reachability matrix** of the gradient. For the masked model it is lower-triangular, the allowed set of §1, now through both layers; with the mask off it is all ones.
""")

code(r"""
def reached_positions(model, causal):
    logits, saved = model.forward_train(ids, causal)     # (T, V)
    reached = np.zeros((len(ids), len(ids)), dtype=int)  # (i, j)
    for i in range(len(ids)):
        d_logits = np.zeros_like(logits)
        d_logits[i] = np.random.default_rng(i).standard_normal(
            logits.shape[1])
        # (C, D)
        d_position = model.backward(d_logits, saved)["position_table"]
        reached[i] = np.abs(d_position[:len(ids)]).max(axis=1) > 0
    return reached

reached_masked, reached_control = reached_positions(
    masked, True), reached_positions(masked, False)
print(reached_masked)
print(int(reached_control.sum()))
assert (np.array_equal(reached_masked, np.tril(np.ones((8, 8), dtype=int)))
        and reached_control.sum() == 64)
""")

md(r"""
One trained model is a single example. Below we draw the number of layers $L$ (1 to 4), the head count $H$, the width $D$, the length $T$ and the prefix length $p$ at random, and each time run the full check, control included, on a model with random parameters. Each printed row is $L, H, D, T, p$, the prefix change, and whether the control saw a change.
""")

code(r"""
rng = np.random.default_rng(4)
for trial in range(6):
    n_layers, n_heads = int(rng.integers(1, 5)), int(rng.integers(1, 4))
    width, T = n_heads * int(rng.integers(1, 6)), int(rng.integers(2, 17))
    p = int(rng.integers(1, T))
    random_decoder = Decoder.init(
        12, T, width, n_heads, n_layers, seed=trial)
    ids_r = rng.integers(0, 12, size=T)
    perturbed_r = checks.perturb_future(ids_r, p, rng, vocab_size=12)
    r = checks.check_causality(
        random_decoder.forward,
        lambda t: random_decoder.forward(t, causal=False), ids_r,
        perturbed_r, p, tolerance=0.0)
    print(n_layers, n_heads, width, T, p, r.change, r.control_saw_change)
    assert r.passed and r.change == 0.0
""")

md(r"""
## 7.5 A KV cache for every layer

As in §5.5, each layer **must have its own** cache: the keys and values of layer $\ell$ are computed from the residual stream entering block $\ell$, whose old rows, by §7.4, do not change when a new token arrives. `new_cache()` returns a `DecoderCache` holding $L$ `KVCache`s of §5; `step(token, cache)` puts the new token at position `len(cache)`, appends its keys and values layer by layer, and returns the logits of that position.

We feed the 8 tokens of a held-out line one at a time and compare with the full forward pass entry by entry: the largest error is below $10^{-12}$. The cache's size agrees with the formula of §5.6: $2 \cdot L \cdot n \cdot D \cdot 8 = 4096$ bytes (float64), with $n = 8$ stored positions.
""")

code(r"""
cache = masked.new_cache()
# (T, V)
stepped = np.stack([masked.step(int(token), cache) for token in ids])
full = masked.forward(ids)  # (T, V)
cache_error = float(np.abs(stepped - full).max())
print(cache, [kv.keys.shape for kv in cache.layers], round(cache_error, 12))
assert len(cache) == 8 and cache_error < 1e-12

stored = sum(kv.keys.nbytes + kv.values.nbytes for kv in cache.layers)
formula = checks.kv_cache_bytes(
    n_layers=2, n_heads=2, head_width=8, length=8, itemsize=8)
print(stored, formula)
assert stored == formula == 4096
""")

md(r"""
### Two wrong caches

Two typical cache mistakes: in both, every shape matches and nothing raises an error; only an entry-by-entry comparison with the full forward pass finds them.

* **Caching only layer 0.** Layer 0 keeps its history as it should, but every higher layer starts each step from an empty cache and reads only the new token itself. The logits at the last position are off by about 2.016.
* **Resetting the position to 0.** Every step treats the new token as position 0 (the bug of §5.3; `position=0` exists only to show it). The error is about 14.15.
""")

code(r"""
def step_caching_only_the_first_layer(model, token, position, first_layer):
    # (1, D)
    x = embed(np.array([token]), model.params["token_table"],
              model.params["position_table"], position)
    x = model.block_step(0, x, first_layer)
    for layer in range(1, model.n_layers):
        #en no history above layer 0
        x = model.block_step(layer, x, model.new_cache().layers[layer])
    return model.output_head(x)[0]  # (V,)

first_layer = masked.new_cache().layers[0]
first_only = [
    step_caching_only_the_first_layer(masked, int(t), position, first_layer)
    for position, t in enumerate(ids)]
reset_cache = masked.new_cache()
reset = [masked.step(int(t), reset_cache, position=0) for t in ids]
first_only_error = float(np.abs(first_only[-1] - full[-1]).max())
reset_error = float(np.abs(reset[-1] - full[-1]).max())
print(round(first_only_error, 4), round(reset_error, 4))
assert (round(first_only_error, 4) == 2.0155
        and round(reset_error, 4) == 14.15)
""")

md(r"""
A gap in the logits does not say directly what the model will write. On this line the error at the last position is 2.016. Over the five masked models of §7.3 and the 36 held-out lines (180 cases), caching only layer 0 gives errors from 0.60 to 2.47, 37 of them below 1. So we test what the model writes. For each model, the cell below completes the 36 held-out words greedily, as in §7.2, once with the correct cache and once with each wrong one. With a cache in every layer all 36 come out right at every seed; caching only layer 0 gets 3 to 21 right; resetting the position gets none.
""")

code(r"""
def completes(step, line):
    #en step(token, position) returns the logits of that position; greedy
    #en completion as in §7.2
    word = line.split("|")[0]
    ids = [BOS] + encode(word + "|", vocab)
    for position, token in enumerate(ids):
        logits = step(token, position)
    for n in range(len(word) + 1):
        ids.append(int(np.argmax(logits)))
        if n < len(word):
            logits = step(ids[-1], len(ids) - 1)
    return decode(ids[1:], vocab) == line + "<eos>"

def right_with(model, cache_kind):
    right = 0
    for line in held_out:
        cache = model.new_cache()
        step = {
            "every layer": lambda token, position: model.step(token, cache),
            "first layer only": lambda token, position:
                step_caching_only_the_first_layer(model, token, position,
                                                  cache.layers[0]),
            "position reset": lambda token, position:
                model.step(token, cache, position=0),
        }[cache_kind]
        right += completes(step, line)
    return right

errors = []
for seed in SEEDS:
    model = runs[True, seed][0]
    for line in held_out:
        line_ids = np.array([BOS] + encode(line, vocab))
        first = model.new_cache().layers[0]
        last = [step_caching_only_the_first_layer(model, int(t), p, first)
                for p, t in enumerate(line_ids)][-1]
        errors.append(float(np.abs(last
                                   - model.forward(line_ids)[-1]).max()))
print(len(errors), round(min(errors), 2), round(max(errors), 2),
      sum(e < 1 for e in errors))
kinds = ("every layer", "first layer only", "position reset")
right = {seed: [right_with(runs[True, seed][0], kind) for kind in kinds]
         for seed in SEEDS}
for seed in SEEDS:
    print(seed, *right[seed])
assert (len(errors) == 180 and round(min(errors), 2) == 0.6
        and round(max(errors), 2) == 2.47)
assert sum(e < 1 for e in errors) == 37
assert ([r[0] for r in right.values()] == [36] * 5
        and [r[2] for r in right.values()] == [0] * 5)
assert [r[1] for r in right.values()] == [17, 21, 3, 13, 13]
""")

md(r"""
### Two refused steps: past the position table, and a token that is not an int

The position table has only $C = 8$ rows. Once the cache holds 8 positions, one more step makes `step` raise `ValueError`; given something that is not a single int (an array, say), `step` raises `TypeError` and says what it got. Either way the cache is left as it was: every layer still holds 8 positions, and the stored keys and values have not changed by a single bit.
""")

code(r"""
before = [(kv.keys.copy(), kv.values.copy()) for kv in cache.layers]
raised = []
for bad_token in (3, np.array([3, 4])):
    try:
        masked.step(bad_token, cache)
    except (ValueError, TypeError) as err:
        raised.append(type(err).__name__)
unchanged = all(np.array_equal(k, kv.keys) and np.array_equal(v, kv.values)
                for (k, v), kv in zip(before, cache.layers))
print(raised, [len(kv) for kv in cache.layers], unchanged)
assert (raised == ["ValueError", "TypeError"] and len(cache) == 8
        and unchanged)
""")

md(r"""
### The work and the time the cache saves (optional)

We take a larger model with random parameters ($D=64$, $H=4$, $L=2$, a position table of 512 rows) and let it generate greedily from `<bos>` for $n$ steps, once without a cache and once with `generate`. The cache then holds $n$ positions. Without the cache the prefixes have lengths $1, 2, \dots, n$, so every layer computes $n(n+1)/2$ positions in all. With the cache every layer computes only the $n$ positions it stores, a fraction $2/(n+1)$ of those it computes without the cache. The cell below counts the positions computed with and without the cache and asserts that both generate the same tokens: the cache saves repeated work and changes no result.
""")

code(r"""
big = Decoder.init(vocab_size=64, context_size=512, width=64, n_heads=4,
                   n_layers=2, seed=0)
lengths = [16, 32, 64, 128]
computed = Counter()  #en positions computed with and without the cache

def counting(way, method, positions):
    def counted(*args, **kwargs):
        computed[way] += positions(*args)
        return method(*args, **kwargs)
    return counted

#en a full forward pass: len(ids) positions
big.forward = counting("without", big.forward, lambda ids, *rest: len(ids))
#en a cached step: 1 position
big.step = counting("with", big.step, lambda token, *rest: 1)
seconds = {}
for n in lengths:
    computed.clear()
    start = time.perf_counter()
    plain = generate_without_cache(big, [BOS], n, True)[0].tolist()
    middle = time.perf_counter()
    same = big.generate(np.array([BOS]), n).tolist() == plain
    seconds[n] = (middle - start, time.perf_counter() - middle)
    print(n, computed["without"], computed["with"],
          round(computed["without"] / computed["with"], 1), same)
    assert (computed["without"] == n * (n + 1) // 2
            and computed["with"] == n and same)
del big.forward, big.step  #en back to the plain methods
""")

md(r"""
Time depends on the computer and its load; the cell below prints one timing per run. In short runs, warm-up and other work on the computer dominate a single reading, so the cached run may even be the slower one; the trend shows in the longest runs. Even there the ratio of times is smaller than the ratio of positions: each cached step still reads every stored key, and every call has a fixed cost.
""")

# timings differ from machine to machine: nbval does not compare this output
code(r"""
for n, (without, with_cache) in seconds.items():
    print(n, f"{without:.3f} s", f"{with_cache:.3f} s",
          round(without / with_cache, 1))
""", tags=("nbval-ignore-output",))

md(r"""
## 7.6 What this model still lacks

This decoder is small, but every part of it is real and checked. A real project usually adds:

* **Dropout.** During training a random fraction of the activations is dropped, to reduce overfitting. A future-perturbation test must switch it off or fix its seed (§4.8).
* **Weight tying.** The output layer reuses the transposed token embedding table, $W_\text{head} = E^\top$. In our model this saves $D \cdot \lvert\mathcal V\rvert = 160$ parameters, far more in a model with a large vocabulary; in the backward pass the two gradients add up.
* **Learning-rate schedules.** Typically a warm-up of the learning rate, then a cosine decay; large models often train unstably without a schedule. Gradient clipping and AdamW with weight decay are common too.
* **Batched generation over prompts of different lengths.** `generate` continues one unpadded stream at a time (§5.7). Continuing several prompts of different lengths at once needs each row's own length and position, and a mask over the padded keys.
* **Scale.** Subword tokens (such as BPE) instead of single characters, a longer context, more and wider blocks, mixed precision, and the efficient attention kernels that such scale requires.

Below, the 6912 parameters are broken down by component, with the number weight tying would save.
""")

code(r"""
groups = {"E": ["token_table"], "P": ["position_table"],
          "ln_f": ["ln_f.gain", "ln_f.bias"], "W_head": ["w_head"]}
for layer in range(masked.n_layers):
    groups[f"block {layer}"] = [name for name in masked.params
                                if name.startswith(f"blocks.{layer}.")]
sizes = {group: sum(masked.params[name].size for name in names) for group,
         names in groups.items()}
print(sizes, sum(sizes.values()), masked.params["w_head"].size)
assert (sum(sizes.values()) == masked.parameter_count() == 6912
        and masked.params["w_head"].size == 160)
""")

md(r"""
## 7.7 A gradient check for every operation

§7.1 checked the gradients of the whole decoder at a few entries. Here each operation's backward pass is derived and checked on its own, with the `check_backward` of the cell below. It draws a random upstream gradient $G$ and sets $f = \sum G \odot Y$, with $Y$ the operation's output. Then it compares the gradient the backward pass returns with central differences, for every entry of every input (float64 and $\varepsilon = 10^{-4}$, as in §7.1). Exercise set 7 asks you to write two of these backward passes yourself.
""")

code(r"""
rng = np.random.default_rng(0)

def check_backward(forward, backward, *inputs, eps=1e-4):
    #en f = sum(upstream * output); returns the largest relative error over
    #en the inputs
    out, saved = forward(*inputs)
    upstream = rng.standard_normal(np.shape(out))
    grads = backward(upstream, saved)
    errors = []
    for x, grad in zip(inputs, grads):
        numeric = numerical_gradient(
            lambda: np.sum(upstream * forward(*inputs)[0]), x, eps)
        errors.append(relative_error(grad, numeric))
    return max(errors)
""")

md(r"""
**Masked softmax.** Let $\alpha_j$ be the weights of one row, the softmax of its scores $s_j$ over the allowed set only, and $g_j$ its upstream gradient. Then $\partial f / \partial s_j = \alpha_j \big(g_j - \bar g\big)$ with $\bar g = \sum_{j'} \alpha_{j'} g_{j'}$. A future position has weight $\alpha_j = 0$, so its gradient is **exactly 0**: a forbidden score never reached the output, and it receives no gradient either. We use 3 queries and 5 keys, aligned bottom-right as in §5.1 (query $i$ sits at position $5-3+i$).
""")

code(r"""
scores = rng.standard_normal((2, 3, 5))                   # (B, Tq, Tk)
allowed = causal_allowed(3, 5)                             # (Tq, Tk)

def softmax_forward(s):
    weights = masked_softmax(s, allowed)
    return weights, weights  #en saved is the weights themselves

error = check_backward(softmax_forward,
                       lambda d, w: (layers.masked_softmax_backward(d, w),),
                       scores)
d_scores = layers.masked_softmax_backward(
    rng.standard_normal((2, 3, 5)), masked_softmax(scores, allowed))
print(error_claim(error), float(np.abs(d_scores[:, ~allowed]).max()))
assert error < 1e-6 and np.all(d_scores[:, ~allowed] == 0.0)
""")

md(r"""
**Causal attention and multi-head attention.** In the backward pass of $\mathrm{softmax}(QK^\top/\sqrt d)\,V$, with $G$ the upstream gradient, the gradient with respect to $V$ is $\alpha^\top G$ and the one with respect to the weights is $G V^\top$. The masked softmax above takes the latter back to the scores, and from there it reaches $Q$ and $K$, each scaled by $1/\sqrt d$. Multi-head attention wraps this in the split, merge and $W_O$ of §2; split and merge only rearrange entries, so the backward pass of the split is the merge, and vice versa.
""")

code(r"""
q, k, v = (rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 5, 4)),
           rng.standard_normal((2, 5, 4)))
error = check_backward(layers.causal_attention_forward,
                       layers.causal_attention_backward, q, k, v)
print(error_claim(error))
assert error < 1e-6
""")

code(r"""
x = rng.standard_normal((2, 4, 6))                        # (B, T, D)
w_q, w_k, w_v, w_o = (rng.standard_normal((6, 6)) / np.sqrt(6)
                      for _ in range(4))
error = check_backward(
    lambda *a: layers.multi_head_attention_forward(*a, n_heads=3),
    layers.multi_head_attention_backward, x, w_q, w_k, w_v, w_o)
print(error_claim(error))
assert error < 1e-6
""")

md(r"""
**Layer normalisation.** Each position is normalised over its own $D$ features, then scaled by a gain and shifted by a bias. For one row $z$: $\hat z = (z - \mu)/\sqrt{\sigma^2 + \delta}$, output $\hat z \odot \gamma + \beta$. It is `feature_normalization` of §4.7 with two parameter vectors added; row $t$ reads only row $t$. In the backward pass the mean and the variance depend on the whole row. With $g$ the upstream gradient of the output row, $\hat g = g \odot \gamma$, and bars for means over the $D$ features, this gives $\partial f/\partial z = \frac{1}{\sqrt{\sigma^2+\delta}}\big(\hat g - \overline{\hat g} - \hat z\,\overline{\hat g \odot \hat z}\big)$.
""")

code(r"""
gain, bias = 1 + 0.1 * rng.standard_normal(6), 0.1 * rng.standard_normal(6)
error = check_backward(layers.layer_norm_forward,
                       layers.layer_norm_backward, 2 * x + 1, gain, bias)
print(error_claim(error))
assert error < 1e-6
""")

md(r"""
**A wrong backward pass.** What does the check report when a derivation is wrong? The cell below forgets that the variance depends on the whole row: it drops the last term, $-\hat z\,\overline{\hat g \odot \hat z}$, from the gradient above and leaves the rest as it is. Its relative error is then above $10^{-2}$, the size §7.1 expects of a wrong backward pass, far above the bound of $10^{-6}$.
""")

code(r"""
def layer_norm_backward_without_variance(d_out, saved):
    #en rstd * (g - mean(g)): the term of the variance is missing
    _, rstd, gain = saved
    g = d_out * gain                                          # (B, T, D)
    return (rstd * (g - g.mean(axis=-1, keepdims=True)),)

wrong_error = check_backward(
    lambda z: layers.layer_norm_forward(z, gain, bias),
    layer_norm_backward_without_variance, 2 * x + 1)
print("relative error > 1e-2:", wrong_error > 1e-2)
assert wrong_error > 1e-2
""")

md(r"""
**GELU and the position-wise MLP.** We use GPT-2's tanh form, $\mathrm{GELU}(z) = \tfrac12 z\big(1 + \tanh(\sqrt{2/\pi}\,(z + 0.044715\,z^3))\big)$, whose derivative can be written down directly. The MLP is linear, GELU, linear; its backward pass goes through the three steps in reverse order.
""")

code(r"""
error = check_backward(layers.gelu_forward,
                       lambda d, s: (layers.gelu_backward(d, s),), 3 * x)
print(error_claim(error))
assert error < 1e-6
""")

code(r"""
# (D, F), (F,)
w_1, b_1 = rng.standard_normal((6, 12)) / 2, rng.standard_normal(12) / 2
# (F, D), (D,)
w_2, b_2 = rng.standard_normal((12, 6)) / 2, rng.standard_normal(6) / 2
error = check_backward(
    layers.mlp_forward, layers.mlp_backward, x, w_1, b_1, w_2, b_2)
print(error_claim(error))
assert error < 1e-6
""")

md(r"""
**Embedding, output layer and cross-entropy.** The embedding's backward pass is the scatter-add `embed_backward` of §3, reused as it is; the output layer $W_\text{head}$ is a linear map without bias. The loss is the cross-entropy: the negative log-probability the model gives each target (the $-\ln$ of its softmax entry), averaged **over the scored targets only**. Under the data protocol of §1 the targets at padding positions are −100 (`IGNORE`); they count neither in the sum nor in the number of targets, and their gradient is exactly 0. The gradient of the logits is the softmax minus the one-hot code of the target, divided by the number of scored targets.

The embedding and the output layer are linear in each of their inputs, so a central difference has no truncation error there, only rounding. The first cell below therefore claims a tighter bound for them, $10^{-8}$.
""")

code(r"""
small_ids = np.array([[1, 3, 4, 5], [1, 6, 2, 2]])         # (B, T)
# (V, D), (C, D)
table_e, table_p = rng.standard_normal((7, 6)), rng.standard_normal((5, 6))
error_embed = check_backward(
    lambda e, p: (embed(small_ids, e, p), None),
    lambda d, _: embed_backward(d, small_ids, 7, 5), table_e, table_p)
w_head = rng.standard_normal((6, 7))                       # (D, V)
error_head = check_backward(
    layers.linear_forward, lambda d, s: layers.linear_backward(d, s)[:2], x,
    w_head)
print(error_claim(error_embed, 1e-8), error_claim(error_head, 1e-8))
assert error_embed < 1e-8 and error_head < 1e-8
""")

code(r"""
logits = rng.standard_normal((2, 4, 7))                    # (B, T, V)
small_targets = np.array([[3, 1, 2, IGNORE], [5, 2, IGNORE, IGNORE]])
loss, saved = layers.cross_entropy_forward(logits, small_targets)
d_logits = layers.cross_entropy_backward(1.0, saved)
numeric = numerical_gradient(
    lambda: layers.cross_entropy_forward(logits, small_targets)[0], logits,
    eps=1e-4)
scored = int((small_targets != IGNORE).sum())
print(error_claim(relative_error(d_logits, numeric)), scored,
      float(np.abs(d_logits[small_targets == IGNORE]).max()))
assert relative_error(d_logits, numeric) < 1e-6 and scored == 5
assert np.all(d_logits[small_targets == IGNORE] == 0.0)
""")

md(r"""
## 7.8 Summary

* Put the parts of §1–§6 into $L$ pre-LN residual blocks, add layer normalisation, a position-wise GELU MLP, an output layer and the cross-entropy, and you have a decoder that trains in NumPy. Every backward pass agrees with central differences.
* On the mirror language the masked model brings its loss down to near the causal bound $\mathcal{L}^* \approx 0.6969$ and reverses all 36 held-out words, none of which it ever saw before a bar. On the held-out lines it stays close to the rule level at all five seeds: it has learned the rule, not the corpus.
* The unmasked model, the same model trained without the mask, reaches a loss of about 0.0005, below the bound of every causal model, and gets every free target right. With the future hidden, its loss first falls (to 1.63–2.25 at step 25) and then rises, higher at each of steps 100, 150, …, 300 than 50 steps earlier. It ends at 2.50–5.12, far above the masked model's 0.725–0.734. All of this holds at the five seeds; how badly the model then generates varies from seed to seed.
* A model without the mask that is trained on prefixes learns the rule too. What the mask buys is efficiency: one pass trains every position, and the keys and values of old positions stay fixed, so they can be cached.
* The future-perturbation test with its negative control, the residual stream layer by layer and the reachability matrix of the gradient all show that the whole model is causal. They also show that unmasking a single block is enough for the leak to reach the output of the last block.
* Every layer needs its own KV cache. Fed through the caches one token at a time, a line gets the logits of the full forward pass to within $10^{-12}$, and generation with the caches writes the same tokens as generation without them. Caching only layer 0 completes 3 to 21 of the 36 held-out words; resetting the position completes none.

The exercises for this section are in `exercises/en/ex07_decoder.ipynb`. §8 trains the same decoder, with and without the mask, on verse in the language of this edition.
""")
