"""What a batch produces: the JSON report (everything), the long CSV (one row per
submission and exercise), the wide CSV (one row per student, one column per
exercise), Gradescope's ``results.json``, and the feedback pages (one HTML and
one Markdown page per submission, in its language, and an index for the
instructor).  The HTML pages come from the Jinja2 templates in grading/templates/
(``page.html`` with its stylesheet ``page.css``, ``feedback.html``, ``index.html``),
every value escaped; this module gathers what they show.

Every file is written atomically (a temporary file in the same folder, then
``os.replace``), so a reader never sees half a report.  Nothing written here
depends on the clock or on the order in which kernels finished: the same
submissions graded with the same key give byte-identical files, except the
JSON report's ``timing`` section, which holds every duration and timestamp, and
the ``execution_time`` of Gradescope's results (seconds, which Gradescope asks for).
The secret the hidden tests come from is in the JSON report only (a salt; a key
by its fingerprint): never on a page, in a gradebook or in Gradescope's results.
The histogram of totals (matplotlib, Agg, no timestamp in the PNG) is
byte-identical too for the same report and matplotlib version.
"""

import csv
import functools
import hashlib
import html
import io
import json
import os
import pathlib
import re
import stat
import tempfile
from dataclasses import dataclass

import jinja2
import markupsafe

from course_i18n import LANGUAGES, format_number, localise_numbers

from .. import messages, sections

CSV_COLUMNS = ("submission", "exercise", "function", "status", "points", "max_points", "cases_passed",
               "cases_total", "notebook", "lang", "message", "diagnosis")
STATUS_ORDER = ("pass", "fail", "error", "timeout", "missing")


def summarize(submission, rows, lang="en"):
    counts = {}
    for row in rows:
        if row["exercise"] != "-":            # a note about a file is no exercise's status
            counts[row["status"]] = counts.get(row["status"], 0) + 1
    return {
        "submission": submission,
        "points": round(sum(r["points"] for r in rows), 6),          # 0.8 + 1.6 is 2.4, not 2.4000000000000004
        "max_points": sum(r["max_points"] for r in rows),
        "counts": {k: counts[k] for k in STATUS_ORDER if k in counts},
        "notebooks": sorted({r["notebook"] for r in rows if r["notebook"]}),
        "lang": lang,
        "flags": flags(rows),
    }


def flags(rows):
    """What the instructor should look at in a submission, as words: "duplicates" (several notebooks of
    one set), "ambiguous" (and the rule could not tell them apart), "late"."""
    out = set()
    for row in rows:
        dup = row.get("duplicates")
        if dup:
            out.add("duplicates")
            if dup.get("ambiguous"):
                out.add("ambiguous")
        if row.get("late"):
            out.add("late")
    return sorted(out)


def atomic_write(path, data, mode=0o644):
    """Write ``data`` (str: UTF-8; or bytes) to ``path`` whole or not at all, mode 0644 (``mode``: another,
    such as 0600 for a file that holds a secret; the temporary file is 0600 until then, whatever the umask)."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with (os.fdopen(fd, "wb") if isinstance(data, bytes)
              else os.fdopen(fd, "w", encoding="utf-8", newline="")) as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def to_json(report):
    return json.dumps(report, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def to_csv(rows, lang="en"):
    """One row per submission and exercise; ``diagnosis``: the known mistake that explains the failures,
    in a few words in ``lang`` (the instructor's language), empty when none does."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({**{k: row.get(k, "") for k in CSV_COLUMNS},
                         "diagnosis": _mistake_name(row.get("diagnosis"), lang)})
    return buf.getvalue()


def exercise_ids(report):
    return [e["id"] for e in report["grader"]["exercises"]]


def _points_by_student(report):
    by_sub = {}
    for row in report["rows"]:
        by_sub.setdefault(row["submission"], {}).setdefault(row["exercise"], 0)
        by_sub[row["submission"]][row["exercise"]] += row["points"]
    return by_sub


def _maxima(report):
    return {e["id"]: e["points"] for e in report["grader"]["exercises"]}


def _num(x, lang=None):
    """A number of points (hours, percent) as a page in ``lang`` writes it (2.5 / 2,5); without ``lang``, plainly,
    for a file a program reads (the gradebook's CSV)."""
    return format_number(x, lang)


def _csv(rows):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def to_wide_csv(report, worksheet=None, per_exercise=True):
    """The gradebook, one row per student: the name the pages show, the LMS id when known
    (``--student-pattern``), the e-mail when a Moodle worksheet gives it (what Moodle's gradebook import
    matches), points per exercise (in registry order; not ``per_exercise``: the totals gradebook), the total
    and the flags (duplicates, ambiguous, late).  Every points column names its maximum in the header, e.g.
    ``mask-1 (max 1)``; with ``--late-penalty`` every column is after the penalty."""
    ids, maxima = exercise_ids(report) if per_exercise else [], _maxima(report)
    by_sub, names = _points_by_student(report), display_names(report)
    total = sum(maxima.values())
    late, mail = _late_columns(report), _email_column(worksheet)
    rows = [["student", "id", *mail(None), *(f"{i} (max {_num(maxima[i])})" for i in ids),
             f"total (max {_num(total)})", "flags", *late(None)]]
    for s in report["summary"]:
        points = by_sub.get(s["submission"], {})
        rows.append([names[s["submission"]], s.get("student_id", ""), *mail(s), *(_num(points.get(i, 0)) for i in ids),
                     _num(s["points"]), " ".join(s.get("flags", [])), *late(s)])
    return _csv(rows)


def _email_column(worksheet):
    """With a Moodle worksheet that lists e-mails: the column "email" (header for None, else a summary's)."""
    if worksheet is None or worksheet.email is None:
        return lambda s: []
    return lambda s: ["email"] if s is None else [worksheet.email_of(s.get("student_id", ""))]


