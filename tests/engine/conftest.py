"""Helpers to script games move by move, by owner rather than by card id."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from dixit.engine import (
    CastVote,
    Event,
    GameState,
    GiveClue,
    StartGame,
    SubmitCards,
    execute,
    rules_for,
)


def make_deck(size: int = 84) -> tuple[str, ...]:
    return tuple(f"card-{i:03}" for i in range(size))


class Driver:
    """A game plus its event log, advanced by commands; each step checks replay consistency."""

    def __init__(
        self,
        players: tuple[str, ...],
        edition: str = "classic",
        seed: int = 0,
        first: str | None = None,
        deck_size: int = 84,
        **options: Any,
    ) -> None:
        self.rng = random.Random(seed)
        self.state: GameState
        self.events: list[Event] = []
        command = StartGame(players, make_deck(deck_size), rules_for(edition, **options), first)
        self.state, events = execute(None, command, self.rng)
        self.events.extend(events)

    def do(self, command: Any) -> list[Event]:
        self.state, events = execute(self.state, command, self.rng)
        self.events.extend(events)
        return events

    def clue(self, player: str, clue: str = "a clue", card: str | None = None) -> None:
        self.do(GiveClue(player, card or self.state.hands[player][0], clue))

    def submit(self, player: str, count: int | None = None) -> None:
        n = count or self.state.rules.cards_each_for(len(self.state.players))
        self.do(SubmitCards(player, self.state.hands[player][:n]))

    def submit_all(self) -> None:
        for player in self.state.players:
            if player != self.state.storyteller:
                self.submit(player)

    def card_of(self, owner: str, index: int = 0) -> str:
        if owner == self.state.storyteller:
            assert self.state.storyteller_card is not None
            return self.state.storyteller_card
        return self.state.submissions[owner][index]

    def vote_for(self, voter: str, owner: str, index: int = 0) -> None:
        self.do(CastVote(voter, self.card_of(owner, index)))

    def round(self, storyteller: str | None, votes: dict[str, str]) -> dict[str, int]:
        """Play one round: ``votes`` maps each voter to the owner of the card they pick."""
        teller = storyteller or self.state.storyteller
        assert teller is not None
        self.clue(teller)
        self.submit_all()
        for voter, owner in votes.items():
            self.vote_for(voter, owner)
        return self.state.rounds[-1].points()


@pytest.fixture
def driver() -> Callable[..., Driver]:
    return Driver


@pytest.fixture
def deck() -> Callable[[int], tuple[str, ...]]:
    return make_deck
