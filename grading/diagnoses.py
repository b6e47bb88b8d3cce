"""Known mistakes, recognised by what a function does: the "why" after a failed test.

A mistake is named by the bug operators that make it (:mod:`grading.bugs`):
``mask-1/strict`` is ``strict-for-loose`` at ``key_position <= query_position``
of the exercise's answer.  Each mistake has a sentence saying what the numbers
suggest and which section of the chapter explains it (written in English; the
catalogues of course_i18n translate it).  Nothing here writes wrong code: the
wrong versions are the *mutants* of the exercise's answer (every operator at
every place it applies, alone, and two at a time), and a learner's function is
diagnosed from its *outputs*, never from its source.  :func:`diagnose` takes
the tests a function was run on, with the expected result and the learner's
result of each, runs the mutants on the same inputs (an output fingerprint),
and keeps the mutants that

* give the right answer wherever the learner's function does, and
* agree with the learner's result on every failed test (within the
  exercise's tolerance; two exceptions where a value was expected agree only
  weakly), with at least one failed test where they agree on a value or on
  the exception's type.  An agreement only on results wholly nan or
  infinite is weak too (many slips overflow alike): when nothing else fits,
  it names only an overflow slip (the maximum not subtracted before exp),
  and only when every mutant that fits so is one and raises the learner's
  exception type wherever both raise (an underflow to a zero sum is another
  slip than an overflow).

The single mutants are tried first, pairs only when no single one fits.  When
nothing fits by its values, one partial-credit pattern is still read: a
function right on every test that expects a value, failing only tests that
expect a refusal (an exception), has left a refusal out; it is named by the
refusal operators' mutants that fail exactly those tests (their outputs on the
unrefused input are not compared, since the learner computes them otherwise).
Likewise a function right on every test whose input has one number of axes
and wrong on every other is named by the mutants that fix the number of axes
with the same pass/fail pattern.  A mistake is named only when every mutant that fits is named by that one
mistake: when two mutants that give the same outputs on the tests run point to
two hints, or one of them to none, nothing specific is said (silence rather
than a guess; a test that separates them is the cure).  A pair names its first
mistake (in the order declared here) and says that there is a second, unless
both of its slips are that one mistake (one slip made at two places).  The
texts hold no values, so a diagnosis drawn from hidden tests reveals nothing
about them.  One mistake is read from the comparison itself: an argument
changed in place.

Mutants and their outputs on a test are cached per process (the grader pays
once per batch, a kernel once per exercise); this module runs in the
learner's kernel (``check()``) and in the grader's process, and never enters
a grading sandbox.
"""

import copy
import hashlib
import itertools
import re
import pickle
import warnings
from dataclasses import dataclass

import numpy as np

from course_i18n.catalogue import text

from . import bugs
from .arguments import ArgumentChanged, changed_argument, snapshot_arguments
from .values import Raised, resolve

__all__ = ["Mistake", "MISTAKES", "GENERIC", "diagnose", "explain_mistake", "mistake_by_id", "candidates"]


@dataclass(frozen=True, eq=False)
class Mistake:
    id: str                 # "mask-2/softmax-before-mask"
    bugs: tuple             # selectors of grading.bugs: "operator" or "operator@text of the site"
    text: object            # what the numbers suggest, without values: English, then a Text in every language
    section: str            # where the chapter explains it, e.g. "1.7"
    short: object = None    # a few words for the class view ("normalised before masking"), likewise
    exercises: tuple = ()   # a mistake of any exercise (GENERIC): the exercises it is named in (empty: all)

    def __post_init__(self):
        # written in English; the catalogues (course_i18n) hold the other languages, under
        # grading.diagnosis.<exercise>.<slug>.text / .short ("*/" for a mistake of any exercise: "any.")
        key = "grading.diagnosis." + self.id.replace("*/", "any.").replace("/", ".")
        object.__setattr__(self, "text", text(f"{key}.text", self.text))
        if self.short is not None:
            object.__setattr__(self, "short", text(f"{key}.short", self.short))

    def names(self, site):
        """Whether one of this mistake's selectors names ``site`` (a :class:`grading.bugs.Site`)."""
        for selector in self.bugs:
            name, _, within = selector.partition("@")
            if name == site.operator and _selects(within, site):
                return True
        return False


def _selects(within, site):
    """Whether the text after a selector's ``@`` names ``site``: ``=code`` exactly; else text in the code, or in
    ``function:code`` starting inside the function's name (``decoder_step:n >=``).  A text that would start at
    the colon itself (``:position``) is code (the slice ``[:position]``), never the function's end followed by
    code that starts ``position`` (the slice ``[position:]``)."""
    if within.startswith("="):
        return site.code == within[1:]
    if within in site.code:
        return True
    where = f"{site.function}:{site.code}"
    start = where.find(within)
    while start != -1:
        if start < len(site.function):
            return True
        start = where.find(within, start + 1)
    return False


_REGISTERED = {}


# The batch-length hint of every exercise that takes ids (T = len(ids) and ids[t] are the same slip:
# both take the first axis for time, which is B in a batch)
_FIRST_AXIS_FOR_TIME = (
    "a batch (B, T) of ids goes wrong: the code takes the first axis, B in a batch, for time "
    "(T = len(ids), or ids[t]); time is the last axis: `T = ids.shape[-1]`, `ids[..., t]`",
    "the first axis taken for time")


def _mistakes(exercise_id, *entries):
    out = []
    for slug, selectors, section, text, short in entries:
        for selector in selectors:
            if selector.partition("@")[0] not in bugs.OPERATORS:
                raise ValueError(f"{exercise_id}/{slug}: no bug operator {selector!r} in grading/bugs.py")
        m = Mistake(f"{exercise_id}/{slug}", tuple(selectors), text, section, short)
        _REGISTERED[m.id] = m
        out.append(m)
    return out


# --------------------------------------------------------------------------------------
# The mistakes, with what they look like and where the chapter explains them
# --------------------------------------------------------------------------------------

