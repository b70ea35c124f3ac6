"""Passing a room's socket to its owner worker (:mod:`dixit.server.handoff`): the owner
confirms what it took; an owner that dies with the socket in its queue, or cannot take it,
leaves it to the worker that passed it, which can still serve it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
from collections.abc import AsyncIterator, Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from dixit.server import handoff
from dixit.server.handoff import Handoff, inbox_path, owner

REQUEST = b"GET /ws/ROOM HTTP/1.1\r\nhost: x\r\n\r\n"


def _in_a_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return run


def _code_of(index: int) -> str:
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


def _passed_to_an_owner_not_accepting(
    tmp_path: Path,
) -> tuple[socket.socket, socket.socket, socket.socket, socket.socket]:
    """An owner's inbox that listens but accepts nothing yet, and a socket passed into it:
    (the inbox, the client's end, the sender's end, the sender's link)."""
    inbox = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    inbox.bind(inbox_path(str(tmp_path), 1))
    inbox.listen(8)
    client, accepted = socket.socketpair()
    link = Handoff(str(tmp_path), 2, 2).pass_on(_code_of(1), accepted, REQUEST)
    assert link is not None
    return inbox, client, accepted, link


def _still_ours(client: socket.socket, kept: socket.socket) -> None:
    """The sender's socket still reaches the client: it can serve it itself."""
    with client, kept:
        kept.sendall(b"served here")
        assert client.recv(64) == b"served here"


@_in_a_loop
async def test_the_owner_confirms_a_socket_it_took(tmp_path: Path) -> None:
    took: list[tuple[socket.socket, bytes]] = []
    async with _owner(str(tmp_path), lambda s, r: took.append((s, r))):
        client, accepted = socket.socketpair()
        link = Handoff(str(tmp_path), 2, 2).pass_on(_code_of(1), accepted, REQUEST)
        assert link is not None
        accepted.close()  # the sender's own copy goes; the owner answers
        assert await Handoff.taken(link)
        [(taken, request)] = took
        assert request == REQUEST
        taken.sendall(b"101 from the owner")
        assert client.recv(64) == b"101 from the owner"
        taken.close()
        client.close()


@_in_a_loop
async def test_an_owner_that_is_down_cannot_take_it(tmp_path: Path) -> None:
    client, accepted = socket.socketpair()
    Path(inbox_path(str(tmp_path), 1)).touch()  # left by a worker that died
    assert Handoff(str(tmp_path), 2, 2).pass_on(_code_of(1), accepted, REQUEST) is None
    _still_ours(client, accepted)


@_in_a_loop
async def test_an_owner_dying_with_the_socket_in_its_queue_leaves_it_to_the_sender(
    tmp_path: Path,
) -> None:
    # What a worker killed a moment before looks like: its inbox still listens (its last
    # thread is still going), nobody accepts, then it closes.
    inbox, client, accepted, link = _passed_to_an_owner_not_accepting(tmp_path)
    waiting = asyncio.get_running_loop().create_task(Handoff.taken(link))
    await asyncio.sleep(0.05)
    assert not waiting.done()  # no answer yet: the sender keeps its socket
    inbox.close()
    assert await waiting is False
    _still_ours(client, accepted)


@_in_a_loop
async def test_a_socket_the_owner_could_not_take_is_left_to_the_sender(
    tmp_path: Path,
) -> None:
    def refuse(connection: socket.socket, request: bytes) -> None:
        raise RuntimeError("no room for it")

    async with _owner(str(tmp_path), refuse):
        client, accepted = socket.socketpair()
        link = Handoff(str(tmp_path), 2, 2).pass_on(_code_of(1), accepted, REQUEST)
        assert link is not None
        assert await Handoff.taken(link) is False
        _still_ours(client, accepted)


@_in_a_loop
async def test_an_owner_alive_but_busy_keeps_the_socket_in_its_queue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(handoff, "CONFIRM_S", 0.05)
    inbox, client, accepted, link = _passed_to_an_owner_not_accepting(tmp_path)
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
