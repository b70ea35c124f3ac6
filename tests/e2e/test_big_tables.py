"""Big tables (#31): 12 seats under the Odyssey rules on a 360x640 phone and a 1920x1080 TV —
two votes, the party's void, the teams' partner hand and team chat, 12 distinct rabbits."""

from __future__ import annotations

import json
from typing import Any

from e2e_helpers import (
    PHONE,
    Player,
    api,
    assert_accessible,
    choosable,
    settled,
    start,
    wait_turn,
)
from playwright.sync_api import expect

TV = {"width": 1920, "height": 1080}


def seated(p: Player, base: str, **settings: Any) -> str:
    """A room made through the API with its ticket given to the page (the home form is tested
    below on its own), then the lobby."""
    ticket = api(base, "POST", "/api/rooms", {"name": p.name, "settings": settings})
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(f"/r/{ticket['code']}")
    expect(p.page.get_by_test_id("lobby")).to_be_visible()
    return str(ticket["code"])


def pick(p: Player, row: str, index: int) -> None:
    """Tap a card that can be chosen now, once the turn's tap guard is past."""
    settled(p)
    card = choosable(p, row).nth(index)
    card.click()
    expect(card).to_have_attribute("aria-pressed", "true")


def tell(p: Player, clue: str) -> None:
    wait_turn(p, "yourClue")
    pick(p, "hand", 0)
    p.page.get_by_test_id("clue-input").fill(clue)
    p.page.get_by_test_id("tell").click()
    expect(p.page.get_by_test_id("clue-input")).to_have_count(0)


def min_px(page: Any, selector: str) -> float:
    return float(
        page.eval_on_selector_all(
            selector,
            "els => Math.min(...els.filter(e => e.offsetParent !== null)"
            ".map(e => parseFloat(getComputedStyle(e).fontSize)))",
        )
    )


def tag_of(card: Any) -> str:
    return str(card.locator(".card-tag").inner_text()).strip()


