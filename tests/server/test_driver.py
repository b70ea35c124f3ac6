"""One driver per room, across server processes.

Two "processes" are two hubs in this test process, each with its own origin and its own
connection to one real SQLite file, and a fan-out + presence they share: the in-process one
(the same objects, as one machine's broker would be) and real Redis (127.0.0.1:6379; skipped,
with the reason, when it is not there). Sockets are stand-ins that keep what the server sends.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Awaitable
from pathlib import Path

import pytest

from dixit.server.driver import lease_name
from dixit.server.room import Room

from .hubs import TTL_S, CountingStore, Proc, create, processes, run, stored, until, until_async
from .test_pubsub import REDIS_URL, _redis_unreachable


@pytest.fixture(params=["memory", "redis"])
def bus(request: pytest.FixtureRequest) -> str:
    if request.param == "redis":
        reason = _redis_unreachable()
        if reason:
            pytest.skip(reason)
        return REDIS_URL
    return "memory://"


# ---------------------------------------------------------------------- timers and notices


def test_one_process_fires_each_timer_and_every_seat_gets_every_notice_once(
    tmp_path: Path, bus: str
) -> None:
    """Ann and Cy on A, Bo on B, all there and none playing: each timer plays one move for
    each, their seats stay theirs, and once all three are late the table pauses. Bo says he is
    here (on B): the table goes on, and the vote's timer ends the one-round game."""

    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            timers = {"clue": 1, "submit": 1, "vote": 1}
            code, (ann, bo, cy) = await create(
                a, ["Bo", "Cy"], first_storyteller="host", max_rounds=1, timers=timers
            )
            sockets = [await a.connect(code, ann), await b.connect(code, bo)]
            sockets.append(await a.connect(code, cy))
            assert (await sockets[0].send("start_game"))["type"] == "ack"
            room_a, room_b = await a.room(code), await b.room(code)
            await until(
                lambda: room_a.room_state().paused and room_b.room_state().paused,
                "every person is late: the table paused",
            )
            assert room_a.state is not None and room_a.state.phase.value == "vote"
            assert not any(s.is_bot for s in room_a.data.seats)  # every seat still theirs
            assert (await sockets[1].send("here"))["type"] == "ack"
            await until(
                lambda: room_a.data.status == "over" and room_b.data.status == "over",
                "the vote's timer ended the game",
            )
            events = await stored(a, code)
            timer_moves = [e.actor for e in events if e.actor and e.actor.startswith("timer:")]
            # Once each per phase: Ann's clue, Bo's and Cy's cards and votes.
            assert sorted(timer_moves) == [
                "timer:p1",
                "timer:p2",
                "timer:p2",
                "timer:p3",
                "timer:p3",
            ]
            expected = [
                ("timer/auto_played", "p1"),
                ("timer/auto_played", "p2"),
                ("timer/auto_played", "p3"),
                ("timer/auto_played", "p2"),
                ("timer/auto_played", "p3"),
            ]

            def everyone_told() -> bool:
                return all(len(s.notices()) >= len(expected) for s in sockets)

            await until(everyone_told, "every socket got every notice")
            await asyncio.sleep(0.3)  # a second copy would have come by now
            for socket in sockets:
                got = socket.notices()
                assert sorted(got) == sorted(expected), (socket.conn.seat, got)
            # One process at a time played for the late: none ever met the other's write.
            assert CountingStore.conflicts == 0
            assert room_a.driver.gains + room_b.driver.gains >= 1

    run(main)


