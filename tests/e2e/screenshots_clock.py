"""The clock a player feels (#28), on a phone (360 x 640) and a desktop, in English and Polish:
the opening claim's note, a late player's "I'm here" with the account of the clue told for
them, a paused table, and a time bank being drawn on.

    make web-build && .venv/bin/python tests/e2e/screenshots_clock.py

Writes docs/screenshots/clock-{phone,desktop}-{en,pl}-{1-claim,2-late,3-paused,4-bank}.jpg
(also part of tests/e2e/screenshots.py's run).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_helpers import DESKTOP, PHONE, Player, api, messages, open_player
from e2e_server import ROOT
from playwright.sync_api import expect
from screenshot_run import OUT, run

LOCALES = {"en": "en-GB", "pl": "pl-PL"}
NAMES = {"en": ("Ann", "Bo"), "pl": ("Ania", "Bartek")}


def _shot(p: Player, name: str) -> None:
    p.page.wait_for_timeout(900)
    path = OUT / f"{name}.jpg"
    p.page.screenshot(path=str(path), type="jpeg", quality=75)
    print("wrote", path.relative_to(ROOT))


def _seated(browser: Any, base: str, device: str, lang: str, **settings: Any) -> Player:
    """A player at a new table made through the API, its game started, on the game screen."""
    phone = device == "phone"
    name = NAMES[lang][0]
    p = open_player(
        browser,
        base,
        name,
        viewport=PHONE if phone else DESKTOP,
        mobile=phone,
        locale=LOCALES[lang],
    )
    ticket = api(
        base, "POST", "/api/rooms", {"name": name, "settings": {"language": lang, **settings}}
    )
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(f"/r/{ticket['code']}")
    p.page.get_by_test_id("start").click()
    expect(p.page.get_by_test_id("game")).to_be_visible()
    return p


def clock_screens(browser: Any, base: str) -> None:
    for device in ("phone", "desktop"):
        for lang in LOCALES:
            prefix = f"clock-{device}-{lang}"
            p = _seated(browser, base, device, lang, bots=3, first_storyteller="claim")
            expect(p.page.get_by_test_id("claim")).to_be_visible()
            p.page.locator("[data-testid=hand] button.card-face:not([disabled])").first.click()
            _shot(p, f"{prefix}-1-claim")
            p.close()
            timers = {"clue": 3}
            p = _seated(
                browser, base, device, lang, bots=3, first_storyteller="host", timers=timers
            )
            expect(p.page.get_by_test_id("account")).to_be_visible(timeout=20_000)
            _shot(p, f"{prefix}-3-paused")  # alone at the table: late is paused
            p.close()
            timers = {"clue": 2, "bank": 30}
            p = _seated(
                browser, base, device, lang, bots=3, first_storyteller="host", timers=timers
            )
            bank = messages(lang)["clock.bank"].split(":")[0]
            expect(p.page.get_by_test_id("hurry")).to_contain_text(bank, timeout=20_000)
            _shot(p, f"{prefix}-4-bank")
            p.close()
            _late_with_company(browser, base, device, lang, f"{prefix}-2-late")


def _late_with_company(browser: Any, base: str, device: str, lang: str, name: str) -> None:
    """Two people and two computers: the host misses the clue's timer, the other is there."""
    phone = device == "phone"
    host_name, other = NAMES[lang]
    p = open_player(
        browser,
        base,
        host_name,
        viewport=PHONE if phone else DESKTOP,
        mobile=phone,
        locale=LOCALES[lang],
    )
    settings = {"language": lang, "bots": 2, "first_storyteller": "host", "timers": {"clue": 3}}
    ticket = api(base, "POST", "/api/rooms", {"name": host_name, "settings": settings})
    code = ticket["code"]
    api(base, "POST", f"/api/rooms/{code}/join", {"name": other})  # seated, never connects
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{code}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(f"/r/{code}")
    p.page.get_by_test_id("start").click()
    expect(p.page.get_by_test_id("account")).to_be_visible(timeout=20_000)
    _shot(p, name)
    p.close()


def main() -> int:
    return run(clock_screens)


if __name__ == "__main__":
    sys.exit(main())
