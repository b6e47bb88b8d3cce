"""Plotting helpers shared by the chapter notebooks.

Every function names the section that uses it.  Figures carry no
language-specific text: titles and labels are code names and symbols
(i, j, t, h, ...), so that the three languages share one set of outputs.
"""

import numpy as np


def heatmaps(matrices, titles, labels=None, row_sums=False, cmap="Blues", vmin=0.0, vmax=1.0, cell_size=1.0):
    """§1. Matrices side by side as heatmaps, rows i (queries) and columns j (keys).

    matrices: a list of 2-D arrays (bool or numbers); titles: one string per
    matrix (keep them language-neutral: code names and symbols).
    labels: None, or one 2-D array of strings per matrix, written into the cells.
    row_sums: True, False, or one bool per matrix; where True, each row's sum
    is written to the right of the row.
    Returns the figure; the notebook ends its cell with ``plt.show()``.
    """
    import matplotlib.pyplot as plt

    matrices = [np.asarray(m, dtype=float) for m in matrices]
    width = sum(m.shape[1] for m in matrices) * cell_size + 1.6 * len(matrices)
    height = max(m.shape[0] for m in matrices) * cell_size + 1.2
    fig, axes = plt.subplots(1, len(matrices), figsize=(width, height), squeeze=False)
    for n, (ax, m, title) in enumerate(zip(axes[0], matrices, titles)):
        ax.imshow(m, cmap=cmap, vmin=vmin, vmax=vmax)
        ax.set_title(title, fontsize=10)
        ax.set_xticks(range(m.shape[1]))
        ax.set_yticks(range(m.shape[0]))
        ax.set_xlabel("j")
        ax.set_ylabel("i")
        if labels is not None:
            for i in range(m.shape[0]):
                for j in range(m.shape[1]):
                    dark = (m[i, j] - vmin) > 0.6 * (vmax - vmin)
                    ax.text(j, i, labels[n][i][j], ha="center", va="center",
                            color="white" if dark else "black", fontsize=10)
        if row_sums is True or (not isinstance(row_sums, bool) and row_sums[n]):
            for i, total in enumerate(m.sum(axis=1)):
                ax.text(m.shape[1] - 0.4, i, f"Σ={total:.3g}", ha="left", va="center", fontsize=9)
    fig.tight_layout()
    return fig


def row_change_bars(changes, labels, prefix_length, linthresh=1e-3):
    """§4. Bars of the change of every output row i under a future perturbation.

    changes: a list of (T,) arrays (e.g. from :func:`lib.checks.row_changes`),
    labels: one language-neutral label per array (code names).  Rows left of
    the dashed line form the prefix, whose outputs a causal model must not move.
    The y axis is symmetric-log, linear below ``linthresh``, so that an exact
    0 stays visible as "no bar" next to changes of very different sizes.
    Returns the figure; the notebook ends its cell with ``plt.show()``.
    """
    import matplotlib.pyplot as plt

    changes = [np.asarray(c, dtype=float) for c in changes]
    T = changes[0].shape[0]
    if any(c.shape != (T,) for c in changes) or len(labels) != len(changes):
        raise ValueError("row_change_bars needs one label per change array, and arrays of the same shape (T,)")
    fig, ax = plt.subplots(figsize=(7.5, 3.4))
    width = 0.8 / len(changes)
    rows = np.arange(T)
    for n, (c, label) in enumerate(zip(changes, labels)):
        ax.bar(rows + (n - (len(changes) - 1) / 2) * width, c, width, label=label)
    ax.axvline(prefix_length - 0.5, color="black", linestyle="--", linewidth=1)
    ax.set_yscale("symlog", linthresh=linthresh)
    ax.set_ylim(0, 3 * max(float(max(c.max() for c in changes)), linthresh))
    ax.set_xticks(rows)
    ax.set_xlabel("i")
    ax.set_ylabel(r"$\max\,|\Delta y_i|$")
    ax.legend(fontsize=9, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=len(changes), frameon=False)
    fig.tight_layout()
    return fig


def timing_lines(lengths, seconds, labels):
    """§5. Time per new token against the prefix length T, on log-log axes.

    lengths: (N,) prefix lengths; seconds: a list of (N,) arrays of measured
    times; labels: one language-neutral label per array.  Returns the figure.
    """
    import matplotlib.pyplot as plt

    lengths = np.asarray(lengths)
    if len(labels) != len(seconds) or any(np.shape(s) != lengths.shape for s in seconds):
        raise ValueError("timing_lines needs one label per series and series with the shape of lengths")
    fig, ax = plt.subplots(figsize=(6, 3.6))
    for s, label in zip(seconds, labels):
        ax.loglog(lengths, s, marker="o", label=label)
    ax.set_xlabel("T")
    ax.set_ylabel("s")
    ax.legend(fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    return fig
