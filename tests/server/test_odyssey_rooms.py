"""Rooms of up to 12 under the Odyssey rules, and party play, through a real server."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from .harness import Client, ServerProcess, create_room, http, join_room
from .test_pubsub import REDIS_URL
from .test_scaled_out import schema_url  # noqa: F401 - the fixture


def odyssey_move(client: Client, rng: random.Random) -> dict[str, Any] | None:
    """A random legal move from the client's view, with a second vote whenever it may cast one
    and the void when it is the party storyteller."""
    view = client.view
    if view is None or view["phase"] == "over":
        return None
    legal = view["legal"]
    if legal["give_clue"]:
        return {"type": "give_clue", "card": rng.choice(legal["give_clue"]), "clue": "a clue"}
    if legal["submit"]:
        return {"type": "submit_cards", "cards": rng.sample(legal["submit"], legal["submit_count"])}
    if legal["void"]:
        return {"type": "void_card", "card": rng.choice(legal["void"])}
    if legal["vote"]:
        if legal["vote_count"] == 2:
            first, second = rng.sample(legal["vote"], 2)
            return {"type": "cast_vote", "card": first, "second": second}
        return {"type": "cast_vote", "card": rng.choice(legal["vote"])}
    return None


async def play_until_over(clients: list[Client], rng: random.Random, steps: int = 400) -> None:
    """The clients make random legal moves (with second votes and voids) until the end."""
    for _ in range(steps):
        await asyncio.gather(*(c.drain(0.05) for c in clients))
        if all(c.view is not None and c.view["phase"] == "over" for c in clients):
            return
        moved = False
        for client in clients:
            move = odyssey_move(client, rng)
            if move is None:
                continue
            answer = await client.command(move.pop("type"), **move)
            assert answer["type"] == "ack" or answer["code"] == "action/wrong_phase", answer
            moved = True
        if not moved:
            await asyncio.gather(*(c.drain(0.3) for c in clients))
    raise AssertionError("the game did not finish")


def test_twelve_seats_odyssey_two_votes_over_the_wire(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(
            server.base, "Ann", edition="odyssey", bots=10, max_rounds=2, first_storyteller="host"
        )
        bo = join_room(server.base, ticket["code"], "Bo")
        status, answer = http(
            server.base, "POST", f"/api/rooms/{ticket['code']}/join", {"name": "Cy"}
        )
        assert status == 409 and answer["code"] == "room/full"  # twelve seats taken
        host, guest = Client(server.ws_base, ticket), Client(server.ws_base, bo)
        await host.connect()
        await guest.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.drain(0.2)
        assert host.view is not None and len(host.view["players"]) == 12
        assert host.view["rules"]["two_votes_from"] == 7 and len(host.view["hand"]) == 6
        # Ann tells; Bo, a person, votes twice and sees both votes as his own.
        card = host.view["legal"]["give_clue"][0]
        assert (await host.command("give_clue", card=card, clue="a clue"))["type"] == "ack"
        await guest.drain(0.2)
        cards = guest.view["legal"]["submit"][:1]  # type: ignore[index]
        assert (await guest.command("submit_cards", cards=cards))["type"] == "ack"
        for _ in range(100):
            await guest.drain(0.1)
            if guest.view is not None and guest.view["legal"]["vote"]:
                break
        legal = guest.view["legal"]  # type: ignore[index]
        assert legal["vote_count"] == 2
        first, second = legal["vote"][:2]
        same = await guest.command("cast_vote", card=first, second=first)
        assert same["code"] == "action/duplicate_card"
        answer = await guest.command("cast_vote", card=first, second=second)
        assert answer["type"] == "ack"
        await guest.drain(0.2)
        assert guest.view is not None
        if guest.view["rounds"]:
            votes = guest.view["rounds"][0]["votes"]
            assert [v["card"] for v in votes if v["player"] == guest.seat] == [first, second]
        else:
            assert (guest.view["my_vote"], guest.view["my_second_vote"]) == (first, second)
        await play_until_over([host, guest], random.Random(2))
        assert host.view is not None and len(host.view["rounds"]) == 2
        await guest.close()
        await host.close()

    asyncio.run(main())


def test_party_room_the_storyteller_voids_and_everyone_votes(server: ServerProcess) -> None:
    async def main() -> None:
        status, _ = http(
            server.base,
            "POST",
            "/api/rooms",
            {"name": "Ann", "settings": {"edition": "odyssey", "mode": "party", "bots": 3}},
        )
        assert status == 200  # a room may wait for more seats; the game needs six
        ticket = create_room(
            server.base, "Ann", edition="odyssey", mode="party", bots=5, first_storyteller="host"
        )
        host = Client(server.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        await host.drain(0.2)
        assert host.view is not None and host.view["rules"]["mode"] == "party"
        assert len(host.view["hand"]) == 5
        await play_until_over([host], random.Random(3))
        rounds = host.view["rounds"]
        assert len(rounds) == 6 and all(r["outcome"] == "party" for r in rounds)
        assert all(r["void"] in r["table"] for r in rounds)
        # everyone votes, the storyteller too
        assert all(len(r["votes"]) == 6 for r in rounds)
        await host.close()

    asyncio.run(main())


def test_team_room_partners_see_each_other_and_share_points(server: ServerProcess) -> None:
    async def main() -> None:
        odd = create_room(server.base, "Ann", edition="odyssey", mode="teams", bots=6)
        host = Client(server.ws_base, odd)
        await host.connect()
        answer = await host.command("start_game")
        assert answer["code"] == "setup/player_count"  # seven seats make no teams of two
        await host.close()
        ticket = create_room(
            server.base, "Ann", edition="odyssey", mode="teams", bots=7, max_rounds=2
        )
        host = Client(server.ws_base, ticket)
        await host.connect()
        assert (await host.command("start_game"))["type"] == "ack"
        # The deal as first shown: a computer partner may move at once (no person to wait
        # for in this test server's pace), so a later view may hold its hand less a card.
        games = [m for m in host.inbox if m["type"] == "game"]  # came before the ack?
        dealt = games[0] if games else await host.until(lambda m: m["type"] == "game")
        view = dealt["view"]
        assert view["rules"]["team_size"] == 2
        assert len(view["hand"]) == 4 and len(view["partner_hand"]) == 4
        await play_until_over([host], random.Random(4))
        scores = list(host.view["scores"].values())
        assert len(host.view["rounds"]) == 2 and scores[::2] == scores[1::2]
        assert all(len(r["table"]) == 4 for r in host.view["rounds"])
        await host.close()

    asyncio.run(main())


def test_team_chat_reaches_the_partner_only(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base, "Ann", edition="odyssey", mode="teams")
        bo = join_room(server.base, ticket["code"], "Bo")  # seat 2: Ann's partner
        cy = join_room(server.base, ticket["code"], "Cy")  # seat 3: the next team
        ann, partner, rival = (Client(server.ws_base, t) for t in (ticket, bo, cy))
        for client in (ann, partner, rival):
            await client.connect()
        for _ in range(3):
            assert (await ann.command("add_bot"))["type"] == "ack"
        await ann.drain(0.2)
        assert ann.room is not None
        assert [s["name"] for s in ann.room["seats"]][:3] == ["Ann", "Bo", "Cy"]
        early = await ann.command("say", text="psst", team=True)
        assert early["code"] == "chat/no_team"  # no game yet
        assert (await ann.command("start_game"))["type"] == "ack"
        answer = await ann.command("say", text="take the lighthouse", team=True)
        assert answer["type"] == "ack"
        await asyncio.gather(*(c.drain(0.3) for c in (ann, partner, rival)))

        def heard(client: Client) -> list[dict[str, Any]]:
            return [m["line"] for m in client.inbox if m.get("type") == "chat"]

        assert [(line["text"], line["team"]) for line in heard(partner)] == [
            ("take the lighthouse", True)
        ]
        assert heard(ann) and not heard(rival)
        # A line for the whole table still reaches everyone, and only it is kept.
        assert (await rival.command("say", text="good luck"))["type"] == "ack"
        await asyncio.gather(*(c.drain(0.3) for c in (ann, partner, rival)))
        assert [line["text"] for line in heard(partner)][-1] == "good luck"
        for client in (ann, partner, rival):
            await client.close()

    asyncio.run(main())


def test_team_chat_crosses_processes_to_the_partner_only(
    schema_url: str,  # noqa: F811
    tmp_path: Path,
) -> None:
    extra = ("--pubsub", REDIS_URL)
    a = ServerProcess(database=schema_url, workdir=tmp_path, extra=extra)
    b = ServerProcess(database=schema_url, workdir=tmp_path, extra=extra)
    a.start()
    b.start()

    async def main() -> None:
        ticket = create_room(a.base, "Ann", edition="odyssey", mode="teams")
        ann = Client(a.ws_base, ticket)
        partner = Client(b.ws_base, join_room(b.base, ticket["code"], "Bo"))
        rival = Client(b.ws_base, join_room(b.base, ticket["code"], "Cy"))
        for client in (ann, partner, rival):
            await client.connect()
        for _ in range(3):
            assert (await ann.command("add_bot"))["type"] == "ack"
        assert (await ann.command("start_game"))["type"] == "ack"
        assert (await ann.command("say", text="the second one", team=True))["type"] == "ack"
        line = (await partner.until(lambda m: m["type"] == "chat"))["line"]
        assert (line["text"], line["team"]) == ("the second one", True)
        await rival.drain(0.5)
        assert not [m for m in rival.inbox if m["type"] == "chat"]
        late = Client(b.ws_base, ticket)  # Ann again, on B: the team line is not in the history
        await late.connect()
        talk = await late.until(lambda m: m["type"] == "talk")
        assert talk["lines"] == []
        for client in (ann, partner, rival, late):
            await client.close()

    try:
        asyncio.run(main())
    finally:
        a.stop()
        b.stop()
