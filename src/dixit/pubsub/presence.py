"""Who is connected where, shared by every server process: each socket of a seat beats
(seat, process, socket) every few seconds with a time to live; an entry whose process died
expires by itself. ``memory://`` for one process, ``redis://`` for several.

Redis rather than PostgreSQL: presence is ephemeral and written often (one beat per socket
every few seconds), expiry is native (a sorted set scored by expiry time on Redis's clock,
cleaned on every beat), and losing it all in a Redis restart costs one beat interval.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .base import PubSubUnavailable

SEP = "\x1f"

# KEYS[1] the room's set; ARGV time to live (ms), then the members renewed. Expiry on Redis's
# own clock. Answers the unexpired members (as PRESENT).
BEAT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if #ARGV > 1 and redis.call('PTTL', KEYS[1]) < ttl then redis.call('PEXPIRE', KEYS[1], ttl) end
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
"""
PRESENT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. now, '+inf')
"""


@dataclass(frozen=True, slots=True, order=True)
class Here:
    """One socket of a seat, on one server process."""

    seat: str
    process: str
    socket: str


class Presence(Protocol):
    # False: only this process reads it (one process on ``memory://``), so there is nobody
    # to beat for and no other process's entry to read.
    shared: bool

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def beat(self, room: str, heres: Sequence[Here], ttl_s: float) -> list[Here]:
        """Each of ``heres`` is connected for the next ``ttl_s`` seconds (renew before it
        ends); answers every unexpired entry of the room, as :meth:`present` (one round trip
        for a room's sockets and its refresh)."""
        ...

    async def leave(self, room: str, here: Here) -> None: ...

    async def present(self, room: str) -> list[Here]:
        """Every unexpired entry of the room, sorted."""
        ...


class MemoryPresence:
    """In this process's memory: ``shared`` when several hubs of one process stand for
    several processes (tests)."""

    def __init__(self, shared: bool = False) -> None:
        self.shared = shared
        self._rooms: dict[str, dict[Here, float]] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def beat(self, room: str, heres: Sequence[Here], ttl_s: float) -> list[Here]:
        entries = self._rooms.setdefault(room, {})
        until = time.monotonic() + ttl_s
        for here in heres:
            entries[here] = until
        present = await self.present(room)
        if not entries:
            del self._rooms[room]
        return present

    async def leave(self, room: str, here: Here) -> None:
        entries = self._rooms.get(room)
        if entries is not None:
            entries.pop(here, None)
            if not entries:
                del self._rooms[room]

    async def present(self, room: str) -> list[Here]:
        now = time.monotonic()
        entries = self._rooms.get(room, {})
        for gone in [h for h, until in entries.items() if until <= now]:
            del entries[gone]
        return sorted(entries)


class RedisPresence:
    shared = True

    def __init__(self, url: str, prefix: str = "dixit:presence:") -> None:
        self.url = url
        self.prefix = prefix
        self._client: Any = None
        self._beat: Any = None
        self._present: Any = None

    async def open(self) -> None:
        import redis.asyncio as aioredis

        from .redis import LOST, _connect_options, _where

        self._client = aioredis.from_url(self.url, **_connect_options())
        try:
            await self._client.ping()
        except LOST as error:
            await self._client.aclose()
            raise PubSubUnavailable(f"Redis unreachable at {_where(self.url)}: {error}") from None
        self._beat = self._client.register_script(BEAT)
        self._present = self._client.register_script(PRESENT)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()

    async def _call(self, work: Any) -> Any:
        from .redis import LOST

        try:
            return await work
        except LOST as error:
            raise PubSubUnavailable(f"Redis unreachable: {error}") from None

    async def beat(self, room: str, heres: Sequence[Here], ttl_s: float) -> list[Here]:
        members = [SEP.join((h.seat, h.process, h.socket)) for h in heres]
        ttl_ms = max(1, int(ttl_s * 1000))
        present = await self._call(self._beat(keys=[self.prefix + room], args=[ttl_ms, *members]))
        return sorted(Here(*m.split(SEP, 2)) for m in present)

    async def leave(self, room: str, here: Here) -> None:
        member = SEP.join((here.seat, here.process, here.socket))
        await self._call(self._client.zrem(self.prefix + room, member))

    async def present(self, room: str) -> list[Here]:
        members = await self._call(self._present(keys=[self.prefix + room]))
        return sorted(Here(*m.split(SEP, 2)) for m in members)
