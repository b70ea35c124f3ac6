"""A restarted ``dixit serve`` takes over the leases its SIGKILLed predecessor held (that process
is gone: :mod:`dixit.server.liveness`) instead of waiting for them to expire, so its rooms'
computer players and timers move again at once; a lease a live process holds is still left
alone. Each test makes the lease in the SQLite file last an hour: a server that waited for it
would never move within the test."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dixit.server.driver import lease_name
from dixit.server.liveness import lease_holder

from .harness import Client, Message, ServerProcess, create_room, join_room

HOUR_S = 3600.0


def _until(check: Callable[[], Any], what: str, timeout: float = 30.0) -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting until {what}")


class Database:
    """The server's SQLite file, read and written as another program would."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _run(self, sql: str, *args: Any) -> list[Any]:
        db = sqlite3.connect(self.path, timeout=10)
        try:
            with db:
                return db.execute(sql, args).fetchall()
        finally:
            db.close()

    def lease(self, code: str) -> tuple[str, int, float] | None:
        rows = self._run(
            "SELECT holder, epoch, expires FROM leases WHERE name = ? AND expires > ?",
            lease_name(code),
            time.time(),
        )
        return tuple(rows[0]) if rows else None

    def hold_for_an_hour(self, code: str, holder: str) -> None:
        """``holder`` has the room's lease, unexpired for an hour."""
        self._run(
            "UPDATE leases SET holder = ?, expires = ? WHERE name = ?",
            holder,
            time.time() + HOUR_S,
            lease_name(code),
        )

    def release(self, code: str) -> None:
        self._run("UPDATE leases SET expires = 0 WHERE name = ?", lease_name(code))

    def deadline_ms(self, code: str) -> int | None:
        rows = self._run("SELECT data FROM rooms WHERE code = ?", code)
        deadline = json.loads(rows[0][0]).get("deadline")
        return None if deadline is None else int(deadline["at_ms"])


def _started(tmp_path: Path) -> tuple[ServerProcess, Database]:
    path = tmp_path / "dixit.sqlite3"
    server = ServerProcess(database=f"sqlite:///{path}", workdir=tmp_path)
    server.start()
    return server, Database(path)


async def _phase(client: Client, phase: str) -> None:
    def there(_: object = None) -> bool:
        return client.view is not None and client.view["phase"] == phase

    if not there():
        await client.until(there)


def _clue(client: Client) -> Message:
    assert client.view is not None
    card = client.view["legal"]["give_clue"][0]
    return {"card": card, "clue": "a lighthouse"}


