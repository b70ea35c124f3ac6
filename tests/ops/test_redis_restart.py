"""Redis fan-out through a Redis restart (a redis-server of the test's own): publishing fails
with a coded error while it is down; the listener reconnects by itself, subscribes again, and
reports the gap so that rooms resynchronise from the store."""

from __future__ import annotations

import asyncio
import time

import pytest

from dixit.pubsub import GAP, Here, PubSubUnavailable, open_presence
from dixit.pubsub.redis import RedisPubSub

from .services import OwnRedis, free_port


async def _until(condition: object, timeout_s: float = 15.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


def test_the_listener_comes_back_after_a_restart_and_reports_the_gap(own_redis: OwnRedis) -> None:
    async def main() -> None:
        a, b = RedisPubSub(own_redis.url), RedisPubSub(own_redis.url)
        await a.open()
        await b.open()
        gaps: list[int] = []
        a.on_gap.append(lambda: gaps.append(a.gaps))
        sub = await a.subscribe("dixit:room:R")
        await b.publish("dixit:room:R", "before")
        assert await asyncio.wait_for(sub.get(), 5) == "before"

        own_redis.stop()
        with pytest.raises(PubSubUnavailable) as caught:
            await b.publish("dixit:room:R", "lost")
        assert caught.value.code == "pubsub/unavailable"
        await _until(lambda: not a.connected)
        with pytest.raises(PubSubUnavailable):
            await a.check()
        later = await a.subscribe("dixit:room:S")  # joined while Redis is down: no error

        own_redis.start()
        await _until(lambda: a.connected)
        assert await asyncio.wait_for(sub.get(), 5) == GAP
        assert (sub.gaps, later.gaps, gaps) == (1, 1, [1])
        assert await asyncio.wait_for(later.get(), 5) == GAP
        await a.check()
        await b.publish("dixit:room:R", "after")
        await b.publish("dixit:room:S", "after too")
        assert await asyncio.wait_for(sub.get(), 5) == "after"
        assert await asyncio.wait_for(later.get(), 5) == "after too"
        await a.close()
        await b.close()

    asyncio.run(main())


def test_unreachable_at_open_is_one_coded_line() -> None:
    async def main() -> None:
        bus = RedisPubSub(f"redis://:secret@127.0.0.1:{free_port()}/0")
        with pytest.raises(PubSubUnavailable) as caught:
            await bus.open()
        assert "\n" not in caught.value.message and "secret" not in caught.value.message
        assert caught.value.message.startswith("Redis unreachable at redis://127.0.0.1:")

    asyncio.run(main())


def test_a_redis_that_stops_answering_is_noticed_and_publishing_does_not_hang(
    own_redis: OwnRedis,
) -> None:
    """SIGSTOP: the connections stay open and nothing answers (like a half-open connection)."""

    async def main() -> None:
        a = RedisPubSub(own_redis.url)
        a.ping_every_s, a.silence_s = 0.2, 1.0
        await a.open()
        sub = await a.subscribe("dixit:room:T")
        own_redis.pause()
        try:
            with pytest.raises(PubSubUnavailable):
                await asyncio.wait_for(a.publish("dixit:room:T", "x"), 10)
            await _until(lambda: not a.connected)
        finally:
            own_redis.resume()
        await _until(lambda: a.connected)
        assert await asyncio.wait_for(sub.get(), 5) == GAP
        await a.publish("dixit:room:T", "after")
        assert await asyncio.wait_for(sub.get(), 5) == "after"
        await a.close()

    asyncio.run(main())


def test_presence_fails_coded_while_redis_is_down_and_beats_rebuild_it(
    own_redis: OwnRedis,
) -> None:
    """A restart without persistence loses every entry; the next beats bring them back."""

    async def main() -> None:
        presence = open_presence(own_redis.url)
        await presence.open()
        ann = Here("p1", "proc-a", "s1")
        assert await presence.beat("R", [ann], 30) == [ann]
        own_redis.stop()
        with pytest.raises(PubSubUnavailable):
            await presence.beat("R", [ann], 30)
        with pytest.raises(PubSubUnavailable):
            await presence.present("R")
        own_redis.start()
        assert await presence.present("R") == []  # lost with the restart
        assert await presence.beat("R", [], 30) == []
        assert await presence.beat("R", [ann], 30) == [ann]
        assert await presence.present("R") == [ann]
        await presence.close()

    asyncio.run(main())
