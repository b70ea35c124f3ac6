"""Screens of a big table (#31), 12 seats under the Odyssey rules: the edition and its modes on
the home, the two-vote vote and its reveal on a phone, the vote and the reveal on a 1920x1080 TV
with 12 pictures (the reveal also in Polish and French, the longest), the party's void and the
teams' partner hand and team chat.

    make web-build && .venv/bin/python tests/e2e/screenshots_big.py

Writes docs/screenshots/big-*.jpg (also part of tests/e2e/screenshots.py's run).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_helpers import PHONE, Player, choosable, open_player, start, wait_turn
from e2e_server import ROOT
from playwright.sync_api import expect
from screenshot_run import OUT, run
from test_big_tables import TV, pick, seated, tell


def shot(p: Player, name: str, *, full: bool = False) -> None:
    p.page.wait_for_timeout(1300)  # rabbits hop, images decode
    p.page.evaluate(
        "Promise.all([...document.images].map(i => i.complete ? 0 : i.decode().catch(() => 0)))"
    )
    path = OUT / f"{name}.jpg"
    p.page.screenshot(path=str(path), full_page=full, type="jpeg", quality=75)
    print("wrote", path.relative_to(ROOT))


def two_votes(browser: Any, base: str) -> None:
    ann = open_player(browser, base, "Ann", viewport=PHONE, mobile=True)
    code = seated(ann, base, edition="odyssey", bots=11, first_storyteller="host")
    tv = open_player(browser, base, "TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 12)
    tell(ann, "a lighthouse in the fog")
    expect(tv.page.get_by_test_id("reveal")).to_be_visible(timeout=60_000)
    tv.page.wait_for_timeout(2500)
    shot(tv, "big-tv-reveal")
    # the same reveal in the two longest languages: still one 1080p screen
    for lang in ("pl", "fr"):
        tv.page.get_by_test_id("lang").select_option(lang)
        expect(tv.page.locator("html")).to_have_attribute("lang", lang)
        shot(tv, f"big-tv-reveal-{lang}")
    tv.page.get_by_test_id("lang").select_option("en")
    ann.page.get_by_test_id("reveal-close").click()
    wait_turn(ann, "yourSubmit")
    pick(ann, "hand", 0)
    ann.page.get_by_test_id("submit").click()
    wait_turn(ann, "yourVote")
    pick(ann, "table", 1)
    pick(ann, "table", 4)
    choosable(ann, "table").nth(1).scroll_into_view_if_needed()
    ann.page.evaluate("scrollBy(0, -60)")
    shot(ann, "big-phone-vote")
    expect(tv.page.locator("[data-testid=table] [data-testid=table-card]")).to_have_count(12)
    shot(tv, "big-tv-vote")
    ann.page.get_by_test_id("vote").click()
    expect(ann.page.get_by_test_id("reveal")).to_be_visible(timeout=60_000)
    # the table's first row under the sticky banner
    ann.page.evaluate(
        "document.querySelector('[data-testid=reveal] [data-testid=table]').scrollIntoView();"
        "scrollBy(0, -220)"
    )
    ann.page.wait_for_timeout(2500)  # the votes fly in after the cards turn over
    shot(ann, "big-phone-reveal")
    for p in (ann, tv):
        p.close()


def party(browser: Any, base: str) -> None:
    ann = open_player(browser, base, "Ann", viewport=PHONE, mobile=True)
    seated(ann, base, edition="odyssey", mode="party", bots=11, first_storyteller="host")
    start(ann, 12)
    tell(ann, "a crowd at a fair")
    wait_turn(ann, "yourVote")
    pick(ann, "table", 3)
    ann.page.get_by_test_id("void").scroll_into_view_if_needed()
    shot(ann, "big-phone-void")
    ann.close()


def teams(browser: Any, base: str) -> None:
    ann = open_player(browser, base, "Ann", viewport=PHONE, mobile=True)
    seated(ann, base, edition="odyssey", mode="teams", bots=11, first_storyteller="host")
    start(ann, 12)
    wait_turn(ann, "yourClue")
    shot(ann, "big-phone-teams")
    ann.page.get_by_test_id("chat-team").check()
    ann.page.get_by_test_id("chat-input").fill("the blue one, trust me")
    ann.page.get_by_test_id("chat-send").click()
    expect(ann.page.locator("[data-testid=chat-line][data-team='1']")).to_be_visible()
    ann.page.get_by_test_id("chat-line").last.scroll_into_view_if_needed()
    shot(ann, "big-phone-team-chat")
    ann.close()


def home(browser: Any, base: str) -> None:
    """Create a room: the Odyssey edition and its modes, the chosen one explained."""
    ann = open_player(browser, base, "Ann", viewport=PHONE, mobile=True)
    ann.page.goto("/")
    ann.page.get_by_test_id("name").fill("Ann")
    ann.page.locator("input[name=edition][value='odyssey']").check()
    ann.page.get_by_test_id("mode-party").check()
    ann.page.get_by_test_id("modes").scroll_into_view_if_needed()
    shot(ann, "big-phone-home")
    ann.close()


def capture(browser: Any, base: str) -> None:
    home(browser, base)
    two_votes(browser, base)
    party(browser, base)
    teams(browser, base)


def main() -> int:
    return run(capture)


if __name__ == "__main__":
    sys.exit(main())
