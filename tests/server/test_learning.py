"""Computer players learn every clue told in a finished round, and a room's earlier games."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from dixit.engine import RoundScored
from dixit.protocol import messages as m
from dixit.pubsub import open_pubsub
from dixit.server.cards import card_source
from dixit.server.config import ServerConfig
from dixit.server.hub import Hub
from dixit.server.records import BotLevel, SeatKind
from dixit.server.services import Services
from dixit.storage import open_store


def test_clues_of_finished_rounds_are_learned_now_and_after_a_rematch(tmp_path: Path) -> None:
    async def main() -> None:
        store, pubsub = open_store("memory://"), open_pubsub("memory://")
        await store.open()
        await pubsub.open()
        config = ServerConfig(data_dir=tmp_path, bot_delay_s=0.0)
        hub = Hub(Services(config, store, card_source(tmp_path), pubsub, "test"))
        settings = m.RoomSettings(bots=3, max_rounds=2, first_storyteller="random", language="it")
        room, ticket = await hub.create(m.CreateRoomRequest(name="Ann", settings=settings))
        host = room.data.seat(ticket.seat)
        assert host is not None
        # Computers alone (no seat held by a person): a table whose people are all away pauses.
        async with room.lock:
            await room.commit(dataclasses.replace(room.data, seats=tuple(
                dataclasses.replace(s, kind=SeatKind.COMPUTER, level=BotLevel.EASY, token_hash=None)
                for s in room.data.seats
            )))  # fmt: skip
            await room.dispatch(host, m.StartGame(id="start"), "start")
        while room.data.status != "over":
            await asyncio.sleep(0.05)
        told = [(e.storyteller_card, e.clue) for e in room.log if isinstance(e, RoundScored)]
        assert len(told) == 2
        book = room.autoplay.shelf.book
        assert book is not None
        for card, clue in told:
            assert clue in book.clues(card, "it")
        # A new game builds a new book: it is fed the earlier game's rounds from the store.
        async with room.lock:
            await room.dispatch(host, m.Rematch(id="again"), "again")
            await room.dispatch(host, m.StartGame(id="start2"), "start2")
        while room.autoplay.shelf.book is book or room.autoplay.shelf.book is None:
            await asyncio.sleep(0.05)
        for card, clue in told:
            assert clue in room.autoplay.shelf.book.clues(card, "it")
        await hub.stop()
        await store.close()
        await pubsub.close()

    asyncio.run(main())
