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


def test_the_bugs_that_section_6_2_names(monkeypatch):
    """§6.2 says why plain Python is needed (read64 en C1: it once gave a wrong scale factor as a bug the assertions
    could miss, but no. 1's hand formula catches it): a wrong scale factor fails the hand check of no. 1, while a
    head split that interleaves the features passes it and the cache check, and only plain Python sees it.
    tests/test_cross_references.py holds §6.2's sentence to these two examples."""
    from lib import attention
    from lib.data import BOS, UNK
    model = checks.chapter_model()
    alpha = 1 / (1 + np.exp(1 / np.sqrt(2)))
    manual = np.array([[1, 1, 1, -1], [1, 1, 2 * alpha - 1, 1 - 2 * alpha]])
    ids, perturbed = np.array([BOS, 3, 4]), np.array([BOS, 3, UNK])

    def hand_error():
        return np.abs(model.forward(np.array([BOS, 3]), use_positions=False) - manual).max()

    def control_change():
        return checks.future_change(lambda x: model.forward(x, causal=False), ids, perturbed, 2)

    assert hand_error() < 1e-12 and abs(control_change() - 39.772020613422825) < 1e-12
    with monkeypatch.context() as m:                                # 1/d in place of 1/sqrt(d)
        m.setattr(attention.attention_scores, "plain", lambda q, k: (q / q.shape[-1]) @ np.swapaxes(k, -1, -2))
        assert hand_error() > 0.05
    with monkeypatch.context() as m:                                # head h takes features h, h + H, ...
        m.setattr(attention.split_heads, "plain",
                  lambda x, n: np.moveaxis(x.reshape(*x.shape[:-1], x.shape[-1] // n, n), -1, -3))
        m.setattr(attention.merge_heads, "plain",
                  lambda x: np.moveaxis(x, -3, -1).reshape(*x.shape[:-3], x.shape[-2], -1))
        assert hand_error() < 1e-12 and checks.cache_error(model, ids) < 1e-12
        py = np.abs(np.array(layer(model, ids.tolist(), causal=False))[:2]
                    - np.array(layer(model, perturbed.tolist(), causal=False))[:2]).max()
        assert abs(py - 39.772020613422825) < 1e-12 and abs(control_change() - py) > 1
