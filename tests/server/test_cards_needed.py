"""The room says how many cards its rules need for the players seated (the lobby's "not enough
cards" names the number)."""

from __future__ import annotations

from dixit.engine import rules_for
from dixit.protocol import messages as m
from dixit.server.roomview import cards_needed

from .harness import ServerProcess, create_room, http, join_room


def test_cards_needed_follow_the_rules_and_the_seats() -> None:
    classic = m.RoomSettings()
    # Three players hold seven cards and put five on the table; four hold six and put four.
    assert cards_needed(classic, 3) == 3 * 7 + 5
    assert cards_needed(classic, 4) == rules_for("classic").min_deck_size_for(4) == 4 * 6 + 4
    # Before the table is full, at least for the fewest players the rules allow.
    assert cards_needed(classic, 1) == cards_needed(classic, 3)
    assert cards_needed(m.RoomSettings(edition="2021"), 8) == 8 * 6 + 8


def test_the_room_state_carries_them(server: ServerProcess) -> None:
    ticket = create_room(server.base, "Ann", bots=2)
    code = ticket["code"]
    status, room = http(server.base, "GET", f"/api/rooms/{code}")
    assert status == 200 and room["cards_needed"] == 3 * 7 + 5
    join_room(server.base, code, "Bo")
    status, room = http(server.base, "GET", f"/api/rooms/{code}")
    assert status == 200 and room["cards_needed"] == 4 * 6 + 4
