"""What a learner reads: the feedback of ``check()`` and of the grader, in every language of the course.

The code cells of the three exercise notebooks are identical except for one
line, ``COURSE_LANGUAGE = "zh"`` (or "en", "ru"), that the notebook builder
writes into each language's first code cell.  :func:`detect_language` finds
the language, in this order:

1. an explicit ``lang=`` argument of :func:`grading.check`;
2. :func:`set_language` called earlier in the kernel;
3. ``COURSE_LANGUAGE`` in the namespace that calls ``check()`` (the notebook's);
4. the environment variable ``COURSE_LANG`` (``zh``, ``en`` or ``ru``);
5. the kernel's working directory: the innermost folder called ``zh``, ``en``
   or ``ru`` (Jupyter starts a kernel in the folder of its notebook);
6. English.

So a notebook keeps its language wherever it is opened.  Everything here is
offline: no locale database, no network.

Messages are ``str.format`` templates filled from the ``details`` that
:func:`grading.compare.compare_values` returns.  They are written here in English,
each under its key (``grading.feedback.wrong_shape``); the other languages are in the
catalogues ``course_i18n/locales/<lang>/LC_MESSAGES/course.po`` (``tools/i18n.py``).  For a *hidden* test the
learner is told which property failed (:data:`HIDDEN`), never the values.
"""

import os
import pathlib

from course_i18n import LANGUAGES, SOURCE_LANGUAGE as DEFAULT_LANGUAGE
from course_i18n.catalogue import Plural, plurals, text, texts

_override = None


def set_language(lang):
    """Force the language of every later message (``None`` restores detection)."""
    global _override
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
    _override = lang


def detect_language(lang=None, cwd=None, namespace=None):
    """The language of the feedback; see the module docstring for the order."""
    from_namespace = namespace.get("COURSE_LANGUAGE") if isinstance(namespace, dict) else None
    for candidate in (lang, _override, from_namespace, os.environ.get("COURSE_LANG")):
        if isinstance(candidate, str) and candidate in LANGUAGES:
            return candidate
    try:
        parts = pathlib.Path(cwd if cwd is not None else os.getcwd()).parts
    except OSError:                    # the working directory was deleted
        parts = ()
    for part in reversed(parts):
        if part in LANGUAGES:
            return part
    return DEFAULT_LANGUAGE


MESSAGES = texts("grading.feedback", {
    # what follows a test's label: Chinese takes the full-width colon
    "label_colon": ": ",
    "clause_separator": "; ",
    "list_separator": ", ",
    "needs_exercise": "this cell uses your {functions} from exercise {ids}, and its result is not right: fix that "
                      "first ({checks} says what is wrong), then run this cell again",
    "needs_exercises": "this cell uses your {functions} from exercises {ids}, and their results are not right: fix "
                       "those first ({checks} say what is wrong), then run this cell again",
    # a result made of several values (a tuple): which one the message is about
    "in_item": "item {item} of the result (counting from 0): {text}",
    "not_implemented": "not done yet: the function still raises NotImplementedError; replace the TODO line with "
                       "your code",
    "raised": "your function raised {type}: {message}",
    # {which}: a positional argument's place, counted from 1, or a keyword argument's name
    # (grading/arguments.py changed_argument)
    "argument_changed": "the function changed its argument {which} in place (a number is the place of a positional "
                        "argument, counted from 1; a name is a keyword argument), so the caller's array was "
                        "altered; compute on a copy and leave the inputs as they are",
    "none_returned": "the function returned None instead of {expected_type}; is a `return` missing?",
    "wrong_type": "wrong type: expected {expected_type}, got {got_type}",
    "wrong_shape": "wrong shape: expected {expected}, got {got}",
    "float32_rounding": "an error this small is typical of float32 rounding: some step of the function probably "
                        "computes in float32 where float64 is expected",
    "wrong_dtype": "wrong dtype: expected {expected}, got {got}",
    "nan": "got {got} at index {index} where {expected} was expected",
    "wrong_value": "wrong value at index {index}: expected {expected}, got {got}; the largest error {error} "
                   "exceeds the tolerance (atol={atol}, rtol={rtol})",
    "wrong_entry": "wrong entry at index {index}: expected {expected}, got {got}",
    "wrong_number": "wrong value: expected {expected}, got {got}; the error {error} exceeds the tolerance "
                    "(atol={atol}, rtol={rtol})",
    "nan_number": "got {got} where {expected} was expected",
    "wrong_exact": "wrong result: expected {expected}, got {got}",
    "not_exact_zero": "the entry at index {index} is forbidden, so its weight must be exactly 0; got {got}",
    "missing_exception": "this input should raise {type}, but the function returned {got}",
    "wrong_exception": "expected {type}, but the function raised {got_type}: {message}",
    "setup_failed": "preparing the models of this test failed ({type}: {message}); this is not your mistake: "
                    "please tell your instructor",
    "internal_error": "check() itself failed ({type}: {message}); this is not your mistake: please tell your "
                      "instructor",
    "unknown_exercise": "there is no exercise {id!r}; known ids: {known}",
    "not_callable": "the second argument of check() should be your function {function}; got {got_type}",
    "uses_library": "note: {function} refers to {name}, the library's reference answer for this exercise. The "
                    "grader withholds {name}, so an answer that relies on it fails the grader's tests and gets no "
                    "points: write the computation yourself.",
    "uses_module": "note: {function} uses {name} ({where}). This exercise asks for the computation in plain "
                   "Python (lists, loops and the math module) so that it is an independent check. An answer "
                   "that uses such a module gets no points.",
    "where_line": "cell {cell}, line {line}",
    "summary_some": "{id}: {passed} of {total} public tests passed",
    "summary_practice": "{id}: {passed} of {total} practice tests passed (random seed {seed})",
    "practice_header": "practice tests: the kinds the hidden tests use, on fresh random data (random seed {seed})",
    "hidden_failed": "hidden test “{label}” failed: {what}",
    "reproduce": "check(\"{id}\", {function}, practice=True) repeats tests of this kind on fresh random data{like}",
    "reproduce_like": "; the public test “{label}” checks the same property",
})
# a text whose words follow a number: (the field that picks the form, English for 1, for any other)
MESSAGES.update(plurals("grading.feedback", {
    "wrong_length": ("expected", "wrong length: expected {expected} item, got {got}",
                     "wrong length: expected {expected} items, got {got}"),
}))

