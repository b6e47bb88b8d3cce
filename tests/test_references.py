"""Each reference answer is written once: in grading/references.py, which the solved notebooks take it from."""

import ast
import json
import pathlib
import re
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from grading import references  # noqa: E402
from tools.nbsource import LANGUAGES, load, reference_cell  # noqa: E402

SOLUTIONS = sorted((ROOT / "src" / "solutions").glob("ex*.py"))
# The one reference the solved notebooks do not show: heads-3's notebook builds its own attention step by step.
LIBRARY_ONLY = {"multi_head_causal"}


def reference_names():
    tree = ast.parse((ROOT / "grading" / "references.py").read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]


def taken_by_solutions():
    """{function name: solution source} for every reference_cell("name") in src/solutions/."""
    taken = {}
    for path in SOLUTIONS:
        for name in re.findall(r'reference_cell\("(\w+)"\)', path.read_text(encoding="utf-8")):
            assert name not in taken, f"{name} is taken by {taken[name].name} and {path.name}"
            taken[name] = path
    return taken


def test_every_reference_but_one_is_the_answer_of_a_solved_notebook():
    assert set(taken_by_solutions()) == set(reference_names()) - LIBRARY_ONLY
    for name in reference_names():
        assert callable(getattr(references, name))


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_solution_source_writes_a_reference_answer_again(path):
    """A solution source never defines a reference function itself (it would be a second copy)."""
    text = path.read_text(encoding="utf-8")
    written = set(re.findall(r"^def (\w+)\(", text, re.M))
    assert written.isdisjoint(reference_names()), written & set(reference_names())


@pytest.mark.parametrize("name", sorted(taken_by_solutions()))
def test_the_solved_notebooks_show_the_reference_as_it_is_written(name):
    """The cell built from reference_cell(name) is the reference's source, in every language, and the committed
    solved notebooks carry it (a changed reference needs its notebooks rebuilt)."""
    path = taken_by_solutions()[name]
    source = reference_cell(name)
    assert source.startswith(f"def {name}(")
    cells = [cell for cell in load(path) if cell.kind == "code" and cell.source == source]
    assert len(cells) == 1
    for lang in LANGUAGES:
        notebook = json.loads((ROOT / "solutions" / lang / f"{path.stem}.ipynb").read_text(encoding="utf-8"))
        shown = ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"]
        assert cells[0].text[lang] in shown, f"solutions/{lang}/{path.stem}.ipynb is stale for {name}"


def test_reference_cell_refuses_a_name_it_does_not_know():
    with pytest.raises(ValueError, match="defines no function 'no_such_answer'"):
        reference_cell("no_such_answer")
