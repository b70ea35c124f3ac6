"""Every rejection the engine makes: coded errors with stable, namespaced codes."""

from __future__ import annotations

from enum import StrEnum


class CodedError(Exception):
    """The base of every error a player or client can be told about: engine, protocol, server.

    ``code`` is stable and machine-readable (``action/not_your_turn``); ``message`` is for people.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class GameError(CodedError):
    """A command (or a game set-up) the rules do not allow.

    Raising never changes a state: the engine validates everything before producing events.
    """


class InvalidLog(GameError):
    """An event log that is not a legal game; ``index`` is the first wrong event's."""

    def __init__(self, code: str, message: str, index: int) -> None:
        super().__init__(code, message)
        self.index = index


class Code(StrEnum):
    """The engine's error codes, in one place so clients, docs and tests refer to them."""

    NOT_A_PLAYER = "action/not_a_player"
    NOT_YOUR_TURN = "action/not_your_turn"
    WRONG_PHASE = "action/wrong_phase"
    CARD_NOT_IN_HAND = "action/card_not_in_hand"
    CARD_NOT_ON_TABLE = "action/card_not_on_table"
    CANNOT_VOTE_OWN_CARD = "action/cannot_vote_own_card"
    STORYTELLER_CANNOT_VOTE = "action/storyteller_cannot_vote"
    STORYTELLER_CANNOT_SUBMIT = "action/storyteller_cannot_submit"
    ALREADY_SUBMITTED = "action/already_submitted"
    ALREADY_VOTED = "action/already_voted"
    WRONG_CARD_COUNT = "action/wrong_card_count"
    DUPLICATE_CARD = "action/duplicate_card"
    ONE_VOTE_ONLY = "action/one_vote_only"
    CANNOT_VOID = "action/cannot_void"
    ALREADY_VOIDED = "action/already_voided"
    CLUE_EMPTY = "action/clue_empty"
    CLUE_TOO_LONG = "action/clue_too_long"
    GAME_OVER = "game/over"
    GAME_NOT_STARTED = "game/not_started"
    GAME_ALREADY_STARTED = "game/already_started"
    MALFORMED = "command/malformed"
    UNKNOWN_COMMAND = "command/unknown_type"
    SCHEMA_VERSION = "command/schema_version"
    PLAYER_COUNT = "setup/player_count"
    DUPLICATE_PLAYER = "setup/duplicate_player"
    DECK_TOO_SMALL = "setup/deck_too_small"
    DUPLICATE_CARD_IN_DECK = "setup/duplicate_card"
    UNKNOWN_EDITION = "setup/unknown_edition"
    UNKNOWN_OPTION = "setup/unknown_option"
    BAD_OPTION = "setup/bad_option"
    UNKNOWN_PLAYER = "setup/unknown_player"
    EVENT_INVALID = "event/invalid"
