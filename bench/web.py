"""Web client benchmarks: bundle size (gzipped) and time-to-playable in headless Chromium.

    make web-build chromium && .venv/bin/python bench/web.py

Time-to-playable: from navigation start (``performance.timeOrigin``) until the first card of the
player's hand is decoded and on screen, for a player opening a game in progress over loopback:
cold (a fresh browser context, empty cache) and warm (a reload). Layout shift: the cumulative
layout shift score (CLS, ``layout-shift`` entries without recent input) of a phone player who
plays two whole rounds by tapping. Prints a Markdown section.

    .venv/bin/python bench/web.py --cls 5 [--shifts]

runs only the layout-shift routine (5 times), and with ``--shifts`` lists every layout-shift entry
with the nodes that moved (previous and current rectangle: x, y, width, height).
"""

from __future__ import annotations

import gzip
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

# The browser-test helpers start the server and Chromium the same way the e2e tests do.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "e2e"))

from e2e_helpers import DESKTOP, PHONE, api
from e2e_server import CHROMIUM, CHROMIUM_ARGS, ROOT, committed_decks, start_server, stop_server
from playwright.sync_api import sync_playwright

DIST = ROOT / "web" / "dist"
RUNS = 10
HAND_READY = """() => {
  const img = document.querySelector('[data-testid=hand-card] img');
  return img && img.complete && img.naturalWidth > 0 ? performance.now() : false;
}"""


def store_ticket(ticket: dict) -> str:
    """A script storing the seat ticket as the home page would: the page opens in the game."""
    return (
        f"localStorage.setItem('dixit.ticket.{ticket['code']}', {json.dumps(json.dumps(ticket))})"
    )


def bundle() -> list[tuple[str, int, int]]:
    rows = []
    for f in sorted((DIST / "assets").iterdir()):
        if f.suffix in (".js", ".css"):
            data = f.read_bytes()
            rows.append((f.name, len(data), len(gzip.compress(data, 9))))
    return rows


def initial_js(rows: list[tuple[str, int, int]]) -> tuple[int, int]:
    html = (DIST / "index.html").read_text()
    raw = gz = 0
    for name, r, g in rows:
        if name.endswith(".js") and name in html:
            raw, gz = raw + r, gz + g
    return raw, gz


def measure(browser, base: str, ticket: dict, viewport: dict, mobile: bool) -> dict[str, list]:
    cold, warm, dcl = [], [], []
    for _ in range(RUNS):
        ctx = browser.new_context(
            base_url=base, viewport=viewport, is_mobile=mobile, has_touch=mobile
        )
        page = ctx.new_page()
        page.add_init_script(store_ticket(ticket))
        page.goto(ticket["url"])
        cold.append(page.wait_for_function(HAND_READY, polling="raf", timeout=20_000).json_value())
        dcl.append(
            page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
        )
        page.reload()
        warm.append(page.wait_for_function(HAND_READY, polling="raf", timeout=20_000).json_value())
        ctx.close()
    return {"cold": cold, "warm": warm, "dcl": dcl}


CLS_OBSERVER = """
  window.__cls = 0;
  window.__shifts = [];
  const describe = (n) => {
    if (!n || !n.tagName) return String(n && n.nodeName);
    const id = n.getAttribute('data-testid') || n.id;
    const cls = (n.getAttribute('class') || '').trim().split(/\\s+/).slice(0, 2).join('.');
    return n.tagName.toLowerCase() + (id ? '#' + id : '') + (cls ? '.' + cls : '');
  };
  const rect = (r) => [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (!e.hadRecentInput) window.__cls += e.value;
      const b = document.querySelector('[data-testid=banner]');
      const g = document.querySelector('[data-testid=game]');
      window.__shifts.push({
        value: e.value, input: e.hadRecentInput, t: Math.round(e.startTime),
        turn: b && g ? b.dataset.turn + ' r' + g.dataset.round : '-',
        sources: (e.sources || []).map((s) => ({
          node: describe(s.node), from: rect(s.previousRect), to: rect(s.currentRect),
        })),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
"""


