"""Computer players: listener accuracy, storyteller tables, arena, latency, memory.

Sections (``--only`` picks some; default all):

- ``accuracy``: each clue of an evaluation file (``{"plate", "lang", "clue", "kind"}`` per line)
  is put to every level on ``--lineups`` 6-card lineups (the clue's card and 5 others of its
  deck, seeded); accuracy = the share of votes on the clue's card (chance 1/6), and reading
  accuracy = how often the level's reading alone ranks the clue's card first (its vote adds
  noise and, for strong, a lasting taste of its own). Per level and language, and per kind for
  strong.
- ``tell``: games of strong bots only (4, 5 and 6 players, every language): storyteller success
  (some but not all found) and listener accuracy.
- ``arena``: mixed tables of strong, medium, easy and random (seats rotated): win rate with 95 %
  intervals.
- ``latency``: decision time per level and skill (clue, submit, vote) on one core, p50/p95.
- ``books``: the CPU a restarted server spends giving ``--rooms`` rooms of one deck their card
  books, each with 10 learned clues: every room building its own (as before #30) and every
  room copying the one the process built (the shelf's ``_book_of``); the two fit alike.
- ``reads``: what one deck's book keeps of the words and phrases it has read, shared by every
  room's copy (#27), once every phrase of the deck's clue bank (clues and anchors) in English,
  then in all six languages, has been read as a storyteller predicts the others (``SEEN``): its
  memory (tracemalloc; bounded by ``WORDS_KEPT`` and ``PHRASES_KEPT``), and the CPU per phrase
  of reading it first and of a copy reading it again after it learned a clue.
- ``memory``: the resident size of a process holding every built-in deck's book, and the
  installed size of ``dixit.bots``.

Cards come from the built-in decks (the illustrated decks map evaluation plates through
``source.plate``; a plate number alone means the first pool, ``public-domain/NNN``) or, with
``--meta DIR``, straight from per-plate metadata files (ids ``plate-<pool>-NNN``).
Run: ``.venv/bin/python bench/bots.py --clues bench/data/dev_clues.jsonl``
(``--json`` for one JSON object); latency on one core: prefix ``taskset -c 0``.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from dixit.bots import LANGS, LEVELS, CardBook, make_bot
from dixit.bots.arena import Tally, bot_rng, play_game
from dixit.decks.library import DeckLibrary, builtin_root
from dixit.engine import (
    GiveClue,
    Phase,
    StartGame,
    SubmitCards,
    execute,
    player_view,
    rules_for,
    waiting_for,
)

ROOT = Path(__file__).resolve().parents[1]
LINEUP = 6


def load_decks(
    meta: Path | None, curation: Path | None = None, root: Path | None = None
) -> dict[str, list[dict[str, Any]]]:
    """Deck name -> card dicts: every built-in deck, or the metadata folder (split into the
    decks of a curation file ``{"cards": [{"plate", "deck"}]}`` when given)."""
    if meta is not None:
        cards = []
        for path in sorted(meta.glob("*.json")):
            try:
                data = json.loads(path.read_text("utf-8"))
            except (OSError, json.JSONDecodeError):
                continue  # a file still being written
            if data.get("verdict") == "keep" and isinstance(data.get("text"), dict):
                plate = plate_key(data["plate"])
                cards.append({"id": f"plate-{plate.replace('/', '-')}", "text": data["text"],
                              "source": {"plate": plate}})  # fmt: skip
        if curation is None:
            return {"meta": cards}
        raw = json.loads(curation.read_text("utf-8"))["cards"]
        deck_of = {plate_key(c["plate"]): c["deck"] for c in raw}
        split: dict[str, list[dict[str, Any]]] = {}
        for card in cards:
            slug = deck_of.get(card["source"]["plate"])
            if slug is not None:
                split.setdefault(slug, []).append(card)
        return dict(sorted(split.items()))
    library = DeckLibrary(Path("/nonexistent"), builtin_dir=root or builtin_root())
    return {  # card dicts as the server gives them to computer players (clue bank included)
        info.slug: [{"id": c.id, **(c.metadata or {})} for c in library.get(info.slug).cards]
        for info in sorted(library.list(), key=lambda i: i.slug)
    }


def plate_key(plate: object) -> str:
    """A plate as the decks name it: ``public-domain-2/036``; a bare number is of the first
    pool (the evaluation files were written when there was one)."""
    return str(plate) if "/" in str(plate) else f"public-domain/{int(str(plate)):03d}"


def plate_index(decks: Mapping[str, list[dict[str, Any]]]) -> dict[str, tuple[str, str]]:
    """Plate -> (deck, card id) for illustrated cards."""
    out = {}
    for slug, cards in decks.items():
        for card in cards:
            source = card.get("source")
            if isinstance(source, dict) and "plate" in source:
                out[plate_key(source["plate"])] = (slug, card["id"])
    return out


def read_clues(paths: Iterable[Path]) -> list[dict[str, Any]]:
    rows = []
    for path in paths:
        for line in path.read_text("utf-8").splitlines():
            if line.strip():
                rows.append(json.loads(line))
    return rows


def lineups_of(
    decks: Mapping[str, list[dict[str, Any]]], rows: list[dict[str, Any]], lineups: int, seed: int
) -> Iterator[tuple[int, int, dict[str, Any], str, str, list[str]]]:
    """For each clue row whose plate is in a deck: ``lineups`` seeded 6-card lineups of its card
    and five others of its deck, as (row index, lineup index, row, deck, card, lineup)."""
    plates = plate_index(decks)
    for n, row in enumerate(rows):
        where = plates.get(plate_key(row["plate"]))
        if where is None:
            continue
        slug, target = where
        others = [c["id"] for c in decks[slug] if c["id"] != target]
        for k in range(lineups):
            rng = random.Random(f"{seed}/{n}/{k}")
            table = [target, *rng.sample(others, LINEUP - 1)]
            rng.shuffle(table)
            yield n, k, row, slug, target, table


def accuracy(
    decks: Mapping[str, list[dict[str, Any]]], clues: list[dict[str, Any]], lineups: int, seed: int
) -> dict[str, Any]:
    books = {slug: CardBook.from_cards(cards) for slug, cards in decks.items()}
    plates = plate_index(decks)
    hits: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    read: dict[tuple[str, str], list[int]] = defaultdict(lambda: [0, 0])
    kinds: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for n, k, row, slug, target, table in lineups_of(decks, clues, lineups, seed):
        for level in LEVELS:
            bot = make_bot(level, rng=random.Random(f"{seed}/{n}/{k}/{level}"),
                           lang=row["lang"], book=books[slug])  # fmt: skip
            vote = _vote(bot, row["clue"], table)
            for key in ((level, row["lang"]), (level, "all")):
                hits[key][0] += vote == target
                hits[key][1] += 1
            if hasattr(bot, "rank"):  # its reading alone: the top card, no noise or taste
                top = bot.rank(row["clue"], table)[0]
                for key in ((level, row["lang"]), (level, "all")):
                    read[key][0] += top == target
                    read[key][1] += 1
            if level == "strong":
                kinds[row.get("kind", "?")][0] += vote == target
                kinds[row.get("kind", "?")][1] += 1
    skipped = sum(plate_key(r["plate"]) not in plates for r in clues)
    table_out: dict[str, dict[str, Any]] = {}
    for (level, lang), (k, n) in sorted(hits.items()):
        table_out.setdefault(level, {})[lang] = round(k / n, 3)
    reading_out: dict[str, dict[str, Any]] = {}
    for (level, lang), (k, n) in sorted(read.items()):
        reading_out.setdefault(level, {})[lang] = round(k / n, 3)
    used = [r for r in clues if plate_key(r["plate"]) in plates]
    counts = {lang: sum(1 for r in used if r["lang"] == lang) for lang in LANGS}
    return {
        "clues": len(clues) - skipped,
        "skipped": skipped,
        "per_language": counts,
        "lineups_per_clue": lineups,
        "accuracy": table_out,
        "reading_accuracy": reading_out,
        "strong_by_kind": {kd: round(k / n, 3) for kd, (k, n) in sorted(kinds.items())},
    }


def _vote(bot: Any, clue: str, table: list[str]) -> str:
    """The bot's vote for ``clue`` on ``table`` (through its listener skill)."""
    if hasattr(bot, "listen"):
        return str(bot.listen(clue, tuple(table)))
    return str(bot.rng.choice(table))


