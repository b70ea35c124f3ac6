"""``dixit serve --workers 2`` as a real process tree on one port and one SQLite file, fan-out
through the supervisor's local broker: a room's sockets are served by its owner worker
whichever worker accepted them; a worker killed with SIGKILL mid-game is started again, its
players come back on both workers and play the game to the end, every player gets every
update; the supervisor stops its workers; a dependency refusing at start is one line."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from dixit.engine import replay
from dixit.engine.serialize import event_from_json
from dixit.infra.handoff import owner
from dixit.storage import open_store

from .harness import (
    Client,
    ServerProcess,
    create_room,
    free_port,
    join_room,
    play_rounds,
    postgres_schema,
)
from .test_pubsub import REDIS_URL, _redis_unreachable

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed")


def _worker_of(base: str) -> str:
    """``index:pid`` of the worker that answered one fresh HTTP connection."""
    with urllib.request.urlopen(f"{base}/api/health", timeout=5) as answer:
        return str(answer.headers["x-dixit-worker"])


def _workers_seen(base: str, within_s: float = 60.0) -> dict[str, str]:
    """index → pid, from fresh connections, once both workers have answered (a worker may
    still be starting on a busy machine)."""
    seen: dict[str, str] = {}
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        index, pid = _worker_of(base).split(":")
        seen[index] = pid
        if len(seen) == 2:
            return seen
        time.sleep(0.02)
    raise AssertionError(f"only workers {seen} answered in {within_s} s")


def _socket_worker(client: Client) -> str:
    assert client.ws is not None and client.ws.response is not None
    return str(client.ws.response.headers["x-dixit-worker"])


async def _reconnect(client: Client) -> str:
    """Close (if open) and connect again where it left off; the worker index it landed on."""
    if client.ws is not None:
        with contextlib.suppress(ConnectionClosed):
            await client.drain(0.2)  # what was sent before the socket went
        with contextlib.suppress(ConnectionClosed, OSError):
            await client.close()
        client.ws = None
    welcome = await client.connect(since=client.version)
    assert welcome["type"] == "welcome", welcome
    return _socket_worker(client).split(":")[0]


def _updates_chain(client: Client) -> int:
    """Every game update this client got, across its connections, continues the one before:
    no version skipped, none reset. The last version seen."""
    current: int | None = None
    for message in client.inbox:
        update: dict[str, Any] | None = (
            (message["game"] if message["type"] == "welcome" else message)
            if message["type"] in ("welcome", "game")
            else None
        )
        if update is None:
            continue
        assert not update["reset"], update
        if current is not None:
            assert update["from_version"] == current, (client.seat, update["from_version"], current)
        versions = [e["version"] for e in update["events"]]
        assert versions == list(range(update["from_version"] + 1, update["view"]["version"] + 1))
        current = update["view"]["version"]
    assert current is not None
    return current


async def _stored(database: str, code: str) -> tuple[Any, set[str]]:
    store = open_store(database)
    await store.open()
    try:
        events = await store.read(f"{code}:1")
    finally:
        await store.close()
    commands = {f"{e.actor}/{e.command_id}" for e in events if e.command_id}
    return replay(event_from_json(e.data) for e in events), commands


@pytest.fixture(params=["sqlite+broker", "postgresql+broker", "sqlite+redis"])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(event store URL, extra options): SQLite or a fresh PostgreSQL schema; the local
    broker, or Redis (skipped, with the reason, when PostgreSQL or Redis is unreachable)."""
    store, fanout = request.param.split("+")
    extra: tuple[str, ...] = ("--workers", "2")
    if fanout == "redis":
        reason = _redis_unreachable()
        if reason:
            pytest.skip(reason)
        extra += ("--pubsub", REDIS_URL)
    if store == "sqlite":
        yield f"sqlite:///{tmp_path / 'dixit.sqlite3'}", extra
        return
    with postgres_schema() as url:
        yield url, extra


