"""Flood campaign (issue 29): one client creates rooms and joins as fast as it can while games
are played, against one ``dixit serve`` with its default rate limits and a short retention.

Two phases on one server (SQLite file, loopback): ``--games`` tables play for ``--seconds``
without the flood, then again with one flooding client beside them; ``--pairs N`` runs N such
pairs one after the other, so that on a shared machine each flood is compared with the quiet
phase just before it (the load of other people's work changes within minutes). Each table is
one address (127.0.1.N: a household), the flooder another (127.0.0.1), so the limits key them
apart as they would key real clients. Reported: each phase's command latency (a move sent to
its answer: p50, p99) and the server's CPU seconds, when the flooder got its first 429 and how
many requests it had answered 200 and 429, the store (rooms by status, events, bytes) before
and after the flood and once the retention time has passed.

    .venv/bin/python bench/flood.py [--games 50] [--seconds 60] [--pairs 1]
        [--keep-lobby 20s] [--rate-limits on|off] [--rate-limit create=2/30 …] [--json]
    .venv/bin/python bench/flood.py --refusals 20000   # CPU of one refusal through the app
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

HOST = "127.0.0.1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


async def request(
    port: int, source: str, method: str, path: str, body: Any = None
) -> tuple[int, Any]:
    """One HTTP/1.1 request from the address ``source``."""
    data = b"" if body is None else json.dumps(body).encode()
    reader, writer = await asyncio.open_connection(HOST, port, local_addr=(source, 0))
    head = (
        f"{method} {path} HTTP/1.1\r\nhost: {HOST}:{port}\r\nconnection: close\r\n"
        f"content-type: application/json\r\ncontent-length: {len(data)}\r\n\r\n"
    )
    writer.write(head.encode() + data)
    raw = await reader.read()
    writer.close()
    status = int(raw.split(b" ", 2)[1])
    payload = raw.split(b"\r\n\r\n", 1)[1]
    return status, json.loads(payload) if payload else None


@dataclass
class Latency:
    seconds: list[float] = field(default_factory=list)
    refused: int = 0  # moves answered with an error: a change elsewhere overtook their view
    games: int = 0


class Seat:
    """One player's socket: acts on each new view, times each move to its answer."""

    def __init__(self, ws: ClientConnection, latency: Latency, rng: random.Random) -> None:
        self.ws, self.latency, self.rng = ws, latency, rng
        self.sent: dict[str, float] = {}
        self.acted_on = -1
        self.phase = ""
        self.ids = 0

    async def send(self, kind: str, timed: bool = True, **fields: Any) -> None:
        """Send a command; a move (``timed``) is timed to its answer."""
        self.ids += 1
        cid = f"m{self.ids}"
        if timed:
            self.sent[cid] = time.perf_counter()
        await self.ws.send(json.dumps({"type": kind, "id": cid, **fields}))

    async def on_view(self, view: dict[str, Any]) -> None:
        self.phase = view["phase"]
        if view["version"] <= self.acted_on:
            return
        legal = view["legal"]
        if legal.get("give_clue"):
            self.acted_on = view["version"]
            await self.send("give_clue", card=self.rng.choice(legal["give_clue"]), clue="a clue")
        elif legal.get("submit"):
            self.acted_on = view["version"]
            cards = self.rng.sample(legal["submit"], legal["submit_count"])
            await self.send("submit_cards", cards=cards)
        elif legal.get("vote"):
            self.acted_on = view["version"]
            await self.send("cast_vote", card=self.rng.choice(legal["vote"]))

    def on_answer(self, message: dict[str, Any]) -> None:
        started = self.sent.pop(str(message.get("id")), None)
        if started is None:
            return
        self.latency.seconds.append(time.perf_counter() - started)
        if message["type"] != "ack":
            self.latency.refused += 1  # a view a change elsewhere overtook (a claimed clue)


