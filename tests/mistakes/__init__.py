"""A corpus of realistic wrong answers to every exercise, kept as data.

One module per exercise notebook (``exNN.py``) holds a list ``ENTRIES`` of
:class:`Entry`: the exercise id, a short slug, the wrong function's code as a
learner would write it in the notebook (a ``def`` of the exercise's function,
with the imports it needs), and the id of the mistake
(:data:`grading.diagnoses.MISTAKES`) that ``check()`` should name, or None
when no diagnosis is expected (a tuple of ids when the code has two
mistakes: naming either is right).  tests/test_mistakes.py runs every entry through
the public and practice tests, the grader's scoring and the diagnosis.

A wrong answer that a bug operator of grading/bugs.py makes from the course's
answer is not written here: :func:`bug` makes its entry from the catalogue
(the answer in grading/references.py with the operator applied, as source).
Entries written out here are the answers no operator makes: other ways to make
a mistake (a loop where the answer uses a comparison, say), and mistakes
without a diagnosis.

The last section of each module holds the held-out answers of issue 34
(``heldout=True``): written by someone who had not seen the diagnoses, this
corpus or the operators, measured once, then added here verbatim (with the
notebook's imports) and never tuned to.  tests/test_mistakes.py holds the
project's own entries to the diagnosis rate and prints the held-out rate beside it.

Round 5 of issue 34 read which of those answers were not named and why, and added operators by *kind*
(a reduction without keepdims, a length read from the first axis, `/` for `//`, the other side of a
split, ...); the answers they now name carry that diagnosis.  Their rate is therefore no longer a held-out
measure: the next, unseen set is.

That next set, the second held-out set (slugs ``heldout3-NNN``, NNN its index in the set), was measured once
on 2026-12-05, before anything was changed for it: of 146 answers check() named 98 right and 1 wrongly
(heldout3-069, ``named_wrongly``), 4 passed check() and 5 the grader.  Those 5 were holes in the tests, closed
after the measurement by new public tests and hidden kinds (pos-2 negative-offset, cache-3 first-output-wrong,
dec-2 gain-of-shape-1-D, dec-4 sees-the-last-token); one of them, index 109 (cache-3, NumPy integers passed
to step), is not a mistake: the exercise asks for an int and lib's step takes any integer, NumPy's too, so
it is left out (145 entries).  The diagnosis is the one judged right, None where check() named none; two
that check() did not name but the grader or another practice draw names rightly carry that name
(heldout3-124, heldout3-144), and two named wrongly on another practice draw only carry
``named_wrongly_elsewhere`` (heldout3-017, heldout3-062).  An answer that calls the notebook's other
functions (split_heads, future_perturbation_change) carries the solved notebook's definitions of them before
its own cell, as the measurement defined them.

Round 6 of issue 34 worked on the project's entries and the first two held-out sets only (the heldout3 answers'
code was not read while developing) and added kinds of slip: a perturbation one late (a selector that matched
across function:code had named it "one row too many"), `.all()` for `.any()`, D for d, bits for bytes, T one
column too long, `np.argmax` of the padding for a count, a refusal left out and a function right for one number
of axes only (both read from the pass/fail pattern).  Measured at the end, check() names 7 more heldout3
answers, each rightly (judged from the writer's description; they now carry that diagnosis): 105 of 145, none
named wrongly, where the start of the round named 98 and 1 wrongly (heldout3-069).  The two named wrongly on
other practice draws only (heldout3-017, heldout3-062) are no longer: check(practice=...) now diagnoses a
practice draw with the public tests beside it, as the grader does, and the mistakes named then fail a public
test those answers pass.

The fourth held-out set (slugs ``heldout4-NNN``, 149 answers) was measured once on main at the end of round 6,
before anything was changed for it: check() named 107 (each judged right from the writer's description but one,
below), 3 passed check() and the grader with full marks.  Those 3 were holes in the tests, closed after the
measurement by public tests and hidden kinds (causal-4 large-values: E[x²] − E[x]² for the variance; dec-4
first-sees-the-last-token: only the last prefix row compared; dec-4 tol-0: ``>=`` for ``>``).  Adding the set
here found a fourth: heldout4-054 (pos-1, slicing with an off-by-one bound check) kept its points on the test
key 2026, whose draws raised by accident of broadcasting; pos-1 gained one-token-past-the-table and
negative-offset-inside-the-table, and check() now names it pos-1/unchecked (judged right here, not by the set's
judge: the code checks no negative offset and its upper bound is one too loose).  Every answer is here (all are mistakes).  The diagnosis is the one
check() gave where judged right, None where it gave none; heldout4-018, which check() did not name, carries the
grader's name (mask-3/wrong-axis: it sums over axis 0); heldout4-069 carries the name check() gives
(causal-1/perturbs-one-late), whose judgement was not in the judge's file (its key there names
causal-1/with-position, the name an older catalogue gave heldout3-069).

Round 7 of issue 34 read the entries check() did not name (all sets; the fourth is a development set now) and
added kinds, each named from behaviour rather than from one written-out answer: operators (the weights used
transposed, one weight matrix for another, d for √d, the control asked first, the last two verdicts swapped,
the first sequence for the batch sum, a new position put in front, statistics over the whole array, a sum for a
mean, the terms after the first dropped, a swap that overwrites, left padding, one position written on both
sides), and, when no mutant fits, kinds read from how the results differ (the right values in another type or
with an axis of length 1 more or less, another kind of result, a refusal left out, right for one number of
axes only).  The entries those name, each read against its writer's description, carry that diagnosis now.

The fifth held-out set (slugs ``heldout5-NNN``, 165 answers, all mistakes) was measured once on main (dd49176) at
the end of round 7, before anything was changed for it: none passed check() or the grader, check() named 139, 138
of them judged right; heldout5-037 (heads-2, the heads joined in reverse order) was named */one-rank-only
(``named_wrongly``).  The diagnosis is the one check() gave where judged right, None where it gave none; three
that check() did not name carry the grader's name, read here against the writer's description (heldout5-019
mask-3/wrong-axis, heldout5-158 dec-4/perturbs-one-late, heldout5-159 dec-4/last-row); heldout5-117 (cache-2, the
softmax over the heads axis) also subtracts one maximum over every head, not each row's, which the grader's draws
name cache-2/no-max: both are accepted.  Its 23 right answers joined tests/right_answers.  After the measurement,
*/one-rank-only asks for a value right at one number of axes (a refusal passed there shows nothing about the
values): heldout5-037 passed only the refusal of a 2-D input and is no longer named so (the operator heads-reversed, added
then, names it heads-2/reversed), and heldout4-061 (right
with a batch axis only; a 1-D input raised the very ValueError a refusal test expects) now is, rightly.  A pair
of slips that are one mistake at two places (the mean and the variance both over time) no longer claims "a
second mistake" (heldout5-098, -104, -143, -149, and 18 entries more of every set).

Round 8 of issue 34 added probes of precision (slugs ``r8-NNN``, ``probe=True``, NNN the answer's index in the
round's own file): 124 wrong answers that no operator makes (partial fixes, slips in a helper, wrong constants,
extra clipping or rounding, answers right on most inputs, two unrelated mistakes), written to see that nothing
is named wrongly.  The diagnosis is the one check() gives where judged right, None where it gives none (a
careful reader would name most of those only from the code).  They are counted apart from the rate: most expect
none.  One (r8-048, position 0 accepted) is no mistake (np.max of the empty prefix raises the ValueError anyway),
and one (r8-096, heads-1 raising TypeError) rewrote the refusal the exercise gives ready-made, which a test could
not check without the stub passing it; both are left out (122 here).  Six others passed check() then, one more the
grader: the tests gained the inputs that separate each kind of slip (forbidden weights of both signs, mask-3;
texts in an order sorting changes, data-1; a batch where only a later sequence changes, causal-1; tol on
either side of the change measured, causal-2 and dec-4, where the change is 0.01 in two logits of one position so
that a mean or relative change stays below it; a normalised value beyond ±3, causal-4), and they joined.
Kinds read in that round, each from several independent sets, now carry their diagnosis: a strictly positive
weight demanded on every allowed key and a mask of one's own for allowed (mask-3), new_cache passed uncalled
(cache-3), the old caches returned and the position left out (dec-3), one weight matrix transposed (heads-3), a
prefix one too long (cache-1), logits of shape (1, V) (dec-3, an axis of length 1 inside a list of results), the
Jacobian's diagonal only (dec-1), a 0 put in front of the sweep (causal-3).

Round 9 read a development set written blind (dev7, 140 wrong answers; not held out: it is read and tuned to)
and added kinds, each with entries written here (slugs ``r9-*``) and the dev7 answers it names (slugs
``dev7-NNN``, the set's index, with the writer's description): a comparison with its two sides swapped, the
maximum over the whole array, a bare transpose, the values from the keys, ids plus the offset as positions, the
control asked before the model, E[x²] − E[x]², row 0's length for every row, a signed difference the other way
round, the batch's mean for its sum, the targets fed for the inputs, the plain sum of g for Σ w·g, and causal-1's slips in a learner's own
handling of a replacement vector.  Eight older entries that expected no name make exactly those slips and now
carry them (heldout-019, heldout4-002, heldout4-090, heldout5-003, heldout5-033, transpose-reversed, r8-060, r8-121),
and two named */constant-factor now carry the more precise pos-2/batch-mean (heldout5-064, r8-036).

The seventh held-out set (slugs ``heldout7-NNN``, 151 wrong answers and 23 right ones) was measured once on main
(31fa132) in round 9, before anything was changed for it: check() named 129, 127 of them judged right;
heldout7-067 (pos-1, ``ids[t]`` picks a whole row of a batch) was named pos-1/batch-length, whose hint then said
T was read from the first axis (judged wrong); the hint now names the slip itself, the first axis taken for time
(T = len(ids) or ids[t]), and the entry expects that name (or */one-rank-only, which another draw gives: true too),
and heldout7-061 (cost-1, both input checks left out) was named cost-1/zero-layers, true but only one of its two
mistakes (judged partial): it accepts cost-1/indivisible-accepted too.  Three that check() did not name carry
the grader's name, read here against the writer's description (heldout7-127 cache-2/no-max, heldout7-149
*/one-rank-only: right for 2-D input only, heldout7-173 dec-4/last-row); heldout7-126 (cache-2, √D for √d and
no maximum subtracted) also accepts cache-2/no-max, which another practice draw names.  One answer
passed check() and the grader: heldout7-133 (cache-3) compares each step with ``forward(ids[:t + 1])[-1]``,
which agrees with ``forward(ids)[t]`` whenever forward is causal; cache-3 gained a public test and a hidden kind
whose full forward pass runs without the mask beside a correct cache, and the operator prefix-forward, which
names it cache-3/prefix-forward.  Those that call an earlier exercise's function get the solved notebook's
answer above them (``answers_above``), as the measurement did.  Its 23 right answers joined tests/right_answers.

Round 10 read a second development set written blind (dev8, 147 wrong answers and 24 right ones; not held out).
On main check() named 120, one named mistake was not the code's (causal-2/ignores-tol said tol was not used where
the code compares only the control's change with 0) and one was half true (mask-1/strict on a loop's bound); one
passed check() and the grader (dev8-037, heads-1 with the given check of the width deleted: a test of that
refusal would give the untouched stub its points, so it stays out of the corpus).  Kinds added: the mean for the sum (dec-1/row-mean), the first row for the last
(pos-3/first-row), a slice one place late (pos-1/one-late, pos-2/one-late), a factor taken twice
(cost-1/head-width-twice; cost-1/cache-full-width for H twice), a loop one step past the end
(causal-3/past-the-end), the last two arguments swapped (heads-3/keys-values-swapped) and one head for all
(*/single-head).  Three older entries make those slips and now carry them (heldout5-061, r8-095, heldout7-048).  dev8-124 and dev8-147, which check() names nothing, carry the true name another practice draw gives (cache-2/no-max, */one-rank-only).  The other 146 join
as ``dev8-NNN`` with the name check() gives (127, all judged right) or None; 23 right ones joined
tests/right_answers (dev8-148, a Jacobian through einsum, is not right: float64 out for float32 in, and
forbidden entries not exactly 0).

The eighth held-out set (slugs ``heldout8-NNN``, 161 wrong answers and 23 filed as right) was measured once on
main in round 10: check() named 137, 133 judged right and 4 partly (heldout8-018, -061, -103, -134: true of one of
two slips, or of the symptom only), none wrongly; four passed check() and the grader.  Two were holes in the
tests, closed after the measurement by a public test and a hidden kind each: mask-3 batch-shared-mask
(heldout8-017, ``weights[~allowed]`` with an allowed set that must broadcast; now */one-rank-only) and dec-4
leak-with-a-blind-control (heldout8-181, the control asked first; now dec-4/control-first, the operator
causal-2 already had).  Two stay out: heldout8-079 (pos-2) handles one batch axis only, and heldout8-109
(causal-3) takes ``len(ids)`` for T, but pos-2's statement and lib's embed_backward take grad (T, D) or
(B, T, D) only, and causal-3's statement gives ids of shape (T,).  heldout8-160, filed as right, is wrong
(dec-1, float64 out for float32 in; */right-values-other-type).  160 join, that one among them, with the name check() gives
(140) or None; its 22 right answers joined tests/right_answers (137).

The ninth held-out set (slugs ``heldout9-NNN``, 115 wrong answers, 5 for each of the 23 exercises, and 23 right
ones) was measured once on main (9b3b9a05) in round 10, before anything was changed for it: check() named 102
(89 %), all 102 judged right, none wrongly or partly; 13 got the generic message; none passed check() or the
grader.  All 115 joined verbatim (with the notebook's imports the code uses and ``answers_above`` for an earlier
exercise's function) with the name check() gives or None; nothing was tuned to them.  Two that check() named
none when measured are named on other practice draws or by the grader, truly, and expect that name:
heldout9-099 (cache-2, no max subtraction: cache-2/no-max) and heldout9-117 (dec-1, one sum over the whole
array: */one-rank-only).  Its 23 right answers all
passed with no diagnosis and joined tests/right_answers (160).

A fresh reader's answers (slugs ``read84-*``, tried with check() at 848591ba; not held out, tuned to) joined with
the diagnosis now expected.  A finite fill without the empty-row refusal is one mistake, not two: the
finite-fill hint already asks for the refusal, and fixing what it names gives full marks (heldout5-009, which
the same pair named with "a second mistake", no longer claims one).  An overflow slip (no maximum subtracted) is
named only when some result overflowed: read84-empty-cache-special-cased subtracts the maximum and passes the
overflow test, yet was named cache-2/no-max with a second mistake; it now gets no name.
"""

