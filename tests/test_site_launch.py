"""The site built as if the course had a repository, and every menu of a notebook page, in Chromium.

* A second build with a placeholder repository URL (``_build/launch-check``,
  ``tools/build_site.py --repository-url``) has Binder and download buttons on every
  notebook page, and its fuller header still fits a phone (touch screens too).
* On a chapter, an exercise and a solution page of each language, built without and with
  the repository, every entry of the download, launch and source menus and every link of
  the footer is clicked (tests/test_site.py checks every page of the default build).
* §0.5 says how to run a notebook with what the pages offer.

Split from tests/test_site.py, whose fixtures it uses (the default build, the browser, axe),
so that the two pytest-xdist workers can share the browser tests (each takes whole files).
"""

from __future__ import annotations

import html as html_lib
import io
import json
import os
import re
import zipfile
from pathlib import Path
from urllib.parse import parse_qs, urljoin, urlparse

import pytest

from test_site import (DESKTOP, LANGS, LAUNCH_PHRASES, NAV_TIMEOUT_MS, NOTEBOOK_PAGES, PHONE_WIDTH, ROOT, PageLog,
                       _assert_clean, _axe, _build, _header_fits, _open, _phone_overflow, serving, settle)
from test_site import axe_script, base_url, browser, site_dir  # noqa: F401 (fixtures)

import course_site  # noqa: E402 (site/, on the path test_site sets)
from conftest import slowdown  # noqa: E402
from grading.version import package_version  # noqa: E402
from tools import build_pdf, build_site  # noqa: E402
from tools.build_notebooks import course_wheel as course_site_wheel  # noqa: E402

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

LAUNCH_BUILD = ROOT / "_build" / "launch-check"
PLACEHOLDER_REPO = "https://github.com/example/course"


@pytest.fixture(scope="session")
def launch_site(site_dir):
    """A second site, built as if repository.url were set (its own build folder), after the default one:
    it takes that build's wheel and formulas (build_site.py --reuse-from) instead of making them again,
    unless the default build was not made in this run (COURSE_SITE_NO_BUILD)."""
    reuse = [] if os.environ.get("COURSE_SITE_NO_BUILD") else ["--reuse-from", str(build_site.BUILD)]
    _build("--build-dir", str(LAUNCH_BUILD), "--repository-url", PLACEHOLDER_REPO, *reuse)
    return LAUNCH_BUILD / "site"


@pytest.fixture(scope="session")
def launch_url(launch_site):
    yield from serving(launch_site)


# --------------------------------------------------------------------------- launch buttons

def test_launch_build_has_binder_and_download_on_every_notebook_page(launch_site):
    info = json.loads((launch_site / "build-info.json").read_text(encoding="utf8"))
    assert info["repository_url"] == PLACEHOLDER_REPO
    problems = []
    for lang, _, pagename in NOTEBOOK_PAGES:
        source = (launch_site / lang / f"{pagename}.html").read_text(encoding="utf8")
        menu = re.search(r'<div class="dropdown dropdown-launch-buttons">.*?</ul>', source, re.S)
        kind, _, name = pagename.partition("/")
        binder = ("https://mybinder.org/v2/gh/example/course/main?urlpath=lab/tree/"
                  f"{kind}/{lang}/{name}.ipynb")
        if not menu or html_lib.escape(binder) not in menu.group(0) and binder not in menu.group(0):
            problems.append(f"{lang}/{pagename}: no Binder link {binder}")
        for link in course_site.source_links({"repo_url": PLACEHOLDER_REPO}, pagename, lang):
            if f'href="{link["url"]}"' not in source:
                problems.append(f"{lang}/{pagename}: no source link {link['url']}")
        if 'class="btn btn-sm btn-download-wheel-button' not in source:
            problems.append(f"{lang}/{pagename}: no wheel in the download menu")
        download = re.search(r'class="btn btn-sm btn-download-source-button[^"]*"', source)
        href = re.search(r'<a href="([^"]+\.ipynb)"[^>]*\n?\s*class="btn btn-sm btn-download-source-button', source)
        if not download or not href or not ((launch_site / lang / pagename).parent / href.group(1)).resolve().exists():
            problems.append(f"{lang}/{pagename}: no working .ipynb download")
        if PLACEHOLDER_REPO not in source:
            problems.append(f"{lang}/{pagename}: no repository link")
    assert not problems, "\n".join(problems)
    landing = (launch_site / "index.html").read_text(encoding="utf8")
    assert "https://mybinder.org/v2/gh/example/course/main" in landing


