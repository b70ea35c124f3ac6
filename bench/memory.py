"""Server memory, in process: per live game, after many finished games, and start-up.

Runs the server's own rooms (``dixit.server.hub.Hub``) on a real SQLite file in a temporary
directory, with four seats a game held by in-process sockets (a WebSocket stand-in whose sends
complete at once: no network, so what is counted is the room's, not uvicorn's).

    .venv/bin/python bench/memory.py live --games 500        # bytes and objects per live game
    .venv/bin/python bench/memory.py finished --games 10000  # memory after that many games
    .venv/bin/python bench/memory.py startup --rooms 100000  # start-up with that many rooms

``live``: tracemalloc's bytes and ``gc.get_objects()`` per game mid-game (a few rounds played),
the largest allocation sites, and how long a full ``gc.collect()`` takes with them all live.
``finished``: every game is played to its end (the host ends it after a round), its sockets
close and the room is left to unload (no ``gc.collect()``: what the server frees by itself);
the process's RSS is compared with the same process after five such games. ``startup``:
finished rooms are written straight into the SQLite file, then the hub starts (what
``dixit serve`` does) and one room is asked for.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections import Counter
from pathlib import Path
from typing import Any

from dixit.engine import legal_actions
from dixit.protocol import messages as m
from dixit.pubsub import open_pubsub
from dixit.server.cards import card_source
from dixit.server.config import Limits, ServerConfig
from dixit.server.connection import Connection
from dixit.server.hub import Hub
from dixit.server.room import Room
from dixit.server.services import Services
from dixit.server.tokens import token_hash
from dixit.storage import SQLiteEventStore


class QuietSocket:
    """What a Connection needs of a WebSocket; every send completes at once."""

    def send_text(self, text: str) -> bool:
        return True

    def close(self) -> None:
        return None


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def open_hub(tmp: Path, **config: Any) -> Hub:
    store = SQLiteEventStore(tmp / "memory.sqlite3")
    await store.open()
    pubsub = open_pubsub("memory://")
    await pubsub.open()
    limits = Limits(max_rooms=1_000_000)
    settings = ServerConfig(data_dir=tmp / "data", bot_delay_s=0.0, limits=limits, **config)
    hub = Hub(Services(settings, store, card_source(tmp / "data"), pubsub, "bench"))
    await hub.start()
    return hub


async def close_hub(hub: Hub) -> None:
    await hub.stop()
    await hub.services.pubsub.close()
    await hub.services.store.close()


async def seat_game(hub: Hub, players: int) -> tuple[Room, list[Connection]]:
    """A room with ``players`` people, each with a socket, its game started."""
    settings = m.RoomSettings(first_storyteller="random")
    room, host = await hub.create(m.CreateRoomRequest(name="Host", settings=settings))
    tickets = [host] + [
        await hub.join(room.code, m.JoinRoomRequest(name=f"P{i}")) for i in range(1, players)
    ]
    conns = []
    for ticket in tickets:
        conn = Connection(QuietSocket(), hub.services.config.limits)
        who = room.authenticate(ticket.token)
        assert who is not None
        _, conn.seat = who
        conn.token_hash = token_hash(ticket.token)
        await room.attach(conn, None, None)
        conns.append(conn)
    await room.handle(conns[0], m.StartGame(id="start"))
    return room, conns


async def play(room: Room, conns: list[Connection], rng: random.Random, rounds: int) -> None:
    """Random legal moves of the seated people until ``rounds`` rounds are scored."""
    n = 0
    while room.state is not None and len(room.state.rounds) < rounds:
        if room.data.status != "playing":
            return
        moved = False
        for conn in conns:
            state = room.state
            assert state is not None and conn.seat is not None
            legal = legal_actions(state, conn.seat)
            n += 1
            msg: m.ClientModel
            if legal.give_clue:
                msg = m.GiveClue(id=f"c{n}", card=rng.choice(legal.give_clue), clue="a tale")
            elif legal.submit:
                msg = m.SubmitCards(id=f"c{n}", cards=rng.sample(legal.submit, legal.submit_count))
            elif legal.vote:
                msg = m.CastVote(id=f"c{n}", card=rng.choice(legal.vote))
            else:
                continue
            await room.handle(conn, msg)
            moved = True
        if not moved:
            await asyncio.sleep(0)


def top_sites(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, games: int) -> list[str]:
    stats = after.compare_to(before, "filename")
    lines = []
    for stat in stats[:15]:
        frame = stat.traceback[0]
        name = "/".join(Path(frame.filename).parts[-3:])
        lines.append(f"{stat.size_diff / games / 1024:8.1f} KiB/game  {name}")
    return lines


async def live(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    hub = await open_hub(tmp, idle_unload_s=3600.0, finished_unload_s=3600.0)
    rng = random.Random(1)
    for _ in range(5):  # warm caches (decks, card ids, code paths) before counting
        room, conns = await seat_game(hub, args.players)
        await play(room, conns, rng, args.rounds)
    gc.collect()
    objects0 = len(gc.get_objects())
    types0 = Counter(type(o).__name__ for o in gc.get_objects())
    tracemalloc.start(1)
    snap0 = tracemalloc.take_snapshot()
    traced0 = tracemalloc.get_traced_memory()[0]
    rss0 = rss()
    rooms = []
    for _ in range(args.games):
        room, conns = await seat_game(hub, args.players)
        await play(room, conns, rng, args.rounds)
        rooms.append((room, conns))
    gc.collect()
    traced1 = tracemalloc.get_traced_memory()[0]
    snap1 = tracemalloc.take_snapshot()
    tracemalloc.stop()
    rss1 = rss()
    objects1 = len(gc.get_objects())
    types1 = Counter(type(o).__name__ for o in gc.get_objects())
    grown = (types1 - types0).most_common(12)
    t0 = time.perf_counter()
    gc.collect()
    full_gc_ms = (time.perf_counter() - t0) * 1000
    result = {
        "games": args.games,
        "players_per_game": args.players,
        "rounds_played": args.rounds,
        "traced_kib_per_game": round((traced1 - traced0) / args.games / 1024, 1),
        "rss_kib_per_game (tracemalloc on)": round((rss1 - rss0) / args.games / 1024, 1),
        "gc_objects_per_game": round((objects1 - objects0) / args.games),
        "full_gc_ms": round(full_gc_ms, 1),
        "load_average_1m": f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)",
        "top_sites": top_sites(snap0, snap1, args.games),
        "objects_per_game_by_type": [f"{n / args.games:.1f} {t}" for t, n in grown],
    }
    await close_hub(hub)
    return result


async def finished(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    hub = await open_hub(tmp, idle_unload_s=0.5, finished_unload_s=0.0)
    rng = random.Random(2)
    for _ in range(5):
        room, conns = await seat_game(hub, args.players)
        await end(room, conns, rng)
    await settle(hub)
    rss0 = rss()
    t0 = time.perf_counter()
    for i in range(args.games):
        room, conns = await seat_game(hub, args.players)
        await end(room, conns, rng)
        if i % 100 == 99:
            await asyncio.sleep(0.01)  # the sweeper's turn, as on a server
            if i % 1000 == 999:
                print(f"{i + 1} games: RSS {rss() / 2**20:.1f} MiB", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - t0
    await settle(hub)
    rss1 = rss()
    result = {
        "games_finished": args.games,
        "seconds": round(elapsed, 1),
        "live_rooms_after": len(hub.rooms),
        "gc_objects": len(gc.get_objects()),
        "rss_mib_before": round(rss0 / 2**20, 1),
        "rss_mib_after": round(rss1 / 2**20, 1),
        "rss_growth_percent": round(100 * (rss1 - rss0) / rss0, 1),
        "load_average_1m": f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)",
    }
    await close_hub(hub)
    return result


async def end(room: Room, conns: list[Connection], rng: random.Random) -> None:
    """One round, then the host ends the game; every socket goes."""
    await play(room, conns, rng, 1)
    await room.handle(conns[0], m.EndGame(id="end"))
    assert room.data.status == "over", room.data.status
    for conn in conns:
        room.detach(conn)
        conn.close()


async def settle(hub: Hub) -> None:
    for _ in range(50):
        if not hub.rooms:
            break
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.05)  # no gc.collect(): what a server frees by itself


async def write_rooms(tmp: Path, rooms: int) -> str:
    """``rooms`` finished rooms in the SQLite file: one game really played and ended (a round,
    then the host ends it), its record copied under ``rooms`` codes; the events of the first
    copy too (the one asked for). Returns that copy's code."""
    hub = await open_hub(tmp)
    room, conns = await seat_game(hub, 4)
    await end(room, conns, random.Random(3))
    code = room.code
    await close_hub(hub)
    db = sqlite3.connect(tmp / "memory.sqlite3")
    with db:
        (text,) = db.execute("SELECT data FROM rooms WHERE code = ?", (code,)).fetchone()
        events = db.execute(
            "SELECT version, data, command_id, actor FROM events WHERE stream = ?", (f"{code}:1",)
        ).fetchall()
        now = time.time()
        record = json.loads(text)
        rows = []
        for i in range(rooms):
            copy = f"S{i:07d}"
            rows.append((copy, json.dumps({**record, "code": copy}), now, now, 1))
        db.executemany("INSERT INTO rooms (code, data, created, updated, version) VALUES "
                       "(?, ?, ?, ?, ?)", rows)  # fmt: skip
        db.executemany(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?)",
            [("S0000001:1", *event) for event in events],
        )
    db.close()
    return "S0000001"


async def startup(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    code = await write_rooms(tmp, args.rooms)
    gc.collect()
    rss0 = rss()
    t0 = time.perf_counter()
    hub = await open_hub(tmp)
    started = time.perf_counter() - t0
    live_after_start = len(hub.rooms)
    t1 = time.perf_counter()
    room = await hub.get(code)
    first = time.perf_counter() - t1
    assert room is not None and room.data.status == "over"
    result = {
        "rooms_stored": args.rooms,
        "start_ms": round(started * 1000, 1),
        "live_rooms_after_start": live_after_start,
        "first_room_load_ms": round(first * 1000, 1),
        "rss_growth_mib": round((rss() - rss0) / 2**20, 1),
        "load_average_1m": f"{os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)",
    }
    await close_hub(hub)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["live", "finished", "startup"])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3, help="rounds played per live game")
    parser.add_argument("--rooms", type=int, default=100_000, help="stored rooms (startup)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="dixit-memory-") as tmp:
        work = {"live": live, "finished": finished, "startup": startup}[args.what]
        result = asyncio.run(work(args, Path(tmp)))
    for key, value in result.items():
        if isinstance(value, list):
            print(f"{key}:")
            for line in value:
                print(f"    {line}")
        else:
            print(f"{key:<36}  {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
