"""Cross-references resolve: what the words point at is there, in every language.

Read from the committed notebooks (the pages a learner reads), chapter, exercise and
solution, zh, en and ru:

* **"The figure below", "the table below"** (下图, 下表; «на рисунке ниже», «в таблице ниже», and
  the "above" forms): the first thing shown after the phrase (a Markdown image or table
  further on, or a code cell's output) is such a figure or table, and it comes before the
  next heading.  A figure is an image or an interactive widget; a table is a Markdown table,
  a widget, or printed lines.  "Above" looks back the same way.
  "The two numbers printed above" (上面打印的两个数; «два числа, напечатанные выше»; also
  "the last number above") points at a table in this sense (read74 en-68 C1: §8.3 said
  "the two numbers below" of numbers printed above it).
* **Figure 8.1** shows each edition's runs on its own text only, so no sentence that cites it
  names one of the three texts (read74 en-68 C2).
* **"The `%pip` line below"** (a piece of code named in backquotes, then line, command or call,
  below or above; «в строке `…` ниже», 下面的 `…`): a code cell on that side of the page holds
  that code (`check(...)`: a call of check).
* **§N and §N.M** name a chapter notebook and one of its headings ("## N.M ...").
* **Figure N.M** (图 N.M, рис. N.M / рисунок N.M): the site numbers the figures of chapter N
  in page order, every image with an alt text (site/course_book.py, ``caption_figures``);
  figure N.M must exist, and every figure of a chapter is cited in that chapter's prose.
* **Step K of §N.M** (§N.M 第 K 步, шаг K из §N.M), in the notebooks and the quizzes: the
  subsection §N.M has a numbered list whose item K is a step with a bold title. §4.7 places a
  layer before and after attention and cites step 6 of §4.2 for it, so that step's title must
  name both places (read62 C-en C3: it said only "after").
"""

import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from conftest import toc_pages  # noqa: E402
from course_i18n import LANGUAGES  # noqa: E402

CHAPTERS = sorted((ROOT / "chapters" / "en").glob("[0-9][0-9]_*.ipynb"))        # the numbered sections §N
# pages of the chapter without a number of their own (the appendix): their §N.M must resolve, they number no figure
UNNUMBERED = sorted(p for p in (ROOT / "chapters" / "en").glob("*.ipynb") if p not in CHAPTERS)
SOLUTIONS = sorted((ROOT / "solutions" / "en").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises" / "en").glob("*.ipynb"))

BELOW = {
    "en": re.compile(r"\b(?:the|this|these|an?) (?:interactive )?(figure|table|picture|plot|chart|heatmaps?|curves?)"
                     r" (below|above)\b"
                     r"|\bthe (?:two |three |last )(numbers?) (?:printed )?(below|above)\b", re.I),
    "zh": re.compile(r"(下|上)(?:面的|方的)?(?:交互)?(图|表)(?!示|格)|(下|上)面(?:打印)?的(?:两|三|最后一)个?(数)(?!据|组|学|字)"),
    "ru": re.compile(r"(?:на |в |во )?(рисун\w*|таблиц\w*|график\w*|тепловых картах|тепловая карта)"
                     r" (ниже|выше)|(ниже|выше) (?:на |в )?(рисун\w*|таблиц\w*|график\w*)"
                     r"|(?:два|три|последнее) (числа|число)(?:, напечатанн\w+)? (ниже|выше)", re.I),
}
CODE_POINTER = {
    "en": re.compile(r"\bthe `([^`]+)` (?:line|command|call|cell) (below|above)\b", re.I),
    "zh": re.compile(r"(下|上)(?:面|方)的?(?:这行|那行|命令|代码)?\s?`([^`]+)`"),
    "ru": re.compile(r"(?:строк\w*|команд\w*|вызов\w*) `([^`]+)` (ниже|выше)", re.I),
}
FIGURE_WORDS = ("figure", "picture", "plot", "chart", "heatmap", "heatmaps", "curve", "curves", "图")
CITATION = {
    "en": re.compile(r"\bFigures? (\d+)\.(\d+)"),
    "zh": re.compile(r"图 ?(\d+)\.(\d+)"),
    "ru": re.compile(r"\b(?:[Рр]ис\.|[Рр]исун\w*)\s?(\d+)\.(\d+)"),
}
SECTION = re.compile(r"§\s?(\d+)(?:\.(\d+))?")
HEADING = re.compile(r"^#{1,6}\s+(\d+)(?:\.(\d+))?\s", re.M)
IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]+\)")
MD_TABLE = re.compile(r"^\|.*\|\s*\n\|[\s:|-]+\|\s*$", re.M)
FENCED = re.compile(r"```.*?```", re.S)
STEP = {
    "en": re.compile(r"\bsteps? (?P<step>\d+) of §(?P<chapter>\d+)\.(?P<section>\d+)"),
    "zh": re.compile(r"§(?P<chapter>\d+)\.(?P<section>\d+) ?的?第 ?(?P<step>\d+) ?步"),
    "ru": re.compile(r"\bшаг\w* (?P<step>\d+) из §(?P<chapter>\d+)\.(?P<section>\d+)", re.I),
}
STEP_ITEM = re.compile(r"^(\d+)\. \*\*(.+?)\*\*", re.M)         # 6. **Layers before and after attention.**


