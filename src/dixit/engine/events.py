"""Past facts. A game is its list of events; :func:`dixit.engine.state.evolve` folds them.

Chance is recorded, never re-rolled: shuffles appear as the resulting orders.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import CardId, PlayerId
from .results import AwardReason, EndReason, Outcome
from .rules import Rules
from .values import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class GameStarted:
    rules: Rules
    players: tuple[PlayerId, ...]
    pile: tuple[CardId, ...]  # the shuffled deck, top first


@quick_init
@dataclass(frozen=True, slots=True)
class CardsDrawn:
    """Players take cards from the top of the pile, in the order listed (deal or refill)."""

    draws: tuple[tuple[PlayerId, tuple[CardId, ...]], ...]


@quick_init
@dataclass(frozen=True, slots=True)
class RoundStarted:
    round: int
    storyteller: PlayerId | None  # None: anyone may claim the role by giving the first clue


@quick_init
@dataclass(frozen=True, slots=True)
class ClueGiven:
    storyteller: PlayerId
    card: CardId
    clue: str


@quick_init
@dataclass(frozen=True, slots=True)
class CardsSubmitted:
    player: PlayerId
    cards: tuple[CardId, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class TableLaid:
    """All cards are in: the storyteller's and the submitted cards, shuffled, numbered from 1."""

    cards: tuple[CardId, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class VoteCast:
    player: PlayerId
    card: CardId
    second: CardId | None = None  # a second vote, where the rules give two


@quick_init
@dataclass(frozen=True, slots=True)
class CardVoided:
    """Party play: the storyteller's void (told to everyone only in ``RoundScored``)."""

    storyteller: PlayerId
    card: CardId


@quick_init
@dataclass(frozen=True, slots=True)
class PointsAwarded:
    player: PlayerId
    points: int
    reason: AwardReason


@quick_init
@dataclass(frozen=True, slots=True)
class RoundScored:
    """The reveal: whose card was whose, every vote, and each player's points with reasons."""

    round: int
    storyteller: PlayerId
    clue: str
    storyteller_card: CardId
    table: tuple[CardId, ...]
    owners: tuple[tuple[CardId, PlayerId], ...]  # in table order
    # in seat order; a player with two votes appears twice, first vote first
    votes: tuple[tuple[PlayerId, CardId], ...]
    outcome: Outcome
    awards: tuple[PointsAwarded, ...]
    void: CardId | None = None  # party play: the card the storyteller voided

    def points(self) -> dict[PlayerId, int]:
        totals: dict[PlayerId, int] = {}
        for award in self.awards:
            totals[award.player] = totals.get(award.player, 0) + award.points
        return totals


@quick_init
@dataclass(frozen=True, slots=True)
class PileReshuffled:
    """The rest of the draw pile and the discard pile, shuffled into a new draw pile (2021)."""

    pile: tuple[CardId, ...]


@quick_init
@dataclass(frozen=True, slots=True)
class HandsPassed:
    """Party play: every player's hand goes to their left-hand neighbour (the next seat)."""


@quick_init
@dataclass(frozen=True, slots=True)
class GameEnded:
    winners: tuple[PlayerId, ...]
    reason: EndReason | str  # a host may give their own reason when stopping a game


Event = (
    GameStarted
    | CardsDrawn
    | RoundStarted
    | ClueGiven
    | CardsSubmitted
    | TableLaid
    | VoteCast
    | CardVoided
    | RoundScored
    | HandsPassed
    | PileReshuffled
    | GameEnded
)
EVENT_TYPES: tuple[type[Event], ...] = (
    GameStarted,
    CardsDrawn,
    RoundStarted,
    ClueGiven,
    CardsSubmitted,
    TableLaid,
    VoteCast,
    CardVoided,
    RoundScored,
    HandsPassed,
    PileReshuffled,
    GameEnded,
)
