"""Questions that answer on the page: the format of ``src/quizzes/NN_name.py``.

A quiz source belongs to the chapter notebook of the same name
(``src/quizzes/02_heads.py`` -> ``src/chapters/02_heads.py``) and is plain
Python that calls, once per section::

    section("split",                      # a phrase of the section's ENGLISH heading
        choose(T("…"),                    # the question, in English
               right=T(…), why=T(…),      # the one right choice and why it is right
               wrong=[(T(choice), T(why it is wrong)), …]),
        number(T(…), answer=lib_value, why=T(…),           # a number, typed by the reader
               wrong=[(value, T(the mistake behind it)), …]),
        order(T(…), steps=[T(…), T(…), T(…)], why=T(…)),   # the steps in the right order
    )

Every ``T("...")`` is written in English; its translations are in the quiz catalogues
``src/locales/<lang>/LC_MESSAGES/quizzes.po`` (msgctxt ``quizzes/02_heads``, msgid the English;
tools/prose.py).  A text with a number the quiz computes names it as a ``str.format`` field,
``T("… grow {ratio}-fold.", ratio=RATIO)``, so the catalogue holds the sentence, not the number.

The key is a phrase of the English heading ("split" finds "## 2.2 Splitting:
coordinate a of head h …"), not a number, so a section that moves keeps its
questions; a phrase that matches no heading, or more than one, fails the build
and names the headings there are.  The questions are inserted at the end of
that section (``#sec-2-2``) in the three language sites by
``site/course_book.py`` (``insert_quizzes``).  A number the chapter computes is computed here from
``lib`` (``answer=costs.kv_cache_bytes(...)``), or typed and then asserted by its witness.

**Witnesses.**  Words are claims too: every question says how its key is checked, in one of
three ways, and :func:`load` refuses a question that says none.

* ``witness=f``: a few lines of Python beside the question that compute with ``lib`` what the
  answer says.  ``f(claim)`` returns True (or None) when ``claim`` is what ``lib`` gives, and
  False (or raises AssertionError) when it is not.  The claims are the keyed answer and its
  distractors: for ``choose``, the ``claim=`` of each choice, ``T("Only row 2", claim={2})``
  (a choice without one is not judged); for ``number``, the answer and every wrong value; for
  ``order``, the order of the steps, as step numbers.  :func:`verify` runs it: the key must
  hold, and every judged distractor (for ``order``, every swap of two neighbouring steps) must
  be refuted, so a witness that cannot fail is refused too.  ``tests/test_quiz_witnesses.py``
  runs every witness and swaps each key with a distractor, which must then fail.
* ``defined_in="1.7", term=T("empty row")``: a question about what a word means names the
  section that defines it (``§1.7`` in its text, in every language), and :func:`verify`
  checks that the section exists and uses the term, in each language's words.  A term defined
  in the very section the question ends is not named: the reader has just read it.
* ``unwitnessed="why"``: an idea no code states (why a design is so, what a test cannot
  show); the reason is for maintainers and is not translated.

:func:`load` checks every question (a text in every language, exactly one
right choice, an explanation for every wrong choice, distinct choices, a
finite number answer, at least three distinct steps) and raises
:class:`QuizError` naming the file, the section and the question; a translation missing or
fuzzy in the catalogue is refused the same way, naming the English and the language.
:func:`render` writes a question set as HTML that works without JavaScript
(answers folded in ``<details>``); ``site/static/quiz.js`` makes it answer at
once, keeps progress per language in localStorage and sends nothing anywhere.
"""

from __future__ import annotations

import hashlib
import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

from course_i18n import LANGUAGES, SOURCE_LANGUAGE, format_number, language, localise_numbers
from course_i18n.catalogue import text, texts
from tools.prose import ProseError, Translations

ROOT = Path(__file__).resolve().parent.parent
QUIZ_DIR = ROOT / "src" / "quizzes"
CHAPTER_DIR = ROOT / "src" / "chapters"
MIN_QUESTIONS, MAX_QUESTIONS = 3, 5

