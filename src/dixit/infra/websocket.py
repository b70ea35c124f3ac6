"""A server WebSocket on an asyncio transport: the handshake, frames both ways, keepalive,
closing — with its life in one :class:`State`, as python-websockets keeps it.

What runs on a socket is the application's (:class:`Endpoint`: which paths are served, whom
to admit, the coroutine that serves one socket); how the server hands connections over is
the glue's (:mod:`.uvicorn_ws`). A socket is one object with slots, a message is one
``transport.write`` at the end of the loop's turn, and the keepalive pings of every socket are
sent by one task (:class:`Sockets`). Through uvicorn's ASGI WebSocket layers each socket had
kept a scope with its headers, a receive queue, two events and a parser (about 18 KiB), and
each message went through four wrappers (docs/benchmarks.md).

Besides its :class:`State`, a socket keeps four flags that are not its life but flow:
reading paused (the application's inbox is full), writing paused (the kernel's buffer is
full), and frames heard and told since the keepalive's last look.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import os
import socket
import struct
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, cast
from urllib.parse import unquote

from .frames import (
    FIN,
    INTERNAL_ERROR,
    NORMAL,
    OP_CLOSE,
    OP_PING,
    OP_PONG,
    OP_TEXT,
    RESTART,
    RSV1,
    Fault,
    FrameReader,
    accept_key,
    close_frame,
    frame,
    negotiate_deflate,
    valid_key,
)
from .handoff import Handoff

log = logging.getLogger("dixit.infra")

CLOSE_WAIT_S = 10.0  # after our close frame, how long the peer has to answer with its own
KEEPALIVE_SLICES = 10  # the keepalive looks at a tenth of the sockets at a time
INBOX_HIGH, INBOX_LOW = 32, 8  # messages waiting for the handler: stop reading, read again
COMPRESS_FROM = 128  # shorter messages go uncompressed even with per-message deflate

Refusal = tuple[int, str, str]  # HTTP status, reason, extra header lines


class SocketClosed(Exception):
    """The socket is closed (by the peer, by the server, or on a protocol error)."""


class State(enum.Enum):
    CONNECTING = "connecting"  # the handshake is not answered (or passed to another worker)
    OPEN = "open"  # messages both ways
    CLOSING = "closing"  # our close frame is sent: reads go on only for the peer's
    CLOSED = "closed"  # no frame in or out any more


# The states by module-level name: on Python 3.11 ``State.OPEN`` costs about 0.25 µs (the enum
# class's attribute lookup), a global 0.03 µs, and a frame in or a message out compares two or
# three times.
CONNECTING, OPEN, CLOSING, CLOSED = State.CONNECTING, State.OPEN, State.CLOSING, State.CLOSED


class Socket(Protocol):
    """What an endpoint's coroutine uses of a socket (:class:`WebSocket`, or the adapter of
    uvicorn's own WebSocket path in :mod:`.uvicorn_ws`)."""

    @property
    def client(self) -> str:
        """The client's address, as the endpoint's admission named it."""
        ...

    async def receive(self) -> str | None:
        """The next message (None: a binary one); :class:`SocketClosed` once closed."""
        ...

    def send_text(self, text: str) -> bool:
        """Send a message; False once the socket is closed or was dropped."""
        ...

    def close(self, code: int = 1000) -> None:
        """Close after what was sent."""
        ...


@dataclass(frozen=True)
class Endpoint:
    """What the application gives its sockets (one for the server, shared by all)."""

    # The key (a room code) a request path is served under, or None: answered 404.
    route: Callable[[str], str | None]
    # Runs one socket opened on a key, until it is done with it.
    serve: Callable[[Socket, str], Coroutine[Any, Any, None]]
    # Before answering 101: the client's address and None, or the refusal to answer with.
    admit: Callable[[str | None, Mapping[str, list[str]]], tuple[str, Refusal | None]] = (
        lambda peer, headers: (peer or "unknown", None)
    )
    # A socket's unsent bytes past this while the kernel's buffer is full: the peer is dropped.
    send_buffer_bytes: int = 1 << 20
    counted: Callable[[int], None] = lambda change: None  # open sockets: +1 / -1
    # The first message sent after one arrived, with that arrival's perf_counter(): True when
    # it was the answer (the time was taken), False to offer the next send.
    answered: Callable[[bytes, float], bool] = lambda data, arrived: True


