"""Build the course website: one Jupyter Book (Sphinx) build per language.

    python tools/build_site.py               # build zh, en, ru (incremental), warnings are errors
    python tools/build_site.py --clean       # start from scratch (keeps the npm tarball cache)
    python tools/build_site.py --lang en     # only some languages (repeatable)
    python tools/build_site.py --serve       # serve _build/site on http://127.0.0.1:8000/

    python tools/build_site.py --build-dir _build/launch --repository-url https://github.com/ORG/REPO
                                             # a second site elsewhere, as if the repository were set
                                             # (--reuse-from _build: with the default build's wheel and formulas)

Result: ``_build/site/{zh,en,ru}/`` plus a landing page ``_build/site/index.html``
that says what the course is in each language and sends a visitor to the one
matching the browser's language, one shared ``_build/site/_static/`` and
``_build/site/_images/`` (see "Assembly" below), and ``_build/site/build-info.json``
(languages, pages) that the browser tests read.

How it works
* ``_config.yml`` and ``_toc.yml`` at the top level are the only sources. For
  each language this script writes ``_build/src/<lang>/`` with the derived
  ``_config.yml`` / ``_toc.yml`` and symlinks ``chapters``, ``exercises``,
  ``solutions`` -> ``<kind>/<lang>``, so the three sites share one layout
  (``<lang>/chapters/02_heads.html``) and the language switcher only swaps the
  language folder.
* MathJax, the Jupyter widget manager and require.js are fetched once from the
  npm registry (``npm pack``, versions and sha512 pinned in ``site/vendor.json``)
  into ``_build/vendor/`` and served from each site's ``_static/vendor/``.
* Notebooks are not executed (``execute_notebooks: off``): chapters and
  solutions are committed with outputs, exercises are shown as committed.
  A committed error output in a chapter or solution fails the build unless its
  cell is tagged ``raises-exception``.
* The three Sphinx builds run in parallel processes, each with ``-W
  --keep-going``: any warning fails the build (on a clean build every page is
  read, so every warning shows up). Each writes its pages to ``_build/html/<lang>/``
  and keeps its incremental state (doctrees and environment) in
  ``_build/doctrees/<lang>/``.
* Assembly (:func:`assemble`): ``_build/site`` is rebuilt from the three
  ``_build/html/<lang>`` after every build. A file under ``_static/`` or
  ``_images/`` that is byte-for-byte the same in every language is stored once,
  in ``_build/site/_static/`` (``_images/``), and every ``href``/``src`` of every
  page that pointed at a language's copy is rewritten to it; what differs
  (``documentation_options.js``, translations, stemmers, a figure labelled in
  one language) stays in ``<lang>/_static/``. The same URL in every language
  means a reader who switches language loads only the new page's HTML (and any
  image of its own). Every local link and every ``url()`` of every stylesheet is
  then checked to point at a file of the site.
* Icons: the theme's icon font (Font Awesome, 156 KB + 118 KB) is cut down to the
  icons the theme and the site can show (:func:`make_icon_subset`, a few KB),
  and the theme's ``fontawesome.js`` (1.5 MB) is not loaded
  (``site/templates/layout.html``).
"""

from __future__ import annotations

import argparse
import base64
import copy
import fnmatch
import hashlib
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path
from urllib.parse import unquote

import yaml

# jsonschema (imported by Jupyter Book and nbformat) compiles some 40 grammars of
# the optional rfc3987_syntax package at import time, ~2.5 s per process, for an
# "iri" format check that neither uses. Skip it.
sys.modules.setdefault("rfc3987_syntax", None)

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:            # course_i18n, and the site's extensions that import it
    sys.path.insert(0, str(ROOT))
from course_i18n.catalogue import texts  # noqa: E402
from grading.version import package_version  # noqa: E402

SITE_SRC = ROOT / "site"
VENDOR = ROOT / "_build" / "vendor"      # npm tarballs and what is unpacked from them (shared by every build dir)
VENDOR_STATIC = VENDOR / "static"        # html_static_path entry: files land in _static/vendor/...
ICONS_CSS = "course-icons.css"           # written by make_icon_subset into VENDOR_STATIC
TEST_VENDOR = VENDOR / "test"            # packages only the tests use (axe-core); never in the site
LANGUAGE_TIMEOUT = int(os.environ.get("COURSE_SITE_LANGUAGE_TIMEOUT", 1800))   # s: one language's Sphinx build
NPM_TIMEOUT = 600                        # s: one `npm pack` of a pinned tarball (a few seconds with a registry)
BUILD_VENDOR = VENDOR / "build"          # packages only the build uses (MathJax in Node); never in the site
MATH_STYLESHEET = "_static/course-math.css"   # written by tools/static_math.py into the assembled site
SHARED_DIRS = ("_static", "_images")     # stored once for all languages when identical
SEARCH_INDEX = "course-search-index.js"  # written next to each language's search.html after assembling
# Files of a Sphinx output that are not part of the published site: Sphinx's own
# state, the theme's template macros (copied as static files), source maps, and
# the icon script no page loads (site/templates/layout.html). A page that still
# referred to one would fail the build's reference check.
NOT_PUBLISHED = (".buildinfo", "_static/*.html", "*.map", "_static/scripts/fontawesome.js*",
                 # Sphinx's search engine and index: search.html uses the site's own
                 # (site/templates/search.html, tools/search_index.py)
                 "searchindex.js", "_static/searchtools.js")


def use_build_dir(build: Path) -> None:
    """Point every output path at ``build`` (default ``_build``); the npm cache stays in ``_build/vendor``."""
    global BUILD, OUT, RAW, STAGE, DOCTREES, LOGS, NB_OUTPUTS
    BUILD = Path(build).resolve()
    OUT = BUILD / "site"              # the published site (assembled)
    RAW = BUILD / "html"              # one Sphinx output per language
    STAGE = BUILD / "src"
    DOCTREES = BUILD / "doctrees"     # each language's incremental state (doctrees, environment)
    LOGS = BUILD / "logs"
    NB_OUTPUTS = BUILD / "nb_outputs"  # myst-nb's per-language jupyter_execute folders
    global WHEEL_STATIC
    WHEEL_STATIC = BUILD / "wheel"     # html_static_path entry: the course's wheel lands in _static/


use_build_dir(ROOT / "_build")
KINDS = ("chapters", "exercises", "solutions")
EXECUTED_KINDS = ("chapters", "solutions")   # committed with outputs; errors there fail the build

# The site's own words, in English; the catalogues of course_i18n translate them.
WORDS = texts("site.build", {
    "switcher_label": "Language",
    # the phone's language button, naming the language shown ({language}: its own name, e.g. Русский)
    "switcher_current": "Language: {language}",
    # myst-nb's toggle of a cell tagged hide-input (the first cell of every exercise notebook)
    "show_code": "Show code",
    "hide_code": "Hide code",
    # between the ends of a range of sections, §1–§5 (Chinese writes §1～§5: a range takes ～, docs/glossary.md)
    "range_dash": "–",
})
# The words of site/static/course.js, handed to it as JSON in its script tag's data-course-texts
# (a script holds no text of its own: CONTRIBUTING.md, "Where a change goes").
SCRIPT_WORDS = texts("site.script", {
    # the button that closes the chapter list or the page's contents on a narrow screen
    "close": "Close",
    # the line under (or above) a figure, table, output or formula wider than the column
    "scroll_hint": "⇆ Too wide for the page: scroll sideways to see all of it",
    # the tooltip of the bar beside an `assert` in a code cell
    "check_title": "A check: running it raises an error if what the text claims does not hold for the code above it",
})


def script_texts(lang: str) -> str:
    """course.js's words in one language, as the JSON of its data-course-texts."""
    return json.dumps({name: words[lang] for name, words in SCRIPT_WORDS.items()}, ensure_ascii=False,
                      separators=(",", ":"))


# --------------------------------------------------------------------------- config

def load_yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf8")) or {}


