"""Rules as data: the editions, the modes, and every variant as an option that mixes with the
others.

An edition is a :class:`Rules` value; a variant is a changed field; a mode (``party``) is a named
set of changed fields. ``rules_for("classic", lone_finder_bonus=True)`` looks an edition up by
name and applies a mode and options, validating all of them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .errors import Code, GameError

DEFAULT_CLUE_MAX_LENGTH = 200


@dataclass(frozen=True, slots=True)
class Rules:
    """What a game is played by. Values that depend on the player count are methods."""

    edition: str
    min_players: int
    max_players: int
    hand_size: int = 6
    three_player_hand_size: int = 7
    three_player_cards_each: int = 2
    # None: the edition's default (on for classic 3-player games, off otherwise).
    lone_finder_bonus: bool | None = None
    # Used cards go to a discard pile that is reshuffled into the draw pile when it runs short.
    reshuffle_discards: bool = False
    # The game ends at the end of a round in which someone reached this score.
    end_at_score: int | None = None
    # The game ends after this many rounds.
    max_rounds: int | None = None
    clue_max_length: int = DEFAULT_CLUE_MAX_LENGTH
    # From this many players on, each voter has two votes: the second optional, on another card.
    two_votes_from: int | None = None
    # The most points a player scores in a round from votes on their card(s); None: no limit.
    votes_received_cap: int | None = None
    # With two votes: the extra points of a player who cast only one vote and found the card.
    single_vote_bonus: int = 0
    # The mode's name ("standard", "party" or "teams"); its fields are the ones below.
    mode: str = "standard"
    # Party play: everyone votes (the storyteller too, and for their own card if they like); the
    # storyteller voids one table card; a voter scores the voters on their card (see scoring).
    everyone_votes: bool = False
    # Party play: the most points a voter scores in a round.
    party_cap: int = 5
    # Party play: after a round every player passes their hand to their left-hand neighbour.
    pass_hands: bool = False
    # The game ends when every player has been the storyteller this many times.
    storyteller_turns: int | None = None
    # Team play: partners are consecutive seats (1-2, 3-4, ...); a team holds its partners'
    # hands, tells, hands in a card and votes once, and scores as one.
    team_size: int = 1

    def hand_size_for(self, players: int) -> int:
        return self.three_player_hand_size if players == 3 else self.hand_size

    def cards_each_for(self, players: int) -> int:
        """How many cards each player (team) other than the storyteller puts on the table."""
        return self.three_player_cards_each if players == 3 else 1

    def table_size_for(self, players: int) -> int:
        return 1 + (players // self.team_size - 1) * self.cards_each_for(players)

    def votes_each_for(self, players: int) -> int:
        """How many votes each voter may cast (the second one optional)."""
        return 2 if self.two_votes_from is not None and players >= self.two_votes_from else 1

    def max_rounds_for(self, players: int) -> int | None:
        """The last round's number, or None when only the pile or a score ends the game."""
        teams = players // self.team_size
        by_turns = None if self.storyteller_turns is None else self.storyteller_turns * teams
        if by_turns is None or self.max_rounds is None:
            return by_turns if self.max_rounds is None else self.max_rounds
        return min(by_turns, self.max_rounds)

    def lone_finder_bonus_for(self, players: int) -> bool:
        if self.lone_finder_bonus is not None:
            return self.lone_finder_bonus
        return self.edition == "classic" and players == 3

    def min_deck_size_for(self, players: int) -> int:
        """Enough cards to deal every hand and refill after one round."""
        return players * self.hand_size_for(players) + self.table_size_for(players)

    def options(self) -> dict[str, Any]:
        """The fields that differ from this edition's and mode's defaults."""
        base = EDITIONS.get(self.edition)
        if base is not None and self.mode in MODES and self.mode != "standard":
            base = dataclasses.replace(base, mode=self.mode, **MODES[self.mode])
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in ("edition", "mode")
            and (base is None or getattr(base, f.name) != getattr(self, f.name))
        }


CLASSIC = Rules(edition="classic", min_players=3, max_players=6)
EDITION_2021 = Rules(
    edition="2021", min_players=3, max_players=8, reshuffle_discards=True, end_at_score=30
)
# Dixit Odyssey: up to 12 players, two votes each from 7 on, at most 3 points from votes.
ODYSSEY = Rules(
    edition="odyssey",
    min_players=3,
    max_players=12,
    reshuffle_discards=True,
    end_at_score=30,
    two_votes_from=7,
    votes_received_cap=3,
    single_vote_bonus=1,
)
EDITIONS: dict[str, Rules] = {"classic": CLASSIC, "2021": EDITION_2021, "odyssey": ODYSSEY}
OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name not in ("edition", "mode"))

