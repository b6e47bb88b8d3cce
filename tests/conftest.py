"""Shared fixtures: the chapter's hand-set model and optional-dependency policy."""

import os

import numpy as np
import pytest

from lib.model import AttentionModel

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# Notebook kernels inherit this: the main nbval run uses two BLAS threads and
# tests/test_blas_threads.py re-runs the notebooks with one.
for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "2")


def chapter_tables():
    """The hand-set tables of the chapter's checking program (§6): D=4, H=2."""
    E = np.array([[40., -30., 20., -10.], [1., 0., 0., 1.], [.2, .1, .3, -.1],
                  [0., 1., 1., 0.], [.5, .5, -.5, .5], [1., 0., 0., 1.]])
    t = np.arange(8)
    P = np.stack([.1 * (t + 1), .03 * t, .07 * (t % 2), -.02 * t], axis=1)
    W_O = np.array([[1., 0., 1., 0.], [0., 1., 0., 1.], [1., 0., -1., 0.], [0., 1., 0., -1.]])
    return E, P, W_O


@pytest.fixture
def chapter_model():
    E, P, W_O = chapter_tables()
    identity = np.eye(4)
    return AttentionModel(E, P, identity, identity, identity, W_O, n_heads=2)


def require_or_skip(module_name, why):
    """Import an optional module; skip with a clear reason, or fail in CI where it is mandatory."""
    try:
        return __import__(module_name)
    except ImportError:
        if IN_CI:
            pytest.fail(f"{module_name} is mandatory in CI ({why}) but is not installed", pytrace=False)
        pytest.skip(f"{module_name} is not installed: {why} skipped (CI installs it and makes it mandatory)")
