"""What a player on a 360x640 phone or a 1920x1080 TV found cut off, measured against the screen:
the storyteller's chosen card, the TV lobby's talk, the TV reveal of a full table, and a phone
banner that kept room for text it did not have."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_helpers import (
    DESKTOP,
    PHONE,
    Player,
    api,
    choosable,
    join_by_link,
    messages,
    wait_turn,
)
from playwright.sync_api import Page, expect

TV = {"width": 1920, "height": 1080}
EN = messages("en")
LONG_LINE = (
    "Where the old roads end, a lantern still waits for the travellers who never came back, "
    "and every night someone new swears they saw it move a little closer to the sleeping town"
)


def seated(p: Player, base: str, **settings: Any) -> str:
    """A room made through the API with ``p`` as its host, opened in ``p``'s page."""
    ticket = api(base, "POST", "/api/rooms", {"name": p.name, "settings": settings})
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(f"/r/{ticket['code']}")
    return str(ticket["code"])


def box(page: Page, selector: str) -> dict[str, float]:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, f"{selector} is not on the page"
    return {"x": found["x"], "y": found["y"], "width": found["width"], "height": found["height"]}


def on_screen(page: Page, selector: str) -> None:
    """The element lies wholly inside the viewport."""
    size = page.viewport_size
    assert size is not None
    b = box(page, selector)
    assert b["x"] >= -0.5 and b["x"] + b["width"] <= size["width"] + 0.5, (selector, b)
    assert b["y"] >= -0.5 and b["y"] + b["height"] <= size["height"] + 0.5, (selector, b)


def no_scroll(page: Page, *, down: bool) -> None:
    """Nothing sticks out sideways (and, where ``down``, nothing below the screen either)."""
    sizes = page.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight,"
        " innerWidth, innerHeight]"
    )
    assert sizes[0] <= sizes[2], f"scrolls sideways: {sizes}"
    if down:
        assert sizes[1] <= sizes[3], f"taller than the screen: {sizes}"


def settle(page: Page) -> None:
    """Animations at their end (cards turned over, votes and points arrived)."""
    page.evaluate(
        """() => document.getAnimations().forEach(a => {
            if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish(); })"""
    )


def say(p: Player, *lines: str) -> None:
    for line in lines:
        p.page.get_by_test_id("chat-input").fill(line)
        p.page.get_by_test_id("chat-input").press("Enter")
        expect(p.page.get_by_test_id("chat-input")).to_have_value("")


@pytest.mark.parametrize("index", [2, 5])
def test_phone_storyteller_sees_the_chosen_card_whole(opened: Any, server: str, index: int) -> None:
    """A card tapped at the edge of the hand turns wholly into view, between the banner and the
    clue bar, and the clue field and its button stay on screen."""
    p = opened("Ann", viewport=PHONE, mobile=True)
    page = p.page
    seated(p, server, bots=3, first_storyteller="host")
    page.get_by_test_id("start").tap()
    wait_turn(p, "yourClue")
    page.wait_for_timeout(700)  # the scroll to the hand
    choosable(p, "hand").nth(index).tap()
    page.get_by_test_id("clue-input").fill("The long way home")
    page.wait_for_timeout(700)  # the hand turns (smoothly where motion is allowed)
    picked = "[data-testid=hand] .card.is-selected .card-face"
    expect(page.locator(picked)).to_have_count(1)
    card, row = box(page, picked), box(page, "[data-testid=hand]")
    banner, bar = box(page, "[data-testid=banner]"), box(page, ".actionbar")
    assert card["x"] >= 0 and card["x"] + card["width"] <= PHONE["width"], ("off screen", card)
    # Not clipped by the hand's own scroller (a chosen card is raised 10 px).
    assert card["x"] >= row["x"] - 0.5, ("cut off at the left", card, row)
    assert card["x"] + card["width"] <= row["x"] + row["width"] + 0.5, ("cut off", card, row)
    assert card["y"] >= row["y"] - 0.5, ("its top is cut off", card, row)
    assert card["y"] >= banner["y"] + banner["height"] - 0.5, ("under the banner", card, banner)
    assert card["y"] + card["height"] <= bar["y"] + 0.5, ("under the clue bar", card, bar)
    on_screen(page, "[data-testid=clue-input]")
    on_screen(page, "[data-testid=tell]")
    no_scroll(page, down=False)


