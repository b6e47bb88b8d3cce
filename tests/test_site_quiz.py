"""Questions at the end of each section (tools/quizzes.py, site/static/quiz.js), in the browser.

Every question of every chapter (in English; two chapters also in Chinese and
Russian) is answered on the built page the way a learner would: a wrong choice, then the right one (by
keyboard); a number with a known mistake, then the right number as typed in
that language (a decimal comma in Russian); steps put in order with the move
buttons. The page must answer at once, in its language, in words and a symbol
(✓ / ✗), in an aria-live region, with the explanation the source gives; progress
survives a reload and is kept per language. Without JavaScript every question
shows its answer folded in <details>. axe, console errors and requests to other
hosts are checked for every page by tests/test_site.py.

The browser, the site build and its server are tests/test_site.py's fixtures.
"""

from __future__ import annotations

import re

import pytest

from tools import quizzes
from tools.quizzes import LANGUAGES, LIST_SEP, UI

from test_site import base_url, site_dir  # noqa: E402,F401
from test_site_interactive import in_chromium  # noqa: E402 (the browser: conftest.chromium, one per worker)

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start, the PDF books).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

QUIZZED = quizzes.load_all()


def _choice(q, text):
    """The choice button whose text is exactly ``text`` (as written in the source, `code` included)."""
    shown = text.replace("`", "")
    index = q.locator(".quiz-choice .quiz-text").evaluate_all(
        "(spans, shown) => spans.findIndex(s => s.textContent.trim() === shown)", shown)
    assert index >= 0, f"no choice reads {shown!r}"
    return q.locator(".quiz-choice").nth(index)


def _chinese_punctuation(text):
    """What a Chinese line the script puts together must not hold: an ASCII space after 。 or ：, an ASCII
    comma between numbers, ASCII brackets (the separators and brackets are the catalogue's)."""
    return re.findall(r"[。：] |\d, ?\d|[()]", text)


def _number_text(value, lang):
    text = quizzes._format_number(value)
    return text.replace(".", ",") if lang == "ru" else text


# Every question of every chapter in English; every question of two chapters in
# Chinese and Russian (the script is the same; the words come from the page).
ANSWERED = [(page, "en") for page in sorted(QUIZZED)] + [
    (page, lang) for lang in ("zh", "ru") for page in sorted(QUIZZED)[1:3]]


@pytest.mark.parametrize("page_name, lang", ANSWERED)
@in_chromium
def test_every_question_answers_at_once(open_page, lang, page_name):
    page = open_page(lang, page_name.split("/")[1])
    page.wait_for_function("document.querySelectorAll('aside.quiz.is-live').length > 0")
    sections = QUIZZED[page_name]
    assert page.locator("aside.quiz").count() == len(sections)
    for section in sections:
        quiz = page.locator(f"#quiz-{section.anchor[4:]}")
        # the quiz sits inside its own section
        assert quiz.evaluate("q => q.closest('section').id") == section.anchor
        for k, question in enumerate(section.questions, 1):
            q = quiz.locator(f".quiz-q:nth-of-type({k})")
            feedback = q.locator(".quiz-feedback")
            assert feedback.get_attribute("aria-live") == "polite"
            if question.kind == "choose":
                wrong_text, wrong_why = question.wrong[0][0][lang], question.wrong[0][1][lang].replace("`", "")
                _choice(q, wrong_text).click()
                assert "is-wrong" in feedback.get_attribute("class")
                text = feedback.inner_text()
                assert text.startswith(UI["wrong"][lang]) and wrong_why in text
                # the verdict and its detail are joined as the language writes them (no space after 。)
                assert text == UI["feedback"][lang].format(verdict=UI["wrong"][lang], detail=wrong_why), text
                right = _choice(q, question.right[lang])
                right.focus()
                page.keyboard.press("Enter")
                assert "is-right" in feedback.get_attribute("class")
                assert feedback.inner_text().startswith(UI["right"][lang])
                assert right.get_attribute("aria-pressed") == "true"
            elif question.kind == "number":
                field = q.locator("input")
                if question.wrong:
                    value, why = question.wrong[0]
                    field.fill(_number_text(value, lang))
                    field.press("Enter")
                    assert "is-wrong" in feedback.get_attribute("class")
                    assert why[lang].replace("`", "") in feedback.inner_text()
                field.fill("abc")
                field.press("Enter")
                assert UI["not_a_number"][lang] in feedback.inner_text()
                field.fill(_number_text(question.answer, lang))
                q.locator(".quiz-check").click()
                assert "is-right" in feedback.get_attribute("class"), (section.number, k, question.answer)
            else:
                # checked as shown (never already in order): the steps not yet in place, listed as the
                # language lists them
                q.locator(".quiz-check").click()
                assert "is-wrong" in feedback.get_attribute("class")
                misplaced = q.locator(".quiz-steps > li").evaluate_all(
                    "items => items.map((li, i) => li.getAttribute('data-step') === String(i) ? 0 : i + 1)"
                    ".filter(n => n)")
                assert len(misplaced) >= 2
                # the places the feedback names are on the screen, beside the steps (a flex item loses
                # the list's own numbers)
                places = q.locator(".quiz-steps > li > .quiz-place")
                assert places.all_inner_texts() == [f"{i + 1}." for i in range(len(question.steps))]
                assert all(places.nth(i).is_visible() for i in range(places.count()))
                steps = LIST_SEP[lang].join(str(n) for n in misplaced)
                assert feedback.inner_text() == UI["feedback"][lang].format(
                    verdict=UI["wrong"][lang], detail=UI["order_wrong"][lang].format(steps=steps))
                if lang == "zh":
                    assert not _chinese_punctuation(feedback.inner_text()), feedback.inner_text()
                # put the steps in order with the move-up buttons, by keyboard
                for target, step in enumerate(question.steps):
                    shown = step[lang].replace("`", "")
                    index = q.locator(".quiz-steps > li .quiz-text").evaluate_all(
                        "(spans, shown) => spans.findIndex(s => s.textContent.trim() === shown)", shown)
                    item = q.locator(".quiz-steps > li").nth(index).element_handle()
                    while item.evaluate("li => Array.prototype.indexOf.call(li.parentNode.children, li)") > target:
                        item.query_selector(".quiz-up").focus()
                        page.keyboard.press("Enter")
                assert places.all_inner_texts() == [f"{i + 1}." for i in range(len(question.steps))]
                q.locator(".quiz-check").click()
                assert "is-right" in feedback.get_attribute("class")
                assert feedback.inner_text().startswith(UI["order_right"][lang])
        total = len(section.questions)
        shown = quiz.locator(".quiz-progress").inner_text()
        assert shown == UI["progress"][lang].format(n=total, m=total)
        if lang == "zh":
            assert not _chinese_punctuation(shown), shown