def _late_columns(report):
    """With --deadline: the columns "handed in" and "late (hours)" (header for None, else a summary's values)."""
    if not report["grader"].get("options", {}).get("deadline"):
        return lambda s: []

    def columns(s):
        if s is None:
            return ["handed in", "late (hours)"]
        info = s.get("handed_in") or {}
        return [info.get("time") or "", _num(info.get("late_hours", 0))]
    return columns


def to_totals_csv(report, worksheet=None):
    """One row per student: name, LMS id (and e-mail), total, flags; the maximum in the total's header."""
    return to_wide_csv(report, worksheet, per_exercise=False)


CANVAS_HEAD = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")


def to_canvas_csv(report, assignment="Exercises", per_exercise=False):
    """Canvas's gradebook import: its five student columns, then one column per assignment (the total, or
    one per exercise named ``<assignment> <id>``), and a "Points Possible" row under the header, as in
    the gradebook Canvas exports.  Canvas matches a row by its ID (the user id in the file names of its
    bulk download, see ``--student-pattern canvas``); new columns become new assignments."""
    ids, maxima = exercise_ids(report), _maxima(report)
    by_sub, names = _points_by_student(report), display_names(report)
    columns = [f"{assignment} {i}" for i in ids] if per_exercise else [assignment]
    possible = [_num(maxima[i]) for i in ids] if per_exercise else [_num(sum(maxima.values()))]
    rows = [[*CANVAS_HEAD, *columns], ["Points Possible", "", "", "", "", *possible]]
    for s in report["summary"]:
        points = by_sub.get(s["submission"], {})
        values = [_num(points.get(i, 0)) for i in ids] if per_exercise else [_num(s["points"])]
        rows.append([names[s["submission"]], s.get("student_id", ""), "", "", "", *values])
    return _csv(rows)


MOODLE_HEAD = ("Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)")


@dataclass
class Worksheet:
    """The grading worksheet downloaded from a Moodle assignment (Grading action → Download grading
    worksheet), in the language of the Moodle that wrote it: its rows, the column of the grade, and of
    the e-mails when it lists them.  Its first column is the identifier ("Participant 123456")."""
    rows: list                          # the header first
    grade: int                          # the grade's column
    email: int = None                   # the e-mails' column, if any

    def participant(self, row):
        match = re.search(r"(\d+)\s*$", row[0]) if row else None
        return match.group(1) if match else None

    def email_of(self, student_id):
        for row in self.rows[1:]:
            if student_id and self.participant(row) == student_id and self.email is not None:
                return row[self.email]
        return ""


def _number(text):
    try:
        float(text.strip().replace(",", "."))
        return True
    except ValueError:
        return False


def read_moodle_worksheet(path):
    """The :class:`Worksheet` in ``path``; ValueError saying what is wrong with it.  Moodle writes the grade's
    column right before the assignment's maximum, a number that is the same in every row: the last such pair
    of columns is the grade and its maximum, whatever the language of the headers."""
    try:
        with open(path, encoding="utf-8-sig", newline="") as f:
            rows = [r for r in csv.reader(f) if r]
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"--moodle-worksheet {path}: cannot read it ({exc})") from None
    if len(rows) < 2 or not all(len(r) == len(rows[0]) for r in rows):
        raise ValueError(f"--moodle-worksheet {path}: not a grading worksheet (a header row, then one row per "
                         "participant, all of the same length); download it again from the assignment")
    body = rows[1:]
    columns = list(zip(*body))
    pairs = [i for i in range(1, len(rows[0]) - 1)
             if all(_number(v) for v in columns[i + 1]) and len(set(columns[i + 1])) == 1
             and all(not v.strip() or _number(v) for v in columns[i])]
    if not pairs:
        raise ValueError(f"--moodle-worksheet {path}: no grade column found (a column of grades followed by the "
                         "maximum grade); is the assignment graded in points?")
    emails = [i for i, col in enumerate(columns) if any(v.strip() for v in col)
              and all(not v.strip() or re.fullmatch(r"[^@\s]+@[^@\s]+", v.strip()) for v in col)]
    return Worksheet(rows, pairs[-1], emails[0] if emails else None)


def to_moodle_csv(report, worksheet=None):
    """(Moodle's offline grading worksheet of one assignment, warnings).  Moodle's importer finds its columns
    by their names in the language of the Moodle that reads the file, and a participant by "Participant <id>"
    in that language.  With ``worksheet`` (the one Moodle downloaded) the file is that worksheet with each
    graded participant's grade filled in, in its own language, every other column as Moodle wrote it.
    Without one, the names are English ("Identifier", "Grade", "Last modified (grade)"), and a warning says
    what a Moodle in another language needs.  Rows without an id are written with an empty Identifier:
    Moodle skips them."""
    names = display_names(report)
    by_id = {s["student_id"]: s for s in report["summary"] if s.get("student_id")}
    warnings = []
    if len(by_id) < len(report["summary"]):
        warnings.append(f"{len(report['summary']) - len(by_id)} submission(s) have no Moodle participant id in their "
                        "folder names (--student-pattern moodle); the worksheet has no grade for them")
    if worksheet is None:
        total = sum(_maxima(report).values())
        rows = [list(MOODLE_HEAD)]
        for s in report["summary"]:
            ident = f"Participant {s['student_id']}" if s.get("student_id") else ""
            rows.append([ident, names[s["submission"]], _num(s["points"]), _num(total), ""])
        warnings.append("--moodle-csv: the columns have the names of an English-language Moodle; for a Moodle in "
                        "another language give --moodle-worksheet with the worksheet that Moodle downloads, or "
                        "switch Moodle to English while uploading (docs/instructors.md, Moodle)")
        return _csv(rows), warnings
    rows = [list(r) for r in worksheet.rows]
    filled = set()
    for row in rows[1:]:
        summary = by_id.get(worksheet.participant(row))
        if summary is not None:
            row[worksheet.grade] = _num(summary["points"])
            filled.add(summary["student_id"])
    missing = sorted(set(by_id) - filled)
    if missing:
        warnings.append(f"--moodle-worksheet has no row for participant(s) {', '.join(missing[:10])}"
                        f"{' ...' if len(missing) > 10 else ''}; their grades are not in --moodle-csv")
    return _csv(rows), warnings


