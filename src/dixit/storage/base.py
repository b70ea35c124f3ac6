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


class DuplicateCommand(Exception):
    """This command (room, seat, command id) was applied before; nothing was written."""

    code = "command/duplicate"

    def __init__(self, room: str, actor: str, command_id: str) -> None:
        super().__init__(f"room {room!r}: {actor}'s command {command_id!r} was already applied")
        self.room = room
        self.actor = actor
        self.command_id = command_id


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


@dataclass(frozen=True, slots=True)
class VersionedRoom:
    """A room record and its version: 1 when created, one more for every write of it."""

    data: JSONDict
    version: int


@dataclass(frozen=True, slots=True)
class StaleRoom:
    """A room record not written since ``updated`` (Unix time), with its version."""

    code: str
    data: JSONDict
    version: int
    updated: float


@dataclass(frozen=True, slots=True)
class StoreStats:
    """What a store holds: room records by ``status``, events, and bytes on disk (``used``
    of ``size``: the rest is free space the database reuses)."""

    rooms: dict[str, int]
    events: int
    size_bytes: int
    used_bytes: int


@dataclass(frozen=True, slots=True)
class CommandKey:
    """Who sent which command: the durable de-duplication key within a room."""

    actor: str
    command_id: str


@dataclass(frozen=True, slots=True)
class Lease:
    """``holder`` drives ``name`` until ``ttl_s`` after its last renewal. ``epoch`` grows with
    every new holder (or a holder's return after expiry): a fencing token a write can carry.

    ``valid_until`` is on this process's ``time.monotonic()`` clock: the call's start plus the
    time to live. The store's own expiry cannot come sooner (its clock started later), so a
    holder that acts only while ``time.monotonic() < valid_until`` never overlaps the next one
    — whatever happened to its renewals (a database outage, a paused process)."""

    name: str
    holder: str
    epoch: int
    ttl_s: float
    valid_until: float


def room_stream(code: str) -> str:
    """The name a room record's :class:`VersionConflict` carries."""
    return f"room:{code}"


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
        room_version: int | None = None,
    ) -> int:
        """Append ``events`` after ``expected_version``; return the new version. With
        ``room`` the record is written in the same transaction; with ``room_version`` too, only
        if the record is still at that version (else :class:`VersionConflict`, nothing
        written)."""
        ...

    async def read(self, stream: str, after: int = 0) -> list[StoredEvent]:
        """Events with version > ``after``, oldest first."""
        ...

    async def load_room(self, code: str) -> JSONDict | None: ...

    async def get_room(self, code: str) -> VersionedRoom | None:
        """The record with its version, for a later :meth:`put_room`."""
        ...

    async def put_room(
        self, room: RoomRecord, expected_version: int, *, command: CommandKey | None = None
    ) -> int:
        """Write the record if it is still at ``expected_version`` (0: it must not exist yet)
        and return its new version; else :class:`VersionConflict`. With ``command``, record
        that command as applied in the same transaction, or fail with
        :class:`DuplicateCommand` if it was already."""
        ...

    async def command_applied(self, room: str, command: CommandKey) -> bool:
        """Whether ``command`` was recorded by a :meth:`put_room` of ``room``."""
        ...

    async def acquire_lease(
        self, name: str, holder: str, ttl_s: float, *, over: str | None = None
    ) -> Lease | None:
        """Take (or renew) the lease ``name`` unless another holder's is unexpired; None then.
        Expiry runs on the database's clock, shared by every process. ``over``: a holder known
        to be dead, whose unexpired lease is taken over too (if it still holds it)."""
        ...

    async def renew_leases(
        self, names: Sequence[str], holder: str, ttl_s: float
    ) -> dict[str, Lease]:
        """Extend every one of ``holder``'s unexpired leases ``names`` in one write; those
        missing from the answer expired or moved (stop driving them)."""
        ...

    async def release_lease(self, name: str, holder: str) -> None:
        """Give the lease up at once (if ``holder`` still has it)."""
        ...

    async def stale_rooms(
        self, status: str, updated_before: float, limit: int, *, first_game: bool = False
    ) -> list[StaleRoom]:
        """Room records whose ``status`` field is ``status`` (and, with ``first_game``, whose
        ``game_number`` is 1) not written since ``updated_before`` (Unix time), oldest first."""
        ...

    async def delete_room(self, code: str, expected_version: int, streams: Sequence[str]) -> bool:
        """Delete a room record still at ``expected_version``, with the event ``streams`` of
        its games, its command ids, its lease and its reports, in one transaction; False
        (nothing deleted) if it was written meanwhile or is gone."""
        ...

    async def report_table(self, code: str, reporter: str) -> int:
        """A visitor (``reporter``: a hash of their address) reports room ``code``'s open
        table; counted once per reporter. How many reporters it has now. Reports go with the
        room (:meth:`delete_room`)."""
        ...

    async def reported_tables(self, reporters: int) -> list[str]:
        """The rooms reported by at least ``reporters`` reporters."""
        ...

    async def stats(self) -> StoreStats: ...

    async def vacuum(self) -> None:
        """Give the space deleted rows left back to the file system (operators only)."""
        ...

    async def lease(self, name: str) -> Lease | None:
        """The unexpired lease ``name``, whoever holds it (``ttl_s``: time left)."""
        ...

    async def check(self) -> None:
        """Raise a :class:`StorageError` unless the store answers now."""
        ...

    async def room_codes(self) -> list[str]:
        """Every stored room, oldest first."""
        ...
