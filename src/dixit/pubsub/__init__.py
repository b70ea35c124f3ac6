"""Fan-out of small text messages between server processes, chosen by URL.

``memory://`` (one process, the default), ``redis://host:port/db``, or
``unix:///path/broker.sock`` (the workers of ``dixit serve --workers N``, through the local
broker their supervisor runs: :mod:`dixit.infra.broker`). Each subscription has a
bounded queue: a subscriber that falls behind loses the oldest messages and is told so through
``Subscription.dropped`` (the server then resynchronises from the event store). This package
imports nothing else of the project but the broker of :mod:`dixit.infra.broker`.
"""

from __future__ import annotations

from .base import GAP, PubSub, PubSubUnavailable, Subscription
from .memory import MemoryPubSub
from .presence import Here, MemoryPresence, Presence, RedisPresence


def open_pubsub(url: str) -> PubSub:
    if url.startswith("memory:"):
        return MemoryPubSub()
    if url.startswith(("redis:", "rediss:")):
        from .redis import RedisPubSub

        return RedisPubSub(url)
    if url.startswith("unix:"):
        from .local import UnixPubSub

        return UnixPubSub(url)
    raise ValueError(f"unsupported pub/sub URL {url!r} (memory://, redis://…, unix:///…)")


def open_presence(url: str) -> Presence:
    """Presence for ``memory://``, ``redis://…`` or ``unix:///…`` (the same URL as the
    fan-out). Here, not in :mod:`.presence`: :mod:`.local` imports that module's ``Here``."""
    if url.startswith("memory:"):
        return MemoryPresence()
    if url.startswith(("redis:", "rediss:")):
        return RedisPresence(url)
    if url.startswith("unix:"):
        from .local import UnixPresence

        return UnixPresence(url)
    raise ValueError(f"unsupported presence URL {url!r} (memory://, redis://…, unix:///…)")


__all__ = [
    "GAP",
    "Here",
    "MemoryPresence",
    "MemoryPubSub",
    "Presence",
    "PubSub",
    "PubSubUnavailable",
    "Subscription",
    "open_presence",
    "open_pubsub",
]
