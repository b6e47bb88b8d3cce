"""Sphinx extension: the interactive figures' script and style, on the pages that have one.

``lib/interactive.py`` writes each figure as ``<div class="cx" id="cx-...">`` in a
``text/html`` output, which myst-nb turns into a raw HTML node;
``site/static/interactive-figures.{js,css}`` make it respond. Pages without
such a figure load neither file.
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


def setup(app):
    app.connect("html-page-context", add_assets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
