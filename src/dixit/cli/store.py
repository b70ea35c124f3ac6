"""``dixit store stats|reclaim``: what the event store holds, and deleting what the retention
rules no longer keep (the server does it by itself every ``--sweep-every``)."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from .serve import add_retention_arguments, retention_of, store_location


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "store",
        help="see the event store's size, and reclaim space",
        description="What the event store holds (rooms by status, events, bytes), and "
        "deleting the rooms and uploaded decks the retention rules no longer keep.",
    )
    sub = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    for name, what in (
        ("stats", "rooms by status, events and bytes"),
        ("reclaim", "delete what the retention rules no longer keep, then print the stats"),
    ):
        action = sub.add_parser(name, help=what, description=what)
        action.add_argument(
            "--database", help="event store URL (default: dixit.sqlite3 in the data directory)"
        )
        action.add_argument("--data-dir", type=Path, help="where the database and decks live")
        action.add_argument("--json", action="store_true", help="one JSON object")
        if name == "reclaim":
            add_retention_arguments(action)
            action.add_argument(
                "--vacuum",
                action="store_true",
                help="also give the freed space back to the file system (SQLite: VACUUM holds "
                "the write lock while it copies the file; PostgreSQL: VACUUM, no lock)",
            )
        action.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dixit.storage import StorageError

    data_dir, database = store_location(args)
    try:
        report = asyncio.run(_run(args, database, data_dir))
    except (StorageError, ValueError) as error:
        print(json.dumps({"error": {"code": getattr(error, "code", "store/error"),
                                    "message": str(error)}}))  # fmt: skip
        return 2
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        for key, value in report.items():
            print(f"{key}: {value}")
    return 0


async def _run(args: argparse.Namespace, database: str, data_dir: Path) -> dict[str, Any]:
    from dixit.server.cards import card_source
    from dixit.server.retention import sweep
    from dixit.storage import open_store

    store = open_store(database)
    await store.open()
    try:
        report: dict[str, Any] = {}
        if args.action == "reclaim":
            swept = await sweep(store, retention_of(args), cards=card_source(data_dir))
            report["deleted_rooms"] = swept.rooms
            report["deleted_decks"] = swept.decks
            if args.vacuum:
                await store.vacuum()
        stats = await store.stats()
        report |= {
            "rooms": stats.rooms,
            "events": stats.events,
            "size_bytes": stats.size_bytes,
            "used_bytes": stats.used_bytes,
        }
        return report
    finally:
        await store.close()