def html_lang(sphinx_language: str) -> str:
    return sphinx_language.replace("_", "-")


def site_languages(base: dict) -> list[dict]:
    langs = []
    for code, spec in (base.get("languages") or {}).items():
        spec = dict(spec or {})
        spec["code"] = code
        spec.setdefault("sphinx_language", code)
        spec.setdefault("label", code)
        spec["html_lang"] = html_lang(spec["sphinx_language"])
        langs.append(spec)
    if not langs:
        raise SystemExit("_config.yml has no `languages:` section")
    return langs


def existing_docs(lang: str, root: Path = ROOT) -> set[str]:
    """Docnames (``chapters/02_heads``) of the notebooks that exist for one language."""
    docs = set()
    for kind in KINDS:
        folder = root / kind / lang
        if folder.is_dir():
            docs.update(f"{kind}/{p.stem}" for p in folder.glob("*.ipynb"))
    return docs


def _caption(caption, lang):
    if isinstance(caption, dict):
        return caption.get(lang) or caption.get("en") or next(iter(caption.values()))
    return caption


def derive_toc(toc: dict, lang: str, existing: set[str]) -> tuple[dict, list[str], list[str]]:
    """Per-language toc from the shared one: (toc, docnames in reading order, notes)."""
    notes = []
    listed = [toc.get("root")]
    for part in toc.get("parts", []):
        listed += [c["file"] for c in part.get("chapters", [])]
    root = toc.get("root")
    if root not in existing:
        candidates = [d for d in listed if d in existing] + sorted(existing)
        if not candidates:
            raise SystemExit(f"[{lang}] no notebook exists under {', '.join(f'{k}/{lang}/' for k in KINDS)}")
        notes.append(f"root {root} missing, using {candidates[0]}")
        root = candidates[0]
    order = [root]
    parts, missing, claimed = [], [], set()
    for part in toc.get("parts", []):
        chapters = []
        for entry in part.get("chapters", []):
            doc = entry["file"]
            if doc == root:
                continue
            if doc in existing:
                chapters.append({"file": doc})
                order.append(doc)
            else:
                missing.append(doc)
        folder = part.get("folder")
        if folder and folder not in claimed:       # new notebooks go to the first part of their folder
            claimed.add(folder)
            extra = sorted(d for d in existing
                           if d.split("/", 1)[0] == folder and d not in listed and d != root)
            for doc in extra:
                chapters.append({"file": doc})
                order.append(doc)
                notes.append(f"{doc} not in _toc.yml, appended to {_caption(part.get('caption'), 'en')}")
        if chapters:
            parts.append({"caption": _caption(part.get("caption"), lang), "chapters": chapters})
    if missing:
        notes.append(f"not there yet, left out: {', '.join(missing)}")
    orphans = sorted(existing - set(order))
    for doc in orphans:          # a notebook in a folder no part claims: give it its own place
        notes.append(f"{doc} belongs to no part, appended at the end")
    if orphans:
        parts.append({"caption": "…", "chapters": [{"file": d} for d in orphans]})
        order += orphans
    return {"format": "jb-book", "root": root, "parts": parts}, order, notes


def derive_config(base: dict, lang: str, docs: dict, roots: dict, stage: Path) -> dict:
    """Per-language Jupyter Book config from the shared one."""
    langs = site_languages(base)
    spec = next(s for s in langs if s["code"] == lang)
    cfg = copy.deepcopy(base)
    cfg.pop("languages", None)
    cfg.pop("course_site_url", None)        # grading/sections.py reads it; not a Jupyter Book key
    cfg["title"] = spec.get("title", cfg.get("title", ""))
    cfg["author"] = spec.get("author", cfg.get("author", ""))

    repo = dict(cfg.get("repository") or {})
    repo_url = (repo.get("url") or "").strip()
    launch = dict(cfg.pop("launch_buttons", None) or {})
    # The theme's own launch buttons would point at chapters/NN.ipynb; ours
    # (site/course_site.py) know the repository path chapters/<lang>/NN.ipynb.
    cfg["launch_buttons"] = {"binderhub_url": "", "jupyterhub_url": "", "thebe": False,
                             "colab_url": "", "deepnote_url": ""}
    cfg["repository"] = {"url": repo_url, "branch": repo.get("branch") or "main", "path_to_book": ""}
    htmlcfg = cfg.setdefault("html", {})
    # The theme's repository button is replaced by ours (site/course_site.py: the repository, and
    # on a notebook page the notebook and its source in src/), shown when `use_repository_button`.
    source_buttons = bool(repo_url) and htmlcfg.get("use_repository_button", True) is not False
    htmlcfg["use_repository_button"] = False
    if not repo_url:
        htmlcfg["use_issues_button"] = False
        htmlcfg["use_edit_page_button"] = False

    sphinx = cfg.setdefault("sphinx", {})
    sphinx["recursive_update"] = True
    sphinx.setdefault("local_extensions", {})
    sphinx["local_extensions"] = dict(sphinx["local_extensions"] or {}, course_site=str(SITE_SRC),
                                      course_book=str(SITE_SRC))
    sc = sphinx.setdefault("config", {}) or {}
    sphinx["config"] = sc
    # Jupyter Book's extensions, less sphinx-thebe, which this site does not use
    # (live code from a CDN; under Sphinx 7 it also declares a `const` twice,
    # a JavaScript error on every page).
    from jupyter_book.config import get_default_sphinx_config
    sc["extensions"] = [e for e in get_default_sphinx_config()["extensions"]
                        if e != "sphinx_thebe"] + ["course_site", "course_book"]
    sc["language"] = spec["sphinx_language"]
    sc["project"] = cfg["title"]
    sc["html_static_path"] = [str(SITE_SRC / "static"), str(VENDOR_STATIC), str(WHEEL_STATIC)]
    sc["course_wheel"] = course_wheel_name()
    sc["course_book_pdf"] = book_pdf_name(lang)      # offered in the download menu where it exists (assemble)
    sc["html_favicon"] = str(SITE_SRC / "static" / "favicon.svg")
    sc["html_css_files"] = [ICONS_CSS, "course.css"]
    sc["html_js_files"] = [["course.js", {"data-course-texts": script_texts(lang)}]]
    sc["templates_path"] = [str(SITE_SRC / "templates")]
    sc["locale_dirs"] = [str(stage / "locale")]
    sc["gettext_compact"] = False
    sc["mathjax_path"] = "vendor/mathjax/tex-mml-chtml.js"
    sc["nb_ipywidgets_js"] = {
        "widgets-setup.js": {},
        # require.js and the widget manager are loaded when a widget comes near
        # the window (site/static/widgets-lazy.js). Widget modules that are not
        # bundled would be fetched from the cdn prefix; keep it on the site so
        # nothing ever goes to a CDN.
        "widgets-lazy.js": {"data-course-load": "vendor/requirejs/require.js vendor/html-manager/embed-amd.js",
                            "data-jupyter-widgets-cdn": "_static/vendor/widget-modules/"},
    }
    theme = sc.setdefault("html_theme_options", {})
    theme["article_header_end"] = ["lang-switcher", "article-header-buttons"]
    # the theme's footer, with the course's version and licences in place of its empty extra footer, and the
    # author named alone (course-author.html); the date of the last update is written as each language writes
    # dates (site/locale: Sphinx's "%b %d, %Y", the en block of _config.yml)
    theme["footer_content_items"] = ["course-author.html", "copyright.html", "last-updated.html", "course-footer.html"]
    theme["launch_buttons"] = {}
    if spec.get("search_bar_text"):
        theme["search_bar_text"] = spec["search_bar_text"]
    for key, value in (spec.get("sphinx_config") or {}).items():
        sc[key] = value
    sc["course_lang"] = lang
    sc["course_languages"] = [{"code": s["code"], "label": s["label"], "html_lang": s["html_lang"]}
                              for s in langs]
    sc["course_docs"] = {k: sorted(v) for k, v in docs.items()}
    sc["course_roots"] = dict(roots)
    sc["course_switcher_label"] = WORDS["switcher_label"][lang]
    sc["course_switcher_current"] = WORDS["switcher_current"][lang]
    sc["nb_code_prompt_show"], sc["nb_code_prompt_hide"] = WORDS["show_code"][lang], WORDS["hide_code"][lang]
    sc["course_locale_dir"] = str(stage / "locale")
    sc["course_assets_version"] = site_assets_digest(spec["sphinx_language"])
    sc["course_nb_output_folder"] = str(NB_OUTPUTS / lang)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools import quizzes
    # the questions of src/quizzes/ as HTML in this language (checked: tools/quizzes.py)
    sc["course_quizzes"] = {page: [list(pair) for pair in pairs]
                            for page, pairs in quizzes.site_quizzes(lang).items()}
    sc["course_book_version"] = hashlib.sha256(b"".join(
        p.read_bytes() for p in (SITE_SRC / "course_book.py", ROOT / "tools" / "quizzes.py"))).hexdigest()[:16]
    sc["course_launch"] = {
        "repo_url": repo_url,
        "branch": repo.get("branch") or "main",
        "binderhub_url": launch.get("binderhub_url", "") if repo_url else "",
        "local_jupyterlab_url": launch.get("local_jupyterlab_url", "") if repo_url else "",
        "notebook_interface": launch.get("notebook_interface", "jupyterlab"),
        "source_buttons": source_buttons,
    }
    sc["course_version"] = package_version()
    return cfg


