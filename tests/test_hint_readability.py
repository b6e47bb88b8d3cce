"""tools/hint_readability.py: the hints' length and reading level in three languages, measured and held
to the target (about 80–160 words for a failing block, grade 9 or below for the hint)."""

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools import hint_readability as h  # noqa: E402


def test_the_measures():
    assert h.syllables_en("table") == 2 and h.syllables_en("the") == 1 and h.syllables_en("normalise") == 3
    assert h.syllables_ru("нормализация") == 6                       # one vowel letter, one syllable
    assert h.length("np.allclose applies its own tolerance.", "en") == 5
    assert h.length("查询不能读取它自己的键。", "zh") == 11             # characters, punctuation left out
    easy, hard = "The cat sat on the mat. It was warm.", ("Multidimensional normalisation substantially "
                                                          "complicates interpretability considerations.")
    assert h.grade(easy, "en") < 2 < 12 < h.grade(hard, "en")
    assert h.sentences("一。二；三", "zh") == 3 and h.sentences("One: two; three.", "en") == 1
    assert 0 <= h.rare_share("查询不能读取它自己的键") < 0.5


def test_the_hints_meet_the_target():
    """Every hint names its fix in short sentences: English and Russian at grade 9 or below but for a
    few (at most 5 %), at most 45 words; Chinese at most 120 characters."""
    found = h.hints()
    en = [(i, t, h.grade(t, "en"), h.length(t, "en")) for i, t in found["en"]]
    hard = [(i, round(g, 1)) for i, _, g, _ in en if g > 9]
    assert len(hard) <= 0.05 * len(en), hard
    assert max(n for *_, n in en) <= 45
    hard_ru = [(i, round(h.grade(t, "ru"), 1)) for i, t in found["ru"] if h.grade(t, "ru") > 9]
    assert len(hard_ru) <= 0.05 * len(found["ru"]), hard_ru
    assert max(h.length(t, "ru") for _, t in found["ru"]) <= 45
    assert max(h.length(t, "zh") for _, t in found["zh"]) <= 120


def test_a_hint_ends_without_a_full_stop_or_a_section():
    """A hint is written, in every language, as clauses with no full stop at the end and no §: `explain_mistake`
    adds both ("What this suggests: {text}. See §{section}."), so a hint that ended with a full stop would print
    ".." (in Chinese "。。") and one that named its section would name it twice. The check stood in
    tests/test_guides.py alone, which a translator's loop does not run (read63 T C3); it stands here, beside the
    length it shares the printed line with (docs/translating.md, the diagnoses)."""
    from grading import diagnoses
    mistakes = [m for ms in diagnoses.MISTAKES.values() for m in ms] + list(diagnoses.GENERIC.values())
    wrong = [(m.id, lang) for m in mistakes for lang, hint in m.text.items()
             if "§" in hint or hint.rstrip().endswith((".", "。"))]
    assert not wrong, f"a hint's full stop and section are the code's: {wrong}"
    said = diagnoses.explain_mistake(mistakes[0], "en")
    assert said.count(f"§{mistakes[0].section}") == 1 and ".." not in said


# Words of code that are no English or Russian word: arguments of the exercises (tol, tq, ids), NumPy's names
# (itemsize, keepdims, dtype).  A sentence made from a clause that starts with one keeps its case.
CODE_WORDS = {"atol", "tol", "eps", "tk", "tq", "ids", "grad", "dtype", "vocab", "itemsize", "axis", "keepdims",
              "float", "int", "bool", "len", "range", "argmax"}


_CODE_CHARS = re.compile(r"[=_.(\[\d]")


def capitalised_code(rendered, raw, words):
    """The sentence starts of ``rendered`` that capitalise code ``raw`` writes in lower case: a Latin letter
    alone (r, p), a word with = _ . ( [ or a digit (axis=-1, float32), or one of ``words`` (itemsize)."""
    found = []
    for sentence in re.split(r"(?<=[.。]) ", rendered):
        word = sentence.split(None, 1)[0].rstrip(",;:.")
        if not word[:1].isupper() or word in raw:
            continue
        low = word[0].lower() + word[1:]
        if (len(word) == 1 and word.isascii() and word not in "AI") or _CODE_CHARS.search(word) or low in words:
            found.append(word)
    return found


def test_a_sentence_that_starts_with_code_keeps_its_case():
    """A hint's clauses become sentences, and a sentence that starts with code keeps its case: never "R is
    1 / √(σ² + eps)" for r, "Axis=-1", "Itemsize" or «Eps пропущен» (the fresh reading of the grader's texts)."""
    from grading import diagnoses
    words = CODE_WORDS
    assert capitalised_code("What this suggests: x. R is 1. Axis=-1. Itemsize counts. A row. The rest.",
                            "x: r is 1: axis=-1: itemsize counts: a row. The rest", words) == \
        ["R", "Axis=-1", "Itemsize"]                                          # the check can fail
    mistakes = [m for ms in diagnoses.MISTAKES.values() for m in ms] + list(diagnoses.GENERIC.values())
    wrong = []
    for lang in ("en", "ru"):
        for m in mistakes:
            raw = m.text.get(lang) or m.text["en"]
            wrong += [(lang, m.id, w) for w in capitalised_code(diagnoses.explain_mistake(m, lang), raw, words)]
    assert not wrong, wrong
    for clause, kept in (("r is 1", True), ("axis=-1, keepdims", True), ("a row", False), ("the row", False),
                         ("x̂ · mean", True), ("в позиции", False), ("float32 на входе", True)):
        assert diagnoses.starts_with_code(clause) == kept, clause
