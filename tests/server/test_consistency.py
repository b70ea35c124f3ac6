"""Two server processes on one store: no lost update, no seat or colour given twice, lobby
commands de-duplicated durably, storage failures answered as ``error`` messages.

A "process" here is a :class:`Hub` with its own store connection (a real SQLite file, or
PostgreSQL when reachable) and its own origin. By default each has its own in-memory pub/sub,
so neither hears of the other's changes: only the store's version checks keep them honest,
which makes every race below happen every time (with fan-out it happens only sometimes).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from fastapi import FastAPI

from dixit.protocol import messages as m
from dixit.protocol import parse_client_message
from dixit.protocol.codes import DESCRIPTIONS, ErrorCode
from dixit.pubsub import MemoryPubSub, PubSub, open_pubsub
from dixit.server import http_errors
from dixit.server.cards import card_source
from dixit.server.config import Limits, ServerConfig
from dixit.server.connection import Connection
from dixit.server.errors import ServerError
from dixit.server.hub import Hub
from dixit.server.room import TRIES, Room
from dixit.server.services import Services
from dixit.server.tokens import token_hash
from dixit.storage import (
    EventStore,
    RoomRecord,
    SQLiteEventStore,
    StorageError,
    StoreBusy,
    StoreFull,
    StoreUnavailable,
    VersionConflict,
    open_store,
)

from .harness import Client, ServerProcess, create_room, http, join_room, postgres_schema
from .test_pubsub import REDIS_URL, _redis_unreachable

Message = dict[str, Any]


@pytest.fixture(params=["sqlite", "postgres"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A real SQLite file, or a fresh schema of the PostgreSQL at 127.0.0.1:5432 (skipped,
    with the reason, when it is not there)."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.sqlite3'}"
        return
    with postgres_schema() as url:
        yield url


@pytest.fixture(params=["apart", "redis"])
def fanout(request: pytest.FixtureRequest) -> str | None:
    """None: each process its own in-memory pub/sub (they never hear of each other's
    changes); else a real Redis both follow (skipped, with the reason, when absent)."""
    if request.param == "apart":
        return None
    reason = _redis_unreachable()
    if reason:
        pytest.skip(reason)
    return REDIS_URL


class Socket:
    """The server's side of a WebSocket, keeping what was sent."""

    def __init__(self) -> None:
        self.sent: list[Message] = []

    def send_text(self, text: str) -> bool:
        self.sent.append(json.loads(text))
        return True

    def close(self) -> None:
        return None


class Player:
    """One socket of a seat on one process's room."""

    def __init__(self, room: Room, ticket: m.SeatTicket) -> None:
        self.room = room
        self.ticket = ticket
        self.socket = Socket()
        self.conn = Connection(self.socket, Limits())
        self._ids = 0

    async def attach(self) -> Player:
        who = self.room.authenticate(self.ticket.token)
        assert who is not None
        _, self.conn.seat = who
        self.conn.token_hash = token_hash(self.ticket.token)
        await self.room.attach(self.conn, None, None)
        return self

    async def command(self, kind: str, command_id: str | None = None, **fields: Any) -> Message:
        """Send a command; its ack or error."""
        self._ids += 1
        cid = command_id or f"{self.ticket.seat}-{kind}-{self._ids}-{uuid.uuid4().hex[:6]}"
        text = json.dumps({"type": kind, "id": cid, **fields})
        await self.room.handle(self.conn, parse_client_message(text))
        answers = [
            a for a in self.socket.sent if a["type"] in ("ack", "error") and a.get("id") == cid
        ]
        assert answers, f"no answer to {kind}"
        return answers[-1]


class Node:
    """One server "process": a hub with its own store connection and origin."""

    def __init__(self, store: EventStore, pubsub: PubSub, tmp_path: Path, name: str) -> None:
        config = ServerConfig(data_dir=tmp_path, bot_delay_s=0.0)
        self.store = store
        self.hub = Hub(Services(config, store, card_source(tmp_path), pubsub, name))

    async def room(self, code: str) -> Room:
        return await self.hub.require(code)

    async def stop(self) -> None:
        await self.hub.stop()
        await self.store.close()


