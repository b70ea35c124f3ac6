"""``dixit serve``: run the game server (SQLite in the data directory unless told otherwise)."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from dixit.storage.retention import Retention, parse_duration

if TYPE_CHECKING:
    from dixit.server import ServerConfig


def add_retention_arguments(parser: argparse.ArgumentParser) -> None:
    """How long the store keeps each kind of room (``dixit serve`` and ``dixit store``)."""
    keep = Retention()

    def option(flag: str, default: float | None, what: str) -> None:
        shown = "forever" if default is None else f"{default / 3600:g}h"
        parser.add_argument(
            flag, type=parse_duration, default=default, metavar="DURATION",
            help=f"{what}: kept this long after the last change (90s, 30m, 24h, 7d or "
            f"forever; default {shown})",
        )  # fmt: skip

    option("--keep-lobby", keep.lobby_s, "a room whose first game never started")
    option("--keep-abandoned", keep.abandoned_s, "a game nobody plays on")
    option("--keep-finished", keep.finished_s, "a finished game (the dataset)")
    option("--keep-uploads", keep.uploads_s, "an uploaded deck no stored room deals from")


def retention_of(args: argparse.Namespace, every_s: float = Retention().every_s) -> Retention:
    return Retention(
        args.keep_lobby, args.keep_abandoned, args.keep_finished, args.keep_uploads, every_s
    )


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
        "--client-dir",
        type=Path,
        default=None,
        help="built web client (default: the one an installed wheel carries, else web/dist "
        "of the checkout)",
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=1.0,
        help="scale of computer players' thinking time: 1 (default) plays at a person's pace "
        "(a clue in 3-7 s, a vote in 1-3 s; a reveal holds the next turn up to 30 s), 0 at once",
    )
    parser.add_argument(
        "--max-rooms",
        type=int,
        default=5000,
        help="live rooms per process (idle rooms are unloaded first, then new ones refused)",
    )
    parser.add_argument(
        "--idle-unload",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="a room nobody has used this long leaves memory; it loads again when asked for "
        "(default: 120)",
    )
    parser.add_argument(
        "--finished-unload",
        type=float,
        default=15.0,
        metavar="SECONDS",
        help="the same for a room whose game is over (default: 15)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="server processes sharing the port, one per core (default: 1, or 0 with "
        "--database memory://); this process supervises them and starts one that dies again "
        "at once, forked from a copy that has the server imported (no cold start); they share "
        "the event store (SQLite or PostgreSQL, not memory://) and, with several and without "
        "--pubsub redis://, fan out through a broker this process runs (docs/deploy.md, "
        "'Every core'); 0: serve in this one process, unsupervised (debugging)",
    )
    parser.add_argument(
        "--ws",
        choices=["dixit", "uvicorn"],
        default="dixit",
        help="who speaks WebSocket: dixit's own transport, or uvicorn's implementation "
        "(slower; for telling a transport bug from a game bug) (default: dixit)",
    )
    parser.add_argument(
        "--ws-compression",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="per-message deflate on WebSockets: less traffic, about 15%% more server CPU "
        "(default: off)",
    )
    parser.add_argument(
        "--rate-limits",
        choices=("on", "off"),
        default=os.environ.get("DIXIT_RATE_LIMITS", "on"),
        help="per-client rate limits on the lobby routes and room sockets (default: on, or "
        "$DIXIT_RATE_LIMITS; off for a load test from one address)",
    )
    parser.add_argument(
        "--rate-limit",
        action="append",
        default=[],
        metavar="ROUTE=BURST/PER_MINUTE",
        help="change one route's limit per client address, e.g. create=20/30; routes: "
        "create, join, spectate, upload, decks, tables, connect, hello (docs/deploy.md)",
    )
    parser.add_argument(
        "--trust-proxy",
        action="store_true",
        help="behind HAProxy, nginx or Caddy: a client is the last address in "
        "X-Forwarded-For (never use it when clients reach the server directly)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="URL",
        help="a site whose pages may open room sockets besides this server's own "
        "(https://example.org; * for any); repeat for several",
    )
    add_retention_arguments(parser)
    parser.add_argument(
        "--sweep-every",
        type=parse_duration,
        default=600.0,
        metavar="DURATION",
        help="how often the server deletes what the retention rules no longer keep (10m)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn log level")
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default="text",
        help="text (default) or json: one JSON object a line, for log collectors",
    )
    parser.set_defaults(func=run)


def store_location(args: argparse.Namespace) -> tuple[Path, str]:
    """The data directory (``--data-dir`` also becomes ``$DIXIT_DATA_DIR``, where the deck
    library looks) and the event store's URL (default: ``dixit.sqlite3`` in that directory)."""
    from dixit.storage import default_data_dir

    if args.data_dir is not None:
        os.environ["DIXIT_DATA_DIR"] = str(args.data_dir)
    data_dir: Path = args.data_dir or default_data_dir()
    return data_dir, args.database or f"sqlite:///{data_dir / 'dixit.sqlite3'}"


