"""Words and phrases a book reads once for itself and its copies (#27): fits stay bit for bit
those of a book that reads everything anew, through learning, copies and a full cache."""

from __future__ import annotations

from typing import Any

import pytest

from dixit.bots import CardBook, make_bot
from dixit.bots import cardbook as cardbook_module
from dixit.bots.cardbook import FULL, LITERAL, SEEN
from dixit.bots.levels import SKILLS

from .conftest import CAT, LIGHTHOUSE, six_language_card

READINGS = [FULL, SEEN, LITERAL, *(SKILLS[level].reading for level in SKILLS)]
PHRASES = ["storm waves", "a lonely lighthouse", "sleeping cat", "la tempesta", "chat", "hope"]


def cards() -> list[dict[str, Any]]:
    return [six_language_card("deck-lighthouse", LIGHTHOUSE), six_language_card("deck-cat", CAT)]


def fits(book: CardBook, phrases: list[str] = PHRASES) -> list[list[float]]:
    return [book.fit_all(p, r).tolist() for p in phrases for r in READINGS]


def test_a_copy_reads_a_phrase_the_built_book_read_and_fits_alike() -> None:
    shared = CardBook.from_cards(cards())
    first = fits(shared)
    kept = (dict(shared._words), dict(shared._phrases))
    room = shared.copy()
    assert fits(room) == first
    assert (room._words, room._phrases) == kept  # nothing read again
    room.learn("deck-cat", "nebbia", "it")  # every card's length norm changes, no form read
    fresh = CardBook.from_cards(cards())
    fresh.learn("deck-cat", "nebbia", "it")
    assert fits(room) == fits(fresh)
    assert fits(room) != first
    assert room._phrases.keys() == kept[1].keys()


def test_a_learned_word_is_read_anew_by_the_book_that_learned_it_only() -> None:
    shared = CardBook.from_cards(cards())
    first = fits(shared)
    room, other = shared.copy(), shared.copy()
    room.learn("deck-cat", "a storm of waves", "en")  # forms of the phrases read before
    fresh = CardBook.from_cards(cards())
    fresh.learn("deck-cat", "a storm of waves", "en")
    assert fits(room) == fits(fresh)
    storm = PHRASES.index("storm waves") * len(READINGS)
    seen = storm + READINGS.index(SEEN)
    assert fits(room)[seen] != first[seen]  # SEEN reads no clue, but the storm's idf changed
    assert fits(shared) == first and fits(other) == first
    assert fits(room) == fits(fresh)  # whichever book's read was kept last
    room.learn("deck-new", "storm", "en")  # one more card: every idf changes
    fresh.learn("deck-new", "storm", "en")
    assert fits(room) == fits(fresh)
    assert fits(shared) == first


def test_the_shared_reads_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cardbook_module, "WORDS_KEPT", 4)
    monkeypatch.setattr(cardbook_module, "PHRASES_KEPT", 3)
    bounded = CardBook.from_cards(cards())
    copy = bounded.copy()
    for book in (bounded, copy, bounded):
        got = fits(book)
        assert len(bounded._words) <= 4 and len(bounded._phrases) <= 3
        monkeypatch.undo()
        assert got == fits(CardBook.from_cards(cards()))
        monkeypatch.setattr(cardbook_module, "WORDS_KEPT", 4)
        monkeypatch.setattr(cardbook_module, "PHRASES_KEPT", 3)


def test_a_storyteller_with_people_at_the_table_tells_the_same_from_reads_kept() -> None:
    """Same seed, same game with people at the table, whether the book's copy finds every
    phrase already read (a room after another) or reads everything itself."""
    from dixit.bots.arena import bot_rng, play_game
    from dixit.decks.library import DeckLibrary, builtin_root
    from dixit.engine import rules_for

    deck = DeckLibrary(builtin_root().parent).get("golden-tales")
    deck_cards = [{"id": c.id, **(c.metadata or {})} for c in deck.cards]
    names = ["p1", "p2", "p3", "p4"]

    def game(book: CardBook) -> list[Any]:
        bots = [make_bot("strong", rng=bot_rng(5, i), lang="fr", book=book,
                         people=lambda: frozenset({"p2", "p4"}))
                for i in range(len(names))]  # fmt: skip
        return play_game(rules_for("classic"), names, bots, list(book.ids), 5)[1]

    shared = CardBook.from_cards(deck_cards)
    first = game(shared.copy())
    assert len(shared._phrases) > 100  # the first room's reads, kept for the next
    assert game(shared.copy()) == first == game(CardBook.from_cards(deck_cards))
