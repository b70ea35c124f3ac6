"""Errors PostgreSQL answers with (the connection still works) are coded errors, not an outage:
a lock wait that times out is ``store/busy``, the transaction is rolled back, and the pooled
connection serves the next call."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from dixit.storage import RoomRecord, StoreBusy
from dixit.storage.postgres import PostgresEventStore

from .test_event_store import PG_URL, _postgres_reachable


def test_a_lock_timeout_is_store_busy_and_the_connection_is_reused() -> None:
    reason = _postgres_reachable()
    if reason:
        pytest.skip(reason)
    import psycopg

    sep = "&" if "?" in PG_URL else "?"
    url = f"{PG_URL}{sep}options=-c%20lock_timeout%3D200"
    code = f"L{uuid.uuid4().hex[:10]}"

    async def main() -> None:
        store = PostgresEventStore(url, connections=1)
        await store.open()
        await store.put_room(RoomRecord(code, {"n": 0}), 0)
        with psycopg.connect(PG_URL) as other:  # another process holds the room's row
            other.execute("SELECT 1 FROM dixit_rooms WHERE code = %s FOR UPDATE", (code,))
            with pytest.raises(StoreBusy) as caught:
                await store.put_room(RoomRecord(code, {"n": 1}), 1)
            assert caught.value.code == "store/busy"
            assert "lock" in caught.value.message
        assert store.down_since is None and store.reconnects == 0  # not an outage
        assert await store.put_room(RoomRecord(code, {"n": 1}), 1) == 2  # same connection
        assert await store.load_room(code) == {"n": 1}
        await store.close()

    asyncio.run(main())


def test_a_call_cancelled_mid_query_leaves_no_broken_connection_in_the_pool() -> None:
    reason = _postgres_reachable()
    if reason:
        pytest.skip(reason)
    code = f"C{uuid.uuid4().hex[:10]}"

    async def main() -> None:
        store = PostgresEventStore(PG_URL, connections=1)
        await store.open()
        await store.put_room(RoomRecord(code, {"n": 0}), 0)

        async def slow_write(conn: object) -> None:
            await conn.execute("SELECT pg_sleep(5)")  # type: ignore[attr-defined]

        task = asyncio.create_task(store._write(slow_write))
        await asyncio.sleep(0.3)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert store.down_since is None  # a cancellation is not an outage
        assert await store.put_room(RoomRecord(code, {"n": 1}), 1) == 2
        assert await store.load_room(code) == {"n": 1}
        await store.close()

    asyncio.run(main())
