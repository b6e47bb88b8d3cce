"""The three languages must teach the same thing: same notebooks, same cells in
the same order, the same code (comments aside) and the same outputs.

Also checks that every committed notebook still matches its source in src/ and the
prose catalogues of src/locales/, so nobody edits a generated notebook by hand (or
forgets to rebuild it after a translation changed).
"""

import io
import pathlib
import sys
import tokenize

import nbformat
import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.build_notebooks import coalesce_streams, fill_placeholders  # noqa: E402
from tools.nbsource import LANG_PLACEHOLDER, LANGUAGES, load, untranslated_prose_comments  # noqa: E402

KINDS = ["chapters", "exercises", "solutions"]

# The one exemption from "the same outputs": §8 trains on verse in the page's own language
# (lib/corpus/verse_{zh,en,ru}.txt), so the cells that print that text, what a model writes
# after it, or a number measured on it print something else in each language.  Such a cell
# carries this tag in the source; its outputs are compared by kind only (how many, of which
# type, which stream), and only the notebooks listed here may use it.
PAGE_TEXT_TAG = "page-text"
PAGE_TEXT_NOTEBOOKS = {("chapters", "08_real_text.ipynb")}


def notebooks(kind, lang):
    return sorted(p.name for p in (ROOT / kind / lang).glob("*.ipynb"))


def read(kind, lang, name):
    return nbformat.read(ROOT / kind / lang / name, as_version=4)


def code_without_comments(source, lang=None):
    """Tokens of the code with comments and blank lines dropped (comments may be translated).

    The one other difference allowed is the notebook's own language code where
    the source says ``{{lang}}``: a string literal equal to ``lang`` compares as
    the placeholder.
    """
    own = {f'"{lang}"', f"'{lang}'"} if lang else set()
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    kept = [(t.type, f'"{LANG_PLACEHOLDER}"' if t.type == tokenize.STRING and t.string in own else t.string)
            for t in tokens
            if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT,
                              tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER)]
    return kept


def comparable_outputs(cell):
    """Outputs as text; images only by kind (their bytes are covered by the same code)."""
    tags = cell.metadata.get("tags", [])
    if "nbval-ignore-output" in tags:
        return "ignored"
    result = []
    for out in coalesce_streams(cell.get("outputs", [])):
        if PAGE_TEXT_TAG in tags:                  # the page's own text: compared by kind only
            result.append((out.output_type, out.get("name", ""), tuple(sorted(out.get("data", {})))))
            continue
        if out.output_type == "stream":
            result.append((out.name, out.text))
        elif out.output_type == "error":
            result.append(("error", out.ename, out.evalue))
        else:
            data = out.get("data", {})
            result.append(tuple(sorted((mime, value if mime.startswith("text/") else "<binary>")
                                       for mime, value in data.items()
                                       if mime != "application/vnd.jupyter.widget-view+json")))
    return result


@pytest.mark.parametrize("kind", KINDS)
def test_same_notebooks_in_every_language(kind):
    listings = {lang: notebooks(kind, lang) for lang in LANGUAGES}
    assert listings["zh"] == listings["en"] == listings["ru"], f"{kind}: notebook lists differ: {listings}"


def notebook_triples():
    for kind in KINDS:
        for name in notebooks(kind, "en"):
            yield pytest.param(kind, name, id=f"{kind}/{name}")


@pytest.mark.parametrize("kind, name", list(notebook_triples()))
def test_cells_code_and_outputs_agree(kind, name):
    nbs = {lang: read(kind, lang, name) for lang in LANGUAGES if (ROOT / kind / lang / name).exists()}
    assert set(nbs) == set(LANGUAGES), f"{kind}/{name} is missing in {set(LANGUAGES) - set(nbs)}"
    shapes = {lang: [c.cell_type for c in nb.cells] for lang, nb in nbs.items()}
    assert shapes["zh"] == shapes["en"] == shapes["ru"], f"{kind}/{name}: cell count or order differs"
    for i, cells in enumerate(zip(*(nbs[lang].cells for lang in LANGUAGES))):
        if cells[0].cell_type != "code":
            assert all(c.source.strip() for c in cells), f"{kind}/{name} cell {i}: an empty Markdown cell"
            continue
        code = [code_without_comments(c.source, lang) for c, lang in zip(cells, LANGUAGES)]
        assert code[0] == code[1] == code[2], f"{kind}/{name} cell {i}: code differs between languages"
        tags = [sorted(c.metadata.get("tags", [])) for c in cells]
        assert tags[0] == tags[1] == tags[2], f"{kind}/{name} cell {i}: tags differ between languages"
        outputs = [comparable_outputs(c) for c in cells]
        assert outputs[0] == outputs[1] == outputs[2], f"{kind}/{name} cell {i}: outputs differ between languages"