def test_a_timers_notices_leave_with_the_updates_of_its_move_and_its_hand_over(
    tmp_path: Path,
) -> None:
    """The notice goes out with the update it explains, before the change note to other
    processes is sent: a player who leaves right after the update (a browser closing the
    tab, a person back from a break reconnecting) has had the notice on the same socket.
    Each change note is held here until the test has looked at the socket."""

    async def main() -> None:
        async with processes(tmp_path, "memory", count=1) as (a,):
            code, (ann, bo, cy) = await create(
                a, ["Bo", "Cy"], first_storyteller="host", timers={"clue": 1}
            )
            bo_socket = await a.connect(code, bo)
            await a.connect(code, cy)
            ann_socket = await a.connect(code, ann)
            assert (await ann_socket.send("start_game"))["type"] == "ack"
            ann_socket.room.detach(ann_socket.conn)  # Ann is gone: her seat is handed over
            held: list[asyncio.Future[None]] = []
            publish = a.pubsub.publish

            async def holding(channel: str, message: str, *, echo: bool = True) -> None:
                if json.loads(message)["kind"] == "change":  # (not a notice)
                    held.append(asyncio.get_running_loop().create_future())
                    await held[-1]
                await publish(channel, message, echo=echo)

            a.pubsub.publish = holding  # type: ignore[method-assign]
            # Ann, the storyteller, tells no clue: the timer tells one for her.
            await until(lambda: len(held) == 1, "the timer's move, its change note held")
            assert bo_socket.messages("game")[-1]["view"]["phase"] == "submit"
            assert ("timer/auto_played", "p1") in bo_socket.notices()
            held[0].set_result(None)
            await until(lambda: len(held) == 2, "the hand-over, its change note held")
            seats = bo_socket.messages("room")[-1]["room"]["seats"]
            assert [s["autoplay"] for s in seats if s["id"] == "p1"] == [True]
            assert ("seat/autoplayed", "p1") in bo_socket.notices()
            a.pubsub.publish = publish  # type: ignore[method-assign]
            held[1].set_result(None)

    run(main)


def test_computer_players_act_once_per_phase_and_the_lease_moves_when_its_holder_dies(
    tmp_path: Path, bus: str
) -> None:
    """Ann and three computers; Ann on A, a spectator on B (both have the room loaded). Ann
    leaves once the game has started (a computer player takes her seat: a table of computers
    alone plays on). The driver is killed mid-game (no lease given back): the other takes over
    and finishes."""

    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            code, (ann,) = await create(
                a,
                [],
                bots=3,
                first_storyteller="host",
                max_rounds=3,
                timers={"clue": 1, "submit": 1, "vote": 1},
            )
            watcher = await b.hub.spectate(code)
            await a.connect(code, ann)
            await b.connect(code, watcher.token)
            room_a, room_b = await a.room(code), await b.room(code)
            assert (await a.sockets[0].send("start_game"))["type"] == "ack"
            assert (await a.sockets[0].send("leave"))["type"] == "ack"

            async def holder() -> str | None:
                lease = await a.store.lease(lease_name(code))
                return None if lease is None else lease.holder

            await until_async(lambda: _is_some(holder()), "somebody drives the room")
            await until(lambda: len(room_a.log) >= 5, "the game is under way")
            # (On a busy machine the lease may already have moved once: renewals that lag
            # past its time to live give it up. Kill whoever holds it now.)
            driver, other = (a, b) if await holder() == a.holder else (b, a)
            other_room = room_b if other is b else room_a
            driver.kill()

            async def taken_over() -> bool:
                return await holder() == other.holder

            await until_async(taken_over, "the lease moved to the survivor")
            await until(lambda: other_room.data.status == "over", "the survivor finished the game")
            assert other_room.driver.gains >= 1
            events = await stored(other, code)
            # Every move once: one storyteller clue, one submission and one vote per player
            # and round, whoever played it (the engine refuses a second; a second driver
            # would have met version conflicts instead of writing).
            kinds: dict[tuple[str, str], int] = {}
            for event in events:
                if event.actor is not None:
                    key = (event.data["type"], event.actor)
                    kinds[key] = kinds.get(key, 0) + 1
            assert all(n <= 3 for n in kinds.values()), kinds
            assert CountingStore.conflicts == 0

    run(main)


async def _games_in_play(proc: Proc, count: int) -> list[Room]:
    """``count`` games in play on ``proc`` (Ann and two computer players; Ann's clue waits),
    once ``proc`` drives them all."""
    rooms = []
    for _ in range(count):
        code, (ann,) = await create(proc, [], bots=2, first_storyteller="host")
        socket = await proc.connect(code, ann)
        assert (await socket.send("start_game"))["type"] == "ack"
        rooms.append(await proc.room(code))
    await until(lambda: all(r.driver.driving for r in rooms), "it drives every room")
    return rooms


