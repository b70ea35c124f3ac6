"""Blind-panel sheets: random six-card hands of several decks, shuffled, at phone size.

Each hand is one PNG of six cards at 240 x 360 (two rows of three), as a player sees them on a
360 x 640 phone's table; the file is named only ``hand-NN.png``. The key (which deck each hand
came from) goes to a separate JSON file for whoever scores the panel afterwards, not to the
raters. A deck is a folder with ``deck.json`` and its WebP cards (the shipped decks, or an older
build kept aside).

    .venv/bin/python tools/deck_panel.py --deck new=src/dixit/decks/default/golden-tales \\
        --deck old=/tmp/old/storybook-1,/tmp/old/storybook-2 --hands 10 --seed 1 --out /tmp/panel
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from PIL import Image

CARD = (240, 360)
GAP = 8


def cards_of(folders: list[Path]) -> list[Path]:
    out = []
    for folder in folders:
        deck = json.loads((folder / "deck.json").read_text("utf-8"))
        out += [folder / c["file"] for c in deck["cards"]]
    return out


def hand_image(files: list[Path]) -> Image.Image:
    sheet = Image.new("RGB", (3 * CARD[0] + 4 * GAP, 2 * CARD[1] + 3 * GAP), (32, 30, 36))
    for i, path in enumerate(files):
        with Image.open(path) as im:
            card = im.convert("RGB").resize(CARD, Image.Resampling.LANCZOS)
        sheet.paste(card, (GAP + (i % 3) * (CARD[0] + GAP), GAP + (i // 3) * (CARD[1] + GAP)))
    return sheet


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deck", action="append", required=True, help="label=folder[,folder]")
    parser.add_argument("--hands", type=int, default=10, help="hands per deck")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = []
    for spec in args.deck:
        label, folders = spec.split("=", 1)
        cards = cards_of([Path(f) for f in folders.split(",")])
        hands += [(label, rng.sample(cards, 6)) for _ in range(args.hands)]
    rng.shuffle(hands)
    args.out.mkdir(parents=True, exist_ok=True)
    key = {}
    for n, (label, files) in enumerate(hands, 1):
        name = f"hand-{n:02d}.png"
        hand_image(files).save(args.out / name)
        key[name] = {"deck": label, "cards": [f.stem for f in files]}
    key_file = args.out.parent / f"{args.out.name}-key.json"
    key_file.write_text(json.dumps(key, indent=1) + "\n", "utf-8")
    print(f"{len(hands)} hands in {args.out}; key in {key_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
