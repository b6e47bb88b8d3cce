"""lib/plain_python.py: the plain-Python route of §3.4 and §6.2 shares no code with lib
and agrees with lib.model.AttentionModel."""

import ast
from pathlib import Path

import numpy as np
import pytest

from lib import checks, plain_python

SOURCE = Path(plain_python.__file__)


def test_imports_only_math():
    tree = ast.parse(SOURCE.read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported == {"math"}


def layer(model, tokens, positions=None, use_positions=True, causal=True):
    """Every output row, built on read() as §6.2 builds it (the model's Q/K/V are identities)."""
    rows = plain_python.input_rows(tokens, model.token_table.tolist(), model.position_table.tolist(),
                                   positions, use_positions)
    return [plain_python.read(row, rows[:i + 1] if causal else rows, model.n_heads, model.w_o.tolist())
            for i, row in enumerate(rows)]


def identity_model(rng, vocab_size, context_size, width, n_heads):
    m = checks.random_model(rng, vocab_size=vocab_size, context_size=context_size, width=width, n_heads=n_heads)
    eye = np.eye(width)
    return type(m)(m.token_table, m.position_table, eye, eye, eye, m.w_o, n_heads)


@pytest.mark.parametrize("seed", range(6))
def test_agrees_with_the_model(seed):
    rng = np.random.default_rng(seed)
    n_heads = int(rng.integers(1, 4))
    width = n_heads * int(rng.integers(1, 4))
    T = int(rng.integers(1, 9))
    model = identity_model(rng, 7, 8, width, n_heads)
    tokens = rng.integers(0, 7, size=T).tolist()
    for causal in (True, False):
        for use_positions in (True, False):
            ours = np.array(layer(model, tokens, use_positions=use_positions, causal=causal))
            theirs = model.forward(np.array(tokens), use_positions=use_positions, causal=causal)
            assert np.abs(ours - theirs).max() <= 1e-12 * max(1.0, np.abs(theirs).max())


def test_chapter_numbers():
    model = checks.chapter_model()
    clean, perturbed = [1, 3, 4], [1, 3, 0]
    assert np.array_equal(np.array(layer(model, clean))[:2], np.array(layer(model, perturbed))[:2])
    control = np.abs(np.array(layer(model, clean, causal=False))[:2]
                     - np.array(layer(model, perturbed, causal=False))[:2]).max()
    assert abs(control - 39.772020613422825) < 1e-12
    reset = np.abs(np.array(layer(model, clean, positions=[0, 1, 0]))[-1] - np.array(layer(model, clean))[-1]).max()
    assert abs(reset - 0.08753403247684122) < 1e-12


def test_refuses_bad_input():
    E, P, W = [[1.0, 0.0], [0.0, 1.0]], [[0.0, 0.0], [0.5, 0.5]], [[1.0, 0.0], [0.0, 1.0]]
    for tokens, positions, match in (([2], None, "token id 2 is outside 0..1"),
                                     ([-1], None, "token id -1 is outside"), ([0, 1], [0], "2 tokens but 1 positions"),
                                     ([0], [2], "position 2 is outside"), ([], None, "empty")):
        with pytest.raises(ValueError, match=match):
            plain_python.input_rows(tokens, E, P, positions)
    for tokens in ([True], [1.0]):
        with pytest.raises(TypeError, match="token id must be an int"):
            plain_python.input_rows(tokens, E, P)
    with pytest.raises(ValueError, match="expected 2"):
        plain_python.input_rows([0], E, [[0.0, 0.0, 0.0]])
    with pytest.raises(ValueError, match="divide the width"):
        plain_python.read([1.0, 0.0], [[1.0, 0.0]], 3, W)
    with pytest.raises(ValueError, match="rows of one length"):
        plain_python.read([1.0, 0.0], [[1.0, 0.0], [1.0]], 1, W)
    with pytest.raises(ValueError, match="w_o has 1 rows"):
        plain_python.read([1.0, 0.0], [[1.0, 0.0]], 1, [[1.0, 0.0]])
