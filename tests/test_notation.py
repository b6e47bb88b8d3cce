"""One symbol for one meaning: every symbol in the maths of the chapters and exercises is in §0.4's table.

§0.4 ("Notation") holds a table whose first column names each symbol in LaTeX (``$W_Q$``,
``$\\alpha_{ij}$``) and whose second says what it means, once.  This test reads that table from
the committed notebook ``chapters/<lang>/00_start.ipynb`` and every ``$…$`` of the Markdown of
every chapter, exercise and solution notebook in the same language, and checks that

* every symbol used in the maths is in the table (a letter with a subscript that the table
  lists as a name of its own, ``W_Q``, ``b_1``, ``t_q``, counts as that symbol; any other
  subscript is made of symbols too: ``x_{b,t}`` uses x, b and t);
* no symbol is in the table twice (two meanings);
* the forms that once gave one letter two meanings do not come back (weights written a, A or w
  beside α; V as the vocabulary size beside the values V; h or x for a layer's vectors beside
  the head index and the token id; ℓ for a length; j for an output feature beside the key's
  position, k for a prefix length beside the keys, s for a seed or a position beside the scores);
* a letter that addresses an entry beside index letters, ``(b, t, c)``, ``x_{b,t}``, or names a feature ("feature
  c"), is one the table gives an index (a position, a sequence, a head, a coordinate, a feature, a layer): f, the
  function of §7.1, once named §2's features;
* the figures label an axis of features with the table's symbol for a feature, not j (a key's position);
* layers are counted from 0 in the prose of every chapter, as in the code (``blocks.0``).
"""

import json
import pathlib
import re
import sys

import numpy as np
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402

PAGES = ([("chapters", p.name) for p in sorted((ROOT / "chapters" / "en").glob("*.ipynb"))]
         + [("solutions", p.name) for p in sorted((ROOT / "solutions" / "en").glob("*.ipynb"))]
         + [("exercises", p.name) for p in sorted((ROOT / "exercises" / "en").glob("*.ipynb"))])

CODE = re.compile(r"```.*?```|`[^`\n]+`", re.S)
IMAGE = re.compile(r"!\[[^\]]*\]\([^)]*\)")
MATH = re.compile(r"\$\$(.*?)\$\$|\$([^$]+)\$", re.S)
GREEK = {"alpha", "beta", "gamma", "delta", "epsilon", "varepsilon", "zeta", "eta", "theta", "iota", "kappa",
         "lambda", "mu", "nu", "xi", "pi", "rho", "sigma", "tau", "phi", "varphi", "chi", "psi", "omega",
         "ell", "Gamma", "Delta", "Theta", "Lambda", "Pi", "Sigma", "Phi", "Psi", "Omega"}
CONSTANTS = {"pi", "Delta"}           # the number π; Δ as "the change of", never a symbol of its own
DROPPED = re.compile(r"\\(?:text|mathrm|operatorname|texttt|mathbf|textbf)\s*\{[^{}]*\}|\\(?:begin|end)\{[^{}]*\}")
SUBSCRIPT = re.compile(r"(\\mathcal\{[A-Za-z]\}|\\[A-Za-z]+|[A-Za-z])_(\{((?:[^{}]|\{[^{}]*\})*)\}"
                       r"|\\(?:text|mathrm)\s*\{[^{}]*\}|\\[A-Za-z]+|[A-Za-z0-9])")
TOKEN = re.compile(r"\\mathcal\s*\{?\s*([A-Za-z])\s*\}?|\\([A-Za-z]+)|([A-Za-z])")


def _name(base, sub):
    """The normal form of a symbol with a label subscript: W_Q, W_head, b_1, t_q."""
    sub = re.sub(r"\\(?:text|mathrm)\s*\{([^{}]*)\}", r"\1", sub).strip("{} ")
    return f"{_base(base)}_{sub}"


def _base(token):
    m = re.fullmatch(r"\\mathcal\{([A-Za-z])\}", token)
    if m:
        return f"cal{m.group(1)}"
    return token.lstrip("\\")


