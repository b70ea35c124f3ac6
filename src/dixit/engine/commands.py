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
    """A player other than the storyteller votes for the card they think is the storyteller's
    (in party play: the card they think most others pick; the storyteller votes too).

    ``second``: a second vote, on another card, where the rules give two (7 or more Odyssey
    players); it is optional. Both votes are cast at once and are final.
    """

    player: PlayerId
    card: CardId
    second: CardId | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class VoidCard:
    """Party play: the storyteller secretly voids one table card; votes on it score nothing."""

    player: PlayerId
    card: CardId


@quick_init
@dataclass(frozen=True, slots=True)
class EndGame:
    """End the game now (e.g. the host stops it): the leaders at this moment win."""

    reason: EndReason | str = EndReason.ENDED_BY_HOST


Command = StartGame | GiveClue | SubmitCards | CastVote | VoidCard | EndGame
PLAYER_COMMANDS: tuple[type[GiveClue | SubmitCards | CastVote | VoidCard], ...] = (
    GiveClue,
    SubmitCards,
    CastVote,
    VoidCard,
)
