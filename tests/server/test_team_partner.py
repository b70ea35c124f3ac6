"""Team play: a computer partner leaves the team's move to a person partner who is at the
table, for a while (:data:`~dixit.server.autoplay.PARTNER_WAIT_S`, scaled like every pace),
and plays at its own pace when the person is away, late or handed to the computer.

Built on :class:`~dixit.server.autoplay.Autoplay`'s contract, its ``Table``: here plain values,
no room, no clock waited on."""

from __future__ import annotations

import asyncio
import dataclasses
import random
from typing import Any, NoReturn

from dixit.engine import GameState, GiveClue, Phase, StartGame, execute, rules_for
from dixit.protocol import messages as m
from dixit.server.autoplay import PACE, PARTNER_WAIT_S, Autoplay, partner_there
from dixit.server.records import BotLevel, RoomRecordData, SeatKind, SeatRecord
from dixit.server.shelf import Shelf

PLAYERS = ("ann", "bot1", "st1", "st2", "cy", "di")  # teams: ann+bot1, st1+st2, cy+di


def seat(seat_id: str, person: bool) -> SeatRecord:
    if person:
        return SeatRecord(seat_id, seat_id, "red", token_hash=f"hash-{seat_id}")
    return SeatRecord(seat_id, seat_id, "red", None, SeatKind.COMPUTER, BotLevel.EASY)


def _away(seat: SeatRecord) -> SeatRecord:
    """``seat`` as the computer plays it while its person is away."""
    return dataclasses.replace(seat, kind=SeatKind.AWAY, level=BotLevel.EASY)


def submitting(team_size_rules: str = "teams") -> tuple[GameState, RoomRecordData]:
    """Submit phase: st1's team told the clue; ann+bot1 and cy+di (people) still submit."""
    rules = rules_for("odyssey", team_size_rules)
    deck = tuple(f"card{i:02}" for i in range(84))
    start = StartGame(PLAYERS, deck, rules, first_storyteller="st1")
    state, _ = execute(None, start, random.Random(1))
    state, _ = execute(
        state, GiveClue("st1", state.team_cards("st1")[0], "a clue"), random.Random(2)
    )
    assert state.phase is Phase.SUBMIT
    people = {"ann", "cy", "di"}
    seats = tuple(seat(p, p in people) for p in PLAYERS)
    data = RoomRecordData("ROOM", 7, m.RoomSettings(), status="playing", host="ann", seats=seats)
    return state, data


def test_a_person_partner_at_the_table_has_the_team_move() -> None:
    state, data = submitting()
    assert partner_there(state, data, {"ann"}, "bot1")
    assert not partner_there(state, data, set(), "bot1")  # ann is away
    late = dataclasses.replace(data, late=("ann",))
    assert not partner_there(state, late, {"ann"}, "bot1")  # a timer played for her
    handed = dataclasses.replace(
        data, seats=tuple(_away(s) if s.id == "ann" else s for s in data.seats)
    )
    assert not partner_there(state, handed, {"ann"}, "bot1")  # the computer plays her seat
    assert not partner_there(state, data, {"ann", "st2"}, "st1")  # computers only
    standard, plain = submitting("standard")
    assert not partner_there(standard, plain, {"ann"}, "bot1")  # no teams


class Plan:
    """A :class:`Table` of plain values: the computer players' plan can be read, nothing done."""

    code = "ROOM"
    lock = asyncio.Lock()
    settings = m.RoomSettings(edition="odyssey", mode="teams")

    def __init__(self, state: GameState, data: RoomRecordData, online: set[str]) -> None:
        self.state, self.data, self.seats_online = state, data, online

    def online(self) -> set[str]:
        return self.seats_online

    def driving(self) -> bool:
        return True

    async def apply(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError("nothing is played while only the plan is asked for")

    async def commit(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError("nothing is stored while only the plan is asked for")

    async def sync(self) -> NoReturn:
        raise AssertionError("nothing is read while only the plan is asked for")


class NoBooks:
    """A :class:`~dixit.server.shelf.Source` never read: no card book is built for a plan."""

    log = ()

    def card_dicts(self) -> NoReturn:
        raise AssertionError("no card book is built while only the plan is asked for")

    async def events_of(self, game: int) -> NoReturn:
        raise AssertionError("no card book is built while only the plan is asked for")


def planned(state: GameState, data: RoomRecordData, online: set[str]) -> tuple[float, str]:
    """When (seconds from now) and who the computer players move next, at pace scale 1."""
    autoplay = Autoplay(Plan(state, data, online), Shelf(NoBooks()), scale=1.0)
    plan = autoplay.next_move(100.0)
    assert plan is not None
    return plan[0], plan[1].id


def test_the_computer_partner_waits_for_the_person_then_plays_at_its_pace() -> None:
    state, data = submitting()
    wait, who = planned(state, data, {"ann", "cy", "di"})
    assert who == "bot1"  # the only computer with a move: cy and di are people
    assert PARTNER_WAIT_S <= wait <= PARTNER_WAIT_S + 0.001
    low, high = PACE[Phase.SUBMIT]
    wait, who = planned(state, data, {"cy", "di"})  # ann went away: its own pace
    assert who == "bot1" and low <= wait <= high


class Books(Shelf):
    """A shelf whose card book is a placeholder (the test's player never reads it)."""

    async def book_for_game(self, game: int, lang: str) -> Any:
        return object()


def test_a_computer_player_is_told_which_seats_are_people_now(monkeypatch: Any) -> None:
    """The storyteller models people and computers apart (#27): the server tells each of its
    players, at every move, the seats that people play now (public at the table)."""
    import dixit.bots

    told: list[frozenset[str]] = []

    class Listener:
        def __init__(self, people: Any) -> None:
            self.people = people

        def act(self, view: Any) -> None:
            told.append(frozenset(self.people()))  # then the random move stands in

    def make_bot(level: str, **kwargs: Any) -> Listener:
        return Listener(kwargs["people"])

    monkeypatch.setattr(dixit.bots, "make_bot", make_bot)
    state, data = submitting()
    table = Plan(state, data, {"ann", "cy", "di"})
    autoplay = Autoplay(table, Books(NoBooks()), scale=1.0)
    bot1 = next(s for s in data.seats if s.id == "bot1")
    assert asyncio.run(autoplay.decide(bot1)) is not None
    handed = tuple(_away(s) if s.id == "cy" else s for s in data.seats)
    table.data = dataclasses.replace(data, seats=handed)  # cy's seat went to the computer
    asyncio.run(autoplay.decide(bot1))
    assert told == [frozenset({"ann", "cy", "di"}), frozenset({"ann", "di"})]
