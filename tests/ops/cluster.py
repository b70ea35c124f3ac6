"""Parts for the cluster proof (tests/ops/test_cluster.py): HAProxy of a test's own in front of
several ``dixit serve`` processes, and a player that behaves like a real client through faults
(reconnects with its seat token and ``since``, resends unanswered commands with the same id).

HAProxy listens on two ports: ``by_room`` sends every request and socket of one room to one
process (a consistent hash of the room code, like deploy/haproxy.cfg), ``spread`` sends a
request with ``?via=sN`` to process N while it is up and deals the others round-robin, so the
players of one room sit on the processes the test chose. Both take a process out while
/api/health/ready says it is not ready. Every answer carries the name of the
process that gave it (``X-Dixit-Server``) and every request is logged with its status.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import subprocess
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from .services import free_port, wait_port

HAPROXY = shutil.which("haproxy") or (
    "/usr/sbin/haproxy" if os.path.exists("/usr/sbin/haproxy") else None
)

Message = dict[str, Any]

# Answers a client in a cluster may meet without anything being wrong: a move made from a view
# another process's change has overtaken, or a dependency that is down for a moment.
STALE = {"game/over", "room/not_playing", "room/seat_is_bot", "server/conflict"}
PASSING_PREFIXES = ("action/", "store/", "pubsub/")
GAME_MOVES = {"give_clue", "submit_cards", "cast_vote", "start_game"}


def haproxy_missing() -> str | None:
    return None if HAPROXY else "no haproxy binary (apt haproxy; `make test` installs it)"


CONFIG = """\
global
    maxconn 4000
    log stdout format raw local0 info

defaults
    mode http
    log global
    # status, backend/process, method, path: what the test reads back
    log-format "%ST %b/%s %HM %HU"
    option dontlognull
    timeout connect 2s
    timeout check 3s
    timeout client 120s
    timeout server 120s
    timeout tunnel 300s
    retries 3
    option redispatch 1

frontend by_room
    bind 127.0.0.1:{by_room}
    http-request set-var(txn.room) path,field(3,/) if {{ path_beg /ws/ /r/ }}
    http-request set-var(txn.room) path,field(4,/) if {{ path_beg /api/rooms/ }}
    default_backend by_room

frontend spread
    bind 127.0.0.1:{spread}
    default_backend spread

backend by_room
    balance hash var(txn.room)
    hash-type consistent
    option httpchk GET /api/health/ready
    http-check expect status 200
    http-response set-header X-Dixit-Server %s
    default-server check inter 500ms fall 2 rise 1
{servers}

