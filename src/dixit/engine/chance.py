"""Random picks for the random chooser's hot loop: the same numbers as ``random.Random.choice``
(one ``getrandbits`` per draw, retried when out of range), without its two Python calls. (The
engine's own shuffles stay ``rng.shuffle``: :func:`verify` replays them through that method.)"""

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
