"""§N and §N.M in feedback, as links to the chapter's section on the course site.

The site (tools/build_site.py, site/course_book.py) publishes the chapter of
§N as ``<site>/<lang>/chapters/<page>.html`` and gives the section §N.M the
language-neutral anchor ``#sec-N-M`` (site/course_site.py, ``SectionAnchors``).
This module links the same way, so a diagnosis that says "see §1.6" in a
Russian notebook opens §1.6 of the Russian site.

Where the site lives is ``course_site_url`` in ``_config.yml`` (or the
``COURSE_SITE_URL`` environment variable, which wins).  When neither is set,
:func:`section_href` links, from an exercise notebook in
``exercises/<lang>/``, to the chapter notebook ``../../chapters/<lang>/<page>.ipynb``
(the repository's layout, as on Binder or in a clone); a page written elsewhere
(the grader's feedback pages) then gets no links, only the text.

Plain-text output never changes: only HTML output carries the links.
"""

import html
import os
import pathlib
import re

__all__ = ["SECTION_REF", "CHAPTER_PAGES", "site_url", "section_href", "link_sections"]

# the pattern site/course_book.py links in the site's own text
SECTION_REF = re.compile(r"§\s?(\d+)(?:\.(\d+))?")

# chapter number -> its page (the chapters of _toc.yml; tests/test_sections.py checks that they agree)
CHAPTER_PAGES = {
    "0": "00_start", "1": "01_allowed_set", "2": "02_heads", "3": "03_positions",
    "4": "04_causality", "5": "05_cache", "6": "06_evidence", "7": "07_decoder",
    "8": "08_real_text",
}

CONFIG = pathlib.Path(__file__).resolve().parent.parent / "_config.yml"
_CONFIG_LINE = re.compile(r"""^course_site_url:\s*(?:"([^"]*)"|'([^']*)'|([^\s#]*))""", re.M)


def site_url(config=CONFIG):
    """The course site's address (the folder that holds zh/, en/, ru/), without a final slash, or "".

    ``COURSE_SITE_URL`` first, then ``course_site_url`` in _config.yml when the course runs from
    its repository (an installed wheel has no _config.yml)."""
    url = os.environ.get("COURSE_SITE_URL")
    if url is None:
        try:
            match = _CONFIG_LINE.search(pathlib.Path(config).read_text(encoding="utf-8"))
        except OSError:
            match = None
        url = next((g for g in match.groups() if g is not None), "") if match else ""
    url = url.strip().rstrip("/")
    if url and not re.fullmatch(r"https?://[^\s\"'<>\\]+", url):
        raise ValueError(f"the course site's address is not a plain http(s) URL: {url!r} "
                         "(COURSE_SITE_URL or course_site_url in _config.yml)")
    return url


def section_href(chapter, section, lang, base=None, from_notebook=False):
    """Where §chapter(.section) is: ``<base>/<lang>/chapters/<page>.html#sec-N-M``.

    ``base`` None: :func:`site_url`.  Without a site, ``from_notebook`` links to the chapter notebook
    next to an exercise notebook (``../../chapters/<lang>/<page>.ipynb``); otherwise None."""
    page = CHAPTER_PAGES.get(str(int(chapter)))
    if page is None:
        return None
    base = site_url() if base is None else base.rstrip("/")
    if not base:
        return f"../../chapters/{lang}/{page}.ipynb" if from_notebook else None
    anchor = f"#sec-{int(chapter)}-{int(section)}" if section is not None else ""
    return f"{base}/{lang}/chapters/{page}.html{anchor}"


def link_sections(text, lang, base=None, from_notebook=False):
    """``text`` as HTML (escaped), every §N / §N.M in it a link (see :func:`section_href`)."""
    text = str(text)
    out, last = [], 0
    for m in SECTION_REF.finditer(text):
        href = section_href(m.group(1), m.group(2), lang, base, from_notebook)
        if href is None:
            continue
        out += [html.escape(text[last:m.start()]),
                f'<a href="{html.escape(href)}">{html.escape(m.group(0))}</a>']
        last = m.end()
    out.append(html.escape(text[last:]))
    return "".join(out)
