"""Translations cannot drift: a cell whose text changed in one language but not
in the others is named until a translator confirms the three agree again
(tools/translations.py; docs/translating.md, "Confirming the translations")."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from prose_catalogues import use_locales, write_translations  # noqa: E402
from tools import i18n, prose, translations  # noqa: E402

SOURCES = translations.sources([])


@pytest.mark.parametrize("source", SOURCES, ids=[f"{p.parent.name}/{p.name}" for p in SOURCES])
def test_every_translated_cell_is_confirmed(source):
    stale = translations.stale_cells(source)
    assert not stale, "translations not confirmed since a change:\n" + "\n".join(translations.describe(source, stale))


def _project(tmp_path, monkeypatch):
    """A temporary project root: its translation records start empty, its catalogues in src/locales/."""
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    monkeypatch.setattr(translations, "LOCKS", tmp_path / "src" / "translations")
    return use_locales(monkeypatch, tmp_path / "src" / "locales")


def _source_in(tmp_path, monkeypatch, relative, text, translated, fuzzy=()):
    """A source file under a temporary project root, its catalogues holding ``translated``
    ({English: {lang: text}}; English in ``fuzzy`` marked fuzzy, as tools/i18n.py update leaves it)."""
    locales = _project(tmp_path, monkeypatch)
    source = tmp_path / relative
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text, encoding="utf-8")
    write_translations(locales, source, translated, fuzzy)
    return source


ONE_TWO = {"one": {"zh": "甲", "ru": "один"}, "two": {"zh": "乙", "ru": "два"}}


def test_a_change_in_one_language_names_that_language(tmp_path, monkeypatch):
    """The mechanism itself: a change to the English source, or to one translation in its catalogue,
    names that language as changed and the others as stale; confirm clears it."""
    source = _source_in(tmp_path, monkeypatch, "src/chapters/99_demo.py", 'md("one")\nmd("two")\n', ONE_TWO)
    assert [c for _, _, c in translations.stale_cells(source)] == [None, None]     # never confirmed
    translations.confirm(source)
    assert translations.stale_cells(source) == []
    # an author's edit of the English; tools/i18n.py update keeps the translations, marked fuzzy
    source.write_text('md("one!")\nmd("two")\n', encoding="utf-8")
    write_translations(tmp_path / "src" / "locales", source, {"one!": ONE_TWO["one"], "two": ONE_TWO["two"]},
                       fuzzy={"one!"})
    stale = translations.stale_cells(source)
    assert stale == [(0, "one!", ["en"])]
    message = "\n".join(translations.describe(source, stale))
    assert "en changed" in message and "zh/ru may be stale" in message and "cell 0" in message
    # Chinese, the authoritative language, changed alone in its catalogue
    write_translations(tmp_path / "src" / "locales", source, {"one!": ONE_TWO["one"], "two": {"zh": "乙!", "ru": "два"}})
    assert translations.stale_cells(source) == [(0, "one!", ["en"]), (1, "two", ["zh"])]
    assert "zh changed since the languages were last confirmed together; en/ru may be stale" in "\n".join(
        translations.describe(source, translations.stale_cells(source)))
    # inserting a cell in front does not make the others stale (records match by content)
    source.write_text('md("new")\nmd("one!")\nmd("two")\n', encoding="utf-8")
    write_translations(tmp_path / "src" / "locales", source, {"new": {"zh": "新", "ru": "новый"}, "one!": ONE_TWO["one"],
                                                               "two": {"zh": "乙!", "ru": "два"}})
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, None), (1, ["en"]), (2, ["zh"])]
    translations.confirm(source, [1])
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, None), (2, ["zh"])]
    translations.confirm(source)
    assert translations.stale_cells(source) == []
    assert len(translations.read_lock(source)) == 3            # confirming the file drops old records



def test_records_made_before_a_language_was_added_name_that_language(tmp_path, monkeypatch):
    """A new language (docs/translating.md, "Adding a language"): the records of src/translations/ hold no
    fingerprint for it, so each cell is stale with that language named as changed, and confirm clears it cell by
    cell (read59 T C4: status and confirm failed with KeyError)."""
    source = _source_in(tmp_path, monkeypatch, "src/chapters/99_demo.py", 'md("one")\nmd("two")\n', ONE_TWO)
    translations.confirm(source)
    three = translations.units
    monkeypatch.setattr(translations, "LANGUAGES", [*translations.LANGUAGES, "xx"])
    monkeypatch.setattr(translations, "units", lambda s: [(i, {**texts, "xx": f"xx {i}"}) for i, texts in three(s)])
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, ["xx"]), (1, ["xx"])]
    translations.confirm(source, [0])
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(1, ["xx"])]
    translations.confirm(source)
    assert translations.stale_cells(source) == []

def test_a_text_not_yet_in_the_catalogues_is_named_and_cannot_be_confirmed(tmp_path, monkeypatch):
    source = _source_in(tmp_path, monkeypatch, "src/chapters/99_demo.py", 'md("one")\nmd("three")\n', ONE_TWO)
    stale = translations.stale_cells(source)
    assert stale == [(0, "one", None), (1, "three", ("missing", ["zh", "ru"]))]
    assert "cell 1 ('three'): no zh/ru translation in the catalogues; run .venv/bin/python tools/i18n.py extract, then update" in \
        "\n".join(translations.describe(source, stale))
    with pytest.raises(SystemExit, match="cell 1 has no translation in some language's catalogue yet"):
        translations.confirm(source)


def test_the_printed_confirm_command_names_every_stale_cell(tmp_path, monkeypatch):
    """CONTRIBUTING "When the English changes", step 4: the failing test prints a confirm command with a --cell for each
    cell it names, however many, never the whole file (which would confirm cells nobody has read)."""
    texts = {w: {"zh": z, "ru": r} for w, z, r in
             [("a", "甲", "а"), ("b", "乙", "б"), ("c", "丙", "в"), ("d", "丁", "г"), ("e", "戊", "д")]}
    source = _source_in(tmp_path, monkeypatch, "src/chapters/95_demo.py",
                        "".join(f'md("{w}")\n' for w in texts), texts)
    stale = translations.stale_cells(source)
    assert len(stale) == 5
    last = translations.describe(source, stale)[-1]
    assert last.endswith(".venv/bin/python tools/translations.py confirm src/chapters/95_demo.py"
                         " --cell 0 --cell 1 --cell 2 --cell 3 --cell 4"), last


def test_translated_comments_are_part_of_what_is_confirmed(tmp_path, monkeypatch):
    code = 'code("""\n#en scale\nx = 1\n""")\n'
    source = _source_in(tmp_path, monkeypatch, "src/chapters/98_demo.py", code, {"scale": {"zh": "缩放", "ru": "масштаб"}})
    translations.confirm(source)
    source.write_text(code.replace("x = 1", "x = 2"), encoding="utf-8")       # code only: still confirmed
    assert translations.stale_cells(source) == []
    write_translations(tmp_path / "src" / "locales", source, {"scale": {"zh": "缩放", "ru": "масштабируем"}})
    assert [c for _, _, c in translations.stale_cells(source)] == [["ru"]]


