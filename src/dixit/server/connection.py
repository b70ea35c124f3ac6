"""One client socket: ordered sends with a bounded backlog, and a rate limit.

A send usually completes at once (the server's WebSocket layer hands the frame to the
transport without waiting), so :meth:`Connection.send` starts it right away and, when it does
finish without suspending, no task or queue is involved: that saved a task wake-up per message
and per player, the bulk of a broadcast's cost besides the socket write itself. Only a send that
suspends (a WebSocket layer waiting for the peer to drain) gets a writer task; later messages
queue behind it, in order, up to ``send_queue``: a client too slow to keep up is disconnected
(it can rejoin).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import itertools
import time
from collections.abc import Coroutine, Generator
from typing import Any

from pydantic import BaseModel
from starlette.websockets import WebSocket

from .config import Limits

_ids = itertools.count(1)


class _Resume:
    """Awaiting this carries on a coroutine that was started by hand and suspended."""

    def __init__(self, coro: Coroutine[Any, Any, Any], yielded: Any) -> None:
        self._coro = coro
        self._yielded = yielded

    def __await__(self) -> Generator[Any, Any, Any]:
        coro, value = self._coro, self._yielded
        while True:
            try:
                sent = yield value
            except BaseException as error:  # cancellation: pass it on
                try:
                    value = coro.throw(error)
                except StopIteration as stop:
                    return stop.value
            else:
                try:
                    value = coro.send(sent)
                except StopIteration as stop:
                    return stop.value


class Connection:
    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.id = next(_ids)
        self.ws = ws
        self.seat: str | None = None
        self.role = "spectator"
        self.token_hash = ""
        self.events = False  # the socket asked for redacted events besides views (hello)
        self.closed = False
        self._backlog: collections.deque[str] | None = None  # made when a send suspends
        self._max_backlog = limits.send_queue
        self._writer: asyncio.Task[None] | None = None  # only while a send is suspended
        self._closer: asyncio.Task[None] | None = None
        self._rate = limits.messages_per_second
        self._burst = float(limits.message_burst)
        self._tokens = self._burst
        self._stamp = time.monotonic()

    def send(self, message: BaseModel | str) -> None:
        """Send a message, in order; a client too slow to keep up is disconnected."""
        if self.closed:
            return
        text = message if isinstance(message, str) else message.model_dump_json()
        if self._writer is not None:
            if self._backlog is None:
                self._backlog = collections.deque()
            elif len(self._backlog) >= self._max_backlog:
                self._abort()
                return
            self._backlog.append(text)
            return
        coro = self.ws.send_text(text)
        try:
            yielded = coro.send(None)
        except StopIteration:
            return
        except Exception:  # the peer went away: the reader side notices and detaches
            self._abort()
            return
        self._writer = asyncio.get_running_loop().create_task(self._write(coro, yielded))

    async def _write(self, coro: Coroutine[Any, Any, Any], yielded: Any) -> None:
        """Finish a suspended send, then the messages queued behind it."""
        try:
            await _Resume(coro, yielded)
            while self._backlog:
                await self.ws.send_text(self._backlog.popleft())
            self._backlog = None  # an idle socket keeps no queue
        except Exception:  # the peer went away: the reader side notices and detaches
            self._backlog = None
            self.closed = True
            if self._closer is None:
                self._closer = asyncio.get_running_loop().create_task(self._close_after_writes())
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None

    def close(self) -> None:
        """Send what is queued, then close the socket."""
        if self.closed:
            return
        self.closed = True
        self._closer = asyncio.get_running_loop().create_task(self._close_after_writes())

    def _abort(self) -> None:
        """Stop now: drop what is queued and close the socket."""
        self.closed = True
        self._backlog = None
        if self._writer is not None:
            self._writer.cancel()
        if self._closer is None:
            self._closer = asyncio.get_running_loop().create_task(self._close_after_writes())

    async def _close_after_writes(self) -> None:
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            await asyncio.wait({writer})  # its outcome does not matter here
        with contextlib.suppress(Exception):
            await self.ws.close()

    def allow(self) -> bool:
        """Token bucket: ``message_burst`` at once, ``messages_per_second`` sustained."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    async def wait_closed(self) -> None:
        """Wait until the socket is closed (after :meth:`close`) or its writes are done."""
        for task in (self._closer, self._writer):
            if task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
