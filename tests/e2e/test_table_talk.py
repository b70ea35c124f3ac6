"""Talking at the table and open tables, through the web client on a phone (360x640), a desktop
and a TV (1920x1080): by mouse and by keyboard, as plain text, muted by the host, hidden by a
player; public rooms listed on the home page and joined from there, private ones never.

Set DIXIT_E2E_SHOTS=/some/folder to keep PNG screenshots of what the tests saw.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from e2e_helpers import (
    DESKTOP,
    PHONE,
    Player,
    api,
    create_room,
    inject_axe,
    join_by_link,
    messages,
    start,
)
from playwright.sync_api import expect

TV = {"width": 1920, "height": 1080}
AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"
# What this file's features put on screen: only these parts are audited here.
OURS = [
    "[data-testid=chat]",
    "[data-testid=reactions-shown]",
    "[data-testid=open-tables]",
    "[data-testid=open-table-settings]",
    "[data-testid=open-state]",
]
EN = messages("en")
PAYLOAD = '<img src=x onerror="window.__pwned=1"> <b>bold</b>'


def snap(p: Player, name: str) -> None:
    folder = os.environ.get("DIXIT_E2E_SHOTS")
    if folder:
        p.page.wait_for_timeout(400)
        p.page.screenshot(path=str(Path(folder) / f"{name}.png"))


def assert_accessible(p: Player) -> None:
    """axe-core (npm ``axe-core``) finds no serious or critical violation in the talk and open
    tables parts of the screen."""
    if not AXE.exists():
        pytest.skip(f"axe-core is not installed ({AXE}); cd web && npm install axe-core")
    p.page.evaluate(  # audit the settled screen: fades at their end, endless ones paused
        """() => document.getAnimations().forEach(a => {
            if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish();
            else a.pause(); })"""
    )
    inject_axe(p.page)
    found = p.page.evaluate(
        """async (ours) => {
            const include = ours.filter(s => document.querySelector(s)).map(s => [s]);
            if (include.length === 0) return [];
            const result = await axe.run({ include }, { resultTypes: ['violations'] });
            return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
                .map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '));
        }""",
        OURS,
    )
    assert found == [], f"{p.name}: {found}"


def chat_texts(p: Player) -> list[str]:
    return [
        t.strip() for t in p.page.locator("[data-testid=chat-line] .chat-text").all_inner_texts()
    ]


def test_chat_and_reactions_on_phone_desktop_and_tv(opened: Any, server: str) -> None:
    ann = opened("Ann")  # desktop, the host
    bo = opened("Bo", viewport=PHONE, mobile=True)
    cy = opened("Cy", viewport=DESKTOP)
    code = create_room(ann)
    join_by_link(bo, code)
    join_by_link(cy, code)
    tv = opened("TV", viewport=TV)
    tv.page.goto(f"/r/{code}/tv")
    expect(tv.page.get_by_test_id("chat")).to_be_visible()
    expect(tv.page.get_by_test_id("chat-input")).to_have_count(0)  # a spectator reads only

    # Markup typed on the phone arrives as the same characters everywhere; nothing runs.
    bo.page.get_by_label(EN["talk.label"]).fill(PAYLOAD)
    bo.page.get_by_label(EN["talk.label"]).press("Enter")
    for p in (ann, bo, cy, tv):
        line = p.page.get_by_test_id("chat-line").last
        expect(line.locator(".chat-text")).to_have_text(PAYLOAD)
        expect(line.locator(".chat-name")).to_have_text("Bo")
        assert p.page.locator("[data-testid=chat-log] img, [data-testid=chat-log] b").count() == 0
        assert p.page.evaluate("window.__pwned") is None
    expect(bo.page.get_by_test_id("chat-input")).to_have_value("")

    # Keyboard only on the desktop: focus the line, type, Enter; focus stays for the next line.
    ann.page.get_by_test_id("chat-input").focus()
    ann.page.keyboard.type("Hello table")
    ann.page.keyboard.press("Enter")
    expect(cy.page.get_by_test_id("chat-line").last.locator(".chat-text")).to_have_text(
        "Hello table"
    )
    assert ann.page.evaluate("document.activeElement?.dataset.testid") == "chat-input"
    # A reaction by keyboard: Tab from the reactions' group to a button, then Space.
    laugh = ann.page.get_by_role("button", name=EN["reaction.laugh"])
    laugh.focus()
    ann.page.keyboard.press("Space")
    for p in (bo, cy, tv):
        chip = p.page.locator("[data-testid=reaction-chip][data-reaction=laugh]")
        expect(chip).to_be_visible()
        expect(chip).to_contain_text("Ann")
        expect(p.page.locator(".reactions-shown [aria-live]")).to_have_text(
            EN["talk.reacted"].format(name="Ann", reaction=EN["reaction.laugh"])
        )
    bo.page.get_by_test_id("react-party").click()
    expect(tv.page.locator("[data-testid=reaction-chip][data-reaction=party]")).to_be_visible()
    snap(bo, "talk-phone-lobby")
    snap(tv, "talk-tv-lobby")
    for p in (ann, bo, tv):
        assert_accessible(p)

    # A card id is never said: refused with the reason, in the player's language.
    slug = api(server, "GET", "/api/decks")["decks"][0]["slug"]
    card = api(server, "GET", f"/api/decks/{slug}/cards")["cards"][3]["id"]
    cy.page.get_by_test_id("chat-input").fill(f"mine is {card}")
    cy.page.get_by_test_id("chat-send").click()
    expect(cy.page.get_by_test_id("error")).to_contain_text(EN["error.chat/secret"])
    assert not any(card in t for t in chat_texts(ann))
    expect(cy.page.get_by_test_id("chat-input")).to_have_value(f"mine is {card}")  # to edit
    # At most 200 characters fit; a fourth line at once is refused with the reason.
    cy.page.get_by_test_id("chat-input").fill("z" * 250)
    expect(cy.page.get_by_test_id("chat-input")).to_have_value("z" * 200)
    for i in range(4):
        cy.page.get_by_test_id("chat-input").fill(f"quick {i}")
        cy.page.get_by_test_id("chat-input").press("Enter")
    expect(cy.page.get_by_test_id("error")).to_contain_text(EN["error.chat/rate"])
    expect(cy.page.get_by_test_id("chat-input")).to_have_value("quick 3")
    expect(ann.page.get_by_test_id("chat-line").last.locator(".chat-text")).to_have_text("quick 2")

    # The host mutes Bo: Bo is told, cannot type or react; unmuted, Bo talks again.
    ann.page.get_by_test_id("chat-mutes").locator("summary").click()
    ann.page.get_by_label(EN["talk.muteSeat"].format(name="Bo")).check()
    expect(bo.page.get_by_test_id("chat-muted")).to_have_text(EN["talk.muted"])
    expect(bo.page.get_by_test_id("chat-input")).to_be_disabled()
    expect(bo.page.get_by_test_id("react-like")).to_be_disabled()
    snap(bo, "talk-phone-muted")
    assert_accessible(bo)
    ann.page.get_by_label(EN["talk.muteSeat"].format(name="Bo")).uncheck()
    expect(bo.page.get_by_test_id("chat-input")).to_be_enabled()

    # The game: the talk goes on beside the table; Cy hides it, and it stays hidden on reload.
    start(ann, 3)
    bo.page.get_by_test_id("chat-input").fill("good luck")
    bo.page.get_by_test_id("chat-input").press("Enter")
    expect(cy.page.get_by_test_id("chat-line").last.locator(".chat-text")).to_have_text("good luck")
    cy.page.get_by_role("button", name=EN["talk.hideLabel"]).focus()
    cy.page.keyboard.press("Enter")
    expect(cy.page.get_by_test_id("chat-log")).to_have_count(0)
    expect(cy.page.get_by_test_id("talk-show")).to_be_focused()  # not back to <body>
    cy.page.reload()
    expect(cy.page.get_by_test_id("game")).to_be_visible()
    expect(cy.page.get_by_test_id("talk-show")).to_be_visible()
    expect(cy.page.get_by_test_id("chat-log")).to_have_count(0)
    ann.page.get_by_test_id("react-clap").click()
    expect(bo.page.locator("[data-testid=reaction-chip][data-reaction=clap]")).to_be_visible()
    expect(cy.page.get_by_test_id("reactions-shown")).to_have_count(0)
    ann.page.get_by_test_id("chat-input").fill("are you there?")
    ann.page.get_by_test_id("chat-input").press("Enter")
    expect(cy.page.get_by_test_id("talk-show")).to_have_text(EN["talk.showNew#one"].format(count=1))
    cy.page.get_by_test_id("talk-show").click()
    expect(cy.page.get_by_test_id("chat-line").last.locator(".chat-text")).to_have_text(
        "are you there?"
    )
    ann.page.get_by_test_id("react-love").click()
    expect(tv.page.locator("[data-testid=reaction-chip][data-reaction=love]")).to_be_visible()
    snap(ann, "talk-desktop-game")
    snap(bo, "talk-phone-game")
    snap(tv, "talk-tv-game")
    for p in (ann, bo, cy, tv):
        assert_accessible(p)


def test_open_tables_are_listed_and_joined_private_ones_never(opened: Any) -> None:
    ann = opened("Ann")
    pia = opened("Pia")
    code = create_room(ann)
    private = create_room(pia)
    expect(ann.page.get_by_test_id("open-table-settings")).to_be_visible()
    ann.page.get_by_test_id("public").check()
    ann.page.get_by_test_id("table-name-input").fill("Owl & moon")
    ann.page.get_by_test_id("table-name-input").press("Enter")
    ann.page.get_by_test_id("room-language").select_option("it")

    cy = opened("Cy", viewport=PHONE, mobile=True)
    cy.page.goto("/")
    table = cy.page.locator(f"[data-testid=open-table][data-code='{code}']")
    expect(table.get_by_test_id("table-name")).to_have_text("Owl & moon")
    expect(table).to_contain_text("Italiano")
    expect(table.get_by_test_id("table-seats")).to_have_text(EN["tables.seatsFree"].format(n=5))
    expect(cy.page.locator(f"[data-testid=open-table][data-code='{private}']")).to_have_count(0)
    snap(cy, "tables-phone-home")
    assert_accessible(cy)
    tv = opened("Big", viewport=TV)
    tv.page.goto("/")
    expect(tv.page.locator(f"[data-testid=open-table][data-code='{code}']")).to_be_visible()
    snap(tv, "tables-tv-home")

    # Join from the list with the name typed on the home page; the guest sees it is public.
    cy.page.get_by_test_id("name").fill("Cy")
    table.get_by_role("button", name=EN["tables.joinNamed"].format(name="Owl & moon")).click()
    expect(cy.page.get_by_test_id("lobby")).to_be_visible()
    expect(cy.page.get_by_test_id("open-state")).to_have_text(EN["open.isPublic"])
    expect(ann.page.get_by_test_id("seat")).to_have_count(2)
    snap(ann, "tables-desktop-lobby")
    assert_accessible(ann)
    assert_accessible(cy)

    # Made private again: gone from the list.
    ann.page.get_by_test_id("public").uncheck()
    expect(cy.page.get_by_test_id("open-state")).to_have_text(EN["open.isPrivate"])
    tv.page.get_by_test_id("tables-refresh").click()
    expect(tv.page.locator(f"[data-testid=open-table][data-code='{code}']")).to_have_count(0)


def test_a_visitor_reports_an_open_table(opened: Any) -> None:
    ann = opened("Ann")
    code = create_room(ann)
    ann.page.get_by_test_id("public").check()
    vi = opened("Vi", viewport=PHONE, mobile=True)
    vi.page.goto("/")
    table = vi.page.locator(f"[data-testid=open-table][data-code='{code}']")
    expect(table).to_be_visible()
    table.get_by_role("button", name=EN["tables.reportNamed"].format(name="Ann")).click()
    expect(vi.page.get_by_test_id("table-reported")).to_have_text(EN["tables.reported"])
    expect(table).to_have_count(0)  # no longer shown to the one who reported it
    assert_accessible(vi)


def test_open_tables_and_talk_in_every_language(opened: Any) -> None:
    """Keyboard reachable and labelled in each language: no missing strings."""
    host = opened("Ann")
    create_room(host)
    for lang in ("it", "pl", "es", "pt", "fr", "en"):
        text = messages(lang)
        host.page.get_by_test_id("lang").select_option(lang)
        expect(host.page.get_by_role("heading", name=text["talk.title"])).to_be_visible()
        expect(host.page.get_by_label(text["talk.label"])).to_be_visible()
        expect(host.page.get_by_role("group", name=text["talk.reactions"])).to_be_visible()
        expect(host.page.get_by_text(text["open.public"])).to_be_visible()
        assert "⟦missing:" not in host.page.locator("body").inner_text()
