"""Reading a clue word against a card's words in all six languages at once (#27).

A card's texts say the same things in six languages, but a clue reaches them through stems and
whole-text vectors of one language at a time, so the same clue in Italian and in Polish can rank
the cards differently. The pivot compares each clue word, through the aligned word vectors, with
every word of what the card's picture shows (description, alt text, things, keywords) in every
language: the word's best cosine on a card (above :data:`FLOOR`, rescaled to 0-1) is how
strongly the card shows it, whatever language the clue is in. A clue's pivot is the mean over
its words that have a vector.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property

import numpy as np
import numpy.typing as npt

from .text import content_words
from .vectors import WordVectors

FLOOR = 0.3  # cosines at or below this are no likeness at all
WORDS_KEPT = 8192  # clue words whose scores a pivot keeps


class Pivot:
    """Each card's words (of some of its fields, in all its languages) as word-vector rows,
    gathered on the first read: a book that no reading with a pivot asks pays nothing (about
    80 ms for *Golden Tales*)."""

    def __init__(self, vectors: WordVectors, cards: Callable[[], Sequence[Sequence[str]]]) -> None:
        self._vectors = vectors
        self._cards = cards
        self._kept: dict[str, npt.NDArray[np.float64] | None] = {}

    @cached_property
    def _rows(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """One unit vector per distinct word row (and a last one of zeros, for a card with no
        word), each card's rows in it, and where each card's rows start."""
        vectors = self._vectors
        rows_of = [
            sorted({r for w in words if (r := vectors.row(w)) is not None})
            for words in self._cards()
        ]
        vocab = sorted({r for rows in rows_of for r in rows})
        at = {r: k for k, r in enumerate(vocab)}
        matrix = np.zeros((len(vocab) + 1, vectors.dims), dtype=np.float32)
        if vocab:
            picked = np.array(vocab, dtype=np.intp)
            matrix[:-1] = vectors.table[picked].astype(np.float32) * vectors.scale[picked, None]
        entries = [[at[r] for r in rows] or [len(vocab)] for rows in rows_of]
        flat = np.fromiter(
            (k for e in entries for k in e), dtype=np.intp, count=sum(map(len, entries))
        )
        starts = np.cumsum([0, *map(len, entries)])[:-1].astype(np.intp)
        return matrix, flat, starts

    def word(self, word: str) -> npt.NDArray[np.float64] | None:
        """How strongly each card says ``word`` (0-1; None when the word has no vector)."""
        found = self._kept.get(word, self)  # self: not read yet (None is a read: no vector)
        if found is not self:
            return found  # type: ignore[return-value]
        row = self._vectors.row(word)
        out = None
        matrix, entries, starts = self._rows
        if row is not None and len(starts):
            q = self._vectors.table[row].astype(np.float32) * self._vectors.scale[row]
            cos = matrix @ q
            best = np.maximum.reduceat(cos[entries], starts).astype(np.float64)
            out = np.clip((best - FLOOR) / (1.0 - FLOOR), 0.0, 1.0)
            out.flags.writeable = False
        if len(self._kept) >= WORDS_KEPT:
            self._kept.clear()
        self._kept[word] = out
        return out

    def clue(self, clue: str, cards: int) -> npt.NDArray[np.float64] | None:
        """The mean of the clue's words' :meth:`word` over ``cards`` cards (cards that joined
        the book after it was built score 0); None when no word of it has a vector."""
        scores = [s for w in content_words(clue) if (s := self.word(w)) is not None]
        if not scores:
            return None
        mean: npt.NDArray[np.float64] = np.mean(scores, axis=0)
        if cards > len(mean):
            mean = np.concatenate([mean, np.zeros(cards - len(mean))])
        return mean
