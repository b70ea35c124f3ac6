"""Only live rooms in memory: a room nobody uses leaves memory and loads again, whole, when
asked for; start-up loads nothing; ``--max-rooms`` counts live rooms only."""

from __future__ import annotations

import asyncio
import gc
import itertools
import random
import time
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import cast

import pytest
from starlette.websockets import WebSocket

from dixit.protocol import messages as m
from dixit.pubsub import open_pubsub
from dixit.server.cards import card_source
from dixit.server.config import Limits, ServerConfig
from dixit.server.connection import Connection
from dixit.server.errors import ServerError
from dixit.server.hub import Hub
from dixit.server.services import Services
from dixit.server.tokens import token_hash
from dixit.storage import SQLiteEventStore, StoredEvent

from .harness import TIMEOUT, Client, ServerProcess, create_room, http, play_until_over
from .hubs import Wire, until

QUICK = ("--idle-unload", "0.2", "--finished-unload", "0.1")


def _live_rooms(server: ServerProcess) -> int:
    status, health = http(server.base, "GET", "/api/health")
    assert status == 200
    return int(health["rooms"])


async def _until_view(client: Client, legal: str) -> None:
    """Wait until the client's view offers ``legal`` (it may have come with an earlier read)."""
    while client.view is None or not client.view["legal"][legal]:
        await client.until(lambda msg: msg["type"] == "game")


async def _until_unloaded(server: ServerProcess) -> None:
    """Wait (bounded) until the server holds no room in memory."""
    end = time.monotonic() + TIMEOUT
    while _live_rooms(server) != 0:
        assert time.monotonic() < end, "the idle room was never unloaded"
        await asyncio.sleep(0.05)


