"""A room as it is stored: seats, host, settings, status, timer deadline, who is late and what
was played for them, the opening claim. JSON round-trips, and is typed once, when read: a
seat's kind and computer level, the room's status and the deadline's phase are enums, and the
settings the protocol's frozen :class:`~dixit.protocol.messages.RoomSettings` (one model shared
by every room with the same settings).

Records are immutable: a change builds a new record (:mod:`.lobby`), the store accepts it, and
only then does the room take it (see :meth:`.room.Room.commit`).

Records stored by earlier builds load too: a seat written as flags (``is_bot``, ``bot_kind``,
``left``, ``autoplay``) is read as its :class:`SeatKind` and :class:`BotLevel`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from enum import StrEnum
from typing import Any, Final

from dixit.engine import Phase
from dixit.protocol import messages as m


class SeatKind(StrEnum):
    PERSON = "person"  # a person plays it
    COMPUTER = "computer"  # a computer player's own seat
    AWAY = "away"  # a person's seat the computer plays until they come back
    LEFT = "left"  # its person left during a game: the computer plays it to the end


# Module constants: reading ``SeatKind.PERSON`` goes through an enum descriptor (Python 3.11),
# and every move asks a few seats what they are.
_PERSON: Final = SeatKind.PERSON
_AWAY: Final = SeatKind.AWAY


class BotLevel(StrEnum):
    """A computer player's level (:data:`dixit.protocol.messages.BOT_LEVELS`)."""

    RANDOM = "random"
    EASY = "easy"
    MEDIUM = "medium"
    STRONG = "strong"

    @classmethod
    def parse(cls, text: object) -> BotLevel:
        """The level ``text`` names; the default one for anything else (an unknown level)."""
        return _LEVELS.get(text, _LEVELS[m.DEFAULT_BOT_LEVEL])

    @property
    def wire(self) -> m.BotLevel:
        return _WIRE[self]


_WIRE: dict[BotLevel, m.BotLevel] = {BotLevel(level): level for level in m.BOT_LEVELS}
_LEVELS: dict[object, BotLevel] = {level.value: level for level in BotLevel}


# Settings models by their JSON: rooms with the same settings share one (a model is frozen, and
# ~1.8 KiB each). Bounded: emptied when full, as a record keeps its own reference.
_SETTINGS: dict[str, m.RoomSettings] = {}
_SETTINGS_KEPT = 1024


def room_settings(raw: dict[str, Any]) -> m.RoomSettings:
    """The settings model of a stored record's ``settings``."""
    key = json.dumps(raw, sort_keys=True, separators=(",", ":"))
    settings = _SETTINGS.get(key)
    if settings is None:
        if len(_SETTINGS) >= _SETTINGS_KEPT:
            _SETTINGS.clear()
        settings = _SETTINGS[key] = m.RoomSettings.model_validate(raw)
    return settings


class RoomStatus(StrEnum):
    LOBBY = "lobby"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True)
class SeatRecord:
    id: str
    name: str
    colour: str
    token_hash: str | None  # its person's; None: a computer player's own seat, or a person who left
    kind: SeatKind = SeatKind.PERSON
    level: BotLevel | None = None  # the computer player's while one plays the seat

    @property
    def computer(self) -> bool:
        """A computer player plays this seat now."""
        return self.kind is not _PERSON

    @property
    def person(self) -> bool:
        """A person holds this seat's token (they may be away)."""
        return self.kind is _PERSON or self.kind is _AWAY

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "colour": self.colour,
            "token_hash": self.token_hash,
            "kind": self.kind.value,
            "level": self.level.value if self.level is not None else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatRecord:
        kind = SeatKind(data["kind"]) if "kind" in data else _old_kind(data)
        level = data.get("level", data.get("bot_kind"))
        return cls(
            data["id"],
            data["name"],
            data["colour"],
            data.get("token_hash"),
            kind,
            BotLevel.parse(level) if kind is not SeatKind.PERSON else None,
        )


def _old_kind(data: dict[str, Any]) -> SeatKind:
    """The kind of a seat stored as flags (the ``autoplay`` flag always equalled
    ``is_bot`` with a person's token)."""
    if data.get("left"):
        return SeatKind.LEFT
    if not data.get("is_bot"):
        return SeatKind.PERSON
    return SeatKind.AWAY if data.get("token_hash") is not None else SeatKind.COMPUTER


