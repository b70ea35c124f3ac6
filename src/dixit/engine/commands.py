"""What players (and the host) ask the engine to do. Imperative names; frozen values."""

from __future__ import annotations

from dataclasses import dataclass, field

from .results import EndReason
from .rules import CLASSIC, Rules
from .values import quick_init

PlayerId = str
CardId = str


@quick_init
@dataclass(frozen=True, slots=True)
class StartGame:
    """Shuffle ``deck`` and deal. ``first_storyteller`` None: the first player to give a clue."""

    players: tuple[PlayerId, ...]
    deck: tuple[CardId, ...]
    rules: Rules = field(default=CLASSIC)
    first_storyteller: PlayerId | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class GiveClue:
    """The storyteller picks a card from their hand and says a clue for it."""

    player: PlayerId
    card: CardId
    clue: str


@quick_init
@dataclass(frozen=True, slots=True)
class SubmitCards:
    """A player other than the storyteller hands in their matching card(s), face down."""

    player: PlayerId
    cards: tuple[CardId, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class CastVote:
    """A player other than the storyteller votes for the card they think is the storyteller's."""

    player: PlayerId
    card: CardId


@quick_init
@dataclass(frozen=True, slots=True)
class EndGame:
    """End the game now (e.g. the host stops it): the leaders at this moment win."""

    reason: EndReason | str = EndReason.ENDED_BY_HOST


Command = StartGame | GiveClue | SubmitCards | CastVote | EndGame
PLAYER_COMMANDS: tuple[type[GiveClue | SubmitCards | CastVote], ...] = (
    GiveClue,
    SubmitCards,
    CastVote,
)
