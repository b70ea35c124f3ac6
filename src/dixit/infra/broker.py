"""A fan-out and presence broker for the processes of one machine, on a Unix socket
(``dixit serve --workers N`` without Redis: the supervisor runs the :class:`Broker`, each
worker reaches it through a :class:`Link`, wrapped by :mod:`dixit.pubsub.local`).

Wire format, both ways: frames of a 4-byte big-endian length and a UTF-8 JSON array.

- requests ``[op, id, …]``: ``sub``/``unsub`` channel, ``pub`` channel message,
  ``beat`` room ttl_s [[seat, process, socket], …] (answered with the room's unexpired
  entries, as ``present``), ``leave`` room seat process socket, ``present`` room, ``ping``;
  the broker answers ``["r", id, result]`` in order (id 0: no answer wanted);
- deliveries ``["m", channel, message]``, to every connection subscribed to the channel: the
  publisher's own included, as Redis does, unless it published with ``cast`` (channel message,
  never answered), which skips the publisher: a room's change notes, sent on every game
  action, cost the worker no round trip and no echo to read back.

Interest: a room normally lives on one worker (its sockets are handed to the owner), and a cast
nobody else hears is wasted on both sides. So ``sub`` is answered with whether another worker
subscribes to the channel, and a worker alone on a channel casts nothing to it. When a second
worker subscribes, the broker tells the first ``["i", channel, 1, token]``, and answers the
newcomer only once the first has confirmed with ``seen`` token (or gone): the newcomer reads
the room from the store after its answer, so whatever the first stored without casting is in
what it reads, and every later change is cast. When one subscriber is left, it is told
``["i", channel, 0, 0]``; a worker unsure (reconnecting) casts.

The broker handles one frame at a time, so a subscription answered before a publish is
delivered that publish. Presence entries expire on the broker's clock (a room whose entries all
expired is forgotten within :attr:`Broker.sweep_every_s`). A connection whose
unsent deliveries pass :attr:`Broker.max_buffer` bytes is dropped (a worker too slow to read):
it reconnects and reports a gap, as after any drop. A link whose connection fails reconnects
with backoff (0.05 s doubling to 0.5 s) and runs its ``on_back`` (the fan-out subscribes again
to every channel in use and reports a gap to every subscription, as with Redis); requests
meanwhile fail with the link's ``unavailable`` exception.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import struct
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Entry = tuple[str, str, str]  # a presence entry: seat, process, socket


class BrokerUnavailable(Exception):
    """The broker cannot be reached (the default of :attr:`Link.unavailable`)."""


HEADER = struct.Struct(">I")
MAX_FRAME = 16 * 1024 * 1024
LOST = (OSError, EOFError, asyncio.IncompleteReadError, ConnectionError)
POST_BUFFER = 1024 * 1024  # unsent bytes to the broker before a post waits for it to read


def socket_path(url: str) -> str:
    """``unix:///run/dixit/broker.sock`` → ``/run/dixit/broker.sock``."""
    scheme, sep, rest = url.partition("://")
    if scheme != "unix" or not sep or not rest.startswith("/"):
        raise ValueError(f"unsupported local broker URL {url!r} (unix:///absolute/path.sock)")
    return rest


def encode(item: list[Any]) -> bytes:
    data = json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()
    return HEADER.pack(len(data)) + data


async def read_frame(reader: asyncio.StreamReader) -> list[Any]:
    (size,) = HEADER.unpack(await reader.readexactly(HEADER.size))
    if size > MAX_FRAME:
        raise ConnectionError(f"frame of {size} bytes")
    item = json.loads(await reader.readexactly(size))
    if not isinstance(item, list) or not item:
        raise ConnectionError("malformed frame")
    return item


class _Peer:
    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self.channels: set[str] = set()


LATER = object()  # a subscription answered once other workers have seen that it came


@dataclass
class _Waiting:
    """A ``sub`` to answer (that others subscribe: True) once ``told`` have confirmed."""

    peer: _Peer
    ident: int
    channel: str
    told: set[_Peer]