TABLE_DECK = 42  # cards a 6-player classic game needs: smaller decks are only played in company


def illustrated(decks: Mapping[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    """The decks games are played on: the illustrated ones (or the metadata folder) big enough
    for a 6-player table on their own, else all."""
    chosen = {
        s: c
        for s, c in decks.items()
        if any("source" in card for card in c) and len(c) >= TABLE_DECK
    }
    return chosen or dict(decks)


def _rates(tally: Tally) -> dict[str, Any]:
    return {level: stats.as_dict() for level, stats in tally.levels.items()}


def tell(
    decks: Mapping[str, list[dict[str, Any]]], games: int, seed: int, langs: Iterable[str] = LANGS
) -> dict[str, Any]:
    """Tables of strong bots only: per language and per player count."""
    out: dict[str, Any] = {}
    for slug, cards in illustrated(decks).items():
        book = CardBook.from_cards(cards)
        deck = [c["id"] for c in cards]
        per_lang: dict[str, Any] = {}
        every = Tally()
        for lang in langs:
            tally = Tally()
            for g in range(games):
                players = 4 + g % 3
                s = seed + g
                levels = ["strong"] * players
                bots = [make_bot("strong", rng=bot_rng(s, i), lang=lang, book=book)
                        for i in range(players)]  # fmt: skip
                state, _ = play_game(rules_for("classic"), _names(players), bots, deck, s)
                tally.add(state, levels)
                every.add(state, levels)
            row = tally.levels["strong"].as_dict()
            per_lang[lang] = {k: row[k] for k in ("storyteller_success", "listener_accuracy")}
        row = every.levels["strong"].as_dict()
        out[slug] = {"per_language": per_lang, "all": {
            k: row[k] for k in ("storyteller_success", "listener_accuracy")}}  # fmt: skip
    return out


def _names(count: int) -> list[str]:
    return [f"p{i + 1}" for i in range(count)]


def arena(decks: Mapping[str, list[dict[str, Any]]], games: int, seed: int) -> dict[str, Any]:
    """Mixed tables: one seat per level (seats rotate), languages in turn."""
    out: dict[str, Any] = {}
    levels = list(reversed(LEVELS))  # strong, medium, easy, random
    for slug, cards in illustrated(decks).items():
        book = CardBook.from_cards(cards)
        deck = [c["id"] for c in cards]
        tally = Tally()
        for g in range(games):
            s = seed + g
            seat_levels = levels[g % 4 :] + levels[: g % 4]
            lang = LANGS[g % len(LANGS)]
            bots = [make_bot(lv, rng=bot_rng(s, i), lang=lang, book=book)
                    for i, lv in enumerate(seat_levels)]  # fmt: skip
            state, _ = play_game(rules_for("classic"), _names(4), bots, deck, s)
            tally.add(state, seat_levels)
        out[slug] = {"games": games, "levels": _rates(tally)}
    return out


PEOPLE = frozenset({"p3", "p4"})  # latency: seats the storytellers are told are people


def latency(decks: Mapping[str, list[dict[str, Any]]], games: int, seed: int) -> dict[str, Any]:
    """Milliseconds per decision, per level and skill, over 5-player games on one core. Two
    seats are declared people (:data:`PEOPLE`), so a storyteller models both kinds of player.
    ``cpu_p95_ms``: the same in this process's CPU time, which a shared machine's other work
    does not inflate."""
    slug, cards = next(iter(illustrated(decks).items()))
    book = CardBook.from_cards(cards)
    deck = tuple(c["id"] for c in cards)
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu: dict[tuple[str, str], list[float]] = defaultdict(list)  # this process's CPU time
    for g in range(games):
        s = seed + g
        levels = [LEVELS[(g + i) % 4] for i in range(5)]
        lang = LANGS[g % len(LANGS)]
        bots = {f"p{i}": make_bot(lv, rng=bot_rng(s, i), lang=lang, book=book,
                                  people=lambda: PEOPLE)
                for i, lv in enumerate(levels)}  # fmt: skip
        level_of = {f"p{i}": lv for i, lv in enumerate(levels)}
        rng = random.Random(s)
        players = tuple(bots)
        state, _ = execute(None, StartGame(players, deck, rules_for("classic"),
                                           first_storyteller=players[0]), rng)  # fmt: skip
        while state.phase is not Phase.OVER:
            player = waiting_for(state)[0]
            view = player_view(state, player)
            started, busy = time.perf_counter(), time.process_time()
            command = bots[player].act(view)
            spent = (time.perf_counter() - started) * 1000
            busy = (time.process_time() - busy) * 1000
            assert command is not None
            skill = ("storyteller" if isinstance(command, GiveClue)
                     else "decoy" if isinstance(command, SubmitCards) else "listener")  # fmt: skip
            times[(level_of[player], skill)].append(spent)
            cpu[(level_of[player], skill)].append(busy)
            state, _ = execute(state, command, rng)
    out: dict[str, Any] = {"deck": slug}
    for (level, skill), values in sorted(times.items()):
        values.sort()
        out.setdefault(level, {})[skill] = {
            "n": len(values),
            "p50_ms": round(statistics.median(values), 2),
            "p95_ms": round(values[int(0.95 * (len(values) - 1))], 2),
            "max_ms": round(values[-1], 2),
            "cpu_p95_ms": round(sorted(cpu[(level, skill)])[int(0.95 * (len(values) - 1))], 2),
        }
    return out


def books(decks: Mapping[str, list[dict[str, Any]]], rooms: int) -> dict[str, Any]:
    """CPU seconds to give ``rooms`` rooms of each deck their books: built each, or copied."""
    from dixit.server import shelf

    out: dict[str, Any] = {}
    for slug, cards in decks.items():
        ids = [c["id"] for c in cards]
        learned = [(ids[(7 * k) % len(ids)], f"clue {k} of a past game", "en") for k in range(10)]
        made: dict[str, list[CardBook]] = {}
        spent: dict[str, list[float]] = {}
        for way, make in (("built", CardBook.from_cards), ("copied", shelf._book_of)):
            shelf._BUILT.clear()
            for _ in range(rooms):
                started = time.process_time()
                book = make([dict(c) for c in cards])
                for card, clue, lang in learned:
                    book.learn(card, clue, lang)
                book.fit_all("a lonely voyage")
                spent.setdefault(way, []).append(time.process_time() - started)
                made.setdefault(way, []).append(book)
        same = all(
            np.array_equal(a.fit_all(c), b.fit_all(c))
            for a, b in zip(made["built"], made["copied"], strict=True)
            for c in ("storm", "clue 3", "sogno")
        )
        out[slug] = {
            "rooms": rooms,
            "same_fits": same,
            **{f"{way}_total_cpu_s": round(sum(v), 3) for way, v in spent.items()},
            **{f"{way}_first_cpu_s": round(v[0], 3) for way, v in spent.items()},
            **{
                f"{way}_median_cpu_ms": round(1000 * statistics.median(v), 2)
                for way, v in spent.items()
            },
        }
    return out


def reads(decks: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """One deck's shared reads filled with its whole clue bank: memory, and CPU per phrase."""
    import tracemalloc

    from dixit.bots import cardbook

    slug, cards = next(iter(illustrated(decks).items()))
    shown = CardBook.from_cards(cards)
    out: dict[str, Any] = {"deck": slug, "cards": len(shown),
                           "bounds": [cardbook.WORDS_KEPT, cardbook.PHRASES_KEPT]}  # fmt: skip
    for name, langs in (("en", ["en"]), ("all", LANGS)):
        phrases = sorted({text for card in shown.ids for lang in langs
                          for clue in shown.bank(card, lang)
                          for text in (clue.clue, clue.anchor)})  # fmt: skip
        warm = CardBook.from_cards(cards)  # the process's word stems and vectors, read before
        for text in phrases:
            warm.fit_all(text, cardbook.SEEN)
        book = CardBook.from_cards(cards)
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        started = time.process_time()
        for text in phrases:
            book.fit_all(text, cardbook.SEEN)
        first = time.process_time() - started
        book._fits.clear()  # the book's own fits and postings: what it forgets when it learns
        book._postings.clear()
        kept = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        room = book.copy()
        room.learn(book.ids[0], "a clue of a past round", "en")
        started = time.process_time()
        for text in phrases:
            room.fit_all(text, cardbook.SEEN)
        again = time.process_time() - started
        out[name] = {
            "phrases": len(phrases),
            "words_kept": len(book._words),
            "phrases_kept": len(book._phrases),
            "kept_mb": round(kept / 2**20, 2),
            "first_read_ms": round(1000 * first / len(phrases), 3),
            "copy_read_ms": round(1000 * again / len(phrases), 3),
        }
    return out


def memory(decks: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    """Resident memory before and after loading every deck's book; installed sizes."""
    import dixit.bots as package

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    books = [CardBook.from_cards(cards) for cards in decks.values()]
    load_s = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    root = Path(package.__file__).parent
    files = [p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts]
    return {
        "books": {slug: len(b) for slug, b in zip(decks, books, strict=True)},
        "book_build_s": round(load_s, 2),
        "peak_rss_mb_before_books": round(before / 1024, 1),
        "peak_rss_mb_after_books": round(after / 1024, 1),
        "bots_package_mb": round(sum(p.stat().st_size for p in files) / 1e6, 2),
        "vectors_mb": round((root / "data/vectors.npz").stat().st_size / 1e6, 2),
    }


def _pct(rate: dict[str, Any]) -> str:
    if rate["rate"] is None:
        return "-"
    low, high = rate["ci95"]
    return f"{rate['rate']:.2f} [{low:.2f}, {high:.2f}] (n={rate['n']})"


def markdown(report: dict[str, Any]) -> str:
    """The report as the Markdown tables of docs/ai.md."""
    out: list[str] = []
    if "accuracy" in report:
        acc = report["accuracy"]
        langs = [lang for lang in LANGS if acc["per_language"].get(lang)]
        out += [
            f"Listener accuracy on 6-card lineups ({acc['clues']} clues x "
            f"{acc['lineups_per_clue']} lineups; chance 0.17):",
            "",
            "| level | all | " + " | ".join(langs) + " |",
            "|---|---|" + "---|" * len(langs),
        ]
        for level in reversed(LEVELS):
            row = acc["accuracy"].get(level, {})
            out.append(
                f"| {level} | {row.get('all', 0):.2f} | "
                + " | ".join(f"{row.get(lang, 0):.2f}" for lang in langs)
                + " |"
            )
        kinds = ", ".join(f"{k} {v:.2f}" for k, v in acc["strong_by_kind"].items())
        out += ["", f"Strong by kind of clue: {kinds}.", ""]
    if "tell" in report:
        for slug, deck in report["tell"].items():
            out += [
                f"Strong bots only, {slug} (4, 5 and 6 players in turn):",
                "",
                "| language | storyteller success | listeners find the card |",
                "|---|---|---|",
            ]
            for lang, row in [*deck["per_language"].items(), ("all", deck["all"])]:
                out.append(
                    f"| {lang} | {_pct(row['storyteller_success'])} | "
                    f"{_pct(row['listener_accuracy'])} |"
                )
            out.append("")
    if "arena" in report:
        for slug, deck in report["arena"].items():
            out += [
                f"Arena, {slug}, {deck['games']} games of 4 (one seat per level, seats and "
                "languages rotating):",
                "",
                "| level | win rate | storyteller success | listener accuracy | votes per decoy |",
                "|---|---|---|---|---|",
            ]
            for level in reversed(LEVELS):
                row = deck["levels"][level]
                out.append(
                    f"| {level} | {_pct(row['win_rate'])} | "
                    f"{_pct(row['storyteller_success'])} | {_pct(row['listener_accuracy'])} "
                    f"| {row['votes_per_decoy']['mean']} |"
                )
            out.append("")
    if "latency" in report:
        lat = report["latency"]
        out += [
            f"Decision time in ms ({lat['deck']}, one core):",
            "",
            "| level | skill | n | p50 | p95 | max | p95 CPU |",
            "|---|---|---|---|---|---|---|",
        ]
        for level in reversed(LEVELS):
            for skill, row in lat.get(level, {}).items():
                out.append(
                    f"| {level} | {skill} | {row['n']} | {row['p50_ms']} | "
                    f"{row['p95_ms']} | {row['max_ms']} | {row.get('cpu_p95_ms', '-')} |"
                )
        out.append("")
    if "reads" in report:
        got = report["reads"]
        for name in ("en", "all"):
            row = got[name]
            out += [
                f"Shared reads of {got['deck']} ({got['cards']} cards), its clue bank in "
                f"{'English' if name == 'en' else 'six languages'} read ({row['phrases']} "
                f"phrases): {row['words_kept']} words and {row['phrases_kept']} phrases kept "
                f"(bounds {got['bounds'][0]}, {got['bounds'][1]}), {row['kept_mb']} MB; "
                f"{row['first_read_ms']} ms of CPU per phrase read first, "
                f"{row['copy_read_ms']} ms read again by a copy that learned a clue.",
                "",
            ]
    if "memory" in report:
        mem = report["memory"]
        out += [
            f"Memory: peak RSS {mem['peak_rss_mb_before_books']} MB before the books (Python, "
            f"numpy, engine), {mem['peak_rss_mb_after_books']} MB with the books of "
            f"{', '.join(mem['books'])} and the word vectors (built in {mem['book_build_s']} s). "
            f"Installed: dixit/bots {mem['bots_package_mb']} MB, of which vectors "
            f"{mem['vectors_mb']} MB.",
            "",
        ]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--clues", type=Path, nargs="*", default=[ROOT / "bench/data/dev_clues.jsonl"]
    )
    parser.add_argument("--meta", type=Path, help="per-plate metadata folder instead of the decks")
    parser.add_argument("--curation", type=Path, help="with --meta: which plate is in which deck")
    parser.add_argument("--decks-dir", type=Path, help="folder of <slug>/deck.json (built-in)")
    parser.add_argument("--lineups", type=int, default=5)
    parser.add_argument("--games", type=int, default=12, help="games per language (tell)")
    parser.add_argument("--arena-games", type=int, help="arena games per deck (2 x --games)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rooms", type=int, default=20, help="rooms given a book (books)")
    parser.add_argument(
        "--only",
        nargs="*",
        default=["accuracy", "tell", "arena", "latency", "reads", "memory"],
    )
    parser.add_argument("--langs", default=",".join(LANGS), help="languages of the tell tables")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--markdown", type=Path, metavar="REPORT", help="a saved --json report as Markdown tables"
    )
    args = parser.parse_args(argv)
    if args.markdown is not None:
        print(markdown(json.loads(args.markdown.read_text("utf-8"))))
        return 0
    decks = load_decks(args.meta, args.curation, args.decks_dir)
    out: dict[str, Any] = {}
    if "memory" in args.only:  # first: the peak before games inflate it
        out["memory"] = memory(decks)
    if "books" in args.only:
        out["books"] = books(decks, args.rooms)
    if "accuracy" in args.only:
        out["accuracy"] = accuracy(decks, read_clues(args.clues), args.lineups, args.seed)
    if "tell" in args.only:
        out["tell"] = tell(decks, args.games, args.seed, args.langs.split(","))
    if "arena" in args.only:
        out["arena"] = arena(decks, args.arena_games or args.games * 2, args.seed)
    if "latency" in args.only:
        out["latency"] = latency(decks, max(args.games // 4, 4), args.seed)
    if "reads" in args.only:
        out["reads"] = reads(decks)
    print(json.dumps(out, indent=None if args.json else 1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