class Sockets:
    """Every open socket of a server: their writes leave once per turn of the event loop,
    and one task pings them all.

    Writes: what a socket is sent while the loop runs callbacks is gathered and written with
    one system call when they are done. A move sends its mover an update and an ack, a reveal
    a game and a room update to everyone: one ``send()`` a socket instead of two.
    Keepalive: every socket is looked at each ``interval / 2`` seconds. One that carried
    frames both ways since the last look is alive and keeps any proxy's idle timer from
    firing: it is not pinged. Any other is pinged, and one that has not answered within
    ``timeout`` is closed (1011). A player in a game hears updates and sends moves or the web
    client's heartbeat, so pings go to quiet sockets only (at 1,000 games under the load
    bench, a ping and a pong per socket every 10 s had been 400 writes and 400 reads a second,
    next to 4,000 and 1,000 for the moves). The looks are spread over the half-interval in
    :data:`KEEPALIVE_SLICES` slices, so that no loop turn pings thousands of sockets."""

    def __init__(self, interval: float | None, timeout: float | None) -> None:
        self.interval = interval
        self.timeout = timeout or interval or 0.0
        self.open: set[WebSocket] = set()
        self.unsent: list[WebSocket] = []  # sockets with writes waiting for :meth:`flush`
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The serving loop, looked up once (on 3.11 each lookup costs a getpid())."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def add(self, socket: WebSocket) -> None:
        self.open.add(socket)
        if self._task is None and self.interval:
            self._task = self.loop.create_task(self._run(self.interval))

    def discard(self, socket: WebSocket) -> None:
        self.open.discard(socket)

    def queue(self, socket: WebSocket) -> None:
        """``socket`` has a first write waiting: flush once the current callbacks are done."""
        self.unsent.append(socket)
        if len(self.unsent) == 1:
            self.loop.call_soon(self.flush)

    def flush(self) -> None:
        unsent, self.unsent = self.unsent, []
        for web_socket in unsent:
            web_socket.flush()

    async def _run(self, interval: float) -> None:
        pause = interval / 2 / KEEPALIVE_SLICES
        while True:
            looked_at = list(self.open)  # a socket opened since is looked at next time round
            for part in range(KEEPALIVE_SLICES):
                await asyncio.sleep(pause)
                now = time.monotonic()
                for web_socket in looked_at[part::KEEPALIVE_SLICES]:
                    web_socket.keepalive(now, self.timeout)


