"""The course as one PDF book per language, printed from the pages the site renders.

    make pdf                                 # builds the site, then the three books
    python tools/build_pdf.py                # the books, from an up-to-date _build/site (make book)
    python tools/build_pdf.py --lang zh      # one language (repeatable)

Result: ``_build/pdf/causality-heads-position-<lang>.pdf``, copied into the site as
``_build/site/<lang>/causality-heads-position-<lang>.pdf``; every page's download menu
offers the book of its language (site/course_site.py; the site's assembly drops that entry
while no book has been built, so a site without books has no dead link).

How a book is made
* **The site's own pages.** For every page of the language, in the order of the table of
  contents (the sections and the appendix, the exercises, the solutions), the ``<article>`` of the assembled page
  (formulas typeset, figures numbered and captioned) goes into one HTML document, each
  page on a new sheet, with its ids prefixed by the page (``chapters-02_heads--sec-2-3``)
  and every link to another page of the book turned into a link inside the document; a
  link that would leave the book keeps its text and loses its target.
* **Printed by Chromium** (Playwright ``page.pdf()``, Debian's chromium), A4, with
  JavaScript off: every figure in the state it is drawn in, the questions without their
  controls (the site's print stylesheet, course.css) and their answers at the end of each
  chapter (site/course_book.py), code wrapped rather than cut, page numbers in the footer.
  Chromium embeds the fonts it uses (subsets), Noto CJK for Chinese included.
* **Contents with page numbers, in two passes.** The first print has a contents list whose
  page numbers are placeholders of the same width; the link of each entry lands on its
  heading, so the first PDF says on which page each heading is. The second print writes
  those numbers; its layout is the same (checked: the same number of pages, the same
  destinations).
* **With pypdf** (pure Python, BSD, maintained; pikepdf would need qpdf's binaries,
  PyMuPDF is AGPL) the book gets its bookmarks (parts, pages, sections, each landing on
  its heading), page labels that match the printed numbers (the cover is "i") and its
  title, language and author; the cover, printed without a page number, is put in front.

Time and size are printed at the end (``make pdf``: about a minute and a half for the
three books here; each a few MB).
"""

from __future__ import annotations

import argparse
import hashlib
import html
import io
import json
import logging
import posixpath
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from course_i18n.catalogue import texts  # noqa: E402
from tools import build_site  # noqa: E402
from tools.static_math import tex_to_text  # noqa: E402

BOOK_CSS = ROOT / "site" / "book.css"
PRINT_TIMEOUT_MS = 300_000      # loading a whole book into Chromium (some 10-20 s here)
FONT_TIMEOUT_S = 60              # its web fonts ready

CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--no-first-run", "--disable-quic", "--disable-sync", "--disable-dev-shm-usage"]
logging.getLogger("pypdf").setLevel(logging.ERROR)   # Chromium's PDFs give harmless "trailer size" notes
PLACEHOLDER = "000"                  # a page number before it is known: as wide as any the book reaches
FOOTER = ('<div style="width:100%;font-size:8pt;color:#555;text-align:center;'
          'font-family:sans-serif"><span class="pageNumber"></span></div>')

WORDS = texts("site.pdf", {
    "contents": "Contents",
    "edition": "The course website as a book: every section, the exercises and their solutions.",
    "answers_note": "The answers to each section's questions are printed at the end of that section.",
    "version": "Version {version}",
})


class PdfError(RuntimeError):
    """A book that cannot be made as promised (a page missing, a layout that moved between passes)."""


