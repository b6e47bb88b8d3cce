"""The secret the hidden tests are drawn from, which no student can learn or reproduce.

Every exercise's hidden tests come from a generator whose 256-bit entropy is
``HMAC-SHA256(secret, "grading.hidden-tests\\0" + exercise id)``.  ``check(...,
practice=seed)`` draws from ``[PRACTICE, seed, crc32(id)]`` (grading/registry.py):
another stream, which no practice seed reaches, so a learner who knows every
seed and number a page shows still cannot rebuild a grading case.

The secret is either an instructor's key (``--key FILE``: at least 32 random
bytes, written by ``python -m grading key FILE``), which the report names only
by its fingerprint, or, without one, a salt drawn for the batch and kept in the
instructor's JSON report, where a regrade finds it again.  It is never written
on a student's page, in a gradebook or in Gradescope's results, never put in an
argument, an environment variable or a file the kernel can see, and the kernel
never receives it: the grader sends the cases it drew, one phase at a time.
"""

import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass

import numpy as np

DOMAIN = b"grading.hidden-tests\0"
KEY_BYTES = 32


class SecretError(ValueError):
    """A key file that cannot be used (the message says why and what to do)."""


@dataclass(frozen=True)
class Secret:
    """``value``: the bytes the hidden tests are keyed by; ``origin``: "key" (an instructor's key file) or
    "salt" (drawn for this batch, recorded in the report)."""
    value: bytes
    origin: str

    @classmethod
    def new_salt(cls):
        return cls(secrets.token_bytes(KEY_BYTES), "salt")

    @classmethod
    def from_key_file(cls, path):
        """The key in ``path`` (hex text, as ``python -m grading key`` writes it; ``-`` reads standard input)."""
        try:
            if str(path) == "-":
                text = b""
                while len(text) < 4096 and (chunk := os.read(0, 4096 - len(text))):
                    text += chunk
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)      # no process holds the key's file after this
            else:
                with open(path, "rb") as f:
                    text = f.read(4096)
        except OSError as exc:
            raise SecretError(f"--key {path}: cannot read the key ({exc.strerror or exc})") from None
        text = text.decode("ascii", "replace")
        try:
            value = bytes.fromhex(text.strip())
        except ValueError:
            raise SecretError(f"--key {path}: not a key (expected {2 * KEY_BYTES} hexadecimal digits, as "
                              "`python -m grading key FILE` writes them)") from None
        if len(value) < KEY_BYTES:
            raise SecretError(f"--key {path}: {len(value)} bytes is too short a key (at least {KEY_BYTES}); make "
                              "one with `python -m grading key FILE`")
        return cls(value, "key")

    @classmethod
    def from_report(cls, grader):
        """The secret a report was graded with (its salt), or None when it names a key file's fingerprint."""
        info = grader.get("hidden_tests") or {}
        if info.get("salt"):
            return cls(bytes.fromhex(info["salt"]), "salt")
        return None

    def fingerprint(self):
        """A short name of the secret that reveals nothing of it (shards and regrades compare it)."""
        return hashlib.sha256(b"fingerprint\0" + self.value).hexdigest()[:16]

    def record(self):
        """What the instructor's report keeps: the salt itself (a regrade needs it), a key only by name."""
        out = {"origin": self.origin, "fingerprint": self.fingerprint()}
        if self.origin == "salt":
            out["salt"] = self.value.hex()
        return out

    def rng(self, exercise_id):
        """The generator of ``exercise_id``'s hidden tests."""
        digest = hmac.new(self.value, DOMAIN + exercise_id.encode(), hashlib.sha256).digest()
        return np.random.default_rng(np.random.SeedSequence(int.from_bytes(digest, "big")))


def write_key(path):
    """A new key in ``path`` (readable by its owner only); refuses to replace an existing file."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        raise SecretError(f"{path} exists: a key is not replaced (hidden tests drawn from it could not be "
                          "drawn again); choose another file name") from None
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(secrets.token_hex(KEY_BYTES) + "\n")
