"""The host's kick in real browsers: the kicked browser is told so and cannot come back to the
room, neither to a seat nor to watch; a fresh browser (the server cannot tell) can."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from e2e_helpers import Player, create_room, join_by_link, open_player
from playwright.sync_api import expect

KICKED = "The host removed you from this room."


@pytest.fixture
def players(browser: Any, server: str) -> Iterator[Any]:
    opened: list[Player] = []

    def make(name: str) -> Player:
        p = open_player(browser, server, name)
        opened.append(p)
        return p

    yield make
    for p in opened:
        assert p.errors == [], f"{p.name}: page errors {p.errors}"
        p.close()


def test_a_kicked_browser_stays_out_of_the_room(players: Any) -> None:
    ann, bo, cy = players("Ann"), players("Bo"), players("Cy")
    code = create_room(ann)
    join_by_link(bo, code)
    expect(ann.page.get_by_test_id("seat")).to_have_count(2)
    ann.page.get_by_test_id("kick").last.click()
    expect(ann.page.get_by_test_id("seat")).to_have_count(1)
    expect(bo.page.get_by_role("alert")).to_have_text(KICKED)
    # The same browser, by the room's link again: refused with the same words, nothing joins.
    page = bo.page
    page.goto(f"/r/{code}")
    page.get_by_test_id("name").fill("Bo again")
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("error")).to_have_text(KICKED)
    page.goto(f"/r/{code}/tv")
    expect(page.locator(".joinpage .alert")).to_have_text(KICKED)
    expect(ann.page.get_by_test_id("seat")).to_have_count(1)
    # Another browser is a newcomer to the server (docs/deploy.md): it may join.
    join_by_link(cy, code)
    expect(ann.page.get_by_test_id("seat")).to_have_count(2)
