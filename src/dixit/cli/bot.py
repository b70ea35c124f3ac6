"""``dixit bot listen | tell``: a computer player's reading, as JSON Lines for tests and research.

- ``listen``: each line ``{"clue": str, "cards": [card ids]}`` is answered by one line
  ``{"ranking": [card ids, best fit first]}``;
- ``tell``: each line ``{"hand": [card ids]}`` is answered by ``{"card": id, "clue": str}``
  (a clue in ``--lang``, chosen as in a game of ``--players``).

Card ids are those of ``/api/decks/{slug}/cards``: every built-in deck, plus the decks imported
under ``--data-dir``. A bad line is answered by ``{"error": {"code", "message"}}`` on its own line
(the others are still answered) and the exit status is then 2.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from dixit.bots import LANGS, LEVELS, CardBook, make_bot
from dixit.engine import Code as codes
from dixit.engine import rules_for

from ._common import EXIT_BAD_INPUT, library_book, quiet_broken_pipe

UNKNOWN_CARD = "card/unknown"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="a computer player ranks cards for clues or tells clues (JSON Lines in and out)",
        description="A computer player's listener and storyteller skills, one JSON line at a time.",
    )
    sub = parser.add_subparsers(dest="bot_command", required=True, metavar="SKILL")
    listen = sub.add_parser(
        "listen", help='{"clue", "cards"} -> {"ranking"}: the cards, best fit first'
    )
    tell = sub.add_parser("tell", help='{"hand"} -> {"card", "clue"}: a card and a clue for it')
    tell.add_argument("--players", type=int, default=5, help="players in the imagined game (5)")
    for p in (listen, tell):
        p.add_argument("--level", choices=LEVELS, default="strong", help="default strong")
        p.add_argument("--lang", choices=LANGS, default="en", help="the room's language (en)")
        p.add_argument("--seed", type=int, default=0, help="the bot's random stream (0)")
        p.add_argument("--data-dir", type=Path, help="also read the decks imported there")
    listen.set_defaults(func=run_listen)
    tell.set_defaults(func=run_tell)


def _ids(value: Any, field: str, book: CardBook, least: int) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
        raise _Bad(codes.MALFORMED, f'"{field}" must be a list of card ids')
    if len(value) < least or len(set(value)) != len(value):
        raise _Bad(codes.MALFORMED, f'"{field}" needs at least {least} distinct card ids')
    unknown = [c for c in value if c not in book]
    if unknown:
        raise _Bad(UNKNOWN_CARD, f"no deck has the card(s) {', '.join(unknown[:5])}")
    return value


class _Bad(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code, self.message = code, message


def _serve(args: argparse.Namespace, answer: Any) -> int:
    status = 0
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as bad:
                    raise _Bad(codes.MALFORMED, f"not valid JSON: {bad}") from None
                if not isinstance(data, dict):
                    raise _Bad(codes.MALFORMED, "each line must be a JSON object")
                out = answer(data)
            except _Bad as bad:
                out = {"error": {"code": bad.code, "message": bad.message}}
                status = EXIT_BAD_INPUT
            print(json.dumps(out, ensure_ascii=False), flush=True)
    except BrokenPipeError:
        return quiet_broken_pipe()
    return status


def run_listen(args: argparse.Namespace) -> int:
    book = library_book(args.data_dir)
    bot: Any = make_bot(args.level, rng=random.Random(args.seed), lang=args.lang, book=book)

    def answer(data: dict[str, Any]) -> dict[str, Any]:
        clue = data.get("clue")
        if not isinstance(clue, str) or not clue.strip():
            raise _Bad(codes.MALFORMED, '"clue" must be a non-empty string')
        cards = _ids(data.get("cards"), "cards", book, 1)
        return {"ranking": bot.rank(clue, cards)}

    return _serve(args, answer)


def run_tell(args: argparse.Namespace) -> int:
    rules = rules_for("classic")
    if not 3 <= args.players <= 8:
        print(json.dumps({"error": {"code": codes.PLAYER_COUNT, "message": "--players: 3 to 8"}}),
              file=sys.stderr)  # fmt: skip
        return EXIT_BAD_INPUT
    book = library_book(args.data_dir)
    bot: Any = make_bot(args.level, rng=random.Random(args.seed), lang=args.lang, book=book)
    per_player = rules.cards_each_for(args.players)

    def answer(data: dict[str, Any]) -> dict[str, Any]:
        hand = _ids(data.get("hand"), "hand", book, 1)
        card, clue = bot.choose_clue(hand, args.players, per_player, set(hand))
        return {"card": card, "clue": clue}

    return _serve(args, answer)