def summary_table(summaries):
    """A plain-text table for the terminal."""
    if not summaries:
        return "no submissions\n"
    width = min(60, max(len(s["submission"]) for s in summaries))
    lines = [f"{'submission':<{width}}  points  " + "  ".join(f"{k:>7}" for k in STATUS_ORDER)]
    for s in summaries:
        name = s["submission"] if len(s["submission"]) <= width else "…" + s["submission"][-(width - 1):]
        pts = f"{s['points']:g}/{s['max_points']:g}"
        lines.append(f"{name:<{width}}  {pts:>6}  " + "  ".join(f"{s['counts'].get(k, 0):>7}" for k in STATUS_ORDER))
    return "\n".join(lines) + "\n"


# -- per submission -----------------------------------------------------------------

def page_name(name, submission=None):
    """A file name for a submission's pages: readable (from ``name``, what the page shows), safe,
    and unique (a short hash of the submission's id, ``name`` when not given)."""
    submission = name if submission is None else submission
    slug = re.sub(r"[^\w.-]+", "_", name).strip("._")[-60:] or "submission"
    return f"{slug}-{hashlib.sha256(submission.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


def display_names(report):
    """{submission id: the name a page shows}: each id relative to the folder that holds all
    the batch's submissions, so that a student's page never shows the instructor's paths
    ("alice", "group-2/bob"); one submission alone shows its last part."""
    ids = [s["submission"] for s in report["summary"]]
    try:
        common = os.path.commonpath([os.path.dirname(i) for i in ids]) if ids else ""
    except ValueError:                  # absolute and relative ids mixed
        common = ""
    return {i: (os.path.relpath(i, common) if common and i != common else i) or i for i in ids}


def _rows_of(report):
    out = {}
    for row in report["rows"]:
        out.setdefault(row["submission"], []).append(row)
    return out


def _titles(report):
    return {e["id"]: e.get("title", {}) for e in report["grader"]["exercises"]}


def gradescope(report, summary):
    """Gradescope's autograder results for one submission (results.json)."""
    rows = [r for r in report["rows"] if r["submission"] == summary["submission"]]
    lang = summary.get("lang", "en")
    titles = _titles(report)
    tests = []
    for row in rows:
        where = _relative(row["notebook"], summary["submission"]) if row["notebook"] else ""
        name = _exercise_heading(row, titles, lang) if row["function"] \
            else f"{messages.text('page_other', lang)}: {where or os.path.basename(row['submission'])}"
        output = [row["message"]]
        for f in row.get("feedback", []):
            line = f"{f.get('line') or f.get('text')}"
            if line and line in row["message"] and not f.get("hint"):
                continue                    # the message already says it
            output.append(line + (f"\n  {f['hint']}" if f.get("hint") else ""))
        tests.append({"name": name, "number": row["exercise"], "score": row["points"], "max_score": row["max_points"],
                      "status": "passed" if row["status"] == "pass" else "failed",
                      "output": "\n".join(output), "visibility": "visible"})
    seconds = report.get("timing", {}).get("submissions", {}).get(summary["submission"])
    return {
        "score": summary["points"],
        **({"execution_time": round(seconds, 1)} if seconds is not None else {}),
        "output": messages.text("page_total", lang, points=_num(summary["points"], lang),
                                max_points=_num(summary["max_points"], lang)),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "extra_data": _extra_data(report),
        "tests": tests,
    }


def _relative(path, folder):
    """``path`` under the submission's folder, as the student knows it (never the grader's full path)."""
    try:
        rel = os.path.relpath(path, folder)
    except ValueError:
        return os.path.basename(path)
    return os.path.basename(path) if rel.startswith("..") else rel


def _extra_data(report):
    """For the instructor (Gradescope stores it, students do not see it): what grading meant and the
    isolation in force in the container (in Docker without namespaces: process limits only)."""
    g = report["grader"]
    iso = g.get("isolation") if isinstance(g.get("isolation"), dict) else {}
    return {"grader": g.get("version"), "course": g.get("course", {}).get("version"),
            "hidden_tests": (g.get("hidden_tests") or {}).get("fingerprint"), "exercises": exercise_ids(report),
            "isolation": {k: iso.get(k) for k in ("mode", "namespaces", "memory", "cpu", "processes", "why")
                          if iso.get(k) not in (None, "", [])}}


def write_nothing_gradable(report, target, lang, found=None):
    """A Gradescope upload without a notebook: results.json with 0 points and the reason, in ``lang``
    (``auto``: in the course's three languages, since no notebook says which one the student reads)."""
    g = report["grader"]
    notebooks = sorted({e["notebook"] for e in g["exercises"]})
    expected = ", ".join(f"{n}.ipynb" for n in notebooks)
    total = sum(e["points"] for e in g["exercises"])
    langs = [lang] if lang in LANGUAGES else list(LANGUAGES)
    lines = []
    for code in langs:
        what = messages.reason(found, code) if found else messages.text("found_nothing", code)
        what = what[:1].upper() + what[1:]
        lines.append(messages.text("nothing_gradable", code, expected=expected, found=what))
    data = {"score": 0, "execution_time": report.get("timing", {}).get("seconds", 0),
            "output": "\n\n".join(lines), "visibility": "visible", "stdout_visibility": "hidden",
            "extra_data": _extra_data(report),
            "tests": [{"name": n, "score": 0, "max_score": sum(e["points"] for e in g["exercises"] if e["notebook"] == n),
                       "status": "failed", "output": "\n\n".join(lines), "visibility": "visible"} for n in notebooks]}
    assert sum(t["max_score"] for t in data["tests"]) == total
    atomic_write(target, json.dumps(data, ensure_ascii=False, indent=1) + "\n")


