"""The chapter's conceptual diagrams, drawn as SVG in each of its languages.

    python tools/diagrams.py             # write chapters/<lang>/figures/<name>.svg
    python tools/diagrams.py --check     # exit 1 if a committed file is not what this writes
    python tools/diagrams.py --markdown  # print the image line of each diagram, per language

Where ``lib`` decides what a diagram shows, the diagram asks ``lib``: which
(query, key) pairs are allowed comes from ``lib.attention.causal_future``,
which feature lands in which head from ``lib.attention.split_heads``, which
rows of E and P are added from the rule of ``lib.positions.embed``.  Words
come from the tables ``WORDS`` below (English; the catalogues of course_i18n translate them); the alt text of each
diagram (``ALT``) also becomes its SVG ``<title>``.

Sizes: every drawing is 420 units wide and no text is under 14 units, so in
the 328 px column of a 360 px phone the smallest text is 10.9 px; on a wide
screen the image is shown 1.25 times larger.

Light and dark: an ``<img>`` cannot see the page's theme, so every word sits
on a light fill of its own (dark ink on it) and lines are a middle grey; the
background stays transparent.  The same file then reads on a white and on a
black page, in Jupyter as on the website.  ``tests/test_diagrams.py`` renders
each file in Chromium and checks that every word lies inside its fill.
"""

from __future__ import annotations

import argparse
import html
import sys
import unicodedata
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from lib.attention import attention_scores, causal_future, masked_softmax, split_heads  # noqa: E402
from lib.positions import embed  # noqa: E402
from course_i18n import LANGUAGE_TABLE, LANGUAGES, localise_numbers  # noqa: E402
from course_i18n.catalogue import texts  # noqa: E402

HTML_LANG = {lang.code: lang.html_lang for lang in LANGUAGE_TABLE}
WIDTH = 420
SCALE = 1.25                # shown size on a wide screen, relative to the units
MIN_FONT = 14
FONT = "'Noto Sans', 'DejaVu Sans', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
MONO = "'DejaVu Sans Mono', 'Noto Sans Mono', Menlo, Consolas, monospace"

INK = "#1b1f24"             # text, always on a light fill
LINE = "#7d8792"            # arrows and outlines: readable on white and on black
FILL = {
    "note": "#c6cdd6", "allowed": "#9fc2f3", "future": "#d8dde4", "query": "#f6c27c",
    "key": "#9fc2f3", "value": "#a4d9ac", "score": "#cbb8f2", "weights": "#cbb8f2",
    "out": "#91d3cb", "head0": "#9fc2f3", "head1": "#f6c27c", "mix": "#c8ced6",
    "token": "#f1d98a", "position": "#f3b3c7", "new": "#a4d9ac", "old": "#9fc2f3",
}
TARGET = "#d9731a"          # the outline that marks a query's target


# --------------------------------------------------------------------------- drawing

def wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def text_width(text: str, size: float, mono: bool = False, bold: bool = False) -> float:
    """A generous estimate (DejaVu Sans, the widest of the fonts above)."""
    if mono:
        return sum(size * (1.0 if wide(c) else 0.61) for c in text)
    if bold:
        return 1.1 * text_width(text, size)
    width = 0.0
    for c in text:
        if wide(c):
            width += 1.0
        elif c in " \u00a0":
            width += 0.32
        elif c in "ijlI.,:;'|!()[]{}·":
            width += 0.36
        elif "\u0400" <= c <= "\u04ff":              # Cyrillic: wider than Latin in these fonts
            width += 0.76 if c.isupper() or c in "жшщюыМДФ" else 0.68
        elif c.isupper() or c in "mw—":
            width += 0.72
        elif c.isdigit():
            width += 0.64
        else:
            width += 0.59
    return width * size


OPERATORS = {"=", "+", "−", "-", "×", "≤", "<", ">", "≥", "·", "→", "…"}
CLOSING, OPENING = "，。：；、）》”！？", "（《“"


def _pieces(text: str) -> list[tuple[str, bool]]:
    """(piece, a space follows): the units a line break may not split.  Chinese is
    cut into words (jieba, as the site's search does), punctuation kept with its word."""
    pieces = []
    for part in text.split(" "):
        if any(wide(c) for c in part):
            import jieba
            jieba.setLogLevel(60)
            merged = []
            for word in jieba.lcut(part, HMM=False):
                if merged and (word[0] in CLOSING or merged[-1][-1] in OPENING or not wide(word[0]) and not wide(merged[-1][-1])):
                    merged[-1] += word
                else:
                    merged.append(word)
            pieces += [(word, False) for word in merged[:-1]] + [(merged[-1], True)]
        else:
            pieces.append((part, True))
    return pieces


def wrap(text: str, size: float, width: float, mono: bool = False, bold: bool = False) -> list[str]:
    """Lines of at most ``width``: break at spaces (never next to an operator, so
    a formula stays whole) and between Chinese words."""
    units = []                                   # (text, a space follows): formulas glued whole
    for chunk, spaced in _pieces(text):
        if units and units[-1][1] and (chunk in OPERATORS or units[-1][0].split(" ")[-1] in OPERATORS):
            units[-1] = (units[-1][0] + " " + chunk, spaced)
        else:
            units.append((chunk, spaced))
    lines, line, joiner = [], "", ""
    for chunk, spaced in units:
        candidate = line + joiner + chunk if line else chunk
        if line and text_width(candidate, size, mono, bold) > width:
            lines.append(line)
            line = chunk
        else:
            line = candidate
        joiner = " " if spaced else ""
    if line:
        lines.append(line)
    return lines

