"""The baseline computer player: legal moves only, from a player's view only, seeded."""

from __future__ import annotations

import random

import pytest

from dixit.bots import RandomBot
from dixit.engine import StartGame, execute, player_view, playthrough, rules_for

DECK = tuple(f"card-{i:03}" for i in range(84))


def play(edition: str, players: int, seed: int) -> list[object]:
    """Every move of a seeded game of random bots, each seeing only its own view; the engine
    raises if a move were illegal."""
    names = tuple(f"p{i}" for i in range(players))
    bots = {p: RandomBot(random.Random(f"{seed}/{p}")) for p in names}
    state, _ = execute(None, StartGame(names, DECK, rules_for(edition)), random.Random(seed))
    rng = random.Random(seed + 1)
    moves = playthrough(state, rng, lambda s, player: bots[player].act(player_view(s, player)))
    return [command for command, _, _ in moves]


@pytest.mark.parametrize(("edition", "players"), [("classic", 3), ("classic", 6), ("2021", 8)])
def test_random_bots_finish_games_with_legal_moves_and_are_seeded(edition, players):
    assert play(edition, players, 11) == play(edition, players, 11)
    assert play(edition, players, 11) != play(edition, players, 12)


def test_a_bot_with_nothing_to_do_passes_and_a_spectator_view_gets_no_move():
    state, _ = execute(None, StartGame(("a", "b", "c", "d"), DECK, first_storyteller="a"),
                       random.Random(1))  # fmt: skip
    bot = RandomBot(random.Random(1))
    assert bot.act(player_view(state, "b")) is None  # waiting for the storyteller
    assert bot.act(player_view(state, None)) is None
    assert bot.act(player_view(state, "a")) is not None
