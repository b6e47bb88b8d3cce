"""Sphinx extension for the course website (loaded by every language build).

It adds what the theme does not do for a site built three times from one source:

* ``course_switcher`` in the page context: links to the same page in the other
  languages (site layout ``<root>/<lang>/<pagename>.html``), used by the
  ``lang-switcher.html`` template and the ``hreflang`` alternates in ``layout.html``;
* launch buttons (Binder and a local JupyterLab) and source links (the
  repository, the page's notebook in it and the source in ``src/`` it is
  generated from) whose notebook path is the path in the repository
  (``chapters/<lang>/NN.ipynb``), which the theme cannot compute because each
  build sees ``chapters/NN.ipynb``; all of them only when ``_config.yml`` names
  the repository;
* the course's wheel next to the ``.ipynb`` in every notebook page's download menu, and the
  ``.ipynb`` entry's tooltip naming it this page's notebook;
* the footer's version and licences, in the page's language;
* the project's own message catalogs for zh_CN and ru, which take precedence
  over the theme's and Sphinx's (they fix and complete them: add_catalogs);
* language-neutral section anchors (``#sec-2-3`` for the heading "2.3 ...", the
  same in every language), so the switcher can keep the reader's place;
* per-page assets: MathJax only on a page that shows a widget and has math
  (elsewhere the formulas are typeset at build time), the widget runtime only
  where the page shows a widget, and every entry of
  :data:`PAGE_ASSETS` only on the pages whose HTML contains its marker.

Configuration values are written by ``tools/build_site.py``.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from docutils import nodes
from sphinx import locale
from sphinx.locale import get_translation
from sphinx.transforms import SphinxTransform

from course_i18n.catalogue import text, texts

HERE = Path(__file__).resolve().parent
booktheme = get_translation("booktheme")


def repo_parts(url: str):
    """Return (provider, org, repo) for a GitHub/GitLab URL, else (None, None, None)."""
    url = url.strip().rstrip("/")
    if url.endswith(".git"):
        url = url[:-4]
    for host, provider in (("github.com/", "github"), ("gitlab.com/", "gitlab")):
        if host in url:
            parts = url.split(host, 1)[1].split("/")
            if len(parts) >= 2 and parts[0] and parts[1]:
                return provider, parts[0], parts[1]
    return None, None, None


def repo_path(pagename: str, lang: str, suffix: str = ".ipynb") -> str:
    """``chapters/02_heads`` in the ``en`` build is ``chapters/en/02_heads.ipynb`` in the repository."""
    head, _, rest = pagename.partition("/")
    if not rest:
        return f"{lang}/{pagename}{suffix}"
    return f"{head}/{lang}/{rest}{suffix}"


def source_path(pagename: str) -> str:
    """The file of ``src/`` a notebook page is generated from: ``src/chapters/02_heads.py``; an
    exercise comes from its solved source, ``src/solutions/ex02_heads.py``."""
    kind, _, stem = pagename.partition("/")
    return f"src/{'solutions' if kind == 'exercises' else kind}/{stem}.py"


def repository_files(launch: dict) -> tuple[str, str | None]:
    """(the repository's page, the URL its files are shown under on the branch, or None when the host
    is not GitHub or GitLab); ("", None) when no repository is set."""
    repo_url = (launch.get("repo_url") or "").strip().rstrip("/")
    repo_url = repo_url[:-4] if repo_url.endswith(".git") else repo_url
    provider, _, _ = repo_parts(repo_url)
    if provider is None:
        return repo_url, None
    return repo_url, f"{repo_url}{'/-' if provider == 'gitlab' else ''}/blob/{quote(launch.get('branch') or 'main', safe='')}"


def source_links(launch: dict, pagename: str, lang: str, notebook: bool = True) -> list[dict]:
    """The repository and, on a notebook page of a GitHub or GitLab repository, the page's notebook
    and its source in ``src/`` as the host shows them (pure function, unit-tested)."""
    repo_url, blob = repository_files(launch)
    if not repo_url or not launch.get("source_buttons", True):
        return []
    links = [{"name": "repository", "url": repo_url, "path": ""}]
    if notebook and blob:
        for name, path in (("notebook", repo_path(pagename, lang)), ("source", source_path(pagename))):
            links.append({"name": name, "url": f"{blob}/{path}", "path": path})
    return links


def launch_links(launch: dict, pagename: str, lang: str) -> list[dict]:
    """The launch URLs for one notebook page (pure function, unit-tested)."""
    repo_url = (launch.get("repo_url") or "").strip().rstrip("/")
    if not repo_url:
        return []
    branch = launch.get("branch") or "main"
    interface = "lab/tree" if launch.get("notebook_interface", "jupyterlab") == "jupyterlab" else "tree"
    path = repo_path(pagename, lang)
    links = []
    binder = (launch.get("binderhub_url") or "").rstrip("/")
    if binder:
        provider, org, repo = repo_parts(repo_url)
        if provider == "github":
            base = f"{binder}/v2/gh/{org}/{repo}/{quote(branch, safe='')}"
        elif provider == "gitlab":
            base = f"{binder}/v2/gl/{org}%2F{repo}/{quote(branch, safe='')}"
        else:
            base = f"{binder}/v2/git/{quote(repo_url, safe='')}/{quote(branch, safe='')}"
        links.append({"name": "binder", "url": f"{base}?urlpath={interface}/{path}"})
    local = (launch.get("local_jupyterlab_url") or "").rstrip("/")
    if local:
        links.append({"name": "jupyterlab", "url": f"{local}/{path}"})
    return links


def switcher(app, pagename: str) -> list[dict]:
    """Links from this page to its counterparts (or the language's root page)."""
    here = app.config.course_lang
    docs = app.config.course_docs
    roots = app.config.course_roots
    up = "../" * (pagename.count("/") + 1)        # from this page up to the site root
    items = []
    for lang in app.config.course_languages:
        code = lang["code"]
        special = pagename in ("search", "genindex")
        exists = special or pagename in docs.get(code, ())
        target = pagename if exists else roots.get(code, pagename)
        items.append({
            "code": code,
            "label": lang["label"],
            "html_lang": lang["html_lang"],
            "href": f"{up}{code}/{target}.html",
            "current": code == here,
            "exists": exists,
        })
    return items


def add_switcher(app, pagename, templatename, context, doctree):
    # Runs before the theme drops templates that render empty (priority 500).
    context["course_switcher"] = switcher(app, pagename)
    context["course_switcher_label"] = app.config.course_switcher_label
    context["course_switcher_current"] = app.config.course_switcher_current
    context["course_lang"] = app.config.course_lang


def is_notebook(app, pagename, context) -> bool:
    return "kernelspec" in app.env.metadata.get(pagename, {}) or ".ipynb" in (context.get("page_source_suffix") or "")


# one phrase, not the theme's "Launch on" + " Binder": zh and ru put the name inside the phrase
LAUNCH_TOOLTIP = text("site.launch.binder_tooltip", "Launch on Binder")


def add_launch_buttons(app, pagename, templatename, context, doctree):
    # Runs after the theme has built its header buttons (priority 501).
    links = launch_links(app.config.course_launch, pagename, app.config.course_lang) \
        if is_notebook(app, pagename, context) else []
    if not links:
        return
    lang = app.config.course_lang
    buttons = []
    for link in links:
        if link["name"] == "binder":
            buttons.append({"type": "link", "text": "Binder", "url": link["url"],
                            "tooltip": LAUNCH_TOOLTIP[lang],
                            "icon": "_static/images/logo_binder.svg"})
        else:
            buttons.append({"type": "link", "text": booktheme("JupyterLab (local)"), "url": link["url"],
                            "tooltip": booktheme("Open in JupyterLab (local server)"),
                            "icon": "fa-solid fa-laptop-code"})
    group = {"type": "group", "tooltip": booktheme("Launch interactive content"),
             "icon": "fas fa-rocket", "buttons": buttons, "label": "launch-buttons"}
    header_buttons = context.setdefault("header_buttons", [])
    position = next((i for i, b in enumerate(header_buttons) if b.get("label") == "download-buttons"),
                    len(header_buttons))
    header_buttons.insert(position, group)


SOURCE = texts("site.source", {
    "tooltip": "This page in the repository",
    "repository": "Repository",
    "notebook": "Notebook: {path}",
    "source": "Source: {path}",
    "source_tooltip": "The Python file in the repository from which this page's notebook is generated in every "
                      "language",
    # an exercise page's source is its solved file in src/solutions/ (source_path): say it shows the answers
    "source_tooltip_exercise": "The Python file in the repository from which this page's notebook is generated in "
                               "every language; it holds the solutions, so opening it shows the answers",
})


def source_tooltip(pagename: str) -> str:
    """The name of the Source entry's tooltip: an exercise page's own, which says the file holds the
    solutions (source_path sends it to src/solutions/), else the general one."""
    return "source_tooltip_exercise" if pagename.partition("/")[0] == "exercises" else "source_tooltip"


def add_source_buttons(app, pagename, templatename, context, doctree):
    """The repository, this page's notebook in it and the source in src/ it is generated from: one
    button (the repository) on other pages or hosts, a menu on a notebook page of GitHub or GitLab."""
    lang = app.config.course_lang
    links = source_links(app.config.course_launch, pagename, lang, is_notebook(app, pagename, context))
    if not links:
        return
    provider, _, _ = repo_parts(links[0]["url"])
    icon = f"fab fa-{provider}" if provider else "fas fa-code-branch"
    buttons = []
    for link in links:
        if link["name"] == "repository":
            buttons.append({"type": "link", "text": SOURCE["repository"][lang], "url": link["url"],
                            "tooltip": SOURCE["repository"][lang], "icon": icon,
                            "label": "source-repository-button"})
        else:
            buttons.append({"type": "link", "text": SOURCE[link["name"]][lang].format(path=link["path"]),
                            "url": link["url"], "icon": "fas fa-code" if link["name"] == "source" else "fas fa-book",
                            "tooltip": SOURCE[source_tooltip(pagename)][lang] if link["name"] == "source"
                            else SOURCE["tooltip"][lang], "label": f"source-{link['name']}-button"})
    if len(buttons) == 1:
        buttons[0]["text"] = ""                   # one button: the icon alone, as the theme shows it
        entry = buttons[0]
    else:
        entry = {"type": "group", "tooltip": SOURCE["tooltip"][lang], "icon": icon, "buttons": buttons,
                 "label": "source-buttons"}
    # right after the launch menu (§0.5 says "the menu next to the rocket"), else first
    header_buttons = context.setdefault("header_buttons", [])
    launch = next((i for i, b in enumerate(header_buttons) if b.get("label") == "launch-buttons"), -1)
    header_buttons.insert(launch + 1, entry)


WHEEL_TOOLTIP = text("site.download.wheel_tooltip",
                     "The course's package: install it with %pip install unless you run this notebook on Binder "
                     "or in a copy of the course's repository")


# the theme calls the .ipynb entry "Download source file", but the site's Source is the Python file in src/
NOTEBOOK_TOOLTIP = text("site.download.notebook_tooltip", "This page's notebook (.ipynb), to run in your own Jupyter")


def add_wheel_download(app, pagename, templatename, context, doctree):
    """Every notebook page: the .ipynb entry of the download menu named as this page's notebook (the
    theme's tooltip calls it the source file, a name the source menu gives the Python file in src/),
    and the course's wheel next to it, since every notebook imports the course's code (an exercise's
    first cell names the one %pip line; §0.5 says it for the chapters)."""
    if not is_notebook(app, pagename, context):
        return
    group = next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)
    if group is None:
        return
    lang = app.config.course_lang
    for button in group.get("buttons", []):
        if button.get("label") == "download-source-button":
            button["tooltip"] = NOTEBOOK_TOOLTIP[lang]
    wheel = app.config.course_wheel
    if not wheel:
        return
    group.setdefault("buttons", []).append({
        "type": "link", "text": ".whl", "url": context["pathto"](f"_static/{wheel}", 1),
        "tooltip": WHEEL_TOOLTIP[lang],
        "icon": "fas fa-download", "label": "download-wheel-button"})


