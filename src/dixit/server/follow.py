"""Following the changes other server processes make to a room (pub/sub).

After each change a process publishes a short note on ``dixit:room:CODE``; every other process
that has the room loaded reads the room and its new events from the store (the store has the
truth; the note only says "look"). Notes a process wrote itself are skipped unread.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

from dixit.pubsub import PubSub, Subscription

log = logging.getLogger("dixit.server")


class Follower:
    def __init__(self, pubsub: PubSub, code: str, origin: str) -> None:
        self.pubsub = pubsub
        self.channel = f"dixit:room:{code}"
        self.origin = origin
        self._task: asyncio.Task[None] | None = None
        self._subscription: Subscription | None = None

    async def start(self, lock: asyncio.Lock, sync: Callable[[], Awaitable[None]]) -> None:
        """Call ``sync`` (under ``lock``) whenever another process changed the room."""
        self._subscription = await self.pubsub.subscribe(self.channel)
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(self._follow(self._subscription, lock, sync))

    async def _follow(
        self,
        subscription: Subscription,
        lock: asyncio.Lock,
        sync: Callable[[], Awaitable[None]],
    ) -> None:
        own = json.dumps({"origin": self.origin})[:-1] + ","
        while True:
            text = await subscription.get()
            if text is None:
                return
            if text.startswith(own) and not subscription.dropped:
                continue  # our own change (publish writes the origin first)
            try:
                origin = json.loads(text).get("origin")
            except ValueError:
                continue
            if origin == self.origin and not subscription.dropped:
                continue
            subscription.dropped = 0
            async with lock:
                try:
                    await sync()
                except Exception:  # keep following; the next change syncs again
                    log.exception("%s: could not follow a change", self.channel)

    async def publish(self, game_number: int, version: int) -> None:
        message = {"origin": self.origin, "game": game_number, "v": version}
        try:
            await self.pubsub.publish(self.channel, json.dumps(message))
        except Exception:  # fan-out is best effort: the store has the truth
            log.exception("%s: could not publish a change", self.channel)

    def stop(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
        if self._task is not None:
            self._task.cancel()
        # A cancelled task keeps its frames (and so the room) until it is dropped.
        self._task = self._subscription = None