def test_phone_card_chosen_in_the_zoom_is_whole_in_sight(opened: Any, server: str) -> None:
    """Swiped to the end of the hand in the zoom and chosen there: when the zoom closes, the hand
    has turned to that card."""
    p = opened("Ann", viewport=PHONE, mobile=True)
    page = p.page
    seated(p, server, bots=3, first_storyteller="host")
    page.get_by_test_id("start").tap()
    wait_turn(p, "yourClue")
    page.wait_for_timeout(700)
    page.locator("[data-testid=hand] .card-zoom").first.tap()
    for _ in range(5):
        page.get_by_role("button", name=EN["game.next"]).tap()
    page.get_by_test_id("zoom").get_by_role("button", name=EN["game.select"]).tap()
    expect(page.get_by_test_id("zoom")).to_have_count(0)
    picked = "[data-testid=hand] .card.is-selected .card-face"
    expect(page.locator(picked)).to_have_count(1)
    last = page.locator("[data-testid=hand] .card").last.get_attribute("data-card") or ""
    expect(page.locator("[data-testid=hand] .card.is-selected")).to_have_attribute(
        "data-card", last
    )
    page.wait_for_timeout(700)  # the hand turns
    on_screen(page, picked)


def chat_lines_shown(page: Page, lines: int) -> None:
    """The talk's last lines are on the screen and inside the log's visible part."""
    expect(page.get_by_test_id("chat-line")).to_have_count(lines)
    log = box(page, "[data-testid=chat-log]")
    shown = page.evaluate(
        """() => {
            const log = document.querySelector('[data-testid=chat-log]').getBoundingClientRect();
            return [...document.querySelectorAll('[data-testid=chat-line]')].map(l => {
              const r = l.getBoundingClientRect();
              return [Math.round(r.top), Math.round(r.bottom), r.top >= log.top - 0.5
                      && r.bottom <= log.bottom + 0.5 && r.bottom <= innerHeight + 0.5]; }); }"""
    )
    assert all(ok for _, _, ok in shown), (shown, log)


def test_tv_lobby_shows_the_talk_of_a_full_table(opened: Any, server: str) -> None:
    host = opened("Ann", viewport=DESKTOP)
    code = seated(host, server, bots=6, edition="2021")
    bo = opened("Bo", viewport=DESKTOP)
    join_by_link(bo, code)
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    expect(tv.page.get_by_test_id("lobby")).to_be_visible()
    expect(tv.page.get_by_test_id("seat")).to_have_count(8)
    say(bo, "Ready when you are!", "Who brings the snacks?")
    say(host, "Hi all, first game for me", LONG_LINE[:200])
    expect(tv.page.get_by_test_id("chat-line").last).to_contain_text("Where the old roads")
    chat_lines_shown(tv.page, 4)
    on_screen(tv.page, "[data-testid=room-code]")
    on_screen(tv.page, "[data-testid=seats]")
    # One line more: the TV keeps its last four, the newest one in sight.
    say(bo, "and one more")
    expect(tv.page.locator("[data-testid=chat-line] .chat-text").last).to_have_text("and one more")
    chat_lines_shown(tv.page, 4)
    no_scroll(tv.page, down=True)


