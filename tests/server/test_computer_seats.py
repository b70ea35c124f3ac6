"""Computer seats: levels, the room's language, pace and the opening claim, autoplay and
reclaim, learning from finished rounds. Against real servers over real sockets."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from .harness import Client, ServerProcess, create_room, join_room, play_until_over


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose computer players keep a person's pace at a fifth of the time."""
    workdir: Path = tmp_path_factory.mktemp("paced")
    proc = ServerProcess(database="memory://", workdir=workdir, bot_delay=0.2)
    proc.start()
    yield proc
    proc.stop()


def _seats(client: Client) -> dict[str, dict[str, object]]:
    assert client.room is not None
    return {s["id"]: s for s in client.room["seats"]}


def test_levels_in_the_lobby_and_the_room_language(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann", bots=1)
        host = Client(server.ws_base, ticket)
        welcome = await host.connect()
        seats = welcome["room"]["seats"]
        assert [s["bot_level"] for s in seats] == [None, "medium"]  # the default level
        assert welcome["room"]["settings"]["language"] == "en"
        assert isinstance(welcome["room"]["bots_can_read"], bool)
        assert (await host.command("add_bot", level="strong"))["type"] == "ack"
        assert (await host.command("add_bot"))["type"] == "ack"
        await host.drain()
        levels = [s["bot_level"] for s in _seats(host).values()]
        assert levels == [None, "medium", "strong", "medium"]
        robot = next(s for s in _seats(host) if s != host.seat)
        answer = await host.command("set_bot_level", player=robot, level="easy")
        assert answer["type"] == "ack"
        await host.drain()
        assert _seats(host)[robot]["bot_level"] == "easy"
        for bad, code in [
            ({"player": robot, "level": "genius"}, "command/malformed"),
            ({"player": host.seat, "level": "easy"}, "room/not_a_bot"),
            ({"player": "p99", "level": "easy"}, "room/unknown_seat"),
        ]:
            answer = await host.command("set_bot_level", **bad)
            assert answer["code"] == code, (bad, answer)
        assert (await host.command("add_bot", level="genius"))["code"] == "command/malformed"
        settings = {"language": "it"}
        assert (await host.command("update_settings", settings=settings))["type"] == "ack"
        await host.drain()
        assert host.room is not None and host.room["settings"]["language"] == "it"
        bad = {"language": "de"}
        assert (await host.command("update_settings", settings=bad))["code"] == "command/malformed"
        guest = Client(server.ws_base, join_room(server.base, ticket["code"], "Bo"))
        await guest.connect()
        answer = await guest.command("set_bot_level", player=robot, level="strong")
        assert answer["code"] == "room/not_host"
        await host.close()
        await guest.close()

    asyncio.run(main())


def test_every_level_plays_a_game_through_in_every_language(server: ServerProcess) -> None:
    async def main() -> None:
        for level, lang in [("random", "pl"), ("easy", "es"), ("strong", "fr"), ("medium", "pt")]:
            ticket = create_room(
                server.base, "Ann", max_rounds=2, first_storyteller="random", language=lang
            )
            host = Client(server.ws_base, ticket)
            await host.connect()
            for _ in range(3):
                assert (await host.command("add_bot", level=level))["type"] == "ack"
            assert (await host.command("start_game"))["type"] == "ack"
            await play_until_over([host], random.Random(2))
            assert host.view is not None and len(host.view["rounds"]) == 2
            told = [r["clue"] for r in host.view["rounds"] if r["storyteller"] != host.seat]
            assert all(clue.strip() for clue in told)
            await host.close()

    asyncio.run(main())


def test_no_bot_claims_the_opening_clue_before_people_had_their_time(
    paced: ServerProcess,
) -> None:
    """Claim wait 45 s x 0.2 = 9 s; bots alone would tell within 0.6-1.4 s."""

    async def main() -> None:
        ticket = create_room(paced.base, "Ann", bots=3, first_storyteller="claim")
        host = Client(paced.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.drain(2.0)
        assert host.view is not None
        assert host.view["phase"] == "clue" and host.view["storyteller"] is None
        told = await host.until(lambda m: m["type"] == "game" and m["view"]["clue"], timeout=20)
        assert told["view"]["storyteller"] != host.seat
        await host.close()

    asyncio.run(main())


def test_votes_and_submissions_come_at_a_varied_human_pace(paced: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(paced.base, "Ann", bots=3, first_storyteller="host")
        host = Client(paced.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.drain()
        assert host.view is not None
        loop = asyncio.get_running_loop()
        start = loop.time()
        await host.command("give_clue", card=host.view["hand"][0], clue="a quiet harbour")
        arrivals: list[float] = []
        while len(arrivals) < 3:
            message = await host.until(lambda m: m["type"] == "game", timeout=10)
            for item in message["events"]:
                if item["event"]["type"] == "CardsSubmitted":
                    arrivals.append(loop.time() - start)
        # Each bot takes 1.5-4 s x 0.2 on its own, and never acts within 0.2 s x 0.2 of another.
        assert arrivals[0] >= 0.25
        assert arrivals[-1] - arrivals[0] >= 0.07
        await host.close()

    asyncio.run(main())


def test_the_host_hands_a_seat_over_and_the_person_takes_it_back_by_playing(
    paced: ServerProcess,
) -> None:
    async def main() -> None:
        ticket = create_room(paced.base, "Ann", bots=1, first_storyteller="host")
        code = ticket["code"]
        host = Client(paced.ws_base, ticket)
        bo = Client(paced.ws_base, join_room(paced.base, code, "Bo"))
        cy = Client(paced.ws_base, join_room(paced.base, code, "Cy"))
        for client in (host, bo, cy):
            await client.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await cy.until(lambda m: m["type"] == "game")
        assert (await host.command("set_bot", seat=cy.seat, bot=True))["type"] == "ack"
        notice = await bo.until(lambda m: m["type"] == "notice")
        assert (notice["code"], notice["seat"]) == ("seat/autoplayed", cy.seat)
        await host.drain()
        assert host.view is not None
        await host.command("give_clue", card=host.view["hand"][0], clue="lighthouse")
        # Cy plays before the computer (it takes 0.3 s or more): her seat is hers again.
        await cy.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "submit")
        assert cy.view is not None
        answer = await cy.command("submit_cards", cards=cy.view["legal"]["submit"][:1])
        assert answer["type"] == "ack", answer
        notice = await bo.until(lambda m: m["type"] == "notice" and m["code"] == "seat/reclaimed")
        assert notice["seat"] == cy.seat
        await bo.drain()
        assert not _seats(bo)[cy.seat]["is_bot"]
        for client in (host, bo, cy):
            await client.close()

    asyncio.run(main())
