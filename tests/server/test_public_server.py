"""A server open to the internet: security headers, HEAD, the WebSocket Origin check, and
per-client rate limits on the lobby routes, socket connects and hellos (a real ``dixit serve``)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.types import Message, Receive, Scope, Send
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from dixit.server import limits as limits_module
from dixit.server import security
from dixit.server.limits import Bucket, Limiter, Rate, RateLimits

from .harness import Client, ServerProcess, create_room, http

LIMITED = (
    "--rate-limits", "on",
    "--rate-limit", "create=3/6",
    "--rate-limit", "tables=4/6",
    "--rate-limit", "connect=6/6",
    "--rate-limit", "hello=3/6",
)  # fmt: skip


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir: Path = tmp_path_factory.mktemp("limited")
    proc = ServerProcess(
        database=f"sqlite:///{workdir / 'dixit.sqlite3'}",
        workdir=workdir,
        extra=(*LIMITED, "--allowed-origin", "https://friends.example"),
    )
    proc.start()
    yield proc
    proc.stop()


def request(
    base: str, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
) -> tuple[int, dict[str, str], bytes]:
    req = urllib.request.Request(
        base + path, data=body or None, method=method, headers=headers or {}
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as answer:
            return answer.status, dict(answer.headers.items()), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers.items()), error.read()


def test_every_answer_carries_the_security_headers(server: ServerProcess) -> None:
    for path in ("/", "/r/ABCD", "/api/health", "/api/decks", "/api/nowhere"):
        _, headers, _ = request(server.base, "GET", path)
        lower = {k.lower(): v for k, v in headers.items()}
        assert lower["x-content-type-options"] == "nosniff", path
        assert lower["referrer-policy"] == "no-referrer", path
        policy = lower["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy, path
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy, path


def test_head_is_answered_where_get_is_without_a_body(server: ServerProcess) -> None:
    for path in ("/", "/api/health", "/api/health/ready", "/api/decks"):
        status, headers, body = request(server.base, "HEAD", path)
        get_status, get_headers, get_body = request(server.base, "GET", path)
        assert (status, body) == (get_status, b""), path
        assert headers.get("content-type") == get_headers.get("content-type"), path
        assert int(headers["content-length"]) == len(get_body), path  # what GET would send
    # Where GET is not answered, neither is HEAD.
    assert request(server.base, "HEAD", "/api/rooms")[0] == 404
    assert request(server.base, "GET", "/api/rooms")[0] == 404


async def _handshake(server: ServerProcess, code: str, origin: str | None) -> int:
    try:
        async with connect(f"{server.ws_base}/ws/{code}", origin=origin):  # type: ignore[arg-type]
            return 101
    except InvalidStatus as refused:
        return refused.response.status_code


def test_a_socket_from_another_site_is_refused(limited: ServerProcess) -> None:
    code = create_room(limited.base)["code"]
    own = f"http://127.0.0.1:{limited.port}"
    assert asyncio.run(_handshake(limited, code, own)) == 101
    assert asyncio.run(_handshake(limited, code, "https://friends.example")) == 101
    assert asyncio.run(_handshake(limited, code, None)) == 101  # not a browser
    assert asyncio.run(_handshake(limited, code, "https://evil.example")) == 403
    assert asyncio.run(_handshake(limited, code, f"http://127.0.0.1:{limited.port + 1}")) == 403


def test_room_creation_over_the_limit_is_429_with_retry_after(tmp_path: Path) -> None:
    proc = ServerProcess(database="memory://", workdir=tmp_path, extra=LIMITED)
    proc.start()
    try:
        answers = [http(proc.base, "POST", "/api/rooms", {"name": "Ann"}) for _ in range(5)]
        assert [status for status, _ in answers] == [200, 200, 200, 429, 429]
        assert answers[3][1]["code"] == "limit/rate"
        status, headers, body = request(
            proc.base, "POST", "/api/rooms", {"Content-Type": "application/json"},
            json.dumps({"name": "Ann"}).encode(),
        )  # fmt: skip
        assert status == 429 and 1 <= int(headers["retry-after"]) <= 10
        assert json.loads(body)["code"] == "limit/rate"
        assert headers["content-type"] == "application/json"
        assert headers["x-content-type-options"] == "nosniff"
        assert "frame-ancestors 'none'" in headers["content-security-policy"]
        # Other routes have their own buckets: joining still works.
        status, _ = http(proc.base, "GET", f"/api/rooms/{answers[0][1]['code']}")
        assert status == 200
        # Refusals are counted on /metrics.
        _, _, metrics = request(proc.base, "GET", "/metrics")
        assert 'dixit_rate_limited_total{route="create"} 3' in metrics.decode()
        assert 'dixit_rate_limit_burst{route="create"} 3' in metrics.decode()
    finally:
        proc.stop()


def test_the_public_list_is_limited_per_client(tmp_path: Path) -> None:
    proc = ServerProcess(database="memory://", workdir=tmp_path, extra=LIMITED)
    proc.start()
    try:
        statuses = [http(proc.base, "GET", "/api/tables")[0] for _ in range(6)]
        assert statuses == [200] * 4 + [429] * 2
    finally:
        proc.stop()


def test_forwarded_addresses_count_only_behind_a_trusted_proxy(tmp_path: Path) -> None:
    def creates(proc: ServerProcess) -> list[int]:
        statuses = []
        for i in range(6):
            status, _, _ = request(
                proc.base, "POST", "/api/rooms",
                {"Content-Type": "application/json", "X-Forwarded-For": f"1.2.3.4, 10.0.0.{i}"},
                json.dumps({"name": "Ann"}).encode(),
            )  # fmt: skip
            statuses.append(status)
        return statuses

    direct = ServerProcess(database="memory://", workdir=tmp_path / "a", extra=LIMITED)
    proxied = ServerProcess(
        database="memory://", workdir=tmp_path / "b", extra=(*LIMITED, "--trust-proxy")
    )
    for proc in (direct, proxied):
        (proc.workdir).mkdir()
        proc.start()
    try:
        assert creates(direct) == [200] * 3 + [429] * 3  # the header is ignored: one client
        assert creates(proxied) == [200] * 6  # six clients, each its own last hop
    finally:
        direct.stop()
        proxied.stop()


def test_socket_connects_and_hellos_over_the_limit_are_refused(tmp_path: Path) -> None:
    proc = ServerProcess(database="memory://", workdir=tmp_path, extra=LIMITED)
    proc.start()

    async def scenario() -> None:
        ticket = create_room(proc.base)
        answers = []
        for _ in range(4):
            client = Client(proc.ws_base, ticket)
            answers.append(await client.connect(answers=("welcome", "closed", "error")))
            await client.close()
        assert [a["type"] for a in answers[:3]] == ["welcome"] * 3
        assert answers[3]["type"] == "error" and answers[3]["code"] == "limit/rate"
        statuses = [await _handshake(proc, ticket["code"], None) for _ in range(3)]
        assert statuses[-1] == 429  # six connects in all: the seventh is refused

    try:
        asyncio.run(scenario())
    finally:
        proc.stop()


def test_a_refusal_reads_no_body_and_reaches_no_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the limit, the guard answers by itself: the app behind it (routing, the body, the
    store) is never called and the request's body is never read."""
    monkeypatch.setattr(security, "HOLD_S", 0.0)
    limits = RateLimits().with_rates([("create", Rate(1, 1.0))])
    reached: list[str] = []
    sent: list[Message] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        reached.append(scope["path"])

    async def receive() -> Message:
        raise AssertionError("the body was read")

    async def send(message: Message) -> None:
        sent.append(message)

    async def main() -> None:
        guard = security.Guard(app, Limiter(limits))
        scope = {"type": "http", "method": "POST", "path": "/api/rooms", "headers": [],
                 "client": ("10.1.1.1", 5000)}  # fmt: skip
        await guard(scope, receive, send)  # the one token of the burst
        await guard(scope, receive, send)
        await guard({**scope, "method": "HEAD", "path": "/api/tables"}, receive, send)

    asyncio.run(main())
    assert reached == ["/api/rooms", "/api/tables"]  # the first, and a route not limited
    start, body = sent
    assert start["status"] == 429 and (b"retry-after", b"60") in start["headers"]
    assert json.loads(body["body"])["code"] == "limit/rate"


def test_the_limiter_forgets_oldest_clients_a_quarter_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past MAX_CLIENTS addresses, a scan frees a quarter of the room even when no bucket is
    idle, so the scan runs once per MAX_CLIENTS // 4 new clients (not on every one)."""
    monkeypatch.setattr(limits_module, "MAX_CLIENTS", 8)
    scans = 0
    forget = Limiter._forget_idle

    def counted(buckets: dict[str, Bucket]) -> None:
        nonlocal scans
        scans += 1
        forget(buckets)

    monkeypatch.setattr(Limiter, "_forget_idle", staticmethod(counted))
    limiter = Limiter(RateLimits().with_rates([("create", Rate(2, 1.0))]))
    buckets = limiter._buckets["create"]
    for n in range(100):
        assert limiter.check("create", f"10.0.0.{n}") == 0  # each a new, busy client
        assert limiter.clients("create") <= 8
        next(iter(buckets.values())).tokens = 2  # but for one idle (full) bucket
    assert scans <= 100 // 2 + 1
    assert limiter.check("create", "10.0.0.99") == 0  # the newest are kept: one token left
    assert limiter.check("create", "10.0.0.99") > 0
