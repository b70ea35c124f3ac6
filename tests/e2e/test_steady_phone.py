"""A phone player's screen does not jump when the game moves on without them (the clue arrives,
the vote starts, the game ends): the banner keeps one height through a round, the hand keeps its
place, the vote's table takes the hand's place, and the game-over panel opens where the table was.
Measured from the layout at each turn change (page coordinates), and from the browser's own
layout-shift entries; nothing is timed."""

from __future__ import annotations

import json
from typing import Any

from e2e_helpers import PHONE, api, choosable, wait_turn
from playwright.sync_api import expect

# At each change of turn, as soon as the page has it (a mutation callback: the new layout, before
# any scroll), where the play area's parts start on the page (scroll-independent), and the banner's
# height; and every layout-shift entry the browser reports.
WATCH = """
window.__turns = [];
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__shifts.push({
    value: e.value, input: e.hadRecentInput,
    sources: (e.sources || []).map((s) => (s.node && s.node.className) || String(s.node)),
  });
}).observe({ type: 'layout-shift', buffered: true });
addEventListener('DOMContentLoaded', () => {
  const top = (sel) => {
    const el = document.querySelector(sel);
    if (!el || !el.getClientRects().length) return null;
    return Math.round(el.getBoundingClientRect().top + scrollY);
  };
  const seen = () => {
    const b = document.querySelector('[data-testid=banner]');
    const g = document.querySelector('[data-testid=game]');
    if (!b || !g) return;
    const revealing = g.classList.contains('is-revealing');
    const key = b.dataset.turn + ' ' + g.dataset.round + (revealing ? ' reveal' : '');
    const last = window.__turns[window.__turns.length - 1];
    if (last && last.key === key) return;
    window.__turns.push({
      key, turn: b.dataset.turn, phase: g.dataset.phase,
      revealing,
      banner: Math.round(b.getBoundingClientRect().height),
      main: top('.game-main'), hand: top('.hand-area:not(.hand-area--small)'),
      table: top('.table-area'), over: top('[data-testid=game-over]'),
    });
  };
  new MutationObserver(seen).observe(document.body, {subtree: true, childList: true,
                                                     attributes: true});
});
"""


def test_phone_play_area_stays_put_as_the_game_moves_on(opened: Any, server: str) -> None:
    p = opened("Ann", viewport=PHONE, mobile=True)
    page = p.page
    page.add_init_script(WATCH)
    ticket = api(
        server,
        "POST",
        "/api/rooms",
        {"name": "Ann", "settings": {"bots": 3, "first_storyteller": "host", "max_rounds": 2}},
    )
    page.add_init_script(
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )
    page.goto(f"/r/{ticket['code']}")
    page.get_by_test_id("start").tap()
    # Round 1: Ann tells; the computers play their cards and vote while she waits.
    wait_turn(p, "yourClue")
    choosable(p, "hand").first.tap()
    page.get_by_test_id("clue-input").fill("a long way home")
    page.get_by_test_id("tell").tap()
    page.get_by_test_id("reveal-close").tap()
    # Round 2: a computer tells; Ann plays a card and votes.
    wait_turn(p, "yourSubmit")
    choosable(p, "hand").first.tap()
    page.get_by_test_id("submit").tap()
    wait_turn(p, "yourVote")
    choosable(p, "table").first.tap()
    page.get_by_test_id("vote").tap()
    expect(page.get_by_test_id("game-over")).to_be_visible(timeout=30_000)
    turns: list[dict[str, Any]] = page.evaluate("window.__turns")
    keys = [t["key"] for t in turns]
    for needed in ("yourClue 1", "waitVote 1", "waitClue 2", "yourSubmit 2", "yourVote 2"):
        assert needed in keys, (needed, keys)

    # One banner height from the first clue to the last vote.
    playing = [t for t in turns if t["phase"] in ("clue", "submit", "vote")]
    assert len({t["banner"] for t in playing}) == 1, ("the banner changed height", turns)
    # The play area starts at one place throughout, the game's end included.
    assert len({t["main"] for t in turns}) == 1, ("the play area moved", turns)
    main = turns[0]["main"]
    # The hand keeps its place while the clue is thought of and cards go in (the clue's arrival
    # moved it 29 px down); the vote's table and the game-over panel come in at that place
    # instead of pushing the hand down.
    hands = {t["hand"] for t in turns if t["phase"] in ("clue", "submit") and not t["revealing"]}
    assert len(hands) == 1, ("the hand moved", turns)
    hand = hands.pop()
    assert hand is not None and hand - main < 40, ("something above the hand", turns)
    for t in turns:
        if t["phase"] == "vote":
            assert t["table"] == hand, ("the table is not where the hand was", t, turns)
        if t["phase"] == "over":
            assert t["over"] == main, ("the game-over panel is not at the top", t, turns)

    # The browser agrees: no shift of the page that the player did not cause comes near the
    # score of the ones seen before (0.3 when the vote pushed the hand off, 0.3 when the clue
    # arrived; a card leaving the hand after a tap is 0.07).
    shifts: list[dict[str, Any]] = page.evaluate("window.__shifts")
    big = [s for s in shifts if not s["input"] and s["value"] > 0.1]
    assert not big, big
