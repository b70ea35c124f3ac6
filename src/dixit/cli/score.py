"""``dixit score``: the scorekeeper for people playing with the physical box.

One round as JSON on stdin, its points as JSON on stdout::

    {"edition": "classic", "players": ["luca", "massimo", "denise", "marco", "marta"],
     "storyteller": "luca",
     "cards": {"luca": ["4"], "massimo": ["3"], "denise": ["1"], "marco": ["2"], "marta": ["5"]},
     "votes": {"massimo": "1", "denise": "4", "marco": "1", "marta": "3"},
     "options": {"lone_finder_bonus": false}}

    {"points": {"luca": 3, "massimo": 1, "denise": 5, "marco": 0, "marta": 0}}

With ``"edition": "odyssey"`` and 7 or more players a vote may be a list of one or two
cards (``"votes": {"bo": ["4", "2"]}``): the second vote, on another card.

``dixit score --interactive`` asks for the table's players once and then guides each round,
keeping a running score. Scoring is the engine's :func:`~dixit.engine.score_round`.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from typing import Any, TextIO

from dixit.engine import Code, GameError, Rules, rules_for, score_round

from ._common import print_error

MISSING_VOTE = "action/missing_vote"
UNKNOWN_PLAYER = Code.UNKNOWN_PLAYER
OPTIONS = ("lone_finder_bonus",)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "score",
        help="score one round of a physical game (JSON on stdin), or keep score interactively",
        description=(
            "Read one round as JSON on stdin and print its points as JSON. Input: "
            '{"edition": "classic"|"2021"|"odyssey", "players": [seat order], '
            '"storyteller": name, "cards": {name: [card, ...]}, '
            '"votes": {voter: card, or [card, second card] with two votes each}, '
            '"options": {"lone_finder_bonus": bool}}. Output: {"points": {name: int}}. '
            "Bad input: exit status 2 and a JSON error on stderr."
        ),
    )
    parser.add_argument(
        "--interactive",
        "-i",
        action="store_true",
        help="guided prompt that keeps a running score across rounds",
    )
    parser.add_argument(
        "--edition",
        default="classic",
        help="edition for --interactive: classic (default), 2021 or odyssey",
    )
    parser.add_argument(
        "--lone-finder-bonus",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="for --interactive: storyteller and a lone finder score 4 (default: the edition's)",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.interactive:
        options: dict[str, Any] = {}
        if args.lone_finder_bonus is not None:
            options["lone_finder_bonus"] = args.lone_finder_bonus
        try:
            rules = rules_for(args.edition, **options)
        except GameError as bad:
            return print_error(bad.code, bad.message)
        return interactive(rules, sys.stdin, sys.stdout)
    text = sys.stdin.read()
    try:
        data = json.loads(text)
    except json.JSONDecodeError as bad:
        return print_error(Code.MALFORMED, f"the input is not valid JSON: {bad}")
    try:
        points = score_json(data)
    except GameError as bad:
        return print_error(bad.code, bad.message)
    print(json.dumps({"points": points}, ensure_ascii=False))
    return 0


# --- one round from JSON ----------------------------------------------------------------------


def _malformed(message: str) -> GameError:
    return GameError(Code.MALFORMED, message)


def _card_id(value: Any, where: str) -> str:
    # Physical cards carry no ids; people may number them, so integers are accepted too.
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise _malformed(f"{where}: a card is a string (or a number)")
    card = str(value).strip()
    if not card:
        raise _malformed(f"{where}: a card id is empty")
    return card


def rules_from_json(edition: Any, options: Any) -> Rules:
    if not isinstance(edition, str):
        raise GameError(
            Code.UNKNOWN_EDITION, f"edition must be 'classic' or '2021', not {edition!r}"
        )
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise _malformed("options must be an object")
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise GameError(Code.UNKNOWN_OPTION, f"unknown option(s): {', '.join(unknown)}")
    bonus = options.get("lone_finder_bonus")
    if bonus is not None and not isinstance(bonus, bool):
        raise GameError(Code.BAD_OPTION, "lone_finder_bonus must be true or false")
    chosen: dict[str, Any] = {} if bonus is None else {"lone_finder_bonus": bonus}
    return rules_for(edition, **chosen)


def score_json(data: Any) -> dict[str, int]:
    """Validate one round given as decoded JSON and return every player's points."""
    if not isinstance(data, dict):
        raise _malformed("the input must be a JSON object")
    known = {"edition", "players", "storyteller", "cards", "votes", "options"}
    extra = sorted(set(data) - known)
    if extra:
        raise _malformed(f"unknown field(s): {', '.join(extra)}")
    for name in ("edition", "players", "storyteller", "cards", "votes"):
        if name not in data:
            raise _malformed(f"missing field {name!r}")
    rules = rules_from_json(data["edition"], data.get("options"))

    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise _malformed("players must be a list of names")
    storyteller = data["storyteller"]
    if not isinstance(storyteller, str):
        raise _malformed("storyteller must be a name")

    cards_in = data["cards"]
    if not isinstance(cards_in, dict):
        raise _malformed("cards must be an object: {player: [card, ...]}")
    cards: dict[str, list[str]] = {}
    for player, given in cards_in.items():
        items = given if isinstance(given, list) else [given]
        cards[player] = [_card_id(c, f"cards[{player!r}]") for c in items]

    votes_in = data["votes"]
    if not isinstance(votes_in, dict):
        raise _malformed("votes must be an object: {voter: card}")
    votes: dict[str, str] = {}
    second_votes: dict[str, str] = {}
    two = rules.votes_each_for(len(players)) > 1
    for voter, given in votes_in.items():
        if isinstance(given, list) and not two:
            raise _malformed(f"votes[{voter!r}]: a vote is one card at this table")
        items = given if isinstance(given, list) else [given]
        if not 1 <= len(items) <= 2:
            raise _malformed(f"votes[{voter!r}]: one card, or a list of one or two")
        votes[voter] = _card_id(items[0], f"votes[{voter!r}]")
        if len(items) == 2:
            second_votes[voter] = _card_id(items[1], f"votes[{voter!r}]")

    return score_table(rules, players, storyteller, cards, votes, second_votes)


