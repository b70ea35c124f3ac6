"""Server load: N concurrent games of bot-driven players over real WebSockets on loopback.

Starts ``dixit serve`` (SQLite in a temporary directory, unless ``--url`` names a running
server), seats ``--players`` socket clients in each of ``--games`` rooms, and lets every client
play random legal moves from its own view after a think time. Games start spread over
``--ramp`` seconds; after ``--warmup`` more seconds the measurement runs for ``--duration``.
Each client says hello as the web client does (views with only the latest revealed round);
``--rounds all`` asks for every round in every view, as a client keeping the history would.

Prints actions per second, command→broadcast latency (from sending a command until every
player of the room has received the update it caused: p50, p99, max), and the server's CPU and
memory: resident memory when it has just started, once every socket is seated, and at the end;
memory per live game is (end - just started) / games. The fan-out per action: the messages
and their bytes (WebSocket payloads) every client received in the window, divided by the moves
sent in it. Bounded: it stops by itself after the warm-up and the measured window.

``--players`` takes one count or several: with several (``--players 6 12``) each runs in turn
against a fresh server, same settings, and the figures are printed side by side, one column per
table size. ``--edition odyssey`` allows up to 12 seats (two votes from 7); ``--mode party`` or
``teams`` plays those modes (the clients follow ``legal``: a party void, an optional second vote;
in team play both partners may move for their team, and the slower one's move is refused, which
``rejected`` counts).

With ``--workers N`` the server is ``dixit serve --workers N``: its CPU is that of all its
processes (supervisor with the fan-out broker, fork server, workers), its memory summed over
the workers (resident, and proportional: forked pages shared between workers counted once).

    .venv/bin/python bench/load.py --games 100 --duration 30
    .venv/bin/python bench/load.py --games 1000 --workers 2 --duration 20
    .venv/bin/python bench/load.py --games 100 --edition odyssey --players 6 12
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import hashlib
import json
import os
import random
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import orjson

try:  # the client's own CPU competes with the server's on the same machine: keep it light
    import uvloop
except ImportError:  # pragma: no cover
    uvloop = None  # type: ignore[assignment]

HOST = "127.0.0.1"


def dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


@dataclass(frozen=True)
class ProcStats:
    cpu_s: float  # user + kernel
    kernel_s: float
    rss: int  # bytes
    parent: int


def proc_stats(pid: int) -> ProcStats:
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    cpu = (int(parts[11]) + int(parts[12])) / ticks
    rss = int(parts[21]) * os.sysconf("SC_PAGE_SIZE")
    return ProcStats(cpu, int(parts[12]) / ticks, rss, int(parts[1]))


def pss_bytes(pid: int) -> int:
    """Proportional set size: the process's share of memory pages (shared pages, as the
    workers' forked code, divided between the processes that map them)."""
    with open(f"/proc/{pid}/smaps_rollup") as f:
        for line in f:
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


