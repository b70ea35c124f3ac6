"""The pub/sub interface and the bounded per-subscriber queue every backend uses."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Protocol

DEFAULT_QUEUE_SIZE = 1024
KEEPALIVE = "dixit:keepalive"
GAP = '{"origin":null,"gap":true}'
"""Delivered to every subscription after fan-out was interrupted (a Redis restart): messages
may have been lost, so the subscriber must resynchronise from the event store. JSON with no
process origin, so a subscriber that only reacts to other processes' changes reacts to it."""


class PubSubUnavailable(Exception):
    """The fan-out service cannot be reached; nothing was published."""

    code = "pubsub/unavailable"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class Subscription:
    """Messages of one channel, in order, for one subscriber; bounded (oldest dropped)."""

    def __init__(
        self, channel: str, on_close: Callable[[Subscription], None], size: int = DEFAULT_QUEUE_SIZE
    ) -> None:
        self.channel = channel
        self.dropped = 0  # messages lost since the subscriber last looked (it resets this)
        self.gaps = 0  # fan-out interruptions (a Redis restart) this subscription lived through
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=size)
        self._on_close = on_close
        self._closed = False

    def deliver(self, message: str) -> None:
        if self._closed:
            return
        if self._queue.full():
            self._queue.get_nowait()
            self.dropped += 1
        self._queue.put_nowait(message)

    def gap(self) -> None:
        """Messages may have been lost upstream: count it and deliver :data:`GAP`."""
        self.gaps += 1
        self.dropped += 1
        self.deliver(GAP)

    async def get(self) -> str | None:
        """The next message, or None once closed."""
        if self._closed and self._queue.empty():
            return None
        return await self._queue.get()

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._on_close(self)
            if self._queue.full():
                self._queue.get_nowait()
            self._queue.put_nowait(None)


class PubSub(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, channel: str, message: str) -> None: ...

    async def subscribe(self, channel: str) -> Subscription: ...

    async def check(self) -> None:
        """Raise :class:`PubSubUnavailable` unless fan-out works now."""
        ...
