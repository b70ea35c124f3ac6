"""Screens of the table a newcomer finds (#28), in English and French: a 200-character clue in
the vote on a phone (and opened in the banner), the reveal, past rounds on a phone and a desktop,
the TV while the clue is thought of, at the reveal and at the end, the how-to-play page, and on a
phone Play now, the lobby's Start in reach and a first-game tip.

    make web-build && .venv/bin/python tests/e2e/screenshots_newcomer.py

Writes docs/screenshots/newcomer-*.jpg (also part of tests/e2e/screenshots.py's run).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_helpers import (
    DESKTOP,
    PHONE,
    Player,
    api,
    join_by_link,
    open_player,
    start,
    wait_turn,
)
from e2e_server import ROOT
from playwright.sync_api import expect
from screenshot_run import OUT, run
from test_newcomer import pick, submit

TV = {"width": 1920, "height": 1080}
CLUE = {
    "en": "Love always comes at the worst possible moment, when the kettle is boiling over, the "
    "cat is stuck on the roof, the train is leaving and the rain has only just started to fall",
    "fr": "L'amour arrive toujours au pire moment, quand le lait déborde, que le chat est coincé "
    "sur le toit, que le train part sans nous et que la pluie commence tout juste à tomber fort",
}


def shot(p: Player, name: str, *, full: bool = False) -> None:
    p.page.wait_for_timeout(1300)  # animations end, pictures decode
    p.page.evaluate(
        "Promise.all([...document.images].map(i => i.complete ? 0 : i.decode().catch(() => 0)))"
    )
    path = OUT / f"newcomer-{name}.jpg"
    p.page.screenshot(path=str(path), full_page=full, type="jpeg", quality=75)
    print("wrote", path.relative_to(ROOT))


def tell(p: Player, clue: str) -> None:
    wait_turn(p, "yourClue")
    pick(p, "hand", 0)
    p.page.get_by_test_id("clue-input").fill(clue)
    p.page.get_by_test_id("tell").click()
    expect(p.page.get_by_test_id("clue-input")).to_have_count(0)


def vote(p: Player) -> None:
    wait_turn(p, "yourVote")
    pick(p, "table", 0)
    p.page.get_by_test_id("vote").click()
    expect(p.page.get_by_test_id("banner")).not_to_have_attribute("data-turn", "yourVote")


def game(browser: Any, base: str, lang: str) -> None:
    locale = {"en": "en-US", "fr": "fr-FR"}[lang]
    ann = open_player(browser, base, "Ann", locale=locale)
    bo = open_player(browser, base, "Bo", viewport=PHONE, mobile=True, locale=locale)
    tv = open_player(browser, base, "TV", viewport=TV, locale=locale)
    settings = {"bots": 2, "first_storyteller": "host", "max_rounds": 2, "language": lang}
    ticket = api(base, "POST", "/api/rooms", {"name": "Ann", "settings": settings})
    code = str(ticket["code"])
    ann.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{code}', {json.dumps(json.dumps(ticket))})"
    )
    ann.page.goto(f"/r/{code}")
    join_by_link(bo, code)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 4)
    expect(tv.page.get_by_test_id("tv-think")).to_be_visible()
    shot(tv, f"tv-clue-{lang}")

    tell(ann, CLUE[lang])
    submit(bo)
    wait_turn(bo, "yourVote")
    bo.page.evaluate("scrollTo(0, 0)")
    shot(bo, f"phone-vote-{lang}")
    bo.page.get_by_test_id("banner-clue").click()
    shot(bo, f"phone-clue-open-{lang}")
    bo.page.get_by_test_id("banner-clue").click()
    vote(bo)

    expect(tv.page.get_by_test_id("reveal")).to_be_visible()
    tv.page.wait_for_timeout(2500)
    shot(tv, f"tv-reveal-{lang}")
    expect(bo.page.get_by_test_id("reveal")).to_be_visible()
    bo.page.wait_for_timeout(2500)
    shot(bo, f"phone-reveal-{lang}")
    bo.page.get_by_test_id("open-history").click()
    shot(bo, f"phone-history-{lang}")
    bo.page.get_by_test_id("history-close").click()
    bo.page.get_by_test_id("reveal-close").click()
    ann.page.get_by_test_id("reveal-close").click()

    # a computer player tells the second round
    submit(ann)
    submit(bo)
    vote(ann)
    vote(bo)
    expect(tv.page.get_by_test_id("game-over")).to_be_visible()
    ann.page.get_by_test_id("open-history").click()
    expect(ann.page.get_by_test_id("history-round")).to_have_count(2)
    shot(ann, f"desktop-history-{lang}")
    ann.page.get_by_test_id("history-close").click()
    tv.page.wait_for_timeout(2500)
    shot(tv, f"tv-over-{lang}")
    for p in (ann, bo, tv):
        assert not p.errors, (p.name, p.errors)
        p.close()


def how_to_play(browser: Any, base: str, lang: str) -> None:
    locale = {"en": "en-US", "fr": "fr-FR"}[lang]
    for device, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        p = open_player(
            browser, base, "Ann", viewport=viewport, mobile=device == "phone", locale=locale
        )
        p.page.goto("/rules")
        expect(p.page.get_by_test_id("how-to-play")).to_be_visible()
        shot(p, f"{device}-rules-{lang}", full=True)
        assert not p.errors, p.errors
        p.close()


def home_and_lobby(browser: Any, base: str, lang: str) -> None:
    """Play now on the home page, the host's Start in reach in the lobby, the first tip."""
    locale = {"en": "en-US", "fr": "fr-FR"}[lang]
    p = open_player(browser, base, "Ann", viewport=PHONE, mobile=True, locale=locale)
    p.page.goto("/")
    p.page.get_by_test_id("name").fill("Ann")
    shot(p, f"phone-home-{lang}")
    p.page.get_by_test_id("play-now").click()
    expect(p.page.get_by_test_id("lobby")).to_be_visible()
    shot(p, f"phone-lobby-{lang}")
    p.page.get_by_test_id("start").click()
    expect(p.page.get_by_test_id("tip")).to_be_visible()
    p.page.get_by_test_id("tip").evaluate("e => e.scrollIntoView({ block: 'center' })")
    shot(p, f"phone-tip-{lang}")
    assert not p.errors, p.errors
    p.close()


def capture(browser: Any, base: str) -> None:
    for lang in ("en", "fr"):
        game(browser, base, lang)
        how_to_play(browser, base, lang)
        home_and_lobby(browser, base, lang)


def main() -> int:
    return run(capture)


if __name__ == "__main__":
    sys.exit(main())
