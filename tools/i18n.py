"""The course's gettext catalogues, interface texts and notebook prose: extract, update, check.

    python tools/i18n.py extract       # the English texts of the code and of src/ -> the templates (.pot)
    python tools/i18n.py update        # merge the templates into every language's catalogues
    python tools/i18n.py check         # exit 1 on anything a translator still has to do
    python tools/i18n.py init xx       # a new language's catalogues (after adding it to course_i18n)

Two sets of catalogues, one format:

* interface texts, ``course_i18n/locales/<lang>/LC_MESSAGES/course.po`` (below);
* the prose of the notebook sources, ``src/locales/<lang>/LC_MESSAGES/{chapters,solutions,quizzes}.po``
  (tools/prose.py): ``msgctxt`` the source (``chapters/02_heads``), ``msgid`` the English the
  source writes, ``msgstr`` the translation.  ``update`` keeps a translation whose English is
  unchanged; one whose English was edited is found by similarity among the entries of the same
  source that no longer match (as gettext's msgmerge does), kept and marked ``#, fuzzy`` with the
  previous English beside it.  ``check`` fails on a missing, empty, fuzzy or obsolete entry, on
  a translation that drops a ``{{placeholder}}`` of the builder (``{{lang}}``, ``{{course_package}}``),
  and in the quiz catalogue on one whose ``{fields}`` differ from the English's (:data:`FORMATTED`).

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
a translation whose ``{placeholders}`` differ from the English's, and old English (``#|``) left
on an entry that is no longer fuzzy.  In both sets it also fails on a file that is not what
``extract`` or ``update`` would write (:func:`relaid`), such as one a PO editor saved with its
lines wrapped and a header of its own, until ``update`` writes it again.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import io
import pathlib
import re
import sys

from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po, unescape, write_po

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "site"))      # the site's modules (site/*.py) are imported by name, as Sphinx does
from course_i18n import language  # noqa: E402
from course_i18n.catalogue import DOMAIN, LOCALES_DIR, placeholders, written  # noqa: E402
from tools import prose  # noqa: E402

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
    "tools.search_index",
    "tools.build_pdf",
    "tools.quizzes",
)
HEADER = """\
# Interface texts of the course "Causality, Multiple Heads and Position": exercise titles and
# test labels, check()'s and the grader's messages.  English is the source language: msgctxt is
# a text's key, msgid its English as the code writes it, msgstr the translation.  Edit the
# msgstr; once it says what the new English says, remove the "fuzzy" mark with the old English
# (#| lines) under it; delete an obsolete entry (#~) once nothing in it is worth keeping.
# tools/i18n.py extract / update / check; after editing a catalogue, run update. See docs/translating.md.
#"""
ISSUES = "the course's issue tracker"
UNSTABLE_HEADER = ('"POT-Creation-Date:', '"PO-Revision-Date:')


def template_path(locales=LOCALES_DIR):
    return pathlib.Path(locales) / f"{DOMAIN}.pot"


def catalogue_path(lang, locales=LOCALES_DIR):
    return pathlib.Path(locales) / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extracted(sources=SOURCES):
    """``{key: English}`` of every interface text the code makes, sorted by key."""
    for source in sources:
        module_name, _, function = source.partition(":")
        module = importlib.import_module(module_name)
        if function:
            for _ in getattr(module, function)():
                pass
    return dict(sorted(written().items()))


def _new_catalogue(lang=None, domain=DOMAIN, header=HEADER):
    return Catalog(locale=lang, domain=domain, project=PROJECT, version="1", fuzzy=False, header_comment=header,
                   language_team=language(lang).name if lang else None, msgid_bugs_address=ISSUES,
                   last_translator="the course's translators" if lang else None)


def template(texts):
    catalogue = _new_catalogue()
    for key, english in texts.items():
        catalogue.add(english, context=key)
    return catalogue


_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')      # one quoted piece of a PO string, escapes included


