"""Seats and lobby as pure functions: a room record and a request in, a new record out.

Nothing here touches memory the room is using, the store or a socket: a function either
returns the record the room should become or raises :class:`ServerError` (nothing changed).
The room stores the new record and only then takes it (compute, store, swap).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection

from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code

from .errors import ServerError
from .records import BotLevel, RoomRecordData, RoomStatus, SeatKind, SeatRecord, room_settings

MAX_KICKED = 200  # tokens a room keeps out; a host who kicks more forgets the oldest


def _with_seat(data: RoomRecordData, seat: SeatRecord) -> RoomRecordData:
    seats = tuple(seat if s.id == seat.id else s for s in data.seats)
    return dataclasses.replace(data, seats=seats)


def _seat(data: RoomRecordData, seat_id: str) -> SeatRecord:
    seat = data.seat(seat_id)
    if seat is None:
        raise ServerError(Code.UNKNOWN_SEAT, f"no seat {seat_id!r}")
    return seat


def require_lobby(data: RoomRecordData, message: str) -> None:
    if data.status != RoomStatus.LOBBY:
        raise ServerError(Code.NOT_IN_LOBBY, message, 409)


def name_key(name: str) -> str:
    """What two names must differ in: case and spaces do not count ("Bo" is " b o")."""
    return "".join(name.split()).casefold()


def require_free_name(data: RoomRecordData, name: str, seat_id: str | None = None) -> None:
    """Refuse a name another seat of the room already goes by (case and spaces aside)."""
    key = name_key(name)
    if any(name_key(s.name) == key for s in data.seats if s.id != seat_id):
        raise ServerError(Code.NAME_TAKEN, f"someone in this room is called {name!r}", 409)


def free_colour(data: RoomRecordData) -> str:
    taken = {s.colour for s in data.seats}
    return next((c for c in m.RABBIT_COLOURS if c not in taken), m.RABBIT_COLOURS[0])


def require_not_kicked(data: RoomRecordData, held: Collection[str]) -> None:
    """Refuse someone who shows a token the host kicked from this room (``held``: the hashes
    of the tokens the asker holds for it). A fresh browser shows none: see docs/deploy.md."""
    if any(h in data.kicked for h in held):
        raise ServerError(Code.KICKED, "the host removed you from this room", 403)


def add_person(
    data: RoomRecordData,
    name: str,
    colour: str | None,
    token_hash: str,
    seat_limit: int,
    held: Collection[str] = (),
) -> tuple[RoomRecordData, SeatRecord]:
    """A new seat for a person; the first person is the host. Lobby only."""
    require_not_kicked(data, held)
    require_lobby(data, "the game has started; watch instead")
    if len(data.seats) >= seat_limit:
        raise ServerError(Code.ROOM_FULL, "every seat is taken", 409)
    if colour is not None and any(s.colour == colour for s in data.seats):
        raise ServerError(Code.COLOUR_TAKEN, f"the {colour} rabbit is taken", 409)
    name = name.strip() or "Player"
    require_free_name(data, name)
    seat = SeatRecord(
        id=f"p{data.next_seat}",
        name=name,
        colour=colour or free_colour(data),
        token_hash=token_hash,
    )
    new = dataclasses.replace(
        data,
        seats=(*data.seats, seat),
        next_seat=data.next_seat + 1,
        host=data.host if data.host is not None else seat.id,
    )
    return new, seat


def add_computer(
    data: RoomRecordData, level: m.BotLevel, seat_limit: int
) -> tuple[RoomRecordData, SeatRecord]:
    """A seat for a computer player of ``level``."""
    if len(data.seats) >= seat_limit:
        raise ServerError(Code.ROOM_FULL, "every seat is taken", 409)
    taken = {name_key(s.name) for s in data.seats}
    number = sum(1 for s in data.seats if s.kind is SeatKind.COMPUTER) + 1
    while name_key(f"Robot {number}") in taken:
        number += 1
    seat = SeatRecord(
        id=f"p{data.next_seat}",
        name=f"Robot {number}",
        colour=free_colour(data),
        token_hash=None,
        kind=SeatKind.COMPUTER,
        level=BotLevel(level),
    )
    new = dataclasses.replace(data, seats=(*data.seats, seat), next_seat=data.next_seat + 1)
    return new, seat


def add_spectator(
    data: RoomRecordData, token_hash: str, limit: int, held: Collection[str] = ()
) -> RoomRecordData:
    require_not_kicked(data, held)
    if len(data.spectators) >= limit:
        raise ServerError(Code.SPECTATORS, "too many spectators in this room", 409)
    return dataclasses.replace(data, spectators=(*data.spectators, token_hash))


def set_profile(
    data: RoomRecordData, seat_id: str, name: str | None, colour: str | None
) -> RoomRecordData:
    seat = _seat(data, seat_id)
    if colour is not None and colour != seat.colour:
        if any(s.colour == colour for s in data.seats if s.id != seat.id):
            raise ServerError(Code.COLOUR_TAKEN, f"the {colour} rabbit is taken")
        seat = dataclasses.replace(seat, colour=colour)
    if name is not None:
        name = name.strip()
        if not name:
            raise ServerError(Code.MALFORMED, "a name cannot be blank")
        require_free_name(data, name, seat.id)
        seat = dataclasses.replace(seat, name=name)
    return _with_seat(data, seat)


def update_settings(
    data: RoomRecordData, settings: m.RoomSettings, max_players: int
) -> RoomRecordData:
    """New settings (the seated computer players stay as they are). Lobby only."""
    require_lobby(data, "only in the lobby, before the game starts")
    if len(data.seats) > max_players:
        raise ServerError(Code.ROOM_FULL, f"{len(data.seats)} seats are taken already")
    kept = settings.model_copy(update={"bots": data.settings.bots})
    return dataclasses.replace(data, settings=room_settings(kept.model_dump(mode="json")))


def next_host(data: RoomRecordData, leaving: str, online: Collection[str]) -> str | None:
    """A person still in the room, preferably one connected."""
    people = [s for s in data.seats if s.id != leaving and s.person]
    people.sort(key=lambda s: s.id not in online)
    return people[0].id if people else None


def remove_seat(
    data: RoomRecordData, seat_id: str, level: m.BotLevel, online: Collection[str]
) -> RoomRecordData:
    """A person leaves or is kicked: in the lobby the seat goes; in a game a computer player
    of ``level`` takes it for good (the token stops working). The host role passes on."""
    seat = _seat(data, seat_id)
    if data.status == RoomStatus.LOBBY:
        seats = tuple(s for s in data.seats if s.id != seat_id)
    else:
        gone = dataclasses.replace(seat, kind=SeatKind.LEFT, token_hash=None, level=BotLevel(level))
        seats = tuple(gone if s.id == seat_id else s for s in data.seats)
    host = data.host
    if host == seat_id:
        host = next_host(data, seat_id, online)
    return dataclasses.replace(data, seats=seats, host=host)


def kick(
    data: RoomRecordData, host_id: str, seat_id: str, level: m.BotLevel, online: Collection[str]
) -> RoomRecordData:
    """The host removes a seat (as :func:`remove_seat`); the person's token stays out of the
    room for good: a hello, a join or a watch that shows it is refused with room/kicked."""
    target = _seat(data, seat_id)
    if target.id == host_id:
        raise ServerError(Code.UNKNOWN_SEAT, "to leave your own seat, use leave")
    if data.status != RoomStatus.LOBBY and target.token_hash is None:
        raise ServerError(Code.NOT_IN_LOBBY, "a computer player keeps its seat until the end")
    new = remove_seat(data, seat_id, level, online)
    if target.token_hash is None or target.token_hash in data.kicked:
        return new
    return dataclasses.replace(new, kicked=(*data.kicked, target.token_hash)[-MAX_KICKED:])


def refusal(data: RoomRecordData, token_hash: str) -> Code:
    """Why a token opens nothing here: kicked by the host, or simply no seat of this room."""
    return Code.KICKED if token_hash in data.kicked else Code.BAD_TOKEN


def set_bot(data: RoomRecordData, seat_id: str, bot: bool, level: m.BotLevel) -> RoomRecordData:
    """The host lets a computer player play a person's seat, or gives it back."""
    target = _seat(data, seat_id)
    if not bot and target.token_hash is None:
        raise ServerError(Code.UNKNOWN_SEAT, "no person holds this seat to give it back to")
    if not bot:
        seat = dataclasses.replace(target, kind=SeatKind.PERSON, level=None)
    elif target.kind is SeatKind.PERSON:
        seat = dataclasses.replace(target, kind=SeatKind.AWAY, level=BotLevel(level))
    else:
        seat = target
    return _with_seat(data, seat)


