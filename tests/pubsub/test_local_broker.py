"""The local broker of ``dixit serve --workers N`` (no Redis): a real broker on a Unix socket,
real worker-side clients (two, as two workers would have), through the public URLs."""

from __future__ import annotations

import asyncio
import json
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest

from dixit.infra.broker import Broker, encode, read_frame, socket_path
from dixit.pubsub import GAP, Here, PubSubUnavailable, open_presence, open_pubsub
from dixit.pubsub.local import UnixPubSub


@asynccontextmanager
async def _broker() -> AsyncIterator[Broker]:
    with tempfile.TemporaryDirectory(prefix="dixit-broker-") as root:
        broker = Broker(Path(root) / "broker.sock")
        await broker.start()
        try:
            yield broker
        finally:
            await broker.stop()


async def _get(sub: object) -> str | None:
    return await asyncio.wait_for(sub.get(), 5)  # type: ignore[attr-defined]


def test_messages_reach_every_subscribing_worker_in_order() -> None:
    async def main() -> None:
        async with _broker() as broker:
            a, b = open_pubsub(broker.url), open_pubsub(broker.url)
            assert isinstance(a, UnixPubSub)
            await a.open()
            await b.open()
            await a.check()
            on_a, on_b = await a.subscribe("room:X"), await b.subscribe("room:X")
            second_on_b = await b.subscribe("room:X")
            other = await b.subscribe("room:Y")
            for i in range(50):
                await a.publish("room:X", f"m{i}\nwith a newline")
            for sub in (on_a, on_b, second_on_b):  # the publisher's own subscription too
                assert [await _get(sub) for _ in range(50)] == [
                    f"m{i}\nwith a newline" for i in range(50)
                ]
            await b.publish("room:Y", json.dumps({"é": "ü"}, ensure_ascii=False))
            assert json.loads(await _get(other) or "") == {"é": "ü"}
            on_b.close()
            second_on_b.close()  # b's last subscriber of room:X: b unsubscribes at the broker
            await b.check()  # the broker has handled the unsubscription by its answer
            await a.publish("room:X", "late")
            assert await _get(on_a) == "late"
            assert await _get(on_b) is None
            assert (on_a.dropped, other.dropped) == (0, 0)
            await a.close()
            await b.close()
            assert await _get(on_a) is None

    asyncio.run(main())


def test_a_publish_without_echo_skips_only_the_publisher_and_keeps_the_order() -> None:
    """A room's change notes (``echo=False``): no round trip, and the publishing worker does not
    read its own back; every other worker gets them in order with the echoed notes."""

    async def main() -> None:
        async with _broker() as broker:
            a, b = open_pubsub(broker.url), open_pubsub(broker.url)
            await a.open()
            await b.open()
            on_a, on_b = await a.subscribe("room:X"), await b.subscribe("room:X")
            for i in range(20):
                await a.publish("room:X", f"change {i}", echo=False)
                await a.publish("room:X", f"note {i}")
            expected = [m for i in range(20) for m in (f"change {i}", f"note {i}")]
            assert [await _get(on_b) for _ in expected] == expected
            assert [await _get(on_a) for _ in range(20)] == [f"note {i}" for i in range(20)]
            await a.check()  # the broker has answered everything before: nothing more came
            assert on_a._items is None and on_b._items is None
            await a.close()
            with pytest.raises(PubSubUnavailable):  # refused at once while the link is down
                await a.publish("room:X", "lost", echo=False)
            await b.close()

    asyncio.run(main())


def test_a_worker_alone_on_a_channel_casts_nothing_and_a_newcomer_hears_every_later_cast() -> None:
    """A room on one worker costs no cast; once another worker's subscription is answered,
    every change note reaches it, and when it goes the first worker stops casting again."""

    async def main() -> None:
        async with _broker() as broker:
            handled: list[str] = []
            handle = broker._handle
            broker._handle = lambda peer, item: (handled.append(item[0]), handle(peer, item))[1]  # type: ignore[method-assign]
            a, b = open_pubsub(broker.url), open_pubsub(broker.url)
            await a.open()
            await b.open()
            on_a = await a.subscribe("room:X")
            for i in range(10):
                await a.publish("room:X", f"alone {i}", echo=False)
            await a.check()
            assert "cast" not in handled
            on_b = await b.subscribe("room:X")  # answered once a has seen that b came
            assert handled.count("seen") == 1
            for i in range(10):
                await a.publish("room:X", f"change {i}", echo=False)
            assert [await _get(on_b) for _ in range(10)] == [f"change {i}" for i in range(10)]
            on_b.close()  # b unsubscribes: a is told it is alone again
            await b.check()
            await a.check()
            casts = handled.count("cast")
            await a.publish("room:X", "alone again", echo=False)
            await a.check()
            assert handled.count("cast") == casts == 10
            assert on_a._items is None
            await a.close()
            await b.close()

    asyncio.run(main())