# What failed in a hidden test, without its values (keyed by the reason of compare_values).
HIDDEN = texts("grading.feedback.hidden", {
    "raised": "your function raised {type}",
    "argument_changed": "the function changed an argument in place",
    "none_returned": "the function returned None",
    "wrong_type": "the result has the wrong type (expected {expected_type})",
    "wrong_length": "the result has the wrong number of items",
    "wrong_shape": "the result has the wrong shape",
    "wrong_dtype": "wrong dtype: expected {expected}, got {got}",
    "nan": "a NaN or infinity where a finite number belongs",
    "wrong_value": "wrong values, beyond the tolerance",
    "not_exact_zero": "a forbidden entry has a weight that is not exactly 0",
    "missing_exception": "this input should raise {type}, but the function returned a result",
    "wrong_exception": "expected {type}, but the function raised {got_type}",
    "wrong_exact": "wrong result",
})
HIDDEN["wrong_number"] = HIDDEN["wrong_value"]
HIDDEN["wrong_entry"] = text("grading.feedback.hidden.wrong_entry", "wrong entries")
HIDDEN["nan_number"] = HIDDEN["nan"]

# Names of kinds of values, used in wrong_type / none_returned.
TYPE_NAMES = texts("grading.feedback.type_names", {
    "array": "a NumPy array",
    "float": "a real number (float)",
    "int": "an integer (int)",
    "bool": "a bool (True/False)",
    "str": "a string",
    "tuple": "a tuple",
    "list": "a list",
    "dict": "a dict",
    "NoneType": "None",
    "result_too_large": "a value the grader cannot receive (too large or not encodable)",
})


def fill(table, key, lang, fields):
    """``table[key]`` in ``lang`` (else English), formatted with ``fields``; never raises.  A
    :class:`course_i18n.catalogue.Plural` takes the form its count field's number asks for in ``lang``."""
    entry = table[key]
    if isinstance(entry, Plural):
        template = entry.form(lang, fields) if lang in entry else entry.form(DEFAULT_LANGUAGE, fields)
    else:
        template = entry.get(lang) or entry[DEFAULT_LANGUAGE]
    try:
        return template.format(**fields)
    except (KeyError, IndexError, ValueError):
        return f"{template} {fields}"


def message(key, lang, **fields):
    """The message ``key`` in ``lang``, with ``fields`` filled in."""
    if key not in MESSAGES:
        return f"{key}: {fields}"
    return fill(MESSAGES, key, lang, fields)


ARRAY_OF = text("grading.feedback.array_of", "a NumPy array of shape {shape} and dtype {dtype}")


def type_name(kind, lang):
    """A localised name for one of the kinds in TYPE_NAMES, or for an array described by
    :func:`grading.compare.describe_value` (``array (2, 2) float64``); else the raw name."""
    text = str(kind)
    if text.startswith("array (") and ") " in text:
        shape, dtype = text[len("array "):].rsplit(" ", 1)
        return (ARRAY_OF.get(lang) or ARRAY_OF[DEFAULT_LANGUAGE]).format(shape=shape, dtype=dtype)
    names = TYPE_NAMES.get(kind)
    if names is None:
        return text
    return names.get(lang) or names[DEFAULT_LANGUAGE]


def explain(reason, details, lang, hidden=False):
    """A test's (reason, details) from compare_values, in words; ``hidden`` leaves every value out."""
    fields = dict(details)
    for key in ("expected_type", "got_type"):
        if key in fields:
            fields[key] = type_name(fields[key], lang)
    if reason == "missing_exception" and "got" in fields:
        fields["got"] = type_name(fields["got"], lang)
    if hidden and reason in HIDDEN:
        text = fill(HIDDEN, reason, lang, fields)
    else:
        text = message(reason, lang, **fields)
    if reason == "wrong_value" and details.get("float32"):
        text += message("clause_separator", lang) + message("float32_rounding", lang)
    if "item" in details:
        text = message("in_item", lang, item=details["item"], text=text)
    return text
