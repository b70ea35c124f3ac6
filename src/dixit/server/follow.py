"""A room across server processes: following changes, passing notes on, and who is connected
where (shared presence).

Every process that has a room loaded subscribes once to the room channel
(:mod:`.channel`: one envelope for changes, notices, presence and talk). The :class:`Follower`
is the only reader and the only code that tells this process's own notes from the others' (it
has the subscription drop its own change notes as they arrive, and drops the rest itself), reads
the room again from the store after another process's change, and hands every other note to the
room.
Its own presence notes coming back only mark the order of sockets (``returned``). After
messages were lost (a slow reader, a Redis restart: :data:`~dixit.pubsub.GAP`) the room is read
again from the store; a failed read is tried again with a backoff until it succeeds.

Presence: each socket beats ``Here(seat, origin, socket id)`` every ``presence_beat_s`` with a
time to live of three beats; an entry of a process that died expires by itself. Each room keeps
a copy of the other processes' entries, refreshed on its beat and by presence notes, so that
building a room's state never waits for Redis.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from dixit.pubsub import GAP, Here, Presence, PubSub, Subscription

from .backoff import BACKOFF
from .channel import Envelope, Kind, change_prefix, channel_of, decode, encode, encode_change
from .connection import Connection

log = logging.getLogger("dixit.server")

Hear = Callable[[Envelope], None]


class Follower:
    """One room's subscription to its channel, and what this process sends on it."""

    def __init__(self, pubsub: PubSub, code: str, origin: str) -> None:
        self.pubsub = pubsub
        self.channel = channel_of(code)
        self.origin = origin
        self.syncs = 0  # reads of the room after another process's change or a gap
        self._task: asyncio.Task[None] | None = None
        self._subscription: Subscription | None = None
        self._send = asyncio.Lock()  # notes leave in the order they were made
        self._tasks: set[asyncio.Task[bool]] = set()
        self._change = change_prefix(origin)

    async def start(
        self,
        lock: asyncio.Lock,
        sync: Callable[[], Awaitable[None]],
        heard: Hear,
        returned: Hear,
        lost: Callable[[], None],
    ) -> None:
        """From now on: ``sync`` (under ``lock``) whenever another process changed the room or
        notes were lost; ``heard`` with every other note of another process; ``returned`` with
        this process's own presence notes as they come back in the channel's order; ``lost``
        after fan-out was interrupted (presence may be lost too)."""
        self._subscription = await self.pubsub.subscribe(self.channel)
        # This process's change notes (one per move) are dropped as they arrive, waking
        # nobody (reading each cost 10 µs a move, 8%); its other notes by :meth:`_take`.
        self._subscription.ignored = self._change
        loop = asyncio.get_running_loop()
        self._task = loop.create_task(
            self._follow(self._subscription, lock, sync, heard, returned, lost)
        )

    async def _follow(
        self,
        subscription: Subscription,
        lock: asyncio.Lock,
        sync: Callable[[], Awaitable[None]],
        heard: Hear,
        returned: Hear,
        lost: Callable[[], None],
    ) -> None:
        pending = False  # the room must be read again from the store
        delay, retry_at = BACKOFF[0], 0.0
        while True:
            if pending:
                wait = max(0.0, retry_at - time.monotonic())
                try:
                    text = await asyncio.wait_for(subscription.get(), wait)
                except TimeoutError:
                    text = ""
            else:
                text = await subscription.get()
            if text is None:
                return
            if subscription.dropped:
                subscription.dropped = 0
                pending = True  # notes were lost: the store has the truth
            if text == GAP:
                pending = True
                lost()
            elif text:
                pending = self._take(text, heard, returned) or pending
            if pending and time.monotonic() >= retry_at:
                async with lock:
                    try:
                        await sync()
                    except Exception as error:  # try again; later notes queue meanwhile
                        log.warning(
                            "%s: could not follow a change (%s); trying again in %.1f s",
                            self.channel,
                            getattr(error, "message", error),
                            delay,
                        )
                        retry_at = time.monotonic() + delay
                        delay = min(delay * 2, BACKOFF[1])
                        continue
                self.syncs += 1
                pending, delay, retry_at = False, BACKOFF[0], 0.0

    def _take(self, text: str, heard: Hear, returned: Hear) -> bool:
        """Hand one note on; True when the room must be read from the store."""
        envelope = decode(text)
        if envelope is None:
            log.warning("%s: unreadable note", self.channel)
            return False
        mine = envelope.origin == self.origin
        if envelope.kind is Kind.CHANGE:
            return not mine
        try:
            if not mine:
                heard(envelope)
            elif envelope.kind is Kind.PRESENCE:
                returned(envelope)
        except Exception:
            log.exception("%s: could not take a note", self.channel)
        return False

    async def publish(self, game_number: int, version: int) -> None:
        """Tell the other processes the room changed (they read it from the store)."""
        await self._publish(encode_change(self._change, game_number, version), echo=False)

    async def note(self, kind: Kind, body: Any) -> bool:
        """Send a note to the other processes, after any note already on its way; False if it
        could not be sent."""
        return await self._publish(encode(self.origin, kind, body))

    def tell(self, kind: Kind, body: Any) -> None:
        """:meth:`note`, without waiting for it."""
        text = encode(self.origin, kind, body)
        task = asyncio.get_running_loop().create_task(self._publish(text))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def told(self) -> None:
        """Wait until the notes sent with :meth:`tell` so far have left."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    async def _publish(self, text: str, echo: bool = True) -> bool:
        async with self._send:
            try:
                await self.pubsub.publish(self.channel, text, echo=echo)
            except Exception as error:  # fan-out is best effort: the store has the truth
                log.warning(
                    "%s: could not publish a note: %s",
                    self.channel,
                    getattr(error, "message", error),
                )
                return False
        return True

    def stop(self) -> None:
        if self._subscription is not None:
            self._subscription.close()
        if self._task is not None:
            self._task.cancel()
        # A cancelled task keeps its frames (and so the room) until it is dropped.
        self._task = self._subscription = None


def _nothing() -> None:
    pass


class Attendance:
    """Who is connected to one room on every process: this process's sockets beat in the shared
    presence, and a copy of the other processes' entries is kept (``elsewhere``)."""

    def __init__(
        self,
        presence: Presence,
        code: str,
        origin: str,
        beat_s: float,
        changed: Callable[[], None],
    ) -> None:
        self.presence = presence
        self.code = code
        self.origin = origin
        self.beat_s = beat_s
        self.elsewhere: frozenset[Here] = frozenset()  # other processes' sockets
        self._changed = changed
        self._mine: dict[int, Here] = {}  # this process's sockets in the shared presence
        self._announced: set[int] = set()  # sockets whose attach note came back in order
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._failing = False

    @property
    def ttl_s(self) -> float:
        return self.beat_s * 3

    def seats(self) -> set[str]:
        """Seats with a socket on another process."""
        return {h.seat for h in self.elsewhere if h.seat}

    def spectators(self) -> int:
        return sum(1 for h in self.elsewhere if not h.seat)

    def here(self, conn: Connection) -> Here:
        return Here(conn.seat or "", self.origin, str(conn.id))

    def start(self) -> None:
        """Beat from now on, if another process reads the presence (one process alone has
        nobody to beat for: at 1,000 rooms the beats were 200 timer wake-ups a second)."""
        if self.presence.shared:
            self._task = asyncio.get_running_loop().create_task(self._beat_loop())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self._task = None
        self._changed = _nothing  # the room is going: hold no reference to it
        for here in list(self._mine.values()):
            self._spawn(self._leave(here))
        self._mine.clear()

    def abandon(self) -> None:
        """Stop beating at once and leave nothing: what a killed process does (entries
        expire)."""
        if self._task is not None:
            self._task.cancel()
        self._mine.clear()

    async def left(self) -> None:
        """Wait until the entries removed at :meth:`stop` are gone from the shared presence."""
        while self._tasks:
            await asyncio.wait(set(self._tasks))

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ this process's sockets

    async def arrive(self, conn: Connection) -> None:
        """A socket attached here: say so in the shared presence."""
        here = self.here(conn)
        self._mine[conn.id] = here
        await self._guard(self.presence.beat(self.code, [here], self.ttl_s))

    def depart(self, conn: Connection) -> bool:
        """A socket went (idempotent); True when it was here."""
        self._announced.discard(conn.id)
        here = self._mine.pop(conn.id, None)
        if here is None:
            return False
        self._spawn(self._leave(here))
        return True

    def announced(self, conn: Connection) -> None:
        """Its attach note is out (or could not be sent): a later note replaces it."""
        self._announced.add(conn.id)

    def replaceable(self, conn: Connection) -> bool:
        """Did ``conn``'s attach note come before the note now read? (Else the other socket's
        note is the older one and ``conn`` stays.)"""
        return conn.id in self._announced

    async def _leave(self, here: Here) -> None:
        await self._guard(self.presence.leave(self.code, here))

    async def _guard(self, work: Awaitable[object]) -> bool:
        try:
            await work
        except Exception as error:  # presence is best effort: beats rebuild it
            if not self._failing:
                log.warning("room %s: presence: %s", self.code, getattr(error, "message", error))
            self._failing = True
            return False
        self._failing = False
        return True

    # ------------------------------------------------------------------ other processes'

    def came(self, here: Here) -> None:
        if here.process != self.origin and here not in self.elsewhere:
            self._take(self.elsewhere | {here})

    def went(self, here: Here) -> None:
        if here in self.elsewhere:
            self._take(self.elsewhere - {here})

    def _take(self, elsewhere: frozenset[Here]) -> None:
        before = (self.seats(), self.spectators())
        self.elsewhere = elsewhere
        if (self.seats(), self.spectators()) != before:
            self._changed()

    def soon(self) -> None:
        """Beat and read the shared presence now (after a fan-out outage)."""
        self._spawn(self.beat())

    async def beat(self) -> None:
        """Renew this process's entries and take the others' (one round trip)."""
        try:
            present = await self.presence.beat(self.code, list(self._mine.values()), self.ttl_s)
        except Exception as error:  # presence is best effort: the next beat rebuilds it
            if not self._failing:
                log.warning("room %s: presence: %s", self.code, getattr(error, "message", error))
            self._failing = True
            return
        self._failing = False
        self._take(frozenset(h for h in present if h.process != self.origin))

    async def _beat_loop(self) -> None:
        while True:
            try:
                await self.beat()
            except Exception:
                log.exception("room %s: presence beat failed", self.code)
            await asyncio.sleep(self.beat_s)
