"""A real server in a subprocess and real WebSocket clients for the protocol tests."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

Message = dict[str, Any]
TIMEOUT = 30.0  # per answer; generous: a loaded CI machine is slow, a hang still fails
PG_URL = os.environ.get("DIXIT_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
# Moves made from a view that a change on another process has overtaken.
STALE = {"action/wrong_phase", "action/not_your_turn", "server/conflict"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class ServerProcess:
    """``dixit serve`` on 127.0.0.1 with its own database, in a process group of its own (the
    supervisor, its fork server and its worker); kill -9 and restart at will."""

    database: str
    workdir: Path
    bot_delay: float = 0.0
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    extra: tuple[str, ...] = ()

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = dict(os.environ, DIXIT_DATA_DIR=str(self.workdir / "data"))
        log_fd = self._log()
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "dixit.cli.main",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--database",
                self.database,
                "--client-dir",
                str(self.workdir / "no-client"),
                "--bot-delay",
                str(self.bot_delay),
                "--log-level",
                "warning",
                *self.extra,
            ],
            stdout=log_fd,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,  # its own process group, killed whole by kill()
        )
        os.close(log_fd)
        self.serving()

    def serving(self, dead: int | None = None) -> int | None:
        """Wait until health answers, not from process ``dead``: the pid of the worker that
        answered (None: an unsupervised server, ``--workers 0``)."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/health", timeout=1) as answer:
                    tag = answer.headers.get("x-dixit-worker")
                    worker = int(tag.split(":")[1]) if tag else None
                    if answer.status == 200 and (worker is None or worker != dead):
                        return worker
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("server did not come up")

    def kill_worker(self) -> tuple[int, int]:
        """SIGKILL the supervised worker serving now and wait until its supervisor's new one
        answers: (the killed pid, the new one)."""
        dead = self.serving()
        assert dead is not None, "an unsupervised server (--workers 0) has no worker"
        os.kill(dead, signal.SIGKILL)
        new = self.serving(dead)
        assert new is not None
        return dead, new

    def _log(self) -> int:
        """A file descriptor for the server's output (the child keeps its own copy)."""
        return os.open(self.workdir / "server.log", os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def kill(self) -> None:
        """SIGKILL to every process of the server: no shutdown code runs."""
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
            gone(self.proc.pid)
            self.proc = None

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)
            self.proc = None


