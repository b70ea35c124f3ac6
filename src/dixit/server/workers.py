"""``dixit serve --workers N``: N server processes on one host and port, supervised.

The supervisor (the process ``dixit serve`` started) binds the listening socket once; every
worker is handed it and serves it with uvicorn, so the kernel gives each new connection to one
of them, and a worker's restart loses no queued connection (the socket stays open in the
supervisor). Workers are forked by a fork server (:mod:`multiprocessing`'s ``forkserver``)
that has imported the server once: a worker starts without importing anything, in
milliseconds rather than the second or more of a fresh interpreter (more under load), and the
imported code's memory pages are shared between workers. Each worker is
one event loop with its own ``origin`` in fan-out messages, its own store connections and its
own rooms; what they share is the event store (SQLite file or PostgreSQL) and the fan-out:

- ``--pubsub redis://…``: the workers use Redis, as separate machines would;
- otherwise (``memory://``, the default) the supervisor runs the local broker of
  :mod:`dixit.pubsub.local` on a Unix socket in a private temporary directory, and every
  worker uses ``unix:///…/broker.sock`` for fan-out and presence.

A worker that exits (a crash, kill -9) is started again after a pause (0.1 s doubling to 5 s,
back to 0.1 s once a worker has lived 30 s); its players reconnect (to any worker) and rooms
resynchronise from the store. SIGTERM or SIGINT stops every worker gracefully (SIGKILL after
:data:`STOP_WAIT_S`), then the broker. A worker whose supervisor has died stops by itself.
Log lines say which process wrote them: ``worker 2 pid 1234`` or ``supervisor``, in the text
and as a ``worker`` field in JSON logs; HTTP answers and WebSocket handshakes carry an
``x-dixit-worker: <index>:<pid>`` header.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import logging.config
import multiprocessing
import multiprocessing.process
import os
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from .config import ServerConfig

log = logging.getLogger("dixit.workers")

# Imported once by the fork server, before it forks any worker.
PRELOAD = [
    "dixit.server.app",
    "dixit.server.workers",
    "uvicorn",
    "uvicorn.protocols.http.auto",
    "dixit.server.websocket",
]
HEADER = b"x-dixit-worker"
BACKOFF_S = (0.1, 5.0)
STEADY_S = 30.0  # a worker that lived this long restarts after the shortest pause again
STOP_WAIT_S = 20.0


@dataclass(frozen=True)
class WorkerOptions:
    """What uvicorn is told in every worker (the same as ``dixit serve`` with one process)."""

    log_level: str = "info"
    log_format: str = "text"
    ws_compression: bool = False


@dataclass(frozen=True)
class _Spec:
    """What a worker is started with (pickled to it, the socket passed as a descriptor)."""

    config: ServerConfig
    options: WorkerOptions
    index: int
    listener: socket.socket
    lifeline: socket.socket  # EOF once the supervisor is gone
    workers: int
    handoff_dir: str  # where each worker takes the room sockets others pass it (handoff.py)


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
            "or PostgreSQL), not memory://",
        )
        return 2
    try:
        listener = _listen(host, port)
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
    fanout = "Redis" if config.pubsub.startswith(("redis:", "rediss:")) else "local broker"
    say(
        "info",
        f"Dixit server: open http://{shown}:{port}/  (database: {config.database}; "
        f"{workers} workers, fan-out: {fanout})",
    )
    try:
        with asyncio.Runner(loop_factory=_event_loop) as runner:
            return runner.run(Supervisor(config, listener, workers, options).run())
    finally:
        listener.close()


def _listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=2048)


def _event_loop() -> asyncio.AbstractEventLoop:
    """uvloop when installed, as the workers run on: the supervisor's broker reads every
    room's change notes and presence beats."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


