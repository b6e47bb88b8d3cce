"""What a batch produces: the JSON report (everything), the long CSV (one row per
submission and exercise), the wide CSV (one row per student, one column per
exercise), Gradescope's ``results.json``, and the feedback pages (one HTML and
one Markdown page per submission, in its language, and an index for the
instructor).

Every file is written atomically (a temporary file in the same folder, then
``os.replace``), so a reader never sees half a report.  Nothing written here
depends on the clock or on the order in which kernels finished: the same
submissions graded with the same seed give byte-identical files, except the
JSON report's ``timing`` section, which holds every duration and timestamp, and
the ``execution_time`` of Gradescope's results (seconds, which Gradescope asks for).
The histogram of totals (matplotlib, Agg, no timestamp in the PNG) is
byte-identical too for the same report and matplotlib version.
"""

import csv
import hashlib
import html
import io
import json
import os
import pathlib
import re
import tempfile

from course_i18n import LANGUAGES

from .. import messages

CSV_COLUMNS = ("submission", "exercise", "function", "status", "points", "max_points", "cases_passed",
               "cases_total", "notebook", "lang", "message")
STATUS_ORDER = ("pass", "fail", "error", "timeout", "missing")


def summarize(submission, rows, lang="en"):
    counts = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return {
        "submission": submission,
        "points": sum(r["points"] for r in rows),
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


def atomic_write(path, text):
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def to_json(report):
    return json.dumps(report, ensure_ascii=False, indent=1, allow_nan=False) + "\n"


def to_csv(rows):
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, extrasaction="ignore", lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: row.get(k, "") for k in CSV_COLUMNS})
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


def _num(x):
    return format(x, "g")


def _csv(rows):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerows(rows)
    return buf.getvalue()


def to_wide_csv(report):
    """The gradebook, one row per student: the name the pages show, the LMS id when known
    (``--student-pattern``), points per exercise (in registry order), the total and the flags
    (duplicates, ambiguous, late).  Every points column names its maximum in the header, e.g.
    ``mask-1 (max 3)``, so the file also imports into Moodle's gradebook as it is."""
    ids, maxima = exercise_ids(report), _maxima(report)
    by_sub, names = _points_by_student(report), display_names(report)
    total = sum(maxima.values())
    late = _late_columns(report)
    rows = [["student", "id", *(f"{i} (max {_num(maxima[i])})" for i in ids), f"total (max {_num(total)})", "flags",
             *late(None)]]
    for s in report["summary"]:
        points = by_sub.get(s["submission"], {})
        rows.append([names[s["submission"]], s.get("student_id", ""), *(_num(points.get(i, 0)) for i in ids),
                     _num(s["points"]), " ".join(s.get("flags", [])), *late(s)])
    return _csv(rows)


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


def to_totals_csv(report):
    """One row per student: name, LMS id, total, flags; the maximum in the total's header."""
    total = sum(_maxima(report).values())
    names = display_names(report)
    late = _late_columns(report)
    rows = [["student", "id", f"total (max {_num(total)})", "flags", *late(None)]]
    rows += [[names[s["submission"]], s.get("student_id", ""), _num(s["points"]), " ".join(s.get("flags", [])),
              *late(s)] for s in report["summary"]]
    return _csv(rows)


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


