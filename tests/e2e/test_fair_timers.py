"""Fair timers and a fair opening claim, in the browser: a person who misses a deadline keeps
the seat and reads what was played for them; a table where every person is late pauses until
one taps "I'm here"; a person who is gone gets the seat back on return with the account; the
opening claim says who claims it and when, and a chosen card never carries over to another
player's clue."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from e2e_helpers import PHONE, Player, api, messages, wait_turn
from playwright.sync_api import expect

EN = messages("en")


def seat_in_room(p: Player, base: str, **settings: Any) -> dict[str, Any]:
    """A room made through the API, its ticket stored as the home page would store it."""
    ticket: dict[str, Any] = api(base, "POST", "/api/rooms", {"name": p.name, "settings": settings})
    remember(p, ticket)
    return ticket


def join(p: Player, base: str, code: str) -> dict[str, Any]:
    ticket: dict[str, Any] = api(base, "POST", f"/api/rooms/{code}/join", {"name": p.name})
    remember(p, ticket)
    return ticket


def remember(p: Player, ticket: dict[str, Any]) -> None:
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )


def seat(base: str, code: str, seat_id: str) -> dict[str, Any]:
    room = api(base, "GET", f"/api/rooms/{code}")
    found: dict[str, Any] = next(s for s in room["seats"] if s["id"] == seat_id)
    return found


def until(p: Player, condition: Callable[[], bool], tries: int = 100) -> None:
    """Ask the server again every 0.1 s until ``condition`` holds (10 s at most)."""
    for _ in range(tries):
        if condition():
            return
        p.page.wait_for_timeout(100)
    raise AssertionError("the server never said so")


def start_game(host: Player, code: str) -> None:
    host.page.goto(f"/r/{code}")
    host.page.get_by_test_id("start").click()
    expect(host.page.get_by_test_id("game")).to_be_visible()


def played_clue(n: int) -> str:
    """The account's line for a clue told in round ``n``, up to the clue itself."""
    return EN["clock.playedClue"].replace("{n}", str(n)).split("{clue}")[0]


def test_a_present_player_who_misses_a_deadline_keeps_the_seat(opened: Any, server: str) -> None:
    ann, bo = opened("Ann", viewport=PHONE), opened("Bo")
    ticket = seat_in_room(ann, server, bots=1, first_storyteller="host", timers={"clue": 2})
    code = ticket["code"]
    join(bo, server, code)
    bo.page.goto(f"/r/{code}")
    start_game(ann, code)
    wait_turn(ann, "yourClue")
    # Ann tells nothing: the timer tells one clue for her, and her seat stays hers.
    away = ann.page.get_by_test_id("away")
    expect(away).to_contain_text(EN["clock.late"])
    expect(ann.page.get_by_test_id("account")).to_contain_text(played_clue(1))
    mine = seat(server, code, ticket["seat"])
    assert not mine["is_bot"] and not mine["autoplay"] and mine["late"]
    ann.page.get_by_test_id("here").click()
    expect(away).to_have_count(0)
    mine = seat(server, code, ticket["seat"])
    assert not mine["late"] and mine["played_for"] == []


def test_a_table_where_every_person_is_late_pauses_until_one_is_here(
    opened: Any, server: str
) -> None:
    ann = opened("Ann")
    ticket = seat_in_room(ann, server, bots=2, first_storyteller="host", timers={"clue": 2})
    code = ticket["code"]
    start_game(ann, code)
    expect(ann.page.get_by_test_id("away")).to_contain_text(EN["clock.paused"])
    game = ann.page.get_by_test_id("game")
    expect(game).to_have_attribute("data-phase", "submit")
    before = api(server, "GET", f"/api/rooms/{code}")
    assert before["paused"] and before["deadline"] is None
    # The computer players would put their cards in within a second: paused, none does.
    ann.page.wait_for_timeout(2000)
    assert api(server, "GET", f"/api/rooms/{code}")["version"] == before["version"]
    expect(game).to_have_attribute("data-phase", "submit")
    ann.page.get_by_test_id("here").click()
    expect(ann.page.get_by_test_id("away")).to_have_count(0)
    expect(game).not_to_have_attribute("data-phase", "submit")  # the table went on