# The page's words for the quiz (quiz.js reads them from the HTML, so it has none), in English;
# their translations are in the catalogues course_i18n/locales/<lang>/LC_MESSAGES/course.po.
UI = texts("site.quiz", {
    "heading": "Check yourself",
    "answer": "Answer",
    "right": "✓ Right.",
    "wrong": "✗ Not quite.",
    # a verdict (right, wrong, not_a_number) and what follows it (Chinese: no space after 。)
    "feedback": "{verdict} {detail}",
    "check": "Check",
    "your_answer": "Your answer",
    # the move buttons' labels for a screen reader ({step}: the step's text)
    "up": "Move up: {step}",
    "down": "Move down: {step}",
    "not_a_number": "Please type a number.",
    "try_number": "Work it out again, or open “Answer”.",
    # {steps}: their numbers, joined with site.book.words.list_sep
    "order_wrong": "Steps not yet in place: {steps}",
    "order_right": "✓ Right order.",
    # after the heading, brackets included
    "progress": "({n} of {m} answered right)",
    "right_order": "The right order:",
})
# between an answer and why it is right (Chinese: 。 and no space)
ANSWER_STOP = text("site.quiz_answer_stop", ". ")
# between the numbers of the steps not yet in place: the site's list separator, course_book.WORDS["list_sep"],
# restated because this module runs without site/ and Sphinx (text() refuses a second English for one key)
LIST_SEP = text("site.book.words.list_sep", ", ")


class QuizError(ValueError):
    """A question that the build refuses, with where it is and what is expected."""


NO_CLAIM = type("NoClaim", (), {"__repr__": lambda self: "NO_CLAIM"})()    # a choice the witness does not judge


class T:
    """One text of a question in every language of the course: ``{language: text}``.

    A quiz source writes ``T("English", **fields)``; :func:`load` gives it the translations
    of the catalogue (see :func:`_text_maker`).  A choice may carry the ``claim`` it makes,
    in a form its question's witness can check (``T("Only row 2", claim={2})``)."""
    __slots__ = ("texts", "claim")

    def __init__(self, texts, claim=NO_CLAIM):
        self.texts = dict(texts)
        self.claim = claim

    def __getitem__(self, lang):
        return self.texts[lang]

    def __eq__(self, other):
        return isinstance(other, T) and other.texts == self.texts

    def __hash__(self):
        return hash(tuple(self.texts.items()))

    def __repr__(self):
        return f"T({', '.join(repr(text) for text in self.texts.values())})"


@dataclass
class Question:
    kind: str                        # "choose", "number" or "order"
    prompt: T
    why: T
    right: T | None = None           # choose
    wrong: list = field(default_factory=list)   # choose: [(T, T)]; number: [(value, T)]
    answer: float | None = None      # number
    tolerance: float = 0.0           # number: absolute
    shown: str = ""                  # number: the answer as the page prints it
    steps: list = field(default_factory=list)   # order: [T] in the right order
    # how the key is checked (module docstring, "Witnesses"): one of the three
    witness: object = None           # f(claim) -> True/None, or False/AssertionError
    defined_in: str | None = None    # "1.7": the section that defines the term
    term: T | None = None
    unwitnessed: str | None = None   # why no code can state the answer (for maintainers)
    section: str | None = None       # "2.2": the section the question stands at the end of (set by section())


def _evidence(witness, defined_in, term, unwitnessed):
    return dict(witness=witness, defined_in=defined_in, term=term, unwitnessed=unwitnessed)


def choose(prompt, *, right, wrong, why, witness=None, defined_in=None, term=None, unwitnessed=None):
    return Question("choose", prompt, why, right=right, wrong=list(wrong),
                    **_evidence(witness, defined_in, term, unwitnessed))


def number(prompt, *, answer, why, tolerance=0.0, wrong=(), shown=None,
           witness=None, defined_in=None, term=None, unwitnessed=None):
    value = answer.item() if hasattr(answer, "item") else answer
    wrong = [(v.item() if hasattr(v, "item") else v, w) for v, w in wrong]
    return Question("number", prompt, why, answer=value, tolerance=tolerance, wrong=wrong,
                    shown=shown if shown is not None else _format_number(value),
                    **_evidence(witness, defined_in, term, unwitnessed))


def order(prompt, *, steps, why, witness=None, defined_in=None, term=None, unwitnessed=None):
    return Question("order", prompt, why, steps=list(steps), **_evidence(witness, defined_in, term, unwitnessed))


# --------------------------------------------------------------------------- numbers, per language

# How each language writes a number (Russian: decimal comma, digit groups of a narrow no-break space,
# 1 048 576; English and Chinese: 1,048,576) is course_i18n's: Language.decimal and Language.group.


def _format_number(value):
    return format_number(value)


