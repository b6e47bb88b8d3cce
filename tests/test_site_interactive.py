"""Interactive figures (figures/interactive.py): in Jupyter terms, in the notebooks, and on the website.

The browser tests open §1 and §2 of the built site in headless Chromium, move
every control (keyboard, mouse, and touch at 360 px) and compare what the page
shows with what ``lib`` computes for that state here, in the test. They also
check the page without JavaScript (controls disabled, the state the figure
opens with, one where its point shows, and a note in the page's language), the controls' accessible names, the contrast of the
figure's text in light and dark mode, and that nothing sticks out at 360 px.

The browser, the site build and its server are tests/test_site.py's fixtures:
without Debian's chromium or the Python package playwright the browser tests
skip, except under CI=true, where they fail; COURSE_SITE_NO_BUILD=1 tests an
existing _build/site as it is.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from lib.attention import causal_attention, unmasked_attention  # noqa: E402
from lib.costs import head_costs  # noqa: E402
from course_i18n import SOURCE_LANGUAGE, localise_numbers  # noqa: E402
from figures.interactive import LANGUAGES, head_cost_table, last_row_experiment  # noqa: E402

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start, the PDF books).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

# §1.9 (src/chapters/01_allowed_set.py): X, and the sliders' grid X[2, j] + s * 0.5, s = -3 .. 3.
X = np.random.default_rng(1).normal(size=(3, 4)).round(1)
STEP, STEPS = 0.5, 3
# §2.5 (src/chapters/02_heads.py)
H_OPTIONS, D_OPTIONS, T_OPTIONS = [1, 2, 4, 8, 16, 32], [128, 256, 512, 1024], [128, 256, 512, 1024, 2048, 4096]
COST_START = (8, 512, 1024)
COST_ROWS = ["d", "4·D²", "B·H·T²", "MiB (float32)", "GFLOP (matmul)", "M ops (softmax)"]


# --------------------------------------------------------------------------- what lib says

# Every number as the page's language writes it (read65 ru L27: the Russian page once showed 1,048,576 and 0.187).

def significant(value, lang=SOURCE_LANGUAGE):
    return "0" if value == 0 else localise_numbers(f"{value:#.3g}", lang)


def last_row_expected(positions, lang=SOURCE_LANGUAGE):
    """Rows [i, max|ΔY[i]| causal, max|ΔY[i]| unmasked] for slider positions (0 .. 2*STEPS)."""
    X_try = X.copy()
    X_try[2] = X[2] + (np.asarray(positions) - STEPS) * STEP
    columns = [np.abs(f(X_try, X_try, X_try) - f(X, X, X)).max(axis=1) for f in (causal_attention, unmasked_attention)]
    return [[str(i)] + [significant(c[i], lang) for c in columns] for i in range(len(X))]


def slider_label(j, position, lang=SOURCE_LANGUAGE):
    return localise_numbers(f"{X[2, j] + (position - STEPS) * STEP + 0.0:.1f}", lang)


def costs_expected(n_heads, width, length, lang=SOURCE_LANGUAGE):
    c = {k: int(v) for k, v in head_costs(n_heads, width=width, length=length).items()}
    values = [f"{c['head_width']}", f"{c['parameters']}", f"{c['attention_entries']}",
              f"{c['attention_bytes'] / 2**20:.1f}", f"{c['matmul_flops'] / 1e9:.3f}",
              f"{c['softmax_ops'] / 1e6:.1f}"]
    return [[symbol, localise_numbers(value, lang)] for symbol, value in zip(COST_ROWS, values)]


def last_row_figure():
    return last_row_experiment(X, [causal_attention, unmasked_attention])


def cost_figure():
    return head_cost_table(H=H_OPTIONS, D=D_OPTIONS, T=T_OPTIONS, start=COST_START)


# --------------------------------------------------------------------------- without a browser

def _table_rows(table_html, lang=SOURCE_LANGUAGE):
    """[[header, cell, ...], ...] of the body of an HTML table as a page in ``lang`` shows it, descriptions left
    out (a cell whose number the languages write differently holds one element per language)."""
    body = table_html.split("<tbody>", 1)[1]
    body = re.sub(r'<span class="cx-desc">.*?</span></th>', "</th>", body)
    body = re.sub(rf'<span lang="(?!{lang}")[^"]*">[^<]*</span>', "", body)
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", body):
        rows.append([re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)])
    return rows


def test_every_state_holds_what_lib_computes():
    figure = last_row_figure()
    assert len(figure.states) == (2 * STEPS + 1) ** 4
    for lang in LANGUAGES:
        for state in [(3, 3, 3, 3), (0, 0, 0, 0), (6, 6, 6, 6), (0, 6, 2, 5), (4, 1, 3, 3)]:
            assert _table_rows(figure.table(figure.cells(state)), lang) == last_row_expected(state, lang), state
    costs = cost_figure()
    assert len(costs.states) == len(H_OPTIONS) * len(D_OPTIONS) * len(T_OPTIONS)
    for lang in LANGUAGES:
        for h, d, t in [(0, 0, 0), (3, 2, 3), (5, 0, 5), (0, 3, 0)]:
            expected = costs_expected(H_OPTIONS[h], D_OPTIONS[d], T_OPTIONS[t], lang)
            assert _table_rows(costs.table(costs.cells((h, d, t)), words=True), lang) == expected


def test_every_number_is_written_as_the_pages_language_writes_it():
    """read65 ru L27: the Russian page of §2.6 showed 1,048,576, 32.0 and 4.295 beside prose that writes 1 048 576
    and 4,29, and §1.9's table 0.187. The static table holds each language's form, the data gives the site's script
    every language's strings and labels, and the text output (one for all three notebooks) is in English."""
    costs, last = cost_figure(), last_row_figure()
    shown = {lang: _table_rows(costs.table(costs.cells(costs.shown), words=True), lang) for lang in LANGUAGES}
    assert [value for _, value in shown["ru"]] == ["64", "1\u202f048\u202f576", "8\u202f388\u202f608", "32,0", "4,295",
                                                  "41,9"]
    assert [value for _, value in shown["en"]] == ["64", "1,048,576", "8,388,608", "32.0", "4.295", "41.9"]
    assert shown["zh"] == shown["en"]
    assert _table_rows(last.table(last.cells(last.shown)), "ru")[0] == ["0", "0", "0,187"]
    for figure in (costs, last):
        page = figure.static_html()
        data = json.loads(re.search(r'<script type="application/json" class="cx-data">(.*?)</script>', page).group(1))
        assert data["source"] == SOURCE_LANGUAGE and set(data["strings"]) == set(data["labels"]) == set(LANGUAGES)
        for lang in LANGUAGES:
            for n in range(len(figure.states)):
                cells = [data["strings"][lang][int(i)] for i in data["states"][n].split("|")]
                assert cells == [localise_numbers(text, lang) for text in figure.states[n]]
    assert data["labels"]["ru"][0][:2] == ["-1,1", "-0,6"] and data["labels"]["en"][0][:2] == ["-1.1", "-0.6"]
    output = '<output for="cx-last-row-0"><span lang="zh">1.4</span><span lang="en">1.4</span><span lang="ru">1,4</span>'
    assert output in last.static_html()
    assert "1,048,576" in costs.plain() and "0.187" in last.plain()
    from figures.interactive import Control, Figure            # a button's label is one text: the same everywhere
    with pytest.raises(ValueError, match="buttons"):
        Figure("x", [Control("s", (0.5, 1.5), ("0.5", "1.5"), 0, kind="buttons")], [["1"], ["2"]], None, [["r", 0]],
               {}, {})


