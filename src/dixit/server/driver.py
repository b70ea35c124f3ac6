"""One driver per room: the one process that runs a room's timers, computer players and reveal
ends, and so creates their notices.

While a game is in play, every process that has the room loaded (it serves sockets of the room)
competes for the lease ``room:CODE`` in the event store, held in this process's name. The
process's :class:`LeaseKeeper` renews every lease it holds every third of their time to live
(``lease_ttl_s``), all in one write; a driver acts only while ``time.monotonic() <
lease.valid_until``, so it never overlaps the next holder whatever happened to its renewals. A
lease the keeper could not renew goes back to its driver, which takes it again or learns that
another process has it. When the holder dies its lease expires and another process that has the
room loaded takes it: it first reads the room from the store (``sync``), then tells the room
(``gained``), which arms the timers and computer players. A holder this process can tell is
dead (a crashed predecessor on the same machine, :mod:`.liveness`) is not waited for: its
lease is taken over at once. A room in its lobby or over holds no lease. Store errors never
stop the competition: they are logged and tried again after a backoff.

A driver knows nothing of its room but what it is built with: the room's lock, whether a game
is in play (``wanted``), how to read the room again (``sync``) and whom to tell that it drives
now (``gained``). Whoever acts for the room asks :attr:`Driver.driving` before each step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from dixit.storage import EventStore, Lease, StorageError, VersionConflict

from .backoff import BACKOFF
from .liveness import dead

log = logging.getLogger("dixit.server")


def lease_name(code: str) -> str:
    return f"room:{code}"


class Driver:
    def __init__(
        self,
        code: str,
        keeper: LeaseKeeper,
        lock: asyncio.Lock,
        wanted: Callable[[], bool],
        sync: Callable[[], Awaitable[None]],
        gained: Callable[[bool], None],
    ) -> None:
        """``wanted``: a game is in play; ``sync``: read the room from the store (called under
        ``lock``); ``gained(inherited)``: this process drives the room (again) from now on,
        ``inherited`` when the tenure was taken over from a crashed process."""
        self.code = code
        self.name = lease_name(code)
        self.keeper = keeper
        self._lock = lock
        self._wanted = wanted
        self._sync = sync
        self._gained = gained
        self.lease: Lease | None = None
        self.gains = 0  # times this process became the room's driver
        self.inherited = False  # this tenure was taken over from a crashed process
        self.closed = False
        self._ready = False  # synchronised from the store since the lease was gained
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._release: asyncio.Task[None] | None = None
        self._idle = False  # the loop sleeps until woken (no game in play)

    @property
    def ttl_s(self) -> float:
        return self.keeper.ttl_s

    @property
    def kept(self) -> bool:
        """The lease is this process's keeper's to renew; the driver's loop sleeps meanwhile."""
        return self.keeper.keeps(self)

    @property
    def driving(self) -> bool:
        """This process holds the lease, has read the room since it got it, and the lease's
        time is not up on this process's clock: it may run timers and computer players."""
        lease = self.lease
        return lease is not None and self._ready and time.monotonic() < lease.valid_until

    def wake(self) -> None:
        """The room changed: compete for the lease (a game started) or give it up (it ended)
        now rather than at the next renewal."""
        if self.closed:
            return
        wanted = self._wanted()
        if self._task is None:
            if wanted:
                self._task = asyncio.get_running_loop().create_task(self._run())
            return
        # Otherwise the keeper renews the lease, or the loop tries to take it every ttl/3.
        if (wanted and self._idle and not self.kept) or (not wanted and self.lease is not None):
            self._wake.set()

    async def _run(self) -> None:
        delay = BACKOFF[0]
        while not self.closed:
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
                    self.code,
                    "held" if self.lease is not None else "wanted",
                    getattr(error, "message", error),
                    delay,
                )
                pause = min(self.ttl_s / 3, delay)
                delay = min(delay * 2, BACKOFF[1])
            except Exception:  # never stop competing for the room
                log.exception("room %s: the driver failed", self.code)
                pause = BACKOFF[1]
            if self.kept or (not self._wanted() and self.lease is None):
                pause = None  # the keeper renews the lease, or nothing to hold until a game starts
            self._idle = pause is None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), pause)
            self._idle = False

    async def _hold(self) -> None:
        """Take the lease when free, or again when the keeper could not renew it; a new holder
        reads the room first and then hands the lease to the keeper."""
        if self.kept:
            return
        store, holder = self.keeper.store, self.keeper.holder
        before = self.lease
        over: str | None = None
        if before is None:
            current = await store.lease(self.name)  # a read: no write lock for a busy room
            if current is not None and current.holder != holder:
                if not dead(current.holder):
                    return  # driven elsewhere
                over = current.holder  # a crashed predecessor's: no need to wait for its TTL
        # Free, expired, a dead holder's, or ours still unexpired in the store.
        lease = await store.acquire_lease(self.name, holder, self.ttl_s, over=over)
        if lease is None:
            self._lose()
            return
        if before is not None and self._ready and lease.epoch == before.epoch:
            self.lease = lease  # nobody else held it meanwhile
            self.keeper.keep(self)
            self._gained(self.inherited)  # re-arm whatever stood down while renewals lagged
            return
        self.lease, self._ready = lease, False
        self.inherited = over is not None
        async with self._lock:
            await self._sync()  # another holder may have moved the game on
            if self.lease is not lease or self.closed:
                return
            self._ready = True
            self.gains += 1
            self.keeper.keep(self)
            log.info("room %s: driven here now (epoch %d)", self.code, lease.epoch)
            self._gained(self.inherited)

    def renewed(self, lease: Lease) -> None:
        """The lease was extended (same epoch): drive on."""
        lapsed = not self.driving
        self.lease = lease
        if lapsed:  # re-arm whatever stood down while the renewal lagged
            self._gained(self.inherited)

    def not_renewed(self) -> None:
        """The store did not renew the lease (expired or moved): the loop takes it again now,
        or learns who has it."""
        self._wake.set()

    def _lose(self) -> None:
        if self.lease is not None:
            log.info("room %s: driven elsewhere now", self.code)
        self.keeper.drop(self)
        self.lease, self._ready = None, False

    async def _give_up(self) -> None:
        self.keeper.drop(self)
        self.lease, self._ready = None, False
        await self.keeper.store.release_lease(self.name, self.keeper.holder)

    # ------------------------------------------------------------------ stopping

    def shutdown(self) -> None:
        """Stop competing; give the lease back (in a task: see :meth:`released`)."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.keeper.drop(self)
        held, self.lease, self._ready = self.lease, None, False
        if held is not None and self._release is None:
            release = _release(self.keeper.store, self.name, self.keeper.holder)
            self._release = asyncio.get_running_loop().create_task(release)

    async def released(self) -> None:
        """Wait until the lease given back at shutdown is released (or failed to be)."""
        if self._release is not None:
            await asyncio.shield(self._release)

    def abandon(self) -> None:
        """Stop at once and keep the lease until it expires: what a killed process does."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self.keeper.drop(self)
        self.lease, self._ready = None, False


