"""Every event store keeps the same contract: ordered streams, expected-version appends that
are all-or-nothing, command ids kept with their events, room records upserted atomically."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from dixit.storage import (
    EventStore,
    RoomRecord,
    VersionConflict,
    default_database_url,
    open_store,
)

PG_URL = os.environ.get("DIXIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def _postgres_reachable() -> str | None:
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=2):
            return None
    except Exception as error:  # any failure means: skip, and say why
        return f"PostgreSQL not reachable at {PG_URL}: {error}".splitlines()[0]


def run(coro_fn: Callable[[], object]) -> None:
    asyncio.run(coro_fn())  # type: ignore[arg-type]


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return _url(request.param, tmp_path)


@pytest.fixture(params=["sqlite", "postgres"])
def shared_store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database several servers can share (not a memory store, which is one server's)."""
    return _url(request.param, tmp_path)


def _url(kind: str, tmp_path: Path) -> str:
    if kind == "memory":
        return "memory://"
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'store.sqlite3'}"
    reason = _postgres_reachable()
    if reason:
        pytest.skip(reason)
    return PG_URL


async def _opened(url: str) -> EventStore:
    store = open_store(url)
    await store.open()
    return store


def _stream() -> str:
    return f"T{uuid.uuid4().hex[:10]}:1"


def test_append_and_read_in_order(store_url: str) -> None:
    async def main() -> None:
        store = await _opened(store_url)
        stream = _stream()
        v = await store.append(stream, 0, [{"n": 1}, {"n": 2}], command_id="c1", actor="p1")
        assert v == 2
        v = await store.append(stream, 2, [{"n": 3}], command_id="c2", actor="p2")
        assert v == 3
        events = await store.read(stream)
        assert [e.version for e in events] == [1, 2, 3]
        assert [e.data["n"] for e in events] == [1, 2, 3]
        assert [e.command_id for e in events] == ["c1", None, "c2"]
        assert [e.actor for e in events] == ["p1", None, "p2"]
        assert [e.version for e in await store.read(stream, after=2)] == [3]
        assert await store.read(_stream()) == []
        await store.close()

    run(main)


def test_wrong_expected_version_writes_nothing(store_url: str) -> None:
    async def main() -> None:
        store = await _opened(store_url)
        stream = _stream()
        await store.append(stream, 0, [{"n": 1}])
        room = RoomRecord(stream.split(":")[0], {"status": "changed"})
        for expected in (0, 2, 5):
            with pytest.raises(VersionConflict):
                await store.append(stream, expected, [{"n": 99}], room=room)
        assert [e.data for e in await store.read(stream)] == [{"n": 1}]
        assert await store.load_room(room.code) is None  # the room write rolled back too
        await store.close()

    run(main)


def test_a_writer_behind_another_servers_appends_is_refused(shared_store_url: str) -> None:
    """Two servers on one database: each appends after its own last write; the one whose
    version the other moved past is refused, whole, and learns the version found."""

    async def main() -> None:
        first, second = await _opened(shared_store_url), await _opened(shared_store_url)
        stream = _stream()
        assert await first.append(stream, 0, [{"n": 1}]) == 1
        assert await second.append(stream, 1, [{"n": 2}, {"n": 3}]) == 3
        room = RoomRecord(stream.split(":")[0], {"by": "first"})
        for events in ([{"n": 9}], [{"n": 9}, {"n": 10}]):
            with pytest.raises(VersionConflict) as refused:
                await first.append(stream, 1, events, room=room, room_version=0)
            assert (refused.value.expected, refused.value.actual) == (1, 3)
        assert await first.load_room(room.code) is None  # the room write rolled back too
        assert await first.append(stream, 3, [{"n": 4}]) == 4
        assert await second.append(stream, 4, [{"n": 5}]) == 5
        assert [e.data["n"] for e in await second.read(stream)] == [1, 2, 3, 4, 5]
        await first.close()
        await second.close()

    run(main)


