"""The sentences of the landing page (site/landing.html), in English under their keys; the
other languages are in the catalogues course_i18n/locales/<lang>/LC_MESSAGES/course.po.

Some sentences hold links: their HTML is part of the text (a translator moves the ``<a>``
with the words it belongs to), and ``{fields}`` are filled in, escaped, by :func:`landing_texts`.
"""

from course_i18n.catalogue import texts

TEXTS = texts("site.landing", {
    "intro": "A short course you read and run at the same time, on how a decoder reads only the positions it is "
             "allowed to read: the causal mask applied before softmax, splitting the model width into heads and "
             "merging them back through the output projection W_O, learned absolute positions and their backward "
             "pass, and the KV cache with its position offset. Every number on the pages is computed by the code "
             "next to it, and checks in that code raise an error if a claim of the text does not hold.",
    "who_heading": "Who it is for",
    "who": "Readers who know NumPy indexing and broadcasting, softmax and a local backward pass, and want to see "
           "causality, heads and positions checked by code they can run.",
    "start_heading": "Where to start",
    "start": 'Begin with <a href="{start}">§0, “Start here”</a>, then read §1–§{sections} in order.',
    "exercises_heading": "Exercises",
    "exercises": 'The <a href="{exercises}">exercise notebooks</a> go with §{exercise_sections}. Each exercise is '
                 "followed by a one-line check that tells you at once what is right and what is wrong.",
    "exercises_and_solutions": 'The <a href="{exercises}">exercise notebooks</a> go with §{exercise_sections}. Each '
                               "exercise is followed by a one-line check that tells you at once what is right and "
                               'what is wrong. The <a href="{solutions}">solutions</a> work every exercise out in '
                               "full.",
    "run_heading": "Run the notebooks yourself",
    "run_download": "The download menu of every notebook page offers the notebook and the course's package "
                    '(<code>.whl</code>), the code the notebooks import; <a href="{start}#sec-0-5">§0.5</a> says '
                    "how to run them.",
    "run_where": "In a copy of the course's repository, from its root:",
    "run_open": "then open <code>{notebook}</code> in JupyterLab.",
    "binder": 'To run the notebooks without installing anything, <a href="{binder_url}">open the repository on '
              'Binder</a> instead (the first start takes a few minutes); the launch menu (the rocket) at the top of '
              "each notebook page opens that page's notebook there.",
})


def landing_texts(lang, fields):
    """``{name: Markup}``: every sentence of the landing page in ``lang``, its fields filled in
    from ``fields`` (escaped; the sentence's own HTML is kept)."""
    from markupsafe import Markup
    return {name: Markup(text[lang]).format(**fields) for name, text in TEXTS.items()}
