"""In-process fan-out: publish delivers straight into every subscriber's bounded queue."""

from __future__ import annotations

from .base import Subscription


class MemoryPubSub:
    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.close()

    async def check(self) -> None:
        return None

    async def publish(self, channel: str, message: str, *, echo: bool = True) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub.deliver(message)

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._remove)
        self._subs.setdefault(channel, set()).add(sub)
        return sub

    def _remove(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.channel)
        if subs is not None:
            subs.discard(sub)
            if not subs:
                del self._subs[sub.channel]
