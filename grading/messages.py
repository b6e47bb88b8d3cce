"""The grader's sentences: everything a report row says that is not about a test's values,
written here in English under their keys (``grading.messages.missing_function``) and
translated in the catalogues ``course_i18n/locales/<lang>/LC_MESSAGES/course.po``.

Messages about a test's result (wrong shape, wrong value, ...) come from
:mod:`grading.feedback`, the same texts ``check()`` prints in the notebook; the
ones here are about everything around it (a missing function, a crashed or
hung kernel, an unreadable file).  Each is a ``str.format`` template; a
reason inside another message (why a kernel stopped) is itself one of these
keys, so a Russian row never carries an English clause.
"""

from course_i18n.catalogue import plurals, texts

from . import feedback

MESSAGES = texts("grading.messages", {
    "passed": "passed",
    # a page's punctuation: a sentence's end, an aside after a name, a sentence after the one before it
    # (Chinese: 。, full-width brackets, no space between sentences)
    "full_stop": ".",
    "aside": " ({text})",
    "next_sentence": " {sentence}",
    "missing_function": "the notebook does not define {function}",
    "not_callable": "{function} is {type}, not a function",
    "missing_notebook": "no notebook {notebook}.ipynb in this submission",
    "empty_folder": "no notebook (*.ipynb) in this folder; {found}",
    "found_nothing": "it is empty",
    "found_file": "it holds only {example}",
    "found_files": "it holds {count} files, such as {example}",
    "unknown_notebook": "not an exercise notebook of this course (expected one of: {known})",
    "unrecognised_name": "{name}: the name looks like a notebook's but does not end in .ipynb; not graded",
    "macos_metadata": "{name}: a metadata file that macOS adds to archives, not a notebook; ignored",
    "unreadable": "the notebook cannot be graded: {problem}",
    "problem_too_large": "the file is {size} MiB, more than the grader's size limit for a notebook ({limit} MiB)",
    "problem_unreadable": "the file cannot be read ({error})",
    "problem_not_utf8": "the file is not valid UTF-8 (byte 0x{byte} at offset {offset}); save the notebook again "
                        "from Jupyter",
    "problem_not_json": "it is not valid JSON{where}",
    "problem_json_where": " (line {line}, column {column})",
    "problem_no_cells": "the file is JSON but not a Jupyter notebook (no list of cells)",
    "problem_old_format": "the notebook is in an old format that could not be converted ({error})",
    "problem_symlink": "{name} is a symbolic link to something outside the submission; hand in the file itself",
    "problem_symlink_loop": "{name} is a symbolic link that does not resolve (a loop or a broken link)",
    "problem_not_regular": "{name} is not a regular file but {what}; not read",
    "what_fifo": "a named pipe (FIFO)",
    "what_device": "a device file",
    "what_socket": "a socket",
    "what_folder": "a folder",
    "what_other": "a special file",
    "folder_symlink": "refused: the student folder {name} is itself a symbolic link",
    "path_symlink": "refused: {name} is a symbolic link (to {target}); the grader does not follow links in what "
                    "students hand in, so give the folder it points to instead",
    "link_outside": "refused: {name} in this submission is a symbolic link to something outside it ({target}); the "
                    "whole submission gets no points",
    "too_deep": "{name} holds folders nested more than {depth} levels deep; those were not searched",
    "too_many_files": "{name} holds more than {count} files; the rest were not searched",
    "duplicate_ignored": "not graded: only one notebook per exercise set is graded, and here that is {graded}",
    "also_handed_in": "Also handed in for this exercise set, and not graded: {names}.",
    "also_handed_in_many": "Also handed in for this exercise set, and not graded: {count} notebooks, e.g. "
                           "{names}.",
    "case_timeout": "the test “{case}” did not finish within {seconds} s",
    "total_timeout": "the submission used up its total time limit of {seconds} s",
    "kernel_died": "{function}: the tests did not finish; {reason}",
    "kernel_failed": "the notebook could not be run: {reason}",
    "call_failed": "the grader could not call {function}: {error}",
    "no_result": "the test “{case}” returned no readable result",
    "invalid_result": "the notebook's code sent back a malformed result ({problem})",
    "result_too_large": "the result is too large for the grader to receive",
    "record_missing": "the grader received no result for the test “{case}”",
    "record_malformed": "the grader received a result in the wrong form",
    "record_undecodable": "the grader received a result it could not read",
    "setup_in_kernel": "the test's models could not be built in the notebook's kernel ({error}); check whether "
                       "the notebook reassigns or changes anything in NumPy or lib.",
    "relies_on_reference": "{function} relies on {name}, the library's reference answer for this exercise. When the "
                           "grader took {name} away, {function} failed these tests. This exercise asks for your "
                           "own code, so {function} gets no points.",
    "cell_error_hint": "cell {cell} raised {error}",
    "cell_skipped_hint": "cell {cell} was skipped: {reason}",
    "cell_interrupted_hint": "cell {cell} was interrupted after {seconds} s",
    "ignored_interrupt": "it ran longer than {seconds} s and ignored the interrupt",
    "gave_up": "{count} kernels were started, and each one stopped ({reasons})",
    "exit_student": "the notebook's code ended the kernel process (os._exit({code}) or similar)",
    "exit_signal": "the kernel crashed ({signal}: {what})",
    "exit_memory": "the submission's processes together went over the memory limit of {limit} MiB; the kernel was "
                   "killed",
    "exit_killed": "the kernel was stopped, probably because it used up its memory or CPU time",
    "exit_gone": "the kernel stopped",
    "start_timeout": "the kernel did not start within {seconds} s",
    "sandbox_failed": "the grading sandbox did not start ({detail}); this is not your mistake: please tell your "
                      "instructor",
    "interrupted": "not graded: the grader was interrupted",
    "internal": "internal grader error ({error}); this is not your mistake: please tell your instructor",
    # -- feedback pages and the instructor's index --------------------------------------
    "page_title": "Feedback: {submission}",
    "page_row_tests": "{passed} of {total} tests passed",
    "page_exercise": "Exercise",
    "page_status": "Status",
    "page_points": "Points",
    "page_tests": "Tests passed",
    "page_notebook": "Notebook",
    "page_hidden": "hidden test",
    "page_public": "public test",
    "page_reproduce": "Practice",
    "page_hidden_note": "Public tests show the expected and the actual value; hidden tests say which property "
                        "failed, never their inputs or expected values.",
    # the same note after a run without a sandbox, where a submission's kernels after the first describe failed
    # public tests without their values (runner.NotebookRun.quiet)
    "page_hidden_note_unsandboxed": "Hidden tests say which property failed, never their inputs or expected "
                                    "values. Public tests usually show the expected and the actual value, but in "
                                    "this run some may be described without them, as hidden tests are; run check() "
                                    "in your notebook to see their values.",
    "page_row_groups": "{passed} of {total} test groups passed",
    "page_scoring": "How points are earned: an exercise earns its points when all its tests, public and hidden, "
                    "pass; a single failed test leaves it at 0 points.",
    "page_scoring_partial": "How points are earned (partial credit): an exercise's points are split equally over "
                            "its test groups, where every public test is a group and all hidden tests of one kind "
                            "are one; a group earns its share when all its tests pass. When the tests stop early "
                            "(a time-out, a kernel that died), the groups that passed in full before the stop keep "
                            "their share; a group with a test that never ran earns nothing.",
    "index_diagnoses": "Known mistakes in this class",
    "page_other": "About your files",
    "page_footer": "course {course} · report format {format} · tests' fingerprint {tests}",
    # after the failed tests a page explains, when more failed (runner.MAX_FEEDBACK)
    "page_more_failures": "… and {count} more",
    "page_incomplete": "Grading did not finish: some exercises were not graded.",
    "index_title": "Grading overview",
    "index_submission": "Submission",
    "index_language": "Language",
    "index_pages": "Feedback pages",
    "index_isolation": "Isolation",
    # the labels of the isolation record on the instructor's index (its values are the report's own English)
    "isolation_not_used": "not used",
    "isolation_mode": "mode",
    "isolation_unsandboxed": "why no sandbox",
    "isolation_namespaces": "namespaces",
    "isolation_file_system": "file system",
    "isolation_user": "user",
    "isolation_user_namespaces": "user namespaces",
    "isolation_seccomp": "seccomp filter",
    "isolation_kernels": "kernels",
    "isolation_network": "network",
    "isolation_hostname": "host name",
    "isolation_ipc": "inter-process communication",
    "isolation_cgroups": "control groups",
    "isolation_why": "why no control groups",
    "isolation_systemd_scope": "systemd scope",
    "isolation_memory": "memory",
    "isolation_processes": "processes",
    "isolation_cpu": "CPU",
    "status_pass": "passed",
    "status_fail": "failed",
    "status_error": "error",
    "status_timeout": "timed out",
    "status_missing": "not handed in",
    # a notebook that was handed in but does not define the exercise's function (the status "missing")
    "status_undefined": "function missing",
})

