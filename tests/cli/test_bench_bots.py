"""``bench/bots.py`` runs every section on the shipped decks (a smoke test, not a measurement)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_bots_reports_every_section() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bots.py"), "--games", "1", "--lineups", "1",
         "--langs", "it", "--json"],
        capture_output=True, text=True, check=False, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert set(report) == {"memory", "accuracy", "tell", "arena", "latency", "rooms", "reads"}
    assert report["memory"]["vectors_mb"] > 1
    for deck in report["arena"].values():
        assert set(deck["levels"]) == {"strong", "medium", "easy", "random"}
    assert {"storyteller", "decoy", "listener"} <= set(report["latency"]["strong"])
