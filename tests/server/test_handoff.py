"""Passing a room's socket to its owner worker (:mod:`dixit.infra.handoff`): the owner
confirms what it took; an owner that dies with the socket in its queue, or cannot take it,
leaves it to the worker that passed it, which can still serve it."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from dixit.infra import handoff
from dixit.infra.handoff import Handoff, inbox_path, owner

from .hubs import run

REQUEST = b"GET /ws/ROOM HTTP/1.1\r\nhost: x\r\n\r\n"


def code_of(index: int) -> str:
    """A room code whose sockets worker ``index`` (of 2) serves."""
    return next(c for c in ("ABCD", "BCDE", "CDEF", "DEFG") if owner(c, 2) == index)


@contextlib.asynccontextmanager
async def _owner(
    directory: str, take: Callable[[socket.socket, bytes], None]
) -> AsyncIterator[None]:
    serving = asyncio.get_running_loop().create_task(Handoff(directory, 1, 2).serve(take))
    while not Path(inbox_path(directory, 1)).exists():
        await asyncio.sleep(0.001)
    try:
        yield
    finally:
        serving.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await serving


def inbox_not_accepting(tmp_path: Path) -> socket.socket:
    """Worker 1's inbox, listening but accepting nothing yet."""
    inbox = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    inbox.bind(inbox_path(str(tmp_path), 1))
    inbox.listen(8)
    return inbox


def _pass(tmp_path: Path) -> tuple[socket.socket, socket.socket, socket.socket]:
    """Worker 2 passes a connection of worker 1's room on: (the client's end, the sender's
    end, the sender's link to await the owner's answer on)."""
    client, accepted = socket.socketpair()
    link = Handoff(str(tmp_path), 2, 2).pass_on(code_of(1), accepted, REQUEST)
    assert link is not None
    return client, accepted, link


def _still_ours(client: socket.socket, kept: socket.socket) -> None:
    """The sender's socket still reaches the client: it can serve it itself."""
    with client, kept:
        kept.sendall(b"served here")
        assert client.recv(64) == b"served here"


def test_the_owner_confirms_a_socket_it_took(tmp_path: Path) -> None:
    async def main() -> None:
        took: list[tuple[socket.socket, bytes]] = []
        async with _owner(str(tmp_path), lambda s, r: took.append((s, r))):
            client, accepted, link = _pass(tmp_path)
            accepted.close()  # the sender's own copy goes; the owner answers
            assert await Handoff.taken(link)
            [(taken, request)] = took
            assert request == REQUEST
            taken.sendall(b"101 from the owner")
            assert client.recv(64) == b"101 from the owner"
            taken.close()
            client.close()

    run(main)


def test_an_owner_that_is_down_cannot_take_it(tmp_path: Path) -> None:
    client, accepted = socket.socketpair()
    Path(inbox_path(str(tmp_path), 1)).touch()  # left by a worker that died
    assert Handoff(str(tmp_path), 2, 2).pass_on(code_of(1), accepted, REQUEST) is None
    _still_ours(client, accepted)


def test_an_owner_dying_with_the_socket_in_its_queue_leaves_it_to_the_sender(
    tmp_path: Path,
) -> None:
    # What a worker killed a moment before looks like: its inbox still listens (its last
    # thread is still going), nobody accepts, then it closes.
    async def main() -> None:
        inbox = inbox_not_accepting(tmp_path)
        client, accepted, link = _pass(tmp_path)
        waiting = asyncio.get_running_loop().create_task(Handoff.taken(link))
        await asyncio.sleep(0.05)
        assert not waiting.done()  # no answer yet: the sender keeps its socket
        inbox.close()
        assert await waiting is False
        _still_ours(client, accepted)

    run(main)


def test_a_socket_the_owner_could_not_take_is_left_to_the_sender(tmp_path: Path) -> None:
    def refuse(connection: socket.socket, request: bytes) -> None:
        raise RuntimeError("no room for it")

    async def main() -> None:
        async with _owner(str(tmp_path), refuse):
            client, accepted, link = _pass(tmp_path)
            assert await Handoff.taken(link) is False
            _still_ours(client, accepted)

    run(main)


def test_an_owner_alive_but_busy_keeps_the_socket_in_its_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handoff, "CONFIRM_S", 0.05)

    async def main() -> None:
        inbox = inbox_not_accepting(tmp_path)
        client, accepted, link = _pass(tmp_path)
        accepted.close()
        assert await Handoff.taken(link)  # no answer in time: it is the owner's to answer
        peer, _ = inbox.accept()  # the owner gets to it later: the socket is still there
        request, fds, _, _ = socket.recv_fds(peer, 4096, 1)
        assert request == REQUEST and len(fds) == 1
        with socket.socket(fileno=fds[0]) as late:
            late.sendall(b"101 later")
        assert client.recv(64) == b"101 later"
        for s in (peer, inbox, client):
            s.close()

    run(main)
