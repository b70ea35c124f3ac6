"""A command's random numbers: fixed by (room seed, game, version), drawn lazily."""

from __future__ import annotations

import gc
import random
import weakref

from dixit.engine import StartGame, execute
from dixit.server.seeding import DeferredRandom, command_seed


def test_deferred_random_draws_what_random_draws() -> None:
    seed = command_seed(2**62 + 12345, 3, 41)
    for draw in (
        lambda r: r.shuffle(cards := list(range(84))) or cards,
        lambda r: [r.choice("abcdef") for _ in range(20)],
        lambda r: r.sample(range(100), 7),
        lambda r: [r.random() for _ in range(5)],
        lambda r: [r.getrandbits(70), r.randrange(10**6), r.uniform(0.2, 0.6)],
        lambda r: r.getstate(),
    ):
        assert draw(DeferredRandom(seed)) == draw(random.Random(seed))
    lazy = DeferredRandom(seed)
    lazy.seed(7)
    assert lazy.random() == random.Random(7).random()


def test_a_used_generator_is_freed_without_the_collector() -> None:
    """One is made per command: a reference cycle would leave it to the garbage collector."""
    rng = DeferredRandom(command_seed(5, 1, 2))
    rng.shuffle(list(range(10)))
    gone = weakref.ref(rng)
    gc.disable()
    try:
        del rng
        assert gone() is None
    finally:
        gc.enable()


def test_the_seed_differs_for_every_game_and_version_and_deals_alike() -> None:
    seeds = {command_seed(s, g, v) for s in (0, 1, 2**63 - 1) for g in (1, 2) for v in range(50)}
    assert len(seeds) == 3 * 2 * 50
    start = StartGame(players=("a", "b", "c"), deck=tuple(f"c{i}" for i in range(84)))
    deal = [execute(None, start, DeferredRandom(command_seed(9, 1, 0)))[0] for _ in range(2)]
    assert deal[0].hands == deal[1].hands and deal[0].pile == deal[1].pile
    other = execute(None, start, DeferredRandom(command_seed(9, 2, 0)))[0]
    assert other.pile != deal[0].pile
