"""Browser tests: the real server (``dixit serve``) and Debian's headless Chromium via Playwright.

Skipped, with the reason shown, when /usr/bin/chromium (``make chromium``), the built client
(``make web-build``) or the playwright package is missing. Playwright never downloads a browser
here: it launches the system Chromium by its path.
"""

from __future__ import annotations

import contextlib
import gc
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# pytest runs with --import-mode=importlib: make the e2e helper modules importable.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from e2e_server import CHROMIUM, CHROMIUM_ARGS, CLIENT_INDEX, start_server, stop_server


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark browser tests and run them last: Playwright's sync API keeps an event loop running
    for the session, and tests that call ``asyncio.run`` must not run after it starts."""
    here = Path(__file__).parent
    browser_tests = [item for item in items if here in Path(str(item.fspath)).parents]
    for item in browser_tests:
        item.add_marker(pytest.mark.e2e)
    items[:] = [item for item in items if item not in browser_tests] + browser_tests


@pytest.fixture(scope="session", autouse=True)
def _collect_what_earlier_tests_left() -> None:
    """Browser tests run last. Let the collector close what earlier test modules left behind (an
    unclosed socket is a ResourceWarning, an error here) now, and say so, rather than at a random
    moment inside a browser test, which would then fail for someone else's leak."""
    left: list[str] = []
    hook = sys.unraisablehook
    sys.unraisablehook = lambda u: left.append(f"{u.exc_type.__name__}: {u.exc_value}")
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
    if left:
        print(
            f"\ne2e: {len(left)} object(s) left unclosed by earlier tests: {left[:3]}",
            file=sys.stderr,
        )


@pytest.fixture(scope="session")
def _requirements() -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"e2e: {CHROMIUM} not found; install Debian's chromium (make chromium)")
    if not CLIENT_INDEX.exists():
        pytest.skip(f"e2e: {CLIENT_INDEX} not built; run make web-build")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        pytest.skip("e2e: the playwright package is not installed (pip install -e '.[dev]')")


@pytest.fixture(scope="session")
def server(_requirements: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("dixit-e2e")
    proc, base, log = start_server(data, data / "server.log")
    yield base
    stop_server(proc, log)


@pytest.fixture(scope="session")
def browser(_requirements: None) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        with contextlib.suppress(Exception):
            b.close()


@pytest.fixture
def base_url(server: str) -> str:
    """The server the ``opened`` players connect to (a test module may point it elsewhere)."""
    return server


@pytest.fixture
def opened(browser: Any, base_url: str) -> Iterator[Any]:
    """Opens players (a page each) on ``base_url``; at the end every page must have had no
    error, and is closed."""
    from e2e_helpers import open_player

    made: list[Any] = []

    def make(name: str, **kw: Any) -> Any:
        p = open_player(browser, base_url, name, **kw)
        made.append(p)
        return p

    yield make
    for p in made:
        assert p.errors == [], f"{p.name}: page errors {p.errors}"
        p.close()
