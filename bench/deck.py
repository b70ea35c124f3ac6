"""Benchmark: time to generate one 84-card deck (plan, paint, encode WebP, write).

Run: .venv/bin/python bench/deck.py [--cards 84] [--seed N]
"""

from __future__ import annotations

import argparse
import platform
import statistics
import tempfile
import time
from pathlib import Path

from dixit.decks.generator import DEFAULT_SEED, card_id, encode_webp, render_card
from dixit.decks.planner import plan_decks


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cards", type=int, default=84)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = ap.parse_args()
    t0 = time.perf_counter()
    plans = plan_decks(args.seed)[0][: args.cards]
    t_plan = time.perf_counter() - t0
    per_card: list[float] = []
    total_bytes = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        t1 = time.perf_counter()
        cpu0 = time.process_time()
        for plan in plans:
            c0 = time.perf_counter()
            img, _meta = render_card(plan)
            data = encode_webp(img)
            (out / f"{card_id('bench', data)}.webp").write_bytes(data)
            total_bytes += len(data)
            per_card.append(time.perf_counter() - c0)
        t_render = time.perf_counter() - t1
        cpu = time.process_time() - cpu0
    print(f"python {platform.python_version()}, {platform.machine()}, seed {args.seed}")
    print(f"planning both decks: {t_plan * 1000:.0f} ms")
    print(f"{len(plans)} cards rendered+encoded: {t_render:.1f} s wall, {cpu:.1f} s CPU")
    print(
        f"per card: mean {statistics.mean(per_card):.2f} s, median "
        f"{statistics.median(per_card):.2f} s, max {max(per_card):.2f} s"
    )
    print(f"WebP output: {total_bytes / 1e6:.1f} MB ({total_bytes / len(plans) / 1e3:.0f} kB/card)")


if __name__ == "__main__":
    main()
