"""tools/hint_readability.py: the hints' length and reading level in three languages, measured and held
to the target (about 80–160 words for a failing block, grade 9 or below for the hint)."""

import pathlib
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
