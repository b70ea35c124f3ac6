"""The state of a game, built only by folding events (:func:`evolve`).

States are immutable values: ``evolve`` returns a new state and never touches the old one, so a
rejected command, or a reader holding an old state, can never see a half-applied change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

from . import errors
from .commands import CardId, PlayerId
from .errors import GameError
from .events import (
    CardsDrawn,
    CardsSubmitted,
    ClueGiven,
    Event,
    GameEnded,
    GameStarted,
    PileReshuffled,
    RoundScored,
    RoundStarted,
    TableLaid,
    VoteCast,
)
from .rules import Rules


class Phase(StrEnum):
    SETUP = "setup"
    CLUE = "clue"  # the storyteller (or, in an opening round to claim, anyone) gives a clue
    SUBMIT = "submit"  # the other players hand in matching cards, in any order
    VOTE = "vote"  # the table is laid; the other players vote, in any order
    OVER = "over"


@dataclass(frozen=True, slots=True)
class GameState:
    rules: Rules
    players: tuple[PlayerId, ...]
    version: int  # number of events folded in
    phase: Phase
    round: int
    storyteller: PlayerId | None
    hands: dict[PlayerId, tuple[CardId, ...]]
    pile: tuple[CardId, ...]  # top first
    discard: tuple[CardId, ...]  # used cards (out of the game unless the rules reshuffle them)
    clue: str | None
    storyteller_card: CardId | None
    submissions: dict[PlayerId, tuple[CardId, ...]]
    table: tuple[CardId, ...]
    votes: dict[PlayerId, CardId]
    scores: dict[PlayerId, int]
    rounds: tuple[RoundScored, ...]
    winners: tuple[PlayerId, ...]
    end_reason: str | None

    @property
    def voters(self) -> tuple[PlayerId, ...]:
        """Everyone but the storyteller, in seat order."""
        return tuple(p for p in self.players if p != self.storyteller)

    def owner_of(self, card: CardId) -> PlayerId | None:
        """Who put ``card`` on the table this round (engine-internal: never shown before reveal)."""
        if card == self.storyteller_card:
            return self.storyteller
        for player, cards in self.submissions.items():
            if card in cards:
                return player
        return None

    def next_storyteller(self) -> PlayerId:
        assert self.storyteller is not None
        seat = self.players.index(self.storyteller)
        return self.players[(seat + 1) % len(self.players)]

    def all_cards(self) -> list[CardId]:
        """Every card in the game, wherever it is (for conservation checks)."""
        cards: list[CardId] = list(self.pile) + list(self.discard)
        for hand in self.hands.values():
            cards.extend(hand)
        if self.table:
            cards.extend(self.table)
        else:
            if self.storyteller_card is not None:
                cards.append(self.storyteller_card)
            for submitted in self.submissions.values():
                cards.extend(submitted)
        return cards


_FIELDS = tuple(f.name for f in fields(GameState))


def _replace(state: GameState, **changes: Any) -> GameState:
    """A copy with some fields changed (faster than dataclasses.replace on this hot path)."""
    new = object.__new__(GameState)
    for name in _FIELDS:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(state, name))
    object.__setattr__(new, "version", state.version + 1)
    return new


def evolve(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``. Events come from :func:`decide`, so they are trusted facts."""
    if state is None:
        if not isinstance(event, GameStarted):
            raise GameError(errors.EVENT_INVALID, "a game's first event must be GameStarted")
        return GameState(
            rules=event.rules,
            players=event.players,
            version=1,
            phase=Phase.SETUP,
            round=0,
            storyteller=None,
            hands={p: () for p in event.players},
            pile=event.pile,
            discard=(),
            clue=None,
            storyteller_card=None,
            submissions={},
            table=(),
            votes={},
            scores={p: 0 for p in event.players},
            rounds=(),
            winners=(),
            end_reason=None,
        )
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise GameError(errors.EVENT_INVALID, f"{type(event).__name__} cannot follow a start")
    new: GameState = handler(state, event)
    return new


def replay(events: Iterable[Event]) -> GameState:
    """The state a list of events builds."""
    state: GameState | None = None
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise GameError(errors.GAME_NOT_STARTED, "no events")
    return state


def _cards_drawn(state: GameState, event: Any) -> GameState:
    hands = dict(state.hands)
    pile = state.pile
    for player, cards in event.draws:
        hands[player] = hands[player] + cards
        pile = pile[len(cards) :]
    return _replace(state, hands=hands, pile=pile)


def _round_started(state: GameState, event: Any) -> GameState:
    return _replace(
        state,
        phase=Phase.CLUE,
        round=event.round,
        storyteller=event.storyteller,
        clue=None,
        storyteller_card=None,
        submissions={},
        table=(),
        votes={},
    )


def _clue_given(state: GameState, event: Any) -> GameState:
    hands = dict(state.hands)
    hands[event.storyteller] = tuple(c for c in hands[event.storyteller] if c != event.card)
    return _replace(
        state,
        phase=Phase.SUBMIT,
        storyteller=event.storyteller,
        clue=event.clue,
        storyteller_card=event.card,
        hands=hands,
    )


def _cards_submitted(state: GameState, event: Any) -> GameState:
    hands = dict(state.hands)
    hands[event.player] = tuple(c for c in hands[event.player] if c not in event.cards)
    submissions = dict(state.submissions)
    submissions[event.player] = event.cards
    return _replace(state, hands=hands, submissions=submissions)


def _table_laid(state: GameState, event: Any) -> GameState:
    return _replace(state, phase=Phase.VOTE, table=event.cards)


def _vote_cast(state: GameState, event: Any) -> GameState:
    votes = dict(state.votes)
    votes[event.player] = event.card
    return _replace(state, votes=votes)


def _round_scored(state: GameState, event: Any) -> GameState:
    scores = dict(state.scores)
    for award in event.awards:
        scores[award.player] += award.points
    return _replace(
        state,
        scores=scores,
        rounds=(*state.rounds, event),
        discard=state.discard + state.table,
        table=(),
        submissions={},
        storyteller_card=None,
        votes={},
    )


def _pile_reshuffled(state: GameState, event: Any) -> GameState:
    return _replace(state, pile=event.pile, discard=())


def _game_ended(state: GameState, event: Any) -> GameState:
    return _replace(state, phase=Phase.OVER, winners=event.winners, end_reason=event.reason)


_HANDLERS: dict[type, Any] = {
    CardsDrawn: _cards_drawn,
    RoundStarted: _round_started,
    ClueGiven: _clue_given,
    CardsSubmitted: _cards_submitted,
    TableLaid: _table_laid,
    VoteCast: _vote_cast,
    RoundScored: _round_scored,
    PileReshuffled: _pile_reshuffled,
    GameEnded: _game_ended,
}
