"""Lobby and host controls, computer players in seats, phase timers, static files."""

from __future__ import annotations

import asyncio
import random

from .harness import Client, ServerProcess, create_room, http, join_room, play_until_over


def test_lobby_profiles_settings_and_limits(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann", max_players=4, bots=1)
        code = ticket["code"]
        status, answer = http(server.base, "POST", f"/api/rooms/{code}/join", {"name": "x" * 33})
        assert status == 422
        bo = join_room(server.base, code.lower(), "Bo")  # codes are case-insensitive
        status, answer = http(
            server.base, "POST", f"/api/rooms/{code}/join", {"name": "Cy", "colour": "red"}
        )
        assert status == 409 and answer["code"] == "room/colour_taken"  # the host got red
        join_room(server.base, code, "Cy")
        status, answer = http(server.base, "POST", f"/api/rooms/{code}/join", {"name": "Di"})
        assert status == 409 and answer["code"] == "room/full"
        host, guest = Client(server.ws_base, ticket), Client(server.ws_base, bo)
        await host.connect()
        await guest.connect()
        answer = await guest.command("set_profile", name="Bob", colour="purple")
        assert answer["type"] == "ack"
        answer = await guest.command("set_profile", colour="red")
        assert answer["code"] == "room/colour_taken"
        answer = await guest.command("start_game")
        assert answer["code"] == "room/not_host"
        answer = await host.command(
            "update_settings", settings={"edition": "2021", "max_players": 3}
        )
        assert answer["code"] == "room/full"
        answer = await host.command("update_settings", settings={"edition": "2021"})
        assert answer["type"] == "ack"
        await host.drain()
        assert host.room is not None
        assert host.room["settings"]["edition"] == "2021"
        seats = {s["id"]: s for s in host.room["seats"]}
        assert seats[guest.seat]["name"] == "Bob" and seats[guest.seat]["colour"] == "purple"
        assert seats[guest.seat]["connected"] and sum(s["is_bot"] for s in seats.values()) == 1
        await host.close()
        await guest.close()

    asyncio.run(main())


def test_host_controls_kick_bot_handover_end_and_rematch(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann", first_storyteller="host")
        code = ticket["code"]
        others = [join_room(server.base, code, n) for n in ("Bo", "Cy", "Di", "Ed")]
        host = Client(server.ws_base, ticket)
        bo, cy, di, ed = (Client(server.ws_base, t) for t in others)
        for client in (host, bo, cy, di, ed):
            await client.connect()
        # Lobby kick: the seat goes, the socket is told and closed, the token is kept out.
        assert (await host.command("kick", seat=ed.seat))["type"] == "ack"
        closed = await ed.until(lambda m: m["type"] == "closed")
        assert closed["code"] == "room/kicked"
        assert (await Client(server.ws_base, others[3]).connect())["code"] == "room/kicked"
        assert (await host.command("start_game"))["type"] == "ack"
        # Replace Di by a computer player: it plays Di's seat; Di cannot act meanwhile.
        assert (await host.command("set_bot", seat=di.seat, bot=True))["type"] == "ack"
        await host.drain()
        assert host.view is not None
        await host.command("give_clue", card=host.view["hand"][0], clue="owl")
        await di.until(lambda m: m["type"] == "game" and di.seat in m["view"]["acted"])
        assert di.view is not None and len(di.view["my_cards"]) == 1  # the bot submitted
        assert (await host.command("set_bot", seat=di.seat, bot=False))["type"] == "ack"
        # Hand the host role over, then the old host leaves: a computer player takes the seat.
        assert (await host.command("transfer_host", seat=bo.seat))["type"] == "ack"
        assert (await host.command("end_game"))["code"] == "room/not_host"
        assert (await host.command("leave"))["type"] == "ack"
        await bo.until(
            lambda m: (
                m["type"] == "room"
                and any(
                    s["id"] == host.seat and s["left"] and s["is_bot"] for s in m["room"]["seats"]
                )
            )
        )
        # Bo (host now) ends the game; leaders win; nothing is legal any more.
        assert (await bo.command("end_game"))["type"] == "ack"
        # The engine ends it (the log records GameEnded); then the room says it is over.
        ended = await cy.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "over")
        assert ended["view"]["winners"] and ended["events"][-1]["event"]["type"] == "GameEnded"
        await cy.until(lambda m: m["type"] == "room" and m["room"]["status"] == "over")
        assert cy.view is not None and not any(cy.view["legal"][k] for k in ("submit", "vote"))
        answer = await cy.command("submit_cards", cards=cy.view["hand"][:1])
        assert answer["code"] in ("room/not_playing", "action/already_submitted")
        # Rematch: back to the lobby, the player who left is gone.
        assert (await bo.command("rematch"))["type"] == "ack"
        await bo.drain()
        assert bo.room is not None and bo.room["status"] == "lobby"
        assert bo.room["game_number"] == 2
        assert [s["id"] for s in bo.room["seats"]] == [bo.seat, cy.seat, di.seat]
        for client in (host, bo, cy, di, ed):
            await client.close()

    asyncio.run(main())


def test_host_leaving_hands_the_role_on_automatically(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann")
        bo_ticket = join_room(server.base, ticket["code"], "Bo")
        host, bo = Client(server.ws_base, ticket), Client(server.ws_base, bo_ticket)
        await host.connect()
        await bo.connect()
        assert (await host.command("leave"))["type"] == "ack"
        message = await bo.until(lambda m: m["type"] == "room" and m["room"]["host"] == bo.seat)
        assert message["you"]["is_host"]
        assert [s["id"] for s in message["room"]["seats"]] == [bo.seat]
        await bo.close()
        await host.close()

    asyncio.run(main())


def test_computer_players_in_seats_play_through_the_same_path(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann", bots=3, max_rounds=3, first_storyteller="random")
        host = Client(server.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await play_until_over([host], random.Random(1))
        assert host.view is not None and len(host.view["rounds"]) == 3
        await host.close()

    asyncio.run(main())


def test_timer_expiry_plays_for_the_late_player_and_says_so(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(
            server.base, "Ann", bots=2, first_storyteller="host", timers={"clue": 1}
        )
        host = Client(server.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.drain()
        assert host.room is not None and host.room["deadline"]["phase"] == "clue"
        assert host.room["deadline"]["players"] == [host.seat]
        notice = await host.until(lambda m: m["type"] == "notice", timeout=20)
        assert notice["code"] == "timer/auto_played" and notice["seat"] == host.seat
        assert host.view is not None and host.view["clue"]  # a clue was given for the host
        await host.close()

    asyncio.run(main())


def test_web_client_docs_and_cards_are_served(server: ServerProcess) -> None:
    import urllib.request

    def get(path: str) -> tuple[int, dict[str, str], bytes]:
        try:
            with urllib.request.urlopen(server.base + path, timeout=10) as answer:
                return answer.status, dict(answer.headers), answer.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    status, _, body = get("/r/ABCDEF")  # a join link: the client, or how to build it
    assert status == 200 and b"<html" in body.lower()
    status, _, body = get("/docs")
    assert status == 200 and b"swagger" in body.lower()
    status, _, _ = get("/api/nothing-here")
    assert status == 404
    status, decks = http(server.base, "GET", "/api/decks")
    assert status == 200 and decks["decks"] and decks["decks"][0]["card_count"] >= 84
    ticket = create_room(server.base, "Ann", bots=3, first_storyteller="host")

    async def first_card() -> str:
        host = Client(server.ws_base, ticket)
        await host.connect()
        await host.command("start_game")
        assert host.view is not None
        card: str = host.view["hand"][0]
        await host.close()
        return card

    card = asyncio.run(first_card())
    status, headers, body = get(f"/cards/{card}")
    assert status == 200 and body
    assert "immutable" in headers["cache-control"]
    assert get("/cards/no-such-card")[0] == 404
