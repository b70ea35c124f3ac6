"""No message ever tells a player (or a spectator) a secret: another player's hand, the draw
pile, a card handed in but not yet laid, or whose table card is whose and who voted what before
the reveal. Many random games through real sockets; the server's own event log is the truth."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

from dixit.engine import GameState, evolve
from dixit.engine.serialize import event_from_json
from dixit.storage import SQLiteEventStore

from .harness import Client, Message, ServerProcess, create_room, http, join_room, play_until_over

GAMES = 30


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _pairs(value: Any) -> Iterator[tuple[str, str]]:
    """Every (player, card) an object puts side by side: {"player": p, "card(s)": …}."""
    if isinstance(value, dict):
        player = value.get("player")
        if isinstance(player, str):
            cards = value.get("cards") or []
            card = value.get("card")
            for c in [*cards, *([card] if isinstance(card, str) else [])]:
                if isinstance(c, str):
                    yield player, c
        for item in value.values():
            yield from _pairs(item)
    elif isinstance(value, list):
        for item in value:
            yield from _pairs(item)


def _secrets(state: GameState, viewer: str | None, public: set[str]) -> set[str]:
    hidden = set(state.pile)
    for player, hand in state.hands.items():
        if player != viewer:
            hidden.update(hand)
    if not state.table:  # handed in, not laid yet
        for player, cards in state.submissions.items():
            if player != viewer:
                hidden.update(cards)
        if state.storyteller_card is not None and state.storyteller != viewer:
            hidden.add(state.storyteller_card)
    return hidden - public


def _check(
    message: Any, viewer: str | None, state: GameState, public: set[str], where: str
) -> None:
    leaked = set(_strings(message)) & _secrets(state, viewer, public)
    assert not leaked, f"{where}: {viewer} was sent secret card(s) {leaked}"
    if state.table:  # laid, not yet revealed: nobody learns another's cards or votes
        on_table = set(state.table)
        for player, card in _pairs(message):
            assert not (player != viewer and card in on_table), (
                f"{where}: {viewer} learned that {player} holds or voted {card} before the reveal"
            )


async def _random_game(server: ServerProcess, rng: random.Random) -> list[Client]:
    players = rng.randint(3, 6)
    bots = rng.randint(0, 2) if players > 3 else 0
    settings = {
        "edition": rng.choice(["classic", "2021"]),
        "first_storyteller": rng.choice(["claim", "random", "host"]),
        "bots": bots,
        "max_rounds": rng.randint(2, 4),
    }
    host = create_room(server.base, "Host", **settings)
    tickets = [host] + [
        join_room(server.base, host["code"], f"P{i}") for i in range(players - bots - 1)
    ]
    _, tv = http(server.base, "POST", f"/api/rooms/{host['code']}/spectate")
    clients = [Client(server.ws_base, t) for t in [*tickets, tv]]
    for client in clients:
        await client.connect()
    await clients[0].command("start_game")
    people = clients[:-1]
    # Someone drops out and comes back mid-game with the last version they saw.
    for _ in range(2):
        await play_until_some_moves(people, rng)
        leaver = rng.choice(people)
        seen = leaver.version
        await leaver.close()
        await leaver.connect(since=seen)
    await play_until_over(people, rng)
    await clients[-1].drain(0.2)
    return clients


async def play_until_some_moves(clients: list[Client], rng: random.Random) -> None:
    for client in clients:
        await client.drain(0.02)
        move = client.legal_move(rng)
        if move is not None:
            await client.command(move.pop("type"), **move)


def test_no_message_leaks_a_secret(server: ServerProcess) -> None:
    async def main() -> tuple[list[list[Client]], dict[str, list[GameState]]]:
        rng = random.Random(2024)
        tables = await asyncio.gather(
            *(_random_game(server, random.Random(rng.random())) for _ in range(GAMES))
        )
        store = SQLiteEventStore(server.database.removeprefix("sqlite:///"))
        await store.open()
        states: dict[str, list[GameState]] = {}
        for clients in tables:
            code = clients[0].code
            state: GameState | None = None
            history: list[GameState] = []
            for stored in await store.read(f"{code}:1"):
                state = evolve(state, event_from_json(stored.data))
                history.append(state)
            states[code] = history
        await store.close()
        for clients in tables:
            for client in clients:
                await client.close()
        return list(tables), states

    tables, states = asyncio.run(main())
    checked = 0
    for clients in tables:
        history = states[clients[0].code]
        assert history and history[-1].phase.value == "over"
        public_at = []
        public: set[str] = set()
        for state in history:
            public |= set(state.table)
            public_at.append(set(public))

        def at(
            version: int, history: list[GameState] = history, public_at: list[set[str]] = public_at
        ) -> tuple[GameState, set[str]]:
            index = max(0, min(version, len(history)) - 1)
            return history[index], public_at[index]

        for client in clients:
            viewer = client.seat
            last = 0
            for message in client.inbox:
                kind = message["type"]
                game: Message | None = message if kind == "game" else None
                if kind == "welcome":
                    game = message["game"]
                    last = message["room"]["version"]
                if kind == "room":
                    last = message["room"]["version"]
                if game is not None:
                    for event in game["events"]:
                        _check(event, viewer, *at(event["version"]), f"event {event['version']}")
                    last = game["view"]["version"]
                    _check(game["view"], viewer, *at(last), f"view {last}")
                    rest = {k: v for k, v in message.items() if k not in ("game", "events", "view")}
                    _check(rest, viewer, *at(last), kind)
                else:
                    _check(message, viewer, *at(last), kind)
                checked += 1
    assert checked > 1000
    assert json.dumps(tables[0][0].inbox)  # recorded as sent
