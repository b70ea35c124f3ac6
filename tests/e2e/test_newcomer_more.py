"""The table a newcomer finds (#28), the last items: a long clue whole on the TV's reveal, the
numbers in Start's refusal for too few cards, a first-game tip in sight on a phone, one message
when the timer played for someone (never over the banner), a paused table said as paused, and
the 2021 pile labels whole on a narrow phone."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

from e2e_helpers import PHONE, Player, api, join_by_link, messages, start, wait_turn
from playwright.sync_api import Page, expect
from test_fair_timers import join, seat_in_room, start_game
from test_newcomer import CLUE, LANGUAGES, TV, pick, seated, shown, tell

EN = messages("en")


def box(page: Page, selector: str) -> dict[str, float]:
    return dict(
        page.eval_on_selector(
            selector,
            "e => { const r = e.getBoundingClientRect(); "
            "return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; }",
        )
    )


def cut(page: Page, selector: str) -> list[str]:
    """The texts of the elements matched whose text does not fit their box."""
    return list(
        page.eval_on_selector_all(
            selector,
            "els => els.filter(e => e.scrollWidth > e.clientWidth + 1 "
            "|| e.scrollHeight > e.clientHeight + 1).map(e => e.textContent)",
        )
    )


def test_a_long_clue_is_whole_on_the_tvs_reveal(opened: Any, server: str) -> None:
    ann = opened("Ann")
    code = seated(ann, server, bots=2, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 3)
    tell(ann, CLUE)
    page = tv.page
    expect(page.get_by_test_id("reveal")).to_be_visible()
    clue = page.get_by_test_id("reveal").get_by_test_id("clue-text")
    expect(clue).to_have_text(CLUE)
    # Every line of the 200 characters shown (never clamped), large enough for a sofa...
    style = clue.evaluate(
        "e => { const s = getComputedStyle(e); "
        "return [s.overflow, s.webkitLineClamp, parseFloat(s.fontSize)]; }"
    )
    assert style[0] == "visible" and style[1] in ("none", ""), style
    assert style[2] >= 28, style
    # ...inside its bubble, and the whole reveal still on the one 1080p screen.
    text, bubble = box(page, ".reveal .clue-text"), box(page, ".reveal .clue")
    assert bubble["top"] <= text["top"] and text["bottom"] <= bubble["bottom"], (text, bubble)
    assert box(page, "[data-testid=reveal]")["bottom"] <= TV["height"]


def upload_one_card_deck(p: Player, tmp_path: Path) -> None:
    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        picture = io.BytesIO()
        Image.new("RGB", (400, 600), (40, 140, 90)).save(picture, "PNG")
        zf.writestr("lone.png", picture.getvalue())
    path = tmp_path / "lone.zip"
    path.write_bytes(archive.getvalue())
    page = p.page
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


def test_start_refused_for_too_few_cards_says_both_numbers(
    opened: Any, server: str, tmp_path: Path
) -> None:
    p = opened("Ann", viewport=PHONE, mobile=True, locale="fr-FR")
    seated(p, server, bots=2)
    upload_one_card_deck(p, tmp_path)
    page = p.page
    line = page.get_by_test_id("cards-short")
    fr = messages("fr")
    short = fr["lobby.cardsShort"].replace("{have}", "1").replace("{need}", str(3 * 7 + 5))
    expect(line).to_have_text(short)
    expect(line).to_have_attribute("role", "note")
    page.get_by_test_id("start").click()
    # The refusal is that line, with both numbers, said at once; no toast without numbers.
    expect(line).to_have_attribute("role", "alert")
    expect(line).to_have_text(short)
    expect(page.get_by_test_id("error")).to_have_count(0)
    expect(page.get_by_test_id("lobby")).to_be_visible()


def tip_in_sight(who: Player, hint: str) -> None:
    """At the top of the page: the tip whole on the screen, under the banner and the hand, above
    the action bar."""
    page = who.page
    expect(page.get_by_test_id("tip")).to_contain_text(hint)
    page.evaluate("scrollTo(0, 0)")
    tip = box(page, "[data-testid=tip]")
    assert tip["top"] >= 0 and tip["bottom"] <= PHONE["height"], (who.name, tip)
    assert tip["top"] >= box(page, "[data-testid=banner]")["bottom"], (who.name, tip)
    assert tip["top"] >= box(page, "[data-testid=hand]")["bottom"] - 1, (who.name, tip)
    if page.locator(".actionbar").count():
        assert tip["bottom"] <= box(page, ".actionbar")["top"], (who.name, tip)


def test_a_first_game_tip_is_in_sight_on_a_phone_over_neither_hand_nor_clue(
    opened: Any, server: str
) -> None:
    for lang in ("en", "pl"):
        m = messages(lang)
        ann = opened("Ann", viewport=PHONE, mobile=True)
        # Three at the table: two cards each to hand in (a count beside the action bar's button).
        code = seated(ann, server, bots=1, first_storyteller="host")
        bo = opened("Bo", viewport=PHONE, mobile=True)
        join_by_link(bo, code)
        start(ann, 3)
        for who, turn in ((ann, "yourClue"), (bo, "waitClue")):
            wait_turn(who, turn)
            who.page.get_by_test_id("lang").select_option(lang)
            tip_in_sight(who, m[f"hint.{turn}"])
        pick(ann, "hand", 0)
        ann.page.get_by_test_id("clue-input").fill("a lantern")
        ann.page.get_by_test_id("tell").click()
        wait_turn(bo, "yourSubmit")
        tip_in_sight(bo, m["hint.yourSubmit"])


def test_the_timer_playing_for_someone_is_one_message_never_over_the_banner(
    opened: Any, server: str
) -> None:
    bo, ann = opened("Bo"), opened("Ann", viewport=PHONE, mobile=True)
    ticket = seat_in_room(bo, server, bots=1, first_storyteller="host", timers={"clue": 2})
    code = ticket["code"]
    join(ann, server, code)
    ann.page.goto(f"/r/{code}")
    start_game(bo, code)
    # Bo tells nothing: on Ann's phone, the news at the bottom, clear of the banner.
    notice = ann.page.get_by_test_id("notice")
    expect(notice).to_have_text(EN["notice.timer/auto_played"].replace("{name}", "Bo"))
    assert (
        box(ann.page, "[data-testid=notice]")["top"]
        >= box(ann.page, "[data-testid=banner]")["bottom"]
    )
    # Bo reads it once, in the "I'm here" panel; no toast saying it again.
    expect(bo.page.get_by_test_id("away")).to_contain_text(EN["clock.late"])
    expect(bo.page.get_by_test_id("notice")).to_have_count(0)
    expect(bo.page.get_by_test_id("banner")).to_have_attribute("data-phase", "submit")
    expect(bo.page.get_by_test_id("notice")).to_have_count(0)


def test_a_paused_table_says_so_in_the_banner(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    ticket = seat_in_room(ann, server, bots=2, first_storyteller="host", timers={"clue": 2})
    code = ticket["code"]
    tv = opened("TV", viewport=TV)
    start_game(ann, code)
    tv.page.goto(f"/r/{code}/tv")
    page = ann.page
    expect(page.get_by_test_id("away")).to_contain_text(EN["clock.paused"])
    assert api(server, "GET", f"/api/rooms/{code}")["paused"]
    # The first game's tip waits under the "I'm here" panel, never over it.
    expect(page.get_by_test_id("tip")).to_be_visible()
    for part in ("[data-testid=away] p", "[data-testid=here]"):
        page.locator(part).first.scroll_into_view_if_needed()
        assert shown(page, part), part
    for lang in LANGUAGES:
        page.get_by_test_id("lang").select_option(lang)
        paused = messages(lang)["turn.paused"]
        expect(page.locator("[data-testid=banner] .banner-text")).to_have_text(paused)
    expect(tv.page.locator("[data-testid=banner] .banner-text")).to_have_text(EN["turn.paused"])
    page.get_by_test_id("here").click()
    expect(page.locator("[data-testid=banner] .banner-text")).not_to_have_text(
        messages(LANGUAGES[-1])["turn.paused"]
    )


def test_the_2021_pile_labels_are_whole_on_a_narrow_phone(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    seated(ann, server, bots=2, first_storyteller="host", edition="2021")
    ann.page.get_by_test_id("start").click()
    wait_turn(ann, "yourClue")
    page = ann.page
    for lang in LANGUAGES:
        page.get_by_test_id("lang").select_option(lang)
        m = messages(lang)
        pile = page.get_by_test_id("pile")
        n = re.sub(r"\D", "", pile.locator(".count-long").inner_text())
        assert n, lang
        # In sight: the short label, whole; read out: the whole one.
        expect(pile.locator(".count-short")).to_have_text(m["game.pileShort"].replace("{n}", n))
        expect(pile.locator(".count-long")).to_have_text(m["game.pile"].replace("{n}", n))
        expect(page.get_by_test_id("discard").locator(".count-short")).to_have_text(
            m["game.discardShort"].replace("{n}", "0")
        )
        assert cut(page, ".banner-meta > *") == [], lang
        assert box(page, ".banner-meta")["right"] <= PHONE["width"], lang