class Drawing:
    def __init__(self, lang: str):
        self.lang = lang
        self.items: list[str] = []
        self.bottom = 0.0
        # y where a tall drawing may be cut in two, to lay the halves side by side on wide screens
        self.split: float | None = None
        # (x, name, anchor): what a line crossing the cut carries, written beside it in both halves,
        # so that a line leaving the first half is seen to enter the second
        self.cut_labels: list[tuple[float, str, str]] = []

    def _grow(self, y: float) -> None:
        self.bottom = max(self.bottom, y)

    def rect(self, x, y, w, h, fill, rx=5.0, stroke=LINE, stroke_width=1.0, dash=None):
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" rx="{rx:g}" fill="{fill}" '
                          f'stroke="{stroke}" stroke-width="{stroke_width:g}"{extra}/>')
        self._grow(y + h)

    def text(self, x, y, text, size=15.0, anchor="middle", bold=False, mono=False):
        """One line of text, vertically centred on y."""
        if size < MIN_FONT:
            raise ValueError(f"text {text!r} at {size} units would be under {MIN_FONT}")
        attrs = f' font-weight="bold"' if bold else ""
        attrs += f' font-family="{MONO}"' if mono else ""
        self.items.append(f'<text x="{x:g}" y="{y + 0.36 * size:g}" font-size="{size:g}" text-anchor="{anchor}"'
                          f'{attrs}>{html.escape(text)}</text>')

    @staticmethod
    def rows(w, lines, size=15.0, pad=8.0, bold_first=False, mono_first=False):
        """The wrapped lines of a box: [(text, size, mono, bold)], and their height."""
        rows = []
        for n, line in enumerate(lines):
            if isinstance(line, tuple):
                text, line_size, mono, bold = line
            else:
                text, line_size, mono, bold = line, size, n == 0 and mono_first, n == 0 and bold_first
            for part in wrap(text, line_size, w - 2 * pad, mono, bold):
                rows.append((part, line_size, mono, bold))
        return rows, sum(1.3 * r[1] for r in rows)

    def box(self, x, y, w, lines, fill, size=15.0, h=None, bold_first=False, mono_first=False,
            pad=8.0, align="middle", stroke=LINE):
        """A filled box with lines of text; a line is a str (wrapped to fit) or (str, size, mono, bold).
        Returns the box's bottom."""
        rows, content = self.rows(w, lines, size, pad, bold_first, mono_first)
        h = h if h is not None else content + 2 * pad
        if content > h - 2:
            raise ValueError(f"{lines!r} do not fit a box {w}x{h}")
        self.rect(x, y, w, h, fill, stroke=stroke)
        cy = y + (h - content) / 2
        tx = {"middle": x + w / 2, "start": x + pad}[align]
        for text, line_size, mono, bold in rows:
            self.text(tx, cy + 0.65 * line_size, text, line_size, anchor=align, bold=bold, mono=mono)
            cy += 1.3 * line_size
        return y + h

    def arrow(self, *points, width=2.0):
        path = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.items.append(f'<polyline points="{path}" fill="none" stroke="{LINE}" stroke-width="{width:g}" '
                          f'marker-end="url(#arrow)"/>')
        self._grow(max(y for _, y in points))

    def line(self, *points, width=2.0):
        path = " ".join(f"{x:g},{y:g}" for x, y in points)
        self.items.append(f'<polyline points="{path}" fill="none" stroke="{LINE}" stroke-width="{width:g}"/>')

    def svg(self, alt: str) -> str:
        height = round(self.bottom + 10)
        return self._svg(alt, WIDTH, height, "".join(self.items))

    def svg_wide(self, alt: str) -> str | None:
        """The drawing cut at ``split`` into two halves side by side (None if it has no split).

        Each half is a nested viewport onto the same drawing, so the two files can never
        differ in what they show; the text is as large as in the tall version."""
        if self.split is None:
            return None
        gap, tail = 24, 13           # the first half shows the lines 13 units past the cut, with their labels
        cut = round(self.split)
        first = cut + (tail if self.cut_labels else 0)
        second = round(self.bottom + 10) - cut
        labels = Drawing(self.lang)
        for x, name, anchor in self.cut_labels:
            labels.text(x, cut + tail / 2, name, MIN_FONT, anchor=anchor, bold=True, mono=True)
        items = "".join(self.items + labels.items)
        body = (f'<svg x="0" y="0" width="{WIDTH}" height="{first}" viewBox="0 0 {WIDTH} {first}">{items}</svg>'
                f'<svg x="{WIDTH + gap}" y="0" width="{WIDTH}" height="{second}" '
                f'viewBox="0 {cut} {WIDTH} {second}">{items}</svg>')
        return self._svg(alt, 2 * WIDTH + gap, max(first, second), body)

    def _svg(self, alt: str, width: float, height: float, body: str) -> str:
        defs = (
            '<defs>'
            f'<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
            f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{LINE}"/></marker>'
            '<pattern id="hatch" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            f'<rect width="7" height="7" fill="{FILL["future"]}"/>'
            f'<line x1="0" y1="0" x2="0" y2="7" stroke="{LINE}" stroke-width="2.2"/></pattern>'
            '</defs>'
        )
        return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
                f'width="{width * SCALE:g}" height="{height * SCALE:g}" role="img" lang="{HTML_LANG[self.lang]}" '
                f'font-family="{FONT}" fill="{INK}">'
                f'<title>{html.escape(alt)}</title>{defs}'
                + body + "</svg>\n")


# --------------------------------------------------------------------------- words

TOKENS = ["<bos>", "春", "风", "春", "雨"]           # 春风春雨, "spring wind, spring rain"

WORDS = {
    "allowed_pairs": texts("tools.diagrams.words.allowed_pairs", {
        "square": "tq = tk = 5: query i reads keys j ≤ i",
        "key": "key j",
        "query": "query i",
        "cache": "After a cache of 3 positions: tq = 2 new queries, tk = 5 keys",
        "cached": "in the cache",
        "new": "new",
        "position": "position {p}",
        "shift": "Query i stands at position tk − tq + i and reads keys j ≤ tk − tq + i: the bottom-right corner "
                 "of the triangle",
        "legend_allowed": "allowed: may read (allowed = True)",
        "legend_future": "future: forbidden (future = True)",
        "legend_target": "target of query i = input i + 1",
    }),
    "lookup": texts("tools.diagrams.words.lookup", {
        "title": "Attention as a soft lookup: the query of 春 meets the key of every token",
        "query": "query of 春: what I am looking for",
        "key": "key: what I contain",
        "weight": "weight α",
        "value": "value: what I hand over",
        "season": "season",
        "weather": "weather",
        "start": "start",
        "spring": "spring",
        "wind": "wind",
        "rain": "rain",
        "nothing": "nothing",
        "output": "output of 春 = Σ α·v",
        "future": "Dashed: the positions after 春. Most of its weight lands there; §1 forbids these keys.",
    }),
    "one_head": texts("tools.diagrams.words.one_head", {
        "head": "one attention head: W_Q, W_K, W_V are D × d",
        "x": "inputs, one row per position",
        "q": "queries",
        "k": "keys",
        "v": "values",
        "s": "scores: every query with every key",
        "a": "masked softmax: each row normalised over j ≤ i only; future weights are exactly 0",
        "y": "output of the head: a weighted mean of the values it may read",
    }),
    "heads": texts("tools.diagrams.words.heads", {
        "x": "the D = 8 features of one position t",
        "rule": "split_heads: head h, coordinate a = feature h·d + a",
        "head": "head {h}: features {a}…{b}",
        "attend": "same allowed set j ≤ i, its own softmax",
        "merge": "merge_heads: concatenated in head order",
        "wo": "× W_O (D × D): a generic W_O mixes all heads into every feature",
        "y": "output y[t]",
    }),
    "positions": texts("tools.diagrams.words.positions", {
        "tokens": "tokens x = [春, 雨, 风] after a stored <bos>, t = 0, 1, 2",
        "offset": "offset o = 1: they stand at positions 1, 2, 3",
        "E": "token embedding table E (|𝒱| × D): row by token id",
        "P": "position table P (C × D): row by position o + t",
        "sum": "input t = {t}",
        "is": "=",
    }),
    "cache": texts("tools.diagrams.words.cache", {
        "step": "step {s}: {tok} goes to position len(cache) = {s}",
        "reads": "q{s} reads every stored position: {ps}",
        "legend_new": "key and value appended in this step",
        "legend_old": "already in the cache (one per head)",
    }),
    "decoder": texts("tools.diagrams.words.decoder", {
        "title": "The decoder of §7: L pre-LN blocks",
        "tokens": "token ids, one per position",
        "embed": "token row plus position row (§3)",
        "block": "block ℓ, for ℓ = 0, 1, …, L − 1",
        "stream": "residual stream X",
        "ln": "normalises each row on its own",
        "attn": "causal multi-head attention (§1, §2): the only step in which row t reads other rows, j ≤ t",
        "mlp": "two linear maps with GELU between them, each row on its own",
        "ln_f": "a last layer normalisation",
        "head": "logits: at every position, one number per token of the vocabulary; the larger it is, the likelier that token comes next",
    }),
    "cone": texts("tools.diagrams.words.cone", {
        "title": "Row i = 2 of layer 1 and every row it can depend on",
        "layer": "layer {l}",
        "input": "input X",
        "tokens": "tokens t",
        "attention": "Attention: row i reads rows j ≤ i of the layer below.",
        "local": "Everything else (projections, W_O, normalisation within a position, MLP, residual) reads row i "
                 "only.",
        "legend_cone": "in the cone: rows 0…2 of every layer below",
        "legend_future": "the future of row 2: row 2 never reads it",
        "legend_other": "other rows of layer 1: row 2 does not read them",
    }),
}

