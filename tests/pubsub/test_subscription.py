"""The bounded subscription queue every backend uses, and its gap report."""

from __future__ import annotations

import asyncio
import json

from dixit.pubsub import GAP, MemoryPubSub


def test_a_gap_is_delivered_in_order_and_counted() -> None:
    async def main() -> None:
        bus = MemoryPubSub()
        await bus.open()
        await bus.check()
        sub = await bus.subscribe("c")
        await bus.publish("c", "one")
        sub.gap()
        await bus.publish("c", "two")
        assert [await sub.get() for _ in range(3)] == ["one", GAP, "two"]
        assert (sub.gaps, sub.dropped) == (1, 1)
        assert json.loads(GAP)["origin"] is None  # never mistaken for a process's own change
        await bus.close()
        assert await sub.get() is None

    asyncio.run(main())


def test_a_full_queue_drops_the_oldest_and_says_so() -> None:
    async def main() -> None:
        bus = MemoryPubSub()
        sub = await bus.subscribe("c")
        sub._size = 2
        for text in ("a", "b", "c"):
            await bus.publish("c", text)
        assert sub.dropped == 1
        assert [await sub.get(), await sub.get()] == ["b", "c"]

    asyncio.run(main())