# ---- interface texts: gettext catalogues (course_i18n/locales/, tools/i18n.py) -------------------

from babel.messages.pofile import read_po as babel_read_po  # noqa: E402

from course_i18n import catalogue as interface  # noqa: E402


def test_every_interface_text_is_translated_and_current():
    """tools/i18n.py check over the interface and the prose catalogues, in a process of its own (a test's
    made-up texts must not count)."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "i18n.py"), "check"], capture_output=True,
                         text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


@pytest.mark.parametrize("lang", prose.translated_languages())
def test_the_runtime_reader_reads_what_babel_reads(lang):
    path = i18n.catalogue_path(lang)
    ours = {(e["msgctxt"], e["msgid"]): (e["msgstr"], "fuzzy" in e["flags"]) for e in interface.read_po(path)}
    with open(path, "rb") as handle:
        babels = {(m.context, m.id): (m.string, m.fuzzy) for m in babel_read_po(handle)}
    assert ours == babels and len(ours) > 200


@pytest.mark.parametrize("path", sorted(ROOT.glob("course_i18n/locales/*/LC_MESSAGES/*.po"))
                         + sorted(ROOT.glob("src/locales/*/LC_MESSAGES/*.po")), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_entry_keeps_an_old_english_text_once_it_is_current(path):
    """A "#| msgid" comment (the English before a change) belongs to a fuzzy entry only, while a translator
    compares the two; once the translation is current it goes. Left behind, a merge of two catalogues cut
    such comments into fragments ("# of", "# d))") that read as translator notes."""
    stale, entry = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines() + [""], 1):
        if line.strip():
            entry.append((number, line))
            continue
        if entry and not any(l.startswith("#,") and "fuzzy" in l for _, l in entry):
            stale += [f"line {n}: {l}" for n, l in entry if l.startswith(("#|", "# |"))]
        entry = []
    assert not stale, f"{path.relative_to(ROOT)}: old English left on current entries:\n" + "\n".join(stale[:10])


def _demo(tmp_path, texts, translations):
    """A template of ``texts`` and a Russian catalogue holding ``translations`` ({key: (English, ru)})."""
    locales = tmp_path / "locales"
    i18n.write_if_changed(i18n.template_path(locales), i18n.template(texts))
    old = i18n._new_catalogue("ru")
    for key, (english, russian) in translations.items():
        old.add(english, russian, context=key)
    catalogue = i18n.merge(old, texts, "ru")
    i18n.write_if_changed(i18n.catalogue_path("ru", locales), catalogue)
    return locales


def test_a_changed_english_text_keeps_its_translation_marked_fuzzy(tmp_path):
    texts = {"demo.greeting": "Hello, {name}!", "demo.farewell": "Goodbye, {name}"}
    locales = _demo(tmp_path, texts, {"demo.greeting": ("Hello, {name}!", "Привет, {name}!"),
                                      "demo.farewell": ("Bye, {name}", "Пока, {name}"),
                                      "demo.gone": ("Gone", "Ушло")})
    po = i18n.catalogue_path("ru", locales).read_text(encoding="utf-8")
    assert '#, fuzzy, python-brace-format\n#| msgid "Bye, {name}"\nmsgctxt "demo.farewell"\nmsgid "Goodbye, {name}"\nmsgstr "Пока, {name}"' in po
    assert '#~ msgctxt "demo.gone"' in po
    found = i18n.problems(texts, locales, ["ru"])
    assert len(found) == 2, found
    assert "[demo.farewell]: fuzzy" in found[0] and "[demo.gone]: obsolete" in found[1]
    # the reader used at run time leaves a fuzzy translation out: the learner reads the English
    assert interface.catalogue("ru", locales) == {("demo.greeting", "Hello, {name}!"): "Привет, {name}!"}


def test_the_check_names_a_missing_translation_and_a_placeholder_mismatch(tmp_path):
    texts = {"demo.a": "{count} tests passed", "demo.b": "no test", "demo.c": "a new text"}
    locales = _demo(tmp_path, texts, {"demo.a": ("{count} tests passed", "прошло {число} тестов"),
                                      "demo.b": ("no test", "ни одного теста")})
    found = i18n.problems(texts, locales, ["ru"])
    assert len(found) == 2, found
    assert "[demo.a]: placeholders ['число'] differ from the English's ['count']" in found[0]
    assert "[demo.c]: not translated" in found[1]
    assert i18n.problems({**texts, "demo.d": "more"}, locales, ["ru"])[0].endswith(
        "not what the code says (demo.d); run tools/i18n.py extract, then update")


def test_a_figure_alt_text_is_confirmed_apart_from_the_cell(tmp_path, monkeypatch):
    cell = 'code("""\n#en draw\nx = 1\n""", alt="Two lines")\n'
    both = {"draw": {"zh": "画图", "ru": "рисуем"}, "Two lines": {"zh": "两条线", "ru": "Две линии"}}
    source = _source_in(tmp_path, monkeypatch, "src/chapters/97_demo.py", cell, both)
    translations.confirm(source)
    assert len(translations.read_lock(source)) == 2                          # the comments, and the alt text
    source.write_text(cell.replace("Two lines", "Two red lines"), encoding="utf-8")
    write_translations(tmp_path / "src" / "locales", source, {"draw": both["draw"], "Two red lines": both["Two lines"]},
                       fuzzy={"Two red lines"})
    assert translations.stale_cells(source) == [(0, "Two red lines", ["en"])]


