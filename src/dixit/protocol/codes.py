"""Every code a client can be answered with, as one enum (exported in the JSON Schema).

An ``error`` message, an HTTP ``ApiError`` and a ``closed`` message carry an :class:`ErrorCode`;
a ``notice`` carries a :class:`NoticeCode`. The engine's rejections keep their own codes
(``dixit.engine.errors``) and are listed here too, so a client has one list to translate;
tests/protocol/test_codes.py fails when the engine adds a code this enum lacks.

``python -m dixit.protocol.codes_doc`` prints the table docs/protocol.md carries (a test checks
the document is current; ``--write docs/protocol.md`` updates it).
"""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """A rejection's stable code: ``namespace/what``."""

    # The engine: a move or a game set-up the rules do not allow.
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
    PLAYER_COUNT = "setup/player_count"
    DUPLICATE_PLAYER = "setup/duplicate_player"
    DECK_TOO_SMALL = "setup/deck_too_small"
    DUPLICATE_CARD_IN_DECK = "setup/duplicate_card"
    UNKNOWN_EDITION = "setup/unknown_edition"
    UNKNOWN_OPTION = "setup/unknown_option"
    BAD_OPTION = "setup/bad_option"
    UNKNOWN_PLAYER = "setup/unknown_player"
    EVENT_INVALID = "event/invalid"
    # The protocol: a message that cannot be read.
    MALFORMED = "command/malformed"
    UNKNOWN_TYPE = "command/unknown_type"
    SCHEMA_VERSION = "command/schema_version"
    BINARY_FRAME = "command/binary_frame"
    REQUEST_MALFORMED = "request/malformed"
    REQUEST_NOT_FOUND = "request/not_found"
    METHOD_NOT_ALLOWED = "request/method_not_allowed"
    MESSAGE_TOO_LARGE = "limit/message_too_large"
    TOO_DEEP = "limit/nesting_depth"
    BODY_TOO_LARGE = "limit/body_too_large"
    UPLOAD_TOO_LARGE = "limit/upload_too_large"
    RATE = "limit/rate"
    ROOMS = "limit/rooms"
    SPECTATORS = "limit/spectators"
    # The server: who may do what, in which room.
    HELLO_REQUIRED = "auth/hello_required"
    HELLO_TIMEOUT = "auth/hello_timeout"
    BAD_TOKEN = "auth/bad_token"
    SPECTATOR = "auth/spectator"
    REPLACED = "auth/replaced"
    ROOM_NOT_FOUND = "room/not_found"
    ROOM_FULL = "room/full"
    COLOUR_TAKEN = "room/colour_taken"
    NAME_TAKEN = "room/name_taken"
    NOT_HOST = "room/not_host"
    NOT_IN_LOBBY = "room/not_in_lobby"
    NOT_PLAYING = "room/not_playing"
    NOT_OVER = "room/not_over"
    UNKNOWN_SEAT = "room/unknown_seat"
    NOT_A_BOT = "room/not_a_bot"
    TOO_FEW_PLAYERS = "room/too_few_players"
    SEAT_IS_BOT = "room/seat_is_bot"
    KICKED = "room/kicked"
    LEFT = "room/left"
    CHAT_EMPTY = "chat/empty"
    CHAT_TOO_LONG = "chat/too_long"
    CHAT_RATE = "chat/rate"
    CHAT_SECRET = "chat/secret"
    CHAT_MUTED = "chat/muted"
    CHAT_NO_TEAM = "chat/no_team"
    UNKNOWN_DECK = "deck/unknown"
    DECK_NOT_FOUND = "deck/not_found"
    DECK_BAD_LANGUAGE = "deck/bad_language"
    DECK_UNKNOWN_CARD = "deck/unknown_card"
    DECK_NOT_IMPORTED = "deck/not_imported"
    DECK_NOT_YOURS = "deck/not_yours"
    CONFLICT = "server/conflict"
    INTERNAL = "server/internal"
    STORE_UNAVAILABLE = "store/unavailable"
    STORE_BUSY = "store/busy"
    STORE_DISK_FULL = "store/disk_full"
    STORE_ERROR = "store/error"


class NoticeCode(StrEnum):
    """What a ``notice`` tells everyone in a room."""

    AUTO_PLAYED = "timer/auto_played"
    AUTOPLAYED = "seat/autoplayed"
    RECLAIMED = "seat/reclaimed"