def test_the_home_offers_odyssey_and_its_modes_each_explained(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    page = ann.page
    page.goto("/")
    expect(page.get_by_test_id("modes")).to_have_count(0)  # the modes come with Odyssey
    page.get_by_test_id("name").fill("Ann")
    page.locator("input[name=edition][value='odyssey']").check()
    expect(page.get_by_test_id("bots-limit")).to_contain_text("11")
    about = page.get_by_test_id("mode-about")
    seen = set()
    for mode in ("standard", "party", "teams"):
        page.get_by_test_id(f"mode-{mode}").check()
        seen.add(about.inner_text())
    assert len(seen) == 3
    page.get_by_test_id("bots").fill("11")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    expect(page.get_by_test_id("seat")).to_have_count(12)
    # The lobby says the mode before Start, and all twelve rabbits differ.
    expect(page.get_by_test_id("rules-summary")).to_contain_text("teams of two")
    colours = page.locator("[data-testid=seat] svg").evaluate_all(
        "els => els.map(e => e.querySelector('ellipse').getAttribute('fill'))"
    )
    assert len(set(colours)) == 12, colours


def test_two_votes_on_a_phone_at_twelve_seats_and_the_tv(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    code = seated(ann, server, edition="odyssey", bots=11, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 12)
    page = ann.page

    # Ann tells; the eleven computer players vote twice each (or once): the reveal says which.
    tell(ann, "a lighthouse in the fog")
    expect(page.get_by_test_id("reveal")).to_be_visible(timeout=60_000)
    tokens = page.locator("[data-testid=reveal] [data-testid=voter]")
    assert page.locator("[data-testid=reveal] [data-testid=voter][data-vote='2']").count() > 0
    assert tokens.locator(".vote-token").count() == tokens.count()

    # The TV's reveal: 12 pictures, 12 rabbits on the track, names read from the sofa.
    tvp = tv.page
    expect(tvp.get_by_test_id("reveal")).to_be_visible()
    expect(tvp.locator("[data-testid=reveal] [data-testid=table-card]")).to_have_count(12)
    expect(tvp.locator("[data-testid=score-track] .track-rabbit")).to_have_count(12)
    expect(tvp.get_by_test_id("player")).to_have_count(12)
    for sel in (".player-name", ".voter", ".reveal-owner", ".points strong"):
        assert min_px(tvp, sel) >= 28, sel
    assert tvp.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # ...on one screen: every picture, the last player's points and the room code in sight.
    for card in tvp.locator("[data-testid=reveal] [data-testid=table-card]").all():
        expect(card).to_be_in_viewport()
    expect(tvp.get_by_test_id("round-point").last).to_be_in_viewport()
    expect(tvp.get_by_test_id("tv-code")).to_be_in_viewport()
    page.get_by_test_id("reveal-close").click()

    # A computer tells; Ann hands in a card, then has two votes.
    wait_turn(ann, "yourSubmit")
    pick(ann, "hand", 0)
    page.get_by_test_id("submit").click()
    wait_turn(ann, "yourVote")
    expect(page.locator("[data-testid=table] [data-testid=table-card]")).to_have_count(12)
    # The TV while the votes come in: twelve pictures and twelve players on one screen.
    tv_table = tvp.locator("[data-testid=table] [data-testid=table-card]")
    expect(tv_table).to_have_count(12)
    for card in tv_table.all():
        expect(card).to_be_in_viewport(ratio=1)
    expect(tvp.get_by_test_id("player").last).to_be_in_viewport(ratio=1)
    expect(tvp.get_by_test_id("tv-code")).to_be_in_viewport(ratio=1)
    expect(page.get_by_test_id("two-votes-hint")).to_be_visible()
    votable = choosable(ann, "table")
    first, second, third = (votable.nth(i).locator("xpath=..") for i in range(3))
    pick(ann, "table", 0)
    assert tag_of(first) == "1st vote"
    expect(page.get_by_test_id("vote")).to_contain_text("only")
    pick(ann, "table", 1)
    assert tag_of(second) == "2nd vote"
    # A third tap changes the second vote and keeps the first.
    pick(ann, "table", 2)
    assert tag_of(third) == "2nd vote"
    expect(second.locator(".card-face")).to_have_attribute("aria-pressed", "false")
    # Taking the second back leaves one vote, sent alone if Ann likes; she takes a second again.
    third.locator(".card-face").click()
    expect(page.get_by_test_id("vote")).to_contain_text("only")
    second.locator(".card-face").click()
    n1, n2 = (c.locator(".card-number").inner_text().strip() for c in (first, second))
    expect(page.get_by_test_id("vote")).to_have_text(f"Vote for cards {n1} and {n2}")
    assert_accessible(page)
    # The button is on the phone's screen with twelve pictures.
    expect(page.get_by_test_id("vote")).to_be_in_viewport()
    page.get_by_test_id("vote").click()

    # The reveal shows both of Ann's votes, each with its token.
    expect(page.get_by_test_id("reveal")).to_be_visible(timeout=60_000)
    mine = page.locator("[data-testid=reveal] [data-testid=voter]", has_text="Ann")
    expect(mine).to_have_count(2)
    assert sorted(m.get_attribute("data-vote") or "" for m in mine.all()) == ["1", "2"]
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


def test_party_the_storyteller_voids_a_picture_then_votes(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    code = seated(ann, server, edition="odyssey", mode="party", bots=11, first_storyteller="host")
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    start(ann, 12)
    page = ann.page
    # The TV explains the party's scoring while the clue is thought of.
    expect(tv.page.get_by_test_id("tv-think")).to_contain_text("secretly voids one picture")
    expect(page.locator("[data-testid=hand] [data-testid=hand-card]")).to_have_count(5)
    tell(ann, "a crowd at a fair")

    # The void comes first, explained; it is secret and chosen like a vote.
    wait_turn(ann, "yourVote")
    expect(page.get_by_test_id("void-hint")).to_be_visible()
    expect(page.get_by_test_id("banner")).to_contain_text("Void one picture")
    assert_accessible(page)
    expect(page.get_by_test_id("vote")).to_have_count(0)
    pick(ann, "table", 3)
    voided = choosable(ann, "table").nth(3).locator("xpath=..")
    voided_id = voided.get_attribute("data-card")
    page.get_by_test_id("void").click()
    expect(page.get_by_test_id("void-hint")).to_have_count(0)
    expect(page.locator(f"[data-testid=table] [data-card='{voided_id}'] .card-tag")).to_have_text(
        "Voided"
    )

    # Then Ann votes too, and may vote for her own picture.
    expect(page.get_by_test_id("everyone-votes")).to_be_visible()
    expect(page.get_by_test_id("banner")).to_contain_text("most players")
    settled(ann)
    own = page.locator("[data-testid=table] [data-testid=table-card]", has_text="Your card")
    expect(own.locator(".card-face")).to_be_enabled()
    own.locator(".card-face").click()
    page.get_by_test_id("vote").click()

    # The reveal shows the voided picture.
    expect(page.get_by_test_id("reveal")).to_be_visible(timeout=60_000)
    shown = page.locator(f"[data-testid=reveal] [data-card='{voided_id}']")
    expect(shown.get_by_test_id("reveal-void")).to_be_visible()
    expect(page.locator("[data-testid=reveal] .outcome")).to_contain_text("Party")
    tv_shown = tv.page.locator(f"[data-testid=reveal] [data-card='{voided_id}']")
    expect(tv_shown.get_by_test_id("reveal-void")).to_be_visible()


def test_teams_the_partner_hand_and_the_team_chat(opened: Any, server: str) -> None:
    ann = opened("Ann", viewport=PHONE, mobile=True)
    seated(ann, server, edition="odyssey", mode="teams", bots=11, first_storyteller="host")
    start(ann, 12)
    page = ann.page
    partner = page.get_by_test_id("partner-hand")
    expect(partner).to_be_visible()
    expect(partner.locator(".section-title")).to_contain_text("partner")
    expect(partner.get_by_test_id("hand-card")).to_have_count(4)
    expect(page.locator("[data-testid=hand] [data-testid=hand-card]")).to_have_count(8)
    # Six teams in the players list, two players each, partners with equal scores.
    badges = page.get_by_test_id("player-team").all_inner_texts()
    assert badges == [f"Team {n // 2 + 1}" for n in range(12)], badges

    # The team chat: a toggle in the table talk; the line is marked as the team's.
    toggle = page.get_by_test_id("chat-team")
    toggle.scroll_into_view_if_needed()
    toggle.check()
    page.get_by_test_id("chat-input").fill("the blue one, trust me")
    page.get_by_test_id("chat-send").click()
    line = page.locator("[data-testid=chat-line][data-team='1']")
    expect(line).to_contain_text("the blue one, trust me")
    assert_accessible(page)
    toggle.uncheck()
    page.get_by_test_id("chat-input").fill("hello everyone")
    page.get_by_test_id("chat-send").click()
    said = page.get_by_test_id("chat-line").filter(has_text="hello everyone")
    expect(said).to_be_visible()
    expect(said).not_to_have_attribute("data-team", "1")
