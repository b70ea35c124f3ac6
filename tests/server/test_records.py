"""Room records: typed when read, stored as JSON, and records of earlier builds still load."""

from __future__ import annotations

import json

import pytest

from dixit.bots.levels import LEVELS
from dixit.engine import Phase
from dixit.protocol import messages as m
from dixit.server.records import (
    BotLevel,
    DeadlineRecord,
    RoomRecordData,
    RoomStatus,
    SeatKind,
    SeatRecord,
)

# A record as a build before seat kinds stored it: a seat was four flags and ``bot_kind``.
OLD = {
    "code": "ABCD",
    "seed": 7,
    "settings": {"language": "en"},
    "status": "playing",
    "game_number": 2,
    "host": "p1",
    "seats": [
        {"id": "p1", "name": "Ann", "colour": "red", "token_hash": "h1"},
        {
            "id": "p2",
            "name": "Robot 1",
            "colour": "blue",
            "token_hash": None,
            "is_bot": True,
            "bot_kind": "strong",
            "left": False,
            "autoplay": False,
        },
        {
            "id": "p3",
            "name": "Bo",
            "colour": "green",
            "token_hash": "h3",
            "is_bot": True,
            "bot_kind": "easy",
            "left": False,
            "autoplay": True,
        },
        {
            "id": "p4",
            "name": "Cy",
            "colour": "pink",
            "token_hash": None,
            "is_bot": True,
            "bot_kind": "no-such-level",
            "left": True,
            "autoplay": False,
        },
    ],
    "deadline": {"phase": "vote", "round": 3, "version": 40, "at_ms": 1, "seconds": 60},
    "winners": ["p1"],  # derived by later builds: dropped
}


def test_a_record_stored_with_seat_flags_loads_as_kinds() -> None:
    data = RoomRecordData.from_json(json.loads(json.dumps(OLD)))
    assert [(s.kind, s.level) for s in data.seats] == [
        (SeatKind.PERSON, None),
        (SeatKind.COMPUTER, BotLevel.STRONG),
        (SeatKind.AWAY, BotLevel.EASY),
        (SeatKind.LEFT, BotLevel(m.DEFAULT_BOT_LEVEL)),  # an unknown level: the default
    ]
    assert [s.person for s in data.seats] == [True, False, True, False]
    assert [s.computer for s in data.seats] == [False, True, True, True]
    assert data.status is RoomStatus.PLAYING
    assert data.deadline == DeadlineRecord(Phase.VOTE, 3, 40, 1, 60)
    assert data.deadline.phase is Phase.VOTE
    # Read once, written in the new shape: the flags are gone, and it reads back the same.
    stored = json.loads(json.dumps(data.to_json()))
    assert stored["seats"][2] == {
        "id": "p3",
        "name": "Bo",
        "colour": "green",
        "token_hash": "h3",
        "kind": "away",
        "level": "easy",
    }
    assert (stored["status"], stored["deadline"]["phase"]) == ("playing", "vote")
    assert RoomRecordData.from_json(stored) == data


def test_a_new_record_round_trips() -> None:
    seats = (
        SeatRecord("p1", "Ann", "red", "h1"),
        SeatRecord("p2", "Robot 1", "blue", None, SeatKind.COMPUTER, BotLevel.RANDOM),
    )
    data = RoomRecordData("WXYZ", 1, m.RoomSettings(), RoomStatus.OVER, seats=seats, host="p1")
    text = json.dumps(data.to_json())
    again = RoomRecordData.from_json(json.loads(text))
    assert again == data
    assert again.status is RoomStatus.OVER and again.seats[1].kind is SeatKind.COMPUTER


def test_a_person_seat_keeps_no_level_and_the_levels_are_the_protocols() -> None:
    raw = {"id": "p1", "name": "Ann", "colour": "red", "token_hash": "h", "kind": "person"}
    assert SeatRecord.from_json({**raw, "level": "easy"}).level is None
    assert [level.wire for level in BotLevel] == list(m.BOT_LEVELS) == list(LEVELS)
    with pytest.raises(ValueError):
        SeatRecord.from_json({**raw, "kind": "ghost"})
