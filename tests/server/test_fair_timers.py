"""Fair timers and a fair opening claim, against real servers over real sockets: a timer plays
one move for a person who is there and leaves them their seat; only a person who is gone is
handed to the computer; a table where every person is late pauses; ``here`` gives the seat
back and reads the account; the opening claim says which computer player claims it, and when.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .harness import Client, ServerProcess, create_room, http, join_room


@pytest.fixture(scope="module")
def paced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """Computer players at a fifth of a person's pace: the opening claim waits 45 x 0.2 s."""
    workdir: Path = tmp_path_factory.mktemp("paced")
    proc = ServerProcess(database="memory://", workdir=workdir, bot_delay=0.2)
    proc.start()
    yield proc
    proc.stop()


def _seat(client: Client, seat: str | None) -> dict[str, Any]:
    assert client.room is not None
    return next(s for s in client.room["seats"] if s["id"] == seat)


def create_spectator(server: ServerProcess, code: str) -> dict[str, Any]:
    status, ticket = http(server.base, "POST", f"/api/rooms/{code}/spectate")
    assert status == 200, ticket
    return dict(ticket)


def _notices(client: Client) -> list[tuple[str, str | None]]:
    return [(m["code"], m["seat"]) for m in client.inbox if m["type"] == "notice"]


