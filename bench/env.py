"""Research environment throughput: complete 5-player classic games of random masked actions.

Three figures on one core: ``engine`` (the engine's ``random_playthrough``), ``env`` (the raw
``dixit_v0`` environment: ``last()`` then a random legal action from the mask, as a learner's
loop does) and its steps per second.

Run: ``.venv/bin/python bench/env.py [--seconds 10] [--json]``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import sys
import time
from collections.abc import Callable

from dixit.engine import random_playthrough, rules_for
from dixit.env import dixit_v0

PLAYERS = ("p1", "p2", "p3", "p4", "p5")
DECK = tuple(f"c{i:02}" for i in range(84))


def engine_game(seed: int) -> int:
    _, events = random_playthrough(rules_for("classic"), PLAYERS, DECK, seed)
    return len(events)


ENV = dixit_v0.raw_env(players=5)


def env_game(seed: int, env: dixit_v0.raw_env = ENV) -> int:
    """One game through the raw environment; returns the number of steps."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not env.terminations[env.agent_selection]:
        observation, _, _, _, _ = env.last()
        mask = observation["action_mask"]
        env.step(rng.choice(mask.nonzero()[0].tolist()))
        steps += 1
    return steps


def measure(play: Callable[[int], int], seconds: float) -> tuple[int, int, float]:
    for seed in range(20):
        play(seed)
    games = units = 0
    started = time.perf_counter()
    while (elapsed := time.perf_counter() - started) < seconds:
        units += play(1000 + games)
        games += 1
    return games, units, elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    figures = {}
    games, _, elapsed = measure(engine_game, args.seconds)
    figures["engine_games_per_s"] = games / elapsed
    games, steps, elapsed = measure(env_game, args.seconds)
    figures["env_games_per_s"] = games / elapsed
    figures["env_steps_per_s"] = steps / elapsed
    if args.json:
        print(json.dumps({k: round(v, 1) for k, v in figures.items()}))
    else:
        for name, value in figures.items():
            print(f"{name:<20} {value:10,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
