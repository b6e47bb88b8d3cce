"""lib stays a library a learner reads in an evening (issue 18): its size, and what lib/attention.py shows first."""

import ast
import pathlib

LIB = pathlib.Path(__file__).resolve().parent.parent / "lib"
MOST_LINES = 2500           # every line of lib/*.py, as `wc -l lib/*.py` counts them, the decoder included


def test_lib_has_at_most_2500_lines():
    lines = {path.name: len(path.read_text(encoding="utf-8").splitlines()) for path in sorted(LIB.glob("*.py"))}
    assert "decoder.py" in lines and "attention.py" in lines
    assert sum(lines.values()) <= MOST_LINES, f"lib/ has {sum(lines.values())} lines, more than {MOST_LINES}: {lines}"


def test_lib_attention_opens_with_the_mask():
    """The first function a reader of lib/attention.py meets builds the causal mask."""
    tree = ast.parse((LIB / "attention.py").read_text(encoding="utf-8"))
    first = next(node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)))
    assert first.name == "causal_future"
