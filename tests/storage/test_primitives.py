"""What one driver per room needs from every store (memory, SQLite, PostgreSQL): room records
written with an expected version, durable command de-duplication, and leases that move when
their holder stops renewing. Two store objects on one database stand for two processes."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from dixit.storage import (
    CommandKey,
    DuplicateCommand,
    EventStore,
    RoomRecord,
    SQLiteEventStore,
    VersionConflict,
    open_store,
)
from dixit.storage.postgres import PostgresEventStore

from .test_event_store import PG_URL, _postgres_reachable


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "memory":
        return "memory://"
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    reason = _postgres_reachable()
    if reason:
        pytest.skip(reason)
    return PG_URL


async def _pair(url: str) -> tuple[EventStore, EventStore]:
    """Two handles on one database (one, twice, for memory: it cannot be shared)."""
    first = open_store(url)
    await first.open()
    if url.startswith("memory:"):
        return first, first
    second = open_store(url)
    await second.open()
    return first, second


async def _close(*stores: EventStore) -> None:
    for store in dict.fromkeys(stores):
        await store.close()


def _code() -> str:
    return f"R{uuid.uuid4().hex[:10]}"


def test_room_records_are_compare_and_set(store_url: str) -> None:
    async def main() -> None:
        a, b = await _pair(store_url)
        code = _code()
        assert await a.get_room(code) is None
        assert await a.put_room(RoomRecord(code, {"name": "x"}), 0) == 1
        with pytest.raises(VersionConflict) as caught:
            await b.put_room(RoomRecord(code, {"name": "again"}), 0)  # created meanwhile
        assert (caught.value.stream, caught.value.actual) == (f"room:{code}", 1)
        assert await b.put_room(RoomRecord(code, {"name": "y"}), 1) == 2
        with pytest.raises(VersionConflict):
            await a.put_room(RoomRecord(code, {"name": "lost update"}), 1)
        found = await a.get_room(code)
        assert found is not None and (found.data, found.version) == ({"name": "y"}, 2)
        # An append that carries the record moves its version too, so a stale writer still loses.
        await b.append(f"{code}:1", 0, [{"e": 1}], room=RoomRecord(code, {"name": "w"}))
        with pytest.raises(VersionConflict):
            await a.put_room(RoomRecord(code, {"name": "stale"}), 2)
        found = await a.get_room(code)
        assert found is not None and (found.data, found.version) == ({"name": "w"}, 3)
        assert await a.load_room(code) == {"name": "w"}
        await _close(a, b)

    asyncio.run(main())


def test_an_append_can_require_the_room_version(store_url: str) -> None:
    async def main() -> None:
        a, b = await _pair(store_url)
        code = _code()
        await a.put_room(RoomRecord(code, {"phase": "voting"}), 0)
        await b.put_room(RoomRecord(code, {"phase": "voting", "name": "renamed"}), 1)
        with pytest.raises(VersionConflict):
            await a.append(
                f"{code}:1", 0, [{"e": 1}], room=RoomRecord(code, {"phase": "x"}), room_version=1
            )
        assert await a.read(f"{code}:1") == []  # neither the events nor the record
        assert await a.load_room(code) == {"phase": "voting", "name": "renamed"}
        assert (
            await a.append(
                f"{code}:1", 0, [{"e": 1}], room=RoomRecord(code, {"phase": "x"}), room_version=2
            )
            == 1
        )
        found = await b.get_room(code)
        assert found is not None and found.version == 3
        await _close(a, b)

    asyncio.run(main())


def test_concurrent_room_writers_exactly_one_wins(store_url: str) -> None:
    async def main() -> None:
        a, b = await _pair(store_url)
        code = _code()
        await a.put_room(RoomRecord(code, {"n": 0}), 0)
        writers = [(a if i % 2 else b).put_room(RoomRecord(code, {"n": i}), 1) for i in range(6)]
        results = await asyncio.gather(*writers, return_exceptions=True)
        assert results.count(2) == 1
        assert all(isinstance(r, VersionConflict) for r in results if r != 2)
        found = await a.get_room(code)
        assert found is not None and found.version == 2
        assert found.data == {"n": results.index(2)}
        await _close(a, b)

    asyncio.run(main())


def test_a_command_is_applied_once_durably(store_url: str) -> None:
    async def main() -> None:
        a, b = await _pair(store_url)
        code = _code()
        add_bot = CommandKey("p1", "c7")
        assert not await a.command_applied(code, add_bot)
        await a.put_room(RoomRecord(code, {"bots": 0}), 0)
        assert await a.put_room(RoomRecord(code, {"bots": 1}), 1, command=add_bot) == 2
        assert await b.command_applied(code, add_bot)
        with pytest.raises(DuplicateCommand) as caught:  # resent after a restart
            await b.put_room(RoomRecord(code, {"bots": 2}), 2, command=add_bot)
        assert caught.value.code == "command/duplicate"
        assert await b.load_room(code) == {"bots": 1}
        assert not await b.command_applied(code, CommandKey("p2", "c7"))  # per seat
        assert not await b.command_applied(_code(), add_bot)  # per room
        # A command whose write lost a race is not recorded: it may be retried.
        with pytest.raises(VersionConflict):
            await b.put_room(RoomRecord(code, {"bots": 9}), 1, command=CommandKey("p1", "c8"))
        assert not await a.command_applied(code, CommandKey("p1", "c8"))
        await _close(a, b)

    asyncio.run(main())


def test_a_lease_has_one_holder_and_moves_when_it_expires(store_url: str) -> None:
    async def main() -> None:
        a, b = await _pair(store_url)
        name = f"room:{_code()}"
        before = time.monotonic()
        first = await a.acquire_lease(name, "proc-a", 30)
        assert first is not None and first.holder == "proc-a"
        assert before + 30 <= first.valid_until <= time.monotonic() + 30
        assert await b.acquire_lease(name, "proc-b", 30) is None
        renewed = (await a.renew_leases([name], "proc-a", 30))[name]
        assert renewed.epoch == first.epoch
        again = await a.acquire_lease(name, "proc-a", 30)  # re-acquiring is renewing
        assert again is not None and again.epoch == first.epoch
        held = await b.lease(name)
        assert held is not None and held.holder == "proc-a" and 0 < held.ttl_s <= 30
        assert await b.renew_leases([name], "proc-b", 30) == {}
        await b.release_lease(name, "proc-b")  # not the holder: no effect
        assert (await a.lease(name)) is not None

        await a.release_lease(name, "proc-a")
        assert await b.lease(name) is None
        moved = await b.acquire_lease(name, "proc-b", 0.3)
        assert moved is not None and moved.epoch == first.epoch + 1
        await asyncio.sleep(0.5)  # proc-b "dies": it stops renewing
        assert await b.lease(name) is None
        assert await b.renew_leases([name], "proc-b", 30) == {}  # too late: stop driving
        back = await a.acquire_lease(name, "proc-a", 30)
        assert back is not None and back.epoch == moved.epoch + 1
        await _close(a, b)

    asyncio.run(main())


def test_a_dead_holders_lease_is_taken_over_only_when_named(store_url: str) -> None:
    """``over``: the holder a process knows to be dead; its unexpired lease is taken at once
    (a new epoch), a live holder's never."""

    async def main() -> None:
        a, b = await _pair(store_url)
        name = f"room:{_code()}"
        first = await a.acquire_lease(name, "proc-a", 30)
        assert first is not None
        assert await b.acquire_lease(name, "proc-b", 30, over="proc-c") is None
        taken = await b.acquire_lease(name, "proc-b", 30, over="proc-a")
        assert taken is not None and taken.epoch == first.epoch + 1
        held = await a.lease(name)
        assert held is not None and held.holder == "proc-b"
        assert await a.renew_leases([name], "proc-a", 30) == {}
        await _close(a, b)

    asyncio.run(main())


