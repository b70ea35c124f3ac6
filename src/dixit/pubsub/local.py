"""Fan-out and presence between the worker processes of one machine, without Redis.

``dixit serve --workers N`` (with no ``--pubsub``) runs the broker of
:mod:`dixit.infra.broker` in the supervising process on a Unix domain socket; every worker
opens ``unix:///path/to/broker.sock`` with :class:`UnixPubSub` (fan-out) and
:class:`UnixPresence` (who is connected where): this package's interfaces over the broker's
:class:`~dixit.infra.broker.Link`. A worker whose link comes back after an outage subscribes
again to every channel in use, then delivers :data:`~dixit.pubsub.base.GAP` to every
subscription and runs ``on_gap`` callbacks, as :class:`~dixit.pubsub.redis.RedisPubSub` does;
requests meanwhile fail with :class:`~dixit.pubsub.base.PubSubUnavailable`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence

from dixit.infra.broker import Link, socket_path

from .base import PubSubUnavailable, Subscription
from .presence import Here


class UnixPubSub:
    """Fan-out through the local broker (``unix:///path/broker.sock``)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._subs: dict[str, set[Subscription]] = {}
        self._link = Link(
            socket_path(url), self._deliver, self._came_back, self._interest, PubSubUnavailable
        )
        self._alone: set[str] = set()  # channels no other worker subscribes to: no casts
        self.gaps = 0  # outages the connection came back from
        self.on_gap: list[Callable[[], None]] = []

    @property
    def down_since(self) -> float | None:
        return self._link.down_since

    @property
    def connected(self) -> bool:
        return self._link.down_since is None

    async def open(self) -> None:
        await self._link.open()

    async def close(self) -> None:
        await self._link.close()
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.close()

    async def check(self) -> None:
        """Raise :class:`PubSubUnavailable` unless the broker answers now."""
        if self._link.down_since is not None:
            raise PubSubUnavailable("local broker unreachable: reconnecting")
        await self._link.request("ping")

    async def publish(self, channel: str, message: str, *, echo: bool = True) -> None:
        if echo:
            await self._link.request("pub", channel, message)
        elif channel not in self._alone or self._link.down_since is not None:
            await self._link.post("cast", channel, message)  # (unsure while reconnecting)

    async def subscribe(self, channel: str) -> Subscription:
        sub = Subscription(channel, self._remove)
        first = channel not in self._subs
        self._subs.setdefault(channel, set()).add(sub)
        if first:
            # While the broker is away the reconnection subscribes this channel and reports
            # the gap, so subscribing never fails.
            with contextlib.suppress(PubSubUnavailable):
                self._interest(channel, bool(await self._link.request("sub", channel)))
        return sub

    def _interest(self, channel: str, others: bool) -> None:
        if others or channel not in self._subs:
            self._alone.discard(channel)
        else:
            self._alone.add(channel)

    def _remove(self, sub: Subscription) -> None:
        subs = self._subs.get(sub.channel)
        if subs is None:
            return
        subs.discard(sub)
        if not subs:
            del self._subs[sub.channel]
            self._alone.discard(sub.channel)
            self._link.send("unsub", sub.channel)

    def _deliver(self, channel: str, message: str) -> None:
        for sub in list(self._subs.get(channel, ())):
            sub.deliver(message)

    async def _came_back(self) -> None:
        self._alone.clear()  # unsure until each subscription is answered again
        for channel in list(self._subs):
            self._interest(channel, bool(await self._link.request("sub", channel)))
        self.gaps += 1
        for subs in list(self._subs.values()):
            for sub in list(subs):
                sub.gap()
        for callback in list(self.on_gap):
            callback()


class UnixPresence:
    """Presence kept by the local broker; entries expire on the broker's clock."""

    shared = True

    def __init__(self, url: str) -> None:
        self.url = url
        self._link = Link(
            socket_path(url), lambda channel, message: None, _nothing, unavailable=PubSubUnavailable
        )

    async def open(self) -> None:
        await self._link.open()

    async def close(self) -> None:
        await self._link.close()

    async def beat(self, room: str, heres: Sequence[Here], ttl_s: float) -> list[Here]:
        entries = await self._link.request(
            "beat", room, ttl_s, [[h.seat, h.process, h.socket] for h in heres]
        )
        return [Here(*entry) for entry in entries]

    async def leave(self, room: str, here: Here) -> None:
        await self._link.request("leave", room, here.seat, here.process, here.socket)

    async def present(self, room: str) -> list[Here]:
        entries = await self._link.request("present", room)
        return sorted(Here(*entry) for entry in entries)


async def _nothing() -> None:
    return None