def score_table(
    rules: Rules,
    players: Sequence[str],
    storyteller: str,
    cards: Mapping[str, Sequence[str]],
    votes: Mapping[str, str],
    second_votes: Mapping[str, str] | None = None,
) -> dict[str, int]:
    """Check a round as the rules require, score it with the engine, every player listed.
    ``second_votes``: each voter's second vote, where the rules give two."""
    seconds = dict(second_votes or {})
    if len(set(players)) != len(players) or not all(p.strip() for p in players):
        raise GameError(Code.DUPLICATE_PLAYER, "players must be distinct non-empty names")
    n = len(players)
    if not rules.min_players <= n <= rules.max_players:
        raise GameError(
            Code.PLAYER_COUNT,
            f"{rules.edition} plays with {rules.min_players} to {rules.max_players} players, "
            f"not {n}",
        )
    if storyteller not in players:
        raise GameError(UNKNOWN_PLAYER, f"storyteller {storyteller!r} is not a player")
    for who in list(cards) + list(votes):
        if who not in players:
            raise GameError(UNKNOWN_PLAYER, f"{who!r} is not a player")

    owners: dict[str, str] = {}
    each = rules.cards_each_for(n)
    for player in players:
        given = cards.get(player, ())
        want = 1 if player == storyteller else each
        if len(given) != want:
            raise GameError(
                Code.WRONG_CARD_COUNT,
                f"{player} must put exactly {want} card(s) on the table, not {len(given)}",
            )
        for card in given:
            if card in owners:
                raise GameError(
                    Code.DUPLICATE_CARD,
                    f"card {card!r} is on the table twice ({owners[card]} and {player})",
                )
            owners[card] = player

    if storyteller in votes:
        raise GameError(Code.STORYTELLER_CANNOT_VOTE, "the storyteller does not vote")
    for voter in players:
        if voter == storyteller:
            continue
        if voter not in votes:
            raise GameError(MISSING_VOTE, f"{voter} has not voted")
        card = votes[voter]
        if card not in owners:
            raise GameError(Code.CARD_NOT_ON_TABLE, f"{voter} voted for {card!r}, not on the table")
        if owners[card] == voter:
            raise GameError(Code.CANNOT_VOTE_OWN_CARD, f"{voter} voted for their own card")
    two = rules.votes_each_for(n) > 1
    for voter, card in seconds.items():
        if not two:
            raise GameError(Code.ONE_VOTE_ONLY, f"{voter}: one vote each at this table")
        if voter not in votes or voter == storyteller:
            raise GameError(Code.STORYTELLER_CANNOT_VOTE, "the storyteller does not vote")
        if card == votes[voter]:
            raise GameError(Code.DUPLICATE_CARD, f"{voter}: the second vote goes on another card")
        if card not in owners:
            raise GameError(Code.CARD_NOT_ON_TABLE, f"{voter} voted for {card!r}, not on the table")
        if owners[card] == voter:
            raise GameError(Code.CANNOT_VOTE_OWN_CARD, f"{voter} voted for their own card")

    _, awards = score_round(
        players,
        storyteller,
        owners,
        votes,
        rules.lone_finder_bonus_for(n),
        second_votes=seconds,
        received_cap=rules.votes_received_cap,
        single_vote_bonus=rules.single_vote_bonus if two else 0,
    )
    points = {p: 0 for p in players}
    for award in awards:
        points[award.player] += award.points
    return points