def read(path, lang=None):
    """The catalogue at ``path``.  Babel reads the old English that ``update`` writes under a fuzzy mark
    (``#| msgid "…"``) as a translator's comment, and would write it back as one (``# | msgid "…"``, before
    the flags): it goes back to ``previous_id``, so that reading a catalogue and writing it changes nothing."""
    with open(path, "rb") as handle:
        catalogue = read_po(handle, locale=lang, domain=DOMAIN)
    for message in catalogue:
        previous = [c[1:].strip() for c in message.user_comments if c.startswith("|")]
        if previous and previous[0].startswith("msgid "):
            message.user_comments = [c for c in message.user_comments if not c.startswith("|")]
            # Babel writes a text of several lines as quoted pieces on one line (`#| msgid "" "a\n" "b"`),
            # another tool one piece per line: either way the text is the pieces, unescaped and joined
            pieces = _QUOTED.findall(" ".join([previous[0][len("msgid "):], *previous[1:]]))
            message.previous_id = ["".join(unescape(piece) for piece in pieces)]
    return catalogue


def render(catalogue):
    """The catalogue as the file holds it: babel's text, ending with one line break (babel ends it with a
    blank line, which editors and the translation tools trim: each write then changed the file)."""
    out = io.BytesIO()
    write_po(out, catalogue, width=0, no_location=True, include_previous=True)
    return out.getvalue().decode("utf-8").rstrip("\n") + "\n"


def _stable(text):
    """The lines of a catalogue's text that say something: the header's dates and the blank lines at
    the end aside."""
    return [line for line in text.rstrip("\n").splitlines() if not line.startswith(UNSTABLE_HEADER)]


def _as_written(text, rendered):
    """True if a file's ``text`` holds what :func:`render` gave, ``rendered``, as the tools write it: the
    same, dates aside, with one line break at the end."""
    return text.endswith("\n") and not text.endswith("\n\n") and _stable(text) == _stable(rendered)


def relaid(path, catalogue, command):
    """A line for ``check`` if the file at ``path`` is not what ``command`` writes for ``catalogue``
    (:func:`_as_written`); None if it is.  A PO editor (Poedit, msgcat) wraps long lines at 79 columns and
    rewrites the header, and a text editor may leave a blank line at the end; tests/test_translations.py
    fails on such a file."""
    if _as_written(pathlib.Path(path).read_text(encoding="utf-8"), render(catalogue)):
        return None
    return (f"{prose.shown(path)}: not laid out as tools/i18n.py writes it (wrapped lines, another header or a "
            f"blank line at the end, as editors leave them); run tools/i18n.py {command}")


def _old_english_left(message):
    """True if an entry that is no longer fuzzy still carries the English it had before (``#|`` lines)."""
    left = message.previous_id or [c for c in message.user_comments if c.startswith("|")]
    return bool(left) and not message.fuzzy


_CREATION_DATE = re.compile(r'^"POT-Creation-Date:[^\n]*$', re.M)


def write_if_changed(path, catalogue):
    """Write ``catalogue`` unless the file already holds it as written (:func:`_as_written`); True if written.

    A file that exists keeps its POT-Creation-Date: the date it was first written.  A date of each
    write made every two branches that changed one catalogue conflict on that line when merged."""
    path = pathlib.Path(path)
    text = render(catalogue)
    if path.exists():
        old = path.read_text(encoding="utf-8")
        if _as_written(old, text):
            return False
        kept = _CREATION_DATE.search(old)
        if kept:
            text = _CREATION_DATE.sub(lambda _: kept.group(), text, count=1)
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
        elif before.string:                     # the English changed since the translation: kept, fuzzy
            new.add(english, before.string, context=key, flags=before.flags | {"fuzzy"},
                    previous_id=[before.id], user_comments=before.user_comments)
        else:                                   # changed, but never translated: nothing to mark fuzzy
            new.add(english, context=key, flags=before.flags - {"fuzzy"}, user_comments=before.user_comments)
    for key, message in list(by_key.items()) + [((m.context, m.id), m) for m in old.obsolete.values()]:
        if message.string:
            new.obsolete[(message.id, message.context)] = message
    return new