def book_pdf_name(lang: str) -> str:
    """The PDF book of a language (tools/build_pdf.py): ``causality-heads-position-en.pdf``."""
    name = re.search(r'^name\s*=\s*"([^"]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf8"), re.M).group(1)
    return f"{name}-{lang}.pdf"


BOOK_PDF_ENTRY = re.compile(r'<li><a [^>]*class="[^"]*btn-download-book-pdf-button.*?</li>\s*', re.S)


def course_wheel_name() -> str:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools.build_notebooks import course_wheel
    return course_wheel()


def build_course_wheel() -> Path:
    """The course's package as a wheel in WHEEL_STATIC (offered in every exercise page's download menu;
    the note above the exercise notebooks' first cell tells a learner without the course to %pip install it)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools.make_autograder import build_wheel
    wheel = build_wheel(WHEEL_STATIC)
    if wheel.name != course_wheel_name():
        raise SystemExit(f"built {wheel.name}, but the notebooks name {course_wheel_name()}")
    return wheel


def reuse_build(other: Path) -> bool:
    """Take the course's wheel and the formulas' cache of ``other`` (a build folder of this checkout, just built)
    instead of building the wheel again (pip, several seconds) and typesetting every formula again (Node, a few
    seconds): whether its wheel was there to take. The formulas' cache holds each formula's TeX with its
    rendering and is checked against the pages formula by formula (tools/static_math.py), so taking it
    changes no page; a formula it lacks is typeset as usual."""
    other = Path(other).resolve()
    if other == BUILD:
        return False
    cache, own_cache = other / "math" / "cache.json", BUILD / "math" / "cache.json"
    if cache.is_file() and not own_cache.exists():
        own_cache.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(cache, own_cache)
    wheel = other / "wheel" / course_wheel_name()
    if not wheel.is_file():
        return False
    WHEEL_STATIC.mkdir(parents=True, exist_ok=True)
    for old in WHEEL_STATIC.glob("causality_heads_position-*.whl"):    # as make_autograder.build_wheel
        if old.name != wheel.name:
            old.unlink()
    copy_if_changed(wheel, WHEEL_STATIC / wheel.name)
    return True


def write_if_changed(path: Path, text: str) -> None:
    """Keep mtimes stable so Sphinx's incremental build sees no spurious change."""
    if not path.exists() or path.read_text(encoding="utf8") != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf8")


def copy_if_changed(src: Path, dst: Path) -> None:
    if not dst.exists() or dst.read_bytes() != src.read_bytes():
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)


def stage(lang: str, base: dict, docs: dict, roots: dict, toc_lang: dict) -> Path:
    """Write _build/src/<lang>/: derived config and toc, links to the notebooks, catalogs."""
    src = STAGE / lang
    src.mkdir(parents=True, exist_ok=True)
    for kind in KINDS:
        link = src / kind
        target = Path(os.path.relpath(ROOT / kind / lang, src))
        if link.is_symlink() and Path(os.readlink(link)) == target:
            continue
        if link.is_symlink() or link.exists():
            link.unlink()
        if (ROOT / kind / lang).is_dir():
            link.symlink_to(target, target_is_directory=True)
    cfg = derive_config(base, lang, docs, roots, src)
    header = "# Generated by tools/build_site.py from the top-level _config.yml; do not edit.\n"
    write_if_changed(src / "_config.yml", header + yaml.safe_dump(cfg, allow_unicode=True, sort_keys=False))
    header = "# Generated by tools/build_site.py from the top-level _toc.yml; do not edit.\n"
    write_if_changed(src / "_toc.yml", header + yaml.safe_dump(toc_lang, allow_unicode=True, sort_keys=False))
    sphinx_lang = next(s for s in site_languages(base) if s["code"] == lang)["sphinx_language"]
    compile_catalogs(sphinx_lang, src / "locale")
    return src


def site_assets_digest(sphinx_lang: str) -> str:
    """Changes when the site's translations, static files, templates, extension or
    vendored packages change. Sphinx rewrites every page when a config value
    changes, but not when only a static file or an extension's code does ("no
    targets are out of date")."""
    digest = hashlib.sha256()
    files = sorted((SITE_SRC / "locale" / sphinx_lang / "LC_MESSAGES").glob("*.po"))
    files += sorted(p for p in (SITE_SRC / "static").rglob("*") if p.is_file())
    files += sorted((SITE_SRC / "templates").rglob("*.html"))
    files += [SITE_SRC / "vendor.json", SITE_SRC / "course_site.py", SITE_SRC / "course_book.py"]   # the extension shapes every page
    files += [p for p in [VENDOR_STATIC / ICONS_CSS] if p.exists()]
    for path in files:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def compile_catalogs(sphinx_lang: str, locale_dir: Path) -> None:
    """site/locale/<lang>/LC_MESSAGES/*.po -> .mo in the build's locale_dirs; for the
    `sphinx` domain also a sphinx.js (the search page's strings) that merges ours
    into Sphinx's own."""
    import io
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po
    import sphinx
    out = locale_dir / sphinx_lang / "LC_MESSAGES"
    for po_path in sorted((SITE_SRC / "locale" / sphinx_lang / "LC_MESSAGES").glob("*.po")):
        with po_path.open("rb") as fh:
            catalog = read_po(fh, locale=sphinx_lang)
        buf = io.BytesIO()
        write_mo(buf, catalog)
        mo = out / f"{po_path.stem}.mo"
        if not mo.exists() or mo.read_bytes() != buf.getvalue():
            out.mkdir(parents=True, exist_ok=True)
            mo.write_bytes(buf.getvalue())
        if po_path.stem != "sphinx":
            continue
        ours = {m.id: m.string for m in catalog if m.id and m.string and isinstance(m.id, str)}
        builtin = Path(sphinx.__file__).parent / "locale" / sphinx_lang / "LC_MESSAGES" / "sphinx.js"
        data = {"locale": sphinx_lang, "messages": {}, "plural_expr": "0"}
        if builtin.exists():
            text = builtin.read_text(encoding="utf8")
            data = json.loads(text[text.index("(") + 1:text.rindex(")")])
        data["messages"].update(ours)
        js = "Documentation.addTranslations(" + json.dumps(data, ensure_ascii=False, indent=4, sort_keys=True) + ");\n"
        write_if_changed(out / "sphinx.js", js)


# --------------------------------------------------------------------------- checks