def to_moodle_csv(report):
    """Moodle's offline grading worksheet of one assignment (Assignment → "Upload grading worksheet"):
    the columns its importer reads, "Identifier" ("Participant <id>", the id in the folder names of
    Moodle's "Download all submissions", see ``--student-pattern moodle``), "Grade" and
    "Last modified (grade)", plus the full name and the maximum for the reader.  Rows without an
    id are written with an empty Identifier: Moodle skips them."""
    total = sum(_maxima(report).values())
    names = display_names(report)
    rows = [["Identifier", "Full name", "Grade", "Maximum Grade", "Last modified (grade)"]]
    for s in report["summary"]:
        ident = f"Participant {s['student_id']}" if s.get("student_id") else ""
        rows.append([ident, names[s["submission"]], _num(s["points"]), _num(total), ""])
    return _csv(rows)


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
        title = titles.get(row["exercise"], {}).get(lang, "")
        where = _relative(row["notebook"], summary["submission"]) if row["notebook"] else ""
        name = f"{row['exercise']} · {row['function']}" + (f" — {title}" if title else "") if row["function"] \
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
        "output": messages.text("page_total", lang, points=f"{summary['points']:g}",
                                max_points=f"{summary['max_points']:g}"),
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
    return {"grader": g.get("version"), "course": g.get("course", {}).get("version"), "seed": g.get("seed"),
            "exercises": exercise_ids(report),
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


def _status(status, lang, capital=False):
    text = messages.text(f"status_{status}", lang)
    return text[:1].upper() + text[1:] if capital else text


def _points_line(row, lang):
    text = messages.text("page_row_points", lang, points=format(row["points"], "g"),
                         max_points=format(row["max_points"], "g"))
    if row["cases_total"]:
        text += " · " + messages.text("page_row_tests", lang, passed=row["cases_passed"], total=row["cases_total"])
    if row.get("groups"):
        text += " · " + messages.text("page_row_groups", lang, passed=row["groups"][0], total=row["groups"][1])
    return text


def _stop(lang):
    return "。" if lang == "zh" else "."


def _colon(lang):
    return "：" if lang == "zh" else ": "


def _parenthesised(text, lang):
    return f"（{text}）" if lang == "zh" else f" ({text})"


def _sentence(message, lang):
    """A row's message as a sentence of its own: without the [p/t] counts, capitalised, with its
    full stop, and after the sentence before it (a space, but none between Chinese sentences)."""
    text = re.sub(r"^\[\d+/\d+\]\s*", "", message).strip()
    if not text:
        return ""
    text = text[:1].upper() + text[1:]
    if text[-1] not in ".!?。！？…":
        text += _stop(lang)
    return text if lang == "zh" else " " + text


def _exercise_heading(row, titles, lang):
    title = titles.get(row["exercise"], {}).get(lang, "")
    return f"{row['exercise']} · {row['function']}" + (f" — {title}" if title else "")


def feedback_markdown(report, summary):
    lang = summary.get("lang", "en")
    rows = _rows_of(report).get(summary["submission"], [])
    titles = _titles(report)
    g = report["grader"]
    total = messages.text("page_total", lang, points=format(summary["points"], "g"),
                          max_points=format(summary["max_points"], "g"))
    name = display_names(report)[summary["submission"]]
    out = [f"# {_md(messages.text('page_title', lang, submission=name))}", "", f"**{total}**", ""]
    if not g.get("complete", True):
        out += [f"> {messages.text('page_incomplete', lang)}", ""]
    cols = [messages.text(k, lang) for k in ("page_exercise", "page_status", "page_points", "page_tests")]
    out += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    graded = [r for r in rows if r["function"]]
    for r in graded:
        out.append(f"| {_md(r['exercise'] + ' · ' + r['function'])} | {_status(r['status'], lang)} | "
                   f"{r['points']:g} / {r['max_points']:g} | {r['cases_passed']} / {r['cases_total']} |")
    out.append("")
    for r in graded:
        listed = [f for f in r.get("feedback", []) if f.get("test")]
        said = "" if listed or r["status"] == "pass" else _md(_sentence(r["message"], lang))
        out += [f"## {_md(_exercise_heading(r, titles, lang))}", "",
                f"{_status(r['status'], lang, True)} · {_md(_points_line(r, lang))}{_stop(lang)}{said}", ""]
        for f in listed:
            kind = messages.text("page_hidden" if f.get("hidden") else "page_public", lang)
            out.append(f"* **{_md(f['test'])}**{_parenthesised(kind, lang)}{_colon(lang)}{_md(f['text'])}")
            if f.get("hint"):
                out.append(f"  * {messages.text('page_reproduce', lang)}{_colon(lang)}{_with_code(f['hint'], _md_code)}")
        if listed:
            out.append("")                                  # one blank line after a list, none twice
        out += [f"> {_md(text)}" for text in _diagnosis_texts(r)] + ([""] if _diagnosis_texts(r) else [])
    other = [r for r in rows if not r["function"]]
    if other:
        out += [f"## {messages.text('page_other', lang)}", ""]
        out += [f"* {_md(r['notebook'] or name)}{_colon(lang)}{_md(r['message'])}" for r in other]
        out.append("")
    out += [f"_{_scoring_note(report, lang)}_", "", f"_{messages.text('page_hidden_note', lang)}_", "",
            f"<sub>{_md(messages.text('page_footer', lang, version=g['version'], course=g['course']['version'], seed=g['seed']))}</sub>", ""]
    return "\n".join(out)


def _md(text):
    return re.sub(r"([\\`*_|<>\[\]])", r"\\\1", str(text))


_CSS = """
:root { color-scheme: light dark; --fg: #1b1b1b; --bg: #ffffff; --muted: #5f6368; --line: #d0d7de;
        --pass: #1a7f37; --fail: #b42318; --warn: #9a6700; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6e6e6; --bg: #15171a; --muted: #a0a4a8; --line: #3a3f44;
        --pass: #4ac26b; --fail: #ff7b72; --warn: #d29922; } }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", sans-serif;
       color: var(--fg); background: var(--bg); max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1 { font-size: 1.6rem; overflow-wrap: anywhere; } h2 { font-size: 1.2rem; margin-top: 2rem; overflow-wrap: anywhere; }
.table { overflow-x: auto; } table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .35rem .6rem; text-align: left; vertical-align: top; }
th, td:nth-child(3), td:nth-child(4) { white-space: nowrap; } details { margin: 1rem 0; } summary { cursor: pointer; }
.pass { color: var(--pass); } .fail, .error { color: var(--fail); } .timeout, .missing { color: var(--warn); }
.muted, footer { color: var(--muted); font-size: .9rem; } code { font-size: .95em; overflow-wrap: anywhere; }
li { margin: .3rem 0; overflow-wrap: anywhere; } body.wide { max-width: none; margin: 1rem; }
.legend ul { display: flex; flex-wrap: wrap; gap: .3rem 1.2rem; list-style: none; padding: 0; margin: .3rem 0 1rem; }
table.index td, table.index th { white-space: nowrap; } tr.max td, tr.max th, tfoot td, tfoot th { color: var(--muted); }
tfoot tr:first-child td, tfoot tr:first-child th { border-top: 2px solid var(--line); }
figure { margin: 1.5rem 0; } figure img { max-width: 100%; height: auto; }
td.status { white-space: nowrap; }
.diagnosis { border-left: 3px solid var(--warn); padding-left: .6rem; }
@media (max-width: 36rem) { body { margin: 1rem auto; font-size: 15px; } th, td { padding: .3rem .35rem; }
        .feedback th:nth-child(4), .feedback td:nth-child(4) { display: none; } }
"""


def _page(lang, title, body, wide=False):
    return (f'<!DOCTYPE html>\n<html lang="{html.escape(lang)}">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n<style>{_CSS}</style>\n</head>\n"
            + ('<body class="wide">' if wide else "<body>") + f"\n{body}\n</body>\n</html>\n")


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


def _html_code(call):
    return f"<code>{html.escape(call)}</code>"


def _md_code(call):
    return f"`{call}`"


def feedback_html(report, summary):
    lang = summary.get("lang", "en")
    rows = _rows_of(report).get(summary["submission"], [])
    titles = _titles(report)
    g = report["grader"]
    e = html.escape
    name = display_names(report)[summary["submission"]]
    title = messages.text("page_title", lang, submission=name)
    parts = [f"<h1>{e(title)}</h1>",
             f"<p><strong>{e(messages.text('page_total', lang, points=format(summary['points'], 'g'), max_points=format(summary['max_points'], 'g')))}</strong></p>"]
    if not g.get("complete", True):
        parts.append(f"<p class=\"warn\">{e(messages.text('page_incomplete', lang))}</p>")
    graded = [r for r in rows if r["function"]]
    head = "".join(f"<th>{e(messages.text(k, lang))}</th>" for k in ("page_exercise", "page_status", "page_points",
                                                                     "page_tests"))
    body_rows = "".join(
        f"<tr><td><a href=\"#{e(r['exercise'])}\">{e(r['exercise'])} · <code>{_breakable(r['function'])}</code></a></td>"
        f"<td class=\"status {e(r['status'])}\">{e(_status(r['status'], lang))}</td>"
        f"<td>{r['points']:g} / {r['max_points']:g}</td><td>{r['cases_passed']} / {r['cases_total']}</td></tr>"
        for r in graded)
    parts.append(f"<div class=\"table\"><table class=\"feedback\"><thead><tr>{head}</tr></thead>"
                 f"<tbody>{body_rows}</tbody></table></div>")
    for r in graded:
        items = []
        for f in r.get("feedback", []):
            if not f.get("test"):
                continue
            kind = messages.text("page_hidden" if f.get("hidden") else "page_public", lang)
            hint = f"<br><span class=\"muted\">{e(messages.text('page_reproduce', lang))}{_colon(lang)}" \
                   f"{_with_code(f['hint'], _html_code)}</span>" if f.get("hint") else ""
            items.append(f"<li><strong>{e(f['test'])}</strong><span class=\"muted\">{e(_parenthesised(kind, lang))}"
                         f"</span>{_colon(lang)}{e(f['text'])}{hint}</li>")
        listing = f"<ul>{''.join(items)}</ul>" if items else ""
        said = "" if items or r["status"] == "pass" else e(_sentence(r["message"], lang))
        parts.append(f"<h2 id=\"{e(r['exercise'])}\">{e(_exercise_heading(r, titles, lang))}</h2>"
                     f"<p><span class=\"{e(r['status'])}\">{e(_status(r['status'], lang, True))}</span> · "
                     f"{e(_points_line(r, lang))}{_stop(lang)}{said}</p>{listing}"
                     + "".join(f"<p class=\"diagnosis\">{e(text)}</p>" for text in _diagnosis_texts(r)))
    other = [r for r in rows if not r["function"]]
    if other:
        parts.append(f"<h2>{e(messages.text('page_other', lang))}</h2><ul>" + "".join(
            f"<li>{e(r['notebook'] or name)}{_colon(lang)}{e(r['message'])}</li>" for r in other) + "</ul>")
    parts.append(f"<p class=\"muted\">{e(_scoring_note(report, lang))}</p>")
    parts.append(f"<p class=\"muted\">{e(messages.text('page_hidden_note', lang))}</p>")
    parts.append(f"<footer>{e(messages.text('page_footer', lang, version=g['version'], course=g['course']['version'], seed=g['seed']))}</footer>")
    return _page(lang, title, "\n".join(parts))


# status marks of the index: a sign and a word, never colour alone
MARKS = {"pass": "✓", "fail": "✗", "error": "⚠", "timeout": "◔", "missing": "–"}
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


def _stat(x):
    return f"{x:.1f}".rstrip("0").rstrip(".") if x == x else ""


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
    fig, ax = plt.subplots(figsize=(6.4, 3.2), dpi=100)
    try:
        edges = [x - 0.5 for x in range(0, int(top) + 2)]
        ax.hist(totals, bins=edges, color="#4477aa", edgecolor="white")
        ax.set_xlim(-0.5, top + 0.5)
        ax.set_xlabel(messages.text("page_points", lang))
        ax.set_ylabel(messages.text("index_students", lang))
        ax.set_title(messages.text("index_histogram", lang))
        ax.yaxis.get_major_locator().set_params(integer=True)
        fig.tight_layout()
        path = pathlib.Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        fig.savefig(buf, format="png", metadata={"Software": None})
    finally:
        plt.close(fig)
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_bytes(buf.getvalue())
    os.replace(tmp, path)
    return True


def index_html(report, lang="en", histogram=None):
    """The instructor's page: one row per student (name, total, flags, pages, language, one column per
    exercise with a sign and the points), the maximum of every column, the class's pass rates, mean
    and median, a legend, and the histogram of totals when one was drawn."""
    e = html.escape
    g = report["grader"]
    ids = exercise_ids(report)
    maxima = _maxima(report)
    title = messages.text("index_title", lang)
    titles = _titles(report)
    # what an instructor looks for first (who, the total, the page to send) before one column per exercise
    fixed = [messages.text(k, lang) for k in ("index_submission", "page_points", "index_flags", "index_pages",
                                              "index_language")]
    head = "".join(f"<th>{e(x)}</th>" for x in fixed) + "".join(
        f"<th title=\"{e(titles.get(i, {}).get(lang, ''))}\">{e(i)}</th>" for i in ids)
    total_max = sum(maxima.values())
    max_row = (f"<tr class=\"max\"><th scope=\"row\">{e(messages.text('index_max', lang))}</th>"
               f"<td class=\"status\">{_num(total_max)}</td><td></td><td></td><td></td>"
               + "".join(f"<td>{_num(maxima[i])}</td>" for i in ids) + "</tr>")
    by_sub = {}
    for row in report["rows"]:
        by_sub.setdefault(row["submission"], {})[row["exercise"]] = row
    lines = []
    names = display_names(report)
    for s in report["summary"]:
        cells = []
        for i in ids:
            r = by_sub.get(s["submission"], {}).get(i)
            if r is None:
                cells.append("<td></td>")
                continue
            mark = MARKS.get(r["status"], "?") + (FLAG_MARK if r.get("duplicates") else "")
            word = _status(r["status"], lang)
            cells.append(f"<td class=\"{e(r['status'])}\" title=\"{e(word)}: {e(r['message'])}\">"
                         f"<span aria-label=\"{e(word)}\">{mark}</span> {r['points']:g}</td>")
        name = page_name(names[s["submission"]], s["submission"])
        flag_text = "; ".join(messages.text(f"flag_{f}", lang) for f in s.get("flags", []))
        flag_cell = f"{FLAG_MARK} {e(flag_text)}" if flag_text else ""
        lines.append(f"<tr><td title=\"{e(names[s['submission']])}\">{e(names[s['submission']])}</td>"
                     f"<td class=\"status\">{s['points']:g} / {s['max_points']:g}</td>"
                     f"<td class=\"flags\">{flag_cell}</td>"
                     f"<td class=\"status\"><a href=\"{e(name)}.html\">HTML</a> · <a href=\"{e(name)}.md\">Markdown</a></td>"
                     f"<td>{e(s.get('lang', ''))}</td>{''.join(cells)}</tr>")
    stats = class_statistics(report)
    foot = []
    for key, fmt in (("index_pass_rate", lambda st: f"{st['passed']}/{st['of']}"),
                     ("index_mean", lambda st: _stat(st["mean"])), ("index_median", lambda st: _stat(st["median"]))):
        foot.append(f"<tr class=\"stats\"><th scope=\"row\">{e(messages.text(key, lang))}</th>"
                    f"<td class=\"status\">{e(fmt(stats['total']))}</td><td></td><td></td><td></td>"
                    + "".join(f"<td>{e(fmt(stats[i]))}</td>" for i in ids) + "</tr>")
    legend = "".join(f"<li><span class=\"{k}\">{MARKS[k]}</span> {e(_status(k, lang))}</li>" for k in STATUS_ORDER)
    legend += f"<li>{FLAG_MARK} {e(messages.text('flag_duplicates', lang))}</li>"
    iso = g.get("isolation", {}) if isinstance(g.get("isolation"), dict) else {}
    iso_items = "".join(f"<li>{e(k)}: {e(', '.join(v) if isinstance(v, list) else str(v))}</li>"
                        for k, v in iso.items() if v not in (None, ""))
    figure = (f"<figure><img src=\"{e(histogram)}\" alt=\"{e(messages.text('index_histogram', lang))}\" "
              f"width=\"640\" height=\"320\"></figure>" if histogram else "")
    body = (f"<h1>{e(title)}</h1>\n"
            f"<div class=\"legend\"><strong>{e(messages.text('index_legend', lang))}</strong><ul>{legend}</ul></div>\n"
            f"<div class=\"table\"><table class=\"index\"><thead><tr>{head}</tr>{max_row}</thead><tbody>"
            + "".join(lines) + f"</tbody><tfoot>{''.join(foot)}</tfoot></table></div>\n" + figure
            + (f"<p class=\"warn\">{e(messages.text('page_incomplete', lang))}</p>" if not g.get("complete", True) else "")
            + _class_diagnoses_html(report, lang)
            + f"<details class=\"muted\"><summary>{e(messages.text('index_isolation', lang))}: "
              f"{e(str(iso.get('mode')))}, cgroups {e(str(iso.get('cgroups')))}</summary><ul>{iso_items}</ul></details>"
            + f"<footer>{e(messages.text('page_footer', lang, version=g['version'], course=g['course']['version'], seed=g['seed']))}</footer>")
    return _page(lang, title, body, wide=True)


def write_feedback(report, folder, lang="en"):
    """Every submission's HTML and Markdown page, and index.html; returns the paths written."""
    folder = pathlib.Path(folder)
    written = []
    names = display_names(report)
    for summary in report["summary"]:
        name = page_name(names[summary["submission"]], summary["submission"])
        for suffix, text in ((".html", feedback_html(report, summary)), (".md", feedback_markdown(report, summary))):
            atomic_write(folder / f"{name}{suffix}", text)
            written.append(folder / f"{name}{suffix}")
    histogram = "totals.png" if report["summary"] and histogram_png(report, folder / "totals.png", lang) else None
    if histogram:
        written.append(folder / "totals.png")
    atomic_write(folder / "index.html", index_html(report, lang, histogram))
    written.append(folder / "index.html")
    return written


# -- known mistakes (grading.diagnoses) and how points are earned ------------------------------

def _diagnosis_texts(row):
    """The diagnosis sentences of a row's feedback (the grader adds one when a known mistake explains it)."""
    return [f["text"] for f in row.get("feedback", []) if f.get("diagnosis")]


def _scoring_note(report, lang):
    partial = (report["grader"].get("options") or {}).get("partial")
    return messages.text("page_scoring_partial" if partial else "page_scoring", lang)


def class_diagnoses(report, lang="en"):
    """[(exercise id, count, graded submissions, what the mistake is)] for the instructor: how many students
    made each known mistake, most frequent first within an exercise."""
    from .. import diagnoses
    graded, counts = {}, {}
    for row in report["rows"]:
        if row["exercise"] == "-" or row["status"] == "missing":
            continue
        graded[row["exercise"]] = graded.get(row["exercise"], 0) + 1
        if row.get("diagnosis"):
            key = (row["exercise"], row["diagnosis"])
            counts[key] = counts.get(key, 0) + 1
    out = []
    for exercise in exercise_ids(report):
        found = sorted(((n, d) for (x, d), n in counts.items() if x == exercise), key=lambda p: -p[0])
        for n, mistake_id in found:
            mistake = diagnoses.mistake_by_id(mistake_id)
            what = diagnoses.short_name(mistake, lang) if mistake is not None else mistake_id
            out.append((exercise, n, graded.get(exercise, 0), what))
    return out


def _class_diagnoses_html(report, lang):
    found = class_diagnoses(report, lang)
    if not found:
        return ""
    e = html.escape
    items = "".join(f"<li>{e(messages.text('index_diagnosis', lang, id=x, count=n, total=total, what=what))}</li>"
                    for x, n, total, what in found)
    return f"<h2>{e(messages.text('index_diagnoses', lang))}</h2><ul>{items}</ul>"