def test_two_workers_share_a_game_and_survive_a_worker_kill(
    shared: tuple[str, tuple[str, ...]], tmp_path: Path
) -> None:
    database, extra = shared
    server = ServerProcess(database=database, workdir=tmp_path, extra=extra)
    server.start()
    rng = random.Random(13)
    acked: set[str] = set()
    try:
        workers = _workers_seen(server.base)

        async def main() -> tuple[str, list[Client]]:
            ticket = create_room(server.base, NAMES[0], max_rounds=4)  # one HTTP request
            joined = [join_room(server.base, ticket["code"], n) for n in NAMES[1:]]
            players = [Client(server.ws_base, t) for t in (ticket, *joined)]
            for client in players:
                assert (await client.connect())["type"] == "welcome"
            # Whichever worker the kernel gave a connection to, the room's owner serves it
            # (15 connections: by chance alone they would all land on one worker 1 in 16,000).
            owners = {_socket_worker(c) for c in players}
            for client in players * 2:
                owners.add(f"{await _reconnect(client)}:")
            assert len({o.split(":")[0] for o in owners}) == 1, owners
            await asyncio.gather(*(c.drain(0.3) for c in players))
            for client in players:  # joins made on either worker reached every player
                assert client.room is not None and len(client.room["seats"]) == len(NAMES)
            assert (await players[0].command("start_game"))["type"] == "ack"
            await asyncio.gather(*(c.drain(0.3) for c in players))
            assert not await play_rounds(players, rng, 4, acked)

            # SIGKILL the worker serving the room. Two players come back at once: the other
            # worker serves them itself; the rest once it is running again: it serves them, so
            # the room's players are on both workers from then on.
            index, pid = _socket_worker(players[0]).split(":")
            os.kill(int(pid), signal.SIGKILL)
            while _alive(int(pid)):  # its sockets drop as it dies: the players notice then
                await asyncio.sleep(0.01)
            for client in players[:2]:
                assert await _reconnect(client) != index
            deadline = time.monotonic() + 30
            while True:  # the supervisor starts worker `index` again, with a new pid
                seen = await asyncio.to_thread(_workers_seen, server.base)
                if seen[index] != pid:
                    break
                assert time.monotonic() < deadline, "the killed worker was not started again"
                await asyncio.sleep(0.1)
            assert server.proc is not None and server.proc.poll() is None
            for client in players[2:]:
                assert await _reconnect(client) == index
            await asyncio.gather(*(c.drain(0.3) for c in players))
            assert await play_rounds(players, rng, 200, acked), "the game did not finish"
            await asyncio.gather(*(c.drain(0.3) for c in players))
            for client in players:
                await client.close()
            return ticket["code"], players

        code, players = asyncio.run(main())
        assert len(workers) == 2
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert "was killed by SIGKILL; starting it again" in log
    fanout = "Redis" if "--pubsub" in extra else "local broker"
    assert f"2 workers, fan-out: {fanout})" in log

    state, stored_commands = asyncio.run(_stored(database, code))
    assert state.phase.value == "over"
    assert acked <= stored_commands  # nothing acknowledged was lost
    last = len(asyncio.run(_read_all(database, code)))
    for client in players:
        assert client.view is not None and client.view["scores"] == state.scores
        assert _updates_chain(client) == last  # every player got every update


def test_a_socket_passed_to_a_worker_that_dies_before_taking_it_is_served_where_it_landed(
    tmp_path: Path,
) -> None:
    # The owner is stopped, so the other worker gets the connection and passes it into the
    # owner's queue; the owner is then killed with it there (as one whose last thread was
    # still exiting): the worker that passed it answers it instead of losing it.
    database = f"sqlite:///{tmp_path / 'dixit.sqlite3'}"
    server = ServerProcess(database=database, workdir=tmp_path, extra=("--workers", "2"))
    server.start()
    try:
        workers = _workers_seen(server.base)
        ticket = create_room(server.base, NAMES[0])
        index = str(owner(ticket["code"], 2))
        pid = int(workers[index])

        async def main() -> str:
            client = Client(server.ws_base, ticket)
            os.kill(pid, signal.SIGSTOP)
            try:
                while _state(pid) != "T":  # stopped before anything is sent
                    await asyncio.sleep(0.01)
                connecting = asyncio.create_task(client.connect())
                await asyncio.sleep(1.0)  # handed over, and waiting in the stopped owner's queue
                assert not connecting.done()
            finally:
                os.kill(pid, signal.SIGKILL)
            assert (await connecting)["type"] == "welcome"
            served_by = _socket_worker(client).split(":")[0]
            await client.close()
            return served_by

        assert asyncio.run(main()) != index
    finally:
        server.stop()


async def _read_all(database: str, code: str) -> list[Any]:
    store = open_store(database)
    await store.open()
    try:
        return await store.read(f"{code}:1")
    finally:
        await store.close()


def test_the_supervisor_stops_its_workers_and_they_stop_without_it(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'dixit.sqlite3'}"
    extra = ("--workers", "2", "--log-level", "info")
    server = ServerProcess(database=database, workdir=tmp_path, extra=extra)
    server.start()
    pids = [int(pid) for pid in _workers_seen(server.base).values()]
    assert server.proc is not None
    tree = _descendants(server.proc.pid)  # the workers and their fork server
    assert set(pids) < tree
    server.proc.send_signal(signal.SIGTERM)
    assert server.proc.wait(30) == 0
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in tree):
        assert time.monotonic() < deadline, "processes outlived their supervisor's stop"
        time.sleep(0.1)
    log = (tmp_path / "server.log").read_text()
    assert "[supervisor] dixit.workers: stopped" in log
    assert "[worker 1 pid " in log and "[worker 2 pid " in log  # each line says who wrote it

    server.start()  # again, then the supervisor is killed: its workers stop by themselves
    pids = [int(pid) for pid in _workers_seen(server.base).values()]
    assert server.proc is not None
    tree = _descendants(server.proc.pid)
    assert set(pids) < tree
    server.kill()
    deadline = time.monotonic() + 30
    while any(_alive(pid) for pid in tree):
        assert time.monotonic() < deadline, "workers outlived their supervisor"
        time.sleep(0.1)