def test_a_quiz_question_changed_in_one_language_is_named(tmp_path, monkeypatch):
    chapter = _source_in(tmp_path, monkeypatch, "src/chapters/96_demo.py", 'md("## 1.1 Alpha")\n',
                         {"## 1.1 Alpha": {"zh": "## 1.1 甲", "ru": "## 1.1 Альфа"}})
    questions = "".join(f'order(T("order {k}"), steps=[T("one"), T("two"), T("three")], why=T("because"), '
                        f'unwitnessed="a demo"),\n'
                        for k in range(3))
    texts = {**{f"order {k}": {"zh": f"排{k}", "ru": f"порядок {k}"} for k in range(3)},
             "one": {"zh": "一", "ru": "раз"}, "two": {"zh": "二", "ru": "два"}, "three": {"zh": "三", "ru": "три"},
             "because": {"zh": "因为", "ru": "потому что"}}
    quiz = _source_in(tmp_path, monkeypatch, "src/quizzes/96_demo.py", f'section("alpha",\n{questions})\n', texts)
    from tools import quizzes
    monkeypatch.setattr(quizzes, "CHAPTER_DIR", chapter.parent)
    assert [c for _, _, c in translations.stale_cells(quiz)] == [None, None, None]
    translations.confirm(quiz)
    write_translations(tmp_path / "src" / "locales", quiz, {**texts, "order 1": {"zh": "排1", "ru": "порядок один"}})
    stale = translations.stale_cells(quiz)
    assert stale == [(1, "order 1", ["ru"])]
    assert "question 1 ('order 1'): ru changed" in "\n".join(translations.describe(quiz, stale))


