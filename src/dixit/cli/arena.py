"""``dixit arena``: computer players of several levels (and an outside agent) play each other.

Each game seats one player per entry of ``--levels`` (the same level may repeat); seats rotate
from game to game so every level sits everywhere and tells as often. Game ``i`` uses seed
``SEED + i``. The table gives per level: win rate (shared victories count for every winner),
storyteller success (some but not all found the card), listener accuracy (votes on the
storyteller's card) with 95 % Wilson intervals, and the votes each decoy card drew.

``--agent package.module:Class`` adds a seat played by an outside class implementing the bot
protocol: ``Class(rng=random.Random, lang=str, book=CardBook)`` and ``act(view) -> command``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

from dixit.bots import LANGS, LEVELS, Bot, CardBook, make_bot
from dixit.bots.arena import Tally, bot_rng, play_game
from dixit.engine import MODES, GameError, rules_for

from ._common import book_of, deck_cards, default_bot_decks, print_error, seat_names

AGENT = "agent"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="computer players of several levels play each other; a table per level",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument(
        "--levels",
        default="strong,medium,easy,random",
        help="one seat per level, comma separated (a level may repeat: 12 seats for odyssey)",
    )
    parser.add_argument("--agent", metavar="MODULE:CLASS", help="an outside bot class in a seat")
    parser.add_argument("--games", type=int, default=20, help="number of games (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    parser.add_argument(
        "--edition", default="classic", help="classic (default), 2021 or odyssey (3-12 players)"
    )
    parser.add_argument(
        "--mode", choices=tuple(MODES), default="standard", help="standard (default) or party"
    )
    parser.add_argument("--lang", choices=LANGS, default="en", help="the room's language (en)")
    parser.add_argument("--deck", action="append", help="deck slug (repeatable; default: one)")
    parser.add_argument("--data-dir", type=Path, help="where imported decks live")
    parser.add_argument("--json", action="store_true", help="the table as one JSON object")
    parser.set_defaults(func=run)


def load_agent(spec: str) -> type:
    """The class named ``package.module:Class``, looked up from the current directory too (as
    ``python -m`` would); ValueError if it cannot be loaded."""
    module_name, _, class_name = spec.partition(":")
    if not module_name or not class_name:
        raise ValueError("--agent takes package.module:Class")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())
    try:
        found = getattr(importlib.import_module(module_name), class_name)
    except (ImportError, AttributeError) as bad:
        raise ValueError(f"cannot load {spec}: {bad}") from None
    if not isinstance(found, type) or not callable(getattr(found, "act", None)):
        raise ValueError(f"{spec} is not a class with an act(view) method")
    return found


def run(args: argparse.Namespace) -> int:
    levels = [lv.strip() for lv in args.levels.split(",") if lv.strip()]
    bad = [lv for lv in levels if lv not in LEVELS]
    if bad or not levels:
        return print_error("setup/bad_option", f"unknown level(s) {bad}; choose from {LEVELS}")
    agent: type | None = None
    if args.agent:
        try:
            agent = load_agent(args.agent)
        except ValueError as err:
            return print_error("setup/bad_option", str(err))
        levels.append(AGENT)
    if args.games < 1:
        return print_error("setup/bad_option", "--games must be at least 1")
    try:
        rules = rules_for(args.edition, args.mode)
        if not rules.min_players <= len(levels) <= rules.max_players:
            raise GameError("setup/player_count", f"{len(levels)} seats; {rules.edition} plays "
                            f"with {rules.min_players} to {rules.max_players}")  # fmt: skip
        slugs = args.deck or default_bot_decks(args.data_dir)
        cards = deck_cards(args.data_dir, slugs)
    except GameError as err:
        return print_error(err.code, err.message)
    except KeyError as err:
        return print_error("deck/not_found", f"no deck {err}")
    book = book_of(cards)
    deck = [c["id"] for c in cards]
    tally = Tally()
    players = seat_names(len(levels))
    started = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        shift = i % len(levels)
        seat_levels = levels[shift:] + levels[:shift]
        try:
            bots = [
                _seat(level, bot_rng(seed, s), args.lang, book, agent)
                for s, level in enumerate(seat_levels)
            ]
        except TypeError as bad:  # the agent's constructor does not take rng, lang, book
            return print_error("setup/bad_option", f"cannot make {args.agent}: {bad}")
        try:
            state, _ = play_game(rules, players, bots, deck, seed)
        except GameError as bad:  # only an outside agent can make an illegal move
            return print_error(bad.code, f"game {seed}: {bad.message}")
        tally.add(state, seat_levels)
    elapsed = time.perf_counter() - started
    table = {level: tally.levels[level].as_dict() for level in dict.fromkeys(levels)}
    if args.json:
        print(json.dumps({"games": args.games, "decks": slugs, "lang": args.lang,
                          "levels": table}, separators=(",", ":")))  # fmt: skip
    else:
        print(report(table, args.games, slugs, args.lang, elapsed))
    return 0


def _seat(level: str, rng: random.Random, lang: str, book: CardBook, agent: type | None) -> Bot:
    if level == AGENT and agent is not None:
        made: Bot = agent(rng=rng, lang=lang, book=book)
        return made
    return make_bot(level, rng=rng, lang=lang, book=book)


def _cell(rate: dict[str, Any]) -> str:
    if rate["rate"] is None:
        return "-"
    low, high = rate["ci95"]
    return f"{rate['rate']:.2f} [{low:.2f}-{high:.2f}]"


def report(table: dict[str, dict[str, Any]], games: int, slugs: list[str], lang: str,
           elapsed: float) -> str:  # fmt: skip
    head = ("level", "win rate", "storyteller success", "listener accuracy", "votes/decoy")
    rows = [
        (
            level,
            _cell(row["win_rate"]),
            _cell(row["storyteller_success"]),
            _cell(row["listener_accuracy"]),
            "-"
            if row["votes_per_decoy"]["mean"] is None
            else f"{row['votes_per_decoy']['mean']:.2f}",
        )
        for level, row in table.items()
    ]
    widths = [max(len(r[k]) for r in [head, *rows]) for k in range(len(head))]
    lines = [f"{games} game(s) on {', '.join(slugs)}, clues in {lang}, {elapsed:.1f} s"]
    for r in [head, *rows]:
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip())
    lines.append("(95 % Wilson intervals; storyteller success = some but not all found the card)")
    return "\n".join(lines)