MISTAKES = {
    "mask-1": _mistakes(
        "mask-1",
        ("strict", ('strict-for-loose@key_position <= query_position',
                    'one-less@key_position <= query_position'), "1.7",
         "the mask forbids the diagonal, so a query cannot read its own key. A key is allowed up to and "
         "including the query's own position (`≤`, not `<`)",
         "used < instead of ≤"),
        ("top-left", ('top-left-alignment',), "1.3",
         "with fewer queries than keys, the mask is aligned top-left. The last query must be allowed to read the "
         "last key: "
         "align bottom-right",
         "aligned top-left"),
        ("inverted", ('negated-comparison@key_position',), "1.4",
         "True and False are swapped: this is the forbidden future, not the allowed set",
         "returned future instead of allowed"),
        ("reversed", ('comparison-reversed@key_position <= query_position',), "1.4",
         "each query may read its own key and every key after it, the future instead of the past: the two sides "
         "of the comparison are swapped. A key is allowed when its position is ≤ the query's position",
         "comparison reversed"),
        ("one-ahead", ('one-more@key_position <= query_position',), "1.3",
         "every query reads one key of the future: the alignment is off by one",
         "alignment off by one"),
        ("square", ('one-argument-for-another@causal_allowed:tk',), "1.3",
         "the result is always tq×tq: the number of keys tk is not used (after a cache there are fewer queries "
         "than keys)",
         "ignored tk"),
        ("numbers", ('integers-for-booleans', 'floats-for-booleans'), "1.4",
         "the values are right but they are 0/1 numbers, not booleans; a mask has dtype=bool",
         "numbers instead of booleans"),
    ),
    "mask-2": _mistakes(
        "mask-2",
        ("softmax-before-mask", ('mask-after-softmax',), "1.6",
         "the allowed weights of a row sum to less than 1: the softmax seems to run over all keys and the future "
         "is zeroed afterwards; normalise over the allowed keys only",
         "normalised before masking"),
        ("no-max", ('no-max-subtraction',), "1.5",
         "large scores give NaN or inf: the row's largest (allowed) score is not subtracted before exp, so exp "
         "overflows",
         "no max subtraction"),
        ("max-over-all", ('max-over-all-entries',), "1.10",
         "the result breaks when a forbidden score is far above the allowed ones. The maximum also counts "
         "forbidden entries, so every allowed exp becomes 0. Take the maximum over allowed scores only",
         "max over forbidden entries"),
        ("max-over-array", ('max-over-whole-array',), "1.5",
         "a row whose scores all lie far below another row's gives NaN: the maximum is taken over the whole "
         "array, so that row's exps all become 0. Subtract each row's own maximum, "
         "`masked.max(axis=-1, keepdims=True)`",
         "max over the whole array"),
        ("finite-fill", ('finite-fill',), "1.7",
         "a row with no allowed key comes back with equal weights instead of raising a ValueError. Forbidden "
         "scores got a finite fill such as −1e9. Check for empty rows and raise a ValueError",
         "forbidden scores filled with −1e9"),
        ("empty-row-unchecked", ('dropped-check@masked_softmax:if not allowed.any', 'any-for-all@allowed.any'), "1.7",
         "a row with no allowed key is not refused: check that every row allows at least one key, and raise a "
         "ValueError before computing",
         "no error for an empty row"),
        ("zero-fill", ('zero-fill',), "1.5",
         "forbidden keys still get weight: a score of 0 forbids nothing (exp(0) = 1); forbidden scores must "
         "become −inf",
         "forbidden scores set to 0"),
        ("wrong-axis", ('wrong-axis', 'first-axis'), "1.1",
         "the rows do not sum to 1: the softmax ran over another axis (the queries or the batch); it belongs on "
         "the last axis (the keys)",
         "softmax over the wrong axis"),
        ("no-keepdims", ('no-keepdims',), "1.5",
         "the row maxima or sums lose their axis: without keepdims=True they broadcast along the wrong axis "
         "(wrong numbers for a square input, an error otherwise); keep the axis with keepdims=True",
         "keepdims left out"),
    ),
    "mask-3": _mistakes(
        "mask-3",
        ("allclose", ('allclose-for-atol', 'rtol-added'), "1.1",
         "the row-sum test is looser than atol: np.allclose and np.isclose add a relative tolerance (rtol) of their "
         "own; compare |row sum − 1| ≤ atol",
         "rtol where atol alone belongs"),
        ("forbidden-within-atol", ('tolerance-for-exact-zero@weights[~allowed]',), "1.6",
         "a tiny non-zero weight on a forbidden entry is accepted: forbidden weights must be exactly 0; the "
         "tolerance is for row sums only",
         "forbidden weights below atol accepted"),
        ("one-forbidden-weight", ('all-for-any@weights[~allowed]',), "1.6",
         "one weight on a forbidden entry is accepted when the other forbidden weights are 0: the check uses "
         ".all() where .any() belongs; reject when any forbidden weight is not 0",
         "all() instead of any()"),
        ("no-negative-check", ('dropped-condition@is_valid_attention:', 'all-for-any@weights < 0'), "1.1",
         "a negative weight is accepted: a row summing to 1 is not enough; every weight must be ≥ 0",
         "no check for negative weights"),
        ("no-row-sum", ('last-condition-dropped', 'any-for-all@<= atol'), "1.6",
         "weights whose rows do not sum to 1 are accepted (softmax first, zeros after, for instance): also check "
         "that every row sums to 1 within atol",
         "no row-sum check"),
        ("no-forbidden-check", ('dropped-first-condition@is_valid_attention:',), "1.4",
         "weight on forbidden entries is accepted: also check that every forbidden weight is exactly 0",
         "no check of forbidden entries"),
        ("exact-sum", ('exact-for-tolerance',), "1.1",
         "correct weights that differ only by rounding are rejected: compare row sums with 1 within atol, not "
         "with ==",
         "row sums compared with =="),
        ("wrong-axis", ('wrong-axis', 'first-axis'), "1.1",
         "the sums run over another axis (the queries or the batch): every row, summed over the last axis, must "
         "give 1",
         "sums over the wrong axis"),
        ("strict-tolerance", ('strict-for-loose@<= atol',), "1.1",
         "a row sum exactly atol away from 1 is rejected (with atol = 0, even exact weights): the test is "
         "|row sum − 1| ≤ atol, with ≤, not <",
         "< atol instead of ≤ atol"),
        ("positive-on-allowed", ('positive-on-allowed',), "1.10",
         "valid weights with a zero on an allowed key are rejected: the task asks for no negative weight, not for a "
         "positive weight on every allowed key. An allowed key may get weight 0; reject only weights below 0",
         "demanded positive allowed weights"),
        ("own-mask", ('own-causal-mask',), "1.4",
         "the forbidden entries are taken from a causal mask the function builds itself, not from the allowed argument, so weights "
         "for any other mask (a bottom-right aligned one, say) are judged wrongly. Read the forbidden entries from "
         "allowed (`weights[~allowed]`)",
         "used its own mask, not allowed"),
    ),
    "data-1": _mistakes(
        "data-1",
        ("one-column-too-many", ('length-one-more',), "1.2",
         "every row has one column too many: T = 1 + the length of the longest text is enough, because BOS (in "
         "the inputs) and EOS (in the targets) share the one extra position",
         "one column too many"),
        ("no-eos-target", ('dropped-write@targets[b, len(ids)] = EOS',), "1.2",
         "the EOS after each text is not a scored target (it is −100 there): the model never learns where to stop",
         "the EOS target ignored"),
        ("pad-targets-eos", ('swapped-padding@IGNORE',), "1.8",
         "the padded positions have EOS as target instead of −100: padding enters the loss",
         "padding targets not −100"),
        ("pad-inputs-ignore", ('swapped-padding@EOS',), "1.8",
         "the inputs are padded with −100: −100 marks targets only; inputs are padded with EOS (a real token id)",
         "inputs padded with −100"),
        ("empty-accepted", ('dropped-check@collate:if not all(texts)',), "1.2",
         "an empty text is accepted: a text without characters must raise a ValueError",
         "accepted an empty text"),
        ("pad-inputs-zero", ('zeros-for-full@EOS',), "1.8",
         "the inputs are padded with 0, a real token id: pad them with EOS (`np.full(..., EOS)`)",
         "inputs padded with 0"),
        ("int32", ('narrower-dtype',), "1.2",
         "the arrays are int32: the protocol's inputs and targets are int64 (dtype=np.int64)",
         "int32 instead of int64"),
        ("left-padding", ('padding-on-the-left',), "1.10",
         "each text is pushed to the end of its row, with the padding in front: the protocol pads on the right. "
         "Start every row with BOS at position 0 and put the padding after the text",
         "padded on the left"),
    ),
    "heads-1": _mistakes(
        "heads-1",
        ("reshape-only", ('reshape-without-transpose',), "2.2",
         "the shape is right and the contents are wrong: a direct reshape to (..., H, T, d) mixes features of "
         "different positions in one head; reshape to (..., T, H, d) first, then swap the T and H axes",
         "reshape without transpose"),
        ("interleaved", ('interleaved-heads',), "2.2",
         "the heads take every H-th feature (h, h+H, …): coordinate a of head h must be feature h·d + a, a "
         "contiguous block",
         "interleaved features"),
        ("no-swap", ('no-transpose',), "2.2",
         "the result is (..., T, H, d): the T and H axes still need swapping to give (..., H, T, d)",
         "axes not swapped"),
        ("one-sequence-only", ('axes-for-one-sequence',), "2.2",
         "the function is right for one sequence (T, D) only: with a batch axis (B, T, D) it moves the wrong axes "
         "or fails; the signature is (..., T, D), so count the axes from the end (negative axes)",
         "fails with a batch axis"),
        ("fixed-rank", ('fixed-rank', 'axes-from-the-front'), "2.2",
         "the function handles 3-D input (B, T, D) only: the signature is (..., T, D), so input without a batch "
         "axis, or with several, must work too (use negative axes)",
         "fixed number of axes"),
        ("all-axes-reversed", ('all-axes-reversed',), "2.2",
         "the axes come out in reverse order: np.transpose (or .T) without axes reverses every axis, batch axes "
         "too. Swap only T and H, `np.swapaxes(x, -3, -2)`",
         "every axis reversed"),
        ("other-axes", ('other-axes-swapped',), "2.2",
         "the result is (..., T, d, H): the wrong pair of axes was swapped; swap T and H, the axes −3 and −2",
         "wrong axes swapped"),
    ),
    "heads-2": _mistakes(
        "heads-2",
        ("reshape-only", ('reshape-without-transpose',), "2.4",
         "the shape is right and the contents are wrong: a direct reshape glues values of different positions "
         "together; swap the H and T axes first, then merge the last two",
         "reshape without transpose"),
        ("fixed-rank", ('fixed-rank', 'axes-from-the-front'), "2.4",
         "the function is right for 4-D input (B, H, T, d) only: the signature is (..., H, T, d), and the 3-D "
         "(H, T, d) the cache step uses, or more batch axes, must work too (use negative axes)",
         "4-D input only"),
        ("interleaved", ('interleaved-heads',), "2.4",
         "the heads' coordinates are interleaved: after merging, head h occupies the contiguous features "
         "h·d … h·d + d − 1",
         "interleaved merge"),
        ("summed", ('heads-summed',), "2.1",
         "the heads are added up instead of concatenated: the merged width is H·d",
         "heads summed"),
        ("other-axes", ('other-axes-swapped',), "2.4",
         "the wrong pair of axes was swapped before merging: swap H and T, the axes −3 and −2",
         "wrong axes swapped"),
        ("reversed", ('heads-reversed',), "2.4",
         "the heads are joined in reverse order: the last head comes first. Head 0 must fill the features 0 … d − 1, "
         "head 1 the next d, and so on. Join them in the order of the H axis",
         "heads in reverse order"),
    ),
    "heads-3": _mistakes(
        "heads-3",
        ("no-w-o", ('dropped-product@merge_heads(heads) @ w_o',), "2.4",
         "the output is the concatenated heads themselves: W_O is "
           "missing at the end",
         "forgot W_O"),
        ("scale-by-D", ('scale-by-full-width',), "2.3",
         "the scores are divided by √D instead of √d: every head scales by its own width d = D/H",
         "scaled by √D"),
        ("no-scale", ('no-scale@attention_scores:', 'dropped-factor@attention_scores:q * q.dtype'), "2.3",
         "the scores are not divided by √d",
         "no scaling"),
        ("no-mask", ('no-mask@masked_softmax:',), "1.4",
         "every position reads the future: the causal mask is missing",
         "no mask"),
        ("diagonal-hidden", ('loose-for-strict@causal_future:key_position > query_position',
                             'one-less@causal_future:key_position > query_position'), "1.7",
         "the first row is NaN: the mask forbids the diagonal as well (a `<` where `≤` belongs), so the first "
         "position has no key to read",
         "diagonal forbidden"),
        ("reshape-only", ('reshape-without-transpose@split_heads:',), "2.2",
         "the heads are split by a reshape without a transpose, so one head mixes features of different positions",
         "split without transpose"),
        ("merge-reshape-only", ('reshape-without-transpose@merge_heads:',), "2.4",
         "the heads are merged by a reshape without swapping the H and T axes back first, so one output row mixes "
         "values of different positions",
         "merge without transpose"),
        ("keys-values-swapped", ('last-two-arguments-swapped@=causal_attention(q, k, v)',), "2.3",
         "the keys and the values are swapped: the scores come from q and k, and the output is a weighted sum of "
         "v. Pass them in that order, `causal_attention(q, k, v)`",
         "keys and values swapped"),
        ("reversed", ('heads-reversed@merge_heads:',), "2.4",
         "the heads are joined in reverse order: the last head comes first. Head 0 must fill the features 0 … d − 1, "
         "head 1 the next d, and so on. Join them in the order of the H axis",
         "heads in reverse order"),
        ("wrong-axis", ('wrong-axis', 'first-axis'), "1.1",
         "the softmax runs over another axis (the queries or the batch) instead of the keys, the last axis",
         "softmax over the wrong axis"),
    ),
    "cost-1": _mistakes(
        "cost-1",
        ("keys-only", ('dropped-first-factor@=2 * n_layers',), "2.6",
         "the KV-cache size is exactly half the right value: keys and values are both stored (a factor of 2)",
         "KV cache missing the factor 2"),
        ("three-matrices", ('constant-off-by-one',), "2.6",
         "the parameter count is 3·D² per layer: W_O is a D×D matrix too (4·D² in all)",
         "W_O not counted"),
        ("fixed-itemsize", ('fixed-itemsize',), "2.6",
         "the bytes do not depend on the dtype: each element takes the dtype's itemsize (2 for float16, 4 for "
         "float32, 8 for float64)",
         "dtype ignored"),
        ("elements", ('dropped-factor@=2 * n_layers * batch * length * n_heads * head_width * itemsize',), "2.6",
         "the KV cache counts elements, not bytes: multiply by the itemsize",
         "elements, not bytes"),
        ("one-layer-cache", ('dropped-factor@=2 * n_layers',), "2.6",
         "the KV-cache size covers one layer only: every layer has a cache of its own",
         "cache for one layer"),
        ("one-head-cache", ('dropped-factor@=2 * n_layers * batch * length * n_heads',), "2.6",
         "the KV cache counts one head's width d: all heads together are H·d = D",
         "cache for one head"),
        ("zero-layers", ('dropped-check@attention_costs:if n_layers < 1',
                         'one-less@attention_costs:n_layers < 1'), "2.6",
         "n_layers = 0 is not refused: a model without layers is not a valid input; raise a ValueError",
         "accepted 0 layers"),
        ("float-division", ('true-division',), "2.6",
         "the counts come back as floats: the head width is computed with `/`. Use `//` instead, since d = D // H is "
         "a whole number",
         "/ instead of //"),
        ("cache-full-width", ('width-for-head-width@=head_width',
                              'factor-twice@=2 * n_layers * batch * length * n_heads'), "2.6",
         "the KV cache grows with the number of heads: each head stores d = D / H numbers per position, so all "
         "heads together store D, not H·D",
         "H·D per position"),
        ("head-width-matrices", ('width-for-head-width@=width',), "2.6",
         "the parameter count shrinks as H grows: W_Q, W_K, W_V and W_O are each D×D, whatever the number of "
         "heads",
         "D×d matrices"),
        ("bits", ('bits-for-bytes',), "2.6",
         "the KV-cache size is 8 times too large: the itemsize counts bytes (4 for float32), not bits",
         "bits, not bytes"),
        ("indivisible-accepted", ('dropped-check@attention_costs:if width % n_heads',), "2.2",
         "a width the number of heads does not divide is not refused: check width % n_heads first and raise "
         "a ValueError",
         "accepted an indivisible width"),
        ("head-width-twice", ('factor-twice@=2 * n_layers * batch * length * n_heads * head_width',), "2.6",
         "the KV cache is d times too large: the head width d is counted twice. Per position, each head "
         "stores d numbers for its key and d for its value",
         "head width counted twice"),
    ),
    "pos-1": _mistakes(
        "pos-1",
        ("no-offset", ('slice-from-zero', 'argument-ignored'), "3.1",
         "the offset has no effect: positions always start at row 0; after a cache the first new token is at "
         "position offset",
         "offset ignored"),
        ("wrapped", ('positions-wrapped',), "3.3",
         "positions past the table wrap around to its start (modulo): a position beyond the table has no "
         "learned vector, so raise a ValueError",
         "positions wrapped"),
        ("clipped", ('positions-clamped',), "3.3",
         "positions past the table all use its last row (clamped): they have no learned vector, so raise a "
         "ValueError",
         "positions clamped"),
        ("position-by-id", ('positions-by-id', 'positions-by-id-plus-offset'), "3.1",
         "the position table is indexed by token id: take rows offset … offset+T−1 by position",
         "positions by token id"),
        ("batch-length", ('length-from-first-axis',), "3.1",
         *_FIRST_AXIS_FOR_TIME),
        ("no-position", ('position-dropped',), "3.1",
         "the positions are not added: each row is the token's vector plus the position table's row for its "
         "position, offset + t",
         "positions left out"),
        ("negative-offset", ('dropped-first-condition@embed:',), "3.3",
         "a negative offset is accepted: NumPy then reads rows from the end of the table; raise a ValueError "
         "for offset < 0",
         "accepted a negative offset"),
        ("unchecked", ('dropped-check@embed:',), "3.3",
         "positions outside the table are not refused with a ValueError: check offset ≥ 0 and offset + T ≤ "
         "the number of rows first",
         "no range check"),
        ("full-table-refused", ('loose-for-strict@embed:offset + T > len(position_table)',
                                'one-less@embed:offset + T > len(position_table)'), "3.3",
         "ids that exactly fill the position table are refused: only offset + T > the number of rows is past "
         "it (>, not ≥)",
         "a full table refused"),
        ("one-late", ('slice-one-late@embed:offset:offset + T',), "3.1",
         "the position rows start one row late, as if positions counted from 1: the first new token is at "
         "position offset, so add rows offset … offset+T−1, `position_table[offset:offset + T]`",
         "position rows one late"),
    ),
    "pos-2": _mistakes(
        "pos-2",
        ("batch-mean", ('batch-mean-for-sum@embed_backward:grad.reshape(-1, T, D).sum(axis=0)',), "3.2",
         "the position gradient is the batch's mean, not its sum: every sequence adds its own gradient to the "
         "position rows it reads. Add them up, `.sum(axis=0)`",
         "batch mean instead of sum"),
        ("assignment", ('scatter-by-assignment',), "3.2",
         "a token that occurs several times keeps only one gradient: d_token[ids] += … does not add up repeated "
         "ids; scatter-add with np.add.at",
         "assignment instead of scatter-add"),
        ("last-sequence", ('last-instead-of-sum', 'first-instead-of-sum'), "3.2",
         "the position gradient comes from one sequence of the batch: every sequence shares those rows, so sum "
         "over the batch axis",
         "position gradient not summed over the batch"),
        ("no-offset", ('slice-from-zero', 'argument-ignored'), "3.2",
         "the position gradient lands in rows 0 … T−1: the forward pass used rows offset … offset+T−1",
         "offset ignored"),
        ("wrapped", ('positions-wrapped',), "3.3",
         "positions past the table wrap around instead of raising: raise a ValueError",
         "positions wrapped"),
        ("batch-length", ('length-from-first-axis@embed_backward:ids',), "3.2",
         *_FIRST_AXIS_FOR_TIME),
        ("full-table-refused", ('loose-for-strict@embed_backward:offset + T > context_size',
                                'one-less@embed_backward:offset + T > context_size'), "3.3",
         "ids that exactly fill the position table are refused: only offset + T > context_size is past it "
         "(>, not ≥)",
         "a full table refused"),
        ("batch-axis-only", ('batch-axis-only',), "3.2",
         "the position gradient is right for one number of axes only: sum over every axis before the last "
         "two, grad.reshape(-1, T, D).sum(axis=0)",
         "summed over axis 0 only"),
        ("negative-offset", ('dropped-first-condition@embed_backward:',), "3.3",
         "a negative offset is accepted: its gradient lands in rows at the end of the table; raise a ValueError "
         "for offset < 0",
         "accepted a negative offset"),
        ("unchecked", ('dropped-check@embed_backward:',), "3.3",
         "positions outside the table are not refused with a ValueError: check offset ≥ 0 and offset + T ≤ "
         "context_size first",
         "no range check"),
        ("one-late", ('slice-one-late@embed_backward:offset:offset + T',), "3.2",
         "the position gradient lands one row late, as if positions counted from 1: the forward pass used "
         "rows offset … offset+T−1",
         "position rows one late"),
    ),
    "pos-3": _mistakes(
        "pos-3",
        ("whole-output", ('whole-array',), "3.4",
         "the whole output is compared, not the last row: the swap itself moves rows i and j; the test is "
         "about the last row",
         "compared the whole output"),
        ("same-position", ('dropped-first-condition@last_row_swap_change:',), "3.4",
         "i == j is not refused: swapping a token with itself changes nothing and tests nothing; raise a "
         "ValueError",
         "accepted a swap with itself"),
        ("last-position", ('one-more@last_row_swap_change:0 <= i < T - 1',
                           'one-more@last_row_swap_change:0 <= j < T - 1',
                           'dropped-term@last_row_swap_change:T - 1',
                           'dropped-condition@last_row_swap_change:'), "3.4",
         "a swap involving the last position is not "
           "refused: it changes the last query itself; require 0 ≤ i, j < T − 1 and raise a ValueError otherwise",
         "accepted the last position"),
        ("batch-rows", ('without-ellipsis',), "3.4",
         "in a batch, the swap indexes the first axis (whole sequences) instead of the last. Swap two positions "
         "inside every sequence: `[..., [i, j]]`",
         "swap on the first axis"),
        ("signed", ('no-abs', 'no-abs-other-order'), "3.4",
         "the absolute value of the change is not taken. Report the largest absolute change",
         "no absolute value"),
        ("sum", ('sum-for-max',), "3.4",
         "the changes are added up. Report the largest absolute change instead",
         "sum instead of max"),
        ("batch-length", ('length-from-first-axis',), "3.4",
         *_FIRST_AXIS_FOR_TIME),
        ("negative-index", ('lower-bound-dropped',), "3.4",
         "a negative i or j is accepted: NumPy counts it from the end (i = −1 is the last position); require "
         "0 ≤ i, j < T − 1",
         "accepted a negative index"),
        ("mean", ('mean-for-max',), "3.4",
         "the function returns the mean change, not the largest. Report the largest absolute change of the last row",
         "mean instead of max"),
        ("swap-overwrites", ('swap-overwrites',), "3.4",
         "the two tokens are not swapped: one is copied over the other, so both positions hold the same token. "
         "A tuple swap of NumPy views does that; swap on a copy with one fancy index, [..., [i, j]] = [..., [j, i]]",
         "one token copied over the other"),
        ("first-row", ('first-row-for-last',), "3.4",
         "the first output row is compared, not the last: the test asks how much the last row moves, "
         "`[..., -1, :]`",
         "compared the first row"),
    ),
    "causal-1": _mistakes(
        "causal-1",
        ("one-token", ('index-for-slice',), "4.3",
         "only the token at index `position` is replaced: the test changes the whole future, from index `position` on",
         "perturbed one token only"),
        ("starts-early", ('one-less@position:',), "4.3",
         "the perturbation starts one index early, at `position - 1`, so it changes the last row of the prefix "
         "being compared, and even a causal model seems to leak",
         "perturbation one too early"),
        ("with-position", ('one-more@:position',), "4.3",
         "the compared rows include row `position` itself, which reads the changed token; compare rows "
         "0 … `position - 1` only",
         "one row too many compared"),
        ("perturbs-one-late", ('one-more@future_perturbation_change:position:',), "4.3",
         "the future is changed from one position too late: a model that reads just the next token slips "
         "through; change every token from index `position` on",
         "perturbation starts one late"),
        ("all-rows", ('whole-array',), "4.3",
         "every output row is compared, future rows too. Only the rows before index `position` must stay unchanged",
         "compared all rows"),
        ("fixed-token", ('constant-write',), "4.5",
         "the future is set to a fixed token, not to the replacement argument. That token may equal the "
         "original one, and then nothing changes",
         "a fixed replacement token"),
        ("last-prefix-row", ('last-row-only',), "4.3",
         "only the last prefix row is compared: a leak may show only in earlier rows; compare every row "
         "0 … `position - 1`",
         "compared the last row only"),
        ("signed", ('no-abs', 'no-abs-other-order'), "4.3",
         "the change is not taken in absolute value: a change "
           "downwards is a change too",
         "no absolute value"),
        ("perturbs-prefix", ('other-side-of-split@future_perturbation_change:position:',), "4.3",
         "the prefix is changed instead of the future: replace every token from index `position` on "
         "(`ids[..., position:]`)",
         "changed the prefix"),
        ("first-axis", ('without-ellipsis',), "4.3",
         "in a batch (B, T), whole sequences are replaced: index the last axis, `ids[..., position:]`",
         "replaced whole sequences"),
        ("mean", ('mean-for-max@future_perturbation_change:',), "4.3",
         "the function returns the mean change, not the largest. A leak may move one number of one row only, and a mean "
         "hides it: report the largest absolute change of rows 0 … `position - 1`",
         "mean instead of max"),
        ("sum", ('sum-for-max@future_perturbation_change:',), "4.3",
         "the changes are added up. Report the largest absolute change of rows 0 … `position - 1` instead",
         "sum instead of max"),
        ("whole-sequence", ('whole-sequence-perturbed@future_perturbation_change:',), "4.3",
         "every token is replaced, the prefix too: then even a causal model's prefix rows change. Replace only "
         "the tokens from index `position` on (`ids[..., position:]`)",
         "changed the prefix too"),
        ("compares-future", ('other-side-of-split@future_perturbation_change::position',), "4.3",
         "the future rows are compared instead of the prefix rows: they change even in a causal model; "
         "compare rows 0 … `position - 1`",
         "compared the future rows"),
    ),
    "causal-2": _mistakes(
        "causal-2",
        ("tie-counts-as-leak", ('loose-for-strict@perturbation_verdict:future_perturbation_change(forward',), "4.3",
         "a change exactly equal to tol counts as a leak: a leak is a change above tol, so compare with `>`, "
         "not `>=`",
         "a tie at tol counts as a leak"),
        ("no-control", ('condition-always-true@perturbation_verdict:if future_perturbation_change(control',), "4.4",
         "the function never returns `\"blind\"`. Also run the negative control, which shows whether the test can see a leak "
         "at all",
         "no negative control"),
        ("control-first", ('control-first',), "4.4",
         "a model that leaks is called `\"blind\"` when the control shows nothing. The control is asked first, but "
         "it only matters when the model under test itself shows no change: test the model under test first",
         "control asked first"),
        ("control-before-model", ('model-and-control-checked-in-swapped-order',), "4.4",
         "a model that leaks is called `\"causal\"` when the control moves: the control is asked before the model "
         "under test. Test the model under test first, and return `\"leaks\"` when it changes; ask the control only "
         "when it does not",
         "control asked before the model"),
        ("verdicts-swapped", ('last-two-verdicts-swapped', 'negated-comparison@future_perturbation_change(control'), "4.4",
         "`\"causal\"` and `\"blind\"` are swapped. When the control moves, the test can see a leak, so a model that "
         "shows no change is `\"causal\"`; when the control does not move either, the test is `\"blind\"`",
         "\"causal\" and \"blind\" swapped"),
        ("ignores-tol", ('threshold-zero', 'argument-ignored@perturbation_verdict:'), "4.3",
         "a change within tol counts as a change (tol is not used, or not for every comparison): compare the "
         "model's change and the control's with tol, not with 0",
         "tol ignored"),
        ("position-unchecked", ('one-more@perturbation_verdict:1 <= position',
                                'dropped-check@perturbation_verdict:'), "4.3",
         "position = T is not refused: there is no future to change and the test does nothing; the argument "
         "`position` must lie in 1 … T−1, otherwise raise a ValueError",
         "position = T not refused"),
        ("batch-length", ('length-from-first-axis',), "4.3",
         *_FIRST_AXIS_FOR_TIME),
    ),
    "causal-3": _mistakes(
        "causal-3",
        ("one-token", ('index-for-slice',), "4.3",
         "each p replaces one token only: every token "
           "from p on must be replaced",
         "perturbed one token only"),
        ("past-the-end", ('range-one-past-end@leak_sweep:range(1, T)',), "4.3",
         "the sweep goes one position too far: at p = T there is no future to change, so the last entry is "
         "always 0. Sweep p over 1 … T−1 (`range(1, T)`)",
         "swept one position too far"),
        ("shifted", ('shifted-range',), "4.3",
         "the entries are shifted by one: entry p−1 "
           "belongs to position p (p starts at 1)",
         "positions shifted by one"),
        ("all-rows", ('whole-array',), "4.3",
         "every output row is compared: only the rows before p "
           "must stay unchanged",
         "compared all rows"),
        ("leading-zero", ('leading-zero-entry',), "4.3",
         "the result has one entry too many, in front (a 0 for position 0, which has no prefix): entry p−1 "
           "belongs to position p, so return the T − 1 changes for p = 1 … T−1",
         "an extra entry in front"),
        ("single-position", ('one-less@leak_sweep:T < 2', 'dropped-check@leak_sweep:'), "4.3",
         "a single position is not refused: "
           "there is nothing to sweep, so raise a ValueError",
         "accepted one position"),
        ("in-place", ('in-place-perturbation',), "4.3",
         "the ids passed in are changed in place: each perturbation is written into the caller's array, and "
         "later ones build on it. Start every p from a copy of the original ids (`ids.copy()`)",
         "changed ids in place"),
        ("ends-early", ('loop-ends-early',), "4.3",
         "the last position is not swept: sweep p over 1 … T−1 (`range(1, T)`)",
         "last position not swept"),
        ("starts-at-zero", ('one-less@leak_sweep:range(1, T)',), "4.3",
         "p = 0 is swept too: it leaves no prefix to compare; start the sweep at p = 1 (`range(1, T)`)",
         "swept p = 0"),
        ("list", ('list-for-array',), "4.3",
         "a Python list is returned: return a NumPy array of float64, np.array(changes, dtype=np.float64)",
         "a list, not an array"),
    ),
    "causal-4": _mistakes(
        "causal-4",
        ("over-time", ('wrong-axis', 'first-axis'), "4.7",
         "the normalisation runs over another axis (the positions or the batch): the mean and variance come "
         "from each position's own features (the last axis)",
         "normalised over the wrong axis"),
        ("eps-outside", ('eps-outside-root',), "4.7",
         "eps is added outside the square root: layer normalisation computes (x − μ) / √(σ² + eps)",
         "eps outside the root"),
        ("unbiased", ('variance-over-n-minus-1',), "4.7",
         "the variance is divided by D − 1, but layer normalisation uses the "
           "population variance, divided by D",
         "variance over D−1"),
        ("eps-ignored", ('argument-ignored',), "4.7",
         "the eps argument has no effect",
         "eps ignored"),
        ("variance", ('no-square-root',), "4.7",
         "the result is divided by the variance instead of the standard deviation",
         "divided by the variance"),
        ("no-keepdims", ('no-keepdims',), "4.7",
         "the mean or the variance loses its axis: without keepdims=True it broadcasts along the wrong axis; "
         "keep the axis with keepdims=True",
         "keepdims left out"),
        ("no-eps", ('eps-dropped',), "4.7",
         "a constant row gives NaN (0 divided by 0): the eps is left out; divide by √(σ² + eps)",
         "eps left out"),
        ("two-axes-only", ('newaxis-for-keepdims',), "4.7",
         "the function works for 2-D (T, D) input only: [:, None] restores the reduced axis only there; use "
         "keepdims=True",
         "2-D input only"),
        ("whole-array", ('reduction-over-everything',), "4.7",
         "the mean and variance come from the whole array, so every position depends on all the others. Take "
         "them over each position's own features, with axis=-1 and keepdims=True",
         "normalised over the whole array"),
        ("moments", ('variance-from-moments',), "4.7",
         "the variance is wrong when the features are large compared with their spread: E[x²] − E[x]² subtracts "
         "two nearly equal numbers. Take the mean of the squared deviations, "
         "`((x - mean) ** 2).mean(axis=-1, keepdims=True)`",
         "variance as E[x²] − E[x]²"),
        ("sum-for-mean", ('sum-for-mean',), "4.7",
         "a sum is taken where a mean belongs (of the features, or of their squares), so the result is off by a "
         "factor that grows with D. Use the mean",
         "sum instead of mean"),
    ),
    "cache-1": _mistakes(
        "cache-1",
        ("padding-in-cache", ('slice-dropped', 'one-argument-for-another@continue_padded:targets'), "5.7",
         "the padding went into the cache: the new token lands after the whole row instead of after the real "
         "prefix; feed each row only the positions whose target is not −100",
         "padding fed into the cache"),
        ("targets-fed", ('one-argument-for-the-next@continue_padded:inputs',), "5.7",
         "the cache is fed the targets instead of the inputs: the prefix lacks BOS and ends with EOS, one "
         "position off. Feed each row's inputs, `inputs[b, :n]`, the tokens the model reads",
         "targets fed instead of inputs"),
        ("first-row-length", ('index-zero@continue_padded:targets[b]',), "5.7",
         "every row is continued after as many tokens as row 0 has: the real prefix length is counted on row 0 "
         "only. Count it on each row b: the positions of row b whose target is not −100",
         "row 0's length for every row"),
        ("shared-cache", ('shared-state',), "5.7",
         "every row shares one cache: each row "
           "is a text of its own and needs a cache of its own",
         "one cache for all rows"),
        ("short-prefix", ('one-less@continue_padded::n', 'prefix-drops-tail@continue_padded:'), "5.7",
         "one token of the real prefix is missing: the real positions are all those whose target is not −100",
         "prefix one token short"),
        ("long-prefix", ('one-more@continue_padded::n',), "5.7",
         "one token too many is fed before the new one: the padding right after the text went into the cache too. "
         "The real positions are those whose target is not −100; feed exactly those",
         "prefix one token too long"),
        ("factory-not-called", ('factory-not-called',), "5.7",
         "step is given the method model.new_cache itself, not a cache: call it, cache = model.new_cache(), once "
         "for each row",
         "new_cache not called"),
        ("unpadded-row", ('first-match-for-count',), "5.7",
         "the longest row, which has no padding, feeds nothing into its cache: `np.argmax(targets[b] == -100)` is "
         "0 when no `-100` is found; count the real positions with `(targets[b] != -100).sum()`",
         "argmax of the padding"),
        ("skips-bos", ('slice-from-one@continue_padded::n',), "5.7",
         "BOS is not fed into the cache: the BOS at "
           "position 0 is part of the real prefix",
         "skipped BOS"),
    ),
    "cache-2": _mistakes(
        "cache-2",
        ("no-max", ('no-max-subtraction',), "1.5",
         "large scores give NaN: the largest score is not subtracted before exp, so exp overflows; subtract "
         "each row's maximum first",
         "no max subtraction"),
        ("attends-before-append", ('read-before-append',), "5.1",
         "the new query does not read its own key and value: append the new k and v to the cache first, then "
         "attend (with an empty cache the first token can read only itself)",
         "attended before appending"),
        ("no-scale", ('no-scale',), "2.3",
         "the scores are not divided by √d: divide each head's scores by √d before the softmax",
         "no scaling"),
        ("scale-by-D", ('scale-by-full-width',), "2.3",
         "the scores are divided by √D instead of "
           "√d: every head scales by its own width d = D/H",
         "scaled by √D"),
        ("no-w-o", ('dropped-product@heads.reshape(-1) @ w_o',), "2.4",
         "the output is the concatenated heads themselves: W_O is "
           "missing at the end",
         "forgot W_O"),
        ("interleaved", ('interleaved-heads',), "2.2",
         "the new token's q, k and v are dealt out to the heads every H-th feature: coordinate a of head h must "
         "be feature h·d + a, a contiguous block (a plain reshape to (H, 1, d))",
         "interleaved heads"),
        ("old-cache-returned", ('returns-old-cache',), "5.1",
         "the keys and values returned do not hold "
           "the new position: return the cache after appending, (H, n+1, d)",
         "returned the old cache"),
        ("interleaved-merge", ('interleaved-merge',), "2.4",
         "the heads are merged interleaved: after merging, head h must fill the contiguous features h·d … "
         "h·d + d − 1. Reshape (H, 1, d) to H·d directly, with no axes swapped",
         "interleaved merge"),
        ("reversed", ('heads-reversed',), "2.4",
         "the heads are joined in reverse order: the last head comes first. Head 0 must fill the features 0 … d − 1, "
         "head 1 the next d, and so on. Join them in the order of the H axis",
         "heads in reverse order"),
        ("prepended", ('prepended',), "5.1",
         "the new key and value are put in front of the cache instead of after it. The output may still be right, "
         "but the stored order no longer follows the positions: append at the end of the time axis",
         "new position put in front"),
        ("wrong-axis", ('wrong-axis', 'first-axis'), "1.1",
         "the softmax runs over the wrong axis: it belongs on the last axis, the stored positions",
         "softmax over the wrong axis"),
    ),
    "cache-3": _mistakes(
        "cache-3",
        ("last-row", ('last-position-only',), "5.2",
         "only the last position is compared: "
           "a faulty cache may show its error only at earlier positions; compare every position",
         "compared the last position only"),
        ("first-row", ('first-position-only',), "5.2",
         "only the first position is compared. The cache is still empty at the first token, so a wrong cache "
         "shows only later: compare every position, 0 … T−1",
         "compared the first position only"),
        ("first-position-skipped", ('first-position-skipped',), "5.2",
         "the first position is not compared. A cache that puts the first token at the wrong position, or a step "
         "that starts wrong, may show its error only there: compare every position, 0 … T−1",
         "first position not compared"),
        ("fresh-cache", ('fresh-state',), "5.3",
         "every token gets a fresh cache: then every step starts at position 0 and even a correct cache looks "
         "wrong; make one cache for the whole sequence",
         "a fresh cache per token"),
        ("factory-not-called", ('factory-not-called',), "5.3",
         "step is given the function new_cache itself, not a cache: call it, cache = new_cache(), once before the "
         "first token",
         "new_cache not called"),
        ("mean", ('mean-for-max',), "5.2",
         "the function returns the mean error, not the largest. One wrong position is enough to show that the cache is wrong",
         "mean instead of max"),
        ("signed", ('no-abs', 'no-abs-other-order'), "5.2",
         "the error is not taken in absolute value: an error downwards is an error too. Report the largest "
         "absolute error",
         "no absolute value"),
        ("sum", ('sum-for-max',), "5.2",
         "the errors are added up. Report the largest absolute error: one wrong position is enough",
         "sum instead of max"),
        ("prefix-forward", ('prefix-forward',), "5.2",
         "each step is compared with a forward pass over its own prefix; that agrees with the full pass only if "
         "forward is causal, so a future leak goes unseen: call forward(ids) once and compare step t with row t",
         "compared with the prefix's forward"),
    ),
    "evidence-1": _mistakes(
        "evidence-1",
        ("no-max", ('no-max-subtraction',), "1.5",
         "large scores make math.exp overflow: the largest score is not subtracted before exp; subtract the "
         "row's maximum first",
         "no max subtraction"),
        ("no-scale", ('no-scale',), "2.3",
         "the scores are not divided by √d",
         "no scaling"),
        ("scale-by-D", ('scale-by-full-width',), "2.3",
         "the scores are divided by √D instead of each head's √d",
         "scaled by √D"),
        ("no-w-o", ('dropped-product@project(merged, w_o)',), "2.4",
         "the output is the concatenated heads themselves: W_O is "
           "missing at the end",
         "forgot W_O"),
        ("ignores-causal", ('argument-ignored',), "6.2",
         "the mask stays on with `causal=False`: the `causal` "
           "argument has no effect",
         "causal ignored"),
        ("not-divisible-accepted", ('dropped-check@attention_py:',), "2.2",
         "a width not divisible by the number of heads is not checked first: the extra coordinates are silently "
         "dropped, or another error follows later; raise a ValueError at the start",
         "accepted an indivisible width"),
        ("diagonal-hidden", ('one-less@range(i + 1)',), "1.7",
         "the first query has no key to read: the mask forbids the diagonal; query i reads keys 0 … i, "
         "range(i + 1)",
         "diagonal forbidden"),
        ("one-ahead", ('one-more@range(i + 1)',), "1.3",
         "every query reads one key of the future: query i reads keys 0 … i, range(i + 1)",
         "one future key read"),
        ("interleaved", ('strided-heads',), "2.2",
         "head h takes every H-th feature (h, h+H, …): its features are the contiguous block h·d … h·d + d − 1",
         "interleaved features"),
        ("scale-by-d", ('scale-by-d',), "2.3",
         "the scores are divided by d instead of √d: divide each head's scores by √d",
         "scaled by d, not √d"),
    ),
    "dec-1": _mistakes(
        "dec-1",
        ("no-row-term", ('dropped-term@d_weights - along_row',), "7.7",
         "the row-sum term is missing: the softmax couples a row's weights, so the gradient is w ⊙ (g − Σ w·g)",
         "row-sum term missing"),
        ("plain-mean", ('unweighted-mean',), "7.7",
         "the plain mean of g is subtracted instead of "
           "the weighted sum Σ w·g",
         "plain mean instead of weighted sum"),
        ("plain-sum", ('dropped-factor@masked_softmax_backward:d_weights * weights',), "7.7",
         "the plain sum of g is subtracted instead of the weighted sum Σ w·g: each g_k must be weighted by its "
         "weight, `np.sum(d_weights * weights, axis=-1, keepdims=True)`",
         "plain sum instead of weighted sum"),
        ("sign", ('swapped-operands@d_weights - along_row',), "7.7",
         "the gradient has the wrong sign",
         "wrong sign"),
        ("diagonal-only", ('diagonal-jacobian',), "7.7",
         "only the diagonal of the softmax Jacobian is used, w ⊙ (1 − w) ⊙ g: the cross terms are missing, since "
         "each weight moves when any score of its row moves. The gradient is w ⊙ (g − Σ w·g)",
         "diagonal of the Jacobian only"),
        ("wrong-axis", ('wrong-axis', 'first-axis'), "7.7",
         "the sum runs over the wrong axis: the "
           "softmax is over the last axis (the keys), and so is the sum",
         "sum over the wrong axis"),
        ("broadcasts", ('dropped-check@masked_softmax_backward:',), "7.7",
         "arrays of different shapes are not refused but silently broadcast by NumPy: check first that d_weights "
         "and weights have the same shape, otherwise raise a ValueError",
         "silent broadcasting"),
        ("not-times-weights", ('dropped-first-factor@weights * (d_weights - along_row)',), "7.7",
         "the gradient is not 0 on "
           "forbidden entries: multiply by the weights w (where a weight is 0 the gradient is exactly 0)",
         "not multiplied by the weights"),
        ("no-keepdims", ('no-keepdims',), "7.7",
         "the row sum Σ w·g loses its axis: without keepdims=True it broadcasts along the wrong axis; keep "
         "the axis with keepdims=True",
         "keepdims left out"),
        ("row-mean", ('mean-for-sum',), "7.7",
         "the row term is the mean of w·g, not its sum: the gradient is w ⊙ (g − Σ w·g), "
         "`np.sum(d_weights * weights, axis=-1, keepdims=True)`",
         "mean instead of sum"),
    ),
    "dec-2": _mistakes(
        "dec-2",
        ("no-mean-term", ('dropped-middle-term', 'dropped-term@=g - g.mean(axis=-1, keepdims=True)'), "7.7",
         "dx lacks the term through the mean μ (− mean(ĝ))",
         "mean term missing"),
        ("no-variance-term", ('dropped-term@g - g.mean(axis=-1, keepdims=True) - x_hat',
                              'dropped-first-factor@=g * x_hat'), "7.7",
         "dx lacks the term through the variance σ² "
           "(− ẑ · mean(ĝ·ẑ))",
         "variance term missing"),
        ("moments", ('variance-from-moments',), "7.7",
         "the gradient is wrong when the features are large compared with their spread: the variance as "
         "E[x²] − E[x]² subtracts two nearly equal numbers. Take the mean of the squared deviations, "
         "`(centred * centred).mean(axis=-1, keepdims=True)`",
         "variance as E[x²] − E[x]²"),
        ("no-gain-in-dx", ('dropped-factor@d_out * gain',), "7.7",
         "dx misses the gain: the gradient "
           "that flows back through LN(x)·gain is d_out·gain",
         "gain missing in dx"),
        ("gain-uses-x", ('raw-for-normalised',), "7.7",
         "d_gain uses x instead of the normalised ẑ",
         "d_gain from x"),
        ("eps-ignored", ('argument-ignored',), "7.7",
         "the eps argument has no effect",
         "eps ignored"),
        ("unbiased", ('variance-over-n-minus-1',), "7.7",
         "the variance is divided by D − 1: the forward pass divides by D (the population variance), and so "
         "must the backward pass",
         "variance over D−1"),
        ("no-eps", ('eps-dropped',), "7.7",
         "a constant row gives NaN or inf: the eps is left out of ρ = 1/√(σ² + eps); keep it as the forward pass "
         "does",
         "eps left out"),
        ("batch-axis-only", ('batch-axis-only',), "7.7",
         "d_gain and d_bias keep some axes of x: sum over every axis but the last "
         "(`.reshape(-1, D).sum(axis=0)`)",
         "summed over axis 0 only"),
        ("constants", ('leading-term-only',), "7.7",
         "dx treats the mean and the variance as constants: both terms through them are missing "
         "(− mean(ĝ) and − ẑ · mean(ĝ·ẑ))",
         "mean and variance treated as constants"),
        ("gain-without-x-hat", ('dropped-factor@d_out * x_hat',), "7.7",
         "d_gain is the plain sum of d_out: the gain multiplies ẑ, so d_gain sums d_out · ẑ",
         "d_gain without ẑ"),
        ("eps-outside", ('eps-outside-root',), "7.7",
         "eps is added outside the square root: as in the forward pass, ρ = 1 / √(σ² + eps)",
         "eps outside the root"),
        ("sums-for-means", ('sum-for-mean@g.mean', 'sum-for-mean@(g * x_hat).mean'), "7.7",
         "dx adds up values where the formula takes their mean, so two of its terms are D times too big",
         "sums instead of means"),
    ),
    "dec-3": _mistakes(
        "dec-3",
        ("offset-from-heads-axis", ('offset-from-wrong-axis',), "5.3",
         "the new token's position is read from the wrong axis of the cache. It counts the heads, not the "
         "stored positions. Read n from the time axis of (H, n, d)",
         "position read from the heads axis"),
        ("offset-advanced-twice", ('offset-advanced-twice',), "5.3",
         "the new token's position is too large: its offset was advanced by the stored length a second time. Its "
         "position is n, the number of stored positions",
         "offset advanced twice"),
        ("full-table-refused", ('full-cache-off-by-one', 'one-less@decoder_step:n >= model.context_size'), "5.4",
         "a step into the last free row of the position table is refused. Only a position from context_size "
         "on is past the table",
         "last free row refused"),
        ("position-zero", ("index-zero@model.params['position_table'][n]",), "5.3",
         "the new token always gets row 0 of "
           "the position table: its position is n, the number of stored positions",
         "position reset to 0"),
        ("position-next", ("one-more@model.params['position_table'][n]", 'decode-starts-one-later'), "5.3",
         "the position is off by one: the new token is at n, not "
           "n + 1",
         "position one too late"),
        ("position-previous", ("one-less@model.params['position_table'][n]",), "5.3",
         "the position is off by one: the new token takes position n, the number of positions stored so far, "
         "not n − 1",
         "position one too early"),
        ("old-cache-returned", ('returns-old-cache',), "5.1",
         "the keys and values returned do not hold the new position: return, for every layer, the arrays after "
         "appending, (H, n+1, d)",
         "returned the old cache"),
        ("no-position", ('position-dropped',), "5.3",
         "the new token's input has no position in it: it is the token's row of the token embedding table E plus "
         "row n of the position table P",
         "position left out"),
        ("no-scale", ('no-scale@attention_scores:', 'dropped-factor@attention_scores:q * q.dtype'), "2.3",
         "the scores are not divided by √d",
         "no scaling"),
        ("shared-cache", ('index-zero@keys[layer]', 'index-zero@values[layer]'), "5.5",
         "every layer reads one cache (layer 0's): "
           "each layer has keys and values of its own",
         "one cache for all layers"),
        ("reversed", ('heads-reversed',), "2.4",
         "the heads are joined in reverse order: the last head comes first. Head 0 must fill the features 0 … d − 1, "
         "head 1 the next d, and so on. Join them in the order of the H axis",
         "heads in reverse order"),
        ("attends-before-append", ('read-before-append',
                                   'loose-for-strict@causal_future:',
                                   'one-less@causal_future:key_position > query_position'), "5.1",
         "the new query does not read its own key and value: it attends before they are appended, or the mask "
         "forbids the diagonal. Append first, then attend to every stored position up to and including its own",
         "attended before appending"),
        ("wrapped", ('positions-wrapped-at-one',), "5.4",
         "a position past the table wraps around to its "
           "start: raise a ValueError",
         "position wrapped"),
        ("unchecked", ('dropped-check@decoder_step:', 'strict-for-loose@decoder_step:n >= model.context_size',
                       'one-more@decoder_step:n >= model.context_size'), "5.4",
         "a step past the position table is not refused with a ValueError (NumPy's IndexError comes instead): "
         "refuse n ≥ context_size first",
         "no check of the position"),
        ("no-residual", ('residual-dropped',), "7.1",
         "the sublayer's output replaces the residual stream: add it back (`x = x + …`)",
         "residual connection left out"),
        ("first-norm-twice", ('first-layer-norm-again',), "7.1",
         "the second layer normalisation uses ln1's gain and bias: each normalisation has parameters of its "
         "own, and the one before the MLP uses ln2's",
         "ln1 used for ln2"),
        ("no-norm", ('norm-skipped',), "7.1",
         "a sublayer reads the raw residual stream: normalise it first (pre-LN), a = LN(x)",
         "layer normalisation skipped"),
    ),
    "dec-4": _mistakes(
        "dec-4",
        ("perturbs-one-late", ('one-more@diagnose:prefix_length:',), "4.3",
         "the future is changed from one position too late: a model that reads just the next token slips "
         "through; change every token from `prefix_length` on",
         "perturbation starts one late"),
        ("drops-last-prefix-row", ('prefix-drops-tail@diagnose:', 'one-less@diagnose::prefix_length'), "4.3",
         "the last row of the prefix is not compared: a leak of the next token shows only there; compare rows "
         "0 … `prefix_length - 1`",
         "last prefix row not compared"),
        ("no-control", ('condition-always-true@diagnose:if prefix_change(lambda',), "4.4",
         "the function never returns `\"blind\"`. Also run the negative control, which is the same model without the mask",
         "no negative control"),
        ("verdicts-swapped", ('last-two-verdicts-swapped', 'negated-comparison@prefix_change(lambda'), "4.4",
         "`\"causal\"` and `\"blind\"` are swapped. When the control moves, the test can see a leak, so a model that "
         "shows no change is `\"causal\"`; when the control does not move either, the test is `\"blind\"`",
         "\"causal\" and \"blind\" swapped"),
        ("one-token", ('index-for-slice', 'index-for-slice-both-sides'), "4.3",
         "only the token at `prefix_length` is changed: a model that reads a later token slips through. Change "
         "every token from `prefix_length` on",
         "perturbed one token only"),
        ("last-row", ('last-row-only',), "4.3",
         "only the last prefix row is compared: a leak may show in earlier rows only. Compare every row "
         "0 … `prefix_length - 1`",
         "compared the last row only"),
        ("tie-counts-as-leak", ('loose-for-strict@prefix_change(forward) > tol',), "4.3",
         "a change exactly equal to tol counts as a leak (with tol = 0, even no change at all). A leak is a change "
         "above tol: compare with `>`, not `>=`",
         "a tie at tol counts as a leak"),
        ("control-first", ('control-first',), "4.4",
         "a model that leaks is called `\"blind\"` when the control shows nothing. The control is asked first, but "
         "it only matters when the model under test itself shows no change: test the model under test first",
         "control asked first"),
        ("control-is-forward", ('control-is-the-model',), "4.4",
         "the negative control is the forward pass under test itself: the control is the same model without the "
         "mask (`model.forward(ids, causal=False)`)",
         "the control is the model under test"),
        ("fixed-token", ('constant-write',), "4.5",
         "the future is replaced by a fixed token: where the original tokens already are that token, the "
         "perturbation changes nothing; make every future token change (the next id, say)",
         "a fixed replacement token"),
        ("prefix-equals-T", ('one-more@diagnose:1 <= prefix_length < T', 'dropped-check@diagnose:'), "4.3",
         "`prefix_length = T` is not "
           "refused: there is no future to change, so raise a ValueError",
         "accepted prefix_length = T"),
        ("with-position", ('one-more@diagnose::prefix_length',), "4.3",
         "the compared rows include "
           "row `prefix_length` itself, which reads a changed token",
         "one row too many compared"),
        ("compares-future", ('other-side-of-split@diagnose::prefix_length',), "4.3",
         "the future rows are compared instead of the prefix rows: they change even in a causal model; "
         "compare rows 0 … `prefix_length - 1`",
         "compared the future rows"),
        ("batch-length", ('length-from-first-axis',), "4.3",
         *_FIRST_AXIS_FOR_TIME),
        ("no-modulo", ('modulo-dropped',), "4.3",
         "the last token id, vocab_size − 1, becomes vocab_size, outside the vocabulary: wrap the next id around "
         "with `% vocab_size`",
         "no % vocab_size"),
        ("whole-sequence", ('whole-sequence-perturbed@diagnose:',), "4.3",
         "every token is changed, the prefix too: then even a causal model's prefix logits move, and it is called "
         "leaking. Change only the tokens from `prefix_length` on",
         "changed the prefix too"),
    ),
}

