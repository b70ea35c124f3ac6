"""Start and stop a real ``dixit serve`` for browser tests and screenshots (no playwright here)."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
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


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def committed_decks(dest: Path) -> Path:
    """The built-in decks as committed (HEAD), unpacked under ``dest``: screenshots and benchmarks
    then show the same pictures while someone re-renders the decks in the working tree."""
    archive = subprocess.run(
        ["git", "archive", "HEAD", "src/dixit/decks/default"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest / "src" / "dixit" / "decks" / "default"


FIXTURE_LANGS = ("en", "it", "pl", "es", "pt", "fr")


def illustrated_fixture(decks: Path, slug: str = "golden-tales", source: str = "default-1") -> None:
    """An illustrated-deck stand-in beside the committed decks (tests only): the pictures of
    ``source`` under ``slug``, with ``kind: illustrated``, six-language ``text`` ("[it] title")
    and credits, as the illustrated decks carry them (docs: CONTRACTS section 1). It stands in
    for the shipped illustrated decks, so tests see one known default deck of 84 cards."""
    raw = json.loads((decks / source / "deck.json").read_text("utf-8"))
    for shipped in decks.glob("*/deck.json"):  # the real illustrated decks, where present
        if json.loads(shipped.read_text("utf-8")).get("kind") == "illustrated":
            shutil.rmtree(shipped.parent)
    out = decks / slug
    out.mkdir()
    cards = []
    for n, card in enumerate(raw["cards"]):
        cid = f"{slug}-{card['id'].rsplit('-', 1)[1]}"
        shutil.copy(decks / source / card["file"], out / f"{cid}.webp")
        text = {
            lang: {
                "title": f"[{lang}] {card['title']}",
                "description": f"[{lang}] {card['description']}",
                "alt_text": f"[{lang}] {card['alt_text']}",
                "things": ["moon"],
                "themes": ["dream"],
                "moods": ["calm"],
            }
            for lang in FIXTURE_LANGS
        }
        source_of = {
            "artist": f"Artist {n % 3 + 1}",
            "work": f"Book {n % 4 + 1}",
            "published": "1910",
        }
        cards.append({**card, "id": cid, "file": f"{cid}.webp", "text": text, "source": source_of})
    manifest = {"slug": slug, "name": "Golden Test", "builtin": True, "kind": "illustrated",
                "recommended": True, "license": "public domain", "cards": cards}  # fmt: skip
    (out / "deck.json").write_text(json.dumps(manifest), "utf-8")


# Runs `dixit serve` with the built-in deck folder replaced (see committed_decks).
_WITH_DECKS = (
    "import sys; from pathlib import Path; import dixit.decks.library as lib; "
    "decks = Path(sys.argv.pop(1)); lib.builtin_root = lambda: decks; "
    "from dixit.cli.main import main; sys.exit(main(sys.argv[1:]))"
)


def start_server(
    data_dir: Path, log_path: Path, bot_delay: float = 0.2, decks: Path | None = None
) -> tuple[subprocess.Popen[bytes], str, Any]:
    port = _free_port()
    log = open(log_path, "wb")  # noqa: SIM115 - closed by stop_server
    launcher = ["-c", _WITH_DECKS, str(decks)] if decks else ["-m", "dixit.cli.main"]
    proc = subprocess.Popen(
        [
            sys.executable,
            *launcher,
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
            str(bot_delay),
            "--log-level",
            "warning",
            # The stand-in decks are patched into this process only: a supervised worker,
            # forked from a fresh fork server, would read the shipped decks.
            *(("--workers", "0") if decks else ()),
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