ALT = texts("tools.diagrams.alt", {
    "allowed_pairs": "Two grids. Top: five positions BOS 春 风 春 雨, queries i as rows and keys j as columns; the "
                     "cells with j ≤ i (the diagonal and below) are allowed, the future cells above it are "
                     "forbidden, and the target of every row but the last, input i + 1, is the row's first "
                     "forbidden cell. Bottom: "
                     "after a cache of 3 positions, 2 new queries read 5 keys and query i stands at position 3 + "
                     "i; the allowed cells are the bottom-right corner of the triangle above, its last two rows.",
    "lookup": "Attention as a soft lookup in the text BOS 春 风 雨. The query of 春 looks for weather. The "
              "keys say what each token contains: BOS start, 春 season, 风 and 雨 weather. The weights are 0.015, "
              "0.015, 0.485 and 0.485, so the output of 春, the weighted sum of the values, is mostly wind and "
              "rain: two tokens that come after 春.",
    "one_head": "The path through one head. The input X (T × D), multiplied by W_Q, W_K and W_V, gives Q, K and V "
                "(T × d). Q times K transposed, divided by √d, gives the T × T scores S. The masked softmax "
                "normalises each row over j ≤ i only, so the weights α are lower-triangular. α times V is the "
                "head's output Y (T × d).",
    "heads": "Splitting and merging heads: of the 8 features of one position, features 0 to 3 go to head 0 and 4 "
             "to 7 to head 1, so coordinate a of head h is feature h·d + a (d = 4); both heads attend over the "
             "same allowed set, each with its own softmax; their outputs are concatenated back in head order into "
             "8 features and multiplied by W_O; a generic W_O mixes both heads into every output feature.",
    # t is the index in the new input, o + t the absolute position (§3): the figure's labels say both
    "positions": "Learned absolute positions: 春, 雨 and 风 after a stored BOS have the indices t = 0, 1, 2 in the "
                 "new input and, with offset o = 1, stand at the absolute positions o + t = 1, 2, 3. Each input "
                 "vector is the row of the token embedding table E picked by the token id (rows 3, 4, 5) plus the "
                 "row of the position table P picked by o + t (rows 1, 2, 3).",
    "cache": "The KV cache grows by one position per step: steps 0, 1 and 2 feed BOS, 春 and 雨. At each step the "
             "new token goes to position len(cache), its key and value are appended to the cache, and its query "
             "reads every stored position, its own included.",
    "decoder": "The decoder of §7 as a block diagram, from top to bottom in the order of the computation: the token ids x; "
               "the input X = E of x plus P of t; then L pre-LN blocks, each of which normalises the residual "
               "stream X, passes it through causal multi-head attention and adds the result back, then normalises "
               "it again, passes it through the MLP and adds that back; after the blocks a last layer "
               "normalisation and W_head, which give the logits of the next token at every position.",
    "cone": "The structural argument as a picture: five positions BOS 春 风 春 雨, from bottom to top the tokens, the "
            "input X = E plus P, layer 0 and layer 1. Row 2 of layer 1 reads rows 0 to 2 of layer 0 through "
            "attention, and these read rows 0 to 2 of the input; so in every layer below it only rows 0 to 2 lie "
            "in its cone, while rows 3 and 4 are its future, which it reads at no layer.",
})


# --------------------------------------------------------------------------- the diagrams

def _grid(d: Drawing, x0, y0, cell, allowed, target_offset=None):
    """Cells of an allowed matrix: filled where True, hatched where False; a target
    outline on (i, i + 1 + target_offset) when target_offset is given."""
    rows, cols = allowed.shape
    for i in range(rows):
        for j in range(cols):
            x, y = x0 + j * cell, y0 + i * cell
            d.rect(x + 1, y + 1, cell - 2, cell - 2, FILL["allowed"] if allowed[i, j] else "url(#hatch)", rx=3)
        if target_offset is not None and i + 1 + target_offset < cols:
            j = i + 1 + target_offset
            d.rect(x0 + j * cell + 3, y0 + i * cell + 3, cell - 6, cell - 6, "none", rx=3, stroke=TARGET,
                   stroke_width=3.5)


