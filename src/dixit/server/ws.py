"""The WebSocket endpoint, in two phases: await ``hello`` (token, last version seen), then
commands until the socket closes.

Every frame is answered or closes the socket with a documented code: unreadable text gets an
``error`` (the socket stays open), a binary frame gets ``command/binary_frame``, ``ping`` is
answered in either phase. Frames over 64 KiB and text that is not UTF-8 are refused by the
WebSocket layer itself (close codes 1009 and 1007).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from dixit.infra.websocket import Socket, SocketClosed
from dixit.protocol import ProtocolError, parse_client_message
from dixit.protocol import messages as m
from dixit.protocol.codes import ErrorCode as Code
from dixit.protocol.convert import error_json

from . import lobby
from .connection import Connection
from .errors import ServerError
from .hub import Hub
from .room import Room
from .tokens import token_hash

log = logging.getLogger("dixit.server")


def _read(conn: Connection, text: str | None) -> m.ClientModel | None:
    """The message in a frame, or None after answering why it cannot be read."""
    if not conn.allow():
        conn.send(error_json(None, Code.RATE, "too many messages; slow down"))
        return None
    if text is None:
        conn.send(error_json(None, Code.BINARY_FRAME, "send JSON in text frames"))
        return None
    try:
        return parse_client_message(text)
    except ProtocolError as error:
        conn.send(error_json(error.command_id, error.code, error.message))
        return None


async def _await_hello(
    ws: Socket, conn: Connection, room: Room, timeout: float, hello_wait: Callable[[str], float]
) -> bool:
    """Phase one: until a ``hello`` opens a seat (True), or the socket must close (False).
    ``hello_wait(client)``: 0, or the seconds until the client's address may say hello."""
    async with asyncio.timeout(timeout):
        while True:
            msg = _read(conn, await ws.receive())
            if msg is None:
                continue
            if isinstance(msg, m.Ping):
                conn.send(m.Pong(id=msg.id))
                continue
            if not isinstance(msg, m.Hello):
                conn.send(
                    error_json(
                        getattr(msg, "id", None),
                        Code.HELLO_REQUIRED,
                        "say hello with your seat token first",
                    )
                )
                continue
            wait = hello_wait(ws.client)
            if wait:  # too many hellos from this address: it may reconnect later
                conn.send(error_json(None, Code.RATE, f"too many hellos; wait {wait:.0f} s"))
                return False
            who = await room.admit(msg.token)
            if who is None:
                code = lobby.refusal(room.data, token_hash(msg.token))
                conn.send(m.Closed(code=code, message="this token opens no seat here"))
                return False
            _, conn.seat = who
            seat = room.data.seat(conn.seat)
            # The seat record's own string when there is one (one fewer copy a socket keeps).
            conn.token_hash = (seat and seat.token_hash) or token_hash(msg.token)
            conn.events = msg.events
            conn.all_rounds = msg.rounds == "all"
            conn.rounds_on_catch_up = msg.rounds != "last"
            await room.attach(conn, msg.since, msg.game)
            return True


async def room_socket(
    ws: Socket, hub: Hub, code: str, hello_wait: Callable[[str], float] = lambda client: 0.0
) -> None:
    """Serve one socket of room ``code`` (the transport runs it: :mod:`.websocket`)."""
    limits = hub.services.config.limits
    conn = Connection(ws, limits)
    room = None
    try:
        room = await hub.hold(code)  # (no context manager: fewer objects a socket keeps)
        if room is None:
            conn.send(m.Closed(code=Code.ROOM_NOT_FOUND, message="no such room"))
        else:
            await _serve(ws, conn, room, limits.hello_timeout_s, hello_wait)
    except ServerError as error:  # the room could not be loaded (this server is full)
        conn.send(m.Closed(code=error.code, message=error.message))
    finally:
        if room is not None:
            hub.release(room)
    conn.close()


async def _serve(
    ws: Socket,
    conn: Connection,
    room: Room,
    hello_timeout_s: float,
    hello_wait: Callable[[str], float],
) -> None:
    """Phase one, then phase two, on a room the hub keeps loaded meanwhile."""
    attached = False
    try:
        attached = await _await_hello(ws, conn, room, hello_timeout_s, hello_wait)
        while attached and not conn.closed:
            msg = _read(conn, await ws.receive())
            if msg is not None:
                await room.handle(conn, msg)
                msg = None  # not kept alive while this socket waits (a game lasts long)
    except TimeoutError:
        conn.send(m.Closed(code=Code.HELLO_TIMEOUT, message="no hello in time"))
    except SocketClosed:
        pass
    finally:
        if attached:
            room.detach(conn)
        conn.close()