def symbols(tex, names=frozenset()):
    """The symbols of one formula: letters, Greek letters, calligraphic letters, and the
    labelled symbols of ``names`` (``W_Q``), each once per occurrence.  Commands that are
    not letters (\\sqrt, \\exp, \\sum, \\top) and words in \\text{} or \\mathrm{} are not symbols;
    e before ^ is Euler's number."""
    found = []

    def labelled(m):
        name = _name(m.group(1), m.group(3) if m.group(3) is not None else m.group(2))
        if name in names:
            found.append(name)
            return " "
        return m.group(0)

    tex = re.sub(r"\\\\\[[^\]]*\]", " ", tex)                  # a line break's spacing, \\[2ex]
    tex = SUBSCRIPT.sub(labelled, tex)
    tex = DROPPED.sub(" ", tex)
    tex = re.sub(r"\be\s*\^", "^", tex)                        # e^{...}: the number e
    tex = re.sub(r"(?<![A-Za-z\\])O\(", "(", tex)                  # O(ε²): of the order of
    for m in TOKEN.finditer(tex):
        if m.group(1):
            found.append(f"cal{m.group(1)}")
        elif m.group(2):
            if m.group(2) in GREEK and m.group(2) not in CONSTANTS:
                found.append(m.group(2))
        else:
            found.append(m.group(3))
    return found