def write_gradescope(report, target):
    """``target`` ending in .json: the one submission's results.json; else a folder with one per submission."""
    target = pathlib.Path(target)
    if target.suffix == ".json":
        if len(report["summary"]) != 1:
            raise ValueError(f"--gradescope {target}: the batch holds {len(report['summary'])} submissions, "
                             "a results.json holds one (give a folder instead)")
        atomic_write(target, json.dumps(gradescope(report, report["summary"][0]), ensure_ascii=False, indent=1) + "\n")
        return [target]
    written = []
    names = display_names(report)
    for summary in report["summary"]:
        path = target / page_name(names[summary["submission"]], summary["submission"]) / "results.json"
        atomic_write(path, json.dumps(gradescope(report, summary), ensure_ascii=False, indent=1) + "\n")
        written.append(path)
    return written


def _undefined(status, row):
    """Whether a "missing" row is a notebook that was handed in (``row`` names it) without the function."""
    return status == "missing" and row is not None and bool(row.get("notebook"))


def _status(status, lang, capital=False, row=None):
    """The status's word; "missing" for a notebook that was handed in (``row`` names it) says that its
    function is missing, not that nothing was handed in."""
    key = "status_undefined" if _undefined(status, row) else f"status_{status}"
    text = messages.text(key, lang)
    return text[:1].upper() + text[1:] if capital else text


def _points_line(row, lang):
    text = messages.text("page_row_points", lang, points=_num(row["points"], lang),
                         max_points=_num(row["max_points"], lang))
    if "points_before_penalty" in row:
        text += messages.text("aside", lang, text=messages.text("page_row_penalty", lang,
                                                              points=_num(row["points_before_penalty"], lang)))
    if row["cases_total"]:
        text += " · " + messages.text("page_row_tests", lang, passed=row["cases_passed"], total=row["cases_total"])
    if row.get("groups"):
        text += " · " + messages.text("page_row_groups", lang, passed=row["groups"][0], total=row["groups"][1])
    return text


def _stop(lang):
    return messages.text("full_stop", lang)


def _colon(lang):
    return messages.text("label_colon", lang)


def _parenthesised(text, lang):
    return messages.text("aside", lang, text=text)


def _sentence(message, lang):
    """A row's message as a sentence of its own: without the [p/t] counts, capitalised, with its
    full stop, and after the sentence before it (a space, but none between Chinese sentences)."""
    text = re.sub(r"^\[\d+/\d+\]\s*", "", message).strip()
    if not text:
        return ""
    if not re.search(r"[_.(\d]", text.split(" ", 1)[0]):          # a function's name keeps its case
        text = text[:1].upper() + text[1:]
    if text[-1] not in ".!?。！？…":
        text += _stop(lang)
    return messages.text("next_sentence", lang, sentence=text)


def _exercise_heading(row, titles, lang):
    title = titles.get(row["exercise"], {}).get(lang, "")
    return f"{row['exercise']} · {row['function']}" + (f" — {title}" if title else "")


def _page_notes(summary, lang):
    """What a page says first about how it was made: its language when the notebooks were in several, the
    late penalty when one was taken."""
    notes = []
    languages = summary.get("languages") or {}
    if len(languages) > 1:
        found = messages.text("list_separator", lang).join(
            f"{messages.text('language_' + code, lang)}{_colon(lang)}{n}" for code, n in languages.items())
        most = languages.get(lang) == max(languages.values()) and \
            sum(n == languages.get(lang) for n in languages.values()) == 1
        notes.append(messages.text("page_languages_most" if most else "page_languages_latest", lang, found=found,
                                   chosen=messages.text("language_" + lang, lang)))
    late = summary.get("handed_in") or {}
    if late.get("penalty_percent"):
        notes.append(messages.text("page_late_penalty", lang, hours=_num(late["late_hours"], lang),
                                   percent=_num(late["penalty_percent"], lang),
                                   before=_num(summary.get("points_before_penalty", summary["points"]), lang),
                                   after=_num(summary["points"], lang)))
    return notes


class PageData:
    """What every page of one report reads from the whole report (its rows by submission, the exercises'
    titles, the names pages show), worked out once for all of its pages: :func:`write_feedback` makes
    one; a page made alone makes its own."""

    def __init__(self, report):
        self.report = report
        self.rows = _rows_of(report)
        self.titles = _titles(report)
        self.names = display_names(report)


