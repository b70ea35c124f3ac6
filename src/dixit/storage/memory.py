"""An in-process event store (tests, throwaway servers): same contract, nothing survives."""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence

from .base import JSONDict, RoomRecord, StoredEvent, VersionConflict


class MemoryEventStore:
    def __init__(self) -> None:
        self._streams: dict[str, list[StoredEvent]] = {}
        self._rooms: dict[str, str] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
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
    ) -> int:
        log = self._streams.setdefault(stream, [])
        if len(log) != expected_version:
            raise VersionConflict(stream, expected_version, len(log))
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
            self._rooms[room.code] = json.dumps(room.data)
        return len(log)

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        return list(self._streams.get(stream, [])[after:])

    async def save_room(self, room: RoomRecord) -> None:
        self._rooms[room.code] = json.dumps(room.data)

    async def load_room(self, code: str) -> JSONDict | None:
        text = self._rooms.get(code)
        return None if text is None else dict(json.loads(text))

    async def room_codes(self) -> list[str]:
        return list(self._rooms)
