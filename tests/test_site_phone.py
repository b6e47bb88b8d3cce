"""The site on a phone and by keyboard, in headless Chromium.

* **Sidebar buttons.** The ☰ button (the chapter list) and the page-contents button of the
  article header open their panel and close it again, at 360, 1000 and 1280 px: the
  panel's links become visible, then hidden. On narrow screens the panel is a dialog
  (closed by the close button inside it, or Escape; focus returns to the button), on wide
  ones ☰ hides and shows the sidebar; where the page contents always show (1200 px and
  up) its button is hidden. ``aria-expanded`` follows.
* **Tables on a phone.** Prose tables of three columns or more read as cards
  (site/course_book.py table_cards): §0's map and §6's table of evidence fit the column,
  every cell under its column's heading, and a notebook name stays on one line. A grid of
  short numbers (§7's five seeds) stays a table, a row's values side by side, and fits.
  (That every figure, table, output and formula on every page either fits a 360 px column
  or says that it scrolls is checked by tests/test_site.py, on each page it opens.)
* **Keyboard.** No formula is a tab stop (site/course_book.py typesets them at build time,
  tools/static_math.py); the header's buttons show a focus ring.

The browser, the site build and its server are tests/test_site.py's fixtures.
"""

from __future__ import annotations

import re

import pytest

from course_i18n import LANGUAGES

from test_site import base_url, site_dir  # noqa: E402,F401
from tools.build_site import SCRIPT_WORDS  # noqa: E402 (test_site has put the repository on sys.path)
from tools.search_index import WORDS as SEARCH_WORDS  # noqa: E402
from test_site_interactive import go_to, in_chromium  # noqa: E402 (the browser: conftest.chromium, one per worker)

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start, the PDF books).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

PHONE = {"width": 360, "height": 780}

VISIBLE_LINKS = """sel => Array.from(document.querySelectorAll(sel)).filter(a => {
    const r = a.getBoundingClientRect();
    return a.checkVisibility({visibilityProperty: true, opacityProperty: true}) && r.width > 0
           && r.right > 0 && r.left < window.innerWidth && r.bottom > 0 && r.top < window.innerHeight;
}).length"""


def _links(page, side):
    return page.evaluate(VISIBLE_LINKS, f"#pst-{side}-sidebar a, #pst-{side}-sidebar-modal a")


