"""Whole games through a real server and real sockets."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from dixit.decks import DeckLibrary

from .harness import Client, ServerProcess, create_room, join_room, play_until_over


async def _seat_players(server: ServerProcess, count: int, **settings: object) -> list[Client]:
    host = create_room(server.base, "Ann", **settings)
    tickets = [host] + [join_room(server.base, host["code"], f"P{i}") for i in range(2, count + 1)]
    clients = [Client(server.ws_base, t) for t in tickets]
    for client in clients:
        welcome = await client.connect()
        assert welcome["type"] == "welcome"
    return clients


def test_full_game_of_four_players_to_the_end(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _seat_players(server, 4, first_storyteller="host", decks=["golden-tales"])
        host = clients[0]
        assert host.welcome is not None and host.welcome["you"]["is_host"]
        answer = await host.command("start_game")
        assert answer["type"] == "ack"
        await asyncio.gather(*(c.until(lambda m: m["type"] == "game") for c in clients[1:]))
        await play_until_over(clients, random.Random(4))
        finals = [c.view for c in clients]
        assert all(v is not None and v["phase"] == "over" for v in finals)
        first = finals[0]
        assert first is not None
        # Classic, 4 players: 24 cards dealt, then 4 a round from the pile until it cannot refill
        # every hand (the recommended deck: 86 cards, so 62 in the pile, 16 rounds).
        pile = len(DeckLibrary(Path("/nonexistent")).get("golden-tales").cards) - 24
        assert first["winners"] and len(first["rounds"]) == -(-pile // 4)
        for view in finals:
            assert view is not None and view["scores"] == first["scores"]
        await host.drain()
        assert host.room is not None and host.room["status"] == "over"
        assert host.room["deadline"] is None
        for client in clients:
            await client.close()

    asyncio.run(main())


def test_three_player_variant_game(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _seat_players(server, 3, first_storyteller="claim", max_rounds=4)
        await clients[0].command("start_game")
        await asyncio.gather(*(c.until(lambda m: m["type"] == "game") for c in clients[1:]))
        view = clients[1].view
        assert view is not None and len(view["hand"]) == 7
        await play_until_over(clients, random.Random(3))
        final = clients[0].view
        assert final is not None and len(final["rounds"]) == 4
        for result in final["rounds"]:
            assert len(result["table"]) == 5  # the storyteller's card and two from each player
        for client in clients:
            await client.close()

    asyncio.run(main())
