"""Plotting helpers shared by the section notebooks.

Every function names the section that uses it.  Figures carry no
words: titles and labels are code names and symbols (i, j, t, h, ...), so
that the three languages share one set of code and printed outputs.  §3's
table writes a decimal in every cell itself, so it takes the notebook's
language (``"{{lang}}"`` in the source) and writes 0,07 in Russian; the
labels of the other heatmaps come from their notebook.

Readable on the website: a notebook draws at 100 dpi, and the site's text
column is about 750 px wide on a desktop, so no figure is wider than
:data:`MAX_WIDTH` inches (it is never shrunk there) and no text is smaller than
10 pt (13.9 px); legends are large enough to stay readable when a
phone shrinks the figure to its ~330 px column (tests/test_site_figures.py).

Heatmaps, the layout picture and the charts come as a :class:`PanelFigure`:
Jupyter shows the whole figure, and the notebook output also records where each
panel lies in the image and the size of its smallest text, so that the website
shows the panels side by side on a wide screen and one per row on a phone, and
shrinks a chart to a phone's column only as far as its text stays 10 px
(site/course_book.py, site/static/course.js, tests/test_site_figure_sizes.py).
Charts (one panel: lines and bars) draw their text at :data:`CHART_TEXT` so that
they fit a phone's column whole.
"""

import base64
import io
import re
import struct
import textwrap

import numpy as np
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

from course_i18n import language, localise_numbers

MAX_WIDTH = 7.2           # inches: 720 px at 100 dpi, the widest figure the desktop page shows unshrunk
TEXT = 10                 # tick labels, cell labels
LABEL = 11                # axis labels, titles
LEGEND = 12               # legends (line and bar charts are at most ~5.4 in wide: >= 10 px on a phone)
CHART_TEXT = 13           # every text of a chart (one panel, at most ~5.4 in wide): shrunk to a phone's
                          # ~330 px column, 13 pt (18 px) stays above 10 px, so the chart fits whole



PANELS_KEY = "course_panels"   # the output metadata the website reads (site/course_book.py)
PAD = 0.1                      # inches of white around the saved figure, as savefig's "tight" pads it


