"""dixit.infra reaches inside uvicorn and websockets: the installed releases are the ones
pyproject.toml pins (the ones tested), and what we reach for is there. A new release fails
here, loudly, before it fails in ``dixit serve``."""

from __future__ import annotations

import asyncio
import inspect
import tomllib
from collections.abc import Callable
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
REACHED_INTO = ("uvicorn", "websockets")


def _pins() -> dict[str, Requirement]:
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    requirements = [Requirement(text) for text in project["dependencies"]]
    return {r.name: r for r in requirements if r.name in REACHED_INTO}


@pytest.mark.parametrize(
    ("name", "next_release"),
    [("uvicorn", lambda v: f"{v.major}.{v.minor + 1}"), ("websockets", lambda v: f"{v.major + 1}")],
)
def test_the_installed_release_is_the_pinned_one(
    name: str, next_release: Callable[[Version], str]
) -> None:
    pin = _pins()[name]
    installed = Version(version(name))
    assert pin.specifier.contains(installed), f"{name} {installed} is not {pin}: test it, move it"
    # The next minor release of uvicorn (its internals move between them), the next major one
    # of websockets, is not allowed until tested.
    assert not pin.specifier.contains(next_release(installed)), f"{pin} is not capped"


def test_uvicorns_internals_we_use_are_there() -> None:
    import uvicorn
    from uvicorn.config import WS_PROTOCOLS, Config
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.server import ServerState

    state = ServerState()
    assert isinstance(state.connections, set) and isinstance(state.tasks, set)
    assert isinstance(state.default_headers, list)
    config = Config(app=lambda: None, ws_max_size=10, ws_per_message_deflate=True)
    for name in ("ws_max_size", "ws_per_message_deflate", "ws_ping_interval", "ws_ping_timeout"):
        assert hasattr(config, name), name
    assert "websockets-sansio" in WS_PROTOCOLS  # the --ws uvicorn path
    # The protocol class is created with (config, server_state, app_state) …
    for http in (HttpToolsProtocol, H11Protocol):
        params = list(inspect.signature(http.__init__).parameters)
        assert params[1:4] == ["config", "server_state", "app_state"], http
    assert "self.parser = " in inspect.getsource(HttpToolsProtocol)  # let go of early
    server = uvicorn.Server(config)
    assert inspect.iscoroutinefunction(server.startup)
    assert inspect.iscoroutinefunction(server.shutdown)
    assert "app_state=self.lifespan.state" in inspect.getsource(uvicorn.Server)
    from uvicorn.lifespan.on import LifespanOn

    assert isinstance(LifespanOn(config).state, dict)
    assert hasattr(server, "server_state")


def test_uvicorn_hands_an_upgrade_to_our_class() -> None:
    """Through its HTTP protocol, as a served connection would: the handshake reaches
    :class:`~dixit.infra.uvicorn_ws.UvicornSocket`."""
    from uvicorn.config import Config
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    from uvicorn.server import ServerState

    from dixit.infra.uvicorn_ws import ENDPOINT_KEY, UvicornSocket
    from dixit.infra.websocket import Endpoint, Socket

    async def serve(ws: Socket, key: str) -> None:
        ws.close()

    class Transport(asyncio.Transport):
        def __init__(self) -> None:
            super().__init__()
            self.protocol: asyncio.BaseProtocol | None = None
            self.written = b""

        def get_protocol(self) -> asyncio.BaseProtocol:
            assert self.protocol is not None
            return self.protocol

        def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
            self.protocol = protocol

        def write(self, data: bytes | bytearray | memoryview) -> None:
            self.written += bytes(data)

        def is_closing(self) -> bool:
            return False

    async def main() -> bytes:
        async def app(scope: object, receive: object, send: object) -> None: ...

        endpoint = Endpoint(route=lambda path: path[1:], serve=serve)
        config = Config(app=app, ws=UvicornSocket, lifespan="off", log_config=None)
        http = HttpToolsProtocol(config, ServerState(), {ENDPOINT_KEY: endpoint})
        transport = Transport()
        transport.protocol = http
        http.connection_made(transport)
        http.data_received(
            b"GET /ROOM HTTP/1.1\r\nhost: x\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
            b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
        )
        assert isinstance(transport.protocol, UvicornSocket)
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        return transport.written

    written = asyncio.run(main())
    assert written.startswith(b"HTTP/1.1 101")
    assert b"sec-websocket-accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n" in written
    assert written.endswith(b"\x88\x02\x03\xe8")  # the endpoint's close


def test_websockets_c_speedup_masks() -> None:
    from websockets.speedups import apply_mask  # type: ignore[import-not-found,unused-ignore]

    from dixit.infra import frames

    assert frames.__dict__["apply_mask"] is apply_mask
    assert apply_mask(b"Hello", b"\x37\xfa\x21\x3d") == bytes.fromhex("7f9f4d5158")
