"""Screens of #28's last items, in English and Polish: a 200-character clue whole on the TV's
reveal (1920x1080); on a 360x640 phone a first-game tip in sight above the action bar, the 2021
pile labels, a paused table's banner, the news that the timer played for someone at the bottom
(and, for the one it played for, the "I'm here" panel, its button in sight above the hand's
bottom; also in French), and Start refused with the numbers.

    make web-build && .venv/bin/python tests/e2e/screenshots_newcomer2.py

Writes docs/screenshots/newcomer2-*.jpg (also part of tests/e2e/screenshots.py's run).
"""

from __future__ import annotations

import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_helpers import PHONE, Player, api, join_by_link, open_player, start, wait_turn
from e2e_server import ROOT
from playwright.sync_api import expect
from screenshot_run import OUT, run
from test_newcomer import pick

TV = {"width": 1920, "height": 1080}
LOCALE = {"en": "en-US", "pl": "pl-PL", "fr": "fr-FR"}
CLUE = {
    "en": "Love always comes at the worst possible moment, when the kettle is boiling over, the "
    "cat is stuck on the roof, the train is leaving and the rain has only just started to fall",
    "pl": "Miłość zawsze przychodzi w najgorszym możliwym momencie, gdy kipi czajnik, kot utknął "
    "na dachu, pociąg właśnie odjeżdża, a deszcz dopiero zaczął padać na cały peron i na nas",
}


def shot(p: Player, name: str) -> None:
    p.page.wait_for_timeout(1300)  # animations end, pictures decode
    p.page.evaluate(
        "Promise.all([...document.images].map(i => i.complete ? 0 : i.decode().catch(() => 0)))"
    )
    path = OUT / f"newcomer2-{name}.jpg"
    p.page.screenshot(path=str(path), type="jpeg", quality=75)
    print("wrote", path.relative_to(ROOT))


def player(browser: Any, base: str, name: str, lang: str, **kw: Any) -> Player:
    return open_player(browser, base, name, locale=LOCALE[lang], **kw)


def seat(p: Player, base: str, **settings: Any) -> str:
    ticket = api(base, "POST", "/api/rooms", {"name": p.name, "settings": settings})
    code = str(ticket["code"])
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{code}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(f"/r/{code}")
    expect(p.page.get_by_test_id("lobby")).to_be_visible()
    return code


def done(*players: Player) -> None:
    for p in players:
        assert not p.errors, (p.name, p.errors)
        p.close()


def tv_and_tip(browser: Any, base: str, lang: str) -> None:
    """The TV's reveal of a long clue; the first tip on a phone while the clue is thought of."""
    ann = player(browser, base, "Ann", lang)
    bo = player(browser, base, "Bo", lang, viewport=PHONE, mobile=True)
    tv = player(browser, base, "TV", lang, viewport=TV)
    code = seat(ann, base, bots=2, first_storyteller="host", language=lang)
    join_by_link(bo, code)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 4)
    wait_turn(bo, "waitClue")
    shot(bo, f"phone-tip-{lang}")
    wait_turn(ann, "yourClue")
    pick(ann, "hand", 0)
    ann.page.get_by_test_id("clue-input").fill(CLUE[lang])
    ann.page.get_by_test_id("tell").click()
    wait_turn(bo, "yourSubmit")
    shot(bo, f"phone-tip-submit-{lang}")
    pick(bo, "hand", 0)
    bo.page.get_by_test_id("submit").click()
    wait_turn(bo, "yourVote")
    pick(bo, "table", 0)
    bo.page.get_by_test_id("vote").click()
    expect(tv.page.get_by_test_id("reveal")).to_be_visible()
    tv.page.wait_for_timeout(3000)
    shot(tv, f"tv-reveal-long-{lang}")
    done(ann, bo, tv)


def pile_and_pause(browser: Any, base: str, lang: str) -> None:
    """The 2021 edition's short pile labels on a phone; then the table paused, its banner."""
    ann = player(browser, base, "Ann", lang, viewport=PHONE, mobile=True)
    seat(ann, base, bots=2, first_storyteller="host", edition="2021", language=lang)
    ann.page.get_by_test_id("start").click()
    wait_turn(ann, "yourClue")
    shot(ann, f"phone-2021-{lang}")
    done(ann)
    ann = player(browser, base, "Ann", lang, viewport=PHONE, mobile=True)
    code = seat(ann, base, bots=2, first_storyteller="host", timers={"clue": 2}, language=lang)
    ann.page.get_by_test_id("start").click()
    expect(ann.page.get_by_test_id("away")).to_be_visible()
    ann.page.evaluate("scrollTo(0, 0)")
    shot(ann, f"phone-paused-{lang}")
    assert api(base, "GET", f"/api/rooms/{code}")["paused"]
    done(ann)


def timer_news(browser: Any, base: str, lang: str) -> None:
    """Bo's timer runs out: Ann's phone says so at the bottom; Bo's, in the panel alone."""
    bo = player(browser, base, "Bo", lang, viewport=PHONE, mobile=True)
    ann = player(browser, base, "Ann", lang, viewport=PHONE, mobile=True)
    code = seat(bo, base, bots=1, first_storyteller="host", timers={"clue": 2}, language=lang)
    join_by_link(ann, code)
    bo.page.get_by_test_id("start").click()
    expect(ann.page.get_by_test_id("notice")).to_be_visible()
    shot(ann, f"phone-notice-{lang}")
    expect(bo.page.get_by_test_id("away")).to_be_visible()
    bo.page.evaluate("scrollTo(0, 0)")
    shot(bo, f"phone-late-{lang}")
    done(ann, bo)


def start_refused(browser: Any, base: str, lang: str, tmp: Path) -> None:
    """A deck of one card chosen alone: Start refused, with both numbers."""
    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        picture = io.BytesIO()
        Image.new("RGB", (400, 600), (40, 140, 90)).save(picture, "PNG")
        zf.writestr("lone.png", picture.getvalue())
    path = tmp / f"lone-{lang}.zip"
    path.write_bytes(archive.getvalue())
    ann = player(browser, base, "Ann", lang, viewport=PHONE, mobile=True)
    seat(ann, base, bots=2, language=lang)
    page = ann.page
    page.get_by_test_id("own-pictures").locator("summary").click()
    page.get_by_test_id("upload-file").set_input_files(str(path))
    page.get_by_test_id("upload-send").click()
    expect(page.locator("[data-testid=deck][data-slug^=lone]")).to_have_class("deck is-on")
    others = page.locator(
        "[data-testid=deck].is-on:not([data-slug^=lone]) [data-testid=deck-check]"
    )
    while others.count() > 0:
        before = others.count()
        others.first.click()
        expect(others).to_have_count(before - 1)
    page.get_by_test_id("start").click()
    line = page.get_by_test_id("cards-short")
    expect(line).to_have_attribute("role", "alert")
    line.evaluate("e => e.scrollIntoView({ block: 'center' })")
    shot(ann, f"phone-start-refused-{lang}")
    done(ann)


def capture(browser: Any, base: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for lang in ("en", "pl"):
            tv_and_tip(browser, base, lang)
            pile_and_pause(browser, base, lang)
            timer_news(browser, base, lang)
            start_refused(browser, base, lang, Path(tmp))
        timer_news(browser, base, "fr")  # "I'm here" in the longest language too


def main() -> int:
    return run(capture)


if __name__ == "__main__":
    sys.exit(main())
