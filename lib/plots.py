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
