"""The PDF books (tools/build_pdf.py): one per language, read back as text.

The books are printed once per session from the site the browser tests build (the session
fixture of tests/test_site.py), into _build/pdf, and only when their inputs changed (a book
remembers the digest of what it was made of): a first run costs one Chromium print per
language, a run on an unchanged site none. Each book is then read with poppler's
``pdftotext`` and ``pdffonts`` and with pypdf, and checked:

* **every heading**: the title and every section heading of every page of the language
  (the sections, the appendix, the exercises, the solutions) is in the text, in the order of the site, each on
  the page its contents entry names; every numbered figure caption is there;
* **no glyph missing**: no U+FFFD, every font embedded, and as many Chinese characters and
  Cyrillic letters as the pages' own text holds (a font that silently drops CJK, as in
  mystmd #1679, would fail);
* **a book**: a page count within PAGES; bookmarks for every part, page and section; page
  labels that match the printed numbers; the cover, then the contents;
* **paper, not a form**: each chapter with questions ends with their answers, and no
  quiz control ("Check", "Your answer") is printed; code is wrapped, not cut: the end of
  every long code line is in the text;
* **linked**: the site's assembly offers the book in the download menu of every page of
  its language, and the link leads to the file.

Time and size of each book are printed at the end of the session (tests/conftest.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import html
import io
import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import build_pdf, build_site  # noqa: E402
sys.path.insert(0, str(ROOT / "site"))
import course_book  # noqa: E402

from conftest import clear_stale_event_loop, need, unavailable  # noqa: E402
from course_i18n import LANGUAGES  # noqa: E402
from test_site import site_dir  # noqa: E402,F401

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start, the PDF books).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

LANGS = LANGUAGES
PAGES = (150, 400)              # pages a book may have (zh 205, en 222, ru 232 at the time of writing)
MAX_BYTES = 15 * 2**20          # each book at most 15 MiB (5-8 MiB at the time of writing)
REPORT = ROOT / "_build" / "pdf-report.txt"
BOOKS_TIMEOUT = 1200            # s: waiting for the lock and printing three books (some 3 minutes here)
POPPLER_TIMEOUT = 300           # s: pdftotext reads a whole book in 3 s of CPU
QUIZ_CONTROLS = {"zh": ("核对", "你的答案"), "en": ("Check", "Your answer"), "ru": ("Проверить", "Ваш ответ")}


def _squash(text: str) -> str:
    """Text with no whitespace at all: a heading wrapped over two lines in the PDF still matches."""
    return re.sub(r"\s+", "", text)


@contextlib.contextmanager
def _deadline(seconds: int, what: str):
    """Raise TimeoutError in this (the worker's main) thread when ``what`` takes more than ``seconds``:
    Chromium's print has no timeout of its own."""
    def expire(signum, frame):
        raise TimeoutError(f"{what} took more than {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture(scope="session")
def books(site_dir):  # noqa: F811
    """{lang: {"path", "pages", "bytes", "seconds", "unchanged"}}: the three books, printed if their inputs changed."""
    for tool in ("pdftotext", "pdffonts"):
        if not shutil.which(tool):
            need("pdftotext", f"reading the PDF books back ({tool})")
    try:
        import playwright.sync_api  # noqa: F401
        import pypdf  # noqa: F401
    except ImportError as exc:
        unavailable(f"{exc.name} is not installed: the PDF books are not checked")
    start = time.perf_counter()
    # no site build may rewrite the pages while they are printed (another pytest worker's fixture)
    with open(build_site.BUILD / "site-build.lock", "w") as lock, _deadline(BOOKS_TIMEOUT, "printing the books"):
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            clear_stale_event_loop()          # build_pdf starts Playwright's sync API in this thread
            results = build_pdf.build(list(LANGS), site=site_dir, into_site=False)
        except build_pdf.PdfError as error:
            if "Chromium" in str(error):
                unavailable(str(error))
            raise
    total = time.perf_counter() - start
    lines = [f"PDF books ({total:.0f} s in this session; tools/build_pdf.py):"]
    for r in results:
        took = "unchanged, not printed again" if r["unchanged"] else f"printed in {r['seconds']:.0f} s"
        lines.append(f"  {r['lang']}: {r['pages']} pages, {r['bytes'] / 2**20:.1f} MiB, {took}")
    # read the three books back at once (pdftotext takes some 10-20 s on a book; the tests share it)
    import concurrent.futures
    with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
        list(pool.map(_pages_text, [r["path"] for r in results]))
    lines.append(f"  read back with pdftotext in {time.perf_counter() - start - total:.0f} s")
    REPORT.write_text("\n".join(lines) + "\n", encoding="utf8")
    return {r["lang"]: r for r in results}


@functools.lru_cache(maxsize=None)
def _pages_text(path) -> list[str]:
    # -raw: in the order Chromium drew the text, which is the page's order (the default reading order
    # of pdftotext may pull a word of a neighbouring block into a line of code)
    text = subprocess.run(["pdftotext", "-raw", "-enc", "UTF-8", str(path), "-"], capture_output=True, text=True,
                          encoding="utf8", check=True, timeout=POPPLER_TIMEOUT).stdout
    return text.split("\f")


@functools.lru_cache(maxsize=None)
def _site_headings(lang) -> list[tuple[str, list[str]]]:
    """(page, [its headings as text, formulas left out]) in the order of the book."""
    info = json.loads((build_site.OUT / "build-info.json").read_text(encoding="utf8"))
    out = []
    for part in build_pdf.book_parts(lang, info):
        for doc in part["docs"]:
            raw = (build_site.RAW / lang / f"{doc}.html").read_text(encoding="utf8")
            article = build_pdf.ARTICLE.search(raw).group(1)
            titles = []
            for _, _, inner in build_pdf.SECTION_HEADING.findall(article):
                inner = re.sub(r'<a class="headerlink".*?</a>', "", inner, flags=re.S)
                # the words around a formula (a formula prints as glyphs pdftotext reads in its own way)
                pieces = re.split(r'<span class="math notranslate nohighlight">.*?</span>', inner, flags=re.S)
                titles.append([p for p in (_squash(html.unescape(re.sub(r"<[^>]+>", "", p))) for p in pieces)
                               if len(p) >= 2])
            out.append((doc, titles))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_heading_is_in_the_book_on_the_page_its_contents_names(books, lang):
    book = books[lang]
    pages = _pages_text(book["path"])
    squashed = [_squash(p) for p in pages]
    whole = "".join(squashed)
    missing, out_of_order, position = [], [], 0
    for doc, titles in _site_headings(lang):
        for pieces in titles:
            for piece in pieces:
                at = whole.find(piece, position)
                if at < 0:
                    (out_of_order if piece in whole else missing).append(f"{doc}: {piece[:60]}")
                else:
                    position = at
    assert not missing, f"{lang}: headings not in the book: {missing[:10]}"
    assert not out_of_order, f"{lang}: headings out of the site's order: {out_of_order[:10]}"
    # the contents: each entry's number is the printed page number of its heading
    from pypdf import PdfReader
    reader = PdfReader(book["path"])
    labels = reader.page_labels
    assert labels[0] == "i" and labels[1] == "1" and labels[-1] == str(len(labels) - 1), labels[:3]
    contents = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", "-f", "2", "-l", "8", str(book["path"]), "-"],
                              capture_output=True, text=True, encoding="utf8", check=True,
                              timeout=POPPLER_TIMEOUT).stdout.splitlines()
    wrong = []
    for doc, titles in _site_headings(lang):
        first = titles[0][0] if titles and titles[0] else None
        if not first:
            continue
        entry = next((line for line in contents if _squash(line).startswith(first[:12])), None)
        number = re.search(r"\s(\d+)\s*$", entry or "")
        if not number:
            wrong.append(f"{doc}: no contents entry")
            continue
        page = pages[int(number.group(1))]            # printed number n is page n + 1 (the cover is i)
        if first[:12] not in _squash(page):
            wrong.append(f"{doc}: contents says page {number.group(1)}")
    assert not wrong, f"{lang}: {wrong[:8]}"
    # bookmarks: a part, then every page (its title), then its sections
    outline = reader.outline
    flat = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                flat.append((depth, item.title))
    walk(outline, 0)
    tops = [t for d, t in flat if d == 0]
    parts = build_site.load_yaml(ROOT / "_toc.yml")["parts"]
    assert len(tops) == 1 + len(parts), f"{lang}: top bookmarks {tops} (the contents and the {len(parts)} parts)"
    n_pages = sum(1 for _ in _site_headings(lang))
    assert sum(1 for d, _ in flat if d == 1) == n_pages, f"{lang}: not one bookmark per page"
    assert sum(1 for d, _ in flat if d == 2) >= 3 * 8, f"{lang}: too few section bookmarks"


@pytest.mark.parametrize("lang", LANGS)
def test_no_glyph_is_missing(books, lang):
    path = books[lang]["path"]
    text = "\f".join(_pages_text(path))
    assert "\ufffd" not in text, f"{lang}: U+FFFD in the text at {text.index(chr(0xfffd))}"
    fonts = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True,
                           timeout=POPPLER_TIMEOUT).stdout.splitlines()[2:]
    assert fonts, f"{lang}: no fonts"
    not_embedded = [line for line in fonts if line.split()[-5] != "yes"]
    assert not not_embedded, f"{lang}: fonts not embedded: {not_embedded[:5]}"
    no_unicode = [line for line in fonts if line.split()[-3] != "yes"]
    assert not no_unicode, f"{lang}: fonts without a Unicode map (text could not be copied): {no_unicode[:5]}"
    # as many ideographs / Cyrillic letters as the pages' text holds (the book adds, never drops)
    script = {"zh": r"[\u4e00-\u9fff]", "ru": r"[А-Яа-яЁё]", "en": r"[A-Za-z]"}[lang]
    info = json.loads((build_site.OUT / "build-info.json").read_text(encoding="utf8"))
    site_text = ""
    for part in build_pdf.book_parts(lang, info):
        for doc in part["docs"]:
            raw = (build_site.RAW / lang / f"{doc}.html").read_text(encoding="utf8")
            article = build_pdf.ARTICLE.search(raw).group(1)
            article = re.sub(r"<(script|style)\b.*?</\1>|<details class=\"quiz-answer\">.*?</details>"
                             r"|<div class=\"course-print-answers\">.*?</div>\s*</section>", " ", article, flags=re.S)
            site_text += html.unescape(re.sub(r"<[^>]+>", " ", article))
    wanted, found = len(re.findall(script, site_text)), len(re.findall(script, text))
    assert found >= 0.97 * wanted, f"{lang}: {found} letters of the script in the book, {wanted} on the pages"