def check_notebooks(lang: str, docs: list[str], root: Path = ROOT) -> tuple[list[str], list[str]]:
    """(errors, notes): committed error outputs where none are expected, unexecuted notebooks."""
    import nbformat
    errors, notes = [], []
    for doc in docs:
        kind, name = doc.split("/", 1)
        path = root / kind / lang / f"{name}.ipynb"
        try:
            nb = nbformat.read(path, as_version=4)
        except Exception as exc:      # a half-written notebook: report, do not crash
            errors.append(f"{path.relative_to(root)}: cannot be read ({exc})")
            continue
        if kind not in EXECUTED_KINDS:
            continue
        code = [c for c in nb.cells if c.cell_type == "code" and c.source.strip()]
        if code and not any(c.get("outputs") for c in code):
            notes.append(f"{path.relative_to(root)} has no outputs (not executed?)")
        for i, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            tags = cell.get("metadata", {}).get("tags", [])
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error" and "raises-exception" not in tags:
                    errors.append(f"{path.relative_to(root)} cell {i} ({cell.get('id', '?')}): "
                                  f"{out.get('ename')}: {out.get('evalue')}")
    return errors, notes


# --------------------------------------------------------------------------- vendored assets

def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _wanted(name: str, patterns: list[str]) -> bool:
    for pat in patterns:
        if pat.endswith("/"):
            if name.startswith(pat):
                return True
        elif any(ch in pat for ch in "*?["):
            if "/" not in name[len(os.path.dirname(pat)) + 1:] and fnmatch.fnmatch(name, pat):
                return True
        elif name == pat:
            return True
    return False


def _vendor_stamp(group: str) -> Path:
    return VENDOR / ("unpacked.json" if group == "packages" else f"unpacked-{group}.json")


def _vendor_state(group: str) -> tuple[list, Path, bool]:
    """(the group's packages, the folder they unpack into, whether it holds them already)."""
    packages = json.loads((SITE_SRC / "vendor.json").read_text(encoding="utf8")).get(group) or []
    target = {"packages": VENDOR_STATIC / "vendor", "build_packages": BUILD_VENDOR}.get(group, TEST_VENDOR)
    stamp = _vendor_stamp(group)
    ready = stamp.exists() and stamp.read_text(encoding="utf8") == json.dumps(packages, sort_keys=True) and target.is_dir()
    return packages, target, ready


def vendor_needs_npm(group: str = "packages") -> bool:
    """fetch_vendor(group) would have to run npm: some tarball is not in the cache yet."""
    packages, _, ready = _vendor_state(group)
    if ready:
        return False
    return any(not _tarball(p).exists() for p in packages)


def _tarball(pkg: dict) -> Path:
    """Where the npm tarball of one package of site/vendor.json is cached."""
    return VENDOR / "tarballs" / (pkg["name"].lstrip("@").replace("/", "-") + f"-{pkg['version']}.tgz")


def fetch_vendor(quiet: bool = False, group: str = "packages") -> Path:
    """Fetch the pinned npm tarballs of one group of site/vendor.json (cached) and unpack the needed files.

    ``packages`` land in VENDOR_STATIC/vendor (served by the site), ``build_packages``
    in BUILD_VENDOR (run by the build only), ``test_packages`` in TEST_VENDOR (read by the
    browser tests only). Returns that folder.
    """
    packages, target, ready = _vendor_state(group)
    if ready:
        return target
    stamp_text = json.dumps(packages, sort_keys=True)
    stamp = _vendor_stamp(group)
    cache = VENDOR / "tarballs"
    cache.mkdir(parents=True, exist_ok=True)
    if target.exists():
        shutil.rmtree(target)
    for pkg in packages:
        ident = f"{pkg['name']}@{pkg['version']}"
        tarball = _tarball(pkg)
        if not tarball.exists() or _integrity(tarball.read_bytes()) != pkg["integrity"]:
            npm = shutil.which("npm")
            if not npm:
                raise SystemExit(f"npm is needed once to fetch {ident} "
                                 "from the npm registry (Debian: apt-get install npm)")
            if not quiet:
                print(f"fetching {ident} from the npm registry")
            try:
                proc = subprocess.run([npm, "pack", ident, "--json", "--pack-destination", str(cache)],
                                      cwd=cache, capture_output=True, text=True, timeout=NPM_TIMEOUT)
            except subprocess.TimeoutExpired:
                raise SystemExit(f"npm pack {ident} did not finish in {NPM_TIMEOUT} s (is the npm registry reachable?)")
            if proc.returncode != 0:
                raise SystemExit(f"npm pack {ident} failed:\n{proc.stderr}")
            produced = cache / json.loads(proc.stdout)[0]["filename"]
            if produced != tarball:
                produced.replace(tarball)
        data = tarball.read_bytes()
        if _integrity(data) != pkg["integrity"]:
            tarball.unlink()
            raise SystemExit(f"{ident}: integrity mismatch (expected {pkg['integrity']})")
        dest = target / pkg["dest"]
        strip = pkg.get("strip", "")
        with tarfile.open(tarball, "r:gz") as tar:
            for member in tar.getmembers():
                name = member.name.split("/", 1)[1] if "/" in member.name else member.name
                if not member.isfile() or not _wanted(name, pkg["files"]):
                    continue
                rel = name[len(strip):] if strip and name.startswith(strip) else name
                out = (dest / rel).resolve()
                if not str(out).startswith(str(dest.resolve())):
                    raise SystemExit(f"{ident}: unsafe path {member.name}")
                out.parent.mkdir(parents=True, exist_ok=True)
                with tar.extractfile(member) as fh:
                    out.write_bytes(fh.read())
    stamp.write_text(stamp_text, encoding="utf8")
    return target


# --------------------------------------------------------------------------- icons

FA_RULE = re.compile(r"((?:\.fa-[a-z0-9-]+:(?:before|after),?)+)\{content:\"\\([0-9a-f]{4})\"\}")
PUA = re.compile(r"[\ue000-\uf8ff]|\\([ef][0-9a-f]{3})(?![0-9a-f])")
FA_NAME = re.compile(r"\bfa-([a-z0-9]+(?:-[a-z0-9]+)*)")
THEME_PACKAGES = ("pydata_sphinx_theme", "sphinx_book_theme")


def _package_root(package: str) -> Path:
    import importlib
    return Path(importlib.import_module(package).__file__).parent


def _theme_static(package: str) -> Path:
    return next(_package_root(package).rglob("static/styles")).parent


def icon_map(css: str) -> dict[str, int]:
    """``{"bars": 0xf0c9, ...}`` from Font Awesome's ``.fa-bars:before{content:"\f0c9"}`` rules."""
    names = {}
    for selectors, code in FA_RULE.findall(css):
        for name in FA_NAME.findall(selectors):
            names.setdefault(name, int(code, 16))
    return names


def icon_codepoints(css: str, sources: list[str]) -> set[int]:
    """Every icon the site can show: each ``fa-NAME`` named in ``sources`` (the
    theme's and the site's templates, Python and JavaScript) and every private-use
    character the theme's stylesheets use outside Font Awesome's own class list
    (admonition, link and search icons drawn by CSS)."""
    names = icon_map(css)
    used = {names[n] for text in sources for n in FA_NAME.findall(text) if n in names}
    rest = FA_RULE.sub("", css)
    for match in PUA.finditer(rest):
        used.add(int(match.group(1), 16) if match.group(1) else ord(match.group(0)))
    return used


