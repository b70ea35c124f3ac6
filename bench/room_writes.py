"""CPU time of a room's writes, in one process (no sockets, no network).

- ``moves``: ``Room.apply`` per game move (memory store): random legal moves of 6-seat games
  until each is over. Includes deciding, storing, the room's own bookkeeping and fan-out to no
  sockets; what a command's random numbers cost shows here (:mod:`dixit.server.seeding`).
- ``moves, seated``: the same with a socket on every seat, as the web client says hello
  (``rounds: "last"``, no events): each change's ``game`` text is built for every seat (and
  handed to a socket that drops it: no framing, no network).
- ``lobby``: ``Room.handle`` per ``set_profile`` on a SQLite file: the versioned record write
  and the durable command record (one read, one write).

CPU time of this process (``time.process_time``), so other load on the machine matters less;
run it a few times and take the lowest. Run: ``.venv/bin/python bench/room_writes.py``
(``--games 40 --commands 2000``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import tempfile
import time
from pathlib import Path

from dixit.engine import Phase, random_command, waiting_for
from dixit.protocol import messages as m
from dixit.protocol import parse_client_message
from dixit.pubsub import MemoryPubSub
from dixit.server.cards import card_source
from dixit.server.config import Limits, ServerConfig
from dixit.server.connection import Connection
from dixit.server.hub import Hub
from dixit.server.services import Services
from dixit.server.tokens import token_hash
from dixit.storage import EventStore, MemoryEventStore, open_store


class _Socket:
    def send_text(self, text: str) -> bool:
        return True

    def close(self) -> None:
        return None


def _hub(store: EventStore, tmp: Path) -> Hub:
    config = ServerConfig(data_dir=tmp, bot_delay_s=1000.0)  # computer players stay still
    return Hub(Services(config, store, card_source(tmp), MemoryPubSub(), "bench"))


async def moves(games: int, tmp: Path, seated: bool = False) -> float:
    store = MemoryEventStore()
    hub = _hub(store, tmp)
    rng = random.Random(5)
    spent, count = 0.0, 0
    settings = m.RoomSettings(first_storyteller="host", max_rounds=6)
    for _ in range(games):
        room, ticket = await hub.create(m.CreateRoomRequest(name="Ann", settings=settings))
        for name in ("Bo", "Cy", "Di", "Ed", "Flo"):
            await hub.join(room.code, m.JoinRoomRequest(name=name))
        host = room.data.seat(ticket.seat or "")
        assert host is not None
        for seat in room.data.seats if seated else ():
            conn = Connection(_Socket(), Limits())
            conn.seat, conn.all_rounds = seat.id, False
            room.fanout.add(conn)
        async with room.lock:
            await room.dispatch(host, m.StartGame(id="start"), "start")
        while room.state is not None and room.state.phase is not Phase.OVER:
            player = next(iter(waiting_for(room.state)))
            command = random_command(room.state, player, rng)
            assert command is not None
            async with room.lock:
                started = time.process_time()
                await room.apply(command, f"c{count}", player)
                spent += time.process_time() - started
            count += 1
        room.shutdown()
    return spent / count


async def lobby(commands: int, tmp: Path) -> float:
    store = open_store(f"sqlite:///{tmp / 'bench.sqlite3'}")
    await store.open()
    hub = _hub(store, tmp)
    room, ticket = await hub.create(m.CreateRoomRequest(name="Ann"))
    conn = Connection(_Socket(), Limits())
    conn.seat, conn.token_hash = ticket.seat, token_hash(ticket.token)
    texts = [
        json.dumps({"type": "set_profile", "id": f"n{i}", "name": f"Ann {i}"})
        for i in range(commands)
    ]
    parsed = [parse_client_message(text) for text in texts]
    started = time.process_time()
    for msg in parsed:
        await room.handle(conn, msg)
    spent = time.process_time() - started
    room.shutdown()
    await store.close()
    return spent / commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--commands", type=int, default=2000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        per_move = asyncio.run(moves(args.games, Path(tmp)))
        per_seated = asyncio.run(moves(args.games, Path(tmp), seated=True))
        per_lobby = asyncio.run(lobby(args.commands, Path(tmp)))
    print(f"moves: {per_move * 1e6:.1f} us CPU per Room.apply (memory store)")
    print(f"moves, seated: {per_seated * 1e6:.1f} us CPU per Room.apply (6 sockets, memory store)")
    print(f"lobby: {per_lobby * 1e6:.1f} us CPU per set_profile (SQLite file)")


if __name__ == "__main__":
    main()
