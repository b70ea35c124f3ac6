"""One driver per room, across server processes.

Two "processes" are two hubs in this test process, each with its own origin and its own
connection to one real SQLite file, and a fan-out + presence they share: the in-process one
(the same objects, as one machine's broker would be) and real Redis (127.0.0.1:6379; skipped,
with the reason, when it is not there). Sockets are stand-ins that keep what the server sends.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from dixit.protocol import messages as m
from dixit.protocol import parse_client_message
from dixit.pubsub import MemoryPresence, MemoryPubSub, Presence, PubSub, open_presence, open_pubsub
from dixit.server.cards import card_source
from dixit.server.config import ServerConfig
from dixit.server.connection import Connection
from dixit.server.driver import lease_name
from dixit.server.hub import Hub
from dixit.server.room import Room, Services
from dixit.server.tokens import token_hash
from dixit.storage import JSONDict, SQLiteEventStore, StoreBusy, StoredEvent, VersionConflict

from .test_pubsub import REDIS_URL, _redis_unreachable

TTL_S = 1.5  # the driver's lease: a dead holder is replaced within about this
BEAT_S = 0.2  # presence beats


class CountingStore(SQLiteEventStore):
    """The real SQLite store, counting the version conflicts met by moves made for a seat by a
    timer or a computer: two processes driving one room at once would meet some."""

    conflicts = 0
    busy_timer_moves = 0  # this many timer moves fail first with store/busy (lock held)

    async def append(
        self, stream: str, expected_version: int, events: Sequence[JSONDict], **kw: Any
    ) -> int:
        if CountingStore.busy_timer_moves and (kw.get("actor") or "").startswith("timer:"):
            CountingStore.busy_timer_moves -= 1
            raise StoreBusy("database is locked (held by the test)")
        try:
            return await super().append(stream, expected_version, events, **kw)
        except VersionConflict:
            actor = kw.get("actor") or ""
            if actor.startswith(("timer:", "bot:")):
                CountingStore.conflicts += 1
            raise


class Wire:
    """A socket's far end: every text the server sends, and whether it closed."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.closed = False

    async def send_text(self, text: str) -> None:
        self.texts.append(text)

    async def close(self) -> None:
        self.closed = True


@dataclass
class Socket:
    room: Room
    conn: Connection
    wire: Wire

    def messages(self, kind: str | None = None) -> list[dict[str, Any]]:
        found = [json.loads(t) for t in self.wire.texts]
        return [x for x in found if kind is None or x["type"] == kind]

    def notices(self) -> list[tuple[str, str | None]]:
        return [(n["code"], n["seat"]) for n in self.messages("notice")]

    async def send(self, kind: str, **fields: Any) -> dict[str, Any]:
        cid = f"c{len(self.wire.texts)}-{time.monotonic_ns()}"
        text = json.dumps({"type": kind, "id": cid, **fields})
        await self.room.handle(self.conn, parse_client_message(text))
        return next(x for x in self.messages() if x.get("id") == cid)


@dataclass
class Proc:
    """One server process: a hub with its own store connection and origin."""

    hub: Hub
    store: CountingStore
    pubsub: PubSub
    presence: Presence
    own_bus: bool
    sockets: list[Socket] = field(default_factory=list)

    @property
    def origin(self) -> str:
        return self.hub.services.origin

    async def room(self, code: str) -> Room:
        return await self.hub.require(code)

    async def connect(self, code: str, token: str) -> Socket:
        room = await self.room(code)
        wire = Wire()
        conn = Connection(wire, self.hub.services.config.limits)  # type: ignore[arg-type]
        who = room.authenticate(token)
        assert who is not None
        conn.role, conn.seat = who
        conn.token_hash = token_hash(token)
        await room.attach(conn, None, None)
        socket = Socket(room, conn, wire)
        self.sockets.append(socket)
        return socket

    def kill(self) -> None:
        """As SIGKILL: everything stops at once; no lease given back, no presence left."""
        for room in self.hub.rooms.values():
            room.closed = True
            room.driver.abandon()
            room.follower.stop()
            room.autoplay.shutdown()
            room.attendance.abandon()
            room.talk.close()
            for conn in list(room.fanout.conns.values()):
                conn.closed = True
        self.hub.rooms.clear()

    async def close(self) -> None:
        rooms = list(self.hub.rooms.values())
        await self.hub.stop()
        for room in rooms:
            await room.driver.released()
            await room.attendance.left()
        await self.store.close()
        if self.own_bus:
            await self.presence.close()
            await self.pubsub.close()