def make_icon_subset(quiet: bool = False) -> Path:
    """Write ``course-icons.css`` and subsets of the theme's icon fonts into VENDOR_STATIC.

    The theme's stylesheet declares the full fonts; ``course-icons.css`` comes
    after it and declares the same families again with a ``unicode-range`` that
    lists only the icons in the subset. A browser then takes those icons from the
    small file, and would fetch the full font only for an icon outside the
    subset (tests/test_site.py checks that no page does).
    """
    from fontTools import subset, ttLib
    static = _theme_static("pydata_sphinx_theme")
    css_files = [p for pkg in THEME_PACKAGES for p in _theme_static(pkg).rglob("*.css")]
    css = "\n".join(p.read_text(encoding="utf8") for p in sorted(css_files))
    sources = []
    for pkg in THEME_PACKAGES:
        for path in sorted(_package_root(pkg).rglob("*")):
            if path.suffix in (".py", ".html", ".js") and path.is_file() and ".map" not in path.name:
                sources.append(path.read_text(encoding="utf8", errors="replace"))
    for path in sorted(SITE_SRC.rglob("*")):
        if path.suffix in (".py", ".html", ".js") and path.is_file():
            sources.append(path.read_text(encoding="utf8"))
    sources.append((ROOT / "_config.yml").read_text(encoding="utf8"))
    wanted = sorted(icon_codepoints(css, sources))
    fonts = [("Font Awesome 6 Free", 900, "fa-solid-900"), ("Font Awesome 6 Free", 400, "fa-regular-400"),
             ("Font Awesome 6 Brands", 400, "fa-brands-400")]
    stamp_text = json.dumps({"codepoints": wanted, "fonttools": __import__("fontTools").version,
                             "fonts": [hashlib.sha256((static / "vendor/fontawesome/webfonts" / f"{n}.ttf").read_bytes())
                                       .hexdigest() for _, _, n in fonts]})
    out = VENDOR_STATIC / "course-icons"
    stamp = VENDOR / "course-icons.json"
    if stamp.exists() and stamp.read_text(encoding="utf8") == stamp_text and (VENDOR_STATIC / ICONS_CSS).exists():
        return VENDOR_STATIC / ICONS_CSS
    out.mkdir(parents=True, exist_ok=True)
    rules = ["/* Generated by tools/build_site.py (make_icon_subset): the icons the site can show,",
             "   cut out of the theme's Font Awesome fonts. Declared after the theme's own @font-face",
             "   rules, so these faces win for the code points in their unicode-range. */"]
    for family, weight, name in fonts:
        font = ttLib.TTFont(static / "vendor/fontawesome/webfonts" / f"{name}.ttf")
        options = subset.Options()
        options.flavor = "woff"                  # zlib; woff2 would need the brotli package
        options.layout_features = ["*"]
        options.name_IDs = ["*"]
        subsetter = subset.Subsetter(options)
        subsetter.populate(unicodes=wanted)
        subsetter.subset(font)
        present = sorted(set(font.getBestCmap()) & set(wanted))
        if not present:
            continue
        target = out / f"{name}.woff"
        font.flavor = "woff"
        import io
        buf = io.BytesIO()
        font.save(buf)
        if not target.exists() or target.read_bytes() != buf.getvalue():
            target.write_bytes(buf.getvalue())
        ranges = ",".join(f"U+{c:X}" for c in present)
        rules.append(f'@font-face{{font-family:"{family}";font-style:normal;font-weight:{weight};'
                     f'font-display:block;src:url(course-icons/{name}.woff) format("woff");'
                     f'unicode-range:{ranges}}}')
    write_if_changed(VENDOR_STATIC / ICONS_CSS, "\n".join(rules) + "\n")
    stamp.write_text(stamp_text, encoding="utf8")
    if not quiet:
        print(f"icon font subset: {len(wanted)} icons")
    return VENDOR_STATIC / ICONS_CSS


def icon_classes_missing(html_text: str, css: str, subset_css: str) -> list[str]:
    """``fa-NAME`` classes on a page whose icon the subset does not hold."""
    names = icon_map(css)
    covered = set()
    for ranges in re.findall(r"unicode-range:([^}]*)\}", subset_css):
        covered.update(int(r.strip()[2:], 16) for r in ranges.split(","))
    missing = set()
    for classes in re.findall(r'class="([^"]*\bfa-[^"]*)"', html_text):
        for name in FA_NAME.findall(classes):
            if name in names and names[name] not in covered:
                missing.add(f"fa-{name}")
    return sorted(missing)


# --------------------------------------------------------------------------- assembly

URL_ATTR = re.compile(r'(\s(?:href|src)=)(["\'])(.*?)\2', re.S)
CSS_URL = re.compile(r"url\(\s*(['\"]?)([^)'\"]+)\1\s*\)")


def _split_url(value: str):
    """(path, rest) of a relative URL, or None for absolute, data:, #fragment-only ones."""
    if not value or value.startswith(("#", "/", "data:", "mailto:", "javascript:", "about:")) or "://" in value[:12]:
        return None
    cut = min([i for i in (value.find("?"), value.find("#")) if i >= 0] or [len(value)])
    return html.unescape(value[:cut]), value[cut:]


def rewrite_shared_urls(text: str, page: str, shared: set[str]) -> str:
    """Point every ``href``/``src`` of ``page`` (``en/chapters/x.html``) that resolves to
    ``en/_static/F`` or ``en/_images/F`` at ``_static/F`` (``_images/F``) when F is shared."""
    lang = page.split("/", 1)[0]
    here = posixpath.dirname(page)

    def fix(match):
        parts = _split_url(match.group(3))
        if parts is None:
            return match.group(0)
        path, rest = parts
        target = posixpath.normpath(posixpath.join(here, path))
        if not target.startswith(lang + "/") or target[len(lang) + 1:] not in shared:
            return match.group(0)
        new = posixpath.relpath(target[len(lang) + 1:], here)
        return f"{match.group(1)}{match.group(2)}{html.escape(new, quote=False)}{rest}{match.group(2)}"

    return URL_ATTR.sub(fix, text)


HTML_ID = re.compile(r"""\sid=["']([^"']+)["']""")


def broken_references(site: Path, files: set[str], unbuilt: tuple[str, ...] = ()) -> list[str]:
    """Local ``href``/``src`` of every page and ``url()`` of every stylesheet that name no file of
    the site, and links whose ``#anchor`` names no id of the page they lead to (the § links of
    site/course_book.py, the exercise and solution links, the table of contents).

    ``unbuilt``: folders (``"zh/"``) of languages not built yet; links into them are not judged."""
    bad = []
    ids: dict[str, set[str]] = {}

    def page_ids(rel):
        if rel not in ids:
            text = (site / rel).read_text(encoding="utf8", errors="replace")
            ids[rel] = {html.unescape(i) for i in HTML_ID.findall(text)}
        return ids[rel]

    for rel in sorted(files):
        if not rel.endswith((".html", ".css")):
            continue
        text = (site / rel).read_text(encoding="utf8", errors="replace")
        if rel.endswith(".html"):
            # Script bodies (JSON state, inline code) are not markup.
            text = re.sub(r"<script\b[^>]*>.*?</script>", lambda m: m.group(0).split(">", 1)[0] + ">", text, flags=re.S)
            refs = [m.group(3) for m in URL_ATTR.finditer(text)]
        else:
            refs = [m.group(2) for m in CSS_URL.finditer(text)]
        for ref in refs:
            if rel.endswith(".html") and ref.startswith("#") and len(ref) > 1:
                if unquote(html.unescape(ref[1:])) not in page_ids(rel):
                    bad.append(f"{rel}: {ref} (no such anchor on the page)")
                continue
            parts = _split_url(ref)
            if parts is None or not parts[0]:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), parts[0]))
            if target.startswith(unbuilt):
                continue
            if target not in files and (target + "/index.html") not in files:
                bad.append(f"{rel}: {ref}")
                continue
            fragment = parts[1].split("#", 1)[1] if "#" in parts[1] else ""
            if fragment and target.endswith(".html") and unquote(html.unescape(fragment)) not in page_ids(target):
                bad.append(f"{rel}: {ref} (no such anchor in {target})")
    return bad


def _same_file(a: Path, b: Path) -> bool:
    sa, sb = a.stat(), b.stat()
    if sa.st_size != sb.st_size:
        return False
    return a.read_bytes() == b.read_bytes()


