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


def score_round(
    players: Sequence[PlayerId],
    storyteller: PlayerId,
    owners: Mapping[CardId, PlayerId],
    votes: Mapping[PlayerId, CardId],
    lone_finder_bonus: bool = False,
) -> tuple[Outcome, tuple[PointsAwarded, ...]]:
    """Return the outcome and the points awarded, in seat order, zero awards left out.

    - everybody or nobody found the storyteller's card: storyteller 0, every other player 2;
    - otherwise storyteller and each finder 3 (4 each with the lone-finder bonus and one finder);
    - every player but the storyteller: +1 per vote on any of their cards.
    """
    storyteller_card = next(card for card, owner in owners.items() if owner == storyteller)
    finders = [p for p in players if p != storyteller and votes.get(p) == storyteller_card]
    voters = len(players) - 1
    received: dict[PlayerId, int] = {}
    for card in votes.values():
        owner = owners[card]
        if owner != storyteller:
            received[owner] = received.get(owner, 0) + 1

    awards: list[PointsAwarded] = []
    if len(finders) in (0, voters):
        outcome = _NOBODY if not finders else _EVERYBODY
        reason = _NOBODY_FOUND if not finders else _EVERYBODY_FOUND
        for player in players:
            if player != storyteller:
                awards.append(PointsAwarded(player, 2, reason))
                if player in received:
                    awards.append(PointsAwarded(player, received[player], _RECEIVED))
        return outcome, tuple(awards)

    found = 4 if lone_finder_bonus and len(finders) == 1 else 3
    for player in players:
        if player == storyteller:
            awards.append(PointsAwarded(player, found, _BY_SOME))
            continue
        if player in finders:
            awards.append(PointsAwarded(player, found, _FOUND))
        if player in received:
            awards.append(PointsAwarded(player, received[player], _RECEIVED))
    return _SOME, tuple(awards)
