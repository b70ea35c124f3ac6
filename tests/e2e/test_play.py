"""Whole rounds played in real browsers against the real server."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from e2e_helpers import (
    PHONE,
    Player,
    choosable,
    create_room,
    join_by_link,
    left_turn,
    open_player,
    round_points,
    scores,
    start,
    submit,
    tell,
    vote,
    wait_turn,
)
from playwright.sync_api import expect


@pytest.fixture
def players(browser: Any, server: str) -> Iterator[list[Player]]:
    opened: list[Player] = []

    def make(name: str, **kw: Any) -> Player:
        p = open_player(browser, server, name, **kw)
        opened.append(p)
        return p

    yield make  # type: ignore[misc]
    for p in opened:
        assert p.errors == [], f"{p.name}: page errors {p.errors}"
        assert p.dialogs == [], f"{p.name}: dialogs {p.dialogs}"
        p.close()


def check_reveal(everyone: list[Player], seats: int) -> None:
    for p in everyone:
        expect(p.page.get_by_test_id("reveal")).to_be_visible()
        expect(p.page.get_by_test_id("round-point")).to_have_count(seats)
    points = round_points(everyone[0])
    totals = scores(everyone[0])
    assert points == totals, (points, totals)  # first round: the score is the round's points
    assert sum(points.values()) > 0
    for p in everyone[1:]:
        assert scores(p) == totals
    rabbits = everyone[0].page.locator(".track-rabbit")
    expect(rabbits).to_have_count(seats)
    for r in rabbits.all():
        assert int(r.get_attribute("data-score") or -1) == totals[r.get_attribute("data-player")]


def test_four_players_play_a_round_to_the_reveal(players: Any) -> None:
    ann, bo, cy, di = (players(n) for n in ("Ann", "Bo", "Cy", "Di"))
    code = create_room(ann)
    for p in (bo, cy, di):
        join_by_link(p, code)
    expect(ann.page.get_by_test_id("seat-name")).to_have_text(["Ann", "Bo", "Cy", "Di"])
    start(ann, 4)
    for p in (bo, cy, di):
        wait_turn(p, "waitClue")
        expect(p.page.get_by_test_id("banner")).to_contain_text("Ann")
        expect(choosable(p, "hand")).to_have_count(0)  # nothing legal: nothing enabled
    # Every card in a hand has its alt text from the deck's metadata, not the "Card N" fallback.
    hand = bo.page.locator("[data-testid=hand] [data-testid=hand-card]")
    expect(hand.locator("img").first).not_to_have_attribute("alt", re.compile(r"^Card \d+$"))
    ids = [c.get_attribute("data-card") or "" for c in hand.all()]
    alts = bo.page.evaluate(
        """async (slugs) => Object.fromEntries((await Promise.all(slugs.map(async (slug) =>
        (await (await fetch(`/api/decks/${slug}/cards`)).json()).cards))).flat()
        .map((c) => [c.id, c.alt]))""",
        sorted({i.rsplit("-", 1)[0] for i in ids}),
    )
    assert len(ids) == 6 and all(alts.get(i) for i in ids), (ids, alts)
    for card, cid in zip(hand.all(), ids, strict=True):
        expect(card.locator("img")).to_have_attribute("alt", alts[cid])
    tell(ann, "a long way home")
    for p in (bo, cy, di):
        expect(p.page.get_by_test_id("clue-text")).to_have_text("a long way home")
    submit(bo)
    submit(cy)
    # Di plays with the keyboard only: arrows move between cards, Enter chooses.
    wait_turn(di, "yourSubmit")
    di.page.locator("[data-testid=hand] button.card-face").first.focus()
    di.page.keyboard.press("ArrowRight")
    di.page.keyboard.press("z")
    expect(di.page.get_by_test_id("zoom")).to_be_visible()
    di.page.keyboard.press("Escape")
    expect(di.page.get_by_test_id("zoom")).to_have_count(0)
    di.page.keyboard.press("Enter")  # the card zoom gave focus back to; then Submit has it
    expect(di.page.locator("[data-testid=hand] .card.is-selected")).to_have_count(1)
    expect(di.page.get_by_test_id("submit")).to_be_focused()
    di.page.get_by_test_id("submit").focus()
    di.page.keyboard.press("Enter")
    left_turn(di, "yourSubmit")

    for p in (bo, cy, di):
        wait_turn(p, "yourVote")
        table = p.page.locator("[data-testid=table] [data-testid=table-card]")
        expect(table).to_have_count(4)
        own = p.page.locator("[data-testid=table] .card-tag", has_text="Your card")
        expect(own).to_have_count(1)
        expect(choosable(p, "table")).to_have_count(3)  # one's own card is not votable
    wait_turn(ann, "waitVote")
    expect(ann.page.get_by_test_id("banner")).to_contain_text("Bo")
    vote(bo)
    vote(cy)
    vote(di, 1)
    check_reveal([ann, bo, cy, di], 4)
    expect(bo.page.get_by_test_id("banner")).to_have_attribute("data-turn", "yourClue")


def test_three_player_round_submits_two_cards(players: Any) -> None:
    ann, bo, cy = (players(n) for n in ("Ann", "Bo", "Cy"))
    code = create_room(ann)
    join_by_link(bo, code)
    join_by_link(cy, code)
    start(ann, 3)
    tell(ann, "twice upon a time")
    for p in (bo, cy):
        wait_turn(p, "yourSubmit")
        expect(p.page.locator("[data-testid=hand] [data-testid=hand-card]")).to_have_count(7)
        submit(p, 2)
    for p in (bo, cy):
        wait_turn(p, "yourVote")
        expect(p.page.locator("[data-testid=table] [data-testid=table-card]")).to_have_count(5)
        expect(choosable(p, "table")).to_have_count(3)  # neither of one's own two cards
        vote(p)
    check_reveal([ann, bo, cy], 3)


def test_reload_in_the_middle_of_voting_continues(players: Any) -> None:
    ann, bo, cy, di = (players(n) for n in ("Ann", "Bo", "Cy", "Di"))
    code = create_room(ann)
    for p in (bo, cy, di):
        join_by_link(p, code)
    start(ann, 4)
    tell(ann, "the night train")
    for p in (bo, cy, di):
        submit(p)
    vote(bo)
    wait_turn(cy, "yourVote")
    table_before = cy.page.locator("[data-testid=table] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    cy.page.reload()
    wait_turn(cy, "yourVote")
    expect(cy.page.get_by_test_id("conn")).to_have_attribute("data-status", "open")
    expect(cy.page.get_by_test_id("clue-text")).to_have_text("the night train")
    table_after = cy.page.locator("[data-testid=table] [data-card]").evaluate_all(
        "els => els.map(e => e.dataset.card)"
    )
    assert table_after == table_before
    # Bo's vote survived too: after his own reload he still sees it counted.
    bo.page.reload()
    wait_turn(bo, "waitVote")
    expect(bo.page.get_by_test_id("voted")).to_be_visible()
    vote(cy)
    vote(di)
    check_reveal([ann, bo, cy, di], 4)


def test_phone_round(players: Any) -> None:
    ann = players("Ann", viewport=PHONE, mobile=True)
    bo = players("Bo", viewport=PHONE, mobile=True)
    code = create_room(ann, bots=2)
    join_by_link(bo, code)
    start(ann, 4)
    tell(ann, "pocket moon")
    wait_turn(bo, "yourSubmit")
    hand = bo.page.get_by_test_id("hand")
    width = hand.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert width[0] > width[1], f"the hand should scroll sideways on a phone: {width}"
    # Swipe through the hand: scroll it, and the last card comes into view.
    hand.evaluate("el => el.scrollTo({left: el.scrollWidth})")
    expect(bo.page.locator("[data-testid=hand] [data-testid=hand-card]").last).to_be_in_viewport()
    # Zoom a card full screen, then close it.
    bo.page.locator("[data-testid=hand] .card-zoom").first.click()
    zoom = bo.page.get_by_test_id("zoom").locator("img")
    expect(zoom).to_be_visible()
    zoom_width = "document.querySelector('[data-testid=zoom] img')?.getBoundingClientRect().width"
    bo.page.wait_for_function(f"() => {zoom_width} > 250")
    box = zoom.bounding_box()
    assert box is not None and box["width"] > 250, box
    # Swipe left inside the zoom: the next card of the hand.
    first = zoom.get_attribute("src")
    dialog = bo.page.get_by_test_id("zoom")
    dialog.dispatch_event(
        "touchstart", {"touches": [{"identifier": 1, "clientX": 300, "clientY": 300}]}
    )
    dialog.dispatch_event(
        "touchend", {"changedTouches": [{"identifier": 1, "clientX": 80, "clientY": 300}]}
    )
    expect(zoom).not_to_have_attribute("src", first or "")
    bo.page.get_by_test_id("zoom").get_by_role("button", name="Close").click()
    submit(bo)
    vote(bo)
    check_reveal([ann, bo], 4)
    # Nothing sticks out sideways on a phone.
    for p in (ann, bo):
        overflow = p.page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= PHONE["width"], overflow


def test_timer_ring_and_host_lobby_controls(players: Any) -> None:
    ann = players("Ann")
    page = ann.page
    page.goto("/")
    page.get_by_test_id("name").fill("Ann")
    page.locator("details.more > summary").click()
    page.locator("details.more select").first.select_option("host")
    page.get_by_test_id("timer-clue").fill("6")
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    # Host controls in the lobby: seat two computer players, remove one, add it back.
    page.get_by_test_id("add-bot").click()
    page.get_by_test_id("add-bot").click()
    expect(page.get_by_test_id("seat")).to_have_count(3)
    page.get_by_test_id("kick").last.click()
    expect(page.get_by_test_id("seat")).to_have_count(2)
    page.get_by_test_id("add-bot").click()
    # Choose a rabbit colour.
    page.get_by_test_id("colours").get_by_role("button", name="Purple").click()
    expect(page.get_by_test_id("colours").get_by_role("button", name="Purple")).to_have_attribute(
        "aria-pressed", "true"
    )
    start(ann, 3)
    wait_turn(ann, "yourClue")
    expect(page.get_by_test_id("timer")).to_be_visible()
    # Let the clock run out: the server plays for Ann and says so, once, in the "I'm here" panel
    # with the account of what was played (no toast besides).
    expect(page.get_by_test_id("account")).to_contain_text("Round 1", timeout=20_000)
    expect(page.get_by_test_id("notice")).to_have_count(0)
    # Alone at the table and late: it waits for her; "I'm here" and the computers play on.
    expect(page.get_by_test_id("away")).to_be_visible()
    page.get_by_test_id("here").click()
    expect(page.get_by_test_id("reveal")).to_be_visible(timeout=20_000)


def test_connection_drop_reconnects_and_resumes_then_rematch(players: Any) -> None:
    ann = players("Ann")
    code = create_room(ann, bots=2, max_rounds=1)
    assert code
    start(ann, 3)
    wait_turn(ann, "yourClue")
    expect(ann.page.get_by_test_id("conn")).to_have_attribute("data-status", "open")
    ann.page.context.set_offline(True)
    expect(ann.page.get_by_test_id("conn")).to_have_attribute("data-status", "reconnecting")
    ann.page.context.set_offline(False)
    expect(ann.page.get_by_test_id("conn")).to_have_attribute("data-status", "open")
    tell(ann, "back online")
    # The computer players finish the only round: game over, winners, then a rematch.
    expect(ann.page.get_by_test_id("game-over")).to_be_visible()
    expect(ann.page.get_by_test_id("winners")).not_to_be_empty()
    ann.page.get_by_test_id("rematch").click()
    expect(ann.page.get_by_test_id("lobby")).to_be_visible()
    expect(ann.page.get_by_test_id("seat")).to_have_count(3)


def test_host_hands_a_late_seat_to_the_computer_and_ends_the_game(players: Any) -> None:
    ann, bo = players("Ann"), players("Bo")
    code = create_room(ann, bots=1)
    join_by_link(bo, code)
    start(ann, 3)
    tell(ann, "nobody home")
    wait_turn(bo, "yourSubmit")
    ann.page.get_by_test_id("host-controls").locator("summary").click()
    ann.page.get_by_role("button", name="Let the computer play for Bo").click()
    # The computer plays Bo's seat: his cards go in and the vote begins without him.
    expect(bo.page.get_by_test_id("banner")).not_to_have_attribute("data-turn", "yourSubmit")
    expect(ann.page.locator("[data-player=p3] .badge", has_text="computer")).to_have_count(1)
    ann.page.get_by_role("button", name="End the game now").click()
    ann.page.get_by_test_id("end-yes").click()  # the host is asked first
    for p in (ann, bo):
        expect(p.page.get_by_test_id("game-over")).to_be_visible()
        # The engine ended it: the leaders (all on 0 here) share the win, and the reason shows.
        expect(p.page.get_by_test_id("winners")).not_to_be_empty()
        expect(p.page.get_by_test_id("end-reason")).to_be_visible()


def test_anyone_may_claim_the_first_clue(players: Any) -> None:
    ann, bo, cy = (players(n) for n in ("Ann", "Bo", "Cy"))
    code = create_room(ann, first="claim")
    join_by_link(bo, code)
    join_by_link(cy, code)
    start(ann, 3)
    for p in (ann, bo, cy):
        wait_turn(p, "claimClue")
        expect(choosable(p, "hand")).to_have_count(7)
    bo.page.locator("[data-testid=banner][data-turn=claimClue]").wait_for()
    choosable(bo, "hand").first.click()
    bo.page.get_by_test_id("clue-input").fill("me first")
    bo.page.get_by_test_id("tell").click()
    for p in (ann, cy):
        wait_turn(p, "yourSubmit")
        expect(p.page.get_by_test_id("clue-text")).to_have_text("me first")
    expect(ann.page.locator("[data-player=p2] .badge--teller")).to_have_count(1)
