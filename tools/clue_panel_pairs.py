"""A blind A/B of clue-bank edits for the picture-only panel: each edited card's old clue (A)
and its replacement (B), each on a table of its own, shuffled together into one folder.

``--edits`` is a JSON object ``{card id: {"remove": [old clue, ...], "add": [{"clue", "kind",
"anchor"}, ...]}}`` (one ``add`` per ``remove``, paired in order). Each clue gets a table as a
game would lay it: four listeners, each with a hand of six other cards of the deck, each lays
the card that best fits the clue by what its picture shows (the strong storyteller's reading of
the computers, ``STRONG_PREDICTS``); the card and the four are shuffled. The folder holds
``rounds.jsonl`` and ``round-NNN.png`` as ``tools/clue_panel.py`` writes them (``--deck`` may
name several decks, comma-separated: each table is laid from its card's own deck); the key
(``<out>-key.json``) gives each round's ``variant``, for ``tools/clue_panel_ab.py``. Run it
before the edits are merged: an old clue's kind and anchor are read from the bank.

    .venv/bin/python tools/clue_panel_pairs.py --lang it --edits /tmp/it.json --out /tmp/r12/it
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from clue_panel import table_image, write_folder  # tools/, the script's folder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402
from dixit.bots import CardBook  # noqa: E402
from dixit.bots.levels import STRONG_PREDICTS  # noqa: E402
from dixit.decks.library import builtin_root  # noqa: E402

LISTENERS = 4
HAND = 6


def lay_table(
    book: CardBook, card: str, clue: str, deck: list[str], rng: random.Random
) -> list[str]:
    """The card and the four cards listeners with random hands lay for ``clue``, shuffled."""
    rest = [c for c in deck if c != card]
    size = min(HAND, len(rest) // LISTENERS)  # a small deck deals smaller hands
    others = rng.sample(rest, LISTENERS * size)
    table = [card]
    for k in range(LISTENERS):
        hand = others[k * size : (k + 1) * size]
        fits = book.fit(clue, hand, STRONG_PREDICTS)
        table.append(hand[max(range(size), key=fits.__getitem__)])
    rng.shuffle(table)
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", required=True)
    parser.add_argument("--edits", type=Path, required=True)
    parser.add_argument("--deck", default="golden-tales", help="slugs, comma-separated")
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    decks = load_decks(None)
    slugs = args.deck.split(",")
    cards = [c for slug in slugs for c in decks[slug]]
    book = CardBook.from_cards(cards)
    deck_of = {c["id"]: slug for slug in slugs for c in decks[slug]}
    ids = {slug: [c["id"] for c in decks[slug]] for slug in slugs}
    bank = {c["id"]: c.get("bank", {}).get(args.lang, []) for c in cards}
    rng = random.Random(f"{args.seed}/{args.lang}")
    edits: dict[str, Any] = json.loads(args.edits.read_text("utf-8"))
    told: list[tuple[str, str, str, str, str]] = []  # (variant, card, clue, kind, anchor)
    for card, edit in sorted(edits.items()):
        old = {b["clue"]: b for b in bank[card]}
        for removed, added in zip(edit["remove"], edit["add"], strict=True):
            before = old.get(removed, {"kind": "?", "anchor": ""})
            told.append(("A", card, removed, before["kind"], before["anchor"]))
            told.append(("B", card, added["clue"], added["kind"], added["anchor"]))
    rng.shuffle(told)
    args.out.mkdir(parents=True, exist_ok=True)
    lines, key = [], {}
    for n, (variant, card, clue, kind, anchor) in enumerate(told, start=1):
        table = lay_table(book, card, clue, ids[deck_of[card]], rng)
        name = f"round-{n:03d}.png"
        table_image(builtin_root() / deck_of[card], table).save(args.out / name)
        lines.append({"round": n, "lang": args.lang, "clue": clue, "image": name})
        key[name] = {"clue": clue, "storyteller_card": card, "position": table.index(card) + 1,
                     "table": table, "kind": kind, "anchor": anchor, "variant": variant,
                     "source": "bank"}  # fmt: skip
    key_file = write_folder(args.out, lines, key)
    print(f"{len(lines)} rounds in {args.out}; key in {key_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
