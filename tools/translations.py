"""Translations that cannot drift: which cells changed in one language but not in the others.

    python tools/translations.py status                     # every source; exit 1 if something is stale
    python tools/translations.py status src/chapters/02_heads.py
    python tools/translations.py confirm src/chapters/02_heads.py            # the whole file
    python tools/translations.py confirm src/chapters/02_heads.py --cell 7 --cell 9

For every cell that has text in every language (a Markdown cell, a code cell
with translated comments, and apart from them the alt text of a cell's figure)
and every question of ``src/quizzes/`` the file ``src/translations/<kind>/<name>.json``
records a fingerprint of each language's text *as last confirmed together*: a
translator (or an author who wrote all three) states that the three texts say
the same thing.  When a cell's three fingerprints are not a confirmed triple,
the cell is stale, and the report names the languages whose text changed since
(the others are the ones to bring up to date before confirming again).

Records are matched by content, not by position, so inserting or moving cells
does not make anything stale; ``confirm`` of a whole file drops the records no
cell matches any more.  In a quiz source, ``--cell N`` is question N (counted from 0
in the chapter's order, as ``status`` names it).

The texts are read where they live: the English from the source, every other language
from the prose catalogues ``src/locales/<lang>/LC_MESSAGES/*.po`` (tools/prose.py), a translation
marked fuzzy included (it is what the translator last wrote).  Chinese is the authoritative
language of the content: a change to the Chinese alone (a ``msgstr`` of zh) is reported like a
change to the English source or to the Russian alone.  A text whose translation is not in a
catalogue at all (``tools/i18n.py update`` not run since the English changed) is reported as such.
Whether every entry is translated and current is ``tools/i18n.py check``'s job; interface texts
(titles, labels, messages) have no records here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES  # noqa: E402
from tools.nbsource import load  # noqa: E402

LOCKS = ROOT / "src" / "translations"


def cell_texts(cell):
    """[{lang: a text a translator confirms}]: a cell's Markdown or translated comments, and
    the alt text of its figure, each confirmed apart (none for a cell without text); a
    language whose translation is not in the catalogue has None."""
    return list(cell.prose)


def question_texts(question):
    """{lang: every text of a quiz question, one per line}: prompt, choices or steps, explanations."""
    parts = [question.prompt]
    if question.right is not None:
        parts.append(question.right)
    for first, second in question.wrong:
        parts += [first, second] if hasattr(first, "texts") else [second]
    parts += list(question.steps) + [question.why]
    return {lang: None if any(part[lang] is None for part in parts) else "\n".join(part[lang] for part in parts)
            for lang in LANGUAGES}


def is_quiz(source):
    return pathlib.Path(source).resolve().parent.name == "quizzes"


def units(source):
    """[(index, {lang: text})] of ``source``: per cell of a notebook source (a cell can have
    two: its prose or comments, and its figure's alt text), per question of a quiz source."""
    if is_quiz(source):
        from tools import quizzes
        questions = [q for section in quizzes.load(pathlib.Path(source), strict=False) for q in section.questions]
        return [(index, question_texts(q)) for index, q in enumerate(questions)]
    return [(index, texts) for index, cell in enumerate(load(source, strict=False)) for texts in cell_texts(cell)]


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
            "note": "written by tools/translations.py confirm; see docs/translating.md"}
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
    """[(cell index, preview, changed languages or None for a cell never confirmed)]; a text whose
    translations are not all in the catalogues gives ("missing", [those languages]) instead."""
    # a record written before a language was added has no fingerprint for it: that language is then the one
    # that changed (docs/translating.md, "Adding a language")
    confirmed = [{lang: r.get(lang) for lang in LANGUAGES} for r in read_lock(source)]
    stale = []
    for index, texts in units(source):
        missing = [lang for lang in LANGUAGES if texts[lang] is None]
        if missing:
            stale.append((index, _preview(texts), ("missing", missing)))
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
        elif changed[0] == "missing":
            why = (f"no {'/'.join(changed[1])} translation in the catalogues; "
                   f"run .venv/bin/python tools/i18n.py extract, then update, and translate it")
        else:
            others = [l for l in LANGUAGES if l not in changed]
            why = (f"{'/'.join(changed)} changed since the languages were last confirmed together; "
                   f"{'/'.join(others)} may be stale")
        lines.append(f"{rel} {'question' if is_quiz(source) else 'cell'} {index} ({preview!r}): {why}")
    if lines:
        # every cell by number, however many: confirming the whole file would also confirm cells nobody named
        cells = "".join(f" --cell {i}" for i, _, _ in stale)
        lines.append("  bring the other languages up to date, then: "
                     f".venv/bin/python tools/translations.py confirm {rel}{cells}")
    return lines


def sources(paths):
    if paths:
        return [pathlib.Path(p) for p in paths]
    # notebook sources, and the questions of src/quizzes/ (tools/quizzes.py)
    return sorted(p for p in (ROOT / "src").glob("*/*.py") if not p.name.startswith("_"))


def confirm(source, cells=None):
    found = units(source)
    count = len(load(source, strict=False)) if not is_quiz(source) else len(found)
    what = "question" if is_quiz(source) else "cell"
    for i in cells or ():
        if not 0 <= i < count:
            raise SystemExit(f"{source}: there is no {what} {i} (the source has {count})")
        if not any(index == i for index, _ in found):
            raise SystemExit(f"{source}: {what} {i} has no translated text to confirm")
    untranslated = [i for i, texts in found if (cells is None or i in cells) and None in texts.values()]
    if untranslated:
        raise SystemExit(f"{source}: {what} {', '.join(map(str, sorted(set(untranslated))))} has no translation "
                         f"in some language's catalogue yet; translate it before confirming")
    new = [record(texts) for index, texts in found if cells is None or index in cells]
    if cells is None:
        records = new                       # the whole file: exactly the current cells
    else:
        records = read_lock(source)
        keys = {tuple(r.get(l) for l in LANGUAGES) for r in records}
        records += [r for r in new if tuple(r[l] for l in LANGUAGES) not in keys]
    write_lock(source, records)
    return len(new)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    st = sub.add_parser("status", help="list stale cells (exit 1 if any)")
    st.add_argument("sources", nargs="*")
    co = sub.add_parser("confirm", help="record that the languages of these cells agree")
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