import importlib
import inspect
import pathlib
import pkgutil
import re
import textwrap
import types
from dataclasses import dataclass

from grading import bugs, diagnoses
from grading.registry import EXERCISES


@dataclass(frozen=True)
class Entry:
    exercise: str
    slug: str
    code: str
    diagnosis: object = None        # a mistake id, a tuple of ids (code with two mistakes), or None
    mistake: str = ""               # the writer's description of what is wrong (the held-out answers carry it)
    heldout: bool = False           # one of the held-out answers of issue 34 (written apart, measured once)
    named_wrongly: object = None    # held-out: the mistake id the catalogue names though the code has another
    # held-out: a mistake id the catalogue names on another practice draw only (check()'s own draw and the
    # grader's name none or the right one), though the code has another
    named_wrongly_elsewhere: object = None
    # a probe of precision (round 8 of issue 34, slugs r8-NNN): a wrong answer no operator makes, written to see
    # that nothing is named wrongly; most expect no diagnosis, so they are counted apart from the rate
    probe: bool = False

    @property
    def accepted(self):
        """The diagnoses that name a mistake this code has."""
        if self.diagnosis is None:
            return ()
        return self.diagnosis if isinstance(self.diagnosis, tuple) else (self.diagnosis,)

    @property
    def name(self):
        return f"{self.exercise}:{self.slug}"


