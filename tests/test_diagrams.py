"""The conceptual diagrams (tools/diagrams.py): committed as generated, shown where
their idea is taught, readable on a phone and on a dark page.

In Chromium (tests/test_site.py's browser fixture; skipped without it, failing
under CI=true) every word of every diagram, in every language, must lie inside
a filled shape (the diagrams rely on that to read on white and on black), inside
the drawing, and clear of every other word; and on the built site at 360 px the
smallest text of each diagram must be at least 10 px.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import diagrams  # noqa: E402
from tools.nbsource import load  # noqa: E402

# A browser or a subprocess that hangs fails its test after 10 minutes instead of holding the
# suite (fixtures have their own bounds: the site build, Chromium's start, the PDF books).
pytestmark = pytest.mark.timeout(600, method="signal", func_only=True)

CASES = [(name, lang) for name in diagrams.DIAGRAMS for lang in diagrams.LANGUAGES]
IDS = [f"{name}-{lang}" for name, lang in CASES]
PHONE_COLUMN = 328          # px of content width on a 360 px phone (measured with the site's theme)


@pytest.mark.parametrize("name, lang", CASES, ids=IDS)
def test_committed_file_is_what_the_generator_writes(name, lang):
    path = diagrams.path(name, lang)
    assert path.exists(), f"{path.relative_to(ROOT)} is missing: run python tools/diagrams.py"
    assert path.read_text(encoding="utf-8") == diagrams.render(name, lang), \
        f"{path.relative_to(ROOT)} is stale: run python tools/diagrams.py"


CODE_WORDS = {"allowed", "future", "True", "softmax", "cache", "len", "offset"}


def prose_lines(svg):
    """Lines of a drawing in a proportional font with two or more English words that are not code."""
    lines = set()
    for attrs, text in re.findall(r"<text([^>]*)>([^<]+)</text>", svg):
        words = [w for w in re.findall(r"[A-Za-z_]{3,}", text) if w not in CODE_WORDS and "_" not in w]
        if "font-family" not in attrs and len(words) >= 2:
            lines.add(text)
    return lines


@pytest.mark.parametrize("name, lang", CASES, ids=IDS)
def test_sizes_titles_and_words(name, lang):
    svg = diagrams.render(name, lang)
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)"', svg)]
    assert sizes and min(sizes) * PHONE_COLUMN / width >= 10, f"text under 10 px on a phone: {min(sizes)}"
    assert re.search(r"<title>(.*?)</title>", svg).group(1) == diagrams.html.escape(diagrams.ALT[name][lang])
    assert f'lang="{diagrams.HTML_LANG[lang]}"' in svg
    assert "<image" not in svg and "http" not in svg.replace("http://www.w3.org/2000/svg", "")
    if lang != "en":   # translated: no line of English prose (not code) is left in the drawing
        assert not prose_lines(diagrams.render(name, "en")) & set(re.findall(r"<text[^>]*>([^<]+)</text>", svg))


def test_alt_text_survives_markdown():
    """No brackets or angle brackets: Markdown would end the alt text there or drop a tag (<bos>)."""
    for name, texts in diagrams.ALT.items():
        for lang, text in texts.items():
            assert not set("[]<>") & set(text), (name, lang)


def test_every_language_has_every_word():
    for name, table in diagrams.WORDS.items():
        for key, texts in table.items():
            assert set(texts) == set(diagrams.LANGUAGES) and all(t.strip() for t in texts.values()), (name, key)
    assert set(diagrams.ALT) == set(diagrams.DIAGRAMS) == set(diagrams.PLACES)


def test_the_drawings_use_the_chapters_examples():
    """§5 feeds <bos> 春 雨; §1.3 (and §5.1) a cache of 3 positions and 2 queries over 5 keys; §3 春 雨 风 after a
    stored <bos>, offset 1 (<bos> stands only at position 0, §1.2); §4.2 the cone."""
    for lang in diagrams.LANGUAGES:
        cache = diagrams.render("cache", lang)
        assert all(t in cache for t in ("&lt;bos&gt;", "春", "雨")) and "风" not in cache
        assert cache.count("q2") == 2 and "q3" not in cache          # three steps, the last one q2
        assert "tk = 5" in diagrams.render("allowed_pairs", lang)
        positions = diagrams.render("positions", lang)
        assert "1+2 = 3" in positions and "0+0" not in positions and "E[1]" not in positions
        cone = diagrams.render("cone", lang)                            # §4.2: row 2 of layer 1, five positions
        assert all(t in cone for t in ("&lt;bos&gt;", "春", "风", "雨"))
        # attention arrows: row 2 reads rows 0..2 (3), rows 0, 1, 2 of layer 0 read 1 + 2 + 3 rows; and 3 token arrows
        assert cone.count('marker-end="url(#arrow)"') == 3 + 6 + 3
        # the legend's "other rows" are those of the top layer, which the drawing labels layer 1 (layers count from 0)
        words = {key: texts[lang] for key, texts in diagrams.WORDS["cone"].items()}
        assert words["layer"].format(l=1) in cone and words["layer"].format(l=2) not in cone
        assert {"en": "layer 1", "zh": "第 1 层", "ru": "слоя 1"}[lang] in words["legend_other"]


def test_the_cone_of_section_4_2_never_grows():
    """read64 C-en C2: §4.2 said the cone of row 2 "widens only to the left", and Figure 4.1 said rows 3 and 4 are
    "read at no layer", though row 3 of layer 1 reads row 3 of layer 0. With causal attention, row 2 of the top
    layer depends on rows 0 to 2 of every layer below, however many layers are stacked: lib's causal attention,
    stacked 1 to 4 deep with residual connections, moves output row 2 when input row 0, 1 or 2 changes and never
    when row 3 or 4 does. §4.2, the legend and the alt text say that, and say that row 2 never reads its future."""
    import numpy as np
    from lib.attention import multi_head_attention
    rng = np.random.default_rng(0)
    for depth in range(1, 5):
        layers = rng.normal(size=(depth, 4, 4, 4))                 # W_Q, W_K, W_V, W_O of each layer, D = 4

        def stack(x):
            for w_q, w_k, w_v, w_o in layers:
                x = x + multi_head_attention(x[None], w_q, w_k, w_v, w_o, 2, causal=True)[0]
            return x
        x = rng.normal(size=(len(diagrams.TOKENS), 4))
        moved = set()
        for t in range(len(x)):
            nudged = x.copy()
            nudged[t] += 1.0
            if np.abs(stack(nudged)[2] - stack(x)[2]).max() > 0:
                moved.add(t)
        assert moved == {0, 1, 2}, (depth, moved)
    section = next(c.text["en"] for c in load(ROOT / "src" / "chapters" / "04_causality.py")
                   if c.kind == "markdown" and "## 4.2 " in c.text["en"])
    assert "This cone never grows" in section and "it holds rows 0 to 2 at every layer" in section
    assert "widen" not in section and "read at no layer" not in section
    words = {key: texts["en"] for key, texts in diagrams.WORDS["cone"].items()}
    assert words["legend_cone"] == "in the cone: rows 0…2 of every layer below"
    assert words["legend_future"] == "the future of row 2: row 2 never reads it"
    assert diagrams.ALT["cone"]["en"].endswith("rows 3 and 4 are its future, which it reads at no layer.")
    assert f"{diagrams.ALT['cone']['en']}](figures/cone.svg)" in section


def test_step_3_of_section_4_2_says_the_split_moves_the_time_axis():
    """read69 en-04 C1: step 3 of §4.2 said that splitting the heads leaves the time axis "not touched", though
    split_heads swaps it with the head axis, (B, T, H, d) -> (B, H, T, d), as §2.2 says. What stays true is that no
    value leaves its position: head h of position t holds features h*d to h*d + d - 1 of position t. Step 3 says
    both, in all three languages."""
    import numpy as np
    from lib.attention import split_heads
    B, T, D, H = 2, 3, 4, 2
    x = np.arange(B * T * D).reshape(B, T, D)
    heads = split_heads(x, H)
    assert heads.shape == (B, H, T, D // H)                     # the time axis moved from 1 to 2
    for t in range(T):
        for h in range(H):
            np.testing.assert_array_equal(heads[:, h, t], x[:, t, h * (D // H):(h + 1) * (D // H)])
    section = next(c.text for c in load(ROOT / "src" / "chapters" / "04_causality.py")
                   if c.kind == "markdown" and "## 4.2 " in c.text["en"])
    said = {"en": ("moves the head axis in front of the time axis; no value leaves its position", "not touched"),
            "zh": ("并把头轴移到时间轴前面；没有任何数值离开它所在的位置", "原封不动"),
            "ru": ("ось голов переставляется перед осью времени; ни одно число не покидает своей позиции",
                   "не затрагивается")}
    for lang, (now, before) in said.items():
        assert now in section[lang] and before not in section[lang], lang


def test_the_lookup_drawing_is_the_computation_of_section_0_2():
    """§0.2's cell and Figure 0.1 use the same W_Q, W_K, W_V, and the drawing prints the weights that cell computes."""
    cell = next(c for c in load(ROOT / "src" / "chapters" / "00_start.py")
                if c.kind == "code" and "W_Q = " in c.text["en"])
    space = {}
    exec(cell.text["en"], space)                                        # the chapter's own cell, asserts included
    for name in ("W_Q", "W_K", "W_V"):
        assert (space[name] == getattr(diagrams, f"LOOKUP_{name}")).all(), name
    assert space["tokens"] == diagrams.LOOKUP_TOKENS
    assert (space["weights"] == diagrams.lookup_weights()).all()
    svg = diagrams.render("lookup", "en")
    assert all(f">{w:.3f}<" in svg for w in space["weights"][1]) and f">{space['y'][1][1]:.3f} wind<" in svg


