"""Sphinx extension: the course site read as a linked book (loaded by every language build).

Everything here works on the doctree at build time, from patterns, so it
survives a rewrite of the prose:

* **§ references become links.**  Every ``§N`` and ``§N.M`` in running text,
  tables, lists and summaries (not in headings, code or maths) links to the
  chapter page of §N and the language-neutral anchor ``#sec-N-M`` (added by
  ``course_site.SectionAnchors``).  A notebook name written as code
  (```ex01_allowed_set```, ```exercises/en/ex01_allowed_set.ipynb```) links
  to its page.  ``tools/build_site.py`` checks every link and anchor of the
  assembled site, so a § that names no section fails the build.
* **Exercises are one click away.**  Each chapter §N ends with a link to its
  exercise page; each exercise page starts with the sections it practises (the
  § references of its text, else §N) and a link to its solutions; each
  solution page names the same sections and links back to the exercises.
* **Figures are numbered and captioned** in the page's language ("Figure 1.2"),
  with the first sentence of the figure's alt text as the caption.
* **A figure of several panels** (``figures.plots.PanelFigure``: its notebook
  output records each panel's box in the image) is shown as one box per panel,
  each cut from the same image file by CSS: each panel starts at the width
  where its smallest text is :data:`PANEL_TEXT_PX` and grows to its drawn size
  at most, so panels sit side by side where the column is wide enough and wrap
  otherwise (one per row on a phone); a column narrower than a panel shrinks it
  (course.css ``.course-panels``).
* **Questions** (``tools/quizzes.py``, sources in ``src/quizzes/``) are
  inserted at the end of their section; a key whose section is not on the page
  fails the build. Their answers are repeated at the end of the chapter, shown
  on paper only (the print stylesheet hides the questions' controls and folded
  answers).
* **How to run a notebook without installing anything.**  When ``_config.yml``
  names the repository, so that every notebook page has a Binder launch button,
  §0.5 ("How to read and run the notebooks", :data:`LAUNCH_NOTE`) ends with a
  paragraph that says where the button is and what Binder does; without the
  repository the page offers no such button, and §0.5 does not mention one.

Configuration values are written by ``tools/build_site.py``.
"""

from __future__ import annotations

import base64
import hashlib
import html as html_lib
import json
import posixpath
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.errors import ExtensionError
from sphinx.transforms import SphinxTransform

from course_i18n import LANGUAGES
from course_i18n.catalogue import texts

SECTION_REF = re.compile(r"§\s?(\d+)(?:\.(\d+))?")
NOTEBOOK_NAME = re.compile(r"^(?:(chapters|exercises|solutions)/(?:" + "|".join(LANGUAGES) + r")/)?"
                           r"((ex)?(\d\d)_[a-z0-9_]+)(?:\.ipynb)?$")
SKIP_INSIDE = (nodes.title, nodes.literal, nodes.literal_block, nodes.math, nodes.math_block, nodes.raw,
               nodes.reference, nodes.FixedTextElement, addnodes.pending_xref, nodes.caption)

WORDS = texts("site.book.words", {
    "figure": "Figure {n}",
    "exercises_end": "This section is practised in ",
    "solutions": "the solutions are in ",
    "exercises": "the exercises are in ",
    "practises": "This page practises ",
    "sep": "; ",
    "list_sep": ", ",
    "panel": "Panel {n} of {total} of this figure; the description is on panel 1",
    # on paper only (the print stylesheet): the answers of the chapter's questions, at its end
    "answers": "Answers to the questions",
})


# Where the site says how to run a notebook on Binder: §0.5, "How to read and run the notebooks".
LAUNCH_NOTE = ("chapters/00_start", "sec-0-5")
LAUNCH = texts("site.book.launch", {
    "binder": "**Without installing anything.** The launch menu (the rocket at the top of each notebook's "
              "page) opens that notebook on Binder, in the same language: mybinder.org builds the environment "
              "from the course's repository and runs JupyterLab in your browser. The first start takes a few "
              "minutes, and nothing you change there is kept: download a notebook you want to keep. The menu "
              "next to the rocket leads to the repository itself: its home page, the page's notebook file and "
              "the Python file that notebook is generated from (on an exercise's page, the file that holds its "
              "solutions).",
    "local": "The launch menu's other entry opens the notebook in your own JupyterLab: start it with "
             "`.venv/bin/jupyter lab` at the root of a copy of the repository (it runs at {url}).",
})