def allowed_pairs(lang: str) -> Drawing:
    """§1: which (query, key) pairs are allowed, and the bottom-right shift after a cache."""
    w = {k: v[lang] for k, v in WORDS["allowed_pairs"].items()}
    d = Drawing(lang)
    T = len(TOKENS)
    cell, label_w = 52, 110
    x0 = (WIDTH - label_w - 8 - T * cell) / 2 + label_w + 8            # the grids' left edge
    lx = x0 - 8 - label_w

    def columns(y, groups=None):
        if groups:
            for (text, first, last) in groups:
                d.box(x0 + first * cell + 1, y, (last - first + 1) * cell - 2, [text], FILL["note"], size=14, h=26,
                      pad=4)
            y += 30
        else:
            d.box(x0 + 1, y, T * cell - 2, [w["key"]], FILL["note"], size=14, h=26)
            d.box(lx, y, label_w, [w["query"]], FILL["note"], size=14, h=26)
            y += 30
        for j, token in enumerate(TOKENS):
            d.box(x0 + j * cell + 2, y, cell - 4, [(str(j), 14, True, False), (token, 14, True, True)],
                  FILL["token"], h=42, pad=4)
        return y + 46

    y = d.box(10, 10, WIDTH - 20, [w["square"]], FILL["note"], size=15, bold_first=True) + 8
    y = columns(y)
    allowed = ~causal_future(T, T)                                      # (Tq, Tk), True = may read
    for i, token in enumerate(TOKENS):
        d.box(lx, y + i * cell + 2, label_w, [(f"i = {i} {token}", 14, True, False)], FILL["token"], h=cell - 4,
              pad=4)
    _grid(d, x0, y, cell, allowed, target_offset=0)
    y += T * cell + 18

    tq, tk = 2, T                                                       # §1.4: a cache of 3, then 2 queries
    d.split = y - 8                                                     # wide screens: the two grids side by side
    y = d.box(10, y, WIDTH - 20, [w["cache"]], FILL["note"], size=15, bold_first=True) + 8
    y = columns(y, groups=[(w["cached"], 0, tk - tq - 1), (w["new"], tk - tq, tk - 1)])
    allowed = ~causal_future(tq, tk)                                    # bottom-right alignment
    for i in range(tq):
        p = tk - tq + i
        d.box(lx, y + i * cell + 2, label_w, [(f"i = {i} {TOKENS[p]}", 14, True, False),
                                              (w["position"].format(p=p), 14, False, False)], FILL["token"],
              h=cell - 4, pad=3)
    _grid(d, x0, y, cell, allowed)
    y += tq * cell + 10
    y = d.box(10, y, WIDTH - 20, [w["shift"]], FILL["note"], size=14) + 14

    # legend: one box, a swatch and a line each
    top = y
    d.rect(10, top, WIDTH - 20, 3 * 30 + 12, FILL["note"])
    for n, (kind, text) in enumerate([("allowed", w["legend_allowed"]), ("future", w["legend_future"]),
                                      ("target", w["legend_target"])]):
        sy = top + 8 + n * 30
        if kind == "target":
            d.rect(22, sy + 2, 30, 22, FILL["future"], rx=3, stroke=TARGET, stroke_width=3.5)
        else:
            d.rect(22, sy + 2, 30, 22, FILL["allowed"] if kind == "allowed" else "url(#hatch)", rx=3)
        d.text(62, sy + 13, text, 14, anchor="start")
    return d


# §0.2: the soft lookup.  One sentence; the rows of W_Q, W_K and W_V say, for each token, what it looks
# for, what it contains and what it hands over (the chapter's cell computes the same numbers).
LOOKUP_TOKENS = ["<bos>", "春", "风", "雨"]
LOOKUP_KEY_NAMES = ["season", "weather", "start"]          # the coordinates of queries and keys
LOOKUP_VALUE_NAMES = ["spring", "wind", "rain"]            # the coordinates of values
LOOKUP_W_K = np.array([[0, 0, 1], [1, 0, 0], [0, 1, 0], [0, 1, 0]])
LOOKUP_W_Q = 6 * np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 0]])
LOOKUP_W_V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])


def lookup_weights() -> np.ndarray:
    """(T, T): every query against every key, no mask (one-hot inputs, so q, k, v are rows of W)."""
    scores = attention_scores(LOOKUP_W_Q.astype(float), LOOKUP_W_K.astype(float))
    return masked_softmax(scores, np.ones(scores.shape, dtype=bool))


def lookup(lang: str) -> Drawing:
    """§0.2: the query of 春 against every key, with the weights lib computes and the values handed over."""
    w = {k: v[lang] for k, v in WORDS["lookup"].items()}
    d = Drawing(lang)
    row = 1                                                   # the query shown: 春
    alpha = lookup_weights()[row]                             # (T,)
    out = alpha @ LOOKUP_W_V                                  # (3,)
    name = lambda vector, names: w[names[int(np.argmax(vector))]] if vector.any() else w["nothing"]  # noqa: E731
    # a number as the page's language writes it (0,015 in Russian, as the alt text says it)
    number = lambda value: localise_numbers(f"{value:.3f}", lang)  # noqa: E731
    y = d.box(10, 10, WIDTH - 20, [w["title"]], FILL["note"], size=15, bold_first=True) + 8
    qw = 104
    _, query_h = d.rows(WIDTH - 36 - qw - 8, [w["query"]], 14, pad=2)
    query_h = max(query_h + 6, 34)
    d.rect(10, y, WIDTH - 20, query_h + 12, FILL["query"])
    d.box(18, y + 6, WIDTH - 36 - qw - 8, [w["query"]], FILL["query"], size=14, h=query_h, stroke="none",
          align="start", pad=2)
    d.box(WIDTH - 18 - qw, y + 6 + (query_h - 34) / 2, qw, [(name(LOOKUP_W_Q[row], LOOKUP_KEY_NAMES), 15, False, True)],
          FILL["query"], h=34, pad=3)
    y += query_h + 12 + 10
    cols = [(10, 64), (80, 112), (198, 116), (320, 90)]       # token | key | weight | value
    heads = [None, (w["key"], "key"), (w["weight"], "weights"), (w["value"], "value")]
    rows_h = max(d.rows(cw, [text], 14, pad=5)[1] for (x, cw), (text, _) in zip(cols[1:], heads[1:]))
    for (x, cw), head in zip(cols[1:], heads[1:]):
        d.box(x, y, cw, [head[0]], FILL[head[1]], size=14, h=rows_h + 10, pad=5)
    y += rows_h + 16
    row_h, top = 46, y
    for t, token in enumerate(LOOKUP_TOKENS):
        ry = y + t * row_h
        d.box(cols[0][0], ry, cols[0][1], [(f"t = {t}", 14, True, False), (token, 14, True, True)], FILL["token"],
              h=row_h - 6, pad=2)
        d.box(cols[1][0], ry, cols[1][1], [(name(LOOKUP_W_K[t], LOOKUP_KEY_NAMES), 15, False, True)], FILL["key"],
              h=row_h - 6, pad=3)
        x, cw = cols[2]
        d.rect(x, ry, cw, row_h - 6, FILL["mix"])
        number_w, bar_w = 50, cw - 50 - 12
        d.rect(x + 4, ry + 10, max(2.0, bar_w * float(alpha[t])), row_h - 26, FILL["weights"], rx=2)
        d.box(x + cw - number_w - 4, ry + 5, number_w, [(number(alpha[t]), 14, True, False)], FILL["note"],
              h=row_h - 16, pad=2)
        d.box(cols[3][0], ry, cols[3][1], [(name(LOOKUP_W_V[t], LOOKUP_VALUE_NAMES), 15, False, True)],
              FILL["value"], h=row_h - 6, pad=3)
    future = [t for t in range(len(LOOKUP_TOKENS)) if t > row]
    d.rect(6, top + future[0] * row_h - 4, WIDTH - 12, len(future) * row_h + 2, "none", stroke=TARGET,
           stroke_width=2.5, dash="7 5")
    y = top + len(LOOKUP_TOKENS) * row_h + 8
    d.split = y - 4
    chips = [(number(out[n]), w[value]) for n, value in enumerate(LOOKUP_VALUE_NAMES)]
    _, head_h = d.rows(WIDTH - 36, [w["output"]], 15)
    box_h = head_h + 12 + 34 + 10
    d.rect(10, y, WIDTH - 20, box_h, FILL["out"])
    d.box(18, y + 4, WIDTH - 36, [(w["output"], 15, False, True)], FILL["out"], h=head_h + 8, stroke="none",
          align="start", pad=2)
    cw = (WIDTH - 36 - 2 * 8) / 3
    for n, (number, word) in enumerate(chips):
        d.box(18 + n * (cw + 8), y + head_h + 12, cw, [f"{number} {word}"], FILL["note"], size=14, h=34, pad=3)
    y += box_h + 8
    d.box(10, y, WIDTH - 20, [w["future"]], FILL["note"], size=14, align="start")
    return d