def package() -> tuple[str, str]:
    """(name, version) of the course's package (pyproject.toml)."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf8")
    name = re.search(r'^name\s*=\s*"([^"]+)"', text, re.M).group(1)
    version = re.search(r'^version\s*=\s*"([^"]+)"', text, re.M).group(1)
    return name, version


def pdf_name(lang: str) -> str:
    """``causality-heads-position-en.pdf``: the book's file, in _build/pdf and in the site's language folder."""
    return build_site.book_pdf_name(lang)


# --------------------------------------------------------------------------- the book as HTML

ARTICLE = re.compile(r'<article class="bd-article">(.*?)</article>', re.S)
ID_ATTR = re.compile(r'(\s(?:id|for|headers|aria-labelledby|aria-describedby|aria-controls))="([^"]*)"')
A_HREF = re.compile(r'(<a\b[^>]*?)\shref="([^"]*)"')


def page_key(doc: str) -> str:
    return doc.replace("/", "-")


def _text(fragment: str) -> str:
    fragment = re.sub(r'<a class="headerlink".*?</a>', "", fragment, flags=re.S)
    fragment = re.sub(r"<mjx-assistive-mml.*?</mjx-assistive-mml>", "", fragment, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def book_article(site: Path, lang: str, doc: str, book: set[str]) -> str:
    """The article of one page, its ids prefixed and its links pointing inside the book."""
    source = (site / lang / f"{doc}.html").read_text(encoding="utf8")
    match = ARTICLE.search(source)
    if not match:
        raise PdfError(f"{lang}/{doc}.html has no <article class=\"bd-article\">")
    text = re.sub(r"<script\b.*?</script>", "", match.group(1), flags=re.S)
    key = page_key(doc)
    here = posixpath.dirname(f"{lang}/{doc}.html")

    def ids(m):
        return f'{m.group(1)}="{" ".join(f"{key}--{v}" for v in m.group(2).split())}"'

    def link(m):
        start, href = m.group(1), html.unescape(m.group(2))
        if re.match(r"[a-z][a-z0-9+.-]*:", href):          # http:, https:, mailto: leave the book as they are
            return m.group(0)
        path, _, fragment = href.partition("#")
        if not path:
            return f'{start} href="#{key}--{html.escape(fragment, quote=True)}"' if fragment else start
        target = posixpath.normpath(posixpath.join(here, path))
        if target.startswith(lang + "/") and target.endswith(".html") and target[len(lang) + 1:-5] in book:
            tkey = page_key(target[len(lang) + 1:-5])
            return f'{start} href="#{tkey}{"--" + html.escape(fragment, quote=True) if fragment else ""}"'
        return start                                          # a file of the site: the text stays, not the link

    text = ID_ATTR.sub(ids, text)
    text = A_HREF.sub(link, text)
    # folded code (a cell tagged hide-input) is printed unfolded: paper cannot be clicked open
    text = re.sub(r'<details class="admonition hide above-input">', '<details class="admonition hide above-input" open>',
                  text)
    return f'<div class="book-page" id="{key}"><article class="bd-article">{text}</article></div>'


def stylesheets(site: Path, lang: str, docs: list[str]) -> list[str]:
    """Every stylesheet the pages link (each page's own, at the depth of ``<lang>/<kind>/``)."""
    found = []
    for doc in docs:
        source = (site / lang / f"{doc}.html").read_text(encoding="utf8")
        head = source.split("</head>", 1)[0]
        for href in re.findall(r'<link rel="stylesheet"[^>]*href="([^"]+)"', head):
            if href not in found:
                found.append(href)
    return found


# a section (its first id is language-neutral: sec-2-3, part-1), the old text ids as spans, its heading
# a section (its first id language-neutral: sec-2-3, part-1), its old text ids as spans, its heading
SECTION_HEADING = re.compile(r'<section\b[^>]*\sid="([^"]+)"[^>]*>\s*(?:<span id="[^"]*"></span>\s*)*<(h[12])\b[^>]*>(.*?)</\2>', re.S)


def plain_titles(raw: Path) -> list[str]:
    """The page's headings as text, formulas as a reader would type them (for the bookmarks), from
    the page as Sphinx wrote it (a formula is still its TeX there)."""
    article = ARTICLE.search(raw.read_text(encoding="utf8"))
    titles = SECTION_HEADING.findall(article.group(1)) if article else []
    return [_text(re.sub(r'<span class="math notranslate nohighlight">\\\((.*?)\\\)</span>',
                         lambda m: html.escape(tex_to_text(html.unescape(m.group(1)))), inner, flags=re.S))
            for _, _, inner in titles]


def contents(parts: list[dict], pages: dict[str, str], plain: dict[str, list[str]], numbers: list[str] | None,
             lang: str) -> tuple[str, list[dict]]:
    """The contents list, and its entries in order ({level, title, html, anchor}): the parts (level 0),
    each page (its title, level 1) and its sections (level 2), each entry a link to its heading."""
    entries, rows = [], [f'<nav class="book-toc" id="book-contents"><h1>{html.escape(WORDS["contents"][lang])}</h1>']
    for part in parts:
        entries.append({"level": 0, "title": part["caption"], "anchor": f"part-{part['n']}", "html": ""})
        for doc in part["docs"]:
            titles = SECTION_HEADING.findall(pages[doc])
            if len(titles) != len(plain[doc]):
                raise PdfError(f"{doc}: {len(titles)} headings on the page, {len(plain[doc])} in Sphinx's page")
            for n, ((anchor, tag, inner), text) in enumerate(zip(titles, plain[doc])):
                inner = re.sub(r'<a class="headerlink".*?</a>', "", inner, flags=re.S)
                entries.append({"level": 1 if tag == "h1" else 2, "title": text, "html": inner.strip(),
                                "anchor": page_key(doc) if n == 0 else anchor})   # a page: its first sheet
    for k, entry in enumerate(entries):
        if entry["level"] == 0:
            rows.append(f'<div class="toc-part">{html.escape(entry["title"])}</div>')
            continue
        number = numbers[k] if numbers else PLACEHOLDER
        # one link per entry (a block: one link annotation however many lines its title takes)
        rows.append(f'<a class="toc-entry toc-l{entry["level"]}" href="#{entry["anchor"]}">'
                    f'<span class="toc-title">{entry["html"]}</span><span class="toc-dots"></span>'
                    f'<span class="toc-page">{number}</span></a>')
    rows.append("</nav>")
    return "\n".join(rows), entries


def book_html(site: Path, lang: str, spec: dict, parts: list[dict],
              numbers: list[str] | None) -> tuple[str, str, list[dict]]:
    """(the book as one HTML document, its contents list alone as a document, the contents' entries)."""
    docs = [d for part in parts for d in part["docs"]]
    book = set(docs)
    pages = {doc: book_article(site, lang, doc, book) for doc in docs}
    plain = {doc: plain_titles(build_site.RAW / lang / f"{doc}.html") for doc in docs}
    toc, entries = contents(parts, pages, plain, numbers, lang)
    links = "\n".join(f'<link rel="stylesheet" href="{html.escape(h)}">' for h in stylesheets(site, lang, docs))
    head = (f'<!DOCTYPE html>\n<html lang="{spec["html_lang"]}" data-theme="light" data-mode="light">'
            f'<head><meta charset="utf-8"><title>{html.escape(spec["title"])}</title>\n{links}\n'
            f'<style>{BOOK_CSS.read_text(encoding="utf8")}</style></head>\n<body>\n')
    body = [toc]
    for part in parts:
        body.append(f'<div class="book-part" id="part-{part["n"]}"><h1>{html.escape(part["caption"])}</h1></div>')
        body += [pages[doc] for doc in part["docs"]]
    return head + "\n".join(body) + "\n</body></html>\n", head + toc + "\n</body></html>\n", entries


def cover_html(spec: dict, lang: str, version: str) -> str:
    return (f'<!DOCTYPE html>\n<html lang="{spec["html_lang"]}"><head><meta charset="utf-8">'
            f'<style>{BOOK_CSS.read_text(encoding="utf8")}</style></head><body><section class="book-cover">'
            f'<h1>{html.escape(spec["title"])}</h1>'
            f'<p>{html.escape(WORDS["edition"][lang])}</p>'
            f'<p>{html.escape(WORDS["answers_note"][lang])}</p>'
            f'<p>{html.escape(spec.get("author") or "")} · {html.escape(WORDS["version"][lang].format(version=version))}</p>'
            f'</section></body></html>\n')


# --------------------------------------------------------------------------- printing

class Server:
    """The assembled site over HTTP on 127.0.0.1 (a free port), plus the book pages it is handed."""

    def __init__(self, site: Path):
        import functools
        import http.server

        books = self.books = {}

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                if self.path.split("?", 1)[0] in books:
                    data = books[self.path.split("?", 1)[0]].encode("utf8")
                    self.send_response(200)
                    self.send_header("Content-Type", "text/html; charset=utf-8")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                    return
                super().do_GET()

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(site)))
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