def play_cls(browser, base: str, shifts: list | None = None) -> float:
    """CLS of two rounds played on a phone: telling, the reveal, choosing a card, voting.

    ``shifts``, when given, gets every layout-shift entry (value, turn, sources)."""
    ticket = api(
        base,
        "POST",
        "/api/rooms",
        {"name": "Ann", "settings": {"bots": 3, "first_storyteller": "host", "max_rounds": 2}},
    )
    ctx = browser.new_context(base_url=base, viewport=PHONE, is_mobile=True, has_touch=True)
    page = ctx.new_page()
    page.add_init_script(store_ticket(ticket) + CLS_OBSERVER)
    page.goto(ticket["url"])
    page.get_by_test_id("start").tap()
    free = "button.card-face:not([disabled])"
    page.locator("[data-testid=banner][data-turn=yourClue]").wait_for()
    page.locator(f"[data-testid=hand] {free}").first.tap()
    page.get_by_test_id("clue-input").fill("a long way home")
    page.get_by_test_id("tell").tap()
    page.get_by_test_id("reveal-close").tap()
    page.locator("[data-testid=banner][data-turn=yourSubmit]").wait_for()
    page.locator(f"[data-testid=hand] {free}").first.tap()
    page.get_by_test_id("submit").tap()
    page.locator("[data-testid=banner][data-turn=yourVote]").wait_for()
    page.locator(f"[data-testid=table] {free}").first.tap()
    page.get_by_test_id("vote").tap()
    page.get_by_test_id("game-over").wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    cls = float(page.evaluate("window.__cls"))
    if shifts is not None:
        shifts.extend(page.evaluate("window.__shifts"))
    ctx.close()
    return cls


def cls_only(runs: int, show: bool) -> int:
    """Only the phone's layout shift, ``runs`` times; ``show`` lists every shift and its sources."""
    values = []
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, log = start_server(
            Path(tmp), Path(tmp) / "server.log", bot_delay=0.1, decks=committed_decks(Path(tmp))
        )
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                for run in range(runs):
                    entries: list = []
                    values.append(play_cls(browser, base, entries))
                    print(f"run {run + 1}: CLS {values[-1]:.3f}")
                    for e in entries if show else []:
                        mark = " (after input, not counted)" if e["input"] else ""
                        print(f"  {e['t']:>6} ms  {e['value']:.4f}  {e['turn']}{mark}")
                        for src in e["sources"]:
                            print(f"      {src['node']}: {src['from']} -> {src['to']}")
                browser.close()
        finally:
            stop_server(proc, log)
    med = statistics.median(values)
    print(f"CLS median {med:.3f}, min {min(values):.3f}, max {max(values):.3f}")
    return 0


def main() -> int:
    if "--cls" in sys.argv:
        i = sys.argv.index("--cls")
        runs = int(sys.argv[i + 1]) if len(sys.argv) > i + 1 and sys.argv[i + 1].isdigit() else 5
        return cls_only(runs, "--shifts" in sys.argv)
    rows = bundle()
    raw_js, gz_js = initial_js(rows)
    all_js_gz = sum(g for n, _, g in rows if n.endswith(".js"))
    css_gz = sum(g for n, _, g in rows if n.endswith(".css"))
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, log = start_server(
            Path(tmp), Path(tmp) / "server.log", bot_delay=0.1, decks=committed_decks(Path(tmp))
        )
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                ticket = api(
                    base,
                    "POST",
                    "/api/rooms",
                    {"name": "Ann", "settings": {"bots": 3, "first_storyteller": "host"}},
                )
                # Start the game from a socket-less page: the host's page clicks Start once.
                ctx = browser.new_context(base_url=base)
                page = ctx.new_page()
                page.add_init_script(store_ticket(ticket))
                page.goto(ticket["url"])
                page.get_by_test_id("start").click()
                page.get_by_test_id("hand").wait_for()
                ctx.close()
                time.sleep(0.5)
                desktop = measure(browser, base, ticket, DESKTOP, False)
                phone = measure(browser, base, ticket, PHONE, True)
                shifts = [play_cls(browser, base) for _ in range(5)]
                version = browser.version
                browser.close()
        finally:
            stop_server(proc, log)

    def ms(xs: list[float]) -> str:
        return f"{statistics.median(xs):.0f} ms (min {min(xs):.0f}, max {max(xs):.0f})"

    print("| What | Result |")
    print("| --- | --- |")
    print(f"| Initial JS (gzip -9) | **{gz_js / 1024:.1f} KB** ({raw_js / 1024:.1f} KB raw) |")
    print(f"| All JS incl. 5 lazy language files (gzip) | {all_js_gz / 1024:.1f} KB |")
    print(f"| CSS (gzip) | {css_gz / 1024:.1f} KB |")
    for label, res in (("desktop 1280×800", desktop), ("phone 360×640", phone)):
        print(f"| Time-to-playable, {label}, cold | {ms(res['cold'])} |")
        print(f"| Time-to-playable, {label}, reload | {ms(res['warm'])} |")
        print(f"| DOMContentLoaded, {label}, cold | {ms(res['dcl'])} |")
    print(f"| Layout shift (CLS), two rounds played on a phone | {max(shifts):.3f} (worst of 5) |")
    print(f"\nChromium {version}, {RUNS} runs each, medians.")
    print("\n| File | Raw | gzip |\n| --- | --- | --- |")
    for name, r, g in rows:
        print(f"| {name} | {r / 1024:.1f} KB | {g / 1024:.1f} KB |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