class Broker:
    """The fan-out and presence hub of one machine's workers (run by the supervisor)."""

    max_buffer = 8 * 1024 * 1024  # unsent bytes to one worker before it is dropped
    sweep_every_s = 30.0

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._server: asyncio.Server | None = None
        self._channels: dict[str, set[_Peer]] = {}
        self._peers: set[_Peer] = set()
        self._alone: dict[str, _Peer] = {}  # channel → its one subscriber, which knows it
        self._unseen: dict[str, dict[_Peer, int]] = {}  # told of interest, not confirmed: token
        self._waiting: list[_Waiting] = []
        self._tokens = itertools.count(1)
        self._presence: dict[str, dict[Entry, float]] = {}
        self._handlers: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.path}"

    async def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)  # left by a broker that was killed
        self._server = await asyncio.start_unix_server(self._serve, path=self.path)
        os.chmod(self.path, 0o600)
        self._sweeper = asyncio.create_task(self._sweep())

    @property
    def rooms_present(self) -> int:
        """Rooms with presence entries held (expired ones go within :attr:`sweep_every_s`)."""
        return len(self._presence)

    async def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
            self._sweeper = None
        if self._server is not None:
            self._server.close()
            for peer in list(self._peers):
                peer.writer.close()
            # Each connection's handler sees its socket closed and ends.
            await asyncio.gather(*self._handlers, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = _Peer(writer)
        self._peers.add(peer)
        handler = asyncio.current_task()
        if handler is not None:
            self._handlers.add(handler)
        try:
            while True:
                item = await read_frame(reader)
                result = self._handle(peer, item)
                ident = item[1] if len(item) > 1 else 0
                if ident and result is not LATER:
                    self._send(peer, encode(["r", ident, result]))
                if writer.is_closing():
                    break
                await writer.drain()
        except (*LOST, ValueError, TypeError, IndexError):
            pass  # the worker went away (or spoke nonsense): forget it
        finally:
            if handler is not None:
                self._handlers.discard(handler)
            self._drop(peer)
            writer.close()
            with contextlib.suppress(*LOST):
                await writer.wait_closed()

    def _drop(self, peer: _Peer) -> None:
        self._peers.discard(peer)
        for channel in list(peer.channels):
            self._unsubscribe(peer, channel)
        self._waiting = [w for w in self._waiting if w.peer is not peer]

    def _subscribe(self, peer: _Peer, channel: str, ident: int) -> Any:
        """Answer whether another worker subscribes, once every one told so has seen it."""
        subscribers = self._channels.setdefault(channel, set())
        if peer in subscribers:
            return bool(len(subscribers) > 1)
        subscribers.add(peer)
        peer.channels.add(channel)
        if len(subscribers) == 1:
            self._alone[channel] = peer
            return False
        unseen = self._unseen.setdefault(channel, {})
        lonely = self._alone.pop(channel, None)
        if lonely is not None:
            token = next(self._tokens)
            unseen[lonely] = token
            self._send(lonely, encode(["i", channel, 1, token]))
        told = set(unseen) - {peer}
        if not told or not ident:
            return True
        self._waiting.append(_Waiting(peer, ident, channel, told))
        return LATER

    def _unsubscribe(self, peer: _Peer, channel: str) -> None:
        peer.channels.discard(channel)
        subscribers = self._channels.get(channel)
        if subscribers is None or peer not in subscribers:
            return
        subscribers.discard(peer)
        self._seen(peer, channel)
        if self._alone.get(channel) is peer:
            del self._alone[channel]
        if not subscribers:
            del self._channels[channel]
            self._unseen.pop(channel, None)
        elif len(subscribers) == 1:
            (last,) = subscribers
            self._alone[channel] = last
            self._send(last, encode(["i", channel, 0, 0]))

    def _seen(self, peer: _Peer, channel: str, token: int | None = None) -> None:
        """``peer`` confirmed interest ``token`` in ``channel`` (None: it left the channel):
        answer the subscriptions that waited only for it."""
        unseen = self._unseen.get(channel)
        if unseen is None or peer not in unseen or token not in (None, unseen[peer]):
            return
        del unseen[peer]
        if not unseen:
            del self._unseen[channel]
        still: list[_Waiting] = []
        for waiting in self._waiting:
            if waiting.channel == channel:
                waiting.told.discard(peer)
                if not waiting.told:
                    self._send(waiting.peer, encode(["r", waiting.ident, True]))
                    continue
            still.append(waiting)
        self._waiting = still

    @staticmethod
    def _expire(entries: dict[Entry, float], now: float) -> None:
        for gone in [h for h, until in entries.items() if until <= now]:
            del entries[gone]

    async def _sweep(self) -> None:
        """Forget rooms whose every entry expired (their sockets' process died)."""
        while True:
            await asyncio.sleep(self.sweep_every_s)
            now = time.monotonic()
            for room, entries in list(self._presence.items()):
                self._expire(entries, now)
                if not entries:
                    del self._presence[room]

    def _send(self, peer: _Peer, frame: bytes) -> None:
        writer = peer.writer
        if writer.is_closing():
            return
        writer.write(frame)
        if writer.transport.get_write_buffer_size() > self.max_buffer:
            writer.close()  # it reconnects and resynchronises (a gap)
            self._drop(peer)

    def _handle(self, peer: _Peer, item: list[Any]) -> Any:
        op = item[0]
        if op == "pub" or op == "cast":
            channel, message = str(item[2]), str(item[3])
            receivers = [p for p in self._channels.get(channel, ()) if op == "pub" or p is not peer]
            if receivers:
                delivery = encode(["m", channel, message])  # encoded once for every subscriber
                for receiver in receivers:
                    self._send(receiver, delivery)
            return None
        if op == "sub":
            return self._subscribe(peer, str(item[2]), int(item[1]))
        if op == "unsub":
            self._unsubscribe(peer, str(item[2]))
            return None
        if op == "seen":
            channel, token = str(item[2]), int(item[3])
            self._seen(peer, channel, token)
            return None
        if op == "beat":
            room, ttl_s = str(item[2]), float(item[3])
            now = time.monotonic()
            entries = self._presence.setdefault(room, {})
            self._expire(entries, now)
            for seat, process, socket in item[4]:
                entries[(str(seat), str(process), str(socket))] = now + ttl_s
            if not entries:
                del self._presence[room]
            return [list(entry) for entry in sorted(entries)]
        if op == "leave":
            room, here = str(item[2]), (str(item[3]), str(item[4]), str(item[5]))
            held = self._presence.get(room)
            if held is not None:
                held.pop(here, None)
                if not held:
                    del self._presence[room]
            return None
        if op == "present":
            room = str(item[2])
            entries = self._presence.get(room, {})
            self._expire(entries, time.monotonic())
            if not entries:
                self._presence.pop(room, None)
            return [list(entry) for entry in sorted(entries)]
        if op == "ping":
            return "pong"
        raise ValueError(f"unknown operation {op!r}")


class Link:
    """One worker's connection to the broker: requests with answers, deliveries, and
    reconnection with backoff (``on_back`` runs once it is up again)."""

    backoff_s = (0.05, 0.5)
    timeout_s = 2.0

    def __init__(
        self,
        path: str,
        on_message: Callable[[str, str], None],
        on_back: Callable[[], Awaitable[None]],
        on_interest: Callable[[str, bool], None] = lambda channel, others: None,
        unavailable: type[Exception] = BrokerUnavailable,
    ) -> None:
        self.path = path
        self.unavailable = unavailable  # raised (with a line saying why) while unreachable
        self._on_message = on_message
        self._on_back = on_back
        self._on_interest = on_interest
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._out: list[bytes] = []  # frames of this loop turn, written together at its end
        self._writing: asyncio.Handle | None = None
        self._task: asyncio.Task[None] | None = None
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._ids = itertools.count(1)
        self._closing = False
        self._generation = 0  # connections made
        self._recovery: asyncio.Task[None] | None = None
        self.down_since: float | None = None

    async def open(self) -> None:
        try:
            await self._connect()
        except LOST as error:
            raise self.unavailable(f"local broker unreachable at {self.path}: {error}") from None
        self._task = asyncio.create_task(self._run())

    async def _connect(self) -> None:
        self._reader, self._writer = await asyncio.wait_for(
            asyncio.open_unix_connection(self.path), self.timeout_s
        )

    async def close(self) -> None:
        self._closing = True
        for task in (self._task, self._recovery):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._disconnect("closed")

    def _disconnect(self, why: str) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        self._out.clear()  # lost with the connection, as what the socket had not sent
        if writer is not None:
            writer.close()
        waiting, self._waiting = self._waiting, {}
        for future in waiting.values():
            if not future.done():
                future.set_exception(self.unavailable(f"local broker unreachable: {why}"))

    async def _run(self) -> None:
        backoff = self.backoff_s[0]
        while not self._closing:
            try:
                if self._reader is None:
                    await self._connect()
                    backoff = self.backoff_s[0]
                    self._generation += 1
                    if self.down_since is not None:
                        # Its requests are answered through this loop: run it beside it.
                        self._recovery = asyncio.create_task(self._recover(self._generation))
                assert self._reader is not None
                item = await read_frame(self._reader)
                if item[0] == "m":
                    self._on_message(str(item[1]), str(item[2]))
                elif item[0] == "i":
                    channel, token = str(item[1]), int(item[3])
                    self._on_interest(channel, bool(item[2]))
                    if token:
                        self.send("seen", channel, token)
                elif item[0] == "r":
                    future = self._waiting.pop(item[1], None)
                    if future is not None and not future.done():
                        future.set_result(item[2])
            except (*LOST, self.unavailable, ValueError, IndexError, TypeError) as error:
                # Lost, or a frame that makes no sense: start again on a fresh connection.
                if self.down_since is None:
                    self.down_since = time.monotonic()
                self._disconnect(str(error) or type(error).__name__)
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self.backoff_s[1])

    async def _recover(self, generation: int) -> None:
        with contextlib.suppress(self.unavailable):
            await self._on_back()
            if generation == self._generation and self._writer is not None:
                self.down_since = None

    def _write(self, frame: bytes) -> None:
        """Queue a frame: every frame of one loop turn (a change note per game action, beats)
        leaves in one write at its end, in order, instead of a system call each."""
        self._out.append(frame)
        if self._writing is None:
            self._writing = asyncio.get_running_loop().call_soon(self._write_out)

    def _write_out(self) -> None:
        self._writing = None
        writer, out = self._writer, self._out
        if not out:
            return
        self._out = []
        if writer is not None and not writer.is_closing():
            writer.write(b"".join(out))

    def send(self, *item: Any) -> None:
        """A request with no answer (best effort: nothing happens while the broker is away)."""
        if self._writer is not None and not self._writer.is_closing():
            self._write(encode([item[0], 0, *item[1:]]))

    async def post(self, *item: Any) -> None:
        """A request with no answer that must leave: :attr:`unavailable` while the
        broker is unreachable; waits while too much is unsent (the broker reads slowly)."""
        writer = self._writer
        if writer is None or writer.is_closing():
            raise self.unavailable("local broker unreachable: reconnecting")
        self._write(encode([item[0], 0, *item[1:]]))
        try:
            if writer.transport.get_write_buffer_size() > POST_BUFFER:
                await asyncio.wait_for(writer.drain(), self.timeout_s)
        except (*LOST, RuntimeError, TimeoutError) as error:
            raise self.unavailable(f"local broker unreachable: {error}") from None

    async def request(self, op: str, *args: Any) -> Any:
        """Send a request and wait for its answer; :attr:`unavailable` while the broker
        is unreachable or does not answer within :attr:`timeout_s`."""
        writer = self._writer
        if writer is None or writer.is_closing():
            raise self.unavailable("local broker unreachable: reconnecting")
        ident = next(self._ids)
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._waiting[ident] = future
        # A timer rather than asyncio.wait_for: no task per request.
        timer = loop.call_later(self.timeout_s, self._expire, future)
        try:
            self._write(encode([op, ident, *args]))
            return await future
        finally:
            timer.cancel()
            self._waiting.pop(ident, None)

    def _expire(self, future: asyncio.Future[Any]) -> None:
        if not future.done():
            future.set_exception(
                self.unavailable(f"local broker unreachable: no answer in {self.timeout_s:g} s")
            )