# A mode is the fields it changes, applied over an edition (options apply over the mode).
MODES: dict[str, dict[str, Any]] = {
    "standard": {},
    # Dixit Party (Odyssey): 6-12 players with 5-card hands; everyone plays a card and votes;
    # one round per storyteller; discards reshuffled.
    # Team Dixit (Odyssey): 6, 8, 10 or 12 players in teams of two with 4-card hands.
    "teams": {
        "min_players": 6,
        "max_players": 12,
        "hand_size": 4,
        "two_votes_from": None,
        "team_size": 2,
    },
    "party": {
        "min_players": 6,
        "max_players": 12,
        "hand_size": 5,
        "two_votes_from": None,
        "everyone_votes": True,
        "pass_hands": True,
        "storyteller_turns": 1,
        "reshuffle_discards": True,
        "end_at_score": None,
    },
}


def rules_for(edition: str, mode: str = "standard", **options: Any) -> Rules:
    """The rules of an edition and mode by name, with variant options applied and checked."""
    try:
        base = EDITIONS[edition]
    except KeyError:
        raise GameError(
            Code.UNKNOWN_EDITION, f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}"
        ) from None
    preset = MODES.get(mode) if isinstance(mode, str) else None
    if preset is None:
        raise GameError(Code.BAD_OPTION, f"unknown mode {mode!r}; known: {', '.join(MODES)}")
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise GameError(Code.UNKNOWN_OPTION, f"unknown rules option(s): {', '.join(unknown)}")
    if mode != "standard":
        base = dataclasses.replace(base, mode=mode, **preset)
    rules = dataclasses.replace(base, **options)
    validate(rules)
    return rules


def _int_field(rules: Rules, name: str, low: int, high: int, optional: bool = False) -> None:
    value = getattr(rules, name)
    if optional and value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise GameError(Code.BAD_OPTION, f"{name} must be an integer from {low} to {high}")


def validate(rules: Rules) -> None:
    """Reject combinations that cannot make a playable game."""
    _int_field(rules, "min_players", 3, 12)
    _int_field(rules, "max_players", rules.min_players, 12)
    _int_field(rules, "hand_size", 2, 12)
    _int_field(rules, "three_player_hand_size", 2, 12)
    _int_field(rules, "three_player_cards_each", 1, 3)
    _int_field(rules, "end_at_score", 1, 1000, optional=True)
    _int_field(rules, "max_rounds", 1, 1000, optional=True)
    _int_field(rules, "clue_max_length", 1, 2000)
    _int_field(rules, "two_votes_from", 3, 13, optional=True)
    _int_field(rules, "votes_received_cap", 1, 100, optional=True)
    _int_field(rules, "single_vote_bonus", 0, 10)
    _int_field(rules, "party_cap", 1, 12)
    _int_field(rules, "storyteller_turns", 1, 10, optional=True)
    _int_field(rules, "team_size", 1, 4)
    if rules.team_size > 1 and (rules.everyone_votes or rules.min_players < 3 * rules.team_size):
        raise GameError(Code.BAD_OPTION, "team play needs at least three teams, and one vote each")
    if rules.mode not in MODES:
        raise GameError(Code.BAD_OPTION, f"unknown mode {rules.mode!r}")
    if rules.three_player_cards_each >= rules.three_player_hand_size:
        raise GameError(Code.BAD_OPTION, "three_player_cards_each must be below the hand size")
    for name in ("reshuffle_discards", "everyone_votes", "pass_hands"):
        if not isinstance(getattr(rules, name), bool):
            raise GameError(Code.BAD_OPTION, f"{name} must be true or false")
    if rules.lone_finder_bonus is not None and not isinstance(rules.lone_finder_bonus, bool):
        raise GameError(Code.BAD_OPTION, "lone_finder_bonus must be true, false or null")
    if rules.everyone_votes and rules.two_votes_from is not None:
        raise GameError(Code.BAD_OPTION, "in party play every player has one vote")
    if (
        rules.reshuffle_discards
        and rules.end_at_score is None
        and rules.max_rounds is None
        and rules.storyteller_turns is None
    ):
        raise GameError(
            Code.BAD_OPTION,
            "with reshuffled discards the draw pile never runs out: set end_at_score or max_rounds",
        )


def check_players(rules: Rules, players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise GameError(
            Code.PLAYER_COUNT,
            f"{rules.edition} plays with {rules.min_players} to {rules.max_players} players, "
            f"not {players}",
        )
    if players % rules.team_size:
        raise GameError(
            Code.PLAYER_COUNT, f"teams of {rules.team_size} need a multiple of {rules.team_size}"
        )
