"""The site's search index: one entry per section of every page, for site/static/course-search.js.

Sphinx's own search ranks a page that merely mentions a word as high as the
page that teaches it, finds no Chinese word jieba did not cut out
(因果掩码, or a single character such as 掩), and starts its snippets wherever
the page's text starts.  This index keeps, for every section of every page
(``<section id="sec-2-3">`` and the page's top section): the page, its title,
the section's heading and anchor, and the section's own text (not that of its
subsections; code and outputs included, the questions of tools/quizzes.py,
scripts and the table of contents left out).  The script then ranks a section
whose heading holds the query above one whose text does, and a text that holds
it often above one that mentions it once, and starts each snippet at the match.

For Chinese, ``words`` is the vocabulary the query is cut with: the words jieba
finds in the site's Chinese text, with the course glossary (CONTRIBUTING.md)
added to jieba's dictionary first, so that 因果掩码 and 注意力权重 stay whole.
A query part that is not a word is looked up as it is (a substring), so single
characters are found too.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

from course_i18n import language

ROOT = Path(__file__).resolve().parent.parent
SKIP_TAGS = {"script", "style", "noscript", "template"}
SKIP_CLASSES = {"quiz", "headerlink", "toctree-wrapper", "course-nav", "caption-number", "copybtn",
                "course-print-answers"}
BLOCK_TAGS = {"p", "div", "li", "tr", "td", "th", "pre", "h1", "h2", "h3", "h4", "br", "section", "figcaption",
              "dt", "dd", "table", "ul", "ol", "summary", "details", "blockquote"}


class _Sections(HTMLParser):
    """Collect (anchor, heading, text) for each <section> inside <article class="bd-article">."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = 0              # nesting inside the article
        self.in_article = False
        self.stack = []             # open sections: dicts
        self.sections = []
        self.skip = 0               # depth of skipped elements
        self.heading = None         # the section whose heading is being read
        self.open_tags = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = set((attrs.get("class") or "").split())
        if tag == "article" and "bd-article" in classes:
            self.in_article = True
        if not self.in_article:
            return
        if tag in ("br", "img", "input", "hr", "meta", "link", "wbr"):
            if tag == "br":
                self._text(" ")
            return
        self.open_tags.append((tag, bool(self.skip) or tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)))
        if self.open_tags[-1][1]:
            self.skip += 1
            return
        if tag == "section" and attrs.get("id"):
            entry = {"id": attrs["id"], "heading": "", "text": []}
            self.stack.append(entry)
            self.sections.append(entry)
        elif tag in ("h1", "h2", "h3", "h4") and self.stack and not self.stack[-1]["heading"]:
            self.heading = self.stack[-1]
        if tag in BLOCK_TAGS:
            self._text(" ")

    def handle_endtag(self, tag):
        if not self.in_article:
            return
        if tag == "article":
            self.in_article = False
            return
        if not self.open_tags:
            return
        # tolerate unclosed tags: pop to the matching one
        for k in range(len(self.open_tags) - 1, -1, -1):
            if self.open_tags[k][0] == tag:
                break
        else:
            return
        while len(self.open_tags) > k:
            name, skipped = self.open_tags.pop()
            if skipped:
                self.skip -= 1
            elif name == "section" and self.stack:
                self.stack.pop()
            elif name in ("h1", "h2", "h3", "h4"):
                self.heading = None
        if tag in BLOCK_TAGS:
            self._text(" ")

    def handle_data(self, data):
        if self.in_article and not self.skip:
            self._text(data)

    def _text(self, data):
        if self.heading is not None:
            self.heading["heading"] += data
        elif self.stack:
            self.stack[-1]["text"].append(data)


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def page_sections(html_text: str) -> list[dict]:
    parser = _Sections()
    parser.feed(html_text)
    out = []
    for s in parser.sections:
        heading = _squeeze(s["heading"]).rstrip("#").strip()
        out.append({"id": s["id"], "heading": heading, "text": _squeeze("".join(s["text"]))})
    return out


def glossary_terms(lang: str, contributing: Path = ROOT / "CONTRIBUTING.md") -> list[str]:
    """The course glossary's terms in one language (the table under "## Glossary")."""
    text = contributing.read_text(encoding="utf-8")
    part = text.split("## Glossary", 1)[1].split("\n### ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in part.splitlines() if line.startswith("|")]
    header = rows[0]                          # each column is headed by its language's own name
    if language(lang).name not in header:
        raise ValueError(f"the glossary in {contributing.name} has no column {language(lang).name!r}")
    column = header.index(language(lang).name)
    terms = set()
    for cells in rows[1:]:
        if len(cells) != len(header) or set(cells[0]) <= set("-: "):
            continue
        cell = re.sub(r"`[^`]*`|\([^)]*\)|（[^）]*）", " ", cells[column])
        for piece in re.split(r"[/，,；;]| / ", cell):
            piece = piece.strip(" .")
            if lang == "zh":
                piece = piece.replace(" ", "")
                wanted = 1 < len(piece) <= 12 and not re.search(r"[A-Za-z]{2,}", piece)
            else:
                wanted = len(piece) > 1
            if wanted:
                terms.add(piece)
    return sorted(terms)


def chinese_words(texts: list[str], glossary: list[str]) -> list[str]:
    """The words jieba cuts from the site's Chinese text, the glossary added to its dictionary."""
    import jieba
    for term in glossary:
        jieba.add_word(term, freq=200000)
    words = set(glossary)
    for text in texts:
        for word in jieba.cut_for_search(text):
            if len(word) > 1 and re.fullmatch(r"[\u3400-\u9fff]+", word):
                words.add(word)
    return sorted(words)


def build(site_lang_dir: Path, lang: str, pages: list[str]) -> dict:
    """The index of one language's pages (``pages``: ``chapters/01_allowed_set``, ...)."""
    entries, titles = [], {}
    for page in pages:
        path = site_lang_dir / f"{page}.html"
        if not path.exists():
            continue
        for k, section in enumerate(page_sections(path.read_text(encoding="utf-8"))):
            if k == 0:
                titles[page] = section["heading"]
            if not section["text"] and not section["heading"]:
                continue
            entries.append({"p": page, "a": "" if k == 0 else section["id"],
                            "h": section["heading"], "x": section["text"]})
    index = {"lang": lang, "titles": titles, "sections": entries}
    if lang == "zh":
        index["words"] = chinese_words([e["h"] + " " + e["x"] for e in entries], glossary_terms("zh"))
    return index


def script(index: dict) -> str:
    """The index as a script (works from file:// too, unlike a fetched JSON)."""
    return "window.COURSE_SEARCH_INDEX = " + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + ";\n"