def one_head(lang: str) -> Drawing:
    """§1 / §2: one head, from X through Q, K, V, the scores and the masked softmax to its output."""
    w = {k: v[lang] for k, v in WORDS["one_head"].items()}
    d = Drawing(lang)
    mono = lambda s: (s, 15, True, True)          # noqa: E731
    shape = lambda s: (s, 14, True, False)        # noqa: E731
    cx = WIDTH / 2
    top = d.box(10, 10, WIDTH - 20, [w["head"]], FILL["note"], size=14) + 12
    bottom = d.box(cx - 110, top, 220, [mono("X"), w["x"], shape("(T, D)")], FILL["mix"])
    bw, gap = 128, 8
    xs = [10, 10 + bw + gap, 10 + 2 * (bw + gap)]
    top = bottom + 34
    for x in xs:
        d.arrow((cx, bottom), (cx, bottom + 14), (x + bw / 2, bottom + 14), (x + bw / 2, top - 2))
    bottoms = [d.box(x, top, bw, [mono(f), text, shape("(T, d)")], FILL[kind], h=86)
               for x, f, text, kind in zip(xs, ["Q = X·W_Q", "K = X·W_K", "V = X·W_V"],
                                           [w["q"], w["k"], w["v"]], ["query", "key", "value"])]
    top = bottoms[0] + 34
    d.split = bottoms[0] + 17        # wide screens: X and its projections | scores, weights and output
    d.cut_labels = [(xs[0] + bw / 2 + 10, "Q", "start"), (xs[1] + bw / 2 + 10, "K", "start"),
                    (WIDTH - 12, "V", "end")]
    sw = 2 * bw + gap
    for x in xs[:2]:
        d.arrow((x + bw / 2, bottoms[0]), (x + bw / 2, top - 2))
    bottom = d.box(10, top, sw, [mono("S = Q·Kᵀ / √d"), w["s"], shape("(T, T)")], FILL["score"])
    top = bottom + 34
    d.arrow((10 + sw / 2, bottom), (10 + sw / 2, top - 2))
    # the masked softmax, a small picture of its lower-triangular result in the same box
    aw, icon_w, cell = WIDTH - 30, 96, 20
    lines = [("α = masked_softmax(S, allowed)", 14, True, True), w["a"], shape("(T, T)")]
    _, content = d.rows(aw - icon_w, lines)
    box_h = max(content + 16, 4 * cell + 16)
    d.rect(10, top, aw, box_h, FILL["weights"])
    d.box(10, top, aw - icon_w, lines, FILL["weights"], h=box_h, stroke="none")
    icon = 10 + aw - icon_w + (icon_w - 4 * cell) / 2 - 6
    tri = ~causal_future(4, 4)
    for i in range(4):
        for j in range(4):
            d.rect(icon + j * cell, top + (box_h - 4 * cell) / 2 + i * cell, cell - 2, cell - 2,
                   FILL["weights"] if tri[i, j] else "url(#hatch)", rx=2)
    box_bottom = top + box_h
    top = box_bottom + 34
    d.arrow((10 + sw / 2, box_bottom), (10 + sw / 2, top - 2))
    vx = xs[2] + bw / 2
    d.arrow((vx, bottoms[2]), (vx, bottoms[2] + 12), (WIDTH - 6, bottoms[2] + 12), (WIDTH - 6, top + 30),
            (10 + sw + 2, top + 30))
    d.box(10, top, sw, [mono("Y = α·V"), w["y"], shape("(T, d)")], FILL["out"])
    return d