def gone(group: int) -> None:
    """Until no process of process group ``group`` is left (its port is free then)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.killpg(group, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)


def http(
    base: str, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def create_room(base: str, name: str = "Ann", **settings: Any) -> Message:
    status, ticket = http(base, "POST", "/api/rooms", {"name": name, "settings": settings})
    assert status == 200, ticket
    return dict(ticket)


def seats(*tickets: Message) -> dict[str, str]:
    """The header by which a browser says which seats it holds (uploaded decks are theirs)."""
    return {"X-Dixit-Seats": ", ".join(f"{t['code']}:{t['token']}" for t in tickets)}


def join_room(base: str, code: str, name: str) -> Message:
    status, ticket = http(base, "POST", f"/api/rooms/{code}/join", {"name": name})
    assert status == 200, ticket
    return dict(ticket)


_ids = itertools.count(1)


class Client:
    """One socket. Keeps every message received (``inbox``) and the latest view and room."""

    def __init__(self, ws_base: str, ticket: Message) -> None:
        self.ws_base = ws_base
        self.ticket = ticket
        self.code: str = ticket["code"]
        self.token: str = ticket["token"]
        self.seat: str | None = ticket.get("seat")
        self.ws: ClientConnection | None = None
        self.inbox: list[Message] = []
        self.view: Message | None = None
        self.room: Message | None = None
        self.welcome: Message | None = None

    @property
    def version(self) -> int:
        return int(self.view["version"]) if self.view else 0

    async def connect(
        self,
        since: int | None = None,
        answers: tuple[str, ...] = ("welcome", "closed"),
        **hello_fields: Any,
    ) -> Message:
        """Open a socket and say hello (``hello_fields`` added to it); the first message of a
        type in ``answers``."""
        self.ws = await connect(f"{self.ws_base}/ws/{self.code}", open_timeout=TIMEOUT)
        hello: Message = {"type": "hello", "v": 1, "token": self.token, "events": True}
        hello.update(hello_fields)
        if since is not None:
            hello["since"] = since
        with contextlib.suppress(ConnectionClosed):  # refused at once: its answer is queued
            await self.send(hello)
        self.welcome = await self.until(lambda m: m["type"] in answers)
        return self.welcome

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            self.ws = None

    async def send(self, message: Message) -> None:
        assert self.ws is not None
        await self.ws.send(json.dumps(message))

    async def send_raw(self, text: str) -> None:
        assert self.ws is not None
        await self.ws.send(text)

    async def recv(self, timeout: float = TIMEOUT) -> Message:
        assert self.ws is not None
        try:
            text = await asyncio.wait_for(self.ws.recv(), timeout)
        except ConnectionClosed as closed:  # say what came last: a closed message, a game…
            last = [(m["type"], m.get("code") or m.get("id")) for m in self.inbox[-4:]]
            closed.add_note(f"{self.seat or 'spectator'} of {self.code}: last messages {last}")
            raise
        message: Message = json.loads(text)
        self.inbox.append(message)
        self._track(message)
        return message

    def _track(self, message: Message) -> None:
        kind = message["type"]
        if kind == "welcome":
            self.room = message["room"]
            if message["game"] is not None:
                self.view = message["game"]["view"]
        elif kind == "game":
            self.view = message["view"]
        elif kind == "room":
            self.room = message["room"]

    async def until(
        self, predicate: Callable[[Message], bool], timeout: float = TIMEOUT
    ) -> Message:
        end = time.monotonic() + timeout
        while True:
            message = await self.recv(max(0.01, end - time.monotonic()))
            if predicate(message):
                return message

    async def command(self, kind: str, command_id: str | None = None, **fields: Any) -> Message:
        """Send a command and wait for its ack or error."""
        cid = command_id or f"c{next(_ids)}"
        await self.send({"type": kind, "id": cid, **fields})
        return await self.until(lambda m: m["type"] in ("ack", "error") and m.get("id") == cid)

    def legal_move(self, rng: random.Random) -> Message | None:
        """A random legal command from the latest view (what a client UI would enable)."""
        if self.view is None or self.view["phase"] == "over":
            return None
        legal = self.view["legal"]
        if legal["give_clue"]:
            return {"type": "give_clue", "card": rng.choice(legal["give_clue"]), "clue": "a clue"}
        if legal["submit"]:
            cards = rng.sample(legal["submit"], legal["submit_count"])
            return {"type": "submit_cards", "cards": cards}
        if legal["vote"]:
            return {"type": "cast_vote", "card": rng.choice(legal["vote"])}
        return None

    async def drain(self, timeout: float = 0.05) -> None:
        """Read whatever has arrived."""
        try:
            while True:
                await self.recv(timeout)
        except TimeoutError:
            return


async def play_until_over(clients: list[Client], rng: random.Random, max_steps: int = 3000) -> None:
    """Every client makes random legal moves from its own view until the game is over."""
    for _ in range(max_steps):
        if all(c.view is not None and c.view["phase"] == "over" for c in clients):
            return
        moved = False
        for client in clients:
            move = client.legal_move(rng)
            if move is None:
                continue
            answer = await client.command(move.pop("type"), **move)
            # A view can be a message behind (someone claimed the opening clue first).
            stale = answer.get("code") in ("action/wrong_phase", "action/not_your_turn")
            assert answer["type"] == "ack" or stale, answer
            moved = True
        if not moved:
            await asyncio.gather(*(c.drain(0.2) for c in clients))
        else:
            await asyncio.gather(*(c.drain(0.01) for c in clients))
    raise AssertionError("the game did not finish")


async def play_rounds(
    clients: list[Client], rng: random.Random, rounds: int, acked: set[str]
) -> bool:
    """Up to ``rounds`` rounds of random legal moves from each client's own view, the ids of
    new acknowledged commands added to ``acked`` (``seat/id``); True once every client sees
    the end. Only a move a change elsewhere overtook (:data:`STALE`) may be refused."""
    for _ in range(rounds):
        if all(c.view is not None and c.view["phase"] == "over" for c in clients):
            return True
        for client in clients:
            move = client.legal_move(rng)
            if move is None:
                continue
            answer = await client.command(move.pop("type"), **move)
            if answer["type"] == "ack":
                if not answer["duplicate"]:
                    acked.add(f"{client.seat}/{answer['id']}")
            else:
                assert answer["code"] in STALE, answer
        await asyncio.gather(*(c.drain(0.05) for c in clients))
    return all(c.view is not None and c.view["phase"] == "over" for c in clients)


@contextlib.contextmanager
def postgres_schema() -> Iterator[str]:
    """The URL of a fresh PostgreSQL schema on :data:`PG_URL`, dropped afterwards (the test
    is skipped, with the reason, when PostgreSQL is not reachable)."""
    import pytest

    try:
        import psycopg

        admin = psycopg.connect(PG_URL, autocommit=True, connect_timeout=2)
    except Exception as error:
        pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {error}".splitlines()[0])
    schema = f"dixit_test_{os.urandom(5).hex()}"
    admin.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{PG_URL}?options=-csearch_path%3D{schema}"
    finally:
        admin.execute(f"DROP SCHEMA {schema} CASCADE")
        admin.close()
