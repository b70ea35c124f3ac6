"""Fan-out through Redis PUBLISH/SUBSCRIBE: one connection listens for all local subscribers.

The listener survives Redis restarts: when its connection fails it reconnects with backoff
(0.05 s doubling to 0.5 s), subscribes again to every channel that has a local subscriber, and
then reports the gap — every subscription gets :data:`~dixit.pubsub.base.GAP` (and its
``gaps`` count grows), and ``on_gap`` callbacks run — since messages published meanwhile are
lost for good and subscribers must resynchronise from the event store. Publishing while Redis
is down fails at once with :class:`~dixit.pubsub.base.PubSubUnavailable`; subscribing never
fails (the channel is joined when the listener is back).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import redis.asyncio as aioredis
from redis.backoff import NoBackoff
from redis.exceptions import RedisError
from redis.retry import Retry

from .base import KEEPALIVE, PubSubUnavailable, Subscription

LOST = (RedisError, OSError, TimeoutError)


def _connect_options() -> dict[str, Any]:
    # No hidden retries inside redis-py: a failure must reach us so that a gap is reported.
    return {
        "decode_responses": True,
        "socket_connect_timeout": 2,
        "socket_timeout": 2,  # a Redis that stopped answering fails a publish, not hangs it
        "socket_keepalive": True,
        "retry": Retry(NoBackoff(), 0),
    }


class RedisPubSub:
    backoff_s = (0.05, 0.5)
    ping_every_s = 5.0  # the listener pings Redis this often…
    silence_s = 15.0  # …and counts it lost after this long without any answer

    def __init__(self, url: str) -> None:
        self.url = url
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._subs: dict[str, set[Subscription]] = {}
        self._closing = False
        self.down_since: float | None = None  # monotonic time the listener lost Redis
        self.gaps = 0  # outages the listener came back from
        self.on_gap: list[Callable[[], None]] = []

    @property
    def connected(self) -> bool:
        return self.down_since is None

    async def open(self) -> None:
        self._client = aioredis.from_url(self.url, **_connect_options())
        try:
            await self._client.ping()
            await self._listen()
        except LOST as error:
            await self._client.aclose()
            raise PubSubUnavailable(f"Redis unreachable at {_where(self.url)}: {error}") from None
        self._reader = asyncio.create_task(self._read())

    async def close(self) -> None:
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.close()
        await self._drop_listener()
        if self._client is not None:
            await self._client.aclose()

    async def check(self) -> None:
        """Raise :class:`PubSubUnavailable` unless Redis answers and the listener is up."""
        if self.down_since is not None:
            raise PubSubUnavailable("Redis unreachable: the listener is reconnecting")
        try:
            await asyncio.wait_for(self._client.ping(), 2.0)
        except LOST as error:
            raise PubSubUnavailable(f"Redis unreachable: {error}") from None

    async def _listen(self) -> None:
        """A fresh listening connection, subscribed to every channel in use."""
        pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        try:
            # A pubsub connection needs one subscription before it can be read from.
            await pubsub.subscribe(KEEPALIVE, *self._subs)
        except BaseException:
            await pubsub.aclose()
            raise
        self._pubsub = pubsub

    async def _drop_listener(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(*LOST):
                await asyncio.wait_for(pubsub.aclose(), 2.0)

    async def _read(self) -> None:
        backoff = self.backoff_s[0]
        heard = pinged = time.monotonic()
        while True:
            try:
                if self._pubsub is None:
                    await self._listen()
                    self._came_back()
                    backoff = self.backoff_s[0]
                    heard = pinged = time.monotonic()
                now = time.monotonic()
                if now - pinged >= self.ping_every_s:
                    pinged = now
                    await self._pubsub.ping()  # its pong arrives as a message
                message = await self._pubsub.get_message(timeout=min(1.0, self.ping_every_s))
                if message is not None:
                    heard = time.monotonic()
                elif time.monotonic() - heard > self.silence_s:
                    # A connection that is open but silent (Redis stopped, a half-open TCP
                    # connection after a network fault) would otherwise be trusted for good.
                    raise TimeoutError(f"no answer from Redis for {self.silence_s:g} s")
            except LOST:
                if self.down_since is None:
                    self.down_since = time.monotonic()
                await self._drop_listener()
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self.backoff_s[1])
                continue
            if message is None or message.get("type") != "message":
                continue
            for sub in list(self._subs.get(message["channel"], ())):
                sub.deliver(message["data"])

    def _came_back(self) -> None:
        if self.down_since is None:
            return
        self.down_since = None
        self.gaps += 1
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.gap()
        for callback in list(self.on_gap):
            callback()

    async def publish(self, channel: str, message: str, *, echo: bool = True) -> None:
        try:
            await self._client.publish(channel, message)
        except LOST as error:
            raise PubSubUnavailable(f"Redis unreachable: {error}") from None

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._remove)
        first = channel not in self._subs
        self._subs.setdefault(channel, set()).add(sub)
        if first and self._pubsub is not None:
            # Should the listener be failing, its reconnection subscribes this channel too and
            # reports the gap; the reader sees the failure on its next read.
            with contextlib.suppress(*LOST):
                await self._pubsub.subscribe(channel)
        return sub

    def _remove(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.channel)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[sub.channel]
            if self._pubsub is not None and not self._closing:
                task = asyncio.get_running_loop().create_task(self._pubsub.unsubscribe(sub.channel))
                task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)


def _where(url: str) -> str:
    """The URL without a password."""
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.rpartition('@')[2]}"