@dataclass
class Section:
    key: str
    number: str                      # "2.2"
    anchor: str                      # "sec-2-2"
    questions: list


# --------------------------------------------------------------------------- headings

HEADING = re.compile(r"^(#{1,3}) (\d+(?:\.\d+)*) (.+?)\s*$", re.M)


def chapter_headings(chapter: Path) -> list[tuple[str, str]]:
    """(number, English title) of every numbered heading of a chapter source."""
    import tools.nbsource as nbsource
    found = []
    for cell in nbsource.load(chapter, strict=False):        # the English headings only
        if cell.kind == "markdown":
            found += [(m.group(2), m.group(3)) for m in HEADING.finditer(cell.text["en"])]
    return found


def resolve(key: str, headings, where: str) -> str:
    """The number of the one heading whose English title contains ``key``."""
    hits = [num for num, title in headings if key.lower() in title.lower() and "." in num]
    if len(hits) != 1:
        listing = "\n".join(f"    {num} {title}" for num, title in headings if "." in num)
        what = "no heading" if not hits else f"{len(hits)} headings ({', '.join(hits)})"
        raise QuizError(f"{where}: section key {key!r} matches {what}; it must match the English "
                        f"heading of exactly one section. The headings are:\n{listing}")
    return hits[0]


# --------------------------------------------------------------------------- checks

def _check_text(value, where):
    if not isinstance(value, T):
        raise QuizError(f"{where}: expected T(\"English\"), got {value!r}")
    for lang in LANGUAGES:
        text = value[lang]
        if text is None:                     # a translation missing from the catalogue: see _text_maker
            continue
        if not isinstance(text, str) or not text.strip():
            raise QuizError(f"{where}: the {lang} text is empty")


def check_question(q: Question, where: str) -> None:
    _check_text(q.prompt, f"{where}, question")
    _check_text(q.why, f"{where}, why")
    if q.kind == "choose":
        _check_text(q.right, f"{where}, right choice")
        if len(q.wrong) < 2:
            raise QuizError(f"{where}: a choice question needs at least 2 wrong choices, has {len(q.wrong)}")
        for k, pair in enumerate(q.wrong):
            if not (isinstance(pair, tuple) and len(pair) == 2):
                raise QuizError(f"{where}: wrong choice {k + 1} must be (T(choice), T(why it is wrong))")
            _check_text(pair[0], f"{where}, wrong choice {k + 1}")
            _check_text(pair[1], f"{where}, explanation of wrong choice {k + 1}")
        for lang in LANGUAGES:
            texts = [q.right[lang]] + [c[lang] for c, _ in q.wrong]
            texts = [text.strip() for text in texts if text is not None]
            if len(set(texts)) != len(texts):
                raise QuizError(f"{where}: two choices read the same in {lang}; exactly one must be right")
    elif q.kind == "number":
        if isinstance(q.answer, bool) or not isinstance(q.answer, (int, float)) or not math.isfinite(q.answer):
            raise QuizError(f"{where}: the answer must be a finite number, got {q.answer!r}")
        if not (q.tolerance >= 0):
            raise QuizError(f"{where}: tolerance must be >= 0")
        for k, pair in enumerate(q.wrong):
            if not (isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], (int, float))):
                raise QuizError(f"{where}: wrong answer {k + 1} must be (number, T(the mistake behind it))")
            if abs(pair[0] - q.answer) <= q.tolerance:
                raise QuizError(f"{where}: wrong answer {pair[0]} is accepted as right")
            _check_text(pair[1], f"{where}, explanation of wrong answer {pair[0]}")
    elif q.kind == "order":
        if len(q.steps) < 3:
            raise QuizError(f"{where}: an order question needs at least 3 steps")
        for k, step in enumerate(q.steps):
            _check_text(step, f"{where}, step {k + 1}")
        for lang in LANGUAGES:
            texts = [s[lang].strip() for s in q.steps if s[lang] is not None]
            if len(set(texts)) != len(texts):
                raise QuizError(f"{where}: two steps read the same in {lang}")
    else:
        raise QuizError(f"{where}: unknown kind {q.kind!r}")
    _check_evidence(q, where)
    _check_pointers(q, where)


SECTION_NUMBER = re.compile(r"\d+\.\d+")


def _choices(q):
    """[(T, is the key)] of a choice question."""
    return [(q.right, True)] + [(choice, False) for choice, _ in q.wrong]


