"""Interface texts: English in the code under a stable key, the other languages in gettext catalogues.

A module that shows a learner (or an instructor) a sentence writes it in English once,
under a key that never changes while the sentence's meaning stays::

    TITLE = text("grading.exercise.mask-1.title", "The causal allowed set")

:func:`text` returns a :class:`Text`, a ``{language: sentence}`` dict with an entry for every
language of :data:`course_i18n.LANGUAGES`: English as written, every other language from
``course_i18n/locales/<code>/LC_MESSAGES/course.po``, where the entry has ``msgctxt`` = the
key, ``msgid`` = the English and ``msgstr`` = the translation.  An entry that is missing,
marked fuzzy, or translates another English (the English changed since) gives the English,
as gettext does; ``tools/i18n.py check`` (and tests/test_translations.py) fails on each.

The catalogues are read with the standard library only (the learner's ``check()`` runs from
the wheel, without Babel); Babel writes them (``tools/i18n.py extract`` / ``update``), and a
test reads every catalogue with both and compares.
"""

import pathlib
import re

from . import LANGUAGES, PLURAL_CATEGORIES, PLURAL_RULES, SOURCE_LANGUAGE, language, parse_number, plural_category

__all__ = ["Text", "text", "texts", "Plural", "plural", "plurals", "catalogue", "read_po", "LOCALES_DIR", "DOMAIN",
           "placeholders"]

LOCALES_DIR = pathlib.Path(__file__).resolve().parent / "locales"
DOMAIN = "course"
KEY = re.compile(r"^[a-z][a-z0-9_]*(\.[A-Za-z0-9_-]+)+$")

_catalogues = {}
_written = {}          # key -> English, every text made in this process (tools/i18n.py extract reads it)


class Text(dict):
    """One interface text in every language: ``{lang: sentence}``, with its ``key`` and ``english``."""

    def __init__(self, key, english, translations):
        super().__init__(translations)
        self.key, self.english = key, english


def text(key, english):
    """The :class:`Text` of ``key``, whose English is ``english``."""
    if not isinstance(key, str) or not KEY.match(key):
        raise ValueError(f"an interface text's key is dotted words, such as 'grading.messages.timeout'; got {key!r}")
    if not isinstance(english, str) or not english.strip():
        raise ValueError(f"the English of {key!r} is empty or not a string: {english!r}")
    if _written.setdefault(key, english) != english:
        raise ValueError(f"the key {key!r} is used for two English texts: {_written[key]!r} and {english!r}")
    return Text(key, english, {lang: translate(lang, key, english) for lang in LANGUAGES})


def texts(prefix, english_by_name):
    """``{name: text(f"{prefix}.{name}", english)}`` for a table of English texts."""
    return {name: text(f"{prefix}.{name}", english) for name, english in english_by_name.items()}


class Plural(dict):
    """A text whose words follow a number (1 point, 2 points; 1 балл, 2 балла, 5 баллов): one :class:`Text`
    per plural category that a language of the course uses (``forms``, keys ``<key>.one``, ``<key>.few``,
    ``<key>.many``, ``<key>.other``), and the field whose number picks the form (``count``).

    As a dict it is ``{lang: the "other" form}``, what a caller that knows no plurals shows."""

    def __init__(self, key, count, forms):
        super().__init__(forms["other"])
        self.key, self.count, self.forms = key, count, forms

    def form(self, lang, fields):
        """The sentence of ``lang`` for these fields: the form of the category of ``fields[count]`` (a number,
        or a number as ``lang`` writes it); the "other" form when the field holds no number."""
        number = parse_number(fields.get(self.count), lang) if self.count in fields else None
        category = "other" if number is None else plural_category(lang, number)
        return (self.forms.get(category) or self.forms["other"])[lang]


def _categories():
    """Every plural category some language of the course uses, in catalogue order."""
    used = {c for lang in LANGUAGES for c in PLURAL_RULES[language(lang).plural][0]}
    return [c for c in PLURAL_CATEGORIES if c in used]


