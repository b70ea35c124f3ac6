"""Fan-out through Redis PUBLISH/SUBSCRIBE: one connection listens for all local subscribers."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import redis.asyncio as aioredis

from .base import Subscription


class RedisPubSub:
    def __init__(self, url: str) -> None:
        self.url = url
        self._client: Any = None
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._subs: dict[str, set[Subscription]] = {}
        self._closing = False

    async def open(self) -> None:
        self._client = aioredis.from_url(self.url, decode_responses=True)
        await self._client.ping()
        self._pubsub = self._client.pubsub(ignore_subscribe_messages=True)
        # A pubsub connection needs one subscription before it can be read from.
        await self._pubsub.subscribe("dixit:keepalive")
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
        if self._pubsub is not None:
            await self._pubsub.aclose()
        if self._client is not None:
            await self._client.aclose()

    async def _read(self) -> None:
        while True:
            message = await self._pubsub.get_message(timeout=1.0)
            if message is None or message.get("type") != "message":
                continue
            for sub in list(self._subs.get(message["channel"], ())):
                sub.deliver(message["data"])

    async def publish(self, channel: str, message: str) -> None:
        await self._client.publish(channel, message)

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._remove)
        first = channel not in self._subs
        self._subs.setdefault(channel, set()).add(sub)
        if first:
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