def test_one_output_carries_the_widget_the_static_figure_and_text():
    bundle = last_row_figure()._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", WIDGET_VIEW}
    page = bundle["text/html"]
    data = json.loads(re.search(r'<script type="application/json" class="cx-data">(.*?)</script>', page).group(1))
    assert len(data["states"]) == 7 ** 4
    assert all(data["labels"][lang][0] == [slider_label(0, p, lang) for p in range(7)] for lang in LANGUAGES)
    assert '<fieldset class="cx-controls" disabled>' in page       # until the site's script enables them
    assert all(f'<span lang="{lang}">' in page for lang in LANGUAGES)
    assert "0x" not in page and "0x" not in bundle["text/plain"]   # nothing that changes from run to run
    # it opens with X[2,0] moved by two steps (0.4 + 2 * 0.5), not with X itself, where all is 0
    assert bundle["text/plain"].splitlines()[0] == "X[2,0]=1.4  X[2,1]=0.3  X[2,2]=0.0  X[2,3]=0.5"


def test_payload_stays_small():
    sizes = {name: len(f.static_html().encode()) for name, f in [("last-row", last_row_figure()),
                                                                  ("head-costs", cost_figure())]}
    print("static figure bytes:", sizes)
    assert sizes["last-row"] < 100_000 and sizes["head-costs"] < 20_000, sizes