BOOK_PDF_TOOLTIP = text("site.download.book_pdf_tooltip", "The whole course as one PDF book, in this language")
BOOK_PDF_TEXT = text("site.download.book_pdf", "Whole course (.pdf)")


def add_book_pdf_download(app, pagename, templatename, context, doctree):
    """Every page with a download menu offers the PDF book of its language (tools/build_pdf.py).
    The site's assembly (tools/build_site.py) drops the entry while no book has been printed."""
    name = app.config.course_book_pdf
    group = next((b for b in context.get("header_buttons", []) if b.get("label") == "download-buttons"), None)
    if not name or group is None:
        return
    lang = app.config.course_lang
    group.setdefault("buttons", []).append({
        "type": "link", "text": BOOK_PDF_TEXT[lang], "url": context["pathto"](name, 1),
        "tooltip": BOOK_PDF_TOOLTIP[lang], "icon": "fas fa-book", "label": "download-book-pdf-button"})


# The footer of every page: the course's version and its two licences (LICENSE says which covers what).
FOOTER = texts("site.footer", {
    "version": "Version {version}",
    "licences": "Code: {mit} · Text and figures: {cc}",
    "mit": "MIT License",
    # the licence's summary in the reader's language (creativecommons.org has one per language)
    "cc_url": "https://creativecommons.org/licenses/by-sa/4.0/deed.en",
    "licence_file": "Which files each licence covers",
})


