"""Every odd input of issue 11, one by one: a documented 4xx or ``error``, the socket open."""

from __future__ import annotations

import asyncio
import json
import urllib.request

import pytest

from .harness import Client, ServerProcess, create_room

BODIES = [
    b'{"name":"\\ud800"}',  # a lone surrogate: valid JSON, not valid Unicode
    b'{"name": NaN}',
    b'{"name":"x","settings":{"timers":{"clue":1e999}}}',
    b"\xff\xfe\xfa",
    b"{" * 5000,
    b"[]",
]


def _post(base: str, path: str, body: bytes, ctype: str | None) -> tuple[int, dict[str, str]]:
    headers = {"Content-Type": ctype} if ctype else {}
    request = urllib.request.Request(base + path, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as error:
        with error:
            return error.code, json.loads(error.read())


@pytest.mark.parametrize("ctype", ["application/json", "text/plain", None])
@pytest.mark.parametrize("body", BODIES)
def test_lobby_bodies_answer_422_api_errors(
    server: ServerProcess, body: bytes, ctype: str | None
) -> None:
    code = create_room(server.base)["code"]
    for path in ("/api/rooms", f"/api/rooms/{code}/join"):
        status, answer = _post(server.base, path, body, ctype)
        assert (status, answer["code"]) == (422, "request/malformed"), (path, answer)
        assert set(answer) == {"code", "message"}


def test_oversized_bodies_and_unknown_api_paths(server: ServerProcess) -> None:
    body = json.dumps({"name": "x" * 70_000}).encode()
    status, answer = _post(server.base, "/api/rooms", body, "application/json")
    assert (status, answer["code"]) == (413, "limit/body_too_large")
    status, answer = _post(server.base, "/api/nothing-here", b"{}", "application/json")
    assert status == 405 and answer["code"] == "request/method_not_allowed"
    try:
        urllib.request.urlopen(f"{server.base}/api/nothing-here", timeout=10)
    except urllib.error.HTTPError as error:
        with error:
            assert error.code == 404 and json.loads(error.read())["code"] == "request/not_found"
    else:
        raise AssertionError("an unknown API path answered 200")


def test_odd_socket_input_is_answered_and_the_socket_stays_open(server: ServerProcess) -> None:
    async def main() -> None:
        client = Client(server.ws_base, create_room(server.base))
        await client.connect()
        assert client.ws is not None
        cases: list[tuple[str | bytes, str]] = [
            ('{"type":"set_profile","id":"\\ud800","name":"x"}', "command/malformed"),
            ('{"type":"hello","token":"\\ud800"}', "command/malformed"),
            (b"\x00\x01binary", "command/binary_frame"),
            ("[" * 1000 + "]" * 1000, "limit/nesting_depth"),
            ('{"type":"ping","x":' + "[" * 500 + "]" * 500 + "}", "limit/nesting_depth"),
            ('{"type":"cast_vote","id":"a","card":"x","v":NaN}', "command/schema_version"),
            ('{"type":"' + "t" * 5000 + '"}', "command/unknown_type"),
            ('{"type":"set_profile","id":"ok","name":"x","\\udfff":1}', "command/malformed"),
        ]
        for frame, code in cases:
            await client.ws.send(frame)
            answer = await client.until(lambda m: m["type"] == "error")
            assert answer["code"] == code, (frame[:60], answer)
            assert len(answer["message"]) < 400
        assert answer["id"] is None or answer["id"] == "ok"
        await client.send({"type": "ping", "id": "still-open"})
        assert (await client.until(lambda m: m["type"] == "pong"))["id"] == "still-open"
        await client.close()

    asyncio.run(main())


def test_ping_is_answered_before_hello_and_a_bad_token_closes(server: ServerProcess) -> None:
    async def main() -> None:
        ticket = create_room(server.base)
        client = Client(server.ws_base, ticket)
        from websockets.asyncio.client import connect

        client.ws = await connect(f"{server.ws_base}/ws/{ticket['code']}")
        await client.send({"type": "ping", "id": "early"})
        assert (await client.recv())["type"] == "pong"
        answer = await client.command("start_game")
        assert answer["code"] == "auth/hello_required"
        await client.send({"type": "hello", "token": "A" * 32})
        closed = await client.recv()
        assert (closed["type"], closed["code"]) == ("closed", "auth/bad_token")
        await client.close()

    asyncio.run(main())
