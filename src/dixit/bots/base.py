"""The interface every computer player implements."""

from __future__ import annotations

from typing import Protocol

from dixit.engine import CastVote, GiveClue, PlayerView, SubmitCards, VoidCard

BotCommand = GiveClue | SubmitCards | CastVote | VoidCard


class Bot(Protocol):
    """Chooses a move from what one player sees. Returns None when it has nothing to do."""

    name: str

    def act(self, view: PlayerView) -> BotCommand | None: ...
