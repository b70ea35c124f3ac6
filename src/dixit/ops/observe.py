"""What a server process reports on ``/metrics``, and a store wrapper that times every store
call without touching the room code. Room sockets count themselves and time each command
from its arrival to its answer (``ack`` or ``error``): :mod:`dixit.server.websocket`."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, cast

from .metrics import (
    GCPauses,
    Labels,
    Registry,
    cpu_samples,
    process_samples,
)

S = TypeVar("S")
ASGIApp = Callable[[Any, Any, Any], Awaitable[None]]


class ServerMetrics:
    def __init__(self) -> None:
        r = self.registry = Registry()
        self.live_rooms: Callable[[], int] = lambda: 0
        r.gauge("dixit_live_rooms", "Rooms held in this process", lambda: [((), self.live_rooms())])
        self.sockets = 0
        r.gauge("dixit_sockets", "Open WebSockets", lambda: [((), self.sockets)])
        self.commands = r.counter(
            "dixit_commands_total", "WebSocket commands answered, by answer (ack or error)"
        )
        self.command_seconds = r.histogram(
            "dixit_command_seconds", "From a command's arrival to its answer on the same socket"
        )
        self.store_seconds = r.histogram("dixit_store_seconds", "Event store calls, by operation")
        self.store_errors = r.counter(
            "dixit_store_errors_total", "Event store failures, by operation and error code"
        )
        self.dependency_up = r.gauge(
            "dixit_dependency_up", "1 when a dependency answered its last check, else 0"
        )
        self.gc = GCPauses(r)
        r.gauge("process_resident_memory_bytes", "Resident memory", process_samples)
        r.gauge("process_cpu_seconds", "User and system CPU time since start", cpu_samples)
        start = time.time()
        r.gauge("process_start_time_seconds", "Start time (Unix epoch)", lambda: [((), start)])

    def render(self) -> str:
        return self.registry.render()


class TimedStore:
    """Forwards everything to ``store``; its coroutine methods are timed, and failures that
    carry a ``store/…`` code counted."""

    def __init__(self, store: Any, metrics: ServerMetrics) -> None:
        self._store = store
        self._metrics = metrics
        self._wrapped: dict[str, Any] = {}

    def __getattr__(self, name: str) -> Any:
        wrapped = self._wrapped.get(name)
        if wrapped is not None:
            return wrapped
        attr = getattr(self._store, name)
        if name.startswith("_") or not callable(attr):
            return attr
        labels: Labels = (("op", name),)
        seconds, errors = self._metrics.store_seconds, self._metrics.store_errors

        async def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await attr(*args, **kwargs)
            except Exception as error:
                code = getattr(error, "code", "")
                if isinstance(code, str) and code.startswith("store/"):
                    errors.inc(1.0, (*labels, ("code", code)))
                raise
            finally:
                seconds.observe(time.perf_counter() - started, labels)

        self._wrapped[name] = timed
        return timed


def timed_store(store: S, metrics: ServerMetrics) -> S:
    """``store`` behind a :class:`TimedStore`, typed as the store it wraps."""
    return cast(S, TimedStore(store, metrics))