def _inline(text: str) -> list:
    """Docutils nodes for a sentence with ``**strong**`` and ```code``` in it (the launch note's only markup)."""
    parts = []
    for piece in re.split(r"(\*\*[^*]+\*\*|`[^`]+`)", text):
        if piece.startswith("**"):
            parts.append(nodes.strong(piece[2:-2], piece[2:-2]))
        elif piece.startswith("`"):
            parts.append(nodes.literal(piece[1:-1], piece[1:-1]))
        elif piece:
            parts.append(nodes.Text(piece))
    return parts


def insert_launch_note(app, doctree, docname) -> None:
    """§0.5 ends with how to run a notebook on Binder, when the pages have a Binder button (see LAUNCH_NOTE)."""
    launch = app.config.course_launch or {}
    if docname != LAUNCH_NOTE[0] or not (launch.get("repo_url") and launch.get("binderhub_url")):
        return
    section = next((s for s in doctree.findall(nodes.section) if LAUNCH_NOTE[1] in s["ids"]), None)
    if section is None:
        raise ExtensionError(f"{docname}: the note on Binder belongs at the end of #{LAUNCH_NOTE[1]}, "
                             "but the page has no such section (site/course_book.py, LAUNCH_NOTE)")
    lang = app.config.course_lang
    paragraphs = [LAUNCH["binder"][lang]]
    local = (launch.get("local_jupyterlab_url") or "").rstrip("/")
    if local:
        paragraphs.append(LAUNCH["local"][lang].format(url=local.rsplit("/lab/tree", 1)[0] + "/lab"))
    for text in paragraphs:
        section += nodes.paragraph("", "", *_inline(text), classes=["course-launch-note"])


def _word(app, key, **fmt):
    return WORDS[key].get(app.config.course_lang, WORDS[key]["en"]).format(**fmt)


def _pages(app):
    """{"1": "chapters/01_allowed_set"} and {"01": {"chapters": ..., "exercises": ..., "solutions": ...}}."""
    docs = app.config.course_docs.get(app.config.course_lang, ())
    chapters, by_number = {}, {}
    for doc in docs:
        kind, _, stem = doc.partition("/")
        m = re.match(r"(?:ex)?(\d\d)_", stem)
        if not m:
            continue
        by_number.setdefault(m.group(1), {})[kind] = doc
        if kind == "chapters":
            chapters[str(int(m.group(1)))] = doc
    return chapters, by_number


def _uri(fromdoc: str, todoc: str, anchor: str = "") -> str:
    if fromdoc == todoc:
        return "#" + anchor if anchor else "#"
    rel = posixpath.relpath(todoc, posixpath.dirname(fromdoc) or ".") + ".html"
    return rel + ("#" + anchor if anchor else "")


def _skipped(node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, SKIP_INSIDE):
            return True
        parent = parent.parent
    return False


def link_section_references(app, doctree, docname) -> set[str]:
    """Turn every ``§N(.M)`` of the page's text into a link; returns the numbers found."""
    chapters, _ = _pages(app)
    found = set()
    for text in list(doctree.findall(nodes.Text)):
        value = text.astext()
        if "§" not in value or _skipped(text):
            continue
        pieces, last = [], 0
        for m in SECTION_REF.finditer(value):
            target = chapters.get(m.group(1))
            if target is None:
                continue
            anchor = f"sec-{m.group(1)}-{m.group(2)}" if m.group(2) else ""
            found.add(f"{m.group(1)}.{m.group(2)}" if m.group(2) else m.group(1))
            if m.start() > last:
                pieces.append(nodes.Text(value[last:m.start()]))
            pieces.append(nodes.reference(m.group(0), m.group(0), internal=True, classes=["course-sec-ref"],
                                          refuri=_uri(docname, target, anchor)))
            last = m.end()
        if not pieces:
            continue
        if last < len(value):
            pieces.append(nodes.Text(value[last:]))
        parent = text.parent
        index = parent.index(text)
        parent[index:index + 1] = pieces
    return found