def _existing(path, lang, found):
    """The catalogue at ``path``, or None and a line in ``found`` saying how to start it."""
    if not path.exists():
        found.append(f"{prose.shown(path)}: missing; run tools/i18n.py init {lang}")
        return None
    return read(path, lang)


def _entries_of(catalogue):
    return (message for message in catalogue if message.id)         # the header has no msgid


def _unfinished(message):
    """What a translator has still to do to one entry whose English is the code's, or None: the same
    words for the interface and the prose catalogues."""
    forms = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
    if not all(form and form.strip() for form in forms):     # a plural needs every form
        return "not translated"
    if message.fuzzy:
        return "fuzzy (the English changed since it was translated): revise it, then remove the fuzzy mark"
    if _old_english_left(message):
        return "the old English (#| lines) is left on an entry that is no longer fuzzy; delete those lines"
    return None


def problems(texts, locales=LOCALES_DIR, languages=None):
    """Everything a translator (or ``extract``/``update``) still has to do, one line each."""
    found = []
    path = template_path(locales)
    if not path.exists():
        return [f"{prose.shown(path)}: missing; run tools/i18n.py extract"]
    pot = {m.context: m.id for m in read(path) if m.id}
    found += filter(None, [relaid(path, template(pot), "extract")])
    if pot != texts:
        changed = sorted(set(pot.items()) ^ set(texts.items()))
        found.append(f"{prose.shown(path)}: not what the code says ({', '.join(k for k, _ in changed[:5])}"
                     f"{', …' if len(changed) > 5 else ''}); run tools/i18n.py extract, then update")
    for lang in languages or prose.translated_languages():
        catalogue = _existing(catalogue_path(lang, locales), lang, found)
        if catalogue is None:
            continue
        path, seen = catalogue_path(lang, locales), set()
        found += filter(None, [relaid(path, merge(catalogue, pot, lang), "update")])
        for message in _entries_of(catalogue):
            key, where = message.context, f"{prose.shown(path)} [{message.context}]"
            seen.add(key)
            if key not in texts:
                found.append(f"{where}: no such text in the code any more; run tools/i18n.py update")
            elif message.id != texts[key]:
                found.append(f"{where}: translates other English than the code's; run tools/i18n.py update")
            elif unfinished := _unfinished(message):
                found.append(f"{where}: {unfinished}")
            elif placeholders(message.id) != placeholders(message.string):
                found.append(f"{where}: placeholders {placeholders(message.string)} differ from the English's "
                             f"{placeholders(message.id)}")
        for key in sorted(set(texts) - seen):
            found.append(f"{prose.shown(path)} [{key}]: missing; run tools/i18n.py update")
        for message in catalogue.obsolete.values():
            found.append(f"{prose.shown(path)} [{message.context}]: obsolete (#~); "
                         f"delete it once nothing in it is worth keeping")
    return found


# --------------------------------------------------------------------------- notebook prose (src/locales/)

PROSE_HEADER = """\
# Prose of the notebooks of the course "Causality, Multiple Heads and Position" ({domain}): Markdown
# cells, comments in code, figure alt texts, quiz questions.  The sources in src/{domain}/ hold the
# English: msgctxt is the source, msgid its English, msgstr the translation (keep Markdown, `code`,
# LaTeX commands and {{{{placeholders}}}}, but write a number in maths as your language does, $0{{,}}5$
# in Russian; a comment's lines stay within the code's 76 columns).
# Edit the msgstr; once it says what the new English says, remove the "fuzzy" mark with the old
# English (#| lines) under it; delete an obsolete entry (#~) once nothing in it is worth keeping.
# tools/i18n.py extract / update / check; after editing a catalogue, run update. See docs/translating.md.
#"""
SIMILAR = 0.6                         # how alike an edited English must be to its old one to keep the translation
_BUILDER_PLACEHOLDER = re.compile(r"\{\{\w+\}\}")
# The prose catalogues whose texts str.format fills: a quiz's T("… grow {ratio}-fold.", ratio=…) (tools/quizzes.py).
# str.format ignores a field the translation dropped, so check compares their {fields} as it does course.po's; the
# other prose catalogues hold Markdown, whose braces are LaTeX's ($0{,}5$ in Russian) and differ between languages.
FORMATTED = ("quizzes",)


