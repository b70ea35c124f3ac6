"""Fan-out of small text messages between server processes, chosen by URL.

``memory://`` (one process, the default) or ``redis://host:port/db``. Each subscription has a
bounded queue: a subscriber that falls behind loses the oldest messages and is told so through
``Subscription.dropped`` (the server then resynchronises from the event store). This package
imports nothing else of the project.
"""

from __future__ import annotations

from .base import GAP, PubSub, PubSubUnavailable, Subscription
from .memory import MemoryPubSub
from .presence import Here, MemoryPresence, Presence, open_presence


def open_pubsub(url: str) -> PubSub:
    if url.startswith("memory:"):
        return MemoryPubSub()
    if url.startswith(("redis:", "rediss:")):
        from .redis import RedisPubSub

        return RedisPubSub(url)
    raise ValueError(f"unsupported pub/sub URL {url!r} (memory://, redis://…)")


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