def page_view(report, summary, data=None):
    """What a student's page shows, for both its HTML and its Markdown form (``data``: the report's
    :class:`PageData`, when several pages are made)."""
    data = data if data is not None and data.report is report else PageData(report)
    lang = summary.get("lang", "en")
    rows = data.rows.get(summary["submission"], [])
    titles = data.titles
    g = report["grader"]
    name = data.names[summary["submission"]]
    graded, copies = [], []
    # a sentence several rows share (no notebook in the folder, no ex02 notebook) is said once, about the files
    said_by = {}
    for r in rows:
        if r["function"] and r["status"] == "missing" and not r["notebook"]:
            said_by[r["message"]] = said_by.get(r["message"], 0) + 1
    shared = [m for m, n in said_by.items() if n > 1]
    for r in (r for r in rows if r["function"]):
        note = (r.get("duplicates") or {}).get("note", "")
        if note and note not in copies:
            copies.append(note)
        message = r["message"].replace(note, "").strip() if note else r["message"]
        items = [{"test": f["test"], "text": f["text"], "hint": f.get("hint") or "", "hidden": bool(f.get("hidden")),
                  # " (hidden test)", "（隐藏测试）": the kind in brackets, as both pages print it after the label
                  "kind": _parenthesised(messages.text("page_hidden" if f.get("hidden") else "page_public", lang),
                                         lang)}
                 for f in r.get("feedback", []) if f.get("test")]
        # what the row says besides its tests (the reference it relied on, "not done yet"), in a sentence
        said = " ".join(f["text"] for f in r.get("feedback", []) if not f.get("test") and not f.get("diagnosis"))
        # the runner explains up to MAX_FEEDBACK failed tests, at most MAX_FEEDBACK - 1 public ones (so a failed hidden
        # test is always among them); the page says how many more failed
        more = r["cases_total"] - r["cases_passed"] - len(items) if items else 0
        graded.append({"exercise": r["exercise"], "function": r["function"], "status": r["status"],
                       "status_word": _status(r["status"], lang, row=r),
                       "status_title": _status(r["status"], lang, True, row=r),
                       "points": _num(r["points"], lang), "max_points": _num(r["max_points"], lang),
                       "cases_passed": r["cases_passed"], "cases_total": r["cases_total"],
                       "tests": _tests_cell(r),
                       "more": messages.text("page_more_failures", lang, count=more) if more > 0 else "",
                       "heading": _exercise_heading(r, titles, lang), "points_line": _points_line(r, lang),
                       "said": _sentence(said or ("" if items or r["status"] == "pass" or message in shared
                                                  else message), lang),
                       "failures": items, "diagnoses": _diagnosis_texts(r)})
    other = [{"where": _note_where(r, summary["submission"]), "message": r["message"]}
             for r in rows if not r["function"]]
    return {"lang": lang, "title": messages.text("page_title", lang, submission=name),
            "total": messages.text("page_total", lang, points=_num(summary["points"], lang),
                                   max_points=_num(summary["max_points"], lang)),
            "notes": _page_notes(summary, lang),
            "incomplete": "" if g.get("complete", True) else messages.text("page_incomplete", lang),
            "head": [messages.text(k, lang) for k in ("page_exercise", "page_status", "page_points", "page_tests")],
            "graded": graded, "colon": _colon(lang), "stop": _stop(lang),
            "reproduce": messages.text("page_reproduce", lang), "other_title": messages.text("page_other", lang),
            "other": [{"where": "", "message": _sentence(m, lang).strip()} for m in shared]
            + [{"where": "", "message": c} for c in copies] + other,
            "scoring": _scoring_note(report, lang), "hidden_note": _hidden_note(g, lang),
            "footer": _footer(g, lang)}


def _hidden_note(grader, lang):
    """What the page's tests show; without a sandbox a kernel after the first may describe failed public tests
    without their values (runner.NotebookRun.quiet), and the note says so."""
    unsandboxed = (grader.get("isolation") or {}).get("mode") == "none"
    return messages.text("page_hidden_note_unsandboxed" if unsandboxed else "page_hidden_note", lang)


def _tests_cell(row):
    """The "Tests passed" cell: "passed / total", or "–" for an exercise whose tests never ran."""
    return f"{row['cases_passed']} / {row['cases_total']}" if row["cases_total"] else "–"


def _note_where(row, submission):
    """Which file a note is about, as the student knows it: its path under the submission's folder (never the
    grader's full path); nothing when the note names the file anyway ("ex01.ipynb is damaged ...")."""
    if not row["notebook"]:
        return ""
    where = _relative(row["notebook"], submission)
    return "" if os.path.basename(where) in row["message"] else where


def feedback_markdown(report, summary, site=None, data=None):
    """``site``: the course site's address for the § links (None: grading.sections.site_url()); ``data``: the
    report's :class:`PageData`, when several pages are made."""
    v = page_view(report, summary, data)
    lang = v["lang"]
    site = sections.site_url() if site is None else site
    out = [f"# {_md(v['title'])}", "", f"**{v['total']}**", ""]
    out += [f"> {_md(note)}" for note in v["notes"]] + ([""] if v["notes"] else [])
    if v["incomplete"]:
        out += [f"> {v['incomplete']}", ""]
    out += ["| " + " | ".join(v["head"]) + " |", "|" + "---|" * len(v["head"])]
    for r in v["graded"]:
        out.append(f"| {_md(r['exercise'] + ' · ' + r['function'])} | {r['status_word']} | "
                   f"{r['points']} / {r['max_points']} | {r['tests']} |")
    out.append("")
    for r in v["graded"]:
        out += [f"## {_md(r['heading'])}", "",
                f"{r['status_title']} · {_md(r['points_line'])}{v['stop']}{_md(r['said'])}", ""]
        for f in r["failures"]:
            out.append(f"* **{_md_linked(f['test'], lang, site)}**{f['kind']}{v['colon']}"
                       f"{_md_linked(f['text'], lang, site)}")
            if f["hint"]:
                out.append(f"  * {v['reproduce']}{v['colon']}{_with_code(f['hint'], _md_code)}")
        if r["more"]:
            out.append(f"* {_md(r['more'])}")
        if r["failures"]:
            out.append("")                                  # one blank line after a list, none twice
        out += [f"> {_with_spans(text, lambda t: _md_linked(t, lang, site), _md_code)}"
                for text in r["diagnoses"]] + ([""] if r["diagnoses"] else [])
    if v["other"]:
        out += [f"## {v['other_title']}", ""]
        out += [f"* {_md(o['where']) + v['colon'] if o['where'] else ''}{_md(o['message'])}" for o in v["other"]]
        out.append("")
    out += [f"_{v['scoring']}_", "", f"_{v['hidden_note']}_", "", f"<sub>{_md(v['footer'])}</sub>", ""]
    return "\n".join(out)