# For any exercise: float64 out for float32 in, and slips of every exercise that uses weight matrices (operators);
# an argument changed in place (read from the comparison itself); and kinds read from how the results differ
# when no mutant fits (the right results in another order, the right values in another type, another kind of
# result, a refusal left out, right for one number of axes only, an extra axis of length 1): they name a kind of
# slip, whatever code made it.
_WEIGHTS = ("heads-3", "cache-2", "evidence-1")
GENERIC = {
    "dtype-promoted": Mistake(
        "*/dtype-promoted", ("float64-out", "float64-buffer"),
        "the values are right, but a float32 input gave a float64 result. A float64 constant or array promoted "
        "it (np.float64, astype(float), np.zeros without a dtype). Keep float32 in, float32 out",
        "0.6", "float32 in, float64 out"),
    "transposed-weights": Mistake(
        "*/transposed-weights", ("transposed-weights", "one-weight-transposed"),
        "the results match the weight matrices used transposed (x @ W.T, the habit of writing W x). In this "
        "course a row vector stands to the left of the weight matrix, x @ W, with W of shape (input width, "
        "output width)",
        "0.4", "weights transposed", _WEIGHTS),
    "single-head": Mistake(
        "*/single-head", ("single-head",),
        "the heads are never split: one attention runs over the full width D, scaled by √D. Split q, k and v "
        "into n_heads heads of width d = D / n_heads, attend in each head, then merge them",
        "2.2", "heads never split", _WEIGHTS),
    "scale-by-d": Mistake(
        "*/scale-by-d", ("scale-by-d",),
        "the scores are divided by d instead of √d (or by √d twice: the attention you call may already scale). "
        "Divide each head's scores by √d once",
        # evidence-1 calls no attention (neither NumPy nor lib): it has a text of its own, without the twice
        "2.3", "scaled by d, not √d", ("heads-3", "cache-2")),
    "weight-for-another": Mistake(
        "*/weight-for-another", ('one-argument-for-another@=w_k', 'one-argument-for-another@=w_v',
                                 'one-argument-for-another@=w_o',
                                 # inside lib's attention (heads-3): the keys are the queries
                                 'one-argument-for-another@causal_attention:k',
                                 # the values are the keys: W_K used for W_V
                                 'one-argument-for-another@causal_attention:v',
                                 'one-argument-for-another@attention_scores:k'),
        "the results match one weight matrix used in place of another (W_Q for W_K, say, a copy-paste slip). "
        "Queries, keys, values and the output each have a matrix of their own",
        "2.1", "one weight matrix for another", _WEIGHTS),
    "argument-changed": Mistake(
        "*/argument-changed", (),
        "the function changes the caller's array. An in-place step such as x -= … or x[...] = … spoils the "
        "caller's data. Work on a copy, then run check() again",
        "0.6", "changed an input in place"),
    "right-values-other-type": Mistake(
        "*/right-values-other-type", ("narrower-dtype",),
        "the numbers are right, but their type is not the one the task asks for (a float for a whole number, "
        "int32 for int64, float64 for another dtype, or 0/1 for True/False). Return the type the task names",
        "0.6", "right values, other type"),
    "other-kind-of-result": Mistake(
        "*/other-kind-of-result", (),
        "the function returns another kind of value than the task asks for (an array where one True or False "
        "belongs, or a bool or a number where a word belongs). Return exactly what the task names",
        "0.6", "another kind of result"),
    "not-refused": Mistake(
        "*/not-refused", ("dropped-check@raise", "dropped-condition@raise", "dropped-first-condition@raise"),
        "the results are right, but an input the task says to refuse is not refused: the function returns "
        "something, or fails later with another error. Check that input at the start and raise the error the "
        "task names",
        "0.6", "a bad input not refused"),
    "one-rank-only": Mistake(
        "*/one-rank-only", (),
        "the function is right for one number of axes only, and wrong for the others (with a batch axis, say). "
        "Count the axes from the end (axis=-1, x.shape[-1]) and handle every item of a batch",
        "0.6", "right for one number of axes only"),
    "constant-factor": Mistake(
        "*/constant-factor", (),
        "every wrong number is the right one times one factor (−1: the sign is flipped). A constant such as 2, D "
        "or √d is missing or extra, or a sign is wrong: find it",
        "2.3", "off by a constant factor"),
    "results-swapped": Mistake(
        "*/results-swapped", (),
        "every result is right, but they come back in another order than the task names: the function returns "
        "(b, a) where (a, b) belongs. Return the results in the order of the task",
        "0.6", "results in another order"),
    "unit-axis": Mistake(
        "*/unit-axis", (),
        "the numbers are right, but the shape is not: the result has an extra axis of length 1, or lacks one. "
        "Return the shape the task names: drop an extra axis (squeeze, an index), keep a reduced one (keepdims=True)",
        "0.6", "an axis of length 1 too many or too few"),
}
for _generic in GENERIC.values():
    _REGISTERED[_generic.id] = _generic