def entries():
    out = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        out += module.ENTRIES
    return out


def load(entry, function):
    """The wrong function of ``entry``, defined as the notebook would define it."""
    scope = {"__name__": "__main__"}
    exec(compile(entry.code, f"<{entry.name}>", "exec"), scope)
    return scope[function]


def _called_functions(func):
    """The functions of ``func``'s module that it calls, directly or through each other, in source order."""
    scope, found, stack = func.__globals__, {}, [func.__code__]
    while stack:
        code = stack.pop()
        stack += [c for c in code.co_consts if isinstance(c, types.CodeType)]
        for name in code.co_names:
            value = scope.get(name)
            if (isinstance(value, types.FunctionType) and value.__module__ == func.__module__
                    and value is not func and name not in found):
                found[name] = value
                stack.append(value.__code__)
    return sorted(found.values(), key=lambda f: f.__code__.co_firstlineno)


def _notebook_cell(code, imports):
    """``code`` as a learner's cell: ``imports``, then the code without its solution markers."""
    from tools.nbsource import SOLUTION_BEGIN, SOLUTION_END
    body = [line for line in code.splitlines(keepends=True) if line.strip() not in (SOLUTION_BEGIN, SOLUTION_END)]
    return "\n" + "".join(f"{line}\n" for line in imports) + "".join(body).lstrip("\n")