@pytest.mark.parametrize("lang", LANGS)
def test_a_book_not_a_form(books, lang):
    book = books[lang]
    assert PAGES[0] <= book["pages"] <= PAGES[1], f"{lang}: {book['pages']} pages, expected {PAGES}"
    assert book["bytes"] <= MAX_BYTES, f"{lang}: {book['bytes'] / 2**20:.1f} MiB"
    pages = _pages_text(book["path"])
    info = json.loads((build_site.OUT / "build-info.json").read_text(encoding="utf8"))
    first_part = _squash(build_pdf.book_parts(lang, info)[0]["caption"])
    # the body: from the first part's divider (its caption and the page number), after the cover and contents
    body = next(i for i, p in enumerate(pages) if re.sub(r"\d+$", "", _squash(p)) == first_part)
    whole = _squash("".join(pages[body:]))
    heading = _squash(course_book.WORDS["answers"][lang])
    chapters = [doc for doc, _ in _site_headings(lang) if doc.startswith("chapters/")]
    with_questions = [doc for doc in chapters
                      if '<aside class="quiz"' in (build_site.OUT / lang / f"{doc}.html").read_text(encoding="utf8")]
    assert len(with_questions) >= 7 and whole.count(heading) == len(with_questions), (
        f"{lang}: {whole.count(heading)} answer sections for {len(with_questions)} chapters with questions")
    # each chapter's answers come after its last section and before the next chapter
    # (a page without questions, as the appendix, has none)
    starts = [(whole.find(_squash(titles[0][0])), doc) for doc, titles in _site_headings(lang)
              if doc in chapters and titles]
    for (a, doc), (b, _) in zip(starts, starts[1:] + [(len(whole), None)]):
        if doc in with_questions:
            assert heading in whole[a:b], f"{lang}: {doc} without its answers at its end"
    lines = {_squash(line) for p in pages for line in p.splitlines()}
    for control in QUIZ_CONTROLS[lang]:                 # a button or a field's label is a line of its own
        assert _squash(control) not in lines, f"{lang}: a quiz control printed ({control!r})"
    # code wraps: the end of every long code line is printed
    cut = []
    for doc, _ in _site_headings(lang):
        raw = (build_site.RAW / lang / f"{doc}.html").read_text(encoding="utf8")
        for block in re.findall(r'<div class="highlight"><pre>(.*?)</pre>', raw, re.S):
            for line in html.unescape(re.sub(r"<[^>]+>", "", block)).splitlines():
                if len(line) > 60 and _squash(line)[-12:] not in whole:
                    cut.append(f"{doc}: {line.strip()[:70]}")
    assert not cut, f"{lang}: code lines whose end is not printed: {cut[:5]}"
    # numbered figures with their captions
    info_pages = [doc for doc, _ in _site_headings(lang)]
    captions = []
    for doc in info_pages:
        page = build_pdf.ARTICLE.search((build_site.RAW / lang / f"{doc}.html").read_text(encoding="utf8")).group(1)
        captions += [_squash(html.unescape(re.sub(r"<[^>]+>", "", c)))[:40]
                     for c in re.findall(r'<figcaption>\s*<p><span class="caption-text">(.*?)<a class="headerlink"', page, re.S)]
    assert len(captions) >= 15 and all(c in whole for c in captions), \
        f"{lang}: captions missing: {[c for c in captions if c not in whole][:5]}"


