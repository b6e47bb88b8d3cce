"""Every figure's text is at least 10 px as rendered, on a 360 px phone and a 1280 px desktop.

Measured in the browser on every chapter page of every language (§0 to §8), per figure:

* a diagram (SVG of tools/diagrams.py, shown as an image): its smallest
  ``font-size`` in the SVG's units times the rendered width over the viewBox
  width;
* a plot (PNG of figures/plots.py, drawn at 100 dpi with text of at least
  ``plots.TEXT`` pt, i.e. ``plots.TEXT * 100 / 72`` px at the drawn size): that
  size (or the smallest text the figure recorded, ``data-smallest-px``) times the
  rendered width over the image's natural width. site/static/course.js never
  shows a plot below the size where that text is 10 px; a narrower column
  scrolls the figure sideways in its own box (focusable, and saying so), and the
  page itself never scrolls sideways (checked here too);
* a figure of several panels (heatmaps, ``plots.PanelFigure``): its smallest
  font as drawn (``data-smallest-px``, recorded in the notebook output) times
  the rendered width over the natural width; its panels never overflow the
  column, so it never scrolls sideways, and on a wide screen they sit side by
  side wherever they fit the column;
* an interactive figure (figures/interactive.py, HTML): the computed font size
  of every text in it.

On a desktop, no diagram is taller than the window (a tall diagram shows its
side-by-side version there, site/course_book.py add_wide_diagrams).

Also: every chapter figure is numbered and captioned in the page's language
(site/course_book.py), and §2's cost buttons show each number on one line.
The browser, the site build and its server are tests/test_site.py's fixtures.
"""

from __future__ import annotations

import re

import pytest

from course_i18n import LANGUAGES
from figures import plots

from test_site import base_url, site_dir  # noqa: E402,F401
from test_site_interactive import go_to, in_chromium  # noqa: E402 (the browser: conftest.chromium, one per worker)

# A browser that hangs fails its test after 10 minutes instead of holding the suite (fixtures have
# their own bounds: the site build, Chromium's start).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

CHAPTERS = ("00_start", "01_allowed_set", "02_heads", "03_positions", "04_causality", "05_cache", "06_evidence",
            "07_decoder", "08_real_text")
MIN_PX = 10
PLOT_TEXT_PX = plots.TEXT * 100 / 72
FIGURE_WORD = {"zh": "图", "en": "Figure", "ru": "Рисунок"}

