"""The grader's pages on a 360 px phone, in headless Chromium, light and dark.

The instructor's index has a column per exercise (23 for the whole course), far wider than a phone:
its table scrolls inside its own box, a shade at the right edge says that more lies beyond, and the
students' names stay in view while the columns scroll. The histogram of totals keeps its text at
10 px or more. Neither page makes the whole page scroll sideways.
"""

from __future__ import annotations

import pytest

import chromium_thread
from grading import messages
from grading.batch import report
from grading.exercises import EXERCISES
from test_grading_units import sample_report

pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

# matplotlib's tick labels in the histogram: 11 pt at 150 dpi (grading/batch/report.py histogram_png)
TICK_PX = 11 * 150 / 72


def whole_course_report():
    """sample_report's two students with a row for each of the 23 exercises (one handed in without its function)."""
    r = sample_report()
    exercises = [{"id": ex.id, "function": ex.function, "points": 2, "title": {"zh": "题", "en": "T", "ru": "З"}}
                 for ex in EXERCISES.values()]
    rows = []
    for sub, lang, notebook in (("a,b", "ru", "a,b/ex01.ipynb"), ("学生", "zh", "学生/ex01.ipynb")):
        for i, ex in enumerate(exercises):
            status = ("missing" if i == 0 and lang == "zh" else "pass" if i % 3 else "fail")
            rows.append({"submission": sub, "exercise": ex["id"], "function": ex["function"], "status": status,
                         "points": 2 if status == "pass" else 0, "max_points": 2, "message": "",
                         "cases_passed": 1, "cases_total": 2, "lang": lang, "notebook": notebook, "feedback": []})
    r["rows"], r["grader"]["exercises"] = rows, exercises
    r["summary"] = [report.summarize(sub, [x for x in rows if x["submission"] == sub], lang)
                    for sub, lang in (("a,b", "ru"), ("学生", "zh"))]
    return r


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    folder = tmp_path_factory.mktemp("feedback")
    report.write_feedback(whole_course_report(), folder, "ru")
    assert (folder / "totals.png").exists(), "no histogram was drawn"
    return folder


@pytest.fixture(scope="module")
def chromium():
    instance = chromium_thread.start()
    yield instance
    instance.close()


PROBE = """() => {
    const box = document.querySelector('div.table'), first = box.querySelector('tbody th');
    const before = first.getBoundingClientRect().left - box.getBoundingClientRect().left;
    box.scrollLeft = box.scrollWidth;
    const after = first.getBoundingClientRect().left - box.getBoundingClientRect().left;
    const img = document.querySelector('figure img');
    const style = getComputedStyle(box);
    return {scroll: box.scrollWidth - box.clientWidth, page: document.documentElement.scrollWidth,
            gradients: (style.backgroundImage.match(/gradient/g) || []).length,
            shade: getComputedStyle(document.documentElement).getPropertyValue('--shade').trim(),
            bg: style.backgroundColor, before, after, moved: box.scrollLeft,
            scale: img.getBoundingClientRect().width / img.naturalWidth};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_index_scrolls_in_its_box_with_a_cue_and_keeps_names_in_view(chromium, pages, scheme):
    def body(browser):
        context = browser.new_context(viewport={"width": 360, "height": 780}, color_scheme=scheme)
        try:
            page = context.new_page()
            page.goto((pages / "index.html").as_uri(), wait_until="load")
            return page.evaluate(PROBE)
        finally:
            context.close()
    got = chromium.run(body)
    assert got["page"] <= 360, f"the index makes the page scroll sideways ({got['page']} px)"
    assert got["scroll"] > 200 and got["moved"] > 200, f"23 exercises should not fit 360 px: {got}"
    assert got["gradients"] == 4, f"no scroll cue (two covers and two shades) on the table's box: {got}"
    assert got["shade"] and "0, 0, 0, 0)" not in got["shade"], f"the shade is transparent in {scheme}: {got}"
    assert abs(got["after"] - got["before"]) < 1, f"the names scrolled away with the columns: {got}"
    assert got["scale"] * TICK_PX >= 10, f"the histogram's text is {got['scale'] * TICK_PX:.1f} px at 360 px"


def test_a_students_page_fits_a_phone(chromium, pages):
    student = next(p for p in pages.glob("*.html") if p.name != "index.html")

    def body(browser):
        context = browser.new_context(viewport={"width": 360, "height": 780})
        try:
            page = context.new_page()
            page.goto(student.as_uri(), wait_until="load")
            return page.evaluate("() => document.documentElement.scrollWidth")
        finally:
            context.close()
    assert chromium.run(body) <= 360


A11Y = """() => {
    const box = document.querySelector('div.table');
    const headings = [...document.querySelectorAll('h1, h2, h3')].map(h => h.textContent.trim());
    return {mains: document.querySelectorAll('main').length, focused: document.activeElement === box,
            moved: box.scrollLeft, headings, unique: new Set(headings).size === headings.length};
}"""


@pytest.mark.parametrize("name", ["index.html", "student"])
def test_screen_readers_and_keyboards_reach_everything(chromium, pages, name):
    """Each page is one <main> landmark with headings that are not repeated; its table's box is a named
    region that Tab reaches and the arrow keys scroll (on a 360 px phone the index is far wider than its
    box); every status sign of the index is an image named by its word (an aria-label on a bare <span>
    is not read out), in the page's language (here ru)."""
    path = pages / name if name == "index.html" else next(p for p in pages.glob("*.html") if p.name != "index.html")
    words = [messages.text(key, "ru") for key in ("status_pass", "status_fail")]

    def body(browser):
        context = browser.new_context(viewport={"width": 360, "height": 780})
        try:
            page = context.new_page()
            page.goto(path.as_uri(), wait_until="load")
            title = page.title()
            regions = page.get_by_role("region", name=title).count()
            signs = [page.get_by_role("img", name=word, exact=True).count() for word in words] \
                if name == "index.html" else []
            page.keyboard.press("Tab")
            for _ in range(5):
                page.keyboard.press("ArrowRight")
            if name == "index.html":
                try:            # the browser may scroll smoothly: wait for the first step, up to 5 s
                    page.wait_for_function("() => document.querySelector('div.table').scrollLeft > 0",
                                           timeout=5000)
                except Exception:  # noqa: BLE001 - reported by the assertion below, with the page's state
                    pass
            return {**page.evaluate(A11Y), "regions": regions, "signs": signs}
        finally:
            context.close()
    got = chromium.run(body)
    assert got["mains"] == 1 and got["regions"] == 1 and got["unique"], got
    assert got["focused"], f"Tab does not reach the table's box first: {got}"
    if name == "index.html":
        assert got["moved"] > 0, f"the arrow keys do not scroll the index's table: {got}"
        assert all(n > 0 for n in got["signs"]), f"a status sign is not read out by its word: {got}"
