"""What computer players know about cards: the public metadata of a deck, in six languages.

A :class:`CardBook` indexes each card's text (title, description, alt text, things, themes,
moods, keywords) in every language it has, plus clues told for it in finished rounds
(:meth:`CardBook.learn`). :meth:`CardBook.fit` scores how well a clue in any of the six
languages fits each card; a :class:`Reading` says which parts a player reads, so weaker levels
read less. Cross-language help comes from a concept lexicon: list items that stand side by side
in a card's parallel texts (``things[i]`` in English and in Italian) are one concept, so a clue in
Italian also reaches a card whose other texts say the same thing in English only, and from
multilingual word vectors.

The book also keeps each card's clue bank (:mod:`dixit.bots.bank`) for storytellers; no reading
ever scores a clue against it.

Building a book is 0.5-1.4 s of pure Python, and a server restarted after a crash needs one
for every room with a computer player at once (#30). :meth:`CardBook.copy` gives a room its
own book in about a millisecond: it shares the deck's text, index and vectors with the built
one, and learning copies only what it changes, so the shared book is never written.

A book and its copies also share what they have read of each word of a clue (its forms, and
what it scores on each card) and, for readings of the cards' own text, of each whole phrase: a
storyteller weighs the same bank phrases (clues and their anchors) round after round and room
after room, and a book forgets its fits whenever it learns (#27).
"""

from __future__ import annotations

import math
import operator
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .bank import BankClue, parse_bank
from .pivot import Pivot
from .text import LANGS, content_words, forms, prefix_form, stem
from .vectors import Vector, WordVectors, load

FIELDS = ("title", "things", "themes", "moods", "description", "alt_text", "keywords", "clues")
LIST_FIELDS = ("things", "themes", "moods")
PREFIX_SHARE = 0.5  # a prefix-only match counts this much of a stem match
CONCEPT_SHARE = 0.5  # a match through the concept lexicon
WORDS_HALF = 8.0  # a word-match score this high reads as 0.5 (scores saturate towards 1)
SEMANTIC_WEIGHT = 1.0
FIT_CACHE = 4096  # clues whose fits over the whole book are kept
WORDS_KEPT = 4096  # words read (each reading apart) kept by a book for itself and its copies
PHRASES_KEPT = 4096  # the same of whole phrases (readings of the cards' own text only)
DOC_FIELDS = ("title", "description", "things", "themes", "moods", "keywords")
SEEN_FIELDS = ("description", "alt_text", "things", "keywords")  # what the picture shows
CLUE_KINDS = ("title", "themes")  # the card text a storyteller may say as it is


@dataclass(frozen=True, slots=True)
class Reading:
    """How a player reads: weight per field, and which cross-language aids it uses."""

    weights: Mapping[str, float]
    concepts: bool = True  # the lexicon from parallel card texts
    learned: bool = True  # clues told for the card in past rounds
    semantic: float = SEMANTIC_WEIGHT  # weight of the word-vector likeness (0: words only)
    seen_only: bool = False  # its meaning too is read from what the picture shows only
    pivot: float = 0.0  # weight of its words read against what the picture shows in every
    # language at once (pivot.py)

    @property
    def key(self) -> tuple[object, ...]:
        """A hashable value equal for equal readings (cache key; one object per value, as the
        caches hold one in each of their keys)."""
        weights = tuple(sorted(self.weights.items()))
        key = (weights, self.concepts, self.learned, self.semantic, self.seen_only, self.pivot)
        return _READING_KEYS.setdefault(key, key)

    @property
    def words_key(self) -> tuple[object, ...]:
        """The part of :attr:`key` that reading a word's matches depends on (readings that
        differ only in their meaning share what they read of each word)."""
        key = (tuple(sorted(self.weights.items())), self.concepts, self.learned)
        return _READING_KEYS.setdefault(key, key)


_READING_KEYS: dict[tuple[object, ...], tuple[object, ...]] = {}
_WITHOUT_PIVOT: dict[tuple[object, ...], Reading] = {}


def _without_pivot(reading: Reading) -> Reading:
    """The reading less its pivot (one object per reading)."""
    found = _WITHOUT_PIVOT.get(reading.key)
    if found is None:
        found = _WITHOUT_PIVOT.setdefault(reading.key, replace(reading, pivot=0.0))
    return found


