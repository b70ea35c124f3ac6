"""What a room's computer players read about its cards, and what they learn from play.

The card book (``dixit.bots.CardBook``) is built from the room's decks' card descriptions in
a worker thread as soon as a game with a computer player starts. Every clue told in a finished
round is public: the book learns it, filed under the room's language, as extra text about the
storyteller's card; a new game's book is first fed the finished rounds of the room's earlier
games from the event store.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from dixit.engine import Event, RoundScored
from dixit.engine.serialize import event_from_json

from .cards import CardSource, described

if TYPE_CHECKING:
    from dixit.bots import CardBook

    from .room import Room


def card_dicts(cards: CardSource, card_ids: Sequence[str]) -> list[dict[str, Any]]:
    """deck.json card dicts (id and metadata) of ``card_ids`` (no text where none is known)."""
    library = getattr(cards, "library", None)
    found: dict[str, dict[str, Any]] = {}
    if library is not None:
        for slug in sorted({cid.rsplit("-", 1)[0] for cid in card_ids}):
            try:
                deck = library.get(slug)
            except (KeyError, OSError, ValueError):
                continue
            for card in deck.cards:
                found[card.id] = {"id": card.id, **(card.metadata or {})}
    return [found.get(cid, {"id": cid}) for cid in card_ids]


def readable(cards: CardSource, card_ids: Sequence[str]) -> bool:
    """Do computer players have text to read about every one of these cards?"""
    return bool(card_ids) and all(described(d) for d in card_dicts(cards, card_ids))


def _book_of(cards: list[dict[str, Any]]) -> CardBook:
    """The card book of ``cards``, built (and ``dixit.bots`` with numpy imported, if it is
    not yet: a restart answers without it) in the caller's worker thread."""
    from dixit.bots import CardBook

    return CardBook.from_cards(cards)


class Shelf:
    def __init__(self, room: Room) -> None:
        # Weak: an unloaded room is freed at once by reference counting (a cycle would wait
        # for a full collection, which the server makes rare).
        self.room: Room = weakref.proxy(room)
        self._book: CardBook | None = None
        self._game: int | None = None
        self._task: asyncio.Task[CardBook] | None = None

    @property
    def book(self) -> CardBook | None:
        """The card book of the current game, once built."""
        return self._book

    def new_game(self) -> None:
        self._book = None

    def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def prepare(self) -> None:
        """Start building this game's card book as soon as a computer player sits in it."""
        room = self.room
        if room.data.status != "playing" or not any(s.is_bot for s in room.data.seats):
            return
        game = room.data.game_number
        failed = self._task is not None and self._task.done() and not self._task.cancelled()
        if failed and self._task is not None and self._task.exception() is not None:
            self._task = None  # a store error while reading earlier games: build it again
        if self._task is None or self._game != game:
            self._game = game
            self._task = asyncio.get_running_loop().create_task(self._build(game))

    async def book_for_game(self) -> CardBook:
        self.prepare()
        game = self.room.data.game_number
        if self._task is None or self._game != game:  # a timer plays for a person
            self._game = game
            self._task = asyncio.get_running_loop().create_task(self._build(game))
        return await asyncio.shield(self._task)

    def learn(self, events: Sequence[Event]) -> None:
        """Finished rounds' clues, told for the storyteller's card (public once scored)."""
        if self._book is None:
            return
        lang = self.room.settings.language
        for event in events:
            if isinstance(event, RoundScored):
                self._book.learn(event.storyteller_card, event.clue, lang)

    async def _build(self, game: int) -> CardBook:
        room = self.room
        cards = card_dicts(room.services.cards, room.deck_ids())
        book = await asyncio.to_thread(_book_of, cards)
        lang = room.settings.language
        for number in range(1, game):
            for stored in await room.services.store.read(f"{room.code}:{number}"):
                event = event_from_json(stored.data)
                if isinstance(event, RoundScored):
                    book.learn(event.storyteller_card, event.clue, lang)
        if room.data.game_number == game:
            for event in room.log:
                if isinstance(event, RoundScored):
                    book.learn(event.storyteller_card, event.clue, lang)
            self._book = book
        return book