def set_bot_level(data: RoomRecordData, seat_id: str, level: m.BotLevel) -> RoomRecordData:
    target = _seat(data, seat_id)
    if not target.computer:
        raise ServerError(Code.NOT_A_BOT, "no computer player plays this seat")
    return _with_seat(data, dataclasses.replace(target, level=BotLevel(level)))


def hand_to_computer(data: RoomRecordData, seat_id: str, level: m.BotLevel) -> RoomRecordData:
    """The timer ran out on a person: the computer plays their seat until they come back."""
    seat = _seat(data, seat_id)
    if seat.kind is not SeatKind.PERSON:
        return data
    return _with_seat(data, dataclasses.replace(seat, kind=SeatKind.AWAY, level=BotLevel(level)))


def reclaim(data: RoomRecordData, seat_id: str) -> RoomRecordData:
    """The person is back: they play their seat again."""
    seat = _seat(data, seat_id)
    if seat.kind is not SeatKind.AWAY:
        return data
    return _with_seat(data, dataclasses.replace(seat, kind=SeatKind.PERSON, level=None))


def transfer_host(data: RoomRecordData, seat_id: str) -> RoomRecordData:
    target = data.seat(seat_id)
    if target is None or not target.person:
        raise ServerError(Code.UNKNOWN_SEAT, "the host must be a person in the room")
    return dataclasses.replace(data, host=target.id)


def rematch(data: RoomRecordData) -> RoomRecordData:
    """Back to the lobby for the next game: same seats but those who left."""
    if data.status != RoomStatus.OVER:
        raise ServerError(Code.NOT_OVER, "a rematch follows a finished game")
    return dataclasses.replace(
        data,
        status=RoomStatus.LOBBY,
        game_number=data.game_number + 1,
        seats=tuple(s for s in data.seats if s.kind is not SeatKind.LEFT),
        deadline=None,
        reveal=None,
    )


def see_reveal(data: RoomRecordData, seat_id: str, round_: int) -> RoomRecordData:
    """A person has read the reveal of ``round_`` (a late or repeated word changes nothing)."""
    reveal = data.reveal
    if reveal is None or reveal.round != round_ or seat_id in reveal.seen:
        return data
    return dataclasses.replace(
        data, reveal=dataclasses.replace(reveal, seen=(*reveal.seen, seat_id))
    )
