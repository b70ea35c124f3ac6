"""The state of a game, built only by folding events (:func:`evolve`).

States are values: ``evolve`` returns a new state and never touches the old one, so a rejected
command, or a reader holding an old state, can never see a half-applied change. The class is not
frozen only so that folding can fill a fresh private copy field by field (the engine's hot path);
no code may assign to a state it did not just copy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final

from .commands import CardId, PlayerId
from .errors import Code, GameError
from .events import (
    CardsDrawn,
    CardsSubmitted,
    CardVoided,
    ClueGiven,
    Event,
    GameEnded,
    GameStarted,
    HandsPassed,
    PileReshuffled,
    RoundScored,
    RoundStarted,
    TableLaid,
    VoteCast,
)
from .results import EndReason
from .rules import Rules


class Phase(StrEnum):
    SETUP = "setup"
    CLUE = "clue"  # the storyteller (or, in an opening round to claim, anyone) gives a clue
    SUBMIT = "submit"  # the other players hand in matching cards, in any order
    VOTE = "vote"  # the table is laid; the other players (party: everyone) vote, in any order
    OVER = "over"


# The members as plain module constants: in Python 3.11 reading ``Phase.CLUE`` goes through an
# enum descriptor (about ten times the cost of a global), and the hot paths read phases a lot.
SETUP: Final = Phase.SETUP
CLUE: Final = Phase.CLUE
SUBMIT: Final = Phase.SUBMIT
VOTE: Final = Phase.VOTE
OVER: Final = Phase.OVER


@dataclass(slots=True)
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
    second_votes: dict[PlayerId, CardId]  # where the rules give two votes
    void: CardId | None  # party play: the table card the storyteller voided
    scores: dict[PlayerId, int]
    rounds: tuple[RoundScored, ...]
    winners: tuple[PlayerId, ...]
    end_reason: EndReason | str | None

    @property
    def voters(self) -> tuple[PlayerId, ...]:
        """Who may vote, in seat order: everyone but the storyteller (party play: everyone; team
        play: everyone but the storyteller's team, a team voting once)."""
        if self.rules.everyone_votes:
            return self.players
        if self.rules.team_size > 1 and self.storyteller is not None:
            tellers = self.team_of(self.storyteller)
            return tuple([p for p in self.players if p not in tellers])
        return tuple([p for p in self.players if p != self.storyteller])

    def team_of(self, player: PlayerId) -> tuple[PlayerId, ...]:
        """``player`` and their partners, in seat order (just ``player`` outside team play)."""
        size = self.rules.team_size
        if size == 1:
            return (player,)
        seat = self.players.index(player)
        first = seat - seat % size
        return self.players[first : first + size]

    def team_cards(self, player: PlayerId) -> tuple[CardId, ...]:
        """The cards ``player``'s team holds: their hand, then their partners'."""
        if self.rules.team_size == 1:
            return self.hands[player]
        mine = self.hands[player]
        return mine + tuple([c for p in self.team_of(player) if p != player for c in self.hands[p]])

    def next_storyteller(self) -> PlayerId:
        """The left-hand neighbour (team play: the next team's first seat)."""
        assert self.storyteller is not None
        seat = self.players.index(self.storyteller)
        size = self.rules.team_size
        return self.players[(seat - seat % size + size) % len(self.players)]

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


def _copy(s: GameState) -> GameState:
    """A shallow copy: containers are shared, so handlers replace them rather than mutate."""
    return GameState(
        s.rules,
        s.players,
        s.version,
        s.phase,
        s.round,
        s.storyteller,
        s.hands,
        s.pile,
        s.discard,
        s.clue,
        s.storyteller_card,
        s.submissions,
        s.table,
        s.votes,
        s.second_votes,
        s.void,
        s.scores,
        s.rounds,
        s.winners,
        s.end_reason,
    )


def _started(event: GameStarted) -> GameState:
    return GameState(
        rules=event.rules,
        players=event.players,
        version=1,
        phase=SETUP,
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
        second_votes={},
        void=None,
        scores={p: 0 for p in event.players},
        rounds=(),
        winners=(),
        end_reason=None,
    )


def evolve(state: GameState | None, event: Event) -> GameState:
    """The state after ``event``. Events come from :func:`decide`, so they are trusted facts."""
    return evolve_all(state, (event,))


def evolve_all(state: GameState | None, events: Iterable[Event]) -> GameState:
    """The state after ``events``, folded into one fresh copy (the old state is untouched)."""
    draft: GameState | None = None
    for event in events:
        if draft is None:
            if state is None:
                if not isinstance(event, GameStarted):
                    raise GameError(Code.EVENT_INVALID, "the first event must be GameStarted")
                draft = _started(event)
                continue
            draft = _copy(state)
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise GameError(Code.EVENT_INVALID, f"{type(event).__name__} cannot follow a start")
        handler(draft, event)
        draft.version += 1
    if draft is None:
        if state is None:
            raise GameError(Code.GAME_NOT_STARTED, "no events")
        return state
    return draft


def fold_into(draft: GameState, events: Iterable[Event]) -> GameState:
    """Fold ``events`` into ``draft`` in place, as :func:`evolve_all` folds them into its copy;
    returns ``draft``.

    Only for a state no reader holds: :func:`dixit.engine.playthrough.random_playthrough` plays
    its whole game in one such state and hands it out only at the end; the research
    environment keeps one and hands out :func:`snapshot` copies of it.
    """
    for event in events:
        handler = _HANDLERS.get(type(event))
        if handler is None:
            raise GameError(Code.EVENT_INVALID, f"{type(event).__name__} cannot follow a start")
        handler(draft, event)
        draft.version += 1
    return draft


def snapshot(state: GameState) -> GameState:
    """A copy of ``state`` a reader may keep while ``state`` goes on being folded into with
    :func:`fold_into`: the copy's fields are its own, and the containers it shares are never
    mutated (handlers replace them)."""
    return _copy(state)


def replay(events: Iterable[Event]) -> GameState:
    """The state a list of events builds."""
    return evolve_all(None, events)


# Handlers fill a private draft in place; they replace containers, never mutate shared ones.


def _cards_drawn(s: GameState, event: CardsDrawn) -> None:
    hands = dict(s.hands)
    taken = 0
    for player, cards in event.draws:
        hands[player] += cards
        taken += len(cards)
    s.hands = hands
    s.pile = s.pile[taken:]


def _round_started(s: GameState, event: RoundStarted) -> None:
    s.phase = CLUE
    s.round = event.round
    s.storyteller = event.storyteller
    s.clue = None
    s.storyteller_card = None
    s.submissions = {}
    s.table = ()
    s.votes = {}
    s.second_votes = {}
    s.void = None


def _taken(
    s: GameState, player: PlayerId, cards: tuple[CardId, ...]
) -> dict[PlayerId, tuple[CardId, ...]]:
    """The hands once ``cards`` left ``player``'s hand (team play: their team's hands)."""
    hands = dict(s.hands)
    for p in s.team_of(player):
        hands[p] = tuple([c for c in hands[p] if c not in cards])
    return hands


def _clue_given(s: GameState, event: ClueGiven) -> None:
    if s.rules.team_size == 1:
        hands = dict(s.hands)
        hands[event.storyteller] = tuple([c for c in hands[event.storyteller] if c != event.card])
    else:
        hands = _taken(s, event.storyteller, (event.card,))
    s.hands = hands
    s.phase = SUBMIT
    s.storyteller = event.storyteller
    s.clue = event.clue
    s.storyteller_card = event.card


def _cards_submitted(s: GameState, event: CardsSubmitted) -> None:
    if s.rules.team_size == 1:
        hands = dict(s.hands)
        hands[event.player] = tuple([c for c in hands[event.player] if c not in event.cards])
    else:
        hands = _taken(s, event.player, event.cards)
    s.hands = hands
    s.submissions = {**s.submissions, event.player: event.cards}


def _table_laid(s: GameState, event: TableLaid) -> None:
    s.phase = VOTE
    s.table = event.cards


def _vote_cast(s: GameState, event: VoteCast) -> None:
    s.votes = {**s.votes, event.player: event.card}
    if event.second is not None:
        s.second_votes = {**s.second_votes, event.player: event.second}


def _card_voided(s: GameState, event: CardVoided) -> None:
    s.void = event.card


def _round_scored(s: GameState, event: RoundScored) -> None:
    scores = dict(s.scores)
    for award in event.awards:
        scores[award.player] += award.points
    s.scores = scores
    s.rounds = (*s.rounds, event)
    s.discard += s.table
    s.table = ()
    s.submissions = {}
    s.storyteller_card = None
    s.votes = {}
    s.second_votes = {}
    s.void = None


def _hands_passed(s: GameState, event: HandsPassed) -> None:
    players = s.players
    s.hands = {p: s.hands[players[i - 1]] for i, p in enumerate(players)}


def _pile_reshuffled(s: GameState, event: PileReshuffled) -> None:
    s.pile = event.pile
    s.discard = ()


def _game_ended(s: GameState, event: GameEnded) -> None:
    s.phase = OVER
    s.winners = event.winners
    s.end_reason = event.reason


_HANDLERS: dict[type[Any], Callable[[GameState, Any], None]] = {
    CardsDrawn: _cards_drawn,
    RoundStarted: _round_started,
    ClueGiven: _clue_given,
    CardsSubmitted: _cards_submitted,
    TableLaid: _table_laid,
    VoteCast: _vote_cast,
    CardVoided: _card_voided,
    RoundScored: _round_scored,
    HandsPassed: _hands_passed,
    PileReshuffled: _pile_reshuffled,
    GameEnded: _game_ended,
}