def _text(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def read(kind, lang, page):
    return json.loads((ROOT / kind / lang / page).read_text(encoding="utf-8"))["cells"]


def notation_table(lang):
    """{symbol: meaning} from §0.4's table, and the symbols listed twice."""
    for cell in read("chapters", lang, "00_start.ipynb"):
        text = _text(cell)
        if cell["cell_type"] == "markdown" and re.search(r"^## 0\.4\b", text, re.M):
            break
    else:
        raise AssertionError(f"chapters/{lang}/00_start.ipynb has no heading 0.4")
    table, twice = {}, []
    for line in text.splitlines():
        m = re.match(r"^\|\s*(.+?)\s*\|\s*(.+?)\s*\|\s*$", line)
        if not m or set(m.group(1)) <= set("- :"):
            continue
        for piece in MATH.finditer(m.group(1)):
            tex = piece.group(1) or piece.group(2)
            head = re.split(r"\s*[=,]\s*", tex.strip())[0]       # "$d = D/H$" declares d
            head = re.sub(r"\\mathcal\s*([A-Za-z])\b", r"\\mathcal{\1}", head)
            sub = SUBSCRIPT.fullmatch(head)
            key = _name(sub.group(1), sub.group(3) if sub.group(3) is not None else sub.group(2)) if sub \
                else _base(head.replace(" ", "")) if re.fullmatch(r"\\?[A-Za-z]+|\\mathcal\{[A-Za-z]\}", head.replace(" ", "")) \
                else None
            if key is None:
                lvert = re.fullmatch(r"\\lvert\s*\\mathcal\s*\{?([A-Za-z])\}?\s*\\rvert", head.strip())
                key = f"cal{lvert.group(1)}" if lvert else None
            if key is None:
                continue
            if key in table:
                twice.append(key)
            table[key] = m.group(2)
    return table, twice


def formulas(kind, lang, page):
    """[(cell, formula)] of the Markdown of one notebook, code and images taken out."""
    for n, cell in enumerate(read(kind, lang, page)):
        if cell["cell_type"] == "markdown":
            text = IMAGE.sub(" ", CODE.sub(" ", _text(cell)))
            for m in MATH.finditer(text):
                yield n, m.group(1) or m.group(2)


# forms that once gave one letter two meanings: (pattern in a formula, what to write instead)
CLASHES = [
    (re.compile(r"(?<![\\A-Za-z])[aAw]_\{?[ijk]"), "attention weights are α_ij (a is a coordinate of a head)"),
    (re.compile(r"\\ln\s*V\b|V\s*\\times\s*D|\(D,\s*V\)|(?<![A-Za-z_])V\s*=\s*\d"), "the vocabulary size is |𝒱|; V is the values"),
    (re.compile(r"(?<![A-Za-z\\])h\^\{?\("), "a layer's vectors are X^(ℓ); h is a head"),
    (re.compile(r"\\hat\s*x|(?<![A-Za-z\\])x_[it]\s*W|(?<![A-Za-z\\])x\s*\\leftarrow"), "x is a token id; vectors are X, X_t, z"),
    (re.compile(r"(?<![A-Za-z\\])y_\{?[jk]\b|W_O\s*\[[^\]]*,\\?\s*j\s*\]"),
     "j is the position of a key; W_O's output is y_t = sum over h of y^(h)_t W_O^(h) (§2.4)"),
    (re.compile(r"(?<![A-Za-z\\_])k\s*=\s*\d"), "k is a key; a prefix length is p"),
    (re.compile(r"(?<![A-Za-z\\_])s\s*(?:[=+]\s*\d|\\ne)|[A-Za-z]_\{?s\b"),
     "s is a score; a seed is a number, a second position t'"),
    (re.compile(r"(?<![\w.])\d+\s*i\b"), "i is the index of a query; §5.9's block of queries is m (64m)"),
]


def clash_problems(formula):
    return [why for pattern, why in CLASHES if pattern.search(formula)]


# a letter used as an index: in a group of lowercase letters that address an entry, (b, t, c), [i, j], x_{b,t}; or
# after "feature" in English prose
INDEX_GROUP = re.compile(r"[(\[]\s*([a-z](?:\s*,\s*[a-z])+)\s*[)\]]|_\{([a-z](?:\s*,\s*[a-z])+)\}")
FEATURE_LETTER = re.compile(r"\bfeatures?(?: number)? ([a-z])\b(?![·\w(\[])")
INDEX_MEANING = re.compile(r"^(?:an? |any )?(?:index|position|sequence|head|coordinate|feature|layer)\b")


def index_letters():
    """The letters §0.4's English table gives an index: in a row of several symbols, each symbol's share of the
    meaning (``$i$, $j$, $t$ | index of a query in one pass (…), position of a key, any position``) starts with what
    it counts."""
    for cell in read("chapters", "en", "00_start.ipynb"):
        if cell["cell_type"] == "markdown" and re.search(r"^## 0\.4\b", _text(cell), re.M):
            break
    found = set()
    for line in _text(cell).splitlines():
        m = re.match(r"^\|\s*(.+?)\s*\|\s*(.+?)\s*\|\s*$", line)
        if not m:
            continue
        letters = [t.strip() for t in re.findall(r"\$([^$]+)\$", m.group(1))]
        meanings = re.split(r",\s*", m.group(2))
        for letter, meaning in zip(letters, meanings if len(meanings) == len(letters) else [m.group(2)] * len(letters)):
            if re.fullmatch(r"[a-z]", letter) and INDEX_MEANING.match(meaning.split(":")[0]):
                found.add(letter)
    return found


def misused_indices(text, indices, english=False):
    """The groups of index letters in ``text`` that hold a letter the table does not give an index."""
    found = []
    for m in INDEX_GROUP.finditer(text):
        letters = [x.strip() for x in (m.group(1) or m.group(2)).split(",")]
        if set(letters) & indices and not set(letters) <= indices:      # (k, v), two arrays, addresses nothing
            found.append(m.group(0))
    if english:
        found += [m.group(0) for m in FEATURE_LETTER.finditer(MATH.sub(" ", text)) if m.group(1) not in indices]
    return found


# a letter written as a function, f(θ + ε), in the plain text of a quiz (quizzes write no TeX); code spans aside
FUNCTION_CALL = re.compile(r"(?<![A-Za-z_.\\])([A-Za-z])\(([^()]*(?:\([^()]*\)[^()]*)*)\)")
GREEK_LETTERS = {"α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "varepsilon", "θ": "theta", "κ": "kappa",
                 "μ": "mu", "ρ": "rho", "σ": "sigma", "τ": "tau", "ω": "omega", "ℓ": "ell"}


def misused_functions(text, table):
    """The calls in ``text`` of a letter that §0.4's table does not give as a function, or of a function applied to
    what its row does not take: the table's f is "a scalar function whose gradient is checked (§7.1)", a function of
    one parameter entry θ, moved by the step ε (the row of θ and ε)."""
    scalars = {key for key, meaning in table.items() if meaning == table["theta"]}
    found = []
    for m in FUNCTION_CALL.finditer(CODE.sub(" ", text)):
        letter, argument = m.groups()
        used = {GREEK_LETTERS.get(ch, ch) for ch in re.findall(r"[A-Za-z]+|[α-ωℓ]", argument)}
        if "function" not in table.get(letter, "") or not used <= scalars:
            found.append(m.group(0))
    return found


def prose_and_comments(cell):
    """The Markdown of a cell without its code spans, or the comments of a code cell."""
    text = _text(cell)
    if cell["cell_type"] == "markdown":
        return CODE.sub(" ", text)
    return "\n".join(line.split("#", 1)[1] for line in text.splitlines() if "#" in line)


LAYER = {
    "en": re.compile(r"\b(?:layers?|blocks?) (\d)(?!\d|\.\d)"),
    "zh": re.compile(r"第 ?(\d) ?(?:层|块)"),
    "ru": re.compile(r"(?:слой|слоя|слою|слоем|слое|слоёв|блок|блока|блоке)\s(\d)(?!\d|[.,]\d)", re.I),
}


def layer_numbers(lang, cells):
    text = " ".join(CODE.sub(" ", _text(c)) for c in cells if c["cell_type"] == "markdown")
    return {int(n) for n in LAYER[lang].findall(text)}


# ---- the checks catch what they name --------------------------------------------------------------

def test_the_checks_catch_what_they_name():
    names = {"W_Q", "W_head", "t_q", "b_1"}
    assert sorted(symbols(r"q_i = X_i W_Q,\ \alpha_{ij} = e^{s_{ij}}/Z \\[2ex]", names)) == \
        sorted(["q", "i", "X", "i", "W_Q", "alpha", "i", "j", "s", "i", "j", "Z"])
    assert sorted(symbols(r"W_\text{head} + b_1 + \lvert\mathcal V\rvert + \sqrt{d}\,\mathrm{softmax}(t_q)", names)) == \
        sorted(["W_head", "b_1", "calV", "d", "t_q"])
    assert symbols(r"\max\lvert\Delta Y[i]\rvert + \sqrt{2/\pi}") == ["Y", "i"]
    assert symbols(r"x_{b,t} + \hat z^{(\ell)}") == ["x", "b", "t", "z", "ell"]
    for old in (r"A_{ij}", r"\sum_j w_j v_j", r"a_{ij}", r"\ln V", r"V \times D", r"h^{(0)}_t", r"\hat x",
                r"q_t = x_t W_Q", r"y_j = \sum_h \sum_a y^{(h)}_a \, W_O[h\cdot d + a,\ j]", r"k = 1, \dots, 8",
                r"s = 0, \dots, 4", r"s+1", r"\partial \hat z_t / \partial z_s = 0", r"s \ne t", r"64i + 63"):
        assert clash_problems(old), old
    for new in (r"\alpha_{ij}", r"\lvert\mathcal V\rvert \times D", r"X^{(0)}_t", r"h \cdot d + a", r"V = XW_V",
                r"y_t = \sum_h y^{(h)}_t \, W_O^{(h)}", r"s_{ij} = \frac{q_i \cdot k_j}{\sqrt d}", r"s_{\max}",
                r"p = 1, \dots, 8", r"\partial \hat z_t / \partial z_{t'} = 0", r"\partial f / \partial s_j",
                r"64m + 63", r"q_i", r"2^{i}"):
        assert not clash_problems(new), new
    indices = index_letters()
    assert {"i", "j", "t", "b", "h", "a", "c"} <= indices and not {"f", "d", "n", "p", "k", "v"} & indices
    for old in ("its flat index in (b, t, f)", "x[b, t, f]", r"$x_{b,t,f}$", "the feature number f"):
        assert misused_indices(old, indices, english=True), old
    for new in ("its flat index in (b, t, c)", "a slot (h, t, a)", "[i, j]", r"$x_{b,t}$", "(k, v)", "(T, d)",
                "feature c", r"feature $h \cdot d + a$", "feature h·d + a"):
        assert not misused_indices(new, indices, english=True), new
    table, _ = notation_table("en")
    for old in ("A residual connection y_i = X_i + f(X_i)", "g(x)", "f(z)"):
        assert misused_functions(old, table), old
    for new in ("(f(θ + ε) − f(θ − ε)) / (2ε)", "It calls f twice for every entry, plus once for f(θ).",
                "`f(ids)` in code", "exp(1/√2), softmax(QKᵀ)"):
        assert not misused_functions(new, table), new
    assert layer_numbers("en", [{"cell_type": "markdown", "source": "layer 1 reads layer 2"}]) == {1, 2}
    assert layer_numbers("ru", [{"cell_type": "markdown", "source": "слой 0 и слоя 1"}]) == {0, 1}
    assert layer_numbers("zh", [{"cell_type": "markdown", "source": "第 0 层和第 1 层"}]) == {0, 1}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_gives_each_symbol_one_meaning(lang):
    table, twice = notation_table(lang)
    assert len(table) >= 30, f"§0.4's table in {lang} was not read: {sorted(table)}"
    assert not twice, f"§0.4 ({lang}) lists these symbols twice: {twice}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_symbol_in_the_maths_is_in_the_table(lang):
    table, _ = notation_table(lang)
    names = frozenset(k for k in table if "_" in k)
    missing = {}
    for kind, page in PAGES:
        for n, tex in formulas(kind, lang, page):
            for symbol in symbols(tex, names):
                if symbol not in table:
                    missing.setdefault(symbol, f"{kind}/{lang}/{page} cell {n}: ${tex.strip()[:60]}$")
    assert not missing, ("symbols in the maths that §0.4's table does not list (add a row, or use the "
                         "table's symbol):\n" + "\n".join(f"{s}: {where}" for s, where in sorted(missing.items())))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_letter_keeps_a_second_meaning(lang):
    found = [f"{kind}/{lang}/{page} cell {n}: ${tex.strip()[:60]}$: {why}"
             for kind, page in PAGES for n, tex in formulas(kind, lang, page) for why in clash_problems(tex)]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_letter_used_as_an_index_is_an_index_in_the_table(lang):
    """read64 C-en C4: §2.2 gave each entry of x its flat index in "(b, t, f)" and labelled Figure 2.2's slots
    with "the feature number f", while §0.4's f is the scalar function of §7.1. A feature is c."""
    indices = index_letters()                                  # the letters are the same in every language
    found = [f"{kind}/{lang}/{page} cell {n}: {group}"
             for kind, page in PAGES for n, cell in enumerate(read(kind, lang, page))
             for group in misused_indices(prose_and_comments(cell), indices, english=lang == "en")]
    assert not found, (f"letters used as indices that §0.4's table does not give an index ({sorted(indices)}):\n"
                       + "\n".join(found))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_quiz_writes_a_function_letter_only_as_the_table_defines_it(lang):
    """read64 C-en C3: a §4.2 question wrote a residual connection as y_i = X_i + f(X_i), a sublayer of a row, while
    §0.4's f is the scalar function of §7.1 whose gradient is checked. Every letter a quiz writes as a function, in
    every language, is one the table gives as a function, applied to what its row takes (f(θ + ε))."""
    sys.path.insert(0, str(ROOT))
    from tools import quizzes
    table, _ = notation_table("en")
    assert table["f"].startswith("a scalar function") and "parameter entry" in table["theta"]
    parts = [(page, sec.number, part[lang]) for page, sections in quizzes.load_all().items() for sec in sections
             for q in sec.questions for part in quizzes.question_parts(q) if part[lang]]
    assert any(FUNCTION_CALL.search(CODE.sub(" ", text)) for _, _, text in parts)     # §7.1's f(θ + ε) is read
    found = [f"{page} §{number}: {call}" for page, number, text in parts for call in misused_functions(text, table)]
    assert not found, "letters written as functions that §0.4's table does not define so:\n" + "\n".join(found)


def test_the_figures_label_features_with_the_tables_symbol():
    """read64 C-en C3: Figure 1.3's columns are the four features of Y, and its axis said j, a key's position."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from figures import plots

    table, _ = notation_table("en")
    feature = next(symbol for symbol, meaning in table.items() if meaning.startswith("a feature"))
    assert feature in index_letters() and table["j"].startswith("index of a query")
    cell = next(_text(c) for c in read("chapters", "en", "01_allowed_set.ipynb")
                if c["cell_type"] == "code" and "|ΔY|  unmasked_attention" in _text(c))
    assert f'xlabel="{feature}"' in cell, cell
    fig = plots.heatmaps([np.zeros((3, 4))], ["|ΔY|"], xlabel=feature, lang="en")
    assert [ax.get_xlabel() for ax in fig.axes] == [feature]
    assert plots.heatmaps([np.zeros((3, 3))], ["α"], lang="en").axes[0].get_xlabel() == "j"       # keys, by default
    fig2 = plots.head_layout_picture({"split_heads(x, H)": np.arange(8).reshape(2, 1, 4)}, width=8)
    assert fig2.axes[0].texts[-1].get_text() == f"t0 {feature}7"                      # time 0, feature 7
    plt.close("all")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_layers_are_counted_from_zero(lang):
    found = []
    for kind, page in PAGES:
        numbers = layer_numbers(lang, read(kind, lang, page))
        if numbers and 0 not in numbers:
            found.append(f"{kind}/{lang}/{page} names layers {sorted(numbers)} but never layer 0")
    assert not found, "layers count from 0, as in the code (blocks.0, cached_layers={0}):\n" + "\n".join(found)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_code_of_section_0_4_names_its_arrays_as_the_table_does(lang):
    """read63 C-en C5: §0.4's cell, which "ties the notation to array shapes", called its array of input vectors
    (B, T, D) `x`, the table's letter for a token id. It writes `X`, the table's input vectors, as it prints."""
    table, _ = notation_table(lang)
    assert "token" in table["x"].lower() or "词元" in table["x"] or "токен" in table["x"].lower(), table["x"]
    cells = read("chapters", lang, "00_start.ipynb")
    cell = next(_text(c) for c in cells if c["cell_type"] == "code" and "split_heads(" in _text(c)
                and "np.zeros((B, T, D))" in _text(c))
    assert "X = np.zeros((B, T, D))" in cell and not re.search(r"(?<![\w.])x\b", cell), cell


# where a text places query i: "Query i stands at position tk − tq + i", "query i stands at position 3 + i"
QUERY_PLACE = re.compile(r"[Qq]uery \$?i\$? (?:stands|is|sits) at (?:absolute )?position \$?([^$.;:)]+?)\$?(?= and|[.;:)]| \(|$)", re.M)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_table_gives_i_the_meaning_the_figure_and_lib_use(lang):
    """read83 en-01 C1: §0.4's table said i is the position of a query, while Figure 1.1, §5.1 and lib's docstrings
    place query i of a step after a cache at position tk − tq + i: there i is the index of a new query. The table's
    i names that index and the position it stands at."""
    places = {m.group(1).strip() for text in [(ROOT / "lib" / "attention.py").read_text(encoding="utf-8")]
              + [_text(c) for page in ("01_allowed_set.ipynb", "05_cache.ipynb") for c in read("chapters", "en", page)]
              for m in QUERY_PLACE.finditer(text)}
    assert places - {"i"}, "no text places query i anywhere but at position i: this test reads nothing"
    table, _ = notation_table(lang)
    assert "t_k - t_q + i" in table["i"], f"§0.4 ({lang}) does not say where query i stands: {table['i']}"
    if lang == "en":
        share = re.split(r",\s*", table["i"])[0]
        assert share.startswith("index of a query") and "position i " in share, share
