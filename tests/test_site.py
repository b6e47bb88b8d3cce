"""The course website in a real browser (headless Chromium driven by Playwright).

Every page of every language is opened over HTTP from 127.0.0.1 and checked:

* it loads with no console error and no failed request, nothing leaves
  localhost, ``<html lang>`` is right;
* the language switcher (the row of names and the phone menu) leads to the same
  page in the other languages, which exists;
* weight: no MathJax script (formulas are typeset at build time,
  tools/static_math.py; only a page with a widget and math keeps it), the
  formulas' stylesheet where the page has math, the widget runtime only where
  it shows a widget, each page-specific asset (site/course_site.py PAGE_ASSETS)
  only where its marker is; no fontawesome.js and no full icon font; every
  shared asset comes from the one ``/_static/`` (same URL in every language);
  the page, with everything it loads, weighs at most HEAVIEST_LIMIT (gzip), and
  it loads nothing build_site.first_visit does not count (test_page_weight bounds
  the median and the heaviest page by that count, without a browser);
* formulas are typeset (no TeX left, no TeX error), images load, widgets render, notebook
  pages offer the .ipynb download and (with no repository set) no launch button;
* axe-core (npm, pinned in site/vendor.json, injected by the test, never part of
  the site) finds no serious or critical violation, in light and in dark mode
  (a code cell marked up as on the English page is checked there: checked_in);
* at 360 px nothing scrolls sideways and the header's buttons are on screen;
  a figure, table, output or formula wider than the column scrolls in its own
  box that says so (site/static/course.js).

Other tests: search in each language finds every page by a word of its
headings; the landing page (h1, one section per language, browser language
redirect, ``?stay``); the switcher keeps the reader's section; switching
language loads only the new page's HTML, images and a few small per-language
files; every figure has alt text in the page's language; no sentence points at
a launch button that is not there. The second build, with a placeholder
repository URL, and every menu of a notebook page are tests/test_site_launch.py's.

The site is built by the session fixture (`python tools/build_site.py`,
incremental: a few seconds when `make book` already ran; about a minute from
scratch), once per test run: the other files and xdist workers that ask for it
reuse that build. Set COURSE_SITE_NO_BUILD=1 to test an existing _build/site as is.

Needs Debian's chromium (on the PATH, or $CHROMIUM) and fonts-noto-cjk, the
Python package playwright, npm (the pinned MathJax and axe-core, fetched once)
and Node.js (the build typesets the formulas with that MathJax): `make test`
installs them (tools/system-packages.txt). Without them the tests skip naming
what is missing, except when CI=true, where they fail.

At the end the session prints the page weight (first visit and language
switch, raw and gzip) and load times, and writes them to _build/site-report.json.
"""

from __future__ import annotations

import functools
import gzip
import html as html_lib
import http.server
import json
import os
import posixpath
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "site"))
from tools import build_site  # noqa: E402

import course_site  # noqa: E402
from chromium_thread import FLAGS as CHROMIUM_FLAGS  # noqa: E402
from grading.version import package_version  # noqa: E402
from conftest import browser_executable, clear_stale_event_loop, need, once_per_run, slowdown, unavailable  # noqa: E402

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start, the PDF books).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

OUT = build_site.OUT
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
NAV_TIMEOUT_MS = 30_000
BUILD_TIMEOUT = 2400         # s: a whole site build from nothing (about 5 minutes on 2 loaded cores)
DESKTOP = {"width": 1366, "height": 900}
PHONE_WIDTH = 360
# tests/test_site_figures.py assumes the text column is at least this wide
# (figures are drawn to fit it unshrunk; legends to stay readable on a phone).
DESKTOP_COLUMN, PHONE_COLUMN = 720, 320
SCRIPT_OF = {"zh": r"[\u4e00-\u9fff]", "ru": r"[А-Яа-яЁё]", "en": r"[A-Za-z]"}
LANGUAGE_SPECS = {spec["code"]: spec for spec in build_site.site_languages(build_site.load_yaml(build_site.ROOT / "_config.yml"))}
# the footer's date of the last update, as each language writes a date: no leading zero, zh's full stop 。,
# ru's month in the genitive and the year's «г.» (after a no-break space), one full stop
LAST_UPDATED = {"en": r"Last updated on [A-Z][a-z]{2} [1-9]\d?, \d{4}\.",
                "zh": r"最后更新于 \d{4} 年 [1-9]\d? 月 [1-9]\d? 日。",
                "ru": r"Обновлено [1-9]\d? (января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября"
                      r"|ноября|декабря) \d{4}\u00a0г\."}


# A figure of the corpus shows its tokens (春, 风, 雨), so an English or Russian
# description may name them; a run of two or more Chinese characters is
# Chinese prose, not a token.
# A token of the course's corpora standing alone (春 in "<bos> 春 雨", ж in §7's "a ж b | b ж a"):
# a single Han character, or a single Cyrillic letter of §7's mirror alphabet, between non-letters.
_TOKEN = re.compile(r"(?<![\u4e00-\u9fff])[\u4e00-\u9fff](?![\u4e00-\u9fff])|(?<![\w])[дж](?![\w])")


def _foreign_words(lang, text):
    """Words of another language of the course in `text` (tokens of the corpus allowed)."""
    others = [SCRIPT_OF[code] for code in ("zh", "ru") if code != lang]
    return re.findall("|".join(others), _TOKEN.sub(" ", text))


# --------------------------------------------------------------------------- pages

def _site_pages():
    """(lang, html_lang, pagename) for every page the build produces, known before it runs."""
    base = build_site.load_yaml(ROOT / "_config.yml")
    toc = build_site.load_yaml(ROOT / "_toc.yml")
    pages = []
    for spec in build_site.site_languages(base):
        _, order, _ = build_site.derive_toc(toc, spec["code"], build_site.existing_docs(spec["code"]))
        for doc in order + ["search", "genindex"]:
            pages.append((spec["code"], spec["html_lang"], doc))
    return pages


PAGES = _site_pages()
LANGS = sorted({p[0] for p in PAGES})
NOTEBOOK_PAGES = [p for p in PAGES if p[2].split("/", 1)[0] in build_site.KINDS]


def _article(source: str) -> str:
    """The <article> of a built page, without scripts, styles and code."""
    match = re.search(r"<article\b.*?</article>", source, re.S)
    text = match.group(0) if match else ""
    return re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.S)


def _prose(source: str) -> str:
    """The article's reading text: no code cells, no outputs, no inline code."""
    text = _article(source)
    text = re.sub(r'<div class="cell_input.*?</div>\s*</div>', " ", text, flags=re.S)
    text = re.sub(r'<div class="cell_output.*?</div>\s*</div>', " ", text, flags=re.S)
    text = re.sub(r"<(pre|code)\b.*?</\1>", " ", text, flags=re.S)
    return html_lib.unescape(re.sub(r"<[^>]+>", " ", text))


# --------------------------------------------------------------------------- fixtures