def _descendants(root: int) -> set[int]:
    """Every process below ``root`` now (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    parents[int(entry)] = int(stat.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
    found: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        for child, parent in parents.items():
            if parent == pid and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _state(pid: int) -> str:
    """The process's state letter (R, S, T, Z …); empty once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def _alive(pid: int) -> bool:
    # A zombie (exited, not yet reaped by its parent) counts as gone.
    return _state(pid) not in ("", "Z")


def test_a_dependency_refusing_at_start_is_one_line_with_workers(tmp_path: Path) -> None:
    for option, url, what in (
        ("--database", f"postgresql://postgres@127.0.0.1:{free_port()}/x", "PostgreSQL"),
        ("--pubsub", f"redis://127.0.0.1:{free_port()}/0", "Redis"),
        ("--database", "memory://", "shared event store"),
    ):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "dixit.cli.main",
                "serve",
                "--workers",
                "2",
                "--port",
                str(free_port()),
                "--data-dir",
                str(tmp_path),
                option,
                url,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        (line,) = done.stderr.splitlines()
        assert line.startswith("dixit serve: cannot start: ") and what in line


def test_a_port_in_use_is_one_line_with_workers(tmp_path: Path) -> None:
    import socket

    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "dixit.cli.main",
                "serve",
                "--workers",
                "2",
                "--port",
                str(port),
                "--data-dir",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2
    (line,) = done.stderr.splitlines()
    assert line.startswith(f"dixit serve: cannot start: cannot listen on 127.0.0.1:{port}")


# One worker's share of the contention below: every write is a read-modify-write with an
# expected version, retried on VersionConflict, as the server's room code does.
CONTENDER = """
import asyncio, os, sys
from dixit.storage import RoomRecord, VersionConflict, open_store

async def main():
    store = open_store(sys.argv[1])
    await store.open()
    me = f"worker-{os.getpid()}"
    lease = await store.acquire_lease("room:R1", me, 60)
    print("lease", lease is not None, flush=True)
    sys.stdin.readline()  # every contender has tried the lease: go
    for i in range(int(sys.argv[2])):
        while True:
            found = await store.get_room("R1")
            try:
                if found is None:
                    await store.put_room(RoomRecord("R1", {"n": 1, "by": [me]}), 0)
                else:
                    data = {"n": found.data["n"] + 1, "by": found.data["by"] + [me]}
                    await store.put_room(RoomRecord("R1", data), found.version)
                break
            except VersionConflict:
                continue
        while True:
            version = len(await store.read("R1:1"))
            try:
                await store.append("R1:1", version, [{"by": me, "i": i}])
                break
            except VersionConflict:
                continue
    await store.close()
    print("done", flush=True)

asyncio.run(main())
"""


def test_sqlite_versioned_writes_and_leases_hold_across_processes(tmp_path: Path) -> None:
    """Three processes on one SQLite file, as three workers: one lease holder; every
    compare-and-set and expected-version append retried until it lands, none lost."""
    database = f"sqlite:///{tmp_path / 'dixit.sqlite3'}"
    asyncio.run(_read_all(database, "R0"))  # the schema, as the supervisor's preflight makes it
    each = 60
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", CONTENDER, database, str(each)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    try:
        leases = []
        for proc in procs:
            assert proc.stdout is not None
            leases.append(proc.stdout.readline().split())
        assert sorted(held for _, held in leases) == ["False", "False", "True"]
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in procs:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == "done"
            assert proc.wait(60) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            for pipe in (proc.stdin, proc.stdout):
                if pipe is not None:
                    pipe.close()

    async def check() -> None:
        store = open_store(database)
        await store.open()
        try:
            found = await store.get_room("R1")
            events = await store.read("R1:1")
        finally:
            await store.close()
        assert found is not None and found.data["n"] == 3 * each == len(found.data["by"])
        assert found.version == 3 * each
        assert len(events) == 3 * each
        by: dict[str, list[int]] = {}
        for event in events:
            by.setdefault(event.data["by"], []).append(event.data["i"])
        assert sorted(by.values()) == [list(range(each))] * 3  # each in its own order

    asyncio.run(check())
