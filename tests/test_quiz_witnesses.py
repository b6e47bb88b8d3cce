"""Every quiz key is checked like a number the chapters print (tools/quizzes.py, "Witnesses").

For every question of src/quizzes/:

* its witness, a few lines beside the question, computes with ``lib`` what the answer says: it
  must accept the keyed answer and refute every distractor it judges;
* the negative control: with the key swapped for each judged distractor (for an order question,
  two neighbouring steps swapped), the same check must fail, so no witness passes whatever it is
  given;
* a question about a definition names the section that defines the term, and that section exists
  and uses the term in each language; named in another section that does not use the term, the
  check fails.

The words of the questions are checked too: every § they cite exists and is cited in every
language, Russian writes numbers with a decimal comma and keeps units and № with their numbers,
Chinese writes ranges with ～, and no question talks about the test harness.

``python -m tools.quizzes --run`` prints the same verdicts and how many questions have a witness.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tools import quizzes
from tools.quizzes import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
QUIZZED = quizzes.load_all()
QUESTIONS = [(f"{page.split('/')[1]} §{section.number} q{k}", q)
             for page, sections in QUIZZED.items() for section in sections
             for k, q in enumerate(section.questions, 1)]
IDS = [name for name, _ in QUESTIONS]
CHECKED = [(name, q) for name, q in QUESTIONS if quizzes.evidence(q) != "none"]


@pytest.mark.parametrize("name, question", QUESTIONS, ids=IDS)
def test_the_key_holds_and_every_judged_distractor_is_refuted(name, question):
    problems = quizzes.verify(question)
    assert not problems, f"{name} ({question.prompt['en']!r}):\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name, question", CHECKED, ids=[name for name, _ in CHECKED])
def test_with_the_key_swapped_for_a_distractor_the_check_fails(name, question):
    swapped = quizzes.with_key_swapped(question)
    assert swapped, f"{name}: no distractor to swap the key with, so nothing shows that the check can fail"
    passing = [what for what, q in swapped if not quizzes.verify(q)]
    assert not passing, f"{name}: the check still passes with the {', '.join(passing)}"


def test_nearly_every_question_has_a_witness_and_the_rest_say_why():
    counts = {kind: sum(quizzes.evidence(q) == kind for _, q in QUESTIONS) for kind in ("witness", "definition", "none")}
    reasons = [f"{name}: {q.unwitnessed}" for name, q in QUESTIONS if q.unwitnessed is not None]
    print(f"{len(QUESTIONS)} questions: {counts}")
    assert all(q.unwitnessed.strip() for _, q in QUESTIONS if q.unwitnessed is not None)
    # a question without a witness is an exception with a reason; a witness is the rule
    assert counts["none"] <= 0.03 * len(QUESTIONS), "questions without a witness:\n" + "\n".join(reasons)


# --------------------------------------------------------------------------- the words of the questions

def _texts(q, lang):
    return [t[lang] for t in quizzes.question_parts(q)]


SECTION_REF = re.compile(r"§(\d+(?:\.\d+)?)")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_cited_section_exists(lang):
    missing = [f"{name}: §{ref} in {text!r}" for name, q in QUESTIONS for text in _texts(q, lang)
               for ref in SECTION_REF.findall(text) if quizzes.section_texts(ref) is None
               and not (ref.isdigit() and quizzes.chapter_pages().get(ref))]
    assert not missing, "sections that no chapter has:\n" + "\n".join(missing)


def test_every_language_cites_the_same_sections():
    differ = []
    for name, q in QUESTIONS:
        for part in quizzes.question_parts(q):
            cited = {lang: sorted(SECTION_REF.findall(part[lang])) for lang in LANGUAGES}
            if len({tuple(c) for c in cited.values()}) > 1:
                differ.append(f"{name}: {cited} in {part['en']!r}")
    assert not differ, "a translation cites other sections than the English:\n" + "\n".join(differ)


def _prose(text):
    """Without `code`, § references and superscripts: what a reader reads as running text."""
    return SECTION_REF.sub(" ", re.sub(r"`[^`]*`", " ", text))


def test_russian_numbers_follow_russian_typography():
    found = []
    for name, q in QUESTIONS:
        for text in _texts(q, "ru"):
            prose = _prose(text)
            found += [f"{name}: {m.group(0)!r} (decimal comma) in {text!r}" for m in re.finditer(r"\d\.\d", prose)]
            found += [f"{name}: {m.group(0)!r} (a no-break space before a unit) in {text!r}"
                      for m in re.finditer(r"\d (?:байт\w*|МиБ|КиБ|%)", prose)]
            found += [f"{name}: '№ ' (a no-break space after №) in {text!r}" for _ in re.finditer(r"№ ", prose)]
            found += [f"{name}: {m.group(0)!r} (digit groups of a narrow no-break space) in {text!r}"
                      for m in re.finditer(r"(?<![\d,])(?:\d{5,}|\d{1,3}(?: \d{3})+\b)", prose)]
            found += [f"{name}: {m.group(0)!r} (Russian quotes «…») in {text!r}" for m in re.finditer(r"\"[^\"]*\"", prose)]
    assert not found, "\n".join(found)


def test_chinese_ranges_and_quotes_follow_chinese_typography():
    found = []
    for name, q in QUESTIONS:
        for text in _texts(q, "zh"):
            found += [f"{name}: {m.group(0)!r} (a range is written 1～5) in {text!r}"
                      for m in re.finditer(r"(?:§\d+|\d)\s?[–-]\s?(?:§\d+|\d)", text) if "−" not in m.group(0)]
            found += [f"{name}: {m.group(0)!r} (quotes “”) in {text!r}" for m in re.finditer(r"[「」]", text)]
    assert not found, "\n".join(found)


# the test harness in any of the languages: file paths, commands, "every machine", what a cell asserts
HARNESS = re.compile(r"tests?/|make bench|bench/|nbval|every machine|a test checks|this cell's output|"
                     r"is not compared|每台机器|测试会检查|不参与比对|на (?:любой|каждой) машине|тест проверяет", re.I)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_question_talks_about_the_test_harness(lang):
    found = [f"{name}: {m.group(0)!r} in {text!r}" for name, q in QUESTIONS for text in _texts(q, lang)
             for m in HARNESS.finditer(text)]
    assert not found, "the quizzes teach ideas, not the harness:\n" + "\n".join(found)


# --------------------------------------------------------------------------- what a question names

def _asked_by(witness):
    """The question that the function named ``witness`` checks."""
    (found,) = [q for _, q in QUESTIONS if getattr(q.witness, "__name__", None) == witness]
    return found


CORPUS_WORD = {"en": "corpus", "zh": "语料", "ru": "корпус"}


def test_a_loss_below_the_bound_is_asked_about_over_the_corpus():
    """read64 en C1: §7.3 asserts that the masked model's batch loss dips below L* at 6 of the 300 steps, so a question
    that keys "read the future" for a loss below L* must say, in every language, that it means the loss over the whole
    corpus, the loss its witness computes."""
    question = _asked_by("loss_below_the_bound_means")
    chapter = (ROOT / "src" / "chapters" / "07_decoder.py").read_text(encoding="utf-8")
    assert "below_bound == 6" in chapter
    missing = [lang for lang in LANGUAGES if CORPUS_WORD[lang] not in question.prompt[lang]]
    assert not missing, f"the question does not say the loss is over the corpus in {missing}"


def test_the_absent_token_is_named_by_its_id_and_its_letter():
    """read64 en C4: "token 6" is the token at position 6 in the course's words (docs/words.md); the §7.1 question means
    the token with id 6, so it says "id" and shows the token's letter, in every language."""
    question = _asked_by("unseen_token_row")
    from lib.data import build_vocab
    from lib.decoder import read_mirror_corpus
    vocab = build_vocab(read_mirror_corpus())
    absent = [token for token in range(len(vocab)) if f"row {token} " in question.prompt["en"]]
    assert len(absent) == 1, question.prompt["en"]
    token = absent[0]
    id_word = {"en": "id", "zh": "编号", "ru": "номер"}
    for lang in LANGUAGES:
        assert f"`{vocab[token]}`" in question.prompt[lang] and id_word[lang] in question.prompt[lang], question.prompt[lang]