class PanelFigure(Figure):
    """A figure that tells the website where each of its panels is and how small its text gets.

    Displayed in Jupyter, it is the usual PNG of the whole figure (drawn with
    ``bbox_inches="tight"``, as the inline backend draws every figure); the
    output's metadata adds, under :data:`PANELS_KEY`, the image's size, each
    panel's box ``[left, top, width, height]`` in the image's pixels (title,
    ticks, labels and row sums included) and the smallest font size drawn, in
    pixels.  Changes made to the figure after it was built (larger ticks, new
    labels) are measured when it is displayed.
    """

    def panel_layout(self):
        """(png bytes, metadata) of the figure as displayed."""
        self.canvas.draw()
        renderer = self.canvas.get_renderer()
        dpi = self.dpi
        whole = self.get_tightbbox(renderer).padded(PAD)            # inches
        shown = [ax for ax in self.axes if ax.get_visible()]
        boxes = []
        for ax in shown:
            box = ax.get_tightbbox(renderer).transformed(self.dpi_scale_trans.inverted()).padded(PAD / 2)
            box = Bbox.intersection(box, whole) or whole
            boxes.append([round((box.x0 - whole.x0) * dpi), round((whole.y1 - box.y1) * dpi),
                          round(box.width * dpi), round(box.height * dpi)])
        buffer = io.BytesIO()
        self.savefig(buffer, format="png", dpi=dpi, bbox_inches=whole, facecolor=self.get_facecolor(),
                     edgecolor=self.get_edgecolor())
        fonts = [text.get_fontsize() for ax in shown
                 for text in [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts,
                              *ax.get_xticklabels(), *ax.get_yticklabels(),
                              *(ax.get_legend().get_texts() if ax.get_legend() else [])] if text.get_text()]
        png = buffer.getvalue()
        width, height = struct.unpack(">II", png[16:24])           # the PNG header's size, as saved
        layout = {"width": width, "height": height, "panels": boxes,
                  "smallest_px": round(min(fonts) * dpi / 72, 2) if fonts else None}
        return png, layout

    def _repr_mimebundle_(self, include=None, exclude=None):
        png, layout = self.panel_layout()
        data = {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": repr(self)}
        return data, {PANELS_KEY: layout}


def _wrap_titles(fig, axes, room):
    """Break every title that is wider than ``room`` inches into as few lines as
    fit (at spaces, so after a comma in code), as evenly long as possible, so
    that neighbouring titles never run into each other."""
    renderer = fig.canvas.get_renderer()

    def fits(text):
        ax.title.set_text(text)
        return ax.title.get_window_extent(renderer).width / fig.dpi <= room

    for ax in axes:
        title = ax.title.get_text()
        best = None
        for chars in range(len(title), 0, -1):
            lines = textwrap.wrap(title, width=chars, break_long_words=False)
            if best is not None and len(lines) > best.count("\n") + 1:
                break                                  # more lines than needed: keep the most even split
            if fits("\n".join(lines)):
                best = "\n".join(lines)
        ax.title.set_text(best or title)


def heatmaps(matrices, titles, labels=None, row_sums=False, cmap="Blues", vmin=0.0, vmax=1.0, cell_size=1.0,
             xlabel="j", *, lang, sum_labels=None):
    """§1. Matrices side by side as heatmaps, rows i (queries) and columns j (keys).

    matrices: a list of 2-D arrays (bool or numbers); titles: one string per
    matrix (keep them language-neutral: code names and symbols).
    labels: None, or one 2-D array of strings per matrix, written into the cells.
    row_sums: True, False, or one bool per matrix; where True, each row's sum
    is written to the right of the row.
    sum_labels: None, or one list of strings per matrix, written as its row sums
    in place of the computed ones (for example fractions, "1/3"); only where
    row_sums is True.
    xlabel: the symbol of the columns, "j" (a key's position) unless they are
    something else, such as "c" (the features, §0.4's notation).
    lang: the page's language; every number in a label and in a row's sum is written with its
    decimal sign and a true minus (0.25 in English and Chinese, 0,25 in Russian; −0.5).
    Returns a :class:`PanelFigure`; the notebook ends its cell with ``plt.show()``.
    """
    import matplotlib.pyplot as plt

    if len(titles) != len(matrices):
        raise ValueError(f"heatmaps needs one title per matrix: {len(matrices)} matrices, {len(titles)} titles")
    language(lang)                                             # an unknown code stops here, with the codes it knows
    matrices = [np.asarray(m, dtype=float) for m in matrices]
    sums = [row_sums is True or (not isinstance(row_sums, bool) and bool(row_sums[n])) for n in range(len(matrices))]
    # Side by side, with cells of at most cell_size inches within MAX_WIDTH; when the
    # cells would get too small for their labels (0.38 in), fewer panels per row.
    for per_row in range(len(matrices), 0, -1):
        fig = _heatmap_grid(matrices, titles, labels, sums, per_row, cell_size, cmap, vmin, vmax, xlabel, lang,
                            sum_labels)
        if per_row == 1 or _smallest_cell(fig, matrices) >= 0.38:
            return fig
        plt.close(fig)


def _written(text, lang):
    """``text`` with every number in it written as language ``lang`` writes it, with a true minus:
    "0.07" -> "0,07" in Russian, "-0.02" -> "−0.02"; words and symbols stay as they are."""
    return re.sub(r"-(?=\d)", "\u2212", localise_numbers(str(text), lang))


def _smallest_cell(fig, matrices):
    """The side in inches of the smallest heatmap cell as drawn."""
    fig.canvas.draw()
    sizes = [ax.get_window_extent().width / fig.dpi / m.shape[1] for ax, m in zip(fig.axes, matrices)]
    return min(sizes)


def _tight_width(fig):
    """Width in inches of the figure as the notebook saves it (``bbox_inches="tight"``)."""
    return fig.get_tightbbox(fig.canvas.get_renderer()).width + 2 * 0.1   # savefig pads 0.1 in on each side


def _heatmap_grid(matrices, titles, labels, sums, per_row, cell, cmap, vmin, vmax, xlabel, lang, sum_labels=None):
    import matplotlib.pyplot as plt

    rows = -(-len(matrices) // per_row)
    columns = max(sum(m.shape[1] for m in matrices[r * per_row:(r + 1) * per_row]) for r in range(rows))
    margin = 0.75 + (0.55 if any(sums) else 0.0)              # ticks and "i" on the left, "Σ=0.333" on the right
    width = min(MAX_WIDTH - 0.25, columns * cell + margin * per_row)
    height = rows * (max(m.shape[0] for m in matrices) * cell + 1.0)   # blank space is cropped when saved
    fig, axes = plt.subplots(rows, per_row, figsize=(width, height), squeeze=False, FigureClass=PanelFigure)
    for ax in axes.flat[len(matrices):]:
        ax.set_visible(False)
    for n, (ax, m, title) in enumerate(zip(axes.flat, matrices, titles)):
        ax.imshow(m, cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set_title(title, fontsize=LABEL)
        ax.set_xticks(range(m.shape[1]))
        ax.set_yticks(range(m.shape[0]))
        ax.tick_params(labelsize=TEXT)
        ax.set_xlabel(xlabel, fontsize=LABEL)
        ax.set_ylabel("i", fontsize=LABEL, rotation=0, labelpad=8)
        if labels is not None:
            for i in range(m.shape[0]):
                for j in range(m.shape[1]):
                    dark = (m[i, j] - vmin) > 0.6 * (vmax - vmin)
                    ax.text(j, i, _written(labels[n][i][j], lang), ha="center", va="center",
                            color="white" if dark else "black", fontsize=TEXT)
        if sums[n]:
            for i, total in enumerate(m.sum(axis=1)):
                written = f"{total:.3g}" if sum_labels is None else sum_labels[n][i]
                ax.text(m.shape[1] - 0.4, i, _written(f"Σ={written}", lang), ha="left", va="center", fontsize=TEXT)
    # A title may be as wide as its column of the grid, less a gap between neighbours.
    fig.canvas.draw()
    _wrap_titles(fig, axes.flat[:len(matrices)], room=width / per_row - 0.3)
    fig.tight_layout(w_pad=1.5)
    return fig


def head_layout_picture(layouts, width):
    """§2. Where each feature lands after splitting heads: one panel per layout.

    layouts: dict title -> integer array (H, T, d) whose entries are codes
    t * width + c of the input feature (time t, feature c) stored in that slot.
    Each slot is coloured by the time t its content comes from and labelled
    with t and the feature index c (§0.4's notation).  Rows are (h, slot); a line separates the heads.
    Returns a :class:`PanelFigure` (on a phone the layouts stand one above the other).
    """
    import matplotlib.pyplot as plt

    first = np.asarray(next(iter(layouts.values())))
    H, T, d = first.shape
    n = len(layouts)
    slot = min(0.85, (MAX_WIDTH - 1.35 * n) / max(d * n, 1))   # inches per slot column, "t0 c3" must fit
    fig, axes = plt.subplots(1, n, figsize=(min(MAX_WIDTH, 1.35 * n + slot * d * n), 0.9 + 0.36 * H * T),
                             squeeze=False, FigureClass=PanelFigure)
    cmap = plt.get_cmap("Pastel1", max(T, 3))
    for ax, (title, codes) in zip(axes[0], layouts.items()):
        codes = np.asarray(codes).reshape(H * T, d)            # (H*T, d) rows = (h, slot)
        times, features = np.divmod(codes, width)              # source time and feature of each slot
        ax.imshow(times, cmap=cmap, vmin=-0.5, vmax=max(T, 3) - 0.5, aspect="auto")
        for r in range(H * T):
            for a in range(d):
                ax.text(a, r, f"t{times[r, a]} c{features[r, a]}", ha="center", va="center", fontsize=TEXT)
        for h in range(1, H):
            ax.axhline(h * T - 0.5, color="black", linewidth=2)
        ax.set_xticks(range(d))
        ax.set_xlabel("a", fontsize=LABEL)
        ax.set_yticks(range(H * T))
        ax.set_yticklabels([f"h={h}, t={t}" for h in range(H) for t in range(T)])
        ax.tick_params(labelsize=TEXT)
        ax.set_title(title, fontsize=LABEL, family="monospace")
    fig.tight_layout()
    return fig


def head_cost_chart(heads, costs, keys, labels):
    """§2. How each cost grows with H, relative to H = 1 (log-2 axes).

    heads: (n,) ints; costs: the dict of :func:`lib.costs.head_costs`;
    keys: which entries to draw; labels: one language-neutral label per key.
    Returns a one-panel :class:`PanelFigure` (text at CHART_TEXT: it fits a phone whole).
    """
    import matplotlib.pyplot as plt

    heads = np.asarray(heads)
    fig, ax = plt.subplots(figsize=(5.0, 3.8), FigureClass=PanelFigure)
    markers, styles = "osD^v<>", ("-", "--", ":", "-.")
    for n, (key, label) in enumerate(zip(keys, labels)):
        values = np.asarray(costs[key], dtype=float)
        # counts that grow alike lie on one line: each later line is thinner, with a smaller hollow marker,
        # drawn on top of the earlier ones, so that every line stays visible where they coincide
        ax.plot(heads, values / values[0], marker=markers[n % len(markers)],
                linestyle=styles[n % len(styles)], label=label, linewidth=4.0 - 0.8 * (n % 4),
                markersize=15 - 3 * (n % 4), markerfacecolor="none", markeredgewidth=2, zorder=2 + n)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log", base=2)
    ax.set_xticks(heads, [str(h) for h in heads])
    ax.set_xlabel("H", fontsize=CHART_TEXT)
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda value, _pos: f"{value:g}"))
    ax.set_ylabel("× (H = 1)", fontsize=CHART_TEXT)
    ax.tick_params(labelsize=CHART_TEXT)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=CHART_TEXT, loc="upper left", frameon=False)
    fig.tight_layout()
    return fig


