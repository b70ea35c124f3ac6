"""Rules as data: the two editions, and every variant as an option that mixes with the others.

An edition is a :class:`Rules` value; a variant is a changed field. ``rules_for("classic",
lone_finder_bonus=True)`` looks an edition up by name and applies options, validating both.
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

    def hand_size_for(self, players: int) -> int:
        return self.three_player_hand_size if players == 3 else self.hand_size

    def cards_each_for(self, players: int) -> int:
        """How many cards each player other than the storyteller puts on the table."""
        return self.three_player_cards_each if players == 3 else 1

    def table_size_for(self, players: int) -> int:
        return 1 + (players - 1) * self.cards_each_for(players)

    def lone_finder_bonus_for(self, players: int) -> bool:
        if self.lone_finder_bonus is not None:
            return self.lone_finder_bonus
        return self.edition == "classic" and players == 3

    def min_deck_size_for(self, players: int) -> int:
        """Enough cards to deal every hand and refill after one round."""
        return players * self.hand_size_for(players) + self.table_size_for(players)

    def options(self) -> dict[str, Any]:
        """The fields that differ from this edition's defaults."""
        base = EDITIONS.get(self.edition)
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name != "edition"
            and (base is None or getattr(base, f.name) != getattr(self, f.name))
        }


CLASSIC = Rules(edition="classic", min_players=3, max_players=6)
EDITION_2021 = Rules(
    edition="2021", min_players=3, max_players=8, reshuffle_discards=True, end_at_score=30
)
EDITIONS: dict[str, Rules] = {"classic": CLASSIC, "2021": EDITION_2021}
OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "edition")


def rules_for(edition: str, **options: Any) -> Rules:
    """The rules of an edition by name, with variant options applied and checked."""
    try:
        base = EDITIONS[edition]
    except KeyError:
        raise GameError(
            Code.UNKNOWN_EDITION, f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}"
        ) from None
    unknown = sorted(set(options) - set(OPTION_NAMES))
    if unknown:
        raise GameError(Code.UNKNOWN_OPTION, f"unknown rules option(s): {', '.join(unknown)}")
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
    if rules.three_player_cards_each >= rules.three_player_hand_size:
        raise GameError(Code.BAD_OPTION, "three_player_cards_each must be below the hand size")
    for name in ("reshuffle_discards",):
        if not isinstance(getattr(rules, name), bool):
            raise GameError(Code.BAD_OPTION, f"{name} must be true or false")
    if rules.lone_finder_bonus is not None and not isinstance(rules.lone_finder_bonus, bool):
        raise GameError(Code.BAD_OPTION, "lone_finder_bonus must be true, false or null")
    if rules.reshuffle_discards and rules.end_at_score is None and rules.max_rounds is None:
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
