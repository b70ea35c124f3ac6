"""The PostgreSQL event store, for several server processes sharing one database.

Same contract as SQLite: the primary key (stream, version) plus a version check inside one
transaction make a second writer fail with :class:`VersionConflict` instead of forking a game.
A small fixed set of connections is shared by all rooms.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import psycopg
from psycopg.types.json import Jsonb

from .base import JSONDict, RoomRecord, StoredEvent, VersionConflict, event_rows

SCHEMA = """
CREATE TABLE IF NOT EXISTS dixit_events (
    stream TEXT NOT NULL,
    version INTEGER NOT NULL,
    data JSONB NOT NULL,
    command_id TEXT,
    actor TEXT,
    PRIMARY KEY (stream, version)
);
CREATE TABLE IF NOT EXISTS dixit_rooms (
    code TEXT PRIMARY KEY,
    data JSONB NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated TIMESTAMPTZ NOT NULL DEFAULT now()
);
"""

UPSERT_ROOM = (
    "INSERT INTO dixit_rooms (code, data) VALUES (%s, %s) "
    "ON CONFLICT (code) DO UPDATE SET data = excluded.data, updated = now()"
)


class PostgresEventStore:
    def __init__(self, url: str, connections: int = 4) -> None:
        self.url = url
        self.size = connections
        self._idle: asyncio.Queue[psycopg.AsyncConnection] = asyncio.Queue()
        self._all: list[psycopg.AsyncConnection] = []

    async def open(self) -> None:
        for _ in range(self.size):
            conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self._all.append(conn)
            self._idle.put_nowait(conn)
        # Several processes may start at once: serialize the CREATE TABLEs.
        async with self._connection() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(7313)")
            await conn.execute(SCHEMA)

    async def close(self) -> None:
        for conn in self._all:
            await conn.close()
        self._all.clear()

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[psycopg.AsyncConnection]:
        conn = await self._idle.get()
        try:
            yield conn
        finally:
            self._idle.put_nowait(conn)

    async def append(
        self,
        stream: str,
        expected_version: int,
        events: Sequence[JSONDict],
        *,
        command_id: str | None = None,
        actor: str | None = None,
        room: RoomRecord | None = None,
    ) -> int:
        rows = event_rows(stream, expected_version, events, command_id, actor, Jsonb)
        async with self._connection() as conn:
            try:
                async with conn.transaction():
                    cursor = await conn.execute(
                        "SELECT COALESCE(MAX(version), 0) FROM dixit_events WHERE stream = %s",
                        (stream,),
                    )
                    row = await cursor.fetchone()
                    current = int(row[0]) if row else 0
                    if current != expected_version:
                        raise VersionConflict(stream, expected_version, current)
                    async with conn.cursor() as cur:
                        await cur.executemany(
                            "INSERT INTO dixit_events VALUES (%s, %s, %s, %s, %s)", rows
                        )
                    if room is not None:
                        await conn.execute(UPSERT_ROOM, (room.code, Jsonb(room.data)))
            except psycopg.errors.UniqueViolation:
                raise VersionConflict(stream, expected_version) from None
        return expected_version + len(rows)

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        async with self._connection() as conn:
            cursor = await conn.execute(
                "SELECT version, data, command_id, actor FROM dixit_events "
                "WHERE stream = %s AND version > %s ORDER BY version",
                (stream, after),
            )
            rows = await cursor.fetchall()
        return [StoredEvent(int(v), _obj(d), c, a) for v, d, c, a in rows]

    async def save_room(self, room: RoomRecord) -> None:
        async with self._connection() as conn:
            await conn.execute(UPSERT_ROOM, (room.code, Jsonb(room.data)))

    async def load_room(self, code: str) -> JSONDict | None:
        async with self._connection() as conn:
            cursor = await conn.execute("SELECT data FROM dixit_rooms WHERE code = %s", (code,))
            row = await cursor.fetchone()
        return None if row is None else _obj(row[0])

    async def room_codes(self) -> list[str]:
        async with self._connection() as conn:
            cursor = await conn.execute("SELECT code FROM dixit_rooms ORDER BY created, code")
            rows = await cursor.fetchall()
        return [str(code) for (code,) in rows]


def _obj(value: object) -> JSONDict:
    if isinstance(value, str):
        value = json.loads(value)
    assert isinstance(value, dict)
    return dict(value)
