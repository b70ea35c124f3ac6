"""The pub/sub interface and the bounded per-subscriber queue every backend uses."""

from __future__ import annotations

import asyncio
import collections
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
    """Messages of one channel, in order, for one subscriber; bounded (oldest dropped).

    Every live room holds a few of these, mostly idle: the queue is a deque made when a message
    waits and dropped once it is read (an idle ``asyncio.Queue`` kept four deques and an
    event, ~2.5 KiB), and a reader waits on one future."""

    __slots__ = (
        "_closed",
        "_items",
        "_on_close",
        "_size",
        "_waiter",
        "channel",
        "dropped",
        "gaps",
        "ignored",
    )

    def __init__(
        self, channel: str, on_close: Callable[[Subscription], None], size: int = DEFAULT_QUEUE_SIZE
    ) -> None:
        self.channel = channel
        self.dropped = 0  # messages lost since the subscriber last looked (it resets this)
        self.gaps = 0  # fan-out interruptions (a Redis restart) this subscription lived through
        # Messages starting with this are not delivered: set by the subscriber, whose own
        # frequent notes coming back then wake no reader.
        self.ignored: str | None = None
        self._items: collections.deque[str] | None = None
        self._size = size
        self._waiter: asyncio.Future[None] | None = None
        self._on_close = on_close
        self._closed = False

    def deliver(self, message: str) -> None:
        if self._closed or (self.ignored is not None and message.startswith(self.ignored)):
            return
        items = self._items
        if items is None:
            items = self._items = collections.deque()
        elif len(items) >= self._size:
            items.popleft()
            self.dropped += 1
        items.append(message)
        self._wake()

    def gap(self) -> None:
        """Messages may have been lost upstream: count it and deliver :data:`GAP`."""
        self.gaps += 1
        self.dropped += 1
        self.deliver(GAP)

    async def get(self) -> str | None:
        """The next message, or None once closed (after the messages already delivered)."""
        while True:
            items = self._items
            if items:
                message = items.popleft()
                if not items:
                    self._items = None
                return message
            if self._closed:
                return None
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._on_close(self)
            self._wake()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)


class PubSub(Protocol):
    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def publish(self, channel: str, message: str, *, echo: bool = True) -> None:
        """Send ``message`` to the channel's subscribers. ``echo=False``: the publisher's own
        subscriptions need not get it back, and the sender need not wait for it to be taken (a
        hint: the local broker casts it; Redis and memory deliver it anyway, and the subscriber
        drops its own notes, e.g. with :attr:`Subscription.ignored`)."""
        ...

    async def subscribe(self, channel: str) -> Subscription: ...

    async def check(self) -> None:
        """Raise :class:`PubSubUnavailable` unless fan-out works now."""
        ...