def _text(cell):
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def read(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _blank(pattern, text):
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def elements(cells):
    """[(cell, offset, kinds)] of every thing shown, in page order: kinds is a set of "figure" (an
    image with an alt text, numbered by the site), "image" (one without), "widget", "table" (Markdown),
    "printout" (text output) or {"heading"}; a code cell is one element with the kinds of its
    outputs; offset is the position in a Markdown cell's text (0 for a code cell)."""
    found = []
    for n, cell in enumerate(cells):
        if cell["cell_type"] == "markdown":
            text = _blank(FENCED, _text(cell))
            for m in IMAGE.finditer(text):
                found.append((n, m.start(), {"figure" if m.group(1).strip() else "image"}))
            for m in MD_TABLE.finditer(text):
                found.append((n, m.start(), {"table"}))
            for m in HEADING.finditer(text):
                found.append((n, m.start(), {"heading"}))
            continue
        alt = cell.get("metadata", {}).get("mystnb", {}).get("image", {}).get("alt")
        kinds = set()
        for out in cell.get("outputs", []):
            data = out.get("data", {})
            if any(kind.startswith("image/") for kind in data):
                kinds.add("figure" if alt else "image")
            elif "application/vnd.jupyter.widget-view+json" in data or "text/html" in data:
                kinds.add("widget")
            else:
                text = out.get("text") or data.get("text/plain") or ""
                if ("".join(text) if isinstance(text, list) else text).strip():
                    kinds.add("printout")
        if kinds:
            found.append((n, 0, kinds))
    return sorted(found, key=lambda e: (e[0], e[1]))


def figures(cells):
    """The numbered figures of a chapter page: [(cell, offset)] in order (site/course_book.py)."""
    return [(n, offset) for n, offset, kinds in elements(cells) for _ in range("figure" in kinds and
                                                                              _images(cells[n]))]


def _images(cell):
    """How many numbered figures a cell shows: its Markdown images with alt text, or its image outputs."""
    if cell["cell_type"] == "markdown":
        return 1                                      # elements() lists each Markdown image apart
    return sum(any(kind.startswith("image/") for kind in out.get("data", {})) for out in cell.get("outputs", []))


def _wanted(word):
    word = word.lower()
    if word in ("table", "表", "number", "numbers", "数") or word.startswith(("таблиц", "числ")):
        return {"table", "widget", "printout"}
    return {"figure", "image", "widget"}


def pointer_problems(cells, lang):
    """Every "figure below" / "table above" in ``cells`` whose figure or table is not where it says."""
    shown = elements(cells)
    problems = []
    for n, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        text = _blank(IMAGE, _blank(FENCED, _text(cell)))           # an alt text points nowhere
        for m in BELOW[lang].finditer(text):
            groups = [g for g in m.groups() if g]
            if lang == "zh":
                direction, word = ("below" if groups[0] == "下" else "above"), groups[1]
            else:
                direction = "below" if any(g.lower() in ("below", "ниже") for g in groups) else "above"
                word = next(g for g in groups if g.lower() not in ("below", "above", "ниже", "выше"))
            if word.lower().startswith("тепловы"):
                word = "heatmaps"
            here = (n, m.start())
            if direction == "below":
                ahead = [e for e in shown if (e[0], e[1]) > here]
            else:
                ahead = [e for e in reversed(shown) if (e[0], e[1]) < here]
            first = next((e for e in ahead if e[2] != {"heading"}), None)
            crossed = next((e for e in ahead if e[2] == {"heading"}), None)
            if first is None or not first[2] & _wanted(word):
                problems.append(f"cell {n}: {m.group(0)!r} but the first thing shown {direction} is "
                                f"{'/'.join(sorted(first[2])) if first else 'nothing'}")
            elif crossed is not None and (crossed[:2] < first[:2] if direction == "below" else crossed[:2] > first[:2]):
                problems.append(f"cell {n}: {m.group(0)!r}, but a heading comes first")
    return problems


def code_pointer_problems(cells, lang):
    """Every "the `%pip` line below" in ``cells`` whose code is in no code cell on that side of the
    page (a pointer at a line that is not there: read10 found one in every exercise page)."""
    problems = []
    for n, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        for m in CODE_POINTER[lang].finditer(_text(cell)):
            groups = m.groups()
            below = any(g in ("below", "ниже", "下") for g in groups)
            code = next(g for g in groups if g not in ("below", "above", "ниже", "выше", "下", "上"))
            side = cells[n + 1:] if below else cells[:n]
            code = code.removesuffix("(...)") + "(" if code.endswith("(...)") else code    # check(...): any call
            if not any(c["cell_type"] == "code" and code in _text(c) for c in side):
                problems.append(f"cell {n}: {m.group(0)!r}, but no code cell {'below' if below else 'above'} "
                                f"holds {code!r}")
    return problems


def headings(lang):
    """{chapter number: {section numbers}} from the chapter notebooks of ``lang``."""
    found = {}
    for path in CHAPTERS:
        number = int(path.name[:2])
        sections = found.setdefault(number, set())
        for cell in read(ROOT / "chapters" / lang / path.name):
            if cell["cell_type"] == "markdown":
                for m in HEADING.finditer(FENCED.sub(" ", _text(cell))):
                    if m.group(2):
                        sections.add(int(m.group(2)))
    return found


def section_problems(cells, lang, known):
    problems = []
    for n, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        for m in SECTION.finditer(FENCED.sub(" ", _text(cell))):
            chapter, section = int(m.group(1)), m.group(2)
            if chapter not in known or (section is not None and int(section) not in known[chapter]):
                problems.append(f"cell {n}: {m.group(0)} names no section")
    return problems


def citation_problems(lang, page):
    """Citations of figures in the prose of ``page`` (a chapter or solution notebook name) that
    name no figure, and, for a chapter, its figures that are never cited."""
    numbered = {int(p.name[:2]): len(figures(read(ROOT / "chapters" / lang / p.name))) for p in CHAPTERS}
    kind = "chapters" if page in {p.name for p in CHAPTERS + UNNUMBERED} else "solutions"
    cells = read(ROOT / kind / lang / page)
    problems, cited = [], set()
    for n, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        for m in CITATION[lang].finditer(_text(cell)):
            chapter, k = int(m.group(1)), int(m.group(2))
            cited.add((chapter, k))
            if not 1 <= k <= numbered.get(chapter, 0):
                problems.append(f"cell {n}: {m.group(0)!r} names no figure (chapter {chapter} has "
                                f"{numbered.get(chapter, 0)})")
    if kind == "chapters" and page[:2].isdigit():
        chapter = int(page[:2])
        for k in range(1, numbered[chapter] + 1):
            if (chapter, k) not in cited:
                problems.append(f"figure {chapter}.{k} is never cited")
    return problems


def subsection_steps(cells, chapter, section):
    """{K: bold title} of the numbered steps in the Markdown of §chapter.section, up to the next heading."""
    steps, inside = {}, False
    for cell in cells:
        if cell["cell_type"] != "markdown":
            continue
        for part in re.split(r"(?=^#{1,6}\s)", FENCED.sub(" ", _text(cell)), flags=re.M):
            heading = HEADING.match(part)
            if heading:
                inside = (heading.group(1), heading.group(2)) == (str(chapter), str(section))
            if inside:
                steps.update({int(k): title for k, title in STEP_ITEM.findall(part)})
    return steps


def step_problems(texts, lang, chapter_cells):
    """Every "step K of §N.M" in ``texts`` whose §N.M has no step K; ``chapter_cells(N)`` gives the
    cells of chapter N's notebook in ``lang``."""
    problems = []
    for where, text in texts:
        for m in STEP[lang].finditer(text):
            chapter, section, step = int(m["chapter"]), int(m["section"]), int(m["step"])
            if step not in subsection_steps(chapter_cells(chapter), chapter, section):
                problems.append(f"{where}: {m.group(0)!r} names no step")
    return problems


def _chapter_cells(lang):
    paths = {int(p.name[:2]): p.name for p in CHAPTERS}
    return lambda chapter: read(ROOT / "chapters" / lang / paths[chapter]) if chapter in paths else []


def quiz_texts(lang):
    """(where, text) of every text of the quizzes in ``lang``: the English of quizzes.pot, or the translations."""
    from babel.messages.pofile import read_po
    path = (ROOT / "src" / "locales" / "quizzes.pot" if lang == "en"
            else ROOT / "src" / "locales" / lang / "LC_MESSAGES" / "quizzes.po")
    with open(path, "rb") as f:
        catalogue = read_po(f)
    return [(f"{path.name} [{m.context}]", m.id if lang == "en" else m.string) for m in catalogue if m.id]


# ---- the checks catch what they name --------------------------------------------------------------

def _md(text):
    return {"cell_type": "markdown", "source": text, "metadata": {}}


def _code(*outputs, alt=None):
    meta = {"mystnb": {"image": {"alt": alt}}} if alt else {}
    return {"cell_type": "code", "source": "x", "metadata": meta, "outputs": list(outputs)}


IMAGE_OUT = {"output_type": "display_data", "data": {"image/png": "iVBOR", "text/plain": "<Figure>"}}
PRINTED = {"output_type": "stream", "name": "stdout", "text": "1 2\n3 4\n"}


def test_the_checks_catch_what_they_name():
    right = [_md("## 1.1 A\n\nThe figure below shows it."), _code(IMAGE_OUT, alt="A picture."),
             _md("The table below lists it."), _code(PRINTED)]
    assert pointer_problems(right, "en") == []
    assert figures(right) == [(1, 0)]
    wrong = [_md("## 1.1 A\n\nThe figure below shows it."), _code(PRINTED), _code(IMAGE_OUT, alt="A picture.")]
    assert "printout" in pointer_problems(wrong, "en")[0]
    too_far = [_md("The table below lists it.\n\n## 1.2 B\n"), _code(PRINTED)]
    assert "heading comes first" in pointer_problems(too_far, "en")[0]
    assert pointer_problems([_md("见下图。"), _code(PRINTED)], "zh")
    assert not pointer_problems([_md("见下图。"), _code(IMAGE_OUT, alt="图。")], "zh")
    assert pointer_problems([_md("Как видно на рисунке ниже, всё так."), _code(PRINTED)], "ru")
    assert not pointer_problems([_md("В таблице ниже всё так."), _code(PRINTED)], "ru")
    assert not pointer_problems([_md("| a | b |\n| --- | --- |\n| 1 | 2 |\n\nThe table above says it.")], "en")
    # §8.3 as it stood before read74 en-68 C1: "the two numbers below" of numbers printed above it
    numbers = [_code(PRINTED), _md("They have that shape (the two numbers below: a length and a rate).")]
    assert "nothing" in pointer_problems(numbers, "en")[0]
    assert not pointer_problems([_code(PRINTED), _md("They have it (the two numbers printed above).")], "en")
    assert pointer_problems([_code(PRINTED), _md("（见下面打印的两个数：一行的长度）")], "zh")
    assert not pointer_problems([_code(PRINTED), _md("（见上面打印的两个数：一行的长度）")], "zh")
    assert pointer_problems([_code(PRINTED), _md("(это два числа ниже: длина строки)")], "ru")
    assert not pointer_problems([_code(PRINTED), _md("(это два числа, напечатанные выше: длина)")], "ru")
    # the install note as it stood before read10: it named a %pip line below that no cell holds
    note = _md("If the `%pip` line below names a `.whl` file, first download that file.")
    imports = {"cell_type": "code", "source": "import lib", "metadata": {}, "outputs": []}
    assert code_pointer_problems([note, imports], "en")
    assert not code_pointer_problems([note, dict(imports, source="%pip install x.whl")], "en")
    assert code_pointer_problems([_md("Если в строке `%pip` ниже указан файл."), imports], "ru")
    assert code_pointer_problems([_md("如果下面的 `%pip` 命令写的是文件。"), imports], "zh")
    known = {1: {1, 2}, 5: {1}}
    assert section_problems([_md("see §1.2, §5 and §5.1")], "en", known) == []
    assert section_problems([_md("see §1.3 and §9")], "en", known) == ["cell 0: §1.3 names no section",
                                                                      "cell 0: §9 names no section"]
    assert CITATION["ru"].search("как на рис. 1.2") and CITATION["ru"].search("на рисунке 3.1")
    assert CITATION["zh"].search("如图 2.3 所示") and CITATION["en"].search("Figure 7.1 shows")
    argument = [_md("## 4.2 A\n\n1. **Input.** x\n2. **Layers.** y\n\n## 4.3 B\n\n3. **Not 4.2.** z")]
    assert subsection_steps(argument, 4, 2) == {1: "Input.", 2: "Layers."}
    cited = [("cell", "as step 2 of §4.2 says, not step 3 of §4.2")]
    assert step_problems(cited, "en", lambda chapter: argument) == ["cell: 'step 3 of §4.2' names no step"]
    assert [m["step"] for lang, text in (("zh", "§4.2 的第 6 步"), ("zh", "§4.2 第 1 步"), ("ru", "шаг 6 из §4.2"),
                                         ("ru", "как говорит шаг 1 из §4.2")) for m in STEP[lang].finditer(text)] \
        == ["6", "1", "6", "1"]


# ---- the pages ----------------------------------------------------------------------------------

PAGES = [(kind, path.name) for kind, paths in (("chapters", CHAPTERS + UNNUMBERED), ("solutions", SOLUTIONS))
         for path in paths]


def test_the_pages_are_there():
    """They are the pages of _toc.yml, and the appendix is the one chapter page without a number."""
    assert [("chapters", p.stem) for p in CHAPTERS + UNNUMBERED] + [
        (p.parent.parent.name, p.stem) for p in EXERCISES + SOLUTIONS] == sorted(toc_pages())
    assert [p.name for p in UNNUMBERED] == ["appendix.ipynb"]


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind, page", PAGES)
def test_figures_and_tables_are_where_the_words_say(kind, page, lang):
    problems = pointer_problems(read(ROOT / kind / lang / page), lang)
    assert not problems, f"{kind}/{lang}/{page}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", ["chapters", "exercises", "solutions"])