def run(args: argparse.Namespace) -> int:
    from dixit.server import Limits, ServerConfig
    from dixit.server.limits import RateLimits, parse_rate

    data_dir, database = store_location(args)
    workers = args.workers
    if workers is None:  # a restarted worker would find nothing of an in-memory store
        workers = 0 if database.startswith("memory:") else 1
    if workers > 0:
        from dixit.server.workers import preload

        # The workers' fork server imports the server while this process goes on; started
        # once $DIXIT_DATA_DIR is set, which the workers inherit from it.
        preload()
    defaults = ServerConfig()
    try:
        rates = [parse_rate(text) for text in args.rate_limit]
    except ValueError as error:
        _say(args.log_format, "error", f"dixit serve: --rate-limit {error}", sys.stderr)
        return 2
    rate_limits = RateLimits(args.rate_limits == "on", args.trust_proxy).with_rates(rates)
    config = ServerConfig(
        database=database,
        pubsub=args.pubsub,
        data_dir=data_dir,
        client_dir=args.client_dir or defaults.client_dir,
        bot_delay_s=max(0.0, args.bot_delay),
        idle_unload_s=max(0.0, args.idle_unload),
        finished_unload_s=max(0.0, args.finished_unload),
        limits=Limits(max_rooms=args.max_rooms),
        rate_limits=rate_limits,
        allowed_origins=tuple(args.allowed_origin),
        retention=retention_of(args, args.sweep_every or Retention().every_s),
    )
    problem = asyncio.run(_preflight(database, args.pubsub))
    if problem:
        _say(args.log_format, "error", f"dixit serve: cannot start: {problem}", sys.stderr)
        return 2
    if workers > 0:
        from dixit.server.workers import WorkerOptions, serve_workers

        options = WorkerOptions(args.log_level, args.log_format, args.ws_compression, args.ws)
        return serve_workers(
            config,
            args.host,
            args.port,
            workers,
            options,
            lambda level, text: _say(
                args.log_format, level, text, sys.stderr if level == "error" else sys.stdout
            ),
        )
    return _serve_here(args, config)


def _serve_here(args: argparse.Namespace, config: ServerConfig) -> int:
    """``--workers 0``: serve in this process, with nobody to start it again if it dies."""
    import uvicorn

    from dixit.infra.uvicorn_ws import serving
    from dixit.ops.logs import log_config
    from dixit.server.app import create_app

    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::", "::1") else args.host
    _say(
        args.log_format,
        "info",
        f"Dixit server: open http://{shown}:{args.port}/  (database: {config.database}; "
        "one process, unsupervised)",
        sys.stdout,
    )
    app, ws = serving(args.ws, create_app(config))
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=log_config(args.log_format, args.log_level),
        ws=ws,
        ws_max_size=64 * 1024,
        ws_per_message_deflate=args.ws_compression,
        ws_ping_interval=20,
        ws_ping_timeout=30,
        proxy_headers=False,  # the client's address is read by our rate limits only
    )
    return 0


def _say(log_format: str, level: str, text: str, stream: TextIO) -> None:
    """One line as it is, or as a JSON log entry under ``--log-format json``."""
    if log_format == "json":
        from dixit.ops.logs import JsonFormatter

        record = logging.LogRecord(
            "dixit.serve", logging.getLevelName(level.upper()), "", 0, text, None, None
        )
        text = JsonFormatter().format(record)
    print(text, file=stream, flush=True)


async def _preflight(database: str, pubsub_url: str) -> str | None:
    """Open (then close) the event store and the fan-out once before serving: a dependency
    that refuses gives one line (what, where, why) instead of a start-up traceback."""
    from dixit.pubsub import PubSubUnavailable, open_pubsub
    from dixit.storage import StorageError, open_store

    try:
        store = open_store(database)
        bus = open_pubsub(pubsub_url)
    except ValueError as error:
        return str(error)
    try:
        await store.open()
    except StorageError as error:
        return f"event store: {error.message} ({error.code})"
    try:
        await bus.open()
    except PubSubUnavailable as error:
        return f"fan-out: {error.message} ({error.code})"
    finally:
        await store.close()
    await bus.close()
    return None