def mistake_by_id(mistake_id):
    return _REGISTERED.get(mistake_id)


# --------------------------------------------------------------------------------------

class _Pair:
    """Two mistakes that together explain the results: named as the first, with a word about the second."""

    def __init__(self, first, second):
        self.id, self.text, self.section, self.short = first.id, first.text, first.section, first.short
        self.second = second


def _named(exercise_id, site):
    generic = [m for m in GENERIC.values() if m.bugs and (not m.exercises or exercise_id in m.exercises)]
    for mistake in [*MISTAKES.get(exercise_id, ()), *generic]:
        if mistake.names(site):
            return mistake
    return None


_CATALOGUES = {}


def candidates(exercise):
    """[(mutant, mistake or None)] of the exercise's single mutants (cached).  Two operators that make the
    same code (dropping the ``- top`` of ``exp(s - top)`` is both "no max subtraction" and "a term left
    out") make one mutant, named by whichever names it."""
    found = _CATALOGUES.get(exercise.id)
    if found is None:
        by_code = {}
        for m in bugs.mutants(exercise.answer):
            code = m.code or m.key
            named = _named(exercise.id, m.sites[0])
            if code in by_code:
                first, first_named = by_code[code]
                by_code[code] = (first, first_named or named)
            else:
                by_code[code] = (m, named)
        found = _CATALOGUES[exercise.id] = list(by_code.values())
    return found


