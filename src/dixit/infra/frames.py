"""RFC 6455 frames and RFC 7692 per-message deflate, with no I/O: bytes in, bytes out.

The server side of the protocol as python-websockets splits it (its ``frames.py`` and the
sans-I/O ``Protocol``): functions that build the handshake's answer and the server's frames,
and :class:`FrameReader`, which turns the bytes a client sent into messages, pings, pongs and
its close frame. The reader is a base class rather than an object a socket holds, so that a
socket costs no second object and a frame no extra call (a move is five messages out and one
in); the socket of :mod:`.websocket` is one subclass, the tests in ``tests/infra`` another.
"""

from __future__ import annotations

import base64
import hashlib
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

try:
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover - the C speed-up is in every wheel we install
    from websockets.utils import apply_mask

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

OP_CONT, OP_TEXT, OP_BINARY, OP_CLOSE, OP_PING, OP_PONG = 0, 1, 2, 8, 9, 10
DATA_OPCODES = (OP_CONT, OP_TEXT, OP_BINARY)
CONTROL_OPCODES = (OP_CLOSE, OP_PING, OP_PONG)
FIN, RSV1, RSV23, MASKED = 0x80, 0x40, 0x30, 0x80

# Close codes (RFC 6455 §7.4.1) this server sends.
NORMAL, PROTOCOL_ERROR, INVALID_DATA, TOO_BIG = 1000, 1002, 1007, 1009
INTERNAL_ERROR, RESTART = 1011, 1012  # (the keepalive's timeout; the server stopping)
# Close codes a peer may send (§7.4, and 3000–4999 for applications).
PEER_CLOSE_CODES = frozenset({1000, 1001, 1002, 1003, *range(1007, 1015)})

_short = struct.Struct("!BB").pack
_medium = struct.Struct("!BBH").pack
_long = struct.Struct("!BBQ").pack


class Fault(Exception):
    """What a peer sent breaks the protocol: the close code and reason to answer with."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(code, reason)
        self.code = code
        self.reason = reason


def accept_key(key: str) -> str:
    """The handshake's ``Sec-WebSocket-Accept`` for the client's ``Sec-WebSocket-Key``."""
    return base64.b64encode(hashlib.sha1(key.encode("ascii") + GUID).digest()).decode("ascii")


def valid_key(key: str) -> bool:
    """A ``Sec-WebSocket-Key`` is 16 bytes in base64 (§4.2.1)."""
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


def masked_frame(first: int, payload: bytes, mask: bytes) -> bytes:
    """A client frame, masked with the 4 bytes ``mask`` (tests and benchmarks write these)."""
    n = len(payload)
    if n < 126:
        head = _short(first, MASKED | n)
    elif n < 65536:
        head = _medium(first, MASKED | 126, n)
    else:
        head = _long(first, MASKED | 127, n)
    return head + mask + (apply_mask(payload, mask) if payload else b"")


def close_frame(code: int, reason: str = "") -> bytes:
    """A close frame; the reason is cut to fit a control frame's 125 bytes."""
    return frame(FIN | OP_CLOSE, code.to_bytes(2, "big") + reason.encode()[:123])


def check_close(payload: bytes) -> None:
    """Raise :class:`Fault` for a close frame a peer may not send (§5.5.1, §7.4)."""
    code = int.from_bytes(payload[:2], "big")  # 0 for an empty close frame: no code
    if len(payload) == 1 or (payload and code not in PEER_CLOSE_CODES and not 3000 <= code < 5000):
        raise Fault(PROTOCOL_ERROR, "invalid close frame")
    try:
        payload[2:].decode("utf-8")
    except UnicodeDecodeError:
        raise Fault(INVALID_DATA, "close reason that is not UTF-8") from None


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


