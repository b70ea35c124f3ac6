"""Several server processes on one PostgreSQL event store with Redis fan-out: players on
different processes play one game together. Skipped, with the reason, without the services."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from dixit.engine import GameState, replay
from dixit.engine.serialize import event_from_json
from dixit.storage import open_store

from .harness import (
    Client,
    ServerProcess,
    create_room,
    join_room,
    play_until_over,
    postgres_schema,
)
from .test_pubsub import REDIS_URL, _redis_unreachable


@pytest.fixture
def schema_url() -> Iterator[str]:
    """A fresh PostgreSQL schema for this test (dropped afterwards)."""
    reason = _redis_unreachable()
    if reason:
        pytest.skip(reason)
    with postgres_schema() as url:
        yield url


def test_two_processes_one_game(schema_url: str, tmp_path: Path) -> None:
    extra = ("--pubsub", REDIS_URL)
    a = ServerProcess(database=schema_url, workdir=tmp_path, extra=extra)
    b = ServerProcess(database=schema_url, workdir=tmp_path, extra=extra)
    a.start()
    b.start()

    async def main() -> tuple[str, list[Client]]:
        ticket = create_room(a.base, "Ann", first_storyteller="random", bots=1, max_rounds=4)
        joined = [join_room(b.base, ticket["code"], n) for n in ("Bo", "Cy")]
        # Ann and the spectator on A, Bo and Cy on B.
        players = [Client(a.ws_base, ticket), *(Client(b.ws_base, t) for t in joined)]
        for client in players:
            welcome = await client.connect()
            assert welcome["type"] == "welcome"
        assert players[0].room is not None
        await players[0].drain(0.3)
        assert len(players[0].room["seats"]) == 4  # A learned of the joins made on B
        assert (await players[0].command("start_game"))["type"] == "ack"
        await play_until_over(players, random.Random(7))
        for client in players:
            await client.close()
        return ticket["code"], players

    try:
        code, players = asyncio.run(main())
    finally:
        a.stop()
        b.stop()

    async def stored_state() -> GameState:
        store = open_store(schema_url)
        await store.open()
        events = await store.read(f"{code}:1")
        await store.close()
        return replay(event_from_json(e.data) for e in events)

    state = asyncio.run(stored_state())
    assert state.phase.value == "over"
    for client in players:
        assert client.view is not None and client.view["scores"] == state.scores
