"""``dixit replay FILE``: check a saved game is a legal game and print it round by round.

A saved game is JSON Lines, one event per line as :func:`dixit.engine.serialize.event_to_json`
writes it (a JSON array of the same objects is accepted too).

Checking is re-deciding: every player's action in the log (``ClueGiven``, ``CardsSubmitted``,
``VoteCast``) is turned back into its command and run through the engine's ``decide`` with the
randomness the log recorded (a shuffle must yield the recorded order, and must be a permutation of
the cards shuffled). The events ``decide`` produces must be exactly the events that follow in the
log: so the table, the reveal and its points, the draws from the pile, the next round and the
end of the game are all checked against the rules, not just read.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dixit.engine import (
    CardsSubmitted,
    CastVote,
    ClueGiven,
    Code,
    Command,
    EndGame,
    Event,
    GameEnded,
    GameError,
    GameStarted,
    GameState,
    GiveClue,
    Phase,
    PileReshuffled,
    RoundScored,
    RoundStarted,
    StartGame,
    SubmitCards,
    TableLaid,
    VoteCast,
    decide,
    evolve,
)
from dixit.engine.serialize import dumps

from ._common import LogError, parse_events_text, print_error, quiet_broken_pipe

PLAYER_EVENTS = (ClueGiven, CardsSubmitted, VoteCast, GameEnded)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="check a saved game's event log and print each round",
        description=(
            "Re-run a saved game (JSON Lines of events, or a JSON array), check it is a legal "
            "game, and print each round: clue, table, votes, points. An invalid log: exit "
            "status 2 and a JSON error (code, message, event index) on stderr."
        ),
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="saved game ('-' for stdin)")
    parser.add_argument(
        "--check", action="store_true", help="only check the log; print a one-line verdict"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        is_stdin = str(args.file) == "-"
        text = sys.stdin.read() if is_stdin else args.file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as bad:
        return print_error("io/unreadable", f"cannot read {args.file}: {bad}")
    try:
        events = parse_events_text(text)
        state = verify(events)
    except LogError as bad:
        return print_error(bad.code, bad.message, index=bad.index)
    try:
        if args.check:
            print(f"valid: {len(events)} events, {len(state.rounds)} rounds, {_ending(state)}")
        else:
            print(render(events, state))
    except BrokenPipeError:
        return quiet_broken_pipe()
    return 0


# --- checking ---------------------------------------------------------------------------------


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
        return CastVote(event.player, event.card)
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
        raise LogError(bad.code, bad.message, at) from None
    except _Mismatch as bad:
        raise LogError(Code.EVENT_INVALID, bad.message, bad.index) from None
    for offset, expected in enumerate(produced):
        index = at + offset
        if index >= len(events):
            raise LogError(
                Code.EVENT_INVALID,
                f"the log stops where the rules give {type(expected).__name__}",
                index,
            )
        if events[index] != expected:
            raise LogError(
                Code.EVENT_INVALID,
                f"{type(events[index]).__name__} does not follow from the rules; "
                f"expected {_describe(expected)}",
                index,
            )
        state = evolve(state, expected)
    assert state is not None
    return state, at + len(produced)


def verify(events: Sequence[Event]) -> GameState:
    """The final state of a legal log, or a :class:`LogError` at the first wrong event."""
    first = events[0]
    if not isinstance(first, GameStarted):
        raise LogError(Code.EVENT_INVALID, "a game's first event must be GameStarted", 0)
    opening = events[2] if len(events) > 2 else None
    if not isinstance(opening, RoundStarted):
        raise LogError(Code.EVENT_INVALID, "a game starts GameStarted, CardsDrawn, RoundStarted", 1)
    start = StartGame(first.players, first.pile, first.rules, opening.storyteller)
    state, at = _step(None, start, events, 0)
    while at < len(events):
        if state.phase is Phase.OVER:
            raise LogError(Code.EVENT_INVALID, "events after the end of the game", at)
        command = _command_for(events[at])
        if command is None:
            raise LogError(
                Code.EVENT_INVALID,
                f"{type(events[at]).__name__} here does not follow from the rules; "
                "expected a player's clue, cards or vote, or the game ended early",
                at,
            )
        state, at = _step(state, command, events, at)
    return state


# --- printing ---------------------------------------------------------------------------------


def _ending(state: GameState) -> str:
    if state.phase is Phase.OVER:
        return f"game over ({state.end_reason}), winners: {', '.join(state.winners)}"
    return f"game not finished (round {state.round}, {state.phase} phase)"


def _round_text(scored: RoundScored, totals: dict[str, int], players: Sequence[str]) -> str:
    owners = dict(scored.owners)
    number = {card: i for i, card in enumerate(scored.table, start=1)}
    points = scored.points()
    lines = [f'Round {scored.round}: storyteller {scored.storyteller}, clue "{scored.clue}"']
    lines.append("  table:")
    for i, card in enumerate(scored.table, start=1):
        owner = owners[card]
        mark = "  <- storyteller's card" if card == scored.storyteller_card else ""
        lines.append(f"    {i}. {card}  {owner}{mark}")
    lines.append("  votes:")
    for voter, card in scored.votes:
        found = "found it" if card == scored.storyteller_card else f"{owners[card]}'s card"
        lines.append(f"    {voter} -> {number[card]} ({found})")
    outcome = {"everybody": "everybody found it", "nobody": "nobody found it"}.get(
        scored.outcome, "some found it"
    )
    lines.append(f"  outcome: {outcome}")
    lines.append("  points: " + ", ".join(f"{p} +{points.get(p, 0)}" for p in players))
    lines.append("  totals: " + ", ".join(f"{p} {totals[p]}" for p in players))
    return "\n".join(lines)


def render(events: Sequence[Event], state: GameState) -> str:
    """Every round of a checked log, then the result."""
    first = events[0]
    assert isinstance(first, GameStarted)
    players = first.players
    options = first.rules.options()
    lines = [
        f"Game: {first.rules.edition} edition, {len(players)} players ({', '.join(players)})"
        + (f", options {options}" if options else "")
        + f", {len(first.pile)} cards",
        "",
    ]
    totals = dict.fromkeys(players, 0)
    for event in events:
        if isinstance(event, RoundScored):
            for award in event.awards:
                totals[award.player] += award.points
            lines.append(_round_text(event, totals, players))
            lines.append("")
        elif isinstance(event, PileReshuffled):
            lines.append(f"(discards shuffled into a new draw pile of {len(event.pile)} cards)")
            lines.append("")
        elif isinstance(event, GameEnded):
            lines.append(f"Game over ({event.reason}). Winner(s): {', '.join(event.winners)}")
    if state.phase is not Phase.OVER:
        lines.append(_ending(state).capitalize())
    lines.append(
        "Final scores: " + ", ".join(f"{p} {state.scores[p]}" for p in players)
        if state.phase is Phase.OVER
        else "Scores so far: " + ", ".join(f"{p} {state.scores[p]}" for p in players)
    )
    lines.append(f"Log valid: {len(events)} events.")
    return "\n".join(lines)
