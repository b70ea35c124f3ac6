"""One client socket: a bounded send queue drained by its own writer task, and a rate limit."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time

from pydantic import BaseModel
from starlette.websockets import WebSocket

from .config import Limits

_ids = itertools.count(1)


class Connection:
    def __init__(self, ws: WebSocket, limits: Limits) -> None:
        self.id = next(_ids)
        self.ws = ws
        self.seat: str | None = None
        self.role = "spectator"
        self.token_hash = ""
        self.closed = False
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limits.send_queue)
        self._rate = limits.messages_per_second
        self._burst = float(limits.message_burst)
        self._tokens = self._burst
        self._stamp = time.monotonic()
        self._writer = asyncio.create_task(self._write())

    def send(self, message: BaseModel | str) -> None:
        """Queue a message; a client too slow to keep up is disconnected (it can rejoin)."""
        if self.closed:
            return
        text = message if isinstance(message, str) else message.model_dump_json()
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close()

    def close(self) -> None:
        """Send what is queued, then close the socket."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._queue.full():  # no room for the sentinel: stop now
            self._writer.cancel()
            asyncio.get_running_loop().create_task(self._close_socket())

    def allow(self) -> bool:
        """Token bucket: ``message_burst`` at once, ``messages_per_second`` sustained."""
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    break
                await self.ws.send_text(text)
        except Exception:  # the peer went away: the reader side notices and detaches
            self.closed = True
        await self._close_socket()

    async def _close_socket(self) -> None:
        self.closed = True
        with contextlib.suppress(Exception):
            await self.ws.close()

    async def wait_closed(self) -> None:
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