def test_one_write_renews_every_lease_of_a_process_and_a_lease_taken_elsewhere_stops_it(
    tmp_path: Path,
) -> None:
    """Four games in play on one process: each keeper round renews all four leases in one
    statement (one ``expires`` for all, in the file). A lease another holder takes in the
    store is not renewed: that room's driver stops; the others drive on."""

    async def main() -> None:
        async with processes(tmp_path, "memory://", count=1) as (a,):
            rooms = await _games_in_play(a, 4)
            keeper = a.hub.services.leases
            db = sqlite3.connect(tmp_path / "dixit.sqlite3")

            def expiries() -> set[float]:
                rows = db.execute("SELECT expires FROM leases WHERE holder = ?", (a.holder,))
                return {expires for (expires,) in rows}

            start = keeper.rounds
            await until(lambda: keeper.rounds >= start + 2, "two renewal rounds")
            assert len(expiries()) == 1  # one statement wrote them all
            lost, *others = rooms
            with db:  # another process holds it now
                db.execute(
                    "UPDATE leases SET holder = 'elsewhere', epoch = epoch + 1, expires = ? "
                    "WHERE name = ?",
                    (time.time() + 60, lease_name(lost.code)),
                )
            await until(lambda: lost.driver.lease is None, "the old holder let the room go")
            assert not lost.driver.driving and not lost.driver.kept
            assert all(r.driver.driving and r.driver.kept for r in others)
            start = keeper.rounds
            await until(lambda: keeper.rounds >= start + 1, "another round")
            assert len(expiries()) == 1
            held = db.execute(
                "SELECT holder FROM leases WHERE name = ?", (lease_name(lost.code),)
            ).fetchone()
            assert held == ("elsewhere",)  # never taken back
            db.close()

    run(main)


def test_leases_that_run_out_while_renewals_fail_wait_for_the_keeper_not_each_driver(
    tmp_path: Path,
) -> None:
    """Renewals fail (store/busy) for longer than the lease lives: the drivers stand still,
    and none tries the failing store on its own (no lease taken meanwhile); once renewals
    work again each driver takes its expired lease back and drives on."""

    async def main() -> None:
        async with processes(tmp_path, "memory://", count=1) as (a,):
            rooms = await _games_in_play(a, 3)
            gains = [r.driver.gains for r in rooms]
            CountingStore.busy_renewals = True
            takes = CountingStore.lease_takes
            await until(lambda: not any(r.driver.driving for r in rooms), "the leases ran out")
            await asyncio.sleep(TTL_S)
            assert all(r.driver.kept for r in rooms)
            assert CountingStore.lease_takes == takes
            CountingStore.busy_renewals = False
            await until(lambda: all(r.driver.driving for r in rooms), "a drives them again")
            assert [r.driver.gains for r in rooms] == [n + 1 for n in gains]  # read the room

    run(main)


async def _is_some(value: Awaitable[str | None]) -> bool:
    return await value is not None


# ---------------------------------------------------------------------- store errors


def test_a_held_sqlite_lock_delays_the_timer_but_never_stops_it(tmp_path: Path) -> None:
    """An outside writer holds the SQLite lock across the deadline: writes fail with
    store/busy meanwhile (lease renewals too); once it lets go the timer still plays, and then
    the computer player submits."""

    async def main() -> None:
        async with processes(tmp_path, "memory://", count=1, lock_wait_s=0.2) as (a,):
            code, (ann, _bo, _cy) = await create(
                a, ["Bo", "Cy"], bots=1, first_storyteller="host", timers={"clue": 3}
            )
            ann_socket = await a.connect(code, ann)
            room = await a.room(code)
            assert (await ann_socket.send("start_game"))["type"] == "ack"
            await until(lambda: room.driver.driving, "the room is driven")
            assert room.data.deadline is not None

            released = threading.Event()
            held = threading.Event()

            def hold_the_lock() -> None:
                db = sqlite3.connect(tmp_path / "dixit.sqlite3", isolation_level=None)
                db.execute("BEGIN IMMEDIATE")
                held.set()
                released.wait(30)
                db.execute("ROLLBACK")
                db.close()

            holder = threading.Thread(target=hold_the_lock)
            holder.start()
            try:
                await asyncio.to_thread(held.wait, 10)
                # Past the deadline, and past the lease's time: nothing could be written.
                at = room.data.deadline.at_ms / 1000
                while time.time() < at + TTL_S * 3:
                    await asyncio.sleep(0.05)
                assert not [e for e in await stored(a, code) if e.actor == "timer:p1"]
            finally:
                released.set()
                await asyncio.to_thread(holder.join)

            await until(
                lambda: ("timer/auto_played", "p1") in ann_socket.notices(),
                "the timer played once the lock was free",
            )
            timer_moves = [e for e in await stored(a, code) if e.actor == "timer:p1"]
            assert len(timer_moves) == 1
            bot = next(s.id for s in room.data.seats if s.is_bot and not s.person)

            async def submitted() -> bool:
                return any(e.actor == f"bot:{bot}" for e in await stored(a, code))

            await until_async(submitted, "the computer player submitted")

    run(main)


