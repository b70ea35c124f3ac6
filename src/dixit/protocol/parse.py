"""Reading client messages: bad JSON, unknown types and wrong fields become a clear error."""

from __future__ import annotations

import json
from typing import Any

import orjson
from pydantic import ValidationError

from .messages import (
    CLIENT_MESSAGE_TYPES,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CastVote,
    ClientModel,
    GiveClue,
    SubmitCards,
)

MALFORMED = "command/malformed"
UNKNOWN_TYPE = "command/unknown_type"
BAD_VERSION = "command/schema_version"
TOO_LARGE = "limit/message_too_large"


class ProtocolError(Exception):
    """A message that cannot be read. ``command_id`` is echoed back when it could be found."""

    def __init__(self, code: str, message: str, command_id: str | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.command_id = command_id


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        where = ".".join(str(p) for p in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


# ----------------------------------------------------------------------------- fast path
# The three game moves are most of what clients send. They are read with orjson (several times
# faster than the standard library) and validated by pydantic as usual; a message that does not
# validate, or that orjson reads otherwise or not at all, is read again by the standard library
# below, so every error is exactly what it always was. The moves hold only strings, lists of
# strings and the protocol version, on which both readers agree; tests/server/test_fast_paths.py
# checks both paths.

_FAST_TYPES: dict[str, type[ClientModel]] = {
    "give_clue": GiveClue,
    "submit_cards": SubmitCards,
    "cast_vote": CastVote,
}


def _fast_move(data: dict[str, Any]) -> ClientModel | None:
    """The game move in ``data`` when it is one and valid, else None (take the slow path)."""
    kind = data.get("type")
    cls = _FAST_TYPES.get(kind) if type(kind) is str else None
    if cls is None:
        return None
    if "v" in data and not (type(data["v"]) is int and data["v"] == PROTOCOL_VERSION):
        return None
    try:
        return cls.model_validate(data)
    except ValidationError:
        return None


def parse_client_message(text: str | bytes) -> ClientModel:
    """The typed message in ``text``, or :class:`ProtocolError`."""
    if len(text) > MAX_MESSAGE_BYTES:
        raise ProtocolError(TOO_LARGE, f"a message has at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data: Any = orjson.loads(text)
    except orjson.JSONDecodeError:
        pass
    else:
        if type(data) is dict:
            fast = _fast_move(data)
            if fast is not None:
                return fast
    # Everything else is read again by the standard library: orjson reads some JSON otherwise
    # (integers beyond 64 bits become floats) or not at all (lone surrogates, NaN).
    return _parse(_loads(text))


def _loads(text: str | bytes) -> Any:
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(MALFORMED, "not valid JSON") from None


def _parse(data: Any) -> ClientModel:
    if not isinstance(data, dict):
        raise ProtocolError(MALFORMED, "a message must be a JSON object")
    raw_id = data.get("id")
    command_id = raw_id if isinstance(raw_id, str) and len(raw_id) <= 64 else None
    kind = data.get("type")
    cls = CLIENT_MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(CLIENT_MESSAGE_TYPES))
        raise ProtocolError(
            UNKNOWN_TYPE, f"unknown message type {kind!r}; known: {known}", command_id
        )
    version = data.get("v", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            BAD_VERSION,
            f"protocol version {version!r} is not supported (use {PROTOCOL_VERSION})",
            command_id,
        )
    try:
        return cls.model_validate(data)
    except ValidationError as error:
        raise ProtocolError(MALFORMED, _describe(error), command_id) from None