def _saved_by_a_po_editor(path, lang=None):
    """``path`` saved as a PO editor saves it (Poedit, msgcat): long lines wrapped at 79 columns, its
    own header."""
    from babel.messages.pofile import write_po
    catalogue = i18n.read(path, lang)
    catalogue.last_translator = "A Translator <translator@example.org>"
    with open(path, "wb") as handle:
        write_po(handle, catalogue, width=79)


def test_a_catalogue_a_po_editor_saved_fails_check_until_update_writes_it(tmp_path):
    """A PO editor wraps long lines and rewrites the header; test_extract_and_update_on_a_clean_checkout_write_nothing
    fails on such a file (update would rewrite it), so `tools/i18n.py check` fails too and says to run update, which
    writes the file back in the layout both expect (it once passed a file the test failed on)."""
    long = "a text long enough to be wrapped by a PO editor, which breaks every line at 79 columns: " * 2
    texts = {"demo.long": long, "demo.short": "Short"}
    locales = _demo(tmp_path, texts, {"demo.long": (long, "перевод, " * 20), "demo.short": ("Short", "Коротко")})
    path = i18n.catalogue_path("ru", locales)
    written = path.read_text(encoding="utf-8")
    assert i18n.problems(texts, locales, ["ru"]) == []
    _saved_by_a_po_editor(path, "ru")
    assert path.read_text(encoding="utf-8") != written and max(map(len, path.read_text().splitlines())) <= 80
    assert i18n.problems(texts, locales, ["ru"]) == [
        f"{prose.shown(path)}: not laid out as tools/i18n.py writes it (wrapped lines, another header or a blank "
        f"line at the end, as editors leave them); run tools/i18n.py update"]
    pot = {m.context: m.id for m in i18n.read(i18n.template_path(locales)) if m.id}      # what update does
    assert i18n.write_if_changed(path, i18n.merge(i18n.read(path, "ru"), pot, "ru"))
    assert i18n._stable(path.read_text(encoding="utf-8")) == i18n._stable(written)
    assert i18n.problems(texts, locales, ["ru"]) == []
    _saved_by_a_po_editor(i18n.template_path(locales))
    assert i18n.problems(texts, locales, ["ru"])[0].endswith("; run tools/i18n.py extract")
    # the prose catalogues alike
    entries = [("chapters/01_a", long)]
    i18n.write_if_changed(prose.template_path("chapters", locales), i18n.prose_template("chapters", entries))
    catalogue = i18n._prose_catalogue("chapters", "ru")
    catalogue.add(long, "перевод, " * 20, context="chapters/01_a")
    path = prose.catalogue_path("ru", "chapters", locales)
    i18n.write_if_changed(path, catalogue)
    assert i18n.prose_problems({"chapters": entries}, locales, ["ru"]) == []
    _saved_by_a_po_editor(path, "ru")
    assert [line.rsplit("; ", 1)[1] for line in i18n.prose_problems({"chapters": entries}, locales, ["ru"])] == [
        "run tools/i18n.py update"]
    i18n.write_if_changed(path, i18n.merge_prose(i18n.read(path, "ru"), "chapters", entries, "ru"))
    assert i18n.prose_problems({"chapters": entries}, locales, ["ru"]) == []