@contextlib.asynccontextmanager
async def nodes(
    url: str, tmp_path: Path, count: int = 2, fanout: str | None = None
) -> AsyncIterator[list[Node]]:
    started: list[Node] = []
    buses: list[PubSub] = []
    try:
        for i in range(count):
            store = open_store(url)
            await store.open()
            bus = MemoryPubSub() if fanout is None else open_pubsub(fanout)
            await bus.open()
            buses.append(bus)
            started.append(Node(store, bus, tmp_path, f"process-{i}"))
        yield started
    finally:
        for node in started:
            await node.stop()
        for bus in buses:
            await bus.close()


async def stored(node: Node, code: str) -> dict[str, Any]:
    record = await node.store.get_room(code)
    assert record is not None
    return record.data


def seat_named(data: dict[str, Any], name: str) -> dict[str, Any]:
    (seat,) = [s for s in data["seats"] if s["name"] == name]
    return dict(seat)


def create(**settings: Any) -> m.CreateRoomRequest:
    return m.CreateRoomRequest(name="Ann", settings=m.RoomSettings(**settings))


def test_settings_on_one_process_and_a_rename_on_the_other_both_survive(
    store_url: str, fanout: str | None, tmp_path: Path
) -> None:
    async def main() -> None:
        async with nodes(store_url, tmp_path, fanout=fanout) as (a, b):
            room, ticket = await a.hub.create(create())
            bo_ticket = await a.hub.join(room.code, m.JoinRoomRequest(name="Bo"))
            host = await Player(room, ticket).attach()
            bo = await Player(await b.room(room.code), bo_ticket).attach()
            for rounds in range(1, 11):
                settings = m.RoomSettings(max_rounds=rounds).model_dump(mode="json")
                answers = await asyncio.gather(
                    host.command("update_settings", settings=settings),
                    bo.command("set_profile", name=f"Bo {rounds}"),
                )
                assert [x["type"] for x in answers] == ["ack", "ack"], answers
                data = await stored(a, room.code)
                assert data["settings"]["max_rounds"] == rounds
                assert seat_named(data, f"Bo {rounds}")["id"] == bo_ticket.seat

    asyncio.run(main())


def test_joins_at_once_on_two_processes_get_distinct_seats(
    store_url: str, fanout: str | None, tmp_path: Path
) -> None:
    async def main() -> None:
        async with nodes(store_url, tmp_path, fanout=fanout) as (a, b):
            for i in range(20):
                room, _ = await a.hub.create(create())
                await b.room(room.code)  # loaded before either join: it will be stale
                tickets = await asyncio.gather(
                    a.hub.join(room.code, m.JoinRoomRequest(name=f"Bo{i}")),
                    b.hub.join(room.code, m.JoinRoomRequest(name=f"Cy{i}")),
                )
                assert tickets[0].seat != tickets[1].seat
                data = await stored(a, room.code)
                assert len(data["seats"]) == 3
                hashes = {s["id"]: s["token_hash"] for s in data["seats"]}
                for ticket in tickets:  # each token opens its seat
                    assert ticket.seat is not None
                    assert hashes[ticket.seat] == token_hash(ticket.token)

    asyncio.run(main())


def test_the_same_colour_is_accepted_once(
    store_url: str, fanout: str | None, tmp_path: Path
) -> None:
    async def main() -> None:
        async with nodes(store_url, tmp_path, fanout=fanout) as (a, b):
            room, _ = await a.hub.create(create())
            bo_ticket = await a.hub.join(room.code, m.JoinRoomRequest(name="Bo"))
            cy_ticket = await a.hub.join(room.code, m.JoinRoomRequest(name="Cy"))
            bo = await Player(room, bo_ticket).attach()
            cy = await Player(await b.room(room.code), cy_ticket).attach()
            taken = {s.colour for s in room.data.seats}
            free = [cast(m.RabbitColour, c) for c in m.RABBIT_COLOURS if c not in taken]
            # By a profile change on each process at once…
            answers = await asyncio.gather(
                bo.command("set_profile", colour=free[0]),
                cy.command("set_profile", colour=free[0]),
            )
            kinds = sorted(x["type"] for x in answers)
            assert kinds == ["ack", "error"], answers
            assert [x["code"] for x in answers if x["type"] == "error"] == ["room/colour_taken"]
            data = await stored(a, room.code)
            assert [s["colour"] for s in data["seats"]].count(free[0]) == 1
            # …and by two joins at once.
            joins = await asyncio.gather(
                a.hub.join(room.code, m.JoinRoomRequest(name="Di", colour=free[1])),
                b.hub.join(room.code, m.JoinRoomRequest(name="Ed", colour=free[1])),
                return_exceptions=True,
            )
            refused = [j for j in joins if isinstance(j, ServerError)]
            assert len(refused) == 1 and refused[0].code == "room/colour_taken", joins
            data = await stored(a, room.code)
            assert [s["colour"] for s in data["seats"]].count(free[1]) == 1

    asyncio.run(main())