def position_table_heatmap(position_table, lang, decimals=2):
    """§3. The position table P (C, D) as a heatmap: row t, column = coordinate c.

    Every cell carries its value rounded to ``decimals``; the cell labels and the colour bar's
    ticks write the decimal sign of language ``lang`` (0.07 in English and Chinese, 0,07 in
    Russian) and a true minus (−0.02).  Returns the figure.
    """
    import matplotlib.pyplot as plt

    P = np.asarray(position_table, dtype=float)
    C, D = P.shape
    shown = np.round(P, decimals) + 0.0                        # + 0.0: no "-0.00" labels
    bound = max(float(np.abs(P).max()), 1e-12)
    column = min(0.9, (MAX_WIDTH - 2.0) / max(D, 1))
    fig, ax = plt.subplots(figsize=(min(MAX_WIDTH, 2.0 + column * D), 0.9 + 0.4 * C))
    image = ax.imshow(P, cmap="RdBu_r", vmin=-bound, vmax=bound, aspect="auto")
    for t in range(C):
        for c in range(D):
            dark = abs(P[t, c]) > 0.6 * bound
            ax.text(c, t, _written(f"{shown[t, c]:.{decimals}f}", lang), ha="center", va="center", fontsize=TEXT,
                    color="white" if dark else "black")
    ax.set_xticks(range(D))
    ax.set_yticks(range(C))
    ax.tick_params(labelsize=TEXT)
    ax.set_xlabel("c", fontsize=LABEL)
    ax.set_ylabel("t", fontsize=LABEL)
    ax.set_title("P[t, c]", fontsize=LABEL)
    bar = fig.colorbar(image, ax=ax, shrink=0.8)
    bar.ax.tick_params(labelsize=TEXT)
    bar.ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda value, _pos: _written(f"{round(value, 10):g}", lang)))
    fig.tight_layout()
    return fig