# -- the instructor's workflow: copies of a notebook, damaged files, unfinished cells, Gradescope (issue 22) --
MESSAGES.update(texts("grading.messages", {
    "duplicates_newest": "The most recently modified copy was graded: {graded}.",
    "duplicates_newest_tied": "The copies were modified within {seconds} s of each other, too close to tell "
                              "which is newer, so {graded} was graded (chosen by its name); your instructor will "
                              "check which copy counts.",
    "duplicates_best": "Every copy was graded and the best one counts: {graded}.",
    "duplicates_undecided": "{count} notebooks were handed in for this exercise set ({names}); none was graded: "
                            "your instructor decides which one counts.",
    "damaged_notebook": "{name} is damaged or truncated: {problem}. Open it in Jupyter, save it and hand it in "
                        "again; if Jupyter cannot open it either, hand in your last good copy.",
    "damaged_see_note": "not graded: {name} is damaged (see “About your files”)",
    "cell_never_finished": "cell {cell} (counting every cell from the top, text cells too) did not finish within "
                           "{seconds} s and was interrupted or skipped: your notebook does not run from top to bottom",
    "nothing_gradable": "This upload holds no notebook that can be graded (expected {expected}). {found}. Upload "
                        "the .ipynb file itself.",
    "index_legend": "Legend",
    "index_max": "Maximum",
    "index_pass_rate": "Pass rate",
    "index_mean": "Mean",
    "index_median": "Median",
    "index_flags": "Flags",
    "index_histogram": "Distribution of totals",
    "index_students": "Students",
    "flag_duplicates": "several notebooks for one exercise set",
    "flag_ambiguous": "check which copy counts",
    "flag_late": "handed in late",
    "rubric_title": "Rubric",
    "rubric_notebook": "Notebook",
    "rubric_function": "Function",
    "rubric_title_col": "Title",
    "rubric_tests": "Public / hidden tests",
    "rubric_total": "Total",
    "rubric_groups": "Test groups",
    "rubric_rule": "An exercise earns its points when all its tests pass.",
    "late_by": "late by {hours} h",
}))