DECIMAL = re.compile(r"(?<![\w.,])\d+[.,]\d+(?![\w.,])")


def test_the_drawings_write_decimals_as_their_language_does():
    """read63 C-ru L10: the Russian Figure 0.1 printed 0.015 and 0.485 with a point, while its alt text (and every
    Russian page) writes 0,015. Every decimal in the words of a drawing takes its language's decimal sign."""
    from course_i18n import language
    for name, lang in CASES:
        words = " ".join(re.findall(r"<text[^>]*>([^<]+)</text>", diagrams.render(name, lang)))
        signs = {m.group()[len(m.group().rstrip("0123456789")) - 1] for m in DECIMAL.finditer(words)}
        assert signs <= {language(lang).decimal}, (name, lang, DECIMAL.findall(words))
    assert ">0,015<" in diagrams.render("lookup", "ru") and ">0.015<" in diagrams.render("lookup", "zh")


def _figure_decimal_signs(fig):
    """The decimal signs in every visible text of a matplotlib figure, tick labels included (drawn first)."""
    from matplotlib.text import Text
    fig.canvas.draw()
    words = " ".join(t.get_text() for t in fig.findobj(Text) if t.get_visible())
    return {m.group()[len(m.group().rstrip("0123456789")) - 1] for m in DECIMAL.finditer(words)}