def test_jupyter_widget_follows_every_control():
    """In the kernel, moving any control replaces the table by that state's table."""
    for figure in (last_row_figure(), cost_figure()):
        box = figure.widget()
        *controls, view = box.children
        state = list(figure.shown)
        assert [control.value for control in controls] == state
        for n, control in enumerate(controls):
            for i in (len(control.options) - 1, 0, len(control.options) // 2):
                control.value = i
                state[n] = i
                assert _table_rows(view.value) == _table_rows(figure.table(figure.cells(tuple(state)))), (n, i)
    box = last_row_figure().widget()
    box.children[0].value = 6                       # X[2,0] = 1.9
    assert _table_rows(box.children[-1].value) == last_row_expected((6, 3, 3, 3))


def test_a_figure_refuses_too_many_states():
    with pytest.raises(ValueError, match="states"):
        last_row_experiment(X, [causal_attention], steps=10)
    with pytest.raises(ValueError, match="not one of the options"):
        head_cost_table(H=[1, 2], D=[128], T=[128], start=(4, 128, 128))
    for moved in (4, -4, 1.0, True):                # off the sliders' range, or not a whole step
        with pytest.raises(ValueError, match="moved"):
            last_row_experiment(X, [causal_attention], moved=moved)
    assert last_row_experiment(X, [causal_attention], moved=0).shown == (STEPS,) * 4   # X itself


def _executed_notebooks():
    for kind in ("chapters", "solutions"):
        for path in sorted((ROOT / kind).glob("*/*.ipynb")):
            yield path


def test_no_widget_without_a_static_version_and_no_saved_widget_state():
    """The website shows text/html where a widget is (_config.yml), so every widget
    output must carry the static figure; and no notebook keeps widget state, whose
    restored controls would move without their numbers."""
    problems = []
    for path in _executed_notebooks():
        nb = nbformat.read(path, as_version=4)
        if "widgets" in nb.metadata:
            problems.append(f"{path.relative_to(ROOT)}: saved widget state")
        for cell in nb.cells:
            for out in cell.get("outputs", []):
                data = out.get("data", {})
                if WIDGET_VIEW in data and '<div class="cx" id="cx-' not in data.get("text/html", ""):
                    problems.append(f"{path.relative_to(ROOT)} cell {cell.get('id')}: a widget with no static figure")
    assert not problems, "\n".join(problems)


def test_the_site_prefers_the_static_figure():
    import yaml
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    overrides = config["sphinx"]["config"]["nb_mime_priority_overrides"]
    assert ["html", WIDGET_VIEW, None] in overrides


# --------------------------------------------------------------------------- in the browser

# The site build and its server are tests/test_site.py's fixtures; Chromium runs
# in a thread of its own (tests/chromium_thread.py: several browser test files
# may share a pytest worker, and Playwright allows one instance per thread), one
# per worker for every file that uses in_chromium (tests/conftest.py's chromium).
from test_site import base_url, site_dir  # noqa: E402,F401


class Page:
    """One page in its own browser context, collecting JavaScript errors."""

    def __init__(self, browser, url, **context):
        self.context = browser.new_context(**context)
        self.page = self.context.new_page()
        self.errors = []
        self.page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(url, wait_until="load")


def in_chromium(test):
    """Run a test's body in Chromium's thread. The body's first argument is
    open_page(lang, chapter, **context) -> a Playwright page; after the body, no
    page may have logged a JavaScript error."""
    parameters = list(inspect.signature(test).parameters.values())[1:]

    def wrapper(chromium, base_url, **kwargs):
        def body(browser):
            pages = []

            def open_page(lang, chapter, **context):
                pages.append(Page(browser, f"{base_url}{lang}/chapters/{chapter}.html", **context))
                return pages[-1].page
            try:
                test(open_page, **kwargs)
            finally:
                errors = [e for page in pages for e in page.errors]
                for page in pages:
                    page.context.close()
            assert not errors, f"JavaScript errors: {errors}"
        chromium.run(body)

    wrapper.__name__, wrapper.__doc__ = test.__name__, test.__doc__
    wrapper.__signature__ = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("chromium", "base_url")]
        + [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in parameters])
    return wrapper