def test_a_subscription_is_answered_only_after_the_lone_subscriber_has_seen_it() -> None:
    """The broker's side, frame by frame: the second subscriber's answer waits for the first's
    ``seen``; a third waits too while that is unconfirmed; a newer interest outranks an old
    confirmation; the last one left is told it is alone."""

    async def main() -> None:
        async with _broker() as broker:
            path = socket_path(broker.url)
            (r1, w1), (r2, w2), (r3, w3) = [
                await asyncio.open_unix_connection(path) for _ in range(3)
            ]

            async def frame(reader: asyncio.StreamReader) -> list[object]:
                return await asyncio.wait_for(read_frame(reader), 5)

            w1.write(encode(["sub", 1, "c"]))
            assert await frame(r1) == ["r", 1, False]  # alone
            w2.write(encode(["sub", 2, "c"]))
            kind, channel, on, token = await frame(r1)
            assert (kind, channel, on) == ("i", "c", 1)
            w3.write(encode(["sub", 3, "c"]))
            w3.write(encode(["ping", 4]))
            assert await frame(r3) == ["r", 4, "pong"]  # handled, but the sub not yet answered
            w1.write(encode(["seen", 0, "c", int(token) + 100]))  # not the latest: ignored
            w1.write(encode(["ping", 5]))
            assert await frame(r1) == ["r", 5, "pong"]
            w1.write(encode(["seen", 0, "c", token]))
            assert await frame(r2) == ["r", 2, True]
            assert await frame(r3) == ["r", 3, True]
            w2.write(encode(["unsub", 0, "c"]))
            w3.close()  # two leave: the last one is told it is alone
            assert await frame(r1) == ["i", "c", 0, 0]
            for writer in (w1, w2):
                writer.close()

    asyncio.run(main())


def test_a_broker_restart_is_reported_as_a_gap_and_subscriptions_come_back() -> None:
    async def main() -> None:
        async with _broker() as broker:
            bus = open_pubsub(broker.url)
            await bus.open()
            assert isinstance(bus, UnixPubSub)
            gaps: list[int] = []
            bus.on_gap.append(lambda: gaps.append(1))
            sub = await bus.subscribe("room:X")
            await bus.publish("room:X", "before")
            assert await _get(sub) == "before"

            await broker.stop()
            for _ in range(100):
                if not bus.connected:
                    break
                await asyncio.sleep(0.02)
            assert not bus.connected
            with pytest.raises(PubSubUnavailable):
                await bus.check()
            with pytest.raises(PubSubUnavailable):
                await bus.publish("room:X", "lost")
            late = await bus.subscribe("room:Z")  # subscribing while down never fails

            await broker.start()  # the same path, as a restarted supervisor would
            for _ in range(250):
                if bus.connected:
                    break
                await asyncio.sleep(0.02)
            assert bus.connected and bus.gaps == 1 and gaps == [1]
            await bus.check()
            assert await _get(sub) == GAP and await _get(late) == GAP
            assert (sub.gaps, sub.dropped) == (1, 1)
            other = open_pubsub(broker.url)  # another worker publishes: both channels are back
            await other.open()
            await other.publish("room:X", "after")
            await other.publish("room:Z", "after z")
            assert await _get(sub) == "after"
            assert await _get(late) == "after z"
            await other.close()
            await bus.close()

    asyncio.run(main())


def test_presence_from_every_worker_until_it_expires_or_leaves() -> None:
    async def main() -> None:
        async with _broker() as broker:
            a, b = open_presence(broker.url), open_presence(broker.url)
            await a.open()
            await b.open()
            ann_a, ann_b = Here("p1", "w1", "s1"), Here("p1", "w2", "s9")
            bo = Here("p2", "w1", "s2")
            assert await a.beat("R1", [ann_a, bo], 30) == [ann_a, bo]
            assert await b.beat("R1", [ann_b], 0.3) == [ann_a, ann_b, bo]
            assert await b.present("R1") == [ann_a, ann_b, bo]
            await a.leave("R1", bo)
            assert await b.present("R1") == [ann_a, ann_b]
            await asyncio.sleep(0.5)  # worker 2 stopped beating
            assert await a.present("R1") == [ann_a]
            assert await a.beat("R1", [ann_a], 30) == [ann_a]
            assert await a.beat("R1", [], 30) == [ann_a]  # a room read, nothing renewed
            assert await a.present("R2") == []
            await b.beat("R3", [ann_b], 0.1)  # a worker that dies and nobody asks about R3
            assert broker.rooms_present == 2
            broker.sweep_every_s = 0.05
            await broker.stop()
            await broker.start()  # the sweeper, at the new pace
            await asyncio.sleep(0.3)
            assert broker.rooms_present == 1  # R1 still beats, R3 is gone
            await broker.stop()
            await asyncio.sleep(0.1)
            with pytest.raises(PubSubUnavailable):
                await a.beat("R1", [ann_a], 30)
            await a.close()
            await b.close()

    asyncio.run(main())


def test_an_absent_broker_refuses_at_open_and_bad_urls_are_refused() -> None:
    async def main() -> None:
        with tempfile.TemporaryDirectory() as root:
            bus = open_pubsub(f"unix://{root}/none.sock")
            with pytest.raises(PubSubUnavailable, match="local broker unreachable"):
                await bus.open()

    asyncio.run(main())
    with pytest.raises(ValueError):
        socket_path("unix://relative.sock")
    with pytest.raises(ValueError):
        open_presence("unix:relative")
