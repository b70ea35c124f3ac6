"""The table a newcomer finds (#28): the clue always readable on a phone, the reveal kept until
closed, past rounds one tap away, a TV read from the sofa, keys that cross one's own card."""

from __future__ import annotations

import json
from typing import Any

from e2e_helpers import PHONE, Player, api, choosable, join_by_link, start, submit, wait_turn
from playwright.sync_api import Page, expect

TV = {"width": 1920, "height": 1080}
LANGUAGES = ["en", "it", "pl", "es", "pt", "fr"]
# 200 characters, the longest clue a room allows by default.
CLUE = (
    "Love always comes at the worst possible moment, when the kettle is boiling over, the cat "
    "is stuck on the roof, the train is leaving and the rain has only just started to fall on"
)[:200].ljust(200, "!")


def seated(p: Player, base: str, **settings: Any) -> str:
    ticket = api(base, "POST", "/api/rooms", {"name": p.name, "settings": settings})
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(f"/r/{ticket['code']}")
    expect(p.page.get_by_test_id("lobby")).to_be_visible()
    return str(ticket["code"])


def tell(p: Player, clue: str) -> None:
    wait_turn(p, "yourClue")
    choosable(p, "hand").first.click()
    p.page.get_by_test_id("clue-input").fill(clue)
    p.page.get_by_test_id("tell").click()
    expect(p.page.get_by_test_id("clue-input")).to_have_count(0)


def whole_on_screen(page: Page, selector: str) -> dict[str, Any]:
    """Where the element is and whether any of its text is cut (clipped or scrolled away)."""
    return dict(
        page.evaluate(
            """(sel) => { const el = document.querySelector(sel); const r = el.getBoundingClientRect();
                return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                  cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
                  text: el.textContent }; }""",
            selector,
        )
    )


def test_long_clue_whole_on_a_phone_in_every_language_and_keys_cross_own_cards(
    opened: Any, server: str
) -> None:
    ann = opened("Ann")
    bo = opened("Bo", viewport=PHONE, mobile=True)
    code = seated(ann, server, bots=1, first_storyteller="host")
    join_by_link(bo, code)
    start(ann, 3)
    tell(ann, CLUE)
    submit(bo, 2)  # three players: two cards each
    wait_turn(bo, "yourVote")
    page = bo.page
    for lang in LANGUAGES:
        page.get_by_test_id("lang").select_option(lang)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.evaluate("scrollTo(0, 0)")
        # The clue whole above the table, with the storyteller's name, inside the 360x640 screen.
        bubble = whole_on_screen(page, ".game-main > [data-testid=clue] .clue-text")
        assert bubble["text"] == CLUE, lang
        assert not bubble["cut"], (lang, bubble)
        assert bubble["top"] >= 0 and bubble["bottom"] <= PHONE["height"], (lang, bubble)
        assert bubble["left"] >= 0 and bubble["right"] <= PHONE["width"], (lang, bubble)
        expect(page.locator(".game-main > [data-testid=clue] .clue-by")).to_contain_text("Ann")
        # The sticky banner: the storyteller's name whole; a tap shows the whole clue.
        teller = whole_on_screen(page, "[data-testid=banner-clue] .banner-teller")
        assert teller["text"] == "Ann:" and not teller["cut"], (lang, teller)
        page.get_by_test_id("banner-clue").click()
        expect(page.get_by_test_id("banner-clue")).to_have_attribute("aria-expanded", "true")
        opened_clue = whole_on_screen(page, "[data-testid=banner-clue] q")
        assert not opened_clue["cut"] and opened_clue["bottom"] <= PHONE["height"], (lang, opened_clue)
        page.get_by_test_id("banner-clue").click()
        expect(page.get_by_test_id("banner-clue")).to_have_attribute("aria-expanded", "false")
        # The banner's top line: each item whole on one line, never a word a line in columns.
        heights = page.eval_on_selector_all(
            ".banner-meta > *", "els => els.map(e => e.getBoundingClientRect().height)"
        )
        assert all(h < 30 for h in heights), (lang, heights)

    # Arrow keys step over one's own cards (disabled in the vote) to every card that can be voted.
    votable = choosable(bo, "table")
    wanted = [votable.nth(i).locator("xpath=..").get_attribute("data-card") for i in range(3)]
    votable.first.focus()
    seen = []
    for _ in range(len(wanted)):
        seen.append(page.evaluate("document.activeElement.closest('.card').dataset.card"))
        page.keyboard.press("ArrowRight")
    assert seen == wanted
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.closest('.card').dataset.card") == wanted[0]


def test_reveal_stays_until_closed_and_past_rounds_are_one_tap_away(
    opened: Any, server: str
) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    ann.page.clock.install()
    code = seated(ann, server, bots=2, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 3)
    tell(ann, "a moon for two")
    page = ann.page
    expect(page.get_by_test_id("reveal")).to_be_visible()
    # The server waits a bounded while for the reveal (30 s scaled by --bot-delay) and goes on:
    # the next storyteller (a computer) tells, and the game waits for Ann's cards...
    expect(page.get_by_test_id("banner")).to_have_attribute("data-phase", "submit", timeout=40_000)
    # ...and a minute later by the page's clock the reveal is still there to read.
    page.clock.run_for(61_000)
    expect(page.get_by_test_id("reveal")).to_be_visible()
    expect(page.get_by_test_id("reveal").get_by_test_id("clue-text")).to_have_text("a moon for two")

    # Past rounds: one tap from the banner, on the phone and on the TV.
    page.get_by_test_id("open-history").click()
    history = page.get_by_test_id("history")
    expect(history.get_by_test_id("history-round")).to_have_count(1)
    expect(history.get_by_test_id("clue-text")).to_have_text("a moon for two")
    expect(history.get_by_test_id("table-card")).to_have_count(5)
    expect(history.get_by_test_id("round-point")).to_have_count(3)
    page.get_by_test_id("history-close").click()
    expect(history).to_have_count(0)

    page.get_by_test_id("reveal-close").click()
    expect(page.get_by_test_id("reveal")).to_have_count(0)
    wait_turn(ann, "yourSubmit")

    tvp = tv.page
    tvp.get_by_test_id("open-history").click()
    expect(tvp.get_by_test_id("history").get_by_test_id("history-round")).to_have_count(1)
    tvp.get_by_test_id("history-close").click()
