"""The protocol's promises, checked against a real server over real sockets."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Callable
from typing import Any

from .harness import Client, ServerProcess, create_room, http, join_room


async def _table(server: ServerProcess, players: int = 4, **settings: object) -> list[Client]:
    """A started game with the host as first storyteller; everyone has seen the deal."""
    settings.setdefault("first_storyteller", "host")
    host = create_room(server.base, "Ann", **settings)
    tickets = [host] + [
        join_room(server.base, host["code"], f"P{i}") for i in range(2, players + 1)
    ]
    clients = [Client(server.ws_base, t) for t in tickets]
    for client in clients:
        await client.connect()
    assert (await clients[0].command("start_game"))["type"] == "ack"
    await asyncio.gather(*(c.until(lambda m: m["type"] == "game") for c in clients[1:]))
    return clients


async def _to_vote(clients: list[Client]) -> None:
    """The host tells a clue, everyone submits: the table is laid."""
    host, others = clients[0], clients[1:]
    assert host.view is not None
    answer = await host.command("give_clue", card=host.view["hand"][0], clue="moon")
    assert answer["type"] == "ack"
    for client in others:
        await client.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "submit")
        assert client.view is not None
        answer = await client.command("submit_cards", cards=[client.view["legal"]["submit"][0]])
        assert answer["type"] == "ack", answer
    for client in clients:
        if client.view is None or client.view["phase"] != "vote":
            await client.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "vote")


_OWN_FIELDS = {"rounds", "viewer", "hand", "my_cards", "my_vote", "legal"}


def _shared(view: dict[str, Any]) -> dict[str, Any]:
    """A view's fields every viewer sees alike, but its rounds."""
    return {k: v for k, v in view.items() if k not in _OWN_FIELDS}


def _game_at(version: int) -> Callable[[dict[str, Any]], bool]:
    """Matches a ``game`` message at ``version`` or later."""
    return lambda m: m["type"] == "game" and m["view"]["version"] >= version


async def _close(clients: list[Client]) -> None:
    for client in clients:
        await client.close()


def test_two_concurrent_submissions_from_one_player_exactly_one_applied(
    server: ServerProcess,
) -> None:
    async def main() -> None:
        clients = await _table(server)
        host, bo = clients[0], clients[1]
        assert host.view is not None
        await host.command("give_clue", card=host.view["hand"][0], clue="storm")
        await bo.until(lambda m: m["type"] == "game" and m["view"]["phase"] == "submit")
        assert bo.view is not None
        first, second = bo.view["legal"]["submit"][:2]
        await bo.send({"type": "submit_cards", "id": "s1", "cards": [first]})
        await bo.send({"type": "submit_cards", "id": "s2", "cards": [second]})
        answers = {}
        while len(answers) < 2:
            message = await bo.recv()
            if message["type"] in ("ack", "error"):
                answers[message["id"]] = message
        kinds = sorted(a["type"] for a in answers.values())
        assert kinds == ["ack", "error"]
        rejected = next(a for a in answers.values() if a["type"] == "error")
        assert rejected["code"] == "action/already_submitted"
        await bo.drain()
        assert bo.view is not None
        applied = first if answers["s1"]["type"] == "ack" else second
        assert bo.view["my_cards"] == [applied]
        assert (first in bo.view["hand"]) != (second in bo.view["hand"])
        await _close(clients)

    asyncio.run(main())