def test_the_menu_offers_the_book_of_the_page_language(books, tmp_path):
    """Assembled with the books there, every page's download menu links its language's book, which
    exists; assembled without, no page offers one (tools/build_site.py)."""
    info = json.loads((build_site.OUT / "build-info.json").read_text(encoding="utf8"))
    codes = [s["code"] for s in info["languages"]]
    summary = build_site.assemble(codes, out=tmp_path / "site")
    site = tmp_path / "site"
    assert sorted(summary["books"]) == sorted(LANGS)
    for lang in codes:
        name = build_site.book_pdf_name(lang)
        assert (site / lang / name).exists()
        for page in sorted((site / lang).rglob("*.html")):
            text = page.read_text(encoding="utf8")
            if "dropdown-download-buttons" not in text:
                continue
            links = re.findall(r'<a href="([^"]+)"[^>]*\n?\s*class="[^"]*btn-download-book-pdf-button', text)
            assert len(links) == 1, f"{page}: {len(links)} book links"
            assert links[0].endswith(name) and (page.parent / links[0]).resolve() == (site / lang / name).resolve()
    problems = build_site.broken_references(site, {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()})
    assert not [p for p in problems if ".pdf" in p], problems[:5]


def test_without_a_book_the_menu_offers_none():
    page = ('<ul class="dropdown-menu"><li><a href="../x.ipynb" class="btn btn-sm btn-download-source-button">.ipynb</a>'
            '</li>\n<li><a href="../causality-heads-position-en.pdf" target="_blank"\n   class="btn btn-sm '
            'btn-download-book-pdf-button dropdown-item"\n>book</a>\n</li>\n</ul>')
    stripped = build_site.BOOK_PDF_ENTRY.sub("", page)
    assert "book-pdf" not in stripped and "x.ipynb" in stripped


