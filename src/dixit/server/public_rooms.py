"""Open tables: the public rooms of this process that wait for players (GET /api/tables).

A host marks a room public in its settings (``public: true``; private is the default). A room
is listed while it is public, in the lobby, has a free seat and someone seated there is online;
a private room is never listed. The listing gives what a stranger needs to choose a table (name,
edition, language, seats) and the code to join it by (POST /api/rooms/{code}/join).

Rooms are listed from this process's memory: with several server processes each lists the rooms
its own players are connected to.

A table whose name does not pass the word filter is not listed, nor one that visitors reported
(POST /api/tables/{code}/report; :mod:`.moderation`): reports are kept in the store, so a
table reported through any process leaves every process's list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from fastapi import FastAPI, Request

from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code

from .errors import ServerError
from .http_errors import ERRORS
from .hub import Hub
from .limits import client_address
from .moderation import Reports, offensive
from .records import RoomRecordData, RoomStatus
from .room import Room
from .rules import rules_from_settings
from .tokens import normalise_code

MAX_LISTED = 100


def open_table(room: Room) -> m.PublicTable | None:
    """The room as an open table, or None while it is not one."""
    settings = room.settings
    if not settings.public or room.data.status != RoomStatus.LOBBY or room.closed:
        return None
    state = room.room_state()
    taken = len(state.seats)
    free = rules_from_settings(settings).max_players - taken
    if free <= 0 or not any(s.connected and not s.is_bot for s in state.seats):
        return None
    host = next((s for s in state.seats if s.is_host), None)
    name = table_name(settings, host.name if host else None, state.code)
    if offensive(name):
        return None
    return m.PublicTable(
        code=state.code,
        name=name,
        edition=settings.edition,
        language=settings.language,
        seats_taken=taken,
        seats_free=free,
    )


def table_name(settings: m.RoomSettings, host: str | None, code: str) -> str:
    """What the list calls a table: the host's name for it, else the host's own name."""
    return (settings.table_name or "").strip() or host or code


def stored_table(data: RoomRecordData) -> str | None:
    """The name of a stored room listed (or about to be) by the process that holds it; None
    when it is no open table (private, started, or a name the filter keeps off the list)."""
    settings = data.settings
    if not settings.public or data.status != RoomStatus.LOBBY:
        return None
    host = data.seat(data.host)
    name = table_name(settings, host.name if host else None, data.code)
    return None if offensive(name) else name


def open_tables(
    rooms: Iterable[Room], hidden: Callable[[str], bool] = lambda code: False
) -> m.PublicTableList:
    """The open tables, fullest first (they start soonest), then by code."""
    listed = (open_table(room) for room in rooms if not hidden(room.code))
    tables = [t for t in listed if t is not None]
    tables.sort(key=lambda t: (t.seats_free, t.code))
    return m.PublicTableList(tables=tables[:MAX_LISTED])


def add_table_routes(app: FastAPI, hub: Callable[[], Hub]) -> None:
    reports = Reports(
        lambda code, reporter: hub().services.store.report_table(code, reporter),
        lambda reporters: hub().services.store.reported_tables(reporters),
    )

    @app.get("/api/tables", response_model=m.PublicTableList, tags=["rooms"])
    async def public_tables() -> m.PublicTableList:
        """Public rooms waiting for players: name, edition, language, free seats, code."""
        hidden = await reports.hidden()
        return open_tables(list(hub().rooms.values()), hidden.__contains__)

    @app.post("/api/tables/{code}/report", responses=ERRORS, tags=["rooms"])
    async def report_table(code: str, request: Request) -> dict[str, bool]:
        """A visitor reports an open table (its name, its chat): after a few reports from
        different clients it leaves the public list; each report is logged for the operator."""
        code = normalise_code(code)
        room = hub().rooms.get(code)
        if room is not None:
            table = open_table(room)
            name = table.name if table is not None else None
        else:  # listed by another process: the report may reach this one
            stored = await hub().services.store.load_room(code)
            name = stored_table(RoomRecordData.from_json(stored)) if stored else None
        if name is None:
            raise ServerError(Code.ROOM_NOT_FOUND, "no open table with this code", 404)
        peer = request.client.host if request.client else None
        trust = hub().services.config.rate_limits.trust_proxy
        client = client_address(peer, request.headers.getlist("x-forwarded-for"), trust)
        await reports.report(code, client, name)
        return {"reported": True}
