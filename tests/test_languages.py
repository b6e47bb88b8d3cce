"""The course's languages are listed once, in course_i18n; every other module imports them.

A tuple, list or set of all the language codes, a regular expression that alternates
between them, or a locale of the site (Chinese's is not its code) written in a Python
module elsewhere is a second list, which a fourth language would have to find and edit.
A test may still pick some languages for a reason of its own (the two non-Latin scripts).

What these tests fail on (docs/translating.md, "Adding a language", points here):

* a module that writes the language codes out again (a tuple, list or set of all of them,
  a pattern that alternates between them) or names a Sphinx locale that differs from its
  code (`zh_CN`);
* a Python module outside `tests/` that holds a text in every language, as a
  `{language: text}` table or as arguments named by language;
* a script in `site/static/` that holds such a table (only `QUESTION` in
  `course-search.js` may: the question words a search leaves out, step 6 of the guide);
* a source in `src/` that gives `T()` more than one text, or tags a comment with a
  language other than English (`#zh`);
* blocks under `languages:` in `_config.yml` that are not the languages of
  `course_i18n.LANGUAGE_TABLE` in its order, or whose `label` or `sphinx_language` differs
  from it;
* a folder of `site/locale/` that belongs to no language, or a language other than
  English without one;
* a code the course lacks, given to `course_i18n.check_language`, which it must refuse.

What they let through: a list, pattern, table or set of arguments is flagged only when it
names every language. One written before a new language existed passes; only the tests
that fail for the new language show it. The two lists `"zh en ru".split()` in §8's code
pass too, a form these tests do not look for: step 8 of "Adding a language" adds the new
code to them.
"""

import ast
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGE_TABLE, LANGUAGES, SOURCE_LANGUAGE, check_language, language  # noqa: E402

SKIPPED = {".venv", "_build", "build", ".git", "node_modules", "course_i18n"}
THIS_FILE = pathlib.Path(__file__).resolve()
LOCALES = {lang.locale for lang in LANGUAGE_TABLE if lang.locale != lang.code}


def python_files():
    for path in sorted(ROOT.rglob("*.py")):
        if not SKIPPED & set(path.relative_to(ROOT).parts[:-1]) and path != THIS_FILE:
            yield path


def second_lists(path):
    """(line, what) for every place in ``path`` that writes the language list out again."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            codes = {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in LANGUAGES}
            if codes == set(LANGUAGES):
                yield node.lineno, "the list of language codes"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if all(re.search(rf"(?<![\w|]){code}\||\|{code}(?![\w|])|\|{code}\|", node.value) for code in LANGUAGES):
                yield node.lineno, f"a pattern alternating between the language codes: {node.value[:60]!r}"
            for locale in LOCALES:
                if re.search(rf"\b{locale}\b", node.value):
                    yield node.lineno, f"the locale {locale!r} (course_i18n.language(code).locale)"


def test_no_module_lists_the_languages_again():
    found = [f"{path.relative_to(ROOT)}:{line}: {what}"
             for path in python_files() for line, what in second_lists(path)]
    assert not found, "import LANGUAGES / LANGUAGE_TABLE from course_i18n instead:\n" + "\n".join(found)


def translation_tables(path):
    """(line, what) for every text in several languages written into a module instead of a catalogue
    (interface texts: course_i18n/locales/; the prose of src/: src/locales/, tools/prose.py)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value: v for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant)}
            if set(LANGUAGES) <= set(keys) and all(isinstance(keys[lang], (ast.Constant, ast.JoinedStr, ast.BinOp))
                                                   and not isinstance(getattr(keys[lang], "value", ""), (int, float))
                                                   for lang in LANGUAGES):
                yield node.lineno, "a {language: text} table; write the English under a key (course_i18n.catalogue.text)"
        elif isinstance(node, ast.Call) and set(LANGUAGES) <= {k.arg for k in node.keywords}:
            yield node.lineno, "a call given a text per language by name (md(zh=..., ...), dict(zh=..., ...))"
        elif isinstance(node, (ast.FunctionDef, ast.Lambda)):
            if set(LANGUAGES) <= {a.arg for a in node.args.args + node.args.kwonlyargs}:
                yield node.lineno, "a function taking a text per language by name"


def test_no_module_writes_a_translation_table():
    """Every text lives in one format: the code and the sources in src/ hold the English, the catalogues
    every other language; only tests (which state what each language reads) hold texts in several."""
    found = [f"{path.relative_to(ROOT)}:{line}: {what}" for path in python_files()
             if path.relative_to(ROOT).parts[0] != "tests" for line, what in translation_tables(path)]
    assert not found, "\n".join(found)


