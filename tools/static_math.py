"""Formulas typeset at build time: the site sends no MathJax to the reader.

Sphinx writes each formula as TeX (``<span class="math">\\(W_O\\)</span>``, display maths
``\\[ ... \\]``) and a reader's browser used to load MathJax (1.2 MB of script, half of §7's
weight) to typeset it, after which every formula was also a tab stop. Here the assembled site's
pages are typeset once, by the same MathJax 3 (npm ``mathjax``, pinned in ``site/vendor.json``)
running in Node (``site/math-render.js``): every formula becomes CommonHTML, drawn with
MathJax's web fonts and carrying its MathML for screen readers. One stylesheet,
``_static/course-math.css``, holds the rules of every character used on the site; a page with
formulas links it, and loads only the fonts its characters need.

What is typeset is what MathJax would have typeset in the browser: TeX between ``\\( \\)``,
``\\[ \\]`` or ``$$ $$`` in the text of the page, not in ``<script>``, ``<style>``, ``<pre>``,
``<code>``, ``<textarea>``, nor in an element of class ``tex2jax_ignore`` / ``mathjax_ignore``
unless inside one of class ``math`` (the options Sphinx and myst-nb gave MathJax).
A TeX error fails the build (the page and the formula are named).

Rendering every formula of the three languages takes a few seconds; the result is cached in
``_build/math/`` and reused while the site holds no formula it has not seen.
"""

from __future__ import annotations

import hashlib
import html
import json
import os
import posixpath
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RENDERER = ROOT / "site" / "math-render.js"
STYLESHEET = "_static/course-math.css"                       # in the assembled site
FONTS = "vendor/mathjax/output/chtml/fonts/woff-v2"            # relative to the stylesheet
NODE_TIMEOUT = 600                  # s: MathJax in Node typesets the ~2,000 formulas of the three languages in ~5 s

SKIP_TAGS = {"script", "style", "textarea", "pre", "code", "noscript", "annotation", "annotation-xml"}
IGNORE_CLASS = re.compile(r"(?:^|\s)(?:tex2jax_ignore|mathjax_ignore)(?=\s|$)")           # as MathJax reads classes:
PROCESS_CLASS = re.compile(r"(?:^|\s)(?:tex2jax_process|mathjax_process|math|output_area)(?=\s|$)")   # whole names
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
TOKEN = re.compile(r"<!--.*?-->|<(/?)([a-zA-Z][\w:-]*)([^>]*)>|([^<]+)", re.S)
DELIMITED = re.compile(r"\\\((.+?)\\\)|\\\[(.+?)\\\]|\$\$(.+?)\$\$", re.S)


class MathError(RuntimeError):
    """A formula MathJax cannot typeset, or no Node to run it."""