# -- hidden tests that stay hidden, one language per page, copies and penalties (issue 32) --
MESSAGES.update(texts("grading.messages", {
    # what a hidden test's failure says in place of what the student's code chose (runner.hidden_safe)
    "own_exception": "an exception of a class your notebook defines",
    "own_type": "an object of a class your notebook defines",
    "unusual_dtype": "an unusual dtype",
    "exit_hidden": "the kernel ended during the hidden tests",
    "call_failed_hidden": "the grader could not call {function} during the hidden tests",
    "setup_in_kernel_hidden": "the test's models could not be built in the notebook's kernel; check whether the "
                              "notebook reassigns or changes anything in NumPy or lib.",
    "withheld_call": "your function called {name}, which is not available while this exercise is graded: the "
                     "exercise asks for your own code",
    "too_large_notebook": "{name} is {size} MiB, more than the grader's limit of {limit} MiB for one notebook. A "
                          "notebook this large nearly always holds saved outputs (images, long printouts): clear "
                          "the outputs of every cell (in JupyterLab: Edit → Clear Outputs of All Cells), save the "
                          "notebook and hand it in again.",
    "too_large_see_note": "not graded: {name} is over the grader's size limit (see “About your files”)",
    "duplicates_newest_untouched": "The most recently modified copy, {newest}, has nothing done in it (every "
                                   "exercise still raises NotImplementedError), so {graded}, the most recent copy "
                                   "with your work in it, was graded.",
    "page_row_penalty": "{points} before the late penalty",
    "page_languages_most": "Your notebooks are in more than one language ({found}); this page is in {chosen}, "
                           "the language of most of them.",
    "page_languages_latest": "Your notebooks are in more than one language ({found}); this page is in {chosen}, "
                             "the language of the notebook you changed last.",
    "language_zh": "Chinese",
    "language_en": "English",
    "language_ru": "Russian",
}))