def test_a_gone_players_seat_goes_to_the_computer_and_comes_back_with_the_account(
    opened: Any, server: str
) -> None:
    ann, bo = opened("Ann", viewport=PHONE), opened("Bo")
    ticket = seat_in_room(ann, server, bots=1, first_storyteller="host", timers={"clue": 2})
    code = ticket["code"]
    join(bo, server, code)
    bo.page.goto(f"/r/{code}")
    start_game(ann, code)
    ann.page.goto("/")  # Ann leaves the table (page) before her clue's timer runs out
    expect(bo.page.get_by_test_id("game")).to_have_attribute("data-phase", "submit")
    # The computer plays for her (Bo's list says so once the room says so).
    until(bo, lambda: bool(seat(server, code, ticket["seat"])["autoplay"]))
    ann.page.goto(f"/r/{code}")
    expect(ann.page.get_by_test_id("account")).to_contain_text(played_clue(1))
    mine = seat(server, code, ticket["seat"])
    assert not mine["is_bot"] and not mine["autoplay"]  # back: hers at once
    ann.page.get_by_test_id("here").click()
    expect(ann.page.get_by_test_id("away")).to_have_count(0)


def test_the_opening_claim_says_who_and_when_and_a_choice_does_not_carry_over(
    opened: Any, server: str
) -> None:
    ann = opened("Ann", viewport=PHONE)
    ticket = seat_in_room(ann, server, bots=2, first_storyteller="claim")
    code = ticket["code"]
    start_game(ann, code)
    claim = ann.page.get_by_test_id("claim")
    expect(claim).to_contain_text(EN["clock.claimOpen"])
    room = api(server, "GET", f"/api/rooms/{code}")
    by = next(s["name"] for s in room["seats"] if s["id"] == room["claim"]["by"])
    expect(claim).to_contain_text(by)
    # Ann chooses a card and hesitates: the computer claims it (9 s here), and her card is
    # not chosen any more for what comes next.
    ann.page.locator("[data-testid=hand] button.card-face:not([disabled])").first.click()
    expect(ann.page.locator("[data-testid=hand] .is-selected")).to_have_count(1)
    expect(ann.page.get_by_test_id("game")).to_have_attribute(
        "data-phase", "submit", timeout=20_000
    )
    expect(claim).to_have_count(0)
    expect(ann.page.locator("[data-testid=hand] .is-selected")).to_have_count(0)


def test_a_time_bank_is_drawn_on_before_a_move_is_played(opened: Any, server: str) -> None:
    ann = opened("Ann")
    timers = {"clue": 2, "bank": 3}
    ticket = seat_in_room(ann, server, bots=2, first_storyteller="host", timers=timers)
    start_game(ann, ticket["code"])
    wait_turn(ann, "yourClue")
    expect(ann.page.get_by_test_id("hurry")).to_contain_text(EN["clock.bank"].split(":")[0])
    expect(ann.page.get_by_test_id("away")).to_contain_text(EN["clock.paused"])
    mine = seat(server, ticket["code"], ticket["seat"])
    assert mine["bank_left"] == 0 and mine["played_for"][0]["phase"] == "clue"


def test_the_host_sets_a_time_bank_when_making_the_room(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE)
    page = ann.page
    page.goto("/")
    page.get_by_test_id("name").fill("Ann")
    page.locator("details.more > summary").click()
    page.get_by_test_id("timer-clue").fill("60")
    page.get_by_test_id("timer-bank").fill("90")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    summary = page.get_by_test_id("rules-summary")
    expect(summary).to_contain_text(f"{EN['rules.timer.bank']} 90 s")
    code = page.get_by_test_id("room-code").inner_text().strip()
    assert api(server, "GET", f"/api/rooms/{code}")["settings"]["timers"]["bank"] == 90
