"""A picture of strong computer players' clues: cards with the clue told for each, in 3 languages.

For each of ``--cards`` cards of a deck (seeded choice) the strong storyteller picks its clue in
each language of ``--langs``, as in a 5-player game where that card is the one it tells about
(the other players' cards imagined from the rest of the deck; with ``--people`` the other four
are people, read as pictures are read, else computers). Writes a JPEG sheet and prints the
clues as JSON lines.

    .venv/bin/python tools/botclues_sheet.py --out docs/bots-clues.jpg
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import textwrap
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402
from dixit.bots import CardBook, make_bot  # noqa: E402
from dixit.bots.players import ReadingBot  # noqa: E402
from dixit.decks.library import builtin_root  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CELL_W, IMG_H, TEXT_H = 240, 360, 112


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--deck", default="golden-tales")
    parser.add_argument("--cards", type=int, default=24)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--langs", default="en,it,pl")
    parser.add_argument("--people", action="store_true", help="the other players are people")
    args = parser.parse_args()
    langs = args.langs.split(",")
    cards = load_decks(None)[args.deck]
    book = CardBook.from_cards(cards)
    rng = random.Random(args.seed)
    chosen = rng.sample(cards, args.cards)
    font = ImageFont.truetype(FONT, 13)
    cols = 6
    rows = (len(chosen) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * CELL_W, rows * (IMG_H + TEXT_H)), "white")
    draw = ImageDraw.Draw(sheet)
    for n, card in enumerate(chosen):
        hand = [card["id"], *rng.sample([c["id"] for c in cards if c is not card], 5)]
        told = {}
        for lang in langs:
            bot = make_bot("strong", rng=random.Random(f"{args.seed}/{n}/{lang}"), lang=lang,
                           book=book)  # fmt: skip
            assert isinstance(bot, ReadingBot)
            _, told[lang] = bot.choose_clue([card["id"]], 5, 1, set(hand), people=[args.people] * 4)
        print(json.dumps({"card": card["id"], **told}, ensure_ascii=False))
        x, y = (n % cols) * CELL_W, (n // cols) * (IMG_H + TEXT_H)
        with Image.open(builtin_root() / args.deck / f"{card['id']}.webp") as im:
            picture = im.convert("RGB")
        picture.thumbnail((CELL_W - 10, IMG_H - 6))
        sheet.paste(picture, (x + (CELL_W - picture.width) // 2, y + 4))
        lines: list[str] = []
        for lang in langs:
            lines += textwrap.wrap(f"{lang.upper()}: {told[lang]}", 32)[:2]
        draw.multiline_text((x + 8, y + IMG_H + 4), "\n".join(lines), fill="black", font=font)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out, quality=82)
    return 0


if __name__ == "__main__":
    sys.exit(main())