@pytest.fixture(params=["memory", "redis"])
def bus(request: pytest.FixtureRequest) -> str:
    if request.param == "redis":
        reason = _redis_unreachable()
        if reason:
            pytest.skip(reason)
        return REDIS_URL
    return "memory://"


@asynccontextmanager
async def processes(
    tmp_path: Path, bus: str, count: int = 2, lock_wait_s: float = 10.0
) -> AsyncIterator[list[Proc]]:
    shared: tuple[PubSub, Presence] | None = None
    if bus.startswith("memory"):
        shared = (MemoryPubSub(), MemoryPresence())
    procs: list[Proc] = []
    CountingStore.conflicts = 0
    CountingStore.busy_timer_moves = 0
    try:
        for i in range(count):
            store = CountingStore(tmp_path / "dixit.sqlite3", lock_wait_s=lock_wait_s)
            await store.open()
            if shared is None:
                pubsub, presence = open_pubsub(bus), open_presence(bus)
                await pubsub.open()
                await presence.open()
            else:
                pubsub, presence = shared
            config = ServerConfig(
                data_dir=tmp_path, bot_delay_s=0.0, lease_ttl_s=TTL_S, presence_beat_s=BEAT_S
            )
            services = Services(
                config, store, card_source(tmp_path), pubsub, f"proc{i}-{id(store)}", presence
            )
            procs.append(Proc(Hub(services), store, pubsub, presence, shared is None))
        yield procs
    finally:
        for proc in procs:
            await proc.close()


