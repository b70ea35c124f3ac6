"""Server-side rejections: a stable code (like the engine's), a message, an HTTP status."""

from __future__ import annotations


class ServerError(Exception):
    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


HELLO_REQUIRED = "auth/hello_required"
BAD_TOKEN = "auth/bad_token"
SPECTATOR = "auth/spectator"
REPLACED = "auth/replaced"
ROOM_NOT_FOUND = "room/not_found"
ROOM_FULL = "room/full"
COLOUR_TAKEN = "room/colour_taken"
NOT_HOST = "room/not_host"
NOT_IN_LOBBY = "room/not_in_lobby"
NOT_PLAYING = "room/not_playing"
NOT_OVER = "room/not_over"
UNKNOWN_SEAT = "room/unknown_seat"
TOO_FEW_PLAYERS = "room/too_few_players"
SEAT_IS_BOT = "room/seat_is_bot"
KICKED = "room/kicked"
LEFT = "room/left"
UNKNOWN_DECK = "deck/unknown"
RATE = "limit/rate"
ROOMS = "limit/rooms"
SPECTATORS = "limit/spectators"
CONFLICT = "server/conflict"