_OUTPUTS = {}                # (exercise id, mutant key, case key) -> the mutant's result
_PREPARED = {}               # case key -> (args, kwargs, objects shared by every call)
_UNKNOWN = object()
_MAX_PAIRS = 600
# a mistake often comes without the refusal the answer makes (an empty row, a position past the table): those
# operators pair even with a mutant the tests cannot see alone
_REFUSALS = frozenset({"dropped-check", "dropped-condition", "dropped-first-condition"})
# the operators that leave out a refusal (of an input the function must reject with an exception)
_NOT_REFUSED = _REFUSALS | {"lower-bound-dropped"}
# the operators that make a function right for one number of axes only
_FIXED_RANK = frozenset({"fixed-rank", "axes-from-the-front", "axes-for-one-sequence", "without-ellipsis",
                         "length-from-first-axis"})
# the slips whose only sign may be an overflow (nan or inf on large scores, right results elsewhere)
_OVERFLOWS = frozenset({"no-max-subtraction"})


def _case_key(case):
    try:
        blob = pickle.dumps((case.name, case.setup, tuple(case.args), dict(case.kwargs)), protocol=4)
    except Exception:  # noqa: BLE001 - an unpicklable case is keyed by identity
        return ("id", id(case))
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


def _prepared(exercise, case, key):
    found = _PREPARED.get(key)
    if found is None:
        namespace = {}
        if case.setup:
            exec(compile(case.setup, f"<setup of {exercise.id}:{case.name}>", "exec"), namespace)
        args = resolve(copy.deepcopy(tuple(case.args)), namespace)
        kwargs = resolve(copy.deepcopy(dict(case.kwargs)), namespace)
        shared = {}
        for value in namespace.values():          # models and their methods are shared, never copied
            if not isinstance(value, (np.ndarray, list, dict, tuple, int, float, str)):
                shared[id(value)] = value
                owner = getattr(value, "__self__", None)
                if owner is not None:
                    shared[id(owner)] = owner
        # a function of ids alone (a model's forward, its control) gives the same logits to every mutant
        # that asks for the same ids: computed once
        memo = {id(v): _Remembered(v) for v in namespace.values()
                if callable(v) and not isinstance(v, type) and getattr(v, "__name__", "") in _PURE}
        args = tuple(memo.get(id(a), a) for a in args)
        kwargs = {k: memo.get(id(v), v) for k, v in kwargs.items()}
        shared.update({id(r): r for r in memo.values()})
        if len(_PREPARED) > 2000:
            _PREPARED.clear()
        found = _PREPARED[key] = (args, kwargs, shared)
    return found


