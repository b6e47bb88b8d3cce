"""The translations of the notebook prose: gettext catalogues under ``src/locales/``.

A source in ``src/`` keeps its prose in English only, where it belongs (``md("...")``, ``#en``
comments in code, ``alt="..."``, a quiz's ``T("...")``; tools/nbsource.py, tools/quizzes.py).
Every other language reads it from one catalogue per kind of source::

    src/locales/<lang>/LC_MESSAGES/chapters.po     # src/chapters/*.py
    src/locales/<lang>/LC_MESSAGES/solutions.po    # src/solutions/*.py (exercise and solved notebooks)
    src/locales/<lang>/LC_MESSAGES/quizzes.po      # src/quizzes/*.py

with the templates ``src/locales/{chapters,solutions,quizzes}.pot``.  In an entry, ``msgctxt`` is
the source the text belongs to (``chapters/02_heads``), so the same English in two sources can
be translated apart; ``msgid`` is the English as the source writes it (a Markdown cell without
its surrounding blank lines, the lines of a translated comment joined by newlines, an alt text,
a question's text) and ``msgstr`` its translation.  ``tools/i18n.py`` extracts, updates, checks
and starts these catalogues together with the interface catalogues of course_i18n.

Chinese is the authoritative language of the content, English the language the sources are
written in: ``tools/translations.py`` still records which three texts were confirmed together.

The builders ask for a translation with :meth:`Translations.get`.  In the strict mode they use,
a translation that is missing, empty or marked fuzzy is collected, and :meth:`Translations.check`
raises :class:`ProseError` naming the source, the English and the language of each: a notebook
is never built with English standing in for a translation.
"""

from __future__ import annotations

import pathlib

from course_i18n import LANGUAGES, SOURCE_LANGUAGE
from course_i18n.catalogue import read_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
SOURCES = ROOT / "src"
LOCALES = SOURCES / "locales"
DOMAINS = ("chapters", "solutions", "quizzes")    # one catalogue per folder of src/
SHOWN_PROBLEMS = 12                              # a ProseError lists this many, then counts the rest


class ProseError(ValueError):
    """A source whose prose cannot be given in every language."""


def domain(source):
    """The catalogue of a source: the name of its folder in src/ (``chapters``)."""
    name = pathlib.Path(source).resolve().parent.name
    if name not in DOMAINS:
        raise ProseError(f"{source}: prose sources live in src/{{{','.join(DOMAINS)}}}/, not in {name}/")
    return name


def context(source, sense=None):
    """The ``msgctxt`` of a source's texts: its path in src/ without .py (``chapters/02_heads``).

    Where one source writes the same English twice with two meanings (a quiz's "Nothing", say,
    once for what is not recomputed and once for what is not subtracted), each names its
    ``sense``, which follows the path: ``quizzes/05_cache: not subtracted``."""
    base = f"{domain(source)}/{pathlib.Path(source).stem}"
    return f"{base}: {sense}" if sense else base


def template_path(name, locales=None):
    return pathlib.Path(locales or LOCALES) / f"{name}.pot"


def catalogue_path(lang, name, locales=None):
    return pathlib.Path(locales or LOCALES) / lang / "LC_MESSAGES" / f"{name}.po"


def translated_languages():
    return [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


_read = {}


def _entries(lang, name, locales):
    """{(msgctxt, msgid): entry} of one catalogue, read once per process ({} if it does not exist)."""
    path = catalogue_path(lang, name, locales)
    if path not in _read:
        _read[path] = {(e["msgctxt"], e["msgid"]): e for e in read_po(path)} if path.exists() else {}
    return _read[path]


def forget():
    """Read the catalogues again on next use (after a tool or a test wrote them)."""
    _read.clear()


def preview(english, width=60):
    first = next((line.strip() for line in english.splitlines() if line.strip()), "")
    return first if len(first) <= width else first[:width - 1] + "…"


class Translations:
    """The translations of one source's texts, looked up by their English.

    ``strict`` (the builders): a missing, empty or fuzzy translation is a problem that
    :meth:`check` reports.  Not strict (the stale-translation check, which must see what a
    translator wrote even while it is marked fuzzy): a fuzzy translation is given as it is, and a
    missing one as None.  Every text asked for is kept in :attr:`asked` (English, what it is),
    in order: ``tools/i18n.py extract`` writes the templates from it.
    """

    def __init__(self, source, strict=True, locales=None):
        self.source = pathlib.Path(source)
        self.context = context(source)
        self.domain = domain(source)
        self.strict = strict
        self.locales = locales or LOCALES
        self.asked = []
        self.problems = []

    def get(self, english, what, sense=None):
        """``{lang: text}`` for every language; ``what`` says what the text is (``Markdown cell 3``),
        ``sense`` tells apart two meanings of the same English in one source (see :func:`context`)."""
        if not isinstance(english, str) or not english.strip():
            raise ProseError(f"{self.source}, {what}: the English text is empty or not a string: {english!r}")
        if sense is not None and (not isinstance(sense, str) or not sense.strip()):
            raise ProseError(f"{self.source}, {what}: sense must be a few words, got {sense!r}")
        msgctxt = context(self.source, sense)
        self.asked.append((msgctxt, english, what))
        found = {SOURCE_LANGUAGE: english}
        for lang in translated_languages():
            entry = _entries(lang, self.domain, self.locales).get((msgctxt, english))
            translation = entry["msgstr"] if entry else ""
            fuzzy = bool(entry) and "fuzzy" in entry["flags"]
            if self.strict and (not translation.strip() or fuzzy):
                why = ("is marked fuzzy (its English changed since it was translated)" if fuzzy and translation
                       else "is empty" if entry else "is missing")
                self.problems.append(f"{what} ({preview(english)!r}): the {lang} translation {why} in "
                                     f"{shown(catalogue_path(lang, self.domain, self.locales))} "
                                     f"(msgctxt {msgctxt!r})")
            found[lang] = translation if translation.strip() else None
        return found

    def check(self):
        """Raise :class:`ProseError` listing every problem found so far (strict mode)."""
        if not self.problems:
            return
        listed = self.problems[:SHOWN_PROBLEMS]
        more = len(self.problems) - len(listed)
        raise ProseError(f"{shown(self.source)}: {len(self.problems)} text(s) cannot be given in every language:"
                         "\n  " + "\n  ".join(listed)
                         + (f"\n  … and {more} more" if more else "")
                         + "\n  run .venv/bin/python tools/i18n.py extract, then update, translate, "
                           "then .venv/bin/python tools/i18n.py check")


def shown(path):
    """``path`` as a message names it: relative to the repository when inside it."""
    path = pathlib.Path(path).resolve()
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