def _check_evidence(q, where):
    """The question says how its key is checked (module docstring, "Witnesses"), and says it fully."""
    given = [name for name in ("witness", "defined_in", "unwitnessed") if getattr(q, name) is not None]
    if not given:
        raise QuizError(f"{where}: say how the key is checked: witness=f (a computation with lib), "
                        f"defined_in=\"N.M\" with term=T(...) (a definition), or unwitnessed=\"why not\"")
    if q.unwitnessed is not None and len(given) > 1:
        raise QuizError(f"{where}: unwitnessed= says no code states the answer, yet {given[0]}= is given too")
    if q.unwitnessed is not None and not (isinstance(q.unwitnessed, str) and q.unwitnessed.strip()):
        raise QuizError(f"{where}: unwitnessed= must say in a few words why no code can state the answer")
    if q.witness is not None:
        if not callable(q.witness):
            raise QuizError(f"{where}: witness must be a function of the claim, got {q.witness!r}")
        if q.kind == "choose":
            if q.right.claim is NO_CLAIM:
                raise QuizError(f"{where}: the right choice carries no claim= for the witness to check")
            if all(choice.claim is NO_CLAIM for choice, _ in q.wrong):
                raise QuizError(f"{where}: no wrong choice carries a claim=, so the witness is never shown "
                                f"to refute anything")
        elif q.kind == "number" and not q.wrong:
            raise QuizError(f"{where}: a witnessed number needs at least one wrong value for it to refute")
    elif q.kind == "choose" and any(c.claim is not NO_CLAIM for c, _ in _choices(q)):
        raise QuizError(f"{where}: choices carry claim= but the question has no witness to check them")
    if (q.defined_in is None) != (q.term is None):
        raise QuizError(f"{where}: a definition needs both defined_in=\"N.M\" and term=T(\"the term\")")
    if q.defined_in is not None:
        if not (isinstance(q.defined_in, str) and SECTION_NUMBER.fullmatch(q.defined_in)):
            raise QuizError(f"{where}: defined_in must be a section number such as \"1.7\", got {q.defined_in!r}")
        _check_text(q.term, f"{where}, term")
        if not _names_definition(q, SOURCE_LANGUAGE):       # the translations: verify()
            raise QuizError(f"{where}: a question about a definition names the section that defines it; "
                            f"its text never writes §{q.defined_in}")


# "§4.7: …", "(§4.7)", "see §4.7": a text that sends the reader to a section
POINTER = re.compile(r"(?:^|\(|\bsee )§(\d+\.\d+)(?=[:)])|\bsee §(\d+\.\d+)", re.I)


def _check_pointers(q, where):
    """A question does not send the reader to the section it stands in: they have just read it,
    and the idea it asks about is usually taught elsewhere (the leaky normalisation of §4.7,
    asked about under the picture of §4.10)."""
    if q.section is None:
        return
    for part in question_parts(q):
        if any(q.section in m.groups() for m in POINTER.finditer(part[SOURCE_LANGUAGE])):
            raise QuizError(f"{where}: {part[SOURCE_LANGUAGE]!r} points to §{q.section}, the section the question "
                            f"stands in; point to the section that teaches the idea, or leave the pointer out")


def _names_definition(q, lang):
    """Whether the texts name the section that defines the term (not needed when it is the question's own)."""
    return q.defined_in == q.section or _names_section(q, q.defined_in, lang)


def _names_section(q, number, lang):
    return any(re.search("§" + re.escape(number) + r"(?![.\d])", t[lang] or "") for t in question_parts(q))


def question_parts(q):
    """Every text of a question a reader sees: prompt, choices or steps, explanations."""
    parts = [q.prompt]
    if q.right is not None:
        parts.append(q.right)
    for first, second in q.wrong:
        parts += [first, second] if isinstance(first, T) else [second]
    return parts + list(q.steps) + [q.why]


def _text_maker(translations: Translations, path: Path):
    """The ``T`` of a quiz source: ``T("English", **fields)`` -> :class:`T` with the catalogue's translations."""
    def make(english, *, sense=None, claim=NO_CLAIM, **fields):
        found = translations.get(english, "quiz text", sense)
        for lang, text in found.items() if fields else ():
            if text is None:
                continue
            try:
                found[lang] = text.format(**{name: format_number(value, lang) if isinstance(value, (int, float))
                                             else value for name, value in fields.items()})
            except (KeyError, IndexError, ValueError) as error:
                if translations.strict or lang == SOURCE_LANGUAGE:
                    raise QuizError(f"{path.name}: T({english!r}) cannot be filled with {sorted(fields)}: "
                                    f"{error!r} (a {{name}} field of the English or of the {lang} "
                                    f"translation)") from None
                found[lang] = None                   # a stale translation, seen as missing until it is fixed
        return T(found, claim)
    return make


