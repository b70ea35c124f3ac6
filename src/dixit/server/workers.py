"""``dixit serve`` (``--workers N``, 1 by default): N server processes on one host and port,
supervised by :mod:`dixit.infra.workers`; this module is what the game gives it.

Each worker is one event loop with its own ``origin`` in fan-out messages, its own store
connections and its own rooms; what they share is the event store (SQLite file or PostgreSQL)
and, with several workers, the fan-out:

- ``--pubsub redis://…``: the workers use Redis, as separate machines would;
- otherwise (``memory://``, the default) the supervisor runs the local broker of
  :mod:`dixit.infra.broker` on a Unix socket in a private temporary directory, and every
  worker uses ``unix:///…/broker.sock`` for fan-out and presence. One worker needs no broker:
  it fans out in memory, as an unsupervised process does.

A room's sockets are served by the worker that owns it (:mod:`dixit.infra.handoff`; nothing to
pass with one worker). A worker that exits is started again at once, forked from the fork
server that imported the server (no cold start); its players reconnect (to any worker; the
supervisor's listening socket queues them meanwhile) and rooms resynchronise from the store.
The new worker takes the dead one's room leases over at once (:mod:`.liveness`: its process is
gone, the supervisor's fork server reaped it before the supervisor heard of the exit). Log
lines say which process wrote them: ``worker 2 pid 1234`` or ``supervisor``, in the text and
as a ``worker`` field in JSON logs; HTTP answers and WebSocket handshakes carry an
``x-dixit-worker: <index>:<pid>`` header.
"""

from __future__ import annotations

import asyncio
import logging
import logging.config
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dixit.infra.workers import Worker, listen, start_fork_server, supervise, watch_supervisor

from .config import ServerConfig

if TYPE_CHECKING:  # the supervisor imports no transport: the workers' fork server does
    from dixit.infra.uvicorn_ws import WsKind

log = logging.getLogger("dixit.workers")

# Imported once by the fork server, before it forks any worker.
PRELOAD = [
    "dixit.server.app",
    "dixit.server.workers",
    "uvicorn",
    "uvicorn.protocols.http.auto",
    "dixit.infra.uvicorn_ws",
]
HEADER = b"x-dixit-worker"


def preload() -> None:
    """Start the workers' fork server now: it imports :data:`PRELOAD` (a second or more) while
    the supervisor checks the store and binds the port."""
    start_fork_server(PRELOAD)


@dataclass(frozen=True)
class WorkerOptions:
    """What uvicorn is told in every worker (the same as ``dixit serve`` with one process)."""

    log_level: str = "info"
    log_format: str = "text"
    ws_compression: bool = False
    ws: WsKind = "dixit"  # "uvicorn": its own WebSocket implementation (debugging)


class WorkerTag(logging.Filter):
    """Adds ``worker`` (``2 pid 1234`` or ``supervisor``) to every log record."""

    def __init__(self, worker: str = "") -> None:
        super().__init__()
        self.worker = worker

    def filter(self, record: logging.LogRecord) -> bool:
        record.worker = self.worker
        return True


def tagged_log_config(fmt: str, level: str, worker: str) -> dict[str, Any]:
    """:func:`dixit.ops.logs.log_config` with the process named in every line."""
    from dixit.ops.logs import log_config

    config = log_config(fmt, level)
    config["filters"] = {"worker": {"()": WorkerTag, "worker": worker}}
    config["handlers"]["stderr"]["filters"] = ["worker"]
    main = config["formatters"]["main"]
    if "format" in main:
        main["format"] = "%(asctime)s %(levelname)s [%(worker)s] %(name)s: %(message)s"
    return config


def serve_workers(
    config: ServerConfig,
    host: str,
    port: int,
    workers: int,
    options: WorkerOptions,
    say: Callable[[str, str], None],
) -> int:
    """Run ``workers`` server processes on ``host:port`` until SIGTERM/SIGINT; the exit
    status. ``say(level, line)`` prints the start-up line or a one-line refusal."""
    if config.database.startswith("memory:"):
        say(
            "error",
            "dixit serve: cannot start: --workers needs a shared event store (SQLite "
            "or PostgreSQL), not memory:// (--workers 0 serves it in one process)",
        )
        return 2
    try:
        listener = listen(host, port)
    except OSError as error:
        say(
            "error",
            f"dixit serve: cannot start: cannot listen on {host}:{port}: {error.strerror or error}",
        )
        return 2
    logging.config.dictConfig(
        tagged_log_config(options.log_format, options.log_level, "supervisor")
    )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::", "::1") else host
    if config.pubsub.startswith(("redis:", "rediss:")):
        fanout = "Redis"
    else:
        fanout = "local broker" if workers > 1 else "in memory"
    say(
        "info",
        f"Dixit server: open http://{shown}:{port}/  (database: {config.database}; "
        f"{workers} worker{'s' if workers > 1 else ''}, fan-out: {fanout})",
    )
    try:
        return supervise(
            listener, workers, worker_main, lambda: _shared(config, options, workers), PRELOAD
        )
    finally:
        listener.close()


