"""The sections the course's code cites exist and show what cites them.

lib, figures and grading say in docstrings and comments which section teaches a function (d2l's
"defined in"), as §N (a chapter) or §N.M (a subsection of src/chapters/NN_*.py). When a section is
renumbered or split, such a number goes stale without an error anywhere (figures.interactive said §2.5
for the cost table of §2.6): these tests find every one.
"""

import ast
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("lib", "figures", "grading")
CITATION = re.compile(r"§(\d+(?:\.\d+)?)")
HEADING = re.compile(r"^#{2,3} (\d+\.\d+)\b", re.M)


def _sections():
    """{"N": chapter source, "N.M": the subsection's source, from its heading to the next}."""
    found = {}
    for path in sorted((ROOT / "src" / "chapters").glob("[0-9][0-9]_*.py")):
        text = path.read_text(encoding="utf-8")
        found[str(int(path.name[:2]))] = text
        heads = [(m.start(), m.group(1)) for m in HEADING.finditer(text)]
        for (start, number), (end, _) in zip(heads, heads[1:] + [(len(text), "")]):
            assert number not in found, f"{path.name}: two headings {number}"
            found[number] = text[start:end]
    return found


SECTIONS = _sections()
SOURCES = sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_the_sections_are_read():
    assert {"0", "7", "1.9", "2.6", "5.9"} <= set(SECTIONS), sorted(SECTIONS)[:20]


@pytest.mark.parametrize("path", SOURCES, ids=[str(p.relative_to(ROOT)) for p in SOURCES])
def test_every_section_the_code_cites_exists(path):
    text = path.read_text(encoding="utf-8")
    missing = [f"line {text[:m.start()].count(chr(10)) + 1}: §{m.group(1)}"
               for m in CITATION.finditer(text) if m.group(1) not in SECTIONS]
    assert not missing, f"{path.relative_to(ROOT)} cites sections the chapters do not have: {missing}"


def _opening_citations():
    """(path, object, subsection, names) for every function and class of lib and figures whose
    docstring opens with §N.M: the object's name and those its first sentence cites (:func:`x`)."""
    out = []
    for path in SOURCES:
        if path.parts[len(ROOT.parts)] == "grading":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                continue
            doc = ast.get_docstring(node) or ""
            cited = re.match(r"(?:§\d+(?:\.\d+)?,\s*)*§(\d+\.\d+)", doc)
            if cited:
                first = doc.split(". ", 2)[:2]
                names = {node.name, *re.findall(r":(?:func|class|meth):`~?(?:[\w.]+\.)?(\w+)`", " ".join(first))}
                out.append((path, node.name, cited.group(1), names))
    return out


def test_a_subsection_a_docstring_opens_with_shows_the_object():
    """An object whose docstring says §N.M is named in that subsection (or, for a helper, an object
    its first sentence names is): the number points where the reader sees it used."""
    citations = _opening_citations()
    assert len(citations) >= 5, citations
    wrong = [f"{path.relative_to(ROOT)}: {name} says §{number}, which names none of {sorted(names)}"
             for path, name, number, names in citations
             if not any(re.search(rf"\b{re.escape(n)}\b", SECTIONS[number]) for n in names)]
    assert not wrong, "\n".join(wrong)