MIT_URL = "https://opensource.org/license/mit"


def footer(launch: dict, version: str, lang: str):
    """The footer line (Markup): the version, the two licences, and the repository's LICENSE when it is set."""
    from markupsafe import Markup, escape

    def link(url, words):
        return Markup('<a href="{}">{}</a>').format(url, words)

    licences = Markup(escape(FOOTER["licences"][lang])).format(
        mit=link(MIT_URL, FOOTER["mit"][lang]),
        cc=link(FOOTER["cc_url"][lang], Markup('<span lang="en">CC BY-SA 4.0</span>')))
    parts = [escape(FOOTER["version"][lang].format(version=version)), licences]
    _, blob = repository_files(launch)
    if blob:
        parts.append(link(f"{blob}/LICENSE", FOOTER["licence_file"][lang]))
    return Markup(" · ").join(parts)


def add_footer(app, pagename, templatename, context, doctree):
    context["course_footer"] = footer(app.config.course_launch, app.config.course_version, app.config.course_lang)


# --------------------------------------------------------------------------- section anchors

SECTION_NUMBER = re.compile(r"^\s*§?\s*(\d+(?:\.\d+)*)\.?(?:\s|$)")


def section_anchor(title: str) -> str | None:
    """``sec-2-3`` for a heading that starts with its number ("2.3 Masks", "§2.3", "2. ..."), else None."""
    match = SECTION_NUMBER.match(title)
    return "sec-" + match.group(1).replace(".", "-") if match else None