def _raw_article(source: str) -> str:
    return re.search(r"<article\b.*?</article>", source, re.S).group(0)


def test_launch_build_fits_a_phone(browser, launch_url, launch_site, site_dir, axe_script):
    """With the launch and repository buttons the header is fuller; it must still fit 360 px.

    The article of each page is the default build's byte for byte (asserted), which test_page checks
    whole with axe in light and dark mode; axe checks here the rest of the page, where the builds differ
    (the header with its launch and source buttons, the launch menu open), not that article a second time."""
    pages = []
    for lang in LANGS:
        for kind in build_site.KINDS:
            # the page of each kind whose source menu names the longest paths
            longest = max((p[2] for p in NOTEBOOK_PAGES if p[0] == lang and p[2].startswith(kind + "/")),
                          key=lambda name: len(course_site.repo_path(name, lang) + course_site.source_path(name)),
                          default=None)
            if longest:
                pages.append(f"{lang}/{longest}.html")
    assert pages
    for path in pages:
        assert _raw_article((launch_site / path).read_text(encoding="utf8")) == \
            _raw_article((site_dir / path).read_text(encoding="utf8")), f"{path}: the article differs between the builds"
        context, page, log = _open(browser, urljoin(launch_url, path), viewport=DESKTOP)
        try:
            page.click(".dropdown-launch-buttons button")
            binder = page.locator(".dropdown-launch-buttons a[href*='mybinder.org']")
            assert binder.is_visible(), f"{path}: the launch menu shows no Binder entry"
            violations = _axe(page, axe_script, exclude="article.bd-article")
            assert not violations, f"{path}: {json.dumps(violations, ensure_ascii=False, indent=1)}"
            width, wide = _phone_overflow(page)
            assert width <= PHONE_WIDTH, f"{path}: {width} px at {PHONE_WIDTH} px: {wide}"
            assert not _header_fits(page, PHONE_WIDTH), f"{path}: {_header_fits(page, PHONE_WIDTH)}"
            # every header menu, opened on the phone, stays on the screen (long paths wrap)
            page.reload(wait_until="load")
            settle(page, log)
            for menu in ("launch-buttons", "source-buttons", "download-buttons"):
                page.click(f".dropdown-{menu} > button")
                page.wait_for_selector(f".dropdown-{menu} .dropdown-menu.show")
                box = page.eval_on_selector(f".dropdown-{menu} .dropdown-menu",
                                            "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }")
                assert -0.5 <= box[0] and box[1] <= PHONE_WIDTH + 0.5, f"{path}: the {menu} menu spans {box} px"
                assert page.evaluate("document.documentElement.scrollWidth") <= PHONE_WIDTH, (path, menu)
                page.keyboard.press("Escape")
            _assert_clean(log, path)
        finally:
            context.close()
        # a touch screen's buttons are larger (course.css, pointer: coarse): at 360 and 320 px too
        for width in (PHONE_WIDTH, 320):
            context, page, log = _open(browser, urljoin(launch_url, path), viewport={"width": width, "height": 780},
                                       is_mobile=True, has_touch=True)
            try:
                assert page.evaluate("matchMedia('(pointer: coarse)').matches")
                width_now = page.evaluate("document.documentElement.scrollWidth")
                assert width_now <= width and not _header_fits(page, width), \
                    f"{path}, touch, {width} px: {width_now} px wide; off screen: {_header_fits(page, width)}"
            finally:
                context.close()


# --------------------------------------------------------------------------- what a notebook page offers

# The first chapter, exercise and solution page of each language.
OFFER_PAGES = [(lang, next(p[2] for p in NOTEBOOK_PAGES if p[0] == lang and p[2].startswith(kind + "/")))
               for lang in LANGS for kind in build_site.KINDS
               if any(p[0] == lang and p[2].startswith(kind + "/") for p in NOTEBOOK_PAGES)]


def _stop_external(context, base):
    """Requests that leave the site (Binder, GitHub, a local JupyterLab, a licence) are answered here,
    the network being closed; their URLs are recorded."""
    left = []

    def route(r):
        if r.request.url.startswith(base):
            r.continue_()
        else:
            left.append(r.request.url)
            r.fulfill(status=200, content_type="text/plain", body="stopped by tests/test_site.py")
    context.route("**/*", route)
    return left