async def table(port: int, source: str, until: float, latency: Latency, seed: int) -> None:
    """A table of three from one address: games one after the other until ``until``."""
    rng = random.Random(seed)
    status, host = await request(port, source, "POST", "/api/rooms", {"name": "Ann"})
    assert status == 200, host
    tickets = [host]
    for name in ("Bo", "Cy"):
        status, ticket = await request(
            port, source, "POST", f"/api/rooms/{host['code']}/join", {"name": name}
        )
        assert status == 200, ticket
        tickets.append(ticket)
    seats = []
    for ticket in tickets:
        ws = await connect(f"ws://{HOST}:{port}/ws/{ticket['code']}", local_addr=(source, 0))
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": ticket["token"]}))
        seats.append(Seat(ws, latency, rng))
    await seats[0].send("start_game", timed=False)

    async def listen(seat: Seat, is_host: bool) -> None:
        async for text in seat.ws:
            message = json.loads(text)
            kind = message["type"]
            if kind in ("ack", "error"):
                seat.on_answer(message)
            elif kind in ("game", "welcome") and message.get("view" if kind == "game" else "game"):
                view = message["view"] if kind == "game" else message["game"]["view"]
                if view["phase"] == "over" and seat.phase != "over":
                    seat.phase = "over"
                    if is_host:
                        latency.games += 1
                        if time.monotonic() < until:
                            await seat.send("rematch", timed=False)
                            await seat.send("start_game", timed=False)
                    continue
                await seat.on_view(view)
            if time.monotonic() >= until:
                return

    tasks = [asyncio.create_task(listen(s, i == 0)) for i, s in enumerate(seats)]
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    for task in tasks:
        task.cancel()
    for seat in seats:
        with contextlib.suppress(ConnectionClosed):
            await seat.ws.close()


def flood(port: int, seconds: float, out: Any, go: Any) -> None:
    """The flooder (its own process): create a room, join it, again, as fast as it can. It
    says it is ready and waits for ``go``: its start-up is not the phase's load."""
    out.put("ready")
    go.wait()
    conn = http.client.HTTPConnection(HOST, port, timeout=10)
    counts: dict[str, int] = {}
    first_429 = None
    started = time.monotonic()
    code = None
    while time.monotonic() - started < seconds:
        for method, path in (("POST", "/api/rooms"), ("POST", f"/api/rooms/{code}/join")):
            if code is None and "join" in path:
                continue
            body = json.dumps({"name": f"F{random.randrange(10**6)}"})
            try:
                conn.request(method, path, body, {"content-type": "application/json"})
                answer = conn.getresponse()
                data = answer.read()
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection(HOST, port, timeout=10)
                continue
            key = f"{path.split('/')[-1] if 'join' in path else 'create'} {answer.status}"
            counts[key] = counts.get(key, 0) + 1
            if answer.status == 429 and first_429 is None:
                first_429 = time.monotonic() - started
            if answer.status == 200 and "join" not in path:
                code = json.loads(data)["code"]
    out.put({"answers": counts, "first_429_s": first_429})


def store_stats(database: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "dixit.cli.main", "store", "stats", "--database", database,
         "--json"],
        capture_output=True, text=True,
    )  # fmt: skip
    if out.returncode != 0:
        raise RuntimeError(f"dixit store stats: {out.stderr.strip()[-400:]}")
    stats: dict[str, Any] = json.loads(out.stdout)
    return stats


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else 0.0


