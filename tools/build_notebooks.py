"""Build (and execute) the notebooks of the course from their sources, in every language.

    python tools/build_notebooks.py                 # every source under src/
    python tools/build_notebooks.py src/chapters/02_heads.py --no-execute
    python tools/build_notebooks.py src/chapters/02_heads.py --prose-only   # Markdown edits: no execution

Each ``src/<kind>/<name>.py`` becomes ``<kind>/{zh,en,ru}/<name>.ipynb``, its prose in English
from the source and in every other language from the catalogues of ``src/locales/``
(tools/prose.py); a translation missing or fuzzy there stops the build before anything is
written, naming the source, the English and the language.
Executed notebooks keep their outputs, which nbval then re-checks.
A source under ``src/solutions/`` also yields ``exercises/{zh,en,ru}/<name>.ipynb``:
the same cells with the answers cut out (see tools/nbsource.py), never executed,
so it carries no outputs.
Cell ids are stable (``<name>-NN``) so diffs stay small and the three
languages line up cell for cell.
"""

import argparse
import io
import json
import os
import pathlib
import re
import sys
import time
import tokenize
import uuid

import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tools.kernels import UnixSocketKernelManager  # noqa: E402
from tools.nbsource import LANGUAGES, exercise_cells, load, solution_cells  # noqa: E402
from tools.prose import ProseError  # noqa: E402

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
PACKAGE_PLACEHOLDER = "{{course_package}}"
WHEEL_PLACEHOLDER = "{{course_wheel}}"


def course_wheel(pyproject=ROOT / "pyproject.toml"):
    """The file name of the course's wheel (`make wheel`), e.g. causality_heads_position-1.0.0-py3-none-any.whl."""
    from grading.version import DISTRIBUTION, package_version
    return f"{DISTRIBUTION.replace('-', '_')}-{package_version(pathlib.Path(pyproject))}-py3-none-any.whl"


def course_package(config_path=ROOT / "_config.yml"):
    """What ``%pip install`` installs the course's code from, with the ``learner`` extra: the
    repository (``causality-heads-position[learner] @ git+URL@branch``) when _config.yml names one,
    else the course's wheel next to the notebook (``./<wheel>[learner]``), which the site offers
    in every notebook page's download menu (see course_wheel and site/course_site.py)."""
    import yaml
    repository = (yaml.safe_load(pathlib.Path(config_path).read_text(encoding="utf-8")) or {}).get("repository") or {}
    url = str(repository.get("url") or "").strip().rstrip("/")
    if not url:
        return f"./{course_wheel()}[learner]"
    if not re.fullmatch(r"https?://[^\s\"'\\{}]+", url):
        raise ValueError(f"_config.yml repository.url is not a plain http(s) URL: {url!r}")
    branch = str(repository.get("branch") or "").strip()
    if branch and not re.fullmatch(r"[\w./-]+", branch):
        raise ValueError(f"_config.yml repository.branch is not a plain branch name: {branch!r}")
    return "causality-heads-position[learner] @ git+" + url + (f"@{branch}" if branch else "")


def fill_placeholders(code):
    """A cell's text with ``{{course_package}}`` and ``{{course_wheel}}`` replaced (the same in every
    language; see course_package and course_wheel)."""
    if PACKAGE_PLACEHOLDER in code:
        code = code.replace(PACKAGE_PLACEHOLDER, course_package())
    if WHEEL_PLACEHOLDER in code:
        code = code.replace(WHEEL_PLACEHOLDER, course_wheel())
    return code


