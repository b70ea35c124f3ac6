"""Room sockets on the wire: the server side of RFC 6455 (and RFC 7692's per-message deflate),
as uvicorn's WebSocket protocol class.

uvicorn's HTTP protocol parses a request and, on ``Upgrade: websocket``, hands the transport to
this class and replays the request to it. It answers the handshake of ``/ws/{code}`` itself and
runs the room's handler (:func:`.ws.room_socket`) on the socket, with no ASGI messages between
them.

Why not uvicorn's own WebSocket layers: a room socket lives as long as its game, and a move is
five messages out and one in. Through ASGI each socket kept a scope with its headers, a receive
queue, two events and a sans-I/O parser (about 18 KiB), and each message went through four
wrappers; reading paused and resumed the transport after every frame. Here a socket is one
object with slots, a message is one ``transport.write``, and the keepalive pings of every
socket are sent by one task (:class:`Sockets`).
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import logging
import os
import socket
import struct
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast
from urllib.parse import unquote

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - the C speed-up is in every wheel we install
    from websockets.utils import apply_mask

from dixit.ops.observe import ServerMetrics

from .config import Limits
from .handoff import Handoff
from .hub import Hub
from .security import Refusal

log = logging.getLogger("dixit.server")

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
STATE_KEY = "dixit.sockets"  # where the lifespan leaves :class:`SocketServices` for this class

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10
DATA_OPCODES = (OP_CONT, OP_TEXT, OP_BINARY)
CONTROL_OPCODES = (OP_CLOSE, OP_PING, OP_PONG)
FIN, RSV1, RSV23 = 0x80, 0x40, 0x30
# Close codes a peer may send (RFC 6455 §7.4, and 3000–4999 for applications).
PEER_CLOSE_CODES = frozenset({1000, 1001, 1002, 1003, *range(1007, 1015)})
PROTOCOL_ERROR, INVALID_DATA, TOO_BIG, GOING_AWAY, RESTART = 1002, 1007, 1009, 1001, 1012

CLOSE_WAIT_S = 10.0  # after our close frame, how long the peer has to answer with its own
KEEPALIVE_SLICES = 10  # the keepalive looks at a tenth of the sockets at a time
INBOX_HIGH, INBOX_LOW = 32, 8  # messages waiting for the handler: stop reading, read again
COMPRESS_FROM = 128  # shorter messages go uncompressed even with per-message deflate
ANSWERS = (b'{"type":"ack"', b'{"type":"error"')

_short = struct.Struct("!BB").pack
_medium = struct.Struct("!BBH").pack
_long = struct.Struct("!BBQ").pack


class SocketClosed(Exception):
    """The socket is closed (by the peer, by the server, or on a protocol error)."""


@dataclass(frozen=True)
class SocketServices:
    """What every room socket of a server uses; the app's lifespan puts it in uvicorn's
    ``app_state`` under :data:`STATE_KEY`."""

    hub: Hub
    metrics: ServerMetrics
    handler: Callable[[RoomSocket, Hub, str], Any]  # a coroutine function: runs one socket
    # Before answering 101: the client's address, and None or the refusal to answer with.
    admit: Callable[[str | None, Mapping[str, list[str]]], tuple[str, Refusal | None]] = (
        lambda peer, headers: (peer or "unknown", None)
    )
    hello_wait: Callable[[str], float] = lambda client: 0.0  # 0, or seconds: over the limit


def socket_room(path: str) -> str | None:
    """The room code of a ``/ws/{code}`` path; None for any other path."""
    code = path[4:]
    return code if path.startswith("/ws/") and code and "/" not in code else None


def accept_key(key: str) -> str:
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + GUID).digest()).decode("ascii")


def _valid_key(key: str) -> bool:
    try:
        return len(base64.b64decode(key.encode("ascii"), validate=True)) == 16
    except (ValueError, UnicodeEncodeError):
        return False


def frame(first: int, payload: bytes) -> bytes:
    """A server frame (never masked): ``first`` is FIN, RSV and the opcode."""
    n = len(payload)
    if n < 126:
        return _short(first, n) + payload
    if n < 65536:
        return _medium(first, 126, n) + payload
    return _long(first, 127, n) + payload


def close_frame(code: int, reason: str = "") -> bytes:
    return frame(FIN | OP_CLOSE, code.to_bytes(2, "big") + reason.encode()[:123])


@dataclass(frozen=True)
class Deflate:
    """Per-message deflate as negotiated: without context takeover either way, so a socket
    keeps no compressor between messages (a zlib stream with its window is ~300 KiB)."""

    window_bits: int = 15  # for our compression: the client's server_max_window_bits, or 15

    def header(self) -> str:
        params = ["permessage-deflate", "server_no_context_takeover", "client_no_context_takeover"]
        if self.window_bits != 15:
            params.append(f"server_max_window_bits={self.window_bits}")
        return "; ".join(params)

    def compress(self, data: bytes) -> bytes:
        packer = zlib.compressobj(6, zlib.DEFLATED, -self.window_bits, 5)
        out = packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)
        return out[:-4] if out.endswith(b"\x00\x00\xff\xff") else out

    @staticmethod
    def decompress(data: bytes, limit: int) -> bytes | None:
        """The message, or None when it would exceed ``limit`` bytes."""
        unpacker = zlib.decompressobj(-15)
        out = unpacker.decompress(data + b"\x00\x00\xff\xff", limit + 1)
        return None if len(out) > limit else out


def negotiate_deflate(offers: Sequence[str]) -> Deflate | None:
    """The first ``permessage-deflate`` offer we can accept (RFC 7692 §5, §7.1), or None."""
    for header in offers:
        for offer in header.split(","):
            name, *params = [p.strip() for p in offer.split(";")]
            if name.lower() != "permessage-deflate":
                continue
            window, seen, ok = 15, set(), True
            for param in params:
                key, _, value = param.partition("=")
                key, value = key.strip().lower(), value.strip().strip('"')
                if key in seen:
                    ok = False
                seen.add(key)
                if key in ("server_no_context_takeover", "client_no_context_takeover"):
                    ok = ok and not value
                elif key == "client_max_window_bits":
                    ok = ok and (not value or (value.isdigit() and 8 <= int(value) <= 15))
                elif key == "server_max_window_bits":
                    # zlib cannot make 8-bit windows: decline rather than break the stream
                    ok = ok and value.isdigit() and 9 <= int(value) <= 15
                    window = int(value) if ok else window
                else:
                    ok = False
            if ok:
                return Deflate(window)
    return None


def _unlink_parser(upgraded: Any) -> None:
    """Let uvicorn's HTTP protocol of an upgraded connection go as soon as it has handed the
    transport over. It and its parser refer to each other, so the pair (about 15 objects)
    otherwise waits for a full collection, rare by design here (:meth:`.hub.Hub.start`): with
    four sockets a game that was some 13 KiB a live game (docs/benchmarks.md)."""
    upgraded.parser = None


class Sockets:
    """Every open room socket of a server: their writes leave once per turn of the event loop,
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
        self.open: set[RoomSocket] = set()
        self.unsent: list[RoomSocket] = []  # sockets with writes waiting for :meth:`flush`
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The serving loop, looked up once (on 3.11 each lookup costs a getpid())."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        return self._loop

    def add(self, socket: RoomSocket) -> None:
        self.open.add(socket)
        if self._task is None and self.interval:
            self._task = self.loop.create_task(self._run(self.interval))

    def discard(self, socket: RoomSocket) -> None:
        self.open.discard(socket)

    def queue(self, socket: RoomSocket) -> None:
        """``socket`` has a first write waiting: flush once the current callbacks are done."""
        self.unsent.append(socket)
        if len(self.unsent) == 1:
            self.loop.call_soon(self.flush)

    def flush(self) -> None:
        unsent, self.unsent = self.unsent, []
        for room_socket in unsent:
            room_socket.flush()

    async def _run(self, interval: float) -> None:
        pause = interval / 2 / KEEPALIVE_SLICES
        while True:
            looked_at = list(self.open)  # a socket opened since is looked at next time round
            for part in range(KEEPALIVE_SLICES):
                await asyncio.sleep(pause)
                now = time.monotonic()
                for room_socket in looked_at[part::KEEPALIVE_SLICES]:
                    room_socket.keepalive(now, self.timeout)


