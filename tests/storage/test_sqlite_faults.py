"""SQLite under faults: a lock held by another writer never blocks the event loop and ends in
a coded error only after ``lock_wait_s``; a full disk is ``store/disk_full``, not a rollback
message; the store keeps working once the fault is gone."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit.storage import RoomRecord, SQLiteEventStore, StoreBusy, StoreFull, VersionConflict


def _outside_writer(path: Path) -> sqlite3.Connection:
    """Another process's connection holding the write lock (as an operator's shell would)."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("BEGIN IMMEDIATE")
    return db


def test_a_held_lock_queues_writes_off_the_event_loop(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path)
        await store.open()
        await store.append("A:1", 0, [{"n": 1}])
        outside = _outside_writer(path)
        first = asyncio.create_task(store.append("A:1", 1, [{"n": 2}]))
        second = asyncio.create_task(store.put_room(RoomRecord("A", {"s": 1}), 0))
        await asyncio.sleep(0.05)
        # Had a write waited inline for the lock, the loop would have stood still until it
        # gave up or got the lock, and the tasks would be finished by now.
        assert not first.done() and not second.done()
        assert store.waiting == 2
        assert [e.version for e in await store.read("A:1")] == [1]  # reads still answer
        outside.execute("COMMIT")
        outside.close()
        assert await first == 2
        await second
        assert store.waiting == 0
        assert await store.load_room("A") == {"s": 1}
        assert await store.append("A:1", 2, [{"n": 3}]) == 3  # inline again
        await store.close()

    asyncio.run(main())


def test_a_lock_held_too_long_is_store_busy_and_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path, lock_wait_s=0.3)
        await store.open()
        outside = _outside_writer(path)
        with pytest.raises(StoreBusy) as caught:
            await store.append("A:1", 0, [{"n": 1}])
        assert caught.value.code == "store/busy"
        outside.execute("ROLLBACK")
        outside.close()
        assert await store.read("A:1") == []
        assert await store.append("A:1", 0, [{"n": 1}]) == 1
        await store.close()

    asyncio.run(main())


def test_the_queue_behind_a_held_lock_is_bounded(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path)
        store.max_waiting = 2
        await store.open()
        outside = _outside_writer(path)
        queued = [asyncio.create_task(store.append(f"S{i}:1", 0, [{"n": i}])) for i in range(2)]
        await asyncio.sleep(0.05)
        with pytest.raises(StoreBusy):
            await store.append("S9:1", 0, [{"n": 9}])
        outside.execute("COMMIT")
        outside.close()
        assert await asyncio.gather(*queued) == [1, 1]
        assert await store.read("S9:1") == []
        await store.close()

    asyncio.run(main())


def test_a_full_disk_is_a_coded_error_and_writes_resume_after_it(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path)
        await store.open()
        await store.append("A:1", 0, [{"n": 0}])
        await store.close()
        # The database's size limit is SQLite's own "disk full" (SQLITE_FULL).
        limiter = sqlite3.connect(path)
        pages = limiter.execute("PRAGMA page_count").fetchone()[0]
        limiter.close()
        store = SQLiteEventStore(path)
        await store.open()
        assert store._db is not None
        store._db.execute(f"PRAGMA max_page_count={pages}")
        big = [{"blob": "x" * 4000} for _ in range(40)]
        with pytest.raises(StoreFull) as caught:
            await store.append("A:1", 1, big, room=RoomRecord("A", {"s": 1}))
        assert caught.value.code == "store/disk_full"
        assert "full" in caught.value.message and "rollback" not in caught.value.message
        with pytest.raises(StoreFull):
            await store.check()  # not ready while writes fail for good
        assert [e.version for e in await store.read("A:1")] == [1]
        assert await store.load_room("A") is None
        # In one group commit with a small write: the big one fails, and what the small one
        # was told is what the file holds (stored if acknowledged, absent if refused).
        small, full = await asyncio.gather(
            store.append("B:1", 0, [{"n": 1}]),
            store.append("A:1", 1, big),
            return_exceptions=True,
        )
        assert isinstance(full, StoreFull)
        stored = [e.version for e in await store.read("B:1")]
        assert (small, stored) == (1, [1]) or (isinstance(small, StoreFull) and stored == [])
        assert [e.version for e in await store.read("A:1")] == [1]
        store._db.execute("PRAGMA max_page_count=1073741823")
        assert await store.append("A:1", 1, big) == 41
        await store.check()
        await store.close()

    asyncio.run(main())


@contextlib.contextmanager
def _another_servers_turn(path: Path) -> Iterator[None]:
    """Another server process holding the writers' turn on ``path`` (its ``-writers`` lock)."""
    other = os.open(str(path) + "-writers", os.O_RDWR)
    fcntl.flock(other, fcntl.LOCK_EX)
    try:
        yield
    finally:
        fcntl.flock(other, fcntl.LOCK_UN)
        os.close(other)


def test_servers_sharing_a_file_take_turns_to_write(tmp_path: Path) -> None:
    """Server processes on one file queue on its writers' lock (``<file>-writers``) rather
    than polling SQLite's: a write waits (off the event loop) while another server holds the
    turn, and goes through the moment it is given back."""
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path, lock_wait_s=5.0)
        await store.open()
        await store.append("A:1", 0, [{"n": 1}])
        with _another_servers_turn(path):
            write = asyncio.create_task(store.append("A:1", 1, [{"n": 2}]))
            await asyncio.sleep(0.3)  # it looks for its turn on the loop meanwhile
            assert not write.done() and store.waiting == 1
            # SQLite's own lock is free all along: the write waits for its turn, nothing else.
            probe = sqlite3.connect(path, isolation_level=None)
            probe.execute("BEGIN IMMEDIATE")
            probe.execute("ROLLBACK")
            probe.close()
        assert await asyncio.wait_for(write, 5) == 2
        assert [e.version for e in await store.read("A:1")] == [1, 2]
        await store.close()

    asyncio.run(main())


