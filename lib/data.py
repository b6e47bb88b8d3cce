"""The chapter's data protocol (§1): vocabulary, encoding and right padding.

Special ids: UNK = 0, BOS = 1, EOS = 2.  There is no PAD id: inputs are padded
on the right with EOS and targets with IGNORE (-100), so a padded query still
produces an output but is never scored.
"""

import functools

import numpy as np

UNK, BOS, EOS, IGNORE = 0, 1, 2, -100
SPECIAL_TOKENS = ["<unk>", "<bos>", "<eos>"]


def _check_texts(texts, what):
    if isinstance(texts, str):
        raise TypeError(f"{what} expects a list of strings, got one string {texts!r}; wrap it as [{texts!r}]")
    texts = list(texts)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"{what}: text {i} is {type(text).__name__}, expected str")
    return texts


def build_vocab(texts):
    """§1. ``["<unk>", "<bos>", "<eos>"]`` + distinct characters sorted by code point."""
    texts = _check_texts(texts, "build_vocab")
    return SPECIAL_TOKENS + sorted(set("".join(texts)))


def encode(text, vocab):
    """§1. Characters -> ids; a character outside ``vocab`` becomes UNK."""
    if not isinstance(text, str):
        raise TypeError(f"encode expects a str, got {type(text).__name__}")
    index = _index(tuple(vocab))
    return [index.get(ch, UNK) for ch in text]


@functools.lru_cache(maxsize=8)
def _index(vocab):
    """token -> id of a vocabulary (a tuple), built once per vocabulary rather than once per text."""
    return {token: i for i, token in enumerate(vocab)}


def decode(ids, vocab):
    """§1. Ids -> text; special ids come back as their names (``<bos>`` ...)."""
    ids = [int(i) for i in np.asarray(ids).reshape(-1)]
    bad = [i for i in ids if not 0 <= i < len(vocab)]
    if bad:
        raise ValueError(
            f"decode: id {bad[0]} is outside the vocabulary of {len(vocab)} tokens "
            f"(valid ids are 0..{len(vocab) - 1}; IGNORE={IGNORE} marks unscored targets, not a token)"
        )
    return "".join(vocab[i] for i in ids)


def collate(texts, vocab):
    """§1. Right-padded batch: (inputs, targets), both int64 of shape (B, T).

    T = 1 + the longest text.  Row b: inputs = BOS, ids..., EOS, EOS, ...;
    targets = ids..., EOS, IGNORE, IGNORE, ...
    """
    texts = _check_texts(texts, "collate")
    if not texts:
        raise ValueError("collate: the batch is empty; expected at least one non-empty text")
    empty = [i for i, text in enumerate(texts) if not text]
    if empty:
        raise ValueError(f"collate: text {empty[0]} is empty; every text needs at least one character")
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)          # (B, T)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)      # (B, T)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):                                # data preparation, not a forward path
        ids = encode(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
