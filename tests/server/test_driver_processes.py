"""Two real ``dixit serve`` processes on one SQLite file with Redis fan-out and presence (the
shared one at 127.0.0.1:6379; skipped, with the reason, when it is not there): real sockets see
each other's seats connected, get the phase timer's notices once whichever process fired it,
and a seat connecting on the other process closes its first socket with ``auth/replaced``."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Client, Message, ServerProcess, create_room, join_room
from .test_pubsub import REDIS_URL, _redis_unreachable


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    reason = _redis_unreachable()
    if reason:
        pytest.skip(reason)
    database = f"sqlite:///{tmp_path / 'dixit.sqlite3'}"
    extra = ("--pubsub", REDIS_URL)
    a = ServerProcess(database=database, workdir=tmp_path, extra=extra)
    b = ServerProcess(database=database, workdir=tmp_path, extra=extra)
    a.start()
    b.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def connected(client: Client) -> dict[str, bool]:
    assert client.room is not None
    return {s["name"]: s["connected"] for s in client.room["seats"]}


def notices(client: Client) -> list[tuple[str, str]]:
    return [(x["code"], x["seat"]) for x in client.inbox if x["type"] == "notice"]


async def room_where(client: Client, want: dict[str, bool]) -> None:
    if connected(client) != want:
        await client.until(lambda x: x["type"] == "room" and connected(client) == want)


def test_two_processes_share_presence_notices_and_one_socket_per_seat(
    pair: tuple[ServerProcess, ServerProcess],
) -> None:
    a, b = pair

    async def main() -> None:
        ticket = create_room(a.base, "Ann", first_storyteller="host", timers={"clue": 1})
        bo_ticket = join_room(b.base, ticket["code"], "Bo")
        cy_ticket = join_room(a.base, ticket["code"], "Cy")
        ann, bo = Client(a.ws_base, ticket), Client(b.ws_base, bo_ticket)
        cy = Client(a.ws_base, cy_ticket)
        for client in (ann, bo, cy):
            assert (await client.connect())["type"] == "welcome"
        everyone = {"Ann": True, "Bo": True, "Cy": True}
        for client in (ann, bo, cy):
            await room_where(client, everyone)  # each process sees the other's sockets

        assert (await ann.command("start_game"))["type"] == "ack"
        played: Message = {"type": "notice", "code": "timer/auto_played", "seat": "p1"}
        for client in (ann, bo, cy):
            await client.until(lambda x: x == {**x, **played})
        await asyncio.gather(*(c.drain(0.5) for c in (ann, bo, cy)))
        for client in (ann, bo, cy):
            assert notices(client).count(("timer/auto_played", "p1")) == 1, notices(client)
            # Ann is there (on A): her seat stays hers, on both processes' word.
            assert notices(client).count(("seat/autoplayed", "p1")) == 0, notices(client)

        # Bo opens the game on A too: the socket on B is closed, the new one stays.
        again = Client(a.ws_base, bo_ticket)
        assert (await again.connect())["type"] == "welcome"
        closed = await bo.until(lambda x: x["type"] == "closed")
        assert closed["code"] == "auth/replaced"
        await again.drain(0.5)
        assert not [x for x in again.inbox if x["type"] == "closed"]
        await room_where(ann, everyone)
        for client in (ann, again, cy):
            await client.close()

    asyncio.run(main())
