"""The shelf: one card book built per process for the same cards, a copy for every room."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import pytest

from dixit.bots import CardBook
from dixit.engine import Event, RoundScored
from dixit.engine.results import Outcome
from dixit.server import shelf as shelves
from dixit.server.shelf import Shelf

CARDS = [
    {"id": "t-1", "title": "A lighthouse in a storm", "keywords": ["lighthouse", "waves"]},
    {"id": "t-2", "title": "A sleeping cat", "keywords": ["cat", "cushion"]},
    {"id": "t-3", "title": "A meadow of bees", "keywords": ["flowers", "bees"]},
]


def scored(card: str, clue: str) -> RoundScored:
    return RoundScored(1, "ann", clue, card, (card,), ((card, "ann"),), (), Outcome.NOBODY, ())


class Room:
    """A :class:`~dixit.server.shelf.Source`: the test's cards and one earlier game."""

    def __init__(self, earlier: Sequence[Event]) -> None:
        self.log: Sequence[Event] = ()
        self.earlier = earlier

    def card_dicts(self) -> list[dict[str, Any]]:
        return [dict(c) for c in CARDS]  # equal cards, not the same objects

    async def events_of(self, game: int) -> Sequence[Event]:
        return self.earlier


def test_rooms_of_the_same_cards_share_one_build_and_learn_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[int] = []
    build = CardBook.from_cards

    def counted(cards: Any) -> CardBook:
        built.append(1)
        return build(cards)

    monkeypatch.setattr(CardBook, "from_cards", counted)
    monkeypatch.setattr(shelves, "_BUILT", type(shelves._BUILT)())

    async def books() -> list[CardBook]:
        rooms = [Room([scored("t-2", "zeppelin")]), Room([scored("t-3", "nuvola")]), Room([])]
        return [await Shelf(room).book_for_game(2, "it") for room in rooms]

    first, second, third = asyncio.run(books())
    assert len(built) == 1  # three rooms, one build
    assert first.clues("t-2", "it") == ["zeppelin"] and second.clues("t-2", "it") == []
    assert second.clues("t-3", "it") == ["nuvola"] and first.clues("t-3", "it") == []
    fresh = build(CARDS)
    fresh.learn("t-2", "zeppelin", "it")
    assert first.fit("zeppelin", ["t-1", "t-2", "t-3"]) == fresh.fit(
        "zeppelin", ["t-1", "t-2", "t-3"]
    )
    plain = build(CARDS)
    for clue in ("zeppelin", "nuvola"):
        assert third.fit(clue, ["t-1", "t-2", "t-3"]) == plain.fit(clue, ["t-1", "t-2", "t-3"])
    assert first.fit("nuvola", ["t-3"]) != second.fit("nuvola", ["t-3"])
    other = [{**c, "title": "Another picture"} if c["id"] == "t-3" else c for c in CARDS]
    shelves._book_of(other)
    assert len(built) == 2  # other text, another build