def load(path: Path, chapter: Path | None = None, strict: bool = True) -> list[Section]:
    """Read and check one quiz source; its sections in the chapter's order.

    ``strict``: a translation missing or fuzzy in the catalogue is a :class:`QuizError`; otherwise
    (the stale-translation check) a fuzzy one is given as it is and a missing one as None."""
    return read(path, chapter, strict).sections


@dataclass
class QuizSource:
    sections: list
    translations: Translations


def read(path: Path, chapter: Path | None = None, strict: bool = True) -> QuizSource:
    """:func:`load`, with the translations asked for (``tools/i18n.py extract`` reads their English)."""
    path = Path(path)
    chapter = chapter or CHAPTER_DIR / path.name
    if not chapter.exists():
        raise QuizError(f"{path}: there is no chapter source {chapter} for it")
    headings = chapter_headings(chapter)
    sections = []
    try:
        translations = Translations(path, strict=strict)
    except ProseError as error:
        raise QuizError(str(error)) from None

    def section(key, *questions):
        where = f"{path.name}, section {key!r}"
        num = resolve(key, headings, f"{path.name}")
        if not MIN_QUESTIONS <= len(questions) <= MAX_QUESTIONS:
            raise QuizError(f"{where}: {len(questions)} questions; a section has "
                            f"{MIN_QUESTIONS} to {MAX_QUESTIONS}")
        for k, q in enumerate(questions, 1):
            if not isinstance(q, Question):
                raise QuizError(f"{where}, question {k}: expected choose(...), number(...) or order(...)")
            q.section = num
            check_question(q, f"{where}, question {k}")
        if any(s.number == num for s in sections):
            raise QuizError(f"{where}: §{num} already has questions in this file")
        sections.append(Section(key, num, "sec-" + num.replace(".", "-"), list(questions)))

    namespace = {"section": section, "choose": choose, "number": number, "order": order, "in_order": in_order,
                 "refusal": refusal, "unless_refused": unless_refused,
                 "T": _text_maker(translations, path), "__file__": str(path), "__name__": f"quiz_{path.stem}"}
    try:
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
        if strict:
            translations.check()
    except ProseError as error:
        raise QuizError(str(error)) from None
    if not sections:
        raise QuizError(f"{path}: no section(...) with questions")
    rank = {num: k for k, (num, _) in enumerate(headings)}
    return QuizSource(sorted(sections, key=lambda s: rank[s.number]), translations)


def load_all(quiz_dir: Path = QUIZ_DIR) -> dict[str, list[Section]]:
    """{``chapters/02_heads``: sections} for every quiz source."""
    return {f"chapters/{p.stem}": load(p) for p in sorted(quiz_dir.glob("[0-9]*.py"))}


# --------------------------------------------------------------------------- witnesses

def holds(witness, claim) -> bool:
    """Whether ``witness`` accepts ``claim`` (True or None) or refutes it (False or AssertionError).

    Any other exception, or another return value, is a broken witness: a QuizError."""
    try:
        result = witness(claim)
    except AssertionError:
        return False
    if result is None:
        return True
    if type(result).__name__ in ("bool", "bool_"):
        return bool(result)
    raise QuizError(f"a witness returns True, False or None (or raises AssertionError), got {result!r}")


def _steps_swapped(n):
    """Every order of n steps with two neighbours swapped."""
    orders = []
    for k in range(n - 1):
        o = list(range(n))
        o[k], o[k + 1] = o[k + 1], o[k]
        orders.append(tuple(o))
    return orders


def claims(q):
    """(the key's claim, [(what, a distractor's claim)]) of a witnessed question."""
    if q.kind == "choose":
        return q.right.claim, [(f"wrong choice {c['en']!r}", c.claim) for c, _ in q.wrong if c.claim is not NO_CLAIM]
    if q.kind == "number":
        return q.answer, [(f"wrong value {v!r}", v) for v, _ in q.wrong]
    return tuple(range(len(q.steps))), [(f"the steps in the order {o}", o) for o in _steps_swapped(len(q.steps))]


