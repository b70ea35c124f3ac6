"""``dixit replay FILE``: check a saved game is a legal game and print it round by round.

A saved game is JSON Lines, one event per line as :func:`dixit.engine.serialize.event_to_json`
writes it (a JSON array of the same objects is accepted too).

Checking is the engine's :func:`~dixit.engine.verify`: every action is re-decided with the
randomness the log recorded and must produce exactly the events that follow it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from dixit.engine import (
    Event,
    GameEnded,
    GameStarted,
    GameState,
    InvalidLog,
    Phase,
    PileReshuffled,
    RoundScored,
    verify,
)

from ._common import LogError, parse_events_text, print_error, quiet_broken_pipe


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
    except (LogError, InvalidLog) as bad:
        return print_error(bad.code, bad.message, index=bad.index)
    try:
        if args.check:
            print(f"valid: {len(events)} events, {len(state.rounds)} rounds, {_ending(state)}")
        else:
            print(render(events, state))
    except BrokenPipeError:
        return quiet_broken_pipe()
    return 0


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
        found = f"{owners[card]}'s card"
        if card == scored.storyteller_card:
            found = "the storyteller's card" if scored.void is not None else "found it"
        lines.append(f"    {voter} -> {number[card]} ({found})")
    outcome = {
        "everybody": "everybody found it",
        "nobody": "nobody found it",
        "party": "party round: voters score the voters on their card",
    }.get(scored.outcome, "some found it")
    lines.append(f"  outcome: {outcome}")
    if scored.void is not None:
        lines.append(f"  voided by the storyteller: {number[scored.void]}")
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
        f"Game: {first.rules.edition} edition"
        + (f", {first.rules.mode} mode" if first.rules.mode != "standard" else "")
        + f", {len(players)} players ({', '.join(players)})"
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
