"""The room socket's WebSocket layer (dixit.infra.websocket) against RFC 6455 and RFC 7692:
raw frames over a real TCP connection to ``dixit serve``, the websockets library as an
independent peer, and the keepalive and slow-reader rules on a transport stand-in."""

from __future__ import annotations

import asyncio
import base64
import gc
import hashlib
import json
import os
import random
import socket
import struct
import weakref
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState
from websockets.asyncio.client import connect

from dixit.infra.frames import negotiate_deflate
from dixit.infra.handoff import Handoff
from dixit.infra.uvicorn_ws import ENDPOINT_KEY, UvicornSocket
from dixit.infra.websocket import Endpoint, Sockets, State
from dixit.server.websocket import socket_room

from .harness import Client, ServerProcess, create_room, join_room, play_rounds
from .test_handoff import code_of, inbox_not_accepting

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


class Raw:
    """A WebSocket client written out by hand: every byte it sends is the test's choice."""

    def __init__(self, port: int, path: str, headers: str = "", version: str = "13") -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key}\r\n"
                f"Sec-WebSocket-Version: {version}\r\n{headers}\r\n"
            ).encode()
        )
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.status = int(lines[0].split()[1])
        self.headers = {
            k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])
        }

    def _until(self, marker: bytes) -> bytes:
        while marker not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        head, _, self.buffer = self.buffer.partition(marker)
        return head

    def _exactly(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(
        self, opcode: int, payload: bytes, fin: bool = True, mask: bool = True, rsv: int = 0
    ) -> None:
        first = (0x80 if fin else 0) | rsv | opcode
        n = len(payload)
        length = (
            struct.pack("!B", n)
            if n < 126
            else struct.pack("!BH", 126, n)
            if n < 65536
            else struct.pack("!BQ", 127, n)
        )
        length = bytes([length[0] | (0x80 if mask else 0)]) + length[1:]
        if mask:
            key = os.urandom(4)
            payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
            length += key
        self.sock.sendall(bytes([first]) + length + payload)

    def text(self, data: Any) -> None:
        self.send(1, json.dumps(data).encode())

    def frame(self) -> tuple[int, bytes]:
        first, second = self._exactly(2)
        assert not second & 0x80, "server frames are never masked"
        n = second & 0x7F
        if n == 126:
            (n,) = struct.unpack("!H", self._exactly(2))
        elif n == 127:
            (n,) = struct.unpack("!Q", self._exactly(8))
        payload = self._exactly(n)
        if first & 0x40:
            payload = zlib.decompressobj(-15).decompress(payload + b"\x00\x00\xff\xff")
        return first & 0x0F, payload

    def message(self) -> dict[str, Any]:
        """The next text message (control frames in between must not be pongs we did not
        ask for: they are returned by :meth:`frame` to tests that look for them)."""
        opcode, payload = self.frame()
        assert opcode == 1, (opcode, payload)
        return dict(json.loads(payload))

    def closed_with(self) -> int:
        """The close code the server sends next (data frames before it are skipped), and the
        TCP connection then ends."""
        while True:
            opcode, payload = self.frame()
            if opcode == 8:
                code: int = struct.unpack("!H", payload[:2])[0]
                self.sock.settimeout(5)
                rest = self.sock.recv(10)
                assert rest == b"", "the server closes the connection after its close frame"
                return code

    def close(self) -> None:
        self.sock.close()


@pytest.fixture(scope="module")
def room(server: ServerProcess) -> dict[str, Any]:
    return create_room(server.base, "Ann")


def test_the_handshake_is_answered_as_the_rfc_says(
    server: ServerProcess, room: dict[str, Any]
) -> None:
    raw = Raw(server.port, f"/ws/{room['code']}")
    expected = base64.b64encode(hashlib.sha1(raw.key.encode() + GUID).digest()).decode()
    assert raw.status == 101
    assert raw.headers["sec-websocket-accept"] == expected
    assert raw.headers["upgrade"].lower() == "websocket"
    assert "sec-websocket-extensions" not in raw.headers  # compression is off by default
    raw.text({"type": "ping", "id": "p1"})
    assert raw.message() == {"type": "pong", "v": 1, "id": "p1"}
    raw.close()

    for path, version, status in [
        (f"/ws/{room['code']}", "8", 426),
        ("/ws/", "13", 404),
        (f"/ws/{room['code']}/more", "13", 404),
        ("/elsewhere", "13", 404),
    ]:
        refused = Raw(server.port, path, version=version)
        assert refused.status == status, path
        refused.close()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as bad_key:
        bad_key.sendall(
            f"GET /ws/{room['code']} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: short\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert bad_key.recv(100).startswith(b"HTTP/1.1 400")


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        ([(1, b'{"type":"ping"}', True, False, 0)], 1002),  # not masked
        ([(1, b'{"type":"ping"}', True, True, 0x20)], 1002),  # a reserved bit
        ([(1, b'{"type":"ping"}', True, True, 0x40)], 1002),  # compressed, not negotiated
        ([(3, b"", True, True, 0)], 1002),  # an unknown opcode
        ([(0, b"tail", True, True, 0)], 1002),  # a continuation of nothing
        ([(9, b"x" * 126, True, True, 0)], 1002),  # a control frame over 125 bytes
        ([(9, b"ping", False, True, 0)], 1002),  # a fragmented control frame
        ([(1, b'{"ty', False, True, 0), (1, b'pe"}', True, True, 0)], 1002),  # two starts
        ([(1, b"\xff\xfe not utf-8", True, True, 0)], 1007),
        ([(1, b"\xe2\x82", False, True, 0), (0, b"x", True, True, 0)], 1007),  # split bad
        ([(8, struct.pack("!H", 999), True, True, 0)], 1002),  # a close code no one may send
        ([(8, b"\x03", True, True, 0)], 1002),  # a close payload of one byte
        ([(8, struct.pack("!H", 1000) + b"\xff", True, True, 0)], 1007),  # a bad reason
    ],
)
def test_protocol_errors_close_with_their_code(
    server: ServerProcess,
    room: dict[str, Any],
    frames: list[tuple[int, bytes, bool, bool, int]],
    code: int,
) -> None:
    raw = Raw(server.port, f"/ws/{room['code']}")
    for opcode, payload, fin, mask, rsv in frames:
        raw.send(opcode, payload, fin=fin, mask=mask, rsv=rsv)
    assert raw.closed_with() == code
    raw.close()