# --- the interactive scorekeeper --------------------------------------------------------------


class _Ended(Exception):
    """The user finished (end of input, or ``q``)."""


class _Prompt:
    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp, self.out = inp, out

    def ask(self, question: str) -> str:
        self.out.write(question)
        self.out.flush()
        line = self.inp.readline()
        if not line:  # end of input
            self.out.write("\n")
            raise _Ended
        answer = line.strip()
        if not self.inp.isatty():
            self.out.write(answer + "\n")  # echo scripted answers so the transcript reads well
        if answer.lower() in QUIT_WORDS:
            raise _Ended
        return answer

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")


QUIT_WORDS = {"q", "quit", "end", "exit", "stop"}


def _ask_players(prompt: _Prompt, rules: Rules) -> list[str]:
    while True:
        answer = prompt.ask(
            f"Players, in seat order, separated by commas ({rules.min_players}-"
            f"{rules.max_players}): "
        )
        players = [p.strip() for p in answer.split(",") if p.strip()]
        if len(set(players)) != len(players):
            prompt.say(f"  ! {Code.DUPLICATE_PLAYER}: players must have distinct names")
            continue
        if not rules.min_players <= len(players) <= rules.max_players:
            prompt.say(
                f"  ! {Code.PLAYER_COUNT}: {rules.edition} plays with {rules.min_players} to "
                f"{rules.max_players} players, not {len(players)}"
            )
            continue
        return players


def _pick_player(players: Sequence[str], answer: str) -> str | None:
    """A player by name (any case) or seat number (1-based)."""
    if answer.isdigit() and 1 <= int(answer) <= len(players):
        return players[int(answer) - 1]
    for p in players:
        if p.lower() == answer.lower():
            return p
    return None


def _numbers(answer: str, count: int, table_size: int, most: int | None = None) -> list[str]:
    """``count`` distinct table numbers (or ``count`` to ``most`` of them)."""
    parts = answer.replace(",", " ").split()
    if not count <= len(parts) <= (most or count):
        wanted = f"{count} or {most}" if most else f"exactly {count}"
        raise GameError(Code.WRONG_CARD_COUNT, f"give {wanted} table number(s)")
    for part in parts:
        if not part.isdigit() or not 1 <= int(part) <= table_size:
            raise GameError(
                Code.CARD_NOT_ON_TABLE, f"{part!r} is not a table number from 1 to {table_size}"
            )
    if len(set(int(p) for p in parts)) != len(parts):
        raise GameError(Code.DUPLICATE_CARD, "the same table number twice")
    return [str(int(p)) for p in parts]