def reference_answer(function, imports=("import numpy as np",)):
    """The course's answer ``function`` (grading/references.py) as a notebook cell after ``imports``."""
    return _notebook_cell(textwrap.dedent(inspect.getsource(function)), imports)


def answers_above(notebook, *functions):
    """The solved notebook's answers ``functions`` (solutions/en/<notebook>.ipynb), defined by the cells above a
    held-out answer that calls them: the measurement defined them so (tools/measure_feedback.py, whose cells
    these are)."""
    from tools.measure_feedback import answer_cells
    cells = answer_cells(notebook, "en", functions)
    if len(cells) != len(functions):
        raise ValueError(f"{notebook}: {len(cells)} code cells define {', '.join(functions)}, not {len(functions)}")
    return "\n" + "".join(c.rstrip("\n") + "\n" for c in cells)


def with_slips(code, *replacements):
    """``code`` with each (old, new) replacement made: a realistic slip.  Each ``old`` must occur
    exactly once, so a slip that no longer applies (the answer changed) fails loudly."""
    for old, new in replacements:
        if code.count(old) != 1:
            raise ValueError(f"the slip {old!r} -> {new!r} applies {code.count(old)} times, not once")
        code = code.replace(old, new)
    return code


_CELL_IMPORTS = ("import math", "import numpy as np", "from lib import layers",
                 "from lib.attention import causal_attention", "from lib.data import BOS, EOS, IGNORE, encode")


