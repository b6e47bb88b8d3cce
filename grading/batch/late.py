"""``--deadline``: when each submission was handed in, and whether that was late.

The time handed in is, in order: the latest ``timestamp.txt`` in the
submission's folder (what nbgrader's ``collect`` writes, e.g.
``2026-12-01 23:41:07.123456 UTC`` or with a zone name such as
``Europe/Moscow``), else the latest modification time of its notebooks.
Lateness is a flag and a number of hours in the report and the gradebooks;
points change only with ``--late-penalty``, and then in every exercise's row, so
that every gradebook column (Canvas's per-exercise import too) and the total
carry it.
"""

import datetime
import math
import os
import re
import zoneinfo

_STAMP = re.compile(r"^\s*(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(\S*)\s*$")


def parse_deadline(text):
    """An ISO date-time (``2026-12-01T23:59``, ``2026-12-01 23:59+03:00``); no zone means UTC."""
    try:
        when = datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"--deadline takes an ISO date and time such as 2026-12-01T23:59 or "
                         f"2026-12-01T23:59+03:00, got {text!r}") from None
    return when if when.tzinfo else when.replace(tzinfo=datetime.timezone.utc)


def parse_timestamp(text):
    """nbgrader's timestamp.txt; None when it cannot be read."""
    match = _STAMP.match(text[:200])
    if not match:
        return None
    day, clock, zone = match.groups()
    try:
        when = datetime.datetime.fromisoformat(f"{day}T{clock}")
    except ValueError:
        return None
    if not zone or zone.upper() in ("UTC", "Z", "GMT"):
        return when.replace(tzinfo=datetime.timezone.utc)
    try:
        if re.fullmatch(r"[+-]\d{2}:?\d{2}", zone):
            return datetime.datetime.fromisoformat(f"{day}T{clock}{zone}")
        return when.replace(tzinfo=zoneinfo.ZoneInfo(zone))
    except (ValueError, zoneinfo.ZoneInfoNotFoundError):
        return None


def handed_in(folder, notebooks):
    """(time, source) for one submission: "timestamp.txt" or "file time"; (None, None) if unknown."""
    stamps = []
    if folder and os.path.isdir(folder):
        for root, dirs, files in os.walk(folder, followlinks=False):
            if root[len(folder):].count(os.sep) >= 3:
                dirs[:] = []
            if "timestamp.txt" in files:
                try:
                    with open(os.path.join(root, "timestamp.txt"), encoding="utf-8", errors="replace") as f:
                        when = parse_timestamp(f.read(200))
                except OSError:
                    when = None
                if when is not None:
                    stamps.append(when)
    if stamps:
        return max(stamps), "timestamp.txt"
    times = []
    for path in notebooks:
        try:
            times.append(os.lstat(path).st_mtime)
        except (OSError, ValueError):
            continue
    if times:
        return datetime.datetime.fromtimestamp(max(times), datetime.timezone.utc), "file time"
    return None, None


def lateness(when, deadline):
    """Hours late (> 0), rounded up to a tenth; 0 when on time."""
    if when is None or when <= deadline:
        return 0.0
    return math.ceil((when - deadline).total_seconds() / 360) / 10


def penalty_percent(hours, percent_per_day):
    """The percentage of the points taken off: ``percent_per_day`` for every started day late, at most 100."""
    if hours <= 0 or not percent_per_day:
        return 0.0
    return min(100.0, math.ceil(hours / 24) * percent_per_day)


def penalised(points, hours, percent_per_day):
    """``points`` less ``percent_per_day`` of them for every started day late (never below 0)."""
    if hours <= 0 or not percent_per_day:
        return points
    return max(0.0, round(points * (1 - penalty_percent(hours, percent_per_day) / 100), 3))
