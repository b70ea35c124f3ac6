"""Checking a recorded game: every action re-decided, every consequence compared with the log.

Each player's action in the log (``ClueGiven``, ``CardsSubmitted``, ``VoteCast``, ``CardVoided``,
an early ``GameEnded``) is turned back into its command and run through :func:`decide` with the
randomness the log recorded (a shuffle must yield the recorded order, and must be a permutation of
the cards shuffled). The events ``decide`` produces must be exactly the events that follow in the
log: so the table, the reveal and its points, the draws, the next round and the end are checked
against the rules, not just read.
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import Any

from .commands import CastVote, Command, EndGame, GiveClue, StartGame, SubmitCards, VoidCard
from .decide import decide
from .errors import Code, GameError, InvalidLog
from .events import (
    CardsSubmitted,
    CardVoided,
    ClueGiven,
    Event,
    GameEnded,
    GameStarted,
    PileReshuffled,
    RoundStarted,
    TableLaid,
    VoteCast,
)
from .serialize import dumps
from .state import GameState, Phase, evolve

PLAYER_EVENTS = (ClueGiven, CardsSubmitted, VoteCast, CardVoided, GameEnded)


class _Mismatch(Exception):
    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.message, self.index = message, index


@dataclass
class _Recorded:
    index: int
    order: tuple[str, ...]


class RecordedRandom(random.Random):
    """Randomness read back from the log: each shuffle yields the next recorded order."""

    def __init__(self, orders: Sequence[_Recorded], at: int) -> None:
        super().__init__(0)
        self.orders = list(orders)
        self.at = at

    def shuffle(self, x: MutableSequence[Any]) -> None:
        if not self.orders:
            raise _Mismatch("the rules shuffle here but the log records no shuffle", self.at)
        recorded = self.orders.pop(0)
        if sorted(x) != sorted(recorded.order):
            raise _Mismatch(
                "the recorded order is not a shuffle of the cards the rules shuffle here",
                recorded.index,
            )
        x[:] = recorded.order

    def random(self) -> float:  # pragma: no cover - the engine only shuffles
        raise _Mismatch("the rules drew a random number the log cannot reproduce", self.at)


def _command_for(event: Event) -> Command | None:
    if isinstance(event, ClueGiven):
        return GiveClue(event.storyteller, event.card, event.clue)
    if isinstance(event, CardsSubmitted):
        return SubmitCards(event.player, event.cards)
    if isinstance(event, VoteCast):
        return CastVote(event.player, event.card, event.second)
    if isinstance(event, CardVoided):
        return VoidCard(event.storyteller, event.card)
    if isinstance(event, GameEnded):  # ended early (by the host); rules endings follow a vote
        return EndGame(event.reason)
    return None


def _describe(event: Event) -> str:
    text = dumps(event)
    return text if len(text) <= 300 else text[:297] + "..."


def _step(
    state: GameState | None, command: Command, events: Sequence[Event], at: int
) -> tuple[GameState, int]:
    """Re-decide ``command`` (recorded at ``at``) and check the log holds its events next."""
    end = at + 1
    while end < len(events) and not isinstance(events[end], PLAYER_EVENTS):
        end += 1
    orders = [
        _Recorded(i, e.pile if isinstance(e, GameStarted | PileReshuffled) else e.cards)
        for i, e in enumerate(events[at:end], start=at)
        if isinstance(e, GameStarted | PileReshuffled | TableLaid)
    ]
    try:
        produced = decide(state, command, RecordedRandom(orders, at))
    except GameError as bad:
        raise InvalidLog(bad.code, bad.message, at) from None
    except _Mismatch as bad:
        raise InvalidLog(Code.EVENT_INVALID, bad.message, bad.index) from None
    for offset, expected in enumerate(produced):
        index = at + offset
        if index >= len(events):
            raise InvalidLog(
                Code.EVENT_INVALID,
                f"the log stops where the rules give {type(expected).__name__}",
                index,
            )
        if events[index] != expected:
            raise InvalidLog(
                Code.EVENT_INVALID,
                f"{type(events[index]).__name__} does not follow from the rules; "
                f"expected {_describe(expected)}",
                index,
            )
        state = evolve(state, expected)
    assert state is not None
    return state, at + len(produced)


def verify(events: Sequence[Event]) -> GameState:
    """The final state of a legal log, or :class:`InvalidLog` at the first wrong event."""
    if not events:
        raise InvalidLog(Code.EVENT_INVALID, "the log holds no event", 0)
    first = events[0]
    if not isinstance(first, GameStarted):
        raise InvalidLog(Code.EVENT_INVALID, "a game's first event must be GameStarted", 0)
    opening = events[2] if len(events) > 2 else None
    if not isinstance(opening, RoundStarted):
        raise InvalidLog(
            Code.EVENT_INVALID, "a game starts GameStarted, CardsDrawn, RoundStarted", 1
        )
    start = StartGame(first.players, first.pile, first.rules, opening.storyteller)
    state, at = _step(None, start, events, 0)
    while at < len(events):
        if state.phase is Phase.OVER:
            raise InvalidLog(Code.EVENT_INVALID, "events after the end of the game", at)
        command = _command_for(events[at])
        if command is None:
            raise InvalidLog(
                Code.EVENT_INVALID,
                f"{type(events[at]).__name__} here does not follow from the rules; "
                "expected a player's clue, cards or vote, or the game ended early",
                at,
            )
        state, at = _step(state, command, events, at)
    return state
