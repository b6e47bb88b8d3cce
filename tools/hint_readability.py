"""How long and how hard the diagnoses are to read, in every language of the course.

    python tools/hint_readability.py            # every hint, and the failing check() blocks of the corpus
    python tools/hint_readability.py --hints    # the hints only (fast)

Two things are measured against the target of the literature (Brown et al.,
TOCE 2025: the best next-step hints run 80–160 words at a US grade-9 level or
below):

* the **hint**: the line ``→ What this suggests: … See §N.M.`` of every known
  mistake (grading/diagnoses.py), in each language;
* the **block**: everything a failing ``check()`` prints (the header, one line
  per test, the summary and the hint), for every entry of the corpus
  tests/mistakes/ that gets a diagnosis.

Length: words for English and Russian (runs of letters and digits, a code
token such as ``np.allclose`` counting once); characters for Chinese (every
Han character and every other non-space character that is not punctuation),
since Chinese writes no spaces between words.

Reading level:

* **English**: the Flesch–Kincaid grade, 0.39·(words/sentence) +
  11.8·(syllables/word) − 15.59.  Sentences end at ``.``, ``!``, ``?`` or
  the end of the text, not at ``:`` or ``;``, so a long hint is not made to
  look easy.  Syllables are counted by the usual rule (runs of vowels, a
  final silent e dropped, at least one per word).
* **Russian**: the same two measures with the coefficients of the Russian
  adaptation published with plainrussian.ru (I. Begtin),
  0.5·(words/sentence) + 8.4·(syllables/word) − 15.59, because Russian words
  are longer in syllables than English ones and the English coefficients
  would rate every Russian text several grades too hard.  A Russian syllable
  is exactly a vowel letter, so the syllable count is exact.
* **Chinese**: no grade formula is established, so the two features Chinese
  readability formulas are built on are reported instead (Yang 1971, Sung et
  al. 2015): characters per sentence (sentences end at 。！？ or ；) and the
  share of words (jieba's segmentation) outside the 5,000 most frequent words
  of jieba's dictionary.  The length target is the English one converted at
  the ratio measured on these very texts (Chinese characters per English word
  of the same hints), printed with the results.
"""

import argparse
import contextlib
import io
import re
import statistics
import sys
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from course_i18n import LANGUAGES  # noqa: E402

_WORD = re.compile(r"[^\W_][\w.'’-]*", re.UNICODE)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_PUNCT = set("，。！？；：、（）“”‘’《》…—·,.!?;:()[]{}\"'`|→✓✗ ")


def words(text):
    return [w for w in _WORD.findall(text) if any(c.isalpha() or c.isdigit() for c in w)]


def sentences(text, lang):
    ends = r"[。！？；]" if lang == "zh" else r"(?<=[.!?])\s+|\n"
    parts = [p for p in re.split(ends, text) if p.strip()]
    return max(len(parts), 1)


def syllables_en(word):
    w = re.sub(r"[^a-z]", "", word.lower())
    if not w:
        return 1
    groups = re.findall(r"[aeiouy]+", w)
    n = len(groups)
    if w.endswith("e") and not w.endswith(("le", "ee")) and n > 1:
        n -= 1
    return max(n, 1)


def syllables_ru(word):
    return max(len(re.findall(r"[аеёиоуыэюяАЕЁИОУЫЭЮЯ]", word)), 1)


def length(text, lang):
    """Words (en, ru) or characters (zh)."""
    if lang == "zh":
        return sum(1 for c in text if not c.isspace() and c not in _PUNCT)
    return len(words(text))


def grade(text, lang):
    """The Flesch–Kincaid grade (en) or its Russian adaptation (ru); None for zh."""
    ws = words(text)
    if lang == "zh" or not ws:
        return None
    asl = len(ws) / sentences(text, lang)
    if lang == "ru":
        return 0.5 * asl + 8.4 * sum(syllables_ru(w) for w in ws) / len(ws) - 15.59
    return 0.39 * asl + 11.8 * sum(syllables_en(w) for w in ws) / len(ws) - 15.59