CALL_ARGUMENT = re.compile(r"`\w+=[^`]*`")


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_a_translation_names_no_argument_in_code_the_english_does_not(lang):
    """read64 ru C2: the Russian quiz of §7.3 wrote «при `seed=0`» where the English says "at seed 0", the run started
    from initialisation seed 0 (trained with seed=1, sampled with seeds 0 to 49): an argument in code font names one
    call's argument, so a translation writes one only where its English does."""
    found = [f"{name}: {extra} in {part[lang]!r}" for name, q in QUESTIONS for part in quizzes.question_parts(q)
             for extra in set(CALL_ARGUMENT.findall(part[lang])) - set(CALL_ARGUMENT.findall(part["en"]))]
    assert not found, "\n".join(found)


def test_the_plain_reshape_distractor_is_compared_with_the_reshape_only_split():
    """read76 ru-12 C1: the §2.4 question on `merge_heads` explained its distractor "a plain reshape(B, T, D)" with
    "time steps get mixed up, as in the split" (ru «как и при разбиении», zh «和拆分时一样»), and the split, split_heads,
    mixes nothing. Only the reshape-only split of §2.2 does, so every language names that one and cites §2.2; the
    arrays below show that the comparison is true of lib."""
    import numpy as np
    from lib.attention import split_heads
    question = _asked_by("merge_is")
    (why,) = [second for first, second in question.wrong if first.claim == "plain reshape"]
    named = {"en": "reshape-only split of §2.2", "zh": "§2.2 中只用 `reshape` 的拆分", "ru": "разбиении одним `reshape` в §2.2"}
    assert all(named[lang] in why[lang] for lang in LANGUAGES), why.texts
    B, T, D, H = 2, 3, 8, 2
    d = D // H
    x = np.arange(B * T * D).reshape(B, T, D)
    time = x // D % T                                                  # the time step each entry came from
    rows = np.arange(T)[None, None, :, None]
    assert np.all(split_heads(time, H) == rows)                        # the split keeps every row at its time
    assert not np.all(time.reshape(B, H, T, d) == rows)               # reshape alone mixes them


