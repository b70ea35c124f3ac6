"""JSON for commands, events and views, with a schema version.

Encoding is generic over the engine's frozen dataclasses; decoding is driven by their type hints
and rejects anything malformed with ``command/malformed`` (never a half-built value).
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from typing import Any, Union

from .commands import CastVote, Command, EndGame, GiveClue, StartGame, SubmitCards, VoidCard
from .errors import Code, GameError
from .events import EVENT_TYPES, Event
from .legal import LegalActions
from .rules import Rules
from .views import PlayerView

SCHEMA_VERSION = 1

COMMAND_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls for cls in (StartGame, GiveClue, SubmitCards, CastVote, VoidCard, EndGame)
}
EVENT_TYPES_BY_NAME: dict[str, type[Any]] = {cls.__name__: cls for cls in EVENT_TYPES}
JSON = Any


# How each type met so far is encoded: its dataclass field names, or one of the kinds below.
# Every stored event goes through :func:`encode`; looking the type up once instead of asking
# ``dataclasses`` about every value made it about three times faster.
_PLAIN, _ENUM, _SEQUENCE, _MAPPING = 0, 1, 2, 3
_ENCODINGS: dict[type, tuple[str, ...] | int] = {}


def _encoding(cls: type) -> tuple[str, ...] | int:
    how: tuple[str, ...] | int
    if dataclasses.is_dataclass(cls):
        how = tuple(f.name for f in dataclasses.fields(cls))
    elif issubclass(cls, Enum):
        how = _ENUM
    elif issubclass(cls, tuple | list):
        how = _SEQUENCE
    elif issubclass(cls, dict):
        how = _MAPPING
    else:
        how = _PLAIN
    _ENCODINGS[cls] = how
    return how


def encode(value: Any) -> JSON:
    """A JSON-ready value: dataclasses become objects, tuples lists, enums their value."""
    how = _ENCODINGS.get(type(value))
    if how is None:
        how = _encoding(type(value))
    if how == _PLAIN:
        return value
    if isinstance(how, tuple):
        return {name: encode(getattr(value, name)) for name in how}
    if how == _ENUM:
        return value.value
    if how == _SEQUENCE:
        return [encode(v) for v in value]
    return {k: encode(v) for k, v in value.items()}


def _tagged(value: Any) -> dict[str, JSON]:
    return {"schema": SCHEMA_VERSION, "type": type(value).__name__, **encode(value)}


def command_to_json(command: Command) -> dict[str, JSON]:
    return _tagged(command)


def event_to_json(event: Event) -> dict[str, JSON]:
    return _tagged(event)


def view_to_json(view: PlayerView) -> dict[str, JSON]:
    return _tagged(view)


def command_from_json(data: JSON) -> Command:
    result: Command = _from_tagged(data, COMMAND_TYPES, "command")
    return result


def event_from_json(data: JSON) -> Event:
    result: Event = _from_tagged(data, EVENT_TYPES_BY_NAME, "event")
    return result


def view_from_json(data: JSON) -> PlayerView:
    result: PlayerView = _from_tagged(data, {"PlayerView": PlayerView}, "view")
    return result


def dumps(value: Any) -> str:
    """Compact JSON text of an encoded or encodable value."""
    return json.dumps(value if isinstance(value, dict) else encode(value), separators=(",", ":"))


def _from_tagged(data: JSON, registry: dict[str, type[Any]], what: str) -> Any:
    if not isinstance(data, dict):
        raise GameError(Code.MALFORMED, f"a {what} must be a JSON object")
    version = data.get("schema", SCHEMA_VERSION)
    if version != SCHEMA_VERSION:
        raise GameError(Code.SCHEMA_VERSION, f"unsupported schema version {version!r}")
    name = data.get("type")
    cls = registry.get(name) if isinstance(name, str) else None
    if cls is None:
        raise GameError(Code.UNKNOWN_COMMAND, f"unknown {what} type {name!r}")
    body = {k: v for k, v in data.items() if k not in ("schema", "type")}
    return _decode(cls, body, what)


_HINTS: dict[type[Any], dict[str, Any]] = {}


def _hints(cls: type[Any]) -> dict[str, Any]:
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def _decode(tp: Any, value: JSON, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, types.UnionType):
        options = typing.get_args(tp)
        if value is None and type(None) in options:
            return None
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(option, value, where)
            except GameError:
                continue
        raise GameError(Code.MALFORMED, f"{where}: unexpected value {value!r}")
    if origin is tuple:
        args = typing.get_args(tp)
        if not isinstance(value, list):
            raise GameError(Code.MALFORMED, f"{where}: expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, where) for v in value)
        if len(args) != len(value):
            raise GameError(Code.MALFORMED, f"{where}: expected {len(args)} items")
        return tuple(_decode(a, v, where) for a, v in zip(args, value, strict=True))
    if origin is dict:
        key_type, value_type = typing.get_args(tp)
        if not isinstance(value, dict):
            raise GameError(Code.MALFORMED, f"{where}: expected an object")
        return {
            _decode(key_type, k, where): _decode(value_type, v, where) for k, v in value.items()
        }
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _decode_dataclass(tp, value, where)
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            raise GameError(Code.MALFORMED, f"{where}: bad value {value!r}") from None
    if tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is str and isinstance(value, str):
        return value
    raise GameError(Code.MALFORMED, f"{where}: expected {getattr(tp, '__name__', tp)}")


def _decode_dataclass(cls: type[Any], value: JSON, where: str) -> Any:
    if not isinstance(value, dict):
        raise GameError(Code.MALFORMED, f"{where}: expected an object")
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = set(value) - names
    if unknown:
        raise GameError(Code.MALFORMED, f"{where}: unknown field(s) {sorted(unknown)}")
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name in value:
            kwargs[f.name] = _decode(hints[f.name], value[f.name], f"{where}.{f.name}")
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise GameError(Code.MALFORMED, f"{where}: missing field {f.name!r}")
    return cls(**kwargs)


__all__ = [
    "SCHEMA_VERSION",
    "LegalActions",
    "Rules",
    "command_from_json",
    "command_to_json",
    "dumps",
    "encode",
    "event_from_json",
    "event_to_json",
    "view_from_json",
    "view_to_json",
]