class SectionAnchors(SphinxTransform):
    """Give every section a language-neutral first id.

    Headings are numbered the same way in the three languages, so ``#sec-2-3``
    names the same place on the zh, en and ru page; an unnumbered heading gets
    ``part-K`` (its rank among the page's unnumbered headings, which the three
    languages also share). The slug ids docutils made from the heading text stay
    as secondary ids, so old links keep working. Runs before the toctree
    collector, so the page's table of contents links to the neutral ids too.
    """
    default_priority = 880

    def apply(self, **kwargs) -> None:
        used = set(self.document.ids)
        unnumbered = 0
        for section in self.document.findall(nodes.section):
            title = section.next_node(nodes.title)
            anchor = section_anchor(title.astext()) if title is not None else None
            if anchor is None or anchor in used:
                unnumbered += 1
                anchor = f"part-{unnumbered}"
                while anchor in used:
                    anchor += "x"
            used.add(anchor)
            section["ids"].insert(0, anchor)
            self.document.ids[anchor] = section


# --------------------------------------------------------------------------- per-page assets

@dataclass(frozen=True)
class PageAsset:
    """A script or stylesheet (a file in ``site/static/``) that only some pages need.

    It is loaded on a page exactly when the page's HTML body contains ``marker``
    (for example the class name of the element the script drives). ``.js`` files
    are loaded with ``defer``, ``.css`` files as stylesheets.
    """
    file: str
    marker: str


# One line per page-specific asset. tests/test_site.py checks, on every page,
# that each one is loaded exactly where its marker occurs.
PAGE_ASSETS: tuple[PageAsset, ...] = (
    # figures/interactive.py writes each figure as <div class="cx" id="cx-...">
    PageAsset("interactive-figures.js", '<div class="cx" id="cx-'),
    PageAsset("interactive-figures.css", '<div class="cx" id="cx-'),
    # tools/quizzes.py writes each section's questions as <aside class="quiz" ...>
    PageAsset("quiz.js", '<aside class="quiz"'),
    PageAsset("quiz.css", '<aside class="quiz"'),
)

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
TEX_IN_HTML = re.compile(r"\\\(|\\\[|\$\$")      # \( \[ $$ in raw HTML that MathJax would typeset


