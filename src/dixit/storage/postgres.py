"""The PostgreSQL event store, for several server processes sharing one database.

Same contract as SQLite: the primary key (stream, version) plus a version check inside one
transaction make a second writer fail with :class:`VersionConflict` instead of forking a game.

A small pool of connections is shared by all rooms, and it heals: a connection that fails is
dropped and reopened on its next use, and after any failure every pooled connection is checked
(``SELECT 1``) before it is trusted again, since a server restart ends them all at once. While
the server cannot be reached, reconnecting backs off (0.05 s doubling to 1 s) and calls fail
fast with :class:`StoreUnavailable` (``store/unavailable``) instead of hanging. Reads are
retried until ``read_retry_s``; a write is retried only when it failed before its transaction
began (nothing can have been written), otherwise it fails with ``store/unavailable`` and the
caller re-reads the stream to learn what happened.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TypeVar

import psycopg
from psycopg.types.json import Jsonb

from .base import (
    CommandKey,
    DuplicateCommand,
    JSONDict,
    Lease,
    RoomRecord,
    StaleRoom,
    StorageError,
    StoreBusy,
    StoredEvent,
    StoreFull,
    StoreStats,
    StoreUnavailable,
    VersionConflict,
    VersionedRoom,
    event_rows,
    room_stream,
)

T = TypeVar("T")
Conn = psycopg.AsyncConnection
LOST = (psycopg.OperationalError, psycopg.InterfaceError, TimeoutError)

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
ALTER TABLE dixit_rooms ADD COLUMN IF NOT EXISTS version INTEGER NOT NULL DEFAULT 1;
CREATE TABLE IF NOT EXISTS dixit_commands (
    room TEXT NOT NULL,
    actor TEXT NOT NULL,
    command_id TEXT NOT NULL,
    applied TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (room, actor, command_id)
);
CREATE TABLE IF NOT EXISTS dixit_leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS dixit_reports (
    room TEXT NOT NULL,
    reporter TEXT NOT NULL,
    reported TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (room, reporter)
);
CREATE INDEX IF NOT EXISTS dixit_rooms_updated ON dixit_rooms (updated);
"""

UPSERT_ROOM = (
    "INSERT INTO dixit_rooms (code, data) VALUES (%s, %s) "
    "ON CONFLICT (code) DO UPDATE SET data = excluded.data, updated = now(), "
    "version = dixit_rooms.version + 1"
)
ROOM_VERSION = "SELECT version FROM dixit_rooms WHERE code = %s FOR UPDATE"
# A new tenure (another holder, or the same one after expiry) gets the next epoch.
ACQUIRE_LEASE = """
INSERT INTO dixit_leases AS l (name, holder, epoch, expires)
VALUES (%(name)s, %(holder)s, 1, now() + make_interval(secs => %(ttl)s::float8))
ON CONFLICT (name) DO UPDATE SET
    holder = excluded.holder,
    epoch = l.epoch + CASE WHEN l.holder = excluded.holder AND l.expires > now() THEN 0 ELSE 1 END,
    expires = excluded.expires
WHERE l.holder = excluded.holder OR l.expires <= now() OR l.holder = %(over)s
RETURNING epoch
"""


@dataclass(slots=True)
class _Slot:
    conn: Conn | None = None
    epoch: int = 0  # the failure count when this connection was last known good