@pytest.mark.parametrize("failure", ["busy", "stale"])
def test_a_store_error_on_the_timer_move_is_tried_again(tmp_path: Path, failure: str) -> None:
    """The lease stays fine; the timer's own write fails three times (store/busy, or a version
    conflict as if another process wrote first): it is tried again (backing off, or after
    reading the room again) until it is stored, once."""

    async def main() -> None:
        async with processes(tmp_path, "memory://", count=1) as (a,):
            code, (ann, _bo, _cy) = await create(
                a, ["Bo", "Cy"], first_storyteller="host", timers={"clue": 1}
            )
            ann_socket = await a.connect(code, ann)
            if failure == "busy":
                CountingStore.busy_timer_moves = 3
            else:
                CountingStore.stale_timer_moves = 3
            assert (await ann_socket.send("start_game"))["type"] == "ack"
            await until(
                lambda: ("timer/auto_played", "p1") in ann_socket.notices(),
                "the timer played after the store let it",
            )
            assert CountingStore.busy_timer_moves == CountingStore.stale_timer_moves == 0
            timer_moves = [e for e in await stored(a, code) if e.actor == "timer:p1"]
            assert len(timer_moves) == 1
            assert ann_socket.notices().count(("timer/auto_played", "p1")) == 1

    run(main)


# ---------------------------------------------------------------------- presence


def test_connected_flags_agree_on_both_processes(tmp_path: Path, bus: str) -> None:
    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            code, (ann, bo, _cy) = await create(a, ["Bo", "Cy"])
            await a.connect(code, ann)
            bo_socket = await b.connect(code, bo)
            room_a, room_b = await a.room(code), await b.room(code)

            def flags(room: Room) -> dict[str, bool]:
                return {s.id: s.connected for s in room.room_state().seats}

            want = {"p1": True, "p2": True, "p3": False}
            await until(lambda: flags(room_a) == flags(room_b) == want, "both see Ann and Bo")
            # A's sockets were told that Bo (on B) is connected.
            last = a.sockets[0].messages("room")[-1]["room"]
            assert [s["connected"] for s in last["seats"]] == [True, True, False]

            room_b.detach(bo_socket.conn)
            want = {"p1": True, "p2": False, "p3": False}
            await until(lambda: flags(room_a) == flags(room_b) == want, "both see Bo gone")

    run(main)


def test_a_seat_connecting_on_another_process_closes_its_old_socket(
    tmp_path: Path, bus: str
) -> None:
    async def main() -> None:
        async with processes(tmp_path, bus) as (a, b):
            code, (ann, bo) = await create(a, ["Bo"])
            old = await a.connect(code, ann)
            other = await a.connect(code, bo)
            await asyncio.sleep(0.2)  # Ann's first socket is known everywhere
            new = await b.connect(code, ann)
            await until(lambda: old.wire.closed, "Ann's socket on A was closed")
            closed = old.messages("closed")
            assert [c["code"] for c in closed] == ["auth/replaced"]
            assert not new.wire.closed and not new.messages("closed")
            assert not other.wire.closed
            room_a, room_b = await a.room(code), await b.room(code)
            assert old.conn.id not in room_a.fanout.conns
            await asyncio.sleep(0.3)
            assert {s.id: s.connected for s in room_a.room_state().seats} == {
                "p1": True,
                "p2": True,
            }
            assert room_b.online() == {"p1", "p2"}

    run(main)
