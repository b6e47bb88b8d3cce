"""Figures are readable on the website (no browser: figures.plots drawn as a notebook draws them).

A notebook draws at 100 dpi and saves the PNG with a tight bounding box; the
site shows it at its natural size unless it is wider than the text column,
which then shrinks it. So the size of a text on screen is

    font size (pt) x 100 / 72 x min(1, column width / PNG width)   (px)

Every text of every figure must be at least 10 px on a desktop (column
DESKTOP_COLUMN px wide at 1366 px), and every legend at least 10 px on a 360 px
phone (column PHONE_COLUMN px). tests/test_site.py measures both columns in
the browser and fails if they are narrower than assumed here.

The inputs have the shapes the chapter's sections use (§1: three 3x3 maps and
two 3x4 maps; §2: two heads of 3x3, a 2x3x2 split, five head counts; §3: the
8x4 position table; §4: three bar series over 8 rows; §5: two timing lines),
plus larger ones, so a figure that grows is still checked.
"""

from __future__ import annotations

import base64
import io
import struct

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.text import Text  # noqa: E402

from figures import plots  # noqa: E402

DPI = 100                 # matplotlib's default figure.dpi, which the inline backend uses
DESKTOP_COLUMN = 720      # px: the narrowest text column of the site on a 1366 px desktop (checked in test_site.py)
PHONE_COLUMN = 320        # px: the same on a 360 px phone
MIN_PX = 10


def _fractions(m):
    return [[f"{v:.2f}" for v in row] for row in m]


def _figures():
    rng = np.random.default_rng(0)
    allowed = np.tril(np.ones((3, 3), bool))
    weights = allowed / allowed.sum(1, keepdims=True)
    yield "§1 three maps", lambda: plots.heatmaps(
        [allowed, weights, weights * 0.9],
        ["allowed = ~future", "masked_softmax(S, allowed)", "softmax(S) * allowed"],
        labels=[allowed.astype(int).astype(str), _fractions(weights), _fractions(weights)],
        row_sums=[False, True, True], lang="en")
    change = rng.random((3, 4))
    yield "§1 two maps", lambda: plots.heatmaps([change, change], ["|ΔY|  causal_attention", "|ΔY|  unmasked_attention"],
                                        labels=[_fractions(change)] * 2, cmap="Reds", vmax=1.0, lang="en")
    yield "§2 heads", lambda: plots.heatmaps([weights, weights], ["h = 0", "h = 1"], labels=[_fractions(weights)] * 2,
                                     row_sums=True, cell_size=0.8, lang="en")
    big = [rng.random((6, 6)) for _ in range(4)]
    yield "four 6x6 maps", lambda: plots.heatmaps(big, [f"m{n}" for n in range(4)], labels=[_fractions(m) for m in big],
                                          row_sums=True, lang="en")
    codes = np.arange(2 * 3 * 2).reshape(2, 3, 2)
    yield "§2 layout", lambda: plots.head_layout_picture({"split_heads(x, H)": codes, "x.reshape(B, H, T, d)": codes}, width=4)
    yield "wide layout", lambda: plots.head_layout_picture({"a": np.arange(4 * 4 * 4).reshape(4, 4, 4)}, width=16)
    heads = np.array([1, 2, 4, 8, 16])
    cost = {k: heads * (n + 1.0) for n, k in enumerate(["parameters", "matmul_flops", "attention_entries", "softmax_ops"])}
    yield "§2 costs", lambda: plots.head_cost_chart(heads, cost, list(cost), ["4·D²", "FLOP (matmul)", "B·H·T²", "softmax"])
    yield "§3 table", lambda: plots.position_table_heatmap(rng.normal(size=(8, 4)), "en")
    yield "wide table", lambda: plots.position_table_heatmap(rng.normal(size=(16, 12)), "en")
    rows = [np.r_[np.zeros(4), rng.random(4)] for _ in range(3)]
    yield "§4 bars", lambda: plots.row_change_bars(rows, ["causal=True", "causal=False", "leaky_time_normalization"], 4)
    lengths = np.array([16, 64, 256, 1024])
    yield "§5 timing", lambda: plots.timing_lines(lengths, [lengths * 1e-5, lengths * 1e-6],
                                          ["forward(ids[:T+1])[-1]", "step(ids[T], cache)"])


FIGURES = list(_figures())          # (name, function drawing the figure): drawn in the test only


def _png_width(fig):
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, bbox_inches="tight")
    data = buf.getvalue()
    return struct.unpack(">I", data[16:20])[0]