def cpu_seconds(pid: int) -> float:
    """CPU time (user and system) the process ``pid`` has used (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def phase(
    port: int, games: int, seconds: float, flooding: bool, server: int
) -> dict[str, Any]:
    """One phase; with ``server`` CPU seconds it used (the flood's cost, which a loaded
    machine's latencies hide)."""
    latency = Latency()
    queue: Any = None
    flooder = None
    if flooding:
        spawn = multiprocessing.get_context("spawn")
        queue, go = spawn.Queue(), spawn.Event()
        flooder = spawn.Process(target=flood, args=(port, seconds, queue, go))
        flooder.start()
        assert queue.get(timeout=60) == "ready"
        go.set()
    until = time.monotonic() + seconds
    cpu_before = cpu_seconds(server)
    await asyncio.gather(
        *(table(port, f"127.0.1.{i + 1}", until, latency, i) for i in range(games))
    )
    result: dict[str, Any] = {
        "moves": len(latency.seconds),
        "games_finished": latency.games,
        "refused_moves": latency.refused,
        "p50_ms": round(statistics.median(latency.seconds) * 1000, 2) if latency.seconds else None,
        "p99_ms": round(pct(latency.seconds, 99) * 1000, 2),
        "server_cpu_s": round(cpu_seconds(server) - cpu_before, 2),
    }
    if flooder is not None:
        result["flooder"] = queue.get(timeout=seconds + 60)
        flooder.join(30)
    return result


async def refusals(count: int) -> float:
    """CPU microseconds the server's app spends on one refused ``POST /api/rooms`` (in this
    process, through every middleware; uvicorn's parsing and the socket are not counted)."""
    import logging

    from dixit.server import security
    from dixit.server.app import create_app
    from dixit.server.config import ServerConfig

    logging.disable(logging.CRITICAL)
    security.HOLD_S = 0.0  # the CPU of a refusal, not its hold
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(ServerConfig(data_dir=Path(tmp)))
    body = b'{"name":"F1"}'
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": "POST", "scheme": "http", "path": "/api/rooms", "raw_path": b"/api/rooms",
             "query_string": b"", "root_path": "", "client": ("127.0.0.9", 5000),
             "server": (HOST, 8000), "headers": [(b"content-type", b"application/json"),
                                                 (b"content-length", b"13")]}  # fmt: skip
    statuses: list[int] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            statuses.append(message["status"])

    async def one() -> None:
        with contextlib.suppress(KeyError):  # a request let through finds no hub: no matter
            await app(dict(scope), receive, send)

    for _ in range(40):  # the burst spent
        await one()
    statuses.clear()
    started = time.process_time()
    for _ in range(count):
        await one()
    spent = time.process_time() - started
    assert statuses.count(429) >= count * 0.99, "the bucket refilled: not refusals"
    return spent / count * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pairs", type=int, default=1, help="phases without and with flood")
    parser.add_argument("--keep-lobby", default="20s", help="the server's --keep-lobby")
    parser.add_argument(
        "--rate-limits", choices=("on", "off"), default="on",
        help="the server's --rate-limits (off: what the flood does without them)",
    )  # fmt: skip
    parser.add_argument(
        "--rate-limit", action="append", default=[], metavar="ROUTE=BURST/PER_MINUTE",
        help="the server's --rate-limit (repeatable), e.g. create=2/30",
    )  # fmt: skip
    parser.add_argument(
        "--refusals", type=int, default=0, metavar="N",
        help="only time N refused requests through the app in this process (CPU µs each)",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.refusals:
        print(f"{asyncio.run(refusals(args.refusals)):.1f} µs of CPU a refused request")
        return 0
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        database = f"sqlite:///{Path(tmp) / 'flood.sqlite3'}"
        env = {k: v for k, v in os.environ.items() if k != "DIXIT_RATE_LIMITS"}
        env["DIXIT_DATA_DIR"] = tmp
        server = subprocess.Popen(
            [sys.executable, "-m", "dixit.cli.main", "serve", "--port", str(port),
             "--database", database, "--bot-delay", "0", "--keep-lobby", args.keep_lobby,
             "--sweep-every", "2s", "--idle-unload", "2", "--log-level", "warning",
             "--rate-limits", args.rate_limits,
             *(f"--rate-limit={rate}" for rate in args.rate_limit)],
            env=env, stdout=subprocess.DEVNULL, stderr=open(Path(tmp) / "server.log", "wb"),  # noqa: SIM115
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    urllib.request.urlopen(f"http://{HOST}:{port}/api/health", timeout=1).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.1)
            report: dict[str, Any] = {
                "games": args.games, "seconds": args.seconds, "rate_limits": args.rate_limits,
                "rate_limit": args.rate_limit,
            }  # fmt: skip
            from dixit.server.limits import DEFAULT_RATES, Rate, parse_rate

            # What the limit lets one address create in a flood: its burst, then its rate.
            rates = dict(parse_rate(r) for r in args.rate_limit)
            create = rates.get("create", Rate(*DEFAULT_RATES["create"]))
            report["allowed_creates"] = create.burst + int(create.per_minute * args.seconds / 60)
            pairs = []
            for n in range(args.pairs):
                without = asyncio.run(phase(port, args.games, args.seconds, False, server.pid))
                if n == 0:
                    report["store_before_flood"] = store_stats(database)
                flooded = asyncio.run(phase(port, args.games, args.seconds, True, server.pid))
                ratio = flooded["p99_ms"] / without["p99_ms"] if without["p99_ms"] else None
                pairs.append({"without_flood": without, "with_flood": flooded,
                              "p99_ratio": ratio and round(ratio, 3),
                              "load_average": os.getloadavg()[0]})  # fmt: skip
            report.update(pairs[0])
            report["pairs"] = pairs
            report["store_after_flood"] = store_stats(database)
            # Back to its size: the rooms before the flood and the tables' own (every phase's
            # tables after the first), none of the flooder's (each a lobby that never starts).
            started = time.monotonic()
            kept = sum(report["store_before_flood"]["rooms"].values())
            kept += args.games * (2 * args.pairs - 1)
            while sum(store_stats(database)["rooms"].values()) > kept:
                assert time.monotonic() - started < 600, "the store did not shrink"
                time.sleep(1)
            report["store_after_retention"] = store_stats(database)
            report["retention_wait_s"] = round(time.monotonic() - started, 1)
        finally:
            server.terminate()
            server.wait(30)
    print(json.dumps(report, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
