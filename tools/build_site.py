"""Build the course website: one Jupyter Book (Sphinx) build per language.

    python tools/build_site.py               # build zh, en, ru (incremental), warnings are errors
    python tools/build_site.py --clean       # start from scratch (keeps the npm tarball cache)
    python tools/build_site.py --lang en     # only some languages (repeatable)
    python tools/build_site.py --serve       # serve _build/site on http://127.0.0.1:8000/

Result: ``_build/site/{zh,en,ru}/`` plus a landing page ``_build/site/index.html``
that links the three and sends a visitor to the one matching the browser's
language, and ``_build/site/build-info.json`` (languages, pages, build time)
that the browser tests read.

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
  read, so every warning shows up).
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
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import yaml

# jsonschema (imported by Jupyter Book and nbformat) compiles some 40 grammars of
# the optional rfc3987_syntax package at import time, ~2.5 s per process, for an
# "iri" format check that neither uses. Skip it.
sys.modules.setdefault("rfc3987_syntax", None)

ROOT = Path(__file__).resolve().parent.parent
SITE_SRC = ROOT / "site"
BUILD = ROOT / "_build"
OUT = BUILD / "site"
STAGE = BUILD / "src"
DOCTREES = BUILD / "doctrees"
LOGS = BUILD / "logs"
NB_OUTPUTS = BUILD / "nb_outputs"      # myst-nb's per-language jupyter_execute folders
VENDOR = BUILD / "vendor"
VENDOR_STATIC = VENDOR / "static"        # html_static_path entry: files land in _static/vendor/...
KINDS = ("chapters", "exercises", "solutions")
EXECUTED_KINDS = ("chapters", "solutions")   # committed with outputs; errors there fail the build

SWITCHER_LABEL = {"zh": "语言", "en": "Language", "ru": "Язык"}


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
    parts, missing = [], []
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
        if folder:
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
    if not repo_url:
        htmlcfg["use_repository_button"] = False
        htmlcfg["use_issues_button"] = False
        htmlcfg["use_edit_page_button"] = False

    sphinx = cfg.setdefault("sphinx", {})
    sphinx["recursive_update"] = True
    sphinx.setdefault("local_extensions", {})
    sphinx["local_extensions"] = dict(sphinx["local_extensions"] or {}, course_site=str(SITE_SRC),
                                      course_interactive=str(SITE_SRC))   # site/course_interactive.py
    sc = sphinx.setdefault("config", {}) or {}
    sphinx["config"] = sc
    # Jupyter Book's extensions, less sphinx-thebe, which this site does not use
    # (live code from a CDN; under Sphinx 7 it also declares a `const` twice,
    # a JavaScript error on every page).
    from jupyter_book.config import get_default_sphinx_config
    sc["extensions"] = [e for e in get_default_sphinx_config()["extensions"]
                        if e != "sphinx_thebe"] + ["course_site", "course_interactive"]
    sc["language"] = spec["sphinx_language"]
    sc["project"] = cfg["title"]
    sc["html_static_path"] = [str(SITE_SRC / "static"), str(VENDOR_STATIC)]
    sc["html_favicon"] = str(SITE_SRC / "static" / "favicon.svg")
    sc["html_css_files"] = ["course.css"]
    sc["html_js_files"] = ["course.js"]
    sc["templates_path"] = [str(SITE_SRC / "templates")]
    sc["locale_dirs"] = [str(stage / "locale")]
    sc["gettext_compact"] = False
    sc["mathjax_path"] = "vendor/mathjax/tex-mml-chtml.js"
    sc["nb_ipywidgets_js"] = {
        "widgets-setup.js": {},
        "vendor/requirejs/require.js": {},
        # Widget modules that are not bundled would be fetched from this
        # prefix; keep it on the site so nothing ever goes to a CDN.
        "vendor/html-manager/embed-amd.js": {"data-jupyter-widgets-cdn": "_static/vendor/widget-modules/"},
    }
    theme = sc.setdefault("html_theme_options", {})
    theme["article_header_end"] = ["lang-switcher", "article-header-buttons"]
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
    sc["course_switcher_label"] = SWITCHER_LABEL.get(lang, "Language")
    sc["course_locale_dir"] = str(stage / "locale")
    sc["course_assets_version"] = site_assets_digest(spec["sphinx_language"])
    sc["course_nb_output_folder"] = str(NB_OUTPUTS / lang)
    sc["course_launch"] = {
        "repo_url": repo_url,
        "branch": repo.get("branch") or "main",
        "binderhub_url": launch.get("binderhub_url", "") if repo_url else "",
        "local_jupyterlab_url": launch.get("local_jupyterlab_url", "") if repo_url else "",
        "notebook_interface": launch.get("notebook_interface", "jupyterlab"),
    }
    return cfg


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
    """Changes when the site's translations, static files or vendored packages
    change. Sphinx rewrites every page when a config value changes, but not when
    only a static file does ("no targets are out of date")."""
    digest = hashlib.sha256()
    files = sorted((SITE_SRC / "locale" / sphinx_lang / "LC_MESSAGES").glob("*.po"))
    files += sorted(p for p in (SITE_SRC / "static").rglob("*") if p.is_file())
    files += [SITE_SRC / "vendor.json"]
    for path in files:
        digest.update(str(path.relative_to(SITE_SRC)).encode() + b"\0" + path.read_bytes())
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


def fetch_vendor(quiet: bool = False) -> Path:
    """Fetch the pinned npm tarballs (cached) and unpack the needed files."""
    spec = json.loads((SITE_SRC / "vendor.json").read_text(encoding="utf8"))
    stamp_text = json.dumps(spec["packages"], sort_keys=True)
    target = VENDOR_STATIC / "vendor"
    stamp = VENDOR / "unpacked.json"
    if stamp.exists() and stamp.read_text(encoding="utf8") == stamp_text and target.is_dir():
        return target
    cache = VENDOR / "tarballs"
    cache.mkdir(parents=True, exist_ok=True)
    if target.exists():
        shutil.rmtree(target)
    for pkg in spec["packages"]:
        ident = f"{pkg['name']}@{pkg['version']}"
        tarball = cache / (pkg["name"].lstrip("@").replace("/", "-") + f"-{pkg['version']}.tgz")
        if not tarball.exists() or _integrity(tarball.read_bytes()) != pkg["integrity"]:
            npm = shutil.which("npm")
            if not npm:
                raise SystemExit("npm is needed once to fetch MathJax and the widget manager "
                                 "from the npm registry (Debian: apt-get install npm)")
            if not quiet:
                print(f"fetching {ident} from the npm registry")
            proc = subprocess.run([npm, "pack", ident, "--json", "--pack-destination", str(cache)],
                                  cwd=cache, capture_output=True, text=True)
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


# --------------------------------------------------------------------------- building

def build_one(lang: str, fresh: bool = False) -> int:
    """One Sphinx build (runs in its own process: docutils state is global)."""
    from jupyter_book.sphinx import build_sphinx
    src = STAGE / lang
    result = build_sphinx(
        str(src), str(OUT / lang),
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


def landing_page(langs: list[dict], roots: dict, title_by_lang: dict) -> str:
    template = (SITE_SRC / "landing.html").read_text(encoding="utf8")
    items = "\n".join(
        f'      <li><a href="{s["code"]}/{roots[s["code"]]}.html" hreflang="{s["html_lang"]}" '
        f'lang="{s["html_lang"]}" data-course-lang="{s["code"]}">'
        f'<span class="label">{html.escape(s["label"])}</span>'
        f'<span class="title">{html.escape(title_by_lang[s["code"]])}</span></a></li>'
        for s in langs if s["code"] in roots)
    targets = json.dumps({s["code"]: f'{s["code"]}/{roots[s["code"]]}.html' for s in langs if s["code"] in roots})
    titles = " · ".join(html.escape(title_by_lang[s["code"]]) for s in langs if s["code"] in roots)
    favicon = f'{langs[0]["code"]}/_static/favicon.svg' if langs else ""
    return (template.replace("{{ items }}", items)
            .replace("{{ favicon }}", favicon)
            .replace("{{ targets }}", targets)
            .replace("{{ titles }}", titles))


def report_lines(rows: list[dict]) -> list[str]:
    """Summary of the page weights and load times measured by tests/test_site.py."""
    import statistics
    weights = [r["bytes"] for r in rows]
    heaviest = sorted(rows, key=lambda r: -r["bytes"])[:5]
    slowest = sorted(rows, key=lambda r: -r["ready_ms"])[:5]
    kib = 1024
    return [
        f"course site, {len(rows)} pages, first visit (HTML + everything it loads, uncompressed): "
        f"median {statistics.median(weights) / kib:.0f} KiB, min {min(weights) / kib:.0f} KiB, "
        f"max {max(weights) / kib:.0f} KiB"
        + (f"; gzip-compressed median {statistics.median(r['gzip_bytes'] for r in rows) / kib:.0f} KiB, "
           f"max {max(r['gzip_bytes'] for r in rows) / kib:.0f} KiB" if all("gzip_bytes" in r for r in rows) else ""),
        "  heaviest: " + ", ".join(f"{r['page']} {r['bytes'] / kib:.0f} KiB ({r['requests']} requests)"
                                   for r in heaviest),
        "  slowest (ms to the load event / until math and widgets are rendered): "
        + ", ".join(f"{r['page']} {r['load_ms']:.0f}/{r['ready_ms']:.0f}" for r in slowest),
        f"  every page: {BUILD / 'site-report.json'}",
    ]


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
    parser.add_argument("--one", metavar="LANG", help=argparse.SUPPRESS)   # internal: one Sphinx build
    parser.add_argument("--fresh", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.serve:
        serve(args.port)
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
    toc = load_yaml(ROOT / "_toc.yml")
    langs = site_languages(base)
    codes = [s["code"] for s in langs]
    selected = args.lang or codes
    unknown = sorted(set(selected) - set(codes))
    if unknown:
        raise SystemExit(f"unknown language(s) {unknown}; _config.yml has {codes}")

    if args.clean:
        for path in [OUT, DOCTREES, STAGE, LOGS, NB_OUTPUTS]:
            shutil.rmtree(path, ignore_errors=True)
        for path in BUILD.glob(".doctrees*"):
            shutil.rmtree(path, ignore_errors=True)
    fetch_vendor()

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
        stage(code, base, docs, roots, tocs[code])
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
            cmd = [sys.executable, str(Path(__file__).resolve()), "--one", code]
            if args.clean:
                cmd.append("--fresh")
            running[code] = (subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT), log, time.perf_counter())
        for code, (proc, log, t0) in list(running.items()):
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

    built = [c for c in codes if (OUT / c / "index.html").exists() or (OUT / c / f"{roots[c]}.html").exists()]
    titles = {s["code"]: s.get("title", base.get("title", "")) for s in langs}
    write_if_changed(OUT / "index.html", landing_page([s for s in langs if s["code"] in built], roots, titles))
    info = {
        "languages": [{"code": s["code"], "label": s["label"], "html_lang": s["html_lang"],
                       "sphinx_language": s["sphinx_language"], "root": roots[s["code"]],
                       "pages": docs[s["code"]]} for s in langs if s["code"] in built],
        "vendor": json.loads((SITE_SRC / "vendor.json").read_text(encoding="utf8"))["packages"],
    }
    for pkg in info["vendor"]:
        pkg.pop("files", None)
    write_if_changed(OUT / "build-info.json", json.dumps(info, ensure_ascii=False, indent=1))
    print(f"site built in {time.perf_counter() - start:.1f} s: {OUT}/index.html  "
          f"(serve it with `make serve`)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