def test_the_residual_distractor_blames_future_rows_not_reading_across_time():
    """read83 en-24 C1: the §4.2 question "Which of these layers would break causality?" explained its residual
    distractor with "a sublayer that reads across time breaks causality by itself" (zh «跨时间读取的子层», ru «подслой,
    читающий вдоль оси времени»), and causal attention reads across time and stays causal. Reading future rows is what
    breaks it, so every language says so; the forwards below show both halves with lib."""
    import numpy as np
    from lib import checks
    from lib.data import BOS, EOS
    question = _asked_by("breaks_causality")
    (why,) = [second for first, second in question.wrong if first.claim == "a residual connection"]
    named = {"en": "reads future rows", "zh": "读取未来行", "ru": "читающий будущие строки"}
    wrong = {"en": "across time", "zh": "跨时间", "ru": "вдоль оси времени"}
    assert all(named[lang] in why[lang] and wrong[lang] not in why[lang] for lang in LANGUAGES), why.texts
    model = checks.chapter_model()
    ids, other = np.array([BOS, 3, 4, 5, 3, 4, 5, 4]), np.array([BOS, 3, 4, 5, 5, 3, 4, EOS])

    def past_mean(x):                                                  # row i: the mean of rows 0..i
        return np.cumsum(x, axis=-2) / np.arange(1, x.shape[-2] + 1)[:, None]

    def change(sublayer):
        return checks.future_change(lambda t: checks.forward_with(model, t, after=lambda x: x + sublayer(x)),
                                    ids, other, 4)

    assert change(past_mean) == 0                                      # reads across time, only the past: causal
    assert change(checks.leaky_time_normalization) > 0                 # reads future rows: not causal