_PURE = frozenset({"forward", "<lambda>"})       # the names the cases' setups give functions of ids alone


class _Remembered:
    """A function of one array, its results kept by the array's bytes (returned as copies)."""

    def __init__(self, func):
        self.func, self.results = func, {}
        self.__name__ = getattr(func, "__name__", "forward")

    def __call__(self, ids, *rest, **kwargs):
        if rest or kwargs:
            return self.func(ids, *rest, **kwargs)
        a = np.asarray(ids)
        key = (a.shape, a.dtype.str, a.tobytes())
        if key not in self.results:
            self.results[key] = self.func(ids)
        value = self.results[key]
        return value.copy() if isinstance(value, np.ndarray) else value


def _as_expected(value):
    """A result in the form expected values take (lists become tuples)."""
    if isinstance(value, (list, tuple)):
        return tuple(_as_expected(v) for v in value)
    return value


def _output(exercise, mutant, case, key):
    slot = (exercise.id, mutant.key, key)
    if slot in _OUTPUTS:
        return _OUTPUTS[slot]
    func = mutant.function
    if func is None:
        result = _UNKNOWN
    else:
        try:
            args, kwargs, shared = _prepared(exercise, case, key)
            args, kwargs = copy.deepcopy((args, kwargs), dict(shared))
        except Exception:  # noqa: BLE001 - a setup that fails: this mutant cannot be judged on this case
            result = _UNKNOWN
        else:
            before = snapshot_arguments(args, kwargs)
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = _as_expected(func(*args, **kwargs))
            except Exception as exc:  # noqa: BLE001 - a mutant's exception is its result
                result = Raised.from_exception(exc)
            else:
                if changed_argument(args, kwargs, before) is not None:
                    result = Raised.from_exception(ArgumentChanged("argument"))
    if len(_OUTPUTS) > 200_000:
        _OUTPUTS.clear()
    _OUTPUTS[slot] = result
    return result


