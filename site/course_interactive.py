"""Sphinx extension for the chapter's figures.

* Interactive figures: ``lib/interactive.py`` writes each as
  ``<div class="cx" id="cx-...">`` in a ``text/html`` output, which myst-nb
  turns into a raw HTML node; ``site/static/interactive-figures.{js,css}``
  make it respond. Pages without such a figure load neither file.
* Diagrams (``tools/diagrams.py``, ``chapters/<lang>/figures/*.svg``) are drawn
  to read on light and dark pages as they are, so they get the theme's
  ``dark-light`` class: no white box and no dimming filter in dark mode.
"""

from docutils import nodes

MARK = '<div class="cx" id="cx-'


def has_figure(doctree) -> bool:
    return any(MARK in node.astext() for node in doctree.findall(nodes.raw)
               if "html" in node.get("format", "").split())


def add_assets(app, pagename, templatename, context, doctree):
    if doctree is not None and has_figure(doctree):
        app.add_css_file("interactive-figures.css")
        app.add_js_file("interactive-figures.js", loading_method="defer")


def is_diagram(uri: str) -> bool:
    return uri.endswith(".svg") and (uri.startswith("figures/") or "/figures/" in uri)


def mark_diagrams(app, doctree):
    for node in doctree.findall(nodes.image):
        if is_diagram(node.get("uri", "")):
            node["classes"] = list(dict.fromkeys(node.get("classes", []) + ["dark-light", "course-diagram"]))


def setup(app):
    app.connect("doctree-read", mark_diagrams)
    app.connect("html-page-context", add_assets)
    # env_version: Sphinx re-reads every page when it changes; bump it when
    # what this extension does to a doctree changes.
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
