"""Translations cannot drift: a cell whose text changed in one language but not
in the others is named until a translator confirms the three agree again
(tools/translations.py; CONTRIBUTING.md, "Translations that cannot drift")."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import translations  # noqa: E402
from tools.nbsource import Source  # noqa: E402

SOURCES = translations.sources([])


@pytest.mark.parametrize("source", SOURCES, ids=[f"{p.parent.name}/{p.name}" for p in SOURCES])
def test_every_translated_cell_is_confirmed(source):
    stale = translations.stale_cells(source)
    assert not stale, "translations not confirmed since a change:\n" + "\n".join(translations.describe(source, stale))


def _cells(md_texts):
    src = Source()
    for zh, en, ru in md_texts:
        src.md(zh=zh, en=en, ru=ru)
    return src.cells


def test_a_change_in_one_language_names_that_language(tmp_path, monkeypatch):
    """The mechanism itself: edit en only -> en named as changed, zh/ru as stale; confirm clears it."""
    source = tmp_path / "src" / "chapters" / "99_demo.py"
    source.parent.mkdir(parents=True)
    source.write_text('md(zh="甲", en="one", ru="один")\nmd(zh="乙", en="two", ru="два")\n', encoding="utf-8")
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    monkeypatch.setattr(translations, "LOCKS", tmp_path / "src" / "translations")
    assert [c for _, _, c in translations.stale_cells(source)] == [None, None]     # never confirmed
    translations.confirm(source)
    assert translations.stale_cells(source) == []
    # a translator's edit in English only
    source.write_text('md(zh="甲", en="one!", ru="один")\nmd(zh="乙", en="two", ru="два")\n', encoding="utf-8")
    stale = translations.stale_cells(source)
    assert stale == [(0, "one!", ["en"])]
    message = "\n".join(translations.describe(source, stale))
    assert "en changed" in message and "zh/ru may be stale" in message and "cell 0" in message
    # inserting a cell in front does not make the others stale (records match by content)
    source.write_text('md(zh="新", en="new", ru="новый")\nmd(zh="甲", en="one!", ru="один")\n'
                      'md(zh="乙", en="two", ru="два")\n', encoding="utf-8")
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, None), (1, ["en"])]
    translations.confirm(source, [1])
    assert [(i, c) for i, _, c in translations.stale_cells(source)] == [(0, None)]
    translations.confirm(source)
    assert translations.stale_cells(source) == []
    assert len(translations.read_lock(source)) == 3            # confirming the file drops old records


def _source_in(tmp_path, monkeypatch, relative, text):
    """A source file under a temporary project root whose translation records start empty."""
    source = tmp_path / relative
    source.parent.mkdir(parents=True, exist_ok=True)
    source.write_text(text, encoding="utf-8")
    monkeypatch.setattr(translations, "ROOT", tmp_path)
    monkeypatch.setattr(translations, "LOCKS", tmp_path / "src" / "translations")
    return source


def test_translated_comments_are_part_of_what_is_confirmed(tmp_path, monkeypatch):
    code = 'code("""\n#zh 缩放\n#en scale\n#ru масштаб\nx = 1\n""")\n'
    source = _source_in(tmp_path, monkeypatch, "src/chapters/98_demo.py", code)
    translations.confirm(source)
    source.write_text(code.replace("x = 1", "x = 2"), encoding="utf-8")       # code only: still confirmed
    assert translations.stale_cells(source) == []
    source.write_text(code.replace("#ru масштаб", "#ru масштабируем"), encoding="utf-8")
    assert [c for _, _, c in translations.stale_cells(source)] == [["ru"]]


# ---- interface texts: gettext catalogues (course_i18n/locales/, tools/i18n.py) -------------------

from babel.messages.pofile import read_po as babel_read_po  # noqa: E402

from course_i18n import catalogue as interface  # noqa: E402
from tools import i18n  # noqa: E402


def test_every_interface_text_is_translated_and_current():
    """tools/i18n.py check, in a process of its own (a test's made-up texts must not count)."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "i18n.py"), "check"], capture_output=True,
                         text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]


@pytest.mark.parametrize("lang", i18n.translated_languages())
def test_the_runtime_reader_reads_what_babel_reads(lang):
    path = i18n.catalogue_path(lang)
    ours = {(e["msgctxt"], e["msgid"]): (e["msgstr"], "fuzzy" in e["flags"]) for e in interface.read_po(path)}
    with open(path, "rb") as handle:
        babels = {(m.context, m.id): (m.string, m.fuzzy) for m in babel_read_po(handle)}
    assert ours == babels and len(ours) > 200


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
    cell = 'code("""\n#zh 画图\n#en draw\n#ru рисуем\nx = 1\n""", alt=dict(zh="两条线", en="Two lines", ru="Две линии"))\n'
    source = _source_in(tmp_path, monkeypatch, "src/chapters/97_demo.py", cell)
    translations.confirm(source)
    assert len(translations.read_lock(source)) == 2                          # the comments, and the alt text
    source.write_text(cell.replace("Two lines", "Two red lines"), encoding="utf-8")
    assert translations.stale_cells(source) == [(0, "Two red lines", ["en"])]