def _md(text):
    return re.sub(r"([\\`*_|<>\[\]])", r"\\\1", str(text))


def _md_linked(text, lang, site):
    """``text`` escaped for Markdown, every §N.M a link to the course site when ``site`` is known."""
    text, out, last = str(text), [], 0
    for m in sections.SECTION_REF.finditer(text):
        href = sections.section_href(m.group(1), m.group(2), lang, site) if site else None
        if href is not None:
            out += [_md(text[last:m.start()]), f"[{m.group(0)}]({href})"]
            last = m.end()
    return "".join(out) + _md(text[last:])


# -- HTML pages: Jinja2 templates in grading/templates/ (autoescape) ---------------------------

@functools.lru_cache(maxsize=None)
def _environment():
    """The templates' environment: every value escaped (html.escape, quotes too) unless it is Markup;
    filters |linked (§N.M as links to the course site), |breakable, |with_code."""
    def escaped(value):
        return value if isinstance(value, markupsafe.Markup) else markupsafe.Markup(html.escape(str(value)))

    @jinja2.pass_context
    def linked(context, text):
        return markupsafe.Markup(sections.link_sections(text, context["lang"], base=context["site"]))

    @jinja2.pass_context
    def linked_code(context, text):
        return markupsafe.Markup(_with_spans(
            text, lambda t: sections.link_sections(t, context["lang"], base=context["site"]), _html_code))

    env = jinja2.Environment(loader=jinja2.PackageLoader("grading", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, finalize=escaped, trim_blocks=True,
                             lstrip_blocks=True, keep_trailing_newline=True)
    env.filters.update(linked=linked, linked_code=linked_code, breakable=lambda name: markupsafe.Markup(_breakable(name)),
                       with_code=lambda text: markupsafe.Markup(_with_code(text, _html_code)))
    return env


def _render(template, **context):
    return _environment().get_template(template).render(**context)


def _breakable(name):
    """A function's name, escaped, that a narrow screen may break after its underscores."""
    return html.escape(name).replace("_", "_<wbr>")


_CHECK_CALL = re.compile(r"check\([^()]*\)")


def _with_code(text, code):
    """``text`` with every check(...) call it quotes set as code: ``code(call)``, the rest ``plain``."""
    out, last = [], 0
    for m in _CHECK_CALL.finditer(text):
        out += [("plain", text[last:m.start()]), ("code", m.group(0))]
        last = m.end()
    out.append(("plain", text[last:]))
    return "".join(code(part) if kind == "code" else (html.escape(part) if code is _html_code else _md(part))
                   for kind, part in out)


_CODE_SPAN = re.compile(r"`([^`]+)`")


def _with_spans(text, plain, code):
    """``text`` (a diagnosis) with its `code` spans set as code by ``code``, the rest by ``plain``."""
    out, last = [], 0
    for m in _CODE_SPAN.finditer(str(text)):
        out += [plain(text[last:m.start()]), code(m.group(1))]
        last = m.end()
    return "".join(out) + plain(str(text)[last:])


def _html_code(call):
    return f"<code>{html.escape(call)}</code>"


def _md_code(call):
    return f"`{call}`"


def feedback_html(report, summary, site=None, data=None):
    """A student's HTML page (grading/templates/feedback.html); ``site``: the course site's address for the
    § links (None: grading.sections.site_url()); ``data``: the report's :class:`PageData`, when several
    pages are made."""
    v = page_view(report, summary, data)
    return _render("feedback.html", site=sections.site_url() if site is None else site, wide=False, **v)


def _footer(grader, lang):
    """The course's version (pyproject.toml), the report's format and the tests' fingerprint (a hash of the
    specs that define the tests: --regrade and merge compare it)."""
    from ..version import package_version
    return messages.text("page_footer", lang, course=package_version(), format=grader["version"],
                         tests=grader["course"]["version"])


# status marks of the index: a sign and a word, never colour alone
MARKS = {"pass": "✓", "fail": "✗", "error": "⚠", "timeout": "◔", "missing": "–"}
UNDEFINED_MARK = "∅"    # a notebook handed in without the function: not the "–" of a notebook not handed in
FLAG_MARK = "⚑"


def class_statistics(report):
    """Per exercise and for the total: how many passed, the mean and the median points."""
    import statistics
    by_sub = {}
    for row in report["rows"]:
        by_sub.setdefault(row["submission"], {})[row["exercise"]] = row
    subs = [s["submission"] for s in report["summary"]]
    out = {}
    for i in exercise_ids(report):
        rows = [by_sub.get(s, {}).get(i) for s in subs]
        points = [r["points"] if r else 0 for r in rows]
        out[i] = {"passed": sum(1 for r in rows if r and r["status"] == "pass"), "of": len(subs),
                  "mean": statistics.fmean(points) if points else 0.0,
                  "median": statistics.median(points) if points else 0.0}
    totals = [s["points"] for s in report["summary"]]
    out["total"] = {"passed": sum(1 for s in report["summary"] if s["points"] == s["max_points"] and s["max_points"]),
                    "of": len(subs), "mean": statistics.fmean(totals) if totals else 0.0,
                    "median": statistics.median(totals) if totals else 0.0}
    return out


def _stat(x, lang=None):
    """A class's mean or median, to one decimal, as ``lang`` writes it (2.5 / 2,5)."""
    text = f"{x:.1f}".rstrip("0").rstrip(".") if x == x else ""
    return localise_numbers(text, lang) if lang else text


def histogram_png(report, path, lang="en"):
    """A histogram of the totals (matplotlib, Agg), one bar per point; False when matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg", force=True)
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    totals = [s["points"] for s in report["summary"]]
    top = max([s["max_points"] for s in report["summary"]] + [1])
    # 660 x 390 pixels shown 440 px wide (index.html): 11 pt text stays 10 px high or more down to a 360 px phone
    fig, ax = plt.subplots(figsize=(4.4, 2.6), dpi=150)
    try:
        edges = [x - 0.5 for x in range(0, int(top) + 2)]
        ax.hist(totals, bins=edges, color="#4477aa", edgecolor="white")
        ax.set_xlim(-0.5, top + 0.5)
        ax.set_xlabel(messages.text("page_points", lang), fontsize=11)
        ax.set_ylabel(messages.text("index_students", lang), fontsize=11)
        ax.set_title(messages.text("index_histogram", lang), fontsize=12)
        ax.tick_params(labelsize=11)
        ax.yaxis.get_major_locator().set_params(integer=True)
        fig.tight_layout()
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None})
    finally:
        plt.close(fig)
    atomic_write(path, buf.getvalue())
    return True


def index_html(report, lang="en", histogram=None):
    """The instructor's page (grading/templates/index.html): one row per student (name, total, flags, pages,
    language, one column per exercise with a sign and the points), the maximum of every column, the class's
    pass rates, mean and median, a legend, the histogram of totals when one was drawn, the known mistakes."""
    g = report["grader"]
    ids, maxima, titles = exercise_ids(report), _maxima(report), _titles(report)
    by_sub = {}
    for row in report["rows"]:
        by_sub.setdefault(row["submission"], {})[row["exercise"]] = row
    names = display_names(report)
    students = []
    for s in report["summary"]:
        cells = []
        for i in ids:
            r = by_sub.get(s["submission"], {}).get(i)
            cells.append(None if r is None else {
                "status": r["status"], "word": _status(r["status"], lang, row=r), "title": _tooltip(r, lang),
                "mark": (UNDEFINED_MARK if _undefined(r["status"], r) else MARKS.get(r["status"], "?"))
                + (FLAG_MARK if r.get("duplicates") else ""),
                "points": _num(r["points"], lang)})
        students.append({"name": names[s["submission"]], "points": _num(s["points"], lang),
                         "max_points": _num(s["max_points"], lang), "lang": s.get("lang", ""), "cells": cells,
                         "flags": "; ".join(messages.text(f"flag_{f}", lang) for f in s.get("flags", [])),
                         "page": page_name(names[s["submission"]], s["submission"])})
    stats = class_statistics(report)
    rows = []
    for key, fmt in (("index_pass_rate", lambda st: f"{st['passed']}/{st['of']}"),
                     ("index_mean", lambda st: _stat(st["mean"], lang)),
                     ("index_median", lambda st: _stat(st["median"], lang))):
        rows.append({"label": messages.text(key, lang), "total": fmt(stats["total"]),
                     "cells": [fmt(stats[i]) for i in ids]})
    iso = g.get("isolation", {}) if isinstance(g.get("isolation"), dict) else {}
    return _render(
        "index.html", lang=lang, site="", wide=True, title=messages.text("index_title", lang),
        legend_title=messages.text("index_legend", lang), flag_mark=FLAG_MARK,
        flag_word=messages.text("flag_duplicates", lang),
        legend=[{"status": k, "mark": MARKS[k], "word": _status(k, lang)} for k in STATUS_ORDER]
        + [{"status": "missing", "mark": UNDEFINED_MARK, "word": messages.text("status_undefined", lang)}],
        fixed=[messages.text(k, lang) for k in ("index_submission", "page_points", "index_flags", "index_pages",
                                                "index_language")],
        exercises=[{"id": i, "title": titles.get(i, {}).get(lang, ""), "max": _num(maxima[i], lang)} for i in ids],
        max_word=messages.text("index_max", lang), total_max=_num(sum(maxima.values()), lang), students=students,
        stats=rows, histogram=histogram or "", histogram_alt=messages.text("index_histogram", lang),
        incomplete="" if g.get("complete", True) else messages.text("page_incomplete", lang),
        diagnoses=class_diagnoses(report, lang), diagnoses_title=messages.text("index_diagnoses", lang),
        isolation_title=messages.text("index_isolation", lang),
        isolation={"mode": _isolation_value(iso.get("mode"), lang),
                   "cgroups": _isolation_value(iso.get("cgroups"), lang)},
        isolation_cgroups=_isolation_label("cgroups", lang), colon=_colon(lang),
        isolation_items=[(_isolation_label(k, lang), _isolation_value(v, lang)) for k, v in iso.items()
                         if v not in (None, "")],
        footer=_footer(g, lang))


def _tooltip(row, lang):
    """An index cell's tooltip: the status word, the tests passed, then the row's message without its counts
    and without the word "passed" it may begin with ("passed (10/10)", "failed (3/13): the row sums ...")."""
    message = row["message"]
    counts = re.match(r"^\[(\d+/\d+)\]\s*", message)
    if counts:
        message = message[counts.end():]
    word = messages.text("passed", lang)
    if message.startswith(word):
        message = message[len(word):].strip()
    head = _status(row["status"], lang, row=row) + (messages.text("aside", lang, text=counts.group(1)) if counts else "")
    return f"{head}{_colon(lang)}{message}" if message else head


def _isolation_label(key, lang):
    """A key of the report's isolation record in the page's language (the key itself if it has no label)."""
    return messages.text("isolation_" + key, lang) if "isolation_" + key in messages.MESSAGES else key


def _isolation_value(value, lang):
    """A value of the isolation record: lists joined, None (nothing of the kind) said in words."""
    if value is None or value == []:
        return messages.text("isolation_not_used", lang)
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


MANIFEST = ".grading-pages.json"             # the files the grader wrote into a feedback folder


class Written(list):
    """The files :func:`write_feedback` wrote, with the stale ones it removed (``removed``) and what it left
    and why (``warnings``)."""

    def __init__(self):
        super().__init__()
        self.removed, self.warnings = [], []


def write_feedback(report, folder, lang="en"):
    """Every submission's HTML and Markdown page, and index.html.  The folder's manifest lists every file the
    grader wrote there; a page of an earlier run that this index no longer links is removed when the manifest
    says the grader wrote it (never anything else; a shard keeps what the others wrote), and named in a
    warning when it does not."""
    site = sections.site_url()
    folder = pathlib.Path(folder)
    done = Written()
    data = PageData(report)              # read from the whole report once, not once per page
    names = data.names
    for summary in report["summary"]:
        name = page_name(names[summary["submission"]], summary["submission"])
        for suffix, text in ((".html", feedback_html(report, summary, site, data)),
                             (".md", feedback_markdown(report, summary, site, data))):
            atomic_write(folder / f"{name}{suffix}", text)
            done.append(folder / f"{name}{suffix}")
    histogram = "totals.png" if report["summary"] and histogram_png(report, folder / "totals.png", lang) else None
    if histogram:
        done.append(folder / "totals.png")
    atomic_write(folder / "index.html", index_html(report, lang, histogram))
    done.append(folder / "index.html")
    _clean_stale(folder, {p.name for p in done}, keep_old=bool(report["grader"].get("shard")), done=done)
    return done


def _is_page(name):
    return "/" not in name and not name.startswith(".") and name.endswith((".html", ".md", ".png"))


def _clean_stale(folder, written, keep_old, done):
    try:
        recorded = json.loads((folder / MANIFEST).read_text(encoding="utf-8")).get("written", [])
        recorded = {n for n in recorded if isinstance(n, str) and _is_page(n)}
    except (OSError, ValueError, AttributeError):
        recorded = set()
    stale = sorted(recorded - written)
    if keep_old:
        written = written | set(stale)             # a shard's pages sit beside the other shards'
    else:
        for name in stale:
            path = folder / name
            try:
                if stat.S_ISREG(os.lstat(path).st_mode):
                    os.unlink(path)
                    done.removed.append(path)
            except OSError:
                pass
    if done.removed:
        done.warnings.append(f"{folder}: removed {len(done.removed)} page(s) an earlier run wrote that this index no "
                             f"longer links ({', '.join(p.name for p in done.removed[:5])}"
                             f"{', ...' if len(done.removed) > 5 else ''})")
    unknown = sorted(p.name for p in folder.iterdir() if _is_page(p.name) and p.name not in written | recorded)
    if unknown:
        done.warnings.append(f"{folder}: {len(unknown)} page(s) that this run did not write and that are not in the "
                             f"folder's record of the grader's files were left as they are "
                             f"({', '.join(unknown[:5])}{', ...' if len(unknown) > 5 else ''}); remove them, or give "
                             "--feedback a folder of its own")
    atomic_write(folder / MANIFEST, json.dumps({"written": sorted(written)}, indent=1) + "\n")


# -- known mistakes (grading.diagnoses) and how points are earned ------------------------------

def _diagnosis_texts(row):
    """The diagnosis sentences of a row's feedback (the grader adds one when a known mistake explains it)."""
    return [f["text"] for f in row.get("feedback", []) if f.get("diagnosis")]