backend spread
    balance roundrobin
    option httpchk GET /api/health/ready
    http-check expect status 200
    http-response set-header X-Dixit-Server %s
    default-server check inter 500ms fall 2 rise 1
{chosen}
{servers}
"""


class OwnHaproxy:
    """``haproxy -db`` (foreground) with a config in ``root``; its log in ``root/haproxy.log``."""

    def __init__(self, root: Path, ports: list[int]) -> None:
        assert HAPROXY is not None
        self.root = root
        self.by_room = free_port()
        self.spread = free_port()
        servers = "\n".join(f"    server s{i} 127.0.0.1:{port}" for i, port in enumerate(ports))
        self.config = root / "haproxy.cfg"
        chosen = "\n".join(
            f"    use-server s{i} if {{ urlp(via) -m str s{i} }}" for i in range(len(ports))
        )
        self.config.write_text(
            CONFIG.format(by_room=self.by_room, spread=self.spread, servers=servers, chosen=chosen)
        )
        self.log = root / "haproxy.log"
        self._proc: subprocess.Popen[bytes] | None = None

    def base(self, mode: str) -> str:
        return f"http://127.0.0.1:{self.by_room if mode == 'by_room' else self.spread}"

    def ws_base(self, mode: str) -> str:
        return self.base(mode).replace("http://", "ws://")

    def start(self) -> None:
        assert HAPROXY is not None
        subprocess.run([HAPROXY, "-c", "-q", "-f", str(self.config)], check=True)
        with open(self.log, "ab") as out:
            self._proc = subprocess.Popen(
                [HAPROXY, "-db", "-f", str(self.config)], stdout=out, stderr=subprocess.STDOUT
            )
        wait_port(self.by_room, up=True)
        wait_port(self.spread, up=True)

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(10)
            self._proc = None

    def statuses(self) -> list[tuple[int, str, str]]:
        """(status, backend/process, "METHOD path") of every logged request."""
        found = []
        for line in self.log.read_text(errors="replace").splitlines():
            parts = line.split(" ", 3)
            if len(parts) == 4 and parts[0].lstrip("-").isdigit():
                found.append((int(parts[0]), parts[1], f"{parts[2]} {parts[3]}"))
        return found


# --------------------------------------------------------------------------- a player


@dataclass
class SocketLife:
    """One socket of a player: which process served it and which game versions it saw."""

    server: str | None
    first: int  # the game version at its welcome
    last: int  # the highest game version seen on it
    notices: list[Message] = field(default_factory=list)


@dataclass
class Sent:
    kind: str
    message: Message
    sent_at: float


class Player:
    """A seat's client. :meth:`run` plays random legal moves until the game is over, through
    dropped sockets: it reconnects with its token and ``since`` and resends every command not
    yet answered, with the same id. ``sleepy`` seats make no move in rounds 1, 4, 7, … so that
    the phase timer plays for them, and come back (a new ``hello``) once it has."""

    def __init__(
        self,
        ws_base: str,
        ticket: Message,
        rng: random.Random,
        *,
        sleepy: bool = False,
        think: tuple[float, float] = (0.05, 0.2),
        via: str | None = None,
    ) -> None:
        self.ws_base = ws_base
        self.via = via  # the process the spreading proxy port should send this socket to
        self.code: str = ticket["code"]
        self.token: str = ticket["token"]
        self.seat: str = ticket["seat"]
        self.rng = rng
        self.sleepy = sleepy
        self.think = think
        self.ws: ClientConnection | None = None
        self.view: Message | None = None
        self.room: Message | None = None
        self.lives: list[SocketLife] = []
        self.pending: dict[str, Sent] = {}
        self.sent: dict[str, Sent] = {}  # every command, answered or not
        self.acked: dict[str, tuple[str, int, bool]] = {}  # id -> (kind, version, duplicate)
        self.errors: Counter[str] = Counter()
        self.unexpected: list[Message] = []  # answers no client should ever get
        self.closed: list[str] = []  # `closed` codes received
        self.refused: Counter[str] = Counter()  # failed connection attempts, by reason
        self.unanswered = 0  # commands with no answer for `answer_wait_s` on a live socket
        self.answer_wait_s = 10.0
        self._next_id = 0
        self._move_at: float | None = None
        self._come_back = False
        self._pause_until = 0.0
        self._reconnect_at = 0.0
        self.give_up_at = time.monotonic() + 600
        self.stop = False
        self.history: list[tuple[float, int, str]] = []  # (monotonic time, version, phase)

    # ------------------------------------------------------------------ state

    @property
    def version(self) -> int:
        return int(self.view["version"]) if self.view else 0

    @property
    def over(self) -> bool:
        return self.view is not None and self.view["phase"] == "over"

    @property
    def servers(self) -> set[str]:
        return {life.server for life in self.lives if life.server}

    def notices(self, code: str) -> list[Message]:
        return [n for life in self.lives for n in life.notices if n["code"] == code]

    def _new_id(self) -> str:
        self._next_id += 1
        return f"{self.seat}-{self._next_id}"

    # ------------------------------------------------------------------ the socket

    async def connect(self) -> None:
        """Open a socket and say hello (with ``since`` once a view is known); retries until
        welcomed. Then resends every command not yet answered."""
        delay = 0.1
        while not self.stop and time.monotonic() < self.give_up_at:
            try:
                query = f"?via={self.via}" if self.via else ""
                ws = await connect(
                    f"{self.ws_base}/ws/{self.code}{query}", open_timeout=10, close_timeout=2
                )
            except (OSError, InvalidHandshake, TimeoutError) as error:
                self.refused[type(error).__name__] += 1
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
                continue
            server = ws.response.headers.get("X-Dixit-Server") if ws.response else None
            hello: Message = {"type": "hello", "v": 1, "token": self.token}
            if self.view is not None:
                hello["since"] = self.version
                if self.room is not None:
                    hello["game"] = self.room["game_number"]
            try:
                await ws.send(json.dumps(hello))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 15))
                    if message["type"] in ("welcome", "closed"):
                        break
            except (ConnectionClosed, TimeoutError, OSError) as error:
                self.refused[f"hello: {type(error).__name__}"] += 1
                with contextlib.suppress(Exception):
                    await ws.close()
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
                continue
            if message["type"] == "closed":
                self.closed.append(message["code"])
                self.unexpected.append(message)
                await ws.close()
                self.stop = True
                return
            self.ws = ws
            self.lives.append(SocketLife(server, 0, 0))
            self._take(message)
            self.lives[-1].first = self.lives[-1].last = self.version
            for cid, sent in self.pending.items():  # unanswered: resend, same id
                sent.sent_at = time.monotonic()
                with contextlib.suppress(ConnectionClosed):
                    await ws.send(json.dumps({**sent.message, "id": cid}))
            return

    async def drop(self) -> None:
        """Close the socket, then read what the server sent on it before it saw the close: a
        notice sent a moment before the player left belongs to this socket (a browser closing
        a tab would have shown it). After the closing handshake nothing more comes, so this
        waits for no timer."""
        ws, self.ws = self.ws, None
        if ws is None:
            return
        with contextlib.suppress(Exception):
            await ws.close()
        with contextlib.suppress(Exception):
            while True:  # frames received before the server's close frame, then closed
                self._take(json.loads(await asyncio.wait_for(ws.recv(), 5)))

    async def command(self, kind: str, **fields: Any) -> str:
        """Send a command (answered later, in :meth:`run` or :meth:`answer`); its id."""
        cid = self._new_id()
        message = {"type": kind, **fields}
        self.pending[cid] = self.sent[cid] = Sent(kind, message, time.monotonic())
        if self.ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self.ws.send(json.dumps({**message, "id": cid}))
        return cid

    def lose_ack(self, cid: str) -> None:
        """Forget that ``cid`` was answered, as a client whose ack was lost would: it is resent
        on the next socket (and must then be acknowledged as a duplicate, applied once)."""
        del self.acked[cid]
        self.pending[cid] = Sent(self.sent[cid].kind, self.sent[cid].message, time.monotonic())

    async def answer(self, cid: str, timeout_s: float = 30.0) -> Message:
        """Read until ``cid`` is answered (reconnecting when the socket drops)."""
        end = time.monotonic() + timeout_s
        while cid in self.pending:
            assert time.monotonic() < end, f"{self.seat}: no answer to {cid}"
            await self.step(0.2)
        if cid in self.acked:
            return {"type": "ack", "id": cid}
        return {"type": "error", "id": cid}

    # ------------------------------------------------------------------ reading

    def _take(self, message: Message) -> None:
        kind = message["type"]
        life = self.lives[-1] if self.lives else None
        if kind == "welcome":
            self.room = message["room"]
            if message["game"] is not None:
                self.view = message["game"]["view"]
        elif kind == "game":
            self.view = message["view"]
        elif kind == "room":
            self.room = message["room"]
        if kind in ("welcome", "room") and self.room is not None:
            mine = [seat for seat in self.room["seats"] if seat["id"] == self.seat]
            if mine and mine[0].get("autoplay"):
                self._come_back = True  # the computer plays for me: back after my break
        if kind == "notice" and life is not None:
            life.notices.append(message)
            if message["code"] == "seat/autoplayed" and message["seat"] == self.seat:
                self._come_back = True
        elif kind == "ack":
            sent = self.pending.pop(message["id"], None)
            if sent is not None:
                self.acked[message["id"]] = (sent.kind, message["version"], message["duplicate"])
        elif kind == "error":
            sent = self.pending.pop(message.get("id") or "", None)
            code = message["code"]
            self.errors[code] += 1
            passing = code in STALE or code.startswith(PASSING_PREFIXES)
            if sent is None or not passing:
                self.unexpected.append(message)
            self._move_at = None
            self._pause_until = time.monotonic() + 0.3  # let the view catch up first
        elif kind == "closed":
            self.closed.append(message["code"])
            if message["code"] != "auth/replaced":
                self.unexpected.append(message)
        if life is not None:
            life.last = max(life.last, self.version)
        if self.view is not None and (not self.history or self.history[-1][1] != self.version):
            self.history.append((time.monotonic(), self.version, self.view["phase"]))

    async def step(self, wait_s: float) -> None:
        """Read for up to ``wait_s``; reconnect if the socket dropped."""
        if self.ws is None:
            await asyncio.sleep(max(0.0, self._reconnect_at - time.monotonic()))
            await self.connect()
            return
        try:
            text = await asyncio.wait_for(self.ws.recv(), wait_s)
        except TimeoutError:
            pass
        except ConnectionClosed:
            self.ws = None
            self._reconnect_at = time.monotonic() + 0.3  # as a browser would, not at once
            return
        else:
            self._take(json.loads(text))
        now = time.monotonic()
        if any(now - s.sent_at > self.answer_wait_s for s in self.pending.values()):
            self.unanswered += 1  # a command swallowed: drop the socket, resend on a new one
            await self.drop()

    # ------------------------------------------------------------------ playing

    def _asleep(self) -> bool:
        return self.sleepy and self.view is not None and self.view["round"] % 3 == 1

    def _move(self) -> Message | None:
        view = self.view
        if view is None or view["phase"] == "over" or self._asleep():
            return None
        legal = view["legal"]
        if legal["give_clue"]:
            return {"type": "give_clue", "card": self.rng.choice(legal["give_clue"]), "clue": "x"}
        if legal["submit"]:
            cards = self.rng.sample(legal["submit"], legal["submit_count"])
            return {"type": "submit_cards", "cards": cards}
        if legal["vote"]:
            return {"type": "cast_vote", "card": self.rng.choice(legal["vote"])}
        return None

    def _reveal_unread(self) -> int | None:
        reveal = self.room.get("reveal") if self.room else None
        if reveal and self.seat in reveal.get("waiting", ()):
            return int(reveal["round"])
        return None

    async def run(self, timeout_s: float) -> None:
        """Play until the game is over (or ``timeout_s``)."""
        end = self.give_up_at = time.monotonic() + timeout_s
        while not self.stop and not self.over and time.monotonic() < end:
            await self.step(0.1)
            if self.ws is None or self.pending or time.monotonic() < self._pause_until:
                continue
            if self._come_back and not self._asleep():
                self._come_back = False
                await self.drop()  # back from a break: a new hello gives the seat back
                continue
            unread = self._reveal_unread()
            if unread is not None:
                await self.command("reveal_seen", round=unread)
                continue
            move = self._move()
            if move is None:
                self._move_at = None
                continue
            now = time.monotonic()
            if self._move_at is None:
                self._move_at = now + self.rng.uniform(*self.think)
            if now >= self._move_at:
                self._move_at = None
                await self.command(move.pop("type"), **move)
        # read what is still on its way (the last notices), then close
        if self.ws is not None:
            with contextlib.suppress(Exception):
                for _ in range(50):
                    await self.step(0.05)
                    if self.ws is None:
                        break
        await self.drop()
