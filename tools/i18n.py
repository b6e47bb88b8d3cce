"""The catalogues of the course's interface texts (course_i18n/locales/): extract, update, check.

    python tools/i18n.py extract       # the English texts of the code, by key -> course_i18n/locales/course.pot
    python tools/i18n.py update        # merge the template into every language's course.po
    python tools/i18n.py check         # exit 1 on anything a translator still has to do
    python tools/i18n.py init xx       # a new language's catalogue (after adding it to course_i18n)

Interface texts are every learner- or instructor-facing sentence that is not chapter prose
(exercise titles and test labels, check()'s and the grader's messages, ...).  The code
writes each in English (the source language) under a stable key, with
:func:`course_i18n.catalogue.text`; a translator edits only the .po files, where
``msgctxt`` is the key, ``msgid`` the English and ``msgstr`` the translation.

``update`` matches entries by key: an English text that changed since it was translated
keeps its translation, marked ``#, fuzzy`` with the previous English (``#| msgid``) beside
it, until a translator revises it and removes the mark.  (Babel's own update matches a
changed text by similarity instead, which loses a translation when the English is
rewritten and can borrow another key's.)  A key the code no longer uses becomes obsolete
(``#~``).  ``check`` fails on a template that is not what the code says, and in every
catalogue on a missing, empty, fuzzy or obsolete entry, an entry translating other English,
and a translation whose ``{placeholders}`` differ from the English's.
"""

from __future__ import annotations

import argparse
import importlib
import io
import pathlib
import sys

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, write_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "site"))      # the site's modules (site/*.py) are imported by name, as Sphinx does
from course_i18n import LANGUAGES, SOURCE_LANGUAGE, language  # noqa: E402
from course_i18n.catalogue import DOMAIN, LOCALES_DIR, placeholders, written  # noqa: E402

PROJECT = "causality-heads-position"
# Where interface texts are made: importing a module makes its texts; ``module:function``
# also calls the function (texts made on demand, such as the exercises' test labels).
SOURCES = (
    "grading.registry:texts",
    "grading.feedback",
    "grading.messages",
    "grading.diagnoses",
    "figures.interactive",
    "tools.diagrams",
    "landing_texts",                  # site/landing_texts.py
    "course_site",                    # site/course_site.py
    "course_book",                    # site/course_book.py
    "tools.build_site",
    "tools.quizzes",
)
HEADER = """\
# Interface texts of the course "Causality, Multiple Heads and Position": exercise titles and
# test labels, check()'s and the grader's messages.  English is the source language: msgctxt is
# a text's key, msgid its English as the code writes it, msgstr the translation.  Edit only
# msgstr (and remove a "fuzzy" mark once the translation says what the new English says);
# tools/i18n.py extract / update / check, CONTRIBUTING.md "Translating".
#"""
ISSUES = "the course's issue tracker"
UNSTABLE_HEADER = ('"POT-Creation-Date:', '"PO-Revision-Date:')


def template_path(locales=LOCALES_DIR):
    return pathlib.Path(locales) / f"{DOMAIN}.pot"


def catalogue_path(lang, locales=LOCALES_DIR):
    return pathlib.Path(locales) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _shown(path):
    path = pathlib.Path(path)
    return path.relative_to(ROOT) if path.is_relative_to(ROOT) else path