def _build(*args):
    if build_site.vendor_needs_npm() or build_site.vendor_needs_npm("build_packages"):
        need("npm", "the site build fetches its pinned MathJax and widget manager with npm")
    need("node", "the site build typesets the formulas with the pinned MathJax in Node.js")
    # build_site.py takes a lock, so concurrent builds (pytest-xdist workers) queue up.
    try:
        proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py"), *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"site build {' '.join(args)} did not finish in {BUILD_TIMEOUT} s:\n{str(exc.stdout or '')[-4000:]}",
                    pytrace=False)
    if proc.returncode != 0:
        pytest.fail(f"site build {' '.join(args)} failed:\n{proc.stdout[-8000:]}\n{proc.stderr[-4000:]}",
                    pytrace=False)


# Several test files ask for the site (this one, test_site_*.py, test_pdf.py, test_diagrams.py,
# test_search_terms.py) in both xdist workers: the first to ask builds it, the others wait for that
# build and reuse it. Nothing in a test run changes the sources, so a second incremental build found
# nothing to do and only cost its 15-25 s. The stamp names the run (xdist's testrunuid, the same in
# every worker), so the next run, or a `make book` between two runs, builds again.


@pytest.fixture(scope="session")
def site_dir(request):
    """The built site; (re)built incrementally once per test run unless COURSE_SITE_NO_BUILD=1."""
    if os.environ.get("COURSE_SITE_NO_BUILD"):
        if not (OUT / "build-info.json").exists():
            pytest.fail(f"COURSE_SITE_NO_BUILD is set but {OUT} is not built: run `make book`", pytrace=False)
        return OUT
    once_per_run("site-built", request.config, lambda: _build() or True)   # a worker that finds a build under way waits
    return OUT


@pytest.fixture(scope="session")
def build_info(site_dir):
    return json.loads((site_dir / "build-info.json").read_text(encoding="utf8"))


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(directory):
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def serving(directory):
    """A session fixture's body: ``directory`` served over HTTP while the session lasts; yields its URL."""
    server, url = _serve(directory)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(site_dir):
    yield from serving(site_dir)


@pytest.fixture(scope="session")
def browser():
    executable = browser_executable("the browser tests of the site")
    from playwright.sync_api import sync_playwright
    clear_stale_event_loop()
    manager = sync_playwright().start()
    try:
        instance = manager.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
    except Exception as exc:
        manager.stop()
        unavailable(f"chromium at {executable} does not start ({exc}): browser tests skipped")
    yield instance
    try:
        instance.close()
    except Exception as exc:            # the session is over: nothing is left to check, and the driver stops below
        print(f"\nchromium did not close cleanly at the end of the session: {exc!r}")
    manager.stop()


@pytest.fixture(scope="session")
def axe_script():
    """axe-core's axe.min.js, fetched (pinned, checked) by the site builder's vendor step."""
    if build_site.vendor_needs_npm("test_packages"):
        need("npm", "the accessibility checks fetch axe-core with npm")
    try:
        folder = build_site.fetch_vendor(quiet=True, group="test_packages")
    except SystemExit as exc:
        unavailable(f"axe-core could not be fetched ({exc}): accessibility checks skipped")
    path = folder / "axe-core" / "axe.min.js"
    if not path.exists():
        pytest.fail(f"{path} missing after fetching axe-core", pytrace=False)
    return path


@pytest.fixture(scope="session")
def report(request):
    """Collects page weight and load time; prints a summary when the session ends."""
    rows = []
    yield rows
    if not rows:
        return
    rows.sort(key=lambda r: r["page"])
    (OUT.parent / "site-report.json").write_text(json.dumps(rows, indent=1), encoding="utf8")
    lines = build_site.report_lines(rows)
    (OUT.parent / "site-report.txt").write_text("\n".join(lines) + "\n", encoding="utf8")
    # Shown when the tests run in one process; under pytest-xdist the workers'
    # output is not, so tests/conftest.py prints the file at the end.
    capture = request.config.pluginmanager.getplugin("capturemanager")
    terminal = request.config.pluginmanager.getplugin("terminalreporter")
    if terminal is None or capture is None:
        return
    with capture.global_and_fixture_disabled():
        terminal.write_line("")
        for line in lines:
            terminal.write_line(line)


