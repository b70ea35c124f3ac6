"""The table a newcomer finds (#28): the clue always readable on a phone, the reveal kept until
closed, past rounds one tap away, a TV read from the sofa, keys that cross one's own card."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from e2e_helpers import (
    MISSING_MARK,
    PHONE,
    Player,
    api,
    choosable,
    join_by_link,
    messages,
    start,
    wait_turn,
)
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


def pick(p: Player, row: str, index: int) -> None:
    """Choose a card, as a person would: a tap that lands while the turn is just changing is
    dropped by the client (it was meant for the turn before), so tap again until it is chosen."""
    card = choosable(p, row).nth(index)
    for _ in range(20):
        card.click()
        if card.get_attribute("aria-pressed") == "true":
            return
        p.page.wait_for_timeout(100)
    raise AssertionError(f"{p.name}: card {index} of the {row} could not be chosen")


def submit(p: Player, count: int = 1) -> None:
    wait_turn(p, "yourSubmit")
    for i in range(count):
        pick(p, "hand", i)
    p.page.get_by_test_id("submit").click()
    expect(p.page.get_by_test_id("banner")).not_to_have_attribute("data-turn", "yourSubmit")


def tell(p: Player, clue: str) -> None:
    wait_turn(p, "yourClue")
    pick(p, "hand", 0)
    p.page.get_by_test_id("clue-input").fill(clue)
    p.page.get_by_test_id("tell").click()
    expect(p.page.get_by_test_id("clue-input")).to_have_count(0)


def whole_on_screen(page: Page, selector: str) -> dict[str, Any]:
    """Where the element is and whether any of its text is cut (clipped or scrolled away)."""
    return dict(
        page.evaluate(
            """(sel) => { const el = document.querySelector(sel);
                const r = el.getBoundingClientRect();
                return { top: r.top, bottom: r.bottom, left: r.left, right: r.right,
                  cut: el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1,
                  text: el.textContent }; }""",
            selector,
        )
    )


def shown(page: Page, selector: str) -> bool:
    """The element's centre is painted by it (not clipped away, not under something else)."""
    return bool(
        page.evaluate(
            """(sel) => { const el = document.querySelector(sel);
                const r = el.getBoundingClientRect();
                const x = r.left + Math.min(8, r.width / 2);
                const hit = document.elementFromPoint(x, r.top + r.height / 2);
                return el === hit || el.contains(hit); }""",
            selector,
        )
    )


def px(page: Page, selector: str) -> float:
    return float(page.eval_on_selector(selector, "e => parseFloat(getComputedStyle(e).fontSize)"))