def link_notebook_names(app, doctree, docname) -> None:
    """```ex01_allowed_set``` and ```exercises/en/ex01_allowed_set.ipynb``` written as code link to the page."""
    _, by_number = _pages(app)
    for literal in list(doctree.findall(nodes.literal)):
        if isinstance(literal.parent, (nodes.reference, addnodes.pending_xref)) or _skipped(literal):
            continue
        m = NOTEBOOK_NAME.match(literal.astext().strip())
        if not m:
            continue
        kind = m.group(1) or ("exercises" if m.group(3) else "chapters")
        target = by_number.get(m.group(4), {}).get(kind)
        if target is None or not target.endswith("/" + m.group(2)):
            continue
        parent = literal.parent
        index = parent.index(literal)
        parent[index] = nodes.reference("", "", literal, internal=True, refuri=_uri(docname, target))


def _doc_link(docname: str, target: str):
    """A link whose text is the target page's title (resolved when the page is written)."""
    xref = addnodes.pending_xref("", nodes.inline("", ""), refdomain="std", reftype="doc",
                                 reftarget="/" + target, refexplicit=False, refdoc=docname, refwarn=True)
    return xref


def _sections_list(app, docname, numbers, chapters):
    items = []
    for num in sorted(numbers, key=lambda n: [int(p) for p in n.split(".")]):
        chapter, _, sub = num.partition(".")
        target = chapters.get(chapter)
        if target is None:
            continue
        if items:
            items.append(nodes.Text(_word(app, "list_sep")))
        items.append(nodes.reference("§" + num, "§" + num, internal=True, classes=["course-sec-ref"],
                                     refuri=_uri(docname, target, f"sec-{chapter}-{sub}" if sub else "")))
    return items


def _section_refs_of(app, docname) -> set[str]:
    """The §N(.M) that :func:`link_section_references` found in another page, read (serially, in name
    order: exercises/ before solutions/) before this one; a change to that page re-reads this one."""
    app.env.note_dependency(str(app.env.doc2path(docname)))
    return {ref.astext().lstrip("§") for ref in app.env.get_doctree(docname).findall(nodes.reference)
            if "course-sec-ref" in ref.get("classes", ())}


def add_exercise_links(app, doctree, docname, found) -> None:
    chapters, by_number = _pages(app)
    kind, _, stem = docname.partition("/")
    m = re.match(r"(?:ex)?(\d\d)_", stem)
    if not m or kind not in ("chapters", "exercises", "solutions"):
        return
    number = str(int(m.group(1)))
    family = by_number.get(m.group(1), {})
    top = next(iter(doctree.findall(nodes.section)), None)
    if top is None:
        return
    if kind == "chapters":
        if "exercises" not in family:
            return
        para = nodes.paragraph("", "", nodes.Text(_word(app, "exercises_end")),
                               _doc_link(docname, family["exercises"]), classes=["course-nav", "course-nav-end"])
        if "solutions" in family:
            para += [nodes.Text(_word(app, "sep") + _word(app, "solutions")), _doc_link(docname, family["solutions"])]
        top += para
        return
    if kind == "solutions" and "exercises" in family:
        # the sections its exercise page lists: the same tasks (the explanations cite more of §N)
        found = _section_refs_of(app, family["exercises"])
    # the section itself, and the subsections its text refers to
    practised = {number} | {n for n in found if "." in n and n.split(".")[0] == number}
    para = nodes.paragraph("", "", nodes.Text(_word(app, "practises")),
                           *_sections_list(app, docname, practised, chapters), classes=["course-nav"])
    other = "solutions" if kind == "exercises" else "exercises"
    if other in family:
        para += [nodes.Text(_word(app, "sep") + _word(app, other)), _doc_link(docname, family[other])]
    # right after the page's title
    title = top.next_node(nodes.title)
    top.insert(top.index(title) + 1, para)


class CourseFigure(nodes.figure):
    """A figure this extension numbers itself: Sphinx numbers only the exact class
    ``nodes.figure`` (numfig), so it would otherwise add a second number ("Fig. 2")."""


def _visit_course_figure(self, node):
    self.visit_figure(node)
    # Everything but the caption goes into one box: it is what scrolls sideways when the
    # figure is wider than the column (course.js), while the caption stays in place.
    node["course_start"] = len(self.body)
    self.body.append('<div class="course-figure-box">')


