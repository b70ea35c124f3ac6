"""Kill campaign (issue #30; docs/benchmarks.md, "Kill campaign"): one ``dixit serve`` on a
SQLite file, ``--games`` games at a time (3-4 seats: people and a computer player, every phase on
a ``--timer`` s timer, in every other game a person who never moves and lets the timer play),
SIGKILLed every 5-10 s ``--kills`` times, every client rejoining with ``hello`` + ``since`` and
resending its unanswered move with the same id. A finished game is replaced by a new one.

What is killed (``--kill``): ``worker``, the process serving (``dixit serve`` supervises one
worker by default and starts it again from its pre-imported fork server), or ``service``,
every process of the service at once (a crash of the machine's service, the OOM killer taking
the group), which the bench starts again at once. ``--workers N`` is passed to ``dixit
serve``; ``--workers 0 --kill service`` is the unsupervised single process.

First ``--baseline`` seconds without kills (games finished per minute), then the kills. Printed:
games finished per minute in each part; acknowledged game moves (clue, cards, vote) missing from
the store (must be 0); restart to ``/api/health`` answered by the new process (median, worst);
from health to the first move a timer or computer player made after the restart (the first
resumed room), median and worst. ``--stored-rooms N`` adds N finished rooms to the file first (a
restart must not read them). The machine's 1-minute load average is sampled at every kill (min,
median, max): on a shared machine the times are upper bounds. ``--restarts N`` only kills and
restarts the idle server N times (no games) for the restart-to-health figure; a worker is
killed after it has lived 5.5 s (one that dies younger is started again after a pause).

    .venv/bin/python bench/kills.py                       # 100 worker kills, ~20 minutes
    .venv/bin/python bench/kills.py --kills 40 --baseline 90 --kill service
    .venv/bin/python bench/kills.py --restarts 30 --kill worker   # restart to health only
    .venv/bin/python bench/kills.py --restarts 30 --kill service --workers 0
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib.util
import itertools
import json
import os
import random
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
ANY = "SELECT rowid FROM events WHERE rowid > ? LIMIT 1"
RESUMED = (
    "SELECT rowid FROM events WHERE rowid > ? AND (actor LIKE 'bot:%' OR actor LIKE 'timer:%')"
)


def _harness() -> Any:
    spec = importlib.util.spec_from_file_location("harness", ROOT / "tests/server/harness.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


h = _harness()


class Server:
    """``dixit serve`` on one SQLite file, in a process group of its own; :meth:`start` and
    :meth:`restart` answer the seconds until health."""

    def __init__(self, root: Path, bot_delay: float, kill: str, workers: int | None) -> None:
        self.root = root
        self.path = root / "dixit.sqlite3"
        self.port = h.free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.bot_delay = bot_delay
        self.what = kill  # "worker" or "service"
        self.extra = () if workers is None else ("--workers", str(workers))
        self.proc: subprocess.Popen[bytes] | None = None
        self.worker: int | None = None  # the pid that answered health last (supervised)
        self.killed_at = 0.0  # when the worker was killed (monotonic)
        self.health_cpu_s: list[float] = []  # CPU seconds of each start until health
        self.log = open(root / "server.log", "ab")  # noqa: SIM115 (kept open for the run)

    def cpu_s(self, pid: int | None = None) -> float:
        """CPU seconds (user and system) of process ``pid``, or of every process of the
        service now (on a shared machine a steadier figure than the wall time it took)."""
        assert self.proc is not None
        total = 0.0
        for entry in [str(pid)] if pid else os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if pid or int(stat[2]) == self.proc.pid:  # its process group
                total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def start(self) -> float:
        started = time.monotonic()
        self.proc = subprocess.Popen(
            [
                *(sys.executable, "-m", "dixit.cli.main", "serve", "--port", str(self.port)),
                *("--host", "127.0.0.1", "--database", f"sqlite:///{self.path}"),
                *("--data-dir", str(self.root / "data"), "--rate-limits", "off"),
                *("--bot-delay", str(self.bot_delay), "--log-level", "warning"),
                *("--client-dir", str(self.root / "no-client"), *self.extra),
            ],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the service, killed at once
        )
        return self._healthy(started, None)

    def _healthy(self, started: float, dead: int | None) -> float:
        """Seconds since ``started`` until health is answered (not by process ``dead``)."""
        while True:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/health", timeout=1) as answer:
                    tag = answer.headers.get("x-dixit-worker")
                    worker = int(tag.split(":")[1]) if tag else None
                    if answer.status == 200 and (worker is None or worker != dead):
                        elapsed = time.monotonic() - started
                        self.worker = worker
                        self.health_cpu_s.append(self.cpu_s(worker if dead else None))
                        return elapsed
            except OSError:
                time.sleep(0.01)

    def kill(self) -> None:
        """SIGKILL to every process of the service."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            h.gone(self.proc.pid)  # its worker too: the port is free
            self.proc = None

    def crash(self) -> None:
        """What ``--kill`` says dies: the worker (the supervisor stays) or the service."""
        if self.what == "worker":
            assert self.worker is not None, "--kill worker needs a supervised server"
            self.killed_at = time.monotonic()
            os.kill(self.worker, signal.SIGKILL)
            stat = Path(f"/proc/{self.worker}/stat")
            while stat.exists() and time.monotonic() - self.killed_at < 2:  # until reaped
                time.sleep(0.001)
        else:
            self.kill()

    def restart(self) -> float:
        """After :meth:`crash`: the seconds until health (a worker is started again by its
        supervisor, the service by the bench)."""
        if self.what == "worker":
            return self._healthy(self.killed_at, self.worker)
        return self.start()