def verify(q) -> list[str]:
    """What is wrong with a question's evidence when it is run (empty: the key is witnessed)."""
    problems = []
    if q.witness is not None:
        key, distractors = claims(q)
        try:
            if not holds(q.witness, key):
                problems.append(f"the witness refutes the keyed answer (claim {key!r})")
            for what, claim in distractors:
                if holds(q.witness, claim):
                    problems.append(f"the witness accepts the {what} (claim {claim!r}): either it is right "
                                    f"too, or the witness cannot tell")
        except QuizError as error:
            problems.append(str(error))
    if q.defined_in is not None:
        problems += definition_problems(q.defined_in, q.term)
        problems += [f"the {lang} text never names §{q.defined_in}, the section that defines the term"
                     for lang in LANGUAGES if not _names_definition(q, lang)]
    return problems


def with_key_swapped(q):
    """[(what, the question with its key swapped for a distractor)]: each must fail :func:`verify`."""
    import copy
    found = []
    if q.witness is not None and q.kind == "choose":
        for k, (choice, why) in enumerate(q.wrong):
            if choice.claim is NO_CLAIM:
                continue
            swapped = copy.copy(q)
            swapped.right = choice
            swapped.wrong = list(q.wrong)
            swapped.wrong[k] = (q.right, why)
            found.append((f"key swapped with {choice['en']!r}", swapped))
    elif q.witness is not None and q.kind == "number":
        for k, (value, why) in enumerate(q.wrong):
            swapped = copy.copy(q)
            swapped.answer = value
            swapped.wrong = list(q.wrong)
            swapped.wrong[k] = (q.answer, why)
            found.append((f"answer swapped with {value!r}", swapped))
    elif q.witness is not None:
        for o in _steps_swapped(len(q.steps)):
            swapped = copy.copy(q)
            swapped.steps = [q.steps[i] for i in o]
            swapped.witness = (lambda order, o=o, w=q.witness: w(tuple(o[i] for i in order)))
            found.append((f"steps in the order {o}", swapped))
    if q.defined_in is not None:
        other = section_without(q.term)
        if other is not None:
            swapped = copy.copy(q)
            swapped.defined_in, swapped.witness = other, None
            found.append((f"defined in §{other} instead", swapped))
    return found


_SECTIONS = {}


def section_texts(number: str) -> dict | None:
    """{lang: the Markdown of section §N.M} (its heading to the next numbered heading), None if no
    chapter has such a heading."""
    if not _SECTIONS:
        import tools.nbsource as nbsource
        for chapter in sorted(CHAPTER_DIR.glob("[0-9][0-9]_*.py")):
            cells = [c for c in nbsource.load(chapter, strict=False) if c.kind == "markdown"]
            for lang in LANGUAGES:
                text = "\n\n".join(c.text[lang] or "" for c in cells)
                marks = list(HEADING.finditer(text))
                for m, after in zip(marks, marks[1:] + [None]):
                    end = after.start() if after is not None else len(text)
                    _SECTIONS.setdefault(m.group(2), {})[lang] = text[m.start():end]
    return _SECTIONS.get(number)


def term_pattern(term: str, lang: str):
    """A pattern that finds ``term`` in running text: as written in Chinese; in an inflected language
    each longer word by its stem (Russian «пустая строка» finds «пустой строки»)."""
    if lang == "zh":
        return re.compile(re.escape(term))
    words = []
    for word in re.findall(r"[\w'’-]+|[^\w\s]", term):
        if len(word) >= 4 and word.isalpha():
            words.append(re.escape(word[:max(3, len(word) - 2)]) + r"\w*")
        else:                                   # a short word, with at most a short ending (rows, все)
            words.append(r"(?<!\w)" + re.escape(word) + (r"\w{0,2}" if word.isalpha() else "") + r"(?!\w)")
    return re.compile(r"[\s\u00a0-]*".join(words), re.I)


def definition_problems(number, term) -> list[str]:
    texts = section_texts(number)
    if texts is None:
        return [f"no chapter has a section §{number}"]
    return [f"§{number} does not use the {lang} term {term[lang]!r}" if term[lang] is not None
            else f"the term has no {lang} translation" for lang in LANGUAGES
            if term[lang] is None or not term_pattern(term[lang], lang).search(texts.get(lang) or "")]


def section_without(term) -> str | None:
    """A section whose English never uses ``term`` (the control of a definition's check)."""
    section_texts("0.1")
    pattern = term_pattern(term["en"], "en")
    return next((n for n, texts in _SECTIONS.items() if "." in n and not pattern.search(texts["en"])), None)