def test_one_write_renews_many_leases_and_leaves_out_those_lost(store_url: str) -> None:
    """What a process's lease keeper relies on: ``renew_leases`` extends every lease the holder
    still has in one transaction and answers without the ones that expired or moved."""

    async def main() -> None:
        a, b = await _pair(store_url)
        names = [f"room:{_code()}" for _ in range(200)]
        epochs = {}
        for name in names:
            held = await a.acquire_lease(name, "proc-a", 30)
            assert held is not None
            epochs[name] = held.epoch
        taken, lapsed, kept = names[0], names[1], names[2:]
        await a.release_lease(taken, "proc-a")
        assert await b.acquire_lease(taken, "proc-b", 30) is not None  # moved to another
        assert await a.acquire_lease(lapsed, "proc-a", 0.2) is not None
        await asyncio.sleep(0.4)  # proc-a stopped renewing it in time
        never = f"room:{_code()}"

        with _one_write(store_url, a) as writes:
            renewed = await a.renew_leases([*names, never], "proc-a", 60)
        assert sorted(renewed) == sorted(kept)
        assert all(renewed[n].holder == "proc-a" for n in kept)
        assert all(renewed[n].epoch == epochs[n] for n in kept)
        assert await writes(kept) == 1
        for name in kept[:5]:  # extended in the store, as another process sees it
            held = await b.lease(name)
            assert held is not None and held.holder == "proc-a" and held.ttl_s > 30
        moved = await b.lease(taken)
        assert moved is not None and moved.holder == "proc-b"
        assert await b.lease(lapsed) is None and await b.lease(never) is None
        assert await a.renew_leases([], "proc-a", 60) == {}
        await _close(a, b)

    asyncio.run(main())