def assemble(codes: list[str], raw: Path | None = None, out: Path | None = None) -> dict:
    """Build the published site ``out`` from the per-language Sphinx outputs in ``raw``.

    Returns ``{"shared": [...], "per_language": {lang: [...]}, "files": n}``.
    Only files that changed are written, and files no build produced any more
    are removed, so ``out`` is always exactly what the builds say.
    """
    raw = raw or RAW
    out = out or OUT
    langs = [c for c in codes if (raw / c).is_dir()]
    inventory = {}
    for code in langs:
        base = raw / code
        inventory[code] = {rel: p for p in base.rglob("*") if p.is_file()
                           and not any(fnmatch.fnmatch(rel := p.relative_to(base).as_posix(), pat)
                                       for pat in NOT_PUBLISHED)}
    candidates = None
    for code in langs:
        keys = {k for k in inventory[code] if k.split("/", 1)[0] in SHARED_DIRS}
        candidates = keys if candidates is None else candidates & keys
    shared = {rel for rel in (candidates or set())
              if all(_same_file(inventory[langs[0]][rel], inventory[c][rel]) for c in langs[1:])}

    written = set()
    for rel in sorted(shared):
        copy_if_changed(inventory[langs[0]][rel], out / rel)
        written.add(rel)
    per_language = {}
    pages = {}
    books = {}
    for code in langs:         # the PDF books of tools/build_pdf.py, where one has been printed
        book = BUILD / "pdf" / book_pdf_name(code)
        if book.exists():
            copy_if_changed(book, out / code / book.name)
            written.add(f"{code}/{book.name}")
            books[code] = book.name
    for code in langs:
        own = []
        for rel, src in sorted(inventory[code].items()):
            if rel in shared:
                continue
            page = f"{code}/{rel}"
            if rel.endswith(".html"):
                text = rewrite_shared_urls(src.read_text(encoding="utf8"), page, shared)
                if code not in books:      # no book printed yet: the menu does not offer it
                    text = BOOK_PDF_ENTRY.sub("", text)
                pages[page] = text
            else:
                copy_if_changed(src, out / page)
            written.add(page)
            if rel.split("/", 1)[0] in SHARED_DIRS:
                own.append(rel)
        per_language[code] = own
    # The formulas, typeset here once (tools/static_math.py): no page loads MathJax to do it.
    from tools import static_math
    typeset, math_css = static_math.typeset_pages(pages, BUILD_VENDOR / "mathjax", BUILD / "math")
    for page, text in pages.items():
        write_if_changed(out / page, typeset.get(page, text))
    if math_css:
        write_if_changed(out / MATH_STYLESHEET, math_css)
        written.add(MATH_STYLESHEET)
    keep = written | {"index.html", "build-info.json"} | {f"{c}/{SEARCH_INDEX}" for c in langs}
    for path in sorted(out.rglob("*"), reverse=True):
        rel = path.relative_to(out).as_posix()
        if path.is_file() and rel not in keep:
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return {"shared": sorted(shared), "per_language": per_language, "files": len(written), "books": books}


# --------------------------------------------------------------------------- building

def build_one(lang: str, fresh: bool = False) -> int:
    """One Sphinx build (runs in its own process: docutils state is global)."""
    from jupyter_book.sphinx import build_sphinx
    src = STAGE / lang
    result = build_sphinx(
        str(src), str(RAW / lang),
        noconfig=True,
        path_config=str(src / "_config.yml"),
        confoverrides={"external_toc_path": str(src / "_toc.yml"), "latex_individualpages": False},
        doctreedir=str(DOCTREES / lang),
        builder="html",
        warningiserror=True,
        keep_going=True,
        freshenv=fresh,
        quiet=not os.environ.get("COURSE_SITE_VERBOSE"),
    )
    if isinstance(result, Exception):
        return 2
    return int(result or 0)


def _section_range(names: list[str], dash: str = "–", sep: str = ", ") -> str:
    """``1–§5`` (to follow a "§") for exercise notebooks ex01..ex05: their number is the section they follow;
    ``1, §3`` for a list that is not a range, ``sep`` (site.book.words.list_sep) between its numbers."""
    numbers = sorted({int(m.group(1)) for n in names if (m := re.match(r"\D*(\d+)", n))})
    if not numbers:
        return ""
    if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 1:
        return f"{numbers[0]}{dash}§{numbers[-1]}"
    return f"{sep}§".join(str(n) for n in numbers)


def landing_page(langs: list[dict], roots: dict, title_by_lang: dict, docs: dict | None = None,
                 binder_url: str = "", repo_url: str = "", branch: str = "main") -> str:
    """The landing page (site/landing.html rendered): what the course is, in every language, each
    section ending with the footer of that language's pages (version and licences)."""
    import jinja2
    from markupsafe import Markup
    if str(SITE_SRC) not in sys.path:
        sys.path.insert(0, str(SITE_SRC))
    from landing_texts import landing_texts
    import course_site
    from course_book import WORDS as BOOK_WORDS             # list_sep: between the numbers of §1, §3
    docs = docs or {}
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(SITE_SRC)), autoescape=True,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True)
    items = []
    for spec in langs:
        code = spec["code"]
        if code not in roots:
            continue
        pages = docs.get(code) or []
        chapters = [d.split("/", 1)[1] for d in pages if d.startswith("chapters/")]
        exercises = [d for d in pages if d.startswith("exercises/")]
        solutions = [d for d in pages if d.startswith("solutions/")]
        numbers = [int(m.group(1)) for n in chapters if (m := re.match(r"(\d+)", n))]
        items.append({
            "code": code, "html_lang": spec["html_lang"], "label": spec["label"],
            "title": title_by_lang[code],
            "start": f"{code}/{roots[code]}.html",
            "exercises": f"{code}/{exercises[0]}.html" if exercises else "",
            "solutions": f"{code}/{solutions[0]}.html" if solutions else "",
            "sections": max(numbers) if numbers else 0,
            "exercise_sections": _section_range([e.split("/", 1)[1] for e in exercises], WORDS["range_dash"][code],
                                                BOOK_WORDS["list_sep"][code]),
        })
        kind, _, name = roots[code].partition("/")
        items[-1]["texts"] = landing_texts(code, {**items[-1], "binder_url": binder_url,
                                                  "notebook": f"{kind}/{code}/{name}.ipynb"})
        items[-1]["footer"] = course_site.footer({"repo_url": repo_url, "branch": branch}, package_version(), code)
    targets = json.dumps({i["code"]: i["start"] for i in items})
    # the word "Language" in each language of the page, joined with " / "
    switcher_label = " / ".join(WORDS["switcher_label"][i["code"]] for i in items)
    return env.get_template("landing.html").render(
        languages=items, targets=Markup(targets), favicon="_static/favicon.svg",
        binder_url=binder_url, repo_url=repo_url, switcher_label=switcher_label)


MEDIAN_GOAL = 500 * 1000           # bytes, gzip, first visit: the median page may weigh no more (tests/test_site.py)
HEAVIEST_LIMIT = 1000 * 1000       # bytes, gzip, first visit: no page may weigh more (tests/test_site.py)
SCRIPT_SRC = re.compile(r'<script\b[^>]*\ssrc="([^"]+)"')
LINK_HREF = re.compile(r'<link\b([^>]*)>')
IMG_SRC = re.compile(r'<img\b[^>]*\ssrc="([^"]+)"')
FONT_FACE = re.compile(r"@font-face[^{]*\{[^}]*font-family:\s*([^;]+);[^}]*src:\s*url\((['\"]?)([^)'\"]+)\2\)", re.S)


def _css_closure(site: Path, path: str, seen: set) -> None:
    """``path`` and the stylesheets it @imports."""
    if path in seen or not (site / path).is_file():
        return
    seen.add(path)
    for ref in re.findall(r"""@import\s+(?:url\()?["']([^"')]+)""", (site / path).read_text(encoding="utf8")):
        _css_closure(site, posixpath.normpath(posixpath.join(posixpath.dirname(path), ref)), seen)


