"""Fault timings of the storage and fan-out layers, and the cost of the metrics probes
(docs/benchmarks.md, "Faults and operations").

    .venv/bin/python bench/faults.py redis      # listener back after a Redis restart
    .venv/bin/python bench/faults.py postgres   # first write after a PostgreSQL restart
    .venv/bin/python bench/faults.py sqlite     # writes and the event loop while a lock is held
    .venv/bin/python bench/faults.py health     # /api/health while an outside writer holds it
    .venv/bin/python bench/faults.py probes     # what /metrics costs per store call
    .venv/bin/python bench/faults.py ready      # /api/health/ready with each dependency down

PostgreSQL and Redis are servers of the bench's own (tests/ops/services.py), on free ports.
``--runs N`` repeats each measurement. Run another build's code with
``PYTHONPATH=/other/checkout/src`` (what it lacks is reported as not measured).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import importlib.util
import itertools
import json
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def _services() -> Any:
    spec = importlib.util.spec_from_file_location("services", ROOT / "tests/ops/services.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def _summary(name: str, values: list[float]) -> dict[str, Any]:
    line = f"{name}: median {_ms(statistics.median(values))}, max {_ms(max(values))}"
    print(f"{line}  ({len(values)} runs)")
    return {"name": name, "median_s": statistics.median(values), "max_s": max(values)}


async def _redis(runs: int) -> list[float]:
    from dixit.pubsub.redis import RedisPubSub

    s = _services()
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        server = s.OwnRedis(Path(tmp))
        server.start()
        bus = RedisPubSub(server.url)
        await bus.open()
        sub = await bus.subscribe("dixit:room:X")
        for _ in range(runs):
            server.stop()
            while bus.connected:
                await asyncio.sleep(0.01)
            await asyncio.sleep(3.0)  # down 3 s, as in the report
            server.start()  # returns once the port accepts
            back = time.perf_counter()
            await asyncio.wait_for(sub.get(), 30)  # the gap report
            times.append(time.perf_counter() - back)
        await bus.close()
        server.stop()
    return times


async def _postgres(runs: int) -> list[float]:
    from dixit.storage import StorageError
    from dixit.storage.postgres import PostgresEventStore

    s = _services()
    server = s.OwnPostgres()
    times = []
    streams = (f"B:{n}" for n in itertools.count())  # a new stream per write: never a conflict
    try:
        server.start()
        store = PostgresEventStore(server.url)
        await store.open()
        for run in range(runs):
            server.stop()
            await asyncio.sleep(3.0)
            for _ in range(3):  # the process keeps trying while it is down
                with contextlib.suppress(StorageError):
                    await store.append(next(streams), 0, [{"run": run}])
            await asyncio.to_thread(server.start)
            back = time.perf_counter()
            while True:
                try:
                    await store.append(next(streams), 0, [{"run": run}])
                    break
                except StorageError:
                    await asyncio.sleep(0.005)
            times.append(time.perf_counter() - back)
        await store.close()
    finally:
        server.destroy()
    return times


async def _sqlite(hold_s: float) -> dict[str, Any]:
    """Append latency and the event loop's longest stall, normally and with a lock held."""
    from dixit.storage import SQLiteEventStore

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        store = SQLiteEventStore(path)
        await store.open()
        ticks: list[float] = []
        ticking = True

        async def ticker() -> None:
            while ticking:
                ticks.append(time.perf_counter())
                await asyncio.sleep(0.001)
            ticks.append(time.perf_counter())

        def longest_stall(since: float) -> float:
            first = bisect.bisect_left(ticks, since)
            marks = [since, *ticks[first:]]  # from the moment the measured call began
            return max((b - a for a, b in itertools.pairwise(marks)), default=0.0)

        tick = asyncio.create_task(ticker())
        await asyncio.sleep(0.01)
        begun = time.perf_counter()
        free = []
        for n in range(500):
            started = time.perf_counter()
            await store.append("S:1", n, [{"n": n}])
            free.append(time.perf_counter() - started)
        free.sort()
        free_stall = longest_stall(begun)

        outside = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        outside.execute("BEGIN IMMEDIATE")
        threading.Timer(hold_s, lambda: outside.execute("COMMIT")).start()
        started = time.perf_counter()
        result: str
        try:
            await store.append("S:1", 500, [{"n": 500}])
            result = "written"
        except Exception as error:
            result = f"{type(error).__name__}: {error}"
        held = time.perf_counter() - started
        ticking = False
        await tick
        stall = longest_stall(started)
        await asyncio.sleep(hold_s)
        outside.close()
        await store.close()
    report = {
        "append_p50_s": free[len(free) // 2],
        "append_p99_s": free[int(len(free) * 0.99)],
        "loop_stall_free_s": free_stall,
        "lock_held_s": hold_s,
        "append_with_lock_held_s": held,
        "append_with_lock_held": result,
        "loop_stall_with_lock_held_s": stall,
    }
    print(
        f"append free: p50 {free[len(free) // 2] * 1e6:.0f} µs, p99 "
        f"{free[int(len(free) * 0.99)] * 1e6:.0f} µs, loop stall {_ms(free_stall)}\n"
        f"lock held {hold_s:g} s by another writer: append {_ms(held)} ({result}), "
        f"longest event-loop stall {_ms(stall)}"
    )
    return report


def _health(hold_s: float) -> dict[str, Any]:
    """A server on SQLite; an outside writer holds the lock while a room is created: how long
    do /api/health answers take meanwhile?"""
    s = _services()
    with tempfile.TemporaryDirectory() as tmp:
        port = s.free_port()
        db = Path(tmp) / "h.sqlite3"
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "dixit.cli.main",
                "serve",
                "--rate-limits",
                "off",
                "--port",
                str(port),
                "--database",
                f"sqlite:///{db}",
                "--log-level",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            s.wait_port(port, up=True, timeout_s=30)

            def timed_get(path: str) -> float:
                started = time.perf_counter()
                with urllib.request.urlopen(base + path, timeout=30) as answer:
                    answer.read()
                return time.perf_counter() - started

            quiet = sorted(timed_get("/api/health") for _ in range(50))
            outside = sqlite3.connect(db, isolation_level=None)
            outside.execute("BEGIN IMMEDIATE")
            created: list[str] = []

            def create() -> None:
                request = urllib.request.Request(
                    base + "/api/rooms",
                    data=json.dumps({"name": "Ann", "settings": {}}).encode(),
                    headers={"Content-Type": "application/json"},
                )
                try:
                    with urllib.request.urlopen(request, timeout=60) as answer:
                        created.append(str(answer.status))
                except urllib.error.HTTPError as error:
                    created.append(str(error.code))

            writer = threading.Thread(target=create)
            writer.start()
            time.sleep(0.1)
            during = []
            until = time.perf_counter() + hold_s
            while time.perf_counter() < until:
                during.append(timed_get("/api/health"))
            outside.execute("COMMIT")
            outside.close()
            writer.join()
        finally:
            proc.terminate()
            proc.wait(10)
    report = {
        "health_quiet_p50_s": quiet[len(quiet) // 2],
        "health_quiet_max_s": quiet[-1],
        "health_during_lock_max_s": max(during),
        "health_during_lock_answers": len(during),
        "create_status": created,
    }
    print(
        f"/api/health quiet: p50 {quiet[len(quiet) // 2] * 1e3:.1f} ms, max {_ms(quiet[-1])}; "
        f"while a room write waits {hold_s:g} s for the lock: {len(during)} answers, max "
        f"{_ms(max(during))}; the room create answered {created}"
    )
    return report


def _ready(calls: int = 30) -> dict[str, Any]:
    """/api/health/ready latency on PostgreSQL + Redis: both up, Redis down, PostgreSQL down."""
    s = _services()
    pg = s.OwnPostgres()
    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        redis = s.OwnRedis(Path(tmp))
        port = s.free_port()
        base = f"http://127.0.0.1:{port}"
        proc = None
        try:
            pg.start()
            redis.start()
            proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "dixit.cli.main",
                    "serve",
                    "--rate-limits",
                    "off",
                    "--port",
                    str(port),
                    "--database",
                    pg.url,
                    "--pubsub",
                    redis.url,
                    "--log-level",
                    "critical",
                    "--data-dir",
                    tmp,
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            s.wait_port(port, up=True, timeout_s=30)

            def sample(label: str, want: int) -> None:
                times: list[float] = []
                deadline = time.monotonic() + 30
                while len(times) < calls:
                    started = time.perf_counter()
                    try:
                        with urllib.request.urlopen(f"{base}/api/health/ready", timeout=10) as r:
                            status = r.status
                    except urllib.error.HTTPError as error:
                        status = error.code
                    took = time.perf_counter() - started
                    if status == want:
                        times.append(took)
                    else:
                        assert time.monotonic() < deadline, f"{label}: still {status}"
                        time.sleep(0.05)
                times.sort()
                report[label] = {"p50_s": times[len(times) // 2], "max_s": times[-1]}
                print(
                    f"{label}: {want}, p50 {times[len(times) // 2] * 1e3:.1f} ms, "
                    f"max {times[-1] * 1e3:.1f} ms"
                )

            sample("both up", 200)
            redis.stop()
            sample("Redis down", 503)
            redis.start()
            sample("Redis back", 200)
            pg.stop()
            sample("PostgreSQL down", 503)
            pg.start()
            sample("PostgreSQL back", 200)
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(10)
            redis.stop()
            pg.destroy()
    return report


async def _probes(n: int = 200_000) -> dict[str, Any]:
    """Per-call cost of the timed store against the bare store. (Room sockets time commands
    themselves: a perf_counter read per command and per answer, see dixit.server.websocket.)"""
    from dixit.ops.observe import ServerMetrics, TimedStore
    from dixit.storage import MemoryEventStore

    took: dict[str, float] = {}
    store = MemoryEventStore()
    for key, target in (("store bare", store), ("store timed", TimedStore(store, ServerMetrics()))):
        started = time.perf_counter()
        for _ in range(n // 4):
            await target.load_room("X")
        took[key] = (time.perf_counter() - started) / (n // 4)
    print(
        f"a store call: {took['store bare'] * 1e6:.2f} µs bare, "
        f"{took['store timed'] * 1e6:.2f} µs timed"
    )
    return {k: v * 1e6 for k, v in took.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "what", choices=("redis", "postgres", "sqlite", "health", "probes", "ready")
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--hold", type=float, default=3.0, help="seconds the lock is held")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result: Any
    if args.what == "redis":
        result = _summary("Redis back → gap reported", asyncio.run(_redis(args.runs)))
    elif args.what == "postgres":
        result = _summary("PostgreSQL back → first write", asyncio.run(_postgres(args.runs)))
    elif args.what == "sqlite":
        result = asyncio.run(_sqlite(args.hold))
    elif args.what == "health":
        result = _health(args.hold)
    elif args.what == "ready":
        result = _ready()
    else:
        result = asyncio.run(_probes())
    if args.json:
        print(json.dumps(result))


if __name__ == "__main__":
    main()