def test_a_turn_held_too_long_ends_in_store_busy(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path, lock_wait_s=0.3)
        await store.open()
        with _another_servers_turn(path), pytest.raises(StoreBusy):
            await store.append("A:1", 0, [{"n": 1}])
        assert await store.append("A:1", 0, [{"n": 1}]) == 1  # and works again at once
        await store.close()

    asyncio.run(main())


def test_writes_of_one_loop_turn_share_one_commit_and_a_refused_one_undoes_only_itself(
    tmp_path: Path,
) -> None:
    """Group commit: appends made together are one transaction; a version conflict among them
    fails alone, and the others are stored and acknowledged."""
    path = tmp_path / "db.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path)
        await store.open()
        await store.append("A:1", 0, [{"n": 1}])
        statements: list[str] = []
        assert store._db is not None
        store._db.set_trace_callback(statements.append)
        results = await asyncio.gather(
            store.append("A:1", 1, [{"n": 2}]),
            store.append("A:1", 1, [{"n": "late"}]),  # the same version again: refused
            *(store.append(f"B{i}:1", 0, [{"n": i}, {"n": i + 1}]) for i in range(5)),
            store.put_room(RoomRecord("A", {"s": 1}), 0),
            return_exceptions=True,
        )
        store._db.set_trace_callback(None)
        assert results[0] == 2 and isinstance(results[1], VersionConflict)
        assert results[2:] == [2, 2, 2, 2, 2, 1]
        assert statements.count("BEGIN IMMEDIATE") == 1 and statements.count("COMMIT") == 1
        assert [e.data for e in await store.read("A:1")] == [{"n": 1}, {"n": 2}]
        for i in range(5):
            assert [e.version for e in await store.read(f"B{i}:1")] == [1, 2]
        assert await store.load_room("A") == {"s": 1}
        assert store.waiting == 0
        await store.close()

    asyncio.run(main())


def test_the_wal_starts_over_under_steady_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A checkpoint that never stops the writers never catches up with them, and SQLite
    restarts the WAL only after one has: without the checkpoint's turn the WAL grows by every
    page written (about 6 MB a second at 1,000 games)."""
    from dixit.storage import sqlite

    monkeypatch.setattr(sqlite, "RESTART_FRAMES", 50)
    path = tmp_path / "db.sqlite3"
    wal = Path(f"{path}-wal")
    payload = {"text": "x" * 2000}

    async def main() -> int:
        store = SQLiteEventStore(path)
        store.checkpoint_every_s = 0.01
        await store.open()
        largest = 0
        for version in range(3000):
            await store.append(f"A{version % 40}:1", version // 40, [payload])
            largest = max(largest, wal.stat().st_size)
        await store.close()
        return largest

    largest = asyncio.run(main())
    # A WAL that never starts over keeps every page written (27 MB after 1,500 of these
    # commits, checkpointed without the turn). Starting over past RESTART_FRAMES: 5-6 MB.
    assert largest < (20 << 20), f"the WAL grew to {largest >> 20} MB"


def test_closing_waits_for_a_checkpoint_in_progress(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint runs on its own thread; closing the store while it runs must leave its
    connection (and the writers' turn) alone until it is done: closing a connection another
    thread is using crashed the process (a segfault in CI)."""
    checkpoint = SQLiteEventStore._checkpoint
    began = threading.Event()
    finished: list[int] = []

    def slow_checkpoint(store: SQLiteEventStore, db: sqlite3.Connection) -> None:
        began.set()
        time.sleep(0.2)  # the store is asked to close meanwhile
        checkpoint(store, db)  # raises on a closed connection (or crashes)
        finished.append(db.execute("SELECT count(*) FROM events").fetchone()[0])

    monkeypatch.setattr(SQLiteEventStore, "_checkpoint", slow_checkpoint)

    async def main() -> None:
        store = SQLiteEventStore(tmp_path / "db.sqlite3")
        store.checkpoint_every_s = 0.01
        await store.open()
        await store.append("A1:1", 0, [{"n": 1}])
        while not began.is_set():
            await asyncio.sleep(0.005)
        await store.close()

    asyncio.run(main())
    assert finished == [1]


def test_a_batch_waits_for_more_writes_only_under_load(tmp_path: Path) -> None:
    """Past GROUP_FROM_RATE writes a second a batch's first write waits for about GROUP_TARGET
    writes' worth of time (MAX_COMMIT_DELAY_S at most); below it, none."""
    from dixit.storage import sqlite

    store = SQLiteEventStore(tmp_path / "db.sqlite3")
    assert store._commit_delay(0.1) == 0.0  # no rate yet: the window is not over
    store._arrived = 100  # 200 a second: written at the end of the loop's turn
    assert store._commit_delay(0.5) == 0.0
    store._arrived = 1000  # 2,000 a second: about GROUP_TARGET writes' time
    assert store._commit_delay(1.0) == pytest.approx(sqlite.GROUP_TARGET / 2000)
    assert store._commit_delay(1.2) == pytest.approx(sqlite.GROUP_TARGET / 2000)  # kept
    store._arrived = 400  # 800 a second: capped
    assert store._commit_delay(1.5) == sqlite.MAX_COMMIT_DELAY_S
    store._arrived = 10  # quiet again: no wait
    assert store._commit_delay(2.0) == 0.0