def test_update_keeps_the_old_english_of_a_fuzzy_entry_where_it_wrote_it(tmp_path, monkeypatch):
    """update writes the old English under the fuzzy mark (`#| msgid`); Babel reads that line as a translator's
    comment, so a second update once wrote it back as `# | msgid`, before the flags (i18n.read puts it back).
    Once the mark is removed, check names the `#|` lines left behind, as
    test_no_entry_keeps_an_old_english_text_once_it_is_current does."""
    texts = {"demo.farewell": "Goodbye, {name}"}
    locales = _demo(tmp_path, texts, {"demo.farewell": ("Bye, {name}", "Пока, {name}")})
    path = i18n.catalogue_path("ru", locales)
    written = path.read_text(encoding="utf-8")
    assert '#, fuzzy, python-brace-format\n#| msgid "Bye, {name}"\nmsgctxt "demo.farewell"' in written
    assert not i18n.write_if_changed(path, i18n.merge(i18n.read(path, "ru"), texts, "ru"))
    assert i18n.read(path, "ru").get("Goodbye, {name}", context="demo.farewell").previous_id == ["Bye, {name}"]
    assert [line.split(": ", 1)[1] for line in i18n.problems(texts, locales, ["ru"])] == [
        "fuzzy (the English changed since it was translated): revise it, then remove the fuzzy mark"]
    path.write_text(written.replace("#, fuzzy, ", "#, "), encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    found = i18n.problems(texts, locales, ["ru"])
    assert len(found) == 1 and found[0].endswith(
        "the old English (#| lines) is left on an entry that is no longer fuzzy; delete those lines"), found
    with pytest.raises(AssertionError, match="old English left on current entries"):
        test_no_entry_keeps_an_old_english_text_once_it_is_current(path)



def test_a_fuzzy_entry_of_several_lines_keeps_its_old_english_through_updates(tmp_path):
    """The old English of a text of several lines (every Markdown cell) is written by Babel as quoted pieces
    on one `#|` line; i18n.read once joined those pieces as if they were lines, so check said to run update,
    and each update garbled the old English further (read57 A1 C8). It reads back as written, and update
    leaves the file as it is."""
    old = 'A line with "quotes", a \\ backslash\nand a tab\t.\n\nA second paragraph.'
    new = 'A line with "quotes", a \\ backslash\nand a tab\t.\n\nA second paragraph, changed.'
    texts = {"demo.paragraph": new}
    locales = _demo(tmp_path, texts, {"demo.paragraph": (old, "Строка.\n\nВторой абзац.")})
    path = i18n.catalogue_path("ru", locales)
    written = path.read_text(encoding="utf-8")
    assert '#| msgid "" "A line with \\"quotes\\", a \\\\ backslash\\n"' in written
    message = i18n.read(path, "ru").get(new, context="demo.paragraph")
    assert message.fuzzy and message.previous_id == [old]
    for _ in range(2):                                      # update twice: nothing to write
        assert not i18n.write_if_changed(path, i18n.merge(i18n.read(path, "ru"), texts, "ru"))
    assert path.read_text(encoding="utf-8") == written
    assert [line.split(": ", 1)[1] for line in i18n.problems(texts, locales, ["ru"])] == [
        "fuzzy (the English changed since it was translated): revise it, then remove the fuzzy mark"]

# ---- the prose catalogues (src/locales/, tools/prose.py): update and check ---------------------------

def test_an_edited_paragraph_keeps_its_translation_marked_fuzzy(tmp_path):
    """update (tools/i18n.py merge_prose): the same English keeps its translation; an edited one is
    found among the source's old entries by similarity and kept, fuzzy, with its old English beside it;
    what no source writes any more becomes obsolete."""
    old = i18n._prose_catalogue("chapters", "ru")
    old.add("Masks come before softmax.", "Маска применяется до softmax.", context="chapters/01_a")
    old.add("Two heads read two positions.", "Две головы читают две позиции.", context="chapters/02_b")
    old.add("A paragraph that was deleted.", "Удалённый абзац.", context="chapters/02_b")
    entries = [("chapters/01_a", "Masks come before softmax."), ("chapters/02_b", "Two heads read two positions at once."),
               ("chapters/02_b", "A new paragraph.")]
    new = i18n.merge_prose(old, "chapters", entries, "ru")
    assert new.get("Masks come before softmax.", context="chapters/01_a").fuzzy is False
    edited = new.get("Two heads read two positions at once.", context="chapters/02_b")
    assert (edited.string, edited.fuzzy, edited.previous_id) == ("Две головы читают две позиции.", True,
                                                                 ["Two heads read two positions."])
    assert not new.get("A new paragraph.", context="chapters/02_b").string
    assert [m.id for m in new.obsolete.values()] == ["A paragraph that was deleted."]
    locales = tmp_path / "locales"
    i18n.write_if_changed(prose.template_path("chapters", locales), i18n.prose_template("chapters", entries))
    i18n.write_if_changed(prose.catalogue_path("ru", "chapters", locales), new)
    found = i18n.prose_problems({"chapters": entries}, locales, ["ru"])
    assert len(found) == 3, found
    assert "[chapters/02_b] 'Two heads read two positions at once.': fuzzy" in found[0]
    assert "[chapters/02_b] 'A new paragraph.': not translated" in found[1]
    assert "'A paragraph that was deleted.': obsolete" in found[2]


def test_the_prose_check_names_a_lost_builder_placeholder(tmp_path):
    entries = [("solutions/ex01_a", 'Run `%pip install "{{course_package}}"`.')]
    locales = tmp_path / "locales"
    i18n.write_if_changed(prose.template_path("solutions", locales), i18n.prose_template("solutions", entries))
    catalogue = i18n._prose_catalogue("solutions", "ru")
    catalogue.add(entries[0][1], "Выполните `%pip install`.", context=entries[0][0])
    i18n.write_if_changed(prose.catalogue_path("ru", "solutions", locales), catalogue)
    found = i18n.prose_problems({"solutions": entries}, locales, ["ru"])
    assert len(found) == 1 and "the placeholders ['{{course_package}}'] must stay" in found[0], found
    assert i18n.prose_problems({"solutions": entries + [("solutions/ex01_a", "More.")]}, locales, ["ru"])[0].endswith(
        "not what src/solutions/ says (solutions/ex01_a); run tools/i18n.py extract, then update")


def test_the_prose_check_names_a_quiz_field_lost_or_renamed(tmp_path, monkeypatch):
    """A quiz text's `{field}` is filled by str.format (tools/quizzes.py), which ignores a field the translation
    dropped: a Russian «растут во много раз» for "grow {ratio}-fold" passed check and the quiz's loader, and the page
    would have shown no number (read57 T L9). check names a field dropped or renamed in quizzes.po, as it does in course.po; in
    chapters.po, whose braces are LaTeX's (Russian writes 0,5 as `0{,}5`), it does not compare them."""
    from tools import quizzes
    english = "The tables grow {ratio}-fold."
    source = _source_in(tmp_path, monkeypatch, "src/quizzes/02_heads.py", "", {})
    locales, entries = tmp_path / "src" / "locales", [("quizzes/02_heads", english)]
    i18n.write_if_changed(prose.template_path("quizzes", locales), i18n.prose_template("quizzes", entries))
    found, filled = [], []
    for russian in ("Таблицы растут в {ratio} раз.", "Таблицы растут во много раз.", "Таблицы растут в {раз} раз."):
        write_translations(locales, source, {english: {"zh": "表增长到 {ratio} 倍。", "ru": russian}})
        found.append([line.split(": ", 1)[1] for line in i18n.prose_problems({"quizzes": entries}, locales, ["ru"])])
        try:
            filled.append(quizzes._text_maker(prose.Translations(source), source)(english, ratio=16)["ru"])
        except quizzes.QuizError:
            filled.append("refused")
    assert found == [[], ["placeholders [] differ from the English's ['ratio']"],
                     ["placeholders ['раз'] differ from the English's ['ratio']"]], found
    # what the loader does without the check: the renamed field stops it, the dropped one goes through unseen
    assert filled == ["Таблицы растут в 16 раз.", "Таблицы растут во много раз.", "refused"], filled
    chapter, formula = [("chapters/02_heads", "$x_{t} = 0.5$")], "$x_{t} = 0{,}5$"
    i18n.write_if_changed(prose.template_path("chapters", locales), i18n.prose_template("chapters", chapter))
    catalogue = i18n._prose_catalogue("chapters", "ru")
    catalogue.add(chapter[0][1], formula, context=chapter[0][0])
    i18n.write_if_changed(prose.catalogue_path("ru", "chapters", locales), catalogue)
    assert i18n.prose_problems({"chapters": chapter}, locales, ["ru"]) == []


# ---- a fourth language: one entry in course_i18n's list and `tools/i18n.py init`, no source edited --------

FOURTH_LANGUAGE = r'''
import pathlib, sys
import course_i18n
assert pathlib.Path(course_i18n.__file__).is_relative_to(pathlib.Path(sys.argv[1])), course_i18n.__file__
assert course_i18n.LANGUAGES == ("zh", "en", "ru", "xx")
from babel.messages.pofile import read_po, write_po
from tools import i18n, prose
prose.LOCALES = pathlib.Path(sys.argv[1]) / "src-locales"      # a copy of src/locales, so the test writes nothing in src/

i18n.main(["init", "xx"])                         # the new catalogues, every entry still to translate
untranslated = i18n.problems(i18n.extracted()) + i18n.prose_problems(i18n.extracted_prose())
assert untranslated and all("/xx/" in line and line.endswith("not translated") for line in untranslated), untranslated[:3]
paths = [i18n.catalogue_path("xx")] + [prose.catalogue_path("xx", domain) for domain in prose.DOMAINS]
assert all(path.exists() for path in paths), paths
for path in paths:
    with open(path, "rb") as handle:
        catalogue = read_po(handle)
    for message in catalogue:
        if message.id:
            message.string = "[xx] " + message.id     # a translation that keeps every {placeholder}
    with open(path, "wb") as handle:
        write_po(handle, catalogue, width=0, no_location=True)
i18n.main(["update"])                             # after editing, as docs/translating.md says: the project's layout
print("catalogues started")
'''

FOURTH_LANGUAGE_READ = r'''
import pathlib, sys
import course_i18n
assert pathlib.Path(course_i18n.__file__).is_relative_to(pathlib.Path(sys.argv[1])), course_i18n.__file__
from tools import i18n, prose
prose.LOCALES = pathlib.Path(sys.argv[1]) / "src-locales"
assert i18n.problems(i18n.extracted()) == [], i18n.problems(i18n.extracted())[:3]
assert i18n.prose_problems(i18n.extracted_prose()) == [], i18n.prose_problems(i18n.extracted_prose())[:3]
from grading.registry import EXERCISES
mask1 = EXERCISES["mask-1"]
assert mask1.title["xx"] == "[xx] " + mask1.title["en"]
assert mask1.public_cases()[0].label["xx"] == "[xx] a single position"
sys.path.insert(0, str(pathlib.Path(i18n.ROOT) / "site"))
from landing_texts import landing_texts
links = dict(start="xx/a.html", sections=7, exercises="xx/e.html", exercise_sections="1–7", solutions="xx/s.html",
             notebook="chapters/xx/00_start.ipynb", binder_url="")
assert landing_texts("xx", links)["start"].startswith('[xx] Begin with <a href="xx/a.html">')
from tools import quizzes
assert quizzes.UI["heading"]["xx"] == "[xx] Check yourself"
import contextlib, io
from grading import check, messages
printed = io.StringIO()
with contextlib.redirect_stdout(printed):
    check("mask-1", lambda tq, tk: None, lang="xx")
assert "[xx] a single position" in printed.getvalue() and "[xx] the function returned None" in printed.getvalue(), \
    printed.getvalue()
assert messages.text("missing_function", "xx", function="f") == "[xx] the notebook does not define f"
# the notebook prose: the sources of src/ as they are, their xx text from the new catalogues
from tools.build_notebooks import make_notebook
from tools.nbsource import load
src = pathlib.Path(i18n.ROOT) / "src"
cells = load(src / "chapters" / "02_heads.py")
assert cells[0].text["xx"] == "[xx] " + cells[0].text["en"]
commented = next(cell for cell in cells if cell.kind == "code" and "#en " in cell.source)
assert "# [xx] " in commented.text["xx"] and "{{lang}}" not in commented.text["xx"]
figure = next(cell for cell in cells if "xx" in cell.lang_metadata)
assert make_notebook([figure], "xx", "demo").cells[0].metadata["mystnb"]["image"]["alt"].startswith("[xx] ")
exercise = load(src / "solutions" / "ex01_allowed_set.py")
assert any(cell.text["xx"].startswith("[xx] ") and "{{course_package}}" in cell.text["xx"] for cell in exercise)
question = quizzes.load(src / "quizzes" / "02_heads.py")[0].questions[0]
assert question.prompt["xx"] == "[xx] " + question.prompt["en"]
print("fourth language accepted")
'''


def _src_files():
    """{path: bytes} of every file in src/ (the test shows that none is edited)."""
    return {p: p.read_bytes() for p in sorted((ROOT / "src").rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


def test_a_fourth_language_is_one_list_entry_and_its_catalogues(tmp_path):
    """A copy of course_i18n with a made-up language xx added to its list (the only edit), run in a
    process of its own: tools/i18n.py init starts its interface and prose catalogues (the prose ones
    in a copy of src/locales) and checks them, and check()'s feedback, the grader's messages, the
    exercises, the landing page, the quiz's words, the chapter and exercise notebooks and the quiz
    questions read them.  No file in src/ is edited: the sources hold the English, and every other
    language comes from its catalogues."""
    copy = tmp_path / "course_i18n"
    shutil.copytree(ROOT / "course_i18n", copy, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "src" / "locales", tmp_path / "src-locales")
    init = copy / "__init__.py"
    # the last entry as course_i18n writes it (with how Russian writes numbers and its plural rule)
    listed = '    Language("ru", "Русский", "ru", "ru", decimal=",", group="\\u202f", plural="east-slavic"),\n'
    assert listed in init.read_text(encoding="utf-8")
    init.write_text(init.read_text(encoding="utf-8").replace(listed, listed + '    Language("xx", "Xx", "xx", "xx"),\n'),
                    encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    before = _src_files()
    for script, said in ((FOURTH_LANGUAGE, "catalogues started"), (FOURTH_LANGUAGE_READ, "fourth language accepted")):
        run = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0 and said in run.stdout, run.stdout[-3000:] + run.stderr[-3000:]
    assert _src_files() == before
    assert sorted(p.name for p in (tmp_path / "src-locales" / "xx" / "LC_MESSAGES").iterdir()) == [
        "chapters.po", "quizzes.po", "solutions.po"]


CLEAN_EXTRACT = r'''
import pathlib
from course_i18n import LANGUAGES, SOURCE_LANGUAGE
from tools import i18n, prose
targets = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
texts = i18n.extracted()
wanted = {i18n.template_path(): i18n.template(texts)}
for lang in targets:
    path = i18n.catalogue_path(lang)
    wanted[path] = i18n.merge(i18n.read(path, lang), texts, lang)
for domain, entries in i18n.extracted_prose().items():
    wanted[prose.template_path(domain)] = i18n.prose_template(domain, entries)
    for lang in targets:
        path = prose.catalogue_path(lang, domain)
        wanted[path] = i18n.merge_prose(i18n.read(path, lang), domain, entries, lang)
for path, catalogue in wanted.items():
    text = pathlib.Path(path).read_text(encoding="utf-8")
    if not text.endswith("\n") or text.endswith("\n\n"):
        print(f"{path}: not one line break at the end")
    elif i18n._stable(text) != i18n._stable(i18n.render(catalogue)):
        print(f"{path}: update would rewrite it")
print(f"checked {len(wanted)}")
'''


def test_extract_and_update_on_a_clean_checkout_write_nothing():
    """`tools/i18n.py extract` and `update` rewrite a catalogue only when its entries change: every committed
    template and catalogue is, dates aside, what they would write, and ends with one line break (babel's
    text ends with a blank line, which editing trims: each run used to rewrite every prose catalogue, and a
    translator had to revert the files whose only change was that line and the date).  In a fresh process, as
    the tool runs: in pytest's, a test that made texts of its own (test_exercises' made-up exercises) would
    add them to what extract finds."""
    run = subprocess.run([sys.executable, "-c", CLEAN_EXTRACT], cwd=ROOT, capture_output=True, text=True,
                         timeout=300, env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "site")])})
    assert run.returncode == 0, run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert lines and lines[-1].startswith("checked ") and int(lines[-1].split()[1]) >= 10, run.stdout
    assert lines[:-1] == [], "\n".join(lines[:-1])


