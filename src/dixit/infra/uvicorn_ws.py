"""The glue between uvicorn and :mod:`.websocket`, and uvicorn's own WebSocket path.

uvicorn's HTTP protocol parses a request and, on ``Upgrade: websocket``, creates its
WebSocket protocol class with ``(config, server_state, app_state)``, hands it the transport
and replays the request to it. :class:`UvicornSocket` is that class: it finds the
application's :class:`~.websocket.Endpoint` in the lifespan's state (under
:data:`ENDPOINT_KEY`), keeps its tasks and connections where uvicorn's server looks for them
at shutdown, and lets uvicorn's upgraded HTTP protocol go at once.

This reaches inside uvicorn (``ServerState``'s ``connections``, ``tasks`` and
``default_headers``, the HTTP protocol's ``parser``, ``Server.startup``/``shutdown``,
``Server.lifespan.state``), so pyproject.toml pins uvicorn to the minor version tested and
``tests/infra/test_pins.py`` fails on any other.

``serving("uvicorn", app)`` serves the same endpoint through uvicorn's own WebSocket
implementation (websockets' sans-I/O protocol, ASGI messages) instead: slower and larger per
socket, but the library's code, for telling a bug of ours from one elsewhere. It keeps no
hand-off between workers and no one-write-per-turn.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any, Literal

from .handoff import Handoff
from .websocket import Endpoint, SocketClosed, Sockets, WebSocket

ENDPOINT_KEY = "dixit.sockets"  # where the lifespan's state keeps the :class:`Endpoint`
SOCKETS_KEY = "dixit.open_sockets"  # where the sockets' shared :class:`Sockets` is kept
WsKind = Literal["dixit", "uvicorn"]
WS_KINDS: tuple[WsKind, ...] = ("dixit", "uvicorn")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]


def _unlink_parser(upgraded: Any) -> None:
    """Let uvicorn's HTTP protocol of an upgraded connection go as soon as it has handed the
    transport over. It and its parser refer to each other, so the pair (about 15 objects)
    otherwise waits for a full collection, rare by design in the game server: with four
    sockets a game that was some 13 KiB a live game (docs/benchmarks.md)."""
    upgraded.parser = None


class UvicornSocket(WebSocket):
    """:class:`~.websocket.WebSocket` as uvicorn's WebSocket protocol class."""

    __slots__ = ("server_state",)

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any]) -> None:
        sockets: Sockets = app_state.setdefault(
            SOCKETS_KEY, Sockets(config.ws_ping_interval, config.ws_ping_timeout)
        )
        super().__init__(
            app_state[ENDPOINT_KEY], sockets, config.ws_max_size, config.ws_per_message_deflate
        )
        self.server_state = server_state

    @classmethod
    def tagged(
        cls, headers: Sequence[tuple[bytes, bytes]], handoff: Handoff | None = None
    ) -> type[UvicornSocket]:
        """This class with ``headers`` added to every handshake answer and, under workers,
        passing the sockets of keys other workers own to them."""
        attributes = {"__slots__": (), "extra_headers": tuple(headers), "handoff": handoff}
        return type(cls.__name__, (cls,), attributes)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.server_state.connections.add(self)
        upgraded = transport.get_protocol()  # uvicorn's HTTP protocol, until the handover ends
        if upgraded is not self and getattr(upgraded, "parser", None) is not None:
            self.sockets.loop.call_soon(_unlink_parser, upgraded)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server_state.connections.discard(self)
        super().connection_lost(exc)

    def default_headers(self) -> list[tuple[bytes, bytes]]:
        headers: list[tuple[bytes, bytes]] = self.server_state.default_headers
        return headers

    def run(self, key: str) -> None:
        task: asyncio.Task[None] = self.sockets.loop.create_task(self.endpoint.serve(self, key))
        tasks: set[asyncio.Task[None]] = self.server_state.tasks
        tasks.add(task)
        task.add_done_callback(tasks.discard)