def in_order(steps, order, state=None):
    """Run ``steps`` (functions of a dict) in the claimed ``order``; the state they leave.

    A step that needs what no earlier step wrote (a KeyError) means the order is wrong: an
    AssertionError, as for any refuted claim.  For the witness of an ``order`` question."""
    state = {} if state is None else state
    for i in order:
        try:
            steps[i](state)
        except KeyError as missing:
            raise AssertionError(f"step {i} needs {missing}, which no earlier step computed") from None
    return state


def refusal(f, *args, **kwargs):
    """The message of the ValueError ``f(*args, **kwargs)`` raises, or None if it returns (for a
    witness that asks whether ``lib`` refuses something)."""
    try:
        f(*args, **kwargs)
    except ValueError as error:
        return str(error)
    return None


def unless_refused(f):
    """``f()``, or None where it is refused: a ValueError or an IndexError (shapes that do not fit)."""
    try:
        return f()
    except (ValueError, IndexError):
        return None


def evidence(q) -> str:
    """How the key of ``q`` is checked: "witness", "definition" or "none"."""
    return "witness" if q.witness is not None else "definition" if q.defined_in is not None else "none"


# --------------------------------------------------------------------------- HTML

_CODE = re.compile(r"`([^`]+)`")
_SECTION_REF = re.compile(r"§(\d+)(?:\.(\d+))?")


def chapter_pages(chapter_dir: Path = CHAPTER_DIR) -> dict[str, str]:
    """{"1": "01_allowed_set"}: the page of each section §N (all pages sit in chapters/)."""
    return {str(int(p.stem[:2])): p.stem for p in sorted(chapter_dir.glob("[0-9][0-9]_*.py"))}


def _link_sections(escaped: str, pages: dict | None) -> str:
    if not pages:
        return escaped

    def link(m):
        page = pages.get(m.group(1))
        if page is None:
            return m.group(0)
        anchor = f"#sec-{m.group(1)}-{m.group(2)}" if m.group(2) else ""
        return f'<a class="course-sec-ref" href="{page}.html{anchor}">{m.group(0)}</a>'

    return _SECTION_REF.sub(link, escaped)


def _inline(text: str, pages: dict | None = None) -> str:
    """Escape, write `code` as <code>, and link §N / §N.M (pages: see :func:`chapter_pages`)."""
    parts = _CODE.split(text)
    return "".join(f"<code>{html.escape(p)}</code>" if k % 2 else _link_sections(html.escape(p), pages)
                   for k, p in enumerate(parts))


def _shuffled(items, seed: str):
    """A fixed order that does not depend on where the right answer was written."""
    return sorted(items, key=lambda item: hashlib.sha256((seed + repr(item[0])).encode()).hexdigest())


