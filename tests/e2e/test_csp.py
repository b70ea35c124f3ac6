"""The server's Content-Security-Policy holds in the browser, and the harness catches a page
that breaks it (every other browser test then fails on a CSP violation)."""

from __future__ import annotations

import time
from typing import Any

from e2e_helpers import DESKTOP
from playwright.sync_api import expect


def test_an_inline_script_is_refused_and_the_harness_sees_it(opened: Any) -> None:
    p = opened("Ann", viewport=DESKTOP)
    p.page.goto("/")
    expect(p.page.get_by_test_id("name")).to_be_visible()
    ran = p.page.evaluate(
        """() => { window.inlineRan = false;
            const s = document.createElement('script');
            s.textContent = 'window.inlineRan = true';
            document.body.appendChild(s);
            return window.inlineRan; }"""
    )
    assert ran is False  # refused by script-src 'self'
    deadline = time.monotonic() + 10
    while not any("Content Security Policy" in e for e in p.errors):
        assert time.monotonic() < deadline, "the harness did not see the CSP violation"
        p.page.wait_for_timeout(100)
    p.errors.clear()  # seen: this test's page is otherwise clean