def _depart_course_figure(self, node):
    start = node.get("course_start", len(self.body))
    caption = next((i for i in range(start, len(self.body)) if self.body[i].lstrip().startswith("<figcaption")),
                   len(self.body))
    self.body.insert(caption, "</div>\n")
    self.depart_figure(node)


def caption_figures(app, doctree, docname) -> None:
    """Number every figure of a chapter page and caption it with its alt text's first sentence."""
    kind, _, stem = docname.partition("/")
    m = re.match(r"(\d\d)_", stem)
    if kind != "chapters" or not m:
        return
    chapter = int(m.group(1))
    count = 0
    for image in list(doctree.findall(nodes.image)):
        if isinstance(image.parent, nodes.figure) or "course-diagram-wide" in image.get("classes", []):
            continue
        alt = " ".join((image.get("alt") or "").split())
        if not alt:
            continue
        count += 1
        label = _word(app, "figure", n=f"{chapter}.{count}")
        first = re.split(r"(?<=[.。!?！？])\s*", alt, maxsplit=1)[0]
        caption = nodes.caption("", "", nodes.inline("", label + " ", classes=["caption-number"]),
                                nodes.Text(first))
        figure = CourseFigure("", classes=["course-figure"], ids=[f"fig-{chapter}-{count}"])
        shown = [image.parent if isinstance(image.parent, nodes.reference) else image]
        after = shown[0].parent[shown[0].parent.index(shown[0]) + 1:]
        if after and "course-diagram-wide" in after[0].get("classes", []):
            shown.append(after[0])                      # its side-by-side version (add_wide_diagrams)
        holder = shown[0]
        if isinstance(holder.parent, nodes.paragraph) and len(holder.parent.children) == len(shown):
            holder = holder.parent                      # a Markdown image alone in its paragraph
        outer = holder.parent
        index = outer.index(holder)
        for node in shown:
            if node is not holder:
                node.parent.remove(node)
            figure += node
        figure += caption
        outer[index] = figure


def add_wide_diagrams(app, doctree) -> None:
    """A tall diagram with a side-by-side version (``figures/NAME-wide.svg``, tools/diagrams.py)
    gets that version as a second image right after it; course.css shows the tall one on
    narrow screens and the wide one on wide screens. Runs before Sphinx collects the page's
    images (doctree-read, priority 400), so the wide file is copied like any other."""
    docname = app.env.docname
    folder = Path(app.srcdir) / posixpath.dirname(docname)
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if not (uri.endswith(".svg") and uri.startswith("figures/")) or uri.endswith("-wide.svg"):
            continue
        wide_uri = uri[:-len(".svg")] + "-wide.svg"
        if not (folder / wide_uri).exists():
            continue
        image["classes"] = list(image.get("classes", [])) + ["course-diagram-narrow"]
        wide = nodes.image(uri=wide_uri, alt=image.get("alt", ""), classes=["course-diagram-wide"])
        image.parent.insert(image.parent.index(image) + 1, wide)


PANELS_KEY = "course_panels"    # figures/plots.py PANELS_KEY (the site does not import the course)
PANEL_TEXT_PX = 11              # a panel's starting width: where its smallest text is this many CSS px


def _panel_layouts(path: Path) -> dict:
    """{sha256 of a PNG output: its panel layout} for the outputs of a notebook that record one."""
    try:
        notebook = json.loads(path.read_text(encoding="utf8"))
    except (OSError, ValueError):
        return {}
    layouts = {}
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            layout = output.get("metadata", {}).get(PANELS_KEY)
            png = output.get("data", {}).get("image/png")
            if layout and png:
                digest = hashlib.sha256(base64.b64decode("".join(png) if isinstance(png, list) else png)).hexdigest()
                layouts[digest] = layout
    return layouts


def mark_panel_figures(app, doctree, docname) -> None:
    """Give every image of a panel figure its layout (myst-nb names an output image by its sha256)."""
    images = [image for image in doctree.findall(nodes.image) if image.get("uri", "").endswith(".png")]
    if not images:
        return
    layouts = _panel_layouts(Path(app.env.doc2path(docname)))
    for image in images:
        layout = layouts.get(posixpath.basename(image["uri"])[:-len(".png")])
        if layout and len(layout.get("panels", ())) > 1:
            image["course_panels"] = layout
        elif layout and layout.get("smallest_px"):
            image["course_smallest_px"] = layout["smallest_px"]     # course.js: how far it may shrink


