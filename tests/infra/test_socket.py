"""The life of a dixit.infra.websocket socket, one State at a time, on a stand-in transport:
what each state lets in and out, and that an open socket is counted once each way."""

from __future__ import annotations

import asyncio
import base64
from typing import Any

import pytest

from dixit.infra.frames import FIN, OP_CLOSE, OP_PING, OP_TEXT, masked_frame
from dixit.infra.websocket import Endpoint, Socket, SocketClosed, Sockets, State, WebSocket

MASK = b"\x01\x02\x03\x04"


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []
        self.closing = False

    def get_protocol(self) -> None:
        return None

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.9", 5555) if name == "peername" else default

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def get_write_buffer_size(self) -> int:
        return 0

    def is_closing(self) -> bool:
        return self.closing

    def close(self) -> None:
        self.closing = True

    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


def request(path: str = "/room/ABCD", origin: str = "") -> bytes:
    key = base64.b64encode(b"k" * 16).decode()
    return (
        f"GET {path} HTTP/1.1\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
        f"sec-websocket-key: {key}\r\nsec-websocket-version: 13\r\n{origin}\r\n"
    ).encode()


class Served:
    """An endpoint that records what it was asked and serves by echoing until closed."""

    def __init__(self) -> None:
        self.count = 0
        self.keys: list[str] = []
        self.heard: list[str | None] = []

    def endpoint(self) -> Endpoint:
        def route(path: str) -> str | None:
            return path.removeprefix("/room/") if path.startswith("/room/") else None

        def admit(peer: str | None, headers: Any) -> tuple[str, tuple[int, str, str] | None]:
            if headers.get("origin") == ["https://elsewhere.example"]:
                return peer or "", (403, "Forbidden", "")
            return peer or "", None

        async def serve(ws: Socket, key: str) -> None:
            self.keys.append(key)
            try:
                while True:
                    self.heard.append(await ws.receive())
            except SocketClosed:
                pass

        def counted(change: int) -> None:
            self.count += change

        return Endpoint(route=route, serve=serve, admit=admit, counted=counted)


def state(sock: WebSocket) -> State:
    return sock.state  # (read anew: mypy would keep the state an assert narrowed)


def opened(served: Served) -> tuple[WebSocket, Transport]:
    sock = WebSocket(served.endpoint(), Sockets(None, None), 1024, offer_deflate=False)
    transport = Transport()
    sock.connection_made(transport)  # type: ignore[arg-type]
    assert sock.state is State.CONNECTING
    return sock, transport


def test_open_then_closed_by_the_peer() -> None:
    async def main() -> None:
        served = Served()
        sock, transport = opened(served)
        sock.data_received(request() + masked_frame(FIN | OP_TEXT, b"hi", MASK))
        assert state(sock) is State.OPEN and served.count == 1
        assert transport.written[0].startswith(b"HTTP/1.1 101")
        assert sock.client == "127.0.0.9"
        await asyncio.sleep(0)
        assert served.keys == ["ABCD"] and served.heard == ["hi"]
        assert sock.send_text("hello")
        sock.data_received(masked_frame(FIN | OP_CLOSE, b"\x03\xe8", MASK))
        assert state(sock) is State.CLOSED and served.count == 0
        assert transport.closing and transport.written[-1].endswith(b"\x88\x02\x03\xe8")
        assert not sock.send_text("too late")
        sock.connection_lost(None)
        assert served.count == 0  # counted down once
        await asyncio.sleep(0)

    asyncio.run(main())


def test_closing_reads_only_for_the_close() -> None:
    async def main() -> None:
        served = Served()
        sock, transport = opened(served)
        sock.data_received(request())
        sock.close(1000)
        assert state(sock) is State.CLOSING
        with pytest.raises(SocketClosed):
            await sock.receive()
        assert not sock.send_text("after close")
        sock.data_received(
            masked_frame(FIN | OP_TEXT, b"ignored", MASK) + masked_frame(FIN | OP_PING, b"", MASK)
        )
        await asyncio.sleep(0)
        assert served.heard == [] and transport.written[1:] == [b"\x88\x02\x03\xe8"]  # no pong
        sock.data_received(masked_frame(FIN | OP_CLOSE, b"\x03\xe8", MASK))
        assert state(sock) is State.CLOSED and served.count == 0
        assert transport.written[1:] == [b"\x88\x02\x03\xe8"]  # its close is not answered twice

    asyncio.run(main())


def test_a_protocol_error_closes_with_its_code() -> None:
    async def main() -> None:
        served = Served()
        sock, transport = opened(served)
        sock.data_received(request())
        sock.data_received(b"\x81\x02hi")  # not masked
        assert state(sock) is State.CLOSED and served.count == 0
        assert transport.written[-1] == b"\x88\x1e\x03\xeaclient frames must be masked"

    asyncio.run(main())


@pytest.mark.parametrize(
    ("data", "status"),
    [
        (request("/elsewhere"), b"404"),
        (request(origin="origin: https://elsewhere.example\r\n"), b"403"),
        (request().replace(b"version: 13", b"version: 8"), b"426"),
        (request().replace(b"GET", b"PUT"), b"405"),
    ],
)
def test_a_refused_handshake_is_closed_uncounted(data: bytes, status: bytes) -> None:
    served = Served()
    sock, transport = opened(served)
    sock.data_received(data)
    assert state(sock) is State.CLOSED and served.count == 0 and served.keys == []
    assert transport.written[0].startswith(b"HTTP/1.1 " + status) and transport.closing
    sock.connection_lost(None)
    assert served.count == 0


def test_a_server_stopping_says_restart_to_open_sockets_and_503_to_the_rest() -> None:
    async def main() -> None:
        served = Served()
        sock, transport = opened(served)
        sock.data_received(request())
        sock.shutdown()
        assert state(sock) is State.CLOSED and served.count == 0
        assert transport.written[-1] == b"\x88\x02\x03\xf4"  # 1012
        waiting, wire = opened(served)
        waiting.data_received(request()[:20])  # the handshake not whole yet
        waiting.shutdown()
        assert state(waiting) is State.CLOSED and wire.written[0].startswith(b"HTTP/1.1 503")

    asyncio.run(main())