def test_concurrent_writers_exactly_one_wins(store_url: str) -> None:
    async def main() -> None:
        store = await _opened(store_url)
        stream = _stream()
        await store.append(stream, 0, [{"n": 0}])
        results = await asyncio.gather(
            *(store.append(stream, 1, [{"writer": i}]) for i in range(5)), return_exceptions=True
        )
        wins = [r for r in results if r == 2]
        assert len(wins) == 1
        assert all(isinstance(r, VersionConflict) for r in results if r != 2)
        assert len(await store.read(stream)) == 2
        await store.close()

    run(main)


def test_rooms_upsert_and_list(store_url: str) -> None:
    async def main() -> None:
        store = await _opened(store_url)
        code = f"R{uuid.uuid4().hex[:8]}"
        assert await store.load_room(code) is None
        await store.put_room(RoomRecord(code, {"status": "lobby", "seats": [1]}), 0)
        await store.put_room(RoomRecord(code, {"status": "playing", "seats": [1, 2]}), 1)
        assert await store.load_room(code) == {"status": "playing", "seats": [1, 2]}
        await store.append(f"{code}:1", 0, [{"e": 1}], room=RoomRecord(code, {"status": "x"}))
        assert await store.load_room(code) == {"status": "x"}
        assert code in await store.room_codes()
        await store.close()

    run(main)


def test_sqlite_survives_reopening(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'nested' / 'dir' / 'db.sqlite3'}"

    async def main() -> None:
        store = await _opened(url)
        await store.append("A:1", 0, [{"n": 1}], command_id="x")
        await store.put_room(RoomRecord("A", {"ok": True}), 0)
        await store.close()
        again = await _opened(url)
        assert [e.command_id for e in await again.read("A:1")] == ["x"]
        assert await again.load_room("A") == {"ok": True}
        await again.close()

    run(main)


def test_sqlite_moves_events_keyed_by_stream_to_the_appended_layout(tmp_path: Path) -> None:
    """A database from before events were appended at the table's end keeps its events, its
    one-version-once rule and its rooms when a server opens it."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        "CREATE TABLE events (stream TEXT NOT NULL, version INTEGER NOT NULL, "
        "data TEXT NOT NULL, command_id TEXT, actor TEXT, PRIMARY KEY (stream, version)) "
        "WITHOUT ROWID;"
        "CREATE TABLE rooms (code TEXT PRIMARY KEY, data TEXT NOT NULL, created REAL NOT NULL, "
        "updated REAL NOT NULL);"
    )
    old.executemany(
        "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
        [("B:1", 1, '{"n": 1}', "c1", "p1"), ("A:1", 1, '{"n": 2}', None, None)]
        + [("A:1", v, f'{{"n": {v + 1}}}', f"c{v}", "p2") for v in range(2, 5)],
    )
    old.execute("INSERT INTO rooms VALUES ('A', '{\"ok\": true}', 1.0, 1.0)")
    old.commit()
    old.close()

    async def main() -> None:
        store = await _opened(f"sqlite:///{path}")
        assert [e.data["n"] for e in await store.read("A:1")] == [2, 3, 4, 5]
        assert [(e.command_id, e.actor) for e in await store.read("B:1")] == [("c1", "p1")]
        with pytest.raises(VersionConflict):
            await store.append("A:1", 3, [{"n": 9}])
        assert await store.append("A:1", 4, [{"n": 6}]) == 5
        assert await store.load_room("A") == {"ok": True}
        await store.close()

    run(main)
    db = sqlite3.connect(path)
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'events'").fetchone()
    assert "WITHOUT ROWID" not in sql.upper()
    with pytest.raises(sqlite3.IntegrityError):  # the index still refuses a version twice
        db.execute("INSERT INTO events VALUES ('A:1', 5, '{}', NULL, NULL)")
    db.close()


def test_default_database_is_in_the_data_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DIXIT_DATA_DIR", "/srv/dixit-data")
    assert default_database_url() == "sqlite:////srv/dixit-data/dixit.sqlite3"
    monkeypatch.delenv("DIXIT_DATA_DIR")
    monkeypatch.setenv("XDG_DATA_HOME", "/home/x/.data")
    assert default_database_url() == "sqlite:////home/x/.data/dixit/dixit.sqlite3"


def test_unknown_database_url_is_refused() -> None:
    with pytest.raises(ValueError):
        open_store("mysql://nope")
