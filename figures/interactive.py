"""Figures with controls (§1.9, §2.6): live in Jupyter, and live on the static website.

Presentation only, like :mod:`figures.plots`: the numbers come from ``lib.attention``
(§1) and ``lib.costs`` (§2); this module lays them out.  A figure is a few
controls with discrete options and a function from one option per control to
the strings of a table.  Displaying a :class:`Figure` gives one output with
three representations of it:

* ``application/vnd.jupyter.widget-view+json``: ipywidgets controls and a table
  that the kernel updates on every change (what Jupyter shows);
* ``text/html``: the same controls, disabled, the table of the starting state
  and, as JSON, the table of *every* state, computed here when the notebook
  runs.  ``site/static/interactive-figures.js`` enables the controls and swaps
  the table's strings; it computes nothing.  The website shows this
  representation (``nb_mime_priority_overrides`` in ``_config.yml``); without
  JavaScript it stays in the state the figure opens with (``shown``, chosen
  so that the point is visible), with the controls disabled and a note;
* ``text/plain``: that state as text.

Outputs are the same in the three notebooks: words meant for the reader come
in all three languages, each in an element with its ``lang``, and the page
shows the one matching ``<html lang>`` (CSS below).  Labels of controls and
table cells are symbols (X[2,0], H, D, T, code names) and numbers; a number is
written as each language writes it (``course_i18n.localise_numbers``: 1,048,576
and 32.0 in English and Chinese, 1 048 576 and 32,0 in Russian), in one element
per language where the languages differ, and the site's script picks the
page's language from the data too.
"""

import collections
import html
import itertools
import json
import re
from dataclasses import dataclass

import numpy as np

from course_i18n import LANGUAGES, SOURCE_LANGUAGE, localise_numbers
from course_i18n.catalogue import texts

MAX_STATES = 5000          # the data of one figure stays well under 100 kB
SEPARATOR = "|"            # between the strings of one state in the JSON data

# Shared by the Jupyter table and the static figure; colours are translucent,
# so they read on a light and on a dark background.  The last rule shows only
# the words in the page's language (English where the page says no other).
_OTHERS = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
STYLE = (
    ".cx-table{border-collapse:collapse;font-variant-numeric:tabular-nums;margin:.4em 0}"
    ".cx-table th,.cx-table td{padding:.3em .6em;border-bottom:1px solid rgba(128,128,128,.4);"
    "text-align:right;vertical-align:top}"
    ".cx-table th[scope=row]{text-align:left}.cx-table thead th{text-align:center}"
    ".cx-zero{background:rgba(40,167,69,.22)}.cx-moved{background:rgba(240,120,40,.26)}"
    + ",".join([f"html:not(:lang({lang})) .cx [lang={lang}]" for lang in _OTHERS]
               + [f"html:lang({lang}) .cx [lang={SOURCE_LANGUAGE}]" for lang in _OTHERS]) + "{display:none}"
)

# The figures' words, in English; the catalogues of course_i18n translate them.  A figure carries them
# in every language, and the page shows its own (STYLE).
TEXTS = texts("figures.interactive", {
    "static_note": "The controls need JavaScript; the table shows the state the controls above are set to.",
    "last_row_legend": "Only the last row X[{last}] changes",
    "last_row_caption": "Largest change of each output row, max|ΔY[i]|, compared with X unchanged. Green: exactly 0; "
                        "orange: changed.",
    "head_costs_legend": "Heads H, width D, positions T",
    "head_costs_caption": "What one causal multi-head attention layer costs, B = 1, float32 (lib.costs.head_costs)",
    "cost_head_width": "head width D/H",
    "cost_parameters": "parameters (W_Q, W_K, W_V, W_O)",
    "cost_attention_entries": "attention weights stored",
    "cost_attention_bytes": "memory of the attention weights",
    "cost_matmul": "matrix products",
    "cost_softmax": "softmax operations",
})
STATIC_NOTE = TEXTS["static_note"]


def _words(texts, tag="span"):
    """One element per language, for the page to pick its own."""
    return "".join(f'<{tag} lang="{lang}">{html.escape(texts[lang])}</{tag}>' for lang in LANGUAGES)


def _local(text):
    """``{lang: text}``: ``text`` with its numbers written as each language writes them."""
    return {lang: localise_numbers(text, lang) for lang in LANGUAGES}


def _shown(text):
    """The HTML of a cell or a label: its numbers in the page's language (one element per
    language where the languages write them differently)."""
    local = _local(text)
    return html.escape(local[SOURCE_LANGUAGE]) if len(set(local.values())) == 1 else _words(local)


