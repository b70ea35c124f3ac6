"""``dixit simulate``: play games of computer players and summarise them.

Game ``i`` (from 0) uses seed ``S + i`` for the engine's shuffles and for every bot, so a seed
reproduces a run exactly. ``--json`` prints one line per game instead of the summary.

Without ``--bots`` the players are random bots on a deck of placeholder ids. ``--bots L`` (every
seat) or ``--bots L1,L2,...`` (seat by seat) seats bots of those levels on a real deck
(``--deck``, default the first illustrated deck), telling clues in ``--lang``; each JSON line
then adds ``"levels"`` and ``"votes": {"cast": N, "for_storyteller": K}``.

``--check`` re-runs every game's log through :func:`dixit.engine.verify` and checks the
invariants (every card accounted for, points add up to the scores, the winners hold the top
score); a failure exits 1 with the seed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from dixit.bots import LANGS, LEVELS, make_bot
from dixit.bots.arena import play_game
from dixit.engine import MODES, Event, GameError, GameState, Rules, replay, rules_for, verify

from ._common import (
    book_of,
    bot_rng,
    deck_cards,
    default_bot_decks,
    play_bot_game,
    print_error,
    quiet_broken_pipe,
    save_game,
    seat_names,
)

OUTCOMES = ("everybody", "nobody", "some")
PARTY_OUTCOMES = ("party",)  # party play: no one has to find the storyteller's card


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "simulate",
        help="play games of bots and print a summary (or one JSON line per game)",
        description="Play complete games of computer players through the engine.",
    )
    parser.add_argument(
        "--edition", default="classic", help="classic (default), 2021 or odyssey (3-12 players)"
    )
    parser.add_argument(
        "--mode", choices=tuple(MODES), default="standard", help="standard (default) or party"
    )
    parser.add_argument(
        "--check", action="store_true", help="verify every game's log and its invariants"
    )
    parser.add_argument("--players", type=int, default=5, help="players per game (default 5)")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="game i uses seed SEED+i (default 0)")
    parser.add_argument("--json", action="store_true", help="one JSON line per game on stdout")
    parser.add_argument(
        "--save", type=Path, metavar="DIR", help="write each game's events to DIR/game-<seed>.jsonl"
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar on stderr (default: only when stderr is a terminal)",
    )
    parser.add_argument(
        "--lone-finder-bonus",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a lone finder and the storyteller score 4 (default: the edition's)",
    )
    parser.add_argument(
        "--bots", metavar="LEVELS", help="bot level for every seat, or one per seat (a,b,c,...)"
    )
    parser.add_argument("--lang", choices=LANGS, default="en", help="bots' language (en)")
    parser.add_argument("--deck", action="append", help="deck slug for --bots (repeatable)")
    parser.add_argument("--data-dir", type=Path, help="where imported decks live")
    parser.add_argument("--end-at-score", type=int, help="end after a round reaching this score")
    parser.add_argument("--max-rounds", type=int, help="end after this many rounds")
    parser.set_defaults(func=run)


@dataclass(frozen=True, slots=True)
class GameSummary:
    seed: int
    rounds: int
    score_history: list[list[int]]  # running totals per seat after each round
    scores: dict[str, int]
    winners: list[str]
    outcomes: dict[str, int]
    levels: list[str] | None = None
    votes: dict[str, int] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seed": self.seed,
            "rounds": self.rounds,
            "score_history": self.score_history,
            "scores": self.scores,
            "winners": self.winners,
            "outcomes": self.outcomes,
        }
        if self.levels is not None:
            out["levels"] = self.levels
            out["votes"] = self.votes
        return out


def summarise(seed: int, state: GameState, levels: list[str] | None = None) -> GameSummary:
    players = state.players
    running = dict.fromkeys(players, 0)
    history: list[list[int]] = []
    outcomes = dict.fromkeys(PARTY_OUTCOMES if state.rules.everyone_votes else OUTCOMES, 0)
    for scored in state.rounds:
        for award in scored.awards:
            running[award.player] += award.points
        history.append([running[p] for p in players])
        outcomes[scored.outcome] = outcomes.get(scored.outcome, 0) + 1
    votes = None
    if levels is not None:
        cast = [(card, r.storyteller_card) for r in state.rounds for _, card in r.votes]
        votes = {"cast": len(cast), "for_storyteller": sum(a == b for a, b in cast)}
    return GameSummary(
        seed=seed,
        rounds=len(state.rounds),
        score_history=history,
        scores={p: state.scores[p] for p in players},
        winners=list(state.winners),
        outcomes=outcomes,
        levels=levels,
        votes=votes,
    )


class ProgressBar:
    """A one-line bar redrawn in place on a terminal, at most ten times a second."""

    def __init__(self, total: int, stream: TextIO, width: int = 30) -> None:
        self.total, self.stream, self.width = max(total, 1), stream, width
        self.started = time.perf_counter()
        self.last_draw = 0.0

    def update(self, done: int, force: bool = False) -> None:
        now = time.perf_counter()
        if not force and now - self.last_draw < 0.1 and done < self.total:
            return
        self.last_draw = now
        filled = self.width * done // self.total
        rate = done / (now - self.started) if now > self.started else 0.0
        bar = "#" * filled + "-" * (self.width - filled)
        self.stream.write(f"\r[{bar}] {done}/{self.total} games  {rate:,.0f} games/s")
        self.stream.flush()

    def close(self) -> None:
        self.update(self.total, force=True)
        self.stream.write("\n")
        self.stream.flush()


def _rules(args: argparse.Namespace) -> Rules:
    options: dict[str, Any] = {}
    if args.lone_finder_bonus is not None:
        options["lone_finder_bonus"] = args.lone_finder_bonus
    if args.end_at_score is not None:
        options["end_at_score"] = args.end_at_score
    if args.max_rounds is not None:
        options["max_rounds"] = args.max_rounds
    return rules_for(args.edition, args.mode, **options)


def check_game(state: GameState, events: list[Event], deck_size: int) -> str | None:
    """What is wrong with a played game, or None: its log re-decided by the rules, every card
    in one place, the points adding up to the scores, the winners on the top score."""
    if verify(events) != state or replay(events) != state:
        return "the log does not re-decide to the game's state"
    cards = state.all_cards()
    if len(cards) != len(set(cards)) or len(cards) != deck_size:
        return "cards lost or doubled"
    if sum(sum(r.points().values()) for r in state.rounds) != sum(state.scores.values()):
        return "the rounds' points do not add up to the scores"
    top = max(state.scores.values())
    if not state.winners or any(state.scores[w] != top for w in state.winners):
        return "a winner without the top score"
    return None


def run(args: argparse.Namespace) -> int:
    try:
        rules = _rules(args)
        if not rules.min_players <= args.players <= rules.max_players:
            raise GameError(
                "setup/player_count",
                f"{rules.edition} plays with {rules.min_players} to {rules.max_players} players",
            )
    except GameError as bad:
        return print_error(bad.code, bad.message)
    if args.games < 1:
        return print_error("setup/bad_option", "--games must be at least 1")
    seat_levels: list[str] | None = None
    book = None
    deck: list[str] | None = None
    if args.bots is not None:
        named = [lv.strip() for lv in args.bots.split(",")]
        if len(named) == 1:
            named *= args.players
        if len(named) != args.players or any(lv not in LEVELS for lv in named):
            return print_error(
                "setup/bad_option",
                f"--bots takes one level or {args.players} (one per seat) from {', '.join(LEVELS)}",
            )
        seat_levels = named
        try:
            cards = deck_cards(args.data_dir, args.deck or default_bot_decks(args.data_dir))
        except KeyError as missing:
            return print_error("deck/not_found", f"no deck {missing}")
        book = book_of(cards)
        deck = [c["id"] for c in cards]
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)

    show_progress = args.progress if args.progress is not None else sys.stderr.isatty()
    bar = ProgressBar(args.games, sys.stderr) if show_progress else None
    players = seat_names(args.players)
    summaries: list[GameSummary] = []
    started = time.perf_counter()
    try:
        for i in range(args.games):
            seed = args.seed + i
            if seat_levels is not None and book is not None and deck is not None:
                bots = [
                    make_bot(level, rng=bot_rng(seed, s), lang=args.lang, book=book)
                    for s, level in enumerate(seat_levels)
                ]
                state, events = play_game(rules, players, bots, deck, seed)
            else:
                state, events = play_bot_game(rules, players, seed)
            if args.check:
                wrong = check_game(state, events, len(events[0].pile))  # type: ignore[union-attr]
                if wrong is not None:
                    print(f"game seed {seed}: {wrong}", file=sys.stderr)
                    return 1
            summary = summarise(seed, state, seat_levels)
            if args.save is not None:
                save_game(args.save / f"game-{seed}.jsonl", events)
            if args.json:
                print(json.dumps(summary.to_json(), separators=(",", ":")), flush=False)
            summaries.append(summary)
            if bar is not None:
                bar.update(i + 1)
    except GameError as bad:  # pragma: no cover - bots only make legal moves
        return print_error(bad.code, bad.message)
    except BrokenPipeError:  # e.g. `dixit simulate --json | head`
        return quiet_broken_pipe()
    elapsed = time.perf_counter() - started
    if bar is not None:
        bar.close()
    if not args.json:
        print(report(rules, args.players, summaries, elapsed))
    return 0


def _mean(values: list[float] | list[int]) -> float:
    return statistics.fmean(values) if values else 0.0


def report(rules: Rules, players: int, games: list[GameSummary], elapsed: float) -> str:
    """The human summary of a run."""
    rounds = [g.rounds for g in games]
    totals: dict[str, int] = {}
    for g in games:
        for name, count in g.outcomes.items():
            totals[name] = totals.get(name, 0) + count
    all_rounds = sum(totals.values()) or 1
    finals = [sorted(g.scores.values()) for g in games]
    top = [f[-1] for f in finals]
    bottom = [f[0] for f in finals]
    spread = [f[-1] - f[0] for f in finals]
    shared = sum(1 for g in games if len(g.winners) > 1)
    seat_wins = [0] * players
    for g in games:
        for w in g.winners:
            seat_wins[list(g.scores).index(w)] += 1
    lines = [
        f"{len(games)} game(s), {players} players, {rules.edition} edition"
        + (f", {rules.mode} mode" if rules.mode != "standard" else "")
        + (f", options {rules.options()}" if rules.options() else ""),
        f"rounds per game    mean {_mean(rounds):.2f}  min {min(rounds)}  max {max(rounds)}",
        "round outcomes     "
        + "  ".join(f"{name} {100 * count / all_rounds:.1f}%" for name, count in totals.items()),
        f"winning score      mean {_mean(top):.1f}  min {min(top)}  max {max(top)}",
        f"lowest score       mean {_mean(bottom):.1f}  min {min(bottom)}  max {max(bottom)}",
        f"score spread       mean {_mean(spread):.1f}  (top minus bottom)  "
        f"stdev of all scores {statistics.pstdev([s for f in finals for s in f]):.1f}",
        f"shared victories   {shared} ({100 * shared / len(games):.1f}%)",
        "wins by seat       " + "  ".join(f"{i + 1}:{w}" for i, w in enumerate(seat_wins)),
        f"speed              {len(games) / elapsed if elapsed > 0 else 0.0:,.0f} games/s "
        f"({elapsed:.2f} s)",
    ]
    return "\n".join(lines)
