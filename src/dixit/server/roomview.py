"""The public state of a room (``RoomState``) from its record: what every socket and
``GET /api/rooms/{code}`` show. No tokens, no cards."""

from __future__ import annotations

from collections.abc import Collection

from dixit.engine import GameError, GameState, waiting_for
from dixit.protocol import messages as m
from dixit.protocol.codes import NoticeCode

from . import away
from .records import RoomRecordData, SeatKind, SeatRecord
from .rules import rules_from_settings


def room_view(
    data: RoomRecordData,
    settings: m.RoomSettings,
    state: GameState | None,
    *,
    online: Collection[str],
    reading: list[str],
    spectators: int,
    bots_can_read: bool,
) -> m.RoomState:
    deadline = None
    d = data.deadline
    if d is not None and state is not None:
        deadline = m.Deadline(
            phase=d.phase,  # type: ignore[arg-type]
            version=d.version,
            at=d.at_ms,
            seconds=d.seconds,
            players=list(waiting_for(state)),
            bank=d.bank,
        )
    claim = None
    if data.claim is not None and state is not None and state.storyteller is None:
        claim = m.Claim(at=data.claim.at_ms, by=data.claim.by)
    reveal = None
    if data.reveal is not None:
        reveal = m.RevealBeat(round=data.reveal.round, until=data.reveal.until_ms, waiting=reading)
    return m.RoomState(
        code=data.code,
        status=data.status,  # type: ignore[arg-type]
        game_number=data.game_number,
        host=data.host,
        seats=[seat_view(s, data, s.id in online, settings.timers.bank) for s in data.seats],
        spectators=spectators,
        settings=settings,
        deadline=deadline,
        reveal=reveal,
        paused=away.paused(data),
        claim=claim,
        version=state.version if state is not None else 0,
        bots_can_read=bots_can_read,
        cards_needed=cards_needed(settings, len(data.seats)),
    )


def cards_needed(settings: m.RoomSettings, seated: int) -> int | None:
    """The deck size the settings' rules need for ``seated`` players (never fewer than the
    rules allow), or None when the settings make no playable game."""
    try:
        rules = rules_from_settings(settings)
    except GameError:
        return None
    return rules.min_deck_size_for(max(seated, rules.min_players))


def seat_view(
    seat: SeatRecord, data: RoomRecordData, connected: bool, bank_s: int | None
) -> m.Seat:
    return m.Seat(
        id=seat.id,
        name=seat.name,
        colour=seat.colour,  # type: ignore[arg-type]
        is_host=seat.id == data.host,
        is_bot=seat.computer,
        bot_kind=seat.level.value if seat.level is not None else None,
        bot_level=bot_level(seat),
        connected=connected,
        left=seat.kind is SeatKind.LEFT,
        autoplay=seat.kind is SeatKind.AWAY,
        late=seat.id in data.late,
        bank_left=-(-away.bank_left_ms(data, seat.id, bank_s) // 1000)
        if bank_s and seat.person
        else None,
        played_for=[
            m.PlayedFor(round=p.round, phase=p.phase, clue=p.clue)  # type: ignore[arg-type]
            for p in data.played
            if p.seat == seat.id
        ],
    )


def bot_level(seat: SeatRecord) -> m.BotLevel | None:
    """The level of the computer player in ``seat``, or None for a person."""
    return seat.level.wire if seat.level is not None else None


def autoplayed(seat: SeatRecord) -> m.Notice:
    """``seat/autoplayed``: a computer player plays ``seat`` until its person is back."""
    return m.Notice(
        code=NoticeCode.AUTOPLAYED,
        message=f"A computer player plays for {seat.name} until they come back.",
        seat=seat.id,
    )


def reclaimed(seat: SeatRecord) -> m.Notice:
    """``seat/reclaimed``: ``seat``'s person is back and plays again."""
    return m.Notice(
        code=NoticeCode.RECLAIMED, message=f"{seat.name} is back and plays again.", seat=seat.id
    )
