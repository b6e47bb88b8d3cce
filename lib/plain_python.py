"""§3.4, §6.2. The attention layer of the course's model in plain Python.

Lists, loops and the ``math`` module only: it imports neither NumPy nor the rest of ``lib``, so
its numbers come by a route that shares no code with ``lib.model.AttentionModel``, and each can
check the other.  As in §3.4 and §4.1, the query, key and value projections are identities: head
h reads coordinates h*d to h*d + d - 1 of each input vector.  Tables are lists of rows: E (V x D),
P (C x D) and W_O (D x D)."""

import math


def _table(table, name, width=None):
    """A non-empty list of equally long rows of numbers; returns their length."""
    if not isinstance(table, (list, tuple)) or not table:
        raise ValueError(f"{name} must be a non-empty list of rows, got {type(table).__name__}")
    lengths = {len(row) if isinstance(row, (list, tuple)) else None for row in table}
    if None in lengths or len(lengths) != 1 or 0 in lengths:
        raise ValueError(f"{name} must be a list of rows of one length, got row lengths "
                         f"{sorted(map(str, lengths))}")
    found = lengths.pop()
    if width is not None and found != width:
        raise ValueError(f"the rows of {name} have {found} numbers, expected {width} (the width D)")
    return found


def _index(value, size, what):
    """An int in range(size); bools and negative numbers (which count from the end) are refused."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int in 0..{size - 1}, got {type(value).__name__} "
                        f"{value!r}")
    if not 0 <= value < size:
        raise ValueError(f"{what} {value} is outside 0..{size - 1}")
    return value


def input_rows(tokens, token_table, position_table, positions=None, use_positions=True):
    """The layer's input, one row per token: E[x_t] + P[p_t], or E[x_t] alone without positions.
    ``positions`` 0, 1, ..., T - 1 unless given (``[0, 1, 0]``: the reset bug of §5.3)."""
    width = _table(token_table, "token_table")
    _table(position_table, "position_table", width)
    tokens = list(tokens)
    if not tokens:
        raise ValueError("tokens is empty: the layer needs at least one position")
    positions = list(range(len(tokens))) if positions is None else list(positions)
    if len(positions) != len(tokens):
        raise ValueError(f"{len(tokens)} tokens but {len(positions)} positions: give one position "
                         "per token")
    rows = []
    for token, position in zip(tokens, positions):
        embedding = token_table[_index(token, len(token_table), "token id")]
        if use_positions:
            offset = position_table[_index(position, len(position_table), "position")]
            rows.append([e + p for e, p in zip(embedding, offset)])
        else:
            rows.append([float(e) for e in embedding])
    return rows


def read(query, rows, n_heads, w_o):
    """What one query reads from ``rows``, the positions it may read (each row its key and its
    value): per head, scaled dot products, a softmax and the weighted sum; the heads joined and
    multiplied by ``w_o``.  A list of D numbers."""
    width = len(query)
    _table(rows, "rows", width)
    _table(w_o, "w_o", width)
    if len(w_o) != width:
        raise ValueError(f"w_o has {len(w_o)} rows, expected {width} (the width D)")
    if isinstance(n_heads, bool) or not isinstance(n_heads, int):
        raise TypeError(f"n_heads must be an int, got {type(n_heads).__name__} {n_heads!r}")
    if n_heads < 1 or width % n_heads:
        raise ValueError(f"n_heads={n_heads} must be positive and divide the width D={width}")
    d = width // n_heads
    joined = []
    for head in range(n_heads):
        part = slice(head * d, (head + 1) * d)
        scores = [math.fsum(q * k for q, k in zip(query[part], row[part])) / math.sqrt(d)
                  for row in rows]
        largest = max(scores)
        weights = [math.exp(score - largest) for score in scores]
        total = math.fsum(weights)
        for a in range(head * d, (head + 1) * d):
            joined.append(math.fsum(w * row[a] for w, row in zip(weights, rows)) / total)
    return [math.fsum(joined[r] * w_o[r][c] for r in range(width)) for c in range(width)]
