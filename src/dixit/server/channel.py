"""The room channel: every note one server process sends the others about a room, in one
envelope, written and read here only.

One pub/sub channel per room (``dixit:room:CODE``). Each note is JSON
``{"origin": PROCESS, "kind": KIND, "body": BODY}``:

- ``change`` ``{"game": N, "v": VERSION}``: the room changed; read it from the store (the store
  has the truth, the note only says "look"). Sent on every move, so it is written without
  building a dict (:func:`change_prefix`, :func:`encode_change`);
- ``notice``: a :class:`~dixit.protocol.messages.Notice` as JSON, for the others' sockets;
- ``presence`` ``{"seat": SEAT, "socket": ID, "here": BOOL}``: a socket came or went;
- ``talk`` ``{"message": ..., "to": [SEAT, ...]}``: a chat line, reaction or mute (``to``: a
  team's line, for those seats' sockets only).

Every process runs one version of this format at a time: a rolling upgrade between builds that
write different notes is not supported (docs/architecture.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Kind(StrEnum):
    CHANGE = "change"
    NOTICE = "notice"
    PRESENCE = "presence"
    TALK = "talk"


@dataclass(frozen=True, slots=True)
class Envelope:
    origin: str
    kind: Kind
    body: Any  # a JSON value; its shape is the kind's (module docstring)


def channel_of(code: str) -> str:
    return f"dixit:room:{code}"


def encode(origin: str, kind: Kind, body: Any) -> str:
    return json.dumps({"origin": origin, "kind": kind.value, "body": body})


def change_prefix(origin: str) -> str:
    """How ``origin``'s change notes start, as :func:`encode` writes them."""
    return encode(origin, Kind.CHANGE, None)[: -len("null}")]


def encode_change(prefix: str, game: int, version: int) -> str:
    """:func:`encode` of a change, from its :func:`change_prefix` (no dict per move)."""
    return f'{prefix}{{"game": {game}, "v": {version}}}}}'


def decode(text: str) -> Envelope | None:
    """The envelope of a note; None for anything else (:data:`~dixit.pubsub.GAP`, garbage)."""
    try:
        note = json.loads(text)
        origin = note["origin"]
        envelope = Envelope(origin, Kind(note["kind"]), note["body"])
    except (ValueError, KeyError, TypeError):
        return None
    return envelope if isinstance(origin, str) else None