def _until(page, side, shown, closed=False):
    """Wait until the ``side`` panel shows its links (more than 3) or not, as ``shown`` says, and, if
    ``closed``, its dialog has closed and given the focus back to a sidebar button; at most two
    seconds: the assertions after it say what is wrong."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function(f"""([sel, shown, side, closed]) => (({VISIBLE_LINKS})(sel) > 3) === shown
            && (!closed || (!document.querySelector(`#pst-${{side}}-sidebar-modal[open]`) && document.activeElement
                            && document.activeElement.classList.contains("sidebar-toggle")))""",
                               arg=[f"#pst-{side}-sidebar a, #pst-{side}-sidebar-modal a", shown, side, closed],
                               timeout=2000)
    except PlaywrightTimeout:
        pass


@pytest.mark.parametrize("lang,width", [(lang, width) for width in (360, 1280) for lang in LANGUAGES] + [("en", 1000)])
@in_chromium
def test_sidebar_buttons_open_and_close_their_panels(open_page, lang, width):
    page = open_page(lang, "02_heads", viewport={"width": width, "height": 800})
    page.wait_for_load_state("load")
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; animation: none !important; }")
    for side in ("primary", "secondary"):
        button = page.locator(f".bd-header-article .{side}-toggle")
        if side == "secondary" and width >= 1200:
            assert not button.is_visible(), "the page-contents button shows where the contents always show"
            assert _links(page, side) > 3, "the page's contents are not shown at 1280 px"
            continue
        assert button.is_visible(), f"no {side} button at {width} px"
        shown = _links(page, side) > 3
        assert shown == (side == "primary" and width >= 992), f"{side} panel at {width} px shown: {shown}"
        assert button.get_attribute("aria-expanded") == ("true" if shown else "false")
        button.click()
        _until(page, side, not shown)
        assert (_links(page, side) > 3) != shown, f"{side} button did nothing at {width} px"
        assert button.get_attribute("aria-expanded") == ("false" if shown else "true")
        dialog = page.locator(f"#pst-{side}-sidebar-modal[open]")
        if dialog.count():                          # a dialog: its own close button, then Escape
            close = dialog.locator(".course-dialog-close")
            assert close.is_visible() and close.inner_text().strip() == SCRIPT_WORDS["close"][lang]
            close.click()
            _until(page, side, False, closed=True)
            assert _links(page, side) <= 3 and not dialog.count(), f"the {side} dialog did not close"
            assert page.evaluate("document.activeElement && document.activeElement.classList.contains('sidebar-toggle')")
            button.click()
            _until(page, side, True)
            assert _links(page, side) > 3
            page.keyboard.press("Escape")
            _until(page, side, False, closed=True)
            assert _links(page, side) <= 3, f"Escape did not close the {side} dialog"
            assert page.locator(f".bd-header-article .{side}-toggle").is_visible()
        else:                                       # the wide sidebar: the same button again
            button.click()
            _until(page, side, shown)
            assert (_links(page, side) > 3) == shown, f"the {side} button did not bring the panel back"
        assert button.get_attribute("aria-expanded") == ("true" if shown else "false")


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_the_map_and_the_evidence_read_on_a_phone(open_page, lang):
    """§0's map and §6's evidence table: every cell visible in the column, with its heading."""
    page = None
    for chapter, columns in (("00_start", 4), ("06_evidence", 4)):
        page = go_to(page, chapter) if page else open_page(lang, chapter, viewport=PHONE, is_mobile=True, has_touch=True)
        page.wait_for_load_state("load")
        table = page.locator("table.course-cards").first
        assert table.count(), f"{chapter}: no table read as cards"
        cells = table.evaluate("""t => Array.from(t.querySelectorAll('tbody td')).map(td => {
            const r = td.getBoundingClientRect(), code = td.querySelector('code');
            return {right: r.right, left: r.left, label: getComputedStyle(td, '::before').content,
                    codeLines: code ? Math.round(code.getBoundingClientRect().height / parseFloat(getComputedStyle(code).lineHeight)) : 0};
        })""")
        assert len(cells) >= 5 * columns
        assert all(c["left"] >= 0 and c["right"] <= PHONE["width"] for c in cells), f"{chapter}: a cell off screen"
        assert all(c["label"] not in ("none", "normal", '""') for c in cells), f"{chapter}: a cell without its heading"
        # a notebook name such as ex01_allowed_set stays on one line (it wrapped 2 letters a line)
        assert all(c["codeLines"] <= 1 for c in cells), f"{chapter}: a name wraps: {cells}"


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_the_five_seeds_read_as_a_grid_on_a_phone(open_page, lang):
    """§7's five-seed tables stay grids (a row's five values side by side, under the seeds'
    heading), and the label and five columns fit 360 px without scrolling."""
    page = open_page(lang, "07_decoder", viewport=PHONE, is_mobile=True, has_touch=True)
    page.wait_for_load_state("load")
    tables = page.evaluate("""() => Array.from(document.querySelectorAll('.bd-article table'))
        .filter(t => t.querySelectorAll('thead th').length === 6).map(t => {
            const r = t.getBoundingClientRect(), row = t.querySelector('tbody tr');
            const tops = Array.from(row.querySelectorAll('td')).map(td => Math.round(td.getBoundingClientRect().top));
            return {cards: t.classList.contains('course-cards'), left: r.left, right: r.right,
                    scrolls: t.parentElement.scrollWidth > t.parentElement.clientWidth + 1,
                    oneLine: new Set(tops).size === 1};
        })""")
    assert len(tables) == 2, f"expected the two five-seed tables: {tables}"
    for table in tables:
        assert not table["cards"] and table["oneLine"], f"a five-seed table reads as cards: {table}"
        assert table["left"] >= 0 and table["right"] <= PHONE["width"] and not table["scrolls"], table


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_the_scripts_say_their_words_in_the_page_language(open_page, lang):
    """The words of course.js (the close button, the line under what scrolls sideways, the title of a
    check's bar) and of course-search.js (the results' heading, how many sections were found, the sentence
    when none is) are the catalogue's, in the
    page's language: the build hands them to the scripts, which hold none of their own."""
    page = open_page(lang, "02_heads", viewport=PHONE, is_mobile=True, has_touch=True)
    page.wait_for_load_state("load")
    shown = page.evaluate("""() => {
        const wide = document.createElement("div");
        wide.className = "pst-scrollable-table-container";
        wide.innerHTML = '<div style="width: 2000px">&nbsp;</div>';
        document.querySelector(".bd-article section").appendChild(wide);
        courseMarkScrolling();
        const hint = wide.previousElementSibling, close = document.querySelector(".course-dialog-close");
        const check = document.querySelector(".course-check-line");
        return {close: close && close.textContent.trim(), scroll_hint: hint && hint.classList.contains("course-scroll-hint")
                && hint.textContent, check_title: check && check.title};
    }""")
    assert shown == {name: words[lang] for name, words in SCRIPT_WORDS.items()}
    page.goto(re.sub(r"/chapters/[^/]+\.html.*$", "/search.html?q=softmax", page.url), wait_until="load")
    page.wait_for_selector(".search-summary")
    summary = page.locator(".search-summary").inner_text()
    found = re.search(r"\d+", summary)
    assert found and summary == SEARCH_WORDS["found"][lang].replace("{n}", found.group()), summary
    assert page.locator("#search-results h2").inner_text() == SEARCH_WORDS["heading"][lang]
    page.goto(page.url.replace("q=softmax", "q=qzxwvj"), wait_until="load")
    page.wait_for_selector(".search-summary")
    assert page.locator(".search-summary").inner_text() == SEARCH_WORDS["none"][lang]
    assert page.locator("#search-results li").count() == 0