def translated_languages():
    return [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


def extracted(sources=SOURCES):
    """``{key: English}`` of every interface text the code makes, sorted by key."""
    for source in sources:
        module_name, _, function = source.partition(":")
        module = importlib.import_module(module_name)
        if function:
            for _ in getattr(module, function)():
                pass
    return dict(sorted(written().items()))


def _new_catalogue(lang=None):
    return Catalog(locale=lang, domain=DOMAIN, project=PROJECT, version="1", fuzzy=False, header_comment=HEADER,
                   language_team=language(lang).name if lang else None, msgid_bugs_address=ISSUES,
                   last_translator="the course's translators" if lang else None)


def template(texts):
    catalogue = _new_catalogue()
    for key, english in texts.items():
        catalogue.add(english, context=key)
    return catalogue


def read(path, lang=None):
    with open(path, "rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def render(catalogue):
    out = io.BytesIO()
    write_po(out, catalogue, width=0, no_location=True, include_previous=True)
    return out.getvalue().decode("utf-8")


def _stable(text):
    return [line for line in text.splitlines() if not line.startswith(UNSTABLE_HEADER)]


def write_if_changed(path, catalogue):
    """Write ``catalogue`` unless the file already says the same (dates aside); True if written."""
    path = pathlib.Path(path)
    text = render(catalogue)
    if path.exists() and _stable(path.read_text(encoding="utf-8")) == _stable(text):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return True


def merge(old, texts, lang):
    """A catalogue for ``lang`` with one entry per text, translations kept by key (see module docstring)."""
    by_key = {m.context: m for m in old if m.id and m.context}
    new = _new_catalogue(lang)
    for key, english in texts.items():
        before = by_key.pop(key, None)
        if before is None:
            new.add(english, context=key)
        elif before.id == english:
            new.add(english, before.string, context=key, flags=before.flags,
                    previous_id=before.previous_id, user_comments=before.user_comments)
        else:                                   # the English changed since the translation
            new.add(english, before.string, context=key, flags=before.flags | {"fuzzy"},
                    previous_id=[before.id] if before.string else [], user_comments=before.user_comments)
    for key, message in list(by_key.items()) + [((m.context, m.id), m) for m in old.obsolete.values()]:
        if message.string:
            new.obsolete[(message.id, message.context)] = message
    return new


def problems(texts, locales=LOCALES_DIR, languages=None):
    """Everything a translator (or ``extract``/``update``) still has to do, one line each."""
    found = []
    path = template_path(locales)
    if not path.exists():
        return [f"{_shown(path)}: missing; run tools/i18n.py extract"]
    pot = {m.context: m.id for m in read(path) if m.id}
    if pot != texts:
        changed = sorted(set(pot.items()) ^ set(texts.items()))
        found.append(f"{_shown(path)}: not what the code says ({', '.join(k for k, _ in changed[:5])}"
                     f"{', …' if len(changed) > 5 else ''}); run tools/i18n.py extract, then update")
    for lang in languages or translated_languages():
        path = catalogue_path(lang, locales)
        if not path.exists():
            found.append(f"{_shown(path)}: missing; run tools/i18n.py init {lang}")
            continue
        catalogue = read(path, lang)
        seen = set()
        for message in catalogue:
            if not message.id:
                continue
            key, where = message.context, f"{_shown(path)} [{message.context}]"
            seen.add(key)
            if key not in texts:
                found.append(f"{where}: no such text in the code any more; run tools/i18n.py update")
            elif message.id != texts[key]:
                found.append(f"{where}: translates other English than the code's; run tools/i18n.py update")
            elif not message.string:
                found.append(f"{where}: not translated")
            elif message.fuzzy:
                found.append(f"{where}: fuzzy (the English changed since it was translated): revise it, "
                             f"then remove the fuzzy mark")
            elif placeholders(message.id) != placeholders(message.string):
                found.append(f"{where}: placeholders {placeholders(message.string)} differ from the English's "
                             f"{placeholders(message.id)}")
        for key in sorted(set(texts) - seen):
            found.append(f"{_shown(path)} [{key}]: missing; run tools/i18n.py update")
        for message in catalogue.obsolete.values():
            found.append(f"{_shown(path)} [{message.context}]: obsolete (#~); "
                         f"delete it once nothing in it is worth keeping")
    return found


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="write course.pot from the code's English texts")
    sub.add_parser("update", help="merge course.pot into every language's course.po")
    sub.add_parser("check", help="exit 1 on a missing, fuzzy, obsolete or mismatched entry")
    init = sub.add_parser("init", help="start the catalogue of a language added to course_i18n")
    init.add_argument("lang")
    args = parser.parse_args(argv)
    if args.command == "extract":
        written_now = write_if_changed(template_path(), template(extracted()))
        print(f"{_shown(template_path())}: {'written' if written_now else 'unchanged'}")
        return 0
    if args.command in ("update", "init"):
        texts = {m.context: m.id for m in read(template_path()) if m.id}
        langs = translated_languages() if args.command == "update" else [args.lang]
        for lang in langs:
            language(lang)                               # refuses a language course_i18n does not list
            path = catalogue_path(lang)
            if args.command == "init" and path.exists():
                raise SystemExit(f"{path} exists already; use update")
            old = read(path, lang) if path.exists() else _new_catalogue(lang)
            changed = write_if_changed(path, merge(old, texts, lang))
            print(f"{_shown(path)}: {'written' if changed else 'unchanged'}")
        return 0
    found = problems(extracted())
    for line in found:
        print(line)
    print(f"{len(found)} problem(s) in the interface catalogues" if found else "interface catalogues: all translated")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