def go_to(page, chapter):
    """The same page (its context, its viewport) goes on to another chapter of its language: for a test that
    reads several chapters alike, one context instead of one per chapter, each kept open to the test's end
    (JavaScript errors are still collected: the listeners are the page's)."""
    page.goto(re.sub(r"/[^/]+\.html(?:[?#].*)?$", f"/{chapter}.html", page.url), wait_until="load")
    return page


def shown_rows(figure):
    """The table as the page shows it: [[row header, cell, ...], ...] (descriptions left out; of a cell that holds
    its number in every language, the one the page shows)."""
    return figure.evaluate("""f => Array.from(f.querySelectorAll('tbody tr')).map(tr =>
        Array.from(tr.children).map(c => c.tagName === 'TH' ? c.firstChild.textContent : c.innerText))""")


def _live(page, selector):
    figure = page.locator(selector)
    figure.wait_for()
    page.wait_for_function(f"document.querySelector('{selector}').classList.contains('cx-live')")
    return figure


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_last_row_sliders_show_what_lib_computes(open_page, lang):
    page = open_page(lang, "01_allowed_set")
    figure = _live(page, "#cx-last-row")
    head = figure.locator("thead").inner_text()           # the columns shown_rows reads, in order
    assert re.search(r"max\|ΔY\[i\]\|.*causal_\s*attention.*unmasked_\s*attention", head, re.S), head
    positions = list(last_row_figure().shown)
    assert positions == [STEPS + 2, STEPS, STEPS, STEPS]
    assert shown_rows(figure) == last_row_expected(positions, lang)
    for j in range(4):
        slider = page.get_by_role("slider", name=f"X[2,{j}]")   # its accessible name
        for key, position in (("End", 2 * STEPS), ("Home", 0), ("ArrowRight", 1), ("ArrowRight", 2)):
            slider.press(key)
            positions[j] = position
            assert slider.get_attribute("aria-valuetext") == slider_label(j, position, lang)
            assert figure.locator(f'output[for="cx-last-row-{j}"]').inner_text() == slider_label(j, position, lang)
            rows = shown_rows(figure)
            assert rows == last_row_expected(positions, lang), (lang, positions)
            assert rows[0][1] == rows[1][1] == "0"                 # with the mask rows 0 and 1 stay exactly
            assert "0" not in (rows[0][2], rows[1][2])             # without it they change
            zero = figure.locator("tbody tr").first.locator("td").first
            assert zero.get_attribute("class") == "cx-zero"


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_cost_buttons_show_what_lib_computes(open_page, lang):
    page = open_page(lang, "02_heads")
    figure = _live(page, "#cx-head-costs")
    state = list(COST_START)
    assert shown_rows(figure) == costs_expected(*state, lang)
    for n, (symbol, options) in enumerate(zip("HDT", (H_OPTIONS, D_OPTIONS, T_OPTIONS))):
        group = page.get_by_role("group", name=symbol, exact=True)
        for value in options[::-1] + [COST_START[n]]:
            group.get_by_role("radio", name=str(value), exact=True).check()
            state[n] = value
            assert shown_rows(figure) == costs_expected(*state, lang), (lang, state)
    page.get_by_role("group", name="D", exact=True).get_by_role("radio", name="128", exact=True).check()
    parameters = {"zh": "65,536", "en": "65,536", "ru": "65\u202f536"}[lang]
    assert shown_rows(figure)[:2] == [["d", "16"], ["4·D²", parameters]]   # H = 8, D = 128: once left showing D = 512


