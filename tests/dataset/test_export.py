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
        await store.put_room(RoomRecord("ABCD", room), 0)
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


@pytest.mark.parametrize(("mode", "players"), [("standard", 9), ("party", 8), ("teams", 10)])
def test_odyssey_rounds_carry_second_votes_and_the_void_and_re_score(tmp_path, mode, players):
    from dixit.dataset import rounds_of_game, write_jsonl

    seats = tuple(f"s{i}" for i in range(players))
    rules = rules_for("odyssey", mode)
    events = random_playthrough(rules, seats, DECK, seed=3)[1]
    records = rounds_of_game(events, "g")
    assert records and {r.mode for r in records} == {mode}
    if mode == "party":
        assert all(r.void is not None and None not in r.votes for r in records)
    elif mode == "teams":
        assert all(sum(v is not None for v in r.votes) == players // 2 - 1 for r in records)
    else:
        assert any(v is not None for r in records for v in r.second_votes or [])
        assert {r.votes_received_cap for r in records} == {3}
    path = tmp_path / "rounds.jsonl"
    write_jsonl(records, path)
    assert list(read_rounds(path)) == records
    # A second vote taken back, or the void moved onto a card two voters share, no longer
    # gives the recorded points.
    lines = path.read_text(encoding="utf-8").splitlines()
    for at in range(len(lines)):
        row = json.loads(lines[at])
        if mode == "party":
            shared = [v for v in row["votes"] if row["votes"].count(v) > 1 and v != row["void"]]
            if shared:
                row["void"] = shared[0]
                break
        elif mode == "teams":
            row["points"][0] += 1  # one partner's points without the other's
            break
        elif any(v is not None for v in row["second_votes"]):
            seat = next(i for i, v in enumerate(row["second_votes"]) if v is not None)
            row["second_votes"][seat] = None
            break
    lines[at] = json.dumps(row)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match="do not follow"):
        list(read_rounds(path))


def test_a_file_from_before_odyssey_still_reads(tmp_path):
    from dixit.dataset import REQUIRED, rounds_of_game

    events = random_playthrough(rules_for("classic"), SEATS, DECK, seed=1)[1]
    record = rounds_of_game(events, "g")[0]
    path = tmp_path / "old.jsonl"
    row = {k: v for k, v in vars(record).items() if k in REQUIRED}
    path.write_text(json.dumps(row) + "\n", encoding="utf-8")
    assert list(read_rounds(path)) == [record]
