"""The start of every exercise notebook, written once: a short note and the first code cell.

Each ``src/solutions/exNN_*.py`` writes ``md(INSTALL_NOTE)`` and then
``code(setup_cell(IMPORTS), tags=("hide-input",))`` (the site folds the
cell).  The cell is the notebook's imports after one line,
``COURSE_LANGUAGE = "{{lang}}"`` (the notebook builder turns ``{{lang}}`` into
the notebook's language, so ``check()`` answers in it wherever the notebook is
opened; the batch grader reads the same line).

Nothing here runs in the learner's kernel.  Outside the course, where
``grading`` and ``lib`` are not installed, no code of this package could say
what to do, so the note above the cell says it: when the imports stop with
``No module named 'grading'``, run the ``%pip install`` line it gives and
restart the kernel.  The builder fills ``{{course_package}}`` (the wheel
offered in the page's download menu, or the repository named in
_config.yml; see tools/build_notebooks.py).  The note's last sentence speaks of the
wheel, which is what the course's own _config.yml installs; a build that names a
repository instead should reword it.
"""

import textwrap

LANGUAGE_LINE = 'COURSE_LANGUAGE = "{{lang}}"  #en check() answers in English'

# In English, as every prose text of the sources: the notebook builder takes its translations from
# the solutions' catalogues, src/locales/<lang>/LC_MESSAGES/solutions.po (tools/prose.py).
INSTALL_NOTE = """
If you opened this notebook outside the course, the next cell may stop with `No module named 'grading'`: the course's code is not installed. Run `%pip install "{{course_package}}"` in a code cell and restart the kernel. The command installs the course from a `.whl` file (`./….whl[learner]`), which must be in the notebook's folder: download it first from the download menu (⬇) of this page on the course site.
"""


def setup_cell(imports):
    """The first code cell: the language line, then ``imports``."""
    body = textwrap.dedent(imports).strip("\n")
    if not body.strip():
        raise ValueError("setup_cell needs the notebook's imports")
    return LANGUAGE_LINE + "\n\n" + body + "\n"