async def until(condition: Callable[[], bool], what: str, timeout_s: float = 30.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


async def until_async(
    condition: Callable[[], Awaitable[bool]], what: str, timeout_s: float = 30.0
) -> None:
    deadline = time.monotonic() + timeout_s
    while not await condition():
        assert time.monotonic() < deadline, f"never: {what}"
        await asyncio.sleep(0.02)


async def create(proc: Proc, others: Sequence[str] = (), **settings: Any) -> tuple[str, list[str]]:
    """A room made on ``proc`` with people joined there: its code and every person's token."""
    request = m.CreateRoomRequest(name="Ann", settings=m.RoomSettings(**settings))
    room, ticket = await proc.hub.create(request)
    tokens = [ticket.token]
    for name in others:
        tokens.append((await proc.hub.join(room.code, m.JoinRoomRequest(name=name))).token)
    return room.code, tokens


async def stored(proc: Proc, code: str) -> list[StoredEvent]:
    return await proc.store.read(f"{code}:1")


def run(main: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(main())  # type: ignore[arg-type]


# ---------------------------------------------------------------------- timers and notices


def test_one_process_fires_each_timer_and_every_seat_gets_every_notice_once(
    tmp_path: Path, bus: str
) -> None:
    """Timers alone play a whole game: Ann and Cy on A, Bo on B."""

    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            timers = {"clue": 1, "submit": 1, "vote": 1}
            code, (ann, bo, cy) = await create(
                a, ["Bo", "Cy"], first_storyteller="host", max_rounds=1, timers=timers
            )
            sockets = [await a.connect(code, ann), await b.connect(code, bo)]
            sockets.append(await a.connect(code, cy))
            assert (await sockets[0].send("start_game"))["type"] == "ack"
            room_a, room_b = await a.room(code), await b.room(code)
            await until(
                lambda: room_a.data.status == "over" and room_b.data.status == "over",
                "the timers played the game to its end",
            )
            events = await stored(a, code)
            timer_moves = [e.actor for e in events if e.actor and e.actor.startswith("timer:")]
            assert sorted(timer_moves) == ["timer:p1", "timer:p2", "timer:p3"]  # once each
            expected = [
                ("timer/auto_played", "p1"),
                ("seat/autoplayed", "p1"),
                ("timer/auto_played", "p2"),
                ("seat/autoplayed", "p2"),
                ("timer/auto_played", "p3"),
                ("seat/autoplayed", "p3"),
            ]

            def everyone_told() -> bool:
                return all(len(s.notices()) >= len(expected) for s in sockets)

            await until(everyone_told, "every socket got every notice")
            await asyncio.sleep(0.3)  # a second copy would have come by now
            for socket in sockets:
                got = socket.notices()
                assert sorted(got) == sorted(expected), (socket.conn.seat, got)
            # One process at a time played for the late: none ever met the other's write.
            assert CountingStore.conflicts == 0
            assert room_a.driver.gains + room_b.driver.gains >= 1

    run(main)


def test_computer_players_act_once_per_phase_and_the_lease_moves_when_its_holder_dies(
    tmp_path: Path, bus: str
) -> None:
    """Ann and three computers; Ann on A, a spectator on B (both have the room loaded). The
    driver is killed mid-game (no lease given back): the other takes over and finishes."""

    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            code, (ann,) = await create(
                a,
                [],
                bots=3,
                first_storyteller="host",
                max_rounds=3,
                timers={"clue": 1, "submit": 1, "vote": 1},
            )
            watcher = await b.hub.spectate(code)
            await a.connect(code, ann)
            await b.connect(code, watcher.token)
            room_a, room_b = await a.room(code), await b.room(code)
            assert (await a.sockets[0].send("start_game"))["type"] == "ack"

            async def holder() -> str | None:
                lease = await a.store.lease(lease_name(code))
                return None if lease is None else lease.holder

            await until_async(lambda: _is_some(holder()), "somebody drives the room")
            await until(lambda: len(room_a.log) >= 5, "the game is under way")
            # (On a busy machine the lease may already have moved once: renewals that lag
            # past its time to live give it up. Kill whoever holds it now.)
            driver, other = (a, b) if await holder() == a.origin else (b, a)
            other_room = room_b if other is b else room_a
            driver.kill()

            async def taken_over() -> bool:
                return await holder() == other.origin

            await until_async(taken_over, "the lease moved to the survivor")
            await until(lambda: other_room.data.status == "over", "the survivor finished the game")
            assert other_room.driver.gains >= 1
            events = await stored(other, code)
            # Every move once: one storyteller clue, one submission and one vote per player
            # and round, whoever played it (the engine refuses a second; a second driver
            # would have met version conflicts instead of writing).
            kinds: dict[tuple[str, str], int] = {}
            for event in events:
                if event.actor is not None:
                    key = (event.data["type"], event.actor)
                    kinds[key] = kinds.get(key, 0) + 1
            assert all(n <= 3 for n in kinds.values()), kinds
            assert CountingStore.conflicts == 0

    run(main)


async def _is_some(value: Awaitable[str | None]) -> bool:
    return await value is not None


# ---------------------------------------------------------------------- store errors


def test_a_held_sqlite_lock_delays_the_timer_but_never_stops_it(tmp_path: Path) -> None:
    """An outside writer holds the SQLite lock across the deadline: writes fail with
    store/busy meanwhile (lease renewals too); once it lets go the timer still plays."""

    async def main() -> None:
        async with processes(tmp_path, "memory://", count=1, lock_wait_s=0.2) as (a,):
            code, (ann, _bo, _cy) = await create(
                a, ["Bo", "Cy"], first_storyteller="host", timers={"clue": 1}
            )
            ann_socket = await a.connect(code, ann)
            room = await a.room(code)
            assert (await ann_socket.send("start_game"))["type"] == "ack"
            await until(lambda: room.driver.driving, "the room is driven")
            assert room.data.deadline is not None

            released = threading.Event()
            held = threading.Event()

            def hold_the_lock() -> None:
                db = sqlite3.connect(tmp_path / "dixit.sqlite3", isolation_level=None)
                db.execute("BEGIN IMMEDIATE")
                held.set()
                released.wait(30)
                db.execute("ROLLBACK")
                db.close()

            holder = threading.Thread(target=hold_the_lock)
            holder.start()
            try:
                await asyncio.to_thread(held.wait, 10)
                # Past the deadline, and past the lease's time: nothing could be written.
                at = room.data.deadline.at_ms / 1000
                while time.time() < at + TTL_S * 3:
                    await asyncio.sleep(0.05)
                assert not [e for e in await stored(a, code) if e.actor == "timer:p1"]
            finally:
                released.set()
                await asyncio.to_thread(holder.join)

            await until(
                lambda: ("timer/auto_played", "p1") in ann_socket.notices(),
                "the timer played once the lock was free",
            )
            timer_moves = [e for e in await stored(a, code) if e.actor == "timer:p1"]
            assert len(timer_moves) == 1

    run(main)


def test_a_store_error_on_the_timer_move_is_tried_again(tmp_path: Path) -> None:
    """The lease stays fine; the timer's own write fails three times: it is tried again
    (backing off) until it is stored, once."""

    async def main() -> None:
        async with processes(tmp_path, "memory://", count=1) as (a,):
            code, (ann, _bo, _cy) = await create(
                a, ["Bo", "Cy"], first_storyteller="host", timers={"clue": 1}
            )
            ann_socket = await a.connect(code, ann)
            CountingStore.busy_timer_moves = 3
            assert (await ann_socket.send("start_game"))["type"] == "ack"
            await until(
                lambda: ("timer/auto_played", "p1") in ann_socket.notices(),
                "the timer played after the store let it",
            )
            assert CountingStore.busy_timer_moves == 0
            timer_moves = [e for e in await stored(a, code) if e.actor == "timer:p1"]
            assert len(timer_moves) == 1
            assert ann_socket.notices().count(("timer/auto_played", "p1")) == 1

    run(main)


# ---------------------------------------------------------------------- presence


def test_connected_flags_agree_on_both_processes(tmp_path: Path, bus: str) -> None:
    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            code, (ann, bo, _cy) = await create(a, ["Bo", "Cy"])
            await a.connect(code, ann)
            bo_socket = await b.connect(code, bo)
            room_a, room_b = await a.room(code), await b.room(code)

            def flags(room: Room) -> dict[str, bool]:
                return {s.id: s.connected for s in room.room_state().seats}

            want = {"p1": True, "p2": True, "p3": False}
            await until(lambda: flags(room_a) == flags(room_b) == want, "both see Ann and Bo")
            # A's sockets were told that Bo (on B) is connected.
            last = a.sockets[0].messages("room")[-1]["room"]
            assert [s["connected"] for s in last["seats"]] == [True, True, False]

            room_b.detach(bo_socket.conn)
            want = {"p1": True, "p2": False, "p3": False}
            await until(lambda: flags(room_a) == flags(room_b) == want, "both see Bo gone")

    run(main)


def test_a_seat_connecting_on_another_process_closes_its_old_socket(
    tmp_path: Path, bus: str
) -> None:
    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            code, (ann, bo) = await create(a, ["Bo"])
            old = await a.connect(code, ann)
            other = await a.connect(code, bo)
            await asyncio.sleep(0.2)  # Ann's first socket is known everywhere
            new = await b.connect(code, ann)
            await until(lambda: old.wire.closed, "Ann's socket on A was closed")
            closed = old.messages("closed")
            assert [c["code"] for c in closed] == ["auth/replaced"]
            assert not new.wire.closed and not new.messages("closed")
            assert not other.wire.closed
            room_a, room_b = await a.room(code), await b.room(code)
            assert old.conn.id not in room_a.fanout.conns
            await asyncio.sleep(0.3)
            assert {s.id: s.connected for s in room_a.room_state().seats} == {
                "p1": True,
                "p2": True,
            }
            assert room_b.online() == {"p1", "p2"}

    run(main)
