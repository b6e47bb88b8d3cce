"""Helpers shared by the spec modules: random inputs and model setups."""

import numpy as np

from ..registry import setup_code


def rng_scores(rng, shape, scale=3.0, dtype=np.float64):
    return (rng.normal(scale=scale, size=shape)).astype(dtype)


def random_allowed(rng, shape):
    """A random allowed set of ``shape`` in which every row may read at least one key."""
    allowed = rng.random(shape) < 0.6
    rows = allowed.reshape(-1, shape[-1])
    for row in rows:
        if not row.any():
            row[rng.integers(shape[-1])] = True
    return rows.reshape(shape)


def model_setup(seed, *extra):
    """Setup code building ``model = m.random_model(seed)`` (and ``extra`` lines after it)."""
    return setup_code("from grading import models as m", f"model = m.random_model({int(seed)})", *extra)


def forward_setup(seed, which):
    """Setup code defining ``forward``: the causal model, the same model with the mask off (the negative
    control), or a normalised model."""
    if which == "causal":
        return model_setup(seed, "forward = model.forward")
    if which == "unmasked":
        return model_setup(seed, "forward = m.unmasked_forward(model)")
    if which == "no_positions":
        return model_setup(seed, "forward = m.no_position_forward(model)")
    if which == "time_norm":
        return setup_code("from grading import models as m", f"forward = m.time_norm_model({int(seed)}).forward")
    if which == "feature_norm":
        return setup_code("from grading import models as m", f"forward = m.feature_norm_model({int(seed)}).forward")
    raise ValueError(which)