_COMMON = None


def rare_share(text):
    """The share of jieba's words in ``text`` outside the 5,000 most frequent words of its dictionary."""
    global _COMMON
    import jieba
    if _COMMON is None:
        dictionary = pathlib.Path(jieba.__file__).with_name("dict.txt")
        rows = [line.split() for line in dictionary.read_text(encoding="utf-8").splitlines()]
        rows = sorted((r for r in rows if len(r) >= 2), key=lambda r: -int(r[1]))
        _COMMON = {r[0] for r in rows[:5000]}
    jieba.setLogLevel(60)
    tokens = [t for t in jieba.lcut(text) if _HAN.search(t)]
    return sum(t not in _COMMON for t in tokens) / len(tokens) if tokens else 0.0


def measure(text, lang):
    out = {"length": length(text, lang)}
    if lang == "zh":
        out["chars_per_sentence"] = out["length"] / sentences(text, lang)
        out["rare_words"] = rare_share(text)
    else:
        out["grade"] = grade(text, lang)
    return out


def hints():
    """{lang: [(mistake id, hint line)]} for every known mistake."""
    from grading import diagnoses
    out = {lang: [] for lang in LANGUAGES}
    for mistakes in [*diagnoses.MISTAKES.values(), list(diagnoses.GENERIC.values())]:
        for m in mistakes:
            for lang in LANGUAGES:
                out[lang].append((m.id, diagnoses.explain_mistake(m, lang)))
    return out


def blocks():
    """{lang: [(entry, the whole output of a failing check() that names a mistake)]} over the corpus."""
    sys.path.insert(0, str(ROOT / "tests"))
    import warnings
    from mistakes import entries, load
    from grading.exercises import EXERCISES, check
    out = {lang: [] for lang in LANGUAGES}
    for e in entries():
        func = load(e, EXERCISES[e.exercise].function)
        for lang in LANGUAGES:
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                check(e.exercise, func, lang=lang)
            text = buffer.getvalue()
            if "→" in text:
                out[lang].append((e.name, text))
    return out


def report(found, what):
    lines = []
    for lang in LANGUAGES:
        rows = [measure(text, lang) for _, text in found[lang]]
        if not rows:
            continue
        lens = [r["length"] for r in rows]
        unit = "characters" if lang == "zh" else "words"
        line = (f"{what} {lang}: {len(rows)}, {unit} median {statistics.median(lens):.0f} "
                f"(range {min(lens)}–{max(lens)})")
        if lang == "zh":
            line += (f", characters per sentence median {statistics.median(r['chars_per_sentence'] for r in rows):.0f}"
                     f", rare words median {statistics.median(r['rare_words'] for r in rows):.0%}")
        else:
            grades = [r["grade"] for r in rows]
            line += (f", grade median {statistics.median(grades):.1f} (range {min(grades):.1f}–{max(grades):.1f}), "
                     f"above 9: {sum(g > 9 for g in grades)}")
        lines.append(line)
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hints", action="store_true", help="the hints only, not the corpus's check() blocks")
    parser.add_argument("--worst", type=int, default=0, help="list the N hardest English hints")
    args = parser.parse_args(argv)
    found = hints()
    for line in report(found, "hints"):
        print(line)
    en = dict(found["en"])
    ratio = statistics.median(length(t, "zh") / max(length(en[i], "en"), 1) for i, t in found["zh"])
    print(f"zh characters per en word on the same hints: {ratio:.2f}; the 80–160-word block target is "
          f"{80 * ratio:.0f}–{160 * ratio:.0f} characters in zh")
    if args.worst:
        for i, t in sorted(found["en"], key=lambda it: -grade(it[1], "en"))[:args.worst]:
            print(f"  {grade(t, 'en'):5.1f} {length(t, 'en'):3d} {i}: {t}")
    if not args.hints:
        for line in report(blocks(), "blocks"):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