def print_pdf(browser, url: str, footer: bool) -> bytes:
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        failed = []
        page.on("requestfailed", lambda r: failed.append(r.url))
        page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.url} ({r.status})"))
        page.set_default_timeout(PRINT_TIMEOUT_MS)
        page.goto(url, wait_until="load", timeout=PRINT_TIMEOUT_MS)
        # the web fonts in use are loaded: asked from here, since with JavaScript off the page runs no
        # timer that could bound a wait for document.fonts.ready
        deadline = time.monotonic() + FONT_TIMEOUT_S
        while page.evaluate("document.fonts.status") != "loaded":
            if time.monotonic() > deadline:
                raise PdfError(f"{url}: its fonts were not loaded after {FONT_TIMEOUT_S} s")
            time.sleep(0.05)
        if failed:
            raise PdfError(f"{url}: the book could not load {failed[:5]}")
        return page.pdf(format="A4", print_background=True, prefer_css_page_size=True,
                        display_header_footer=footer, header_template="<span></span>",
                        footer_template=FOOTER if footer else "<span></span>")
    finally:
        context.close()


def toc_destinations(pdf: bytes, entries: list[dict]) -> list[tuple[int, float]]:
    """(page index, top) of each entry's heading, read from the links of the contents pages (in the
    order they are laid out: one entry after another; links exactly as many as the entries).

    An entry that a page break cuts gets a link box on each page; where the break falls at the edge of a
    line, Chromium also leaves a box under 1 pt high (0 or 0.7 pt) on the page the entry hardly touches,
    which would put that entry out of order among its neighbours' boxes: such slivers are skipped."""
    from pypdf import PdfReader
    reader = PdfReader(io.BytesIO(pdf))
    index = {page.indirect_reference.idnum: n for n, page in enumerate(reader.pages)}
    wanted = [e for e in entries if e["level"] > 0]
    found = []
    for n, page in enumerate(reader.pages):
        links = []
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if annot.get("/Subtype") != "/Link":
                continue
            dest = annot.get("/Dest")
            if dest is None and "/A" in annot and annot["/A"].get("/S") == "/GoTo":
                dest = annot["/A"].get("/D")
            if dest is None:
                continue
            if isinstance(dest, str) or not hasattr(dest, "__getitem__"):
                dest = reader.named_destinations[str(dest)]
                target, top = dest.page, dest.top
            else:
                target, top = dest[0], float(dest[3]) if len(dest) > 3 and dest[3] is not None else None
            rect = [float(v) for v in annot["/Rect"]]
            if rect[3] - rect[1] < 1.0:     # a sliver (under 1 pt) an entry leaves across a page break
                continue
            links.append((-rect[3], rect[0], index[target.idnum], top))
        for _, _, p, top in sorted(links):
            if not found or found[-1] != (p, top):    # an entry over two lines is one link box per line
                found.append((p, top))
        if len(found) >= len(wanted):                 # the contents end on this page
            break
    if len(found) != len(wanted):
        raise PdfError(f"the contents list has {len(found)} links, expected {len(wanted)}")
    return found


