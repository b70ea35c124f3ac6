"""The baseline: a uniformly random legal move, from the view's legal actions alone."""

from __future__ import annotations

import random

from dixit.engine import CastVote, GiveClue, PlayerView, SubmitCards

from .base import BotCommand

_WORDS = (
    "dream", "journey", "silence", "home", "lost", "hope", "night", "secret", "childhood",
    "freedom", "memory", "balance", "storm", "wonder", "alone", "together", "light", "shadow",
)  # fmt: skip


class RandomBot:
    """Picks any legal card; clues are random words. Deterministic for a seeded ``rng``."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def act(self, view: PlayerView) -> BotCommand | None:
        legal, player = view.legal, view.viewer
        if player is None:
            return None
        if legal.give_clue:
            clue = " ".join(self.rng.sample(_WORDS, self.rng.randint(1, 3)))
            return GiveClue(player, self.rng.choice(legal.give_clue), clue)
        if legal.submit:
            return SubmitCards(player, tuple(self.rng.sample(legal.submit, legal.submit_count)))
        if legal.vote:
            return CastVote(player, self.rng.choice(legal.vote))
        return None
