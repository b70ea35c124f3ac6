"""``dixit serve --workers 2`` on a PostgreSQL of the test's own: a worker killed while
PostgreSQL is down cannot start; it says so in one line (no traceback), the supervisor tries
again with backoff, and once PostgreSQL is back both workers serve again."""

from __future__ import annotations

import os
import signal
import time
import urllib.request
from pathlib import Path

from .services import OwnPostgres, server_harness

h = server_harness()


def _workers(base: str, tries: int = 200) -> dict[str, str]:
    """index → pid of the workers that answered ``tries`` fresh connections."""
    seen: dict[str, str] = {}
    for _ in range(tries):
        try:
            with urllib.request.urlopen(f"{base}/api/health/live", timeout=5) as answer:
                index, pid = str(answer.headers["x-dixit-worker"]).split(":")
        except OSError:
            time.sleep(0.02)
            continue
        seen[index] = pid
        if len(seen) == 2:
            break
    return seen


def test_a_worker_that_cannot_reach_postgresql_is_retried_in_one_line(
    own_postgres: OwnPostgres, tmp_path: Path
) -> None:
    server = h.ServerProcess(database=own_postgres.url, workdir=tmp_path, extra=("--workers", "2"))
    server.start()
    try:
        deadline = time.monotonic() + 60
        first = _workers(server.base)
        while set(first) != {"1", "2"}:  # the second worker may still be starting
            assert time.monotonic() < deadline, f"only workers {sorted(first)} answered"
            time.sleep(0.2)
            first = _workers(server.base)
        own_postgres.stop()
        os.kill(int(first["1"]), signal.SIGKILL)
        log = tmp_path / "server.log"
        deadline = time.monotonic() + 60
        while log.read_text().count("exited with status 2; starting it again") < 2:
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        own_postgres.start()
        deadline = time.monotonic() + 60
        while True:  # worker 1 is back (the backoff is at most 5 s)
            now = _workers(server.base)
            if now.get("1") not in (None, first["1"]) and len(now) == 2:
                break
            assert time.monotonic() < deadline, "worker 1 did not come back"
            time.sleep(0.2)
        assert server.proc is not None and server.proc.poll() is None
    finally:
        server.stop()
    text = (tmp_path / "server.log").read_text()
    refusals = [line for line in text.splitlines() if "cannot start: event store:" in line]
    assert refusals and all("PostgreSQL" in line for line in refusals)
    assert "Traceback" not in text
