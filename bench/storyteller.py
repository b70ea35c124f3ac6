"""The computer storyteller at the table, and the listener across languages.

Sections (``--only`` picks some; default all):

- ``tables``: ``--games`` games of 5 strong computer players per language on each illustrated
  deck big enough for a table alone (classic rules; ``--edition odyssey --players 12`` for a
  big table with two votes each): how the rounds end (everybody, some but
  not all, or nobody found the storyteller's card), the share of listeners' votes on it, clues
  told twice in one game, where the clues came from (the bank or the card's own words) and of
  which kind, and one-word clues.
- ``agreement``: the same clue in six languages (``--parallel``: JSON lines ``{"plate", "clues":
  {lang: clue}}``, written as translations of one another) put to the strong listener on
  ``--lineups`` 6-card lineups of its card and five others of its deck: how often its top card is
  the same in all six languages, and in each language as in English.

Run: ``.venv/bin/python bench/storyteller.py --games 200`` (the parallel clues:
``bench/data/parallel_clues.jsonl``).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from bots import illustrated, lineups_of, load_decks, read_clues  # bench/, the script's folder
from dixit.bots import LANGS, CardBook, make_bot
from dixit.bots.arena import bot_rng, play_game
from dixit.bots.players import ReadingBot, said_key
from dixit.bots.text import content_words
from dixit.engine import rules_for

PLAYERS = 5


def _source(book: CardBook, card: str, clue: str, lang: str) -> tuple[str, str]:
    """(bank or text, kind) of a told clue."""
    key = said_key(clue)
    for b in book.bank(card, lang):
        if said_key(b.clue) == key:
            return "bank", b.kind
    return "text", "-"


def tables(
    decks: dict[str, list[dict[str, Any]]], games: int, seed: int,
    edition: str = "classic", players: int = PLAYERS, langs: tuple[str, ...] = LANGS,
    only_decks: set[str] | None = None,
) -> dict[str, Any]:  # fmt: skip
    out: dict[str, Any] = {}
    names = [f"p{i + 1}" for i in range(players)]
    for slug, cards in illustrated(decks).items():
        if only_decks and slug not in only_decks:
            continue
        book = CardBook.from_cards(cards)
        deck = [c["id"] for c in cards]
        per_lang: dict[str, Any] = {}
        for lang in langs:
            outcomes: Counter[str] = Counter()
            votes = found = repeated_games = repeats = one_word = 0
            origin: Counter[str] = Counter()
            kinds: Counter[str] = Counter()
            for g in range(games):
                s = seed + g
                bots = [make_bot("strong", rng=bot_rng(s, i), lang=lang, book=book)
                        for i in range(players)]  # fmt: skip
                state, _ = play_game(rules_for(edition), names, bots, deck, s)
                told = [said_key(r.clue) for r in state.rounds]
                extra = len(told) - len(set(told))
                repeats += extra
                repeated_games += extra > 0
                for r in state.rounds:
                    outcomes[r.outcome] += 1
                    votes += len(r.votes)
                    found += sum(card == r.storyteller_card for _, card in r.votes)
                    where, kind = _source(book, r.storyteller_card, r.clue, lang)
                    origin[where] += 1
                    kinds[kind] += 1
                    one_word += len(content_words(r.clue)) <= 1
            rounds = sum(outcomes.values())
            per_lang[lang] = {
                "games": games,
                "rounds": rounds,
                "everybody": round(outcomes["everybody"] / rounds, 3),
                "some": round(outcomes["some"] / rounds, 3),
                "nobody": round(outcomes["nobody"] / rounds, 3),
                "votes_on_storyteller_card": round(found / votes, 3),
                "games_with_a_repeated_clue": repeated_games,
                "repeated_clues": repeats,
                "from_bank": round(origin["bank"] / rounds, 3),
                "kinds": dict(kinds.most_common()),
                "one_word_clues": round(one_word / rounds, 3),
            }
        out[slug] = per_lang
    return out


def agreement(
    decks: dict[str, list[dict[str, Any]]], rows: list[dict[str, Any]], lineups: int, seed: int
) -> dict[str, Any]:
    books = {slug: CardBook.from_cards(cards) for slug, cards in decks.items()}
    six = [r for r in rows if set(r["clues"]) == set(LANGS)]
    all_six = same_as_en = pairs = trials = 0
    per_lang: Counter[str] = Counter()
    for _, _, row, slug, target, table in lineups_of(decks, six, lineups, seed):
        tops = {}
        for lang in LANGS:
            bot = make_bot("strong", rng=random.Random(0), lang=lang, book=books[slug])
            assert isinstance(bot, ReadingBot)
            tops[lang] = bot.rank(row["clues"][lang], table)[0]
        trials += 1
        all_six += len(set(tops.values())) == 1
        for lang in LANGS[1:]:
            pairs += 1
            same_as_en += tops[lang] == tops["en"]
            per_lang[lang] += tops[lang] == tops["en"]
        per_lang["found_en"] += tops["en"] == target
    skipped = len(rows) - trials // lineups
    return {
        "clues": len(rows) - skipped,
        "lineups_per_clue": lineups,
        "all_six_agree": round(all_six / trials, 3),
        "same_top_card_as_english": round(same_as_en / pairs, 3),
        "per_language_vs_english": {lang: round(per_lang[lang] / trials, 3) for lang in LANGS[1:]},
        "english_top_card_is_the_clues": round(per_lang["found_en"] / trials, 3),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="tables,agreement")
    parser.add_argument("--games", type=int, default=200, help="games per language and deck")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--parallel", type=Path, default=Path(__file__).parent / "data" /
                        "parallel_clues.jsonl")  # fmt: skip
    parser.add_argument("--lineups", type=int, default=5)
    parser.add_argument("--edition", default="classic", help="tables: the rules' edition")
    parser.add_argument("--players", type=int, default=PLAYERS, help="tables: players a game")
    parser.add_argument("--langs", default=",".join(LANGS), help="tables: comma-separated")
    parser.add_argument("--decks", default="", help="tables: comma-separated slugs (default all)")
    args = parser.parse_args()
    decks = load_decks(None)
    only = set(args.only.split(","))
    out: dict[str, Any] = {}
    if "tables" in only:
        langs = tuple(args.langs.split(","))
        only_decks = set(filter(None, args.decks.split(",")))
        out["tables"] = tables(
            decks, args.games, args.seed, args.edition, args.players, langs, only_decks
        )
    if "agreement" in only and args.parallel.is_file():
        out["agreement"] = agreement(decks, read_clues([args.parallel]), args.lineups, args.seed)
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