# Where each code comes from, and when (the documentation table).
DESCRIPTIONS: dict[ErrorCode | NoticeCode, str] = {
    ErrorCode.NOT_A_PLAYER: "the seat plays no part in this game",
    ErrorCode.NOT_YOUR_TURN: "someone else is the storyteller (also: the opening clue was "
    "claimed by another player a moment earlier)",
    ErrorCode.WRONG_PHASE: "not in this phase (also: the loser of a race to claim the opening "
    "clue, as the game has moved on to submitting)",
    ErrorCode.CARD_NOT_IN_HAND: "that card is not in your hand",
    ErrorCode.CARD_NOT_ON_TABLE: "that card is not on the table",
    ErrorCode.CANNOT_VOTE_OWN_CARD: "you cannot vote for your own card",
    ErrorCode.STORYTELLER_CANNOT_VOTE: "the storyteller does not vote",
    ErrorCode.STORYTELLER_CANNOT_SUBMIT: "the storyteller does not submit",
    ErrorCode.ALREADY_SUBMITTED: "a second submission in one round (never applied twice)",
    ErrorCode.ALREADY_VOTED: "a second vote in one round (never applied twice)",
    ErrorCode.WRONG_CARD_COUNT: "submit exactly `legal.submit_count` cards",
    ErrorCode.DUPLICATE_CARD: "the same card twice in one submission, or both votes on one card",
    ErrorCode.ONE_VOTE_ONLY: "a second vote where the rules give one (Odyssey: under 7 players)",
    ErrorCode.CANNOT_VOID: "only the storyteller voids a card, and only in party play",
    ErrorCode.ALREADY_VOIDED: "the storyteller has already voided a card this round",
    ErrorCode.CLUE_EMPTY: "a clue of only spaces",
    ErrorCode.CLUE_TOO_LONG: "a clue longer than the rules' `clue_max_length`",
    ErrorCode.GAME_OVER: "the game is over",
    ErrorCode.GAME_NOT_STARTED: "no game has been dealt",
    ErrorCode.GAME_ALREADY_STARTED: "the game was dealt already",
    ErrorCode.PLAYER_COUNT: "the edition does not play with this many seats",
    ErrorCode.DUPLICATE_PLAYER: "a seat twice at one table",
    ErrorCode.DECK_TOO_SMALL: "the chosen decks have too few cards for this table",
    ErrorCode.DUPLICATE_CARD_IN_DECK: "a card twice in the chosen decks",
    ErrorCode.UNKNOWN_EDITION: "no such edition",
    ErrorCode.UNKNOWN_OPTION: "no such rules option",
    ErrorCode.BAD_OPTION: "a rules option out of range (HTTP 400 when creating a room)",
    ErrorCode.UNKNOWN_PLAYER: "the chosen first storyteller has no seat",
    ErrorCode.EVENT_INVALID: "a stored event that does not fit (never sent for a move)",
    ErrorCode.MALFORMED: "not valid JSON, not an object, a field missing, of the wrong type or "
    "out of range, an unknown field, text that is not valid Unicode (a lone surrogate), a "
    "blank name, `hello` a second time on one socket",
    ErrorCode.UNKNOWN_TYPE: "no message has this `type`",
    ErrorCode.SCHEMA_VERSION: "a `v` other than 1",
    ErrorCode.BINARY_FRAME: "a binary WebSocket frame (messages are text frames)",
    ErrorCode.REQUEST_MALFORMED: "HTTP 422: a lobby request body that is not valid JSON of the "
    "documented shape (also non-UTF-8 bytes, NaN, infinities, lone surrogates)",
    ErrorCode.REQUEST_NOT_FOUND: "HTTP 404: no such API path",
    ErrorCode.METHOD_NOT_ALLOWED: "HTTP 405: the path does not take this method",
    ErrorCode.MESSAGE_TOO_LARGE: "a message over 16 KiB",
    ErrorCode.TOO_DEEP: "JSON nested deeper than 8 levels",
    ErrorCode.BODY_TOO_LARGE: "HTTP 413: a lobby request body over 64 KiB",
    ErrorCode.UPLOAD_TOO_LARGE: "HTTP 413: a deck upload over the size limit",
    ErrorCode.RATE: "more than 20 messages a second per socket (bursts of 40); a client address "
    "over a lobby route's or a hello's limit (HTTP 429 with Retry-After; docs/deploy.md)",
    ErrorCode.ROOMS: "HTTP 503: this process has as many rooms as `--max-rooms`",
    ErrorCode.SPECTATORS: "HTTP 409: 32 spectator tokens in this room",
    ErrorCode.HELLO_REQUIRED: "a command before `hello` (`ping` is answered before it)",
    ErrorCode.HELLO_TIMEOUT: "`closed`: no `hello` within 15 s",
    ErrorCode.BAD_TOKEN: "`closed` after `hello`: the token opens no seat in this room; "
    "`error`: the seat was given up or revoked since",
    ErrorCode.SPECTATOR: "a spectator cannot act",
    ErrorCode.REPLACED: "`closed`: the same seat connected on a newer socket",
    ErrorCode.ROOM_NOT_FOUND: "HTTP 404, or `closed` on a socket to an unknown room",
    ErrorCode.ROOM_FULL: "every seat is taken (HTTP 409)",
    ErrorCode.COLOUR_TAKEN: "another seat has this rabbit (HTTP 409)",
    ErrorCode.NAME_TAKEN: "another seat of the room goes by this name, case and spaces aside "
    "(HTTP 409 for a join)",
    ErrorCode.NOT_HOST: "only the host can do that (HTTP 403 for a deck import)",
    ErrorCode.NOT_IN_LOBBY: "only before the game starts (HTTP 409 for a join)",
    ErrorCode.NOT_PLAYING: "no game is being played",
    ErrorCode.NOT_OVER: "a rematch follows a finished game",
    ErrorCode.UNKNOWN_SEAT: "no such seat, or not one this command can name",
    ErrorCode.NOT_A_BOT: "`set_bot_level` names a seat no computer player plays",
    ErrorCode.TOO_FEW_PLAYERS: "the edition needs more seats to start",
    ErrorCode.SEAT_IS_BOT: "a computer player plays your seat (reconnect, or ask the host)",
    ErrorCode.KICKED: "`closed`: the host removed you",
    ErrorCode.LEFT: "`closed`: you left the room",
    ErrorCode.CHAT_EMPTY: "a table-talk line of only spaces or control characters",
    ErrorCode.CHAT_TOO_LONG: "a table-talk line longer than 200 characters",
    ErrorCode.CHAT_RATE: "too many lines or reactions from one seat (a short burst, then one "
    "line every 2 s, one reaction a second)",
    ErrorCode.CHAT_SECRET: "a line holding a card id of the room's decks (the talk never says "
    "which card is whose)",
    ErrorCode.CHAT_MUTED: "the host has muted your seat: no lines, no reactions",
    ErrorCode.CHAT_NO_TEAM: "a team line outside a team game that is being played",
    ErrorCode.UNKNOWN_DECK: "a deck slug the server does not have, or an import it refused",
    ErrorCode.DECK_NOT_FOUND: "HTTP 404: no deck with this slug",
    ErrorCode.DECK_BAD_LANGUAGE: "HTTP 400: card words asked in a language other than "
    "it, pl, es, pt, fr, en",
    ErrorCode.DECK_UNKNOWN_CARD: "HTTP 400: a caption for a card the deck does not have",
    ErrorCode.DECK_NOT_IMPORTED: "HTTP 409: captions are written only for imported decks",
    ErrorCode.DECK_NOT_YOURS: "HTTP 403: only the host token that uploaded a deck may add "
    "to it, rename it, delete it or describe its cards",
    ErrorCode.CONFLICT: "another server process wrote first; resend the command",
    ErrorCode.INTERNAL: "HTTP 500: a fault of the server (logged); nothing changed",
    ErrorCode.STORE_UNAVAILABLE: "the database cannot be reached (HTTP 503): resend the "
    "command later (a resend is never applied twice)",
    ErrorCode.STORE_BUSY: "the database's lock was held too long elsewhere (HTTP 503): resend "
    "the command",
    ErrorCode.STORE_DISK_FULL: "the server's disk is full (HTTP 503); nothing was written",
    ErrorCode.STORE_ERROR: "the database failed otherwise (HTTP 503, logged)",
    NoticeCode.AUTO_PLAYED: "the phase timer ran out: a computer player played for `seat`",
    NoticeCode.AUTOPLAYED: "a computer player now plays `seat` for the person who had it",
    NoticeCode.RECLAIMED: "the person came back and plays `seat` again",
}