def _scoring_note(report, lang):
    partial = (report["grader"].get("options") or {}).get("partial")
    return messages.text("page_scoring_partial" if partial else "page_scoring", lang)


def class_diagnoses(report, lang="en"):
    """How many students made each known mistake, most frequent first within an exercise (registry order):
    [{"exercise", "mistake" (its id), "what" (a few words in ``lang``), "count", "graded" (submissions
    graded on the exercise), "text" (the sentence the index, the terminal and the JSON report show)}]."""
    graded, counts = {}, {}
    for row in report["rows"]:
        if row["exercise"] == "-" or row["status"] == "missing" or not row.get("cases_total"):
            continue                        # graded on it: its tests ran (not a damaged or missing notebook)
        graded[row["exercise"]] = graded.get(row["exercise"], 0) + 1
        if row.get("diagnosis"):
            key = (row["exercise"], row["diagnosis"])
            counts[key] = counts.get(key, 0) + 1
    out = []
    for exercise in exercise_ids(report):
        found = sorted(((n, d) for (x, d), n in counts.items() if x == exercise), key=lambda p: -p[0])
        for n, mistake_id in found:
            what = _mistake_name(mistake_id, lang)
            out.append({"exercise": exercise, "mistake": mistake_id, "what": what, "count": n,
                        "graded": graded.get(exercise, 0),
                        "text": messages.text("index_diagnosis", lang, id=exercise, count=n,
                                              total=graded.get(exercise, 0), what=what)})
    return out


def _mistake_name(mistake_id, lang):
    """A few words in ``lang`` for a known mistake (its id when this course no longer knows it)."""
    from .. import diagnoses
    mistake = diagnoses.mistake_by_id(mistake_id) if mistake_id else None
    return diagnoses.short_name(mistake, lang) if mistake is not None else (mistake_id or "")


def class_diagnoses_text(report, lang="en"):
    """The class's known mistakes for the terminal, after the summary table ("" when there are none)."""
    found = class_diagnoses(report, lang)
    if not found:
        return ""
    return messages.text("index_diagnoses", lang) + _colon(lang).rstrip() + "\n" + "".join(
        f"  {d['text']}\n" for d in found)


DIAGNOSES_CSV_COLUMNS = ("exercise", "mistake", "what", "students", "graded")


def to_diagnoses_csv(report, lang="en"):
    """The class's known mistakes, one row each: exercise, mistake id, what it is (in ``lang``), how many
    students made it, of how many graded on the exercise."""
    return _csv([DIAGNOSES_CSV_COLUMNS] + [[d["exercise"], d["mistake"], d["what"], d["count"], d["graded"]]
                                           for d in class_diagnoses(report, lang)])
