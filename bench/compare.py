"""Before and after: ``bench/load.py`` against two git revisions in one run, on one machine.

Each revision is checked out with ``git worktree add`` under a temporary directory and its
server started from there (``PYTHONPATH=<worktree>/src`` ahead of the installed package), by
this checkout's interpreter and this checkout's ``bench/load.py``: the old and the new code meet
the same client, the same dependencies and the same machine, minutes apart. Runs alternate
(old, new, old, new, ...) so that a change in the machine's load falls on both; the table gives
each figure's median over ``--repeat`` runs. The worktrees are removed at the end, also on
failure or Ctrl-C. Arguments after ``--`` go to ``bench/load.py`` as they are.

    .venv/bin/python bench/compare.py 12c0777 HEAD --games 1000 -- --duration 20
    .venv/bin/python bench/compare.py 12c0777 HEAD --games 50 -- --duration 10 --ramp 5
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "load.py"

# (load.py's key, the row's label): the figures #30 asks to keep, then the fan-out's.
FIGURES = (
    ("server_cpu_ms_per_action", "server CPU ms per action"),
    ("server_kib_per_live_game", "KiB per live game"),
    ("latency_ms_p50", "move p50 ms"),
    ("latency_ms_p99", "move p99 ms"),
    ("actions_per_s", "actions/s"),
    ("messages_out_per_action", "messages out per action"),
    ("kib_out_per_action", "KiB out per action"),
    ("rejected", "rejected commands"),
)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def load_once(src: Path, games: int, extra: list[str]) -> dict[str, Any]:
    """One ``bench/load.py --json`` run whose server imports ``dixit`` from ``src``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(src), os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, str(LOAD), "--games", str(games), "--json", *extra]
    done = subprocess.run(command, env=env, check=True, stdout=subprocess.PIPE, text=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def median(runs: list[dict[str, Any]], key: str) -> float | None:
    values = [r[key] for r in runs if isinstance(r.get(key), int | float)]
    return round(statistics.median(values), 2) if values else None


def change(old: float | None, new: float | None) -> str:
    if old is None or new is None or old == 0:
        return ""
    return f"{100 * (new - old) / old:+.0f} %"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the revision before (e.g. 12c0777)")
    parser.add_argument("new", nargs="?", default="HEAD", help="the revision after (HEAD)")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=1, help="runs of each, alternating")
    parser.add_argument("--json", action="store_true", help="print every run as JSON too")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1 :] if "--" in argv else []
    args = parser.parse_args(argv[: argv.index("--")] if "--" in argv else argv)

    shas = [git("rev-parse", "--verify", f"{rev}^{{commit}}") for rev in (args.old, args.new)]
    runs: dict[str, list[dict[str, Any]]] = {sha: [] for sha in shas}
    with tempfile.TemporaryDirectory(prefix="dixit-compare-") as tmp:
        trees = {sha: Path(tmp) / sha[:12] for sha in shas}
        try:
            for sha, tree in trees.items():
                git("worktree", "add", "--detach", str(tree), sha)
            for i in range(args.repeat):
                for sha in shas:
                    print(f"run {i + 1}/{args.repeat}: {sha[:9]}", file=sys.stderr, flush=True)
                    runs[sha].append(load_once(trees[sha] / "src", args.games, extra))
        finally:
            for tree in trees.values():
                if tree.exists():
                    git("worktree", "remove", "--force", str(tree))
            git("worktree", "prune")

    if args.json:
        print(json.dumps({sha: runs[sha] for sha in shas}))
    old, new = shas
    heads = [
        rev if sha.startswith(rev) else f"{rev} {sha[:9]}"
        for rev, sha in zip((args.old, args.new), shas, strict=True)
    ]
    print(f"\n{args.games} games, median of {args.repeat} run(s) each; load.py {' '.join(extra)}")
    print(f"{'figure':<26}{heads[0]:>22}{heads[1]:>22}  change")
    for key, label in FIGURES:
        a, b = median(runs[old], key), median(runs[new], key)
        print(f"{label:<26}{a!s:>22}{b!s:>22}  {change(a, b)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
