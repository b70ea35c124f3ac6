"""``bench/engine.py`` runs and reports both figures (a smoke test, not a measurement)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "engine.py"


def test_bench_plays_complete_games_and_prints_both_figures() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--games", "3", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == {"engine", "views"}
    assert all(rate > 0 for rate in figures.values())


def test_bench_per_action_reports_every_table() -> None:
    done = subprocess.run(
        [sys.executable, str(BENCH), "--per-action", "--games", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert set(figures) == {
        "classic/standard/6",
        "odyssey/standard/6",
        "odyssey/standard/12",
        "odyssey/party/6",
        "odyssey/party/12",
        "odyssey/teams/6",
        "odyssey/teams/12",
    }
    assert all(cost > 0 for cost in figures.values())
