"""A cryptographic yet reproducible random generator for the shuffles of live games.

Live games draw every chance step (a shuffle, the cut for deal, Mulle's first dealer) from
:class:`DeterministicCSPRNG`: SHA-256 in counter mode over a 256-bit secret seed drawn from :mod:`secrets`.
Nobody can predict the next card from the cards already seen (that would need a SHA-256 preimage), yet the same
seed gives the same stream, so a game stored as rules + seed + moves replays exactly, and once the game is over
the seed is revealed and anyone can check the deal.

The stream (generator name ``"sha256-ctr-v1"``, written into every record under ``"rng"``):

* block ``i`` (``i = 0, 1, 2, ...``) is ``SHA-256(seed || i.to_bytes(8, "big"))``; the blocks are concatenated
  into one byte stream, consumed front to back;
* ``getrandbits(k)`` takes the next ``ceil(k / 8)`` bytes as a big-endian integer and keeps its top ``k`` bits;
* ``_randbelow(n)`` (behind ``randrange``/``choice``) draws ``getrandbits((n - 1).bit_length())`` until the value
  is below ``n`` (rejection sampling, no modulo bias);
* ``shuffle(x)`` is Fisher-Yates from the end: for ``i = len(x) - 1 .. 1``, swap ``x[i]`` and
  ``x[_randbelow(i + 1)]``;
* ``random()`` is ``getrandbits(53) / 2**53``.

These are defined here, not inherited, so the stream does not depend on the Python version.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from collections.abc import MutableSequence
from typing import Any, Final

__all__ = ["RNG_NAME", "DeterministicCSPRNG", "new_seed", "seed_commitment"]

#: The name of the generator, stored in every game record (``"rng"``).
RNG_NAME: Final = "sha256-ctr-v1"
#: Seed length in bytes (256 bits).
SEED_BYTES: Final = 32


def new_seed() -> str:
    """A fresh 256-bit secret seed from the operating system's CSPRNG, as 64 hex digits."""
    return secrets.token_hex(SEED_BYTES)


def seed_commitment(seed_hex: str) -> str:
    """The public commitment to a seed, ``SHA-256(seed bytes)`` in hex: published when the game is created, so
    that when the seed is revealed at the end anyone can check it is the one the game was dealt from."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


def _seed_bytes(seed: object) -> bytes:
    if isinstance(seed, str):
        try:
            seed = bytes.fromhex(seed)
        except ValueError:
            raise ValueError("a seed is 64 hex digits (256 bits)") from None
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        raise ValueError("a seed is 32 bytes (256 bits), given as bytes or 64 hex digits")
    return bytes(seed)


class DeterministicCSPRNG(random.Random):
    """SHA-256 counter-mode generator with the :class:`random.Random` interface (see the module docstring).

    Args:
        seed: 32 bytes or 64 hex digits; ``None`` draws a fresh secret seed (kept in :attr:`seed_hex`).
    Raises:
        ValueError: a seed of the wrong length or not hex.
    """

    name: Final = RNG_NAME

    def __init__(self, seed: bytes | str | None = None) -> None:
        self._key = b""
        self._counter = 0
        self._buf = b""
        self.gauss_next = None
        self.seed(seed)

    def seed(self, a: Any = None, version: int = 2) -> None:
        """Restart the stream from seed ``a`` (32 bytes or 64 hex digits; ``None``: a fresh secret seed)."""
        self._key = secrets.token_bytes(SEED_BYTES) if a is None else _seed_bytes(a)
        self._counter = 0
        self._buf = b""
        self.gauss_next = None

    @property
    def seed_hex(self) -> str:
        """The seed as 64 hex digits (secret until the game is over)."""
        return self._key.hex()

    def _take(self, n: int) -> bytes:
        buf = self._buf
        while len(buf) < n:
            buf += hashlib.sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        self._buf = buf[n:]
        return buf[:n]

    def getrandbits(self, k: int, /) -> int:
        """A uniform integer of ``k`` bits (``0 <= x < 2**k``). Raises ValueError for ``k < 0``."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        n = (k + 7) // 8
        return int.from_bytes(self._take(n), "big") >> (8 * n - k)

    def random(self) -> float:
        """A uniform float in ``[0, 1)`` with 53 random bits."""
        return self.getrandbits(53) * (2.0**-53)

    def _randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` by rejection sampling. Raises ValueError for ``n <= 0``."""
        if n <= 0:
            raise ValueError("empty range")
        k = (n - 1).bit_length()
        r = self.getrandbits(k)
        while r >= n:
            r = self.getrandbits(k)
        return r

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Shuffle ``x`` in place (Fisher-Yates from the end, as in the module docstring)."""
        for i in range(len(x) - 1, 0, -1):
            j = self._randbelow(i + 1)
            x[i], x[j] = x[j], x[i]

    def getstate(self) -> tuple[Any, ...]:
        """The generator's position: ``(name, seed, block counter, unread bytes)``."""
        return (RNG_NAME, self._key, self._counter, self._buf)

    def setstate(self, state: tuple[Any, ...]) -> None:
        """Restore a position from :meth:`getstate`. Raises ValueError for a state of another generator."""
        if not isinstance(state, tuple) or len(state) != 4 or state[0] != RNG_NAME:
            raise ValueError(f"not a {RNG_NAME} generator state")
        _, self._key, self._counter, self._buf = state
        self.gauss_next = None