FULL = Reading(
    {
        "title": 2.0,
        "things": 2.0,
        "themes": 1.6,
        "moods": 1.4,
        "description": 1.0,
        "alt_text": 0.5,
        "keywords": 1.2,
        "clues": 1.5,
    }
)
LITERAL = Reading(
    {"title": 2.0, "things": 2.0, "description": 1.0, "keywords": 1.0},
    concepts=False,
    learned=False,
    semantic=0.0,
)
# What a person at the table has to go on: what the picture shows (its description, alt text
# and the things in it), not the card's title, themes or moods, nor past rounds' clues. The
# storyteller predicts with it how many of the others will find its card.
SEEN = Reading(
    {"description": 1.0, "alt_text": 0.5, "things": 2.0, "keywords": 1.2},
    learned=False,
    seen_only=True,
)


@dataclass(slots=True)
class _Card:
    id: str
    text: dict[str, dict[str, Any]]  # lang -> {field: str | list[str]}
    clues: list[tuple[str, str]] = field(default_factory=list)  # (lang, clue)
    bank: dict[str, tuple[BankClue, ...]] = field(default_factory=dict)  # storytellers only


@dataclass(frozen=True, slots=True)
class _WordRead:
    """What one word of a clue scores on the cards it reaches (rows of the book, amounts; None
    when it reaches none), and what that was read from: the count of cards and each form's
    posting list. Learning never changes a posting list but replaces it
    (:meth:`CardBook._post_learned`), and a form's idf depends only on the count of cards and
    the length of its list, so the read holds for every book whose count and lists are these
    very ones (a copy that has not learned the word's forms)."""

    cards: int
    forms: tuple[str, ...]
    posts: tuple[object, ...]  # each form's list (None: none), compared by identity
    scores: tuple[npt.NDArray[np.intp], npt.NDArray[np.float64]] | None

    def holds(self, index: Mapping[str, object], cards: int) -> bool:
        return cards == self.cards and all(
            map(operator.is_, map(index.get, self.forms), self.posts)
        )


@dataclass(frozen=True, slots=True)
class _PhraseRead:
    """A phrase as a reading of the cards' own text reads it: its words' reads, and its
    weighted likeness of meaning (the cards' text vectors never change). It holds while its
    words' reads hold."""

    cards: int
    reads: tuple[_WordRead, ...]
    meaning: npt.NDArray[np.float32] | None

    @property
    def words(self) -> npt.NDArray[np.float64]:
        """The words' scores summed, before the cards' length norm (every learned clue
        changes it)."""
        words = np.zeros(self.cards)
        for read in self.reads:
            if read.scores is not None:
                words[read.scores[0]] += read.scores[1]
        return words

    def holds(self, index: Mapping[str, object], cards: int) -> bool:
        return cards == self.cards and all(r.holds(index, cards) for r in self.reads)


