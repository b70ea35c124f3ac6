"""A room as it is stored: seats, host, settings, status, timer deadline, who is late and what
was played for them, the opening claim. JSON round-trips.

Records are immutable: a change builds a new record (:mod:`.lobby`), the store accepts it, and
only then does the room take it (see :meth:`.room.Room.commit`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass(frozen=True)
class SeatRecord:
    id: str
    name: str
    colour: str
    token_hash: str | None  # None: a computer player's own seat, or a person who left
    is_bot: bool = False
    bot_kind: str | None = None  # the computer player's level while one plays the seat
    left: bool = False
    autoplay: bool = False  # a person's seat the computer plays until they come back

    @property
    def person(self) -> bool:
        """Someone holds this seat's token (they may be away)."""
        return self.token_hash is not None and not self.left


@dataclass(frozen=True)
class DeadlineRecord:
    phase: str
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
    settings: dict[str, Any]
    status: str = "lobby"  # lobby | playing | over
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
        data = asdict(self)
        data["seats"] = [dict(s) for s in data["seats"]]
        data["spectators"] = list(self.spectators)
        data["kicked"] = list(self.kicked)
        data["late"] = list(self.late)
        data["played"] = [dict(p) for p in data["played"]]
        data["banks"] = [dict(b) for b in data["banks"]]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomRecordData:
        # Fields an older build stored and this one derives (winners, end reason) are dropped.
        data = {k: v for k, v in data.items() if k in _FIELDS}
        data["seats"] = tuple(SeatRecord(**s) for s in data.get("seats", []))
        data["spectators"] = tuple(data.get("spectators", ()))
        data["kicked"] = tuple(data.get("kicked", ()))
        deadline = data.get("deadline")
        data["deadline"] = DeadlineRecord(**deadline) if deadline else None
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


_FIELDS = frozenset(f.name for f in fields(RoomRecordData))
