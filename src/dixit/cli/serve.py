"""``dixit serve``: run the game server (SQLite in the data directory unless told otherwise)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    parser = subparsers.add_parser(
        "serve",
        help="run the game server",
        description="Run the Dixit game server: lobby API, real-time rooms, web client.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--database",
        default=None,
        help="event store URL: sqlite:///relative.db, sqlite:////absolute.db, "
        "postgresql://user@host/db, memory:// (default: dixit.sqlite3 in the data directory)",
    )
    parser.add_argument(
        "--pubsub", default="memory://", help="fan-out URL: memory:// (default) or redis://…"
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="where the database and imported decks live "
        "(default: $DIXIT_DATA_DIR or ~/.local/share/dixit)",
    )
    parser.add_argument(
        "--client-dir", type=Path, default=None, help="built web client (default: web/dist)"
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=1.0,
        help="scale of computer players' thinking time: 1 (default) plays at a person's pace "
        "(a clue in 3-7 s, a vote in 1-3 s), 0 at once",
    )
    parser.add_argument("--max-rooms", type=int, default=5000, help="rooms per process")
    parser.add_argument(
        "--ws-compression",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="per-message deflate on WebSockets: less traffic, about 15%% more server CPU "
        "(default: off)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from dixit.server import Limits, ServerConfig, create_app
    from dixit.storage import default_data_dir

    if args.data_dir is not None:
        os.environ["DIXIT_DATA_DIR"] = str(args.data_dir)
    data_dir: Path = args.data_dir or default_data_dir()
    database: str = args.database or f"sqlite:///{data_dir / 'dixit.sqlite3'}"
    defaults = ServerConfig()
    config = ServerConfig(
        database=database,
        pubsub=args.pubsub,
        data_dir=data_dir,
        client_dir=args.client_dir or defaults.client_dir,
        bot_delay_s=max(0.0, args.bot_delay),
        limits=Limits(max_rooms=args.max_rooms),
    )
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::", "::1") else args.host
    print(f"Dixit server: open http://{shown}:{args.port}/  (database: {database})", flush=True)
    uvicorn.run(
        create_app(config),
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=args.ws_compression,
        ws_ping_interval=20,
        ws_ping_timeout=30,
    )
    return 0
