"""The event store interface: append-only streams with an expected-version check.

A stream is one game (``ROOMCODE:game_number``); its events are numbered 1, 2, … exactly like
the engine's ``GameState.version``. ``append`` writes a command's events, the command id that
caused them and (optionally) the room record in one transaction, and fails with
:class:`VersionConflict` when the stream is not at ``expected_version`` — so two writers never
both win. Events and room records are plain JSON-ready dicts: this package knows no game types.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

JSONDict = dict[str, Any]


class StorageError(Exception):
    """A store failure with a stable code; nothing was written unless the message says the
    outcome is unknown. Subclasses tell a caller whether waiting and retrying can help."""

    code = "store/error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class StoreUnavailable(StorageError):
    """The database cannot be reached (down, restarting, refusing connections)."""

    code = "store/unavailable"


class StoreBusy(StorageError):
    """Another writer held the database lock too long (SQLite ``database is locked``), or too
    many writes are already waiting for it."""

    code = "store/busy"


class StoreFull(StorageError):
    """The disk (or the database's size limit) is full."""

    code = "store/disk_full"


class VersionConflict(Exception):
    """The stream moved on since the writer read it; nothing was written."""

    def __init__(self, stream: str, expected: int, actual: int | None = None) -> None:
        super().__init__(f"stream {stream!r}: expected version {expected}, found {actual}")
        self.stream = stream
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True, slots=True)
class StoredEvent:
    version: int
    data: JSONDict
    command_id: str | None  # set on the first event a command produced
    actor: str | None  # the seat (or "server") whose command it was


@dataclass(frozen=True, slots=True)
class RoomRecord:
    code: str
    data: JSONDict


EventRow = tuple[str, int, Any, str | None, str | None]


def event_rows(
    stream: str,
    expected_version: int,
    events: Sequence[JSONDict],
    command_id: str | None,
    actor: str | None,
    encode: Callable[[JSONDict], Any],
) -> list[EventRow]:
    """Rows (stream, version, data, command id, actor) for an append. The command's id and actor
    go on its first event only: that is what rejoin and de-duplication read back."""
    return [
        (
            stream,
            expected_version + i + 1,
            encode(data),
            command_id if i == 0 else None,
            actor if i == 0 else None,
        )
        for i, data in enumerate(events)
    ]


class EventStore(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

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
        """Append ``events`` after ``expected_version``; return the new version."""
        ...

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        """Events with version > ``after``, oldest first."""
        ...

    async def save_room(self, room: RoomRecord) -> None: ...

    async def load_room(self, code: str) -> JSONDict | None: ...

    async def room_codes(self) -> list[str]:
        """Every stored room, oldest first."""
        ...
