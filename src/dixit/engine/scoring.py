"""The scoring of one round, as a pure function of who owns which card and who voted for what."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .commands import CardId, PlayerId
from .events import PointsAwarded
from .results import AwardReason, Outcome

# Enum members as module constants (read without Python 3.11's enum descriptor).
_EVERYBODY, _NOBODY, _SOME = Outcome.EVERYBODY, Outcome.NOBODY, Outcome.SOME
_BY_SOME = AwardReason.STORYTELLER_FOUND_BY_SOME
_FOUND = AwardReason.FOUND_STORYTELLER
_EVERYBODY_FOUND, _NOBODY_FOUND = AwardReason.EVERYBODY_FOUND, AwardReason.NOBODY_FOUND
_RECEIVED = AwardReason.VOTES_RECEIVED
_SINGLE = AwardReason.SINGLE_VOTE_FOUND
_WITH_OTHERS = AwardReason.VOTED_WITH_OTHERS
_NO_SECOND: Mapping[PlayerId, CardId] = {}


def score_round(
    players: Sequence[PlayerId],
    storyteller: PlayerId,
    owners: Mapping[CardId, PlayerId],
    votes: Mapping[PlayerId, CardId],
    lone_finder_bonus: bool = False,
    *,
    second_votes: Mapping[PlayerId, CardId] = _NO_SECOND,
    received_cap: int | None = None,
    single_vote_bonus: int = 0,
) -> tuple[Outcome, tuple[PointsAwarded, ...]]:
    """Return the outcome and the points awarded, in seat order, zero awards left out.

    - everybody or nobody found the storyteller's card: storyteller 0, every other player 2;
      with two votes each, a player "found" it when either vote is on it;
    - otherwise storyteller and each finder 3 (4 each with the lone-finder bonus and one finder);
    - every player but the storyteller: +1 per vote on any of their cards, at most
      ``received_cap``;
    - ``single_vote_bonus`` (only given where two votes are allowed): to each finder who cast
      one vote only, in every outcome.
    """
    storyteller_card: CardId | None = None
    for card, owner in owners.items():
        if owner == storyteller:
            storyteller_card = card
            break
    if storyteller_card is None:
        raise StopIteration  # (as ``next`` over no storyteller card raised)
    found_by: list[PlayerId] = []  # finders, in vote order
    received: dict[PlayerId, int] = {}
    for voter, card in votes.items():
        if card == storyteller_card:
            if voter != storyteller and voter in players:
                found_by.append(voter)
            continue
        owner = owners[card]
        if owner != storyteller:
            received[owner] = received.get(owner, 0) + 1
    single: tuple[PlayerId, ...] = ()
    if second_votes or single_vote_bonus:
        for voter, card in second_votes.items():
            if card == storyteller_card:
                if voter != storyteller and voter in players and voter not in found_by:
                    found_by.append(voter)
                continue
            owner = owners[card]
            if owner != storyteller:
                received[owner] = received.get(owner, 0) + 1
        if single_vote_bonus:
            single = tuple([p for p in found_by if p not in second_votes])
    if received_cap is not None:
        received = {p: min(n, received_cap) for p, n in received.items()}
    finders = len(found_by)

    awards: list[PointsAwarded] = []
    if finders == 0 or finders == len(players) - 1:
        reason = _NOBODY_FOUND if finders == 0 else _EVERYBODY_FOUND
        for player in players:
            if player != storyteller:
                awards.append(PointsAwarded(player, 2, reason))
                if player in single:
                    awards.append(PointsAwarded(player, single_vote_bonus, _SINGLE))
                if player in received:
                    awards.append(PointsAwarded(player, received[player], _RECEIVED))
        return (_NOBODY if finders == 0 else _EVERYBODY), tuple(awards)

    found = 4 if lone_finder_bonus and finders == 1 else 3
    for player in players:
        if player == storyteller:
            awards.append(PointsAwarded(player, found, _BY_SOME))
            continue
        if player in found_by:
            awards.append(PointsAwarded(player, found, _FOUND))
            if player in single:
                awards.append(PointsAwarded(player, single_vote_bonus, _SINGLE))
        if player in received:
            awards.append(PointsAwarded(player, received[player], _RECEIVED))
    return _SOME, tuple(awards)


def score_party_round(
    players: Sequence[PlayerId],
    votes: Mapping[PlayerId, CardId],
    void: CardId,
    cap: int,
) -> tuple[Outcome, tuple[PointsAwarded, ...]]:
    """Party play: each voter scores the number of voters (themself included) on the card they
    voted for, at most ``cap``; a lone voter, and every voter on the voided card, scores 0."""
    on_card: dict[CardId, int] = {}
    for card in votes.values():
        on_card[card] = on_card.get(card, 0) + 1
    awards: list[PointsAwarded] = []
    for player in players:
        voted = votes.get(player)
        if voted is None or voted == void or on_card[voted] < 2:
            continue
        awards.append(PointsAwarded(player, min(on_card[voted], cap), _WITH_OTHERS))
    return Outcome.PARTY, tuple(awards)


def score_team_round(
    players: Sequence[PlayerId],
    team_size: int,
    storyteller: PlayerId,
    owners: Mapping[CardId, PlayerId],
    votes: Mapping[PlayerId, CardId],
    received_cap: int | None = None,
) -> tuple[Outcome, tuple[PointsAwarded, ...]]:
    """Team play: the base scoring with each team (consecutive seats) as one player, whichever
    partner played or voted; every point a team scores goes to each partner."""
    first = {p: players[i - i % team_size] for i, p in enumerate(players)}
    outcome, team_awards = score_round(
        players[::team_size],
        first[storyteller],
        {card: first[owner] for card, owner in owners.items()},
        {first[voter]: card for voter, card in votes.items()},
        received_cap=received_cap,
    )
    awards: list[PointsAwarded] = []
    for award in team_awards:
        seat = players.index(award.player)
        for partner in players[seat : seat + team_size]:
            awards.append(PointsAwarded(partner, award.points, award.reason))
    return outcome, tuple(awards)