class PageLog:
    """Everything a page did while loading."""

    def __init__(self, context):
        self.requests, self.failed, self.console, self.errors, self.responses = [], [], [], [], []
        self.pending, self.ended = set(), set()           # requests in flight; URLs whose request ended
        context.on("request", self._request)
        context.on("requestfinished", self._finished)
        context.on("requestfailed", self._failed)
        context.on("response", self._response)

    def _request(self, request):
        self.requests.append(request.url)
        self.pending.add(request)

    def _finished(self, request):
        self.pending.discard(request)
        self.ended.add(request.url)

    def _failed(self, request):             # (a failure is _assert_clean's to report)
        self.pending.discard(request)
        self.ended.add(request.url)
        self.failed.append(f"{request.url} ({request.failure})")

    def _response(self, response):
        self.responses.append(response)
        if response.status >= 400:
            self.failed.append(f"{response.url} (HTTP {response.status})")

    def watch(self, page):
        page.on("console", lambda m: m.type == "error" and self.console.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def foreign(self):
        bad = []
        for url in self.requests:
            parts = urlparse(url)
            if parts.scheme in ("data", "blob", "about"):
                continue
            if parts.hostname not in LOCAL_HOSTS:
                bad.append(url)
        return bad

    def paths(self):
        """Site paths (``_static/x.css``) of every local request, in order, once each."""
        seen = []
        for url in self.requests:
            parts = urlparse(url)
            if parts.hostname in LOCAL_HOSTS:
                path = unquote(parts.path).lstrip("/")
                if path not in seen:
                    seen.append(path)
        return seen


# Whether the page is done with what it loads by itself: the load event has fired, its web fonts
# (MathJax's come after the load event) and images are loaded, and a task and a frame have passed
# since, for anything they start; its icons are the browser's to fetch, after the load event.
SETTLED = """async () => {
  await document.fonts.ready;
  await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve)));
  return [document.readyState === "complete" && document.fonts.status === "loaded"
          && Array.from(document.images).every(i => i.complete),
          Array.from(document.querySelectorAll("link[rel~='icon'][href]"), l => l.href)];
}"""


ICON_GRACE = 1.0    # s after the rest has settled: a browser that has not asked for the page's icon by then never will


def settle(page, log):
    """Wait until the page has fetched everything it fetches by itself (SETTLED) and no request of it is
    in flight: the exact condition that Playwright's "networkidle" guesses by 500 ms without a request."""
    from playwright.sync_api import Error as PlaywrightError
    deadline, quiet = time.monotonic() + NAV_TIMEOUT_MS * slowdown() / 1000, None
    while True:
        page.wait_for_load_state("load")
        try:
            loaded, icons = page.evaluate(SETTLED)    # its answer comes after the events of what began before
        except PlaywrightError as exc:                # the page went on to another (the landing page's redirect)
            if "context was destroyed" not in str(exc) and "navigat" not in str(exc):
                raise
            loaded, icons = False, []
        if loaded and not log.pending:
            if all(icon in log.ended for icon in icons):
                return
            # a browser that never asks for an icon (Chromium's headless shell) is not waited for past ICON_GRACE
            unasked = [icon for icon in icons if icon not in log.requests]
            if unasked and unasked == icons:
                quiet = quiet or time.monotonic()
                if time.monotonic() - quiet > ICON_GRACE:
                    return
        else:
            quiet = None
        if time.monotonic() > deadline:
            raise TimeoutError(f"{page.url} did not settle: loaded {loaded}, in flight "
                               f"{[r.url for r in log.pending]}, icons {icons}")
        page.wait_for_timeout(20)


def _open(browser, url, locale=None, **options):
    context = browser.new_context(locale=locale, **options) if locale else browser.new_context(**options)
    log = PageLog(context)
    page = context.new_page()
    page.set_default_timeout(NAV_TIMEOUT_MS * slowdown())
    log.watch(page)
    page.goto(url, wait_until="load")
    settle(page, log)
    return context, page, log


def _assert_clean(log, what):
    assert not log.failed, f"{what}: failed requests: {log.failed}"
    assert not log.foreign(), f"{what}: requests left localhost: {log.foreign()}"
    assert not log.errors, f"{what}: JavaScript errors: {log.errors}"
    assert not log.console, f"{what}: console errors: {log.console}"


@functools.lru_cache(maxsize=None)
def _sizes(site_dir, path):
    """(raw, gzip) bytes of one file of the site: what it weighs from a server that compresses (most hosts do)."""
    file = site_dir / path
    if file.is_dir():
        file = file / "index.html"
    if not file.is_file():
        return 0, 0
    data = file.read_bytes()
    return len(data), len(gzip.compress(data, 6))


# In dark mode only colours change: the rules that look at colours are enough there.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


# The code of a notebook cell, as the site shows it: one <div class="cell_input"> per code cell, whose
# Pygments markup gives every token its own <span class>.
CELL_INPUT = re.compile(r'<div class="cell_input docutils container">(.*?)</pre>', re.S)
MARKUP = re.compile(r'<(\w+)((?:\s+class="[^"]*")?)')


@functools.lru_cache(maxsize=None)
def _code_markup(site_dir: Path, lang: str, pagename: str) -> tuple[list[tuple[str, str]], ...]:
    """Each code cell of a built page as its sequence of (tag, class), the words taken out (read once per
    page: the English page serves as the reference of both others)."""
    source = (site_dir / lang / f"{pagename}.html").read_text(encoding="utf8")
    return tuple(MARKUP.findall(block) for block in CELL_INPUT.findall(source))


REFERENCE_LANG = "en"      # whose pages axe checks whole


def checked_in(site_dir: Path, lang: str, pagename: str) -> list[int]:
    """Indices of the page's code cells that the same page in REFERENCE_LANG shows with the same
    markup, element for element and class for class.

    Code cells are the same in every language (tests/test_language_parity.py; only comments are
    translated), every language loads the one shared stylesheet (test_page: no per-language copies of
    shared assets) and no rule of it gives code another look in another language
    (test_code_cells_look_the_same_in_every_language), so such a cell
    has the same colours, sizes and roles in every language: axe checks it on the reference page, and on
    the other two only the cells whose markup differs (a comment that wraps differently, say). These
    thousands of syntax-coloured spans are half of axe's time on the longest pages."""
    if lang == REFERENCE_LANG:
        return []
    ours, reference = _code_markup(site_dir, lang, pagename), _code_markup(site_dir, REFERENCE_LANG, pagename)
    if len(ours) != len(reference):
        return []
    return [i for i, (a, b) in enumerate(zip(ours, reference)) if a == b]


MARK_CHECKED = """indices => { const cells = document.querySelectorAll("div.cell_input");
  for (const i of indices) cells[i].dataset.axeCheckedIn = "reference"; return cells.length; }"""


def _axe(page, axe_script, rules=None, exclude=None):
    """Serious and critical axe-core violations on the page as it is now (all rules, or ``rules``), in the
    whole document or, given ``exclude`` (a CSS selector), in all of it but that part."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(axe_script))
    return page.evaluate("""async ([rules, exclude]) => {
        const options = {resultTypes: ["violations"]};
        if (rules) options.runOnly = {type: "rule", values: rules};
        const result = await axe.run(exclude ? {exclude: [[exclude]]} : document, options);
        return result.violations.filter(v => v.impact === "serious" || v.impact === "critical")
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 4).map(n => n.target.join(" "))}));
    }""", [rules, exclude])


NEXT_FRAME = "() => new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve)))"


def _go_dark(page):
    """The reader's system turns dark; the theme follows (no colour transitions half-way)."""
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
    page.emulate_media(color_scheme="dark")
    if page.evaluate("'theme' in document.documentElement.dataset"):      # the theme's pages; not the landing page
        page.wait_for_function("document.documentElement.dataset.theme === 'dark'")
    page.evaluate(NEXT_FRAME)                 # a frame drawn in the dark colours


def _header_fits(page, width):
    """Header controls that stick out of a ``width`` px window (none, if it fits)."""
    return page.evaluate("""width => Array.from(document.querySelectorAll(
            ".bd-header-article button, .bd-header-article a, .bd-header-article summary"))
        .filter(e => e.offsetParent !== null && !e.closest(".dropdown-menu, .course-lang-menu__items"))
        .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && (r.right > width + 0.5 || r.left < -0.5); })
        .map(e => (e.getAttribute("aria-label") || e.title || e.textContent).trim().slice(0, 40))""", width)


def _phone_overflow(page):
    page.set_viewport_size({"width": PHONE_WIDTH, "height": 800})
    # what course.js does 150 ms after a resize (marks what scrolls, with its hint), done now; then a frame
    page.evaluate(f"""() => {{ if (window.innerWidth !== {PHONE_WIDTH}) throw new Error("not resized: " + innerWidth);
                              if (window.courseMarkScrolling) courseMarkScrolling(); }}""")
    page.evaluate(NEXT_FRAME)
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate("""w => Array.from(document.querySelectorAll("article *, .bd-header-article *"))
        .filter(e => e.getBoundingClientRect().right > w + 0.5 && e.offsetParent !== null
                     && !e.closest("div.cell_output, div.output, .highlight, .pst-scrollable-table-container, mjx-container, .dropdown-menu"))
        .slice(0, 5).map(e => e.tagName + "." + String(e.className).slice(0, 40))""", PHONE_WIDTH)
    return width, wide


# Whatever is wider than a phone's column scrolls in its own box and says so (site/static/course.js),
# in the words the build hands the script.
SCROLL_HINT = build_site.SCRIPT_WORDS["scroll_hint"]
WIDE_THINGS = """hint => {
  if (window.courseMarkScrolling) courseMarkScrolling();
  const selector = ".bd-article .course-figure-box, .bd-article .pst-scrollable-table-container, "
                 + ".bd-article div.cell_output > div.output, .bd-article mjx-container[display='true']";
  const out = [];
  for (const box of document.querySelectorAll(selector)) {
    if (!box.getClientRects().length || box.scrollWidth <= box.clientWidth + 1) continue;
    const figure = box.closest("figure");
    const cue = (figure ? box.nextElementSibling : box.previousElementSibling);
    const said = !!cue && cue.matches(".course-scroll-hint") && cue.checkVisibility() && cue.textContent.includes(hint);
    if (!(said && box.classList.contains("course-more-right") && box.tabIndex >= 0))
      out.push(`${figure ? figure.id : (box.closest("section[id]") || {}).id}: ${box.className.split(" ")[0] || box.tagName}`
               + ` ${box.scrollWidth - box.clientWidth} px too wide, hint ${said}, fade ${box.classList.contains("course-more-right")},`
               + ` focusable ${box.tabIndex >= 0}`);
  }
  return out;
}"""


