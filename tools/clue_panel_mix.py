"""Mix two panel rounds of one language into one blind A/B folder (see clue_panel_ab.py).

Each input is a folder written by ``tools/clue_panel.py`` (``rounds.jsonl``, ``round-NNN.png``)
and its key (``<folder>-key.json``). The rounds of both are shuffled together and numbered
anew; the key of the mixed folder (``<out>-key.json``) gives each round its ``variant`` (A or
B) besides what the inputs' keys said.

    .venv/bin/python tools/clue_panel_mix.py --a /tmp/r7/A-it --b /tmp/r7/B-it --out /tmp/r7/it
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
from pathlib import Path
from typing import Any


def read(folder: Path) -> list[tuple[dict[str, Any], dict[str, Any], Path]]:
    """(round line, key row, image) of each round of a folder."""
    key = json.loads(folder.with_name(f"{folder.name}-key.json").read_text("utf-8"))
    lines = (folder / "rounds.jsonl").read_text("utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return [(row, key[row["image"]], folder / row["image"]) for row in rows]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", type=Path, required=True)
    parser.add_argument("--b", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rounds = [(v, *r) for v, folder in (("A", args.a), ("B", args.b)) for r in read(folder)]
    random.Random(args.seed).shuffle(rounds)
    args.out.mkdir(parents=True, exist_ok=True)
    key: dict[str, Any] = {}
    with (args.out / "rounds.jsonl").open("w", encoding="utf-8") as out:
        for n, (variant, row, row_key, image) in enumerate(rounds, 1):
            name = f"round-{n:03d}.png"
            shutil.copyfile(image, args.out / name)
            out.write(json.dumps({**row, "round": n, "image": name}, ensure_ascii=False) + "\n")
            key[name] = {"variant": variant, **row_key}
    keyfile = args.out.with_name(f"{args.out.name}-key.json")
    keyfile.write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", "utf-8")
    print(f"{len(rounds)} rounds in {args.out}; key in {keyfile}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