def test_duplicate_command_id_is_applied_once(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _table(server)
        host = clients[0]
        assert host.view is not None
        card = host.view["hand"][0]
        first = await host.command("give_clue", command_id="clue-1", card=card, clue="tide")
        assert first["type"] == "ack" and not first["duplicate"]
        version = host.version
        again = await host.command("give_clue", command_id="clue-1", card=card, clue="tide")
        assert again == {**first, "duplicate": True}
        # And after a reconnect, too.
        await host.close()
        await host.connect(since=version)
        third = await host.command("give_clue", command_id="clue-1", card=card, clue="tide")
        assert third["type"] == "ack" and third["duplicate"] and third["version"] == version
        assert host.version == version
        await _close(clients)

    asyncio.run(main())


def test_voting_for_your_own_card_is_refused_with_its_code(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _table(server)
        await _to_vote(clients)
        voter = clients[2]
        assert voter.view is not None
        own = voter.view["my_cards"][0]
        assert own not in voter.view["legal"]["vote"]
        version = voter.version
        answer = await voter.command("cast_vote", card=own)
        assert answer["type"] == "error" and answer["code"] == "action/cannot_vote_own_card"
        assert answer["message"]
        storyteller = clients[0]
        answer = await storyteller.command("cast_vote", card=voter.view["table"][0])
        assert answer["code"] == "action/storyteller_cannot_vote"
        await voter.drain()
        assert voter.version == version and voter.view["my_vote"] is None
        await _close(clients)

    asyncio.run(main())


def test_reconnect_mid_vote_with_last_version_continues(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _table(server)
        await _to_vote(clients)
        leaver = clients[3]
        assert leaver.view is not None
        seen = leaver.version
        await leaver.close()
        # Two others vote while it is away.
        for voter in clients[1:3]:
            assert voter.view is not None
            answer = await voter.command("cast_vote", card=voter.view["legal"]["vote"][0])
            assert answer["type"] == "ack"
        welcome = await leaver.connect(since=seen)
        game = welcome["game"]
        assert game is not None and not game["reset"] and game["from_version"] == seen
        missed = [e["event"] for e in game["events"]]
        assert [e["type"] for e in missed] == ["VoteCast", "VoteCast"]
        assert all(e["card"] is None for e in missed)  # others' votes stay secret
        assert [e["version"] for e in game["events"]] == [seen + 1, seen + 2]
        assert game["view"]["phase"] == "vote" and game["view"]["legal"]["vote"]
        answer = await leaver.command("cast_vote", card=game["view"]["legal"]["vote"][0])
        assert answer["type"] == "ack"
        assert leaver.view is not None and leaver.view["rounds"], "the last vote scores the round"
        # A client that knows nothing gets a fresh view.
        await leaver.close()
        fresh = await leaver.connect()
        assert fresh["game"]["reset"] and fresh["game"]["events"] == []
        await _close(clients)

    asyncio.run(main())


def test_a_socket_that_asks_for_the_last_round_gets_it_alone(server: ServerProcess) -> None:
    """``hello.rounds: "last"``: every view that socket gets (each change, the welcome's
    catch-up, ``sync``) carries only the latest revealed round; the others, every round."""

    async def main() -> None:
        clients = await _table(server, max_rounds=3)
        last = clients[3]
        await last.close()
        welcome = await last.connect(since=last.version, rounds="last")
        assert welcome["type"] == "welcome" and welcome["game"]["view"]["rounds"] == []
        lasts: list[list[dict[str, object]]] = []
        rng = random.Random(3)
        while not all(c.view is not None and c.view["phase"] == "over" for c in clients):
            for client in clients:
                move = client.legal_move(rng)
                if move is not None:
                    answer = await client.command(move.pop("type"), **move)
                    # A view can be a message behind (the move before has not reached it).
                    stale = answer.get("code") in ("action/wrong_phase", "action/not_your_turn")
                    assert answer["type"] == "ack" or stale, answer
            newest = max(c.version for c in clients)
            for client in clients:  # everyone at the same version, to compare their views
                if client.version < newest:
                    await client.until(_game_at(newest))
            assert last.view is not None and clients[0].view is not None
            lasts.append(last.view["rounds"])
            everyone = clients[0].view["rounds"]
            assert last.view["rounds"] == everyone[-1:]
            # Everything every viewer sees alike is the same, but for the older rounds.
            assert _shared(last.view) == _shared(clients[0].view)
        rounds = clients[1].view["rounds"] if clients[1].view else []
        assert [r["round"] for r in rounds] == [1, 2, 3]
        assert {r[0]["round"] for r in lasts if r} == {1, 2, 3}  # each reveal, then alone
        game_messages = [m for m in last.inbox if m["type"] == "game"]
        assert all(len(m["view"]["rounds"]) <= 1 for m in game_messages)
        # A rejoin and a sync: the latest round alone again, while the others still get all.
        await last.close()
        again = await last.connect(since=0, rounds="last")
        assert again["game"]["view"]["rounds"] == rounds[-1:]
        await last.send({"type": "sync", "since": 0})
        synced = await last.until(lambda m: m["type"] == "game")
        assert synced["view"]["rounds"] == rounds[-1:]
        await clients[1].send({"type": "sync", "since": 0})
        synced = await clients[1].until(lambda m: m["type"] == "game")
        assert synced["view"]["rounds"] == rounds
        # "catch_up": the welcome and a sync carry every round (the client keeps the history),
        # each change after only the latest.
        await last.close()
        kept = await last.connect(since=0, rounds="catch_up")
        assert kept["game"]["view"]["rounds"] == rounds
        await last.send({"type": "sync", "since": 0})
        synced = await last.until(lambda m: m["type"] == "game")
        assert synced["view"]["rounds"] == rounds
        # Anything but "all", "last" or "catch_up" is refused with a clear error.
        await last.close()
        refused = await last.connect(answers=("error", "welcome"), rounds="some")
        assert refused["type"] == "error" and refused["code"] == "command/malformed", refused
        assert "rounds" in refused["message"]
        await _close(clients)

    asyncio.run(main())


def test_spectator_sees_no_hand(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _table(server)
        status, ticket = http(server.base, "POST", f"/api/rooms/{clients[0].code}/spectate")
        assert status == 200 and ticket["role"] == "spectator" and ticket["seat"] is None
        tv = Client(server.ws_base, ticket)
        welcome = await tv.connect(since=0)
        assert welcome["you"] == {"role": "spectator", "seat": None, "is_host": False}
        game = welcome["game"]
        assert game["view"]["hand"] is None and game["view"]["viewer"] is None
        hands = {c for client in clients for c in (client.view or {}).get("hand", [])}
        assert hands and not hands & set(json.dumps(welcome))
        for event in game["events"]:
            if event["event"]["type"] == "CardsDrawn":
                assert all(d["cards"] is None for d in event["event"]["draws"])
        answer = await tv.command("cast_vote", card="x")
        assert answer["code"] == "auth/spectator"
        await _close([*clients, tv])

    asyncio.run(main())


def test_bad_messages_get_clear_errors_and_change_nothing(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _table(server)
        host = clients[0]
        version = host.version
        cases = [
            ("{nope", "command/malformed"),
            ('"text"', "command/malformed"),
            ('{"type": "dance", "id": "d1"}', "command/unknown_type"),
            ('{"type": "give_clue", "id": "g1", "card": "x"}', "command/malformed"),
            ('{"type": "give_clue", "id": "g2", "card": 3, "clue": "a"}', "command/malformed"),
            ('{"type": "cast_vote", "id": "g3", "card": "x", "x": 1}', "command/malformed"),
            ('{"type": "cast_vote", "v": 9, "id": "g4", "card": "x"}', "command/schema_version"),
            ('{"type": "hello", "token": "again"}', "command/malformed"),
            ('{"type": "ping", "id": "' + "p" * 20000 + '"}', "limit/message_too_large"),
        ]  # fmt: skip
        for text, code in cases:
            await host.send_raw(text)
            answer = await host.until(lambda m: m["type"] == "error")
            assert answer["code"] == code, (text, answer)
        assert host.view is not None
        answer = await host.command("give_clue", card="not-a-card", clue="x")
        assert answer["code"] == "action/card_not_in_hand"
        answer = await host.command("give_clue", card=host.view["hand"][0], clue="   ")
        assert answer["code"] == "action/clue_empty"
        answer = await clients[1].command("give_clue", card=clients[1].view["hand"][0], clue="x")
        assert answer["code"] == "action/not_your_turn"
        answer = await host.command("submit_cards", cards=[host.view["hand"][0]])
        assert answer["code"] == "action/wrong_phase"
        await host.send({"type": "ping", "id": "still-there"})
        pong = await host.until(lambda m: m["type"] == "pong")
        assert pong["id"] == "still-there"  # the connection is still open
        assert host.version == version
        await _close(clients)

    asyncio.run(main())


def test_nobody_acts_for_another_seat_or_sees_another_room(server: ServerProcess) -> None:
    async def main() -> None:
        clients = await _table(server)
        other_room = create_room(server.base, "Zed")
        intruder = Client(server.ws_base, {**other_room, "code": clients[0].code})
        welcome = await intruder.connect()
        assert welcome["type"] == "closed" and welcome["code"] == "auth/bad_token"
        stranger = Client(server.ws_base, {**clients[0].ticket, "token": "A" * 32})
        assert (await stranger.connect())["code"] == "auth/bad_token"
        lost = Client(server.ws_base, {**clients[0].ticket, "code": "QQQQQQ"})
        assert (await lost.connect())["code"] == "room/not_found"
        status, body = http(server.base, "GET", "/api/rooms/QQQQQQ")
        assert status == 404 and body["code"] == "room/not_found"
        status, info = http(server.base, "GET", f"/api/rooms/{clients[0].code}")
        assert status == 200 and "token" not in json.dumps(info)
        await _close(clients)

    asyncio.run(main())
