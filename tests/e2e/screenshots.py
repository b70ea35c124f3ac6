"""Capture every screen of the web client, on desktop and on a phone, into docs/screenshots/.

    make web-build && .venv/bin/python tests/e2e/screenshots.py

Starts a real ``dixit serve`` (temporary database) and plays a short game in headless Chromium.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_helpers import (
    DESKTOP,
    PHONE,
    Player,
    choosable,
    create_room,
    join_by_link,
    open_player,
    start,
    submit,
    tell,
    vote,
    wait_turn,
)
from e2e_server import ROOT
from playwright.sync_api import expect
from screenshot_run import OUT, run
from screenshots_big import capture as big_tables
from screenshots_clock import clock_screens
from screenshots_languages import languages
from screenshots_newcomer import capture as newcomer
from screenshots_newcomer2 import capture as newcomer2


def shot(p: Player, name: str, *, full: bool = False) -> None:
    p.page.wait_for_timeout(1300)  # let rabbits finish their hop and images decode
    p.page.evaluate(
        "Promise.all([...document.images].map(i => i.complete ? 0 : i.decode().catch(() => 0)))"
    )
    path = OUT / f"{name}.jpg"
    p.page.screenshot(path=str(path), full_page=full, type="jpeg", quality=75)
    print("wrote", path.relative_to(ROOT))


def quick(p: Player, name: str) -> None:
    """A frame of an animation, taken at once."""
    path = OUT / f"{name}.jpg"
    p.page.screenshot(path=str(path), type="jpeg", quality=72)
    print("wrote", path.relative_to(ROOT))


def device_run(browser: Any, base: str, device: str) -> None:
    phone = device == "phone"
    kw: dict[str, Any] = {"viewport": PHONE if phone else DESKTOP, "mobile": phone}
    ann, bo, cy, di = (open_player(browser, base, n, **kw) for n in ("Ann", "Bo", "Cy", "Di"))
    ann.page.goto("/")
    ann.page.get_by_test_id("name").fill("Ann")
    expect(ann.page.get_by_test_id("open-table").first).to_be_visible()
    shot(ann, f"{device}-1-home", full=phone)
    code = create_room(ann, max_rounds=2)
    for p in (bo, cy, di):
        join_by_link(p, code)
    # A computer player (seated last, so a person tells the second clue) and some table talk.
    ann.page.get_by_test_id("add-bot-level").select_option("medium")
    ann.page.get_by_test_id("add-bot").click()
    expect(ann.page.get_by_test_id("seat-level")).to_have_count(1)
    for p, line in ((bo, "Ready when you are!"), (cy, "Hi all, first game for me")):
        p.page.get_by_test_id("chat-input").fill(line)
        p.page.get_by_test_id("chat-input").press("Enter")
    expect(ann.page.get_by_test_id("chat-line")).to_have_count(2)
    ann.page.evaluate("window.scrollTo(0, 0)")
    shot(ann, f"{device}-2-lobby", full=phone)
    tv = open_player(browser, base, "TV", viewport={"width": 1920, "height": 1080})
    if not phone:
        tv.page.goto(f"/r/{code}/tv")
        expect(tv.page.get_by_test_id("lobby")).to_be_visible()
        shot(tv, "tv-0-lobby")
    start(ann, 5)
    wait_turn(ann, "yourClue")
    choosable(ann, "hand").nth(2).click()
    ann.page.get_by_test_id("clue-input").fill("The long way home")
    shot(ann, f"{device}-3-storyteller")
    ann.page.get_by_test_id("tell").click()
    wait_turn(bo, "yourSubmit")
    choosable(bo, "hand").nth(1).click()
    shot(bo, f"{device}-4-choose-card")
    for p in (bo, cy, di):
        submit(p)
    wait_turn(bo, "yourVote")
    vote(cy)
    choosable(bo, "table").nth(1).click()
    shot(bo, f"{device}-5-vote")
    shot(ann, f"{device}-6-storyteller-waits")
    vote(bo)
    vote(di)
    if not phone:
        # The TV reveal, step by step: cards turn over, then votes and points arrive.
        expect(tv.page.get_by_test_id("reveal")).to_be_visible()
        for step, wait in (("a", 350), ("b", 900), ("c", 2600)):
            tv.page.wait_for_timeout(wait)
            quick(tv, f"tv-3-reveal-{step}")
    expect(bo.page.get_by_test_id("reveal")).to_be_visible()
    bo.page.evaluate("window.scrollTo(0, 0)")
    bo.page.wait_for_timeout(2500)  # five cards turn over, then the votes and points arrive
    shot(bo, f"{device}-7-reveal", full=phone)
    bo.page.locator("[data-testid=reveal] .card-zoom").first.click()
    shot(bo, f"{device}-8-zoom")
    bo.page.keyboard.press("Escape")
    # Round 2: Bo tells, the others play; the TV shows the table large.
    for p in (ann, bo, cy, di):
        if p.page.get_by_test_id("reveal-close").count():
            p.page.get_by_test_id("reveal-close").click()
    tell(bo, "Whispers")
    for p in (ann, cy, di):
        submit(p)
    wait_turn(ann, "yourVote")
    if not phone:
        shot(tv, "tv-1-table")
    for p in (ann, cy, di):
        vote(p)
    expect(ann.page.get_by_test_id("game-over")).to_be_visible()
    ann.page.evaluate("window.scrollTo(0, 0)")
    shot(ann, f"{device}-9-game-over")
    if not phone:
        shot(tv, "tv-2-game-over")
    for p in (ann, bo, cy, di, tv):
        assert not p.errors, p.errors
        p.close()


def italian(browser: Any, base: str) -> None:
    """The home page and a lobby with computer players on an Italian phone."""
    p = open_player(browser, base, "Ann", viewport=PHONE, mobile=True, locale="it-IT")
    p.page.goto("/")
    p.page.get_by_test_id("name").fill("Anna")
    shot(p, "phone-it-1-home")
    create_room(p, bots=3)
    shot(p, "phone-it-2-lobby")
    assert not p.errors, p.errors
    p.close()


def open_table(browser: Any, base: str) -> Player:
    """A public table waiting for players, so the home page lists it."""
    p = open_player(browser, base, "Zoe")
    create_room(p)
    p.page.get_by_test_id("public").check()
    p.page.get_by_test_id("table-name-input").fill("Owls at midnight")
    p.page.get_by_test_id("table-name-input").press("Enter")
    p.page.wait_for_timeout(600)  # the settings reach the server before the home pages ask
    return p


def everything(browser: Any, base: str) -> None:
    host = open_table(browser, base)
    for device in ("desktop", "phone"):
        device_run(browser, base, device)
    italian(browser, base)
    languages(browser, base)
    clock_screens(browser, base)
    host.close()
    newcomer(browser, base)
    big_tables(browser, base)
    newcomer2(browser, base)


def main() -> int:
    return run(everything, clear=True)


if __name__ == "__main__":
    sys.exit(main())