def test_the_figures_write_their_own_decimals_as_their_language_does():
    """read73 ru-35 L7: the Russian Figure 3.2 labelled its cells 0.10 and 0.07, while its prose writes 0,07. The
    test above reads the SVG drawings of tools/diagrams only, never a figure that figures/plots.py draws with
    matplotlib, so these labels went unchecked. The §3 table (the course's P) is the figure of plots.py that writes
    its own decimals (the other heatmaps print labels their notebook passes in): its cell labels and its colour
    bar's ticks take the decimal sign of the language it is given. Negative control: the English figure, which is
    what the old code drew in every language, writes a point, which the Russian check refuses."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from course_i18n import language
    from figures import plots
    t = np.arange(8)
    P = np.stack([0.1 * (t + 1), 0.03 * t, 0.07 * (t % 2), -0.02 * t], axis=1)    # §3's table
    for lang in diagrams.LANGUAGES:
        fig = plots.position_table_heatmap(P, lang)
        assert "0" + language(lang).decimal + "07" in [text.get_text() for text in fig.axes[0].texts], lang
        assert _figure_decimal_signs(fig) == {language(lang).decimal}, lang
        ticks = [tick.get_text() for tick in fig.axes[1].get_yticklabels()]            # the colour bar's
        assert "0" + language(lang).decimal + "4" in ticks and "\u22120" + language(lang).decimal + "2" in ticks, ticks
        plt.close(fig)
    old = plots.position_table_heatmap(P, "en")
    assert not _figure_decimal_signs(old) <= {language("ru").decimal}
    plt.close(old)


def test_the_heatmaps_write_their_labels_and_row_sums_as_the_pages_language_does():
    """After read73: Figures 1.3, 2.3, 2.5 and 7.2 labelled their cells with f"{v:.2f}" (and Figure 1.2 its row sums
    with "Σ=0.333"), so the Russian pages showed 0.25 and Σ=0.333 beside prose that writes 0,25. plots.heatmaps takes
    the page's language (a required keyword: a figure cannot forget it) and writes every number of its labels and
    row sums in it, with a true minus. Negative control: the English figure's texts, which the old code drew on every
    page, fail the Russian check; an unknown language stops with the codes the course knows."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    import pytest
    from course_i18n import language
    from figures import plots
    weights = np.array([[1.0, 0.0], [0.75, 0.25]])
    labels = [[f"{v:.2f}" for v in row] for row in weights]
    for lang in diagrams.LANGUAGES:
        fig = plots.heatmaps([weights, -weights / 3], ["α", "−α/3"], labels=[labels, [["-0.33", "-0.00"],
                             ["-0.25", "-0.08"]]], row_sums=True, vmin=-1.0, lang=lang)
        texts = [text.get_text() for ax in fig.axes for text in ax.texts]
        point = language(lang).decimal
        assert "0" + point + "75" in texts and "\u22120" + point + "33" in texts, (lang, texts)
        assert "Σ=" + "\u2212" + "0" + point + "333" in texts, (lang, texts)          # the second map's row sum
        assert _figure_decimal_signs(fig) == {point}, lang
        plt.close(fig)
    old = plots.heatmaps([weights], ["α"], labels=[labels], row_sums=True, lang="en")
    assert not _figure_decimal_signs(old) <= {language("ru").decimal}
    plt.close(old)
    with pytest.raises(TypeError, match="lang"):
        plots.heatmaps([weights], ["α"])
    with pytest.raises(ValueError, match="unknown language 'de'.*zh"):
        plots.heatmaps([weights], ["α"], lang="de")