def replace_contents(draft: bytes, toc: bytes, sheets: int, lang: str) -> bytes:
    """The draft with its first ``sheets`` pages (the contents, numbers as placeholders) replaced by
    the contents printed with the numbers, keeping the draft's links on them."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject
    numbered = PdfReader(io.BytesIO(toc))
    if len(numbered.pages) != sheets:
        raise PdfError(f"{lang}: the contents take {len(numbered.pages)} pages with their numbers, {sheets} without")
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(draft)))
    for n in range(sheets):
        links = writer.pages[n].get("/Annots")
        writer.insert_page(numbered.pages[n], n)
        writer.remove_page(n + 1)
        if links is not None:
            writer.pages[n][NameObject("/Annots")] = links
            for annot in writer.pages[n]["/Annots"]:
                annot.get_object()[NameObject("/P")] = writer.pages[n].indirect_reference
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def finish(body: bytes, cover: bytes, entries: list[dict], destinations: list[tuple[int, float]],
           spec: dict, lang: str) -> bytes:
    """The cover in front; bookmarks (parts, pages, sections, each landing on its heading); page labels
    that match the printed numbers (the cover "i", then 1, 2, ... as the footers say); metadata."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import Fit, NameObject, TextStringObject
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(body)))
    writer.insert_page(PdfReader(io.BytesIO(cover)).pages[0], 0)
    writer.add_outline_item(title=WORDS["contents"][lang], page_number=1)
    headings = iter(destinations)
    parents = {}
    for k, entry in enumerate(entries):
        if entry["level"] == 0:      # a part: its divider sheet, just before its first page (+1 cover, -1)
            before = sum(1 for e in entries[:k] if e["level"] > 0)
            first = destinations[before][0] if before < len(destinations) else 0
            parents[0] = writer.add_outline_item(title=entry["title"], page_number=first)
            continue
        page, top = next(headings)
        fit = Fit.xyz(left=0, top=top, zoom=None) if top is not None else Fit.fit()
        parents[entry["level"]] = writer.add_outline_item(title=entry["title"], page_number=page + 1,
                                                          parent=parents.get(entry["level"] - 1), fit=fit)
    writer.set_page_label(0, 0, style="/r")
    writer.set_page_label(1, len(writer.pages) - 1, style="/D", start=1)
    writer.add_metadata({"/Title": spec["title"], "/Author": spec.get("author") or "",
                         "/Subject": WORDS["edition"][lang], "/Creator": "tools/build_pdf.py (Chromium, pypdf)"})
    writer._root_object[NameObject("/Lang")] = TextStringObject(spec["html_lang"])
    writer.page_mode = "/UseOutlines"
    writer.compress_identical_objects(remove_duplicates=True, remove_unreferenced=True)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def book_parts(lang: str, info: dict) -> list[dict]:
    """The parts of the language's table of contents: [{n, caption, docs}], the root page first."""
    toc = build_site.load_yaml(ROOT / "_toc.yml")
    spec = next(s for s in info["languages"] if s["code"] == lang)
    toc_lang, _, _ = build_site.derive_toc(toc, lang, set(spec["pages"]))
    parts = []
    for n, part in enumerate(toc_lang["parts"], 1):
        docs = [c["file"] for c in part["chapters"]]
        if n == 1:
            docs = [toc_lang["root"]] + docs
        parts.append({"n": n, "caption": part["caption"], "docs": docs})
    return parts


