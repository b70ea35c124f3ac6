"""What each client message asks of a room: one function per message, and the table the room
dispatches by (host-only commands marked).

A handler reads the room as it is (an :class:`Ask`) and answers an outcome, which the room
carries out: a :class:`Move` for the engine, a new room record to :class:`Store`, or None when
nothing changes. A handler writes nothing and calls nothing of the room: after a version
conflict the room reads itself again and asks again. A message in :data:`RECORDED` is stored
with its command id: a resend after a restart, or to another process, is then acknowledged as
a duplicate, never applied twice.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dixit.engine import (
    CastVote,
    Command,
    EndGame,
    GameState,
    GiveClue,
    StartGame,
    SubmitCards,
    VoidCard,
    waiting_for,
)
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code

from . import away, lobby
from .autoplay import replan
from .cards import CardSource, UnknownDeck
from .deck_access import may_choose
from .errors import ServerError
from .records import RoomRecordData, RoomStatus, SeatKind, SeatRecord
from .roomview import autoplayed, reclaimed
from .rules import rules_from_settings
from .seeding import room_random


@dataclass(frozen=True)
class Ask:
    """What a handler reads: the room as it is when the message is handled."""

    data: RoomRecordData
    state: GameState | None
    settings: m.RoomSettings
    cards: CardSource
    online: Callable[[], set[str]]  # seats with a socket on any process

    @property
    def playing(self) -> bool:
        return self.data.status == RoomStatus.PLAYING


@dataclass(frozen=True)
class Close:
    """Close the sockets of ``seat`` (``code``, ``message``) once the sender is answered."""

    seat: str
    code: Code
    message: str


@dataclass(frozen=True)
class Move:
    """A game move for the engine, with the record's fields changing with it; ``reclaim``: the
    seat's person is back first (their seat theirs again, a change of its own)."""

    command: Command
    changes: dict[str, Any] | None = None
    reclaim: bool = False


@dataclass(frozen=True)
class Store:
    """A new room record (``notice``: what it means for a seat, told with the update)."""

    data: RoomRecordData
    notice: m.Notice | None = None
    close: Close | None = None


Outcome = Move | Store | None
Handler = Callable[[Ask, SeatRecord, Any], Outcome]


def give_clue(ask: Ask, seat: SeatRecord, msg: m.GiveClue) -> Outcome:
    return play(ask, seat, GiveClue(seat.id, msg.card, msg.clue))


def submit(ask: Ask, seat: SeatRecord, msg: m.SubmitCards) -> Outcome:
    return play(ask, seat, SubmitCards(seat.id, tuple(msg.cards)))


def vote(ask: Ask, seat: SeatRecord, msg: m.CastVote) -> Outcome:
    return play(ask, seat, CastVote(seat.id, msg.card, msg.second))


def void_card(ask: Ask, seat: SeatRecord, msg: m.VoidCard) -> Outcome:
    return play(ask, seat, VoidCard(seat.id, msg.card))


def play(ask: Ask, seat: SeatRecord, command: Command) -> Move:
    """A person's own move: they are back (their seat theirs again, no longer late) and a
    time bank they drew on is charged."""
    if not ask.playing:
        raise ServerError(Code.NOT_PLAYING, "no game is being played")
    reclaim = seat.kind is SeatKind.AWAY
    if seat.computer and not reclaim:
        raise ServerError(Code.SEAT_IS_BOT, "a computer player plays your seat now; ask the host")
    data = away.back(ask.data, seat.id)
    deadline = data.deadline
    if deadline is not None and deadline.bank and _waited_on(ask.state, seat.id):
        started_ms = deadline.at_ms - deadline.seconds * 1000
        data = away.charge(data, seat.id, int(time.time() * 1000) - started_ms)
    changes = {"late": data.late, "banks": data.banks} if data is not ask.data else None
    return Move(command, changes, reclaim)


def _waited_on(state: GameState | None, seat_id: str) -> bool:
    return state is not None and seat_id in waiting_for(state)


def here(ask: Ask, seat: SeatRecord, msg: m.Here) -> Outcome:
    """The person is at the table: no longer late, their seat theirs again, their account read
    (a paused table goes on). Saying it again changes nothing."""
    if not ask.playing:
        raise ServerError(Code.NOT_PLAYING, "no game is being played")
    data = replan(away.here(ask.data, seat.id), ask.state, ask.settings.timers)
    if data is ask.data:
        return None
    return Store(data, reclaimed(seat) if seat.kind is SeatKind.AWAY else None)


def set_profile(ask: Ask, seat: SeatRecord, msg: m.SetProfile) -> Outcome:
    return Store(lobby.set_profile(ask.data, seat.id, msg.name, msg.colour))


def leave(ask: Ask, seat: SeatRecord, msg: m.Leave) -> Outcome:
    data = lobby.remove_seat(ask.data, seat.id, m.DEFAULT_BOT_LEVEL, ask.online())
    return Store(data, close=Close(seat.id, Code.LEFT, "you left the room"))


def reveal_seen(ask: Ask, seat: SeatRecord, msg: m.RevealSeen) -> Outcome:
    data = lobby.see_reveal(ask.data, seat.id, msg.round)
    return None if data is ask.data else Store(data)


