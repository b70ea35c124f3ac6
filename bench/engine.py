"""Engine throughput: complete 5-player classic games of random legal play, on one core.

Two figures:

- ``engine``: the engine's ``random_playthrough`` (random choices from ``legal_actions``);
- ``views``: each acting player's ``RandomBot`` gets its ``player_view`` (what ``dixit simulate``
  and the server's computer players do), then ``execute``.

Run: ``.venv/bin/python bench/engine.py`` (``--seconds 10`` per figure by default, or
``--games N``; ``--repeat 3`` for the best of three on a busy machine). Profile:
``.venv/bin/python -m cProfile -s tottime bench/engine.py --games 300 --only engine``.

``--per-action`` measures instead the engine's CPU time per player action (a clue, a card, a
vote or a void: ``decide`` and folding its events, random legal choices included) in games at
each table: classic at 6, Odyssey at 6 and 12 (two votes), party and teams at 6 and 12.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable

from dixit.bots import RandomBot
from dixit.engine import (
    CardsSubmitted,
    CardVoided,
    ClueGiven,
    Rules,
    VoteCast,
    player_view,
    random_playthrough,
    rules_for,
)

PLAYERS = ("p1", "p2", "p3", "p4", "p5")
DECK = tuple(f"c{i:02}" for i in range(84))


def engine_game(rules: Rules, seed: int) -> int:
    """One game, choices drawn from ``legal_actions``; returns the number of rounds."""
    state, _ = random_playthrough(rules, PLAYERS, DECK, seed, first_storyteller=PLAYERS[0])
    return len(state.rounds)


def view_game(rules: Rules, seed: int) -> int:
    """One game of ``RandomBot`` players, each seeing only its ``player_view``."""
    bots = {p: RandomBot(random.Random(seed * 10 + i)) for i, p in enumerate(PLAYERS)}
    state, _ = random_playthrough(
        rules,
        PLAYERS,
        DECK,
        seed,
        first_storyteller=PLAYERS[0],
        choose=lambda state, player: bots[player].act(player_view(state, player)),
    )
    return len(state.rounds)


def measure(
    play: Callable[[Rules, int], int], rules: Rules, seconds: float, games: int | None
) -> tuple[int, float]:
    """Games played and elapsed seconds: ``games`` games, or as many as fit in ``seconds``."""
    for seed in range(20):  # warm-up
        play(rules, seed)
    done = 0
    started = time.perf_counter()
    while True:
        rounds = play(rules, 1000 + done)
        assert rounds == 11, rounds  # a complete 5-player classic game is 11 rounds
        done += 1
        elapsed = time.perf_counter() - started
        if (games is not None and done >= games) or (games is None and elapsed >= seconds):
            return done, elapsed


TABLES = (
    ("classic", "standard", 6),
    ("odyssey", "standard", 6),
    ("odyssey", "standard", 12),
    ("odyssey", "party", 6),
    ("odyssey", "party", 12),
    ("odyssey", "teams", 6),
    ("odyssey", "teams", 12),
)
ACTIONS = (ClueGiven, CardsSubmitted, VoteCast, CardVoided)


def per_action(edition: str, mode: str, players: int, games: int) -> tuple[int, float]:
    """Player actions in ``games`` random games, and the CPU seconds they took in all."""
    rules = rules_for(edition, mode)
    names = tuple(f"p{i}" for i in range(players))
    random_playthrough(rules, names, DECK, 0, first_storyteller=names[0])  # warm-up
    actions = 0
    cpu = 0.0
    for seed in range(games):
        started = time.process_time()
        _, events = random_playthrough(rules, names, DECK, seed, first_storyteller=names[0])
        cpu += time.process_time() - started
        actions += sum(isinstance(e, ACTIONS) for e in events)
    return actions, cpu


def main_per_action(games: int, repeat: int, as_json: bool) -> int:
    figures: dict[str, float] = {}
    for edition, mode, players in TABLES:
        runs = [per_action(edition, mode, players, games) for _ in range(repeat)]
        actions, cpu = min(runs, key=lambda run: run[1] / run[0])
        name = f"{edition}/{mode}/{players}"
        figures[name] = 1e6 * cpu / actions
        if not as_json:
            print(
                f"{name:<22} {games} games  {actions / games:6.1f} actions/game  "
                f"{1e6 * cpu / actions:6.2f} µs CPU/action  ({1000 * cpu / games:.2f} ms/game)"
            )
    if as_json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}))
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0, help="per figure (default 10)")
    parser.add_argument("--games", type=int, help="play exactly this many games per figure")
    parser.add_argument(
        "--only", choices=("engine", "views"), help="measure one figure (for profiling)"
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="measure each figure N times, report the best"
    )
    parser.add_argument("--json", action="store_true", help="print the (best) figures as JSON")
    parser.add_argument(
        "--per-action",
        action="store_true",
        help="engine CPU per action at 6 and 12 players (--games N per table, default 200)",
    )
    args = parser.parse_args()

    if hasattr(os, "sched_setaffinity"):  # one core
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    if args.per_action:
        return main_per_action(args.games or 200, args.repeat, args.json)
    rules = rules_for("classic")
    figures: dict[str, float] = {}
    for name, play in (("engine", engine_game), ("views", view_game)):
        if args.only and name != args.only:
            continue
        rates = []
        for _ in range(args.repeat):
            done, elapsed = measure(play, rules, args.seconds, args.games)
            rates.append(done / elapsed)
            if not args.json:
                print(
                    f"{name:<7} {done:>6} games in {elapsed:6.2f} s"
                    f"  {done / elapsed:8,.0f} games/s  ({1000 * elapsed / done:.3f} ms/game)"
                )
        figures[name] = max(rates)
        if not args.json and args.repeat > 1:
            print(
                f"{name:<7} best {max(rates):,.0f} games/s, median {statistics.median(rates):,.0f}"
                f" over {args.repeat} runs"
            )
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in figures.items()}))
    else:
        print(
            f"5-player classic, random legal play, one core; Python "
            f"{platform.python_version()} on {platform.machine()} ({platform.processor() or '?'})",
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
