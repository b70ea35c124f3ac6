"""Room sockets: the game's side of the WebSocket transport of :mod:`dixit.infra`.

The transport (frames, the socket's state, uvicorn's glue) knows nothing of rooms; this module
tells it which paths are rooms (``/ws/{code}``), what to run on a room's socket
(:func:`.ws.room_socket` with the hub), whom to admit (:mod:`.security`), and what to count
for ``/metrics``: open sockets, and the time from a command's arrival to its ``ack`` or
``error``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Mapping
from typing import Any

from dixit.infra.uvicorn_ws import ENDPOINT_KEY
from dixit.infra.websocket import Endpoint, Refusal, Socket
from dixit.ops.observe import ServerMetrics

from .hub import Hub

STATE_KEY = ENDPOINT_KEY  # where the lifespan leaves the sockets' :class:`Endpoint`
ANSWERS = (b'{"type":"ack"', b'{"type":"error"')

Handler = Callable[[Socket, Hub, str, Callable[[str], float]], Coroutine[Any, Any, None]]


def socket_room(path: str) -> str | None:
    """The room code of a ``/ws/{code}`` path; None for any other path."""
    code = path[4:]
    return code if path.startswith("/ws/") and code and "/" not in code else None


def room_endpoint(
    hub: Hub,
    metrics: ServerMetrics,
    handler: Handler,
    admit: Callable[[str | None, Mapping[str, list[str]]], tuple[str, Refusal | None]] = (
        lambda peer, headers: (peer or "unknown", None)
    ),
    hello_wait: Callable[[str], float] = lambda client: 0.0,
) -> Endpoint:
    """The :class:`~dixit.infra.websocket.Endpoint` of a server's room sockets.
    ``hello_wait(client)``: 0, or the seconds until that address may say hello again."""

    def serve(ws: Socket, code: str) -> Coroutine[Any, Any, None]:
        return handler(ws, hub, code, hello_wait)

    def counted(change: int) -> None:
        metrics.sockets += change

    def answered(data: bytes, arrived: float) -> bool:
        if not data.startswith(ANSWERS):
            return False
        metrics.commands.inc(1.0, (("answer", "ack" if data[9] == 97 else "error"),))
        metrics.command_seconds.observe(time.perf_counter() - arrived)
        return True

    return Endpoint(
        route=socket_room,
        serve=serve,
        admit=admit,
        send_buffer_bytes=hub.services.config.limits.send_buffer_bytes,
        counted=counted,
        answered=answered,
    )
