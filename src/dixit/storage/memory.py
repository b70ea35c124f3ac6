"""An in-process event store (tests, throwaway servers): same contract, nothing survives."""

from __future__ import annotations

import copy
import json
import time
from collections.abc import Sequence

from .base import (
    CommandKey,
    DuplicateCommand,
    JSONDict,
    Lease,
    RoomRecord,
    StaleRoom,
    StoredEvent,
    StoreStats,
    VersionConflict,
    VersionedRoom,
    room_stream,
)


class MemoryEventStore:
    def __init__(self) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._rooms: dict[str, tuple[str, int]] = {}  # code -> (JSON text, version)
        self._commands: set[tuple[str, str, str]] = set()
        self._leases: dict[str, tuple[str, int, float]] = {}  # name -> holder, epoch, expiry
        self._updated: dict[str, float] = {}  # code -> when its record was last written
        self._reports: dict[str, set[str]] = {}  # code -> its reporters

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def check(self) -> None:
        return None

    async def append(
        self,
        stream: str,
        expected_version: int,
        events: Sequence[JSONDict],
        *,
        command_id: str | None = None,
        actor: str | None = None,
        room: RoomRecord | None = None,
        room_version: int | None = None,
    ) -> int:
        log = self._streams.setdefault(stream, [])
        if len(log) != expected_version:
            raise VersionConflict(stream, expected_version, len(log))
        if room is not None and room_version is not None:
            self._check_room(room.code, room_version)
        for i, data in enumerate(events):
            first = i == 0
            log.append(
                StoredEvent(
                    version=expected_version + i + 1,
                    data=copy.deepcopy(data),
                    command_id=command_id if first else None,
                    actor=actor if first else None,
                )
            )
        if room is not None:
            self._write_room(room)
        return len(log)

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        return list(self._streams.get(stream, [])[after:])

    def _check_room(self, code: str, expected: int) -> None:
        current = self._rooms.get(code, ("", 0))[1]
        if current != expected:
            raise VersionConflict(room_stream(code), expected, current)

    def _write_room(self, room: RoomRecord) -> int:
        version = self._rooms.get(room.code, ("", 0))[1] + 1
        self._rooms[room.code] = (json.dumps(room.data), version)
        self._updated[room.code] = time.time()
        return version

    async def load_room(self, code: str) -> JSONDict | None:
        found = await self.get_room(code)
        return None if found is None else found.data

    async def get_room(self, code: str) -> VersionedRoom | None:
        found = self._rooms.get(code)
        return None if found is None else VersionedRoom(dict(json.loads(found[0])), found[1])

    async def put_room(
        self, room: RoomRecord, expected_version: int, *, command: CommandKey | None = None
    ) -> int:
        key = None if command is None else (room.code, command.actor, command.command_id)
        if key in self._commands:
            assert command is not None
            raise DuplicateCommand(room.code, command.actor, command.command_id)
        self._check_room(room.code, expected_version)
        if key is not None:
            self._commands.add(key)
        return self._write_room(room)

    async def command_applied(self, room: str, command: CommandKey) -> bool:
        return (room, command.actor, command.command_id) in self._commands

    async def room_codes(self) -> list[str]:
        return list(self._rooms)

    async def stale_rooms(
        self, status: str, updated_before: float, limit: int, *, first_game: bool = False
    ) -> list[StaleRoom]:
        found = []
        for code in sorted(self._rooms, key=lambda c: self._updated[c]):
            text, version = self._rooms[code]
            data = dict(json.loads(text))
            if self._updated[code] >= updated_before:
                break
            if data.get("status") == status and (not first_game or data.get("game_number") == 1):
                found.append(StaleRoom(code, data, version, self._updated[code]))
            if len(found) >= limit:
                break
        return found

    async def delete_room(self, code: str, expected_version: int, streams: Sequence[str]) -> bool:
        if self._rooms.get(code, ("", 0))[1] != expected_version or code not in self._rooms:
            return False
        del self._rooms[code], self._updated[code]
        for stream in streams:
            self._streams.pop(stream, None)
        self._commands = {c for c in self._commands if c[0] != code}
        self._leases.pop(room_stream(code), None)
        self._reports.pop(code, None)
        return True

    async def report_table(self, code: str, reporter: str) -> int:
        reporters = self._reports.setdefault(code, set())
        reporters.add(reporter)
        return len(reporters)

    async def reported_tables(self, reporters: int) -> list[str]:
        return sorted(code for code, who in self._reports.items() if len(who) >= reporters)

    async def stats(self) -> StoreStats:
        rooms: dict[str, int] = {}
        for text, _ in self._rooms.values():
            status = str(json.loads(text).get("status"))
            rooms[status] = rooms.get(status, 0) + 1
        events = sum(len(log) for log in self._streams.values())
        return StoreStats(rooms, events, 0, 0)

    async def vacuum(self) -> None:
        return None

    async def acquire_lease(
        self, name: str, holder: str, ttl_s: float, *, over: str | None = None
    ) -> Lease | None:
        now = time.monotonic()
        current = self._leases.get(name)
        if current is not None and current[0] not in (holder, over) and current[2] > now:
            return None
        epoch = 1 if current is None else current[1]
        if current is not None and (current[0] != holder or current[2] <= now):
            epoch += 1
        self._leases[name] = (holder, epoch, now + ttl_s)
        return Lease(name, holder, epoch, ttl_s, now + ttl_s)

    async def renew_leases(
        self, names: Sequence[str], holder: str, ttl_s: float
    ) -> dict[str, Lease]:
        now = time.monotonic()
        renewed: dict[str, Lease] = {}
        for name in names:
            current = self._leases.get(name)
            if current is None or current[0] != holder or current[2] <= now:
                continue
            self._leases[name] = (holder, current[1], now + ttl_s)
            renewed[name] = Lease(name, holder, current[1], ttl_s, now + ttl_s)
        return renewed

    async def release_lease(self, name: str, holder: str) -> None:
        current = self._leases.get(name)
        if current is not None and current[0] == holder:
            # Kept expired (not deleted) so that the next holder's epoch is higher.
            self._leases[name] = (holder, current[1], 0.0)

    async def lease(self, name: str) -> Lease | None:
        current = self._leases.get(name)
        now = time.monotonic()
        if current is None or current[2] <= now:
            return None
        return Lease(name, current[0], current[1], current[2] - now, current[2])