def plural(key, count, one, other):
    """The :class:`Plural` of ``key``: English ``one`` for a ``count`` of 1, ``other`` for any other.

    The catalogues hold one entry per category (``<key>.one`` ... ``<key>.other``) whose English is ``one``
    (the category "one") or ``other`` (every other category); each language translates them all, and uses
    those its plural rule picks (course_i18n.PLURAL_RULES: Russian all four, Chinese only "other")."""
    if "{" + count + "}" not in one or "{" + count + "}" not in other:
        raise ValueError(f"the plural text {key!r} is chosen by {{{count}}}, which both forms must use")
    return Plural(key, count, {c: text(f"{key}.{c}", one if c == "one" else other) for c in _categories()})


def plurals(prefix, table):
    """``{name: plural(f"{prefix}.{name}", count, one, other)}`` for a table of ``name: (count, one, other)``."""
    return {name: plural(f"{prefix}.{name}", *forms) for name, forms in table.items()}


def translate(lang, key, english):
    """``english`` in ``lang``: the catalogue's translation, or the English itself."""
    if lang == SOURCE_LANGUAGE:
        return english
    return catalogue(lang).get((key, english)) or english


def written():
    """``{key: English}`` of every text made so far in this process."""
    return dict(_written)


def catalogue(lang, folder=None):
    """``{(key, English): translation}`` of one language, fuzzy and empty entries left out."""
    folder = pathlib.Path(folder or LOCALES_DIR)
    cache_key = (lang, str(folder))
    if cache_key not in _catalogues:
        path = folder / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
        entries = read_po(path) if path.exists() else []
        _catalogues[cache_key] = {(e["msgctxt"], e["msgid"]): e["msgstr"] for e in entries
                                  if e["msgstr"] and "fuzzy" not in e["flags"] and e["msgid"]}
    return _catalogues[cache_key]


def read_po(path):
    """The entries of a .po file as dicts (msgctxt, msgid, msgstr, flags); obsolete ones left out.

    Reads what Babel writes: ``#,`` flags, ``msgctxt``/``msgid``/``msgstr`` each a string
    possibly continued on the following lines, no plural forms."""
    entries, entry, field = [], None, None
    lines = pathlib.Path(path).read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line or line.startswith(("#~", "#|")):
            continue
        starts_entry = line.startswith(("#", "msgctxt ", "msgid "))
        if entry is None or (starts_entry and field == "msgstr"):
            entry, field = {"msgctxt": None, "msgid": "", "msgstr": "", "flags": set()}, None
            entries.append(entry)
        if line.startswith("#,"):
            entry["flags"].update(flag.strip() for flag in line[2:].split(","))
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            if field is None:
                raise ValueError(f"{path}:{number}: a string continued before any msgid")
            entry[field] += _unquote(line, path, number)
        else:
            keyword, _, rest = line.partition(" ")
            if keyword not in ("msgctxt", "msgid", "msgstr"):
                raise ValueError(f"{path}:{number}: unexpected {keyword!r} (plural forms are not used here)")
            field = keyword
            entry[field] = _unquote(rest.strip(), path, number)
    return entries


_ESCAPE = re.compile(r"\\(.)")
_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}


def _unquote(token, path, number):
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        raise ValueError(f"{path}:{number}: expected a quoted string, got {token[:40]!r}")
    try:
        return _ESCAPE.sub(lambda m: _ESCAPED[m.group(1)], token[1:-1])
    except KeyError as unknown:
        raise ValueError(f"{path}:{number}: unknown escape \\{unknown.args[0]}") from None


_FIELD = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def placeholders(sentence):
    """The ``{name}`` fields of a ``str.format`` text, sorted (``{{`` and ``}}`` are not fields)."""
    return sorted(m.group(1) for m in _FIELD.finditer(sentence) if m.group(1) is not None)
