"""Portable seeded randomness: the same seed gives the same deal everywhere.

``random.shuffle`` is not used because its algorithm is not promised to stay the
same across Python versions. The algorithm here is fixed and written down:

1. Random words: the output of ``SHAKE-256(b"scoundrel/1" || seed as 8 bytes
   little-endian || stream as 8 bytes little-endian)``, an extendable-output hash,
   read as consecutive 64-bit little-endian words.
2. ``below(n)``: draw a word ``x``; reject it while ``x >= 2**64 - 2**64 % n``;
   return ``x % n`` (no modulo bias).
3. Shuffle: Fisher-Yates from the back, ``for i = n-1 .. 1: swap(i, below(i+1))``,
   applied to the deck in canonical order (``cards.build_deck``).

Stream 0 deals the deck; the game uses streams 1, 2, ... for shuffles during play
(shuffled avoids, jokers, merchants, necromancers, loops), so replays agree.

A seed is a 40-bit number whose shareable text form is 8 Crockford base-32
characters in two groups, e.g. ``K7Q2-M9XD``; typing it back is forgiving about
case, dashes, spaces and the look-alikes I/L (1) and O (0).
"""

from __future__ import annotations

import hashlib
import secrets
import struct
from collections.abc import Sequence
from functools import cache
from operator import mod
from typing import TypeVar

T = TypeVar("T")

SEED_BITS = 40
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base 32
_DECODE = {ch: i for i, ch in enumerate(_ALPHABET)}
_DECODE.update({"I": 1, "L": 1, "O": 0})
_PREFIX = b"scoundrel/1"
_U64 = 1 << 64
_PAIR = struct.Struct("<QQ")
_SEVEN_FF = b"\xff" * 7


class SeedError(ValueError):
    pass


class Stream:
    """The deterministic word stream for one (seed, stream number)."""

    __slots__ = ("_hash", "_words", "_next")

    def __init__(self, seed: int, stream: int = 0) -> None:
        self._hash = hashlib.shake_256(_PREFIX + _PAIR.pack(seed & (_U64 - 1), stream & (_U64 - 1)))
        self._words: tuple[int, ...] = ()
        self._next = 0

    def word(self) -> int:
        if self._next >= len(self._words):
            # SHAKE output is a prefix of any longer output: extend and keep reading.
            count = max(64, 2 * len(self._words))
            self._words = struct.unpack(f"<{count}Q", self._hash.digest(8 * count))
        self._next += 1
        return self._words[self._next - 1]

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _U64 - _U64 % n
        while True:
            x = self.word()
            if x < limit:
                return x % n


def shuffled(items: Sequence[T], seed: int, stream: int = 0) -> tuple[T, ...]:
    """``items`` shuffled by the documented Fisher-Yates algorithm."""
    out = list(items)
    n = len(out)
    if n < 2:
        return tuple(out)
    digest = hashlib.shake_256(_PREFIX + _PAIR.pack(seed & (_U64 - 1), stream & (_U64 - 1))).digest(8 * (n - 1))
    # Fast path: ``below(m)`` rejects x only when x >= 2**64 - 2**64 % m >= 2**64 - (m - 1). For a list
    # of at most 256 items such an x has its 7 high bytes all 0xFF, so a digest without seven 0xFF bytes
    # in a row (all but about n / 2**56 of deals) has no rejection: draw i is simply word i.
    if n > 256 or _SEVEN_FF in digest:
        return _shuffled_with_rejection(out, seed, stream)
    unpack, slots, sizes = _fisher_yates(n)
    # Draw k is word k mod (n - k); the modulos are taken in C, the swaps follow in order.
    for i, j in zip(slots, map(mod, unpack(digest), sizes), strict=True):
        out[i], out[j] = out[j], out[i]
    return tuple(out)


@cache
def _fisher_yates(n: int) -> tuple:
    """For a list of ``n``: the digest's word reader, the slots n-1 .. 1 and the sizes n .. 2 drawn from."""
    return struct.Struct(f"<{n - 1}Q").unpack, range(n - 1, 0, -1), range(n, 1, -1)


def _shuffled_with_rejection(out: list, seed: int, stream: int) -> tuple:
    """The general path: draws read one by one from the stream, rejecting as documented."""
    below = Stream(seed, stream).below
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out)


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


def seed_to_text(seed: int) -> str:
    if not 0 <= seed < (1 << SEED_BITS):
        raise SeedError("a seed is a number from 0 to 2^40 - 1")
    chars = [_ALPHABET[(seed >> shift) & 31] for shift in range(35, -1, -5)]
    return "".join(chars[:4]) + "-" + "".join(chars[4:])


def seed_from_text(text: str) -> int:
    shown = repr(text if len(text) <= 20 else text[:19] + "…")  # (the text as the refusal quotes it back)
    cleaned = "".join(ch for ch in text.upper() if ch not in "- _")
    if len(cleaned) != 8:
        raise SeedError(f"{shown} is not a seed: a seed is 8 letters and digits like K7Q2-M9XD")
    value = 0
    for ch in cleaned:
        if ch not in _DECODE:
            raise SeedError(f"{shown} is not a seed: {ch!r} cannot appear in one (use 0-9 and A-Z without U)")
        value = value * 32 + _DECODE[ch]
    return value


def seed_from_bytes(data: bytes) -> int:
    """A seed derived from arbitrary bytes (e.g. an HMAC for the daily deal)."""
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "little") >> (64 - SEED_BITS)