def min_px(page: Page, selector: str) -> float:
    """The smallest font size among the elements (and their text-holding children)."""
    return float(
        page.eval_on_selector_all(
            selector,
            "els => Math.min(...els.flatMap(e => [e, ...e.querySelectorAll('*')])"
            ".filter(e => [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()))"
            ".map(e => parseFloat(getComputedStyle(e).fontSize)))",
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
        # The sticky banner: the storyteller's name whole; a tap shows the whole clue.
        teller = whole_on_screen(page, "[data-testid=banner-clue] .banner-teller")
        assert teller["text"] == "Ann:" and not teller["cut"], (lang, teller)
        assert shown(page, "[data-testid=banner-clue] .banner-teller"), lang
        assert shown(page, "[data-testid=banner-clue] q"), lang
        page.get_by_test_id("banner-clue").click()
        expect(page.get_by_test_id("banner-clue")).to_have_attribute("aria-expanded", "true")
        # The whole clue, with the storyteller's name, inside the 360x640 screen.
        opened_clue = whole_on_screen(page, "[data-testid=banner-clue] q")
        assert opened_clue["text"] == CLUE, lang
        assert not opened_clue["cut"], (lang, opened_clue)
        assert opened_clue["top"] >= 0 and opened_clue["bottom"] <= PHONE["height"], lang
        assert opened_clue["left"] >= 0 and opened_clue["right"] <= PHONE["width"], lang
        assert shown(page, "[data-testid=banner-clue] .banner-teller"), lang
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

    # The zoom's buttons never sit on its caption (a long description scrolls inside the figure).
    page.locator("[data-testid=table] .card-zoom").first.click()
    expect(page.get_by_test_id("zoom-caption")).to_be_visible()
    figure_bottom = page.eval_on_selector(".zoom-figure", "e => e.getBoundingClientRect().bottom")
    bar_top = page.eval_on_selector(".zoom-bar", "e => e.getBoundingClientRect().top")
    assert figure_bottom <= bar_top, (figure_bottom, bar_top)
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("zoom")).to_have_count(0)

    # A line said while the phone player's talk is out of sight: a sign leads there.
    page.evaluate("scrollTo(0, 0)")
    ann.page.get_by_test_id("chat-input").fill("which one is it?")
    ann.page.get_by_test_id("chat-send").click()
    expect(page.get_by_test_id("chat-new")).to_be_visible()
    page.get_by_test_id("chat-new").click()
    expect(page.get_by_test_id("chat-line").last).to_be_in_viewport()
    expect(page.get_by_test_id("chat-new")).to_have_count(0)

    # The desktop's side column goes with the page: the host's controls and the talk are whole.
    side = ann.page.locator(".game-side")
    assert side.evaluate("e => e.scrollHeight <= e.clientHeight + 1")
    ann.page.get_by_test_id("chat-input").scroll_into_view_if_needed()
    expect(ann.page.get_by_test_id("chat-input")).to_be_in_viewport()


def test_reveal_stays_until_closed_and_past_rounds_are_one_tap_away(
    opened: Any, server: str
) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    ann.page.clock.install()
    code = seated(ann, server, bots=2, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 3)
    # The TV in the clue phase: who is thinking, large; the room code large at all times.
    expect(tv.page.get_by_test_id("tv-think")).to_contain_text("Ann")
    assert px(tv.page, "[data-testid=tv-think] p") >= 40
    expect(tv.page.get_by_test_id("tv-code")).to_have_text(code)
    assert px(tv.page, "[data-testid=tv-code]") >= 56
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

    # The TV's reveal reads from the sofa: names under cards, voters, points and reasons >= 28 px.
    expect(tv.page.get_by_test_id("reveal")).to_be_visible()
    for sel in (".reveal-owner", ".voter", ".points strong", ".points-why", ".player-name"):
        assert tv.page.locator(sel).count() > 0, sel
        assert min_px(tv.page, sel) >= 28, sel
    expect(tv.page.get_by_test_id("tv-code")).to_be_in_viewport()

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
    # The history comes back with the page (the welcome carries every round; later updates
    # only the latest, which the client adds to what it keeps).
    page.reload()
    wait_turn(ann, "yourSubmit")
    page.get_by_test_id("open-history").click()
    expect(page.get_by_test_id("history-round")).to_have_count(1)
    page.get_by_test_id("history-close").click()
    # Each game page has its level-one heading (read out, not shown: the banner is the title).
    expect(page.locator("h1")).to_have_count(1)
    expect(tv.page.locator("h1")).to_have_count(1)

    tvp = tv.page
    tvp.get_by_test_id("open-history").click()
    expect(tvp.get_by_test_id("history").get_by_test_id("history-round")).to_have_count(1)
    tvp.get_by_test_id("history-close").click()


def test_how_to_play_in_six_languages_linked_from_every_page_and_tips(
    opened: Any, server: str
) -> None:
    p = opened("Ann", viewport=PHONE, mobile=True)
    page = p.page
    page.goto("/")
    page.get_by_test_id("help-link").click()
    expect(page.get_by_test_id("how-to-play")).to_be_visible()
    assert page.evaluate("location.pathname") == "/rules"
    for lang in LANGUAGES:
        page.get_by_test_id("lang").select_option(lang)
        expect(page.locator("h1")).to_have_text(messages(lang)["help.title"])
        body = page.get_by_test_id("how-to-play").inner_text()
        assert MISSING_MARK not in body, lang
        for key in ("help.step3", "help.score.some", "help.score.all", "help.aim"):
            assert messages(lang)[key] in body, (lang, key)
    # Real card pictures from the default deck.
    pictures = page.locator(".howto-card img")
    expect(pictures.first).to_be_visible()
    page.wait_for_function(
        "[...document.querySelectorAll('.howto-card img')]"
        ".every(i => i.complete && i.naturalWidth > 0)"
    )
    assert pictures.count() >= 5
    page.get_by_test_id("lang").select_option("en")

    # From the lobby and the game: a link that opens the rules in a new tab.
    seated(p, server, bots=2, first_storyteller="host")
    link = page.get_by_test_id("help-link")
    expect(link).to_have_attribute("href", "/rules")
    expect(link).to_have_attribute("target", "_blank")
    # The host's Start is on screen without scrolling.
    expect(page.get_by_test_id("start")).to_be_in_viewport()
    page.get_by_test_id("start").click()
    wait_turn(p, "yourClue")
    expect(page.get_by_test_id("help-link")).to_have_attribute("target", "_blank")
    # The first game's tips: one line for the turn, turned off for good with one tap.
    expect(page.get_by_test_id("tip")).to_contain_text(messages("en")["hint.yourClue"])
    page.get_by_test_id("tips-off").click()
    expect(page.get_by_test_id("tip")).to_have_count(0)
    page.reload()
    wait_turn(p, "yourClue")
    expect(page.get_by_test_id("tip")).to_have_count(0)


def test_play_now_takes_a_seat_or_opens_a_room(opened: Any, server: str) -> None:
    open_tables = [t for t in api(server, "GET", "/api/tables")["tables"] if t["seats_free"] > 0]
    p = opened("Cy", viewport=PHONE, mobile=True)
    p.page.goto("/")
    p.page.get_by_test_id("name").fill("Cy")
    p.page.get_by_test_id("play-now").click()
    expect(p.page.get_by_test_id("lobby")).to_be_visible()
    if open_tables:
        assert p.page.get_by_test_id("room-code").inner_text() in {t["code"] for t in open_tables}
    else:
        expect(p.page.get_by_test_id("seat")).to_have_count(4)  # Cy and three computer players
        expect(p.page.get_by_test_id("start")).to_be_in_viewport()


def test_game_over_names_who_reached_the_score_and_no_one_tells(opened: Any, server: str) -> None:
    ann = opened("Ann")
    code = seated(ann, server, bots=2, first_storyteller="host", end_at_score=1)
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 3)
    tell(ann, "the first word")
    over = tv.page.get_by_test_id("game-over")
    expect(over).to_be_visible()
    scores = api(server, "GET", f"/api/rooms/{code}")
    names = {s["id"]: s["name"] for s in scores["seats"]}
    reason = tv.page.get_by_test_id("end-reason").inner_text()
    assert "Someone" not in reason
    leaders = [row.get_attribute("data-player") for row in tv.page.get_by_test_id("player").all()]
    assert any(names[pid or ""] in reason for pid in leaders), reason
    expect(tv.page.locator(".badge--teller")).to_have_count(0)
    expect(ann.page.locator(".badge--teller")).to_have_count(0)