def page_has_math(doctree) -> bool:
    """The page itself has math (Sphinx also counts the math of every page in its toctree)."""
    if doctree is None:
        return False
    for node in doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block, nodes.raw))):
        if not isinstance(node, nodes.raw) or ("html" in node.get("format", "") and TEX_IN_HTML.search(node.astext())):
            return True
    return False


def _script_name(js) -> str:
    """The file of a script as configured (Sphinx stores ``_static/`` + the configured name)."""
    name = str(getattr(js, "filename", js) or "")
    return name[len("_static/"):] if name.startswith("_static/") else name


def trim_page_assets(app, pagename, templatename, context, doctree):
    """Drop MathJax from every page that shows no widget, and the widget runtime from pages
    without widgets. The formulas are typeset when the site is assembled
    (tools/static_math.py), so a reader's browser loads no MathJax; only a widget, which
    may typeset its label in the browser, keeps it (on a page with math).

    Runs after sphinx.ext.mathjax and myst-nb have added their files (priority 500).
    """
    scripts = context.get("script_files")
    if not scripts:
        return
    mathjax = app.config.mathjax_path
    widget_files = set(getattr(app.config, "nb_ipywidgets_js", None) or {})
    keep_widgets = WIDGET_VIEW in (context.get("body") or "")
    keep_math = keep_widgets and page_has_math(doctree)
    kept = []
    for js in scripts:
        name = _script_name(js)
        attrs = getattr(js, "attributes", {}) or {}
        if not keep_math and (name == mathjax or (not name and "window.MathJax" in attrs.get("body", ""))):
            continue
        if not keep_widgets and (name in widget_files or attrs.get("type") == WIDGET_STATE):
            continue
        kept.append(js)
    context["script_files"] = kept


def add_page_assets(app, pagename, templatename, context, doctree):
    body = context.get("body") or ""
    for asset in PAGE_ASSETS:
        if asset.marker in body:
            if asset.file.endswith(".css"):
                app.add_css_file(asset.file)
            else:
                app.add_js_file(asset.file, loading_method="defer")


def is_diagram(uri: str) -> bool:
    """A diagram of tools/diagrams.py (``chapters/<lang>/figures/*.svg``)."""
    return uri.endswith(".svg") and (uri.startswith("figures/") or "/figures/" in uri)


def mark_diagrams(app, doctree):
    """Diagrams read on light and dark pages as drawn: the theme's ``dark-light`` class
    turns off its white box and dimming filter in dark mode."""
    for node in doctree.findall(nodes.image):
        if is_diagram(node.get("uri", "")):
            node["classes"] = list(dict.fromkeys(node.get("classes", []) + ["dark-light", "course-diagram"]))


# A formula is one unbreakable box, and browsers may wrap a line on either side of
# such a box even next to punctuation: "... of length s" / ", so every layer ...".
# Punctuation that closes (or, before the formula, opens) goes into one no-wrap box
# with the formula.
_CLOSING = ",.;:!?)]}»”’…，。；：！？、）」』】"
_OPENING = "([{«“‘（「『【"


def keep_math_with_punctuation(app, doctree):
    """Wrap each inline formula with the punctuation touching it in a ``math-nowrap`` span."""
    for math in list(doctree.findall(nodes.math)):
        parent = math.parent
        index = parent.index(math)
        before = parent[index - 1] if index > 0 else None
        after = parent[index + 1] if index + 1 < len(parent) else None
        before_text = before.astext() if isinstance(before, nodes.Text) else ""     # plain text only, not a neighbouring node
        after_text = after.astext() if isinstance(after, nodes.Text) else ""
        opening = before_text[-1] if before_text.endswith(tuple(_OPENING)) else ""
        closing = after_text[:len(after_text) - len(after_text.lstrip(_CLOSING))]
        if not (opening or closing):
            continue
        if closing:
            parent[index + 1] = nodes.Text(after_text[len(closing):])
        if opening:
            parent[index - 1] = nodes.Text(before_text[:-1])
        boxed = ([nodes.Text(opening)] if opening else []) + [math] + ([nodes.Text(closing)] if closing else [])
        parent[index] = nodes.inline("", "", *boxed, classes=["math-nowrap"])