@dataclass
class Tally:
    acked: set[tuple[str, str, str]] = field(default_factory=set)  # (room, seat, command id)
    finished: list[float] = field(default_factory=list)  # when each game ended (monotonic)
    refused: dict[str, int] = field(default_factory=dict)


class Seat:
    """One person's client: plays its legal moves at a quick person's pace (or never, when
    ``lazy``), reads each reveal, and after a lost connection rejoins and resends."""

    def __init__(self, server: Server, ticket: dict[str, Any], lazy: bool, rng: random.Random):
        self.client = h.Client(server.ws_base, ticket)
        self.lazy = lazy
        self.rng = rng
        self.pending: dict[str, Any] | None = None
        self.connected = False
        self.ids = itertools.count(1)

    @property
    def over(self) -> bool:
        view = self.client.view
        return view is not None and view["phase"] == "over"

    async def _connect(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.client.close()
            try:
                since = self.client.version if self.client.view is not None else None
                welcome = await self.client.connect(since=since)
                if welcome["type"] == "welcome":
                    self.connected = True
                    return
            except Exception:
                pass
            await asyncio.sleep(0.05)

    async def _command(self, tally: Tally, body: dict[str, Any]) -> None:
        body = dict(body)
        answer = await self.client.command(body.pop("type"), command_id=body.pop("id"), **body)
        if answer["type"] == "ack":
            if answer["id"].startswith("m"):  # a game move
                tally.acked.add((self.client.code, str(self.client.seat), answer["id"]))
        else:
            tally.refused[answer["code"]] = tally.refused.get(answer["code"], 0) + 1

    async def play(self, tally: Tally) -> None:
        while not self.over:
            try:
                if not self.connected:
                    await self._connect()
                    if self.pending is not None:
                        await self._command(tally, self.pending)  # same id: applied at most once
                        self.pending = None
                    if not self.lazy:
                        await self._command(tally, {"type": "here", "id": self._id("h")})
                await self._step(tally)
            except Exception:
                self.connected = False  # the server died: rejoin
                await asyncio.sleep(0.05)
        with contextlib.suppress(Exception):
            await self.client.close()

    def _id(self, kind: str) -> str:
        return f"{kind}{next(self.ids)}"

    async def _read_for(self, seconds: float) -> None:
        """Read what arrives for ``seconds`` (``drain`` waits for a quiet moment instead)."""
        end = time.monotonic() + seconds
        with contextlib.suppress(TimeoutError):
            while (left := end - time.monotonic()) > 0:
                await self.client.recv(left)

    async def _step(self, tally: Tally) -> None:
        room = self.client.room or {}
        reveal = room.get("reveal")
        if reveal and self.client.seat in reveal["waiting"]:
            seen = {"type": "reveal_seen", "id": self._id("r"), "round": reveal["round"]}
            await self._command(tally, seen)
            return
        move = None if self.lazy else self.client.legal_move(self.rng)
        if move is None or room.get("status") != "playing":
            await self._read_for(0.2)
            return
        await self._read_for(self.rng.uniform(0.3, 0.8))  # a quick person's pace
        move = self.client.legal_move(self.rng)  # the table may have moved meanwhile
        if move is None:
            return
        self.pending = {**move, "id": self._id("m")}
        await self._command(tally, self.pending)
        self.pending = None


async def _http(server: Server, call: Any, *args: Any) -> Any:
    """An HTTP call, tried again while the server is down."""
    while True:
        try:
            return await asyncio.to_thread(call, server.base, *args)
        except (OSError, AssertionError):
            await asyncio.sleep(0.1)


async def _game(server: Server, n: int, tally: Tally, timer: int, rounds: int) -> None:
    rng = random.Random(n)
    people = 2 + n % 2
    settings = {
        "bots": 1,
        "first_storyteller": "random",
        "max_rounds": rounds,
        "timers": {"clue": timer, "submit": timer, "vote": timer},
    }
    host = await _http(server, lambda base: h.create_room(base, "P1", **settings))
    tickets = [host]
    for i in range(2, people + 1):
        tickets.append(await _http(server, h.join_room, host["code"], f"P{i}"))
    seats = [
        Seat(server, t, lazy=n % 2 == 1 and i == people - 1, rng=rng) for i, t in enumerate(tickets)
    ]
    for seat in seats:
        await seat._connect()
    while True:  # the start, resent after a kill (a second start is refused: it started)
        with contextlib.suppress(Exception):
            answer = await seats[0].client.command("start_game", command_id="start")
            if answer["type"] == "ack" or answer.get("code") != "server/unavailable":
                break
        await seats[0]._connect()
    await asyncio.gather(*(seat.play(tally) for seat in seats))
    tally.finished.append(time.monotonic())


async def _games(
    server: Server, tally: Tally, args: argparse.Namespace, stop: asyncio.Event
) -> None:
    numbers = itertools.count(1)

    async def lane() -> None:
        while not stop.is_set():
            await _game(server, next(numbers), tally, args.timer, args.rounds)

    lanes = [asyncio.create_task(lane()) for _ in range(args.games)]
    await stop.wait()
    for task in lanes:
        task.cancel()
    await asyncio.gather(*lanes, return_exceptions=True)


def _max_rowid(path: Path) -> int:
    db = sqlite3.connect(path, timeout=30)
    try:
        return int(db.execute("SELECT coalesce(max(rowid), 0) FROM events").fetchone()[0])
    finally:
        db.close()


def _first_moves(path: Path, after: int, limit_s: float) -> tuple[float | None, float | None]:
    """Seconds from now until the first move of anyone, and of a timer or computer player (a
    resumed room), past rowid ``after``; None: not within ``limit_s``."""
    started = time.monotonic()
    first_any: float | None = None
    db = sqlite3.connect(path, timeout=30)
    try:
        while time.monotonic() - started < limit_s:
            if first_any is None and db.execute(ANY, (after,)).fetchone() is not None:
                first_any = time.monotonic() - started
            if db.execute(RESUMED + " LIMIT 1", (after,)).fetchone() is not None:
                return first_any, time.monotonic() - started
            time.sleep(0.01)
        return first_any, None
    finally:
        db.close()


def _seed_rooms(path: Path, count: int) -> None:
    db = sqlite3.connect(path, timeout=30)
    now = time.time()
    with db:
        db.executemany(
            "INSERT OR IGNORE INTO rooms (code, data, created, updated, version) "
            "VALUES (?, ?, ?, ?, 1)",
            (
                (
                    code,
                    json.dumps({"code": code, "seed": i, "settings": {}, "status": "over"}),
                    now,
                    now,
                )
                for i in range(count)
                for code in [f"Z{i:07d}"]
            ),
        )
    db.close()


def _lost(path: Path, acked: set[tuple[str, str, str]]) -> int:
    db = sqlite3.connect(path, timeout=30)
    try:
        rows = db.execute(
            "SELECT stream, actor, command_id FROM events WHERE command_id IS NOT NULL"
        )
        stored = {(stream.split(":")[0], actor, cid) for stream, actor, cid in rows}
    finally:
        db.close()
    return len(acked - stored)


def _per_minute(finished: list[float], start: float, end: float) -> float:
    return sum(start <= t < end for t in finished) / ((end - start) / 60)


def _s(values: list[float]) -> str:
    return f"median {statistics.median(values):.2f} s, worst {max(values):.2f} s"


def _spread(values: list[float]) -> dict[str, float] | None:
    if not values:
        return None
    return {"min": min(values), "median": statistics.median(values), "max": max(values)}


async def campaign(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(tempfile.mkdtemp(prefix="dixit-bench-kills-"))
    server = Server(root, args.bot_delay, args.kill, args.workers)
    try:
        server.start()
        if args.stored_rooms:
            _seed_rooms(server.path, args.stored_rooms)
            server.kill()
            server.start()
        if args.kill == "worker" and server.worker is None:
            raise SystemExit("--kill worker: the server runs no supervised worker (--workers 0)")
        if args.restarts:
            return await asyncio.to_thread(_restarts, server, args.restarts)
        return await _run(server, args)
    finally:
        server.kill()  # also when the bench is stopped


def _restarts(server: Server, count: int) -> dict[str, Any]:
    """Kill the idle server (``--kill``) and restart it ``count`` times: the seconds until
    health. A worker is killed once it has lived 5.5 s: one that dies younger than 5 s is
    started again after a pause (``dixit.infra.workers.STEADY_S``), not at once."""
    times: list[float] = []
    load: list[float] = []
    server.health_cpu_s.clear()
    for _ in range(count):
        time.sleep(5.5 if server.what == "worker" else 0.5)
        load.append(os.getloadavg()[0])
        server.crash()
        times.append(server.restart())
    cpu = server.health_cpu_s
    print(
        f"restart to health ({count} restarts, --kill {server.what}): {_s(times)}; "
        f"its CPU time: {_s(cpu)}"
    )
    return {
        "kill": server.what,
        "restarts": count,
        "restart_to_health_s": _spread(times),
        "restart_to_health_cpu_s": _spread(cpu),
        "load_1min": _spread(load),
    }


async def _run(server: Server, args: argparse.Namespace) -> dict[str, Any]:
    tally = Tally()
    stop = asyncio.Event()
    games = asyncio.create_task(_games(server, tally, args, stop))
    rng = random.Random(30)
    begun = time.monotonic()
    cpu_begun = server.cpu_s()
    await asyncio.sleep(args.baseline)
    killing = time.monotonic()
    cpu_killing = mark = server.cpu_s()
    killed_cpu = 0.0  # CPU seconds of the service's processes during the kills
    restarts: list[float] = []
    resumed: list[float] = []
    moved: list[float] = []  # health to the first move of anyone
    never = 0
    load = [os.getloadavg()[0]]
    server.health_cpu_s.clear()
    for n in range(args.kills):
        pause = rng.uniform(5.0, 10.0)  # from health to the next kill
        before = await asyncio.to_thread(_max_rowid, server.path)
        load.append(os.getloadavg()[0])
        killed_cpu += server.cpu_s() - mark
        server.crash()
        mark = server.cpu_s() if server.what == "worker" else 0.0  # what survived the kill
        restarts.append(await asyncio.to_thread(server.restart))
        probe = asyncio.to_thread(_first_moves, server.path, before, min(4.5, pause))
        (anyone, first), _ = await asyncio.gather(probe, asyncio.sleep(pause))
        if anyone is not None:
            moved.append(anyone)
        if first is None:
            never += 1
        else:
            resumed.append(first)
        print(
            f"kill {n + 1}: health {restarts[-1]:.2f} s, first resumed move "
            f"{'-' if first is None else f'{first:.2f} s'} (of anyone "
            f"{'-' if anyone is None else f'{anyone:.2f} s'}), "
            f"games finished {len(tally.finished)}",
            flush=True,
        )
    ended = time.monotonic()
    killed_cpu += server.cpu_s() - mark
    stop.set()
    await games
    server.kill()
    result = {
        "kill": args.kill,
        "games": args.games,
        "kills": args.kills,
        "stored_rooms": args.stored_rooms,
        "baseline_games_per_min": round(_per_minute(tally.finished, begun, killing), 2),
        "killed_games_per_min": round(_per_minute(tally.finished, killing, ended), 2),
        "games_finished": len(tally.finished),
        # The server's CPU seconds per second of the run (1.0: one core busy all the time),
        # restarts included during the kills.
        "baseline_server_cpu_per_s": round((cpu_killing - cpu_begun) / (killing - begun), 3),
        "killed_server_cpu_per_s": round(killed_cpu / (ended - killing), 3),
        "acked_moves": len(tally.acked),
        "lost_acked_moves": await asyncio.to_thread(_lost, server.path, tally.acked),
        "restart_to_health_s": (
            {"median": statistics.median(restarts), "worst": max(restarts)} if restarts else None
        ),
        "restart_to_health_cpu_s": _spread(server.health_cpu_s),
        "health_to_first_resumed_move_s": (
            {"median": statistics.median(resumed), "worst": max(resumed)} if resumed else None
        ),
        "restarts_without_a_resumed_move_in_4_5_s": never,
        "health_to_first_move_of_anyone_s": (
            {"median": statistics.median(moved), "worst": max(moved)} if moved else None
        ),
        "refused": tally.refused,
        "load_1min": _spread(load),
    }
    print(
        f"games per minute: {result['baseline_games_per_min']} without kills, "
        f"{result['killed_games_per_min']} during {args.kills} kills"
    )
    print(
        f"server CPU seconds a second: {result['baseline_server_cpu_per_s']} without kills, "
        f"{result['killed_server_cpu_per_s']} during the kills"
    )
    print(f"acknowledged game moves: {len(tally.acked)}, lost: {result['lost_acked_moves']}")
    if restarts:
        print(f"restart to health: {_s(restarts)}; its CPU time: {_s(server.health_cpu_s)}")
    if resumed:
        print(f"health to the first resumed move: {_s(resumed)} (none within 4.5 s: {never})")
    if moved:
        print(f"health to the first move of anyone: {_s(moved)}")
    print(f"1-minute load average at the kills: {result['load_1min']}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=100)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--baseline", type=float, default=180.0, help="seconds without kills")
    parser.add_argument("--timer", type=int, default=3, help="seconds of every phase timer")
    parser.add_argument("--rounds", type=int, default=2, help="rounds a game lasts")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="computer players' pace")
    parser.add_argument("--stored-rooms", type=int, default=100_000)
    parser.add_argument("--restarts", type=int, default=0, help="only restart the idle server")
    parser.add_argument(
        "--kill",
        choices=("worker", "service"),
        default="worker",
        help="kill the serving worker (its supervisor starts it again) or every process of "
        "the service (the bench starts it again) (default: worker)",
    )
    parser.add_argument(
        "--workers", type=int, default=None, help="dixit serve --workers N (default: its own)"
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = asyncio.run(campaign(args))
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
