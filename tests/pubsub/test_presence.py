"""Shared presence: seats' sockets on every process, expiring when their process stops
beating. Memory, and Redis (skipped with the reason when unreachable)."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from dixit.pubsub import Here, Presence, open_presence

REDIS_URL = os.environ.get("DIXIT_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_unreachable() -> str | None:
    try:
        import redis

        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
        return None
    except Exception as error:
        return f"Redis not reachable at {REDIS_URL}: {error}"


@pytest.fixture(params=["memory", "redis"])
def url(request: pytest.FixtureRequest) -> str:
    if request.param == "memory":
        return "memory://"
    reason = _redis_unreachable()
    if reason:
        pytest.skip(reason)
    return REDIS_URL


async def _pair(url: str) -> tuple[Presence, Presence]:
    a = open_presence(url)
    await a.open()
    if url.startswith("memory:"):
        return a, a
    b = open_presence(url)
    await b.open()
    return a, b


def test_entries_from_every_process_until_they_expire_or_leave(url: str) -> None:
    async def main() -> None:
        a, b = await _pair(url)
        room = f"R{uuid.uuid4().hex[:10]}"
        ann_a = Here("p1", "proc-a", "s1")
        ann_b = Here("p1", "proc-b", "s9")  # the same seat on another process
        bo = Here("p2", "proc-a", "s2")
        assert await a.beat(room, [bo, ann_a], 30) == [ann_a, bo]  # sorted
        assert await b.beat(room, [ann_b], 0.3) == [ann_a, ann_b, bo]
        assert await b.present(room) == [ann_a, ann_b, bo]
        await a.leave(room, bo)
        assert await b.present(room) == [ann_a, ann_b]
        await asyncio.sleep(0.5)  # proc-b died: no more beats
        assert await a.present(room) == [ann_a]
        assert await a.beat(room, [ann_a], 30) == [ann_a]  # renewing keeps one entry
        assert await a.present(room) == [ann_a]
        assert await a.beat(f"R{uuid.uuid4().hex[:10]}", [], 30) == []  # a read, nothing held
        assert await a.present(f"R{uuid.uuid4().hex[:10]}") == []
        for p in {id(a): a, id(b): b}.values():
            await p.close()

    asyncio.run(main())


def test_unknown_url_is_refused() -> None:
    with pytest.raises(ValueError):
        open_presence("mqtt://nope")
