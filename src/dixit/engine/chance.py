"""Random draws for the hot loops, drawing exactly what ``random.Random`` would draw.

``pick`` is ``rng.choice`` and ``shuffle`` is ``rng.shuffle`` (one ``getrandbits`` per draw,
retried when out of range) without the Python-level calls per element. ``shuffle`` inlines the
draws only for a plain :class:`random.Random` whose own ``shuffle`` it was checked to match at
import; any other generator, such as the one :func:`dixit.engine.verify` passes to replay recorded
orders, is asked to shuffle itself.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)``; ``items`` is not empty."""
    n = len(items)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return items[r]


def _inline_shuffle(rng: random.Random, items: MutableSequence[Any]) -> None:
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _inline_matches() -> bool:
    """Whether this Python's ``random.Random.shuffle`` draws what :func:`_inline_shuffle` draws."""
    for seed in range(8):
        for size in (0, 1, 2, 3, 5, 7, 33, 84, 130):
            ours, theirs = list(range(size)), list(range(size))
            a, b = random.Random(seed), random.Random(seed)
            _inline_shuffle(a, ours)
            b.shuffle(theirs)
            if ours != theirs or a.getstate() != b.getstate():
                return False
    return True


INLINE = _inline_matches()


def shuffle(rng: random.Random, items: MutableSequence[Any]) -> None:
    """``rng.shuffle(items)``: the same order and the same generator state afterwards."""
    if INLINE and type(rng) is random.Random:
        _inline_shuffle(rng, items)
    else:
        rng.shuffle(items)
