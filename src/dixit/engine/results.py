"""The vocabulary of results: round outcomes, why points were awarded, why a game ended."""

from __future__ import annotations

from enum import StrEnum


class Outcome(StrEnum):
    """How many players found the storyteller's card."""

    EVERYBODY = "everybody"
    NOBODY = "nobody"
    SOME = "some"
    PARTY = "party"  # party play: no one has to find the storyteller's card


class AwardReason(StrEnum):
    """Why points were awarded: stable values that clients translate."""

    STORYTELLER_FOUND_BY_SOME = "storyteller_found_by_some"
    FOUND_STORYTELLER = "found_storyteller"
    EVERYBODY_FOUND = "everybody_found"
    NOBODY_FOUND = "nobody_found"
    VOTES_RECEIVED = "votes_received"
    SINGLE_VOTE_FOUND = "single_vote_found"  # found it with one vote of two
    VOTED_WITH_OTHERS = "voted_with_others"  # party play: one point per voter on the same card


class EndReason(StrEnum):
    """Why a game ended: one of the rules' endings, or the host stopped it."""

    DECK_EXHAUSTED = "deck_exhausted"
    SCORE_REACHED = "score_reached"
    ROUND_LIMIT = "round_limit"
    ENDED_BY_HOST = "ended_by_host"


RULES_ENDINGS = (EndReason.DECK_EXHAUSTED, EndReason.SCORE_REACHED, EndReason.ROUND_LIMIT)