@in_chromium
def test_progress_is_kept_per_language_and_nothing_else(open_page):
    page = open_page("en", "01_allowed_set")
    page.wait_for_selector("aside.quiz.is-live")
    first = quizzes.load_all()["chapters/01_allowed_set"][0]
    index, question = next((i, q) for i, q in enumerate(first.questions) if q.right is not None)   # a choice
    quiz = page.locator(f"#quiz-{first.anchor[4:]}")
    _choice(quiz.locator(".quiz-q").nth(index), question.right["en"]).click()
    page.reload(wait_until="load")
    page.wait_for_selector("aside.quiz.is-live")
    quiz = page.locator(f"#quiz-{first.anchor[4:]}")
    assert "was-right" in quiz.locator(".quiz-q").nth(index).get_attribute("class")
    assert quiz.locator(".quiz-progress").inner_text().startswith("(1 of")
    keys = page.evaluate("Object.keys(localStorage)")
    assert [k for k in keys if k.startswith("course-quiz")] == ["course-quiz:en"], keys
    # the Chinese page of the same browser has its own progress
    page.goto(page.url.replace("/en/", "/zh/"), wait_until="load")
    page.wait_for_selector("aside.quiz.is-live")
    assert page.locator(f"#quiz-{first.anchor[4:]} .quiz-progress").inner_text() == \
        UI["progress"]["zh"].format(n=0, m=len(first.questions))


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_without_javascript_the_answers_are_folded(open_page, lang):
    page = open_page(lang, "01_allowed_set", java_script_enabled=False)
    sections = quizzes.load_all()["chapters/01_allowed_set"]
    details = page.locator("aside.quiz details.quiz-answer")
    assert details.count() == sum(len(s.questions) for s in sections)
    assert not page.locator("aside.quiz .quiz-choice, aside.quiz input").count()
    first = details.first
    assert not first.locator("p").first.is_visible()
    first.locator("summary").click()
    assert sections[0].questions[0].why[lang].replace("`", "") in first.inner_text()


@pytest.mark.parametrize("lang, typed", [("en", "1,048,576"), ("zh", "1,048,576"), ("ru", "1 048 576"),
                                         ("ru", "1048576")])
@in_chromium
def test_a_number_may_be_typed_with_its_digits_grouped_as_the_page_writes_them(open_page, lang, typed):
    """The page shows 1,048,576 (1 048 576 in Russian); typed that way it is the same number."""
    page = open_page(lang, "02_heads")
    page.wait_for_selector("aside.quiz.is-live")
    costs = next(s for s in QUIZZED["chapters/02_heads"] if s.number == "2.6")
    k = next(i for i, q in enumerate(costs.questions, 1) if q.kind == "number" and q.answer == 4 * 512 ** 2)
    q = page.locator(f"#quiz-{costs.anchor[4:]} .quiz-q:nth-of-type({k})")
    q.locator("input").fill(typed)
    q.locator(".quiz-check").click()
    assert "is-right" in q.locator(".quiz-feedback").get_attribute("class"), typed
