"""Every worked example in the rulebooks (RULES.md lists them), played through the engine."""

from __future__ import annotations

import pytest


def full(points: dict[str, int], players: tuple[str, ...]) -> dict[str, int]:
    return {p: points.get(p, 0) for p in players}


def test_classic_italian_example(driver):
    # 000 (Italian): only Denise finds Luca's card (no. 4); two players vote for Denise's card
    # (no. 1), one for Massimo's (no. 3). Massimo sits to Luca's left and tells next.
    players = ("Luca", "Massimo", "Denise", "Marco", "Marta")
    game = driver(players, first="Luca")
    points = game.round(
        "Luca", {"Denise": "Luca", "Massimo": "Denise", "Marco": "Denise", "Marta": "Massimo"}
    )
    assert full(points, players) == {"Denise": 5, "Luca": 3, "Massimo": 1, "Marco": 0, "Marta": 0}
    assert game.state.rounds[-1].outcome == "some"
    assert game.state.storyteller == "Massimo"
    assert game.state.round == 2


@pytest.mark.parametrize(
    ("players", "teller", "finder", "others"),
    [
        # 003 (Spanish): Julián tells, Leo finds; Tomás sits to Julián's left.
        (("Julián", "Tomás", "Leo", "Matilde", "Nicolás"), "Julián", "Leo", ("Matilde", "Nicolás")),
        # 002 (Polish): the same round with Polish names.
        (
            ("Julian", "Tomek", "Lena", "Matylda", "Mikołaj"),
            "Julian",
            "Lena",
            ("Matylda", "Mikołaj"),
        ),
    ],
)
def test_classic_spanish_and_polish_example(driver, players, teller, finder, others):
    # Only the finder finds the storyteller's card; two players vote the finder's card (no. 1);
    # one votes the card of the player to the storyteller's left (no. 3).
    left = players[1]
    game = driver(players, first=teller)
    points = game.round(teller, {finder: teller, others[0]: left, others[1]: finder, left: finder})
    assert full(points, players) == {
        finder: 5,
        teller: 3,
        left: 1,
        others[0]: 0,
        others[1]: 0,
    }
    assert game.state.storyteller == left


def test_classic_portuguese_example(driver):
    # 004 (Portuguese): Rosarinho tells; only Matilde finds it; two votes on Sebastião's card,
    # one on Mafalda's.
    players = ("Rosarinho", "Sebastião", "Matilde", "Mafalda", "Vicente")
    game = driver(players, first="Rosarinho")
    points = game.round(
        "Rosarinho",
        {"Matilde": "Rosarinho", "Mafalda": "Sebastião", "Vicente": "Sebastião",
         "Sebastião": "Mafalda"},
    )  # fmt: skip
    assert full(points, players) == {
        "Matilde": 3,
        "Rosarinho": 3,
        "Sebastião": 2,
        "Mafalda": 1,
        "Vicente": 0,
    }


def test_2021_six_player_example(driver):
    # 001 (Italian, 2021): Pink tells; Blue and Green find it; Red votes Purple's card; Purple and
    # Yellow vote Blue's card.
    players = ("Pink", "Blue", "Green", "Purple", "Yellow", "Red")
    game = driver(players, edition="2021", first="Pink")
    points = game.round(
        "Pink",
        {"Blue": "Pink", "Green": "Pink", "Red": "Purple", "Purple": "Blue", "Yellow": "Blue"},
    )
    assert full(points, players) == {
        "Pink": 3,
        "Blue": 5,
        "Green": 3,
        "Purple": 1,
        "Yellow": 0,
        "Red": 0,
    }
    reasons = {(a.player, a.reason, a.points) for a in game.state.rounds[-1].awards}
    assert ("Blue", "votes_received", 2) in reasons
    assert ("Blue", "found_storyteller", 3) in reasons
    assert ("Pink", "storyteller_found_by_some", 3) in reasons
