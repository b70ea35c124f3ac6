"""Playing Dixit through the web client, the way a person would: by clicking and typing."""

from __future__ import annotations

import json
import re
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

I18N = Path(__file__).resolve().parents[2] / "web" / "src" / "i18n"
MISSING_MARK = "⟦missing:"
PHONE = {"width": 360, "height": 640}
DESKTOP = {"width": 1280, "height": 800}
TIMEOUT = 15_000
expect.set_options(timeout=TIMEOUT)


def messages(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))


@dataclass
class Player:
    page: Page
    name: str
    errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)

    def close(self) -> None:
        self.page.context.close()


def open_player(
    browser: Browser,
    base: str,
    name: str,
    *,
    viewport: dict[str, int] | None = None,
    locale: str = "en-US",
    mobile: bool = False,
) -> Player:
    ctx = browser.new_context(
        base_url=base,
        viewport=viewport or DESKTOP,
        locale=locale,
        is_mobile=mobile,
        has_touch=mobile,
        device_scale_factor=2 if mobile else 1,
    )
    ctx.set_default_timeout(TIMEOUT)
    # Every refusal of the server's Content-Security-Policy said on the console (Chromium says
    # most of them itself; the event catches the rest), where _csp_violation finds it.
    ctx.add_init_script(
        "document.addEventListener('securitypolicyviolation', (e) => console.error("
        "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    page = ctx.new_page()
    player = Player(page, name)
    page.on("pageerror", lambda e: player.errors.append(str(e)))
    page.on("console", lambda m: _csp_violation(player, m.text))

    def on_dialog(d: Any) -> None:
        player.dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    return player


def _csp_violation(player: Player, text: str) -> None:
    """The server's Content-Security-Policy refused something the page asked for: an error
    of the test like any page error (Chromium says so on the console)."""
    if "Content Security Policy" in text:
        player.errors.append(f"CSP violation: {text}")


def api(
    base: str,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> Any:
    data = json.dumps(body).encode() if body is not None else None
    req = urllib.request.Request(
        base + path,
        data=data,
        method=method,
        headers={"content-type": "application/json", **(headers or {})},
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def create_room(
    p: Player,
    *,
    bots: int = 0,
    first: str = "host",
    edition: str = "classic",
    max_rounds: int | None = None,
) -> str:
    page = p.page
    page.goto("/")
    page.get_by_test_id("name").fill(p.name)
    if edition != "classic":
        page.locator(f"input[name=edition][value='{edition}']").check()
    page.get_by_test_id("bots").fill(str(bots))
    page.locator("details.more > summary").click()
    page.locator("details.more select").first.select_option(first)
    if max_rounds is not None:
        page.get_by_test_id("max-rounds").fill(str(max_rounds))
    page.get_by_test_id("create").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()
    code = page.get_by_test_id("room-code").inner_text().strip()
    assert re.fullmatch(r"[A-Z0-9]{4,8}", code), code
    return code


def join_by_link(p: Player, code: str) -> None:
    page = p.page
    page.goto(f"/r/{code}")
    page.get_by_test_id("name").fill(p.name)
    page.get_by_test_id("join").click()
    expect(page.get_by_test_id("lobby")).to_be_visible()


def start(host: Player, seats: int) -> None:
    expect(host.page.get_by_test_id("seat")).to_have_count(seats)
    host.page.get_by_test_id("start").click()
    expect(host.page.get_by_test_id("game")).to_be_visible()


TAP_GUARD_MS = 400  # web/src/screens/Game.tsx: a tap this soon after the turn changed is dropped


def settled(p: Player) -> None:
    """Wait until a tap counts: the game drops taps just after the turn changed under a finger."""
    p.page.wait_for_function(
        """ms => { const g = document.querySelector("[data-testid=game]");
                   return !g || Date.now() - Number(g.dataset.turnAt || 0) >= ms; }""",
        arg=TAP_GUARD_MS,
    )


def wait_turn(p: Player, kind: str) -> None:
    expect(p.page.locator(f"[data-testid=banner][data-turn={kind}]")).to_be_visible()
    settled(p)


def left_turn(p: Player, kind: str) -> None:
    """The action was taken: the banner no longer asks for it (the next phase may have begun)."""
    expect(p.page.get_by_test_id("banner")).not_to_have_attribute("data-turn", kind)


def choosable(p: Player, row: str) -> Any:
    return p.page.locator(f"[data-testid={row}] button.card-face:not([disabled])")


def tell(p: Player, clue: str, index: int = 0) -> None:
    wait_turn(p, "yourClue")
    choosable(p, "hand").nth(index).click()
    p.page.get_by_test_id("clue-input").fill(clue)
    p.page.get_by_test_id("tell").click()
    expect(p.page.get_by_test_id("clue-input")).to_have_count(0)


def submit(p: Player, count: int = 1) -> None:
    wait_turn(p, "yourSubmit")
    for i in range(count):
        choosable(p, "hand").nth(i).click()
    p.page.get_by_test_id("submit").click()
    left_turn(p, "yourSubmit")


def vote(p: Player, index: int = 0) -> None:
    wait_turn(p, "yourVote")
    choosable(p, "table").nth(index).click()
    p.page.get_by_test_id("vote").click()
    left_turn(p, "yourVote")


def scores(p: Player) -> dict[str, int]:
    out = {}
    for row in p.page.get_by_test_id("player").all():
        out[row.get_attribute("data-player") or ""] = int(
            row.get_by_test_id("player-score").inner_text()
        )
    return out


def round_points(p: Player) -> dict[str, int]:
    out = {}
    for row in p.page.get_by_test_id("round-point").all():
        total = row.locator(".points-total").inner_text().strip().lstrip("+")
        out[row.get_attribute("data-player") or ""] = int(total)
    return out


AXE = Path(__file__).resolve().parents[2] / "web" / "node_modules" / "axe-core" / "axe.min.js"


def axe_problems(page: Page, impacts: tuple[str, ...] = ("serious", "critical")) -> list[str]:
    """Run axe-core (npm ``axe-core``, injected into the page) and list the violations of these
    impacts as "rule: target" lines; empty when the screen passes."""
    # Audit the settled screen: finite animations (cards turning over, fades) jump to their end,
    # endless ones (a glow) stand at their start.
    page.evaluate(
        """() => document.getAnimations().forEach(a => {
            if (Number.isFinite(a.effect?.getComputedTiming().endTime)) a.finish();
            else { a.pause(); a.currentTime = 0; } })"""
    )
    inject_axe(page)
    found = page.evaluate(
        """async () => (await axe.run(document, { resultTypes: ['violations'] })).violations
            .map(v => ({ id: v.id, impact: v.impact,
                         targets: v.nodes.map(n => n.target.join(" ") + n.failureSummary) }))"""
    )
    return [
        f"{v['id']} ({v['impact']}): {', '.join(v['targets'][:3])}"
        for v in found
        if v["impact"] in impacts
    ]


def inject_axe(page: Page) -> None:
    """axe-core into the page, once. Evaluated through the browser's debugging protocol: the
    server's Content-Security-Policy refuses inline scripts such as an added script tag."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text("utf-8") + "\n;0")


def assert_accessible(page: Page) -> None:
    problems = axe_problems(page)
    assert not problems, "axe-core:\n" + "\n".join(problems)