def fold_input_in_page_language(app):
    """myst-nb's fold of a ``hide-input`` cell, without its fixed English aria-label
    ("Toggle hidden content"), so that the visible, translated prompt (nb_code_prompt_show)
    is the control's accessible name, as WCAG's label-in-name rule asks."""
    from myst_nb.sphinx_ import HideCodeCellNode, depart_HideCellInput, visit_HideCellInput

    def visit(self, node):
        start = len(self.body)
        visit_HideCellInput(self, node)
        self.body[start:] = [part.replace('<summary aria-label="Toggle hidden content">', "<summary>")
                             for part in self.body[start:]]

    app.add_node(HideCodeCellNode, override=True, html=(visit, depart_HideCellInput))


def translate_groups(app, pagename, templatename, context, doctree):
    """The theme renders a dropdown's aria-label untranslated; translate it here."""
    for button in context.get("header_buttons", []):
        if button.get("type") == "group" and button.get("tooltip"):
            button["tooltip"] = booktheme(button["tooltip"])


def add_catalogs(app):
    """Make the site's booktheme catalog primary: it fixes and completes the theme's.

    (``app.add_message_catalog`` would only add it as a fallback.) The catalog
    for the ``sphinx`` domain needs no help: ``locale_dirs`` come first there.
    """
    locale_dir = app.config.course_locale_dir or str(HERE / "locale")
    try:
        ours = gettext.translation("booktheme", locale_dir, [app.config.language])
    except OSError:
        return
    key = ("general", "booktheme")
    theirs = locale.translators.get(key)
    if theirs is not None and theirs.__class__ is not gettext.NullTranslations:
        ours.add_fallback(theirs)
    locale.translators[key] = ours


def relocate_nb_outputs(app):
    """myst-nb writes notebook images to <outdir>/../jupyter_execute, which the three
    language builds would share (and race on); give each build its own folder."""
    folder = app.config.course_nb_output_folder
    if folder and getattr(app.env, "mystnb_config", None) is not None:
        app.env.mystnb_config = app.env.mystnb_config.copy(
            output_folder=str(Path(folder) / "jupyter_execute"),
            execution_cache_path=str(Path(folder) / "jupyter_cache"))


def setup(app):
    app.add_config_value("course_lang", "en", "html")
    app.add_config_value("course_languages", [], "html")
    app.add_config_value("course_docs", {}, "html")
    app.add_config_value("course_roots", {}, "html")
    app.add_config_value("course_launch", {}, "env")         # §0.5's note on Binder follows it (course_book.py)
    app.add_config_value("course_wheel", "", "html")
    app.add_config_value("course_book_pdf", "", "html")
    app.add_config_value("course_version", "", "html")
    app.add_config_value("course_switcher_label", "Language", "html")
    app.add_config_value("course_switcher_current", "Language: {language}", "html")
    app.add_config_value("course_locale_dir", "", "env")
    app.add_config_value("course_nb_output_folder", "", "env")
    app.add_config_value("course_assets_version", "", "html")   # digest of translations and static files
    app.connect("builder-inited", relocate_nb_outputs, priority=900)
    app.connect("builder-inited", add_catalogs)
    app.connect("builder-inited", fold_input_in_page_language)
    app.connect("html-page-context", add_switcher, priority=400)
    app.connect("html-page-context", add_launch_buttons, priority=502)
    app.connect("html-page-context", add_wheel_download, priority=502)
    app.connect("html-page-context", add_book_pdf_download, priority=502)
    app.connect("html-page-context", add_source_buttons, priority=503)        # after the launch menu
    app.connect("html-page-context", add_footer)
    app.connect("html-page-context", translate_groups, priority=503)
    app.connect("html-page-context", add_page_assets, priority=490)
    app.connect("html-page-context", trim_page_assets, priority=600)
    app.connect("doctree-read", mark_diagrams)
    app.connect("doctree-read", keep_math_with_punctuation)
    app.add_transform(SectionAnchors)
    # env_version: Sphinx re-reads every page when it changes; bump it when what
    # this extension does to a doctree changes.
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1", "env_version": 3}
