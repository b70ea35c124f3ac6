"""The lobby, the vote and the table talk on a phone in Italian, Polish and Portuguese (#33).

    make web-build && .venv/bin/python tests/e2e/screenshots_languages.py

Writes docs/screenshots/lang-{it,pl,pt}-{1-lobby,2-vote,3-chat}.jpg (also part of
tests/e2e/screenshots.py's run). Two messages arrive while the talk is hidden, so the chat button
shows a counted string ("2 nuovi messaggi", "2 nowe wiadomości", "2 mensagens novas").
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_helpers import (
    PHONE,
    Player,
    choosable,
    create_room,
    join_by_link,
    messages,
    open_player,
    start,
    submit,
    tell,
    wait_turn,
)
from e2e_server import ROOT
from playwright.sync_api import expect
from screenshot_run import OUT, run

LOCALES = {"it": "it-IT", "pl": "pl-PL", "pt": "pt-PT"}
# What the players say, in each language: two lines in the lobby, a clue, two lines in the game.
TALK = {
    "it": (
        "Pronti quando volete!",
        "Ciao a tutti, è la mia prima partita",
        "Il lungo ritorno",
        "Questa è difficile…",
        "Io ho già un'idea",
    ),
    "pl": (
        "Możemy zaczynać!",
        "Cześć wszystkim, gram pierwszy raz",
        "Długa droga do domu",
        "Trudne skojarzenie…",
        "Ja już coś mam",
    ),
    "pt": (
        "Quando quiserem!",
        "Olá a todos, é o meu primeiro jogo",
        "O longo caminho de casa",
        "Esta é difícil…",
        "Eu já tenho uma ideia",
    ),
}


def shot(p: Player, name: str, *, full: bool = False) -> None:
    p.page.wait_for_timeout(1300)  # animations end, pictures decode
    p.page.evaluate(
        "Promise.all([...document.images].map(i => i.complete ? 0 : i.decode().catch(() => 0)))"
    )
    path = OUT / f"lang-{name}.jpg"
    p.page.screenshot(path=str(path), full_page=full, type="jpeg", quality=75)
    print("wrote", path.relative_to(ROOT))


def say(p: Player, line: str) -> None:
    p.page.get_by_test_id("chat-input").fill(line)
    p.page.get_by_test_id("chat-input").press("Enter")


def one_language(browser: Any, base: str, lang: str) -> None:
    m = messages(lang)
    hello, first, clue, hard, idea = TALK[lang]
    ann, bo, cy = (
        open_player(browser, base, n, viewport=PHONE, mobile=True, locale=LOCALES[lang])
        for n in ("Anna", "Bruno", "Chiara")
    )
    code = create_room(ann, bots=1)
    for p in (bo, cy):
        join_by_link(p, code)
    say(bo, hello)
    say(cy, first)
    expect(ann.page.get_by_test_id("chat-line")).to_have_count(2)
    ann.page.evaluate("window.scrollTo(0, 0)")
    shot(ann, f"{lang}-1-lobby", full=True)
    start(ann, 4)
    tell(ann, clue, 2)
    for p in (bo, cy):
        submit(p)
    wait_turn(bo, "yourVote")
    choosable(bo, "table").nth(1).click()
    shot(bo, f"{lang}-2-vote")
    # Bo hides the talk; two messages arrive and the button counts them.
    bo.page.get_by_role("button", name=m["talk.hideLabel"]).click()
    expect(bo.page.get_by_test_id("chat-log")).to_have_count(0)
    say(ann, hard)
    say(cy, idea)
    button = bo.page.get_by_test_id("talk-show")
    expect(button).to_have_text(
        m["talk.showNew#few" if lang == "pl" else "talk.showNew#other"].format(count=2)
    )
    button.scroll_into_view_if_needed()
    shot(bo, f"{lang}-3-chat-button")
    button.click()
    expect(bo.page.get_by_test_id("chat-line").last.locator(".chat-text")).to_have_text(idea)
    bo.page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    shot(bo, f"{lang}-3-chat")
    for p in (ann, bo, cy):
        assert not p.errors, p.errors
        p.close()


def languages(browser: Any, base: str) -> None:
    for lang in LOCALES:
        one_language(browser, base, lang)


def main() -> int:
    return run(languages)


if __name__ == "__main__":
    sys.exit(main())