def prose_sources(domain=None):
    """Every source in src/ whose prose is translated, by catalogue, in name order."""
    domains = [domain] if domain else prose.DOMAINS
    return [path for name in domains for path in sorted((prose.SOURCES / name).glob("*.py"))
            if not path.name.startswith("_")]


def extracted_prose():
    """``{domain: [(msgctxt, English)]}``: every prose text of src/, in reading order, each once."""
    from tools import nbsource, quizzes
    found = {}
    for domain in prose.DOMAINS:
        entries = {}
        for path in prose_sources(domain):
            reader = quizzes.read if domain == "quizzes" else nbsource.read
            for context, english, _ in reader(path, strict=False).translations.asked:
                entries.setdefault((context, english), None)
        found[domain] = list(entries)
    return found


def _prose_catalogue(domain, lang=None):
    return _new_catalogue(lang, domain, PROSE_HEADER.format(domain=domain))


def prose_template(domain, entries):
    catalogue = _prose_catalogue(domain)
    for context, english in entries:
        catalogue.add(english, context=context)
    return catalogue


def merge_prose(old, domain, entries, lang):
    """A catalogue for ``lang`` with one entry per (source, English), translations kept (module docstring)."""
    wanted = set(entries)
    unmatched = {}                       # source -> [old message whose English the source no longer writes]
    for message in old:
        if message.id and message.string and (message.context, message.id) not in wanted:
            unmatched.setdefault(message.context, []).append(message)
    new = _prose_catalogue(domain, lang)
    for context, english in entries:
        before = old.get(english, context=context)
        if before is not None and before.string:
            new.add(english, before.string, context=context, flags=before.flags,
                    previous_id=before.previous_id, user_comments=before.user_comments)
            continue
        candidates = unmatched.get(context, [])
        ratios = [difflib.SequenceMatcher(None, m.id, english).ratio() for m in candidates]
        if ratios and max(ratios) >= SIMILAR:
            before = candidates.pop(ratios.index(max(ratios)))
            new.add(english, before.string, context=context, flags=before.flags | {"fuzzy"},
                    previous_id=[before.id], user_comments=before.user_comments)
        else:
            new.add(english, context=context)
    for message in [m for ms in unmatched.values() for m in ms] + list(old.obsolete.values()):
        if message.string:
            new.obsolete[(message.id, message.context)] = message
    return new


