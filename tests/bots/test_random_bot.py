"""The baseline computer player: legal moves only, from a player's view only, seeded."""

from __future__ import annotations

import random

import pytest

from dixit.bots import RandomBot
from dixit.engine import Phase, StartGame, execute, player_view, rules_for, waiting_for

DECK = tuple(f"card-{i:03}" for i in range(84))


def play(edition: str, players: int, seed: int) -> list[object]:
    names = tuple(f"p{i}" for i in range(players))
    rng = random.Random(seed)
    state, _ = execute(None, StartGame(names, DECK, rules_for(edition)), rng)
    bots = {p: RandomBot(random.Random(f"{seed}/{p}")) for p in names}
    moves: list[object] = []
    while state.phase is not Phase.OVER:
        for player in waiting_for(state):
            view = player_view(state, player)
            command = bots[player].act(view)
            assert command is not None, f"{player} had nothing to do in {state.phase}"
            state, _ = execute(state, command, rng)  # raises if the move were illegal
            moves.append(command)
    return moves


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
