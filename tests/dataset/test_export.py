"""``dixit export`` from a real SQLite store, and ``dixit import-rounds`` reading it back."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from dixit.cli.main import main
from dixit.dataset import read_rounds
from dixit.engine import random_playthrough, rules_for
from dixit.engine.serialize import event_to_json
from dixit.storage import RoomRecord, open_store

DECK = tuple(f"deck-1-{i:012x}" for i in range(84))
SEATS = ("s1", "s2", "s3", "s4")


def _store_with_games(path: Path) -> str:
    url = f"sqlite:///{path}"
    finished = random_playthrough(rules_for("classic"), SEATS, DECK, seed=1)[1]
    unfinished = random_playthrough(rules_for("2021"), SEATS, DECK, seed=2)[1]
    unfinished = unfinished[: len(unfinished) // 2]
    room = {
        "code": "ABCD",
        "game_number": 2,
        "settings": {"language": "it"},
        "seats": [
            {"id": "s1", "name": "Zelda Secretname", "is_bot": False},
            {"id": "s2", "name": "Robot 1", "is_bot": True, "bot_level": "strong"},
            {"id": "s3", "name": "Bo", "is_bot": False},
            {"id": "s4", "name": "Cy", "is_bot": False},
        ],
    }

    async def fill() -> None:
        store = open_store(url)
        await store.open()
        await store.append("ABCD:1", 0, [event_to_json(e) for e in finished])
        await store.append("ABCD:2", 0, [event_to_json(e) for e in unfinished])
        await store.save_room(RoomRecord("ABCD", room))
        await store.close()

    asyncio.run(fill())
    return url


def test_export_writes_only_finished_rounds_without_names_and_reads_back(tmp_path, capsys):
    url = _store_with_games(tmp_path / "games.sqlite3")
    out = tmp_path / "rounds.jsonl"
    assert main(["export", str(out), "--database", url]) == 0
    text = out.read_text(encoding="utf-8")
    assert "Zelda" not in text and "ABCD" not in text and '"s1"' not in text
    records = list(read_rounds(out))
    assert len(records) == 15  # a 4-player classic game: 15 rounds; the unfinished one: none
    assert {r.edition for r in records} == {"classic"}
    assert records[0].seat_kinds == ["human", "bot:strong", "human", "human"]
    assert records[0].language == "it"
    assert records[-1].scores == [sum(r.points[i] for r in records) for i in range(4)]

    parquet = tmp_path / "rounds.parquet"
    assert main(["export", str(parquet), "--database", url]) == 0
    assert list(read_rounds(parquet)) == records

    capsys.readouterr()
    assert main(["import-rounds", str(parquet)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["rounds"] == 15 and summary["games"] == 1
    assert 0 <= summary["listener_accuracy"] <= 1


def test_import_rounds_rejects_a_round_whose_points_do_not_follow(tmp_path, capsys):
    url = _store_with_games(tmp_path / "games.sqlite3")
    out = tmp_path / "rounds.jsonl"
    assert main(["export", str(out), "--database", url]) == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    forged = json.loads(lines[2])
    forged["points"][forged["storyteller"]] += 1
    lines[2] = json.dumps(forged)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["import-rounds", str(out)]) == 2
    error = json.loads(capsys.readouterr().err)["error"]
    assert error["code"] == "dataset/invalid" and error["line"] == 3


@pytest.mark.parametrize("bad", ['{"game": 1}', "not json"])
def test_import_rounds_rejects_malformed_lines(tmp_path, capsys, bad):
    path = tmp_path / "bad.jsonl"
    path.write_text(bad + "\n", encoding="utf-8")
    assert main(["import-rounds", str(path)]) == 2
    assert json.loads(capsys.readouterr().err)["error"]["line"] == 1
