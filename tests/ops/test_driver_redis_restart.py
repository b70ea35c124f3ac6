"""Two server "processes" (hubs on one SQLite file) with a Redis of the test's own, restarted
mid-lobby without persistence: the follower's gap makes the other process read the room again,
presence is rebuilt by the beats, and afterwards the driver's timer notices still reach every
socket exactly once."""

from __future__ import annotations

import asyncio
from pathlib import Path

from dixit.protocol import messages as m

from .services import OwnRedis, server_module

h = server_module("hubs")


def test_after_a_redis_restart_rooms_resync_presence_returns_and_notices_flow(
    own_redis: OwnRedis, tmp_path: Path
) -> None:
    async def main() -> None:
        async with h.processes(tmp_path, own_redis.url) as (a, b):
            code, (ann, bo) = await h.create(
                a, ["Bo"], first_storyteller="host", timers={"clue": 1}
            )
            sockets = [await a.connect(code, ann), await b.connect(code, bo)]
            room_a, room_b = await a.room(code), await b.room(code)
            both = {"p1", "p2"}
            await h.until(lambda: room_a.online() == room_b.online() == both, "both connected")

            own_redis.stop()
            await b.hub.join(code, m.JoinRoomRequest(name="Cy"))  # stored; its note is lost
            own_redis.start()
            await h.until(lambda: len(room_a.data.seats) == 3, "A read the join made on B")
            await h.until(lambda: room_a.online() == room_b.online() == both, "presence came back")
            dee = await b.hub.join(code, m.JoinRoomRequest(name="Dee"))
            sockets.append(await b.connect(code, dee.token))

            assert (await sockets[0].send("start_game"))["type"] == "ack"
            await h.until(
                lambda: all(("timer/auto_played", "p1") in s.notices() for s in sockets),
                "every socket was told the timer played",
            )
            await asyncio.sleep(0.3)
            for socket in sockets:
                assert socket.notices().count(("timer/auto_played", "p1")) == 1
            assert h.CountingStore.conflicts == 0

    h.run(main)
