"""The grading report: JSON (everything) and CSV (one row per submission and
exercise), each written atomically (temporary file in the same folder, then
``os.replace``), so a reader never sees half a report."""

import csv
import io
import json
import os
import pathlib
import tempfile

CSV_COLUMNS = ("submission", "exercise", "function", "status", "points", "max_points", "cases_passed",
               "cases_total", "seconds", "notebook", "message")


def summarize(submission, rows, seconds):
    counts = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    return {
        "submission": submission,
        "points": sum(r["points"] for r in rows),
        "max_points": sum(r["max_points"] for r in rows),
        "counts": counts,
        "notebooks": sorted({r["notebook"] for r in rows if r["notebook"]}),
        "seconds": round(seconds, 3),
    }


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


def summary_table(summaries):
    """A plain-text table for the terminal."""
    if not summaries:
        return "no submissions\n"
    width = min(60, max(len(s["submission"]) for s in summaries))
    lines = [f"{'submission':<{width}}  points  " + "  ".join(f"{k:>7}" for k in ("pass", "fail", "error", "timeout", "missing"))]
    for s in summaries:
        name = s["submission"] if len(s["submission"]) <= width else "…" + s["submission"][-(width - 1):]
        pts = f"{s['points']:g}/{s['max_points']:g}"
        lines.append(f"{name:<{width}}  {pts:>6}  " + "  ".join(f"{s['counts'].get(k, 0):>7}"
                                                                for k in ("pass", "fail", "error", "timeout", "missing")))
    return "\n".join(lines) + "\n"
