"""The default event store: one SQLite file, WAL journal, written from the event loop's thread.

``synchronous=NORMAL`` with WAL keeps every committed transaction through a process crash
(SIGKILL): the commit is in the OS before ``append`` returns; only a power cut may lose the
last ones. Such a commit is a few ``write()`` calls with no fsync, so it runs inline: handing
each append to a worker thread cost more (every hand-off waits for the GIL, up to 5 ms, and
capped the server near 200 appends a second under load).

Checkpoints (copying the WAL into the database file, with fsyncs) are the slow part; they run
every second from a second connection on a second thread, in PASSIVE mode, which never blocks
the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import orjson

from .base import JSONDict, RoomRecord, StoredEvent, VersionConflict, event_rows

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS events (
    stream TEXT NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    command_id TEXT,
    actor TEXT,
    PRIMARY KEY (stream, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
"""


class SQLiteEventStore:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._db: sqlite3.Connection | None = None
        self._checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dixit-ckpt")
        self._checkpointer: asyncio.Task[None] | None = None
        self._writes = 0

    async def _run(self, fn: Callable[[], T]) -> T:
        return fn()

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise RuntimeError("the store is not open")
        return self._db

    async def open(self) -> None:
        def connect() -> None:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA busy_timeout=5000")
            db.executescript(SCHEMA)
            if self.path != ":memory:":
                db.execute("PRAGMA wal_autocheckpoint=0")
            self._db = db

        await self._run(connect)
        if self.path != ":memory:":
            self._checkpointer = asyncio.get_running_loop().create_task(self._checkpoint_loop())

    async def _checkpoint_loop(self, every_s: float = 1.0) -> None:
        loop = asyncio.get_running_loop()
        db = await loop.run_in_executor(
            self._checkpoints,
            lambda: sqlite3.connect(self.path, check_same_thread=False, isolation_level=None),
        )
        try:
            while True:
                await asyncio.sleep(every_s)
                if self._writes:
                    self._writes = 0
                    await loop.run_in_executor(
                        self._checkpoints, db.execute, "PRAGMA wal_checkpoint(PASSIVE)"
                    )
        finally:
            db.close()

    async def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None

        def close() -> None:
            if self._db is not None:
                if self.path != ":memory:":
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._db.close()
                self._db = None

        await self._run(close)
        self._checkpoints.shutdown(wait=True)

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
        rows = event_rows(stream, expected_version, events, command_id, actor, _dumps)
        room_row = None
        if room is not None:
            room_row = (room.code, _dumps(room.data), time.time())

        def write() -> int:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                (current,) = db.execute(
                    "SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?", (stream,)
                ).fetchone()
                if current != expected_version:
                    raise VersionConflict(stream, expected_version, current)
                db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
                if room_row is not None:
                    _upsert_room(db, *room_row)
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            self._writes += 1
            return expected_version + len(rows)

        return await self._run(write)

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        def read() -> list[StoredEvent]:
            cursor = self._conn().execute(
                "SELECT version, data, command_id, actor FROM events "
                "WHERE stream = ? AND version > ? ORDER BY version",
                (stream, after),
            )
            return [StoredEvent(v, json.loads(d), c, a) for v, d, c, a in cursor]

        return await self._run(read)

    async def save_room(self, room: RoomRecord) -> None:
        text = _dumps(room.data)

        def write() -> None:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                _upsert_room(db, room.code, text, time.time())
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

        await self._run(write)

    async def load_room(self, code: str) -> JSONDict | None:
        def read() -> JSONDict | None:
            row = self._conn().execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
            return None if row is None else dict(json.loads(row[0]))

        return await self._run(read)

    async def room_codes(self) -> list[str]:
        def read() -> list[str]:
            cursor = self._conn().execute("SELECT code FROM rooms ORDER BY created, code")
            return [code for (code,) in cursor]

        return await self._run(read)


def _dumps(value: Any) -> str:
    """Compact JSON text; orjson when it can (several times faster), else the standard library
    (a lone surrogate, an integer beyond 64 bits). Both read back the same."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def _upsert_room(db: sqlite3.Connection, code: str, text: str, now: float) -> None:
    db.execute(
        "INSERT INTO rooms (code, data, created, updated) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (code) DO UPDATE SET data = excluded.data, updated = excluded.updated",
        (code, text, now, now),
    )