@pytest.fixture
def quick(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server on SQLite that unloads rooms nobody uses after 0.2 s (finished: 0.1 s)."""
    proc = ServerProcess(database=f"sqlite:///{tmp_path / 'db.sqlite3'}", workdir=tmp_path)
    proc.extra = QUICK
    proc.start()
    yield proc
    proc.stop()


def test_an_idle_game_unloads_and_carries_on_whole_when_its_player_returns(
    quick: ServerProcess,
) -> None:
    async def main() -> None:
        ticket = create_room(quick.base, "Ann", bots=2, first_storyteller="host")
        ann = Client(quick.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await _until_view(ann, "give_clue")
        assert ann.view is not None
        card = ann.view["legal"]["give_clue"][0]
        first = await ann.command("give_clue", command_id="clue-1", card=card, clue="moon")
        assert first["type"] == "ack" and not first["duplicate"]
        # The computer players play on until Ann's turn comes again.
        await _until_view(ann, "submit")
        before = ann.version
        await ann.close()

        await _until_unloaded(quick)

        welcome = await ann.connect(since=before)
        assert welcome["type"] == "welcome"
        assert _live_rooms(quick) == 1
        assert ann.version >= before and ann.view is not None
        assert ann.view["legal"]["submit"], "the game waits for Ann, as it did"
        again = await ann.command("give_clue", command_id="clue-1", card=card, clue="moon")
        assert again == {**first, "duplicate": True}, "a resend after the reload applies once"
        await play_until_over([ann], random.Random(5))
        await ann.close()
        await _until_unloaded(quick)  # finished: unloaded too

    asyncio.run(main())


def test_start_up_loads_no_room_and_a_game_in_progress_loads_when_asked_for(
    tmp_path: Path,
) -> None:
    server = ServerProcess(database=f"sqlite:///{tmp_path / 'db.sqlite3'}", workdir=tmp_path)
    server.start()
    try:

        async def main() -> None:
            ann = Client(server.ws_base, create_room(server.base, "Ann", bots=2))
            await ann.connect()
            assert (await ann.command("start_game"))["type"] == "ack"
            await ann.until(lambda msg: msg["type"] == "game")
            await ann.close()
            create_room(server.base, "Bo")  # a lobby
            assert _live_rooms(server) == 2

            server.kill()
            server.start()
            assert _live_rooms(server) == 0, "start-up loads nothing"
            welcome = await ann.connect()
            assert welcome["type"] == "welcome" and welcome["game"] is not None
            assert _live_rooms(server) == 1
            await play_until_over([ann], random.Random(7))
            await ann.close()

        asyncio.run(main())
    finally:
        server.stop()


def test_a_deadline_that_passed_while_unloaded_plays_when_the_room_loads(
    quick: ServerProcess, tmp_path: Path
) -> None:
    async def main() -> None:
        ticket = create_room(
            quick.base, "Ann", bots=2, first_storyteller="host", timers={"clue": 2}
        )
        ann = Client(quick.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        while ann.room is None or ann.room["deadline"] is None:
            await ann.until(lambda msg: msg["type"] == "room")
        deadline_s = ann.room["deadline"]["at"] / 1000
        started = ann.version
        await ann.close()

        await _until_unloaded(quick)
        await asyncio.sleep(max(0.0, deadline_s - time.time()) + 0.3)
        assert _live_rooms(quick) == 0
        stream = f"{ticket['code']}:1"
        assert len(await _stored(tmp_path, stream)) == started, "nothing played while unloaded"

        await ann.connect()  # the room loads: its timer has run out, it plays now
        while ann.view is None or ann.view["phase"] == "clue":
            await ann.until(lambda msg: msg["type"] == "game")
        clue = (await _stored(tmp_path, stream))[started]
        assert clue.data["type"] == "ClueGiven" and clue.actor == f"timer:{ticket['seat']}"
        await ann.close()

    asyncio.run(main())


async def _stored(tmp_path: Path, stream: str) -> list[StoredEvent]:
    store = SQLiteEventStore(tmp_path / "db.sqlite3")
    await store.open()
    try:
        return await store.read(stream)
    finally:
        await store.close()


def test_max_rooms_counts_live_rooms_only(tmp_path: Path) -> None:
    server = ServerProcess(
        database=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        workdir=tmp_path,
        extra=("--max-rooms", "3", "--idle-unload", "3600", "--finished-unload", "3600"),
    )
    server.start()
    try:

        async def main() -> None:
            # One finished room and two abandoned lobbies...
            ann = Client(server.ws_base, create_room(server.base, "Ann", bots=2))
            await ann.connect()
            assert (await ann.command("start_game"))["type"] == "ack"
            assert (await ann.command("end_game"))["type"] == "ack"
            await ann.close()
            lobbies = [create_room(server.base, name) for name in ("Bo", "Cy")]
            assert _live_rooms(server) == 3
            # ... make way for a fourth room: the finished one leaves memory first.
            fourth = create_room(server.base, "Di")
            assert _live_rooms(server) == 3
            # Three rooms in use: a fifth is refused.
            clients = [Client(server.ws_base, t) for t in (*lobbies, fourth)]
            for client in clients:
                assert (await client.connect())["type"] == "welcome"
            status, answer = http(server.base, "POST", "/api/rooms", {"name": "Ed"})
            assert status == 503 and answer["code"] == "limit/rooms"
            # The finished room is still there, in the store: it cannot load while all is full.
            assert (await ann.connect())["type"] == "closed"
            await clients[0].close()  # one room is free of sockets: it makes way
            end = time.monotonic() + TIMEOUT
            while (welcome := await ann.connect())["type"] != "welcome":
                assert time.monotonic() < end, welcome  # (the server sees the close soon)
                await asyncio.sleep(0.05)
            assert welcome["game"]["view"]["phase"] == "over"
            for client in (ann, *clients):
                await client.close()

        asyncio.run(main())
    finally:
        server.stop()


def test_sockets_and_joins_that_arrive_while_rooms_unload_get_a_working_room(
    tmp_path: Path,
) -> None:
    server = ServerProcess(
        database=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        workdir=tmp_path,
        extra=("--idle-unload", "0", "--finished-unload", "0"),
    )
    server.start()
    rng = random.Random(3)
    try:

        async def main() -> None:
            ticket = create_room(server.base, "Ann")
            ann = Client(server.ws_base, ticket)
            for i in range(25):
                welcome = await ann.connect()
                assert welcome["type"] == "welcome", welcome
                answer = await ann.command("set_profile", name=f"Ann {i}")
                assert answer["type"] == "ack", answer
                assert ann.room is not None and ann.room["seats"][0]["name"] == f"Ann {i}"
                await ann.close()
                await asyncio.sleep(rng.uniform(0, 0.06))
                status, _ = http(server.base, "POST", f"/api/rooms/{ticket['code']}/spectate")
                assert status == 200
                await asyncio.sleep(rng.uniform(0, 0.06))
            status, state = http(server.base, "GET", f"/api/rooms/{ticket['code']}")
            assert status == 200 and state["seats"][0]["name"] == "Ann 24"

        asyncio.run(main())
    finally:
        server.stop()


def test_a_room_in_use_is_never_unloaded_and_an_unloaded_one_loads_afresh(
    tmp_path: Path,
) -> None:
    """The hub itself, on a real SQLite file: sweeping at any later time spares a room with a
    socket on its way in or a command at work, and ``get`` answers a fresh room after an
    unload."""

    async def main() -> None:
        store = SQLiteEventStore(tmp_path / "hub.sqlite3")
        pubsub = open_pubsub("memory://")
        await store.open()
        await pubsub.open()
        config = ServerConfig(data_dir=tmp_path, limits=Limits(max_rooms=1))
        hub = Hub(Services(config, store, card_source(tmp_path), pubsub, "test"))
        await hub.start()
        try:
            room, _ = await hub.create(m.CreateRoomRequest(name="Ann"))
            later = time.monotonic() + 10 * config.idle_unload_s
            async with hub.use(room.code) as held:
                assert held is room
                assert hub.sweep(later) == 0
                with pytest.raises(ServerError) as full:  # the one live room is in use
                    await hub.create(m.CreateRoomRequest(name="Bo"))
                assert full.value.code == "limit/rooms"
            async with room.lock:
                assert hub.sweep(later) == 0
            assert hub.sweep(later + config.idle_unload_s / 2) == 0, "in use until just now"
            assert hub.sweep(later + config.idle_unload_s) == 1
            assert room.closed and hub.rooms == {}
            fresh = await hub.get(room.code)
            assert fresh is not None and fresh is not room and not fresh.closed
            assert fresh.data == room.data
            # A new room makes way: the idle one is unloaded, not refused.
            other, _ = await hub.create(m.CreateRoomRequest(name="Bo"))
            assert fresh.closed and list(hub.rooms) == [other.code]
        finally:
            await hub.stop()
            await pubsub.close()
            await store.close()

    asyncio.run(main())


def test_a_host_whose_room_is_not_loaded_may_still_import_decks(tmp_path: Path) -> None:
    async def main() -> None:
        store = SQLiteEventStore(tmp_path / "hub.sqlite3")
        pubsub = open_pubsub("memory://")
        await store.open()
        await pubsub.open()
        services = Services(
            ServerConfig(data_dir=tmp_path), store, card_source(tmp_path), pubsub, "test"
        )
        hub = Hub(services)
        await hub.start()
        _, ticket = await hub.create(m.CreateRoomRequest(name="Ann"))
        _, guest = await hub.create(m.CreateRoomRequest(name="Bo"))
        assert await hub.host_of_token(ticket.token)
        await hub.stop()
        assert not hub.rooms
        assert await hub.host_of_token(ticket.token), "remembered when it was unloaded"
        # A fresh process, as after a restart: the store says who hosts what.
        again = Hub(services)
        await again.start()
        assert await again.host_of_token(ticket.token) and await again.host_of_token(guest.token)
        assert not await again.host_of_token("not a token of anyone")
        assert not again.rooms
        await again.stop()
        await pubsub.close()
        await store.close()

    asyncio.run(main())


def test_an_unloaded_room_is_freed_at_once_and_gives_its_lease_back(tmp_path: Path) -> None:
    """No reference cycle keeps an unloaded room (its game, its log) for the garbage collector,
    which the server runs rarely; the lease of its game in play is still given back."""

    async def main() -> None:
        store = SQLiteEventStore(tmp_path / "hub.sqlite3")
        pubsub = open_pubsub("memory://")
        await store.open()
        await pubsub.open()
        config = ServerConfig(data_dir=tmp_path, bot_delay_s=0.0)
        hub = Hub(Services(config, store, card_source(tmp_path), pubsub, "test"))
        await hub.start()
        gc.disable()
        try:
            settings = m.RoomSettings(bots=2)
            room, ticket = await hub.create(m.CreateRoomRequest(name="Ann", settings=settings))
            wire = Wire()
            conn = Connection(cast(WebSocket, wire), config.limits)
            who = room.authenticate(ticket.token)
            assert who is not None
            _, conn.seat = who
            conn.token_hash = token_hash(ticket.token)
            await room.attach(conn, None, None)
            await room.handle(conn, m.StartGame(id="start"))
            assert room.data.status == "playing", wire.texts[-3:]
            driver, name, gone = room.driver, room.driver.name, weakref.ref(room)
            await until(lambda: driver.driving, "the game is driven here")
            room.detach(conn)
            conn.close()
            del room, who, conn
            # A computer player may hold the lock a moment: each sweep an idle time later.
            later = itertools.count(2)
            idle = config.idle_unload_s
            await until(lambda: hub.sweep(time.monotonic() + next(later) * idle) == 1, "unloaded")
            await driver.released()
            await asyncio.sleep(0.1)  # its tasks, cancelled, finish
            assert gone() is None, "the unloaded room waits for the garbage collector"
            assert await store.lease(name) is None
        finally:
            gc.enable()
            await hub.stop()
            await pubsub.close()
            await store.close()

    asyncio.run(main())
