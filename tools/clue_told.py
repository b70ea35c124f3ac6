"""The clues the strong storyteller tells most for each card of a deck, facing people.

For each card it asks the storyteller for a clue with that card alone in its hand (four other
seats, all people), ``--top`` times, each time with the clues already chosen counted as said:
the card's clues in the order the storyteller prefers them. A game spreads its choices over
more clues (its hands and what was said differ), but these are the ones it comes back to. The
bank passes of panel round 23 replaced, among these, the ones a person finds at once.

    .venv/bin/python tools/clue_told.py --lang it --top 4 --out /tmp/told-it.json
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402
from dixit.bots import CardBook, make_bot  # noqa: E402
from dixit.bots.players import ReadingBot, said_key  # noqa: E402

PEOPLE = 4  # the other seats of a five-player table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", required=True)
    parser.add_argument("--deck", default="golden-tales")
    parser.add_argument("--top", type=int, default=4, help="clues a card")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    cards = load_decks(None)[args.deck]
    book = CardBook.from_cards(cards)
    bot = make_bot("strong", rng=random.Random(args.seed), lang=args.lang, book=book)
    assert isinstance(bot, ReadingBot)
    told: dict[str, list[str]] = {}
    for card in (str(c["id"]) for c in cards):
        said: set[str] = set()
        told[card] = []
        for _ in range(args.top):
            _, clue = bot.choose_clue(
                [card], PEOPLE + 1, 1, {card}, said=frozenset(said), people=[True] * PEOPLE
            )
            said.add(said_key(clue))
            told[card].append(clue)
    args.out.write_text(json.dumps(told, ensure_ascii=False, indent=1) + "\n", "utf-8")
    print(f"{sum(map(len, told.values()))} clues for {len(told)} cards in {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