class FrameReader:
    """A client's frames, parsed as they arrive: :meth:`read_frames` takes bytes and calls
    :meth:`on_message` for each whole message (fragments joined, inflated, UTF-8 checked),
    :meth:`on_ping` and :meth:`on_pong`; it returns the payload of the peer's close frame once
    one was read (nothing after it is read), and raises :class:`Fault` on a protocol error.
    A header that breaks a rule is refused before its payload arrives, so a frame announcing
    gigabytes is refused at once."""

    __slots__ = (
        "_buffer",
        "_part_deflated",
        "_part_op",
        "_part_size",
        "_parts",
        "deflate",
        "max_size",
    )

    def __init__(self, max_size: int) -> None:
        self.max_size = max_size
        self.deflate: Deflate | None = None  # set once the handshake negotiated it
        self._buffer = b""  # an incomplete frame
        self._parts: list[bytes] | None = None  # a fragmented message so far
        self._part_op = OP_TEXT
        self._part_size = 0
        self._part_deflated = False

    def on_message(self, text: str | None) -> None:
        """A whole message: its text, or None for a binary one."""
        raise NotImplementedError

    def on_ping(self, payload: bytes) -> None:
        raise NotImplementedError

    def on_pong(self, payload: bytes) -> None:
        raise NotImplementedError

    def read_frames(self, data: bytes) -> bytes | None:
        if self._buffer:
            data = self._buffer + data
            self._buffer = b""
        pos, end = 0, len(data)
        while end - pos >= 2:
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
            self._check(first, second, length)
            start = head + 4
            if end - start < length:
                break
            payload = data[start : start + length]
            if length:
                payload = apply_mask(payload, data[head:start])
            pos = start + length
            opcode = first & 0x0F
            if opcode == OP_TEXT and first & (FIN | RSV1) == FIN:  # most frames: inline
                try:
                    text = payload.decode()
                except UnicodeDecodeError:
                    raise Fault(INVALID_DATA, "text that is not UTF-8") from None
                self.on_message(text)
            elif opcode == OP_CLOSE:
                check_close(payload)
                return payload
            else:
                self._frame(first, payload)
        if pos < end:
            self._buffer = data[pos:]
        return None

    def _check(self, first: int, second: int, length: int) -> None:
        opcode = first & 0x0F
        if not second & MASKED:
            raise Fault(PROTOCOL_ERROR, "client frames must be masked")
        if first & RSV23:
            raise Fault(PROTOCOL_ERROR, "reserved bits set")
        if opcode in CONTROL_OPCODES:
            if not first & FIN or length > 125:
                raise Fault(PROTOCOL_ERROR, "control frames are whole and at most 125 bytes")
            if first & RSV1:
                raise Fault(PROTOCOL_ERROR, "reserved bit set on a control frame")
            return
        if opcode not in DATA_OPCODES:
            raise Fault(PROTOCOL_ERROR, f"unknown opcode {opcode}")
        if opcode == OP_CONT:
            if self._parts is None:
                raise Fault(PROTOCOL_ERROR, "continuation without a message")
            if first & RSV1:
                raise Fault(PROTOCOL_ERROR, "reserved bit set on a continuation")
            size = self._part_size + length
        else:
            if self._parts is not None:
                raise Fault(PROTOCOL_ERROR, "a new message before the last one ended")
            if first & RSV1 and self.deflate is None:
                raise Fault(PROTOCOL_ERROR, "compressed frame without per-message deflate")
            size = length
        if size > self.max_size:
            raise Fault(TOO_BIG, f"message over {self.max_size} bytes")

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
            self.on_ping(payload)
        else:
            self.on_pong(payload)

    def _end_parts(self) -> None:
        parts, self._parts = self._parts, None
        assert parts is not None
        payload = b"".join(parts)
        if self._part_deflated:
            assert self.deflate is not None
            inflated = self.deflate.decompress(payload, self.max_size)
            if inflated is None:
                raise Fault(TOO_BIG, f"message over {self.max_size} bytes")
            payload = inflated
        self._message(self._part_op, payload)

    def _message(self, opcode: int, payload: bytes) -> None:
        if opcode == OP_TEXT:
            try:
                text: str | None = payload.decode("utf-8")
            except UnicodeDecodeError:
                raise Fault(INVALID_DATA, "text that is not UTF-8") from None
        else:
            text = None
        self.on_message(text)
