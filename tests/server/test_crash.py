"""SIGKILL the server at random points of a game, restart it on the same database, reconnect:
every acknowledged action is still there, in-flight commands resent with their id apply at
most once, and the game plays on to its end."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from pathlib import Path

from dixit.engine import replay
from dixit.engine.serialize import event_from_json
from dixit.storage import SQLiteEventStore, StoredEvent

from .harness import Client, Message, ServerProcess, create_room, join_room

CRASHES = 5
_ids = itertools.count(1)


class Player:
    def __init__(self, client: Client) -> None:
        self.client = client
        self.pending: tuple[str, Message] | None = None
        self.acked: dict[str, int] = {}

    async def send(self, cid: str, move: Message) -> None:
        self.pending = (cid, move)
        body = dict(move)
        answer = await self.client.command(body.pop("type"), command_id=cid, **body)
        if answer["type"] == "ack":
            self.acked[cid] = answer["version"]
        else:
            assert answer["code"].startswith("action/"), answer
        self.pending = None


def _acked(players: list[Player]) -> int:
    return sum(len(p.acked) for p in players)


def _over(players: list[Player]) -> bool:
    return all(p.client.view is not None and p.client.view["phase"] == "over" for p in players)


async def _play(players: list[Player], rng: random.Random) -> None:
    while not _over(players):
        moved = False
        for player in players:
            move = player.client.legal_move(rng)
            if move is not None:
                await player.send(f"k{next(_ids)}", move)
                moved = True
        await asyncio.gather(*(p.client.drain(0.01 if moved else 0.1) for p in players))


def test_sigkill_mid_game_loses_nothing(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    server = ServerProcess(database=database, workdir=tmp_path)
    server.start()
    rng = random.Random(99)

    async def main() -> tuple[str, list[Player]]:
        ticket = create_room(server.base, "Ann", bots=1, first_storyteller="random")
        tickets = [ticket] + [join_room(server.base, ticket["code"], n) for n in ("Bo", "Cy")]
        players = [Player(Client(server.ws_base, t)) for t in tickets]
        for player in players:
            await player.client.connect()
        await players[0].client.command("start_game")
        for _ in range(CRASHES):
            task = asyncio.create_task(_play(players, rng))
            # Die after a random number of acknowledged moves, with more moves in flight.
            target = _acked(players) + rng.randint(2, 12)
            while _acked(players) < target and not task.done():
                await asyncio.sleep(0.002)
            assert not task.done(), "the game should still be running when the server dies"
            server.kill()
            with contextlib.suppress(Exception):  # the sockets died with the server
                await task
            server.start()
            for player in players:
                client = player.client
                before = client.version
                last_acked = max(player.acked.values(), default=0)
                welcome = await client.connect(since=before)
                assert welcome["type"] == "welcome"
                assert client.version >= max(before, last_acked)
            for player in players:
                if player.pending is not None:  # its fate is unknown: resend, same id
                    cid, move = player.pending
                    await player.send(cid, move)
        await _play(players, rng)
        for player in players:
            await player.client.close()
        return ticket["code"], players

    try:
        code, players = asyncio.run(main())
    finally:
        server.stop()

    async def stored() -> list[StoredEvent]:
        store = SQLiteEventStore(database.removeprefix("sqlite:///"))
        await store.open()
        events = await store.read(f"{code}:1")
        await store.close()
        return events

    events = asyncio.run(stored())
    state = replay(event_from_json(e.data) for e in events)
    assert state.phase.value == "over"
    applied = [(e.actor, e.command_id) for e in events if e.command_id is not None]
    assert len(applied) == len(set(applied)), "a command was applied twice"
    for player in players:
        for cid in player.acked:
            assert (player.client.seat, cid) in applied, f"acknowledged {cid} was lost"
        view = player.client.view
        assert view is not None and view["scores"] == state.scores