def test_a_present_player_who_misses_a_deadline_keeps_the_seat(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(
            server.base, "Ann", bots=1, first_storyteller="host", timers={"clue": 1}
        )
        host = Client(server.ws_base, ticket)
        bo = Client(server.ws_base, join_room(server.base, ticket["code"], "Bo"))
        await host.connect()
        await bo.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        played = await bo.until(lambda m: m["type"] == "notice", timeout=20)
        assert (played["code"], played["seat"]) == ("timer/auto_played", host.seat)
        await host.until(lambda m: m["type"] == "room" and _seat(host, host.seat)["late"])
        mine = _seat(host, host.seat)
        assert not mine["is_bot"] and not mine["autoplay"]  # still theirs
        assert host.view is not None and host.view["phase"] == "submit"
        assert mine["played_for"] == [{"round": 1, "phase": "clue", "clue": host.view["clue"]}]
        assert host.room is not None and not host.room["paused"]  # Bo is there and not late
        await bo.drain(0.3)
        assert ("seat/autoplayed", host.seat) not in _notices(bo)
        # "I'm here": no longer late, the account read; saying it again changes nothing.
        assert (await host.command("here"))["type"] == "ack"  # its room update came first
        assert not _seat(host, host.seat)["late"] and _seat(host, host.seat)["played_for"] == []
        again = await host.command("here")
        assert again["type"] == "ack" and again["version"] == host.version
        await host.close()
        await bo.close()

    asyncio.run(main())


def test_a_table_where_every_person_is_late_pauses_until_one_is_here(
    server: ServerProcess,
) -> None:
    async def main() -> None:
        ticket = create_room(
            server.base,
            "Ann",
            bots=2,
            first_storyteller="host",
            timers={"clue": 1, "submit": 30, "vote": 30},
        )
        host = Client(server.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.until(lambda m: m["type"] == "room" and m["room"]["paused"], timeout=20)
        assert host.room is not None and host.room["deadline"] is None
        # Computer players alone move at once here (--bot-delay 0): paused, none does.
        await host.drain(1.0)
        assert host.view is not None
        assert host.view["phase"] == "submit" and host.view["acted"] == []
        assert host.room["paused"] and _seat(host, host.seat)["late"]
        # The person is here: the table goes on (a fresh submit timer, the computers play).
        assert (await host.command("here"))["type"] == "ack"
        assert not host.room["paused"]
        assert host.room["deadline"] is not None and host.room["deadline"]["phase"] == "submit"
        await host.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "vote")
        await host.close()

    asyncio.run(main())


def test_a_late_persons_own_move_ends_the_pause(server: ServerProcess) -> None:
    async def main() -> None:
        # A computer player claims the opening clue at once (--bot-delay 0); Ann's card goes in
        # by the timer: she is late, and alone: paused before the vote.
        ticket = create_room(server.base, "Ann", bots=2, timers={"submit": 1, "vote": 30})
        host = Client(server.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.until(lambda m: m["type"] == "room" and m["room"]["paused"], timeout=20)
        await host.drain(0.5)
        assert host.view is not None and host.view["phase"] == "vote"
        assert host.view["my_cards"] and host.view["acted"] == []  # nobody voted meanwhile
        assert [p["phase"] for p in _seat(host, host.seat)["played_for"]] == ["submit"]
        # Her own vote: no longer late, the table goes on and the round is scored.
        answer = await host.command("cast_vote", card=host.view["legal"]["vote"][0])
        assert answer["type"] == "ack", answer
        await host.until(
            lambda m: m["type"] == "game" and len(m["view"]["rounds"]) == 1, timeout=20
        )
        assert not _seat(host, host.seat)["late"] and not host.room["paused"]  # type: ignore[index]
        await host.close()

    asyncio.run(main())


def test_a_gone_players_seat_goes_to_the_computer_and_comes_back_with_the_account(
    server: ServerProcess,
) -> None:
    async def main() -> None:
        ticket = create_room(
            server.base, "Ann", bots=1, first_storyteller="host", timers={"clue": 1}
        )
        host = Client(server.ws_base, ticket)
        bo = Client(server.ws_base, join_room(server.base, ticket["code"], "Bo"))
        await host.connect()
        await bo.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.close()  # gone before the clue's timer runs out
        played = await bo.until(lambda m: m["type"] == "notice", timeout=20)
        assert (played["code"], played["seat"]) == ("timer/auto_played", host.seat)
        handed = await bo.until(lambda m: m["type"] == "notice", timeout=10)
        assert (handed["code"], handed["seat"]) == ("seat/autoplayed", host.seat)
        seat = _seat(bo, host.seat)
        assert seat["is_bot"] and seat["autoplay"] and not seat["late"]
        assert bo.room is not None and not bo.room["paused"]  # Bo is there
        # The host comes back: the seat is theirs at once, with the account of the clue.
        back = Client(server.ws_base, ticket)
        welcome = await back.connect()
        mine = next(s for s in welcome["room"]["seats"] if s["id"] == host.seat)
        assert not mine["is_bot"] and not mine["autoplay"]
        assert [(p["round"], p["phase"]) for p in mine["played_for"]] == [(1, "clue")]
        assert mine["played_for"][0]["clue"]
        notice = await bo.until(lambda m: m["type"] == "notice" and m["code"] == "seat/reclaimed")
        assert notice["seat"] == host.seat
        assert (await back.command("here"))["type"] == "ack"
        assert not _seat(back, back.seat)["played_for"]
        await back.close()
        await bo.close()

    asyncio.run(main())


def test_a_table_whose_people_are_all_gone_pauses(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(
            server.base, "Ann", bots=2, first_storyteller="host", timers={"clue": 1}
        )
        host = Client(server.ws_base, ticket)
        watcher = Client(server.ws_base, create_spectator(server, ticket["code"]))
        await host.connect()
        await watcher.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.close()
        await watcher.until(
            lambda m: m["type"] == "room" and m["room"]["paused"] and m["room"]["deadline"] is None,
            timeout=20,
        )
        await watcher.drain(1.0)  # the computer players would move at once: they wait
        assert watcher.view is not None and watcher.view["acted"] == []
        assert watcher.room is not None and watcher.room["paused"]
        back = Client(server.ws_base, ticket)
        welcome = await back.connect()  # back: the seat is theirs, the table goes on
        assert not welcome["room"]["paused"]
        await back.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "vote")
        await back.close()
        await watcher.close()

    asyncio.run(main())


def test_the_opening_claim_says_which_computer_claims_it_and_when(paced: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(paced.base, "Ann", bots=3, first_storyteller="claim")
        host = Client(paced.ws_base, ticket)
        await host.connect()
        started = time.time() * 1000
        assert (await host.command("start_game"))["type"] == "ack"
        await host.until(lambda m: m["type"] == "room" and m["room"]["claim"] is not None)
        assert host.room is not None
        claim = host.room["claim"]
        computers = [s["id"] for s in host.room["seats"] if s["is_bot"]]
        assert claim["by"] in computers
        # 45 s x 0.2 after the start, as planned and stored (not measured).
        assert started + 8_000 <= claim["at"] <= time.time() * 1000 + 9_000
        told = await host.until(lambda m: m["type"] == "game" and m["view"]["clue"], timeout=20)
        assert told["view"]["storyteller"] == claim["by"]
        await host.until(lambda m: m["type"] == "room" and m["room"]["claim"] is None)
        await host.close()

    asyncio.run(main())


def test_a_person_claims_first_and_no_computer_claims_after(paced: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(paced.base, "Ann", bots=2, first_storyteller="claim")
        host = Client(paced.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.until(lambda m: m["type"] == "room" and m["room"]["claim"] is not None)
        await host.drain()
        assert host.view is not None
        card = host.view["legal"]["give_clue"][0]
        assert (await host.command("give_clue", card=card, clue="a lantern"))["type"] == "ack"
        # The update that went with the clue came before its ack: no claim left.
        assert host.room is not None and host.room["claim"] is None
        assert host.view["storyteller"] == host.seat
        await host.close()

    asyncio.run(main())


def test_a_paused_table_and_its_account_survive_a_server_kill(tmp_path: Path) -> None:
    proc = ServerProcess(database=f"sqlite:///{tmp_path / 'dixit.sqlite3'}", workdir=tmp_path)
    proc.start()
    try:

        async def before() -> dict[str, Any]:
            ticket = create_room(
                proc.base, "Ann", bots=2, first_storyteller="host", timers={"clue": 1}
            )
            host = Client(proc.ws_base, ticket)
            await host.connect()
            assert (await host.command("start_game"))["type"] == "ack"
            await host.until(lambda m: m["type"] == "room" and m["room"]["paused"], timeout=20)
            await host.close()
            return ticket

        ticket = asyncio.run(before())
        proc.kill()
        proc.start()

        async def after() -> None:
            status, room = http(proc.base, "GET", f"/api/rooms/{ticket['code']}")
            assert status == 200 and room["paused"] and room["deadline"] is None
            mine = next(s for s in room["seats"] if s["id"] == ticket["seat"])
            assert [p["phase"] for p in mine["played_for"]] == ["clue"]
            host = Client(proc.ws_base, ticket)
            welcome = await host.connect()
            assert welcome["room"]["paused"]  # a reconnect of a late person is not "here"
            await host.drain(0.5)
            assert host.view is not None and host.view["acted"] == []
            assert (await host.command("here"))["type"] == "ack"
            await host.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "vote")
            await host.close()

        asyncio.run(after())
    finally:
        proc.stop()


def test_a_time_bank_gives_a_present_person_more_time_before_a_move_is_played(
    server: ServerProcess,
) -> None:
    async def main() -> None:
        timers = {"clue": 1, "submit": 1, "bank": 2}
        ticket = create_room(server.base, "Ann", bots=1, first_storyteller="host", timers=timers)
        host = Client(server.ws_base, ticket)
        bo = Client(server.ws_base, join_room(server.base, ticket["code"], "Bo"))
        await host.connect()
        await bo.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        assert _seat(host, host.seat)["bank_left"] == 2
        # The clue's second runs out: Ann draws on her bank (2 s), nothing is played yet.
        extended = await host.until(
            lambda m: m["type"] == "room" and (m["room"]["deadline"] or {}).get("bank"), timeout=10
        )
        assert extended["room"]["deadline"]["seconds"] == 2
        assert extended["room"]["deadline"]["players"] == [host.seat]
        assert not any(m["type"] == "notice" for m in host.inbox)
        # She tells her clue within it: her own move, no timer's; what she used is charged.
        await host.drain()
        assert host.view is not None
        card = host.view["legal"]["give_clue"][0]
        assert (await host.command("give_clue", card=card, clue="a lantern"))["type"] == "ack"
        assert not any(m["type"] == "notice" for m in host.inbox)
        assert host.room is not None and not host.room["deadline"]["bank"]  # submit's own
        # Bo misses the submit's second: his bank, then one card played for him; his bank is
        # spent (the next deadline he misses plays at once).
        await bo.until(lambda m: m["type"] == "room" and (m["room"]["deadline"] or {}).get("bank"))
        # (On a busy machine the computer player may be late too: played for at once.)
        played = await bo.until(lambda m: m["type"] == "notice" and m["seat"] == bo.seat)
        assert played["code"] == "timer/auto_played"
        await bo.drain(0.2)
        mine = _seat(bo, bo.seat)
        assert mine["bank_left"] == 0 and mine["late"] and not mine["is_bot"]
        assert 0 < _seat(bo, host.seat)["bank_left"] <= 2
        await host.close()
        await bo.close()

    asyncio.run(main())
