"""Open tables: the public rooms of this process that wait for players (GET /api/tables).

A host marks a room public in its settings (``public: true``; private is the default). A room
is listed while it is public, in the lobby, has a free seat and someone seated there is online;
a private room is never listed. The listing gives what a stranger needs to choose a table (name,
edition, language, seats) and the code to join it by (POST /api/rooms/{code}/join).

Rooms are listed from this process's memory: with several server processes each lists the rooms
its own players are connected to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from fastapi import FastAPI

from dixit.protocol import messages as m

from .hub import Hub
from .room import Room

MAX_LISTED = 100


def listed(room: Room) -> bool:
    """Is this room an open table now?"""
    if not room.settings.public or room.data.status != "lobby" or room.closed:
        return False
    if len(room.data.seats) >= room.seat_limit():
        return False
    online = {c.seat for c in room.conns.values() if c.seat is not None and not c.closed}
    return any(s.id in online and s.token_hash is not None for s in room.data.seats)


def table(room: Room) -> m.PublicTable:
    host = room.data.seat(room.data.host) if room.data.host else None
    name = (room.settings.table_name or "").strip() or (host.name if host else room.code)
    taken = len(room.data.seats)
    return m.PublicTable(
        code=room.code,
        name=name,
        edition=room.settings.edition,
        language=room.settings.language,
        seats_taken=taken,
        seats_free=room.seat_limit() - taken,
    )


def open_tables(rooms: Iterable[Room]) -> m.PublicTableList:
    """The open tables, fullest first (they start soonest), then by code."""
    tables = [table(room) for room in rooms if listed(room)]
    tables.sort(key=lambda t: (t.seats_free, t.code))
    return m.PublicTableList(tables=tables[:MAX_LISTED])


def add_table_routes(app: FastAPI, hub: Callable[[], Hub]) -> None:
    @app.get("/api/tables", response_model=m.PublicTableList, tags=["rooms"])
    async def public_tables() -> m.PublicTableList:
        """Public rooms waiting for players: name, edition, language, free seats, code."""
        return open_tables(list(hub().rooms.values()))
