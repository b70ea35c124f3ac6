"""A restart of ``dixit serve`` imports only what answering needs (#30): the computer players
(numpy) come later, in the background, and other sub-commands not at all."""

from __future__ import annotations

import subprocess
import sys

from dixit.cli.main import COMMANDS, build_parser


def _imported(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(out.split())


def test_each_command_is_registered_by_its_module() -> None:
    parser = build_parser()
    (commands,) = (a for a in parser._actions if a.dest == "command")
    assert set(commands.choices or ()) == set(COMMANDS)
    for name in COMMANDS:
        alone = build_parser([name])
        (only,) = (a for a in alone._actions if a.dest == "command")
        assert name in (only.choices or ())


def test_serve_imports_neither_the_players_nor_other_commands() -> None:
    modules = _imported(
        "from dixit.cli.main import build_parser\n"
        "build_parser(['serve']).parse_args(['serve'])\n"
        "import dixit.server.app, dixit.cli.serve"
    )
    assert "dixit.server.app" in modules
    assert not {"numpy", "dixit.bots", "dixit.cli.arena", "dixit.cli.simulate"} & modules


def test_other_commands_still_find_theirs() -> None:
    modules = _imported("from dixit.cli.main import build_parser\nbuild_parser(['arena'])")
    assert {"dixit.cli.arena", "dixit.bots"} <= modules


def test_the_supervisor_imports_no_web_framework() -> None:
    """``dixit serve`` supervises its workers; they are forked from a fork server that imports
    the server, so the supervisor need not (FastAPI and pydantic: about a second)."""
    modules = _imported(
        "from dixit.cli.main import build_parser\n"
        "build_parser(['serve']).parse_args(['serve'])\n"
        "import dixit.cli.serve, dixit.server, dixit.server.workers, dixit.pubsub, dixit.storage"
    )
    assert "dixit.server.workers" in modules
    assert not {"fastapi", "pydantic", "uvicorn", "dixit.server.app"} & modules
