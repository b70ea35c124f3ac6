"""``dixit serve --workers N``: how fast a killed worker is serving again, what a worker costs
in memory, and the local broker's publish-to-delivery latency.

Sections (``--only`` picks some; default all):

- ``restart``: ``dixit serve --workers 2`` on a temporary SQLite file; ``--kills`` times, worker
  1 is killed with SIGKILL and the time until a fresh connection is answered by a new worker 1
  is measured (the supervisor waits 0.1 s before a restart; kills are spaced past its 30 s
  steady time, so each restart gets that shortest pause).
- ``memory``: ``--workers 4``: resident (RSS) and proportional (PSS: shared pages divided among
  the processes sharing them) size of each worker and of the supervisor.
- ``broker``: a broker and two clients in this process: one message at a time (p50/p99 of
  publish to delivery), then batches of 500 (messages a second).

Run: ``.venv/bin/python bench/workers.py`` (``--json`` for one JSON object).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Serve:
    def __init__(self, workers: int) -> None:
        self.root = tempfile.mkdtemp(prefix="dixit-bench-workers-")
        self.port = _free_port()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "dixit.cli.main",
                "serve",
                "--rate-limits",
                "off",
                "--workers",
                str(workers),
                "--port",
                str(self.port),
                "--data-dir",
                self.root,
                "--log-level",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.workers = workers

    def who(self) -> tuple[str, str]:
        url = f"http://127.0.0.1:{self.port}/api/health"
        with urllib.request.urlopen(url, timeout=5) as answer:
            index, pid = str(answer.headers["x-dixit-worker"]).split(":")
            return index, pid

    def seen(self) -> dict[str, str]:
        found: dict[str, str] = {}
        deadline = time.monotonic() + 60
        while len(found) < self.workers:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only workers {sorted(found)} answered")
            try:
                index, pid = self.who()
                found[index] = pid
            except OSError:
                time.sleep(0.02)
        return found

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(60)


def restart(kills: int) -> dict[str, Any]:
    serve = _Serve(2)
    times = []
    try:
        for n in range(kills):
            old = serve.seen()["1"]
            started = time.monotonic()
            os.kill(int(old), signal.SIGKILL)
            while True:
                try:
                    index, pid = serve.who()
                except OSError:
                    continue
                if index == "1" and pid != old:
                    break
            times.append(time.monotonic() - started)
            if n < kills - 1:
                time.sleep(31)
    finally:
        serve.stop()
    return {"kills": kills, "seconds": [round(t, 3) for t in times]}


def memory() -> dict[str, Any]:
    serve = _Serve(4)
    try:
        pids = serve.seen()

        def sizes(pid: int) -> dict[str, int]:
            found = {}
            for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
                key, _, value = line.partition(":")
                if key in ("Rss", "Pss"):
                    found[key.lower() + "_kib"] = int(value.split()[0])
            return found

        return {
            "workers": {index: sizes(int(pid)) for index, pid in sorted(pids.items())},
            "supervisor": sizes(serve.proc.pid),
        }
    finally:
        serve.stop()


def broker(messages: int = 5000, batched: int = 20000) -> dict[str, Any]:
    from dixit.infra.broker import Broker
    from dixit.pubsub import open_pubsub

    async def main() -> dict[str, Any]:
        with tempfile.TemporaryDirectory() as root:
            hub = Broker(Path(root) / "broker.sock")
            await hub.start()
            a, b = open_pubsub(hub.url), open_pubsub(hub.url)
            await a.open()
            await b.open()
            sub = await b.subscribe("room")
            latencies = []
            for i in range(messages):
                started = time.perf_counter()
                await a.publish("room", json.dumps({"origin": "x", "game": 1, "v": i}))
                await sub.get()
                latencies.append(time.perf_counter() - started)
            latencies.sort()
            started = time.perf_counter()
            for _ in range(batched // 500):
                await asyncio.gather(*(a.publish("room", "x") for _ in range(500)))
                for _ in range(500):
                    await sub.get()
            rate = batched / (time.perf_counter() - started)
            await a.close()
            await b.close()
            await hub.stop()
        return {
            "p50_us": round(latencies[len(latencies) // 2] * 1e6),
            "p99_us": round(latencies[int(len(latencies) * 0.99)] * 1e6),
            "batched_per_s": round(rate),
        }

    return asyncio.run(main())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", choices=("restart", "memory", "broker"))
    parser.add_argument("--kills", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    sections = args.only or ["restart", "memory", "broker"]
    result: dict[str, Any] = {"load_average": os.getloadavg()[0]}
    if "restart" in sections:
        result["restart"] = restart(args.kills)
    if "memory" in sections:
        result["memory"] = memory()
    if "broker" in sections:
        result["broker"] = broker()
    if args.json:
        print(json.dumps(result))
        return
    print(f"load average (1 min) at start: {result['load_average']:.1f}")
    if "restart" in result:
        seconds = ", ".join(f"{t:.2f}" for t in result["restart"]["seconds"])
        print(f"SIGKILL to a new worker answering: {seconds} s")
    if "memory" in result:
        for index, size in result["memory"]["workers"].items():
            print(f"worker {index}: RSS {size['rss_kib']} KiB, PSS {size['pss_kib']} KiB")
        size = result["memory"]["supervisor"]
        print(f"supervisor: RSS {size['rss_kib']} KiB, PSS {size['pss_kib']} KiB")
    if "broker" in result:
        b = result["broker"]
        print(
            f"broker publish to delivery: p50 {b['p50_us']} us, p99 {b['p99_us']} us; "
            f"batched {b['batched_per_s']} messages/s"
        )


if __name__ == "__main__":
    main()