def test_a_rewritten_catalogue_keeps_the_date_it_was_first_written(tmp_path):
    """Every write of a changed catalogue used to stamp POT-Creation-Date with the time of the write, so two
    branches that changed the same catalogue always conflicted on that header line when merged (every
    parallel translation pass did). A file that exists keeps its date; a new file gets the time it is
    written. Negative control: the rendered text of the later catalogue carries the later date."""
    import datetime
    path = tmp_path / "ru" / "LC_MESSAGES" / "course.po"
    first = i18n._new_catalogue("ru")
    first.creation_date = datetime.datetime(2026, 1, 2, 3, 4, tzinfo=datetime.timezone.utc)
    first.add("One", "Один", context="k.one")
    assert i18n.write_if_changed(path, first)
    assert '"POT-Creation-Date: 2026-01-02 03:04+0000\\n"' in path.read_text(encoding="utf-8")
    later = i18n._new_catalogue("ru")
    later.creation_date = datetime.datetime(2027, 5, 6, 7, 8, tzinfo=datetime.timezone.utc)
    later.add("One", "Один", context="k.one")
    later.add("Two", "Два", context="k.two")
    assert "2027-05-06 07:08" in i18n.render(later)
    assert i18n.write_if_changed(path, later)
    text = path.read_text(encoding="utf-8")
    assert '"POT-Creation-Date: 2026-01-02 03:04+0000\\n"' in text and "2027" not in text
    assert 'msgstr "Два"' in text
    assert i18n.read(path, "ru").get("Two", context="k.two").string == "Два"
