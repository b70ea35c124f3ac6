"""Who may see and use an uploaded deck.

A deck a host uploads belongs to the seat token that uploaded it (its ``owner``, the token's
hash) and to the rooms that deal from it: only they list it, preview it, read its card words
and fetch its pictures. A request says who asks with ``X-Dixit-Seats: CODE:TOKEN, CODE:TOKEN``
(the seats the browser holds; never in the URL, where logs would keep them). A picture is
fetched by an ``<img>``, which sends no header of ours: the browser keeps the same seats in the
``dixit_seats`` cookie (``CODE:TOKEN.CODE:TOKEN``, path ``/cards``, SameSite=Strict), sent
with pictures only. A deck the operator imported with ``dixit deck import`` has no owner and
is shared, like the built-in ones; its pictures are served to anyone.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from .cards import DeckSummary
from .records import RoomRecordData
from .tokens import seats_in, token_hash

RoomData = Callable[[str], Awaitable[RoomRecordData | None]]  # a room's record, loaded or stored
SEATS_COOKIE = "dixit_seats"


@dataclass(frozen=True)
class Viewer:
    """Who asks: the token hashes they hold, and the decks of the rooms those tokens sit in."""

    tokens: frozenset[str] = frozenset()
    decks: frozenset[str] = frozenset()

    def sees(self, deck: DeckSummary) -> bool:
        return deck.owner is None or deck.owner in self.tokens or deck.slug in self.decks

    def owns(self, deck: DeckSummary) -> bool:
        return deck.owner is not None and deck.owner in self.tokens


async def viewer(header: str | None, room_data: RoomData) -> Viewer:
    """The viewer a request's seats make: a token counts for a room only if it opens a seat
    or a spectator's place there."""
    tokens: set[str] = set()
    decks: set[str] = set()
    for code, token in seats_in(header):
        hashed = token_hash(token)
        tokens.add(hashed)
        decks.update(await _decks_of(code, hashed, room_data))
    return Viewer(frozenset(tokens), frozenset(decks))


async def may_fetch(cookie: str | None, slug: str, owner: str, room_data: RoomData) -> bool:
    """May the browser whose ``dixit_seats`` cookie this is see a picture of the deck ``slug``
    that ``owner`` uploaded? Its uploader, or a seat or spectator of a room that deals from it.
    Stops at the first seat that lets it (the browser writes the newest seat first)."""
    for code, token in seats_in((cookie or "").replace(".", ",")):
        hashed = token_hash(token)
        if hashed == owner or slug in await _decks_of(code, hashed, room_data):
            return True
    return False


async def _decks_of(code: str, hashed: str, room_data: RoomData) -> tuple[str, ...]:
    """The decks room ``code`` deals from, if the token ``hashed`` sits or watches there."""
    data = await room_data(code)
    if data is None:
        return ()
    if data.admits(hashed):
        return tuple(str(slug) for slug in data.settings.get("decks") or ())
    return ()


def may_choose(decks: Iterable[DeckSummary], slugs: Iterable[str], token: str | None) -> bool:
    """May the holder of ``token`` (a hash; None: nobody yet) deal from these decks? A shared
    deck, or one they uploaded."""
    owners = {d.slug: d.owner for d in decks}
    return all(owners.get(slug) in (None, token) for slug in slugs)
