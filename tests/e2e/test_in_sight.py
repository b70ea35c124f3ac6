"""What a screen must show without a scroll (#31, #28): on a 360x640 phone the "I'm here"
panel's button once a timer played for the player (the panel is held above the hand's bottom),
and on a 1920x1080 TV the whole reveal of 12 seats, its last points row included, with a
32-letter name — in all six languages. Boxes are measured, not judged from a picture."""

from __future__ import annotations

from typing import Any

from e2e_helpers import PHONE, Player, messages, start
from playwright.sync_api import Page, expect
from test_big_tables import TV, min_px, seated, tell
from test_fair_timers import join, seat_in_room, start_game
from test_newcomer import LANGUAGES, shown

LONG_NAME = "Wiktoria Konstantynopolitańczyk!"  # 32 letters, the most a name may have


def bottom(page: Page, selector: str) -> float:
    """The lowest edge of the elements matched, in the viewport's pixels."""
    return float(
        page.eval_on_selector_all(
            selector, "els => Math.max(...els.map(e => e.getBoundingClientRect().bottom))"
        )
    )


def in_language(p: Player, lang: str) -> None:
    p.page.get_by_test_id("lang").select_option(lang)
    expect(p.page.locator("html")).to_have_attribute("lang", lang)


def test_im_here_is_on_a_phone_screen_without_a_scroll(opened: Any, server: str) -> None:
    bo, ann = opened("Bo", viewport=PHONE, mobile=True), opened("Ann")
    ticket = seat_in_room(bo, server, bots=1, first_storyteller="host", timers={"clue": 2})
    join(ann, server, ticket["code"])
    ann.page.goto(f"/r/{ticket['code']}")  # here: the table goes on without Bo, not paused
    start_game(bo, ticket["code"])
    page = bo.page
    # Bo tells nothing: the computer tells for him; the cards go in under his hand.
    expect(page.get_by_test_id("away")).to_contain_text(messages("en")["clock.late"])
    expect(page.get_by_test_id("banner")).to_have_attribute("data-phase", "submit")
    for lang in LANGUAGES:
        in_language(bo, lang)
        page.evaluate("scrollTo(0, 0)")
        here = page.get_by_test_id("here")
        expect(here).to_have_text(messages(lang)["clock.here"])
        expect(here).to_be_in_viewport(ratio=1)
        found = here.bounding_box()
        assert found is not None
        assert found["y"] + found["height"] <= PHONE["height"], lang
        # ...painted on top (nothing over it) and the panel's news above it in sight too.
        assert shown(page, "[data-testid=here]"), lang
        assert shown(page, "[data-testid=away] p"), lang
        assert bottom(page, "[data-testid=banner]") <= bottom(page, "[data-testid=away] p") - 16
    page.get_by_test_id("here").click()
    expect(page.get_by_test_id("away")).to_have_count(0)


def test_a_twelve_seat_reveal_is_whole_on_a_1080p_tv(opened: Any, server: str) -> None:
    host = opened(LONG_NAME, viewport=PHONE, mobile=True)
    code = seated(host, server, edition="odyssey", bots=11, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(host, 12)
    tell(host, "a lighthouse in the fog")
    tvp = tv.page
    expect(tvp.get_by_test_id("reveal")).to_be_visible(timeout=60_000)
    expect(tvp.get_by_test_id("round-point")).to_have_count(12)
    tvp.wait_for_timeout(3200)  # the points rows fade in last
    for lang in LANGUAGES:
        in_language(tv, lang)
        # The last points row (and the reveal's panel) end inside the 1080 px, nothing scrolled.
        assert tvp.evaluate("scrollY") == 0
        assert bottom(tvp, "[data-testid=round-point]") <= TV["height"], lang
        assert bottom(tvp, "[data-testid=reveal]") <= TV["height"], lang
        expect(tvp.get_by_test_id("round-point").last).to_be_in_viewport(ratio=1)
        for card in tvp.locator("[data-testid=reveal] [data-testid=table-card]").all():
            expect(card).to_be_in_viewport(ratio=1)
        # ...beside the twelve players, their rabbits and the room's code, also whole.
        expect(tvp.get_by_test_id("player").last).to_be_in_viewport(ratio=1)
        expect(tvp.get_by_test_id("score-track")).to_be_in_viewport(ratio=1)
        expect(tvp.get_by_test_id("tv-code")).to_be_in_viewport(ratio=1)
        # ...at the sofa's size: no name, vote or reason below 28 px.
        for sel in (".player-name", ".voter", ".points strong", ".points-why"):
            assert min_px(tvp, sel) >= 28, (lang, sel)
