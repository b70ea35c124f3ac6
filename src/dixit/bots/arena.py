"""Matches between levels: whole games through the engine, each bot seeing only its view.

:func:`play_game` plays one game; :func:`tally` adds a finished game to per-level statistics
(win rate, storyteller success = some but not all found, listener accuracy, votes drawn by
decoys); :func:`wilson` gives a 95 % confidence interval for a rate.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from dixit.engine import (
    Event,
    GameState,
    Rules,
    StartGame,
    execute,
    player_view,
    playthrough,
)

from .base import Bot

BotFactory = Callable[[str, random.Random], Bot]  # (seat's level, its rng) -> bot


def bot_rng(seed: int, seat: int) -> random.Random:
    """A bot's own random stream, a pure function of the game seed and the seat."""
    return random.Random(f"dixit-bot/{seed}/{seat}")


def play_game(
    rules: Rules,
    players: Sequence[str],
    bots: Sequence[Bot],
    deck: Sequence[str],
    seed: int,
    *,
    on_round: Callable[[GameState], None] | None = None,
) -> tuple[GameState, list[Event]]:
    """One complete game; ``bots[i]`` plays ``players[i]``. ``seed`` drives the shuffles."""
    rng = random.Random(seed)
    seats = dict(zip(players, bots, strict=True))
    start = StartGame(tuple(players), tuple(deck), rules, first_storyteller=players[0])
    state, log = execute(None, start, rng)
    rounds = 0
    for _command, after, events in playthrough(
        state, rng, lambda s, player: seats[player].act(player_view(s, player))
    ):
        state = after
        log.extend(events)
        if on_round is not None and len(state.rounds) > rounds:
            rounds = len(state.rounds)
            on_round(state)
    return state, log


@dataclass(slots=True)
class LevelStats:
    """Counts for one level (or one outside agent) over many games."""

    seats: int = 0
    wins: int = 0
    told: int = 0
    told_some: int = 0  # some but not all found the card
    votes: int = 0
    votes_found: int = 0
    decoys: int = 0  # cards handed in as a non-storyteller
    decoy_votes: int = 0  # votes those cards drew

    def as_dict(self) -> dict[str, object]:
        return {
            "seats": self.seats,
            "win_rate": _rate(self.wins, self.seats),
            "storyteller_success": _rate(self.told_some, self.told),
            "listener_accuracy": _rate(self.votes_found, self.votes),
            "votes_per_decoy": {
                "mean": round(self.decoy_votes / self.decoys, 3) if self.decoys else None,
                "cards": self.decoys,
            },
        }


def _rate(k: int, n: int) -> dict[str, object]:
    low, high = wilson(k, n)
    return {"k": k, "n": n, "rate": round(k / n, 3) if n else None, "ci95": [low, high]}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score 95 % interval for ``k`` successes out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (round(max(0.0, centre - half), 3), round(min(1.0, centre + half), 3))


@dataclass(slots=True)
class Tally:
    levels: dict[str, LevelStats] = field(default_factory=dict)

    def add(self, state: GameState, seat_levels: Sequence[str]) -> None:
        """Count one finished game whose seat ``i`` was played at ``seat_levels[i]``."""
        level_of = dict(zip(state.players, seat_levels, strict=True))
        for p in state.players:
            stats = self.levels.setdefault(level_of[p], LevelStats())
            stats.seats += 1
            stats.wins += p in state.winners
        for r in state.rounds:
            teller = self.levels[level_of[r.storyteller]]
            teller.told += 1
            teller.told_some += r.outcome == "some"
            drawn: dict[str, int] = {}
            for voter, card in r.votes:
                stats = self.levels[level_of[voter]]
                stats.votes += 1
                stats.votes_found += card == r.storyteller_card
                drawn[card] = drawn.get(card, 0) + 1
            for card, p in r.owners:
                if p != r.storyteller:
                    stats = self.levels[level_of[p]]
                    stats.decoys += 1
                    stats.decoy_votes += drawn.get(card, 0)
