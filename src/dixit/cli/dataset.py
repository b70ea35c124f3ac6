"""``dixit export`` and ``dixit import-rounds``: played rounds as a dataset (docs/research.md)."""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from dixit.dataset import (
    DatasetError,
    RoundRecord,
    game_id,
    read_rounds,
    rounds_of_game,
    write_jsonl,
    write_parquet,
)
from dixit.engine import GameError
from dixit.engine.serialize import event_from_json
from dixit.storage import EventStore, default_database_url, open_store

from ._common import print_error

PARQUET_NEEDS = "Parquet needs pyarrow: pip install 'dixit[research]'"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = subparsers.add_parser(
        "export",
        help="write the finished games of a store as a dataset of rounds",
        description=(
            "Every revealed round of every finished game in the store, one record per round "
            "(JSON Lines, or Parquet for a .parquet file): seats instead of names, no "
            "unfinished round or game."
        ),
    )
    export.add_argument("out", type=Path, help="FILE.jsonl or FILE.parquet")
    export.add_argument("--database", default=None, help="sqlite:///… or postgresql://…")
    export.set_defaults(func=run_export)
    read = subparsers.add_parser(
        "import-rounds",
        help="read a dataset of rounds back, check every record and summarise it",
    )
    read.add_argument("file", type=Path, help="FILE.jsonl or FILE.parquet")
    read.set_defaults(func=run_import)


def _seat_kind(seat: dict[str, Any]) -> str:
    """``human``, or ``bot:LEVEL`` for a stored seat a computer plays (its ``kind``, or the
    flags of records stored before seat kinds)."""
    kind = seat.get("kind")
    computer = kind != "person" if kind is not None else seat.get("is_bot")
    if not computer:
        return "human"
    return f"bot:{seat.get('level') or seat.get('bot_level') or seat.get('bot_kind') or 'random'}"


async def _records(store: EventStore) -> list[RoundRecord]:
    await store.open()
    try:
        records: list[RoundRecord] = []
        for code in await store.room_codes():
            room = await store.load_room(code) or {}
            settings: dict[str, Any] = room.get("settings") or {}
            kinds = {s.get("id"): _seat_kind(s) for s in room.get("seats") or []}
            for number in range(1, int(room.get("game_number") or 1) + 1):
                stored = await store.read(f"{code}:{number}")
                events = [event_from_json(e.data) for e in stored]
                players = getattr(events[0], "players", ()) if events else ()
                records += rounds_of_game(
                    events,
                    game_id(code, number),
                    language=settings.get("language"),
                    seat_kinds=[kinds.get(p, "human") for p in players],
                )
        return records
    finally:
        await store.close()


def run_export(args: argparse.Namespace) -> int:
    url = args.database or default_database_url()
    try:
        records = asyncio.run(_records(open_store(url)))
    except (OSError, ValueError, GameError) as bad:
        return print_error("export/failed", f"cannot read the store {url}: {bad}")
    write = write_parquet if args.out.suffix == ".parquet" else write_jsonl
    try:
        count = write(records, args.out)
    except ImportError:
        return print_error("export/parquet", PARQUET_NEEDS)
    games = len({r.game for r in records})
    print(f"{count} rounds of {games} finished games written to {args.out}")
    return 0


def _summary(records: Iterator[RoundRecord]) -> dict[str, Any]:
    rounds = found = votes = some = 0
    games: set[str] = set()
    languages: dict[str, int] = {}
    for r in records:
        rounds += 1
        games.add(r.game)
        some += r.outcome == "some"
        key = r.language or "?"
        languages[key] = languages.get(key, 0) + 1
        target = r.table.index(r.storyteller_card)
        seconds = r.second_votes or [None] * len(r.votes)
        for seat, (vote, second) in enumerate(zip(r.votes, seconds, strict=True)):
            if seat != r.storyteller:
                votes += 1 + (second is not None)
                found += (vote == target) + (second == target)
    return {
        "rounds": rounds,
        "games": len(games),
        "languages": languages,
        "storyteller_success": round(some / rounds, 3) if rounds else None,
        "listener_accuracy": round(found / votes, 3) if votes else None,
    }


def run_import(args: argparse.Namespace) -> int:
    try:
        summary = _summary(read_rounds(args.file))
    except DatasetError as bad:
        return print_error("dataset/invalid", str(bad), line=bad.line)
    except (OSError, UnicodeDecodeError) as bad:
        return print_error("io/unreadable", f"cannot read {args.file}: {bad}")
    except ImportError:
        return print_error(
            "dataset/parquet", "Parquet needs pyarrow: pip install 'dixit[research]'"
        )
    print(json.dumps(summary, ensure_ascii=False))
    return 0