@in_chromium
def test_a_tap_leaves_no_tooltip_over_the_header(open_page):
    page = open_page("ru", "03_positions", viewport=PHONE, is_mobile=True, has_touch=True)
    page.wait_for_load_state("load")
    page.locator(".bd-header-article .dropdown-download-buttons > button").tap()
    page.wait_for_timeout(300)
    assert page.locator(".tooltip").count() == 0, "a tooltip opened over the header"


FOCUS_RING = """sel => { const e = document.querySelector(sel); const s = getComputedStyle(e);
    return {focused: document.activeElement === e, style: s.outlineStyle, width: parseFloat(s.outlineWidth)}; }"""


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_keyboard_stops_only_where_something_happens(open_page, lang):
    page = open_page(lang, "02_heads", viewport={"width": 1280, "height": 800})
    page.wait_for_load_state("load")
    stops = page.evaluate("""() => Array.from(document.querySelectorAll(
        'a[href], button, input, select, textarea, summary, [tabindex]')).filter(e => e.tabIndex >= 0
        && !e.disabled && e.getClientRects().length).map(e => e.closest('mjx-container') || e.tagName.startsWith('MJX') ? 'math' : 'other')""")
    formulas = page.evaluate("document.querySelectorAll('.bd-article mjx-container').length")
    assert formulas >= 20, f"only {formulas} typeset formulas on §2"
    assert stops.count("math") == 0, f"{stops.count('math')} of {len(stops)} tab stops are formulas"
    for selector in (".bd-header-article .primary-toggle", ".bd-header-article .dropdown-download-buttons > button"):
        page.focus("body")
        for _ in range(80):                       # Tab until the button has the focus
            page.keyboard.press("Tab")
            if page.evaluate(f"document.activeElement === document.querySelector({selector!r})"):
                break
        ring = page.evaluate(FOCUS_RING, selector)
        assert ring["focused"], f"{selector} is not reached by Tab"
        assert ring["style"] != "none" and ring["width"] >= 2, f"{selector}: no focus ring ({ring})"