def test_a_restarted_server_drives_its_dead_predecessors_rooms_without_waiting_for_the_lease(
    tmp_path: Path,
) -> None:
    """Ann and two computer players; the server dies holding the room's lease (an hour left on
    it). Restarted, it takes the lease over: Ann's clue is answered by the computer players."""
    server, db = _started(tmp_path)

    async def main() -> None:
        ticket = create_room(server.base, "Ann", bots=2, first_storyteller="host")
        ann = Client(server.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await _phase(ann, "clue")
        code = ticket["code"]
        dead, epoch, _ = _until(lambda: db.lease(code), "the server holds the room's lease")
        server.kill()
        await ann.close()
        db.hold_for_an_hour(code, dead)

        server.start()
        await ann.connect(since=ann.version)
        assert (await ann.command("give_clue", **_clue(ann)))["type"] == "ack"
        await _phase(ann, "vote")  # both computer players handed in a card
        holder, new_epoch, _ = _until(lambda: db.lease(code), "a lease")
        assert holder != dead and new_epoch == epoch + 1
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_a_deadline_that_passed_while_the_server_was_down_plays_when_the_room_loads(
    tmp_path: Path,
) -> None:
    """Ann tells, Bo and Cy wait; a 2 s clue timer runs out while the server is down. Restarted, the
    room loads when Ann comes back and the timer plays for her at once."""
    server, db = _started(tmp_path)

    async def main() -> None:
        ticket = create_room(server.base, "Ann", first_storyteller="host", timers={"clue": 2})
        others = [join_room(server.base, ticket["code"], name) for name in ("Bo", "Cy")]
        clients = [Client(server.ws_base, t) for t in (ticket, *others)]
        ann = clients[0]
        for client in clients:
            await client.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await _phase(ann, "clue")
        code = ticket["code"]
        dead, *_ = _until(lambda: db.lease(code), "the server holds the room's lease")
        server.kill()
        for client in clients:
            await client.close()
        db.hold_for_an_hour(code, dead)
        at_ms = db.deadline_ms(code)
        assert at_ms is not None
        _until(lambda: time.time() * 1000 > at_ms + 100, "the clue's deadline passed")

        server.start()
        await ann.connect(since=ann.version)
        played = await ann.until(lambda m: m["type"] == "notice")
        assert played["code"] == "timer/auto_played" and played["seat"] == ann.seat
        await _phase(ann, "submit")
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_a_lease_a_live_process_holds_is_not_taken(tmp_path: Path) -> None:
    """The room's lease is handed (in the file) to a live process on this machine, this test's:
    the restarted server does not drive the room while it lasts, and does once it is let go."""
    server, db = _started(tmp_path)

    async def main() -> None:
        ticket = create_room(server.base, "Ann", bots=2, first_storyteller="host")
        ann = Client(server.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await _phase(ann, "clue")
        code = ticket["code"]
        _until(lambda: db.lease(code), "the server holds the room's lease")
        server.kill()
        await ann.close()
        alive = lease_holder("this-test")
        db.hold_for_an_hour(code, alive)

        server.start()
        await ann.connect(since=ann.version)
        assert (await ann.command("give_clue", **_clue(ann)))["type"] == "ack"
        await ann.drain(2.0)  # the server's driver looks at the lease at least once meanwhile
        assert ann.view is not None and ann.view["phase"] == "submit"
        lease = db.lease(code)
        assert lease is not None and lease[0] == alive
        db.release(code)
        await _phase(ann, "vote")  # now it drives: the computer players hand in their cards
        await ann.close()

    try:
        asyncio.run(main())
    finally:
        server.stop()


def test_a_killed_worker_is_started_again_and_drives_its_predecessors_rooms_at_once(
    tmp_path: Path,
) -> None:
    """``dixit serve`` supervises its worker by default: the worker SIGKILLed holding the room's
    lease (an hour left on it), its supervisor starts another from the pre-imported fork server
    (no cold start) and that one takes the lease over: Ann's clue is answered by the computer
    players. The supervisor is the same process throughout."""
    server, db = _started(tmp_path)

    async def main() -> int:
        ticket = create_room(server.base, "Ann", bots=2, first_storyteller="host")
        ann = Client(server.ws_base, ticket)
        await ann.connect()
        assert (await ann.command("start_game"))["type"] == "ack"
        await _phase(ann, "clue")
        code = ticket["code"]
        held, epoch, _ = _until(lambda: db.lease(code), "the server holds the room's lease")
        supervisor = server.proc.pid if server.proc else None
        db.hold_for_an_hour(code, held)
        dead, new = server.kill_worker()
        assert str(dead) in held and new != dead
        assert server.proc is not None and server.proc.pid == supervisor
        assert server.proc.poll() is None

        await ann.connect(since=ann.version)
        assert (await ann.command("give_clue", **_clue(ann)))["type"] == "ack"
        await _phase(ann, "vote")  # both computer players handed in a card
        holder, new_epoch, _ = _until(lambda: db.lease(code), "a lease")
        assert holder != held and str(new) in holder and new_epoch == epoch + 1
        await ann.close()
        return dead

    try:
        dead = asyncio.run(main())
    finally:
        server.stop()
    log = (tmp_path / "server.log").read_text()
    assert f"worker 1 (pid {dead}) was killed by SIGKILL; starting it again" in log