def _play_round(
    prompt: _Prompt, rules: Rules, players: Sequence[str], storyteller: str
) -> dict[str, int]:
    n = len(players)
    each = rules.cards_each_for(n)
    table_size = rules.table_size_for(n)
    prompt.say(f"  The table has {table_size} cards, numbered 1 to {table_size} from the left.")
    owners: dict[str, str] = {}
    cards: dict[str, list[str]] = {}
    order = [storyteller] + [p for p in players if p != storyteller]
    for player in order:
        want = 1 if player == storyteller else each
        if player == storyteller:
            question = f"  Table number of the storyteller's card ({player}): "
        elif want == 1:
            question = f"  Table number of {player}'s card: "
        else:
            question = f"  Table numbers of {player}'s {want} cards: "
        while True:
            answer = prompt.ask(question)
            try:
                chosen = _numbers(answer, want, table_size)
                for card in chosen:
                    if card in owners:
                        raise GameError(
                            Code.DUPLICATE_CARD, f"card {card} is already {owners[card]}'s"
                        )
            except GameError as bad:
                prompt.say(f"  ! {bad.code}: {bad.message}")
                continue
            cards[player] = chosen
            for card in chosen:
                owners[card] = player
            break
    votes: dict[str, str] = {}
    seconds: dict[str, str] = {}
    two = rules.votes_each_for(n) > 1
    question = "voted for table number(s), one or two" if two else "voted for table number"
    for voter in order[1:]:
        while True:
            answer = prompt.ask(f"  {voter} {question}: ")
            try:
                chosen = _numbers(answer, 1, table_size, 2 if two else None)
                for card in chosen:
                    if owners[card] == voter:
                        raise GameError(Code.CANNOT_VOTE_OWN_CARD, f"{card} is {voter}'s own card")
            except GameError as bad:
                prompt.say(f"  ! {bad.code}: {bad.message}")
                continue
            votes[voter] = chosen[0]
            if len(chosen) == 2:
                seconds[voter] = chosen[1]
            break
    return score_table(rules, players, storyteller, cards, votes, seconds)


def interactive(rules: Rules, inp: TextIO, out: TextIO) -> int:
    """The guided scorekeeper. Ends on ``q`` or end of input; prints the final totals."""
    prompt = _Prompt(inp, out)
    prompt.say(f"Dixit scorekeeper ({rules.edition} edition). Enter q to finish.")
    try:
        players = _ask_players(prompt, rules)
    except _Ended:
        return 0
    totals = {p: 0 for p in players}
    width = max(len(p) for p in players)
    storyteller = players[0]
    round_number = 1
    try:
        while True:
            prompt.say()
            prompt.say(f"Round {round_number}")
            while True:
                answer = prompt.ask(f"  Storyteller [{storyteller}]: ")
                if not answer:
                    break
                picked = _pick_player(players, answer)
                if picked is None:
                    prompt.say(f"  ! {UNKNOWN_PLAYER}: {answer!r} is not a player")
                    continue
                storyteller = picked
                break
            points = _play_round(prompt, rules, players, storyteller)
            for p, got in points.items():
                totals[p] += got
            prompt.say(f"  Round {round_number} points:")
            for p in players:
                prompt.say(f"    {p:<{width}}  +{points[p]:<2}  total {totals[p]}")
            if rules.end_at_score is not None and max(totals.values()) >= rules.end_at_score:
                reached = [p for p in players if totals[p] >= rules.end_at_score]
                prompt.say(
                    f"{', '.join(reached)} reached {rules.end_at_score} points: the game ends."
                )
                break
            storyteller = players[(players.index(storyteller) + 1) % len(players)]
            round_number += 1
    except _Ended:
        pass
    prompt.say()
    prompt.say("Final totals:")
    for p in sorted(players, key=lambda p: (-totals[p], players.index(p))):
        prompt.say(f"  {p:<{width}}  {totals[p]}")
    best = max(totals.values())
    leaders = [p for p in players if totals[p] == best]
    prompt.say(("Leader: " if len(leaders) == 1 else "Leaders: ") + ", ".join(leaders))
    return 0
