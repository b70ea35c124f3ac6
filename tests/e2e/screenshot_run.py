"""What every screenshot script shares: where the pictures go, how wide they are kept, and one
run of a real ``dixit serve`` (temporary database) with headless Chromium around a capture."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from e2e_server import CHROMIUM, CHROMIUM_ARGS, ROOT, committed_decks, start_server, stop_server
from playwright.sync_api import sync_playwright

OUT = ROOT / "docs" / "screenshots"


def shrink_wide(width: int = 1280) -> None:
    """Keep the repository small: TV captures (1920 px) are stored 1280 px wide."""
    from PIL import Image

    for path in OUT.glob("*.jpg"):
        with Image.open(path) as im:
            if im.width <= width:
                continue
            small = im.resize((width, round(im.height * width / im.width)), Image.LANCZOS)
        small.save(path, quality=82, optimize=True)


def run(capture: Callable[[Any, str], None], *, clear: bool = False) -> int:
    """Start a server and a browser, ``capture(browser, base_url)``, keep the pictures small.
    ``clear``: delete the earlier pictures first (the full run does)."""
    OUT.mkdir(parents=True, exist_ok=True)
    if clear:
        for old in OUT.glob("*.*"):
            old.unlink()
    with tempfile.TemporaryDirectory() as tmp:
        proc, base, log = start_server(
            Path(tmp), Path(tmp) / "server.log", bot_delay=0.2, decks=committed_decks(Path(tmp))
        )
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
                capture(browser, base)
                browser.close()
            shrink_wide()
        finally:
            stop_server(proc, log)
    return 0