@in_chromium
def test_touch_at_phone_width(open_page):
    page = open_page("ru", "02_heads", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    figure = _live(page, "#cx-head-costs")
    page.get_by_role("group", name="T", exact=True).get_by_role("radio", name="4096", exact=True).tap()
    assert shown_rows(figure) == costs_expected(8, 512, 4096, "ru")
    _fits_and_is_touchable(page, figure)

    page = open_page("zh", "01_allowed_set", viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    figure = _live(page, "#cx-last-row")
    slider = page.get_by_role("slider", name="X[2,1]")
    box = slider.bounding_box()
    slider.tap(position={"x": box["width"] - 2, "y": box["height"] / 2})       # the right end of the track
    assert slider.input_value() == str(2 * STEPS)
    assert shown_rows(figure) == last_row_expected([STEPS + 2, 2 * STEPS, STEPS, STEPS], "zh")   # X[2,0] as it opened
    _fits_and_is_touchable(page, figure)


def _fits_and_is_touchable(page, figure):
    width = page.viewport_size["width"]
    box = figure.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, f"the figure sticks out at {width} px: {box}"
    assert figure.evaluate("f => f.scrollWidth <= f.clientWidth"), "the figure scrolls sideways"
    targets = figure.locator(".cx-buttons span, input[type=range]")
    for i in range(targets.count()):
        target = targets.nth(i).bounding_box()
        assert target["height"] >= 44 and target["width"] >= 36, f"control {i} is too small to touch: {target}"


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_without_javascript_the_initial_state_is_shown_and_said(open_page, lang):
    page = open_page(lang, "02_heads", java_script_enabled=False)
    figure = page.locator("#cx-head-costs")
    radios = figure.locator("input[type=radio]")
    assert radios.count() == 16 and all(radios.nth(i).is_disabled() for i in range(16))
    assert shown_rows(figure) == costs_expected(*COST_START, lang)
    assert figure.locator("input:checked").evaluate_all("els => els.map(e => e.parentElement.innerText)") == \
        [str(v) for v in COST_START]
    note = figure.locator(f'.cx-note [lang="{lang}"]')
    assert note.is_visible() and "JavaScript" in note.inner_text()
    for other in set(LANGUAGES) - {lang}:
        assert not figure.locator(f'[lang="{other}"]').first.is_visible(), f"{other} words shown on the {lang} page"
    page = open_page(lang, "01_allowed_set", java_script_enabled=False)
    figure = page.locator("#cx-last-row")
    opened = [STEPS + 2, STEPS, STEPS, STEPS]                      # X[2,0] moved by +1.0
    rows = shown_rows(figure)
    assert rows == last_row_expected(opened, lang)
    # the point of §1.9 is on the static page: rows 0 and 1 stay exactly 0 with the mask, move without it
    assert rows[0][1] == rows[1][1] == "0" and "0" not in (rows[0][2], rows[1][2])
    assert figure.locator("tbody td.cx-moved").count() >= 3
    assert figure.locator("#cx-last-row-0").input_value() == str(opened[0])
    assert figure.locator('output[for="cx-last-row-0"]').inner_text() == slider_label(0, opened[0], lang)


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_only_the_pages_language_and_no_note_when_live(open_page, lang):
    page = open_page(lang, "01_allowed_set")
    figure = _live(page, "#cx-last-row")
    assert not figure.locator(".cx-note").is_visible()
    assert figure.locator(f'legend > [lang="{lang}"]').is_visible()
    for other in set(LANGUAGES) - {lang}:
        assert not figure.locator(f'legend > [lang="{other}"]').is_visible()


CONTRAST = """el => {
  // text colour against the background behind it, translucent layers composited
  const rgba = s => { const m = s.match(/[\\d.]+/g).map(Number); return m.length === 3 ? [...m, 1] : m; };
  const layers = [];
  for (let e = el; e; e = e.parentElement) layers.push(rgba(getComputedStyle(e).backgroundColor));
  let bg = [255, 255, 255];
  for (const [r, g, b, a] of layers.reverse()) bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  const [r, g, b, a] = rgba(getComputedStyle(el).color);
  const fg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  const lum = c => { const v = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const [hi, lo] = [lum(fg), lum(bg)].sort((p, q) => q - p);
  return (hi + 0.05) / (lo + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
@in_chromium
def test_text_is_readable_in_light_and_dark_mode(open_page, scheme):
    page = None
    for chapter, selector in (("01_allowed_set", "#cx-last-row"), ("02_heads", "#cx-head-costs")):
        page = go_to(page, chapter) if page else open_page("en", chapter, color_scheme=scheme)
        figure = _live(page, selector)
        assert page.evaluate("document.documentElement.dataset.theme") == scheme
        texts = figure.locator("legend > span[lang=en], th, td, caption span[lang=en], .cx-buttons span, output, label")
        for i in range(texts.count()):
            element = texts.nth(i)
            if not element.is_visible():
                continue
            ratio = element.evaluate(CONTRAST)
            assert ratio >= 4.5, f"{chapter} ({scheme}): {element.inner_text()!r} has contrast {ratio:.2f}"
