"""The course's data protocol (§1): vocabulary, encoding and right padding.

Special ids: UNK = 0, BOS = 1, EOS = 2.  No PAD id: inputs are padded on the right with EOS and
targets with IGNORE (-100), so a padded query still produces an output but is never scored."""

import functools

import numpy as np

from . import validate
from .validate import checked

UNK, BOS, EOS, IGNORE = 0, 1, 2, -100
SPECIAL_TOKENS = ["<unk>", "<bos>", "<eos>"]


@checked(validate.texts)
def build_vocab(texts):
    """§1. ``["<unk>", "<bos>", "<eos>"]`` + distinct characters sorted by code point."""
    return SPECIAL_TOKENS + sorted(set("".join(texts)))


@checked(validate.one_text)
def encode(text, vocab):
    """§1. Characters -> ids; a character outside ``vocab`` becomes UNK."""
    index = _index(tuple(vocab))
    return [index.get(ch, UNK) for ch in text]


@functools.lru_cache(maxsize=8)
def _index(vocab):
    """token -> id of a vocabulary (a tuple): built once per vocabulary, not once per text."""
    return {token: i for i, token in enumerate(vocab)}


@checked(validate.decode)
def decode(ids, vocab):
    """§1. Ids -> text; special ids come back as their names (``<bos>`` ...)."""
    return "".join(vocab[i] for i in ids)


@checked(validate.collate)
def collate(texts, vocab):
    """§1. Right-padded batch (inputs, targets), int64 (B, T), T = 1 + the longest text.  Row b:
    inputs = BOS, ids..., EOS, EOS, ...; targets = ids..., EOS, IGNORE, IGNORE, ..."""
    T = 1 + max(len(text) for text in texts)
    inputs = np.full((len(texts), T), EOS, dtype=np.int64)          # (B, T)
    targets = np.full((len(texts), T), IGNORE, dtype=np.int64)      # (B, T)
    inputs[:, 0] = BOS
    for b, text in enumerate(texts):                                # data, not a forward path
        ids = encode.plain(text, vocab)
        inputs[b, 1:len(ids) + 1] = ids
        targets[b, :len(ids)] = ids
        targets[b, len(ids)] = EOS
    return inputs, targets