@contextlib.contextmanager
def _one_write(url: str, store: EventStore) -> Iterator[Callable[[list[str]], Awaitable[int]]]:
    """Counts the transactions that wrote the given leases during the block: on SQLite the
    COMMITs the store sent to its connection (and no other statement than the one update), on
    PostgreSQL the distinct transaction ids (``xmin``) on the rows; memory: 1."""
    statements: list[str] = []
    if isinstance(store, SQLiteEventStore):
        db = store._db
        assert db is not None
        db.set_trace_callback(statements.append)

    async def count(names: list[str]) -> int:
        if isinstance(store, SQLiteEventStore):
            writes = [s for s in statements if s not in ("BEGIN IMMEDIATE", "COMMIT")]
            assert all(s.startswith("UPDATE leases") for s in writes), statements
            return statements.count("COMMIT")
        if isinstance(store, PostgresEventStore):
            async with await psycopg.AsyncConnection.connect(url) as conn:
                cursor = await conn.execute(
                    "SELECT count(DISTINCT xmin::text) FROM dixit_leases WHERE name = ANY(%s)",
                    (names,),
                )
                row = await cursor.fetchone()
                assert row is not None
                return int(row[0])
        return 1

    try:
        yield count
    finally:
        if isinstance(store, SQLiteEventStore) and store._db is not None:
            store._db.set_trace_callback(None)


def test_concurrent_lease_takers_exactly_one_wins(store_url: str) -> None:
    async def main() -> None:
        a, b = await _pair(store_url)
        name = f"room:{_code()}"
        takers = [(a if i % 2 else b).acquire_lease(name, f"proc-{i}", 30) for i in range(6)]
        won = [lease for lease in await asyncio.gather(*takers) if lease is not None]
        assert len(won) == 1
        held = await a.lease(name)
        assert held is not None and held.holder == won[0].holder
        await _close(a, b)

    asyncio.run(main())


def test_sqlite_databases_from_before_room_versions_open(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE rooms (code TEXT PRIMARY KEY, data TEXT NOT NULL, created REAL NOT NULL,"
        " updated REAL NOT NULL);"
        "INSERT INTO rooms VALUES ('OLD', '{\"s\": 1}', 0, 0);"
    )
    old.close()

    async def main() -> None:
        store = open_store(f"sqlite:///{path}")
        await store.open()
        found = await store.get_room("OLD")
        assert found is not None and (found.data, found.version) == ({"s": 1}, 1)
        assert await store.put_room(RoomRecord("OLD", {"s": 2}), 1) == 2
        await store.close()

    asyncio.run(main())
