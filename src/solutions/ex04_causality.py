# Exercise set 4 (§4, causality over the whole computation).  See src/solutions/ex01_allowed_set.py.

from grading.notebook_setup import INSTALL_NOTE, setup_cell  # the start of every exercise notebook

md("# Exercise set 4: causality must cover the whole computation", tags=("exercise",))

md("# Solutions to exercise set 4: causality must cover the whole computation", tags=("solution",))

md("""
This notebook goes with §4 and works like the previous exercise sets: replace the line `raise NotImplementedError  # TODO` with your code and run the `check(...)` cell below it.

The first three functions are tests. Each receives a forward function `forward(ids)` (token ids to outputs of shape `(T, D)` or `(B, T, D)`) and compares two forward passes with fixed parameters. You will write the future-perturbation test and a verdict that runs it on the model and on a negative control (the control is given). With them you catch a model whose attention mask is perfectly right and which leaks the future nonetheless; in the fourth exercise you fix it.

Points are earned as in exercise set 1: an exercise earns its points when all its tests, public and hidden, pass. `check` counts the public tests that pass (for example `6/6 ✓`), not points.
""", tags=("exercise",))

# The solved notebook's introduction: where the exercises are and what the set practises.
md("""
This page holds the solutions to exercise set 4; the exercises are in `exercises/en/ex04_causality.ipynb`. Try them there first, then compare here.

The set practises §4:

* the future-perturbation test (§4.3);
* the negative control that first shows the test can see a leak (§4.4, §4.5);
* a sweep over every position;
* a model whose mask is right but which leaks all the same, and its fix, found by asking what each output row reads (§4.2, §4.7).
""", tags=("solution",))

md(INSTALL_NOTE)

code(setup_cell("""
import numpy as np

from grading import check
from grading.models import constant_forward, random_model, unmasked_forward
from lib.attention import multi_head_attention
"""), tags=("hide-input",))

code("""
model = random_model(4)  # V=7, C=8, D=8, H=2
#en the same model with the mask switched off
control = unmasked_forward(model)
ids = np.array([1, 3, 4, 5, 6, 2])
""")

md("""
## causal-1: the future-perturbation test (1 point)

`future_perturbation_change(forward, ids, position, replacement)` keeps the tokens at positions `0 … position-1`, replaces every token from `position` on by `replacement` (one id, or an array of length `T - position`), and returns the largest absolute change of the prefix outputs (rows `0 … position-1`) as a `float`. A causal model gives 0, or rounding error at most.

The copy, the forward passes and the comparison are given; write the line that changes the future. Batches `(B, T)` must work too.
""")

code(reference_cell("future_perturbation_change"))

code("""
check("causal-1", future_perturbation_change)
""")

code("""
print(future_perturbation_change(model.forward, ids, 3, 0),
      round(future_perturbation_change(control, ids, 3, 0), 6))
""")

md("""
**About the solution.** The assignment `perturbed[..., position:] = replacement` works for one id and for an array, and for batches. Change a copy: modifying `ids` itself would make `before` and `after` the same input, and the test would always pass. For the causal model the change is exactly 0 here: the prefix rows never read the future rows at all.
""", tags=("solution",))

md("""
## causal-2: a verdict with its negative control (2 points)

A change of 0 may mean the model is causal, or only that the test cannot see anything: the perturbation changed nothing, the output is overwritten by a constant, or the position was badly chosen. So run the same perturbation on a version whose mask you removed on purpose, the negative control: it must show a change.

`perturbation_verdict(forward, control, ids, position, replacement, tol=1e-9)` returns one of three strings:

* `"leaks"`: the prefix change of `forward` exceeds `tol`;
* `"causal"`: the change of `forward` is at most `tol` and the change of `control` exceeds `tol`;
* `"blind"`: both changes are at most `tol`, and this run of the test proves nothing.

`ids` is one sequence `(T,)` or a batch `(B, T)`, as in causal-1. A `position` outside `1 … T-1` raises `ValueError`: there is no prefix to compare or no future to change. Use your `future_perturbation_change`.
""")

code(reference_cell("perturbation_verdict"))

code("""
check("causal-2", perturbation_verdict)
""")

