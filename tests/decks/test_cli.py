"""``dixit deck list`` and ``dixit deck import`` through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dixit.cli.main import main


def test_list_shows_the_builtin_decks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deck", "list", "--data-dir", str(tmp_path), "--json"]) == 0
    decks = json.loads(capsys.readouterr().out)
    assert [(d["slug"], d["kind"], d["default"]) for d in decks[:5]] == [
        ("golden-tales", "illustrated", True),
        ("golden-tales-2", "illustrated", False),
        ("ink-tales", "illustrated", False),
        ("default-1", "generated", False),
        ("default-2", "generated", False),
    ]
    assert decks[0]["cards"] >= 84 and decks[3]["cards"] == 84
    assert all(d["builtin"] and d["licence"] for d in decks[:5])
    assert main(["deck", "list", "--data-dir", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    count = str(decks[0]["cards"])
    assert lines[0].split()[:5] == ["golden-tales", "Golden", "Tales", count, "cards"]
    assert "default" in lines[0] and "Public domain" in lines[0]
    assert "MIT" in lines[3] and "default" not in lines[3].split("84 cards")[1]


def test_import_reports_rejections_and_lists_the_new_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], files: Any
) -> None:
    src = tmp_path / "pics"
    src.mkdir()
    (src / "one.png").write_bytes(files.png(600, 900, seed=21))
    (src / "two.jpg").write_bytes(files.jpeg(700, 1050, seed=22))
    (src / "fake.png").write_text("not an image")
    data = tmp_path / "data"
    status = main(
        ["deck", "import", str(src), "--name", "Family", "--data-dir", str(data), "--json"]
    )
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["slug"] == "family" and len(report["accepted"]) == 2
    assert report["rejected"] == [
        {
            "filename": "fake.png",
            "reason": "not-an-image",
            "message": "content is not PNG, JPEG or WebP",
        }
    ]
    assert main(["deck", "list", "--data-dir", str(data)]) == 0
    out = capsys.readouterr().out
    assert "family" in out and "imported" in out


def test_import_of_nothing_usable_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "empty"
    src.mkdir()
    (src / "a.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    assert main(["deck", "import", str(src), "--name", "X", "--data-dir", str(tmp_path)]) == 1
    assert "a.svg: svg" in capsys.readouterr().out
