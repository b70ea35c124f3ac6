"""What a player may do now: the one source both the engine's checks and every client use."""

from __future__ import annotations

from dataclasses import dataclass

from .commands import CardId, PlayerId
from .state import CLUE, SUBMIT, VOTE, GameState
from .values import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """The moves open to one player. Empty tuples mean "nothing to do now".

    - ``give_clue``: cards the player may tell a clue about (``max_clue_length`` bounds the clue);
    - ``submit``: cards the player may hand in, exactly ``submit_count`` distinct ones;
    - ``vote``: table cards the player may vote for (never their own, except in party play);
      ``vote_count`` 2 when a second vote, on another of these cards, may go with the first;
    - ``void``: party play, the storyteller: the table cards they may void.
    """

    give_clue: tuple[CardId, ...] = ()
    submit: tuple[CardId, ...] = ()
    submit_count: int = 0
    vote: tuple[CardId, ...] = ()
    max_clue_length: int = 0
    vote_count: int = 0
    void: tuple[CardId, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.give_clue or self.submit or self.vote or self.void)


NOTHING = LegalActions()


def legal_actions(state: GameState, player: PlayerId) -> LegalActions:
    phase = state.phase
    if player not in state.hands:
        return NOTHING
    if state.rules.team_size > 1:
        return _team_actions(state, player)
    if phase is CLUE:
        if state.storyteller is None or state.storyteller == player:
            return LegalActions(
                give_clue=state.hands[player], max_clue_length=state.rules.clue_max_length
            )
        return NOTHING
    if phase is SUBMIT:
        if player == state.storyteller or player in state.submissions:
            return NOTHING
        return LegalActions(
            submit=state.hands[player],
            submit_count=state.rules.cards_each_for(len(state.players)),
        )
    if phase is VOTE:
        rules = state.rules
        if rules.everyone_votes:
            void = state.table if player == state.storyteller and state.void is None else ()
            vote = state.table if player not in state.votes else ()
            return LegalActions(vote=vote, vote_count=1 if vote else 0, void=void)
        if player == state.storyteller or player in state.votes:
            return NOTHING
        own = state.submissions[player]
        return LegalActions(
            vote=tuple([c for c in state.table if c not in own]),
            vote_count=rules.votes_each_for(len(state.players)),
        )
    return NOTHING


def _team_actions(state: GameState, player: PlayerId) -> LegalActions:
    """Team play: either partner acts for the team, with any card the team holds."""
    phase, team = state.phase, state.team_of(player)
    tellers = team if state.storyteller in team else ()
    if phase is CLUE:
        if state.storyteller is None or tellers:
            return LegalActions(
                give_clue=state.team_cards(player), max_clue_length=state.rules.clue_max_length
            )
        return NOTHING
    if tellers or (phase is not SUBMIT and phase is not VOTE):
        return NOTHING
    if phase is SUBMIT:
        if any(p in state.submissions for p in team):
            return NOTHING
        return LegalActions(submit=state.team_cards(player), submit_count=1)
    if any(p in state.votes for p in team):
        return NOTHING
    own = [c for p in team for c in state.submissions.get(p, ())]
    return LegalActions(vote=tuple([c for c in state.table if c not in own]), vote_count=1)


def waiting_for(state: GameState) -> tuple[PlayerId, ...]:
    """Players the game is waiting on, in seat order (everyone, while a clue may be claimed;
    in team play both partners of a team that has not acted)."""
    if state.rules.team_size > 1:
        return tuple([p for p in state.players if legal_actions(state, p)])
    if state.phase is CLUE:
        return state.players if state.storyteller is None else (state.storyteller,)
    if state.phase is SUBMIT:
        return tuple(
            [p for p in state.players if p != state.storyteller and p not in state.submissions]
        )
    if state.phase is VOTE:
        if state.rules.everyone_votes:
            return tuple(
                [
                    p
                    for p in state.players
                    if p not in state.votes or (p == state.storyteller and state.void is None)
                ]
            )
        return tuple([p for p in state.players if p != state.storyteller and p not in state.votes])
    return ()