def prose_problems(extracted, locales=None, languages=None):
    """Everything a translator (or ``extract``/``update``) still has to do in the prose catalogues."""
    found = []
    for domain, entries in extracted.items():
        path = prose.template_path(domain, locales)
        if not path.exists():
            found.append(f"{prose.shown(path)}: missing; run tools/i18n.py extract")
            continue
        template = [(m.context, m.id) for m in read(path) if m.id]
        found += filter(None, [relaid(path, prose_template(domain, template), "extract")])
        if template != entries:
            changed = sorted(set(template) ^ set(entries))
            found.append(f"{prose.shown(path)}: not what src/{domain}/ says "
                         f"({', '.join(sorted({c for c, _ in changed})[:5]) or 'the order'}); "
                         f"run tools/i18n.py extract, then update")
        wanted = set(entries)
        for lang in languages or prose.translated_languages():
            catalogue = _existing(prose.catalogue_path(lang, domain, locales), lang, found)
            if catalogue is None:
                continue
            path, seen = prose.catalogue_path(lang, domain, locales), set()
            found += filter(None, [relaid(path, merge_prose(catalogue, domain, template, lang), "update")])
            for message in _entries_of(catalogue):
                where = f"{prose.shown(path)} [{message.context}] {prose.preview(message.id)!r}"
                seen.add((message.context, message.id))
                if (message.context, message.id) not in wanted:
                    found.append(f"{where}: no such text in src/ any more; run tools/i18n.py update")
                elif unfinished := _unfinished(message):
                    found.append(f"{where}: {unfinished}")
                elif sorted(_BUILDER_PLACEHOLDER.findall(message.id)) != sorted(_BUILDER_PLACEHOLDER.findall(message.string)):
                    found.append(f"{where}: the placeholders {sorted(set(_BUILDER_PLACEHOLDER.findall(message.id)))} "
                                 f"must stay as they are in the translation")
                elif domain in FORMATTED and placeholders(message.id) != placeholders(message.string):
                    found.append(f"{where}: placeholders {placeholders(message.string)} differ from the English's "
                                 f"{placeholders(message.id)}")
            for context, english in entries:
                if (context, english) not in seen:
                    found.append(f"{prose.shown(path)} [{context}] {prose.preview(english)!r}: missing; run tools/i18n.py update")
            for message in catalogue.obsolete.values():
                found.append(f"{prose.shown(path)} [{message.context}] {prose.preview(message.id)!r}: obsolete (#~); "
                             f"delete it once nothing in it is worth keeping")
    return found


def extract_prose():
    for domain, entries in extracted_prose().items():
        path = prose.template_path(domain)
        print(f"{prose.shown(path)}: {'written' if write_if_changed(path, prose_template(domain, entries)) else 'unchanged'}")


def update_prose(langs, init=False):
    for domain in prose.DOMAINS:
        entries = [(m.context, m.id) for m in read(prose.template_path(domain)) if m.id]
        for lang in langs:
            path = prose.catalogue_path(lang, domain)
            if init and path.exists():
                raise SystemExit(f"{path} exists already; use update")
            old = read(path, lang) if path.exists() else _prose_catalogue(domain, lang)
            changed = write_if_changed(path, merge_prose(old, domain, entries, lang))
            print(f"{prose.shown(path)}: {'written' if changed else 'unchanged'}")
    prose.forget()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="write the templates (.pot) from the code's and src/'s English texts")
    sub.add_parser("update", help="merge the templates into every language's catalogues")
    sub.add_parser("check", help="exit 1 on a missing, fuzzy, obsolete or mismatched entry, or on a "
                                    "catalogue not laid out as update writes it")
    init = sub.add_parser("init", help="start the catalogues of a language added to course_i18n")
    init.add_argument("lang")
    args = parser.parse_args(argv)
    if args.command == "extract":
        written_now = write_if_changed(template_path(), template(extracted()))
        print(f"{prose.shown(template_path())}: {'written' if written_now else 'unchanged'}")
        extract_prose()
        return 0
    if args.command in ("update", "init"):
        texts = {m.context: m.id for m in read(template_path()) if m.id}
        langs = prose.translated_languages() if args.command == "update" else [args.lang]
        for lang in langs:
            language(lang)                               # refuses a language course_i18n does not list
            path = catalogue_path(lang)
            if args.command == "init" and path.exists():
                raise SystemExit(f"{path} exists already; use update")
            old = read(path, lang) if path.exists() else _new_catalogue(lang)
            changed = write_if_changed(path, merge(old, texts, lang))
            print(f"{prose.shown(path)}: {'written' if changed else 'unchanged'}")
        update_prose(langs, init=args.command == "init")
        return 0
    found = problems(extracted())
    print("\n".join(found) if found else "interface catalogues: all translated")
    found_prose = prose_problems(extracted_prose())
    print("\n".join(found_prose) if found_prose else "prose catalogues: all translated")
    total = len(found) + len(found_prose)
    if total:
        print(f"{len(found)} problem(s) in the interface catalogues, {len(found_prose)} in the prose catalogues")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
