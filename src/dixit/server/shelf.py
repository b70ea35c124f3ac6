"""What a room's computer players read about its cards, and what they learn from play.

The card book (``dixit.bots.CardBook``) is built from the room's decks' card descriptions in
a worker thread as soon as a game with a computer player starts, once per process for the same
cards: every room playing them gets its own copy of that book (a millisecond), so a restarted
server's rooms do not each rebuild it. Every clue told in a finished
round is public: the book learns it, filed under the room's language, as extra text about the
storyteller's card; a new game's book is first fed the finished rounds of the room's earlier
games from the event store.

A shelf knows nothing of its room but its :class:`Source` (the card descriptions of the room's
decks, an earlier game's events, the current game's); whoever asks for a book says for which
game and in which language.
"""

from __future__ import annotations

import asyncio
import hashlib
import pickle
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol

from dixit.engine import Event, RoundScored

from .cards import CardSource, described

if TYPE_CHECKING:
    from dixit.bots import CardBook


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


# One thread builds the rooms' card books, one after another. A build is 0.5-1.4 s of pure
# Python; after a restart every room with a computer player asks for one at once, and six of
# them on the default executor held the GIL from the event loop: in the seconds after a
# restart 78 of 79 samples of the server (py-spy, 6 s) were book builds, 1 the loop, so no
# reconnect, move or timer got through before the next kill (#30, docs/benchmarks.md).
_BUILDER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dixit-books")
# Built books by their cards' content, each shared by every room playing those cards (a room
# reads a copy). Read and written on the builder's thread only. A few deck sets cover most
# rooms; a room's copy keeps its book alive after it leaves this cache.
_BUILT: OrderedDict[str, CardBook] = OrderedDict()
BUILT_KEPT = 8


def _book_of(cards: list[dict[str, Any]]) -> CardBook:
    """A room's own card book of ``cards``: a copy of the one this process built for the same
    cards, built first if there is none (and ``dixit.bots`` with numpy imported, if it is not
    yet: a restart answers without it), on the builder's thread."""
    from dixit.bots import CardBook

    key = hashlib.blake2b(pickle.dumps(cards, protocol=5)).hexdigest()  # equal cards, equal key
    built = _BUILT.get(key)
    if built is None:
        built = _BUILT[key] = CardBook.from_cards(cards)
        while len(_BUILT) > BUILT_KEPT:
            _BUILT.popitem(last=False)
    _BUILT.move_to_end(key)
    return built.copy()


class Source(Protocol):
    """What a shelf reads of its room."""

    @property
    def log(self) -> Sequence[Event]:
        """The events of the game in play."""
        ...

    def card_dicts(self) -> list[dict[str, Any]]:
        """deck.json card dicts of the room's decks."""
        ...

    async def events_of(self, game: int) -> Sequence[Event]:
        """The events of the room's game ``game``."""
        ...


class Shelf:
    def __init__(self, source: Source) -> None:
        self._source = source
        self._book: CardBook | None = None
        self._game: int | None = None
        self._task: asyncio.Task[CardBook] | None = None

    @property
    def book(self) -> CardBook | None:
        """The card book of the current game, once built."""
        return self._book

    def new_game(self) -> None:
        """Another game is played: a book still being built for the last one is not taken."""
        self._book, self._game = None, None

    def shutdown(self) -> None:
        if self._task is not None:
            self._task.cancel()

    def prepare(self, game: int, lang: str) -> None:
        """Start building game ``game``'s card book (``lang``: the room's language), unless it
        is built or being built."""
        failed = self._task is not None and self._task.done() and not self._task.cancelled()
        if failed and self._task is not None and self._task.exception() is not None:
            self._task = None  # a store error while reading earlier games: build it again
        if self._task is None or self._game != game:
            self._game = game
            self._task = asyncio.get_running_loop().create_task(self._build(game, lang))

    async def book_for_game(self, game: int, lang: str) -> CardBook:
        self.prepare(game, lang)
        assert self._task is not None
        return await asyncio.shield(self._task)

    def learn(self, events: Sequence[Event], lang: str) -> None:
        """Finished rounds' clues, told for the storyteller's card (public once scored)."""
        if self._book is None:
            return
        for event in events:
            if isinstance(event, RoundScored):
                self._book.learn(event.storyteller_card, event.clue, lang)

    async def _build(self, game: int, lang: str) -> CardBook:
        book = await asyncio.get_running_loop().run_in_executor(
            _BUILDER, _book_of, self._source.card_dicts()
        )
        for number in range(1, game):
            for event in await self._source.events_of(number):
                if isinstance(event, RoundScored):
                    book.learn(event.storyteller_card, event.clue, lang)
        if self._game == game:
            for event in self._source.log:
                if isinstance(event, RoundScored):
                    book.learn(event.storyteller_card, event.clue, lang)
            self._book = book
        return book
