"""``python -m grading rubric``: the course's rubric, in Markdown or CSV, in one of its languages.

One line per exercise: its id, notebook, function, what it asks (the title in
the chosen language), its points and how many public and hidden tests decide
them, then (in Markdown) the total; the rule that makes the points (all tests must pass) is
said under the table.  ``--partial`` adds each exercise's number of test groups
and states the partial-credit rule instead.  The numbers come from the registry the grader uses, so
the rubric cannot drift from the grading.
"""

import argparse
import csv
import io
import sys

from course_i18n import LANGUAGES

from .. import messages


def rows(registry, exercise_ids=None, lang="en", seed=0, partial=False):
    """One dict per exercise; with ``partial``, "groups": how many test groups share its points (--partial)."""
    from .runner import test_groups
    out = []
    for ex in registry.EXERCISES.values():
        if exercise_ids and ex.id not in exercise_ids:
            continue
        public, hidden = list(ex.public_cases()), list(ex.hidden_cases(seed))
        out.append({"id": ex.id, "notebook": ex.notebook, "function": ex.function,
                    "title": ex.title.get(lang) or ex.title.get("en", ""), "points": ex.points,
                    "public": len(public), "hidden": len(hidden),
                    **({"groups": len(test_groups([(c, False) for c in public] + [(c, True) for c in hidden]))}
                       if partial else {})})
    return out


def markdown(items, lang, partial=False):
    t = lambda key: messages.text(key, lang)             # noqa: E731
    head = [t("page_exercise"), t("rubric_notebook"), t("rubric_function"), t("rubric_title_col"), t("page_points"), t("rubric_tests")]
    head += [t("rubric_groups")] if partial else []
    cell = lambda text: str(text).replace("|", "\\|")    # noqa: E731
    lines = [f"# {t('rubric_title')}", "", "| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in items:
        lines.append(f"| {r['id']} | {r['notebook']} | `{r['function']}` | {cell(r['title'])} | {r['points']:g} | "
                     f"{r['public']} / {r['hidden']} |" + (f" {r['groups']} |" if partial else ""))
    lines.append(f"| **{t('rubric_total')}** | | | | **{sum(r['points'] for r in items):g}** | |" + (" |" if partial else ""))
    return "\n".join(lines + ["", t("page_scoring_partial" if partial else "rubric_rule"), ""])


def to_csv(items, partial=False):
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["id", "notebook", "function", "title", "points", "public_tests", "hidden_tests"]
                    + (["test_groups"] if partial else []))
    for r in items:
        writer.writerow([r["id"], r["notebook"], r["function"], r["title"], format(r["points"], "g"),
                         r["public"], r["hidden"]] + ([r["groups"]] if partial else []))
    return buf.getvalue()


def main(argv, prog):
    import importlib
    p = argparse.ArgumentParser(prog=f"{prog} rubric",
                                description="The course's rubric, in Markdown or CSV, in one of its languages.")
    p.add_argument("--lang", choices=LANGUAGES, default="en", help="language of the titles (default: en)")
    p.add_argument("--format", choices=("markdown", "csv"), default="markdown", help="output format (default: markdown)")
    p.add_argument("--exercises", metavar="IDS", help="comma-separated exercise ids (default: all)")
    p.add_argument("--partial", action="store_true",
                   help="the rubric of --partial: each exercise's test groups, and the rule that shares its points")
    p.add_argument("--output", "-o", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--registry", default="grading.exercises", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    registry = importlib.import_module(args.registry)
    ids = [x.strip() for x in args.exercises.split(",") if x.strip()] if args.exercises else None
    unknown = [i for i in ids or () if i not in registry.EXERCISES]
    if unknown:
        print(f"{prog} rubric: error: unknown exercise id(s): {', '.join(unknown)}; known: "
              f"{', '.join(registry.EXERCISES)}", file=sys.stderr)
        return 2
    items = rows(registry, ids, args.lang, partial=args.partial)
    text = markdown(items, args.lang, args.partial) if args.format == "markdown" else to_csv(items, args.partial)
    if args.output:
        from .report import atomic_write
        atomic_write(args.output, text)
    else:
        sys.stdout.write(text)
    return 0