def test_figure_1_2_writes_its_row_sums_as_fractions_like_its_cells():
    """read85 en-01 L13: Figure 1.2 labelled its cells 1/3 and 2/3, as §1.6 writes them, but its row sums
    Σ=0.333 and Σ=0.667. heatmaps takes the row sums' texts (sum_labels), and the chapter passes fractions.
    Negative control: without sum_labels the same matrix still gets the decimal sums."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from figures import plots
    wrong = np.array([[1 / 3, 0, 0], [1 / 3, 1 / 3, 0], [1 / 3, 1 / 3, 1 / 3]])
    fig = plots.heatmaps([wrong], ["α"], row_sums=True, lang="en", sum_labels=[["1/3", "2/3", "1"]])
    assert [t for t in (x.get_text() for x in fig.axes[0].texts) if t.startswith("Σ")] == ["Σ=1/3", "Σ=2/3", "Σ=1"]
    plt.close(fig)
    fig = plots.heatmaps([wrong], ["α"], row_sums=True, lang="en")
    assert "Σ=0.333" in [x.get_text() for x in fig.axes[0].texts]
    plt.close(fig)
    source = (ROOT / "src" / "chapters" / "01_allowed_set.py").read_text(encoding="utf-8")
    assert "sum_labels=[as_fractions(m.sum(axis=1))[0]" in source


def test_every_heatmap_of_the_chapters_is_drawn_in_its_pages_language():
    """Each call of a heatmap in a chapter's source passes the page's language ("{{lang}}", which the builder
    turns into the notebook's code), and the built notebooks carry their own code there: "ru" on the Russian page."""
    calls = 0
    for source in sorted((ROOT / "src" / "chapters").glob("*.py")):
        for cell in load(source):
            if cell.kind != "code":
                continue
            for start in [m.end() for m in re.finditer(r"\b(?:heatmaps|position_table_heatmap)\(", cell.source)]:
                depth, end = 1, start
                while depth:                                           # the call's text, to its closing bracket
                    depth += {"(": 1, ")": -1}.get(cell.source[end], 0)
                    end += 1
                calls += 1
                assert 'lang="{{lang}}"' in cell.source[start:end] or '"{{lang}}")' in cell.source[start:end], \
                    (source.name, cell.source[start:end])
    assert calls >= 6, calls
    for lang in diagrams.LANGUAGES:
        notebook = json.loads((ROOT / "chapters" / lang / "02_heads.ipynb").read_text(encoding="utf-8"))
        cells = ["".join(c["source"]) for c in notebook["cells"]]
        assert sum(f'lang="{lang}"' in text for text in cells if "heatmaps(" in text) == 2, lang


def test_the_decoder_drawing_names_every_parameter_of_lib_in_its_order():
    """§7's block diagram asks lib.decoder: each box lists the parameters it holds, and together the boxes
    list every parameter of one block (and of the embedding and the output), in the order of the computation."""
    from lib.decoder import parameter_shapes
    names = [n.removeprefix("blocks.0.") for n in parameter_shapes(vocab_size=2, context_size=2, width=2,
                                                                   n_layers=1, mlp_width=2)]
    assert [n for _, box in diagrams.decoder_stages() for n in box] == names
    for lang in diagrams.LANGUAGES:
        svg = diagrams.render("decoder", lang)
        places = [svg.index(f">{', '.join(box)}<") for _, box in diagrams.decoder_stages()]
        assert places == sorted(places), lang                     # drawn top to bottom in lib's order
        assert svg.count("X ← X + ") == 2 and "Attn(LN₁(X))" in svg and "MLP(LN₂(X))" in svg   # pre-LN


def test_wrapping_keeps_formulas_and_chinese_words_whole():
    lines = diagrams.wrap("split_heads: head h, coordinate a = feature h·d + a", 14, 300)
    assert len(lines) == 2 and any("h·d + a" in line for line in lines), lines
    assert any("a = feature" in line for line in lines), lines          # never "a =" / "feature"
    lines = diagrams.wrap("掩码 softmax：每行只在 j ≤ i 上归一化，未来的权重恰好为 0", 14, 240)
    assert all(not line.startswith(("，", "：")) for line in lines) and "".join(lines).count("归一化") == 1
    assert not any(line.endswith("归") for line in lines)


@pytest.mark.parametrize("name", list(diagrams.DIAGRAMS))
def test_each_diagram_is_shown_where_its_idea_is_taught(name):
    """The chapter's Markdown shows the diagram with its alt text, in every language."""
    source = ROOT / "src" / "chapters" / f"{diagrams.PLACES[name]}.py"
    cells = [c for c in load(source) if c.kind == "markdown"]
    for lang in diagrams.LANGUAGES:
        assert any(diagrams.markdown(name, lang) in c.text[lang] for c in cells), \
            f"{source.relative_to(ROOT)} [{lang}] does not show {diagrams.markdown(name, lang)[:60]}..."


LAYOUT = """() => {
  const svg = document.documentElement;
  const [, , vw, vh] = svg.getAttribute('viewBox').split(' ').map(Number);
  const fills = Array.from(document.querySelectorAll('rect'))
    .filter(r => r.getAttribute('fill') !== 'none').map(r => r.getBBox());
  const inside = (b, r, e) => b.x >= r.x - e && b.y >= r.y - e && b.x + b.width <= r.x + r.width + e
                              && b.y + b.height <= r.y + r.height + e;
  const texts = Array.from(document.querySelectorAll('text')).map(t => ({text: t.textContent, box: t.getBBox()}));
  const problems = [];
  for (const {text, box} of texts) {
    if (!inside(box, {x: 0, y: 0, width: vw, height: vh}, 0.5)) problems.push(`outside the drawing: ${text}`);
    if (!fills.some(r => inside(box, r, 1.5))) problems.push(`not on a fill of its own: ${text}`);
  }
  for (let i = 0; i < texts.length; i++)
    for (let j = i + 1; j < texts.length; j++) {
      const a = texts[i].box, b = texts[j].box;
      const dx = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
      const dy = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
      if (dx > 1 && dy > 3) problems.push(`overlap: ${texts[i].text} / ${texts[j].text}`);
    }
  return problems;
}"""


# Chromium in a thread of its own: tests/conftest.py's session fixture `chromium`, skipped without it,
# failing under CI=true; the built site and its server are tests/test_site.py's. Both fixtures are
# session-scoped, so they start in the order the tests name them: Chromium first, and without it the
# tests skip before the site is built (a build no test would use takes minutes).
from test_site import base_url, site_dir  # noqa: E402,F401


@pytest.mark.parametrize("name, lang", CASES, ids=IDS)
def test_words_sit_on_their_fills_in_chromium(chromium, name, lang):
    def layout(browser):
        page = browser.new_page()
        try:
            page.goto(diagrams.path(name, lang).as_uri())
            return page.evaluate(LAYOUT)
        finally:
            page.close()
    problems = chromium.run(layout)
    assert not problems, f"{name} [{lang}]:\n" + "\n".join(problems)

PAGES = sorted({(chapter, lang) for chapter in diagrams.PLACES.values() for lang in diagrams.LANGUAGES})


@pytest.mark.parametrize("chapter, lang", PAGES, ids=[f"{lang}/{chapter}" for chapter, lang in PAGES])
def test_on_the_site_at_phone_width_and_in_dark_mode(chromium, base_url, chapter, lang):
    """Each diagram of the page: its alt text, text of at least 10 px at 360 px, no white box in dark mode."""
    chromium.run(_check_page, base_url, chapter, lang)


def _check_page(browser, base_url, chapter, lang):
    names = [name for name, place in diagrams.PLACES.items() if place == chapter]
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  color_scheme="dark")
    try:
        page = context.new_page()
        page.goto(f"{base_url}{lang}/chapters/{chapter}.html", wait_until="load")
        assert page.evaluate("document.documentElement.dataset.theme") == "dark"
        for name in names:
            image = page.locator(f'img[src$="/{name}.svg"]')
            assert image.count() == 1, f"{lang}/{chapter} shows {name} {image.count()} times"
            assert image.get_attribute("alt") == diagrams.ALT[name][lang]
            image.scroll_into_view_if_needed()
            page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=image.element_handle())
            shown = image.evaluate("""img => { const s = getComputedStyle(img), r = img.getBoundingClientRect();
                return {width: r.width, right: r.right, background: s.backgroundColor, filter: s.filter}; }""")
            svg = diagrams.render(name, lang)
            width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))
            smallest = min(float(v) for v in re.findall(r'font-size="([\d.]+)"', svg)) * shown["width"] / width
            assert smallest >= 10, f"{name}: smallest text {smallest:.1f} px at 360 px"
            assert shown["right"] <= 360, f"{name} sticks out: {shown}"
            assert shown["background"] in ("rgba(0, 0, 0, 0)", "transparent") and shown["filter"] == "none", shown
    finally:
        context.close()