def _entries(page, menu):
    """(text, href or None) of every entry of a header menu, after opening it."""
    page.click(f".dropdown-{menu} > button")
    page.wait_for_selector(f".dropdown-{menu} .dropdown-menu.show")
    return page.eval_on_selector_all(f".dropdown-{menu} .dropdown-menu .dropdown-item", """els => els.map(e =>
        [e.innerText.trim(), e.tagName === 'A' ? e.href : null])""")


def _follow(page, menu, index):
    """Open ``menu`` and click its entry ``index`` (a link that opens a tab); the URL the tab went to."""
    page.click(f".dropdown-{menu} > button")
    entry = page.locator(f".dropdown-{menu} .dropdown-menu .dropdown-item").nth(index)
    with page.context.expect_page() as opened:
        entry.click()
    tab = opened.value
    tab.wait_for_load_state()
    url = tab.url
    tab.close()
    page.keyboard.press("Escape")
    return url


def _download(page, index):
    """Open the download menu and click its entry ``index``: (the file name it is saved as, its bytes)."""
    page.click(".dropdown-download-buttons > button")
    with page.expect_download() as started:
        page.locator(".dropdown-download-buttons .dropdown-menu .dropdown-item").nth(index).click()
    download = started.value
    return download.suggested_filename, Path(download.path()).read_bytes()


