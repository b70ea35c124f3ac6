"""N server processes on one host and port, supervised: the supervisor binds the listening
socket once and keeps N workers forked from a fork server running on it.

Every worker is handed the one listening socket, so the kernel gives each new connection to
one of them, and a worker's restart loses no queued connection (the socket stays open in the
supervisor). Workers are forked by a fork server (:mod:`multiprocessing`'s ``forkserver``)
that has imported the application once (``preload``): a worker starts without importing
anything, in milliseconds rather than the second or more of a fresh interpreter (more under
load), and the imported code's memory pages are shared between workers.

A worker that exits (a crash, kill -9) is started again at once; one that lived less than
:data:`STEADY_S` (a crash at start, say its database refusing) after a pause, 0.1 s doubling
to 5 s, so that a worker that cannot start costs little. SIGTERM or SIGINT stops every
worker gracefully (SIGKILL after :data:`STOP_WAIT_S`). A worker whose supervisor has died stops
by itself (:func:`watch_supervisor`). What a worker runs and what the workers share (the
application's ``prepare``, e.g. a broker) is the application's: it comes in as callables and
a picklable payload.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import multiprocessing.forkserver
import multiprocessing.process
import os
import signal
import socket
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("dixit.workers")

BACKOFF_S = (0.1, 5.0)  # the pauses before starting again a worker that keeps dying young
STEADY_S = 5.0  # a worker that lived this long is started again at once
STOP_WAIT_S = 20.0


@dataclass(frozen=True)
class Worker:
    """What a worker is started with (pickled to it, the sockets passed as descriptors)."""

    index: int  # 1 … workers
    workers: int
    listener: socket.socket
    lifeline: socket.socket  # EOF once the supervisor is gone
    handoff_dir: str  # where each worker takes the sockets others pass it (.handoff)
    payload: Any  # the application's own (picklable): what ``prepare`` yielded


def listen(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    return socket.create_server((host, port), family=family, backlog=2048)


def start_fork_server(preload: Sequence[str]) -> None:
    """Start the fork server the workers are forked from, importing ``preload``, unless it
    runs: called before :func:`supervise`, its imports overlap what this process does
    meanwhile (it goes on at once; the first fork waits for them)."""
    multiprocessing.get_context("forkserver").set_forkserver_preload(list(preload))
    multiprocessing.forkserver.ensure_running()


def event_loop() -> asyncio.AbstractEventLoop:
    """uvloop when installed, as the workers run on (a broker in the supervisor reads every
    room's change notes and presence beats)."""
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvicorn[standard] brings it
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def supervise(
    listener: socket.socket,
    workers: int,
    target: Callable[[Worker], None],
    prepare: Callable[[], AbstractAsyncContextManager[Any]],
    preload: Sequence[str],
) -> int:
    """Run ``workers`` processes of ``target`` (a module-level function: the fork server
    imports it) on ``listener`` until SIGTERM/SIGINT; the exit status. ``prepare()`` runs
    around them in the supervisor and yields the payload every worker gets."""
    with asyncio.Runner(loop_factory=event_loop) as runner:
        return runner.run(Supervisor(listener, workers, target, prepare, preload).run())


class Supervisor:
    def __init__(
        self,
        listener: socket.socket,
        workers: int,
        target: Callable[[Worker], None],
        prepare: Callable[[], AbstractAsyncContextManager[Any]],
        preload: Sequence[str],
    ) -> None:
        self.listener = listener
        self.workers = workers
        self.target = target
        self.prepare = prepare
        self.procs: dict[int, multiprocessing.process.BaseProcess] = {}
        self._forks = multiprocessing.get_context("forkserver")
        self._preload = preload
        # Workers hold one end; the other is only ever in this process, so a worker reads EOF
        # once the supervisor is gone, however it ended (the fork server, the workers' parent,
        # does not notice: its children keep it alive).
        self._lifeline, self._worker_end = socket.socketpair()
        self.restarts = 0
        self._stop = asyncio.Event()

    async def run(self) -> int:
        start_fork_server(self._preload)
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self._stop.set)
        try:
            with tempfile.TemporaryDirectory(
                prefix="dixit-handoff-", ignore_cleanup_errors=True
            ) as handoff_dir:
                async with self.prepare() as payload:
                    await self._run(handoff_dir, payload)
        finally:
            self._lifeline.close()
            self._worker_end.close()
        log.info("stopped")
        return 0

    async def _run(self, handoff_dir: str, payload: Any) -> None:
        keepers = [
            asyncio.create_task(
                self._keep(
                    Worker(
                        index,
                        self.workers,
                        self.listener,
                        self._worker_end,
                        handoff_dir,
                        payload,
                    )
                )
            )
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
                    log.warning("worker pid %d did not stop in %g s: killed", proc.pid, STOP_WAIT_S)
                    proc.kill()
            _, late = await asyncio.wait(late, timeout=STOP_WAIT_S)
        for keeper in late:
            keeper.cancel()
        await asyncio.gather(*keepers, return_exceptions=True)

    async def _keep(self, worker: Worker) -> None:
        """``worker``, started again whenever it exits, until the supervisor stops."""
        index = worker.index
        pause = 0.0
        while not self._stop.is_set():
            started = time.monotonic()
            proc = self._forks.Process(target=self.target, args=(worker,), name=f"worker {index}")
            try:
                # The first start launches the fork server (it imports the server): off the loop.
                await asyncio.to_thread(proc.start)
            except Exception:
                pause = _longer(pause)
                log.exception("worker %d could not be started; again in %.1f s", index, pause)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), pause)
                continue
            self.procs[index] = proc
            log.info("worker %d started (pid %d)", index, proc.pid)
            if self._stop.is_set():  # stopping began while it was being started
                proc.terminate()
            status = await _exited(proc)
            if self._stop.is_set():
                break
            pause = 0.0 if time.monotonic() - started >= STEADY_S else _longer(pause)
            self.restarts += 1
            log.warning(
                "worker %d (pid %d) %s; starting it again %s",
                index,
                proc.pid,
                _how(status),
                f"in {pause:.1f} s" if pause else "now",
            )
            if pause:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), pause)


def _longer(pause: float) -> float:
    """The pause after ``pause`` for a worker that died young again."""
    return min(max(pause * 2, BACKOFF_S[0]), BACKOFF_S[1])


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


def watch_supervisor(lifeline: socket.socket) -> None:
    """Stop this worker (gracefully, with SIGTERM) once its supervisor is gone."""

    def watch() -> None:
        with contextlib.suppress(OSError):
            while lifeline.recv(1):
                pass
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="dixit-supervisor-watch", daemon=True).start()
