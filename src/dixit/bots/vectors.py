"""Static multilingual word vectors (built by ``tools/botvectors.py``), read with numpy only.

A text's vector is the normalised mean of its content words' vectors. A word missing from the
table borrows the vector of the longest table word that shares its first five or more letters
(an inflected form: ``dziewczynkami`` finds ``dziewczynka``); words with none are left out.
"""

from __future__ import annotations

import bisect
from functools import lru_cache
from importlib import resources

import numpy as np
import numpy.typing as npt

from .text import content_words, fold

Vector = npt.NDArray[np.float32]
MIN_SHARED = 5


class WordVectors:
    def __init__(self, words: list[str], table: npt.NDArray[np.int8]) -> None:
        self.words = words
        self.index = {w: i for i, w in enumerate(words)}
        self.table = table  # int8; rows are scaled at use
        self.scale = np.concatenate(
            [1.0 / (np.linalg.norm(table[i : i + 4096].astype(np.float32), axis=1) + 1e-9)
             for i in range(0, len(table), 4096)]
        )  # fmt: skip
        self.dims = int(table.shape[1])
        self._sorted = words if words == sorted(words) else sorted(words)

    def row(self, word: str) -> int | None:
        i = self.index.get(word)
        if i is not None:
            return i
        return self._nearest(word)

    @lru_cache(maxsize=32768)  # noqa: B019 - one table per process, kept for its life
    def _nearest(self, word: str) -> int | None:
        if len(word) < MIN_SHARED + 1:
            return None
        for cut in range(len(word) - 1, MIN_SHARED - 1, -1):
            head = word[:cut]
            at = bisect.bisect_left(self._sorted, head)
            if at < len(self._sorted) and self._sorted[at].startswith(head):
                return self.index[self._sorted[at]]
        return None

    def embed(self, text: str) -> Vector | None:
        """The text's unit vector, or None when no word of it is known."""
        rows = [r for w in content_words(text) if (r := self.row(w)) is not None]
        if not rows:
            rows = [r for w in content_words(fold(text)) if (r := self.row(w)) is not None]
        if not rows:
            return None
        v = (self.table[rows].astype(np.float32) * self.scale[rows, None]).mean(axis=0)
        norm = float(np.linalg.norm(v))
        return (v / norm).astype(np.float32) if norm > 0 else None


@lru_cache(maxsize=1)
def load() -> WordVectors | None:
    """The shipped table (None if it was not built: players then read words only)."""
    path = resources.files(__package__).joinpath("data/vectors.npz")
    if not path.is_file():
        return None
    with resources.as_file(path) as real, np.load(real) as data:
        words = str(data["words"]).split("\n")
        return WordVectors(words, data["vectors"])
