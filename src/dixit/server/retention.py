"""Bounded storage: rooms that never started, abandoned games and (if the operator asks)
finished games are deleted after a while, and uploaded decks no stored room deals from.

A sweep reads the store in small batches and deletes each stale room in its own short
transaction, only if its record is still the version the sweep read (a room someone used
meanwhile stays) and only if this process does not hold it in memory; play never waits for it.
The server sweeps every ``Retention.every_s`` (one process of ``--workers``); ``dixit store
reclaim`` runs the same sweep by hand.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from dixit.storage import EventStore
from dixit.storage.retention import Retention

from .cards import CardSource
from .records import RoomRecordData

log = logging.getLogger("dixit.server")

BATCH = 200  # rooms read (and deleted) per store call


@dataclass
class Swept:
    """What a sweep deleted."""

    rooms: dict[str, int] = field(default_factory=dict)  # by kind
    decks: list[str] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(self.rooms.values())


def _streams(data: dict[str, object]) -> list[str]:
    """The event streams of every game the room played."""
    record = RoomRecordData.from_json(dict(data))
    games = range(1, record.game_number + 1)
    return [dataclasses.replace(record, game_number=n).stream for n in games]


async def sweep(
    store: EventStore,
    retention: Retention,
    in_use: Callable[[str], bool] = lambda code: False,
    cards: CardSource | None = None,
    now: float | None = None,
) -> Swept:
    """Delete what the retention rules no longer keep (see the module)."""
    now = time.time() if now is None else now
    swept = Swept()
    for kind, status, first_game, keep_s in retention.rules():
        skipped: set[str] = set()
        while True:
            want = BATCH + len(skipped)
            stale = await store.stale_rooms(status, now - keep_s, want, first_game=first_game)
            fresh = [room for room in stale if room.code not in skipped]
            for room in fresh:
                if in_use(room.code) or not await store.delete_room(
                    room.code, room.version, _streams(room.data)
                ):
                    skipped.add(room.code)
                    continue
                swept.rooms[kind] = swept.rooms.get(kind, 0) + 1
            if len(stale) < want or not fresh:
                break
            await asyncio.sleep(0)  # others' turn between batches
    if cards is not None and retention.uploads_s is not None:
        swept.decks = await _unused_uploads(store, cards, now - retention.uploads_s)
    return swept


async def _unused_uploads(store: EventStore, cards: CardSource, before: float) -> list[str]:
    """Delete the uploaded decks changed before ``before`` that no stored room deals from."""
    old = [d for d in cards.decks() if d.owner is not None and d.modified < before]
    if not old:
        return []
    used: set[str] = set()
    for code in await store.room_codes():
        data = await store.load_room(code)
        settings = (data or {}).get("settings") or {}
        used.update(str(slug) for slug in settings.get("decks") or ())
    gone = [d.slug for d in old if d.slug not in used]
    for slug in gone:
        await asyncio.to_thread(cards.remove, slug)
    return gone


async def sweep_forever(
    store: EventStore,
    retention: Retention,
    in_use: Callable[[str], bool],
    cards: CardSource,
) -> None:
    """The server's sweeper: one sweep every ``retention.every_s``; a failure is logged and
    tried again at the next turn."""
    while True:
        await asyncio.sleep(retention.every_s)
        try:
            swept = await sweep(store, retention, in_use, cards)
        except Exception:
            log.exception("retention sweep failed; trying again in %.0f s", retention.every_s)
            continue
        if swept.total or swept.decks:
            log.info(
                "retention: deleted %s rooms (%s) and %d unused uploaded decks",
                swept.total,
                ", ".join(f"{k} {n}" for k, n in sorted(swept.rooms.items())),
                len(swept.decks),
            )
