"""The default event store: one SQLite file, WAL journal; the event loop never waits for a lock.

``synchronous=NORMAL`` with WAL keeps every committed transaction through a process crash
(SIGKILL): the commit is in the OS before ``append`` returns; only a power cut may lose the
last ones. Such a commit is a few ``write()`` calls with no fsync, so it runs inline: handing
each append to a worker thread cost more (every hand-off waits for the GIL, up to 5 ms, and
capped the server near 200 appends a second under load).

Writes are group commits: those made during one turn of the event loop are written together at
its end, one transaction with a savepoint each (a refused one undoes only itself), and each
waiter is answered once the commit is done. Under load that is one lock, one WAL append and one
commit for many game actions; two ``--workers`` on one file otherwise spent their time handing
the lock to each other. Past :data:`GROUP_FROM_RATE` writes a second, a batch also waits a
moment for more (:meth:`SQLiteEventStore._commit_delay`, PostgreSQL's ``commit_delay``): a
transaction costs about three times as much CPU after other work has filled the processor's
caches as in a tight loop, so at 1,000 games a commit alone cost 72 µs a write, four together
52 µs each.

Inline work never waits for the database lock (``busy_timeout=0``): when another writer (a
second process, an operator's ``sqlite3`` shell, a backup) holds it, the statement fails at
once and the batch moves to one writer thread with its own connection, which waits for the
lock; while it is there every new write queues behind it, in order. The queue is bounded
(:attr:`SQLiteEventStore.max_waiting` writes, each waiting at most ``lock_wait_s``): past that
a write fails with :class:`StoreBusy` instead of piling up. A full disk is :class:`StoreFull`.

Checkpoints (copying the WAL into the database file, with fsyncs) are the slow part; they run
every second from a third connection on a second thread, in PASSIVE mode, which never blocks
the writer. Under steady writes such a checkpoint never catches up with the last frame, and
SQLite starts the WAL over only once one has: it grew by about 6 MB a second at 1,000 games
(337 MB after a minute). So once the WAL holds :data:`RESTART_FRAMES`, the checkpoint copies
the last few frames holding the writers' turn (a few ms, once a second at most); the next
write then starts the WAL from its beginning.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import orjson

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
    VersionConflict,
    VersionedRoom,
    event_rows,
    room_stream,
)

log = logging.getLogger("dixit.storage")

T = TypeVar("T")
Work = Callable[[sqlite3.Connection], T]

SQLITE_BUSY, SQLITE_LOCKED, SQLITE_FULL = 5, 6, 13

# Each connection's page cache, at most (SQLite's default: 2,000 KiB). The file's pages stay in
# the OS cache anyway; a miss here costs one read from there. 3,000 finished games: 97.4 % of
# the main connection's page reads hit at 512 KiB, 98.4 % at 2,000 KiB (docs/benchmarks.md).
CACHE_KIB = 512

# Events are appended at the end of the table (its rowid order), with a small index on
# (stream, version) that refuses a version written twice. Keyed on (stream, version) itself,
# the table kept each game's events together, so the appends of 1,000 games in play each
# landed on a different page, read from the file and written back whole: at 1,000 games the
# event loop made 5.1 page reads and 4.3 page writes a move, now 0.1 and 3.0. Reading a whole
# stream (loading a room) costs more: 170 against 70-90 µs for 60 events (docs/benchmarks.md).
EVENTS = """
CREATE TABLE IF NOT EXISTS {name} (
    stream TEXT NOT NULL,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    command_id TEXT,
    actor TEXT
)"""
EVENTS_INDEX = "CREATE UNIQUE INDEX IF NOT EXISTS events_stream ON events (stream, version)"
SCHEMA = f"""
{EVENTS.format(name="events")};
{EVENTS_INDEX};
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    data TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    version INTEGER NOT NULL DEFAULT 1
);
CREATE TABLE IF NOT EXISTS commands (
    room TEXT NOT NULL,
    actor TEXT NOT NULL,
    command_id TEXT NOT NULL,
    applied REAL NOT NULL,
    PRIMARY KEY (room, actor, command_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    epoch INTEGER NOT NULL,
    expires REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS reports (
    room TEXT NOT NULL,
    reporter TEXT NOT NULL,
    reported REAL NOT NULL,
    PRIMARY KEY (room, reporter)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated);
"""
# Databases from before room versions: every existing record counts as version 1.
ADD_ROOM_VERSION = "ALTER TABLE rooms ADD COLUMN version INTEGER NOT NULL DEFAULT 1"


TURN_POLL_S = 0.0005  # how often a write on the event loop looks for the writers' turn
# Group commits under load: a batch's first write waits for GROUP_TARGET writes' worth of time
# at the rate of the last RATE_WINDOW_S, MAX_COMMIT_DELAY_S at most, and only when at least two
# writes would come within that (GROUP_FROM_RATE); below it, none (changes reach players a turn
# of the loop after they are written).
GROUP_TARGET = 4
MAX_COMMIT_DELAY_S = 0.004
GROUP_FROM_RATE = 2 / MAX_COMMIT_DELAY_S  # 500 writes a second
RATE_WINDOW_S = 0.5
# WAL frames (pages) past which a checkpoint finishes holding the writers' turn, so that the
# WAL starts over (SQLite's own automatic checkpoint threshold). The WAL file keeps its size
# when it starts over; JOURNAL_LIMIT_BYTES trims one grown while a reader pinned it.
RESTART_FRAMES = 1000
TURN_TRIES = 20  # times the checkpoint asks for the writers' turn (up to 2 ms each)
JOURNAL_LIMIT_BYTES = 64 << 20


class _Busy(Exception):
    """Inline work met the lock: run it on the writer lane instead."""


class SQLiteEventStore:
    # Writes queued (behind a held lock, or for the next group commit) before new ones fail
    # with StoreBusy. Not smaller: 12,000 sockets saying hello at once on two workers queued
    # over 512 writes within 12 ms while the other worker had its turn.
    max_waiting = 4096
    checkpoint_every_s = 1.0

    def __init__(self, path: str | Path, lock_wait_s: float = 10.0) -> None:
        self.path = str(path)
        self._turns: int | None = None  # the writers' lock file (see :meth:`_take_turn`)
        self._turn = threading.Lock()
        self.lock_wait_s = lock_wait_s
        self._db: sqlite3.Connection | None = None
        self._lane_db: sqlite3.Connection | None = None
        self._lane = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dixit-sqlite")
        # Writes wait here for the end of the event loop's turn and are then written together,
        # one transaction (see :meth:`_flush`).
        self._queue: list[tuple[Work[Any], asyncio.Future[Any]]] = []
        self._queued_since = 0.0  # when the oldest write queued came (loop time)
        self._arrived = 0  # writes since _counted_since (loop time): the rate of writes
        self._counted_since = 0.0
        self._delay = 0.0  # how long a batch waits for more writes (see _commit_delay)
        self._flushing: asyncio.Handle | None = None
        self._on_lane = 0  # writes of the batch on the lane thread (0: none there)
        self._checkpoints = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dixit-ckpt")
        self._checkpointer: asyncio.Task[None] | None = None
        self._writes = 0
        self._failing: StorageError | None = None
        # The loop that opened the store (asking for it per write costs a getpid() on 3.11).
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def waiting(self) -> int:
        """Writes not yet written: queued behind a lock held elsewhere, or on the lane (0
        between two turns of the event loop in normal running)."""
        return len(self._queue) + self._on_lane

    def _connect(self, busy_timeout_ms: int) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        db.execute(f"PRAGMA busy_timeout={busy_timeout_ms}")
        db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        return db

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        loop = self._loop = asyncio.get_running_loop()
        try:
            # Opening may wait for a lock (WAL recovery, another process creating the schema).
            db = await loop.run_in_executor(self._lane, self._connect, 5000)
            await loop.run_in_executor(self._lane, _prepare, db)
        except sqlite3.Error as error:
            raise _coded(error) from None
        if self.path == ":memory:":
            self._lane_db = db  # one private database: the lane must share the connection
        else:
            self._turns = os.open(self.path + "-writers", os.O_RDWR | os.O_CREAT, 0o644)
            db.execute("PRAGMA wal_autocheckpoint=0")
            db.execute(f"PRAGMA journal_size_limit={JOURNAL_LIMIT_BYTES}")
            self._lane_db = await loop.run_in_executor(
                self._lane, self._connect, max(1, int(self.lock_wait_s * 1000))
            )
        db.execute("PRAGMA busy_timeout=0")
        self._db = db
        if self.path != ":memory:":
            self._checkpointer = loop.create_task(self._checkpoint_loop())

    async def _checkpoint_loop(self) -> None:
        loop = asyncio.get_running_loop()
        db = None
        try:
            while True:
                await asyncio.sleep(self.checkpoint_every_s)
                if db is None:
                    # Opening reads the file (its page cache is set), which another connection
                    # may hold a moment: try again next time rather than stop checkpointing.
                    # (A PASSIVE checkpoint never waits on the busy timeout.)
                    with contextlib.suppress(sqlite3.Error):
                        db = await loop.run_in_executor(self._checkpoints, self._connect, 1000)
                    if db is None:
                        continue
                if self._writes:
                    self._writes = 0
                    with contextlib.suppress(sqlite3.Error):  # a full disk: retried next second
                        await loop.run_in_executor(self._checkpoints, self._checkpoint, db)
        finally:
            if db is not None:
                # On the checkpoint thread, after a checkpoint a cancel left running there:
                # closing a connection while another thread uses it crashes the process.
                self._checkpoints.submit(db.close)

    def _checkpoint(self, db: sqlite3.Connection) -> None:
        """Copy the WAL into the database file without stopping writes; when the WAL has
        grown to :data:`RESTART_FRAMES`, copy what came meanwhile holding the writers' turn:
        the next write then begins with every frame copied, which is when SQLite starts the
        WAL over. (A write begun before the copy ended would only add to the WAL.)"""
        _busy, frames, _copied = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if frames < RESTART_FRAMES:
            return
        for _ in range(TURN_TRIES):
            if self._take_turn(wait=True):
                break
        else:
            return  # the writers kept it: next time
        try:
            db.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            self._end_turn()

    async def close(self) -> None:
        while self._queue or self._on_lane:  # writes accepted before: written first
            await asyncio.sleep(TURN_POLL_S)
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
            self._checkpointer = None
        # Before the writers' turn file and the connections go: a checkpoint may hold the turn.
        await asyncio.get_running_loop().run_in_executor(None, self._checkpoints.shutdown)

        def close() -> None:
            lane, self._lane_db = self._lane_db, None
            if lane is not None and lane is not self._db:
                lane.close()
            if self._db is not None:
                if self.path != ":memory:":
                    with contextlib.suppress(sqlite3.Error):
                        self._db.execute("PRAGMA busy_timeout=2000")
                        self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._lane, close)
        self._lane.shutdown(wait=True)
        if self._turns is not None:
            os.close(self._turns)
            self._turns = None

    async def _run(self, work: Work[T], *, read: bool = False) -> T:
        if read:
            return await self._read(work)
        try:
            result = await self._write(work)
        except StoreBusy:
            raise
        except StorageError as error:
            self._failing = error  # the disk is full, the file is unwritable…
            raise
        self._failing = None
        return result

    async def _read(self, work: Work[T]) -> T:
        """Inline (WAL readers need no lock); only a rare busy read (WAL recovery) moves to
        the lane."""
        if self._db is None:
            raise RuntimeError("the store is not open")
        try:
            return _attempt(self._db, work)
        except _Busy:
            pass
        lane = functools.partial(self._read_on_lane, work)
        return await asyncio.get_running_loop().run_in_executor(self._lane, lane)

    def _read_on_lane(self, work: Work[T]) -> T:
        db = self._lane_db
        if db is None:
            raise RuntimeError("the store is not open")
        deadline = time.monotonic() + self.lock_wait_s
        while True:
            try:
                return _attempt(db, work)
            except _Busy:
                if time.monotonic() >= deadline:
                    raise StoreBusy(
                        f"the database lock was held elsewhere for over {self.lock_wait_s:g} s"
                    ) from None

    async def _write(self, work: Work[T]) -> T:
        """Queue ``work`` (a transaction's body) for this turn of the event loop's batch."""
        loop = self._loop
        if self._db is None or loop is None:
            raise RuntimeError("the store is not open")
        if self.waiting >= self.max_waiting:
            raise StoreBusy(f"{self.waiting} writes already wait for the database lock")
        future: asyncio.Future[T] = loop.create_future()
        if not self._queue:
            self._queued_since = loop.time()
        self._queue.append((work, future))
        self._arrived += 1
        if self._flushing is None and not self._on_lane:
            delay = self._commit_delay(loop.time())
            if delay:
                self._flushing = loop.call_later(delay, self._flush)
            else:
                self._flushing = loop.call_soon(self._flush)
        return await future

    def _commit_delay(self, now: float) -> float:
        """How long a new batch waits for more writes: long enough for about
        :data:`GROUP_TARGET` of them at the rate of the last :data:`RATE_WINDOW_S`, none below
        :data:`GROUP_FROM_RATE` a second."""
        elapsed = now - self._counted_since
        if elapsed >= RATE_WINDOW_S:
            rate = self._arrived / elapsed
            self._arrived, self._counted_since = 0, now
            grouped = rate >= GROUP_FROM_RATE
            self._delay = min(MAX_COMMIT_DELAY_S, GROUP_TARGET / rate) if grouped else 0.0
        return self._delay

    def _flush(self) -> None:
        """Write every queued write in one transaction, inline, when this process can write
        now: one commit (one WAL append, one turn, one set of locks) for all the game actions
        that arrived in one turn of the loop, and each in a savepoint of its own, so that one
        refused write (a version conflict) undoes only itself.

        The writers' turn (:meth:`_take_turn`) is waited for here up to a millisecond (the
        loop stops that long at most: another server's turn lasts one transaction, usually
        less), then polled every :data:`TURN_POLL_S`, up to ``lock_wait_s``. Polling alone
        (uvloop's timers tick in whole milliseconds) let the worker that had just written take
        the turn again first: at 3,000 games on two workers 35 % of the appends were done
        within 1 ms and 66 % within 5 ms, against 55 % and 79 % waiting first. Waiting for it
        on the lane thread instead made a convoy: a thread holding the turn must also get the
        GIL, which the event loop hands over only every 5 ms, and writes queued behind it
        until they were refused. Only a batch that meets SQLite's lock held by another
        program (a shell, a backup) goes to the lane; writes queue behind it meanwhile (in
        order) and are written as the next batch."""
        self._flushing = None
        loop = self._loop
        if not self._queue or self._on_lane or self._db is None or loop is None:
            return
        if self._take_turn(wait=True):
            batch, self._queue = self._queue, []
            try:
                outcomes = _write_all(self._db, [work for work, _ in batch])
            except _Busy:  # another program holds SQLite's lock: wait on the lane
                self._queue = batch + self._queue
            except BaseException as error:  # the whole transaction failed (a full disk)
                _settle(batch, [_Failed(error)] * len(batch))
                return
            else:
                _settle(batch, outcomes)
                return
            finally:
                self._end_turn()
        elif loop.time() - self._queued_since < self.lock_wait_s:
            self._flushing = loop.call_later(TURN_POLL_S, self._flush)
            return
        else:  # another server kept its turn all this time: refuse what waited
            batch, self._queue = self._queue, []
            busy = StoreBusy(f"other servers kept the database for over {self.lock_wait_s:g} s")
            _settle(batch, [_Failed(busy)] * len(batch))
            return
        self._to_lane(loop)

    def _to_lane(self, loop: asyncio.AbstractEventLoop) -> None:
        batch, self._queue = self._queue, []
        self._on_lane = len(batch)
        works = [work for work, _ in batch]
        done = loop.run_in_executor(self._lane, self._write_on_lane, works)
        done.add_done_callback(functools.partial(self._lane_done, batch))

    def _lane_done(self, batch: list[tuple[Work[Any], asyncio.Future[Any]]], done: Any) -> None:
        self._on_lane = 0
        error = None if done.cancelled() else done.exception()
        if done.cancelled() or error is not None:
            failure = _Failed(error or StoreBusy("the store closed before the write"))
            _settle(batch, [failure] * len(batch))
        else:
            _settle(batch, done.result())
        loop = self._loop
        if self._queue and self._flushing is None and loop is not None:
            self._queued_since = loop.time()  # what came meanwhile: inline if it can
            self._flushing = loop.call_soon(self._flush)

    def _write_on_lane(self, works: list[Work[Any]]) -> list[Any]:
        db = self._lane_db
        if db is None:
            raise RuntimeError("the store is not open")
        deadline = time.monotonic() + self.lock_wait_s
        while not self._take_turn(wait=True):
            if time.monotonic() >= deadline:
                raise StoreBusy(f"other servers kept the database for over {self.lock_wait_s:g} s")
        try:
            while True:
                try:
                    return _write_all(db, works)
                except _Busy:
                    if time.monotonic() >= deadline:
                        raise StoreBusy(
                            f"the database lock was held elsewhere for over {self.lock_wait_s:g} s"
                        ) from None
        finally:
            self._end_turn()

    def _take_turn(self, wait: bool) -> bool:
        """Take this database's writers' lock (an OS lock on ``<file>-writers``), that the
        server processes sharing the file hold while they write, so that they queue for
        SQLite's lock instead of polling for it: SQLite's own wait sleeps 1, 2, 5, 10 … ms
        between tries, and two ``--workers`` writing a thousand times a second then fell
        behind and answered ``store/busy``. ``wait``: up to a millisecond (then try again).
        Writers that do not take it (another program) are still waited for by SQLite."""
        # This process's writers (the event loop's inline writes, the lane) take turns on a
        # thread lock first: the OS lock is the process's, whichever thread took it.
        taken = self._turn.acquire(timeout=0.001) if wait else self._turn.acquire(blocking=False)
        if not taken:
            return False
        if self._turns is None:
            return True
        try:
            fcntl.flock(self._turns, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            pass
        for pause in (0.0001, 0.0002, 0.0003, 0.0004) if wait else ():
            time.sleep(pause)
            try:
                fcntl.flock(self._turns, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                continue
        self._turn.release()
        return False

    def _end_turn(self) -> None:
        if self._turns is not None:
            fcntl.flock(self._turns, fcntl.LOCK_UN)
        self._turn.release()

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
        rows = event_rows(stream, expected_version, events, command_id, actor, _dumps)
        room_row = None
        if room is not None:
            room_row = (room.code, _dumps(room.data), time.time())

        def write(db: sqlite3.Connection) -> int:
            (current,) = db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM events WHERE stream = ?", (stream,)
            ).fetchone()
            if current != expected_version:
                raise VersionConflict(stream, expected_version, current)
            if room_row is not None and room_version is not None:
                _check_room(db, room_row[0], room_version)
            if len(rows) == 1:
                db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows[0])
            else:
                db.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?)", rows)
            if room_row is not None:
                _upsert_room(db, *room_row)
            self._writes += 1
            return expected_version + len(rows)

        return await self._run(write)

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        def read(db: sqlite3.Connection) -> list[StoredEvent]:
            cursor = db.execute(
                "SELECT version, data, command_id, actor FROM events "
                "WHERE stream = ? AND version > ? ORDER BY version",
                (stream, after),
            )
            return [StoredEvent(v, json.loads(d), c, a) for v, d, c, a in cursor]

        return await self._run(read, read=True)

    async def load_room(self, code: str) -> JSONDict | None:
        def read(db: sqlite3.Connection) -> JSONDict | None:
            row = db.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
            return None if row is None else dict(json.loads(row[0]))

        return await self._run(read, read=True)

    async def get_room(self, code: str) -> VersionedRoom | None:
        def read(db: sqlite3.Connection) -> VersionedRoom | None:
            row = db.execute("SELECT data, version FROM rooms WHERE code = ?", (code,)).fetchone()
            return None if row is None else VersionedRoom(dict(json.loads(row[0])), row[1])

        return await self._run(read, read=True)

    async def put_room(
        self, room: RoomRecord, expected_version: int, *, command: CommandKey | None = None
    ) -> int:
        text = _dumps(room.data)

        def write(db: sqlite3.Connection) -> int:
            now = time.time()
            if command is not None:
                added = db.execute(
                    "INSERT INTO commands VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (room.code, command.actor, command.command_id, now),
                ).rowcount
                if not added:
                    raise DuplicateCommand(room.code, command.actor, command.command_id)
            _check_room(db, room.code, expected_version)
            _upsert_room(db, room.code, text, now)
            self._writes += 1
            return expected_version + 1

        return await self._run(write)

    async def command_applied(self, room: str, command: CommandKey) -> bool:
        def read(db: sqlite3.Connection) -> bool:
            row = db.execute(
                "SELECT 1 FROM commands WHERE room = ? AND actor = ? AND command_id = ?",
                (room, command.actor, command.command_id),
            ).fetchone()
            return row is not None

        return await self._run(read, read=True)

    async def acquire_lease(
        self, name: str, holder: str, ttl_s: float, *, over: str | None = None
    ) -> Lease | None:
        started = time.monotonic()

        def write(db: sqlite3.Connection) -> Lease | None:
            now = time.time()
            row = db.execute(
                "SELECT holder, epoch, expires FROM leases WHERE name = ?", (name,)
            ).fetchone()
            if row is not None and row[0] not in (holder, over) and row[2] > now:
                return None
            epoch = 1 if row is None else row[1] + (row[0] != holder or row[2] <= now)
            db.execute(
                "INSERT INTO leases VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET "
                "holder = excluded.holder, epoch = excluded.epoch, expires = excluded.expires",
                (name, holder, epoch, now + ttl_s),
            )
            return Lease(name, holder, epoch, ttl_s, started + ttl_s)

        return await self._run(write)

    async def renew_leases(
        self, names: Sequence[str], holder: str, ttl_s: float
    ) -> dict[str, Lease]:
        if not names:
            return {}
        started = time.monotonic()
        wanted = json.dumps(list(names))

        def write(db: sqlite3.Connection) -> dict[str, Lease]:
            now = time.time()
            # One statement for every lease this process holds.
            cursor = db.execute(
                "UPDATE leases SET expires = ? WHERE holder = ? AND expires > ? "
                "AND name IN (SELECT value FROM json_each(?)) RETURNING name, epoch",
                (now + ttl_s, holder, now, wanted),
            )
            rows = cursor.fetchall()
            return {
                name: Lease(name, holder, epoch, ttl_s, started + ttl_s) for name, epoch in rows
            }

        return await self._run(write)

    async def release_lease(self, name: str, holder: str) -> None:
        def write(db: sqlite3.Connection) -> None:
            # Kept, expired, so that the next holder's epoch is higher.
            db.execute(
                "UPDATE leases SET expires = 0 WHERE name = ? AND holder = ?", (name, holder)
            )

        await self._run(write)

    async def lease(self, name: str) -> Lease | None:
        started = time.monotonic()

        def read(db: sqlite3.Connection) -> Lease | None:
            now = time.time()
            row = db.execute(
                "SELECT holder, epoch, expires FROM leases WHERE name = ? AND expires > ?",
                (name, now),
            ).fetchone()
            if row is None:
                return None
            return Lease(name, row[0], row[1], row[2] - now, started + row[2] - now)

        return await self._run(read, read=True)

    async def room_codes(self) -> list[str]:
        def read(db: sqlite3.Connection) -> list[str]:
            cursor = db.execute("SELECT code FROM rooms ORDER BY created, code")
            return [code for (code,) in cursor]

        return await self._run(read, read=True)

    async def stale_rooms(
        self, status: str, updated_before: float, limit: int, *, first_game: bool = False
    ) -> list[StaleRoom]:
        def read(db: sqlite3.Connection) -> list[StaleRoom]:
            cursor = db.execute(
                "SELECT code, data, version, updated FROM rooms WHERE updated < ? "
                "AND json_extract(data, '$.status') = ? "
                "AND (? = 0 OR json_extract(data, '$.game_number') = 1) "
                "ORDER BY updated LIMIT ?",
                (updated_before, status, int(first_game), limit),
            )
            return [StaleRoom(c, dict(json.loads(d)), v, u) for c, d, v, u in cursor]

        return await self._run(read, read=True)

    async def delete_room(self, code: str, expected_version: int, streams: Sequence[str]) -> bool:
        def write(db: sqlite3.Connection) -> bool:
            row = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None or row[0] != expected_version:
                return False
            db.execute("DELETE FROM rooms WHERE code = ?", (code,))
            db.executemany("DELETE FROM events WHERE stream = ?", [(s,) for s in streams])
            db.execute("DELETE FROM commands WHERE room = ?", (code,))
            db.execute("DELETE FROM leases WHERE name = ?", (room_stream(code),))
            db.execute("DELETE FROM reports WHERE room = ?", (code,))
            self._writes += 1
            return True

        return await self._run(write)

    async def report_table(self, code: str, reporter: str) -> int:
        def write(db: sqlite3.Connection) -> int:
            db.execute(
                "INSERT INTO reports VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (code, reporter, time.time()),
            )
            row = db.execute("SELECT COUNT(*) FROM reports WHERE room = ?", (code,)).fetchone()
            return int(row[0])

        return await self._run(write)

    async def reported_tables(self, reporters: int) -> list[str]:
        def read(db: sqlite3.Connection) -> list[str]:
            cursor = db.execute(
                "SELECT room FROM reports GROUP BY room HAVING COUNT(*) >= ? ORDER BY room",
                (reporters,),
            )
            return [code for (code,) in cursor]

        return await self._run(read, read=True)

    async def stats(self) -> StoreStats:
        def read(db: sqlite3.Connection) -> StoreStats:
            rooms = dict(
                db.execute(
                    "SELECT json_extract(data, '$.status'), count(*) FROM rooms GROUP BY 1"
                ).fetchall()
            )
            (events,) = db.execute("SELECT count(*) FROM events").fetchone()
            (pages,) = db.execute("PRAGMA page_count").fetchone()
            (free,) = db.execute("PRAGMA freelist_count").fetchone()
            (size,) = db.execute("PRAGMA page_size").fetchone()
            return StoreStats(
                {str(k): int(v) for k, v in rooms.items()}, int(events), pages * size,
                (pages - free) * size,
            )  # fmt: skip

        return await self._run(read, read=True)

    async def vacuum(self) -> None:
        """Give the free pages back to the file system (``VACUUM``: it holds the write lock
        while it copies the database, seconds for a large file)."""
        if self.path == ":memory:":
            return

        def vacuum() -> None:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=self.lock_wait_s)
            try:
                db.execute("VACUUM")
            finally:
                db.close()

        try:
            await asyncio.to_thread(vacuum)
        except sqlite3.Error as error:
            raise _coded(error) from None

    async def check(self) -> None:
        """Raise a :class:`StorageError` unless the database answers a read and the last write
        did not fail for good (a full disk: not ready until a write succeeds again)."""
        if self._failing is not None:
            raise self._failing
        await self._run(lambda db: db.execute("SELECT 1").fetchone(), read=True)


def _prepare(db: sqlite3.Connection) -> None:
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")
    if _events_keyed_by_stream(db):
        _append_events_at_the_end(db)
    db.executescript(SCHEMA)
    columns = {row[1] for row in db.execute("PRAGMA table_info(rooms)")}
    if "version" not in columns:
        db.execute(ADD_ROOM_VERSION)


def _events_keyed_by_stream(db: sqlite3.Connection) -> bool:
    """A database from before events were appended at the table's end (see :data:`EVENTS`)."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'")
    sql = row.fetchone()
    return sql is not None and "WITHOUT ROWID" in sql[0].upper()


def _append_events_at_the_end(db: sqlite3.Connection) -> None:
    """Move an older database's events into the table of :data:`EVENTS`, once, in one
    transaction (another server opening the file at the same time finds it done)."""
    started = time.monotonic()
    db.execute("BEGIN IMMEDIATE")
    try:
        if not _events_keyed_by_stream(db):
            db.execute("ROLLBACK")
            return
        db.execute(EVENTS.format(name="events_appended"))
        moved = db.execute(
            "INSERT INTO events_appended SELECT stream, version, data, command_id, actor "
            "FROM events ORDER BY stream, version"
        ).rowcount
        db.execute("DROP TABLE events")
        db.execute("ALTER TABLE events_appended RENAME TO events")
        db.execute(EVENTS_INDEX)  # in the same transaction: never a moment without it
        db.execute("COMMIT")
    except BaseException:
        _rollback(db)
        raise
    log.info(
        "event store: %d events moved to the appended layout in %.1f s (once)",
        moved,
        time.monotonic() - started,
    )


def _attempt(db: sqlite3.Connection, work: Work[T]) -> T:
    """Run ``work``; a held lock becomes :class:`_Busy`, other SQLite failures coded errors."""
    try:
        return work(db)
    except sqlite3.OperationalError as error:
        if _primary(error) in (SQLITE_BUSY, SQLITE_LOCKED):
            raise _Busy from None
        raise _coded(error) from None
    except sqlite3.DatabaseError as error:
        raise _coded(error) from None


class _Failed:
    """A write's outcome that is an exception (results are never exceptions, but this says it
    plainly)."""

    __slots__ = ("error",)

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _write_all(db: sqlite3.Connection, works: Sequence[Work[Any]]) -> list[Any]:
    """Run ``works`` (transaction bodies) in one BEGIN IMMEDIATE … COMMIT, each in a savepoint
    when there are several; their outcomes in order (:class:`_Failed` for a refused one).

    Raises :class:`_Busy` when SQLite's lock is held elsewhere (nothing written), and a coded
    error when the transaction as a whole failed: on a full disk SQLite undoes all of it, so
    every write of the batch fails (none was acknowledged; a second ROLLBACK would only hide
    the cause)."""
    _execute(db, "BEGIN IMMEDIATE")
    alone = len(works) == 1
    outcomes: list[Any] = []
    try:
        for work in works:
            if not alone:
                db.execute("SAVEPOINT w")
            try:
                outcomes.append(work(db))
            except Exception as error:
                if isinstance(error, sqlite3.Error):
                    if _primary(error) in (SQLITE_BUSY, SQLITE_LOCKED):
                        raise _Busy from None
                    if not db.in_transaction:
                        raise _coded(error) from None
                    error = _coded(error)
                if alone:
                    _rollback(db)
                    return [_Failed(error)]
                db.execute("ROLLBACK TO w")
                db.execute("RELEASE w")
                outcomes.append(_Failed(error))
            else:
                if not alone:
                    db.execute("RELEASE w")
        _execute(db, "COMMIT")
    except BaseException:
        _rollback(db)
        raise
    return outcomes


def _execute(db: sqlite3.Connection, statement: str) -> None:
    _attempt(db, lambda db: db.execute(statement))


def _settle(batch: Sequence[tuple[Work[Any], asyncio.Future[Any]]], outcomes: list[Any]) -> None:
    for (_, future), outcome in zip(batch, outcomes, strict=True):
        if future.done():  # its waiter was cancelled: the write stands all the same
            continue
        if isinstance(outcome, _Failed):
            future.set_exception(outcome.error)
        else:
            future.set_result(outcome)


def _rollback(db: sqlite3.Connection) -> None:
    if db.in_transaction:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")


def _primary(error: sqlite3.Error) -> int:
    return int(getattr(error, "sqlite_errorcode", -1)) & 0xFF


def _coded(error: sqlite3.Error) -> StorageError:
    code = _primary(error)
    if code == SQLITE_FULL:
        return StoreFull(f"SQLite: {error}")
    if code in (SQLITE_BUSY, SQLITE_LOCKED):
        return StoreBusy(f"SQLite: {error}")
    return StorageError(f"SQLite: {error}")


def _dumps(value: Any) -> str:
    """Compact JSON text; orjson when it can (several times faster), else the standard library
    (a lone surrogate, an integer beyond 64 bits). Both read back the same."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return json.dumps(value, separators=(",", ":"))


def _upsert_room(db: sqlite3.Connection, code: str, text: str, now: float) -> None:
    db.execute(
        "INSERT INTO rooms (code, data, created, updated, version) VALUES (?, ?, ?, ?, 1) "
        "ON CONFLICT (code) DO UPDATE SET data = excluded.data, updated = excluded.updated, "
        "version = rooms.version + 1",
        (code, text, now, now),
    )


def _check_room(db: sqlite3.Connection, code: str, expected: int) -> None:
    row = db.execute("SELECT version FROM rooms WHERE code = ?", (code,)).fetchone()
    current = 0 if row is None else row[0]
    if current != expected:
        raise VersionConflict(room_stream(code), expected, current)