@pytest.mark.parametrize(("edition", "bots"), [("classic", 5), ("2021", 7)], ids=["6", "8"])
def test_tv_reveal_of_a_full_table_fits_the_screen(
    opened: Any, server: str, edition: str, bots: int
) -> None:
    host = opened("Ann", viewport=DESKTOP)
    code = seated(host, server, bots=bots, edition=edition, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    say(host, "Hi all", LONG_LINE[:200], "good luck")
    host.page.get_by_test_id("start").click()
    wait_turn(host, "yourClue")
    choosable(host, "hand").first.click()
    host.page.get_by_test_id("clue-input").fill("a lantern at sea")
    host.page.get_by_test_id("tell").click()
    page = tv.page
    expect(page.get_by_test_id("reveal")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("round-point")).to_have_count(bots + 1)
    settle(page)
    for i in range(bots + 1):
        on_screen(page, f"[data-testid=round-point] >> nth={i}")
    on_screen(page, "[data-testid=reveal]")
    on_screen(page, "[data-testid=players]")
    chat_lines_shown(page, 3)
    no_scroll(page, down=True)


def banner_slack(page: Page) -> list[Any]:
    """Each banner the phone showed, as [turn, phase, height, empty space below its last line
    (none counted while the banner is at its least height)]."""
    return list(page.evaluate("window.__banners"))


BANNER_WATCH = """
window.__banners = [];
addEventListener('DOMContentLoaded', () => {
  const seen = () => {
    const b = document.querySelector('[data-testid=banner]');
    if (!b) return;
    const r = b.getBoundingClientRect();
    // its lines (a line wrapped out of sight, beside the banner, is not one)
    const lines = [...b.querySelectorAll('.banner-meta, .banner-text, .banner-clue')]
      .map(c => c.getBoundingClientRect()).filter(c => c.left < r.right);
    const inner = Math.max(...lines.map(c => c.bottom));
    const pad = parseFloat(getComputedStyle(b).paddingBottom);
    const min = parseFloat(getComputedStyle(b).minHeight) || 0;
    const slack = r.height <= min + 0.5 ? 0 : r.bottom - inner - pad; // at its least height
    const row = [b.dataset.turn, b.dataset.phase, Math.round(r.height), Math.round(slack)];
    const last = window.__banners[window.__banners.length - 1];
    if (!last || last.join() !== row.join()) window.__banners.push(row);
  };
  new MutationObserver(seen).observe(document.body, {subtree: true, childList: true,
                                                     characterData: true, attributes: true});
});
"""


def test_phone_banner_is_as_tall_as_what_it_says(opened: Any, server: str) -> None:
    """No empty band under a short message; from the clue to the vote the banner keeps one
    height (the clue's line held by a "…" until it comes), so the cards below it stay put when the
    clue arrives and as the names of those awaited get fewer."""
    p = opened("Ann", viewport=PHONE, mobile=True)
    page = p.page
    page.add_init_script(BANNER_WATCH)
    seated(p, server, bots=3, first_storyteller="host", max_rounds=1)
    page.get_by_test_id("start").tap()
    wait_turn(p, "yourClue")
    choosable(p, "hand").first.tap()
    page.get_by_test_id("clue-input").fill("a long way home")
    page.get_by_test_id("tell").tap()
    expect(page.get_by_test_id("game-over")).to_be_visible(timeout=30_000)
    page.wait_for_timeout(300)
    seen = banner_slack(page)
    turns = {turn for turn, *_ in seen}
    assert {"yourClue", "waitSubmit", "over"} <= turns, seen
    for turn, _phase, height, slack in seen:
        assert slack <= 2, f"{turn}: {slack} px of empty banner below its text ({seen})"
        assert height >= 56, f"{turn}: a banner of {height} px ({seen})"
    over = [h for turn, _, h, _ in seen if turn == "over"]
    clue = [h for turn, _, h, _ in seen if turn == "yourClue"]
    assert max(over) < min(clue), ("a one-line banner is as tall as a two-line one", seen)
    during = {h for _, phase, h, _ in seen if phase in ("clue", "submit", "vote")}
    assert len(during) == 1, f"the banner changed height during the round: {seen}"


def test_tv_game_over_with_the_last_reveal_fits_the_screen(opened: Any, server: str) -> None:
    """Four players lay four cards, the widest (and so tallest) the TV shows; under the game-over
    panel the last reveal and its points still fit."""
    host = opened("Ann", viewport=DESKTOP)
    code = seated(host, server, bots=3, first_storyteller="host", max_rounds=1)
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    host.page.get_by_test_id("start").click()
    wait_turn(host, "yourClue")
    choosable(host, "hand").first.click()
    host.page.get_by_test_id("clue-input").fill("the last light")
    host.page.get_by_test_id("tell").click()
    page = tv.page
    expect(page.get_by_test_id("game-over")).to_be_visible(timeout=30_000)
    expect(page.get_by_test_id("round-point")).to_have_count(4)
    settle(page)
    for i in range(4):
        on_screen(page, f"[data-testid=round-point] >> nth={i}")
    no_scroll(page, down=True)
