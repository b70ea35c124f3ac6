"""What a server open to the internet adds to every HTTP answer and checks on every request:
security headers, ``HEAD`` wherever ``GET`` is answered, per-client rate limits on the lobby
routes (:mod:`.limits`), and the ``Origin`` of WebSocket handshakes.

The Content-Security-Policy allows the client's own files only (no inline script or style
element, no other site, never in a frame). FastAPI's ``/docs`` and ``/redoc`` pages load their
scripts from a CDN with inline code, so they get no policy.

A refusal is made as cheap as it can be here, before routing, body or store: its answer is
bytes made once per ``Retry-After`` value and sent straight to the server (through the ASGI
app, 22 µs of CPU a refusal; 55 µs with a JSONResponse through the header wrapper and
FastAPI's telemetry check; docs/benchmarks.md, flood campaign). And it is held back for up
to :data:`HOLD_S` (never past the time the client should wait anyway): a client that waits for
each answer, as a script on one connection does, then sends a few refused requests a second
instead of thousands, each of which took a turn of the event loop from the games. Holding
costs one sleeping task per refused request in flight, at most one per connection.
"""

from __future__ import annotations

import asyncio
import functools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from dixit.infra.websocket import Refusal
from dixit.protocol.codes import ErrorCode

from .limits import Limiter, client_address

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
WITH_POLICY = (*HEADERS, (b"content-security-policy", CSP.encode()))
HOLD_S = 0.5  # a refused request's answer is held this long at most (see the module)
NO_POLICY = ("/docs", "/redoc")

_ROOM = r"/api/rooms/[^/]+"
_DECK = r"/api/decks/[^/]+"
# (method, path) -> the rate-limited route it counts against.
ROUTES: tuple[tuple[str, re.Pattern[str], str], ...] = tuple(
    (method, re.compile(path + r"/?"), route)
    for method, path, route in (
        ("POST", r"/api/rooms", "create"),
        ("POST", _ROOM + "/join", "join"),
        ("POST", _ROOM + "/spectate", "spectate"),
        ("POST", r"/api/decks", "upload"),
        ("POST", _DECK + "/cards", "upload"),
        ("POST", _DECK + "/captions", "decks"),
        ("PATCH", _DECK, "decks"),
        ("DELETE", _DECK, "decks"),
        ("GET", r"/api/decks", "decks"),
        ("GET", _DECK + "/cards", "decks"),
        ("GET", r"/api/tables", "tables"),
        ("POST", r"/api/tables/[^/]+/report", "tables"),
    )
)


def limited_route(method: str, path: str) -> str | None:
    return next((r for m, p, r in ROUTES if m == method and p.fullmatch(path)), None)


def _header(scope: Scope, name: bytes) -> list[str]:
    return [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == name]


class Guard:
    """ASGI middleware: headers on every answer, ``HEAD`` as ``GET`` without the body, and
    ``limit/rate`` 429 with ``Retry-After`` for a client over a route's rate."""

    def __init__(self, app: ASGIApp, limiter: Limiter) -> None:
        self.app = app
        self.limiter = limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}
        path: str = scope["path"]
        extra = HEADERS if path.startswith(NO_POLICY) else WITH_POLICY
        started = False

        async def guarded(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *extra]}
            elif message["type"] == "http.response.body" and head:
                if started:
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
                started = True
            await send(message)

        route = limited_route(scope["method"], path)
        if route is not None:
            peer = scope.get("client")
            client = client_address(
                peer[0] if peer else None,
                _header(scope, b"x-forwarded-for"),
                self.limiter.limits.trust_proxy,
            )
            wait = self.limiter.check(route, client)
            if wait:
                await asyncio.sleep(min(wait, HOLD_S))
                start, body = refusal(math.ceil(wait))
                await send(start)
                await send(EMPTY if head else body)
                return
        await self.app(scope, receive, guarded)


@functools.lru_cache(maxsize=256)
def refusal(seconds: int) -> tuple[Message, Message]:
    """The ASGI messages of a ``limit/rate`` 429 telling the client to wait ``seconds``."""
    content = json.dumps(
        {"code": ErrorCode.RATE.value, "message": f"too many requests; try again in {seconds} s"}
    ).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(content)).encode()),
        (b"retry-after", str(seconds).encode()),
        *WITH_POLICY,
    ]
    start: Message = {"type": "http.response.start", "status": 429, "headers": headers}
    return start, {"type": "http.response.body", "body": content}


EMPTY: Message = {"type": "http.response.body", "body": b""}


def origin_allowed(origin: str | None, host: str | None, allowed: Iterable[str]) -> bool:
    """A WebSocket handshake's ``Origin`` is the server's own (its ``Host``) or one of
    ``allowed`` (``https://example.org``; ``*`` allows any). No ``Origin`` (not a browser)
    passes: the seat token is what admits a player."""
    if origin is None:
        return True
    allowed = tuple(allowed)
    if "*" in allowed or origin.rstrip("/") in (a.rstrip("/") for a in allowed):
        return True
    try:
        netloc = urlsplit(origin).netloc
    except ValueError:
        return False
    return bool(host) and netloc.lower() == (host or "").lower()


def socket_admission(
    limiter: Limiter, allowed_origins: Sequence[str]
) -> Callable[[str | None, Mapping[str, list[str]]], tuple[str, Refusal | None]]:
    """What a room socket's handshake asks before answering 101: the client's address, and
    None to go on or the refusal to answer with (a foreign origin, too many connects)."""

    def admit(peer: str | None, headers: Mapping[str, list[str]]) -> tuple[str, Refusal | None]:
        client = client_address(
            peer, headers.get("x-forwarded-for", []), limiter.limits.trust_proxy
        )
        origins = headers.get("origin", [])
        host = headers.get("host", [])
        if not origin_allowed(
            origins[0] if origins else None, host[0] if host else None, allowed_origins
        ):
            return client, (403, "Forbidden", "")
        wait = limiter.check("connect", client)
        if wait:
            return client, (429, "Too Many Requests", f"retry-after: {math.ceil(wait)}\r\n")
        return client, None

    return admit
