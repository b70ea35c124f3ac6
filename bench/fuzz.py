"""Fuzz campaign against a real ``dixit serve``: hostile input must never break anything.

Inputs, drawn by hypothesis:
- **messages from the schema**: every client message type of docs/protocol.schema.json, built
  from its JSON Schema, with values swapped at random for hostile ones (lone surrogates, NaN,
  infinities, huge numbers, long strings, deep nesting, wrong types, extra fields), sent on a
  player's socket before and after ``hello``;
- **hostile text and bytes**: arbitrary text, truncated messages, binary frames;
- **raw frames** on a hand-made socket: reserved opcodes and bits, unmasked or oversized
  frames, text that is not UTF-8, stray continuations;
- **lobby HTTP**: the create/join bodies from the schema, mutated the same way, raw bytes with
  and without a content type, odd room codes.

Checked after every input: no HTTP 5xx; every HTTP error is an ``ApiError`` with a code of the
enum; every socket input is answered (a ``ping`` sent after it comes back) or the socket is
closed with a documented code (a ``closed`` message, or close code 1002/1007/1009); an input
answered ``error`` (or not acknowledged) changes nothing: no new game version and no room
change. The figures are counts of inputs, 5xx answers, dropped sockets and state changes.

    .venv/bin/python bench/fuzz.py --examples 20000          # the campaign (docs/benchmarks.md)
    .venv/bin/python bench/fuzz.py --url http://127.0.0.1:8000 --examples 500

tests/server/test_fuzz.py runs a bounded share of it (a few hundred inputs) in the test suite.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from dixit.protocol.codes import ErrorCode
from dixit.protocol.schema import protocol_schema

ERROR_CODES = frozenset(c.value for c in ErrorCode)
CLOSE_CODES = frozenset({1000, 1002, 1007, 1009})  # documented in docs/protocol.md
WAIT_S = 10.0  # how long an answer may take (--wait)
# Client types the campaign sends. ``leave`` is left out: a valid one gives the seat to a
# computer player for good, and its moves would then read as changes made by the fuzz.
SKIPPED_TYPES = frozenset({"leave"})
Json = Any

# --------------------------------------------------------------------------- strategies

HOSTILE_STRINGS = ["\ud800", "a\udfffb", "", " ", "x" * 70, "x" * 3000, "\x00", "é" * 40, "🐇"]
HOSTILE_VALUES: list[Json] = [
    float("nan"),
    float("inf"),
    -float("inf"),
    10**30,
    -(2**63),
    1.5,
    True,
    None,
    [],
    {},
    [[[[[[[[[[[]]]]]]]]]]],
    {"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1}}}}}}}}},
    *HOSTILE_STRINGS,
]
hostile = st.sampled_from(HOSTILE_VALUES) | st.text(max_size=40) | st.integers()


def _resolve(defs: dict[str, Json], node: Json) -> Json:
    while "$ref" in node:
        node = defs[node["$ref"].rsplit("/", 1)[1]]
    return node


def from_schema(defs: dict[str, Json], node: Json, depth: int = 0) -> st.SearchStrategy[Json]:
    """Values valid for ``node`` (the subset of JSON Schema pydantic emits), sometimes hostile."""
    node = _resolve(defs, node)
    valid = _valid(defs, node, depth)
    return st.one_of(valid, hostile) if depth > 0 else valid


def _valid(defs: dict[str, Json], node: Json, depth: int) -> st.SearchStrategy[Json]:
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    for key in ("anyOf", "oneOf"):
        if key in node:
            return st.one_of([from_schema(defs, n, depth + 1) for n in node[key]])
    kind = node.get("type")
    if kind == "object":
        props = node.get("properties", {})
        required = set(node.get("required", ()))
        fields = {k: from_schema(defs, v, depth + 1) for k, v in props.items()}
        return st.fixed_dictionaries(
            {k: s for k, s in fields.items() if k in required},
            optional={
                **{k: s for k, s in fields.items() if k not in required},
                "extra": hostile,
            },
        )
    if kind == "array":
        items = from_schema(defs, node.get("items", {}), depth + 1)
        return st.lists(items, max_size=min(node.get("maxItems", 4), 4) + 1)
    if kind == "string":
        low, high = node.get("minLength", 0), node.get("maxLength", 40)
        return st.text(min_size=low, max_size=min(high, 80) + 1)
    if kind == "integer":
        return st.integers(node.get("minimum", -10), node.get("maximum", 10**6) + 1)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return hostile


def client_messages() -> st.SearchStrategy[Json]:
    defs = protocol_schema()["$defs"]
    union = defs["ClientMessage"]
    refs = [n for n in union["oneOf"] if n["$ref"].rsplit("/", 1)[1].lower() not in _SKIP_DEFS]
    return st.one_of([from_schema(defs, ref) for ref in refs])


_SKIP_DEFS = {t.replace("_", "") for t in SKIPPED_TYPES}


def lobby_bodies() -> st.SearchStrategy[Json]:
    defs = protocol_schema()["$defs"]
    return from_schema(defs, defs["CreateRoomRequest"]) | from_schema(defs, defs["JoinRoomRequest"])


def encode(value: Json) -> str:
    """JSON text, NaN and infinities included (as Python writes them), surrogates escaped."""
    return json.dumps(value)


ws_inputs = st.one_of(
    client_messages().map(lambda v: ("text", encode(v))),
    client_messages().map(lambda v: ("text", encode(v)[: max(1, len(encode(v)) // 2)])),
    st.text(max_size=200).map(lambda t: ("text", t)),
    st.binary(max_size=200).map(lambda b: ("bytes", b)),
    st.sampled_from(["[" * 5000 + "]" * 5000, '{"a":' * 900 + "1" + "}" * 900, "x" * 17000]).map(
        lambda t: ("text", t)
    ),
)
raw_frames = st.tuples(
    st.integers(0, 15),  # opcode
    st.booleans(),  # fin
    st.integers(0, 7),  # reserved bits
    st.booleans(),  # masked
    st.binary(max_size=300) | st.sampled_from([b"\xff\xfe\xfa", b"\xc3\x28", b"x" * 70_000]),
)

# --------------------------------------------------------------------------- the target


@dataclass
class Figures:
    inputs: int = 0
    http_5xx: int = 0
    bad_errors: int = 0  # an HTTP error that is not an ApiError with a known code
    dropped: int = 0
    state_changes: int = 0
    closed: dict[str, int] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def ok(self) -> bool:
        return not (self.http_5xx or self.bad_errors or self.dropped or self.state_changes)

    def note(self, text: str) -> None:
        if len(self.notes) < 20:
            self.notes.append(text)


def http(
    base: str, method: str, path: str, body: bytes | None, ctype: str | None
) -> tuple[int, bytes]:
    headers = {"Content-Type": ctype} if ctype else {}
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.read()


def _json(base: str, method: str, path: str, value: Json = None) -> Json:
    body = None if value is None else json.dumps(value).encode()
    status, data = http(base, method, path, body, "application/json")
    assert status == 200, (status, data)
    return json.loads(data)


def _room_key(room: Json) -> str:
    """A room as far as the fuzz can change it (who is online does not count)."""
    seats = [{k: v for k, v in s.items() if k != "connected"} for s in room["seats"]]
    return json.dumps({**room, "seats": seats, "spectators": None}, sort_keys=True)


class Target:
    """A started game whose storyteller is someone else, fuzzed from one player's seat."""

    def __init__(self, base: str, figures: Figures) -> None:
        self.base = base
        self.ws_base = "ws" + base[4:]
        self.figures = figures
        host = _json(
            base, "POST", "/api/rooms", {"name": "Host", "settings": {"first_storyteller": "host"}}
        )
        self.code = host["code"]
        self.ticket = _json(base, "POST", f"/api/rooms/{self.code}/join", {"name": "Fuzz"})
        _json(base, "POST", f"/api/rooms/{self.code}/join", {"name": "Third"})
        with connect(f"{self.ws_base}/ws/{self.code}", max_size=None) as ws:
            ws.send(json.dumps({"type": "hello", "token": host["token"]}))
            ws.send(json.dumps({"type": "start_game", "id": "start"}))
            while json.loads(ws.recv(10)).get("id") != "start":
                pass
        self.ws: ClientConnection | None = None
        self._sockets = contextlib.ExitStack()
        self.sent = 0
        self.version = 0
        self.room = ""
        self.pings = 0

    def _connect(self, before_hello: tuple[tuple[str, Any], ...] = ()) -> None:
        self.close()
        self.ws = self._sockets.enter_context(
            connect(f"{self.ws_base}/ws/{self.code}", max_size=None, open_timeout=10)
        )
        self.sent = 0
        for kind, payload in before_hello:
            if not self._exchange(kind, payload, attached=False):
                return self._connect()
        self.ws.send(json.dumps({"type": "hello", "token": self.ticket["token"]}))
        self.sent += 1
        welcome = json.loads(self.ws.recv(WAIT_S))
        assert welcome["type"] == "welcome", welcome
        self.room = _room_key(welcome["room"])
        self.version = welcome["game"]["view"]["version"]

    def close(self) -> None:
        self._sockets.close()
        self.ws = None

    def send(self, kind: str, payload: Any, before_hello: bool = False) -> None:
        """One input on the fuzz seat's socket, checked."""
        if before_hello:
            self._connect(((kind, payload),))
            return
        if self.ws is None or self.sent > 36:  # a fresh socket keeps clear of the rate limit
            self._connect()
        self._exchange(kind, payload, attached=True)

    def _exchange(self, kind: str, payload: Any, attached: bool) -> bool:
        """Send, then ping; read up to the pong. False when the socket closed (as documented)."""
        assert self.ws is not None
        self.figures.inputs += 1
        self.pings += 1
        marker = f"fuzz-{self.pings}"
        try:
            self.ws.send(payload)
            # The payload may have closed the socket first: its `closed` message is read below.
            with contextlib.suppress(ConnectionClosed):
                self.ws.send(json.dumps({"type": "ping", "id": marker}))
            self.sent += 2
            acked = False
            changed: list[str] = []
            while True:
                message = json.loads(self.ws.recv(WAIT_S))
                kind_ = message["type"]
                if kind_ == "pong" and message["id"] == marker:
                    break
                if kind_ == "ack":
                    acked = True
                elif kind_ == "error":
                    if message["code"] not in ERROR_CODES:
                        self.figures.bad_errors += 1
                        self.figures.note(f"unknown code {message['code']!r}")
                elif kind_ == "closed":
                    self.figures.closed[message["code"]] = (
                        self.figures.closed.get(message["code"], 0) + 1
                    )
                    if attached or message["code"] != "auth/bad_token":
                        self.figures.dropped += 1
                        self.figures.note(f"closed {message} after {payload!r:.200}")
                    self.close()
                    return False
                elif kind_ == "game" and message["view"]["version"] != self.version:
                    changed.append(f"version {self.version} -> {message['view']['version']}")
                    self.version = message["view"]["version"]
                elif kind_ == "room" and _room_key(message["room"]) != self.room:
                    changed.append("room")
                    self.room = _room_key(message["room"])
            if changed and not acked:
                self.figures.state_changes += 1
                self.figures.note(f"{changed} after rejected {payload!r:.200}")
            return True
        except (ConnectionClosed, TimeoutError, OSError) as error:
            self.figures.dropped += 1
            self.figures.note(f"dropped ({error!r}) after {payload!r:.200}")
            self.close()
            return False

    # ------------------------------------------------------------------ raw frames

    def raw_frame(self, opcode: int, fin: bool, rsv: int, masked: bool, payload: bytes) -> None:
        """One hand-made frame: answered, or closed with a documented code."""
        self.figures.inputs += 1
        what = f"raw frame opcode={opcode} fin={fin} rsv={rsv} masked={masked} len={len(payload)}"
        host, port = self.base[7:].split(":")
        with socket.create_connection((host, int(port)), timeout=10) as sock:
            key = base64.b64encode(os.urandom(16)).decode()
            sock.sendall(
                f"GET /ws/{self.code} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            reader = _Frames(sock)
            assert b" 101 " in reader.head()
            sock.sendall(_frame(0x1, True, 0, True, b'{"type":"ping","id":"first"}'))
            assert b"first" in reader.next()[1]
            # A frame over the size limit is refused on its header alone: send only the start of
            # its payload, so that the server never closes with our bytes unread (which resets
            # the connection and loses its close frame on the way back).
            data = _frame(opcode, fin, rsv, masked, payload)
            sock.sendall(data[:2000] if len(payload) > 65536 else data)
            try:
                if self._closed_by_server(reader, opcode, what, wait=0.3):
                    return
                sock.sendall(_frame(0x1, True, 0, True, b'{"type":"ping","id":"after"}'))
                self._closed_by_server(reader, opcode, what, wait=10)
            except (OSError, EOFError) as error:
                self.figures.dropped += 1
                self.figures.note(f"{what}: {error!r}")

    def _closed_by_server(self, reader: _Frames, opcode: int, what: str, wait: float) -> bool:
        """Read until the pong of "after" (False) or a close frame (True, its code checked)."""
        reader.sock.settimeout(wait)
        try:
            while True:
                op, data = reader.next()
                if op == 0x8:
                    code = struct.unpack("!H", data[:2])[0] if len(data) >= 2 else 1005
                    if code not in CLOSE_CODES and opcode != 0x8:  # a close of ours is echoed
                        self.figures.dropped += 1
                        self.figures.note(f"{what}: close code {code}")
                    return True
                if op == 0x1 and b'"after"' in data:
                    return False
        except TimeoutError:
            if wait >= 10:
                raise
            return False
        finally:
            reader.sock.settimeout(10)

    # ------------------------------------------------------------------ HTTP

    def http_input(self, path_kind: str, body: bytes | None, ctype: str | None) -> None:
        self.figures.inputs += 1
        before = self._lobby_state()
        path = {
            "create": "/api/rooms",
            "join": f"/api/rooms/{self.lobby}/join",
            "spectate": f"/api/rooms/{self.lobby}/spectate",
        }.get(path_kind, path_kind)
        method, _, path = path.rpartition(" ")
        status, data = http(self.base, method or "POST", path, body, ctype)
        if status >= 500:
            self.figures.http_5xx += 1
            self.figures.note(f"HTTP {status} for {path!r} {body!r:.200}")
            return
        if status >= 400 and path.startswith("/api/"):  # the web client's files answer plain 404
            try:
                answer = json.loads(data)
                good = set(answer) == {"code", "message"} and answer["code"] in ERROR_CODES
            except ValueError:
                good = False
            if not good:
                self.figures.bad_errors += 1
                self.figures.note(f"HTTP {status} for {path!r} answered {data!r:.200}")
            if self._lobby_state() != before:
                self.figures.state_changes += 1
                self.figures.note(f"HTTP {status} changed state: {path!r} {body!r:.200}")

    @property
    def lobby(self) -> str:
        if not hasattr(self, "_lobby"):
            self._lobby: str = _json(self.base, "POST", "/api/rooms", {"name": "Lobby"})["code"]
        return self._lobby

    def _lobby_state(self) -> tuple[int, str]:
        rooms = _json(self.base, "GET", "/api/health")["rooms"]
        return rooms, _room_key(_json(self.base, "GET", f"/api/rooms/{self.lobby}"))


class _Frames:
    """Reads the server's frames from a raw socket."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buffer = b""

    def _need(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("the server closed the connection without a close frame")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def head(self) -> bytes:
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("no handshake answer")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        return head

    def next(self) -> tuple[int, bytes]:
        first, second = self._need(2)
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._need(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._need(8))[0]
        return first & 0x0F, self._need(length)


def _frame(opcode: int, fin: bool, rsv: int, masked: bool, payload: bytes) -> bytes:
    head = bytes([(0x80 if fin else 0) | (rsv << 4) | opcode])
    n = len(payload)
    mask_bit = 0x80 if masked else 0
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", n)
    if not masked:
        return head + payload
    mask = os.urandom(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


# --------------------------------------------------------------------------- the campaign

http_inputs = st.one_of(
    st.tuples(
        st.sampled_from(["create", "join"]),
        lobby_bodies().map(lambda v: encode(v).encode()),
        st.sampled_from(["application/json", None, "text/plain"]),
    ),
    st.tuples(
        st.sampled_from(["create", "join", "spectate"]),
        st.binary(max_size=100) | st.sampled_from([b"\xff\xfe\xfa", b"{" * 5000, b"x" * 70_000]),
        st.sampled_from(["application/json", None, "text/plain", "multipart/form-data"]),
    ),
    st.tuples(
        st.tuples(
            st.sampled_from(["GET /api/rooms/", "GET /api/decks/", "GET /", "POST /api/"]),
            st.text(max_size=30),
        ).map(lambda t: t[0] + urllib.parse.quote(t[1], safe="/")),
        st.none(),
        st.none(),
    ),
)


def campaign(base: str, examples: int, seed: int | None = None) -> Figures:
    """Run ``examples`` inputs of each kind (socket, raw frame, HTTP) against ``base``."""
    figures = Figures()
    target = Target(base, figures)
    common = settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=seed is not None,
        suppress_health_check=list(HealthCheck),
    )

    @common
    @given(ws_inputs, st.integers(0, 9))
    def socket_inputs(item: tuple[str, Any], when: int) -> None:
        kind, payload = item
        target.send(kind, payload, before_hello=when == 0)

    @common
    @given(raw_frames)
    def frames(frame: tuple[int, bool, int, bool, bytes]) -> None:
        target.raw_frame(*frame)

    @common
    @given(http_inputs)
    def lobby(item: tuple[str, bytes | None, str | None]) -> None:
        target.http_input(*item)

    socket_inputs()
    frames()
    lobby()
    target.close()
    return figures


def serve() -> tuple[subprocess.Popen[bytes], str, tempfile.TemporaryDirectory[str]]:
    """``dixit serve`` on a free port of 127.0.0.1 with a SQLite store in a temporary folder."""
    workdir = tempfile.TemporaryDirectory(prefix="dixit-fuzz-")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    database = f"sqlite:///{Path(workdir.name) / 'fuzz.sqlite3'}"
    proc = subprocess.Popen(
        [sys.executable, "-m", "dixit.cli.main", "serve", "--port", str(port), "--database",
         database, "--client-dir", workdir.name, "--log-level", "warning", "--rate-limits", "off"],
        env=dict(os.environ, DIXIT_DATA_DIR=workdir.name),
        stdout=subprocess.DEVNULL,
        stderr=open(Path(workdir.name) / "server.log", "wb"),  # noqa: SIM115
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(base + "/api/health", timeout=1).close()
            return proc, base, workdir
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not come up")


def main() -> int:
    global WAIT_S
    parser = argparse.ArgumentParser(description="Fuzz a Dixit server with hostile input.")
    parser.add_argument("--url", help="a running server (default: start one on 127.0.0.1)")
    parser.add_argument("--examples", type=int, default=2000, help="inputs of each kind")
    parser.add_argument("--wait", type=float, default=WAIT_S, help="seconds an answer may take")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    WAIT_S = args.wait
    proc = None
    if args.url:
        base = args.url.rstrip("/")
    else:
        proc, base, _workdir = serve()
    started = time.monotonic()
    try:
        figures = campaign(base, args.examples)
    finally:
        if proc is not None:
            proc.terminate()
            proc.wait(20)
    seconds = time.monotonic() - started
    report = {
        "inputs": figures.inputs,
        "http_5xx": figures.http_5xx,
        "bad_error_bodies": figures.bad_errors,
        "dropped_sockets": figures.dropped,
        "state_changes": figures.state_changes,
        "closed_messages": figures.closed,
        "seconds": round(seconds, 1),
        "notes": figures.notes,
    }
    print(json.dumps(report) if args.json else json.dumps(report, indent=2))
    return 0 if figures.ok() else 1


if __name__ == "__main__":
    sys.exit(main())