def test_a_rename_right_after_a_phase_change_keeps_the_deadline(
    store_url: str, tmp_path: Path
) -> None:
    async def main() -> None:
        async with nodes(store_url, tmp_path) as (a, b):
            timers = m.PhaseTimers(clue=600, submit=600, vote=600)
            room, ticket = await a.hub.create(create(first_storyteller="host", timers=timers))
            others = [await a.hub.join(room.code, m.JoinRoomRequest(name=n)) for n in ("Bo", "Cy")]
            host = await Player(room, ticket).attach()
            assert (await host.command("start_game"))["type"] == "ack"
            bo = await Player(await b.room(room.code), others[0]).attach()  # knows the clue phase
            clue_deadline = (await stored(a, room.code))["deadline"]
            assert clue_deadline is not None and clue_deadline["phase"] == "clue"
            assert room.state is not None
            card = room.state.hands[ticket.seat or ""][0]
            # The clue (on A) moves the game to submitting, with its own deadline; then Bo,
            # on B which has not heard of it, renames.
            assert (await host.command("give_clue", card=card, clue="owl"))["type"] == "ack"
            submit_deadline = (await stored(a, room.code))["deadline"]
            assert submit_deadline["phase"] == "submit"
            assert (await bo.command("set_profile", name="Bob"))["type"] == "ack"
            data = await stored(b, room.code)
            assert data["deadline"] == submit_deadline
            assert data["status"] == "playing"
            assert seat_named(data, "Bob")["id"] == others[0].seat

    asyncio.run(main())


def test_a_lobby_command_resent_after_a_restart_is_a_duplicate(
    store_url: str, tmp_path: Path
) -> None:
    async def main() -> None:
        async with nodes(store_url, tmp_path, count=1) as (a,):
            room, ticket = await a.hub.create(create())
            host = await Player(room, ticket).attach()
            first = await host.command("add_bot", command_id="bot-1")
            assert first["type"] == "ack" and not first["duplicate"]
            again = await host.command("add_bot", command_id="bot-1")  # same process
            assert again["type"] == "ack" and again["duplicate"]
            bo = await a.hub.join(room.code, m.JoinRoomRequest(name="Bo"))
            kicked = await host.command("kick", command_id="kick-1", seat=bo.seat)
            assert kicked["type"] == "ack" and not kicked["duplicate"]
        # "kill -9": a new process on the same store, nothing kept in memory.
        async with nodes(store_url, tmp_path, count=2) as (restarted, other):
            for node in (restarted, other):
                host = await Player(await node.room(room.code), ticket).attach()
                answer = await host.command("add_bot", command_id="bot-1")
                assert answer["type"] == "ack" and answer["duplicate"], answer
                # Bo's seat is gone: kicking it again makes no sense, but this kick was done.
                answer = await host.command("kick", command_id="kick-1", seat=bo.seat)
                assert answer["type"] == "ack" and answer["duplicate"], answer
                answer = await host.command("kick", command_id="kick-2", seat=bo.seat)
                assert answer["type"] == "error" and answer["code"] == "room/unknown_seat"
            data = await stored(restarted, room.code)
            assert sum(s["kind"] == "computer" for s in data["seats"]) == 1
            # A new id is a new command.
            assert (await host.command("add_bot", command_id="bot-2"))["duplicate"] is False
            assert (
                sum(s["kind"] == "computer" for s in (await stored(other, room.code))["seats"]) == 2
            )

    asyncio.run(main())