def _agrees(exercise, a, b):
    return _comparison(exercise, a, b)[0]


_RIGHT = {}    # (exercise id, mutant key, case key) -> (expected, the mutant's result, whether they agree)


def _right(exercise, mutant, key, expected, wrong):
    """Whether the mutant's result ``wrong`` (from :func:`_output`) on the case ``key`` agrees with ``expected``:
    compared once per process for each expected value and result (the grader compares every mutant with the
    same expected values for every student, and the comparison is most of a diagnosis's time).  The entry
    holds both objects and is used only for those very objects, never for an equal-looking other one."""
    slot = (exercise.id, mutant.key, key)
    found = _RIGHT.get(slot)
    if found is not None and found[0] is expected and found[1] is wrong:
        return found[2]
    right = _agrees(exercise, expected, wrong)
    if len(_RIGHT) > 200_000:
        _RIGHT.clear()
    _RIGHT[slot] = (expected, wrong, right)
    return right


def _comparison(exercise, expected, got):
    """(whether they agree, the comparison's reason key: ``wrong_type``, ``wrong_shape`` ...)."""
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ok, reason, _ = exercise.compare(expected, got)
            return bool(ok), reason
    except Exception:  # noqa: BLE001
        return False, None


def _fits(exercise, mutant, observations):
    """How well the mutant's outputs match the learner's: None (they do not), else the number of failed tests
    on which they agree on a value or an exception's type (weak agreements do not count: 0 when they are all
    the mutant has)."""
    evidence = 0
    for case, key, expected, got, ok in observations:
        wrong = _output(exercise, mutant, case, key)
        if wrong is _UNKNOWN:
            return None
        right = _right(exercise, mutant, key, expected, wrong)
        if ok:
            if not right:
                return None
            continue
        if right:
            return None                     # the learner fails a test this mutant passes
        if _agrees(exercise, wrong, got):
            evidence += not _only_nonfinite(exercise, expected, wrong)
        elif isinstance(wrong, Raised) and _SHAPE_ERRORS.search(wrong.type or "") and not isinstance(got, Raised) \
                and getattr(exercise, "id", "") in _ADAPTED_ARGUMENTS:
            # the slip, written into the course's answer, breaks on an argument of another shape (a replacement
            # vector) that the learner's own code adapts to: this test neither confirms nor refutes it
            continue
        elif not (isinstance(wrong, Raised) and isinstance(got, Raised)):
            return None
    return evidence


_SHAPE_ERRORS = re.compile(r"^(ValueError|IndexError)$")
# exercises whose arguments come in several shapes a learner adapts the slipped line to (causal-1's replacement:
# a token, or one token per position)
_ADAPTED_ARGUMENTS = frozenset({"causal-1"})


def _values(x):
    return list(x) if isinstance(x, tuple) else [x]


def _only_nonfinite(exercise, expected, wrong):
    """Whether the mutant's result differs from the expected one only by parts that are wholly nan or
    infinite: many mistakes overflow alike, so such an agreement is weak evidence of this one."""
    if isinstance(wrong, Raised) or isinstance(expected, Raised):
        return False
    differing = [w for e, w in zip(_values(expected), _values(wrong)) if not _agrees(exercise, e, w)]
    if not differing or len(_values(expected)) != len(_values(wrong)):
        return False
    for w in differing:
        try:
            a = np.asarray(w, dtype=np.float64)
        except (TypeError, ValueError):
            return False
        if a.size == 0 or np.isfinite(a).any():
            return False
    return True


def _fails_alike(exercise, mutant, observations):
    """Whether the mutant fails every failed test the way the learner's function does: the same exception type
    where both raise (math.exp's OverflowError is not the ZeroDivisionError of a sum that underflowed to 0),
    and no exception where only one raises.  A weak agreement names a mistake only so."""
    for case, key, expected, got, ok in observations:
        if ok:
            continue
        wrong = _output(exercise, mutant, case, key)
        if isinstance(wrong, Raised) != isinstance(got, Raised):
            return False
        if isinstance(wrong, Raised) and wrong.type != got.type:
            return False
    return True


def _compatible(exercise, mutant, observations):
    """For pairs: None when the mutant fails a test the learner passes; else whether it changes a failed one."""
    visible = False
    for case, key, expected, got, ok in observations:
        wrong = _output(exercise, mutant, case, key)
        if wrong is _UNKNOWN:
            return None
        right = _right(exercise, mutant, key, expected, wrong)
        if ok and not right:
            return None
        visible = visible or (not ok and not right)
    return visible


_NUMBERS = re.compile(r"\d+")


def _same_error(wrong, got):
    """Both raised the same error: one type, and one message once its numbers are blotted out (NumPy's own
    messages name the shapes and the operation, so two slips that fail alike fail the same way)."""
    return isinstance(wrong, Raised) and isinstance(got, Raised) and wrong.type == got.type and \
        _NUMBERS.sub("#", wrong.message) == _NUMBERS.sub("#", got.message)


def _closest(exercise, fitting, observations):
    """Of several mutants that fit, those that also raise the learner's very error on most failed tests (an
    agreement on the exception's type alone is a weak one); all of them when none does."""
    if len(fitting) < 2:
        return fitting
    scores = [sum(_same_error(_output(exercise, m, case, key), got)
                  for case, key, expected, got, ok in observations if not ok) for m, _ in fitting]
    best = max(scores)
    return fitting if best == 0 else [f for f, score in zip(fitting, scores) if score == best]


class _Answer:
    """The exercise's answer, run like a mutant (its refusals' messages tell a refusal from a crash)."""

    def __init__(self, exercise):
        self.key, self.function = "answer", exercise.answer


def _pattern(exercise, mutant, observations):
    """The tests the mutant fails, as a tuple of booleans in the order of ``observations`` (None: unknown).  A
    test that expects an exception is passed only by the answer's own refusal (the same type and message):
    a mutant without the check that crashes later with NumPy's ValueError has not refused the input."""
    out = []
    for case, key, expected, got, ok in observations:
        wrong = _output(exercise, mutant, case, key)
        if wrong is _UNKNOWN:
            return None
        failed = not _right(exercise, mutant, key, expected, wrong)
        if not failed and isinstance(expected, Raised):
            failed = not _same_error(wrong, _output(exercise, _Answer(exercise), case, key))
        out.append(failed)
    return tuple(out)


def _refusal_left_out(exercise, singles, observations):
    """A partial-credit pattern: the learner's function is right on every test that expects a value and fails
    only tests that expect an exception (it returns something, or raises another error, such as NumPy's
    IndexError).  That is a refusal left out, however the unrefused input then comes out; it is named when
    every refusal operator's mutant that fails exactly the learner's tests is named by one mistake (the values
    such a mutant returns are not compared: a learner who never wrote the check computes them otherwise)."""
    failed = [o for o in observations if not o[4]]
    if not failed or not all(isinstance(o[2], Raised) and not (isinstance(o[3], Raised) and o[3].type == o[2].type)
                             for o in failed):
        return None
    return _named_by_pattern(exercise, singles, observations, _NOT_REFUSED)


def _rank(exercise, case, key):
    """The number of axes of a test's first array argument (None: it has none)."""
    try:
        args, kwargs, _ = _prepared(exercise, case, key)
    except Exception:  # noqa: BLE001
        return None
    return next((np.ndim(a) for a in (*args, *kwargs.values()) if isinstance(a, np.ndarray)), None)


def _one_rank_only(exercise, singles, observations, pattern_only=False):
    """A partial-credit pattern: the learner's function gives the right value on some test whose input has one
    number of axes (a refusal it passes shows nothing about its values) and is wrong on every test with another (a batch axis, say), however it then goes wrong (another shape,
    an error).  Named by the mutants of the operators that fix the number of axes whose pass/fail pattern is
    the learner's, when they all name one mistake."""
    ranks = [_rank(exercise, o[0], o[1]) for o in observations]
    # right for a number of axes: a value right there (a refusal passed shows nothing about the values)
    passed = {r for r, o in zip(ranks, observations) if o[4] and not isinstance(o[2], Raised)}
    failed = {r for r, o in zip(ranks, observations) if not o[4]}
    if not passed or not failed or None in passed | failed or passed & failed or \
            any(isinstance(o[2], Raised) for o in observations if not o[4]):
        return None
    if pattern_only:            # the pattern alone (read from the results): True
        return True
    return _named_by_pattern(exercise, singles, observations, _FIXED_RANK)


def _named_by_pattern(exercise, singles, observations, operators):
    """The mistake named by every single mutant made by ``operators`` alone that fails exactly the tests the
    learner's function fails (None: none does, or they disagree)."""
    learner = tuple(not o[4] for o in observations)
    named = [n for m, n in singles if set(m.operators) <= operators and _pattern(exercise, m, observations) == learner]
    return _verdict(named) if named else None


def _coerced(expected, got, shape_too=False):
    """``got`` in the type (and dtype) of ``expected`` when it holds the same kind of numbers (None: it does
    not): a float64 array as the expected float32 one, 8.0 as 8, 1 as True.  ``shape_too``: also reshaped to
    the expected shape when only axes of length 1 differ."""
    if isinstance(expected, (tuple, list)):         # a tuple of results, or a list (one array per layer)
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return None
        items = [_coerced(e, g, shape_too) for e, g in zip(expected, got)]
        return None if any(i is None for i in items) else type(expected)(items)
    if isinstance(got, (str, Raised)) or got is None or isinstance(expected, (str, Raised)):
        return got if type(got) is type(expected) else None
    try:
        if isinstance(expected, np.ndarray):
            g = np.asarray(got)
            if g.dtype.kind not in "biuf" or expected.dtype.kind not in "biuf":
                return None
            if g.size == 0 == expected.size and isinstance(got, (list, tuple)):
                g = g.reshape(expected.shape)       # an empty list has no shape of its own, and no wrong value
            if g.shape != expected.shape:
                if not shape_too or g.size != expected.size or \
                        [n for n in g.shape if n != 1] != [n for n in expected.shape if n != 1]:
                    return None
                g = g.reshape(expected.shape)
            if expected.dtype.kind in "iub" and not np.array_equal(g, g.astype(expected.dtype)):
                return None
            return g.astype(expected.dtype)
        if isinstance(expected, (bool, np.bool_)):
            value = np.asarray(got)
            return bool(value) if value.shape == () and value.dtype.kind in "biu" and value in (0, 1) else None
        if isinstance(expected, (int, np.integer)):
            value = float(got)
            return int(value) if value.is_integer() else None
        if isinstance(expected, (float, np.floating)):
            return float(got)
    except (TypeError, ValueError, OverflowError):
        return None
    return None


def _overflowed(expected, got):
    """A result that overflowed where the expected one is finite: nan or inf in it, or an overflow error."""
    if isinstance(expected, Raised):
        return False
    if isinstance(got, Raised):
        return got.type in ("OverflowError", "ZeroDivisionError", "FloatingPointError")
    try:
        e = np.asarray(expected, dtype=np.float64)
        g = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return bool(np.isfinite(e).all() and g.shape == e.shape and not np.isfinite(g).all())


