"""A reading shared by the six languages: each clue word against the words of a card's text in
all six languages, through the aligned word vectors (#27).

A clue word's score for a card is its best cosine with any word of the card's text (any
language, so "łabędź", "cigno" and "swan" all find the card that says "swan" in any of them),
less a floor (:data:`FLOOR`: words that share only a loose sense count nothing), rescaled to
0-1; a card's score is the mean over the clue's words. Unlike the text vectors (one mean per
language), no word is blurred into its sentence, and unlike stems, no language needs its own
stemmer or lexicon, so the same meaning in two languages scores alike by construction.

Only the cards' own text is indexed (not clues learned in play), so a book's copies share it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from .text import content_words
from .vectors import WordVectors

FLOOR = 0.3  # cosines at or below this count nothing
WORD_CACHE = 2048  # clue words whose best cosines per card are kept (at most 1.6 MB a deck)


class WordPivot:
    """The words of each card's text as unit vectors, for :meth:`scores`."""

    def __init__(self, vectors: WordVectors, cards: Iterable[Iterable[str]]) -> None:
        self._vectors = vectors
        vocab: dict[int, int] = {}  # table row -> column of ``_words``
        columns: list[list[int]] = []
        for words in cards:
            known = {r for w in words if (r := vectors.row(w)) is not None}
            columns.append(sorted(vocab.setdefault(r, len(vocab)) for r in known))
        self.cards = len(columns)
        rows = np.fromiter(vocab, dtype=np.intp, count=len(vocab))
        self._words = vectors.table[rows].astype(np.float32) * vectors.scale[rows, None]
        self._columns = np.fromiter(
            (c for cols in columns for c in cols), dtype=np.intp, count=sum(map(len, columns))
        )
        sizes = np.array([len(cols) for cols in columns], dtype=np.intp)
        self._has = sizes > 0
        self._starts = (np.cumsum(sizes) - sizes)[self._has]
        self._best = lru_cache(maxsize=WORD_CACHE)(self._best_uncached)

    def scores(self, clue: str) -> npt.NDArray[np.float64]:
        """Per card (book order), the mean over the clue's known words of their match (0-1)."""
        rows = [r for w in content_words(clue) if (r := self._vectors.row(w)) is not None]
        out = np.zeros(self.cards)
        for r in rows:
            out += self._best(r)
        return out / len(rows) if rows else out

    def _best_uncached(self, row: int) -> npt.NDArray[np.float64]:
        """The table word's best cosine with each card's words, above the floor, scaled 0-1."""
        q = self._vectors.table[row].astype(np.float32) * self._vectors.scale[row]
        best = np.zeros(self.cards)
        if len(self._columns):
            cos = (self._words @ q)[self._columns]
            best[self._has] = np.maximum.reduceat(cos, self._starts)
        out = np.maximum(best - FLOOR, 0.0) / (1.0 - FLOOR)
        out.flags.writeable = False  # kept in the cache, shared by every book's copies
        return out
