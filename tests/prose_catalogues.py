"""For tests: a made-up source's prose catalogues (tools/prose.py), written with Babel as tools/i18n.py does."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools import i18n, prose  # noqa: E402


def use_locales(monkeypatch, locales):
    """Make every reader of prose catalogues read ``locales`` for the rest of the test."""
    monkeypatch.setattr(prose, "LOCALES", pathlib.Path(locales))
    prose.forget()
    return pathlib.Path(locales)


def write_translations(locales, source, translations, fuzzy=()):
    """The catalogues of ``source``'s folder in every translated language, holding ``translations``:
    {English: {lang: translation}} (a language left out has no entry); English in ``fuzzy`` is marked so."""
    domain, context = prose.domain(source), prose.context(source)
    for lang in prose.translated_languages():
        catalogue = i18n._prose_catalogue(domain, lang)
        for english, texts in translations.items():
            if lang in texts:
                catalogue.add(english, texts[lang], context=context, flags={"fuzzy"} if english in fuzzy else ())
        i18n.write_if_changed(prose.catalogue_path(lang, domain, locales), catalogue)
    prose.forget()