def test_a_frame_announcing_too_much_is_refused_before_its_payload(
    server: ServerProcess, room: dict[str, Any]
) -> None:
    raw = Raw(server.port, f"/ws/{room['code']}")
    raw.sock.sendall(bytes([0x81, 0x80 | 127]) + struct.pack("!Q", 1 << 40) + os.urandom(4))
    assert raw.closed_with() == 1009
    raw.close()
    raw = Raw(server.port, f"/ws/{room['code']}")  # fragments adding up to over 64 KiB
    raw.send(1, b" " * 40_000, fin=False)
    raw.send(0, b" " * 40_000, fin=True)
    assert raw.closed_with() == 1009
    raw.close()


def test_fragments_and_control_frames_between_them(
    server: ServerProcess, room: dict[str, Any]
) -> None:
    raw = Raw(server.port, f"/ws/{room['code']}")
    raw.send(1, b'{"type":', fin=False)
    raw.send(9, b"are you there")  # a ping between fragments is answered at once
    raw.send(0, b'"ping","id"', fin=False)
    raw.send(10, b"unasked")  # an unsolicited pong is ignored
    raw.send(0, b':"f1"}', fin=True)
    assert raw.frame() == (10, b"are you there")
    assert raw.message() == {"type": "pong", "v": 1, "id": "f1"}
    raw.send(1, b'{"type":"ping","id":"' + "é".encode() + b'"}')
    assert raw.message()["id"] == "é"
    raw.send(8, struct.pack("!H", 1000) + b"bye")  # the closing handshake: echoed, then EOF
    assert raw.closed_with() == 1000
    raw.close()