def heads(lang: str) -> Drawing:
    """§2: which feature goes to which head (split_heads), and the merge through W_O."""
    w = {k: v[lang] for k, v in WORDS["heads"].items()}
    d = Drawing(lang)
    D, H = 8, 2
    dh = D // H
    # ask lib where every feature goes: feature f of position 0 -> (head, coordinate)
    codes = split_heads(np.arange(D)[None, None, :], H)[0, :, 0, :]       # (H, d): feature index per slot
    cell = 44
    x0 = (WIDTH - D * cell) / 2

    def feature_row(y, labels, fills):
        for f in range(D):
            d.box(x0 + f * cell + 2, y, cell - 4, [(labels[f], 15, True, True)], fills[f], h=34, pad=3)
        return y + 34

    head_fill = [FILL["head0"] if f // dh == 0 else FILL["head1"] for f in range(D)]
    y = d.box(10, 10, WIDTH - 20, [w["x"]], FILL["note"], size=14) + 6
    y = d.box(10, y, WIDTH - 20, [w["rule"]], FILL["note"], size=14) + 8
    y = feature_row(y, [f"c{f}" for f in range(D)], head_fill)
    hw = (WIDTH - 20 - 12) / H
    top = y + 40
    bottoms = []
    for h in range(H):
        hx = 10 + h * (hw + 12)
        first, last = int(codes[h, 0]), int(codes[h, -1])
        # a bracket under the head's features, and an arrow down to the head
        left, right = x0 + first * cell + 6, x0 + (last + 1) * cell - 6
        d.line((left, y + 4), (left, y + 12), (right, y + 12), (right, y + 4))
        middle = (left + right) / 2
        d.arrow((middle, y + 12), (middle, y + 24), (hx + hw / 2, y + 24), (hx + hw / 2, top - 2))
        bottom = d.box(hx, top, hw, [(w["head"].format(h=h, a=first, b=last), 15, False, True)], FILL[f"head{h}"],
                       pad=6)
        slots_top = bottom + 6
        sc = (hw - 8) / dh
        for a in range(dh):
            d.box(hx + 4 + a * sc, slots_top, sc - 4, [(f"a={a}", 14, True, False), (f"c{int(codes[h, a])}", 14, True, True)],
                  FILL[f"head{h}"], h=42, pad=2)
        bottom = d.box(hx, slots_top + 48, hw, [w["attend"]], FILL["note"], size=14)
        bottoms.append(bottom)
    y = max(bottoms) + 30
    d.split = max(bottoms) + 15      # wide screens: the split into heads | the merge and W_O
    d.cut_labels = [(10 + h * (hw + 12) + hw / 2 + 10, f"h = {h}", "start") for h in range(H)]
    for h in range(H):
        hx = 10 + h * (hw + 12)
        d.arrow((hx + hw / 2, max(bottoms)), (hx + hw / 2, y - 2))
    y = d.box(10, y, WIDTH - 20, [w["merge"]], FILL["note"], size=14) + 6
    y = feature_row(y, [f"a{f % dh}" for f in range(D)], head_fill) + 30
    d.arrow((WIDTH / 2, y - 30), (WIDTH / 2, y - 2))
    y = d.box(10, y, WIDTH - 20, [w["wo"]], FILL["mix"], size=14) + 30
    d.arrow((WIDTH / 2, y - 30), (WIDTH / 2, y - 2))
    y = d.box(x0, y, D * cell, [w["y"]], FILL["note"], size=14) + 6
    feature_row(y, [f"y{f}" for f in range(D)], [FILL["out"]] * D)
    return d


def positions(lang: str) -> Drawing:
    """§3: E[x] + P[o + t] with the position table and the offset (the example of §3.1: a text that
    continues a stored <bos>, so o = 1)."""
    w = {k: v[lang] for k, v in WORDS["positions"].items()}
    d = Drawing(lang)
    vocab = ["<unk>", "<bos>", "<eos>", "春", "雨", "风"]
    ids, offset, C, D = [3, 4, 5], 1, 8, 4                        # 春 雨 风 after a stored <bos>: o = 1
    # ask embed which rows it adds: one-hot tables, E's in the first V columns, P's in the last C
    V = len(vocab)
    E_codes = np.hstack([np.eye(V), np.zeros((V, C))])
    P_codes = np.hstack([np.zeros((C, V)), np.eye(C)])
    picked = embed(np.array(ids), E_codes, P_codes, offset=offset)  # (T, V + C)
    rows_E = [int(np.argmax(row[:V])) for row in picked]
    rows_P = [int(np.argmax(row[V:])) for row in picked]
    y = d.box(10, 10, WIDTH - 20, [w["tokens"]], FILL["token"], size=15, bold_first=True) + 6
    y = d.box(10, y, WIDTH - 20, [w["offset"]], FILL["position"], size=14) + 16
    tw, cell, row_h = 196, 22, 28
    tables = []
    for n, (title, names, chosen, fill) in enumerate([
            (w["E"], [f"{i} {v}" for i, v in enumerate(vocab)], rows_E, FILL["token"]),
            (w["P"], [f"{offset}+{p - offset} = {p}" if p in rows_P else str(p) for p in range(C)], rows_P,
             FILL["position"])]):
        tx = 10 + n * (tw + 8)
        head_bottom = d.box(tx, y, tw, [title], FILL["note"], size=14, h=76)
        tables.append((tx, head_bottom + 6, names, chosen, fill))
    grid_top = max(t[1] for t in tables)
    for tx, _, names, chosen, fill in tables:
        for r, name in enumerate(names):
            ry = grid_top + r * row_h
            picked = r in chosen
            label_fill = fill if picked else FILL["note"]
            d.box(tx, ry + 2, 84, [(name, 14, True, picked)], label_fill, h=row_h - 4, pad=3)
            for c in range(D):
                d.rect(tx + 92 + c * (cell + 2), ry + 3, cell, row_h - 6, fill if picked else FILL["mix"], rx=2)
    y = grid_top + C * row_h + 16
    gap = 8
    sw = (WIDTH - 20 - (len(ids) - 1) * gap) / len(ids)
    for t in range(len(ids)):
        sx = 10 + t * (sw + gap)
        d.rect(sx, y, sw, 84, FILL["mix"])
        d.text(sx + sw / 2, y + 16, w["sum"].format(t=t), 14, bold=True)
        chip = (sw - 8 - 16) / 2
        d.box(sx + 4, y + 34, chip, [(f"E[{rows_E[t]}]", 14, True, True), (vocab[rows_E[t]], 14, True, False)],
              FILL["token"], h=42, pad=1)
        d.text(sx + sw / 2, y + 55, "+", 15, bold=True)
        d.box(sx + sw - 4 - chip, y + 34, chip, [(f"P[{rows_P[t]}]", 14, True, True), (f"{offset}+{t}", 14, True, False)],
              FILL["position"], h=42, pad=1)
    return d


def cache(lang: str) -> Drawing:
    """§5: the KV cache grows by one position per step; the new query reads all of it."""
    w = {k: v[lang] for k, v in WORDS["cache"].items()}
    d = Drawing(lang)
    steps = ["<bos>", "春", "雨"]                      # §5 feeds <bos> 春 雨
    cell, label_w = 62, 34
    x0 = 10 + label_w + 6
    y = 10
    for s, token in enumerate(steps):
        y = d.box(10, y, WIDTH - 20, [w["step"].format(s=s, tok=token)], FILL["note"], size=14, bold_first=True) + 6
        for r, name in enumerate(("K", "V")):
            ry = y + r * 34
            d.box(10, ry, label_w, [(name, 15, True, True)], FILL["mix"], h=30, pad=2)
            for p in range(s + 1):
                fill = FILL["new"] if p == s else FILL["old"]
                d.box(x0 + p * cell, ry, cell - 4, [(f"{name.lower()}{p}", 15, True, p == s)], fill, h=30, pad=2)
        # the new query reads every stored position: a bracket under 0 .. s, q hanging from it
        by = y + 2 * 34 + 2
        left, right = x0 + 4, x0 + (s + 1) * cell - 8
        d.line((left, by), (left, by + 8), (right, by + 8), (right, by))
        qx = x0 + s * cell
        d.line((qx + cell / 2 - 2, by + 8), (qx + cell / 2 - 2, by + 20))
        qy = by + 20
        d.box(qx, qy, cell - 4, [(f"q{s}", 15, True, True)], FILL["query"], h=30, pad=2)
        rx = x0 + (s + 1) * cell + 4
        d.box(rx, qy - 6, WIDTH - 10 - rx, [w["reads"].format(s=s, ps=",\u00a0".join(map(str, range(s + 1))))],
              FILL["query"], size=14, pad=5)
        y = d.bottom + 16
        if s == 1:
            d.split = y - 8                                             # wide screens: steps 0-1 | step 2
    top = y
    d.rect(10, top, WIDTH - 20, 2 * 30 + 12, FILL["note"])
    for n, (kind, text) in enumerate([("new", w["legend_new"]), ("old", w["legend_old"])]):
        sy = top + 8 + n * 30
        d.rect(22, sy + 2, 30, 22, FILL[kind], rx=3)
        d.text(62, sy + 13, text, 14, anchor="start")
    return d


def cone(lang: str) -> Drawing:
    """§4.2: the rows that row i of the top layer can depend on, layer by layer (the induction).

    Which rows a row reads through attention comes from ``lib.attention.causal_future``;
    the cone of the top row is followed down through every layer from it."""
    w = {k: v[lang] for k, v in WORDS["cone"].items()}
    d = Drawing(lang)
    T, top_row, n_layers = len(TOKENS), 2, 2
    allowed = ~causal_future(T, T)                                     # (Tq, Tk), True = may read
    # cone[l]: the rows of layer l (0 = the input X) that row top_row of the top layer can depend on
    cone = [set() for _ in range(n_layers + 1)]
    cone[n_layers] = {top_row}
    for layer in range(n_layers, 0, -1):
        cone[layer - 1] = {j for i in cone[layer] for j in range(T) if allowed[i, j]}
    cell, label_w, row_h, gap = 56, 96, 46, 56
    x0 = WIDTH - 10 - T * cell
    centre = lambda t: x0 + t * cell + cell / 2                        # noqa: E731
    y = d.box(10, 10, WIDTH - 20, [w["title"]], FILL["note"], size=15, bold_first=True) + 16

    def cells(y, layer, label):
        d.box(10, y, label_w, label, FILL["mix"], size=14, h=row_h, pad=4)
        for t in range(T):
            if t in cone[layer]:
                fill = FILL["allowed"]
            elif t > top_row:
                fill = "url(#hatch)"
            else:
                fill = FILL["mix"]
            d.rect(x0 + t * cell + 3, y, cell - 6, row_h, fill, rx=4)
            if layer == n_layers and t == top_row:
                d.rect(x0 + t * cell + 6, y + 3, cell - 12, row_h - 6, "none", rx=3, stroke=TARGET,
                       stroke_width=3.5)
        return y + row_h

    tops = {}
    for layer in range(n_layers, -1, -1):
        tops[layer] = y
        # the row at index `layer` is the output of layer `layer - 1`: layers count from 0, as in lib.decoder
        label = [w["layer"].format(l=layer - 1)] if layer else [w["input"], ("E[x]+P[t]", 14, True, False)]
        y = cells(y, layer, label) + gap
    # arrows: every row of the cone at layer l reads (attention) the allowed rows of layer l - 1
    for layer in range(n_layers, 0, -1):
        for i in sorted(cone[layer]):
            read = [j for j in range(T) if allowed[i, j]]
            for n, j in enumerate(read):
                spread = 9 * (n - (len(read) - 1) / 2)                 # arrowheads side by side
                d.arrow((centre(j), tops[layer - 1] - 2), (centre(i) + spread, tops[layer] + row_h + 3), width=1.5)
    y -= gap
    y += 30
    for t, token in enumerate(TOKENS):
        fill = FILL["token"] if t in cone[0] else FILL["future"]
        d.box(x0 + t * cell + 3, y, cell - 6, [(str(t), 14, True, False), (token, 14, True, True)], fill, h=42, pad=3)
        if t in cone[0]:
            d.arrow((centre(t), y - 2), (centre(t), tops[0] + row_h + 3), width=1.5)
    d.box(10, y, label_w, [w["tokens"]], FILL["mix"], h=42, pad=4)
    y += 42 + 16
    d.split = y - 8                  # wide screens: the cone | what attention reads, and the legend
    y = d.box(10, y, WIDTH - 20, [w["attention"], w["local"]], FILL["note"], size=14, align="start") + 14
    # legend: a swatch and its words (wrapped) per line
    items = [(fill, wrap(text, 14, WIDTH - 20 - 52 - 10)) for fill, text in
             [(FILL["allowed"], w["legend_cone"]), ("url(#hatch)", w["legend_future"]), (FILL["mix"], w["legend_other"])]]
    heights = [max(30, 18.2 * len(lines) + 8) for _, lines in items]
    d.rect(10, y, WIDTH - 20, sum(heights) + 12, FILL["note"])
    sy = y + 6
    for (fill, lines), h in zip(items, heights):
        d.rect(22, sy + 4, 30, 22, fill, rx=3)
        for n, line in enumerate(lines):
            d.text(62, sy + 15 + 18.2 * n, line, 14, anchor="start")
        sy += h
    return d


DECODER_STAGES = ["embed", "ln1", "attn", "ln2", "mlp", "ln_f", "head"]       # what the drawing can show
_STAGE_OF = {"token_table": "embed", "position_table": "embed", "w_q": "attn", "w_k": "attn", "w_v": "attn",
             "w_o": "attn", "w_1": "mlp", "b_1": "mlp", "w_2": "mlp", "b_2": "mlp", "w_head": "head"}


def decoder_stages() -> list[tuple[str, list[str]]]:
    """[(stage, parameter names)] in the order of ``lib.decoder.parameter_shapes`` (the order of the
    computation), for one block: the boxes of the drawing and what each box holds."""
    from lib.decoder import parameter_shapes
    stages: list[tuple[str, list[str]]] = []
    for full in parameter_shapes(vocab_size=2, context_size=2, width=2, n_layers=1, mlp_width=2):
        name = full.removeprefix("blocks.0.")
        stage = _STAGE_OF.get(name, name.split(".")[0])          # ln1.gain -> ln1
        if not stages or stages[-1][0] != stage:
            stages.append((stage, []))
        stages[-1][1].append(name)
    if [stage for stage, _ in stages] != DECODER_STAGES:
        raise ValueError(f"lib.decoder's parameters make the stages {[s for s, _ in stages]}, "
                         f"the drawing shows {DECODER_STAGES}: update decoder() in tools/diagrams.py")
    return stages


def decoder(lang: str) -> Drawing:
    """§7: the pre-LN decoder as blocks, each box naming the parameters ``lib.decoder`` gives it."""
    w = {k: v[lang] for k, v in WORDS["decoder"].items()}
    params = {stage: ", ".join(names) for stage, names in decoder_stages()}
    d = Drawing(lang)
    mono = lambda s: (s, 15, True, True)          # noqa: E731
    small = lambda s: (s, 14, True, False)        # noqa: E731
    cx = WIDTH / 2
    y = d.box(10, 10, WIDTH - 20, [w["title"]], FILL["note"], size=15, bold_first=True) + 12
    bottom = d.box(cx - 120, y, 240, [mono("x"), w["tokens"], small("(B, T)")], FILL["token"])
    d.arrow((cx, bottom), (cx, bottom + 24))
    bottom = d.box(cx - 150, bottom + 26, 300, [mono("X = E[x] + P[t]"), w["embed"], small(params["embed"])],
                   FILL["position"])
    frame_top = bottom + 34
    stream = 40                                     # x of the residual stream inside the block
    d.arrow((cx, bottom), (cx, bottom + 14), (stream, bottom + 14), (stream, frame_top + 4))
    y = d.box(18, frame_top + 8, WIDTH - 36, [w["block"]], FILL["note"], size=15, bold_first=True)
    y = d.box(18, y + 6, 150, [w["stream"]], FILL["mix"], size=14, pad=4) + 14
    sx, sw = 80, WIDTH - 18 - 80                   # the sublayers' column
    stream_top = y - 14
    plus = []

    def sublayer(y, ln, fill, lines):
        d.arrow((stream, y + 20), (sx - 2, y + 20))
        ln_bottom = d.box(sx, y, sw, [mono(ln.replace("1", "₁").replace("2", "₂").upper()), w["ln"],
                                      small(params[ln])], FILL["mix"])
        d.arrow((sx + sw / 2, ln_bottom), (sx + sw / 2, ln_bottom + 20))
        box_bottom = d.box(sx, ln_bottom + 22, sw, lines, fill)
        mid = (ln_bottom + 22 + box_bottom) / 2
        d.arrow((sx, mid), (stream + 14, mid))
        plus.append(mid)
        return box_bottom

    y = sublayer(y, "ln1", FILL["score"], [mono("X ← X + Attn(LN₁(X))"), w["attn"], small(params["attn"])])
    d.split = y + 12                                # wide screens: embedding and attention | MLP and output
    d.cut_labels = [(stream + 8, "X", "start")]
    y = sublayer(y + 26, "ln2", FILL["value"], [mono("X ← X + MLP(LN₂(X))"), w["mlp"], small(params["mlp"])])
    frame_bottom = y + 14
    d.rect(8, frame_top, WIDTH - 16, frame_bottom - frame_top, "none", stroke=LINE, stroke_width=1.5, dash="7 5")
    d.line((stream, stream_top), (stream, plus[0] - 12))
    d.line((stream, plus[0] + 12), (stream, plus[1] - 12))
    for mid in plus:
        d.box(stream - 12, mid - 12, 24, [("+", 15, True, True)], FILL["out"], h=24, pad=2)
    top = frame_bottom + 30
    d.arrow((stream, plus[1] + 12), (stream, frame_bottom + 14), (cx, frame_bottom + 14), (cx, top - 2))
    bottom = d.box(cx - 150, top, 300, [mono("LN_f"), w["ln_f"], small(params["ln_f"])], FILL["mix"])
    d.arrow((cx, bottom), (cx, bottom + 24))
    d.box(10, bottom + 26, WIDTH - 20, [mono("logits = LN_f(X) · W_head"), w["head"], small("(B, T, |𝒱|)"),
                                         small(params["head"])], FILL["out"])
    return d


DIAGRAMS = {"allowed_pairs": allowed_pairs, "one_head": one_head, "heads": heads,
            "positions": positions, "cache": cache}
# Where each diagram is taught (tests/test_diagrams.py checks that the chapter shows it there).
PLACES = {"allowed_pairs": "01_allowed_set", "one_head": "00_start", "heads": "02_heads",
          "positions": "03_positions", "cache": "05_cache"}

DIAGRAMS["cone"], PLACES["cone"] = cone, "04_causality"     # §4.2: the structural argument's cone
DIAGRAMS["lookup"], PLACES["lookup"] = lookup, "00_start"   # §0.2: query, key and value as a soft lookup
DIAGRAMS["decoder"], PLACES["decoder"] = decoder, "07_decoder"   # §7 opens with the pre-LN decoder


# --------------------------------------------------------------------------- files

def path(name: str, lang: str) -> Path:
    return ROOT / "chapters" / lang / "figures" / f"{name}.svg"


def wide_path(name: str, lang: str) -> Path:
    """The side-by-side version for wide screens (site/course_book.py shows it there)."""
    return ROOT / "chapters" / lang / "figures" / f"{name}-wide.svg"


def render(name: str, lang: str) -> str:
    return DIAGRAMS[name](lang).svg(ALT[name][lang])


def render_wide(name: str, lang: str) -> str | None:
    return DIAGRAMS[name](lang).svg_wide(ALT[name][lang])


def markdown(name: str, lang: str) -> str:
    """The Markdown image line a chapter's cell uses (alt text = the SVG's title)."""
    return f"![{ALT[name][lang]}](figures/{name}.svg)"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="compare with the committed files, write nothing")
    parser.add_argument("--markdown", action="store_true", help="print each diagram's Markdown image line")
    args = parser.parse_args(argv)
    stale = []
    for name in DIAGRAMS:
        for lang in LANGUAGES:
            if args.markdown:
                print(f"{name} [{lang}]: {markdown(name, lang)}")
                continue
            for text, target in ((render(name, lang), path(name, lang)),
                                 (render_wide(name, lang), wide_path(name, lang))):
                if text is None:
                    continue
                if args.check:
                    if not target.exists() or target.read_text(encoding="utf-8") != text:
                        stale.append(str(target.relative_to(ROOT)))
                elif not target.exists() or target.read_text(encoding="utf-8") != text:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_text(text, encoding="utf-8")
                    print(target.relative_to(ROOT))
    if stale:
        print("not what tools/diagrams.py writes (run it):\n  " + "\n  ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
