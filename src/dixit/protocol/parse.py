"""Reading client messages: bad JSON, unknown types and wrong fields become a clear error."""

from __future__ import annotations

import json
from typing import Any

import orjson
from pydantic import ValidationError

from dixit.engine import CodedError

from .codes import ErrorCode
from .messages import (
    CLIENT_MESSAGE_TYPES,
    MAX_COMMAND_ID_LENGTH,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    CastVote,
    ClientModel,
    GiveClue,
    SubmitCards,
)

MAX_DEPTH = 8  # the deepest message (update_settings → settings → timers) needs 3


class ProtocolError(CodedError):
    """A message that cannot be read. ``command_id`` is echoed back when it could be found."""

    def __init__(self, code: ErrorCode, message: str, command_id: str | None = None) -> None:
        super().__init__(code, message)
        self.code: ErrorCode = code
        self.command_id = command_id


def _describe(error: ValidationError) -> str:
    """Where and what, never the client's values (a field name is shown sendable and short)."""
    parts = []
    for item in error.errors(include_url=False, include_input=False)[:3]:
        where = ".".join(_sendable(str(p))[:40] for p in item["loc"]) or "message"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


def _sendable(text: str) -> str:
    """``text`` with anything that is not valid Unicode (lone surrogates) escaped."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


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
        raise ProtocolError(
            ErrorCode.MESSAGE_TOO_LARGE, f"a message has at most {MAX_MESSAGE_BYTES} bytes"
        )
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
    except RecursionError:
        raise ProtocolError(ErrorCode.TOO_DEEP, f"JSON nested deeper than {MAX_DEPTH}") from None
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError(ErrorCode.MALFORMED, "not valid JSON") from None


def _too_deep(data: Any) -> bool:
    """Is ``data`` nested deeper than :data:`MAX_DEPTH` objects and arrays?"""
    level: list[Any] = [data]
    for _ in range(MAX_DEPTH):
        level = [
            child
            for node in level
            if isinstance(node, dict | list)
            for child in (node.values() if isinstance(node, dict) else node)
        ]
        if not level:
            return False
    return any(isinstance(node, dict | list) for node in level)


def _text(value: Any, limit: int) -> str | None:
    """``value`` when it is a string that can be sent back (valid Unicode, short), else None."""
    if not isinstance(value, str) or len(value) > limit:
        return None
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return None
    return value


def _shown(value: Any) -> str:
    """A short, always-sendable rendering of a client's value for an error message."""
    text = ascii(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _parse(data: Any) -> ClientModel:
    if not isinstance(data, dict):
        raise ProtocolError(ErrorCode.MALFORMED, "a message must be a JSON object")
    if _too_deep(data):
        raise ProtocolError(ErrorCode.TOO_DEEP, f"JSON nested deeper than {MAX_DEPTH}")
    command_id = _text(data.get("id"), MAX_COMMAND_ID_LENGTH)
    kind = data.get("type")
    cls = CLIENT_MESSAGE_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        known = ", ".join(sorted(CLIENT_MESSAGE_TYPES))
        raise ProtocolError(
            ErrorCode.UNKNOWN_TYPE,
            f"unknown message type {_shown(kind)}; known: {known}",
            command_id,
        )
    version = data.get("v", PROTOCOL_VERSION)
    if version != PROTOCOL_VERSION:
        raise ProtocolError(
            ErrorCode.SCHEMA_VERSION,
            f"protocol version {_shown(version)} is not supported (use {PROTOCOL_VERSION})",
            command_id,
        )
    try:
        return cls.model_validate(data)
    except ValidationError as error:
        raise ProtocolError(ErrorCode.MALFORMED, _describe(error), command_id) from None