def test_a_client_that_closes_right_after_a_command_still_gets_it_applied(
    server: ServerProcess,
) -> None:
    ticket = create_room(server.base, "Bo")
    raw = Raw(server.port, f"/ws/{ticket['code']}")
    raw.text({"type": "hello", "v": 1, "token": ticket["token"]})
    assert raw.message()["type"] == "welcome"
    raw.text({"type": "set_profile", "id": "n1", "name": "Bo the Brave"})
    raw.send(8, struct.pack("!H", 1000))
    raw.closed_with()
    raw.close()
    again = Raw(server.port, f"/ws/{ticket['code']}")
    again.text({"type": "hello", "v": 1, "token": ticket["token"]})
    welcome = again.message()
    assert [s["name"] for s in welcome["room"]["seats"]] == ["Bo the Brave"]
    again.close()


@pytest.fixture(scope="module")
def deflating(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server started with ``--ws-compression``."""
    workdir: Path = tmp_path_factory.mktemp("deflating")
    proc = ServerProcess(
        database=f"sqlite:///{workdir / 'dixit.sqlite3'}",
        workdir=workdir,
        extra=("--ws-compression",),
    )
    proc.start()
    yield proc
    proc.stop()


def test_per_message_deflate_with_an_independent_client(deflating: ServerProcess) -> None:
    async def play() -> tuple[str | None, dict[str, Any]]:
        ticket = create_room(deflating.base, "Cy")
        async with connect(f"{deflating.ws_base}/ws/{ticket['code']}") as ws:  # deflate offered
            extensions = (
                ws.response.headers.get("Sec-WebSocket-Extensions") if ws.response else None
            )
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": ticket["token"]}))
            welcome = json.loads(await ws.recv())
            big = json.dumps({"type": "set_profile", "id": "n1", "name": "Cy " + "z" * 20})
            await ws.send(big)
            while (answer := json.loads(await ws.recv()))["type"] != "ack":
                pass
            assert answer["id"] == "n1"
            return extensions, welcome

    extensions, welcome = asyncio.run(play())
    assert extensions is not None and extensions.startswith("permessage-deflate")
    assert welcome["type"] == "welcome" and welcome["room"]["seats"][0]["name"] == "Cy"

    raw = Raw(
        deflating.port,
        f"/ws/{create_room(deflating.base, 'Di')['code']}",
        headers="Sec-WebSocket-Extensions: permessage-deflate; server_max_window_bits=10\r\n",
    )
    assert raw.headers["sec-websocket-extensions"] == (
        "permessage-deflate; server_no_context_takeover; client_no_context_takeover; "
        "server_max_window_bits=10"
    )
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    body = packer.compress(b'{"type":"ping","id":"z1"}') + packer.flush(zlib.Z_SYNC_FLUSH)
    raw.send(1, body[:-4], rsv=0x40)
    assert raw.message() == {"type": "pong", "v": 1, "id": "z1"}
    bomb = zlib.compress(b" " * 200_000)[2:-4]  # small on the wire, over 64 KiB inflated
    raw.send(1, bomb, rsv=0x40)
    assert raw.closed_with() == 1009
    raw.close()


def test_uvicorns_own_websocket_path_serves_the_same_rooms(tmp_path: Path) -> None:
    """``dixit serve --ws uvicorn`` (for debugging): the same endpoint through uvicorn's
    implementation; a game plays, a path that is no room and a foreign origin are refused."""
    proc = ServerProcess(
        database=f"sqlite:///{tmp_path / 'dixit.sqlite3'}",
        workdir=tmp_path,
        extra=("--ws", "uvicorn", "--allowed-origin", "https://dixit.example"),
    )
    proc.start()
    try:
        room = f"/ws/{create_room(proc.base, 'Ed')['code']}"
        for path, headers in [("/ws/a/b", ""), (room, "Origin: https://evil.example\r\n")]:
            refused = Raw(proc.port, path, headers=headers)
            assert refused.status == 403
            refused.sock.close()

        async def play() -> list[list[int]]:
            ticket = create_room(proc.base, "Ann")
            tickets = [ticket] + [join_room(proc.base, ticket["code"], n) for n in "FGH"]
            clients = [Client(proc.ws_base, t) for t in tickets]
            for client in clients:
                await client.connect()
            await clients[0].command("start_game")
            await play_rounds(clients, random.Random(3), 3, set())
            versions = [
                [m["view"]["version"] for m in c.inbox if m["type"] == "game"] for c in clients
            ]
            for client in clients:
                await client.close()
            return versions

        for seen in asyncio.run(play()):
            assert seen == sorted(seen) and len(seen) > 3
    finally:
        proc.stop()


def test_deflate_offers_we_cannot_honour_are_declined() -> None:
    assert negotiate_deflate(["permessage-deflate"]) is not None
    assert negotiate_deflate(["permessage-deflate; client_max_window_bits"]) is not None
    assert negotiate_deflate(["permessage-deflate; server_max_window_bits=8"]) is None
    assert negotiate_deflate(["permessage-deflate; mystery=1"]) is None
    assert negotiate_deflate(["x-webkit-deflate-frame"]) is None
    both = negotiate_deflate(
        ["permessage-deflate; foo, permessage-deflate; server_max_window_bits=12"]
    )
    assert both is not None and both.window_bits == 12


def test_every_player_of_a_game_gets_every_update_in_order(server: ServerProcess) -> None:
    """Four sockets through a whole round: each sees versions only grow, one by one or by
    the events it was sent, and every command is answered."""

    async def play() -> list[list[int]]:
        ticket = create_room(server.base, "Eve")
        tickets = [ticket] + [join_room(server.base, ticket["code"], n) for n in "FGH"]
        clients = [Client(server.ws_base, t) for t in tickets]
        for client in clients:
            await client.connect()
        await clients[0].command("start_game")
        await play_rounds(clients, random.Random(7), 20, set())
        versions = [[m["view"]["version"] for m in c.inbox if m["type"] == "game"] for c in clients]
        for client in clients:
            await client.close()
        return versions

    for seen in asyncio.run(play()):
        assert seen == sorted(seen) and len(seen) > 5


# ---------------------------------------------------------------------- on a stand-in transport


class _Transport:
    """What a socket uses of an asyncio transport, keeping what was written."""

    def __init__(self, connection: socket.socket | None = None) -> None:
        self.written: list[bytes] = []
        self.buffered = 0
        self.closing = False
        self.aborted = False
        self.protocol: asyncio.BaseProtocol | None = None
        self.connection = connection  # the descriptor under it, where a test needs one

    def get_protocol(self) -> asyncio.BaseProtocol | None:
        return self.protocol

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.protocol = protocol

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.connection if name == "socket" and self.connection else default

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_write_buffer_size(self) -> int:
        return self.buffered

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True
        if self.connection is not None:
            self.connection.close()

    def abort(self) -> None:
        self.closing = self.aborted = True

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


class _Config:
    ws_max_size = 64 * 1024
    ws_ping_interval = 20.0
    ws_ping_timeout = 30.0
    ws_per_message_deflate = False


class _State:
    def __init__(self) -> None:
        self.connections: set[Any] = set()
        self.tasks: set[Any] = set()
        self.default_headers: list[tuple[bytes, bytes]] = []


async def _never(*_: Any) -> None:
    await asyncio.sleep(3600)


_ENDPOINT = Endpoint(route=socket_room, serve=_never, send_buffer_bytes=1000)


def _handshake(code: str = "ABCD") -> bytes:
    key = base64.b64encode(b"k" * 16).decode()
    return (
        f"GET /ws/{code} HTTP/1.1\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
        f"sec-websocket-key: {key}\r\nsec-websocket-version: 13\r\n\r\n"
    ).encode()


def _socket_on(
    transport: _Transport, socket_class: type[UvicornSocket] = UvicornSocket
) -> UvicornSocket:
    sock = socket_class(_Config(), _State(), {ENDPOINT_KEY: _ENDPOINT})
    sock.connection_made(transport)  # type: ignore[arg-type]
    return sock


def _open_socket() -> tuple[UvicornSocket, _Transport]:
    transport = _Transport()
    sock = _socket_on(transport)
    sock.data_received(_handshake())
    assert transport.written[0].startswith(b"HTTP/1.1 101")
    return sock, transport


def test_a_client_that_stops_reading_is_dropped() -> None:
    async def main() -> tuple[UvicornSocket, _Transport, list[bool]]:
        sock, transport = _open_socket()
        sent = [sock.send_text("x" * 100) for _ in range(3)]
        sock.pause_writing()  # the kernel's buffer is full: the transport buffers
        transport.buffered = 900
        sent.append(sock.send_text("y" * 100))
        await asyncio.sleep(0)  # written at the end of the loop's turn, in one call
        assert transport.written[1:] == [(b"\x81d" + b"x" * 100) * 3 + b"\x81d" + b"y" * 100]
        transport.buffered = 1001  # past Limits.send_buffer_bytes
        sent.append(sock.send_text("z" * 100))
        await asyncio.sleep(0)
        sent.append(sock.send_text("after"))
        return sock, transport, sent

    sock, transport, sent = asyncio.run(main())
    assert sent == [True, True, True, True, True, False]  # "z" was taken, then the flush dropped it
    assert transport.aborted and sock.state is State.CLOSED


def test_keepalive_pings_and_closes_a_silent_peer() -> None:
    async def main() -> None:
        sock, transport = _open_socket()
        await asyncio.sleep(0)
        sock.keepalive(100.0, 30.0)
        await asyncio.sleep(0)
        ping = transport.written[-1]
        assert ping[0] == 0x89  # FIN | ping
        sock.keepalive(110.0, 30.0)  # still within its time: nothing more
        await asyncio.sleep(0)
        assert transport.written[-1] is ping
        payload = ping[2:]
        mask = b"\x00\x00\x00\x00"
        sock.data_received(bytes([0x8A, 0x80 | len(payload)]) + mask + payload)  # the pong
        sock.keepalive(120.0, 30.0)  # answered, and frames went both ways: no ping
        await asyncio.sleep(0)
        assert transport.written[-1] is ping
        sock.keepalive(130.0, 30.0)  # quiet since the last look: a new ping
        await asyncio.sleep(0)
        assert transport.written[-1][0] == 0x89 and transport.written[-1] != ping
        sock.keepalive(161.0, 30.0)  # unanswered for 31 s: closed with 1011
        close = transport.written[-1]
        assert close[0] == 0x88 and close[2:4] == struct.pack("!H", 1011)
        assert transport.closing and sock.state is State.CLOSED

    asyncio.run(main())


def test_keepalive_leaves_a_busy_socket_alone_but_pings_one_that_only_listens() -> None:
    async def main() -> None:
        sock, transport = _open_socket()
        hello = b'{"type":"ping"}'
        mask = b"\x00\x00\x00\x00"
        for now in (100.0, 110.0, 120.0):  # a player's moves in, updates out, between looks
            sock.data_received(bytes([0x81, 0x80 | len(hello)]) + mask + hello)
            sock.send_text("update")
            await asyncio.sleep(0)
            sock.keepalive(now, 30.0)
        assert not any(w[0] == 0x89 for w in transport.written[1:])
        for now in (130.0, 140.0):  # updates go out, nothing comes back: the peer is pinged
            sock.send_text("update")
            await asyncio.sleep(0)
            sock.keepalive(now, 30.0)
        await asyncio.sleep(0)
        assert [w[0] for w in transport.written[1:]].count(0x89) == 1

    asyncio.run(main())


def test_writes_of_one_loop_turn_leave_together() -> None:
    async def main() -> tuple[_Transport, _Transport]:
        (one, wire_one), (two, wire_two) = _open_socket(), _open_socket()
        one.send_text("update")
        two.send_text("update")
        one.send_text("ack")
        assert len(wire_one.written) == len(wire_two.written) == 1  # the handshakes only
        await asyncio.sleep(0)
        return wire_one, wire_two

    wire_one, wire_two = asyncio.run(main())
    assert wire_one.written[1:] == [b"\x81\x06update\x81\x03ack"]
    assert wire_two.written[1:] == [b"\x81\x06update"]


def test_uvicorns_http_protocol_goes_once_it_has_handed_the_connection_over() -> None:
    """With the collector off, reference counting alone frees uvicorn's HTTP protocol of an
    upgraded connection (it and its parser refer to each other): it must not wait, with its
    request and parser, for a rare full collection while the game goes on."""

    async def app(scope: Any, receive: Any, send: Any) -> None: ...

    async def main() -> tuple[weakref.ref[HttpToolsProtocol], UvicornSocket]:
        config = Config(app=app, ws=UvicornSocket, lifespan="off", log_config=None)
        http = HttpToolsProtocol(config, ServerState(), {ENDPOINT_KEY: _ENDPOINT})
        transport = _Transport()
        transport.protocol = http
        http.connection_made(transport)  # type: ignore[arg-type]
        key = base64.b64encode(b"k" * 16).decode()
        http.data_received(
            f"GET /ws/ABCD HTTP/1.1\r\nhost: x\r\nupgrade: websocket\r\n"
            f"connection: Upgrade\r\nsec-websocket-key: {key}\r\n"
            f"sec-websocket-version: 13\r\n\r\n".encode()
        )
        assert transport.written[0].startswith(b"HTTP/1.1 101")
        handed = transport.protocol
        assert isinstance(handed, UvicornSocket)
        gone = weakref.ref(http)
        del http
        await asyncio.sleep(0)
        return gone, handed

    gc.disable()
    try:
        gone, room_socket = asyncio.run(main())
        assert gone() is None
        assert room_socket.transport is not None
    finally:
        gc.enable()


def test_the_open_sockets_are_one_set_per_server() -> None:
    state: dict[str, Any] = {ENDPOINT_KEY: _ENDPOINT}
    a = UvicornSocket(_Config(), _State(), state)
    b = UvicornSocket(_Config(), _State(), state)
    assert a.sockets is b.sockets and isinstance(a.sockets, Sockets)


def test_a_server_stopping_while_the_owner_has_not_confirmed_a_passed_socket_writes_nothing(
    tmp_path: Path,
) -> None:
    """Under ``--workers``: the socket may be in the owner's queue, so the worker that passed it
    neither answers its handshake (503) nor closes it with a frame of its own when uvicorn
    stops; it closes only its copy, and the owner answers when it gets to the socket."""
    code = code_of(1)
    inbox = inbox_not_accepting(tmp_path)  # worker 1 is busy
    client, accepted = socket.socketpair()

    async def main() -> _Transport:
        transport = _Transport(accepted)
        sock = _socket_on(transport, UvicornSocket.tagged([], Handoff(str(tmp_path), 2, 2)))
        sock.data_received(_handshake(code))
        await asyncio.sleep(0.01)  # passed to worker 1, which does not answer yet
        assert transport.written == [] and not transport.closing
        sock.shutdown()
        await asyncio.sleep(0.01)
        return transport

    transport = asyncio.run(main())
    assert transport.written == [] and transport.closing
    peer, _ = inbox.accept()  # worker 1 gets to its queue: the socket is there, unanswered
    request, fds, _, _ = socket.recv_fds(peer, 4096, 1)
    assert request == _handshake(code) and len(fds) == 1
    with socket.socket(fileno=fds[0]) as owners:
        owners.sendall(b"HTTP/1.1 101 from the owner")
    assert client.recv(64) == b"HTTP/1.1 101 from the owner"
    for s in (peer, inbox, client):
        s.close()