def render(page: str, sec: Section, lang: str, pages: dict | None = None) -> str:
    """The questions of one section as HTML (works without JavaScript).

    ``pages`` ({"1": "01_allowed_set"}) turns §N.M into links (the page is in chapters/)."""
    ui = {k: v[lang] for k, v in UI.items()}
    ui["decimal"] = language(lang).decimal                      # how quiz.js reads a typed number
    ui["list_sep"] = LIST_SEP[lang]

    def inline(text):
        return _inline(text, pages)

    def plain(text):                    # inside a button (choices): no link within a control
        return _inline(text, None)

    stop = ANSWER_STOP[lang]

    stem = page.rsplit("/", 1)[-1][:2]
    base = f"q{stem}-{sec.anchor[4:]}"
    data_ui = html.escape(_json(ui), quote=True)
    out = [f'<aside class="quiz" id="quiz-{sec.anchor[4:]}" aria-labelledby="{base}-h" data-ui="{data_ui}">',
           f'<p class="quiz-heading" id="{base}-h">{html.escape(ui["heading"])} · §{sec.number}'
           f' <span class="quiz-progress" aria-live="polite"></span></p>']
    for k, q in enumerate(sec.questions, 1):
        qid = f"{base}-{k}"
        out.append(f'<div class="quiz-q" data-kind="{q.kind}" data-qid="{qid}" role="group" aria-labelledby="{qid}-p">')
        out.append(f'<p class="quiz-prompt" id="{qid}-p"><span class="quiz-n">{k}.</span> {inline(q.prompt[lang])}</p>')
        answer = []
        if q.kind == "choose":
            options = _shuffled([(q.right[lang], q.why[lang], True)] + [(c[lang], w[lang], False) for c, w in q.wrong],
                                qid)
            out.append('<ol class="quiz-choices" type="A">')
            for i, (text, why, is_right) in enumerate(options):
                out.append(f'<li data-right="{int(is_right)}" data-why="{html.escape(why.replace("`", ""), quote=True)}">'
                           f'{plain(text)}</li>')
            out.append("</ol>")
            letters = "ABCDEFGH"
            right_i = next(i for i, o in enumerate(options) if o[2])
            answer.append(f'<p><strong>{letters[right_i]}</strong>: {inline(options[right_i][0])}{stop}'
                          f'{inline(q.why[lang])}</p><ul>')
            answer += [f'<li><strong>{letters[i]}</strong>: {inline(why)}</li>'
                       for i, (_, why, is_right) in enumerate(options) if not is_right]
            answer.append("</ul>")
        elif q.kind == "number":
            hints = "".join(f'<li data-value="{v!r}">{inline(w[lang])}</li>' for v, w in q.wrong)
            out.append(f'<div class="quiz-number" data-answer="{q.answer!r}" data-tolerance="{q.tolerance!r}">'
                       + (f'<ul class="quiz-hints" hidden>{hints}</ul>' if hints else "") + "</div>")
            answer.append(f'<p><strong>{html.escape(localise_numbers(q.shown, lang))}</strong>{stop}'
                          f'{inline(q.why[lang])}</p>')
            if q.wrong:
                answer.append("<ul>" + "".join(f"<li><strong>{html.escape(format_number(v, lang))}</strong>: "
                                               f"{inline(w[lang])}</li>" for v, w in q.wrong) + "</ul>")
        else:
            steps = _shuffled([(s[lang], i) for i, s in enumerate(q.steps)], qid)
            if [i for _, i in steps] == list(range(len(steps))):      # never shown already solved
                steps = steps[1:] + steps[:1]
            out.append('<ol class="quiz-steps">')
            out += [f'<li data-step="{i}">{plain(text)}</li>' for text, i in steps]
            out.append("</ol>")
            answer.append(f'<p>{html.escape(ui["right_order"])}</p><ol>'
                          + "".join(f"<li>{inline(s[lang])}</li>" for s in q.steps)
                          + f"</ol><p>{inline(q.why[lang])}</p>")
        out.append(f'<p class="quiz-feedback" aria-live="polite"></p>')
        out.append(f'<details class="quiz-answer"><summary>{html.escape(ui["answer"])}</summary>'
                   + "".join(answer) + "</details>")
        out.append("</div>")
    out.append("</aside>")
    return "\n".join(out)


def _json(value) -> str:
    import json
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def site_quizzes(lang: str, quiz_dir: Path = QUIZ_DIR) -> dict[str, list[tuple[str, str]]]:
    """{page: [(section anchor, HTML)]} for one language; raises QuizError on any bad question."""
    pages = chapter_pages()
    return {page: [(sec.anchor, render(page, sec, lang, pages)) for sec in sections]
            for page, sections in load_all(quiz_dir).items()}


def main(argv=None) -> int:
    """``python -m tools.quizzes [--run]``: check every quiz source and count its questions and how
    their keys are checked; ``--run`` also runs every witness and definition check (:func:`verify`)."""
    import sys
    argv_list = sys.argv[1:] if argv is None else list(argv)
    try:
        quizzes = load_all()
    except QuizError as error:
        print(f"quiz error: {error}", file=sys.stderr)
        return 1
    total, kinds, failed = 0, {"witness": 0, "definition": 0, "none": 0}, []
    for page, sections in quizzes.items():
        n = sum(len(s.questions) for s in sections)
        total += n
        for s in sections:
            for k, q in enumerate(s.questions, 1):
                kinds[evidence(q)] += 1
                if "--run" in argv_list:
                    failed += [f"{page} §{s.number} question {k}: {p}" for p in verify(q)]
        print(f"{page}: {len(sections)} sections, {n} questions "
              f"({', '.join('§' + s.number for s in sections)})")
    print(f"{total} questions in {len(quizzes)} chapters: {kinds['witness']} with a witness, "
          f"{kinds['definition']} more about a definition, {kinds['none']} with neither (unwitnessed=)")
    if "--run" in argv_list:
        print("\n".join(failed) if failed else "every witness and definition holds")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
