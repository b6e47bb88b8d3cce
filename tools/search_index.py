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
finds in the site's Chinese text, with the course glossary (docs/glossary.md)
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
from course_i18n.catalogue import texts
from tools.static_math import tex_to_text

ROOT = Path(__file__).resolve().parent.parent
SKIP_TAGS = {"script", "style", "noscript", "template"}
SKIP_CLASSES = {"quiz", "headerlink", "toctree-wrapper", "course-nav", "caption-number", "copybtn",
                "course-print-answers"}
BLOCK_TAGS = {"p", "div", "li", "tr", "td", "th", "pre", "h1", "h2", "h3", "h4", "br", "section", "figcaption",
              "dt", "dd", "table", "ul", "ol", "summary", "details", "blockquote"}


CODE_CLASSES = {"cell_input", "cell_output"}      # a notebook's code cells and their outputs
# The words of site/static/course-search.js, in English; the index carries them in its language ("texts").
WORDS = texts("site.search", {
    # the heading of the results, on the search page
    "heading": "Search results",
    # above the results ({n}: how many sections were found)
    "found": "Sections found: {n}.",
    # in place of the results when no section matches (the search has no categories to choose)
    "none": "No section matches this search. Check the spelling, or try other words.",
})


class _Sections(HTMLParser):
    """Collect, for each <section> inside <article class="bd-article">: its id, its heading, its own
    prose and its code (code cells and their outputs, kept apart: a page that uses a word in its
    code does not teach it)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_article = False
        self.stack = []             # open sections: dicts
        self.sections = []
        self.skip = 0               # depth of skipped elements
        self.code = 0               # depth of code blocks
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
        skipped = bool(self.skip) or tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)
        kind = "code" if (classes & CODE_CLASSES or tag == "pre") else ""
        self.open_tags.append((tag, skipped, kind))
        if skipped:
            self.skip += 1
            return
        if kind == "code":
            self.code += 1
        if tag == "section" and attrs.get("id"):
            entry = {"id": attrs["id"], "heading": "", "text": [], "code": [],
                     "parents": [e["id"] for e in self.stack]}
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
            name, skipped, kind = self.open_tags.pop()
            if skipped:
                self.skip -= 1
                continue
            if kind == "code":
                self.code -= 1
            if name == "section" and self.stack:
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
            self.stack[-1]["code" if self.code else "text"].append(data)


TEX = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)


def _squeeze(text: str) -> str:
    """Whitespace squeezed, and every formula (TeX, as Sphinx writes it) as a reader would type it."""
    text = TEX.sub(lambda m: " " + tex_to_text(m.group(1) or m.group(2)) + " ", text)
    return re.sub(r"\s+", " ", text).strip()


def page_sections(html_text: str) -> list[dict]:
    parser = _Sections()
    parser.feed(html_text)
    out = []
    for s in parser.sections:
        heading = _squeeze(s["heading"]).rstrip("#").strip()
        out.append({"id": s["id"], "heading": heading, "text": _squeeze("".join(s["text"])),
                    "code": _squeeze("".join(s["code"])), "parents": s["parents"]})
    return out


TERMS_FILE = ROOT / "site" / "search-terms.yml"


def search_terms(lang: str, path: Path = TERMS_FILE) -> dict[tuple[str, str], list[str]]:
    """{(page, anchor): [terms]} of site/search-terms.yml in one language ("" is the page's introduction).
    A malformed entry raises ValueError naming it."""
    import yaml
    entries = yaml.safe_load(path.read_text(encoding="utf-8")) or []
    out = {}
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict) or not isinstance(entry.get("section"), str):
            raise ValueError(f"{path.name}: entry {n} has no `section: page#anchor`")
        page, _, anchor = entry["section"].partition("#")
        terms = entry.get(lang)
        if not isinstance(terms, list) or not terms or not all(isinstance(t, (str, int)) and str(t).strip() for t in terms):
            raise ValueError(f"{path.name}: {entry['section']} needs a list of terms in {lang!r}, got {terms!r}")
        if "defined_in" in entry and (anchor or not re.fullmatch(r"sec-[\d-]+", str(entry["defined_in"]))):
            raise ValueError(f"{path.name}: {entry['section']}: `defined_in` belongs to a page's introduction "
                             f"and names one of its numbered sections (sec-1-4), got {entry['defined_in']!r}")
        key = (page, anchor)
        if key in out:
            raise ValueError(f"{path.name}: {entry['section']} is listed twice")
        out[key] = [str(t).strip() for t in terms]
    return out


def defined_in(path: Path = TERMS_FILE) -> dict[str, str]:
    """{page: anchor} of site/search-terms.yml's `defined_in`: the numbered section that defines the
    subject a chapter's introduction names (checked by search_terms)."""
    import yaml
    return {e["section"]: str(e["defined_in"]) for e in yaml.safe_load(path.read_text(encoding="utf-8")) or []
            if isinstance(e, dict) and "defined_in" in e}


GLOSSARY = ROOT / "docs" / "glossary.md"


def glossary_rows(glossary: Path = GLOSSARY) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the course glossary's tables: every table under "## Glossary", up to the
    next section of the page; each column is headed by its language's own name, the same in every table."""
    part = glossary.read_text(encoding="utf-8").split("\n## Glossary\n", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in part.splitlines() if line.startswith("|")]
    header = rows[0]
    rows = [cells for cells in rows if cells != header and not set(cells[0]) <= set("-: ")]
    if not rows or any(len(cells) != len(header) for cells in rows):
        raise ValueError(f"the glossary in {glossary.name} is not a set of tables of {len(header)} columns")
    return header, rows


def _terms_of(cell: str) -> list[str]:
    """The terms of one table cell of the glossary: code, maths and glosses in parentheses left out,
    cut at slashes, commas and semicolons (query / key / value)."""
    cell = re.sub(r"`[^`]*`|\([^)]*\)|（[^）]*）|\$[^$]*\$", " ", cell)
    return [piece.strip(" .") for piece in re.split(r"[/，,；;]| / ", cell) if piece.strip(" .")]


def _chinese(term: str) -> list[str]:
    """A Chinese term as the text writes it: a space only between Chinese and Latin (KV 缓存; none where
    a gloss in parentheses was left out), and cut where a one-letter symbol stands, which the text
    always spaces off: 词元嵌入表 E is 词元嵌入表, and 练习 N 参考解答 is 练习 and 参考解答."""
    parts = re.split(r"(?<!\w)[A-Z](?:_\w+)?(?!\w)", term)
    return [re.sub(r"(?<=[\u3400-\u9fff]) (?=[\u3400-\u9fff])", "", " ".join(part.split()))
            for part in parts if part.strip()]


def glossary_terms(lang: str, glossary: Path = GLOSSARY, chars: bool = False) -> list[str]:
    """The course glossary's terms in one language; with ``chars``, its Chinese terms of one character
    instead (头, 键, 值: words, though the cutting vocabulary holds words of two characters or more)."""
    header, rows = glossary_rows(glossary)
    if language(lang).name not in header:
        raise ValueError(f"the glossary in {glossary.name} has no column {language(lang).name!r}")
    column = header.index(language(lang).name)
    terms = set()
    for cells in rows:
        for piece in _terms_of(cells[column]):
            if lang == "zh":      # Chinese words only: 掩码 softmax and KV 缓存 are left to jieba
                terms |= {word for word in _chinese(piece) if re.fullmatch(r"[\u3400-\u9fff]+", word)
                          and (len(word) == 1 if chars else 1 < len(word) <= 12)}
            elif len(piece) > 1:
                terms.add(piece)
    return sorted(terms)


def glossary_pairs(lang: str, glossary: Path = GLOSSARY) -> list[tuple[str, str]]:
    """(English term, the term in ``lang``) of the course glossary, alternatives paired in order
    (query / key / value: 查询 / 键 / 值); a row whose parts do not pair up gives its first parts."""
    header, rows = glossary_rows(glossary)
    en, local = header.index(language("en").name), header.index(language(lang).name)
    pairs = []
    for cells in rows:
        a, b = _terms_of(cells[en]), _terms_of(cells[local])
        if len(a) != len(b):
            a, b = a[:1], b[:1]
        if lang == "zh":        # a term a symbol cuts in two (练习 N 参考解答) pairs with nothing
            b = [words[0] if len(words) == 1 else "" for words in map(_chinese, b)]
        pairs += [(x, y) for x, y in zip(a, b) if len(x) > 1 and len(y) > 1]
    return pairs


SYNONYMS_FILE = ROOT / "site" / "search-synonyms.yml"


def synonyms(lang: str, path: Path = SYNONYMS_FILE) -> list[list[str]]:
    """The groups of site/search-synonyms.yml in one language; a malformed group raises ValueError."""
    import yaml
    groups = (yaml.safe_load(path.read_text(encoding="utf-8")) or {}).get(lang)
    if not isinstance(groups, list):
        raise ValueError(f"{path.name}: no list of groups for {lang!r}")
    for group in groups:
        if not isinstance(group, list) or len(group) < 2 or not all(isinstance(w, str) and w.strip() and " " not in w.strip() for w in group):
            raise ValueError(f"{path.name}: {lang} group {group!r} is not a list of two or more single words")
    return [[w.strip().lower() for w in group] for group in groups]


def chinese_words(texts: list[str], glossary: list[str]) -> list[str]:
    """The words jieba cuts from the site's Chinese text, the glossary added to its dictionary: words
    of its dictionary only (no HMM guesses, which glue a character to its neighbour: 看自己, 的诗, 全是,
    and would keep a query's phrase whole where the section that teaches it says it otherwise)."""
    import jieba
    for term in glossary:
        jieba.add_word(term, freq=200000)
    words = set(glossary)
    for text in texts:
        for word in jieba.cut_for_search(text, HMM=False):
            if len(word) > 1 and re.fullmatch(r"[\u3400-\u9fff]+", word):
                words.add(word)
    return sorted(words)


SUMMARY = {"Summary", "小结", "总结", "Итоги", "Резюме"}    # a chapter's closing section recalls, not teaches


def _says(heading: str, term: str, lang: str) -> bool:
    """Whether a heading says a term: Chinese as written; Russian by each word's beginning
    (маска: маски, маской), the endings being what inflection changes."""
    heading = heading.lower().replace("ё", "е")
    if lang == "zh":
        return term.lower() in heading
    return all(re.search(r"(?<!\w)" + re.escape(w[:max(4, len(w) - 2)]), heading)
               for w in term.lower().replace("ё", "е").split())


def _unit(section: dict, top: str) -> str:
    """The numbered section (or the page's introduction, "") an unnumbered subsection belongs to:
    a result names the section the course numbers, and links to the subsection inside it."""
    for parent in reversed(section["parents"]):
        if parent == top:
            return ""
        if not parent.startswith("part-"):
            return parent
    return ""


def build(site_lang_dir: Path, lang: str, pages: list[str], terms_file: Path = TERMS_FILE) -> dict:
    """The index of one language's pages (``pages``: ``chapters/01_allowed_set``, ...): per section
    ``p`` page, ``a`` anchor, ``h`` heading, ``x`` prose, ``c`` code and outputs, ``k`` the terms of
    site/search-terms.yml, ``e`` (zh, ru) the same section's English terms (learners mix "mask" or
    "KV cache" into their queries), ``u`` the numbered section an unnumbered subsection belongs to (for a chapter's introduction:
    the section that defines its subject, site/search-terms.yml's ``defined_in``),
    ``s`` 1 for a chapter's summary, ``g`` (zh, ru) the English words of the glossary terms its
    heading says; ``synonyms``: site/search-synonyms.yml's groups. A term whose section is not on the site raises ValueError."""
    entries, titles = [], {}
    terms = search_terms(lang, terms_file)
    defining = defined_in(terms_file)
    english = search_terms("en", terms_file) if lang != "en" else {}
    glossary = glossary_pairs(lang) if lang != "en" else []
    for page in pages:
        path = site_lang_dir / f"{page}.html"
        if not path.exists():
            continue
        sections = page_sections(path.read_text(encoding="utf-8"))
        for k, section in enumerate(sections):
            if k == 0:
                titles[page] = section["heading"]
            if not section["text"] and not section["heading"] and not section["code"]:
                continue
            anchor = "" if k == 0 else section["id"]
            entry = {"p": page, "a": anchor, "h": section["heading"], "x": section["text"]}
            for key, value in (("c", section["code"]), ("k", terms.pop((page, anchor), None)),
                               ("e", english.get((page, anchor)))):
                if value:
                    entry[key] = value
            # the English words of the glossary terms its heading says (掩码 in a heading: mask)
            said = sorted({en for en, term in glossary if _says(section["heading"], term, lang)})
            if said:
                entry["g"] = said
            if anchor.startswith("part-"):
                entry["u"] = _unit(section, sections[0]["id"])
            elif not anchor and page in defining:       # the introduction counts for the section that defines its subject
                if not any(s["id"] == defining[page] for s in sections):
                    raise ValueError(f"{terms_file.name}: {page} is defined_in {defining[page]}, which is not a section of the {lang} page")
                entry["u"] = defining[page]
            # a chapter's summary, and the course's first page's introduction (which names every
            # chapter's claim), recall what the sections teach
            if re.sub(r"^[\d.]+\s*", "", section["heading"]) in SUMMARY or (page == pages[0] and not anchor):
                entry["s"] = 1
            entries.append(entry)
    missing = [f"{page}#{anchor}" if anchor else page for page, anchor in terms if page in pages]
    if missing:
        raise ValueError(f"{terms_file.name}: no such section on the {lang} site: {', '.join(missing)}")
    groups = synonyms(lang)
    # a one-word English glossary term typed into a zh or ru query finds the course's word (mask: 掩码)
    listed = {w for g in groups for w in g}
    for en, term in glossary:
        en, term = en.lower(), term.lower()
        if " " not in en and " " not in term and en not in listed and term not in listed:
            groups.append([en, term])
            listed |= {en, term}
    index = {"lang": lang, "texts": {name: words[lang] for name, words in WORDS.items()},
             "titles": titles, "sections": entries, "synonyms": groups}
    if lang == "zh":
        words = glossary_terms("zh") + [w for g in index["synonyms"] for w in g if re.search(r"[\u3400-\u9fff]", w)] + [t.replace(" ", "") for e in entries for t in e.get("k", ())
                                        if re.search(r"[\u3400-\u9fff]", t)]
        index["words"] = chinese_words([e["h"] + " " + e["x"] for e in entries], words)
        # the course's own words (glossary, terms, synonyms) stay whole in a query; a longer word jieba
        # found in the text may be cut into two of the site's words (检查模型: 检查, 模型)
        index["keep"] = sorted({w for w in words if len(w) >= 4})
        index["chars"] = glossary_terms("zh", chars=True)
    return index


def script(index: dict) -> str:
    """The index as a script (works from file:// too, unlike a fetched JSON)."""
    return "window.COURSE_SEARCH_INDEX = " + json.dumps(index, ensure_ascii=False, separators=(",", ":")) + ";\n"