def first_visit(site: Path, page: str) -> set[str]:
    """The files a first visit to ``page`` (``en/chapters/02_heads.html``) loads before the reader
    scrolls, as far as the page and its stylesheets say: the page, its scripts, stylesheets (and
    what they import), images and favicon, the icon fonts, and the formulas' fonts its formulas
    use (MathJax's main and zero-width fonts, one font per TEX-* class on the page, the size fonts
    where a delimiter stretches). An upper bound of what a browser fetches: tests/test_site.py
    checks in Chromium that every page loads nothing outside it, and bounds its median and
    heaviest weight."""
    text = (site / page).read_text(encoding="utf8")
    here = posixpath.dirname(page)

    def local(ref):
        parts = _split_url(html.unescape(ref))
        return posixpath.normpath(posixpath.join(here, parts[0])) if parts and parts[0] else None

    files = {page}
    styles = set()
    body = re.sub(r"<script\b[^>]*>.*?</script>", lambda m: m.group(0).split(">", 1)[0] + ">", text, flags=re.S)
    for ref in SCRIPT_SRC.findall(body) + IMG_SRC.findall(body):
        files.add(local(ref))
    for attrs in LINK_HREF.findall(body):
        rel = (re.search(r'\srel="([^"]+)"', attrs) or [None, ""])[1].split()
        href = re.search(r'\shref="([^"]+)"', attrs)
        if href and ("stylesheet" in rel or "icon" in rel or "preload" in rel):
            target = local(href.group(1))
            if "stylesheet" in rel and target:
                _css_closure(site, target, styles)
            else:
                files.add(target)
    files |= styles
    math_classes = {"MJX-TEX"} | set(re.findall(r"\b(TEX-[A-Z0-9]+)\b", text))
    if "<mjx-stretchy" in text:
        math_classes |= {"TEX-S1", "TEX-S4", "TEX-A"}
    for css in styles:
        sheet = (site / css).read_text(encoding="utf8")
        families = {}
        for family, _, url in FONT_FACE.findall(sheet):
            families.setdefault(family.strip().strip("'\""), []).append(posixpath.normpath(posixpath.join(posixpath.dirname(css), url)))
        if css.endswith(ICONS_CSS):                        # the icon subsets: small, all counted
            files |= {f for urls in families.values() for f in urls}
        elif css.endswith(posixpath.basename(MATH_STYLESHEET)):
            wanted = {"MJXZERO"} | {"MJX" + c.replace("MJX-", "") if c == "MJX-TEX" else "MJX" + c for c in math_classes}
            files |= {f for family, urls in families.items() if family in wanted for f in urls}
    return {f for f in files if f and (site / f).is_file()}


def switch_costs(rows: list[dict]) -> list[dict]:
    """What switching language costs: for every page and every other language, the
    files the page in the new language loads that the page in the old one did not
    (a browser has the rest in its cache, same URL). Rows need ``files``:
    ``{site path: [raw bytes, gzip bytes]}``."""
    by_page = {}
    for row in rows:
        lang, _, name = row["page"].partition("/")
        by_page.setdefault(name, {})[lang] = row
    costs = []
    for name, langs in sorted(by_page.items()):
        for old, a in langs.items():
            for new, b in langs.items():
                if old == new or "files" not in a or "files" not in b:
                    continue
                extra = {f: size for f, size in b["files"].items() if f not in a["files"]}
                costs.append({"from": a["page"], "to": b["page"], "files": sorted(extra),
                              "bytes": sum(v[0] for v in extra.values()),
                              "gzip_bytes": sum(v[1] for v in extra.values())})
    return costs


def report_lines(rows: list[dict]) -> list[str]:
    """Summary of the page weights and load times measured by tests/test_site.py."""
    import statistics
    kib = 1024

    def spread(values):
        values = list(values)
        return f"median {statistics.median(values) / kib:.0f} KiB, max {max(values) / kib:.0f} KiB"

    heaviest = sorted(rows, key=lambda r: -r.get("gzip_bytes", r["bytes"]))[:5]
    slowest = sorted(rows, key=lambda r: -r["ready_ms"])[:5]
    lines = [f"course site, {len(rows)} pages, first visit (HTML + everything it loads):"
             f" uncompressed {spread(r['bytes'] for r in rows)}"]
    if all("gzip_bytes" in r for r in rows):
        gz = [r["gzip_bytes"] for r in rows]
        lines.append(f"  gzip-compressed {spread(gz)} (limits: median <= {MEDIAN_GOAL / 1000:.0f} KB, "
                     f"every page <= {HEAVIEST_LIMIT / 1000:.0f} KB)")
    costs = switch_costs(rows)
    if costs:
        lines.append(f"  switching language (what the new page loads that the old one did not): "
                     f"uncompressed {spread(c['bytes'] for c in costs)}, gzip {spread(c['gzip_bytes'] for c in costs)}")
        def kind(f):
            return "the page's HTML" if f.endswith(".html") else "its images" if "_images/" in f else posixpath.basename(f)
        kinds = sorted({kind(f) for c in costs for f in c["files"]})
        lines.append(f"    loaded anew on a switch: {', '.join(kinds)}")
    lines += [
        "  heaviest (gzip): " + ", ".join(f"{r['page']} {r.get('gzip_bytes', r['bytes']) / kib:.0f} KiB "
                                          f"({r['requests']} requests)" for r in heaviest),
        "  slowest (ms to the load event / until math and widgets are rendered): "
        + ", ".join(f"{r['page']} {r['load_ms']:.0f}/{r['ready_ms']:.0f}" for r in slowest),
        f"  every page: {BUILD / 'site-report.json'}",
    ]
    return lines


