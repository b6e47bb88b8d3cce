"""Translations that cannot drift: which cells changed in one language but not in the others.

    python tools/translations.py status                     # every source; exit 1 if something is stale
    python tools/translations.py status src/chapters/02_heads.py
    python tools/translations.py confirm src/chapters/02_heads.py            # the whole file
    python tools/translations.py confirm src/chapters/02_heads.py --cell 7 --cell 9

For every cell that has text in three languages (a Markdown cell, or a code
cell with translated comments) the file ``src/translations/<kind>/<name>.json``
records a fingerprint of each language's text *as last confirmed together*: a
translator (or an author who wrote all three) states that the three texts say
the same thing.  When a cell's three fingerprints are not a confirmed triple,
the cell is stale, and the report names the languages whose text changed since
(the others are the ones to bring up to date before confirming again).

Records are matched by content, not by position, so inserting or moving cells
does not make anything stale; ``confirm`` of a whole file drops the records no
cell matches any more.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.nbsource import LANGUAGES, _comments, load, tagged_parts  # noqa: E402

LOCKS = ROOT / "src" / "translations"


def cell_texts(cell):
    """{lang: the text a translator confirms} for a cell with translated text, else None."""
    if cell.kind == "markdown":
        return dict(cell.text)
    texts = {lang: [] for lang in LANGUAGES}
    for _, _, comment in _comments(cell.source):
        parts = tagged_parts(comment)
        for lang, body in (parts or {}).items():
            texts[lang].append(body)
    if not any(texts.values()):
        return None
    return {lang: "\n".join(lines) for lang, lines in texts.items()}


def fingerprint(text):
    normal = "\n".join(line.rstrip() for line in text.strip().splitlines())
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:16]


def lock_path(source):
    source = pathlib.Path(source).resolve()
    return LOCKS / source.parent.name / f"{source.stem}.json"


def read_lock(source):
    path = lock_path(source)
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["confirmed"]


def write_lock(source, records):
    path = lock_path(source)
    path.parent.mkdir(parents=True, exist_ok=True)
    head = {"source": str(pathlib.Path(source).resolve().relative_to(ROOT)),
            "note": "written by tools/translations.py confirm; see CONTRIBUTING.md"}
    # one record per line, so a diff shows which cells were confirmed
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    text = json.dumps(head, ensure_ascii=False, indent=1)[:-2] + ',\n "confirmed": [\n  '
    text += ",\n  ".join(lines) + "\n ]\n}\n"
    json.loads(text)                                        # never write a broken lock
    tmp = path.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def _preview(texts):
    first = next((line for line in texts["en"].splitlines() if line.strip()), "")
    return first.strip()[:60]


def record(texts):
    return {**{lang: fingerprint(texts[lang]) for lang in LANGUAGES}, "preview": _preview(texts)}


def stale_cells(source):
    """[(cell index, preview, changed languages or None for a cell never confirmed)]."""
    confirmed = [{lang: r[lang] for lang in LANGUAGES} for r in read_lock(source)]
    stale = []
    for index, cell in enumerate(load(source)):
        texts = cell_texts(cell)
        if texts is None:
            continue
        current = {lang: fingerprint(texts[lang]) for lang in LANGUAGES}
        if current in confirmed:
            continue
        best = max(confirmed, key=lambda r: sum(r[l] == current[l] for l in LANGUAGES), default=None)
        shared = [] if best is None else [l for l in LANGUAGES if best[l] == current[l]]
        changed = [l for l in LANGUAGES if l not in shared] if shared else None
        stale.append((index, _preview(texts), changed))
    return stale


def describe(source, stale):
    rel = pathlib.Path(source).resolve().relative_to(ROOT)
    lines = []
    for index, preview, changed in stale:
        if changed is None:
            why = "new or rewritten in every language, never confirmed"
        else:
            others = [l for l in LANGUAGES if l not in changed]
            why = (f"{'/'.join(changed)} changed since the three were last confirmed together; "
                   f"{'/'.join(others)} may be stale")
        lines.append(f"{rel} cell {index} ({preview!r}): {why}")
    if lines:
        cells = "" if len(stale) > 3 else "".join(f" --cell {i}" for i, _, _ in stale)
        lines.append(f"  bring the other languages up to date, then: python tools/translations.py confirm {rel}{cells}")
    return lines


def sources(paths):
    if paths:
        return [pathlib.Path(p) for p in paths]
    # src/quizzes/ holds questions (tools/quizzes.py), not notebook sources
    return sorted(p for p in (ROOT / "src").glob("*/*.py")
                  if not p.name.startswith("_") and p.parent.name != "quizzes")


def confirm(source, cells=None):
    loaded = load(source)
    wanted = range(len(loaded)) if cells is None else cells
    for i in wanted:
        if not 0 <= i < len(loaded):
            raise SystemExit(f"{source}: there is no cell {i} (the source has {len(loaded)} cells)")
    new = []
    for i in wanted:
        texts = cell_texts(loaded[i])
        if texts is None and cells is not None:
            raise SystemExit(f"{source}: cell {i} has no text in three languages to confirm")
        if texts is not None:
            new.append(record(texts))
    if cells is None:
        records = new                       # the whole file: exactly the current cells
    else:
        records = read_lock(source)
        keys = {tuple(r[l] for l in LANGUAGES) for r in records}
        records += [r for r in new if tuple(r[l] for l in LANGUAGES) not in keys]
    write_lock(source, records)
    return len(new)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser("status", help="list stale cells (exit 1 if any)")
    st.add_argument("sources", nargs="*")
    co = sub.add_parser("confirm", help="record that the three languages of these cells agree")
    co.add_argument("sources", nargs="+")
    co.add_argument("--cell", type=int, action="append", help="only this cell (index in the source); repeatable")
    args = parser.parse_args(argv)
    if args.command == "status":
        report = [line for s in sources(args.sources) for line in describe(s, stale_cells(s))]
        print("\n".join(report) if report else "every translated cell is confirmed")
        return 1 if report else 0
    if args.cell and len(args.sources) != 1:
        parser.error("--cell needs exactly one source file")
    for s in args.sources:
        n = confirm(s, args.cell)
        print(f"{s}: confirmed {n} cell(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