def test_the_contents_read_past_a_sliver_a_page_break_leaves():
    """The Chinese book failed to build (the contents list has 149 links, expected 147) once its contents moved
    by a few lines: two entries met a page break at the edge of a line, and Chromium left a box 0.7 pt high of
    the first at the top of the next page and one 0 pt high of the second at the foot of the first page, so the
    two entries came out twice, out of order. Here a made-up contents pair of pages with the same four boxes;
    the destinations come out once each, in order. Negative control: with the slivers made 2 pt high (real
    boxes), the same reading finds the two extra entries and refuses the book."""
    import io
    from pypdf import PdfWriter
    from pypdf.annotations import Link
    from pypdf.generic import Fit

    def contents(sliver):
        writer = PdfWriter()
        for _ in range(4):                               # two pages of contents, then the pages they name
            writer.add_blank_page(595, 842)
        boxes = [(0, (42.8, 70.0, 553.0, 82.0), 2, 800.0),          # entry A, the last whole one on page 0
                 (0, (42.8, 51.4, 553.0, 63.9), 3, 276.4),          # entry B, cut by the break
                 (0, (42.8, 51.4, 553.0, 51.4 + sliver), 3, 841.9),  # entry C's box at the foot of page 0
                 (1, (42.8, 796.9 - sliver, 553.0, 796.9), 3, 276.4),  # entry B's box at the top of page 1
                 (1, (42.8, 782.9, 553.0, 796.9), 3, 841.9),        # entry C itself
                 (1, (42.8, 760.0, 553.0, 772.0), 3, 100.0)]        # entry D
        for page, rect, target, top in boxes:
            writer.add_annotation(page, Link(rect=rect, target_page_index=target, fit=Fit.xyz(left=0, top=top)))
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    entries = [{"level": 1}] * 4
    found = build_pdf.toc_destinations(contents(0.0), entries)
    assert [(page, round(top, 1)) for page, top in found] == [(2, 800.0), (3, 276.4), (3, 841.9), (3, 100.0)]
    with pytest.raises(build_pdf.PdfError, match="6 links, expected 4"):
        build_pdf.toc_destinations(contents(2.0), entries)
