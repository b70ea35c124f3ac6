"""Who may see and use an uploaded deck.

A deck a host uploads belongs to the seat token that uploaded it (its ``owner``, the token's
hash) and to the rooms that deal from it: only they list it, preview it and read its card words.
A request says who asks with ``X-Dixit-Seats: CODE:TOKEN, CODE:TOKEN`` (the seats the browser
holds; never in the URL, where logs would keep them). A deck the operator imported with
``dixit deck import`` has no owner and is shared, like the built-in ones.

Card pictures (``/cards/{id}``) are served to whoever names the card: an owned deck's card ids
are keyed with a secret of the deck (:mod:`dixit.decks.library`), so only the people it was
shown to can name one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from .cards import DeckSummary
from .records import RoomRecordData
from .tokens import seats_in, token_hash


@dataclass(frozen=True)
class Viewer:
    """Who asks: the token hashes they hold, and the decks of the rooms those tokens sit in."""

    tokens: frozenset[str] = frozenset()
    decks: frozenset[str] = frozenset()

    def sees(self, deck: DeckSummary) -> bool:
        return deck.owner is None or deck.owner in self.tokens or deck.slug in self.decks

    def owns(self, deck: DeckSummary) -> bool:
        return deck.owner is not None and deck.owner in self.tokens


async def viewer(
    header: str | None, room_data: Callable[[str], Awaitable[RoomRecordData | None]]
) -> Viewer:
    """The viewer a request's seats make: a token counts for a room only if it opens a seat
    or a spectator's place there."""
    tokens: set[str] = set()
    decks: set[str] = set()
    for code, token in seats_in(header):
        hashed = token_hash(token)
        tokens.add(hashed)
        data = await room_data(code)
        if data is None:
            continue
        if hashed in data.spectators or any(s.token_hash == hashed for s in data.seats):
            decks.update(str(slug) for slug in data.settings.get("decks") or ())
    return Viewer(frozenset(tokens), frozenset(decks))


def may_choose(decks: Iterable[DeckSummary], slugs: Iterable[str], token: str | None) -> bool:
    """May the holder of ``token`` (a hash; None: nobody yet) deal from these decks? A shared
    deck, or one they uploaded."""
    owners = {d.slug: d.owner for d in decks}
    return all(owners.get(slug) in (None, token) for slug in slugs)