def test_code_named_below_is_below(kind, lang):
    problems = [f"{kind}/{lang}/{path.name} {problem}"
                for path in sorted((ROOT / kind / "en").glob("*.ipynb"))
                for problem in code_pointer_problems(read(ROOT / kind / lang / path.name), lang)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_section_named_exists(lang):
    known = headings(lang)
    problems = [f"{kind}/{lang}/{path.name} {problem}"
                for kind, paths in (("chapters", CHAPTERS + UNNUMBERED), ("exercises", EXERCISES), ("solutions", SOLUTIONS))
                for path in paths for problem in section_problems(read(ROOT / kind / lang / path.name), lang, known)]
    assert sum(len(v) for v in known.values()) > 60
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind, page", PAGES)
def test_every_figure_is_cited_and_every_citation_names_a_figure(kind, page, lang):
    problems = citation_problems(lang, page)
    assert not problems, f"{kind}/{lang}/{page}:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_step_named_exists(lang):
    texts = [(f"{kind}/{lang}/{path.name} cell {n}", _text(cell))
             for kind, paths in (("chapters", CHAPTERS + UNNUMBERED), ("exercises", EXERCISES), ("solutions", SOLUTIONS))
             for path in paths for n, cell in enumerate(read(ROOT / kind / lang / path.name))
             if cell["cell_type"] == "markdown"] + quiz_texts(lang)
    found = [m for _, text in texts for m in STEP[lang].finditer(text)]
    assert len(found) >= 3, f"{lang}: the citations of a step are no longer found"   # §4.3, §4.7 and §4's quiz
    problems = step_problems(texts, lang, _chapter_cells(lang))
    assert not problems, "\n".join(problems)


def test_the_step_that_section_4_7_cites_covers_where_its_layers_stand():
    """§4.7 puts a normalisation within each position before and after attention (forward_with's
    ``before=`` and ``after=``) and says that the prefix stays unchanged "as step 6 of §4.2 predicts":
    the step it cites must name both places."""
    cells = read(ROOT / "chapters" / "en" / "04_causality.ipynb")
    start = next(n for n, cell in enumerate(cells) if cell["cell_type"] == "markdown"
                 and re.match(r"#+\s+4\.7\s", _text(cell)))
    end = next(n for n in range(start + 1, len(cells)) if cells[n]["cell_type"] == "markdown"
               and HEADING.search(_text(cells[n])))
    prose = " ".join(_text(c) for c in cells[start:end] if c["cell_type"] == "markdown")
    code = " ".join(_text(c) for c in cells[start:end] if c["cell_type"] == "code")
    places = set(re.findall(r"\b(before|after)=checks\.feature_normalization", code))
    assert places == {"before", "after"}, places
    cited = [(int(m["chapter"]), int(m["section"]), int(m["step"])) for m in STEP["en"].finditer(prose)]
    assert cited == [(4, 2, 6)], cited
    title = subsection_steps(cells, 4, 2)[6]
    assert all(re.search(rf"\b{place}\b", title, re.I) for place in places), (
        f"step 6 of §4.2 is {title!r}: it must cover a layer {' and '.join(sorted(places, reverse=True))} attention")
    assert not all(re.search(rf"\b{place}\b", "Layers after attention.", re.I) for place in places)   # read62 C3


def test_section_6_2_names_a_bug_the_hand_check_misses():
    """§6.2 gives a bug of lib that the assertions before it could miss (read64 en C1: it named a wrong scale factor,
    which no. 1's hand formula catches): the words name the two examples that tests/test_plain_python.py
    (test_the_bugs_that_section_6_2_names) runs, the one caught and the one missed."""
    from tools import nbsource
    prose = next(c.text["en"] for c in nbsource.load(ROOT / "src" / "chapters" / "06_evidence.py", strict=False)
                 if c.kind == "markdown" and "## 6.2 " in c.text["en"])
    assert "That check would catch a wrong scale factor, but not every bug." in prose
    assert "split the features into heads by interleaving them instead of taking them in blocks" in prose
    import test_plain_python
    assert "interleave" in test_plain_python.test_the_bugs_that_section_6_2_names.__doc__



TEXT_NAMES = {"en": re.compile(r"\b(?:Chinese|English|Russian)\b"), "zh": re.compile(r"中文|英文|俄文"),
              "ru": re.compile(r"китайск|английск|русск", re.I)}


def figure_8_1_claims(cells, lang):
    """The sentences of ``cells`` that cite Figure 8.1 and name one of the three texts. Each edition's
    Figure 8.1 shows the runs on its own text only (``texts[PAGE]``), so a sentence citing it for a fact
    about a named text is false on two pages of three (read74 en-68 C2: "A single batch loss in
    Figure 8.1 can still dip below the dashed line, even on the Chinese text")."""
    found = []
    for n, cell in enumerate(cells):
        if cell["cell_type"] != "markdown":
            continue
        for sentence in re.split(r"(?<=[.!?。！？])\s+(?=[A-ZА-ЯЁ\u4e00-\u9fff])|(?<=[。！？])", _text(cell)):
            cited = {(int(m.group(1)), int(m.group(2))) for m in CITATION[lang].finditer(sentence)}
            if (8, 1) in cited and TEXT_NAMES[lang].search(sentence):
                found.append(f"cell {n}: {sentence.strip()!r}")
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_figure_8_1_is_cited_for_what_every_page_shows(lang):
    old = _md("The unmasked model goes below it on none. A single batch loss in Figure 8.1 can still dip "
              "below the dashed line, even on the Chinese text: the bound holds for all lines.")
    assert figure_8_1_claims([old], "en")
    assert not figure_8_1_claims([_md("It dips below, on the Chinese text too. Figure 8.1 shows such dips "
                                      "on the text of this edition.")], "en")
    cells = read(ROOT / "chapters" / lang / "08_real_text.ipynb")
    assert any((8, 1) in {(int(m.group(1)), int(m.group(2))) for m in CITATION[lang].finditer(_text(c))}
               for c in cells if c["cell_type"] == "markdown")
    problems = figure_8_1_claims(cells, lang)
    assert not problems, f"chapters/{lang}/08_real_text.ipynb:\n" + "\n".join(problems)
