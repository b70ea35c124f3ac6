"""What one player (or a spectator) may see. Nothing else about a game leaves the engine.

A player sees their hand, the clue, the table once complete, who has acted (not what), the
scores, their own cards on the table and their own vote, and after the reveal everything about
the round. Until the reveal nobody learns whose table card is whose; the storyteller knows only
their own. A spectator sees what every player sees, and no hand.
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import CardId, PlayerId
from .events import RoundScored
from .legal import NOTHING, LegalActions, legal_actions, waiting_for
from .results import EndReason
from .rules import Rules
from .state import SUBMIT, VOTE, GameState, Phase
from .values import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class PlayerView:
    viewer: PlayerId | None  # None: a spectator
    version: int
    rules: Rules
    players: tuple[PlayerId, ...]
    phase: Phase
    round: int
    storyteller: PlayerId | None
    clue: str | None
    hand: tuple[CardId, ...] | None  # None for a spectator
    my_cards: tuple[CardId, ...]  # the viewer's own card(s) in play this round
    my_vote: CardId | None
    table: tuple[CardId, ...]  # empty until every card is in
    acted: tuple[PlayerId, ...]  # who has done this phase's action (not what they did)
    waiting_for: tuple[PlayerId, ...]
    scores: dict[PlayerId, int]
    pile_count: int
    discard_count: int
    rounds: tuple[RoundScored, ...]  # every revealed round, oldest first
    winners: tuple[PlayerId, ...]
    end_reason: EndReason | str | None
    legal: LegalActions
    my_second_vote: CardId | None = None  # where the rules give two votes
    my_void: CardId | None = None  # party play: the storyteller's own void
    partner_hand: tuple[CardId, ...] | None = None  # team play: the partner's hand


@quick_init
@dataclass(frozen=True, slots=True)
class SeatView:
    """The part of a :class:`PlayerView` only its viewer sees (the rest is the spectator's
    view): a server building one update for many viewers makes the shared part once."""

    viewer: PlayerId | None  # None: a spectator (or an id that is not playing)
    hand: tuple[CardId, ...] | None
    my_cards: tuple[CardId, ...]
    my_vote: CardId | None
    legal: LegalActions
    my_second_vote: CardId | None = None
    my_void: CardId | None = None
    partner_hand: tuple[CardId, ...] | None = None


SPECTATOR_SEAT = SeatView(viewer=None, hand=None, my_cards=(), my_vote=None, legal=NOTHING)


def seat_view(state: GameState, viewer: PlayerId | None) -> SeatView:
    """What only ``viewer`` sees: their hand, their own cards in play and vote, their moves.
    An id that is not playing (or None) gets the spectator's: nothing."""
    if viewer is None or viewer not in state.hands:
        return SPECTATOR_SEAT
    if state.rules.team_size > 1:
        return _team_seat(state, viewer)
    if viewer == state.storyteller and state.storyteller_card is not None:
        my_cards: tuple[CardId, ...] = (state.storyteller_card,)
    else:
        my_cards = state.submissions.get(viewer, ())
    return SeatView(
        viewer=viewer,
        hand=state.hands[viewer],
        my_cards=my_cards,
        my_vote=state.votes.get(viewer),
        legal=legal_actions(state, viewer),
        my_second_vote=state.second_votes.get(viewer),
        my_void=state.void if viewer == state.storyteller else None,
    )


def _team_seat(state: GameState, viewer: PlayerId) -> SeatView:
    """Team play: the viewer sees their partner's hand, and their team's card(s) and vote."""
    team = state.team_of(viewer)
    if state.storyteller in team and state.storyteller_card is not None:
        my_cards: tuple[CardId, ...] = (state.storyteller_card,)
    else:
        my_cards = tuple([c for p in team for c in state.submissions.get(p, ())])
    votes = [state.votes[p] for p in team if p in state.votes]
    return SeatView(
        viewer=viewer,
        hand=state.hands[viewer],
        my_cards=my_cards,
        my_vote=votes[0] if votes else None,
        legal=legal_actions(state, viewer),
        partner_hand=tuple([c for p in team if p != viewer for c in state.hands[p]]),
    )


def _acted(state: GameState) -> tuple[PlayerId, ...]:
    if state.phase is SUBMIT:
        return tuple([p for p in state.players if p in state.submissions])
    if state.phase is VOTE:
        return tuple([p for p in state.players if p in state.votes])
    return ()


def player_view(state: GameState, viewer: PlayerId | None) -> PlayerView:
    """The view of ``viewer`` (a player's id), or the spectator view for ``None``.

    An id that is not playing gets the spectator view.
    """
    seat = seat_view(state, viewer)
    return PlayerView(
        viewer=seat.viewer,
        version=state.version,
        rules=state.rules,
        players=state.players,
        phase=state.phase,
        round=state.round,
        storyteller=state.storyteller,
        clue=state.clue,
        hand=seat.hand,
        my_cards=seat.my_cards,
        my_vote=seat.my_vote,
        table=state.table,
        acted=_acted(state),
        waiting_for=waiting_for(state),
        scores=dict(state.scores),
        pile_count=len(state.pile),
        discard_count=len(state.discard),
        rounds=state.rounds,
        winners=state.winners,
        end_reason=state.end_reason,
        legal=seat.legal,
        my_second_vote=seat.my_second_vote,
        my_void=seat.my_void,
        partner_hand=seat.partner_hand,
    )
