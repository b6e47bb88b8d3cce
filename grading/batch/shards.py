"""More than one machine: grade a deterministic part of a batch (``--shard K/N``), then
merge the shard reports into one (``python -m grading merge``).

Every machine lists the same submissions (the same folder, the same options),
sorts them by id and keeps every N-th, starting at the K-th: shards are
disjoint, cover the batch, and are balanced to within one submission.  Each
shard report records the batch it belongs to (how many submissions, a digest
of their ids), the fingerprint of the key its hidden tests were drawn from, the
tests' fingerprint (a hash of the specs that define the tests) and the report format;
:func:`merge` refuses reports that disagree on any of them, a shard given
twice, a missing shard, and a submission graded twice or not at all.
"""

import hashlib
import re

_SHARD = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


class MergeError(ValueError):
    """The shard reports cannot be merged (the message says why)."""


def parse_shard(text):
    """``"K/N"`` -> (K, N) with 1 <= K <= N; ValueError otherwise."""
    match = _SHARD.fullmatch(str(text))
    if not match:
        raise ValueError(f"--shard takes K/N (e.g. 2/8), got {text!r}")
    k, n = int(match.group(1)), int(match.group(2))
    if not 1 <= k <= n:
        raise ValueError(f"--shard K/N needs 1 <= K <= N, got {k}/{n}")
    return k, n


def digest(ids):
    """A short digest of a batch: its submission ids, sorted."""
    h = hashlib.sha256()
    for i in sorted(ids):
        h.update(i.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()[:16]


def select(ids, k, n):
    """The ids shard K of N grades: every N-th of the sorted ids, from the K-th."""
    ordered = sorted(ids)
    return [i for index, i in enumerate(ordered) if index % n == k - 1]


def merge(reports):
    """One report from the reports of shards 1..N of one batch (see the module docstring)."""
    if not reports:
        raise MergeError("no shard reports to merge")
    heads = [r.get("grader", {}) for r in reports]
    keys = {(h.get("hidden_tests") or {}).get("fingerprint") for h in heads}
    if len(keys) != 1:
        raise MergeError(f"the shard reports drew their hidden tests from different keys: {sorted(map(str, keys))}; "
                         "grade every shard again with the same --key FILE")
    versions = {h.get("version") for h in heads}
    if len(versions) != 1:
        raise MergeError(f"the shard reports have different report formats: {sorted(map(str, versions))}; "
                         "grade every shard with the same installation of the grader")
    courses = {h.get("course", {}).get("version") for h in heads}
    if len(courses) != 1:
        raise MergeError(f"the shard reports were graded with different tests (tests' fingerprints "
                         f"{sorted(map(str, courses))}); "
                         "grade every shard from the same commit of the course")
    if len({bool((h.get("options") or {}).get("partial")) for h in heads}) != 1:
        raise MergeError("some shard reports were graded with --partial and some without; grade every shard alike")
    exercises = {tuple(e["id"] for e in h.get("exercises", [])) for h in heads}
    if len(exercises) != 1:
        counts = ", ".join(f"shard {(h.get('shard') or {}).get('k', '?')}: {len(h.get('exercises', []))}" for h in heads)
        raise MergeError(f"the shard reports grade different exercises ({counts}); give every shard the same "
                         "--exercises IDS or --all-exercises (this grader decides them from the whole batch "
                         "before sharding, so shards graded by it with the same options always agree)")
    shards = [h.get("shard") for h in heads]
    if any(s is None for s in shards):
        raise MergeError("a report is not a shard report (it was graded without --shard); "
                         "give only the JSON reports written by `--shard K/N --json FILE`")
    totals = {s["of"] for s in shards}
    if len(totals) != 1:
        raise MergeError(f"the shard reports split the batch differently: N = {sorted(totals)}; "
                         "grade every shard with the same N in --shard K/N")
    n = totals.pop()
    batches = {(h["batch"]["submissions"], h["batch"]["digest"]) for h in heads}
    if len(batches) != 1:
        raise MergeError("the shard reports come from different batches (other submissions were found); give "
                         "every shard the same folder and --group-by, and do not change the folder between shards")
    count, batch_digest = batches.pop()
    seen = {}
    for s in shards:
        seen[s["k"]] = seen.get(s["k"], 0) + 1
    twice = sorted(k for k, c in seen.items() if c > 1)
    if twice:
        raise MergeError(f"shard(s) {', '.join(f'{k}/{n}' for k in twice)} given more than once; "
                         "name each shard's report once")
    gaps = sorted(set(range(1, n + 1)) - set(seen))
    if gaps:
        raise MergeError(f"shard(s) {', '.join(f'{k}/{n}' for k in gaps)} missing; grade "
                         + " and ".join(f"--shard {k}/{n}" for k in gaps[:3]) + (" ..." if len(gaps) > 3 else "")
                         + " with the same options and add the report(s)")
    graded = {}
    for report, s in zip(reports, shards):
        for summary in report.get("summary", []):
            sub = summary["submission"]
            if sub in graded:
                raise MergeError(f"the submission {sub!r} is in shard {graded[sub]}/{n} and in shard {s['k']}/{n}; "
                                 "the folder changed between shards: grade every shard again")
            graded[sub] = s["k"]
    if len(graded) != count or digest(graded) != batch_digest:
        raise MergeError(f"the shards hold {len(graded)} submissions, the batch has {count}; a shard was interrupted "
                         "or the folder changed: grade the incomplete shard again")
    order = sorted(graded)
    by_sub = {}
    summaries = {}
    for report in reports:
        for row in report["rows"]:
            by_sub.setdefault(row["submission"], []).append(row)
        for summary in report["summary"]:
            summaries[summary["submission"]] = summary
    grader = dict(heads[0])
    grader["shard"] = None
    grader["merged_from"] = [{"k": s["k"], "of": n, "isolation": h.get("isolation"), "complete": h.get("complete")}
                             for s, h in sorted(zip(shards, heads), key=lambda x: x[0]["k"])]
    grader["complete"] = all(h.get("complete", False) for h in heads)
    grader["batch"] = {"submissions": count, "digest": batch_digest, "graded": count}
    timing = {"shards": [r.get("timing", {}) for r in reports]}
    return {"grader": grader, "summary": [summaries[s] for s in order],
            "rows": [row for s in order for row in by_sub.get(s, [])], "timing": timing}
