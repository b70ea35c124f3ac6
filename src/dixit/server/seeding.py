"""The random numbers a command may draw, fixed by the room's seed, the game number and the
game version, so that a command retried after a crash (or on another process) deals exactly
the same cards.

Most commands draw nothing (a clue, all but the last submission or vote), yet seeding a
Mersenne Twister costs about 3 µs whatever the seed, and a seed built as text costs more. So
the seed is an integer made arithmetically, and :class:`DeferredRandom` seeds itself only when
a number is first drawn: the same numbers as ``random.Random(seed)``, paid for only when used.
"""

from __future__ import annotations

import random
import zlib
from typing import Any

_MASK32 = (1 << 32) - 1


def command_seed(room_seed: int, game_number: int, version: int) -> int:
    """One integer per (room seed, game, version): distinct for distinct triples while game
    numbers and versions stay below 2**32 (they do by far)."""
    return (room_seed << 64) | ((game_number & _MASK32) << 32) | (version & _MASK32)


def room_random(room_seed: int, game_number: int, version: int, *salt: object) -> random.Random:
    """A generator for one of the server's own decisions (a computer player's pace or
    fallback move, who the timer plays for), the same on every process: :func:`command_seed`
    with a CRC of ``salt`` (strings and integers) appended — no text seed to hash."""
    seed = command_seed(room_seed, game_number, version)
    if salt:
        seed = (seed << 32) | zlib.crc32(repr(salt).encode())
    return random.Random(seed)


class DeferredRandom(random.Random):
    """``random.Random(seed)`` that seeds itself on the first draw.

    Every draw of :class:`random.Random` (``shuffle``, ``choice``, ``sample``, ``randrange``…)
    goes through :meth:`getrandbits` or :meth:`random`; the first of either seeds the generator
    and makes it a plain ``random.Random`` subclass, so later draws cost what they cost there."""

    def __init__(self, seed: int) -> None:  # no super().__init__: that would seed now
        self._seed = seed
        self.gauss_next = None

    def _start(self, a: object, version: int = 2) -> None:
        # A plain generator from now on: later draws go straight to the C methods. (Binding
        # them on the instance did the same, but made a reference cycle per command, left
        # for the garbage collector.)
        self.__class__ = _Seeded  # type: ignore[assignment]
        self.seed(a, version)

    def getrandbits(self, k: int, /) -> int:
        _seeded(self)
        return random.Random.getrandbits(self, k)

    def random(self) -> float:
        _seeded(self)
        return random.Random.random(self)

    def getstate(self) -> tuple[Any, ...]:
        _seeded(self)
        return random.Random.getstate(self)

    def seed(self, a: object = None, version: int = 2) -> None:
        self._start(a, version)


class _Seeded(random.Random):
    """What a :class:`DeferredRandom` becomes once seeded."""


def _seeded(rng: random.Random) -> None:
    """Seed a :class:`DeferredRandom` not seeded yet. (``random`` may call a bound method of
    the first draw again after: it keeps ``self.getrandbits`` while it loops.)"""
    if isinstance(rng, DeferredRandom):
        rng._start(rng._seed)
