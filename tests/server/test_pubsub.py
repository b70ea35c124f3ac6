"""Fan-out backends: in-process memory and Redis (skipped, with the reason, when unreachable)."""

from __future__ import annotations

import asyncio
import os

import pytest

from dixit.pubsub import PubSub, open_pubsub

REDIS_URL = os.environ.get("DIXIT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_unreachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return None
    except Exception as error:
        return f"Redis not reachable at {REDIS_URL}: {error}"


@pytest.fixture(params=["memory", "redis"])
def pubsub_url(request: pytest.FixtureRequest) -> str:
    if request.param == "memory":
        return "memory://"
    reason = _redis_unreachable()
    if reason:
        pytest.skip(reason)
    return REDIS_URL


async def _opened(url: str) -> PubSub:
    bus = open_pubsub(url)
    await bus.open()
    return bus


def test_messages_reach_every_subscriber_in_order(pubsub_url: str) -> None:
    async def main() -> None:
        bus = await _opened(pubsub_url)
        channel = f"test:{os.getpid()}:{id(bus)}"
        first, second = await bus.subscribe(channel), await bus.subscribe(channel)
        other = await bus.subscribe(channel + ":other")
        await asyncio.sleep(0.1)  # Redis: the subscription is live
        for i in range(5):
            await bus.publish(channel, f"m{i}")
        for sub in (first, second):
            got = [await asyncio.wait_for(sub.get(), 5) for _ in range(5)]
            assert got == [f"m{i}" for i in range(5)]
        first.close()
        assert await first.get() is None
        await bus.publish(channel, "late")
        assert await asyncio.wait_for(second.get(), 5) == "late"
        assert other.dropped == 0
        await bus.close()

    asyncio.run(main())


def test_a_slow_subscriber_loses_the_oldest_and_knows_it() -> None:
    async def main() -> None:
        bus = await _opened("memory://")
        sub = await bus.subscribe("c")
        for i in range(1030):
            await bus.publish("c", str(i))
        assert sub.dropped == 6
        assert await sub.get() == "6"
        await bus.close()

    asyncio.run(main())


def test_unknown_pubsub_url_is_refused() -> None:
    with pytest.raises(ValueError):
        open_pubsub("kafka://x")