def start(ask: Ask, host: SeatRecord, msg: m.StartGame) -> Outcome:
    lobby.require_lobby(ask.data, "only in the lobby, before the game starts")
    rules = rules_from_settings(ask.settings)
    players = tuple(s.id for s in ask.data.seats)
    if len(players) < rules.min_players:
        raise ServerError(
            Code.TOO_FEW_PLAYERS,
            f"{rules.min_players} players are needed, {len(players)} seated",
        )
    try:
        deck = ask.cards.card_ids(list(ask.settings.decks))
    except UnknownDeck as unknown:
        raise ServerError(Code.UNKNOWN_DECK, f"unknown deck {unknown}") from None
    first: str | None = None
    if ask.settings.first_storyteller == "host":
        first = host.id
    elif ask.settings.first_storyteller == "random":
        first = room_random(ask.data.seed, ask.data.game_number, 0, "first").choice(players)
    command = StartGame(players=players, deck=tuple(deck), rules=rules, first_storyteller=first)
    fresh = {"status": RoomStatus.PLAYING, "late": (), "played": (), "claim": None, "banks": ()}
    return Move(command, fresh)


def update_settings(ask: Ask, host: SeatRecord, msg: m.UpdateSettings) -> Outcome:
    lobby.require_lobby(ask.data, "only in the lobby, before the game starts")
    rules = rules_from_settings(msg.settings)
    try:
        ask.cards.card_ids(list(msg.settings.decks))
    except UnknownDeck as unknown:
        raise ServerError(Code.UNKNOWN_DECK, f"unknown deck {unknown}") from None
    added = set(msg.settings.decks) - set(ask.settings.decks)
    if not may_choose(ask.cards.decks(), added, host.token_hash):
        raise ServerError(Code.UNKNOWN_DECK, "unknown deck: another host's upload")
    return Store(lobby.update_settings(ask.data, msg.settings, rules.max_players))


def add_bot(ask: Ask, host: SeatRecord, msg: m.AddBot) -> Outcome:
    lobby.require_lobby(ask.data, "only in the lobby, before the game starts")
    limit = rules_from_settings(ask.settings).max_players
    data, _ = lobby.add_computer(ask.data, msg.level, limit)
    return Store(data)


def set_bot_level(ask: Ask, host: SeatRecord, msg: m.SetBotLevel) -> Outcome:
    return Store(lobby.set_bot_level(ask.data, msg.player, msg.level))


def kick(ask: Ask, host: SeatRecord, msg: m.Kick) -> Outcome:
    data = lobby.kick(ask.data, host.id, msg.seat, m.DEFAULT_BOT_LEVEL, ask.online())
    return Store(data, close=Close(msg.seat, Code.KICKED, "the host removed you from the room"))


def set_bot(ask: Ask, host: SeatRecord, msg: m.SetBot) -> Outcome:
    data = lobby.set_bot(ask.data, msg.seat, msg.bot, m.DEFAULT_BOT_LEVEL)
    seat = data.seat(msg.seat)
    away = seat is not None and seat.kind is SeatKind.AWAY
    return Store(data, autoplayed(seat) if msg.bot and away and seat is not None else None)


def transfer_host(ask: Ask, host: SeatRecord, msg: m.TransferHost) -> Outcome:
    return Store(lobby.transfer_host(ask.data, msg.seat))


def end_game(ask: Ask, host: SeatRecord, msg: m.EndGame) -> Outcome:
    """The engine ends the game (the leaders win); the log records it like any move."""
    if not ask.playing or ask.state is None:
        raise ServerError(Code.NOT_PLAYING, "no game is being played")
    return Move(EndGame())


def rematch(ask: Ask, host: SeatRecord, msg: m.Rematch) -> Outcome:
    return Store(lobby.rematch(ask.data))


# Message type → (host only, handler). Everything a socket can ask of a room, in one place.
HANDLERS: dict[type[m.ClientModel], tuple[bool, Handler]] = {
    m.GiveClue: (False, give_clue),
    m.SubmitCards: (False, submit),
    m.CastVote: (False, vote),
    m.VoidCard: (False, void_card),
    m.SetProfile: (False, set_profile),
    m.Leave: (False, leave),
    m.RevealSeen: (False, reveal_seen),
    m.Here: (False, here),
    m.StartGame: (True, start),
    m.UpdateSettings: (True, update_settings),
    m.AddBot: (True, add_bot),
    m.SetBotLevel: (True, set_bot_level),
    m.Kick: (True, kick),
    m.SetBot: (True, set_bot),
    m.TransferHost: (True, transfer_host),
    m.EndGame: (True, end_game),
    m.Rematch: (True, rematch),
}

# The record-only commands, stored with their command id. Not ``reveal_seen`` or ``here``:
# repeating them changes nothing, so they need no record. Game moves are de-duplicated by the
# command id on their first event.
RECORDED: frozenset[type[m.ClientModel]] = frozenset(
    {
        m.SetProfile,
        m.Leave,
        m.UpdateSettings,
        m.AddBot,
        m.SetBotLevel,
        m.Kick,
        m.SetBot,
        m.TransferHost,
        m.Rematch,
    }
)