def test_outputs_of_the_pages_own_text_are_exempt_only_where_declared():
    """The tag is used in the declared notebooks only, and only on cells whose outputs do differ
    between the languages (a tag on a cell that prints the same everywhere would hide a future
    difference for nothing)."""
    tagged = []
    for kind in KINDS:
        for name in notebooks(kind, "en"):
            nbs = [read(kind, lang, name) for lang in LANGUAGES]
            for i, cells in enumerate(zip(*(nb.cells for nb in nbs))):
                if PAGE_TEXT_TAG not in cells[0].metadata.get("tags", []):
                    continue
                tagged.append((kind, name, i))
                assert (kind, name) in PAGE_TEXT_NOTEBOOKS, (
                    f"{kind}/{name} cell {i}: {PAGE_TEXT_TAG!r} is allowed only in {sorted(PAGE_TEXT_NOTEBOOKS)}")
                assert cells[0].cell_type == "code" and "nbval-ignore-output" not in cells[0].metadata.tags
                texts = {repr([(o.get("text"), o.get("data", {}).get("text/plain"))
                               for o in coalesce_streams(c.get("outputs", []))]) for c in cells}
                assert len(texts) > 1, (
                    f"{kind}/{name} cell {i} prints the same in every language: drop {PAGE_TEXT_TAG!r}")
    assert {(kind, name) for kind, name, _ in tagged} == PAGE_TEXT_NOTEBOOKS


def test_the_exemption_compares_the_kind_of_every_output():
    def cell(text, tags=(), streams=1):
        outputs = [nbformat.v4.new_output("stream", name="stdout", text=text) for _ in range(streams)]
        if streams > 1:                                    # a figure between two prints stays a figure
            outputs.insert(1, nbformat.v4.new_output("display_data", data={"image/png": "AAAA"}))
        return nbformat.v4.new_code_cell("print(x)", outputs=outputs, metadata={"tags": list(tags)})
    assert comparable_outputs(cell("1.5\n")) != comparable_outputs(cell("2.5\n"))
    own = (PAGE_TEXT_TAG,)
    assert comparable_outputs(cell("1.5\n", own)) == comparable_outputs(cell("2.5\n", own))
    assert comparable_outputs(cell("1.5\n", own, 2)) != comparable_outputs(cell("1.5\n", own))
    assert comparable_outputs(cell("x", ("nbval-ignore-output",))) == "ignored"


def chapter_sources():
    """The numbered sections and the appendix (src/chapters/appendix.py), every source of chapters/<lang>/."""
    return [pytest.param(p, id=p.name) for p in sorted((ROOT / "src" / "chapters").glob("*.py"))]


@pytest.mark.parametrize("source", chapter_sources())
def test_chapter_notebooks_match_their_source(source):
    cells = load(source)
    for lang in LANGUAGES:
        path = ROOT / "chapters" / lang / f"{source.stem}.ipynb"
        assert path.exists(), f"{path.relative_to(ROOT)} is missing: run `make notebooks`"
        nb = nbformat.read(path, as_version=4)
        committed = [(c.cell_type, c.source) for c in nb.cells]
        expected = [(c.kind, fill_placeholders(c.text[lang])) for c in cells]      # {{course_wheel}}, §0.5
        assert committed == expected, (
            f"{path.relative_to(ROOT)} does not match {source.relative_to(ROOT)}: "
            f"rebuild it with `python tools/build_notebooks.py {source.relative_to(ROOT)}`")


def test_every_chapter_notebook_has_a_source():
    sources = {p.stem for p in (ROOT / "src" / "chapters").glob("*.py")}
    for lang in LANGUAGES:
        built = {p.stem for p in (ROOT / "chapters" / lang).glob("*.ipynb")}
        assert built <= sources, f"chapters/{lang} has notebooks without a source: {built - sources}"


def all_sources():
    return [pytest.param(p, id=f"{p.parent.name}/{p.name}") for p in sorted((ROOT / "src").glob("*/*.py"))
            if p.parent.name != "quizzes"]          # questions, not notebooks (tools/quizzes.py)