class Server:
    """The started server's processes: with ``--workers N``, the supervisor (which also runs
    the fan-out broker), its fork server and the N workers (the fork server's children)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid

    def tree(self) -> dict[int, ProcStats]:
        """The supervisor and every process below it, now."""
        found: dict[int, ProcStats] = {}
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError, IndexError):  # gone meanwhile
                    found[int(entry)] = proc_stats(int(entry))
        tree = {self.pid: found[self.pid]} if self.pid in found else {}
        grew = True
        while grew:
            below = {p: s for p, s in found.items() if s.parent in tree and p not in tree}
            tree.update(below)
            grew = bool(below)
        return tree

    def workers(self, tree: dict[int, ProcStats]) -> list[int]:
        """The processes serving sockets: those two levels below the supervisor, or the
        supervisor itself when it serves alone."""
        deep = [p for p, s in tree.items() if p != self.pid and s.parent != self.pid]
        return deep or [self.pid]

    def worker_memory(self) -> tuple[int, int]:
        """(resident bytes, proportional set size) summed over the workers."""
        tree = self.tree()
        rss = pss = 0
        for pid in self.workers(tree):
            rss += tree[pid].rss
            with contextlib.suppress(OSError):
                pss += pss_bytes(pid)
        return rss, pss


def http_post(base: str, path: str, body: Any = None) -> dict[str, Any]:
    data = json.dumps(body if body is not None else {}).encode()
    request = urllib.request.Request(
        base + path, data=data, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        result: dict[str, Any] = json.loads(answer.read())
        return result


WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class WSClient(asyncio.Protocol):
    """A minimal WebSocket client (RFC 6455): text frames out (masked), text, ping and close
    frames in, one callback per message. The load test's thousands of sockets share the
    server's cores; a general-purpose client library (a task and a queue per socket) cost
    about twice the CPU per message."""

    def __init__(self, host: str, path: str, on_text: Any) -> None:
        self.host, self.path, self.on_text = host, path, on_text
        self.transport: asyncio.Transport | None = None
        self.key = base64.b64encode(random.randbytes(16)).decode()
        self.opened: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.buf = bytearray()
        self.fragments: list[bytes] = []
        self.handshaken = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport = cast(asyncio.Transport, transport)
        transport.write(
            f"GET {self.path} HTTP/1.1\r\nHost: {self.host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def connection_lost(self, exc: Exception | None) -> None:
        for future in (self.opened, self.closed):
            if not future.done():
                future.set_result(None)

    def data_received(self, data: bytes) -> None:
        buf = self.buf
        buf += data
        if not self.handshaken:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buf[:end])
            del buf[: end + 4]
            accept = base64.b64encode(hashlib.sha1(self.key.encode() + WS_GUID).digest())
            if not head.startswith(b"HTTP/1.1 101") or accept not in head:
                raise ConnectionError(f"WebSocket handshake refused: {head[:200]!r}")
            self.handshaken = True
            self.opened.set_result(None)
        pos, n = 0, len(buf)
        while n - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            length, start = b1 & 0x7F, pos + 2
            if length == 126:
                if n - pos < 4:
                    break
                length, start = int.from_bytes(buf[pos + 2 : pos + 4], "big"), pos + 4
            elif length == 127:
                if n - pos < 10:
                    break
                length, start = int.from_bytes(buf[pos + 2 : pos + 10], "big"), pos + 10
            if b1 & 0x80:
                raise ConnectionError("a server frame must not be masked")
            if n - start < length:
                break
            payload = bytes(buf[start : start + length])
            pos = start + length
            opcode = b0 & 0x0F
            if opcode in (0, 1, 2):
                if not b0 & 0x80:  # a fragment: more follow
                    self.fragments.append(payload)
                    continue
                if self.fragments:
                    payload = b"".join([*self.fragments, payload])
                    self.fragments.clear()
                self.on_text(payload)
            elif opcode == 9:  # ping
                self._send_frame(0xA, payload)
            elif opcode == 8:  # close: answer and hang up
                self._send_frame(0x8, payload[:2])
                if self.transport is not None:
                    self.transport.close()
                break
        del buf[:pos]

    def send_text(self, text: str) -> None:
        self._send_frame(0x1, text.encode())

    def close(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self._send_frame(0x8, (1000).to_bytes(2, "big"))
            self.transport.close()

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        if self.transport is None or self.transport.is_closing():
            return
        n = len(payload)
        if n < 126:
            header = bytes((0x80 | opcode, 0x80 | n))
        elif n < 65536:
            header = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
        else:
            header = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
        mask = random.randbytes(4)
        keys = (mask * (n // 4 + 1))[:n]
        masked = (int.from_bytes(payload, "little") ^ int.from_bytes(keys, "little")).to_bytes(
            n, "little"
        )
        self.transport.write(header + mask + masked)


@dataclass
class Stats:
    measuring: bool = False
    actions: int = 0
    rejected: int = 0
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    games_finished: int = 0
    rejected_codes: dict[str, int] = field(default_factory=dict)
    messages_in: int = 0  # every client's, in the window: the server's fan-out
    bytes_in: int = 0


@dataclass
class Table:
    """One room: its players' receive times per game version, to time each broadcast."""

    code: str
    players: list[Player] = field(default_factory=list)
    pending: dict[int, float] = field(default_factory=dict)  # version -> command sent at
    seen: dict[int, int] = field(default_factory=dict)  # version -> players who have it


