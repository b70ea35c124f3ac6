"""What each client message asks of a room: one function per message, and the table
:meth:`.room.Room.handle` dispatches by (host-only commands marked).

Game moves go to the engine through :meth:`.room.Room.apply`; lobby changes are computed by
:mod:`.lobby` and stored by :meth:`.room.Room.commit`, with their command id
(:func:`applied`) when they are in :data:`RECORDED`: a resend after a restart, or to another
process, is then acknowledged as a duplicate, never applied twice. A handler computes from
``room.data`` as it is when called: after a version conflict the room syncs and calls it again.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from dixit.engine import (
    CastVote,
    Command,
    EndGame,
    GiveClue,
    StartGame,
    SubmitCards,
    VoidCard,
    waiting_for,
)
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.storage import CommandKey

from . import away, lobby
from .autoplay import replan
from .cards import UnknownDeck
from .deck_access import may_choose
from .errors import ServerError
from .records import SeatRecord
from .roomview import autoplayed, reclaimed
from .rules import rules_from_settings
from .seeding import room_random

if TYPE_CHECKING:
    from .room import Room

Handler = Callable[["Room", SeatRecord, Any, str], Awaitable[int]]


def applied(seat: SeatRecord, command_id: str) -> CommandKey:
    """The key a lobby command is stored with (the seat that sent it, its id)."""
    return CommandKey(seat.id, command_id)


async def give_clue(room: Room, seat: SeatRecord, msg: m.GiveClue, command_id: str) -> int:
    return await play(room, seat, GiveClue(seat.id, msg.card, msg.clue), command_id)


async def submit(room: Room, seat: SeatRecord, msg: m.SubmitCards, command_id: str) -> int:
    return await play(room, seat, SubmitCards(seat.id, tuple(msg.cards)), command_id)


async def vote(room: Room, seat: SeatRecord, msg: m.CastVote, command_id: str) -> int:
    return await play(room, seat, CastVote(seat.id, msg.card, msg.second), command_id)


async def void_card(room: Room, seat: SeatRecord, msg: m.VoidCard, command_id: str) -> int:
    return await play(room, seat, VoidCard(seat.id, msg.card), command_id)


async def play(room: Room, seat: SeatRecord, command: Command, command_id: str) -> int:
    if not room.playing:
        raise ServerError(Code.NOT_PLAYING, "no game is being played")
    if seat.is_bot and seat.autoplay and seat.person:
        await room.reclaim(seat)  # they are back: their move, their seat
    elif seat.is_bot:
        raise ServerError(Code.SEAT_IS_BOT, "a computer player plays your seat now; ask the host")
    data = away.back(room.data, seat.id)  # their own move: no longer late
    deadline = data.deadline
    if deadline is not None and deadline.bank and _waited_on(room, seat.id):
        started_ms = deadline.at_ms - deadline.seconds * 1000
        data = away.charge(data, seat.id, int(time.time() * 1000) - started_ms)
    changes = {"late": data.late, "banks": data.banks} if data is not room.data else None
    return await room.apply(command, command_id, seat.id, changes)


def _waited_on(room: Room, seat_id: str) -> bool:
    return room.state is not None and seat_id in waiting_for(room.state)


async def here(room: Room, seat: SeatRecord, msg: m.Here, command_id: str) -> int:
    """The person is at the table: no longer late, their seat theirs again, their account read
    (a paused table goes on). Saying it again changes nothing."""
    if not room.playing:
        raise ServerError(Code.NOT_PLAYING, "no game is being played")
    data = replan(away.here(room.data, seat.id), room.state, room.settings.timers)
    if data is room.data:
        return room.version
    notice = reclaimed(seat) if seat.is_bot and seat.person else None
    await room.commit(data, notice=notice)
    return room.version


async def set_profile(room: Room, seat: SeatRecord, msg: m.SetProfile, command_id: str) -> int:
    data = lobby.set_profile(room.data, seat.id, msg.name, msg.colour)
    return await room.commit(data, applied(seat, command_id))


async def leave(room: Room, seat: SeatRecord, msg: m.Leave, command_id: str) -> int:
    online = room.online()
    data = lobby.remove_seat(room.data, seat.id, m.DEFAULT_BOT_LEVEL, online)
    return await room.commit(data, applied(seat, command_id))


async def reveal_seen(room: Room, seat: SeatRecord, msg: m.RevealSeen, command_id: str) -> int:
    data = lobby.see_reveal(room.data, seat.id, msg.round)
    return room.version if data is room.data else await room.commit(data)


async def start(room: Room, host: SeatRecord, msg: m.StartGame, command_id: str) -> int:
    lobby.require_lobby(room.data, "only in the lobby, before the game starts")
    rules = rules_from_settings(room.settings)
    players = tuple(s.id for s in room.data.seats)
    if len(players) < rules.min_players:
        raise ServerError(
            Code.TOO_FEW_PLAYERS,
            f"{rules.min_players} players are needed, {len(players)} seated",
        )
    try:
        deck = room.services.cards.card_ids(list(room.settings.decks))
    except UnknownDeck as unknown:
        raise ServerError(Code.UNKNOWN_DECK, f"unknown deck {unknown}") from None
    first: str | None = None
    if room.settings.first_storyteller == "host":
        first = host.id
    elif room.settings.first_storyteller == "random":
        first = room_random(room.data.seed, room.data.game_number, 0, "first").choice(players)
    command = StartGame(players=players, deck=tuple(deck), rules=rules, first_storyteller=first)
    room.autoplay.new_game()
    fresh = {"status": "playing", "late": (), "played": (), "claim": None, "banks": ()}
    return await room.apply(command, command_id, host.id, fresh)


async def update_settings(
    room: Room, host: SeatRecord, msg: m.UpdateSettings, command_id: str
) -> int:
    lobby.require_lobby(room.data, "only in the lobby, before the game starts")
    rules = rules_from_settings(msg.settings)
    try:
        room.services.cards.card_ids(list(msg.settings.decks))
    except UnknownDeck as unknown:
        raise ServerError(Code.UNKNOWN_DECK, f"unknown deck {unknown}") from None
    added = set(msg.settings.decks) - set(room.settings.decks)
    if not may_choose(room.services.cards.decks(), added, host.token_hash):
        raise ServerError(Code.UNKNOWN_DECK, "unknown deck: another host's upload")
    data = lobby.update_settings(room.data, msg.settings, rules.max_players)
    return await room.commit(data, applied(host, command_id))


async def add_bot(room: Room, host: SeatRecord, msg: m.AddBot, command_id: str) -> int:
    lobby.require_lobby(room.data, "only in the lobby, before the game starts")
    limit = rules_from_settings(room.settings).max_players
    data, _ = lobby.add_computer(room.data, msg.level, limit)
    return await room.commit(data, applied(host, command_id))


async def set_bot_level(room: Room, host: SeatRecord, msg: m.SetBotLevel, command_id: str) -> int:
    data = lobby.set_bot_level(room.data, msg.player, msg.level)
    return await room.commit(data, applied(host, command_id))


async def kick(room: Room, host: SeatRecord, msg: m.Kick, command_id: str) -> int:
    online = room.online()
    data = lobby.kick(room.data, host.id, msg.seat, m.DEFAULT_BOT_LEVEL, online)
    version = await room.commit(data, applied(host, command_id))
    room.fanout.close_seat(msg.seat, Code.KICKED, "the host removed you from the room")
    return version


async def set_bot(room: Room, host: SeatRecord, msg: m.SetBot, command_id: str) -> int:
    data = lobby.set_bot(room.data, msg.seat, msg.bot, m.DEFAULT_BOT_LEVEL)
    seat = data.seat(msg.seat)
    notice = autoplayed(seat) if msg.bot and seat is not None and seat.autoplay else None
    return await room.commit(data, applied(host, command_id), notice)


async def transfer_host(room: Room, host: SeatRecord, msg: m.TransferHost, command_id: str) -> int:
    return await room.commit(lobby.transfer_host(room.data, msg.seat), applied(host, command_id))


async def end_game(room: Room, host: SeatRecord, msg: m.EndGame, command_id: str) -> int:
    """The engine ends the game (the leaders win); the log records it like any move."""
    if not room.playing or room.state is None:
        raise ServerError(Code.NOT_PLAYING, "no game is being played")
    return await room.apply(EndGame(), command_id, host.id)


async def rematch(room: Room, host: SeatRecord, msg: m.Rematch, command_id: str) -> int:
    return await room.commit(lobby.rematch(room.data), applied(host, command_id))


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

# The record-only commands, stored with their command id (:func:`applied`). Not ``reveal_seen``
# or ``here``: repeating them changes nothing, so they need no record. Game moves are
# de-duplicated by the command id on their first event.
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