MEASURE = """async () => {
  const out = [];
  for (const img of document.querySelectorAll('.bd-article img')) {
    if (!img.complete) await new Promise(r => img.addEventListener('load', r, {once: true}));
    const rect = img.getBoundingClientRect();
    const panels = img.closest('.course-panels');
    const entry = {src: img.getAttribute('src'), width: rect.width, natural: img.naturalWidth, height: rect.height,
                   panels: panels ? parseFloat(panels.dataset.smallestPx) : null,
                   panelRows: panels ? new Set(Array.from(panels.children).map(p => Math.round(p.getBoundingClientRect().bottom))).size : null,
                   panelsFit: panels ? Array.from(panels.children).reduce((w, p) => w + p.getBoundingClientRect().width, 0)
                                       <= panels.clientWidth : null,
                   overflows: panels ? panels.scrollWidth > panels.clientWidth + 1
                                       || panels.getBoundingClientRect().right > document.documentElement.clientWidth : null,
                   scrolls: !!img.closest('.course-scrolls'),
                   drawnPx: parseFloat(img.dataset.smallestPx) || null,
                   caption: (img.closest('figure') && img.closest('figure').querySelector('figcaption'))
                            ? img.closest('figure').querySelector('figcaption').textContent.trim() : null};
    if (/\\.svg(\\?|$)/.test(entry.src)) {
      const text = await (await fetch(img.src)).text();
      const box = /<svg[^>]*viewBox="[\\d.]+ [\\d.]+ ([\\d.]+) [\\d.]+"/.exec(text);
      const sizes = [...text.matchAll(/font-size="([\\d.]+)"/g)].map(m => parseFloat(m[1]));
      entry.viewbox = box ? parseFloat(box[1]) : null;
      entry.smallest = sizes.length ? Math.min(...sizes) : null;
    }
    out.push(entry);
  }
  const live = [];
  for (const el of document.querySelectorAll('.bd-article .cx *')) {
    const own = Array.from(el.childNodes).some(n => n.nodeType === 3 && n.textContent.trim());
    if (own && el.getClientRects().length) live.push([el.textContent.trim().slice(0, 30), parseFloat(getComputedStyle(el).fontSize)]);
  }
  return {figures: out, live: live, scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
          tall: window.innerHeight};
}"""


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_figure_text_is_at_least_10_px(open_page, lang, width):
    small, uncaptioned, panel_problems, tall, seen, panel_figures = [], [], [], [], 0, set()
    page = None
    for chapter in CHAPTERS:         # one page, going from chapter to chapter (each loaded as it is opened)
        page = go_to(page, chapter) if page else open_page(lang, chapter, viewport={"width": width, "height": 800})
        page.wait_for_load_state("load")
        found = page.evaluate(MEASURE)
        assert found["scroll"] <= found["inner"], f"{chapter}: the page scrolls sideways at {width} px"
        for fig in found["figures"]:
            if not fig["width"]:
                continue                    # the other version of a diagram (narrow or wide screens)
            seen += 1
            if fig.get("smallest") is not None:
                px = fig["smallest"] * fig["width"] / fig["viewbox"]
                if width >= 1200 and fig["height"] > found["tall"]:
                    tall.append(f"{chapter} {fig['src']}: {fig['height']:.0f} px")
            elif fig["panels"] is not None:
                if (chapter, fig["src"]) in panel_figures:
                    continue                # another panel of a figure measured already
                panel_figures.add((chapter, fig["src"]))
                px = fig["panels"] * fig["width"] / fig["natural"]
                if fig["overflows"] or fig["scrolls"]:
                    panel_problems.append(f"{chapter} {fig['src']}: panels wider than the column")
                if width >= 1200 and fig["panelsFit"] and fig["panelRows"] > 1:
                    panel_problems.append(f"{chapter} {fig['src']}: panels that fit side by side on {fig['panelRows']} rows")
            else:
                assert fig["natural"], fig
                # its smallest text as drawn (recorded by figures/plots.py), else plots.TEXT
                px = (fig["drawnPx"] or PLOT_TEXT_PX) * fig["width"] / fig["natural"]
            if px < MIN_PX:
                small.append(f"{chapter} {fig['src']}: {px:.1f} px")
            if not fig["caption"] or not re.match(rf"{FIGURE_WORD[lang]} \d+\.\d+ \S", fig["caption"]):
                uncaptioned.append(f"{chapter} {fig['src']}: {fig['caption']!r}")
        small += [f"{chapter} interactive figure {text!r}: {px:.1f} px" for text, px in found["live"] if px < MIN_PX]
    assert seen >= 10, f"only {seen} figures found"
    assert len(panel_figures) >= 3, f"only {len(panel_figures)} heatmaps shown as panels: {sorted(panel_figures)}"
    assert not small, f"text under {MIN_PX} px at {width} px ({lang}): " + "; ".join(small)
    assert not uncaptioned, f"figures without a numbered caption ({lang}): " + "; ".join(uncaptioned)
    assert not panel_problems, f"at {width} px ({lang}): " + "; ".join(panel_problems)
    assert not tall, f"diagrams taller than a {width} px wide window ({lang}): " + "; ".join(tall)


@pytest.mark.parametrize("lang", LANGUAGES)
@in_chromium
def test_cost_buttons_never_break_a_number(open_page, lang):
    page = open_page(lang, "02_heads", viewport={"width": 360, "height": 740})
    page.wait_for_selector(".cx-live")
    buttons = page.eval_on_selector_all(
        ".cx-buttons label span",
        "spans => spans.map(s => [s.textContent, s.getClientRects().length, s.getBoundingClientRect().height,"
        " parseFloat(getComputedStyle(s).lineHeight)])")
    assert buttons
    broken = [text for text, rects, height, line in buttons if height > line * 1.5]
    assert not broken, f"numbers broken over two lines: {broken}"