# The one table by language a script of the site may hold: language data, not a text a reader sees
# (the question words course-search.js leaves out of a query; docs/translating.md, "Adding a language").
SCRIPT_LANGUAGE_DATA = {("course-search.js", "QUESTION")}


def script_tables(path):
    """(line, name) for every object literal of a script that gives a string for every language:
    ``{zh: "关闭", en: "Close", ru: "Закрыть"}``."""
    text = path.read_text(encoding="utf-8")
    for match in re.finditer(r"""\{((?:"[^"\n]*"|'[^'\n]*'|[^{}"'])*)\}""", text):    # (braces in its strings too)
        if all(re.search(rf'(?:^|[{{,\s]){lang}\s*:\s*["\']', match.group(1)) for lang in LANGUAGES):
            name = re.search(r"(\w+)\s*=\s*$", text[:match.start()])
            yield text.count("\n", 0, match.start()) + 1, name.group(1) if name else "(unnamed)"


def test_no_script_of_the_site_writes_a_translation_table():
    """The site's scripts hold no text of their own: tools/build_site.py hands course.js its words (data-course-texts
    on its script tag) and tools/search_index.py hands course-search.js its words (the index's "texts"), both from
    the catalogues of course_i18n, where a translator finds them and tests/test_glossary.py reads them."""
    scripts = sorted((ROOT / "site" / "static").glob("*.js"))
    assert {path.name for path in scripts} >= {"course.js", "course-search.js", "quiz.js"}
    found = [f"{path.relative_to(ROOT)}:{line}: {name}" for path in scripts for line, name in script_tables(path)
             if (path.name, name) not in SCRIPT_LANGUAGE_DATA]
    assert not found, "a {language: text} table in a script; write the English under a key of course_i18n " \
                      "and hand the script its language's text:\n" + "\n".join(found)
    kept = {(path.name, name) for path in scripts for _, name in script_tables(path)}
    assert kept == SCRIPT_LANGUAGE_DATA, "the exception is stale or the check no longer sees it"


def test_the_script_check_sees_a_table(tmp_path):
    sample = tmp_path / "sample.js"
    sample.write_text('(function () {\n  var CLOSE = {zh: "关闭", en: "Close",\n    ru: "Закрыть"};\n'
                      '  var SIZE = {en: 1, zh: 2, ru: 3};\n  var FOUND = {zh: "找到 {n} 个", en: "{n} found", ru: "{n}"};\n'
                      '})();\n', encoding="utf-8")
    assert list(script_tables(sample)) == [(2, "CLOSE"), (5, "FOUND")]


def test_the_prose_of_src_is_english_with_its_translations_in_catalogues():
    """A source in src/ writes each text once, in English: a quiz's T() takes one text, and no code
    cell holds a comment tagged with another language (the builder refuses it, tools/nbsource.py)."""
    found = []
    for path in sorted((ROOT / "src").glob("*/*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "T" and len(node.args) != 1:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: T() with {len(node.args)} texts")
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: a comment tagged #{lang}"
                          for lang in LANGUAGES if lang != SOURCE_LANGUAGE
                          and re.search(rf"^\s*#{lang} |\s#{lang} ", node.value, re.M)]
    assert not found, "\n".join(found)
    assert (ROOT / "src" / "locales" / "chapters.pot").exists()


def test_the_check_sees_a_second_list(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text('LANGS = ("zh", "en", "ru")\nPATTERN = r"#(zh|en|ru) "\nFOLDER = "zh_CN"\n', encoding="utf-8")
    assert [line for line, _ in second_lists(sample)] == [1, 2, 3]
    table = tmp_path / "table.py"
    table.write_text('WORDS = {"zh": "词", "en": "word", "ru": "слово"}\ndef words(zh, en, ru):\n    pass\n'
                     'CONFIG = {"zh": 1, "en": 2, "ru": 3}\nmd(zh="甲", en="a", ru="а")\n', encoding="utf-8")
    assert sorted(line for line, _ in translation_tables(table)) == [1, 2, 5]


def test_the_site_config_names_the_same_languages():
    import yaml
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert list(config["languages"]) == list(LANGUAGES)
    for code, spec in config["languages"].items():
        assert spec.get("sphinx_language", code) == language(code).locale
        assert spec["label"] == language(code).name


def test_every_locale_folder_of_the_site_belongs_to_a_language():
    folders = {p.name for p in (ROOT / "site" / "locale").iterdir() if p.is_dir()}
    assert folders == {lang.locale for lang in LANGUAGE_TABLE if lang.code != SOURCE_LANGUAGE}


def test_an_unknown_language_is_refused_naming_the_known_ones():
    assert check_language("ru") == "ru"
    with pytest.raises(ValueError, match="zh, en, ru"):
        check_language("de")
