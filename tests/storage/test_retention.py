"""Bounded storage on every store: stale rooms found by status and age, deleted with their
games' events, command ids and lease only if unchanged; stats; the sweep's rules."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit.server.retention import sweep
from dixit.storage import CommandKey, EventStore, RoomRecord, open_store
from dixit.storage.retention import Retention, parse_duration

PG_URL = os.environ.get("DIXIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


def postgres_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema of this test's own (others use the database meanwhile)."""
    try:
        import psycopg

        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=2)
    except Exception as error:
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {error}".splitlines()[0])
    schema = f"dixit_test_{os.urandom(5).hex()}"
    admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
        admin.close()


@pytest.fixture(params=["memory", "sqlite", "postgres"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "memory":
        yield "memory://"
    elif request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'store.sqlite3'}"
    else:
        yield from postgres_schema()


def room(code: str, status: str, game_number: int = 1, decks: tuple[str, ...] = ()) -> RoomRecord:
    return RoomRecord(
        code,
        {
            "code": code,
            "seed": 1,
            "settings": {"decks": list(decks)},
            "status": status,
            "game_number": game_number,
        },
    )


async def fill(store: EventStore) -> None:
    """A lobby never started, a game in play, a finished game and a lobby after a rematch."""
    for record in (room("LOBBY1", "lobby"), room("PLAY01", "playing"), room("OVER01", "over")):
        await store.put_room(record, 0, command=CommandKey("p1", "c1"))
    await store.put_room(room("AGAIN1", "lobby", game_number=2), 0)
    for stream in ("PLAY01:1", "OVER01:1", "AGAIN1:1"):
        await store.append(stream, 0, [{"type": "started"}, {"type": "clue"}])
    await store.acquire_lease("room:PLAY01", "me", 30)


def test_stale_rooms_are_found_by_status_and_age_and_deleted_whole(url: str) -> None:
    async def main() -> None:
        store = open_store(url)
        await store.open()
        try:
            await fill(store)
            later = time.time() + 5
            assert await store.stale_rooms("lobby", time.time() - 60, 10) == []  # too young
            lobbies = await store.stale_rooms("lobby", later, 10, first_game=True)
            assert [r.code for r in lobbies] == ["LOBBY1"]
            assert {r.code for r in await store.stale_rooms("lobby", later, 10)} == {
                "LOBBY1",
                "AGAIN1",
            }
            (playing,) = await store.stale_rooms("playing", later, 10)
            assert playing.code == "PLAY01" and playing.data["status"] == "playing"
            before = await store.stats()
            assert before.rooms == {"lobby": 2, "playing": 1, "over": 1}
            assert before.events == 6
            # Changed since it was read: not deleted.
            await store.put_room(room("PLAY01", "playing"), playing.version)
            assert not await store.delete_room("PLAY01", playing.version, ["PLAY01:1"])
            assert await store.load_room("PLAY01") is not None
            # Unchanged: the record, its events, its command ids and its lease go together.
            assert await store.delete_room("PLAY01", playing.version + 1, ["PLAY01:1"])
            assert await store.load_room("PLAY01") is None
            assert await store.read("PLAY01:1") == []
            assert await store.lease("room:PLAY01") is None
            assert not await store.delete_room("PLAY01", playing.version + 1, ["PLAY01:1"])
            assert await store.delete_room("LOBBY1", 1, ["LOBBY1:1"])
            assert not await store.command_applied("LOBBY1", CommandKey("p1", "c1"))
            after = await store.stats()
            assert after.rooms == {"lobby": 1, "over": 1} and after.events == 4
            assert len(await store.read("OVER01:1")) == 2  # others untouched
        finally:
            await store.close()

    asyncio.run(main())


def test_table_reports_count_each_reporter_once_and_go_with_the_room(url: str) -> None:
    async def main() -> None:
        store = open_store(url)
        await store.open()
        try:
            await fill(store)
            assert [await store.report_table("LOBBY1", who) for who in "aab"] == [1, 1, 2]
            assert await store.report_table("AGAIN1", "a") == 1
            assert await store.reported_tables(2) == ["LOBBY1"]
            assert await store.reported_tables(1) == ["AGAIN1", "LOBBY1"]
            assert await store.delete_room("LOBBY1", 1, ["LOBBY1:1"])
            assert await store.reported_tables(1) == ["AGAIN1"]
            assert await store.report_table("LOBBY1", "c") == 1  # a new room of that code
        finally:
            await store.close()

    asyncio.run(main())


def test_a_sweep_keeps_what_its_rules_keep(url: str) -> None:
    async def main() -> None:
        store = open_store(url)
        await store.open()
        try:
            await fill(store)
            now = time.time() + 3600
            # Defaults: lobbies a day, abandoned games a week, finished games for ever.
            swept = await sweep(store, Retention(), now=now)
            assert swept.total == 0
            swept = await sweep(store, Retention(), now=now + 86400)
            assert swept.rooms == {"lobby": 1}
            assert sorted(await store.room_codes()) == ["AGAIN1", "OVER01", "PLAY01"]
            # A room this process holds in memory is in use: kept.
            swept = await sweep(
                store, Retention(), lambda code: code == "PLAY01", now=now + 8 * 86400
            )
            assert swept.total == 0
            swept = await sweep(store, Retention(finished_s=60), now=now + 8 * 86400)
            assert swept.rooms == {"abandoned": 1, "finished": 2}
            assert await store.room_codes() == []
            assert (await store.stats()).events == 0
        finally:
            await store.close()

    asyncio.run(main())


def test_unused_uploads_are_reclaimed_and_used_ones_kept(tmp_path: Path) -> None:
    import io

    from PIL import Image

    from dixit.decks import DeckLibrary
    from dixit.server.cards import LibraryCards

    def picture(shade: int) -> bytes:
        out = io.BytesIO()
        Image.new("RGB", (300, 450), (shade, 90, 160)).save(out, "PNG")
        return out.getvalue()

    library = DeckLibrary(tmp_path / "data")
    used = library.import_bytes(picture(10), "a.png", "Used", owner="hash-a").slug
    unused = library.import_bytes(picture(20), "b.png", "Unused", owner="hash-b").slug
    shared = library.import_bytes(picture(30), "c.png", "Operator's").slug  # no owner
    assert used and unused and shared
    cards = LibraryCards(library)

    async def main() -> None:
        store = open_store("memory://")
        await store.open()
        await store.put_room(room("USES01", "lobby", decks=(used,)), 0)
        keep = Retention(lobby_s=None, uploads_s=3600)
        assert (await sweep(store, keep, cards=cards)).decks == []  # not old enough
        swept = await sweep(store, Retention(lobby_s=None, uploads_s=0), cards=cards)
        assert swept.decks == [unused]

    asyncio.run(main())
    assert {d.slug for d in library.list() if not d.builtin} == {used, shared}


def test_durations_read_as_operators_write_them() -> None:
    assert parse_duration("90s") == 90 and parse_duration("30m") == 1800
    assert parse_duration("24h") == 86400 and parse_duration("7d") == 7 * 86400
    assert parse_duration("2") == 2 and parse_duration("forever") is None
    with pytest.raises(ValueError):
        parse_duration("soon")


def test_store_command_reports_and_reclaims(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'dixit.sqlite3'}"

    async def make() -> None:
        store = open_store(database)
        await store.open()
        await fill(store)
        await store.close()

    asyncio.run(make())

    def dixit(*args: str) -> dict[str, object]:
        out = subprocess.run(
            [sys.executable, "-m", "dixit.cli.main", "store", *args, "--database", database,
             "--data-dir", str(tmp_path / "data"), "--json"],
            check=True, capture_output=True, text=True,
        )  # fmt: skip
        answer: dict[str, object] = json.loads(out.stdout)
        return answer

    stats = dixit("stats")
    assert stats["rooms"] == {"lobby": 2, "playing": 1, "over": 1} and stats["events"] == 6
    kept = dixit("reclaim")  # nothing is old enough yet
    assert kept["deleted_rooms"] == {} and kept["rooms"] == stats["rooms"]
    time.sleep(1.1)
    swept = dixit("reclaim", "--keep-lobby", "1s", "--keep-abandoned", "1s", "--vacuum")
    assert swept["deleted_rooms"] == {"lobby": 1, "abandoned": 1}
    assert swept["rooms"] == {"lobby": 1, "over": 1} and swept["events"] == 4
    assert int(str(swept["size_bytes"])) == int(str(swept["used_bytes"]))  # vacuumed