def _visit_image(self, node):
    layout = node.get("course_panels")
    if not layout:
        start = len(self.body)
        type(self).visit_image(self, node)
        if node.get("course_smallest_px"):
            for i in range(start, len(self.body)):
                if "<img " in self.body[i]:
                    self.body[i] = self.body[i].replace(
                        "<img ", f'<img data-smallest-px="{node["course_smallest_px"]}" ', 1)
                    break
        return
    start = len(self.body)
    type(self).visit_image(self, node)
    tag = "".join(self.body[start:])
    del self.body[start:]
    full_w = layout["width"]
    smallest = layout.get("smallest_px")
    # A panel starts at the width where its smallest text is PANEL_TEXT_PX (its flex basis) and grows
    # up to its drawn size: panels that fit side by side at that width share a line, the others wrap
    # (one per line on a phone); a column narrower than the basis shrinks the panel.
    scale = min(1.0, PANEL_TEXT_PX / smallest) if smallest else 1.0
    lang = self.config.course_lang
    out = [f'<div class="course-panels" data-smallest-px="{smallest}">' if smallest else '<div class="course-panels">']
    total = len(layout["panels"])
    for n, (x, y, w, h) in enumerate(layout["panels"]):
        style = (f"width: {100 * full_w / w:.4f}%; left: {-100 * x / w:.4f}%; top: {-100 * y / h:.4f}%")
        img = tag.replace("<img ", f'<img style="{style}" ', 1)
        if n:   # the full description once, on the first panel; the others say what they are
            words = WORDS["panel"].get(lang, WORDS["panel"]["en"]).format(n=n + 1, total=total)
            img = re.sub(r'alt="[^"]*"', f'alt="{words}"', img, count=1)
        out.append(f'<div class="course-panel" style="flex: 1 1 {min(w, round(w * scale))}px; max-width: min(100%, {w}px); '
                   f'aspect-ratio: {w} / {layout["panels"][n][3]}">{img}</div>')
    out.append("</div>")
    self.body.append("".join(out))


def _depart_image(self, node):
    if not node.get("course_panels"):
        type(self).depart_image(self, node)


def insert_quizzes(app, doctree, docname) -> None:
    quizzes = (app.config.course_quizzes or {}).get(docname)
    if not quizzes:
        return
    sections = {}
    for section in doctree.findall(nodes.section):
        for anchor in section["ids"]:
            sections.setdefault(anchor, section)
    for anchor, html in quizzes:
        section = sections.get(anchor)
        if section is None:
            raise ExtensionError(f"{docname}: questions for #{anchor}, but the page has no such section "
                                 f"(sections: {', '.join(sorted(sections))})")
        section += nodes.raw("", html, format="html")


TABLE = re.compile(r'<table class="table">.*?</table>', re.S)
CARD_COLUMNS = 3     # a prose table of this many columns or more reads as cards on a phone


