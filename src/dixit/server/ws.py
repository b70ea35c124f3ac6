"""The WebSocket endpoint: hello (token, last version seen), then commands until it closes."""

from __future__ import annotations

import asyncio
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from dixit.protocol import ProtocolError, parse_client_message
from dixit.protocol import messages as m

from . import errors as err
from .connection import Connection
from .hub import Hub
from .tokens import token_hash

log = logging.getLogger("dixit.server")


async def room_socket(ws: WebSocket, hub: Hub, code: str) -> None:
    await ws.accept()
    limits = hub.services.config.limits
    conn = Connection(ws, limits)
    room = await hub.get(code)
    if room is None:
        conn.send(m.Closed(code=err.ROOM_NOT_FOUND, message=f"no room {code!r}"))
        conn.close()
        await conn.wait_closed()
        return
    attached = False
    try:
        while True:
            if attached:
                text = await ws.receive_text()
            else:
                text = await asyncio.wait_for(ws.receive_text(), limits.hello_timeout_s)
            if not conn.allow():
                conn.send(m.Error(id=None, code=err.RATE, message="too many messages; slow down"))
                continue
            try:
                msg = parse_client_message(text)
            except ProtocolError as error:
                conn.send(m.Error(id=error.command_id, code=error.code, message=error.message))
                continue
            if attached:
                await room.handle(conn, msg)
                continue
            if not isinstance(msg, m.Hello):
                conn.send(
                    m.Error(
                        id=getattr(msg, "id", None),
                        code=err.HELLO_REQUIRED,
                        message="say hello with your seat token first",
                    )
                )
                continue
            who = room.authenticate(msg.token)
            if who is None:
                conn.send(m.Closed(code=err.BAD_TOKEN, message="this token opens no seat here"))
                conn.close()
                break
            conn.role, conn.seat = who
            conn.token_hash = token_hash(msg.token)
            room.attach(conn, msg.since, msg.game)
            attached = True
    except (TimeoutError, WebSocketDisconnect):
        pass
    except RuntimeError:  # receive after the socket closed (kicked, replaced)
        pass
    finally:
        if attached:
            room.detach(conn)
        conn.close()
        await conn.wait_closed()
