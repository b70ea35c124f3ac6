"""The PostgreSQL store through a server restart (a server of the test's own): coded errors
while it is down, reads retried across a short outage, the pool reopened once it is back."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from dixit.storage import RoomRecord, StoreUnavailable
from dixit.storage.postgres import PostgresEventStore

from .services import OwnPostgres


def test_writes_fail_coded_while_down_and_the_pool_heals_after_a_restart(
    own_postgres: OwnPostgres,
) -> None:
    async def main() -> None:
        store = PostgresEventStore(own_postgres.url, read_retry_s=0.5)
        await store.open()
        await store.append("A:1", 0, [{"n": 1}], room=RoomRecord("A", {"s": 1}))
        own_postgres.stop()
        with pytest.raises(StoreUnavailable) as caught:
            await store.append("A:1", 1, [{"n": 2}])
        assert caught.value.code == "store/unavailable"
        with pytest.raises(StoreUnavailable):
            await store.read("A:1")  # retried for read_retry_s, then the coded error
        with pytest.raises(StoreUnavailable):
            await store.check()
        assert store.down_since is not None
        own_postgres.start()
        # Every pooled connection was ended by the restart; each must be reopened.
        await asyncio.sleep(store.backoff_s[1])
        for n in range(2, 2 + 2 * store.size):
            assert await store.append("A:1", n - 1, [{"n": n}]) == n
        await store.check()
        assert store.down_since is None
        assert [e.data["n"] for e in await store.read("A:1")] == list(range(1, 2 + 2 * store.size))
        assert await store.load_room("A") == {"s": 1}
        await store.close()

    asyncio.run(main())


def test_stale_pooled_connections_after_a_quick_restart_cost_no_write(
    own_postgres: OwnPostgres,
) -> None:
    """Restarted while idle: the first write finds its connection ended at BEGIN (nothing
    written) and is retried on a new one; the caller never sees the restart."""

    async def main() -> None:
        store = PostgresEventStore(own_postgres.url)
        await store.open()
        await store.put_room(RoomRecord("B", {"v": 0}), 0)
        own_postgres.stop()
        own_postgres.start()
        for v in range(1, 2 * store.size + 1):
            await store.put_room(RoomRecord("B", {"v": v}), v)
        assert await store.load_room("B") == {"v": 2 * store.size}
        assert store.reconnects >= 1  # the restart was met, and healed
        await store.close()

    asyncio.run(main())


def test_a_read_waits_out_a_short_outage(own_postgres: OwnPostgres) -> None:
    async def main() -> None:
        store = PostgresEventStore(own_postgres.url, read_retry_s=20)
        await store.open()
        await store.append("C:1", 0, [{"n": 1}])
        own_postgres.stop()
        restart = threading.Timer(0.5, own_postgres.start)
        restart.start()
        try:
            events = await store.read("C:1")
        finally:
            restart.join()
        assert [e.version for e in events] == [1]
        assert store.reconnects >= 1
        await store.close()

    asyncio.run(main())


def test_unreachable_at_open_is_one_coded_line() -> None:
    async def main() -> None:
        from .services import free_port

        store = PostgresEventStore(f"postgresql://postgres@127.0.0.1:{free_port()}/x")
        with pytest.raises(StoreUnavailable) as caught:
            await store.open()
        assert "\n" not in caught.value.message
        assert caught.value.message.startswith("PostgreSQL unreachable")

    asyncio.run(main())


def test_a_lease_holder_cut_off_by_an_outage_knows_when_to_stop(
    own_postgres: OwnPostgres,
) -> None:
    """Renewals fail while PostgreSQL is down; the holder's local deadline (valid_until) has
    passed before the lease can move, and another process can take it once it is back."""

    async def main() -> None:
        a = PostgresEventStore(own_postgres.url, read_retry_s=0.2)
        b = PostgresEventStore(own_postgres.url)
        await a.open()
        await b.open()
        held = await a.acquire_lease("room:L", "proc-a", 1.0)
        assert held is not None
        own_postgres.stop()
        with pytest.raises(StoreUnavailable):
            await a.renew_leases(["room:L"], "proc-a", 1.0)
        await asyncio.sleep(1.2)
        assert time.monotonic() > held.valid_until  # proc-a stopped driving by now
        own_postgres.start()
        await asyncio.sleep(PostgresEventStore.backoff_s[1])
        taken = await b.acquire_lease("room:L", "proc-b", 30)
        assert taken is not None and taken.epoch == held.epoch + 1
        assert await a.renew_leases(["room:L"], "proc-a", 1.0) == {}
        await a.close()
        await b.close()

    asyncio.run(main())
