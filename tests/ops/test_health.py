"""Liveness, readiness and /metrics of a real ``dixit serve`` on a PostgreSQL and a Redis of
the test's own: readiness goes false naming the dependency that is down, and true again once it
is back; the metrics count sockets and commands; JSON logs; one line when a dependency refuses
at start."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from .services import OwnPostgres, OwnRedis, free_port, server_harness

h = server_harness()


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def _ready(base: str) -> tuple[int, dict[str, Any]]:
    status, body = _get(f"{base}/api/health/ready")
    return status, json.loads(body)


def _until_ready(base: str, want: bool, timeout_s: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while True:
        status, body = _ready(base)
        if body["ready"] is want and status == (200 if want else 503):
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.1)


def _metric(text: str, name: str) -> float:
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found is not None, f"{name} not in /metrics"
    return float(found.group(1))


def test_readiness_follows_each_dependency_and_metrics_report(
    own_postgres: OwnPostgres, own_redis: OwnRedis, tmp_path: Path
) -> None:
    server = h.ServerProcess(
        database=own_postgres.url,
        workdir=tmp_path,
        extra=("--pubsub", own_redis.url, "--log-format", "json", "--log-level", "info"),
    )
    server.start()
    try:
        assert _until_ready(server.base, True)["dependencies"] == {"store": "ok", "pubsub": "ok"}

        own_redis.stop()
        body = _until_ready(server.base, False)
        assert body["dependencies"]["store"] == "ok"
        assert body["dependencies"]["pubsub"].startswith("pubsub/unavailable")
        assert _get(f"{server.base}/api/health/live")[0] == 200
        _, text = _get(f"{server.base}/metrics")
        assert _metric(text, 'dixit_dependency_up{dependency="pubsub"}') == 0
        own_redis.start()
        _until_ready(server.base, True)

        own_postgres.stop()
        body = _until_ready(server.base, False)
        assert body["dependencies"]["store"].startswith("store/unavailable: PostgreSQL")
        assert body["dependencies"]["pubsub"] == "ok"
        assert _get(f"{server.base}/api/health")[0] == 200  # alive: do not restart it
        own_postgres.start()
        _until_ready(server.base, True)

        async def play() -> None:
            ticket = h.create_room(server.base, "Ann")
            ann = h.Client(server.ws_base, ticket)
            await ann.connect()
            _, during = _get(f"{server.base}/metrics")
            assert _metric(during, "dixit_sockets") == 1
            assert (await ann.command("add_bot"))["type"] == "ack"
            assert (await ann.command("vote", card="nope"))["type"] == "error"
            await ann.close()

        asyncio.run(play())
        _, text = _get(f"{server.base}/metrics")
        assert _metric(text, 'dixit_commands_total{answer="ack"}') == 1
        assert _metric(text, 'dixit_commands_total{answer="error"}') == 1
        assert _metric(text, "dixit_command_seconds_count") == 2
        assert _metric(text, 'dixit_dependency_up{dependency="store"}') == 1
        assert _metric(text, "dixit_live_rooms") >= 1
        assert _metric(text, 'dixit_store_seconds_count{op="put_room"}') >= 1
        assert _metric(text, "process_resident_memory_bytes") > 0
        assert "# TYPE dixit_gc_pause_seconds histogram" in text
        deadline = time.monotonic() + 5
        while _metric(_get(f"{server.base}/metrics")[1], "dixit_sockets") != 0:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        server.stop()
    lines = [line for line in (tmp_path / "server.log").read_text().splitlines() if line]
    logged = [json.loads(line) for line in lines]  # every line, the start-up one included
    assert logged and all({"time", "level", "logger", "message"} <= set(e) for e in logged)
    assert logged[0]["message"].startswith("Dixit server: open http://")


def test_a_dependency_refusing_at_start_is_one_line_and_a_failure_status(tmp_path: Path) -> None:
    for option, url, what in (  # text logs: a plain line
        ("--database", f"postgresql://postgres@127.0.0.1:{free_port()}/x", "PostgreSQL"),
        ("--pubsub", f"redis://127.0.0.1:{free_port()}/0", "Redis"),
    ):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "dixit.cli.main",
                "serve",
                "--port",
                str(free_port()),
                "--data-dir",
                str(tmp_path),
                option,
                url,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert done.stdout == ""
        (line,) = done.stderr.splitlines()
        assert line.startswith("dixit serve: cannot start: ") and what in line
