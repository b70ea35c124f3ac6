"""A game split over two ``dixit serve`` processes (a PostgreSQL and a Redis of the test's own)
lives through a Redis restart with moves made meanwhile, and a PostgreSQL restart: it finishes,
every player sees the same end, and every acknowledged move is in the store.

Issue 13 saw this game deadlock after the Redis restart (the listener died) and the processes
stay broken after the PostgreSQL one (the pool never reconnected). Moves are not sent while
PostgreSQL is down: answering them with a coded error is the server's part of the issue."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any

from dixit.engine import replay
from dixit.engine.serialize import event_from_json
from dixit.storage import open_store

from .services import OwnPostgres, OwnRedis, server_harness
from .test_health import _until_ready

h = server_harness()


def test_a_split_game_finishes_through_redis_and_postgresql_restarts(
    own_postgres: OwnPostgres, own_redis: OwnRedis, tmp_path: Path
) -> None:
    extra = ("--pubsub", own_redis.url)
    a = h.ServerProcess(database=own_postgres.url, workdir=tmp_path, extra=extra)
    b = h.ServerProcess(database=own_postgres.url, workdir=tmp_path, extra=extra)
    a.start()
    b.start()
    rng = random.Random(13)
    acked: set[str] = set()

    async def main() -> tuple[str, list[Any]]:
        ticket = h.create_room(a.base, "Ann", max_rounds=3)
        joined = [h.join_room(b.base, ticket["code"], n) for n in ("Bo", "Cy")]
        players = [h.Client(a.ws_base, ticket), *(h.Client(b.ws_base, t) for t in joined)]
        for client in players:
            assert (await client.connect())["type"] == "welcome"
        await players[0].drain(0.3)
        assert (await players[0].command("start_game"))["type"] == "ack"
        await asyncio.gather(*(c.drain(0.3) for c in players))
        assert not await h.play_rounds(players, rng, 3, acked)

        own_redis.stop()
        await h.play_rounds(players, rng, 3, acked)  # A and B no longer hear each other
        own_redis.start()
        for server in (a, b):
            await asyncio.to_thread(_until_ready, server.base, True)
        await asyncio.gather(*(c.drain(0.5) for c in players))
        assert not await h.play_rounds(players, rng, 2, acked)

        own_postgres.stop()
        for server in (a, b):
            await asyncio.to_thread(_until_ready, server.base, False)
        own_postgres.start()
        for server in (a, b):
            await asyncio.to_thread(_until_ready, server.base, True)
        deadline = time.monotonic() + 120
        while not await h.play_rounds(players, rng, 20, acked):
            assert time.monotonic() < deadline, "the game did not finish"
        for client in players:
            await client.close()
        return ticket["code"], players

    try:
        code, players = asyncio.run(main())
    finally:
        a.stop()
        b.stop()

    async def stored() -> tuple[Any, set[str]]:
        store = open_store(own_postgres.url)
        await store.open()
        events = await store.read(f"{code}:1")
        await store.close()
        ids = {f"{e.actor}/{e.command_id}" for e in events if e.command_id is not None}
        return replay(event_from_json(e.data) for e in events), ids

    state, stored_ids = asyncio.run(stored())
    assert state.phase.value == "over"
    for client in players:
        assert client.view is not None and client.view["scores"] == state.scores
    assert acked and acked <= stored_ids, acked - stored_ids  # every acknowledged move