def test_a_held_sqlite_lock_is_an_error_and_nothing_changes(tmp_path: Path) -> None:
    path = tmp_path / "locked.sqlite3"

    async def main() -> None:
        store = SQLiteEventStore(path, lock_wait_s=0.2)
        await store.open()
        node = Node(store, MemoryPubSub(), tmp_path, "process-0")
        try:
            room, ticket = await node.hub.create(create(first_storyteller="host"))
            for name in ("Bo", "Cy"):
                await node.hub.join(room.code, m.JoinRoomRequest(name=name))
            host = await Player(room, ticket).attach()
            before = (await stored(node, room.code), room.data, room.record_version)
            outsider = sqlite3.connect(path, isolation_level=None)
            outsider.execute("BEGIN IMMEDIATE")  # another program holds the write lock
            try:
                for kind, fields in (
                    ("set_profile", {"name": "Ann2"}),
                    ("add_bot", {}),
                    ("start_game", {}),
                ):
                    answer = await host.command(kind, command_id=f"locked-{kind}", **fields)
                    assert answer["type"] == "error" and answer["code"] == "store/busy", answer
                assert (room.data, room.record_version) == before[1:]
                assert room.state is None and room.data.status == "lobby"
            finally:
                outsider.execute("ROLLBACK")
                outsider.close()
            assert await stored(node, room.code) == before[0]
            # The socket is still there; the same command now goes through, once.
            answer = await host.command("set_profile", command_id="locked-set_profile", name="Ann2")
            assert answer["type"] == "ack" and not answer["duplicate"]
            assert (await host.command("start_game"))["type"] == "ack"
            assert room.state is not None and room.state.version > 0
        finally:
            await node.stop()

    asyncio.run(main())


