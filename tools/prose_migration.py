"""One-off (session 26): move the trilingual prose of src/ into the prose catalogues of tools/prose.py.

    python tools/prose_migration.py              # rewrite the sources; keep the translations found
    (edit grading/notebook_setup.py: INSTALL_NOTE and LANGUAGE_LINE's comment in English only)
    python tools/prose_migration.py catalogues   # write src/locales/ from what the first step found

Run once, on the sources of commit 671a04e, in which every text was written in three languages
side by side.  It reads each source the way the builder of that commit did (its
tools/nbsource.py, taken from git), so every text it files is the text a notebook showed, and
rewrites the files through their syntax trees, never by a pattern over the whole file:

* ``md(zh=..., en=..., ru=..., tags=...)`` -> ``md(<the English literal as written>, tags=...)``;
  ``md(**INSTALL_NOTE)`` -> ``md(INSTALL_NOTE)`` (grading/notebook_setup.py is edited by hand);
* in a code cell's literal (and in grading/references.py, whose functions solved notebooks
  show), the ``#zh``/``#ru`` comment lines are dropped and a trailing ``#zh a #en b #ru c`` becomes
  ``#en b``; the ``#en`` lines stay as they are;
* ``alt=dict(zh=..., en=..., ru=...)`` -> ``alt=<the English literal>``;
* a quiz's ``T(zh, en, ru)`` -> ``T(<the English literal>)``; an f-string's fields become
  ``str.format`` fields filled by name (``T("… {RATIO} …", RATIO=RATIO)``).

Every rewritten literal is checked to evaluate to the English it replaces.  The catalogues are
then written with Babel by tools/i18n.py's own functions (the template from the rewritten
sources, which must hold exactly the texts found here), so ``tools/i18n.py extract`` and
``update`` leave them as they are.  The proof that nothing changed is the notebooks rebuilt
with ``--prose-only`` (no diff) and the quizzes rendered before and after (identical).
"""

from __future__ import annotations

import ast
import importlib.util
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from course_i18n import LANGUAGES, SOURCE_LANGUAGE  # noqa: E402
from tools import i18n, prose  # noqa: E402

TRILINGUAL_COMMIT = "671a04e"
REFERENCES = ROOT / "grading" / "references.py"
FOUND = pathlib.Path("/tmp") / f"prose_translations_{TRILINGUAL_COMMIT}.json"   # between the two steps
OTHERS = [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]


