"""One driver per room: the one process that runs a room's timers, computer players and reveal
ends, and so creates their notices.

While a game is in play, every process that has the room loaded (it serves sockets of the room)
competes for the lease ``room:CODE`` in the event store; its holder is ``services.origin``. The
holder renews it every third of its time to live (``lease_ttl_s``) and acts only while
``time.monotonic() < lease.valid_until``, so it never overlaps the next holder whatever
happened to its renewals. When the holder dies its lease expires and another process that has
the room loaded takes it: it first reads the room from the store (``sync_from_store``), then
arms the timers and computer players. A room in its lobby or over holds no lease. Store
errors never stop the competition: they are logged and tried again after a backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from typing import TYPE_CHECKING

from dixit.storage import EventStore, Lease, StorageError, VersionConflict

if TYPE_CHECKING:
    from .room import Room

log = logging.getLogger("dixit.server")

BACKOFF = (0.5, 5.0)  # seconds between tries after a store error: first, longest


def lease_name(code: str) -> str:
    return f"room:{code}"


class Driver:
    def __init__(self, room: Room) -> None:
        # Weak: an unloaded room is freed at once by reference counting (a cycle would wait
        # for a full collection, which the server makes rare).
        self.room: Room = weakref.proxy(room)
        self.lease: Lease | None = None
        self.gains = 0  # times this process became the room's driver
        self._ready = False  # synchronised from the store since the lease was gained
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._release: asyncio.Task[None] | None = None
        self._idle = False  # the loop sleeps until woken (no game in play)

    @property
    def name(self) -> str:
        return lease_name(self.room.code)

    @property
    def holder(self) -> str:
        return self.room.services.origin

    @property
    def ttl_s(self) -> float:
        return self.room.services.config.lease_ttl_s

    @property
    def driving(self) -> bool:
        """This process holds the lease, has read the room since it got it, and the lease's
        time is not up on this process's clock: it may run timers and computer players."""
        lease = self.lease
        return lease is not None and self._ready and time.monotonic() < lease.valid_until

    def _wanted(self) -> bool:
        return self.room.data.status == "playing" and not self.room.closed

    def wake(self) -> None:
        """The room changed: compete for the lease (a game started) or give it up (it ended)
        now rather than at the next renewal."""
        if self.room.closed:
            return
        wanted = self._wanted()
        if self._task is None:
            if wanted:
                self._task = asyncio.get_running_loop().create_task(self._run())
            return
        # Otherwise the loop already renews (or tries to take) the lease every ttl/3.
        if (wanted and self._idle) or (not wanted and self.lease is not None):
            self._wake.set()

    async def _run(self) -> None:
        delay = BACKOFF[0]
        room = self.room
        while not room.closed:
            self._wake.clear()
            pause: float | None = self.ttl_s / 3
            try:
                if self._wanted():
                    await self._hold()
                elif self.lease is not None:
                    await self._give_up()
                delay = BACKOFF[0]
            except (StorageError, VersionConflict) as error:
                log.warning(
                    "room %s: lease %s: %s; trying again in %.1f s",
                    room.code,
                    "held" if self.lease is not None else "wanted",
                    getattr(error, "message", error),
                    delay,
                )
                pause = min(self.ttl_s / 3, delay)
                delay = min(delay * 2, BACKOFF[1])
            except Exception:  # never stop competing for the room
                log.exception("room %s: the driver failed", room.code)
                pause = BACKOFF[1]
            if not self._wanted() and self.lease is None:
                pause = None  # nothing to hold until a game starts
            self._idle = pause is None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)
            self._idle = False

    async def _hold(self) -> None:
        """Renew the lease, or take it when free; a new holder reads the room first."""
        store = self.room.services.store
        before = self.lease
        lease = None
        if before is not None and self.driving:
            lease = await store.renew_lease(self.name, self.holder, self.ttl_s)
        if lease is None and before is None:
            current = await store.lease(self.name)  # a read: no write lock for a busy room
            if current is not None and current.holder != self.holder:
                return  # driven elsewhere
        if lease is None:
            # Free, expired (ours or a dead holder's), or ours still unexpired in the store.
            lease = await store.acquire_lease(self.name, self.holder, self.ttl_s)
        if lease is None:
            self._lose()
            return
        room = self.room
        if before is not None and self._ready and lease.epoch == before.epoch:
            self.lease = lease  # nobody else held it meanwhile
            room.autoplay.after_change()  # re-arm whatever stood down while renewals lagged
            return
        self.lease, self._ready = lease, False
        async with room.lock:
            await room.sync_from_store()  # another holder may have moved the game on
            if self.lease is not lease or room.closed:
                return
            self._ready = True
            self.gains += 1
            log.info("room %s: driven here now (epoch %d)", room.code, lease.epoch)
            room.autoplay.after_change()

    def _lose(self) -> None:
        if self.lease is not None:
            log.info("room %s: driven elsewhere now", self.room.code)
        self.lease, self._ready = None, False

    async def _give_up(self) -> None:
        self.lease, self._ready = None, False
        await self.room.services.store.release_lease(self.name, self.holder)

    # ------------------------------------------------------------------ stopping

    def shutdown(self) -> None:
        """Stop competing; give the lease back (in a task: see :meth:`released`)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        held, self.lease, self._ready = self.lease, None, False
        if held is not None and self._release is None:
            release = _release(self.room.services.store, self.name, self.holder)
            self._release = asyncio.get_running_loop().create_task(release)

    async def released(self) -> None:
        """Wait until the lease given back at shutdown is released (or failed to be)."""
        if self._release is not None:
            await asyncio.shield(self._release)

    def abandon(self) -> None:
        """Stop at once and keep the lease until it expires: what a killed process does."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.lease, self._ready = None, False


async def _release(store: EventStore, name: str, holder: str) -> None:
    """Give a lease back; needs nothing of the room (it may be gone by now)."""
    try:
        await store.release_lease(name, holder)
    except Exception as error:  # it expires by itself
        log.warning("lease %s: could not release it: %s", name, error)
