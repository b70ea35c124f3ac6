"""A room as it is stored: seats, host, settings, status, timer deadline. JSON round-trips."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from typing import Any


@dataclass
class SeatRecord:
    id: str
    name: str
    colour: str
    token_hash: str | None  # None: a computer player's own seat, or a person who left
    is_bot: bool = False
    bot_kind: str | None = None
    left: bool = False


@dataclass
class DeadlineRecord:
    phase: str
    round: int
    version: int
    at_ms: int
    seconds: int


@dataclass
class RoomRecordData:
    code: str
    seed: int
    settings: dict[str, Any]
    status: str = "lobby"  # lobby | playing | over
    game_number: int = 1
    host: str | None = None
    seats: list[SeatRecord] = field(default_factory=list)
    spectators: list[str] = field(default_factory=list)  # token hashes
    next_seat: int = 1
    deadline: DeadlineRecord | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoomRecordData:
        # Fields an older build stored and this one derives (winners, end reason) are dropped.
        data = {k: v for k, v in data.items() if k in _FIELDS}
        data["seats"] = [SeatRecord(**s) for s in data.get("seats", [])]
        deadline = data.get("deadline")
        data["deadline"] = DeadlineRecord(**deadline) if deadline else None
        return cls(**data)

    def seat(self, seat_id: str) -> SeatRecord | None:
        for seat in self.seats:
            if seat.id == seat_id:
                return seat
        return None

    @property
    def stream(self) -> str:
        return f"{self.code}:{self.game_number}"


_FIELDS = frozenset(f.name for f in fields(RoomRecordData))