class Player:
    def __init__(
        self, base_ws: str, ticket: dict[str, Any], table: Table, think: float, rounds: str
    ) -> None:
        self.url = f"{base_ws}/ws/{ticket['code']}"
        self.token = ticket["token"]
        self.rounds = rounds
        self.table = table
        self.think = think
        self.ws: WSClient | None = None
        self.view: dict[str, Any] | None = None
        self.acting = False
        self.rng = random.Random()
        self.sent: dict[str, float] = {}
        self.welcomed = asyncio.Event()

    async def run(self, stats: Stats, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        host, _, port = self.url.split("/")[2].partition(":")
        path = "/" + self.url.split("/", 3)[3]
        client = WSClient(f"{host}:{port}", path, lambda text: self._receive(text, stats))
        await asyncio.wait_for(loop.create_connection(lambda: client, host, int(port)), 60)
        await asyncio.wait_for(client.opened, 60)
        self.ws = client
        client.send_text(dumps({"type": "hello", "token": self.token, "rounds": self.rounds}))
        await stop.wait()
        client.close()

    def _receive(self, text: bytes, stats: Stats) -> None:
        """Every message of this socket, as it arrives."""
        if stats.measuring:
            stats.messages_in += 1
            stats.bytes_in += len(text)
        message = orjson.loads(text)
        kind = message["type"]
        if kind == "welcome":
            self.welcomed.set()
            if message["game"]:
                self._on_view(message["game"]["view"], stats)
        elif kind == "game":
            self._on_view(message["view"], stats)
        elif kind == "ack":
            sent = self.sent.pop(message["id"], None)
            if sent is None:  # start_game, rematch: not a move of this player
                return
            self.table.pending[message["version"]] = sent
            self._settle(message["version"], stats)
            self.acting = False
            self._maybe_act(stats)
        elif kind == "error":
            stats.rejected += 1
            code = message.get("code", "?")
            stats.rejected_codes[code] = stats.rejected_codes.get(code, 0) + 1
            if self.sent.pop(message.get("id") or "", None) is not None:
                self.acting = False
                self._maybe_act(stats)

    def _on_view(self, view: dict[str, Any], stats: Stats) -> None:
        self.view = view
        if view["phase"] == "over" and self is self.table.players[0]:
            self._rematch(stats)
            return
        version = view["version"]
        self.table.seen[version] = self.table.seen.get(version, 0) + 1
        self._settle(version, stats)
        self._maybe_act(stats)

    def _rematch(self, stats: Stats) -> None:
        """The host starts the next game in the same room (load stays steady)."""
        assert self.ws is not None
        stats.games_finished += 1
        self.table.pending.clear()
        self.table.seen.clear()
        for kind in ("rematch", "start_game"):
            body = dumps({"type": kind, "id": f"{kind}-{self.rng.getrandbits(64):x}"})
            self.ws.send_text(body)

    def _settle(self, version: int, stats: Stats) -> None:
        """A broadcast is complete when every player of the room has the version."""
        table = self.table
        if table.seen.get(version, 0) >= len(table.players) and version in table.pending:
            sent = table.pending.pop(version)
            table.seen.pop(version, None)
            if stats.measuring:
                stats.latencies.append(time.perf_counter() - sent)

    def _maybe_act(self, stats: Stats) -> None:
        if self.acting or self.view is None:
            return
        legal = self.view["legal"]
        if not (legal["give_clue"] or legal["submit"] or legal["vote"] or legal.get("void")):
            return
        self.acting = True
        asyncio.get_running_loop().call_later(
            self.rng.uniform(0.5, 1.5) * self.think, self._act, stats
        )

    def _act(self, stats: Stats) -> None:
        view = self.view
        if view is None or self.ws is None:
            self.acting = False
            return
        legal, rng = view["legal"], self.rng
        if legal["give_clue"]:
            move = {"type": "give_clue", "card": rng.choice(legal["give_clue"]), "clue": "a tale"}
        elif legal["submit"]:
            move = {
                "type": "submit_cards",
                "cards": rng.sample(legal["submit"], legal["submit_count"]),
            }
        elif legal.get("void"):  # party play: the storyteller voids a card before the vote
            move = {"type": "void_card", "card": rng.choice(legal["void"])}
        elif legal["vote"]:
            votes = rng.sample(legal["vote"], min(len(legal["vote"]), 2))
            move = {"type": "cast_vote", "card": votes[0]}
            if legal.get("vote_count") == 2 and len(votes) == 2 and rng.random() < 0.5:
                move["second"] = votes[1]  # the optional second vote, half the time
        else:
            self.acting = False
            return
        cid = f"{rng.getrandbits(64):x}"
        move["id"] = cid
        self.sent[cid] = time.perf_counter()
        if stats.measuring:
            stats.actions += 1
        self.ws.send_text(dumps(move))


async def seat_tables(base: str, ws_base: str, args: argparse.Namespace) -> list[Table]:
    games, players, think = args.games, args.players, args.think
    loop = asyncio.get_running_loop()
    settings = {"first_storyteller": "random", "edition": args.edition}
    if args.mode != "standard":  # only then: a server from before the modes still answers
        settings["mode"] = args.mode

    def seat_one(_: int) -> Table:
        host = http_post(base, "/api/rooms", {"name": "Host", "settings": settings})
        table = Table(host["code"])
        tickets = [host] + [
            http_post(base, f"/api/rooms/{host['code']}/join", {"name": f"P{i}"})
            for i in range(1, players)
        ]
        table.players = [Player(ws_base, t, table, think, args.rounds) for t in tickets]
        return table

    sem = asyncio.Semaphore(32)

    async def limited(i: int) -> Table:
        async with sem:
            return await loop.run_in_executor(None, seat_one, i)

    return list(await asyncio.gather(*(limited(i) for i in range(games))))


def server_gc(base: str) -> dict[str, float] | None:
    """The server's garbage-collector samples from /metrics (None: a server without them)."""
    try:
        with urllib.request.urlopen(f"{base}/metrics", timeout=10) as answer:
            text = answer.read().decode()
    except OSError:
        return None
    samples = {}
    for line in text.splitlines():
        if line.startswith("dixit_gc_pause"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def gc_in_window(before: dict[str, float] | None, after: dict[str, float] | None) -> dict[str, Any]:
    """Server collector passes during the measured window, from two /metrics scrapes: count and
    total pause by generation, how many lasted over 50 and 100 ms; the longest since start."""
    if before is None or after is None:
        return {"server_gc": None}

    def delta(key: str) -> float:
        return after.get(key, 0.0) - before.get(key, 0.0)

    report: dict[str, Any] = {}
    for gen in ("0", "1", "2"):
        label = f'generation="{gen}"'
        count = delta(f"dixit_gc_pause_seconds_count{{{label}}}")
        report[f"server_gc{gen}_passes"] = int(count)
        report[f"server_gc{gen}_pause_ms_total"] = round(
            1000 * delta(f"dixit_gc_pause_seconds_sum{{{label}}}"), 1
        )
        for bound, name in (("0.05", "over_50ms"), ("0.1", "over_100ms")):
            under = delta(f'dixit_gc_pause_seconds_bucket{{{label},le="{bound}"}}')
            report[f"server_gc{gen}_{name}"] = int(count - under)
    report["server_gc_pause_ms_max_since_start"] = round(
        1000 * after.get("dixit_gc_pause_max_seconds", 0.0), 1
    )
    return report


def cpu_between(before: dict[int, ProcStats], after: dict[int, ProcStats]) -> tuple[float, float]:
    """(CPU seconds, of them in the kernel) the processes used between two snapshots (one
    started meanwhile counts whole; one that ended meanwhile is missed)."""
    cpu = kernel = 0.0
    for pid, now in after.items():
        then = before.get(pid)
        cpu += now.cpu_s - (then.cpu_s if then else 0.0)
        kernel += now.kernel_s - (then.kernel_s if then else 0.0)
    return cpu, kernel


async def settled_memory(server: Server, most_s: float = 10.0) -> int:
    """The server's resident memory once start-up has settled: after ``/api/health`` it still
    imports the computer players (numpy, 7-9 MiB) in the background, which a reading taken at
    once may or may not include, and would then count as the games' memory."""
    end = time.monotonic() + most_s
    last, _ = server.worker_memory()
    while time.monotonic() < end:
        await asyncio.sleep(0.5)
        now, _ = server.worker_memory()
        if abs(now - last) < 256 * 1024:
            return now
        last = now
    return last


async def run(args: argparse.Namespace, base: str, server: Server | None) -> dict[str, Any]:
    ws_base = base.replace("http://", "ws://")
    t0 = time.perf_counter()
    rss_empty = await settled_memory(server) if server else 0
    tables = await seat_tables(base, ws_base, args)
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    for table in tables:
        for player in table.players:
            tasks.append(asyncio.create_task(player.run(stats, stop)))
    everyone = [p.welcomed.wait() for t in tables for p in t.players]
    await asyncio.wait_for(asyncio.gather(*everyone), timeout=300)
    setup_s = time.perf_counter() - t0
    rss_seated, _ = server.worker_memory() if server else (0, 0)
    # The client's own garbage-collector pauses (0.1-0.3 s at 4,000 sockets) would be counted
    # as server latency: its sockets and tables live to the end, and it collects nothing
    # while it measures.
    gc.collect()
    gc.freeze()

    async def start(table: Table, delay: float) -> None:
        await asyncio.sleep(delay)  # games start spread over the ramp, as real ones do
        host = table.players[0]
        if host.ws is not None:
            host.ws.send_text(dumps({"type": "start_game", "id": "start"}))

    await asyncio.gather(*(start(t, args.ramp * i / len(tables)) for i, t in enumerate(tables)))
    await asyncio.sleep(args.warmup)
    load0 = os.getloadavg()[0]
    tree0 = server.tree() if server else {}
    # With several workers each scrape of /metrics reaches one of them: no collector report.
    gc0 = await asyncio.to_thread(server_gc, base) if args.workers == 1 else None
    client0 = time.process_time()
    gc.disable()
    stats.measuring = True
    m0 = time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    gc.enable()
    window = time.perf_counter() - m0
    tree1 = server.tree() if server else {}
    client_cpu = time.process_time() - client0
    rss, pss = server.worker_memory() if server else (0, 0)
    gc1 = await asyncio.to_thread(server_gc, base) if args.workers == 1 else None
    cpu, kernel = cpu_between(tree0, tree1)
    pid = server.pid if server else None
    supervisor_cpu = cpu_between({pid: tree0[pid]}, {pid: tree1[pid]})[0] if pid else 0.0
    stop.set()
    await asyncio.wait(tasks, timeout=30)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] * 1000 if lat else float("nan")

    return {
        "games": args.games,
        "players_per_game": args.players,
        "edition": args.edition + ("" if args.mode == "standard" else f" {args.mode}"),
        "connections": args.games * args.players,
        "think_s": args.think,
        "rounds": args.rounds,
        "ramp_s": args.ramp,
        "setup_s": round(setup_s, 1),
        "window_s": round(window, 1),
        "actions": stats.actions,
        "actions_per_s": round(stats.actions / window, 1),
        "broadcasts_timed": len(lat),
        "latency_ms_p50": round(pct(0.50), 1),
        "latency_ms_p99": round(pct(0.99), 1),
        "latency_ms_max": round(lat[-1] * 1000, 1) if lat else None,
        "latency_ms_mean": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "messages_out_per_action": (
            round(stats.messages_in / stats.actions, 1) if stats.actions else None
        ),
        "kib_out_per_action": (
            round(stats.bytes_in / stats.actions / 1024, 1) if stats.actions else None
        ),
        "rejected": stats.rejected,
        "rejected_codes": stats.rejected_codes,
        "games_finished": stats.games_finished,
        "server_workers": args.workers,
        "server_processes": len(tree1) if pid else None,
        "server_cpu_percent": round(100 * cpu / window, 1) if pid else None,
        "server_cpu_percent_supervisor": (
            round(100 * supervisor_cpu / window, 1) if pid and args.workers > 1 else None
        ),
        "server_cpu_ms_per_action": (
            round(1000 * cpu / stats.actions, 2) if pid and stats.actions else None
        ),
        "server_cpu_kernel_share": round(kernel / cpu, 2) if cpu > 0 else None,
        "server_rss_mib": round(rss / 2**20, 1) if pid else None,
        "server_pss_mib": round(pss / 2**20, 1) if pid else None,
        "server_rss_mib_empty": round(rss_empty / 2**20, 1) if pid else None,
        "server_rss_mib_seated": round(rss_seated / 2**20, 1) if pid else None,
        "server_kib_per_live_game": (
            round((rss - rss_empty) / args.games / 1024, 1) if pid else None
        ),
        "client_cpu_percent": round(100 * client_cpu / window, 1),
        "load_average_1m": f"{load0:.1f} -> {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)",
        **gc_in_window(gc0, gc1),
    }


def wait_until_serving(base: str, server: Server, workers: int) -> None:
    """Until the server answers and all its workers run (or 30 s)."""
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{base}/api/health", timeout=1).close()
            if workers == 1 or len(server.workers(server.tree())) >= workers:
                return
        except OSError:
            pass
        time.sleep(0.1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--players",
        type=int,
        nargs="+",
        default=[4],
        help="seats per room; several (6 12): one run each, printed side by side",
    )
    parser.add_argument("--edition", default="classic", choices=["classic", "2021", "odyssey"])
    parser.add_argument("--mode", default="standard", choices=["standard", "party", "teams"])
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds before a move")
    parser.add_argument(
        "--rounds",
        default="last",
        choices=["last", "all"],
        help="revealed rounds in each view (hello.rounds): the latest, as the web client asks, "
        "or all",
    )
    parser.add_argument("--duration", type=float, default=30.0, help="measured seconds")
    parser.add_argument("--ramp", type=float, default=10.0, help="seconds over which games start")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds after the ramp")
    parser.add_argument("--url", help="a running server (default: start one on 127.0.0.1)")
    parser.add_argument("--database", help="event store URL for the started server")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (dixit serve --workers N)"
    )
    parser.add_argument("--json", action="store_true", help="print the result as JSON only")
    parser.add_argument(
        "--uvloop",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="run the bench client on uvloop (default: on, when installed)",
    )
    args = parser.parse_args()
    if args.url and not args.url.startswith(("http://127.", "http://localhost", "http://[::1]")):
        parser.error("load tests only target this machine (127.0.0.1, localhost, ::1)")

    if args.url and args.workers != 1:
        parser.error("--workers applies to the server the bench starts, not to --url")
    # Every socket is a descriptor here and one in the server: the soft limit up to the hard
    # one, here and (inherited) in the server's processes.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if hard < args.games * max(args.players) + 100:
        print(f"warning: {hard} descriptors at most per process", file=sys.stderr)

    results = [measure(argparse.Namespace(**{**vars(args), "players": n})) for n in args.players]
    if args.json:
        print(json.dumps(results[0] if len(results) == 1 else results))
    else:
        width = max(len(k) for k in results[0])
        column = 2 + max(len(str(v)) for r in results for v in r.values())
        for key in results[0]:
            values = "".join(f"{r.get(key)!s:<{column}}" for r in results)
            print(f"{key:<{width}}  {values}".rstrip())
    return 0


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """One run at ``args.players`` seats a room: a server of its own (unless ``--url``)."""
    server: subprocess.Popen[bytes] | None = None
    with tempfile.TemporaryDirectory(prefix="dixit-load-") as tmp:
        if args.url:
            base = args.url.rstrip("/")
        else:
            port = free_port()
            base = f"http://{HOST}:{port}"
            database = args.database or f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
            server = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "dixit.cli.main",
                    "serve",
                    "--rate-limits",
                    "off",
                    "--host",
                    HOST,
                    "--port",
                    str(port),
                    "--database",
                    database,
                    "--bot-delay",
                    "0",
                    "--max-rooms",
                    str(args.games + 100),
                    "--log-level",
                    "warning",
                    "--client-dir",
                    str(Path(tmp) / "none"),
                    *(["--workers", str(args.workers)] if args.workers > 1 else []),
                ],
                env=dict(os.environ, DIXIT_DATA_DIR=str(Path(tmp) / "data")),
            )
            wait_until_serving(base, Server(server.pid), args.workers)
        try:
            coro = run(args, base, Server(server.pid) if server else None)
            return uvloop.run(coro) if uvloop is not None and args.uvloop else asyncio.run(coro)
        finally:
            if server is not None:
                server.send_signal(signal.SIGTERM)
                try:
                    server.wait(30)
                except subprocess.TimeoutExpired:
                    server.kill()


if __name__ == "__main__":
    sys.exit(main())