# A link whose words its own box cuts off (the theme's previous/next links hide what overflows them).
CLIPPED_LINKS = """() => Array.from(document.querySelectorAll(".prev-next-area a, .bd-sidebar-primary a, .bd-toc a"))
  .filter(a => a.getClientRects().length && a.scrollWidth > a.clientWidth + 1
               && getComputedStyle(a).overflowX !== "visible")
  .map(a => `${a.textContent.trim().replace(/\\s+/g, " ").slice(0, 50)}: ${a.scrollWidth - a.clientWidth} px cut`)"""


# Text outside code that still holds TeX delimiters (tools/static_math.py typesets all of them)
TEX_LEFT = r"""() => { const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT), out = [];
  for (let n; (n = walk.nextNode());) {
    if (n.parentElement.closest("pre, code, script, style, textarea, noscript")) continue;
    if (/\\[(\[]|\$\$/.test(n.textContent)) out.push(n.textContent.trim().slice(0, 60));
  }
  return out; }"""


# --------------------------------------------------------------------------- every page

@pytest.mark.parametrize("lang,html_lang,pagename", PAGES, ids=[f"{p[0]}/{p[2]}" for p in PAGES])
def test_page(browser, base_url, site_dir, build_info, report, axe_script, lang, html_lang, pagename):
    url = urljoin(base_url, f"{lang}/{pagename}.html")
    start = time.perf_counter()
    context, page, log = _open(browser, url, viewport=DESKTOP)
    try:
        source = (site_dir / lang / f"{pagename}.html").read_text(encoding="utf8")
        has_math = bool(re.search(r'class="[^"]*\bmath\b', _article(source)))
        has_widgets = "application/vnd.jupyter.widget-view+json" in source
        if has_math:
            page.wait_for_function("document.querySelectorAll('mjx-container').length > 0")
        settle(page, log)
        ready_ms = (time.perf_counter() - start) * 1000
        first_visit = log.paths()            # before the reader scrolls
        if has_widgets:                      # the widget runtime comes when a widget nears the window
            page.evaluate("""() => document.querySelector('script[type="application/vnd.jupyter.widget-view+json"]')
                                   .parentElement.scrollIntoView()""")
            page.wait_for_function("document.querySelectorAll('.jupyter-widgets').length > 0")
            settle(page, log)
            page.evaluate("window.scrollTo(0, 0)")
        load_ms = page.evaluate(
            "(() => { const n = performance.getEntriesByType('navigation')[0];"
            " return n ? n.loadEventEnd - n.startTime : 0; })()")

        _assert_clean(log, url)
        assert page.evaluate("document.documentElement.lang") == html_lang
        if pagename == next(s["root"] for s in build_info["languages"] if s["code"] == lang):
            _TOC_SEEN[lang] = page.eval_on_selector_all(TOC_LINKS, "els => els.map(e => e.href)")

        # Language switcher, both forms: the same page in each other language, and it exists.
        for where in ("nav.course-lang-switcher", ".course-lang-menu__items"):
            links = page.eval_on_selector_all(
                f"{where} a.course-lang",
                "els => els.map(e => [e.dataset.courseLang, e.href, e.dataset.courseFallback || ''])")
            assert sorted(code for code, _, _ in links) == sorted(set(LANGS) - {lang}), (where, links)
            for code, href, fallback in links:
                assert not fallback, f"{url}: no {code} counterpart of {pagename}"
                expected = urljoin(base_url, f"{code}/{pagename}.html")
                assert href == expected, (href, expected)
                assert (site_dir / code / f"{pagename}.html").exists(), f"{expected} missing"

        # What the page loads.
        paths = log.paths()
        mathjax = [p for p in paths if "/mathjax/" in p and p.endswith(".js")]
        assert bool(mathjax) == (has_math and has_widgets), f"{url}: MathJax's script loaded {bool(mathjax)}"
        assert (build_site.MATH_STYLESHEET in paths) == has_math, f"{url}: the formulas' stylesheet, math {has_math}"
        widget_runtime = [p for p in paths if "html-manager" in p or "requirejs" in p]
        assert bool(widget_runtime) == has_widgets, f"{url}: widget runtime {widget_runtime}, widgets {has_widgets}"
        if has_widgets:
            assert page.evaluate("document.querySelectorAll('.jupyter-widgets .widget-readout, .jupyter-widgets').length") > 0
        body = _article(source)
        for asset in course_site.PAGE_ASSETS:
            loaded = any(p.endswith(asset.file) for p in paths)
            assert loaded == (asset.marker in body), f"{url}: {asset.file} loaded {loaded}"
        assert not [p for p in paths if "fontawesome.js" in p or re.search(r"fontawesome/webfonts/fa-", p)], \
            f"{url}: the full icon script or font was loaded: the icon subset misses an icon"
        own = {f"{lang}/_static/{f}" for f in [r.split("/", 1)[1] for r in build_info["per_language_files"][lang]
                                                if r.startswith("_static/")]}
        stray = [p for p in paths if p.startswith(f"{lang}/_static/") and p not in own]
        assert not stray, f"{url}: per-language copies of shared assets: {stray}"
        if pagename != "search":
            assert not [p for p in paths if p.endswith("searchindex.js")], f"{url}: search index loaded"

        if has_math:
            assert page.evaluate("document.querySelectorAll('mjx-merror').length") == 0, "TeX error on page"
            left = page.evaluate(TEX_LEFT)
            assert not left, f"{url}: TeX left untypeset: {left}"
        broken = page.evaluate(
            "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
        assert not broken, f"{url}: images not loaded: {broken}"
        footer = page.inner_text(".course-footer")          # every page: the version, both licences
        assert course_site.FOOTER["version"][lang].format(version=package_version()) in footer, footer
        assert course_site.FOOTER["mit"][lang] in footer and "CC BY-SA 4.0" in footer, footer
        # the author alone, and the date as the language writes one (the theme's "By The course authors",
        # "Автор: Авторы курса", "作者： 课程作者", "дек. 07, 2026", "12 月 07 日." before)
        assert page.inner_text(".component-author").strip() == LANGUAGE_SPECS[lang]["author"]
        updated = page.inner_text(".last-updated").strip()
        assert re.fullmatch(LAST_UPDATED[lang], updated), f"{url}: {updated!r}"
        icons = page.evaluate("""() => Array.from(document.fonts).filter(f => /Font Awesome 6/.test(f.family)
                                  && f.status === 'loaded').map(f => f.unicodeRange)""")
        assert icons and all(r != "U+0-10FFFF" for r in icons), f"{url}: icon fonts loaded: {icons}"

        kind = pagename.split("/", 1)[0]
        if kind in build_site.KINDS:
            if kind in build_site.EXECUTED_KINDS:
                tracebacks = page.evaluate(
                    "document.querySelectorAll('.cell:not(.tag_raises-exception) .output.traceback').length")
                assert tracebacks == 0, f"{url}: error output in an executed notebook"
            download = page.eval_on_selector_all(
                "a.btn-download-source-button", "els => els.map(e => e.getAttribute('href'))")
            assert download and download[0].endswith(f"{pagename.split('/')[-1]}.ipynb"), download
            target = (site_dir / lang / pagename).parent / download[0]
            assert target.resolve().exists(), f"download link {download[0]} is broken"
            wheel = page.eval_on_selector_all("a.btn-download-wheel-button", "els => els.map(e => e.getAttribute('href'))")
            assert len(wheel) == 1 and ((site_dir / lang / pagename).parent / wheel[0]).resolve().is_file(), wheel
            assert build_info["repository_url"] == "", "the default build has no repository"
            launch = page.eval_on_selector_all(".dropdown-launch-buttons a, [class*='btn-source-']",
                                               "els => els.map(e => e.href)")
            assert launch == [], f"{url}: launch or source buttons without a repository: {launch}"
            column = page.evaluate("(() => { const a = document.querySelector('article.bd-article');"
                                   " const s = getComputedStyle(a); return a.clientWidth"
                                   " - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); })()")
            assert column >= DESKTOP_COLUMN, f"{url}: text column {column} px < {DESKTOP_COLUMN} px"

        # what the page's weight counts (test_page_weight) holds everything the browser fetched
        counted = build_site.first_visit(site_dir, f"{lang}/{pagename}.html")
        uncounted = [p for p in first_visit if p and p not in counted]
        assert not uncounted, f"{url}: fetched files build_site.first_visit does not count: {uncounted}"
        files = {p: list(_sizes(site_dir, p)) for p in first_visit if p != ""}
        gz = sum(v[1] for v in files.values())
        report.append({"page": f"{lang}/{pagename}", "bytes": sum(v[0] for v in files.values()), "gzip_bytes": gz,
                       "requests": len(log.requests), "load_ms": load_ms, "ready_ms": ready_ms, "files": files})
        assert gz <= build_site.HEAVIEST_LIMIT, (
            f"{url} weighs {gz / 1000:.0f} KB gzip on a first visit, more than "
            f"{build_site.HEAVIEST_LIMIT / 1000:.0f} KB: " + ", ".join(
                f"{p} {v[1] / 1000:.0f} KB" for p, v in sorted(files.items(), key=lambda kv: -kv[1][1])[:6]))

        # Accessibility, light then dark; code cells the reference language's page shows alike were checked there.
        same = checked_in(site_dir, lang, pagename)
        assert page.evaluate(MARK_CHECKED, same) == len(_code_markup(site_dir, lang, pagename)), \
            f"{url}: code cells in the DOM"
        skip = "div.cell_input[data-axe-checked-in]" if same else None
        violations = _axe(page, axe_script, exclude=skip)
        assert not violations, f"{url} (light): {json.dumps(violations, ensure_ascii=False, indent=1)}"
        _go_dark(page)
        violations = _axe(page, axe_script, COLOUR_RULES, exclude=skip)
        assert not violations, f"{url} (dark): {json.dumps(violations, ensure_ascii=False, indent=1)}"

        # A 360 px phone: nothing scrolls sideways, every header button is on screen.
        width, wide = _phone_overflow(page)
        assert width <= PHONE_WIDTH, f"{url}: {width} px wide at {PHONE_WIDTH} px; too wide: {wide}"
        assert not _header_fits(page, PHONE_WIDTH), f"{url}: header off screen: {_header_fits(page, PHONE_WIDTH)}"
        # a figure, table, output or formula wider than the column says that it scrolls
        uncued = page.evaluate(WIDE_THINGS, SCROLL_HINT[lang])
        assert not uncued, f"{url} at {PHONE_WIDTH} px, wider than the column without a cue: {uncued}"
        clipped = page.evaluate(CLIPPED_LINKS)
        assert not clipped, f"{url} at {PHONE_WIDTH} px, links whose words are cut: {clipped}"
        if kind in build_site.KINDS:
            column = page.evaluate("document.querySelector('article.bd-article').getBoundingClientRect().width")
            assert column >= PHONE_COLUMN, f"{url}: phone text column {column} px < {PHONE_COLUMN} px"
        _assert_clean(log, f"{url} after the checks")
    finally:
        context.close()


# What decides a code cell's accessibility: every element's colours, size, weight and role.
CODE_LOOK = """indices => { const cells = document.querySelectorAll("div.cell_input"), out = [];
  for (const i of indices) for (const e of [cells[i], ...cells[i].querySelectorAll("*")]) {
    const s = getComputedStyle(e);
    out.push([i, e.tagName, e.className, s.color, s.backgroundColor, s.fontSize, s.fontWeight, s.opacity,
              s.textShadow, s.display, s.visibility, e.getAttribute("role"), e.tabIndex]);
  }
  return out; }"""


@pytest.mark.parametrize("lang", [code for code in LANGS if code != REFERENCE_LANG])
def test_code_cells_look_the_same_in_every_language(browser, base_url, site_dir, lang):
    """What test_page leaves to the reference language's page holds: on the page with the most code
    (§7), each code cell whose markup is the reference page's has, element by element, the same
    colours, font size and weight, opacity, shadow, display and role there, in light and dark mode."""
    chapters = [p[2] for p in PAGES if p[0] == lang and p[2].startswith("chapters/")]
    pagename = max(chapters, key=lambda name: len(checked_in(site_dir, lang, name)))
    same = checked_in(site_dir, lang, pagename)
    assert len(same) >= 20, f"{lang}/{pagename}: only {len(same)} code cells as the reference page shows them"
    looks = {}
    for code in (REFERENCE_LANG, lang):
        context, page, log = _open(browser, urljoin(base_url, f"{code}/{pagename}.html"), viewport=DESKTOP)
        try:
            looks[code, "light"] = page.evaluate(CODE_LOOK, same)
            _go_dark(page)
            looks[code, "dark"] = page.evaluate(CODE_LOOK, same)
        finally:
            context.close()
    for scheme in ("light", "dark"):
        ours, reference = looks[lang, scheme], looks[REFERENCE_LANG, scheme]
        assert len(ours) == len(reference) > 1000, (scheme, len(ours), len(reference))
        differ = [(a, b) for a, b in zip(ours, reference) if a != b]
        assert not differ, f"{lang}/{pagename} ({scheme}), code that looks otherwise than in {REFERENCE_LANG}: {differ[:3]}"


def test_page_weight(site_dir):
    """A first visit (gzip, what build_site.first_visit counts: test_page checks in the browser that it
    holds everything fetched) weighs at most MEDIAN_GOAL on the median page, HEAVIEST_LIMIT on any."""
    weights = {}
    for lang, _, pagename in PAGES:
        page = f"{lang}/{pagename}.html"
        weights[page] = sum(_sizes(site_dir, f)[1] for f in build_site.first_visit(site_dir, page))
    import statistics
    median, heaviest = statistics.median(weights.values()), max(weights, key=weights.get)
    print(f"\nfirst visit, gzip: median {median / 1000:.0f} KB, heaviest {heaviest} {weights[heaviest] / 1000:.0f} KB "
          f"({len(weights)} pages)")
    assert median <= build_site.MEDIAN_GOAL, f"median first visit {median / 1000:.0f} KB gzip"
    assert weights[heaviest] <= build_site.HEAVIEST_LIMIT, f"{heaviest}: {weights[heaviest] / 1000:.0f} KB gzip"


@pytest.mark.parametrize("lang,html_lang,pagename", NOTEBOOK_PAGES, ids=[f"{p[0]}/{p[2]}" for p in NOTEBOOK_PAGES])
def test_figures_have_alt_text(site_dir, lang, html_lang, pagename):
    """Every figure says what it shows, in the page's language (not its file name)."""
    article = _article((site_dir / lang / f"{pagename}.html").read_text(encoding="utf8"))
    problems = []
    for img in re.findall(r"<img\b[^>]*>", article):
        alt = html_lib.unescape((re.search(r'\balt="([^"]*)"', img) or [None, ""])[1]).strip()
        src = (re.search(r'\bsrc="([^"]*)"', img) or [None, ""])[1]
        name = posixpath.basename(src)
        if not alt or name in alt or re.search(r"_images/|[0-9a-f]{16,}|\.(png|jpe?g|gif|svg)$", alt):
            problems.append(f"{name}: alt={alt!r}")
        elif len(alt) < 12 or not re.search(SCRIPT_OF[lang], alt) or _foreign_words(lang, alt):
            problems.append(f"{name}: alt={alt!r} does not describe the figure in {lang}")
    for svg in re.findall(r"<svg\b[^>]*>", article):
        if 'aria-hidden="true"' in svg:
            continue
        label = re.search(r'\baria-label="([^"]*)"', svg)
        if 'role="img"' not in svg or not label or not re.search(SCRIPT_OF[lang], label.group(1)):
            problems.append(f"inline svg without role=img and an aria-label in {lang}: {svg[:80]}")
    assert not problems, f"{lang}/{pagename}: " + "; ".join(problems)


LAUNCH_PHRASES = {
    "en": r"rocket|launch button|Binder button|button at the top",
    "zh": r"火箭|启动按钮|顶部的.{0,6}按钮",
    "ru": r"ракет|кнопк\w* запуска|кнопк\w* вверху",
}


@pytest.mark.parametrize("lang", LANGS)
def test_no_sentence_points_at_a_missing_launch_button(site_dir, build_info, lang):
    """With no repository set there is no launch button, so no page may tell the reader to click one."""
    assert build_info["repository_url"] == ""
    pages = [(f"{lang}/{p[2]}.html", (site_dir / lang / f"{p[2]}.html").read_text(encoding="utf8"))
             for p in PAGES if p[0] == lang]
    landing = (site_dir / "index.html").read_text(encoding="utf8")
    section = re.search(rf'<section class="intro" id="intro-{lang}".*?</section>', landing, re.S)
    assert section, f"the landing page has no {lang} section"
    texts = [(path, _prose(text)) for path, text in pages] + [("index.html", re.sub(r"<[^>]+>", " ", section.group(0)))]
    found = []
    for path, text in texts:
        for sentence in re.split(r"(?<=[.!?。！？])\s*", text):
            if re.search(LAUNCH_PHRASES[lang], sentence, re.I):
                found.append(f"{path}: {' '.join(sentence.split())[:160]}")
    assert not found, "sentences about a launch button the page does not have:\n" + "\n".join(found)


# --------------------------------------------------------------------------- search

def _search(page, term):
    """The pages of the site's search results for ``term``, best first (site/static/course-search.js)."""
    return [unit for unit, _ in _search_hits(page, term)]


def _search_hits(page, term):
    """(section, linked part) of each result, best first: a result is a numbered section (or a page's
    introduction) and links to the unnumbered subsection of it that answers best, if one does."""
    return [tuple(hit) for hit in page.evaluate(
        "term => (courseSearch(term).hits || []).map(h => [h.entry, h.sub || h.entry]"
        ".map(s => s.p + (s.a ? '#' + s.a : '')))", term)]


@pytest.fixture(scope="module")
def search_page(browser, base_url):
    """search_page(lang) -> (page, log): the language's search page, loaded once for the tests that query it
    (test_search_finds_every_page, test_search_ranks_the_lesson_first): a query is a call of courseSearch,
    which changes nothing on the page, and loading the page (with its index) is most of such a test's time.
    Its log holds everything the page did since it was opened (each test asserts it clean).  Module-scoped:
    its pages close when this file's tests end, before the worker runs notebooks (nbval's kernels leave the
    main thread's event loop in a state in which Playwright can no longer close a page at the session's end)."""
    opened = {}

    def get(lang):
        if lang not in opened:
            opened[lang] = _open(browser, urljoin(base_url, f"{lang}/search.html"))
        context, page, log = opened[lang]
        page.wait_for_function("typeof courseSearch === 'function'")
        return page, log
    yield get
    for context, _, _ in opened.values():
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_every_page(search_page, site_dir, lang):
    """A word of each page's headings, in the page's language, finds that page (the site's search engine)."""
    page, log = search_page(lang)
    misses = []
    for code, _, pagename in NOTEBOOK_PAGES:
        if code != lang:
            continue
        article = _article((site_dir / lang / f"{pagename}.html").read_text(encoding="utf8"))
        headings = [html_lib.unescape(re.sub(r"<[^>]+>", "", h)).replace("#", "")
                    for h in re.findall(r"<h[12][^>]*>(.*?)</h[12]>", article, re.S)]
        term = next(filter(None, (_search_term(lang, h) for h in headings)), None)
        if not term:
            misses.append(f"{pagename}: no searchable word in {headings!r}")
            continue
        found = [hit.split("#")[0] for hit in _search(page, term)]
        if pagename not in found:
            misses.append(f"{pagename}: {term!r} found {found[:5]}")
    assert not misses, f"search ({lang}): " + "; ".join(misses)
    _assert_clean(log, f"search page {lang}")


def _search_term(lang, title):
    """A word of the page title, as a reader of that language would type it."""
    if lang == "zh":
        import jieba
        words = [w for w in jieba.cut_for_search(title) if re.fullmatch(r"[\u4e00-\u9fff]{2,}", w)]
    elif lang == "ru":
        words = re.findall(r"[А-Яа-яЁё]{5,}", title)
    else:
        stop = {"into", "near", "such", "that", "their", "then", "there", "these", "they", "this",
                "will", "with"}                     # Sphinx's English stop words of 4+ letters
        words = [w for w in re.findall(r"[A-Za-z]{4,}", title) if w.lower() not in stop]
    words = sorted(words, key=len, reverse=True)
    return words[0] if words else None


# Queries a learner would type, and the section that must come first: the one
# that teaches it (a heading that names it wins over a page that mentions it).
SEARCH_TABLE = {
    "en": [
        ("allowed set", "chapters/01_allowed_set"), ("bottom-right alignment", "chapters/05_cache#part-1"),
        ("left padding", "chapters/01_allowed_set#part-3"), ("padded queries", "chapters/01_allowed_set#sec-1-8"),
        ("split heads", "chapters/02_heads#sec-2-2"), ("W_O", "chapters/02_heads#sec-2-4"),
        ("number of heads", "chapters/02_heads#sec-2-6"), ("scatter-add", "chapters/03_positions#sec-3-2"),
        ("RoPE", "chapters/03_positions#sec-3-5"), ("negative control", "chapters/04_causality#sec-4-4"),
        ("dropout", "chapters/04_causality#sec-4-8"), ("reset", "chapters/05_cache#sec-5-3"),
        ("plain Python", "chapters/06_evidence#sec-6-2"), ("masks", None),
    ],
    "zh": [
        ("因果掩码", "chapters/01_allowed_set"), ("许可集合", "chapters/01_allowed_set"),
        ("右下对齐", "chapters/05_cache#part-1"), ("左填充", "chapters/01_allowed_set#part-3"),
        ("合并头", "chapters/02_heads#sec-2-4"), ("头数", "chapters/02_heads#sec-2-6"),
        ("散射累加", "chapters/03_positions#sec-3-2"), ("RoPE", "chapters/03_positions#sec-3-5"),
        ("阴性对照", "chapters/04_causality#sec-4-4"), ("dropout", "chapters/04_causality#sec-4-8"),
        ("归零", "chapters/05_cache#sec-5-3"), ("纯 Python", "chapters/06_evidence#sec-6-2"), ("掩", None),
    ],
    "ru": [
        ("множество разрешённых позиций", "chapters/01_allowed_set"),
        ("правому нижнему углу", "chapters/05_cache#part-1"),
        ("дополнение слева", "chapters/01_allowed_set#part-3"), ("склейка голов", "chapters/02_heads"),
        ("число голов", "chapters/02_heads#sec-2-6"), ("накопление по индексам", "chapters/03_positions#sec-3-2"),
        ("RoPE", "chapters/03_positions#sec-3-5"), ("отрицательный контроль", "chapters/04_causality#sec-4-4"),
        ("dropout", "chapters/04_causality#sec-4-8"), ("сброс", "chapters/05_cache#sec-5-3"),
        ("чистом Python", "chapters/06_evidence#sec-6-2"), ("маской", None),
    ],
}


@pytest.mark.parametrize("lang", LANGS)
def test_search_ranks_the_lesson_first(search_page, base_url, lang):
    """Each query of SEARCH_TABLE puts its section first (None: it finds something at all);
    the results page shows snippets that start at the match, with the match marked."""
    table = SEARCH_TABLE[lang]
    assert len([q for q, want in table if want]) >= 10
    page, log = search_page(lang)
    wrong = []
    for query, want in table:
        found = _search_hits(page, query)
        if not found or (want and found[0][0].split("#")[0] != want.split("#")[0]) or (
                want and "#" in want and want not in found[0]):
            wrong.append(f"{query!r}: first {found[:3]}, expected {want}")
    assert not wrong, f"search ({lang}): " + "; ".join(wrong)
    query = table[0][0]
    page.goto(urljoin(base_url, f"{lang}/search.html?q={quote(query)}"), wait_until="load")
    page.wait_for_selector("#search-results ul.search li")
    # most snippets mark the match (a section found by its heading alone may not show
    # the word in its text), and each starts at (a few words before) its first match
    snippets = page.eval_on_selector_all(
        "#search-results ul.search li p.context",
        "ps => ps.map(p => [p.textContent, p.querySelector('mark') ?"
        " p.textContent.indexOf(p.querySelector('mark').textContent) : -1])")
    marked = [at for _, at in snippets if at >= 0]
    assert snippets and len(marked) >= 0.6 * len(snippets), snippets[:5]
    assert all(at <= 60 for at in marked), [s for s in snippets if s[1] > 60][:3]
    assert page.input_value("form.bd-search input[name='q'] >> nth=-1") == query
    _assert_clean(log, f"search {query!r}")


def test_search_icon_leaves_the_query_readable(browser, base_url):
    """The magnifier sits before the search field, not over the query's first letter."""
    context, page, log = _open(browser, urljoin(base_url, "en/search.html?q=mask"))
    try:
        icon = page.locator(".bd-search-container form.bd-search i.fa-magnifying-glass").bounding_box()
        field = page.locator(".bd-search-container form.bd-search input").bounding_box()
        assert icon["x"] + icon["width"] <= field["x"] + 1, (icon, field)
    finally:
        context.close()


# --------------------------------------------------------------------------- landing page

@pytest.mark.parametrize("locale,expected", [("zh-CN", "zh"), ("ru-RU", "ru"), ("en-US", "en"), ("de-DE", "en")])
def test_landing_page_follows_browser_language(browser, base_url, locale, expected):
    context, page, log = _open(browser, base_url, locale=locale)
    try:
        page.wait_for_url(re.compile(rf"/{expected}/.+\.html$"))
        settle(page, log)
        assert page.evaluate("document.documentElement.lang").split("-")[0] == expected
        # The redirect cancels what the landing page itself had started to fetch
        # (its favicon, say): a request aborted by leaving the page is no failure.
        log.failed = [f for f in log.failed if not ("ERR_ABORTED" in f and f"/{expected}/" not in f)]
        _assert_clean(log, f"landing page ({locale})")
    finally:
        context.close()


def test_landing_page_is_a_front_door(browser, base_url, site_dir, build_info, axe_script):
    """?stay shows the page: an h1, and per language a section in that language with
    the course, where to start, the exercises and how to run the notebooks."""
    context, page, log = _open(browser, urljoin(base_url, "index.html?stay"), viewport=DESKTOP)
    try:
        assert page.evaluate("document.querySelectorAll('h1').length") == 1
        links = page.eval_on_selector_all("a[data-course-lang]", "els => els.map(e => [e.dataset.courseLang, e.href])")
        assert sorted(code for code, _ in links) == LANGS
        for code, href in links:
            assert (site_dir / unquote(urlparse(href).path).lstrip("/")).exists(), href
        for spec in build_info["languages"]:
            code = spec["code"]
            section = page.locator(f"section#intro-{code}")
            assert section.get_attribute("lang") == spec["html_lang"]
            text = section.inner_text()
            assert len(re.findall(SCRIPT_OF[code], text)) > 100, f"{code} section is not written in {code}"
            hrefs = section.locator("a").evaluate_all("els => els.map(e => e.getAttribute('href'))")
            assert f"{code}/{spec['root']}.html" in hrefs, f"{code}: no link to where to start"
            first_exercise = next((p for p in spec["pages"] if p.startswith("exercises/")), None)
            if first_exercise:
                assert f"{code}/{first_exercise}.html" in hrefs, f"{code}: no link to the exercises"
            assert "pip install -r requirements.txt" in text and f"chapters/{code}/" in text
            assert "mybinder" not in " ".join(hrefs), "a Binder link without a repository"
        assert not _axe(page, axe_script)
        _go_dark(page)
        assert not _axe(page, axe_script, COLOUR_RULES)
        width, _ = _phone_overflow(page)
        assert width <= PHONE_WIDTH
        _assert_clean(log, "landing page")
    finally:
        context.close()


# --------------------------------------------------------------------------- language switch

def _section_ids(source):
    return re.findall(r'<section\b[^>]*\bid="((?:sec|part)-[^"]+)"', _article(source))


@pytest.mark.parametrize("pagename", sorted({p[2] for p in NOTEBOOK_PAGES}))
def test_section_anchors_are_the_same_in_every_language(site_dir, pagename):
    """#sec-2-3 names the same section in every language, so the switcher can keep it."""
    ids = {lang: _section_ids((site_dir / lang / f"{pagename}.html").read_text(encoding="utf8"))
           for lang in LANGS if (site_dir / lang / f"{pagename}.html").exists()}
    assert all(ids.values()), ids
    first = next(iter(ids.values()))
    for lang, seen in ids.items():
        assert seen == first, f"{pagename}: {lang} has sections {seen}, expected {first}"


def test_an_exercise_page_and_its_solutions_name_the_same_sections(site_dir):
    """Both pages of an exercise set start with the sections it practises, the same list: the solutions page
    once listed every section its explanations cite (§2, §2.1, §2.2, §2.4, §2.5, §2.6 against §2, §2.5, §2.6)."""
    def practised(path):
        found = re.search(r'<p class="course-nav">(.*?)</p>', path.read_text(encoding="utf8"), re.S)
        assert found, f"{path}: no list of the sections practised"
        return re.findall(r'class="[^"]*course-sec-ref[^"]*"[^>]*>(§[\d.]+)<', found.group(1))
    checked = 0
    for lang in LANGS:
        for exercises in sorted((site_dir / lang / "exercises").glob("ex*.html")):
            solutions = site_dir / lang / "solutions" / exercises.name
            lists = practised(exercises), practised(solutions)
            assert lists[0] and lists[0] == lists[1], f"{lang}/{exercises.stem}: {lists[0]} and {lists[1]}"
            checked += 1
    assert checked >= 7 * len(LANGS), checked


def test_switcher_keeps_the_section(browser, base_url, site_dir):
    page_name = next(p[2] for p in NOTEBOOK_PAGES if len(_section_ids(
        (site_dir / p[0] / f"{p[2]}.html").read_text(encoding="utf8"))) >= 4)
    ids = _section_ids((site_dir / "en" / f"{page_name}.html").read_text(encoding="utf8"))
    here = re.escape(page_name)
    context, page, log = _open(browser, urljoin(base_url, f"en/{page_name}.html#{ids[2]}"), viewport=DESKTOP)
    try:
        # The section in the URL.
        page.click("nav.course-lang-switcher a[data-course-lang=ru]")
        page.wait_for_url(re.compile(rf"/ru/{here}\.html#{ids[2]}$"))
        assert page.evaluate("id => !!document.getElementById(id)", ids[2])
        # An id inside a section (here: its heading's old text id) stands for that section.
        inner = page.evaluate("id => { const s = document.getElementById(id).querySelector(':scope > span[id]');"
                              " return s ? s.id : ''; }", ids[1])
        if inner:
            page.goto(urljoin(base_url, f"ru/{page_name}.html#{inner}"), wait_until="load")
            settle(page, log)
            page.click("nav.course-lang-switcher a[data-course-lang=zh]")
            page.wait_for_url(re.compile(rf"/zh/{here}\.html#{ids[1]}$"))
        # The phone menu does the same.
        page.set_viewport_size({"width": PHONE_WIDTH, "height": 800})
        page.goto(urljoin(base_url, f"zh/{page_name}.html#{ids[3]}"), wait_until="load")
        settle(page, log)
        page.click("details.course-lang-menu > summary")
        page.click(".course-lang-menu__items a[data-course-lang=en]")
        page.wait_for_url(re.compile(rf"/en/{here}\.html#{ids[3]}$"))
        _assert_clean(log, "language switch")
    finally:
        context.close()


@pytest.mark.parametrize("pagename", ["chapters/00_start", "chapters/03_positions"])
def test_switching_language_reloads_only_the_page(browser, base_url, site_dir, build_info, pagename):
    """Shared assets have one URL for every language, so the browser's cache serves them."""
    if not all((site_dir / lang / f"{pagename}.html").exists() for lang in LANGS):
        pytest.fail(f"{pagename} is missing in some language", pytrace=False)
    context, page, log = _open(browser, urljoin(base_url, f"{LANGS[0]}/{pagename}.html"), viewport=DESKTOP)

    def settled():
        # MathJax fetches its fonts after typesetting, the browser its icon later still (settle waits for both).
        page.wait_for_function("!document.querySelector('.math') || document.querySelector('mjx-container')")
        settle(page, log)

    try:
        settled()
        # What matters is the URL: the same URL is the same entry in the browser's cache
        # (this test server sends no cache headers, so it does not show the cache at work).
        seen = set(log.paths())
        for lang in LANGS[1:]:
            before = len(log.requests)
            page.click(f"nav.course-lang-switcher a[data-course-lang={lang}]")
            page.wait_for_url(re.compile(rf"/{lang}/{re.escape(pagename)}\.html"))
            settled()
            new = [p for p in dict.fromkeys(unquote(urlparse(u).path).lstrip("/") for u in log.requests[before:])
                   if p not in seen]
            own = {f"{lang}/{f}" for f in build_info["per_language_files"][lang]}
            unexpected = [p for p in new if p != f"{lang}/{pagename}.html" and p not in own]
            assert not unexpected, f"switching to {lang} loaded shared files again: {unexpected}"
            seen.update(new)
        _assert_clean(log, "language switch")
    finally:
        context.close()


# --------------------------------------------------------------------------- table of contents

TOC_LINKS = "nav.bd-docs-nav a"
_TOC_SEEN = {}      # lang -> the links of its first page's table of contents, as test_page found them in the browser


@pytest.mark.parametrize("lang", LANGS)
def test_table_of_contents_lists_every_page(browser, base_url, site_dir, build_info, lang):
    """The first page's table of contents links every page of its language: read by test_page when it had
    that page open in this worker (the page loaded once for both), else from the page opened here."""
    spec = next(s for s in build_info["languages"] if s["code"] == lang)
    hrefs = _TOC_SEEN.get(lang)
    if hrefs is None:
        context, page, log = _open(browser, urljoin(base_url, f"{lang}/{spec['root']}.html"))
        try:
            hrefs = page.eval_on_selector_all(TOC_LINKS, "els => els.map(e => e.href)")
        finally:
            context.close()
    paths = {unquote(urlparse(h).path) for h in hrefs}
    for doc in spec["pages"]:
        assert f"/{lang}/{doc}.html" in paths, f"{doc} missing from the {lang} table of contents"
    for kind in build_site.KINDS:
        assert any(d.startswith(kind + "/") for d in spec["pages"]) == any(
            (ROOT / kind / lang).glob("*.ipynb")), kind