class FailingStore:
    """A real store whose writes (and reads, with ``reads``) fail with ``failure`` while set:
    a database that went away."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.failure: StorageError | None = None
        self.reads = False

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.store, name)
        writes = ("append", "put_room")
        reads = ("get_room", "load_room", "read", "command_applied")

        async def maybe_failing(*args: Any, **kwargs: Any) -> Any:
            if self.failure is not None and (name in writes or (self.reads and name in reads)):
                raise self.failure
            return await method(*args, **kwargs)

        return maybe_failing if name in writes + reads else method


def test_storage_errors_reach_players_and_the_lobby_api(tmp_path: Path) -> None:
    async def main() -> None:
        real = open_store(f"sqlite:///{tmp_path / 'failing.sqlite3'}")
        await real.open()
        store = FailingStore(real)
        node = Node(store, MemoryPubSub(), tmp_path, "process-0")
        app = FastAPI()
        http_errors.install(app)

        @app.post("/api/rooms/{code}/join")
        async def join(code: str, body: m.JoinRoomRequest) -> m.SeatTicket:
            return await node.hub.join(code, body)

        @app.post("/api/rooms")
        async def create_room(body: m.CreateRoomRequest) -> m.SeatTicket:
            return (await node.hub.create(body))[1]

        try:
            room, ticket = await node.hub.create(create())
            await node.hub.join(room.code, m.JoinRoomRequest(name="Bo"))
            host = await Player(room, ticket).attach()
            client = httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app), base_url="http://test"
            )
            names = ["Ann", "Bo"]
            for failure, reads in (
                (StoreBusy("the lock was held"), False),
                (StoreUnavailable("the database is down"), True),
            ):
                store.failure, store.reads = failure, reads
                answer = await host.command("add_bot", command_id=f"bot-{failure.code}")
                assert answer["type"] == "error" and answer["code"] == failure.code
                answer = await host.command("set_profile", name="Annie")
                assert answer["type"] == "error" and answer["code"] == failure.code
                assert [s.name for s in room.data.seats] == names
                joined = await client.post(f"/api/rooms/{room.code}/join", json={"name": "Cy"})
                assert joined.status_code == 503
                assert joined.json() == {"code": failure.code, "message": failure.message}
                created = await client.post("/api/rooms", json={"name": "Di"})
                assert created.status_code == 503 and created.json()["code"] == failure.code
                store.failure = None
                answer = await host.command("add_bot", command_id=f"bot-{failure.code}")
                assert answer["type"] == "ack" and not answer["duplicate"]
                names.append(f"Robot {len(names) - 1}")
                assert [s.name for s in room.data.seats] == names
            assert await stored(node, room.code) == room.data.to_json()
            await client.aclose()
        finally:
            await node.stop()

    asyncio.run(main())


# ---------------------------------------------------------------------- real `dixit serve`


def test_two_serve_processes_on_one_sqlite_file_seat_joins_apart(tmp_path: Path) -> None:
    """Two real processes, one SQLite file, no fan-out between them: joins sent to both at
    once get distinct seats, and each token opens its own."""
    database = f"sqlite:///{tmp_path / 'two.sqlite3'}"
    a = ServerProcess(database=database, workdir=tmp_path)
    b = ServerProcess(database=database, workdir=tmp_path)
    a.start()
    b.start()

    async def main() -> None:
        for i in range(5):
            ticket = create_room(a.base, "Ann")
            code = ticket["code"]
            assert http(b.base, "GET", f"/api/rooms/{code}")[0] == 200  # B loads it now
            joins = await asyncio.gather(
                asyncio.to_thread(join_room, a.base, code, f"Bo{i}"),
                asyncio.to_thread(join_room, b.base, code, f"Cy{i}"),
            )
            assert joins[0]["seat"] != joins[1]["seat"]
            for server, joined in zip((b, a), joins, strict=True):  # the other process
                client = Client(server.ws_base, joined)
                welcome = await client.connect()
                assert welcome["type"] == "welcome", welcome
                assert welcome["you"]["seat"] == joined["seat"]
                await client.close()

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()


def test_add_bot_acked_then_kill_9_then_resent_is_one_bot(tmp_path: Path) -> None:
    """The issue's case: ``add_bot`` acknowledged, the server SIGKILLed, the same id resent to
    the restarted server: a duplicate ack, one computer player."""
    server = ServerProcess(database=f"sqlite:///{tmp_path / 'kill.sqlite3'}", workdir=tmp_path)
    server.start()

    async def main() -> None:
        ticket = create_room(server.base, "Ann")
        host = Client(server.ws_base, ticket)
        await host.connect()
        first = await host.command("add_bot", command_id="robot-please")
        assert first["type"] == "ack" and not first["duplicate"]
        server.kill()
        server.start()
        host = Client(server.ws_base, ticket)
        await host.connect()
        again = await host.command("add_bot", command_id="robot-please")
        assert again["type"] == "ack" and again["duplicate"], again
        await host.close()
        _, room = http(server.base, "GET", f"/api/rooms/{ticket['code']}")
        assert sum(s["is_bot"] for s in room["seats"]) == 1

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_every_storage_error_code_is_a_protocol_code() -> None:
    for error in (StorageError, StoreBusy, StoreUnavailable, StoreFull):
        assert ErrorCode(error.code) in DESCRIPTIONS


class RivalStore:
    """A real store where, while ``rival`` is on, another writer rewrites the room record
    just before each of ours: every write of ours loses the race."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.rival = False
        self.rewrites = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def put_room(self, room: RoomRecord, expected_version: int, **kwargs: Any) -> int:
        if self.rival:
            record = await self.store.get_room(room.code)
            assert record is not None
            await self.store.put_room(RoomRecord(room.code, record.data), record.version)
            self.rewrites += 1
        return await self.store.put_room(room, expected_version, **kwargs)


def test_a_room_that_keeps_changing_answers_conflict_after_a_few_tries(tmp_path: Path) -> None:
    async def main() -> None:
        real = open_store(f"sqlite:///{tmp_path / 'rival.sqlite3'}")
        await real.open()
        store = RivalStore(real)
        node = Node(store, MemoryPubSub(), tmp_path, "process-0")
        try:
            room, ticket = await node.hub.create(create())
            host = await Player(room, ticket).attach()
            store.rival = True
            answer = await host.command("set_profile", command_id="rename", name="Annie")
            assert answer["type"] == "error" and answer["code"] == "server/conflict"
            assert store.rewrites == TRIES  # bounded: decided again a few times, then refused
            assert room.data.seats[0].name == "Ann"
            with pytest.raises(VersionConflict):
                await node.hub.join(room.code, m.JoinRoomRequest(name="Bo"))
            store.rival = False
            answer = await host.command("set_profile", command_id="rename", name="Annie")
            assert answer["type"] == "ack" and not answer["duplicate"]
            assert (await stored(node, room.code))["seats"][0]["name"] == "Annie"
        finally:
            await node.stop()

    asyncio.run(main())
