"""The course's languages, listed once, and its interface texts in gettext catalogues.

Every module that needs the list of languages imports it from here (the notebooks, the
site, the grader, the figures, the tests, the benchmarks): adding a language is one entry
in :data:`LANGUAGE_TABLE` and one catalogue ``course_i18n/locales/<code>/LC_MESSAGES/course.po``
(CONTRIBUTING, "Translating").  This package imports nothing outside the standard library,
so the learner's ``check()`` can use it from the wheel.

English is the source language of interface texts: the Python code keeps each text in
English under a stable key, and the catalogue of every other language translates it
(:mod:`course_i18n.catalogue`).
"""

from dataclasses import dataclass

__all__ = ["Language", "LANGUAGE_TABLE", "LANGUAGES", "SOURCE_LANGUAGE", "language", "check_language"]


@dataclass(frozen=True)
class Language:
    code: str          # the course's code: folder names (chapters/zh/, src/locales/zh/), COURSE_LANGUAGE
    name: str          # the language's own name, as the language switcher shows it
    locale: str        # Sphinx's `language` and the site's catalogue folder (site/locale/<locale>/)
    html_lang: str     # <html lang="..."> (BCP 47)


# In the order the course shows them (the language switcher, the notebooks' folders).
LANGUAGE_TABLE = (
    Language("zh", "中文", "zh_CN", "zh-CN"),
    Language("en", "English", "en", "en"),
    Language("ru", "Русский", "ru", "ru"),
)

LANGUAGES = tuple(lang.code for lang in LANGUAGE_TABLE)
SOURCE_LANGUAGE = "en"     # the language interface texts are written in, and the fallback


def language(code):
    """The :class:`Language` with this code; a ValueError naming the known codes otherwise."""
    for lang in LANGUAGE_TABLE:
        if lang.code == code:
            return lang
    raise ValueError(f"unknown language {code!r}; the course's languages are {', '.join(LANGUAGES)}")


def check_language(code):
    """``code`` if it is one of the course's languages, else a ValueError naming them."""
    return language(code).code
