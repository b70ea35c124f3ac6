"""All rooms of this process: creating, finding (loading from the store), limits."""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import logging
import secrets

from dixit.engine import GameError
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.storage import RoomRecord, VersionConflict

from . import lobby
from .errors import ServerError
from .records import RoomRecordData
from .room import Room, Services
from .rules import rules_from_settings
from .tokens import new_room_code, new_token, normalise_code, token_hash

log = logging.getLogger("dixit.server")


class Hub:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Task[Room | None]] = {}

    async def start(self) -> None:
        """Load every game in progress so that its timers and computer players carry on."""
        # CPython's full collections walk every live object: at 1,000 games (4,000 sockets,
        # every game's log) one took 0.5-0.7 s, stopping the whole server (gc.callbacks, see
        # docs/benchmarks.md). Rooms free their objects by reference counting and make few
        # cycles, so collecting far less often costs little memory and makes those pauses rare.
        gc.set_threshold(10_000, 10, 100)
        for code in await self.services.store.room_codes():
            data = await self.services.store.load_room(code)
            if data is not None and data.get("status") == "playing":
                await self.get(code)

    async def stop(self) -> None:
        for room in self.rooms.values():
            room.shutdown()

    async def get(self, code: str) -> Room | None:
        code = normalise_code(code)
        room = self.rooms.get(code)
        if room is not None:
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
        room = Room(RoomRecordData.from_json(stored), self.services)
        await room.load()
        await room.listen()
        self.rooms[code] = room
        return room

    async def require(self, code: str) -> Room:
        room = await self.get(code)
        if room is None:
            raise ServerError(Code.ROOM_NOT_FOUND, f"no room {normalise_code(code)!r}", 404)
        return room

    def _check_capacity(self) -> None:
        if len(self.rooms) >= self.services.config.limits.max_rooms:
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
        data = RoomRecordData(
            code="", seed=secrets.randbits(63), settings=settings.model_dump(mode="json")
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
        self.rooms[code] = room
        return room, _ticket(code, token, "player", seat.id)

    def _fresh_code(self) -> str:
        """A code no loaded room has; the store's write (expected version 0) makes sure no
        stored room has it either."""
        while True:
            code = new_room_code()
            if code not in self.rooms:
                return code

    async def join(self, code: str, request: m.JoinRoomRequest) -> m.SeatTicket:
        room = await self.require(code)
        token = new_token()
        hashed = token_hash(token)
        seats: list[str] = []

        def seated(data: RoomRecordData) -> RoomRecordData:
            # Decided again on the fresh record when another process wrote first.
            limit = rules_from_settings(room.settings).max_players
            new, seat = lobby.add_person(data, request.name, request.colour, hashed, limit)
            seats.append(seat.id)
            return new

        async with room.lock:
            await room.commit(seated)
        return _ticket(room.code, token, "player", seats[-1])

    async def spectate(self, code: str) -> m.SeatTicket:
        room = await self.require(code)
        token = new_token()
        hashed, limit = token_hash(token), self.services.config.limits.max_spectators
        async with room.lock:
            await room.commit(lambda data: lobby.add_spectator(data, hashed, limit))
        return _ticket(room.code, token, "spectator", None)

    def host_of_token(self, token: str) -> bool:
        """Is ``token`` the host's of a loaded room (who may upload decks)?"""
        hashed = token_hash(token)
        for room in self.rooms.values():
            host = room.data.seat(room.data.host) if room.data.host else None
            if host is not None and host.token_hash == hashed:
                return True
        return False


def _ticket(code: str, token: str, role: m.Role, seat: str | None) -> m.SeatTicket:
    return m.SeatTicket(
        code=code, token=token, role=role, seat=seat, url=f"/r/{code}", ws=f"/ws/{code}"
    )
