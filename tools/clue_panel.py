"""Picture-only clue panel: rounds of strong computer players, as a person at the table sees them.

Plays 5-player classic games of strong computer players in one language on a deck, one after
the other as in one room (the players' book learns each game's clues, as the server's does),
and keeps rounds spread over the games. The panel stands for a table of people, so each
storyteller is told that the other seats are people (``make_bot(..., people=...)``: it models
them as readers of the pictures); ``--computers`` tells it they are computers instead. For
each round it writes ``round-NNN.png``: the table's cards in the order they were shown,
numbered 1..N under each card, at 240 x 360 a card; and a line in ``rounds.jsonl`` with the
round's number, language and clue (what the rater sees). The key (the storyteller's card and
its position, the card ids, how the computer listeners voted, where the clue came from and the
visible thing it hangs on) goes to ``<out>-key.json`` beside the folder, for scoring afterwards.

    .venv/bin/python tools/clue_panel.py --lang it --rounds 40 --out /tmp/panel-it
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from bots import load_decks  # noqa: E402
from dixit.bots import CardBook, make_bot  # noqa: E402
from dixit.bots.arena import bot_rng, play_game  # noqa: E402
from dixit.bots.players import said_key  # noqa: E402
from dixit.decks.library import builtin_root  # noqa: E402
from dixit.engine import rules_for  # noqa: E402

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CARD = (240, 360)
GAP = 10
PLAYERS = 5


def table_image(folder: Path, table: list[str]) -> Image.Image:
    label = 40
    sheet = Image.new("RGB", (len(table) * (CARD[0] + GAP) + GAP, CARD[1] + label + GAP), "white")
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(FONT, 26)
    for n, card in enumerate(table):
        with Image.open(folder / f"{card}.webp") as im:
            sheet.paste(im.convert("RGB").resize(CARD, Image.Resampling.LANCZOS),
                        (GAP + n * (CARD[0] + GAP), GAP))  # fmt: skip
        x = GAP + n * (CARD[0] + GAP) + CARD[0] // 2 - 8
        draw.text((x, CARD[1] + GAP + 4), str(n + 1), fill="black", font=font)
    return sheet


def write_folder(out: Path, lines: list[dict[str, object]], key: dict[str, Any]) -> Path:
    """Write a round's ``rounds.jsonl`` (what the rater sees) into ``out`` and its key beside
    the folder (``<out>-key.json``, what the rater must not see); return the key's path."""
    (out / "rounds.jsonl").write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), "utf-8"
    )
    key_file = out.parent / f"{out.name}-key.json"
    key_file.write_text(json.dumps(key, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return key_file


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", required=True)
    parser.add_argument("--deck", default="golden-tales")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--per-game", type=int, default=3, help="rounds kept from each game")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--computers", action="store_true", help="storytellers expect computers")
    args = parser.parse_args()
    cards = load_decks(None)[args.deck]
    book = CardBook.from_cards(cards)
    deck = [c["id"] for c in cards]
    folder = builtin_root() / args.deck
    names = [f"p{i + 1}" for i in range(PLAYERS)]
    seated = frozenset(names)

    def people() -> frozenset[str]:
        return frozenset() if args.computers else seated

    args.out.mkdir(parents=True, exist_ok=True)
    lines: list[dict[str, object]] = []
    key: dict[str, dict[str, object]] = {}
    game = 0
    while len(lines) < args.rounds:
        seed = args.seed + game
        game += 1
        bots = [make_bot("strong", rng=bot_rng(seed, i), lang=args.lang, book=book, people=people)
                for i in range(PLAYERS)]  # fmt: skip
        state, _ = play_game(rules_for("classic"), names, bots, deck, seed)
        for done in state.rounds:  # as a room's server does: later games know earlier clues
            book.learn(done.storyteller_card, done.clue, args.lang)
        picks = random.Random(seed).sample(list(state.rounds), args.per_game)
        for r in picks:
            if len(lines) >= args.rounds:
                break
            n = len(lines) + 1
            name = f"round-{n:03d}.png"
            table_image(folder, list(r.table)).save(args.out / name)
            lines.append({"round": n, "lang": args.lang, "clue": r.clue, "image": name})
            bank = {said_key(b.clue): b for b in book.bank(r.storyteller_card, args.lang)}
            told = bank.get(said_key(r.clue))
            key[name] = {
                "clue": r.clue,
                "storyteller_card": r.storyteller_card,
                "position": r.table.index(r.storyteller_card) + 1,
                "table": list(r.table),
                "bot_votes_on_it": sum(c == r.storyteller_card for _, c in r.votes),
                "bot_votes": len(r.votes),
                "outcome": str(r.outcome),
                "source": "bank" if said_key(r.clue) in bank else "text",
                "kind": told.kind if told else "-",
                "anchor": told.anchor if told else "",
                "storyteller_expected": "computers" if args.computers else "people",
                "game_seed": seed,
            }
    key_file = write_folder(args.out, lines, key)
    print(f"{len(lines)} rounds from {game} games in {args.out}; key in {key_file}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