def _filled(text, **fields):
    """``{lang: text}`` with ``fields`` filled in, in every language."""
    return {lang: sentence.format(**fields) for lang, sentence in text.items()}


@dataclass(frozen=True)
class Control:
    """One control: a symbol (its label), the values it offers and how they are shown
    (``labels``: plainly, 0.4; each language writes them its own way)."""
    symbol: str
    values: tuple
    labels: tuple
    start: int
    kind: str = "slider"            # "slider" or "buttons"


class Figure:
    """A table that follows a few discrete controls; see the module docstring.

    states: the strings of the table's cells for every state, one list per
    state, states in the order of ``itertools.product`` over the controls'
    options (the last control varies fastest); numbers come plainly, as a
    machine reads them (1048576, 0.187), and each language writes them its own
    way (:func:`_shown`; the site's script takes them from the data).  head:
    rows of column headers (a header is HTML, or (HTML, number of columns it
    spans)), or None; rows: one
    list per table row, [header, cell index, ...], where a header is a symbol
    or (symbol, {lang: description}); marked: indices of the cells coloured by
    whether they are exactly "0".  shown: the state the figure opens with, one
    option index per control (the controls' ``start`` if None); it is also the
    state a page without JavaScript keeps, so it should be one where the
    figure's point is visible.
    """

    def __init__(self, name, controls, states, head, rows, legend, caption, marked=(), shown=None):
        self.name, self.controls = name, list(controls)
        self.shape = tuple(len(c.values) for c in self.controls)
        if len(states) != int(np.prod(self.shape)):
            raise ValueError(f"figure {name!r}: {len(states)} states given, the controls have {int(np.prod(self.shape))}")
        if len(states) > MAX_STATES:
            raise ValueError(f"figure {name!r} has {len(states)} states, more than {MAX_STATES}: "
                             "offer fewer options per control")
        self.states = [[str(s) for s in cells] for cells in states]
        if any(SEPARATOR in s for cells in self.states for s in cells):
            raise ValueError(f"a cell of figure {name!r} contains {SEPARATOR!r}")
        for c in self.controls:
            if c.kind != "slider" and any(len(set(_local(label).values())) > 1 for label in c.labels):
                raise ValueError(f"figure {name!r}: the buttons of {c.symbol} must read the same in every language, "
                                 f"not {c.labels}")
        self.head, self.rows, self.legend, self.caption = head, rows, legend, caption
        self.marked = frozenset(marked)
        self.start = tuple(c.start for c in self.controls)
        self.shown = self.start if shown is None else tuple(shown)
        if len(self.shown) != len(self.shape) or not all(
                isinstance(i, (int, np.integer)) and 0 <= i < n for i, n in zip(self.shown, self.shape)):
            raise ValueError(f"figure {name!r}: shown={shown!r} must give one option index per control, "
                             f"within {self.shape}")

    def cells(self, state):
        """The strings of the table for one state (a tuple of option indices)."""
        return self.states[int(np.ravel_multi_index(state, self.shape))]

    def table(self, cells, words=False):
        """The HTML table of one state; ``words``: add the descriptions (static figure)."""
        parts = [f"<table class=\"cx-table\">"]
        if words:
            parts.append(f"<caption>{_words(self.caption)}</caption>")
        if self.head:
            parts.append("<thead>")
            for headers in self.head:
                cols = [h if isinstance(h, tuple) else (h, 1) for h in headers]
                parts.append("<tr>" + "".join(f'<th scope="col"{f" colspan={n}" if n > 1 else ""}>{h}</th>'
                                              for h, n in cols) + "</tr>")
            parts.append("</thead>")
        parts.append("<tbody>")
        for header, *indices in self.rows:
            symbol, description = header if isinstance(header, tuple) else (header, None)
            if words and description:          # the symbol, and under it what it stands for
                symbol_html = f'{html.escape(symbol)}<span class="cx-desc">{_words(description)}</span>'
            else:
                symbol_html = html.escape(symbol)
            row = f'<th scope="row">{symbol_html}</th>'
            for k in indices:
                mark = ""
                if k in self.marked:
                    mark = ' class="cx-zero"' if cells[k] == "0" else ' class="cx-moved"'
                row += f'<td data-cx-cell="{k}"{mark}>{_shown(cells[k])}</td>'
            parts.append(f"<tr>{row}</tr>")
        parts.append("</tbody></table>")
        return "".join(parts)

    def static_html(self):
        """The figure for a page without a kernel: every state's table as data.

        The data holds each distinct string of the cells once per language, in that
        language's ``strings``, and every state as the indices of its cells' strings
        (the most frequent string first, so that its index is short); the site's
        script shows the strings of the page's language."""
        fid = f"cx-{self.name}"
        counts = collections.Counter(text for cells in self.states for text in cells)
        strings = [text for text, _ in counts.most_common()]          # ties keep their first-seen order
        index = {text: str(i) for i, text in enumerate(strings)}
        data = {"source": SOURCE_LANGUAGE, "marked": sorted(self.marked),
                "labels": {lang: [[localise_numbers(label, lang) for label in c.labels] for c in self.controls]
                           for lang in LANGUAGES},
                "strings": {lang: [localise_numbers(text, lang) for text in strings] for lang in LANGUAGES},
                "states": [SEPARATOR.join(index[text] for text in cells) for cells in self.states]}
        controls = []
        for n, c in enumerate(self.controls):
            first = self.shown[n]
            cid, label = f"{fid}-{n}", c.labels[first]
            if c.kind == "slider":             # aria-valuetext holds one text, English until the script runs
                controls.append(
                    f'<div class="cx-slider"><label for="{cid}">{html.escape(c.symbol)}</label>'
                    f'<input type="range" id="{cid}" min="0" max="{len(c.values) - 1}" step="1" '
                    f'value="{first}" aria-valuetext="{html.escape(localise_numbers(label, SOURCE_LANGUAGE))}">'
                    f'<output for="{cid}">{_shown(label)}</output></div>')
            else:
                buttons = "".join(
                    f'<label><input type="radio" name="{cid}" value="{i}"{" checked" if i == first else ""}>'
                    f"<span>{_shown(text)}</span></label>" for i, text in enumerate(c.labels))
                controls.append(f'<fieldset class="cx-buttons" id="{cid}"><legend>{html.escape(c.symbol)}</legend>'
                                f'<div class="cx-options">{buttons}</div></fieldset>')
        return (f'<div class="cx" id="{fid}"><style>{STYLE}</style>'
                f'<fieldset class="cx-controls" disabled><legend>{_words(self.legend)}</legend>'
                + "".join(controls) + "</fieldset>"
                f'<div class="cx-scroll">{self.table(self.cells(self.shown), words=True)}</div>'
                f'<p class="cx-note">{_words(STATIC_NOTE)}</p>'
                f'<script type="application/json" class="cx-data">{json.dumps(data, separators=(",", ":"))}</script>'
                "</div>")

    def plain(self):
        """The state shown first, as text (consoles, and any front end without HTML), its numbers in English."""
        cells = [localise_numbers(text, SOURCE_LANGUAGE) for text in self.cells(self.shown)]
        lines = ["  ".join(f"{c.symbol}={localise_numbers(c.labels[i], SOURCE_LANGUAGE)}"
                           for c, i in zip(self.controls, self.shown))]
        for headers in self.head or ():
            lines.append("  ".join(html.unescape(re.sub(r"<[^>]+>", "", h[0] if isinstance(h, tuple) else h))
                                   for h in headers))
        for header, *indices in self.rows:
            symbol = header[0] if isinstance(header, tuple) else header
            lines.append("  ".join([symbol] + [cells[k] for k in indices]))
        return "\n".join(lines)

    def widget(self):
        """ipywidgets controls and a table that the kernel swaps on every change (Jupyter)."""
        import ipywidgets as widgets

        controls = []
        for c, first in zip(self.controls, self.shown):
            options = [(localise_numbers(label, SOURCE_LANGUAGE), i) for i, label in enumerate(c.labels)]
            if c.kind == "slider":
                control = widgets.SelectionSlider(options=options, value=first, description=c.symbol,
                                                  continuous_update=True)
            else:
                control = widgets.ToggleButtons(options=options, value=first, description=c.symbol,
                                                style={"button_width": "auto"})
            controls.append(control)
        view = widgets.HTML(f"<style>{STYLE}</style>" + self.table(self.cells(self.shown)))

        def refresh(_change):
            view.value = f"<style>{STYLE}</style>" + self.table(self.cells(tuple(c.value for c in controls)))

        for control in controls:
            control.observe(refresh, names="value")
        return widgets.VBox(controls + [view])

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.plain(), "text/html": self.static_html()}
        try:
            view = self.widget()._repr_mimebundle_()
        except ImportError:                # no ipywidgets: the static figure still shows the numbers
            return bundle
        bundle.update({k: v for k, v in view.items() if k != "text/plain"})
        return bundle


