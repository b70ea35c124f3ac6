"""The server deletes rooms that never started after ``--keep-lobby`` (a real ``dixit serve``
on SQLite), and keeps a room someone is in."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from pathlib import Path

from .harness import Client, ServerProcess, create_room, http


def test_rooms_that_never_start_are_deleted_and_a_room_in_use_is_kept(tmp_path: Path) -> None:
    proc = ServerProcess(
        database=f"sqlite:///{tmp_path / 'dixit.sqlite3'}",
        workdir=tmp_path,
        extra=("--keep-lobby", "2s", "--sweep-every", "0.5s", "--idle-unload", "0.5"),
    )
    proc.start()

    def stored() -> set[str]:
        with contextlib.closing(sqlite3.connect(tmp_path / "dixit.sqlite3")) as db:
            return {code for (code,) in db.execute("SELECT code FROM rooms")}

    async def scenario() -> None:
        left = [create_room(proc.base, f"P{i}")["code"] for i in range(5)]
        ticket = create_room(proc.base, "Ann")
        ann = Client(proc.ws_base, ticket)
        await ann.connect()  # in the room the whole time: in use
        try:
            # Watched in the database itself: asking the server would load (use) the rooms.
            deadline = time.monotonic() + 60
            while set(left) & stored():
                assert time.monotonic() < deadline, "rooms left alone were not deleted"
                await asyncio.sleep(0.3)
            for code in left:
                status, body = http(proc.base, "GET", f"/api/rooms/{code}")
                assert (status, body["code"]) == (404, "room/not_found")
            await asyncio.sleep(1.5)  # a few sweeps more
            assert ticket["code"] in stored()
            assert http(proc.base, "GET", f"/api/rooms/{ticket['code']}")[0] == 200
        finally:
            await ann.close()

    try:
        asyncio.run(scenario())
    finally:
        proc.stop()