def page_numbers(entries: list[dict], destinations: list) -> list[str]:
    """The page number printed beside each entry of the contents ("" for a part), from where its heading landed."""
    numbers, headings = [], iter(destinations)
    for entry in entries:
        numbers.append(str(next(headings)[0] + 1) if entry["level"] else "")   # footers count from the contents
    return numbers


def build_book(browser, server: Server, site: Path, lang: str, info: dict, out: Path, force: bool = False) -> dict:
    spec = dict(next(s for s in info["languages"] if s["code"] == lang))
    langs = {s["code"]: s for s in build_site.site_languages(build_site.load_yaml(ROOT / "_config.yml"))}
    spec.update({k: langs[lang].get(k, "") for k in ("title", "author")})
    from pypdf import PdfReader
    parts = book_parts(lang, info)
    start = time.perf_counter()
    target = out / pdf_name(lang)
    # The book, its contents' page numbers still placeholders; each entry's link lands on its heading.
    path = f"/{lang}/_book/book.html"                   # at the depth of the pages: their relative URLs hold
    document, _, entries = book_html(site, lang, spec, parts, None)
    stamp = inputs_digest(site, document, cover_html(spec, lang, package()[1]))
    stamp_file = target.with_suffix(".json")
    if not force and target.exists() and stamp_file.exists() and json.loads(stamp_file.read_text())["inputs"] == stamp:
        return {"lang": lang, "path": str(target), "bytes": target.stat().st_size,
                "pages": len(PdfReader(target).pages), "seconds": 0.0, "unchanged": True}
    server.books[path] = document
    draft = print_pdf(browser, server.url + path, footer=True)
    destinations = toc_destinations(draft, entries)
    toc_sheets = destinations[0][0] - 1                 # the contents, then the first part's divider sheet
    # The contents again, alone, with the numbers: the same sheets, laid out the same way, put in place of
    # the placeholders' (keeping their links, whose boxes have not moved).
    numbers = page_numbers(entries, destinations)
    _, toc_document, _ = book_html(site, lang, spec, parts, numbers)
    toc_path = f"/{lang}/_book/contents.html"
    server.books[toc_path] = toc_document
    toc = print_pdf(browser, server.url + toc_path, footer=True)
    if len(PdfReader(io.BytesIO(toc)).pages) == toc_sheets:
        body = replace_contents(draft, toc, toc_sheets, lang)
    else:
        # The contents printed alone took another number of sheets than in the book: print the whole book
        # with its numbers until they hold (the numbers move only if the contents' length does).
        for _ in range(3):
            document, _, entries = book_html(site, lang, spec, parts, numbers)
            server.books[path] = document
            body = print_pdf(browser, server.url + path, footer=True)
            destinations = toc_destinations(body, entries)
            again = page_numbers(entries, destinations)
            if again == numbers:
                break
            numbers = again
        else:
            raise PdfError(f"{lang}: the contents' page numbers do not settle after three printings")
    cover_path = f"/{lang}/_book/cover.html"
    server.books[cover_path] = cover_html(spec, lang, package()[1])
    cover = print_pdf(browser, server.url + cover_path, footer=False)
    data = finish(body, cover, entries, destinations, spec, lang)
    out.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(".tmp")
    tmp.write_bytes(data)
    tmp.replace(target)
    seconds = round(time.perf_counter() - start, 1)
    stamp_file.write_text(json.dumps({"inputs": stamp, "seconds": seconds}), encoding="utf8")
    return {"lang": lang, "path": str(target), "bytes": len(data), "pages": len(PdfReader(io.BytesIO(data)).pages),
            "seconds": seconds, "unchanged": False}