def row_change_bars(changes, labels, prefix_length, linthresh=1e-3):
    """§4. Bars of the change of every output row i under a future perturbation.

    changes: a list of (T,) arrays (e.g. from :func:`lib.checks.row_changes`),
    labels: one language-neutral label per array (code names).  Rows left of
    the dashed line form the prefix, whose outputs a causal model must not move.
    The y axis is symmetric-log, linear below ``linthresh``, so that an exact
    0 stays visible as "no bar" next to changes of very different sizes.
    Returns a one-panel :class:`PanelFigure` (text at CHART_TEXT: it fits a phone whole);
    the notebook ends its cell with ``plt.show()``.
    """
    import matplotlib.pyplot as plt

    changes = [np.asarray(c, dtype=float) for c in changes]
    T = changes[0].shape[0]
    if any(c.shape != (T,) for c in changes) or len(labels) != len(changes):
        raise ValueError("row_change_bars needs one label per change array, and arrays of the same shape (T,)")
    fig, ax = plt.subplots(figsize=(5.4, 3.9), FigureClass=PanelFigure)
    width = 0.8 / len(changes)
    rows = np.arange(T)
    for n, (c, label) in enumerate(zip(changes, labels)):
        ax.bar(rows + (n - (len(changes) - 1) / 2) * width, c, width, label=label)
    ax.axvline(prefix_length - 0.5, color="black", linestyle="--", linewidth=1)
    ax.set_yscale("symlog", linthresh=linthresh)
    ax.set_ylim(0, 3 * max(float(max(c.max() for c in changes)), linthresh))
    ax.set_xticks(rows)
    ax.tick_params(labelsize=CHART_TEXT)
    ax.set_xlabel("i", fontsize=CHART_TEXT)
    ax.set_ylabel(r"$\max\,|\Delta y_i|$", fontsize=CHART_TEXT)
    # One legend entry per line above the axes: long code names never overlap the bars.
    ax.legend(fontsize=CHART_TEXT, loc="lower left", bbox_to_anchor=(0.0, 1.0), ncol=1, frameon=False,
              borderaxespad=0.2)
    fig.tight_layout()
    return fig


def timing_lines(lengths, seconds, labels):
    """§5. Time per new token against the prefix length T, on log-log axes.

    lengths: (N,) prefix lengths; seconds: a list of (N,) arrays of measured
    times; labels: one language-neutral label per array.  Returns a one-panel
    :class:`PanelFigure` (text at CHART_TEXT: it fits a phone whole).
    """
    import matplotlib.pyplot as plt

    lengths = np.asarray(lengths)
    if len(labels) != len(seconds) or any(np.shape(s) != lengths.shape for s in seconds):
        raise ValueError("timing_lines needs one label per series and series with the shape of lengths")
    fig, ax = plt.subplots(figsize=(5.2, 3.9), FigureClass=PanelFigure)
    for s, label in zip(seconds, labels):
        ax.loglog(lengths, s, marker="o", label=label)
    ax.set_xlabel("T", fontsize=CHART_TEXT)
    ax.set_ylabel("s", fontsize=CHART_TEXT)
    ax.tick_params(labelsize=CHART_TEXT, which="both")
    ax.legend(fontsize=CHART_TEXT, loc="lower left", bbox_to_anchor=(0.0, 1.0), frameon=False, borderaxespad=0.2)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    return fig