def _number(value):
    """0.4, -1.0, 0.0: at least one decimal, at most six, no "-0.0"."""
    text = f"{round(float(value), 6) + 0.0:.6f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _significant(value):
    """3 significant digits (0.750, 1.00, 2.5e-05); an exact 0 is "0"."""
    return "0" if value == 0 else f"{value:#.3g}"


def last_row_experiment(X, attentions, step=0.5, steps=3, moved=2):
    """§1.9. Change only the last row of X and see which output rows change.

    X: (T, D) input, used as q = k = v; attentions: functions f(q, k, v), e.g.
    ``[causal_attention, unmasked_attention]``.  One slider per entry X[T-1, j]
    offers X[T-1, j] + s * step for s = -steps .. steps; for every setting the
    table shows max_j |ΔY[i, j]| of every output row i under each function,
    compared with the output for X itself (3 significant digits; only an exact
    0 prints as 0).  The figure's ``changes`` maps each function's name to these
    numbers for every state, an array (states, T), for the notebook to check.

    The figure opens with X[T-1, 0] already moved by ``moved`` steps (an int
    from -steps to steps), so that even a page without JavaScript shows the
    point: rows before T-1 stay exactly 0 with the mask and change without it.
    ``moved=0`` opens with X unchanged, where every number is 0.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2:
        raise ValueError(f"X must have shape (T, D), got {X.shape}")
    if isinstance(moved, bool) or not isinstance(moved, (int, np.integer)) or abs(moved) > steps:
        raise ValueError(f"moved must be a whole number of steps from {-steps} to {steps}, got {moved!r}")
    T, D = X.shape
    offsets = np.arange(-steps, steps + 1) * step
    controls = [Control(f"X[{T - 1},{j}]", tuple(X[-1, j] + offsets),
                        tuple(_number(v) for v in X[-1, j] + offsets), steps) for j in range(D)]
    last_rows = np.array(list(itertools.product(*(c.values for c in controls))))   # (N, D)
    X_all = np.repeat(X[None], len(last_rows), axis=0)                             # (N, T, D)
    X_all[:, -1] = last_rows
    start = int(np.ravel_multi_index([c.start for c in controls], [len(c.values) for c in controls]))
    changes = []                                                                   # per function: (N, T)
    for f in attentions:
        Y = f(X_all, X_all, X_all)                                                 # (N, T, D), one batched call
        changes.append(np.abs(Y - Y[start]).max(axis=-1))                          # Y[start] is the output for X
    states = [[_significant(v) for change in changes for v in change[n]] for n in range(len(last_rows))]

    names = [f"<code>{html.escape(f.__name__).replace('_', '_<wbr>')}</code>" for f in attentions]
    head = [["", ("max|ΔY[i]|", len(attentions))], ["i"] + names]
    rows = [[str(i)] + [n * T + i for n in range(len(attentions))] for i in range(T)]
    legend = _filled(TEXTS["last_row_legend"], last=T - 1)
    shown = (steps + moved,) + (steps,) * (D - 1)
    figure = Figure("last-row", controls, states, head, rows, legend, TEXTS["last_row_caption"],
                    marked=range(len(attentions) * T), shown=shown)
    figure.changes = {f.__name__: change for f, change in zip(attentions, changes)}   # name -> (states, T)
    return figure


HEAD_COST_ROWS = [
    ("d", TEXTS["cost_head_width"]),
    ("4·D²", TEXTS["cost_parameters"]),
    ("B·H·T²", TEXTS["cost_attention_entries"]),
    ("MiB (float32)", TEXTS["cost_attention_bytes"]),
    ("GFLOP (matmul)", TEXTS["cost_matmul"]),
    ("M ops (softmax)", TEXTS["cost_softmax"]),
]


def head_cost_table(H, D, T, start):
    """§2.6. The costs of :func:`lib.costs.head_costs` for every choice of H, D and T.

    H, D, T: the options offered (every H must divide every D); start: the
    (H, D, T) shown first.  Batch 1, float32.
    """
    from lib.costs import head_costs

    options = {"H": list(H), "D": list(D), "T": list(T)}
    controls = []
    for (symbol, values), first in zip(options.items(), start):
        if first not in values:
            raise ValueError(f"start {symbol}={first} is not one of the options {values}")
        controls.append(Control(symbol, tuple(values), tuple(str(v) for v in values), values.index(first),
                                kind="buttons"))

    states = []
    for n_heads, width, length in itertools.product(*options.values()):
        c = {key: int(value) for key, value in head_costs(n_heads, width=width, length=length).items()}
        states.append([f"{c['head_width']}", f"{c['parameters']}", f"{c['attention_entries']}",
                       f"{c['attention_bytes'] / 2**20:.1f}", f"{c['matmul_flops'] / 1e9:.3f}",
                       f"{c['softmax_ops'] / 1e6:.1f}"])

    rows = [[header, k] for k, header in enumerate(HEAD_COST_ROWS)]
    return Figure("head-costs", controls, states, None, rows, TEXTS["head_costs_legend"], TEXTS["head_costs_caption"])