def make_notebook(cells, lang, stem, numbers=None):
    """``numbers``: the cell numbers used in the ids (default 0, 1, 2 ...)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    for i, cell in zip(numbers if numbers is not None else range(len(cells)), cells):
        meta = dict(cell.metadata)
        meta.update(cell.lang_metadata.get(lang, {}))
        if cell.tags:
            meta["tags"] = list(cell.tags)
        if cell.kind == "markdown":
            new = nbformat.v4.new_markdown_cell(fill_placeholders(cell.text[lang]), metadata=meta)
        else:
            new = nbformat.v4.new_code_cell(fill_placeholders(cell.text[lang]), metadata=meta)
        new["id"] = f"{stem.replace('_', '-')}-{i:02d}"
        nb.cells.append(new)
    return nb


def execute(nb, cwd, timeout=120):
    # No widget state in the notebook: a widget restored from saved state has
    # no kernel behind it, so its controls would move while its numbers stay.
    # Interactive figures carry a static version for the website instead
    # (figures/interactive.py); in Jupyter, running the cell brings the widget back.
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", record_timing=False,
        store_widget_state=False, resources={"metadata": {"path": str(cwd)}},
        kernel_manager_class=UnixSocketKernelManager,               # as nbval's kernels (tools/kernels.py)
    )
    client.execute()          # execution counts stay: nbval treats a cell without one as never run
    for cell in nb.cells:
        if cell.cell_type == "code":
            cell.outputs = coalesce_streams(cell.outputs)


def coalesce_streams(outputs):
    """Join consecutive stdout (or stderr) messages into one output.

    A kernel under load may deliver one print in several messages; joined, the
    same code always gives the same outputs, in every language.
    """
    merged = []
    for out in outputs:
        if (out.output_type == "stream" and merged and merged[-1].output_type == "stream"
                and merged[-1].name == out.name):
            merged[-1].text += out.text
        else:
            merged.append(out)
    return merged


WIDGET_ID = re.compile(r"(?<![0-9a-f])[0-9a-f]{32}(?![0-9a-f])")


def stable_widget_ids(nb, stem, lang):
    """Replace the random ids of widget models by ids derived from their order.

    ipywidgets names every model with a fresh uuid4, so each rebuild would
    rewrite hundreds of lines; derived ids keep a rebuild's diff to what changed.
    """
    state = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {})
    ids = list(state.get("state", {}))
    if not ids:
        return nb
    text = json.dumps(nb)
    mapping = {old: uuid.uuid5(uuid.NAMESPACE_URL, f"{stem}/{lang}/{i}").hex for i, old in enumerate(ids)}
    text = WIDGET_ID.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)
    return nbformat.from_dict(json.loads(text))


def write_atomically(nb, target):
    tmp = target.with_suffix(".ipynb.tmp")
    nbformat.write(nb, tmp)
    os.replace(tmp, target)


def _code_tokens(source):
    """The tokens of a code cell without comments and layout (translated comments may differ)."""
    skip = (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT,
            tokenize.ENCODING, tokenize.ENDMARKER)
    try:
        return [t.string for t in tokenize.generate_tokens(io.StringIO(source).readline) if t.type not in skip]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return source


def _metadata_without_alt(metadata):
    meta = {k: v for k, v in metadata.items() if k != "mystnb"}
    image = {k: v for k, v in metadata.get("mystnb", {}).get("image", {}).items() if k != "alt"}
    return meta, image


def reuse_outputs(nb, target):
    """Copy outputs from the committed ``target`` into ``nb`` when no code changed.

    Comments and alt text may differ (they do not change what a cell prints).
    Returns None on success, otherwise a sentence naming the first code cell
    whose code differs (so the notebook has to be executed again).
    """
    if not target.exists():
        return f"{target.relative_to(ROOT)} does not exist yet"
    old = nbformat.read(target, as_version=4)
    old_code = [c for c in old.cells if c.cell_type == "code"]
    new_code = [c for c in nb.cells if c.cell_type == "code"]
    if len(old_code) != len(new_code):
        return f"{target.relative_to(ROOT)}: {len(new_code)} code cells instead of {len(old_code)}"
    for before, after in zip(old_code, new_code):
        if (_code_tokens(before.source) != _code_tokens(after.source)
                or _metadata_without_alt(before.metadata) != _metadata_without_alt(after.metadata)):
            return f"{target.relative_to(ROOT)}: code cell {after.id} changed"
    for before, after in zip(old_code, new_code):
        after.outputs, after.execution_count = before.outputs, before.execution_count
    nb.metadata = old.metadata
    return None


def build(source_path, run=True, prose_only=False):
    source_path = pathlib.Path(source_path).resolve()
    kind = source_path.parent.name
    stem = source_path.stem
    source_cells = load(source_path)
    # a solved notebook leaves out the cells meant for the exercise only (its title, say)
    numbered = solution_cells(source_cells) if kind == "solutions" else list(enumerate(source_cells))
    numbers, cells = [i for i, _ in numbered], [cell for _, cell in numbered]
    if prose_only:           # check every language before writing any
        notebooks = {lang: make_notebook(cells, lang, stem, numbers) for lang in LANGUAGES}
        for lang, nb in notebooks.items():
            problem = reuse_outputs(nb, ROOT / kind / lang / f"{stem}.ipynb")
            if problem:
                raise SystemExit(f"--prose-only: {problem}; rebuild without --prose-only to execute it")
    for lang in LANGUAGES:
        out_dir = ROOT / kind / lang
        out_dir.mkdir(parents=True, exist_ok=True)
        nb = notebooks[lang] if prose_only else make_notebook(cells, lang, stem, numbers)
        start = time.perf_counter()
        target = out_dir / f"{stem}.ipynb"
        if run and not prose_only:
            execute(nb, out_dir)
            nb = stable_widget_ids(nb, stem, lang)
        write_atomically(nb, target)
        print(f"{target.relative_to(ROOT)}  ({time.perf_counter() - start:.1f} s)")
    if kind == "solutions":
        build_exercise(source_cells, stem)


def build_exercise(source_cells, stem):
    """exercises/{zh,en,ru}/<stem>.ipynb: the solved cells with the answers cut out, unexecuted.

    Cell ids are numbered by position in the source, so a cell shared by the
    exercise and the solved notebook has the same id in both.
    """
    numbered = exercise_cells(source_cells)
    numbers = [i for i, _ in numbered]
    cells = [cell for _, cell in numbered]
    for lang in LANGUAGES:
        out_dir = ROOT / "exercises" / lang
        out_dir.mkdir(parents=True, exist_ok=True)
        nb = make_notebook(cells, lang, stem, numbers)
        target = out_dir / f"{stem}.ipynb"
        write_atomically(nb, target)
        print(f"{target.relative_to(ROOT)}  (not executed)")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sources", nargs="*", help="source files (default: every src/*/*.py)")
    parser.add_argument("--no-execute", action="store_true", help="write the notebooks without running them")
    parser.add_argument("--prose-only", action="store_true",
                        help="only Markdown changed: keep the committed outputs (refused if any code cell changed)")
    args = parser.parse_args(argv)
    sources = args.sources or sorted(str(p) for p in (ROOT / "src").glob("*/*.py")      # src/quizzes/: questions
                                     if not p.name.startswith("_") and p.parent.name != "quizzes")
    for path in sources:
        try:
            build(path, run=not args.no_execute, prose_only=args.prose_only)
        except ProseError as error:
            raise SystemExit(f"build_notebooks: {error}") from None


if __name__ == "__main__":
    main()