class WebSocket(FrameReader, asyncio.Protocol):
    """One WebSocket connection, from the request's bytes to the close (see the module).

    The glue that creates it overrides the three hooks: :meth:`run` (start the endpoint's
    coroutine where the server keeps its tasks), :meth:`default_headers` (the server's own
    answer headers) and :meth:`connection_lost`'s bookkeeping."""

    __slots__ = (
        "_arrived",
        "_close_timer",
        "_head",
        "_heard",
        "_inbox",
        "_out",
        "_passing",
        "_ping_payload",
        "_pinged",
        "_reading_paused",
        "_told",
        "_waiter",
        "_writing_paused",
        "client",
        "endpoint",
        "offer_deflate",
        "sockets",
        "state",
        "transport",
    )
    extra_headers: ClassVar[tuple[tuple[bytes, bytes], ...]] = ()  # added to the handshake
    handoff: ClassVar[Handoff | None] = None  # under workers: a key's sockets on one worker

    def __init__(
        self, endpoint: Endpoint, sockets: Sockets, max_size: int, offer_deflate: bool
    ) -> None:
        super().__init__(max_size)
        self.endpoint = endpoint
        self.sockets = sockets
        self.offer_deflate = offer_deflate  # accept a client's per-message deflate offer
        self.state = CONNECTING
        self.transport: asyncio.Transport | None = None
        self._head = b""  # the handshake request, until it is whole
        self._out: list[bytes] | None = None  # frames waiting for the end of this loop turn
        self._close_timer: asyncio.TimerHandle | None = None
        self._inbox: list[str | None] = []  # messages for the handler (None: a binary one)
        self._waiter: asyncio.Future[None] | None = None
        self._reading_paused = False
        self._writing_paused = False
        self._passing: asyncio.Task[None] | None = None  # waiting for the owner to confirm
        self._pinged = 0.0  # when our unanswered ping went out (0: none)
        self._ping_payload = b""
        self._heard = self._told = False  # frames came in / went out since the last look
        self._arrived = 0.0  # when the message now being handled arrived
        self.client = ""  # its address, as the endpoint's admission named it

    # ------------------------------------------------------------------ the glue's hooks

    def run(self, key: str) -> None:
        """Start serving the open socket (the glue keeps the task where its server does)."""
        asyncio.get_running_loop().create_task(self.endpoint.serve(self, key))

    def default_headers(self) -> list[tuple[bytes, bytes]]:
        return []

    # ------------------------------------------------------------------ asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's are not subclasses)

    def connection_lost(self, exc: Exception | None) -> None:
        if self._close_timer is not None:
            self._close_timer.cancel()
            self._close_timer = None
        self._closed()

    def eof_received(self) -> bool | None:
        return None  # the transport closes itself

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False

    def shutdown(self) -> None:
        """The server is stopping: tell the peer (1012, service restart) and close."""
        state = self.state
        if self._passing is not None:  # the owner may have it: nothing written here
            self._passing.cancel()
        elif state is OPEN:
            self._write(close_frame(RESTART))
            self.state = CLOSING
        elif state is CONNECTING and self.transport is not None:
            self._reject(503, "Service Unavailable")
        self._closed()
        self.flush()
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        state = self.state
        if state is CLOSED:
            return
        if state is CONNECTING:
            self._head += data
            end = self._head.find(b"\r\n\r\n")
            if end < 0:
                return
            raw, request, data = self._head, self._head[:end], self._head[end + 4 :]
            self._head = b""
            self._handshake(request, raw)
            if self.state is not OPEN or not data:
                return
        self._heard = True
        try:
            closing = self.read_frames(data)
        except Fault as fault:
            self.fail(fault.code, fault.reason)
            return
        if closing is not None:
            self._peer_closed(closing)

    # ------------------------------------------------------------------ the handshake

    def _handshake(self, request: bytes, raw: bytes, pass_on: bool = True) -> None:
        """Answer the opening handshake (RFC 6455 §4.2): 101 and the endpoint's coroutine, or
        an HTTP error and the connection closed; or, under workers, pass it on to the key's
        owner (unless ``pass_on`` is false)."""
        line, *header_lines = request.decode("latin-1").split("\r\n")
        method, _, rest = line.partition(" ")
        target = rest.rpartition(" ")[0]
        headers: dict[str, list[str]] = {}
        for header in header_lines:
            name, _, value = header.partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        version = headers.get("sec-websocket-version", [""])[0]
        key = headers.get("sec-websocket-key", [""])[0]
        code = self.endpoint.route(unquote(target.partition("?")[0]))
        if method != "GET":
            self._reject(405, "Method Not Allowed")
        elif version != "13":
            self._reject(426, "Upgrade Required", "sec-websocket-version: 13\r\n")
        elif not valid_key(key):
            self._reject(400, "Bad Request")
        elif code is None:
            self._reject(404, "Not Found")
        elif pass_on and (refusal := self._admission(headers)) is not None:
            self._reject(*refusal)
        elif (
            pass_on
            and self.handoff is not None
            and not self.handoff.mine(code)
            and self._pass_on(code, raw)
        ):
            return
        else:
            if self.offer_deflate:
                self.deflate = negotiate_deflate(headers.get("sec-websocket-extensions", []))
            extension = (
                f"sec-websocket-extensions: {self.deflate.header()}\r\n" if self.deflate else ""
            )
            answer = (
                "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n"
                f"connection: Upgrade\r\nsec-websocket-accept: {accept_key(key)}\r\n{extension}"
            ).encode("latin-1")
            assert self.transport is not None
            self.transport.write(answer + self._header_lines() + b"\r\n")
            self.state = OPEN
            self.endpoint.counted(1)
            self.sockets.add(self)
            self.run(code)

    def _admission(self, headers: Mapping[str, list[str]]) -> Refusal | None:
        """Checked once per connection, by the process that accepted it first."""
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        self.client, refusal = self.endpoint.admit(
            peer[0] if isinstance(peer, tuple) else None, headers
        )
        return refusal

    def _pass_on(self, code: str, raw: bytes) -> bool:
        """Give the connection to the worker that owns ``code`` (:mod:`.handoff`): it
        answers the handshake (``raw``, the bytes read so far). True once it was sent; this
        end then reads nothing and answers only if the owner closes the link unconfirmed."""
        assert self.transport is not None and self.handoff is not None
        own = self.transport.get_extra_info("socket")
        if own is None:
            return False
        copy = socket.socket(fileno=os.dup(own.fileno()))
        try:
            link = self.handoff.pass_on(code, copy, raw)
        finally:
            copy.close()
        if link is None:
            return False
        self.transport.pause_reading()
        self._passing = asyncio.get_running_loop().create_task(self._passed(raw, link))
        return True

    async def _passed(self, raw: bytes, link: socket.socket) -> None:
        assert self.transport is not None and self.handoff is not None
        taken = await self.handoff.taken(link)
        self._passing = None
        if self.transport.is_closing():
            return
        if taken:
            self.state = CLOSED  # the owner has the socket: this end writes nothing more
            self.transport.close()
            return
        # The owner died with it: serve it here, the bytes after the request included.
        end = raw.find(b"\r\n\r\n")
        self._handshake(raw[:end], raw, pass_on=False)
        self.transport.resume_reading()
        if self.state is OPEN and end + 4 < len(raw):
            self.data_received(raw[end + 4 :])

    def _reject(self, status: int, reason: str, extra: str = "") -> None:
        body = reason.encode()
        head = (
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n{extra}"
        ).encode("latin-1")
        assert self.transport is not None
        self.transport.write(head + self._header_lines() + b"\r\n" + body)
        self.state = CLOSED
        self.transport.close()

    def _header_lines(self) -> bytes:
        pairs = [*self.default_headers(), *self.extra_headers]
        return b"".join(name + b": " + value + b"\r\n" for name, value in pairs)

    # ------------------------------------------------------------------ frames in

    def on_message(self, text: str | None) -> None:
        if self.state is not OPEN:
            return  # the handler is done with this socket: reads go on only for the close
        self._arrived = time.perf_counter()
        self._inbox.append(text)
        if len(self._inbox) >= INBOX_HIGH and not self._reading_paused:
            self._reading_paused = True
            assert self.transport is not None
            self.transport.pause_reading()
        self._wake()

    def on_ping(self, payload: bytes) -> None:
        if self.state is OPEN:
            self._write(frame(FIN | OP_PONG, payload))

    def on_pong(self, payload: bytes) -> None:
        if payload == self._ping_payload:
            self._pinged = 0.0

    def _peer_closed(self, payload: bytes) -> None:
        if self.state is OPEN:
            self._write(frame(FIN | OP_CLOSE, payload[:2]))
        self._closed()
        self.flush()
        assert self.transport is not None
        self.transport.close()

    # ------------------------------------------------------------------ the handler's side

    async def receive(self) -> str | None:
        """The next message: its text, or None for a binary one; :class:`SocketClosed` once
        the socket is closed. One reader at a time."""
        inbox = self._inbox
        while not inbox:
            if self.state is not OPEN:
                raise SocketClosed
            waiter = self._waiter = self.sockets.loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        text = inbox.pop(0)
        if self._reading_paused and len(inbox) <= INBOX_LOW and self.state is not CLOSED:
            self._reading_paused = False
            assert self.transport is not None
            self.transport.resume_reading()
        return text

    def send_text(self, text: str) -> bool:
        """Send a text message (written at the end of this loop turn). False when the socket
        is closed, or the peer has stopped reading and the socket was dropped."""
        if self.state is not OPEN:
            return False
        data = text.encode()
        if self._arrived and self.endpoint.answered(data, self._arrived):
            self._arrived = 0.0
        deflate = self.deflate
        if deflate is not None and len(data) >= COMPRESS_FROM:
            self._write(frame(FIN | RSV1 | OP_TEXT, deflate.compress(data)))
        else:
            self._write(frame(FIN | OP_TEXT, data))
        return True  # (a drop is found when the writes leave: the next send says so)

    def close(self, code: int = NORMAL) -> None:
        """Start the closing handshake: the peer answers with its close frame, or the
        connection is dropped after :data:`CLOSE_WAIT_S`."""
        if self.state is not OPEN or self.transport is None:
            return
        self._write(close_frame(code))
        self.state = CLOSING
        self._wake()
        if self._reading_paused:
            self._reading_paused = False
            self.transport.resume_reading()  # to read the peer's close frame
        self._close_timer = self.sockets.loop.call_later(CLOSE_WAIT_S, self.transport.close)

    def fail(self, code: int, reason: str) -> None:
        """A protocol error: say why in a close frame and drop the connection."""
        log.debug("socket closed: %s (%d)", reason, code)
        if self.state is OPEN:
            self._write(close_frame(code, reason))
        self._closed()
        self.flush()
        if self.transport is not None:
            self.transport.close()

    def keepalive(self, now: float, timeout: float) -> None:
        """One look of :meth:`Sockets._run`: close on a ping unanswered past ``timeout``, skip
        a socket busy both ways since the last look, ping any other."""
        if self.state is not OPEN:
            return
        if self._pinged:
            if now - self._pinged >= timeout:
                self.fail(INTERNAL_ERROR, "keepalive ping timeout")
            return
        if self._heard and self._told:
            self._heard = self._told = False
            return
        self._pinged = now
        self._ping_payload = struct.pack("!d", now)
        self._write(frame(FIN | OP_PING, self._ping_payload))

    # ------------------------------------------------------------------ inside

    def _write(self, data: bytes) -> None:
        out = self._out
        if out is not None:
            out.append(data)
        elif self.transport is not None and not self.transport.is_closing():
            self._out = [data]
            self.sockets.queue(self)

    def flush(self) -> None:
        """Write what waits, in one call; drop a peer that has stopped reading."""
        out, self._out = self._out, None
        transport = self.transport
        if not out or transport is None or transport.is_closing():
            return
        transport.write(out[0] if len(out) == 1 else b"".join(out))
        self._told = True
        if (
            self._writing_paused
            and transport.get_write_buffer_size() > self.endpoint.send_buffer_bytes
        ):
            log.info("socket dropped: the client stopped reading")
            self._closed()
            transport.abort()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _closed(self) -> None:
        """The one way into :attr:`State.CLOSED`: an open socket stops being counted."""
        state = self.state
        if state is CLOSED:
            return
        self.state = CLOSED
        self._passing = None
        if state is not CONNECTING:
            self.endpoint.counted(-1)
            self.sockets.discard(self)
        self._wake()
