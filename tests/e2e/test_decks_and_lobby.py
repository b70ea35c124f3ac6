"""Decks, card words and the lobby as a player meets them (issues 8, 9, 10): a deck picker with
previews and the count, card text and credits in the viewer's language, a host describing their
own pictures, the notice when computer players cannot read, and the ways back to a game."""

from __future__ import annotations

import io
import json
import re
import urllib.error
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import DESKTOP, PHONE, Player, api, assert_accessible, messages
from e2e_server import committed_decks, illustrated_fixture, start_server, stop_server
from playwright.sync_api import expect

TV = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def decks_server(_requirements: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose built-in decks are the committed ones plus an illustrated stand-in
    (``golden-tales``: six-language text and credits, recommended), so it is the default deck."""
    data = tmp_path_factory.mktemp("dixit-decks")
    (data / "tree").mkdir()
    decks = committed_decks(data / "tree")
    illustrated_fixture(decks)
    proc, base, log = start_server(data, data / "server.log", decks=decks)
    yield base
    stop_server(proc, log)


@pytest.fixture
def base_url(decks_server: str) -> str:
    return decks_server


def seat_in_room(p: Player, base: str, **settings: Any) -> dict[str, Any]:
    """A room made through the API, its ticket stored as the home page would store it."""
    ticket: dict[str, Any] = api(base, "POST", "/api/rooms", {"name": p.name, "settings": settings})
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    return ticket


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP, TV], ids=["phone", "desktop", "tv"])
def test_home_picks_decks_with_previews_and_count(
    opened: Any, decks_server: str, viewport: Any
) -> None:
    p = opened("Ann", viewport=viewport)
    page = p.page
    page.goto("/")
    decks = page.get_by_test_id("deck")
    listed = api(decks_server, "GET", "/api/decks")["decks"]
    expect(decks).to_have_count(len(listed))
    story = page.locator("[data-testid=deck][data-slug=golden-tales]")
    # The recommended deck is the default: listed first, marked, chosen before anyone touches it.
    expect(decks.first).to_have_attribute("data-slug", "golden-tales")
    expect(story.get_by_test_id("deck-recommended")).to_have_text("Recommended")
    expect(page.get_by_test_id("deck-recommended")).to_have_count(1)
    expect(story.get_by_test_id("deck-check")).to_be_checked()
    expect(story.locator(".deck-preview img")).to_have_count(4)
    src = story.locator(".deck-preview img").first.get_attribute("src") or ""
    assert re.fullmatch(r"/cards/golden-tales-[0-9a-f]{12}", src), src
    expect(page.get_by_test_id("deck-total")).to_have_text("84 cards in the game")
    assert_accessible(page)
    page.locator("[data-testid=deck][data-slug=default-2] [data-testid=deck-check]").check()
    expect(page.get_by_test_id("deck-total")).to_have_text("168 cards in the game")
    page.get_by_test_id("name").fill("Ann")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    code = page.get_by_test_id("room-code").inner_text().strip()
    room = api(decks_server, "GET", f"/api/rooms/{code}")
    assert sorted(room["settings"]["decks"]) == ["default-2", "golden-tales"]
    # The lobby shows the same choice; the host can change it there too.
    expect(page.get_by_test_id("deck-total")).to_have_text("168 cards in the game")
    # (a click: the box follows the room's settings once the server has taken them)
    page.locator("[data-testid=deck][data-slug=default-2] [data-testid=deck-check]").click()
    expect(page.get_by_test_id("deck-total")).to_have_text("84 cards in the game")
    expect(page.get_by_test_id("seats")).to_be_visible()
    assert api(decks_server, "GET", f"/api/rooms/{code}")["settings"]["decks"] == ["golden-tales"]


def test_card_text_and_credits_in_the_viewers_language(opened: Any, decks_server: str) -> None:
    p = opened("Ann", locale="it")
    ticket = seat_in_room(p, decks_server, bots=3, first_storyteller="host")
    page = p.page
    page.goto(f"/r/{ticket['code']}")
    page.get_by_test_id("start").click()
    hand = page.locator("[data-testid=hand] img")
    expect(hand).to_have_count(6)
    expect(hand.first).to_have_attribute("alt", re.compile(r"^\[it\] "))
    page.locator("[data-testid=hand] .card-zoom").first.click()
    caption = page.get_by_test_id("zoom-caption")
    expect(caption.locator(".zoom-title")).to_have_text(re.compile(r"^\[it\] "))
    expect(caption.locator(".zoom-text")).to_have_text(re.compile(r"^\[it\] "))
    assert_accessible(page)
    expect(page.get_by_test_id("zoom-credit")).to_contain_text(
        re.compile(r"Artist \d — Book \d \(1910\)")
    )
    page.get_by_test_id("deck-credits").click()
    expect(page.get_by_test_id("credit")).to_have_count(84)
    assert_accessible(page)
    expect(page.get_by_test_id("credits").get_by_role("heading")).to_have_text(
        messages("it")["credits.title"]
    )
    page.keyboard.press("Escape")  # closes the credits, not the zoom
    expect(page.get_by_test_id("credits")).to_have_count(0)
    expect(page.get_by_test_id("zoom")).to_be_visible()
    page.keyboard.press("Escape")
    page.get_by_test_id("lang").select_option("pl")
    expect(hand.first).to_have_attribute("alt", re.compile(r"^\[pl\] "))


def _pictures(count: int) -> bytes:
    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(count):
            picture = io.BytesIO()
            Image.new("RGB", (400, 600), (70 * i % 255, 120, 200 - 40 * i)).save(picture, "PNG")
            zf.writestr(f"holiday_{i}.png", picture.getvalue())
    return archive.getvalue()


def test_host_uploads_pictures_and_describes_them(
    opened: Any, decks_server: str, tmp_path: Path
) -> None:
    p = opened("Ann", viewport=PHONE)
    ticket = seat_in_room(p, decks_server, bots=2)
    page = p.page
    page.goto(f"/r/{ticket['code']}")
    expect(page.get_by_test_id("bots-blind")).to_have_count(0)  # the default deck is described
    page.get_by_test_id("own-pictures").locator("summary").click()
    zip_path = tmp_path / "holiday.zip"
    zip_path.write_bytes(_pictures(3))
    page.get_by_test_id("upload-file").set_input_files(str(zip_path))
    page.get_by_test_id("upload-name").fill("Our holiday")
    page.get_by_test_id("upload-send").click()
    expect(page.get_by_test_id("upload-status")).to_contain_text("3 cards added")
    inputs = page.get_by_test_id("caption-input")
    expect(inputs).to_have_count(3)
    assert_accessible(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Chosen at once, and said plainly: computer players cannot read these three.
    expect(page.get_by_test_id("deck-total")).to_have_text("87 cards in the game")
    expect(page.get_by_test_id("bots-blind")).to_contain_text("3 of these cards")
    captions = ["a red tent by a lake", "two children on a pier", "a dog asleep in a boat"]
    for i, text in enumerate(captions):
        inputs.nth(i).fill(text)
    page.get_by_test_id("captions-save").click()
    expect(page.get_by_test_id("captions-status")).to_have_text("3 of 3 cards described.")
    expect(page.get_by_test_id("bots-blind")).to_have_count(0)
    slug = next(
        s
        for s in api(decks_server, "GET", f"/api/rooms/{ticket['code']}")["settings"]["decks"]
        if s.startswith("our-holiday")
    )
    seat = {"x-dixit-seats": f"{ticket['code']}:{ticket['token']}"}  # an upload is private
    words = api(decks_server, "GET", f"/api/decks/{slug}/cards", headers=seat)["cards"]
    assert sorted(c["alt"] for c in words) == sorted(captions)
    # Its pictures load in this browser (the dixit_seats cookie), and nowhere else.
    first = inputs.nth(0).locator("xpath=ancestor::*[.//img][1]").locator("img").first
    first.scroll_into_view_if_needed()
    expect(first).to_have_js_property("complete", True)
    assert first.evaluate("img => img.naturalWidth") > 0
    card = words[0]["id"]
    assert page.evaluate(f"fetch('/cards/{card}').then(r => r.status)") == 200
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{decks_server}/cards/{card}", timeout=10)
    assert refused.value.code == 404
    # One more picture goes into the same deck (not a new deck each time).
    one = tmp_path / "extra.zip"
    one.write_bytes(_pictures(4))  # three it has already, one new
    page.get_by_test_id("upload-into").select_option(slug)
    expect(page.get_by_test_id("upload-name")).to_have_count(0)
    page.get_by_test_id("upload-file").set_input_files(str(one))
    page.get_by_test_id("upload-send").click()
    expect(page.get_by_test_id("upload-status")).to_contain_text("1 card added (files left out: 3)")
    expect(page.get_by_test_id("deck-total")).to_have_text("88 cards in the game")
    expect(page.get_by_test_id("caption-input")).to_have_count(4)
    # The host renames their deck; only they see it to change it.
    mine = page.locator(f"[data-testid=deck][data-slug={slug}]")
    mine.get_by_test_id("deck-rename").click()
    mine.get_by_test_id("deck-rename-input").fill("Summer")
    mine.get_by_test_id("deck-rename-save").click()
    expect(mine.locator(".deck-name")).to_have_text("Summer")
    assert_accessible(page)


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP, TV], ids=["phone", "desktop", "tv"])
def test_unknown_addresses_say_so_at_once(opened: Any, viewport: Any) -> None:
    p = opened("Ann", viewport=viewport)
    page = p.page
    page.goto("/r/!!bad")
    expect(page.get_by_test_id("not-found")).to_contain_text("There is no page here.")
    page.goto("/r/QQQQQQ")
    expect(page.get_by_test_id("not-found")).to_contain_text("There is no room QQQQQQ.")
    expect(page.get_by_test_id("name")).to_have_count(0)  # no join form to fill in vain
    assert_accessible(page)
    page.get_by_test_id("go-home").click()
    expect(page.get_by_test_id("create")).to_be_visible()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_home_leads_back_to_your_game(opened: Any, decks_server: str, viewport: Any) -> None:
    p = opened("Ann", viewport=viewport)
    ticket = seat_in_room(p, decks_server, bots=2)
    page = p.page
    page.goto("/")
    back = page.get_by_test_id("return-room")
    expect(back).to_have_text(f"Back to room {ticket['code']}")
    back.click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    page.get_by_test_id("start").click()
    expect(page.get_by_test_id("game")).to_be_visible()
    page.goto("/")
    expect(back).to_have_text(f"Back to your game in room {ticket['code']}")


def test_copy_link_without_a_clipboard_selects_the_link(opened: Any, decks_server: str) -> None:
    p = opened("Ann", viewport=PHONE)
    ticket = seat_in_room(p, decks_server)
    page = p.page
    # Plain http on a LAN: no secure context, so no navigator.clipboard.
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    page.goto(f"/r/{ticket['code']}")
    page.get_by_test_id("copy").click()
    expect(page.get_by_test_id("copy-status")).to_have_text(messages("en")["lobby.selected"])
    selected = page.evaluate(
        "() => { const i = document.activeElement;"
        " return i.value.slice(i.selectionStart, i.selectionEnd); }"
    )
    assert selected.endswith(f"/r/{ticket['code']}")


@pytest.mark.parametrize("edition,limit", [("classic", 5), ("2021", 7)])
def test_computer_players_capped_to_the_edition(opened: Any, edition: str, limit: int) -> None:
    p = opened("Ann", viewport=PHONE)
    page = p.page
    page.goto("/")
    page.get_by_test_id("name").fill("Ann")
    page.locator(f"input[name=edition][value='{edition}']").check()
    page.get_by_test_id("bots").fill("7")
    expect(page.get_by_test_id("bots")).to_have_value(str(limit))
    expect(page.get_by_test_id("bots-limit")).to_have_text(f"At most {limit}: you take one seat.")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("seat")).to_have_count(limit + 1)


@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}], ids=["phone", "1280"])
def test_more_options_are_not_cut_off(opened: Any, viewport: Any) -> None:
    p = opened("Ann", viewport=viewport)
    page = p.page
    page.goto("/")
    page.locator("details.more > summary").click()
    cut = page.evaluate(
        """() => [...document.querySelectorAll('details.more select, details.more input')]
            .filter(e => e.scrollWidth > e.clientWidth + 1
                || e.getBoundingClientRect().right > innerWidth)
            .map(e => e.outerHTML.slice(0, 80))"""
    )
    assert cut == []
    # A select shows its chosen option whole.
    for select in page.locator("details.more select").all():
        text = select.evaluate("e => e.options[e.selectedIndex].text")
        fits = select.evaluate(
            """(e) => { const c = document.createElement('canvas').getContext('2d');
                c.font = getComputedStyle(e).font;
                const need = c.measureText(e.options[e.selectedIndex].text).width + 28;
                return need <= e.clientWidth; }"""
        )
        assert fits, text


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP, TV], ids=["phone", "desktop", "tv"])
def test_lobby_says_the_rules_before_start(opened: Any, decks_server: str, viewport: Any) -> None:
    en = messages("en")
    p = opened("Ann", viewport=viewport)
    ticket = seat_in_room(p, decks_server, bots=2, timers={"clue": 90, "vote": 45})
    p.page.goto(f"/r/{ticket['code']}")
    summary = p.page.get_by_test_id("rules-summary")
    expect(summary).to_contain_text(en["summary.classic"])
    expect(summary).to_contain_text(en["summary.three"])  # 3 seats: the 3-player variant
    expect(summary).to_contain_text(en["summary.lone"])
    expect(summary).to_contain_text("Clue 90 s, Vote 45 s")
    q = opened("Bo", viewport=viewport)
    ticket = seat_in_room(q, decks_server, edition="2021", bots=4, end_at_score=20)
    q.page.goto(f"/r/{ticket['code']}")
    summary = q.page.get_by_test_id("rules-summary")
    expect(summary).to_contain_text(en["summary.2021"])
    expect(summary).to_contain_text(en["summary.endAt#other"].replace("{count}", "20"))
    expect(summary).to_contain_text(en["summary.noTimers"])
    expect(summary).not_to_contain_text(en["summary.three"])
    expect(summary).not_to_contain_text("30")  # the room's own goal, not the edition's


def test_host_chooses_and_changes_computer_levels(opened: Any, decks_server: str) -> None:
    ann = opened("Ann", viewport=PHONE)
    ticket = seat_in_room(ann, decks_server, bots=1)
    code = ticket["code"]
    page = ann.page
    page.goto(f"/r/{code}")
    page.get_by_test_id("add-bot-level").select_option("strong")
    page.get_by_test_id("add-bot").click()
    levels = page.get_by_test_id("seat-level")
    expect(levels).to_have_count(2)
    expect(levels.nth(1)).to_have_value("strong")
    expect(levels.nth(0)).to_have_value("medium")
    levels.nth(0).select_option("easy")
    expect(levels.nth(0)).to_have_value("easy")
    seats = api(decks_server, "GET", f"/api/rooms/{code}")["seats"]
    assert [s["bot_level"] for s in seats] == [None, "easy", "strong"]
    # Another player sees the levels, and cannot change them.
    bo = opened("Bo", viewport=PHONE)
    bo.page.goto(f"/r/{code}")
    bo.page.get_by_test_id("name").fill("Bo")
    bo.page.get_by_test_id("join").click()
    expect(bo.page.get_by_test_id("bot-badge")).to_have_text(
        ["Computer · Easy", "Computer · Strong"]
    )
    expect(bo.page.get_by_test_id("seat-level")).to_have_count(0)
    # The room's clue language follows its creator's, and the host can change it.
    assert api(decks_server, "GET", f"/api/rooms/{code}")["settings"]["language"] == "en"
    page.get_by_test_id("room-language").select_option("it")
    expect(page.get_by_test_id("room-language")).to_have_value("it")
    assert api(decks_server, "GET", f"/api/rooms/{code}")["settings"]["language"] == "it"


def test_a_seat_handed_to_the_computer_comes_back(opened: Any, decks_server: str) -> None:
    en = messages("en")
    ann = opened("Ann", viewport=PHONE)
    ticket = seat_in_room(ann, decks_server, bots=1, first_storyteller="host")
    code = ticket["code"]
    ann.page.goto(f"/r/{code}")
    bo = opened("Bo", viewport=PHONE)
    bo.page.goto(f"/r/{code}")
    bo.page.get_by_test_id("name").fill("Bo")
    bo.page.get_by_test_id("join").click()
    expect(ann.page.get_by_test_id("seat")).to_have_count(3)
    ann.page.get_by_test_id("start").click()
    expect(ann.page.locator("[data-testid=banner][data-turn=yourClue]")).to_be_visible()
    ann.page.locator("[data-testid=hand] button.card-face:not([disabled])").first.click()
    ann.page.get_by_test_id("clue-input").fill("a seat kept warm")
    ann.page.get_by_test_id("tell").click()
    expect(bo.page.locator("[data-testid=banner][data-turn=yourSubmit]")).to_be_visible()
    ann.page.get_by_test_id("host-controls").locator("summary").click()
    ann.page.get_by_role("button", name="Let the computer play for Bo").click()
    autoplayed = en["notice.seat/autoplayed"].replace("{name}", "Bo")
    expect(ann.page.get_by_test_id("notice")).to_have_text(autoplayed)
    # Bo reads it once, in the "I'm here" panel (no toast besides).
    expect(bo.page.get_by_test_id("away")).to_contain_text(en["clock.autoplay"])
    expect(bo.page.get_by_test_id("notice")).to_have_count(0)
    bo.page.context.set_offline(True)  # Bo's phone drops out and comes back:
    expect(bo.page.get_by_test_id("conn")).to_have_attribute("data-status", "reconnecting")
    bo.page.context.set_offline(False)  # the seat is Bo's again, and everyone is told
    expect(ann.page.get_by_test_id("notice")).to_have_text(
        en["notice.seat/reclaimed"].replace("{name}", "Bo")
    )
    expect(bo.page.get_by_test_id("notice")).to_have_text(en["notice.you.seat/reclaimed"])
    bo_name = ann.page.locator(".player-name", has_text=re.compile("^Bo$"))
    bo_row = ann.page.get_by_test_id("player").filter(has=bo_name)
    expect(bo_row.locator(".badge", has_text="computer")).to_have_count(0)
