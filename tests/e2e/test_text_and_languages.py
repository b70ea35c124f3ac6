"""User text is shown as text, never as markup; every language renders the lobby completely."""

from __future__ import annotations

import json
from typing import Any

import pytest
from e2e_helpers import (
    MISSING_MARK,
    api,
    create_room,
    join_by_link,
    messages,
    start,
    submit,
    tell,
    vote,
    wait_turn,
)
from playwright.sync_api import expect

from dixit.protocol.messages import MAX_NAME_LENGTH

PAYLOAD = "<img src=x onerror=alert(1)>"
# The name field holds at most MAX_NAME_LENGTH characters; the payload is used whole when it fits.
NAME_PAYLOAD = PAYLOAD if len(PAYLOAD) <= MAX_NAME_LENGTH else "<svg onload=alert(1)>"
LANGUAGES = ["en", "it", "pl", "es", "pt", "fr"]


def test_clue_and_name_with_markup_are_plain_text(opened: Any) -> None:
    evil = opened(NAME_PAYLOAD)
    bo, cy = opened("Bo"), opened("Cy")
    code = create_room(evil)
    join_by_link(bo, code)
    join_by_link(cy, code)
    expect(bo.page.get_by_test_id("seat-name").first).to_have_text(NAME_PAYLOAD)
    start(evil, 3)
    tell(evil, PAYLOAD)
    for p in (bo, cy):
        expect(p.page.get_by_test_id("clue-text")).to_have_text(PAYLOAD)
        expect(p.page.get_by_test_id("banner")).to_be_visible()
        submit(p, 2)
    for p in (bo, cy):
        vote(p)
    for p in (evil, bo, cy):
        expect(p.page.get_by_test_id("reveal")).to_be_visible()
        expect(p.page.get_by_test_id("reveal").get_by_test_id("clue-text")).to_have_text(PAYLOAD)
        expect(p.page.get_by_test_id("reveal")).to_contain_text(NAME_PAYLOAD)
        # No element was made from the text: no <img src=x>, no <svg onload>, no alert.
        assert p.page.locator("img[src='x'], svg[onload], img[onerror]").count() == 0
        assert p.dialogs == [], p.dialogs


@pytest.mark.parametrize("lang", LANGUAGES)
def test_lobby_in_each_language_has_every_string(opened: Any, server: str, lang: str) -> None:
    ticket = api(server, "POST", "/api/rooms", {"name": "Ann", "settings": {"bots": 2}})
    p = opened("Ann", locale=lang)
    # The seat ticket the home page would have stored, so the page opens straight in the lobby.
    p.page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    p.page.goto(ticket["url"])
    expect(p.page.get_by_test_id("lobby")).to_be_visible()
    expect(p.page.get_by_test_id("seat")).to_have_count(3)
    m = messages(lang)
    expect(p.page.get_by_test_id("start")).to_have_text(m["lobby.start"])
    expect(p.page.get_by_test_id("conn")).to_have_text(m["conn.connected"])
    assert p.page.evaluate("document.documentElement.lang") == lang
    text = p.page.locator("body").inner_text()
    assert MISSING_MARK not in text, text
    # Attributes people hear or see on hover are translated too.
    labels = p.page.eval_on_selector_all(
        "[aria-label],[title],[placeholder]",
        "els => els.map(e => [e.ariaLabel, e.title, e.placeholder].join(' '))",
    )
    assert not [x for x in labels if MISSING_MARK in x]


def test_language_is_switchable_and_remembered(opened: Any) -> None:
    p = opened("Ann", locale="en-US")
    p.page.goto("/")
    expect(p.page.get_by_test_id("create")).to_have_text(messages("en")["home.createButton"])
    p.page.get_by_test_id("lang").select_option("pl")
    expect(p.page.get_by_test_id("create")).to_have_text(messages("pl")["home.createButton"])
    p.page.reload()
    expect(p.page.get_by_test_id("create")).to_have_text(messages("pl")["home.createButton"])


def test_spectator_tv_view_shows_table_and_scores_but_no_hand(opened: Any) -> None:
    ann, bo, cy = opened("Ann"), opened("Bo"), opened("Cy")
    code = create_room(ann)
    join_by_link(bo, code)
    join_by_link(cy, code)
    start(ann, 3)
    tv = opened("TV")
    tv.page.goto(f"/r/{code}/tv")
    expect(tv.page.get_by_test_id("tv")).to_be_visible()
    expect(tv.page.get_by_test_id("score-track")).to_be_visible()
    tell(ann, "on the big screen")
    expect(tv.page.get_by_test_id("clue-text")).to_have_text("on the big screen")
    for p in (bo, cy):
        submit(p, 2)
    expect(tv.page.locator("[data-testid=table] [data-testid=table-card]")).to_have_count(5)
    assert tv.page.get_by_test_id("hand").count() == 0
    for p in (bo, cy):
        wait_turn(p, "yourVote")
        vote(p)
    expect(tv.page.get_by_test_id("reveal")).to_be_visible()