def serve(port: int, directory: Path = OUT) -> None:
    import functools
    import http.server
    if not (directory / "index.html").exists():
        raise SystemExit(f"{directory} is not built yet: run `make book` first")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(directory))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        print(f"serving {directory} on http://127.0.0.1:{server.server_address[1]}/  (Ctrl+C stops)")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lang", action="append", help="build only this language (repeatable)")
    parser.add_argument("--clean", action="store_true", help="remove previous output first")
    parser.add_argument("--jobs", type=int, default=3, help="parallel language builds (default 3)")
    parser.add_argument("--serve", action="store_true", help="serve _build/site instead of building")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8000)),
                        help="port for --serve (default $PORT or 8000)")
    parser.add_argument("--report", action="store_true",
                        help="print the page weights and load times measured by tests/test_site.py")
    parser.add_argument("--build-dir", type=Path, default=None,
                        help="build into this folder instead of _build (the site lands in DIR/site)")
    parser.add_argument("--repository-url", default=None,
                        help="use this repository URL instead of repository.url in _config.yml "
                             "(e.g. to check the launch buttons)")
    parser.add_argument("--reuse-from", type=Path, default=None, metavar="DIR",
                        help="take the course's wheel and the typeset formulas' cache from DIR, the build folder "
                             "of a site just built from this same checkout (tests/test_site_launch.py's second "
                             "build, after the default one): neither depends on the build folder or the "
                             "repository URL; the formulas' cache is checked formula by formula as always")
    parser.add_argument("--assemble-only", action="store_true",
                        help="only assemble _build/site again from the last Sphinx builds (tools/build_pdf.py "
                             "does, to link the books it printed)")
    parser.add_argument("--one", metavar="LANG", help=argparse.SUPPRESS)   # internal: one Sphinx build
    parser.add_argument("--fresh", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.build_dir is not None:
        use_build_dir(args.build_dir if args.build_dir.is_absolute() else Path.cwd() / args.build_dir)

    if args.serve:
        serve(args.port, OUT)
        return 0
    if args.report:
        path = BUILD / "site-report.json"
        if not path.exists():
            raise SystemExit(f"{path} does not exist: run `pytest tests/test_site.py` first")
        print("\n".join(report_lines(json.loads(path.read_text(encoding="utf8")))))
        return 0
    if args.one:
        return build_one(args.one, fresh=args.fresh)

    # One build at a time in this working tree (several people, pytest-xdist workers).
    import fcntl
    BUILD.mkdir(parents=True, exist_ok=True)
    with open(BUILD / "site-build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return build(args)


def build(args) -> int:
    start = time.perf_counter()
    base = load_yaml(ROOT / "_config.yml")
    if args.repository_url is not None:
        base["repository"] = dict(base.get("repository") or {}, url=args.repository_url)
    toc = load_yaml(ROOT / "_toc.yml")
    langs = site_languages(base)
    codes = [s["code"] for s in langs]
    if args.assemble_only:
        if not any((RAW / c).is_dir() for c in codes):
            raise SystemExit(f"{RAW} holds no Sphinx build: run `make book` first")
        docs, roots = {}, {}
        for code in codes:
            toc_lang, docs[code], _ = derive_toc(toc, code, existing_docs(code))
            roots[code] = toc_lang["root"]
        return publish(base, langs, docs, roots, start)
    selected = args.lang or codes
    unknown = sorted(set(selected) - set(codes))
    if unknown:
        raise SystemExit(f"unknown language(s) {unknown}; _config.yml has {codes}")

    if args.clean:
        for path in [OUT, RAW, DOCTREES, STAGE, LOGS, NB_OUTPUTS]:
            shutil.rmtree(path, ignore_errors=True)
        for path in BUILD.glob(".doctrees*"):
            shutil.rmtree(path, ignore_errors=True)
    fetch_vendor()
    fetch_vendor(group="build_packages")
    make_icon_subset()
    if not (args.reuse_from and reuse_build(args.reuse_from)):
        build_course_wheel()

    # Every language's pages first, so each site's switcher knows what exists elsewhere.
    docs, roots, tocs, failures = {}, {}, {}, []
    for code in codes:
        toc_lang, order, notes = derive_toc(toc, code, existing_docs(code))
        docs[code], roots[code], tocs[code] = order, toc_lang["root"], toc_lang
        if code in selected:
            for note in notes:
                print(f"[{code}] note: {note}")
    for code in selected:
        errors, notes = check_notebooks(code, docs[code])
        for note in notes:
            print(f"[{code}] note: {note}")
        failures += [f"[{code}] {e}" for e in errors]
        try:
            stage(code, base, docs, roots, tocs[code])
        except ValueError as error:        # tools.quizzes.QuizError: a question the build refuses
            print(f"[{code}] {error}")
            return 1
    if failures:
        print("notebooks with unexpected errors (tag the cell `raises-exception` if intended):")
        print("\n".join("  " + f for f in failures))
        return 1

    LOGS.mkdir(parents=True, exist_ok=True)
    pending = list(selected)
    running, codes_rc = {}, {}
    while pending or running:
        while pending and len(running) < max(1, args.jobs):
            code = pending.pop(0)
            log = (LOGS / f"{code}.log").open("w", encoding="utf8")
            cmd = [sys.executable, str(Path(__file__).resolve()), "--build-dir", str(BUILD), "--one", code]
            if args.clean:
                cmd.append("--fresh")
            running[code] = (subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT), log, time.perf_counter())
        for code, (proc, log, t0) in list(running.items()):
            if proc.poll() is None and time.perf_counter() - t0 > LANGUAGE_TIMEOUT:
                proc.kill()                     # a Sphinx build that hangs fails the build instead
                proc.wait(timeout=60)
                print(f"[{code}] stopped after {LANGUAGE_TIMEOUT} s", file=log, flush=True)
            if proc.poll() is not None:
                log.close()
                codes_rc[code] = proc.returncode
                print(f"[{code}] {'ok' if proc.returncode == 0 else 'FAILED'} in {time.perf_counter() - t0:.1f} s")
                del running[code]
        time.sleep(0.1)

    bad = [c for c in selected if codes_rc.get(c)]
    for code in bad:
        print(f"---- {LOGS / f'{code}.log'} ----")
        print((LOGS / f"{code}.log").read_text(encoding="utf8")[-20000:])
    if bad:
        print(f"site build failed for: {', '.join(bad)} (warnings are errors)")
        return 1
    return publish(base, langs, docs, roots, start)


def publish(base: dict, langs: list[dict], docs: dict, roots: dict, start: float) -> int:
    """Assemble _build/site from the Sphinx outputs in _build/html: shared files, formulas, the books'
    PDFs where they exist, search indexes, the landing page; then check every reference."""
    codes = [s["code"] for s in langs]
    built = [c for c in codes if (RAW / c / "index.html").exists() or (RAW / c / f"{roots[c]}.html").exists()]
    from tools.static_math import MathError
    try:
        summary = assemble(built)
    except MathError as error:
        print(f"the formulas could not be typeset: {error}")
        return 1
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools import search_index
    for code in built:     # the site's search index (site/static/course-search.js), per language
        # (from the pages as Sphinx wrote them, where a formula is still its TeX)
        write_if_changed(OUT / code / SEARCH_INDEX, search_index.script(search_index.build(RAW / code, code, docs[code])))
    # The landing page is written before the references are checked, so that a
    # landing page left by an older build is never the one checked.
    titles = {s["code"]: s.get("title", base.get("title", "")) for s in langs}
    repo_url = ((base.get("repository") or {}).get("url") or "").strip()
    launch = dict(base.get("launch_buttons") or {})
    binder = ""
    if repo_url and launch.get("binderhub_url"):
        sys.path.insert(0, str(SITE_SRC))
        import course_site
        binder = course_site.launch_links({"repo_url": repo_url, "branch": (base.get("repository") or {}).get("branch"),
                                           "binderhub_url": launch["binderhub_url"]}, roots.get("en", ""), "en")[0]["url"]
        binder = binder.split("?", 1)[0]                  # the repository, not one notebook
    write_if_changed(OUT / "index.html", landing_page([s for s in langs if s["code"] in built], roots, titles,
                                                      docs, repo_url=repo_url, binder_url=binder,
                                                      branch=(base.get("repository") or {}).get("branch") or "main"))
    problems = broken_references(OUT, {p.relative_to(OUT).as_posix() for p in OUT.rglob("*") if p.is_file()},
                                 tuple(f"{c}/" for c in codes if c not in built))
    theme_css = (OUT / "_static" / "styles" / "pydata-sphinx-theme.css")
    icons_css = (VENDOR_STATIC / ICONS_CSS).read_text(encoding="utf8")
    if theme_css.exists():
        css = theme_css.read_text(encoding="utf8")
        for page in sorted(OUT.glob("*/**/*.html")):
            missing = icon_classes_missing(page.read_text(encoding="utf8"), css, icons_css)
            if missing:
                problems.append(f"{page.relative_to(OUT)}: icons not in the subset: {', '.join(missing)} "
                                f"(name them in site/templates or site/course_site.py)")
    if problems:
        print("the assembled site has references to missing files:")
        print("\n".join("  " + p for p in problems[:50]))
        return 1

    info = {
        "languages": [{"code": s["code"], "label": s["label"], "html_lang": s["html_lang"],
                       "sphinx_language": s["sphinx_language"], "root": roots[s["code"]],
                       "pages": docs[s["code"]]} for s in langs if s["code"] in built],
        "repository_url": repo_url,
        "shared_files": len(summary["shared"]),
        "per_language_files": summary["per_language"],
        "books": summary["books"],           # {lang: the PDF book in <lang>/} (tools/build_pdf.py)
        "vendor": json.loads((SITE_SRC / "vendor.json").read_text(encoding="utf8"))["packages"],
    }
    for pkg in info["vendor"]:
        pkg.pop("files", None)
    write_if_changed(OUT / "build-info.json", json.dumps(info, ensure_ascii=False, indent=1))
    print(f"site built in {time.perf_counter() - start:.1f} s: {OUT}/index.html  "
          f"({len(summary['shared'])} files shared by {len(built)} languages; serve it with `make serve`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
