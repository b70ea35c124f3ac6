"""Computer players: listener accuracy, storyteller tables, arena, latency, memory.

Sections (``--only`` picks some; default all):

- ``accuracy``: each clue of an evaluation file (``{"plate", "lang", "clue", "kind"}`` per line)
  is put to every level on ``--lineups`` 6-card lineups (the clue's card and 5 others of its
  deck, seeded); accuracy = the share of votes on the clue's card (chance 1/6). Per level and
  language, and per kind for strong.
- ``tell``: games of strong bots only (4, 5 and 6 players, every language): storyteller success
  (some but not all found) and listener accuracy.
- ``arena``: mixed tables of strong, medium, easy and random (seats rotated): win rate with 95 %
  intervals.
- ``latency``: decision time per level and skill (clue, submit, vote) on one core, p50/p95.
- ``memory``: the resident size of a process holding every built-in deck's book, and the
  installed size of ``dixit.bots``.

Cards come from the built-in decks (storybook-1/2 map evaluation plates through
``source.plate``) or, with ``--meta DIR``, straight from per-plate metadata files (ids
``plate-NNN``). Run: ``.venv/bin/python bench/bots.py --clues bench/data/dev_clues.jsonl``
(``--json`` for one JSON object).
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dixit.bots import LANGS, LEVELS, CardBook, make_bot
from dixit.bots.arena import Tally, bot_rng, play_game
from dixit.decks.library import builtin_root
from dixit.engine import Phase, StartGame, execute, player_view, rules_for, waiting_for

ROOT = Path(__file__).resolve().parents[1]
LINEUP = 6


def load_decks(meta: Path | None) -> dict[str, list[dict[str, Any]]]:
    """Deck name -> card dicts: every built-in deck with text, or the metadata folder."""
    if meta is not None:
        cards = []
        for path in sorted(meta.glob("*.json")):
            try:
                data = json.loads(path.read_text("utf-8"))
            except (OSError, json.JSONDecodeError):
                continue  # a file still being written
            if data.get("verdict") == "keep" and isinstance(data.get("text"), dict):
                plate = int(data["plate"])
                cards.append({"id": f"plate-{plate:03}", "text": data["text"],
                              "source": {"plate": plate}})  # fmt: skip
        return {"meta": cards}
    decks = {}
    for path in sorted(builtin_root().glob("*/deck.json")):
        deck = json.loads(path.read_text("utf-8"))
        decks[deck["slug"]] = deck["cards"]
    return decks


def plate_index(decks: Mapping[str, list[dict[str, Any]]]) -> dict[int, tuple[str, str]]:
    """Plate number -> (deck, card id) for illustrated cards."""
    out = {}
    for slug, cards in decks.items():
        for card in cards:
            source = card.get("source")
            if isinstance(source, dict) and "plate" in source:
                out[int(source["plate"])] = (slug, card["id"])
    return out


def read_clues(paths: Iterable[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def accuracy(
    decks: Mapping[str, list[dict[str, Any]]], clues: list[dict[str, Any]], lineups: int, seed: int
) -> dict[str, Any]:
    books = {slug: CardBook.from_cards(cards) for slug, cards in decks.items()}
    plates = plate_index(decks)
    hits: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    skipped = 0
    for n, row in enumerate(clues):
        where = plates.get(int(row["plate"]))
        if where is None:
            skipped += 1
            continue
        slug, target = where
        others = [c["id"] for c in decks[slug] if c["id"] != target]
        for k in range(lineups):
            rng = random.Random(f"{seed}/{n}/{k}")
            table = [target, *rng.sample(others, LINEUP - 1)]
            rng.shuffle(table)
            for level in LEVELS:
                bot = make_bot(level, rng=random.Random(f"{seed}/{n}/{k}/{level}"),
                               lang=row["lang"], book=books[slug])  # fmt: skip
                vote = _vote(bot, row["clue"], table)
                for key in ((level, row["lang"]), (level, "all")):
                    hits[key][0] += vote == target
                    hits[key][1] += 1
                if level == "strong":
                    kinds[row.get("kind", "?")][0] += vote == target
                    kinds[row.get("kind", "?")][1] += 1
    table_out: dict[str, dict[str, Any]] = {}
    for (level, lang), (k, n) in sorted(hits.items()):
        table_out.setdefault(level, {})[lang] = round(k / n, 3)
    counts = {lang: sum(1 for r in clues if r["lang"] == lang) for lang in LANGS}
    return {
        "clues": len(clues) - skipped,
        "skipped": skipped,
        "per_language": counts,
        "lineups_per_clue": lineups,
        "accuracy": table_out,
        "strong_by_kind": {kd: round(k / n, 3) for kd, (k, n) in sorted(kinds.items())},
    }


def _vote(bot: Any, clue: str, table: list[str]) -> str:
    """The bot's vote for ``clue`` on ``table`` (through its listener skill)."""
    if hasattr(bot, "listen"):
        return str(bot.listen(clue, tuple(table)))
    return str(bot.rng.choice(table))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--clues", type=Path, nargs="*", default=[ROOT / "bench/data/dev_clues.jsonl"]
    )
    parser.add_argument("--meta", type=Path, help="per-plate metadata folder instead of the decks")
    parser.add_argument("--lineups", type=int, default=5)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--only", nargs="*", default=["accuracy", "tell", "arena", "latency", "memory"]
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    decks = load_decks(args.meta)
    out: dict[str, Any] = {}
    if "accuracy" in args.only:
        out["accuracy"] = accuracy(decks, read_clues(args.clues), args.lineups, args.seed)
    print(json.dumps(out, indent=None if args.json else 1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