code("""
same_suffix = ids[3:]  #en a 'perturbation' that changes nothing
print(perturbation_verdict(model.forward, control, ids, 3, 0))
print(perturbation_verdict(control, control, ids, 3, 0))
print(perturbation_verdict(model.forward, control, ids, 3, same_suffix))
print(perturbation_verdict(model.forward, constant_forward(model.width),
                           ids, 3, 0))
""")

md("""
**About the solution.** The model under test comes first: if its prefix moved, a leak is found and no control is needed. Only when it did not move does the control decide: if the control moved, this perturbation was able to expose a leak and "no change" carries weight; if the control did not move either, all we can say is "blind". The last two lines above are the two blind situations: a replacement equal to the original suffix, and a control whose output does not depend on its input.
""", tags=("solution",))

md("""
## A suspect model

The model below puts a normalisation between the embedding and the attention. The attention itself is `multi_head_attention` with its causal mask, and every attention weight above the diagonal is exactly zero. Is it causal? Do not hunt through the code for the answer yet: let a test answer.
""")

code("""
def normalise(x, eps=1e-5):
    mean = x.mean(axis=-2, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-2, keepdims=True)
    return (x - mean) / np.sqrt(var + eps)


def normalised_forward(model, norm):
    def forward(ids):
        x = norm(model.embed(ids))  # (T, D)
        out = multi_head_attention(x[None], model.w_q, model.w_k, model.w_v,
                                   model.w_o, model.n_heads)
        return out[0]  # (T, D)
    return forward


suspect = normalised_forward(model, normalise)
""")

md("""
## causal-3: sweeping every position for a leak (3 points)

Testing a single position may happen to pick the wrong one. Write `leak_sweep(forward, ids, replacement_token)`: for every `p = 1 … T-1`, replace every token from `p` on by `replacement_token` and record the prefix change; return a float64 array of shape `(T-1,)` whose entry `p-1` belongs to position `p`. `ids` has shape `(T,)`; `T < 2` raises `ValueError`.

Then sweep `suspect` and give the verdict with `perturbation_verdict`. For the negative control, use `control`, the clean model with its mask off. A control only has to show that this perturbation, on these ids, can move a prefix, and this one does.
""")

code(reference_cell("leak_sweep"))

code("""
check("causal-3", leak_sweep)
""")

code("""
print(leak_sweep(model.forward, ids, 0))
print(np.round(leak_sweep(suspect, ids, 0), 6))
print(perturbation_verdict(suspect, control, ids, 3, 0))
""")

md("""
If your sweep is right, it shows that wherever the perturbation starts, the prefix moves. Now read `normalise`: along which axis are the mean and the variance taken?
""")

md("""
**About the solution.** `axis=-2` is the time axis: the mean and variance of every feature are taken over all `T` positions, the future included. So the normalised input at position 0 already depends on the last token; the leak happens before the attention, and a clean upper-right triangle of weights does not help. A test that only inspects the weight matrices cannot see such a leak; the future-perturbation test looks at the outputs, so it does. A sweep is safer than a single position: testing only at `p = T-1` changes the last token alone, and would miss a leak in which a row reads an earlier future position but no row reads position `T-1` (row 0 reading position 1, say).
""", tags=("solution",))

md("""
## causal-4: the fix, normalising over features (2 points)

Write `feature_norm(x, eps=1e-5)`: normalise every position over its own `D` features to mean 0 and variance 1, that is `(x − mean) / √(variance + eps)`, with the population variance (divided by `D`). The result has the shape and dtype of `x`. Then put it in place of `normalise` and sweep again.
""")

code(reference_cell("feature_norm"))

code("""
check("causal-4", feature_norm)
""")

code("""
fixed = normalised_forward(model, feature_norm)
print(leak_sweep(fixed, ids, 0))
print(perturbation_verdict(fixed, control, ids, 3, 0))
""")

md("""
**About the solution.** Only one axis number changes: with `axis=-1` every position uses its own features only, so the layer works position by position, no longer reads across time, and stays causal. This agrees with the structural argument of §4.2: position-wise normalisation, a position-wise MLP and residual connections add no path from the future, while anything that reads across time has to be proved separately. The sweep of the fixed model is all zeros and the control still moves, so the verdict is `"causal"`, not `"blind"`.
""", tags=("solution",))