def inputs_digest(site: Path, document: str, cover: str) -> str:
    """What a book is made of: its HTML, every stylesheet, image and font file it may load, this script."""
    digest = hashlib.sha256()
    for part in (document, cover, Path(__file__).read_text(encoding="utf8")):
        digest.update(part.encode("utf8") + b"\0")
    for folder in ("_static", "_images"):
        for path in sorted((site / folder).rglob("*")):
            if path.is_file() and path.suffix in (".css", ".png", ".svg", ".woff", ".woff2", ".jpg"):
                digest.update(path.relative_to(site).as_posix().encode() + path.read_bytes())
    return digest.hexdigest()


def chromium(executable: str | None = None):
    from playwright.sync_api import sync_playwright
    executable = executable or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(executable).exists():
        raise PdfError("the books are printed by Chromium: apt-get install chromium (or set $CHROMIUM)")
    manager = sync_playwright().start()
    try:
        return manager, manager.chromium.launch(executable_path=executable, args=CHROMIUM_FLAGS)
    except Exception:
        manager.stop()
        raise


def build(langs: list[str] | None = None, site: Path | None = None, out: Path | None = None,
          executable: str | None = None, force: bool = False, into_site: bool = True) -> list[dict]:
    """Print the books of ``langs`` (all built languages) from ``site`` into ``out``, unless a book
    is there already made of the same inputs (``force``: print anyway); copy them into the site
    (``into_site``; the site's next assembly would, too)."""
    import os
    site = site or build_site.OUT
    out = out or build_site.BUILD / "pdf"
    info_path = site / "build-info.json"
    if not info_path.exists():
        raise PdfError(f"{site} is not built: run `make book` first")
    info = json.loads(info_path.read_text(encoding="utf8"))
    codes = [s["code"] for s in info["languages"]]
    langs = langs or codes
    unknown = sorted(set(langs) - set(codes))
    if unknown:
        raise PdfError(f"no site built for {unknown}; built: {codes}")
    manager, browser = chromium(executable or os.environ.get("CHROMIUM"))
    server = Server(site)
    try:
        results = [build_book(browser, server, site, lang, info, out, force) for lang in langs]
    finally:
        server.close()
        browser.close()
        manager.stop()
    if into_site:
        for r in results:
            shutil.copyfile(r["path"], site / r["lang"] / pdf_name(r["lang"]))
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", action="append", help="only this language (repeatable)")
    parser.add_argument("--force", action="store_true", help="print every book, even one whose inputs are unchanged")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        results = build(args.lang, force=args.force)
    except PdfError as error:
        print(f"the PDF books could not be made: {error}")
        return 1
    # the site's pages offer the books now (tools/build_site.py keeps the entry only where the file exists)
    try:
        code = subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py"), "--assemble-only"], cwd=ROOT,
                              timeout=600).returncode
    except subprocess.TimeoutExpired:
        print("the site's assembly did not finish in 600 s: the download menus do not offer the books yet")
        code = 1
    for r in results:
        took = "unchanged" if r["unchanged"] else f"{r['seconds']:.0f} s"
        print(f"[{r['lang']}] {r['path']}: {r['pages']} pages, {r['bytes'] / 2**20:.1f} MiB, {took}")
    print(f"PDF books built in {time.perf_counter() - start:.0f} s")
    return code


if __name__ == "__main__":
    sys.exit(main())