def formulas(page: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, TeX, display) of every formula MathJax would typeset in ``page`` (HTML),
    with the options the pages gave it: the whole body, less the text of SKIP_TAGS, and less
    elements of class IGNORE_CLASS unless inside one of class PROCESS_CLASS (myst-nb marks
    each page's top section ``tex2jax_ignore mathjax_ignore``; Sphinx's formulas are spans
    of class ``math``)."""
    found = []
    stack = []                 # open elements: (name, typeset inside?)
    in_body = "<body" not in page
    for m in TOKEN.finditer(page):
        closing, name, attrs, text = m.group(1), (m.group(2) or "").lower(), m.group(3) or "", m.group(4)
        if text is not None:
            typeset = stack[-1][1] if stack else True
            if in_body and typeset and ("\\" in text or "$$" in text):
                for f in DELIMITED.finditer(text):
                    tex = next(g for g in f.groups() if g is not None)
                    found.append((m.start() + f.start(), m.start() + f.end(), html.unescape(tex).strip(),
                                  f.group(1) is None))
            continue
        if not name:
            continue                                                   # a comment
        if name == "body" and not closing:
            in_body = True
        if closing:
            for k in range(len(stack) - 1, -1, -1):                    # tolerate unclosed elements
                if stack[k][0] == name:
                    del stack[k:]
                    break
            continue
        if name in VOID or attrs.rstrip().endswith("/"):
            continue
        outer = stack[-1][1] if stack else True
        if outer is None:                                              # inside a skipped tag: never
            stack.append((name, None))
            continue
        classes = re.search(r"""\bclass\s*=\s*(["'])(.*?)\1""", attrs, re.S)
        classes = classes.group(2) if classes else ""
        if name in SKIP_TAGS:
            state = None
        elif PROCESS_CLASS.search(classes):
            state = True
        elif IGNORE_CLASS.search(classes):
            state = False
        else:
            state = outer
        stack.append((name, state))
    return found


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if not node:
        raise MathError("Node.js is needed to typeset the site's formulas at build time "
                        "(it comes with npm; Debian: apt-get install nodejs npm)")
    return node


def render(keys: list[tuple[str, bool]], mathjax_es5: Path) -> tuple[list[str], str, list[tuple[int, str]]]:
    """Typeset ``keys`` ((TeX, display) pairs): (one HTML string per key, the stylesheet,
    [(index of a key MathJax could not typeset, its message)])."""
    if not keys:
        return [], "", []
    for needed in ("node-main.js", "input/tex-full.js", "output/chtml.js", "a11y/assistive-mml.js"):
        if not (mathjax_es5 / needed).exists():
            raise MathError(f"{mathjax_es5 / needed} is missing (tools/build_site.py fetches MathJax into it)")
    try:
        proc = subprocess.run([_node(), str(RENDERER), str(mathjax_es5), FONTS],
                              input=json.dumps([{"tex": t, "display": d} for t, d in keys]),
                              capture_output=True, text=True, encoding="utf8", timeout=NODE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise MathError(f"MathJax (Node) did not typeset {len(keys)} formulas in {NODE_TIMEOUT} s") from None
    if proc.returncode != 0:
        raise MathError(f"MathJax (Node) failed:\n{proc.stderr[-4000:]}")
    out = json.loads(proc.stdout)
    return out["html"], out["css"], [(i, message) for i, message in out["errors"]]


def _stamp(mathjax_es5: Path) -> str:
    digest = hashlib.sha256(RENDERER.read_bytes())
    for name in ("node-main.js", "input/tex-full.js", "output/chtml.js"):
        path = mathjax_es5 / name
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()[:16]


def typeset_pages(pages: dict[str, str], mathjax_es5: Path, cache_dir: Path) -> tuple[dict[str, str], str]:
    """Typeset every formula of ``pages`` ({site path: HTML}).

    Returns the pages that hold formulas, typeset and linking the stylesheet, and the
    stylesheet's text. A formula MathJax cannot typeset raises MathError naming its page."""
    found = {path: formulas(text) for path, text in pages.items()}
    keys = sorted({(tex, display) for spots in found.values() for _, _, tex, display in spots})
    cache_file = cache_dir / "cache.json"
    stamp = _stamp(mathjax_es5)
    cached = {}
    if cache_file.exists():
        try:
            cached = json.loads(cache_file.read_text(encoding="utf8"))
        except ValueError:
            cached = {}
    known = {(k[0], k[1]): h for k, h in zip(cached.get("keys", []), cached.get("html", []))} \
        if cached.get("stamp") == stamp else {}
    if all(k in known for k in keys) and keys:
        rendered, css = known, cached["css"]
    else:
        html_list, css, errors = render(keys, mathjax_es5)
        if errors:
            lines = []
            for i, message in errors:
                where = sorted(p for p, spots in found.items() if any((t, d) == keys[i] for _, _, t, d in spots))
                lines.append(f"  {keys[i][0]!r} ({message}) on {', '.join(where)}")
            raise MathError("TeX that MathJax cannot typeset:\n" + "\n".join(lines))
        rendered = dict(zip(keys, html_list))
        cache_dir.mkdir(parents=True, exist_ok=True)
        tmp = cache_file.with_suffix(".tmp")
        tmp.write_text(json.dumps({"stamp": stamp, "keys": [list(k) for k in keys], "html": html_list, "css": css},
                                  ensure_ascii=False), encoding="utf8")
        os.replace(tmp, cache_file)
    out = {}
    for path, spots in found.items():
        if not spots:
            continue
        text = pages[path]
        pieces, last = [], 0
        for start, end, tex, display in spots:
            pieces += [text[last:start], rendered[(tex, display)]]
            last = end
        pieces.append(text[last:])
        text = "".join(pieces)
        href = posixpath.relpath(STYLESHEET, posixpath.dirname(path) or ".")
        link = f'<link rel="stylesheet" type="text/css" href="{href}" />\n'
        text = text.replace("</head>", link + "</head>", 1) if "</head>" in text else link + text
        out[path] = text
    return out, css


SYMBOLS = {"sqrt": "√", "approx": "≈", "cdot": "·", "times": "×", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥",
           "ne": "≠", "neq": "≠", "infty": "∞", "sum": "Σ", "prod": "Π", "in": "∈", "to": "→", "rightarrow": "→",
           "leftarrow": "←", "partial": "∂", "pm": "±", "dots": "…", "ldots": "…", "cdots": "⋯", "top": "ᵀ",
           "prime": "′", "odot": "⊙", "otimes": "⊗", "oplus": "⊕", "mid": "|", "lVert": "‖", "rVert": "‖",
           "Vert": "‖", "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
           "Delta": "Δ", "Sigma": "Σ", "Theta": "Θ", "Omega": "Ω", "Lambda": "Λ", "Pi": "Π", "Phi": "Φ",
           "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε", "zeta": "ζ",
           "eta": "η", "theta": "θ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "rho": "ρ",
           "sigma": "σ", "tau": "τ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
           "ell": "ℓ", "mathbb{R}": "ℝ", "quad": " ", "qquad": " ", ",": " ", ";": " ", ":": " ", "!": "",
           "left": "", "right": "", "big": "", "Big": "", "bigg": "", "Bigg": "", "limits": "", "displaystyle": "",
           "{": "{", "}": "}", "_": "_", "%": "%", "&": "&", "#": "#", "$": "$", "\\": " "}
FONT_COMMANDS = {"mathcal", "mathbf", "mathrm", "mathit", "mathsf", "mathtt", "boldsymbol", "bm", "operatorname",
                 "mathbb", "mathscr", "mathfrak", "hat", "tilde", "bar", "vec", "widehat", "widetilde", "overline"}
TEXT_COMMANDS = {"text", "textrm", "texttt", "textbf", "textit", "mbox"}


# what tex_to_text writes for commands that SYMBOLS (for typesetting) leaves out
TEXT_SYMBOLS = {"lvert": "|", "rvert": "|", "vert": "|", "bmod": " mod ", "circ": "°", "propto": "∝"}


def tex_to_text(tex: str) -> str:
    """A formula as a reader would type it into a search box (``W_O``, ``√d``, ``L^* ≤ ln V``),
    for the search index and its snippets (tools/search_index.py)."""
    def group(i):
        """(content, next index) of the argument at ``i``: a {group}, a command or one character."""
        while i < len(tex) and tex[i] == " ":
            i += 1
        if i >= len(tex):
            return "", i
        if tex[i] == "{":
            depth, j = 0, i
            while j < len(tex):
                depth += {"{": 1, "}": -1}.get(tex[j], 0) if tex[j - 1:j] != "\\" else 0
                if depth == 0:
                    return tex[i + 1:j], j + 1
                j += 1
            return tex[i + 1:], len(tex)
        if tex[i] == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            return m.group(0), i + len(m.group(0))
        return tex[i], i + 1

    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", tex[i:]) or re.match(r"\\()", tex[i:])
            name, i = m.group(1), i + len(m.group(0))
            if name == "frac" or name in ("dfrac", "tfrac"):
                a, i = group(i)
                b, i = group(i)
                out.append(f"{tex_to_text(a)}/{tex_to_text(b)}")
            elif name == "sqrt":
                if tex[i:i + 1] == "[":
                    i = tex.find("]", i) + 1 or len(tex)
                a, i = group(i)
                out.append("√" + tex_to_text(a))
            elif name in FONT_COMMANDS:
                a, i = group(i)
                out.append(tex_to_text(a))
            elif name in TEXT_COMMANDS:
                a, i = group(i)
                out.append(a)
            elif name in ("log", "ln", "exp", "max", "min", "softmax", "sin", "cos", "tanh", "det", "arg", "argmax"):
                out.append(name + " ")
            elif name in ("begin", "end"):            # an environment's name is no part of the formula
                a, i = group(i)
                out.append(" ")
            elif name == "\\":                        # a new line, with its optional spacing [2ex]
                if tex[i:i + 1] == "[":
                    i = tex.find("]", i) + 1 or len(tex)
                out.append(" ")
            elif name in TEXT_SYMBOLS:
                out.append(TEXT_SYMBOLS[name])
                if name == "lvert":                       # |V|, not | V|
                    while tex[i:i + 1] == " ":
                        i += 1
            else:
                out.append(SYMBOLS.get(name, name))
        elif c in "{}":
            i += 1
        elif c in "~&":                              # a space; a column of an aligned formula
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
    return " ".join("".join(out).split())