def test_a_quiz_question_changed_in_one_language_is_named(tmp_path, monkeypatch):
    chapter = _source_in(tmp_path, monkeypatch, "src/chapters/96_demo.py",
                         'md(zh="## 1.1 甲", en="## 1.1 Alpha", ru="## 1.1 Альфа")\n')
    questions = "".join(f'order(T("排{k}", "order {k}", "порядок {k}"), steps=[T("一", "one", "раз"), T("二", "two", "два"), '
                        f'T("三", "three", "три")], why=T("因为", "because", "потому что")),\n' for k in range(3))
    quiz = _source_in(tmp_path, monkeypatch, "src/quizzes/96_demo.py", f'section("alpha",\n{questions})\n')
    from tools import quizzes
    monkeypatch.setattr(quizzes, "CHAPTER_DIR", chapter.parent)
    assert [c for _, _, c in translations.stale_cells(quiz)] == [None, None, None]
    translations.confirm(quiz)
    quiz.write_text(quiz.read_text(encoding="utf-8").replace("порядок 1", "порядок один"), encoding="utf-8")
    stale = translations.stale_cells(quiz)
    assert stale == [(1, "order 1", ["ru"])]
    assert "question 1 ('order 1'): ru changed" in "\n".join(translations.describe(quiz, stale))


# ---- a fourth language: one entry in course_i18n's list and one catalogue, no code edited ------------

FOURTH_LANGUAGE = r'''
import pathlib, sys
import course_i18n
assert pathlib.Path(course_i18n.__file__).is_relative_to(pathlib.Path(sys.argv[1])), course_i18n.__file__
assert course_i18n.LANGUAGES == ("zh", "en", "ru", "xx")
from babel.messages.pofile import read_po, write_po
from tools import i18n

i18n.main(["init", "xx"])                         # the new catalogue, every entry still to translate
untranslated = i18n.problems(i18n.extracted())
assert untranslated and all("/xx/" in line and line.endswith("not translated") for line in untranslated), untranslated[:3]
path = i18n.catalogue_path("xx")
with open(path, "rb") as handle:
    catalogue = read_po(handle)
for message in catalogue:
    if message.id:
        message.string = "[xx] " + message.id     # a translation that keeps every {placeholder}
with open(path, "wb") as handle:
    write_po(handle, catalogue, width=0, no_location=True)
print("catalogue started")
'''

FOURTH_LANGUAGE_READ = r'''
import pathlib, sys
import course_i18n
assert pathlib.Path(course_i18n.__file__).is_relative_to(pathlib.Path(sys.argv[1])), course_i18n.__file__
from tools import i18n
assert i18n.problems(i18n.extracted()) == [], i18n.problems(i18n.extracted())[:3]
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
from tools.nbsource import Source
try:
    Source().md(zh="甲", en="a", ru="а")
except ValueError as refused:
    assert "has no xx text" in str(refused)
else:
    raise AssertionError("a Markdown cell without its xx text was accepted")
print("fourth language accepted")
'''


def test_a_fourth_language_is_one_list_entry_and_one_catalogue(tmp_path):
    """A copy of course_i18n with a made-up language xx added to its list (the only edit), run in a
    process of its own: tools/i18n.py starts its catalogue and checks it, and check()'s feedback, the
    grader's messages, the exercises, the landing page and the quiz's words read it.  (Chapter prose is not interface text: every md() and quiz T()
    needs its xx text, which nbsource and tools/quizzes ask for by name.)"""
    copy = tmp_path / "course_i18n"
    shutil.copytree(ROOT / "course_i18n", copy, ignore=shutil.ignore_patterns("__pycache__"))
    init = copy / "__init__.py"
    listed = '    Language("ru", "Русский", "ru", "ru"),\n'
    assert listed in init.read_text(encoding="utf-8")
    init.write_text(init.read_text(encoding="utf-8").replace(listed, listed + '    Language("xx", "Xx", "xx", "xx"),\n'),
                    encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    for script, said in ((FOURTH_LANGUAGE, "catalogue started"), (FOURTH_LANGUAGE_READ, "fourth language accepted")):
        run = subprocess.run([sys.executable, "-c", script, str(tmp_path)], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0 and said in run.stdout, run.stdout[-3000:] + run.stderr[-3000:]
