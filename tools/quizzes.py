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
``site/course_site.py``.  A number the chapter computes is computed here from
``lib`` (``answer=costs.kv_cache_bytes(...)``), never typed a second time.

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

from course_i18n import LANGUAGES
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
    "check": "Check",
    "your_answer": "Your answer",
    "up": "Move up",
    "down": "Move down",
    "not_a_number": "Please type a number.",
    "try_number": "Work it out again, or open “Answer”.",
    "order_wrong": "Steps not yet in place:",
    "order_right": "✓ Right order.",
    "progress": "{n} of {m} answered right",
    "right_order": "The right order:",
    "choice": "Choice",
})
# between an answer and why it is right (Chinese: 。 and no space)
ANSWER_STOP = text("site.quiz_answer_stop", ". ")


class QuizError(ValueError):
    """A question that the build refuses, with where it is and what is expected."""


class T:
    """One text of a question in every language of the course: ``{language: text}``.

    A quiz source writes ``T("English", **fields)``; :func:`load` gives it the translations
    of the catalogue (see :func:`_text_maker`)."""
    __slots__ = ("texts",)

    def __init__(self, texts):
        self.texts = dict(texts)

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


def choose(prompt, *, right, wrong, why):
    return Question("choose", prompt, why, right=right, wrong=list(wrong))


def number(prompt, *, answer, why, tolerance=0.0, wrong=(), shown=None):
    value = answer.item() if hasattr(answer, "item") else answer
    return Question("number", prompt, why, answer=value, tolerance=tolerance, wrong=list(wrong),
                    shown=shown if shown is not None else _format_number(value))


def order(prompt, *, steps, why):
    return Question("order", prompt, why, steps=list(steps))


def _format_number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.6g}"


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


def _text_maker(translations: Translations, path: Path):
    """The ``T`` of a quiz source: ``T("English", **fields)`` -> :class:`T` with the catalogue's translations."""
    def make(english, *, sense=None, **fields):
        found = translations.get(english, "quiz text", sense)
        if fields:
            try:
                found = {lang: None if text is None else text.format(**fields) for lang, text in found.items()}
            except (KeyError, IndexError, ValueError) as error:
                raise QuizError(f"{path.name}: T({english!r}) cannot be filled with {sorted(fields)}: "
                                f"{error!r} (a {{name}} field of the English or of a translation)") from None
        return T(found)
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
            check_question(q, f"{where}, question {k}")
        if any(s.number == num for s in sections):
            raise QuizError(f"{where}: §{num} already has questions in this file")
        sections.append(Section(key, num, "sec-" + num.replace(".", "-"), list(questions)))

    namespace = {"section": section, "choose": choose, "number": number, "order": order,
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
            answer.append(f'<p><strong>{html.escape(q.shown)}</strong>{stop}{inline(q.why[lang])}</p>')
            if q.wrong:
                answer.append("<ul>" + "".join(f"<li><strong>{html.escape(_format_number(v))}</strong>: "
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
    """``python -m tools.quizzes``: check every quiz source and count its questions."""
    import sys
    try:
        quizzes = load_all()
    except QuizError as error:
        print(f"quiz error: {error}", file=sys.stderr)
        return 1
    total = 0
    for page, sections in quizzes.items():
        n = sum(len(s.questions) for s in sections)
        total += n
        print(f"{page}: {len(sections)} sections, {n} questions "
              f"({', '.join('§' + s.number for s in sections)})")
    print(f"{total} questions in {len(quizzes)} chapters")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
