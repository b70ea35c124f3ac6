"""Who is away from the table, what was played for them, and a table that waits for a person.

A phase timer that runs out plays one move for each late seat. A person still connected keeps
their seat and is marked ``late`` until they act again or say they are here (``here``); a
person who is gone (no socket anywhere) is handed to the computer until they come back. Every
move made for a person is kept for their account (``played``) until they say they are here.

When every person at the table is late or away, the table pauses: no timer runs and no
computer player moves until a person acts or says they are here. So a table nobody attends
never plays whole rounds by itself.

With a time bank (``timers.bank``), a timer that runs out on a person who is there first lets
them draw on their bank (seconds for the whole game) before a move is played for them.

Pure functions of the room record, like :mod:`.lobby`'s.
"""

from __future__ import annotations

import dataclasses

from dixit.engine import CastVote, Command, GiveClue, SubmitCards

from . import lobby
from .records import BankRecord, PlayedRecord, RoomRecordData, RoomStatus, SeatKind

ACCOUNT_KEPT = 12  # moves kept per seat for its account (the latest)


def paused(data: RoomRecordData) -> bool:
    """Every person at the table is late or away (a table of computers alone never pauses)."""
    if data.status != RoomStatus.PLAYING:
        return False
    people = [s for s in data.seats if s.person]
    return bool(people) and all(s.kind is SeatKind.AWAY or s.id in data.late for s in people)


def mark_late(data: RoomRecordData, seat_id: str) -> RoomRecordData:
    if seat_id in data.late:
        return data
    return dataclasses.replace(data, late=(*data.late, seat_id))


def played_for(data: RoomRecordData, seat_id: str, round_: int, command: Command) -> RoomRecordData:
    """``command`` was played for ``seat_id``'s person: add it to their account."""
    if isinstance(command, GiveClue):
        entry = PlayedRecord(seat_id, round_, "clue", command.clue)
    elif isinstance(command, SubmitCards):
        entry = PlayedRecord(seat_id, round_, "submit")
    elif isinstance(command, CastVote):
        entry = PlayedRecord(seat_id, round_, "vote")
    else:
        return data
    mine = [p for p in data.played if p.seat == seat_id][-(ACCOUNT_KEPT - 1) :]
    others = [p for p in data.played if p.seat != seat_id]
    return dataclasses.replace(data, played=(*others, *mine, entry))


def back(data: RoomRecordData, seat_id: str) -> RoomRecordData:
    """The person acted or reconnected: no longer late, and their seat is theirs again."""
    if data.seat(seat_id) is not None:
        data = lobby.reclaim(data, seat_id)
    if seat_id in data.late:
        data = dataclasses.replace(data, late=tuple(s for s in data.late if s != seat_id))
    return data


def here(data: RoomRecordData, seat_id: str) -> RoomRecordData:
    """The person said they are here: :func:`back`, and their account is read."""
    data = back(data, seat_id)
    if any(p.seat == seat_id for p in data.played):
        data = dataclasses.replace(data, played=tuple(p for p in data.played if p.seat != seat_id))
    return data


def bank_left_ms(data: RoomRecordData, seat_id: str, bank_s: int | None) -> int:
    """Milliseconds left in ``seat_id``'s time bank (0 without one)."""
    if not bank_s:
        return 0
    used = sum(b.used_ms for b in data.banks if b.seat == seat_id)
    return max(0, bank_s * 1000 - used)


def charge(data: RoomRecordData, seat_id: str, ms: int) -> RoomRecordData:
    """``seat_id`` used ``ms`` of their time bank."""
    if ms <= 0:
        return data
    used = sum(b.used_ms for b in data.banks if b.seat == seat_id) + ms
    others = tuple(b for b in data.banks if b.seat != seat_id)
    return dataclasses.replace(data, banks=(*others, BankRecord(seat_id, used)))
