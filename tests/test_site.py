"""The course website in a real browser (headless Chromium driven by Playwright).

Every page of every language is opened over HTTP from 127.0.0.1 and checked:
it loads with no console error and no failed request, no request leaves
localhost, <html lang> is right, the language switcher leads to the same page
in the other languages (which exists), math is typeset by the site's own
MathJax, every image has loaded, widgets render, notebook pages offer the
.ipynb download, and searching a word of the page's title (in the page's
language) finds the page. The landing page sends a visitor to the language of
the browser.

The site is built by the session fixture (`python tools/build_site.py`,
incremental: a few seconds when `make book` already ran; about a minute from
scratch). Set COURSE_SITE_NO_BUILD=1 to test an existing _build/site as is.

Needs Debian's chromium (`apt-get install chromium`, used as
/usr/bin/chromium or $CHROMIUM) and the Python package playwright. Without
them the tests skip, except when CI=true, where they fail.

At the end the session prints the page weight (HTML plus everything it loads
on a first visit) and load times, and writes them to _build/site-report.json.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote, unquote, urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import build_site  # noqa: E402

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
OUT = build_site.OUT
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run", "--disable-quic", "--disable-sync",
                  "--disable-dev-shm-usage"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}
NAV_TIMEOUT_MS = 30_000


def _unavailable(message):
    if IN_CI:
        pytest.fail(f"{message} (mandatory when CI=true)", pytrace=False)
    pytest.skip(message)


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


# --------------------------------------------------------------------------- fixtures

@pytest.fixture(scope="session")
def site_dir():
    """The built site; (re)built here incrementally unless COURSE_SITE_NO_BUILD=1."""
    if os.environ.get("COURSE_SITE_NO_BUILD"):
        if not (OUT / "build-info.json").exists():
            pytest.fail(f"COURSE_SITE_NO_BUILD is set but {OUT} is not built: run `make book`", pytrace=False)
        return OUT
    # build_site.py takes a lock, so concurrent builds (pytest-xdist workers) queue up.
    proc = subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py")], cwd=ROOT,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        pytest.fail(f"site build failed:\n{proc.stdout[-8000:]}\n{proc.stderr[-4000:]}", pytrace=False)
    return OUT


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def base_url(site_dir):
    handler = functools.partial(_QuietHandler, directory=str(site_dir))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the Python package playwright is not installed: browser tests of the site skipped")
    executable = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        _unavailable("no chromium browser (apt-get install chromium): browser tests of the site skipped")
    manager = sync_playwright().start()
    try:
        instance = manager.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
    except Exception as exc:
        manager.stop()
        _unavailable(f"chromium at {executable} does not start ({exc}): browser tests skipped")
    yield instance
    instance.close()
    manager.stop()


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
    # output is not, so `python tools/build_site.py --report` prints the file.
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
        self.requests, self.failed, self.console, self.errors, self.sizes = [], [], [], [], {}
        context.on("request", lambda r: self.requests.append(r.url))
        context.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        context.on("response", self._response)

    def _response(self, response):
        if response.status >= 400:
            self.failed.append(f"{response.url} (HTTP {response.status})")
        length = response.headers.get("content-length")
        self.sizes[response.url] = int(length) if length and length.isdigit() else 0

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


def _open(browser, url, locale=None):
    context = browser.new_context(locale=locale) if locale else browser.new_context()
    log = PageLog(context)
    page = context.new_page()
    page.set_default_timeout(NAV_TIMEOUT_MS)
    log.watch(page)
    page.goto(url, wait_until="networkidle")
    return context, page, log


def _assert_clean(log, what):
    assert not log.failed, f"{what}: failed requests: {log.failed}"
    assert not log.foreign(), f"{what}: requests left localhost: {log.foreign()}"
    assert not log.errors, f"{what}: JavaScript errors: {log.errors}"
    assert not log.console, f"{what}: console errors: {log.console}"


@functools.lru_cache(maxsize=None)
def _gzip_size(site_dir, url):
    """What the response would weigh from a server that compresses (most hosts do)."""
    import gzip
    path = site_dir / unquote(urlparse(url).path).lstrip("/")
    if path.is_dir():
        path = path / "index.html"
    return len(gzip.compress(path.read_bytes(), 6)) if path.is_file() else 0


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


# --------------------------------------------------------------------------- tests

@pytest.mark.parametrize("lang,html_lang,pagename", PAGES, ids=[f"{p[0]}/{p[2]}" for p in PAGES])
def test_page(browser, base_url, site_dir, report, lang, html_lang, pagename):
    url = urljoin(base_url, f"{lang}/{pagename}.html")
    start = time.perf_counter()
    context, page, log = _open(browser, url)
    try:
        source = (site_dir / lang / f"{pagename}.html").read_text(encoding="utf8")
        has_math = bool(re.search(r'class="[^"]*\bmath\b', source))
        has_widgets = "application/vnd.jupyter.widget-view+json" in source
        if has_math:
            page.wait_for_function("document.querySelectorAll('mjx-container').length > 0")
        if has_widgets:
            page.wait_for_function("document.querySelectorAll('.jupyter-widgets').length > 0")
        page.wait_for_load_state("networkidle")
        ready_ms = (time.perf_counter() - start) * 1000
        load_ms = page.evaluate(
            "(() => { const n = performance.getEntriesByType('navigation')[0];"
            " return n ? n.loadEventEnd - n.startTime : 0; })()")

        _assert_clean(log, url)
        assert page.evaluate("document.documentElement.lang") == html_lang

        # Language switcher: the same page in each other language, and it exists.
        links = page.eval_on_selector_all(
            ".course-lang-switcher a.course-lang",
            "els => els.map(e => [e.dataset.courseLang, e.href, e.dataset.courseFallback || ''])")
        assert sorted(code for code, _, _ in links) == sorted(set(LANGS) - {lang}), links
        for code, href, fallback in links:
            assert not fallback, f"{url}: no {code} counterpart of {pagename}"
            expected = urljoin(base_url, f"{code}/{pagename}.html")
            assert href == expected, (href, expected)
            assert (site_dir / code / f"{pagename}.html").exists(), f"{expected} missing"

        if has_math:
            assert page.evaluate("document.querySelectorAll('mjx-container').length") > 0
            assert page.evaluate("document.querySelectorAll('mjx-merror').length") == 0, "TeX error on page"
        broken = page.evaluate(
            "Array.from(document.images).filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src)")
        assert not broken, f"{url}: images not loaded: {broken}"
        if has_widgets:
            assert page.evaluate("document.querySelectorAll('.jupyter-widgets').length") > 0

        kind = pagename.split("/", 1)[0]
        if kind in build_site.KINDS:
            # A committed error output may only show where the cell says it raises.
            if kind in build_site.EXECUTED_KINDS:
                tracebacks = page.evaluate(
                    "document.querySelectorAll('.cell:not(.tag_raises-exception) .output.traceback').length")
                assert tracebacks == 0, f"{url}: error output in an executed notebook"
            download = page.eval_on_selector_all(
                "a.btn-download-source-button", "els => els.map(e => e.getAttribute('href'))")
            assert download and download[0].endswith(f"{pagename.split('/')[-1]}.ipynb"), download
            target = (site_dir / lang / pagename).parent / download[0]
            assert target.resolve().exists(), f"download link {download[0]} is broken"
            repo_url = ((build_site.load_yaml(ROOT / "_config.yml").get("repository") or {}).get("url") or "").strip()
            launch = page.eval_on_selector_all(".dropdown-launch-buttons a", "els => els.map(e => e.href)")
            if repo_url:
                assert any("/v2/" in h and quote(f"{kind}/{lang}/", safe="/") in h for h in launch), launch
            else:
                assert launch == []

        report.append({"page": f"{lang}/{pagename}", "bytes": sum(log.sizes.values()),
                       "gzip_bytes": sum(_gzip_size(site_dir, u) for u in log.sizes),
                       "requests": len(log.requests), "load_ms": load_ms, "ready_ms": ready_ms})

        # Search: a word of this page's title, in this page's language, finds it.
        # Every page loads Sphinx's search engine and index for the theme's search
        # dialog; run the query there, as the search page would
        # (test_search_finds_course_term goes through the search page itself).
        if kind in build_site.KINDS:
            headings = page.eval_on_selector_all("article h1, article h2", "els => els.map(e => e.innerText)")
            term = next(filter(None, (_search_term(lang, h.replace("#", "")) for h in headings)), None)
            assert term, f"no searchable word in the headings {headings!r}"
            page.wait_for_function("typeof Search !== 'undefined' && Search.hasIndex()")
            found = page.evaluate(
                "term => Search._performSearch(...Search._parseQuery(term)).map(r => r[0])", term)
            assert pagename in found, f"search for {term!r} ({lang}) did not find {pagename}: {found}"
            _assert_clean(log, f"search {term!r}")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_search_finds_course_term(browser, base_url, lang):
    """The glossary word for 'causal' finds the causality chapter in each language."""
    term = {"zh": "因果", "en": "causal", "ru": "причинная"}.get(lang)
    if term is None:
        pytest.skip(f"no search term for {lang}")
    context, page, log = _open(browser, urljoin(base_url, f"{lang}/search.html?q={quote(term)}"))
    try:
        page.wait_for_function(
            "typeof Search !== 'undefined' && Search.title"
            " && Search.title.innerText === Documentation.gettext('Search Results')")
        found = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(e => e.href)")
        assert found, f"search for {term!r} found nothing"
        if (ROOT / "chapters" / lang / "04_causality.ipynb").exists():
            assert any("chapters/04_causality.html" in h for h in found), found
        _assert_clean(log, f"search {term!r}")
    finally:
        context.close()


@pytest.mark.parametrize("locale,expected", [("zh-CN", "zh"), ("ru-RU", "ru"), ("en-US", "en"), ("de-DE", "en")])
def test_landing_page_follows_browser_language(browser, base_url, locale, expected):
    context, page, log = _open(browser, base_url, locale=locale)
    try:
        page.wait_for_url(re.compile(rf"/{expected}/.+\.html$"))
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang").split("-")[0] == expected
        # The redirect cancels what the landing page itself had started to fetch
        # (its favicon, say): a request aborted by leaving the page is no failure.
        log.failed = [f for f in log.failed if not ("ERR_ABORTED" in f and f"/{expected}/" not in f)]
        _assert_clean(log, f"landing page ({locale})")
    finally:
        context.close()


def test_landing_page_links_every_language(browser, base_url, site_dir):
    context, page, log = _open(browser, urljoin(base_url, "index.html?stay"))
    try:
        links = page.eval_on_selector_all("a[data-course-lang]", "els => els.map(e => [e.dataset.courseLang, e.href])")
        assert sorted(code for code, _ in links) == LANGS
        for code, href in links:
            assert (site_dir / unquote(urlparse(href).path).lstrip("/")).exists(), href
        _assert_clean(log, "landing page")
    finally:
        context.close()


@pytest.mark.parametrize("lang", LANGS)
def test_table_of_contents_lists_every_page(browser, base_url, site_dir, lang):
    info = json.loads((site_dir / "build-info.json").read_text(encoding="utf8"))
    spec = next(s for s in info["languages"] if s["code"] == lang)
    context, page, log = _open(browser, urljoin(base_url, f"{lang}/{spec['root']}.html"))
    try:
        hrefs = page.eval_on_selector_all("nav.bd-docs-nav a", "els => els.map(e => e.href)")
        paths = {unquote(urlparse(h).path) for h in hrefs}
        for doc in spec["pages"]:
            assert f"/{lang}/{doc}.html" in paths, f"{doc} missing from the {lang} table of contents"
        for kind in build_site.KINDS:
            assert any(d.startswith(kind + "/") for d in spec["pages"]) == any(
                (ROOT / kind / lang).glob("*.ipynb")), kind
    finally:
        context.close()