@pytest.mark.parametrize("name,draw", FIGURES, ids=[n for n, _ in FIGURES])
def test_figure_is_readable(name, draw):
    fig = draw()
    width = _png_width(fig)
    # Wider than the column, a figure is shrunk and its text with it.
    assert width <= DESKTOP_COLUMN, f"{name}: {width} px wide, the column is {DESKTOP_COLUMN} px"
    desktop = min(1.0, DESKTOP_COLUMN / width)
    phone = min(1.0, PHONE_COLUMN / width)
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()
             and (t.axes is None or t.axes.get_visible())]
    assert texts, f"{name}: no text found"
    small = [(t.get_text(), round(t.get_fontsize() * DPI / 72 * desktop, 1)) for t in texts
             if t.get_fontsize() * DPI / 72 * desktop < MIN_PX]
    assert not small, f"{name}: {width} px wide, texts under {MIN_PX} px on a desktop: {small[:8]}"
    for ax in fig.axes:
        legend = ax.get_legend()
        if legend is None:
            continue
        tiny = [(t.get_text(), round(t.get_fontsize() * DPI / 72 * phone, 1)) for t in legend.get_texts()
                if t.get_fontsize() * DPI / 72 * phone < MIN_PX]
        assert not tiny, f"{name}: {width} px wide, legend under {MIN_PX} px on a phone: {tiny}"
    plt.close(fig)


HEATMAPS = [(name, draw) for name, draw in FIGURES if name in ("§1 three maps", "§1 two maps", "§2 heads", "four 6x6 maps")]


def _boxes_overlap(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


@pytest.mark.parametrize("name,draw", HEATMAPS, ids=[n for n, _ in HEATMAPS])
def test_heatmap_panels_stand_apart_and_say_where_they_are(name, draw):
    """No title runs into a neighbour; the output's layout matches the PNG Jupyter gets, one box per
    panel inside the image, none overlapping, each on a phone column at its drawn size."""
    fig = draw()
    assert isinstance(fig, plots.PanelFigure)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    shown = [ax for ax in fig.axes if ax.get_visible()]
    titles = [ax.title.get_window_extent(renderer) for ax in shown]
    for n, a in enumerate(titles):
        for b in titles[n + 1:]:
            assert not _boxes_overlap(a, b), f"{name}: titles overlap"
        for ax in shown:
            if ax.title.get_window_extent(renderer) is not a:
                assert not _boxes_overlap(a, ax.get_window_extent(renderer)), f"{name}: a title runs into an axes"
    data, metadata = fig._repr_mimebundle_()
    png = base64.b64decode(data["image/png"])
    layout = metadata[plots.PANELS_KEY]
    assert struct.unpack(">II", png[16:24]) == (layout["width"], layout["height"])
    boxes = layout["panels"]
    assert len(boxes) == len(shown)
    for n, (x, y, w, h) in enumerate(boxes):
        assert 0 <= x and 0 <= y and x + w <= layout["width"] and y + h <= layout["height"], (name, boxes)
        assert w <= PHONE_COLUMN * 1.4, f"{name}: panel {n} is {w} px wide, text under 10 px on a phone"
        for x2, y2, w2, h2 in boxes[n + 1:]:
            assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y, f"{name}: panels overlap {boxes}"
    assert layout["smallest_px"] == pytest.approx(plots.TEXT * DPI / 72, abs=0.01)
    plt.close(fig)


def test_heatmaps_need_a_title_per_matrix():
    with pytest.raises(ValueError, match="one title per matrix"):
        plots.heatmaps([np.eye(2), np.eye(2)], ["only one"], lang="en")


CHARTS = [(name, draw) for name, draw in FIGURES if name in ("§2 costs", "§4 bars", "§5 timing", "§2 layout")]


@pytest.mark.parametrize("name,draw", CHARTS, ids=[n for n, _ in CHARTS])
def test_chart_fits_a_phone_whole(name, draw):
    """A chart records its smallest text (every text of the figure, legends included) and is drawn
    so that, shrunk to a phone's column until that text is 10 px, it fits whole: the website
    (site/static/course.js) then shows it without scrolling; a layout of several panels stacks them."""
    fig = draw()
    assert isinstance(fig, plots.PanelFigure)
    data, metadata = fig._repr_mimebundle_()
    layout = metadata[plots.PANELS_KEY]
    texts = [t.get_fontsize() * DPI / 72 for t in fig.findobj(Text)
             if t.get_visible() and t.get_text().strip() and (t.axes is None or t.axes.get_visible())]
    assert layout["smallest_px"] == pytest.approx(min(texts), abs=0.01), "the recorded smallest text is not the smallest"
    scale = MIN_PX / layout["smallest_px"]
    widest = max(w for _, _, w, _ in layout["panels"]) if len(layout["panels"]) > 1 else layout["width"]
    assert widest * min(1.0, scale if len(layout["panels"]) == 1 else 11 / layout["smallest_px"]) <= PHONE_COLUMN, (
        f"{name}: {widest} px wide with text of {layout['smallest_px']} px does not fit {PHONE_COLUMN} px")
    plt.close(fig)
