"""Handlers are pure: a message and the room as it is (an ``Ask``) give an outcome, or a coded
refusal; the room carries the outcome out. Pinned here without a room, a store or a socket."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from dixit.engine import GiveClue, StartGame, execute, rules_for
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.server import handlers
from dixit.server.cards import card_source
from dixit.server.errors import ServerError
from dixit.server.records import BotLevel, RoomRecordData, RoomStatus, SeatKind, SeatRecord


def seat(seat_id: str, **fields: Any) -> SeatRecord:
    return dataclasses.replace(SeatRecord(seat_id, seat_id, "red", f"hash-{seat_id}"), **fields)


def ask(data: RoomRecordData) -> handlers.Ask:
    rules = rules_for("classic")
    players = tuple(s.id for s in data.seats)
    deck = tuple(f"card{i:02}" for i in range(84))
    state = None
    if data.status == "playing":
        state, _ = execute(None, StartGame(players, deck, rules, "ann"), random.Random(1))
    cards = card_source(Path("no-decks"))  # not read by these handlers
    return handlers.Ask(data, state, m.RoomSettings(), cards, online=lambda: {"ann", "bo"})


SEATS = (
    seat("ann"),
    seat("bo"),
    seat("cy", token_hash=None, kind=SeatKind.COMPUTER, level=BotLevel.EASY),
)
LOBBY = RoomRecordData("ROOM", 7, m.RoomSettings(), host="ann", seats=SEATS)
PLAYING = dataclasses.replace(LOBBY, status=RoomStatus.PLAYING)


def test_a_move_of_a_person_back_from_the_computer_reclaims_their_seat_first() -> None:
    handed = dataclasses.replace(seat("bo"), kind=SeatKind.AWAY, level=BotLevel.EASY)
    data = dataclasses.replace(PLAYING, seats=(SEATS[0], handed, SEATS[2]), late=("bo",))
    move = handlers.submit(ask(data), handed, m.SubmitCards(id="1", cards=["card01"]))
    assert isinstance(move, handlers.Move) and move.reclaim
    assert move.changes is not None and move.changes["late"] == ()
    own = handlers.give_clue(ask(PLAYING), SEATS[0], m.GiveClue(id="2", card="c", clue="x"))
    assert own == handlers.Move(GiveClue("ann", "c", "x"), None, False)  # nothing else changes


def test_refusals_carry_a_code_and_no_outcome() -> None:
    with pytest.raises(ServerError) as computer:
        handlers.vote(ask(PLAYING), SEATS[2], m.CastVote(id="1", card="card01"))
    assert computer.value.code is Code.SEAT_IS_BOT
    with pytest.raises(ServerError) as lobby:
        handlers.here(ask(LOBBY), SEATS[0], m.Here(id="2"))
    assert lobby.value.code is Code.NOT_PLAYING


def test_leaving_stores_the_record_and_closes_the_seat_after_the_answer() -> None:
    store = handlers.leave(ask(LOBBY), SEATS[1], m.Leave(id="1"))
    assert isinstance(store, handlers.Store)
    assert [s.id for s in store.data.seats] == ["ann", "cy"]
    assert store.close == handlers.Close("bo", Code.LEFT, "you left the room")
    assert handlers.reveal_seen(ask(PLAYING), SEATS[0], m.RevealSeen(id="2", round=1)) is None
