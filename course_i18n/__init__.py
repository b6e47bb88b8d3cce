"""The course's languages, listed once, and its interface texts in gettext catalogues.

Every module that needs the list of languages imports it from here (the notebooks, the
site, the grader, the figures, the tests, the benchmarks): adding a language starts with one
entry in :data:`LANGUAGE_TABLE` and its catalogues, ``course_i18n/locales/<code>/LC_MESSAGES/course.po``
among them (docs/translating.md, "Adding a language", lists the other steps).  This package imports nothing outside the standard library,
so the learner's ``check()`` can use it from the wheel.

English is the source language of interface texts: the Python code keeps each text in
English under a stable key, and the catalogue of every other language translates it
(:mod:`course_i18n.catalogue`).
"""

from dataclasses import dataclass

__all__ = ["Language", "LANGUAGE_TABLE", "LANGUAGES", "SOURCE_LANGUAGE", "language", "check_language",
           "PLURAL_RULES", "PLURAL_CATEGORIES", "plural_category", "format_number", "localise_numbers",
           "parse_number"]

import re


@dataclass(frozen=True)
class Language:
    code: str          # the course's code: folder names (chapters/zh/, src/locales/zh/), COURSE_LANGUAGE
    name: str          # the language's own name, as the language switcher shows it
    locale: str        # Sphinx's `language` and the site's catalogue folder (site/locale/<locale>/)
    html_lang: str     # <html lang="..."> (BCP 47)
    decimal: str = "."         # the decimal separator its prose writes (0,33 in Russian)
    group: str = ","           # between groups of three digits, in a number of 5 digits or more
    plural: str = "one-other"  # how its words follow a number: a key of PLURAL_RULES


# In the order the course shows them (the language switcher, the notebooks' folders).
LANGUAGE_TABLE = (
    Language("zh", "中文", "zh_CN", "zh-CN", plural="none"),
    Language("en", "English", "en", "en"),
    Language("ru", "Русский", "ru", "ru", decimal=",", group="\u202f", plural="east-slavic"),
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


# -- numbers and the words that follow them ------------------------------------------------------

def _east_slavic(n):
    if n != int(n):
        return "other"                      # 2,5 балла
    n = abs(int(n))
    if n % 10 == 1 and n % 100 != 11:
        return "one"                        # 1, 21, 101 балл
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return "few"                        # 2, 3, 4, 22 балла
    return "many"                           # 0, 5, 11, 25 баллов


# A language's plural rule (CLDR's cardinal categories): the category of a number, which picks the
# form of a text written with catalogue.plural (one form per category any language uses).
PLURAL_RULES = {
    "none": (("other",), lambda n: "other"),                                   # Chinese: no plural
    "one-other": (("one", "other"), lambda n: "one" if n == 1 else "other"),   # English: 1 point, 2 points
    "east-slavic": (("one", "few", "many", "other"), _east_slavic),            # Russian
}
PLURAL_CATEGORIES = ("one", "few", "many", "other")       # in the order a catalogue lists a text's forms


def plural_category(code, n):
    """The plural category ("one", "few", "many" or "other") of the number ``n`` in language ``code``."""
    return PLURAL_RULES[language(code).plural][1](n)


def _group(digits, sep):
    if len(digits) < 5:
        return digits
    head = len(digits) % 3 or 3
    return digits[:head] + "".join(sep + digits[k:k + 3] for k in range(head, len(digits), 3))


_PLAIN_NUMBER = re.compile(r"(?<![\w.§])(\d+)(?:\.(\d+))?(?!\w|\.\d)")


def format_number(value, code=None):
    """``value`` as a reader of language ``code`` writes it: 0.333 / 0,333; 2.5 / 2,5; 1,048,576 / 1 048 576
    (6 significant digits, as ``format(x, "g")``; an integral float without its ".0").

    Without ``code``, plainly (1048576, 0.333): what a reader types, and what a machine reads."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    text = str(int(value)) if float(value).is_integer() else f"{value:.6g}"
    if "e" in text or code is None:
        return text
    return localise_numbers(text, code)


def localise_numbers(text, code):
    """Every plain number in ``text`` (not a § reference) written as language ``code`` writes it."""
    lang = language(code)

    def one(m):
        whole, frac = m.group(1), m.group(2)
        return _group(whole, lang.group) + (lang.decimal + frac if frac is not None else "")
    return _PLAIN_NUMBER.sub(one, text)


def parse_number(text, code):
    """The number ``text`` is, written plainly or as language ``code`` writes it; None if it is none."""
    if isinstance(text, bool):
        return None
    if isinstance(text, (int, float)):
        return text
    lang = language(code)
    plain = str(text).strip().replace("\u202f", "").replace("\u00a0", "")
    if lang.decimal != "." and "." not in plain:
        plain = plain.replace(lang.group, "").replace(lang.decimal, ".")
    elif lang.group != ".":
        plain = plain.replace(lang.group, "")
    try:
        number = float(plain)
    except ValueError:
        return None
    return int(number) if number.is_integer() and "." not in plain and "e" not in plain.lower() else number