def _cell_text(cell_html: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", cell_html)).split())


SHORT_NUMBER = re.compile(r"[−-]?\d[\d.,]{0,2}")


def _grid_of_numbers(table: str) -> bool:
    """A table whose cells, after each row's label, are all numbers of at most 3 characters
    (§7's five seeds: docs/glossary.md, "§7's tables of seeds are asserted") is read across
    its columns, and its columns are narrow: it stays a grid on a phone, where it fits a 360 px
    column (as cards, each of its values would take a line of its own)."""
    body = re.search(r"<tbody>(.*?)</tbody>", table, re.S)
    rows = re.findall(r"<tr\b.*?</tr>", body.group(1), re.S) if body else []
    values = [_cell_text(cell) for row in rows
              for cell in re.findall(r"<td\b[^>]*>(.*?)</td>", row, re.S)[1:]]
    return bool(values) and all(SHORT_NUMBER.fullmatch(value) for value in values)


def table_cards(body: str) -> str:
    """Prose tables of CARD_COLUMNS columns or more (not a notebook's dataframes: those have
    class "dataframe") read as one card per row on a phone (course.css, narrow screens):
    each cell carries its column's heading (``data-label``), shown before it there. The
    table keeps its roles (``role="table"`` ...), which CSS ``display: block`` would
    otherwise take away from it in some browsers. A table with merged cells is left as
    it is (it scrolls sideways in its own box, with a cue: course.js), and so are a grid of short
    numbers (:func:`_grid_of_numbers`), a table without a header row and one that holds another."""
    def cards(match):
        table = match.group(0)
        if re.search(r"\b(?:colspan|rowspan)=", table) or "<thead" not in table or "<table" in table[6:]:
            return table
        head = re.search(r"<thead>(.*?)</thead>", table, re.S).group(1)
        labels = [_cell_text(h) for h in re.findall(r"<th\b[^>]*>(.*?)</th>", head, re.S)]
        if len(labels) < CARD_COLUMNS or _grid_of_numbers(table):
            return table

        def row(tr):
            column = iter(range(10 ** 6))
            cells = re.sub(r"<td\b", lambda _m: f'<td role="cell" data-label="{html_lib.escape(labels[min(next(column), len(labels) - 1)], quote=True)}"',
                           tr.group(0))
            return cells.replace("<tr", '<tr role="row"', 1)

        table = table.replace('<table class="table">', '<table class="table course-cards" role="table">', 1)
        table = re.sub(r"<(thead|tbody)>", r'<\1 role="rowgroup">', table)
        table = re.sub(r"<th\b", '<th role="columnheader"', table)
        return re.sub(r"<tr\b.*?</tr>", row, table, flags=re.S)
    return TABLE.sub(cards, body)


def cards_for_tables(app, pagename, templatename, context, doctree):
    if context.get("body"):
        context["body"] = table_cards(context["body"])


QUIZ_QUESTION = re.compile(r'<div class="quiz-q"[^>]*>\s*(<p class="quiz-prompt"[^>]*>.*?</p>).*?'
                           r'<details class="quiz-answer"><summary>.*?</summary>(.*?)</details>', re.S)
QUIZ_HEADING = re.compile(r'<p class="quiz-heading"[^>]*>(.*?)<span class="quiz-progress"', re.S)


def print_answers(app, doctree, docname) -> None:
    """At the end of a chapter, the answers of its questions, for paper: shown only by the print
    stylesheet (course.css), so a printed page or the book (tools/build_pdf.py) has the
    questions in their sections, without their controls, and the answers here, not empty forms."""
    quizzes = (app.config.course_quizzes or {}).get(docname)
    top = next(iter(doctree.findall(nodes.section)), None)
    if not quizzes or top is None:
        return
    parts = [f'<div class="course-print-answers"><h2>{html_lib.escape(_word(app, "answers"))}</h2>']
    for _, quiz in quizzes:
        heading = QUIZ_HEADING.search(quiz)
        if heading:
            parts.append(f"<h3>{heading.group(1).strip()}</h3>")
        for prompt, answer in QUIZ_QUESTION.findall(quiz):
            prompt = re.sub(r'\s(?:id|class)="[^"]*"', "", prompt)
            parts.append(f'<div class="course-answers-q">{prompt}{answer}</div>')
    parts.append("</div>")
    top += nodes.raw("", "\n".join(parts), format="html")


class BookLinks(SphinxTransform):
    """Questions, § links, exercise links and figure captions (see the module docstring).

    Runs after course_site.SectionAnchors gave sections their ``sec-N-M`` ids
    (880; Sphinx's doctree-read event is a transform of the same priority)."""
    default_priority = 885

    def apply(self, **kwargs) -> None:
        app, doctree, docname = self.app, self.document, self.env.docname
        insert_launch_note(app, doctree, docname)           # before the section's questions
        insert_quizzes(app, doctree, docname)
        found = link_section_references(app, doctree, docname)
        link_notebook_names(app, doctree, docname)
        add_exercise_links(app, doctree, docname, found)
        print_answers(app, doctree, docname)
        caption_figures(app, doctree, docname)
        mark_panel_figures(app, doctree, docname)


def setup(app):
    app.add_config_value("course_quizzes", {}, "env")
    app.add_config_value("course_book_version", "", "env")    # digest of this file: re-read pages when it changes
    app.add_node(CourseFigure, html=(_visit_course_figure, _depart_course_figure))
    app.add_node(nodes.image, override=True, html=(_visit_image, _depart_image))
    app.add_transform(BookLinks)
    app.connect("doctree-read", add_wide_diagrams, priority=400)
    app.connect("html-page-context", cards_for_tables)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