@pytest.mark.parametrize("repository", ["none", "set"])
@pytest.mark.parametrize("lang,pagename", OFFER_PAGES, ids=[f"{lang}/{page}" for lang, page in OFFER_PAGES])
def test_every_thing_a_notebook_page_offers_works(browser, request, repository, lang, pagename):
    """Built without and with a repository URL, a chapter, an exercise and a solution page of each
    language: every entry of the download, launch and source menus and every link of the footer is
    clicked. Downloads are the repository's notebook and the course's wheel; Binder opens this
    notebook in this language; the source menu opens it and its src/ file in the repository; without
    a repository no launch or source button is there at all."""
    site = request.getfixturevalue("site_dir" if repository == "none" else "launch_site")
    base = request.getfixturevalue("base_url" if repository == "none" else "launch_url")
    kind, _, name = pagename.partition("/")
    notebook = f"{kind}/{lang}/{name}.ipynb"
    context = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    left = _stop_external(context, base)
    log = PageLog(context)
    page = context.new_page()
    page.set_default_timeout(NAV_TIMEOUT_MS * slowdown())
    log.watch(page)
    try:
        page.goto(urljoin(base, f"{lang}/{pagename}.html"), wait_until="load")
        settle(page, log)
        page.evaluate("window.print = () => { window.coursePrinted = true; }")

        # Download menu: the notebook, a print to PDF, the course's wheel, and the whole course as a
        # PDF book in this language where one has been printed (tools/build_pdf.py); nothing else.
        entries = _entries(page, "download-buttons")
        page.keyboard.press("Escape")
        book = site / lang / build_pdf.pdf_name(lang)
        assert [text for text, _ in entries] == [".ipynb", ".pdf", ".whl"] + (
            [course_site.BOOK_PDF_TEXT[lang]] if book.is_file() else []), entries
        if book.is_file():
            assert entries[3][1] == urljoin(base, f"{lang}/{book.name}"), entries
            response = page.request.get(entries[3][1])
            assert response.ok and response.headers["content-type"] == "application/pdf", response.headers
            assert response.body() == book.read_bytes()
        saved, data = _download(page, 0)
        assert saved == f"{name}.ipynb" and json.loads(data) == json.loads((ROOT / notebook).read_bytes()), saved
        page.keyboard.press("Escape")
        page.click(".dropdown-download-buttons > button")
        page.locator(".dropdown-download-buttons .dropdown-menu .dropdown-item").nth(1).click()
        assert page.evaluate("window.coursePrinted === true"), ".pdf does not print"
        page.keyboard.press("Escape")
        saved, data = _download(page, 2)
        wheel = site / "_static" / saved
        assert saved == course_site_wheel() and wheel.is_file() and data == wheel.read_bytes(), saved
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            metadata = archive.read(f"causality_heads_position-{package_version()}.dist-info/METADATA").decode()
        assert {"lib/attention.py", "grading/exercises.py", "figures/plots.py"} <= set(names)
        assert f"Version: {package_version()}" in metadata and "License-Expression: MIT" in metadata
        page.keyboard.press("Escape")

        footer = page.eval_on_selector_all(".course-footer a", "els => els.map(e => e.href)")
        if repository == "none":
            assert not page.query_selector(".dropdown-launch-buttons, .dropdown-source-buttons, "
                                           "[class*='btn-source-']"), "a launch or source button without a repository"
            assert not page.query_selector(".course-launch-note")
            assert len(footer) == 2
        else:
            # Launch menu: Binder and a local JupyterLab, each on this notebook in this language.
            entries = _entries(page, "launch-buttons")
            page.keyboard.press("Escape")
            assert [href for _, href in entries] == [link["url"] for link in course_site.launch_links(
                {"repo_url": PLACEHOLDER_REPO, "binderhub_url": "https://mybinder.org",
                 "local_jupyterlab_url": "http://localhost:8888/lab/tree"}, pagename, lang)], entries
            binder = _follow(page, "launch-buttons", 0)
            parts = urlparse(binder)
            assert (parts.scheme, parts.hostname, parts.path) == ("https", "mybinder.org", "/v2/gh/example/course/main")
            assert parse_qs(parts.query) == {"urlpath": [f"lab/tree/{notebook}"]} and (ROOT / notebook).is_file()
            assert _follow(page, "launch-buttons", 1) == f"http://localhost:8888/lab/tree/{notebook}"
            # Source menu: the repository, this notebook in it, the file of src/ it is generated from.
            entries = _entries(page, "source-buttons")
            page.keyboard.press("Escape")
            expected = course_site.source_links({"repo_url": PLACEHOLDER_REPO}, pagename, lang)
            assert len(entries) == len(expected) == 3, entries
            for i, link in enumerate(expected):
                assert _follow(page, "source-buttons", i) == link["url"]
                assert not link["path"] or (ROOT / link["path"]).is_file(), link
            assert f"{PLACEHOLDER_REPO}/blob/main/LICENSE" in footer and len(footer) == 3
        # The footer: the version, and each licence's link goes where it says.
        text = page.inner_text(".course-footer")
        assert course_site.FOOTER["version"][lang].format(version=package_version()) in text, text
        for n, href in enumerate(footer):
            if n:                                   # back on the page for its next link (none after the last)
                page.go_back(wait_until="load")
                settle(page, log)
            page.click(f".course-footer a[href='{href}']")
            page.wait_for_url(href)
        assert footer[0] == course_site.MIT_URL and footer[1] == course_site.FOOTER["cc_url"][lang]
        assert not log.errors and not log.console, (log.errors, log.console)
        # nothing else left the site: only the entries and links followed here
        followed = set(footer) | ({binder, f"http://localhost:8888/lab/tree/{notebook}"}
                                  | {link["url"] for link in expected} if repository == "set" else set())
        assert {u for u in left if not u.endswith("/favicon.ico")} == followed, sorted(left)
    finally:
        context.close()


@pytest.mark.parametrize("repository", ["none", "set"])
def test_section_0_5_says_what_the_pages_offer(request, repository):
    """§0.5 tells how to run a notebook: with the download menu always, with Binder exactly when
    the pages have a Binder button (its note names the rocket the launch menu shows)."""
    site = request.getfixturevalue("site_dir" if repository == "none" else "launch_site")
    for lang in LANGS:
        source = (site / lang / "chapters" / "00_start.html").read_text(encoding="utf8")
        section = re.search(r'<section id="sec-0-5".*?</section>', source, re.S).group(0)
        prose = html_lib.unescape(re.sub(r"<[^>]+>", " ", section))
        assert course_site_wheel() in prose and ".whl" in prose and ".ipynb" in prose, lang
        notes = re.findall(r'<p class="course-launch-note">(.*?)</p>', section, re.S)
        has_launch_menu = 'class="dropdown dropdown-launch-buttons"' in source
        assert has_launch_menu == (repository == "set") == bool(notes), (lang, repository)
        if notes:
            note = html_lib.unescape(re.sub(r"<[^>]+>", " ", notes[0]))
            assert re.search(LAUNCH_PHRASES[lang], note, re.I) and "Binder" in note and "fa-rocket" in source
        assert "README" not in prose, f"{lang}: §0.5 still sends the reader to the README"
