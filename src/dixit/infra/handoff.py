"""Under ``dixit serve --workers N``, every socket of a room is served by one worker.

The kernel hands each new connection to any worker. A room whose sockets were spread over
workers works (each change reaches the others through the fan-out and is read back from the
store), but costs every worker the room: one move was a write on one worker and a read, a
fan-out delivery and four views on the other — about three times the CPU of a room served by
one process. So a worker that receives the opening handshake of a room another worker owns
(the owner of ``/ws/CODE`` is ``crc32(CODE) mod N``) passes the connection on before answering
it: the socket's descriptor and the request's bytes go to the owner over a Unix socket
(``SCM_RIGHTS``), and the owner answers the handshake as if it had accepted the connection.
When the owner cannot take it (it is restarting), the worker serves the socket itself.

The owner confirms each socket it has taken with one byte. Until then the passing worker
keeps its own copy: an owner that dies with the socket still in its queue (killed a moment
before, its last thread not yet gone) closes the link unconfirmed, and the passing worker
serves the socket itself instead of losing it.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import logging
import os
import socket
import zlib
from collections.abc import Callable
from pathlib import Path

log = logging.getLogger("dixit.infra")

MAX_REQUEST = 64 * 1024  # a handshake request larger than this is served where it landed
TAKEN = b"t"  # the owner's confirmation
# An owner that neither confirms nor closes the link in this time is alive but busy: the
# socket stays in its queue and it answers when it gets to it.
CONFIRM_S = 5.0


def owner(code: str, workers: int) -> int:
    """The worker (1 … ``workers``) that serves room ``code``'s sockets."""
    return zlib.crc32(code.encode()) % workers + 1


def inbox_path(directory: str, index: int) -> str:
    return str(Path(directory) / f"handoff-{index}.sock")


class Handoff:
    """One worker's side: passing connections to their owners, taking those passed to it."""

    def __init__(self, directory: str, index: int, workers: int) -> None:
        self.directory = directory
        self.index = index
        self.workers = workers

    def mine(self, code: str) -> bool:
        return owner(code, self.workers) == self.index

    def pass_on(self, code: str, connection: socket.socket, request: bytes) -> socket.socket | None:
        """Send ``connection`` (and the request read from it) to the owner of ``code``: the link
        to await :meth:`taken` on, or None when the owner cannot take it now (serve it here
        then). The caller closes its copy ``connection`` either way and keeps the socket it
        was copied from open until :meth:`taken` says."""
        if len(request) > MAX_REQUEST:
            return None
        index = owner(code, self.workers)
        # A link of its own for each socket passed: connecting fails at once when the owner is
        # down, and the owner closing it unconfirmed says the socket went with the owner.
        link = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            link.setblocking(False)
            link.connect(inbox_path(self.directory, index))
            link.sendmsg(
                [request],
                [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [connection.fileno()]))],
            )
        except OSError as error:  # restarting, or its inbox is full: serve it here
            log.debug("worker %d cannot take a socket of %s now: %s", index, code, error)
            link.close()
            return None
        return link

    @staticmethod
    async def taken(link: socket.socket) -> bool:
        """Whether the owner has the socket sent on ``link``: True once it confirms (or after
        :data:`CONFIRM_S` without an answer), False when the link closes unconfirmed."""
        try:
            answer = await asyncio.wait_for(
                asyncio.get_running_loop().sock_recv(link, 1), CONFIRM_S
            )
        except TimeoutError:
            return True
        except OSError:  # reset: the owner died with the socket in its queue
            return False
        finally:
            link.close()
        return answer == TAKEN

    async def serve(self, take: Callable[[socket.socket, bytes], None]) -> None:
        """Receive the connections other workers pass here and ``take`` each (a socket in
        blocking mode off, and the request bytes already read from it), until cancelled."""
        path = inbox_path(self.directory, self.index)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)  # left by this worker's previous life
        inbox = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        inbox.bind(path)
        # Players of a room tend to arrive together (a rematch, a whole server restarting):
        # a short queue refused passes, and each refused socket was served here instead,
        # splitting its room's sockets over two workers (64 left about one in ten of 4,000
        # sockets connecting at once on a worker that was not theirs).
        inbox.listen(socket.SOMAXCONN)
        inbox.setblocking(False)
        loop = asyncio.get_running_loop()
        readers: set[socket.socket] = set()
        try:
            while True:
                peer, _ = await loop.sock_accept(inbox)
                peer.setblocking(False)
                readers.add(peer)
                loop.add_reader(peer.fileno(), self._receive, peer, take, readers)
        finally:
            for peer in readers:
                loop.remove_reader(peer.fileno())
                peer.close()
            inbox.close()
            with contextlib.suppress(FileNotFoundError):
                os.unlink(path)

    def _receive(
        self,
        peer: socket.socket,
        take: Callable[[socket.socket, bytes], None],
        readers: set[socket.socket],
    ) -> None:
        """One passed socket (the message its sender connected for), then that link closes."""
        try:
            request, fds, _, _ = socket.recv_fds(peer, MAX_REQUEST, 4)
        except BlockingIOError:
            return
        except OSError:
            request, fds = b"", []
        asyncio.get_running_loop().remove_reader(peer.fileno())
        readers.discard(peer)
        for extra in fds[1:]:
            os.close(extra)
        if fds:
            connection = socket.socket(fileno=fds[0])
            connection.setblocking(False)
            try:
                take(connection, request)
            except Exception:
                log.exception("could not take a socket passed by another worker")
                connection.close()  # unconfirmed: the worker that passed it serves it
            else:
                with contextlib.suppress(OSError):  # the sender waited no longer: it is ours
                    peer.send(TAKEN)
        peer.close()