@asynccontextmanager
async def _shared(
    config: ServerConfig, options: WorkerOptions, workers: int
) -> AsyncIterator[tuple[ServerConfig, WorkerOptions]]:
    """What the workers share besides the store, while they run: the local broker, unless
    the fan-out is Redis or there is one worker; yields what each worker is started with."""
    if workers == 1 or not config.pubsub.startswith("memory:"):
        yield config, options
        return
    from dixit.infra.broker import Broker

    with tempfile.TemporaryDirectory(prefix="dixit-broker-", ignore_cleanup_errors=True) as where:
        broker = Broker(Path(where) / "broker.sock")
        await broker.start()
        log.info("local fan-out broker on %s", broker.path)
        try:
            yield replace(config, pubsub=broker.url), options
        finally:
            await broker.stop()


class _NameWorker:
    """ASGI wrapper: an ``x-dixit-worker`` header on HTTP answers (room sockets add it to their
    handshake themselves: :meth:`dixit.infra.uvicorn_ws.UvicornSocket.tagged`)."""

    def __init__(self, app: Any, name: str) -> None:
        self.app = app
        self.header = (HEADER, name.encode())

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def tagged(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = dict(message)
                message["headers"] = [*message.get("headers", ()), self.header]
            await send(message)

        await self.app(scope, receive, tagged)


async def _dependencies(config: ServerConfig) -> str | None:
    """The servers a worker depends on (PostgreSQL, Redis or the broker) answer (opened and
    closed once), or why not, in a line. A SQLite file was opened by the supervisor already
    (closing it here would checkpoint beside the other workers for nothing)."""
    from dixit.pubsub import PubSubUnavailable, open_pubsub
    from dixit.storage import StorageError, open_store

    if not config.database.startswith("sqlite:"):
        store = open_store(config.database)
        try:
            await store.open()
        except StorageError as error:
            return f"event store: {error.message} ({error.code})"
        await store.close()
    bus = open_pubsub(config.pubsub)
    try:
        await bus.open()
    except PubSubUnavailable as error:
        return f"fan-out: {error.message} ({error.code})"
    await bus.close()
    return None


def worker_main(worker: Worker) -> None:
    """A worker process: serve the supervisor's socket until SIGTERM."""
    import uvicorn

    from dixit.infra.handoff import Handoff
    from dixit.infra.uvicorn_ws import handoff_server, serving

    from .app import create_app

    config, options = worker.payload
    name = f"{worker.index}:{os.getpid()}"
    log_config = tagged_log_config(
        options.log_format, options.log_level, f"worker {worker.index} pid {os.getpid()}"
    )
    logging.config.dictConfig(log_config)
    watch_supervisor(worker.lifeline)
    problem = asyncio.run(_dependencies(config))
    if problem:
        log.error("cannot start: %s", problem)
        sys.exit(2)
    config = replace(config, workers=worker.workers, worker=worker.index)
    # One worker owns every room: nothing to pass on.
    handoff = (
        Handoff(worker.handoff_dir, worker.index, worker.workers) if worker.workers > 1 else None
    )
    app, ws = serving(
        options.ws, _NameWorker(create_app(config), name), [(HEADER, name.encode())], handoff
    )
    server_class = (
        handoff_server(handoff, ws)
        if handoff is not None and options.ws == "dixit"
        else uvicorn.Server
    )
    server = server_class(
        uvicorn.Config(
            app,
            log_level=options.log_level,
            log_config=log_config,
            ws=ws,
            ws_max_size=64 * 1024,
            ws_per_message_deflate=options.ws_compression,
            ws_ping_interval=20,
            ws_ping_timeout=30,
            proxy_headers=False,  # the client's address is read by our rate limits only
        )
    )
    server.run(sockets=[worker.listener])