def test_the_2021_discard_pile_opens_as_cards(opened: Any, server: str) -> None:
    ann = opened("Ann")
    seated(ann, server, bots=2, first_storyteller="host", edition="2021")
    ann.page.get_by_test_id("start").click()
    tell(ann, "an empty chair")
    page = ann.page
    expect(page.get_by_test_id("reveal")).to_be_visible()
    table = [
        c.get_attribute("data-card")
        for c in page.get_by_test_id("reveal").get_by_test_id("table-card").all()
    ]
    assert len(table) == 5  # three players: the storyteller's card and two each
    page.get_by_test_id("discard").click()
    zoom = page.get_by_test_id("zoom")
    expect(zoom).to_be_visible()
    shown = []
    for _ in table:
        shown.append(zoom.locator("img").get_attribute("src"))
        page.keyboard.press("ArrowRight")
    assert sorted(shown) == sorted(f"/cards/{c}" for c in table)


def test_an_upload_names_each_file_left_out_and_why(
    opened: Any, server: str, tmp_path: Path
) -> None:
    import io
    import zipfile

    from PIL import Image

    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as zf:
        picture = io.BytesIO()
        Image.new("RGB", (400, 600), (90, 120, 200)).save(picture, "PNG")
        zf.writestr("moon.png", picture.getvalue())
        tiny = io.BytesIO()
        Image.new("RGB", (20, 30), (200, 40, 40)).save(tiny, "PNG")
        zf.writestr("stamp.png", tiny.getvalue())
        zf.writestr("notes.png", b"this is no picture")
    path = tmp_path / "mixed.zip"
    path.write_bytes(archive.getvalue())
    p = opened("Ann", viewport=PHONE, mobile=True, locale="pl-PL")
    seated(p, server, bots=2)
    page = p.page
    page.get_by_test_id("own-pictures").locator("summary").click()
    page.get_by_test_id("upload-file").set_input_files(str(path))
    page.get_by_test_id("upload-send").click()
    left = page.get_by_test_id("upload-left-file")
    expect(left).to_have_count(2)
    pl = messages("pl")
    texts = sorted(left.all_inner_texts())
    assert texts == sorted(
        [
            f"notes.png: {pl['upload.reason.not-an-image']}",
            f"stamp.png: {pl['upload.reason.too-small']}",
        ]
    ), texts
    # Only the new one-card deck chosen: the lobby says how many cards the table lacks.
    expect(page.get_by_test_id("cards-short")).to_have_count(0)
    new_deck = page.locator("[data-testid=deck][data-slug^=mixed]")
    expect(new_deck).to_have_class(re.compile(r"\bis-on\b"))  # chosen on import
    others = page.locator(
        "[data-testid=deck].is-on:not([data-slug^=mixed]) [data-testid=deck-check]"
    )
    if others.count() > 0:
        # A controlled box: it shows the change once the room's settings say it.
        others.first.click()
    expect(page.locator("[data-testid=deck].is-on")).to_have_count(1)
    short = pl["lobby.cardsShort"].replace("{have}", "1").replace("{need}", str(3 * 7 + 5))
    expect(page.get_by_test_id("cards-short")).to_have_text(short)
