"""The reveal is its own beat: after a round is scored, the next phase's timer and the computer
players wait until every connected person has sent ``reveal_seen`` for that round, or the
reveal's time (30 s, scaled by --bot-delay) has passed. Real server, real sockets."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Client, ServerProcess, create_room, join_room

SCALE = 0.1  # the reveal holds at most 3 s; a computer tells a clue within 0.3-0.7 s


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir: Path = tmp_path_factory.mktemp("reveal")
    proc = ServerProcess(database="memory://", workdir=workdir, bot_delay=SCALE)
    proc.start()
    yield proc
    proc.stop()


def now_ms() -> float:
    return time.time() * 1000


async def view_where(client: Client, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The client's latest view once ``test`` holds for it (it may hold already)."""
    if client.view is None or not test(client.view):
        await client.until(lambda m: m["type"] == "game" and test(m["view"]))
    assert client.view is not None
    return client.view


async def room_where(client: Client, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The client's latest room once ``test`` holds for it (it may hold already)."""
    if client.room is None or not test(client.room):
        await client.until(lambda m: m["type"] == "room" and test(m["room"]))
    assert client.room is not None
    return client.room


def may(phase: str) -> Callable[[dict[str, Any]], bool]:
    return lambda view: bool(view["legal"][phase])


async def play_first_round(clients: list[Client]) -> None:
    """The host tells; the people submit and vote (computers play their part); until scored."""
    host = clients[0]
    view = await view_where(host, lambda v: bool(v["legal"]["give_clue"]))
    card = view["legal"]["give_clue"][0]
    assert (await host.command("give_clue", card=card, clue="harbour"))["type"] == "ack"
    for phase in ("submit", "vote"):
        for client in clients[1:]:
            legal = (await view_where(client, may(phase)))["legal"]
            move: dict[str, Any] = (
                {"cards": legal["submit"][: legal["submit_count"]]}
                if phase == "submit"
                else {"card": legal["vote"][0]}
            )
            kind = "submit_cards" if phase == "submit" else "cast_vote"
            assert (await client.command(kind, **move))["type"] == "ack"
    await view_where(host, lambda v: v["round"] == 2)


def test_computers_and_the_timer_wait_until_the_reveal_is_read(quick: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(
            quick.base, "Ann", bots=2, first_storyteller="host", timers={"clue": 20}
        )
        ann = Client(quick.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await play_first_round([ann])
        room = await room_where(ann, lambda r: r["reveal"] is not None)
        reveal = room["reveal"]
        assert reveal["round"] == 1 and reveal["waiting"] == [ann.seat]
        assert room["deadline"] is None  # the clue timer waits too
        # A computer tells the next clue; while Ann reads, it does not.
        await asyncio.sleep(1.2)
        await ann.drain()
        assert ann.view is not None and ann.view["phase"] == "clue" and ann.view["round"] == 2
        assert ann.room is not None and ann.room["deadline"] is None
        # A word for another round changes nothing; hers for round 1 ends the beat.
        answer = await ann.command("reveal_seen", round=7)
        assert answer["type"] == "ack", answer
        assert ann.room["reveal"] is not None
        seen_at = now_ms()
        assert (await ann.command("reveal_seen", round=1))["type"] == "ack"
        deadline = (await room_where(ann, lambda r: r["reveal"] is None))["deadline"]
        assert deadline is not None and deadline["phase"] == "clue"
        assert deadline["at"] >= seen_at + 19_000  # the timer started after the reveal
        await view_where(ann, lambda v: v["phase"] == "submit")
        assert (await ann.command("reveal_seen", round=1))["type"] == "ack"  # late: harmless
        await ann.close()

    asyncio.run(main())


def test_the_reveal_waits_only_for_people_connected(quick: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(quick.base, "Ann", bots=1, first_storyteller="host")
        ann = Client(quick.ws_base, ticket)
        bo = Client(quick.ws_base, join_room(quick.base, ticket["code"], "Bo"))
        await ann.connect()
        await bo.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await play_first_round([ann, bo])
        reveal = (await room_where(ann, lambda r: r["reveal"] is not None))["reveal"]
        until = reveal["until"]
        assert reveal["waiting"] == [ann.seat, bo.seat]
        assert (await ann.command("reveal_seen", round=1))["type"] == "ack"
        await room_where(
            ann, lambda r: r["reveal"] is not None and r["reveal"]["waiting"] == [bo.seat]
        )
        await bo.close()  # Bo is gone: nobody connected is still reading
        await room_where(ann, lambda r: r["reveal"] is None)
        assert now_ms() < until
        await ann.close()

    asyncio.run(main())


def test_the_reveal_ends_by_itself_when_its_time_is_up(quick: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(quick.base, "Ann", bots=2, first_storyteller="host")
        ann = Client(quick.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await play_first_round([ann])
        until = (await room_where(ann, lambda r: r["reveal"] is not None))["reveal"]["until"]
        assert until == pytest.approx(now_ms() + 30_000 * SCALE, abs=1000)
        await ann.until(lambda m: m["type"] == "room" and m["room"]["reveal"] is None, timeout=10)
        assert now_ms() >= until - 50
        await view_where(ann, lambda v: v["phase"] == "submit")
        await ann.close()

    asyncio.run(main())
