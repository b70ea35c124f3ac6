"""Several server "processes" in one test process: hubs with their own origin and their own
connection to one real SQLite file, sharing a fan-out and presence (the in-process one, the very
same objects, as one machine's broker would be; or Redis at a URL). Sockets are stand-ins that
keep what the server sends. Self-contained (tests/ops loads it by path)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dixit.protocol import messages as m
from dixit.protocol import parse_client_message
from dixit.pubsub import MemoryPresence, MemoryPubSub, Presence, PubSub, open_presence, open_pubsub
from dixit.server.cards import card_source
from dixit.server.config import ServerConfig
from dixit.server.connection import Connection
from dixit.server.hub import Hub
from dixit.server.room import Room
from dixit.server.services import Services
from dixit.server.tokens import token_hash
from dixit.storage import (
    JSONDict,
    Lease,
    SQLiteEventStore,
    StoreBusy,
    StoredEvent,
    VersionConflict,
)

TTL_S = 1.5  # the driver's lease: a dead holder is replaced within about this
BEAT_S = 0.2  # presence beats


class CountingStore(SQLiteEventStore):
    """The real SQLite store, counting the version conflicts met by moves made for a seat by a
    timer or a computer: two processes driving one room at once would meet some."""

    conflicts = 0
    busy_timer_moves = 0  # this many timer moves fail first with store/busy (lock held)
    stale_timer_moves = 0  # this many timer moves fail first as if another process wrote
    busy_renewals = False  # lease renewals fail with store/busy (the lock's queue is full)
    lease_takes = 0  # acquire_lease calls

    async def renew_leases(
        self, names: Sequence[str], holder: str, ttl_s: float
    ) -> dict[str, Lease]:
        if CountingStore.busy_renewals:
            raise StoreBusy("512 writes already wait for the database lock (the test)")
        return await super().renew_leases(names, holder, ttl_s)

    async def acquire_lease(
        self, name: str, holder: str, ttl_s: float, *, over: str | None = None
    ) -> Lease | None:
        CountingStore.lease_takes += 1
        return await super().acquire_lease(name, holder, ttl_s, over=over)

    async def append(
        self, stream: str, expected_version: int, events: Sequence[JSONDict], **kw: Any
    ) -> int:
        if CountingStore.busy_timer_moves and (kw.get("actor") or "").startswith("timer:"):
            CountingStore.busy_timer_moves -= 1
            raise StoreBusy("database is locked (held by the test)")
        if CountingStore.stale_timer_moves and (kw.get("actor") or "").startswith("timer:"):
            CountingStore.stale_timer_moves -= 1
            raise VersionConflict(stream, expected_version)
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

    def send_text(self, text: str) -> bool:
        if self.closed:
            return False
        self.texts.append(text)
        return True

    def close(self) -> None:
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
    def holder(self) -> str:
        """Its name on the leases it holds."""
        return self.hub.services.holder

    async def room(self, code: str) -> Room:
        return await self.hub.require(code)

    async def connect(self, code: str, token: str) -> Socket:
        room = await self.room(code)
        wire = Wire()
        conn = Connection(wire, self.hub.services.config.limits)
        who = room.authenticate(token)
        assert who is not None
        _, conn.seat = who
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


@asynccontextmanager
async def processes(
    tmp_path: Path, bus: str, count: int = 2, lock_wait_s: float = 10.0
) -> AsyncIterator[list[Proc]]:
    shared: tuple[PubSub, Presence] | None = None
    if bus.startswith("memory"):
        shared = (MemoryPubSub(), MemoryPresence(shared=True))
    procs: list[Proc] = []
    CountingStore.conflicts = 0
    CountingStore.busy_timer_moves = 0
    CountingStore.stale_timer_moves = 0
    CountingStore.busy_renewals = False
    CountingStore.lease_takes = 0
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