class RoomSocket(asyncio.Protocol):
    """One WebSocket connection: the handshake, then frames both ways (see the module)."""

    __slots__ = (
        "_arrived",
        "_buffer",
        "_close_sent",
        "_close_timer",
        "_deflate",
        "_gone",
        "_head",
        "_heard",
        "_inbox",
        "_open",
        "_out",
        "_part_deflated",
        "_part_op",
        "_part_size",
        "_parts",
        "_passing",
        "_ping_payload",
        "_pinged",
        "_reading_paused",
        "_told",
        "_waiter",
        "_writing_paused",
        "client",
        "config",
        "max_buffer",
        "max_size",
        "server_state",
        "services",
        "sockets",
        "transport",
    )
    extra_headers: ClassVar[tuple[tuple[bytes, bytes], ...]] = ()  # added to the handshake
    handoff: ClassVar[Handoff | None] = None  # under --workers: a room's sockets on one worker

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any]) -> None:
        self.config = config
        self.server_state = server_state
        self.services: SocketServices = app_state[STATE_KEY]
        self.sockets: Sockets = app_state.setdefault(
            "dixit.open_sockets", Sockets(config.ws_ping_interval, config.ws_ping_timeout)
        )
        self.transport: asyncio.Transport | None = None
        self._head = b""  # the handshake request, until it is whole
        self._buffer = b""  # an incomplete frame
        self._out: list[bytes] | None = None  # frames waiting for the end of this loop turn
        self._open = False  # handshake answered 101
        self._gone = False  # no more frames in or out
        self._close_sent = False
        self._close_timer: asyncio.TimerHandle | None = None
        self._inbox: list[str | None] = []  # messages for the handler (None: a binary one)
        self._waiter: asyncio.Future[None] | None = None
        self._reading_paused = False
        self._writing_paused = False
        self._parts: list[bytes] | None = None  # a fragmented message so far
        self._part_op = OP_TEXT
        self._part_size = 0
        self._part_deflated = False
        self._deflate: Deflate | None = None
        self._passing: asyncio.Task[None] | None = None  # waiting for the owner to confirm
        self._pinged = 0.0  # when our unanswered ping went out (0: none)
        self._ping_payload = b""
        self._heard = self._told = False  # frames came in / went out since the last look
        self._arrived = 0.0  # when the command now being handled arrived (for /metrics)
        self.client = ""  # its address, as rate limits key it
        self.max_size: int = config.ws_max_size
        limits: Limits = self.services.hub.services.config.limits
        self.max_buffer = limits.send_buffer_bytes

    @classmethod
    def tagged(
        cls, headers: Sequence[tuple[bytes, bytes]], handoff: Handoff | None = None
    ) -> type[RoomSocket]:
        """This class with ``headers`` added to every handshake answer and, under
        ``--workers``, passing the sockets of rooms other workers own to them."""
        attributes = {"__slots__": (), "extra_headers": tuple(headers), "handoff": handoff}
        return type(cls.__name__, (cls,), attributes)

    # ------------------------------------------------------------------ asyncio callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # (uvloop's are not subclasses)
        self.server_state.connections.add(self)
        upgraded = transport.get_protocol()  # uvicorn's HTTP protocol, until the handover ends
        if upgraded is not self and getattr(upgraded, "parser", None) is not None:
            self.sockets.loop.call_soon(_unlink_parser, upgraded)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server_state.connections.discard(self)
        if self._close_timer is not None:
            self._close_timer.cancel()
            self._close_timer = None
        if self._open:
            self._open = False
            self.services.metrics.sockets -= 1
            self.sockets.discard(self)
        self._end()

    def eof_received(self) -> bool | None:
        return None  # the transport closes itself

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False

    def shutdown(self) -> None:
        """uvicorn is stopping: tell the peer (1012, service restart) and close."""
        if self._passing is not None:  # the owner may have it: nothing written here
            self._passing.cancel()
            self._gone = True
        elif self._open and not self._close_sent:
            self._write(close_frame(RESTART))
            self._close_sent = True
        elif not self._open and self.transport is not None:
            self._reject(503, "Service Unavailable")
        self._end()
        self.flush()
        if self.transport is not None:
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        if self._gone:
            return
        if not self._open:
            self._head += data
            end = self._head.find(b"\r\n\r\n")
            if end < 0:
                return
            raw, request, data = self._head, self._head[:end], self._head[end + 4 :]
            self._head = b""
            self._handshake(request, raw)
            if not self._open or not data:
                return
        self._heard = True
        if self._buffer:
            data = self._buffer + data
            self._buffer = b""
        self._frames(data)

    # ------------------------------------------------------------------ the handshake

    def _handshake(self, request: bytes, raw: bytes, pass_on: bool = True) -> None:
        """Answer the opening handshake (RFC 6455 §4.2): 101 and the room's handler, or an
        HTTP error and the connection closed; or, under ``--workers``, pass it on to the
        room's owner (unless ``pass_on`` is false)."""
        line, *header_lines = request.decode("latin-1").split("\r\n")
        method, _, rest = line.partition(" ")
        target = rest.rpartition(" ")[0]
        headers: dict[str, list[str]] = {}
        for header in header_lines:
            name, _, value = header.partition(":")
            headers.setdefault(name.strip().lower(), []).append(value.strip())
        version = headers.get("sec-websocket-version", [""])[0]
        key = headers.get("sec-websocket-key", [""])[0]
        code = socket_room(unquote(target.partition("?")[0]))
        if method != "GET":
            self._reject(405, "Method Not Allowed")
        elif version != "13":
            self._reject(426, "Upgrade Required", "sec-websocket-version: 13\r\n")
        elif not _valid_key(key):
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
            config = self.config
            if config.ws_per_message_deflate:
                self._deflate = negotiate_deflate(headers.get("sec-websocket-extensions", []))
            extension = (
                f"sec-websocket-extensions: {self._deflate.header()}\r\n" if self._deflate else ""
            )
            answer = (
                "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\n"
                f"connection: Upgrade\r\nsec-websocket-accept: {accept_key(key)}\r\n{extension}"
            ).encode("latin-1")
            assert self.transport is not None
            self.transport.write(answer + self._default_headers() + b"\r\n")
            self._open = True
            self.services.metrics.sockets += 1
            self.sockets.add(self)
            self._run(code)

    def _admission(self, headers: Mapping[str, list[str]]) -> Refusal | None:
        """Checked once per connection, by the process that accepted it first."""
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        self.client, refusal = self.services.admit(
            peer[0] if isinstance(peer, tuple) else None, headers
        )
        return refusal

    def hello_wait(self) -> float:
        """0 while this client may say hello again, else the seconds until it may."""
        return self.services.hello_wait(self.client)

    def _pass_on(self, code: str, raw: bytes) -> bool:
        """Give the connection to the worker that owns room ``code`` (:mod:`.handoff`): it
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
            self._gone = True  # the owner has the socket: this end writes nothing more
            self.transport.close()
            return
        # The owner died with it: serve it here, the bytes after the request included.
        end = raw.find(b"\r\n\r\n")
        self._handshake(raw[:end], raw, pass_on=False)
        self.transport.resume_reading()
        if self._open and end + 4 < len(raw):
            self.data_received(raw[end + 4 :])

    def _reject(self, status: int, reason: str, extra: str = "") -> None:
        body = reason.encode()
        head = (
            f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n{extra}"
        ).encode("latin-1")
        assert self.transport is not None
        self.transport.write(head + self._default_headers() + b"\r\n" + body)
        self._gone = True
        self.transport.close()

    def _default_headers(self) -> bytes:
        pairs = [*self.server_state.default_headers, *self.extra_headers]
        return b"".join(name + b": " + value + b"\r\n" for name, value in pairs)

    # ------------------------------------------------------------------ frames in

    def _frames(self, data: bytes) -> None:
        pos, end = 0, len(data)
        while not self._gone:
            if end - pos < 2:
                break
            first, second = data[pos], data[pos + 1]
            length = second & 0x7F
            head = pos + 2
            if length == 126:
                if end - head < 2:
                    break
                length = int.from_bytes(data[head : head + 2], "big")
                head += 2
            elif length == 127:
                if end - head < 8:
                    break
                length = int.from_bytes(data[head : head + 8], "big")
                head += 8
            problem = self._check(first, second, length)
            if problem:
                self.fail(*problem)
                return
            start = head + 4
            if end - start < length:
                break
            payload = data[start : start + length]
            if length:
                payload = apply_mask(payload, data[head:start])
            pos = start + length
            self._frame(first, payload)
        if pos < end and not self._gone:
            self._buffer = data[pos:]

    def _check(self, first: int, second: int, length: int) -> tuple[int, str] | None:
        """Why a frame's header breaks the protocol (close code, reason), or None; checked
        before its payload arrives, so a frame announcing gigabytes is refused at once."""
        opcode = first & 0x0F
        if not second & 0x80:
            return PROTOCOL_ERROR, "client frames must be masked"
        if first & RSV23:
            return PROTOCOL_ERROR, "reserved bits set"
        if opcode in CONTROL_OPCODES:
            if not first & FIN or length > 125:
                return PROTOCOL_ERROR, "control frames are whole and at most 125 bytes"
            if first & RSV1:
                return PROTOCOL_ERROR, "reserved bit set on a control frame"
            return None
        if opcode not in DATA_OPCODES:
            return PROTOCOL_ERROR, f"unknown opcode {opcode}"
        if opcode == OP_CONT:
            if self._parts is None:
                return PROTOCOL_ERROR, "continuation without a message"
            if first & RSV1:
                return PROTOCOL_ERROR, "reserved bit set on a continuation"
            size = self._part_size + length
        else:
            if self._parts is not None:
                return PROTOCOL_ERROR, "a new message before the last one ended"
            if first & RSV1 and self._deflate is None:
                return PROTOCOL_ERROR, "compressed frame without per-message deflate"
            size = length
        if size > self.max_size:
            return TOO_BIG, f"message over {self.max_size} bytes"
        return None

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode in (OP_TEXT, OP_BINARY):
            if first & FIN and not first & RSV1:
                self._message(opcode, payload)
                return
            self._parts, self._part_op = [payload], opcode
            self._part_size, self._part_deflated = len(payload), bool(first & RSV1)
            if first & FIN:
                self._end_parts()
        elif opcode == OP_CONT:
            assert self._parts is not None
            self._parts.append(payload)
            self._part_size += len(payload)
            if first & FIN:
                self._end_parts()
        elif opcode == OP_PING:
            if not self._close_sent:
                self._write(frame(FIN | OP_PONG, payload))
        elif opcode == OP_PONG:
            if payload == self._ping_payload:
                self._pinged = 0.0
        else:
            self._peer_closed(payload)

    def _end_parts(self) -> None:
        parts, self._parts = self._parts, None
        assert parts is not None
        payload = b"".join(parts)
        if self._part_deflated:
            assert self._deflate is not None
            inflated = self._deflate.decompress(payload, self.max_size)
            if inflated is None:
                self.fail(TOO_BIG, f"message over {self.max_size} bytes")
                return
            payload = inflated
        self._message(self._part_op, payload)

    def _message(self, opcode: int, payload: bytes) -> None:
        if self._close_sent:
            return  # the handler is done with this socket: reads go on only for the close
        if opcode == OP_TEXT:
            try:
                text: str | None = payload.decode("utf-8")
            except UnicodeDecodeError:
                self.fail(INVALID_DATA, "text that is not UTF-8")
                return
        else:
            text = None
        self._arrived = time.perf_counter()
        self._inbox.append(text)
        if len(self._inbox) >= INBOX_HIGH and not self._reading_paused:
            self._reading_paused = True
            assert self.transport is not None
            self.transport.pause_reading()
        self._wake()

    def _peer_closed(self, payload: bytes) -> None:
        code = int.from_bytes(payload[:2], "big")  # 0 for an empty close frame: no code
        if len(payload) == 1 or (
            payload and code not in PEER_CLOSE_CODES and not 3000 <= code < 5000
        ):
            self.fail(PROTOCOL_ERROR, "invalid close frame")
            return
        try:
            payload[2:].decode("utf-8")
        except UnicodeDecodeError:
            self.fail(INVALID_DATA, "close reason that is not UTF-8")
            return
        if not self._close_sent:
            self._write(frame(FIN | OP_CLOSE, payload[:2]))
            self._close_sent = True
        self._end()
        self.flush()
        assert self.transport is not None
        self.transport.close()

    # ------------------------------------------------------------------ the handler's side

    async def receive(self) -> str | None:
        """The next message: its text, or None for a binary one; :class:`SocketClosed` once
        the socket is closed. One reader at a time."""
        inbox = self._inbox
        while not inbox:
            if self._gone or self._close_sent:
                raise SocketClosed
            waiter = self._waiter = self.sockets.loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        text = inbox.pop(0)
        if self._reading_paused and len(inbox) <= INBOX_LOW and not self._gone:
            self._reading_paused = False
            assert self.transport is not None
            self.transport.resume_reading()
        return text

    def send_text(self, text: str) -> bool:
        """Send a text message now (it is written to the transport at once). False when the
        socket is closed, or the peer has stopped reading and the socket was dropped."""
        if self._gone or self._close_sent:
            return False
        data = text.encode()
        if self._arrived and data.startswith(ANSWERS):
            metrics = self.services.metrics
            metrics.commands.inc(1.0, (("answer", "ack" if data[9] == 97 else "error"),))
            metrics.command_seconds.observe(time.perf_counter() - self._arrived)
            self._arrived = 0.0
        deflate = self._deflate
        if deflate is not None and len(data) >= COMPRESS_FROM:
            self._write(frame(FIN | RSV1 | OP_TEXT, deflate.compress(data)))
        else:
            self._write(frame(FIN | OP_TEXT, data))
        return not self._gone

    def close(self, code: int = 1000) -> None:
        """Start the closing handshake: the peer answers with its close frame, or the
        connection is dropped after :data:`CLOSE_WAIT_S`."""
        if self._gone or self._close_sent or self.transport is None:
            return
        self._write(close_frame(code))
        self._close_sent = True
        self._wake()
        if self._reading_paused:
            self._reading_paused = False
            self.transport.resume_reading()  # to read the peer's close frame
        if not self._gone:
            self._close_timer = asyncio.get_running_loop().call_later(
                CLOSE_WAIT_S, self.transport.close
            )

    def fail(self, code: int, reason: str) -> None:
        """A protocol error: say why in a close frame and drop the connection."""
        log.debug("room socket closed: %s (%d)", reason, code)
        if not self._close_sent and not self._gone:
            self._write(close_frame(code, reason))
            self._close_sent = True
        self._end()
        self.flush()
        if self.transport is not None:
            self.transport.close()

    def keepalive(self, now: float, timeout: float) -> None:
        """One look of :meth:`Sockets._run`: close on a ping unanswered past ``timeout``, skip
        a socket busy both ways since the last look, ping any other."""
        if self._gone or self._close_sent:
            return
        if self._pinged:
            if now - self._pinged >= timeout:
                self.fail(1011, "keepalive ping timeout")
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
        if self._writing_paused and transport.get_write_buffer_size() > self.max_buffer:
            log.info("room socket dropped: the client stopped reading")
            self._end()
            transport.abort()

    def _wake(self) -> None:
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _end(self) -> None:
        if not self._gone:
            self._gone = True
            self._wake()

    def _run(self, code: str) -> None:
        task = asyncio.get_running_loop().create_task(
            self.services.handler(self, self.services.hub, code)
        )
        tasks: set[asyncio.Task[None]] = self.server_state.tasks
        tasks.add(task)
        task.add_done_callback(tasks.discard)