def trilingual_reader():
    """tools/nbsource.py as of TRILINGUAL_COMMIT, the reader of the three-language format."""
    text = subprocess.run(["git", "show", f"{TRILINGUAL_COMMIT}:tools/nbsource.py"], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout
    path = pathlib.Path("/tmp") / f"trilingual_nbsource_{TRILINGUAL_COMMIT}.py"
    path.write_text(text, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("trilingual_nbsource", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.REFERENCES = REFERENCES
    return module


class Edits:
    """Replacements of byte ranges of one file, given by syntax-tree positions."""

    def __init__(self, text):
        self.data = text.encode("utf-8")
        self.line_starts = [0]
        for line in self.data.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.edits = []

    def span(self, node):
        return (self.line_starts[node.lineno - 1] + node.col_offset,
                self.line_starts[node.end_lineno - 1] + node.end_col_offset)

    def segment(self, node):
        start, end = self.span(node)
        return self.data[start:end].decode("utf-8")

    def replace(self, node, new, start_node=None):
        start = self.span(start_node or node)[0]
        self.edits.append((start, self.span(node)[1], new.encode("utf-8")))

    def result(self):
        data = self.data
        for start, end, new in sorted(self.edits, reverse=True):
            data = data[:start] + new + data[end:]
        return data.decode("utf-8")


def old_comment_groups(trilingual, text):
    """The translated comments of a code text in the old format, grouped as its localize_code did:
    [{"rows": {row: lang}, "trailing": (row, column) or None, "texts": {lang: [bodies]}}]."""
    lines = text.splitlines()
    groups, current, last_row, indent = [], None, -2, None
    for row, col, comment in trilingual._comments(text):
        parts = trilingual.tagged_parts(comment)
        full_line = not lines[row][:col].strip()
        if parts is None or not full_line or row != last_row + 1 or lines[row][:col] != indent:
            current = None
        if parts is None:
            continue
        if full_line:
            if current is None:
                current = {"rows": {}, "trailing": None, "texts": {lang: [] for lang in LANGUAGES}}
                groups.append(current)
            (lang, body), = parts.items()
            current["rows"][row] = lang
            current["texts"][lang].append(body)
            indent, last_row = lines[row][:col], row
        else:
            groups.append({"rows": {}, "trailing": (row, col), "texts": {lang: [parts[lang]] for lang in LANGUAGES}})
    return groups


def english_only(trilingual, text):
    """A code text with its zh/ru comment lines dropped and trailing comments reduced to #en."""
    lines = text.split("\n")
    groups = old_comment_groups(trilingual, text)
    drop = set()
    for group in groups:
        drop |= {row for row, lang in group["rows"].items() if lang != SOURCE_LANGUAGE}
        if group["trailing"]:
            row, col = group["trailing"]
            lines[row] = f"{lines[row][:col]}#{SOURCE_LANGUAGE} {group['texts'][SOURCE_LANGUAGE][0]}"
    return "\n".join(line for row, line in enumerate(lines) if row not in drop), groups


def rewrite_literal(trilingual, edits, node):
    """Rewrite a code cell's string literal to its English-only form, checked by evaluation.

    The literal's lines are those of its value (a triple-quoted string), except where an escape
    such as ``\\d`` is written; the lines that change must read the same in both."""
    segment = edits.segment(node)
    new_value, groups = english_only(trilingual, node.value)
    if not groups:
        return
    prefix = segment[:len(segment) - len(segment.lstrip("rRuU"))]
    quote = segment[len(prefix):len(prefix) + 3]
    written, value = segment[len(prefix) + 3:-3].split("\n"), node.value.split("\n")
    if quote not in ('"""', "'''") or len(written) != len(value):
        raise SystemExit(f"line {node.lineno}: a code literal whose lines are not its value's; convert it by hand")
    changed = {row for group in groups for row in group["rows"]} | {g["trailing"][0] for g in groups if g["trailing"]}
    if any(written[row] != value[row] for row in changed):
        raise SystemExit(f"line {node.lineno}: a comment line written with an escape; convert it by hand")
    kept, _ = english_only(trilingual, "\n".join(value))
    by_row = dict(enumerate(value))
    out, new_rows = [], iter(kept.split("\n"))
    dropped = {row for group in groups for row, lang in group["rows"].items() if lang != SOURCE_LANGUAGE}
    for row, line in enumerate(written):
        if row in dropped:
            continue
        new_line = next(new_rows)
        out.append(new_line if row in changed else line)
        assert row in changed or new_line == by_row[row]
    new_segment = prefix + quote + "\n".join(out) + quote
    if ast.literal_eval(new_segment) != new_value:
        raise SystemExit(f"line {node.lineno}: the rewritten literal does not evaluate to its English form")
    edits.replace(node, new_segment)


class Found:
    """The translations found, {(domain, msgctxt, English): {lang: text}}; a conflict is an error."""

    def __init__(self):
        self.texts, self.conflicts = {}, []

    def add(self, path, texts, sense=None):
        key = (prose.domain(path), prose.context(path, sense), texts[SOURCE_LANGUAGE])
        translations = {lang: texts[lang] for lang in OTHERS}
        if self.texts.setdefault(key, translations) != translations:
            self.conflicts.append(f"{key[1]}: {prose.preview(key[2])!r} is translated in two ways")


def comment_texts(trilingual, code_text):
    for group in old_comment_groups(trilingual, code_text):
        yield {lang: "\n".join(bodies) for lang, bodies in group["texts"].items()}


def top_level_calls(tree):
    return [node.value for node in tree.body
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Name) and node.value.func.id in ("md", "code")]


def convert_notebook_source(trilingual, path, found):
    text = path.read_text(encoding="utf-8")
    cells = trilingual.load(path)
    calls = top_level_calls(ast.parse(text))
    if len(calls) != len(cells):
        raise SystemExit(f"{path}: {len(calls)} md/code calls but {len(cells)} cells")
    edits = Edits(text)
    for call, cell in zip(calls, cells):
        keywords = {k.arg: k for k in call.keywords}
        if call.func.id == "md":
            found.add(path, cell.text)
            if None in keywords:                                    # md(**INSTALL_NOTE)
                edits.replace(call, f"md({keywords[None].value.id})")
                continue
            rest = "".join(f", {k.arg}={edits.segment(k.value)}" for k in call.keywords if k.arg not in LANGUAGES)
            edits.replace(call, f"md({edits.segment(keywords[SOURCE_LANGUAGE].value)}{rest})")
            continue
        for texts in comment_texts(trilingual, cell.source):
            found.add(path, texts)
        if call.args and isinstance(call.args[0], ast.Constant):
            rewrite_literal(trilingual, edits, call.args[0])
        if "alt" in keywords:
            alt = {k.arg: k.value for k in keywords["alt"].value.keywords}
            found.add(path, {lang: ast.literal_eval(alt[lang]) for lang in LANGUAGES})
            edits.replace(keywords["alt"].value, edits.segment(alt[SOURCE_LANGUAGE]))
    return edits.result()


def _format_string(node):
    """An f-string of plain {name} fields as a str.format text and its field names."""
    parts, names = [], []
    for value in node.values:
        if isinstance(value, ast.Constant):
            parts.append(value.value.replace("{", "{{").replace("}", "}}"))
        elif (isinstance(value, ast.FormattedValue) and isinstance(value.value, ast.Name)
              and value.conversion == -1 and value.format_spec is None):
            parts.append("{" + value.value.id + "}")
            names.append(value.value.id)
        else:
            raise SystemExit(f"line {node.lineno}: an f-string field other than a plain name; convert it by hand")
    return "".join(parts), names


def _literal(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def convert_quiz_source(path, found):
    text = path.read_text(encoding="utf-8")
    edits = Edits(text)
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "T"):
            continue
        keywords = {k.arg: k.value for k in node.keywords}
        if len(node.args) != len(LANGUAGES) or set(keywords) - {"sense"}:
            raise SystemExit(f"{path}:{node.lineno}: T() with {len(node.args)} texts")
        args = dict(zip(LANGUAGES, node.args))
        sense = ast.literal_eval(keywords["sense"]) if "sense" in keywords else None
        written_sense = f", sense={edits.segment(keywords['sense'])}" if sense else ""
        if all(isinstance(a, ast.JoinedStr) for a in node.args):
            formats = {lang: _format_string(a) for lang, a in args.items()}
            names = formats[SOURCE_LANGUAGE][1]
            if any(sorted(n) != sorted(names) for _, n in formats.values()):
                raise SystemExit(f"{path}:{node.lineno}: the f-strings of T() name different fields")
            found.add(path, {lang: f for lang, (f, _) in formats.items()}, sense)
            fields = "".join(f", {name}={name}" for name in dict.fromkeys(names))
            edits.replace(node, f"T({_literal(formats[SOURCE_LANGUAGE][0])}{written_sense}{fields})")
            continue
        found.add(path, {lang: ast.literal_eval(a) for lang, a in args.items()}, sense)
        edits.replace(node, f"T({edits.segment(args[SOURCE_LANGUAGE])}{written_sense})")
    return edits.result()


def convert_references(trilingual):
    """grading/references.py with its comments in English only (the translations come with the
    solution sources that show each function)."""
    new, _ = english_only(trilingual, REFERENCES.read_text(encoding="utf-8"))
    ast.parse(new)
    return new


def main():
    trilingual = trilingual_reader()
    found = Found()
    rewritten = {}
    for domain in ("chapters", "solutions"):
        for path in i18n.prose_sources(domain):
            rewritten[path] = convert_notebook_source(trilingual, path, found)
    for path in i18n.prose_sources("quizzes"):
        rewritten[path] = convert_quiz_source(path, found)
    rewritten[REFERENCES] = convert_references(trilingual)
    if found.conflicts:
        raise SystemExit("\n".join(found.conflicts))
    FOUND.write_text(json.dumps(list(found.texts.items()), ensure_ascii=False), encoding="utf-8")
    for path, text in rewritten.items():
        path.write_text(text, encoding="utf-8")
    print(f"rewrote {len(rewritten)} files; {len(found.texts)} texts found, kept in {FOUND}")


def write_catalogues():
    """After grading/notebook_setup.py is in its English-only form: template and catalogues."""
    found = Found()
    found.texts = {tuple(key): texts for key, texts in json.loads(FOUND.read_text(encoding="utf-8"))}
    extracted = i18n.extracted_prose()
    wanted = {(domain, context, english) for domain, entries in extracted.items() for context, english in entries}
    if wanted != set(found.texts):
        extra, lacking = sorted(wanted - set(found.texts)), sorted(set(found.texts) - wanted)
        raise SystemExit(f"the rewritten sources ask for {len(extra)} texts not found ({extra[:3]}) and "
                         f"leave {len(lacking)} found texts unused ({lacking[:3]})")
    for domain, entries in extracted.items():
        i18n.write_if_changed(prose.template_path(domain), i18n.prose_template(domain, entries))
        for lang in OTHERS:
            old = i18n._prose_catalogue(domain, lang)
            for context, english in entries:
                old.add(english, found.texts[(domain, context, english)][lang], context=context)
            i18n.write_if_changed(prose.catalogue_path(lang, domain), i18n.merge_prose(old, domain, entries, lang))
        print(f"{domain}: {len(entries)} texts")


if __name__ == "__main__":
    if sys.argv[1:] == ["catalogues"]:
        write_catalogues()
    else:
        main()