class PostgresEventStore:
    backoff_s = (0.05, 1.0)  # first and longest wait between reconnection attempts

    def __init__(
        self,
        url: str,
        connections: int = 4,
        *,
        connect_timeout_s: int = 3,
        op_timeout_s: float = 15.0,
        read_retry_s: float = 5.0,
    ) -> None:
        self.url = url
        self.size = connections
        self.connect_timeout_s = connect_timeout_s
        self.op_timeout_s = op_timeout_s
        self.read_retry_s = read_retry_s
        self._idle: asyncio.Queue[_Slot] = asyncio.Queue()
        self._slots: list[_Slot] = []
        self._failures = 0  # connection failures seen; a slot older than this is re-checked
        self._down_since: float | None = None
        self._next_try = 0.0
        self._backoff = self.backoff_s[0]
        self.reconnects = 0

    @property
    def down_since(self) -> float | None:
        """``time.monotonic()`` of the first failure of the current outage, or None."""
        return self._down_since

    async def open(self) -> None:
        """Connect the pool and create the tables; :class:`StoreUnavailable` when the server
        cannot be reached (a clear one-line reason)."""
        for _ in range(self.size):
            slot = _Slot()
            self._slots.append(slot)
            self._idle.put_nowait(slot)

        # Several processes may start at once: serialize the CREATE TABLEs.
        async def create(conn: Conn) -> None:
            await conn.execute("SELECT pg_advisory_xact_lock(7313)")
            await conn.execute(SCHEMA)

        await self._write(create)

    async def close(self) -> None:
        for slot in self._slots:
            if slot.conn is not None:
                await slot.conn.close()
                slot.conn = None
        self._slots.clear()

    async def check(self) -> None:
        """Raise :class:`StoreUnavailable` unless the server answers now."""
        try:
            async with self._connection() as conn:
                await self._timed(conn.execute("SELECT 1"))
        except LOST as error:
            raise self._unavailable(error) from None

    # -- the pool ------------------------------------------------------------------------

    def _lost(self, slot: _Slot, error: BaseException) -> None:
        """A connection failed: drop it, and distrust every other until it is checked."""
        self._failures += 1
        if self._down_since is None:
            self._down_since = time.monotonic()
        conn, slot.conn = slot.conn, None
        if conn is not None and not conn.closed:
            asyncio.get_running_loop().create_task(_quiet_close(conn))

    def _unavailable(self, error: BaseException | None = None) -> StoreUnavailable:
        reason = f": {str(error).strip().splitlines()[0]}" if error and str(error).strip() else ""
        return StoreUnavailable(f"PostgreSQL unreachable{reason}")

    async def _connect(self) -> Conn:
        now = time.monotonic()
        if self._down_since is not None and now < self._next_try:
            raise self._unavailable()
        try:
            conn = await Conn.connect(
                self.url, autocommit=True, connect_timeout=self.connect_timeout_s
            )
        except LOST as error:
            self._failures += 1
            if self._down_since is None:
                self._down_since = now
            self._next_try = time.monotonic() + self._backoff
            self._backoff = min(self._backoff * 2, self.backoff_s[1])
            raise self._unavailable(error) from None
        if self._down_since is not None:
            self.reconnects += 1
        self._down_since = None
        self._backoff = self.backoff_s[0]
        return conn

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Conn]:
        slot = await self._idle.get()
        try:
            if slot.conn is not None and (slot.conn.closed or slot.conn.broken):
                slot.conn = None
            if slot.conn is not None and slot.epoch < self._failures:
                try:  # a failure happened since this connection last worked: check it
                    await asyncio.wait_for(slot.conn.execute("SELECT 1"), self.op_timeout_s)
                except LOST as error:
                    self._lost(slot, error)
            if slot.conn is None:
                slot.conn = await self._connect()
            slot.epoch = self._failures
            conn = slot.conn
            try:
                yield conn
            except LOST as error:
                if isinstance(error, psycopg.OperationalError) and not (conn.broken or conn.closed):
                    # The server answered with an error (a lock wait timed out, its disk is
                    # full): the connection is fine and PostgreSQL is up.
                    raise _server_error(error) from None
                self._lost(slot, error)
                raise
        finally:
            self._idle.put_nowait(slot)

    async def _timed(self, work: Awaitable[T]) -> T:
        return await asyncio.wait_for(work, self.op_timeout_s)

    async def _read(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run an idempotent read, retrying through an outage for up to ``read_retry_s``."""
        deadline = time.monotonic() + self.read_retry_s
        while True:
            try:
                async with self._connection() as conn:
                    return await self._timed(fn(conn))
            except (*LOST, StoreUnavailable) as error:
                wait = max(self._next_try - time.monotonic(), self.backoff_s[0])
                if time.monotonic() + wait > deadline:
                    if isinstance(error, StoreUnavailable):
                        raise
                    raise self._unavailable(error) from None
                await asyncio.sleep(wait)

    async def _write(self, fn: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``fn`` in one transaction; retried once if the connection failed at BEGIN
        (a pooled connection a server restart ended), when nothing can have been written."""
        for attempt in (1, 2):
            began = False
            try:
                async with self._connection() as conn:
                    await self._timed(conn.execute("BEGIN"))
                    began = True
                    try:
                        result = await self._timed(fn(conn))
                        await self._timed(conn.execute("COMMIT"))
                    except BaseException:
                        if not (conn.broken or conn.closed):
                            with contextlib.suppress(*LOST):
                                await self._timed(conn.execute("ROLLBACK"))
                        raise
                    return result
            except LOST as error:
                if began or attempt == 2:
                    note = "; the write's outcome is unknown" if began else ""
                    raise StoreUnavailable(f"{self._unavailable(error).message}{note}") from None
        raise AssertionError("unreachable")

    # -- the contract --------------------------------------------------------------------

    async def append(
        self,
        stream: str,
        expected_version: int,
        events: Sequence[JSONDict],
        *,
        command_id: str | None = None,
        actor: str | None = None,
        room: RoomRecord | None = None,
        room_version: int | None = None,
    ) -> int:
        rows = event_rows(stream, expected_version, events, command_id, actor, Jsonb)

        async def write(conn: Conn) -> int:
            cursor = await conn.execute(
                "SELECT COALESCE(MAX(version), 0) FROM dixit_events WHERE stream = %s",
                (stream,),
            )
            row = await cursor.fetchone()
            current = int(row[0]) if row else 0
            if current != expected_version:
                raise VersionConflict(stream, expected_version, current)
            if room is not None and room_version is not None:
                await _check_room(conn, room.code, room_version)
            async with conn.cursor() as cur:
                await cur.executemany("INSERT INTO dixit_events VALUES (%s, %s, %s, %s, %s)", rows)
            if room is not None:
                await conn.execute(UPSERT_ROOM, (room.code, Jsonb(room.data)))
            return expected_version + len(rows)

        try:
            return await self._write(write)
        except psycopg.errors.UniqueViolation:
            raise VersionConflict(stream, expected_version) from None

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        async def read(conn: Conn) -> list[StoredEvent]:
            cursor = await conn.execute(
                "SELECT version, data, command_id, actor FROM dixit_events "
                "WHERE stream = %s AND version > %s ORDER BY version",
                (stream, after),
            )
            rows = await cursor.fetchall()
            return [StoredEvent(int(v), _obj(d), c, a) for v, d, c, a in rows]

        return await self._read(read)

    async def load_room(self, code: str) -> JSONDict | None:
        async def read(conn: Conn) -> JSONDict | None:
            cursor = await conn.execute("SELECT data FROM dixit_rooms WHERE code = %s", (code,))
            row = await cursor.fetchone()
            return None if row is None else _obj(row[0])

        return await self._read(read)

    async def get_room(self, code: str) -> VersionedRoom | None:
        async def read(conn: Conn) -> VersionedRoom | None:
            cursor = await conn.execute(
                "SELECT data, version FROM dixit_rooms WHERE code = %s", (code,)
            )
            row = await cursor.fetchone()
            return None if row is None else VersionedRoom(_obj(row[0]), int(row[1]))

        return await self._read(read)

    async def put_room(
        self, room: RoomRecord, expected_version: int, *, command: CommandKey | None = None
    ) -> int:
        async def write(conn: Conn) -> int:
            if command is not None:
                cursor = await conn.execute(
                    "INSERT INTO dixit_commands (room, actor, command_id) VALUES (%s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    (room.code, command.actor, command.command_id),
                )
                if cursor.rowcount == 0:
                    raise DuplicateCommand(room.code, command.actor, command.command_id)
            await _check_room(conn, room.code, expected_version)
            await conn.execute(UPSERT_ROOM, (room.code, Jsonb(room.data)))
            return expected_version + 1

        try:
            return await self._write(write)
        except psycopg.errors.UniqueViolation:  # two creators raced past the check
            raise VersionConflict(room_stream(room.code), expected_version) from None

    async def command_applied(self, room: str, command: CommandKey) -> bool:
        async def read(conn: Conn) -> bool:
            cursor = await conn.execute(
                "SELECT 1 FROM dixit_commands WHERE room = %s AND actor = %s AND command_id = %s",
                (room, command.actor, command.command_id),
            )
            return await cursor.fetchone() is not None

        return await self._read(read)

    async def acquire_lease(
        self, name: str, holder: str, ttl_s: float, *, over: str | None = None
    ) -> Lease | None:
        started = time.monotonic()

        async def write(conn: Conn) -> Lease | None:
            cursor = await conn.execute(
                ACQUIRE_LEASE, {"name": name, "holder": holder, "ttl": ttl_s, "over": over}
            )
            row = await cursor.fetchone()
            if row is None:
                return None
            return Lease(name, holder, int(row[0]), ttl_s, started + ttl_s)

        try:
            return await self._write(write)
        except psycopg.errors.UniqueViolation:  # another process created it first
            return None

    async def renew_leases(
        self, names: Sequence[str], holder: str, ttl_s: float
    ) -> dict[str, Lease]:
        if not names:
            return {}
        started = time.monotonic()

        async def write(conn: Conn) -> dict[str, Lease]:
            cursor = await conn.execute(
                "UPDATE dixit_leases SET expires = now() + make_interval(secs => %s::float8) "
                "WHERE name = ANY(%s) AND holder = %s AND expires > now() RETURNING name, epoch",
                (ttl_s, list(names), holder),
            )
            return {
                name: Lease(name, holder, int(epoch), ttl_s, started + ttl_s)
                for name, epoch in await cursor.fetchall()
            }

        return await self._write(write)

    async def release_lease(self, name: str, holder: str) -> None:
        async def write(conn: Conn) -> None:
            # Kept, expired, so that the next holder's epoch is higher.
            await conn.execute(
                "UPDATE dixit_leases SET expires = '-infinity' WHERE name = %s AND holder = %s",
                (name, holder),
            )

        await self._write(write)

    async def lease(self, name: str) -> Lease | None:
        started = time.monotonic()

        async def read(conn: Conn) -> Lease | None:
            cursor = await conn.execute(
                "SELECT holder, epoch, EXTRACT(EPOCH FROM expires - now()) FROM dixit_leases "
                "WHERE name = %s AND expires > now()",
                (name,),
            )
            row = await cursor.fetchone()
            if row is None:
                return None
            left = float(row[2])
            return Lease(name, row[0], int(row[1]), left, started + left)

        return await self._read(read)

    async def room_codes(self) -> list[str]:
        async def read(conn: Conn) -> list[str]:
            cursor = await conn.execute("SELECT code FROM dixit_rooms ORDER BY created, code")
            return [str(code) for (code,) in await cursor.fetchall()]

        return await self._read(read)

    async def stale_rooms(
        self, status: str, updated_before: float, limit: int, *, first_game: bool = False
    ) -> list[StaleRoom]:
        async def read(conn: Conn) -> list[StaleRoom]:
            cursor = await conn.execute(
                "SELECT code, data, version, extract(epoch FROM updated) FROM dixit_rooms "
                "WHERE updated < to_timestamp(%s) AND data->>'status' = %s "
                "AND (NOT %s OR data->>'game_number' = '1') ORDER BY updated LIMIT %s",
                (updated_before, status, first_game, limit),
            )
            rows = await cursor.fetchall()
            return [StaleRoom(str(c), _obj(d), int(v), float(u)) for c, d, v, u in rows]

        return await self._read(read)

    async def delete_room(self, code: str, expected_version: int, streams: Sequence[str]) -> bool:
        async def write(conn: Conn) -> bool:
            cursor = await conn.execute(ROOM_VERSION, (code,))
            row = await cursor.fetchone()
            if row is None or int(row[0]) != expected_version:
                return False
            await conn.execute("DELETE FROM dixit_rooms WHERE code = %s", (code,))
            await conn.execute("DELETE FROM dixit_events WHERE stream = ANY(%s)", (list(streams),))
            await conn.execute("DELETE FROM dixit_commands WHERE room = %s", (code,))
            await conn.execute("DELETE FROM dixit_leases WHERE name = %s", (room_stream(code),))
            await conn.execute("DELETE FROM dixit_reports WHERE room = %s", (code,))
            return True

        return await self._write(write)

    async def report_table(self, code: str, reporter: str) -> int:
        async def write(conn: Conn) -> int:
            await conn.execute(
                "INSERT INTO dixit_reports (room, reporter) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                (code, reporter),
            )
            cursor = await conn.execute(
                "SELECT COUNT(*) FROM dixit_reports WHERE room = %s", (code,)
            )
            row = await cursor.fetchone()
            return int(row[0]) if row else 0

        return await self._write(write)

    async def reported_tables(self, reporters: int) -> list[str]:
        async def read(conn: Conn) -> list[str]:
            cursor = await conn.execute(
                "SELECT room FROM dixit_reports GROUP BY room HAVING COUNT(*) >= %s ORDER BY room",
                (reporters,),
            )
            return [str(code) for (code,) in await cursor.fetchall()]

        return await self._read(read)

    async def stats(self) -> StoreStats:
        async def read(conn: Conn) -> StoreStats:
            cursor = await conn.execute(
                "SELECT data->>'status', count(*) FROM dixit_rooms GROUP BY 1"
            )
            rooms = {str(k): int(v) for k, v in await cursor.fetchall()}
            cursor = await conn.execute("SELECT count(*) FROM dixit_events")
            (events,) = await cursor.fetchone() or (0,)
            cursor = await conn.execute(
                "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE c.relkind = 'r' AND c.relname LIKE 'dixit\\_%%' "
                "AND n.nspname = current_schema()"
            )
            (size,) = await cursor.fetchone() or (0,)
            return StoreStats(rooms, int(events), int(size), int(size))

        return await self._read(read)

    async def vacuum(self) -> None:
        """``VACUUM`` the store's tables: dead rows' space reused, readers and writers go on."""

        async def run(conn: Conn) -> None:
            for table in ("dixit_events", "dixit_rooms", "dixit_commands", "dixit_leases"):
                await conn.execute(f"VACUUM {table}")  # (names: not from input)

        async with self._connection() as conn:
            await run(conn)


def _server_error(error: psycopg.OperationalError) -> StorageError:
    """A coded error for an error PostgreSQL answered with (the connection still works)."""
    state = error.sqlstate or ""
    text = f"PostgreSQL: {str(error).strip().splitlines()[0] if str(error).strip() else state}"
    if state in ("55P03", "57014", "40P01"):  # lock timeout, statement timeout, deadlock
        return StoreBusy(text)
    if state.startswith("53"):  # disk full, out of memory, too many connections
        return StoreFull(text) if state == "53100" else StorageError(text)
    return StorageError(text)


async def _check_room(conn: Conn, code: str, expected: int) -> None:
    cursor = await conn.execute(ROOM_VERSION, (code,))
    row = await cursor.fetchone()
    current = 0 if row is None else int(row[0])
    if current != expected:
        raise VersionConflict(room_stream(code), expected, current)


async def _quiet_close(conn: Conn) -> None:
    try:
        await conn.close()
    except Exception:  # already gone: nothing to release
        return


def _obj(value: object) -> JSONDict:
    if isinstance(value, str):
        value = json.loads(value)
    assert isinstance(value, dict)
    return dict(value)