def handoff_server(handoff: Handoff, socket_class: type[UvicornSocket]) -> type[Any]:
    """uvicorn's server, also taking the sockets other workers pass to this one
    (:mod:`.handoff`) and answering them as if accepted here."""
    import uvicorn

    class HandoffServer(uvicorn.Server):
        _taking: asyncio.Task[None] | None = None

        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets=sockets)
            self._taking = asyncio.get_running_loop().create_task(handoff.serve(self._take))

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            if self._taking is not None:
                self._taking.cancel()
            await super().shutdown(sockets=sockets)

        def _take(self, connection: socket.socket, request: bytes) -> None:
            task = asyncio.get_running_loop().create_task(self._adopt(connection, request))
            self.server_state.tasks.add(task)
            task.add_done_callback(self.server_state.tasks.discard)

        async def _adopt(self, connection: socket.socket, request: bytes) -> None:
            protocol = socket_class(
                config=self.config, server_state=self.server_state, app_state=self.lifespan.state
            )
            try:
                loop = asyncio.get_running_loop()
                await loop.connect_accepted_socket(lambda: protocol, connection)
            except OSError:  # the client is gone already
                connection.close()
                return
            protocol.data_received(request)

    return HandoffServer


def serving(
    kind: WsKind,
    app: App,
    headers: Sequence[tuple[bytes, bytes]] = (),
    handoff: Handoff | None = None,
) -> tuple[App, Any]:
    """The ASGI app and the ``ws`` option to give uvicorn for sockets served by ``kind``:
    ``dixit`` (:class:`UvicornSocket`) or ``uvicorn`` (its own implementation, for
    debugging: :class:`AsgiSockets`)."""
    if kind == "uvicorn":
        return AsgiSockets(app, headers), "websockets-sansio"
    return app, UvicornSocket.tagged(headers, handoff)


class AsgiSockets:
    """ASGI middleware: WebSocket connections are served by the lifespan's
    :class:`~.websocket.Endpoint` through :class:`AsgiSocket`; anything else goes to ``app``."""

    def __init__(self, app: App, headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
        self.app = app
        self.headers = list(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        endpoint: Endpoint = scope["state"][ENDPOINT_KEY]
        key = endpoint.route(scope["path"])
        if key is None:
            await send({"type": "websocket.close", "code": 1008})  # uvicorn answers 403
            return
        headers: dict[str, list[str]] = {}
        for name, value in scope["headers"]:
            headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
        peer = scope.get("client")
        client, refusal = endpoint.admit(peer[0] if peer else None, headers)
        if refusal is not None:
            status, reason, _ = refusal
            await send({"type": "websocket.http.response.start", "status": status, "headers": []})
            await send({"type": "websocket.http.response.body", "body": reason.encode()})
            return
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept", "headers": self.headers})
        sock = AsgiSocket(client, receive, send)
        endpoint.counted(1)
        try:
            await endpoint.serve(sock, key)
        finally:
            endpoint.counted(-1)
            await sock.finish()


class AsgiSocket:
    """The :class:`~.websocket.Socket` an endpoint uses, over ASGI messages: sends are queued
    and written in order by one task (ASGI's ``send`` is a coroutine, ``send_text`` is not)."""

    def __init__(self, client: str, receive: Receive, send: Send) -> None:
        self.client = client
        self._receive = receive
        self._send = send
        self._out: asyncio.Queue[Message | None] = asyncio.Queue()
        self._closed = False
        self._writer = asyncio.get_running_loop().create_task(self._write())

    async def receive(self) -> str | None:
        if self._closed:
            raise SocketClosed
        message = await self._receive()
        if message["type"] == "websocket.disconnect":
            self._closed = True
            raise SocketClosed
        text: str | None = message.get("text")
        return text

    def send_text(self, text: str) -> bool:
        if self._closed:
            return False
        self._out.put_nowait({"type": "websocket.send", "text": text})
        return True

    def close(self, code: int = 1000) -> None:
        if not self._closed:
            self._closed = True
            self._out.put_nowait({"type": "websocket.close", "code": code})

    async def finish(self) -> None:
        """After the endpoint is done: what was sent is written, then the socket closed."""
        self.close()
        self._out.put_nowait(None)
        await self._writer

    async def _write(self) -> None:
        while (message := await self._out.get()) is not None:
            try:
                await self._send(message)
            except OSError:  # the client is gone: the rest is dropped
                self._closed = True