class Supervisor:
    def __init__(
        self, config: ServerConfig, listener: socket.socket, workers: int, options: WorkerOptions
    ) -> None:
        self.config = config
        self.listener = listener
        self.workers = workers
        self.options = options
        self.procs: dict[int, multiprocessing.process.BaseProcess] = {}
        self._forks = multiprocessing.get_context("forkserver")
        self._forks.set_forkserver_preload(PRELOAD)
        # Workers hold one end; the other is only ever in this process, so a worker reads EOF
        # once the supervisor is gone, however it ended (the fork server, the workers' parent,
        # does not notice: its children keep it alive).
        self._lifeline, self._worker_end = socket.socketpair()
        self.restarts = 0
        self._stop = asyncio.Event()
        self._broker_dir: str | None = None
        self._handoff_dir = ""

    async def run(self) -> int:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._stop.set)
        broker = None
        config = self.config
        if config.pubsub.startswith("memory:"):
            from dixit.pubsub.local import Broker

            self._broker_dir = tempfile.mkdtemp(prefix="dixit-broker-")
            broker = Broker(Path(self._broker_dir) / "broker.sock")
            await broker.start()
            config = replace(config, pubsub=broker.url)
            log.info("local fan-out broker on %s", broker.path)
        self._handoff_dir = tempfile.mkdtemp(prefix="dixit-handoff-")
        try:
            keepers = [
                asyncio.create_task(self._keep(index, config))
                for index in range(1, self.workers + 1)
            ]
            await self._stop.wait()
            log.info("stopping %d workers", len(self.procs))
            for proc in self.procs.values():
                if proc.exitcode is None:
                    proc.terminate()
            # Each keeper ends once its worker has exited (one being started is stopped too).
            _, late = await asyncio.wait(keepers, timeout=STOP_WAIT_S)
            if late:
                for proc in self.procs.values():
                    if proc.exitcode is None:
                        log.warning(
                            "worker pid %d did not stop in %g s: killed", proc.pid, STOP_WAIT_S
                        )
                        proc.kill()
                _, late = await asyncio.wait(late, timeout=STOP_WAIT_S)
            for keeper in late:
                keeper.cancel()
            await asyncio.gather(*keepers, return_exceptions=True)
        finally:
            self._lifeline.close()
            self._worker_end.close()
            if broker is not None:
                await broker.stop()
            if self._broker_dir is not None:
                shutil.rmtree(self._broker_dir, ignore_errors=True)
            shutil.rmtree(self._handoff_dir, ignore_errors=True)
        log.info("stopped")
        return 0

    async def _keep(self, index: int, config: ServerConfig) -> None:
        """Worker ``index``, started again whenever it exits, until the supervisor stops."""
        spec = _Spec(
            config,
            self.options,
            index,
            self.listener,
            self._worker_end,
            self.workers,
            self._handoff_dir,
        )
        pause = BACKOFF_S[0]
        while not self._stop.is_set():
            started = time.monotonic()
            proc = self._forks.Process(target=worker_main, args=(spec,), name=f"worker {index}")
            try:
                # The first start launches the fork server (it imports the server): off the loop.
                await asyncio.to_thread(proc.start)
            except Exception:
                log.exception("worker %d could not be started; again in %.1f s", index, pause)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), pause)
                pause = min(pause * 2, BACKOFF_S[1])
                continue
            self.procs[index] = proc
            log.info("worker %d started (pid %d)", index, proc.pid)
            if self._stop.is_set():  # stopping began while it was being started
                proc.terminate()
            status = await _exited(proc)
            if self._stop.is_set():
                break
            if time.monotonic() - started >= STEADY_S:
                pause = BACKOFF_S[0]
            self.restarts += 1
            log.warning(
                "worker %d (pid %d) %s; starting it again in %.1f s",
                index,
                proc.pid,
                _how(status),
                pause,
            )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), pause)
            pause = min(pause * 2, BACKOFF_S[1])