@pytest.mark.parametrize("source", all_sources())
def test_comments_in_code_are_translated(source):
    """A comment in prose is tagged #en, and translated in the catalogue, so each notebook shows it in its language."""
    found = [(i, c) for i, cell in enumerate(load(source)) if cell.kind == "code"
             for c in untranslated_prose_comments(cell.source)]
    assert not found, (f"{source.relative_to(ROOT)}: comments in one language only "
                       "(tag them #en and translate them in src/locales/, see tools/nbsource.py):\n"
                       + "\n".join(f"  cell {i}: {c}" for i, c in found))


def test_figure_cells_have_alt_text_in_every_language():
    """Every code cell whose committed output holds an image says what it shows, per language."""
    missing = []
    for kind in ("chapters", "solutions"):
        for name in notebooks(kind, "en"):
            for lang in LANGUAGES:
                nb = read(kind, lang, name)
                for i, cell in enumerate(nb.cells):
                    has_image = cell.cell_type == "code" and any(
                        "image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
                        for out in cell.get("outputs", []))
                    alt = cell.metadata.get("mystnb", {}).get("image", {}).get("alt", "")
                    if has_image and not alt.strip():
                        missing.append(f"{kind}/{lang}/{name} cell {i}")
    assert not missing, "figures without alt text (code(..., alt=\"English\"), translated in src/locales/):\n" + \
        "\n".join(missing)


@pytest.mark.parametrize("kind", ["chapters", "exercises", "solutions"])
def test_headings_never_skip_a_level(kind):
    """A Markdown heading is at most one level deeper than the heading before it (the site's build
    refuses "H1 to H3"): checked on the built notebooks of every language, without building the site."""
    import re
    skips = []
    for lang in LANGUAGES:
        for path in sorted((ROOT / kind / lang).glob("*.ipynb")):
            level = 0
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type != "markdown":
                    continue
                fenced = False
                for line in cell.source.splitlines():
                    if line.startswith("```"):
                        fenced = not fenced
                    heading = None if fenced else re.match(r"(#{1,6}) ", line)
                    if heading:
                        new = len(heading.group(1))
                        if new > level + 1:
                            skips.append(f"{kind}/{lang}/{path.name}: H{level} to H{new}: {line[:60]}")
                        level = new
    assert not skips, "\n".join(skips)


def _alt(metadata):
    return metadata.get("mystnb", {}).get("image", {}).get("alt")


def stale_alt_texts(source, nb, lang):
    """The cells of a built notebook (``nb``, in ``lang``) whose figure's alt text is not the one its source and
    the catalogues give now. A cell's id ends with its number in the source, also where a notebook leaves
    cells out (tools/build_notebooks.py)."""
    cells = load(source)
    return [cell.id for cell in nb.cells
            if _alt(cell.metadata) != _alt(cells[int(cell.id.rsplit("-", 1)[1])].lang_metadata.get(lang, {}))]


def test_every_figures_alt_text_is_rebuilt():
    """A figure's alt text in each notebook is the one its source and the catalogues give now. The comparison of
    the cells' sources above leaves their metadata out, so an alt text changed in a catalogue and never rebuilt
    passed every test (read63 T L13). Negative control: a notebook whose alt text is edited is named."""
    checked = 0
    for kind in KINDS:
        folder = "chapters" if kind == "chapters" else "solutions"
        for source in sorted((ROOT / "src" / folder).glob("*.py")):
            for lang in LANGUAGES:
                nb = nbformat.read(ROOT / kind / lang / f"{source.stem}.ipynb", as_version=4)
                assert not stale_alt_texts(source, nb, lang), (
                    f"{kind}/{lang}/{source.stem}.ipynb: a figure's alt text is not its catalogue's: rebuild it with "
                    f"`python tools/build_notebooks.py {source.relative_to(ROOT)} --prose-only`")
                checked += sum(bool(_alt(cell.metadata)) for cell in nb.cells)
    assert checked >= 3 * 10, checked
    source = ROOT / "src" / "chapters" / "02_heads.py"
    nb = nbformat.read(ROOT / "chapters" / "ru" / "02_heads.ipynb", as_version=4)
    figure = next(cell for cell in nb.cells if _alt(cell.metadata))
    figure.metadata["mystnb"]["image"]["alt"] += " (старый текст)"
    assert stale_alt_texts(source, nb, "ru") == [figure.id]
