"""Random draws for the hot loop: the same numbers as ``random.Random``'s ``choice`` and
``shuffle`` (one ``getrandbits`` per draw, retried when out of range), without their per-draw
Python calls. A seed still fixes every game."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def pick(rng: random.Random, items: Sequence[T]) -> T:
    """``rng.choice(items)``; ``items`` is not empty."""
    n = len(items)
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return items[r]


def shuffle(rng: random.Random, items: list[T]) -> None:
    """``rng.shuffle(items)``, in place."""
    bits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = bits(k)
        while j >= n:
            j = bits(k)
        items[i], items[j] = items[j], items[i]
