"""All rooms of this process: creating, finding (loading from the store), limits.

Only live rooms are held in memory. A room is loaded when something asks for it (a socket, an
HTTP join, a look at its state) and unloaded (:meth:`Room.shutdown`) once nobody has used it for
``idle_unload_s`` seconds (``finished_unload_s`` for a room whose game is over): no socket, no
socket on its way in, its lock free. The store keeps everything, so a room loads again with all
its state; a phase deadline that passed meanwhile plays as soon as it loads (autoplay reads the
stored deadline). ``--max-rooms`` counts live rooms: when it is reached, idle rooms are unloaded
first (the longest idle first), and only then is a new room refused.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import dataclasses
import functools
import gc
import logging
import secrets
import time
from collections.abc import AsyncIterator, Collection

from dixit.engine import GameError
from dixit.infra.handoff import owner
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.storage import RoomRecord, VersionConflict

from . import lobby
from .deck_access import may_choose
from .errors import ServerError
from .records import RoomRecordData, RoomStatus, room_settings
from .room import Room
from .rules import rules_from_settings
from .services import Services
from .tokens import new_room_code, new_token, normalise_code, token_hash

log = logging.getLogger("dixit.server")


class Hub:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Task[Room | None]] = {}
        self._used: dict[str, float] = {}  # live room -> when it was last in use (monotonic)
        self._holds: dict[str, int] = {}  # live room -> sockets holding it (hold .. release)
        # Rooms' hosts, for deck uploads from a host whose room is not loaded: the first 64
        # bits of a token hash -> room code (a candidate only; the stored record decides).
        self._hosts: dict[int, str] = {}
        self._hosts_read = False  # every stored room's host is in _hosts
        self._hosts_lock = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Start unloading idle rooms. Nothing is loaded now: a room loads when asked for."""
        # CPython's full collections walk every live object: at 1,000 games (4,000 sockets,
        # every game's log) one took 0.5-0.7 s, stopping the whole server (gc.callbacks, see
        # docs/benchmarks.md). Rooms free their objects by reference counting (no cycles: an
        # unloaded room goes at once), so full and middle collections can be rare: one middle
        # (gen1) pass per 100,000 allocations, as many of those per full one as by default. A
        # young (gen0) pass costs in proportion to the young objects, most of them still alive
        # (every socket's pending receive, ~4 references each, mostly cache misses): at 1,000
        # games 10,000 allocations left 25-75k young objects and a 30-70 ms pass; 2,000 makes
        # it a fifth (6-7 ms) for the same total.
        gc.set_threshold(2_000, 50, 100)
        # What start-up made (modules, schemas, decks: ~70k objects) lives as long as the
        # process: out of the collector's sight, a full collection walks only the rooms'. No
        # collection first: it found no garbage and took 0.17-0.2 s of a restart's way to
        # /api/health (#30, docs/benchmarks.md).
        gc.freeze()
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        for room in list(self.rooms.values()):
            self._unload(room)

    # ------------------------------------------------------------------ live rooms

    async def get(self, code: str) -> Room | None:
        """The live room ``code``, loaded from the store if need be; None: no such room.
        Raises ``limit/rooms`` (503) when it is not loaded and every live room is in use."""
        code = normalise_code(code)
        room = self.rooms.get(code)
        if room is not None:
            self._used[code] = time.monotonic()
            return room
        if not code.isalnum() or len(code) > 12:
            return None
        task = self._loading.get(code)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._load(code))
            self._loading[code] = task
        try:
            return await asyncio.shield(task)
        finally:
            self._loading.pop(code, None)

    async def _load(self, code: str) -> Room | None:
        stored = await self.services.store.load_room(code)
        if stored is None:
            return None
        self._check_capacity()
        room = Room(RoomRecordData.from_json(stored), self.services)
        try:
            # Subscribed before reading: a change another process makes from then on is
            # heard (under --workers, a change note is cast only to rooms another worker
            # has subscribed to), and the notes wait for the lock until the room is read.
            async with room.lock:
                await room.listen()
                await room.load()
        except BaseException:
            room.shutdown()
            raise
        self._add(room)
        return room

    def _add(self, room: Room) -> None:
        """A room is live: it counts against ``--max-rooms`` and is swept when idle."""
        self.rooms[room.code] = room
        self._used[room.code] = time.monotonic()
        self._remember_host(room)

    async def hold(self, code: str) -> Room | None:
        """The live room ``code`` (None: no such room), kept loaded until :meth:`release`:
        what a socket holds from before its ``hello`` until it closes."""
        room = await self.get(code)
        for _ in range(3):  # unloaded between its loading and now (capacity): load it again
            if room is None or not room.closed:
                break
            room = await self.get(code)
        if room is not None:
            self._holds[room.code] = self._holds.get(room.code, 0) + 1
        return room

    def release(self, room: Room) -> None:
        key = room.code
        left = self._holds.get(key, 0) - 1
        if left > 0:
            self._holds[key] = left
        else:
            self._holds.pop(key, None)
        if self.rooms.get(key) is room:
            self._used[key] = time.monotonic()

    @contextlib.asynccontextmanager
    async def use(self, code: str) -> AsyncIterator[Room | None]:
        """:meth:`hold` and :meth:`release` around a block."""
        room = await self.hold(code)
        try:
            yield room
        finally:
            if room is not None:
                self.release(room)

    @contextlib.asynccontextmanager
    async def _held(self, code: str) -> AsyncIterator[Room]:
        """:meth:`use` for a lobby request: the room stays loaded while it waits for the lock
        and writes; no such room is an error."""
        async with self.use(code) as room:
            if room is None:
                raise ServerError(Code.ROOM_NOT_FOUND, f"no room {normalise_code(code)!r}", 404)
            yield room

    def _in_use(self, room: Room) -> bool:
        """Sockets, a socket on its way in, or a command or timer at work right now."""
        return bool(room.fanout.conns) or room.code in self._holds or room.lock.locked()

    def _unload(self, room: Room) -> None:
        """Take a room out of memory (the store keeps it). The caller has checked that its
        lock is free, and this runs without a pause: nothing else can take the lock meanwhile,
        and once the room is marked closed and gone from ``rooms``, ``get`` loads a fresh one."""
        code = room.code
        if self.rooms.get(code) is room:
            del self.rooms[code]
            self._used.pop(code, None)
        self._remember_host(room)
        room.shutdown()

    def sweep(self, now: float | None = None) -> int:
        """Unload the rooms nobody has used for their idle time; how many were unloaded."""
        now = time.monotonic() if now is None else now
        config = self.services.config
        unloaded = 0
        for code, room in list(self.rooms.items()):
            if self._in_use(room):
                self._used[code] = now
                continue
            limit = (
                config.finished_unload_s
                if room.data.status == RoomStatus.OVER
                else config.idle_unload_s
            )
            if config.workers > 1 and owner(code, config.workers) != config.worker:
                limit = min(limit, OTHER_WORKERS_S)  # loaded for a lobby request only
            if now - self._used.get(code, now) >= limit:
                self._unload(room)
                unloaded += 1
        return unloaded

    async def _sweep_forever(self) -> None:
        config = self.services.config
        every = min(5.0, max(0.02, min(config.idle_unload_s, config.finished_unload_s) / 4))
        trimmed = time.monotonic()
        while True:
            await asyncio.sleep(every)
            try:
                self.sweep()
            except Exception:  # never stop sweeping
                log.exception("could not unload idle rooms")
            if time.monotonic() - trimmed >= TRIM_EVERY_S:
                trimmed = time.monotonic()
                _trim()

    async def require(self, code: str) -> Room:
        room = await self.get(code)
        if room is None:
            raise ServerError(Code.ROOM_NOT_FOUND, f"no room {normalise_code(code)!r}", 404)
        return room

    def _check_capacity(self) -> None:
        """Room for one more live room: unload idle ones if need be (finished games first, then
        the longest idle), else ``limit/rooms`` (503)."""
        limit = self.services.config.limits.max_rooms
        if len(self.rooms) < limit:
            return
        idle = [room for room in self.rooms.values() if not self._in_use(room)]
        idle.sort(key=lambda r: (r.data.status != RoomStatus.OVER, self._used.get(r.code, 0.0)))
        for room in idle[: len(self.rooms) - limit + 1]:
            self._unload(room)
        if len(self.rooms) >= limit:
            raise ServerError(Code.ROOMS, "this server is full; try again later", 503)

    async def create(self, request: m.CreateRoomRequest) -> tuple[Room, m.SeatTicket]:
        self._check_capacity()
        settings = request.settings
        try:
            rules = rules_from_settings(settings)
        except GameError as error:
            raise ServerError(Code(error.code), error.message) from None
        if settings.bots + 1 > rules.max_players:
            raise ServerError(Code.ROOM_FULL, f"at most {rules.max_players} seats")
        try:
            self.services.cards.card_ids(list(settings.decks))
        except Exception as error:
            raise ServerError(Code.UNKNOWN_DECK, f"unknown deck {error}") from None
        if not may_choose(self.services.cards.decks(), settings.decks, None):
            raise ServerError(Code.UNKNOWN_DECK, "unknown deck: choose an upload in the lobby")
        data = RoomRecordData(
            code="",
            seed=secrets.randbits(63),
            settings=room_settings(settings.model_dump(mode="json")),
        )
        token = new_token()
        data, seat = lobby.add_person(
            data, request.name, request.colour, token_hash(token), rules.max_players
        )
        for _ in range(settings.bots):
            data, _ = lobby.add_computer(data, m.DEFAULT_BOT_LEVEL, rules.max_players)
        for _ in range(20):  # a code another process took meanwhile: draw again
            data = dataclasses.replace(data, code=self._fresh_code())
            record = RoomRecord(data.code, data.to_json())
            try:
                version = await self.services.store.put_room(record, 0)
            except VersionConflict:
                continue
            break
        else:
            raise ServerError(Code.ROOMS, "could not find a free room code", 503)
        code = data.code
        room = Room(data, self.services, version)
        await room.listen()
        self._add(room)
        return room, _ticket(code, token, "player", seat.id)

    def _fresh_code(self) -> str:
        """A code no loaded room has; the store's write (expected version 0) makes sure no
        stored room has it either."""
        while True:
            code = new_room_code()
            if code not in self.rooms:
                return code

    async def join(
        self, code: str, request: m.JoinRoomRequest, held: Collection[str] = ()
    ) -> m.SeatTicket:
        """A seat for a person; ``held``: hashes of the tokens they show (a kicked one refuses)."""
        token = new_token()
        hashed = token_hash(token)
        seats: list[str] = []
        async with self._held(code) as room:

            def seated(data: RoomRecordData) -> RoomRecordData:
                # Decided again on the fresh record when another process wrote first.
                limit = rules_from_settings(room.settings).max_players
                new, seat = lobby.add_person(
                    data, request.name, request.colour, hashed, limit, held
                )
                seats.append(seat.id)
                return new

            async with room.lock:
                await room.commit(seated)
        return _ticket(room.code, token, "player", seats[-1])

    async def spectate(self, code: str, held: Collection[str] = ()) -> m.SeatTicket:
        token = new_token()
        hashed, limit = token_hash(token), self.services.config.limits.max_spectators
        async with self._held(code) as room, room.lock:
            await room.commit(lambda data: lobby.add_spectator(data, hashed, limit, held))
        return _ticket(room.code, token, "spectator", None)

    # ------------------------------------------------------------------ hosts (deck uploads)

    async def host_of_token(self, token: str) -> bool:
        """Is ``token`` the host's of a room (who may upload decks), loaded or not?"""
        hashed = token_hash(token)
        for room in self.rooms.values():
            if _host_hash(room.data) == hashed:
                return True
        code = self._hosts.get(_host_key(hashed))
        if code is None and not self._hosts_read:
            await self._read_hosts()
            code = self._hosts.get(_host_key(hashed))
        if code is None:
            return False
        live = self.rooms.get(code)
        if live is not None:
            return _host_hash(live.data) == hashed
        stored = await self.services.store.load_room(code)
        return stored is not None and _host_hash(RoomRecordData.from_json(stored)) == hashed

    def _remember_host(self, room: Room) -> None:
        """Keep the index of hosts whole once it has been read (until then it is empty: a
        server that never sees a host's token for a room not in memory keeps no index)."""
        hashed = _host_hash(room.data) if self._hosts_read else None
        if hashed is not None:
            self._hosts[_host_key(hashed)] = room.code

    async def _read_hosts(self) -> None:
        """Once, on the first token no room in memory knows: every stored room's host."""
        async with self._hosts_lock:
            if self._hosts_read:
                return
            store = self.services.store
            for code in await store.room_codes():
                stored = await store.load_room(code)
                hashed = _host_hash(RoomRecordData.from_json(stored)) if stored else None
                if hashed is not None:
                    self._hosts.setdefault(_host_key(hashed), code)
            self._hosts_read = True


# Under --workers, a room another worker serves the sockets of, loaded here for a lobby
# request, leaves memory after this long unused (each change there would be read here too).
OTHER_WORKERS_S = 5.0

# The C heap's free pages go back to the system this often: what unloaded rooms and the
# messages of live games freed would otherwise stay resident (1,000 live games: about 9 KiB a
# game less; a trim took 0.3 ms there).
TRIM_EVERY_S = 30.0


def _trim() -> None:
    """Hand the C heap's free pages back to the system (glibc ``malloc_trim``): what unloaded
    rooms freed would otherwise stay in the process's resident memory. Elsewhere: nothing."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)


@functools.cache
def _libc() -> ctypes.CDLL | None:
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        return libc
    except (OSError, AttributeError):
        return None


def _host_hash(data: RoomRecordData) -> str | None:
    seat = data.seat(data.host) if data.host else None
    return seat.token_hash if seat is not None and seat.token_hash else None


def _host_key(hashed: str) -> int:
    return int(hashed[:16], 16)


def _ticket(code: str, token: str, role: m.Role, seat: str | None) -> m.SeatTicket:
    return m.SeatTicket(
        code=code, token=token, role=role, seat=seat, url=f"/r/{code}", ws=f"/ws/{code}"
    )