@dataclass(frozen=True)
class DeadlineRecord:
    phase: Phase
    round: int
    version: int
    at_ms: int
    seconds: int
    bank: bool = False  # the late players draw on their time banks until ``at_ms``


@dataclass(frozen=True)
class PlayedRecord:
    """A move the server made for a person's seat (a timer, or the computer while they were
    away): kept for their account until they say they are back (``here``)."""

    seat: str
    round: int
    phase: str
    clue: str | None = None


@dataclass(frozen=True)
class BankRecord:
    """Milliseconds of their time bank a person has used in this game."""

    seat: str
    used_ms: int


@dataclass(frozen=True)
class ClaimRecord:
    """The opening claim: from ``at_ms`` the computer player ``by`` (if any) tells the first
    clue, unless someone told it first."""

    round: int
    at_ms: int
    by: str | None


@dataclass(frozen=True)
class RevealRecord:
    """A scored round's reveal, held until the people connected have seen it or ``until_ms``."""

    round: int
    until_ms: int
    seen: tuple[str, ...] = ()


@dataclass(frozen=True)
class RoomRecordData:
    code: str
    seed: int
    settings: m.RoomSettings
    status: RoomStatus = RoomStatus.LOBBY
    game_number: int = 1
    host: str | None = None
    seats: tuple[SeatRecord, ...] = ()
    spectators: tuple[str, ...] = ()  # token hashes
    kicked: tuple[str, ...] = ()  # token hashes the host kicked: kept out of this room
    next_seat: int = 1
    deadline: DeadlineRecord | None = None
    reveal: RevealRecord | None = None
    late: tuple[str, ...] = ()  # present people a timer played for, until they act again
    played: tuple[PlayedRecord, ...] = ()
    claim: ClaimRecord | None = None
    banks: tuple[BankRecord, ...] = ()

    def to_json(self) -> dict[str, Any]:
        data = {name: getattr(self, name) for name in _FIELDS}
        data["settings"] = self.settings.model_dump(mode="json")
        data["status"] = self.status.value
        data["seats"] = [s.to_json() for s in self.seats]
        data["spectators"] = list(self.spectators)
        data["kicked"] = list(self.kicked)
        if self.deadline is not None:
            data["deadline"] = {**asdict(self.deadline), "phase": self.deadline.phase.value}
        if self.reveal is not None:
            data["reveal"] = asdict(self.reveal)
        data["late"] = list(self.late)
        data["played"] = [asdict(p) for p in self.played]
        if self.claim is not None:
            data["claim"] = asdict(self.claim)
        data["banks"] = [asdict(b) for b in self.banks]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomRecordData:
        # Fields an older build stored and this one derives (winners, end reason) are dropped.
        data = {k: v for k, v in data.items() if k in _FIELDS}
        data["settings"] = room_settings(data.get("settings") or {})
        data["status"] = RoomStatus(data.get("status", RoomStatus.LOBBY))
        data["seats"] = tuple(SeatRecord.from_json(s) for s in data.get("seats", []))
        data["spectators"] = tuple(data.get("spectators", ()))
        data["kicked"] = tuple(data.get("kicked", ()))
        deadline = data.get("deadline")
        data["deadline"] = (
            DeadlineRecord(**{**deadline, "phase": Phase(deadline["phase"])}) if deadline else None
        )
        reveal = data.get("reveal")
        data["reveal"] = (
            RevealRecord(reveal["round"], reveal["until_ms"], tuple(reveal.get("seen", ())))
            if reveal
            else None
        )
        data["late"] = tuple(data.get("late", ()))
        data["played"] = tuple(PlayedRecord(**p) for p in data.get("played", ()))
        data["banks"] = tuple(BankRecord(**b) for b in data.get("banks", ()))
        claim = data.get("claim")
        data["claim"] = ClaimRecord(**claim) if claim else None
        return cls(**data)

    def seat(self, seat_id: str | None) -> SeatRecord | None:
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        return None

    def holder(self, hashed: str) -> SeatRecord | None:
        """The seat the token of hash ``hashed`` holds (a person's, not left), if any."""
        for seat in self.seats:
            if seat.token_hash == hashed and seat.person:
                return seat
        return None

    def admits(self, hashed: str) -> bool:
        """Does the token of hash ``hashed`` hold a seat or a spectator's place here?"""
        return hashed in self.spectators or self.holder(hashed) is not None

    @property
    def stream(self) -> str:
        return f"{self.code}:{self.game_number}"


_FIELDS = tuple(f.name for f in fields(RoomRecordData))
