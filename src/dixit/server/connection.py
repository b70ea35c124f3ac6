"""One client socket as a room sees it: who it is, ordered sends, a rate limit.

Sends are written at once (:class:`dixit.infra.websocket.WebSocket` hands each message to its
transport in the order it was sent), so nothing here queues or waits. A client that stops reading is
dropped by the socket when its unsent bytes pass ``Limits.send_buffer_bytes``; it can rejoin.
"""

from __future__ import annotations

import itertools
from typing import Protocol

from pydantic import BaseModel

from .config import Limits
from .limits import Bucket

_ids = itertools.count(1)


class Wire(Protocol):
    """What a connection needs of its socket."""

    def send_text(self, text: str) -> bool:
        """Send now; False once the socket is closed or was dropped."""
        ...

    def close(self) -> None: ...


class Connection:
    __slots__ = (
        "_bucket",
        "all_rounds",
        "closed",
        "events",
        "id",
        "rounds_on_catch_up",
        "seat",
        "token_hash",
        "wire",
    )

    def __init__(self, wire: Wire, limits: Limits) -> None:
        self.id = next(_ids)
        self.wire = wire
        self.seat: str | None = None
        self.token_hash = ""
        self.events = False  # the socket asked for redacted events besides views (hello)
        self.all_rounds = True  # its views carry every revealed round, not only the latest
        self.rounds_on_catch_up = True  # its catch-up (welcome, sync) carries every round
        self.closed = False
        self._bucket = Bucket(limits.message_burst, limits.messages_per_second)

    def send(self, message: BaseModel | str) -> None:
        """Send a message, in order (a socket that is gone ignores it)."""
        if self.closed:
            return
        text = message if isinstance(message, str) else message.model_dump_json()
        if not self.wire.send_text(text):
            self.closed = True

    def close(self) -> None:
        """Close the socket after what was sent."""
        if not self.closed:
            self.closed = True
            self.wire.close()

    def allow(self) -> bool:
        """``message_burst`` at once, ``messages_per_second`` sustained."""
        return self._bucket.take()