def _card_text(card: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """Per-language fields of a deck.json card (top-level English fields when ``text`` lacks en)."""
    out: dict[str, dict[str, Any]] = {}
    text = card.get("text")
    if isinstance(text, Mapping):
        for lang in LANGS:
            fields = text.get(lang)
            if isinstance(fields, Mapping):
                out[lang] = {k: v for k, v in fields.items() if k in FIELDS}
    if "en" not in out:
        top = {
            k: card[k] for k in ("title", "description", "alt_text", "themes", "moods") if k in card
        }
        if top:
            out["en"] = top
    keywords = card.get("keywords")
    if isinstance(keywords, list) and keywords:
        out.setdefault("en", {})["keywords"] = [str(k) for k in keywords]
    return out


def _items(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if value.strip() else []
    if isinstance(value, list):
        return [str(v) for v in value if str(v).strip()]
    return []


def _words_of(card: _Card, names: Sequence[str]) -> list[str]:
    """The content words of the card's ``names`` fields, in every language it has."""
    return [
        w
        for fields in card.text.values()
        for name in names
        for item in _items(fields.get(name))
        for w in content_words(item)
    ]


def _postings_of(item: str, lang: str) -> Iterator[tuple[str, float]]:
    """The forms a text is indexed under, with what each adds: a word's stem, its prefix."""
    for word in content_words(item):
        yield stem(word, lang), 1.0
        pre = prefix_form(word)
        if pre is not None:
            yield pre, PREFIX_SHARE


class CardBook:
    """Public text about a deck's cards, indexed for scoring clues against them."""

    def __init__(
        self,
        cards: Iterable[tuple[str, dict[str, dict[str, Any]]]],
        banks: Mapping[str, dict[str, tuple[BankClue, ...]]] | None = None,
    ) -> None:
        banks = banks or {}
        self._cards: list[_Card] = [
            _Card(cid, text, bank=dict(banks.get(cid, {}))) for cid, text in cards
        ]
        self._at: dict[str, int] = {c.id: i for i, c in enumerate(self._cards)}
        # form -> card index -> field -> count
        self._index: dict[str, dict[int, dict[str, float]]] = defaultdict(dict)
        self._concepts: dict[str, list[frozenset[str]]] = defaultdict(list)  # stem -> concepts
        for i, card in enumerate(self._cards):
            for lang, fields in card.text.items():
                for name, value in fields.items():
                    for item in _items(value):
                        self._add(i, name, item, lang)
            self._add_concepts(card)
        self._vectors: WordVectors | None = load()
        dims = self._vectors.dims if self._vectors else 1
        self._docs = np.zeros((len(self._cards), len(LANGS) + 1, dims), dtype=np.float32)
        self._seen = np.zeros((len(self._cards), len(LANGS), dims), dtype=np.float32)
        for i, card in enumerate(self._cards):
            self._embed_text(i, card)
        self._own_docs = True  # False while ``_docs`` is shared with another book
        self._pivot = self._build_pivot()
        # Each card's indexed length, kept as clues are learned: every amount is a multiple
        # of 0.5, so these sums are exact in any order (the same as summing the index again).
        self._lengths = [0.0] * len(self._cards)
        for posts in self._index.values():
            for i, fields in posts.items():
                self._lengths[i] += sum(fields.values())
        self._touched: set[str] | None = None  # forms whose idf is stale (None: every form)
        self._idf: dict[str, float] = {}
        # Shared with every copy (see _WordRead); written by whichever book reads a word.
        self._words: dict[tuple[str, tuple[object, ...]], _WordRead] = {}
        self._phrases: dict[tuple[str, tuple[object, ...]], _PhraseRead] = {}
        self._refresh()

    def copy(self) -> CardBook:
        """A book that reads as this one and learns on its own: the cards' text, the index,
        the lexicon and the vectors stay shared, and :meth:`learn` copies what it changes
        (copy on write), so neither book ever sees the other's learned clues."""
        if self._stale:
            self._refresh()
        book = object.__new__(CardBook)
        book._cards = list(self._cards)
        book._at = dict(self._at)
        book._index = defaultdict(dict, self._index)
        book._concepts = self._concepts  # never changed after building
        book._vectors = self._vectors
        book._docs, book._seen = self._docs, self._seen
        book._pivot = self._pivot  # never changed after building
        book._own_docs = self._own_docs = False
        book._lengths = list(self._lengths)
        book._touched, book._stale = set(), False
        book._fits, book._postings = {}, {}
        book._idf, book._norm_array = self._idf, self._norm_array  # replaced, never changed
        book._words, book._phrases = self._words, self._phrases
        return book

    @classmethod
    def from_cards(cls, cards: Iterable[Mapping[str, Any]]) -> CardBook:
        """A book from deck.json card dicts (``id``, whatever text they carry, and the clue
        bank the deck library attaches as ``bank``)."""
        listed = list(cards)
        banks = {str(c["id"]): parse_bank(c.get("bank")) for c in listed if c.get("bank")}
        return cls(((str(c["id"]), _card_text(c)) for c in listed), banks)

    # -- building ----------------------------------------------------------------------------
    def _add(self, i: int, name: str, item: str, lang: str) -> None:
        for form, amount in _postings_of(item, lang):
            self._post(form, i, name, amount)

    def _post(self, form: str, i: int, name: str, amount: float) -> None:
        fields = self._index[form].setdefault(i, {})
        fields[name] = min(fields.get(name, 0.0) + amount, 2.0)

    def _post_learned(self, form: str, i: int, amount: float) -> None:
        """:meth:`_post` of a learned clue, writing only new dicts: the ones read may be
        shared with a copy of the book (a handful per clue, so copying them is cheap)."""
        posts = dict(self._index.get(form, {}))
        fields = dict(posts.get(i, {}))
        before = fields.get("clues", 0.0)
        fields["clues"] = min(before + amount, 2.0)
        self._lengths[i] += fields["clues"] - before
        posts[i] = fields
        self._index[form] = posts
        if self._touched is not None:
            self._touched.add(form)

    def _add_concepts(self, card: _Card) -> None:
        """Items at the same place in equally long lists of two or more languages: one concept."""
        for name in LIST_FIELDS:
            lists = {lang: _items(f.get(name)) for lang, f in card.text.items()}
            lists = {lang: items for lang, items in lists.items() if items}
            if len(lists) < 2 or len({len(v) for v in lists.values()}) != 1:
                continue
            for column in zip(*lists.values(), strict=True):
                concept = frozenset(
                    stem(w, lang)
                    for lang, item in zip(lists, column, strict=True)
                    for w in content_words(item)
                )
                if 1 < len(concept) <= 24:
                    for s in concept:
                        self._concepts[s].append(concept)

    def _embed_text(self, i: int, card: _Card) -> None:
        """Row per language: the vector of the card's text (the last row, its learned clues,
        is :meth:`_embed_clues`'s). The same of what its picture shows alone, for readings
        that see only that."""
        if self._vectors is None:
            return
        for k, lang in enumerate(LANGS):
            fields = card.text.get(lang)
            if fields:
                for docs, names in ((self._docs, DOC_FIELDS), (self._seen, SEEN_FIELDS)):
                    v = self._vectors.embed(
                        ". ".join(", ".join(_items(fields.get(n))) for n in names)
                    )
                    if v is not None:
                        docs[i, k] = v

    def _build_pivot(self) -> Pivot | None:
        """What each card's picture shows, in all its languages, as the pivot reads it (None
        without vectors; its words are gathered on its first read)."""
        if self._vectors is None:
            return None
        cards = list(self._cards)  # as built: a card that joins later scores 0 on the pivot
        return Pivot(self._vectors, lambda: [_words_of(card, SEEN_FIELDS) for card in cards])

    def _embed_clues(self, i: int) -> None:
        """The last row of the card's text vectors: its learned clues, together."""
        if self._vectors is None:
            return
        v = self._vectors.embed(". ".join(c for _, c in self._cards[i].clues))
        if v is not None:
            if not self._own_docs:
                self._docs, self._own_docs = self._docs.copy(), True
            self._docs[i, len(LANGS)] = v

    def vector(self, text: str) -> Vector | None:
        """The word-vector meaning of a text (None without vectors or known words)."""
        return None if self._vectors is None else _cached_embed(self._vectors, text)

    def _refresh(self) -> None:
        """The weights after building or learning, and empty fits. Only the idf of the forms
        learned clues touched changes (every form's when a card joined: the count of cards
        changes), so a room's book does not go over the whole index again for a clue, and
        keeps the postings of the other forms."""
        self._stale = False
        self._fits: dict[tuple[str, tuple[object, ...]], npt.NDArray[np.float64]] = {}
        if self._touched is None:
            self._postings: dict[tuple[object, ...], dict[str, list[tuple[int, float]]]] = {}
        for postings in self._postings.values():
            for form in self._touched or ():
                postings.pop(form, None)
        n = max(len(self._cards), 1)
        touched = self._index if self._touched is None else self._touched
        idf = {f: math.log(1.0 + n / len(self._index[f])) for f in touched}
        self._idf = idf if self._touched is None else {**self._idf, **idf}
        self._touched = set()
        mean = sum(self._lengths) / n or 1.0
        self._norm_array = np.array([((length or mean) / mean) ** 0.3 for length in self._lengths])

    # -- public -------------------------------------------------------------------------------
    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(c.id for c in self._cards)

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._at

    def __len__(self) -> int:
        return len(self._cards)

    def knows(self, card_id: str) -> bool:
        """Whether the book has any text (metadata or learned clues) about this card."""
        i = self._at.get(card_id)
        return i is not None and bool(self._cards[i].text or self._cards[i].clues)

    @property
    def readable(self) -> bool:
        """Whether any card has text: false for an imported deck without captions."""
        return any(c.text or c.clues for c in self._cards)

    def learn(self, card_id: str, clue: str, lang: str) -> None:
        """Remember a clue told for ``card_id`` in a finished round (public); unknown ids join."""
        clue = clue.strip()
        if not clue:
            return
        if lang not in LANGS:
            raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
        # Weights are refreshed at the next reading; set first, so a reading on another
        # thread that overlaps this keeps nothing it read for the book's copies (see fit_all).
        self._stale = True
        i = self._at.get(card_id)
        if i is None:
            i = len(self._cards)
            self._cards.append(_Card(card_id, {}))
            self._at[card_id] = i
            self._docs = np.concatenate([self._docs, np.zeros_like(self._docs[:1])])
            self._seen = np.concatenate([self._seen, np.zeros_like(self._seen[:1])])
            self._own_docs = True
            self._lengths.append(0.0)
            self._touched = None  # one more card: every idf changes
        card = self._cards[i]
        self._cards[i] = _Card(card.id, card.text, [*card.clues, (lang, clue)], card.bank)
        for form, amount in _postings_of(clue, lang):
            self._post_learned(form, i, amount)
        self._embed_clues(i)
        self._stale = True

    def text(self, card_id: str, lang: str) -> Mapping[str, Any] | None:
        """The card's fields in ``lang`` (None when it has none in that language)."""
        i = self._at.get(card_id)
        return None if i is None else self._cards[i].text.get(lang)

    def clues(self, card_id: str, lang: str) -> list[str]:
        """Clues told for the card in past rounds, in ``lang``."""
        i = self._at.get(card_id)
        return [] if i is None else [c for lg, c in self._cards[i].clues if lg == lang]

    def bank(self, card_id: str, lang: str) -> tuple[BankClue, ...]:
        """The card's bank clues in ``lang`` (for storytellers; empty when it has none)."""
        i = self._at.get(card_id)
        return () if i is None else self._cards[i].bank.get(lang, ())

    def _forms_of(self, word: str, concepts: bool) -> dict[str, float]:
        """One thing a clue says: the word's forms, and with ``concepts`` the stems of the
        concepts it belongs to, each with its weight (a card scores its best form)."""
        direct = forms(word)
        weights = dict.fromkeys(direct, 1.0)
        if concepts:
            for f in direct:
                for concept in self._concepts.get(f, ()):
                    for s in concept:
                        weights.setdefault(s, CONCEPT_SHARE)
        return weights

    def fit(self, clue: str, card_ids: Sequence[str], reading: Reading = FULL) -> list[float]:
        """How well ``clue`` fits each card: matching words (saturating towards 1) plus the
        likeness of meaning (cosine of word vectors, weighted by the reading). 0: not at all;
        a card the book does not know scores 0."""
        every = self.fit_all(clue, reading)
        return [float(every[i]) if (i := self._at.get(c)) is not None else 0.0 for c in card_ids]

    def positions(self, card_ids: Sequence[str]) -> npt.NDArray[np.intp]:
        """Where each of ``card_ids`` (cards the book holds) is in :meth:`fit_all`'s order."""
        return np.fromiter((self._at[c] for c in card_ids), dtype=np.intp, count=len(card_ids))

    def fit_all(self, clue: str, reading: Reading = FULL) -> npt.NDArray[np.float64]:
        """:meth:`fit` for every card of the book, in book order (cached until it learns)."""
        if self._stale:
            self._refresh()
        key = (clue, reading.key)
        found = self._fits.get(key)
        if found is not None:
            return found
        if reading.pivot > 0:  # the same reading without it, read once for both
            out = self.fit_all(clue, _without_pivot(reading))
            pivot = self._pivot.clue(clue, len(self._cards)) if self._pivot else None
            if pivot is not None:
                out = out + reading.pivot * pivot
            return self._keep_fit(key, out)
        # A reading of learned clues reads their vectors, which change in place as a book
        # learns: its phrases are read anew by each book.
        shared = not reading.learned
        phrase = self._phrases.get(key) if shared else None
        if phrase is None or not phrase.holds(self._index, len(self._cards)):
            phrase = self._read(clue, reading)
            if shared and not self._stale:  # not while it learns (a move on another thread)
                if len(self._phrases) >= PHRASES_KEPT:
                    self._phrases.clear()
                self._phrases[key] = phrase
        words = phrase.words
        words /= self._norm_array
        out = words / (words + WORDS_HALF)
        if phrase.meaning is not None:
            out += phrase.meaning
        return self._keep_fit(key, out)

    def _keep_fit(
        self, key: tuple[str, tuple[object, ...]], fits: npt.NDArray[np.float64]
    ) -> npt.NDArray[np.float64]:
        if len(self._fits) >= FIT_CACHE:
            self._fits.clear()
        self._fits[key] = fits
        return fits

    def _read(self, clue: str, reading: Reading) -> _PhraseRead:
        """:meth:`fit_all`'s parts: the words' reads, and the meaning."""
        n = len(self._cards)
        words_key = reading.words_key
        reads = tuple(self._word_read(word, reading, words_key) for word in content_words(clue))
        meaning = None
        if reading.semantic > 0 and n:
            q = self.vector(clue)
            if q is not None:
                if reading.seen_only:
                    docs = self._seen
                else:
                    docs = self._docs if reading.learned else self._docs[:, : len(LANGS)]
                meaning = reading.semantic * np.maximum((docs @ q).max(axis=1), 0.0)
        if meaning is not None:
            meaning.flags.writeable = False
        return _PhraseRead(n, reads, meaning)

    def _word_read(self, word: str, reading: Reading, words_key: tuple[object, ...]) -> _WordRead:
        """What ``word`` scores on the cards it reaches: on each, the best of the word's forms
        the card has (read once for the book and its copies while it holds; see _WordRead)."""
        n = len(self._cards)
        read = self._words.get((word, words_key))
        if read is not None and read.holds(self._index, n):
            return read
        shares = self._forms_of(word, reading.concepts)
        postings = self._postings.setdefault(words_key, {})
        best: dict[int, float] = {}  # plain Python: a word's forms reach a few cards each
        for f, share in shares.items():
            for i, value in self._posted(f, reading, postings):
                value *= share
                if value > best.get(i, 0.0):
                    best[i] = value
        scores = None
        if best:
            rows = np.fromiter(best.keys(), dtype=np.intp, count=len(best))
            scores = (rows, np.fromiter(best.values(), dtype=np.float64, count=len(best)))
        read = _WordRead(n, tuple(shares), tuple(map(self._index.get, shares)), scores)
        if not self._stale:  # as in fit_all
            if len(self._words) >= WORDS_KEPT:
                self._words.clear()
            self._words[(word, words_key)] = read
        return read

    def _posted(
        self,
        form: str,
        reading: Reading,
        cache: dict[str, list[tuple[int, float]]],
    ) -> list[tuple[int, float]]:
        """Cards having ``form`` and its weight in each (field weights x idf), kept in
        ``cache`` (the reading's)."""
        found = cache.get(form)
        if found is not None:
            return found
        posts = self._index.get(form)
        if not posts:
            cache[form] = []
            return cache[form]
        weights = reading.weights if reading.learned else {**reading.weights, "clues": 0.0}
        idf = self._idf[form]
        result = cache[form] = [
            (i, idf * sum(weights.get(name, 0.0) * v for name, v in fields.items()))
            for i, fields in posts.items()
        ]
        return result

    def phrases(self, card_id: str, lang: str) -> list[tuple[str, str]]:
        """What a storyteller may say of the card in ``lang`` besides its bank: its title and
        themes (written from the picture), as (kind, phrase). Never the things it shows (a
        thing's name is a label, not a clue), nor its moods alone (an adjective such as "regal"
        fits half the deck)."""
        fields = self.text(card_id, lang) or {}
        return [(kind, p) for kind in CLUE_KINDS for p in _items(fields.get(kind))]

    def shown(self, card_id: str, lang: str) -> frozenset[str]:
        """Stems of every word that says what the card shows in ``lang`` (its things and its
        description): a clue made mostly of them describes the picture instead of telling it."""
        fields = self.text(card_id, lang) or {}
        items = [*_items(fields.get("things")), *_items(fields.get("description"))]
        return frozenset(stem(w, lang) for item in items for w in content_words(item))

    def labels(self, card_id: str, lang: str) -> frozenset[str]:
        """Stems of the card's most salient things in ``lang`` (the first three listed): a
        short clue made of them only names what everyone sees."""
        fields = self.text(card_id, lang) or {}
        return frozenset(
            stem(w, lang) for item in _items(fields.get("things"))[:3] for w in content_words(item)
        )


@lru_cache(maxsize=8192)
def _cached_embed(vectors: WordVectors, text: str) -> Vector | None:
    return vectors.embed(text)