def bug(exercise, slug, selector, diagnosis, also=None):
    """The entry whose code is the exercise's answer with the bug operator ``selector`` applied
    (grading/bugs.py; ``also``: a second selector, for code with two mistakes), as a notebook cell:
    the answers above it of the notebook's other functions it calls, the imports it needs, then the mutated
    answer under the exercise's function name.  The selector
    must name exactly one place, so an entry that no longer applies (the answer changed) fails loudly."""
    answer = EXERCISES[exercise].answer
    chosen = []
    for sel in (selector,) + ((also,) if also else ()):
        found = bugs.find(answer, sel)
        fewest = min((len(m.sites[0].indices) for m in found), default=0)
        found = [m for m in found if len(m.sites[0].indices) == fewest]    # one place rather than all alike
        if len(found) != 1:
            raise ValueError(f"{exercise}:{slug}: the bug {sel!r} applies at {len(found)} places of "
                             f"{answer.__name__}, not one: {[str(m.sites[0]) for m in found]}")
        chosen.append(found[0])
    mutant = chosen[0] if len(chosen) == 1 else bugs.pair(*chosen)
    source = mutant.source(EXERCISES[exercise].function)
    if source is None:
        raise ValueError(f"{exercise}:{slug}: {selector!r} is a wrapper operator, it has no source")
    imports = [line for line in _CELL_IMPORTS if re.search(rf"\b{line.split()[-1].split(',')[0]}\b", source)]
    data = [name for name in ("BOS", "EOS", "IGNORE", "encode") if re.search(rf"\b{name}\b", source)]
    imports = [line for line in imports if not line.startswith("from lib.data")]
    if data:
        imports.append(f"from lib.data import {', '.join(data)}")
    # an earlier exercise's function the answer calls (causal-2's future_perturbation_change): the solved
    # notebook's answer above it, as in the notebook, so that the entry runs alone as it runs there
    function = EXERCISES[exercise].function
    above = [ex.function for ex in EXERCISES.values()
             if ex.notebook == EXERCISES[exercise].notebook and ex.function != function
             and re.search(rf"\b{ex.function}\(", source) and f"def {ex.function}(" not in source]
    head = answers_above(EXERCISES[exercise].notebook, *above) if above else ""
    return Entry(exercise, slug, head + "\n" + "\n".join(imports) + "\n" + source, diagnosis)
