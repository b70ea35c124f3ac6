"""Figures of illustrated decks for docs/deck/README.md: colour, legibility, books, upscales.

For each deck folder (``deck.json`` and its WebP cards): mean HSV saturation over the card
(Pillow, 0-255, as the issue measured it) and the cards under 40 (near-monochrome), the
legibility numbers at the table's size and how many cards miss each floor of the watercolour
decks, cards per book (the most from one book) and the upscale factors.

    .venv/bin/python tools/deck_figures.py src/dixit/decks/default/golden-tales ...
"""

from __future__ import annotations

import json
import statistics
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from dixit.decks.illustrated.legibility import WATERCOLOUR_FLOORS, measure  # noqa: E402


def figures(folder: Path) -> dict[str, object]:
    deck = json.loads((folder / "deck.json").read_text("utf-8"))
    sats, numbers, books, upscales = [], [], Counter(), []
    for card in deck["cards"]:
        with Image.open(folder / card["file"]) as im:
            rgb = im.convert("RGB")
        sats.append(float(np.asarray(rgb.convert("HSV"))[..., 1].mean()))
        numbers.append(measure(rgb))
        source = card.get("source", {})
        books[source.get("work", "?")] += 1
        upscales.append(float(source.get("upscale", 1.0)))
    floors = WATERCOLOUR_FLOORS
    return {
        "deck": deck["slug"],
        "cards": len(sats),
        "mean saturation": round(statistics.mean(sats)),
        "under 40": sum(s < 40 for s in sats),
        "saturation < floor": sum(n.saturation < floors.min_saturation for n in numbers),
        "too dark": sum(n.luma < floors.min_luma for n in numbers),
        "too pale": sum(n.luma > floors.max_luma for n in numbers),
        "squint < floor": sum(n.squint < floors.min_squint for n in numbers),
        "blank > floor": sum(n.blank > floors.max_blank for n in numbers),
        "median squint": round(statistics.median(n.squint for n in numbers), 1),
        "books": len(books),
        "most from one book": books.most_common(1)[0][1] if books else 0,
        "upscaled": sum(u > 1.0 for u in upscales),
        "largest upscale": max(upscales, default=1.0),
    }


def main() -> int:
    rows = [figures(Path(arg)) for arg in sys.argv[1:]]
    keys = list(rows[0])
    print("| " + " | ".join(keys) + " |")
    print("|" + " --- |" * len(keys))
    for row in rows:
        print("| " + " | ".join(str(row[k]) for k in keys) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
