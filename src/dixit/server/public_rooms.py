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
from .rules import rules_from_settings

MAX_LISTED = 100


def open_table(room: Room) -> m.PublicTable | None:
    """The room as an open table, or None while it is not one."""
    settings = room.settings
    if not settings.public or room.data.status != "lobby" or room.closed:
        return None
    state = room.room_state()
    taken = len(state.seats)
    free = rules_from_settings(settings).max_players - taken
    if free <= 0 or not any(s.connected and not s.is_bot for s in state.seats):
        return None
    host = next((s for s in state.seats if s.is_host), None)
    return m.PublicTable(
        code=state.code,
        name=(settings.table_name or "").strip() or (host.name if host else state.code),
        edition=settings.edition,
        language=settings.language,
        seats_taken=taken,
        seats_free=free,
    )


def open_tables(rooms: Iterable[Room]) -> m.PublicTableList:
    """The open tables, fullest first (they start soonest), then by code."""
    tables = [t for t in (open_table(room) for room in rooms) if t is not None]
    tables.sort(key=lambda t: (t.seats_free, t.code))
    return m.PublicTableList(tables=tables[:MAX_LISTED])


def add_table_routes(app: FastAPI, hub: Callable[[], Hub]) -> None:
    @app.get("/api/tables", response_model=m.PublicTableList, tags=["rooms"])
    async def public_tables() -> m.PublicTableList:
        """Public rooms waiting for players: name, edition, language, free seats, code."""
        return open_tables(list(hub().rooms.values()))