async def _exited(proc: multiprocessing.process.BaseProcess) -> int:
    """Wait (without blocking the loop) until ``proc`` has exited; its exit code (negative:
    the signal that ended it). One waiter per process: the loop has one reader per fd."""
    if proc.exitcode is None:
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        sentinel = proc.sentinel

        def ended() -> None:
            if not done.done():
                done.set_result(None)

        loop.add_reader(sentinel, ended)
        try:
            await done
        finally:
            loop.remove_reader(sentinel)
        proc.join()
    assert proc.exitcode is not None
    return proc.exitcode


def _how(status: int) -> str:
    if status < 0:
        try:
            return f"was killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"was killed by signal {-status}"
    return f"exited with status {status}"


class _NameWorker:
    """ASGI wrapper: an ``x-dixit-worker`` header on HTTP answers (room sockets add it to their
    handshake themselves: :meth:`.websocket.RoomSocket.tagged`)."""

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


def _watch_supervisor(lifeline: socket.socket) -> None:
    """Stop this worker (gracefully) once its supervisor is gone (it was killed)."""

    def watch() -> None:
        with contextlib.suppress(OSError):
            while lifeline.recv(1):
                pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="dixit-supervisor-watch", daemon=True).start()


def worker_main(spec: _Spec) -> None:
    """A worker process: serve the supervisor's socket until SIGTERM."""
    import uvicorn

    from .app import create_app
    from .handoff import Handoff
    from .websocket import RoomSocket

    name = f"{spec.index}:{os.getpid()}"
    log_config = tagged_log_config(
        spec.options.log_format, spec.options.log_level, f"worker {spec.index} pid {os.getpid()}"
    )
    logging.config.dictConfig(log_config)
    _watch_supervisor(spec.lifeline)
    problem = asyncio.run(_dependencies(spec.config))
    if problem:
        log.error("cannot start: %s", problem)
        sys.exit(2)
    config = replace(spec.config, workers=spec.workers, worker=spec.index)
    handoff = Handoff(spec.handoff_dir, spec.index, spec.workers)
    socket_class = RoomSocket.tagged([(HEADER, name.encode())], handoff)
    server = _worker_server()(
        uvicorn.Config(
            _NameWorker(create_app(config), name),
            log_level=spec.options.log_level,
            log_config=log_config,
            ws=socket_class,
            ws_max_size=64 * 1024,
            ws_per_message_deflate=spec.options.ws_compression,
            ws_ping_interval=20,
            ws_ping_timeout=30,
            proxy_headers=False,  # the client's address is read by our rate limits only
        )
    )
    server.handoff, server.socket_class = handoff, socket_class
    server.run(sockets=[spec.listener])


def _worker_server() -> type[Any]:
    """uvicorn's server, also taking the room sockets other workers pass to this one."""
    import uvicorn

    from .handoff import Handoff
    from .websocket import RoomSocket

    class WorkerServer(uvicorn.Server):
        handoff: Handoff
        socket_class: type[RoomSocket]
        _taking: asyncio.Task[None] | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            self._taking = asyncio.get_running_loop().create_task(self.handoff.serve(self._take))

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            if self._taking is not None:
                self._taking.cancel()
            await super().shutdown(sockets=sockets)

        def _take(self, connection: socket.socket, request: bytes) -> None:
            """A connection another worker passed on: answer it as if accepted here."""
            task = asyncio.get_running_loop().create_task(self._adopt(connection, request))
            self.server_state.tasks.add(task)
            task.add_done_callback(self.server_state.tasks.discard)

        async def _adopt(self, connection: socket.socket, request: bytes) -> None:
            protocol = self.socket_class(
                config=self.config, server_state=self.server_state, app_state=self.lifespan.state
            )
            try:
                loop = asyncio.get_running_loop()
                await loop.connect_accepted_socket(lambda: protocol, connection)
            except OSError:  # the client is gone already
                connection.close()
                return
            protocol.data_received(request)

    return WorkerServer