async def _release(store: EventStore, name: str, holder: str) -> None:
    """Give a lease back; needs nothing of the room (it may be gone by now)."""
    try:
        await store.release_lease(name, holder)
    except Exception as error:  # it expires by itself
        log.warning("lease %s: could not release it: %s", name, error)


class LeaseKeeper:
    """Renews every room lease this process holds, in one store write every ttl/3, instead of
    one write per room (at 1,000 games in play that was 500 writes a second, each taking the
    database's write lock). Each driver hears whether its lease was renewed."""

    def __init__(self, store: EventStore, holder: str, ttl_s: float) -> None:
        self.store = store
        self.holder = holder  # this process's name on its leases (:mod:`.liveness`)
        self.ttl_s = ttl_s
        self.rounds = 0  # renewal writes made
        self._kept: dict[str, Driver] = {}  # lease name -> its driver
        self._task: asyncio.Task[None] | None = None
        self._emptied = asyncio.Event()

    def keeps(self, driver: Driver) -> bool:
        return self._kept.get(driver.name) is driver

    def keep(self, driver: Driver) -> None:
        """Renew ``driver``'s lease from the next round on, until it is dropped."""
        self._kept[driver.name] = driver
        if self._task is None:
            self._emptied = asyncio.Event()  # of the running loop
            self._task = asyncio.get_running_loop().create_task(self._run())

    def drop(self, driver: Driver) -> None:
        if self.keeps(driver):
            del self._kept[driver.name]
            if not self._kept:
                self._emptied.set()  # the loop ends at once rather than at its next round

    async def _run(self) -> None:
        delay = BACKOFF[0]
        pause = self.ttl_s / 3
        try:
            while self._kept:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._emptied.wait(), pause)
                pause = self.ttl_s / 3
                try:
                    await self._renew()
                    delay = BACKOFF[0]
                except (StorageError, VersionConflict) as error:
                    log.warning(
                        "renewing %d leases: %s; trying again in %.1f s",
                        len(self._kept),
                        getattr(error, "message", error),
                        delay,
                    )
                    pause = min(pause, delay)
                    delay = min(delay * 2, BACKOFF[1])
                except Exception:  # never stop renewing
                    log.exception("renewing %d leases failed", len(self._kept))
                    pause = BACKOFF[1]
        finally:
            self._task = None

    async def _renew(self) -> None:
        """One round: one write renews every lease kept; those the store did not renew (expired
        there too, or moved) go back to their drivers. A lease that ran out on this clock
        while the store failed stays here: its driver stands still (see ``driving``) until
        a round renews it, rather than every driver trying the failing store on its own."""
        sent = {name: (driver, driver.lease) for name, driver in self._kept.items()}
        renewed = await self.store.renew_leases(list(sent), self.holder, self.ttl_s)
        self.rounds += 1
        for name, (driver, lease) in sent.items():
            if not self.keeps(driver) or driver.lease is not lease:
                continue  # given up, lost or taken again meanwhile
            new = renewed.get(name)
            if new is None:
                self.drop(driver)
                driver.not_renewed()
            else:
                driver.renewed(new)