def _scaled(exercise, expected, got):
    """``(factor, entries)`` when ``got`` is ``expected`` times one constant other than 1 (item by item for a
    tuple: every item that differs, with one factor), ``entries`` the number of non-zero entries that show it;
    else None.  One number alone is always some multiple of another: the caller asks for more evidence."""
    if isinstance(expected, tuple):
        if not isinstance(got, (tuple, list)) or len(got) != len(expected):
            return None
        found = [_scaled(exercise, e, g) for e, g in zip(expected, got) if not _agrees(exercise, e, g)]
        if not found or None in found or not np.allclose([f for f, _ in found], found[0][0], rtol=1e-6):
            return None
        return found[0][0], sum(n for _, n in found)
    if isinstance(expected, (Raised, str, bool, np.bool_, int, np.integer)) or isinstance(got, (Raised, str)) or \
            (isinstance(expected, np.ndarray) and expected.dtype.kind not in "f"):
        return None
    try:
        e = np.asarray(expected, dtype=np.float64)
        g = np.asarray(got, dtype=np.float64)
    except (TypeError, ValueError):
        return None
    if e.shape != g.shape or not (np.isfinite(e).all() and np.isfinite(g).all()):
        return None
    big = np.abs(e) > 1e-6 * max(np.abs(e).max(initial=0.0), 1e-300)
    if not big.any():
        return None
    factor = float(np.median(g[big] / e[big]))
    if not np.isfinite(factor) or abs(factor - 1) < 1e-3:
        return None
    if isinstance(expected, np.ndarray):
        agrees = _agrees(exercise, (factor * e).astype(expected.dtype), np.asarray(got))
    elif e.ndim:            # a list (of lists) of numbers, as evidence-1 returns: compared as a list
        agrees = _agrees(exercise, (factor * e).tolist(), got)
    else:
        agrees = _agrees(exercise, float(factor * e), got)
    return (factor, int(big.sum())) if agrees else None


def _permuted(exercise, expected, got):
    """Whether ``got`` holds the expected results, each right, in another order (a tuple of two or more)."""
    if not isinstance(expected, tuple) or len(expected) < 2 or not isinstance(got, (tuple, list)) or \
            len(got) != len(expected):
        return False
    for order in itertools.permutations(range(len(expected))):
        if list(order) != sorted(order) and all(_agrees(exercise, expected[i], got[j]) for i, j in enumerate(order)):
            return True
    return False


def _read_from_results(exercise, singles, observations):
    """When no mutant fits: a kind of slip read from how the failed results differ, whatever code made them (the
    right results in another order, the right values in another type or with an axis of length 1 more or less,
    another kind of result, a refusal left out, a function right for one number of axes only).  None when the
    failed tests show no one kind."""
    failed = [o for o in observations if not o[4]]
    if not failed:
        return None
    def all_failed(test):
        return all(test(o[2], o[3]) for o in failed)
    if all_failed(lambda e, g: _permuted(exercise, e, g)):
        return GENERIC["results-swapped"]
    if all_failed(lambda e, g: not isinstance(e, Raised) and _agrees(exercise, e, _coerced(e, g))):
        return GENERIC["right-values-other-type"]
    if all_failed(lambda e, g: not isinstance(e, Raised) and _agrees(exercise, e, _coerced(e, g, shape_too=True))):
        return GENERIC["unit-axis"]
    if all_failed(lambda e, g: isinstance(e, Raised) and not (isinstance(g, Raised) and g.type == e.type)):
        return GENERIC["not-refused"]
    reasons = {_comparison(exercise, o[2], o[3])[1] for o in failed}
    if reasons == {"wrong_type"}:
        return GENERIC["other-kind-of-result"]
    overflow = next((m for m in MISTAKES.get(exercise.id, ()) if m.id.endswith("/no-max")), None)
    if overflow is not None and len(failed) < len(observations) and all_failed(_overflowed):
        return overflow
    scaled = [_scaled(exercise, o[2], o[3]) for o in failed]
    if all(scaled) and all(entries > 1 for _, entries in scaled):     # one number is a multiple of any other
        return GENERIC["constant-factor"]
    if _one_rank_only(exercise, [], observations, pattern_only=True):
        return GENERIC["one-rank-only"]
    return None


def _verdict(named):
    """The one mistake every fitting mutant names, or None (none fits, or they disagree, or one is unnamed)."""
    by_id = {}
    for mistake in named:
        by_id[None if mistake is None else mistake.id] = mistake
    if len(by_id) != 1 or None in by_id:
        return None
    return next(iter(by_id.values()))


def _refusal_only(mistake):
    """Whether every slip that makes ``mistake`` leaves a refusal out (an input accepted that must raise)."""
    return bool(mistake.bugs) and all(sel.partition("@")[0] in _NOT_REFUSED for sel in mistake.bugs)


def _fallback(exercise, singles, seen):
    """Nothing fits by its values: a pass/fail pattern the mutants show, else a kind read from the results."""
    return _refusal_left_out(exercise, singles, seen) or _one_rank_only(exercise, singles, seen) or \
        _read_from_results(exercise, singles, seen)


def diagnose(exercise, observations):
    """The :class:`Mistake` that best explains a failed exercise, or None.

    ``observations``: ``[(case, expected, got, ok, reason, details)]``, one per test
    run (``got`` may be a ``Raised``).  See the module docstring for the rule."""
    failed = [o for o in observations if not o[3]]
    if not failed or all(o[4] in ("not_implemented", "setup_failed", "internal_error", "setup_in_kernel",
                                  "invalid_result") for o in failed):
        return None
    reasons = {o[4] for o in failed}
    changed = GENERIC["argument-changed"] if reasons == {"argument_changed"} else None
    if getattr(exercise, "answer", None) is None:
        return changed
    # failed tests first: most mutants disagree with the learner there, so one call rejects them
    seen = [(o[0], _case_key(o[0]), o[1], o[2], o[3]) for o in sorted(observations, key=lambda o: o[3])]
    singles = candidates(exercise)
    evidence = [(m, named, _fits(exercise, m, seen)) for m, named in singles]
    fitting = [(m, named) for m, named, e in evidence if e]
    if fitting:
        return _verdict(named for _, named in _closest(exercise, fitting, seen)) or changed
    # only an overflow (results wholly nan or inf where the others are right) fits: that is evidence of an
    # overflow, and names the overflow mistake when every mutant that fits so is that one kind of slip
    weak = [(m, named) for m, named, e in evidence if e == 0]
    if weak and changed is None and all(set(m.operators) <= _OVERFLOWS and _fails_alike(exercise, m, seen)
                                        for m, _ in weak):
        return _verdict(named for _, named in weak)
    if changed is not None:
        return changed
    usable = [(m, named, visible) for m, named in singles
              for visible in [_compatible(exercise, m, seen)] if visible is not None]
    order = {m.id: i for i, m in enumerate(MISTAKES.get(exercise.id, ()))}
    # tiers, each searched whole before the next: the same slip at two places, a slip with a refusal left
    # out, then any two slips (a search cut short by _MAX_PAIRS names nothing)
    same, refusal, rest = [], [], []
    for i, x in enumerate(usable):
        first = x[0].sites[0].operator
        for y in usable[i + 1:]:
            second = y[0].sites[0].operator
            refuses = first in _REFUSALS or second in _REFUSALS
            if x[2] or y[2] or refuses:
                (same if first == second else refusal if refuses else rest).append((x, y))
    # an overflow slip (no maximum subtracted) shows itself only by nan, inf or an overflow error: an answer
    # none of whose results overflowed is not told it, whatever else the pair explains
    overflowed = any(not ok and _overflowed(expected, got) for _, _, expected, got, ok in seen)
    found = []
    for tier in (same, refusal, rest):
        if len(tier) > _MAX_PAIRS:
            return _fallback(exercise, singles, seen)
        for (a, name_a, _), (b, name_b, _) in tier:
            if not overflowed and any(set(m.operators) <= _OVERFLOWS for m in (a, b)):
                continue
            pair = bugs.pair(a, b)
            if pair is not None and _fits(exercise, pair, seen):
                # a refusal left out fails one kind of test; the slip that changes values is named first
                named = sorted((n for n in (name_a, name_b) if n is not None),
                               key=lambda n: (_refusal_only(n), order.get(n.id, 99)))
                found.append((named[0] if named else None, named[1] if len(named) > 1 else None))
        if found:
            break
    if not found:
        # nothing fits by its values: the learner's may still be a refusal left out, whatever the unrefused
        # input then gives
        return _fallback(exercise, singles, seen)
    first = _verdict(f for f, _ in found)
    if first is None:
        # pairs that name no mistake of this exercise's own leave room for a kind read from the results
        return None if any(f is not None and f.id in _REGISTERED and not f.id.startswith("*/") for f, _ in found) \
            else _read_from_results(exercise, singles, seen)
    seconds = {None if s is None else s.id: s for _, s in found}
    if set(seconds) <= {first.id} | _MENDS.get(first.id, set()):
        # one slip made at two places (the mean and the variance both over time), or a second slip whose fix
        # the first hint already asks for: the hint's one fix mends both, so there is no second mistake to
        # announce
        return first
    return _Pair(first, next(iter(seconds.values())) if len(seconds) == 1 else None)


# mistakes whose hint also asks for the fix of another: a finite fill for forbidden scores leaves an empty row
# unrefused, and its hint says to check for empty rows and raise (a learner who fixes what it names gets full
# marks, so a pair of the two is one mistake)
_MENDS = {"mask-2/finite-fill": {"mask-2/empty-row-unchecked"}}


TEMPLATE = text("grading.diagnoses.template", "What this suggests: {text}. See §{section}.")


SECOND = text("grading.diagnoses.second", "{said} There is a second mistake as well: fix this one, then run "
                                          "check() again.")


_CLAUSE = {"zh": re.compile(r"[：；]"), "en": re.compile(r"(?<=\w|\))[:;] "),
           "ru": re.compile(r"(?<=\w|\))[:;] ")}


def sentences(text, lang):
    """A hint written as clauses (``what happened: why; the fix``) as short sentences, one per clause: a
    sentence ends where a clause ends, outside brackets and code (tools/hint_readability.py measures it)."""
    pattern = _CLAUSE.get(lang, _CLAUSE["en"])
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += ch in "([`" if ch != "`" else (1 if depth % 2 == 0 else -1)
        depth -= ch in ")]"
        if depth == 0 and pattern.match(text, i):
            parts.append(text[start:i])
            start = i + (1 if lang == "zh" else 2)
    parts.append(text[start:])
    parts = [p.strip() for p in parts if p.strip()]
    if lang == "zh":
        return "。".join(parts)
    return ". ".join(p[0].upper() + p[1:] if i and p[0].islower() and not starts_with_code(p) else p
                     for i, p in enumerate(parts))


_CODE_WORD = re.compile(r"[=_.(\[\d]")


def starts_with_code(clause):
    """Whether a clause begins with code or a symbol, which keeps its case at the start of a sentence: one
    Latin letter other than the article "a" (r, p, x), or a word holding ``= _ . ( [`` or a digit (axis=-1,
    d_gain, np.add.at, float32, x̂)."""
    first = clause.split(None, 1)[0].rstrip(",;:")
    if first.startswith("x"):                 # x, x̂, x @ W: no hint starts a sentence with an English word in x
        return True
    if len(first) == 1:
        return "a" < first <= "z"
    return bool(_CODE_WORD.search(first))


def explain_mistake(mistake, lang):
    """The diagnosis sentence in ``lang``."""
    what = sentences(mistake.text.get(lang) or mistake.text["en"], lang)
    said = TEMPLATE.get(lang, TEMPLATE["en"]).format(text=what, section=mistake.section)
    if isinstance(mistake, _Pair):
        said = SECOND.get(lang, SECOND["en"]).format(said=said)
    return said


def short_name(mistake, lang):
    names = mistake.short or mistake.text
    return names.get(lang) or names["en"]