# -- texts whose words follow a number: (the field whose number picks the form, English for 1, for any other);
# course_i18n.catalogue.plural, one catalogue entry per plural category (1 балл, 2 балла, 5 баллов, 2,5 балла)
MESSAGES.update(plurals("grading.messages", {
    "problem_too_many_cells": ("count", "the notebook has {count} cell, more than the grader's limit of {limit} "
                                        "cells",
                               "the notebook has {count} cells, more than the grader's limit of {limit} cells"),
    "problem_cell_too_long": ("count", "cell {cell} is {count} character long, more than the grader's limit for "
                                       "one cell ({limit} characters)",
                              "cell {cell} is {count} characters long, more than the grader's limit for one cell "
                              "({limit} characters)"),
    "page_total": ("max_points", "Total: {points} of {max_points} point", "Total: {points} of {max_points} points"),
    # an exercise's row: the form is chosen by max_points, whatever was earned (0, 0.5 or 1 of 1 point)
    "page_row_points": ("max_points", "{points} of {max_points} point", "{points} of {max_points} points"),
    "index_diagnosis": ("total", "{id}, {what}: {count} of {total} student", "{id}, {what}: {count} of {total} "
                                                                              "students"),
    "page_late_penalty": ("before", "Handed in {hours} h after the deadline: the late penalty took {percent}% off "
                                    "the points of every exercise, so your {before} point became {after}.",
                          "Handed in {hours} h after the deadline: the late penalty took {percent}% off the points "
                          "of every exercise, so your {before} points became {after}."),
}))

# What a signal that ended a kernel means, for "exit_signal".
SIGNALS = texts("grading.messages.signals", {
    "SIGSEGV": "segmentation fault",
    "SIGBUS": "bus error",
    "SIGABRT": "aborted",
    "SIGFPE": "arithmetic error",
    "SIGILL": "illegal instruction",
    "SIGXCPU": "CPU time limit exceeded",
    "SIGXFSZ": "file size limit exceeded",
    "SIGTERM": "terminated",
    "SIGKILL": "killed",
})


def text(key, lang, **fields):
    """The grader message ``key`` (or, if it is not one, the feedback message) in ``lang``."""
    if key not in MESSAGES:
        return feedback.message(key, lang, **fields)
    return feedback.fill(MESSAGES, key, lang, fields)


def reason(value, lang):
    """A reason given as ``(key, fields)`` (or plain text) in ``lang``."""
    if isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], dict):
        key, fields = value
        fields = {k: reason(v, lang) if isinstance(v, tuple) else v for k, v in fields.items()}
        if key == "exit_signal" and "signal" in fields:
            names = SIGNALS.get(fields["signal"])
            fields.setdefault("what", (names or {}).get(lang) or (names or {}).get("en") or fields["signal"])
        return text(key, lang, **fields)
    return str(value)
