"""Two real ``dixit serve`` processes on a PostgreSQL and a Redis of the test's own: a player
joins on B while Redis is down, and once Redis is back A's room shows the join (the listener's
gap report makes the room reload from the store) — without any new change to the room."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from .services import OwnPostgres, OwnRedis, server_harness

h = server_harness()


def test_a_join_made_while_redis_was_down_reaches_the_other_process(
    own_postgres: OwnPostgres, own_redis: OwnRedis, tmp_path: Path
) -> None:
    extra = ("--pubsub", own_redis.url)
    a = h.ServerProcess(database=own_postgres.url, workdir=tmp_path, extra=extra)
    b = h.ServerProcess(database=own_postgres.url, workdir=tmp_path, extra=extra)
    a.start()
    b.start()

    async def main() -> None:
        ticket = h.create_room(a.base, "Ann")
        ann = h.Client(a.ws_base, ticket)
        assert (await ann.connect())["type"] == "welcome"
        assert ann.room is not None and len(ann.room["seats"]) == 1
        own_redis.stop()
        h.join_room(b.base, ticket["code"], "Bo")  # stored; its notice is lost
        await asyncio.sleep(0.5)
        own_redis.start()
        deadline = time.monotonic() + 15
        while len(ann.room["seats"]) < 2:
            assert time.monotonic() < deadline, "A never learned of the join made on B"
            await ann.recv(timeout=deadline - time.monotonic())
        assert [s["name"] for s in ann.room["seats"]] == ["Ann", "Bo"]
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()
