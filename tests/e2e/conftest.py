"""Browser tests: the real server (``dixit serve``) and Debian's headless Chromium via Playwright.

Skipped, with the reason shown, when /usr/bin/chromium (``make chromium``), the built client
(``make web-build``) or the playwright package is missing. Playwright never downloads a browser
here: it launches the system Chromium by its path.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
# pytest runs with --import-mode=importlib: make e2e_helpers importable from the test modules.
sys.path.insert(0, str(Path(__file__).resolve().parent))
CHROMIUM = Path(os.environ.get("DIXIT_CHROMIUM", "/usr/bin/chromium"))
CLIENT_INDEX = ROOT / "web" / "dist" / "index.html"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data_dir: Path, log_path: Path) -> tuple[subprocess.Popen[bytes], str, Any]:
    port = _free_port()
    log = open(log_path, "wb")  # noqa: SIM115 - closed by stop_server
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "dixit.cli.main",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--database",
            f"sqlite:///{data_dir / 'e2e.sqlite3'}",
            "--data-dir",
            str(data_dir),
            "--client-dir",
            str(CLIENT_INDEX.parent),
            "--bot-delay",
            "0.2",
            "--log-level",
            "warning",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{base}/api/health", timeout=1) as r:
                if r.status == 200:
                    break
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.close()
            raise RuntimeError(
                f"dixit serve did not start; see {log_path}:\n{log_path.read_text()}"
            )
        time.sleep(0.2)
    return proc, base, log


def stop_server(proc: subprocess.Popen[bytes], log: Any) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    log.close()


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