def test_chromium_is_looked_for_before_the_site_is_built():
    """CONTRIBUTING.md and docs/translating.md: only with Chromium installed does this file build the whole site
    (read62 A C1, T C1: the site was built first, then the tests skipped for want of Chromium)."""
    import subprocess
    plan = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:randomly", "-q", "-n", "0", "--setup-plan",
                           f"{__file__}::test_on_the_site_at_phone_width_and_in_dark_mode"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    order = re.findall(r"SETUP\s+S (\w+)", plan.stdout)
    assert "chromium" in order and "site_dir" in order, plan.stdout[-2000:] + plan.stderr[-2000:]
    assert order.index("chromium") < order.index("site_dir"), order


def test_figure_2_4_shows_every_line_where_two_coincide():
    """read77 en-12 (Figure 2.4): the parameters and the matrix products lie on one flat line, the attention tables
    and the softmax work on one rising line, and each later line hid the earlier one, so two of the four legend
    entries had nothing visible to point at. Where two lines coincide, the later one is drawn on top, thinner and with
    a smaller hollow marker, so that the earlier one shows around it."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from figures import plots
    from lib.costs import head_costs
    heads = np.array([1, 2, 4, 8, 16])
    fig = plots.head_cost_chart(heads, head_costs(heads, width=512, length=1024),
                                keys=["parameters", "matmul_flops", "attention_entries", "softmax_ops"],
                                labels=["4·D²", "FLOP (matmul)", "B·H·T²", "softmax"])
    lines = fig.axes[0].get_lines()
    pairs = [(a, b) for i, a in enumerate(lines) for b in lines[i + 1:] if np.allclose(a.get_ydata(), b.get_ydata())]
    assert len(pairs) == 2, [line.get_label() for line in lines]           # the two pairs the prose names
    for under, over in pairs:
        assert over.get_zorder() > under.get_zorder()
        assert over.get_linewidth() < under.get_linewidth() and over.get_markersize() < under.get_markersize()
        assert over.get_markerfacecolor() == "none"
    plt.close(fig)
